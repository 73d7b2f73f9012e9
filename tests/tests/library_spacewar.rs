//! Spacewar! 3.1 and 2B from `../shared/tapes`, driven through the machine API: the display
//! stream shows the two ships, the sun and the stars; the control boxes (IOT 11, MAME layout:
//! player 2 in bits 0–3, player 1 in bits 14–17, each "rotate ccw, rotate cw, thrust, fire" —
//! pdp1-hardware.md §2.7.1) and, when started at the other address, the test word (the same
//! bit layout read by `lat`) steer the ships; the game paces itself at a plausible frame rate.
//!
//! Independent expectations, from the Spacewar! sources and the tapes themselves:
//! * both tapes hold a control-word routine `cli; iot 11` and one `lat; rcl 9s; rcl 9s` (2B at
//!   1527/1533, 3.1 at 1672/1676); starting at 4 uses the control boxes, at 5 the test word
//!   (2B's tape starts at 5, 3.1's at 4);
//! * the ships start at x = y = ±200000 (octal) in the 18-bit position words, i.e. ±256 on the
//!   10-bit display; the sun is drawn at the centre.

mod library_common;
use library_common::*;

/// Control bits, MAME layout (pdp1-hardware.md §2.7.1).
const P1_CCW: u32 = 0o000010;
const P1_CW: u32 = 0o000004;
const P1_THRUST: u32 = 0o000002;
const P1_FIRE: u32 = 0o000001;
const P2_CCW: u32 = 0o400000;
const P2_FIRE: u32 = 0o040000;

/// Read in a Spacewar! tape and start it at `start` (4: control boxes, 5: test word).
fn spacewar(name: &str, start: u32) -> Option<Machine> {
    let t = tape(name)?;
    // ~2,800 words at 400 lines/s take about 21 s of emulated time to read in.
    let mut m = read_in(MachineConfig::default(), t, 60 * SEC);
    m.stop();
    m.set_test_address(start);
    m.start(false);
    Some(m)
}

/// Points displayed during `ns`, with `controls` applied through `apply` for that time.
fn window(m: &mut Machine, ns: u64) -> Vec<DisplayPoint> {
    m.drain_display();
    run_for(m, ns);
    m.drain_display()
}

/// Points within `r` of `(x, y)`.
fn near(points: &[DisplayPoint], x: i16, y: i16, r: i16) -> Vec<(i16, i16)> {
    points
        .iter()
        .filter(|p| (p.x - x).abs() <= r && (p.y - y).abs() <= r)
        .map(|p| (p.x, p.y))
        .collect()
}

/// Frames: the game draws a frame, then idles until its next frame time; an idle gap of more
/// than 5 ms between two display points separates frames.
fn frame_count(points: &[DisplayPoint]) -> usize {
    points
        .windows(2)
        .filter(|w| w[1].time_ns - w[0].time_ns > 5 * MS)
        .count()
}

fn scene(name: &str, start: u32) {
    let Some(mut m) = spacewar(name, start) else {
        return;
    };
    run_for(&mut m, SEC);
    let p = window(&mut m, 2 * SEC);
    // Ship 1 and ship 2 where the source puts them (they drift towards the sun slowly).
    let a = near(&p, 256, 256, 40);
    let b = near(&p, -256, -256, 40);
    assert!(
        a.len() > 100,
        "{name}: ship at (256,256): {} points",
        a.len()
    );
    assert!(
        b.len() > 100,
        "{name}: ship at (-256,-256): {} points",
        b.len()
    );
    // The sun at the centre.
    let sun = near(&p, 0, 0, 20);
    assert!(sun.len() > 50, "{name}: sun: {} points", sun.len());
    // Stars: many distinct points away from the ships and the sun, spread over the scope.
    let stars: std::collections::BTreeSet<(i16, i16)> = p
        .iter()
        .filter(|q| {
            (q.x.abs() > 60 || q.y.abs() > 60)
                && ((q.x - 256).abs() > 60 || (q.y - 256).abs() > 60)
                && ((q.x + 256).abs() > 60 || (q.y + 256).abs() > 60)
        })
        .map(|q| (q.x, q.y))
        .collect();
    assert!(stars.len() >= 30, "{name}: {} star points", stars.len());
    for quadrant in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        assert!(
            stars
                .iter()
                .any(|&(x, y)| x.signum() == quadrant.0 && y.signum() == quadrant.1),
            "{name}: no stars in quadrant {quadrant:?}"
        );
    }
    // Pace: the game idles between frames to keep its speed; on a real PDP-1 (5 µs cycle)
    // that is a few tens of frames per second. Measured here, not tuned to.
    let frames = frame_count(&p) as f64 / 2.0;
    println!("{name}: {frames} frames per emulated second");
    assert!(
        (10.0..=100.0).contains(&frames),
        "{name}: {frames} frames/s"
    );
}

#[test]
fn spacewar_3_1_shows_ships_sun_and_stars_at_a_plausible_pace() {
    scene("spacewar3.1.rim", 4);
}

#[test]
fn spacewar_2b_shows_ships_sun_and_stars_at_a_plausible_pace() {
    scene("spacewar2B.rim", 4);
}

/// Which of the two ships' neighbourhoods differ between a run with `bits` held for 1.5 s and
/// a run without input: (points differing near ship (256,256), near ship (-256,-256),
/// distinct points in the input run, in the plain run).
fn effect(
    name: &str,
    start: u32,
    bits: u32,
    via_test_word: bool,
) -> Option<(usize, usize, usize, usize)> {
    effect_after(name, start, bits, via_test_word, 1500 * MS)
}

/// As [`effect`], with `bits` held for `hold` before the 300 ms compared.
fn effect_after(
    name: &str,
    start: u32,
    bits: u32,
    via_test_word: bool,
    hold: u64,
) -> Option<(usize, usize, usize, usize)> {
    let mut plain = spacewar(name, start)?;
    let mut input = spacewar(name, start)?;
    run_for(&mut plain, SEC);
    run_for(&mut input, SEC);
    if via_test_word {
        input.set_test_word(Word::new(bits));
    } else {
        input.set_control_boxes(Word::new(bits));
    }
    let _ = window(&mut plain, hold);
    let _ = window(&mut input, hold);
    // Compare the last 300 ms.
    let p = point_set(&window(&mut plain, 300 * MS));
    let q = point_set(&window(&mut input, 300 * MS));
    let diff: Vec<(i16, i16)> = p.symmetric_difference(&q).copied().collect();
    let quad = |sx: i16| {
        diff.iter()
            .filter(|(x, y)| x.signum() == sx && y.signum() == sx)
            .count()
    };
    Some((quad(1), quad(-1), q.len(), p.len()))
}

fn controls(name: &str, start: u32, via_test_word: bool) {
    let how = if via_test_word {
        "test word"
    } else {
        "control boxes"
    };
    // Player 1 rotating changes one ship only; player 2 rotating changes the other one.
    let Some((a1, b1, _, _)) = effect(name, start, P1_CCW, via_test_word) else {
        return;
    };
    let (a2, b2, _, _) = effect(name, start, P2_CCW, via_test_word).unwrap();
    println!("{name} {how}: p1 ccw differs {a1}/{b1}, p2 ccw {a2}/{b2}");
    let p1_is_a = a1 > 0;
    assert!(
        a1 + b1 > 0,
        "{name} {how}: player 1 rotation changed nothing"
    );
    assert!(
        a2 + b2 > 0,
        "{name} {how}: player 2 rotation changed nothing"
    );
    if p1_is_a {
        assert!(
            b1 == 0 && a2 == 0 && b2 > 0,
            "{name} {how}: {a1} {b1} {a2} {b2}"
        );
    } else {
        assert!(
            a1 == 0 && a2 > 0 && b2 == 0,
            "{name} {how}: {a1} {b1} {a2} {b2}"
        );
    }
    // Clockwise is not counter-clockwise: the ship ends up in a different attitude.
    let ccw = run_with(name, start, P1_CCW, via_test_word);
    let cw = run_with(name, start, P1_CW, via_test_word);
    assert_ne!(ccw, cw, "{name} {how}: ccw and cw gave the same picture");
    // Thrust and fire change player 1's ship region and put new points on the scope.
    // Thrust: player 1's ship ends up elsewhere; player 2's ship flies on as without input.
    let plain = run_with_for(name, start, 0, via_test_word, 4 * SEC);
    let thrust = run_with_for(name, start, P1_THRUST, via_test_word, 4 * SEC);
    let (p1s, p2s) = if p1_is_a { (1, -1) } else { (-1, 1) };
    let moved = |sx: i16| {
        let (a, b) = (centroid(&plain, sx), centroid(&thrust, sx));
        ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
    };
    let (m1, m2) = (moved(p1s), moved(p2s));
    println!("{name} {how}: thrust moved player 1's ship {m1:.1}, player 2's {m2:.1}");
    assert!(
        m1 > 5.0 && m1 > 4.0 * m2,
        "{name} {how}: thrust moved {m1:.1} / {m2:.1}"
    );
    // Torpedoes in flight add points. Not once fire has been held long: a torpedo then reaches
    // the other ship, the regions around both ships lose about half their points, and the
    // window has fewer points than without fire. When that happens depends on the game's
    // speed, which the display's timing sets: with a waiting point taking 50 µs (issue 16;
    // 60 µs before) both tapes run a few per cent more frames a second (63 → 65 for 2B), and
    // the loss (measured: near-ship points 145 → 80) came between 1.0 and 1.2 s of fire, no
    // longer after the 1.5–1.8 s window used for the rotations. So the torpedoes are looked
    // at after 600 ms of fire, while they fly.
    let (fa, fb, with_fire, without) =
        effect_after(name, start, P1_FIRE, via_test_word, 600 * MS).unwrap();
    println!("{name} {how}: fire differs {fa}/{fb}, points {with_fire} vs {without}");
    assert!(
        with_fire > without,
        "{name} {how}: torpedoes add points ({with_fire} vs {without})"
    );
    let _ = P2_FIRE;
}

/// Mean position of the points in the quadrant with both signs `sx`, near the diagonal ship
/// start (within 120 of (±256, ±256)).
fn centroid(points: &std::collections::BTreeSet<(i16, i16)>, sx: i16) -> (f64, f64) {
    let q: Vec<_> = points
        .iter()
        .filter(|(x, y)| (x - 256 * sx).abs() < 120 && (y - 256 * sx).abs() < 120)
        .collect();
    assert!(!q.is_empty(), "no ship near ({}, {})", 256 * sx, 256 * sx);
    let n = q.len() as f64;
    (
        q.iter().map(|p| p.0 as f64).sum::<f64>() / n,
        q.iter().map(|p| p.1 as f64).sum::<f64>() / n,
    )
}

fn run_with(
    name: &str,
    start: u32,
    bits: u32,
    via_test_word: bool,
) -> std::collections::BTreeSet<(i16, i16)> {
    run_with_for(name, start, bits, via_test_word, 1500 * MS)
}

fn run_with_for(
    name: &str,
    start: u32,
    bits: u32,
    via_test_word: bool,
    ns: u64,
) -> std::collections::BTreeSet<(i16, i16)> {
    let mut m = spacewar(name, start).unwrap();
    run_for(&mut m, SEC);
    if via_test_word {
        m.set_test_word(Word::new(bits));
    } else {
        m.set_control_boxes(Word::new(bits));
    }
    run_for(&mut m, ns);
    point_set(&window(&mut m, 300 * MS))
}

#[test]
fn spacewar_3_1_control_boxes_steer_each_players_ship() {
    controls("spacewar3.1.rim", 4, false);
}

#[test]
fn spacewar_3_1_test_word_steers_when_started_at_5() {
    controls("spacewar3.1.rim", 5, true);
}

#[test]
fn spacewar_2b_control_boxes_steer_each_players_ship() {
    controls("spacewar2B.rim", 4, false);
}

#[test]
fn spacewar_2b_test_word_steers_when_started_at_5() {
    controls("spacewar2B.rim", 5, true);
}

/// (star points away from ships and sun, sun points) in 1 s after 3 s with `ss` set.
fn stars_and_sun(name: &str, ss: u8) -> Option<(usize, usize)> {
    let mut m = spacewar(name, 4)?;
    m.set_sense_switches(ss);
    run_for(&mut m, 3 * SEC);
    let p = window(&mut m, SEC);
    let stars = p
        .iter()
        .filter(|q| {
            (q.x.abs() > 60 || q.y.abs() > 60)
                && ((q.x.abs() - 256).abs() > 80 || (q.y.abs() - 256).abs() > 80)
        })
        .count();
    Some((stars, near(&p, 0, 0, 20).len()))
}

/// Sense switches as Spacewar!'s operators used them: SS4 turns the background (the
/// Expensive Planetarium star map) off in 3.1, SS6 turns the central star off in both.
#[test]
fn spacewar_sense_switches_turn_off_stars_and_sun() {
    let Some((stars, sun)) = stars_and_sun("spacewar3.1.rim", 0) else {
        return;
    };
    assert!(
        stars > 100 && sun > 100,
        "3.1 plain: {stars} star points, {sun} sun points"
    );
    let (stars4, sun4) = stars_and_sun("spacewar3.1.rim", 0o04).unwrap();
    assert_eq!(stars4, 0, "3.1 SS4: no background stars");
    assert!(sun4 > 100, "3.1 SS4 keeps the sun: {sun4}");
    for name in ["spacewar3.1.rim", "spacewar2B.rim"] {
        let (_, plain_sun) = stars_and_sun(name, 0).unwrap();
        let (stars6, sun6) = stars_and_sun(name, 0o01).unwrap();
        assert!(
            sun6 * 5 < plain_sun,
            "{name} SS6: sun {sun6} vs {plain_sun} points"
        );
        assert!(stars6 > 100, "{name} SS6 keeps the stars: {stars6}");
    }
}
