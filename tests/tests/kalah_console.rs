//! One transcript test per console behaviour of the DEC note (issue 4): moves by digit, the
//! machine's move on space, punctuation, crossing out of illegal or meaningless keys, restart by
//! carriage return (re-reading the test word), the end of the game, and the board typed when
//! sense switch 4 is up.
mod kalah_support;
use kalah::{choose, Board, Settings, Side};
use kalah_support::*;

#[test]
fn digits_move_and_are_punctuated() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    // Pit 3 of 3 stones ends in the kalah: a repeat move, period, the lower player again.
    p.type_text("3");
    assert_eq!(p.paper(), "3.");
    assert_eq!(p.board().to_move, Side::A);
    // Pit 1 then goes over to the upper side: comma, upper to move.
    p.type_text("1");
    assert_eq!(p.paper(), "1,");
    assert_eq!(p.board().to_move, Side::B);
    // The upper player's ordinary move ends with a carriage return.
    p.type_text("1");
    assert_eq!(p.paper(), "1\n");
    let mut b = Board::new(3);
    for m in [3, 1, 1] {
        b.play(m).unwrap();
    }
    assert_eq!(p.board(), b);
}

#[test]
fn illegal_and_meaningless_keys_are_crossed_out() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    p.type_text("3"); // pit 3 is now empty and the lower player moves again
    p.paper();
    p.type_text("37a0/");
    assert_eq!(p.paper(), "3\u{8}x7\u{8}xa\u{8}x0\u{8}x/\u{8}x");
    let mut b = Board::new(3);
    b.play(3).unwrap();
    assert_eq!(p.board(), b, "crossed-out keys change nothing");
    // Case shifts are not characters: they are ignored and nothing is typed.
    p.key(0o74);
    p.key(0o72);
    assert_eq!(p.paper(), "");
}

#[test]
fn space_makes_the_machine_move() {
    let mut p = Program::boot(test_word(3, 3, 0), 0);
    p.key(SPACE);
    let r = choose(&Board::new(3), 0, &Settings::static_only(3)).unwrap();
    let b = Board::new(3);
    let (after, res) = b.after(r.best).unwrap();
    let punct = if res.repeat { "." } else { "," };
    assert_eq!(p.paper(), format!(" \u{8}{}{punct}", r.best));
    assert_eq!(p.board(), after);
}

/// Issue 17: the operator's upper case shift stays on the typewriter (it is the carriage's
/// state), so output typed after it without a lower case shift comes out upper case — the
/// machine's move 1 as `"`. The program shifts back to lower case before it types; the move
/// and its punctuation read as after no shift at all.
#[test]
fn the_program_types_in_lower_case_after_an_upper_case_shift() {
    let mut p = Program::boot(test_word(3, 3, 0), 0);
    p.key(0o74); // the keyboard's upper case shift (sent before a `Z`, say)
    p.key(SPACE);
    let r = choose(&Board::new(3), 0, &Settings::static_only(3)).unwrap();
    let (_, res) = Board::new(3).after(r.best).unwrap();
    let punct = if res.repeat { "." } else { "," };
    assert_eq!(p.paper(), format!(" \u{8}{}{punct}", r.best));
}

#[test]
fn carriage_return_restarts_and_rereads_the_test_word() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    p.type_text("3 ");
    p.paper();
    p.m.set_test_word(pdp1_core::Word::new(test_word(2, 5, 0)));
    p.key(CR);
    assert_eq!(
        p.paper(),
        "\n",
        "only the operator's carriage return is on the paper"
    );
    assert_eq!(p.board(), Board::new(5));
    // 0 in the stones field means 3.
    p.m.set_test_word(pdp1_core::Word::new(test_word(2, 0, 0)));
    p.key(CR);
    assert_eq!(p.board(), Board::new(3));
}

#[test]
fn depth_zero_means_four() {
    let mut p = Program::boot(test_word(0, 3, TW_ANALYSIS), 0);
    p.key(SPACE);
    let a = parse_analysis(&p.paper()).unwrap();
    let r = choose(&Board::new(3), 0, &Settings::static_only(4)).unwrap();
    assert_eq!((a.e, a.p, a.v), (r.effort, r.long_effort, r.value));
}

#[test]
fn analysis_line_follows_each_machine_move() {
    let mut p = Program::boot(test_word(3, 3, TW_ANALYSIS | TW_SHORT_LOOK), 0);
    p.key(SPACE);
    let r = choose(&Board::new(3), 0, &Settings::new(3)).unwrap();
    // After the move and its punctuation, the figures on a line of their own.
    let t = p.paper();
    let expected_punct = if Board::new(3).after(r.best).unwrap().1.repeat {
        '.'
    } else {
        ','
    };
    assert_eq!(
        t,
        format!(
            " \u{8}{}{expected_punct}\ne{}p{}v{}\n",
            r.best, r.effort, r.long_effort, r.value
        )
    );
    // Without the option there is no analysis line.
    let mut q = Program::boot(test_word(3, 3, TW_SHORT_LOOK), 0);
    q.key(SPACE);
    assert_eq!(q.paper(), format!(" \u{8}{}{expected_punct}", r.best));
}

/// A position one move from the end: the lower player's last stone is in pit 1.
fn almost_over() -> Board {
    let mut b = Board::new(0);
    b.cells[Side::A.pit_index(1)] = 1;
    b.cells[Side::B.pit_index(4)] = 2;
    b.cells[Side::A.kalah()] = 20;
    b.cells[Side::B.kalah()] = 13;
    b
}

#[test]
fn game_end_types_winner_and_score() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    p.set_position(&almost_over(), 30, test_word(2, 3, 0));
    p.paper();
    // Pit 1 ends in the kalah: repeat-move period; the lower side is empty, the game is over:
    // upper casts 2 into his kalah, 21 to 15.
    p.type_text("1");
    assert_eq!(p.paper(), "1.\nlower wins 21-15\n");
    let b = p.board();
    assert_eq!(
        (b.kalah(Side::A), b.kalah(Side::B)),
        (21, 15),
        "stones cast into the kalahs"
    );
    // Nothing but carriage return means anything now.
    p.type_text(" 2");
    assert_eq!(p.paper(), " \u{8}x2\u{8}x");
    p.key(CR);
    assert_eq!(
        p.board(),
        almost_over(),
        "restart with the set-up bit still on"
    );
    p.m.set_test_word(pdp1_core::Word::new(test_word(2, 3, 0)));
    p.key(CR);
    assert_eq!(p.board(), Board::new(3));
}

#[test]
fn upper_win_and_tie_messages() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    let mut b = almost_over();
    b.cells[Side::A.kalah()] = 10;
    p.set_position(&b, 30, test_word(2, 3, 0));
    p.paper();
    p.type_text("1");
    assert_eq!(p.paper(), "1.\nupper wins 15-11\n");
    b.cells[Side::A.kalah()] = 14;
    p.set_position(&b, 30, test_word(2, 3, 0));
    p.paper();
    p.type_text("1");
    assert_eq!(p.paper(), "1.\ntie 15-15\n");
}

/// The board as SS4 types it: B's pits 1..6, the kalahs (B left, A right), A's pits 6..1.
fn typed_board(b: &Board) -> String {
    let mut s = String::from("   ");
    for pit in 1..=6 {
        s += &format!("{:3}", b.pit(Side::B, pit));
    }
    s += &format!(
        "\n{:3}{:18}{:3}\n   ",
        b.kalah(Side::B),
        "",
        b.kalah(Side::A)
    );
    for pit in (1..=6).rev() {
        s += &format!("{:3}", b.pit(Side::A, pit));
    }
    s + "\n"
}

#[test]
fn sense_switch_4_types_the_board() {
    let mut p = Program::boot(test_word(2, 3, 0), SS4);
    assert_eq!(p.paper(), typed_board(&Board::new(3)));
    p.type_text("3");
    let mut b = Board::new(3);
    b.play(3).unwrap();
    assert_eq!(p.paper(), format!("3.\n{}", typed_board(&b)));
    p.type_text("1");
    b.play(1).unwrap();
    assert_eq!(p.paper(), format!("1,\n{}", typed_board(&b)));
}
