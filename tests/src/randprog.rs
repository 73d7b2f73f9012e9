//! Random PDP-1 programs for the differential test against SIMH.
//!
//! Every program is built from one seed. The layout keeps control flow and stores inside
//! regions where the words can only be instructions we chose, so no program ever executes an
//! IOT or a data word by accident (IOTs are outside the test; see docs/testing.md), while
//! still mixing every non-IOT group freely:
//!
//! ```text
//! 0100        cal slot (cal stores AC here)       0101–0111  cal subroutine, ends jmp, jmp
//! 0200–0277   main code (starts at 0200; last two words are jmps)
//! 0300–0353   four jda subroutines: slot, 5 body words, jmp, jmp
//! 0400–0477   D: data (read and written by memory-reference instructions)
//! 0500–0537   P: data pointers (i=1 → another P word, i=0 → a D word; read only)
//! 0540–0557   J: jump pointers (i=1 → another J word, i=0 → a code word)
//! 0560–0577   X: xct targets (random instructions, including xct X chains)
//! ```
//!
//! Half the subroutines start with `dap exit` and so return through the first closing jmp,
//! as real PDP-1 code does. Apart from that, stores (dac, dap, dip, dio, dzm, idx, isp) only
//! reach D (directly or through P chains);
//! jumps only reach code words that are instructions; the word before every slot is a jmp
//! preceded by a jmp, so skips can never land on a slot. In extend mode (Type 15, single-level
//! indirection with 16-bit pointers) the same layout is copied into fields 0 and 1 and the
//! pointers choose a field.

use crate::prng::Rng;
use std::collections::BTreeMap;

pub const CAL_SLOT: u32 = 0o100;
pub const CAL_BODY: u32 = 0o101;
pub const CODE: u32 = 0o200;
pub const CODE_LEN: u32 = 0o100;
pub const JDA: u32 = 0o300;
pub const JDA_SUBS: u32 = 4;
pub const JDA_LEN: u32 = 8;
pub const D: u32 = 0o400;
pub const D_LEN: u32 = 0o100;
pub const P: u32 = 0o500;
pub const P_LEN: u32 = 0o40;
pub const J: u32 = 0o540;
pub const J_LEN: u32 = 0o20;
pub const X: u32 = 0o560;
pub const X_LEN: u32 = 0o20;

/// How the machine is configured for one program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Setup {
    /// Type 10 multiply/divide (`set cpu mdv`).
    pub mdv: bool,
    /// Memory words: 4096 or 8192.
    pub memory_words: u32,
}

/// One random program and its starting state.
#[derive(Clone, Debug)]
pub struct Program {
    pub seed: u64,
    pub setup: Setup,
    /// Initial memory (absolute addresses; every other word is 0).
    pub words: BTreeMap<u32, u32>,
    pub ac: u32,
    pub io: u32,
    pub pc: u32,
    pub ov: bool,
    pub pf: u8,
    pub ss: u8,
    pub tw: u32,
    pub extend: bool,
    /// Instructions to run.
    pub steps: u64,
}

/// Data values that hit the one's-complement edges often.
fn data(r: &mut Rng) -> u32 {
    match r.below(12) {
        0 => 0,
        1 => 0o777_777,
        2 => 1,
        3 => 0o777_776,
        4 => 0o377_777,
        5 => 0o400_000,
        6 => r.below(0o100),
        7 => 0o777_777 - r.below(0o100),
        8 => r.pick(&[0o777, 0o777_000, 0o525_252, 0o252_525, 0o377_776, 0o400_001]),
        _ => r.word(),
    }
}

/// Generates the instructions of one program.
struct Gen<'a> {
    r: &'a mut Rng,
    /// Addresses (12-bit, within a field) that jumps may target.
    targets: Vec<u32>,
    /// Extend mode: `cal` is generated as `jda 100`, since in extend mode `cal` goes to 100 of
    /// field 0 in pdp1-core (aap) and of the current field in SIMH (issue 16, docs/testing.md).
    extend: bool,
}

impl Gen<'_> {
    fn target(&mut self) -> u32 {
        let t = &self.targets;
        t[self.r.below(t.len() as u32) as usize]
    }

    /// Y for a load-type instruction (may read anything; mostly D, sometimes via P).
    fn read_y(&mut self) -> u32 {
        match self.r.below(20) {
            0..=12 => D + self.r.below(D_LEN),
            13..=16 => 0o10000 | (P + self.r.below(P_LEN)),
            17 => P + self.r.below(P_LEN),
            18 => CODE + self.r.below(CODE_LEN),
            _ => X + self.r.below(X_LEN),
        }
    }

    /// Y for a store-type instruction: D directly or through a P chain.
    fn write_y(&mut self) -> u32 {
        if self.r.chance(25) {
            0o10000 | (P + self.r.below(P_LEN))
        } else {
            D + self.r.below(D_LEN)
        }
    }

    fn jump_y(&mut self) -> u32 {
        if self.r.chance(25) {
            0o10000 | (J + self.r.below(J_LEN))
        } else {
            self.target()
        }
    }

    /// One random non-IOT instruction.
    fn instruction(&mut self) -> u32 {
        let r = &mut *self.r;
        match r.below(100) {
            // and ior xor lac lio add sub sad sas mul/mus div/dis
            0..=37 => {
                let op = r.pick(&[
                    0o01, 0o02, 0o03, 0o10, 0o11, 0o20, 0o21, 0o24, 0o25, 0o26, 0o27,
                ]);
                (op << 13) | self.read_y()
            }
            // dac dap dip dio dzm idx isp
            38..=53 => {
                let op = r.pick(&[0o12, 0o13, 0o14, 0o15, 0o16, 0o22, 0o23]);
                (op << 13) | self.write_y()
            }
            54..=57 => (0o04 << 13) | (X + r.below(X_LEN)), // xct
            58..=63 => (0o30 << 13) | self.jump_y(),        // jmp
            64..=65 => (0o31 << 13) | self.jump_y(),        // jsp
            66 => {
                // cal (Y ignored); in extend mode jda 100, which SIMH's cal is.
                let y = r.below(0o10000);
                if self.extend {
                    0o170_100
                } else {
                    0o160_000 | y
                }
            }
            67..=68 => 0o170_000 | (JDA + JDA_LEN * r.below(JDA_SUBS)), // jda
            // skip: any condition bits except bit 6 (sni, PDP-1D only)
            69..=78 => 0o640_000 | (r.word() & 0o013_777),
            // shift/rotate: the 12 defined sub-codes, rarely an undefined one
            79..=86 => {
                let sub = if r.chance(2) {
                    r.pick(&[0o0, 0o4, 0o10, 0o14])
                } else {
                    r.pick(&[
                        0o1, 0o2, 0o3, 0o5, 0o6, 0o7, 0o11, 0o12, 0o13, 0o15, 0o16, 0o17,
                    ])
                };
                0o660_000 | (sub << 9) | r.below(0o1000)
            }
            87..=89 => 0o700_000 | r.below(0o20000), // law, law i
            // operate: cli lat cma cla lap and the flag bits; hlt rarely; not the PDP-1D bits
            90..=98 => {
                let mut w = 0o760_000 | (r.word() & 0o007_717);
                if !r.chance(3) {
                    w &= !0o400;
                }
                w
            }
            // undefined opcodes 00, 05, 06, 17, 36 (rarely: each one ends the program)
            _ if r.chance(30) => (r.pick(&[0o00, 0o05, 0o06, 0o17, 0o36]) << 13) | r.below(0o20000),
            _ => 0o700_000 | r.below(0o20000),
        }
    }

    fn jmp_to_code(&mut self) -> u32 {
        let t = CODE + self.r.below(CODE_LEN - 2);
        0o600_000 | t
    }
}

/// Build the program for `seed`.
pub fn program(seed: u64) -> Program {
    let mut r = Rng::new(seed);
    let setup = Setup {
        mdv: r.chance(50),
        memory_words: if r.chance(30) { 8192 } else { 4096 },
    };
    let extend = setup.memory_words > 4096 && r.chance(50);
    // Half the subroutines return the usual way: their first word is `dap exit`, storing the
    // return address (the AC that jda/cal left) into the first of the two closing jmps.
    // Such a first word is never a jump target, so the AC it sees is always a return word.
    let dap_return: Vec<bool> = (0..=JDA_SUBS).map(|_| r.chance(50)).collect();
    let cal_dap = dap_return[JDA_SUBS as usize];
    let mut targets: Vec<u32> = (CODE..CODE + CODE_LEN).collect();
    for k in 0..JDA_SUBS {
        let s = JDA + k * JDA_LEN;
        targets.extend(s + 1 + u32::from(dap_return[k as usize])..s + 6);
    }
    targets.extend(CAL_BODY + u32::from(cal_dap)..CAL_BODY + 7);
    let mut g = Gen {
        r: &mut r,
        targets,
        extend,
    };
    let mut img: BTreeMap<u32, u32> = BTreeMap::new();

    // Code: main, cal subroutine, jda subroutines; bodies end in two jmps into main code.
    for a in CODE..CODE + CODE_LEN - 2 {
        img.insert(a, g.instruction());
    }
    for a in CODE + CODE_LEN - 2..CODE + CODE_LEN {
        img.insert(a, g.jmp_to_code());
    }
    img.insert(CAL_SLOT, data(g.r));
    for a in CAL_BODY..CAL_BODY + 7 {
        img.insert(a, g.instruction());
    }
    if cal_dap {
        img.insert(CAL_BODY, 0o260_000 | (CAL_BODY + 7));
    }
    for a in CAL_BODY + 7..CAL_BODY + 9 {
        img.insert(a, g.jmp_to_code());
    }
    for k in 0..JDA_SUBS {
        let s = JDA + k * JDA_LEN;
        img.insert(s, data(g.r));
        for a in s + 1..s + 6 {
            img.insert(a, g.instruction());
        }
        if dap_return[k as usize] {
            img.insert(s + 1, 0o260_000 | (s + 6));
        }
        img.insert(s + 6, g.jmp_to_code());
        img.insert(s + 7, g.jmp_to_code());
    }
    for a in X..X + X_LEN {
        img.insert(a, g.instruction());
    }
    for a in D..D + D_LEN {
        img.insert(a, data(g.r));
    }
    // Pointers: mostly acyclic chains (i=1 points further up the pool), rarely anywhere in
    // the pool so that loops reach the simulators' indirect limit now and then.
    let r = &mut *g.r;
    for k in 0..P_LEN {
        let upper = r.word() & 0o760_000;
        let w = if extend {
            (r.below(2) << 12) | (D + r.below(D_LEN))
        } else if r.chance(35) && (k + 1 < P_LEN || r.chance(5)) {
            let next = if r.chance(3) {
                r.below(P_LEN)
            } else {
                r.range((k + 1).min(P_LEN - 1), P_LEN - 1)
            };
            upper | 0o10000 | (P + next)
        } else {
            upper | (D + r.below(D_LEN))
        };
        img.insert(P + k, w);
    }
    let code_targets = g.targets.clone();
    let r = &mut *g.r;
    for k in 0..J_LEN {
        let t = code_targets[r.below(code_targets.len() as u32) as usize];
        let w = if extend {
            (r.below(2) << 12) | t
        } else if r.chance(30) && k + 1 < J_LEN {
            (r.word() & 0o760_000) | 0o10000 | (J + r.range(k + 1, J_LEN - 1))
        } else {
            (r.word() & 0o760_000) | t
        };
        img.insert(J + k, w);
    }

    let field = if setup.memory_words > 4096 && (extend || r.chance(50)) {
        0o10000
    } else {
        0
    };
    let mut words = BTreeMap::new();
    let fields: &[u32] = if extend {
        &[0, 0o10000]
    } else {
        std::slice::from_ref(&field)
    };
    for &f in fields {
        for (&a, &w) in &img {
            words.insert(f | a, w);
        }
    }
    let start_field = if extend { r.below(2) << 12 } else { field };
    Program {
        seed,
        setup,
        words,
        ac: data(r),
        io: data(r),
        pc: start_field | (CODE + r.below(8)),
        ov: r.chance(30),
        pf: r.below(0o100) as u8,
        ss: r.below(0o100) as u8,
        tw: data(r),
        extend,
        steps: u64::from(if r.chance(10) {
            r.range(120, 2000)
        } else {
            r.range(1, 120)
        }),
    }
}

/// A random program with in-out transfers, for the cycle-by-cycle comparison with aap's
/// pulse-level model (`aap.rs`, issue 31): [`program`]'s image, with device IOTs put into its
/// main code, a prologue that starts the devices, and sequence-break routines that serve
/// and restart them, so that completions and break requests fall at every phase of every
/// instruction the random code mixes.
///
/// ```text
/// 0000–0077   break vectors: 3 (one channel) or 4n+3 (Type 120 channel n): jmp to a routine
/// 0600–0677   break routines, field 0: rrb (reader), restart the device, lio/lac, jmp i
/// 0700–0717   prologue, in the start field: asc per channel, first device IOTs, jmp start
/// ```
#[derive(Clone, Debug)]
pub struct IoProgram {
    /// "break" (one channel), "break16" (Type 120) or "wait" (waiting IOTs, no breaks).
    pub kind: &'static str,
    pub prog: Program,
    pub sbm: bool,
    pub sbs16: bool,
    /// The reader's tape.
    pub tape: Vec<u8>,
    /// Memory cycles to run.
    pub cycles: u64,
}

/// Break routines' area and the prologue (see [`IoProgram`]).
pub const ROUTINES: u32 = 0o600;
pub const PROLOGUE: u32 = 0o700;

/// The devices a break routine restarts, with the IOT that starts one without a wait, and
/// their Type 120 channels (aap's wiring, as pdp1-core's).
const REARM: [(u32, u32); 5] = [
    (0o720_001, 1), // rpa
    (0o720_002, 1), // rpb
    (0o720_005, 6), // ppa
    (0o720_006, 6), // ppb
    (0o720_003, 8), // tyo
];

/// The memory cycles a program with device IOT `iot` runs: a few completions of the device.
fn io_cycles(iot: u32) -> u64 {
    match iot & 0o77 {
        0o03 => 24_000, // typewriter: 105–205 ms a character
        0o05 | 0o06 => 8_000,
        _ => 5_000,
    }
}

/// The program for `seed` of kind "break", "break16" or "wait".
pub fn io_program(seed: u64, kind: &'static str) -> IoProgram {
    let mut prog = program(seed);
    let mut r = Rng::new(seed ^ 0xA11_0000_0000);
    let sbs16 = kind == "break16";
    let start = prog.pc;
    let field = start & 0o170_000;
    let fields: Vec<u32> = prog
        .words
        .keys()
        .map(|a| a & 0o170_000)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    // A tape that outlasts the run (2.5 ms a line, 120 ms at most): the model's device
    // service returns early in the cycle its tape runs out, skipping the other devices.
    let mut tape = Vec::new();
    for _ in 0..64 {
        tape.push(if r.chance(60) { 0o200 } else { 0 } | r.below(0o200) as u8);
    }
    // The devices the breaks serve: one with one channel, several on the Type 120 (each on
    // its channel), plus `isb` channels with empty routines.
    let mut devices: Vec<(u32, u32)> = Vec::new();
    let mut isb: Vec<u32> = Vec::new();
    let mut cycles = 5_000;
    if kind != "wait" {
        if sbs16 {
            for &(iot, ch) in &REARM {
                if r.chance(40) && !devices.iter().any(|&(_, c)| c == ch) {
                    devices.push((iot, ch));
                }
            }
            isb = (0..16)
                .filter(|c| ![1, 6, 7, 8].contains(c))
                .filter(|_| r.chance(25))
                .collect();
        } else {
            devices.push(r.pick(&REARM));
        }
        cycles = devices
            .iter()
            .map(|&(iot, _)| io_cycles(iot))
            .max()
            .unwrap_or(5_000);
    }
    let mut w = |a: u32, v: u32| {
        prog.words.insert(a, v);
    };
    // Break vectors and routines (field 0).
    let mut at = ROUTINES;
    let chans: Vec<(Option<u32>, u32)> = devices
        .iter()
        .map(|&(iot, ch)| (Some(iot), ch))
        .chain(isb.iter().map(|&ch| (None, ch)))
        .collect();
    for &(iot, ch) in &chans {
        let base = if sbs16 { 4 * ch } else { 0 };
        w(base + 3, 0o600_000 | at);
        if iot.is_some_and(|i| i & 0o77 <= 2) {
            w(at, 0o720_030); // rrb
            at += 1;
        }
        if let Some(i) = iot {
            w(at, i);
            at += 1;
        }
        w(at, 0o220_000 | (base + 2)); // lio
        w(at + 1, 0o200_000 | base); // lac
        w(at + 2, 0o610_000 | (base + 1)); // jmp i
        at += 3;
    }
    // Prologue: activate the channels, start the devices, jump to the program.
    let mut at = field | PROLOGUE;
    if sbs16 {
        for &(_, ch) in &chans {
            w(at, 0o720_051 | (ch << 6)); // asc
            at += 1;
        }
    }
    for &(iot, _) in &devices {
        w(at, iot);
        at += 1;
    }
    w(at, 0o600_000 | (start & 0o7777));
    // IOTs in the main code (every copy of it): waiting and not, and the break controls.
    let mut menu: Vec<(u32, u32)> = vec![(0o730_007, 6), (0o720_007, 2), (0o720_033, 3)];
    if kind == "wait" {
        menu.extend([
            (0o730_001, 3),
            (0o730_002, 2),
            (0o720_030, 1),
            (0o730_005, 2),
            (0o730_006, 1),
        ]);
        if r.chance(15) {
            menu.push((0o730_003, 1));
            cycles = 24_000;
        }
    } else {
        menu.push((0o720_055, 1)); // esm
        if r.chance(20) {
            menu.push((0o720_054, 1)); // lsm
        }
        for &ch in &isb {
            menu.push((0o720_052 | (ch << 6), 2));
        }
    }
    let total: u32 = menu.iter().map(|&(_, n)| n).sum();
    for k in 0..CODE_LEN - 2 {
        if !r.chance(12) {
            continue;
        }
        let mut x = r.below(total);
        let iot = menu
            .iter()
            .find(|&&(_, n)| {
                let hit = x < n;
                x = x.wrapping_sub(n);
                hit
            })
            .map(|&(i, _)| i)
            .unwrap_or(0o720_033);
        for &f in &fields {
            w(f | (CODE + k), iot);
        }
    }
    prog.pc = field | PROLOGUE;
    IoProgram {
        kind,
        prog,
        sbm: kind != "wait" || r.chance(30),
        sbs16,
        tape,
        cycles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_reproducible_and_contain_no_iot() {
        for seed in 0..200 {
            let a = program(seed);
            let b = program(seed);
            assert_eq!(a.words, b.words);
            for (&addr, &w) in &a.words {
                let a12 = addr & 0o7777;
                let is_code = (CODE..CODE + CODE_LEN).contains(&a12)
                    || (X..X + X_LEN).contains(&a12)
                    || (CAL_BODY..CAL_BODY + 9).contains(&a12)
                    || ((JDA..JDA + JDA_SUBS * JDA_LEN).contains(&a12)
                        && !(a12 - JDA).is_multiple_of(JDA_LEN));
                if is_code {
                    assert_ne!(w >> 13, 0o35, "IOT generated at {addr:o} (seed {seed})");
                }
            }
        }
    }
}
