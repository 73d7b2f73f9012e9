//! The Kalah board and the rules of play, as the DEC application note states them.
//!
//! Layout of the 14 holes follows Russell's Memo 22 ("a6 - kb are consecutive locations"):
//!
//! ```text
//! index:  0  1  2  3  4  5  6   7  8  9 10 11 12 13
//! hole:  a6 a5 a4 a3 a2 a1 Ka  b6 b5 b4 b3 b2 b1 Kb
//! ```
//!
//! so that sowing is simply "next index, wrapping 13 → 0", skipping the opponent's kalah. Player A
//! is the lower player and moves first; B is the upper player. Pits are numbered as in the DEC note:
//! pit 1 is the one nearest its owner's kalah. Pit `i` (not a kalah) is opposite pit `12 − i`.
//!
//! The PDP-1 program (roms/kalah.mac) uses the same layout in memory.

use std::fmt;

/// Number of holes: 6 pits per side plus two kalahs.
pub const HOLES: usize = 14;
/// Index of player A's (lower) kalah.
pub const KALAH_A: usize = 6;
/// Index of player B's (upper) kalah.
pub const KALAH_B: usize = 13;

/// The two players. A is the lower player, who moves first and maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    /// Index of this side's kalah.
    pub fn kalah(self) -> usize {
        match self {
            Side::A => KALAH_A,
            Side::B => KALAH_B,
        }
    }
    /// Index of this side's pit `pit` (1..=6, 1 nearest the kalah).
    pub fn pit_index(self, pit: u8) -> usize {
        debug_assert!((1..=6).contains(&pit));
        self.kalah() - pit as usize
    }
    /// True if hole `i` is one of this side's six pits.
    pub fn owns_pit(self, i: usize) -> bool {
        let k = self.kalah();
        i < k && i + 6 >= k
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
    #[error("pit {0} does not exist (pits are 1..6)")]
    NoSuchPit(u8),
    #[error("pit {0} is empty")]
    EmptyPit(u8),
    #[error("the game is over")]
    GameOver,
}

/// A position: the holes and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub cells: [u8; HOLES],
    pub to_move: Side,
}

impl Board {
    /// The opening position with `stones` in each pit, A to move.
    pub fn new(stones: u8) -> Board {
        let mut cells = [stones; HOLES];
        cells[KALAH_A] = 0;
        cells[KALAH_B] = 0;
        Board {
            cells,
            to_move: Side::A,
        }
    }

    /// Stones in `side`'s pit `pit` (1..=6).
    pub fn pit(&self, side: Side, pit: u8) -> u8 {
        self.cells[side.pit_index(pit)]
    }

    pub fn kalah(&self, side: Side) -> u8 {
        self.cells[side.kalah()]
    }

    /// Sum of the stones in `side`'s six pits.
    pub fn pits_total(&self, side: Side) -> u32 {
        (1..=6).map(|p| self.pit(side, p) as u32).sum()
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

    /// Legal moves (pits 1..=6 of the side to move that are non-empty), pit 1 first.
    pub fn legal_moves(&self) -> Vec<u8> {
        if self.is_terminal() {
            return Vec::new();
        }
        (1..=6).filter(|&p| self.pit(self.to_move, p) > 0).collect()
    }

    /// Make the move `pit` for the side to move.
    pub fn play(&mut self, pit: u8) -> Result<MoveResult, MoveError> {
        if !(1..=6).contains(&pit) {
            return Err(MoveError::NoSuchPit(pit));
        }
        if self.is_terminal() {
            return Err(MoveError::GameOver);
        }
        let side = self.to_move;
        let start = side.pit_index(pit);
        let mut n = self.cells[start];
        if n == 0 {
            return Err(MoveError::EmptyPit(pit));
        }
        self.cells[start] = 0;
        let skip = side.other().kalah();
        let mut pos = start;
        // Sow one stone per hole, skipping the opponent's kalah (DEC rule 2). The origin pit is not
        // skipped on a sowing of 13 or more (kalah.md §6 conventions).
        while n > 0 {
            pos = (pos + 1) % HOLES;
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
        if pos == side.kalah() {
            result.repeat = true;
        } else if side.owns_pit(pos) && self.cells[pos] == 1 && self.cells[12 - pos] > 0 {
            // Capture only when the opposite pit is non-empty (DEC rule 3c, kalah.md §0).
            let taken = 1 + self.cells[12 - pos];
            self.cells[pos] = 0;
            self.cells[12 - pos] = 0;
            self.cells[side.kalah()] += taken;
            result.captured = taken;
        }
        if !result.repeat {
            self.to_move = side.other();
        }
        Ok(result)
    }

    /// The position after `pit`, and what the move did.
    pub fn after(&self, pit: u8) -> Result<(Board, MoveResult), MoveError> {
        let mut b = *self;
        let r = b.play(pit)?;
        Ok((b, r))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The board as the DEC note's figure shows it: B's pits 1..6 left to right above, the kalahs
/// (Kb left, Ka right), A's pits 6..1 below, and the side to move.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "   ")?;
        for p in 1..=6 {
            write!(f, "{:3}", self.pit(Side::B, p))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:3}{:18}{:3}",
            self.kalah(Side::B),
            "",
            self.kalah(Side::A)
        )?;
        write!(f, "   ")?;
        for p in (1..=6).rev() {
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
}
