//! The 7×7 pie-rule game of the Manchester COMP34120 agent tournaments ("ManKalah",
//! `../shared/reference/kalah.md` §4) and its engine protocol — the oracle for issue 14.
//!
//! The rules are the seven-pit board's ([`Board7`], DEC capture: only from a non-empty opposite
//! pit; the game ends when either side is empty after a move and each side's remaining seeds
//! go to its owner) plus the engine's two:
//!
//! * **South's first move never earns an extra turn** (`GameEngine.java`:
//!   `if (moveCount == 1) turn = waitingPlayer.getSide();`).
//! * **The pie rule:** North's player may answer South's first move with `SWAP` (accepted only as
//!   the match's second action). The players exchange sides; the board is not mirrored and
//!   North is still to move — now played by the match's first player.
//!
//! Sides: South starts, so South is our lower player [`Side::A`] and North is [`Side::B`].
//! Numbering: the protocol numbers a side's holes 1..7 from the one **furthest** from its
//! store; the DEC note numbers pits from the one **nearest** the kalah. Hole `h` is pit `8 − h`.
//! A state lists North's holes 1..7, North's store, South's holes 1..7, South's store.
//!
//! The search ([`config`]) is the DEC game's on the seven-pit board with the first-move rule
//! ([`Rules::MANKALAH`]); the machine's action ([`choose_with`]) swaps on North's first turn when
//! that search values the position above 0 for South. `roms/kalah7.mac` plays exactly this way
//! (`tests/tests/kalah7.rs`); [`perft`] counts the pie game's action sequences.

use crate::board::{Board7, MoveError, Rules, Side};
use crate::search::{self, Config, Report, Settings, Table};

/// Holes a side.
pub const HOLES: u8 = 7;

/// A player's action: a hole in the protocol's numbering (1 = furthest from the own store),
/// or the pie rule's swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Move(u8),
    Swap,
}

/// What a [`Match`] refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("SWAP is allowed only as North's answer to South's first move")]
    NoSwapHere,
    #[error("hole {0}: {1}")]
    Move(u8, MoveError),
}

/// A match in progress: the board and how many actions (moves and a swap) have been made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub board: Board7,
    pub actions: u32,
    /// North's player swapped: the players have exchanged sides.
    pub swapped: bool,
}

impl Default for Match {
    fn default() -> Match {
        Match::new(7)
    }
}

impl Match {
    /// The opening with `seeds` in every hole, South to move.
    pub fn new(seeds: u8) -> Match {
        Match {
            board: Board7::opening(seeds),
            actions: 0,
            swapped: false,
        }
    }

    /// The board side to move (South = A).
    pub fn to_move(&self) -> Side {
        self.board.to_move
    }

    /// May the player to move swap now?
    pub fn can_swap(&self) -> bool {
        self.actions == 1 && !self.over()
    }

    pub fn over(&self) -> bool {
        self.board.is_terminal()
    }

    /// The actions open to the player to move, moves first (hole order), then the swap.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v: Vec<Action> = self
            .board
            .legal_moves()
            .into_iter()
            .map(|pit| Action::Move(HOLES + 1 - pit))
            .collect();
        v.sort_by_key(|a| match a {
            Action::Move(h) => *h,
            Action::Swap => u8::MAX,
        });
        if self.can_swap() {
            v.push(Action::Swap);
        }
        v
    }

    /// Make `a`; a refused action changes nothing.
    pub fn play(&mut self, a: Action) -> Result<(), MatchError> {
        match a {
            Action::Swap => {
                if !self.can_swap() {
                    return Err(MatchError::NoSwapHere);
                }
                self.swapped = !self.swapped;
            }
            Action::Move(h) => {
                let pit = (HOLES + 1)
                    .checked_sub(h)
                    .filter(|_| h >= 1)
                    .ok_or(MatchError::Move(h, MoveError::NoSuchPit(h)))?;
                self.board.play(pit).map_err(|e| MatchError::Move(h, e))?;
                if self.actions == 0 {
                    // South's first move never earns an extra turn.
                    self.board.to_move = Side::B;
                }
            }
        }
        self.actions += 1;
        Ok(())
    }

    /// The protocol's state: North's holes 1..7, North's store, South's holes 1..7, South's
    /// store, comma-separated.
    pub fn state(&self) -> String {
        state_of(&self.board)
    }

    /// The protocol's 16 numbers, in the state's order. At the end of the game the seeds left
    /// in a side's holes are shown in its owner's store, as the engine moves them there
    /// (`ManKalah/Kalah.java` `makeMove`: the side that still has seeds collects them).
    pub fn state_numbers(&self) -> [u8; 16] {
        let b = &self.board;
        let over = self.over();
        let mut out = [0; 16];
        for (k, side) in [Side::B, Side::A].into_iter().enumerate() {
            let mut left = 0;
            for h in 1..=HOLES {
                let n = b.pit(side, HOLES + 1 - h);
                if over {
                    left += n;
                } else {
                    out[k * 8 + h as usize - 1] = n;
                }
            }
            out[k * 8 + 7] = b.kalah(side) + left;
        }
        out
    }
}

/// A seven-pit board in the protocol's state order (a finished game's seeds swept into the
/// stores, as [`Match::state_numbers`]).
pub fn state_of(b: &Board7) -> String {
    let m = Match {
        board: *b,
        actions: 0,
        swapped: false,
    };
    m.state_numbers()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Whose turn a `CHANGE` announces to its receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    You,
    Opp,
    End,
}

/// A message from the engine to an agent (kalah.md §4's grammar).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMsg {
    /// `START;South` or `START;North`: the receiver's board side.
    Start(Side),
    /// `CHANGE;<move|SWAP>;<state>;<YOU|OPP|END>`.
    Change {
        action: Action,
        state: [u8; 16],
        turn: Turn,
    },
    /// `END`.
    End,
}

/// A message that breaks the grammar.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a ManKalah message ({why}): {line:?}")]
pub struct ProtocolError {
    pub line: String,
    pub why: &'static str,
}

fn bad(line: &str, why: &'static str) -> ProtocolError {
    ProtocolError {
        line: line.to_owned(),
        why,
    }
}

/// A hole number of the grammar: "1" … "7", no sign, no leading zero.
fn hole(s: &str) -> Option<u8> {
    let n: u8 = s.parse().ok()?;
    (s == n.to_string() && (1..=HOLES).contains(&n)).then_some(n)
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "South",
        Side::B => "North",
    }
}

impl EngineMsg {
    /// Parse one line (without or with its final `\n`). The grammar has no spaces and is case
    /// sensitive.
    pub fn parse(line: &str) -> Result<EngineMsg, ProtocolError> {
        let l = line.strip_suffix('\n').unwrap_or(line);
        let parts: Vec<&str> = l.split(';').collect();
        match parts.as_slice() {
            ["START", "South"] => Ok(EngineMsg::Start(Side::A)),
            ["START", "North"] => Ok(EngineMsg::Start(Side::B)),
            ["START", _] => Err(bad(line, "the position is South or North")),
            ["END"] => Ok(EngineMsg::End),
            ["CHANGE", act, state, turn] => {
                let action = if *act == "SWAP" {
                    Action::Swap
                } else {
                    Action::Move(hole(act).ok_or_else(|| bad(line, "a move is a hole 1 to 7"))?)
                };
                let nums: Vec<&str> = state.split(',').collect();
                if nums.len() != 16 {
                    return Err(bad(line, "a state has 16 numbers"));
                }
                let mut st = [0u8; 16];
                for (i, n) in nums.iter().enumerate() {
                    let v: u8 = n.parse().map_err(|_| bad(line, "a state number"))?;
                    if *n != v.to_string() {
                        return Err(bad(line, "a state number"));
                    }
                    st[i] = v;
                }
                let turn = match *turn {
                    "YOU" => Turn::You,
                    "OPP" => Turn::Opp,
                    "END" => Turn::End,
                    _ => return Err(bad(line, "the turn is YOU, OPP or END")),
                };
                Ok(EngineMsg::Change {
                    action,
                    state: st,
                    turn,
                })
            }
            _ => Err(bad(line, "START, CHANGE or END")),
        }
    }

    /// The message as the engine writes it, with its `\n`.
    pub fn line(&self) -> String {
        match self {
            EngineMsg::Start(s) => format!("START;{}\n", side_name(*s)),
            EngineMsg::End => "END\n".to_owned(),
            EngineMsg::Change {
                action,
                state,
                turn,
            } => {
                let act = match action {
                    Action::Move(h) => h.to_string(),
                    Action::Swap => "SWAP".to_owned(),
                };
                let st: Vec<String> = state.iter().map(u8::to_string).collect();
                let t = match turn {
                    Turn::You => "YOU",
                    Turn::Opp => "OPP",
                    Turn::End => "END",
                };
                format!("CHANGE;{act};{};{t}\n", st.join(","))
            }
        }
    }
}

/// An agent's answer: `MOVE;<n>` or `SWAP`, newline-terminated.
pub fn agent_line(a: Action) -> String {
    match a {
        Action::Move(h) => format!("MOVE;{h}\n"),
        Action::Swap => "SWAP\n".to_owned(),
    }
}

/// Read an agent's answer (the engine accepts `MOVE;` and any integer, `SWAP` exactly).
pub fn parse_agent(line: &str) -> Result<Action, ProtocolError> {
    let l = line.strip_suffix('\n').unwrap_or(line);
    if l == "SWAP" {
        return Ok(Action::Swap);
    }
    let n = l
        .strip_prefix("MOVE;")
        .ok_or_else(|| bad(line, "MOVE;<n> or SWAP"))?;
    n.parse::<i64>()
        .ok()
        .and_then(|v| u8::try_from(v).ok())
        .map(Action::Move)
        .ok_or_else(|| bad(line, "MOVE;<n> takes an integer"))
}

/// The 7×7 game's search, a configuration of the one α-β skeleton ([`search::search`]): the DEC
/// game's (utility Ka − Kb, Russell's ORD, his short look with his depth table by sowings into
/// the game when `short_look`, levels in turns, window ±255, the root counted) with the pie
/// rule's first move ([`Rules::MANKALAH`]: South's first move never repeats). The PDP-1 program
/// `roms/kalah7.mac` searches exactly this way (`tests/tests/kalah7.rs` checks it position by
/// position).
pub fn config(depth: u32, short_look: bool) -> Config {
    let settings = if short_look {
        Settings::new(depth)
    } else {
        Settings::static_only(depth)
    };
    Config {
        rules: Rules::MANKALAH,
        ..settings.config()
    }
}

impl Match {
    /// Sowings into the game (the actions less the swap): the search's moves into the game.
    pub fn sowings(&self) -> u32 {
        self.actions - u32::from(self.swapped)
    }
}

/// The machine's search: iterative deepening, as `roms/kalah7.mac` does on the space key. The
/// position is searched with `c` at depth 1, 2, … up to `c.depth` (each a whole search of its
/// own, [`config`]'s configuration at that depth, moves into the game = [`Match::sowings`]);
/// the report is the deepest one's (its move, value and PV) with `e` and `p` summed over all of
/// them. (Searching the previous depth's best move first, [`Config::root_first`], examines
/// 8–10 % fewer positions but plays worse: among moves of equal value it keeps the shallower
/// depth's where the static order's first is better — docs/kalah.md, "Depth and time".) The program searches the same way and stops early when the operator tells it to move
/// (sense switch 1): what it plays then is this function's with `c.depth` the depth it
/// completed. `values` are the iterations' values, shallowest first.
pub fn deepen(m: &Match, c: &Config) -> Option<(Report, Vec<i32>)> {
    deepening(m, c, c.depth, false, None)
}

/// [`deepen`] with a transposition table kept across its depths ([`Table`]).
pub fn deepen_in(m: &Match, c: &Config, table: &mut Table) -> Option<(Report, Vec<i32>)> {
    deepening(m, c, c.depth, false, Some(table))
}

/// Entries of the program's transposition table: 2^14, each three words (the check word, the
/// value, the rest) in twelve 4K fields of the 64K machine (docs/kalah.md, "The transposition
/// table").
pub const TABLE_BITS: u32 = 14;
/// The program's table holds positions with at least this many levels left: fewer entries
/// looked up and stored, and the entries that save the most (docs/kalah.md).
pub const TABLE_MIN_LEFT: u32 = 4;

/// The program's transposition table (test-word bit 4 on a 64K machine, issue 28), empty: a
/// new one for each of the machine's searches (the program clears it when it starts thinking).
pub fn program_table() -> Table {
    let mut t = Table::new(TABLE_BITS);
    t.min_left = TABLE_MIN_LEFT;
    t.keep_deeper = true;
    t
}

/// [`deepen`] with the program's table ([`program_table`]).
pub fn deepen_table(m: &Match, c: &Config) -> Option<(Report, Vec<i32>)> {
    deepening(m, c, c.depth, false, Some(&mut program_table()))
}

/// [`deepen_open`] with the program's table ([`program_table`]).
pub fn deepen_open_table(m: &Match, c: &Config) -> Option<(Report, Vec<i32>)> {
    deepening(m, c, OPEN_DEPTH, true, Some(&mut program_table()))
}

/// The deepest search of the open depth (test-word bit 3, issue 28): the time-managed search
/// deepens past the test word's depth field (at most 15), up to this many turns.
pub const OPEN_DEPTH: u32 = 36;

/// The open depth's deepening, as `roms/kalah7.mac` with test-word bit 3: [`deepen`] to
/// [`OPEN_DEPTH`] (`c.depth` is not used), stopping after the first search that reached no
/// position at its depth limit ([`Report::horizon`] false: every line ended with the game, so
/// a deeper search would find the same). In the endgame a search to 15 turns can miss what 16
/// see (docs/kalah.md, "Depth and time"); the operator's clock says when to move before.
pub fn deepen_open(m: &Match, c: &Config) -> Option<(Report, Vec<i32>)> {
    deepening(m, c, OPEN_DEPTH, true, None)
}

fn deepening(
    m: &Match,
    c: &Config,
    depth: u32,
    stop_exact: bool,
    mut table: Option<&mut Table>,
) -> Option<(Report, Vec<i32>)> {
    let mut values = Vec::new();
    let (mut effort, mut long_effort) = (0, 0);
    let mut last = None;
    for d in 1..=depth {
        let r = search::search_with(
            &m.board,
            m.sowings(),
            &Config {
                depth: d,
                ..c.clone()
            },
            false,
            table.as_deref_mut(),
        )?;
        effort += r.effort;
        long_effort += r.long_effort;
        values.push(r.value);
        let exact = !r.horizon;
        last = Some(r);
        if stop_exact && exact {
            break;
        }
    }
    let mut r = last?;
    r.effort = effort;
    r.long_effort = long_effort;
    Some((r, values))
}

/// The swap decision from the iterations' values (shallowest first): swap when the last two
/// together are above 0 (the last counted twice when there is only one). One value alone has
/// the horizon's bias — at even depths North's search of the position ends on a South move and
/// values it above 0 after nearly every opening, at odd depths on a North move and at or below
/// 0 (docs/kalah.md, "The swap"); two successive depths end once on each side.
pub fn swap_value(values: &[i32]) -> i32 {
    match values {
        [] => 0,
        [v] => 2 * v,
        [.., u, v] => u + v,
    }
}

/// South's first move from the tournament's opening (seven seeds a pit), in the protocol's
/// numbering: hole 6 (DEC pit 2). North may swap, so South's player gets the value of the
/// position North faces when North moves and its negation when North swaps: at best −|v|, and
/// the best opening is the one whose value is nearest 0. From the table of the seven openings
/// searched at depths 12 and 13 (docs/kalah.md, "The machine's swap"; the two depths' sum,
/// which cancels the horizon's bias) hole 6's is 1, the nearest 0 (hole 7's −2, hole 5's 3, the
/// others 5 or more in size). A book move: `roms/kalah7.mac` plays it without a search.
pub const SOUTH_OPENING: u8 = 6;

/// The report of the book move [`SOUTH_OPENING`]: nothing searched (`e`, `p` and `v` 0).
fn book_report() -> Report {
    let pit = HOLES + 1 - SOUTH_OPENING;
    Report {
        best: pit,
        turn: vec![pit],
        value: 0,
        effort: 0,
        long_effort: 0,
        pv: Vec::new(),
        lines: Vec::new(),
        leaves: Vec::new(),
        events: Vec::new(),
        levels: Vec::new(),
        horizon: false,
        lookups: 0,
    }
}

/// The machine's action for the player to move, and the search behind it — what
/// `roms/kalah7.mac` does on the space key: South's first move from the seven-seed opening is
/// the book's ([`SOUTH_OPENING`], nothing searched); otherwise [`deepen`] to `c.depth`. On North's first turn the
/// player swaps when [`swap_value`] of the iterations' values (South's kalah minus North's, plus
/// the pits at the end) is above 0: the position North faces is worth more to South, and the
/// swapper becomes South with North still to move. Otherwise, and on every other turn, the
/// deepest search's move. `None` if the match is over or the depth is 0.
pub fn choose_with(m: &Match, c: &Config) -> Option<(Action, Report)> {
    choose_by(m, c, deepen)
}

/// [`choose_with`] with the open depth ([`deepen_open`], test-word bit 3): the time-managed
/// search's action when no clock stops it.
pub fn choose_open(m: &Match, c: &Config) -> Option<(Action, Report)> {
    choose_by(m, c, deepen_open)
}

/// [`choose_with`] (or with `open` [`choose_open`]) with the program's transposition table
/// ([`deepen_table`], test-word bit 4): the same move and value at every depth, fewer
/// positions.
pub fn choose_table(m: &Match, c: &Config, open: bool) -> Option<(Action, Report)> {
    choose_by(
        m,
        c,
        if open {
            deepen_open_table
        } else {
            deepen_table
        },
    )
}

type Deepen = fn(&Match, &Config) -> Option<(Report, Vec<i32>)>;

fn choose_by(m: &Match, c: &Config, deepen: Deepen) -> Option<(Action, Report)> {
    if m.over() || c.depth == 0 {
        return None;
    }
    if m.actions == 0 && m.board == Board7::opening(7) {
        return Some((Action::Move(SOUTH_OPENING), book_report()));
    }
    let (r, values) = deepen(m, c)?;
    let a = if m.can_swap() && swap_value(&values) > 0 {
        Action::Swap
    } else {
        Action::Move(HOLES + 1 - r.best)
    };
    Some((a, r))
}

/// The reference engine's action at `depth` turns with the short look ([`choose_with`],
/// [`config`]).
pub fn choose(m: &Match, depth: u32) -> Option<Action> {
    choose_with(m, &config(depth, true)).map(|(a, _)| a)
}

/// Perft of the pie-rule game (kalah.md §6 conventions with actions as plies): the number of
/// action sequences of exactly `depth` actions from `m` — sowings, and North's swap as an
/// action of its own on its first turn; South's first move never repeats; a finished match has
/// no successors.
pub fn perft(m: &Match, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    m.legal_actions()
        .into_iter()
        .map(|a| {
            let mut c = m.clone();
            c.play(a).expect("legal");
            perft(&c, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(line: &str) -> (Action, [u8; 16], Turn) {
        match EngineMsg::parse(line).unwrap() {
            EngineMsg::Change {
                action,
                state,
                turn,
            } => (action, state, turn),
            m => panic!("{m:?}"),
        }
    }

    /// kalah.md §4's two recorded engine lines: South's `MOVE;1` from the opening (its seven
    /// seeds end in the store, yet North moves next), then North's hole 2 and South's hole 1.
    #[test]
    fn the_recorded_engine_messages() {
        let mut m = Match::default();
        m.play(Action::Move(1)).unwrap();
        let (a, st, _) = change("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n");
        assert_eq!((a, st), (Action::Move(1), m.state_numbers()));
        assert_eq!(
            m.to_move(),
            Side::B,
            "South's first move never earns an extra turn"
        );
        m.play(Action::Move(2)).unwrap();
        m.play(Action::Move(1)).unwrap();
        let (_, st, turn) = change("CHANGE;1;7,0,8,8,8,8,8,1,0,9,8,8,8,8,8,1;YOU");
        assert_eq!(st, m.state_numbers());
        assert_eq!(turn, Turn::You);
        assert_eq!(m.state(), "7,0,8,8,8,8,8,1,0,9,8,8,8,8,8,1");
    }

    #[test]
    fn messages_read_and_write_exactly_as_the_grammar() {
        for l in [
            "START;South\n",
            "START;North\n",
            "END\n",
            "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n",
            "CHANGE;7;0,0,0,0,0,0,0,49,0,0,0,0,0,0,0,49;END\n",
        ] {
            assert_eq!(EngineMsg::parse(l).unwrap().line(), l);
        }
        for l in [
            "START;south",
            "CHANGE;8;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;01;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;you",
            "CHANGE; 1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "MOVE;1",
        ] {
            assert!(EngineMsg::parse(l).is_err(), "{l}");
        }
        assert_eq!(parse_agent("MOVE;3\n"), Ok(Action::Move(3)));
        assert_eq!(parse_agent("SWAP\n"), Ok(Action::Swap));
        assert!(parse_agent("swap\n").is_err());
        assert_eq!(agent_line(Action::Move(7)), "MOVE;7\n");
    }

    /// The state of a finished match shows every seed in a store: the engine sweeps the side
    /// that still has seeds into its owner's store in the move that ends the game.
    #[test]
    fn the_final_state_has_the_seeds_swept() {
        let mut b = Board7::opening(0);
        // South's last seed in pit 1, North with seeds left in pits 1 and 7 and its store.
        b.cells[6] = 1;
        b.cells[8] = 2;
        b.cells[14] = 3;
        b.cells[15] = 4;
        let mut m = Match {
            board: b,
            actions: 10,
            swapped: false,
        };
        m.play(Action::Move(7)).unwrap();
        assert!(m.over());
        assert_eq!(m.state(), "0,0,0,0,0,0,0,9,0,0,0,0,0,0,0,1");
    }

    /// The swap only as North's answer to South's first move; it changes no seed and North is
    /// still to move.
    #[test]
    fn the_pie_rule() {
        let mut m = Match::default();
        assert_eq!(m.play(Action::Swap), Err(MatchError::NoSwapHere));
        m.play(Action::Move(4)).unwrap();
        let before = m.board;
        assert!(m.legal_actions().contains(&Action::Swap));
        m.play(Action::Swap).unwrap();
        assert_eq!((m.board, m.swapped), (before, true));
        assert_eq!(m.to_move(), Side::B);
        assert_eq!(m.play(Action::Swap), Err(MatchError::NoSwapHere));
        assert!(!m.legal_actions().contains(&Action::Swap));
        assert!(m.play(Action::Move(8)).is_err());
        assert!(m.play(Action::Move(0)).is_err());
    }

    /// Whole matches by the reference engine against itself at depth 2: every action legal,
    /// the match ends, and the swap is taken exactly when being South is worth more.
    #[test]
    fn reference_matches_end_with_legal_actions() {
        let mut m = Match::default();
        let mut n = 0;
        while let Some(a) = choose(&m, 2) {
            assert!(m.legal_actions().contains(&a), "{a:?} in {m:?}");
            if a == Action::Swap {
                let v1 = search::choose(&m.board, 1, &Settings::new(1)).unwrap();
                let v2 = search::choose(&m.board, 1, &Settings::new(2)).unwrap();
                assert!(v1.value + v2.value > 0);
            }
            m.play(a).unwrap();
            n += 1;
            assert!(n < 500);
        }
        assert!(m.over());
        assert_eq!(m.board.stones(), 98, "no seed lost");
    }

    /// Plain minimax of the pie-rule game's search (the definition, no pruning): South's first
    /// move (`ply` 0) never repeats.
    fn pie_minimax(b: &Board7, ply: u32, level: u32, depth: u32) -> i32 {
        if b.is_terminal() || level >= depth {
            return b.utility();
        }
        let vals = b.legal_moves().into_iter().map(|m| {
            let (mut c, r) = b.after(m).unwrap();
            if ply == 0 {
                c.to_move = b.to_move.other();
            }
            let repeat = r.repeat && ply > 0;
            pie_minimax(&c, ply + 1, if repeat { level } else { level + 1 }, depth)
        });
        match b.to_move {
            Side::A => vals.max().unwrap(),
            Side::B => vals.min().unwrap(),
        }
    }

    /// The search's configuration of the pie-rule game gives South's first move no repeat:
    /// its value from every opening (1–7 seeds, depths 1–3, static order and short look) is the
    /// plain minimax of that rule; with the DEC rules (a repeat) some values differ.
    #[test]
    fn the_search_gives_the_first_move_no_repeat() {
        let mut differ = 0;
        for seeds in 1..=7 {
            for depth in 1..=3 {
                let b = Board7::opening(seeds);
                let want = pie_minimax(&b, 0, 0, depth);
                for short in [false, true] {
                    let r = search::search(&b, 0, &config(depth, short), false).unwrap();
                    assert_eq!(r.value, want, "seeds {seeds} depth {depth} short {short}");
                    let (c, _) = Rules::MANKALAH.after(&b, r.best, 0).unwrap();
                    assert_eq!(c.to_move, Side::B);
                }
                let dec = search::choose(&b, 0, &Settings::static_only(depth)).unwrap();
                differ += usize::from(dec.value != want);
            }
        }
        assert!(differ > 0, "the rule never mattered");
    }

    /// Iterative deepening: each iteration is the fixed-depth search; the deepest one's move,
    /// value and PV are the report's, its counts the sum of every iteration's, the values
    /// listed shallowest first.
    #[test]
    fn deepening_ends_with_the_fixed_depth_search() {
        let mut m = Match::default();
        for h in [4, 2, 6, 1] {
            m.play(Action::Move(h)).unwrap();
            for short in [false, true] {
                let (r, values) = deepen(&m, &config(4, short)).unwrap();
                let each: Vec<Report> = (1..=4)
                    .map(|d| {
                        search::search(&m.board, m.sowings(), &config(d, short), false).unwrap()
                    })
                    .collect();
                assert_eq!(
                    (r.best, r.value, &r.pv),
                    (each[3].best, each[3].value, &each[3].pv)
                );
                assert_eq!(r.effort, each.iter().map(|e| e.effort).sum::<u64>());
                assert_eq!(
                    r.long_effort,
                    each.iter().map(|e| e.long_effort).sum::<u64>()
                );
                assert_eq!(values, each.iter().map(|e| e.value).collect::<Vec<_>>());
            }
        }
        assert_eq!(swap_value(&[3]), 6);
        assert_eq!(swap_value(&[9, -2, 1]), -1);
    }

    /// Perft of the pie-rule game: 7 first moves; after each North has its 7 pits and the
    /// swap; at depth 3 each swap is followed by North's moves, each North move by the next
    /// side's (counted here from the board directly).
    #[test]
    fn pie_rule_perft() {
        let m = Match::default();
        assert_eq!(perft(&m, 1), 7);
        assert_eq!(perft(&m, 2), 56);
        let mut want = 0;
        for pit in 1..=7 {
            let mut b = Board7::opening(7);
            b.play(pit).unwrap();
            b.to_move = Side::B;
            want += b.legal_moves().len() as u64; // the swap, then North moves
            for n in b.legal_moves() {
                let (c, _) = b.after(n).unwrap();
                want += c.legal_moves().len() as u64;
            }
        }
        assert_eq!(perft(&m, 3), want);
        assert_eq!(perft(&Match::new(1), 2), 7 * 8);
    }

    /// South's first move from the seven-seed opening is the book's, nothing searched, at every
    /// depth and order; from another seed count, or any later position, the search decides.
    #[test]
    fn south_opens_from_the_book() {
        for short in [false, true] {
            for depth in 1..=4 {
                let (a, r) = choose_with(&Match::default(), &config(depth, short)).unwrap();
                assert_eq!(a, Action::Move(SOUTH_OPENING));
                assert_eq!((r.best, r.effort, r.long_effort, r.value), (2, 0, 0, 0));
            }
        }
        assert!(choose_with(&Match::default(), &config(0, false)).is_none());
        let (_, r) = choose_with(&Match::new(6), &config(3, false)).unwrap();
        assert!(r.effort > 0);
        let mut m = Match::default();
        m.play(Action::Move(SOUTH_OPENING)).unwrap();
        let (_, r) = choose_with(&m, &config(3, false)).unwrap();
        assert!(r.effort > 0);
    }

    /// The program's transposition table: from positions of a match, deepening to depths 5–7
    /// with the table plays the same move and value as without (every cut-off is exact: an
    /// entry searched to the same depth, its bound beyond the window) and, summed, in fewer
    /// positions (not at every one: the entries' moves first may order worse); its key never
    /// confused two positions there.
    #[test]
    fn the_table_keeps_moves_and_values_in_fewer_positions() {
        let mut m = Match::default();
        let (mut with, mut without) = (0, 0);
        for h in [6, 3, 2, 5, 1, 7, 4, 2, 6] {
            m.play(Action::Move(h)).unwrap();
            if m.over() {
                break;
            }
            for d in 5..=7 {
                let (a, _) = deepen(&m, &config(d, false)).unwrap();
                let mut t = program_table();
                let (b, _) = deepen_in(&m, &config(d, false), &mut t).unwrap();
                assert_eq!((a.best, a.value), (b.best, b.value), "{m:?} depth {d}");
                assert_eq!(t.false_hits, 0);
                with += b.effort;
                without += a.effort;
            }
        }
        assert!(with < without, "{with} {without}");
    }

    /// On North's first turn the machine swaps exactly when the last two iterations' values
    /// together are above 0, and the sowings into the game leave the swap out.
    #[test]
    fn the_swap_follows_the_value() {
        let mut swaps = 0;
        for seeds in 1..=7 {
            for first in 1..=7 {
                let mut m = Match::new(seeds);
                m.play(Action::Move(first)).unwrap();
                let (a, r) = choose_with(&m, &config(2, false)).unwrap();
                let v1 = search::search(&m.board, 1, &config(1, false), false).unwrap();
                assert_eq!(
                    r.value,
                    search::search(&m.board, 1, &config(2, false), false)
                        .unwrap()
                        .value
                );
                assert_eq!(
                    a == Action::Swap,
                    v1.value + r.value > 0,
                    "seeds {seeds} hole {first}"
                );
                swaps += usize::from(a == Action::Swap);
                if a == Action::Swap {
                    m.play(a).unwrap();
                    assert_eq!((m.sowings(), m.can_swap()), (1, false));
                    let (b, _) = choose_with(&m, &config(2, false)).unwrap();
                    assert!(matches!(b, Action::Move(_)));
                }
            }
        }
        assert!(swaps > 0 && swaps < 49, "{swaps} swaps");
    }
}
