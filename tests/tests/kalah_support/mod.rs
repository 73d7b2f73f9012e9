//! Driving roms/kalah.rim on the emulated machine, for the kalah_* tests.
//!
//! The program is read in from roms/kalah.rim (the BLK tape assembled from roms/kalah.mac). The harness stops it
//! with a breakpoint at `wt`, the top of its waiting loop (display one frame, poll the keyboard
//! flag): when the machine is there, everything a command caused has been typed.
//!
//! Positions are set up through the program's documented test entry: the 16-word block at
//! 0040–0057 (Russell's board layout a6..a1 Ka b6..b1 Kb, side to move, moves into the game)
//! is copied to the board when a restart (carriage return) finds test-word bit 2 (100000) on.
#![allow(dead_code)]

use kalah::{Board, Side};
use pdp1_asm::Assembly;
use pdp1_core::{DisplayPoint, Limit, Machine, MachineConfig, StopReason, Word};
use std::path::PathBuf;

pub const TW_ANALYSIS: u32 = 0o400000;
pub const TW_SHORT_LOOK: u32 = 0o200000;
pub const TW_SETUP: u32 = 0o100000;
/// Test-word bit 3: Russell's analysis program.
pub const TW_RUSSELL: u32 = 0o040000;
/// Sense switches 3–6 (SS1 = 040 … SS6 = 001).
pub const SS3: u8 = 0o010;
pub const SS4: u8 = 0o004;
pub const SS5: u8 = 0o002;
pub const SS6: u8 = 0o001;

/// FIO-DEC codes the tests type.
pub const SPACE: u8 = 0o00;
pub const CR: u8 = 0o77;

pub fn roms() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../roms")
}

/// The program as its sources assemble: the files roms/kalah.files names, in order.
pub fn assembly() -> Assembly {
    assembly_of("kalah.files")
}

/// The assembly of the files the list `roms/<list>` names, in order.
pub fn assembly_of(list: &str) -> Assembly {
    let files = pdp1_asm::read_source_list(&roms().join(list))
        .unwrap_or_else(|e| panic!("roms/{list}: {e}"));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    pdp1_asm::assemble_files(&files).unwrap_or_else(|d| panic!("{d}"))
}

pub struct Program {
    pub m: Machine,
    pub asm: Assembly,
    wt: u32,
}

/// The test word for depth `depth`, `stones` per pit and option bits.
pub fn test_word(depth: u32, stones: u32, options: u32) -> u32 {
    (depth & 0o17) | ((stones & 0o7) << 4) | options
}

impl Program {
    /// READ IN the tape with test word `tw` and sense switches `ss`; run to the waiting loop.
    pub fn boot(tw: u32, ss: u8) -> Program {
        Program::boot_tape("kalah.files", "kalah.rim", tw, ss)
    }

    /// [`Program::boot`] for another Kalah program: `roms/<tape>`, assembled from the files
    /// `roms/<list>` names (for its symbols).
    pub fn boot_tape(list: &str, tape: &str, tw: u32, ss: u8) -> Program {
        Program::boot_tape_on(list, tape, tw, ss, MachineConfig::default())
    }

    /// [`Program::boot_tape`] on the machine `config` (Bell's program needs 64K).
    pub fn boot_tape_on(list: &str, tape: &str, tw: u32, ss: u8, config: MachineConfig) -> Program {
        let asm = assembly_of(list);
        let tape = std::fs::read(roms().join(tape)).unwrap_or_else(|e| panic!("roms/{tape}: {e}"));
        let mut m = Machine::new(config).unwrap();
        m.set_test_word(Word::new(tw));
        m.set_sense_switches(ss);
        m.mount_tape(tape);
        let wt = asm.symbols.value_of("wt").expect("symbol wt");
        m.add_breakpoint(wt);
        m.read_in();
        let mut p = Program { m, asm, wt };
        p.run_to_wait();
        p
    }

    pub fn sym(&self, name: &str) -> u32 {
        self.asm
            .symbols
            .value_of(name)
            .unwrap_or_else(|| panic!("symbol {name}"))
    }

    /// Run until the program is back at `wt` (at most 100 hours of emulated time: the 7×7
    /// program with 15 seeds a pit and the short look at depth 6 may search 2 million positions,
    /// more than 2 hours of a PDP-1's time, and deepening, each depth searched alone, one of the
    /// long run's searches took more than 6 hours; a program that never comes back costs a few
    /// minutes of host time).
    pub fn run_to_wait(&mut self) {
        if self.m.pc() == self.wt {
            let r = self.m.step_instruction();
            assert!(matches!(r, StopReason::Stepped), "step: {r:?}");
        }
        let limit = Limit {
            until_ns: Some(self.m.time_ns() + 360_000_000_000_000),
            instructions: None,
        };
        let r = self.m.run_until(limit);
        assert_eq!(
            r,
            StopReason::Breakpoint(self.wt),
            "program did not come back to wait"
        );
    }

    /// Strike a key and run until the program waits again.
    pub fn key(&mut self, code: u8) {
        self.m.strike_key(code);
        self.run_to_wait();
    }

    /// Strike the keys for `text` (digits, space, `\n` = carriage return, other letters).
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            let (code, _) = pdp1_core::fiodec::from_char(c).expect("typable");
            self.key(code);
        }
    }

    /// The paper since the last call, in ASCII: backspace as `\u{8}`, carriage return as `\n`.
    pub fn paper(&mut self) -> String {
        self.m
            .drain_typewriter()
            .iter()
            .filter_map(Program::paper_char)
            .collect()
    }

    /// A typewriter event as [`Program::paper`] shows it (none for a case shift or ribbon).
    pub fn paper_char(e: &pdp1_core::TypeEvent) -> Option<char> {
        match e.code {
            0o75 => Some('\u{8}'),
            0o77 => Some('\n'),
            c => pdp1_core::fiodec::to_ascii(c, e.upper),
        }
    }

    /// One display frame: the points plotted from `wt` back to `wt`.
    pub fn frame(&mut self) -> Vec<DisplayPoint> {
        self.m.drain_display();
        self.run_to_wait();
        self.m.drain_display()
    }

    /// Set up `b` (`ply` moves into the game) by the test entry, with test word `tw`.
    pub fn set_position(&mut self, b: &Board, ply: u32, tw: u32) {
        for (i, &c) in b.cells.iter().enumerate() {
            self.m.write(0o40 + i as u32, Word::new(c as u32)).unwrap();
        }
        let side = if b.to_move == Side::A { 0 } else { 1 };
        self.m.write(0o56, Word::new(side)).unwrap();
        self.m.write(0o57, Word::new(ply)).unwrap();
        self.m.set_test_word(Word::new(tw | TW_SETUP));
        self.key(CR);
    }

    /// The program's board (its memory), as an engine Board.
    pub fn board(&self) -> Board {
        let bd = self.sym("bd");
        let mut b = Board::new(0);
        for i in 0..14 {
            b.cells[i] = self.m.read(bd + i as u32).unwrap().bits() as u8;
        }
        b.to_move = if self.m.read(bd + 14).unwrap().bits() == 0 {
            Side::A
        } else {
            Side::B
        };
        b
    }
}

/// The 3×5 font of docs/kalah.md, rows top to bottom (`#` = point); index 10 is "+".
pub const FONT: [[&str; 5]; 11] = [
    ["###", "#.#", "#.#", "#.#", "###"],
    [".#.", "##.", ".#.", ".#.", "###"],
    ["###", "..#", "###", "#..", "###"],
    ["###", "..#", "###", "..#", "###"],
    ["#.#", "#.#", "###", "..#", "..#"],
    ["###", "#..", "###", "..#", "###"],
    ["###", "#..", "###", "#.#", "###"],
    ["###", "..#", "..#", "..#", "..#"],
    ["###", "#.#", "###", "#.#", "###"],
    ["###", "#.#", "###", "..#", "###"],
    ["...", ".#.", "###", ".#.", "..."],
];

/// Add the points of glyph `g` with its lower-left corner at (x, y); points are `unit` units
/// apart (the program's `chs`: 12 in the 6-pit game, 6 in the 7-pit one).
pub fn glyph(
    points: &mut std::collections::BTreeMap<(i16, i16), u32>,
    g: usize,
    x: i16,
    y: i16,
    unit: i16,
) {
    for (r, row) in FONT[g].iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '#' {
                *points
                    .entry((x + unit * c as i16, y + unit * (4 - r as i16)))
                    .or_default() += 1;
            }
        }
    }
}

/// The figures of an analysis line `e<e>p<p>v<v>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub e: u64,
    pub p: u64,
    pub v: i32,
}

/// Find the last analysis line in `text`.
pub fn parse_analysis(text: &str) -> Option<Analysis> {
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with('e') && l.contains('p') && l.contains('v'))?;
    let rest = line.strip_prefix('e')?;
    let (e, rest) = rest.split_once('p')?;
    let (p, v) = rest.split_once('v')?;
    Some(Analysis {
        e: e.parse().ok()?,
        p: p.parse().ok()?,
        v: v.trim().parse().ok()?,
    })
}

/// A small deterministic generator (SplitMix64) for reproducible random play.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random reachable position: random legal play (up to 39 sowings) from an opening of 1–6
/// stones per pit. Returns the board, the sowings made and the stones per pit; `None` if a
/// move ended the game on the way.
pub fn random_play(rng: &mut Rng) -> Option<(Board, u32, u8)> {
    let stones = 1 + rng.below(6) as u8;
    let mut b = Board::new(stones);
    let len = rng.below(40) as u32;
    for _ in 0..len {
        let moves = b.legal_moves();
        if moves.is_empty() {
            return None;
        }
        b.play(moves[rng.below(moves.len() as u64) as usize])
            .unwrap();
    }
    Some((b, len, stones))
}
