//! Perft-style counts (kalah.md §6 conventions): 1 ply = 1 sowing, a free move is a further ply
//! by the same player, a finished game has no successors.

use crate::board::Board;

/// Number of move sequences of exactly `depth` sowings from `b`.
pub fn perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    b.legal_moves()
        .into_iter()
        .map(|m| perft(&b.after(m).expect("legal").0, depth - 1))
        .sum()
}

/// Number of move sequences of exactly `depth` whole turns (a free-move chain is part of one
/// turn; a turn that ends the game ends the sequence and counts only at the last turn).
pub fn turn_perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in b.legal_moves() {
        let (c, r) = b.after(m).expect("legal");
        if r.repeat && !c.is_terminal() {
            // the same player's turn goes on: still `depth` turns to count
            n += turn_perft(&c, depth);
        } else {
            n += turn_perft(&c, depth - 1);
        }
    }
    n
}
