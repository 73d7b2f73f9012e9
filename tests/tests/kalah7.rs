//! Issue 14: the Kalah(7,7) pie-rule program (roms/kalah7.rim, assembled from roms/kalah7.files)
//! against the reference engine's configuration of the one search (`kalah::mankalah::config`,
//! `choose_with`) and its match rules (`kalah::mankalah::Match`), position by position.
//!
//! Whole games from the opening: each action is either the operator's (a random legal pit, or
//! on North's first turn sometimes the swap key `s`) or the machine's (space), so the machine
//! plays South and North, after a swap and without. After every action the program's typed
//! paper must be exactly the typed contract (docs/kalah.md, "The 7×7 pie-rule game"): the
//! key, for the machine a backspace and its move digit or `s`, the punctuation, the analysis
//! line `e…p…v…` with the engine's counts and value; its board and side to move must be the
//! engine's; at the end the result line and the final board.
mod kalah_support;
use kalah::mankalah::{
    choose_open, choose_table, choose_with, config, Action, Match, HOLES, OPEN_DEPTH,
};
use kalah::{Board7, Report, Side};
use kalah_support::{glyph, parse_analysis, Program, Rng, CR, SPACE};
use pdp1_core::Word;

const TW_ANALYSIS: u32 = 0o400000;
const TW_SHORT_LOOK: u32 = 0o200000;
/// The set-up entry: the position from the block at 0040–0061 ([`write_set_up`]).
const TW_SETUP: u32 = 0o100000;
/// The open depth.
const TW_OPEN: u32 = 0o040000;
/// FIO-DEC `s`, `x`, `8`.
const KEY_S: u8 = 0o22;

/// The test word: depth (0 means 4), seeds per pit (0 means 7), options.
fn test_word(depth: u32, seeds: u32, options: u32) -> u32 {
    (depth & 0o17) | ((seeds & 0o17) << 4) | options
}

/// READ IN roms/kalah7.rim with test word `tw`, run to its waiting loop.
fn boot(tw: u32) -> Program {
    Program::boot_tape("kalah7.files", "kalah7.rim", tw, 0)
}

/// Strike a key, run until the program waits again; what was typed.
fn key(k: &mut Program, code: u8) -> String {
    k.key(code);
    k.paper()
}

/// The program's board and side to move (a7 … Kb at `bd`, then the side).
fn board(k: &Program) -> Board7 {
    let bd = k.sym("bd");
    let mut b = Board7::opening(0);
    for i in 0..16 {
        b.cells[i] = k.m.read(bd + i as u32).unwrap().bits() as u8;
    }
    b.to_move = match k.m.read(bd + 16).unwrap().bits() {
        0 => Side::A,
        _ => Side::B,
    };
    b
}

/// A match of `seeds` a pit after `n` random legal actions (fewer if it ends first).
fn random_match(rng: &mut Rng, seeds: u8, n: u64) -> Match {
    let mut m = Match::new(seeds);
    for _ in 0..n {
        let a = m.legal_actions();
        if a.is_empty() {
            break;
        }
        m.play(a[rng.below(a.len() as u64) as usize]).unwrap();
    }
    m
}

/// The set-up block at 0040–0061 (test-word bit 2): `m`'s board a7 … Kb, the side to move and
/// the sowings into the game.
fn write_set_up(k: &mut Program, m: &Match) {
    for (i, &c) in m.board.cells.iter().enumerate() {
        k.m.write(0o40 + i as u32, Word::new(u32::from(c))).unwrap();
    }
    k.m.write(0o60, Word::new(u32::from(m.board.to_move == Side::B)))
        .unwrap();
    k.m.write(0o61, Word::new(m.sowings())).unwrap();
}

/// The machine's action typed after space has the reference's analysis line.
fn assert_analysis(typed: &str, r: &Report, ctx: &str) {
    let an = parse_analysis(typed).unwrap_or_else(|| panic!("{typed:?}; {ctx}"));
    assert_eq!(
        (an.e, an.p, an.v),
        (r.effort, r.long_effort, r.value),
        "e, p, v; {ctx}"
    );
}

/// The punctuation the program types after `a` by `mover`, which left `after`.
fn punctuation(before: &Match, a: Action, after: &Match) -> char {
    match a {
        Action::Swap => '.',
        Action::Move(_) if after.board.to_move == before.board.to_move => '.',
        Action::Move(_) if before.board.to_move == Side::A => ',',
        Action::Move(_) => '\n',
    }
}

fn action_char(a: Action) -> char {
    match a {
        Action::Swap => 's',
        Action::Move(h) => char::from(b'0' + HOLES + 1 - h),
    }
}

/// The result line, winner's kalah first, from the final (cast) board.
fn result_line(b: &Board7) -> String {
    let (ka, kb) = (
        b.kalah(Side::A) as u32 + b.pits_total(Side::A),
        b.kalah(Side::B) as u32 + b.pits_total(Side::B),
    );
    match ka.cmp(&kb) {
        std::cmp::Ordering::Greater => format!("lower wins {ka}-{kb}\n"),
        std::cmp::Ordering::Less => format!("upper wins {kb}-{ka}\n"),
        std::cmp::Ordering::Equal => format!("tie {ka}-{kb}\n"),
    }
}

/// One game: `machine` is the chance (in 8) that an action is the machine's.
fn play_game(rng: &mut Rng, seeds: u8, depth: u32, short: bool, machine: u64) -> (u32, u32) {
    let mut k = boot(test_word(
        depth,
        u32::from(seeds),
        TW_ANALYSIS | if short { TW_SHORT_LOOK } else { 0 },
    ));
    let c = config(depth, short);
    let mut m = Match::new(seeds);
    let (mut machine_moves, mut swaps) = (0, 0);
    assert_eq!(board(&k), m.board, "opening");
    let ctx0 = format!("seeds {seeds} depth {depth} short {short}");
    while !m.over() {
        let before = m.clone();
        let ctx = format!("{ctx0}, {:?}, {} actions", m.board, m.actions);
        let (a, typed, want) = if rng.below(8) < machine {
            let (a, r) = choose_with(&m, &c).unwrap();
            let typed = key(&mut k, SPACE);
            let mut after = m.clone();
            after.play(a).unwrap();
            let p = punctuation(&before, a, &after);
            let mut want = format!(" \u{8}{}{p}", action_char(a));
            if p != '\n' {
                want.push('\n');
            }
            want.push_str(&format!("e{}p{}v{}\n", r.effort, r.long_effort, r.value));
            assert_analysis(&typed, &r, &ctx);
            machine_moves += 1;
            (a, typed, want)
        } else {
            let legal = m.legal_actions();
            let a = if m.can_swap() && rng.below(2) == 0 {
                Action::Swap
            } else {
                let moves: Vec<Action> = legal
                    .into_iter()
                    .filter(|a| matches!(a, Action::Move(_)))
                    .collect();
                moves[rng.below(moves.len() as u64) as usize]
            };
            let code = match a {
                Action::Swap => KEY_S,
                Action::Move(h) => HOLES + 1 - h,
            };
            let typed = key(&mut k, code);
            let mut after = m.clone();
            after.play(a).unwrap();
            let want = format!("{}{}", action_char(a), punctuation(&before, a, &after));
            (a, typed, want)
        };
        swaps += u32::from(a == Action::Swap);
        m.play(a).unwrap();
        let mut want = want;
        if m.over() {
            if !want.ends_with('\n') {
                want.push('\n');
            }
            want.push_str(&result_line(&m.board));
        }
        assert_eq!(typed, want, "typed after {a:?}; {ctx}");
        let mut b = board(&k);
        if m.over() {
            let mut fin = Board7::opening(0);
            fin.cells[Board7::KALAH_A] = m.board.kalah(Side::A) + m.board.pits_total(Side::A) as u8;
            fin.cells[Board7::KALAH_B] = m.board.kalah(Side::B) + m.board.pits_total(Side::B) as u8;
            b.to_move = Side::A;
            fin.to_move = Side::A;
            assert_eq!(b, fin, "final board; {ctx}");
        } else {
            assert_eq!(b, m.board, "board after {a:?}; {ctx}");
        }
        assert!(m.actions < 1000);
    }
    // After the end every key but carriage return is crossed out.
    assert_eq!(key(&mut k, SPACE), " \u{8}x");
    (machine_moves, swaps)
}

fn games(seed: u64, n: usize, max_depth: u32) {
    let mut rng = Rng(seed);
    let (mut machine, mut swaps) = (0, 0);
    for g in 0..n {
        let seeds = if g % 3 == 0 {
            7
        } else {
            1 + rng.below(15) as u8
        };
        let depth = 1 + rng.below(u64::from(max_depth)) as u32;
        let short = rng.below(2) == 1;
        let chance = 1 + rng.below(7);
        let (mm, s) = play_game(&mut rng, seeds, depth, short, chance);
        machine += mm;
        swaps += s;
    }
    assert!(
        machine > 0 && swaps > 0,
        "{machine} machine moves, {swaps} swaps"
    );
}

/// A smoke set for CI: 40 whole games at depths 1–3.
#[test]
fn games_equal_the_reference_smoke() {
    games(0x6b37_0001, 40, 3);
}

/// The long run: many games at depths 1–6.
#[test]
#[ignore = "slow: cargo test --release -p pdp1-tests --test kalah7 -- --ignored"]
fn games_equal_the_reference_long() {
    games(0x6b37_0002, 400, 6);
}

/// The typed contract's fixed points: South's first move ends its turn (pit 7 of 7 seeds lands
/// in the kalah yet gets `,`), `s` is crossed out but on North's first turn, where it is
/// answered by `.`, and a second `s` is crossed out; 8, 9, 0 and letters are crossed out, and
/// so is an empty pit; space on North's first turn backspaces and types `s` or a move.
#[test]
fn keys_and_punctuation() {
    let mut k = boot(test_word(1, 0, 0));
    assert_eq!(
        key(&mut k, KEY_S),
        "s\u{8}x",
        "no swap on South's first move"
    );
    assert_eq!(
        key(&mut k, 7),
        "7,",
        "7 seeds from pit 7 end in the kalah: no repeat"
    );
    let b = board(&k);
    assert_eq!((b.kalah(Side::A), b.to_move), (1, Side::B));
    assert_eq!(key(&mut k, 0o10), "8\u{8}x");
    assert_eq!(key(&mut k, 0o61), "a\u{8}x");
    assert_eq!(key(&mut k, KEY_S), "s.");
    assert_eq!(key(&mut k, KEY_S), "s\u{8}x", "one swap");
    assert_eq!(board(&k), b, "the swap changes no seed");
    // Upper's pit 7 (7 seeds) is a repeat.
    assert_eq!(key(&mut k, 7), "7.");
    assert_eq!(key(&mut k, 7), "7\u{8}x", "an empty pit");
    assert_eq!(key(&mut k, 2), "2\n");
    // Restart: the test word is read again (1 seed a pit, depth 2).
    k.m.set_test_word(Word::new(test_word(2, 1, 0)));
    assert_eq!(key(&mut k, CR), "\n");
    assert_eq!(board(&k), Board7::opening(1));
    let t = key(&mut k, SPACE);
    assert!(t.starts_with(" \u{8}") && t.ends_with(','), "{t:?}");
    let t = key(&mut k, SPACE);
    let c = t.chars().nth(2).unwrap();
    assert!(
        t.starts_with(" \u{8}") && (c == 's' || c.is_ascii_digit()),
        "{t:?}"
    );
}

/// Thinking time (emulated, at the PDP-1's 5 µs memory cycle) and host time for South's first
/// move and for North's answer (the swap decision) from the 7×7 opening, by depth and order.
/// A benchmark, not a test of time: `cargo test --release -p pdp1-tests --test kalah7 --
/// --ignored --nocapture bench`.
#[test]
#[ignore = "benchmark: prints a table"]
fn bench_thinking_time() {
    println!("| depth | order | South's move | e | p | v | emulated s | host ms | North's answer | e | p | v | emulated s | host ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for depth in 1..=7 {
        for short in [false, true] {
            let mut k = boot(test_word(
                depth,
                0,
                TW_ANALYSIS | if short { TW_SHORT_LOOK } else { 0 },
            ));
            let mut row = format!(
                "| {depth} | {} |",
                if short { "short look" } else { "static" }
            );
            for _ in 0..2 {
                let (t0, h0) = (k.m.time_ns(), std::time::Instant::now());
                let typed = key(&mut k, SPACE);
                let secs = (k.m.time_ns() - t0) as f64 / 1e9;
                let a = parse_analysis(&typed).unwrap();
                let mv = typed.chars().nth(2).unwrap();
                row.push_str(&format!(
                    " {mv} | {} | {} | {} | {secs:.1} | {} |",
                    a.e,
                    a.p,
                    a.v,
                    h0.elapsed().as_millis()
                ));
            }
            println!("{row}");
        }
    }
}

type Points = std::collections::BTreeMap<(i16, i16), u32>;

/// The 7-pit program's font step (`chs=4400` in roms/kalah7.mac): 9 units.
const UNIT: i16 = 9;

/// A count: its digits (up to three, no leading zeros) 36 units apart from x.
fn number(points: &mut Points, n: u32, x: i16, y: i16) {
    let digits = n.to_string();
    for (i, d) in digits.bytes().enumerate() {
        glyph(points, usize::from(d - b'0'), x + 36 * i as i16, y, UNIT);
    }
}

/// The 7-pit layout of docs/kalah.md: B's pits 1..7 at y 130 and A's pits 7..1 at y −166,
/// x = −300 + 100 i; Kb at (−440, −18), Ka at (400, −18); "+" at (−440, −90) (lower to move)
/// or (−440, 54), none at the end. Every point inside the round face (radius 511).
fn expected_points(cells: &[u32; 16], plus: Option<Side>) -> Points {
    let mut pts = Points::new();
    for i in 0..7 {
        let x = -300 + 100 * i as i16;
        number(&mut pts, cells[14 - i], x, 130);
        number(&mut pts, cells[i], x, -166);
    }
    number(&mut pts, cells[15], -440, -18);
    number(&mut pts, cells[7], 400, -18);
    match plus {
        Some(Side::A) => glyph(&mut pts, 10, -440, -90, UNIT),
        Some(Side::B) => glyph(&mut pts, 10, -440, 54, UNIT),
        None => {}
    }
    for &(x, y) in pts.keys() {
        let r2 = i32::from(x).pow(2) + i32::from(y).pow(2);
        assert!(r2 < 500 * 500, "({x}, {y}) off the round face");
    }
    pts
}

fn frame(k: &mut Program) -> Points {
    let f = k.frame();
    for w in f.windows(2) {
        assert!(w[1].time_ns - w[0].time_ns >= 50_000, "{w:?}");
    }
    let mut pts = Points::new();
    for p in f {
        *pts.entry((p.x, p.y)).or_default() += 1;
    }
    pts
}

/// The board on the Type 30: every point of a frame is the layout's, after every move of
/// random games with 7 and with 15 seeds a pit (counts of one, two and three digits), the "+"
/// for the side to move and none at the end.
#[test]
fn the_display_shows_the_seven_pit_board() {
    let mut rng = Rng(0x6b37_0d15);
    let mut three_digits = false;
    for seeds in [7u8, 15] {
        let mut k = boot(test_word(1, u32::from(seeds), 0));
        let mut m = Match::new(seeds);
        loop {
            let cells: [u32; 16] = std::array::from_fn(|i| u32::from(m.board.cells[i]));
            let (cells, plus) = if m.over() {
                let mut c = [0; 16];
                c[7] = cells[7] + m.board.pits_total(Side::A);
                c[15] = cells[15] + m.board.pits_total(Side::B);
                three_digits |= c[7] >= 100 || c[15] >= 100;
                (c, None)
            } else {
                (cells, Some(m.board.to_move))
            };
            let (got, want) = (frame(&mut k), expected_points(&cells, plus));
            let extra: Vec<_> = got.iter().filter(|p| want.get(p.0) != Some(p.1)).collect();
            let missing: Vec<_> = want.iter().filter(|p| got.get(p.0) != Some(p.1)).collect();
            assert!(
                extra.is_empty() && missing.is_empty(),
                "points not in the layout {extra:?}, missing {missing:?}; {m:?}"
            );
            if m.over() {
                break;
            }
            let moves = m.board.legal_moves();
            let pit = moves[rng.below(moves.len() as u64) as usize];
            key(&mut k, pit);
            m.play(Action::Move(HOLES + 1 - pit)).unwrap();
        }
    }
    assert!(three_digits);
}

/// The set-up entry (test-word bit 2, the 18-word block at 0040–0061: the board a7 … Kb, the
/// side to move, the sowings into the game) and the machine's move there: on random reachable
/// positions (1–15 seeds a pit, 0–60 random actions in, a swap among them sometimes), depths
/// 1–5, static order and short look, the typed action and e, p, v are the reference's.
#[test]
fn set_up_positions_equal_the_reference() {
    let mut rng = Rng(0x6b37_5e70);
    let mut k = boot(test_word(1, 0, 0));
    let mut done = 0;
    while done < 300 {
        let seeds = 1 + rng.below(15) as u8;
        let n = rng.below(61);
        let m = random_match(&mut rng, seeds, n);
        if m.over() {
            continue;
        }
        let depth = 1 + (done % 5) as u32;
        let short = rng.below(2) == 1;
        write_set_up(&mut k, &m);
        let opts = TW_ANALYSIS | TW_SETUP | if short { TW_SHORT_LOOK } else { 0 };
        k.m.set_test_word(Word::new(test_word(depth, 0, opts)));
        key(&mut k, CR);
        assert_eq!(board(&k), m.board, "set-up");
        if m.swapped {
            // The program's swap flag is not in the block: a position after a swap is set
            // up one action later, where the swap is over anyway.
            if m.can_swap() || m.sowings() == 1 {
                continue;
            }
        }
        let typed = key(&mut k, SPACE);
        let (a, r) = choose_with(&m, &config(depth, short)).unwrap();
        let ctx = format!(
            "{:?} sowings {} depth {depth} short {short}",
            m.board,
            m.sowings()
        );
        assert_eq!(
            typed.chars().nth(2),
            Some(action_char(a)),
            "{typed:?}; {ctx}"
        );
        assert_analysis(&typed, &r, &ctx);
        done += 1;
    }
}

/// The open depth (test-word bit 3, issue 28): the program deepens past the depth field until a
/// search is exact (no position at its depth limit) or `OPEN_DEPTH` turns. On random endgames of
/// the set-up entry (one seed a pit, so that the exact search comes soon; static order and
/// short look) the action, e, p, v and the depth completed are the reference's
/// `choose_open` — and the exact search is reached past depth 15 at least once.
#[test]
fn open_depth_equals_the_reference() {
    let mut rng = Rng(0x6b37_0de9);
    let mut k = boot(test_word(1, 0, 0));
    let (mut done, mut past_15) = (0, 0);
    while done < 16 {
        let n = 2 + rng.below(12);
        let m = random_match(&mut rng, 1, n);
        if m.over() || m.swapped || m.can_swap() {
            continue;
        }
        let short = rng.below(4) == 0;
        write_set_up(&mut k, &m);
        let depth = 1 + rng.below(15) as u32;
        let opts = TW_ANALYSIS | TW_SETUP | TW_OPEN | if short { TW_SHORT_LOOK } else { 0 };
        k.m.set_test_word(Word::new(test_word(depth, 0, opts)));
        key(&mut k, CR);
        let typed = key(&mut k, SPACE);
        let (a, r) = choose_open(&m, &config(depth, short)).unwrap();
        let ctx = format!("{:?} sowings {} short {short}", m.board, m.sowings());
        assert_eq!(
            typed.chars().nth(2),
            Some(action_char(a)),
            "{typed:?}; {ctx}"
        );
        assert_analysis(&typed, &r, &ctx);
        let dc = k.m.read(k.sym("dc")).unwrap().bits();
        assert!(dc <= OPEN_DEPTH, "dc {dc}; {ctx}");
        past_15 += u32::from(dc > 15);
        done += 1;
    }
    assert!(past_15 > 0, "no search went past depth 15");
}

/// Sense switch 1, the operator's "move now" (issue 28). Up before space: the first iteration
/// always completes and the machine plays depth 1's action, e, p and v (the reference's
/// `choose_with` at depth 1). Raised while the machine thinks (after a random emulated time):
/// it plays exactly the reference's action and value deepening to `dc`, the depth the program
/// says it completed — not a move of the iteration the switch cut short — and the board after
/// it is the reference's (the search cut short left the board as it was). Every fourth
/// position is North's first turn, where the action is the swap decision from the last two
/// completed depths.
#[test]
fn sense_switch_1_moves_now() {
    moves_now(false);
}

/// Sense switch 1 with the transposition table on (test-word bit 4, a 64K machine: the
/// tournament agent's way, issue 28). The table lives across the iterations of a move, and the
/// iteration the switch cuts short has stored entries of its own: the machine must still play
/// the reference's action and value deepening with the table to `dc` (`choose_table`), which are
/// those of the search without it (`choose_with`), and leave the reference's board.
#[test]
fn sense_switch_1_moves_now_with_the_table() {
    moves_now(true);
}

/// [`sense_switch_1_moves_now`]'s body, with or without the table.
fn moves_now(table: bool) {
    const SS1: u8 = 0o40;
    let mut rng = Rng(if table { 0x6b37_0552 } else { 0x6b37_0551 });
    let mut k = if table {
        boot_on(test_word(1, 0, 0), 65536)
    } else {
        boot(test_word(1, 0, 0))
    };
    let (mut done, mut cut, mut deep_cut) = (0, 0, 0);
    while done < 24 {
        let n = if done % 4 == 1 { 1 } else { rng.below(30) };
        let m = random_match(&mut rng, 7, n);
        if m.over() || m.swapped {
            continue;
        }
        let short = rng.below(2) == 1;
        let depth = 7;
        write_set_up(&mut k, &m);
        let opts = TW_ANALYSIS
            | TW_SETUP
            | if short { TW_SHORT_LOOK } else { 0 }
            | if table { TW_TABLE } else { 0 };
        k.m.set_test_word(Word::new(test_word(depth, 0, opts)));
        k.m.set_sense_switches(0);
        key(&mut k, CR);
        let ctx = format!(
            "{:?} sowings {} short {short} table {table}",
            m.board,
            m.sowings()
        );
        let typed = if done % 3 == 0 {
            k.m.set_sense_switches(SS1);
            let typed = key(&mut k, SPACE);
            let (a, r) = choose_with(&m, &config(1, short)).unwrap();
            assert_eq!(
                typed.chars().nth(2),
                Some(action_char(a)),
                "{typed:?}; {ctx}"
            );
            assert_analysis(&typed, &r, &ctx);
            typed
        } else {
            k.m.strike_key(SPACE);
            // With the table, long enough for iterations of 5 levels or more (the table
            // keeps positions with 4 levels left): depth 6 takes about 30 s of PDP-1 time.
            let t = 1 + if table {
                rng.below(60_000_000_000)
            } else {
                rng.below(400_000_000)
            };
            k.m.run_until(pdp1_core::Limit {
                until_ns: Some(k.m.time_ns() + t),
                instructions: None,
            });
            k.m.set_sense_switches(SS1);
            k.run_to_wait();
            let typed = k.paper();
            let an = parse_analysis(&typed).unwrap_or_else(|| panic!("{typed:?}; {ctx}"));
            let d = k.m.read(k.sym("dc")).unwrap().bits();
            assert!((1..=depth).contains(&d), "dc {d}; {ctx}");
            let (a, r) = choose_with(&m, &config(d, short)).unwrap();
            if table {
                let (b, t) = choose_table(&m, &config(d, short), false).unwrap();
                assert_eq!((a, r.value), (b, t.value), "the reference; {ctx}");
            }
            assert_eq!(
                (typed.chars().nth(2), an.v),
                (Some(action_char(a)), r.value),
                "{typed:?} after depth {d} completed; {ctx}"
            );
            cut += u32::from(d < depth);
            deep_cut += u32::from(d < depth && d >= 5);
            let mut after = m.clone();
            after.play(a).unwrap();
            assert_eq!(board(&k), after.board, "board after the cut; {ctx}");
            typed
        };
        assert!(typed.starts_with(" \u{8}"), "{typed:?}");
        done += 1;
    }
    assert!(cut > 0, "no search was cut short");
    assert!(
        !table || deep_cut > 0,
        "no search with the table was cut short past depth 5"
    );
}

/// The transposition table (test-word bit 4, issue 28).
const TW_TABLE: u32 = 0o020000;

/// READ IN roms/kalah7.rim on a machine of `words` words.
fn boot_on(tw: u32, words: usize) -> Program {
    Program::boot_tape_on(
        "kalah7.files",
        "kalah7.rim",
        tw,
        0,
        pdp1_core::MachineConfig {
            memory_words: words,
            ..pdp1_core::MachineConfig::default()
        },
    )
}

/// The transposition table on a 64K machine (test-word bit 4, issue 28): on random positions of
/// the set-up entry (7 seeds a pit, 2–40 random actions in; for the open depth endgames of one
/// seed a pit), depths 5–7 (the table keeps positions with 4 levels left or more), static order
/// and the short look, fixed depth and the open depth, the typed action and e, p, v are the reference's with the program's table
/// (`choose_table`) — the same action and value as without it, in fewer positions. On a 4K
/// machine the bit does nothing: the reference without the table.
#[test]
fn the_table_equals_the_reference() {
    let mut rng = Rng(0x6b37_7ab1);
    let mut big = boot_on(test_word(1, 0, 0), 65536);
    let mut small = boot_on(test_word(1, 0, 0), 4096);
    let (mut done, mut fewer) = (0, 0);
    while done < 24 {
        // Every sixth the open depth, on an endgame of one seed a pit (it deepens until a
        // search is exact).
        let open = done % 6 == 5;
        let (seeds, n) = if open {
            (1, 2 + rng.below(12))
        } else {
            (7, 2 + rng.below(39))
        };
        let m = random_match(&mut rng, seeds, n);
        if m.over() || m.swapped || m.can_swap() {
            continue;
        }
        let short = rng.below(4) == 0;
        let depth = 5 + rng.below(if short { 2 } else { 3 }) as u32;
        let c = config(depth, short);
        let opts = TW_ANALYSIS
            | TW_SETUP
            | TW_TABLE
            | if short { TW_SHORT_LOOK } else { 0 }
            | if open { TW_OPEN } else { 0 };
        let ctx = format!(
            "{:?} sowings {} depth {depth} short {short} open {open}",
            m.board,
            m.sowings()
        );
        for (k, table) in [(&mut big, true), (&mut small, false)] {
            write_set_up(k, &m);
            k.m.set_test_word(Word::new(test_word(depth, 0, opts)));
            key(k, CR);
            let typed = key(k, SPACE);
            let (a, r) = match (table, open) {
                (true, _) => choose_table(&m, &c, open).unwrap(),
                (false, false) => choose_with(&m, &c).unwrap(),
                (false, true) => choose_open(&m, &c).unwrap(),
            };
            let ctx = format!("{ctx} table {table}");
            assert_eq!(
                typed.chars().nth(2),
                Some(action_char(a)),
                "{typed:?}; {ctx}"
            );
            assert_analysis(&typed, &r, &ctx);
            if table && !open {
                let (b, plain) = choose_with(&m, &c).unwrap();
                assert_eq!((a, r.value), (b, plain.value), "{ctx}");
                fewer += u32::from(r.effort < plain.effort);
            }
        }
        done += 1;
    }
    assert!(fewer > 0, "the table never saved a position");
}

#[path = "../../crates/kalah/examples/support/random_action.rs"]
mod random_action;

/// The transposition table's gain in the time-managed search (issue 28): from the positions
/// `mankalah_effort` measures (every fifth action of 4 matches of the reference at depth 4 against
/// itself, the first two actions random; the swap turn left out), the program deepens with the
/// open depth and static order, as the agent's test word does, and sense switch 1 goes up after
/// `K7_MOVE_TIME` seconds of PDP-1 time (default 24000, the agent's): the depth completed (`dc`)
/// and the positions examined, without the table and with it, on a 64K machine. PDP-1 time is
/// the machine's, so the table does not depend on the host's load. A benchmark, not a test:
/// `cargo test --release -p pdp1-tests --test kalah7 -- --ignored --nocapture bench_table`.
#[test]
#[ignore = "benchmark: prints a table"]
fn bench_table_depth() {
    let secs: u64 = std::env::var("K7_MOVE_TIME")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24000);
    let mut positions = Vec::new();
    let mut seed = 0x2851_u64;
    for _ in 0..4 {
        let mut m = Match::default();
        while !m.over() {
            let a = if m.actions < 2 {
                random_action::random_action(&m, &mut seed)
            } else {
                kalah::mankalah::choose(&m, 4).unwrap()
            };
            if m.actions % 5 == 3 && !m.swapped && !m.can_swap() {
                positions.push(m.clone());
            }
            m.play(a).unwrap();
        }
    }
    let mut k = boot_on(test_word(1, 0, 0), 65536);
    println!(
        "{} positions, {secs} s of PDP-1 time a move",
        positions.len()
    );
    println!("| position | sowings | depth without | e without | depth with the table | e with |");
    println!("|---:|---:|---:|---:|---:|---:|");
    let (mut deeper, mut same, mut shallower) = (0, 0, 0);
    for (i, m) in positions.iter().enumerate() {
        let mut row = format!("| {i} | {} |", m.sowings());
        let mut dcs = Vec::new();
        for table in [0, TW_TABLE] {
            write_set_up(&mut k, m);
            let opts = TW_ANALYSIS | TW_SETUP | TW_OPEN | table;
            k.m.set_test_word(Word::new(test_word(15, 0, opts)));
            k.m.set_sense_switches(0);
            key(&mut k, CR);
            k.m.strike_key(SPACE);
            k.m.run_until(pdp1_core::Limit {
                until_ns: Some(k.m.time_ns() + secs * 1_000_000_000),
                instructions: None,
            });
            k.m.set_sense_switches(0o40);
            k.run_to_wait();
            let an = parse_analysis(&k.paper()).unwrap();
            let dc = k.m.read(k.sym("dc")).unwrap().bits();
            dcs.push(dc);
            row.push_str(&format!(" {dc} | {} |", an.e));
        }
        k.m.set_sense_switches(0);
        match dcs[1].cmp(&dcs[0]) {
            std::cmp::Ordering::Greater => deeper += 1,
            std::cmp::Ordering::Equal => same += 1,
            std::cmp::Ordering::Less => shallower += 1,
        }
        println!("{row}");
    }
    println!("with the table: deeper {deeper}, as deep {same}, shallower {shallower}");
}
