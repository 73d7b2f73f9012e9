//! Print the engine's choice, value and effort from the opening: `cargo run -p kalah --release
//! --example effort -- [stones] [max-depth]`.
use kalah::{choose, Board, Settings};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let stones = args.first().copied().unwrap_or(3) as u8;
    let max = args.get(1).copied().unwrap_or(8);
    let b = Board::new(stones);
    for d in 1..=max {
        for s in [Settings::new(d), Settings::static_only(d)] {
            let r = choose(&b, 0, &s).expect("opening has moves");
            println!(
                "depth {d} short_look {}: move {} value {} e {} p {}",
                s.short_look, r.best, r.value, r.effort, r.long_effort
            );
        }
    }
}
