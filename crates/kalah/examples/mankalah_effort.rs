//! What the 7×7 program's time-managed search costs with each move order: positions examined
//! (`e`, which the PDP-1 program examines at about 3 ms each) by iterative deepening to each
//! depth (`kalah::mankalah::deepen`, each depth searched alone) with the static order, against
//! the deepening that searches the previous depth's best move first at the root
//! (`Config::root_first`, the program's `rbf` from issue 28 until it was measured to lose more,
//! docs/kalah.md); with `--short-look`, the deepening with Russell's short look against the
//! static order; with `--table [BITS [MIN-LEFT [always]]]`, the static deepening with a
//! transposition table (issue 28: by default the program's, `kalah::mankalah::program_table`)
//! against without. Summed over positions of matches the reference plays against itself (its
//! first two actions random). `cargo run --release -p kalah --example mankalah_effort --
//! [matches] [max-depth] [--short-look | --table …]` (docs/kalah.md, "Depth and time").
#[path = "support/random_action.rs"]
mod random_action;
use kalah::mankalah::{
    choose, config, deepen, deepen_in, Action, Match, TABLE_BITS, TABLE_MIN_LEFT,
};
use kalah::search;
use kalah::search::{Config, Table};
use random_action::random_action;

fn main() {
    let short_too = std::env::args().any(|a| a == "--short-look");
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let matches = args.first().copied().unwrap_or(4);
    let max = args.get(1).copied().unwrap_or(9);
    // Positions: every fifth action of matches at depth 4, the first two actions random.
    let mut positions = Vec::new();
    let mut seed = 0x2851_u64;
    for _ in 0..matches {
        let mut m = Match::default();
        while !m.over() {
            let a = if m.actions < 2 {
                random_action(&m, &mut seed)
            } else {
                choose(&m, 4).expect("a move")
            };
            if m.actions % 5 == 3 {
                positions.push(m.clone());
            }
            m.play(a).expect("legal");
            if a == Action::Swap {
                continue;
            }
        }
    }
    println!(
        "{} positions; e summed over the deepening to each depth",
        positions.len()
    );
    // `--table [BITS [MIN-LEFT [always]]]`: the deepening with a transposition table against
    // without; by default the program's table (`program_table`).
    let table: Option<Vec<String>> = {
        let a: Vec<String> = std::env::args().collect();
        a.iter()
            .position(|x| x == "--table")
            .map(|i| a[i + 1..].to_vec())
    };
    if let Some(spec) = table {
        // An argument given must be what it says; a wrong one is refused, not taken as the
        // default.
        let number = |i: usize, default: u32, max: u32, what: &str| -> u32 {
            match spec.get(i) {
                None => default,
                Some(a) => a.parse().ok().filter(|&v| v <= max).unwrap_or_else(|| {
                    eprintln!("mankalah_effort: --table {what} must be 0–{max}, not {a:?}");
                    std::process::exit(2)
                }),
            }
        };
        let bits = number(0, TABLE_BITS, 24, "BITS");
        let min_left = number(1, TABLE_MIN_LEFT, 36, "MIN-LEFT");
        let keep = match spec.get(2).map(String::as_str) {
            None => true,
            Some("always") => false,
            Some(a) => {
                eprintln!("mankalah_effort: --table's third argument is `always`, not {a:?}");
                std::process::exit(2)
            }
        };
        println!(
            "2^{bits} entries, {min_left} levels left or more, {}",
            if keep {
                "an entry searched deeper kept"
            } else {
                "always replaced"
            }
        );
        println!("| depth | static e | with the table | ratio | cut-offs | look-ups | moves differ | values differ | false hits |");
        println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for d in 1..=max {
            let (mut stat, mut tab, mut cuts, mut probes) = (0u64, 0u64, 0, 0);
            let (mut moves, mut values, mut false_hits) = (0, 0, 0);
            for m in &positions {
                let (a, _) = deepen(m, &config(d, false)).expect("a search");
                let mut t = Table::new(bits);
                t.min_left = min_left;
                t.keep_deeper = keep;
                let (b, _) = deepen_in(m, &config(d, false), &mut t).expect("a search");
                stat += a.effort;
                tab += b.effort;
                cuts += t.cuts;
                probes += t.probes;
                false_hits += t.false_hits;
                moves += usize::from(a.best != b.best);
                values += usize::from(a.value != b.value);
            }
            println!(
                "| {d} | {stat} | {tab} | {:.2} | {cuts} | {probes} | {moves} | {values} | {false_hits} |",
                tab as f64 / stat as f64
            );
        }
        return;
    }
    if short_too {
        println!("| depth | short look e | static e | static / short look |");
        println!("|---:|---:|---:|---:|");
    } else {
        println!("| depth | static e, each depth alone | static e, best move first | ratio |");
        println!("|---:|---:|---:|---:|");
    }
    for d in 1..=max {
        let (mut short, mut plain, mut stat) = (0u64, 0u64, 0u64);
        for m in &positions {
            stat += deepen(m, &config(d, false)).expect("a search").0.effort;
            if short_too {
                short += deepen(m, &config(d, true)).expect("a search").0.effort;
            } else {
                // The deepening with the previous depth's best move first at the root.
                let mut best = None;
                for k in 1..=d {
                    let c = Config {
                        root_first: best,
                        ..config(k, false)
                    };
                    let r = search::search(&m.board, m.sowings(), &c, false).expect("a search");
                    plain += r.effort;
                    best = Some(r.best);
                }
            }
        }
        if short_too {
            println!(
                "| {d} | {short} | {stat} | {:.2} |",
                stat as f64 / short as f64
            );
        } else {
            println!(
                "| {d} | {stat} | {plain} | {:.2} |",
                plain as f64 / stat as f64
            );
        }
    }
}
