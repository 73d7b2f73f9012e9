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
//! `GEN_CPLS`). The wait is modelled as on the real machine and in SIMH: the first execution
//! sets the I/O halt flip-flop (IOH), issues the device pulses and backs the PC up; the IOT is
//! then re-fetched every 5 µs cycle until the I/O sync flip-flop (IOS) shows the completion
//! pulse has arrived. A wait with no pulse pending from any device can never end: the machine
//! stops with [`StopReason::IoHang`] (SIMH "I/O wait hang"). `ioh` (730000) is the bare wait.
//!
//! # Device timing (emulated time)
//!
//! * Typewriter out: the maintenance-manual times MAME uses ([MAME-drv] `iot_tyo`, "maintenance
//!   manual 9-12 … 9-14"): 105 ms for a printing character (and space, tab, backspace), 175 ms
//!   for case shifts and ribbon colour changes, 205 ms for carriage return. Chosen over aap's
//!   flat 100 ms because they are cited to DEC's manual.
//! * Reader: 400 lines/s ([HB]), 2.5 ms per line including lines `rpb` skips (no hole 8).
//! * Punch: 63 lines/s ([HB]), 15.873 ms per line.
//! * Display: 50 µs per point ([HB], Type 30 manual); the completion pulse 50 µs after the IOT.
//!
//! # Choices where sources differ (pdp1-hardware.md §9)
//!
//! * `cbs` clears the break request and break-in-progress but not the mode ([aap]); SIMH
//!   also clears the mode.
//! * `tyi` with the wait or pulse bit stops as an undefined instruction ([SIMH-std] `tti`).
//! * IOTs to devices not modelled here do nothing and request no pulse (SIMH's default).
//! * Typed characters, local key echoes and punched lines are emitted when the IOT (or key)
//!   happens; the device's busy time follows.

use super::{status, DisplayPoint, Machine, StopReason, TypeEvent, IBIT, MASK};
use crate::fiodec;
use crate::word::Word;
use serde::{Deserialize, Serialize};

/// Typewriter time for a printing character, space, tab or backspace (ns).
pub const TYPE_CHAR_NS: u64 = 105_000_000;
/// Typewriter time for a case shift or ribbon colour change (ns).
pub const TYPE_SHIFT_NS: u64 = 175_000_000;
/// Typewriter time for a carriage return (ns).
pub const TYPE_CR_NS: u64 = 205_000_000;
/// Reader time per tape line: 400 lines/s.
pub const READER_LINE_NS: u64 = 2_500_000;
/// Punch time per tape line: 63 lines/s.
pub const PUNCH_LINE_NS: u64 = 1_000_000_000 / 63;
/// Display point time / completion delay.
pub const DISPLAY_POINT_NS: u64 = 50_000;
/// A pause longer than this between two polls ends a "waiting for a key" spell.
pub const KEY_POLL_GAP_NS: u64 = 100_000_000;
/// Display points kept undrained before the oldest are dropped (a host that never drains
/// must not grow memory without bound).
const DISPLAY_BACKLOG: usize = 1 << 20;

/// Pending-completion-pulse bits (SIMH `cpls`).
const CP_PTR: u8 = 1;
const CP_TTO: u8 = 2;
const CP_PTP: u8 = 4;
const CP_DPY: u8 = 8;

const NEVER: u64 = u64::MAX;

/// Program flags in the `pf` field: PF1 (040) is set by a key struck, PF3 (010) by a light-pen
/// hit.
const PF1: u8 = 0o40;
const PF3: u8 = 0o10;

/// W bit (bit 5) and C bit (bit 6) of an IOT.
const W: u32 = IBIT;
const C: u32 = 0o004_000;

/// Outcome of one execution of an IOT.
pub(super) enum IotResult {
    /// The instruction completed.
    Done,
    /// An I/O wait continues: the IOT will be fetched again.
    Again,
    Stop(StopReason),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Typewriter {
    /// When the character being typed is finished (NEVER when idle).
    pub(super) out_due: u64,
    pub(super) upper: bool,
    pub(super) red: bool,
    /// The one-character input buffer.
    pub(super) key: u8,
    pub(super) events: Vec<TypeEvent>,
    wait_since: Option<u64>,
    last_poll: u64,
}

impl Default for Typewriter {
    fn default() -> Self {
        Typewriter {
            out_due: NEVER,
            upper: false,
            red: false,
            key: 0,
            events: Vec::new(),
            wait_since: None,
            last_poll: 0,
        }
    }
}

impl Typewriter {
    /// The program looked for a key and found none.
    pub(super) fn poll(&mut self, now: u64) {
        match self.wait_since {
            Some(_) if now.saturating_sub(self.last_poll) <= KEY_POLL_GAP_NS => {}
            _ => self.wait_since = Some(now),
        }
        self.last_poll = now;
    }

    pub(super) fn key_wait_since(&self, now: u64) -> Option<u64> {
        self.wait_since
            .filter(|_| now.saturating_sub(self.last_poll) <= KEY_POLL_GAP_NS)
    }

    /// Apply a code's effect on case and ribbon and record it on the paper.
    fn print(&mut self, code: u8, local: bool, now: u64) {
        match code {
            fiodec::LOWER_CASE => self.upper = false,
            fiodec::UPPER_CASE => self.upper = true,
            fiodec::BLACK => self.red = false,
            fiodec::RED => self.red = true,
            _ => {}
        }
        self.events.push(TypeEvent {
            code,
            upper: self.upper,
            red: self.red,
            local,
            time_ns: now,
        });
    }
}

fn type_time(code: u8) -> u64 {
    match code {
        fiodec::CARRIAGE_RETURN => TYPE_CR_NS,
        fiodec::LOWER_CASE | fiodec::UPPER_CASE | fiodec::BLACK | fiodec::RED => TYPE_SHIFT_NS,
        _ => TYPE_CHAR_NS,
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Reader {
    pub(super) tape: Vec<u8>,
    pub(super) pos: usize,
    /// When the next line arrives under the read head (NEVER when the reader is stopped).
    due: u64,
    /// Binary (`rpb`, three lines with hole 8) or alphanumeric (`rpa`, one line).
    binary: bool,
    /// Bits still to assemble in binary mode (18, 12, 6, 0).
    remaining: u32,
    /// The reader buffer.
    buf: u32,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            tape: Vec::new(),
            pos: 0,
            due: NEVER,
            binary: false,
            remaining: 0,
            buf: 0,
        }
    }
}

impl Reader {
    /// Next frame under the read head, if any.
    pub(super) fn next_frame(&mut self) -> Option<u8> {
        let f = self.tape.get(self.pos).copied()?;
        self.pos += 1;
        Some(f)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Punch {
    due: u64,
    pub(super) out: Vec<u8>,
}

impl Default for Punch {
    fn default() -> Self {
        Punch {
            due: NEVER,
            out: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Display {
    due: u64,
    pub(super) points: Vec<DisplayPoint>,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            due: NEVER,
            points: Vec::new(),
        }
    }
}

/// A 10-bit one's-complement display coordinate: (value, was −0).
fn coord(v: u32) -> (i16, bool) {
    let v = v & 0o1777;
    if v & 0o1000 != 0 {
        (-(((v ^ 0o1777) & 0o1777) as i16), v == 0o1777)
    } else {
        (v as i16, false)
    }
}

impl Machine {
    /// Execute an IOT, including the I/O wait protocol (see the module docs).
    pub(super) fn iot(&mut self, ir: u32, pc0: u32) -> IotResult {
        if ir & W != 0 {
            if self.ioh {
                if self.ios {
                    self.ioh = false;
                    return IotResult::Done;
                }
                self.back_up_pc();
                if self.cpls == 0 {
                    return IotResult::Stop(StopReason::IoHang {
                        pc: pc0,
                        word: Word::new(ir),
                    });
                }
                return IotResult::Again;
            }
            self.ioh = true;
            self.back_up_pc();
        }
        // A completion pulse is requested when bits 5 and 6 differ.
        let pulse = ((ir ^ (ir << 1)) & W) != 0;
        let now = self.now();
        match ir & 0o77 {
            0o00 => {}
            0o01 | 0o02 => self.reader_start(ir, pulse),
            0o30 => {
                self.io = self.ptr.buf;
                self.iosta &= !status::READER;
            }
            0o03 => {
                let code = (self.io & 0o77) as u8;
                self.iosta &= !status::TYPE_OUT;
                self.tty.print(code, false, now);
                self.tty.wait_since = None;
                self.tty.out_due = now + type_time(code);
                self.request_pulse(CP_TTO, pulse);
                self.schedule(self.tty.out_due);
            }
            0o04 => {
                if self.iosta & status::TYPE_IN == 0 {
                    self.key_poll();
                }
                self.io = u32::from(self.tty.key & 0o77);
                self.iosta &= !status::TYPE_IN;
                if ir & (W | C) != 0 {
                    // "should not use the optional in-out wait" [HB]; SIMH transfers the
                    // buffer and then stops ([SIMH-std] `tti`).
                    self.ioh = false;
                    return IotResult::Stop(StopReason::UndefinedInstruction {
                        pc: pc0,
                        word: Word::new(ir),
                    });
                }
            }
            0o05 | 0o06 => {
                let line = if ir & 0o77 == 0o06 {
                    ((self.io >> 12) | 0o200) as u8
                } else {
                    (self.io & 0o377) as u8
                };
                self.ptp.out.push(line);
                self.iosta &= !status::PUNCH;
                self.ptp.due = now + PUNCH_LINE_NS;
                self.request_pulse(CP_PTP, pulse);
                self.schedule(self.ptp.due);
            }
            0o07 => {
                let (x, xm) = coord(self.ac >> 8);
                let (y, ym) = coord(self.io >> 8);
                if self.dpy.points.len() >= DISPLAY_BACKLOG {
                    self.dpy.points.drain(..DISPLAY_BACKLOG / 2);
                }
                self.dpy.points.push(DisplayPoint {
                    x,
                    y,
                    x_minus_zero: xm,
                    y_minus_zero: ym,
                    intensity: ((ir >> 6) & 7) as u8,
                    time_ns: now,
                });
                // `dpy` clears the light-pen status bit; if the pen sees this point, the bit
                // and program flag 3 are set ([MAME-drv] `iot_dpy`, [aap] `disp_ddp`;
                // pdp1-hardware.md §4.5). The point is plotted at the IOT in this model (its
                // `time_ns` above), so the pen sees it then too. ±0 both read as 0 (`coord`),
                // the mapping the renderer uses. No sequence break is requested (none of the
                // three emulators does).
                self.iosta &= !status::LIGHT_PEN;
                if self.pen_sees(x, y) {
                    self.iosta |= status::LIGHT_PEN;
                    self.pf |= PF3;
                }
                self.dpy.due = now + DISPLAY_POINT_NS;
                self.request_pulse(CP_DPY, pulse);
                self.schedule(self.dpy.due);
            }
            0o11 => self.io = self.control_boxes,
            0o33 => {
                if self.iosta & status::TYPE_IN == 0 {
                    self.key_poll();
                }
                self.io = self.status_word().bits();
            }
            0o54 => self.sbm = false,
            0o55 => self.sbm = true,
            0o56 => {
                self.sb_req = false;
                self.sb_ip = false;
            }
            0o74 => self.extend = ir & 0o004_000 != 0,
            _ => {}
        }
        if ir & W != 0 {
            IotResult::Again
        } else {
            IotResult::Done
        }
    }

    /// Record whether `dev` owes a completion pulse; requesting one clears IOS (SIMH).
    #[inline]
    fn request_pulse(&mut self, dev: u8, pulse: bool) {
        if pulse {
            self.ios = false;
            self.cpls |= dev;
        } else {
            self.cpls &= !dev;
        }
    }

    /// A device's completion pulse arrives: if one was requested, IOS is set.
    #[inline]
    fn complete(&mut self, dev: u8) {
        if self.cpls & dev != 0 {
            self.cpls &= !dev;
            self.ios = true;
        }
    }

    #[inline]
    fn schedule(&mut self, t: u64) {
        if t < self.next_event_ns {
            self.next_event_ns = t;
        }
    }

    /// `rpa`/`rpb`: start the reader. `rpa` while the reader runs stops it (the clutch
    /// toggles, [SIMH-std], [aap]).
    fn reader_start(&mut self, ir: u32, pulse: bool) {
        let binary = ir & 0o77 == 0o02;
        if !binary && self.ptr.due != NEVER {
            self.ptr.due = NEVER;
            return;
        }
        self.ptr.binary = binary;
        self.ptr.remaining = 18;
        self.ptr.buf = 0;
        self.request_pulse(CP_PTR, pulse);
        if self.ptr.pos >= self.ptr.tape.len() {
            // Out of tape: the reader never delivers, so no pulse can come.
            self.cpls &= !CP_PTR;
            self.ptr.due = NEVER;
        } else {
            self.ptr.due = self.now() + READER_LINE_NS;
            self.schedule(self.ptr.due);
        }
    }

    /// One tape line passes the read head.
    fn reader_line(&mut self) {
        let Some(frame) = self.ptr.next_frame() else {
            self.ptr.due = NEVER;
            self.cpls &= !CP_PTR;
            return;
        };
        let done = if !self.ptr.binary {
            self.ptr.buf = u32::from(frame);
            true
        } else if frame & 0o200 != 0 {
            // (Clamped so that even a hand-edited saved state cannot shift out of range.)
            let rem = self.ptr.remaining.clamp(6, 18) - 6;
            self.ptr.buf |= u32::from(frame & 0o77) << rem;
            self.ptr.remaining = rem;
            rem == 0
        } else {
            false
        };
        if !done {
            if self.ptr.pos >= self.ptr.tape.len() {
                self.ptr.due = NEVER;
                self.cpls &= !CP_PTR;
            } else {
                self.ptr.due += READER_LINE_NS;
            }
            return;
        }
        self.ptr.due = NEVER;
        if self.cpls & CP_PTR != 0 {
            // With a completion pulse the word goes straight to IO ([HB] rpa/rpb).
            self.io = self.ptr.buf & MASK;
            self.iosta &= !status::READER;
            self.complete(CP_PTR);
        } else {
            self.iosta |= status::READER;
            self.sb_req = true;
        }
    }

    /// Service every device whose event time has come, then recompute the next event time.
    pub(super) fn service_devices(&mut self) {
        let now = self.now();
        if self.tty.out_due <= now {
            self.tty.out_due = NEVER;
            self.iosta |= status::TYPE_OUT;
            self.complete(CP_TTO);
            self.sb_req = true;
        }
        if self.ptr.due <= now {
            self.reader_line();
        }
        if self.ptp.due <= now {
            self.ptp.due = NEVER;
            self.iosta |= status::PUNCH;
            self.complete(CP_PTP);
            self.sb_req = true;
        }
        if self.dpy.due <= now {
            self.dpy.due = NEVER;
            self.complete(CP_DPY);
        }
        self.reschedule();
    }

    /// Recompute the next device event time from the devices' own schedules.
    pub(super) fn reschedule(&mut self) {
        self.next_event_ns = self
            .tty
            .out_due
            .min(self.ptr.due)
            .min(self.ptp.due)
            .min(self.dpy.due);
    }

    /// The light pen is at the tube and (x, y) lies within its radius.
    fn pen_sees(&self, x: i16, y: i16) -> bool {
        let Some((px, py)) = self.light_pen else {
            return false;
        };
        let dx = i64::from(x) - i64::from(px);
        let dy = i64::from(y) - i64::from(py);
        let r = i64::from(self.light_pen_radius);
        dx * dx + dy * dy <= r * r
    }

    /// The program looked for a key and found none. Looks made while the typewriter is still
    /// printing do not count: the program is then waiting for the printer, not for the typist.
    pub(super) fn key_poll(&mut self) {
        if self.tty.out_due == NEVER {
            self.tty.poll(self.now());
        }
    }

    /// The operator strikes a key (see [`Machine::strike_key`]).
    pub(super) fn key_struck(&mut self, code: u8) -> bool {
        let code = code & 0o77;
        let overrun = self.iosta & status::TYPE_IN != 0;
        self.tty.key = code;
        self.iosta |= status::TYPE_IN;
        self.pf |= PF1;
        self.sb_req = true;
        self.tty.wait_since = None;
        self.tty.print(code, true, self.now());
        !overrun
    }
}

#[cfg(test)]
mod tests {
    use super::coord;

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
