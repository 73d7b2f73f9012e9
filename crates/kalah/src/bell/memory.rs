//! Bell's memory and what keeps it small: A. G. Bell, "Kalah on Atlas", *Machine Intelligence 3*
//! (1968), IV.3 and IV.4.
//!
//! * The memory (IV.3): positions compacted to twelve 4-bit pits (one 48-bit Atlas word,
//!   [`compact`]), as [`Entry`]s in a [`Table`] of 1280 (Bell entered it at Mk × 26 and
//!   scanned it linearly; since issue 29 a list of the characteristic entries, then the whole
//!   positions by a hash, [`window_start`]); [`Memory`] is one table, or ten split by the
//!   reply to Russell's opening ([`part_of`]) and one more for the other games.
//! * Parameters (IV.4, Figure 6): kalah relations won 9 times in 10 count as won
//!   ([`Parameters`]), learned from the game [`Records`].
//! * Characteristics (IV.4, Figure 5): a win by the machine's own turn is stored as the pits
//!   that turn altered and those to their right ([`characteristic`]).

use super::notation::{turns, MACHINE, PERSON};
use crate::board::{Board, Side, HOLES};
use crate::word18;

/// Stones per pit of the game the memory records ("the memory is designed to record positions
/// of 3-in-a-pit kalah", IV.3).
pub const STONES: u8 = 3;
/// Stones on the board in that game.
pub const TOTAL: u8 = 12 * STONES;
/// Entries in one part of the memory (IV.3).
pub const TABLE: usize = 1280;
/// Entries the split memory's last part gives up (issue 29): the PDP-1 program keeps its memory
/// code in the top 3072 words of that part's table (field 16: 160000–163777 free for the
/// memory's tables, `roms/bell-mem.mac` from 164000), so the part of the games no other part
/// takes holds 512 entries (154000–157777; it is the part the fewest games reach). The
/// reference keeps the same layout so that the two compare slot for slot.
pub const CODE_ENTRIES: usize = 768;
/// The slots at the start of a part that hold its characteristic entries, scanned first by
/// every look-up (issue 29; 4–16 of them in the tests, full in the crowded parts of a long
/// session, where they forget wins only).
pub const LIST: usize = 32;
/// The slots a whole position may lie in from its hash (issue 29): a look-up probes at most
/// these, a store takes the first empty one and forgets among them when none is.
pub const WINDOW: usize = 32;
/// No entry for a machine kalah above this ("a cut off is made if Mk>20").
pub const KALAH_CUT: u8 = 20;
/// Parts of the split memory: the ten replies to Russell's opening.
pub const REPLIES: usize = 10;
/// The parameters' bias: a kalah relation is a near-win when at least this many tenths of the
/// recorded positions with it were in won games ("places a 90 per cent bias on the results").
pub const BIAS_TENTHS: u32 = 9;
/// Recorded positions a kalah relation needs before it can become a parameter (our choice).
pub const MIN_SAMPLE: u32 = 10;
/// The lowest machine kalah a parameter is kept for (Figure 6's last row).
pub const PARAM_FROM: u8 = 10;

// ---------------------------------------------------------------------------------------------
// Compaction and the memory (IV.3, IV.4)

/// The board holes of nibbles 0–11 of a compacted position (the kalahs at 6 and 13 have none).
pub(super) const NIBBLE_HOLES: [usize; 12] = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12];

/// The nibble of board hole `i` (a pit) in a compacted position: A's pits 0–5, B's 6–11.
pub(super) fn nibble(i: usize) -> usize {
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
    for (k, &i) in NIBBLE_HOLES.iter().enumerate() {
        let c = b.cells[i];
        if c > 15 {
            return None;
        }
        w |= (c as u64) << (4 * k);
    }
    Some(w)
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
        let mut v: Vec<usize> = NIBBLE_HOLES
            .iter()
            .enumerate()
            .filter(|&(k, _)| (self.mask >> (4 * k)) & 0xf != 0)
            .map(|(_, &i)| i)
            .collect();
        if let Some((i, _)) = self.at_least {
            v.push(i as usize);
        }
        v.push(6);
        v.sort_unstable();
        v
    }
}

/// What [`Table::store`] did with an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// It went into an empty slot.
    New,
    /// It went into an empty slot of its spill window, in this part ([`Memory::store`]).
    Spilled(usize),
    /// The part was full: this entry was forgotten, the new one's or the one it replaced.
    Forgot(Entry),
}

/// One part of the memory (issue 29): [`LIST`] slots for the characteristic entries, scanned
/// first, then the whole positions by a hash of their compacted pits and machine kalah
/// ([`window_start`]), each within [`WINDOW`] slots of its hash (open addressing, a bounded
/// linear probe). Slots are never emptied, only replaced, so a look-up ends at the first empty
/// slot of the list and of the window: it costs at most [`LIST`] + [`WINDOW`] entries however
/// full the part is.
///
/// An indexed table ([`Table::indexed`], a study of Figure 8 with losses recorded as the
/// person's wins, off by default; the PDP-1 program's test-word bit 7) puts a characteristic not in
/// the list but in a window hashed on the pits it always keeps ([`kept_prefix`]), one window for
/// each of the six lengths that prefix can have: a look-up then costs at most [`LIST`] + 7 ×
/// [`WINDOW`] entries (one window more where the part spills), where the list of 32 forgot
/// almost every characteristic that reading makes (docs/bell.md, "Figure 8: characteristics by index").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    slots: Vec<Option<Entry>>,
    /// Characteristics are found by [`char_window_start`], not in the list.
    pub(super) indexed: bool,
}

impl Default for Table {
    fn default() -> Table {
        Table::with_size(TABLE)
    }
}

/// The position compacted as the PDP-1 program holds it (`cpt`): three 16-bit words of four
/// pits, the first the highest (M6 M5 M4 M3, M2 M1 P6 P5, P4 P3 P2 P1).
pub fn compact_words(c: u64) -> [u32; 3] {
    let nib = |k: usize| ((c >> (4 * k)) & 0xf) as u32;
    std::array::from_fn(|g| (0..4).fold(0, |acc, j| (acc << 4) | nib(4 * g + j)))
}

/// The first slot of the window of a whole position (compacted `c`, machine kalah `mk`) in a
/// part of `size` slots: the words' exclusive or, the second rotated 5 and the third 11 bits,
/// with the kalah; folded by its rotation of 9 bits; the low bits up to the power of two at or
/// above the `n` = size − [`LIST`] − [`WINDOW`] + 1 window starts, less `n` once if that many
/// or more. Rotations, exclusive ors, a mask and a subtraction: the PDP-1 program's `zhs` in
/// 16 instructions, with no multiply or divide.
pub fn window_start(c: u64, mk: u8, size: usize) -> usize {
    fold(hash_word(c, mk), size)
}

/// [`window_start`]'s last steps: the word `w` folded by its rotation of 9 bits, to a window
/// start in a part of `size` slots.
fn fold(w: u32, size: usize) -> usize {
    let n = (size - LIST - WINDOW + 1) as u32;
    let x = (w ^ word18::rotl(w, 9)) & (n.next_power_of_two() - 1);
    LIST + if x >= n { x - n } else { x } as usize
}

/// The part a whole position (compacted `c`, machine kalah `mk`) of part `part` spills to when
/// its window there is full, in a memory of `parts` parts (issue 29: a crowded part borrows
/// room from the others, where the eleven fixed tables left most of the 64K empty); `None`
/// with one part. [`window_start`]'s first exclusive or `w`, mixed again (`w` ⊕ `w` rotated 5
/// bits ⊕ `w` rotated 13), its low eight bits scaled to the parts (times `parts`, the bits
/// above the eight: shifts and adds on the PDP-1), the next part if that is the position's
/// own. Its window there starts where [`window_start`] puts it in a part of that size. The
/// second mixing is needed: the positions of a full window have alike low bits of `w`, and
/// taken as they are most of them spilled to one part (bell_session's count).
pub fn spill_part(c: u64, mk: u8, part: usize, parts: usize) -> Option<usize> {
    if parts < 2 {
        return None;
    }
    let w = hash_word(c, mk);
    let u = w ^ word18::rotl(w, 5) ^ word18::rotl(w, 13);
    let q = ((u & 0o377) as usize * parts) >> 8;
    Some(if q == part { (part + 1) % parts } else { q })
}

/// The machine pits M1..Mt a characteristic keeps whatever else it ignores, as t (0 if it does
/// not keep M1). [`characteristic`] marks the pits a winning turn altered and, IV.4: "Any pit
/// to the right of an altered pit on my side may also be relevant to the winning position and
/// consequently must be stored". The turn sows first from some pit, which it always alters (it
/// empties it, or leaves fewer than it held), so M1 up to the highest machine pit it altered
/// (t, at least that pit's number) are always marked, exactly. Everything
/// else may or may not be (the person's pits: "at least 5 of the opponent's pits plus his
/// kalah will be ignored", IV.4; the machine's kalah, a minimum; a captured pit, a minimum),
/// so only this prefix can be hashed.
pub fn kept_prefix(mask: u64) -> usize {
    (1..=6u8)
        .take_while(|&p| (mask >> (4 * nibble(MACHINE.pit_index(p)))) & 0xf == 0xf)
        .count()
}

/// The first slot of the window of a characteristic keeping M1..Mt (t = [`kept_prefix`], 1–6)
/// with the contents of those pits as in the compacted `c`, in a part of `size` slots: the pits
/// read as digits, h = 13 h + Mp for p = 1..t from h = [`KALAH_CUT`] + t, modulo 2^18 (13 h is
/// 8 h + 4 h + h: shifts and adds on the PDP-1, five instructions a pit), folded as
/// [`window_start`] folds its word. Not [`window_start`] of the masked pits: its exclusive
/// ors of rotations are linear, and on prefixes of a few small numbers they crowded the
/// windows (`characteristics_by_index` forgot 25 of its 400); folded, the products put its 219
/// prefixes on 186 window starts, and none is forgotten.
pub fn char_window_start(c: u64, t: usize, size: usize) -> usize {
    let h = (1..=t as u8).fold(KALAH_CUT as u32 + t as u32, |h, p| {
        let pit = (c >> (4 * nibble(MACHINE.pit_index(p)))) as u32 & 0xf;
        (h * 13 + pit) & 0o777777
    });
    fold(h, size)
}

/// The exclusive or both hashes start from: the compacted words, the second rotated 5 bits
/// and the third 11, and the machine kalah.
fn hash_word(c: u64, mk: u8) -> u32 {
    let [w1, w2, w3] = compact_words(c);
    w1 ^ word18::rotl(w2, 5) ^ word18::rotl(w3, 11) ^ u32::from(mk)
}

/// What a probe of a list or window found.
enum Probe {
    Found(usize),
    /// An empty slot before any match: the entry is not there, nor beyond.
    Ends,
    /// Every slot full, none matching.
    Full,
}

/// The compacted position and machine kalah of `b`, if the memory can hold it (36 stones, the
/// kalah within the cut).
fn key(b: &Board) -> Option<(u64, u8)> {
    let mk = b.kalah(MACHINE);
    if mk > KALAH_CUT || b.stones() != TOTAL as u32 {
        return None;
    }
    Some((compact(b)?, mk))
}

impl Table {
    /// A table of `size` entries (Bell's is [`TABLE`]; larger ones for experiments), at least
    /// the list and one window.
    pub fn with_size(size: usize) -> Table {
        Table {
            slots: vec![None; size.max(LIST + WINDOW)],
            indexed: false,
        }
    }

    /// A table of `size` entries whose characteristics are found by index
    /// ([`char_window_start`]), not in the list (a study of Figure 8, off by default).
    pub fn indexed(size: usize) -> Table {
        Table {
            indexed: true,
            ..Table::with_size(size)
        }
    }

    /// Are characteristics found by index?
    pub fn is_indexed(&self) -> bool {
        self.indexed
    }

    /// The slots an entry can lie in: the list for a characteristic (in an indexed table its
    /// window, if it keeps M1), else its window.
    fn range_of(&self, e: &Entry) -> std::ops::Range<usize> {
        let t = kept_prefix(e.mask);
        if e.is_characteristic() && self.indexed && t > 0 {
            let s = char_window_start(e.pits, t, self.slots.len());
            s..s + WINDOW
        } else if e.is_characteristic() {
            0..LIST
        } else {
            let s = window_start(e.pits, e.kalah, self.slots.len());
            s..s + WINDOW
        }
    }

    /// The first entry matching `b` (machine to move, 36 stones) in this table alone: the
    /// list's entries up to its first empty slot, then the window of `b`'s hash up to its first
    /// empty slot. Slots are never emptied, and an entry goes into the first empty slot of its
    /// list or window, so no entry that could match lies beyond either. [`Memory::lookup`]
    /// goes on into the spill window when the window is full.
    pub fn lookup(&self, b: &Board) -> Option<&Entry> {
        let (c, mk) = key(b)?;
        let start = window_start(c, mk, self.slots.len());
        let s = self.find_characteristic(b, c).or_else(|| {
            match self.probe(start..start + WINDOW, b, c) {
                Probe::Found(s) => Some(s),
                _ => None,
            }
        })?;
        self.slots[s].as_ref()
    }

    /// The slot of the first entry matching `b` (compacted `c`) among the characteristics: the
    /// list up to its first empty slot, and in an indexed table the windows of `b`'s M1..Mt for
    /// t = 1..6, each up to its first empty slot. A whole position found there (the windows
    /// overlap the whole positions') is `b` itself, a right answer too.
    fn find_characteristic(&self, b: &Board, c: u64) -> Option<usize> {
        let windows = (1..=6).filter(|_| self.indexed).map(|t| {
            let s = char_window_start(c, t, self.slots.len());
            s..s + WINDOW
        });
        std::iter::once(0..LIST)
            .chain(windows)
            .find_map(|range| match self.probe(range, b, c) {
                Probe::Found(s) => Some(s),
                _ => None,
            })
    }

    /// The first slot of `range` whose entry matches `b` (compacted `c`), unless an empty slot
    /// comes first (the look-up ends there) or every slot is full.
    fn probe(&self, range: std::ops::Range<usize>, b: &Board, c: u64) -> Probe {
        for i in range {
            match &self.slots[i] {
                Some(e) if e.matches(b, c) => return Probe::Found(i),
                None => return Probe::Ends,
                _ => {}
            }
        }
        Probe::Full
    }

    /// The first empty slot of the list or window `e` goes to in this table.
    fn first_empty(&self, e: &Entry) -> Option<usize> {
        self.range_of(e).find(|&i| self.slots[i].is_none())
    }

    /// Store `e` in the first empty slot of the list (a characteristic) or of its window (a
    /// whole position). When none is empty (the part is full there: "nor is it wise to assume
    /// that 1280 entries is sufficient"), one entry is forgotten by [`Table::victim`]'s rule:
    /// the deepest win there gives way to `e`; with no win there, a loss gives way to a new
    /// loss and a new win is the one forgotten.
    pub fn store(&mut self, e: Entry) -> Stored {
        if e.kalah > KALAH_CUT {
            return Stored::Forgot(e);
        }
        let slot = match self.first_empty(&e) {
            Some(i) => i,
            None => match self.victim(self.range_of(&e), e.outcome) {
                Some(v) => v,
                None => return Stored::Forgot(e),
            },
        };
        match self.slots[slot].replace(e) {
            None => Stored::New,
            Some(old) => Stored::Forgot(old),
        }
    }

    /// The slot whose entry a new entry of outcome `outcome` replaces among the full slots
    /// `range` (our rule; the paper has none). Only slots of the new entry's list or window can
    /// take it: a look-up looks nowhere else. A loss is what keeps the machine from being
    /// beaten twice the same way, so every win goes before any loss: the victim is the win of
    /// the greatest machine kalah (the deepest, the least likely to be met again: a position
    /// with more counters in the kalah lies further into the game), the first such in slot
    /// order. With no win there, a new loss replaces the loss of the greatest kalah (the loss
    /// just met is likelier to recur than the deepest one kept), and a new win is not stored
    /// (`None`).
    pub fn victim(&self, range: std::ops::Range<usize>, outcome: Outcome) -> Option<usize> {
        let rank = |e: &Entry| (u8::from(e.outcome == Outcome::Win), e.kalah);
        let mut best: Option<(usize, (u8, u8))> = None;
        for i in range {
            let r = rank(self.slots[i].as_ref()?);
            if best.is_none_or(|(_, b)| r > b) {
                best = Some((i, r));
            }
        }
        let (slot, (win, _)) = best?;
        (win == 1 || outcome == Outcome::Loss).then_some(slot)
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

    /// The slots, full or empty (the memory tape records it).
    pub fn size(&self) -> usize {
        self.slots.len()
    }

    /// Put `e` in slot `slot` as it was (the memory tape's entries come with their slots);
    /// false if there is no such slot.
    pub fn place(&mut self, slot: usize, e: Entry) -> bool {
        let Some(s) = self.slots.get_mut(slot) else {
            return false;
        };
        *s = Some(e);
        true
    }
}

/// The memory: one table, or ten (one for each reply to Russell's opening) and one more for
/// the games that do not open with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    pub parts: Vec<Table>,
    /// Entries forgotten because their part was full (the new entry or the one it replaced).
    pub overflow: u32,
    /// The parts that have forgotten an entry since the program started: the machine says so
    /// once a part (`part N full, forgetting`).
    pub told: Vec<bool>,
}

impl Memory {
    pub fn new(split: bool) -> Memory {
        Memory::with_size(split, TABLE)
    }

    /// A memory whose parts have `size` entries, but the split memory's last part
    /// [`CODE_ENTRIES`] fewer (the PDP-1 program's memory code is there).
    pub fn with_size(split: bool, size: usize) -> Memory {
        Memory::with_layout(split, size, false)
    }

    /// The same, with characteristics found by index when `indexed` ([`Table::indexed`]).
    pub fn with_layout(split: bool, size: usize, indexed: bool) -> Memory {
        let n = if split { REPLIES + 1 } else { 1 };
        let table = |size| Table {
            indexed,
            ..Table::with_size(size)
        };
        let mut parts = vec![table(size); n];
        if split {
            parts[REPLIES] = table(size.saturating_sub(CODE_ENTRIES));
        }
        Memory {
            parts,
            overflow: 0,
            told: vec![false; n],
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

    /// The part for a game whose first turns are `turns` ([`part_of`]).
    pub(super) fn part(&self, turns: &[Vec<u8>]) -> Option<usize> {
        let refs: Vec<&[u8]> = turns.iter().take(2).map(|t| t.as_slice()).collect();
        part_of(&refs, self.split())
    }

    /// Where the entry matching `b` (machine to move) of part `part` lies, as (table, slot):
    /// part `part`'s list and window ([`Table::lookup`]), and when that window is full with no
    /// match, the window of the part it spills to ([`spill_part`]) up to its first empty slot.
    fn find(&self, part: usize, b: &Board) -> Option<(usize, usize)> {
        let (c, mk) = key(b)?;
        let t = &self.parts[part];
        if let Some(s) = t.find_characteristic(b, c) {
            return Some((part, s));
        }
        let start = window_start(c, mk, t.size());
        match t.probe(start..start + WINDOW, b, c) {
            Probe::Found(s) => Some((part, s)),
            Probe::Ends => None,
            Probe::Full => {
                let q = spill_part(c, mk, part, self.parts.len())?;
                let u = &self.parts[q];
                let start = window_start(c, mk, u.size());
                match u.probe(start..start + WINDOW, b, c) {
                    Probe::Found(s) => Some((q, s)),
                    _ => None,
                }
            }
        }
    }

    /// The entry matching `b` (machine to move) in part `part`, its spill window included.
    pub fn lookup(&self, part: usize, b: &Board) -> Option<&Entry> {
        let (t, s) = self.find(part, b)?;
        self.parts[t].slots[s].as_ref()
    }

    /// Store `e` in part `part`: a whole position whose window there is full goes into the
    /// first empty slot of its spill window ([`spill_part`]); when that is full too, or for a
    /// characteristic, [`Table::store`] in part `part` (which forgets by its rule when full).
    pub fn store(&mut self, part: usize, e: Entry) -> Stored {
        if !e.is_characteristic() && e.kalah <= KALAH_CUT {
            let parts = self.parts.len();
            if self.parts[part].first_empty(&e).is_none() {
                if let Some(q) = spill_part(e.pits, e.kalah, part, parts) {
                    if let Some(i) = self.parts[q].first_empty(&e) {
                        self.parts[q].slots[i] = Some(e);
                        return Stored::Spilled(q);
                    }
                }
            }
        }
        self.parts[part].store(e)
    }

    /// Overwrite the entry the look-up of `b` in part `part` finds with `e` (a correction);
    /// false if none. The slot keeps its place, where a look-up of `b` finds it.
    pub fn correct(&mut self, part: usize, b: &Board, e: Entry) -> bool {
        match self.find(part, b) {
            Some((t, s)) => {
                self.parts[t].slots[s] = Some(e);
                true
            }
            None => false,
        }
    }
}

/// Russell's opening: pit 2 from the opening position (kalah.md §1: the winning first move of
/// 3-in-a-pit Kalah, DEC pit 2); the ten replies are the turns from the position after it.
pub const RUSSELL_OPENING: [u8; 1] = [2];

/// The memory part for a game whose first turns are `turns`: with one part always 0; split,
/// for Russell's opening the reply's place among the ten turns from it (in Bell's list order,
/// [`REPLIES`] for none of them), for any other opening [`other_part`] of its first two turns;
/// `None` before the second turn is known.
pub fn part_of(turns: &[&[u8]], split: bool) -> Option<usize> {
    if !split {
        return Some(0);
    }
    match turns {
        [] | [_] => None,
        [first, second, ..] if *first != RUSSELL_OPENING => Some(other_part(first, second)),
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

/// The part of a game not opened with Russell's move (issue 29): every opening and first reply
/// is spread over the eleven parts, where one part of 1280 entries used to hold them all and
/// filled. The low four bits of the exclusive or of the two turns' codes ([`turn_code`]),
/// 11–15 folded onto 0–4: what the PDP-1 program works out in five instructions.
pub fn other_part(first: &[u8], second: &[u8]) -> usize {
    let v = ((turn_code(first) ^ turn_code(second)) & 0o17) as usize;
    if v > REPLIES {
        v - (REPLIES + 1)
    } else {
        v
    }
}

/// A turn as the PDP-1 program codes it: its sowings as octal digits, the first the highest;
/// 777777 for seven sowings or more.
pub fn turn_code(turn: &[u8]) -> u32 {
    if turn.len() > 6 {
        return 0o777777;
    }
    turn.iter().fold(0, |c, &m| c << 3 | m as u32)
}

fn turns_of_reply(b: &Board) -> Vec<Vec<u8>> {
    turns(b).into_iter().map(|(t, _)| t).collect()
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
    /// Where a relation is judged ([`Judged::ToMove`] unless a study of Figure 8 asks).
    pub judged: Judged,
}

/// Which side must be to move for a kalah relation to decide a position (a study of Figure 8's
/// "about 150", docs/bell.md "Figure 8: Bell's three memory sizes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Judged {
    /// A near-win with the machine to move, a near-loss with the person to move (our reading
    /// of "at either of its maximizing levels"; the PDP-1 program's).
    #[default]
    ToMove,
    /// The other way round: the position a side's turn reaches, its opponent to move. Figure
    /// 7 "has good prospects ... despite the fact that the opponent has an intervening move",
    /// and there "the opponent has a crushing set of 15 continuation moves": the opponent is to
    /// move in the position the relation accepts.
    AfterTurn,
    /// Whoever is to move ("one of the players gets so far ahead in the game that the opponent
    /// will retire"); a near-win first.
    Either,
}

impl Default for Parameters {
    fn default() -> Parameters {
        Parameters {
            near_win: [None; 37],
            near_loss: [None; 37],
            judged: Judged::ToMove,
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

    /// Is `b` a near-win (machine to move) or near-loss (person to move)? With another
    /// [`Parameters::judged`], the sides to move are as it says.
    pub fn judge(&self, b: &Board) -> Option<Outcome> {
        let (mk, pk) = (b.kalah(MACHINE), b.kalah(PERSON));
        let win = self.near_win[mk as usize].is_some_and(|t| pk <= t);
        let loss = self.near_loss[pk as usize].is_some_and(|t| mk <= t);
        let (win, loss) = match (self.judged, b.to_move == MACHINE) {
            (Judged::ToMove, true) | (Judged::AfterTurn, false) => (win, false),
            (Judged::ToMove, false) | (Judged::AfterTurn, true) => (false, loss),
            (Judged::Either, _) => (win, loss),
        };
        if win {
            Some(Outcome::Win)
        } else {
            loss.then_some(Outcome::Loss)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.near_win
            .iter()
            .chain(&self.near_loss)
            .all(|t| t.is_none())
    }
}

/// How a game ended, for the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Won,
    Drawn,
    Lost,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every opening and first reply other than Russell's has a part, and they are spread over
    /// all eleven (issue 29: one part for them all filled): of the openings' (turn, reply)
    /// pairs no part takes more than a fifth.
    #[test]
    fn other_openings_are_spread_over_the_parts() {
        let start = Board::new(STONES);
        let mut count = [0usize; REPLIES + 1];
        let mut pairs = 0;
        for (first, b) in turns(&start) {
            for (reply, _) in turns(&b) {
                let part = part_of(&[&first, &reply], true).unwrap();
                if first != RUSSELL_OPENING {
                    assert_eq!(part, other_part(&first, &reply));
                    count[part] += 1;
                    pairs += 1;
                }
            }
            assert_eq!(part_of(&[&first], true), None);
        }
        assert!(count.iter().all(|&n| n > 0), "{count:?}");
        assert!(
            count.iter().all(|&n| n * 5 <= pairs),
            "{count:?} of {pairs}"
        );
        assert_eq!(turn_code(&[3, 1, 6]), 0o316);
        assert_eq!(turn_code(&[1; 7]), 0o777777);
        assert_eq!(other_part(&[1], &[6]), 7);
        assert_eq!(
            other_part(&[3, 5], &[1]),
            1,
            "0o35 ^ 1 = 0o34: its low four bits 12, folded to 1"
        );
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
    fn table_list_and_window() {
        let mut t = Table::default();
        let mut b = Board::new(3);
        b.cells[0] = 0;
        b.cells[6] = 3;
        b.to_move = MACHINE;
        let e = Entry::exact(&b, Outcome::Loss).unwrap();
        let start = window_start(e.pits, 3, TABLE);
        assert!((LIST..TABLE - WINDOW + 1).contains(&start));
        assert_eq!(t.store(e), Stored::New);
        assert_eq!(t.entries().next().unwrap().0, start);
        assert_eq!(t.lookup(&b), Some(&e));
        let mut other = b;
        other.cells[1] = 2;
        other.cells[7] = 4;
        assert_eq!(t.lookup(&other), None);
        // A whole position whose window's first slot is taken goes to the next one.
        let e2 = Entry::exact(&other, Outcome::Win).unwrap();
        let s2 = window_start(e2.pits, 3, TABLE);
        let filler = Entry { pits: 1, ..e };
        assert!(t.place(s2, filler));
        assert_eq!(t.store(e2), Stored::New);
        assert!(t.entries().any(|(i, x)| i == s2 + 1 && *x == e2));
        assert_eq!(t.lookup(&other), Some(&e2));
        // A characteristic goes to the list, scanned first.
        let c = Entry { mask: 0xf, ..e };
        assert_eq!(t.store(c), Stored::New);
        assert_eq!(t.entries().next(), Some((0, &c)));
    }

    /// The hash is the PDP-1's (`zhs`): a value worked out by hand from its instructions.
    #[test]
    fn the_window_is_the_pdp1s() {
        // Pits M6..P1 = 1..12 (nibbles 0..11 hold holes 0..5, 7..12); kalah 3.
        let c = (0..12).fold(0u64, |c, k| c | ((k as u64 + 1) << (4 * k)));
        let [w1, w2, w3] = compact_words(c);
        assert_eq!((w1, w2, w3), (0x1234, 0x5678, 0x9abc));
        let w = w1 ^ word18::rotl(w2, 5) ^ word18::rotl(w3, 11) ^ 3;
        let n = (TABLE - LIST - WINDOW + 1) as u32;
        let x = (w ^ word18::rotl(w, 9)) & 2047;
        let h = if x >= n { x - n } else { x };
        assert_eq!(window_start(c, 3, TABLE), LIST + h as usize);
        assert_eq!(word18::rotl(0o400001, 1), 0o000003);
        // The spill part (`zsp`): w mixed again, its low eight bits times eleven, over 256.
        let u = w ^ word18::rotl(w, 5) ^ word18::rotl(w, 13);
        let q = ((u as usize & 0o377) * 11) >> 8;
        assert_eq!(spill_part(c, 3, (q + 1) % 11, 11), Some(q));
        assert_eq!(spill_part(c, 3, q, 11), Some((q + 1) % 11));
        assert_eq!(spill_part(c, 3, 0, 1), None);
        // A characteristic keeping M1–M3 (6, 5, 4 here): h = ((23 × 13 + 6) × 13 + 5) × 13 + 4
        // = 51614 (0o144636), folded: 1530, less 1217, in a part of 1280 from slot 32.
        assert_eq!(char_window_start(c, 3, TABLE), 32 + 1530 - 1217);
        assert_eq!(
            char_window_start(c, 3, TABLE),
            char_window_start(c & prefix_mask(3), 3, TABLE),
            "only M1–M3 count"
        );
    }

    /// A whole position whose window in its part is full goes to the first empty slot of its
    /// window in the part it spills to; the look-up and the correction find it there, and only
    /// when that window is full too does the part forget.
    #[test]
    fn a_full_window_spills_to_another_part() {
        let mut m = Memory::new(true);
        let mut b = Board::new(3);
        b.cells[0] = 0;
        b.cells[6] = 3;
        b.to_move = MACHINE;
        let e = Entry::exact(&b, Outcome::Loss).unwrap();
        let filler = |i: u64| Entry {
            pits: 0xfff_0000_0000 + i,
            ..e
        };
        let start = window_start(e.pits, 3, TABLE);
        for i in 0..WINDOW {
            assert!(m.parts[2].place(start + i, filler(i as u64)));
        }
        assert_eq!(m.lookup(2, &b), None);
        let q = spill_part(e.pits, 3, 2, 11).unwrap();
        assert_eq!(m.store(2, e), Stored::Spilled(q));
        assert_ne!(q, 2);
        let s = window_start(e.pits, 3, m.parts[q].size());
        assert_eq!(m.parts[q].entries().next(), Some((s, &e)));
        assert_eq!(m.lookup(2, &b), Some(&e));
        assert_eq!(
            m.parts[q].lookup(&b),
            Some(&e),
            "its own place in that part"
        );
        let won = Entry {
            outcome: Outcome::Win,
            ..e
        };
        assert!(m.correct(2, &b, won));
        assert_eq!(m.lookup(2, &b), Some(&won));
        // Both windows full: the part forgets by its rule, in its own window.
        for i in 0..WINDOW {
            let slot = s + i;
            if m.parts[q].entries().all(|(t, _)| t != slot) {
                assert!(m.parts[q].place(slot, filler(100 + i as u64)));
            }
        }
        let mut other = b;
        other.cells[1] = 2;
        other.cells[7] = 4;
        let l = Entry::exact(&other, Outcome::Loss).unwrap();
        let (start2, q2) = (
            window_start(l.pits, 3, TABLE),
            spill_part(l.pits, 3, 2, 11).unwrap(),
        );
        for i in 0..WINDOW {
            m.parts[2].place(start2 + i, filler(200 + i as u64));
            let s2 = window_start(l.pits, 3, m.parts[q2].size());
            if m.parts[q2].entries().all(|(t, _)| t != s2 + i) {
                m.parts[q2].place(s2 + i, filler(300 + i as u64));
            }
        }
        assert!(matches!(m.store(2, l), Stored::Forgot(_)));
        assert_eq!(m.lookup(2, &other), Some(&l));
    }

    /// The nibbles of the machine pits M1..Mt of a compacted position.
    fn prefix_mask(t: usize) -> u64 {
        (1..=t as u8).fold(0, |m, p| m | 0xf << (4 * nibble(MACHINE.pit_index(p))))
    }

    /// Own-turn wins of pseudo-random positions near the end (the machine's kalah 14–18).
    fn some_characteristics(n: usize) -> Vec<(Board, Entry)> {
        let mut out = Vec::new();
        let mut h = 0x2545_f491_4f6c_dd1du64;
        while out.len() < n {
            let mut b = Board::new(0);
            b.to_move = MACHINE;
            h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1);
            b.cells[MACHINE.kalah()] = 14 + (h >> 60) as u8 % 5;
            b.cells[PERSON.kalah()] = (h >> 50) as u8 % 8;
            while b.stones() < TOTAL as u32 {
                h ^= h >> 29;
                h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
                let k = (h >> 59) as usize % 12;
                if b.cells[NIBBLE_HOLES[k]] < 9 {
                    b.cells[NIBBLE_HOLES[k]] += 1;
                }
            }
            if let Some(e) = turns(&b)
                .into_iter()
                .find_map(|(t, _)| characteristic(&b, &t))
            {
                if !out.iter().any(|(_, x)| *x == e) {
                    out.push((b, e));
                }
            }
        }
        out
    }

    /// Every characteristic keeps M1..Mp of the pit its turn first sows, so [`kept_prefix`] is
    /// at least 1; an indexed table holds hundreds of them (the list holds [`LIST`]), each in
    /// its window, none in the list, and finds each for the position it was made from.
    #[test]
    fn characteristics_by_index() {
        let chars = some_characteristics(400);
        let mut t = Table::indexed(TABLE);
        let mut listed = Table::default();
        for (b, e) in &chars {
            let k = kept_prefix(e.mask);
            assert!(k >= 1, "{b:?} {e:?}");
            assert_eq!(
                e.pits & prefix_mask(k),
                compact(b).unwrap() & prefix_mask(k)
            );
            assert_eq!(t.store(*e), Stored::New, "{e:?}");
            listed.store(*e);
        }
        assert_eq!(t.len(), chars.len());
        assert!(t.entries().all(|(i, _)| i >= LIST));
        assert_eq!(listed.len(), LIST, "the list alone forgets the rest");
        for (b, _) in &chars {
            assert_eq!(t.lookup(b).map(|e| e.outcome), Some(Outcome::Win), "{b:?}");
        }
        // Whole positions share the windows and are still found.
        let mut b = Board::new(3);
        b.to_move = MACHINE;
        let whole = Entry::exact(&b, Outcome::Loss).unwrap();
        assert_eq!(t.store(whole), Stored::New);
        assert_eq!(t.lookup(&b), Some(&whole));
        assert_eq!(kept_prefix(ALL_PITS), 6);
        assert_eq!(kept_prefix(0xf), 0, "M6 alone: no prefix");
        // The same layout survives a memory made with it.
        let m = Memory::with_layout(true, TABLE, true);
        assert!(m.parts.iter().all(Table::is_indexed));
        assert!(!Memory::new(true).parts[0].is_indexed());
    }

    /// The replacement rule: wins go before losses, the deepest (greatest kalah) first, the
    /// first in slot order among equals; a new win never replaces a loss; only the new entry's
    /// window (or the list) can give way.
    #[test]
    fn a_full_part_forgets_the_deepest_win_first() {
        let entry = |outcome, kalah, pits| Entry {
            outcome,
            pits,
            mask: ALL_PITS,
            kalah,
            min_kalah: false,
            at_least: None,
        };
        let mut t = Table::default();
        let l20 = entry(Outcome::Loss, 20, 0x1_2345_6789);
        let start = window_start(l20.pits, 20, TABLE);
        let w = start..start + WINDOW;
        // Its window full of losses of kalah 20, but a win of kalah 5 and one of kalah 7.
        for i in w.clone() {
            let e = match i - start {
                3 => entry(Outcome::Win, 5, 1),
                9 => entry(Outcome::Win, 7, 2),
                k => entry(Outcome::Loss, 20 - k as u8 % 3, 3 + k as u64),
            };
            assert!(t.place(i, e));
        }
        assert_eq!(t.victim(w.clone(), Outcome::Loss), Some(start + 9));
        assert_eq!(t.store(l20), Stored::Forgot(entry(Outcome::Win, 7, 2)));
        assert_eq!(t.victim(w.clone(), Outcome::Win), Some(start + 3));
        assert_eq!(t.store(l20), Stored::Forgot(entry(Outcome::Win, 5, 1)));
        // Only losses now: a new win is the one forgotten, a new loss the deepest loss (the
        // first of kalah 20 in slot order).
        let w20 = entry(Outcome::Win, 20, 0x1_2345_6789);
        assert_eq!(t.victim(w.clone(), Outcome::Win), None);
        assert_eq!(t.store(w20), Stored::Forgot(w20));
        assert_eq!(t.victim(w, Outcome::Loss), Some(start));
        // The slots outside the window were never looked at.
        assert_eq!(t.len(), WINDOW);
    }
}
