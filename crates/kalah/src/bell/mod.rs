//! Bell's learning Kalah program (being split into modules; see player.rs for now).

mod player;

pub use player::*;
