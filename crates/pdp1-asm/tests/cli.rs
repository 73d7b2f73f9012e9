//! The `pdp1-asm` command: tape, listing and symbols written; errors on stderr with exit status 1.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pdp1-asm"))
}

#[test]
fn assembles_to_rim_and_blk_with_listing_and_symbols() {
    let dir = test_support::scratch("asm-cli");
    let src = dir.join("p.mac");
    std::fs::write(
        &src,
        "cli test\n100/\ngo,\tlac x\n\thlt\nx,\t5\n\tstart go\n",
    )
    .unwrap();
    for format in ["rim", "blk"] {
        let tape = dir.join(format!("p.{format}"));
        let out = bin()
            .arg(&src)
            .args(["-o", tape.to_str().unwrap(), "--format", format])
            .args(["--listing", dir.join("p.lst").to_str().unwrap()])
            .args(["--symbols", dir.join("p.sym").to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let image = pdp1_asm::tape::read_image(&std::fs::read(&tape).unwrap()).unwrap();
        assert_eq!(image.start, Some(0o100));
        assert_eq!(image.words.get(&0o100).map(|w| w.bits()), Some(0o200102));
    }
    let lst = std::fs::read_to_string(dir.join("p.lst")).unwrap();
    assert!(lst.contains("0100 200102"), "{lst}");
    let sym =
        pdp1_asm::SymbolTable::parse(&std::fs::read_to_string(dir.join("p.sym")).unwrap()).unwrap();
    assert_eq!(sym.value_of("x"), Some(0o102));
    assert_eq!(sym.name_of(0o100), Some("go"));
}

#[test]
fn errors_go_to_stderr_with_position_and_status_1() {
    let dir = test_support::scratch("asm-cli-err");
    let src = dir.join("bad.mac");
    std::fs::write(&src, "bad\n100/\n\tlac nowhere\n\tlac 9\n").unwrap();
    let out = bin()
        .arg(&src)
        .args(["-o", dir.join("bad.rim").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.mac:3:6: error: undefined symbol `nowhere`"),
        "{err}"
    );
    assert!(err.contains("bad.mac:4:6: error: digit 9"), "{err}");
    assert!(!dir.join("bad.rim").exists());
}

/// Issue 12: several source files are one program, in the order given — the first holds the
/// title, symbols and macros defined in one are used in the next, one `start` ends it — and an
/// error names its own file and line.
#[test]
fn several_sources_are_one_program_and_errors_name_their_file() {
    let dir = test_support::scratch("asm-cli-multi");
    let one = dir.join("one.mac");
    let two = dir.join("two.mac");
    std::fs::write(&one, "two files\n100/\ngo,\tlac k\n").unwrap();
    std::fs::write(&two, "\tjmp go\nk,\t5\n\tstart go\n").unwrap();
    let out = bin()
        .args([&one, &two])
        .args(["-o", dir.join("p.rim").to_str().unwrap()])
        .args(["--listing", dir.join("p.lst").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let image = pdp1_asm::tape::read_image(&std::fs::read(dir.join("p.rim")).unwrap()).unwrap();
    // lac 102 / jmp 100 / 5, start 100: the label of one file and the value of the other.
    let words: Vec<(u32, u32)> = image.words.iter().map(|(a, w)| (*a, w.bits())).collect();
    assert_eq!(
        words,
        vec![(0o100, 0o200102), (0o101, 0o600100), (0o102, 0o000005)]
    );
    assert_eq!(image.start, Some(0o100));
    let listing = std::fs::read_to_string(dir.join("p.lst")).unwrap();
    assert!(
        listing.contains("---- ") && listing.contains("two.mac"),
        "{listing}"
    );
    // The file's own line numbers: `k, 5` is line 2 of two.mac.
    assert!(
        listing
            .lines()
            .any(|l| l.trim_start().starts_with("2 0102 000005")),
        "{listing}"
    );

    std::fs::write(&two, "\tjmp go\n\tlac nowhere\n\tstart go\n").unwrap();
    let out = bin()
        .args([&one, &two])
        .args(["-o", dir.join("bad.rim").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("two.mac:2:6: error: undefined symbol `nowhere`"),
        "{err}"
    );
}
