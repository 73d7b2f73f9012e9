//! Sides, Bell's notation and turns: A. G. Bell, "Kalah on Atlas", *Machine Intelligence 3*
//! (1968), Figure 2 and IV.1. The machine plays the top row (M1–M6, [`MACHINE`], the search's
//! maximiser), the person the bottom row (P1–P6, [`PERSON`]); a turn is a side's sowings up to
//! the one that does not end in its own kalah, listed in the order of Bell's routine
//! ([`turns`]); [`mirror`] exchanges the sides.

use crate::board::{Board, MoveError, Side};
use std::fmt;

/// The machine's side (the top row of Bell's Figure 2; the search's maximiser).
pub const MACHINE: Side = Side::A;
/// The person's side (the bottom row).
pub const PERSON: Side = Side::B;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
