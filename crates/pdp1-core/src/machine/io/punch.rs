//! The paper tape punch: 63 lines/s ([HB]), 15.873 ms per line. `ppa` punches IO's low eight
//! bits as they are, `ppb` IO's top six bits with hole 8 (one line of a binary word).

use super::{status, Bus, Device, NEVER};
use crate::machine::StopReason;
use serde::{Deserialize, Serialize};

/// One punched line (ns).
pub const PUNCH_LINE_NS: u64 = 1_000_000_000 / 63;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(in crate::machine) struct Punch {
    due: u64,
    pub(in crate::machine) out: Vec<u8>,
}

impl Default for Punch {
    fn default() -> Self {
        Punch {
            due: NEVER,
            out: Vec::new(),
        }
    }
}

impl Device for Punch {
    const PULSE: u8 = 4;

    fn iot(&mut self, ir: u32, _pc0: u32, pulse: bool, bus: &mut Bus) -> Option<StopReason> {
        let line = if ir & 0o77 == 0o06 {
            ((*bus.io >> 12) | 0o200) as u8
        } else {
            (*bus.io & 0o377) as u8
        };
        self.out.push(line);
        *bus.iosta &= !status::PUNCH;
        self.due = bus.now + PUNCH_LINE_NS;
        bus.request_pulse(Self::PULSE, pulse);
        None
    }

    fn due(&self) -> u64 {
        self.due
    }

    /// The line is punched: status bit, completion pulse, break request.
    fn service(&mut self, bus: &mut Bus) {
        self.due = NEVER;
        *bus.iosta |= status::PUNCH;
        bus.complete(Self::PULSE);
        bus.request_break(super::sequence_break::PUNCH);
    }

    /// A line being punched requests a break when it is done.
    fn may_request_break(&self) -> bool {
        self.due != NEVER
    }
}
