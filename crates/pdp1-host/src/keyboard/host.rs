//! Host keyboard → typewriter keys.
//!
//! The host gives characters (so the host's own keyboard layout decides what "(" is); each is
//! looked up in FIO-DEC ([`pdp1_core::fiodec::from_char`]). FIO-DEC has one case state shared by
//! keyboard and printer ([pdp1-hardware §5.1]); when a character needs the other case we strike
//! the case-shift key first (074 upper, 072 lower) exactly as the real keyboard sends it, and the
//! character itself once the program has taken the shift code.
//!
//! Keys the operator types while the program has not yet taken the previous one are struck at
//! once and overrun the one-character buffer as on the real machine ([`Machine::strike_key`]
//! returns false and we count it). Only the character that follows an automatic case shift
//! waits — until the program took the shift code, or at most [`HOLD_NS`] of emulated time, about
//! as long as a typist's finger needs from the shift key to the character — so it also prints
//! (locally, as every key does) when the program is not reading the keyboard at all.

use super::{Key, Typist};
use pdp1_core::{fiodec, Machine};

/// What the keyboard needs from the machine (a trait so the logic is testable on its own).
pub trait KeyTarget {
    fn key_pending(&self) -> bool;
    fn strike_key(&mut self, code: u8) -> bool;
}

impl KeyTarget for Machine {
    fn key_pending(&self) -> bool {
        Machine::key_pending(self)
    }
    fn strike_key(&mut self, code: u8) -> bool {
        Machine::strike_key(self, code)
    }
}

/// Longest wait of a held key for the program to take the previous one (emulated ns).
pub const HOLD_NS: u64 = 100_000_000;

/// Longest queue of held keys (a paste, or a slow host frame gathering many keys). Beyond it
/// further keys are dropped and counted as overruns: striking them at once would change their
/// order on the paper.
const MAX_WAITING: usize = 256;

/// The person policy of the [`Typist`].
impl Typist {
    #[cfg(test)]
    /// The FIO-DEC codes one host character produces, given the current case.
    pub fn codes_for(&self, c: char) -> Option<Vec<u8>> {
        let key = super::key_for(c)?;
        let mut probe = Typist {
            upper: self.upper,
            ..Typist::default()
        };
        Some(probe.shift_for(key).into_iter().chain([key.code]).collect())
    }

    /// The operator typed `c` on the host keyboard at emulated time `now_ns`.
    pub fn type_char(&mut self, c: char, now_ns: u64, m: &mut impl KeyTarget) {
        match fiodec::from_char(c) {
            Some((code, upper)) => self.type_key_now(Key { code, upper }, now_ns, m),
            None => self.unmapped += 1,
        }
    }

    /// A person strikes `key`: at once (after its case shift, if the typewriter is in the
    /// other case: the key then waits for [`Typist::pump`]), or behind keys already held.
    pub fn type_key_now(&mut self, key: Key, now_ns: u64, m: &mut impl KeyTarget) {
        // A person at the keyboard sees its shift lever: a case not known yet is lower (the
        // lever at rest), never a shift struck just in case.
        self.upper.get_or_insert(false);
        if !self.held.is_empty() {
            if self.held.len() < MAX_WAITING {
                self.held.push_back(key);
            } else {
                self.overruns += 1;
            }
            return;
        }
        match self.shift_for(key) {
            Some(shift) => {
                self.strike(shift, now_ns, m);
                self.held.push_back(key);
            }
            None => self.strike(key.code, now_ns, m),
        }
    }

    fn strike(&mut self, code: u8, now_ns: u64, m: &mut impl KeyTarget) {
        self.last_strike_ns = Some(now_ns);
        if !m.strike_key(code) {
            self.overruns += 1;
        }
    }

    /// Call often (between run chunks and frames): strikes the next held key (or its case
    /// shift) once the program has taken the previous one, or [`HOLD_NS`] after the previous
    /// strike.
    pub fn pump(&mut self, now_ns: u64, m: &mut impl KeyTarget) {
        let Some(&key) = self.held.front() else {
            return;
        };
        let last = self.last_strike_ns.unwrap_or(0);
        if !m.key_pending() || now_ns >= last.saturating_add(HOLD_NS) {
            match self.shift_for(key) {
                Some(shift) => self.strike(shift, now_ns, m),
                None => {
                    self.held.pop_front();
                    self.strike(key.code, now_ns, m);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-character buffer like the typewriter's.
    #[derive(Default)]
    struct Buffer {
        pending: Option<u8>,
        struck: Vec<u8>,
    }
    impl KeyTarget for Buffer {
        fn key_pending(&self) -> bool {
            self.pending.is_some()
        }
        fn strike_key(&mut self, code: u8) -> bool {
            self.struck.push(code);
            self.pending.replace(code).is_none()
        }
    }
    impl Buffer {
        fn take(&mut self) -> Option<u8> {
            self.pending.take()
        }
    }

    #[test]
    fn upper_case_letter_sends_the_shift_code_first_then_waits() {
        let mut k = Typist::new(Vec::new(), true);
        let mut b = Buffer::default();
        k.type_char('K', 1_000_000, &mut b);
        assert_eq!(b.struck, vec![0o74]); // upper case shift struck, K held
        k.pump(5_000_000, &mut b);
        assert_eq!(
            b.struck,
            vec![0o74],
            "K waits until the program takes the shift"
        );
        assert_eq!(b.take(), Some(0o74));
        k.pump(6_000_000, &mut b);
        assert_eq!(b.take(), Some(0o42)); // K = UC 042
                                          // Next lower-case letter shifts back down.
        k.type_char('a', 8_000_000, &mut b);
        assert_eq!(b.take(), Some(0o72));
        k.pump(9_000_000, &mut b);
        assert_eq!(b.take(), Some(0o61));
        assert_eq!(k.overruns, 0);
    }

    #[test]
    fn host_punctuation_maps_to_fiodec_and_case() {
        let k = Typist::new(Vec::new(), true);
        assert_eq!(k.codes_for('('), Some(vec![0o57])); // LC 057
        assert_eq!(k.codes_for('+'), Some(vec![0o74, 0o54])); // UC 054
        assert_eq!(k.codes_for('\r'), Some(vec![0o77]));
        assert_eq!(k.codes_for('\u{8}'), Some(vec![0o75]));
        assert_eq!(k.codes_for('\t'), Some(vec![0o36]));
        assert_eq!(k.codes_for(' '), Some(vec![0o00]));
        assert_eq!(k.codes_for(';'), None, "FIO-DEC has no semicolon");
    }

    #[test]
    fn typing_faster_than_the_program_reads_overruns_the_buffer() {
        let mut k = Typist::new(Vec::new(), true);
        let mut b = Buffer::default();
        k.type_char('1', 3_000_000, &mut b);
        k.type_char('2', 4_000_000, &mut b);
        assert_eq!(k.overruns, 1);
        assert_eq!(b.take(), Some(0o02), "the new code replaces the old one");
    }

    #[test]
    fn a_program_that_does_not_read_still_gets_every_key_struck() {
        // The real keys print locally whether or not the program reads them.
        let mut k = Typist::new(Vec::new(), true);
        let mut b = Buffer::default();
        for (i, c) in "Ab".chars().enumerate() {
            k.type_char(c, i as u64 * 1_000_000, &mut b);
        }
        for t in 1..=5 {
            k.pump(t * HOLD_NS, &mut b);
        }
        assert_eq!(b.struck, vec![0o74, 0o61, 0o72, 0o62]);
        assert_eq!(k.overruns, 3);
    }

    #[test]
    fn many_keys_in_one_frame_keep_their_order() {
        let mut k = Typist::new(Vec::new(), true);
        let mut b = Buffer::default();
        for c in "Kalah 42\r(x+y)".chars() {
            k.type_char(c, 0, &mut b);
        }
        for t in 1..40 {
            k.pump(t * HOLD_NS, &mut b);
        }
        let text: String = b
            .struck
            .iter()
            .scan(false, |up, &c| {
                *up = match c {
                    0o74 => true,
                    0o72 => false,
                    _ => *up,
                };
                Some(fiodec::to_char(c, *up).or((c == 0o77).then_some('\n')))
            })
            .flatten()
            .collect();
        assert_eq!(text, "Kalah 42\n(x+y)");
    }

    #[test]
    fn printer_case_is_shared() {
        let mut k = Typist::new(Vec::new(), true);
        k.upper = Some(true); // the program printed in upper case
        assert_eq!(k.codes_for('a'), Some(vec![0o72, 0o61]));
        assert_eq!(k.codes_for('A'), Some(vec![0o61]));
    }

    /// A person's key with the case not known (a restored state) is struck in lower case
    /// without a shift, as the window's keyboard always did; a patient key would get its shift.
    #[test]
    fn a_persons_key_in_an_unknown_case_is_lower_case() {
        let mut k = Typist::default();
        let mut b = Buffer::default();
        k.type_char('a', 0, &mut b);
        assert_eq!(b.struck, vec![0o61]);
    }
}
