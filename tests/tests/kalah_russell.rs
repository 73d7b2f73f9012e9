//! Russell's analysis program (issue 6, test-word bit 3) against the reference engine
//! (`kalah::russell`): with the same settings — typed as the program's commands — the program
//! types exactly the engine's printout (a line per root move with its principal variation,
//! effort and value, then `te…tp…v…` and `pv…`) and makes the engine's move.
mod kalah_support;
use kalah::russell::{self, analyse, Analysis, Report};
use kalah::{Board, DepthEntry, Side, RUSSELL_TABLE};
use kalah_support::*;

pub const TW_RUSSELL: u32 = 0o040000;
/// Sense switches 3 and 6.
pub const SS3: u8 = 0o010;
pub const SS6: u8 = 0o001;

fn punct(b: &Board, r: &Report) -> String {
    let (after, res) = b.after(r.best).unwrap();
    let p = if res.repeat {
        "."
    } else if b.to_move == Side::A {
        ","
    } else {
        "\n"
    };
    let _ = after;
    format!("{}{p}", r.best)
}

/// The paper the program should type after the operator's space.
fn expected(b: &Board, r: &Report) -> String {
    format!(" \n{}{}", russell::printout(r), punct(b, r))
}

/// Commands for `a` (besides depth, which the test word carries).
fn commands(a: &Analysis) -> String {
    let mut s = format!("a{}.b{}.o{:o}.", a.alpha, a.beta, a.op);
    if a.table != RUSSELL_TABLE.to_vec() {
        let t: Vec<String> = a
            .table
            .iter()
            .flat_map(|e| [e.depth.to_string(), e.until.to_string()])
            .collect();
        s.push_str(&format!("t{}.", t.join("/")));
    }
    s
}

fn run(p: &mut Program, b: &Board, ply: u32, a: &Analysis) -> String {
    p.set_position(b, ply, test_word(a.depth, 0, TW_RUSSELL));
    p.type_text(&commands(a));
    let typed = p.paper();
    assert!(!typed.contains('\u{8}'), "commands refused: {typed:?}");
    p.key(SPACE);
    p.paper()
}

fn check(p: &mut Program, b: &Board, ply: u32, a: &Analysis) {
    let r = analyse(b, ply, a).unwrap();
    let t = run(p, b, ply, a);
    let want = expected(b, &r);
    assert!(
        t.starts_with(&want),
        "position {b:?} ply {ply} {a:?}:\nprogram:\n{t}\nengine:\n{want}"
    );
}

fn opening(stones: u8) -> Board {
    Board::new(stones)
}

#[test]
fn russell_defaults_from_the_opening() {
    let mut p = Program::boot(test_word(3, 2, TW_RUSSELL), 0);
    let a = Analysis::russell(3);
    let b = opening(2);
    let r = analyse(&b, 0, &a).unwrap();
    p.key(SPACE);
    assert_eq!(p.paper(), expected(&b, &r));
}

#[test]
fn each_option_alone() {
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), 0);
    for op in [0, 1, 2, 4, 0o10, 0o20, 0o21, 0o40, 0o100, 0o177] {
        for (stones, depth) in [(3u8, 3u32), (2, 4), (1, 5)] {
            let a = Analysis {
                op,
                ..Analysis::russell(depth)
            };
            check(&mut p, &opening(stones), 0, &a);
        }
    }
}

#[test]
fn alpha_beta_and_table_commands() {
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), 0);
    let t = vec![
        DepthEntry { depth: 2, until: 4 },
        DepthEntry {
            depth: 1,
            until: 20,
        },
        DepthEntry {
            depth: 0,
            until: 511,
        },
        DepthEntry {
            depth: 0,
            until: 511,
        },
    ];
    for (alpha, beta) in [(-20, 20), (101, 102), (-3, -1), (0, 1)] {
        let a = Analysis {
            alpha,
            beta,
            op: 1 | 0o20,
            table: t.clone(),
            ..Analysis::russell(4)
        };
        check(&mut p, &opening(3), 0, &a);
    }
}

fn random_position(rng: &mut Rng) -> Option<(Board, u32)> {
    let stones = 1 + rng.below(6) as u8;
    let mut b = Board::new(stones);
    let len = rng.below(40) as u32;
    for _ in 0..len {
        let moves = b.legal_moves();
        if moves.is_empty() {
            return None;
        }
        b.play(moves[rng.below(moves.len() as u64) as usize])
            .unwrap();
    }
    (!russell::decided(&b)).then_some((b, len))
}

#[test]
fn program_equals_engine_on_random_positions() {
    let mut rng = Rng(0x7275_7373_656c);
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), 0);
    let mut done = 0;
    while done < 400 {
        let Some((b, ply)) = random_position(&mut rng) else {
            continue;
        };
        let depth = 1 + rng.below(4) as u32;
        let op = rng.below(0o200) as u32;
        let (alpha, beta) = match rng.below(3) {
            0 => (-255, 255),
            1 => {
                let x = rng.below(21) as i32 - 10;
                (x - 1 - rng.below(4) as i32, x)
            }
            _ => (-102 + 2 * rng.below(2) as i32 * 101, 102),
        };
        let a = Analysis {
            alpha,
            beta,
            op,
            ..Analysis::russell(depth)
        };
        check(&mut p, &b, ply, &a);
        done += 1;
    }
}
