//! The historic tapes in ../shared/tapes on our machine and on SIMH 3.8:
//! * READ IN of every RIM/BLK tape leaves the same memory image as SIMH's `boot ptr` when the
//!   program is about to start (for BLK tapes after the 7751 loader has read every block);
//! * DDT and LISP, given the same typed input, type the same transcript.
//!
//! Tests print "DID NOT RUN" when the tapes or SIMH are missing (.ci/run provides both).

use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};
use pdp1_tests::simh::{self, parse_report, Simh};
use pdp1_tests::transcript::{keys, render, simh_typewriter_text, type_keys};
use std::path::PathBuf;

/// Emulated time allowed for a tape to load (the longest, macro.rim, needs ~1 min at 400
/// lines/s).
const LOAD_NS: u64 = 600_000_000_000;

fn tapes_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("PDP1_TAPES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/tapes"));
    if dir.join("ddt.rim").is_file() {
        Some(dir)
    } else {
        pdp1_tests::not_run(&format!(
            "{test}: no tapes at {} (set PDP1_TAPES)",
            dir.display()
        ));
        None
    }
}

fn setup(test: &str) -> Option<(Simh, PathBuf)> {
    let dir = tapes_dir(test)?;
    let sim = simh::require(test)?;
    Some((sim, dir))
}

/// Read in `frames` on our machine and stop just before the program's first instruction.
fn read_in_ours(frames: &[u8], start: u32) -> Result<Machine, String> {
    let mut m = Machine::new(MachineConfig::default()).map_err(|e| e.to_string())?;
    m.mount_tape(frames.to_vec());
    m.read_in();
    while m.reading_in() {
        match m.step_instruction() {
            StopReason::Stepped => {}
            other => return Err(format!("READ IN stopped: {other:?}")),
        }
    }
    if m.pc() != start {
        // A BLK tape: the loader READ IN put in place now reads the blocks.
        m.add_breakpoint(start);
        let r = m.run_until(Limit {
            until_ns: Some(m.time_ns() + LOAD_NS),
            instructions: None,
        });
        if r != StopReason::Breakpoint(start) {
            return Err(format!(
                "loader did not reach the start {start:04o}: {r:?} at pc {:06o}",
                m.pc()
            ));
        }
    }
    Ok(m)
}

#[test]
fn read_in_of_every_tape_matches_simh_boot() {
    let Some((sim, dir)) = setup("simh_tapes::read_in_of_every_tape_matches_simh_boot") else {
        return;
    };
    let mut tapes: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tapes dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rim"))
        .collect();
    tapes.sort();
    assert!(
        tapes.len() >= 9,
        "expected the 9 .rim tapes, found {tapes:?}"
    );
    let mut failures = Vec::new();
    for path in &tapes {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let frames = std::fs::read(path).expect("read tape");
        let start = match pdp1_asm::tape::read_image(&frames) {
            Ok(img) => match img.start {
                Some(s) => s,
                None => {
                    failures.push(format!("{name}: no start address"));
                    continue;
                }
            },
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let ours = match read_in_ours(&frames, start) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: ours: {e}"));
                continue;
            }
        };
        let script = format!(
            "set cpu 4k\natt ptr {}\nbreak {start:o}\nboot ptr\ne !=0 0-7777",
            path.display()
        );
        let out = sim.run(&script).expect("SIMH runs");
        let rep = parse_report(&out);
        if rep.stop.as_ref().map(|(m, pc)| (m.as_str(), *pc)) != Some(("Breakpoint", start)) {
            failures.push(format!(
                "{name}: SIMH did not stop at {start:04o}: {:?}",
                rep.stop
            ));
            continue;
        }
        let mut diffs = Vec::new();
        for a in 0..0o10000u32 {
            let o = ours.read(a).unwrap_or(Word::ZERO).bits();
            let s = rep.mem.get(&a).copied().unwrap_or(0);
            if o != s {
                diffs.push(format!("{a:04o}: ours {o:06o} simh {s:06o}"));
            }
        }
        eprintln!(
            "{name}: start {start:04o}, {} non-zero words, {} differences",
            rep.mem.len(),
            diffs.len()
        );
        if !diffs.is_empty() {
            failures.push(format!(
                "{name}: {} words differ: {}",
                diffs.len(),
                diffs[..diffs.len().min(8)].join("; ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "read-in differs from SIMH:\n{}",
        failures.join("\n")
    );
}

/// Compare our typewriter text with SIMH's.
fn compare_transcripts(name: &str, ours_text: String, theirs: &str) {
    eprintln!("{name} transcript, ours:\n{ours_text}\n---- SIMH:\n{theirs}\n----");
    assert!(
        !ours_text.trim().is_empty(),
        "{name}: our machine typed nothing"
    );
    assert_eq!(ours_text, theirs, "{name}: transcripts differ");
}

/// SIMH strikes a key every `KEY_POLL` instructions (its `tti` poll interval, raised from
/// 5000 so that the program has always finished answering the previous key), and our
/// typist waits `GAP_NS` after the program starts waiting; the order of keys and answers is
/// then the same on both.
const KEY_POLL: u32 = 400_000;
const GAP_NS: u64 = 100_000_000;

#[test]
fn ddt_transcript_matches_simh() {
    let Some((sim, dir)) = setup("simh_tapes::ddt_transcript_matches_simh") else {
        return;
    };
    let tape = dir.join("ddt.rim");
    // Examine 100, deposit 1234 there (carriage return closes the location), examine it again,
    // then two locations of DDT itself. SIMH's keyboard maps ASCII CR to FIO-DEC 77.
    let typed = "100/ 1234\r100/ 6000/ 6001/ ";
    let k = keys(typed).expect("lower-case keys");

    let frames = std::fs::read(&tape).expect("ddt.rim");
    let mut m = read_in_ours(&frames, 0o6000).expect("DDT loads");
    let events = type_keys(&mut m, &k, GAP_NS, 1_000_000_000, 60_000_000_000).expect("DDT runs");
    let ours = render(&events);

    // SIMH polls the keyboard when the run starts and then every KEY_POLL instructions.
    let script = format!(
        "set cpu 4k\nd tti time {KEY_POLL}\nreset\nload {}\ns {}",
        tape.display(),
        u64::from(KEY_POLL) * (k.len() as u64 + 3)
    );
    let out = sim
        .run_with_keys(&script, typed.as_bytes())
        .expect("SIMH runs");
    compare_transcripts("DDT", ours, &simh_typewriter_text(&out));
}

#[test]
fn lisp_transcript_matches_simh() {
    let Some((sim, dir)) = setup("simh_tapes::lisp_transcript_matches_simh") else {
        return;
    };
    let tape = dir.join("lisp.rim");
    let typed = "(car (quote (a b))) (cdr (quote (a b c))) (cons (quote x) nil) \
                 (plus 2 3) (cond ((eq (quote a) (quote b)) 1) (t 2)) (times 6 7) ";
    let k = keys(typed).expect("lower-case keys");
    // LISP's start: halt at 2353 to read the top of memory from the test word, at 2357 the
    // size of its push-down list, then at 5 before the read-eval-print loop; sense switch 5
    // selects typewriter input (`szs 5` at 1133).
    const TW1: u32 = 0o7777;
    const TW2: u32 = 0o400;
    const SS5: u8 = 0o02;

    let frames = std::fs::read(&tape).expect("lisp.rim");
    let cfg = MachineConfig {
        memory_words: 65536,
        mul_div: true,
        ..MachineConfig::default()
    };
    let mut m = Machine::new(cfg).expect("64K machine");
    m.set_extend_switch(true);
    m.set_sense_switches(SS5);
    m.mount_tape(frames);
    m.read_in();
    while m.reading_in() {
        assert_eq!(m.step_instruction(), StopReason::Stepped, "LISP reads in");
    }
    let mut halts = Vec::new();
    for tw in [TW1, TW2, 0] {
        let r = m.run_until(Limit {
            until_ns: Some(m.time_ns() + 10_000_000_000),
            instructions: None,
        });
        halts.push(format!("{r:?} at {:04o}", m.pc()));
        m.set_test_word(Word::new(tw));
        m.cont();
    }
    assert_eq!(
        halts,
        ["Halted at 2353", "Halted at 2357", "Halted at 0005"],
        "LISP's start-up halts"
    );
    let events = type_keys(&mut m, &k, GAP_NS, 1_000_000_000, 120_000_000_000).expect("LISP runs");
    let ours = render(&events);

    // SIMH polls the keyboard as soon as a run starts, so keys would be struck during the
    // start-up halts and lost to LISP's `clf 7`. Phase 1 (no keyboard input) runs to the
    // read loop and saves the machine; phase 2 restores it and types.
    let dir = pdp1_tests::scratch("simh-lisp");
    let save = dir.join("lisp.sav");
    let phase1 = format!(
        "set cpu 64k\nset cpu mdv\nd extm_init 1\nreset\nload {}\n\
         d ss {SS5:o}\ns 2000000\nd tw {TW1:o}\ns 2000000\nd tw {TW2:o}\ns 2000000\ns 300000\n\
         save {}",
        tape.display(),
        save.display()
    );
    let out1 = sim.run_with_keys(&phase1, b"").expect("SIMH runs");
    let phase2 = format!(
        "restore {}\nd tti time {KEY_POLL}\ns {}",
        save.display(),
        u64::from(KEY_POLL) * (k.len() as u64 + 3)
    );
    let out2 = sim
        .run_with_keys(&phase2, typed.as_bytes())
        .expect("SIMH runs");
    let theirs = simh_typewriter_text(&out1) + &simh_typewriter_text(&out2);
    compare_transcripts("LISP", ours, &theirs);
}
