//! Russell's analysis program (issues 6 and 11, test-word bit 3) against the reference engine
//! (`kalah::russell`): with the same settings — typed as the program's commands — the program
//! types exactly the engine's transcript (a line per reply turn below each root turn with its
//! variation, effort since the last line and value, SS3/SS5 variations in search order, then
//! `te… tp…` and `pv…`) and plays the engine's turn, sowing by sowing; its display of search depth
//! against time has the engine's points, 171 to a line. Memo 22's photographed run itself is
//! checked in `kalah_photo.rs`.
mod kalah_support;
use kalah::russell::{self, analyse, analyse_traced, Analysis, Printing, Report};
use kalah::{Board, DepthEntry, Side, RUSSELL_TABLE};
use kalah_support::*;

/// What the sense switches `ss` ask the program to type, markers every `y` leaves.
fn printing(ss: u8, y: u32) -> Printing {
    Printing {
        ss3: ss & SS3 != 0,
        ss5: ss & SS5 != 0,
        ss6: ss & SS6 != 0,
        y,
    }
}

/// The paper the program should type after the operator's space at `b` (`ply` sowings into
/// the game): the transcript of each analysis and the machine's turn. The machine plays the
/// root PV's turn; if the PV ends before the turn does, it analyses again for the rest (its
/// transcript on a new line after the `.`). With SS6 the space is backspaced over after the
/// first analysis. Also returns the board after the machine's turn and the analyses made.
fn machine_turn(b: &Board, ply: u32, a: &Analysis, pr: &Printing) -> (String, Board, Vec<Report>) {
    let mut out = String::from(" ");
    let mut pos = *b;
    let mut ply = ply;
    let mut reports = Vec::new();
    loop {
        let r = analyse_traced(&pos, ply, a).expect("an analysis");
        let t = russell::transcript(&r, pr);
        if !t.is_empty() {
            out.push('\n');
            out.push_str(&t);
        }
        if reports.is_empty() && pr.ss6 {
            out.push('\u{8}');
        }
        let side = pos.to_move;
        out.push_str(&russell::turn_text(&pos, &r.turn));
        for &m in &r.turn {
            pos.play(m).unwrap();
            ply += 1;
        }
        reports.push(r);
        if pos.is_terminal() || pos.to_move != side {
            return (out, pos, reports);
        }
    }
}

/// Commands for `a` (besides the depth, which the test word carries).
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

/// Russell's id for `a` (the test word's depth field).
fn id(a: &Analysis) -> u32 {
    a.depth + 1
}

/// Set up `b` with the settings `a` and markers every `y` leaves (a carriage return resets `y`),
/// strike space: the paper.
fn run(p: &mut Program, b: &Board, ply: u32, a: &Analysis, y: u32) -> String {
    p.set_position(b, ply, test_word(id(a), 0, TW_RUSSELL));
    p.type_text(&format!("{}y{y}.", commands(a)));
    let typed = p.paper();
    assert!(!typed.contains('\u{8}'), "commands refused: {typed:?}");
    p.key(SPACE);
    p.paper()
}

/// The program's paper equals the engine's (up to the game-over text if the turn ends the game).
fn check_printing(p: &mut Program, b: &Board, ply: u32, a: &Analysis, pr: &Printing) {
    let (want, after, _) = machine_turn(b, ply, a, pr);
    let t = run(p, b, ply, a, pr.y);
    let ok = if after.is_terminal() {
        t.starts_with(&want)
    } else {
        t == want
    };
    assert!(
        ok,
        "position {b:?} ply {ply} {a:?}:\nprogram:\n{t}\nengine:\n{want}"
    );
    if !after.is_terminal() {
        assert_eq!(p.board(), after, "the machine's turn played");
    }
}

fn check(p: &mut Program, b: &Board, ply: u32, a: &Analysis) {
    check_printing(p, b, ply, a, &printing(0, 0o31));
}

fn opening(stones: u8) -> Board {
    Board::new(stones)
}

#[test]
fn russell_defaults_from_the_opening() {
    let mut p = Program::boot(test_word(3, 2, TW_RUSSELL), 0);
    let b = opening(2);
    let (want, _, _) = machine_turn(&b, 0, &Analysis::russell(3), &printing(0, 0o31));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
}

#[test]
fn each_option_alone() {
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), 0);
    for op in [
        0, 1, 2, 4, 0o10, 0o20, 0o21, 0o40, 0o100, 0o177, 0o1000, 0o1006, 0o1177,
    ] {
        for (stones, id) in [(3u8, 3u32), (2, 4), (1, 5), (3, 2)] {
            let a = Analysis {
                op,
                ..Analysis::russell(id)
            };
            check(&mut p, &opening(stones), 0, &a);
        }
    }
}

/// `sor` (option 10, octal 1000) asks for ORD; without it the static order is pits 1…6. A
/// position where the two differ: the program follows the engine either way.
#[test]
fn sor_selects_ord() {
    let mut b = Board::new(0);
    b.cells[Side::A.pit_index(1)] = 3;
    b.cells[Side::A.pit_index(2)] = 4;
    b.cells[Side::A.pit_index(3)] = 1;
    b.cells[Side::A.pit_index(5)] = 2;
    b.cells[Side::B.pit_index(5)] = 2;
    b.cells[Side::B.pit_index(2)] = 3;
    b.cells[Side::B.pit_index(6)] = 1;
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), SS3);
    for op in [0, 0o1000, 0o1004, 0o4] {
        let a = Analysis {
            op,
            ..Analysis::russell(3)
        };
        check_printing(&mut p, &b, 10, &a, &printing(SS3, 0o31));
    }
    let a = |op| Analysis {
        op,
        ..Analysis::russell(3)
    };
    let (plain, sor) = (
        analyse_traced(&b, 10, &a(0)).unwrap(),
        analyse_traced(&b, 10, &a(0o1000)).unwrap(),
    );
    assert_ne!(
        plain.leaves.iter().map(|l| &l.path).collect::<Vec<_>>(),
        sor.leaves.iter().map(|l| &l.path).collect::<Vec<_>>(),
        "the orders differ here"
    );
    // sor is off again after a carriage return (op 6).
    p.type_text("o1000.\n");
    assert_eq!(p.m.read(p.sym("opt")).unwrap().bits(), 6);
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
            ..Analysis::russell(5)
        };
        check(&mut p, &opening(3), 0, &a);
    }
}

fn random_position(rng: &mut Rng) -> Option<(Board, u32)> {
    random_play(rng)
        .filter(|(b, _, _)| !russell::decided(b))
        .map(|(b, len, _)| (b, len))
}

/// Random settings: id 2–5, any options but the display's (8, 9), windows full, narrow or
/// around the 100-scale win values.
fn random_analysis(rng: &mut Rng) -> Analysis {
    let id = 2 + rng.below(4) as u32;
    let op = rng.below(0o2000) as u32 & !0o600;
    let (alpha, beta) = match rng.below(3) {
        0 => (-255, 255),
        1 => {
            let x = rng.below(21) as i32 - 10;
            (x - 1 - rng.below(4) as i32, x)
        }
        _ => (-102 + 2 * rng.below(2) as i32 * 101, 102),
    };
    Analysis {
        alpha,
        beta,
        op,
        ..Analysis::russell(id)
    }
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
        let a = random_analysis(&mut rng);
        check(&mut p, &b, ply, &a);
        done += 1;
    }
}

/// The same with SS3 and SS5 up (markers every 7 leaves): every leaf's variation, the
/// markers' lines, reply lines, all in search order.
#[test]
fn program_equals_engine_with_ss3_and_ss5_on_random_positions() {
    let mut rng = Rng(0x7373_3335);
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), SS3 | SS5);
    p.type_text("y7.");
    p.paper();
    let mut done = 0;
    while done < 150 {
        let Some((b, ply)) = random_position(&mut rng) else {
            continue;
        };
        let a = random_analysis(&mut rng);
        check_printing(&mut p, &b, ply, &a, &printing(SS3 | SS5, 7));
        done += 1;
    }
}

/// A turn the PV does not finish: a gamma cutoff's PV is the cutting move alone, so a root
/// turn that ends in a repeat may leave the machine to move again with no variation to
/// follow — it analyses again from there and types that analysis too.
#[test]
fn the_machine_analyses_again_when_the_pv_ends_inside_its_turn() {
    let mut rng = Rng(0x0061_6761_696e);
    let mut found = 0;
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), 0);
    let mut tries = 0;
    while found < 3 && tries < 20000 {
        tries += 1;
        let Some((b, ply)) = random_position(&mut rng) else {
            continue;
        };
        let a = Analysis {
            alpha: -1 - rng.below(5) as i32,
            beta: 1 + rng.below(5) as i32,
            ..Analysis::russell(2 + rng.below(3) as u32)
        };
        let (_, _, reports) = machine_turn(&b, ply, &a, &printing(0, 0o31));
        if reports.len() < 2 {
            continue;
        }
        check(&mut p, &b, ply, &a);
        p.m.set_sense_switches(SS6);
        check_printing(&mut p, &b, ply, &a, &printing(SS6, 0o31));
        p.m.set_sense_switches(0);
        found += 1;
    }
    assert_eq!(found, 3, "positions found in {tries} tries");
}

#[test]
fn ss3_types_every_leaf_with_its_own_value() {
    let mut p = Program::boot(test_word(5, 1, TW_RUSSELL), SS3);
    p.type_text("o4.");
    p.paper();
    let b = opening(1);
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(5)
    };
    let (want, _, reports) = machine_turn(&b, 0, &a, &printing(SS3, 0o31));
    let r = &reports[0];
    assert!(r.leaves.len() > 10);
    // Unclamped values: some leaf lies outside the window its node had.
    assert!(r.leaves.iter().any(|l| l.value.abs() >= 100));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
}

/// Gamma mode (option 2): a main-search node whose best short-look value lies 8 beyond its
/// window (α < 0 < β) returns β (A) or α (B) without a long look — rarely, as the memo says. From
/// the 3-stone opening at id 7 it saves effort, the program types the engine's printout with
/// gamma on and off; from the 4-stone opening at id 5 with SS3 a cut node types no variation.
#[test]
fn gamma_mode_changes_the_effort() {
    let b = opening(3);
    let on = Analysis::russell(7);
    let off = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(7)
    };
    let (ron, roff) = (analyse(&b, 0, &on).unwrap(), analyse(&b, 0, &off).unwrap());
    assert!(ron.effort < roff.effort && ron.long_effort < roff.long_effort);
    let mut p = Program::boot(test_word(7, 3, TW_RUSSELL), 0);
    check(&mut p, &b, 0, &off);
    check(&mut p, &b, 0, &on);

    let b = opening(4);
    let mut p = Program::boot(test_word(5, 4, TW_RUSSELL), SS3);
    let r = analyse_traced(&b, 0, &Analysis::russell(5)).unwrap();
    let full = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(5)
    };
    let rf = analyse_traced(&b, 0, &full).unwrap();
    assert!(r.long_effort < rf.long_effort && r.leaves.len() < rf.leaves.len());
    let (want, _, _) = machine_turn(&b, 0, &Analysis::russell(5), &printing(SS3, 0o31));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
}

#[test]
fn ss6_suppresses_the_printout() {
    let mut p = Program::boot(test_word(3, 2, TW_RUSSELL), SS6);
    let b = opening(2);
    let (want, _, _) = machine_turn(&b, 0, &Analysis::russell(3), &printing(SS6, 0o31));
    assert!(want.starts_with(" \u{8}"));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
}

#[test]
fn commands_set_depth_stones_and_marker_frequency() {
    let mut p = Program::boot(test_word(0, 3, TW_RUSSELL), 0);
    // Depth field 0 means id 5 in Russell mode.
    let b = opening(3);
    let (want, after, _) = machine_turn(&b, 0, &Analysis::russell(5), &printing(0, 0o31));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
    assert_eq!(p.board(), after);
    // s: a new game with 4 stones per pit; d: id 2 (one turn); y: marker frequency.
    p.type_text("s4.d2.y10.");
    assert_eq!(p.paper(), "s4.d2.y10.");
    assert_eq!(p.board(), opening(4));
    let yf = p.sym("yf");
    assert_eq!(p.m.read(yf).unwrap().bits(), 10);
    let (want, _, reports) = machine_turn(&opening(4), 0, &Analysis::russell(2), &printing(0, 10));
    // id 2: every root turn reaches a leaf, a line of its own without a reply.
    assert!(reports[0]
        .lines
        .iter()
        .all(|l| l.reply.is_empty() && l.first));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
}

/// Russell's id 1 would search no turn: `d1.` is crossed out like `d0.`, and a test-word depth
/// field of 1 is taken as 2.
#[test]
fn id_1_is_refused() {
    let mut p = Program::boot(test_word(1, 2, TW_RUSSELL), 0);
    assert_eq!(p.m.read(p.sym("dl")).unwrap().bits(), 2);
    let b = opening(2);
    let (want, _, _) = machine_turn(&b, 0, &Analysis::russell(2), &printing(0, 0o31));
    p.type_text("d1.");
    assert_eq!(p.paper(), "d1.\u{8}x");
    p.type_text("d0.");
    assert_eq!(p.paper(), "d0.\u{8}x");
    p.key(SPACE);
    assert_eq!(p.paper(), want);
    // The DEC game keeps depth 1.
    let q = Program::boot(test_word(1, 2, 0), 0);
    assert_eq!(q.m.read(q.sym("dl")).unwrap().bits(), 1);
}

#[test]
fn bad_command_syntax_is_crossed_out() {
    let mut p = Program::boot(test_word(2, 2, TW_RUSSELL), 0);
    for bad in ["a1x", "a5-", "o8", "b.", "s7.", "d/", "d1."] {
        p.type_text(bad);
        assert_eq!(p.paper(), format!("{bad}\u{8}x"));
    }
    // Nothing was changed: the default analysis.
    let b = opening(2);
    let (want, _, _) = machine_turn(&b, 0, &Analysis::russell(2), &printing(0, 0o31));
    p.key(SPACE);
    assert_eq!(p.paper(), want);
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

/// Russell's proof (Memo 22: "set to a depth of 15 octal … two in a pit Kalah can be proved a
/// win by the first player"; his id counts the root as level 1, so 13 searches 12 turns): α =
/// 101, β = 102, short-look depth 3 (option 1 off), postponable moves postponed. The program
/// proves value 102 with move 2 — the engine's result and the winning move of the exhaustive
/// solution (kalah.md §1) — in its best root move's line; at id 12 every line says 101.
/// Russell's proof settings at `id` for `stones` a pit: the program booted with sense switches
/// `ss` and the keys `a101.b102.o4.` typed, and the same settings for the engine.
fn proof(stones: u8, id: u32, ss: u8) -> (Program, Analysis) {
    let mut p = Program::boot(test_word(id, stones as u32, TW_RUSSELL), ss);
    p.type_text("a101.b102.o4.");
    p.paper();
    let a = Analysis {
        alpha: 101,
        beta: 102,
        op: russell::OP_POSTPONE,
        ..Analysis::russell(id)
    };
    (p, a)
}

#[test]
fn proof_two_in_a_pit() {
    for (id, v) in [(13u32, 102), (12, 101)] {
        let (mut p, a) = proof(2, id, 0);
        let b = opening(2);
        let (want, _, reports) = machine_turn(&b, 0, &a, &printing(0, 0o31));
        let r = &reports[0];
        assert_eq!(r.value, v, "id {id}");
        if v == 102 {
            assert_eq!(r.turn[0], 2);
            assert!(r.lines.iter().any(|l| l.value == 102 && l.root[0].0 == 2));
        } else {
            assert!(r.lines.iter().all(|l| l.value == 101));
        }
        let t0 = p.m.time_ns();
        let h0 = std::time::Instant::now();
        p.key(SPACE);
        let host = h0.elapsed();
        let paper = p.paper();
        assert_eq!(paper, want);
        assert!(paper.contains(&format!(" v{v}\n")));
        eprintln!(
            "proof id {id}: e {} p {} emulated {:.1} s host {} ms",
            r.effort,
            r.long_effort,
            (p.m.time_ns() - t0) as f64 / 1e9,
            host.as_millis()
        );
    }
}

/// Proof searches at increasing ids, program against engine, with emulated and host time:
/// `cargo test --release -p pdp1-tests --test kalah_russell -- --ignored --nocapture`.
#[test]
#[ignore]
fn proof_benchmark() {
    for (stones, ids) in [(2u8, 11..=14u32), (3, 7..=13)] {
        for id in ids {
            let (mut p, a) = proof(stones, id, SS6);
            let b = opening(stones);
            let h = std::time::Instant::now();
            let (want, _, reports) = machine_turn(&b, 0, &a, &printing(SS6, 0o31));
            let r = &reports[0];
            let engine_ms = h.elapsed().as_secs_f64() * 1e3;
            let t0 = p.m.time_ns();
            let h0 = std::time::Instant::now();
            p.key(SPACE);
            let host = h0.elapsed().as_millis();
            let emulated = (p.m.time_ns() - t0) as f64 / 1e9;
            assert_eq!(p.paper(), want);
            println!(
                "| {stones} | {id} | {} | {} | {} | {} | {emulated:.1} | {host} | {engine_ms:.0} |",
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
    let mut b = opening(3);
    b.play(3).unwrap();
    b.play(1).unwrap();
    let before = b;
    let (_, after, reports) = machine_turn(&b, 2, &Analysis::russell(2), &printing(0, 0o31));
    p.key(SPACE);
    p.paper();
    assert_eq!(p.board(), after);
    // r takes back one sowing: the machine's turn, sowing by sowing.
    let n: usize = reports.iter().map(|r| r.turn.len()).sum();
    for _ in 0..n {
        p.type_text("r");
        assert_eq!(p.paper(), "r", "nothing but the key on the paper");
    }
    assert_eq!(p.board(), before, "the machine's turn taken back");
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
    let (want, _, _) = machine_turn(&b, 0, &Analysis::russell(2), &printing(0, 0o31));
    p.paper();
    p.key(SPACE);
    assert_eq!(p.paper(), want);
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
    (p.m.drain_display(), p.paper())
}

fn run_until_stop(m: &mut pdp1_core::Machine, ns: u64) -> pdp1_core::StopReason {
    m.run_until(pdp1_core::Limit {
        until_ns: Some(m.time_ns() + ns),
        instructions: None,
    })
}

/// Where the program plots main-search position `n` (the root is 0) at `level` (root 0): 171
/// points to a display line, 4 units apart from x = −336, at height −336 + 32 a level (inside
/// the round face, docs/kalah.md).
fn point_at(n: u64, level: u32) -> (i16, i16) {
    let i = (n % russell::DISPLAY_LINE) as i16;
    (-336 + 4 * i, -336 + 32 * level as i16)
}

#[test]
fn display_of_search_depth_against_time() {
    let mut p = Program::boot(test_word(7, 3, TW_RUSSELL), 0);
    p.type_text("o4.y7.");
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(7)
    };
    let b = opening(3);
    let (want_paper, _, reports) = machine_turn(&b, 0, &a, &printing(0, 7));
    assert_eq!(reports.len(), 1, "one analysis");
    let r = &reports[0];
    let (pts, paper) = think(&mut p);
    assert_eq!(paper, want_paper);
    let (marks, nodes): (Vec<&pdp1_core::DisplayPoint>, Vec<_>) =
        pts.iter().partition(|q| q.y < -336);
    let want: Vec<(i16, i16)> = r
        .levels
        .iter()
        .enumerate()
        .map(|(n, &l)| point_at(n as u64, l))
        .collect();
    let got: Vec<(i16, i16)> = nodes.iter().map(|q| (q.x, q.y)).collect();
    assert_eq!(
        got, want,
        "a point per main-search position, the root included, height 32 a level"
    );
    assert_eq!(
        r.levels.len() as u64,
        r.long_effort + 1,
        "the root is plotted"
    );
    assert!(
        r.levels.len() > 3 * 171,
        "the test covers several display lines"
    );
    // A marker (four points) every 7th leaf, at the leaf's own point.
    assert_eq!(marks.len(), 4 * (r.leaves.len() / 7));
    for (i, m) in marks.chunks(4).enumerate() {
        let n = r.leaves[7 * i + 6].points - 1;
        let (x, _) = point_at(n, 0);
        let ys: Vec<i16> = m.iter().map(|q| q.y).collect();
        assert_eq!(ys, vec![-364, -358, -352, -346]);
        assert!(m.iter().all(|q| q.x == x), "marker {i} at x {x}: {m:?}");
    }
    // Points at least 50 µs apart.
    for w in pts.windows(2) {
        assert!(w[1].time_ns - w[0].time_ns >= 50_000);
    }
}

/// SS5: at each marker the leaf's line with `p<display line>m<marker in the line>,` (octal,
/// both from 1) in front — the engine's transcript; with option 9 (no display) the lines are
/// counted all the same.
#[test]
fn ss5_types_the_variation_at_each_marker() {
    for op in ["o4.", "o404."] {
        let mut p = Program::boot(test_word(5, 2, TW_RUSSELL), SS5);
        p.type_text(&format!("{op}y11."));
        p.paper();
        let a = Analysis {
            op: russell::OP_POSTPONE,
            ..Analysis::russell(5)
        };
        let b = opening(2);
        let (want, _, reports) = machine_turn(&b, 0, &a, &printing(SS5, 11));
        let r = &reports[0];
        let marks: Vec<(u64, u64)> = (0..r.leaves.len())
            .filter_map(|i| russell::marker(r, i, 11))
            .collect();
        assert!(marks.iter().any(|m| m.0 > 1), "markers on several lines");
        assert!(want.contains("p1m1,"));
        p.key(SPACE);
        assert_eq!(p.paper(), want, "{op}");
    }
}

#[test]
fn option_9_cuts_the_display_and_option_8_halts_before_each_line() {
    let mut p = Program::boot(test_word(7, 3, TW_RUSSELL), 0);
    p.type_text("o404.");
    let (pts, _) = think(&mut p);
    assert!(pts.is_empty(), "option 9: no display");
    let mut p = Program::boot(test_word(7, 3, TW_RUSSELL), 0);
    p.type_text("o204.");
    p.paper();
    let a = Analysis {
        op: russell::OP_POSTPONE,
        ..Analysis::russell(7)
    };
    let (want, _, reports) = machine_turn(&opening(3), 0, &a, &printing(0, 0o31));
    let r = &reports[0];
    p.m.drain_display();
    p.m.strike_key(SPACE);
    let wt = p.sym("wt");
    let mut halts = Vec::new();
    let mut points = 0;
    let mut paper = String::new();
    loop {
        let s = run_until_stop(&mut p.m, 7_200_000_000_000);
        points += p.m.drain_display().len();
        paper.push_str(&p.paper());
        match s {
            pdp1_core::StopReason::Halted => {
                halts.push((points, p.m.ac().bits()));
                p.m.cont();
            }
            pdp1_core::StopReason::Breakpoint(a) if a == wt => {
                if paper.ends_with(&russell::turn_text(&opening(3), &r.turn)) {
                    break;
                }
                p.m.step_instruction();
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(paper, want);
    // A halt before the first point of every display line, the first one included, with the
    // lines completed in the AC.
    let lines = r.levels.len().div_ceil(russell::DISPLAY_LINE as usize);
    assert_eq!(halts.len(), lines);
    for (i, &(_, ac)) in halts.iter().enumerate() {
        assert_eq!(ac, i as u32, "halt {i}");
    }
    assert!(halts.len() > 2);
    assert!(points >= r.levels.len());
}

/// A root that is decided but not over (A's kalah holds more than half the stones): nothing is
/// searched (`te0 tp0`, an empty `pv`), SS3 types the root itself as the one leaf with its own
/// value, and the machine plays the first move of the static order — here 1, a repeat, after
/// which it looks again and plays on.
#[test]
fn a_decided_root_plays_the_first_move_in_order() {
    let mut b = Board::new(0);
    b.cells[Side::A.pit_index(1)] = 1;
    b.cells[Side::A.pit_index(2)] = 1;
    b.cells[Side::A.pit_index(5)] = 1;
    b.cells[kalah::board::KALAH_A] = 13;
    b.cells[Side::B.pit_index(5)] = 2;
    b.cells[kalah::board::KALAH_B] = 7;
    assert!(russell::decided(&b) && !b.is_terminal());
    let a = Analysis::russell(3);
    let r = analyse_traced(&b, 20, &a).expect("an analysis of a decided root");
    assert_eq!((r.effort, r.long_effort, r.turn.clone()), (0, 0, vec![1]));
    let mut p = Program::boot(test_word(3, 3, TW_RUSSELL), SS3);
    let pr = printing(SS3, 0o31);
    let (want, _, reports) = machine_turn(&b, 20, &a, &pr);
    assert!(reports.len() >= 2, "the repeat 1 makes it analyse again");
    // 100 + (13 + 3) − (7 + 2): kalah and pits of A less B's.
    assert!(want.starts_with(" \n v107\nte0 tp0\npv\n1."), "{want:?}");
    check_printing(&mut p, &b, 20, &a, &pr);
}
