//! Bell's program learning against the DEC program (kalah::choose, short look on) at depths 1–4:
//! games won in each block of 20, from an empty memory; the DEC program plays the person and
//! opens every other game. Then the kalah relations (near-wins) the parameters reach, beside
//! Bell's Figure 6, after 200 games against the DEC program at depths 1–4 in turn.
//!
//! cargo run --release -p kalah --example bell_learning [games per depth]

use kalah::bell::*;
use kalah::search::{choose, Settings};

fn dec_turn(b: &kalah::Board, depth: u32) -> Vec<u8> {
    let mut c = *b;
    let mut t = Vec::new();
    while c.to_move == PERSON && !c.is_terminal() {
        let m = choose(&c, 0, &Settings::new(depth)).expect("a move").best;
        c.play(m).expect("legal");
        t.push(m);
    }
    t
}

fn game(bell: &mut Bell, machine_first: bool, depth: u32) -> GameResult {
    let mut g = Game::new(machine_first);
    while !g.over() {
        if g.board.to_move == MACHINE {
            bell.machine_turn(&mut g).expect("a turn");
        } else {
            let t = dec_turn(&g.board, depth);
            g.play(&t).expect("legal");
        }
    }
    bell.finish(&g);
    g.result().expect("over")
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    for (name, opts) in [
        ("Bell's program", Options::default()),
        ("memory alone", Options::plain()),
    ] {
        println!("\n{name}: games won (drawn) of each 20 against the DEC program\n");
        let blocks = n.div_ceil(20);
        print!("| depth |");
        for k in 0..blocks {
            print!(" {}–{} |", 20 * k + 1, (20 * k + 20).min(n));
        }
        println!(" memory |");
        println!("|---|{}---|", "---|".repeat(blocks));
        for depth in 1..=4 {
            let mut bell = Bell::new(opts.clone());
            print!("| {depth} |");
            for k in 0..blocks {
                let (mut won, mut drawn) = (0, 0);
                for i in 20 * k..(20 * k + 20).min(n) {
                    match game(&mut bell, i % 2 == 0, depth) {
                        GameResult::Won => won += 1,
                        GameResult::Drawn => drawn += 1,
                        GameResult::Lost => {}
                    }
                }
                print!(" {won} ({drawn}) |");
            }
            println!(" {} |", bell.memory.len());
        }
    }
    for draws_as_wins in [false, true] {
        let mut bell = Bell::new(Options {
            draws_as_wins,
            ..Options::default()
        });
        for i in 0..200 {
            game(&mut bell, i % 2 == 0, 1 + (i / 2 % 4) as u32);
        }
        println!(
            "\nnear-wins after 200 games{}: Mk/Pk",
            if draws_as_wins {
                ", draws counted as wins"
            } else {
                ""
            }
        );
        for (mk, pk) in FIGURE_6 {
            println!(
                "  {mk}/{}  (Bell {mk}/{pk})",
                bell.params.near_win[mk as usize].map_or("-".into(), |t| t.to_string())
            );
        }
    }
}
