//! Perft-style counts (kalah.md §6 conventions): 1 ply = 1 sowing, a free move is a further ply
//! by the same player, a finished game has no successors. Any board size and capture rule.

use crate::board::{Board, Capture};

/// Number of move sequences of exactly `depth` sowings from `b` (DEC rules).
pub fn perft<const H: usize>(b: &Board<H>, depth: u32) -> u64 {
    perft_with(b, Capture::Standard, depth)
}

/// [`perft`] with the capture rule `capture`.
pub fn perft_with<const H: usize>(b: &Board<H>, capture: Capture, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    b.legal_moves()
        .into_iter()
        .map(|m| {
            perft_with(
                &b.after_with(m, capture).expect("legal").0,
                capture,
                depth - 1,
            )
        })
        .sum()
}

/// Number of move sequences of exactly `depth` whole turns (a free-move chain is part of one
/// turn; a turn that ends the game ends the sequence and counts only at the last turn).
pub fn turn_perft<const H: usize>(b: &Board<H>, depth: u32) -> u64 {
    turn_perft_with(b, Capture::Standard, depth)
}

/// [`turn_perft`] with the capture rule `capture`.
pub fn turn_perft_with<const H: usize>(b: &Board<H>, capture: Capture, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in b.legal_moves() {
        let (c, r) = b.after_with(m, capture).expect("legal");
        if r.repeat && !c.is_terminal() {
            // the same player's turn goes on: still `depth` turns to count
            n += turn_perft_with(&c, capture, depth);
        } else {
            n += turn_perft_with(&c, capture, depth - 1);
        }
    }
    n
}
