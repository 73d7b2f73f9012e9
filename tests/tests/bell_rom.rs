//! roms/bell.rim (Bell's learning Kalah, issue 13) must be exactly what pdp1-asm makes of the
//! files roms/bell.files names (BLK format), and roms/kalah.rim and roms/kalah7.rim, built from
//! the same library, stay their own assemblies (kalah_rom checks those).
mod kalah_support;
use kalah_support::*;

#[test]
fn bell_rim_is_the_assembled_bell_mac() {
    let asm = assembly_of("bell.files");
    let blk = pdp1_asm::tape::write_blk(&asm.image());
    let file = std::fs::read(roms().join("bell.rim")).unwrap();
    assert!(
        blk == file,
        "roms/bell.rim is stale: cargo run -p pdp1-asm -- @roms/bell.files --format blk -o roms/bell.rim"
    );
    // The program and its tables fit field 0 below the 16-bit loader (7746); the memory's
    // code is in field 16, from 164000 to the game's record at 166000; part 10's 512 entries
    // (154000-157777) leave 160000-163777 to the memory's tables (issue 29): the presence
    // filter at 160000-161777, nothing assembled there (0 when the program is read in, like
    // the parts), its code from 162000; the search stack is in field 17, from
    // `stk` to the game records at 175100: 4 or 5 words a sowing below the root (the frame
    // nl2 keeps for pfr), room for 100 sowings; below it the boards `bsc` and `bsv` (16 words
    // each), above the back-track's lists, which end at `blt` (tls's stack grows down from
    // there, its push decrements first).
    let top = *asm.words.range(..0o10000).next_back().unwrap().0;
    assert!(
        top < pdp1_asm::tape::EXT_LOADER_BASE,
        "field 0 ends at {top:o}"
    );
    use kalah::bell::{CODE_ENTRIES, REPLIES, TABLE};
    let part10_end = 0o10000 + (REPLIES * TABLE + TABLE - CODE_ENTRIES) as u32 * 4;
    assert_eq!(part10_end, 0o160000, "part 10 ends at {part10_end:o}");
    let filter: Vec<u32> = asm
        .words
        .range(part10_end..0o162000)
        .map(|(&a, _)| a)
        .collect();
    assert!(
        filter.is_empty(),
        "{} words assembled in the filter, the first at {:o}",
        filter.len(),
        filter[0]
    );
    let beyond: Vec<u32> = asm.words.range(0o10000..).map(|(&a, _)| a).collect();
    assert!(
        beyond.iter().all(|&a| (0o162000..0o166000).contains(&a)),
        "words outside field 0 from {:o} to {:o}",
        beyond[0],
        beyond[beyond.len() - 1]
    );
    let stk = asm.symbols.value_of("stk").unwrap();
    assert!(
        stk >= 0o170000 && 0o175100 - stk >= 5 * 100,
        "stack room {}",
        0o175100 - stk
    );
    let sym = |n: &str| asm.symbols.value_of(n).unwrap();
    let (blt, bsc, bsv) = (sym("blt"), sym("bsc"), sym("bsv"));
    assert!(
        blt <= bsc && bsc + 0o20 <= bsv && bsv + 0o20 <= stk,
        "the boards bsc {bsc:o} and bsv {bsv:o} overlap the back-track's lists (to {blt:o}) or the stack ({stk:o})"
    );
}

/// On a machine without the 64K the program says so and halts (instead of losing its memory).
#[test]
fn on_a_4k_machine_it_asks_for_64k() {
    use pdp1_core::{Limit, Machine, MachineConfig, StopReason};
    let tape = std::fs::read(roms().join("bell.rim")).unwrap();
    for words in [4096, 32768] {
        let mut m = Machine::new(MachineConfig {
            memory_words: words,
            ..MachineConfig::default()
        })
        .unwrap();
        m.mount_tape(tape.clone());
        m.read_in();
        let r = m.run_until(Limit {
            until_ns: Some(60_000_000_000),
            instructions: None,
        });
        assert!(matches!(r, StopReason::Halted), "{words}: {r:?}");
        let typed: String = m
            .drain_typewriter()
            .iter()
            .filter_map(|e| pdp1_core::fiodec::to_ascii(e.code, e.upper))
            .collect();
        assert!(typed.contains("needs 64k"), "{words}: {typed:?}");
    }
}
