//! Fuzzing the inputs the project parses: paper tapes (pdp1_asm::tape), MACRO source
//! (pdp1_asm::assemble) and the RON configuration file (through the `pdp1` binary's
//! `--config`, since crates/pdp1 has no library target). Every input either parses or is
//! rejected with a clear message; nothing panics.
//!
//! * The kept corpus in `tests/fuzz-corpus/{tape,asm,config}` is replayed by a normal test.
//!   When a proptest case fails, add its input there as a file so it stays covered.
//! * proptest then feeds random and mutated inputs, a bounded number of cases each
//!   (`PROPTEST_CASES` overrides), so the whole file runs in well under a minute.

use pdp1_asm::tape;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_dir(kind: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz-corpus")
        .join(kind)
}

fn corpus(kind: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(corpus_dir(kind))
        .unwrap_or_else(|e| panic!("fuzz corpus {kind}: {e}"))
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "fuzz corpus {kind} is empty");
    files
}

/// A rejection is "clear" when it is a non-empty sentence that names something, not a Rust
/// debug dump or a panic text.
fn assert_clear(msg: &str, input: &str) {
    assert!(
        msg.trim().len() >= 10,
        "too short a message {msg:?} for {input}"
    );
    for bad in ["panicked", "unwrap", "RUST_BACKTRACE", "Some(", "Err("] {
        assert!(
            !msg.contains(bad),
            "message {msg:?} for {input} contains {bad:?}"
        );
    }
}

// ---- tapes ----

/// Every tape reader on `frames`: no panic; errors have clear messages; what a reader accepts
/// survives a write/read round trip.
fn check_tape(frames: &[u8], what: &str) {
    for (name, result) in [
        ("read_rim", tape::read_rim(frames)),
        ("read_blk", tape::read_blk(frames)),
        ("read_image", tape::read_image(frames)),
    ] {
        match result {
            Ok(image) => {
                for (&a, w) in &image.words {
                    assert!(
                        a <= 0o7777 && w.bits() <= 0o777777,
                        "{name} {what}: {a:o} {w}"
                    );
                }
                if name == "read_rim" && !image.words.is_empty() {
                    let again = tape::read_rim(&tape::write_rim(&image)).expect("own RIM");
                    assert_eq!(again, image, "{name} {what}: RIM round trip");
                }
            }
            Err(e) => assert_clear(&e.to_string(), &format!("{name} {what}")),
        }
    }
    // Text tapes: any frames decode to text, and that text (when it has FIO-DEC codes)
    // punches and decodes to itself.
    let text = tape::fiodec_tape_to_text(frames);
    match tape::text_to_fiodec_tape(&text) {
        Ok(t) => assert_eq!(
            tape::fiodec_tape_to_text(&t),
            text,
            "{what}: text round trip"
        ),
        Err(e) => assert_clear(&e.to_string(), what),
    }
}

#[test]
fn corpus_tapes_parse_or_fail_clearly() {
    for (name, frames) in corpus("tape") {
        check_tape(&frames, &name);
    }
    // The corpus's known-good and known-bad tapes behave as labelled.
    let f = |n: &str| std::fs::read(corpus_dir("tape").join(n)).unwrap();
    assert_eq!(tape::read_rim(&f("hello.rim")).unwrap().start, Some(0o100));
    assert_eq!(tape::read_blk(&f("hello.blk")).unwrap().start, Some(0o100));
    let e = tape::read_blk(&f("hello-bad-checksum.blk"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("checksum"), "{e}");
    let e = tape::read_rim(&f("hello-truncated.rim"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("ends"), "{e}");
    assert!(tape::read_image(&f("empty.bin")).is_err());
}

/// A seed from the corpus with edits: (position, byte, 0 = overwrite / 1 = insert /
/// 2 = delete) and an optional truncation.
fn mutate(seed: &[u8], edits: &[(usize, u8, u8)], cut: Option<usize>) -> Vec<u8> {
    let mut v = seed.to_vec();
    for &(pos, byte, op) in edits {
        let p = if v.is_empty() { 0 } else { pos % (v.len() + 1) };
        match op % 3 {
            0 if p < v.len() => v[p] = byte,
            1 => v.insert(p, byte),
            _ if p < v.len() => {
                v.remove(p);
            }
            _ => {}
        }
    }
    if let Some(c) = cut {
        v.truncate(c % (v.len() + 1));
    }
    v
}

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(n),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..12)
}

proptest! {
    #![proptest_config(cases(10_000))]

    #[test]
    fn random_tapes_parse_or_fail_clearly(frames in prop::collection::vec(any::<u8>(), 0..400)) {
        check_tape(&frames, "random tape");
    }

    #[test]
    fn random_binary_frames_parse_or_fail_clearly(
        words in prop::collection::vec((any::<u8>(), 0u32..0o1000000), 0..80)
    ) {
        // Frames with hole 8 mostly set, so the readers get past the leader into words.
        let mut frames = Vec::new();
        for (k, w) in words {
            for shift in [12, 6, 0] {
                let hole8 = if k % 17 == 0 { 0 } else { 0o200 };
                frames.push(hole8 | ((w >> shift) & 0o77) as u8);
            }
        }
        check_tape(&frames, "random binary frames");
    }

    #[test]
    fn mutated_corpus_tapes_parse_or_fail_clearly(
        pick in any::<prop::sample::Index>(),
        edits in edits(),
        cut in prop::option::of(any::<usize>()),
    ) {
        let seeds = corpus("tape");
        let (name, seed) = &seeds[pick.index(seeds.len())];
        check_tape(&mutate(seed, &edits, cut), name);
    }
}

// ---- assembler ----

fn check_asm(source: &str, what: &str) {
    match pdp1_asm::assemble(source, "fuzz.mac") {
        Ok(a) => {
            for (&addr, w) in &a.words {
                assert!(
                    addr <= 0o177777 && w.bits() <= 0o777777,
                    "{what}: {addr:o} {w}"
                );
            }
        }
        Err(d) => {
            assert!(!d.0.is_empty(), "{what}: rejected with no diagnostic");
            for diag in &d.0 {
                assert!(diag.line >= 1 && diag.column >= 1, "{what}: {diag}");
                assert_clear(&diag.message, what);
            }
        }
    }
}

#[test]
fn corpus_sources_assemble_or_fail_clearly() {
    for (name, bytes) in corpus("asm") {
        let source = String::from_utf8_lossy(&bytes);
        check_asm(&source, &name);
    }
    let ok = |n: &str| std::fs::read_to_string(corpus_dir("asm").join(n)).unwrap();
    for good in ["hello.mac", "macros.mac", "expressions.mac"] {
        assert!(
            pdp1_asm::assemble(&ok(good), good).is_ok(),
            "{good} assembles"
        );
    }
    let errors = pdp1_asm::assemble(&ok("errors.mac"), "errors.mac").unwrap_err();
    assert!(errors.0.len() >= 3, "several errors reported: {errors}");
}

/// Pieces of MACRO text: pseudo-instructions, instructions, punctuation, numbers, symbols.
const TOKENS: &[&str] = &[
    "lac ",
    "dac ",
    "add ",
    "jmp ",
    "jsp ",
    "law ",
    "cla",
    "hlt",
    "xct ",
    "i ",
    "sza",
    "spa",
    "rcl 9s",
    "sar 3s",
    "iot ",
    "tyo",
    "dpy",
    "define ",
    "term",
    "repeat ",
    "text ",
    "flexo ",
    "char ",
    "constants",
    "variables",
    "dimension ",
    "start ",
    "expunge",
    "octal",
    "decimal",
    "noinput",
    "100/",
    "7777/",
    "x,",
    "y,",
    "x",
    "y",
    "z",
    "a1",
    "A",
    "=",
    "+",
    "-",
    "!",
    "&",
    "*",
    "(",
    ")",
    "[",
    "]",
    "/",
    ".",
    ",",
    ";",
    "\"",
    "'",
    "\t",
    " ",
    "\n",
    "\n",
    "0",
    "1",
    "7",
    "10",
    "777777",
    "1000000",
    "-0",
    "9",
    "/ comment",
    "mac",
    "lo",
    "rabc",
    "x=.",
    ".+1",
    "..",
    ":",
    "~",
    "\u{1}",
    "é",
];

proptest! {
    #![proptest_config(cases(5_000))]

    #[test]
    fn token_soup_assembles_or_fails_clearly(
        tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..80)
    ) {
        let source: String = tokens.concat();
        check_asm(&source, &format!("token soup {source:?}"));
    }

    #[test]
    fn random_text_assembles_or_fails_clearly(source in "\\PC{0,200}") {
        check_asm(&source, &format!("random text {source:?}"));
    }

    #[test]
    fn mutated_corpus_sources_assemble_or_fail_clearly(
        pick in any::<prop::sample::Index>(),
        edits in edits(),
        cut in prop::option::of(any::<usize>()),
    ) {
        let seeds = corpus("asm");
        let (name, seed) = &seeds[pick.index(seeds.len())];
        let bytes = mutate(seed, &edits, cut);
        check_asm(&String::from_utf8_lossy(&bytes), name);
    }
}

// ---- RON configuration, through the binary ----

/// The `pdp1` binary built beside this test (target/<profile>/pdp1), if any.
fn pdp1_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?;
    let bin = dir.join(format!("pdp1{}", std::env::consts::EXE_SUFFIX));
    if bin.exists() {
        Some(bin)
    } else {
        pdp1_tests::not_run(&format!(
            "the pdp1 binary is not built at {} (cargo build -p pdp1, or run the whole \
             workspace's tests)",
            bin.display()
        ));
        None
    }
}

/// A tiny tape for the binary to run: `jmp 100` at 100 (an endless loop).
fn loop_tape() -> Vec<u8> {
    let mut image = tape::Image::default();
    image.words.insert(0o100, pdp1_asm::Word::new(0o600100));
    image.start = Some(0o100);
    tape::write_rim(&image)
}

/// Run `pdp1 --headless --config FILE --max-instructions 50 TAPE`: either it runs (exit 0)
/// or it exits 1 with a `pdp1: error: configuration file …` line; never a panic or a signal.
fn check_config(bin: &Path, dir: &Path, text: &[u8], what: &str) {
    let cfg = dir.join("fuzz.ron");
    std::fs::write(&cfg, text).unwrap();
    let out = Command::new(bin)
        .arg("--headless")
        .arg("--config")
        .arg(&cfg)
        .args(["--max-instructions", "50", "--max-seconds", "0.01"])
        .arg(dir.join("loop.rim"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run pdp1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        code.is_some(),
        "{what}: killed by a signal; stderr {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{what}: panic: {stderr}");
    match code {
        Some(0) => {}
        Some(1) => {
            let line = stderr.lines().find(|l| l.starts_with("pdp1: error:"));
            let line =
                line.unwrap_or_else(|| panic!("{what}: exit 1 without an error line: {stderr}"));
            assert!(line.contains("configuration file"), "{what}: {line}");
            assert_clear(line, what);
        }
        other => panic!("{what}: exit {other:?}: {stderr}"),
    }
}

/// A fresh folder per call, the caller's own and removed when it is dropped (tests run in
/// parallel threads of one process), with the loop tape in it.
fn scratch_dir() -> pdp1_tests::Scratch {
    let d = pdp1_tests::scratch("lib-fuzz");
    std::fs::write(d.join("loop.rim"), loop_tape()).unwrap();
    d
}

#[test]
fn corpus_configs_load_or_fail_clearly() {
    let Some(bin) = pdp1_binary() else { return };
    let dir = scratch_dir();
    for (name, text) in corpus("config") {
        check_config(&bin, &dir, &text, &name);
    }
    // The labelled ones.
    let run = |n: &str| {
        let cfg = corpus_dir("config").join(n);
        Command::new(&bin)
            .args(["--headless", "--max-instructions", "50", "--config"])
            .arg(&cfg)
            .arg(dir.join("loop.rim"))
            .output()
            .unwrap()
    };
    assert!(run("full.ron").status.success());
    assert!(run("empty.ron").status.success());
    let out = run("unknown-field.ron");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tww"));
    let out = run("bad-octal.ron");
    assert!(String::from_utf8_lossy(&out.stderr).contains("octal"));
}

/// Pieces of RON configuration text.
const RON_TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\"",
    "tw",
    "ss",
    "ta",
    "mdv",
    "extend",
    "memory",
    "max_seconds",
    "max_instructions",
    "speed",
    "xct_limit",
    "indirect_limit",
    "breakpoints",
    "true",
    "false",
    "0o777",
    "777",
    "\"777\"",
    "\"64K\"",
    "\"max\"",
    "4096",
    "-1",
    "1e309",
    "NaN",
    "18446744073709551616",
    "\"3,5\"",
    "[3, 5]",
    "Some(",
    "None",
    "//",
    "/*",
    "\n",
    "\"9\"",
    "0x1F",
    "1.5",
    "tww",
    "\u{0}",
];

proptest! {
    // Each case starts a process: 150 keep the file well under a minute.
    #![proptest_config(cases(150))]

    #[test]
    fn random_configs_load_or_fail_clearly(
        tokens in prop::collection::vec(prop::sample::select(RON_TOKENS), 0..30)
    ) {
        let Some(bin) = pdp1_binary() else { return Ok(()) };
        let dir = scratch_dir();
        let text: String = tokens.concat();
        check_config(&bin, &dir, text.as_bytes(), &format!("config {text:?}"));
    }

    #[test]
    fn mutated_corpus_configs_load_or_fail_clearly(
        pick in any::<prop::sample::Index>(),
        edits in edits(),
    ) {
        let Some(bin) = pdp1_binary() else { return Ok(()) };
        let dir = scratch_dir();
        let seeds = corpus("config");
        let (name, seed) = &seeds[pick.index(seeds.len())];
        check_config(&bin, &dir, &mutate(seed, &edits, None), name);
    }
}
