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

/// `field n` puts words in another field of the Type 15 extension; such a program's BLK tape
/// has the 16-bit loader (`tape::ext_loader`), which loads every field and starts the program
/// (in extend mode). Field 0's code calls field 1's through `jmp i`, in extend mode, and
/// field 1's code reads field 0's word through an indirect address and comes back the same way.
#[test]
fn a_program_in_two_fields_loads_and_runs() {
    let src = "two fields\n100/\ngo,\teem\n\tjsp i (10200)\n\tlem\n\tsas (4321)\n\tjmp bad\n\tlac f1v\n\tsas (4321)\n\tjmp bad\n\t\
               lac (123456)\n\tlio (654321)\n\thlt\nbad,\tlio (777777)\n\thlt\nf1v,\t321\n\tconstants\n\
               field 1\n200/\n\tdac r\n\tlac i (f1v)\n\tadd (4000)\n\tdac i (f1v)\n\tdac w\n\tjmp i r\n\
               r,\t0\nw,\t0\n\tconstants\nfield 0\n\tstart go\n";
    let asm = assemble(src, "two.mac").unwrap_or_else(|e| panic!("{e}"));
    assert!(asm.words.contains_key(&0o10200), "field 1's words at 10200");
    // Field 1's tags are 12-bit symbols (its own instructions address them so) and full
    // addresses in `labels`: `r` is the seventh word from 200, `w` the eighth.
    assert_eq!(asm.symbols.value_of("r"), Some(0o206));
    let at = |a: u32| asm.labels.get(&a).map(String::as_str);
    assert_eq!(
        (at(0o100), at(0o10206), at(0o10207), at(0o206)),
        (Some("go"), Some("r"), Some("w"), None)
    );
    let image = tape::Image {
        words: asm.words.clone(),
        start: asm.start,
    };
    let frames = tape::write_blk(&image);
    assert_eq!(
        tape::read_blk(&frames).unwrap().words.get(&0o10200),
        image.words.get(&0o10200)
    );
    assert_eq!(tape::read_image(&frames).unwrap().start, Some(0o100));
    let mut m = Machine::new(MachineConfig {
        memory_words: 0o20000,
        ..MachineConfig::default()
    })
    .unwrap();
    m.mount_tape(frames);
    m.read_in();
    let stop = m.run_until(Limit {
        until_ns: Some(60_000_000_000),
        instructions: Some(10_000_000),
    });
    assert_eq!(stop, StopReason::Halted, "pc {:o}\n{}", m.pc(), asm.listing);
    assert_eq!(
        (m.ac().bits(), m.io().bits()),
        (0o123456, 0o654321),
        "{}",
        asm.listing
    );
    // Field 1's own scratch word took the sum (a direct address is in the current field).
    assert_eq!(m.memory()[0o10207].bits(), 0o4321);
}
