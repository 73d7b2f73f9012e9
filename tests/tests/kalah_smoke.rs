//! First contact: the program boots, waits, and answers a space with a move.
mod kalah_support;
use kalah_support::*;

#[test]
fn boots_and_plays_one_machine_move() {
    let mut p = Program::boot(test_word(2, 3, TW_ANALYSIS), 0);
    assert_eq!(p.paper(), "");
    p.key(SPACE);
    let t = p.paper();
    eprintln!("{t:?} time {} ms", p.m.time_ns() / 1_000_000);
    let r = kalah::choose(&kalah::Board::new(3), 0, &kalah::Settings::static_only(2)).unwrap();
    eprintln!("{r:?}");
    assert!(t.starts_with(&format!(" \u{8}{}", r.best)));
}
