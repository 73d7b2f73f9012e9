//! roms/kalah.rim must be exactly what pdp1-asm makes of its sources, the files roms/kalah.files
//! names (BLK format: MACRO's
//! checksummed blocks behind a RIM-format loader, half the frames of a RIM tape, so READ IN at
//! the reader's real 400 lines/s takes 22 s instead of 39 s), and the
//! program must fit a 4K PDP-1C without multiply/divide: no `mul`/`div` (opcodes 54/56) and
//! room for the search stack below 7777.
mod kalah_support;
use kalah_support::*;

#[test]
fn kalah_rim_is_the_assembled_kalah_mac() {
    let asm = assembly();
    let blk = pdp1_asm::tape::write_blk(&asm.image());
    let file = std::fs::read(roms().join("kalah.rim")).unwrap();
    assert!(
        blk == file,
        "roms/kalah.rim is stale: cargo run -p pdp1-asm -- @roms/kalah.files --format blk -o roms/kalah.rim"
    );
}

#[test]
fn fits_a_4k_machine_without_multiply_divide() {
    let asm = assembly();
    let top = *asm.words.keys().max().unwrap();
    let stk = asm.symbols.value_of("stk").unwrap();
    // The principal-variation rows (Russell mode) fill the top of memory from `pvt`:
    // rows 0–24 of 25 − k words each.
    let pvt = asm.symbols.value_of("pvt").unwrap();
    assert_eq!(pvt + 25 * 26 / 2, 0o10000, "pv rows end at 7777");
    assert!(top <= stk && stk < pvt);
    // 6 words per sowing below the root (nd's return and psh's five): room for at least 50.
    // The deepest searches measured use far less: Russell's proof at id 13 reaches 133 words
    // (22 sowings, short look included) — `kalah_profile` prints it.
    assert!(pvt - stk >= 6 * 50, "stack room {}", pvt - stk);
    for (&a, &w) in &asm.words {
        let op = w.bits() >> 13;
        let code =
            a >= asm.symbols.value_of("ini").unwrap() && a < asm.symbols.value_of("gly").unwrap();
        if code {
            assert!(op != 0o26 && op != 0o27, "mul/div at {a:04o}");
        }
    }
}

/// roms/kalah7.rim (the 7×7 pie-rule program, issue 14) is exactly the assembly of the files
/// roms/kalah7.files names; its search stack has room on a 4K machine and it needs no
/// multiply/divide.
#[test]
fn kalah7_rim_is_the_assembled_kalah7_mac() {
    let asm = assembly_of("kalah7.files");
    let blk = pdp1_asm::tape::write_blk(&asm.image());
    let file = std::fs::read(roms().join("kalah7.rim")).unwrap();
    assert!(
        blk == file,
        "roms/kalah7.rim is stale: cargo run -p pdp1-asm -- @roms/kalah7.files --format blk -o roms/kalah7.rim"
    );
    // 7 words a sowing below the root (nd's return and psh's six): room for 100 in 4K.
    let top = *asm.words.keys().max().unwrap();
    let stk = asm.symbols.value_of("stk").unwrap();
    assert!(
        top <= stk && 0o10000 - stk >= 7 * 100,
        "stack room {}",
        0o10000 - stk
    );
}
