//! What every test crate of the workspace shares, in one place (issue 25: `not_run` was copied
//! into four test helpers, and the scratch folders were named by process id and tape, so two
//! tests of one run read each other's saved state).
//!
//! * [`not_run`]: a test whose oracle (SIMH, `../shared/tapes`, Xvfb) is missing says so and
//!   passes — except where `PDP1_REQUIRE_ORACLES` is set, as `.ci/run` sets it (issue 18).
//!   [`not_run_optional`]: the same for an oracle CI can never have, which that variable does
//!   not require (issue 30: DEC's MAINDEC sources).
//! * [`scratch`]: a fresh folder that belongs to one test alone and is deleted when the test
//!   ends, passed or failed.
//!
//! It depends on no crate of the workspace, so that every test crate — pdp1-core's own tests
//! included — can depend on it without a circle.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A test whose oracle (SIMH, the shared tapes, Xvfb) is missing says so and passes without
/// running — except where `PDP1_REQUIRE_ORACLES` is set, as `.ci/run` sets it: there a missing
/// oracle fails the test (issue 18). The notice goes to stderr and stdout, so that it shows
/// both in a failing test's captured output and with `--nocapture`.
pub fn not_run(why: &str) {
    let msg = format!("NOT RUN: {why}");
    if std::env::var_os("PDP1_REQUIRE_ORACLES").is_some() {
        panic!("{msg} (PDP1_REQUIRE_ORACLES is set: a missing oracle is a failure)");
    }
    eprintln!("{msg}");
    println!("{msg}");
}

/// A test whose oracle is optional — one that CI never has, so that `PDP1_REQUIRE_ORACLES`
/// does not require it: DEC's diagnostics (MAINDEC), whose sources are not in this repository
/// and are read from `MAINDEC_SRC` where a developer has fetched them (docs/testing.md, "DEC's
/// diagnostics (MAINDEC)"). Says NOT RUN, as [`not_run`] does, and passes with or without the
/// variable.
pub fn not_run_optional(why: &str) {
    let msg = format!("NOT RUN: {why} (an optional oracle, never required)");
    eprintln!("{msg}");
    println!("{msg}");
}

/// A folder of one test's own, under the system's temporary folder, removed with everything in
/// it when this value is dropped — at the end of the test, and also when the test panics (the
/// unwinding drops it). Dereferences to its [`Path`], so `d.join("x")` and `&d` work where a
/// path is wanted.
///
/// Keep it in a variable for as long as the test uses the folder: `scratch("x").join("f")`
/// deletes the folder at the end of that statement.
#[derive(Debug)]
pub struct Scratch(tempfile::TempDir);

/// A fresh [`Scratch`] folder named `pdp1-NAME-` and a random suffix. The name is only for a
/// person looking into the temporary folder; the suffix makes it unique across the threads of
/// one test binary, across test binaries and across runs (tempfile creates it with
/// `O_EXCL`-style exclusive creation and tries another name if one exists), so two tests can
/// never share it, even when they pass the same name.
pub fn scratch(name: &str) -> Scratch {
    let prefix: String = format!("pdp1-{name}-")
        .chars()
        .map(|c| if c == '/' || c == '\\' { '_' } else { c })
        .collect();
    Scratch(
        tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot create a scratch folder {prefix}…: {e}")),
    )
}

impl Scratch {
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Keep the folder after the test (for looking at what a run wrote, e.g. SIMH's command
    /// files with `SIMH_KEEP_SCRIPTS`); returns its path.
    pub fn keep(self) -> PathBuf {
        self.0.keep()
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}
