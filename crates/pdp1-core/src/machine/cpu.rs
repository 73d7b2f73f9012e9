//! The PDP-1C central processor on the `Machine`: an instruction's operations applied to the
//! registers and memory (`mem_op`, `execute`: the skip, shift, law, operate and IOT groups),
//! with what only the machine keeps — the key-wait books, the flags' sound stream, the IOT
//! dispatch. The operations themselves are `exec.rs`'s pure functions, which the run loop
//! (`fast.rs`) calls too (issue 25); how an instruction passes through its cycles — fetch,
//! indirect chain, `xct`, `jmp`/`jsp`, `cal`/`jda` — is `cycle.rs`'s: [`Machine::step`] is
//! that single-cycle machine run to the next fetch (issue 18). The instruction formats, the
//! addressing rules and Type 10 timing are documented in `exec.rs`.
//!
//! # Time
//!
//! Each memory cycle is charged where it occurs: the fetch, each defer cycle, the execute
//! cycle. So jmp/jsp/skip/shift/law/operate take 5 µs, other memory reference 10 µs, +5 µs per
//! indirect level, `xct` 5 µs plus its target (whose fetch is the xct's second cycle) — the
//! handbook table ([HB], pdp1-hardware.md §3.1). Type 10 `mul`/`div`'s extra time is added to
//! `time_ns` only; `cycles()` counts the two cycles.
//!
//! # Deliberate differences from SIMH 3.8
//!
//! * Opcodes 05, 06, 17, 36 and shift sub-codes 00, 04, 10, 14 stop with
//!   [`StopReason::UndefinedInstruction`]; SIMH stops on them only with `STOP_INST` set (its
//!   default is to ignore them), so the differential test sets `d stop_inst 1`.
//! * `jmp i 1` restores OV/EXD and ends a break only in sequence-break mode ([aap]); SIMH does
//!   it whenever any break flip-flop is set.
//! * Type 10 divide overflow with AC = −0 leaves +0 ([aap]); SIMH leaves −0.
//! * `cal` in extend mode goes to 100 of field 0 ([aap]); SIMH's to 100 of the current field
//!   (the differential test generates `jda 100` for it in extend mode).

use super::exec::{self, Flow, FLAG_MASK};
use super::{decr, incr};
use super::{Machine, StopReason, IBIT};
use crate::word::Word;

impl Machine {
    /// One machine step: a sequence-break entry, or the fetch and execution of one instruction
    /// (or one re-execution of a waiting IOT). Returns a stop reason when the machine must stop.
    /// It is the single-cycle machine (`cycle.rs`) run to the next fetch, so the run loop's
    /// slow path, SINGLE INST and SINGLE STEP take one path through an instruction (issue 18).
    /// Device events are serviced after each cycle, as SINGLE STEP does: a completion pulse
    /// that arrives inside an instruction (an IOT waiting through an `xct` chain, whose
    /// re-fetches take several cycles) is seen in the cycle it arrives.
    pub(super) fn step(&mut self) -> Option<StopReason> {
        if let Some(r) = self.cycle_serviced() {
            return Some(r);
        }
        self.finish_instruction()
    }

    #[inline(always)]
    fn skip(&mut self) {
        self.pc = incr(self.pc);
    }

    /// Execute an instruction that takes no cycle after its fetch — skip, shift, `law`, IOT,
    /// operate, an undefined opcode: what `cycle.rs` hands over once the fetch has shown there
    /// is nothing more to address.
    /// (Memory-reference instructions, `xct`, `jmp`/`jsp` and `cal`/`jda` go through
    /// `cycle.rs`'s phases, one path for single cycles, single instructions and the run loop's
    /// slow path.)
    pub(super) fn execute(&mut self, ir: u32, pc0: u32) -> Option<StopReason> {
        let op = ir >> 13;
        self.ir = op;
        match op {
            0o32 => self.skip_group(ir),
            0o33 => {
                if !self.shift_group(ir) {
                    return Some(StopReason::UndefinedInstruction {
                        pc: pc0,
                        word: Word::new(ir),
                    });
                }
            }
            0o34 => {
                self.ac = exec::law(ir, ir & IBIT != 0);
            }
            0o35 => {
                // In-out transfer: may re-execute (I/O wait), which is not a completed
                // instruction.
                match self.iot(ir, pc0) {
                    super::io::IotResult::Done => {}
                    super::io::IotResult::Again => return None,
                    super::io::IotResult::Stop(r) => return Some(r),
                }
            }
            0o37 => {
                if self.operate(ir) {
                    self.instructions += 1;
                    return Some(StopReason::Halted);
                }
            }
            _ => {
                return Some(StopReason::UndefinedInstruction {
                    pc: pc0,
                    word: Word::new(ir),
                });
            }
        }
        self.instructions += 1;
        None
    }

    /// The address `cal`/`jda` in `ir` stores at ([`exec::cal_address`]).
    #[inline(always)]
    pub(super) fn cal_address(&self, ir: u32) -> u32 {
        exec::cal_address(ir, self.pc, self.extend)
    }

    /// The execute cycle of a memory-reference instruction whose effective address `a` is
    /// known (opcodes 01–03, 07, 10–16, 20–27; [`exec::mem_ref`]). Charges the cycle (and
    /// Type 10 extra time). MB ends as the word read, or the word stored.
    #[inline(always)]
    pub(super) fn mem_op(&mut self, op: u32, a: u32) {
        self.cycle();
        self.ma = a;
        let m = self.rd(a);
        let r = exec::mem_ref(
            op,
            a,
            m,
            self.ac,
            self.io,
            self.epc_word(),
            self.config.mul_div,
        );
        (self.ac, self.io) = (r.ac, r.io);
        self.ov |= r.overflow;
        self.extra_ns += r.extra_ns;
        self.mb = m;
        if let Some(v) = r.store {
            self.mb = v;
            self.wr(a, v);
        }
        match r.flow {
            Flow::Next => {}
            Flow::Skip => self.skip(),
            Flow::Jump(t) => self.pc = t,
        }
    }

    /// Skip group: OR of the selected conditions, inverted by bit 5; szo then clears OV.
    fn skip_group(&mut self, ir: u32) {
        if exec::tests_pf1(ir) && self.pf & 0o40 == 0 {
            // szf testing PF1 while it is clear: the program is polling for a key.
            self.key_poll();
        }
        let skip;
        (skip, self.ov) = exec::skip_group(ir, self.ac, self.io, self.ov, self.ss, self.pf);
        if skip {
            self.skip();
        }
    }

    /// Shift/rotate group; returns false for an undefined sub-code.
    fn shift_group(&mut self, ir: u32) -> bool {
        match exec::shift(ir, self.ac, self.io) {
            Some((ac, io)) => {
                self.ac = ac;
                self.io = io;
                true
            }
            None => false,
        }
    }

    /// Operate group; returns true for `hlt`.
    fn operate(&mut self, ir: u32) -> bool {
        (self.ac, self.io, self.pf) =
            exec::operate(ir, self.ac, self.io, self.pf, self.tw, self.epc_word());
        if ir & 7 != 0 {
            // stf/clf: the flags' sound stream (`machine/io/flags.rs`).
            self.dev.flags.note(self.now(), self.pf);
            if FLAG_MASK[(ir & 7) as usize] & 0o40 != 0 {
                // The program sets or clears flag 1 itself: not a wait for a key
                // (`Typewriter::flag_written`).
                self.dev.tty.flag_written();
            }
        }
        if self.config.lai_lia {
            (self.ac, self.io) = exec::lai_lia(ir, self.ac, self.io);
        }
        ir & 0o400 != 0
    }

    /// Undo the PC advance of the current instruction (used by the I/O wait).
    #[inline]
    pub(super) fn back_up_pc(&mut self) {
        self.pc = decr(self.pc);
    }
}
