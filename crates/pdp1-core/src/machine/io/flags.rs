//! Program flags as sound: every change of the six program flags, with its emulated time.
//!
//! On the PDP-1 the program flags drive lamps on the console, and at MIT four of them were
//! wired to an amplifier: Peter Samson's music player (and the Harmony compiler's tapes)
//! play four voices by toggling flags 1–4 at audio rates with `stf`/`clf` (see
//! `crate::sound` for how a host turns the flags into samples, and which flags sound).
//!
//! This is not an IOT device: the flags are processor state, changed by the operate group
//! (`stf`/`clf`, `machine/cpu.rs`), by devices (PF1 when a key is struck, PF3 when the light
//! pen sees a point) and by the console. The machine notes the flag word after each of those
//! and the recorder keeps a change only when the word differs from the last one recorded, so
//! the stream is exactly the flags' history: (time, new 6-bit word), in time order. The host
//! drains it like the display points ([`crate::Machine::drain_flags`]). The run loop
//! (`machine/fast.rs`) hands flag-changing operate instructions to `Machine::step`, so other
//! instructions pay nothing for this.

use crate::machine::FlagChange;
use serde::{Deserialize, Serialize};

/// Changes kept for the host before the oldest half is dropped (a host that never drains).
const FLAG_BACKLOG: usize = 1 << 20;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(in crate::machine) struct FlagRecorder {
    /// The flag word as last recorded (the one the stream ends with).
    last: u8,
    pub(in crate::machine) changes: Vec<FlagChange>,
}

impl FlagRecorder {
    /// The flags are `pf` at `now`: record the change, if it is one.
    #[inline]
    pub(in crate::machine) fn note(&mut self, now: u64, pf: u8) {
        if pf != self.last {
            self.last = pf;
            if self.changes.len() >= FLAG_BACKLOG {
                self.changes.drain(..FLAG_BACKLOG / 2);
            }
            self.changes.push(FlagChange {
                time_ns: now,
                flags: pf,
            });
        }
    }
}
