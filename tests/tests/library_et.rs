//! Expensive Typewriter (1962) from `../shared/tapes/expensive-typewriter.rim`, operated as
//! the PiDP-1 notes describe: sense switches 2 (number lines) and 6 (no parity errors) on;
//! `a` and carriage return to append text; a backspace at the start of a line returns to
//! command mode; `w` types the buffer, `nd` deletes line n, `nc` changes it, `ni` inserts
//! before it, `p` punches the buffer and `s` a stop code. Commands end with a carriage
//! return.
//!
//! Expectations: the text typed and the edits made, worked out by hand; the punched tape is
//! decoded by pdp1-asm's FIO-DEC reader, not by anything in the program under test.

mod library_common;
use library_common::*;

/// SS2 = 020, SS6 = 001 (`set_sense_switches`: SS1 = 040 … SS6 = 001).
const SS2_SS6: u8 = 0o21;
const BS: char = '\u{8}';

fn et() -> Option<(Machine, Typist)> {
    let t = tape("expensive-typewriter.rim")?;
    let mut m = read_in(MachineConfig::default(), t, 60 * SEC);
    m.set_sense_switches(SS2_SS6);
    Some((m, Typist::default()))
}

/// The listing `w` types: one numbered line per buffer line, then the empty next line.
fn listing(lines: &[&str]) -> String {
    let mut s = String::new();
    for (i, l) in lines.iter().enumerate() {
        s.push_str(&format!("{}\t{l}\n", i + 1));
    }
    s.push_str(&format!("{}\t\n", lines.len() + 1));
    s
}

#[test]
fn et_types_appended_text_back_with_line_numbers() {
    let Some((mut m, mut ty)) = et() else { return };
    ty.type_keys(&mut m, &format!("a\nhello\nworld\n{BS}"), 60 * SEC);
    let out = ty.type_keys(&mut m, "w\n", 60 * SEC);
    assert!(out.ends_with(&listing(&["hello", "world"])), "{out:?}");
}

#[test]
fn et_deletes_changes_and_inserts_lines() {
    let Some((mut m, mut ty)) = et() else { return };
    ty.type_keys(&mut m, &format!("a\none\ntwo\nthree\n{BS}"), 60 * SEC);
    ty.type_keys(&mut m, "2d\n", 60 * SEC);
    let out = ty.type_keys(&mut m, "w\n", 60 * SEC);
    assert!(
        out.ends_with(&listing(&["one", "three"])),
        "after 2d: {out:?}"
    );
    ty.type_keys(&mut m, &format!("2c\nthrice\n{BS}"), 60 * SEC);
    let out = ty.type_keys(&mut m, "w\n", 60 * SEC);
    assert!(
        out.ends_with(&listing(&["one", "thrice"])),
        "after 2c: {out:?}"
    );
    ty.type_keys(&mut m, &format!("2i\ntwice\n{BS}"), 60 * SEC);
    let out = ty.type_keys(&mut m, "w\n", 60 * SEC);
    assert!(
        out.ends_with(&listing(&["one", "twice", "thrice"])),
        "after 2i: {out:?}"
    );
}

#[test]
fn et_backspace_corrects_the_line_being_typed() {
    let Some((mut m, mut ty)) = et() else { return };
    // "helx", backspace, "lo": the buffer holds "hello" (the paper shows the overstrike).
    ty.type_keys(&mut m, &format!("a\nhelx{BS}lo\n{BS}"), 60 * SEC);
    let out = ty.type_keys(&mut m, "w\n", 60 * SEC);
    assert!(out.ends_with(&listing(&["hello"])), "{out:?}");
}

#[test]
fn et_punches_the_buffer_as_a_fio_dec_tape_with_a_stop_code() {
    let Some((mut m, mut ty)) = et() else { return };
    ty.type_keys(&mut m, &format!("a\nhello\nWorld 1962\n{BS}"), 60 * SEC);
    assert!(m.drain_punch().is_empty(), "nothing punched before p");
    ty.type_keys(&mut m, "p\n", 60 * SEC);
    let text = m.drain_punch();
    assert_eq!(
        pdp1_asm::tape::fiodec_tape_to_text(&text),
        "hello\nWorld 1962\n",
        "punched frames {text:?}"
    );
    ty.type_keys(&mut m, "s\n", 60 * SEC);
    let stop = m.drain_punch();
    assert!(stop.contains(&0o13), "stop code 013 punched: {stop:?}");
}
