//! The display hacks from `../shared/tapes`: munching squares, the Minsky circle and the
//! Minskytron. Each test checks the pattern against an independent expectation — the
//! program's arithmetic as the PDP-1 Handbook defines it, or the geometry of the algorithm —
//! and that the pattern evolves and depends on the test word where the program reads it.

mod library_common;
use library_common::*;
use std::collections::BTreeSet;

const MASK: u32 = 0o777_777;

/// One's-complement 18-bit add as the handbook gives it: end-around carry, and a −0 result
/// becomes +0 unless both operands were −0.
fn add(a: u32, b: u32) -> u32 {
    let mut s = a + b;
    if s > MASK {
        s = (s + 1) & MASK;
    }
    if s == MASK && !(a == MASK && b == MASK) {
        s = 0;
    }
    s
}

/// The Type 30 coordinate from a register: bits 0–9 as a one's-complement number.
fn coord(r: u32) -> i16 {
    let v = (r >> 8) as i16;
    if v & 0o1000 != 0 {
        -(v ^ 0o1777)
    } else {
        v
    }
}

/// munch-small.rim at 1000: `lat; add v; dac v; rcl 9s; xor v; dpy; jmp 1000` (the tape's
/// seven words). The model: v += TW; (AC, IO) rotated left 9 as one 36-bit register; AC ^= v;
/// a point at (AC, IO).
fn munch_model(tw: u32, mut v: u32, mut io: u32, n: usize) -> Vec<(i16, i16)> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        v = add(v, tw);
        let ac = ((v << 9) & MASK) | (io >> 9);
        io = ((io << 9) & MASK) | (v >> 9);
        let ac = ac ^ v;
        out.push((coord(ac), coord(io)));
    }
    out
}

fn munch(tw: u32) -> Option<(Machine, u32, u32)> {
    let t = tape("munch-small.rim")?;
    let mut m = read_in(MachineConfig::default(), t, 10 * SEC);
    assert_eq!(
        m.pc(),
        0o1000,
        "munching squares starts at 1000 (its tape's jmp)"
    );
    m.set_test_word(Word::new(tw));
    m.drain_display();
    let v = m.read(0o1007).unwrap().bits();
    let io = m.io().bits();
    Some((m, v, io))
}

#[test]
fn munching_squares_follow_the_xor_rule_for_several_test_words() {
    for tw in [1, 0o1000, 0o3, 0o200001] {
        let Some((mut m, v, io)) = munch(tw) else {
            return;
        };
        run_for(&mut m, 500 * MS);
        let got: Vec<(i16, i16)> = m.drain_display().iter().map(|p| (p.x, p.y)).collect();
        // 50 µs per point (the waiting dpy: 10 cycles, its completion pulse 39 µs after it, see
        // pdp1-core io/display.rs) + the 7 instructions: ~ 9,000 points in 0.5 s.
        assert!(got.len() > 5000, "tw {tw:o}: {} points", got.len());
        let want = munch_model(tw, v, io, got.len());
        assert_eq!(
            got, want,
            "tw {tw:o}: display stream differs from the munching rule"
        );
    }
}

#[test]
fn munching_squares_evolve_and_depend_on_the_test_word() {
    let Some((mut m, _, _)) = munch(0) else {
        return;
    };
    // Test word 0: v never changes, the same point over and over.
    run_for(&mut m, 200 * MS);
    let still = point_set(&m.drain_display());
    assert!(
        still.len() <= 2,
        "tw 0 should freeze the picture: {} points",
        still.len()
    );
    // Test word 1: the squares grow; successive seconds light different points.
    m.set_test_word(Word::new(1));
    let mut seconds = Vec::new();
    for _ in 0..3 {
        run_for(&mut m, SEC);
        seconds.push(point_set(&m.drain_display()));
    }
    for s in &seconds {
        assert!(s.len() > 10_000, "{} distinct points per second", s.len());
    }
    assert_ne!(seconds[0], seconds[1]);
    assert_ne!(seconds[1], seconds[2]);
    // Changing the test word changes the pattern from the same state.
    let (Some((mut a, _, _)), Some((mut b, _, _))) = (munch(1), munch(0o1000)) else {
        return;
    };
    run_for(&mut a, SEC);
    run_for(&mut b, SEC);
    assert_ne!(point_set(&a.drain_display()), point_set(&b.drain_display()));
}

#[test]
fn circle_points_lie_on_minskys_circle_and_turn_one_sixteenth_radian_per_point() {
    let Some(t) = tape("circle.rim") else { return };
    let mut m = read_in(MachineConfig::default(), t, 10 * SEC);
    assert_eq!(m.pc(), 0o100);
    // circle.rim keeps x at 113 (initially 200000 = 256 on the scope) and y at 114 (0).
    assert_eq!(m.read(0o113).unwrap().bits(), 0o200000);
    m.drain_display();
    run_for(&mut m, 2 * SEC);
    let p = m.drain_display();
    assert!(p.len() > 10_000, "{} points", p.len());
    let mut octants = BTreeSet::new();
    for q in &p {
        let r = ((q.x as f64).powi(2) + (q.y as f64).powi(2)).sqrt();
        // Minsky's x += ε y, y −= ε x (ε = 1/16) draws a closed ellipse within about ε/2 of
        // the circle, plus the truncation of the shifts.
        assert!(
            (235.0..=275.0).contains(&r),
            "point ({}, {}) at radius {r}",
            q.x,
            q.y
        );
        octants.insert(
            (((q.y as f64).atan2(q.x as f64) / std::f64::consts::FRAC_PI_4).floor() as i32)
                .rem_euclid(8),
        );
    }
    assert_eq!(octants.len(), 8, "the whole circle is drawn: {octants:?}");
    // The angle advances by about ε = 1/16 radian per point, always the same way round:
    // ~100 points per turn.
    let mut turns = 0.0;
    for w in p.windows(2) {
        let a0 = (w[0].y as f64).atan2(w[0].x as f64);
        let a1 = (w[1].y as f64).atan2(w[1].x as f64);
        let mut d = a1 - a0;
        if d > std::f64::consts::PI {
            d -= 2.0 * std::f64::consts::PI;
        }
        if d < -std::f64::consts::PI {
            d += 2.0 * std::f64::consts::PI;
        }
        assert!(
            (0.045..=0.08).contains(&d.abs()),
            "step of {d} rad from ({}, {}) to ({}, {})",
            w[0].x,
            w[0].y,
            w[1].x,
            w[1].y
        );
        turns += d;
    }
    let per_turn = p.len() as f64 / (turns.abs() / (2.0 * std::f64::consts::PI));
    assert!(
        (95.0..=106.0).contains(&per_turn),
        "{per_turn} points per turn"
    );
}

/// Minskytron: the tape's start `jmp 500` points at empty memory (the program is at 4–146);
/// its code at 5 swaps AC into IO (`rcl 9s; rcl 9s`) and takes six 3-bit shift counts from
/// the word the operator put in AC. The console way to put the test word in AC is DEPOSIT
/// (AC ← TW, [HB] console): deposit into 4 (unused once started at 5), then START at 5.
fn minskytron(tw: u32) -> Option<Machine> {
    let t = tape("minskytron.rim")?;
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    m.mount_tape(t);
    m.read_in();
    let r = m.run_until(Limit {
        until_ns: Some(10 * SEC),
        instructions: None,
    });
    assert!(
        matches!(r, StopReason::UndefinedInstruction { pc: 0o500, .. }),
        "the tape ends with jmp 500 into empty memory: {r:?}"
    );
    assert_eq!(m.read(0o5).unwrap().bits(), 0o663777, "rcl 9s at 5");
    m.set_test_word(Word::new(tw));
    m.set_test_address(4);
    m.deposit();
    m.set_test_address(5);
    m.start(false);
    Some(m)
}

#[test]
fn minskytron_draws_three_evolving_curves_shaped_by_the_test_word() {
    // 677721: the switch setting aap's PDP-1 emulator uses for this tape.
    let Some(mut m) = minskytron(0o677721) else {
        return;
    };
    let mut seconds = Vec::new();
    for _ in 0..3 {
        run_for(&mut m, SEC);
        let p = m.drain_display();
        assert!(p.len() > 5000, "{} points per second", p.len());
        seconds.push(point_set(&p));
    }
    // The three particles keep moving: new points each second.
    assert_ne!(seconds[0], seconds[1]);
    assert_ne!(seconds[1], seconds[2]);
    // Another switch setting gives another figure from the same start.
    let mut other = minskytron(0o111111).unwrap();
    run_for(&mut other, SEC);
    let q = point_set(&other.drain_display());
    assert_ne!(q, seconds[0]);
}
