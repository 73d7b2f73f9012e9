//! A reading of characteristics for Figure 8's memory sizes (issue 29; docs/bell.md, "Figure 8:
//! Bell's three memory sizes"), opt-in ([`super::Options::loss_characteristics`], off by
//! default; the PDP-1 program's test-word bit 9, `olw`).
//!
//! A. G. Bell, "Kalah on Atlas", IV.4 describes characteristics of wins only, "by
//! non-equivalencing the compressed position before the winning move with the compressed
//! position after the winning move". A loss of the machine is a win of its opponent, and Figure
//! 4's caption records the opponent's win: "X is recorded in the memory as a winner and the
//! machine will prevent the opponent having it". So here a lost position L (machine to move)
//! is recorded, when it can be, as the characteristics of the person's wins after each of the
//! machine's turns from L, seen from his side (the sides exchanged, [`mirror`]): a position
//! reached by one of those turns is then a winner for the person to move, and L is lost to the
//! look-ahead one level above.

use super::memory::{characteristic, compact, Entry, Outcome, Table};
use super::notation::{mirror, turns, PERSON};
use crate::board::Board;

/// The person's wins that make `l` (machine to move) lost, as characteristics seen from his
/// side. For each of the machine's turns from `l`: nothing if `rules_lost` (the rules decide
/// it lost for the machine, `end_value`) says so of the position it reaches, or if `table`
/// already holds that position as the person's winner; else the characteristic of his first
/// turn (in list order) that takes his kalah past half. `None` when some turn of the machine
/// reaches a position he cannot win that way (then `l` is recorded whole). The
/// characteristics found for earlier turns count for later ones.
pub fn opponent_wins(
    table: &Table,
    l: &Board,
    rules_lost: impl Fn(&Board) -> bool,
) -> Option<Vec<Entry>> {
    let mut found: Vec<Entry> = Vec::new();
    for (_, x) in turns(l) {
        if rules_lost(&x) {
            continue;
        }
        if x.is_terminal() || x.to_move != PERSON {
            return None;
        }
        let m = mirror(&x);
        let c = compact(&m)?;
        let known = table.lookup(&m).is_some_and(|e| e.outcome == Outcome::Win)
            || found.iter().any(|e| e.matches(&m, c));
        if known {
            continue;
        }
        found.push(
            turns(&m)
                .into_iter()
                .find_map(|(w, _)| characteristic(&m, &w))?,
        );
    }
    Some(found)
}
