//! The paper tape reader: 400 lines/s ([HB]), 2.5 ms per line including the lines `rpb` skips
//! (no hole 8). `rpa` reads one line, `rpb` assembles an 18-bit word from three lines with hole
//! 8; `rrb` (30) moves the reader buffer to IO. READ IN uses the same reader (`readin.rs`).

use super::{status, Bus, Device, NEVER};
use crate::machine::{StopReason, MASK};
use serde::{Deserialize, Serialize};

/// One tape line under the read head (ns).
pub const READER_LINE_NS: u64 = 2_500_000;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(in crate::machine) struct Reader {
    pub(in crate::machine) tape: Vec<u8>,
    pub(in crate::machine) pos: usize,
    /// When the next line arrives under the read head (NEVER when the reader is stopped).
    due: u64,
    /// Binary (`rpb`, three lines with hole 8) or alphanumeric (`rpa`, one line).
    binary: bool,
    /// Bits still to assemble in binary mode (18, 12, 6, 0).
    remaining: u32,
    /// The reader buffer.
    buf: u32,
    /// A read was asked for and the tape ran out: the reader waits for tape, and a tape put in
    /// continues the read (an operator feeding the next tape of a multi-tape assembly to DEC's
    /// MACRO, which polls the reader status meanwhile).
    #[serde(default)]
    starved: bool,
    /// The starved read owed a completion pulse (an `rpa`/`rpb` with the wait or the pulse
    /// bit): a tape put in makes it owed again, so a program waiting in the IOT goes on when
    /// the operator feeds the next tape, as on the machine, where the wait simply lasts.
    #[serde(default)]
    starved_pulse: bool,
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
            starved: false,
            starved_pulse: false,
        }
    }
}

impl Reader {
    /// A tape is put in the reader at `now`: a read that was waiting for tape goes on.
    /// Returns true when that read owes its completion pulse again.
    pub(in crate::machine) fn mount(&mut self, frames: Vec<u8>, now: u64) -> bool {
        self.tape = frames;
        self.pos = 0;
        if self.starved && !self.tape.is_empty() {
            self.starved = false;
            self.due = now + READER_LINE_NS;
            return std::mem::take(&mut self.starved_pulse);
        }
        false
    }

    /// READ IN takes the reader over: a read the program had asked for is forgotten.
    pub(in crate::machine) fn forget_read(&mut self) {
        self.due = NEVER;
        self.starved = false;
        self.starved_pulse = false;
    }

    /// A line is on its way under the read head (the reader runs for a read asked for).
    pub(in crate::machine) fn reading(&self) -> bool {
        self.due != NEVER
    }

    /// Next frame under the read head, if any.
    pub(in crate::machine) fn next_frame(&mut self) -> Option<u8> {
        let f = self.tape.get(self.pos).copied()?;
        self.pos += 1;
        Some(f)
    }
}

impl Device for Reader {
    const PULSE: u8 = 1;

    /// `rpa`/`rpb` start the reader (`rpa` while it runs stops it: the clutch toggles,
    /// [SIMH-std], [aap]); `rrb` reads the buffer.
    fn iot(&mut self, ir: u32, _pc0: u32, pulse: bool, bus: &mut Bus) -> Option<StopReason> {
        if ir & 0o77 == 0o30 {
            *bus.io = self.buf;
            *bus.iosta &= !status::READER;
            return None;
        }
        let binary = ir & 0o77 == 0o02;
        if !binary && (self.due != NEVER || self.starved) {
            self.due = NEVER;
            self.starved = false;
            return None;
        }
        self.binary = binary;
        self.remaining = 18;
        self.buf = 0;
        self.starved = false;
        bus.request_pulse(Self::PULSE, pulse);
        if self.pos >= self.tape.len() {
            // Out of tape: the reader never delivers, so no pulse can come; it waits for tape.
            self.starved_pulse = bus.pulse_owed(Self::PULSE);
            bus.cancel_pulse(Self::PULSE);
            self.due = NEVER;
            self.starved = true;
        } else {
            self.due = bus.now + READER_LINE_NS;
        }
        None
    }

    fn due(&self) -> u64 {
        self.due
    }

    /// One tape line passes the read head.
    fn service(&mut self, bus: &mut Bus) {
        let Some(frame) = self.next_frame() else {
            self.due = NEVER;
            self.starved = true;
            self.starved_pulse = bus.pulse_owed(Self::PULSE);
            bus.cancel_pulse(Self::PULSE);
            return;
        };
        let done = if !self.binary {
            self.buf = u32::from(frame);
            true
        } else if frame & 0o200 != 0 {
            // (Clamped so that even a hand-edited saved state cannot shift out of range.)
            let rem = self.remaining.clamp(6, 18) - 6;
            self.buf |= u32::from(frame & 0o77) << rem;
            self.remaining = rem;
            rem == 0
        } else {
            false
        };
        if !done {
            if self.pos >= self.tape.len() {
                self.due = NEVER;
                self.starved = true;
                self.starved_pulse = bus.pulse_owed(Self::PULSE);
                bus.cancel_pulse(Self::PULSE);
            } else {
                self.due += READER_LINE_NS;
            }
            return;
        }
        self.due = NEVER;
        if bus.pulse_owed(Self::PULSE) {
            // With a completion pulse the word goes straight to IO ([HB] rpa/rpb).
            *bus.io = self.buf & MASK;
            *bus.iosta &= !status::READER;
            bus.complete(Self::PULSE);
        } else {
            *bus.iosta |= status::READER;
            bus.request_break(super::sequence_break::READER);
        }
    }

    /// A running reader requests a break when its character is in the buffer (when it owes
    /// no completion pulse; one it owes is counted as that).
    fn may_request_break(&self) -> bool {
        self.due != NEVER
    }
}
