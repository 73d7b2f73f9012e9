//! An exhaustive solver (value of perfect play to the end of the game), memoised on the pits and
//! the side to move. Independent of the α-β code; used to check against published values.

use crate::board::{Board, Side};
use std::collections::HashMap;

/// Exact final margin (A's kalah − B's kalah at the end) under perfect play from `b`.
pub fn solve<const H: usize>(b: &Board<H>) -> i32 {
    let mut memo = HashMap::new();
    kalahs(b) + future(b, &mut memo)
}

/// The value of each opening move of `b` with perfect play afterwards.
pub fn solve_moves<const H: usize>(b: &Board<H>) -> Vec<(u8, i32)> {
    let mut memo = HashMap::new();
    b.legal_moves()
        .into_iter()
        .map(|m| {
            let (c, _) = b.after(m).expect("legal");
            (m, kalahs(&c) + future(&c, &mut memo))
        })
        .collect()
}

type Key<const H: usize> = ([u8; H], bool);

/// Ka − Kb.
fn kalahs<const H: usize>(b: &Board<H>) -> i32 {
    b.kalah(Side::A) as i32 - b.kalah(Side::B) as i32
}

/// Kalah gain A − B from here to the end. The kalahs do not influence play, so the key zeroes them.
fn future<const H: usize>(b: &Board<H>, memo: &mut HashMap<Key<H>, i32>) -> i32 {
    if b.is_terminal() {
        return b.pits_total(Side::A) as i32 - b.pits_total(Side::B) as i32;
    }
    let mut key_cells = b.cells;
    key_cells[Board::<H>::KALAH_A] = 0;
    key_cells[Board::<H>::KALAH_B] = 0;
    let key = (key_cells, b.to_move == Side::A);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let vals = b.legal_moves().into_iter().map(|m| {
        let (c, _) = b.after(m).expect("legal");
        kalahs(&c) - kalahs(b) + future(&c, memo)
    });
    let v = match b.to_move {
        Side::A => vals.max(),
        Side::B => vals.min(),
    }
    .expect("non-terminal");
    memo.insert(key, v);
    v
}

/// Proofs of wins: can a side force more than half of the stones from a position? An AND/OR
/// search memoised on the whole position (kalahs included, since the goal is a stone count),
/// stopping when a kalah holds more than half (or the other exactly half). Independent of the
/// α-β code: the teacher of Bell's program and the check of his commentary.
#[derive(Default)]
pub struct Prover {
    memo: HashMap<([u8; 14], bool, bool), bool>,
    /// Positions examined.
    pub nodes: u64,
}

impl Prover {
    pub fn new() -> Prover {
        Prover::default()
    }

    /// Can `side` force more than half of the stones, whoever is to move in `b`?
    pub fn wins(&mut self, b: &Board, side: Side) -> bool {
        self.nodes += 1;
        let total = b.stones();
        let own = b.kalah(side) as u32;
        let theirs = b.kalah(side.other()) as u32;
        if b.is_terminal() {
            return 2 * (own + b.pits_total(side)) > total;
        }
        if 2 * own > total {
            return true;
        }
        if 2 * theirs >= total {
            return false;
        }
        let key = (b.cells, b.to_move == Side::A, side == Side::A);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut moves = b.legal_moves();
        // Repeats and captures first: the proofs are found sooner.
        moves.sort_by_key(|&m| {
            let (_, r) = b.after(m).expect("legal");
            !(r.repeat || r.captured > 0)
        });
        let v = if b.to_move == side {
            moves
                .iter()
                .any(|&m| self.wins(&b.after(m).expect("legal").0, side))
        } else {
            moves
                .iter()
                .all(|&m| self.wins(&b.after(m).expect("legal").0, side))
        };
        self.memo.insert(key, v);
        v
    }
}
