//! The I/O wait, IOS and the sequence break as aap's pulse-level model has them (issue 16):
//! when a waiting IOT ends, when IOS is cleared, when a wait is a hang, and the display's
//! completion time. Every number is derived in the test from the model's rules:
//!
//! * cycle 0 of an IOT ([aap] `cycle0`): TP7 sets IOH for a waiting IOT, TP9 clears IOH when
//!   IOS is set (the wait ends in this cycle), TP9a backs the PC up while IOH is set (the IOT
//!   is fetched again next cycle), TP10 clears IOS when the IOT is not waiting (any IOT run
//!   while no wait is held) and gives the device its pulse;
//! * the devices' completion pulses set IOS between cycles ([aap] `handleio` after each
//!   cycle), so a pulse due during a cycle is seen by the next fetch of the waiting IOT;
//! * the Type 30 sends its completion pulse 35 µs (deflection) + 4 µs (intensify, with the
//!   Type 33 logic) after the `dpy` ([aap] `iot_pulse` case 007).

mod common;
use common::*;

const MS: u64 = 1_000_000;
const NOP: u32 = 0o760000;
const HLT: u32 = 0o760400;
const IOH: u32 = 0o730000;
/// `dpy` (wait), `dpy-4000` (no wait, pulse requested), `dpy-i` (neither).
const DPY: u32 = 0o730007;
const DPY_PULSE: u32 = 0o724007;
const RPA_I: u32 = 0o720001;
const TYO_I: u32 = 0o720003;
const ESM: u32 = 0o720055;

/// Words at 100… in order.
fn at_100(words: &[u32]) -> Vec<(u32, u32)> {
    words
        .iter()
        .enumerate()
        .map(|(i, &v)| (0o100 + i as u32, v))
        .collect()
}

/// `dpy-4000`, then 15 `nop`s (75 µs: the display's pulse, due 39 µs after the `dpy`, has
/// set IOS long before), then `word` at 120 and `hlt`.
fn pulse_arrived_then(word: u32) -> Machine {
    let mut p = vec![DPY_PULSE];
    p.extend([NOP; 15]);
    p.extend([word, HLT]);
    machine(&at_100(&p))
}

#[test]
fn ioh_after_the_pulse_has_come_proceeds_at_once() {
    // Handbook: ioh "proceeds immediately if the pulse already arrived"; aap: TP7 sets IOH,
    // TP9 sees IOS and clears it again, no TP9a back-up: one cycle.
    let mut m = pulse_arrived_then(IOH);
    assert_eq!(run_from(&mut m, 0o100, 16), StopReason::InstructionLimit);
    assert_eq!(m.pc(), 0o120);
    let c0 = m.cycles();
    assert_eq!(m.step_instruction(), StopReason::Stepped);
    assert_eq!(m.cycles() - c0, 1, "ioh with IOS set: one cycle");
    assert_eq!(m.pc(), 0o121);
    assert!(!m.io_halt());
    // The same through the run loop: dpy-4000, 15 nop, ioh, hlt = 18 cycles.
    let mut m = pulse_arrived_then(IOH);
    assert_eq!(run_from(&mut m, 0o100, 100), StopReason::Halted);
    assert_eq!(m.cycles(), 18);
    // Any waiting IOT does the same (aap has no other rule for the device's own IOTs): a `dpy`
    // with IOS already set plots its point and goes on at once; its own pulse comes later.
    let mut m = pulse_arrived_then(DPY);
    assert_eq!(run_from(&mut m, 0o100, 100), StopReason::Halted);
    assert_eq!(m.cycles(), 18);
    assert_eq!(m.drain_display().len(), 2);
}

#[test]
fn back_to_back_dpy_with_wait_takes_ten_cycles_a_point() {
    // The dpy's pulse at TP10 of its first cycle (t = 5 µs), completion 39 µs later (44 µs),
    // inside cycle 9 (40–45 µs); the fetch after it, cycle 10, ends the wait: 10 cycles, 50 µs
    // a point — the handbook's "20,000 points per second" (aap likewise: 10 cycles).
    let mut m = machine(&at_100(&[DPY, DPY, DPY, HLT]));
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(m.cycles(), 3 * 10 + 1);
    let t: Vec<u64> = m.drain_display().iter().map(|p| p.time_ns).collect();
    assert_eq!(t, vec![5_000, 55_000, 105_000]);
    // Cycle by cycle the same.
    let mut m = machine(&at_100(&[DPY, DPY, DPY, HLT]));
    m.set_pc(0o100);
    m.cont();
    let mut n = 0;
    while m.step_cycle() == StopReason::Stepped {
        n += 1;
    }
    assert_eq!(n + 1, 31);
    assert_eq!(m.cycles(), 31);
}

#[test]
fn a_wait_that_has_ended_leaves_ios_clear() {
    // The cycle that ends a wait clears IOS at TP10 (the IOT is no longer waiting), so a
    // following ioh waits again — for nothing here: an I/O hang. (Before, IOS stayed set and
    // the ioh went straight on.)
    let mut m = machine(&at_100(&[DPY, IOH, HLT]));
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::IoHang {
            pc: 0o101,
            word: w(IOH)
        }
    );
}

#[test]
fn an_iot_without_wait_clears_ios() {
    // IOS set by the display's pulse; `rpa-i` (no wait, no pulse: the reader will set its
    // status bit and request a break, not IOS) clears it at TP10, so the ioh after it waits.
    // With the sequence break on, the reader's break interrupts that wait (it is saved as the
    // return address); the routine takes the character and returns to the ioh, which then
    // waits for something nothing can send: an I/O hang. (Before, the ioh went on at once
    // with the display's stale IOS and the character was never taken.)
    let mut p = vec![ESM, DPY_PULSE];
    p.extend([NOP; 15]);
    p.extend([RPA_I, IOH, HLT]); // 121: rpa-i / 122: ioh / 123: hlt
    let mut words = at_100(&p);
    // 3: rrb / 4: dio 300 / 5: jmp i 1
    words.extend([(3, 0o720030), (4, 0o320300), (5, 0o610001)]);
    let mut m = machine(&words);
    m.mount_tape(vec![0o123]);
    m.set_test_address(0o100);
    m.start(false);
    let r = m.run_until(Limit {
        until_ns: Some(100 * MS),
        instructions: None,
    });
    assert_eq!(
        r,
        StopReason::IoHang {
            pc: 0o122,
            word: w(IOH)
        }
    );
    assert_eq!(m.read(0o300).unwrap(), w(0o123), "the break routine ran");
    assert_eq!(
        m.read(1).unwrap(),
        w(0o122),
        "the break came during the ioh"
    );
    assert!(m.time_ns() >= 2_500_000, "after the reader's line");
}

#[test]
fn a_break_that_can_still_come_ends_a_wait_no_pulse_can_end() {
    // `tyo-i` asks for no pulse, so no pulse can end the ioh; but the typewriter requests a
    // break when the character is typed (105 ms), and the break system is on: the machine
    // waits, the break interrupts the wait, and only after the routine's return, with
    // nothing left to come, is the wait a hang.
    // 100: esm / 101: tyo-i / 102: ioh / 103: hlt;  3: idx 300 / 4: jmp i 1
    let mut words = at_100(&[ESM, TYO_I, IOH, HLT]);
    words.extend([(3, 0o440300), (4, 0o610001)]);
    let mut m = machine(&words);
    m.set_test_address(0o100);
    m.start(false);
    let r = m.run_until(Limit {
        until_ns: Some(1000 * MS),
        instructions: None,
    });
    assert_eq!(
        r,
        StopReason::IoHang {
            pc: 0o102,
            word: w(IOH)
        }
    );
    assert_eq!(m.read(0o300).unwrap(), w(1), "one break");
    assert_eq!(m.read(1).unwrap(), w(0o102), "taken during the ioh");
    assert!(m.time_ns() >= 105 * MS);
    // Cycle by cycle the same.
    let mut s = machine(&words);
    s.set_test_address(0o100);
    s.start(false);
    let rs = loop {
        let r = s.step_cycle();
        if r != StopReason::Stepped {
            break r;
        }
    };
    assert_eq!((rs, s.cycles(), s.time_ns()), (r, m.cycles(), m.time_ns()));

    // Without the break system nothing can end it: a hang at once (two cycles: the ioh and
    // its first fetch again).
    let mut m = machine(&at_100(&[TYO_I, IOH, HLT]));
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::IoHang {
            pc: 0o101,
            word: w(IOH)
        }
    );
    assert!(m.time_ns() < MS);

    // Inside a break routine no further break can come before the routine returns, which it
    // cannot while it waits: a hang at once, although the typewriter will request a break.
    // 100: esm / 101: tyo-i / 102: jmp 102;  3: ioh
    let mut words = at_100(&[ESM, TYO_I, 0o600102]);
    words.push((3, IOH));
    let mut m = machine(&words);
    m.set_test_address(0o100);
    m.start(false);
    m.run_until(Limit {
        until_ns: Some(MS),
        instructions: None,
    });
    m.strike_key(0o61); // a break now
    assert_eq!(
        m.run_until(Limit {
            until_ns: Some(2 * MS),
            instructions: None
        }),
        StopReason::IoHang {
            pc: 3,
            word: w(IOH)
        }
    );
}
