use kalah::bell::*;
use kalah::{Board, Side};
use std::collections::HashMap;
/// Can the person (B) force more than half the stones from b?
fn person_wins(b: &Board, memo: &mut HashMap<([u8; 14], bool), bool>, nodes: &mut u64) -> bool {
    *nodes += 1;
    let total = b.stones();
    if b.is_terminal() {
        return 2 * (b.kalah(Side::B) as u32 + b.pits_total(Side::B)) > total;
    }
    if 2 * b.kalah(Side::B) as u32 > total {
        return true;
    }
    if 2 * b.kalah(Side::A) as u32 >= total {
        return false;
    }
    let key = (b.cells, b.to_move == Side::B);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut moves = b.legal_moves();
    moves.sort_by_key(|&m| {
        let (_, r) = b.after(m).unwrap();
        !(r.repeat || r.captured > 0)
    });
    let v = if b.to_move == Side::B {
        moves
            .iter()
            .any(|&m| person_wins(&b.after(m).unwrap().0, memo, nodes))
    } else {
        moves
            .iter()
            .all(|&m| person_wins(&b.after(m).unwrap().0, memo, nodes))
    };
    memo.insert(key, v);
    v
}
fn main() {
    let t = std::time::Instant::now();
    let mut b = Board::new(3);
    b.to_move = PERSON;
    b.play(2).unwrap();
    let mut memo = HashMap::new();
    let mut nodes = 0;
    let f8 = play_turn(&b, &[3, 2]).unwrap();
    println!(
        "fig8 person wins: {} nodes {nodes} memo {} in {:?}",
        person_wins(&f8, &mut memo, &mut nodes),
        memo.len(),
        t.elapsed()
    );
    for (tt, c) in turns(&b) {
        let mut n = 0;
        println!(
            "reply {} person wins {} ({n} nodes) {:?}",
            turn_name(MACHINE, &tt),
            person_wins(&c, &mut memo, &mut n),
            t.elapsed()
        );
    }
}
