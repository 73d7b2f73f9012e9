//! DEC DDT (20 August 1966) from `../shared/tapes/ddt.rim`, operated from the console
//! typewriter as a person would: examine with `/`, type the open word in octal with `=`,
//! deposit by typing a number and carriage return, run with `G` (upper case letters are
//! DDT's commands, lower case and digits its expressions).
//!
//! Expectations come from outside DDT: the words on the tape image (read by pdp1-asm's tape
//! reader), the machine's memory after a deposit, and octal arithmetic done here.

mod library_common;
use library_common::*;

fn ddt() -> Option<(Machine, Typist)> {
    let t = tape("ddt.rim")?;
    let m = read_in(MachineConfig::default(), t, 20 * SEC);
    // The tape's jmp: DDT starts at 6000 (tapes README, SIMH notes).
    assert_eq!(
        m.pc() & 0o7000,
        0o6000,
        "DDT running near 6000, pc {:06o}",
        m.pc()
    );
    Some((m, Typist::default()))
}

#[test]
fn ddt_examines_locations_symbolically_and_in_octal() {
    let Some((mut m, mut ty)) = ddt() else { return };
    let image = pdp1_asm::tape::read_image(&tape("ddt.rim").unwrap()).unwrap();
    let w6000 = image.words[&0o6000].bits();
    let out = ty.type_keys(&mut m, "6000/=\n", 10 * SEC);
    // Symbolic: an `lio` (opcode 22) of the tape's word; `=` types the word in octal.
    assert_eq!(w6000 >> 12, 0o22, "tape word at 6000: {w6000:06o}");
    let want = format!("6000/\tlio {:o}\t=\t{:o}", w6000 & 0o7777, w6000);
    assert!(out.contains(&want), "{out:?} should contain {want:?}");
    // An empty location reads 0.
    let out = ty.type_keys(&mut m, "100/\n", 10 * SEC);
    assert!(out.contains("100/\t0\t"), "{out:?}");
}

#[test]
fn ddt_deposits_and_reads_back() {
    let Some((mut m, mut ty)) = ddt() else { return };
    ty.type_keys(&mut m, "100/1234\n", 10 * SEC);
    assert_eq!(
        m.read(0o100).unwrap().bits(),
        0o1234,
        "deposit reached memory"
    );
    let out = ty.type_keys(&mut m, "100/=\n", 10 * SEC);
    assert!(out.contains("100/\t1234\t=\t1234"), "{out:?}");
    // A full 18-bit word.
    ty.type_keys(&mut m, "101/765432\n", 10 * SEC);
    assert_eq!(m.read(0o101).unwrap().bits(), 0o765432);
}

#[test]
fn ddt_runs_a_deposited_program_with_g() {
    let Some((mut m, mut ty)) = ddt() else { return };
    // 100: lac 110 / add 111 / dac 112 / jmp 6000 (back into DDT), with 12 and 30 as data.
    let program = "110/12\n111/30\n100/200110\n101/400111\n102/240112\n103/606000\n";
    ty.type_keys(&mut m, program, 30 * SEC);
    assert_eq!(m.read(0o112).unwrap().bits(), 0, "not run yet");
    let out = ty.type_keys(&mut m, "100G112/\n", 10 * SEC);
    // 12 + 30 = 42 (octal), stored by the program and typed by DDT.
    assert_eq!(m.read(0o112).unwrap().bits(), 0o42);
    assert!(out.contains("112/\t42\t"), "{out:?}");
}
