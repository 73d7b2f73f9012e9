//! The run loop: whole instructions at full speed between device events.
//!
//! `run_until` spends nearly all its time here. The loop works on a copy of the registers and
//! counters ([`Hot`]) and on the memory array passed as its own argument, so that a memory
//! store cannot alias them (it could when they were fields of the `Machine` the memory also
//! hangs off, which forced a reload of each after every store). AC, IO, PC and one combined
//! instruction/cycle counter are locals, which the compiler keeps in registers; MA, OV, PF,
//! the extra time, the cycle budget and the `xct` limit stay in `Hot`, where the registers
//! are not spent on them (issue 25). What the loop does per instruction is kept small:
//!
//! * one budget test: the time limit, the next device event and the instruction limit are
//!   turned into "this many more cycles" once per entry (and again after Type 10 `mul`/`div`,
//!   whose extra time is not whole cycles, or after 2^23 cycles), and the exact test runs
//!   only when the budget is spent;
//! * one counter update per fetch (instructions in the low 24 bits, cycles above);
//! * one dispatch, through a table on the top nine bits of the instruction ([`DECODE`]),
//!   which also decodes a shift's sub-code and `law`'s sign;
//! * PC kept as field + address within the field, so stepping it is an add and a mask.
//!
//! An I/O wait costs the loop nothing: a waiting IOT is an IOT, so the loop leaves before it,
//! and `run_fast` jumps the clock to the next device event (`spin_io_wait`) when only a
//! device can end the wait — a completion pulse, or a break request that interrupts it — or
//! lets `Machine::step` re-fetch the IOT (and find IOS, or report the hang) otherwise.
//!
//! The loop runs the memory-reference group, `xct`, `jmp`/`jsp`, `cal`/`jda`, skips, shifts,
//! `law` and operate — the instructions that touch nothing but registers and memory. What
//! each of them does is not written here: it is `exec.rs`'s pure functions, the ones the
//! single-cycle machine calls (issue 25) — the execute cycle (`mem_ref`), the addressing
//! (`address`, `defer`, `cal_address`, in and out of extend mode), `jump`, the chains' limits,
//! `law`, `skip_group`, `shift_by`, `operate`. Each dispatch arm calls them with constant
//! arguments, so they compile to the one operation; the loop keeps the dispatch, the order of
//! the memory cycles and the budget. Anything else
//! (an IOT, `hlt`, `stf`/`clf` (the flags' sound stream, `io/flags.rs`), an undefined
//! instruction, a debreak, `szf` polling for a key, an `xct`/indirect chain over its limit)
//! ends the loop *before* the instruction: the counter is put back to where the instruction
//! began (PC has not moved yet) and [`Exit::Slow`] tells the caller to run that one
//! instruction through `Machine::step` (`cpu.rs`), which does everything. Since nothing but the cycle count, MA, MB and IR changes before an
//! instruction's final operation, re-running it from its start gives exactly the same result.
//!
//! A sequence break is the single-cycle machine's (`cycle.rs`, issue 16): the cycle that
//! decides it and the entry run there. Since a break can cancel an instruction after any of
//! its defer cycles or `xct`'s target fetch, a device event falling inside such an
//! instruction matters; so while a break can come from a device event (`break_armed`: mode
//! on, a channel free to break, an event scheduled), the loop hands indirect and `xct`
//! instructions to `Machine::step`, which services the devices after every cycle. It does so
//! through their limits (0), so the loop itself tests nothing more per instruction, and with
//! the break system off or busy it runs as before.
//!
//! Timing is `cycle.rs`'s: the same memory cycles, charged where they occur (the fetch, one
//! per indirect word, the execute cycle — `xct`'s being its target's fetch). The common cases
//! of operate (cli, cla, cma only) and of the skips (AC conditions only) are branches of their
//! own here calling the same functions, which the compiler specialises from the bits it then
//! knows clear. The SIMH differential test, the random fast-path versus single-stepping test
//! and the per-instruction tests run through this loop.

use super::core::MAX;
use super::exec::{self, Defer, Flow};
use super::{Machine, AMASK, CYCLE, DAMASK, FIELD, IBIT};
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
    /// `run`'s scratch: its count at the start of the `xct` being executed.
    xct_from: u64,
    /// `Env::xct_limit`'s value, here rather than there: `run` then loads it in the `xct`
    /// arm only, where in `Env` the compiler keeps it in a register for the whole loop
    /// (`Env` cannot change, `Hot` can, in the out-of-line calls), one the loop needs more.
    xct_limit: u32,
    /// `run`'s budget: the count at which it next tests the limits exactly (see there).
    stop: u64,
}

/// Everything the loop reads but never changes (changing any of it takes an IOT, a break or
/// a debreak, which all leave the loop).
struct Env<'a> {
    /// The breakpoints as a bitmap over the 16-bit address space (`None`: there are none),
    /// tested at each fetch.
    bp: Option<&'a [u64; BP_WORDS]>,
    /// (PC, instruction count) at which a breakpoint is not taken: resuming from a stop at it,
    /// or an I/O wait at it (the waiting IOT is not fetched anew).
    bp_skip: (u32, u64),
    /// Stop before the cycle at which emulated time reaches this (ns).
    until_ns: u64,
    max_instr: u64,
    extend: bool,
    sbm: bool,
    /// The address bits of a break return, `jmp i 1` (Type 120: `jmp i 4n+1`).
    debreak_mask: u32,
    tw: u32,
    ss: u8,
    indirect_limit: u32,
    mul_div: bool,
    lai_lia: bool,
    size: usize,
}

/// Why the loop returned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exit {
    /// The time limit, the next device event or the instruction limit was reached.
    Limit,
    /// The instruction at PC needs the full machine (`Machine::step`).
    Slow,
    /// A breakpoint is set at PC: stop before the instruction there.
    Breakpoint,
}

/// Words of the breakpoint bitmap: one bit for each of the 65536 addresses.
pub(super) const BP_WORDS: usize = 1024;

/// The bitmap `Env::bp` for the breakpoint addresses `bps`.
pub(super) fn breakpoint_map(bps: impl Iterator<Item = u32>) -> Box<[u64; BP_WORDS]> {
    let mut m = Box::new([0u64; BP_WORDS]);
    for a in bps {
        m[(a >> 6) as usize & (BP_WORDS - 1)] |= 1 << (a & 63);
    }
    m
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
            // A sequence break (see `cycle.rs`): the entry once decided, and the cycle that
            // decides it — the next fetch, which may finish or cancel its instruction — run
            // on the single-cycle machine.
            if self.break_entry_next() {
                if self.stop_before_break {
                    return Some(super::StopReason::Stepped);
                }
                if let Some(r) = self.cycle_serviced() {
                    return Some(r);
                }
                continue;
            }
            // While a device event may start a break (`armed`), the instructions from one
            // cycle before the event on run on the single-cycle machine too: a request the
            // devices make after an instruction's fetch is taken right after its execute
            // cycle ([aap] `cycle1` TP10; `cycle.rs`, issue 31), which the loop, running
            // whole instructions, cannot see.
            let armed = self.break_armed();
            let fast_until = if armed {
                until_ns.min(self.next_event_ns.saturating_sub(CYCLE))
            } else {
                until_ns
            };
            if self.break_wanted() || self.now() >= fast_until {
                if self.breakpoint_here() {
                    self.resume_from = Some((self.pc, self.instructions));
                    return Some(super::StopReason::Breakpoint(self.pc));
                }
                if let Some(r) = self.step() {
                    return Some(r);
                }
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
                xct_from: 0,
                xct_limit: 0,
                stop: 0,
            };
            // (An `xct` is one a break can cut, as an indirect chain: see `Env` below.)
            hot.xct_limit = if armed { 0 } else { self.config.xct_limit };
            let debreak_mask = self.debreak_mask();
            let (mem, size) = self.mem.raw();
            let bp_skip = match (self.ioh, self.resume_from) {
                (true, _) => (self.pc, self.instructions),
                (false, Some(r)) => r,
                (false, None) => (u32::MAX, 0),
            };
            // While a device event may start a break (`armed`), an instruction a break can
            // interrupt part-way (an indirect chain, an `xct`) goes to the single-cycle
            // machine, which sees the request in the cycle after the event: limits of 0 send
            // them there at no cost to the loop.
            let env = Env {
                bp: self.bp_map.as_deref(),
                bp_skip,
                until_ns: fast_until,
                max_instr,
                extend: self.extend,
                sbm: self.sbm,
                debreak_mask,
                tw: self.tw,
                ss: self.ss,
                indirect_limit: if armed { 0 } else { self.config.indirect_limit },
                mul_div: self.config.mul_div,
                lai_lia: self.config.lai_lia,
                size,
            };
            let exit = if env.bp.is_some() {
                run::<true>(&mut hot, mem, &env)
            } else {
                run::<false>(&mut hot, mem, &env)
            };
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
                Exit::Breakpoint => {
                    self.resume_from = Some((self.pc, self.instructions));
                    return Some(super::StopReason::Breakpoint(self.pc));
                }
                Exit::Slow => {
                    if let Some(r) = self.step() {
                        return Some(r);
                    }
                }
            }
        }
    }

    /// A breakpoint is set at PC and the run does not resume from it (as the loop tests
    /// before each fetch; not during an I/O wait, whose IOT is not fetched anew).
    fn breakpoint_here(&self) -> bool {
        self.breakpoints.contains(&self.pc)
            && !self.ioh
            && self.resume_from != Some((self.pc, self.instructions))
    }

    /// An I/O wait that can only end with a device event (a completion pulse, or a break
    /// request that interrupts the wait): the waiting IOT would be fetched again every cycle,
    /// changing nothing but the time, until `until_ns`. Jump there at once. Returns false
    /// (and does nothing) if the wait is not that simple — the IOT reached through `xct`, the
    /// completion pulse already in (IOS), or nothing that can end the wait (a hang, which
    /// `step` reports).
    fn spin_io_wait(&mut self, until_ns: u64) -> bool {
        let w = self.rd(self.pc);
        if self.ios
            || until_ns == u64::MAX
            || w >> 13 != 0o35
            || w & IBIT == 0
            || !self.wait_can_end()
        {
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

/// Indirect addressing from the address word at `a`, the defer cycles of `cycle.rs` in one
/// go ([`exec::defer`]): the effective address and the number of defer cycles, with MA left
/// at the last indirect word read; `None` when the chain is longer than the limit. Kept out of
/// line so the direct case stays small.
#[cold]
#[inline(never)]
fn indirect(mem: &[Word; MAX], a: u32, field: u32, env: &Env, h: &mut Hot) -> Option<(u32, u32)> {
    let mut a = a;
    let mut n = 0;
    loop {
        if exec::indirect_limit_reached(n, env.indirect_limit) {
            return None;
        }
        n += 1;
        match exec::defer(rd(mem, a), field, env.extend) {
            Defer::Last(ea) => {
                h.ma = a;
                return Some((ea, n));
            }
            Defer::More(next) => a = next,
        }
    }
}

/// `run` counts instructions and cycles in one register: instructions in the low 24 bits,
/// cycles above, so that a fetch is one addition of [`FETCH`] and every other cycle one of
/// [`CYCLE_1`].
const CYCLE_1: u64 = 1 << 24;
const FETCH: u64 = CYCLE_1 | 1;
/// The most cycles `run` goes between folding the counter into `Hot`: the instruction field
/// (never more than the cycles) then cannot overflow.
const MAX_BUDGET: u64 = 1 << 23;

/// The exact limit test behind `run`'s budget: how many more cycles may start before the
/// time limit, the next device event or the instruction limit (each instruction takes at
/// least one cycle, so the instructions still allowed bound it too), or `None` when one of
/// them has been reached. Out of line so that the limits are not kept in registers the
/// loop needs.
#[cold]
#[inline(never)]
fn budget(env: &Env, h: &Hot) -> Option<u64> {
    let limit = cycle_limit(env.until_ns, h.extra_ns);
    if h.cycles >= limit || h.instructions >= env.max_instr {
        return None;
    }
    Some((limit - h.cycles).min(env.max_instr - h.instructions))
}

/// What the run loop does with an instruction, decoded from its top nine bits (opcode, i,
/// and the three bits after i) by [`DECODE`]. Matching on this dense enum compiles to one
/// jump table; a `match` on the raw bits with ranges is split by the compiler into a table
/// for the memory-reference opcodes and a chain of compares for the rest, which put the
/// one-cycle instructions behind several branches. The nine bits also decode a shift's
/// sub-code and `law`'s sign, so those need no second branch.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Op {
    /// For `Machine::step`: IOT, the undefined opcodes and shift sub-codes.
    Slow,
    And,
    Ior,
    Xor,
    Xct,
    CalJda,
    Lac,
    Lio,
    Dac,
    Dap,
    Dip,
    Dio,
    Dzm,
    Add,
    Sub,
    Idx,
    Isp,
    Sad,
    Sas,
    Mul,
    Div,
    Jmp,
    JmpI,
    Jsp,
    Skip,
    Ral,
    Ril,
    Rcl,
    Sal,
    Sil,
    Scl,
    Rar,
    Rir,
    Rcr,
    Sar,
    Sir,
    Scr,
    Law,
    LawI,
    Opr,
}

/// [`Op`] for each value of instruction bits 0–8 (the word shifted right 9).
const DECODE: [Op; 512] = {
    let mut t = [Op::Slow; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = match i >> 4 {
            0o01 => Op::And,
            0o02 => Op::Ior,
            0o03 => Op::Xor,
            0o04 => Op::Xct,
            0o07 => Op::CalJda,
            0o10 => Op::Lac,
            0o11 => Op::Lio,
            0o12 => Op::Dac,
            0o13 => Op::Dap,
            0o14 => Op::Dip,
            0o15 => Op::Dio,
            0o16 => Op::Dzm,
            0o20 => Op::Add,
            0o21 => Op::Sub,
            0o22 => Op::Idx,
            0o23 => Op::Isp,
            0o24 => Op::Sad,
            0o25 => Op::Sas,
            0o26 => Op::Mul,
            0o27 => Op::Div,
            0o30 if i & 0o10 == 0 => Op::Jmp,
            0o30 => Op::JmpI,
            0o31 => Op::Jsp,
            0o32 => Op::Skip,
            // Sub-code (dir, shift, reg) in the low four bits; 00, 04, 10, 14 undefined.
            0o33 => match i & 0o17 {
                0o01 => Op::Ral,
                0o02 => Op::Ril,
                0o03 => Op::Rcl,
                0o05 => Op::Sal,
                0o06 => Op::Sil,
                0o07 => Op::Scl,
                0o11 => Op::Rar,
                0o12 => Op::Rir,
                0o13 => Op::Rcr,
                0o15 => Op::Sar,
                0o16 => Op::Sir,
                0o17 => Op::Scr,
                _ => Op::Slow,
            },
            0o34 if i & 0o10 == 0 => Op::Law,
            0o34 => Op::LawI,
            0o37 => Op::Opr,
            _ => Op::Slow,
        };
        i += 1;
    }
    t
};

/// The loop itself (see the module docs). Instruction by instruction it does what
/// `Machine::step` + `Machine::execute` do, charging the same cycles in the same places.
// (MA is assigned on every memory cycle; the compiler rightly sees that an indirect word's
// address is overwritten by the operand cycle's.)
#[allow(unused_assignments)]
#[inline(never)]
/// `BP`: breakpoints are set. The loop is compiled twice, so the breakpoint test costs nothing
/// when there are none (measured: the test alone slowed shift-heavy code by a sixth).
fn run<const BP: bool>(h: &mut Hot, mem: &mut [Word; MAX], env: &Env<'_>) -> Exit {
    // AC, IO, PC and the counter live in locals (registers); MA, OV, PF and the extra time
    // stay in `h`, which the out-of-line `indirect` also writes, so the compiler keeps them
    // in memory and the registers for the values every instruction uses.
    let Hot { mut ac, mut io, .. } = *h;
    // PC as its field and its address within the field: stepping it is then two operations
    // (add, mask), and the field, which only a jump can change, is at hand for the
    // memory-reference instructions' addresses.
    let mut field = h.pc & FIELD;
    let mut off = h.pc & DAMASK;
    let size = env.size;
    // Instructions and cycles since they were last added to `h` (see `FETCH`).
    let mut count: u64 = 0;
    macro_rules! fold {
        () => {{
            h.cycles += count >> 24;
            h.instructions += count & (CYCLE_1 - 1);
            count = 0;
        }};
    }
    // Both limits as one cycle count compared once per instruction: `h.stop` is the budget
    // (in the cycle field). While the count is below it neither limit can have been reached;
    // when it gets there the exact test decides and, if neither has really been reached,
    // gives a new budget. 0 forces that test first. (In `h`, not a local: the test is then
    // one compare with memory, where a local was stored and reloaded around every dispatch
    // and its register went to values the loop needs less — issue 25: host instructions
    // −4 to −7 % on `pdp1-bench`.)
    h.stop = 0;
    // The last instruction executed (IR is its opcode).
    let mut w = h.ir << 13;
    let exit = 'run: loop {
        if count >= h.stop {
            fold!();
            match budget(env, h) {
                Some(b) => h.stop = b.min(MAX_BUDGET) * CYCLE_1,
                None => break 'run Exit::Limit,
            }
        }
        // Fetch. MA follows every memory cycle, as in single-cycle steps.
        // PC stays at the instruction until it completes: the tail of the loop steps it, and
        // jumps and skips set it and skip the tail. (That keeps one PC value live, not two.)
        let pc = field | off;
        // A breakpoint stops before the fetch (one test per instruction while any is set).
        if let (true, Some(bp)) = (BP, env.bp) {
            if (bp[(pc >> 6) as usize] >> (pc & 63)) & 1 != 0
                && (pc, h.instructions + (count & (CYCLE_1 - 1))) != env.bp_skip
            {
                break 'run Exit::Breakpoint;
            }
        }
        w = rd(mem, pc);
        h.ma = pc;
        count += FETCH;
        // Leave before the instruction for `step` to run it. No instruction changes memory
        // before the point where it may do this, so the word at PC is still the instruction.
        // Only its fetch has been charged, unless it is an `xct` (then the chain's cycles
        // too: `h.xct_from` has the count the xct began at). Keeping the start count in a
        // local instead costs a register.
        macro_rules! slow {
            () => {{
                count = if exec::is_xct(rd(mem, pc)) {
                    h.xct_from
                } else {
                    count - FETCH
                };
                break 'run Exit::Slow;
            }};
        }
        // Effective address, one cycle per indirect word, the defer cycles of `cycle.rs`.
        macro_rules! ea_indirect {
            () => {{
                match indirect(mem, exec::address(w, field), field, env, h) {
                    Some((ea, n)) => {
                        count += u64::from(n) * CYCLE_1;
                        ea
                    }
                    None => slow!(),
                }
            }};
        }
        macro_rules! ea {
            () => {{
                if w & IBIT != 0 {
                    ea_indirect!()
                } else {
                    exec::address(w, field)
                }
            }};
        }
        // Skip: PC steps twice, and the instruction is done (so it must come last).
        macro_rules! skip {
            () => {{
                off = (off + 2) & DAMASK;

                continue 'run;
            }};
        }
        // A jump: PC ← `$a`, and the instruction is done.
        macro_rules! jump {
            ($a:expr) => {{
                let a = $a;
                field = a & FIELD;
                off = a & DAMASK;

                continue 'run;
            }};
        }
        macro_rules! epc {
            () => {
                exec::epc(h.ov, env.extend, field | ((off + 1) & DAMASK))
            };
        }
        // The execute cycle of memory-reference opcode `$op` at `$a` ([`exec::mem_ref`]):
        // one memory cycle, read and/or write. (With a constant `$op` the function folds to
        // the one operation; for a store the unused read is dropped.) Type 10 time is not
        // whole cycles: `h.stop = 0` makes the next loop test recompute the time limit with
        // the new extra time.
        macro_rules! execute {
            ($op:expr, $a:expr) => {{
                let a = $a;
                count += CYCLE_1;
                h.ma = a;
                let r = exec::mem_ref($op, a, rd(mem, a), ac, io, epc!(), env.mul_div);
                (ac, io) = (r.ac, r.io);
                h.ov |= r.overflow;
                if let Some(v) = r.store {
                    wr(mem, size, a, v);
                }
                if r.extra_ns != 0 {
                    h.extra_ns += r.extra_ns;
                    h.stop = 0;
                }
                match r.flow {
                    Flow::Next => {}
                    Flow::Skip => skip!(),
                    Flow::Jump(t) => jump!(t),
                }
            }};
        }
        // A memory-reference instruction: its effective address, then its execute cycle.
        macro_rules! mem_ref {
            ($op:expr) => {{
                let a = ea!();
                execute!($op, a)
            }};
        }
        // A shift with a sub-code known from the dispatch.
        macro_rules! shift {
            ($sub:expr) => {
                (ac, io) = exec::shift_by($sub, exec::shift_count(w), ac, io)
            };
        }
        // One dispatch per instruction (see `Op`); `continue` re-dispatches an `xct` target.
        loop {
            match DECODE[(w >> 9) as usize & 0o777] {
                Op::And => mem_ref!(0o01),
                Op::Ior => mem_ref!(0o02),
                Op::Xor => mem_ref!(0o03),
                // xct: the target's fetch is the second cycle; PC stays at xct+1. A chain of
                // xcts is followed here, so its length is counted only in this arm.
                Op::Xct => {
                    h.xct_from = count - FETCH;
                    let mut depth = 0;
                    loop {
                        if exec::xct_limit_reached(depth, h.xct_limit) {
                            slow!();
                        }
                        depth += 1;
                        let a = ea!();
                        count += CYCLE_1;
                        h.ma = a;
                        w = rd(mem, a);
                        if !exec::is_xct(w) {
                            break;
                        }
                    }
                    continue;
                }
                Op::CalJda => {
                    let a = exec::cal_address(w, field, env.extend);
                    execute!(0o07, a)
                }
                Op::Lac => mem_ref!(0o10),
                Op::Lio => mem_ref!(0o11),
                Op::Dac => mem_ref!(0o12),
                Op::Dap => mem_ref!(0o13),
                Op::Dip => mem_ref!(0o14),
                Op::Dio => mem_ref!(0o15),
                Op::Dzm => mem_ref!(0o16),
                Op::Add => mem_ref!(0o20),
                Op::Sub => mem_ref!(0o21),
                Op::Idx => mem_ref!(0o22),
                Op::Isp => mem_ref!(0o23),
                Op::Sad => mem_ref!(0o24),
                Op::Sas => mem_ref!(0o25),
                Op::Mul => mem_ref!(0o26),
                Op::Div => mem_ref!(0o27),
                Op::Jmp => jump!(exec::address(w, field)),
                Op::JmpI => {
                    if env.sbm && w & env.debreak_mask == 0o10001 && field == 0 {
                        // Debreak (`jmp i 1` ending a break) changes the break state.
                        slow!();
                    }
                    jump!(ea_indirect!());
                }
                Op::Jsp => {
                    let a = ea!();
                    let t;
                    (t, ac) = exec::jump(0o31, a, ac, epc!());
                    jump!(t);
                }
                // Skip group.
                Op::Skip => {
                    let skip;
                    if w & 0o3077 == 0 {
                        // Only AC conditions (sma, spa, sza: the usual case): the same
                        // `skip_group`, which the compiler, knowing the other bits clear,
                        // compiles to the AC tests alone.
                        (skip, h.ov) = exec::skip_group(w, ac, io, h.ov, env.ss, h.pf);
                    } else {
                        if exec::tests_pf1(w) && h.pf & 0o40 == 0 {
                            // Polling for a key: the typewriter keeps the books (`key_poll`).
                            slow!();
                        }
                        (skip, h.ov) = exec::skip_group(w, ac, io, h.ov, env.ss, h.pf);
                    }
                    if skip {
                        skip!();
                    }
                }
                // Shift group, by sub-code (dir, shift, reg); 00, 04, 10, 14 are undefined.
                Op::Ral => shift!(0o01),
                Op::Ril => shift!(0o02),
                Op::Rcl => shift!(0o03),
                Op::Sal => shift!(0o05),
                Op::Sil => shift!(0o06),
                Op::Scl => shift!(0o07),
                Op::Rar => shift!(0o11),
                Op::Rir => shift!(0o12),
                Op::Rcr => shift!(0o13),
                Op::Sar => shift!(0o15),
                Op::Sir => shift!(0o16),
                Op::Scr => shift!(0o17),
                // law N, law i N
                Op::Law => ac = exec::law(w, false),
                Op::LawI => ac = exec::law(w, true),
                // Operate.
                Op::Opr => {
                    if w & 0o2517 == 0 {
                        // Only cli, cla, cma (the usual case): the same `operate`, which the
                        // compiler, knowing these bits clear, compiles without the work for
                        // lat, lap and the flags.
                        (ac, io, h.pf) = exec::operate(w, ac, io, h.pf, env.tw, epc!());
                    } else {
                        if w & 0o407 != 0 {
                            // hlt, or stf/clf: a flag change goes into the flags' sound
                            // stream, which `Machine::operate` keeps.
                            slow!();
                        }
                        (ac, io, h.pf) = exec::operate(w, ac, io, h.pf, env.tw, epc!());
                    }
                    if env.lai_lia && w & 0o60 != 0 {
                        (ac, io) = exec::lai_lia(w, ac, io);
                    }
                }
                // IOT, the undefined opcodes and shift sub-codes.
                Op::Slow => slow!(),
            }
            break;
        }
        off = (off + 1) & DAMASK;
    };
    h.ac = ac;
    h.io = io;
    h.pc = field | off;
    h.ir = w >> 13;

    fold!();
    exit
}
