//! Whole games (issue 4): program against program at several depths and stone counts, and the
//! program against a random player. Every move must be legal and the one the engine chooses with
//! the same settings, the punctuation must follow the DEC note (`.` after a repeat move, `,` after
//! the lower player's other moves, carriage return after the upper player's), and the final
//! message must give the winner and the score the rules give.
mod kalah_support;
use kalah::{choose, Board, Settings, Side};
use kalah_support::*;

/// The expected punctuation for a move by `mover` that was a repeat move or not.
fn punctuation(repeat: bool, mover: Side) -> char {
    match (repeat, mover) {
        (true, _) => '.',
        (false, Side::A) => ',',
        (false, Side::B) => '\n',
    }
}

/// The final message for the finished board `b` (stones not yet cast into the kalahs).
fn final_message(b: &Board) -> String {
    let ka = b.kalah(Side::A) as u32 + b.pits_total(Side::A);
    let kb = b.kalah(Side::B) as u32 + b.pits_total(Side::B);
    if ka > kb {
        format!("lower wins {ka}-{kb}\n")
    } else if kb > ka {
        format!("upper wins {kb}-{ka}\n")
    } else {
        format!("tie {ka}-{kb}\n")
    }
}

/// Play a game from the opening. The machine plays the sides not in `random_sides`; a random
/// player (moves typed as digits) plays those in it.
fn play_game(depth: u32, stones: u8, short: bool, random_sides: &[Side], seed: u64) {
    let mut rng = Rng(seed);
    let tw = test_word(depth, stones as u32, if short { TW_SHORT_LOOK } else { 0 });
    let mut p = Program::boot(tw, 0);
    let settings = if short {
        Settings::new(depth)
    } else {
        Settings::static_only(depth)
    };
    let mut b = Board::new(stones);
    let mut ply = 0;
    let mut transcript = String::new();
    let mut expected = String::new();
    while !b.is_terminal() {
        let mover = b.to_move;
        let mv = if random_sides.contains(&mover) {
            let moves = b.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            p.key(mv);
            expected.push(char::from(b'0' + mv));
            mv
        } else {
            p.key(SPACE);
            let r = choose(&b, ply, &settings).unwrap();
            expected.push_str(&format!(" \u{8}{}", r.best));
            r.best
        };
        let res = b.play(mv).expect("the program's move is legal");
        ply += 1;
        expected.push(punctuation(res.repeat, mover));
        if b.is_terminal() {
            if !expected.ends_with('\n') {
                expected.push('\n');
            }
            expected.push_str(&final_message(&b));
        }
        transcript.push_str(&p.paper());
        assert_eq!(
            transcript, expected,
            "depth {depth} stones {stones} short {short}"
        );
        if !b.is_terminal() {
            assert_eq!(p.board(), b);
        }
    }
    // After the end only carriage return means something: space and digits are crossed out.
    p.key(SPACE);
    p.key(1);
    assert_eq!(p.paper(), " \u{8}x1\u{8}x");
}

#[test]
fn program_against_itself_at_several_depths() {
    for (depth, stones, short) in [
        (1, 3, false),
        (2, 3, false),
        (3, 3, true),
        (4, 3, false),
        (2, 1, false),
        (3, 2, true),
        (2, 6, false),
    ] {
        play_game(depth, stones, short, &[], 1);
    }
}

#[test]
fn program_against_a_random_player() {
    for seed in 1..=6 {
        let random = if seed % 2 == 0 { Side::A } else { Side::B };
        let depth = 1 + (seed as u32 % 4);
        play_game(depth, 3 + (seed % 3) as u8, seed % 3 == 0, &[random], seed);
    }
}
