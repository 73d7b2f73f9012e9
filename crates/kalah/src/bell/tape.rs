//! The memory tape. Bell kept his memory between sessions "on magnetic tape" (A. G. Bell,
//! "Kalah on Atlas", *Machine Intelligence 3*, 1968); the PDP-1 version (`roms/bell.mac`)
//! punches it on paper tape, and this is that format frame for frame (docs/bell.md, "The
//! memory tape"): a header, one checksummed segment a part of the memory and one for the game
//! records, each entry as the PDP-1 program's four 18-bit words ([`entry_words`]).

use super::memory::{
    nibble, Count, Entry, Outcome, Records, Table, KALAH_CUT, NIBBLE_HOLES, PARAM_FROM,
};
use super::player::Bell;

/// The first word of a memory tape: "bel" in FIO-DEC (b 62, e 65, l 43).
pub const TAPE_MAGIC: u32 = 0o626543;
/// The tape format's version: 3 since the split memory's part 10 holds 512 entries (issue 29;
/// a version-2 tape's part 10 has 1024, its whole positions where the fold for 1024 put them,
/// and is refused like any other version); 2 had the PDP-1 program's words and the word of 0
/// the tape begins with, 1 the design's first entry layout.
pub const TAPE_VERSION: u32 = 3;
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
    /// The tape's characteristics are found by index and this memory's are not, or the other
    /// way round ([`super::Table::indexed`]): the same slots would be looked for elsewhere.
    /// The PDP-1 program types `index differs`.
    #[error("memory tape {}, this memory's characteristics {}", by_index(*.tape), by_index(*.memory))]
    Index { tape: bool, memory: bool },
}

fn by_index(indexed: bool) -> &'static str {
    if indexed {
        "with characteristics by index"
    } else {
        "without characteristics by index"
    }
}

/// The header's option bits: what the entries mean and where they lie.
const OPT_CHARACTERISTICS: u32 = 1;
const OPT_DRAWS_AS_WINS: u32 = 2;
/// Characteristics by index (test-word bit 7 of the PDP-1 program).
const OPT_INDEX: u32 = 4;

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

/// A segment's sum, the last word of each segment: the words' one's-complement sum, as the
/// PDP-1 program's `add` makes it.
pub fn tape_sum(words: &[u32]) -> u32 {
    words.iter().fold(0, |s, &w| ones_add(s, w))
}

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
    frames(&[tape_sum(words)], out);
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
    /// that change what an entry means or where it lies: 1 characteristics, 2 draws as wins, 4
    /// characteristics by index), one segment a part (its number, its count of entries,
    /// then slot and four words for each), and the records segment (the rows the parameters
    /// are made of); each segment ends with the one's-complement sum of its words.
    pub fn punch(&self) -> Vec<u8> {
        // A word of 0 before the header, after a leader: a loader that has just read the boot
        // tape may take some of its frames (the PDP-1 program seeks the mark line by line).
        let mut out = vec![0u8; TAPE_LEADER];
        frames(&[0], &mut out);
        let flags = [
            (self.options.characteristics, OPT_CHARACTERISTICS),
            (self.options.draws_as_wins, OPT_DRAWS_AS_WINS),
            (self.memory.parts[0].indexed, OPT_INDEX),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |f, (_, bit)| f | bit);
        segment(
            &[
                TAPE_MAGIC,
                TAPE_VERSION,
                self.memory.parts.len() as u32,
                self.memory.parts[0].size() as u32,
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
        if tape_sum(&head[..5]) != head[5] {
            return Err(TapeError::Header);
        }
        if head[1] != TAPE_VERSION {
            return Err(TapeError::Version(head[1]));
        }
        let (parts, table) = (self.memory.parts.len(), self.memory.parts[0].size());
        if head[2] as usize != parts || head[3] as usize != table {
            return Err(TapeError::Layout {
                parts: head[2],
                table: head[3],
                have_parts: parts,
                have_table: table,
            });
        }
        // The slots of an indexed memory's characteristics are found where an unindexed one
        // never looks, and the other way round: such a tape is refused, not misread.
        let (tape_index, index) = (head[4] & OPT_INDEX != 0, self.memory.parts[0].indexed);
        if tape_index != index {
            return Err(TapeError::Index {
                tape: tape_index,
                memory: index,
            });
        }
        let mut report = TapeReport::default();
        let mut framing = true;
        for n in 0..parts {
            let size = self.memory.parts[n].size();
            let staged = if framing {
                r.part(n, table, size)
            } else {
                None
            };
            match staged {
                Some(Ok(mut t)) => {
                    // The tape holds entries by slot; how they are found is the program's.
                    t.indexed = self.memory.parts[n].indexed;
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
            self.relearn_parameters();
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

    /// Part `n`'s segment decoded into a table of `size` slots: `None` if its length cannot be
    /// read or is more than the tape's `table` (the rest of the tape cannot be framed),
    /// `Some(Err)` if it is damaged (a slot beyond the part among them: the last part of the
    /// split memory is [`super::memory::CODE_ENTRIES`] shorter than the tape's entries a part).
    #[allow(clippy::result_unit_err)]
    fn part(&mut self, n: usize, table: usize, size: usize) -> Option<Result<Table, ()>> {
        let head = self.words(2)?;
        let count = head[1] as usize;
        if count > table {
            return None;
        }
        let body = self.words(5 * count)?;
        let sum = self.word()?;
        let mut all = head.clone();
        all.extend(&body);
        if tape_sum(&all) != sum || head[0] as usize != n {
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
            if slot < next || !t.place(slot, entry) {
                return Some(Err(()));
            }
            next = slot + 1;
        }
        Some(Ok(t))
    }

    /// The records segment, if intact.
    fn records(&mut self) -> Option<Records> {
        let w = self.words(RECORD_WORDS + 1)?;
        if tape_sum(&w[..RECORD_WORDS]) != w[RECORD_WORDS] {
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
        assert_eq!(tape_sum(&[0o777776, 1]), 0);
        assert_eq!(tape_sum(&[0o777777, 0o777777]), 0);
        assert_eq!(tape_sum(&[0o400000, 0o400000]), 1);
        assert_eq!(tape_sum(&[0o123, 0o456]), 0o601);
    }

    /// The opening position with the machine to move, as a lost entry, and Bell's program with
    /// the default options.
    fn opening_loss() -> (crate::board::Board, Entry, Bell) {
        let mut b = crate::board::Board::new(3);
        b.to_move = super::super::notation::MACHINE;
        let e = Entry::exact(&b, Outcome::Loss).unwrap();
        (b, e, Bell::new(super::super::player::Options::default()))
    }

    /// The split memory's last part is [`super::memory::CODE_ENTRIES`] short of the tape's
    /// entries a part (the PDP-1 program's memory code is there): a segment of it with a slot
    /// beyond is damaged, and the part keeps its contents, as the PDP-1 program does.
    #[test]
    fn a_slot_beyond_the_last_part_is_damaged() {
        use super::super::memory::{REPLIES, TABLE};
        use super::super::player::Options;
        let (_, e, mut bell) = opening_loss();
        let last = bell.memory.parts[REPLIES].size();
        assert_eq!(last, TABLE - super::super::memory::CODE_ENTRIES);
        for slot in [last - 1, last] {
            let mut t = Table::with_size(TABLE);
            assert!(t.place(slot, e));
            bell.memory.parts[REPLIES] = t;
            let mut other = Bell::new(Options::default());
            let r = other.read_tape(&bell.punch()).unwrap();
            let kept = r.kept.contains(&REPLIES);
            assert_eq!(kept, slot == last, "slot {slot}");
            assert_eq!(other.memory.parts[REPLIES].len(), usize::from(!kept));
        }
    }

    /// A spilled entry (issue 29) is on the tape as any other, in the part and slot it lies in:
    /// the format is unchanged, the round trip is byte-exact and the look-up finds it after.
    #[test]
    fn a_spilled_entry_goes_round_the_tape() {
        use super::super::memory::{spill_part, window_start, Stored, TABLE, WINDOW};
        use super::super::player::Options;
        let (b, e, mut bell) = opening_loss();
        let start = window_start(e.pits, 0, TABLE);
        for i in 0..WINDOW {
            let filler = Entry {
                pits: 0xfff_0000_0000 + i as u64,
                ..e
            };
            assert!(bell.memory.parts[4].place(start + i, filler));
        }
        let q = spill_part(e.pits, 0, 4, 11).unwrap();
        assert_eq!(bell.memory.store(4, e), Stored::Spilled(q));
        let tape = bell.punch();
        let mut other = Bell::new(Options::default());
        other.read_tape(&tape).unwrap();
        assert_eq!(other.memory.parts, bell.memory.parts);
        assert_eq!(other.punch(), tape);
        assert_eq!(other.memory.lookup(4, &b), Some(&e));
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
}
