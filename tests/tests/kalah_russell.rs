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
    random_play(rng)
        .filter(|(b, _, _)| !russell::decided(b))
        .map(|(b, len, _)| (b, len))
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

/// The paper with SS3 on: each root move's current variations, then its line, and the end.
fn expected_ss3(b: &Board, r: &Report) -> String {
    let mut want = String::from(" \n");
    for l in &r.lines {
        for v in r.variations.iter().filter(|v| v.0[0].0 == l.pv[0].0) {
            want.push_str(&russell::render_variation(v));
            want.push('\n');
        }
        want.push_str(&russell::render_line(l));
        want.push('\n');
    }
    want.push_str(&format!(
        "te{}tp{}v{}\npv{}\n{}",
        r.effort,
        r.long_effort,
        r.value,
        russell::render(&r.pv),
        punct(b, r)
    ));
    want
}

#[test]
fn ss3_types_every_current_variation() {
    let mut p = Program::boot(test_word(3, 2, TW_RUSSELL), SS3);
    // Without gamma mode: every leaf of the full search.
    p.type_text("o4.");
    p.paper();
    let b = opening(2);
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(3)
    };
    let r = russell::analyse_traced(&b, 0, &a).unwrap();
    assert!(r.variations.len() > 10, "{:?}", r.variations);
    p.key(SPACE);
    assert_eq!(p.paper(), expected_ss3(&b, &r));
}

/// Gamma mode (option 2): a main-search node whose best short-look value lies 8 beyond its
/// window (α < 0 < β) returns β (A) or α (B) without a long look. From the 3-stone opening at
/// depth 6 (Russell's defaults against option 3 alone) it saves effort — rarely, as the memo
/// says — and the program types the engine's printout with gamma on and off; from the 4-stone
/// opening at depth 4 with SS3, a cut node types no variation.
#[test]
fn gamma_mode_changes_the_effort() {
    let b = opening(3);
    let on = Analysis::russell(6);
    let off = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(6)
    };
    let (ron, roff) = (analyse(&b, 0, &on).unwrap(), analyse(&b, 0, &off).unwrap());
    assert_eq!((ron.effort, ron.long_effort), (18023, 1881));
    assert_eq!((roff.effort, roff.long_effort), (20200, 2299));
    assert_eq!((ron.value, ron.best), (roff.value, roff.best));
    let mut p = Program::boot(test_word(6, 3, TW_RUSSELL), 0);
    check(&mut p, &b, 0, &off);
    check(&mut p, &b, 0, &on);

    let b = opening(4);
    let mut p = Program::boot(test_word(4, 4, TW_RUSSELL), SS3);
    let r = russell::analyse_traced(&b, 0, &Analysis::russell(4)).unwrap();
    let full = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(4)
    };
    let rf = russell::analyse_traced(&b, 0, &full).unwrap();
    assert!(r.long_effort < rf.long_effort && r.variations.len() < rf.variations.len());
    p.key(SPACE);
    assert_eq!(p.paper(), expected_ss3(&b, &r));
}

#[test]
fn ss6_suppresses_the_printout() {
    let mut p = Program::boot(test_word(3, 2, TW_RUSSELL), SS6);
    let b = opening(2);
    let r = analyse(&b, 0, &Analysis::russell(3)).unwrap();
    p.key(SPACE);
    assert_eq!(p.paper(), format!(" \u{8}{}", punct(&b, &r)));
}

#[test]
fn commands_set_depth_stones_and_marker_frequency() {
    let mut p = Program::boot(test_word(0, 3, TW_RUSSELL), 0);
    // Depth field 0 means 5 in Russell mode.
    let b = opening(3);
    let r = analyse(&b, 0, &Analysis::russell(5)).unwrap();
    p.key(SPACE);
    assert_eq!(p.paper(), expected(&b, &r));
    // s: a new game with 4 stones per pit; d: depth 2; y: marker frequency.
    p.type_text("s4.d2.y10.");
    assert_eq!(p.paper(), "s4.d2.y10.");
    assert_eq!(p.board(), opening(4));
    let yf = p.sym("yf");
    assert_eq!(p.m.read(yf).unwrap().bits(), 10);
    let r = analyse(&opening(4), 0, &Analysis::russell(2)).unwrap();
    p.key(SPACE);
    assert_eq!(p.paper(), expected(&opening(4), &r));
}

#[test]
fn bad_command_syntax_is_crossed_out() {
    let mut p = Program::boot(test_word(2, 2, TW_RUSSELL), 0);
    for bad in ["a1x", "a5-", "o8", "b.", "s7.", "d/"] {
        p.type_text(bad);
        assert_eq!(p.paper(), format!("{bad}\u{8}x"));
    }
    // Nothing was changed: the default analysis.
    let b = opening(2);
    let r = analyse(&b, 0, &Analysis::russell(2)).unwrap();
    p.key(SPACE);
    assert_eq!(p.paper(), expected(&b, &r));
    // At most eight table numbers; those typed before the error are stored.
    p.type_text("t1/2/3/4/5/6/7/8/");
    assert_eq!(p.paper(), "t1/2/3/4/5/6/7/8/\u{8}x");
    p.type_text("t3/40.");
    assert_eq!(p.paper(), "t3/40.");
    let td = p.sym("td");
    let table: Vec<u32> = (0..8).map(|i| p.m.read(td + i).unwrap().bits()).collect();
    assert_eq!(table, vec![3, 40, 3, 4, 5, 6, 7, 0o777]);
    // In the DEC game letters are not commands.
    let mut q = Program::boot(test_word(2, 2, 0), 0);
    q.type_text("a1.");
    assert_eq!(q.paper(), "a\u{8}x1,.\u{8}x");
}

/// Russell's proof (Memo 22: "two in a pit Kalah can be proved a win by the first player in
/// about five minutes"): depth 13, α = 101, β = 102, short-look depth 3 (option 1 off),
/// postponable moves postponed. The program proves value 102 with move 2 — the engine's
/// result, and the winning move of the exhaustive solution (kalah.md §1).
#[test]
fn proof_two_in_a_pit() {
    let mut p = Program::boot(test_word(13, 2, TW_RUSSELL), 0);
    p.type_text("a101.b102.o4.");
    p.paper();
    let a = Analysis {
        alpha: 101,
        beta: 102,
        op: russell::OP_POSTPONE,
        ..Analysis::russell(13)
    };
    let b = opening(2);
    let r = analyse(&b, 0, &a).unwrap();
    assert_eq!((r.value, r.best), (102, 2));
    let t0 = p.m.time_ns();
    let h0 = std::time::Instant::now();
    p.key(SPACE);
    let host = h0.elapsed();
    assert_eq!(p.paper(), expected(&b, &r));
    eprintln!(
        "proof: e {} p {} emulated {:.1} s host {} ms",
        r.effort,
        r.long_effort,
        (p.m.time_ns() - t0) as f64 / 1e9,
        host.as_millis()
    );
}

/// Proof searches at increasing depths, program against engine, with emulated and host time:
/// `cargo test --release -p pdp1-tests --test kalah_russell -- --ignored --nocapture`.
#[test]
#[ignore]
fn proof_benchmark() {
    for (stones, depths) in [(2u8, 10..=13u32), (3, 6..=12)] {
        for depth in depths {
            let mut p = Program::boot(test_word(depth, stones as u32, TW_RUSSELL), SS6);
            p.type_text("a101.b102.o4.");
            p.paper();
            let a = Analysis {
                alpha: 101,
                beta: 102,
                op: russell::OP_POSTPONE,
                ..Analysis::russell(depth)
            };
            let b = opening(stones);
            let h = std::time::Instant::now();
            let r = analyse(&b, 0, &a).unwrap();
            let engine_ms = h.elapsed().as_secs_f64() * 1e3;
            let t0 = p.m.time_ns();
            let h0 = std::time::Instant::now();
            p.key(SPACE);
            let host = h0.elapsed().as_millis();
            let emulated = (p.m.time_ns() - t0) as f64 / 1e9;
            assert_eq!(p.paper(), format!(" \u{8}{}", punct(&b, &r)));
            println!(
                "| {stones} | {depth} | {} | {} | {} | {} | {emulated:.1} | {host} | {engine_ms:.0} |",
                r.best, r.value, r.effort, r.long_effort
            );
        }
    }
}

#[test]
fn r_takes_back_the_last_move() {
    let mut p = Program::boot(test_word(2, 3, TW_RUSSELL), 0);
    p.type_text("31");
    assert_eq!(p.paper(), "3.1,");
    p.key(SPACE);
    p.paper();
    let mut b = opening(3);
    b.play(3).unwrap();
    b.play(1).unwrap();
    let before = b;
    p.type_text("r");
    assert_eq!(p.paper(), "r", "nothing but the key on the paper");
    assert_eq!(p.board(), before, "the machine's move taken back");
    p.type_text("r");
    b = opening(3);
    b.play(3).unwrap();
    assert_eq!(p.board(), b);
    p.type_text("rr");
    // Back at the start: the second r gives the first move to B.
    b = opening(3);
    b.to_move = Side::B;
    assert_eq!(p.board(), b);
    // B moves first; the machine analyses for B.
    let r = analyse(&b, 0, &Analysis::russell(2)).unwrap();
    p.paper();
    p.key(SPACE);
    assert_eq!(p.paper(), expected(&b, &r));
    // r at the start again gives the first move back to A.
    p.type_text("rr");
    assert_eq!(p.board(), opening(3));
}

#[test]
fn r_takes_back_the_end_of_the_game() {
    let mut p = Program::boot(test_word(2, 1, TW_RUSSELL), 0);
    // One stone per pit: play the lower side's pits until the game ends.
    let mut b = opening(1);
    let mut history = Vec::new();
    while !b.is_terminal() {
        let m = b.legal_moves()[0];
        history.push(b);
        b.play(m).unwrap();
        p.type_text(&m.to_string());
    }
    assert!(p.paper().contains("wins") || b.is_terminal());
    p.type_text("r");
    assert_eq!(p.board(), *history.last().unwrap());
    // And the game goes on: the move can be played again.
    let m = history.last().unwrap().legal_moves()[0];
    p.type_text(&m.to_string());
    assert!(!p.paper().contains('\u{8}'));
}

/// The display points of a search: (x, y) in screen units, in order, and the typed paper.
fn think(p: &mut Program) -> (Vec<pdp1_core::DisplayPoint>, String) {
    p.m.drain_display();
    p.paper();
    let wt = p.sym("wt");
    p.m.strike_key(SPACE);
    // Let the frame in progress finish: skip points until the key is read (the frame is drawn
    // before the key is looked at); the search's points follow.
    let mut pts = Vec::new();
    let srh = p.sym("srh");
    p.m.add_breakpoint(srh);
    loop {
        let r = run_until_stop(&mut p.m, 7_200_000_000_000);
        match r {
            pdp1_core::StopReason::Breakpoint(a) if a == srh => break,
            pdp1_core::StopReason::Breakpoint(a) if a == wt => {
                p.m.step_instruction();
            }
            other => panic!("{other:?}"),
        }
    }
    p.m.remove_breakpoint(srh);
    p.m.drain_display();
    p.run_to_wait();
    pts.extend(p.m.drain_display());
    (pts, p.paper())
}

fn run_until_stop(m: &mut pdp1_core::Machine, ns: u64) -> pdp1_core::StopReason {
    m.run_until(pdp1_core::Limit {
        until_ns: Some(m.time_ns() + ns),
        instructions: None,
    })
}

/// Where the program plots the n-th point (0-based) of the long look at `level`.
fn point_at(n: u64, level: u32) -> (i16, i16) {
    (-500 + 2 * (n % 500) as i16, -480 + 64 * level as i16)
}

#[test]
fn display_of_search_depth_against_time() {
    let mut p = Program::boot(test_word(6, 3, TW_RUSSELL), 0);
    p.type_text("o4.y7.");
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(6)
    };
    let b = opening(3);
    let r = russell::analyse_traced(&b, 0, &a).unwrap();
    let (pts, paper) = think(&mut p);
    assert!(paper.ends_with(&punct(&b, &r)));
    let (marks, nodes): (Vec<&pdp1_core::DisplayPoint>, Vec<_>) =
        pts.iter().partition(|q| q.y < -480);
    let want: Vec<(i16, i16)> = r
        .levels
        .iter()
        .enumerate()
        .map(|(n, &l)| point_at(n as u64, l))
        .collect();
    let got: Vec<(i16, i16)> = nodes.iter().map(|q| (q.x, q.y)).collect();
    assert_eq!(
        got, want,
        "a point per long-look position, height 64 a level"
    );
    assert!(r.long_effort > 500, "the test covers a second display line");
    // A marker (four points) every 7th long-look leaf.
    assert_eq!(marks.len(), 4 * (r.variations.len() / 7));
    for (i, m) in marks.chunks(4).enumerate() {
        let n = r.leaf_points[7 * i + 6];
        let (x, _) = point_at(n, 0);
        let ys: Vec<i16> = m.iter().map(|q| q.y).collect();
        assert_eq!(ys, vec![-508, -502, -496, -490]);
        assert!(m.iter().all(|q| q.x == x), "marker {i} at x {x}: {m:?}");
    }
    // Points at least 50 µs apart.
    for w in pts.windows(2) {
        assert!(w[1].time_ns - w[0].time_ns >= 50_000);
    }
}

#[test]
fn ss5_types_the_variation_at_each_marker() {
    let mut p = Program::boot(test_word(4, 2, TW_RUSSELL), 0o002);
    p.type_text("o4.y100.");
    p.paper();
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(4)
    };
    let b = opening(2);
    let r = russell::analyse_traced(&b, 0, &a).unwrap();
    p.key(SPACE);
    let paper = p.paper();
    let got: Vec<&str> = paper
        .lines()
        .filter(|l| l.starts_with('p') && !l.starts_with("pv"))
        .collect();
    let want: Vec<String> = (0..r.variations.len() / 100)
        .map(|i| {
            let k = 100 * i + 99;
            format!(
                "p{:o}m{:o} {}",
                r.leaf_points[k] / 500,
                i + 1,
                russell::render(&r.variations[k].0)
            )
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

#[test]
fn option_9_cuts_the_display_and_option_8_halts_at_each_line() {
    let mut p = Program::boot(test_word(6, 3, TW_RUSSELL), 0);
    p.type_text("o404.");
    let (pts, _) = think(&mut p);
    assert!(pts.is_empty(), "option 9: no display");
    let mut p = Program::boot(test_word(6, 3, TW_RUSSELL), 0);
    p.type_text("o204.");
    p.paper();
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(6)
    };
    let r = analyse(&opening(3), 0, &a).unwrap();
    p.m.drain_display();
    p.m.strike_key(SPACE);
    let wt = p.sym("wt");
    let mut halts = 0;
    let mut points = 0;
    loop {
        let s = run_until_stop(&mut p.m, 7_200_000_000_000);
        points += p.m.drain_display().len();
        match s {
            pdp1_core::StopReason::Halted => {
                halts += 1;
                p.m.cont();
            }
            pdp1_core::StopReason::Breakpoint(a) if a == wt => {
                if p.paper().ends_with(&punct(&opening(3), &r)) {
                    break;
                }
                p.m.step_instruction();
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(halts as u64, r.long_effort / 500, "a halt per full line");
    assert!(points as u64 >= r.long_effort);
}
