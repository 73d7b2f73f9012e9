//! The sequence break system: the one-channel break every PDP-1 has, and the Type 120
//! sixteen-channel option ([`MachineConfig::sbs16`](crate::MachineConfig)).
//!
//! "A one-channel Sequence Break System is included in the standard PDP-1. Optional Sequence
//! Break Systems consist of 16, 32, 64, 128, and 256 channels." ([HB] via [MAME-cpu];
//! pdp1-hardware.md §7.1.) The handbook's IOT table names the 16-channel system's
//! instructions: "SEQUENCE BREAK SYSTEM TYPE 120 — esm 720055 Enter Sequence Break Mode, lsm
//! 720054 Leave Sequence Break Mode, cbs 720056 Clear Sequence Break System, dsc 72kn50
//! Deactivate Sequence Break Channel, asc 72kn51 Activate Sequence Break Channel, isb 72kn52
//! Initiate Sequence Break, cac 720053 Clear All Channels".
//!
//! # One channel
//!
//! Mode (`esm`/`lsm`, the START key's direction), one request flip-flop that every device
//! sets, one "break in progress". A break saves AC, the OV/EXD/PC word and IO in 0, 1, 2 and
//! continues at 3; `jmp i 1` in field 0 in sequence-break mode returns ([SIMH-cpu], [aap]).
//!
//! # Type 120: sixteen channels
//!
//! As SIMH ([SIMH-cpu] `sbs_req`/`sbs_enb`/`sbs_act`, `sbs_eval`) and aap ([aap] `b1`–`b4`,
//! `sbs_calc_req`) have it, who agree on every point below:
//!
//! * Each channel n (0–15) has an enable ("active" in DEC's IOT names: `asc` activates, `dsc`
//!   deactivates, `cac` deactivates all), a request and a break-in-progress flip-flop. The
//!   channel is the IOT's bits 6–11 (`72kn5x`: `asc` for channel 5 is 720551); aap ignores
//!   channels 16–77 (SIMH takes them modulo 16), and so do we.
//! * A device's request sets its channel's request only while the channel is enabled;
//!   `isb n` requests channel n whether it is enabled or not. Deactivating a channel leaves a
//!   request already made standing; requests made while the mode is off wait for `esm`
//!   ([SIMH-cpu] header: "do sequence breaks accumulate while the system is disabled (yes,
//!   according to the Maintenance Manual)").
//! * Priority: channel 0 is the highest. A break is taken on the highest requested channel if
//!   it is higher than every channel whose break is in progress — so a higher channel
//!   interrupts a lower channel's routine, never the other way round.
//! * The break on channel n saves AC, the OV/EXD/PC word and IO in 4n, 4n+1, 4n+2 and
//!   continues at 4n+3; its request is cleared and its break-in-progress set.
//! * `jmp i 4n+1` in field 0 in sequence-break mode returns: OV and EXD from the word at
//!   4n+1, and channel n's break-in-progress cleared — which lets the next lower channel's
//!   routine (interrupted by this one) go on, or a waiting lower request break.
//! * `cbs` clears every request and break in progress but leaves the enables and the mode
//!   ([aap] `clr_sbs`, as for one channel; SIMH also clears the enables and the mode).
//! * Without the option, IOTs 50–53 do nothing, like any IOT to a device not installed
//!   ([aap]: `if(pdp->sbs16 …)`; SIMH's default `STOP_INST` 0).
//!
//! A channel's request is cleared when its break is entered: SIMH (`sbs_req &= ~SBS_MASK
//! (lvl)`) and aap (`sbs_sync` in the first break cycle: "`if(pdp->sbs16) pdp->b3 &=
//! ~pdp->sbs_seq;`", as its one-channel model clears `b2`; an older version of aap kept
//! `b3`, so the channel would have broken again after its return).
//!
//! Which device requests which channel is wired at installation; SIMH lets each device be
//! set to a level (default 0 for all), aap wires the reader to 1, the punch to 6, typewriter
//! input to 7 and typewriter output to 8 ([aap] `RD_CHAN`, `PUN_CHAN`, `TTI_CHAN`,
//! `TTO_CHAN`). We take aap's wiring ([`READER`], [`PUNCH`], [`TYPE_IN`], [`TYPE_OUT`]); the
//! display requests no break. With one channel every device requests the one channel.

use crate::machine::{Machine, AMASK, DAMASK, FIELD, SIGN};
use serde::{Deserialize, Serialize};

/// The Type 120 channel the paper tape reader requests ([aap] `RD_CHAN`).
pub(in crate::machine) const READER: u32 = 1;
/// The Type 120 channel the punch requests ([aap] `PUN_CHAN`).
pub(in crate::machine) const PUNCH: u32 = 6;
/// The Type 120 channel a struck key requests ([aap] `TTI_CHAN`).
pub(in crate::machine) const TYPE_IN: u32 = 7;
/// The Type 120 channel the typewriter requests when a character is printed ([aap]
/// `TTO_CHAN`).
pub(in crate::machine) const TYPE_OUT: u32 = 8;

/// The Type 120's flip-flops, one bit a channel (bit n = channel n; channel 0 the highest
/// priority). All zero, and unused, on a machine with the one-channel system alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(in crate::machine) struct Channels {
    /// Enabled ("activated") channels: a device's request counts only on these.
    pub(in crate::machine) enabled: u16,
    /// Requests waiting to be served.
    pub(in crate::machine) requested: u16,
    /// Channels whose break is in progress.
    pub(in crate::machine) active: u16,
}

impl Channels {
    /// The channels that may break now: those of higher priority (lower number) than every
    /// channel in progress.
    #[inline]
    fn above_active(&self) -> u16 {
        // Bits below the lowest active bit (all 16 when none is active).
        let lowest = u32::from(self.active).trailing_zeros().min(16);
        ((1u32 << lowest) - 1) as u16
    }

    /// The channel a break would be taken on now (mode aside): the highest requested channel,
    /// if it is higher than every channel in progress.
    #[inline]
    pub(in crate::machine) fn pending(&self) -> Option<u32> {
        let r = self.requested & self.above_active();
        (r != 0).then(|| r.trailing_zeros())
    }

    /// A request on channel `ch` (a device's: only if the channel is enabled).
    pub(in crate::machine) fn device_request(&mut self, ch: u32) {
        self.requested |= self.enabled & (1 << ch);
    }

    /// A device request on channel `ch` could break now (the channel enabled and above every
    /// channel in progress).
    pub(in crate::machine) fn could_break(&self, ch: u32) -> bool {
        self.enabled & self.above_active() & (1 << ch) != 0
    }

    /// Any enabled channel could break now.
    pub(in crate::machine) fn armed(&self) -> bool {
        self.enabled & self.above_active() != 0
    }

    /// The break on channel `ch` is entered.
    pub(in crate::machine) fn enter(&mut self, ch: u32) {
        self.requested &= !(1 << ch);
        self.active |= 1 << ch;
    }

    /// IOTs 50–53 (`dsc`, `asc`, `isb`, `cac`); the channel is bits 6–11 of `ir`.
    pub(in crate::machine) fn iot(&mut self, ir: u32) {
        let ch = (ir >> 6) & 0o77;
        let bit = if ch < 16 { 1u16 << ch } else { 0 };
        match ir & 0o77 {
            0o50 => self.enabled &= !bit,
            0o51 => self.enabled |= bit,
            0o52 => self.requested |= bit,
            _ => self.enabled = 0, // 0o53, cac
        }
    }

    /// `cbs` and start-clear: every request and break in progress cleared, enables kept.
    pub(in crate::machine) fn clear(&mut self) {
        self.requested = 0;
        self.active = 0;
    }
}

impl Machine {
    /// A break would be taken now if the mode is on: the one channel requested and no break
    /// in progress, or a Type 120 channel requested above every channel in progress.
    #[inline]
    pub(in crate::machine) fn break_request(&self) -> bool {
        self.break_channel().is_some()
    }

    /// The channel of [`Machine::break_request`] (0 with one channel).
    #[inline]
    pub(in crate::machine) fn break_channel(&self) -> Option<u32> {
        if self.config.sbs16 {
            self.chan.pending()
        } else {
            (self.sb_req && !self.sb_ip).then_some(0)
        }
    }

    /// Sequence-break mode is on and a break is requested that can be taken.
    #[inline]
    pub(in crate::machine) fn break_wanted(&self) -> bool {
        self.sbm && self.break_request()
    }

    /// A request the device wired to channel `ch` makes could be taken (mode aside).
    pub(in crate::machine) fn device_could_break(&self, ch: u32) -> bool {
        if self.config.sbs16 {
            self.chan.could_break(ch)
        } else {
            !self.sb_ip
        }
    }

    /// A device event to come could start a break: the run loop then leaves instructions
    /// that a break could interrupt part-way (indirect chains, `xct`) to the single-cycle
    /// machine, which sees a request in the cycle after it arrives (see `cycle.rs`).
    pub(in crate::machine) fn break_armed(&self) -> bool {
        self.sbm
            && self.next_event_ns != u64::MAX
            && if self.config.sbs16 {
                self.chan.armed()
            } else {
                !self.sb_ip
            }
    }

    /// The three break cycles on channel n = `ch`: AC → 4n, the OV/EXD/PC word → 4n+1, IO → 4n+2, PC ← 4n+3
    /// (n = 0 with one channel) — [SIMH-cpu] main loop, [aap] `brkcycle`, [MAME-cpu]
    /// `brk_ctr`. Where the sources differ (issue 16, docs/testing.md):
    ///
    /// * AC is left holding the OV/EXD/PC word, as after `jsp`: aap's first break cycle moves
    ///   AC to MB for the store ("`if(pdp->bc == 1) MB = AC, AC = 0;`") and then ORs the PC
    ///   word in ("`if(pdp->bc == 1) pc_to_ac(pdp)`"), and the second cycle stores AC;
    ///   MAME does the same ("`AC = (OV << 17) | (EXD << 16) | PC; /* save OV/EXD/PC to AC
    ///   */`"). SIMH leaves AC as it was.
    /// * OV is not cleared: no break cycle of aap touches `ov1`. SIMH and MAME clear it
    ///   (MAME citing "maintenance manual p. 8-17"), which the handbook text we have does not
    ///   settle; we follow the pulse-level model.
    /// * Extend mode is cleared (SIMH, MAME, and aap's `brkcycle` TP10: "`if(pdp->bc == 1)
    ///   pdp->exd = 0;`").
    /// * IR is cleared: the first break cycle loads no instruction ("`if(pdp->bc == 1) IR =
    ///   0;`", [aap] `brkcycle` TP4), so the lamps show opcode 0 until the routine's first
    ///   fetch (issue 31, found by the cycle-by-cycle comparison with aap's model).
    pub(in crate::machine) fn break_entry(&mut self, ch: u32) {
        let base = if self.config.sbs16 {
            self.chan.enter(ch);
            4 * ch
        } else {
            self.sb_req = false;
            self.sb_ip = true;
            0
        };
        let epc = self.epc_word();
        self.wr(base, self.ac);
        self.cycle();
        self.wr(base + 1, epc);
        self.cycle();
        self.wr(base + 2, self.io);
        self.cycle();
        self.ma = base + 2;
        self.mb = self.io;
        self.ac = epc;
        self.pc = base + 3;
        self.ir = 0;
        self.extend = false;
    }

    /// The address bits a return (`jmp i`) must match: 1 with one channel, 4n+1 with the
    /// Type 120.
    #[inline(always)]
    pub(in crate::machine) fn debreak_mask(&self) -> u32 {
        if self.config.sbs16 {
            0o17703
        } else {
            0o17777
        }
    }

    /// `jmp i 1` (Type 120: `jmp i 4n+1`) in field 0 in sequence-break mode ends a break
    /// ([SIMH-cpu] case 030, [aap] defer TP2).
    #[inline(always)]
    pub(in crate::machine) fn is_debreak(&self, ir: u32) -> bool {
        ir & self.debreak_mask() == 0o10001 && self.sbm && self.pc & FIELD == 0
    }

    /// The return's defer cycle: OV and extend mode restored from the word at 1 (4n+1), the
    /// jump to its 16-bit address, and the break in progress (channel n's) cleared.
    pub(in crate::machine) fn debreak(&mut self, ir: u32) {
        let a = ir & DAMASK;
        self.cycle();
        let w = self.rd(a);
        self.ma = a;
        self.mb = w;
        self.ov = w & SIGN != 0;
        self.extend = w & 0o200_000 != 0;
        self.pc = w & AMASK;
        if self.config.sbs16 {
            self.chan.active &= !(1 << ((a >> 2) & 0o17));
        } else {
            self.sb_ip = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Channels;

    #[test]
    fn priority_is_by_channel_number_above_every_channel_in_progress() {
        let mut c = Channels {
            enabled: 0o177777,
            ..Default::default()
        };
        assert_eq!(c.pending(), None);
        c.requested = (1 << 9) | (1 << 4);
        assert_eq!(c.pending(), Some(4));
        c.active = 1 << 4;
        assert_eq!(c.pending(), None, "4 in progress: 9 is lower, waits");
        c.requested |= 1 << 2;
        assert_eq!(c.pending(), Some(2), "2 is higher than 4");
        c.active = 1 << 15;
        assert_eq!(c.pending(), Some(2));
    }
}
