//! Strength of `pdp1 --mankalah roms/kalah7.rim` (issues 14 and 28): whole matches on the
//! engine harness (`pdp1_tests::mankalah`) against the Rust reference engine at fixed depths,
//! against the program itself at a fixed depth (`--self-depth`) and against the random player;
//! half the matches with the PDP-1 as South, half as North. Prints won/drawn/lost per opponent
//! and side, the mean margin (our store less theirs) and the agent's response time per match
//! (the engine's measure: from the message giving it the turn to its answer, summed over the
//! match), mean and worst.
//!
//! ```text
//! cargo build --release -p pdp1 -p pdp1-tests --bins
//! cargo run --release -p pdp1-tests --example mankalah_bench -- [--depth D | --move-time S]
//!     [--matches N] [--ref-depths 8,10,12] [--self-depth 8] [--no-random]
//!     [--seat south|north] [--first K] [--log FILE] [--tape FILE] [--symbols FILE]
//! ```
//!
//! `--seat` plays only that seat's matches (`--matches` of them), `--first K` starts at match
//! seed K (to replay one match: `--seat north --first 3 --matches 1`), and `--log FILE` appends
//! each match's messages and both agents' stderr (our per-move progress lines) to FILE.
//! `--tape FILE` plays another build of the program (e.g. an older `kalah7.rim`) in place of
//! `roms/kalah7.rim`, for our agent and for `--self-depth`'s. `--symbols FILE` (the tape's
//! symbol table, `pdp1-asm @roms/kalah7.files --symbols FILE`) goes to our agent, whose progress
//! lines in the log then name the depth each move completed.
//!
//! Without `--depth` the agent plays its default, the time-managed search (`--move-time` sets
//! its time per move).
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
    let mut depth: Option<u32> = None;
    let mut move_time: Option<String> = None;
    let mut self_depth: Option<u32> = None;
    let mut matches = 20u32;
    let mut ref_depths = vec![8u32, 10, 12];
    let mut random = true;
    let mut seat: Option<bool> = None;
    let mut first = 1u32;
    let mut log: Option<PathBuf> = None;
    let mut tape: Option<String> = None;
    let mut symbols: Option<String> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--depth" => depth = Some(it.next().and_then(|v| v.parse().ok()).expect("--depth N")),
            "--move-time" => move_time = Some(it.next().expect("--move-time S").clone()),
            "--self-depth" => {
                self_depth = Some(
                    it.next()
                        .and_then(|v| v.parse().ok())
                        .expect("--self-depth N"),
                )
            }
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
            "--seat" => {
                seat = Some(match it.next().map(String::as_str) {
                    Some("south") => true,
                    Some("north") => false,
                    _ => panic!("--seat south|north"),
                })
            }
            "--first" => first = it.next().and_then(|v| v.parse().ok()).expect("--first K"),
            "--log" => log = Some(PathBuf::from(it.next().expect("--log FILE"))),
            "--tape" => tape = Some(it.next().expect("--tape FILE").clone()),
            "--symbols" => symbols = Some(it.next().expect("--symbols FILE").clone()),
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
    let tape = tape.unwrap_or_else(|| {
        let t = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../roms/kalah7.rim");
        t.display().to_string()
    });
    let mut args = vec!["--mankalah".to_owned(), tape.clone()];
    if let Some(d) = depth {
        args.extend(["--depth".to_owned(), d.to_string()]);
    }
    if let Some(t) = &move_time {
        args.extend(["--move-time".to_owned(), t.clone()]);
    }
    if let Some(f) = &symbols {
        args.extend(["--symbols".to_owned(), f.clone()]);
    }
    let setting = args[2..].join(" ");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let ours = AgentCmd::new(&pdp1, &args);
    let mut opponents: Vec<(String, Opponent)> = Vec::new();
    if let Some(d) = self_depth {
        let (p, t) = (pdp1.clone(), tape.clone());
        opponents.push((
            format!("pdp1 depth {d}"),
            Box::new(move |_| AgentCmd::new(&p, &["--mankalah", &t, "--depth", &d.to_string()])),
        ));
    }
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
    println!("pdp1 --mankalah {tape} {setting}: {matches} matches per opponent");
    println!(
        "{:<20} {:<6} {:>3} {:>3} {:>3}  {:>7}  {:>12} {:>12} {:>12}  {:>5}",
        "opponent",
        "pdp1",
        "won",
        "drn",
        "lst",
        "margin",
        "time/match",
        "max",
        "CPU/match",
        "swaps"
    );
    for (name, make) in &opponents {
        // South and North in turn, so that a run cut short has both sides.
        let mut tally = [Tally::default(), Tally::default()];
        for i in 0..matches {
            // Match `i`'s seat and seed: in turn from `first`, or all in one seat.
            let (south, seed) = match seat {
                None => (i % 2 == 0, first + i / 2),
                Some(s) => (s, first + i),
            };
            let opp = make(seed);
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
            // Stores: ours first (the side we end on: a swap changes it).
            let (mine, theirs) = if o.south == me {
                (o.state[15], o.state[7])
            } else {
                (o.state[7], o.state[15])
            };
            let k = &mut tally[me];
            k.n += 1;
            k.wdl[(1 - r) as usize] += 1;
            k.swaps += u32::from(o.swapped);
            k.margin += i64::from(mine) - i64::from(theirs);
            k.total += o.response[me];
            k.cpu += o.cpu[me].unwrap_or_default();
            k.max = k.max.max(o.response[me]);
            eprintln!(
                "  {name} {} match {}: {} {}-{} (stores), pdp1 {:.2} s over {} answers ({:.2} s CPU), match {:.2} s",
                if south { "pdp1 first (South)" } else { "pdp1 second (North)" },
                seed,
                ["lost", "drew", "won"][(r + 1) as usize],
                mine,
                theirs,
                o.response[me].as_secs_f64(),
                o.answers[me],
                o.cpu[me].unwrap_or_default().as_secs_f64(),
                t.elapsed().as_secs_f64()
            );
            if let Some(path) = &log {
                let text = format!(
                    "== {name} {} match {seed}: {} {mine}-{theirs}\n{}\n-- agent 0 stderr\n{}-- agent 1 stderr\n{}",
                    if south { "South" } else { "North" },
                    ["lost", "drew", "won"][(r + 1) as usize],
                    o.transcript.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n"),
                    o.stderr[0],
                    o.stderr[1]
                );
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .expect("the log opens");
                std::io::Write::write_all(&mut f, text.as_bytes()).expect("the log is written");
            }
        }
        for (k, side) in tally.iter().zip(["South", "North"]) {
            let n = f64::from(k.n.max(1));
            println!(
                "{:<20} {:<6} {:>3} {:>3} {:>3}  {:>+7.1}  {:>10.2} s {:>10.2} s {:>10.2} s  {:>5}",
                name,
                side,
                k.wdl[0],
                k.wdl[1],
                k.wdl[2],
                k.margin as f64 / n,
                k.total.as_secs_f64() / n,
                k.max.as_secs_f64(),
                k.cpu.as_secs_f64() / n,
                k.swaps
            );
        }
    }
}

/// One side's matches against one opponent.
#[derive(Default)]
struct Tally {
    n: u32,
    /// Won, drawn, lost.
    wdl: [u32; 3],
    swaps: u32,
    /// Our store less theirs, summed.
    margin: i64,
    total: Duration,
    max: Duration,
    cpu: Duration,
}
