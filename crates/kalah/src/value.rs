//! Value functions: what a position is worth when the search stops at it. The search
//! ([`crate::search`]) asks an [`Evaluate`] whether a position is decided (and its value), and at
//! the depth limit for an estimate. [`Valuation`] provides the DEC note's utility and Russell's
//! end-game check and evaluator; Bell's Mk − Pk with its memory is [`crate::bell::BellValue`].

use crate::board::{Board, Ply, Side};

/// A value function for the search, on boards of `H` holes.
pub trait Evaluate<const H: usize> {
    /// The value of `b` if the search should stop there whatever the depth (the game is over, or
    /// decided as far as this value function is concerned).
    fn decided(&self, b: &Board<H>) -> Option<i32>;
    /// The value of an undecided position at the depth limit.
    fn estimate(&self, b: &Board<H>) -> i32;
    /// [`Evaluate::decided`] for a position the main search reached by the sowings `path` from
    /// its root (inside a short look, the variation of the node being ordered). Bell's split memory needs it: which part of the
    /// memory applies depends on the reply to the opening, which may be the root's own turn.
    fn decided_at(&self, b: &Board<H>, path: &[Ply]) -> Option<i32> {
        let _ = path;
        self.decided(b)
    }
    /// What a memory of the value function holds for `b` (reached by `path`), looked up with
    /// no other effect: for ordering moves ([`crate::search::Config::lost_first`]). None by
    /// default (no memory).
    fn remembered(&self, b: &Board<H>, path: &[Ply]) -> Option<i32> {
        let _ = (b, path);
        None
    }
}

/// When a position counts as decided, and its value then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The game is over; value Ka − Kb + pits A − pits B (the DEC note's utility).
    Utility,
    /// Russell's end-game check ([`decided`]) with the 100-scale value ([`egc_value`]).
    Egc,
}

/// The value of an undecided position at the depth limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Estimate {
    /// Ka − Kb (the DEC note's utility; Russell's option 4, "bird in hand").
    KalahDifference,
    /// Russell's evaluator [`russell_eval`].
    Russell,
}

/// The value functions of the DEC game and Russell's program: an end check and an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Valuation {
    pub end: End,
    pub estimate: Estimate,
}

impl Valuation {
    /// The DEC note's utility.
    pub const DEC: Valuation = Valuation {
        end: End::Utility,
        estimate: Estimate::KalahDifference,
    };
}

impl<const H: usize> Evaluate<H> for Valuation {
    fn decided(&self, b: &Board<H>) -> Option<i32> {
        match self.end {
            End::Utility => b.is_terminal().then(|| b.utility()),
            End::Egc => decided(b).then(|| egc_value(b)),
        }
    }
    fn estimate(&self, b: &Board<H>) -> i32 {
        match self.estimate {
            Estimate::KalahDifference => b.kalah(Side::A) as i32 - b.kalah(Side::B) as i32,
            Estimate::Russell => russell_eval(b),
        }
    }
}

/// Russell's end-game check: one side's pits are empty or one kalah holds more than half of
/// the stones.
pub fn decided<const H: usize>(b: &Board<H>) -> bool {
    let t = b.stones();
    b.is_terminal() || 2 * b.kalah(Side::A) as u32 > t || 2 * b.kalah(Side::B) as u32 > t
}

/// The 100-scale value of a decided position.
pub fn egc_value<const H: usize>(b: &Board<H>) -> i32 {
    let d = (b.kalah(Side::A) as i32 + b.pits_total(Side::A) as i32)
        - (b.kalah(Side::B) as i32 + b.pits_total(Side::B) as i32);
    if d >= 0 {
        100 + d
    } else {
        -100 + d
    }
}

/// Russell's evaluator EV: with more than 16 stones in the pits Ka − Kb; otherwise every
/// non-empty pit of both sides is sown at once from the board (no captures, each side skipping
/// the other's kalah) and the stones on side A (pits and kalah) less those on side B.
pub fn russell_eval<const H: usize>(b: &Board<H>) -> i32 {
    let in_pits = b.pits_total(Side::A) + b.pits_total(Side::B);
    if in_pits > 16 {
        return b.kalah(Side::A) as i32 - b.kalah(Side::B) as i32;
    }
    let (ka, kb) = (Board::<H>::KALAH_A, Board::<H>::KALAH_B);
    let mut c = [0u32; H];
    c[ka] = b.cells[ka] as u32;
    c[kb] = b.cells[kb] as u32;
    for side in [Side::A, Side::B] {
        let skip = Board::<H>::kalah_index(side.other());
        for p in 1..=Board::<H>::PITS as u8 {
            let i = Board::<H>::pit_index(side, p);
            let mut pos = i;
            for _ in 0..b.cells[i] {
                pos = (pos + 1) % H;
                if pos == skip {
                    pos = (pos + 1) % H;
                }
                c[pos] += 1;
            }
        }
    }
    let a: u32 = c[0..=ka].iter().sum();
    let bb: u32 = c[ka + 1..=kb].iter().sum();
    a as i32 - bb as i32
}
