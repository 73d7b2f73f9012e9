//! The console typewriter (Soroban/IBM): printing with case and ribbon state, the one-character
//! keyboard buffer, and the books on how long the program has been waiting for a key.
//!
//! Times are the maintenance-manual figures MAME uses ([MAME-drv] `iot_tyo`, "maintenance
//! manual 9-12 … 9-14"): 105 ms for a printing character (and space, tab, backspace), 175 ms
//! for case shifts and ribbon colour changes, 205 ms for carriage return. Chosen over aap's
//! flat 100 ms because they are cited to DEC's manual.

use super::{status, Bus, Device, NEVER, PF1, W};
use crate::fiodec;
use crate::machine::{StopReason, TypeEvent};
use crate::word::Word;
use serde::{Deserialize, Serialize};

/// Typewriter time for a printing character, space, tab or backspace (ns).
pub const TYPE_CHAR_NS: u64 = 105_000_000;
/// For a case shift or ribbon change (ns).
pub const TYPE_SHIFT_NS: u64 = 175_000_000;
/// For a carriage return (ns).
pub const TYPE_CR_NS: u64 = 205_000_000;
/// Key polls further apart than this do not make one continuous wait for a key (ns).
pub const KEY_POLL_GAP_NS: u64 = 100_000_000;

/// The C bit of an IOT (bit 6).
const C: u32 = 0o004_000;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(in crate::machine) struct Typewriter {
    /// When the character being typed is finished (NEVER when idle).
    pub(in crate::machine) out_due: u64,
    pub(in crate::machine) upper: bool,
    pub(in crate::machine) red: bool,
    /// The one-character input buffer.
    pub(in crate::machine) key: u8,
    pub(in crate::machine) events: Vec<TypeEvent>,
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
    /// The program looked for a key and found none. Looks made while the typewriter is still
    /// printing do not count: the program is then waiting for the printer, not for the typist.
    pub(in crate::machine) fn poll(&mut self, now: u64) {
        if self.out_due != NEVER {
            return;
        }
        match self.wait_since {
            Some(_) if now.saturating_sub(self.last_poll) <= KEY_POLL_GAP_NS => {}
            _ => self.wait_since = Some(now),
        }
        self.last_poll = now;
    }

    /// The program set or cleared program flag 1 itself (`stf 1`, `clf 1`, or selector 7).
    /// A wait for a key is a run of looks at a flag only the keyboard sets; a program that
    /// writes the flag between its looks uses it as a flag of its own, or re-arms it on each
    /// pass of a loop that does other work (ICSS 1.3 clears flags 1–3 and tests flag 1 once a
    /// frame while its game runs): it is not sitting idle at the keyboard, so the wait starts
    /// afresh at its next look. (A program waiting for a key clears flag 1 once the key has come,
    /// not between looks.)
    pub(in crate::machine) fn flag_written(&mut self) {
        self.wait_since = None;
    }

    pub(in crate::machine) fn key_wait_since(&self, now: u64) -> Option<u64> {
        self.wait_since
            .filter(|_| now.saturating_sub(self.last_poll) <= KEY_POLL_GAP_NS)
    }

    /// The operator strikes a key: it goes to the buffer (an overrun if the program had not
    /// taken the last one: returns false), sets the status bit and program flag 1, requests a
    /// break, and prints locally.
    pub(in crate::machine) fn strike(&mut self, code: u8, bus: &mut Bus) -> bool {
        let code = code & 0o77;
        let overrun = *bus.iosta & status::TYPE_IN != 0;
        self.key = code;
        *bus.iosta |= status::TYPE_IN;
        *bus.pf |= PF1;
        bus.request_break(super::sequence_break::TYPE_IN);
        self.wait_since = None;
        self.print(code, true, bus.now);
        !overrun
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

impl Device for Typewriter {
    const PULSE: u8 = 2;

    /// `tyo` (03) types IO's low six bits; `tyi` (04) reads the key buffer into IO.
    fn iot(&mut self, ir: u32, pc0: u32, pulse: bool, bus: &mut Bus) -> Option<StopReason> {
        if ir & 0o77 == 0o03 {
            let code = (*bus.io & 0o77) as u8;
            *bus.iosta &= !status::TYPE_OUT;
            self.print(code, false, bus.now);
            self.wait_since = None;
            self.out_due = bus.now + type_time(code);
            bus.request_pulse(Self::PULSE, pulse);
            return None;
        }
        if *bus.iosta & status::TYPE_IN == 0 {
            self.poll(bus.now);
        }
        *bus.io = u32::from(self.key & 0o77);
        *bus.iosta &= !status::TYPE_IN;
        if ir & (W | C) != 0 {
            // "should not use the optional in-out wait" [HB]; SIMH transfers the buffer and
            // then stops ([SIMH-std] `tti`).
            return Some(StopReason::UndefinedInstruction {
                pc: pc0,
                word: Word::new(ir),
            });
        }
        None
    }

    fn due(&self) -> u64 {
        self.out_due
    }

    /// The character is typed: status bit, completion pulse, break request.
    fn service(&mut self, bus: &mut Bus) {
        self.out_due = NEVER;
        *bus.iosta |= status::TYPE_OUT;
        bus.complete(Self::PULSE);
        bus.request_break(super::sequence_break::TYPE_OUT);
    }

    /// A character being typed requests a break when it is done.
    fn may_request_break(&self) -> bool {
        self.out_due != NEVER
    }
}
