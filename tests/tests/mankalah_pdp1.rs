//! Issue 14: `pdp1 --mankalah roms/kalah7.rim`, the PDP-1 program as a ManKalah agent, in whole
//! matches on the engine harness (`pdp1_tests::mankalah`) against the random player and the
//! Rust reference engine, as South and as North, with and without a swap.
//!
//! The agent is run with `--symbols` (the program's assembly), so it also compares the
//! program's board in memory with the engine's after every message. Its moves must be the
//! reference engine's at the same depth: the program searches as `kalah::mankalah::choose`
//! does, so a match of the PDP-1 against an opponent is move for move the reference's match
//! against the same opponent.
//!
//! The binary is the one built beside this test (`cargo test --workspace` builds it; alone:
//! `cargo build -p pdp1`). Longer matches at the tournament depth are `#[ignore]`d.

use kalah::mankalah::Action;
use pdp1_tests::mankalah::{play, read_answer, AgentCmd, Outcome};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn roms() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../roms")
}

/// The `pdp1` binary built beside this test (target/<profile>/pdp1), if any.
fn pdp1_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?;
    let bin = dir.join(format!("pdp1{}", std::env::consts::EXE_SUFFIX));
    if bin.exists() {
        Some(bin)
    } else {
        pdp1_tests::not_run(&format!(
            "the pdp1 binary is not built at {} (cargo build -p pdp1)",
            bin.display()
        ));
        None
    }
}

/// The program's symbol table, written to the target's scratch directory as `name` for
/// `--symbols` (a name per test: the tests run in parallel).
fn symbols(name: &str) -> PathBuf {
    let files =
        pdp1_asm::read_source_list(&roms().join("kalah7.files")).expect("roms/kalah7.files");
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let asm = pdp1_asm::assemble_files(&files).unwrap_or_else(|d| panic!("{d}"));
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, asm.symbols.to_text()).unwrap();
    path
}

fn pdp1_agent(bin: &Path, sym: &Path, depth: u32) -> AgentCmd {
    AgentCmd {
        program: bin.to_path_buf(),
        args: vec![
            "--mankalah".into(),
            roms().join("kalah7.rim").display().to_string(),
            "--depth".into(),
            depth.to_string(),
            "--symbols".into(),
            sym.display().to_string(),
        ],
    }
}

fn rust_agent(args: &[&str]) -> AgentCmd {
    AgentCmd::new(env!("CARGO_BIN_EXE_mankalah_agent"), args)
}

fn check_regular(o: &Outcome) {
    assert!(o.aborted.is_none(), "{}", o.report());
    assert_eq!(o.state[7] as u32 + o.state[15] as u32, 98);
    assert_eq!(o.exit, [Some(0), Some(0)], "{}", o.report());
}

/// The agents' answers in order, without who gave them.
fn answers(o: &Outcome) -> Vec<Action> {
    o.transcript
        .iter()
        .filter(|l| l.starts_with('<'))
        .map(|l| read_answer(&l[3..]).unwrap())
        .collect()
}

const BUDGET: Duration = Duration::from_secs(600);

/// Our agent against the random player (which swaps always, never, or as it likes), as South
/// and as North, and the same match with the reference engine in its place: the same actions.
#[test]
fn pdp1_against_random_plays_the_references_moves() {
    let Some(bin) = pdp1_binary() else { return };
    let sym = symbols("random.sym");
    // The machine swaps after every opening but hole 1 (its values at depths 3 and 4 together
    // above 0): seed 18's random South opens with hole 1, seed 12's with hole 5.
    let depth = 4;
    let ours = pdp1_agent(&bin, &sym, depth);
    let reference = rust_agent(&["--agent", "reference", "--depth", &depth.to_string()]);
    let mut swapped = Vec::new();
    for (seed, swap) in [("18", "never"), ("12", "always")] {
        let random = rust_agent(&["--agent", "random", "--seed", seed, "--swap", swap]);
        for first in [true, false] {
            let pair = |a: &AgentCmd| -> [AgentCmd; 2] {
                if first {
                    [a.clone(), random.clone()]
                } else {
                    [random.clone(), a.clone()]
                }
            };
            let [a, b] = pair(&ours);
            let o = play([&a, &b], BUDGET).unwrap();
            check_regular(&o);
            let [ra, rb] = pair(&reference);
            let r = play([&ra, &rb], BUDGET).unwrap();
            check_regular(&r);
            assert_eq!(answers(&o), answers(&r), "{}", o.report());
            assert_eq!(o.state, r.state);
            swapped.push(o.swapped);
            // The PDP-1 agent said what it did on stderr, nothing else on stdout.
            let mine = if first { 0 } else { 1 };
            assert!(o.stderr[mine].contains("our move 1: "), "{}", o.report());
        }
    }
    // Without a swap, the random North's swap, none after hole 1, the machine's swap.
    assert_eq!(swapped, [false, false, true, true]);
}

/// Our agent against the reference at the same depth: as South and as North; the program's
/// swap (when the reference as South opens, the machine as North decides) is the reference's.
#[test]
fn pdp1_against_the_reference_both_sides() {
    let Some(bin) = pdp1_binary() else { return };
    let sym = symbols("reference.sym");
    let ours = pdp1_agent(&bin, &sym, 2);
    let reference = rust_agent(&["--agent", "reference", "--depth", "2"]);
    let a = play([&ours, &reference], BUDGET).unwrap();
    check_regular(&a);
    let b = play([&reference, &ours], BUDGET).unwrap();
    check_regular(&b);
    // Reference against reference gives the same matches.
    let r = play([&reference, &reference], BUDGET).unwrap();
    assert_eq!(answers(&a), answers(&r));
    assert_eq!(answers(&b), answers(&r));
}

/// The default, the time-managed search (here with a short clock, 40 s of PDP-1 time a move):
/// whole matches against the reference at depth 4 on both sides end regularly, every move
/// legal (the harness checks them), the machine's progress lines naming the depth it completed.
#[test]
fn pdp1_time_managed_whole_matches() {
    let Some(bin) = pdp1_binary() else { return };
    let sym = symbols("timed.sym");
    let ours = AgentCmd {
        program: bin,
        args: vec![
            "--mankalah".into(),
            roms().join("kalah7.rim").display().to_string(),
            "--move-time".into(),
            "40".into(),
            "--symbols".into(),
            sym.display().to_string(),
        ],
    };
    let reference = rust_agent(&["--agent", "reference", "--depth", "4"]);
    for (pair, me) in [([&ours, &reference], 0), ([&reference, &ours], 1)] {
        let o = play(pair, BUDGET).unwrap();
        check_regular(&o);
        assert!(o.stderr[me].contains(", depth "), "{}", o.report());
    }
}

/// The agent stops on a board that differs: an engine whose state is off by one seed gets
/// an error and a non-zero exit, not a move.
#[test]
fn pdp1_refuses_a_wrong_board() {
    let Some(bin) = pdp1_binary() else { return };
    let sym = symbols("wrong.sym");
    let cmd = pdp1_agent(&bin, &sym, 2);
    let out = std::process::Command::new(&cmd.program)
        .args(&cmd.args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(b"START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,9,1;YOU\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no move: {:?}", out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("differs"), "{err}");
}

/// Longer: depth 8 (the benchmark's; the tournament default 10 takes minutes a match) against
/// random and the reference at depth 6, both sides (the figures of docs/kalah.md come from the
/// benchmark, `mankalah_bench`).
#[test]
#[ignore]
fn pdp1_depth_8_whole_matches() {
    let Some(bin) = pdp1_binary() else { return };
    let sym = symbols("depth8.sym");
    let ours = pdp1_agent(&bin, &sym, 8);
    for opp in [
        rust_agent(&["--agent", "random", "--seed", "21"]),
        rust_agent(&["--agent", "reference", "--depth", "6"]),
    ] {
        for first in [true, false] {
            let t = Instant::now();
            let o = if first {
                play([&ours, &opp], Duration::from_secs(3600)).unwrap()
            } else {
                play([&opp, &ours], Duration::from_secs(3600)).unwrap()
            };
            check_regular(&o);
            eprintln!(
                "{} vs {}: score {} in {:?}",
                if first { "pdp1" } else { opp.describe().leak() },
                if first { opp.describe().leak() } else { "pdp1" },
                o.score,
                t.elapsed()
            );
        }
    }
}
