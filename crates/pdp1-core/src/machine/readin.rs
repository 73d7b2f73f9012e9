//! READ IN, the hardware bootstrap (pdp1-hardware.md §6.3).
//!
//! After a start-clear the reader runs in binary mode and delivers 18-bit words (three lines
//! with hole 8 each; lines without it are skipped) in pairs: a `dio Y` is followed by the word
//! to store at Y; a `jmp Y` ends read-in and starts the program at Y. Y lies in the field the
//! test-address extension switches select ([SIMH-doc] "BOOT PTR loads into the field selected
//! by TA<0:3>", [aap] `epc |= eta`). Like SIMH's BOOT and MAME we also accept `dac Y` in place of
//! `dio Y` (MAME: "the lisp tape uses the dac instruction"). Anything else, or the tape running
//! out, ends read-in with [`StopReason::ReadInFailed`].
//!
//! Time: the reader's 2.5 ms per line is charged for every line that passes, including
//! skipped ones; the memory cycle that stores a word overlaps the reading of the next line.

use super::io::READER_LINE_NS;
use super::{Machine, StopReason, DAMASK, FIELD};
use crate::word::Word;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct ReadIn {
    /// Read-in mode is on.
    pub(super) active: bool,
    /// A `dio Y` was read; the next word goes to this address.
    pub(super) pending: Option<u32>,
}

const OP_DIO: u32 = 0o320_000;
const OP_DAC: u32 = 0o240_000;
const OP_JMP: u32 = 0o600_000;

impl Machine {
    /// One binary word from the reader at reader speed, or `None` if the tape runs out.
    fn readin_tape_word(&mut self) -> Option<u32> {
        let mut w = 0;
        let mut n = 0;
        while n < 3 {
            let f = self.dev.ptr.next_frame()?;
            self.extra_ns += READER_LINE_NS;
            self.readin_ns += READER_LINE_NS;
            if self.now() >= self.next_event_ns {
                self.service_devices();
            }
            if f & 0o200 != 0 {
                w = (w << 6) | u32::from(f & 0o77);
                n += 1;
            }
        }
        Some(w)
    }

    /// Read and act on one word of a read-in pair. Returns a stop reason if read-in failed.
    pub(super) fn readin_word(&mut self) -> Option<StopReason> {
        let Some(w) = self.readin_tape_word() else {
            self.readin.active = false;
            self.readin.pending = None;
            return Some(StopReason::ReadInFailed { word: None });
        };
        self.io = w;
        let field = self.ta & FIELD;
        if let Some(addr) = self.readin.pending.take() {
            self.ma = addr;
            self.mb = w;
            // The store's memory cycle overlaps the reading of the next line: no time of its
            // own (issue 18 found it charged 5 µs here).
            self.wr(addr, w);
            return None;
        }
        match w & 0o760_000 {
            OP_DIO | OP_DAC => self.readin.pending = Some(field | (w & DAMASK)),
            OP_JMP => {
                self.readin.active = false;
                self.pc = field | (w & DAMASK);
            }
            _ => {
                self.readin.active = false;
                return Some(StopReason::ReadInFailed {
                    word: Some(Word::new(w)),
                });
            }
        }
        None
    }
}
