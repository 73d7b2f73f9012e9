//! Shared helpers for the cross-crate tests: a seeded PRNG, a SIMH driver, random programs for
//! the differential test, and the comparison of our machine with SIMH.

pub mod aap;
pub mod diff;
pub mod mankalah;
pub mod prng;
pub mod randprog;
pub mod simh;
pub mod transcript;

/// The one `not_run` of the workspace (and `not_run_optional`, for an oracle never required)
/// and its scratch folders (crates/test-support), for the tests here and the SIMH driver.
pub use test_support::{not_run, not_run_optional, scratch, Scratch};
