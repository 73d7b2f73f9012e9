//! The swap table of the 7×7 pie-rule game: for each of South's seven openings (protocol hole
//! 1–7 from the opening with 7 seeds), the value of the position North faces (South's kalah
//! minus North's) at each depth of the reference search, the swap value of the deepest two
//! (`kalah::mankalah::swap_value`) and the decision. `cargo run --release -p kalah --example
//! mankalah_openings -- [max-depth]` (docs/kalah.md, "The swap").
use kalah::mankalah::{config, swap_value, Action, Match};
use kalah::search;
use std::time::Instant;

fn main() {
    let max: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    println!("| South's hole | DEC pit | values at depths 1–{max} | swap value | North |");
    println!("|---:|---:|---|---:|---|");
    for h in 1..=7 {
        let mut m = Match::default();
        m.play(Action::Move(h)).expect("an opening move");
        let t = Instant::now();
        let values: Vec<i32> = (1..=max)
            .map(|d| {
                search::search(&m.board, m.sowings(), &config(d, false), false)
                    .expect("North has moves")
                    .value
            })
            .collect();
        let v = swap_value(&values);
        let list: Vec<String> = values.iter().map(i32::to_string).collect();
        println!(
            "| {h} | {} | {} | {v} | {} |",
            8 - h,
            list.join(" "),
            if v > 0 { "swaps" } else { "moves" }
        );
        eprintln!("hole {h}: {:.1} s", t.elapsed().as_secs_f64());
    }
}
