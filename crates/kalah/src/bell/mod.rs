//! Bell's learning Kalah program: A. G. Bell, "Kalah on Atlas", *Machine Intelligence 3*
//! (1968). A program that "reacted to the user ... by refusing to be beaten twice in the same
//! way": a 1½-move (3-ply) look-ahead with the evaluation Mk − Pk, and a memory of won and lost
//! positions built by back-track analysis after every loss, kept small by characteristics and
//! parameters. docs/bell.md gives every reading of the paper this module rests on.
//!
//! * `notation`: sides and notation (Figure 2): the machine plays the top row, pits M1–M6, the
//!   person the bottom row, P1–P6; pit 1 is next to its owner's kalah (the ten replies to
//!   Russell's opening count out only with this numbering). Here the machine is [`Side::A`],
//!   the maximiser of the search, and the person [`Side::B`]; either may open. Also the turns
//!   in Bell's list order (IV.1).
//! * `memory`: the memory ([`Memory`], IV.3): compacted positions (12 pits × 4 bits,
//!   Atlas's 48-bit word) in a table of 1280 entries (a list of characteristic entries, then
//!   the whole positions by a hash: issue 29, where Bell entered at Mk × 26), split into ten parts
//!   by the reply to Russell's opening, or one part; and what keeps it small (IV.4): the
//!   characteristics of a win (Figure 5) and the parameters (Figure 6) from the game records.
//! * `player`: the look-ahead, a configuration of the one α-β skeleton ([`Bell::config`]):
//!   levels in turns, depth 3, Bell's move list ([`StaticOrder::Bell`]), his cut-off
//!   ([`Cutoff::Beyond`]), the window (−[`WIN`] − 1, [`WIN`]) so that the first victory found is
//!   taken, and the value function [`BellValue`] (Mk − Pk, the end of the game, the memory, the
//!   parameters); and the learner ([`Bell`], [`Game`]): it records a win when its look-ahead
//!   finds one, and after a loss runs the back-track analysis ([`Bell::backtrack`]).
//! * `teacher`: Figure 8's teaching ([`teach`], [`Teacher`]): a person who never loses beats
//!   the machine until it knows a reply is lost; and the scripted opponent of the
//!   never-beaten-twice runs ([`DecOpponent`]), or issue 29's opponent ([`DecOpponent::issue`]).
//! * `figure8`: a reading of characteristics for Figure 8's memory sizes, off by default
//!   ([`opponent_wins`], [`Options::loss_characteristics`]): a loss recorded as the person's
//!   wins after each of the machine's turns, as characteristics seen from his side.
//! * `tape`: the memory tape ([`Bell::punch`], [`Bell::read_tape`]; Bell kept his memory "on
//!   magnetic tape"): the format the PDP-1 version punches (`roms/bell.mac`), frame for frame,
//!   checksummed part by part.
//!
//! The modules import one another one way only: notation ← memory ← player ← teacher,
//! memory ← figure8 ← player, and memory, player ← tape. Everything public is re-exported here, so `kalah::bell::X` names
//! every item.
//!
//! [`Side::A`]: crate::board::Side::A
//! [`Side::B`]: crate::board::Side::B
//! [`StaticOrder::Bell`]: crate::order::StaticOrder::Bell
//! [`Cutoff::Beyond`]: crate::search::Cutoff::Beyond

mod figure8;
mod memory;
mod notation;
mod player;
mod tape;
mod teacher;

pub use figure8::opponent_wins;
pub use memory::{
    altered_holes, char_window_start, characteristic, compact, compact_words, kept_prefix,
    other_part, part_of, spill_part, turn_code, window_start, Count, Entry, GameResult, Judged,
    Memory, Outcome, Parameters, Records, Stored, Table, BIAS_TENTHS, CODE_ENTRIES, FIGURE_6,
    KALAH_CUT, LIST, MIN_SAMPLE, PARAM_FROM, REPLIES, RUSSELL_OPENING, STONES, TABLE, TOTAL,
    WINDOW,
};
pub use notation::{
    mirror, parse_turn, pit_name, play_sowings, play_turn, turn_name, turns, Figure, NotationError,
    TurnError, MACHINE, PERSON,
};
pub use player::{
    bell_config, end_value, turn_values, BacktrackCount, BacktrackStore, Bell, BellValue, Game,
    MachineMove, Options, Say, Stats, BACKTRACK_NODES, BUDGET, DEPTH, WIN,
};
pub use tape::{
    convert_version_2, entry_words, tape_sum, words_entry, Conversion, ConvertError, TapeError,
    TapeReport, TAPE_LEADER, TAPE_MAGIC, TAPE_VERSION, VERSION_2_PART_10,
};
pub use teacher::{
    teach, DecGame, DecOpponent, ReplayTally, Replayed, Strategy, Teacher, ENTRIES_DEPTH,
    ISSUE_DEPTHS,
};
