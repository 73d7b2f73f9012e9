//! roms/kalah.rim must be exactly what pdp1-asm makes of its sources, the files
//! roms/kalah.files names in order (RIM or BLK format, byte for byte), so the tape in the
//! repository can always be rebuilt from them:
//! `cargo run -p pdp1-asm -- @roms/kalah.files -o roms/kalah.rim [--format blk]`.

use pdp1_asm::{assemble_files, read_source_list, tape};
use std::path::PathBuf;

#[test]
fn kalah_rim_is_rebuilt_from_its_sources() {
    let roms = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../roms");
    let files = read_source_list(&roms.join("kalah.files")).expect("roms/kalah.files");
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let asm = assemble_files(&files).unwrap_or_else(|d| panic!("roms/kalah.files:\n{d}"));
    let rim = std::fs::read(roms.join("kalah.rim")).expect(
        "roms/kalah.rim is missing: cargo run -p pdp1-asm -- @roms/kalah.files -o roms/kalah.rim",
    );
    let image = tape::Image {
        words: asm.words,
        start: asm.start,
    };
    assert!(
        rim == tape::write_rim(&image) || rim == tape::write_blk(&image),
        "roms/kalah.rim differs from what its sources assemble to; rebuild it with \
         cargo run -p pdp1-asm -- @roms/kalah.files --format blk -o roms/kalah.rim"
    );
}
