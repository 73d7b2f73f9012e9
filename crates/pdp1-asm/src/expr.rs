//! Expressions, evaluated strictly left to right as in DEC's MACRO (no precedence):
//! `+` and space add, `-` subtracts, `!` is inclusive or, `&` is and, `*` or `×` multiplies.
//! Addition is one's complement with end-around carry and, as in the historic MACRO, no −0
//! cleanup (`1-1` is 777777); unary minus complements.
//!
//! Syllables: octal (or `decimal`) numbers, symbols, `.` (the current location), literals
//! `(expr)` (the closing parenthesis may be left off at the end of a word), `[expr]` grouping,
//! `char lx` / `char mx` / `char rx` and `flexo abc`.

use crate::assembler::{Pass, Pseudo, Reported};
use crate::cursor::{is_blank, is_overbar, is_symbol_char, Cursor};
use pdp1_core::{fiodec, Word};

/// One's-complement sum with end-around carry and no −0 cleanup: the historic MACRO assembles
/// `1-1` as 777777 (tests/historic_macro.rs), unlike the machine's `add` instruction.
fn add(a: u32, b: u32) -> u32 {
    let s = a + b;
    if s > 0o777_777 {
        (s + 1) & 0o777_777
    } else {
        s
    }
}

fn starts_syllable(c: char) -> bool {
    is_symbol_char(c) || matches!(c, '.' | '(' | '[')
}

impl Pass<'_> {
    /// An expression, up to (not including) the first character that cannot continue it.
    pub(crate) fn expr(&mut self, cur: &mut Cursor) -> Result<u32, Reported> {
        let mut acc = self.unary(cur)?;
        loop {
            let save = cur.pos;
            let spaced = cur.skip_blanks() > 0;
            let op = match cur.peek() {
                Some(c @ ('+' | '-' | '!' | '&' | '*' | '×')) => {
                    if matches!(c, '!' | '&' | '*' | '×') {
                        let (line, col) = (cur.line.no, cur.col());
                        self.dec_note(line, col, format!("DEC MACRO has no `{c}` operator (it ignores case shifts and reads a digit); use + and -"));
                    }
                    cur.bump();
                    cur.skip_blanks();
                    c
                }
                Some(c) if spaced && starts_syllable(c) => ' ',
                _ => {
                    cur.pos = save;
                    return Ok(acc);
                }
            };
            let op_col = cur.col();
            let v = self.unary(cur)?;
            acc = match op {
                '+' | ' ' => add(acc, v),
                '-' => add(acc, v ^ 0o777_777),
                '!' => acc | v,
                '&' => acc & v,
                _ => {
                    let p = i64::from(Word::new(acc).to_i32()) * i64::from(Word::new(v).to_i32());
                    if p.abs() > 0o377_777 {
                        return Err(self.err_at(
                            cur,
                            op_col,
                            "value out of range: product does not fit in 17 bits and sign",
                        ));
                    }
                    Word::from_i32(p as i32).bits()
                }
            };
        }
    }

    /// An expression inside `( )` or `[ ]`, with a limit on nesting so that no input can
    /// exhaust the stack.
    fn nested_expr(&mut self, cur: &mut Cursor, col: usize) -> Result<u32, Reported> {
        if self.nesting >= crate::assembler::MAX_NESTING {
            return Err(self.err_at(cur, col, "expression nested too deeply"));
        }
        self.nesting += 1;
        let r = self.expr(cur);
        self.nesting -= 1;
        r
    }

    fn unary(&mut self, cur: &mut Cursor) -> Result<u32, Reported> {
        match cur.peek() {
            Some('-') => {
                cur.bump();
                cur.skip_blanks();
                Ok(self.syllable(cur)? ^ 0o777_777)
            }
            Some('+') => {
                cur.bump();
                cur.skip_blanks();
                self.syllable(cur)
            }
            _ => self.syllable(cur),
        }
    }

    fn syllable(&mut self, cur: &mut Cursor) -> Result<u32, Reported> {
        let col = cur.col();
        match cur.peek() {
            None | Some('\t') => {
                Err(self.err_at(cur, col, "bad expression: a value is missing here"))
            }
            Some('.') => {
                cur.bump();
                Ok(self.clc & 0o777_777)
            }
            Some('(') => {
                cur.bump();
                cur.skip_blanks();
                let v = self.nested_expr(cur, col)?;
                cur.skip_blanks();
                match cur.peek() {
                    Some(')') => {
                        cur.bump();
                    }
                    None | Some('\t') | Some('/') => {} // MACRO lets a literal run to the end of the word
                    Some(c) => {
                        return Err(self.err_at(
                            cur,
                            cur.col(),
                            format!("bad expression: unexpected `{c}` in literal"),
                        ))
                    }
                }
                Ok(self.literal(cur, col, v))
            }
            Some('[') => {
                self.dec_note(cur.line.no, col, "DEC MACRO has no `[ ]` grouping");
                cur.bump();
                cur.skip_blanks();
                let v = self.nested_expr(cur, col)?;
                cur.skip_blanks();
                if cur.peek() != Some(']') {
                    return Err(self.err_at(cur, cur.col(), "bad expression: missing `]`"));
                }
                cur.bump();
                Ok(v)
            }
            Some(c) if is_symbol_char(c) => {
                let end = cur.token_end();
                let raw = cur.slice(cur.pos, end);
                cur.pos = end;
                if raw.chars().all(|c| c.is_ascii_digit()) {
                    return self.number(cur, col, &raw);
                }
                let overbar = raw.chars().any(is_overbar);
                let name: String = raw
                    .chars()
                    .filter(|&c| !is_overbar(c))
                    .collect::<String>()
                    .to_ascii_lowercase();
                if name.is_empty() || !name.chars().any(|c| c.is_ascii_alphabetic()) {
                    return Err(self.err_at(cur, col, format!("bad symbol `{raw}`")));
                }
                if !overbar {
                    match self.pseudo(&name) {
                        Some(Pseudo::Char) => return self.char_syllable(cur, col),
                        Some(Pseudo::Flexo) => return self.flexo(cur, col),
                        // As in MACRO, the radix switches may sit inside an expression, where
                        // they count as 0: `(decimal 100 octal)`.
                        Some(Pseudo::Decimal) => {
                            self.radix = 10;
                            return Ok(0);
                        }
                        Some(Pseudo::Octal) => {
                            self.radix = 8;
                            return Ok(0);
                        }
                        _ => {}
                    }
                } else {
                    self.note_variable(&name, cur.line.no, col);
                }
                match self.lookup(&name) {
                    Some(v) => Ok(v),
                    None if overbar => Ok(0), // placed by `variables` in the next pass
                    None => {
                        if self.pseudo(&name).is_some() {
                            return Err(self.err_at(
                                cur,
                                col,
                                format!("pseudo-instruction `{name}` cannot be used as a value"),
                            ));
                        }
                        Err(self.err_at(cur, col, format!("undefined symbol `{name}`")))
                    }
                }
            }
            Some(c) => Err(self.err_at(cur, col, format!("bad expression: unexpected `{c}`"))),
        }
    }

    fn number(&mut self, cur: &Cursor, col: usize, digits: &str) -> Result<u32, Reported> {
        let mut v: u64 = 0;
        for (i, ch) in digits.chars().enumerate() {
            let d = u64::from(ch.to_digit(10).unwrap_or(0));
            if d >= u64::from(self.radix) {
                return Err(self.err_at(
                    cur,
                    col + i,
                    format!(
                        "digit {ch} in an octal number (write `decimal` first for decimal numbers)"
                    ),
                ));
            }
            v = v * u64::from(self.radix) + d;
            if v > 0o777_777 {
                return Err(self.err_at(
                    cur,
                    col,
                    format!("value out of range: {digits} does not fit in 18 bits"),
                ));
            }
        }
        Ok(v as u32)
    }

    /// `char lx`, `char mx`, `char rx`: the FIO-DEC code of x in the left, middle or right
    /// six bits. Case is ignored: the code is the same in both cases.
    fn char_syllable(&mut self, cur: &mut Cursor, col: usize) -> Result<u32, Reported> {
        if cur.peek().is_some_and(is_blank) {
            cur.bump();
        }
        let shift = match cur.bump() {
            Some('l') | Some('L') => 12,
            Some('m') | Some('M') => 6,
            Some('r') | Some('R') => 0,
            _ => {
                return Err(self.err_at(
                    cur,
                    col,
                    "`char` expects l, m or r and a character, e.g. char rA",
                ))
            }
        };
        let Some(c) = cur.bump() else {
            return Err(self.err_at(cur, col, "`char` is missing its character"));
        };
        match fiodec::from_char(c) {
            Some((code, _)) => Ok(u32::from(code) << shift),
            None => Err(self.err_at(
                cur,
                cur.col() - 1,
                format!("character `{c}` has no FIO-DEC code"),
            )),
        }
    }

    /// `flexo abc`: the next three characters' FIO-DEC codes in one word, first in bits 0–5 (a
    /// tab is a character here, and the end of the line is a carriage return, 77, after which
    /// the low bits stay zero). Case is ignored.
    fn flexo(&mut self, cur: &mut Cursor, col: usize) -> Result<u32, Reported> {
        if cur.peek().is_some_and(is_blank) {
            cur.bump();
        }
        let mut w = 0;
        for shift in [12, 6, 0] {
            match cur.peek() {
                // DEC's MACRO takes the next three characters whatever they are, a tab too
                // (tests/oracle/numbers_text.mac), and the end of the line is the carriage
                // return the source tape has there (the historic MACRO gives `flexo ab` at the
                // end of a line as 616277; MAINDEC 4's `lac (flex ac`). Nothing is read
                // from the next line: what is left of the word is zero.
                None => {
                    w |= u32::from(fiodec::CARRIAGE_RETURN) << shift;
                    break;
                }
                Some(c) => {
                    cur.bump();
                    match fiodec::from_char(c) {
                        Some((code, _)) => w |= u32::from(code) << shift,
                        None => {
                            return Err(self.err_at(
                                cur,
                                cur.col() - 1,
                                format!("character `{c}` has no FIO-DEC code"),
                            ))
                        }
                    }
                }
            }
        }
        let _ = col;
        Ok(w)
    }
}
