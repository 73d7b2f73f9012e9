//! The board on the Type 30 (issue 4): the points of each frame must be exactly the digits of
//! the stone counts, drawn in the 3×5 point font at the layout docs/kalah.md gives, and the "+"
//! below the left kalah when the lower player moves, above it for the upper player, none at the
//! end. Points go out without I/O wait, at least 50 µs apart; nothing is shown while the machine
//! thinks.
mod kalah_support;
use kalah::{Board, Side};
use kalah_support::*;
use std::collections::BTreeMap;

/// Points of the 6-pit board's characters are 12 units apart (`chs` in roms/kalah.mac).
const UNIT: i16 = 12;

/// Add the points of glyph `g` with its lower-left corner at (x, y).
fn glyph(points: &mut BTreeMap<(i16, i16), u32>, g: usize, x: i16, y: i16) {
    kalah_support::glyph(points, g, x, y, UNIT);
}

/// A number: tens digit (if any) at x, units 48 units to the right of it.
fn number(points: &mut BTreeMap<(i16, i16), u32>, n: u8, x: i16, y: i16) {
    if n >= 10 {
        glyph(points, (n / 10) as usize, x, y);
        glyph(points, (n % 10) as usize, x + 48, y);
    } else {
        glyph(points, n as usize, x, y);
    }
}

/// Expected points: B's pits 1..6 at y 140 and A's pits 6..1 at y −188, x = −336 + 120 i;
/// Kb at (−460, −24), Ka at (388, −24); "+" at (−460, −120) (lower to move) or (−460, 72).
fn expected(b: &Board, plus: Option<Side>) -> BTreeMap<(i16, i16), u32> {
    let mut pts = BTreeMap::new();
    for i in 0..6u8 {
        let x = -336 + 120 * i as i16;
        number(&mut pts, b.pit(Side::B, i + 1), x, 140);
        number(&mut pts, b.pit(Side::A, 6 - i), x, -188);
    }
    number(&mut pts, b.kalah(Side::B), -460, -24);
    number(&mut pts, b.kalah(Side::A), 388, -24);
    match plus {
        Some(Side::A) => glyph(&mut pts, 10, -460, -120),
        Some(Side::B) => glyph(&mut pts, 10, -460, 72),
        None => {}
    }
    pts
}

fn frame_points(p: &mut Program) -> BTreeMap<(i16, i16), u32> {
    let frame = p.frame();
    for w in frame.windows(2) {
        assert!(
            w[1].time_ns - w[0].time_ns >= 50_000,
            "points less than 50 us apart: {w:?}"
        );
    }
    let mut pts = BTreeMap::new();
    for pt in frame {
        *pts.entry((pt.x, pt.y)).or_default() += 1;
    }
    pts
}

#[test]
fn opening_board_with_plus_below_the_left_kalah() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    assert_eq!(
        frame_points(&mut p),
        expected(&Board::new(3), Some(Side::A))
    );
}

#[test]
fn plus_above_for_the_upper_player_and_two_digit_counts() {
    let mut p = Program::boot(test_word(2, 6, 0), 0);
    p.type_text("5"); // 6 stones from pit 5 end in B6: the upper player moves
    let mut b = Board::new(6);
    b.play(5).unwrap();
    assert_eq!(frame_points(&mut p), expected(&b, Some(Side::B)));
    let mut big = Board::new(0);
    big.cells = [12, 0, 3, 0, 0, 1, 17, 1, 0, 0, 2, 0, 0, 36];
    big.to_move = Side::B;
    p.set_position(&big, 40, test_word(2, 0, 0));
    assert_eq!(frame_points(&mut p), expected(&big, Some(Side::B)));
}

#[test]
fn no_plus_at_the_end_of_the_game() {
    let mut p = Program::boot(test_word(2, 3, 0), 0);
    let mut b = Board::new(0);
    b.cells[Side::A.pit_index(1)] = 1;
    b.cells[Side::B.pit_index(4)] = 2;
    b.cells[Side::A.kalah()] = 20;
    b.cells[Side::B.kalah()] = 13;
    p.set_position(&b, 30, test_word(2, 3, 0));
    p.type_text("1");
    let mut end = Board::new(0);
    end.cells[Side::A.kalah()] = 21;
    end.cells[Side::B.kalah()] = 15;
    assert_eq!(frame_points(&mut p), expected(&end, None));
}

#[test]
fn display_vanishes_while_the_machine_thinks() {
    let mut p = Program::boot(test_word(4, 3, 0), 0);
    let one_frame = p.frame().len();
    p.m.drain_typewriter();
    p.key(SPACE);
    let pts = p.m.drain_display();
    let typed = p.m.drain_typewriter();
    let backspace = typed
        .iter()
        .find(|e| e.code == 0o75)
        .expect("backspace typed")
        .time_ns;
    let space = typed
        .iter()
        .find(|e| e.code == 0)
        .expect("space echoed")
        .time_ns;
    // Only the frame that was being drawn when the key was struck; nothing after it.
    assert!(pts.len() <= one_frame);
    let last = pts.iter().map(|p| p.time_ns).max().unwrap_or(0);
    assert!(last < backspace);
    // The search (depth 4) takes far longer than a frame: the screen was dark meanwhile.
    assert!(
        backspace - space > 100_000_000,
        "search took {} ns",
        backspace - space
    );
}
