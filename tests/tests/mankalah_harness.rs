//! The engine-side harness of the ManKalah protocol (`pdp1_tests::mankalah`, issue 14) with
//! the Rust agents: random against the reference engine, both sides, with and without the swap;
//! and agents that break the rules, which the harness must catch.

use pdp1_tests::mankalah::{play, AgentCmd, Outcome};
use std::time::Duration;

fn agent(args: &[&str]) -> AgentCmd {
    AgentCmd::new(env!("CARGO_BIN_EXE_mankalah_agent"), args)
}

fn sh(script: &str) -> AgentCmd {
    AgentCmd::new("sh", &["-c", script])
}

const BUDGET: Duration = Duration::from_secs(120);

fn check_regular(o: &Outcome) {
    assert!(o.aborted.is_none(), "{}", o.report());
    let st = o.state;
    assert_eq!(st[7] as u32 + st[15] as u32, 98, "every seed in a store");
    assert!(st[..7].iter().chain(&st[8..15]).all(|&n| n == 0));
    assert_eq!(o.exit, [Some(0), Some(0)], "{}", o.report());
    // Every message the engine wrote parses and the last two are END.
    let ends = o
        .transcript
        .iter()
        .filter(|l| l.ends_with(" END\n"))
        .count();
    assert_eq!(ends, 2, "{}", o.report());
}

#[test]
fn random_against_the_reference_both_sides_with_and_without_a_swap() {
    let mut swaps = 0;
    for (seed, swap) in [(1, "never"), (2, "always"), (3, "auto")] {
        let seed = seed.to_string();
        let random = agent(&["--agent", "random", "--seed", &seed, "--swap", swap]);
        let reference = agent(&["--agent", "reference", "--depth", "2", "--swap", swap]);
        for (first, second) in [(&random, &reference), (&reference, &random)] {
            let o = play([first, second], BUDGET).unwrap();
            check_regular(&o);
            if swap == "always" {
                assert!(o.swapped, "{}", o.report());
                assert_eq!(o.south, 1, "the swapper plays South");
                assert!(o
                    .transcript
                    .iter()
                    .any(|l| l.starts_with(">0 CHANGE;SWAP;")));
            }
            if swap == "never" {
                assert!(!o.swapped);
            }
            swaps += o.swapped as u32;
        }
    }
    assert!(swaps >= 2);
}

/// The reference at depth 4 beats the random player on both sides.
#[test]
fn the_reference_beats_random() {
    let reference = agent(&["--agent", "reference", "--depth", "4"]);
    for seed in ["5", "6"] {
        let random = agent(&["--agent", "random", "--seed", seed]);
        let o = play([&reference, &random], BUDGET).unwrap();
        check_regular(&o);
        assert_eq!(o.result(), 1, "{}", o.report());
        let o = play([&random, &reference], BUDGET).unwrap();
        check_regular(&o);
        assert_eq!(o.result(), -1, "{}", o.report());
    }
}

/// Bad agents: a move out of range, a swap by South, silence past the budget, an early exit.
/// Each loses by abort, and the other agent gets END alone.
#[test]
fn the_harness_catches_broken_agents() {
    let random = agent(&["--agent", "random", "--seed", "9"]);
    let cases: [(AgentCmd, &str); 4] = [
        (sh("read l; echo 'MOVE;8'; read l"), "not a hole"),
        (sh("read l; echo SWAP; read l"), "SWAP as message 1"),
        (sh("read l; sleep 2"), "timed out"),
        (sh("read l"), "closed its stdout"),
    ];
    for (bad, why) in cases {
        let o = play([&bad, &random], Duration::from_millis(500)).unwrap();
        let ab = o.aborted.clone().expect("aborted");
        assert_eq!(ab.agent, 0, "{}", o.report());
        assert!(ab.why.contains(why), "{}", o.report());
        assert_eq!(o.result(), -1);
        assert_eq!(o.transcript.last().unwrap(), ">1 END\n", "{}", o.report());
    }
    // An illegal move: a South that always moves hole 1, which its first move emptied.
    let bad = sh("read l; echo 'MOVE;1'; while read l; do case $l in *YOU) echo 'MOVE;1';; END) exit;; esac; done");
    let never = agent(&["--agent", "reference", "--depth", "1", "--swap", "never"]);
    let o = play([&bad, &never], BUDGET).unwrap();
    let ab = o.aborted.clone().expect("aborted");
    assert!(ab.why.contains("illegal move"), "{}", o.report());
}
