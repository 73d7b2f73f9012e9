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
