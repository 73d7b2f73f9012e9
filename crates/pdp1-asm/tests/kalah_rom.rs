//! roms/kalah.rim must be exactly what pdp1-asm makes of roms/kalah.mac (RIM or BLK format,
//! byte for byte), so the tape in the repository can always be rebuilt from its source:
//! `cargo run -p pdp1-asm -- roms/kalah.mac -o roms/kalah.rim [--format blk]`.
//! Skips (saying so) while the Kalah program does not exist yet.

use pdp1_asm::{assemble, tape};
use std::path::PathBuf;

#[test]
fn kalah_rim_is_rebuilt_from_kalah_mac() {
    let roms = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../roms");
    let src = std::fs::read_to_string(roms.join("kalah.mac")).expect("roms/kalah.mac");
    let asm = assemble(&src, "roms/kalah.mac").unwrap_or_else(|d| panic!("roms/kalah.mac:\n{d}"));
    let rim = std::fs::read(roms.join("kalah.rim")).expect(
        "roms/kalah.rim is missing: cargo run -p pdp1-asm -- roms/kalah.mac -o roms/kalah.rim",
    );
    let image = tape::Image {
        words: asm.words,
        start: asm.start,
    };
    assert!(
        rim == tape::write_rim(&image) || rim == tape::write_blk(&image),
        "roms/kalah.rim differs from what roms/kalah.mac assembles to; rebuild it with \
         cargo run -p pdp1-asm -- roms/kalah.mac -o roms/kalah.rim"
    );
}
