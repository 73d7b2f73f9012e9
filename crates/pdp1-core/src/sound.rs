//! The program flags as sound: the flags' change stream ([`crate::Machine::drain_flags`])
//! turned into 16-bit mono samples, in emulated time, deterministically.
//!
//! # Which flags sound, and how they mix
//!
//! At MIT four program flags were brought out to an amplifier; Peter Samson's music player
//! toggles flags 1–4 as four square-wave voices. The PiDP-1's emulator (aap's
//! `blincolnlights`, `pdp1/audio.c`, `svc_audio`) takes one sample every 1/48000 s and sums
//! the flags that are on among PF1–PF4 (its `pf` bits 2–5, PF1 = 040 as here), each with the
//! same weight, into one mono channel; flags 5 and 6 are silent. That is the default here
//! ([`SoundConfig::default`]: flags 040|020|010|004), with two differences that only make the
//! sound cleaner: a sample is the flags' *average* over its 1/rate-second interval (a box
//! filter, so an edge between two samples gives an in-between value instead of jitter), and
//! the samples are signed, silence (all sounding flags off) being 0. A flag that stays on is
//! a constant (DC) level, which is silent to the ear.
//!
//! Which flags sound is the host's setting ([`SoundConfig::flags`], `--sound-flags` on the
//! command line); each sounding flag gets `FULL_SCALE / n` for n sounding flags, so all of
//! them on is [`FULL_SCALE`].
//!
//! # Time
//!
//! Sample k covers emulated time `[start + ⌊k·10⁹/rate⌋, start + ⌊(k+1)·10⁹/rate⌋)` ns, so
//! rendering up to time T gives exactly `⌊(T − start)·rate / 10⁹⌋` samples however the
//! rendering is split (a frame at a time in the window, once at the end headless).

use crate::machine::FlagChange;

/// The level with every sounding flag on (of 32767), leaving headroom.
pub const FULL_SCALE: i32 = 24_000;

/// Which program flags sound (PF1 = 040 … PF6 = 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoundConfig {
    pub flags: u8,
}

impl Default for SoundConfig {
    /// Flags 1–4, the PiDP-1's (aap's `svc_audio`).
    fn default() -> Self {
        SoundConfig { flags: 0o74 }
    }
}

/// Turns flag changes into samples at `rate` samples per second, from emulated time `start`.
#[derive(Clone, Debug)]
pub struct FlagSynth {
    rate: u32,
    mask: u8,
    /// The level of one sounding flag.
    unit: i64,
    start_ns: u64,
    /// The flag word now (at `t_ns`).
    flags: u8,
    /// Samples completed.
    k: u64,
    /// Emulated time rendered up to (inside sample `k`).
    t_ns: u64,
    /// Level × ns accumulated in sample `k` so far.
    acc: i64,
}

impl FlagSynth {
    /// Start at emulated time `start_ns` with the flag word `flags` (the machine's
    /// [`crate::Machine::pf`] then).
    pub fn new(config: SoundConfig, rate: u32, start_ns: u64, flags: u8) -> FlagSynth {
        assert!(rate > 0, "sample rate 0");
        let mask = config.flags & 0o77;
        let n = i64::from(mask.count_ones().max(1));
        FlagSynth {
            rate,
            mask,
            unit: i64::from(FULL_SCALE) / n,
            start_ns,
            flags,
            k: 0,
            t_ns: start_ns,
            acc: 0,
        }
    }

    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// Emulated time rendered up to (ns).
    pub fn time_ns(&self) -> u64 {
        self.t_ns
    }

    /// Samples produced so far.
    pub fn samples(&self) -> u64 {
        self.k
    }

    /// Start of sample `k` (ns).
    fn boundary(&self, k: u64) -> u64 {
        self.start_ns + (u128::from(k) * 1_000_000_000 / u128::from(self.rate)) as u64
    }

    fn level(&self) -> i64 {
        i64::from((self.flags & self.mask).count_ones()) * self.unit
    }

    /// Hold the present flags until `t` (ns), appending every sample that ends by then.
    fn advance(&mut self, t: u64, out: &mut Vec<i16>) {
        if t <= self.t_ns {
            return;
        }
        let level = self.level();
        loop {
            let end = self.boundary(self.k + 1);
            if end > t {
                self.acc += level * (t - self.t_ns) as i64;
                self.t_ns = t;
                return;
            }
            self.acc += level * (end - self.t_ns) as i64;
            let width = (end - self.boundary(self.k)) as i64;
            out.push((self.acc / width.max(1)) as i16);
            self.acc = 0;
            self.k += 1;
            self.t_ns = end;
        }
    }

    /// Apply `changes` (in time order; any before the time already rendered count from then)
    /// and render up to emulated time `until_ns`, appending the samples to `out`.
    pub fn render(&mut self, changes: &[FlagChange], until_ns: u64, out: &mut Vec<i16>) {
        for c in changes {
            self.advance(c.time_ns.min(until_ns), out);
            self.flags = c.flags;
        }
        self.advance(until_ns, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(t: u64, f: u8) -> FlagChange {
        FlagChange {
            time_ns: t,
            flags: f,
        }
    }

    #[test]
    fn sample_count_follows_time_however_split() {
        let mut a = FlagSynth::new(SoundConfig::default(), 48_000, 0, 0);
        let mut out = Vec::new();
        a.render(&[], 1_000_000_000, &mut out);
        assert_eq!(out.len(), 48_000);
        let mut b = FlagSynth::new(SoundConfig::default(), 44_100, 7, 0);
        let mut out2 = Vec::new();
        for i in 1..=1000u64 {
            b.render(&[], 7 + i * 333_333, &mut out2);
        }
        assert_eq!(out2.len() as u64, 333_333_000 * 44_100 / 1_000_000_000);
    }

    #[test]
    fn levels_and_mask() {
        let mut s = FlagSynth::new(SoundConfig::default(), 1000, 0, 0);
        let mut out = Vec::new();
        // PF1 on for 1.5 ms, then PF1+PF2 (+PF6, silent) for 1 ms.
        s.render(&[ch(0, 0o40), ch(1_500_000, 0o61)], 2_500_000, &mut out);
        assert_eq!(out, vec![6000, 9000]);
        let mut s = FlagSynth::new(SoundConfig { flags: 0o01 }, 1000, 0, 0o01);
        let mut out = Vec::new();
        s.render(&[], 1_000_000, &mut out);
        assert_eq!(out, vec![FULL_SCALE as i16]);
    }
}
