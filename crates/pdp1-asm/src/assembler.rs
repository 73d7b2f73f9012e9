//! The MACRO-1 assembler: repeated passes over the source until every symbol, literal block and
//! variable has the same value as in the pass before (DEC's MACRO made two passes; more passes
//! give the same words and let literal pools and variables be sized exactly), then the last pass
//! provides the words, listing and diagnostics.
//!
//! The language is described in docs/assembler.md. Statements ("words" in DEC's manual) are
//! separated by tabs and ends of lines; `/` at the start of a word begins a comment.

use crate::cursor::{is_blank, Cursor, Line};
use crate::symbols::{SymbolKind, SymbolTable};
use crate::{permanent, Assembly, Diagnostic, Diagnostics};
use pdp1_core::fiodec;
use pdp1_core::Word;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Most passes before giving up on values that keep changing.
const MAX_PASSES: usize = 8;
/// Statements one pass may execute (repeats and macro expansions included) before it stops:
/// guards against runaway `repeat` nesting and recursive macros.
const MAX_STATEMENTS: usize = 1_000_000;
/// Deepest macro call nesting.
const MAX_DEPTH: usize = 64;
/// Deepest nesting of literals, brackets and `repeat`s within one line.
pub const MAX_NESTING: usize = 32;
/// Highest address in the 4K memory a program can be loaded into from tape.
pub const MAX_ADDR: u32 = 0o7777;

/// Pseudo-instructions, recognised by their full name or any prefix of at least four letters
/// (`term`, `cons`, `vari` …), unless the program defines a symbol of that spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pseudo {
    Constants,
    Variables,
    Define,
    Terminate,
    Repeat,
    Start,
    Text,
    Dimension,
    Decimal,
    Octal,
    Char,
    Flexo,
    Field,
}

const PSEUDOS: &[(&str, Pseudo)] = &[
    ("constants", Pseudo::Constants),
    ("variables", Pseudo::Variables),
    ("define", Pseudo::Define),
    ("terminate", Pseudo::Terminate),
    ("repeat", Pseudo::Repeat),
    ("start", Pseudo::Start),
    ("text", Pseudo::Text),
    ("dimension", Pseudo::Dimension),
    ("decimal", Pseudo::Decimal),
    ("octal", Pseudo::Octal),
    ("character", Pseudo::Char),
    ("flexo", Pseudo::Flexo),
    ("field", Pseudo::Field),
];

fn pseudo_named(name: &str) -> Option<Pseudo> {
    if name.len() < 4 {
        return None;
    }
    PSEUDOS
        .iter()
        .find(|(full, _)| full.starts_with(name))
        .map(|&(_, p)| p)
}

/// A macro: dummy names and body lines.
#[derive(Clone, Debug)]
struct Macro {
    dummies: Vec<String>,
    body: Vec<Line>,
}

/// What a pass found that the next pass needs (and that must not change for the result to be final).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    syms: BTreeMap<String, (u32, SymbolKind)>,
    block_bases: Vec<u32>,
    var_names: Vec<String>,
    /// `dimension` arrays (name, size) in order of appearance.
    dims: Vec<(String, u32)>,
}

/// Lines being read: the file, or a macro body.
struct Stream {
    lines: Vec<Line>,
    next: usize,
}

impl Stream {
    fn next_line(&mut self) -> Option<Line> {
        let l = self.lines.get(self.next).cloned();
        if l.is_some() {
            self.next += 1;
        }
        l
    }
}

/// Marker: the statement had an error that has been reported; skip to the end of the word.
pub(crate) struct Reported;

pub(crate) struct Pass<'a> {
    parts: &'a [Part<'a>],
    prev: Option<&'a Outcome>,
    pub(crate) out: Outcome,
    syms_line: HashMap<String, usize>,
    macros: HashMap<String, Macro>,
    /// Dummy-symbol bindings of the macro calls being expanded, innermost last.
    pub(crate) scopes: Vec<HashMap<String, u32>>,
    /// For each expansion in `scopes`, the dummies whose argument was written as a bare symbol,
    /// and that symbol: a dummy used as a tag in the body defines it (MAINDEC 1 part 15's
    /// `ckm,` in `define jdmac ckm,…`).
    tag_args: Vec<HashMap<String, String>>,
    /// (macro name, line of the call) for each expansion in progress, for diagnostics.
    /// (macro name, line of the call, location where the expansion began) for each expansion
    /// in progress.
    calls: Vec<(String, usize, u32)>,
    pub(crate) clc: u32,
    /// The memory field (Type 15, 0–17) the words go to: `field n` (an extension). Locations
    /// and labels stay 12-bit, as the addresses of a field's own instructions are.
    field: u32,
    pub(crate) radix: u32,
    pub(crate) words: BTreeMap<u32, Word>,
    /// (listing line, location, word) in the order emitted.
    emitted: Vec<(usize, u32, Word)>,
    /// Tags outside macro expansions by their full address, the field included
    /// ([`Assembly::labels`]).
    labels: BTreeMap<u32, String>,
    /// Listing line → value of a parameter assignment on it.
    assigned: HashMap<usize, u32>,
    pub(crate) diags: Vec<Diagnostic>,
    /// Literals of the current `constants` block, pooled by value.
    pub(crate) literals: Vec<u32>,
    /// Literals written in the current block, equal values counted each time.
    literal_uses: usize,
    first_literal: Option<(usize, usize)>,
    /// Names written with an overbar, in order of first use.
    var_seen: HashSet<String>,
    first_var: Option<(usize, usize)>,
    variables_placed: bool,
    start: Option<u32>,
    ended: bool,
    top_line: usize,
    title_seen: bool,
    statements: usize,
    out_of_memory_reported: bool,
    /// Current nesting of literals, brackets and repeats (bounded by [`MAX_NESTING`]).
    pub(crate) nesting: usize,
    /// Constructs the historic DEC MACRO does not accept (docs/assembler.md), as warnings.
    notes: Vec<Diagnostic>,
    noted: HashSet<(usize, usize)>,
    long_names_noted: HashSet<String>,
}

impl<'a> Pass<'a> {
    fn new(parts: &'a [Part<'a>], prev: Option<&'a Outcome>) -> Pass<'a> {
        Pass {
            parts,
            prev,
            out: Outcome::default(),
            syms_line: HashMap::new(),
            macros: HashMap::new(),
            scopes: Vec::new(),
            tag_args: Vec::new(),
            calls: Vec::new(),
            clc: 4, // MACRO's default origin ([macro1] onePass: "Default location is 4")
            field: 0,
            radix: 8,
            words: BTreeMap::new(),
            emitted: Vec::new(),
            labels: BTreeMap::new(),
            assigned: HashMap::new(),
            diags: Vec::new(),
            literals: Vec::new(),
            literal_uses: 0,
            first_literal: None,
            var_seen: HashSet::new(),
            first_var: None,
            variables_placed: false,
            start: None,
            ended: false,
            top_line: 0,
            title_seen: false,
            statements: 0,
            out_of_memory_reported: false,
            nesting: 0,
            notes: Vec::new(),
            noted: HashSet::new(),
            long_names_noted: HashSet::new(),
        }
    }

    /// Report an error at `col` of `line`.
    pub(crate) fn error(&mut self, line: usize, col: usize, message: impl Into<String>) {
        let mut message = message.into();
        if let Some((name, call_line, _)) = self.calls.last() {
            let (file, l) = locate(self.parts, *call_line);
            let at = if self.parts.len() > 1 {
                format!("{file}:{l}")
            } else {
                format!("line {l}")
            };
            message.push_str(&format!(" (in macro `{name}` called at {at})"));
        }
        let (file, line) = locate(self.parts, line);
        self.diags.push(Diagnostic {
            file: file.to_string(),
            line,
            column: col,
            message,
        });
    }

    /// Note a construct the historic DEC MACRO would not accept (not an error here).
    pub(crate) fn dec_note(&mut self, line: usize, col: usize, message: impl Into<String>) {
        if self.noted.insert((line, col)) {
            let (file, line) = locate(self.parts, line);
            self.notes.push(Diagnostic {
                file: file.to_string(),
                line,
                column: col,
                message: message.into(),
            });
        }
    }

    /// Note a user symbol longer than the historic MACRO's three characters (once per name).
    pub(crate) fn note_long_name(&mut self, name: &str, line: usize, col: usize) {
        if name.chars().count() > 3 && self.long_names_noted.insert(name.to_string()) {
            self.dec_note(
                line,
                col,
                format!("DEC MACRO: symbol `{name}` is longer than three characters (it would be taken for a pseudo-instruction)"),
            );
        }
    }

    pub(crate) fn err_at(
        &mut self,
        cur: &Cursor,
        col: usize,
        message: impl Into<String>,
    ) -> Reported {
        self.error(cur.line.no, col, message);
        Reported
    }

    // ---------------------------------------------------------------- symbols

    /// Value of a symbol for an expression: macro dummies, then this pass's definitions, then the
    /// permanent table, then the previous pass (forward references), then a variable written with
    /// an overbar. `None` if undefined.
    pub(crate) fn lookup(&mut self, name: &str) -> Option<u32> {
        for scope in self.scopes.iter().rev() {
            if let Some(&v) = scope.get(name) {
                return Some(v);
            }
        }
        if let Some(&(v, _)) = self.out.syms.get(name) {
            return Some(v);
        }
        if let Some(v) = permanent::lookup(name) {
            return Some(v);
        }
        self.prev.and_then(|p| p.syms.get(name)).map(|&(v, _)| v)
    }

    /// Note a use of `name` written with an overbar (a variable).
    pub(crate) fn note_variable(&mut self, name: &str, line: usize, col: usize) {
        self.note_long_name(name, line, col);
        if self.var_seen.insert(name.to_string()) {
            self.out.var_names.push(name.to_string());
            if self.first_var.is_none() {
                self.first_var = Some((line, col));
            }
        }
    }

    pub(crate) fn is_user_symbol(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains_key(name))
            || self.out.syms.contains_key(name)
            || self.macros.contains_key(name)
            || self.prev.is_some_and(|p| p.syms.contains_key(name))
    }

    /// Pseudo-instruction spelled `name`, unless the program uses that name as a symbol.
    pub(crate) fn pseudo(&self, name: &str) -> Option<Pseudo> {
        if self.is_user_symbol(name) {
            return None;
        }
        pseudo_named(name)
    }

    fn define(&mut self, cur: &Cursor, col: usize, name: &str, value: u32, kind: SymbolKind) {
        let value = value & 0o777_777;
        // Inside a macro, assigning to a dummy symbol changes the dummy (Spacewar!'s
        // `define senseswitch A` / `repeat 3, A=A+A`).
        if kind == SymbolKind::Param {
            if let Some(scope) = self.scopes.last_mut() {
                if let Some(v) = scope.get_mut(name) {
                    *v = value;
                    return;
                }
            }
        }
        self.note_long_name(name, cur.line.no, col);
        if let Some(&(old, old_kind)) = self.out.syms.get(name) {
            let both_params = old_kind == SymbolKind::Param && kind == SymbolKind::Param;
            if old != value && !both_params {
                let first = self.syms_line.get(name).copied().unwrap_or(0);
                self.error(
                    cur.line.no,
                    col,
                    format!("redefinition of `{name}`: {value:o} here, {old:o} at line {first}"),
                );
                return;
            }
            if old_kind != SymbolKind::Param && kind == SymbolKind::Param {
                return;
            }
        } else {
            self.syms_line.insert(name.to_string(), cur.line.no);
        }
        self.out.syms.insert(name.to_string(), (value, kind));
    }

    // ---------------------------------------------------------------- output

    fn count_statement(&mut self, cur: &Cursor) -> Result<(), Reported> {
        self.statements += 1;
        if self.statements > MAX_STATEMENTS {
            self.err_at(cur, cur.col(), "assembly too long: more than a million statements (runaway repeat or recursive macro?)");
            self.ended = true;
            return Err(Reported);
        }
        Ok(())
    }

    pub(crate) fn emit(&mut self, cur: &Cursor, col: usize, value: u32) {
        if self.clc > MAX_ADDR {
            if !self.out_of_memory_reported {
                self.out_of_memory_reported = true;
                let clc = self.clc;
                self.error(
                    cur.line.no,
                    col,
                    format!("value out of range: location {clc:o} is beyond 7777"),
                );
            }
        } else {
            let w = Word::new(value);
            let at = self.field << 12 | self.clc;
            self.words.insert(at, w);
            self.emitted.push((self.top_line, at, w));
        }
        self.clc += 1;
    }

    /// Address of literal `value` in the current constants block.
    pub(crate) fn literal(&mut self, cur: &Cursor, col: usize, value: u32) -> u32 {
        if self.first_literal.is_none() {
            self.first_literal = Some((cur.line.no, col));
        }
        self.literal_uses += 1;
        let index = match self.literals.iter().position(|&v| v == value) {
            Some(i) => i,
            None => {
                self.literals.push(value);
                self.literals.len() - 1
            }
        };
        let block = self.out.block_bases.len();
        let base = self
            .prev
            .and_then(|p| p.block_bases.get(block).copied())
            .unwrap_or(0);
        (base + index as u32) & 0o777_777
    }

    // ---------------------------------------------------------------- lines and words

    fn run(&mut self, stream: &mut Stream) {
        while !self.ended {
            let Some(line) = stream.next_line() else {
                break;
            };
            if self.scopes.is_empty() {
                self.top_line = line.no;
                // DEC's MACRO takes the first line that is not blank as the program's title
                // and does not assemble it ([macro1] processLine `list_title`).
                if !self.title_seen {
                    if line.text.iter().any(|c| !c.is_whitespace()) {
                        self.title_seen = true;
                    }
                    continue;
                }
            }
            let mut cur = Cursor::new(line, 0);
            self.words_of_line(&mut cur, stream, false);
        }
    }

    /// Process the words of one line from the cursor on.
    fn words_of_line(&mut self, cur: &mut Cursor, stream: &mut Stream, in_repeat: bool) {
        loop {
            if self.ended {
                return;
            }
            cur.skip_blanks();
            match cur.peek() {
                None => return,
                Some('\t') => {
                    cur.bump();
                    continue;
                }
                Some('/') => return,
                _ => {}
            }
            if self.count_statement(cur).is_err() {
                return;
            }
            if self.statement(cur, stream, in_repeat).is_err() {
                // Skip the rest of the word after an error.
                while !matches!(cur.peek(), None | Some('\t')) {
                    cur.bump();
                }
            }
        }
    }

    /// After a statement: only blanks, then a tab, the end or a comment may follow.
    fn end_of_word(&mut self, cur: &mut Cursor) -> Result<(), Reported> {
        if cur.skip_blanks() > 0 && cur.peek() == Some('/') {
            let (line, col) = (cur.line.no, cur.col());
            self.dec_note(line, col, "DEC MACRO: `/` after an expression sets the location even after blanks; put a tab before a comment");
        }
        match cur.peek() {
            None | Some('\t') | Some('/') => Ok(()),
            Some(c) => {
                let col = cur.col();
                Err(self.err_at(cur, col, format!("bad expression: unexpected `{c}`")))
            }
        }
    }

    fn statement(
        &mut self,
        cur: &mut Cursor,
        stream: &mut Stream,
        in_repeat: bool,
    ) -> Result<(), Reported> {
        let start = cur.pos;
        let col = cur.col();
        let end = cur.token_end();
        if end > start {
            let raw = cur.slice(start, end);
            let name = raw.to_ascii_lowercase();
            let is_symbol = name.chars().any(|c| c.is_ascii_alphabetic());
            let mut after = Cursor::new(cur.line.clone(), end);
            // `tag,` — a label.
            if after.peek() == Some(',') {
                if !is_symbol || raw.chars().any(crate::cursor::is_overbar) {
                    return Err(self.err_at(cur, col, format!("bad label `{raw}`: a label is a symbol (letters and digits, at least one letter)")));
                }
                // A dummy symbol as a tag defines the symbol its call gave, at this location.
                if let Some(i) = self.scopes.iter().rposition(|s| s.contains_key(&name)) {
                    let Some(arg) = self.tag_args[i].get(&name).cloned() else {
                        return Err(self.err_at(cur, col, format!("bad label: the dummy `{name}` is a tag, so its argument must be a symbol")));
                    };
                    self.dec_note(cur.line.no, col, format!("DEC MACRO: the 1963 MACRO tape does not put the argument in place of the dummy tag `{name},`"));
                    let clc = self.clc;
                    self.scopes[i].insert(name, clc);
                    self.define(cur, col, &arg, clc, SymbolKind::Label);
                    cur.pos = end + 1;
                    return Ok(());
                }
                // Inside a macro expansion a label gets its location relative to the start of
                // the expansion, as in DEC's MACRO (tests/oracle/macro_labels.mac), so a macro
                // with a label can be called more than once.
                let value = match self.calls.last() {
                    Some(&(_, _, start)) => self.clc.wrapping_sub(start) & 0o777_777,
                    None => {
                        self.labels
                            .insert(self.field << 12 | self.clc, name.clone());
                        self.clc
                    }
                };
                self.define(cur, col, &name, value, SymbolKind::Label);
                cur.pos = end + 1;
                return Ok(());
            }
            // `name=expression` — a parameter assignment.
            after.skip_blanks();
            if after.peek() == Some('=') {
                if !is_symbol || raw.chars().any(crate::cursor::is_overbar) {
                    return Err(self.err_at(
                        cur,
                        col,
                        format!("bad assignment: `{raw}` is not a symbol"),
                    ));
                }
                after.bump();
                after.skip_blanks();
                *cur = after;
                let v = self.expr(cur)?;
                self.end_of_word(cur)?;
                self.define(cur, col, &name, v, SymbolKind::Param);
                self.assigned.insert(self.top_line, v & 0o777_777);
                return Ok(());
            }
            if is_symbol {
                if let Some(p) = self.pseudo(&name) {
                    if !matches!(p, Pseudo::Char | Pseudo::Flexo) {
                        cur.pos = end;
                        return self.pseudo_op(p, cur, col, stream, in_repeat);
                    }
                }
                if let Some(m) = self.macros.get(&name).cloned() {
                    cur.pos = end;
                    return self.call_macro(&name, m, cur, col);
                }
            }
        }
        // An expression: a storage word, or a location assignment when `/` follows at once.
        let v = self.expr(cur)?;
        if cur.peek() == Some('/') {
            cur.bump();
            if v > MAX_ADDR {
                return Err(self.err_at(
                    cur,
                    col,
                    format!("value out of range: location {v:o} is beyond 7777"),
                ));
            }
            self.clc = v;
            self.out_of_memory_reported = false;
            return Ok(());
        }
        self.end_of_word(cur)?;
        self.emit(cur, col, v);
        Ok(())
    }

    fn call_macro(
        &mut self,
        name: &str,
        m: Macro,
        cur: &mut Cursor,
        col: usize,
    ) -> Result<(), Reported> {
        if self.scopes.len() >= MAX_DEPTH {
            return Err(self.err_at(
                cur,
                col,
                format!(
                    "macro calls nested more than {MAX_DEPTH} deep (recursive macro `{name}`?)"
                ),
            ));
        }
        let mut args = Vec::new();
        let mut names = Vec::new();
        // Bare symbols not defined yet: the expansion may define them with a dummy tag, and
        // they are undefined only if it does not.
        let mut pending = Vec::new();
        cur.skip_blanks();
        if !cur.at_word_end() {
            loop {
                cur.skip_blanks();
                let (from, arg_col, end) = (cur.pos, cur.col(), cur.token_end());
                let mut after = Cursor::new(cur.line.clone(), end);
                after.skip_blanks();
                let name = self.symbol_argument(&cur.slice(from, end));
                let bare = after.peek() == Some(',') || after.at_word_end();
                match name {
                    Some(n) if bare && self.lookup(&n).is_none() && self.pseudo(&n).is_none() => {
                        args.push(0);
                        pending.push((n.clone(), arg_col));
                        names.push(Some(n));
                        *cur = after;
                    }
                    _ => {
                        args.push(self.expr(cur)?);
                        names.push(self.symbol_argument(cur.slice(from, cur.pos).trim()));
                    }
                }
                cur.skip_blanks();
                if cur.peek() == Some(',') {
                    cur.bump();
                    continue;
                }
                break;
            }
            self.end_of_word(cur)?;
        }
        if args.len() > m.dummies.len() {
            return Err(self.err_at(
                cur,
                col,
                format!(
                    "macro `{name}` takes {} argument(s), {} given",
                    m.dummies.len(),
                    args.len()
                ),
            ));
        }
        let mut scope = HashMap::new();
        let mut tags = HashMap::new();
        for (i, d) in m.dummies.iter().enumerate() {
            scope.insert(d.clone(), args.get(i).copied().unwrap_or(0));
            if let Some(Some(n)) = names.get(i) {
                tags.insert(d.clone(), n.clone());
            }
        }
        self.scopes.push(scope);
        self.tag_args.push(tags);
        self.calls.push((name.to_string(), cur.line.no, self.clc));
        let mut body = Stream {
            lines: m.body,
            next: 0,
        };
        self.run(&mut body);
        self.calls.pop();
        self.scopes.pop();
        self.tag_args.pop();
        for (n, c) in pending {
            if self.lookup(&n).is_none() {
                self.error(cur.line.no, c, format!("undefined symbol `{n}`"));
            }
        }
        Ok(())
    }

    /// The symbol a macro argument names, if it is written as one bare symbol: itself, or, for
    /// a dummy of an enclosing call, the symbol that call gave.
    fn symbol_argument(&self, text: &str) -> Option<String> {
        let name = text.to_ascii_lowercase();
        let symbol = name.chars().any(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric());
        if !symbol {
            return None;
        }
        match self.scopes.iter().rposition(|s| s.contains_key(&name)) {
            Some(i) => self.tag_args[i].get(&name).cloned(),
            None => Some(name),
        }
    }

    fn pseudo_op(
        &mut self,
        p: Pseudo,
        cur: &mut Cursor,
        col: usize,
        stream: &mut Stream,
        in_repeat: bool,
    ) -> Result<(), Reported> {
        match p {
            Pseudo::Decimal => {
                self.radix = 10;
                self.end_of_word(cur)
            }
            Pseudo::Octal => {
                self.radix = 8;
                self.end_of_word(cur)
            }
            Pseudo::Constants => {
                self.end_of_word(cur)?;
                let base = self.clc;
                self.out.block_bases.push(base);
                for v in std::mem::take(&mut self.literals) {
                    self.emit(cur, col, v);
                }
                // DEC's MACRO sizes the block by counting every literal in pass 1 and pools equal
                // values in pass 2, so the block keeps one word per literal written and the pooled
                // words leave unpunched room at its end (the historic MACRO run in
                // tests/historic_macro.rs places the following `variables` after that room).
                self.clc = base + std::mem::take(&mut self.literal_uses) as u32;
                self.first_literal = None;
                Ok(())
            }
            Pseudo::Variables => {
                self.end_of_word(cur)?;
                self.variables(cur, col);
                Ok(())
            }
            Pseudo::Field => {
                self.dec_note(
                    cur.line.no,
                    col,
                    "DEC MACRO: `field` (words for a Type 15 field) is an extension",
                );
                cur.skip_blanks();
                let v = self.expr(cur)?;
                self.end_of_word(cur)?;
                if v > 0o17 {
                    return Err(self.err_at(
                        cur,
                        col,
                        format!("value out of range: field {v:o} is beyond 17"),
                    ));
                }
                self.field = v;
                Ok(())
            }
            Pseudo::Dimension => self.dimension(cur),
            Pseudo::Start => {
                cur.skip_blanks();
                // `start` ends its expression at a tab or the end of the line like any word, so
                // `start<TAB>0` (MAINDEC 4) and a bare `start` have an empty address, which DEC's
                // MACRO takes as 0: the historic MACRO punches `jmp 0` for `start<TAB>go`
                // (docs/assembler.md, "start"); what follows is not assembled.
                if cur.at_word_end() {
                    self.start = Some(0);
                } else {
                    let v = self.expr(cur)?;
                    self.end_of_word(cur)?;
                    if v > MAX_ADDR {
                        return Err(self.err_at(
                            cur,
                            col,
                            format!("value out of range: start address {v:o} is beyond 7777"),
                        ));
                    }
                    self.start = Some(v);
                }
                if !self.scopes.is_empty() || in_repeat {
                    return Err(self.err_at(cur, col, "`start` inside a macro or repeat"));
                }
                self.ended = true;
                Ok(())
            }
            Pseudo::Terminate => Err(self.err_at(cur, col, "`terminate` without a `define`")),
            Pseudo::Repeat => self.repeat(cur, col, stream),
            Pseudo::Define => self.define_macro(cur, col, stream, in_repeat),
            Pseudo::Text => self.text(cur, col, stream, in_repeat),
            Pseudo::Char | Pseudo::Flexo => unreachable!("handled as expressions"),
        }
    }

    /// `variables`: storage for every `dimension` array and then every symbol written with an
    /// overbar, each in order of first appearance, starting here. MACRO does not punch these.
    fn variables(&mut self, cur: &Cursor, col: usize) {
        if self.variables_placed {
            self.error(
                cur.line.no,
                col,
                "second `variables`: all variables are placed by the first",
            );
            return;
        }
        self.variables_placed = true;
        // The complete lists come from the previous pass; in the first pass, what was seen so far.
        let (names, dims) = match self.prev {
            Some(p) => (p.var_names.clone(), p.dims.clone()),
            None => (self.out.var_names.clone(), self.out.dims.clone()),
        };
        // Arrays first, then the overbar variables: the historic MACRO run in
        // tests/historic_macro.rs puts a `dimension` array before the variables.
        for (name, size) in dims {
            let clc = self.clc;
            self.define(cur, col, &name, clc, SymbolKind::Variable);
            self.clc += size;
        }
        for name in names {
            let defined_otherwise = self
                .prev
                .and_then(|p| p.syms.get(&name))
                .is_some_and(|&(_, k)| k != SymbolKind::Variable)
                || self
                    .out
                    .syms
                    .get(&name)
                    .is_some_and(|&(_, k)| k != SymbolKind::Variable);
            if !defined_otherwise {
                let clc = self.clc;
                self.define(cur, col, &name, clc, SymbolKind::Variable);
                self.clc += 1;
            }
        }
        if self.clc > MAX_ADDR + 1 {
            let clc = self.clc;
            self.error(
                cur.line.no,
                col,
                format!("value out of range: variables end at {clc:o}, beyond 7777"),
            );
        }
    }

    /// `dimension a(n), b(m)`: arrays of n and m words, placed by `variables`.
    fn dimension(&mut self, cur: &mut Cursor) -> Result<(), Reported> {
        loop {
            cur.skip_blanks();
            let col = cur.col();
            let end = cur.token_end();
            let name = cur.slice(cur.pos, end).to_ascii_lowercase();
            if name.is_empty()
                || !name.chars().any(|c| c.is_ascii_alphabetic())
                || name.chars().any(crate::cursor::is_overbar)
            {
                return Err(self.err_at(cur, col, "`dimension` expects name(size), …"));
            }
            cur.pos = end;
            cur.skip_blanks();
            if cur.peek() != Some('(') {
                return Err(self.err_at(
                    cur,
                    cur.col(),
                    format!("`dimension {name}` needs a size in parentheses"),
                ));
            }
            cur.bump();
            let size_col = cur.col();
            let size = self.expr(cur)?;
            cur.skip_blanks();
            if cur.peek() != Some(')') {
                return Err(self.err_at(cur, cur.col(), "missing `)` after the dimension size"));
            }
            cur.bump();
            if size == 0 || size > MAX_ADDR {
                return Err(self.err_at(
                    cur,
                    size_col,
                    format!("value out of range: dimension size {size:o}"),
                ));
            }

            if self.out.dims.iter().any(|(n, _)| *n == name) {
                return Err(self.err_at(
                    cur,
                    col,
                    format!("redefinition of `{name}` by a second `dimension`"),
                ));
            }
            if self.first_var.is_none() {
                self.first_var = Some((cur.line.no, col));
            }
            self.out.dims.push((name, size));
            cur.skip_blanks();
            if cur.peek() == Some(',') {
                cur.bump();
                continue;
            }
            return self.end_of_word(cur);
        }
    }

    /// `repeat n, words`: the rest of the line, n times.
    fn repeat(
        &mut self,
        cur: &mut Cursor,
        col: usize,
        stream: &mut Stream,
    ) -> Result<(), Reported> {
        cur.skip_blanks();
        let count = self.expr(cur)?;
        cur.skip_blanks();
        if cur.peek() != Some(',') {
            return Err(self.err_at(cur, cur.col(), "`repeat` needs a comma after the count"));
        }
        cur.bump();
        if count > MAX_ADDR + 1 {
            cur.skip_to_end();
            return Err(self.err_at(
                cur,
                col,
                format!("value out of range: repeat count {count:o} (at most 10000)"),
            ));
        }
        if self.nesting >= MAX_NESTING {
            cur.skip_to_end();
            return Err(self.err_at(cur, col, "repeats nested too deeply"));
        }
        let body = cur.pos;
        self.nesting += 1;
        for _ in 0..count {
            if self.ended {
                break;
            }
            let mut c = Cursor::new(cur.line.clone(), body);
            self.words_of_line(&mut c, stream, true);
        }
        self.nesting -= 1;
        cur.skip_to_end();
        Ok(())
    }

    /// `define name dummy, dummy …` then body lines up to `terminate`. The name and dummies may
    /// be on the line after `define`, as in DEC's manual.
    fn define_macro(
        &mut self,
        cur: &mut Cursor,
        col: usize,
        stream: &mut Stream,
        in_repeat: bool,
    ) -> Result<(), Reported> {
        if in_repeat {
            return Err(self.err_at(cur, col, "`define` inside a repeat"));
        }
        let def_line = cur.line.no;
        cur.skip_blanks();
        while cur.peek() == Some('\t') {
            cur.bump();
            cur.skip_blanks();
        }
        if cur.at_word_end() {
            match stream.next_line() {
                Some(l) => *cur = Cursor::new(l, 0),
                None => {
                    return Err(self.err_at(
                        cur,
                        col,
                        "unterminated macro: `define` at the end of the source",
                    ))
                }
            }
        }
        let mut names = Vec::new();
        loop {
            while cur
                .peek()
                .is_some_and(|c| is_blank(c) || c == '\t' || c == ',')
            {
                cur.bump();
            }
            if matches!(cur.peek(), None | Some('/')) {
                break;
            }
            let c0 = cur.col();
            let end = cur.token_end();
            let name = cur.slice(cur.pos, end).to_ascii_lowercase();
            if name.is_empty()
                || !name.chars().any(|c| c.is_ascii_alphabetic())
                || name.chars().any(crate::cursor::is_overbar)
            {
                let bad = cur.peek().unwrap_or(' ');
                self.skip_macro_body(stream);
                return Err(self.err_at(
                    cur,
                    c0,
                    format!("bad macro name or dummy symbol at `{bad}`"),
                ));
            }
            names.push(name);
            cur.pos = end;
        }
        if names.is_empty() {
            self.skip_macro_body(stream);
            return Err(self.err_at(cur, col, "`define` without a macro name"));
        }
        let mut body = Vec::new();
        loop {
            let Some(l) = stream.next_line() else {
                cur.skip_to_end();
                self.error(
                    def_line,
                    col,
                    format!(
                        "unterminated macro `{}`: no `terminate` before the end of the source",
                        names[0]
                    ),
                );
                self.ended = true;
                return Err(Reported);
            };
            if is_terminate(&l) {
                break;
            }
            body.push(l);
        }
        let name = names.remove(0);
        if name.chars().count() < 4 {
            self.dec_note(
                def_line,
                col,
                format!("DEC MACRO: macro name `{name}` needs at least four characters"),
            );
        }
        // A macro may shadow a permanent symbol or pseudo-instruction of the same spelling.
        self.macros.insert(
            name,
            Macro {
                dummies: names,
                body,
            },
        );
        cur.skip_to_end();
        Ok(())
    }

    fn skip_macro_body(&mut self, stream: &mut Stream) {
        while let Some(l) = stream.next_line() {
            if is_terminate(&l) {
                break;
            }
        }
    }

    /// `text /…/`: FIO-DEC characters packed three to a word, first character in bits 0–5; case
    /// shifts (074 upper, 072 lower) inserted as needed, starting in lower case and shifting back
    /// down before the end ([macro1] `text`/`nextfiodec`). A new line inside the text is a
    /// carriage return (077).
    fn text(
        &mut self,
        cur: &mut Cursor,
        col: usize,
        stream: &mut Stream,
        in_repeat: bool,
    ) -> Result<(), Reported> {
        cur.skip_blanks();
        let Some(delim) = cur.bump() else {
            return Err(self.err_at(cur, col, "`text` needs a delimiter, e.g. text /hello/"));
        };
        let start_line = cur.line.no;
        let mut codes: Vec<u8> = Vec::new();
        let mut upper = false;
        loop {
            let Some(c) = cur.bump() else {
                if in_repeat {
                    return Err(self.err_at(
                        cur,
                        col,
                        "unterminated text (a text inside repeat must end on its line)",
                    ));
                }
                match stream.next_line() {
                    Some(l) => {
                        *cur = Cursor::new(l, 0);
                        codes.push(fiodec::CARRIAGE_RETURN);
                        continue;
                    }
                    None => {
                        self.emit_text(cur, col, &codes);
                        self.error(
                            start_line,
                            col,
                            format!("unterminated text: no closing `{delim}`"),
                        );
                        return Err(Reported);
                    }
                }
            };
            if c == delim {
                break;
            }
            let Some((code, need)) = fiodec::from_char(c) else {
                // Report and go on, so that the closing delimiter is still found.
                let (line, c_col) = (cur.line.no, cur.col() - 1);
                self.error(line, c_col, format!("character `{c}` has no FIO-DEC code"));
                continue;
            };
            if let Some(u) = need {
                if u != upper {
                    codes.push(if u {
                        fiodec::UPPER_CASE
                    } else {
                        fiodec::LOWER_CASE
                    });
                    upper = u;
                }
            }
            codes.push(code);
        }
        if upper {
            codes.push(fiodec::LOWER_CASE);
        }
        self.emit_text(cur, col, &codes);
        self.end_of_word(cur)
    }

    fn emit_text(&mut self, cur: &Cursor, col: usize, codes: &[u8]) {
        for chunk in codes.chunks(3) {
            let mut w = 0u32;
            for (i, &c) in chunk.iter().enumerate() {
                w |= u32::from(c & 0o77) << (12 - 6 * i);
            }
            self.emit(cur, col, w);
        }
    }

    /// Checks at the end of a pass.
    fn finish(&mut self, last_line: usize) {
        if !self.literals.is_empty() {
            let (l, c) = self.first_literal.unwrap_or((last_line, 1));
            self.error(l, c, "literal with no `constants` after it to hold it");
        }
        let uses_vars = !self.out.dims.is_empty()
            || self.out.var_names.iter().any(|n| {
                self.out
                    .syms
                    .get(n)
                    .is_none_or(|&(_, k)| k == SymbolKind::Variable)
            });
        if uses_vars && !self.variables_placed {
            let (l, c) = self.first_var.unwrap_or((last_line, 1));
            self.error(l, c, "variables (overbar symbols or `dimension`) but no `variables` statement to place them");
        }
    }
}

fn is_terminate(l: &Line) -> bool {
    let mut c = Cursor::new(l.clone(), 0);
    while c.peek().is_some_and(|ch| is_blank(ch) || ch == '\t') {
        c.bump();
    }
    let end = c.token_end();
    let word = c.slice(c.pos, end).to_ascii_lowercase();
    word.len() >= 4 && "terminate".starts_with(&word)
}

/// Format the listing: line number, location, word, source text.
fn listing(lines: &[Line], pass: &Pass, parts: &[Part]) -> String {
    let mut by_line: BTreeMap<usize, Vec<(u32, Word)>> = BTreeMap::new();
    for &(l, a, w) in &pass.emitted {
        by_line.entry(l).or_default().push((a, w));
    }
    let mut s = String::new();
    for line in lines {
        // Several files: each begins with its name, and the numbers are the file's own lines.
        if parts.len() > 1 {
            if let Some(p) = parts.iter().find(|p| p.first == line.no) {
                s.push_str(&format!("      ---- {}\n", p.name));
            }
        }
        let text: String = line.text.iter().collect();
        let no = locate(parts, line.no).1;
        match by_line.get(&line.no) {
            Some(ws) => {
                for (i, (a, w)) in ws.iter().enumerate() {
                    if i == 0 {
                        s.push_str(&format!("{no:5} {a:04o} {w}  {text}\n"));
                    } else {
                        s.push_str(&format!("{:5} {a:04o} {w}\n", ""));
                    }
                }
            }
            None => match pass.assigned.get(&line.no) {
                Some(v) => s.push_str(&format!("{no:5}      {v:06o}  {text}\n")),
                None => s.push_str(&format!("{no:5}                  {text}\n")),
            },
        }
    }
    s
}

pub fn assemble(source: &str, file: &str) -> Result<Assembly, Diagnostics> {
    assemble_with_notes(source, file).0
}

/// One source file of a program assembled from several (as DEC's MACRO read several tapes in
/// one assembly): its name and the number of its first line in the whole text.
pub(crate) struct Part<'a> {
    name: &'a str,
    first: usize,
}

/// The file and its own line number for line `line` of the whole text.
fn locate<'a>(parts: &[Part<'a>], line: usize) -> (&'a str, usize) {
    match parts.iter().rev().find(|p| p.first <= line) {
        Some(p) => (p.name, line - p.first + 1),
        None => (parts.first().map_or("", |p| p.name), line),
    }
}

/// Characters of the source that FIO-DEC cannot punch (the historic MACRO reads FIO-DEC tapes).
fn fiodec_notes(lines: &[Line], parts: &[Part]) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    for l in lines {
        if let Some((i, c)) = l
            .text
            .iter()
            .enumerate()
            .find(|&(_, &c)| fiodec::from_char(c).is_none())
        {
            let (file, line) = locate(parts, l.no);
            notes.push(Diagnostic {
                file: file.to_string(),
                line,
                column: i + 1,
                message: format!(
                    "DEC MACRO: `{c}` has no FIO-DEC code and cannot be punched on a source tape"
                ),
            });
        }
    }
    notes
}

/// Assemble, and also return notes on what the historic DEC MACRO would not accept.
pub fn assemble_with_notes(
    source: &str,
    file: &str,
) -> (Result<Assembly, Diagnostics>, Vec<Diagnostic>) {
    assemble_files_with_notes(&[(file, source)])
}

/// Assemble several files, `(name, text)` in order, as one program: the text of each follows the
/// last, so symbols, macros and literals are shared, the first line of the first file is the
/// title, and one `start` ends the whole. Diagnostics name the file and its own line.
pub fn assemble_files_with_notes(
    files: &[(&str, &str)],
) -> (Result<Assembly, Diagnostics>, Vec<Diagnostic>) {
    let mut lines: Vec<Line> = Vec::new();
    let mut parts = Vec::new();
    for &(name, text) in files {
        parts.push(Part {
            name,
            first: lines.len() + 1,
        });
        for t in text.strip_suffix('\n').unwrap_or(text).split('\n') {
            lines.push(Line::new(lines.len() + 1, t));
        }
    }
    if files.len() == 1 {
        // One file keeps its lines exactly, a final empty line included.
        let (_, text) = files[0];
        lines = text
            .split('\n')
            .enumerate()
            .map(|(i, t)| Line::new(i + 1, t))
            .collect();
    }
    let last_line = lines.len();
    let mut prev: Option<Outcome> = None;
    for n in 1..=MAX_PASSES {
        let mut pass = Pass::new(&parts, prev.as_ref());
        let mut stream = Stream {
            lines: lines.clone(),
            next: 0,
        };
        pass.run(&mut stream);
        pass.finish(last_line);
        let converged = prev.as_ref() == Some(&pass.out);
        if converged || n == MAX_PASSES || pass.ended && pass.statements > MAX_STATEMENTS {
            if !converged && pass.diags.is_empty() {
                pass.error(last_line, 1, "symbol values still changing after 8 passes (a value depends on its own location?)");
            }
            let mut notes = fiodec_notes(&lines, &parts);
            notes.append(&mut pass.notes);
            notes.sort_by_key(|d| (d.line, d.column));
            if !pass.diags.is_empty() {
                return (Err(Diagnostics(pass.diags)), notes);
            }
            let mut symbols = SymbolTable::new();
            for (name, &(v, k)) in &pass.out.syms {
                symbols.insert(name, v, k);
            }
            let asm = Assembly {
                listing: listing(&lines, &pass, &parts),
                labels: std::mem::take(&mut pass.labels),
                words: pass.words,
                start: pass.start,
                symbols,
            };
            return (Ok(asm), notes);
        }
        let out = std::mem::take(&mut pass.out);
        drop(pass);
        prev = Some(out);
    }
    unreachable!("the last pass always returns")
}
