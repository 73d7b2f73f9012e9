//! What each instruction does, as pure functions of the registers and the memory word: the one
//! execution semantics (issue 25). Both paths through an instruction call them — the
//! single-cycle machine (`cycle.rs`, through `cpu.rs`'s `Machine::mem_op` and
//! `Machine::execute`) and the run loop (`fast.rs`), which keeps the registers in locals — so
//! they take and return plain values, never the `Machine`, and are `#[inline(always)]`: called
//! with a constant opcode, as the run loop's dispatch arms call them, their `match` folds away
//! and the loop compiles as if the operation were written in the arm. What stays with the
//! callers is *when* things happen: which cycle reads or writes memory, where a break may cut
//! in (`cycle.rs`), and the cycle budget (`fast.rs`).
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
//! Indirect word (no extend mode)            (§1.1, [SIMH-cpu] `Ea`)
//!  |   (ignored)  | i|            address (12 bits)          |   i set: defer again
//!
//! Indirect word (extend mode, Type 15)      (§1.1, [aap] `mb_to_ma`)
//!  |  (ignored) |         address (16 bits: field, Y)         |   one level only
//!
//! Return-address word (jsp, jda, cal, lap, break)   (§2.2, [SIMH-cpu] `EPC_WORD`)
//!  |OV|EX|           PC (16 bits: field, address)            |
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
//! `cal`/`jda` are never indirect: bit 5 selects `jda` ([`cal_address`]).
//!
//! # `xct`
//!
//! `xct Y`'s second cycle fetches the word at Y, which then proceeds as an instruction fetched
//! there would, except that PC stays at xct+1: a skip or `jda` it executes acts relative to the
//! `xct` ([HB]; SIMH, aap and MAME agree, pdp1-hardware.md §2.2). A chain of `xct`s and an
//! indirect chain are the two loops a program can build inside one instruction; both end at a
//! configured limit ([`xct_limit_reached`], [`indirect_limit_reached`]).
//!
//! # Type 10 multiply/divide
//!
//! `mul`/`div` take longer than two cycles; their extra time is data dependent. We use aap's
//! gate-level model ([aap] `multiply()`/`divide()`, which steps through the option's
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
//! The extra time beyond the two memory cycles is returned as nanoseconds
//! ([`MemRef::extra_ns`]); `cycles()` counts the two cycles.

use super::{incr, AMASK, DAMASK, FIELD, IBIT, MASK, SIGN};
use crate::arith;
use crate::word::Word;

/// Skip/flag selector n → mask: 1…6 one flag (PF1 = 040), 7 all six, 0 none.
pub(super) const FLAG_MASK: [u8; 8] = [0, 0o40, 0o20, 0o10, 0o04, 0o02, 0o01, 0o77];

/// Magnitude of a one's-complement word.
#[inline]
const fn mag(x: u32) -> u32 {
    if x & SIGN != 0 {
        x ^ MASK
    } else {
        x
    }
}

// ---- Addressing, xct, jumps.

/// The opcode `xct` (04).
#[inline(always)]
pub(super) fn is_xct(ir: u32) -> bool {
    (ir >> 13) & 0o37 == 0o04
}

/// The direct address of `ir`: Y in the current field `field` (PC bits 2–5).
#[inline(always)]
pub(super) fn address(ir: u32, field: u32) -> u32 {
    field | (ir & DAMASK)
}

/// Where a defer cycle leads, from the indirect word it read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Defer {
    /// The effective address: the chain ends.
    Last(u32),
    /// The next indirect word's address: another defer cycle.
    More(u32),
}

/// One defer cycle's addressing, from the indirect word `w` it read, in the current field
/// `field`: without extend mode Y in the field, and another defer if `w`'s i bit is set; in
/// extend mode the word's 16-bit address, and the chain ends ([SIMH-cpu] `Ea`, [aap]
/// `mb_to_ma`).
#[inline(always)]
pub(super) fn defer(w: u32, field: u32, extend: bool) -> Defer {
    if extend {
        Defer::Last(w & AMASK)
    } else if w & IBIT != 0 {
        Defer::More(address(w, field))
    } else {
        Defer::Last(address(w, field))
    }
}

/// `n` indirect words have been read: the next defer cycle is over the limit (a machine stop,
/// [`super::StopReason::IndirectLimit`], for a chain that never ends).
#[inline(always)]
pub(super) fn indirect_limit_reached(n: u32, limit: u32) -> bool {
    n >= limit
}

/// An `xct` reached through `depth` others is over the limit (SIMH's `XCT_MAX` stop,
/// [`super::StopReason::XctLimit`]).
#[inline(always)]
pub(super) fn xct_limit_reached(depth: u32, limit: u32) -> bool {
    depth >= limit
}

/// The return-address word of jsp, jda, cal, lap and the break: OV, EXD, the 16-bit PC of the
/// next instruction ([SIMH-cpu] `EPC_WORD`, [aap] `pc_to_ac`).
#[inline(always)]
pub(super) fn epc(ov: bool, extend: bool, pc: u32) -> u32 {
    (u32::from(ov) << 17) | (u32::from(extend) << 16) | pc
}

/// `jmp` (30) and `jsp` (31) to the effective address `a`: the new (PC, AC); `jsp` leaves the
/// return-address word `epc` in AC and writes no memory (§2.2).
#[inline(always)]
pub(super) fn jump(op: u32, a: u32, ac: u32, epc: u32) -> (u32, u32) {
    if op == 0o31 {
        (a, epc)
    } else {
        (a, ac)
    }
}

/// The address `cal`/`jda` (07) store at, from the instruction and the PC: jda (i = 1) uses Y
/// in the current field; cal (i = 0) location 100 — of the current field, or in extend mode
/// of field 0. Never indirect.
///
/// The handbook says only "cal Y … Equals jda 100" ([HB] table via [MAME-cpu]). aap's
/// pulse-level model (cycle 1, TP0) puts 100 in MA and the current field in the extension
/// only outside extend mode: "`MA |= 0100; if(!pdp->exd) pdp->ema |= pdp->epc;`" — so in
/// extend mode `cal` goes to 100 of field 0, where one handler serves every field and returns
/// through the 16-bit word `cal` left in AC. SIMH and MAME use the current field always
/// (MAME: "I cannot tell for sure what happens to extension bits"). We follow aap (issue 16).
#[inline(always)]
pub(super) fn cal_address(ir: u32, pc: u32, extend: bool) -> u32 {
    if ir & IBIT != 0 {
        address(ir, pc & FIELD)
    } else if extend {
        0o100
    } else {
        (pc & FIELD) | 0o100
    }
}

// ---- The memory-reference group's execute cycle.

/// What happens to PC after an instruction, beyond stepping past it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    /// PC steps to the next instruction (it already has, after the fetch).
    Next,
    /// The next instruction is skipped.
    Skip,
    /// PC ← this address.
    Jump(u32),
}

/// [`Flow::Skip`] if `c`, else [`Flow::Next`].
#[inline(always)]
fn skip_if(c: bool) -> Flow {
    if c {
        Flow::Skip
    } else {
        Flow::Next
    }
}

/// The outcome of a memory-reference instruction's execute cycle ([`mem_ref`]).
#[derive(Clone, Copy)]
pub(super) struct MemRef {
    pub(super) ac: u32,
    pub(super) io: u32,
    /// The instruction overflowed (`add`, `sub`): OV is set. Nothing here clears OV.
    pub(super) overflow: bool,
    /// The word written at the effective address in this cycle, if any.
    pub(super) store: Option<u32>,
    pub(super) flow: Flow,
    /// Type 10 `mul`/`div` time beyond the two memory cycles, ns (0 for everything else).
    pub(super) extra_ns: u64,
}

/// The execute cycle of the memory-reference instruction with opcode `op` (01–03, 07, 10–16,
/// 20–27; `xct`'s execute cycle is its target's fetch, the caller's) at the effective address
/// `a`, where memory holds `m`, with AC, IO and the return-address word `epc` (for
/// `cal`/`jda`). `mul_div`: the Type 10 option is present (`mul`/`div`, else `mus`/`dis`).
/// Table in pdp1-hardware.md §2.2 ([HB], [SIMH-cpu] cases 001–027).
#[inline(always)]
pub(super) fn mem_ref(
    op: u32,
    a: u32,
    m: u32,
    ac: u32,
    io: u32,
    epc: u32,
    mul_div: bool,
) -> MemRef {
    let mut r = MemRef {
        ac,
        io,
        overflow: false,
        store: None,
        flow: Flow::Next,
        extra_ns: 0,
    };
    match op {
        0o01 => r.ac = ac & m,
        0o02 => r.ac = ac | m,
        0o03 => r.ac = ac ^ m,
        // cal/jda: "dac Y + jsp Y+1" (§2.2).
        0o07 => {
            r.store = Some(ac);
            r.ac = epc;
            r.flow = Flow::Jump(incr(a));
        }
        0o10 => r.ac = m,
        0o11 => r.io = m,
        0o12 => r.store = Some(ac),
        // dap: the address part (bits 6–17); dip: the instruction part (bits 0–5).
        0o13 => r.store = Some((m & !DAMASK) | (ac & DAMASK)),
        0o14 => r.store = Some((ac & !DAMASK & MASK) | (m & DAMASK)),
        0o15 => r.store = Some(io),
        0o16 => r.store = Some(0),
        0o20 => {
            let (s, o) = arith::add(Word::new(ac), Word::new(m));
            r.ac = s.bits();
            r.overflow = o;
        }
        0o21 => {
            let (s, o) = arith::sub(Word::new(ac), Word::new(m));
            r.ac = s.bits();
            r.overflow = o;
        }
        // idx, isp: M and AC ← M + 1 (never −0); isp skips on a result ≥ 0.
        0o22 | 0o23 => {
            let s = arith::inc(Word::new(m)).bits();
            r.ac = s;
            r.store = Some(s);
            r.flow = skip_if(op == 0o23 && s & SIGN == 0);
        }
        0o24 => r.flow = skip_if(ac != m),
        0o25 => r.flow = skip_if(ac == m),
        0o26 => {
            if mul_div {
                (r.ac, r.io, r.extra_ns) = mul(ac, m);
            } else {
                (r.ac, r.io) = mus(ac, io, m);
            }
        }
        0o27 => {
            if mul_div {
                let skip;
                (r.ac, r.io, skip, r.extra_ns) = div(ac, io, m);
                r.flow = skip_if(skip);
            } else {
                (r.ac, r.io) = dis(ac, io, m);
            }
        }
        // (No other opcode has an execute cycle of this kind.)
        _ => {}
    }
    r
}

// ---- law, the skip, shift and operate groups, Type 10 multiply/divide.

/// `law N` (i = 0): AC ← N; `law i N`: AC ← −N, the complement (§2.5).
#[inline(always)]
pub(super) fn law(ir: u32, complement: bool) -> u32 {
    (ir & DAMASK) ^ if complement { MASK } else { 0 }
}

/// Skip group: whether to skip, and OV after it — szo tests OV, then clears it (§2.3).
/// (Not the key-poll bookkeeping, which is the machine's.)
#[inline(always)]
pub(super) fn skip_group(ir: u32, ac: u32, io: u32, ov: bool, ss: u8, pf: u8) -> (bool, bool) {
    (skips(ir, ac, io, ov, ss, pf), ov && ir & 0o1000 == 0)
}

/// Skip group condition: the OR of the selected conditions, inverted by bit 5 (true = skip).
/// (Does not include szo's clearing of OV or the key-poll bookkeeping.)
#[inline(always)]
fn skips(ir: u32, ac: u32, io: u32, ov: bool, ss: u8, pf: u8) -> bool {
    let cond = skip_regs(ir, ac, io, ov) || (ir & 0o77 != 0 && skip_switches_flags(ir, ss, pf));
    cond != (ir & IBIT != 0)
}

/// The skip group's register conditions (spi szo sma spa sza), ORed, before i inverts.
#[inline(always)]
fn skip_regs(ir: u32, ac: u32, io: u32, ov: bool) -> bool {
    // The conditions as the bits that select them (spi 2000, szo 1000), so that selecting
    // and ORing them is one AND, with no branches.
    let state = ((!io >> 7) & 0o2000) | (u32::from(!ov) << 9);
    ir & state != 0 || skip_ac(ir, ac)
}

/// The skip group's AC conditions alone (sma spa sza), ORed.
#[inline(always)]
fn skip_ac(ir: u32, ac: u32) -> bool {
    // As the bits that select them: sma 400 if AC is negative, else spa 200; sza 100.
    let state = ((((ac >> 17) & 1) + 1) << 7) | (u32::from(ac == 0) << 6);
    ir & state != 0
}

/// The skip group's sense-switch and program-flag conditions (szs, szf), ORed.
#[inline(always)]
fn skip_switches_flags(ir: u32, ss: u8, pf: u8) -> bool {
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
const SHIFT_COUNT: [u8; 512] = {
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
fn mus(ac: u32, io: u32, m: u32) -> (u32, u32) {
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
fn dis(ac0: u32, io0: u32, m: u32) -> (u32, u32) {
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
fn mul(ac0: u32, m: u32) -> (u32, u32, u64) {
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
fn div(ac: u32, io: u32, m: u32) -> (u32, u32, bool, u64) {
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
