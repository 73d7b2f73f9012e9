//! Keys (`--type`, stdin), the typewriter on stdout, and the idle stop; DDT answering.

mod common;
use common::*;

/// 100 szf i 1 (skip when program flag 1 is set: a key was struck [HB]); 101 jmp 100;
/// 102 tyi (IO ← the key's code); 103 hlt.
fn wait_key_program() -> Vec<(u32, u32)> {
    vec![
        (0o100, 0o650001),
        (0o101, jmp(0o100)),
        (0o102, 0o720004),
        (0o103, HLT),
    ]
}

#[test]
fn a_typed_key_reaches_tyi_as_its_fiodec_code() {
    let d = scratch("key");
    let t = tape(&d, "k.rim", &wait_key_program(), 0o100);
    // FIO-DEC: a = 61, / = 21 (pdp1-hardware.md §5.2).
    let r = pdp1(&["--headless", &t, "--type", "a", "--registers"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.registers().io, 0o61);
    assert_eq!(r.registers().pc, 0o104);
    let r = pdp1(&["--headless", &t, "--type", "/", "--registers"]);
    assert_eq!(r.registers().io, 0o21);
    // The key prints locally on the paper (half duplex): stdout shows it.
    assert_eq!(r.stdout, "/");
}

#[test]
fn an_upper_case_key_is_preceded_by_the_shift_code() {
    // The real keyboard sends upper case shift (074) before an upper-case character.
    let d = scratch("shift");
    let t = tape(&d, "k.rim", &wait_key_program(), 0o100);
    let r = pdp1(&["--headless", &t, "--type", "A", "--registers"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.registers().io, 0o74);
}

#[test]
fn escapes_carriage_return_and_backspace() {
    let d = scratch("escapes");
    let t = tape(&d, "k.rim", &wait_key_program(), 0o100);
    let cr = pdp1(&["--headless", &t, "--type", "\\r", "--registers"]);
    assert_eq!(cr.registers().io, 0o77);
    assert_eq!(cr.stdout, "\n", "carriage return prints as a newline");
    let nl = pdp1(&["--headless", &t, "--type", "\n", "--registers"]);
    assert_eq!(nl.registers().io, 0o77);
    let bs = pdp1(&["--headless", &t, "--type", "\\b", "--registers"]);
    assert_eq!(bs.registers().io, 0o75);
    assert_eq!(bs.stdout, "\u{8}", "backspace prints as ASCII BS");
}

#[test]
fn keys_also_come_from_stdin() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let d = scratch("stdin");
    let t = tape(&d, "k.rim", &wait_key_program(), 0o100);
    let mut child = Command::new(bin())
        .args(["--headless", &t, "--registers"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"k").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // k = 42.
    assert_eq!(
        Registers::parse(err.lines().next().unwrap()).io,
        0o42,
        "{err}"
    );
}

#[test]
fn a_program_waiting_for_a_key_with_nothing_typed_ends_the_run() {
    let d = scratch("idle");
    let t = tape(&d, "k.rim", &wait_key_program(), 0o100);
    // No --type and an empty stdin: nothing will ever be typed; the run ends by itself.
    let r = pdp1(&["--headless", &t, "--registers", "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stderr.contains("waiting for a key"), "{}", r.stderr);
    let regs = r.registers();
    assert!(regs.pc == 0o100 || regs.pc == 0o101, "{}", regs.line);
    // It waited at least one emulated second: 200000 cycles of 5 µs.
    assert!(regs.cycles >= 200_000, "{}", regs.line);
}

#[test]
fn a_program_that_writes_flag_1_itself_is_not_waiting_for_a_key() {
    // 100 clf 1; 101 szf i 1; 102 jmp 100; 103 hlt: it tests flag 1 but clears it itself on
    // every pass (ICSS 1.3 does so once a frame): not a wait at the keyboard, so the run goes
    // on to --max-seconds instead of ending a second after the first test (issue 15).
    let d = scratch("own-flag");
    let prog = [
        (0o100, 0o760001),
        (0o101, 0o650001),
        (0o102, jmp(0o100)),
        (0o103, HLT),
    ];
    let t = tape(&d, "f.rim", &prog, 0o100);
    let r = pdp1(&["--headless", &t, "--max-seconds", "3", "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stderr.contains("emulated-time limit reached"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_key_waits_while_the_program_thinks_silently() {
    // Kalah at test word 4 (depth 4): the operator's `3`, the machine thinks for more than an
    // emulated second without looking at the keyboard and answers `⌫2,`; only then is the
    // operator's `1` struck. Before issue 15 the `1` was struck during the think and printed
    // first: `3. 1⌫2,`.
    let rom = concat!(env!("CARGO_MANIFEST_DIR"), "/../../roms/kalah.rim");
    let r = pdp1(&["--headless", rom, "--tw", "4", "--type", "3 1 "]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stdout.starts_with("3. \u{8}2,1"),
        "the machine's move comes before the operator's next: {:?}",
        r.stdout
    );
}

#[test]
fn ddt_answers_an_examine() {
    // SIMH 3.8 (`load ddt.rim`, `run 6000`, typing `100/`) prints `100/`, a tab, `0` (location
    // 100 is empty after loading DDT) and a tab. The keys echo locally, DDT types the rest.
    let Some(ddt) = shared_tape("ddt.rim") else {
        return;
    };
    let r = pdp1(&["--headless", &ddt, "--type", "100/"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stdout.ends_with("100/\t0\t"), "{:?}", r.stdout);
}

#[test]
fn ddt_deposits_and_examines_symbolically() {
    // Same session in SIMH 3.8: `100/ 1234<CR>100/ 6000/ ` prints
    // `100/\t0\t 1234\r\n100/\t1234\t 6000/\tlio 7403\t ` (location 6000 holds 227403).
    let Some(ddt) = shared_tape("ddt.rim") else {
        return;
    };
    let r = pdp1(&[
        "--headless",
        &ddt,
        "--type",
        "100/ 1234\\r100/ 6000/ ",
        "--examine",
        "100",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stdout
            .ends_with("100/\t0\t 1234\n100/\t1234\t 6000/\tlio 7403\t "),
        "{:?}",
        r.stdout
    );
    assert_eq!(r.stderr.trim(), "0100/ 001234");
}

#[test]
fn lisp_reads_evaluates_and_prints() {
    // SIMH 3.8 session: `set cpu mdv`, `d extm_init 1`, `d ss 2` (sense switch 5: input from the
    // typewriter), `run 2351`; at the halts set the test word 7777, then 4000, then 0 and
    // CONTINUE; typing `(cons (quote a) (quote b)) ` prints `\r\n(a.b) `.
    let Some(lisp) = shared_tape("lisp.rim") else {
        return;
    };
    let r = pdp1(&[
        "--headless",
        &lisp,
        "--mdv",
        "--extend",
        "--ss",
        "5",
        "--tw",
        "7777",
        "--continue-halts",
        "3",
        "--halt-tw",
        "7777,4000,0",
        "--type",
        "(cons (quote a) (quote b)) ",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.stdout, "(cons (quote a) (quote b)) \n(a.b) ");
}

#[test]
fn continue_halts_sets_the_test_word_and_continues() {
    // 100 hlt; 101 lat; 102 hlt; 103 add 110 … : after the first CONTINUE lat reads 1234.
    let d = scratch("continue");
    let prog = [
        (0o100, HLT),
        (0o101, LAT),
        (0o102, HLT),
        (0o103, law(7)),
        (0o104, HLT),
    ];
    let t = tape(&d, "h.rim", &prog, 0o100);
    let once = pdp1(&[
        "--headless",
        &t,
        "--continue-halts",
        "1",
        "--halt-tw",
        "1234",
        "--registers",
    ]);
    assert!(once.ok(), "{}", once.stderr);
    assert_eq!((once.registers().pc, once.registers().ac), (0o103, 0o1234));
    let twice = pdp1(&["--headless", &t, "--continue-halts", "2", "--registers"]);
    assert_eq!((twice.registers().pc, twice.registers().ac), (0o105, 7));
}

#[test]
fn expensive_typewriter_takes_typed_text_from_the_command_line() {
    // expensive-typewriter.rim ends in a 377 frame no loader reads: the typist must still start
    // once the program polls the keyboard. Append two lines (`a`, text, backspace back to
    // command mode) and list them with `w`; SS2 numbers the lines (the PiDP-1 notes).
    let Some(et) = shared_tape("expensive-typewriter.rim") else {
        return;
    };
    let r = pdp1(&[
        "--headless",
        &et,
        "--ss",
        "2,6",
        "--max-seconds",
        "120",
        "--type",
        "a\\rhello\\rworld\\r\\bw\\r",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stdout.ends_with("w\n1\thello\n2\tworld\n3\t\n"),
        "{:?}",
        r.stdout
    );
}
