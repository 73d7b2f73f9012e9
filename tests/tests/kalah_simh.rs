//! The same program on SIMH 3.8 (no Type 30: its display IOT is an undefined, ignored IOT there)
//! types the same transcript as on our machine, because the program never waits for the
//! display (issue 4). Skips when SIMH's `pdp1` is not installed.
//!
//! Our machine reads in roms/kalah.rim itself (a BLK tape: READ IN, then MACRO's block loader
//! at 7751–7775). SIMH's `load` command takes RIM tapes, and its `boot ptr` would run the
//! read-in while the test's keys are already being polled, so SIMH gets the same memory image
//! punched as a RIM tape (the two read-ins agree: `simh_tapes.rs` checks BLK read-in against
//! SIMH's `boot ptr` for every tape). The loader's words left in 7751–7775 on our side only are
//! part of the check: the program must not depend on what memory held before it started.
use pdp1_core::{Machine, MachineConfig, Word};
use pdp1_tests::simh;
use pdp1_tests::transcript::{keys, render, simh_typewriter_text, type_keys};
use std::path::PathBuf;

/// SIMH takes a key every `KEY_POLL` instructions (raised from 5000 so that the program has
/// always answered the previous key, searches included); our typist waits `GAP_NS` after the
/// program starts waiting for a key.
const KEY_POLL: u64 = 400_000;
const GAP_NS: u64 = 100_000_000;

/// Our transcript and SIMH's for `typed` (lower-case keys) with test word `tw`.
fn transcripts(tw: u32, typed: &str) -> Option<(String, String)> {
    transcripts_of("kalah", tw, typed)
}

/// [`transcripts`] for the program `roms/<name>.rim` (sources listed in `roms/<name>.files`).
fn transcripts_of(name: &str, tw: u32, typed: &str) -> Option<(String, String)> {
    let sim = simh::require("kalah_simh")?;
    let tape = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../roms/{name}.rim"));
    let k = keys(typed).expect("lower-case keys");
    let files = pdp1_asm::read_source_list(&tape.with_extension("files")).unwrap();
    let named: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let image = pdp1_asm::assemble_files(&named)
        .expect("the Kalah sources assemble")
        .image();
    let dir = pdp1_tests::scratch(&format!("kalah-simh-{name}"));
    let rim = dir.join(format!("{name}.rim"));
    std::fs::write(&rim, pdp1_asm::tape::write_rim(&image)).unwrap();

    let mut m = Machine::new(MachineConfig::default()).unwrap();
    m.set_test_word(Word::new(tw));
    m.mount_tape(std::fs::read(&tape).unwrap());
    m.read_in();
    let events = type_keys(&mut m, &k, GAP_NS, 1_000_000_000, 600_000_000_000).expect("runs");
    let ours = render(&events);

    let script = format!(
        "set cpu 4k\nd tw {tw:o}\nd tti time {KEY_POLL}\nreset\nload {}\ns {}",
        rim.display(),
        KEY_POLL * (k.len() as u64 + 3)
    );
    // SIMH's console takes ASCII carriage return (not line feed) as the FIO-DEC carriage return.
    let simh_keys = typed.replace('\n', "\r");
    let out = sim
        .run_with_keys(&script, simh_keys.as_bytes())
        .expect("SIMH runs");
    let theirs = simh_typewriter_text(&out);
    eprintln!("ours:\n{ours}\n---- SIMH:\n{theirs}\n----");
    Some((ours, theirs))
}

#[test]
fn kalah_transcript_matches_simh() {
    // Depth 2, analysis on: machine moves, a crossed-out key and an empty pit, upper's moves,
    // a restart, and more moves after it.
    let Some((ours, theirs)) = transcripts(0o400002, " 3 1x 2 4 6\n 5 ") else {
        return;
    };
    assert!(ours.contains("e49p49v0"), "our transcript: {ours:?}");
    assert_eq!(ours, theirs);
}

/// Russell's analysis program (test-word bit 3, 2 stones, depth 2): typed commands, the
/// printout, `r` and the depth display (an ignored IOT on SIMH) give the same transcript.
#[test]
fn russell_transcript_matches_simh() {
    let Some((ours, theirs)) = transcripts(0o040042, "o4.a-50. 1 rr a1x ") else {
        return;
    };
    assert!(ours.contains("te"), "our transcript: {ours:?}");
    assert_eq!(ours, theirs);
}

/// The 7×7 pie-rule program (issue 14, depth 3, analysis on): the machine's first move, the
/// swap, the machine's answer, crossed-out keys (a second swap, 8), a restart and a whole turn
/// more give the same transcript.
#[test]
fn kalah7_transcript_matches_simh() {
    let Some((ours, theirs)) = transcripts_of("kalah7", 0o400003, " s s8 4\n 7 ") else {
        return;
    };
    // South's first move is the book's (issue 28: no search, `e0p0v0`, hole 6 typed as DEC
    // pit 2); after the swap the machine searches (depths 1 to 3, iterative deepening).
    assert!(
        ours.starts_with(" \u{8}2,\ne0p0v0\n"),
        "our transcript: {ours:?}"
    );
    assert!(ours.contains("e116p116v0"), "our transcript: {ours:?}");
    assert_eq!(ours, theirs);
}
