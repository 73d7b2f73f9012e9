//! Helpers shared by the classic-library tests (`library_*.rs`): find the historic tapes in
//! `../shared/tapes`, read them in, run the machine in slices of emulated time, type at the
//! console typewriter like a patient operator, and collect display frames.
#![allow(dead_code, unused_imports)]

pub use pdp1_core::{fiodec, DisplayPoint, Limit, Machine, MachineConfig, StopReason, Word};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Emulated nanoseconds per millisecond / second.
pub const MS: u64 = 1_000_000;
pub const SEC: u64 = 1_000_000_000;

/// `../shared/tapes` beside the project checkout (tapes README: tests read them from there).
pub fn tapes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/tapes")
}

/// The tape's frames, or `None` after saying clearly on stderr (and stdout, which `cargo test`
/// shows with `--nocapture`) that the calling test did not run.
pub fn tape(name: &str) -> Option<Vec<u8>> {
    let p = tapes_dir().join(name);
    match std::fs::read(&p) {
        Ok(t) => Some(t),
        Err(e) => {
            pdp1_tests::not_run(&format!("tape {} is not available ({e})", p.display()));
            None
        }
    }
}

/// A machine with `cfg`, `tape` mounted and READ IN pressed, run until the loaded program has
/// started (READ IN and the BLK loader over); it must within `max_ns` of emulated time. Panics if the read-in fails:
/// that is the behaviour under test.
pub fn read_in(cfg: MachineConfig, tape: Vec<u8>, max_ns: u64) -> Machine {
    let mut m = Machine::new(cfg).expect("machine config");
    m.mount_tape(tape);
    m.read_in();
    // BLK tapes: READ IN loads the MACRO binary loader at 7751-7775, which then reads the
    // checksummed blocks (pdp1-hardware.md §6.5) and jumps to the program: wait for that too.
    while m.reading_in() || (0o7751..=0o7777).contains(&m.pc()) {
        let r = m.run_until(Limit {
            until_ns: Some(m.time_ns() + 10 * MS),
            instructions: None,
        });
        assert!(
            matches!(r, StopReason::TimeLimit | StopReason::InstructionLimit),
            "read-in stopped: {r:?} at pc {:06o}",
            m.pc()
        );
        assert!(
            m.time_ns() < max_ns,
            "read-in did not finish in {max_ns} ns"
        );
    }
    m
}

/// Run for `ns` of emulated time; the machine must still be running at the end.
pub fn run_for(m: &mut Machine, ns: u64) {
    let r = m.run_until(Limit {
        until_ns: Some(m.time_ns() + ns),
        instructions: None,
    });
    assert_eq!(r, StopReason::TimeLimit, "stopped at pc {:06o}", m.pc());
}

/// The set of lit positions (x, y) among `points`.
pub fn point_set(points: &[DisplayPoint]) -> BTreeSet<(i16, i16)> {
    points.iter().map(|p| (p.x, p.y)).collect()
}

/// Printed text of typewriter events (FIO-DEC → Unicode, CR → newline, tab → tab); the case
/// shift and ribbon codes print nothing.
pub fn text_of(events: &[pdp1_core::TypeEvent]) -> String {
    let mut out = String::new();
    for e in events {
        match e.code {
            fiodec::CARRIAGE_RETURN => out.push('\n'),
            fiodec::TAB => out.push('\t'),
            fiodec::BACKSPACE => out.push('\u{8}'),
            c => out.extend(fiodec::to_char(c, e.upper)),
        }
    }
    out
}

/// A typist at the console: strikes each key of a script when the program waits for a key
/// (`Machine::key_wait_since`) and at least 100 ms after the previous key, shifting case as the
/// real keyboard needs (FIO-DEC upper/lower case keys).
#[derive(Default)]
pub struct Typist {
    pub upper: bool,
    last_key_ns: u64,
    /// Everything the typewriter printed so far (operator's keys and program output).
    pub paper: String,
    /// Halts met while typing (pc after the `hlt`), continued automatically.
    pub halts: Vec<u32>,
}

impl Typist {
    /// Type `keys` (`\n` or `\r` = carriage return, `\u{8}` = backspace), then keep running
    /// until the program has waited for a key for 200 ms (it has answered) or `max_ns` passed.
    /// Returns what was printed during this call.
    pub fn type_keys(&mut self, m: &mut Machine, keys: &str, max_ns: u64) -> String {
        let start = self.paper.len();
        let end = m.time_ns() + max_ns;
        let mut keys = keys.chars().peekable();
        while m.time_ns() < end {
            let r = m.run_until(Limit {
                until_ns: Some(m.time_ns() + 5 * MS),
                instructions: None,
            });
            self.paper.push_str(&text_of(&m.drain_typewriter()));
            match r {
                StopReason::TimeLimit => {}
                StopReason::Halted => {
                    self.halts.push(m.pc());
                    m.cont();
                    continue;
                }
                other => panic!(
                    "machine stopped: {other:?} pc {:06o}; paper so far:\n{}",
                    m.pc(),
                    self.paper
                ),
            }
            let Some(since) = m.key_wait_since() else {
                continue;
            };
            if m.time_ns() < self.last_key_ns + 100 * MS {
                continue;
            }
            let Some(&c) = keys.peek() else {
                if m.time_ns() >= since + 200 * MS {
                    break;
                }
                continue;
            };
            let code = match c {
                '\n' | '\r' => Some((fiodec::CARRIAGE_RETURN, None)),
                '\u{8}' => Some((fiodec::BACKSPACE, None)),
                '\t' => Some((fiodec::TAB, None)),
                c => fiodec::from_char(c),
            };
            let (code, case) = code.unwrap_or_else(|| panic!("{c:?} has no FIO-DEC key"));
            match case {
                Some(u) if u != self.upper => {
                    m.strike_key(if u {
                        fiodec::UPPER_CASE
                    } else {
                        fiodec::LOWER_CASE
                    });
                    self.upper = u;
                }
                _ => {
                    m.strike_key(code);
                    keys.next();
                }
            }
            self.last_key_ns = m.time_ns();
        }
        assert!(
            keys.peek().is_none(),
            "keys left untyped; paper:\n{}",
            self.paper
        );
        self.paper[start..].to_string()
    }
}
