//! The run loop: whole instructions at full speed between device events.
//!
//! `run_until` spends nearly all its time here. The loop works on a copy of the registers and
//! counters held in local variables ([`Hot`]) and on the memory array passed as its own
//! argument, so the compiler can keep PC, AC, IO and the cycle and instruction counters in
//! machine registers: a memory store cannot alias them (it could when they were fields of
//! the `Machine` the memory also hangs off, which forced a reload of each after every store).
//! Emulated time is checked as a cycle count: the time limit and the next device event are
//! turned into "stop before cycle N" once per entry (and again after Type 10 `mul`/`div`,
//! whose extra time is not whole cycles).
//!
//! The loop handles the memory-reference group, `xct`, `jmp`/`jsp`, skips, shifts, `law` and
//! operate — the instructions that touch nothing but registers and memory. Anything else
//! (an IOT, `hlt`, an undefined instruction, a debreak, `szf` polling for a key, an
//! `xct`/indirect chain over its limit) ends the loop *before* the instruction: PC and the
//! cycle count are put back to where the instruction began and [`Exit::Slow`] tells the
//! caller to run that one instruction through `Machine::step` (`cpu.rs`), which does
//! everything. Since nothing but the cycle count, MA, MB and IR changes before an
//! instruction's final operation, re-running it from its start gives exactly the same result.
//!
//! Semantics and timing are those of `cpu.rs` (the group operations are the same functions:
//! `skips`, `shift`, `operate`, `mus`/`dis`/`mul`/`div`); the SIMH differential test and the
//! per-instruction tests run through this loop.

use super::core::MAX;
use super::cpu::{dis, div, mul, mus, operate, shift, skips, tests_pf1};
use super::{incr, Machine, AMASK, CYCLE, DAMASK, FIELD, IBIT, MASK, SIGN};
use crate::arith;
use crate::word::Word;

/// Registers and counters the run loop keeps in locals. MB is not among them: every
/// instruction's last memory cycle leaves MB equal to the word now at MA (it read that word,
/// or wrote it there), so `run_fast` sets MB from memory when the loop returns. That saves a
/// register in the loop, which measurably matters. (The one case where it differs — a store
/// to non-existent memory, which loses the word — shows MB as 0, the word "there".)
#[derive(Clone, Copy)]
struct Hot {
    ac: u32,
    io: u32,
    pc: u32,
    ma: u32,
    ir: u32,
    ov: bool,
    pf: u8,
    cycles: u64,
    extra_ns: u64,
    instructions: u64,
}

/// Everything the loop reads but never changes (changing any of it takes an IOT, a break or
/// a debreak, which all leave the loop).
struct Env {
    /// Stop before the cycle at which emulated time reaches this (ns).
    until_ns: u64,
    max_instr: u64,
    extend: bool,
    sbm: bool,
    tw: u32,
    ss: u8,
    xct_limit: u32,
    indirect_limit: u32,
    mul_div: bool,
    size: usize,
}

/// Why the loop returned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exit {
    /// The time limit, the next device event or the instruction limit was reached.
    Limit,
    /// The instruction at PC needs the full machine (`Machine::step`).
    Slow,
}

/// The first cycle count at which `cycles * CYCLE + extra_ns >= until_ns`, so that
/// `cycles < cycle_limit(..)` is exactly "emulated time is before `until_ns`".
#[inline(always)]
fn cycle_limit(until_ns: u64, extra_ns: u64) -> u64 {
    if until_ns <= extra_ns {
        return 0;
    }
    let d = until_ns - extra_ns;
    d.div_ceil(CYCLE)
}

impl Machine {
    /// Run instructions until emulated time reaches `until` or the next device event, or
    /// the instruction count reaches `max_instr`, or the machine stops (a stop reason).
    pub(super) fn run_fast(&mut self, until: u64, max_instr: u64) -> Option<super::StopReason> {
        loop {
            // (An IOT may have scheduled an earlier event, so the limit is recomputed.)
            let until_ns = until.min(self.next_event_ns);
            if self.now() >= until_ns || self.instructions >= max_instr {
                return None;
            }
            if self.sb_req && self.sbm && !self.sb_ip {
                self.break_entry();
                continue;
            }
            if self.ioh && self.spin_io_wait(until_ns) {
                continue;
            }
            let mut hot = Hot {
                ac: self.ac,
                io: self.io,
                pc: self.pc,
                ma: self.ma,
                ir: self.ir,
                ov: self.ov,
                pf: self.pf,
                cycles: self.cycles,
                extra_ns: self.extra_ns,
                instructions: self.instructions,
            };
            let (mem, size) = self.mem.raw();
            let env = Env {
                until_ns,
                max_instr,
                extend: self.extend,
                sbm: self.sbm,
                tw: self.tw,
                ss: self.ss,
                xct_limit: self.config.xct_limit,
                indirect_limit: self.config.indirect_limit,
                mul_div: self.config.mul_div,
                size,
            };
            let exit = run(&mut hot, mem, &env);
            self.ac = hot.ac;
            self.io = hot.io;
            self.pc = hot.pc;
            self.ma = hot.ma;
            self.mb = self.rd(hot.ma);
            self.ir = hot.ir;
            self.ov = hot.ov;
            self.pf = hot.pf;
            self.cycles = hot.cycles;
            self.extra_ns = hot.extra_ns;
            self.instructions = hot.instructions;
            match exit {
                Exit::Limit => return None,
                Exit::Slow => {
                    if let Some(r) = self.step() {
                        return Some(r);
                    }
                }
            }
        }
    }

    /// An I/O wait that can only end with a device event: the waiting IOT would be fetched
    /// again every cycle, changing nothing but the time, until `until_ns`. Jump there at
    /// once. Returns false (and does nothing) if the wait is not that simple — the IOT reached
    /// through `xct`, the completion pulse already in (IOS), or no pulse owed (a hang,
    /// which `step` reports).
    fn spin_io_wait(&mut self, until_ns: u64) -> bool {
        let w = self.rd(self.pc);
        if self.ios || self.cpls == 0 || w >> 13 != 0o35 || w & IBIT == 0 {
            return false;
        }
        let limit = cycle_limit(until_ns, self.extra_ns);
        if limit <= self.cycles {
            return false;
        }
        // The last of those fetches leaves the lamps as a fetch of the IOT does.
        self.cycles = limit;
        self.ir = 0o35;
        self.ma = self.pc;
        self.mb = w;
        true
    }
}

#[inline(always)]
fn rd(mem: &[Word; MAX], a: u32) -> u32 {
    mem[(a & AMASK) as usize].bits()
}

/// Writes beyond the installed memory are lost (SIMH `MEM_ADDR_OK`).
#[inline(always)]
fn wr(mem: &mut [Word; MAX], size: usize, a: u32, v: u32) {
    let a = (a & AMASK) as usize;
    if a < size {
        mem[a] = Word::new(v);
    }
}

/// Indirect addressing from the address word at `a` (as `Machine::ea`): the effective
/// address, the address of the last indirect word read (MA) and the number of defer cycles;
/// `None` when the chain is longer than the limit. Kept out of line so the direct case stays
/// small.
#[cold]
#[inline(never)]
fn indirect(mem: &[Word; MAX], a: u32, field: u32, env: &Env, h: &mut Hot) -> Option<(u32, u32)> {
    if env.extend {
        // Extend mode: one level, the word holds a full 16-bit address.
        h.ma = a;
        return Some((rd(mem, a) & AMASK, 1));
    }
    let mut a = a;
    let mut n = 0;
    loop {
        if n >= env.indirect_limit {
            return None;
        }
        n += 1;
        let w = rd(mem, a);
        let next = field | (w & DAMASK);
        if w & IBIT == 0 {
            h.ma = a;
            return Some((next, n));
        }
        a = next;
    }
}

/// The loop itself (see the module docs). Instruction by instruction it does what
/// `Machine::step` + `Machine::execute` do, charging the same cycles in the same places.
// (MA is assigned on every memory cycle; the compiler rightly sees that an indirect word's
// address is overwritten by the operand cycle's.)
#[allow(unused_assignments)]
#[inline(never)]
fn run(h: &mut Hot, mem: &mut [Word; MAX], env: &Env) -> Exit {
    // AC, IO, PC and the counters live in locals (registers); MA, OV, PF and the extra time
    // stay in `h`, which the out-of-line `indirect` also writes, so the compiler keeps them
    // in memory and the registers for the values every instruction uses.
    let Hot {
        mut ac,
        mut io,
        mut pc,
        mut cycles,
        mut instructions,
        ..
    } = *h;
    let size = env.size;
    let mut limit = cycle_limit(env.until_ns, h.extra_ns);
    // The last instruction executed (IR is its opcode).
    let mut w = h.ir << 13;
    macro_rules! leave {
        ($e:expr) => {{
            h.ac = ac;
            h.io = io;
            h.pc = pc;
            h.ir = w >> 13;
            h.cycles = cycles;
            h.instructions = instructions;
            return $e;
        }};
    }
    loop {
        if cycles >= limit || instructions >= env.max_instr {
            leave!(Exit::Limit);
        }
        // Fetch. MA follows every memory cycle, as in single-cycle steps.
        let pc0 = pc;
        w = rd(mem, pc0);
        h.ma = pc0;
        pc = incr(pc0);
        let cycles0 = cycles;
        cycles += 1;
        let mut xct_depth = 0;
        macro_rules! slow {
            () => {{
                pc = pc0;
                cycles = cycles0;
                leave!(Exit::Slow);
            }};
        }
        // Effective address, one cycle per indirect word, as `Machine::ea`.
        macro_rules! ea {
            () => {{
                let field = pc & FIELD;
                let mut a = field | (w & DAMASK);
                if w & IBIT != 0 {
                    match indirect(mem, a, field, env, h) {
                        Some((ea, n)) => {
                            a = ea;
                            cycles += u64::from(n);
                        }
                        None => slow!(),
                    }
                }
                a
            }};
        }
        // The execute cycle's operand read / store.
        macro_rules! operand {
            ($a:expr) => {{
                let a = $a;
                cycles += 1;
                h.ma = a;
                rd(mem, a)
            }};
        }
        macro_rules! store {
            ($a:expr, $v:expr) => {{
                let (a, v) = ($a, $v);
                cycles += 1;
                h.ma = a;
                wr(mem, size, a, v);
            }};
        }
        macro_rules! skip {
            () => {
                pc = incr(pc)
            };
        }
        macro_rules! epc {
            () => {
                (u32::from(h.ov) << 17) | (u32::from(env.extend) << 16) | pc
            };
        }
        loop {
            match (w >> 13) & 0o37 {
                0o01 => {
                    let a = ea!();
                    ac &= operand!(a);
                }
                0o02 => {
                    let a = ea!();
                    ac |= operand!(a);
                }
                0o03 => {
                    let a = ea!();
                    ac ^= operand!(a);
                }
                0o04 => {
                    // xct: the target's fetch is the second cycle; PC stays at xct+1.
                    if xct_depth >= env.xct_limit {
                        slow!();
                    }
                    xct_depth += 1;
                    let a = ea!();
                    w = operand!(a);
                    continue;
                }
                0o07 => {
                    // cal (i = 0) uses location 100 of the current field, jda (i = 1) Y.
                    let a = (pc & FIELD) | if w & IBIT != 0 { w & DAMASK } else { 0o100 };
                    let old = ac;
                    ac = epc!();
                    pc = incr(a);
                    store!(a, old);
                }
                0o10 => {
                    let a = ea!();
                    ac = operand!(a);
                }
                0o11 => {
                    let a = ea!();
                    io = operand!(a);
                }
                0o12 => {
                    let a = ea!();
                    store!(a, ac);
                }
                0o13 => {
                    let a = ea!();
                    let m = rd(mem, a);
                    store!(a, (m & !DAMASK) | (ac & DAMASK));
                }
                0o14 => {
                    let a = ea!();
                    let m = rd(mem, a);
                    store!(a, (ac & !DAMASK & MASK) | (m & DAMASK));
                }
                0o15 => {
                    let a = ea!();
                    store!(a, io);
                }
                0o16 => {
                    let a = ea!();
                    store!(a, 0);
                }
                0o20 => {
                    let a = ea!();
                    let (r, o) = arith::add(Word::new(ac), Word::new(operand!(a)));
                    ac = r.bits();
                    h.ov |= o;
                }
                0o21 => {
                    let a = ea!();
                    let (r, o) = arith::sub(Word::new(ac), Word::new(operand!(a)));
                    ac = r.bits();
                    h.ov |= o;
                }
                0o22 => {
                    let a = ea!();
                    ac = arith::inc(Word::new(rd(mem, a))).bits();
                    store!(a, ac);
                }
                0o23 => {
                    let a = ea!();
                    ac = arith::inc(Word::new(rd(mem, a))).bits();
                    store!(a, ac);
                    if ac & SIGN == 0 {
                        skip!();
                    }
                }
                0o24 => {
                    let a = ea!();
                    if ac != operand!(a) {
                        skip!();
                    }
                }
                0o25 => {
                    let a = ea!();
                    if ac == operand!(a) {
                        skip!();
                    }
                }
                0o26 => {
                    let a = ea!();
                    let m = operand!(a);
                    if env.mul_div {
                        let t;
                        (ac, io, t) = mul(ac, m);
                        h.extra_ns += t;
                        limit = cycle_limit(env.until_ns, h.extra_ns);
                    } else {
                        (ac, io) = mus(ac, io, m);
                    }
                }
                0o27 => {
                    let a = ea!();
                    let m = operand!(a);
                    if env.mul_div {
                        let (s, t);
                        (ac, io, s, t) = div(ac, io, m);
                        if s {
                            skip!();
                        }
                        h.extra_ns += t;
                        limit = cycle_limit(env.until_ns, h.extra_ns);
                    } else {
                        (ac, io) = dis(ac, io, m);
                    }
                }
                0o30 => {
                    if env.sbm && w & 0o17777 == 0o10001 && pc & FIELD == 0 {
                        // Debreak (`jmp i 1` ending a break) changes the break state.
                        slow!();
                    }
                    pc = ea!();
                }
                0o31 => {
                    let a = ea!();
                    ac = epc!();
                    pc = a;
                }
                0o32 => {
                    if tests_pf1(w) && h.pf & 0o40 == 0 {
                        // Polling for a key: the typewriter keeps the books (`key_poll`).
                        slow!();
                    }
                    if skips(w, ac, io, h.ov, env.ss, h.pf) {
                        skip!();
                    }
                    if w & 0o1000 != 0 {
                        h.ov = false;
                    }
                }
                0o33 => match shift(w, ac, io) {
                    Some(r) => (ac, io) = r,
                    None => slow!(),
                },
                0o34 => {
                    ac = (w & DAMASK) ^ if w & IBIT != 0 { MASK } else { 0 };
                }
                0o37 => {
                    if w & 0o400 != 0 {
                        slow!(); // hlt
                    }
                    (ac, io, h.pf) = operate(w, ac, io, h.pf, env.tw, epc!());
                }
                // IOT and the undefined opcodes.
                _ => slow!(),
            }
            break;
        }
        instructions += 1;
    }
}
