//! The console typewriter's keyboard, seen from a modern host: text (from `--type` or stdin) →
//! FIO-DEC key codes, including the case-shift keys the real keyboard sends, and a [`Typist`]
//! that strikes them one by one like a person would.
//!
//! The code table is the core's (`pdp1_core::fiodec`, pdp1-hardware.md §5.2). The ASCII
//! stand-ins for the characters ASCII lacks are SIMH's ([SIMH-doc] §4): `@`=·, `\`=‾,
//! `#`=⊃, `!`=∨, `&`=∧, `^`=↑, `` ` ``=→, `*`=×; the Unicode characters themselves work too.
//!
//! One module for every way keys reach the machine (issue 18): this file (text → keys, the
//! typist of `--type` and stdin) and [`host`] (its person policy: the window's keyboard,
//! characters the host gives, case shifts struck as the real keyboard does). Keys from
//! standard input are the `pdp1` binary's (`stdin.rs`).

pub mod host;

use crate::error::{bail, Result};
use pdp1_core::{Machine, TypeEvent};
use std::collections::VecDeque;

/// FIO-DEC control codes (pdp1-hardware.md §5.2), re-exported from the core.
pub mod code {
    pub use pdp1_core::fiodec::{LOWER_CASE, UPPER_CASE};
}

/// One key to strike: its FIO-DEC code and the case it must be typed in (`None`: either case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: u8,
    pub upper: Option<bool>,
}

/// The key for one character, or `None` if the typewriter has no such key.
pub fn key_for(c: char) -> Option<Key> {
    pdp1_core::fiodec::from_char(c).map(|(code, upper)| Key { code, upper })
}

/// Turn `--type` text into keys. Escapes: `\r` and `\n` carriage return, `\b` backspace, `\t`
/// tab, `\\` a backslash (the overline key). A real newline is a carriage return too, and a CR
/// directly followed by LF (either written out or as escapes) is one carriage return.
pub fn parse_typed(text: &str) -> Result<Vec<Key>> {
    let mut chars = Vec::new();
    let mut it = text.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            chars.push(c);
            continue;
        }
        match it.next() {
            Some('r') => chars.push('\r'),
            Some('n') => chars.push('\n'),
            Some('b') => chars.push('\u{8}'),
            Some('t') => chars.push('\t'),
            Some('\\') => chars.push('\\'),
            Some(o) => bail!("--type: unknown escape `\\{o}` (use \\r or \\n for carriage return, \\b backspace, \\t tab, \\\\ backslash)"),
            None => bail!("--type: the text ends with a lone `\\` (write `\\\\` for the backslash key)"),
        }
    }
    let mut keys = Vec::new();
    let mut prev_cr = false;
    for c in chars {
        if c == '\n' && prev_cr {
            prev_cr = false;
            continue;
        }
        prev_cr = c == '\r';
        match key_for(c) {
            Some(k) => keys.push(k),
            None => bail!(
                "--type: the PDP-1 typewriter has no key for {c:?} (see docs/headless.md for the key map)"
            ),
        }
    }
    Ok(keys)
}

/// Emulated time a person waits after a key before striking the next one (issue 2: "at least
/// 100 ms of emulated time").
pub const KEY_INTERVAL_NS: u64 = 100_000_000;

/// True when a key struck now would be taken by the program rather than land in the middle
/// of something else: the program is looking for one ([`Machine::key_wait_since`]: `szf 1`,
/// `cks` or `tyi` finding no key, the typewriter idle), or the sequence break is on and would
/// interrupt for the key (the one-channel system, or the Type 120's typewriter-in channel 7
/// enabled).
///
/// On the hardware a key is taken by exactly these means: the keyboard sets program flag 1
/// and the status bit and requests a break (pdp1-hardware.md §5), so a program sees a key
/// only by testing the flag or the status, reading the buffer, or on the break. A program
/// doing none of them — Kalah thinking silently for seconds — is not ready, however long it
/// has been quiet: a key struck then is typed on the paper in the middle of its answer and
/// taken as the next move before the program has asked for it (issue 15: `--tw 4 --type
/// '3 1 '` printed `3. 1⌫2,`).
pub fn ready_for_key(m: &Machine) -> bool {
    if m.key_wait_since().is_some() {
        return true;
    }
    let (on, _, _) = m.sequence_break();
    if !on {
        return false;
    }
    if m.config().sbs16 {
        let (enabled, _, _) = m.sequence_break_channels();
        enabled & (1 << TYPE_IN_CHANNEL) != 0
    } else {
        true
    }
}

/// The Type 120's channel for the typewriter keyboard (pdp1-core's channel assignment: reader
/// 1, punch 6, typewriter in 7, out 8).
const TYPE_IN_CHANNEL: u32 = 7;

/// The one typist at the console typewriter's keyboard (issue 25: one key queue, one case
/// tracker), with two policies for when a key is struck:
///
/// * **patient** ([`Typist::push`]: `--type`, a script's `type`, keys piped on stdin): one key
///   at a time, only when the program has taken the previous key, at least
///   [`KEY_INTERVAL_NS`] have passed since it was struck, and the program is ready for the
///   next one ([`ready_for_key`]);
/// * **person** ([`Typist::type_key_now`]: someone at the window's keyboard): struck at once,
///   overrunning the one-character buffer as on the real machine; only the key after an
///   automatic case shift waits (`host.rs`).
///
/// Case shifts are struck as keys of their own when the typewriter is in the wrong case, as
/// on the real keyboard: the tracker follows the typewriter's one case state (keyboard and
/// printer share it, pdp1-hardware.md §5.1). Patient keys wait while a person's keys are held.
///
/// Waiting for readiness matters: a program busy typing or starting up may clear the typewriter
/// flag and lose a key struck too early (DDT does both: its start-up and its answers clear
/// program flag 1).
#[derive(Debug, Default)]
pub struct Typist {
    /// Patient keys not yet struck.
    queue: VecDeque<Key>,
    /// A person's keys held back until the program took the previous code (`host.rs`).
    pub(crate) held: VecDeque<Key>,
    last_strike_ns: Option<u64>,
    /// The typewriter's case as last seen (`None` until known: then a shift is always sent).
    upper: Option<bool>,
    /// A person's keys that overran the buffer.
    pub overruns: u64,
    /// Characters typed at the window with no FIO-DEC code, ignored.
    pub unmapped: u64,
}

impl Typist {
    /// `case_known`: the typewriter is known to be in lower case (a machine just powered on:
    /// the shift rests released). Otherwise (a restored state) the first cased key is preceded
    /// by its shift key.
    pub fn new(keys: Vec<Key>, case_known: bool) -> Typist {
        Typist {
            queue: keys.into(),
            upper: case_known.then_some(false),
            ..Typist::default()
        }
    }

    /// Patient keys, struck when the program is ready for each.
    pub fn push(&mut self, keys: impl IntoIterator<Item = Key>) {
        self.queue.extend(keys);
    }

    /// Patient keys not yet struck.
    pub fn remaining(&self) -> usize {
        self.queue.len()
    }

    /// Follow the typewriter's case state as it prints (program output and local echo alike:
    /// the keyboard and the printer share one case shift) — unless a person's keys are held:
    /// their shifts were struck ahead of them and decide the case.
    pub fn observe(&mut self, events: &[TypeEvent]) {
        if !self.held.is_empty() {
            return;
        }
        if let Some(e) = events.last() {
            self.upper = Some(e.upper);
        }
    }

    /// The typewriter's case is not known any more (another machine state was restored): a
    /// person's held keys are dropped and the next cased key is preceded by its shift.
    pub fn forget_case(&mut self) {
        self.held.clear();
        self.upper = None;
    }

    /// Strike nothing before `ns` plus the key interval: used when the boot tape has just been
    /// read, so the program gets to start before the first key.
    pub fn hold_from(&mut self, ns: u64) {
        self.last_strike_ns = Some(self.last_strike_ns.map_or(ns, |t| t.max(ns)));
    }

    /// The case-shift code to strike before `key`, if the typewriter is in the other case
    /// (or its case is not known); the tracker then takes the new case.
    fn shift_for(&mut self, key: Key) -> Option<u8> {
        let u = key.upper?;
        if self.upper == Some(u) {
            return None;
        }
        self.upper = Some(u);
        Some(if u {
            code::UPPER_CASE
        } else {
            code::LOWER_CASE
        })
    }

    /// Strike the next patient key if it is due. Returns true if a key was struck.
    pub fn poll(&mut self, m: &mut Machine) -> bool {
        if !self.held.is_empty() {
            return false;
        }
        let Some(&key) = self.queue.front() else {
            return false;
        };
        let now = m.time_ns();
        if m.key_pending() {
            return false;
        }
        let last = self.last_strike_ns.unwrap_or(0);
        if self.last_strike_ns.is_some() && now < last.saturating_add(KEY_INTERVAL_NS) {
            return false;
        }
        if !ready_for_key(m) {
            return false;
        }
        let code = match self.shift_for(key) {
            Some(shift) => shift,
            None => {
                self.queue.pop_front();
                key.code
            }
        };
        m.strike_key(code);
        self.last_strike_ns = Some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_maps_to_handbook_codes() {
        assert_eq!(
            key_for('a'),
            Some(Key {
                code: 0o61,
                upper: Some(false)
            })
        );
        assert_eq!(
            key_for('A'),
            Some(Key {
                code: 0o61,
                upper: Some(true)
            })
        );
        assert_eq!(
            key_for('1'),
            Some(Key {
                code: 0o01,
                upper: Some(false)
            })
        );
        assert_eq!(
            key_for('0'),
            Some(Key {
                code: 0o20,
                upper: Some(false)
            })
        );
        assert_eq!(
            key_for('/'),
            Some(Key {
                code: 0o21,
                upper: Some(false)
            })
        );
        assert_eq!(
            key_for('?'),
            Some(Key {
                code: 0o21,
                upper: Some(true)
            })
        );
        assert_eq!(
            key_for('='),
            Some(Key {
                code: 0o33,
                upper: Some(true)
            })
        );
        assert_eq!(
            key_for('*'),
            Some(Key {
                code: 0o73,
                upper: Some(true)
            })
        );
        assert_eq!(
            key_for(' '),
            Some(Key {
                code: 0,
                upper: None
            })
        );
        assert_eq!(
            key_for('\n'),
            Some(Key {
                code: 0o77,
                upper: None
            })
        );
        assert_eq!(key_for(':'), None);
        assert_eq!(key_for('{'), None);
    }

    #[test]
    fn a_program_is_ready_for_a_key_when_it_looks_or_the_break_would_take_it() {
        use pdp1_core::{Limit, MachineConfig, Word};
        // 100: lac 200 / 101: jmp 100 — busy, never looking at the keyboard.
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        m.write(0o100, Word::new(0o200200)).unwrap();
        m.write(0o101, Word::new(0o600100)).unwrap();
        m.set_test_address(0o100);
        m.start(false);
        let run = |m: &mut Machine| {
            let until = m.time_ns() + 2_000_000_000;
            m.run_until(Limit {
                until_ns: Some(until),
                instructions: None,
            });
        };
        run(&mut m);
        assert!(!ready_for_key(&m), "two quiet seconds are not readiness");
        // The same loop with the sequence break on: a key would break into it.
        m.start(true);
        run(&mut m);
        assert!(ready_for_key(&m));
        // 100: szf i 1 / 101: jmp 100 — looking for a key.
        m.write(0o100, Word::new(0o650001)).unwrap();
        m.start(false);
        run(&mut m);
        assert!(ready_for_key(&m));
    }

    #[test]
    fn typed_escapes() {
        let k = parse_typed("1\\r2\\b\\t\\\\x\n").unwrap();
        let codes: Vec<u8> = k.iter().map(|k| k.code).collect();
        assert_eq!(codes, vec![0o01, 0o77, 0o02, 0o75, 0o36, 0o56, 0o27, 0o77]);
        assert_eq!(parse_typed("a\r\nb").unwrap().len(), 3);
        assert_eq!(parse_typed("a\\r\\nb").unwrap().len(), 3);
        assert!(parse_typed("a\\q").unwrap_err().to_string().contains("\\q"));
        assert!(parse_typed("a\\").is_err());
        assert!(parse_typed("a:b").unwrap_err().to_string().contains("':'"));
    }
}
