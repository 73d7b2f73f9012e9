//! DEC's diagnostics (issue 30): MAINDEC 1 (the instruction test, seventeen programs on one
//! tape) and MAINDEC 4 (multiply/divide against DEC's software model of the Type 10),
//! assembled by pdp1-asm from DEC's sources and run by the `pdp1` binary with the operator
//! scripts in tests/maindec/, which follow the diagnostics' own procedures.
//!
//! DEC's sources are not in this repository: the tests read them from the directory named by
//! `MAINDEC_SRC` (aap's recovered sources, `pdp1/maindec/` of github.com/aap/blincolnlights)
//! and say "not run" without it — an optional oracle, never required, since CI cannot have it
//! (docs/testing.md, "DEC's diagnostics (MAINDEC)"). Three defects of the recovered sources
//! are patched in memory here, each documented in `PATCHES` and checked to apply.

use pdp1_asm::tape::{self, Image};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One correction of a recovered source, applied to its text before assembly.
struct Patch {
    file: &'static str,
    why: &'static str,
    find: &'static str,
    replace: &'static str,
    /// How many times `find` must occur (else the source is not the one the patch is for).
    count: usize,
}

const PATCHES: &[Patch] = &[
    // DEC's MACRO takes a source's first line as its title and does not assemble it; these
    // two files begin with code, so their origin (`7766/`, `0/`) would be the title.
    Patch {
        file: "maindec1_01.mac",
        why: "no title line: the origin 7766/ would be taken for the title",
        find: "7766/\n",
        replace: "maindec 1 program 1 (title added)\n7766/\n",
        count: 1,
    },
    Patch {
        file: "maindec1_end.mac",
        why: "no title line: the origin 0/ would be taken for the title",
        find: "0/\n",
        replace: "maindec 1 end (title added)\n0/\n",
        count: 1,
    },
    // `swap` must exchange AC and IO (its name, the "/ swap" comments, and every use: the
    // multiplier is moved into IO by it, the result's IO compared after it). `rcl 77` rotates
    // AC:IO by six places (the count is the number of ones in bits 9-17, PDP-1 Handbook), two
    // of them by twelve; `rcl 9s` (777) twice is the exchange. The recovered text has 77 in
    // the macro and in the two swaps written out in `pri2`.
    Patch {
        file: "maindec4.mac",
        why: "swap is rcl 77, rcl 77 (a 12-place rotation), not rcl 9s, rcl 9s",
        find: "define swap\n\trcl 77\n\trcl 77\n",
        replace: "define swap\n\trcl 9s\n\trcl 9s\n",
        count: 1,
    },
    Patch {
        file: "maindec4.mac",
        why: "the swaps written out in pri2 are rcl 77 pairs",
        find: "\trcl 77\t/ swap\n\trcl 77\n",
        replace: "\trcl 9s\t/ swap\n\trcl 9s\n",
        count: 2,
    },
];

/// The sources' directory, or `None` after saying the test did not run.
fn maindec_src() -> Option<PathBuf> {
    match std::env::var_os("MAINDEC_SRC") {
        Some(d) => Some(PathBuf::from(d)),
        None => {
            pdp1_tests::not_run_optional(
                "MAINDEC_SRC is not set (the directory of DEC's MAINDEC sources, \
                 pdp1/maindec/ of github.com/aap/blincolnlights)",
            );
            None
        }
    }
}

/// The `pdp1` binary built beside this test; sources given without it are a failure.
fn pdp1_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join(format!("pdp1{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "MAINDEC_SRC is set but the pdp1 binary is not built at {} (cargo build -p pdp1)",
        bin.display()
    );
    bin
}

/// The source `name` from `src`, with its patches applied.
fn source(src: &Path, name: &str) -> String {
    let path = src.join(name);
    let mut text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .replace("\r\n", "\n");
    for p in PATCHES.iter().filter(|p| p.file == name) {
        let n = text.matches(p.find).count();
        assert_eq!(
            n, p.count,
            "{name}: the patch for \"{}\" expects its text {} time(s), found {n}: not the source \
             it was made for",
            p.why, p.count
        );
        text = text.replace(p.find, p.replace);
    }
    text
}

/// The assembly of one source.
fn assemble(src: &Path, name: &str) -> pdp1_asm::Assembly {
    pdp1_asm::assemble(&source(src, name), name).unwrap_or_else(|d| panic!("{d}"))
}

/// The RIM tape of one source.
fn rim(src: &Path, name: &str) -> Vec<u8> {
    let asm = assemble(src, name);
    tape::write_rim(&Image {
        words: asm.words,
        start: asm.start,
    })
}

/// Put the tape `name` in `dir` for the scripts, and also in `MAINDEC_TAPES` if that names a
/// directory, for running the scripts by hand.
fn put_tape(dir: &Path, name: &str, frames: &[u8]) {
    std::fs::write(dir.join(name), frames).unwrap();
    if let Some(keep) = std::env::var_os("MAINDEC_TAPES") {
        let path = PathBuf::from(keep).join(name);
        std::fs::write(&path, frames).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// The operator script `tests/maindec/NAME`.
fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("maindec")
        .join(name)
}

/// Run `pdp1 --headless ARGS --script SCRIPT --registers` in `dir`; returns (what the
/// typewriter typed, stderr with the end-of-run dumps).
fn run_script(dir: &Path, script: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(pdp1_binary())
        .current_dir(dir)
        .arg("--headless")
        .args(args)
        .arg("--script")
        .arg(script)
        .arg("--registers")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run pdp1");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{script:?}: exit {:?}\n{stdout}\n{stderr}",
        out.status
    );
    // A stop on an error, or a wait of the script that could never end, is a failure.
    assert!(
        !stderr.contains("the machine stopped") && !stderr.contains("warning"),
        "{stderr}"
    );
    (stdout, stderr)
}

/// Where program 2 of MAINDEC 1 halts (pc after the `hlt`) at each `wait halt` of
/// maindec1.pdp1 before the last: after its read-in (hlt at 1), for switches 1-6 up in the
/// loop at 4 (hlt at 3n+3), for switches 1-6 down in the loop at 32 (hlt at 3n+31).
const PROGRAM_2_HALTS: [u32; 13] = [
    0o2, 0o7, 0o12, 0o15, 0o20, 0o23, 0o26, 0o35, 0o40, 0o43, 0o46, 0o51, 0o54,
];

/// MAINDEC 1, programs 1-20 and the last, read from one tape as `pdp1/maindec/run` makes it
/// (every maindec1_*.mac in name order): the script's procedure exercises program 2's
/// switches, then programs 3-20 run one after the other; the run must end at the last
/// program's halt at 0 (any other halt is an error, and location 0 names its program). Each
/// of program 2's halts is checked by running the script up to its `wait halt` (a script
/// that ends with `wait halt` ends the run there).
#[test]
fn maindec1_runs_to_its_end_without_an_error_halt() {
    let Some(src) = maindec_src() else { return };
    let mut names: Vec<String> = std::fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("MAINDEC_SRC {}: {e}", src.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("maindec1_") && n.ends_with(".mac"))
        .collect();
    names.sort();
    assert_eq!(
        names.len(),
        17,
        "programs 1-7, 10-20 and the end: {names:?}"
    );
    let dir = pdp1_tests::scratch("maindec1");
    let tape: Vec<u8> = names.iter().flat_map(|n| rim(&src, n)).collect();
    put_tape(&dir, "maindec1.rim", &tape);
    let full = std::fs::read_to_string(script("maindec1.pdp1")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let waits: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim() == "wait halt")
        .collect();
    assert_eq!(waits.len(), PROGRAM_2_HALTS.len() + 1, "{waits:?}");
    for (&w, &pc) in waits.iter().zip(&PROGRAM_2_HALTS) {
        let part = dir.join("part.pdp1");
        std::fs::write(&part, lines[..=w].join("\n")).unwrap();
        let (_, stderr) = run_script(&dir, &part, &[]);
        assert!(
            stderr.starts_with(&format!("pc={pc:06o} ")),
            "maindec1.pdp1 line {}: program 2 should halt with pc {pc:06o}\n{stderr}",
            w + 1
        );
    }
    let (stdout, stderr) = run_script(&dir, &script("maindec1.pdp1"), &["--examine", "0"]);
    // MAINDEC 1 types nothing; the dumps are on stderr.
    assert_eq!(stdout, "", "{stderr}");
    let program = stderr.lines().find_map(|l| l.strip_prefix("0000/ "));
    assert!(
        stderr.starts_with("pc=000001 ") && program == Some("760400"),
        "not the last program's halt at 0 (location 0 names the program that halted)\n\
         {stdout}\n{stderr}"
    );
}

/// MAINDEC 4 runs a minute of emulated time with its switches down, on a machine with the
/// Type 10 (`mul`/`div`, from 0) and on one without (`mus`/`dis`, from 1): it types one
/// carriage return at its start and no report of a disagreement with its model.
#[test]
fn maindec4_types_no_error_report() {
    let Some(src) = maindec_src() else { return };
    let dir = pdp1_tests::scratch("maindec4");
    put_tape(&dir, "maindec4.rim", &rim(&src, "maindec4.mac"));
    for (name, args) in [
        ("maindec4.pdp1", &["--mdv"][..]),
        ("maindec4-steps.pdp1", &[][..]),
    ] {
        let (stdout, stderr) = run_script(&dir, &script(name), args);
        assert_eq!(
            stdout, "\n",
            "{name}: a report was typed\n{stdout}\n{stderr}"
        );
        assert!(stderr.starts_with("pc="), "{name}: {stderr}");
    }
}

/// DEC's model of `dis` agrees with the machine on the step that adds -0 + -0 + 1 (AC 777777,
/// IO 400000, M 777777), where the machine follows aap's logic (+1, issue 31) and SIMH gives
/// +0: MAINDEC 4, with the operands deposited and SS4 up, repeats that step and types no
/// report, and the machine's AC after it (ac1) is 000001. With +0 it types a `dis` report.
#[test]
fn maindec4_agrees_on_the_divide_step_of_minus_zero() {
    let Some(src) = maindec_src() else { return };
    let asm = assemble(&src, "maindec4.mac");
    let at = |name: &str| {
        asm.symbols
            .iter()
            .find(|&(n, _, _)| n == name)
            .map(|(_, v, _)| v)
    };
    assert_eq!(
        [at("mem"), at("ra1"), at("ra2"), at("ac1")],
        [Some(0o1052), Some(0o1053), Some(0o1054), Some(0o1060)],
        "the script's addresses"
    );
    let dir = pdp1_tests::scratch("maindec4-dis");
    put_tape(&dir, "maindec4.rim", &rim(&src, "maindec4.mac"));
    let (stdout, stderr) = run_script(
        &dir,
        &script("maindec4-dis-minus-zero.pdp1"),
        &["--examine", "1060"],
    );
    assert_eq!(stdout, "\n", "a report was typed\n{stdout}\n{stderr}");
    assert!(stderr.contains("1060/ 000001"), "{stderr}");
}
