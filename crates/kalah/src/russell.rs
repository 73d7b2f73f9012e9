//! Russell's analysis program (Memo 22, issue 6): the option register, the end-game check and
//! the 100-scale values, his evaluator, gamma mode, postponable moves, the principal variation
//! and the per-root-move printout — the oracle for the PDP-1 program's Russell mode
//! (test-word bit 3) and, with [`Analysis::dec`], an exact re-statement of [`crate::search`].
//!
//! # Option register
//! Option k is the bit of value 2^(k−1) of `op` ([`OP_TABLE`] … [`OP_NO_DISPLAY`]); Russell's
//! default is 6 (gamma mode and postponable moves).
//!
//! # Node
//! A node at level L (turns from the root; a repeat move keeps the level) counts one position
//! (and one long-look position in the main search). If the game is *decided* or L = depth it
//! returns its value clamped to [α, β]:
//! * decided (Russell mode, `egc`): one side's pits are all empty, or one kalah holds more than
//!   half of all the stones; value `100 + d` if d ≥ 0, `−100 + d` if d < 0, d = (Ka + pits A) −
//!   (Kb + pits B);
//! * decided (DEC mode): one side's pits are empty; value Ka − Kb + pits A − pits B;
//! * otherwise, at the depth limit: Ka − Kb with option 4 ("bird in hand"), else Russell's
//!   evaluator [`russell_eval`].
//!
//! Otherwise the moves (legal moves, minus the postponable ones with option 3, see
//! [`postponable`]) are ordered (below) and searched fail-hard: A returns β as soon as a move
//! reaches β, B returns α as soon as a move reaches α.
//!
//! # Gamma mode (option 2)
//! Memo 22: "if a move is evaluated to be gamma greater than β (for a) or gamma less than α
//! (for b) further moves are not investigated: this move is considered adequate … This routine
//! makes the assumption that the evaluator is reliable. It cannot be used in a proof, and only
//! operates if α < 0 and β > 0." The evaluation is the short look's estimate: at a main-search
//! node whose moves were ordered by the short look, with α < 0 < β (the node's window), if the
//! best-ordered move's short-look value is ≥ β + 8 (A to move) or ≤ α − 8 (B to move), the node
//! searches no move with the long look and returns β (A) or α (B) — a cutoff, fail-hard — with
//! that move as its best move and the move alone as its PV. The short look's positions count
//! in the effort as always; no long-look position is examined below the node, and it is no
//! search to depth (no SS3 variation, no display marker, nothing plotted further). Nodes ordered
//! statically are unaffected. With the window ±255 the root is never cut (β + 8 > 255).
//!
//! # Order
//! At a main-search node with r levels left: s = min(t, r − 1), t = the table depth (option 1;
//! the table is looked up by moves into the game with option 5, else by Ka + Kb) or 3 without
//! option 1. No short look on A's turn with option 6, on B's with option 7. If s ≥ 1 the moves
//! are ordered by the short look of [`crate::search`] (window ±255, static order below), else
//! by the static order. Nodes inside a short look use the static order.
//!
//! # Principal variation
//! Each main-search node at ply k (sowings from the root) returns a PV of at most
//! [`PV_MAX`] − k sowings: the move that last set the node's value (raised α for A, lowered β
//! for B, or cut off by β/α) followed by its child's PV, truncated (a gamma cutoff: the move
//! alone); empty if no move set the value. Each entry is (pit, mover).
//!
//! # Chosen move
//! The move that set the root's value; if none did (the root failed low against an initial
//! window), the first move searched.

use crate::board::{Board, Side, KALAH_A, KALAH_B};
use crate::order::{table_depth, DepthEntry, RUSSELL_TABLE};
use crate::search::{Settings, INF};

/// Option 1: short-look depth from the table (else 3).
pub const OP_TABLE: u32 = 1;
/// Option 2: gamma mode (γ = 8).
pub const OP_GAMMA: u32 = 2;
/// Option 3: postponable moves are postponed.
pub const OP_POSTPONE: u32 = 4;
/// Option 4: "bird in hand" evaluator Ka − Kb (else Russell's evaluator).
pub const OP_BIRD: u32 = 0o10;
/// Option 5: the table is compared with moves into the game (else with Ka + Kb).
pub const OP_TABLE_MOVES: u32 = 0o20;
/// Option 6: no short look on A's turn.
pub const OP_NO_SHORT_A: u32 = 0o40;
/// Option 7: no short look on B's turn.
pub const OP_NO_SHORT_B: u32 = 0o100;
/// Option 8: photo halt at the end of each display line (display only).
pub const OP_PHOTO: u32 = 0o200;
/// Option 9: display cutoff (display only).
pub const OP_NO_DISPLAY: u32 = 0o400;
/// Russell's default option register.
pub const RUSSELL_OP: u32 = OP_GAMMA | OP_POSTPONE;
/// Gamma: how far beyond the window a short-look value must lie for gamma mode.
pub const GAMMA: i32 = 8;
/// Longest principal variation kept (sowings from the root).
pub const PV_MAX: usize = 24;

/// Settings of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub depth: u32,
    /// Initial α and β (Russell's `ia`, `ib`).
    pub alpha: i32,
    pub beta: i32,
    /// The option register.
    pub op: u32,
    pub table: Vec<DepthEntry>,
    /// Russell mode: end-game check and 100-scale values (else the DEC note's utility).
    pub egc: bool,
}

impl Analysis {
    /// Russell's defaults at depth `depth`: α = −255, β = 255, op 6, his table, EGC.
    pub fn russell(depth: u32) -> Analysis {
        Analysis {
            depth,
            alpha: -INF,
            beta: INF,
            op: RUSSELL_OP,
            table: RUSSELL_TABLE.to_vec(),
            egc: true,
        }
    }
    /// The DEC-note game of [`crate::search`]: options 1, 4, 5 with the short look, else 4–7.
    pub fn dec(s: &Settings) -> Analysis {
        Analysis {
            depth: s.depth,
            alpha: -INF,
            beta: INF,
            op: if s.short_look {
                OP_TABLE | OP_BIRD | OP_TABLE_MOVES
            } else {
                OP_BIRD | OP_TABLE_MOVES | OP_NO_SHORT_A | OP_NO_SHORT_B
            },
            table: s.table.clone(),
            egc: false,
        }
    }
}

/// One sowing of a principal variation: pit and mover.
pub type Ply = (u8, Side);

/// What one root move's search found (one printout line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// The root move followed by its child's PV.
    pub pv: Vec<Ply>,
    /// Positions examined for this move (its subtree), all and main search.
    pub effort: u64,
    pub long_effort: u64,
    /// The (fail-hard) value the move returned.
    pub value: i32,
}

/// The result of an analysis from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub best: u8,
    pub value: i32,
    pub effort: u64,
    pub long_effort: u64,
    pub pv: Vec<Ply>,
    pub lines: Vec<RootLine>,
    /// With [`analyse_traced`]: every main-search leaf's variation (up to [`PV_MAX`] sowings)
    /// and returned value, in search order — the program's SS3 printout.
    pub variations: Vec<(Vec<Ply>, i32)>,
    /// With [`analyse_traced`]: for each of `variations`, the main-search positions examined
    /// up to and including it (the program's display points so far).
    pub leaf_points: Vec<u64>,
    /// With [`analyse_traced`]: the level of every main-search position, in search order (the
    /// heights of the program's display of search depth against time).
    pub levels: Vec<u32>,
}

/// Stones on the board (pits and kalahs).
fn total(b: &Board) -> u32 {
    b.cells.iter().map(|&c| c as u32).sum()
}

/// Russell's end-game check: one side's pits are empty or one kalah holds more than half of
/// the stones.
pub fn decided(b: &Board) -> bool {
    let t = total(b);
    b.is_terminal() || 2 * b.kalah(Side::A) as u32 > t || 2 * b.kalah(Side::B) as u32 > t
}

/// The 100-scale value of a decided position.
pub fn egc_value(b: &Board) -> i32 {
    let d = (b.kalah(Side::A) as i32 + b.pits_total(Side::A) as i32)
        - (b.kalah(Side::B) as i32 + b.pits_total(Side::B) as i32);
    if d >= 0 {
        100 + d
    } else {
        -100 + d
    }
}

/// Russell's evaluator EV: with more than 16 stones in the pits Ka − Kb; otherwise every
/// non-empty pit of both sides is sown at once from the board (no captures, each side skipping
/// the other's kalah) and the stones on side A (pits and kalah) less those on side B.
pub fn russell_eval(b: &Board) -> i32 {
    let in_pits = b.pits_total(Side::A) + b.pits_total(Side::B);
    if in_pits > 16 {
        return b.kalah(Side::A) as i32 - b.kalah(Side::B) as i32;
    }
    let mut c = [0u32; 14];
    c[KALAH_A] = b.cells[KALAH_A] as u32;
    c[KALAH_B] = b.cells[KALAH_B] as u32;
    for side in [Side::A, Side::B] {
        let skip = side.other().kalah();
        for p in 1..=6u8 {
            let i = side.pit_index(p);
            let mut pos = i;
            for _ in 0..b.cells[i] {
                pos = (pos + 1) % 14;
                if pos == skip {
                    pos = (pos + 1) % 14;
                }
                c[pos] += 1;
            }
        }
    }
    let a: u32 = c[0..=KALAH_A].iter().sum();
    let bb: u32 = c[7..=KALAH_B].iter().sum();
    a as i32 - bb as i32
}

/// A repeat move (pit p holding p stones) is postponable if a nearer pit q < p holds q stones:
/// q can be played first and p afterwards with exactly the same effect.
pub fn postponable(b: &Board, p: u8) -> bool {
    let s = b.to_move;
    b.pit(s, p) == p && (1..p).any(|q| b.pit(s, q) == q)
}

/// The moves searched at `b`, in static order (postponable ones left out with option 3).
fn static_moves(b: &Board, op: u32) -> Vec<u8> {
    let mut v = crate::order::static_order(b);
    if op & OP_POSTPONE != 0 {
        v.retain(|&p| !postponable(b, p));
    }
    v
}

struct Searcher<'a> {
    a: &'a Analysis,
    effort: u64,
    long_effort: u64,
    lines: Vec<RootLine>,
    /// The current variation (main search), and with `trace` every main-search leaf's.
    path: Vec<Ply>,
    trace: bool,
    variations: Vec<(Vec<Ply>, i32)>,
    leaf_points: Vec<u64>,
    levels: Vec<u32>,
}

fn clamp(v: i32, alpha: i32, beta: i32) -> i32 {
    v.max(alpha).min(beta)
}

impl Searcher<'_> {
    fn new(a: &Analysis, trace: bool) -> Searcher<'_> {
        Searcher {
            a,
            effort: 0,
            long_effort: 0,
            lines: Vec::new(),
            path: Vec::new(),
            trace,
            variations: Vec::new(),
            leaf_points: Vec::new(),
            levels: Vec::new(),
        }
    }

    fn leaf_value(&self, b: &Board, level: u32, depth: u32) -> Option<i32> {
        if self.a.egc {
            if decided(b) {
                return Some(egc_value(b));
            }
        } else if b.is_terminal() {
            return Some(b.utility());
        }
        if level >= depth {
            return Some(if self.a.op & OP_BIRD != 0 {
                b.kalah(Side::A) as i32 - b.kalah(Side::B) as i32
            } else {
                russell_eval(b)
            });
        }
        None
    }

    /// One node; `k` = sowings from the root (main search) for the PV. Returns the value, the
    /// move that set it (0 if none) and the PV.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        b: &Board,
        level: u32,
        depth: u32,
        ply: u32,
        k: usize,
        mut alpha: i32,
        mut beta: i32,
        long: bool,
    ) -> (i32, u8, Vec<Ply>) {
        self.effort += 1;
        if long {
            self.long_effort += 1;
            if self.trace {
                self.levels.push(level);
            }
        }
        if let Some(v) = self.leaf_value(b, level, depth) {
            let v = clamp(v, alpha, beta);
            if long && self.trace {
                let n = self.path.len().min(PV_MAX);
                self.variations.push((self.path[..n].to_vec(), v));
                self.leaf_points.push(self.long_effort);
            }
            return (v, 0, Vec::new());
        }
        let (order, short) = if long {
            self.long_order(b, depth - level, ply)
        } else {
            (static_moves(b, self.a.op), None)
        };
        let side = b.to_move;
        let mut best = 0;
        let mut pv = Vec::new();
        let mk = |m: u8, cpv: Vec<Ply>| -> Vec<Ply> {
            if !long || k >= PV_MAX {
                return Vec::new();
            }
            let mut v = vec![(m, side)];
            v.extend(cpv.into_iter().take(PV_MAX - k - 1));
            v
        };
        // Gamma mode: the best-ordered move's short-look value lies 8 beyond the window.
        if let Some(sv) = short {
            if self.a.op & OP_GAMMA != 0 && alpha < 0 && 0 < beta {
                let m = order[0];
                match side {
                    Side::A if sv >= beta + GAMMA => return (beta, m, mk(m, Vec::new())),
                    Side::B if sv <= alpha - GAMMA => return (alpha, m, mk(m, Vec::new())),
                    _ => {}
                }
            }
        }
        for m in order {
            let (child, r) = b.after(m).expect("ordered moves are legal");
            let child_level = if r.repeat { level } else { level + 1 };
            let (e0, p0) = (self.effort, self.long_effort);
            if long {
                self.path.push((m, side));
            }
            let (v, _, cpv) = self.node(
                &child,
                child_level,
                depth,
                ply + 1,
                k + 1,
                alpha,
                beta,
                long,
            );
            if long {
                self.path.pop();
            }
            if long && k == 0 {
                self.lines.push(RootLine {
                    pv: mk(m, cpv.clone()),
                    effort: self.effort - e0,
                    long_effort: self.long_effort - p0,
                    value: v,
                });
            }
            match side {
                Side::A => {
                    if v >= beta {
                        return (beta, m, mk(m, cpv));
                    }
                    if v > alpha {
                        alpha = v;
                        best = m;
                        pv = mk(m, cpv);
                    }
                }
                Side::B => {
                    if v <= alpha {
                        return (alpha, m, mk(m, cpv));
                    }
                    if v < beta {
                        beta = v;
                        best = m;
                        pv = mk(m, cpv);
                    }
                }
            }
        }
        (if side == Side::A { alpha } else { beta }, best, pv)
    }

    /// The main-search order, and with the short look the best-ordered move's short-look value.
    fn long_order(&mut self, b: &Board, left: u32, ply: u32) -> (Vec<u8>, Option<i32>) {
        let op = self.a.op;
        let t = if op & OP_TABLE != 0 {
            let key = if op & OP_TABLE_MOVES != 0 {
                ply
            } else {
                b.kalah(Side::A) as u32 + b.kalah(Side::B) as u32
            };
            table_depth(&self.a.table, key)
        } else {
            3
        };
        let s = t.min(left - 1);
        let off = match b.to_move {
            Side::A => op & OP_NO_SHORT_A != 0,
            Side::B => op & OP_NO_SHORT_B != 0,
        };
        if !off && s >= 1 {
            let scored = self.short_look(b, s, ply);
            let best = scored.first().map(|&(_, v)| v);
            (scored.into_iter().map(|(m, _)| m).collect(), best)
        } else {
            (static_moves(b, op), None)
        }
    }

    /// The moves with their short-look values, best first (stable).
    fn short_look(&mut self, b: &Board, s: u32, ply: u32) -> Vec<(u8, i32)> {
        let (mut alpha, mut beta) = (-INF, INF);
        let mut scored = Vec::new();
        for m in static_moves(b, self.a.op) {
            let (child, r) = b.after(m).expect("legal");
            let child_level = if r.repeat { 0 } else { 1 };
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

/// Analyse `b` (`moves_into_game` sowings into the game). `None` if the game is decided (over,
/// in DEC mode) or the depth is 0.
pub fn analyse(b: &Board, moves_into_game: u32, a: &Analysis) -> Option<Report> {
    run(b, moves_into_game, a, false)
}

/// [`analyse`], also recording every main-search leaf's variation (`Report::variations`).
pub fn analyse_traced(b: &Board, moves_into_game: u32, a: &Analysis) -> Option<Report> {
    run(b, moves_into_game, a, true)
}

fn run(b: &Board, moves_into_game: u32, a: &Analysis, trace: bool) -> Option<Report> {
    let over = if a.egc { decided(b) } else { b.is_terminal() };
    if over || a.depth == 0 {
        return None;
    }
    let mut s = Searcher::new(a, trace);
    let (value, best, pv) = s.node(b, 0, a.depth, moves_into_game, 0, a.alpha, a.beta, true);
    let best = if best != 0 {
        best
    } else {
        s.lines
            .first()
            .map_or(0, |l| l.pv.first().map_or(0, |p| p.0))
    };
    Some(Report {
        best,
        value,
        effort: s.effort,
        long_effort: s.long_effort,
        pv,
        lines: s.lines,
        variations: s.variations,
        leaf_points: s.leaf_points,
        levels: s.levels,
    })
}

/// Russell's notation for a sequence of sowings: the pits of one turn run together, `-` when
/// A's turn gives way to B's, `,` when B's gives way to A's (a "move" is a ply of each side).
pub fn render(pv: &[Ply]) -> String {
    let mut s = String::new();
    for (i, &(p, side)) in pv.iter().enumerate() {
        if i > 0 && pv[i - 1].1 != side {
            s.push(if pv[i - 1].1 == Side::A { '-' } else { ',' });
        }
        s.push(char::from(b'0' + p));
    }
    s
}

/// A printout line: `m` the root move's turn, ` r` and the rest of the variation from the
/// reply (if any), then `e`, `p`, `v` in decimal — Memo 22's `m5 r1,2-312,416e77p38v100`.
pub fn render_line(l: &RootLine) -> String {
    let first = l.pv.first().map(|p| p.1);
    let n = l.pv.iter().take_while(|p| Some(p.1) == first).count();
    let mut s = format!("m{}", render(&l.pv[..n]));
    if n < l.pv.len() {
        s.push_str(" r");
        s.push_str(&render(&l.pv[n..]));
    }
    format!("{s}e{}p{}v{}", l.effort, l.long_effort, l.value)
}

/// An SS3 line: the current variation and its value, `1-1,213-213v0`.
pub fn render_variation(v: &(Vec<Ply>, i32)) -> String {
    format!("{}v{}", render(&v.0), v.1)
}

/// The whole printout after an analysis (SS6 off): a line per root move, `te…tp…v…`, `pv…`.
pub fn printout(r: &Report) -> String {
    let mut s = String::new();
    for l in &r.lines {
        s.push_str(&render_line(l));
        s.push('\n');
    }
    s.push_str(&format!(
        "te{}tp{}v{}\npv{}\n",
        r.effort,
        r.long_effort,
        r.value,
        render(&r.pv)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::choose;

    #[test]
    fn notation_follows_the_memo() {
        use Side::{A, B};
        let l = RootLine {
            pv: vec![
                (5, A),
                (1, B),
                (2, A),
                (3, B),
                (1, B),
                (2, B),
                (4, A),
                (1, A),
                (6, A),
            ],
            effort: 77,
            long_effort: 38,
            value: 100,
        };
        assert_eq!(render_line(&l), "m5 r1,2-312,416e77p38v100");
        assert_eq!(
            render(&[
                (2, A),
                (4, A),
                (1, B),
                (3, A),
                (6, A),
                (2, B),
                (1, B),
                (3, B)
            ]),
            "24-1,36-213"
        );
    }

    #[test]
    fn egc_and_values() {
        let mut b = Board::new(2);
        assert!(!decided(&b));
        b.cells[KALAH_A] = 13;
        b.cells[0] = 0;
        // 13 of 35 stones: not more than half.
        assert!(!decided(&b));
        b.cells[KALAH_A] = 30;
        assert!(decided(&b));
        let mut t = Board::new(0);
        t.cells[KALAH_A] = 5;
        t.cells[KALAH_B] = 5;
        t.cells[KALAH_B - 1] = 2;
        assert!(decided(&t));
        assert_eq!(egc_value(&t), -102);
        t.cells[KALAH_A] = 7;
        assert_eq!(egc_value(&t), 100, "a tie is 100");
    }

    #[test]
    fn russell_evaluator() {
        // 24 stones in the pits: Ka − Kb.
        let mut b = Board::new(2);
        b.cells[KALAH_A] = 3;
        assert_eq!(russell_eval(&b), 3);
        // A: pit 1 holds 2 (one to Ka, one to b6); B: pit 6 holds 9 (b5..b1, Kb, a6, a5, a4).
        let mut b = Board::new(0);
        b.cells[Side::A.pit_index(1)] = 2;
        b.cells[Side::B.pit_index(6)] = 9;
        // A side after: Ka 1, a6 a5 a4 1 each = 4; B side: b6 1, b5..b1 5, Kb 1 = 7.
        assert_eq!(russell_eval(&b), 4 - 7);
    }

    #[test]
    fn postponable_moves() {
        let mut b = Board::new(0);
        b.cells[Side::A.pit_index(1)] = 1;
        b.cells[Side::A.pit_index(3)] = 3;
        b.cells[Side::A.pit_index(4)] = 2;
        b.cells[Side::B.pit_index(1)] = 1;
        assert!(postponable(&b, 3));
        assert!(!postponable(&b, 1));
        assert!(!postponable(&b, 4));
        assert_eq!(static_moves(&b, OP_POSTPONE), vec![1, 4]);
    }

    /// Gamma mode never cuts the root with the window ±255 (β + 8 > 255): from the opening the
    /// root searches every move with the long look, gamma on or off.
    #[test]
    fn gamma_leaves_the_root_alone_with_the_full_window() {
        for (stones, depth) in [(3u8, 4u32), (3, 6), (6, 4), (1, 5)] {
            let b = Board::new(stones);
            let on = analyse(&b, 0, &Analysis::russell(depth)).unwrap();
            let off = analyse(
                &b,
                0,
                &Analysis {
                    op: OP_POSTPONE,
                    ..Analysis::russell(depth)
                },
            )
            .unwrap();
            assert_eq!(on.lines.len(), static_moves(&b, RUSSELL_OP).len());
            assert_eq!(on.lines.len(), off.lines.len());
            assert!(on.lines.iter().all(|l| l.long_effort > 0));
        }
    }

    /// A small LCG for the seeded random positions of these tests.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }

        /// Random legal play (up to 29 sowings, fewer if the game ends) from an opening of
        /// 1–6 stones: the board and the number of sowings tried.
        fn position(&mut self) -> (Board, u32) {
            let mut b = Board::new(1 + self.next(6) as u8);
            let len = self.next(30) as u32;
            for _ in 0..len {
                let m = b.legal_moves();
                if m.is_empty() {
                    break;
                }
                b.play(m[self.next(m.len() as u64) as usize]).unwrap();
            }
            (b, len)
        }
    }

    /// With a narrowed window (α < 0 < β) a root whose best short-look value lies 8 beyond it is
    /// cut: value β (A) or α (B), the best-ordered move, no long look below the root.
    #[test]
    fn gamma_cuts_a_node_whose_short_look_lies_beyond_the_window() {
        let mut rng = Lcg(0x6761_6d6d);
        let (mut cut_a, mut cut_b, mut kept) = (0, 0, 0);
        for i in 0..600 {
            let (b, len) = rng.position();
            if decided(&b) {
                continue;
            }
            let alpha = -1 - rng.next(6) as i32;
            let beta = 1 + rng.next(6) as i32;
            let a = Analysis {
                alpha,
                beta,
                ..Analysis::russell(2 + i % 3)
            };
            let mut s = Searcher::new(&a, false);
            let (order, sv) = s.long_order(&b, a.depth, len);
            let sv = sv.expect("the root is ordered by the short look");
            let short_effort = s.effort;
            let r = analyse(&b, len, &a).unwrap();
            let off = analyse(
                &b,
                len,
                &Analysis {
                    op: OP_POSTPONE,
                    ..a.clone()
                },
            )
            .unwrap();
            let side = b.to_move;
            let cut = match side {
                Side::A => sv >= beta + GAMMA,
                Side::B => sv <= alpha - GAMMA,
            };
            if cut {
                let v = if side == Side::A { beta } else { alpha };
                assert_eq!(r.value, v, "{b:?}");
                assert_eq!(r.best, order[0]);
                assert_eq!(r.pv, vec![(order[0], side)]);
                assert!(r.lines.is_empty());
                assert_eq!((r.effort, r.long_effort), (1 + short_effort, 1));
                assert!(off.long_effort > 1);
                if side == Side::A {
                    cut_a += 1;
                } else {
                    cut_b += 1;
                }
            } else {
                assert!(!r.lines.is_empty());
                kept += 1;
            }
        }
        assert!(
            cut_a >= 10 && cut_b >= 10 && kept >= 10,
            "{cut_a} {cut_b} {kept}"
        );
    }

    /// With the DEC settings the analysis is the search of `crate::search`, number for number.
    #[test]
    fn dec_settings_equal_the_search() {
        let mut rng = Lcg(0x1234_5678);
        for i in 0..300 {
            let (b, len) = rng.position();
            if b.is_terminal() {
                continue;
            }
            let depth = 1 + i % 5;
            for s in [Settings::new(depth), Settings::static_only(depth)] {
                let r = choose(&b, len, &s).unwrap();
                let a = analyse(&b, len, &Analysis::dec(&s)).unwrap();
                assert_eq!(
                    (a.best, a.value, a.effort, a.long_effort),
                    (r.best, r.value, r.effort, r.long_effort),
                    "{b:?}"
                );
                assert_eq!(a.pv.first().map(|p| p.0), Some(r.best));
            }
        }
    }
}
