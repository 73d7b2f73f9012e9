//! A test whose oracle is missing (SIMH, `../shared/tapes`, Xvfb) passes as "not run" on a
//! developer's machine, but fails where `PDP1_REQUIRE_ORACLES` is set, as `.ci/run` sets it
//! (issue 18: in CI a missing oracle must fail). Checked by running this test binary's own
//! `child` test in a subprocess, once with the variable and once without.
use std::process::Command;

/// Does nothing unless started by `missing_oracle_fails_only_where_required` below.
#[test]
fn child() {
    match std::env::var("PDP1_ORACLE_POLICY_CHILD").as_deref() {
        Ok("optional") => {
            test_support::not_run_optional("this optional oracle is missing on purpose")
        }
        Ok(_) => test_support::not_run("the oracle of this check is missing on purpose"),
        Err(_) => {}
    }
}

fn run_child(require: bool) -> (bool, String) {
    run_child_with(require, "1")
}

fn run_child_with(require: bool, oracle: &str) -> (bool, String) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--nocapture", "--test-threads", "1"])
        .env("PDP1_ORACLE_POLICY_CHILD", oracle)
        .env_remove("PDP1_REQUIRE_ORACLES");
    if require {
        cmd.env("PDP1_REQUIRE_ORACLES", "1");
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn missing_oracle_fails_only_where_required() {
    let (ok, text) = run_child(false);
    assert!(ok, "without PDP1_REQUIRE_ORACLES the test passes: {text}");
    assert!(
        text.contains("NOT RUN: the oracle of this check is missing"),
        "{text}"
    );
    let (ok, text) = run_child(true);
    assert!(!ok, "with PDP1_REQUIRE_ORACLES the test fails: {text}");
    assert!(text.contains("a missing oracle is a failure"), "{text}");
}

/// An optional oracle (MAINDEC's sources, which CI cannot have) is "not run" and passes also
/// where `PDP1_REQUIRE_ORACLES` is set.
#[test]
fn a_missing_optional_oracle_is_never_a_failure() {
    for require in [false, true] {
        let (ok, text) = run_child_with(require, "optional");
        assert!(ok, "require={require}: {text}");
        assert!(
            text.contains("NOT RUN: this optional oracle is missing on purpose"),
            "{text}"
        );
    }
}
