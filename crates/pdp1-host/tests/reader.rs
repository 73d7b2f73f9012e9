//! Issue 27: no dead ends at the reader, in the run controller the window (and the web page)
//! shares. READ IN on a tape stopped part way through starts it over from its leader (each
//! F7 used to read one more frame and fail again); a tape mounted by hand during a load waits
//! at its leader for READ IN (the old tape's loader read it); and a tape mounted by hand gets
//! the machine its content asks for.

use pdp1_asm::tape::{write_rim, Image};
use pdp1_core::{Machine, MachineConfig, Word};
use pdp1_host::keyboard::Typist;
use pdp1_host::run::{ReadIn, RunControl, RunPlan, Stop};
use pdp1_host::tape::{Feeder, Tape};

const HLT: u32 = 0o760400;
const S: u64 = 1_000_000_000;

/// A RIM tape: `hlt` at `start`, then `words` after it, then `jmp start`.
fn tape(start: u32, words: &[u32], name: &str) -> Tape {
    let mut all = vec![HLT];
    all.extend_from_slice(words);
    let image = Image {
        words: (start..).zip(all).map(|(a, w)| (a, Word::new(w))).collect(),
        start: Some(start),
    };
    Tape::boot(write_rim(&image), name).unwrap()
}

/// 600 words of data: about 10 s of reading.
fn long_tape() -> Tape {
    let data: Vec<u32> = (1..=600).collect();
    tape(0o1000, &data, "long.rim")
}

/// The window's start: `t` mounted and READ IN pressed on `config`.
fn controller(t: &Tape, config: MachineConfig) -> RunControl {
    let mut m = Machine::new(config).unwrap();
    m.mount_tape(t.frames.clone());
    m.read_in();
    let feeder = Feeder::new(Some(t), &[]).named("long.rim", &[]);
    RunControl::new(RunPlan::default(), feeder, Typist::new(Vec::new(), true), m)
}

/// Advance to `until` ns; the machine's own stop, if any.
fn run_to(rc: &mut RunControl, until: u64) -> Option<Stop> {
    let mut stop = None;
    while rc.machine().time_ns() < until && stop.is_none() {
        let a = rc.advance(until);
        stop = a.stop;
        if a.end.is_some() {
            break;
        }
    }
    stop
}

#[test]
fn read_in_on_a_tape_stopped_part_way_starts_it_over_and_says_so() {
    let t = long_tape();
    let mut rc = controller(&t, MachineConfig::default());
    run_to(&mut rc, 2 * S);
    let left = rc.machine().tape_unread().len();
    assert!(left > 0 && left < t.frames.len(), "part way: {left}");
    // The operator stops the load and presses READ IN: not at a block boundary.
    rc.stop();
    assert_eq!(rc.read_in(), ReadIn::Rewound);
    assert_eq!(rc.machine().tape_unread(), &t.frames[..]);
    // Read in from its leader, to its end: the whole program loaded, halted at its start.
    let stop = run_to(&mut rc, 30 * S);
    assert!(matches!(stop, Some(Stop::Machine(_))), "{stop:?}");
    let m = rc.machine();
    assert_eq!(m.pc(), 0o1001, "halted after the hlt at 1000");
    assert_eq!(m.read(0o1000 + 600).unwrap(), Word::new(600));
}

#[test]
fn a_tape_mounted_during_a_load_waits_at_its_leader_for_read_in() {
    let t = long_tape();
    let mut rc = controller(&t, MachineConfig::default());
    run_to(&mut rc, 2 * S);
    let short = tape(0o200, &[7], "short.rim");
    let said = rc.mount_boot(&short, "short.rim");
    assert!(said.iter().any(|s| s.contains("stopped")), "{said:?}");
    run_to(&mut rc, 4 * S);
    assert!(!rc.machine().running());
    assert_eq!(
        rc.machine().tape_unread(),
        &short.frames[..],
        "the new tape sits at its leader"
    );
    assert_eq!(rc.read_in(), ReadIn::Reading);
    run_to(&mut rc, 10 * S);
    assert_eq!(rc.machine().pc(), 0o201, "short.rim read in and started");
    assert_eq!(rc.machine().read(0o201).unwrap(), Word::new(7));
}

#[test]
fn a_tape_mounted_by_hand_gets_the_machine_its_content_asks_for() {
    let t = long_tape();
    let pdp1c = MachineConfig::default();
    assert!(!pdp1c.mul_div && pdp1c.memory_words == 4096);
    let mut rc = controller(&t, pdp1c);
    rc.set_test_word(Word::new(0o1234));
    // A program that uses extend mode (eem) and multiplies with the Type 10.
    let big = tape(0o100, &[0o724074, 0o200000, 0o540300], "big.rim");
    let said = rc.mount_boot(&big, "big.rim");
    let c = rc.machine().config();
    assert!(c.mul_div && c.memory_words == 65536, "{c:?}");
    assert!(
        said.iter().any(|s| s.contains("the machine is now")),
        "{said:?}"
    );
    assert_eq!(
        rc.machine().test_word(),
        Word::new(0o1234),
        "the switches stay"
    );
    assert_eq!(rc.read_in(), ReadIn::Reading);
    run_to(&mut rc, 5 * S);
    assert_eq!(rc.machine().pc(), 0o101);
    // One that multiplies in steps (17 × mus): the machine without the Type 10.
    let mut steps = vec![0o760200];
    steps.extend([0o540300; 17]);
    let said = rc.mount_boot(&tape(0o100, &steps, "steps.rim"), "steps.rim");
    assert!(!rc.machine().config().mul_div, "{said:?}");
    // The same machine again: nothing to say.
    let said = rc.mount_boot(&tape(0o100, &steps, "steps.rim"), "steps.rim");
    assert!(said.is_empty(), "{said:?}");
}
