//! Without a display the window cannot open: `pdp1` must say so, point to `--headless`, and exit
//! with status 1 — never panic.

use std::process::Command;

fn tape() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/frontend-demo.rim")
}

fn check(out: std::process::Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("--headless"), "suggests --headless: {err}");
    assert!(!err.contains("panicked"), "no panic: {err}");
}

#[test]
fn no_display_variables() {
    let out = Command::new(env!("CARGO_BIN_EXE_pdp1"))
        .arg(tape())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    check(out);
}

#[test]
fn display_that_does_not_exist() {
    let out = Command::new(env!("CARGO_BIN_EXE_pdp1"))
        .arg(tape())
        .env("DISPLAY", ":987")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains(":987"), "names the display: {err}");
    check(out);
}
