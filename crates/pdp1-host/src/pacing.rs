//! Real-time pacing: how far emulated time may run, given the host clock.
//!
//! The target is computed from a fixed anchor (host instant, emulated time) rather than by adding
//! up frame times, so rounding never accumulates and the machine stays locked to the wall clock
//! at exactly 5 µs per cycle over any length of run. The anchor moves only when the speed
//! changes, on pause/resume, after the machine stopped, or when the host fell so far behind that
//! catching up would be a visible burst.

use std::time::Duration;

pub use crate::config::Speed;

/// How long one frame may spend running the machine at `Speed::Max`.
pub const MAX_SPEED_BUDGET: Duration = Duration::from_millis(12);
/// Falling further behind than this re-anchors instead of catching up.
pub const MAX_LAG_NS: u64 = 250_000_000;
/// Longest stretch of emulated time run between two looks at the host's input (the held keys
/// the controller strikes, a window's quit): 5 ms, a thousand cycles.
pub const CHUNK_NS: u64 = 5_000_000;
/// At full speed, after this many chunks (one emulated second) a frame ends if the host's
/// clock has not moved at all: headless Chromium's virtual time stands still inside a task,
/// and the page's task must end for it to go on. A real clock moves, and the budget decides.
pub const FROZEN_CLOCK_CHUNKS: u32 = 200;

/// What to do this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Run until this emulated time.
    Until(u64),
    /// Run for this much host time (maximum speed).
    For(Duration),
    /// Paused: do not run.
    Hold,
}

#[derive(Clone, Debug)]
pub struct Pacer {
    speed: Speed,
    paused: bool,
    anchor_host: Duration,
    anchor_emul: u64,
}

impl Pacer {
    /// `host_now` is any monotonic host time (e.g. `Instant::elapsed` of the program start).
    pub fn new(speed: Speed, host_now: Duration, emul_now: u64) -> Pacer {
        Pacer {
            speed,
            paused: false,
            anchor_host: host_now,
            anchor_emul: emul_now,
        }
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Restart the clock from here (the machine stopped, was stepped, or time jumped).
    pub fn reanchor(&mut self, host_now: Duration, emul_now: u64) {
        self.anchor_host = host_now;
        self.anchor_emul = emul_now;
    }

    pub fn set_speed(&mut self, speed: Speed, host_now: Duration, emul_now: u64) {
        self.speed = speed;
        self.reanchor(host_now, emul_now);
    }

    pub fn set_paused(&mut self, paused: bool, host_now: Duration, emul_now: u64) {
        self.paused = paused;
        self.reanchor(host_now, emul_now);
    }

    /// The pause key (F10 in the window and on the page): paused if it was not; returns
    /// whether it is paused now.
    pub fn toggle_pause(&mut self, host_now: Duration, emul_now: u64) -> bool {
        self.set_paused(!self.paused, host_now, emul_now);
        self.paused
    }

    /// The speed key (F11): the next speed in the cycle; returns it.
    pub fn next_speed(&mut self, host_now: Duration, emul_now: u64) -> Speed {
        self.set_speed(self.speed.next(), host_now, emul_now);
        self.speed
    }

    /// How far emulated time goes this frame while the processor stands stopped: its devices
    /// and the tube go on at the pace the machine would run (real time at `Speed::Max`), so a
    /// character being typed is finished and the picture fades (issue 16). `None` while
    /// paused. A clock that ran ahead (single steps) or fell behind is re-anchored here.
    pub fn stopped(&mut self, host_now: Duration, emul_now: u64) -> Option<u64> {
        if self.paused {
            return None;
        }
        let factor = match self.speed {
            Speed::Max => 1.0,
            Speed::Factor(f) => f,
        };
        let host_ns = host_now.saturating_sub(self.anchor_host).as_nanos() as f64;
        let target = self.anchor_emul.saturating_add((host_ns * factor) as u64);
        if target < emul_now
            || target > emul_now.saturating_add((MAX_LAG_NS as f64 * factor) as u64)
        {
            self.reanchor(host_now, emul_now);
            return Some(emul_now);
        }
        Some(target)
    }

    /// The work for this frame.
    pub fn plan(&mut self, host_now: Duration, emul_now: u64) -> Run {
        if self.paused {
            return Run::Hold;
        }
        let factor = match self.speed {
            Speed::Max => return Run::For(MAX_SPEED_BUDGET),
            Speed::Factor(f) => f,
        };
        // f64 holds whole nanoseconds exactly for 104 days of host time; the anchor keeps the
        // product from accumulating error.
        let host_ns = host_now.saturating_sub(self.anchor_host).as_nanos() as f64;
        let target = self.anchor_emul.saturating_add((host_ns * factor) as u64);
        if target > emul_now.saturating_add((MAX_LAG_NS as f64 * factor) as u64) {
            // The host could not keep up (or was suspended): continue from here, don't race.
            self.reanchor(host_now, emul_now);
            return Run::Until(emul_now);
        }
        Run::Until(target)
    }
}

/// A host's machine as [`run_frame`] drives it: the window's and the page's, each with its own
/// clock and its own way of showing what a step brought.
pub trait Frame {
    /// The processor runs.
    fn running(&self) -> bool;
    /// Emulated time, ns.
    fn time_ns(&self) -> u64;
    /// The host's clock (any monotonic origin): the budget at full speed is measured on it.
    fn clock(&self) -> Duration;
    /// One step of the run controller towards emulated time `t`, its output shown; false when
    /// the machine stopped or the run ended.
    fn step(&mut self, t: u64) -> bool;
    /// The host is done (a window closing): no more steps this frame.
    fn quit(&self) -> bool {
        false
    }
}

/// Run one frame's share of the machine at `pacer`'s pace, at host time `now`: to the pacer's
/// target in [`CHUNK_NS`] steps (real time, or a multiple), for its budget of host time at
/// full speed, and while the processor stands, its devices and the tube to the time the pacer
/// gives a standing machine (issue 16). The window calls it once a frame; the page once a
/// frame at a set speed and back to back at full speed.
pub fn run_frame(pacer: &mut Pacer, h: &mut impl Frame, now: Duration) {
    if !h.running() {
        // The processor stands; its devices and the tube do not: a character being typed is
        // finished, a tape line lands in the reader buffer, the picture fades - emulated time
        // goes on without processor cycles (the controller's step of a standing machine).
        if let Some(t) = pacer.stopped(now, h.time_ns()) {
            if t > h.time_ns() {
                h.step(t);
            }
        }
        return;
    }
    match pacer.plan(now, h.time_ns()) {
        Run::Hold => {}
        Run::Until(t) => run_to(h, t),
        Run::For(budget) => {
            let start = h.clock();
            let end = start + budget;
            let mut chunks = 0;
            // One look at the clock a chunk: in the browser each is a call out of
            // WebAssembly (`performance.now()`), a chunk some 5 µs of the host's time.
            while h.running() && !h.quit() {
                let now = h.clock();
                if now >= end {
                    break;
                }
                chunks += 1;
                if chunks > FROZEN_CLOCK_CHUNKS && now == start {
                    break;
                }
                let t = h.time_ns() + CHUNK_NS;
                run_to(h, t);
            }
        }
    }
}

/// Run to emulated time `t` in [`CHUNK_NS`] steps (the host strikes held keys between them).
pub fn run_to(h: &mut impl Frame, t: u64) {
    while h.running() && h.time_ns() < t && !h.quit() {
        let now = h.time_ns();
        if !h.step(t.min(now + CHUNK_NS)) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    /// The pause and speed keys: each press flips the pause, or moves to the next speed, and
    /// says what it is now.
    #[test]
    fn the_pause_and_speed_keys_cycle() {
        let mut p = Pacer::new(Speed::Factor(1.0), Duration::ZERO, 0);
        assert!(p.toggle_pause(Duration::ZERO, 0));
        assert!(!p.toggle_pause(Duration::ZERO, 0));
        let first = p.next_speed(Duration::ZERO, 0);
        assert_eq!(first, Speed::Factor(1.0).next());
        assert_eq!(p.speed(), first);
        assert_eq!(p.next_speed(Duration::ZERO, 0), first.next());
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn real_time_target_follows_the_host_clock_without_drift() {
        let mut p = Pacer::new(Speed::Factor(1.0), ms(1000), 7 * S);
        // 10,000 frames of 16.666… ms: the target is exact at the end, no per-frame rounding.
        let mut emul = 7 * S;
        for f in 1..=10_000u64 {
            let host = Duration::from_nanos(1_000_000_000 + f * 50_000_000 / 3);
            match p.plan(host, emul) {
                Run::Until(t) => emul = t,
                r => panic!("{r:?}"),
            }
        }
        assert_eq!(emul, 7 * S + 10_000 * 50_000_000 / 3);
    }

    #[test]
    fn speed_change_and_pause_do_not_jump() {
        let mut p = Pacer::new(Speed::Factor(1.0), ms(0), 0);
        assert_eq!(p.plan(ms(100), 0), Run::Until(100_000_000));
        p.set_speed(Speed::Factor(4.0), ms(100), 100_000_000);
        assert_eq!(p.plan(ms(110), 100_000_000), Run::Until(140_000_000));
        p.set_paused(true, ms(110), 140_000_000);
        assert_eq!(p.plan(ms(5000), 140_000_000), Run::Hold);
        p.set_paused(false, ms(5000), 140_000_000);
        assert_eq!(p.plan(ms(5001), 140_000_000), Run::Until(144_000_000));
        p.set_speed(Speed::Max, ms(5001), 144_000_000);
        assert_eq!(p.plan(ms(5002), 144_000_000), Run::For(MAX_SPEED_BUDGET));
    }

    #[test]
    fn a_stopped_machines_time_follows_the_host_clock() {
        // Stopped at Speed::Max: real time; at 4x: four times real time; paused: nothing.
        let mut p = Pacer::new(Speed::Max, ms(0), 0);
        // The machine ran ahead of the wall clock at Max: the first stopped frame re-anchors.
        assert_eq!(p.stopped(ms(100), 900_000_000), Some(900_000_000));
        assert_eq!(p.stopped(ms(150), 900_000_000), Some(950_000_000));
        assert_eq!(p.stopped(ms(200), 950_000_000), Some(1_000_000_000));
        p.set_speed(Speed::Factor(4.0), ms(200), 1_000_000_000);
        assert_eq!(p.stopped(ms(210), 1_000_000_000), Some(1_040_000_000));
        p.set_paused(true, ms(210), 1_040_000_000);
        assert_eq!(p.stopped(ms(900), 1_040_000_000), None);
        // A stall of the host re-anchors instead of a burst.
        p.set_paused(false, ms(900), 1_040_000_000);
        assert_eq!(p.stopped(ms(60_000), 1_040_000_000), Some(1_040_000_000));
    }

    #[test]
    fn a_slow_host_reanchors_instead_of_racing() {
        let mut p = Pacer::new(Speed::Factor(1.0), ms(0), 0);
        // The machine only got to 10 ms when the host is at 2 s.
        assert_eq!(p.plan(ms(2000), 10_000_000), Run::Until(10_000_000));
        assert_eq!(p.plan(ms(2016), 10_000_000), Run::Until(26_000_000));
    }

    /// A machine that runs 1 ms of emulated time per ms of a clock that moves only when told,
    /// recording each step's target.
    struct Fake {
        t: u64,
        clock: std::cell::Cell<Duration>,
        /// Host time each `clock()` look costs (0: a frozen clock).
        tick: Duration,
        running: bool,
        stop_at: Option<u64>,
        steps: Vec<u64>,
    }

    impl Frame for Fake {
        fn running(&self) -> bool {
            self.running
        }
        fn time_ns(&self) -> u64 {
            self.t
        }
        fn clock(&self) -> Duration {
            let c = self.clock.get();
            self.clock.set(c + self.tick);
            c
        }
        fn step(&mut self, t: u64) -> bool {
            self.steps.push(t);
            self.t = t;
            if self.stop_at.is_some_and(|s| t >= s) {
                self.running = false;
            }
            self.running
        }
    }

    fn fake(tick: Duration) -> Fake {
        Fake {
            t: 0,
            clock: std::cell::Cell::new(Duration::ZERO),
            tick,
            running: true,
            stop_at: None,
            steps: Vec::new(),
        }
    }

    /// At a set speed a frame runs to the pacer's target in 5 ms chunks, the last one short.
    #[test]
    fn a_frame_runs_to_the_target_in_chunks() {
        let mut p = Pacer::new(Speed::Factor(1.0), ms(0), 0);
        let mut h = fake(Duration::ZERO);
        run_frame(&mut p, &mut h, ms(12));
        assert_eq!(h.steps, [5_000_000, 10_000_000, 12_000_000]);
        // Stopped by the program at 7 ms: no step after it.
        let mut h = fake(Duration::ZERO);
        h.stop_at = Some(7_000_000);
        let mut p = Pacer::new(Speed::Factor(1.0), ms(0), 0);
        run_frame(&mut p, &mut h, ms(20));
        assert_eq!(h.steps, [5_000_000, 10_000_000]);
        // Standing, emulated time goes on in one step to the host's time.
        let mut p = Pacer::new(Speed::Factor(1.0), ms(0), 0);
        let mut h = fake(Duration::ZERO);
        h.running = false;
        run_frame(&mut p, &mut h, ms(30));
        assert_eq!(h.steps, [30_000_000]);
    }

    /// At full speed a frame runs chunks for the budget of host time; a clock that does not
    /// move ends it after one emulated second instead of never.
    #[test]
    fn full_speed_runs_for_the_budget_and_a_frozen_clock_ends_it() {
        let mut p = Pacer::new(Speed::Max, ms(0), 0);
        let mut h = fake(ms(1));
        run_frame(&mut p, &mut h, ms(0));
        // One clock look for the start, then one before each chunk: 11 chunks in 12 ms.
        assert_eq!(h.steps.len(), 11);
        assert_eq!(h.t, 11 * CHUNK_NS);
        let mut h = fake(Duration::ZERO);
        run_frame(&mut p, &mut h, ms(0));
        assert_eq!(h.steps.len(), FROZEN_CLOCK_CHUNKS as usize);
    }

    #[test]
    fn speed_key_steps() {
        assert_eq!(Speed::Factor(1.0).next(), Speed::Factor(2.0));
        assert_eq!(Speed::Factor(16.0).next(), Speed::Max);
        assert_eq!(Speed::Factor(3.0).next(), Speed::Factor(4.0));
        assert_eq!(Speed::Max.next(), Speed::Factor(1.0));
        assert_eq!(Speed::Factor(1.0).label(), "1x");
    }
}
