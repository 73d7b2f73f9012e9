//! The historic DEC MACRO (../shared/tapes/macro.rim) as the compatibility oracle: it runs in
//! our emulator, is fed a FIO-DEC source tape twice (pass 1, pass 2) as an operator would, and
//! punches a BLK tape whose words must equal pdp1-asm's for the project's own test programs.
//!
//! Operating procedure (obsolescence.dev "Programming the DEC PDP-1", MACRO section): all
//! switches off; READ IN macro.rim; mount the source tape, CONTINUE (pass 1); mount it again,
//! CONTINUE (pass 2, punches the blocks); CONTINUE (punches the start block). The source tape
//! ends with the FIO-DEC stop code 013.

mod common;

use pdp1_asm::{assemble, tape};
use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The historic MACRO tape, or `None` after saying that the test did not run — a failure
/// where `PDP1_REQUIRE_ORACLES` is set, as `.ci/run` sets it (issue 18).
fn macro_tape() -> Option<Vec<u8>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tapes/macro.rim");
    let t = std::fs::read(p).ok();
    if t.is_none() {
        common::not_run("../shared/tapes/macro.rim not found; historic MACRO oracle did not run");
    }
    t
}

/// Run one operator step: continue, and run until the machine stops (or a limit).
fn run(m: &mut Machine, what: &str, log: &mut String) -> StopReason {
    let stop = m.run_until(Limit {
        until_ns: Some(m.time_ns() + 600_000_000_000),
        instructions: Some(200_000_000),
    });
    let typed: String = m
        .drain_typewriter()
        .iter()
        .map(|e| match e.code {
            0o77 => '\n',
            0o36 => '\t',
            c => pdp1_core::fiodec::to_char(c, e.upper).unwrap_or('·'),
        })
        .collect();
    log.push_str(&format!(
        "{what}: {stop:?} pc={:04o} ac={} io={} typed {typed:?}\n",
        m.pc(),
        m.ac(),
        m.io()
    ));
    stop
}

/// Assemble `source` with the historic MACRO; returns the punched words and start, or the log.
fn historic_assemble(macro_rim: &[u8], source: &str) -> Result<(tape::Image, String), String> {
    historic_assemble_tapes(macro_rim, &[source])
}

/// Assemble the sources as one program punched on several tapes, read in order in each pass:
/// MACRO halts at each tape's stop code 013 and the operator mounts the next and continues
/// (the pass ends at `start`).
fn historic_assemble_tapes(
    macro_rim: &[u8],
    sources: &[&str],
) -> Result<(tape::Image, String), String> {
    let mut tapes = Vec::new();
    for source in sources {
        let mut src_tape = vec![0u8; 20];
        src_tape.extend(tape::text_to_fiodec_tape(source).map_err(|e| e.to_string())?);
        src_tape.push(tape::fiodec_frame(0o13));
        src_tape.extend(vec![0u8; 20]);
        tapes.push(src_tape);
    }
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    let mut log = String::new();
    m.mount_tape(macro_rim.to_vec());
    m.read_in();
    run(&mut m, "read in", &mut log);
    for pass in 1..=2 {
        for (i, t) in tapes.iter().enumerate() {
            m.mount_tape(t.clone());
            if !m.running() {
                m.cont();
            }
            let what = format!("pass {pass} tape {}", i + 1);
            if i + 1 < tapes.len() {
                // MACRO reads to the end of the tape and polls the reader for the next one.
                while m.running() && m.tape_remaining() > 0 {
                    m.run_until(Limit {
                        until_ns: Some(m.time_ns() + 100_000_000),
                        instructions: None,
                    });
                }
                log.push_str(&format!("{what}: read, MACRO waits for the next tape\n"));
            } else {
                run(&mut m, &what, &mut log);
            }
        }
    }
    m.cont();
    run(&mut m, "start block", &mut log);
    let punched = m.drain_punch();
    log.push_str(&format!("punched {} frames\n", punched.len()));
    if std::env::var("HISTORIC_LOG").is_ok() {
        eprintln!("{log}");
    }
    match tape::read_blk(&punched) {
        Ok(img) => Ok((img, log)),
        Err(e) => Err(format!("{log}punched tape: {e}")),
    }
}

/// The punched words below the BLK loader (7751-7777), which MACRO's tape holds too.
fn below_the_loader(words: BTreeMap<u32, Word>) -> BTreeMap<u32, Word> {
    words.into_iter().filter(|(a, _)| *a < 0o7751).collect()
}

#[test]
fn historic_macro_agrees_on_test_programs() {
    let Some(macro_rim) = macro_tape() else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let src = std::fs::read_to_string(&path).unwrap();
        let ours = assemble(&src, &path.display().to_string()).unwrap();
        let (theirs, log) = historic_assemble(&macro_rim, &src)
            .unwrap_or_else(|log| panic!("{}:\n{log}", path.display()));
        let loader: BTreeMap<u32, Word> = tape::loader().into_iter().collect();
        let theirs_words: BTreeMap<u32, Word> = theirs
            .words
            .into_iter()
            .filter(|(a, _)| !loader.contains_key(a) && *a < 0o7751)
            .collect();
        if theirs_words != ours.words {
            let show = |m: &BTreeMap<u32, Word>, a: &u32| {
                m.get(a).map_or("------".to_string(), |w| w.to_string())
            };
            let addrs: std::collections::BTreeSet<u32> = theirs_words
                .keys()
                .chain(ours.words.keys())
                .copied()
                .collect();
            let diff: Vec<String> = addrs
                .iter()
                .filter(|a| theirs_words.get(a) != ours.words.get(a))
                .map(|a| {
                    format!(
                        "{a:04o}: DEC {} ours {}",
                        show(&theirs_words, a),
                        show(&ours.words, a)
                    )
                })
                .collect();
            panic!(
                "{}: words differ\n{log}{}\n{}",
                path.display(),
                diff.join("\n"),
                ours.listing
            );
        }
        assert_eq!(theirs.start, ours.start, "{}", path.display());
    }
}

/// The Kalah program through the historic MACRO: its sources (roms/kalah.files) as tapes read
/// one after the other in each pass, as an operator fed MACRO a program on several tapes. Its
/// symbols must follow the historic MACRO's rules (docs/assembler.md: at most three
/// characters, no `!`).
#[test]
fn historic_macro_agrees_on_kalah() {
    historic_macro_agrees_on("kalah.files");
}

/// The same for the 7×7 pie-rule program (roms/kalah7.files, issue 14).
#[test]
fn historic_macro_agrees_on_kalah7() {
    historic_macro_agrees_on("kalah7.files");
}

fn historic_macro_agrees_on(list_name: &str) {
    let Some(macro_rim) = macro_tape() else {
        return;
    };
    let list = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../roms")
        .join(list_name);
    let files = pdp1_asm::read_source_list(&list).expect("roms/ source list");
    let named: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let ours = pdp1_asm::assemble_files(&named).unwrap_or_else(|d| panic!("{d}"));
    let texts: Vec<&str> = files.iter().map(|(_, t)| t.as_str()).collect();
    let (theirs, log) = historic_assemble_tapes(&macro_rim, &texts)
        .unwrap_or_else(|log| panic!("roms/{list_name}:\n{log}"));
    let theirs_words = below_the_loader(theirs.words);
    assert!(
        theirs_words == ours.words && theirs.start == ours.start,
        "roms/{list_name}: DEC MACRO's words differ\n{log}"
    );
}

/// Several source files are one program (issue 12): DEC's MACRO reads them as tapes one after
/// the other in each pass and punches the same words as pdp1-asm's `assemble_files`, and as
/// the single file they were cut from.
#[test]
fn historic_macro_agrees_on_a_program_in_several_files() {
    let Some(macro_rim) = macro_tape() else {
        return;
    };
    let whole = "several tapes\n100/\na,\tlaw b\n\tjmp c\nb,\t7\n\nc,\tlac (5)\n\tadd b\n\thlt\n\tconstants\n\tstart a\n";
    let cut = whole.find("c,").unwrap();
    let (one, two) = whole.split_at(cut);
    let ours = pdp1_asm::assemble_files(&[("one.mac", one), ("two.mac", two)]).unwrap();
    let single = assemble(whole, "whole.mac").unwrap();
    assert_eq!(ours.words, single.words, "the files read as one text");
    assert_eq!(ours.start, single.start);
    let (theirs, log) = historic_assemble_tapes(&macro_rim, &[one, two])
        .unwrap_or_else(|log| panic!("two tapes:\n{log}"));
    let theirs_words = below_the_loader(theirs.words);
    assert_eq!(theirs_words, ours.words, "DEC MACRO from two tapes\n{log}");
    assert_eq!(theirs.start, ours.start);
}

/// Two constructs of DEC's diagnostics (issue 30): `flexo` at the end of a line takes the
/// carriage return as its third character, and `start<TAB>go` ends `start`'s word at the tab,
/// so the start address is 0 (MAINDEC 4 ends `start<TAB>0`).
#[test]
fn historic_macro_agrees_on_flexo_at_a_line_end_and_start_before_a_tab() {
    let Some(macro_rim) = macro_tape() else {
        return;
    };
    let src = "maindec constructs\n100/\ngo,\tflexo ab\n\tlac (flex mul\n\tconstants\nstart\tgo\n";
    let ours = assemble(src, "t.mac").unwrap();
    let (theirs, log) =
        historic_assemble(&macro_rim, src).unwrap_or_else(|log| panic!("DEC MACRO:\n{log}"));
    let theirs_words = below_the_loader(theirs.words);
    assert_eq!(theirs_words, ours.words, "{log}");
    assert_eq!(theirs_words.get(&0o100).map(|w| w.bits()), Some(0o616277));
    assert_eq!((theirs.start, ours.start), (Some(0), Some(0)), "{log}");
}

/// Manual experiments: `HISTORIC_SRC=file cargo test -p pdp1-asm --test historic_macro -- --ignored --nocapture`
#[test]
#[ignore]
fn historic_macro_experiment() {
    let (Some(macro_rim), Ok(path)) = (macro_tape(), std::env::var("HISTORIC_SRC")) else {
        return;
    };
    let src = std::fs::read_to_string(path).unwrap();
    match historic_assemble(&macro_rim, &src) {
        Ok((img, log)) => {
            println!("{log}");
            for (a, w) in &img.words {
                if *a < 0o7751 {
                    println!("{a:04o} {w}");
                }
            }
            println!("start {:?}", img.start);
        }
        Err(log) => println!("{log}"),
    }
}
