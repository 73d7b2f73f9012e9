//! Shared helpers for the cross-crate tests: a seeded PRNG, a SIMH driver, random programs for
//! the differential test, and the comparison of our machine with SIMH.

pub mod diff;
pub mod prng;
pub mod randprog;
pub mod simh;
pub mod transcript;
