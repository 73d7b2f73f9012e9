//! The typewriter's paper: what the console typewriter ([pdp1-hardware §5]) has put on it.
//!
//! The machine reports each code with the case and ribbon colour in effect ([`TypeEvent`]); the
//! paper only has to move the carriage. Characters struck at the same place (after a backspace,
//! or the non-spacing · _ ‾ |) stay on the paper together and are drawn on top of each other, as
//! the Kalah program's "crossed out" illegal keys (key, backspace, x) look on a real typewriter.

use crate::typeout::{stroke, Stroke};
use pdp1_core::TypeEvent;

/// Columns between tab stops. The Soroban/IBM typewriter's stops were set by hand; every 8
/// columns is the common default (SIMH's console also expands to multiples of 8).
pub const TAB_STOP: usize = 8;
/// Lines kept for scrolling back.
pub const MAX_LINES: usize = 10_000;

/// One impression on the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strike {
    pub ch: char,
    pub red: bool,
}

/// Everything struck at one column of one line (empty = blank paper).
pub type Cell = Vec<Strike>;

#[derive(Debug, Default)]
pub struct Paper {
    lines: Vec<Vec<Cell>>,
    col: usize,
    /// Lines dropped off the top of the scrollback.
    dropped: usize,
}

impl Paper {
    pub fn new() -> Paper {
        Paper {
            lines: vec![Vec::new()],
            col: 0,
            dropped: 0,
        }
    }

    pub fn type_events(&mut self, events: &[TypeEvent]) {
        for e in events {
            self.type_code(e.code, e.upper, e.red);
        }
    }

    /// Put one code on the paper (its stroke: `typeout::stroke`, the reading stdout shares).
    pub fn type_code(&mut self, code: u8, upper: bool, red: bool) {
        match stroke(code, upper) {
            Stroke::Return => {
                self.lines.push(Vec::new());
                self.col = 0;
                if self.lines.len() > MAX_LINES {
                    self.lines.remove(0);
                    self.dropped += 1;
                }
            }
            Stroke::Backspace => self.col = self.col.saturating_sub(1),
            Stroke::Tab => self.col = (self.col / TAB_STOP + 1) * TAB_STOP,
            Stroke::Char(' ') => self.col += 1,
            Stroke::Char(ch) => {
                self.strike(ch, red);
                self.col += 1;
            }
            Stroke::Overstrike(ch) => self.strike(ch, red),
            Stroke::Nothing => {}
        }
    }

    fn strike(&mut self, ch: char, red: bool) {
        let line = self.lines.last_mut().expect("paper always has a line");
        if line.len() <= self.col {
            line.resize(self.col + 1, Vec::new());
        }
        line[self.col].push(Strike { ch, red });
    }

    pub fn lines(&self) -> &[Vec<Cell>] {
        &self.lines
    }

    /// Carriage position: (line index, column).
    pub fn carriage(&self) -> (usize, usize) {
        (self.lines.len() - 1, self.col)
    }

    #[cfg(test)]
    /// A line as plain text, the last strike of each cell (for tests and logs).
    pub fn line_text(&self, i: usize) -> String {
        self.lines[i]
            .iter()
            .map(|c| c.last().map(|s| s.ch).unwrap_or(' '))
            .collect::<String>()
            .trim_end()
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typeout::tests::ev;

    #[test]
    fn carriage_return_tab_and_case() {
        let mut p = Paper::new();
        // "Ab" CR "\t1" — codes from the §5.2 table: a=61, b=62, 1=01.
        p.type_events(&[
            ev(0o74, true, false),
            ev(0o61, true, false),
            ev(0o72, false, false),
            ev(0o62, false, false),
        ]);
        p.type_events(&[
            ev(0o77, false, false),
            ev(0o36, false, false),
            ev(0o01, false, false),
        ]);
        assert_eq!(p.line_text(0), "Ab");
        assert_eq!(p.line_text(1), "        1");
        assert_eq!(p.carriage(), (1, 9));
    }

    #[test]
    fn backspace_overstrikes_and_keeps_both_characters_and_colours() {
        let mut p = Paper::new();
        // Kalah crossing out an illegal key: "7" (operator, black), backspace, "x" in red.
        p.type_events(&[
            ev(0o07, false, false),
            ev(0o75, false, false),
            ev(0o35, false, true),
            ev(0o27, false, true),
        ]);
        let cell = &p.lines()[0][0];
        assert_eq!(
            cell,
            &vec![
                Strike {
                    ch: '7',
                    red: false
                },
                Strike { ch: 'x', red: true }
            ]
        );
        assert_eq!(p.carriage(), (0, 1));
    }

    #[test]
    fn backspace_stops_at_the_margin_and_non_spacing_characters_do_not_move() {
        let mut p = Paper::new();
        p.type_events(&[
            ev(0o75, false, false),
            ev(0o75, false, false),
            ev(0o40, true, false),
            ev(0o61, false, false),
        ]);
        // Underline (UC 040) then 'a' on the same cell.
        assert_eq!(
            p.lines()[0][0].iter().map(|s| s.ch).collect::<String>(),
            "_a"
        );
        assert_eq!(p.carriage(), (0, 1));
    }

    #[test]
    fn scrollback_is_bounded() {
        let mut p = Paper::new();
        for _ in 0..MAX_LINES + 5 {
            p.type_code(0o61, false, false);
            p.type_code(0o77, false, false);
        }
        assert_eq!(p.lines().len(), MAX_LINES);
    }
}
