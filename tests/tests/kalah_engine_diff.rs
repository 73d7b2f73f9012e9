//! The PDP-1 program against the reference engine (issue 4, verification): for seeded random
//! reachable positions and depths 1–5, the program's chosen move has the optimal value, and with
//! equal settings its move, value (v) and effort counts (e, p) equal the engine's. The board after
//! the move must equal the engine's too.
mod kalah_support;
use kalah::{choose, move_values, Board, Settings};
use kalah_support::*;

/// A random reachable position that is not the end of the game.
fn random_position(rng: &mut Rng) -> Option<(Board, u32, u8)> {
    random_play(rng).filter(|(b, _, _)| !b.is_terminal())
}

/// The move digit the program typed after backspacing over the space.
fn typed_move(t: &str) -> u8 {
    let i = t
        .find('\u{8}')
        .unwrap_or_else(|| panic!("no backspace in {t:?}"));
    t[i + 1..]
        .chars()
        .next()
        .and_then(|c| c.to_digit(10))
        .unwrap_or_else(|| panic!("{t:?}")) as u8
}

fn check_positions(seed: u64, count: usize) {
    let mut rng = Rng(seed);
    let mut p = Program::boot(test_word(1, 3, TW_ANALYSIS), 0);
    let mut done = 0;
    while done < count {
        let Some((b, ply, _)) = random_position(&mut rng) else {
            continue;
        };
        let depth = 1 + (done % 5) as u32;
        let short = rng.below(2) == 1;
        let settings = if short {
            Settings::new(depth)
        } else {
            Settings::static_only(depth)
        };
        let tw = test_word(
            depth,
            0,
            TW_ANALYSIS | if short { TW_SHORT_LOOK } else { 0 },
        );
        p.set_position(&b, ply, tw);
        assert_eq!(p.board(), b, "set-up position");
        p.paper();
        p.key(SPACE);
        let t = p.paper();
        let mv = typed_move(&t);
        let a = parse_analysis(&t).unwrap_or_else(|| panic!("no analysis line in {t:?}"));
        let r = choose(&b, ply, &settings).unwrap();
        let ctx = format!("position {b:?} ply {ply} depth {depth} short {short}: typed {t:?}");
        let best = move_values(&b, depth).into_iter().find(|&(m, _)| m == mv);
        assert_eq!(
            best.map(|(_, v)| v),
            Some(r.value),
            "chosen move not optimal; {ctx}"
        );
        assert_eq!(
            (mv, a.v, a.e, a.p),
            (r.best, r.value, r.effort, r.long_effort),
            "program (move, v, e, p) differs from the engine's; {ctx}"
        );
        let (after, _) = b.after(mv).unwrap();
        if !after.is_terminal() {
            assert_eq!(p.board(), after, "board after the move; {ctx}");
        }
        done += 1;
    }
}

#[test]
fn program_equals_engine_on_random_positions_part1() {
    check_positions(0x6b61_6c61_6801, 1000);
}

#[test]
fn program_equals_engine_on_random_positions_part2() {
    check_positions(0x6b61_6c61_6802, 1000);
}
