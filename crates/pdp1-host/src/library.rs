//! The machine each tape needs (issues 16 and 27): the PDP-1 programs in the classic library
//! were written for different machines — Spacewar! 4.x, the ICSS and LISP for the Type 10
//! multiply/divide, Spacewar! 3.1 and 2B for a machine without it (they multiply in steps), the
//! music player for 16K, the dual-screen Spacewar! 4.4 for a PDP-1D's `swp` and two displays —
//! so `pdp1 TAPE` reads the machine from the tape's instructions ([`guess`], issue 27; until
//! then it looked the tape's hash up, and every other tape ran on a PDP-1C without a word),
//! unless the command line or the configuration file says otherwise.
//!
//! Three parts:
//!
//! * [`guess`]: the machine from the tape's content, and what in it decided;
//! * [`PROFILES`]: named machines (`pdp1c`, `mdv`, `music`, `lisp`, `dual`, `flash`, `bell`),
//!   for `--profile NAME`;
//! * [`KNOWN`]: tapes recognised by a 64-bit FNV-1a hash of the whole file (the tapes of
//!   `../shared/tapes`, see its README for where each comes from), for their names and the
//!   operator's console settings, or, for a tape that is not a program to READ IN (a data
//!   tape, a patch), what to do with it instead.
//!
//! Of the tapes assembled here, `roms/bell.rim` (Bell's learning Kalah, 64K) is known too, by
//! the hash of the checked-in tape (a unit test below says when a rebuilt tape needs the new
//! hash).

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
    /// The EXTEND switch on (LISP: its content gives no sign that it needs it).
    pub extend: bool,
}

const NONE: Console = Console {
    test_word: None,
    sense_switches: None,
    deposit: None,
    start: None,
    continue_halts: 0,
    halt_test_words: &[],
    extend: false,
};

/// What a known tape is. Since issue 27 a program's machine comes from its content
/// ([`guess`]); `profile` names the machine it was found to run on (a test holds the guess to
/// it), and `console` the operator's steps, which no content tells.
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
            // sense switch 5 takes input from the typewriter. It needs extend mode from the
            // start (SIMH: `d extm_init 1`), the EXTEND switch: nothing in its words says so.
            console: Console {
                sense_switches: Some(0o02),
                extend: true,
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
        0x046aeb25777166b8,
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

/// The machine a tape's content asks for (issue 27), and what in the content decided it.
///
/// The default is the machine most tapes a person finds were written for: a PDP-1C with the
/// Type 10 multiply/divide, as the Computer History Museum's restored PDP-1 has (the PiDP-1
/// tapes of Spacewar! 4.x, the ICSS, snowflake, the rotating cube … use `mul`/`div`). It
/// breaks only the programs that use the multiply and divide *steps* (`mus`, `dis`: the same
/// opcodes 54 and 56 without the Type 10, which replaces them — pdp1-hardware.md §2.2): their
/// step multiply is one `mus Y` written 17 times in a row and the step divide one `dis Y` 18
/// times (Spacewar! 2B and 3.1; the music player carries both and asks the machine which works,
/// so it runs either way). A run of such identical words cannot be Type 10 code — a second
/// `mul` would multiply the first one's product — so such a run chooses the machine without it.
///
/// The rest is read from the instructions too: `eem` or `lem` (extend mode, Type 15 memory
/// extension) asks for 64K; the PDP-1D's `swp` (760060), written more than once, for the
/// `lai`/`lia` option, and with it a `dpy` selecting the second display (bit 400) for a second
/// Type 30. What the content cannot tell: the EXTEND switch LISP needs at start (a console
/// switch; LISP's own words give no sign of it), and the operator's console steps (test words,
/// sense switches, halts to answer) — the known-tape table keeps those.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    pub profile: Profile,
    /// One clause per finding, for the operator: empty when nothing in the tape decided (the
    /// default machine).
    pub evidence: Vec<String>,
}

/// The default machine for a tape whose content does not say (and for no tape at all).
pub const DEFAULT: Profile = Profile {
    name: "auto",
    about: "from the tape's content",
    mul_div: true,
    ..PDP1C
};

/// `mus`/`dis` (or `mul`/`div`): opcode 54 or 56, indirect bit or not.
fn multiply_or_divide(w: u32) -> Option<&'static str> {
    match (w >> 12) & 0o76 {
        0o54 => Some("mus"),
        0o56 => Some("dis"),
        _ => None,
    }
}

/// "121, 123, 125 and 32 more": the first few addresses, in octal.
fn addresses(at: &[u32]) -> String {
    let shown: Vec<String> = at.iter().take(3).map(|a| format!("{a:o}")).collect();
    match at.len() {
        n if n > 3 => format!("{} and {} more", shown.join(", "), n - 3),
        _ => shown.join(", "),
    }
}

/// The machine `frames` (a RIM or BLK tape) asks for; a tape that is not one gets [`DEFAULT`]
/// with no evidence.
pub fn guess(frames: &[u8]) -> Guess {
    let mut profile = DEFAULT;
    let mut evidence = Vec::new();
    let Ok(image) = pdp1_asm::tape::read_image(frames) else {
        return Guess { profile, evidence };
    };
    let word = |a: u32| image.words.get(&a).map(|w| w.bits());
    // Step runs: 16 to 22 identical mus/dis words at consecutive addresses (17 and 18 in the
    // programs, a word or two more or less where a routine keeps fewer or more bits).
    let mut steps = Vec::new();
    let mut singles = Vec::new();
    let mut seen_to = None;
    for (&a, w) in &image.words {
        let w = w.bits();
        if seen_to.is_some_and(|end| a < end) {
            continue;
        }
        let Some(name) = multiply_or_divide(w) else {
            continue;
        };
        let run = (a..).take_while(|&b| word(b) == Some(w)).count() as u32;
        seen_to = Some(a + run);
        if (16..=22).contains(&run) {
            steps.push(format!("{run} × `{name} {:o}` at {a:o}", w & 0o7777));
        } else {
            singles.extend(a..a + run);
        }
    }
    if !steps.is_empty() {
        profile.mul_div = false;
        evidence.push(format!(
            "no Type 10 multiply/divide: the tape multiplies and divides in steps ({})",
            steps.join(", ")
        ));
    } else if !singles.is_empty() {
        evidence.push(format!(
            "Type 10 multiply/divide: words that read as mul/div at {}",
            addresses(&singles)
        ));
    }
    let find = |pred: &dyn Fn(u32) -> bool| -> Vec<u32> {
        image
            .words
            .iter()
            .filter(|(_, w)| pred(w.bits()))
            .map(|(&a, _)| a)
            .collect()
    };
    // eem 724074, lem 720074 (the Type 15's extend-mode IOTs, pdp1-hardware.md §1.1).
    let extend = find(&|w| w == 0o724074 || w == 0o720074);
    if !extend.is_empty() {
        profile.memory_words = 65536;
        evidence.push(format!(
            "64K (Type 15 memory extension): eem/lem at {}",
            addresses(&extend)
        ));
    }
    let swp = find(&|w| w == 0o760060);
    if swp.len() >= 2 {
        profile.lai_lia = true;
        evidence.push(format!("the PDP-1D's swp at {}", addresses(&swp)));
        // dpy (720007, with or without the wait bits) with bit 400: display 2.
        let second = find(&|w| w & 0o760777 == 0o720407);
        if !second.is_empty() {
            profile.second_display = true;
            evidence.push(format!(
                "a second display: dpy with bit 400 at {}",
                addresses(&second)
            ));
        }
    }
    Guess { profile, evidence }
}

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
    /// Give `s` this machine where it does not name its own (the command line and the
    /// configuration file, or the web page's query, stay over the profile).
    pub fn apply(&self, s: &mut crate::config::Settings) {
        s.mul_div = s.mul_div.or(Some(self.mul_div));
        s.memory_words = s.memory_words.or(Some(self.memory_words));
        s.lai_lia = s.lai_lia.or(Some(self.lai_lia));
        s.second_display = s.second_display.or(Some(self.second_display));
        s.extend = s.extend.or(Some(self.extend));
        s.xct_limit = s.xct_limit.or(self.xct_limit);
    }

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

    /// A RIM tape loading `words` at 100 on.
    fn tape_of(words: &[u32]) -> Vec<u8> {
        let image = pdp1_asm::tape::Image {
            words: (0o100..)
                .zip(words)
                .map(|(a, &w)| (a, pdp1_core::Word::new(w)))
                .collect(),
            start: Some(0o100),
        };
        pdp1_asm::tape::write_rim(&image)
    }

    #[test]
    fn the_content_chooses_the_machine() {
        let lac = 0o200000;
        // Nothing to go by: the default, the Type 10, and nothing to say.
        let g = guess(&tape_of(&[lac | 0o200, 0o760400]));
        assert_eq!((g.profile, g.evidence.len()), (DEFAULT, 0));
        assert!(g.profile.mul_div);
        // A step multiply: 17 × `mus 200` — no Type 10.
        let mut steps = vec![0o640000 | 0o200, 0o760200];
        steps.extend([0o540200; 17]);
        let g = guess(&tape_of(&steps));
        assert!(!g.profile.mul_div, "{g:?}");
        assert!(g.evidence[0].contains("17 × `mus 200` at 102"), "{g:?}");
        // A run too long for a step routine (a pattern of data) decides nothing.
        let g = guess(&tape_of(&[0o545454; 24]));
        assert!(g.profile.mul_div, "{g:?}");
        // `mul` between other instructions: the Type 10, said.
        let g = guess(&tape_of(&[lac | 0o200, 0o540201, 0o240202]));
        assert!(g.profile.mul_div && g.evidence[0].contains("mul/div at 101"));
        // eem: 64K; swp twice and a dpy on display 2: the PDP-1D with two displays.
        let g = guess(&tape_of(&[0o724074, 0o760060, 0o760060, 0o720407]));
        assert_eq!(g.profile.memory_words, 65536);
        assert!(g.profile.lai_lia && g.profile.second_display, "{g:?}");
        // One swp alone (a table, as in MACRO) is not the PDP-1D.
        let g = guess(&tape_of(&[0o760060, 0o720407]));
        assert!(!g.profile.lai_lia && !g.profile.second_display);
        // Not a tape READ IN can read: the default.
        assert_eq!(guess(&[1, 2, 3]).profile, DEFAULT);
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
