//! `--save-state` / `--load-state`: a run that is saved and restored continues bit-identically
//! to one that was not; a corrupt or incompatible state file is an error that changes nothing.

mod common;
use common::*;
use std::path::Path;

/// A loop that computes and types: 100 lac 200; add 201; dac 200; idx 201; lio 200;
/// tyo (with wait: 100 ms per character); jmp 100. Its state lives in AC, IO, memory, the
/// typewriter's timing and emulated time — all of which must survive a save.
fn busy_program(d: &Path) -> String {
    let prog = [
        (0o100, lac(0o200)),
        (0o101, add(0o201)),
        (0o102, dac(0o200)),
        (0o103, idx(0o201)),
        (0o104, lio(0o200)),
        (0o105, 0o730003),
        (0o106, jmp(0o100)),
        (0o201, 1),
    ];
    tape(d, "busy.rim", &prog, 0o100)
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Run `total` instructions straight, and `first` + rest with a save/restore in between; the
/// two must agree in registers, memory, cycles and typed output.
fn split_run_agrees(boot: &[&str], total: u64, first: u64, dir: &Path) {
    let st = dir.join("mid.ron");
    let dump = ["--registers", "--examine", "0-7777"];
    let mut whole = boot.to_vec();
    let total_s = total.to_string();
    whole.extend(["--max-instructions", &total_s]);
    whole.extend(dump);
    let a = pdp1(&whole);
    assert!(a.ok(), "{}", a.stderr);

    let mut part1 = boot.to_vec();
    let first_s = first.to_string();
    let st_s = s(&st);
    part1.extend(["--max-instructions", &first_s, "--save-state", &st_s]);
    let b = pdp1(&part1);
    assert!(b.ok(), "{}", b.stderr);

    let rest_s = (total - first).to_string();
    let mut part2 = vec![
        "--headless",
        "--load-state",
        &st_s,
        "--max-instructions",
        &rest_s,
    ];
    part2.extend(dump);
    let c = pdp1(&part2);
    assert!(c.ok(), "{}", c.stderr);

    assert_eq!(c.registers(), a.registers());
    assert!(a.stderr == c.stderr, "memory differs after restore");
    assert_eq!(format!("{}{}", b.stdout, c.stdout), a.stdout);
}

#[test]
fn saved_and_restored_run_continues_bit_identically() {
    let d = scratch("state-busy");
    let t = busy_program(&d);
    split_run_agrees(&["--headless", &t], 700, 303, &d);
}

#[test]
fn state_file_round_trips_unchanged() {
    let d = scratch("state-roundtrip");
    let t = busy_program(&d);
    let one = d.join("one.ron");
    let two = d.join("two.ron");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-instructions",
        "50",
        "--save-state",
        &s(&one),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let r = pdp1(&[
        "--headless",
        "--load-state",
        &s(&one),
        "--max-instructions",
        "0",
        "--save-state",
        &s(&two),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&one).unwrap(),
        std::fs::read_to_string(&two).unwrap()
    );
}

#[test]
fn ddt_session_continues_after_restore() {
    let Some(ddt) = shared_tape("ddt.rim") else {
        return;
    };
    let d = scratch("state-ddt");
    let st = d.join("ddt.ron");
    let r = pdp1(&[
        "--headless",
        &ddt,
        "--type",
        "100/ 1234\\r",
        "--save-state",
        &s(&st),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    // DDT in the restored machine remembers the deposit (SIMH: `100/` then shows 1234).
    let r = pdp1(&["--headless", "--load-state", &s(&st), "--type", "100/"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.stdout, "100/\t1234\t");
}

#[test]
fn spacewar_continues_bit_identically() {
    let Some(sw) = shared_tape("spacewar3.1.rim") else {
        return;
    };
    let d = scratch("state-spacewar");
    split_run_agrees(&["--headless", &sw], 400_000, 123_457, &d);
}

/// `text` with the first `name: <number>` field set to `value`.
fn set_field(text: &str, name: &str, value: &str) -> String {
    let key = format!("\n{}{name}: ", " ".repeat(8));
    let start = text.find(&key).unwrap_or_else(|| panic!("no field {name}")) + key.len();
    let end = start + text[start..].find(',').unwrap();
    format!("{}{value}{}", &text[..start], &text[end..])
}

#[test]
fn corrupt_or_incompatible_state_changes_nothing() {
    let d = scratch("state-bad");
    let t = busy_program(&d);
    let good = d.join("good.ron");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-instructions",
        "20",
        "--save-state",
        &s(&good),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let text = std::fs::read_to_string(&good).unwrap();

    let out_state = d.join("out.ron");
    std::fs::write(&out_state, "previous contents").unwrap();
    let punch = d.join("out.pt");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "truncated.ron",
            text[..text.len() / 2].to_owned(),
            "truncated.ron",
        ),
        (
            "version.ron",
            text.replacen("version: 2", "version: 99", 1),
            "incompatible",
        ),
        (
            "format.ron",
            text.replacen("pdp1-state", "something-else", 1),
            "not a pdp1 machine state",
        ),
        ("garbage.ron", "\u{0}\u{1}garbage".to_owned(), "garbage.ron"),
        ("empty.ron", String::new(), "empty.ron"),
        (
            "memory.ron",
            text.replacen("memory_words: 4096", "memory_words: 8192", 1),
            "memory",
        ),
        // A damaged clock would overflow the core's time arithmetic.
        (
            "clock.ron",
            set_field(&text, "cycles", "18446744073709551615"),
            "clock",
        ),
        ("word.ron", set_field(&text, "ac", "262144"), "18 bits"),
        (
            "memory-word.ron",
            text.replacen("words: [", "words: [262144, ", 1),
            "18 bits",
        ),
    ];
    for (name, body, needle) in cases {
        let p = d.join(name);
        std::fs::write(&p, body).unwrap();
        let r = pdp1(&[
            "--headless",
            "--load-state",
            &s(&p),
            "--save-state",
            &s(&out_state),
            "--punch",
            &s(&punch),
        ]);
        assert_eq!(r.status, Some(1), "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(needle),
            "{name}: expected {needle:?} in {}",
            r.stderr
        );
        assert!(
            r.stderr.contains(name),
            "{name}: the message names the file: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read_to_string(&out_state).unwrap(),
            "previous contents",
            "{name}"
        );
        assert!(!punch.exists(), "{name}: nothing written");
    }
    // A good state with a conflicting memory option.
    let r = pdp1(&["--headless", "--load-state", &s(&good), "--memory", "8K"]);
    assert_eq!(r.status, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("4K"), "{}", r.stderr);
    // A TAPE and a state together are ambiguous.
    let r = pdp1(&["--headless", &t, "--load-state", &s(&good)]);
    assert_eq!(r.status, Some(1), "{}", r.stderr);
}

/// A state saved by the pdp1 of state format version 1 (which kept the devices among the
/// machine's fields; `tests/data/state-v1.ron`, `frontend-demo.rim` after 1.5 s, saved by
/// that version) is read: restored and run 0.5 s more it is the same machine, field for field,
/// as a fresh run of the tape for 2 s, saved by this version.
#[test]
fn a_version_1_state_is_read_and_continues_as_a_fresh_run() {
    let d = scratch("state-v1");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let v1 = data.join("state-v1.ron");
    let v1_text = std::fs::read_to_string(&v1).unwrap();
    assert!(v1_text.contains("version: 1,") && v1_text.contains("\n        tty: ("));
    let (a, b) = (d.join("restored.ron"), d.join("fresh.ron"));
    let r = pdp1(&[
        "--headless",
        "--load-state",
        &s(&v1),
        "--max-seconds",
        "0.5",
        "--save-state",
        &s(&a),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let demo = data.join("frontend-demo.rim");
    // The machine that version ran unknown tapes on (the default since issue 27 has the
    // Type 10).
    let r = pdp1(&[
        "--headless",
        "--profile",
        "pdp1c",
        &s(&demo),
        "--max-seconds",
        "2",
        "--save-state",
        &s(&b),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let (a, b) = (
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap(),
    );
    assert!(a.contains("version: 2,") && a.contains("dev: ("), "{a}");
    assert!(
        a == b,
        "restored from version 1 and run on: differs from a fresh run"
    );

    // A version 1 file keeps its checks: a reader beyond its tape, a damaged layout.
    let pos = v1_text.find("pos: ").unwrap() + 5;
    let end = pos + v1_text[pos..].find(',').unwrap();
    let cases = [
        (
            "v1-pos.ron",
            format!("{}999999{}", &v1_text[..pos], &v1_text[end..]),
            "beyond the end of its tape",
        ),
        (
            "v1-layout.ron",
            v1_text.replacen("        tty: (", "        tty (", 1),
            "v1-layout.ron",
        ),
    ];
    for (name, body, needle) in cases {
        let p = d.join(name);
        std::fs::write(&p, body).unwrap();
        let r = pdp1(&["--headless", "--load-state", &s(&p)]);
        assert_eq!(r.status, Some(1), "{name}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{name}: {}", r.stderr);
    }
}
