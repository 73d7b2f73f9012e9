//! Issue 29's readings of Figure 8's memory sizes (docs/bell.md, "Figure 8: Bell's three
//! memory sizes"), each off by default: where Figure 6's relations are judged
//! ([`Parameters::judged`]), and losses recorded as the person's wins
//! ([`Options::loss_characteristics`], [`opponent_wins`]).

use kalah::bell::*;
use kalah::solve::Prover;
use kalah::{Board, Evaluate};

/// A position of the kalah relation Mk/Pk, `to_move` to move (the rest of the 36 in a pit).
fn relation(to_move: kalah::Side, mk: u8, pk: u8) -> Board {
    let mut b = Board::new(0);
    b.to_move = to_move;
    b.cells[MACHINE.kalah()] = mk;
    b.cells[PERSON.kalah()] = pk;
    b.cells[0] = 36 - mk - pk;
    b
}

/// A pseudo-random 36-stone position for `k`, the machine to move, the person's kalah 6–18
/// and the machine's 0–9: near the person's win, where losses are.
fn position(k: u64) -> Board {
    let mut b = Board::new(0);
    b.to_move = MACHINE;
    let mut h = (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    b.cells[PERSON.kalah()] = 6 + (h % 13) as u8;
    b.cells[MACHINE.kalah()] = (h / 7 % 10) as u8;
    let mut pit = 0;
    while b.stones() < 36 {
        h ^= h >> 29;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        pit = (pit + 1 + (h >> 61) as usize) % 12;
        let i = if pit < 6 { pit } else { pit + 1 };
        if b.cells[i] < 15 {
            b.cells[i] += 1;
        }
    }
    b
}

/// Figure 7's position "has good prospects ... despite the fact that the opponent has an
/// intervening move": judged after the turn, a relation decides the position where the other
/// side is to move; judged for either, whoever is to move; by default, for the side to move.
#[test]
fn relations_are_judged_where_the_reading_says() {
    let both = Parameters::figure_6_both_sides();
    let after = Parameters {
        judged: Judged::AfterTurn,
        ..both.clone()
    };
    let either = Parameters {
        judged: Judged::Either,
        ..both.clone()
    };
    let (win, loss) = (Some(Outcome::Win), Some(Outcome::Loss));
    // 17 against 9, and 9 against 17, with each side to move.
    let cases = [
        (MACHINE, 17, 9, win, None, win),
        (PERSON, 17, 9, None, win, win),
        (MACHINE, 9, 17, None, loss, loss),
        (PERSON, 9, 17, loss, None, loss),
        (PERSON, 17, 10, None, None, None),
    ];
    for (side, mk, pk, to_move, after_turn, whoever) in cases {
        let b = relation(side, mk, pk);
        assert_eq!(both.judge(&b), to_move, "{side:?} {mk}/{pk} by default");
        assert_eq!(
            after.judge(&b),
            after_turn,
            "{side:?} {mk}/{pk} after the turn"
        );
        assert_eq!(either.judge(&b), whoever, "{side:?} {mk}/{pk} either");
    }
    assert_eq!(Parameters::default().judged, Judged::ToMove);
}

/// A loss recorded as the person's wins: the entries are characteristics of his wins (seen
/// from his side), none is the loss itself, each position the machine's turns reach is one he
/// really wins (a proof search) and the look-ahead's value function knows as lost for the
/// machine, and the look-ahead still sees the loss. Without the option
/// the same loss is one whole entry.
#[test]
fn losses_recorded_as_the_persons_wins() {
    let prefix = [RUSSELL_OPENING.to_vec(), vec![3, 2]];
    let mut prover = Prover::new();
    let (mut recorded, mut whole) = (0, 0);
    for k in 0..3000 {
        let l = position(k);
        if l.is_terminal() || end_value(&l).is_some() {
            continue;
        }
        let plain = Bell::new(Options::default());
        if plain.look_ahead(&l, &prefix).unwrap().value > -WIN {
            continue;
        }
        let mut bell = Bell::new(Options {
            loss_characteristics: true,
            ..Options::default()
        });
        bell.store(&l, &prefix, Outcome::Loss, &[]);
        let entries: Vec<Entry> = bell
            .memory
            .parts
            .iter()
            .flat_map(|p| p.entries().map(|(_, e)| *e))
            .collect();
        let rules_lost = |x: &Board| end_value(x).is_some_and(|v| v <= -WIN);
        if opponent_wins(&Table::default(), &l, rules_lost).is_none() {
            // Some turn of the machine reaches a position he cannot win by his own turn.
            assert_eq!(entries.len(), 1);
            assert!(!entries[0].is_characteristic() && entries[0].outcome == Outcome::Loss);
            whole += 1;
            continue;
        }
        recorded += 1;
        assert!(entries
            .iter()
            .all(|e| e.outcome == Outcome::Win && e.is_characteristic()));
        for (t, x) in turns(&l) {
            if end_value(&x).is_some_and(|v| v <= -WIN) {
                continue;
            }
            let m = mirror(&x);
            let c = compact(&m).unwrap();
            assert!(entries.iter().any(|e| e.matches(&m, c)), "{t:?} from {l:?}");
            assert!(prover.wins(&x, PERSON), "{t:?} from {l:?}");
            // The look-ahead knows it where it meets it, so a level above L sees L lost.
            assert_eq!(
                bell.config(prefix.to_vec()).value.decided(&x),
                Some(-WIN),
                "{t:?} from {l:?}"
            );
        }
        assert_eq!(bell.look_ahead(&l, &prefix).unwrap().value, -WIN);
        let mut default = Bell::new(Options::default());
        default.store(&l, &prefix, Outcome::Loss, &[]);
        assert_eq!(default.memory.len(), 1);
    }
    assert!(
        recorded >= 10 && whole >= 1,
        "{recorded} recorded, {whole} whole"
    );
}
