//! Benchmark, not a test (ignored; run by hand): the window's CPU use at 1× while Kalah waits
//! for a key and while it thinks (issue 17: under 5 % of a core in both, which matters on a
//! Raspberry Pi driving a PiDP-1). Starts `pdp1 roms/kalah.rim` under Xvfb, waits out the
//! 28-second read-in, plays pit 3, then reads the process's user+system ticks from
//! `/proc/PID/stat` over 20 s with the board on the scope, then over 20 s of the machine's
//! depth-8 reply. Prints the figures; asserts nothing about them (a timing belongs here, not in
//! a test).
//!
//! ```text
//! cargo test --release -p pdp1 --test window_cpu -- --ignored --nocapture
//! ```

mod common;
use common::*;
use std::process::Command;

#[test]
#[ignore = "benchmark: about 75 s under Xvfb"]
fn window_cpu_while_kalah_waits_and_thinks() {
    if !have("xvfb-run") || !have("xdotool") {
        not_run("window_cpu: xvfb-run and xdotool are needed (.ci/run installs them)");
        return;
    }
    let kalah = concat!(env!("CARGO_MANIFEST_DIR"), "/../../roms/kalah.rim");
    let script = r#"
        "$PDP1" "$KALAH" --tw 000010 --max-seconds 120 & P=$!
        xdotool search --sync --name '^PDP-1$' >/dev/null 2>&1
        sleep 30
        xdotool search --name '^PDP-1$' windowfocus --sync >/dev/null 2>&1
        xdotool type 3; sleep 3
        t0=$(awk '{print $14+$15}' /proc/$P/stat); sleep 20; t1=$(awk '{print $14+$15}' /proc/$P/stat)
        echo "waiting $((t1-t0))"
        xdotool type ' '; sleep 2
        t0=$(awk '{print $14+$15}' /proc/$P/stat); sleep 20; t1=$(awk '{print $14+$15}' /proc/$P/stat)
        echo "thinking $((t1-t0))"
        kill $P
    "#;
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1400x900x24", "sh", "-c", script])
        .env("PDP1", bin())
        .env("KALAH", kalah)
        .output()
        .expect("xvfb-run runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let ticks = |what: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(what)?.trim().parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no {what} figure: {text}"))
    };
    // Ticks are 1/100 s of CPU over 20 s of wall time: ticks / 20 is the percentage.
    let (w, t) = (ticks("waiting"), ticks("thinking"));
    println!("| Kalah in the window at 1x | CPU over 20 s | share of one core |");
    println!("|---|---|---|");
    println!(
        "| waiting for a key, board on the scope | {:.2} s | {:.1} % |",
        w / 100.0,
        w / 20.0
    );
    println!(
        "| thinking (depth 8, scope dark) | {:.2} s | {:.1} % |",
        t / 100.0,
        t / 20.0
    );
}
