//! The teachers: Figure 8 of A. G. Bell, "Kalah on Atlas", *Machine Intelligence 3* (1968),
//! and the scripted opponent of docs/bell.md's "Never beaten twice".
//!
//! * Figure 8's teaching ([`teach`]): a person who never loses ([`Teacher`], a proof search
//!   with a [`Strategy`] to pick among its winning turns) beats the machine after Russell's
//!   opening until the machine's first reply is no longer the one it lost with (Bell: M3-M2).
//! * The scripted person of the never-beaten-twice runs ([`DecOpponent`]): the DEC program's
//!   search after a few random turns, the same game for game in the reference's test and the
//!   PDP-1 program's; or issue 29's opponent ([`DecOpponent::issue`]): α-β of 6–8 sowings,
//!   random among equal moves.

use super::memory::{RUSSELL_OPENING, STONES};
use super::notation::{turns, MACHINE, PERSON};
use super::player::{end_value, turn_values, Bell, BellValue, Game, WIN};
use crate::board::Board;
use crate::search;
use crate::solve::Prover;
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------------
// Teaching (Figure 8)

/// How the teacher picks among its winning turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The winning turn with the smallest proof (a fresh proof search's count of positions).
    SmallestProof,
    /// The first winning turn in Bell's list order.
    FirstWinning,
    /// The winning turn that leaves the machine the fewest turns (then the smallest proof):
    /// a narrower tree for the machine to learn (a study of Figure 8's sizes, docs/bell.md).
    FewestReplies,
    /// The winning turn after which the machine's 1½-move look-ahead with an empty memory
    /// values its position lowest (then the smallest proof): the quickest crush its look-ahead
    /// can see (the same study).
    Crushing,
    /// The winning turn whose proof needs the fewest entries in the machine's memory (then the
    /// smallest proof, then list order): the teacher of Figure 8 who plays "the program through
    /// moves it had still not analysed" so that it has the least to learn (the same study).
    ///
    /// The cost ([`Teacher::entries`]) is the number of machine positions the memory must hold
    /// before the machine's 1½-move look-ahead, from the position before the teacher's turn,
    /// sees the loss. The look-ahead sees two turns below a machine position and evaluates the
    /// third, so a machine position M one person turn below is known lost when it is stored, or
    /// when every machine turn from M ends the game lost for it (decided by the rules: the person
    /// holds more than half, or the game is over). So:
    ///
    /// * known(M) = 0 if M is decided lost, or every machine turn from M ends in a decided loss;
    ///   else 1 (M is stored) + the sum over the machine's turns t from M of known(P after t);
    /// * known(P), the person to move = 0 if P is decided lost for the machine; else the least
    ///   known(M') over the person's winning turns to M' ([`Prover`] says which win).
    ///
    /// A position stored must be seen lost by the look-ahead first, which is what the sum asks:
    /// each machine turn from M leads to a person position with a known-lost reply. The count
    /// is of a tree, not of the distinct positions: a position reached by two lines is counted
    /// twice (the exact count of distinct positions is a much harder minimisation), so it is
    /// an upper bound of the entries the chosen proof needs. It ignores the back-track
    /// analysis, characteristics and parameters: it is the memory of a teacher who could make
    /// the machine learn exactly the positions it needs (`IDEAL=1` in the example).
    ///
    /// The whole recursion is too expensive: from the position after Russell's opening and
    /// M3-M2 it ran more than eight minutes without an answer. So it looks [`Teacher::entries_depth`]
    /// machine turns below the teacher's turn ([`ENTRIES_DEPTH`], 3), and a machine position at
    /// the horizon that is not yet known lost counts 1 (it must at least be stored). The
    /// bounded cost is therefore a lower bound of the tree count above: the entries the proof
    /// needs within the horizon, each position left open there counted once. From the
    /// position after M3-M2 it is 1, 9, 37, 118, 256, 393 at horizons 0 to 5 (the last took
    /// two minutes). The teacher decides again at each of its positions, with the horizon
    /// moved down.
    ///
    /// Within the horizon the minimum is exact: a depth-first branch-and-bound (a person
    /// position's best turn so far bounds its other turns, and a machine position's sum so far
    /// bounds its remaining turns), memoised on the position and the depth left (exact costs,
    /// and lower bounds from cut-off searches). Its expansions are counted in
    /// [`Teacher::cost_nodes`].
    FewestEntries,
}

/// A person who never loses: a proof search ([`Prover`]) plays, at each of its positions, one
/// winning turn, always the same (a proof needs one reply at each of the person's positions;
/// the machine's own deviations after each loss cover its alternatives).
pub struct Teacher {
    pub strategy: Strategy,
    prover: Prover,
    chosen: HashMap<Board, Vec<u8>>,
    /// [`Strategy::FewestEntries`]'s costs of machine positions: the cost, and whether it is
    /// exact (else a lower bound).
    costs: HashMap<(Board, u32), (u32, bool)>,
    /// Machine positions whose cost was computed (searched, not recalled).
    pub cost_nodes: u64,
    /// [`Strategy::FewestEntries`]'s horizon: the machine turns below the teacher's turn
    /// that its cost looks at ([`ENTRIES_DEPTH`]).
    pub entries_depth: u32,
}

/// [`Strategy::FewestEntries`]'s horizon, in machine turns below the teacher's turn.
pub const ENTRIES_DEPTH: u32 = 3;

/// The size of the person's proof from `b`: the positions a fresh proof search examines (the
/// teachers' tie-break, and [`Strategy::SmallestProof`]'s measure).
fn proof_size(b: &Board) -> u64 {
    let mut p = Prover::new();
    p.wins(b, PERSON);
    p.nodes
}

/// Decided lost for the machine by the rules alone (Bell's value function's −WIN).
fn rules_lost(b: &Board) -> bool {
    end_value(b).is_some_and(|v| v <= -WIN)
}

impl Teacher {
    pub fn new(strategy: Strategy) -> Teacher {
        Teacher {
            strategy,
            prover: Prover::new(),
            chosen: HashMap::new(),
            costs: HashMap::new(),
            cost_nodes: 0,
            entries_depth: ENTRIES_DEPTH,
        }
    }

    /// The entries the machine's memory needs before its look-ahead sees that `b` is lost
    /// ([`Strategy::FewestEntries`]'s cost): of `b` itself if the machine is to move (0 if its
    /// look-ahead one turn above would see the loss unaided), of the person's best winning
    /// turn otherwise. `u32::MAX` if the person cannot win from `b`.
    pub fn entries(&mut self, b: &Board) -> u32 {
        if !self.prover.wins(b, PERSON) {
            return u32::MAX;
        }
        let d = self.entries_depth;
        if b.to_move == MACHINE && !b.is_terminal() {
            self.known_machine(b, d, u32::MAX)
        } else {
            self.known_person(b, d, u32::MAX)
        }
    }

    /// known(M), exact if below `bound`, else some value ≥ `bound`. `m`: the machine to move,
    /// the person winning.
    fn known_machine(&mut self, m: &Board, depth: u32, bound: u32) -> u32 {
        if m.is_terminal() || rules_lost(m) {
            return 0;
        }
        if bound == 0 {
            return 0;
        }
        if let Some(&(v, exact)) = self.costs.get(&(*m, depth)) {
            if exact || v >= bound {
                return v;
            }
        }
        self.cost_nodes += 1;
        let after = turns(m);
        let v = if after.iter().all(|(_, p)| p.is_terminal() || rules_lost(p)) {
            0
        } else if depth == 0 {
            1
        } else {
            let mut sum = 0u32;
            for (_, p) in &after {
                if sum >= bound - 1 {
                    break;
                }
                sum = sum.saturating_add(self.known_person(p, depth - 1, bound - 1 - sum));
            }
            sum.saturating_add(1)
        };
        self.costs.insert((*m, depth), (v, v < bound));
        v
    }

    /// known(P), exact if below `bound`, else some value ≥ `bound`. `p`: after a machine turn.
    fn known_person(&mut self, p: &Board, depth: u32, bound: u32) -> u32 {
        if p.is_terminal() || rules_lost(p) {
            return 0;
        }
        let mut best = bound;
        for (_, c) in turns(p) {
            if best == 0 {
                break;
            }
            if !self.prover.wins(&c, PERSON) {
                continue;
            }
            best = best.min(self.known_machine(&c, depth, best));
        }
        best
    }

    /// The teacher's turn in `b` (the person to move); `None` if it has no winning turn.
    pub fn turn(&mut self, b: &Board) -> Option<Vec<u8>> {
        if let Some(t) = self.chosen.get(b) {
            return Some(t.clone());
        }
        let wins: Vec<(Vec<u8>, Board)> = turns(b)
            .into_iter()
            .filter(|(_, c)| self.prover.wins(c, PERSON))
            .collect();
        let t = match self.strategy {
            Strategy::FirstWinning => wins.first(),
            Strategy::SmallestProof => wins.iter().min_by_key(|(_, c)| proof_size(c)),
            Strategy::FewestReplies => wins
                .iter()
                .min_by_key(|(_, c)| (turns(c).len(), proof_size(c))),
            Strategy::Crushing => wins.iter().min_by_key(|(_, c)| {
                let seen = if c.to_move == MACHINE && !c.is_terminal() {
                    turn_values(c, &BellValue::plain())
                        .into_iter()
                        .map(|(_, v)| v)
                        .max()
                        .unwrap_or(-WIN)
                } else {
                    -WIN
                };
                (seen, proof_size(c))
            }),
            Strategy::FewestEntries => {
                // The least cost first (each bounded by the best so far, plus one to see ties),
                // then the smallest proof among the least, then list order.
                let mut best = u32::MAX;
                let mut costs = Vec::with_capacity(wins.len());
                for (_, c) in &wins {
                    let v = self.known_machine(c, self.entries_depth, best.saturating_add(1));
                    best = best.min(v);
                    costs.push(v);
                }
                wins.iter()
                    .zip(&costs)
                    .filter(|(_, &v)| v == best)
                    .map(|(w, _)| w)
                    .min_by_key(|(_, c)| proof_size(c))
            }
        }?
        .0
        .clone();
        self.chosen.insert(*b, t.clone());
        Some(t)
    }
}

/// Figure 8's teaching: the person opens with Russell's move and the teacher beats the machine
/// until its first decision is no longer `reply` (Bell: M3-M2); the games it took, or `None`
/// after `max_games` (or if the teacher cannot win). `progress` is called after every game.
pub fn teach(
    bell: &mut Bell,
    teacher: &mut Teacher,
    reply: &[u8],
    max_games: usize,
    mut progress: impl FnMut(usize, &Bell, &Game),
) -> Option<usize> {
    for game in 0..max_games {
        let mut g = Game::new(false);
        g.play(&RUSSELL_OPENING).ok()?;
        while !g.over() {
            if g.board.to_move == MACHINE {
                let m = bell.machine_turn(&mut g).ok()?;
                if g.machine.len() == 1 && m.turn != reply {
                    return Some(game);
                }
            } else {
                let t = teacher.turn(&g.board)?;
                g.play(&t).ok()?;
            }
        }
        bell.finish(&g);
        progress(game, bell, &g);
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Never beaten twice: the scripted opponent

/// How the scripted opponent plays one game of a never-beaten-twice run (docs/bell.md, "Never
/// beaten twice").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecGame {
    /// The machine opens; otherwise the person opens with Russell's move.
    pub machine_first: bool,
    /// The DEC program's search depth.
    pub depth: u32,
    /// The person's turns after its first (or from its first, when the machine opens) played
    /// at random, so that the games differ.
    pub randoms: usize,
}

impl DecGame {
    /// A game of issue 29's benchmark (`tests/tests/bell_benchmark.rs`, the `bell_session`
    /// example): whether the machine opens (a quarter of the games), and the game. When the
    /// person opens, it is with Russell's P2 in 40 % of the games, else with a random turn (a
    /// game the opponent opens otherwise is given to it as one the machine opened, so that its
    /// first turn is random); depths 2–5, one to three random turns. `below(n)` is a random
    /// number below `n`.
    pub fn benchmark(mut below: impl FnMut(u64) -> u64) -> (bool, DecGame) {
        let machine_first = below(4) == 0;
        let russell = !machine_first && below(10) < 4;
        let game = DecGame {
            machine_first: !russell,
            depth: 2 + below(4) as u32,
            randoms: 1 + below(3) as usize,
        };
        (machine_first, game)
    }

    /// Game `n` of a run: the machine opens every third game, depths 2–5 in turn, one to three
    /// random turns.
    pub fn nth(n: usize) -> DecGame {
        DecGame {
            machine_first: n.is_multiple_of(3),
            depth: 2 + (n % 4) as u32,
            randoms: 1 + n % 3,
        }
    }

    /// A game of the benchmark against issue 29's opponent ([`DecOpponent::issue`]): the
    /// machine opens a quarter of the games, as [`DecGame::benchmark`]; the person opens the
    /// others with Russell's P2 in 40 % of them, else (`machine_first` set, as there) with
    /// another first sowing at random; its search is 6, 7 or 8 sowings deep, one of them at
    /// random, and it plays no turn at random (its randomness is the choice among equal moves).
    pub fn issue(mut below: impl FnMut(u64) -> u64) -> (bool, DecGame) {
        let machine_first = below(4) == 0;
        let russell = !machine_first && below(10) < 4;
        let game = DecGame {
            machine_first: !russell,
            depth: ISSUE_DEPTHS.start + below(ISSUE_DEPTHS.len() as u64) as u32,
            randoms: 0,
        };
        (machine_first, game)
    }
}

/// The search depths of issue 29's opponent, in sowings: "an α-β player of 6–8 sowings".
pub const ISSUE_DEPTHS: std::ops::Range<u32> = 6..9;

/// What the replay of a lost game found (issue 29's benchmark): the machine played as before up
/// to its position one move before the loss, or played as before and then resigned sooner than
/// it had lost (the person's line beat it again, sooner), or played otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replayed {
    Repeated,
    ResignedSooner,
    Deviated,
}

impl Replayed {
    /// The replay `again` of the lost game `lost`, whose machine first played otherwise at its
    /// position `deviated` (from 0; `None` if it never did).
    pub fn of(lost: &Game, deviated: Option<usize>, again: &Game) -> Replayed {
        if deviated.is_none_or(|d| d + 1 >= lost.machine.len()) {
            Replayed::Repeated
        } else if again.resigned {
            Replayed::ResignedSooner
        } else {
            Replayed::Deviated
        }
    }
}

/// Replays counted by what they found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayTally {
    pub replays: usize,
    /// The machine played as before up to its position one move before the loss.
    pub repeats: usize,
    /// It played as before and then resigned sooner than it had lost.
    pub resigned_sooner: usize,
}

impl ReplayTally {
    /// Count a replay ([`Replayed::of`]'s arguments) and return what it found.
    pub fn add(&mut self, lost: &Game, deviated: Option<usize>, again: &Game) -> Replayed {
        let found = Replayed::of(lost, deviated, again);
        self.replays += 1;
        match found {
            Replayed::Repeated => self.repeats += 1,
            Replayed::ResignedSooner => self.resigned_sooner += 1,
            Replayed::Deviated => {}
        }
        found
    }
}

/// The scripted person of the never-beaten-twice tests: the DEC program's search
/// ([`search::choose`]) at a [`DecGame`]'s depth, its first turns at random. The random numbers
/// are a linear congruential generator of its own (Knuth's MMIX constants), so that a run is
/// the same game for game in the reference's test (`crates/kalah/tests/bell.rs`) and the PDP-1
/// program's (`tests/tests/bell_never_twice.rs`).
#[derive(Clone, Debug)]
pub struct DecOpponent {
    state: u64,
    /// Issue 29's opponent instead of the DEC program's search ([`DecOpponent::issue`]).
    issue: bool,
}

impl DecOpponent {
    pub fn new(seed: u64) -> DecOpponent {
        DecOpponent {
            state: seed,
            issue: false,
        }
    }

    /// Issue 29's opponent, as its author describes the one he played `roms/bell.rim` against:
    /// "an α-β player of 6–8 sowings with random choice among equal moves, opening with P2 in
    /// 40 % of games". Our reading (docs/bell.md, "The issue's opponent"): a sowing is one ply
    /// (a sowing that ends in the kalah is a ply too, and the same side sows again), so each
    /// sowing of its turn is chosen by a search of [`DecGame::depth`] sowings (6–8, a game of
    /// [`DecGame::issue`]) valued by the kalahs' difference (the remaining counters to their
    /// owners at the end of the game); among the sowings of equal value one at random. When it
    /// opens and not with P2, its first sowing is one of the others at random.
    pub fn issue(seed: u64) -> DecOpponent {
        DecOpponent {
            state: seed,
            issue: true,
        }
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.state >> 33) as usize) % n
    }

    /// The person's whole turn in `b` (the person to move), its `n`th of the game (from 0).
    pub fn turn(&mut self, game: &DecGame, b: &Board, n: usize) -> Vec<u8> {
        if n == 0 && !game.machine_first {
            return RUSSELL_OPENING.to_vec();
        }
        if self.issue {
            return self.issue_turn(game, b, n);
        }
        if n <= game.randoms {
            let ts = turns(b);
            return ts[self.below(ts.len())].0.clone();
        }
        let mut c = *b;
        let mut t = Vec::new();
        while c.to_move == PERSON && !c.is_terminal() {
            let Some(m) = search::choose(&c, 0, &search::Settings::new(game.depth)).map(|r| r.best)
            else {
                break;
            };
            if c.play(m).is_err() {
                break;
            }
            t.push(m);
        }
        t
    }
    /// Issue 29's opponent's turn ([`DecOpponent::issue`]).
    fn issue_turn(&mut self, game: &DecGame, b: &Board, n: usize) -> Vec<u8> {
        let mut start = Board::new(STONES);
        start.to_move = PERSON;
        let opens = n == 0 && *b == start;
        let mut c = *b;
        let mut t = Vec::new();
        while c.to_move == PERSON && !c.is_terminal() {
            let choices: Vec<u8> = if opens && t.is_empty() {
                c.legal_moves()
                    .into_iter()
                    .filter(|m| [*m] != RUSSELL_OPENING)
                    .collect()
            } else {
                best_sowings(&c, game.depth)
            };
            let m = choices[self.below(choices.len())];
            c.play(m).expect("a legal sowing");
            t.push(m);
        }
        t
    }
}

/// The sowings of the side to move in `b` (not over) of the greatest value by a search
/// `depth` sowings deep ([`sowing_value`]), pit 1 first. After the first, each is searched with
/// the window just below the best so far, which tells a worse sowing from an equal one.
fn best_sowings(b: &Board, depth: u32) -> Vec<u8> {
    let mut best = Vec::new();
    let mut value = i32::MIN;
    for m in b.legal_moves() {
        let (c, _) = b.after(m).expect("legal");
        let floor = if best.is_empty() {
            -SOWING_INF
        } else {
            value - 1
        };
        let v = mover_value(b, &c, depth.saturating_sub(1), floor, SOWING_INF);
        if v > value {
            (value, best) = (v, vec![m]);
        } else if v == value {
            best.push(m);
        }
    }
    best
}

/// More than any value of [`sowing_value`].
const SOWING_INF: i32 = 1000;

/// The value of `c`, reached by a sowing from `b`, for the side to move in `b`, in the window
/// (`alpha`, `beta`).
fn mover_value(b: &Board, c: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
    if c.to_move == b.to_move {
        sowing_value(c, depth, alpha, beta)
    } else {
        -sowing_value(c, depth, -beta, -alpha)
    }
}

/// Fail-hard α-β over single sowings for the side to move in `b`: its kalah less the other's
/// `depth` sowings on (a sowing ending in the kalah is one, and the same side sows again), or
/// at the end of the game with the remaining counters in their owners' kalahs.
fn sowing_value(b: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let sign = if b.to_move == MACHINE { 1 } else { -1 };
    if depth == 0 || b.is_terminal() {
        return sign * b.utility();
    }
    for m in b.legal_moves() {
        let (c, _) = b.after(m).expect("legal");
        let v = mover_value(b, &c, depth - 1, alpha, beta);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax over single sowings, the definition [`sowing_value`] computes by α-β.
    fn minimax(b: &Board, depth: u32) -> i32 {
        let sign = if b.to_move == MACHINE { 1 } else { -1 };
        if depth == 0 || b.is_terminal() {
            return sign * b.utility();
        }
        b.legal_moves()
            .into_iter()
            .map(|m| {
                let (c, _) = b.after(m).expect("legal");
                let v = minimax(&c, depth - 1);
                if c.to_move == b.to_move {
                    v
                } else {
                    -v
                }
            })
            .max()
            .expect("a move")
    }

    /// Issue 29's opponent chooses among exactly the sowings of the greatest minimax value (ties
    /// included, which its narrowed windows must tell from worse sowings), on positions of
    /// random games.
    #[test]
    fn the_issue_opponent_chooses_among_the_best_sowings() {
        let mut rng = DecOpponent::new(5);
        let (mut positions, mut ties) = (0, 0);
        for game in 0..40 {
            let mut b = Board::new(STONES);
            while !b.is_terminal() {
                let depth = 1 + (game % 5) as u32;
                let values: Vec<(u8, i32)> = b
                    .legal_moves()
                    .into_iter()
                    .map(|m| {
                        let (c, _) = b.after(m).expect("legal");
                        let v = minimax(&c, depth - 1);
                        (m, if c.to_move == b.to_move { v } else { -v })
                    })
                    .collect();
                let best = values.iter().map(|v| v.1).max().expect("a move");
                let want: Vec<u8> = values.iter().filter(|v| v.1 == best).map(|v| v.0).collect();
                assert_eq!(best_sowings(&b, depth), want, "{b:?} depth {depth}");
                positions += 1;
                ties += usize::from(want.len() > 1);
                let moves = b.legal_moves();
                b.play(moves[rng.below(moves.len())]).expect("legal");
            }
        }
        assert!(positions > 500 && ties > 50, "{positions} {ties}");
    }
}
