//! # pdp1-core — the DEC PDP-1C as a pure, deterministic machine
//!
//! Data flows one way: tape bytes, key strokes and switch settings go in through this API;
//! typewriter characters, display points and punched bytes come out through buffers the host
//! drains. There are no files, clocks, threads or randomness in this crate: emulated time is an
//! explicit count of nanoseconds that advances only as the machine runs.
//!
//! Bit numbering follows DEC: bit 0 is the most significant (sign) bit, bit 17 the least.
//! Octal everywhere.

pub mod arith;
pub mod fiodec;
pub mod machine;
pub mod word;

pub use machine::{
    DisplayPoint, Limit, Machine, MachineConfig, MachineError, StopReason, TypeEvent,
};
pub use word::Word;

/// Nanoseconds in one 5 µs memory cycle (PDP-1 Handbook: "the read-rewrite time of the memory
/// is five microseconds").
pub const CYCLE_NS: u64 = 5_000;
