//! Strength of `pdp1 --mankalah roms/kalah7.rim` (issue 14): whole matches on the engine
//! harness (`pdp1_tests::mankalah`) against the Rust reference engine at fixed depths and
//! against the random player; half the matches with the PDP-1 as South, half as North. Prints
//! won/drawn/lost per opponent and side and the agent's response time per match (the engine's
//! measure: from the message giving it the turn to its answer, summed over the match).
//!
//! ```text
//! cargo build --release -p pdp1 -p pdp1-tests --bins
//! cargo run --release -p pdp1-tests --example mankalah_bench -- [--depth D] [--matches N]
//!     [--ref-depths 2,4,6] [--no-random]
//! ```
//!
//! The reference and the program search the same way, so two matches between them with the
//! same sides would be the same match: the reference's first two actions are random
//! (`--random-plies 2`, seed = match number), which makes the matches differ and weakens it
//! a little. The random player gets a new seed each match.

use pdp1_tests::mankalah::{play, AgentCmd, HOUR};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An opponent's command for match number n (its seed).
type Opponent = Box<dyn Fn(u32) -> AgentCmd>;

fn main() {
    let mut depth = 10u32;
    let mut matches = 20u32;
    let mut ref_depths = vec![2u32, 4, 6, 8];
    let mut random = true;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--depth" => depth = it.next().and_then(|v| v.parse().ok()).expect("--depth N"),
            "--matches" => matches = it.next().and_then(|v| v.parse().ok()).expect("--matches N"),
            "--ref-depths" => {
                ref_depths = it
                    .next()
                    .expect("--ref-depths LIST")
                    .split(',')
                    .map(|d| d.parse().expect("a depth"))
                    .collect()
            }
            "--no-random" => random = false,
            o => panic!("unknown argument {o}"),
        }
    }
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/examples/mankalah_bench → target/<profile>
    let dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
    let pdp1 = dir.join("pdp1");
    let agent = dir.join("mankalah_agent");
    for b in [&pdp1, &agent] {
        assert!(
            b.exists(),
            "{} is not built: cargo build --release -p pdp1 -p pdp1-tests --bins",
            b.display()
        );
    }
    let tape = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../roms/kalah7.rim");
    let ours = AgentCmd::new(
        &pdp1,
        &[
            "--mankalah",
            &tape.display().to_string(),
            "--depth",
            &depth.to_string(),
        ],
    );
    let mut opponents: Vec<(String, Opponent)> = Vec::new();
    if random {
        let a = agent.clone();
        opponents.push((
            "random".into(),
            Box::new(move |seed| {
                AgentCmd::new(&a, &["--agent", "random", "--seed", &seed.to_string()])
            }),
        ));
    }
    for d in ref_depths {
        let a = agent.clone();
        opponents.push((
            format!("reference depth {d}"),
            Box::new(move |seed| {
                AgentCmd::new(
                    &a,
                    &[
                        "--agent",
                        "reference",
                        "--depth",
                        &d.to_string(),
                        "--seed",
                        &seed.to_string(),
                        "--random-plies",
                        "2",
                    ],
                )
            }),
        ));
    }
    println!("pdp1 --mankalah roms/kalah7.rim --depth {depth}: {matches} matches per opponent");
    println!(
        "{:<20} {:<6} {:>3} {:>3} {:>3}  {:>12} {:>12} {:>12}  {:>5}",
        "opponent", "pdp1", "won", "drn", "lst", "time/match", "max", "CPU/match", "swaps"
    );
    for (name, make) in &opponents {
        for south in [true, false] {
            let (mut w, mut d, mut l, mut swaps) = (0, 0, 0, 0);
            let mut total = Duration::ZERO;
            let mut max = Duration::ZERO;
            let mut cpu = Duration::ZERO;
            let n = matches / 2 + (matches % 2) * u32::from(south);
            for i in 0..n {
                let opp = make(i + 1);
                let t = Instant::now();
                let o = if south {
                    play([&ours, &opp], HOUR)
                } else {
                    play([&opp, &ours], HOUR)
                }
                .expect("agents start");
                if let Some(ab) = &o.aborted {
                    eprintln!("match {i} aborted: {ab:?}\n{}", o.report());
                }
                let me = if south { 0 } else { 1 };
                let r = if south { o.result() } else { -o.result() };
                match r {
                    1 => w += 1,
                    0 => d += 1,
                    _ => l += 1,
                }
                swaps += u32::from(o.swapped);
                total += o.response[me];
                cpu += o.cpu[me].unwrap_or_default();
                max = max.max(o.response[me]);
                eprintln!(
                    "  {name} {} match {}: {} {}-{} (stores), pdp1 {:.2} s over {} answers ({:.2} s CPU), match {:.2} s",
                    if south { "pdp1 first (South)" } else { "pdp1 second (North)" },
                    i + 1,
                    ["lost", "drew", "won"][(r + 1) as usize],
                    // Stores: ours first (the side we end on: a swap changes it).
                    if o.south == me { o.state[15] } else { o.state[7] },
                    if o.south == me { o.state[7] } else { o.state[15] },
                    o.response[me].as_secs_f64(),
                    o.answers[me],
                    o.cpu[me].unwrap_or_default().as_secs_f64(),
                    t.elapsed().as_secs_f64()
                );
            }
            println!(
                "{:<20} {:<6} {:>3} {:>3} {:>3}  {:>10.2} s {:>10.2} s {:>10.2} s  {:>5}",
                name,
                if south { "South" } else { "North" },
                w,
                d,
                l,
                total.as_secs_f64() / n.max(1) as f64,
                max.as_secs_f64(),
                cpu.as_secs_f64() / n.max(1) as f64,
                swaps
            );
        }
    }
}
