//! Bad input gives a clear message and a non-zero exit, never a panic (issue 2, issue 7).
//! Exit status: 1 bad input, 2 command-line syntax (clap), 3 the machine stopped on an error.

mod common;
use common::*;

fn fails_with(args: &[&str], status: i32, needles: &[&str]) {
    let r = pdp1(args);
    assert_eq!(r.status, Some(status), "{args:?}: {}", r.stderr);
    for n in needles {
        assert!(
            r.stderr.contains(n),
            "{args:?}: expected {n:?} in {:?}",
            r.stderr
        );
    }
}

#[test]
fn missing_tape_file() {
    fails_with(
        &["--headless", "/nonexistent/x.rim"],
        1,
        &["cannot read tape /nonexistent/x.rim"],
    );
}

#[test]
fn malformed_tapes_are_rejected_before_running() {
    let d = scratch("malformed");
    let p = |n: &str| d.join(n).to_string_lossy().into_owned();
    // Garbage: the first binary word is not dio/jmp.
    std::fs::write(
        p("garbage.rim"),
        [0o277u8, 0o277, 0o277, 0o201, 0o202, 0o203],
    )
    .unwrap();
    fails_with(
        &["--headless", &p("garbage.rim")],
        1,
        &["garbage.rim", "word 0", "frame 0"],
    );
    // Truncated inside a word.
    let mut t = rim(&[(0o100, HLT)], 0o100);
    let cut = t.iter().rposition(|&f| f != 0).unwrap();
    t.truncate(cut);
    std::fs::write(p("trunc.rim"), &t).unwrap();
    fails_with(&["--headless", &p("trunc.rim")], 1, &["trunc.rim", "word"]);
    // No frame has hole 8.
    std::fs::write(p("text.rim"), b"hello").unwrap();
    fails_with(&["--headless", &p("text.rim")], 1, &["text.rim", "hole 8"]);
    // Empty file.
    std::fs::write(p("empty.rim"), b"").unwrap();
    fails_with(&["--headless", &p("empty.rim")], 1, &["empty"]);
    // No final jmp: READ IN would run off the end.
    let mut t = rim(&[(0o100, HLT)], 0o100);
    let end = t.iter().rposition(|&f| f != 0).unwrap();
    t.truncate(end - 2);
    std::fs::write(p("nojmp.rim"), &t).unwrap();
    fails_with(&["--headless", &p("nojmp.rim")], 1, &["nojmp.rim"]);
}

#[test]
fn unknown_option() {
    fails_with(&["--headless", "--frobnicate"], 2, &["--frobnicate"]);
}

#[test]
fn bad_switch_values() {
    let d = scratch("badvalues");
    let t = tape(&d, "p.rim", &[(0o100, HLT)], 0o100);
    fails_with(&["--headless", &t, "--tw", "8"], 1, &["--tw", "octal"]);
    fails_with(
        &["--headless", &t, "--tw", "1000000"],
        1,
        &["--tw", "larger"],
    );
    fails_with(
        &["--headless", &t, "--ss", "7"],
        1,
        &["--ss", "sense switch 7"],
    );
    fails_with(&["--headless", &t, "--ss", "x"], 1, &["--ss"]);
    fails_with(&["--headless", &t, "--ta", "200000"], 1, &["--ta"]);
    fails_with(&["--headless", &t, "--memory", "5K"], 1, &["--memory"]);
    fails_with(&["--headless", &t, "--speed", "fast"], 1, &["--speed"]);
    fails_with(
        &["--headless", &t, "--max-seconds=-1"],
        1,
        &["--max-seconds"],
    );
    fails_with(
        &["--headless", &t, "--max-seconds", "nan"],
        1,
        &["--max-seconds"],
    );
    fails_with(
        &["--headless", &t, "--max-instructions", "many"],
        2,
        &["--max-instructions"],
    );
    fails_with(&["--headless", &t, "--examine", "7-3"], 1, &["--examine"]);
    fails_with(&["--headless", &t, "--type", "a:b"], 1, &["--type", "':'"]);
    fails_with(&["--headless", &t, "--type", "\\q"], 1, &["--type", "\\q"]);
}

#[test]
fn nothing_to_run() {
    fails_with(&["--headless"], 1, &["nothing to run"]);
}

#[test]
fn undefined_instruction_stops_with_an_error() {
    // Opcode 00 is undefined [SIMH-cpu].
    let d = scratch("undefined");
    let t = tape(&d, "p.rim", &[(0o100, law(1)), (0o101, 0)], 0o100);
    let r = pdp1(&["--headless", &t, "--registers"]);
    assert_eq!(r.status, Some(3), "{}", r.stderr);
    assert!(
        r.stderr.contains("undefined instruction 000000 at 000101"),
        "{}",
        r.stderr
    );
    // The dumps still come out: they help find the error.
    assert_eq!(r.registers().ac, 1);
}

/// The PiDP-1 project's `1invad` tapes stop at 1534 on the word 001534: their source has
/// `currY,<tab>lac<tab>.`, and MACRO (ours too) ends a word at a tab, so that is two words,
/// `lac 0` and the address of `.`, which the program then runs. Opcode 00 stops a PDP-1 too
/// (aap's `IR_INCORR`, SIMH): the error says what the word is. Here the same line, assembled.
#[test]
fn a_word_that_is_its_own_address_is_explained() {
    let source = "tab ends a word\n100/\na,\tlac\t.\n\tjmp a\n\tstart a\n";
    let asm = pdp1_asm::assemble(source, "invad.mac").unwrap();
    let words: Vec<(u32, u32)> = asm.words.iter().map(|(&a, w)| (a, w.bits())).collect();
    assert_eq!(
        words,
        [(0o100, 0o200000), (0o101, 0o101), (0o102, 0o600100)]
    );
    let d = scratch("own-address");
    let t = tape(&d, "invad.rim", &words, 0o100);
    let r = pdp1(&["--headless", &t]);
    assert_eq!(r.status, Some(3), "{}", r.stderr);
    let said = r.stderr.lines().last().unwrap_or_default();
    for part in [
        "undefined instruction 000101 at 000101 (the word is its own address",
        "`lac<tab>.` is two words",
    ] {
        assert!(said.contains(part), "{part}: {}", r.stderr);
    }
}

#[test]
fn io_hang_stops_with_an_error() {
    // IOT 0 with wait: no device will ever send the completion pulse.
    let d = scratch("iohang");
    let t = tape(&d, "p.rim", &[(0o100, 0o730000)], 0o100);
    let r = pdp1(&["--headless", &t]);
    assert_eq!(r.status, Some(3), "{}", r.stderr);
    assert!(r.stderr.contains("I/O hang"), "{}", r.stderr);
    assert!(r.stderr.contains("000100"), "{}", r.stderr);
}

#[test]
fn no_display_suggests_headless() {
    let d = scratch("nodisplay");
    let t = tape(&d, "p.rim", &[(0o100, HLT)], 0o100);
    let out = std::process::Command::new(bin())
        .arg(&t)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--headless"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Issue 27: the `life` tapes give IOTs for devices 15 and 16, which no device here answers,
/// and then wait for a break that never comes; the run went to its limit without a word. Each
/// such device is now named once on stderr, with the IOT's address (three times through the
/// loop, one line each).
#[test]
fn an_iot_no_device_answers_is_reported_once_with_its_address() {
    let d = scratch("unanswered-iot");
    // 100 iot 15; 101 iot 216 (device 16); 102 iot 15 again; 103 isp 200 (count -2 up);
    // 104 jmp 100; 105 hlt: the loop goes round three times.
    let prog = [
        (0o100, 0o720015),
        (0o101, 0o720216),
        (0o102, 0o720015),
        (0o103, 0o460200),
        (0o104, jmp(0o100)),
        (0o105, HLT),
        (0o200, 0o777775),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let r = pdp1(&["--headless", &t, "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stderr.contains("halted (pc=000106)"), "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().filter(|l| l.contains("IOT")).collect();
    assert_eq!(
        lines,
        [
            "pdp1: warning: the IOT 720015 at 000100 is for device 15, which this machine does \
             not have: nothing answers it",
            "pdp1: warning: the IOT 720216 at 000101 is for device 16, which this machine does \
             not have: nothing answers it",
        ],
        "{}",
        r.stderr
    );
}
