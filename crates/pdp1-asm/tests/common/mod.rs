//! Helpers shared by pdp1-asm's tests.

/// The one `not_run` of the workspace (crates/test-support).
#[allow(unused_imports)] // not every test binary has an oracle
pub use test_support::not_run;
