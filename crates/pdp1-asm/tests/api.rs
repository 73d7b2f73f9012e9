//! The library API: assembly result, listing, symbols, diagnostics formatting.

use pdp1_asm::{assemble, SymbolKind};

#[test]
fn text_may_span_lines_with_carriage_returns() {
    // x = 27, carriage return = 77, y = 30 (pdp1-hardware.md 5.2)
    let asm = assemble("t\n100/\n\ttext /x\ny/\n\tstart 100\n", "t.mac").unwrap();
    assert_eq!(asm.words.get(&0o100).map(|w| w.bits()), Some(0o277730));
    assert_eq!(asm.words.len(), 1);
}

#[test]
fn first_line_is_the_title_and_is_not_assembled() {
    let asm = assemble("lac 5\n100/\n\t7\n", "t.mac").unwrap();
    assert_eq!(asm.words.len(), 1);
    assert_eq!(asm.words.get(&0o100).map(|w| w.bits()), Some(7));
    assert_eq!(asm.start, None);
}

#[test]
fn symbols_have_kinds() {
    let asm = assemble(
        "t\nn=12\n100/\nbeg,\tlac \\v\n\tvariables\n\tstart beg\n",
        "t.mac",
    )
    .unwrap();
    let kinds: Vec<(&str, u32, SymbolKind)> = asm.symbols.iter().collect();
    assert_eq!(
        kinds,
        [
            ("beg", 0o100, SymbolKind::Label),
            ("n", 0o12, SymbolKind::Param),
            ("v", 0o101, SymbolKind::Variable)
        ]
    );
    assert_eq!(asm.start, Some(0o100));
}

#[test]
fn diagnostics_display_one_per_line() {
    let d = assemble("t\n100/\n\tlac x\n\tjmp y\n", "f.mac").unwrap_err();
    assert_eq!(
        d.to_string(),
        "f.mac:3:6: error: undefined symbol `x`\nf.mac:4:6: error: undefined symbol `y`"
    );
}

#[test]
fn listing_shows_line_location_word_and_source() {
    let asm = assemble("t\n100/\na,\tlac a\n", "t.mac").unwrap();
    assert!(
        asm.listing.contains("    3 0100 200100  a,\tlac a"),
        "{}",
        asm.listing
    );
}

/// The DEC-compatibility notes are empty for every source the historic MACRO accepted
/// (tests/programs and tests/oracle, compared word for word in tests/historic_macro.rs) and
/// name each construct it rejects.
#[test]
fn dec_notes_match_what_the_historic_macro_accepts() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    for dir in ["programs", "oracle"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let src = std::fs::read_to_string(&p).unwrap();
            let (r, notes) = pdp1_asm::assemble_with_dec_notes(&src, "x.mac");
            assert!(r.is_ok());
            assert!(notes.is_empty(), "{}: {notes:?}", p.display());
        }
    }
    let src = "t\n100/\nlongname,\tlac x!1 / c\ndefine ab\n\tterm\nx,\t0\n";
    let (_, notes) = pdp1_asm::assemble_with_dec_notes(src, "n.mac");
    let at: Vec<(usize, usize)> = notes.iter().map(|n| (n.line, n.column)).collect();
    assert_eq!(at, [(3, 1), (3, 16), (3, 19), (4, 1)], "{notes:?}");
}
