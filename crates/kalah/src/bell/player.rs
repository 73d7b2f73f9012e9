//! Bell's learning Kalah program: A. G. Bell, "Kalah on Atlas", *Machine Intelligence 3*
//! (1968). A program that "reacted to the user ... by refusing to be beaten twice in the same
//! way": a 1½-move (3-ply) look-ahead with the evaluation Mk − Pk, and a memory of won and lost
//! positions built by back-track analysis after every loss, kept small by characteristics and
//! parameters. docs/bell.md gives every reading of the paper this module rests on.
//!
//! * Sides and notation (Figure 2): the machine plays the top row, pits M1–M6, the person the
//!   bottom row, P1–P6; pit 1 is next to its owner's kalah (the ten replies to Russell's
//!   opening count out only with this numbering). Here the machine is [`Side::A`], the
//!   maximiser of the search, and the person [`Side::B`]; either may open.
//! * The look-ahead is a configuration of the one α-β skeleton ([`Bell::config`]): levels in
//!   turns, depth 3, Bell's move list ([`StaticOrder::Bell`]), his cut-off ([`Cutoff::Beyond`]),
//!   the window (−[`WIN`] − 1, [`WIN`]) so that the first victory found is taken, and the value
//!   function [`BellValue`] (Mk − Pk, the end of the game, the memory, the parameters).
//! * The memory ([`Memory`]): compacted positions (12 pits × 4 bits, Atlas's 48-bit word) in a
//!   table of 1280 entries entered at Mk × 26, split into ten parts by the reply to Russell's
//!   opening, or one part.
//! * The learner ([`Bell`], [`Game`]): it records a win when its look-ahead finds one, and after
//!   a loss runs the back-track analysis ([`Bell::backtrack`]).
//! * The memory tape ([`Bell::punch`], [`Bell::read_tape`]): the format the PDP-1 version
//!   punches (`roms/bell.mac`), frame for frame, checksummed part by part.
//! * Figure 8's teaching ([`teach`], [`Teacher`]): a person who never loses beats the machine
//!   until it knows a reply is lost.

use crate::board::{Board, Capture, MoveError, Rules, Side, HOLES};
use crate::order::{LookDepth, Order, StaticOrder};
use crate::search::{self, Config, Cutoff, Levels, Ply, Report};
use crate::solve::Prover;
use crate::value::Evaluate;
use std::collections::HashMap;
use std::fmt;

/// The machine's side (the top row of Bell's Figure 2; the search's maximiser).
pub const MACHINE: Side = Side::A;
/// The person's side (the bottom row).
pub const PERSON: Side = Side::B;
/// The value of a victory: more than any kalah difference. All victories are worth the same,
/// so the first one found is the one taken (IV.2).
pub const WIN: i32 = 100;
/// Stones per pit of the game the memory records ("the memory is designed to record positions
/// of 3-in-a-pit kalah", IV.3).
pub const STONES: u8 = 3;
/// Stones on the board in that game.
pub const TOTAL: u8 = 12 * STONES;
/// Entries in one part of the memory (IV.3).
pub const TABLE: usize = 1280;
/// The entry point is the machine's kalah times this (IV.3).
pub const STRIDE: usize = 26;
/// No entry for a machine kalah above this ("a cut off is made if Mk>20").
pub const KALAH_CUT: u8 = 20;
/// Parts of the split memory: the ten replies to Russell's opening.
pub const REPLIES: usize = 10;
/// Positions the back-track analysis evaluates after a loss (IV.3).
pub const BACKTRACK_NODES: u32 = 100;
/// Plies of the look-ahead ("1½ moves (or 3 plys)", IV.2), in turns.
pub const DEPTH: u32 = 3;
/// The parameters' bias: a kalah relation is a near-win when at least this many tenths of the
/// recorded positions with it were in won games ("places a 90 per cent bias on the results").
pub const BIAS_TENTHS: u32 = 9;
/// Recorded positions a kalah relation needs before it can become a parameter (our choice).
pub const MIN_SAMPLE: u32 = 10;
/// The lowest machine kalah a parameter is kept for (Figure 6's last row).
pub const PARAM_FROM: u8 = 10;

// ---------------------------------------------------------------------------------------------
// Notation (Figure 2)

/// Errors in Bell's notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("{0:?} is not a pit: write M1 to M6 or P1 to P6")]
    NotAPit(String),
    #[error("a turn is one side's pits, but {0:?} mixes M and P")]
    MixedSides(String),
    #[error("an empty turn")]
    Empty,
}

/// The name of a pit of `side` (1..=6): `M3`, `P5`.
pub fn pit_name(side: Side, pit: u8) -> String {
    let s = if side == MACHINE { 'M' } else { 'P' };
    format!("{s}{pit}")
}

/// A turn in Bell's notation: the sowings joined by `-`, as "M3-M2" (Figure 8) or
/// "M6-M1-M3-M1-M2-M1-M4" (Figure 5.4).
pub fn turn_name(side: Side, turn: &[u8]) -> String {
    turn.iter()
        .map(|&p| pit_name(side, p))
        .collect::<Vec<_>>()
        .join("-")
}

/// Parse a turn in Bell's notation (pits separated by `-`, spaces or "(continue)").
pub fn parse_turn(s: &str) -> Result<(Side, Vec<u8>), NotationError> {
    let mut side = None;
    let mut pits = Vec::new();
    for w in s
        .split(|c: char| c == '-' || c.is_whitespace())
        .filter(|w| !w.is_empty() && *w != "(continue)")
    {
        let bad = || NotationError::NotAPit(w.to_string());
        let mut cs = w.chars();
        let this = match cs.next().map(|c| c.to_ascii_uppercase()) {
            Some('M') => MACHINE,
            Some('P') => PERSON,
            _ => return Err(bad()),
        };
        let pit: u8 = cs.as_str().parse().map_err(|_| bad())?;
        if !(1..=6).contains(&pit) {
            return Err(bad());
        }
        if side.is_some_and(|s| s != this) {
            return Err(NotationError::MixedSides(s.to_string()));
        }
        side = Some(this);
        pits.push(pit);
    }
    Ok((side.ok_or(NotationError::Empty)?, pits))
}

/// A position as Bell's Figure 2 sets it out: the machine's kalah on the left, M1…M6 on the top
/// row, P6…P1 on the bottom row, the person's kalah on the right.
pub struct Figure<'a>(pub &'a Board);

impl fmt::Display for Figure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        writeln!(f, "      M1 M2 M3 M4 M5 M6")?;
        write!(f, "    ")?;
        for p in 1..=6 {
            write!(f, "{:3}", b.pit(MACHINE, p))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Mk{:3}{:18} {:3} Pk",
            b.kalah(MACHINE),
            "",
            b.kalah(PERSON)
        )?;
        write!(f, "    ")?;
        for p in (1..=6).rev() {
            write!(f, "{:3}", b.pit(PERSON, p))?;
        }
        writeln!(f)?;
        write!(f, "      P6 P5 P4 P3 P2 P1")
    }
}

// ---------------------------------------------------------------------------------------------
// Turns (IV.1)

/// Every turn of the side to move in `b`, with the position after it, in the order Bell's
/// routine lists them (IV.1): the plain moves pit 1 first, then the buffered continuation
/// positions, last buffered first, each expanded the same way. A turn ends when its last
/// sowing does not end in the mover's kalah or the game is over.
pub fn turns(b: &Board) -> Vec<(Vec<u8>, Board)> {
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), *b)];
    while let Some((prefix, pos)) = stack.pop() {
        for m in pos.legal_moves() {
            let (c, r) = pos.after(m).expect("legal");
            let mut t = prefix.clone();
            t.push(m);
            if r.repeat && !c.is_terminal() {
                stack.push((t, c));
            } else {
                out.push((t, c));
            }
        }
    }
    out
}

/// Play a whole turn for the side to move; error if a sowing is illegal, the turn stops short
/// (its last sowing ends in the kalah while the game goes on) or goes on after it ended.
pub fn play_turn(b: &Board, turn: &[u8]) -> Result<Board, TurnError> {
    let side = b.to_move;
    let mut c = *b;
    for (i, &m) in turn.iter().enumerate() {
        if c.to_move != side || c.is_terminal() {
            return Err(TurnError::TooLong(i));
        }
        c.play(m).map_err(TurnError::Move)?;
    }
    if turn.is_empty() || (c.to_move == side && !c.is_terminal()) {
        return Err(TurnError::Unfinished);
    }
    Ok(c)
}

/// Play the sowings `turn` for whoever is to move at each (a winning sequence may stop with
/// the machine still to move, as Figure 5.1's M1 (continue) M2 (continue) M1).
pub fn play_sowings(b: &Board, turn: &[u8]) -> Result<Board, MoveError> {
    let mut c = *b;
    for &m in turn {
        c.play(m)?;
    }
    Ok(c)
}

/// A turn that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error(transparent)]
    Move(MoveError),
    #[error("the turn ended before sowing {0}")]
    TooLong(usize),
    #[error("the turn is not finished: the last sowing ended in the kalah")]
    Unfinished,
}

// ---------------------------------------------------------------------------------------------
// Compaction and the memory (IV.3, IV.4)

/// The nibble of board hole `i` (a pit) in a compacted position: A's pits 0–5, B's 6–11.
fn nibble(i: usize) -> usize {
    if i < 6 {
        i
    } else {
        i - 1
    }
}

/// The compacted position: the twelve pits, four bits each (one 48-bit Atlas word), in board
/// hole order. `None` if a pit holds more than 15 stones (such positions are not stored).
pub fn compact(b: &Board) -> Option<u64> {
    let mut w = 0u64;
    for i in (0..HOLES).filter(|&i| i != 6 && i != 13) {
        let c = b.cells[i];
        if c > 15 {
            return None;
        }
        w |= (c as u64) << (4 * nibble(i));
    }
    Some(w)
}

/// The position with the sides exchanged: the person's pits and kalah become the machine's and
/// the other way round, and the other side is to move.
pub fn mirror(b: &Board) -> Board {
    let mut c = *b;
    for i in 0..7 {
        c.cells[i] = b.cells[i + 7];
        c.cells[i + 7] = b.cells[i];
    }
    c.to_move = b.to_move.other();
    c
}

/// What a memory entry says about the positions it matches (the machine to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
}

/// One entry of the memory: a winning or losing position, or with characteristics the pits of
/// one that matter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub outcome: Outcome,
    /// The compacted contents of the marked pits (0 elsewhere).
    pub pits: u64,
    /// Nibble mask of the pits that must agree exactly.
    pub mask: u64,
    /// The machine's kalah: exact, or with [`Entry::min_kalah`] its minimum.
    pub kalah: u8,
    pub min_kalah: bool,
    /// A pit that need only hold at least so many stones: the pit a winning capture empties
    /// (Figure 5.6: "at least 5 counters in the pit opposite M3"), as (board hole, minimum).
    pub at_least: Option<(u8, u8)>,
}

/// All twelve pits.
const ALL_PITS: u64 = (1 << 48) - 1;

impl Entry {
    /// The whole position (no characteristics).
    pub fn exact(b: &Board, outcome: Outcome) -> Option<Entry> {
        Some(Entry {
            outcome,
            pits: compact(b)?,
            mask: ALL_PITS,
            kalah: b.kalah(MACHINE),
            min_kalah: false,
            at_least: None,
        })
    }

    /// A characteristic entry marks fewer than all the pits, or a minimum.
    pub fn is_characteristic(&self) -> bool {
        self.mask != ALL_PITS || self.min_kalah || self.at_least.is_some()
    }

    /// Does the position `b` (compacted `c`) agree with this entry?
    pub fn matches(&self, b: &Board, c: u64) -> bool {
        let mk = b.kalah(MACHINE);
        let kalah_ok = if self.min_kalah {
            mk >= self.kalah
        } else {
            mk == self.kalah
        };
        kalah_ok
            && (c ^ self.pits) & self.mask == 0
            && self
                .at_least
                .is_none_or(|(i, min)| b.cells[i as usize] >= min)
    }

    /// The board holes this entry marks (pits exactly, the kalah and the `at_least` pit as
    /// minima), for display and tests.
    pub fn marked(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..HOLES)
            .filter(|&i| i != 6 && i != 13 && (self.mask >> (4 * nibble(i))) & 0xf != 0)
            .collect();
        if let Some((i, _)) = self.at_least {
            v.push(i as usize);
        }
        v.push(6);
        v.sort_unstable();
        v
    }
}

/// One part of the memory: 1280 entries, entered at kalah × 26, scanned linearly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    slots: Vec<Option<Entry>>,
    /// Some entry gives its kalah as a minimum: a look-up must also scan the entries of
    /// smaller kalahs.
    minima: bool,
}

impl Default for Table {
    fn default() -> Table {
        Table::with_size(TABLE)
    }
}

impl Table {
    /// A table of `size` entries (Bell's is [`TABLE`]; larger ones for experiments).
    pub fn with_size(size: usize) -> Table {
        Table {
            slots: vec![None; size.max(KALAH_CUT as usize * STRIDE + 1)],
            minima: false,
        }
    }

    /// The first entry matching `b` (machine to move, 36 stones): the scan runs from the entry
    /// point Mk × 26 (from 0 when some entry gives a minimum kalah, which is stored at the entry
    /// point of its minimum) to the first empty slot at or after Mk × 26: an entry is stored in
    /// the first empty slot from its entry point on and slots are never emptied, so no entry
    /// of kalah ≤ Mk lies beyond that slot.
    pub fn lookup(&self, b: &Board) -> Option<&Entry> {
        let mk = b.kalah(MACHINE);
        if mk > KALAH_CUT || b.stones() != TOTAL as u32 {
            return None;
        }
        let c = compact(b)?;
        let entry = mk as usize * STRIDE;
        let start = if self.minima { 0 } else { entry };
        for (i, s) in self.slots.iter().enumerate().skip(start) {
            match s {
                Some(e) if e.matches(b, c) => return Some(e),
                None if i >= entry => return None,
                _ => {}
            }
        }
        None
    }

    /// Store `e` in the first empty slot from its entry point on; false if there is none (the
    /// part is full: "nor is it wise to assume that 1280 entries is sufficient").
    pub fn store(&mut self, e: Entry) -> bool {
        if e.kalah > KALAH_CUT {
            return false;
        }
        let start = e.kalah as usize * STRIDE;
        match self.slots[start..].iter().position(|s| s.is_none()) {
            Some(i) => {
                self.slots[start + i] = Some(e);
                self.minima |= e.min_kalah;
                true
            }
            None => false,
        }
    }

    /// Overwrite the first entry matching `b` with `e` (a correction); false if none matches.
    /// The slot keeps its place: below the new entry's entry point only when the old entry gave
    /// a minimum kalah, and then the look-ups scan from slot 0.
    pub fn correct(&mut self, b: &Board, e: Entry) -> bool {
        let Some(c) = compact(b) else {
            return false;
        };
        match self
            .slots
            .iter_mut()
            .flatten()
            .find(|old| old.matches(b, c))
        {
            Some(old) => {
                *old = e;
                true
            }
            None => false,
        }
    }

    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries with their slots.
    pub fn entries(&self) -> impl Iterator<Item = (usize, &Entry)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|e| (i, e)))
    }
}

/// The memory: one table, or ten (one for each reply to Russell's opening) and one more for
/// the games that do not open with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    pub parts: Vec<Table>,
    /// Entries that found no empty slot.
    pub overflow: u32,
}

impl Memory {
    pub fn new(split: bool) -> Memory {
        Memory::with_size(split, TABLE)
    }

    /// A memory whose parts have `size` entries.
    pub fn with_size(split: bool, size: usize) -> Memory {
        Memory {
            parts: vec![Table::with_size(size); if split { REPLIES + 1 } else { 1 }],
            overflow: 0,
        }
    }

    pub fn split(&self) -> bool {
        self.parts.len() > 1
    }

    pub fn len(&self) -> usize {
        self.parts.iter().map(Table::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Russell's opening: pit 2 from the opening position (kalah.md §1: the winning first move of
/// 3-in-a-pit Kalah, DEC pit 2); the ten replies are the turns from the position after it.
pub const RUSSELL_OPENING: [u8; 1] = [2];

/// The memory part for a game whose first turns are `turns`: with one part always 0; split,
/// the reply's place among the ten turns from Russell's opening (in Bell's list order), or
/// [`REPLIES`] for a game opened otherwise; `None` before the reply is known.
pub fn part_of(turns: &[&[u8]], split: bool) -> Option<usize> {
    if !split {
        return Some(0);
    }
    match turns {
        [] => None,
        [first, ..] if *first != RUSSELL_OPENING => Some(REPLIES),
        [_] => None,
        [first, reply, ..] => {
            let mut b = Board::new(STONES);
            b.play(first[0]).expect("Russell's opening is legal");
            turns_of_reply(&b)
                .iter()
                .position(|t| t.as_slice() == *reply)
                .or(Some(REPLIES))
        }
    }
}

fn turns_of_reply(b: &Board) -> Vec<Vec<u8>> {
    turns(b).into_iter().map(|(t, _)| t).collect()
}

/// The turns of the variation `path` (sowings from a root where `first` is to move).
fn path_turns(path: &[Ply]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut last = None;
    for &(m, s) in path {
        if last != Some(s) {
            out.push(Vec::new());
            last = Some(s);
        }
        out.last_mut().expect("pushed").push(m);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Parameters (IV.4)

/// Kalah relations that count as won (machine to move) or lost (person to move): "pseudo
/// winning-losing positions" (Figure 6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameters {
    /// `near_win[mk] = Some(t)`: Mk = mk against Pk ≤ t is as good as a win.
    pub near_win: [Option<u8>; 37],
    /// `near_loss[pk] = Some(t)`: Pk = pk against Mk ≤ t is as bad as a loss.
    pub near_loss: [Option<u8>; 37],
}

impl Default for Parameters {
    fn default() -> Parameters {
        Parameters {
            near_win: [None; 37],
            near_loss: [None; 37],
        }
    }
}

/// Figure 6: "relative values of kalahs for pseudo winning-losing positions", as printed.
pub const FIGURE_6: [(u8, u8); 10] = [
    (19, 18),
    (18, 18),
    (17, 9),
    (16, 4),
    (15, 2),
    (14, 2),
    (13, 1),
    (12, 1),
    (11, 0),
    (10, 0),
];

impl Parameters {
    /// The relations Bell's program reached (Figure 6), as near-wins.
    pub fn figure_6() -> Parameters {
        let mut p = Parameters::default();
        for (mk, pk) in FIGURE_6 {
            p.near_win[mk as usize] = Some(pk);
        }
        p
    }

    /// Figure 6's relations for both sides: near-wins for the machine as printed, and the same
    /// relations for the person as near-losses (Pk = 17 against Mk ≤ 9 is as bad as a loss).
    /// The figure's title, "relative values of kalahs for pseudo winning-losing positions",
    /// names both; a study of Figure 8's "about 150" (docs/bell.md).
    pub fn figure_6_both_sides() -> Parameters {
        let mut p = Parameters::figure_6();
        p.near_loss = p.near_win;
        p
    }

    /// The relations the game records give at the 90 % bias: for each machine kalah m from
    /// [`PARAM_FROM`] to 19 the largest recorded t for which the recorded positions with Mk = m and
    /// Pk ≤ t number at least [`MIN_SAMPLE`] and were won at least 9 times in 10; the same for
    /// the person's kalah and lost games.
    pub fn from_records(r: &Records, draws_as_wins: bool) -> Parameters {
        let mut p = Parameters::default();
        for m in PARAM_FROM as usize..=19 {
            let (mut n, mut won, mut nl, mut lost) = (0u32, 0u32, 0u32, 0u32);
            for t in 0..=36usize {
                let c = r.counts[m][t];
                n += c.total();
                won += c.won + if draws_as_wins { c.drawn } else { 0 };
                if c.total() > 0 && n >= MIN_SAMPLE && won * 10 >= n * BIAS_TENTHS {
                    p.near_win[m] = Some(t as u8);
                }
                let c = r.counts[t][m];
                nl += c.total();
                lost += c.lost;
                if c.total() > 0 && nl >= MIN_SAMPLE && lost * 10 >= nl * BIAS_TENTHS {
                    p.near_loss[m] = Some(t as u8);
                }
            }
        }
        p
    }

    /// Is `b` a near-win (machine to move) or near-loss (person to move)?
    pub fn judge(&self, b: &Board) -> Option<Outcome> {
        let (mk, pk) = (b.kalah(MACHINE), b.kalah(PERSON));
        if b.to_move == MACHINE {
            self.near_win[mk as usize]
                .is_some_and(|t| pk <= t)
                .then_some(Outcome::Win)
        } else {
            self.near_loss[pk as usize]
                .is_some_and(|t| mk <= t)
                .then_some(Outcome::Loss)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.near_win
            .iter()
            .chain(&self.near_loss)
            .all(|t| t.is_none())
    }
}

/// Outcomes of the games by the kalah relation (Mk, Pk) of every position in them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

impl Count {
    pub fn total(&self) -> u32 {
        self.won + self.drawn + self.lost
    }
}

/// The game records the parameters come from ("The program records all the previous positions
/// in a game. When it wins or loses, it scans the contents of each kalah in all the previous
/// moves").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Records {
    /// `counts[mk][pk]`.
    pub counts: Vec<[Count; 37]>,
    pub games: u32,
}

impl Default for Records {
    fn default() -> Records {
        Records {
            counts: vec![[Count::default(); 37]; 37],
            games: 0,
        }
    }
}

impl Records {
    /// Add a finished game: each position at the start of a turn, and the last.
    pub fn add(&mut self, positions: &[Board], result: GameResult) {
        if positions
            .first()
            .is_some_and(|b| b.stones() != TOTAL as u32)
        {
            return;
        }
        self.games += 1;
        for b in positions {
            let c = &mut self.counts[b.kalah(MACHINE) as usize][b.kalah(PERSON) as usize];
            match result {
                GameResult::Won => c.won += 1,
                GameResult::Drawn => c.drawn += 1,
                GameResult::Lost => c.lost += 1,
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The value function

/// Bell's value function: the evaluation Mk − Pk at the third ply (IV.2), and a position is
/// decided when the game is over (±[`WIN`] or 0), a kalah holds more than half the stones
/// (±WIN; both half: a draw, 0), the memory recognizes it (machine to move), or a parameter
/// calls it a near-win (machine to move) or near-loss (person to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BellValue<'a> {
    pub memory: Option<&'a Memory>,
    pub params: Option<&'a Parameters>,
    /// The game's turns before the root (the first two are enough), for the memory's part.
    pub prefix: Vec<Vec<u8>>,
    /// Look positions with the person to move up with the sides exchanged (Figure 4's "the
    /// machine will prevent the opponent having it"; an option).
    pub mirror: bool,
}

impl BellValue<'_> {
    /// The evaluation alone: no memory, no parameters.
    pub fn plain() -> BellValue<'static> {
        BellValue {
            memory: None,
            params: None,
            prefix: Vec::new(),
            mirror: false,
        }
    }
}

/// The value of a position decided by the rules alone, from the machine's side.
pub fn end_value(b: &Board) -> Option<i32> {
    let total = b.stones() as i32;
    let (mk, pk) = (b.kalah(MACHINE) as i32, b.kalah(PERSON) as i32);
    let sign = |d: i32| d.signum() * WIN;
    if b.is_terminal() {
        return Some(sign(
            mk + b.pits_total(MACHINE) as i32 - pk - b.pits_total(PERSON) as i32,
        ));
    }
    if 2 * mk > total || 2 * pk > total {
        return Some(sign(mk - pk));
    }
    (2 * mk == total && 2 * pk == total).then_some(0)
}

impl BellValue<'_> {
    fn known(&self, b: &Board, path: &[Ply]) -> Option<i32> {
        if let Some(v) = end_value(b) {
            return Some(v);
        }
        let value = |o: Outcome| match o {
            Outcome::Win => WIN,
            Outcome::Loss => -WIN,
        };
        if b.to_move == MACHINE || self.mirror {
            if let Some(m) = self.memory {
                let mut turns: Vec<Vec<u8>> = self.prefix.iter().take(2).cloned().collect();
                if turns.len() < 2 {
                    turns.extend(path_turns(path));
                }
                let refs: Vec<&[u8]> = turns.iter().map(|t| t.as_slice()).collect();
                if let Some(part) = part_of(&refs, m.split()) {
                    if b.to_move == MACHINE {
                        if let Some(e) = m.parts[part].lookup(b) {
                            return Some(value(e.outcome));
                        }
                    } else if let Some(e) = m.parts[part].lookup(&mirror(b)) {
                        // A winner for the person to move is a loss for the machine.
                        return Some(-value(e.outcome));
                    }
                }
            }
        }
        // Parameters are taken "at either of its maximizing levels": where the machine begins
        // a turn below the root (or the person, for near-losses), not at the positions inside
        // the root's own turn, so that a position the memory holds as lost two plies below is
        // not hidden behind a kalah relation reached on the way (else the same loss could come
        // twice).
        if b.to_move == MACHINE && path.iter().all(|p| p.1 == MACHINE) {
            return None;
        }
        self.params.and_then(|p| p.judge(b)).map(value)
    }
}

impl Evaluate<HOLES> for BellValue<'_> {
    fn decided(&self, b: &Board) -> Option<i32> {
        self.known(b, &[])
    }
    fn decided_at(&self, b: &Board, path: &[Ply]) -> Option<i32> {
        self.known(b, path)
    }
    fn estimate(&self, b: &Board) -> i32 {
        b.kalah(MACHINE) as i32 - b.kalah(PERSON) as i32
    }
}

// ---------------------------------------------------------------------------------------------
// Characteristics (IV.4)

/// The characteristic of a win by the machine's own turn `turn` from `before` (Figure 5): the
/// pits whose contents the turn altered ("non-equivalencing the compressed position before the
/// winning move with the compressed position after"), with "any pit to the right of an altered
/// pit on my side" (towards the machine's kalah: the lower-numbered pits), the machine's kalah
/// as a minimum and the pit a final capture emptied as a minimum. `None` if the turn does not
/// bring the machine's kalah past half the stones.
pub fn characteristic(before: &Board, turn: &[u8]) -> Option<Entry> {
    let mut after = *before;
    let mut captured_from = None;
    for &m in turn {
        let side = after.to_move;
        let start = Board::<HOLES>::pit_index(side, m);
        let n = after.cells[start] as usize;
        let r = after.play(m).ok()?;
        if r.captured > 0 {
            // The last stone fell in an empty own pit; find it to name the captured pit.
            let mut pos = start;
            let skip = Side::kalah(side.other());
            let mut left = n;
            while left > 0 {
                pos = (pos + 1) % HOLES;
                if pos != skip {
                    left -= 1;
                }
            }
            captured_from = Some(Board::<HOLES>::opposite(pos));
        }
    }
    if 2 * after.kalah(MACHINE) as u32 <= before.stones() {
        return None;
    }
    compact(before)?;
    let altered = |i: usize| before.cells[i] != after.cells[i];
    // The highest-numbered altered machine pit: it and every pit to its right.
    let top = (1..=6u8)
        .rev()
        .find(|&p| altered(MACHINE.pit_index(p)))
        .unwrap_or(0);
    let mut mask = 0u64;
    let mut pits = 0u64;
    let mut mark = |i: usize| {
        mask |= 0xf << (4 * nibble(i));
        pits |= (before.cells[i] as u64) << (4 * nibble(i));
    };
    for p in 1..=top {
        mark(MACHINE.pit_index(p));
    }
    for p in 1..=6u8 {
        let i = PERSON.pit_index(p);
        if altered(i) && Some(i) != captured_from {
            mark(i);
        }
    }
    Some(Entry {
        outcome: Outcome::Win,
        pits,
        mask,
        kalah: before.kalah(MACHINE),
        min_kalah: true,
        at_least: captured_from.map(|i| (i as u8, before.cells[i])),
    })
}

/// Figure 5.3/5.6's plain non-equivalence, without the rule for pits to the right: the holes
/// (pits and the machine's kalah) whose contents `turn` altered. For showing why Bell needed
/// the rule.
pub fn altered_holes(before: &Board, turn: &[u8]) -> Option<Vec<usize>> {
    let mut after = *before;
    for &m in turn {
        after.play(m).ok()?;
    }
    Some(
        (0..HOLES)
            .filter(|&i| i != 13 && before.cells[i] != after.cells[i])
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// The learner

/// Bell's program's options: the paper's, and the choices it leaves open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Store characteristics of own-turn wins (IV.4).
    pub characteristics: bool,
    /// Learn parameters from the game records (IV.4).
    pub parameters: bool,
    /// Fixed parameters instead (e.g. [`Parameters::figure_6`]).
    pub fixed_parameters: Option<Parameters>,
    /// Bell's mistake: draws count as wins in the parameters' statistics.
    pub draws_as_wins: bool,
    /// Split the memory by the reply to Russell's opening (IV.3) or keep one table.
    pub split: bool,
    /// The order of the move list ([`StaticOrder::Bell`] or [`StaticOrder::BellListed`]).
    pub order: StaticOrder,
    pub cutoff: Cutoff,
    /// Positions the back-track analysis evaluates after a loss.
    pub backtrack_nodes: u32,
    /// Resign when the look-ahead shows a forced loss.
    pub resign: bool,
    /// Also learn near-losses: the person's kalah relations lost 9 times in 10 (our reading of
    /// Figure 6's "pseudo winning-losing positions"; the text describes near-wins only).
    pub near_losses: bool,
    /// Entries in one part of the memory ([`TABLE`]).
    pub table: usize,
    /// The memory holds positions for the side to move, whoever it is: positions with the
    /// person to move are looked up with the sides exchanged, and the back-track analysis also
    /// evaluates (and stores) the positions after the machine's turns from the person's side.
    /// Our reading of Figure 4's caption, as an option.
    pub mirror: bool,
    /// What the back-track analysis's count of [`Options::backtrack_nodes`] counts (a study of
    /// Figure 8's sizes; docs/bell.md, "Figure 8: readings tried"). Default: the positions its
    /// look-aheads examine.
    pub backtrack_count: BacktrackCount,
    /// Which positions the back-track analysis stores (the same study). Default: every decided
    /// position it evaluates.
    pub backtrack_store: BacktrackStore,
}

/// What "a count is set to evaluate 100 nodes" counts (docs/bell.md, "Figure 8: readings
/// tried").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BacktrackCount {
    /// Each position two plies below a game position that the look-ahead evaluates (our
    /// first reading; 1583 entries in Figure 8's teaching, which never finishes within Bell's
    /// 1280-entry part).
    Positions,
    /// Every position the look-ahead examines (its effort, the nodes of Figure 3's tree),
    /// summed over the analysis's look-aheads: "node" as the paper uses it for the look-ahead's
    /// tree (Figure 3, Figure 4's "once the node Q9 has been evaluated"). The default.
    #[default]
    Effort,
}

/// Which decided positions the back-track analysis stores (docs/bell.md, "Figure 8: readings
/// tried").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BacktrackStore {
    /// Every won or lost position it evaluates (our reading, the default).
    #[default]
    Region,
    /// Only lost positions of the region (and the game's own positions, won or lost).
    Losses,
    /// Only the game's own positions: the region is not visited, the previous positions of the
    /// game are recalled and evaluated (one count each) back to the start.
    Line,
}

impl Default for Options {
    /// Bell's program as the paper describes it, with draws corrected.
    fn default() -> Options {
        Options {
            characteristics: true,
            parameters: true,
            fixed_parameters: None,
            draws_as_wins: false,
            split: true,
            order: StaticOrder::Bell,
            cutoff: Cutoff::Beyond,
            backtrack_nodes: BACKTRACK_NODES,
            resign: true,
            near_losses: false,
            table: TABLE,
            mirror: false,
            backtrack_count: BacktrackCount::Effort,
            backtrack_store: BacktrackStore::Region,
        }
    }
}

impl Options {
    /// The memory alone: no characteristics, no parameters (Bell's first Figure 8 run).
    pub fn plain() -> Options {
        Options {
            characteristics: false,
            parameters: false,
            ..Options::default()
        }
    }
}

/// How a game ended, for the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Won,
    Drawn,
    Lost,
}

/// What the machine says with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Say {
    /// "if it thinks it will win, it says so".
    WillWin,
    /// It resigns: its look-ahead shows a forced loss.
    Resigns,
}

/// A game between Bell's program and a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub board: Board,
    /// The turns played, by whom.
    pub turns: Vec<(Side, Vec<u8>)>,
    /// Every position at the start of a turn, and the last.
    pub positions: Vec<Board>,
    /// The positions the machine moved (or resigned) from, with the number of turns before.
    pub machine: Vec<(Board, usize)>,
    pub resigned: bool,
    pub claimed_win: bool,
    /// The back-track analysis has run for this game.
    pub analysed: bool,
}

impl Game {
    /// A new 3-in-a-pit game; `machine_first`: the machine opens.
    pub fn new(machine_first: bool) -> Game {
        let mut board = Board::new(STONES);
        board.to_move = if machine_first { MACHINE } else { PERSON };
        Game {
            board,
            turns: Vec::new(),
            positions: vec![board],
            machine: Vec::new(),
            resigned: false,
            claimed_win: false,
            analysed: false,
        }
    }

    pub fn over(&self) -> bool {
        self.resigned || self.board.is_terminal()
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        if self.resigned {
            return Some(GameResult::Lost);
        }
        if !self.board.is_terminal() {
            return None;
        }
        let d = self.board.utility();
        Some(match d.signum() {
            1 => GameResult::Won,
            0 => GameResult::Drawn,
            _ => GameResult::Lost,
        })
    }

    /// The first turns, for the memory's part.
    pub fn prefix(&self, n: usize) -> Vec<Vec<u8>> {
        self.turns[..n]
            .iter()
            .take(2)
            .map(|t| t.1.clone())
            .collect()
    }

    /// Play the turn of the side to move.
    pub fn play(&mut self, turn: &[u8]) -> Result<(), TurnError> {
        if self.over() {
            return Err(TurnError::Move(MoveError::GameOver));
        }
        let side = self.board.to_move;
        self.board = play_turn(&self.board, turn)?;
        self.turns.push((side, turn.to_vec()));
        self.positions.push(self.board);
        Ok(())
    }

    /// The person's turns, for replaying.
    pub fn person_turns(&self) -> Vec<Vec<u8>> {
        self.turns
            .iter()
            .filter(|t| t.0 == PERSON)
            .map(|t| t.1.clone())
            .collect()
    }
}

/// The machine's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineMove {
    /// The turn played (empty when it resigned).
    pub turn: Vec<u8>,
    pub value: i32,
    /// Positions the look-ahead examined.
    pub effort: u64,
    pub says: Option<Say>,
}

/// What the learning did, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions stored as won, lost.
    pub won: u32,
    pub lost: u32,
    /// Characteristic entries among the won.
    pub characteristic: u32,
    /// Back-track analyses run and positions they evaluated.
    pub backtracks: u32,
    pub backtrack_nodes: u64,
    /// Entries overwritten with the other outcome.
    pub corrected: u32,
}

/// Bell's program: options, memory, game records and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bell {
    pub options: Options,
    pub memory: Memory,
    pub records: Records,
    pub params: Parameters,
    pub stats: Stats,
}

impl Bell {
    pub fn new(options: Options) -> Bell {
        let params = options.fixed_parameters.clone().unwrap_or_default();
        Bell {
            memory: Memory::with_size(options.split, options.table),
            records: Records::default(),
            params,
            stats: Stats::default(),
            options,
        }
    }

    /// The look-ahead as a configuration of the α-β skeleton, for a root after the game's
    /// turns `prefix`.
    pub fn config(&self, prefix: Vec<Vec<u8>>) -> Config<BellValue<'_>> {
        let params = (self.options.parameters || self.options.fixed_parameters.is_some())
            .then_some(&self.params);
        bell_config(
            BellValue {
                memory: Some(&self.memory),
                params,
                prefix,
                mirror: self.options.mirror,
            },
            self.options.order,
            self.options.cutoff,
        )
    }

    /// What the memory says of `b` (machine to move) after the game's turns `prefix`.
    pub fn recall(&self, b: &Board, prefix: &[Vec<u8>]) -> Option<Outcome> {
        let refs: Vec<&[u8]> = prefix.iter().take(2).map(|t| t.as_slice()).collect();
        let part = part_of(&refs, self.memory.split())?;
        self.memory.parts[part].lookup(b).map(|e| e.outcome)
    }

    /// The 1½-move look-ahead from `b` (machine to move) after the game's turns `prefix`.
    pub fn look_ahead(&self, b: &Board, prefix: &[Vec<u8>]) -> Option<Report> {
        search::search(b, 0, &self.config(prefix.to_vec()), false)
    }

    /// The machine's turn in `game` (the machine to move): look ahead, learn from a win or a
    /// loss it sees, and play (or resign).
    pub fn machine_turn(&mut self, game: &mut Game) -> Result<MachineMove, TurnError> {
        if game.over() || game.board.to_move != MACHINE {
            return Err(TurnError::Move(MoveError::GameOver));
        }
        let b = game.board;
        let n = game.turns.len();
        let prefix = game.prefix(n);
        game.machine.push((b, n));
        let r = self.look_ahead(&b, &prefix).expect("the game is not over");
        let mut says = None;
        if r.value >= WIN {
            // "If it wins it only records its present position and tags it as a winner."
            self.learn_from(&b, &prefix, Some(&r));
            if !game.claimed_win {
                game.claimed_win = true;
                says = Some(Say::WillWin);
            }
        } else if r.value <= -WIN {
            self.learn_from(&b, &prefix, Some(&r));
            if !game.analysed {
                game.analysed = true;
                self.backtrack(game);
            }
            if self.options.resign {
                game.resigned = true;
                return Ok(MachineMove {
                    turn: Vec::new(),
                    value: r.value,
                    effort: r.effort,
                    says: Some(Say::Resigns),
                });
            }
        }
        // Play the look-ahead's turn; if it stops inside the turn (a decided position reached
        // by a continuation move), look ahead again from there.
        let mut turn = Vec::new();
        let mut c = b;
        let mut next = r.turn.clone();
        while c.to_move == MACHINE && !c.is_terminal() {
            if next.is_empty() {
                next = self
                    .look_ahead(&c, &prefix)
                    .map(|r| r.turn)
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| self.first_turn(&c));
            }
            for m in std::mem::take(&mut next) {
                if c.to_move != MACHINE || c.is_terminal() {
                    break;
                }
                c.play(m).map_err(TurnError::Move)?;
                turn.push(m);
            }
        }
        game.play(&turn)?;
        Ok(MachineMove {
            turn,
            value: r.value,
            effort: r.effort,
            says,
        })
    }

    fn first_turn(&self, b: &Board) -> Vec<u8> {
        let mut turn = Vec::new();
        let mut c = *b;
        while c.to_move == MACHINE && !c.is_terminal() {
            let m = self
                .options_order()
                .static_moves(&c, Capture::Standard)
                .first()
                .copied()
                .expect("a move");
            turn.push(m);
            c.play(m).expect("legal");
        }
        turn
    }

    fn options_order(&self) -> Order {
        bell_order_param(self.options.order)
    }

    /// The end of a game: its positions go into the records and the parameters are
    /// recalculated (when learned).
    pub fn finish(&mut self, game: &Game) {
        let Some(result) = game.result() else {
            return;
        };
        self.records.add(&game.positions, result);
        if self.options.parameters && self.options.fixed_parameters.is_none() {
            self.params = Parameters::from_records(&self.records, self.options.draws_as_wins);
            if !self.options.near_losses {
                self.params.near_loss = [None; 37];
            }
        }
    }

    /// The back-track analysis after the loss seen at the game's last machine position: from
    /// the machine's position one move before, every position two plies below it (the
    /// machine's turns and the person's replies) is evaluated by the look-ahead and stored if
    /// decided, then that position itself; then the previous position of the game is recalled
    /// and the same done there, until [`Options::backtrack_nodes`] positions have been
    /// evaluated or the game's start is reached.
    pub fn backtrack(&mut self, game: &Game) {
        self.stats.backtracks += 1;
        let mut budget = self.options.backtrack_nodes;
        let store = self.options.backtrack_store;
        let last = game.machine.len() - 1;
        for i in (0..last).rev() {
            let (g, n) = game.machine[i];
            let prefix = game.prefix(n);
            if store == BacktrackStore::Line {
                if budget == 0 {
                    break;
                }
                let spent = self.learn_counted(&g, &prefix, true);
                budget = budget.saturating_sub(spent);
                continue;
            }
            'region: for (t, after_t) in turns(&g) {
                if after_t.is_terminal() {
                    continue;
                }
                for (r, after_r) in turns(&after_t) {
                    if after_r.is_terminal() || after_r.to_move != MACHINE {
                        continue;
                    }
                    if budget == 0 {
                        break 'region;
                    }
                    let mut p = prefix.clone();
                    p.push(t.clone());
                    p.push(r);
                    p.truncate(2);
                    let spent = self.learn_counted(&after_r, &p, store == BacktrackStore::Region);
                    budget = budget.saturating_sub(spent);
                }
                if self.options.mirror && budget > 0 {
                    // The position after the machine's turn, from the person's side.
                    let mut p = prefix.clone();
                    p.push(t.clone());
                    p.truncate(2);
                    let spent =
                        self.learn_counted(&mirror(&after_t), &p, store == BacktrackStore::Region);
                    budget = budget.saturating_sub(spent);
                }
            }
            self.learn_from(&g, &prefix, None);
            if budget == 0 {
                break;
            }
        }
    }

    /// One evaluation of the back-track analysis: look ahead from `b`, store it if decided
    /// (a win only if `wins`), and return what it spent of the count
    /// ([`Options::backtrack_count`]).
    fn learn_counted(&mut self, b: &Board, prefix: &[Vec<u8>], wins: bool) -> u32 {
        self.stats.backtrack_nodes += 1;
        let Some(r) = self.look_ahead(b, prefix) else {
            return 1;
        };
        if r.value >= WIN && wins {
            self.store(b, prefix, Outcome::Win, &r.turn);
        } else if r.value <= -WIN {
            self.store(b, prefix, Outcome::Loss, &r.turn);
        }
        match self.options.backtrack_count {
            BacktrackCount::Positions => 1,
            BacktrackCount::Effort => u32::try_from(r.effort).unwrap_or(u32::MAX).max(1),
        }
    }

    /// Evaluate `b` (machine to move) by the look-ahead (or take the report given) and store
    /// it if it is decided and not known already.
    fn learn_from(&mut self, b: &Board, prefix: &[Vec<u8>], report: Option<&Report>) {
        let r = match report {
            Some(r) => r.clone(),
            None => match self.look_ahead(b, prefix) {
                Some(r) => r,
                None => return,
            },
        };
        let outcome = if r.value >= WIN {
            Outcome::Win
        } else if r.value <= -WIN {
            Outcome::Loss
        } else {
            return;
        };
        self.store(b, prefix, outcome, &r.turn);
    }

    /// Store `b` as won or lost, unless it is not a 3-in-a-pit position, the machine's kalah
    /// is past the cut, it is decided by the rules, the memory knows it or a parameter
    /// gives the same outcome. A win by the machine's own turn is stored as its characteristic when
    /// characteristics are on.
    pub fn store(&mut self, b: &Board, prefix: &[Vec<u8>], outcome: Outcome, turn: &[u8]) {
        if b.stones() != TOTAL as u32 || b.kalah(MACHINE) > KALAH_CUT || end_value(b).is_some() {
            return;
        }
        let refs: Vec<&[u8]> = prefix.iter().map(|t| t.as_slice()).collect();
        let Some(part) = part_of(&refs, self.memory.split()) else {
            return;
        };
        let known = self.memory.parts[part].lookup(b).map(|e| e.outcome);
        if known == Some(outcome) {
            return;
        }
        let params_on = self.options.parameters || self.options.fixed_parameters.is_some();
        // A relation that already says so makes the entry unneeded ("the memory drops"); one
        // that says otherwise is overruled by the entry (the memory is looked at first).
        if params_on && self.params.judge(b) == Some(outcome) {
            return;
        }
        let entry = match outcome {
            Outcome::Win if self.options.characteristics => {
                characteristic(b, turn).or_else(|| Entry::exact(b, outcome))
            }
            _ => Entry::exact(b, outcome),
        };
        let Some(entry) = entry else {
            return;
        };
        if known.is_some() {
            // The memory held the other outcome: a win believed through a parameter that the
            // look-ahead now finds lost (our correction; see docs/bell.md).
            self.memory.parts[part].correct(b, entry);
            self.stats.corrected += 1;
            return;
        }
        if self.memory.parts[part].store(entry) {
            match outcome {
                Outcome::Win => self.stats.won += 1,
                Outcome::Loss => self.stats.lost += 1,
            }
            if entry.is_characteristic() {
                self.stats.characteristic += 1;
            }
        } else {
            self.memory.overflow += 1;
        }
    }
}

fn bell_order_param(static_order: StaticOrder) -> Order {
    Order {
        static_order,
        postpone: false,
        look: LookDepth::Fixed(0),
        look_a: false,
        look_b: false,
    }
}

/// Bell's look-ahead as a configuration of the skeleton, with the value function `value`:
/// DEC rules, levels in turns, depth 3, Bell's move list in `order`, the cut-off `cutoff`, the
/// root's window (−WIN − 1, WIN) (a node taking a victory stops there, and a lost root still
/// finds a turn), the root always searched.
pub fn bell_config<E>(value: E, order: StaticOrder, cutoff: Cutoff) -> Config<E> {
    Config {
        rules: Rules::DEC,
        value,
        order: bell_order_param(order),
        levels: Levels::Turns,
        depth: DEPTH,
        alpha: -WIN - 1,
        beta: WIN,
        gamma: None,
        count_root: true,
        first_pv: false,
        lines: false,
        cutoff,
        search_root: true,
    }
}

/// The value of each of the machine's turns from `b` by plain minimax over whole turns (no
/// cut-off), 3 plies, with the value function `v`: the definition, for checking the α-β
/// configuration.
pub fn turn_values<E: Evaluate<HOLES>>(b: &Board, v: &E) -> Vec<(Vec<u8>, i32)> {
    fn value<E: Evaluate<HOLES>>(b: &Board, level: u32, v: &E, path: &mut Vec<Ply>) -> i32 {
        if let Some(x) = v.decided_at(b, path) {
            return x;
        }
        if level >= DEPTH {
            return v.estimate(b);
        }
        let side = b.to_move;
        let vals = turns(b).into_iter().map(|(t, c)| {
            let n = path.len();
            // A turn stops at a decided position inside it (the skeleton does not search on).
            let mut cur = *b;
            let mut stopped = None;
            for (i, &m) in t.iter().enumerate() {
                cur.play(m).expect("legal");
                path.push((m, side));
                if i + 1 < t.len() {
                    if let Some(x) = v.decided_at(&cur, path) {
                        stopped = Some(x);
                        break;
                    }
                }
            }
            let x = stopped.unwrap_or_else(|| value(&c, level + 1, v, path));
            path.truncate(n);
            x
        });
        match side {
            Side::A => vals.max().expect("a move"),
            Side::B => vals.min().expect("a move"),
        }
    }
    turns(b)
        .into_iter()
        .map(|(t, c)| {
            let mut path: Vec<Ply> = t.iter().map(|&m| (m, b.to_move)).collect();
            let mut cur = *b;
            let mut stopped = None;
            for (i, &m) in t.iter().enumerate() {
                cur.play(m).expect("legal");
                if i + 1 < t.len() {
                    if let Some(x) = v.decided_at(&cur, &path[..=i]) {
                        stopped = Some(x);
                        break;
                    }
                }
            }
            let x = stopped.unwrap_or_else(|| value(&c, 1, v, &mut path));
            (t, x)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Teaching (Figure 8)

/// How the teacher picks among its winning turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The winning turn with the smallest proof (a fresh proof search's count of positions).
    SmallestProof,
    /// The first winning turn in Bell's list order.
    FirstWinning,
    /// The winning turn that leaves the machine the fewest turns (then the smallest proof):
    /// a narrower tree for the machine to learn (a study of Figure 8's sizes, docs/bell.md).
    FewestReplies,
    /// The winning turn after which the machine's 1½-move look-ahead with an empty memory
    /// values its position lowest (then the smallest proof): the quickest crush its look-ahead
    /// can see (the same study).
    Crushing,
    /// The winning turn whose proof needs the fewest entries in the machine's memory (then the
    /// smallest proof, then list order): the teacher of Figure 8 who plays "the program through
    /// moves it had still not analysed" so that it has the least to learn (the same study).
    ///
    /// The cost ([`Teacher::entries`]) is the number of machine positions the memory must hold
    /// before the machine's 1½-move look-ahead, from the position before the teacher's turn,
    /// sees the loss. The look-ahead sees two turns below a machine position and evaluates the
    /// third, so a machine position M one person turn below is known lost when it is stored, or
    /// when every machine turn from M ends the game lost for it (decided by the rules: the person
    /// holds more than half, or the game is over). So:
    ///
    /// * known(M) = 0 if M is decided lost, or every machine turn from M ends in a decided loss;
    ///   else 1 (M is stored) + the sum over the machine's turns t from M of known(P after t);
    /// * known(P), the person to move = 0 if P is decided lost for the machine; else the least
    ///   known(M') over the person's winning turns to M' ([`Prover`] says which win).
    ///
    /// A position stored must be seen lost by the look-ahead first, which is what the sum asks:
    /// each machine turn from M leads to a person position with a known-lost reply. The count
    /// is of a tree, not of the distinct positions: a position reached by two lines is counted
    /// twice (the exact count of distinct positions is a much harder minimisation), so it is
    /// an upper bound of the entries the chosen proof needs. It ignores the back-track
    /// analysis, characteristics and parameters: it is the memory of a teacher who could make
    /// the machine learn exactly the positions it needs (`IDEAL=1` in the example).
    ///
    /// The whole recursion is too expensive: from the position after Russell's opening and
    /// M3-M2 it ran more than eight minutes without an answer. So it looks [`Teacher::entries_depth`]
    /// machine turns below the teacher's turn ([`ENTRIES_DEPTH`], 3), and a machine position at
    /// the horizon that is not yet known lost counts 1 (it must at least be stored). The
    /// bounded cost is therefore a lower bound of the tree count above: the entries the proof
    /// needs within the horizon, each position left open there counted once. From the
    /// position after M3-M2 it is 1, 9, 37, 118, 256, 393 at horizons 0 to 5 (the last took
    /// two minutes). The teacher decides again at each of its positions, with the horizon
    /// moved down.
    ///
    /// Within the horizon the minimum is exact: a depth-first branch-and-bound (a person
    /// position's best turn so far bounds its other turns, and a machine position's sum so far
    /// bounds its remaining turns), memoised on the position and the depth left (exact costs,
    /// and lower bounds from cut-off searches). Its expansions are counted in
    /// [`Teacher::cost_nodes`].
    FewestEntries,
}

/// A person who never loses: a proof search ([`Prover`]) plays, at each of its positions, one
/// winning turn, always the same (a proof needs one reply at each of the person's positions;
/// the machine's own deviations after each loss cover its alternatives).
pub struct Teacher {
    pub strategy: Strategy,
    prover: Prover,
    chosen: HashMap<Board, Vec<u8>>,
    /// [`Strategy::FewestEntries`]'s costs of machine positions: the cost, and whether it is
    /// exact (else a lower bound).
    costs: HashMap<(Board, u32), (u32, bool)>,
    /// Machine positions whose cost was computed (searched, not recalled).
    pub cost_nodes: u64,
    /// [`Strategy::FewestEntries`]'s horizon: the machine turns below the teacher's turn
    /// that its cost looks at ([`ENTRIES_DEPTH`]).
    pub entries_depth: u32,
}

/// [`Strategy::FewestEntries`]'s horizon, in machine turns below the teacher's turn.
pub const ENTRIES_DEPTH: u32 = 3;

/// The size of the person's proof from `b`: the positions a fresh proof search examines (the
/// teachers' tie-break, and [`Strategy::SmallestProof`]'s measure).
fn proof_size(b: &Board) -> u64 {
    let mut p = Prover::new();
    p.wins(b, PERSON);
    p.nodes
}

/// Decided lost for the machine by the rules alone (Bell's value function's −WIN).
fn rules_lost(b: &Board) -> bool {
    end_value(b).is_some_and(|v| v <= -WIN)
}

impl Teacher {
    pub fn new(strategy: Strategy) -> Teacher {
        Teacher {
            strategy,
            prover: Prover::new(),
            chosen: HashMap::new(),
            costs: HashMap::new(),
            cost_nodes: 0,
            entries_depth: ENTRIES_DEPTH,
        }
    }

    /// The entries the machine's memory needs before its look-ahead sees that `b` is lost
    /// ([`Strategy::FewestEntries`]'s cost): of `b` itself if the machine is to move (0 if its
    /// look-ahead one turn above would see the loss unaided), of the person's best winning
    /// turn otherwise. `u32::MAX` if the person cannot win from `b`.
    pub fn entries(&mut self, b: &Board) -> u32 {
        if !self.prover.wins(b, PERSON) {
            return u32::MAX;
        }
        let d = self.entries_depth;
        if b.to_move == MACHINE && !b.is_terminal() {
            self.known_machine(b, d, u32::MAX)
        } else {
            self.known_person(b, d, u32::MAX)
        }
    }

    /// known(M), exact if below `bound`, else some value ≥ `bound`. `m`: the machine to move,
    /// the person winning.
    fn known_machine(&mut self, m: &Board, depth: u32, bound: u32) -> u32 {
        if m.is_terminal() || rules_lost(m) {
            return 0;
        }
        if bound == 0 {
            return 0;
        }
        if let Some(&(v, exact)) = self.costs.get(&(*m, depth)) {
            if exact || v >= bound {
                return v;
            }
        }
        self.cost_nodes += 1;
        let after = turns(m);
        let v = if after.iter().all(|(_, p)| p.is_terminal() || rules_lost(p)) {
            0
        } else if depth == 0 {
            1
        } else {
            let mut sum = 0u32;
            for (_, p) in &after {
                if sum >= bound - 1 {
                    break;
                }
                sum = sum.saturating_add(self.known_person(p, depth - 1, bound - 1 - sum));
            }
            sum.saturating_add(1)
        };
        self.costs.insert((*m, depth), (v, v < bound));
        v
    }

    /// known(P), exact if below `bound`, else some value ≥ `bound`. `p`: after a machine turn.
    fn known_person(&mut self, p: &Board, depth: u32, bound: u32) -> u32 {
        if p.is_terminal() || rules_lost(p) {
            return 0;
        }
        let mut best = bound;
        for (_, c) in turns(p) {
            if best == 0 {
                break;
            }
            if !self.prover.wins(&c, PERSON) {
                continue;
            }
            best = best.min(self.known_machine(&c, depth, best));
        }
        best
    }

    /// The teacher's turn in `b` (the person to move); `None` if it has no winning turn.
    pub fn turn(&mut self, b: &Board) -> Option<Vec<u8>> {
        if let Some(t) = self.chosen.get(b) {
            return Some(t.clone());
        }
        let wins: Vec<(Vec<u8>, Board)> = turns(b)
            .into_iter()
            .filter(|(_, c)| self.prover.wins(c, PERSON))
            .collect();
        let t = match self.strategy {
            Strategy::FirstWinning => wins.first(),
            Strategy::SmallestProof => wins.iter().min_by_key(|(_, c)| proof_size(c)),
            Strategy::FewestReplies => wins
                .iter()
                .min_by_key(|(_, c)| (turns(c).len(), proof_size(c))),
            Strategy::Crushing => wins.iter().min_by_key(|(_, c)| {
                let seen = if c.to_move == MACHINE && !c.is_terminal() {
                    turn_values(c, &BellValue::plain())
                        .into_iter()
                        .map(|(_, v)| v)
                        .max()
                        .unwrap_or(-WIN)
                } else {
                    -WIN
                };
                (seen, proof_size(c))
            }),
            Strategy::FewestEntries => {
                // The least cost first (each bounded by the best so far, plus one to see ties),
                // then the smallest proof among the least, then list order.
                let mut best = u32::MAX;
                let mut costs = Vec::with_capacity(wins.len());
                for (_, c) in &wins {
                    let v = self.known_machine(c, self.entries_depth, best.saturating_add(1));
                    best = best.min(v);
                    costs.push(v);
                }
                wins.iter()
                    .zip(&costs)
                    .filter(|(_, &v)| v == best)
                    .map(|(w, _)| w)
                    .min_by_key(|(_, c)| proof_size(c))
            }
        }?
        .0
        .clone();
        self.chosen.insert(*b, t.clone());
        Some(t)
    }
}

/// Figure 8's teaching: the person opens with Russell's move and the teacher beats the machine
/// until its first decision is no longer `reply` (Bell: M3-M2); the games it took, or `None`
/// after `max_games` (or if the teacher cannot win). `progress` is called after every game.
pub fn teach(
    bell: &mut Bell,
    teacher: &mut Teacher,
    reply: &[u8],
    max_games: usize,
    mut progress: impl FnMut(usize, &Bell, &Game),
) -> Option<usize> {
    for game in 0..max_games {
        let mut g = Game::new(false);
        g.play(&RUSSELL_OPENING).ok()?;
        while !g.over() {
            if g.board.to_move == MACHINE {
                let m = bell.machine_turn(&mut g).ok()?;
                if g.machine.len() == 1 && m.turn != reply {
                    return Some(game);
                }
            } else {
                let t = teacher.turn(&g.board)?;
                g.play(&t).ok()?;
            }
        }
        bell.finish(&g);
        progress(game, bell, &g);
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Never beaten twice: the scripted opponent

/// How the scripted opponent plays one game of a never-beaten-twice run (docs/bell.md, "Never
/// beaten twice").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecGame {
    /// The machine opens; otherwise the person opens with Russell's move.
    pub machine_first: bool,
    /// The DEC program's search depth.
    pub depth: u32,
    /// The person's turns after its first (or from its first, when the machine opens) played
    /// at random, so that the games differ.
    pub randoms: usize,
}

impl DecGame {
    /// Game `n` of a run: the machine opens every third game, depths 2–5 in turn, one to three
    /// random turns.
    pub fn nth(n: usize) -> DecGame {
        DecGame {
            machine_first: n.is_multiple_of(3),
            depth: 2 + (n % 4) as u32,
            randoms: 1 + n % 3,
        }
    }
}

/// The scripted person of the never-beaten-twice tests: the DEC program's search
/// ([`search::choose`]) at a [`DecGame`]'s depth, its first turns at random. The random numbers
/// are a linear congruential generator of its own (Knuth's MMIX constants), so that a run is
/// the same game for game in the reference's test (`crates/kalah/tests/bell.rs`) and the PDP-1
/// program's (`tests/tests/bell_never_twice.rs`).
#[derive(Clone, Debug)]
pub struct DecOpponent {
    state: u64,
}

impl DecOpponent {
    pub fn new(seed: u64) -> DecOpponent {
        DecOpponent { state: seed }
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.state >> 33) as usize) % n
    }

    /// The person's whole turn in `b` (the person to move), its `n`th of the game (from 0).
    pub fn turn(&mut self, game: &DecGame, b: &Board, n: usize) -> Vec<u8> {
        if n == 0 && !game.machine_first {
            return RUSSELL_OPENING.to_vec();
        }
        if n <= game.randoms {
            let ts = turns(b);
            return ts[self.below(ts.len())].0.clone();
        }
        let mut c = *b;
        let mut t = Vec::new();
        while c.to_move == PERSON && !c.is_terminal() {
            let Some(m) = search::choose(&c, 0, &search::Settings::new(game.depth)).map(|r| r.best)
            else {
                break;
            };
            if c.play(m).is_err() {
                break;
            }
            t.push(m);
        }
        t
    }
}

// ---------------------------------------------------------------------------------------------
// The memory tape (docs/bell.md, "The memory tape")

/// The first word of a memory tape: "bel" in FIO-DEC (b 62, e 65, l 43).
pub const TAPE_MAGIC: u32 = 0o626543;
/// The tape format's version: 2 since the entries are the PDP-1 program's words and the tape
/// begins with a word of 0 (version 1 had the design's first entry layout).
pub const TAPE_VERSION: u32 = 2;
const WORD: u32 = 0o777777;
/// Blank frames before each segment and at the end.
pub const TAPE_LEADER: usize = 20;

/// Why a memory tape was refused as a whole (the memory is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TapeError {
    #[error("not a bell memory tape")]
    Foreign,
    #[error("memory tape of format version {0}, this program reads version {TAPE_VERSION}")]
    Version(u32),
    #[error("memory tape for {parts} parts of {table} entries, this memory has {have_parts} of {have_table}")]
    Layout {
        parts: u32,
        table: u32,
        have_parts: usize,
        have_table: usize,
    },
    #[error("memory tape header damaged")]
    Header,
}

/// What reading a memory tape did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TapeReport {
    /// Parts replaced by the tape's.
    pub loaded: Vec<usize>,
    /// Parts whose segment was damaged or missing: they keep their contents.
    pub kept: Vec<usize>,
    /// The game records were read (else kept).
    pub records: bool,
}

/// 18-bit one's-complement sum with end-around carry, as the PDP-1's `add` makes it (the
/// program sums its tape with `add`): never −0, which `add` gives as +0 (DEC's PDP-1 handbook,
/// "add"; pdp1-core's `arith::add`).
fn ones_add(s: u32, w: u32) -> u32 {
    let t = s + (w & WORD);
    let t = if t > WORD { (t & WORD) + 1 } else { t };
    if t == WORD {
        0
    } else {
        t
    }
}

fn checksum(words: &[u32]) -> u32 {
    words.iter().fold(0, |s, &w| ones_add(s, w))
}

/// The board holes of nibbles 0–11 of [`Entry::pits`] (the kalah at 6 has none).
const NIBBLE_HOLES: [usize; 12] = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12];

/// An entry as four 18-bit words, as the PDP-1 program holds it in its memory and punches it
/// (docs/bell.md). Word 0: 400000 lost, 200000 the kalah a minimum, 160000 the person's pit
/// (1–6, 13 minus the hole) that need only hold at least its nibble's count, 017000 which of
/// word 1's pits must agree, 000740 which of word 2's, 000037 the machine's kalah; words 1–3
/// the pits (nibbles 0–3, 4–7, 8–11, the first highest) four bits each, and in the top two bits
/// of words 2 and 3 which of word 3's pits must agree (the first two, the last two).
pub fn entry_words(e: &Entry) -> [u32; 4] {
    let mut pits = e.pits;
    let mut hole = 0u32;
    if let Some((i, min)) = e.at_least {
        pits |= (min as u64) << (4 * nibble(i as usize));
        hole = 13 - u32::from(i);
    }
    let nib = |k: usize| ((pits >> (4 * k)) & 0xf) as u32;
    let marked = |k: usize| u32::from((e.mask >> (4 * k)) & 0xf != 0);
    let group = |g: usize| (0..4).fold(0, |acc, j| (acc << 1) | marked(4 * g + j));
    let word = |g: usize| (0..4).fold(0, |acc, j| (acc << 4) | nib(4 * g + j));
    let m3 = group(2);
    [
        (u32::from(e.outcome == Outcome::Loss) << 17)
            | (u32::from(e.min_kalah) << 16)
            | (hole << 13)
            | (group(0) << 9)
            | (group(1) << 5)
            | u32::from(e.kalah),
        word(0),
        word(1) | (m3 >> 2) << 16,
        word(2) | (m3 & 3) << 16,
    ]
}

/// The entry of four words ([`entry_words`]); `None` if they cannot be one: a word over 18
/// bits, word 0 of 0 (the PDP-1's empty entry), a kalah over 20, a hole of 7, bits 0–1 of
/// word 1 set, or the at-least pit marked as well. The PDP-1 program checks the same.
pub fn words_entry(w: [u32; 4]) -> Option<Entry> {
    if w.iter().any(|&x| x > WORD) || w[0] == 0 || w[1] >> 16 != 0 {
        return None;
    }
    let kalah = (w[0] & 0o37) as u8;
    let hole = (w[0] >> 13) & 7;
    if kalah > KALAH_CUT || hole == 7 {
        return None;
    }
    let m3 = ((w[2] >> 16) << 2) | (w[3] >> 16);
    let groups = [(w[0] >> 9) & 0o17, (w[0] >> 5) & 0o17, m3];
    let nib = |k: usize| ((w[1 + k / 4] >> (4 * (3 - k % 4))) & 0xf) as u64;
    let marked = |k: usize| groups[k / 4] >> (3 - k % 4) & 1 != 0;
    let (mut pits, mut mask) = (0u64, 0u64);
    for k in (0..12).filter(|&k| marked(k)) {
        pits |= nib(k) << (4 * k);
        mask |= 0xf << (4 * k);
    }
    let at_least = if hole == 0 {
        None
    } else {
        let i = 13 - hole as usize;
        let k = NIBBLE_HOLES.iter().position(|&h| h == i)?;
        if marked(k) {
            return None;
        }
        Some((i as u8, nib(k) as u8))
    };
    Some(Entry {
        outcome: if w[0] >> 17 & 1 != 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        },
        pits,
        mask,
        kalah,
        min_kalah: w[0] >> 16 & 1 != 0,
        at_least,
    })
}

/// Words as tape frames: three frames of six bits each, hole 8 punched (the READ IN binary
/// convention), high bits first.
fn frames(words: &[u32], out: &mut Vec<u8>) {
    for &w in words {
        for shift in [12, 6, 0] {
            out.push(0o200 | ((w >> shift) & 0o77) as u8);
        }
    }
}

/// One segment: blank leader, its words and their checksum.
fn segment(words: &[u32], out: &mut Vec<u8>) {
    out.extend(std::iter::repeat_n(0u8, TAPE_LEADER));
    frames(words, out);
    frames(&[checksum(words)], out);
}

/// The game records as words: the games, then rows Mk 10–19 × Pk 0–36, (won, drawn, lost)
/// each, at most 777777 octal.
fn records_words(r: &Records) -> Vec<u32> {
    let mut v = vec![r.games.min(WORD)];
    for mk in PARAM_FROM as usize..=19 {
        for pk in 0..=36 {
            let c = r.counts[mk][pk];
            v.extend([c.won.min(WORD), c.drawn.min(WORD), c.lost.min(WORD)]);
        }
    }
    v
}

const RECORD_WORDS: usize = 1 + 10 * 37 * 3;

impl Bell {
    /// The memory tape: a word of 0, a header segment (magic word, version, parts, entries a part, options
    /// that change what an entry means), one segment a part (its number, its count of entries,
    /// then slot and four words for each), and the records segment (the rows the parameters
    /// are made of); each segment ends with the one's-complement sum of its words.
    pub fn punch(&self) -> Vec<u8> {
        // A word of 0 before the header, after a leader: a loader that has just read the boot
        // tape may take some of its frames (the PDP-1 program seeks the mark line by line).
        let mut out = vec![0u8; TAPE_LEADER];
        frames(&[0], &mut out);
        let flags =
            u32::from(self.options.characteristics) | (u32::from(self.options.draws_as_wins) << 1);
        segment(
            &[
                TAPE_MAGIC,
                TAPE_VERSION,
                self.memory.parts.len() as u32,
                self.memory.parts[0].slots.len() as u32,
                flags,
            ],
            &mut out,
        );
        for (n, part) in self.memory.parts.iter().enumerate() {
            let mut w = vec![n as u32, part.len() as u32];
            for (slot, e) in part.entries() {
                w.push(slot as u32);
                w.extend(entry_words(e));
            }
            segment(&w, &mut out);
        }
        segment(&records_words(&self.records), &mut out);
        out.extend(std::iter::repeat_n(0u8, TAPE_LEADER));
        out
    }

    /// Read a memory tape. A foreign tape, another version or layout, or a damaged header is
    /// refused as a whole and nothing changes. Each part's segment is decoded and checked
    /// before it replaces the part; a damaged one leaves its part as it was (the parts are
    /// independent), and so does everything after a segment whose length cannot be trusted.
    pub fn read_tape(&mut self, tape: &[u8]) -> Result<TapeReport, TapeError> {
        let mut r = TapeReader { tape, pos: 0 };
        // Words of 0 before the header are skipped (the word a loader may take).
        let mut first = r.word().ok_or(TapeError::Foreign)?;
        while first == 0 {
            first = r.word().ok_or(TapeError::Foreign)?;
        }
        if first != TAPE_MAGIC {
            return Err(TapeError::Foreign);
        }
        // The mark, then a tape that ends inside the header: a damaged memory tape, not a
        // foreign one (as the PDP-1 program types it).
        let mut head = vec![first];
        head.extend(r.words(5).ok_or(TapeError::Header)?);
        if checksum(&head[..5]) != head[5] {
            return Err(TapeError::Header);
        }
        if head[1] != TAPE_VERSION {
            return Err(TapeError::Version(head[1]));
        }
        let (parts, table) = (self.memory.parts.len(), self.memory.parts[0].slots.len());
        if head[2] as usize != parts || head[3] as usize != table {
            return Err(TapeError::Layout {
                parts: head[2],
                table: head[3],
                have_parts: parts,
                have_table: table,
            });
        }
        let mut report = TapeReport::default();
        let mut framing = true;
        for n in 0..parts {
            let staged = if framing { r.part(n, table) } else { None };
            match staged {
                Some(Ok(t)) => {
                    self.memory.parts[n] = t;
                    report.loaded.push(n);
                }
                Some(Err(())) => report.kept.push(n),
                None => {
                    framing = false;
                    report.kept.push(n);
                }
            }
        }
        if let Some(rec) = framing.then(|| r.records()).flatten() {
            self.records = rec;
            if self.options.parameters && self.options.fixed_parameters.is_none() {
                self.params = Parameters::from_records(&self.records, self.options.draws_as_wins);
                if !self.options.near_losses {
                    self.params.near_loss = [None; 37];
                }
            }
            report.records = true;
        }
        Ok(report)
    }
}

struct TapeReader<'a> {
    tape: &'a [u8],
    pos: usize,
}

impl TapeReader<'_> {
    /// The next word: blank frames skipped, three frames with hole 8.
    fn word(&mut self) -> Option<u32> {
        while self.tape.get(self.pos) == Some(&0) {
            self.pos += 1;
        }
        let f = self.tape.get(self.pos..self.pos + 3)?;
        if f.iter().any(|&x| x & 0o200 == 0) {
            return None;
        }
        self.pos += 3;
        Some(f.iter().fold(0, |w, &x| (w << 6) | (x & 0o77) as u32))
    }

    fn words(&mut self, n: usize) -> Option<Vec<u32>> {
        (0..n).map(|_| self.word()).collect()
    }

    /// Part `n`'s segment decoded into a table: `None` if its length cannot be read (the rest
    /// of the tape cannot be framed), `Some(Err)` if it is damaged.
    #[allow(clippy::result_unit_err)]
    fn part(&mut self, n: usize, size: usize) -> Option<Result<Table, ()>> {
        let head = self.words(2)?;
        let count = head[1] as usize;
        if count > size {
            return None;
        }
        let body = self.words(5 * count)?;
        let sum = self.word()?;
        let mut all = head.clone();
        all.extend(&body);
        if checksum(&all) != sum || head[0] as usize != n {
            return Some(Err(()));
        }
        let mut t = Table::with_size(size);
        // The slots in rising order, as punched (the PDP-1 program, which stages a part as a
        // list, checks the same).
        let mut next = 0;
        for e in body.chunks(5) {
            let slot = e[0] as usize;
            let Some(entry) = words_entry([e[1], e[2], e[3], e[4]]) else {
                return Some(Err(()));
            };
            if slot < next || slot >= t.slots.len() {
                return Some(Err(()));
            }
            next = slot + 1;
            t.slots[slot] = Some(entry);
            t.minima |= entry.min_kalah;
        }
        Some(Ok(t))
    }

    /// The records segment, if intact.
    fn records(&mut self) -> Option<Records> {
        let w = self.words(RECORD_WORDS + 1)?;
        if checksum(&w[..RECORD_WORDS]) != w[RECORD_WORDS] {
            return None;
        }
        let mut rec = Records {
            games: w[0],
            ..Records::default()
        };
        let mut i = 1;
        for mk in PARAM_FROM as usize..=19 {
            for pk in 0..=36 {
                rec.counts[mk][pk] = Count {
                    won: w[i],
                    drawn: w[i + 1],
                    lost: w[i + 2],
                };
                i += 3;
            }
        }
        Some(rec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tape's sums are the PDP-1's `add`: end-around carry, and never −0 (777777 becomes
    /// 0), so the PDP-1 program and the reference agree on every segment.
    #[test]
    fn the_tape_sum_is_the_pdp1_add() {
        assert_eq!(checksum(&[0o777776, 1]), 0);
        assert_eq!(checksum(&[0o777777, 0o777777]), 0);
        assert_eq!(checksum(&[0o400000, 0o400000]), 1);
        assert_eq!(checksum(&[0o123, 0o456]), 0o601);
    }

    /// Words that cannot be an entry: the PDP-1's empty entry (word 0 of 0), a pit of 7 that
    /// need hold at least, bits in word 1's top, a kalah over 20, the at-least pit also marked.
    #[test]
    fn words_that_are_no_entry_are_refused() {
        assert_eq!(words_entry([0, 0o1234, 0, 0]), None);
        assert_eq!(words_entry([0o160001, 0, 0, 0]), None);
        assert_eq!(words_entry([0o000001, 0o200000, 0, 0]), None);
        assert_eq!(words_entry([0o000025, 0, 0, 0]), None);
        assert!(words_entry([0o000024, 0, 0, 0]).is_some());
        // P1 need hold at least 5 (hole 1 in word 0), and P1 marked too (word 3's top bit 16).
        assert!(words_entry([0o020001, 0, 0, 5]).is_some());
        assert_eq!(words_entry([0o020001, 0, 0, 0o200005]), None);
    }

    #[test]
    fn notation_round_trips() {
        let (s, t) = parse_turn("M6-M1-M3-M1-M2-M1-M4").unwrap();
        assert_eq!((s, t.clone()), (MACHINE, vec![6, 1, 3, 1, 2, 1, 4]));
        assert_eq!(turn_name(s, &t), "M6-M1-M3-M1-M2-M1-M4");
        assert_eq!(
            parse_turn("M1 (continue) M2 (continue) M1").unwrap(),
            (MACHINE, vec![1, 2, 1])
        );
        assert!(matches!(parse_turn("M7"), Err(NotationError::NotAPit(_))));
        assert!(matches!(
            parse_turn("M1-P2"),
            Err(NotationError::MixedSides(_))
        ));
        assert_eq!(parse_turn(""), Err(NotationError::Empty));
    }

    #[test]
    fn compaction_is_four_bits_a_pit() {
        let b = Board::new(3);
        assert_eq!(compact(&b), Some(0x333333_333333));
        let mut c = b;
        c.cells[0] = 16;
        assert_eq!(compact(&c), None);
    }

    #[test]
    fn table_entry_point_and_scan() {
        let mut t = Table::default();
        let mut b = Board::new(3);
        b.cells[0] = 0;
        b.cells[6] = 3;
        b.to_move = MACHINE;
        let e = Entry::exact(&b, Outcome::Loss).unwrap();
        assert!(t.store(e));
        assert_eq!(t.entries().next().unwrap().0, 3 * STRIDE);
        assert_eq!(t.lookup(&b), Some(&e));
        let mut other = b;
        other.cells[1] = 2;
        other.cells[7] = 4;
        assert_eq!(t.lookup(&other), None);
        // A second entry of the same kalah goes to the next slot.
        let e2 = Entry::exact(&other, Outcome::Win).unwrap();
        assert!(t.store(e2));
        assert_eq!(t.entries().nth(1).unwrap().0, 3 * STRIDE + 1);
        assert_eq!(t.lookup(&other), Some(&e2));
    }

    /// "it will play the higher order games, it does not record them": nothing of a game with
    /// other than 3 stones a pit is stored or counted.
    #[test]
    fn only_three_in_a_pit_is_recorded() {
        let mut bell = Bell::new(Options::default());
        let mut b = Board::new(4);
        b.to_move = MACHINE;
        bell.store(&b, &[vec![1], vec![1]], Outcome::Loss, &[]);
        assert!(bell.memory.is_empty());
        let mut b3 = Board::new(3);
        b3.to_move = MACHINE;
        bell.store(&b3, &[vec![1], vec![1]], Outcome::Loss, &[]);
        assert_eq!(bell.memory.len(), 1);
        bell.records.add(&[b], GameResult::Won);
        assert_eq!(bell.records.games, 0);
        let v = BellValue {
            memory: Some(&bell.memory),
            params: None,
            prefix: vec![vec![1], vec![1]],
            mirror: false,
        };
        assert_eq!(v.decided(&b3), Some(-WIN));
        // With the sides exchanged, the same entry is a win for a person to move there.
        let v = BellValue { mirror: true, ..v };
        assert_eq!(v.decided(&mirror(&b3)), Some(WIN));
    }

    /// A stored win that the look-ahead later finds lost is corrected in place.
    #[test]
    fn a_contradicted_entry_is_corrected() {
        let mut bell = Bell::new(Options::default());
        let mut b = Board::new(3);
        b.to_move = MACHINE;
        let p = [vec![1], vec![1]];
        bell.store(&b, &p, Outcome::Win, &[]);
        assert_eq!(bell.recall(&b, &p), Some(Outcome::Win));
        bell.store(&b, &p, Outcome::Loss, &[]);
        assert_eq!(bell.recall(&b, &p), Some(Outcome::Loss));
        assert_eq!((bell.memory.len(), bell.stats.corrected), (1, 1));
    }

    #[test]
    fn a_full_table_refuses() {
        let mut t = Table::default();
        let e = Entry {
            outcome: Outcome::Win,
            pits: 0,
            mask: 0,
            kalah: 20,
            min_kalah: false,
            at_least: None,
        };
        for _ in 0..(TABLE - 20 * STRIDE) {
            assert!(t.store(e));
        }
        assert!(!t.store(e));
    }
}
