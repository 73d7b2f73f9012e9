//! In-out transfer, the I/O wait, devices, sequence break, READ IN, console and run control.
//! Expectations from pdp1-hardware.md (§2.7 IOT bits 5/6, §4 display, §5 typewriter, §6
//! reader/punch/READ IN, §7 sequence break and console).

mod common;
use common::*;
use pdp1_core::machine::status;

const MS: u64 = 1_000_000;

// ---------------------------------------------------------------- typewriter out

#[test]
fn tyo_types_io_bits_12_to_17_and_busies_the_printer() {
    // 100: tyo (no wait, 720003) / 101: hlt
    let mut m = machine(&[(0o100, 0o720003), (0o101, 0o760400)]);
    m.set_io(w(0o777761)); // low six bits 61 = "a"
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    let ev = m.drain_typewriter();
    assert_eq!(ev.len(), 1);
    assert_eq!(
        (ev[0].code, ev[0].upper, ev[0].red, ev[0].local),
        (0o61, false, false, false)
    );
    assert_eq!(
        m.status_word().bits() & status::TYPE_OUT,
        0,
        "busy right after tyo"
    );
    assert!(m.drain_typewriter().is_empty(), "drained");
}

#[test]
fn tyo_with_wait_takes_about_a_tenth_of_a_second() {
    // 100: tyo i (730003) / 101: hlt
    let mut m = machine(&[(0o100, 0o730003), (0o101, 0o760400)]);
    m.set_io(w(0o61));
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    let t = m.time_ns();
    assert!((100 * MS..110 * MS).contains(&t), "tyo i took {t} ns");
    assert_ne!(m.status_word().bits() & status::TYPE_OUT, 0, "ready again");
    assert_eq!(m.instructions(), 2, "the waiting IOT counts once");
    // Case shifts and carriage return take longer (maintenance-manual times).
    let mut m = machine(&[(0o100, 0o730003), (0o101, 0o760400)]);
    m.set_io(w(0o77));
    run_from(&mut m, 0o100, 10);
    assert!(m.time_ns() > 200 * MS);
}

#[test]
fn case_and_ribbon_are_state() {
    // Type: upper case, "a", red, "b", lower case, black, "c".
    let codes = [0o74, 0o61, 0o35, 0o62, 0o72, 0o34, 0o63];
    let mut words = vec![];
    for (i, c) in codes.iter().enumerate() {
        let a = 0o100 + 2 * i as u32;
        words.push((a, 0o220300 + i as u32)); // lio 300+i
        words.push((a + 1, 0o730003)); // tyo i
        words.push((0o300 + i as u32, *c));
    }
    words.push((0o100 + 2 * codes.len() as u32, 0o760400));
    let mut m = machine(&words);
    assert_eq!(run_from(&mut m, 0o100, 100), StopReason::Halted);
    let ev: Vec<(u8, bool, bool)> = m
        .drain_typewriter()
        .iter()
        .map(|e| (e.code, e.upper, e.red))
        .collect();
    assert_eq!(
        ev,
        vec![
            (0o74, true, false),
            (0o61, true, false),
            (0o35, true, true),
            (0o62, true, true),
            (0o72, false, true),
            (0o34, false, false),
            (0o63, false, false),
        ]
    );
}

// ---------------------------------------------------------------- keyboard

#[test]
fn key_sets_buffer_status_and_pf1_and_prints_locally() {
    // 100: tyi (720004) / 101: hlt
    let mut m = machine(&[(0o100, 0o720004), (0o101, 0o760400)]);
    assert!(m.strike_key(0o45));
    assert!(m.key_pending());
    assert_eq!(m.pf() & 0o40, 0o40);
    assert_ne!(m.status_word().bits() & status::TYPE_IN, 0);
    let ev = m.drain_typewriter();
    assert_eq!((ev[0].code, ev[0].local), (0o45, true));
    m.set_io(w(0o777777));
    run_from(&mut m, 0o100, 10);
    assert_eq!(m.io(), w(0o45), "tyi clears IO, then ORs the key in");
    assert!(!m.key_pending());
    assert_eq!(m.pf() & 0o40, 0o40, "tyi does not clear PF1");
}

#[test]
fn overrun_replaces_the_untaken_key() {
    let mut m = machine(&[(0o100, 0o720004), (0o101, 0o760400)]);
    assert!(m.strike_key(0o61));
    assert!(!m.strike_key(0o62), "second key before the first was taken");
    run_from(&mut m, 0o100, 10);
    assert_eq!(m.io(), w(0o62));
    assert_eq!(
        m.drain_typewriter().len(),
        2,
        "both keys printed on the paper"
    );
}

#[test]
fn tyi_with_wait_bit_is_refused_like_simh() {
    let mut m = machine(&[(0o100, 0o730004)]);
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::UndefinedInstruction {
            pc: 0o100,
            word: w(0o730004)
        }
    );
}

#[test]
fn key_wait_since_tracks_a_polling_program() {
    // 100: szf i 1 (650001: skip if PF1 set) / 101: jmp 100 / 102: clf 1 / 103: tyi / 104: hlt
    let prog = [
        (0o100, 0o650001),
        (0o101, 0o600100),
        (0o102, 0o760001),
        (0o103, 0o720004),
        (0o104, 0o760400),
    ];
    let mut m = machine(&prog);
    m.set_test_address(0o100);
    m.start(false);
    assert_eq!(m.key_wait_since(), None);
    m.run_until(Limit {
        until_ns: Some(300 * MS),
        instructions: None,
    });
    let since = m.key_wait_since().expect("waiting for a key");
    assert!(since < MS, "the wait began at the first poll: {since}");
    m.strike_key(0o61);
    assert_eq!(m.key_wait_since(), None, "a key ends the wait");
    assert_eq!(
        m.run_until(Limit {
            until_ns: Some(400 * MS),
            instructions: None
        }),
        StopReason::Halted
    );
    assert_eq!(m.io(), w(0o61));
    // Not polling for more than 100 ms: no longer waiting.
    let mut m = machine(&[(0o100, 0o650001), (0o101, 0o760400)]);
    run_from(&mut m, 0o100, 10);
    assert!(m.key_wait_since().is_some());
    m.set_pc(0o200); // 200: jmp 200 (a loop that does not poll)
    m.write(0o200, w(0o600200)).unwrap();
    m.cont();
    m.run_until(Limit {
        until_ns: Some(m.time_ns() + 200 * MS),
        instructions: None,
    });
    assert_eq!(m.key_wait_since(), None);
}

/// A program polling `cks` for the reader's status bit while a read runs is not waiting for
/// a key; once the tape has run out its polls are looks for a key again.
#[test]
fn cks_while_the_reader_reads_is_no_key_wait() {
    // 100: rpb (720002) / 101: cks / 102: ril 1s (662001) / 103: spi (642000) / 104: jmp 106
    // 105: jmp 101 / 106: rrb (720030) / 107: jmp 100 (Bell's rdw, without its time-out)
    let prog = [
        (0o100, 0o720002),
        (0o101, 0o720033),
        (0o102, 0o662001),
        (0o103, 0o642000),
        (0o104, 0o600106),
        (0o105, 0o600101),
        (0o106, 0o720030),
        (0o107, 0o600100),
    ];
    let mut m = machine(&prog);
    m.mount_tape(vec![0o200; 3 * 400]);
    m.set_test_address(0o100);
    m.start(false);
    m.run_until(Limit {
        until_ns: Some(2000 * MS),
        instructions: None,
    });
    assert!(m.tape_remaining() > 0, "still reading");
    assert_eq!(m.key_wait_since(), None, "reading, not waiting for a key");
    m.run_until(Limit {
        until_ns: Some(4000 * MS),
        instructions: None,
    });
    assert_eq!(m.tape_remaining(), 0);
    assert!(
        m.key_wait_since().is_some(),
        "the tape out: polling for a key"
    );
}

#[test]
fn typing_ends_a_key_wait() {
    // 100: szf i 1 / 101: tyo / 102: hlt
    let mut m = machine(&[(0o100, 0o650001), (0o101, 0o720003), (0o102, 0o760400)]);
    m.set_test_address(0o100);
    m.start(false);
    m.step_instruction();
    assert!(m.key_wait_since().is_some());
    m.step_instruction();
    assert_eq!(m.key_wait_since(), None);
}

// ---------------------------------------------------------------- reader

#[test]
fn rpb_assembles_three_hole_8_lines_and_skips_others() {
    // 100: rpb i (730002) / 101: hlt
    let mut m = machine(&[(0o100, 0o730002), (0o101, 0o760400)]);
    // Blank leader, a line with hole 7 only, then 01 02 03 with hole 8.
    m.mount_tape(vec![0, 0, 0o100, 0o201, 0o077, 0o302, 0o203, 0o277]);
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(
        m.io(),
        w(0o010203),
        "hole 7 ignored, lines without hole 8 skipped"
    );
    assert_eq!(m.tape_remaining(), 1);
    // Seven lines passed the head at 400 lines/s.
    let t = m.time_ns();
    assert!((7 * 2_500_000..8 * 2_500_000).contains(&t), "{t}");
}

#[test]
fn rpa_reads_all_eight_channels() {
    let mut m = machine(&[(0o100, 0o730001), (0o101, 0o730001), (0o102, 0o760400)]);
    m.mount_tape(vec![0o000, 0o377]);
    run_from(&mut m, 0o100, 1);
    assert_eq!(m.io(), w(0));
    m.run_until(Limit::default());
    assert_eq!(m.io(), w(0o377));
}

#[test]
fn rpb_without_wait_sets_status_and_rrb_fetches() {
    // 100: rpb (720002) / 101: cks / 102: ril 1s / 103: spi i / 104: jmp 101 / 105: rrb / 106: hlt
    // (status bit 1 shifted to the sign: loop until the reader buffer is full)
    let prog = [
        (0o100, 0o720002),
        (0o101, 0o720033),
        (0o102, 0o662001),
        (0o103, 0o652000),
        (0o104, 0o600101),
        (0o105, 0o720030),
        (0o106, 0o760400),
    ];
    let mut m = machine(&prog);
    m.mount_tape(frames(0o123456).to_vec());
    assert_eq!(run_from(&mut m, 0o100, 100_000), StopReason::Halted);
    assert_eq!(m.io(), w(0o123456));
    assert_eq!(
        m.status_word().bits() & status::READER,
        0,
        "rrb clears the status bit"
    );
}

#[test]
fn reading_past_the_end_of_tape_hangs() {
    let mut m = machine(&[(0o100, 0o730002)]);
    m.mount_tape(vec![0o201]);
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::IoHang {
            pc: 0o100,
            word: w(0o730002)
        }
    );
    assert_eq!(m.pc(), 0o100);
}

// ---------------------------------------------------------------- punch

#[test]
fn ppa_and_ppb() {
    // 100: ppa i / 101: ppb i / 102: hlt
    let mut m = machine(&[(0o100, 0o730005), (0o101, 0o730006), (0o102, 0o760400)]);
    m.set_io(w(0o570123));
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(
        m.drain_punch(),
        vec![0o123, 0o257],
        "ppa IO bits 10–17; ppb bits 0–5 + hole 8"
    );
    // Two lines at 63 lines/s.
    assert!(m.time_ns() >= 2 * 15_800_000);
    assert_ne!(m.status_word().bits() & status::PUNCH, 0);
}

// ---------------------------------------------------------------- display

#[test]
fn dpy_coordinates_intensity_and_completion() {
    // 100: dpy i with intensity 3 (730307) / 101: hlt
    let mut m = machine(&[(0o100, 0o730307), (0o101, 0o760400)]);
    m.set_ac(w(0o777400)); // x bits 0–9 = 1777: −0
    m.set_io(w(0o000777)); // y bits 0–9 = 0001 (bits 10–17 ignored)
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    let p = m.drain_display();
    assert_eq!(p.len(), 1);
    assert_eq!(
        (
            p[0].x,
            p[0].x_minus_zero,
            p[0].y,
            p[0].y_minus_zero,
            p[0].intensity
        ),
        (0, true, 1, false, 3)
    );
    // The completion pulse 39 µs after the dpy (t = 5 µs) is seen by the fetch at 45 µs,
    // which ends the wait in the tenth cycle; then the hlt.
    assert_eq!(m.time_ns(), 55_000, "waited for the completion pulse");
    // −1 and extremes.
    let mut m = machine(&[(0o100, 0o720007), (0o101, 0o760400)]);
    m.set_ac(w(0o777000)); // 1776: −1
    m.set_io(w(0o400000)); // 1000: −511
    run_from(&mut m, 0o100, 10);
    let p = m.drain_display();
    assert_eq!(
        (p[0].x, p[0].y, p[0].x_minus_zero, p[0].intensity),
        (-1, -511, false, 0)
    );
    assert!(m.time_ns() < 50_000, "dpy without wait does not wait");
}

#[test]
fn ioh_after_dpy_with_pulse_waits_for_it() {
    // 100: dpy-4000 (724007: no wait, pulse requested) / 101: ioh / 102: hlt
    let mut m = machine(&[(0o100, 0o724007), (0o101, 0o730000), (0o102, 0o760400)]);
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert!(m.time_ns() >= 50_000);
}

// ---------------------------------------------------------------- light pen (Type 32)

/// A Type 30 coordinate in AC/IO bits 0–9 (10-bit one's complement), as `dpy` reads it.
fn coord_word(v: i16) -> u32 {
    let ten = if v >= 0 {
        v as u32
    } else {
        0o1777 ^ (-v) as u32
    };
    ten << 8
}

const PF3: u8 = 0o10;

/// Plot one point at (x, y) with `dpy` (wait), then `cks`; returns the machine (IO holds the
/// status word).
fn dpy_then_cks(pen: Option<(i16, i16)>, x: u32, y: u32) -> Machine {
    // 100: dpy (730007) / 101: cks (720033) / 102: hlt
    let mut m = machine(&[(0o100, 0o730007), (0o101, 0o720033), (0o102, 0o760400)]);
    m.set_light_pen(pen);
    m.set_ac(w(x));
    m.set_io(w(y));
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    m
}

#[test]
fn light_pen_sees_points_within_its_radius() {
    use pdp1_core::machine::LIGHT_PEN_RADIUS;
    assert_eq!(LIGHT_PEN_RADIUS, 5);
    let pen = Some((100, -50));
    // (103, -46) is exactly 5 steps away (3-4-5): seen.
    let m = dpy_then_cks(pen, coord_word(103), coord_word(-46));
    assert_ne!(m.io().bits() & status::LIGHT_PEN, 0, "cks reads the hit");
    assert_ne!(m.pf() & PF3, 0, "a hit sets program flag 3");
    // (104, -46) is √32 ≈ 5.7 away: not seen; nothing else changes.
    let m = dpy_then_cks(pen, coord_word(104), coord_word(-46));
    assert_eq!(m.io().bits() & status::LIGHT_PEN, 0);
    assert_eq!(m.pf(), 0);
    // The pen away from the tube sees nothing, even at the point itself.
    let m = dpy_then_cks(None, coord_word(100), coord_word(-50));
    assert_eq!(m.io().bits() & status::LIGHT_PEN, 0);
    assert_eq!(m.pf(), 0);
    // A wider radius sees the farther point.
    let mut m = machine(&[(0o100, 0o730007), (0o101, 0o760400)]);
    m.set_light_pen(pen);
    m.set_light_pen_radius(6);
    m.set_ac(w(coord_word(104)));
    m.set_io(w(coord_word(-46)));
    run_from(&mut m, 0o100, 10);
    assert_ne!(m.status_word().bits() & status::LIGHT_PEN, 0);
}

#[test]
fn next_dpy_clears_the_light_pen_bit_but_not_flag_3() {
    // 100: lac 200 / 101: lio 201 / 102: dpy (seen) / 103: lio 202 / 104: dpy (not seen)
    // 105: hlt. The bit belongs to the last point; PF3 stays until the program clears it.
    let mut m = machine(&[
        (0o100, 0o200200),
        (0o101, 0o220201),
        (0o102, 0o730007),
        (0o103, 0o220202),
        (0o104, 0o730007),
        (0o105, 0o760400),
        (0o200, coord_word(-7)),
        (0o201, coord_word(300)),
        (0o202, coord_word(-300)),
    ]);
    m.set_light_pen(Some((-7, 300)));
    m.set_test_address(0o100);
    m.start(false);
    m.run_until(Limit {
        until_ns: None,
        instructions: Some(3),
    });
    assert_ne!(
        m.status_word().bits() & status::LIGHT_PEN,
        0,
        "first point seen"
    );
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(
        m.status_word().bits() & status::LIGHT_PEN,
        0,
        "cleared by dpy"
    );
    assert_ne!(m.pf() & PF3, 0, "flag 3 stays set");
    // Moving the pen alone changes nothing until the next dpy.
    m.set_light_pen(Some((-7, -300)));
    assert_eq!(m.status_word().bits() & status::LIGHT_PEN, 0);
}

#[test]
fn light_pen_treats_plus_and_minus_zero_alike() {
    // The renderer plots ±0 at the same place (aap's mapping), so the pen sees both there.
    m_sees(Some((0, 0)), 0o777400, 0o777400, true); // (−0, −0)
    m_sees(Some((0, 0)), 0, 0o777400, true); // (+0, −0)
    m_sees(Some((-5, 0)), 0o777400, 0, true); // −0 is 5 from −5 …
    m_sees(Some((-6, 0)), 0o777400, 0, false); // … and 6 from −6
    fn m_sees(pen: Option<(i16, i16)>, ac: u32, io: u32, seen: bool) {
        let m = dpy_then_cks(pen, ac, io);
        assert_eq!(
            m.io().bits() & status::LIGHT_PEN != 0,
            seen,
            "pen {pen:?}, ac {ac:06o}, io {io:06o}"
        );
        assert_eq!(m.pf() & PF3 != 0, seen);
    }
}

#[test]
fn light_pen_position_is_clamped_to_the_raster() {
    let mut m = machine(&[]);
    m.set_light_pen(Some((1000, -1000)));
    assert_eq!(m.light_pen(), Some((511, -511)));
    m.set_light_pen(None);
    assert_eq!(m.light_pen(), None);
    // The extreme corner is seen there.
    let m = dpy_then_cks(Some((600, -600)), coord_word(511), coord_word(-511));
    assert_ne!(m.io().bits() & status::LIGHT_PEN, 0);
}

// ---------------------------------------------------------------- I/O hang

#[test]
fn wait_with_nothing_pending_hangs() {
    let mut m = machine(&[(0o100, 0o730000)]); // ioh
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::IoHang {
            pc: 0o100,
            word: w(0o730000)
        }
    );
    // 734003: wait, but no completion pulse requested from the typewriter.
    let mut m = machine(&[(0o100, 0o734003)]);
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::IoHang {
            pc: 0o100,
            word: w(0o734003)
        }
    );
}

#[test]
fn control_boxes_and_cks() {
    let mut m = machine(&[
        (0o100, 0o720011),
        (0o101, 0o720033),
        (0o102, 0o720055),
        (0o103, 0o720033),
    ]);
    m.set_control_boxes(w(0o400017));
    step_at(&mut m, 0o100, 0, 0);
    assert_eq!(m.io(), w(0o400017));
    m.step_instruction();
    // Idle: typewriter out ready and punch ready; no sequence break mode.
    assert_eq!(m.io(), w(status::TYPE_OUT | status::PUNCH));
    m.step_instruction(); // esm
    m.step_instruction();
    assert_eq!(m.io().bits() & status::SEQ_BREAK, status::SEQ_BREAK);
}

// ---------------------------------------------------------------- sequence break

#[test]
fn sequence_break_entry_and_return() {
    // Main: 100: esm / 101: jmp 101 (spin)
    // Break routine at 3: 3: tyi / 4: dio 300 / 5: lac 0 / 6: lio 2 / 7: jmp i 1
    let prog = [
        (0o100, 0o720055),
        (0o101, 0o600101),
        (0o3, 0o720004),
        (0o4, 0o320300),
        (0o5, 0o200000),
        (0o6, 0o220002),
        (0o7, 0o610001),
    ];
    let mut m = machine(&prog);
    m.set_test_address(0o100);
    m.start(false);
    m.set_ac(w(0o1234));
    m.set_io(w(0o4321));
    m.set_ov(true);
    m.run_until(Limit {
        until_ns: None,
        instructions: Some(5),
    });
    assert_eq!(m.pc(), 0o101);
    m.strike_key(0o66);
    let c0 = m.cycles();
    // The request counts from the next cycle, the fetch of `jmp 101`, which finishes the jmp;
    // the break follows ([aap] cycle0 TP10, see cycle.rs).
    m.step_cycle();
    assert_eq!((m.cycles() - c0, m.pc()), (1, 0o101));
    assert!(m.break_entry_next());
    m.step_cycle(); // break entry: three cycles
    assert_eq!(m.cycles() - c0, 4);
    assert_eq!(m.pc(), 3);
    assert_eq!(m.read(0).unwrap(), w(0o1234));
    assert_eq!(m.read(1).unwrap(), w(0o400101), "OV and the interrupted PC");
    assert_eq!(m.read(2).unwrap(), w(0o4321));
    assert!(m.ov(), "the break entry leaves OV ([aap] brkcycle)");
    assert_eq!(
        m.ac(),
        w(0o400101),
        "AC holds the OV/EXD/PC word ([aap], MAME)"
    );
    assert_eq!(m.sequence_break(), (true, false, true));
    m.run_until(Limit {
        until_ns: None,
        instructions: Some(5),
    });
    assert_eq!(m.read(0o300).unwrap(), w(0o66));
    assert_eq!(m.pc(), 0o101, "jmp i 1 returned");
    assert!(m.ov(), "OV restored from location 1");
    assert_eq!(m.sequence_break(), (true, false, false));
    assert_eq!((m.ac(), m.io()), (w(0o1234), w(0o4321)));
}

#[test]
fn no_break_without_sequence_break_mode() {
    let mut m = machine(&[(0o100, 0o600100)]);
    run_from(&mut m, 0o100, 2);
    m.strike_key(0o61);
    m.run_until(Limit {
        until_ns: None,
        instructions: Some(10),
    });
    assert_eq!(m.pc(), 0o100);
    assert_eq!(m.read(1).unwrap(), w(0));
}

// ---------------------------------------------------------------- READ IN

fn rim(pairs: &[(u32, u32)], start: u32) -> Vec<u8> {
    let mut t = vec![0u8; 10]; // leader
    t.push(0o100); // a title-like line without hole 8
    for &(a, v) in pairs {
        t.extend(frames(0o320000 | a));
        t.extend(frames(v));
    }
    t.extend(frames(0o600000 | start));
    t.extend([0u8; 5]);
    t
}

#[test]
fn read_in_loads_dio_pairs_and_starts_at_the_jmp() {
    // A program: 100: lac 200 / 101: hlt;  200: 123456
    let tape = rim(
        &[(0o100, 0o200200), (0o101, 0o760400), (0o200, 0o123456)],
        0o100,
    );
    let frames_before_start = tape.len() - 5;
    let mut m = machine(&[]);
    m.mount_tape(tape);
    m.read_in();
    assert!(m.reading_in());
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.ac(), w(0o123456));
    assert_eq!(m.pc(), 0o102);
    assert_eq!(m.tape_remaining(), 5);
    assert!(
        m.time_ns() >= frames_before_start as u64 * 2_500_000,
        "at reader speed"
    );
}

#[test]
fn read_in_time_is_the_readers_alone() {
    // The memory cycle that stores a word overlaps the reading of the next line (readin.rs,
    // pdp1-hardware.md §6.3), so READ IN takes exactly 2.5 ms per tape line that passes:
    // the leader, the line without hole 8, three lines a word — and nothing per stored word.
    // 100: hlt. Its fetch and execute are the only memory cycles of the run.
    let tape = rim(&[(0o100, 0o760400), (0o101, 0o760400)], 0o100);
    let lines_read = (tape.len() - 5) as u64;
    let mut m = machine(&[]);
    m.mount_tape(tape);
    m.read_in();
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.time_ns(), lines_read * 2_500_000 + 5_000);
}

#[test]
fn read_in_into_the_test_address_field() {
    let cfg = MachineConfig {
        memory_words: 8192,
        ..Default::default()
    };
    let mut m = machine_cfg(cfg, &[]);
    m.mount_tape(rim(&[(0o100, 0o760400)], 0o100));
    m.set_test_address(0o10000);
    m.read_in();
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.read(0o10100).unwrap(), w(0o760400));
    assert_eq!(m.pc(), 0o10101);
}

#[test]
fn read_in_failures() {
    // Not dio/jmp.
    let mut t = frames(0o200100).to_vec();
    t.extend(frames(0));
    let mut m = machine(&[]);
    m.mount_tape(t);
    m.read_in();
    assert_eq!(
        m.run_until(Limit::default()),
        StopReason::ReadInFailed {
            word: Some(w(0o200100))
        }
    );
    assert!(!m.running());
    // Truncated in the middle of a pair.
    let mut m = machine(&[]);
    m.mount_tape(frames(0o320100).to_vec());
    m.read_in();
    assert_eq!(
        m.run_until(Limit::default()),
        StopReason::ReadInFailed { word: None }
    );
}

// ---------------------------------------------------------------- console and run control

#[test]
fn examine_and_deposit() {
    let mut m = machine(&[(0o1234, 0o555555)]);
    m.set_test_address(0o1234);
    assert_eq!(m.examine(), w(0o555555));
    assert_eq!(m.ac(), w(0o555555));
    m.set_test_word(w(0o111111));
    m.deposit();
    assert_eq!(m.read(0o1234).unwrap(), w(0o111111));
}

#[test]
fn start_clears_ov_but_not_ac() {
    let mut m = machine(&[(0o100, 0o760400)]);
    m.set_ov(true);
    m.set_ac(w(7));
    m.set_test_address(0o100);
    m.start(true);
    assert!(!m.ov());
    assert_eq!(m.ac(), w(7));
    assert!(m.sequence_break().0);
}

#[test]
fn breakpoints_stop_before_the_instruction_and_resume() {
    // 100: idx 200 / 101: jmp 100
    let mut m = machine(&[(0o100, 0o440200), (0o101, 0o600100)]);
    m.add_breakpoint(0o101);
    assert_eq!(run_from(&mut m, 0o100, 100), StopReason::Breakpoint(0o101));
    assert_eq!(m.read(0o200).unwrap(), w(1));
    assert_eq!(
        m.run_until(Limit {
            until_ns: None,
            instructions: Some(100)
        }),
        StopReason::Breakpoint(0o101)
    );
    assert_eq!(m.read(0o200).unwrap(), w(2));
    assert_eq!(m.breakpoints(), vec![0o101]);
    m.remove_breakpoint(0o101);
    assert_eq!(
        m.run_until(Limit {
            until_ns: None,
            instructions: Some(10)
        }),
        StopReason::InstructionLimit
    );
}

#[test]
fn a_breakpoint_where_a_run_begins_is_not_missed() {
    // The window runs the machine in 5 ms chunks and headless in 10 ms slices: a breakpoint
    // on the instruction where one `run_until` ended on a time limit must stop the next one
    // before that instruction runs. 100: law 1 (5 µs) / 101: jmp 100.
    let mut m = machine(&[(0o100, 0o700001), (0o101, 0o600100)]);
    m.add_breakpoint(0o101);
    m.set_test_address(0o100);
    m.start(false);
    let slice = |m: &mut Machine, ns| {
        m.run_until(Limit {
            until_ns: Some(m.time_ns() + ns),
            instructions: None,
        })
    };
    assert_eq!(slice(&mut m, 5_000), StopReason::TimeLimit);
    assert_eq!((m.pc(), m.instructions()), (0o101, 1));
    assert_eq!(slice(&mut m, 1_000_000), StopReason::Breakpoint(0o101));
    assert_eq!(m.instructions(), 1, "the jmp at the breakpoint did not run");
    // Resuming from the breakpoint runs the instruction there, then stops on its next visit.
    assert_eq!(slice(&mut m, 1_000_000), StopReason::Breakpoint(0o101));
    assert_eq!(m.instructions(), 3);
}

#[test]
fn a_breakpoint_on_a_tapes_start_address_stops_before_it_runs() {
    // 100: law 7 / 101: hlt, started at 100 by READ IN.
    let mut m = machine(&[]);
    m.mount_tape(rim(&[(0o100, 0o700007), (0o101, 0o760400)], 0o100));
    m.add_breakpoint(0o100);
    m.read_in();
    assert_eq!(m.run_until(Limit::default()), StopReason::Breakpoint(0o100));
    assert_eq!((m.pc(), m.instructions()), (0o100, 0));
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.ac(), w(7));
}

#[test]
fn time_limit() {
    let mut m = machine(&[(0o100, 0o600100)]);
    m.set_test_address(0o100);
    m.start(false);
    assert_eq!(
        m.run_until(Limit {
            until_ns: Some(1_000_000),
            instructions: None
        }),
        StopReason::TimeLimit
    );
    assert_eq!(m.time_ns(), 1_000_000);
    assert_eq!(m.cycles(), 200);
    assert_eq!(m.instructions(), 200);
}

#[test]
fn stop_and_continue() {
    let mut m = machine(&[(0o100, 0o600100)]);
    run_from(&mut m, 0o100, 3);
    m.stop();
    assert_eq!(m.run_until(Limit::default()), StopReason::NotRunning);
    m.cont();
    assert_eq!(
        m.run_until(Limit {
            until_ns: None,
            instructions: Some(3)
        }),
        StopReason::InstructionLimit
    );
}

#[test]
fn bad_memory_sizes_are_errors() {
    assert!(Machine::new(MachineConfig {
        memory_words: 5000,
        ..Default::default()
    })
    .is_err());
    assert!(Machine::new(MachineConfig {
        memory_words: 0,
        ..Default::default()
    })
    .is_err());
    assert!(Machine::new(MachineConfig {
        memory_words: 65536 + 4096,
        ..Default::default()
    })
    .is_err());
    assert!(Machine::new(MachineConfig {
        memory_words: 65536,
        ..Default::default()
    })
    .is_ok());
}

#[test]
fn a_break_can_interrupt_an_io_wait_and_the_wait_resumes() {
    // Main: 100: esm / 101: tyo i (waits ~105 ms) / 102: hlt
    // Break routine: 3: tyi / 4: dio 300 / 5: lio 2 / 6: jmp i 1
    let prog = [
        (0o100, 0o720055),
        (0o101, 0o730003),
        (0o102, 0o760400),
        (0o3, 0o720004),
        (0o4, 0o320300),
        (0o5, 0o220002),
        (0o6, 0o610001),
    ];
    let mut m = machine(&prog);
    m.set_io(w(0o61));
    m.set_test_address(0o100);
    m.start(false);
    m.run_until(Limit {
        until_ns: Some(20 * MS),
        instructions: None,
    });
    assert!(m.io_halt(), "waiting for the typewriter");
    assert_eq!(m.pc(), 0o101);
    m.strike_key(0o62);
    assert_eq!(
        m.run_until(Limit {
            until_ns: Some(50 * MS),
            instructions: None
        }),
        StopReason::TimeLimit
    );
    assert_eq!(
        m.read(0o300).unwrap(),
        w(0o62),
        "break routine ran during the wait"
    );
    assert_eq!(
        m.read(1).unwrap(),
        w(0o101),
        "interrupted at the waiting IOT"
    );
    assert!(m.io_halt(), "back in the wait");
    // The typewriter's completion ends the wait (and requests another break, which returns).
    assert_eq!(
        m.run_until(Limit {
            until_ns: Some(500 * MS),
            instructions: None
        }),
        StopReason::Halted
    );
    assert!(m.time_ns() >= 105 * MS);
    assert_eq!(m.pc(), 0o103);
}

#[test]
fn time_limit_inside_an_io_wait() {
    let mut m = machine(&[(0o100, 0o730003), (0o101, 0o760400)]);
    m.set_test_address(0o100);
    m.start(false);
    assert_eq!(
        m.run_until(Limit {
            until_ns: Some(10 * MS),
            instructions: None
        }),
        StopReason::TimeLimit
    );
    assert!(m.io_halt());
    assert_eq!(m.instructions(), 0);
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.instructions(), 2);
}

#[test]
fn debreak_restores_extend_mode_and_a_16_bit_pc() {
    let cfg = MachineConfig {
        memory_words: 8192,
        ..Default::default()
    };
    // Break routine at 3: jmp i 1.  Interrupted program in field 1, extend mode on.
    // 10100: jmp 100 (a loop in field 1).
    let mut m = machine_cfg(cfg, &[(0o3, 0o610001), (0o10100, 0o600100)]);
    m.set_pc(0o10100);
    m.set_extend_mode(true);
    m.set_ov(true);
    m.set_sequence_break_mode(true);
    m.cont();
    m.strike_key(0o61); // requests a break
    m.step_cycle(); // jmp 100, after which the break follows
    m.step_cycle(); // break entry
    assert_eq!(m.read(1).unwrap(), w(0o610100), "OV, EXD and the 16-bit PC");
    assert!(!m.extend_mode(), "break entry leaves extend mode");
    assert_eq!(m.pc(), 3);
    m.step_instruction(); // jmp i 1
    assert_eq!(m.pc(), 0o10100);
    assert!(m.extend_mode() && m.ov());
    assert_eq!(m.sequence_break(), (true, false, false));
}

#[test]
fn cbs_clears_request_and_break_but_lsm_only_the_mode() {
    // 100: cbs / 101: lsm / 102: hlt
    let mut m = machine(&[(0o100, 0o720056), (0o101, 0o720054), (0o102, 0o760400)]);
    m.set_pc(0o100);
    m.set_sequence_break_mode(false);
    m.strike_key(0o61); // a request while the mode is off: it waits
    assert_eq!(m.sequence_break(), (false, true, false));
    m.step_instruction(); // cbs
    assert_eq!(m.sequence_break(), (false, false, false));
    m.set_sequence_break_mode(true);
    m.step_instruction(); // lsm
    assert_eq!(m.sequence_break(), (false, false, false));
}

#[test]
fn a_request_made_while_the_mode_is_off_breaks_when_it_is_turned_on() {
    // 100: esm / 101: jmp 101;   3: hlt
    let mut m = machine(&[(0o100, 0o720055), (0o101, 0o600101), (0o3, 0o760400)]);
    m.set_test_address(0o100);
    m.start(false); // (START clears any earlier request)
    m.strike_key(0o61);
    assert_eq!(
        m.run_until(Limit {
            until_ns: None,
            instructions: Some(10)
        }),
        StopReason::Halted
    );
    assert_eq!(m.pc(), 4);
    assert_eq!(m.read(1).unwrap(), w(0o101));
}

// ---------------------------------------------------------------- a stopped machine's devices

/// Issue 16: the devices are separate logic with their own timing and go on while the
/// processor stands stopped (pdp1-hardware.md §5, §6: the typewriter takes ~0.1 s a character
/// by itself, the reader fills its buffer by itself). A character set going just before a
/// `hlt` is finished while the machine is stopped; emulated time passes without processor
/// cycles.
#[test]
fn a_character_being_typed_finishes_while_the_machine_is_stopped() {
    // 100: tyo (no wait, 720003) / 101: hlt
    let mut m = machine(&[(0o100, 0o720003), (0o101, 0o760400)]);
    m.set_io(w(0o61));
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(m.status_word().bits() & status::TYPE_OUT, 0, "still typing");
    let (t0, c0) = (m.time_ns(), m.processor_cycles());
    m.idle_until(t0 + 50 * MS);
    assert_eq!(
        m.status_word().bits() & status::TYPE_OUT,
        0,
        "half a character's time is not enough"
    );
    m.idle_until(t0 + 150 * MS);
    assert_ne!(
        m.status_word().bits() & status::TYPE_OUT,
        0,
        "the character finished with the machine stopped"
    );
    assert_eq!(m.time_ns(), t0 + 150 * MS, "time went on");
    assert_eq!(m.processor_cycles(), c0, "but not the processor's");
    assert!(!m.running());
}

#[test]
fn a_tape_line_being_read_lands_in_the_buffer_while_the_machine_is_stopped() {
    // 100: rpa (no wait, 720001) / 101: hlt / 102: rrb / 103: hlt
    let prog = [
        (0o100, 0o720001),
        (0o101, 0o760400),
        (0o102, 0o720030),
        (0o103, 0o760400),
    ];
    let mut m = machine(&prog);
    m.mount_tape(vec![0o123]);
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(
        m.status_word().bits() & status::READER,
        0,
        "line not read yet"
    );
    m.idle_until(m.time_ns() + 10 * MS);
    assert_ne!(
        m.status_word().bits() & status::READER,
        0,
        "the line was read with the machine stopped"
    );
    // CONTINUE: rrb takes the line the reader read while the machine stood.
    m.cont();
    assert_eq!(
        m.run_until(Limit {
            until_ns: None,
            instructions: Some(10)
        }),
        StopReason::Halted
    );
    assert_eq!(m.io().bits() & 0o377, 0o123);
}

#[test]
fn idle_time_does_not_pass_while_the_processor_runs() {
    // 100: jmp 100
    let mut m = machine(&[(0o100, 0o600100)]);
    m.set_test_address(0o100);
    m.start(false);
    let t = m.time_ns();
    m.idle_until(t + 10 * MS);
    assert_eq!(m.time_ns(), t, "a running machine's time is run_until's");
}

/// Issue 12: a read asked for when the tape has run out waits for tape, and a tape put in
/// continues it — DEC's MACRO polls the reader status at the end of one source tape while the
/// operator puts in the next (a multi-tape assembly).
#[test]
fn a_read_waiting_for_tape_goes_on_when_a_tape_is_put_in() {
    // 100: rpa (no wait) / 101: cks / 102: ril 1s / 103: spi i / 104: jmp 101 / 105: rrb / 106: hlt
    let prog = [
        (0o100, 0o720001),
        (0o101, 0o720033),
        (0o102, 0o662001),
        (0o103, 0o652000),
        (0o104, 0o600101),
        (0o105, 0o720030),
        (0o106, 0o760400),
    ];
    let mut m = machine(&prog);
    m.mount_tape(vec![]);
    m.set_test_address(0o100);
    m.start(false);
    let slice = |m: &mut Machine| {
        m.run_until(Limit {
            until_ns: Some(m.time_ns() + 50 * MS),
            instructions: None,
        })
    };
    assert_eq!(slice(&mut m), StopReason::TimeLimit, "polling, no tape");
    m.mount_tape(vec![0o123]);
    assert_eq!(slice(&mut m), StopReason::Halted, "the line was read");
    assert_eq!(m.io().bits() & 0o377, 0o123);
}
