//! Russell's proof searches in the engine: `cargo run -p kalah --release --example proof --
//! [stones] [max-id] [op]` — Russell's depth id (id − 1 turns), α = 101, β = 102, option 1 off
//! (short-look depth 3).
use kalah::russell::{analyse, Analysis, OP_POSTPONE};
use kalah::Board;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let stones = args.first().copied().unwrap_or(2) as u8;
    let max = args.get(1).copied().unwrap_or(13);
    let op = args.get(2).copied().unwrap_or(OP_POSTPONE);
    for depth in 2..=max {
        let a = Analysis {
            alpha: 101,
            beta: 102,
            op,
            ..Analysis::russell(depth)
        };
        let t = std::time::Instant::now();
        let r = analyse(&Board::new(stones), 0, &a).expect("opening");
        println!(
            "stones {stones} id {depth}: move {} v {} e {} p {} ({} ms)",
            r.best,
            r.value,
            r.effort,
            r.long_effort,
            t.elapsed().as_millis()
        );
    }
}
