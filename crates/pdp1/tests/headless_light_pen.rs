//! `--light-pen X,Y` (and `--light-pen-radius`, the RON `light_pen` field, saved states): a
//! small program (tests/data/light-pen.mac, assembled here by pdp1-asm) plots one point at
//! (−100, 50) over and over and watches for the Type 32 light pen; seen, it types "hit" and
//! halts with AC=123456. pdp1-hardware.md §4.5: `dpy` clears status bit 0 (`cks` 400000); when
//! the pen sees the point, bit 0 and program flag 3 are set.

mod common;
use common::*;
use pdp1_asm::{assemble, tape as asm_tape};
use std::path::Path;

/// The test program punched as a RIM tape in `dir`.
fn pen_tape(dir: &Path) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/light-pen.mac");
    let src = std::fs::read_to_string(src).unwrap();
    let asm = assemble(&src, "light-pen.mac").unwrap_or_else(|e| panic!("{e}"));
    let p = dir.join("pen.rim");
    std::fs::write(&p, asm_tape::write_rim(&asm.image())).unwrap();
    p.to_string_lossy().into_owned()
}

fn run_pen(dir: &Path, extra: &[&str]) -> Run {
    let t = pen_tape(dir);
    let mut args = vec!["--headless", &t, "--max-seconds", "2", "--registers"];
    args.extend_from_slice(extra);
    let r = pdp1(&args);
    assert!(r.ok(), "{}", r.stderr);
    r
}

const PF3: u32 = 0o10;

#[test]
fn pen_on_the_point_is_seen() {
    let d = scratch("pen-hit");
    let r = run_pen(&d, &["--light-pen", "-100,50"]);
    let regs = r.registers();
    assert_eq!(regs.ac, 0o123456, "{}", regs.line);
    assert_ne!(regs.pf & PF3, 0, "flag 3 set: {}", regs.line);
    assert_eq!(r.stdout, "hit");
    // Within the default radius of 5 (3-4-5 triangle); `=` form for a negative X.
    let r = run_pen(&d, &["--light-pen=-97,54"]);
    assert_eq!(r.registers().ac, 0o123456);
}

#[test]
fn pen_elsewhere_or_away_sees_nothing() {
    let d = scratch("pen-miss");
    for extra in [
        &[][..],
        &["--light-pen", "100,50"][..],
        &["--light-pen", "-94,50"][..],
        &["--light-pen", "-100,-50"][..],
    ] {
        let r = run_pen(&d, extra);
        let regs = r.registers();
        // Still plotting when the two seconds (read-in included) ran out.
        assert!(
            (0o101..=0o110).contains(&regs.pc),
            "{extra:?}: {}",
            regs.line
        );
        assert_ne!(regs.ac, 0o123456, "{extra:?}: {}", regs.line);
        assert_eq!(regs.pf & PF3, 0, "{extra:?}: {}", regs.line);
        assert_eq!(r.stdout, "", "{extra:?}");
    }
}

#[test]
fn radius_option_and_config_file() {
    let d = scratch("pen-radius");
    // 6 steps away: outside the default radius, inside radius 6.
    let r = run_pen(&d, &["--light-pen", "-94,50", "--light-pen-radius", "6"]);
    assert_eq!(r.registers().ac, 0o123456);
    let cfg = d.join("pen.ron");
    std::fs::write(&cfg, "(light_pen: (-100, 50))").unwrap();
    let cfg = cfg.to_string_lossy().into_owned();
    let r = run_pen(&d, &["--config", &cfg]);
    assert_eq!(r.registers().ac, 0o123456);
    // The command line overrides the file.
    let r = run_pen(&d, &["--config", &cfg, "--light-pen", "0,0"]);
    assert_ne!(r.registers().ac, 0o123456);
}

#[test]
fn bad_positions_are_refused_before_running() {
    let d = scratch("pen-bad");
    let t = pen_tape(&d);
    for bad in ["512,0", "1", "x,2", "0,-600"] {
        let r = pdp1(&["--headless", &t, &format!("--light-pen={bad}")]);
        assert_eq!(r.status, Some(1), "{bad}: {}", r.stderr);
        assert!(r.stderr.contains("--light-pen"), "{bad}: {}", r.stderr);
        assert_eq!(r.stdout, "");
    }
}

#[test]
fn pen_is_saved_with_the_state_and_old_states_load_without_it() {
    let d = scratch("pen-state");
    let t = pen_tape(&d);
    let s = d.join("s.ron").to_string_lossy().into_owned();
    // Stop after the read-in and two instructions, before the first `dpy`.
    let r = pdp1(&[
        "--headless",
        &t,
        "--light-pen",
        "-100,50",
        "--max-instructions",
        "2",
        "--save-state",
        &s,
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let text = std::fs::read_to_string(&s).unwrap();
    assert!(text.contains("light_pen: Some((-100, 50))"), "{text}");
    // Restored, the pen is still there.
    let r = pdp1(&[
        "--headless",
        "--load-state",
        &s,
        "--registers",
        "--max-seconds",
        "2",
    ]);
    assert_eq!(r.registers().ac, 0o123456, "{}", r.stderr);
    // A state written before the pen existed has no pen fields: it loads, pen away.
    let old: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("light_pen"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(old, text);
    let o = d.join("old.ron");
    std::fs::write(&o, old).unwrap();
    let o = o.to_string_lossy().into_owned();
    let r = pdp1(&[
        "--headless",
        "--load-state",
        &o,
        "--registers",
        "--max-seconds",
        "2",
    ]);
    assert_ne!(r.registers().ac, 0o123456, "{}", r.stderr);
    // … and the option points the pen on a restored machine.
    let r = pdp1(&[
        "--headless",
        "--load-state",
        &o,
        "--light-pen",
        "-100,50",
        "--registers",
        "--max-seconds",
        "2",
    ]);
    assert_eq!(r.registers().ac, 0o123456, "{}", r.stderr);
}
