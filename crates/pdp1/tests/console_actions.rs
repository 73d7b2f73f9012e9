//! Issue 25, one way into the machine: the console's actions are the run controller's, one
//! implementation each for the window's keys and a script's lines — READ IN's rewind rule —
//! and the options a driver cannot honour are refused with one line (`--mankalah`, `--depth`,
//! `--audio` in the window), the agent's run ending at its emulated-time limit, and the
//! six-pit program refused by the agent. Each test owns its scratch directory.

mod common;
use common::{jmp, law, pdp1, pdp1_in, rim, HLT};
use std::path::{Path, PathBuf};

/// A scratch directory of this test's own (unique per test and per process).
fn own_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pdp1-console-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

fn roms(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../roms")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A script's `readin` after the tape has gone through rewinds the boot tape and reads it in
/// again, as the window's F7 does (docs/frontend.md): the program, clobbered by a deposit,
/// is loaded afresh. (Before, the script's `readin` read the blank trailer and failed.)
#[test]
fn a_scripts_readin_after_the_tape_went_through_rewinds_it_as_f7_does() {
    let dir = own_dir("readin-rewinds");
    // 100: law 5 / 101: hlt
    let tape = write(
        &dir,
        "law5.rim",
        &rim(&[(0o100, law(5)), (0o101, HLT)], 0o100),
    );
    let script = write(
        &dir,
        "again.pdp1",
        b"wait halt\ndeposit 100 0\nexamine 100\nreadin\nwait halt\nexamine 100\n",
    );
    let r = pdp1(&["--headless", "--script", &script, "--registers", &tape]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.stdout, "0100/ 000000\n0100/ 700005\n", "{}", r.stderr);
    assert_eq!(r.registers().ac, 5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Options the ManKalah agent cannot honour are refused with one line naming the option.
#[test]
fn mankalah_refuses_what_it_cannot_honour() {
    let dir = own_dir("mankalah-refuses");
    let loop_tape = write(&dir, "loop.rim", &rim(&[(0o100, jmp(0o100))], 0o100));
    for (opt, val) in [
        ("--breakpoint", Some("100")),
        ("--screenshot", Some("x.png")),
        ("--audio", Some("x.wav")),
        ("--speed", Some("1")),
        ("--mute", None),
        ("--sound-flags", Some("1")),
    ] {
        let mut args = vec!["--mankalah", opt];
        args.extend(val);
        args.push(&loop_tape);
        let r = pdp1_in(&args, Some(&dir));
        assert_eq!(r.status, Some(1), "{opt}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{opt}: one line: {}", r.stderr);
        assert!(
            r.stderr
                .starts_with(&format!("pdp1: error: {opt} does not go with --mankalah")),
            "{opt}: {}",
            r.stderr
        );
    }
    assert!(!dir.join("x.png").exists() && !dir.join("x.wav").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--depth` without `--mankalah`, and `--audio` in the window, are refused (they were
/// silently dropped).
#[test]
fn depth_without_mankalah_and_audio_in_the_window_are_refused() {
    let dir = own_dir("depth-audio");
    let tape = write(&dir, "halt.rim", &rim(&[(0o100, HLT)], 0o100));
    let r = pdp1(&["--headless", "--depth", "4", &tape]);
    assert_eq!(r.status, Some(1), "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("pdp1: error: --depth 4 is the ManKalah agent's search depth"),
        "{}",
        r.stderr
    );
    // (Refused before the window would open: no display is needed to see it.)
    let wav = dir.join("x.wav").to_string_lossy().into_owned();
    let r = pdp1(&["--audio", &wav, &tape]);
    assert_eq!(r.status, Some(1), "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("pdp1: error: --audio records a headless run's sound"),
        "{}",
        r.stderr
    );
    assert!(!dir.join("x.wav").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that never asks for a key ends the agent's run at the emulated-time limit with
/// an error (it ran on for ever before), and `--max-seconds` is that limit.
#[test]
fn mankalah_ends_at_the_emulated_time_limit_with_an_error() {
    let dir = own_dir("mankalah-limit");
    let loop_tape = write(&dir, "loop.rim", &rim(&[(0o100, jmp(0o100))], 0o100));
    let r = pdp1(&["--mankalah", "--max-seconds", "0.5", &loop_tape]);
    assert_eq!(r.status, Some(1), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the emulated-time limit (--max-seconds) was reached"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The six-pit DEC game under `--mankalah` is refused (it answered `MOVE;7`): the program
/// crosses out key 7, which the seven-pit one plays.
#[test]
fn mankalah_refuses_the_six_pit_program() {
    let r = pdp1(&["--mankalah", &roms("kalah.rim")]);
    assert_eq!(r.status, Some(1), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no answer sent: {}", r.stdout);
    assert!(
        r.stderr.contains("the program on TAPE has no pit 7"),
        "{}",
        r.stderr
    );
}

/// `--mankalah` honours the result files a headless run writes (they were dropped): a match
/// the engine aborts with a bare `END` ends normally, and `--save-state`, `--punch`, `--trace`
/// and `--registers` are there afterwards.
#[test]
fn mankalah_writes_the_result_files_at_the_end_of_a_match() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = own_dir("mankalah-files");
    let (state, punch, trace) = (dir.join("s.ron"), dir.join("p.pt"), dir.join("t.txt"));
    let mut child = Command::new(common::bin())
        .args(["--mankalah", "--depth", "2", "--registers", "--save-state"])
        .arg(&state)
        .arg("--punch")
        .arg(&punch)
        .arg("--trace")
        .arg(&trace)
        .arg(roms("kalah7.rim"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // North: the engine moves first, and aborts the match instead.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"START;North\nEND\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("the engine ended the match early"),
        "{stderr}"
    );
    assert!(
        stderr.lines().any(|l| l.starts_with("pc=")),
        "--registers: {stderr}"
    );
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("pdp1-state"), "{saved:.200}");
    assert!(punch.exists(), "--punch (nothing punched: an empty file)");
    let traced = std::fs::read_to_string(&trace).unwrap();
    assert!(
        traced.lines().next().is_some_and(|l| l.contains("cycles=")),
        "{:.200}",
        traced
    );
    let _ = std::fs::remove_dir_all(&dir);
}
