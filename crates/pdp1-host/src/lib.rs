//! What every host of the PDP-1 needs besides its own input and output (issue 25): the run
//! controller ([`run`], the one way into the machine), operator scripts ([`script`]), the
//! set-up ([`setup`]) and its settings ([`config`]), saved states ([`state`]), tape feeding
//! ([`tape`]), the typist ([`keyboard`]), the known tapes ([`library`]), real-time pacing ([`pacing`]), trace lines
//! ([`trace`]), typed text ([`typeout`]) and the picture of scope, paper and console
//! ([`draw`]).
//!
//! No window, file system, clock, thread or command line: the library takes bytes, text and
//! emulated time, and hands back values — a file's bytes for the host to write, lines for it
//! to print. The hosts (the `pdp1` binary's window, headless runner and ManKalah agent; a web
//! page later) are siblings over it. Errors are [`error::Error`], one message each.

pub mod config;
pub mod debug;
pub mod draw;
pub mod error;
pub mod keyboard;
pub mod kiosk;
pub mod library;
pub mod pacing;
pub mod run;
pub mod script;
pub mod setup;
pub mod state;
pub mod tape;
pub mod trace;
pub mod typeout;

/// The tests' plain display point: on the first display at (x, 0), intensity 3, made at
/// emulated time `t_ns`.
#[cfg(test)]
pub(crate) fn test_point(x: i16, t_ns: u64) -> pdp1_core::DisplayPoint {
    pdp1_core::DisplayPoint {
        x,
        y: 0,
        x_minus_zero: false,
        y_minus_zero: false,
        intensity: 3,
        scope: 0,
        time_ns: t_ns,
    }
}
