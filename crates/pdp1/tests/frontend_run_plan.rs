//! The window runs what a headless run would (issue 18): the RON file's limits, limits counted
//! from the start of the run (also after `--load-state`), `--continue-halts`/`--halt-tw` and
//! `--reader`. Each case runs `pdp1 TAPE ARGS…` in a window under Xvfb as a scripted run
//! (it ends at its limit or when the machine stops) and reads `--registers`/`--examine` from
//! stderr. Needs `xvfb-run` (`.ci/run` installs it).

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

/// Run the window on `tape` (none if empty) with `args`; returns stderr (None when Xvfb is
/// missing).
fn window(tape: &str, args: &[&str]) -> Option<String> {
    window_typing(tape, args, None)
}

/// As [`window`], and once the window is up, `keys` typed into it with xdotool.
fn window_typing(tape: &str, args: &[&str], keys: Option<&str>) -> Option<String> {
    if !have("xvfb-run") || (keys.is_some() && !have("xdotool")) {
        not_run("frontend_run_plan: xvfb-run and xdotool are needed (.ci/run installs them)");
        return None;
    }
    // "$@" is pdp1's command line; the keys wait for the window and half a second.
    let script = match keys {
        None => r#""$PDP1" "$@""#.to_string(),
        Some(_) => r#"
            "$PDP1" "$@" &
            P=$!
            xdotool search --sync --name '^PDP-1$' windowfocus --sync >/dev/null 2>&1
            sleep 0.5
            xdotool type --delay 50 "$KEYS"
            wait $P
        "#
        .to_string(),
    };
    let mut cmd = Command::new("xvfb-run");
    cmd.args([
        "-a",
        "-s",
        "-screen 0 1400x900x24",
        "sh",
        "-c",
        &script,
        "sh",
    ])
    .args((!tape.is_empty()).then_some(tape))
    .args(args)
    .env("PDP1", bin())
    .env("KEYS", keys.unwrap_or(""))
    .stdin(std::process::Stdio::null());
    let out = cmd.output().expect("xvfb-run runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "pdp1 in a window failed: {}\n{stderr}",
        out.status
    );
    Some(stderr)
}

/// The `--registers` line in `stderr`, parsed.
fn regs(stderr: &str) -> Registers {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pc="))
        .unwrap_or_else(|| panic!("no registers line: {stderr}"));
    Registers::parse(line)
}

/// `--examine A` output `AAAA/ WWWWWW` for the one address.
fn examined(stderr: &str, addr: u32) -> u32 {
    let key = format!("{addr:04o}/ ");
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&key))
        .unwrap_or_else(|| panic!("no examine line for {addr:o}: {stderr}"));
    u32::from_str_radix(line[key.len()..].trim(), 8).unwrap()
}

/// 100: idx 200 / 101: jmp 100 — two instructions per count in 200.
fn counting_loop(d: &Path) -> String {
    tape(
        d,
        "count.rim",
        &[(0o100, idx(0o200)), (0o101, jmp(0o100))],
        0o100,
    )
}

#[test]
fn continue_halts_and_halt_test_words_in_the_window() {
    // 100: lat / 101: hlt / 102: lat / 103: hlt — AC shows the test word at each halt.
    let d = scratch("window-halts");
    let t = tape(
        &d,
        "halts.rim",
        &[(0o100, LAT), (0o101, HLT), (0o102, LAT), (0o103, HLT)],
        0o100,
    );
    let args = [
        "--tw",
        "1",
        "--continue-halts",
        "1",
        "--halt-tw",
        "2",
        "--max-seconds",
        "5",
        "--registers",
    ];
    let Some(err) = window(&t, &args) else {
        return;
    };
    let r = regs(&err);
    assert_eq!((r.pc, r.ac), (0o104, 2), "{err}");
}

#[test]
fn the_window_runs_an_operators_script() {
    // headless_script.rs's accumulate program and script: each pass adds the test word to
    // 200 and halts; the script sets the test word, CONTINUEs and STARTs at 100.
    let d = scratch("window-script");
    let t = tape(
        &d,
        "acc.rim",
        &[
            (0o100, LAT),
            (0o101, add(0o200)),
            (0o102, dac(0o200)),
            (0o103, HLT),
            (0o104, jmp(0o100)),
        ],
        0o100,
    );
    let s = d.join("acc.pdp1");
    std::fs::write(
        &s,
        "wait halt\ntw 5\ncontinue\nwait halt\ntw 7\nstart 100\nwait halt\n",
    )
    .unwrap();
    let args = [
        "--script",
        s.to_str().unwrap(),
        "--max-seconds",
        "30",
        "--registers",
        "--examine",
        "200",
    ];
    let Some(err) = window(&t, &args) else {
        return;
    };
    // 0 + 5 + 7, and the run ended at the last halt (not at the 30 s limit).
    assert_eq!(examined(&err, 0o200), 0o14, "{err}");
    assert_eq!(regs(&err).pc, 0o104, "{err}");
}

#[test]
fn the_ron_files_instruction_limit_ends_a_window_run() {
    let d = scratch("window-ron");
    let t = counting_loop(&d);
    let cfg = d.join("m.ron");
    std::fs::write(&cfg, "(max_instructions: 1000)\n").unwrap();
    let args = ["--config", cfg.to_str().unwrap(), "--examine", "200"];
    let Some(err) = window(&t, &args) else {
        return;
    };
    assert_eq!(examined(&err, 0o200), 500, "{err}");
}

#[test]
fn window_limits_count_from_a_restored_state() {
    let d = scratch("window-restored");
    let t = counting_loop(&d);
    let st = d.join("mid.ron");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-instructions",
        "1000",
        "--save-state",
        st.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let args = [
        "--load-state",
        st.to_str().unwrap(),
        "--max-instructions",
        "100",
        "--examine",
        "200",
    ];
    let Some(err) = window("", &args) else {
        return;
    };
    assert_eq!(examined(&err, 0o200), 550, "{err}");
}

#[test]
fn reader_tape_in_the_window() {
    // 100: rpb (read a binary word, waiting) / 101: hlt. --reader holds the word 123456.
    let d = scratch("window-reader");
    let t = tape(&d, "rpb.rim", &[(0o100, 0o730002), (0o101, HLT)], 0o100);
    let second = d.join("word.pt");
    std::fs::write(&second, [0o200 | 0o12, 0o200 | 0o34, 0o200 | 0o56]).unwrap();
    let args = [
        "--reader",
        second.to_str().unwrap(),
        "--max-seconds",
        "5",
        "--registers",
    ];
    let Some(err) = window(&t, &args) else {
        return;
    };
    let r = regs(&err);
    assert_eq!((r.pc, r.io), (0o102, 0o123456), "{err}");
}

#[test]
fn type_keys_in_the_window_as_headless() {
    // 100: szf i 1 (a key struck?) / 101: jmp 100 / 102: tyi / 103: hlt. `--type a` strikes
    // the key by the headless typist's rules (the run controller's typist), in the window too.
    let d = scratch("window-type");
    let t = tape(
        &d,
        "tyi.rim",
        &[
            (0o100, 0o650001),
            (0o101, jmp(0o100)),
            (0o102, 0o720004),
            (0o103, HLT),
        ],
        0o100,
    );
    let args = ["--type", "a", "--max-seconds", "5", "--registers"];
    let Some(err) = window(&t, &args) else {
        return;
    };
    let headless = pdp1(&["--headless", &t, "--type", "a", "--registers"]);
    let (w, h) = (regs(&err), headless.registers());
    assert_eq!((w.pc, w.io), (0o104, 0o61), "{err}");
    assert_eq!((h.pc, h.io), (0o104, 0o61), "{}", headless.stderr);
}

#[test]
fn keys_typed_while_the_tape_loads_are_not_struck() {
    // A RIM tape with 10 s of blank leader before 100: szf i 1 / 101: jmp 100 / 102: tyi /
    // 103: hlt. A key typed in the window 1 s into the load must not reach the program once it
    // runs (issue 17: keys struck during Kalah's load became moves): it still waits at the end.
    let d = scratch("window-load-keys");
    let mut frames = vec![0u8; 4000];
    let body = rim(
        &[
            (0o100, 0o650001),
            (0o101, jmp(0o100)),
            (0o102, 0o720004),
            (0o103, HLT),
        ],
        0o100,
    );
    frames.extend(body);
    let t = d.join("slow.rim");
    std::fs::write(&t, frames).unwrap();
    let args = ["--speed", "4", "--max-seconds", "13", "--registers"];
    let Some(err) = window_typing(t.to_str().unwrap(), &args, Some("a")) else {
        return;
    };
    let r = regs(&err);
    assert!(
        r.pc == 0o100 || r.pc == 0o101,
        "the program still waits for a key: {err}"
    );
}

#[test]
fn window_trace_file_is_the_headless_one() {
    // The window's `--trace` is written by the run controller's tracer, line for line what a
    // headless run writes. 100: law 1234 / 101: dac 200 / 102: hlt.
    let d = scratch("window-trace");
    let t = tape(
        &d,
        "p.rim",
        &[(0o100, law(0o1234)), (0o101, dac(0o200)), (0o102, HLT)],
        0o100,
    );
    let (tw, th) = (d.join("window.txt"), d.join("headless.txt"));
    let args = ["--trace", tw.to_str().unwrap(), "--max-seconds", "5"];
    let Some(_) = window(&t, &args) else {
        return;
    };
    let r = pdp1(&["--headless", &t, "--trace", th.to_str().unwrap()]);
    assert!(r.ok(), "{}", r.stderr);
    let (w, h) = (
        std::fs::read_to_string(&tw).unwrap(),
        std::fs::read_to_string(&th).unwrap(),
    );
    assert_eq!(h.lines().count(), 3, "{h}");
    assert_eq!(w, h);
}
