//! SINGLE STEP: the machine advanced one 5 µs memory cycle at a time.
//!
//! This is the one path of an instruction through its cycles — fetch, each defer, execute —
//! keeping the position in [`Phase`]: SINGLE STEP stops after each cycle, SINGLE INST and the
//! run loop's slow path (`Machine::step`) run it to the next fetch, servicing devices after
//! each cycle. The operations themselves are `cpu.rs`'s (`mem_op`, `execute`). The fast run
//! loop (`fast.rs`) has its own copy for speed; tests hold the two equal, IOTs and breaks
//! included.
//!
//! Cycle structure ([aap] cycle 0 / defer / cycle 1; pdp1-hardware.md §3.1):
//! * fetch: reads the instruction. jmp/jsp direct, skip, shift, law, IOT and operate finish
//!   here; an IOT waiting for its completion pulse is fetched again each cycle.
//! * defer: one per indirect word (one at most in extend mode); jmp/jsp finish in their last.
//! * execute: the operand cycle of the other memory-reference instructions (with Type 10
//!   `mul`/`div` taking their extra time in it). For `xct` it is the target's fetch, after which
//!   the target continues as above.
//!
//! Simplifications: a sequence-break entry (three cycles) and the `jmp i 1` that ends a break
//! (fetch + one defer) are each taken as one step.

use super::{incr, Machine, StopReason, AMASK, DAMASK, FIELD, IBIT};
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
    /// The rest of `ir` (a debreak) runs as one step.
    Rest { ir: u32, pc0: u32 },
}

impl Machine {
    /// Perform one memory cycle. Returns a stop reason if the machine must stop.
    pub(super) fn cycle_step(&mut self) -> Option<StopReason> {
        match self.phase {
            Phase::Fetch => {
                if self.sb_req && self.sbm && !self.sb_ip {
                    self.break_entry();
                    return None;
                }
                let pc0 = self.pc;
                let ir = self.rd(pc0);
                self.ma = pc0;
                self.mb = ir;
                self.pc = incr(pc0);
                self.cycle();
                self.decode(ir, pc0, 0)
            }
            Phase::Defer {
                ir,
                pc0,
                ma,
                n,
                xct,
            } => {
                if n >= self.config.indirect_limit {
                    self.phase = Phase::Fetch;
                    return Some(StopReason::IndirectLimit { pc: pc0 });
                }
                self.cycle();
                let w = self.rd(ma);
                self.ma = ma;
                self.mb = w;
                self.phase = Phase::Fetch;
                if self.extend {
                    return self.addressed(ir, pc0, w & AMASK, xct);
                }
                let next = (self.pc & FIELD) | (w & DAMASK);
                if w & IBIT != 0 {
                    self.phase = Phase::Defer {
                        ir,
                        pc0,
                        ma: next,
                        n: n + 1,
                        xct,
                    };
                    return None;
                }
                self.addressed(ir, pc0, next, xct)
            }
            Phase::Execute { ir, pc0, ma, xct } => {
                self.phase = Phase::Fetch;
                self.ma = ma;
                let op = ir >> 13;
                if op == 0o04 {
                    // xct's second cycle fetches the target, which then proceeds on its own.
                    self.cycle();
                    let t = self.rd(ma);
                    self.mb = t;
                    return self.decode(t, pc0, xct + 1);
                }
                self.mem_op(op, ma);
                self.instructions += 1;
                None
            }
            Phase::Rest { ir, pc0 } => {
                self.phase = Phase::Fetch;
                self.execute(ir, pc0)
            }
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
                if op == 0o04 && xct >= self.config.xct_limit {
                    return Some(StopReason::XctLimit { pc: pc0 });
                }
                if op == 0o30 && self.is_debreak(ir) {
                    self.phase = Phase::Rest { ir, pc0 };
                    return None;
                }
                let a = (self.pc & FIELD) | (ir & DAMASK);
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
            0o30 => {
                self.pc = a;
                self.instructions += 1;
            }
            0o31 => {
                self.ac = self.epc_word();
                self.pc = a;
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

    /// Run the cycles left of the instruction in progress, to the next fetch.
    pub(super) fn finish_instruction(&mut self) -> Option<StopReason> {
        while self.phase != Phase::Fetch {
            if let Some(r) = self.cycle_serviced() {
                return Some(r);
            }
        }
        None
    }

    /// Between instructions (no single-cycle stepping in progress).
    pub fn at_instruction_boundary(&self) -> bool {
        self.phase == Phase::Fetch
    }
}
