//! Move ordering: Russell's static order (ORD) and the short-look depth table (TD).

use crate::board::Board;

/// Russell's ORD (Memo 22, "Ordering Subroutine"): moves that capture or land in the kalah come
/// first, then the others; each group by pit number, nearest the kalah (pit 1) first.
pub fn static_order(b: &Board) -> Vec<u8> {
    let moves = b.legal_moves();
    let scores = |p: u8| {
        let (_, r) = b.after(p).expect("legal move");
        r.repeat || r.captured > 0
    };
    let (mut first, rest): (Vec<u8>, Vec<u8>) = moves.into_iter().partition(|&p| scores(p));
    first.extend(rest);
    first
}

/// One entry of the short-look depth table: search `depth` turns deep while the game is fewer
/// than `until` moves (sowings) old. Russell's `td` word `x00yyy` is `{depth: x, until: yyy}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
