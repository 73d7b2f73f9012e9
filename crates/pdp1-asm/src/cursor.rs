//! A position in one source line. Columns are 1-based character positions (a tab counts as one),
//! so diagnostics point at the character an editor shows in the same column for tab-free text.

use std::rc::Rc;

/// One line of source with its 1-based line number in the file.
#[derive(Clone, Debug)]
pub struct Line {
    pub no: usize,
    pub text: Rc<Vec<char>>,
}

impl Line {
    pub fn new(no: usize, text: &str) -> Line {
        let text = text.strip_suffix('\r').unwrap_or(text);
        Line {
            no,
            text: Rc::new(text.chars().collect()),
        }
    }
}

/// Characters allowed in a symbol: letters and digits, plus the overbar marks (`\`, `~`, `‾`,
/// SIMH's and our ASCII stand-ins for FIO-DEC's overbar) that flag a variable.
pub fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || is_overbar(c)
}

pub fn is_overbar(c: char) -> bool {
    matches!(c, '\\' | '~' | '‾')
}

/// Spaces inside a word (form feeds count as spaces); tabs end words and are not blanks.
pub fn is_blank(c: char) -> bool {
    c == ' ' || c == '\u{c}'
}

#[derive(Clone)]
pub struct Cursor {
    pub line: Line,
    pub pos: usize,
}

impl Cursor {
    pub fn new(line: Line, pos: usize) -> Cursor {
        Cursor { line, pos }
    }

    pub fn peek(&self) -> Option<char> {
        self.line.text.get(self.pos).copied()
    }

    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    /// 1-based column of the current position.
    pub fn col(&self) -> usize {
        self.pos + 1
    }

    /// Skip spaces; returns how many were skipped.
    pub fn skip_blanks(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(is_blank) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// The run of symbol characters at the cursor (possibly empty), without moving.
    pub fn token_end(&self) -> usize {
        let mut end = self.pos;
        while self.line.text.get(end).copied().is_some_and(is_symbol_char) {
            end += 1;
        }
        end
    }

    pub fn slice(&self, from: usize, to: usize) -> String {
        self.line.text[from..to].iter().collect()
    }

    /// At the end of a word: end of line, a tab, or a comment.
    pub fn at_word_end(&self) -> bool {
        matches!(self.peek(), None | Some('\t') | Some('/'))
    }

    pub fn skip_to_end(&mut self) {
        self.pos = self.line.text.len();
    }
}
