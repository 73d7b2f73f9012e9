//! Constructs of DEC's own sources that pdp1-asm once read differently from DEC's MACRO
//! (issue 30, met in the MAINDEC diagnostics; docs/assembler.md says what MACRO did with each).
//! These sources are small and our own; the diagnostics themselves are run by
//! tests/tests/maindec.rs where their sources are given.

use pdp1_asm::assemble;

fn word(asm: &pdp1_asm::Assembly, addr: u32) -> Option<u32> {
    asm.words.get(&addr).map(|w| w.bits())
}

/// `start<TAB>0` (MAINDEC 4's last line): `start` ends its word at the tab, so its address is
/// empty, which the historic MACRO punches as `jmp 0`; the words after it are not assembled.
#[test]
fn start_followed_by_a_tab_starts_at_0() {
    let asm = assemble("t\n100/\ngo,\tjmp go\nstart\t100\n", "t.mac").unwrap();
    assert_eq!(asm.start, Some(0));
    let asm = assemble("t\n100/\ngo,\tjmp go\n\tstart\n\t777\n", "t.mac").unwrap();
    assert_eq!(asm.start, Some(0), "a bare start is start 0");
    assert_eq!(asm.words.len(), 1, "nothing after start is assembled");
    // With an address on the same word, as before.
    let asm = assemble("t\n100/\ngo,\tjmp go\n\tstart go\n", "t.mac").unwrap();
    assert_eq!(asm.start, Some(0o100));
}

/// `flexo` takes three characters, and the end of the line is one: the carriage return (77)
/// the source tape has there (historic MACRO: `flexo ab` at the end of a line is 616277).
/// Nothing is taken from the next line.
#[test]
fn flexo_at_the_end_of_a_line_takes_the_carriage_return() {
    let asm = assemble(
        "t\n100/\n\tflexo ab\n\tflex a\n\tlac (flex mul\n\tconstants\n",
        "t.mac",
    )
    .unwrap();
    assert_eq!(word(&asm, 0o100), Some(0o616277));
    assert_eq!(
        word(&asm, 0o101),
        Some(0o617700),
        "a, carriage return, then zero"
    );
    // m 44, u 24, l 43: three characters before the end of the line, no carriage return.
    assert_eq!(word(&asm, 0o103), Some(0o442443));
}
