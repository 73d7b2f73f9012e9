//! Machine options beyond the PDP-1C (issue 16): the PDP-1D operate bits `lai`/`lia` (`swp`)
//! and a second Type 30 display chosen by `dpy` bit 9. Expected values follow the sources
//! quoted in `MachineConfig`: SIMH's PDP-1D operate (cli, cla, lat, lap, cma first, then
//! `MB = IO; if LIA IO = AC; if LAI AC = MB`), and aap's two-scope wiring (intensity bit 4 of
//! the `dpy` selects the screen, bits 1–2 the intensity).

mod common;
use common::*;

fn pdp1d() -> MachineConfig {
    MachineConfig {
        lai_lia: true,
        ..MachineConfig::default()
    }
}

/// Run `word; hlt` from 100 with AC/IO preset, through the run loop (fast path) and by single
/// instructions and by single cycles; all three must agree. Returns (AC, IO).
fn opr(cfg: &MachineConfig, word: u32, ac: u32, io: u32) -> (u32, u32) {
    let prog = [(0o100, word), (0o101, 0o760400)];
    let mut results = Vec::new();
    for how in 0..3 {
        let mut m = machine_cfg(cfg.clone(), &prog);
        m.set_test_word(w(0o000707));
        m.set_test_address(0o100);
        m.start(false);
        m.set_ac(w(ac));
        m.set_io(w(io));
        match how {
            0 => assert_eq!(
                m.run_until(Limit {
                    until_ns: None,
                    instructions: Some(10),
                }),
                StopReason::Halted
            ),
            1 => assert_eq!(m.step_instruction(), StopReason::Stepped),
            _ => assert_eq!(m.step_cycle(), StopReason::Stepped),
        }
        results.push((m.ac().bits(), m.io().bits()));
    }
    assert!(
        results.windows(2).all(|p| p[0] == p[1]),
        "{word:06o}: run loop, single instruction and single cycle differ: {results:?}"
    );
    results[0]
}

#[test]
fn swp_exchanges_ac_and_io_on_a_pdp1d() {
    let d = pdp1d();
    assert_eq!(opr(&d, 0o760060, 0o123456, 0o654321), (0o654321, 0o123456));
    // lai alone: AC ← IO; lia alone: IO ← AC.
    assert_eq!(opr(&d, 0o760040, 0o1, 0o2), (0o2, 0o2));
    assert_eq!(opr(&d, 0o760020, 0o1, 0o2), (0o1, 0o1));
    // After the PDP-1C micro-operations: cma then swap; cla then swap; cli then lai (AC gets
    // the cleared IO) and cli then lia; lat (cla + OR test word 707) then swap.
    assert_eq!(opr(&d, 0o761060, 0o1, 0o2), (0o2, 0o777776));
    assert_eq!(opr(&d, 0o760260, 0o5, 0o7), (0o7, 0));
    assert_eq!(opr(&d, 0o764040, 0o5, 0o7), (0, 0));
    assert_eq!(opr(&d, 0o764020, 0o5, 0o7), (0o5, 0o5));
    assert_eq!(opr(&d, 0o762260, 0o5, 0o7), (0o7, 0o707));
    // The flag bits still work alongside: stf 1 with swp.
    let mut m = machine_cfg(d, &[(0o100, 0o760071), (0o101, 0o760400)]);
    m.set_ac(w(3));
    m.set_io(w(4));
    run_from(&mut m, 0o100, 10);
    assert_eq!((m.ac().bits(), m.io().bits(), m.pf()), (4, 3, 0o40));
}

#[test]
fn without_the_option_760060_changes_nothing() {
    let c = MachineConfig::default();
    assert!(!c.lai_lia, "the default machine is a PDP-1C");
    assert_eq!(opr(&c, 0o760060, 0o123456, 0o654321), (0o123456, 0o654321));
    assert_eq!(opr(&c, 0o761060, 0o1, 0o2), (0o777776, 0o2));
}

#[test]
fn swp_takes_one_cycle() {
    let mut m = machine_cfg(pdp1d(), &[(0o100, 0o760060)]);
    let s = step_at(&mut m, 0o100, 1, 2);
    assert_eq!((s.stop, s.cycles), (StopReason::Stepped, 1));
}

fn second() -> MachineConfig {
    MachineConfig {
        second_display: true,
        ..MachineConfig::default()
    }
}

/// The (scope, intensity) of the point one `dpy` (no wait) plots.
fn plotted(cfg: &MachineConfig, dpy: u32) -> (u8, u8) {
    let mut m = machine_cfg(cfg.clone(), &[(0o100, dpy), (0o101, 0o760400)]);
    m.set_ac(w(0o100 << 8));
    m.set_io(w(0o200 << 8));
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    let p = m.drain_display();
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].x, p[0].y), (0o100, 0o200));
    (p[0].scope, p[0].intensity)
}

#[test]
fn dpy_bit_9_chooses_the_second_display() {
    let two = second();
    assert_eq!(plotted(&two, 0o720007), (0, 0));
    assert_eq!(plotted(&two, 0o720307), (0, 3));
    assert_eq!(plotted(&two, 0o720407), (1, 0));
    assert_eq!(plotted(&two, 0o720707), (1, 3));
    assert_eq!(plotted(&two, 0o724407), (1, 0));
    // One display: bit 9 is part of the intensity, as always.
    let one = MachineConfig::default();
    assert!(!one.second_display);
    assert_eq!(plotted(&one, 0o720407), (0, 4));
    assert_eq!(plotted(&one, 0o720707), (0, 7));
    assert_eq!(plotted(&one, 0o720007), (0, 0));
}

#[test]
fn a_point_on_the_second_display_takes_the_same_time() {
    for dpy in [0o730007, 0o730407] {
        let mut m = machine_cfg(second(), &[(0o100, dpy), (0o101, 0o760400)]);
        run_from(&mut m, 0o100, 10);
        assert_eq!(
            m.cycles(),
            11,
            "{dpy:06o}: 10 cycles a waiting point, then hlt"
        );
    }
}

#[test]
fn the_light_pen_sees_only_the_first_display() {
    for (dpy, seen) in [(0o720007, true), (0o720407, false)] {
        let mut m = machine_cfg(second(), &[(0o100, dpy), (0o101, 0o760400)]);
        m.set_light_pen(Some((0o100, 0o200)));
        m.set_ac(w(0o100 << 8));
        m.set_io(w(0o200 << 8));
        run_from(&mut m, 0o100, 10);
        assert_eq!(m.pf() & 0o10 != 0, seen, "{dpy:06o}");
    }
}

#[test]
fn options_survive_a_saved_state_and_old_states_load_without_them() {
    let cfg = MachineConfig {
        lai_lia: true,
        second_display: true,
        ..MachineConfig::default()
    };
    let m = machine_cfg(cfg.clone(), &[]);
    let text = ron::to_string(&m).unwrap();
    let back: Machine = ron::from_str(&text).unwrap();
    assert_eq!(back.config(), &cfg);
    // A configuration written before the options existed reads as a PDP-1C with one display.
    let old: MachineConfig =
        ron::from_str("(memory_words: 4096, mul_div: false, xct_limit: 16, indirect_limit: 1000)")
            .unwrap();
    // (It keeps the chain limits it was saved with: they were on by default then.)
    assert_eq!(
        old,
        MachineConfig {
            xct_limit: 16,
            indirect_limit: 1000,
            ..MachineConfig::default()
        }
    );
}
