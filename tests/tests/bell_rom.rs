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
    // The program and its tables fit field 0; the search stack is in field 15, from `stk` to
    // the game records at 175100: 15 words a sowing below the root (nd's return and psh's
    // fourteen), room for 40 sowings.
    let top = *asm.words.keys().max().unwrap();
    assert!(top < 0o10000, "field 0 ends at {top:o}");
    let stk = asm.symbols.value_of("stk").unwrap();
    assert!(
        stk >= 0o170000 && 0o175100 - stk >= 15 * 40,
        "stack room {}",
        0o175100 - stk
    );
}
