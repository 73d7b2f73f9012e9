//! # pdp1-core — the DEC PDP-1C as a pure, deterministic machine
//!
//! Data flows one way: tape bytes, key strokes and switch settings go in through this API;
//! typewriter characters, display points and punched bytes come out through buffers the host
//! drains. There are no files, clocks, threads or randomness in this crate: emulated time is an
//! explicit count of nanoseconds that advances only as the machine runs.
//!
//! Bit numbering follows DEC: bit 0 is the most significant (sign) bit, bit 17 the least.
//! Octal everywhere.
//!
//! * [`word`] — the 18-bit [`Word`].
//! * [`arith`] — one's-complement `add`/`sub`/`idx` with the exact −0 rules.
//! * [`fiodec`] — the FIO-DEC typewriter/tape code.
//! * [`sound`] — the program flags' change stream as 16-bit samples (flags 1–4 by default).
//! * [`machine`] — the [`Machine`]: CPU (`machine/cpu.rs`, instruction formats and timing in its
//!   docs), in-out transfers and devices (`machine/io.rs`), READ IN (`machine/readin.rs`),
//!   console and run control.
//!
//! Timing: every 5 µs memory cycle is charged where it happens (fetch, defer, execute), so
//! the handbook's instruction times follow from the code; devices run on emulated time
//! (typewriter 105–205 ms per character, reader 400 lines/s, punch 63 lines/s, display 50 µs
//! per waiting point: its completion pulse 39 µs after the `dpy`, as in aap's model).

// Source tags like [HB] and [SIMH-cpu] (pdp1-hardware.md) are not intra-doc links.
#![allow(rustdoc::broken_intra_doc_links)]

pub mod arith;
pub mod fiodec;
pub mod machine;
pub mod sound;
pub mod word;

pub use machine::{
    DisplayPoint, FlagChange, Limit, Machine, MachineConfig, MachineError, StopReason, TypeEvent,
    NO_CHAIN_LIMIT,
};
pub use word::Word;

/// Nanoseconds in one 5 µs memory cycle (PDP-1 Handbook: "the read-rewrite time of the memory
/// is five microseconds").
pub const CYCLE_NS: u64 = 5_000;
