//! The dual-screen Spacewar! 4.4 (2015 fix, `spacewar_dual_screen_4_4g.rim`) on a PDP-1D with
//! the Type 10 multiply/divide, `swp` and a second Type 30 (issue 16): each display shows the
//! game around one ship.
//!
//! Independent expectations, from the tape's own code and the Spacewar! layout:
//! * the program draws every other frame on the other display: its display instructions at
//!   1321/1322 are set to 720007/724007 or to 720407/724407 by program flag 4 (1236–1252),
//!   and every object's position is taken relative to a per-display offset (3437/3440,
//!   3467/3470) with `swp` (760060) moving the y coordinate into IO for the `dpy`;
//! * the ships start at x = y = ±256 on the display and the sun is at the origin (as in
//!   3.1 and 2B, library_spacewar.rs), so a display centred on one ship shows that ship at
//!   its centre, the sun at the diagonal opposite the ship's own position, and the other ship
//!   512 steps away along the diagonal — at the corners, where the coordinates wrap.

mod library_common;
use library_common::*;

fn dual(swp: bool) -> Option<Vec<DisplayPoint>> {
    let t = tape("spacewar_dual_screen_4_4g.rim")?;
    let cfg = MachineConfig {
        mul_div: true,
        lai_lia: swp,
        second_display: true,
        ..MachineConfig::default()
    };
    let mut m = read_in(cfg, t, 60 * SEC);
    run_for(&mut m, SEC);
    m.drain_display();
    run_for(&mut m, 2 * SEC);
    Some(m.drain_display())
}

fn near(points: &[&DisplayPoint], x: i16, y: i16, r: i16) -> usize {
    points
        .iter()
        .filter(|p| (p.x - x).abs() <= r && (p.y - y).abs() <= r)
        .count()
}

fn on(points: &[DisplayPoint], scope: u8) -> Vec<&DisplayPoint> {
    points.iter().filter(|p| p.scope == scope).collect()
}

#[test]
fn each_display_shows_the_game_around_its_own_ship() {
    let Some(p) = dual(true) else {
        return;
    };
    let (a, b) = (on(&p, 0), on(&p, 1));
    println!("points: first display {}, second {}", a.len(), b.len());
    // The frames alternate: both displays get a comparable share.
    assert!(
        a.len() > 1000 && b.len() > 1000,
        "{} / {}",
        a.len(),
        b.len()
    );
    assert!(a.len() < 2 * b.len() && b.len() < 2 * a.len());
    let mut suns = Vec::new();
    for (name, q) in [("first", &a), ("second", &b)] {
        // Its own ship at the centre.
        let centre = near(q, 0, 0, 40);
        assert!(
            centre > 100,
            "{name} display: {centre} points at the centre"
        );
        // The other ship at the corners (512 steps along the diagonal, wrapped).
        let corners = q
            .iter()
            .filter(|p| p.x.abs() >= 470 && p.y.abs() >= 470)
            .count();
        assert!(
            corners > 100,
            "{name} display: {corners} points in the corners"
        );
        // The sun on one diagonal, not the other.
        let (plus, minus) = (near(q, 256, 256, 30), near(q, -256, -256, 30));
        println!("{name}: centre {centre}, corners {corners}, sun at +256 {plus}, at -256 {minus}");
        assert!(
            plus.max(minus) > 50 && plus.min(minus) * 4 < plus.max(minus),
            "{name} display: sun points at (256,256) {plus}, at (-256,-256) {minus}"
        );
        suns.push(plus > minus);
    }
    assert_ne!(
        suns[0], suns[1],
        "the two displays are centred on different ships, so their suns lie on opposite sides"
    );
    // And the two centred ships are different ships (different outlines).
    let shape = |q: &[&DisplayPoint]| -> std::collections::BTreeSet<(i16, i16)> {
        q.iter()
            .filter(|p| p.x.abs() <= 40 && p.y.abs() <= 40)
            .map(|p| (p.x, p.y))
            .collect()
    };
    let (sa, sb) = (shape(&a), shape(&b));
    let common = sa.intersection(&sb).count();
    assert!(
        common * 2 < sa.len().min(sb.len()),
        "centre outlines: {} and {} points, {common} in common",
        sa.len(),
        sb.len()
    );
}

#[test]
fn without_swp_the_views_come_out_wrong() {
    // The program needs the PDP-1D exchange; on a machine where 760060 does nothing, the y
    // coordinates are not where the program computed them: no sun on either diagonal.
    let Some(p) = dual(false) else {
        return;
    };
    for scope in [0, 1] {
        let q = on(&p, scope);
        let sun = near(&q, 256, 256, 30) + near(&q, -256, -256, 30);
        assert!(
            sun < 50,
            "display {scope}: {sun} points where the sun belongs"
        );
    }
}
