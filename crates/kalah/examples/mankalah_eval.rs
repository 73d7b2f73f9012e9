//! Does an evaluation beyond the kalah difference win more? The 7×7 reference search at a fixed
//! depth with the estimate 4 (Ka − Kb) + w (seeds in A's pits − seeds in B's pits) — a seed on
//! one's own side worth w/4 of a seed in the kalah (they go to their owner at the end of the
//! game) — plays the plain search (Ka − Kb) at the same depth, whole matches of the pie-rule
//! game, each side in turn; the first two actions random (seed = match number) so that the
//! matches differ. Static order, no deepening (the values, not the time, are compared).
//! `cargo run --release -p kalah --example mankalah_eval -- [matches] [depth] [w]`
//! (docs/kalah.md, "Depth and time").
#[path = "support/random_action.rs"]
mod random_action;
use kalah::board::Board;
use kalah::mankalah::{config, Action, Match, HOLES};
use kalah::search::{self, Config};
use kalah::{Evaluate, Side};
use random_action::random_action;

/// 4 (Ka − Kb) + w (pits A − pits B); the end of the game 4 × the utility.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sides(i32);

impl<const H: usize> Evaluate<H> for Sides {
    fn decided(&self, b: &Board<H>) -> Option<i32> {
        b.is_terminal().then(|| 4 * b.utility())
    }
    fn estimate(&self, b: &Board<H>) -> i32 {
        4 * (b.kalah(Side::A) as i32 - b.kalah(Side::B) as i32)
            + self.0 * (b.pits_total(Side::A) as i32 - b.pits_total(Side::B) as i32)
    }
}

fn main() {
    let args: Vec<i32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let matches = args.first().copied().unwrap_or(20);
    let depth = args.get(1).copied().unwrap_or(6) as u32;
    let w = args.get(2).copied().unwrap_or(1);
    let plain = config(depth, false);
    let p = plain.clone();
    let sides = Config {
        value: Sides(w),
        rules: p.rules,
        order: p.order,
        levels: p.levels,
        depth: p.depth,
        alpha: -4 * 255,
        beta: 4 * 255,
        gamma: p.gamma,
        count_root: p.count_root,
        first_pv: p.first_pv,
        lines: p.lines,
        cutoff: p.cutoff,
        search_root: p.search_root,
        root_first: None,
        budget: None,
        floor: None,
        lost_first: false,
    };
    let (mut won, mut drawn, mut lost, mut margin) = (0, 0, 0, 0i32);
    let (mut e_sides, mut e_plain) = (0u64, 0u64);
    for i in 0..matches {
        // The evaluation's player starts (South) in even matches.
        let sides_first = i % 2 == 0;
        let mut seed = 0x2851_u64 + i as u64;
        let mut m = Match::default();
        while !m.over() {
            let a = if m.actions < 2 {
                random_action(&m, &mut seed)
            } else {
                // The match's first player plays board side A unless North swapped.
                let first_to_move = (m.to_move() == Side::A) != m.swapped;
                let r = if first_to_move == sides_first {
                    let r = search::search(&m.board, m.sowings(), &sides, false);
                    e_sides += r.as_ref().map_or(0, |r| r.effort);
                    r
                } else {
                    let r = search::search(&m.board, m.sowings(), &plain, false);
                    e_plain += r.as_ref().map_or(0, |r| r.effort);
                    r
                };
                Action::Move(HOLES + 1 - r.expect("a move").best)
            };
            m.play(a).expect("legal");
        }
        let st = m.state_numbers();
        let (north, south) = (st[7] as i32, st[15] as i32);
        // The evaluation's player is South if it started and nobody swapped, or if it did not
        // start and North (it) swapped.
        let sides_south = sides_first != m.swapped;
        let d = if sides_south {
            south - north
        } else {
            north - south
        };
        margin += d;
        match d.signum() {
            1 => won += 1,
            0 => drawn += 1,
            _ => lost += 1,
        }
    }
    println!(
        "depth {depth}, w {w}: 4(Ka-Kb)+{w}(pits) against Ka-Kb, {matches} matches: \
         {won} won {drawn} drawn {lost} lost, mean margin {:+.1}; e {e_sides} against {e_plain}",
        margin as f64 / matches as f64
    );
}
