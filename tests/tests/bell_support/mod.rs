//! Driving roms/bell.rim (Bell's learning Kalah, issue 13) beside the reference learner
//! `kalah::bell::Bell`, for the bell_* tests.
//!
//! The PDP-1 program keeps the library's board (a6 … a1 Ka b6 … b1 Kb): the person is the lower
//! player a, the machine the upper player b (Bell's Figure 2: the machine plays the top row).
//! The reference's machine is `Side::A`, so the boards compare with their halves exchanged.
#![allow(dead_code)]

use crate::kalah_support::{Program, Rng, CR, SPACE};
use kalah::bell::{self, Bell, DecGame, DecOpponent, Game, Options, Outcome, Say, MACHINE, PERSON};
use kalah::{choose, Board, Settings};
use pdp1_core::{MachineConfig, Word};
use std::collections::{BTreeMap, HashMap};

pub const TW_ANALYSIS: u32 = 0o400000;
/// Test-word bit 1: one part (the memory unsplit), taken while the memory is empty.
pub const TW_UNSPLIT: u32 = 0o200000;
pub const TW_SETUP: u32 = 0o100000;
/// Test-word bit 3: no characteristics (the reference's `Options::plain()`).
pub const TW_PLAIN: u32 = 0o040000;

/// The reference learner's options for the PDP-1 program's memory (no parameters yet):
/// split or one part, with or without characteristics.
pub fn options(split: bool, characteristics: bool) -> Options {
    Options {
        split,
        characteristics,
        parameters: false,
        ..Options::default()
    }
}

/// The test word for the same (with the analysis line, without the parameters).
pub fn test_word(split: bool, characteristics: bool) -> u32 {
    TW_ANALYSIS
        | TW_NO_PARAMETERS
        | if split { 0 } else { TW_UNSPLIT }
        | if characteristics { 0 } else { TW_PLAIN }
}

/// Test-word bit 5: no parameters; bit 6: draws count as wins (Bell's error).
pub const TW_NO_PARAMETERS: u32 = 0o010000;
pub const TW_DRAWS_AS_WINS: u32 = 0o004000;
/// Test-word bit 7: characteristics by index (the reference's `Options::characteristic_index`,
/// `Table::indexed`), taken while the memory is empty.
pub const TW_INDEX: u32 = 0o002000;
/// Test-word bit 8: Figure 6's relations for both sides, judged after the turn, in place of the
/// parameters (the reference's fixed `Parameters::figure_6_both_sides()` with
/// `Judged::AfterTurn`; with bit 5, no parameters learnt).
pub const TW_FIGURE_6_AFTER: u32 = 0o001000;

/// Test-word bit 9: a loss recorded as the person's wins, positions with the person to move
/// looked up from his side (the reference's `Options::loss_characteristics`).
pub const TW_LOSS_CHARACTERISTICS: u32 = 0o000400;

/// Test-word bit 10: Bell's own look-ahead, neither the floor nor the bound on its positions
/// ([`bells_look_ahead`]).
pub const TW_BELLS_LOOK_AHEAD: u32 = 0o000200;

/// The reference's options for test-word bit 10 ([`TW_BELLS_LOOK_AHEAD`]) over `o`: no
/// `Options::floor`, no `Options::budget`, no `Options::cap`.
pub fn bells_look_ahead(o: Options) -> Options {
    Options {
        budget: None,
        cap: None,
        floor: false,
        ..o
    }
}

/// The reference's options and the test word over `o` and `tw` for the program with `n` in its
/// word `bgt` ([`deposit_bound`]; the bound and the cap both, `Options::budget` and
/// `Options::cap`), or with test-word bit 10 when `None` ([`bells_look_ahead`]).
pub fn bound(o: Options, tw: u32, n: Option<u32>) -> (Options, u32) {
    match n {
        None => (bells_look_ahead(o), tw | TW_BELLS_LOOK_AHEAD),
        Some(_) => (
            Options {
                budget: n,
                cap: n,
                ..o
            },
            tw,
        ),
    }
}

/// Deposit `n` into the program's word `bgt`, the bound on a look-ahead's positions and its cap
/// ([`bound`] gives the reference the same).
pub fn deposit_bound(k: &mut Program, n: u32) {
    let bgt = k.sym("bgt");
    k.m.write(bgt, Word::new(n)).unwrap();
}

/// The reference's options for test-word bit 8 ([`TW_FIGURE_6_AFTER`]) over `o`.
pub fn figure_6_after(o: Options) -> Options {
    Options {
        fixed_parameters: Some(bell::Parameters {
            judged: bell::Judged::AfterTurn,
            ..bell::Parameters::figure_6_both_sides()
        }),
        parameters: false,
        ..o
    }
}

/// The reference's options and the test word with the parameters learnt from the records (the
/// program's default, as the reference's `Options::default()`).
pub fn with_parameters(split: bool, draws_as_wins: bool) -> (Options, u32) {
    (
        Options {
            split,
            draws_as_wins,
            ..Options::default()
        },
        (test_word(split, true) & !TW_NO_PARAMETERS)
            | if draws_as_wins { TW_DRAWS_AS_WINS } else { 0 },
    )
}

/// The characteristics in windows of their own (slots past the list), over all parts: none
/// unless they are found by index (test-word bit 7, `Options::characteristic_index`).
pub fn indexed_characteristics(r: &Bell) -> usize {
    r.memory
        .parts
        .iter()
        .flat_map(|t| t.entries())
        .filter(|(s, e)| *s >= bell::LIST && e.is_characteristic())
        .count()
}

/// The PDP-1 program's parameters equal the reference's near-wins (Mk 10–19).
pub fn assert_parameters(k: &Program, r: &Bell, ctx: &str) {
    let nwt = k.sym("nwt");
    for m in 10..20u32 {
        let w = k.m.read(nwt + m - 10).unwrap().bits();
        let got = (w & 0o400000 == 0).then_some(w as u8);
        assert_eq!(
            got, r.params.near_win[m as usize],
            "near-win at Mk {m}; {ctx}"
        );
    }
}

/// The machine Bell's program needs: 64K (the memory's eleven parts in fields 1–14).
pub fn machine() -> MachineConfig {
    MachineConfig {
        memory_words: 65536,
        ..MachineConfig::default()
    }
}

pub fn boot(tw: u32) -> Program {
    Program::boot_tape_on("bell.files", "bell.rim", tw, 0, machine())
}

/// The program's board as the reference's (machine = `Side::A`).
pub fn board(k: &Program) -> Board {
    let bd = k.sym("bd");
    let mut b = Board::new(0);
    for i in 0..14 {
        let w = k.m.read(bd + i as u32).unwrap().bits() as u8;
        b.cells[(i + 7) % 14] = w;
    }
    b.to_move = if k.m.read(bd + 14).unwrap().bits() == 1 {
        MACHINE
    } else {
        PERSON
    };
    b
}

/// Set up `b` (reference orientation) by the test entry.
pub fn set_position(k: &mut Program, b: &Board, tw: u32) {
    for i in 0..14 {
        k.m.write(0o40 + i as u32, Word::new(b.cells[(i + 7) % 14] as u32))
            .unwrap();
    }
    let side = if b.to_move == MACHINE { 1 } else { 0 };
    k.m.write(0o56, Word::new(side)).unwrap();
    k.m.write(0o57, Word::new(0)).unwrap();
    k.m.set_test_word(Word::new(tw | TW_SETUP));
    k.key(CR);
    k.paper();
}

pub fn key(k: &mut Program, code: u8) -> String {
    key_timed(k, code, false)
}

/// Look-aheads of at least this many positions are timed instruction by instruction when the
/// turns are recorded ([`MACHINE_TURNS`]), for the time in the memory's code.
pub const MEMORY_TIME_FROM: u64 = 500;

/// The machine's turn: [`key`] with a space, after the reference's turn `mv`.
pub fn machine_key(k: &mut Program, mv: &bell::MachineMove) -> String {
    let recorded = MACHINE_TURNS.with(|t| t.borrow().is_some());
    key_timed(k, SPACE, recorded && mv.effort >= MEMORY_TIME_FROM)
}

/// [`key`]; `step`: run instruction by instruction, timing field 16's memory code.
fn key_timed(k: &mut Program, code: u8, step: bool) -> String {
    let t0 = k.m.time_ns();
    let mut memory_ns = None;
    if step {
        let (wt, mut ns) = (k.sym("wt"), 0);
        let profiling = PROFILE.with(|p| p.borrow().is_some());
        let mut by_pc = if profiling {
            ByPc::new()
        } else {
            ByPc(Vec::new())
        };
        k.m.strike_key(code);
        loop {
            let (pc, t) = (k.m.pc(), k.m.time_ns());
            k.m.step_instruction();
            let dt = k.m.time_ns() - t;
            if pc >= 0o10000 {
                ns += dt;
            }
            if profiling {
                by_pc.add(pc, dt);
            }
            if k.m.pc() == wt {
                break;
            }
        }
        memory_ns = Some(ns);
        if profiling {
            let turn_ns = k.m.time_ns() - t0;
            PROFILE.with(|p| {
                if let Some(p) = p.borrow_mut().as_mut() {
                    p.add(turn_ns, by_pc);
                }
            });
        }
    } else {
        k.key(code);
    }
    let events = k.m.drain_typewriter();
    let chars: Vec<(char, u64)> = events
        .iter()
        .filter_map(|e| Some((Program::paper_char(e)?, e.time_ns - t0)))
        .collect();
    let typed: String = chars.iter().map(|c| c.0).collect();
    if code == SPACE {
        MACHINE_TURNS.with(|t| {
            if let Some(v) = t.borrow_mut().as_mut() {
                v.push(TurnTime {
                    ns: k.m.time_ns() - t0,
                    answer_ns: answer_ns(&typed, &chars),
                    memory_ns,
                    typed: typed.clone(),
                    think_ns: chars
                        .iter()
                        .find(|c| c.0 != ' ' && c.0 != '\u{8}')
                        .map_or(0, |c| c.1),
                });
            }
        });
    }
    typed
}

/// When the machine's answer was typed: the last character, but after a resignation the end
/// of `i resign` and of the analysis line, not the lines the back-track analysis types after
/// them (issue 29: the analysis follows the resignation).
fn answer_ns(typed: &str, chars: &[(char, u64)]) -> u64 {
    let end = typed.find("i resign\n").map(|i| {
        let after = i + "i resign\n".len();
        match typed[after..].strip_prefix('e') {
            Some(rest) => after + 1 + rest.find('\n').map_or(rest.len(), |n| n + 1),
            None => after,
        }
    });
    let n = end.unwrap_or(chars.len());
    n.checked_sub(1)
        .and_then(|i| chars.get(i))
        .map_or(0, |c| c.1)
}

/// A machine turn's emulated time: from the key (a space) to the program's next wait for a
/// key (`ns`, its typing included), to the last character of its answer (`answer_ns`), in
/// field 16 (`memory_ns`, the memory's look-up and store; timed from [`MEMORY_TIME_FROM`]
/// positions on), and what it typed; `think_ns`, to its first character after the key's echo
/// (the space and backspace): the look-ahead's time, before any typing of the answer.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TurnTime {
    pub ns: u64,
    pub answer_ns: u64,
    pub memory_ns: Option<u64>,
    pub typed: String,
    pub think_ns: u64,
}

thread_local! {
    /// When `Some`, every machine turn [`key`] strikes (a space) is recorded. For the
    /// thinking-time figures of docs/bell.md.
    pub static MACHINE_TURNS: std::cell::RefCell<Option<Vec<TurnTime>>> =
        const { std::cell::RefCell::new(None) };
}

/// Time and instructions by address (16 bits) over one or more machine turns.
pub struct ByPc(pub Vec<(u64, u64)>);

impl ByPc {
    pub fn new() -> ByPc {
        ByPc(vec![(0, 0); 1 << 16])
    }

    /// The instruction at `pc` took `ns`.
    pub fn add(&mut self, pc: u32, ns: u64) {
        let e = &mut self.0[pc as usize & 0o177777];
        e.0 += ns;
        e.1 += 1;
    }

    /// The time by routine (the label at or before each address, `labels`), most first: the
    /// label, its time, its instructions and the times its own address was reached (its calls,
    /// and the loops that go back to it).
    pub fn by_label<'a>(&self, labels: &'a BTreeMap<u32, String>) -> Vec<(&'a str, u64, u64, u64)> {
        let mut by: HashMap<&str, (u64, u64, u64)> = HashMap::new();
        for (pc, &(ns, n)) in self.0.iter().enumerate().filter(|e| e.1 .1 > 0) {
            let pc = pc as u32;
            let (label, reached) = labels
                .range(..=pc)
                .next_back()
                .map_or(("?", false), |l| (l.1.as_str(), *l.0 == pc));
            let e = by.entry(label).or_default();
            e.0 += ns;
            e.1 += n;
            e.2 += if reached { n } else { 0 };
        }
        let mut by: Vec<_> = by.into_iter().map(|(l, e)| (l, e.0, e.1, e.2)).collect();
        by.sort_by_key(|l| std::cmp::Reverse(l.1));
        by
    }

    /// The presence filter's work (issue 29, roms/bell-mem.mac): the look-ups past the list
    /// (`zhb` reached), those the filter let through to the windows (`zb2`: the board's bits set,
    /// or the filter not consulted), and those that found nothing in the windows (`zl6`: the
    /// filter's answers and the scans that found nothing). Printed with the false positives: of
    /// the look-ups whose board no window holds, the share whose bits were set all the same.
    pub fn print_filter(&self, labels: &BTreeMap<u32, String>) {
        let reached = |name: &str| {
            self.by_label(labels)
                .into_iter()
                .find(|l| l.0 == name)
                .map_or(0, |l| l.3)
        };
        let (past, passed, nothing) = (reached("zhb"), reached("zb2"), reached("zl6"));
        let refused = past - passed;
        let false_positive = nothing.saturating_sub(refused);
        eprintln!(
            "  the filter: {past} look-ups past the list, {refused} answered by it, {passed} let \
             through ({} found nothing: {:.1} % of the {nothing} whose board no window holds)",
            false_positive,
            100.0 * false_positive as f64 / nothing.max(1) as f64
        );
    }

    /// Print the `top` routines by time (`by_label`), with the time's per cent of `total_ns`.
    pub fn print(&self, labels: &BTreeMap<u32, String>, total_ns: u64, top: usize) {
        eprintln!("  routine      time      %  instructions   reached");
        for (label, ns, n, reached) in self.by_label(labels).into_iter().take(top) {
            eprintln!(
                "  {label:8} {:8.3} s {:5.1} {n:12} {reached:9}",
                ns as f64 / 1e9,
                100.0 * ns as f64 / total_ns.max(1) as f64
            );
        }
    }
}

/// The machine turns profiled by routine (`BELL_BENCH_PROFILE=1`, bell_benchmark.rs): the
/// longest of those timed ([`MEMORY_TIME_FROM`] positions or more) and all of them together.
#[derive(Default)]
pub struct Profiles {
    /// The longest timed turn: its time and its profile.
    pub longest: Option<(u64, ByPc)>,
    /// Every timed turn's, added up, and their time.
    pub all: Option<ByPc>,
    pub all_ns: u64,
}

impl Profiles {
    fn add(&mut self, turn_ns: u64, by_pc: ByPc) {
        self.all_ns += turn_ns;
        let all = self.all.get_or_insert_with(ByPc::new);
        for (a, b) in all.0.iter_mut().zip(&by_pc.0) {
            a.0 += b.0;
            a.1 += b.1;
        }
        if self.longest.as_ref().is_none_or(|l| turn_ns > l.0) {
            self.longest = Some((turn_ns, by_pc));
        }
    }
}

thread_local! {
    /// When `Some`, the timed machine turns are profiled by routine into it.
    pub static PROFILE: std::cell::RefCell<Option<Profiles>> =
        const { std::cell::RefCell::new(None) };
}

pub fn result_line(b: &Board) -> String {
    let m = b.kalah(MACHINE) as u32 + b.pits_total(MACHINE);
    let p = b.kalah(PERSON) as u32 + b.pits_total(PERSON);
    match m.cmp(&p) {
        std::cmp::Ordering::Greater => format!("i win {m}-{p}\n"),
        std::cmp::Ordering::Less => format!("you win {p}-{m}\n"),
        std::cmp::Ordering::Equal => format!("draw {m}-{p}\n"),
    }
}

/// The address of part `part`'s slot `slot` in the PDP-1 memory: the parts from 10000 on,
/// [`bell::TABLE`] entries of four words apart (`ptb`).
pub fn slot_address(part: usize, slot: usize) -> u32 {
    0o10000 + (part * bell::TABLE + slot) as u32 * 4
}

/// The PDP-1 memory's words for part `part`, slot `slot`.
fn slot_words(k: &Program, part: usize, slot: usize) -> [u32; 4] {
    let a = slot_address(part, slot);
    std::array::from_fn(|i| k.m.read(a + i as u32).unwrap().bits())
}

/// The first word of the presence filter (issue 29; roms/bell-mem.mac, `zfi`): 1024 words of 16
/// bits at 160000–161777, one bit for every hash of a whole position in a window.
pub const FILTER: u32 = 0o160000;

/// A whole position's entry words (every pit marked, no minimum kalah, no pit held at least:
/// word 0's 377740 are 017740, words 2 and 3 mark P4–P1 in their top bits), as `zst` and `zwh`
/// tell one: its two bits in the filter, each as the word (its offset from [`FILTER`]) and the
/// mask, from the reference's hash word (`hash_word`: the words' pits exclusive or'ed, the
/// second rotated 5 bits and the third 11, with the kalah) and from that word rotated 7 bits:
/// of each, bits 4–13 the word, the low four bits exclusive or'ed with the top four the bit.
/// `None` for any other entry.
pub fn filter_bits(words: &[u32; 4]) -> Option<[(u32, u32); 2]> {
    use kalah::word18::rotl;
    let [w0, w1, w2, w3] = *words;
    if w0 & 0o377740 != 0o17740 || w2 & w3 & 0o600000 != 0o600000 {
        return None;
    }
    let pits = |w: u32| w & 0o177777;
    let zw = pits(w1) ^ rotl(pits(w2), 5) ^ rotl(pits(w3), 11) ^ (w0 & 0o37);
    let bit = |h: u32| ((h >> 4) & 0o1777, 1 << ((h ^ (h >> 14)) & 0o17));
    Some([bit(zw), bit(rotl(zw, 7))])
}

/// Write an entry's words into part `part`, slot `slot`, of the PDP-1 memory in place, as a test
/// plants one, and set its bits in the filter when it is a whole position in a window (the slots
/// past the list), as the program's store does.
pub fn write_entry(k: &mut Program, part: usize, slot: usize, words: [u32; 4]) {
    let a = slot_address(part, slot);
    for (i, w) in words.into_iter().enumerate() {
        k.m.write(a + i as u32, Word::new(w)).unwrap();
    }
    let bits = filter_bits(&words).filter(|_| slot >= bell::LIST);
    for (word, bit) in bits.into_iter().flatten() {
        let old = k.m.read(FILTER + word).unwrap().bits();
        k.m.write(FILTER + word, Word::new(old | bit)).unwrap();
    }
}

/// Field 16's routine `name` called as field 0 calls it (`jsp i` in extend mode, back by `jmp i`
/// through the ac): here back to `wt`, where the program waits; the ac it returns.
pub fn call_memory(k: &mut Program, name: &str) -> u32 {
    let wt = k.sym("wt");
    k.m.set_extend_mode(true);
    k.m.set_ac(Word::new(wt));
    k.m.set_pc(0o160000 + k.sym(name));
    let ac = run_back_to_wt(k, name);
    k.m.set_extend_mode(false);
    ac
}

/// A reference entry as the PDP-1 program stores it. Word 0: 400000 lost, 200000 the kalah a
/// minimum, 160000 the person's pit (1–6) that need only hold at least its nibble's count,
/// 017000 which of word 1's pits must agree (M6 M5 M4 M3), 000740 word 2's (M2 M1 P6 P5), the
/// machine's kalah; words 1–3 the pits four bits each, four to a word, and in the top two bits
/// of words 2 and 3 which of word 3's pits must agree (P4 P3, P2 P1).
pub fn entry_words(e: &bell::Entry) -> [u32; 4] {
    let holes = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12];
    let nib = |v: u64, i: usize| {
        let n = if i < 6 { i } else { i - 1 };
        ((v >> (4 * n)) & 0xf) as u32
    };
    let mut pit: Vec<u32> = holes.iter().map(|&i| nib(e.pits, i)).collect();
    let marked: Vec<u32> = holes
        .iter()
        .map(|&i| u32::from(nib(e.mask, i) != 0))
        .collect();
    let mut hole = 0;
    if let Some((i, min)) = e.at_least {
        hole = 13 - i as u32;
        let k = holes.iter().position(|&h| h == i as usize).unwrap();
        pit[k] = min as u32;
    }
    let group = |k: usize| (0..4).fold(0, |acc, j| (acc << 1) | marked[4 * k + j]);
    let word = |k: usize| (0..4).fold(0, |acc, j| (acc << 4) | pit[4 * k + j]);
    let (m1, m2, m3) = (group(0), group(1), group(2));
    let lost = if e.outcome == Outcome::Loss {
        0o400000
    } else {
        0
    };
    let min = if e.min_kalah { 0o200000 } else { 0 };
    [
        lost | min | hole << 13 | m1 << 9 | m2 << 5 | e.kalah as u32,
        word(0),
        word(1) | (m3 >> 2) << 16,
        word(2) | (m3 & 3) << 16,
    ]
}

/// The PDP-1 memory equals the reference's, slot for slot, and the back-track count.
pub fn assert_memory(k: &Program, r: &Bell, ctx: &str) {
    assert_entries(k, r, ctx);
    assert_eq!(corrected(k), r.stats.corrected, "corrections; {ctx}");
    let tov = k.m.read(k.sym("tov")).unwrap().bits();
    assert_eq!(tov, 0, "a list of turns overflowed; {ctx}");
    let bnc = k.m.read(k.sym("bnc")).unwrap().bits() as u64;
    assert_eq!(bnc, r.stats.backtrack_nodes, "back-track nodes; {ctx}");
}

/// The PDP-1 memory's entries equal the reference's, slot for slot.
pub fn assert_entries(k: &Program, r: &Bell, ctx: &str) {
    for (p, t) in r.memory.parts.iter().enumerate() {
        for slot in 0..t.size() {
            let want = t
                .entries()
                .find(|(s, _)| *s == slot)
                .map(|(_, e)| entry_words(e))
                .unwrap_or([0; 4]);
            assert_eq!(slot_words(k, p, slot), want, "part {p} slot {slot}; {ctx}");
        }
    }
    let nme = k.m.read(k.sym("nme")).unwrap().bits() as usize;
    assert_eq!(nme, r.memory.len(), "entries; {ctx}");
    let ovf = k.m.read(k.sym("ovf")).unwrap().bits();
    assert_eq!(ovf, r.memory.overflow, "overflow; {ctx}");
}

/// The PDP-1's game records (won, drawn, lost games for Mk 10–19 × Pk 0–36, at 175100, 175662
/// and 176444) equal the reference's, cell for cell.
pub fn assert_records(k: &Program, r: &Bell, ctx: &str) {
    for (i, base) in [0o175100u32, 0o175662, 0o176444].into_iter().enumerate() {
        for mk in 10..20usize {
            for pk in 0..37usize {
                let c = r.records.counts[mk][pk];
                let want = [c.won, c.drawn, c.lost][i];
                let got =
                    k.m.read(base + ((mk - 10) * 37 + pk) as u32)
                        .unwrap()
                        .bits();
                assert_eq!(
                    got, want,
                    "records (won, drawn, lost: {i}) at Mk {mk} Pk {pk}; {ctx}"
                );
            }
        }
    }
}

/// Entries the PDP-1 program has corrected (a stored outcome the look-ahead contradicts).
pub fn corrected(k: &Program) -> u32 {
    k.m.read(k.sym("ncr")).unwrap().bits()
}

/// What the program types for the machine's turn `mv` from `before` (the key's space first).
pub fn machine_typed(before: &Board, mv: &bell::MachineMove, analysis: bool) -> String {
    let mut want = String::from(" \u{8}");
    for (i, p) in mv.forgot.iter().enumerate() {
        // Typed as the entry is stored, on a line of its own (a new line first after the key).
        let nl = if i == 0 { "\n" } else { "" };
        want.push_str(&format!("{nl}part {p} full, forgetting\n"));
    }
    if mv.says == Some(Say::Resigns) {
        want.push_str("i resign\n");
    } else {
        let mut c = *before;
        for &m in &mv.turn {
            let rep = c.play(m).unwrap().repeat;
            want.push_str(&format!("{m}{}", if rep { "." } else { "" }));
        }
        want.push('\n');
        if mv.says == Some(Say::WillWin) {
            want.push_str("i will win\n");
        }
    }
    if analysis {
        want.push_str(&format!("e{}v{}\n", mv.effort, mv.value));
    }
    // The back-track analysis after a resignation, at the start of a line.
    for p in &mv.forgot_after {
        want.push_str(&format!("part {p} full, forgetting\n"));
    }
    want
}

/// The person's moves of one game: a fixed list to replay, then random; or whole turns of the
/// never-beaten-twice opponent (`dec`).
pub struct Person<'a> {
    pub rng: &'a mut Rng,
    pub script: Vec<u8>,
    pub played: Vec<u8>,
    pub dec: Option<Scripted<'a>>,
}

/// The never-beaten-twice opponent (`kalah::bell::DecOpponent`) in one game: its turns are
/// worked out whole at their start and then keyed sowing by sowing.
pub struct Scripted<'a> {
    pub opponent: &'a mut DecOpponent,
    pub how: DecGame,
    /// The person's turns begun so far.
    pub turns: usize,
    /// The rest of the turn being keyed, last sowing first.
    pub pending: Vec<u8>,
}

impl Person<'_> {
    pub fn pick(&mut self, b: &Board) -> u8 {
        if let Some(d) = &mut self.dec {
            if d.pending.is_empty() {
                d.pending = d.opponent.turn(&d.how, b, d.turns);
                d.pending.reverse();
                d.turns += 1;
            }
            let m = d.pending.pop().expect("the opponent has a turn");
            self.played.push(m);
            return m;
        }
        let i = self.played.len();
        let moves = b.legal_moves();
        let m = match self.script.get(i) {
            Some(&m) if moves.contains(&m) => m,
            // A person who mostly looks ahead (the DEC game's search, 5 turns), so that the
            // machine loses games and learns.
            _ if self.rng.below(5) > 0 => choose(b, 0, &Settings::new(5)).unwrap().best,
            _ => moves[self.rng.below(moves.len() as u64) as usize],
        };
        self.played.push(m);
        m
    }
}

/// One game from the opening on `k` (after its carriage return), the reference learner `r`
/// alongside; `machine_first`: the machine opens. Returns the game.
pub fn play_game(
    k: &mut Program,
    r: &mut Bell,
    person: &mut Person,
    machine_first: bool,
    analysis: bool,
) -> Game {
    play_game_with(k, r, person, machine_first, analysis, false)
}

/// [`play_game`]; `punch_after`: test-word bit 4 is on, so the game's end punches the memory
/// and types `punched N`.
pub fn play_game_with(
    k: &mut Program,
    r: &mut Bell,
    person: &mut Person,
    machine_first: bool,
    analysis: bool,
    punch_after: bool,
) -> Game {
    let mut g = Game::new(machine_first);
    let mut log = String::new();
    // The game takes whole turns: the person's sowings wait in `pending` until the turn ends;
    // `cur` is the board after them.
    let mut cur = g.board;
    let mut pending = Vec::new();
    loop {
        let ctx = format!("{cur:?}; game so far {log:?}");
        let mut want;
        let typed;
        if cur.to_move == MACHINE {
            let before = g.board;
            let mv = r.machine_turn(&mut g).unwrap();
            typed = machine_key(k, &mv);
            want = machine_typed(&before, &mv, analysis);
            if punch_after && mv.says == Some(Say::Resigns) {
                // The game ends after the back-track analysis, after all the turn typed.
                want.push_str(&format!("punched {}\n", r.memory.len()));
            }
            cur = g.board;
        } else {
            let m = person.pick(&cur);
            typed = key(k, m);
            let rep = cur.play(m).unwrap().repeat;
            want = format!("{m}{}", if rep { '.' } else { ',' });
            pending.push(m);
            if cur.to_move != PERSON || cur.is_terminal() {
                g.play(&pending).unwrap();
                pending.clear();
            }
            if cur.is_terminal() {
                want.push('\n');
            }
        }
        if cur.is_terminal() {
            want.push_str(&result_line(&cur));
            if punch_after {
                want.push_str(&format!("punched {}\n", r.memory.len()));
            }
        }
        log.push_str(&typed);
        assert_eq!(typed, want, "{ctx}");
        if g.over() {
            r.finish(&g);
            return g;
        }
        assert_eq!(board(k), cur, "board; {ctx}");
    }
}

impl Person<'_> {
    pub fn new(rng: &mut Rng, script: Vec<u8>) -> Person<'_> {
        Person {
            rng,
            script,
            played: Vec::new(),
            dec: None,
        }
    }

    /// The never-beaten-twice opponent playing game `how` (`rng` unused).
    pub fn dec<'a>(rng: &'a mut Rng, opponent: &'a mut DecOpponent, how: DecGame) -> Person<'a> {
        Person {
            rng,
            script: Vec::new(),
            played: Vec::new(),
            dec: Some(Scripted {
                opponent,
                how,
                turns: 0,
                pending: Vec::new(),
            }),
        }
    }
}

/// The PDP-1 program and the reference learner with the same options, played in lockstep
/// (bell_never_twice.rs, bell_figure8.rs).
pub struct Pair {
    pub k: Program,
    pub r: Bell,
    pub opts: Options,
    pub tw: u32,
    /// The program has just been read in: no carriage return is needed for a new game.
    pub fresh: bool,
}

impl Pair {
    pub fn new(opts: Options, tw: u32) -> Pair {
        Pair {
            k: boot(tw),
            r: Bell::new(opts.clone()),
            opts,
            tw,
            fresh: true,
        }
    }

    /// A new game: carriage return (the memory is kept; a game cut short teaches nothing, as
    /// the reference's abandoned `Game`).
    pub fn new_game(&mut self) {
        if !self.fresh {
            self.k.key(CR);
            self.k.paper();
        }
        self.fresh = false;
    }

    /// Learning switched off, for the check that the test can fail: a new machine and a new
    /// reference, both with empty memories.
    pub fn forget(&mut self) {
        *self = Pair::new(self.opts.clone(), self.tw);
    }

    /// Fill the whole positions' slots of part `part` of both memories with random whole
    /// 3-in-a-pit positions of machine kalahs `from_kalah`–20, won (`wins`) or lost (`losses`,
    /// in that proportion), each stored as the program stores it (in the first empty slot of
    /// its window, or in place of the one the forgetting rule chooses when the window is full),
    /// until `in_a_row` positions in a row have found their window full (100: the part is full
    /// for whole positions, but for a few slots that no such position hashes near; 1: the
    /// first forgetting, the part nearly full). The PDP-1's words are written in place, their
    /// bits set in the presence filter.
    pub fn fill_part(
        &mut self,
        part: usize,
        from_kalah: u8,
        (wins, losses): (u64, u64),
        seed: u64,
        in_a_row: usize,
    ) {
        use kalah::bell::{window_start, Entry, LIST, WINDOW};
        let mut rng = Rng(seed);
        let t = &mut self.r.memory.parts[part];
        let size = t.size();
        let mut taken: std::collections::HashSet<usize> =
            t.entries().map(|(s, _)| s).filter(|&s| s >= LIST).collect();
        let mut full_in_a_row = 0;
        while full_in_a_row < in_a_row && taken.len() < size - LIST {
            let b = random_position(&mut rng, from_kalah);
            let mk = b.kalah(MACHINE);
            let outcome = if rng.below(wins + losses) < wins {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            let Some(e) = Entry::exact(&b, outcome) else {
                continue;
            };
            if t.lookup(&b).is_some() || bell::end_value(&b).is_some() {
                continue;
            }
            let start = window_start(e.pits, mk, size);
            let window = start..start + WINDOW;
            let empty = window.clone().find(|s| !taken.contains(s));
            full_in_a_row = if empty.is_some() {
                0
            } else {
                full_in_a_row + 1
            };
            let Some(slot) = empty.or_else(|| t.victim(window, outcome)) else {
                continue;
            };
            t.store(e);
            taken.insert(slot);
            write_entry(&mut self.k, part, slot, entry_words(&e));
        }
        let nme = self.k.sym("nme");
        self.k
            .m
            .write(nme, Word::new(self.r.memory.len() as u32))
            .unwrap();
    }

    pub fn check(&self, ctx: &str) {
        assert_memory(&self.k, &self.r, ctx);
        if self.opts.parameters {
            assert_records(&self.k, &self.r, ctx);
            assert_parameters(&self.k, &self.r, ctx);
        }
    }
}

/// A random whole 3-in-a-pit position, the machine to move, its kalah `from_kalah`–20 and the
/// other stones one by one in random pits (some may hold more than 15: not storable).
pub fn random_position(rng: &mut Rng, from_kalah: u8) -> Board {
    let mk = from_kalah + rng.below(21 - from_kalah as u64) as u8;
    let mut b = Board::new(0);
    b.to_move = MACHINE;
    b.cells[MACHINE.kalah()] = mk;
    for _ in mk..36 {
        let side = if rng.below(2) == 0 { MACHINE } else { PERSON };
        b.cells[side.pit_index(1 + rng.below(6) as u8)] += 1;
    }
    b
}

/// Run from the pc set until the program is back at `wt`, where it waits (within an emulated
/// second): a routine called with `wt` as its way back. The ac it returns.
pub fn run_back_to_wt(k: &mut Program, what: &str) -> u32 {
    use pdp1_core::{Limit, StopReason};
    let limit = Limit {
        until_ns: Some(k.m.time_ns() + 1_000_000_000),
        instructions: None,
    };
    let wt = k.sym("wt");
    assert_eq!(k.m.run_until(limit), StopReason::Breakpoint(wt), "{what}");
    k.m.ac().bits()
}

/// The PDP-1's look-up (`mlk`, as the look-ahead calls it: by `jda`, the part in the ac) of
/// the board set up, the machine to move, in part `part`: 0 unknown, 1 won, 2 lost.
pub fn pdp1_lookup(k: &mut Program, part: usize) -> u32 {
    let (mlk, wt) = (k.sym("mlk"), k.sym("wt"));
    k.m.write(mlk, Word::new(part as u32)).unwrap();
    k.m.set_ac(Word::new(wt));
    k.m.set_pc(mlk + 1);
    run_back_to_wt(k, "mlk")
}

/// Replay the person's turns of `lost` on the PDP-1 beside the reference: the machine position
/// (from 0) where the machine first plays, or resigns, differently; `None` if it never does.
/// As the reference's `replay`, the game is left there (the next carriage return starts anew),
/// unless it is over (the machine resigned earlier than before): then both record it. Returns
/// the replayed game too.
pub fn replay(p: &mut Pair, lost: &Game) -> (Option<usize>, Game) {
    p.new_game();
    let mut g = Game::new(lost.turns[0].0 == MACHINE);
    let dev = replay_moves(p, lost, &mut g);
    if g.over() {
        p.r.finish(&g);
    }
    (dev, g)
}

fn replay_moves(p: &mut Pair, lost: &Game, g: &mut Game) -> Option<usize> {
    let mut pos = 0;
    let machine = |p: &mut Pair, g: &mut Game| {
        let before = g.board;
        let m = p.r.machine_turn(g).unwrap();
        let mut want = machine_typed(&before, &m, true);
        if g.board.is_terminal() {
            want.push_str(&result_line(&g.board));
        }
        assert_eq!(
            machine_key(&mut p.k, &m),
            want,
            "replay, machine at {before:?}"
        );
        m
    };
    for (side, t) in &lost.turns {
        if *side == PERSON {
            let mut cur = g.board;
            for &s in t {
                let typed = key(&mut p.k, s);
                let rep = cur.play(s).unwrap().repeat;
                let mut want = format!("{s}{}", if rep { '.' } else { ',' });
                if cur.is_terminal() {
                    want.push('\n');
                    want.push_str(&result_line(&cur));
                }
                assert_eq!(typed, want, "replay, person at {:?}", g.board);
            }
            g.play(t).unwrap();
            continue;
        }
        let m = machine(p, g);
        if m.turn != *t {
            return Some(pos);
        }
        assert_eq!(board(&p.k), g.board, "replay");
        pos += 1;
    }
    // The original ended with the machine resigning at position `pos`.
    if lost.resigned && machine(p, g).says != Some(Say::Resigns) {
        return Some(pos);
    }
    None
}
