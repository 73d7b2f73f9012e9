//! Issue 13: Bell's learning Kalah on the PDP-1 (roms/bell.rim, assembled from roms/bell.files)
//! against the reference `kalah::bell`, game by game and position by position.
//!
//! The PDP-1 program keeps the library's board (a6 … a1 Ka b6 … b1 Kb): the person is the lower
//! player a, the machine the upper player b (Bell's Figure 2: the machine plays the top row).
//! The reference's machine is `Side::A`, so the boards compare with their halves exchanged.
mod kalah_support;
use kalah::bell::{self, bell_config, BellValue, MACHINE, PERSON};
use kalah::order::StaticOrder;
use kalah::search::{search, Cutoff};
use kalah::{Board, Side};
use kalah_support::{Program, Rng, CR, SPACE};
use pdp1_core::Word;

const TW_ANALYSIS: u32 = 0o400000;

fn boot(tw: u32) -> Program {
    Program::boot_tape("bell.files", "bell.rim", tw, 0)
}

/// The program's board as the reference's (machine = `Side::A`).
fn board(k: &Program) -> Board {
    let bd = k.sym("bd");
    let mut b = Board::new(0);
    for i in 0..14 {
        let w = k.m.read(bd + i as u32).unwrap().bits() as u8;
        b.cells[(i + 7) % 14] = w;
    }
    b.to_move = if k.m.read(bd + 14).unwrap().bits() == 1 {
        MACHINE
    } else {
        PERSON
    };
    b
}

/// Set up `b` (reference orientation) by the test entry.
fn set_position(k: &mut Program, b: &Board, tw: u32) {
    for i in 0..14 {
        k.m.write(0o40 + i as u32, Word::new(b.cells[(i + 7) % 14] as u32))
            .unwrap();
    }
    let side = if b.to_move == MACHINE { 1 } else { 0 };
    k.m.write(0o56, Word::new(side)).unwrap();
    k.m.write(0o57, Word::new(0)).unwrap();
    k.m.set_test_word(Word::new(tw | 0o100000));
    k.key(CR);
    k.paper();
}

fn key(k: &mut Program, code: u8) -> String {
    k.key(code);
    k.paper()
}

/// The reference's look-ahead without memory or parameters.
fn plain_look(b: &Board) -> kalah::Report {
    let c = bell_config(BellValue::plain(), StaticOrder::Bell, Cutoff::Beyond);
    search(b, 0, &c, false).expect("not over")
}

/// The machine's turn as `Bell::machine_turn` plays it, with no memory: the look-ahead's turn,
/// looked at again where it stops short. Returns the sowings, the first look's report.
fn plain_turn(b: &Board) -> (Vec<u8>, kalah::Report) {
    let r = plain_look(b);
    let mut turn = Vec::new();
    let mut c = *b;
    let mut next = r.turn.clone();
    while c.to_move == MACHINE && !c.is_terminal() {
        if next.is_empty() {
            next = plain_look(&c).turn;
        }
        for m in std::mem::take(&mut next) {
            if c.to_move != MACHINE || c.is_terminal() {
                break;
            }
            c.play(m).unwrap();
            turn.push(m);
        }
    }
    (turn, r)
}

fn result_line(b: &Board) -> String {
    let m = b.kalah(MACHINE) as u32 + b.pits_total(MACHINE);
    let p = b.kalah(PERSON) as u32 + b.pits_total(PERSON);
    match m.cmp(&p) {
        std::cmp::Ordering::Greater => format!("i win {m}-{p}\n"),
        std::cmp::Ordering::Less => format!("you win {p}-{m}\n"),
        std::cmp::Ordering::Equal => format!("draw {m}-{p}\n"),
    }
}

/// One game from the opening against a random person; `machine_first`: the machine opens.
/// Returns the machine's turns played.
fn play_game(rng: &mut Rng, machine_first: bool) -> u32 {
    let mut k = boot(TW_ANALYSIS);
    let mut b = Board::new(3);
    b.to_move = if machine_first { MACHINE } else { PERSON };
    let mut claimed = false;
    let mut turns = 0;
    let mut log = String::new();
    loop {
        let ctx = format!("{b:?}; game so far {log:?}");
        let mut want = String::new();
        let typed;
        if b.to_move == MACHINE {
            let (turn, r) = plain_turn(&b);
            typed = key(&mut k, SPACE);
            want.push_str(" \u{8}");
            if r.value <= -bell::WIN {
                want.push_str("i resign\n");
                want.push_str(&format!("e{}v{}\n", r.effort, r.value));
                assert_eq!(typed, want, "{ctx}");
                return turns;
            }
            let mut c = b;
            let names: Vec<String> = turn
                .iter()
                .map(|&m| {
                    let rep = c.play(m).unwrap().repeat;
                    format!("{m}{}", if rep { "." } else { "" })
                })
                .collect();
            want.push_str(&names.join(""));
            want.push('\n');
            if r.value >= bell::WIN && !claimed {
                claimed = true;
                want.push_str("i will win\n");
            }
            want.push_str(&format!("e{}v{}\n", r.effort, r.value));
            b = c;
            turns += 1;
        } else {
            let moves = b.legal_moves();
            let m = moves[rng.below(moves.len() as u64) as usize];
            typed = key(&mut k, m);
            let rep = b.play(m).unwrap().repeat;
            want = format!("{m}{}", if rep { '.' } else { ',' });
            if b.is_terminal() {
                want.push('\n');
            }
        }
        if b.is_terminal() {
            want.push_str(&result_line(&b));
        }
        log.push_str(&typed);
        assert_eq!(typed, want, "{ctx}");
        if b.is_terminal() {
            return turns;
        }
        assert_eq!(board(&k), b, "board; {ctx}");
    }
}

/// The machine's look-ahead from random 3-in-a-pit positions equals the reference's: value,
/// positions examined, the turn played.
#[test]
fn look_ahead_equals_the_reference() {
    let mut rng = Rng(0xbe11_0001);
    let mut k = boot(TW_ANALYSIS);
    let mut n = 0;
    while n < 60 {
        let mut b = Board::new(3);
        b.to_move = if rng.below(2) == 0 { MACHINE } else { PERSON };
        let len = rng.below(30);
        for _ in 0..len {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
        if b.is_terminal() || b.to_move != MACHINE {
            continue;
        }
        set_position(&mut k, &b, TW_ANALYSIS);
        assert_eq!(board(&k), b);
        let (turn, r) = plain_turn(&b);
        let typed = key(&mut k, SPACE);
        let line = typed
            .lines()
            .find(|l| l.starts_with('e'))
            .unwrap_or_else(|| panic!("{typed:?}"));
        assert_eq!(
            line,
            format!("e{}v{}", r.effort, r.value),
            "{b:?}: {typed:?}"
        );
        if r.value > -bell::WIN {
            let digits: Vec<u8> = typed
                .trim_start_matches([' ', '\u{8}'])
                .chars()
                .take_while(|c| *c != '\n')
                .filter_map(|c| c.to_digit(10).map(|d| d as u8))
                .collect();
            assert_eq!(digits, turn, "{b:?}: {typed:?}");
        }
        n += 1;
    }
}

/// Whole games against a random person, the machine opening half of them: every key's typed
/// answer and the board after it equal the reference's.
#[test]
fn games_equal_the_reference_smoke() {
    let mut rng = Rng(0xbe11_0002);
    let mut turns = 0;
    for g in 0..6 {
        turns += play_game(&mut rng, g % 2 == 0);
    }
    assert!(turns > 20, "{turns}");
}

/// Keys out of turn are crossed out; at the start either side may open.
#[test]
fn keys_out_of_turn_are_crossed_out() {
    let mut k = boot(0);
    assert_eq!(key(&mut k, 0o07), "7\u{8}x");
    assert_eq!(key(&mut k, 2), "2,");
    assert_eq!(key(&mut k, 1), "1\u{8}x", "the machine is to move");
    assert_eq!(board(&k).to_move, MACHINE);
    let _ = Side::A;
}
