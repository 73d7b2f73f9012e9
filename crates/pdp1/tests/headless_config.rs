//! `--config FILE.ron`: the same settings as the flags; flags override the file.

mod common;
use common::*;

/// lat; hlt — AC shows the test word.
fn lat_program(d: &std::path::Path) -> String {
    tape(d, "lat.rim", &[(0o100, LAT), (0o101, HLT)], 0o100)
}

fn write(d: &std::path::Path, name: &str, text: &str) -> String {
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn file_settings_apply_and_flags_override_them() {
    let d = scratch("config-override");
    let t = lat_program(&d);
    let c = write(
        &d,
        "m.ron",
        "(tw: \"1234\", ss: [3], max_instructions: 100)",
    );
    let from_file = pdp1(&["--headless", &t, "--config", &c, "--registers"]);
    assert!(from_file.ok(), "{}", from_file.stderr);
    assert_eq!(from_file.registers().ac, 0o1234);
    let overridden = pdp1(&[
        "--headless",
        &t,
        "--config",
        &c,
        "--tw",
        "4321",
        "--registers",
    ]);
    assert_eq!(overridden.registers().ac, 0o4321);
}

#[test]
fn octal_literals_and_limits_from_the_file() {
    let d = scratch("config-limits");
    let t = tape(&d, "loop.rim", &[(0o100, jmp(0o100))], 0o100);
    let c = write(
        &d,
        "m.ron",
        "(tw: 0o777, max_instructions: 500, memory: \"8K\", mdv: true)",
    );
    let a = pdp1(&["--headless", &t, "--config", &c, "--registers"]);
    assert!(a.ok(), "{}", a.stderr);
    let b = pdp1(&[
        "--headless",
        &t,
        "--config",
        &c,
        "--max-instructions",
        "700",
        "--registers",
    ]);
    // The flag's limit wins: 200 more one-cycle jmps.
    assert_eq!(b.registers().cycles - a.registers().cycles, 200);
    // memory 8K from the file: 10000 can be examined.
    let e = pdp1(&["--headless", &t, "--config", &c, "--examine", "17777"]);
    assert!(e.ok(), "{}", e.stderr);
}

#[test]
fn bad_files_name_the_file_and_the_problem() {
    let d = scratch("config-bad");
    let t = lat_program(&d);
    let cases = [
        ("unknown.ron", "(tww: \"1\")", "tww"),
        ("value.ron", "(tw: \"9\")", "tw"),
        ("ss.ron", "(ss: [7])", "sense switch 7"),
        ("memory.ron", "(memory: \"3K\")", "memory"),
        ("syntax.ron", "(tw: ", "syntax.ron"),
        ("type.ron", "(mdv: \"yes\")", ""),
    ];
    for (name, text, needle) in cases {
        let c = write(&d, name, text);
        let r = pdp1(&["--headless", &t, "--config", &c]);
        assert_eq!(r.status, Some(1), "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(name),
            "{name}: the message names the file: {}",
            r.stderr
        );
        if !needle.is_empty() {
            assert!(r.stderr.contains(needle), "{name}: {}", r.stderr);
        }
    }
    let r = pdp1(&["--headless", &t, "--config", "/nonexistent/c.ron"]);
    assert_eq!(r.status, Some(1));
    assert!(r.stderr.contains("/nonexistent/c.ron"), "{}", r.stderr);
}
