//! The program flags' change stream (sound): `stf`/`clf` and the devices' flags, with their
//! emulated times, the same from the run loop and from single instructions.

mod common;
use common::*;
use pdp1_core::FlagChange;

const STF2: u32 = 0o760012;
const CLF2: u32 = 0o760002;
const NOP: u32 = 0o760000;

/// stf 2, 99 nops, clf 2, 98 nops, jmp 100: flag 2 toggles every 100 instructions of 5 µs,
/// a 1 kHz square wave.
fn square_1khz() -> Machine {
    let mut words = vec![(0o100, STF2)];
    let mut a = 0o101;
    for _ in 0..99 {
        words.push((a, NOP));
        a += 1;
    }
    words.push((a, CLF2));
    a += 1;
    for _ in 0..98 {
        words.push((a, NOP));
        a += 1;
    }
    words.push((a, 0o600100));
    machine(&words)
}

#[test]
fn stf_clf_are_recorded_with_their_times() {
    let mut m = square_1khz();
    run_from(&mut m, 0o100, 2000);
    let ch = m.drain_flags();
    assert_eq!(ch.len(), 20);
    for (i, c) in ch.iter().enumerate() {
        assert_eq!(c.flags, if i % 2 == 0 { 0o20 } else { 0 }, "change {i}");
        assert_eq!(c.time_ns - ch[0].time_ns, i as u64 * 500_000, "change {i}");
    }
    assert!(m.drain_flags().is_empty(), "drained");
}

#[test]
fn the_run_loop_and_single_instructions_record_the_same_stream() {
    let mut fast = square_1khz();
    run_from(&mut fast, 0o100, 1000);
    let mut slow = square_1khz();
    slow.set_test_address(0o100);
    slow.start(false);
    for _ in 0..1000 {
        slow.step_instruction();
    }
    assert_eq!(fast.drain_flags(), slow.drain_flags());
    assert_eq!(fast.time_ns(), slow.time_ns());
}

#[test]
fn only_changes_are_recorded_and_devices_count() {
    // clf 2 with flag 2 clear, then stf 3 twice: one change.
    let mut m = machine(&[
        (0o100, CLF2),
        (0o101, 0o760013),
        (0o102, 0o760013),
        (0o103, 0o760400),
    ]);
    run_from(&mut m, 0o100, 10);
    let t = m.time_ns();
    m.strike_key(0o21);
    let ch = m.drain_flags();
    assert_eq!(
        ch,
        vec![
            FlagChange {
                time_ns: ch[0].time_ns,
                flags: 0o10
            },
            FlagChange {
                time_ns: t,
                flags: 0o50
            }
        ]
    );
}
