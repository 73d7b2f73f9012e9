//! The machine each known tape needs (issue 16): the PDP-1 programs in the classic library
//! were written for different machines — Spacewar! 4.x, the ICSS and LISP for the Type 10
//! multiply/divide, Spacewar! 3.1 for a machine without it, the music player for 16K, the
//! dual-screen Spacewar! 4.4 for a PDP-1D's `swp` and two displays — so `pdp1 TAPE` looks the
//! tape up here and, when it knows it, builds that machine (and sets the console as its
//! operator would), unless the command line or the configuration file says otherwise.
//!
//! Two parts, as the PiDP-1 ships them (machine profiles, and which tape runs on which):
//!
//! * [`PROFILES`]: named machines (`pdp1c`, `mdv`, `music`, `lisp`, `dual`, `flash`, `bell`),
//!   for `--profile NAME`;
//! * [`KNOWN`]: tapes recognised by content — a 64-bit FNV-1a hash of the whole file (the
//!   tapes of `../shared/tapes`, see its README for where each comes from) — with their
//!   profile and console settings, or, for a tape that is not a program to READ IN (a data
//!   tape, a patch), what to do with it instead.
//!
//! Of the tapes assembled here, `roms/bell.rim` (Bell's learning Kalah, 64K) is known too, by
//! the hash of the checked-in tape (a unit test below says when a rebuilt tape needs the new
//! hash); any other (`roms/kalah.rim`, `roms/kalah7.rim`) runs on the PDP-1C defaults.

use crate::error::{bail, Result};

/// A machine: the options chosen before power-on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    /// What it is, for `--profile help` and the messages.
    pub about: &'static str,
    pub mul_div: bool,
    pub memory_words: usize,
    pub lai_lia: bool,
    pub second_display: bool,
    /// The console EXTEND switch on (Type 15 extend mode at READ IN and START).
    pub extend: bool,
    /// Longest `xct` chain (a simulator guard, not hardware; `None`: the default, no limit).
    pub xct_limit: Option<u32>,
}

const PDP1C: Profile = Profile {
    name: "pdp1c",
    about: "PDP-1C, 4K, no options (the default machine)",
    mul_div: false,
    memory_words: 4096,
    lai_lia: false,
    second_display: false,
    extend: false,
    xct_limit: None,
};

/// The named machines.
pub const PROFILES: &[Profile] = &[
    PDP1C,
    Profile {
        name: "mdv",
        about: "PDP-1C, 4K, Type 10 multiply/divide",
        mul_div: true,
        ..PDP1C
    },
    Profile {
        name: "music",
        about: "PDP-1C, 16K, Type 10 multiply/divide",
        mul_div: true,
        memory_words: 16384,
        ..PDP1C
    },
    Profile {
        name: "lisp",
        about: "PDP-1C, 4K, Type 10 multiply/divide, EXTEND switch on",
        mul_div: true,
        extend: true,
        ..PDP1C
    },
    Profile {
        name: "dual",
        about: "PDP-1D: Type 10 multiply/divide, swp (lai/lia), a second Type 30 display",
        mul_div: true,
        lai_lia: true,
        second_display: true,
        ..PDP1C
    },
    Profile {
        name: "bell",
        about: "PDP-1C, 64K (Type 15 memory extension): Bell's learning Kalah keeps its memory, \
                eleven tables of 1280 four-word entries, in fields 1-14 and its game record, \
                turn lists and the memory tape being read in fields 14-15",
        memory_words: 65536,
        ..PDP1C
    },
    Profile {
        name: "flash",
        about: "PDP-1C, 4K (its xct chain through every word of memory needs no limit raised: \
                the chain limits are off by default)",
        ..PDP1C
    },
];

/// What an operator sets on the console before (or while) the program runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Console {
    pub test_word: Option<u32>,
    /// SS1 = 040 … SS6 = 001.
    pub sense_switches: Option<u8>,
    /// DEPOSIT (the test word) here, then START at `start`, once the tape is loaded.
    pub deposit: Option<u32>,
    pub start: Option<u32>,
    /// CONTINUE after this many halts, with these test words.
    pub continue_halts: u32,
    pub halt_test_words: &'static [u32],
}

const NONE: Console = Console {
    test_word: None,
    sense_switches: None,
    deposit: None,
    start: None,
    continue_halts: 0,
    halt_test_words: &[],
};

/// What a known tape is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// A program to READ IN on `profile`'s machine with `console` set.
    Program {
        profile: &'static str,
        console: Console,
    },
    /// Not a program to READ IN by itself: what to do with it.
    Other { advice: &'static str },
}

/// A tape recognised by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// Its file name in `../shared/tapes`.
    pub file: &'static str,
    pub title: &'static str,
    pub fnv: u64,
    pub what: Use,
}

const fn program(
    file: &'static str,
    title: &'static str,
    fnv: u64,
    profile: &'static str,
) -> Known {
    Known {
        file,
        title,
        fnv,
        what: Use::Program {
            profile,
            console: NONE,
        },
    }
}

/// The tapes of `../shared/tapes`.
pub const KNOWN: &[Known] = &[
    program(
        "spacewar3.1.rim",
        "Spacewar! 3.1",
        0xd48c0cb882124c27,
        "pdp1c",
    ),
    program(
        "spacewar2B.rim",
        "Spacewar! 2B",
        0x411c947718dd27d4,
        "pdp1c",
    ),
    program("spacewar48.rim", "Spacewar! 4.8", 0x9a90ddf01fe70bce, "mdv"),
    program(
        "spacewar_dual_screen_4_4g.rim",
        "Spacewar! 4.4, dual screen",
        0x62eb8997ee0861b8,
        "dual",
    ),
    program(
        "icss_1_3.rim",
        "Ironic Computer Space Simulator 1.3",
        0x7ba9c2d0f79ec20c,
        "mdv",
    ),
    program(
        "circle.rim",
        "circle display demo",
        0x0b39b82f151d9ff0,
        "pdp1c",
    ),
    Known {
        file: "munch-small.rim",
        title: "Munching squares",
        fnv: 0x1e251c1ad451a990,
        what: Use::Program {
            profile: "pdp1c",
            // The test word is the speed and the pattern; 0 freezes the picture.
            console: Console {
                test_word: Some(0o2001),
                ..NONE
            },
        },
    },
    Known {
        file: "minskytron.rim",
        title: "Minskytron",
        fnv: 0x2ca0ffbfeb85158e,
        what: Use::Program {
            profile: "pdp1c",
            // The tape ends with `jmp 500` into empty memory; the operator deposits the test
            // word (aap's setting 677721) and starts at 5.
            console: Console {
                test_word: Some(0o677721),
                deposit: Some(0o4),
                start: Some(0o5),
                ..NONE
            },
        },
    },
    program("tac-13.rim", "tic-tac-toe", 0xdfe88bbb98761011, "pdp1c"),
    program("ddt.rim", "DEC DDT (1966)", 0x06691bede1cb123e, "pdp1c"),
    Known {
        file: "lisp.rim",
        title: "PDP-1 LISP (1964)",
        fnv: 0x1e85e1923c77bdcc,
        what: Use::Program {
            profile: "lisp",
            // Start-up halts at 2353 (top of memory: 7777), 2357 (push-down list: 400) and 5;
            // sense switch 5 takes input from the typewriter.
            console: Console {
                sense_switches: Some(0o02),
                continue_halts: 3,
                halt_test_words: &[0o7777, 0o400, 0],
                ..NONE
            },
        },
    },
    program(
        "macro.rim",
        "DEC MACRO assembler",
        0x7646af6be9fe9feb,
        "pdp1c",
    ),
    program(
        "expensive-typewriter.rim",
        "Expensive Typewriter",
        0xb5c911a4381d56cb,
        "pdp1c",
    ),
    program(
        "FLASH.rim",
        "FLASH-1 console-lamp flasher",
        0x7d28d1c44769c604,
        "flash",
    ),
    program(
        "pdp1m13.rim",
        "pdp-1 music 13 (Peter Samson)",
        0x95d61198ff3963e1,
        "music",
    ),
    program(
        "roms/bell.rim",
        "Bell's learning Kalah (this repository's roms/bell.rim)",
        0x2eac513cdca00d1f,
        "bell",
    ),
    Known {
        file: "trioSonataI_intermediate.bin",
        title: "Bach, trio sonata I: compiled voices",
        fnv: 0x70f28a1085129cbb,
        what: Use::Other {
            advice: "it is the voice tape for the music player: run pdp1m13.rim and mount \
                     this one for its four START 4s, as examples/scripts/music.pdp1 does with \
                     --script (docs/library.md, \"Music\")",
        },
    },
    Known {
        file: "hyperspace85.bin",
        title: "Graetz's hyperspace patch for Spacewar! 2B",
        fnv: 0xf726be5655d6909b,
        what: Use::Other {
            advice: "it is read in over a loaded spacewar2B.rim (a second READ IN): run \
                     examples/scripts/hyperspace.pdp1 with --script (docs/library.md); give \
                     --profile pdp1c to read it in alone",
        },
    },
    Known {
        file: "lisp-defs.pt",
        title: "LISP definitions (FIO-DEC text)",
        fnv: 0x4af28914a9e3dfc5,
        what: Use::Other {
            advice: "it is a text tape for LISP: run lisp.rim and give this one with --reader",
        },
    },
];

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The known tape with exactly these frames.
pub fn recognise(frames: &[u8]) -> Option<&'static Known> {
    let h = fnv1a(frames);
    KNOWN.iter().find(|k| k.fnv == h)
}

/// The profile called `name`.
pub fn profile(name: &str) -> Result<&'static Profile> {
    match PROFILES.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
        Some(p) => Ok(p),
        None => bail!(
            "--profile: `{name}` is not a machine profile (auto, none, {})",
            PROFILES
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl Profile {
    /// The options beyond the PDP-1C, for messages: "Type 10 multiply/divide, 16K".
    pub fn options(&self) -> String {
        let mut o = Vec::new();
        if self.mul_div {
            o.push("Type 10 multiply/divide".to_string());
        }
        if self.memory_words != 4096 {
            o.push(format!("{}K", self.memory_words / 1024));
        }
        if self.lai_lia {
            o.push("swp".into());
        }
        if self.second_display {
            o.push("a second display".into());
        }
        if self.extend {
            o.push("EXTEND switch on".into());
        }
        if let Some(x) = self.xct_limit {
            o.push(format!("xct chains up to {x}"));
        }
        if o.is_empty() {
            "a plain PDP-1C".into()
        } else {
            o.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_is_the_published_function() {
        // Test vectors of the FNV reference (draft-eastlake-fnv): "" and "a".
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn every_known_program_names_a_profile_and_hashes_differ() {
        for k in KNOWN {
            if let Use::Program { profile: p, .. } = k.what {
                assert!(profile(p).is_ok(), "{}: {p}", k.file);
            }
            assert_eq!(
                KNOWN.iter().filter(|o| o.fnv == k.fnv).count(),
                1,
                "{}",
                k.file
            );
        }
        assert!(profile("nonsense").is_err());
        assert_eq!(profile("bell").unwrap().memory_words, 65536);
    }

    #[test]
    fn the_checked_in_bell_tape_is_known() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../roms/bell.rim");
        let tape = std::fs::read(path).unwrap();
        let k = recognise(&tape).unwrap_or_else(|| {
            panic!(
                "roms/bell.rim was rebuilt: its hash in KNOWN must be {:#018x}",
                fnv1a(&tape)
            )
        });
        assert_eq!(k.file, "roms/bell.rim");
        assert!(matches!(
            k.what,
            Use::Program {
                profile: "bell",
                ..
            }
        ));
        assert_eq!(profile("PDP1C").unwrap().name, "pdp1c");
    }
}
