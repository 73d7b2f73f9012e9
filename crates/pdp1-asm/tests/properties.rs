//! Properties: the disassembler is the assembler's inverse for every 18-bit word; readers never
//! panic on arbitrary bytes and writers round-trip; the assembler never panics on any text.

use pdp1_asm::disasm::{disassemble, disassemble_within};
use pdp1_asm::{assemble, tape, Word};
use pdp1_core::MachineConfig;
use proptest::prelude::*;

/// Assemble the disassembly of every word 0…777777, 4096 words per source (one 4K memory each),
/// on a machine with the Type 10 (`mul`/`div`) and without it (`mus`/`dis`).
#[test]
fn disassembly_reassembles_to_every_word() {
    for mul_div in [true, false] {
        let machine = MachineConfig {
            mul_div,
            ..MachineConfig::default()
        };
        for chunk in 0..64u32 {
            let mut src = String::from("round trip\n0/\n");
            for a in 0..4096u32 {
                let w = chunk * 4096 + a;
                src.push('\t');
                src.push_str(&disassemble(Word::new(w), None, &machine));
                src.push('\n');
            }
            let asm =
                assemble(&src, "roundtrip.mac").unwrap_or_else(|e| panic!("chunk {chunk}: {e}"));
            for a in 0..4096u32 {
                let w = chunk * 4096 + a;
                let got = asm.words.get(&a).map(|w| w.bits());
                assert_eq!(
                    got,
                    Some(w),
                    "{w:06o} disassembles to `{}`",
                    disassemble(Word::new(w), None, &machine)
                );
            }
        }
    }
}

/// Issue 25: what the debugger shows in a narrow column still assembles back to the word, at
/// every width from the shortest number form up.
#[test]
fn disassembly_within_a_width_reassembles() {
    let machine = MachineConfig::default();
    for room in [6, 8, 10, 16, 20] {
        let mut src = String::from("round trip\n0/\n");
        // 2000 operate and 2000 skip words spread over their 13 bits, and a few others.
        let spread = |base: u32| (0..2000u32).map(move |i| base | (i * 0o11) & 0o17777);
        let words: Vec<u32> = spread(0o760000)
            .chain(spread(0o640000))
            .chain([0o767617, 0o777777, 0o651677, 0o540200, 0o210100])
            .collect();
        for &w in &words {
            src.push('\t');
            src.push_str(&disassemble_within(Word::new(w), None, &machine, room));
            src.push('\n');
        }
        let asm = assemble(&src, "within.mac").unwrap_or_else(|e| panic!("room {room}: {e}"));
        for (a, &w) in words.iter().enumerate() {
            let shown = disassemble_within(Word::new(w), None, &machine, room);
            assert!(
                shown.len() <= room.max(6),
                "{w:06o} in {room}: `{shown}` is too long"
            );
            assert_eq!(
                asm.words.get(&(a as u32)).map(|w| w.bits()),
                Some(w),
                "{w:06o} in {room} characters shows `{shown}`"
            );
        }
    }
}

/// With a symbol table, addresses come out as names and still assemble back.
#[test]
fn disassembly_with_symbols_reassembles() {
    let src = "t\n100/\nbeg,\tlac tab\n\tjmp i beg\ntab,\t0\n\tjda tab\nstart beg\n";
    let asm = assemble(src, "t.mac").unwrap();
    let mut again = String::from("t\n100/\n");
    for w in asm.words.values() {
        again.push_str(&format!(
            "\t{}\n",
            disassemble(*w, Some(&asm.symbols), &MachineConfig::default())
        ));
    }
    assert!(
        again.contains("lac tab") && again.contains("jmp i beg"),
        "{again}"
    );
    // Define the names the disassembly uses, then compare words.
    again.push_str("beg=100\ntab=102\n");
    let back = assemble(&again, "t.mac").unwrap();
    assert_eq!(back.words, asm.words);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn tape_readers_never_panic(frames in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = tape::read_rim(&frames);
        let _ = tape::read_blk(&frames);
        let _ = tape::read_image(&frames);
        let _ = tape::fiodec_tape_to_text(&frames);
    }

    #[test]
    fn mostly_valid_tapes_never_panic(
        words in proptest::collection::btree_map(0u32..0o7751, 0u32..0o1000000, 1..80),
        cut in 0usize..2000,
        flip in 0usize..2000,
    ) {
        let image = tape::Image {
            words: words.into_iter().map(|(a, w)| (a, Word::new(w))).collect(),
            start: Some(0o100),
        };
        for mut t in [tape::write_rim(&image), tape::write_blk(&image)] {
            if !t.is_empty() {
                let k = flip % t.len();
                t[k] ^= 0o4;
            }
            t.truncate(cut.min(t.len()));
            let _ = tape::read_image(&t);
            let _ = tape::read_blk(&t);
            let _ = tape::read_rim(&t);
        }
    }

    #[test]
    fn rim_and_blk_round_trip(
        words in proptest::collection::btree_map(0u32..0o7751, 0u32..0o1000000, 1..200),
        start in proptest::option::of(0u32..0o10000),
    ) {
        let image = tape::Image { words: words.into_iter().map(|(a, w)| (a, Word::new(w))).collect(), start };
        prop_assert_eq!(&tape::read_rim(&tape::write_rim(&image)).unwrap(), &image);
        let blk = tape::read_blk(&tape::write_blk(&image)).unwrap();
        prop_assert_eq!(blk.start, image.start);
        for (a, w) in &image.words {
            prop_assert_eq!(blk.words.get(a), Some(w));
        }
    }

    #[test]
    fn fiodec_text_round_trips(s in "[a-zA-Z0-9 ()+,./=\\-\n\t]{0,80}") {
        let t = tape::text_to_fiodec_tape(&s).unwrap();
        prop_assert_eq!(tape::fiodec_tape_to_text(&t), s);
    }

    #[test]
    fn assembler_never_panics_on_random_text(s in "\\PC{0,200}") {
        let _ = assemble(&s, "random.mac");
    }

    #[test]
    fn assembler_never_panics_on_macro_like_text(
        lines in proptest::collection::vec(
            "(\t|[a-z]{1,4},|[0-9]{1,4}/| |lac|dac i|jmp|\\(|\\)|\\[|\\]|-|\\+|!|&|\\*|x|1s|9s|sza|define|term|repeat 3,|text /|/|constants|variables|dimension a\\(3\\)|\\\\v|decimal|octal|char r|flexo |start|=|\\.|[0-9]{1,7}|[a-z]{1,3}){0,8}",
            0..30,
        )
    ) {
        let src = lines.join("\n");
        let _ = assemble(&src, "random.mac");
    }
}

/// Deep nesting is an error, not a stack overflow.
#[test]
fn deep_nesting_is_reported() {
    let deep = format!("t\n100/\n\tlac {}5\n\tconstants\n", "(".repeat(100_000));
    let e = assemble(&deep, "deep.mac").unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    let reps = format!("t\n100/\n\t{}7\n", "repeat 1, ".repeat(50_000));
    let e = assemble(&reps, "reps.mac").unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    let brackets = format!("t\n100/\n\t{}5\n", "[".repeat(100_000));
    assert!(assemble(&brackets, "b.mac").is_err());
}
