//! Helpers for the `pdp1` binary's integration tests: run the built binary, build RIM tapes by
//! hand (independently of pdp1-asm: three frames of six bits with hole 8 per word, `dio A` /
//! word pairs, `jmp START`, as pdp1-hardware.md §6.3–6.4 describe), parse `--registers`.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

pub struct Run {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn ok(&self) -> bool {
        self.status == Some(0)
    }
    /// The `--registers` line on stderr, as (name, value) pairs.
    pub fn registers(&self) -> Registers {
        let line = self
            .stderr
            .lines()
            .find(|l| l.starts_with("pc="))
            .unwrap_or_else(|| panic!("no registers line in stderr: {}", self.stderr));
        Registers::parse(line)
    }
    pub fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked"),
            "the binary panicked: {}",
            self.stderr
        );
        assert_ne!(
            self.status,
            Some(101),
            "exit 101 is Rust's panic status: {}",
            self.stderr
        );
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registers {
    pub line: String,
    pub pc: u32,
    pub ac: u32,
    pub io: u32,
    pub ov: u32,
    pub pf: u32,
    pub cycles: u64,
}

impl Registers {
    /// Parse `pc=NNNNNN ac=NNNNNN io=NNNNNN ov=N pf=NN cycles=N`, checking the exact form.
    pub fn parse(line: &str) -> Registers {
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts.len(), 6, "registers line has 6 fields: {line:?}");
        let field = |i: usize, name: &str, digits: Option<usize>| -> &str {
            let v = parts[i]
                .strip_prefix(name)
                .and_then(|r| r.strip_prefix('='))
                .unwrap_or_else(|| panic!("field {i} is not {name}=: {line:?}"));
            if let Some(n) = digits {
                assert_eq!(v.len(), n, "{name} has {n} digits: {line:?}");
                assert!(
                    v.bytes().all(|b| (b'0'..=b'7').contains(&b)),
                    "{name} is octal: {line:?}"
                );
            }
            v
        };
        let oct = |s: &str| u32::from_str_radix(s, 8).unwrap();
        Registers {
            line: line.to_owned(),
            pc: oct(field(0, "pc", Some(6))),
            ac: oct(field(1, "ac", Some(6))),
            io: oct(field(2, "io", Some(6))),
            ov: oct(field(3, "ov", Some(1))),
            pf: oct(field(4, "pf", Some(2))),
            cycles: field(5, "cycles", None).parse().expect("cycles is decimal"),
        }
    }
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pdp1")
}

/// Run `pdp1 args…` with stdin empty (so keys never come from the test's terminal).
pub fn pdp1(args: &[&str]) -> Run {
    pdp1_in(args, None)
}

pub fn pdp1_in(args: &[&str], dir: Option<&Path>) -> Run {
    let mut cmd = Command::new(bin());
    cmd.args(args).stdin(Stdio::null());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out: Output = cmd.output().expect("run pdp1");
    let run = Run {
        status: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    run.assert_no_panic();
    run
}

fn punch_word(out: &mut Vec<u8>, w: u32) {
    for shift in [12, 6, 0] {
        out.push(0o200 | ((w >> shift) & 0o77) as u8);
    }
}

/// A RIM tape: leader, `dio A` + word for each (A, word), `jmp start`, trailer.
pub fn rim(words: &[(u32, u32)], start: u32) -> Vec<u8> {
    let mut t = vec![0u8; 20];
    for &(a, w) in words {
        punch_word(&mut t, 0o320000 | a);
        punch_word(&mut t, w);
    }
    punch_word(&mut t, 0o600000 | start);
    t.extend([0u8; 20]);
    t
}

/// Write a RIM tape into `dir` and return its path as a string.
pub fn tape(dir: &Path, name: &str, words: &[(u32, u32)], start: u32) -> String {
    let p = dir.join(name);
    std::fs::write(&p, rim(words, start)).unwrap();
    p.to_string_lossy().into_owned()
}

/// The historic tapes (`../shared/tapes/` beside the checkout), or `None` with a note that the
/// test did not run.
pub fn shared_tape(name: &str) -> Option<String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/tapes")
        .join(name);
    if p.exists() {
        Some(p.to_string_lossy().into_owned())
    } else {
        not_run(&format!(
            "{} is missing (the shared tapes folder is absent)",
            p.display()
        ));
        None
    }
}

/// A `--screenshot` PNG, pixels as 0xRRGGBB, row by row.
pub struct Picture {
    pub w: usize,
    pub h: usize,
    pub px: Vec<u32>,
}

impl Picture {
    pub fn load(path: &Path) -> Picture {
        let dec = png::Decoder::new(std::fs::File::open(path).expect("screenshot written"));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let px = buf[..info.buffer_size()]
            .chunks(3)
            .map(|c| (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32)
            .collect();
        Picture {
            w: info.width as usize,
            h: info.height as usize,
            px,
        }
    }

    pub fn at(&self, x: usize, y: usize) -> u32 {
        self.px[y * self.w + x]
    }

    /// The character in the 8×8 text cell whose top left is (x, y), the pixels for which `ink`
    /// is true matched against the window's font (font8x8, scale 1): ' ' for a cell without
    /// ink, '?' for ink that is no glyph (an overstrike, say).
    pub fn glyph_at(&self, x: usize, y: usize, ink: impl Fn(u32) -> bool) -> char {
        let mut g = [0u8; 8];
        for (row, bits) in g.iter_mut().enumerate() {
            for col in 0..8 {
                if ink(self.at(x + col, y + row)) {
                    *bits |= 1 << col;
                }
            }
        }
        if g == [0; 8] {
            return ' ';
        }
        (0x21u8..0x7f)
            .find(|&c| font8x8::legacy::BASIC_LEGACY[c as usize] == g)
            .map_or('?', char::from)
    }
}

// Instruction words used by the hand-made programs (PDP-1 Handbook opcodes, octal).
pub const HLT: u32 = 0o760400;
pub const LAT: u32 = 0o762200;
pub fn law(n: u32) -> u32 {
    0o700000 | n
}
pub fn lac(a: u32) -> u32 {
    0o200000 | a
}
pub fn lio(a: u32) -> u32 {
    0o220000 | a
}
pub fn dac(a: u32) -> u32 {
    0o240000 | a
}
pub fn add(a: u32) -> u32 {
    0o400000 | a
}
pub fn idx(a: u32) -> u32 {
    0o440000 | a
}
pub fn jmp(a: u32) -> u32 {
    0o600000 | a
}

/// True if `tool` is on the PATH (the window tests need `xvfb-run` and `xdotool`).
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The one `not_run` of the workspace and its scratch folders (crates/test-support).
#[allow(unused_imports)] // not every test binary uses both
pub use test_support::{not_run, scratch};
