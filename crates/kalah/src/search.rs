//! The search: the DEC note's value definition, computed by α-β with Russell's move ordering,
//! counting the positions examined. The PDP-1 program (roms/kalah.mac) implements exactly this
//! algorithm, so that its chosen move, value and effort counts can be checked against it.
//!
//! # Value (DEC note, "Internal behavior")
//! The value of a position P at level L: its utility if P is terminal or L = depth; otherwise the
//! maximum (A to move) or minimum (B) over the moves, where a repeat move keeps the level and any
//! other move adds one. The root is at level 0.
//!
//! # α-β (Memo 22)
//! Russell's fail-hard form: a position at the search limit returns `max(α, min(β, utility))`;
//! a node of A returns β as soon as a move reaches β and otherwise the final α; a node of B
//! symmetrically. Started with α = −INF, β = +INF it returns the exact value ([`minimax`]).
//!
//! # Move order
//! At a node of the main search ("long look") with `r` levels left, the short-look depth is
//! `s = min(table depth for the node's moves-into-game, r − 1)`. If the short look is enabled and
//! `s ≥ 1`, the moves are ordered by the short-look order generator: an α-β search of depth `s`
//! from the node (levels counted afresh from 0 there), window (−INF, +INF), moves in static order,
//! nodes below it in static order; each root move's returned (fail-hard) value is recorded and
//! the moves are stably sorted best first (descending for A, ascending for B). Otherwise the
//! static order ([`static_order`]) is used. Nodes inside a short look always use the static order.
//!
//! # Effort (Russell's `e` and `p`)
//! Every call of the node procedure is one position examined: `effort` (e) counts them all,
//! `long_effort` (p) only those of the main search. The root counts (e ≥ p ≥ 1). The node being
//! ordered is not counted again by its short look; the short look's children and below are.
//!
//! # Chosen move
//! At the root, the move that last raised α (A) or lowered β (B), i.e. the first move in search
//! order with the optimal value.

use crate::board::{Board, Side};
use crate::order::{static_order, table_depth, DepthEntry, RUSSELL_TABLE};

/// Initial |α|, |β|: Russell's `ia = law i 377`, `ib = law 377` (octal 377 = 255).
pub const INF: i32 = 0o377;

/// Search settings, the PDP-1 program's test-word fields.
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
}

/// The result of a search from the root.
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

struct Searcher<'a> {
    settings: &'a Settings,
    effort: u64,
    long_effort: u64,
}

fn clamp(v: i32, alpha: i32, beta: i32) -> i32 {
    v.max(alpha).min(beta)
}

impl Searcher<'_> {
    /// One node. `level`/`depth` as in the note; `ply` = moves into the game at `b`.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        b: &Board,
        level: u32,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        long: bool,
    ) -> (i32, u8) {
        self.effort += 1;
        if long {
            self.long_effort += 1;
        }
        if b.is_terminal() || level >= depth {
            return (clamp(b.utility(), alpha, beta), 0);
        }
        let order = if long {
            self.long_order(b, depth - level, ply)
        } else {
            static_order(b)
        };
        let mut best = 0;
        for m in order {
            let (child, r) = b.after(m).expect("ordered moves are legal");
            let child_level = if r.repeat { level } else { level + 1 };
            let (v, _) = self.node(&child, child_level, depth, ply + 1, alpha, beta, long);
            match b.to_move {
                Side::A => {
                    if v >= beta {
                        return (beta, m);
                    }
                    if v > alpha {
                        alpha = v;
                        best = m;
                    }
                }
                Side::B => {
                    if v <= alpha {
                        return (alpha, m);
                    }
                    if v < beta {
                        beta = v;
                        best = m;
                    }
                }
            }
        }
        (if b.to_move == Side::A { alpha } else { beta }, best)
    }

    /// The order of moves at a main-search node with `left` levels to go.
    fn long_order(&mut self, b: &Board, left: u32, ply: u32) -> Vec<u8> {
        let s = table_depth(&self.settings.table, ply).min(left - 1);
        if self.settings.short_look && s >= 1 {
            self.short_look(b, s, ply)
        } else {
            static_order(b)
        }
    }

    /// Russell's order generator OG: a depth-`s` α-β search from `b`, moves sorted best first.
    fn short_look(&mut self, b: &Board, s: u32, ply: u32) -> Vec<u8> {
        let (mut alpha, mut beta) = (-INF, INF);
        let mut scored = Vec::new();
        for m in static_order(b) {
            let (child, r) = b.after(m).expect("legal");
            let child_level = if r.repeat { 0 } else { 1 };
            let (v, _) = self.node(&child, child_level, s, ply + 1, alpha, beta, false);
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
        scored.into_iter().map(|(m, _)| m).collect()
    }
}

/// Choose a move for the side to move in `b`, which is `moves_into_game` sowings into the game.
/// `None` if the game is over.
pub fn choose(b: &Board, moves_into_game: u32, settings: &Settings) -> Option<SearchResult> {
    if b.is_terminal() || settings.depth == 0 {
        return None;
    }
    let mut s = Searcher {
        settings,
        effort: 0,
        long_effort: 0,
    };
    let (value, best) = s.node(b, 0, settings.depth, moves_into_game, -INF, INF, true);
    Some(SearchResult {
        best,
        value,
        effort: s.effort,
        long_effort: s.long_effort,
    })
}

/// The note's value by plain minimax (no pruning): the definition itself, for testing.
pub fn minimax(b: &Board, level: u32, depth: u32) -> i32 {
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
pub fn move_values(b: &Board, depth: u32) -> Vec<(u8, i32)> {
    b.legal_moves()
        .into_iter()
        .map(|m| {
            let (c, r) = b.after(m).expect("legal");
            (m, minimax(&c, if r.repeat { 0 } else { 1 }, depth))
        })
        .collect()
}
