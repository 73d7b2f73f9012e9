//! A match replayed with the reference's values: each action of a match logged by
//! `mankalah_bench --log FILE` (the answers `<a MOVE;h` / `<a SWAP` in order), and before it the
//! value of the position (South's kalah minus North's) from the static deepening to `depth`,
//! with the move that search would play. `cargo run --release -p kalah --example
//! mankalah_replay -- FILE MATCH-NUMBER-IN-FILE DEPTH [AT]`. With AT (a position's index, the
//! first column), only that position: each depth's move and value up to DEPTH, and the exact
//! value of each move (`kalah::solve`) when few seeds are left.
use kalah::mankalah::{config, deepen, Action, Match, HOLES};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&args[0]).expect("the log");
    let which: usize = args[1].parse().expect("match number");
    let depth: u32 = args[2].parse().expect("depth");
    let at: Option<usize> = args.get(3).map(|a| a.parse().expect("a position index"));
    let mut index = 0;
    // Positions before FROM (an environment variable, an index) are played, not searched.
    let from: usize = std::env::var("FROM").map_or(0, |f| f.parse().expect("FROM: an index"));
    let block = text
        .split("\n== ")
        .nth(which - 1)
        .expect("no such match (1 is the first)");
    println!("{}", block.lines().next().unwrap_or(""));
    let mut m = Match::default();
    for line in block.lines() {
        let (agent, a) = if let Some(r) = line.strip_prefix("<0 ") {
            (0, r)
        } else if let Some(r) = line.strip_prefix("<1 ") {
            (1, r)
        } else {
            continue;
        };
        let action = if a == "SWAP" {
            Action::Swap
        } else {
            Action::Move(a.trim_start_matches("MOVE;").parse().expect("a hole"))
        };
        let side = m.to_move();
        index += 1;
        if let Some(at) = at {
            if index - 1 == at {
                println!(
                    "{:?} {side:?} to move, sowings {}",
                    m.board.cells,
                    m.sowings()
                );
                for d in 1..=depth {
                    let (r, _) = deepen(&m, &config(d, false)).expect("a move");
                    // The same depth searched alone (no previous best move first): the
                    // move among equal values is the first in the static order.
                    let alone =
                        kalah::search::search(&m.board, m.sowings(), &config(d, false), false)
                            .expect("a move");
                    println!(
                        "depth {d}: hole {} value {} e {} (alone: hole {})",
                        HOLES + 1 - r.best,
                        r.value,
                        r.effort,
                        HOLES + 1 - alone.best
                    );
                }
                if m.board
                    .cells
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % 8 != 7)
                    .map(|(_, &c)| u32::from(c))
                    .sum::<u32>()
                    <= 30
                {
                    for (pit, v) in kalah::solve::solve_moves(&m.board) {
                        println!("exact: hole {} {v}", HOLES + 1 - pit);
                    }
                }
                println!("played {action:?}");
                return;
            }
            m.play(action).expect("legal");
            continue;
        }
        if index - 1 < from {
            m.play(action).expect("legal");
            continue;
        }
        let (r, values) = deepen(&m, &config(depth, false)).expect("a move");
        let v: Vec<String> = values.iter().rev().take(2).map(i32::to_string).collect();
        println!(
            "{:>2} agent {agent} {side:?} {:<8} ref {:<6} values {:>8}  board {:?}",
            m.sowings(),
            format!("{action:?}"),
            format!("{}", HOLES + 1 - r.best),
            v.join(","),
            m.board.cells
        );
        m.play(action).expect("legal");
    }
    println!("final {:?}", m.board.cells);
}
