//! The Kalah board and the rules of play, as the DEC application note states them, for any
//! number of pits per side.
//!
//! [`Board<H>`](Board) has `H` holes: `H / 2 − 1` pits per side and two kalahs. The default,
//! `Board` = `Board<14>`, is the DEC game's six pits; [`Board7`] = `Board<16>` is the seven-pit
//! board of the 7×7 game. Layout of the 14 holes follows Russell's Memo 22 ("a6 - kb are
//! consecutive locations"):
//!
//! ```text
//! index:  0  1  2  3  4  5  6   7  8  9 10 11 12 13
//! hole:  a6 a5 a4 a3 a2 a1 Ka  b6 b5 b4 b3 b2 b1 Kb
//! ```
//!
//! (with seven pits: a7 … a1 Ka b7 … b1 Kb, indices 0 … 15), so that sowing is simply "next
//! index, wrapping H − 1 → 0", skipping the opponent's kalah. Player A is the lower player and
//! moves first; B is the upper player. Pits are numbered as in the DEC note: pit 1 is the one
//! nearest its owner's kalah. Pit `i` (not a kalah) is opposite pit `H − 2 − i`.
//!
//! The rules that vary between the published games are [`Rules`]: the capture rule
//! ([`Capture`]) and the pie rule. The game ends when either side's pits are empty (kalah.md §0
//! shows that this gives the same values as the DEC wording).
//!
//! The PDP-1 program (roms/kalah.mac) uses the 14-hole layout in memory.

use std::fmt;

/// Number of holes of the DEC board: 6 pits per side plus two kalahs.
pub const HOLES: usize = 14;
/// Index of player A's (lower) kalah on the DEC board.
pub const KALAH_A: usize = Board::<HOLES>::KALAH_A;
/// Index of player B's (upper) kalah on the DEC board.
pub const KALAH_B: usize = Board::<HOLES>::KALAH_B;

/// The seven-pit board (7×7 Kalah, the Manchester "ManKalah" game of kalah.md §4).
pub type Board7 = Board<16>;

/// The two players. A is the lower player, who moves first and maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    A,
    B,
}

/// One sowing of a variation: pit and mover. The search's principal variations and reply lines
/// are lists of them, and a value function may look at the path to a position
/// ([`crate::value::Evaluate::decided_at`]): it lives with the board so that both can name it.
pub type Ply = (u8, Side);

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    /// Index of this side's kalah on the DEC board ([`Board::kalah_index`] for any board).
    pub fn kalah(self) -> usize {
        Board::<HOLES>::kalah_index(self)
    }
    /// Index of this side's pit `pit` (1..=6, 1 nearest the kalah) on the DEC board.
    pub fn pit_index(self, pit: u8) -> usize {
        Board::<HOLES>::pit_index(self, pit)
    }
    /// True if hole `i` is one of this side's six pits on the DEC board.
    pub fn owns_pit(self, i: usize) -> bool {
        Board::<HOLES>::is_pit_of(self, i)
    }
}

/// The capture rule (kalah.md §0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// The DEC note's (and the "standard") rule: the last stone in an empty own pit captures
    /// only when the opposite pit holds stones.
    Standard,
    /// Irving, Donkers and Uiterwijk's "empty capture": the last stone is banked even when the
    /// opposite pit is empty.
    Empty,
}

/// The rules that vary between Kalah games. The pits per side are the board's (its type,
/// [`Board`] or [`Board7`]) and the stones per pit its opening ([`Board::opening`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub capture: Capture,
    /// The pie rule (the 7×7 game, kalah.md §4): the game's first move never earns a repeat
    /// ([`Rules::after`], which the search uses), and the second player may answer it by
    /// swapping sides. The swap changes no seed and is not a move of the search: the caller
    /// decides it from the search's value ([`crate::mankalah::choose_with`]).
    pub pie: bool,
}

impl Rules {
    /// The DEC note's rules.
    pub const DEC: Rules = Rules {
        capture: Capture::Standard,
        pie: false,
    };
    /// The 7×7 ManKalah game's rules (kalah.md §4): standard capture, pie rule.
    pub const MANKALAH: Rules = Rules {
        capture: Capture::Standard,
        pie: true,
    };

    /// The position after `pit` by these rules, `ply` sowings into the game, and what the move
    /// did: with the pie rule the game's first move (`ply` 0) never repeats — the other side
    /// moves next even when the last seed fell in the kalah (`GameEngine.java`: `if (moveCount
    /// == 1) turn = waitingPlayer.getSide();`).
    #[inline]
    pub fn after<const H: usize>(
        &self,
        b: &Board<H>,
        pit: u8,
        ply: u32,
    ) -> Result<(Board<H>, MoveResult), MoveError> {
        let (mut c, mut r) = b.after_with(pit, self.capture)?;
        if self.pie && ply == 0 && r.repeat {
            r.repeat = false;
            c.to_move = b.to_move.other();
        }
        Ok((c, r))
    }
}

/// What a move did, apart from changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveResult {
    /// The last stone fell in the mover's kalah: the mover moves again (DEC rule 3b).
    pub repeat: bool,
    /// The last stone made a capture (DEC rule 3c); the number of stones banked.
    pub captured: u8,
}

/// Errors for moves that cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("pit {0} does not exist (pits are 1..6, or 1..7 on the seven-pit board)")]
    NoSuchPit(u8),
    #[error("pit {0} is empty")]
    EmptyPit(u8),
    #[error("the game is over")]
    GameOver,
}

/// A position: the `H` holes and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board<const H: usize = HOLES> {
    pub cells: [u8; H],
    pub to_move: Side,
}

impl Board {
    /// The DEC game's opening position with `stones` in each of the six pits, A to move.
    pub fn new(stones: u8) -> Board {
        Board::opening(stones)
    }
}

impl<const H: usize> Board<H> {
    /// Pits per side.
    pub const PITS: usize = {
        assert!(
            H >= 4 && H.is_multiple_of(2),
            "a board has two equal sides and two kalahs"
        );
        H / 2 - 1
    };
    /// Index of A's kalah.
    pub const KALAH_A: usize = Self::PITS;
    /// Index of B's kalah.
    pub const KALAH_B: usize = H - 1;

    /// The opening position with `stones` in each pit, A to move.
    pub fn opening(stones: u8) -> Board<H> {
        let mut cells = [stones; H];
        cells[Self::KALAH_A] = 0;
        cells[Self::KALAH_B] = 0;
        Board {
            cells,
            to_move: Side::A,
        }
    }

    /// Index of `side`'s kalah.
    pub fn kalah_index(side: Side) -> usize {
        match side {
            Side::A => Self::KALAH_A,
            Side::B => Self::KALAH_B,
        }
    }

    /// Index of `side`'s pit `pit` (1..=PITS, 1 nearest the kalah).
    pub fn pit_index(side: Side, pit: u8) -> usize {
        debug_assert!((1..=Self::PITS).contains(&(pit as usize)));
        Self::kalah_index(side) - pit as usize
    }

    /// True if hole `i` is one of `side`'s pits.
    pub fn is_pit_of(side: Side, i: usize) -> bool {
        let k = Self::kalah_index(side);
        i < k && i + Self::PITS >= k
    }

    /// The hole opposite pit `i`.
    pub fn opposite(i: usize) -> usize {
        H - 2 - i
    }

    /// Stones in `side`'s pit `pit` (1..=PITS).
    pub fn pit(&self, side: Side, pit: u8) -> u8 {
        self.cells[Self::pit_index(side, pit)]
    }

    pub fn kalah(&self, side: Side) -> u8 {
        self.cells[Self::kalah_index(side)]
    }

    /// Sum of the stones in `side`'s pits.
    pub fn pits_total(&self, side: Side) -> u32 {
        let k = Self::kalah_index(side);
        self.cells[k - Self::PITS..k]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }

    /// Stones on the board (pits and kalahs).
    pub fn stones(&self) -> u32 {
        self.cells.iter().map(|&c| c as u32).sum()
    }

    /// The game is over when either side's pits are all empty. kalah.md §0 shows that this gives the
    /// same values as the DEC wording ("when all of the mover's pits are empty").
    pub fn is_terminal(&self) -> bool {
        self.pits_total(Side::A) == 0 || self.pits_total(Side::B) == 0
    }

    /// The DEC note's position utility: Ka − Kb, plus pits A − pits B at a terminal position
    /// (the players cast their remaining stones into their own kalahs).
    pub fn utility(&self) -> i32 {
        let k = self.kalah(Side::A) as i32 - self.kalah(Side::B) as i32;
        if self.is_terminal() {
            k + self.pits_total(Side::A) as i32 - self.pits_total(Side::B) as i32
        } else {
            k
        }
    }

    /// Legal moves (pits 1..=PITS of the side to move that are non-empty), pit 1 first.
    pub fn legal_moves(&self) -> Vec<u8> {
        if self.is_terminal() {
            return Vec::new();
        }
        (1..=Self::PITS as u8)
            .filter(|&p| self.pit(self.to_move, p) > 0)
            .collect()
    }

    /// Make the move `pit` for the side to move, by the DEC rules.
    pub fn play(&mut self, pit: u8) -> Result<MoveResult, MoveError> {
        self.play_with(pit, Capture::Standard)
    }

    /// Make the move `pit` for the side to move, with the capture rule `capture`.
    pub fn play_with(&mut self, pit: u8, capture: Capture) -> Result<MoveResult, MoveError> {
        if !(1..=Self::PITS as u8).contains(&pit) {
            return Err(MoveError::NoSuchPit(pit));
        }
        if self.is_terminal() {
            return Err(MoveError::GameOver);
        }
        let side = self.to_move;
        let start = Self::pit_index(side, pit);
        let mut n = self.cells[start];
        if n == 0 {
            return Err(MoveError::EmptyPit(pit));
        }
        self.cells[start] = 0;
        let skip = Self::kalah_index(side.other());
        let mut pos = start;
        // Sow one stone per hole, skipping the opponent's kalah (DEC rule 2). The origin pit is not
        // skipped on a sowing of 2·PITS + 1 or more (kalah.md §6 conventions).
        while n > 0 {
            pos = (pos + 1) % H;
            if pos == skip {
                continue;
            }
            self.cells[pos] += 1;
            n -= 1;
        }
        let mut result = MoveResult {
            repeat: false,
            captured: 0,
        };
        if pos == Self::kalah_index(side) {
            result.repeat = true;
        } else if Self::is_pit_of(side, pos)
            && self.cells[pos] == 1
            && (self.cells[Self::opposite(pos)] > 0 || capture == Capture::Empty)
        {
            let opposite = Self::opposite(pos);
            // Capture only when the opposite pit is non-empty (DEC rule 3c, kalah.md §0), or
            // always with the empty-capture rule.
            let taken = 1 + self.cells[opposite];
            self.cells[pos] = 0;
            self.cells[opposite] = 0;
            self.cells[Self::kalah_index(side)] += taken;
            result.captured = taken;
        }
        if !result.repeat {
            self.to_move = side.other();
        }
        Ok(result)
    }

    /// The position after `pit` (DEC rules), and what the move did.
    pub fn after(&self, pit: u8) -> Result<(Board<H>, MoveResult), MoveError> {
        self.after_with(pit, Capture::Standard)
    }

    /// The position after `pit` with the capture rule `capture`, and what the move did.
    #[inline]
    pub fn after_with(
        &self,
        pit: u8,
        capture: Capture,
    ) -> Result<(Board<H>, MoveResult), MoveError> {
        let mut b = *self;
        let r = b.play_with(pit, capture)?;
        Ok((b, r))
    }
}

impl<const H: usize> fmt::Debug for Board<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The board as the DEC note's figure shows it: B's pits 1..PITS left to right above, the
/// kalahs (Kb left, Ka right), A's pits PITS..1 below, and the side to move.
impl<const H: usize> fmt::Display for Board<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pits = Self::PITS as u8;
        write!(f, "   ")?;
        for p in 1..=pits {
            write!(f, "{:3}", self.pit(Side::B, p))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:3}{:w$}{:3}",
            self.kalah(Side::B),
            "",
            self.kalah(Side::A),
            w = 3 * Self::PITS
        )?;
        write!(f, "   ")?;
        for p in (1..=pits).rev() {
            write!(f, "{:3}", self.pit(Side::A, p))?;
        }
        writeln!(f)?;
        write!(f, "{:?} to move", self.to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The DEC note's Fig. 2 examples, reconstructed: A plays 2 (2 stones → 1A, Ka: repeat),
    /// then 4 (2 stones → 3A, 2A; 2A empty, opposite 5B has 4: capture 5).
    #[test]
    fn dec_note_examples() {
        let mut b = Board::new(0);
        // A: pit1=8, pit2=2, pit3=4, pit4=2, pit5=0, pit6=1; B pit5 = 4, others 1.
        let a = [8, 2, 4, 2, 0, 1];
        for (i, &s) in a.iter().enumerate() {
            b.cells[Side::A.pit_index(i as u8 + 1)] = s;
        }
        for p in 1..=6 {
            b.cells[Side::B.pit_index(p)] = 1;
        }
        b.cells[Side::B.pit_index(5)] = 4;
        let r = b.play(2).unwrap();
        assert!(r.repeat);
        assert_eq!(b.to_move, Side::A);
        assert_eq!(b.kalah(Side::A), 1);
        let r = b.play(4).unwrap();
        assert_eq!(r.captured, 5);
        assert_eq!(b.kalah(Side::A), 6);
        assert_eq!(b.pit(Side::B, 5), 0);
        assert_eq!(b.to_move, Side::B);
    }

    #[test]
    fn sowing_skips_opponent_kalah_and_wraps() {
        let mut b = Board::new(1);
        b.cells[Side::A.pit_index(1)] = 8; // example 5: Ka, 6B..1B, 6A (skipping Kb)
        b.play(1).unwrap();
        assert_eq!(b.kalah(Side::A), 1);
        assert_eq!(b.kalah(Side::B), 0);
        assert_eq!(b.pit(Side::A, 6), 2);
        for p in 1..=6 {
            assert_eq!(b.pit(Side::B, p), 2);
        }
    }

    #[test]
    fn no_capture_opposite_empty() {
        let mut b = Board::new(0);
        b.cells[Side::A.pit_index(6)] = 1;
        b.cells[Side::B.pit_index(6)] = 3;
        b.cells[Side::B.pit_index(2)] = 0; // A5 is opposite B2 (a_k faces b_(7-k))
        let r = b.play(6).unwrap();
        assert_eq!(r.captured, 0);
        assert_eq!(b.pit(Side::A, 5), 1);
    }

    #[test]
    fn bad_moves_are_errors() {
        let mut b = Board::new(3);
        assert_eq!(b.play(0), Err(MoveError::NoSuchPit(0)));
        assert_eq!(b.play(7), Err(MoveError::NoSuchPit(7)));
        b.play(1).unwrap();
        assert_eq!(b.to_move, Side::B);
        b.play(6).unwrap();
        assert_eq!(b.play(1), Err(MoveError::EmptyPit(1)));
    }

    /// The seven-pit board in the MKAgent protocol's STATE order (kalah.md §4): North (B) holes
    /// 1..7 from its left (our pits 7..1), North's store, South (A) holes 1..7, South's store.
    fn mkagent_state(b: &Board7) -> String {
        let side = |s: Side| {
            (1..=7u8)
                .rev()
                .map(|p| b.pit(s, p).to_string())
                .chain([b.kalah(s).to_string()])
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("{},{}", side(Side::B), side(Side::A))
    }

    /// kalah.md §4's messages from the ManKalah engine: South's `MOVE;1` (our pit 7) gives
    /// `7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1`; then North's hole 2 (pit 6) and South's hole 1 again
    /// give `7,0,8,8,8,8,8,1,0,9,8,8,8,8,8,1` (the engine gives South's first move no repeat).
    #[test]
    fn seven_pits_sow_as_the_mankalah_engine() {
        assert_eq!(Board7::PITS, 7);
        assert_eq!((Board7::KALAH_A, Board7::KALAH_B), (7, 15));
        let mut b = Board7::opening(7);
        assert_eq!(b.legal_moves(), (1..=7).collect::<Vec<u8>>());
        let r = b.play(7).unwrap();
        assert!(r.repeat, "7 stones from the far pit end in the kalah");
        assert_eq!(mkagent_state(&b), "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1");
        b.to_move = Side::B; // the engine's first-move rule
        assert_eq!(
            b.play(6).unwrap(),
            MoveResult {
                repeat: false,
                captured: 0
            }
        );
        assert_eq!(
            b.play(7).unwrap(),
            MoveResult {
                repeat: false,
                captured: 0
            }
        );
        assert_eq!(mkagent_state(&b), "7,0,8,8,8,8,8,1,0,9,8,8,8,8,8,1");
        assert_eq!(b.play(8), Err(MoveError::NoSuchPit(8)));
    }

    /// Captures on the seven-pit board: a_k faces b_(8−k); the empty-capture rule banks the last
    /// stone even when the opposite pit is empty.
    #[test]
    fn seven_pits_capture() {
        let mut b = Board7::opening(0);
        b.cells[Board7::pit_index(Side::A, 2)] = 1;
        b.cells[Board7::pit_index(Side::B, 7)] = 5;
        b.cells[Board7::pit_index(Side::B, 1)] = 1;
        assert_eq!(Board7::opposite(Board7::pit_index(Side::A, 1)), 8);
        let (c, r) = b.after(2).unwrap();
        assert_eq!(r.captured, 6);
        assert_eq!(
            (c.kalah(Side::A), c.pit(Side::B, 7), c.pit(Side::A, 1)),
            (6, 0, 0)
        );
        b.cells[Board7::pit_index(Side::B, 7)] = 0;
        let (c, r) = b.after(2).unwrap();
        assert_eq!((r.captured, c.pit(Side::A, 1)), (0, 1));
        let (c, r) = b.after_with(2, Capture::Empty).unwrap();
        assert_eq!((r.captured, c.kalah(Side::A), c.pit(Side::A, 1)), (1, 1, 0));
    }

    /// A sowing of 16 on the seven-pit board goes round once (15 holes, Kb skipped) and puts the
    /// 16th stone in the origin pit's neighbour, the origin pit itself getting one.
    #[test]
    fn seven_pits_wrap_skips_the_opponent_kalah() {
        let mut b = Board7::opening(0);
        b.cells[Board7::pit_index(Side::A, 4)] = 16;
        b.cells[Board7::pit_index(Side::B, 1)] = 1;
        b.play(4).unwrap();
        assert_eq!(b.kalah(Side::B), 0);
        assert_eq!(b.kalah(Side::A), 1);
        assert_eq!(b.pit(Side::A, 4), 1, "the origin pit is not skipped");
        assert_eq!(b.pit(Side::A, 3), 2);
        assert_eq!(b.pits_total(Side::A) + b.pits_total(Side::B), 16);
        assert_eq!(b.stones(), 17);
    }
}
