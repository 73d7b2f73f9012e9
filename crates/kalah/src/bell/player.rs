//! Bell's player: A. G. Bell, "Kalah on Atlas", *Machine Intelligence 3* (1968), IV.2 and IV.3.
//!
//! * The look-ahead (IV.2): 1½ moves (3 plies, in turns) by the one α-β skeleton of
//!   [`crate::search`] ([`bell_config`]), with the value function [`BellValue`]: Mk − Pk at the
//!   third ply, a position decided by the rules ([`end_value`]), the memory or a parameter
//!   worth ±[`WIN`]; [`turn_values`] is the definition by plain minimax, for checking it.
//! * The learner (IV.3): [`Bell`] plays a [`Game`] against a person, records a position as won
//!   when its look-ahead finds a win, and after a loss runs the back-track analysis
//!   ([`Bell::backtrack`]) over the region of the game tree it lost in.

use super::figure8::opponent_wins;
use super::memory::{
    characteristic, Entry, GameResult, Judged, Memory, Outcome, Parameters, Records, Stored,
    KALAH_CUT, STONES, TABLE, TOTAL,
};
use super::notation::{mirror, play_turn, turns, TurnError, MACHINE, PERSON};
use crate::board::{Board, Capture, MoveError, Ply, Rules, Side, HOLES};
use crate::order::{LookDepth, Order, StaticOrder};
use crate::search::{self, Config, Cutoff, Levels, Report};
use crate::value::Evaluate;
use std::cell::Cell;

/// The value of a victory: more than any kalah difference. All victories are worth the same,
/// so the first one found is the one taken (IV.2).
pub const WIN: i32 = 100;
/// Positions the back-track analysis evaluates after a loss (IV.3).
pub const BACKTRACK_NODES: u32 = 100;
/// Plies of the look-ahead ("1½ moves (or 3 plys)", IV.2), in turns.
pub const DEPTH: u32 = 3;
/// Positions a look-ahead examines before its root's turn stops at the best turn so far that is
/// not a loss ([`Options::budget`], [`search::Budget`]; our bound, issue 29, not Bell's: on the
/// PDP-1 a position takes about 3 ms, and the unbounded look-ahead examined up to 4130).
pub const BUDGET: u32 = 1000;

// ---------------------------------------------------------------------------------------------
// The look-ahead (IV.2)

/// Bell's value function: the evaluation Mk − Pk at the third ply (IV.2), and a position is
/// decided when the game is over (±[`WIN`] or 0), a kalah holds more than half the stones
/// (±WIN; both half: a draw, 0), the memory recognizes it (machine to move), or a parameter
/// calls it a near-win (machine to move) or near-loss (person to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BellValue<'a> {
    pub memory: Option<&'a Memory>,
    pub params: Option<&'a Parameters>,
    /// The game's turns before the root (the first two are enough), for the memory's part.
    pub prefix: Vec<Vec<u8>>,
    /// Look positions with the person to move up with the sides exchanged (Figure 4's "the
    /// machine will prevent the opponent having it"; an option).
    pub mirror: bool,
    /// Set when a parameter decided a position of the look-ahead: its value is then no proof
    /// (issue 29: the machine said `i will win` on a near-win and went on to lose).
    pub judged: Cell<bool>,
}

impl BellValue<'_> {
    /// The evaluation alone: no memory, no parameters.
    pub fn plain() -> BellValue<'static> {
        BellValue {
            memory: None,
            params: None,
            prefix: Vec::new(),
            mirror: false,
            judged: Cell::new(false),
        }
    }
}

/// The value of a position decided by the rules alone, from the machine's side.
pub fn end_value(b: &Board) -> Option<i32> {
    let total = b.stones() as i32;
    let (mk, pk) = (b.kalah(MACHINE) as i32, b.kalah(PERSON) as i32);
    let sign = |d: i32| d.signum() * WIN;
    if b.is_terminal() {
        return Some(sign(
            mk + b.pits_total(MACHINE) as i32 - pk - b.pits_total(PERSON) as i32,
        ));
    }
    if 2 * mk > total || 2 * pk > total {
        return Some(sign(mk - pk));
    }
    (2 * mk == total && 2 * pk == total).then_some(0)
}

/// A won or lost position's value from the machine's side.
fn outcome_value(o: Outcome) -> i32 {
    match o {
        Outcome::Win => WIN,
        Outcome::Loss => -WIN,
    }
}

impl BellValue<'_> {
    /// What the memory holds for `b` reached by `path` (machine to move; with [`Self::mirror`]
    /// the person too, looked up with the sides exchanged), from the machine's side.
    fn recalled(&self, b: &Board, path: &[Ply]) -> Option<i32> {
        if b.to_move != MACHINE && !self.mirror {
            return None;
        }
        let m = self.memory?;
        let mut turns: Vec<Vec<u8>> = self.prefix.iter().take(2).cloned().collect();
        if turns.len() < 2 {
            turns.extend(path_turns(path));
        }
        let part = m.part(&turns)?;
        if b.to_move == MACHINE {
            m.lookup(part, b).map(|e| outcome_value(e.outcome))
        } else {
            // A winner for the person to move is a loss for the machine.
            m.lookup(part, &mirror(b))
                .map(|e| -outcome_value(e.outcome))
        }
    }

    fn known(&self, b: &Board, path: &[Ply]) -> Option<i32> {
        if let Some(v) = end_value(b) {
            return Some(v);
        }
        if let Some(v) = self.recalled(b, path) {
            return Some(v);
        }
        // Parameters are taken "at either of its maximizing levels": where the machine begins
        // a turn below the root (or the person, for near-losses), not at the positions inside
        // the root's own turn, so that a position the memory holds as lost two plies below is
        // not hidden behind a kalah relation reached on the way (else the same loss could come
        // twice).
        if b.to_move == MACHINE && path.iter().all(|p| p.1 == MACHINE) {
            return None;
        }
        // Judged after the turn (a study of Figure 8, `Judged::AfterTurn`): only where a whole
        // turn below the root's own has just ended (the last sowing the other side's), so that
        // a relation neither stands for a continuation position, which "cannot be evaluated"
        // (IV.1), nor hides the positions two plies below the root (the same loss twice).
        let after_turn = self.params.is_some_and(|p| p.judged == Judged::AfterTurn);
        if after_turn
            && (path.last().is_some_and(|p| p.1 == b.to_move)
                || path.iter().all(|p| p.1 == MACHINE))
        {
            return None;
        }
        let judged = self.params.and_then(|p| p.judge(b)).map(outcome_value);
        if judged.is_some() {
            self.judged.set(true);
        }
        judged
    }
}

impl Evaluate<HOLES> for BellValue<'_> {
    fn decided(&self, b: &Board) -> Option<i32> {
        self.known(b, &[])
    }
    fn decided_at(&self, b: &Board, path: &[Ply]) -> Option<i32> {
        self.known(b, path)
    }
    fn remembered(&self, b: &Board, path: &[Ply]) -> Option<i32> {
        self.recalled(b, path)
    }
    fn estimate(&self, b: &Board) -> i32 {
        b.kalah(MACHINE) as i32 - b.kalah(PERSON) as i32
    }
}

/// The turns of the variation `path` (sowings from a root where `first` is to move).
fn path_turns(path: &[Ply]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut last = None;
    for &(m, s) in path {
        if last != Some(s) {
            out.push(Vec::new());
            last = Some(s);
        }
        out.last_mut().expect("pushed").push(m);
    }
    out
}

fn bell_order_param(static_order: StaticOrder) -> Order {
    Order {
        static_order,
        postpone: false,
        look: LookDepth::Fixed(0),
        look_a: false,
        look_b: false,
    }
}

/// Bell's look-ahead as a configuration of the skeleton, with the value function `value`:
/// DEC rules, levels in turns, depth 3, Bell's move list in `order`, the cut-off `cutoff`, the
/// root's window (−WIN − 1, WIN) (a node taking a victory stops there, and a lost root still
/// finds a turn), the root always searched.
pub fn bell_config<E>(value: E, order: StaticOrder, cutoff: Cutoff) -> Config<E> {
    Config {
        rules: Rules::DEC,
        value,
        order: bell_order_param(order),
        levels: Levels::Turns,
        depth: DEPTH,
        alpha: -WIN - 1,
        beta: WIN,
        gamma: None,
        count_root: true,
        first_pv: false,
        lines: false,
        cutoff,
        search_root: true,
        root_first: None,
        budget: None,
        floor: None,
        lost_first: false,
    }
}

/// The value of each of the machine's turns from `b` by plain minimax over whole turns (no
/// cut-off), 3 plies, with the value function `v`: the definition, for checking the α-β
/// configuration.
pub fn turn_values<E: Evaluate<HOLES>>(b: &Board, v: &E) -> Vec<(Vec<u8>, i32)> {
    turns(b)
        .into_iter()
        .map(|(t, c)| {
            let x = turn_value(b, &t, &c, 0, v, &mut Vec::new());
            (t, x)
        })
        .collect()
}

/// [`turn_values`]'s value of the turn `t` from `b` (to `c`) at `level` (0: the root's), the
/// sowings so far in `path` (as it was on return).
fn turn_value<E: Evaluate<HOLES>>(
    b: &Board,
    t: &[u8],
    c: &Board,
    level: u32,
    v: &E,
    path: &mut Vec<Ply>,
) -> i32 {
    let n = path.len();
    let side = b.to_move;
    // A turn stops at a decided position inside it (the skeleton does not search on).
    let mut cur = *b;
    let mut stopped = None;
    for (i, &m) in t.iter().enumerate() {
        cur.play(m).expect("legal");
        path.push((m, side));
        if i + 1 < t.len() {
            if let Some(x) = v.decided_at(&cur, path) {
                stopped = Some(x);
                break;
            }
        }
    }
    let x = stopped.unwrap_or_else(|| position_value(c, level + 1, v, path));
    path.truncate(n);
    x
}

/// [`turn_values`]'s value of the position `b` at `level`, reached by `path`.
fn position_value<E: Evaluate<HOLES>>(b: &Board, level: u32, v: &E, path: &mut Vec<Ply>) -> i32 {
    if let Some(x) = v.decided_at(b, path) {
        return x;
    }
    if level >= DEPTH {
        return v.estimate(b);
    }
    let vals = turns(b)
        .into_iter()
        .map(|(t, c)| turn_value(b, &t, &c, level, v, path));
    match b.to_move {
        Side::A => vals.max().expect("a move"),
        Side::B => vals.min().expect("a move"),
    }
}

// ---------------------------------------------------------------------------------------------
// The learner (IV.3)

/// Bell's program's options: the paper's, and the choices it leaves open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Store characteristics of own-turn wins (IV.4).
    pub characteristics: bool,
    /// Learn parameters from the game records (IV.4).
    pub parameters: bool,
    /// Fixed parameters instead (e.g. [`Parameters::figure_6`]).
    pub fixed_parameters: Option<Parameters>,
    /// Bell's mistake: draws count as wins in the parameters' statistics.
    pub draws_as_wins: bool,
    /// Split the memory by the reply to Russell's opening (IV.3) or keep one table.
    pub split: bool,
    /// The order of the move list ([`StaticOrder::Bell`] or [`StaticOrder::BellListed`]).
    pub order: StaticOrder,
    pub cutoff: Cutoff,
    /// Positions the back-track analysis evaluates after a loss.
    pub backtrack_nodes: u32,
    /// Resign when the look-ahead shows a forced loss.
    pub resign: bool,
    /// Also learn near-losses: the person's kalah relations lost 9 times in 10 (our reading of
    /// Figure 6's "pseudo winning-losing positions"; the text describes near-wins only).
    pub near_losses: bool,
    /// Entries in one part of the memory ([`TABLE`]).
    pub table: usize,
    /// The memory holds positions for the side to move, whoever it is: positions with the
    /// person to move are looked up with the sides exchanged, and the back-track analysis also
    /// evaluates (and stores) the positions after the machine's turns from the person's side.
    /// Our reading of Figure 4's caption, as an option.
    pub mirror: bool,
    /// What the back-track analysis's count of [`Options::backtrack_nodes`] counts (a study of
    /// Figure 8's sizes; docs/bell.md, "Figure 8: readings tried"). Default: the positions its
    /// look-aheads examine.
    pub backtrack_count: BacktrackCount,
    /// Which positions the back-track analysis stores (the same study). Default: every decided
    /// position it evaluates.
    pub backtrack_store: BacktrackStore,
    /// With characteristics, a lost position is recorded, when it can be, as the
    /// characteristics of the person's wins after each of the machine's turns, looked up with
    /// the sides exchanged ([`super::opponent_wins`]; a study of Figure 8's "about 300", off by
    /// default).
    pub loss_characteristics: bool,
    /// Characteristics are found by index, hashed on the machine pits they always keep
    /// ([`super::Table::indexed`]), not in the list of [`super::LIST`]: a study of Figure 8 (with
    /// [`Options::loss_characteristics`] they number hundreds), off by default; the PDP-1 program
    /// has it as test-word bit 7 (`002000`).
    pub characteristic_index: bool,
    /// The look-ahead's bound on positions ([`BUDGET`] by default; [`search::Budget`]: once it
    /// has examined so many, its root's turn stops at the best turn so far unless every turn
    /// examined is lost), or none: Bell's unbounded look-ahead. Ours (issue 29); the PDP-1
    /// program's test-word bit 10 (`000200`, Bell's own look-ahead) turns it off with the
    /// [`Options::floor`], its word `bgt` holds it.
    pub budget: Option<u32>,
    /// The cap on a look-ahead whose every turn is lost ([`search::Budget::shallow`]), with
    /// [`Options::budget`] only: once it has examined so many positions while every turn it
    /// examined is lost (−[`WIN`]; or none yet), the position after each of the person's
    /// replies is judged where it stands (the rules, the memory, the parameters, else
    /// Mk − Pk) instead of looking at the machine's next turn — two plies, in the turn under
    /// way and the remaining ones — so that a resignation, and every look-ahead of the
    /// back-track analysis, is bounded too. [`BUDGET`] by default, the same as the bound (the
    /// PDP-1 program's C is its word `bgt`, so give both the same when comparing with it);
    /// none: Bell's three plies for every turn. Ours (issue 29); test-word bit 10 turns it off
    /// with the bound and the floor.
    pub cap: Option<u32>,
    /// A node stops at its first child worth ±[`WIN`], nothing being beyond it
    /// ([`search::Config::floor`]): the person's node below a lost turn stops at its first reply
    /// worth −WIN, which Bell's strict cut-off never does. Changes no value and no turn, only
    /// the positions examined. Ours (issue 29: lost turns are long), on by default; the PDP-1
    /// program's test-word bit 10 (`000200`, Bell's own look-ahead) turns it off with the
    /// [`Options::budget`].
    pub floor: bool,
    /// With [`Options::floor`], the person's replies that reach a position the memory holds as
    /// lost are tried first ([`search::Config::lost_first`]; their look-ups are counted in
    /// [`Stats::lookups`]). Ours (issue 29), off by default; not in the PDP-1 program.
    pub lost_first: bool,
}

/// What "a count is set to evaluate 100 nodes" counts (docs/bell.md, "Figure 8: readings
/// tried").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BacktrackCount {
    /// Each position two plies below a game position that the look-ahead evaluates (our
    /// first reading; 1583 entries in Figure 8's teaching, which never finishes within Bell's
    /// 1280-entry part).
    Positions,
    /// Every position the look-ahead examines (its effort, the nodes of Figure 3's tree),
    /// summed over the analysis's look-aheads: "node" as the paper uses it for the look-ahead's
    /// tree (Figure 3, Figure 4's "once the node Q9 has been evaluated"). The default.
    #[default]
    Effort,
}

/// Which decided positions the back-track analysis stores (docs/bell.md, "Figure 8: readings
/// tried").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BacktrackStore {
    /// Every won or lost position it evaluates (our reading, the default).
    #[default]
    Region,
    /// Only lost positions of the region (and the game's own positions, won or lost).
    Losses,
    /// Only the game's own positions: the region is not visited, the previous positions of the
    /// game are recalled and evaluated (one count each) back to the start.
    Line,
}

impl Default for Options {
    /// Bell's program as the paper describes it, with draws corrected.
    fn default() -> Options {
        Options {
            characteristics: true,
            parameters: true,
            fixed_parameters: None,
            draws_as_wins: false,
            split: true,
            order: StaticOrder::Bell,
            cutoff: Cutoff::Beyond,
            backtrack_nodes: BACKTRACK_NODES,
            resign: true,
            near_losses: false,
            table: TABLE,
            mirror: false,
            backtrack_count: BacktrackCount::Effort,
            backtrack_store: BacktrackStore::Region,
            loss_characteristics: false,
            characteristic_index: false,
            budget: Some(BUDGET),
            cap: Some(BUDGET),
            floor: true,
            lost_first: false,
        }
    }
}

impl Options {
    /// The memory alone: no characteristics, no parameters (Bell's first Figure 8 run).
    pub fn plain() -> Options {
        Options {
            characteristics: false,
            parameters: false,
            ..Options::default()
        }
    }

    /// The parameters take part (learned or fixed).
    fn parameters_on(&self) -> bool {
        self.parameters || self.fixed_parameters.is_some()
    }
}

/// What the machine says with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Say {
    /// "if it thinks it will win, it says so".
    WillWin,
    /// It resigns: its look-ahead shows a forced loss.
    Resigns,
}

/// A game between Bell's program and a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub board: Board,
    /// The turns played, by whom.
    pub turns: Vec<(Side, Vec<u8>)>,
    /// Every position at the start of a turn, and the last.
    pub positions: Vec<Board>,
    /// The positions the machine moved (or resigned) from, with the number of turns before.
    pub machine: Vec<(Board, usize)>,
    pub resigned: bool,
    pub claimed_win: bool,
    /// The back-track analysis has run for this game.
    pub analysed: bool,
}

impl Game {
    /// A new 3-in-a-pit game; `machine_first`: the machine opens.
    pub fn new(machine_first: bool) -> Game {
        let mut board = Board::new(STONES);
        board.to_move = if machine_first { MACHINE } else { PERSON };
        Game {
            board,
            turns: Vec::new(),
            positions: vec![board],
            machine: Vec::new(),
            resigned: false,
            claimed_win: false,
            analysed: false,
        }
    }

    pub fn over(&self) -> bool {
        self.resigned || self.board.is_terminal()
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        if self.resigned {
            return Some(GameResult::Lost);
        }
        if !self.board.is_terminal() {
            return None;
        }
        let d = self.board.utility();
        Some(match d.signum() {
            1 => GameResult::Won,
            0 => GameResult::Drawn,
            _ => GameResult::Lost,
        })
    }

    /// The machine said `i will win` and did not win (issue 29: it must never happen).
    pub fn broke_claim(&self) -> bool {
        self.claimed_win && self.over() && self.result() != Some(GameResult::Won)
    }

    /// The first turns, for the memory's part.
    pub fn prefix(&self, n: usize) -> Vec<Vec<u8>> {
        self.turns[..n]
            .iter()
            .take(2)
            .map(|t| t.1.clone())
            .collect()
    }

    /// Play the turn of the side to move.
    pub fn play(&mut self, turn: &[u8]) -> Result<(), TurnError> {
        if self.over() {
            return Err(TurnError::Move(MoveError::GameOver));
        }
        let side = self.board.to_move;
        self.board = play_turn(&self.board, turn)?;
        self.turns.push((side, turn.to_vec()));
        self.positions.push(self.board);
        Ok(())
    }

    /// The person's turns, for replaying.
    pub fn person_turns(&self) -> Vec<Vec<u8>> {
        self.turns
            .iter()
            .filter(|t| t.0 == PERSON)
            .map(|t| t.1.clone())
            .collect()
    }
}

/// The machine's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineMove {
    /// The turn played (empty when it resigned).
    pub turn: Vec<u8>,
    pub value: i32,
    /// Positions the look-ahead examined.
    pub effort: u64,
    pub says: Option<Say>,
    /// The parts that forgot an entry for the first time during this turn: the machine types
    /// `part N full, forgetting` for each, on a line of its own, as it stores.
    pub forgot: Vec<usize>,
    /// Those of them that the back-track analysis after a resignation made forget: typed
    /// after `i resign` (and the analysis line), as the analysis follows the resignation.
    pub forgot_after: Vec<usize>,
}

/// What the learning did, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions stored as won, lost.
    pub won: u32,
    pub lost: u32,
    /// Characteristic entries among the won.
    pub characteristic: u32,
    /// Back-track analyses run and positions they evaluated.
    pub backtracks: u32,
    pub backtrack_nodes: u64,
    /// Entries overwritten with the other outcome.
    pub corrected: u32,
    /// Whole positions stored in their spill window, their own window full (issue 29).
    pub spilled: u32,
    /// Losses forgotten, the new one or the one it replaced (of [`Memory::overflow`]).
    pub forgot_losses: u32,
    /// Positions examined by the look-aheads (their effort), by what they were for: the first
    /// look-ahead of a machine turn, the look-aheads again inside a turn, and those of the
    /// learning (the back-track analysis) — where a turn's thinking time goes (issue 29).
    pub effort_first: u64,
    pub effort_again: u64,
    pub effort_learn: u64,
    /// Memory look-ups made to order the person's replies ([`Options::lost_first`]), in all
    /// the look-aheads: not in their effort, but a cost on the PDP-1 too.
    pub lookups: u64,
}

/// Bell's program: options, memory, game records and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bell {
    pub options: Options,
    pub memory: Memory,
    pub records: Records,
    pub params: Parameters,
    pub stats: Stats,
    /// Parts that have just forgotten for the first time, not yet reported with a move.
    pub forgot: Vec<usize>,
}

impl Bell {
    pub fn new(options: Options) -> Bell {
        let params = options.fixed_parameters.clone().unwrap_or_default();
        Bell {
            memory: Memory::with_layout(options.split, options.table, options.characteristic_index),
            records: Records::default(),
            params,
            stats: Stats::default(),
            forgot: Vec::new(),
            options,
        }
    }

    /// The look-ahead as a configuration of the α-β skeleton, for a root after the game's
    /// turns `prefix`.
    pub fn config(&self, prefix: Vec<Vec<u8>>) -> Config<BellValue<'_>> {
        self.config_in(prefix, false)
    }

    /// The look-ahead's configuration in a game where the machine has said `i will win`
    /// (`claimed`) or not. Once it has, the parameters take no part (issue 29, our design:
    /// docs/bell.md "A claim is played out"): the claim was proved by the rules and the memory
    /// alone, so a look-ahead that sees only those accepts a proven victory, never a
    /// parameter's near-win met before it, and the proven line is followed.
    pub fn config_in(&self, prefix: Vec<Vec<u8>>, claimed: bool) -> Config<BellValue<'_>> {
        let params = (self.options.parameters_on() && !claimed).then_some(&self.params);
        let config = bell_config(
            BellValue {
                memory: Some(&self.memory),
                params,
                prefix,
                mirror: self.options.mirror || self.options.loss_characteristics,
                judged: Cell::new(false),
            },
            self.options.order,
            self.options.cutoff,
        );
        Config {
            budget: self.options.budget.map(|positions| search::Budget {
                positions: positions.into(),
                loss: -WIN,
                shallow: self.options.cap.map(Into::into),
            }),
            floor: self.options.floor.then_some(WIN),
            lost_first: self.options.lost_first,
            ..config
        }
    }

    /// What the memory says of `b` (machine to move) after the game's turns `prefix`.
    pub fn recall(&self, b: &Board, prefix: &[Vec<u8>]) -> Option<Outcome> {
        let part = self.memory.part(prefix)?;
        self.memory.lookup(part, b).map(|e| e.outcome)
    }

    /// The 1½-move look-ahead from `b` (machine to move) after the game's turns `prefix`.
    pub fn look_ahead(&self, b: &Board, prefix: &[Vec<u8>]) -> Option<Report> {
        self.look_ahead_proof(b, prefix).map(|(r, _)| r)
    }

    /// The look-ahead, and whether its value is a proof: no parameter decided any position it
    /// examined (the rules and the memory only).
    pub fn look_ahead_proof(&self, b: &Board, prefix: &[Vec<u8>]) -> Option<(Report, bool)> {
        self.look_ahead_in(b, prefix, false)
    }

    /// The same in a game where the machine has said `i will win` (`claimed`): without the
    /// parameters ([`Bell::config_in`]).
    pub fn look_ahead_in(
        &self,
        b: &Board,
        prefix: &[Vec<u8>],
        claimed: bool,
    ) -> Option<(Report, bool)> {
        let config = self.config_in(prefix.to_vec(), claimed);
        let r = search::search(b, 0, &config, false)?;
        Some((r, !config.value.judged.get()))
    }

    /// The machine's turn in `game` (the machine to move): look ahead, learn from a win or a
    /// loss it sees, and play (or resign).
    pub fn machine_turn(&mut self, game: &mut Game) -> Result<MachineMove, TurnError> {
        if game.over() || game.board.to_move != MACHINE {
            return Err(TurnError::Move(MoveError::GameOver));
        }
        let b = game.board;
        let n = game.turns.len();
        let prefix = game.prefix(n);
        game.machine.push((b, n));
        let (r, proven) = self
            .look_ahead_in(&b, &prefix, game.claimed_win)
            .expect("the game is not over");
        self.stats.effort_first += r.effort;
        self.stats.lookups += r.lookups;
        let mut says = None;
        if r.value >= WIN {
            // "If it wins it only records its present position and tags it as a winner"; it
            // says so (and stores it) only when the win is proven, not a parameter's near-win.
            self.learn_from(&b, &prefix, Some((&r, proven)), false);
            if proven && !game.claimed_win {
                game.claimed_win = true;
                says = Some(Say::WillWin);
            }
        } else if r.value <= -WIN {
            self.learn_from(&b, &prefix, Some((&r, proven)), false);
            // The resignation is typed at once and the back-track analysis follows it (issue
            // 29: it took up to 20 s before `i resign`), as Bell's program learnt after it had
            // lost (IV.3, "If, however, it loses, it attempts 1. to find out why"). The memory
            // is what it was with the analysis first; only what is typed when changes.
            let forgot = std::mem::take(&mut self.forgot);
            if !game.analysed {
                game.analysed = true;
                self.backtrack(game);
            }
            if self.options.resign {
                game.resigned = true;
                return Ok(MachineMove {
                    turn: Vec::new(),
                    value: r.value,
                    effort: r.effort,
                    says: Some(Say::Resigns),
                    forgot,
                    forgot_after: std::mem::take(&mut self.forgot),
                });
            }
            self.forgot.splice(0..0, forgot);
        }
        // Play the look-ahead's turn; if it stops inside the turn (a decided position reached
        // by a continuation move), look ahead again from there.
        let mut turn = Vec::new();
        let mut c = b;
        let mut next = r.turn.clone();
        while c.to_move == MACHINE && !c.is_terminal() {
            if next.is_empty() {
                // The claim may have been made by this turn's first look-ahead: from here on
                // the look-ahead is without the parameters (the continuation position the
                // claim reached is one the memory holds as won, proved without them).
                let again = self
                    .look_ahead_in(&c, &prefix, game.claimed_win)
                    .map(|(r, _)| r);
                self.stats.effort_again += again.as_ref().map_or(0, |r| r.effort);
                self.stats.lookups += again.as_ref().map_or(0, |r| r.lookups);
                next = again
                    .map(|r| r.turn)
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| self.first_turn(&c));
            }
            for m in std::mem::take(&mut next) {
                if c.to_move != MACHINE || c.is_terminal() {
                    break;
                }
                c.play(m).map_err(TurnError::Move)?;
                turn.push(m);
            }
        }
        game.play(&turn)?;
        Ok(MachineMove {
            turn,
            value: r.value,
            effort: r.effort,
            says,
            forgot: std::mem::take(&mut self.forgot),
            forgot_after: Vec::new(),
        })
    }

    fn first_turn(&self, b: &Board) -> Vec<u8> {
        let mut turn = Vec::new();
        let mut c = *b;
        while c.to_move == MACHINE && !c.is_terminal() {
            let m = self
                .options_order()
                .static_moves(&c, Capture::Standard)
                .first()
                .copied()
                .expect("a move");
            turn.push(m);
            c.play(m).expect("legal");
        }
        turn
    }

    fn options_order(&self) -> Order {
        bell_order_param(self.options.order)
    }

    /// The end of a game: its positions go into the records and the parameters are
    /// recalculated (when learned).
    pub fn finish(&mut self, game: &Game) {
        let Some(result) = game.result() else {
            return;
        };
        self.records.add(&game.positions, result);
        self.relearn_parameters();
    }

    /// The parameters from the game records, when they are learned (not fixed): after every
    /// game, and when a memory tape brings records.
    pub(super) fn relearn_parameters(&mut self) {
        if self.options.parameters && self.options.fixed_parameters.is_none() {
            self.params = Parameters::from_records(&self.records, self.options.draws_as_wins);
            if !self.options.near_losses {
                self.params.near_loss = [None; 37];
            }
        }
    }

    /// The back-track analysis after the loss seen at the game's last machine position: from
    /// the machine's position one move before, every position two plies below it (the
    /// machine's turns and the person's replies) is evaluated by the look-ahead and stored if
    /// decided, then that position itself; then the previous position of the game is recalled
    /// and the same done there, until [`Options::backtrack_nodes`] positions have been
    /// evaluated or the game's start is reached.
    pub fn backtrack(&mut self, game: &Game) {
        self.stats.backtracks += 1;
        let mut budget = self.options.backtrack_nodes;
        let store = self.options.backtrack_store;
        let region = store == BacktrackStore::Region;
        // The analysis belongs to the game: after a claim its look-aheads too are without the
        // parameters (as the program's, which sees the game's claim in `dcd`).
        let claimed = game.claimed_win;
        let last = game.machine.len() - 1;
        for i in (0..last).rev() {
            let (g, n) = game.machine[i];
            let prefix = game.prefix(n);
            if store == BacktrackStore::Line {
                if budget == 0 {
                    break;
                }
                let spent = self.learn_counted(&g, &prefix, true, claimed);
                budget = budget.saturating_sub(spent);
                continue;
            }
            'region: for (t, after_t) in turns(&g) {
                if after_t.is_terminal() {
                    continue;
                }
                for (r, after_r) in turns(&after_t) {
                    if after_r.is_terminal() || after_r.to_move != MACHINE {
                        continue;
                    }
                    if budget == 0 {
                        break 'region;
                    }
                    let mut p = prefix.clone();
                    p.push(t.clone());
                    p.push(r);
                    p.truncate(2);
                    let spent = self.learn_counted(&after_r, &p, region, claimed);
                    budget = budget.saturating_sub(spent);
                }
                if self.options.mirror && budget > 0 {
                    // The position after the machine's turn, from the person's side.
                    let mut p = prefix.clone();
                    p.push(t.clone());
                    p.truncate(2);
                    let spent = self.learn_counted(&mirror(&after_t), &p, region, claimed);
                    budget = budget.saturating_sub(spent);
                }
            }
            self.learn_from(&g, &prefix, None, claimed);
            if budget == 0 {
                break;
            }
        }
    }

    /// One evaluation of the back-track analysis: look ahead from `b`, store it if decided
    /// (a win only if `wins`), and return what it spent of the count
    /// ([`Options::backtrack_count`]).
    fn learn_counted(&mut self, b: &Board, prefix: &[Vec<u8>], wins: bool, claimed: bool) -> u32 {
        self.stats.backtrack_nodes += 1;
        let Some((r, proven)) = self.look_ahead_in(b, prefix, claimed) else {
            return 1;
        };
        self.stats.effort_learn += r.effort;
        self.stats.lookups += r.lookups;
        if r.value >= WIN && wins && proven {
            self.store(b, prefix, Outcome::Win, &r.turn);
        } else if r.value <= -WIN {
            self.store(b, prefix, Outcome::Loss, &r.turn);
        }
        match self.options.backtrack_count {
            BacktrackCount::Positions => 1,
            BacktrackCount::Effort => u32::try_from(r.effort).unwrap_or(u32::MAX).max(1),
        }
    }

    /// Evaluate `b` (machine to move) by the look-ahead (or take the report given, with
    /// whether it is a proof) and store it if it is decided and not known already; a win only
    /// when proven (issue 29: a win a parameter gave, once stored, would be recalled as
    /// certain).
    fn learn_from(
        &mut self,
        b: &Board,
        prefix: &[Vec<u8>],
        report: Option<(&Report, bool)>,
        claimed: bool,
    ) {
        let (r, proven) = match report {
            Some((r, p)) => (r.clone(), p),
            None => match self.look_ahead_in(b, prefix, claimed) {
                Some(r) => {
                    self.stats.effort_learn += r.0.effort;
                    self.stats.lookups += r.0.lookups;
                    r
                }
                None => return,
            },
        };
        if r.value >= WIN && !proven {
            return;
        }
        let outcome = if r.value >= WIN {
            Outcome::Win
        } else if r.value <= -WIN {
            Outcome::Loss
        } else {
            return;
        };
        self.store(b, prefix, outcome, &r.turn);
    }

    /// Store `b` as won or lost, unless it is not a 3-in-a-pit position, the machine's kalah
    /// is past the cut, it is decided by the rules, the memory knows it or a parameter
    /// gives the same outcome. A win by the machine's own turn is stored as its characteristic when
    /// characteristics are on.
    pub fn store(&mut self, b: &Board, prefix: &[Vec<u8>], outcome: Outcome, turn: &[u8]) {
        if b.stones() != TOTAL as u32 || b.kalah(MACHINE) > KALAH_CUT || end_value(b).is_some() {
            return;
        }
        let Some(part) = self.memory.part(prefix) else {
            return;
        };
        let known = self.memory.lookup(part, b).map(|e| e.outcome);
        if known == Some(outcome) {
            return;
        }
        // A relation that already says so makes the entry unneeded ("the memory drops"); one
        // that says otherwise is overruled by the entry (the memory is looked at first).
        if self.options.parameters_on() && self.params.judge(b) == Some(outcome) {
            return;
        }
        if outcome == Outcome::Loss
            && known.is_none()
            && self.options.characteristics
            && self.options.loss_characteristics
        {
            let rules_lost = |x: &Board| end_value(x).is_some_and(|v| v <= -WIN);
            let wins = opponent_wins(&self.memory.parts[part], b, rules_lost)
                .filter(|w| w.iter().all(|e| e.kalah <= KALAH_CUT));
            if let Some(wins) = wins {
                for e in wins {
                    self.put(part, e);
                }
                return;
            }
        }
        let entry = match outcome {
            Outcome::Win if self.options.characteristics => {
                characteristic(b, turn).or_else(|| Entry::exact(b, outcome))
            }
            _ => Entry::exact(b, outcome),
        };
        let Some(entry) = entry else {
            return;
        };
        if known.is_some() {
            // The memory held the other outcome: a win believed through a parameter that the
            // look-ahead now finds lost (our correction; see docs/bell.md).
            self.memory.correct(part, b, entry);
            self.stats.corrected += 1;
            return;
        }
        self.put(part, entry);
    }

    /// Put `entry` in part `part` of the memory, counting it, and the entry forgotten if the
    /// part was full.
    fn put(&mut self, part: usize, entry: Entry) {
        let stored = self.memory.store(part, entry);
        if stored != Stored::Forgot(entry) {
            match entry.outcome {
                Outcome::Win => self.stats.won += 1,
                Outcome::Loss => self.stats.lost += 1,
            }
            if entry.is_characteristic() {
                self.stats.characteristic += 1;
            }
            if let Stored::Spilled(_) = stored {
                self.stats.spilled += 1;
            }
        }
        if let Stored::Forgot(e) = stored {
            if e.outcome == Outcome::Loss {
                self.stats.forgot_losses += 1;
            }
            // Never silent: the first time a part forgets, the machine says so.
            self.memory.overflow += 1;
            if !std::mem::replace(&mut self.memory.told[part], true) {
                self.forgot.push(part);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "it will play the higher order games, it does not record them": nothing of a game with
    /// other than 3 stones a pit is stored or counted.
    #[test]
    fn only_three_in_a_pit_is_recorded() {
        let mut bell = Bell::new(Options::default());
        let mut b = Board::new(4);
        b.to_move = MACHINE;
        bell.store(&b, &[vec![1], vec![1]], Outcome::Loss, &[]);
        assert!(bell.memory.is_empty());
        let mut b3 = Board::new(3);
        b3.to_move = MACHINE;
        bell.store(&b3, &[vec![1], vec![1]], Outcome::Loss, &[]);
        assert_eq!(bell.memory.len(), 1);
        bell.records.add(&[b], GameResult::Won);
        assert_eq!(bell.records.games, 0);
        let v = BellValue {
            memory: Some(&bell.memory),
            params: None,
            prefix: vec![vec![1], vec![1]],
            mirror: false,
            judged: Cell::new(false),
        };
        assert_eq!(v.decided(&b3), Some(-WIN));
        // With the sides exchanged, the same entry is a win for a person to move there.
        let v = BellValue { mirror: true, ..v };
        assert_eq!(v.decided(&mirror(&b3)), Some(WIN));
    }

    /// A stored win that the look-ahead later finds lost is corrected in place.
    #[test]
    fn a_contradicted_entry_is_corrected() {
        let mut bell = Bell::new(Options::default());
        let mut b = Board::new(3);
        b.to_move = MACHINE;
        let p = [vec![1], vec![1]];
        bell.store(&b, &p, Outcome::Win, &[]);
        assert_eq!(bell.recall(&b, &p), Some(Outcome::Win));
        bell.store(&b, &p, Outcome::Loss, &[]);
        assert_eq!(bell.recall(&b, &p), Some(Outcome::Loss));
        assert_eq!((bell.memory.len(), bell.stats.corrected), (1, 1));
    }
}
