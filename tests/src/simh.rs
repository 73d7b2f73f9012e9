//! Driving SIMH's PDP-1 simulator (Debian package `simh`, binary `pdp1`, V3.8-1)
//! non-interactively: a generated command file, then parsing what it prints.
//!
//! How SIMH 3.8 behaves here (learnt by experiment, [SIMH-run], and from `PDP1/pdp1_cpu.c`):
//! * `pdp1 FILE` runs the commands in FILE and then reads more from stdin; every script
//!   therefore ends with `quit`, and stdin is /dev/null.
//! * `d ADDR VALUE`, `d LO-HI VALUE` (fills a range), `d REG VALUE`; values are octal.
//! * `e REG,REG,…` prints `NAME:\tVALUE`; `e !=0 LO-HI` prints `ADDR:\tVALUE` only for the
//!   non-zero words (the search goes *before* the range).
//! * `s N` (STEP) runs N instructions: `sim_interval` is decremented once per *fetch*, so an
//!   `xct` and the instruction it executes count as one, and the step event is processed before
//!   the next fetch. A run that ends early prints its stop message instead of
//!   `Step expired, PC: …`: `HALT instruction`, `Undefined instruction` (opcode 00 always;
//!   05/06/17/36, undefined shift sub-codes and unknown IOT devices only with
//!   `d stop_inst 1`, otherwise they are no-ops), `Nested XCT's` (17th `xct` in a chain,
//!   XCT_MAX 16), `Nested indirect addresses` (IND_MAX 16 indirect words read), `Infinite I/O
//!   wait state`. The PC printed is the PC after the fetch (already incremented).
//! * `echo TEXT` prints TEXT, which the harness uses to cut the output into sections.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The section marker `echo` prints; it cannot be confused with SIMH's own output.
pub const MARK: &str = "### SECTION ";

/// A located SIMH PDP-1 binary.
#[derive(Clone, Debug)]
pub struct Simh {
    path: PathBuf,
}

impl Simh {
    /// Find SIMH's `pdp1`: `$SIMH_PDP1` if set, else `/usr/bin/pdp1`, `/usr/games/pdp1`, then the
    /// PATH. Each candidate must print SIMH's banner (our own emulator binary is also called
    /// `pdp1`, so the name alone proves nothing). `None` when it is not installed.
    pub fn find() -> Option<Simh> {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(p) = std::env::var_os("SIMH_PDP1") {
            candidates.push(PathBuf::from(p));
        }
        candidates.push(PathBuf::from("/usr/bin/pdp1"));
        candidates.push(PathBuf::from("/usr/games/pdp1"));
        if let Some(path) = std::env::var_os("PATH") {
            candidates.extend(std::env::split_paths(&path).map(|d| d.join("pdp1")));
        }
        candidates
            .into_iter()
            .find(|p| p.is_file() && is_simh(p))
            .map(|path| Simh { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Run `script` (a `quit` is appended) and return everything SIMH printed on stdout.
    pub fn run(&self, script: &str) -> std::io::Result<String> {
        // A folder of this run's own: the tests run SIMH from parallel threads.
        let dir = crate::scratch("simh");
        let file = dir.join("script.sim");
        std::fs::write(&file, format!("{script}\nquit\n"))?;
        let out = Command::new(&self.path)
            .arg(&file)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .output();
        if std::env::var_os("SIMH_KEEP_SCRIPTS").is_some() {
            eprintln!(
                "SIMH command file kept: {}",
                dir.keep().join("script.sim").display()
            );
        }
        let out = out?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

impl Simh {
    /// Run `script` with `keys` as the console keyboard (SIMH polls stdin for typed
    /// characters while the simulation runs; at EOF it simply sees no key). stdout is made
    /// unbuffered with coreutils' `stdbuf -o0` so that the typewriter output (written
    /// directly) and SIMH's own messages (stdio) come out in the order they happened.
    pub fn run_with_keys(&self, script: &str, keys: &[u8]) -> std::io::Result<String> {
        let dir = crate::scratch("simh-keys");
        let file = dir.join("script.sim");
        let input = dir.join("typed.keys");
        std::fs::write(&file, format!("{script}\nquit\n"))?;
        std::fs::write(&input, keys)?;
        let out = Command::new("stdbuf")
            .arg("-o0")
            .arg(&self.path)
            .arg(&file)
            .stdin(std::fs::File::open(&input)?)
            .stderr(Stdio::piped())
            .output();
        Ok(String::from_utf8_lossy(&out?.stdout).into_owned())
    }
}

fn is_simh(p: &Path) -> bool {
    // With no command file SIMH reads commands from stdin; give it just `quit`. (At EOF on
    // stdin SIMH 3.8 keeps prompting forever, so stdin must never be left empty.)
    let Ok(mut child) = Command::new(p)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"quit\n");
    }
    match child.wait_with_output() {
        Ok(out) => String::from_utf8_lossy(&out.stdout).contains("PDP-1 simulator V"),
        Err(_) => false,
    }
}

/// Print the standard "did not run" notice and return `None` when SIMH is missing.
pub fn require(test: &str) -> Option<Simh> {
    let s = Simh::find();
    if s.is_none() {
        crate::not_run(&format!(
            "{test}: SIMH's pdp1 (Debian package `simh`) is not installed; .ci/run installs it"
        ));
    }
    s
}

/// A command file being built.
#[derive(Clone, Debug, Default)]
pub struct Script {
    text: String,
}

impl Script {
    pub fn new() -> Script {
        Script::default()
    }
    pub fn cmd(&mut self, line: &str) -> &mut Self {
        self.text.push_str(line);
        self.text.push('\n');
        self
    }
    /// Start output section `n` (see [`sections`]).
    pub fn section(&mut self, n: usize) -> &mut Self {
        let _ = writeln!(self.text, "echo {MARK}{n}");
        self
    }
    pub fn deposit(&mut self, addr: u32, value: u32) -> &mut Self {
        let _ = writeln!(self.text, "d {addr:o} {value:o}");
        self
    }
    pub fn fill(&mut self, lo: u32, hi: u32, value: u32) -> &mut Self {
        let _ = writeln!(self.text, "d {lo:o}-{hi:o} {value:o}");
        self
    }
    pub fn set_reg(&mut self, name: &str, value: u32) -> &mut Self {
        let _ = writeln!(self.text, "d {name} {value:o}");
        self
    }
    pub fn step(&mut self, n: u64) -> &mut Self {
        let _ = writeln!(self.text, "s {n}");
        self
    }
    pub fn examine_regs(&mut self, names: &[&str]) -> &mut Self {
        let _ = writeln!(self.text, "e {}", names.join(","));
        self
    }
    /// Examine the non-zero words of `lo..=hi`.
    pub fn examine_nonzero(&mut self, lo: u32, hi: u32) -> &mut Self {
        let _ = writeln!(self.text, "e !=0 {lo:o}-{hi:o}");
        self
    }
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Cut SIMH's output into the sections started by [`Script::section`]: `(n, text)` pairs.
pub fn sections(out: &str) -> Vec<(usize, String)> {
    let mut v: Vec<(usize, String)> = Vec::new();
    for line in out.lines() {
        if let Some(rest) = line.trim_start_matches("sim> ").strip_prefix(MARK) {
            if let Ok(n) = rest.trim().parse() {
                v.push((n, String::new()));
                continue;
            }
        }
        if let Some((_, text)) = v.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    v
}

/// What one section printed: the stop message, registers and memory words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// e.g. `"Step expired"`, `"HALT instruction"`, with the PC SIMH printed.
    pub stop: Option<(String, u32)>,
    pub regs: BTreeMap<String, u32>,
    pub mem: BTreeMap<u32, u32>,
    /// Lines that were none of the above (SIMH errors, for diagnostics).
    pub other: Vec<String>,
}

/// Parse one section's text.
pub fn parse_report(text: &str) -> Report {
    let mut r = Report::default();
    for line in text.lines() {
        let line = line.trim_start_matches("sim> ").trim_end();
        if line.is_empty() {
            continue;
        }
        if let Some((msg, rest)) = line.split_once(", PC: ") {
            let pc = rest.split_whitespace().next().unwrap_or("");
            if let Ok(pc) = u32::from_str_radix(pc, 8) {
                r.stop = Some((msg.to_string(), pc));
                continue;
            }
        }
        if let Some((name, value)) = line.split_once(":\t") {
            if let Ok(v) = u32::from_str_radix(value.trim(), 8) {
                if let Ok(a) = u32::from_str_radix(name, 8) {
                    r.mem.insert(a, v);
                } else {
                    r.regs.insert(name.to_string(), v);
                }
                continue;
            }
        }
        r.other.push(line.to_string());
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_binary_printing_simhs_banner_counts_as_simh() {
        assert!(!is_simh(Path::new("/bin/cat")));
        assert!(!is_simh(Path::new("/nonexistent/pdp1")));
    }

    #[test]
    fn parses_sections_stops_registers_and_memory() {
        let out = "\nPDP-1 simulator V3.8-1\n### SECTION 0\n\nStep expired, PC: 000102 (SKP)\n\
                   AC:\t000246\nOV:\t0\n100:\t200200\n### SECTION 1\n\
                   HALT instruction, PC: 000321 (XCT 322)\nGoodbye\n";
        let s = sections(out);
        assert_eq!(s.len(), 2);
        let r0 = parse_report(&s[0].1);
        assert_eq!(r0.stop, Some(("Step expired".into(), 0o102)));
        assert_eq!(r0.regs["AC"], 0o246);
        assert_eq!(r0.regs["OV"], 0);
        assert_eq!(r0.mem[&0o100], 0o200200);
        let r1 = parse_report(&s[1].1);
        assert_eq!(r1.stop, Some(("HALT instruction".into(), 0o321)));
        assert_eq!(r1.other, vec!["Goodbye".to_string()]);
    }
}
