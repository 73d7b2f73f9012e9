//! Issue 15: the window's sound. Under Xvfb with no sound card and no sound server (as in CI)
//! the window still starts and runs, says in exactly one line on stderr that it runs silent,
//! and the ALSA library prints nothing. With `--mute` it runs too.
//!
//! Needs `xvfb-run` (`.ci/run` installs it); without it the test says so and passes.

mod common;
use common::*;
use std::process::{Command, Stdio};

fn has_sound_card() -> bool {
    std::fs::read_to_string("/proc/asound/cards")
        .is_ok_and(|c| !c.trim().is_empty() && !c.contains("no soundcards"))
}

#[test]
fn the_window_runs_silent_without_a_sound_device() {
    if !have("xvfb-run") {
        not_run("xvfb-run is not installed");
        return;
    }
    let d = scratch("window-sound");
    // stf 2, clf 2, jmp 100: flag 2 toggles (a 66.7 kHz tone nobody hears).
    let t = tape(
        &d,
        "tone.rim",
        &[(0o100, 0o760012), (0o101, 0o760002), (0o102, jmp(0o100))],
        0o100,
    );
    for extra in [None, Some("--mute")] {
        let mut cmd = Command::new("xvfb-run");
        cmd.args(["-a", bin(), &t, "--max-seconds", "0.5", "--registers"]);
        if let Some(e) = extra {
            cmd.arg(e);
        }
        // No sound server either: what a CI machine has.
        cmd.env_remove("PULSE_SERVER")
            .env_remove("XDG_RUNTIME_DIR")
            .stdin(Stdio::null());
        let out = cmd.output().expect("run xvfb-run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{extra:?}: {err}");
        assert!(err.contains("pc="), "the run ended normally: {err}");
        assert!(!err.contains("ALSA lib"), "ALSA kept quiet: {err}");
        if has_sound_card() {
            continue;
        }
        let lines: Vec<&str> = err.lines().filter(|l| l.contains("sound")).collect();
        assert_eq!(
            lines,
            ["pdp1: no sound (no sound card or sound server found); running silent"],
            "{err}"
        );
    }
}
