//! # kalah — the reference Kalah engine (the oracle for the PDP-1 program)
//!
//! Rules, the DEC application note's value definition, α-β with Russell's move ordering, node
//! counting, perft counts and an exhaustive solver, written plainly. The PDP-1 program in
//! `roms/kalah.mac` implements the same algorithm; the tests in `tests/tests/kalah_*.rs` compare
//! them position by position and node count by node count.

pub mod board;
pub mod order;
pub mod perft;
pub mod russell;
pub mod search;
pub mod solve;

pub use board::{Board, MoveError, MoveResult, Side};
pub use order::{static_order, table_depth, DepthEntry, RUSSELL_TABLE};
pub use search::{choose, minimax, move_values, SearchResult, Settings, INF};
