//! Issue 15: `--script FILE`, an operator's actions in one run — switches, START/STOP/CONTINUE,
//! READ IN, tapes on the reader and the punch, keys, waits — and its errors. The programs are
//! hand-made RIM tapes (tests/common), so what each action must do is known from the
//! handbook's instructions alone.

mod common;
use common::*;
use std::path::Path;

const TYI: u32 = 0o720004;
const TYO: u32 = 0o720003;
const PPA: u32 = 0o720005;
const SZF_I_1: u32 = 0o650001;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// 100 lat; 101 add 200; 102 dac 200; 103 hlt; 104 jmp 100 — each pass adds the test word
/// to 200 and halts.
fn accumulate() -> Vec<(u32, u32)> {
    vec![
        (0o100, LAT),
        (0o101, add(0o200)),
        (0o102, dac(0o200)),
        (0o103, HLT),
        (0o104, jmp(0o100)),
    ]
}

/// The same steps in the window (frontend_run_plan.rs) and headless.
pub const ACCUMULATE_SCRIPT: &str = "\
wait halt          # the tape starts at 100 with the test word 0
examine 200
tw 5
continue           # from 104: jmp 100
wait halt
examine 200
tw 7
start 100
wait halt
examine 200
";

#[test]
fn switches_continue_and_start_at_an_address() {
    let d = scratch("script-accumulate");
    let t = tape(&d, "acc.rim", &accumulate(), 0o100);
    let s = write(&d, "acc.pdp1", ACCUMULATE_SCRIPT);
    let r = pdp1(&["--headless", &t, "--script", &s, "--registers", "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.stdout, "0200/ 000000\n0200/ 000005\n0200/ 000014\n");
    assert_eq!(r.registers().pc, 0o104, "{}", r.stderr);
    assert!(r.stderr.contains("halted (pc=000104)"), "{}", r.stderr);
    // Ended by the script's STOP after a CONTINUE (not at the earlier halt): said as such.
    let s = write(&d, "stop.pdp1", "wait halt\ncontinue\nstop\n");
    let r = pdp1(&["--headless", &t, "--script", &s, "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stderr.contains("the machine is not running"),
        "{}",
        r.stderr
    );
}

/// Issue 18 (one run controller): a breakpoint with a script going leaves the machine standing
/// at the console, as in the window — `wait halt` is over there. (Headless left the processor
/// running at the breakpoint: the wait went on to the program's own halt.)
#[test]
fn a_breakpoint_leaves_the_machine_standing_for_the_script() {
    let d = scratch("script-breakpoint");
    // 100 law 5; 101 dac 200; 102 law 6; 103 dac 200; 104 hlt
    let prog = [
        (0o100, law(5)),
        (0o101, dac(0o200)),
        (0o102, law(6)),
        (0o103, dac(0o200)),
        (0o104, HLT),
    ];
    let t = tape(&d, "bp.rim", &prog, 0o100);
    let s = write(&d, "bp.pdp1", "wait halt\nexamine 200\n");
    let r = pdp1(&[
        "--headless",
        &t,
        "--breakpoint",
        "102",
        "--script",
        &s,
        "-v",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.stdout, "0200/ 000005\n", "{}", r.stderr);
    assert!(r.stderr.contains("breakpoint at 000102"), "{}", r.stderr);
}

#[test]
fn a_script_reads_in_its_own_tapes_one_over_the_other() {
    // No TAPE: the script mounts one, reads it in, then reads a second over it, as an
    // operator loads a patch; deposit and examine work on memory directly.
    let d = scratch("script-two-tapes");
    let a = tape(&d, "a.rim", &[(0o200, 0o111), (0o100, HLT)], 0o100);
    let b = tape(&d, "b.rim", &[(0o201, 0o222), (0o101, HLT)], 0o101);
    let s = write(
        &d,
        "two.pdp1",
        &format!(
            "mount {a}\nreadin\nwait halt\nexamine 200-201\nmount '{b}'\nreadin\nwait halt\n\
             deposit 202 333\nexamine 200-202\n"
        ),
    );
    let r = pdp1(&["--headless", "--script", &s, "--registers"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "0200/ 000111\n0201/ 000000\n0200/ 000111\n0201/ 000222\n0202/ 000333\n"
    );
    assert_eq!(r.registers().pc, 0o102);
}

#[test]
fn keys_and_a_wait_for_typed_text() {
    // 100 szf i 1; 101 jmp 100; 102 tyi; 103 clf 1; 104 tyo (echo); 105 lac 200; 106 add
    // (1) — counts keys in 200; 107 dac 200; 110 jmp 100.
    let d = scratch("script-text");
    let prog = [
        (0o100, SZF_I_1),
        (0o101, jmp(0o100)),
        (0o102, TYI),
        (0o103, 0o760001),
        (0o104, TYO),
        (0o105, idx(0o200)),
        (0o106, jmp(0o100)),
    ];
    let t = tape(&d, "echo.rim", &prog, 0o100);
    let s = write(
        &d,
        "t.pdp1",
        "type 'ab'\nwait text \"b\"   # the echo of b\nexamine 200\ntype 'c'\nwait text 'c'\nexamine 200\nstop\n",
    );
    let r = pdp1(&["--headless", &t, "--script", &s]);
    assert!(r.ok(), "{}", r.stderr);
    // Each key prints locally and again as the program's echo.
    assert_eq!(r.stdout, "aabb0200/ 000002\ncc0200/ 000003\n");
}

#[test]
fn time_waits_are_emulated_time_also_while_the_machine_stands() {
    // 100 idx 200; 101 jmp 100: 200 counts every 15 µs (idx 10 µs, jmp 5 µs).
    let d = scratch("script-time");
    let t = tape(
        &d,
        "count.rim",
        &[(0o100, idx(0o200)), (0o101, jmp(0o100))],
        0o100,
    );
    let s = write(
        &d,
        "t.pdp1",
        "wait 2s\nstop\nexamine 200\nwait 1.5s   # stopped: time passes, nothing counts\nexamine 200\ncontinue\nwait 100ms\nstop\n",
    );
    let r = pdp1(&["--headless", &t, "--script", &s, "--registers"]);
    assert!(r.ok(), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert_eq!(lines[0], lines[1], "nothing runs while the machine stands");
    let n = u32::from_str_radix(&lines[0][6..], 8).unwrap();
    // READ IN of the short tape takes a few tens of ms of the 2 s; then a count every 15 µs.
    assert!((120_000..=133_333).contains(&n), "{n}");
    // The 100 ms after CONTINUE: about 10000 more counts (the register count stays below
    // the 2.1 s of running, the stopped 1.5 s excluded).
    let cycles = r.registers().cycles;
    assert!(cycles < 2_100_000 / 5, "{}", r.registers().line);
}

#[test]
fn each_punch_line_starts_a_fresh_tape() {
    // 100 lio 110; 101 ppa; 102 hlt; 103 jmp 100; 110: 101 — one frame each pass.
    let d = scratch("script-punch");
    let prog = [
        (0o100, lio(0o110)),
        (0o101, PPA),
        (0o102, HLT),
        (0o103, jmp(0o100)),
        (0o110, 0o101),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let a = d.join("a.pt");
    let b = d.join("b.pt");
    let all = d.join("all.pt");
    let s = write(
        &d,
        "p.pdp1",
        &format!(
            "punch {}\nwait halt\npunch {}\ncontinue\nwait halt\ncontinue\nwait halt\n",
            a.display(),
            b.display()
        ),
    );
    let r = pdp1(&[
        "--headless",
        &t,
        "--script",
        &s,
        "--punch",
        all.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(std::fs::read(&a).unwrap(), vec![0o101]);
    assert_eq!(std::fs::read(&b).unwrap(), vec![0o101, 0o101]);
    // --punch still gets the whole run.
    assert_eq!(std::fs::read(&all).unwrap(), vec![0o101; 3]);
}

#[test]
fn bad_scripts_are_reported_before_the_run_with_file_line_and_column() {
    let d = scratch("script-errors");
    let t = tape(&d, "acc.rim", &accumulate(), 0o100);
    let cases = [
        (
            "tw 20\nwait forever\n",
            "line 2, column 6: `forever` is not a time",
        ),
        (
            "# fine\n  jump 100\n",
            "line 2, column 3: unknown action `jump`",
        ),
        (
            "type 'unclosed\n",
            "line 1, column 6: the text opened with ' is not closed",
        ),
        (
            "ss 9\n",
            "line 1, column 4: ss: sense switch 9 does not exist",
        ),
        (
            "mount no-such-tape.rim\n",
            "line 1, column 7: cannot read tape no-such-tape.rim",
        ),
        (
            "examine 10000\n",
            "line 1: address 10000 is outside the 4K memory",
        ),
        (
            "deposit 100\n",
            "line 1, column 1: `deposit` takes an address and a word",
        ),
    ];
    for (text, want) in cases {
        let s = write(&d, "bad.pdp1", text);
        let out = d.join("out.ron");
        let r = pdp1(&[
            "--headless",
            &t,
            "--script",
            &s,
            "--save-state",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.status, Some(1), "{text:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("script {s} {want}")),
            "{text:?}: {}",
            r.stderr
        );
        assert!(!out.exists(), "nothing ran for {text:?}");
    }
    let r = pdp1(&["--headless", &t, "--script", "/no/such/script"]);
    assert_eq!(r.status, Some(1));
    assert!(
        r.stderr.contains("cannot read script /no/such/script"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_wait_that_can_never_end_ends_the_run_with_a_warning() {
    let d = scratch("script-stuck");
    let t = tape(&d, "acc.rim", &accumulate(), 0o100);
    let s = write(&d, "s.pdp1", "wait text 'never'\n");
    let r = pdp1(&["--headless", &t, "--script", &s, "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("line 1 (wait text \"never\") waits, but the machine stands"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("halted (pc=000104)"), "{}", r.stderr);
}

/// `examples/scripts/NAME` and the shared tapes' folder (the scripts name the tapes relative
/// to it), or `None` (with the oracle policy's note) when the tapes are missing.
fn example(name: &str, tapes: &[&str]) -> Option<(String, std::path::PathBuf)> {
    let mut dir = None;
    for t in tapes {
        dir = Some(Path::new(&shared_tape(t)?).parent().unwrap().to_path_buf());
    }
    let script = format!(
        "{}/../../examples/scripts/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    Some((script, dir.expect("a tape")))
}

/// Issue 15: Spacewar! 2B read in and running, then Graetz's hyperspace patch read in over
/// it and the game started again, in one run (`examples/scripts/hyperspace.pdp1`). The patch
/// took effect: Spacewar!'s words at 1456, 1642 and 2341 now jump into the patch's code at
/// 5240–5577 (empty before), and the patched game runs on to the limit.
#[test]
fn spacewar_2b_then_the_hyperspace_patch_in_one_run() {
    let Some((script, tapes)) = example("hyperspace.pdp1", &["spacewar2B.rim", "hyperspace85.bin"])
    else {
        return;
    };
    let r = pdp1_in(
        &[
            "--headless",
            "--script",
            &script,
            "--max-seconds",
            "45",
            "--examine",
            "1456",
            "--examine",
            "1642",
            "--examine",
            "2341",
            "--examine",
            "5240",
            "-v",
        ],
        Some(&tapes),
    );
    assert!(r.ok(), "{}", r.stderr);
    // The script's own examine, between the patch and the new START.
    assert_eq!(r.stdout, "1456/ 605530\n", "{}", r.stderr);
    // The patch's loader ends with jmp 0 (an empty word): said, and the script goes on.
    assert!(
        r.stderr
            .contains("undefined instruction 000000 at 000000 (the script goes on"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("emulated-time limit reached"),
        "{}",
        r.stderr
    );
    for want in [
        "1456/ 605530",
        "1642/ 625570",
        "2341/ 605545",
        "5240/ 265432",
    ] {
        assert!(r.stderr.contains(want), "{want}: {}", r.stderr);
    }
    // Spacewar! 2B alone: the same words are its own.
    let sw = Path::new(&tapes).join("spacewar2B.rim");
    let r = pdp1(&[
        "--headless",
        sw.to_str().unwrap(),
        "--max-seconds",
        "30",
        "--examine",
        "1456",
        "--examine",
        "5240",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stderr.contains("1456/ 601540"), "{}", r.stderr);
    assert!(r.stderr.contains("5240/ 000000"), "{}", r.stderr);
}

/// Issue 15: tic-tac-toe (tac-13.rim) in one run, moves on the test word as the tapes README
/// says ("set the test word (e.g. 20 = centre), then 0, for each move"):
/// `examples/scripts/tictactoe.pdp1`. The board the program draws is in memory (2 an X, 1 an
/// O): after each move the operator's X is on the square named, and the machine has answered
/// with one O more.
#[test]
fn tic_tac_toe_moves_on_the_test_word_in_one_run() {
    let Some((script, tapes)) = example("tictactoe.pdp1", &["tac-13.rim"]) else {
        return;
    };
    let r = pdp1_in(&["--headless", "--script", &script, "-v"], Some(&tapes));
    assert!(r.ok(), "{}", r.stderr);
    let boards: Vec<Vec<u32>> = r
        .stdout
        .lines()
        .collect::<Vec<_>>()
        .chunks(9)
        .map(|b| {
            b.iter()
                .map(|l| u32::from_str_radix(&l[6..], 8).unwrap())
                .collect()
        })
        .collect();
    let count = |b: &[u32], v: u32| b.iter().filter(|&&w| w == v).count();
    assert_eq!(boards.len(), 2, "{}", r.stdout);
    // Move 1: the centre (test word 20).
    assert_eq!(boards[0][0], 2, "X on the centre square: {}", r.stdout);
    assert_eq!(
        (count(&boards[0], 2), count(&boards[0], 1)),
        (1, 1),
        "{}",
        r.stdout
    );
    // Move 2 (test word 1): a second X, a second O, the first move's marks kept.
    assert_eq!(
        (count(&boards[1], 2), count(&boards[1], 1)),
        (2, 2),
        "{}",
        r.stdout
    );
    for (a, b) in boards[0].iter().zip(&boards[1]) {
        assert!(*a == 0 || a == b, "{}", r.stdout);
    }
    assert!(
        r.stderr.contains("the machine is not running"),
        "{}",
        r.stderr
    );
}
