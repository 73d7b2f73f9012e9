//! The PDP-1C central processor: what every instruction does (`mem_op`, the skip, shift,
//! operate and IOT groups, Type 10 multiply/divide). How an instruction passes through its
//! cycles — fetch, indirect chain, `xct`, `jmp`/`jsp`, `cal`/`jda` — is `cycle.rs`'s alone:
//! [`Machine::step`] is that single-cycle machine run to the next fetch (issue 18), and the
//! fast run loop (`fast.rs`) is the one other copy, held equal to it by the tests.
//!
//! Bit numbering is DEC's: bit 0 is the sign (`400000`), bit 17 the units bit.
//!
//! ```text
//! Memory reference                         (pdp1-hardware.md §2.1–2.2, [SIMH-cpu] header)
//!    0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17
//!  +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
//!  |     opcode   | i|            address Y              |
//!  +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
//!   01 and  02 ior  03 xor  04 xct  07 cal (i=0) / jda (i=1)
//!   10 lac  11 lio  12 dac  13 dap  14 dip  15 dio  16 dzm
//!   20 add  21 sub  22 idx  23 isp  24 sad  25 sas  26 mul/mus  27 div/dis
//!   30 jmp  31 jsp                     undefined on a PDP-1C: 00 05 06 17 36
//!
//! Skip (opcode 32)                         (§2.3)
//!  |1  1  0  1  0| i|  |spi|szo|sma|spa|sza| szs n  | szf n  |
//!   conditions are ORed, then i inverts; szo clears OV afterwards.
//!
//! Shift / rotate (opcode 33)               (§2.4)
//!  |1  1  0  1  1| dir|shift| reg |    count: number of 1 bits in 9–17    |
//!   dir 0 left / 1 right; shift 1 / rotate 0; reg 01 AC, 10 IO, 11 AC:IO
//!
//! law (opcode 34)                          (§2.5)
//!  |1  1  1  0  0| s|            N (12 bits)                |   AC ← N, or ~N if s
//!
//! Operate (opcode 37)                      (§2.6)
//!  |1  1  1  1  1|  |cli|lat|cma|hlt|cla|lap|  |  |s/c| flag  |
//!   order: cli, cla; OR TW, OR PC; cma; set/clear flag; hlt.
//! ```
//!
//! # Addressing
//!
//! A direct address is in the current field (PC bits 2–5). Without extend mode indirect
//! addressing is multi-level within the current field; in extend mode it is single-level and
//! the indirect word supplies a full 16-bit address ([SIMH-cpu] `Ea`, [aap] `mb_to_ma`).
//!
//! # Time
//!
//! Each memory cycle is charged where it occurs: the fetch, each defer cycle, the execute
//! cycle. So jmp/jsp/skip/shift/law/operate take 5 µs, other memory reference 10 µs, +5 µs per
//! indirect level, `xct` 5 µs plus its target (whose fetch is the xct's second cycle) — the
//! handbook table ([HB], pdp1-hardware.md §3.1).
//!
//! Type 10 `mul`/`div` take longer than two cycles; their extra time is data dependent. We use
//! aap's gate-level model ([aap] `multiply()`/`divide()`, which steps through the option's
//! MDP-1…MDP-14 flow chart with its pulse delays) because it is the only source derived from
//! the logic rather than quoted as a range, and it lands inside the handbook's bounds ("mul
//! 25 µs max, average 20", "div 40 µs max"):
//!
//! * `mul`: 12.35 µs + 0.70 µs per 1 bit among the low 16 bits of |AC| (12.35 … 23.55 µs);
//! * `div`: 26.6 µs + 0.5 µs per zero bit among the 18 quotient bits the hardware develops
//!   (26.6 … 35.6 µs); divide overflow 11.3 µs.
//!
//! Divide overflow leaves the registers as they were, except that AC = −0 (which overflows
//! only against a divisor of ±0) comes out +0, as in aap's model of the MDP flow chart; SIMH
//! leaves −0 (the SIMH differential test allows for exactly this, see docs/testing.md).
//!
//! The extra time beyond the two memory cycles is added to `time_ns` only; `cycles()` counts
//! the two cycles.
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

use super::{decr, incr};
use super::{Machine, StopReason, DAMASK, FIELD, IBIT, MASK, SIGN};
use crate::arith;
use crate::word::Word;

/// Skip/flag selector n → mask: 1…6 one flag (PF1 = 040), 7 all six, 0 none.
const FLAG_MASK: [u8; 8] = [0, 0o40, 0o20, 0o10, 0o04, 0o02, 0o01, 0o77];

/// Magnitude of a one's-complement word.
#[inline]
const fn mag(x: u32) -> u32 {
    if x & SIGN != 0 {
        x ^ MASK
    } else {
        x
    }
}

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

    /// Operand read for the execute cycle (charges the cycle).
    #[inline(always)]
    fn operand(&mut self, ma: u32) -> u32 {
        self.cycle();
        self.ma = ma;
        let w = self.rd(ma);
        self.mb = w;
        w
    }

    /// Store in the execute cycle (charges the cycle).
    #[inline(always)]
    fn store(&mut self, ma: u32, v: u32) {
        self.cycle();
        self.ma = ma;
        self.mb = v;
        self.wr(ma, v);
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
    /// slow path; `fast.rs` is the run loop's own copy, kept equal by the tests.)
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
                self.ac = (ir & DAMASK) ^ if ir & IBIT != 0 { MASK } else { 0 };
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

    /// jda (i = 1) uses Y in the current field; cal (i = 0) location 100 — of the current
    /// field, or in extend mode of field 0. Never indirect.
    ///
    /// The handbook says only "cal Y … Equals jda 100" ([HB] table via [MAME-cpu]). aap's
    /// pulse-level model (cycle 1, TP0) puts 100 in MA and the current field in the
    /// extension only outside extend mode: "`MA |= 0100; if(!pdp->exd) pdp->ema |=
    /// pdp->epc;`" — so in extend mode `cal` goes to 100 of field 0, where one handler serves
    /// every field and returns through the 16-bit word `cal` left in AC. SIMH and MAME use
    /// the current field always (MAME: "I cannot tell for sure what happens to extension
    /// bits"). We follow aap (issue 16).
    #[inline(always)]
    pub(super) fn cal_address(&self, ir: u32) -> u32 {
        if ir & IBIT != 0 {
            (self.pc & FIELD) | (ir & DAMASK)
        } else if self.extend {
            0o100
        } else {
            (self.pc & FIELD) | 0o100
        }
    }

    /// The execute cycle of a memory-reference instruction whose effective address `a` is
    /// known (opcodes 01–03, 07, 10–16, 20–27). Charges the cycle (and Type 10 extra time).
    #[inline(always)]
    pub(super) fn mem_op(&mut self, op: u32, a: u32) {
        match op {
            0o01 => self.ac &= self.operand(a),
            0o02 => self.ac |= self.operand(a),
            0o03 => self.ac ^= self.operand(a),
            0o07 => {
                self.ma = a;
                let ac = self.ac;
                self.ac = self.epc_word();
                self.pc = incr(a);
                self.store(a, ac);
            }
            0o10 => self.ac = self.operand(a),
            0o11 => self.io = self.operand(a),
            0o12 => self.store(a, self.ac),
            0o13 => {
                let m = self.rd(a);
                self.store(a, (m & !DAMASK) | (self.ac & DAMASK));
            }
            0o14 => {
                let m = self.rd(a);
                self.store(a, (self.ac & !DAMASK & MASK) | (m & DAMASK));
            }
            0o15 => self.store(a, self.io),
            0o16 => self.store(a, 0),
            0o20 => {
                let m = self.operand(a);
                let (r, ov) = arith::add(Word::new(self.ac), Word::new(m));
                self.ac = r.bits();
                self.ov |= ov;
            }
            0o21 => {
                let m = self.operand(a);
                let (r, ov) = arith::sub(Word::new(self.ac), Word::new(m));
                self.ac = r.bits();
                self.ov |= ov;
            }
            0o22 | 0o23 => {
                let r = arith::inc(Word::new(self.rd(a))).bits();
                self.ac = r;
                self.store(a, r);
                if op == 0o23 && r & SIGN == 0 {
                    self.skip();
                }
            }
            0o24 => {
                let m = self.operand(a);
                if self.ac != m {
                    self.skip();
                }
            }
            0o25 => {
                let m = self.operand(a);
                if self.ac == m {
                    self.skip();
                }
            }
            0o26 => {
                let m = self.operand(a);
                if self.config.mul_div {
                    self.multiply(m);
                } else {
                    self.multiply_step(m);
                }
            }
            0o27 => {
                let m = self.operand(a);
                if self.config.mul_div {
                    self.divide(m);
                } else {
                    self.divide_step(m);
                }
            }
            _ => {}
        }
    }

    /// Skip group: OR of the selected conditions, inverted by bit 5; szo then clears OV.
    fn skip_group(&mut self, ir: u32) {
        if tests_pf1(ir) && self.pf & 0o40 == 0 {
            // szf testing PF1 while it is clear: the program is polling for a key.
            self.key_poll();
        }
        if skips(ir, self.ac, self.io, self.ov, self.ss, self.pf) {
            self.skip();
        }
        if ir & 0o1000 != 0 {
            self.ov = false;
        }
    }

    /// Shift/rotate group; returns false for an undefined sub-code.
    fn shift_group(&mut self, ir: u32) -> bool {
        match shift(ir, self.ac, self.io) {
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
            operate(ir, self.ac, self.io, self.pf, self.tw, self.epc_word());
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
            (self.ac, self.io) = lai_lia(ir, self.ac, self.io);
        }
        ir & 0o400 != 0
    }

    fn multiply_step(&mut self, m: u32) {
        (self.ac, self.io) = mus(self.ac, self.io, m);
    }

    fn divide_step(&mut self, m: u32) {
        (self.ac, self.io) = dis(self.ac, self.io, m);
    }

    fn multiply(&mut self, m: u32) {
        let (ac, io, t) = mul(self.ac, m);
        (self.ac, self.io) = (ac, io);
        self.extra_ns += t;
    }

    fn divide(&mut self, m: u32) {
        let (ac, io, skip, t) = div(self.ac, self.io, m);
        (self.ac, self.io) = (ac, io);
        self.extra_ns += t;
        if skip {
            self.skip();
        }
    }

    /// Undo the PC advance of the current instruction (used by the I/O wait).
    #[inline]
    pub(super) fn back_up_pc(&mut self) {
        self.pc = decr(self.pc);
    }
}

// ---- The instruction groups as pure functions of the registers, shared by the
// ---- instruction-at-a-time path above and the run loop in `fast.rs`.

/// Skip group condition: the OR of the selected conditions, inverted by bit 5 (true = skip).
/// (Does not include szo's clearing of OV or the key-poll bookkeeping.)
#[inline(always)]
pub(super) fn skips(ir: u32, ac: u32, io: u32, ov: bool, ss: u8, pf: u8) -> bool {
    let cond = skip_regs(ir, ac, io, ov) || (ir & 0o77 != 0 && skip_switches_flags(ir, ss, pf));
    cond != (ir & IBIT != 0)
}

/// The skip group's register conditions (spi szo sma spa sza), ORed, before i inverts.
#[inline(always)]
pub(super) fn skip_regs(ir: u32, ac: u32, io: u32, ov: bool) -> bool {
    // The conditions as the bits that select them (spi 2000, szo 1000), so that selecting
    // and ORing them is one AND, with no branches.
    let state = ((!io >> 7) & 0o2000) | (u32::from(!ov) << 9);
    ir & state != 0 || skip_ac(ir, ac)
}

/// The skip group's AC conditions alone (sma spa sza), ORed.
#[inline(always)]
pub(super) fn skip_ac(ir: u32, ac: u32) -> bool {
    // As the bits that select them: sma 400 if AC is negative, else spa 200; sza 100.
    let state = ((((ac >> 17) & 1) + 1) << 7) | (u32::from(ac == 0) << 6);
    ir & state != 0
}

/// The skip group's sense-switch and program-flag conditions (szs, szf), ORed.
#[inline(always)]
pub(super) fn skip_switches_flags(ir: u32, ss: u8, pf: u8) -> bool {
    let sw = FLAG_MASK[((ir >> 3) & 7) as usize];
    let fl = FLAG_MASK[(ir & 7) as usize];
    (sw != 0 && ss & sw == 0) || (fl != 0 && pf & fl == 0)
}

/// `szf` with a flag selector that includes PF1 (1 or 7).
#[inline(always)]
pub(super) fn tests_pf1(ir: u32) -> bool {
    // FLAG_MASK[n] includes PF1 (040) for n = 1 and 7 only.
    matches!(ir & 7, 1 | 7)
}

/// Shift count: the number of 1 bits in the 9-bit count field, by table, since without
/// `popcnt` (not in the x86-64 baseline) `count_ones` is a dozen instructions in the hot loop.
pub(super) const SHIFT_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The shift count of a shift instruction.
#[inline(always)]
pub(super) fn shift_count(ir: u32) -> u32 {
    u32::from(SHIFT_COUNT[(ir & 0o777) as usize])
}

/// Shift/rotate group: new (AC, IO), or `None` for an undefined sub-code.
#[inline(always)]
pub(super) fn shift(ir: u32, ac: u32, io: u32) -> Option<(u32, u32)> {
    let sub = (ir >> 9) & 0o17;
    if sub & 3 == 0 {
        return None; // sub-codes 00, 04, 10, 14
    }
    Some(shift_by(sub, shift_count(ir), ac, io))
}

/// Shift sub-code `sub` (bits 5–8: dir, shift, reg; not 00/04/10/14) by `n` ≤ 9 places.
/// The run loop calls it with a constant `sub` per dispatch arm, so the match folds away.
#[inline(always)]
pub(super) fn shift_by(sub: u32, n: u32, ac: u32, io: u32) -> (u32, u32) {
    // Closed forms of n one-bit steps, written so that every variable shift is by n (≤ 9)
    // and every other shift by a constant: on x86 a variable shift takes its count in CL, so
    // a second count (18 − n) costs a subtraction and register shuffling per shift. The bits
    // that cross between words or wrap round come from shifting by n and then moving the
    // result 18 places: `(x << n) >> 18` is x's top n bits at the bottom, and
    // `((x << 18) >> n) & MASK` is x's bottom n bits at the top (in u32 `x << 18` keeps x's
    // low 14 bits, and n ≤ 9). For a sign word s (all ones or zero), `(s << n) >> 18` is n
    // copies of the sign at the bottom and `s ^ (s >> n)` n copies at the top.
    let top = |x: u32| ((x << 18) >> n) & MASK;
    let out = |x: u32| (x << n) >> 18;
    let sign = |x: u32| if x & SIGN != 0 { MASK } else { 0 };
    let rotl = |x: u32| ((x << n) & MASK) | out(x);
    let rotr = |x: u32| (x >> n) | top(x);
    let sal = |x: u32| (x & SIGN) | ((x << n) & 0o377_777) | out(sign(x));
    let sar = |x: u32| (x >> n) | (sign(x) ^ (sign(x) >> n));
    match sub {
        0o01 => (rotl(ac), io),
        0o02 => (ac, rotl(io)),
        0o03 => (((ac << n) & MASK) | out(io), ((io << n) & MASK) | out(ac)),
        0o05 => (sal(ac), io),
        0o06 => (ac, sal(io)),
        0o07 => (
            (ac & SIGN) | ((ac << n) & 0o377_777) | out(io),
            ((io << n) & MASK) | out(sign(ac)),
        ),
        0o11 => (rotr(ac), io),
        0o12 => (ac, rotr(io)),
        0o13 => ((ac >> n) | top(io), (io >> n) | top(ac)),
        0o15 => (sar(ac), io),
        0o16 => (ac, sar(io)),
        0o17 => (sar(ac), (io >> n) | top(ac)),
        // Undefined sub-codes: `shift` returns None for them before calling this.
        _ => (ac, io),
    }
}

/// Operate group in micro-operation order (cli, cla; OR TW, OR PC; cma; set/clear flag):
/// new (AC, IO, PF). `epc` is the OV/EXD/PC word `lap` ORs in. `hlt` is the caller's.
#[inline(always)]
pub(super) fn operate(ir: u32, ac: u32, io: u32, pf: u8, tw: u32, epc: u32) -> (u32, u32, u8) {
    let io = if ir & 0o4000 != 0 { 0 } else { io };
    let mut ac = if ir & 0o0200 != 0 { 0 } else { ac };
    if ir & 0o2000 != 0 {
        ac |= tw;
    }
    if ir & 0o0100 != 0 {
        ac |= epc;
    }
    if ir & 0o1000 != 0 {
        ac ^= MASK;
    }
    // (Flag 0 selects no flag; most operate instructions leave the flags alone.)
    let mut pf = pf;
    if ir & 7 != 0 {
        let f = FLAG_MASK[(ir & 7) as usize];
        pf = if ir & 0o10 != 0 { pf | f } else { pf & !f };
    }
    (ac, io, pf)
}

/// The PDP-1D operate bits after the others: `lia` (000020) IO ← AC, `lai` (000040) AC ← IO,
/// both at once (`swp`, 760060) an exchange ([SIMH-cpu] case 037, [aap] `LAILIA`; see
/// `MachineConfig::lai_lia`).
#[inline]
pub(super) fn lai_lia(ir: u32, ac: u32, io: u32) -> (u32, u32) {
    (
        if ir & 0o40 != 0 { io } else { ac },
        if ir & 0o20 != 0 { ac } else { io },
    )
}

/// `mus` (multiply step, no Type 10): if IO bit 17, AC ← AC + M (end-around carry, no −0
/// clean-up); then AC:IO shifts right one place, AC bit 0 ← 0. [SIMH-cpu], [aap].
#[inline]
pub(super) fn mus(ac: u32, io: u32, m: u32) -> (u32, u32) {
    let ac = if io & 1 != 0 {
        arith::add_end_around(ac, m)
    } else {
        ac
    };
    (ac >> 1, (io >> 1) | ((ac & 1) << 17))
}

/// `dis` (divide step, no Type 10): rotate AC:IO left with the complement of the old AC
/// sign entering IO bit 17; then AC ← AC + ~M if IO bit 17 else AC + M + 1, end-around
/// carry, −0 → +0. [SIMH-cpu], [aap].
///
/// AC + M + 1 is two one's-complement additions: the logic counts AC up at TP2 and adds M
/// at TP5–TP6 ([aap] `cycle1`: "`if(IR_DIS && !(IO & B17)) { if(AC == 0777777) AC = 1;
/// else AC++; }`", then `carry`). So the sum can carry out of bit 0 twice — only for
/// −0 + −0 + 1, which is +1 — and both carries go round. (SIMH adds the three terms at once
/// with one end-around carry and gets +0 there; found by the comparison with aap's model,
/// issue 31.)
#[inline]
pub(super) fn dis(ac0: u32, io0: u32, m: u32) -> (u32, u32) {
    let t = ac0 >> 17;
    let ac = ((ac0 << 1) | (io0 >> 17)) & MASK;
    let io = ((io0 << 1) | (t ^ 1)) & MASK;
    let r = if io & 1 != 0 {
        ac + (m ^ MASK)
    } else {
        ac + m + 1
    };
    let r = (r & MASK) + (r >> 18);
    let r = (r & MASK) + (r >> 18);
    (if r == MASK { 0 } else { r }, io)
}

/// Type 10 `mul`: |AC|·|M| as a 34-bit magnitude, left in AC:IO shifted one place left
/// (a fraction: IO bit 17 ends up a copy of the sign); both complemented if the signs
/// differ and the product is not zero. [SIMH-cpu] case 026, [aap] `multiply`.
/// Returns (AC, IO, extra ns beyond the two memory cycles).
#[inline]
pub(super) fn mul(ac0: u32, m: u32) -> (u32, u32, u64) {
    let a = mag(ac0);
    let p = ((a as u64) * (mag(m) as u64)) << 1;
    let (mut ac, mut io) = ((p >> 18) as u32 & MASK, p as u32 & MASK);
    if (ac0 ^ m) & SIGN != 0 && (ac | io) != 0 {
        ac ^= MASK;
        io ^= MASK;
    }
    (
        ac,
        io,
        2_350 + 700 * u64::from((a & 0o177_777).count_ones()),
    )
}

/// Type 10 `div`: dividend AC:IO (sign, then 34 magnitude bits: AC bits 1–17, IO bits
/// 0–16), divisor M. |AC| ≥ |M| is overflow: no skip, and nothing changes except that an AC of
/// −0 (divided by ±0) becomes +0 — the hardware makes the dividend positive first and
/// complements AC back only when it is not zero ([aap] `divide` MDP-10; SIMH keeps −0).
/// Otherwise AC ← quotient (sign of AC ⊕ M, +0 when zero), IO ← remainder (sign of the
/// dividend, +0 when zero), and the next instruction is skipped. [SIMH-cpu] case 027.
/// Returns (AC, IO, skip, extra ns beyond the two memory cycles).
#[inline]
pub(super) fn div(ac: u32, io: u32, m: u32) -> (u32, u32, bool, u64) {
    let v = mag(m);
    if mag(ac) >= v {
        return (if ac == MASK { 0 } else { ac }, io, false, 1_300);
    }
    let neg = ac & SIGN != 0;
    let (hi, lo) = if neg {
        (ac ^ MASK, io ^ MASK)
    } else {
        (ac, io)
    };
    let d = ((hi as u64) << 17) | (lo as u64 >> 1);
    let q = (d / v as u64) as u32;
    let r = (d % v as u64) as u32;
    let qa = if (ac ^ m) & SIGN != 0 && q != 0 {
        q ^ MASK
    } else {
        q
    };
    let ra = if neg && r != 0 { r ^ MASK } else { r };
    (qa, ra, true, 16_600 + 500 * u64::from(18 - q.count_ones()))
}
