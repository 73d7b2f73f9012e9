//! Test programs written for this project, one per instruction group (tests/programs/*.mac),
//! assembled by pdp1-asm, punched as RIM tapes, loaded by the emulator's READ IN and run.
//! Each halts with AC=123456, IO=654321 when every check passes, or with AC = the number of the
//! failed check and IO=777777.

use pdp1_asm::{assemble, tape};
use pdp1_core::{Limit, Machine, MachineConfig, StopReason};
use std::path::PathBuf;

fn run_program(name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(format!("{name}.mac"));
    let src = std::fs::read_to_string(&path).unwrap();
    let asm = assemble(&src, &format!("{name}.mac")).unwrap_or_else(|e| panic!("{e}"));
    let image = tape::Image {
        words: asm.words.clone(),
        start: asm.start,
    };
    for (label, frames) in [
        ("rim", tape::write_rim(&image)),
        ("blk", tape::write_blk(&image)),
    ] {
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        m.mount_tape(frames);
        m.read_in();
        // Read-in at 400 lines/s takes a few emulated seconds for a BLK tape with leader.
        let stop = m.run_until(Limit {
            until_ns: Some(60_000_000_000),
            instructions: Some(10_000_000),
        });
        assert_eq!(
            stop,
            StopReason::Halted,
            "{name} ({label}): stopped with {stop:?} at pc {:o}",
            m.pc()
        );
        let (ac, io) = (m.ac().bits(), m.io().bits());
        assert!(
            ac == 0o123456 && io == 0o654321,
            "{name} ({label}): check {ac:o} failed (AC={ac:06o} IO={io:06o}, halted at {:o})\n{}",
            m.pc(),
            asm.listing
        );
    }
}

macro_rules! programs {
    ($($name:ident),* $(,)?) => { $( #[test] fn $name() { run_program(stringify!($name)); } )* };
}

programs!(mri_data, mri_arith, jumps, skips, shifts, operate, pseudo);

/// The convention can fail: a wrong expectation halts with its check number.
#[test]
fn a_failing_check_names_itself() {
    let src = "fail on purpose\ndefine check V,N\n\tsas (V)\n\tjmp .+2\n\tjmp .+3\n\tlaw N\n\tjmp bad\n\tterm\n100/\ngo,\tlaw 4\n\tcheck 5, 3\n\thlt\nbad,\tlio (777777)\n\thlt\n\tconstants\n\tstart go\n";
    let asm = assemble(src, "f.mac").unwrap();
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    m.mount_tape(tape::write_rim(&tape::Image {
        words: asm.words,
        start: asm.start,
    }));
    m.read_in();
    let stop = m.run_until(Limit {
        until_ns: Some(10_000_000_000),
        instructions: Some(100_000),
    });
    assert_eq!(stop, StopReason::Halted);
    assert_eq!((m.ac().bits(), m.io().bits()), (3, 0o777777));
}

/// IOT group: `tyo` with wait types the FIO-DEC codes from `char`.
#[test]
fn iot_typewriter_output() {
    let src = "tyo test\n100/\ngo,\tlio (char rh)\n\ttyo\n\tlio (char ri)\n\ttyo\n\tlio (flexo 77 )\n\trcr 9s\n\trcr 9s\n\tsar 6s\n\tsar 6s\n\trcr 9s\n\trcr 9s\n\ttyo\n\thlt\n\tconstants\n\tstart go\n";
    let asm = assemble(src, "tyo.mac").unwrap();
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    m.mount_tape(tape::write_rim(&tape::Image {
        words: asm.words,
        start: asm.start,
    }));
    m.read_in();
    let stop = m.run_until(Limit {
        until_ns: Some(10_000_000_000),
        instructions: Some(1_000_000),
    });
    assert_eq!(stop, StopReason::Halted);
    let codes: Vec<u8> = m
        .drain_typewriter()
        .iter()
        .filter(|e| !e.local)
        .map(|e| e.code)
        .collect();
    // h = 70, i = 71 (pdp1-hardware.md 5.2); flexo "77 " = 07 07 00 → after sar 12: 000007 → "7".
    assert_eq!(codes, [0o70, 0o71, 0o07]);
}
