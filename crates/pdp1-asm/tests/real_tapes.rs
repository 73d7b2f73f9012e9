//! Every RIM/BLK tape in ../shared/tapes (historic programs, see its README) must read.
//! The folder sits beside the checkout; without it the test says so and does not fail.

mod common;

use pdp1_asm::tape;
use std::path::PathBuf;

fn tapes_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tapes");
    dir.is_dir().then_some(dir)
}

/// (file, expected format, expected start address) from ../shared/tapes/README.md.
const TAPES: &[(&str, &str, Option<u32>)] = &[
    ("spacewar3.1.rim", "blk", None),
    ("spacewar2B.rim", "blk", None),
    ("munch-small.rim", "rim", Some(0o1000)),
    ("minskytron.rim", "blk", None),
    ("circle.rim", "rim", Some(0o100)),
    ("ddt.rim", "rim", Some(0o6000)),
    ("lisp.rim", "rim", Some(0o2351)),
    ("macro.rim", "blk", None),
    ("expensive-typewriter.rim", "blk", None),
];

#[test]
fn every_shared_tape_reads() {
    let Some(dir) = tapes_dir() else {
        common::not_run(
            "../shared/tapes not found beside the checkout; real-tape test did not run",
        );
        return;
    };
    for &(name, format, start) in TAPES {
        let frames = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let image = tape::read_image(&frames).unwrap_or_else(|e| panic!("{name}: {e}"));
        match format {
            "rim" => {
                let rim = tape::read_rim(&frames).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(rim, image, "{name}");
                assert_eq!(rim.start, start, "{name}: start address");
            }
            _ => {
                let blk = tape::read_blk(&frames).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(blk, image, "{name}");
                assert!(blk.start.is_some(), "{name}: BLK tape has a start address");
                // The RIM part is MACRO's loader at 7751 (pdp1-hardware.md §6.5).
                for (a, w) in tape::loader() {
                    if a != 0o7760 {
                        assert_eq!(blk.words.get(&a), Some(&w), "{name}: loader word {a:o}");
                    }
                }
            }
        }
        eprintln!(
            "{name}: {} words, start {:?}",
            image.words.len(),
            image.start.map(|s| format!("{s:04o}"))
        );
    }
}
