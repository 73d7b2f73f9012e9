//! SINGLE STEP: the machine advanced one 5 µs memory cycle at a time.
//!
//! This is the one path of an instruction through its cycles — fetch, each defer, execute —
//! keeping the position in [`Phase`]: SINGLE STEP stops after each cycle, SINGLE INST and the
//! run loop's slow path (`Machine::step`) run it to the next fetch, servicing devices after
//! each cycle. The operations themselves — an execute cycle's, a defer cycle's addressing,
//! `xct`'s and the chains' limits, `jmp`/`jsp`, `cal`/`jda` — are `exec.rs`'s pure functions
//! (through `cpu.rs`'s `mem_op` and `execute`), which the fast run loop (`fast.rs`) calls too;
//! it differs only in running whole instructions between device events, and tests hold the
//! two equal, IOTs and breaks included.
//!
//! Cycle structure ([aap] cycle 0 / defer / cycle 1; pdp1-hardware.md §3.1):
//! * fetch: reads the instruction. jmp/jsp direct, skip, shift, law, IOT and operate finish
//!   here; an IOT waiting for its completion pulse is fetched again each cycle.
//! * defer: one per indirect word (one at most in extend mode); jmp/jsp finish in their last.
//! * execute: the operand cycle of the other memory-reference instructions (with Type 10
//!   `mul`/`div` taking their extra time in it). For `xct` it is the target's fetch, after which
//!   the target continues as above.
//!
//! # When a sequence break is taken (issue 16)
//!
//! As in aap's pulse-level model ([aap] `cycle0`/`defer` TP10, `CY0_MIDBRK_PERMIT`,
//! `DF_MIDBRK_PERMIT`), which agrees with the maintenance manual as MAME quotes it ("Note that
//! break cannot occur during a one-cycle jump that is deferred only once, or another break
//! cycle. Also, it cannot interrupt the long cycle 1 of automatic multiply/divide.
//! (maintenance manual 6-19)"): a request is synchronised early in a cycle (TP4, `sbs_sync`),
//! so a request a device makes between two cycles counts from the second; the decision falls
//! at the end (TP10) of every cycle — fetch, defer, execute (and `xct`'s target fetch, which
//! is a fetch from TP4 on):
//!
//! * after a fetch that finished its instruction (skip, shift, `law`, IOT — also a waiting
//!   IOT, whose PC is already backed up — operate, direct `jmp`/`jsp`): the break follows;
//! * after the fetch of a memory-reference instruction (`and` … `div`, `xct`, `cal`/`jda`):
//!   the instruction is cancelled — PC backed up to it, nothing done but the fetch — and
//!   executed again after the break ("`if(CY0_MIDBRK_PERMIT) inst_cancel(pdp)`");
//! * after a defer cycle: cancelled likewise, the indirect chain read so far wasted — except
//!   the last defer of `jmp i`/`jsp i`, which finishes the jump, and the break follows; the
//!   fetch of a deferred `jmp`/`jsp` is no decision point at all;
//! * after an execute cycle, which ends its instruction: the break follows ([aap] `cycle1`
//!   TP10 sets the break cycle when a synchronised request is waiting). The execute cycle
//!   itself, Type 10 `mul`/`div` with its long time included, is never interrupted: the
//!   break comes after it. (Until issue 31 the next fetch decided, which cost one more
//!   fetch and cancelled a memory-reference instruction there: found by the cycle-by-cycle
//!   comparison with aap's model, `tests/tests/aap_diff.rs`.)
//!
//! A cancelled instruction leaves [`Phase::Break`]; so does a finished one when the break
//! follows. The entry (three cycles) is then one step of its own, and so is the return's
//! `jmp i 1` (fetch + one defer) after its fetch.

use super::exec::{self, Defer};
use super::{incr, Machine, StopReason, FIELD, IBIT};
use serde::{Deserialize, Serialize};

/// Where the machine is inside an instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Phase {
    /// Between instructions: the next cycle is a fetch (or a break entry).
    #[default]
    Fetch,
    /// The next cycle reads the indirect word at `ma` for `ir`, fetched from `pc0`; `n`
    /// indirect words read so far, `xct` the `xct` nesting.
    Defer {
        ir: u32,
        pc0: u32,
        ma: u32,
        n: u32,
        xct: u32,
    },
    /// The next cycle is the execute cycle of `ir` with effective address `ma`.
    Execute {
        ir: u32,
        pc0: u32,
        ma: u32,
        xct: u32,
    },
    /// The next cycle is the defer cycle of a debreak (`jmp i 1`, Type 120 `jmp i 4n+1`):
    /// it reads the word at `ma`, restores OV and extend mode from it, jumps to its address
    /// and ends the break in progress ([aap] defer TP2; `io/sequence_break.rs`). (`Rest`
    /// in states saved before it was a cycle of its own here.)
    #[serde(alias = "Rest")]
    Debreak { ir: u32 },
    /// Between instructions, with a sequence-break entry decided: the next step is the
    /// entry (its three cycles) on channel `ch` (0 with one channel), the one requested when
    /// it was decided ([aap] keeps `req` from the deciding cycle's TP4 to the break cycle).
    Break { ch: u32 },
}

impl Machine {
    /// Perform one memory cycle. Returns a stop reason if the machine must stop.
    pub(super) fn cycle_step(&mut self) -> Option<StopReason> {
        // The request as synchronised in this cycle (TP4): one a device makes after this
        // cycle, or an IOT makes in it (`isb`), counts from the next cycle.
        let latched = self.break_channel();
        match self.phase {
            Phase::Break { ch } => {
                self.phase = Phase::Fetch;
                if latched.is_some() {
                    self.break_entry(ch);
                    return None;
                }
                // (The request went away — only the console can do that — so a plain fetch.)
                self.fetch_cycle(None)
            }
            Phase::Fetch => self.fetch_cycle(latched),
            Phase::Defer {
                ir,
                pc0,
                ma,
                n,
                xct,
            } => {
                if exec::indirect_limit_reached(n, self.config.indirect_limit) {
                    self.phase = Phase::Fetch;
                    return Some(StopReason::IndirectLimit { pc: pc0 });
                }
                self.cycle();
                let w = self.rd(ma);
                self.ma = ma;
                self.mb = w;
                self.phase = Phase::Fetch;
                let r = match exec::defer(w, self.pc & FIELD, self.extend) {
                    Defer::Last(a) => self.addressed(ir, pc0, a, xct),
                    Defer::More(next) => {
                        self.phase = Phase::Defer {
                            ir,
                            pc0,
                            ma: next,
                            n: n + 1,
                            xct,
                        };
                        None
                    }
                };
                // Defer TP10: the last defer of jmp/jsp finished it; any other defer may be
                // cancelled ("DF_MIDBRK_PERMIT").
                if let (Some(ch), None) = (latched, r) {
                    self.break_decision(pc0, ch);
                }
                r
            }
            Phase::Execute { ir, pc0, ma, xct } => {
                self.phase = Phase::Fetch;
                self.ma = ma;
                if exec::is_xct(ir) {
                    // xct's second cycle fetches the target, which then proceeds on its own
                    // (from TP4 on it is a fetch cycle, break decision included).
                    self.cycle();
                    let t = self.rd(ma);
                    self.mb = t;
                    let r = self.decode(t, pc0, xct + 1);
                    if let (Some(ch), None) = (latched, r) {
                        self.break_decision(pc0, ch);
                    }
                    return r;
                }
                self.mem_op(ir >> 13, ma);
                self.instructions += 1;
                // Execute TP10: the instruction is done, and a request synchronised in this
                // cycle is taken right after it ([aap] `cycle1` TP10: "`if(HSC_SBS_BREAK)
                // pdp->bc |= SBS_BREAK; else pdp->cyc = 0;`"; issue 31).
                if let Some(ch) = latched {
                    self.break_decision(pc0, ch);
                }
                None
            }
            Phase::Debreak { ir } => {
                self.phase = Phase::Fetch;
                self.ir = ir >> 13;
                self.debreak(ir);
                self.instructions += 1;
                // The return clears the break in progress at TP2 of its defer cycle, before
                // the request is synchronised: a request waiting (or a lower channel's) breaks
                // right after it.
                if let (Some(ch), true) = (self.break_channel(), self.sbm) {
                    self.phase = Phase::Break { ch };
                }
                None
            }
        }
    }

    /// A fetch cycle: the instruction at PC is read and decoded; `latched`: a break request
    /// was synchronised in this cycle.
    fn fetch_cycle(&mut self, latched: Option<u32>) -> Option<StopReason> {
        let pc0 = self.pc;
        let ir = self.rd(pc0);
        self.ma = pc0;
        self.mb = ir;
        self.pc = incr(pc0);
        self.cycle();
        let r = self.decode(ir, pc0, 0);
        if let (Some(ch), None) = (latched, r) {
            self.break_decision(pc0, ch);
        }
        r
    }

    /// The end (TP10) of a cycle with a break request on channel `ch`
    /// synchronised in it: if the mode is on and a request still stands, the instruction just finished is followed
    /// by the break, or the one in progress is cancelled (PC back to `pc0`, where it — or the
    /// `xct` that reached it — was fetched) — except the fetch of a deferred `jmp`/`jsp`.
    fn break_decision(&mut self, pc0: u32, ch: u32) {
        if !self.break_wanted() {
            return;
        }
        match self.phase {
            Phase::Fetch => self.phase = Phase::Break { ch },
            Phase::Defer { ir, n: 0, .. } if matches!(ir >> 13, 0o30 | 0o31) => {}
            Phase::Defer { .. } | Phase::Execute { .. } => {
                self.pc = pc0;
                self.phase = Phase::Break { ch };
            }
            Phase::Debreak { .. } | Phase::Break { .. } => {}
        }
    }

    /// After the fetch (or xct's target fetch) of `ir`: decide what the next cycle is, or
    /// finish a one-cycle instruction now.
    fn decode(&mut self, ir: u32, pc0: u32, xct: u32) -> Option<StopReason> {
        self.phase = Phase::Fetch;
        let op = ir >> 13;
        self.ir = op;
        match op {
            0o01..=0o04 | 0o10..=0o16 | 0o20..=0o27 | 0o30 | 0o31 => {
                if exec::is_xct(ir) && exec::xct_limit_reached(xct, self.config.xct_limit) {
                    return Some(StopReason::XctLimit { pc: pc0 });
                }
                if op == 0o30 && self.is_debreak(ir) {
                    self.phase = Phase::Debreak { ir };
                    return None;
                }
                let a = exec::address(ir, self.pc & FIELD);
                if ir & IBIT != 0 {
                    self.phase = Phase::Defer {
                        ir,
                        pc0,
                        ma: a,
                        n: 0,
                        xct,
                    };
                    return None;
                }
                self.addressed(ir, pc0, a, xct)
            }
            0o07 => {
                let a = self.cal_address(ir);
                self.phase = Phase::Execute {
                    ir,
                    pc0,
                    ma: a,
                    xct,
                };
                None
            }
            // Skip, shift, law, IOT, operate and undefined opcodes take no further cycle.
            _ => self.execute(ir, pc0),
        }
    }

    /// The effective address of `ir` is known: jmp/jsp finish, the rest go on to execute.
    /// (MA keeps showing the address of this cycle's memory access.)
    fn addressed(&mut self, ir: u32, pc0: u32, a: u32, xct: u32) -> Option<StopReason> {
        match ir >> 13 {
            op @ (0o30 | 0o31) => {
                (self.pc, self.ac) = exec::jump(op, a, self.ac, self.epc_word());
                self.instructions += 1;
            }
            _ => {
                self.phase = Phase::Execute {
                    ir,
                    pc0,
                    ma: a,
                    xct,
                }
            }
        }
        None
    }

    /// One memory cycle, then the devices whose event time has come: the one step every path
    /// through an instruction takes (SINGLE STEP, SINGLE INST, the run loop's slow path).
    pub(super) fn cycle_serviced(&mut self) -> Option<StopReason> {
        let r = self.cycle_step();
        if self.now() >= self.next_event_ns {
            self.service_devices();
        }
        r
    }

    /// Run the cycles left of the instruction in progress, to the next fetch (or break
    /// entry).
    pub(super) fn finish_instruction(&mut self) -> Option<StopReason> {
        while !self.at_instruction_boundary() {
            if let Some(r) = self.cycle_serviced() {
                return Some(r);
            }
        }
        None
    }

    /// Between instructions (no single-cycle stepping in progress): the next cycle is a
    /// fetch or a sequence-break entry.
    pub fn at_instruction_boundary(&self) -> bool {
        matches!(self.phase, Phase::Fetch | Phase::Break { .. })
    }

    /// A sequence-break entry is next (decided at the end of the last cycle).
    pub fn break_entry_next(&self) -> bool {
        matches!(self.phase, Phase::Break { .. })
    }
}
