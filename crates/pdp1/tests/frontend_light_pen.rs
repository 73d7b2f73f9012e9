//! The light pen in the window, under Xvfb: tests/data/light-pen.mac plots (−100, 50) until the
//! pen sees it, then types "hit" and halts with AC=123456. xdotool holds the left mouse button
//! on the scope where that point is drawn (pixel computed with the renderer's mapping at the
//! default window size); a press elsewhere on the scope must not be seen.
//!
//! Needs `xvfb-run` and `xdotool` (`.ci/run` installs them). Without them the test says so on
//! stderr and passes without running.

mod common;
use common::have;
use pdp1_asm::{assemble, tape};
use std::path::Path;
use std::process::Command;

/// Window pixel of Type 30 coordinate v on an axis of a `side`-pixel scope pane (phosphor.rs:
/// the raster's square inside a bezel margin m = side/48 on each side, raster = 512 + v,
/// centre = m + (raster + 0.5)·(side − 2m)/1024 − 0.5; y counts down from the top).
fn pixel(v: i32, side: f64, flip: bool) -> i64 {
    let r = if flip { 1023 - (512 + v) } else { 512 + v };
    let m = (side / 48.0).floor().max(4.0);
    (m + (r as f64 + 0.5) * (side - 2.0 * m) / 1024.0 - 0.5).round() as i64
}

/// Run the pen program in the window with the mouse held at window pixel (x, y) from about a
/// second in; returns the `--registers` line, or None when the tools are missing.
fn run_with_mouse_at(x: i64, y: i64, name: &str) -> Option<String> {
    if !have("xvfb-run") || !have("xdotool") {
        common::not_run(
            "frontend_light_pen: xvfb-run and xdotool are needed (.ci/run installs them)",
        );
        return None;
    }
    let dir = common::scratch(&format!("pen-{name}"));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/light-pen.mac");
    let asm = assemble(&std::fs::read_to_string(src).unwrap(), "light-pen.mac")
        .unwrap_or_else(|e| panic!("{e}"));
    let rim = dir.join("pen.rim");
    std::fs::write(&rim, tape::write_rim(&asm.image())).unwrap();
    // The read-in takes about half a second of emulated (= real) time; the run ends at the
    // halt when the pen sees the point, else at 6 s.
    let script = format!(
        r#"
        "$PDP1" "$TAPE" --max-seconds 6 --registers &
        P=$!
        W=$(xdotool search --sync --name '^PDP-1$' | head -1)
        sleep 1.5
        xdotool mousemove --window "$W" {x} {y} mousedown 1
        sleep 2
        xdotool mouseup 1
        wait $P
    "#
    );
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1400x900x24", "sh", "-c", &script])
        .env("PDP1", env!("CARGO_BIN_EXE_pdp1"))
        .env("TAPE", &rim)
        .output()
        .expect("xvfb-run runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "pdp1 under Xvfb failed: {stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pc="))
        .unwrap_or_else(|| panic!("no registers line: {stderr}"));
    Some(line.to_owned())
}

/// The scope's side at the default 1280×760 window: min(height, width − 66 text columns of 8).
const SIDE: f64 = 752.0;

#[test]
fn mouse_held_on_the_point_is_seen_by_the_pen() {
    let (x, y) = (pixel(-100, SIDE, false), pixel(50, SIDE, true));
    let Some(regs) = run_with_mouse_at(x, y, "hit") else {
        return;
    };
    assert!(regs.contains(" ac=123456 "), "{regs}");
}

#[test]
fn mouse_held_elsewhere_on_the_scope_is_not() {
    let (x, y) = (pixel(100, SIDE, false), pixel(50, SIDE, true));
    let Some(regs) = run_with_mouse_at(x, y, "miss") else {
        return;
    };
    assert!(!regs.contains(" ac=123456 "), "{regs}");
    assert!(regs.contains(" pf=00 "), "flag 3 never set: {regs}");
}
