//! # kalah — the reference Kalah engine (the oracle for the PDP-1 program)
//!
//! Rules, value functions, one α-β search skeleton with its parameters, node counting, perft
//! counts and an exhaustive solver, written plainly. The PDP-1 program in `roms/kalah.mac`
//! implements the same algorithm; the tests in `tests/tests/kalah_*.rs` compare them position by
//! position and node count by node count.
//!
//! * [`board`]: the board for any number of pits per side ([`Board`] six, [`Board7`] seven) and
//!   the rules that vary ([`Rules`]: capture rule, pie rule).
//! * [`value`]: value functions ([`Evaluate`]): the DEC utility, Russell's end-game check and
//!   evaluator.
//! * [`order`]: static orders, postponable moves, the short look's depth ([`Order`]).
//! * [`search`]: the α-β skeleton ([`Config`], [`search::search`]) and the DEC game as its
//!   configuration ([`Settings`], [`choose`]).
//! * [`russell`]: Russell's analysis program as its configuration (the option register,
//!   [`russell::Analysis`]) and his printouts.
//! * [`bell`]: Bell's learning program ("Kalah on Atlas", 1968) as its configuration: the
//!   3-ply look-ahead, the memory of won and lost positions, back-track analysis,
//!   characteristics and parameters.
//! * [`mankalah`]: the 7×7 pie-rule game of the Manchester tournaments: its rules (South's
//!   first move, the swap), the engine protocol's messages, its search as a configuration of
//!   the skeleton ([`mankalah::config`]) and the reference engine's action ([`mankalah::choose_with`]):
//!   the oracle for `roms/kalah7.mac`.

pub mod bell;
pub mod board;
pub mod mankalah;
pub mod order;
pub mod perft;
pub mod russell;
pub mod search;
pub mod solve;
pub mod value;
pub mod word18;

pub use board::{Board, Board7, Capture, MoveError, MoveResult, Rules, Side};
pub use order::{static_order, table_depth, DepthEntry, Order, RUSSELL_TABLE};
pub use search::{
    choose, minimax, move_values, Config, Levels, Report, SearchResult, Settings, INF,
};
pub use value::{Evaluate, Valuation};
