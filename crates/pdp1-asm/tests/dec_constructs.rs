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

/// A dummy symbol used as a tag defines the symbol the call gave for it, at the location of
/// the tag (MAINDEC 1 part 15: `jdmac ck4,…` puts `ck4,` at 737 for `jda ck4` before it).
#[test]
fn a_dummy_tag_defines_the_argument_symbol_where_it_stands() {
    let src = "t
define jdmac ckm,ret
ckm,\t0
\tlac ckm
\tjmp ret
terminate
100/
go,\tjda ck4
\tjda ck5
\thlt
737/\tjdmac ck4,go
1000/\tjdmac ck5,go 1
\tstart go
";
    let asm = assemble(src, "t.mac").unwrap();
    assert_eq!(
        word(&asm, 0o100),
        Some(0o170737),
        "jda ck4: a forward reference"
    );
    assert_eq!(word(&asm, 0o101), Some(0o171000));
    assert_eq!(word(&asm, 0o740), Some(0o200737), "lac ckm is lac ck4");
    assert_eq!(word(&asm, 0o1001), Some(0o201000));
    assert_eq!(word(&asm, 0o1002), Some(0o600101));
    // The historic MACRO tape would not do this: `--dec` says so at the tag.
    let (_, notes) = pdp1_asm::assemble_with_dec_notes(src, "t.mac");
    assert!(
        notes
            .iter()
            .any(|n| n.line == 3 && n.message.contains("dummy tag `ckm,`")),
        "{notes:?}"
    );
    let syms: Vec<(&str, u32)> = asm.symbols.iter().map(|(n, v, _)| (n, v)).collect();
    assert!(syms.contains(&("ck4", 0o737)), "{syms:?}");
    assert!(syms.contains(&("ck5", 0o1000)), "{syms:?}");
}

/// Through a macro calling another: the inner dummy names the outer call's symbol.
#[test]
fn a_dummy_tag_passes_through_nested_calls() {
    let src = "t
define inner a
a,\t7
terminate
define outer b
\tinner b
\tjmp b
terminate
100/
\touter xyz
\tlac xyz
";
    let asm = assemble(src, "t.mac").unwrap();
    assert_eq!(word(&asm, 0o100), Some(7));
    assert_eq!(word(&asm, 0o101), Some(0o600100));
    assert_eq!(word(&asm, 0o102), Some(0o200100));
}

/// A dummy tag needs a symbol to define; a symbol argument no tag defines stays undefined.
#[test]
fn dummy_tags_report_what_they_cannot_define() {
    let src = "t\ndefine tagit a\na,\t0\nterminate\n100/\n\ttagit 5\n";
    let err = assemble(src, "t.mac").unwrap_err().to_string();
    assert!(
        err.contains("t.mac:3:1") && err.contains("must be a symbol"),
        "{err}"
    );
    let src = "t\ndefine usea a\n\tlac a\nterminate\n100/\n\tusea nowhere\n";
    let err = assemble(src, "t.mac").unwrap_err().to_string();
    assert!(err.contains("undefined symbol `nowhere`"), "{err}");
}
