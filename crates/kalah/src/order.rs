//! Move ordering: Russell's static orders (ORD, or pits 1, 2, … nearest the kalah first), his
//! postponable moves, and the short look with its depth table (TD) — [`Order`], the search's
//! order parameter.

use crate::board::{Board, Capture, Side};

/// Russell's ORD (Memo 22, "Ordering Subroutine"): moves that capture or land in the kalah come
/// first, then the others; each group by pit number, nearest the kalah (pit 1) first.
pub fn static_order<const H: usize>(b: &Board<H>) -> Vec<u8> {
    ord(b, Capture::Standard)
}

/// ORD with the capture rule `capture`.
pub fn ord<const H: usize>(b: &Board<H>, capture: Capture) -> Vec<u8> {
    let moves = b.legal_moves();
    let scores = |p: u8| {
        let (_, r) = b.after_with(p, capture).expect("legal move");
        r.repeat || r.captured > 0
    };
    let (mut first, rest): (Vec<u8>, Vec<u8>) = moves.into_iter().partition(|&p| scores(p));
    first.extend(rest);
    first
}

/// A repeat move (pit p holding p stones) is postponable if a nearer pit q < p holds q stones:
/// q can be played first and p afterwards with exactly the same effect.
pub fn postponable<const H: usize>(b: &Board<H>, p: u8) -> bool {
    let s = b.to_move;
    b.pit(s, p) == p && (1..p).any(|q| b.pit(s, q) == q)
}

/// The static order of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StaticOrder {
    /// Russell's ORD ([`static_order`]): the DEC game's order.
    Ord,
    /// Pits 1, 2, … in turn, nearest the kalah first: Russell's "order 654321".
    Pits,
    /// Bell's list of legal moves (Kalah on Atlas, IV.1) read back last in, first out: the
    /// moves that end in the mover's kalah first, pit 1 first, then the others from pit 6 down
    /// to pit 1 ([`bell_order`]).
    Bell,
    /// Bell's list of legal moves in the order it is made: the plain moves pit 1 first, then
    /// the buffered continuation moves, the last buffered first ([`bell_listed_order`]).
    BellListed,
}

/// Bell's legal-move list (IV.1: "When the last piece does land in its own kalah it buffers
/// that position and starts from scratch with the next pit. Then, having investigated all the
/// initial moves from the six pits, it recalls the continuation positions ... which go back
/// into the buffer which is, in effect, a first in-last out stack") as an order of sowings at
/// each node: the plain moves pit 1 first, then the continuation moves from the stack, the last
/// buffered (highest pit) first. The positions of whole turns then come out depth first.
pub fn bell_listed_order<const H: usize>(b: &Board<H>, capture: Capture) -> Vec<u8> {
    let (repeats, mut plain): (Vec<u8>, Vec<u8>) = b
        .legal_moves()
        .into_iter()
        .partition(|&p| b.after_with(p, capture).expect("legal move").1.repeat);
    plain.extend(repeats.into_iter().rev());
    plain
}

/// [`bell_listed_order`] read back from its end, so that "positions which are reached through
/// many continuation moves will be the first to be investigated by the mini-max routine" (IV.1):
/// the continuation moves pit 1 first, then the plain moves from pit 6 down to pit 1. Reversing
/// the whole list of turns is reversing the order at every node.
pub fn bell_order<const H: usize>(b: &Board<H>, capture: Capture) -> Vec<u8> {
    let mut v = bell_listed_order(b, capture);
    v.reverse();
    v
}

/// What the short look's depth is looked up by in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKey {
    /// Moves (sowings) into the game.
    Moves,
    /// Stones in the two kalahs.
    Stones,
}

/// The short look's depth before it is cut to the levels left − 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LookDepth {
    /// From a depth table.
    Table {
        table: Vec<DepthEntry>,
        key: TableKey,
    },
    /// Always this depth.
    Fixed(u32),
}

/// The order parameter of the search: how the moves of a node are ordered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// The order inside short looks and where no short look orders.
    pub static_order: StaticOrder,
    /// Leave out postponable moves ([`postponable`], Russell's option 3).
    pub postpone: bool,
    /// The short look's depth at a main-search node.
    pub look: LookDepth,
    /// Order by the short look on A's turns, on B's turns.
    pub look_a: bool,
    pub look_b: bool,
}

impl Order {
    /// The moves of `b` in static order, without the postponable ones if asked.
    pub fn static_moves<const H: usize>(&self, b: &Board<H>, capture: Capture) -> Vec<u8> {
        let mut v = match self.static_order {
            StaticOrder::Pits => b.legal_moves(),
            StaticOrder::Ord => ord(b, capture),
            StaticOrder::Bell => bell_order(b, capture),
            StaticOrder::BellListed => bell_listed_order(b, capture),
        };
        if self.postpone {
            v.retain(|&p| !postponable(b, p));
        }
        v
    }

    /// The short-look depth at a node `moves_into_game` sowings into the game, with `left`
    /// levels to go (0: order statically).
    pub fn look_depth<const H: usize>(&self, b: &Board<H>, moves_into_game: u32, left: u32) -> u32 {
        let on = match b.to_move {
            Side::A => self.look_a,
            Side::B => self.look_b,
        };
        if !on {
            return 0;
        }
        let t = match &self.look {
            LookDepth::Table { table, key } => {
                let key = match key {
                    TableKey::Moves => moves_into_game,
                    TableKey::Stones => b.kalah(Side::A) as u32 + b.kalah(Side::B) as u32,
                };
                table_depth(table, key)
            }
            LookDepth::Fixed(d) => *d,
        };
        t.min(left - 1)
    }
}

/// One entry of the short-look depth table: search `depth` turns deep while the game is fewer
/// than `until` moves (sowings) old. Russell's `td` word `x00yyy` is `{depth: x, until: yyy}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthEntry {
    pub depth: u32,
    pub until: u32,
}

/// Russell's initial table (Memo 22, "Initial condition": td 50010, 30040, 20070, 777), octal
/// move counts: depth 5 until move 8, 3 until 32, 2 until 56, then 0.
pub const RUSSELL_TABLE: [DepthEntry; 4] = [
    DepthEntry {
        depth: 5,
        until: 0o10,
    },
    DepthEntry {
        depth: 3,
        until: 0o40,
    },
    DepthEntry {
        depth: 2,
        until: 0o70,
    },
    DepthEntry {
        depth: 0,
        until: 0o777,
    },
];

/// The table's depth for a position `moves_into_game` sowings into the game (0 past the end).
pub fn table_depth(table: &[DepthEntry], moves_into_game: u32) -> u32 {
    table
        .iter()
        .find(|e| moves_into_game < e.until)
        .map_or(0, |e| e.depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_order_has_the_repeat_move_first() {
        // 3 stones: pit 3 lands in the kalah; nothing captures.
        assert_eq!(static_order(&Board::new(3)), vec![3, 1, 2, 4, 5, 6]);
        // 2 stones: pit 2 lands in the kalah.
        assert_eq!(static_order(&Board::new(2)), vec![2, 1, 3, 4, 5, 6]);
    }

    #[test]
    fn table_lookup() {
        assert_eq!(table_depth(&RUSSELL_TABLE, 0), 5);
        assert_eq!(table_depth(&RUSSELL_TABLE, 7), 5);
        assert_eq!(table_depth(&RUSSELL_TABLE, 8), 3);
        assert_eq!(table_depth(&RUSSELL_TABLE, 0o70), 0);
        assert_eq!(table_depth(&RUSSELL_TABLE, 1000), 0);
    }
}
