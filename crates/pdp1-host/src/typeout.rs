//! The typewriter's paper as terminal text: FIO-DEC events → Unicode.
//!
//! * Printing codes → their Unicode character in the current case (pdp1-hardware.md §5.2).
//! * Carriage return (077, which also feeds the line [§5.2 "CR+LF"]) → `\n`; tab (036) → `\t`.
//! * Backspace (075) → ASCII BS (0x08). A terminal moves the cursor one column left, so the
//!   next character is printed over the previous one (the paper would show both: an overstrike).
//!   `col -b` or `less` render such text sensibly.
//! * Case shifts (072/074) print nothing; they change the case of later characters.
//! * Red ribbon (035): when stdout is a terminal, characters typed in red are wrapped in the ANSI
//!   "red foreground" escape (`ESC[31m` … `ESC[39m`); into a file or pipe no escapes are written.
//! * Unassigned codes print nothing.

use pdp1_core::fiodec;
use pdp1_core::TypeEvent;

/// What one typewriter code does to the paper — the one reading both papers use: the sheet in
/// the window and in `--screenshot` (`draw::paper`) and the text on stdout (below).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// Carriage return, which also feeds a line [§5.2 "CR+LF"].
    Return,
    Tab,
    Backspace,
    /// A character that moves the carriage one column (space included).
    Char(char),
    /// A character that prints without moving the carriage (§5.2 "(ns)": · _ ‾ |).
    Overstrike(char),
    /// Case shifts, ribbon colour, stop codes and unassigned codes print nothing (their
    /// effect is in the event's case and colour).
    Nothing,
}

/// The stroke of `code` typed in `upper` case.
pub fn stroke(code: u8, upper: bool) -> Stroke {
    match code & 0o77 {
        fiodec::CARRIAGE_RETURN => Stroke::Return,
        fiodec::TAB => Stroke::Tab,
        fiodec::BACKSPACE => Stroke::Backspace,
        c => match fiodec::to_char(c, upper) {
            Some(ch) if matches!(c, 0o40 | 0o56) => Stroke::Overstrike(ch),
            Some(ch) => Stroke::Char(ch),
            None => Stroke::Nothing,
        },
    }
}

/// Converts typewriter events to text, remembering the colour in use.
#[derive(Debug)]
pub struct Paper {
    colour: bool,
    red_now: bool,
}

impl Paper {
    /// `colour`: write ANSI colour escapes for the red ribbon (stdout is a terminal).
    pub fn new(colour: bool) -> Paper {
        Paper {
            colour,
            red_now: false,
        }
    }

    /// Append the text for `events` to `out`.
    pub fn render(&mut self, events: &[TypeEvent], out: &mut String) {
        for e in events {
            let ch = match stroke(e.code, e.upper) {
                Stroke::Return => '\n',
                Stroke::Tab => '\t',
                Stroke::Backspace => '\u{8}',
                // A terminal moves on after any character; the paper does not for (ns).
                Stroke::Char(c) | Stroke::Overstrike(c) => c,
                Stroke::Nothing => continue,
            };
            if self.colour && e.red != self.red_now && !ch.is_whitespace() {
                out.push_str(if e.red { "\x1b[31m" } else { "\x1b[39m" });
                self.red_now = e.red;
            }
            out.push(ch);
        }
    }

    /// Text that restores the terminal's colour at the end of the run.
    pub fn finish(&mut self, out: &mut String) {
        if self.red_now {
            out.push_str("\x1b[39m");
            self.red_now = false;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A typed (not local) event, for the paper's tests here and in `draw/paper.rs`.
    pub(crate) fn ev(code: u8, upper: bool, red: bool) -> TypeEvent {
        TypeEvent {
            code,
            upper,
            red,
            local: false,
            time_ns: 0,
        }
    }

    #[test]
    fn renders_cases_controls_and_red() {
        let events = [
            ev(0o61, false, false),
            ev(0o74, true, false),
            ev(0o61, true, false),
            ev(0o04, true, false),
            ev(0o77, true, false),
            ev(0o35, true, true),
            ev(0o62, true, true),
            ev(0o75, true, true),
            ev(0o36, true, true),
        ];
        let mut plain = String::new();
        Paper::new(false).render(&events, &mut plain);
        assert_eq!(plain, "aA⊃\nB\u{8}\t");
        let mut tty = String::new();
        let mut p = Paper::new(true);
        p.render(&events, &mut tty);
        p.finish(&mut tty);
        assert_eq!(tty, "aA⊃\n\x1b[31mB\u{8}\t\x1b[39m");
    }
}
