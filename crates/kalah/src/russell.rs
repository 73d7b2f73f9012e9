//! Russell's analysis program (Memo 22; issues 6 and 11): the option register, the end-game
//! check and the 100-scale values, his evaluator, gamma mode, postponable moves, the principal
//! variation and the printout as photographed — the oracle for the PDP-1 program's Russell mode
//! (test-word bit 3) and, with [`Analysis::dec`], the DEC game's option register.
//!
//! The search itself is the one α-β skeleton of [`crate::search`]: the option register is a
//! configuration of it ([`Analysis::config`]); the end-game check and evaluator are
//! [`crate::value`]'s, postponable moves [`crate::order`]'s. This module keeps the register,
//! the depth convention and the printout.
//!
//! The memo's photographed run (2 in a pit, `id` 5, options 1 and 5, short-look depth 0, SS3 and
//! SS5) is reproduced line for line by these rules: `tests/tests/kalah_photo.rs` parses the
//! photographed lines from the memo and compares them with [`transcript`].
//!
//! # Depth (Russell's `id`)
//! [`Analysis::depth`] counts turns below the root. Russell's `id` = d counts levels with the
//! root at level 1, so it searches d − 1 turns ([`Analysis::russell`] takes `id`): the
//! photographed "analysis … to depth 5" looks 4 turns deep (all 258 of its variations have four
//! turns), and "set to a depth of 15 octal … two in a pit Kalah can be proved" is the 12-turn
//! proof of `kalah.md` §2. A repeat sowing keeps the level.
//!
//! # Option register
//! Option k is the bit of value 2^(k−1) of `op` ([`OP_TABLE`] … [`OP_NO_DISPLAY`]); Russell's
//! default is 6 (gamma mode and postponable moves). His `sor` ("option to call ord (rather than
//! order 654321)") is a separate word in the memo; here it is option 10, [`OP_SOR`].
//!
//! # Node
//! A node at level L (turns from the root) counts one position (and one long-look position in
//! the main search) — except the root: e and p count the positions sowings reach (the photo's
//! `TE627 TP627` is the sum of its lines). If the game is *decided* or L = depth it returns its
//! value clamped to [α, β]:
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
//! The static order is Russell's "order 654321" — pits 1, 2, …, 6, nearest the kalah first
//! ("pit ordering is by nearness to kalah: Moves 1, 2, 3, 4, 5, 6 are considered in that
//! order") — unless option 10 (`sor`) asks for ORD ([`crate::order::static_order`]); the DEC
//! game always uses ORD. At a main-search node with r levels left: s = min(t, r − 1), t = the
//! table depth (option 1; the table is looked up by moves into the game with option 5, else by
//! Ka + Kb) or 3 without option 1. No short look on A's turn with option 6, on B's with option
//! 7. If s ≥ 1 the moves are ordered by a short look (window ±255, static order inside, moves
//! sorted best first, ties in static order), else by the static order.
//!
//! # Principal variation
//! Each main-search node at ply k (sowings from the root) returns a PV of at most
//! [`PV_MAX`] − k sowings: the move that last set the node's value (raised α for A, lowered β
//! for B, or cut off by β/α) followed by its child's PV, truncated (a gamma cutoff: the move
//! alone). If no move set the value, the PV is empty in the DEC game; in Russell mode it is the
//! first move searched followed by its child's PV (the photographed `R21,213-3 … V0`: the B
//! node after `1-21,213` fails high with every reply clamped to 0, and its PV is still its first
//! reply `3`) — so the root's PV always holds a turn for the machine to play. Each entry is
//! (pit, mover).
//!
//! # Printout ([`transcript`])
//! A line for every reply turn searched directly below a root turn, typed when the reply's last
//! sowing is taken back: `m1- r1,213-213 e60 p60 v0` — the root turn (label, on its first line
//! only), the reply turn and the rest of its PV, the positions examined since the previous line
//! (all, long look) and the value the reply returned. Then `te… tp…` and `pv…`. With SS3 every
//! main-search leaf's variation (cut to 11 characters) and its own value: `1-1,213-23, v8`;
//! with SS5 the same line at every y-th leaf with `p<display line>m<marker>,` (octal) in front.
//!
//! # Chosen turn
//! The machine plays the root PV's first turn ([`Report::turn`]); [`Report::best`] is its first
//! sowing (the DEC game's move).

use crate::board::{Board, Rules, Side};
use crate::order::{DepthEntry, LookDepth, Order, StaticOrder, TableKey, RUSSELL_TABLE};
use crate::search::{search, Config, Levels, Settings, INF};
use crate::value::{End, Estimate, Valuation};

pub use crate::order::postponable;
pub use crate::search::{Event, Leaf, Ply, ReplyLine, Report, PV_MAX};
pub use crate::value::{decided, egc_value, russell_eval};

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
/// Option 8: photo halt at the start of each display line (display only).
pub const OP_PHOTO: u32 = 0o200;
/// Option 9: display cutoff (display only).
pub const OP_NO_DISPLAY: u32 = 0o400;
/// Option 10: Russell's `sor` — static order by ORD instead of pits 1…6.
pub const OP_SOR: u32 = 0o1000;
/// Russell's default option register.
pub const RUSSELL_OP: u32 = OP_GAMMA | OP_POSTPONE;
/// Gamma: how far beyond the window a short-look value must lie for gamma mode.
pub const GAMMA: i32 = 8;
/// Characters of a variation typed by SS3/SS5 (the photographed lines: 216 shorter variations
/// end with their separator, the 42 of eight sowings stop after 11 characters without it).
pub const VARIATION_CHARS: usize = 11;
/// Points of one display line (fixed by the photographed listing's halts; docs/kalah.md). The
/// program draws them 4 units apart inside the round face (x = −336 … +344).
pub const DISPLAY_LINE: u64 = 171;

/// Settings of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Turns searched below the root (Russell's `id` − 1).
    pub depth: u32,
    /// Initial α and β (Russell's `ia`, `ib`).
    pub alpha: i32,
    pub beta: i32,
    /// The option register.
    pub op: u32,
    pub table: Vec<DepthEntry>,
    /// Russell mode: end-game check, 100-scale values, order 1…6, root not counted (else the
    /// DEC note's game).
    pub egc: bool,
}

impl Analysis {
    /// Russell's defaults at his depth `id` (the root is level 1: `id` − 1 turns; 0 for
    /// `id` ≤ 1): α = −255, β = 255, op 6, his table, EGC.
    pub fn russell(id: u32) -> Analysis {
        Analysis {
            depth: id.saturating_sub(1),
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
    /// The configuration of the search ([`crate::search::Config`]) this option register sets.
    pub fn config(&self) -> Config {
        let op = self.op;
        Config {
            rules: Rules::DEC,
            value: Valuation {
                end: if self.egc { End::Egc } else { End::Utility },
                estimate: if op & OP_BIRD != 0 {
                    Estimate::KalahDifference
                } else {
                    Estimate::Russell
                },
            },
            order: Order {
                static_order: if self.egc && op & OP_SOR == 0 {
                    StaticOrder::Pits
                } else {
                    StaticOrder::Ord
                },
                postpone: op & OP_POSTPONE != 0,
                look: if op & OP_TABLE != 0 {
                    LookDepth::Table {
                        table: self.table.clone(),
                        key: if op & OP_TABLE_MOVES != 0 {
                            TableKey::Moves
                        } else {
                            TableKey::Stones
                        },
                    }
                } else {
                    LookDepth::Fixed(3)
                },
                look_a: op & OP_NO_SHORT_A == 0,
                look_b: op & OP_NO_SHORT_B == 0,
            },
            levels: Levels::Turns,
            depth: self.depth,
            alpha: self.alpha,
            beta: self.beta,
            gamma: (op & OP_GAMMA != 0).then_some(GAMMA),
            count_root: !self.egc,
            first_pv: self.egc,
            cutoff: crate::search::Cutoff::AtBound,
            search_root: false,
            root_first: None,
            budget: None,
            floor: None,
            lost_first: false,
            lines: self.egc,
        }
    }
}

/// Analyse `b` (`moves_into_game` sowings into the game): the search of [`Analysis::config`].
/// `None` if the game is over or the depth is 0. In Russell mode a root that is decided but not
/// over (a kalah holds more than half the stones) is a leaf: an empty analysis whose turn is the
/// first move of the static order.
pub fn analyse<const H: usize>(b: &Board<H>, moves_into_game: u32, a: &Analysis) -> Option<Report> {
    search(b, moves_into_game, &a.config(), false)
}

/// [`analyse`], also recording every main-search leaf (`Report::leaves`) and the level of every
/// main-search position (`Report::levels`).
pub fn analyse_traced<const H: usize>(
    b: &Board<H>,
    moves_into_game: u32,
    a: &Analysis,
) -> Option<Report> {
    search(b, moves_into_game, &a.config(), true)
}

/// Russell's notation for a sequence of sowings: the pits of one turn run together, `-` when
/// A's turn gives way to B's, `,` when B's gives way to A's (a "move" is a ply of each side).
/// No separator after the last turn (the `r…` and `pv…` printouts).
pub fn render(pv: &[Ply]) -> String {
    let mut s = String::new();
    for (i, &(p, side)) in pv.iter().enumerate() {
        if i > 0 && pv[i - 1].1 != side {
            s.push(separator(pv[i - 1].1));
        }
        s.push(char::from(b'0' + p));
    }
    s
}

fn separator(side: Side) -> char {
    match side {
        Side::A => '-',
        Side::B => ',',
    }
}

/// A current variation as SS3 and SS5 type it: every turn that has ended followed by its
/// separator, cut to [`VARIATION_CHARS`] characters (`1-1,213-23,`, `1-1,213-213`). A leaf's
/// last turn has ended unless the leaf is a decided position reached by a repeat sowing.
pub fn render_variation(path: &[Ply], last_turn_ended: bool) -> String {
    let mut s = render(path);
    if last_turn_ended {
        if let Some(&(_, side)) = path.last() {
            s.push(separator(side));
        }
    }
    s.chars().take(VARIATION_CHARS).collect()
}

/// A printout line: `m1- r1,213-213 e60 p60 v0` (label on a root turn's first line only).
pub fn render_line(l: &ReplyLine) -> String {
    let mut s = String::new();
    if l.first {
        s.push_str(&format!("m{}- ", render(&l.root)));
    }
    if !l.reply.is_empty() {
        s.push_str(&format!("r{} ", render(&l.reply)));
    }
    format!("{s}e{} p{} v{}", l.effort, l.long_effort, l.value)
}

/// What the program types for the sense switches: SS3 every leaf, SS5 the markers, SS6 no
/// analysis printout; `y` the marker frequency (0 counts as 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Printing {
    pub ss3: bool,
    pub ss5: bool,
    pub ss6: bool,
    pub y: u32,
}

/// Where the leaf `i` of a traced report puts a marker: `(display line from 1, marker from 1
/// within that line)`, both as the program types them (octal) — `None` if it is no marker.
pub fn marker(r: &Report, i: usize, y: u32) -> Option<(u64, u64)> {
    let y = y.max(1) as usize;
    if !(i + 1).is_multiple_of(y) {
        return None;
    }
    let line = |j: usize| (r.leaves[j].points - 1) / DISPLAY_LINE;
    let l = line(i);
    let n = (y - 1..=i).step_by(y).filter(|&j| line(j) == l).count() as u64;
    Some((l + 1, n))
}

/// Everything the program types after the operator's space and its carriage return, up to the
/// machine's turn: reply lines and SS3/SS5 variations in search order, then `te… tp…` and
/// `pv…` — each line ended by a carriage return ("\n"). SS3/SS5 need a traced report.
pub fn transcript(r: &Report, p: &Printing) -> String {
    let mut s = String::new();
    for e in &r.events {
        match *e {
            Event::Line(i) if !p.ss6 => {
                s.push_str(&render_line(&r.lines[i]));
                s.push('\n');
            }
            Event::Leaf(i) => {
                let leaf = &r.leaves[i];
                let mark = if p.ss5 { marker(r, i, p.y) } else { None };
                if p.ss3 || mark.is_some() {
                    if let Some((line, n)) = mark {
                        s.push_str(&format!("p{line:o}m{n:o},"));
                    }
                    s.push_str(&format!(
                        "{} v{}\n",
                        render_variation(&leaf.path, leaf.turn_ended),
                        leaf.value
                    ));
                }
            }
            _ => {}
        }
    }
    if !p.ss6 {
        s.push_str(&format!(
            "te{} tp{}\npv{}\n",
            r.effort,
            r.long_effort,
            render(&r.pv)
        ));
    }
    s
}

/// The machine's turn as the typewriter shows it: each sowing with its punctuation — `.` after
/// a repeat, then `,` after A's last sowing or a carriage return after B's (`2.4,`).
pub fn turn_text(b: &Board, turn: &[u8]) -> String {
    let mut s = String::new();
    let mut pos = *b;
    for &m in turn {
        let side = pos.to_move;
        let r = pos.play(m).expect("the turn is legal");
        s.push(char::from(b'0' + m));
        s.push(if r.repeat {
            '.'
        } else if side == Side::A {
            ','
        } else {
            '\n'
        });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Capture, KALAH_A, KALAH_B};
    use crate::search::{choose, root_order};

    /// The moves an analysis searches at `b` in static order.
    fn static_moves(b: &Board, a: &Analysis) -> Vec<u8> {
        a.config().order.static_moves(b, Capture::Standard)
    }

    #[test]
    fn notation_follows_the_photograph() {
        use Side::{A, B};
        let l = ReplyLine {
            root: vec![(1, A)],
            first: true,
            reply: vec![(1, B), (2, A), (1, A), (3, A), (2, B), (1, B), (3, B)],
            effort: 60,
            long_effort: 60,
            value: 0,
        };
        assert_eq!(render_line(&l), "m1- r1,213-213 e60 p60 v0");
        let l = ReplyLine { first: false, ..l };
        assert_eq!(render_line(&l), "r1,213-213 e60 p60 v0");
        let pv = [
            (2, A),
            (4, A),
            (1, B),
            (3, A),
            (6, A),
            (2, B),
            (1, B),
            (3, B),
        ];
        assert_eq!(render(&pv), "24-1,36-213");
        // SS3: a separator after every ended turn, 11 characters at most.
        assert_eq!(render_variation(&pv, true), "24-1,36-213");
        assert_eq!(render_variation(&pv[..7], true), "24-1,36-21,");
        assert_eq!(render_variation(&pv[..6], true), "24-1,36-2,");
        assert_eq!(render_variation(&pv[..2], false), "24");
        assert_eq!(render_variation(&pv[..2], true), "24-");
    }

    #[test]
    fn russell_depth_counts_the_root_as_level_1() {
        assert_eq!(Analysis::russell(5).depth, 4);
        assert_eq!(Analysis::russell(13).depth, 12);
        assert_eq!(Analysis::russell(1).depth, 0);
        assert!(analyse(&Board::new(2), 0, &Analysis::russell(1)).is_none());
        // id 2: one turn, every root turn reaches a leaf and has a line of its own.
        let r = analyse(&Board::new(2), 0, &Analysis::russell(2)).unwrap();
        assert!(r.lines.iter().all(|l| l.reply.is_empty() && l.first));
        assert_eq!(
            r.lines.iter().map(|l| render(&l.root)).collect::<Vec<_>>(),
            ["1", "21", "23", "24", "25", "26", "3", "4", "5", "6"].map(String::from),
            "pits 1..6, repeats followed by their continuations (option 3 leaves none out here)"
        );
    }

    #[test]
    fn static_order_is_pits_one_to_six_unless_sor() {
        // A position where ORD and 1..6 differ: pit 3 captures, pits 1 and 2 do not.
        let mut b = Board::new(0);
        b.cells[Side::A.pit_index(1)] = 3;
        b.cells[Side::A.pit_index(3)] = 1;
        b.cells[Side::A.pit_index(4)] = 5;
        b.cells[Side::B.pit_index(5)] = 2;
        let a = Analysis {
            op: 0,
            ..Analysis::russell(3)
        };
        assert_eq!(static_moves(&b, &a), vec![1, 3, 4]);
        let sor = Analysis {
            op: OP_SOR,
            ..a.clone()
        };
        assert_eq!(static_moves(&b, &sor), crate::order::static_order(&b));
        assert_eq!(static_moves(&b, &sor), vec![3, 1, 4]);
        let dec = Analysis::dec(&Settings::static_only(3));
        assert_eq!(
            static_moves(&b, &dec),
            vec![3, 1, 4],
            "the DEC game keeps ORD"
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
        assert_eq!(
            static_moves(
                &b,
                &Analysis {
                    op: OP_POSTPONE,
                    ..Analysis::russell(3)
                }
            ),
            vec![1, 4]
        );
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
            let roots = |r: &Report| r.lines.iter().filter(|l| l.first).count();
            assert_eq!(roots(&on), roots(&off));
            assert!(roots(&on) >= static_moves(&b, &Analysis::russell(depth)).len());
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
                ..Analysis::russell(3 + i % 3)
            };
            let (order, sv, short_effort) = root_order(&b, len, &a.config());
            let sv = sv.expect("the root is ordered by the short look");
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
                assert_eq!(r.turn, vec![order[0]]);
                assert_eq!((r.effort, r.long_effort), (short_effort, 0));
                assert!(off.long_effort > 0);
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

    /// The DEC game's two configurations of the skeleton — [`Settings::config`] and the option
    /// register's [`Analysis::dec`] — agree number for number: move, value, e, p and the PV's
    /// first move. With the short look they are the same configuration.
    #[test]
    fn dec_settings_equal_the_search() {
        let mut rng = Lcg(0x1234_5678);
        for i in 0..300 {
            let (b, len) = rng.position();
            if b.is_terminal() {
                continue;
            }
            let depth = 1 + i % 5;
            assert_eq!(
                Analysis::dec(&Settings::new(depth)).config(),
                Settings::new(depth).config()
            );
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
