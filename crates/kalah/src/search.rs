//! The search: one fail-hard α-β skeleton, parameterised by what differs between the Kalah
//! programs ([`Config`]): the rules ([`Rules`]), the value function ([`Evaluate`]), the move
//! order ([`Order`]), the depth counting ([`Levels`]), the window, gamma mode and what Russell's
//! program counts and types. The DEC game ([`choose`], [`Settings::config`]) and Russell's
//! analysis ([`crate::russell::Analysis::config`]) are configurations of it. The PDP-1 program
//! (roms/kalah.mac) implements exactly this algorithm, so that its chosen move, value, effort
//! counts and printouts can be checked against it.
//!
//! # Value (DEC note, "Internal behavior")
//! The value of a position P at level L: its value if P is decided ([`Evaluate::decided`]: in the
//! DEC game, the game is over and the value is the utility), its estimate if L = depth
//! ([`Evaluate::estimate`]: the DEC utility Ka − Kb); otherwise the maximum (A to move) or
//! minimum (B) over the moves, where with [`Levels::Turns`] a repeat move keeps the level and any
//! other move adds one. The root is at level 0.
//!
//! # α-β (Memo 22)
//! Russell's fail-hard form: a position at the search limit returns `max(α, min(β, value))`;
//! a node of A returns β as soon as a move reaches β and otherwise the final α; a node of B
//! symmetrically. Started with α = −INF, β = +INF it returns the exact value ([`minimax`]).
//!
//! # Move order
//! At a node of the main search ("long look") `moves_into_game` sowings into the game with `r`
//! levels left, the short-look depth is `s` = [`Order::look_depth`] (the DEC game: `min(table
//! depth for the node's moves-into-game, r − 1)`). If `s ≥ 1`, the moves are ordered by the
//! short look: an α-β search of depth `s` from the node (levels counted afresh from 0 there),
//! window (−INF, +INF), moves in static order, nodes below it in static order; each root move's
//! returned (fail-hard) value is recorded and the moves are stably sorted best first
//! (descending for A, ascending for B). Otherwise the static order ([`Order::static_moves`]; the
//! DEC game's is ORD, [`crate::order::static_order`]) is used. Nodes inside a short look always
//! use the static order.
//!
//! # Gamma mode
//! With [`Config::gamma`] = γ, at a main-search node ordered by the short look whose window has
//! α < 0 < β, if the best-ordered move's short-look value is ≥ β + γ (A) or ≤ α − γ (B), the node
//! returns β (A) or α (B) with that move as its best move and PV, searching nothing with the long
//! look (see [`crate::russell`]).
//!
//! # Effort (Russell's `e` and `p`)
//! Every call of the node procedure is one position examined: `effort` (e) counts them all,
//! `long_effort` (p) only those of the main search. The root counts unless
//! [`Config::count_root`] is off (Russell's program). The node being ordered is not counted again
//! by its short look; the short look's children and below are.
//!
//! # Principal variation and chosen move
//! Each main-search node at ply k returns a PV of at most [`PV_MAX`] − k sowings: the move that
//! last raised α (A) or lowered β (B), or cut off, followed by its child's PV. If none did, the
//! PV is empty, or with [`Config::first_pv`] the first move's. At the root the chosen move is the
//! move that last set the value, i.e. the first move in search order with the optimal value.
//!
//! # Trace hooks
//! With [`Config::lines`] the skeleton records Russell's printout lines (a reply turn below a
//! root turn, [`ReplyLine`]); traced ([`search`] with `trace`), every main-search leaf
//! ([`Leaf`]: SS3's variations, SS5's display markers) and the level of every main-search
//! position (the display of search depth against time).

/// Here for the paths that name it so (`kalah::search::Ply`, `kalah::russell::Ply`).
pub use crate::board::Ply;
use crate::board::{Board, Rules, Side};
use crate::order::{DepthEntry, LookDepth, Order, StaticOrder, TableKey, RUSSELL_TABLE};
use crate::value::{Evaluate, Valuation};
use crate::word18::{self, MASK};

/// Initial |α|, |β|: Russell's `ia = law i 377`, `ib = law 377` (octal 377 = 255).
pub const INF: i32 = 0o377;
/// Longest principal variation kept (sowings from the root).
pub const PV_MAX: usize = 24;

/// How levels are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Levels {
    /// A repeat move keeps the level: levels are turns (the DEC game, Russell).
    Turns,
    /// Every sowing is a level.
    Sowings,
}

/// Everything the α-β skeleton is parameterised by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config<E = Valuation> {
    pub rules: Rules,
    /// The value function.
    pub value: E,
    pub order: Order,
    pub levels: Levels,
    /// Levels searched below the root.
    pub depth: u32,
    /// The root's window.
    pub alpha: i32,
    pub beta: i32,
    /// Gamma mode's γ (Russell's option 2), or none.
    pub gamma: Option<i32>,
    /// The root is one of the positions examined (the DEC game; not in Russell's program).
    pub count_root: bool,
    /// A node where no move set the value returns its first move's PV, and a root with none
    /// plays its first static move (Russell's program; else the PV is empty and the root plays
    /// the first move searched).
    pub first_pv: bool,
    /// Record Russell's printout lines.
    pub lines: bool,
    /// When a move's value cuts off the rest of a node's moves ([`Cutoff`]).
    pub cutoff: Cutoff,
    /// The root is searched even when the value function calls it decided (Bell's program: its
    /// memory may know the position it must move from, and it still has to choose a move).
    pub search_root: bool,
    /// A move the root searches first, its other moves in their order after it (iterative
    /// deepening: the previous iteration's best move, `roms/kalah7.mac`'s `rbf`); nothing if
    /// it is not a legal move of the root.
    pub root_first: Option<u8>,
    /// A bound on the positions examined ([`Budget`]; Bell's program, issue 29), or none (every
    /// other program: their searches are bounded by depth alone).
    pub budget: Option<Budget>,
    /// No value lies beyond ±`floor` (Bell: `WIN`), or none. With it a node stops at its first
    /// child worth the extreme for its side (`floor` for the maximiser, −`floor` for the
    /// minimiser): no later move can change its value or its move, so only the positions
    /// examined differ. Ours (issue 29), off in every program: Bell's strict cut-off keeps the
    /// person's bound at −WIN − 1 and examines every reply of a lost turn (docs/bell.md, "Why
    /// lost turns are long").
    pub floor: Option<i32>,
    /// With [`Config::floor`]: at a main-search node of the root's opponent, the sowings that
    /// end its turn at a position the value function remembers as lost for the root side
    /// ([`Evaluate::remembered`], worth ∓`floor`) are searched first, the others in their order
    /// after them, so that the floor stops the node after one. Each such look-up is counted
    /// ([`Report::lookups`]): the program pays for them too. Ours (issue 29), off in every
    /// program.
    pub lost_first: bool,
}

/// A bound on a search's positions (Bell's program, issue 29: its look-ahead of whole turns has
/// no bound of its own, and at about 3 ms a position on the PDP-1 a turn took up to 17 s). On
/// the root's turn only (level 0: the root and the positions its continuation moves reach,
/// [`Levels::Turns`]), after each child's value has been taken by the α-β step: once
/// [`Report::effort`] has reached `positions` and the root side's best so far (α as the root
/// passes it down, or the node's own) is better than `loss`, the node stops as at a cut-off and
/// returns its best. So the search ends with the best of the turns it examined, and never stops
/// while every turn examined is worth `loss` or less (Bell's program: it cannot play a known loss
/// while an unexamined turn remains). Nothing below the root's turn stops, so nothing needs
/// unwinding beyond what a cut-off does.
///
/// [`Budget::shallow`] bounds what the rule above leaves unbounded, a root whose every turn
/// examined is lost (Bell's program: a resignation, the back-track analysis's look-aheads, and
/// a turn not lost found after many lost ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Positions examined (the effort, the root counted as [`Config::count_root`] says).
    pub positions: u64,
    /// The value of a lost root turn, from the maximiser's side (Bell: −WIN); for a minimising
    /// root its negation.
    pub loss: i32,
    /// The cap (ours, issue 29), or none: once [`Report::effort`] has reached it while the
    /// root side's best so far is `loss` or worse (every root turn examined lost, or none yet),
    /// every turn the search begins below the root's turn is searched as if
    /// [`Config::depth`] were one less (at least 1): in Bell's 3 plies, the position after
    /// the person's reply is judged ([`Evaluate::decided_at`]) or else valued
    /// ([`Evaluate::estimate`]) where the machine's next turn would have been searched — in
    /// the turn being examined and in the root's remaining turns. Checked where a turn begins
    /// (the child of a sowing that ends one), so no turn is cut in its middle; what was
    /// searched before keeps its full depth. A turn worth `loss` so is lost at full depth too
    /// when only proofs decide (the rules, a memory), so a root found lost is still lost; a
    /// turn better than a loss makes the bound stop the root at once when the cap is at least
    /// `positions` (the bound's rule), and else the search goes on at full depth.
    pub shallow: Option<u64>,
}

/// When a move's value cuts off the remaining moves of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cutoff {
    /// As soon as a move's value reaches the bound the node's parent has (fail-hard α-β with
    /// `v ≥ β`, `v ≤ α`: the DEC game, Russell).
    AtBound,
    /// Only when a move's value goes beyond the bound: Bell's Figure 3, "the first value it
    /// obtains (i.e. 7) is greater than the lowest value on level 2 (i.e. 6), and therefore can
    /// ignore all the remaining positions". With integer values this is α-β with the bound the
    /// node sets for its opponent's children moved one beyond its running value (a child of A
    /// gets (α − 1, β), a child of B (α, β + 1)), kept inside the root's window; a value equal
    /// to the bound is searched on. Moves and values are those of [`Cutoff::AtBound`]; only the
    /// positions examined differ.
    Beyond,
}

/// Search settings, the PDP-1 program's test-word fields in the DEC game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Level limit (turns; a repeat move does not count).
    pub depth: u32,
    /// Order moves by the short look (else static order everywhere).
    pub short_look: bool,
    /// The short-look depth table.
    pub table: Vec<DepthEntry>,
}

impl Settings {
    /// Depth `depth`, short look on with Russell's table.
    pub fn new(depth: u32) -> Settings {
        Settings {
            depth,
            short_look: true,
            table: RUSSELL_TABLE.to_vec(),
        }
    }
    /// Depth `depth`, static order only.
    pub fn static_only(depth: u32) -> Settings {
        Settings {
            depth,
            short_look: false,
            table: RUSSELL_TABLE.to_vec(),
        }
    }
    /// The DEC game as a configuration of the skeleton: DEC rules and utility, ORD, the short
    /// look from the table by moves into the game, levels in turns, the full window.
    pub fn config(&self) -> Config {
        Config {
            rules: Rules::DEC,
            value: Valuation::DEC,
            order: Order {
                static_order: StaticOrder::Ord,
                postpone: false,
                look: LookDepth::Table {
                    table: self.table.clone(),
                    key: TableKey::Moves,
                },
                look_a: self.short_look,
                look_b: self.short_look,
            },
            levels: Levels::Turns,
            depth: self.depth,
            alpha: -INF,
            beta: INF,
            gamma: None,
            count_root: true,
            first_pv: false,
            lines: false,
            cutoff: Cutoff::AtBound,
            search_root: false,
            root_first: None,
            budget: None,
            floor: None,
            lost_first: false,
        }
    }
}

/// The result of a DEC-game search from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The chosen move (pit 1..=6 of the side to move).
    pub best: u8,
    /// The root's value (exact minimax value of the note's definition).
    pub value: i32,
    /// Russell's `e`: all positions examined.
    pub effort: u64,
    /// Russell's `p`: positions examined by the main search.
    pub long_effort: u64,
}

/// One printout line: a reply turn below a root turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyLine {
    /// The root turn's sowings (`m…`).
    pub root: Vec<Ply>,
    /// The first line of this root turn (typed with the `m…-` label).
    pub first: bool,
    /// The reply turn and the rest of its PV (`r…`); empty when the root turn reached a leaf.
    pub reply: Vec<Ply>,
    /// Positions examined since the previous line, all and main search.
    pub effort: u64,
    pub long_effort: u64,
    /// The (fail-hard) value the reply returned.
    pub value: i32,
}

/// A main-search leaf (a position at the depth limit or decided), traced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The variation from the root (up to [`PV_MAX`] sowings).
    pub path: Vec<Ply>,
    /// The position's own value (not clamped to the window).
    pub value: i32,
    /// Main-search positions so far, the root included: the leaf is display point `points − 1`.
    pub points: u64,
    /// The last sowing ended its turn (false only for a decided position reached by a repeat).
    pub turn_ended: bool,
}

/// What the search typed, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `lines[i]`.
    Line(usize),
    /// `leaves[i]` (traced only).
    Leaf(usize),
}

/// The result of a search from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The first sowing of the chosen turn (the DEC game's move).
    pub best: u8,
    /// The machine's turn: the root PV's sowings by the side to move, to the end of its turn.
    pub turn: Vec<u8>,
    pub value: i32,
    pub effort: u64,
    pub long_effort: u64,
    pub pv: Vec<Ply>,
    pub lines: Vec<ReplyLine>,
    /// Traced: every main-search leaf, in search order.
    pub leaves: Vec<Leaf>,
    /// Reply lines and (traced) leaves in the order the program types them.
    pub events: Vec<Event>,
    /// Traced: the level of every main-search position, the root (level 0 here, Russell's
    /// level 1) included, in search order — the heights of the display of search depth against
    /// time.
    pub levels: Vec<u32>,
    /// Some position (main search or short look) was a leaf at its depth limit with the game
    /// not over: a deeper search may find another value. Without one the search is exact
    /// (`roms/kalah7.mac`'s `hz`, the open depth's test).
    pub horizon: bool,
    /// Look-ups made to order moves ([`Config::lost_first`]), not counted in the effort.
    pub lookups: u64,
}

struct Searcher<'a, E> {
    c: &'a Config<E>,
    effort: u64,
    long_effort: u64,
    /// Effort counts at the last printout line.
    mark: (u64, u64),
    lines: Vec<ReplyLine>,
    events: Vec<Event>,
    /// The current variation (main search).
    path: Vec<Ply>,
    root_side: Side,
    trace: bool,
    leaves: Vec<Leaf>,
    levels: Vec<u32>,
    horizon: bool,
    lookups: u64,
    /// The root side's best so far, as the last node of the root's turn saw it before its
    /// child, is a loss ([`Budget::shallow`]; true before the first).
    root_lost: bool,
    /// The transposition table, if the search keeps one ([`search_with`]).
    table: Option<&'a mut Table>,
}

/// The best so far of a node of `side` (its window (`alpha`, `beta`)) is `loss` or worse, from
/// the maximiser's side: every move examined lost ([`Budget`]).
fn lost_so_far(side: Side, alpha: i32, beta: i32, loss: i32) -> bool {
    match side {
        Side::A => alpha <= loss,
        Side::B => beta >= -loss,
    }
}

fn clamp(v: i32, alpha: i32, beta: i32) -> i32 {
    v.max(alpha).min(beta)
}

/// What a node returns: its value, the move that set it (0 if none) and its PV.
type NodeResult = (i32, u8, Vec<Ply>);

/// Where a node is: its level, the search's depth, moves into the game, sowings from the root,
/// main search or short look ([`Searcher::node`]'s arguments).
#[derive(Clone, Copy)]
struct At {
    level: u32,
    depth: u32,
    ply: u32,
    k: usize,
    long: bool,
}

impl<'a, E> Searcher<'a, E> {
    fn new(c: &'a Config<E>, root_side: Side, trace: bool) -> Searcher<'a, E> {
        Searcher::with_table(c, root_side, trace, None)
    }

    fn with_table(
        c: &'a Config<E>,
        root_side: Side,
        trace: bool,
        table: Option<&'a mut Table>,
    ) -> Searcher<'a, E> {
        Searcher {
            c,
            effort: 0,
            long_effort: 0,
            mark: (0, 0),
            lines: Vec::new(),
            events: Vec::new(),
            path: Vec::new(),
            root_side,
            trace,
            leaves: Vec::new(),
            levels: Vec::new(),
            horizon: false,
            lookups: 0,
            root_lost: true,
            table,
        }
    }

    /// The level below `level` after a sowing.
    fn next_level(&self, level: u32, repeat: bool) -> u32 {
        if repeat && self.c.levels == Levels::Turns {
            level
        } else {
            level + 1
        }
    }

    /// The current variation's root turn: its length if every sowing so far is the root side's.
    fn on_root_turn(&self) -> bool {
        self.path.iter().all(|p| p.1 == self.root_side)
    }

    /// The current variation is the root turn followed by part of the reply turn (or nothing
    /// of it): the length of the root turn.
    fn in_first_reply(&self) -> Option<usize> {
        let n = self
            .path
            .iter()
            .take_while(|p| p.1 == self.root_side)
            .count();
        (n > 0 && self.path[n..].iter().all(|p| p.1 != self.root_side)).then_some(n)
    }

    /// A printout line for the reply (or root turn) just searched.
    fn line(&mut self, n: usize, reply: Vec<Ply>, value: i32) {
        let root = self.path[..n].to_vec();
        let first = self.lines.last().is_none_or(|l| l.root != root);
        self.lines.push(ReplyLine {
            root,
            first,
            reply,
            effort: self.effort - self.mark.0,
            long_effort: self.long_effort - self.mark.1,
            value,
        });
        self.mark = (self.effort, self.long_effort);
        self.events.push(Event::Line(self.lines.len() - 1));
    }
}

impl<E> Searcher<'_, E> {
    fn leaf_value<const H: usize>(&self, b: &Board<H>, level: u32, depth: u32) -> Option<i32>
    where
        E: Evaluate<H>,
    {
        if let Some(v) = self.c.value.decided_at(b, &self.path) {
            return Some(v);
        }
        (level >= depth).then(|| self.c.value.estimate(b))
    }

    /// One node; `ply` = moves into the game at `b`, `k` = sowings from the root (main search)
    /// for the PV, `long` = main search (else short look).
    #[allow(clippy::too_many_arguments)]
    fn node<const H: usize>(
        &mut self,
        b: &Board<H>,
        level: u32,
        depth: u32,
        ply: u32,
        k: usize,
        alpha: i32,
        beta: i32,
        long: bool,
    ) -> NodeResult
    where
        E: Evaluate<H>,
    {
        let counted = k > 0 || !long || self.c.count_root;
        if counted {
            self.effort += 1;
        }
        if long {
            if counted {
                self.long_effort += 1;
            }
            if self.trace {
                self.levels.push(level);
            }
        }
        let searched_root = long && k == 0 && self.c.search_root && !b.is_terminal();
        let leaf = if searched_root {
            None
        } else {
            self.leaf_value(b, level, depth)
        };
        if let Some(v) = leaf {
            if level >= depth && !b.is_terminal() {
                self.horizon = true;
            }
            if long && self.trace {
                let n = self.path.len().min(PV_MAX);
                self.leaves.push(Leaf {
                    path: self.path[..n].to_vec(),
                    value: v,
                    points: self.levels.len() as u64,
                    turn_ended: self.path.last().is_none_or(|p| p.1 != b.to_move),
                });
                self.events.push(Event::Leaf(self.leaves.len() - 1));
            }
            return (clamp(v, alpha, beta), 0, Vec::new());
        }
        let at = At {
            level,
            depth,
            ply,
            k,
            long,
        };
        // The transposition table: a main-search position below the root, not a leaf.
        let key = match self.table.as_deref() {
            Some(t) if long && k > 0 && depth - level >= t.min_left => Some(table_key(b)),
            _ => None,
        };
        let Some(key) = key else {
            return self.moves(b, at, (alpha, beta), 0);
        };
        let left = depth - level;
        let t = self.table.as_deref_mut().expect("a table");
        let mut hint = 0;
        let whole = whole(b);
        if let Some(e) = t.find(key, whole) {
            hint = e.best;
            if let Some(v) = e.cut(left, alpha, beta) {
                t.cuts += 1;
                self.horizon |= e.horizon;
                return (v, 0, Vec::new());
            }
        }
        let outer = std::mem::replace(&mut self.horizon, false);
        let (v, best, pv) = self.moves(b, at, (alpha, beta), hint);
        let horizon = self.horizon;
        self.horizon |= outer;
        let bound = if v == alpha {
            Bound::Upper
        } else if v == beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let t = self.table.as_deref_mut().expect("a table");
        t.store(key, whole, left, v, bound, best, horizon);
        (v, best, pv)
    }

    /// A node's moves, searched in order (`hint`, a move of the position's table entry, first
    /// below the root), and the α-β step; `at` is where [`Searcher::node`] was called.
    fn moves<const H: usize>(
        &mut self,
        b: &Board<H>,
        at: At,
        (mut alpha, mut beta): (i32, i32),
        hint: u8,
    ) -> NodeResult
    where
        E: Evaluate<H>,
    {
        let At {
            level,
            depth,
            ply,
            k,
            long,
        } = at;
        let (order, short) = if long {
            let (mut order, short) = self.long_order(b, depth - level, ply);
            if k == 0 {
                put_first(&mut order, self.c.root_first);
            } else if hint != 0 {
                put_first(&mut order, Some(hint));
            }
            (order, short)
        } else {
            (self.static_moves(b), None)
        };
        let side = b.to_move;
        let order = if long && self.c.lost_first && side != self.root_side {
            self.lost_first(b, order, ply)
        } else {
            order
        };
        let mk = |m: u8, cpv: Vec<Ply>| -> Vec<Ply> {
            if !long || k >= PV_MAX {
                return Vec::new();
            }
            let mut v = vec![(m, side)];
            v.extend(cpv.into_iter().take(PV_MAX - k - 1));
            v
        };
        // Where the printout lines come from: the reply turn below the root turn.
        let lines = long && self.c.lines;
        let reply_root = if lines && side != self.root_side {
            self.in_first_reply()
        } else {
            None
        };
        let root_turn = lines && self.on_root_turn();
        // Gamma mode: the best-ordered move's short-look value lies γ beyond the window.
        if let (Some(sv), Some(gamma)) = (short, self.c.gamma) {
            if alpha < 0 && 0 < beta {
                let m = order[0];
                let v = match side {
                    Side::A if sv >= beta + gamma => Some(beta),
                    Side::B if sv <= alpha - gamma => Some(alpha),
                    _ => None,
                };
                if let Some(v) = v {
                    if let Some(n) = reply_root {
                        let mut reply = self.path[n..].to_vec();
                        reply.push((m, side));
                        self.line(n, reply, v);
                    }
                    return (v, m, mk(m, Vec::new()));
                }
            }
        }
        let mut best = 0;
        let mut pv = Vec::new();
        let mut first_pv = None;
        for m in order {
            let (child, r) = self
                .c
                .rules
                .after(b, m, ply)
                .expect("ordered moves are legal");
            let child_level = self.next_level(level, r.repeat);
            // A printout line follows this sowing if it ends the reply turn, or the root turn
            // at a leaf.
            let printed = (reply_root.is_some() || root_turn)
                && (!r.repeat || self.leaf_value(&child, child_level, depth).is_some())
                && (reply_root.is_some() || self.leaf_value(&child, child_level, depth).is_some());
            if long {
                self.path.push((m, side));
            }
            let (ca, cb) = self.child_window(side, child.to_move, alpha, beta);
            if long && level == 0 {
                if let Some(b) = self.c.budget {
                    self.root_lost = lost_so_far(side, alpha, beta, b.loss);
                }
            }
            // A child that begins a turn is searched shallow once the cap is reached.
            let child_depth = if long && child_level > level && self.shallow() {
                depth.min(self.c.depth.saturating_sub(1).max(1))
            } else {
                depth
            };
            let (v, _, cpv) = self.node(
                &child,
                child_level,
                child_depth,
                ply + 1,
                k + 1,
                ca,
                cb,
                long,
            );
            if printed {
                if let Some(n) = reply_root {
                    let mut reply = self.path[n..].to_vec();
                    reply.extend(cpv.iter().copied());
                    self.line(n, reply, v);
                } else {
                    // The root turn itself reached a leaf: a line with no reply.
                    self.line(self.path.len(), Vec::new(), v);
                }
            }
            if long {
                self.path.pop();
            }
            let mpv = mk(m, cpv);
            if long && self.c.first_pv && first_pv.is_none() {
                first_pv = Some(mpv.clone());
            }
            match side {
                Side::A => {
                    if v >= beta {
                        return (beta, m, mpv);
                    }
                    if v > alpha {
                        alpha = v;
                        best = m;
                        pv = mpv;
                    }
                }
                Side::B => {
                    if v <= alpha {
                        return (alpha, m, mpv);
                    }
                    if v < beta {
                        beta = v;
                        best = m;
                        pv = mpv;
                    }
                }
            }
            if long && level == 0 && self.spent(side, alpha, beta) {
                break;
            }
            if self.floored(side, v) {
                break;
            }
        }
        if best == 0 {
            if let Some(f) = first_pv {
                pv = f;
            }
        }
        (if side == Side::A { alpha } else { beta }, best, pv)
    }

    /// The [`Budget`] is spent at a node of the root's turn (`side` to move, its window
    /// (`alpha`, `beta`) after the last child's step): the positions reached and a best better
    /// than a loss.
    fn spent(&self, side: Side, alpha: i32, beta: i32) -> bool {
        let Some(budget) = self.c.budget else {
            return false;
        };
        side == self.root_side
            && self.effort >= budget.positions
            && !lost_so_far(side, alpha, beta, budget.loss)
    }

    /// [`Budget::shallow`]: the cap reached with every root turn examined lost.
    fn shallow(&self) -> bool {
        let cap = self.c.budget.and_then(|b| b.shallow);
        self.root_lost && cap.is_some_and(|cap| self.effort >= cap)
    }

    /// [`Config::floor`]: a child of a node of `side` is worth `v`, the extreme for `side`.
    /// Nothing after it can move the node's bound further (a child is never beyond the floor),
    /// so the node's value and move are already final.
    fn floored(&self, side: Side, v: i32) -> bool {
        match (self.c.floor, side) {
            (None, _) => false,
            (Some(f), Side::A) => v >= f,
            (Some(f), Side::B) => v <= -f,
        }
    }

    /// [`Config::lost_first`]: `order` (the moves of `b`, the root's opponent to move) with the
    /// sowings that end the turn at a position remembered as lost for the root side first,
    /// stable otherwise.
    fn lost_first<const H: usize>(&mut self, b: &Board<H>, order: Vec<u8>, ply: u32) -> Vec<u8>
    where
        E: Evaluate<H>,
    {
        let Some(floor) = self.c.floor else {
            return order;
        };
        let lost = match self.root_side {
            Side::A => -floor,
            Side::B => floor,
        };
        let (mut first, mut rest) = (Vec::new(), Vec::new());
        for m in order {
            let (child, _) = self
                .c
                .rules
                .after(b, m, ply)
                .expect("ordered moves are legal");
            let mut is_lost = false;
            if child.to_move != b.to_move {
                self.lookups += 1;
                self.path.push((m, b.to_move));
                is_lost = self.c.value.remembered(&child, &self.path) == Some(lost);
                self.path.pop();
            }
            if is_lost {
                first.push(m);
            } else {
                rest.push(m);
            }
        }
        first.extend(rest);
        first
    }

    fn static_moves<const H: usize>(&self, b: &Board<H>) -> Vec<u8> {
        self.c.order.static_moves(b, self.c.rules.capture)
    }

    /// The window a node of `side` with window (`alpha`, `beta`) gives a child where `child`
    /// is to move: its own, or with [`Cutoff::Beyond`] for the opponent's child the running
    /// bound moved one beyond, inside the root's window.
    fn child_window(&self, side: Side, child: Side, alpha: i32, beta: i32) -> (i32, i32) {
        if self.c.cutoff == Cutoff::AtBound || child == side {
            return (alpha, beta);
        }
        match side {
            Side::A => ((alpha - 1).max(self.c.alpha), beta),
            Side::B => (alpha, (beta + 1).min(self.c.beta)),
        }
    }

    /// The main-search order, and with the short look the best-ordered move's short-look value.
    fn long_order<const H: usize>(
        &mut self,
        b: &Board<H>,
        left: u32,
        ply: u32,
    ) -> (Vec<u8>, Option<i32>)
    where
        E: Evaluate<H>,
    {
        let s = self.c.order.look_depth(b, ply, left);
        if s >= 1 {
            let scored = self.short_look(b, s, ply);
            let best = scored.first().map(|&(_, v)| v);
            (scored.into_iter().map(|(m, _)| m).collect(), best)
        } else {
            (self.static_moves(b), None)
        }
    }

    /// Russell's order generator OG: a depth-`s` α-β search from `b`; the moves with their
    /// short-look values, best first (stable).
    fn short_look<const H: usize>(&mut self, b: &Board<H>, s: u32, ply: u32) -> Vec<(u8, i32)>
    where
        E: Evaluate<H>,
    {
        let (mut alpha, mut beta) = (-INF, INF);
        let mut scored = Vec::new();
        for m in self.static_moves(b) {
            let (child, r) = self.c.rules.after(b, m, ply).expect("legal");
            let child_level = self.next_level(0, r.repeat);
            let (v, _, _) = self.node(&child, child_level, s, ply + 1, 0, alpha, beta, false);
            scored.push((m, v));
            match b.to_move {
                Side::A => alpha = alpha.max(v),
                Side::B => beta = beta.min(v),
            }
        }
        match b.to_move {
            Side::A => scored.sort_by_key(|&(_, v)| -v),
            Side::B => scored.sort_by_key(|&(_, v)| v),
        }
        scored
    }
}

/// Put `first` at the front of `order`, the others after it in their order; no change if
/// `first` is none or not in `order`.
fn put_first(order: &mut [u8], first: Option<u8>) {
    if let Some(i) = first.and_then(|m| order.iter().position(|&o| o == m)) {
        order[..=i].rotate_right(1);
    }
}

/// How a table entry's value bounds its position's value. Fail-hard α-β returns the window's
/// edge when the value lies at or beyond it: a value equal to the node's α is an upper bound, one
/// equal to its β a lower bound, one inside the window exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One entry of the [`Table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key's check word ([`table_key`]), 0 for an empty entry.
    pub check: u32,
    /// The key's index word.
    pub index: u32,
    /// Levels the position was searched below it.
    pub left: u32,
    pub value: i32,
    pub bound: Bound,
    /// The move that set the value or cut off (0: none did).
    pub best: u8,
    /// The position's search reached a position at its depth limit ([`Report::horizon`]).
    pub horizon: bool,
    /// The whole position (the reference's own check: [`Table::false_hits`]).
    pub whole: u128,
}

impl Entry {
    /// The node's value from this entry, if it decides it: searched as many levels deep, and
    /// exact or a bound beyond the window — the value the search would return (fail-hard α-β
    /// returns its value clamped to the window).
    fn cut(&self, left: u32, alpha: i32, beta: i32) -> Option<i32> {
        if self.left != left {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(clamp(self.value, alpha, beta)),
            Bound::Lower => (self.value >= beta).then_some(beta),
            Bound::Upper => (self.value <= alpha).then_some(alpha),
        }
    }
}

/// A transposition table (issue 28; `roms/kalah7.mac` keeps it in the extended memory): the
/// positions of the main search below the root with at least [`Table::min_left`] levels left,
/// by their key ([`table_key`]). A position found with the same check word and as many levels
/// left returns its value when that decides the node ([`Entry::cut`]); any found entry's move
/// is searched first.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Entry>,
    /// Positions with fewer levels left are neither looked up nor stored.
    pub min_left: u32,
    /// An entry searched deeper than the position to store is kept (else always replaced).
    pub keep_deeper: bool,
    /// Nodes decided by an entry.
    pub cuts: u64,
    /// Entries looked up and stored.
    pub probes: u64,
    /// Entries found by their key whose position was another.
    pub false_hits: u64,
}

const EMPTY: Entry = Entry {
    check: 0,
    index: 0,
    left: 0,
    value: 0,
    bound: Bound::Exact,
    best: 0,
    horizon: false,
    whole: 0,
};

impl Table {
    /// A table of 2^`bits` entries, empty.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![EMPTY; 1 << bits],
            min_left: 1,
            keep_deeper: false,
            cuts: 0,
            probes: 0,
            false_hits: 0,
        }
    }

    /// The entries, by index.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Empty every entry.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    fn slot(&self, key: (u32, u32)) -> usize {
        key.0 as usize & (self.entries.len() - 1)
    }

    fn find(&mut self, key: (u32, u32), whole: u128) -> Option<Entry> {
        self.probes += 1;
        let e = self.entries[self.slot(key)];
        let hit = e.check == key.1 && e.index == key.0;
        if hit && e.whole != whole {
            self.false_hits += 1;
        }
        hit.then_some(e)
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: (u32, u32),
        whole: u128,
        left: u32,
        value: i32,
        bound: Bound,
        best: u8,
        horizon: bool,
    ) {
        let i = self.slot(key);
        let old = self.entries[i];
        if self.keep_deeper && old.left > left {
            return;
        }
        self.entries[i] = Entry {
            check: key.1,
            index: key.0,
            left,
            value,
            bound,
            best,
            horizon,
            whole,
        };
    }
}

/// The whole position as one number: a byte a cell, the side to move above them.
fn whole<const H: usize>(b: &Board<H>) -> u128 {
    b.cells[..H - 1]
        .iter()
        .fold(u128::from(b.to_move == Side::B), |w, &c| {
            w << 8 | u128::from(c)
        })
}

/// The random words of [`table_key`], `roms/kalah7.mac`'s `zt` (field 1): word 256 i + n for
/// n seeds in cell i (cells 0–14, B's kalah left out), then one for B to move. An 18-bit
/// xorshift (x ^= x << 9, x ^= x >> 5, x ^= x << 7, from 1; period 65535), which the PDP-1
/// computes with rotations and masks, no multiply.
pub const ZOBRIST: [u32; ZOBRIST_LEN] = {
    let mut z = [0; ZOBRIST_LEN];
    let mut x = 1;
    let mut i = 0;
    while i < ZOBRIST_LEN {
        x ^= (x << 9) & MASK;
        x ^= x >> 5;
        x ^= (x << 7) & MASK;
        z[i] = x;
        i += 1;
    }
    z
};
/// Words of [`ZOBRIST`]: 15 cells of 256 counts, and the side.
pub const ZOBRIST_LEN: usize = 15 * 256 + 1;

/// The table key of `b`: (index word, check word), what `roms/kalah7.mac` computes with a
/// table look-up, xor, add and rotation a cell, no multiply. A word h and IO start at 0; for
/// each cell but B's kalah (which the others and the seeds in play decide) h's xor with the
/// cell's random word ([`ZOBRIST`]) is rotated left 7 places together with IO, IO added to it,
/// and that is the new h; with B to move h is xored with the side's word, and a last rotation by
/// 9 and add mix the two words. The check word is never 0 (an empty entry's).
pub fn table_key<const H: usize>(b: &Board<H>) -> (u32, u32) {
    let (mut h, mut io) = (0, 0);
    for (i, &c) in b.cells[..H - 1].iter().enumerate() {
        let ac;
        (ac, io) = word18::rcl(h ^ ZOBRIST[256 * i + usize::from(c)], io, 7);
        h = word18::add(ac, io);
    }
    if b.to_move == Side::B {
        h ^= ZOBRIST[ZOBRIST_LEN - 1];
    }
    let ac;
    (ac, io) = word18::rcl(h, io, 9);
    h = word18::add(ac, io);
    (h, io.max(1))
}

/// [`search`] with a transposition table (kept by the caller, e.g. across the depths of a
/// deepening).
pub fn search_with<const H: usize, E: Evaluate<H>>(
    b: &Board<H>,
    moves_into_game: u32,
    c: &Config<E>,
    trace: bool,
    table: Option<&mut Table>,
) -> Option<Report> {
    if b.is_terminal() || c.depth == 0 {
        return None;
    }
    let mut s = Searcher::with_table(c, b.to_move, trace, table);
    let (value, best, pv) = s.node(b, 0, c.depth, moves_into_game, 0, c.alpha, c.beta, true);
    let best = if best != 0 {
        best
    } else if c.first_pv {
        // A root decided before the game is over (a kalah holds more than half the stones) is
        // a leaf: nothing searched or counted, no PV, and the machine plays the first move of
        // the static order, one sowing (after a repeat it analyses again).
        pv.first()
            .map(|p| p.0)
            .or_else(|| s.static_moves(b).first().copied())?
    } else {
        // The first move searched.
        root_order(b, moves_into_game, c)
            .0
            .first()
            .copied()
            .unwrap_or(0)
    };
    let mut turn: Vec<u8> = pv
        .iter()
        .take_while(|p| p.1 == b.to_move)
        .map(|p| p.0)
        .collect();
    if turn.is_empty() && c.first_pv {
        turn.push(best);
    }
    Some(Report {
        best,
        turn,
        value,
        effort: s.effort,
        long_effort: s.long_effort,
        pv,
        lines: s.lines,
        leaves: s.leaves,
        events: s.events,
        levels: s.levels,
        horizon: s.horizon,
        lookups: s.lookups,
    })
}

/// Search `b` (`moves_into_game` sowings into the game) with the configuration `c`; `trace`
/// records every main-search leaf ([`Report::leaves`]) and level ([`Report::levels`]). `None` if
/// the game is over or the depth is 0. With [`Config::first_pv`] a root that is decided but not
/// over (a kalah holds more than half the stones) is a leaf: an empty analysis whose turn is the
/// first move of the static order.
pub fn search<const H: usize, E: Evaluate<H>>(
    b: &Board<H>,
    moves_into_game: u32,
    c: &Config<E>,
    trace: bool,
) -> Option<Report> {
    search_with(b, moves_into_game, c, trace, None)
}

/// The root's order of moves (with [`Config::root_first`] first), the best-ordered move's short-look value (if the short look
/// ordered) and the positions the short look examined.
pub fn root_order<const H: usize, E: Evaluate<H>>(
    b: &Board<H>,
    moves_into_game: u32,
    c: &Config<E>,
) -> (Vec<u8>, Option<i32>, u64) {
    let mut probe = Searcher::new(c, b.to_move, false);
    let (mut order, short) = probe.long_order(b, c.depth, moves_into_game);
    put_first(&mut order, c.root_first);
    (order, short, probe.effort)
}

/// Choose a move in the DEC game for the side to move in `b`, which is `moves_into_game`
/// sowings into the game. `None` if the game is over.
pub fn choose<const H: usize>(
    b: &Board<H>,
    moves_into_game: u32,
    settings: &Settings,
) -> Option<SearchResult> {
    let r = search(b, moves_into_game, &settings.config(), false)?;
    Some(SearchResult {
        best: r.best,
        value: r.value,
        effort: r.effort,
        long_effort: r.long_effort,
    })
}

/// The note's value by plain minimax (no pruning): the definition itself, for testing.
pub fn minimax<const H: usize>(b: &Board<H>, level: u32, depth: u32) -> i32 {
    if b.is_terminal() || level >= depth {
        return b.utility();
    }
    let vals = b.legal_moves().into_iter().map(|m| {
        let (c, r) = b.after(m).expect("legal");
        minimax(&c, if r.repeat { level } else { level + 1 }, depth)
    });
    match b.to_move {
        Side::A => vals.max().expect("a non-terminal position has a move"),
        Side::B => vals.min().expect("a non-terminal position has a move"),
    }
}

/// The value of each legal move (`(pit, value)`), by plain minimax, for checking a chosen move.
pub fn move_values<const H: usize>(b: &Board<H>, depth: u32) -> Vec<(u8, i32)> {
    b.legal_moves()
        .into_iter()
        .map(|m| {
            let (c, r) = b.after(m).expect("legal");
            (m, minimax(&c, if r.repeat { 0 } else { 1 }, depth))
        })
        .collect()
}
