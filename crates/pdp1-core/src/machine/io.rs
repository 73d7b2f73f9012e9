//! The in-out transfer group (IOT, opcode 35), the I/O wait, and the standard devices:
//! console typewriter, paper tape reader and punch, Type 30 display, control boxes, status
//! register, sequence-break and extend-mode controls.
//!
//! ```text
//!    0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17
//!  +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
//!  | 1  1  1  0  1| W| C|  sub-function  |     device      |
//!  +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
//! ```
//!
//! W (bit 5) makes the processor wait for a completion pulse; a completion pulse is
//! requested from the device when C (bit 6) differs from W ([HB] via [MAME-cpu]; SIMH
//! `GEN_CPLS`). `ioh` (730000) is the bare wait.
//!
//! # The I/O wait, as aap's pulse-level model has it (issue 16)
//!
//! One 5 µs cycle of an IOT ([aap] `cycle0`):
//!
//! * TP7: a waiting IOT sets the I/O halt flip-flop IOH; the device gets its first pulse.
//! * TP9: if the I/O sync flip-flop IOS is set, IOH is cleared — the IOT is done in this
//!   cycle. So an `ioh` (or any waiting IOT) whose completion pulse has already come
//!   "proceeds immediately" ([HB]): one cycle.
//! * TP9a: while IOH is set the PC is backed up: the IOT is fetched again next cycle, and
//!   that fetch gives the device no pulses (IOC only with IOH clear).
//! * TP10: an IOT that does not wait, or no longer does, clears IOS; then the device's second
//!   pulse (which may request a completion). An IOT that does not wait but runs while a wait
//!   is held (in a break routine) saves IOH in IHS and restores it, leaving IOS alone.
//!
//! Devices set IOS between cycles (aap `handleio`), so the waiting IOT ends in the first
//! fetch after the cycle in which its completion pulse arrives: a `dpy` that waits takes 10
//! cycles (its pulse 39 µs after the IOT, see [`display`]).
//!
//! A wait ends with a completion pulse, or is interrupted by a sequence break ([HB]: "The
//! computer may be interrupted from the special waiting state to serve a sequence break");
//! after the break returns it waits again. When neither can come — no pulse owed, and no
//! break that can be taken (the break system off, a break in progress, or no request and no
//! device at work that will make one) — the wait is an I/O hang: the machine stops with
//! [`StopReason::IoHang`] (SIMH "I/O wait hang", which SIMH reports whenever no pulse is
//! owed). A key the operator may strike is not foreseen.
//!
//! # Devices
//!
//! Each device is a file of its own behind one small interface, [`Device`]: its IOTs, the
//! time of its next event (`due`), and what happens then (`service`). A device touches the
//! processor only through a [`Bus`]: AC (read), IO, the status register, the program flags,
//! the break request, the completion-pulse books and the light pen. This file only dispatches
//! (by device code) and keeps the I/O wait. Timing and sources are in each file:
//! [`typewriter`] (105/175/205 ms a character), [`reader`] (2.5 ms a line), [`punch`]
//! (15.873 ms a line), [`display`] (completion 39 µs after the `dpy`). The sequence break
//! system — one channel, or the Type 120's sixteen — is [`sequence_break`]: devices request a
//! break through the bus (`Bus::request_break`, with their Type 120 channel), IOTs 50–56
//! are dispatched here.
//!
//! # Choices where sources differ (pdp1-hardware.md §9)
//!
//! * `cbs` clears the break request and break-in-progress but not the mode ([aap]); SIMH
//!   also clears the mode.
//! * `tyi` with the wait or pulse bit stops as an undefined instruction ([SIMH-std] `tti`).
//! * IOTs to devices not modelled here do nothing and request no pulse (SIMH's default).
//! * Typed characters, local key echoes and punched lines are emitted when the IOT (or key)
//!   happens; the device's busy time follows.

mod display;
mod flags;
mod punch;
mod reader;
pub(super) mod sequence_break;
mod typewriter;

use display::Display;
pub use display::{DISPLAY_COMPLETION_NS, DISPLAY_DEFLECTION_NS};
use flags::FlagRecorder;
use punch::Punch;
pub use punch::PUNCH_LINE_NS;
use reader::Reader;
pub use reader::READER_LINE_NS;
pub(super) use sequence_break::Channels;
use typewriter::Typewriter;
pub use typewriter::{KEY_POLL_GAP_NS, TYPE_CHAR_NS, TYPE_CR_NS, TYPE_SHIFT_NS};

use super::{status, Machine, StopReason, IBIT};
use crate::word::Word;
use serde::{Deserialize, Serialize};

const NEVER: u64 = u64::MAX;

/// Program flags the devices set.
const PF1: u8 = 0o40;
const PF3: u8 = 0o10;

/// W bit (bit 5) of an IOT.
const W: u32 = IBIT;

/// Outcome of one execution of an IOT.
pub(super) enum IotResult {
    /// The instruction completed.
    Done,
    /// An I/O wait continues: the IOT will be fetched again.
    Again,
    Stop(StopReason),
}

/// What a device may touch of the processor while its IOT runs or its event is serviced.
pub(super) struct Bus<'a> {
    pub(super) ac: u32,
    pub(super) io: &'a mut u32,
    pub(super) iosta: &'a mut u32,
    pub(super) pf: &'a mut u8,
    /// The one-channel break request, and the Type 120's channels (with `sbs16`).
    sb_req: &'a mut bool,
    chan: &'a mut Channels,
    sbs16: bool,
    /// Emulated time now (ns).
    pub(super) now: u64,
    /// The completion pulses owed (one bit a device) and the I/O sync flip-flop.
    cpls: &'a mut u8,
    ios: &'a mut bool,
    pen: Option<(i16, i16)>,
    pen_radius: u16,
}

impl Bus<'_> {
    /// Record whether the device owes a completion pulse. (IOS is the IOT's business: it was
    /// cleared before the pulse is requested, unless a wait is held; see `Machine::iot`.)
    pub(super) fn request_pulse(&mut self, dev: u8, pulse: bool) {
        if pulse {
            *self.cpls |= dev;
        } else {
            *self.cpls &= !dev;
        }
    }

    /// The device will never deliver the pulse it owed (the tape ran out).
    pub(super) fn cancel_pulse(&mut self, dev: u8) {
        *self.cpls &= !dev;
    }

    pub(super) fn pulse_owed(&self, dev: u8) -> bool {
        *self.cpls & dev != 0
    }

    /// The device's completion pulse arrives: if one was requested, IOS is set.
    pub(super) fn complete(&mut self, dev: u8) {
        if *self.cpls & dev != 0 {
            *self.cpls &= !dev;
            *self.ios = true;
        }
    }

    /// The device requests a sequence break: the one channel, or with the Type 120 its
    /// channel `ch` (counted only if the channel is enabled; see [`sequence_break`]).
    pub(super) fn request_break(&mut self, ch: u32) {
        if self.sbs16 {
            self.chan.device_request(ch);
        } else {
            *self.sb_req = true;
        }
    }

    /// The light pen is at the tube and (x, y) lies within its radius.
    pub(super) fn pen_sees(&self, x: i16, y: i16) -> bool {
        let Some((px, py)) = self.pen else {
            return false;
        };
        let dx = i64::from(x) - i64::from(px);
        let dy = i64::from(y) - i64::from(py);
        let r = i64::from(self.pen_radius);
        dx * dx + dy * dy <= r * r
    }
}

/// A device: its IOTs, its next event, and that event.
pub(super) trait Device {
    /// Its bit in the completion-pulse books.
    const PULSE: u8;
    /// The IOT `ir` (fetched from `pc0`) addressed to this device; `pulse`: a completion pulse
    /// is requested. Returns a stop reason if the machine must stop.
    fn iot(&mut self, ir: u32, pc0: u32, pulse: bool, bus: &mut Bus<'_>) -> Option<StopReason>;
    /// Emulated time of the device's next event (`u64::MAX`: none).
    fn due(&self) -> u64;
    /// The event at `due` has come.
    fn service(&mut self, bus: &mut Bus<'_>);
    /// The device is at work and will request a sequence break when it finishes.
    fn may_request_break(&self) -> bool;
}

/// The standard devices' state, apart from the processor's (issue 18): each device's own
/// struct, and the program flags' record for sound. The processor reaches them only through
/// the dispatch below; they reach the processor only through a [`Bus`]. Saved states keep
/// them under `dev` (state format 2; format 1 had them among the machine's own fields).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Devices {
    pub(super) tty: Typewriter,
    pub(super) ptr: Reader,
    pub(super) ptp: Punch,
    pub(super) dpy: Display,
    /// The program flags' changes, for sound.
    #[serde(default)]
    pub(super) flags: FlagRecorder,
}

impl Devices {
    pub(super) fn new(second_display: bool) -> Devices {
        Devices {
            tty: Typewriter::default(),
            ptr: Reader::default(),
            ptp: Punch::default(),
            dpy: Display::new(second_display),
            flags: FlagRecorder::default(),
        }
    }

    /// The time of the next device event.
    fn due(&self) -> u64 {
        self.tty
            .due()
            .min(self.ptr.due())
            .min(self.ptp.due())
            .min(self.dpy.due())
    }
}

/// The bus over `m`'s fields (disjoint from its devices), at emulated time `now`.
macro_rules! bus {
    ($m:ident, $now:expr) => {
        Bus {
            ac: $m.ac,
            io: &mut $m.io,
            iosta: &mut $m.iosta,
            pf: &mut $m.pf,
            sb_req: &mut $m.sb_req,
            chan: &mut $m.chan,
            sbs16: $m.config.sbs16,
            now: $now,
            cpls: &mut $m.cpls,
            ios: &mut $m.ios,
            pen: $m.light_pen,
            pen_radius: $m.light_pen_radius,
        }
    };
}

impl Machine {
    /// An IOT no device of this machine answers: as on the real machine it does nothing (no
    /// device decodes it; a waiting one hangs unless a completion pulse comes), and its
    /// device code's first one is kept for the host to report (issue 27).
    fn unanswered(&mut self, ir: u32, pc0: u32) {
        let bit = 1u64 << (ir & 0o77);
        if self.unanswered_seen & bit == 0 {
            self.unanswered_seen |= bit;
            self.unanswered.push((pc0, Word::new(ir)));
        }
    }

    /// Execute an IOT, including the I/O wait protocol (see the module docs).
    pub(super) fn iot(&mut self, ir: u32, pc0: u32) -> IotResult {
        let wait = ir & W != 0;
        if wait && self.ioh {
            // Fetched again while waiting (or a waiting IOT met while a wait is held, in a
            // break routine): the device gets no pulses ([aap] TP2: IOC only with IOH clear).
            // IOS ends the wait in this cycle (TP9) and is cleared (TP10).
            if self.ios {
                self.ioh = false;
                self.ios = false;
                return IotResult::Done;
            }
            self.back_up_pc();
            if !self.wait_can_end() {
                return IotResult::Stop(StopReason::IoHang {
                    pc: pc0,
                    word: Word::new(ir),
                });
            }
            return IotResult::Again;
        }
        // The first execution. A waiting IOT sets IOH (TP7) unless IOS is already set, in
        // which case it proceeds at once (TP9: "proceed immediately"). An IOT that does not
        // wait, or no longer does, clears IOS (TP10) — except one run while a wait is held
        // (IHS, a break routine's IOT during the main program's wait), which leaves both IOH
        // and IOS as they were. The device's pulses follow (TP7, TP10).
        let held = self.ioh;
        let waits = wait && !self.ios;
        if waits {
            self.ioh = true;
            self.back_up_pc();
        } else if !held {
            self.ios = false;
        }
        // A completion pulse is requested when bits 5 and 6 differ.
        let pulse = ((ir ^ (ir << 1)) & W) != 0;
        let now = self.now();
        // A device's IOT may bring its event forward: the next event time follows it (an
        // event moved later or cancelled only costs one empty service call).
        macro_rules! device {
            ($d:ident) => {{
                let r = self.dev.$d.iot(ir, pc0, pulse, &mut bus!(self, now));
                self.next_event_ns = self.next_event_ns.min(self.dev.$d.due());
                self.dev.flags.note(now, self.pf);
                r
            }};
        }
        let stop = match ir & 0o77 {
            0o01 | 0o02 | 0o30 => device!(ptr),
            0o03 | 0o04 => device!(tty),
            0o05 | 0o06 => device!(ptp),
            0o07 => device!(dpy),
            0o11 => {
                self.io = self.control_boxes;
                None
            }
            0o33 => {
                // cks while the reader is reading, or with its word there to be taken, is a
                // look at the reader (Bell's program polls the reader's status bit so as to
                // notice a tape that ends), not a wait for the typist.
                if self.iosta & (status::TYPE_IN | status::READER) == 0 && !self.dev.ptr.reading() {
                    self.key_poll();
                }
                self.io = self.status_word().bits();
                None
            }
            0o50..=0o53 => {
                // Type 120: dsc, asc, isb, cac (without it, nothing).
                if self.config.sbs16 {
                    self.chan.iot(ir);
                } else {
                    self.unanswered(ir, pc0);
                }
                None
            }
            0o54 => {
                self.sbm = false;
                None
            }
            0o55 => {
                self.sbm = true;
                None
            }
            0o56 => {
                // cbs: requests and breaks in progress ([aap] `clr_sbs`; the mode stays).
                self.sb_req = false;
                self.sb_ip = false;
                self.chan.clear();
                None
            }
            0o74 => {
                self.extend = ir & 0o004_000 != 0;
                None
            }
            // Device 0 is no device: `ioh` (730000) only waits for a completion pulse.
            0o00 => None,
            _ => {
                self.unanswered(ir, pc0);
                None
            }
        };
        if let Some(r) = stop {
            if waits {
                self.ioh = false;
            }
            return IotResult::Stop(r);
        }
        if waits {
            IotResult::Again
        } else {
            IotResult::Done
        }
    }

    /// Something can still end an I/O wait: a completion pulse is owed, or the sequence break
    /// is on, no break is in progress, and a break is requested or a device at work will
    /// request one when it finishes (the break then interrupts the wait). Otherwise the wait
    /// is an I/O hang. (A key the operator may strike is not foreseen: a wait only a key
    /// could end stops; striking the key and CONTINUE resume it.)
    pub(super) fn wait_can_end(&self) -> bool {
        use sequence_break::{PUNCH, READER, TYPE_OUT};
        self.cpls != 0
            || (self.sbm
                && (self.break_request()
                    || (self.dev.tty.may_request_break() && self.device_could_break(TYPE_OUT))
                    || (self.dev.ptr.may_request_break() && self.device_could_break(READER))
                    || (self.dev.ptp.may_request_break() && self.device_could_break(PUNCH))
                    || self.dev.dpy.may_request_break()))
    }

    /// Service every device whose event time has come, then recompute the next event time.
    pub(super) fn service_devices(&mut self) {
        let now = self.now();
        if self.dev.tty.due() <= now {
            self.dev.tty.service(&mut bus!(self, now));
        }
        if self.dev.ptr.due() <= now {
            self.dev.ptr.service(&mut bus!(self, now));
        }
        if self.dev.ptp.due() <= now {
            self.dev.ptp.service(&mut bus!(self, now));
        }
        if self.dev.dpy.due() <= now {
            self.dev.dpy.service(&mut bus!(self, now));
        }
        self.dev.flags.note(now, self.pf);
        self.reschedule();
    }

    /// Recompute the next device event time from the devices' own schedules.
    pub(super) fn reschedule(&mut self) {
        self.next_event_ns = self.dev.due();
    }

    /// The program looked for a key and found none (see `Typewriter::poll`).
    pub(super) fn key_poll(&mut self) {
        self.dev.tty.poll(self.now());
    }

    /// The operator strikes a key (see [`Machine::strike_key`]).
    pub(super) fn key_struck(&mut self, code: u8) -> bool {
        let now = self.now();
        let overrun = self.dev.tty.strike(code, &mut bus!(self, now));
        self.dev.flags.note(now, self.pf);
        overrun
    }
}

#[cfg(test)]
mod tests {
    use super::display::coord;

    #[test]
    fn display_coordinates_are_ones_complement() {
        assert_eq!(coord(0), (0, false));
        assert_eq!(coord(0o1777), (0, true));
        assert_eq!(coord(1), (1, false));
        assert_eq!(coord(0o1776), (-1, false));
        assert_eq!(coord(0o777), (511, false));
        assert_eq!(coord(0o1000), (-511, false));
    }
}
