//! The user symbol table an assembly produces, in a text form the debugger can load.
//!
//! Text form, one symbol per line: `name value kind` with the value in octal and kind one of
//! `label`, `param` (defined with `=`), `var` (storage from `variables`/`dimension`). Lines
//! starting with `/` and blank lines are ignored.

use std::collections::BTreeMap;
use std::fmt;

/// How a symbol got its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SymbolKind {
    /// `tag,` — an address in the program.
    Label,
    /// `name=expression` — a value that need not be an address.
    Param,
    /// A storage word assigned by `variables` or `dimension`.
    Variable,
}

impl SymbolKind {
    fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Label => "label",
            SymbolKind::Param => "param",
            SymbolKind::Variable => "var",
        }
    }
}

/// Error parsing the text form of a symbol table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SymbolTableError {
    #[error("symbol table line {line}: {reason}")]
    BadLine { line: usize, reason: String },
}

/// User symbols by name, with a reverse index from address to the name the debugger shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolTable {
    by_name: BTreeMap<String, (u32, SymbolKind)>,
    by_addr: BTreeMap<u32, String>,
}

impl SymbolTable {
    pub fn new() -> SymbolTable {
        SymbolTable::default()
    }

    /// Add or replace a symbol. Only labels and variables name addresses for [`Self::name_of`].
    pub fn insert(&mut self, name: &str, value: u32, kind: SymbolKind) {
        let value = value & 0o777_777;
        if let Some((old, k)) = self.by_name.insert(name.to_string(), (value, kind)) {
            if k != SymbolKind::Param && self.by_addr.get(&old).map(String::as_str) == Some(name) {
                self.by_addr.remove(&old);
            }
        }
        if kind != SymbolKind::Param {
            // Several names for one address: keep the alphabetically first, for stable output.
            match self.by_addr.get(&value) {
                Some(existing) if existing.as_str() <= name => {}
                _ => {
                    self.by_addr.insert(value, name.to_string());
                }
            }
        }
    }

    /// The name shown for address `addr` (a label or variable there), if any.
    pub fn name_of(&self, addr: u32) -> Option<&str> {
        self.by_addr.get(&addr).map(String::as_str)
    }

    /// The value of `name`.
    pub fn value_of(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).map(|&(v, _)| v)
    }

    /// The kind of `name`.
    pub fn kind_of(&self, name: &str) -> Option<SymbolKind> {
        self.by_name.get(name).map(|&(_, k)| k)
    }

    /// All symbols in name order: (name, value, kind).
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32, SymbolKind)> {
        self.by_name.iter().map(|(n, &(v, k))| (n.as_str(), v, k))
    }

    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The text form (see the module documentation).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (n, v, k) in self.iter() {
            s.push_str(&format!("{n} {v:06o} {}\n", k.as_str()));
        }
        s
    }

    /// Parse the text form written by [`Self::to_text`].
    pub fn parse(text: &str) -> Result<SymbolTable, SymbolTableError> {
        let mut t = SymbolTable::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('/') {
                continue;
            }
            let bad = |reason: &str| SymbolTableError::BadLine {
                line: i + 1,
                reason: reason.to_string(),
            };
            let mut f = line.split_whitespace();
            let name = f.next().ok_or_else(|| bad("missing name"))?;
            let value = f.next().ok_or_else(|| bad("missing value"))?;
            let value = u32::from_str_radix(value, 8)
                .ok()
                .filter(|&v| v <= 0o777_777)
                .ok_or_else(|| bad("value is not an 18-bit octal number"))?;
            let kind = match f.next() {
                None | Some("label") => SymbolKind::Label,
                Some("param") => SymbolKind::Param,
                Some("var") => SymbolKind::Variable,
                Some(_) => return Err(bad("kind must be label, param or var")),
            };
            if f.next().is_some() {
                return Err(bad("extra text after the kind"));
            }
            t.insert(name, value, kind);
        }
        Ok(t)
    }
}

impl fmt::Display for SymbolTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_and_lookup() {
        let mut t = SymbolTable::new();
        t.insert("beg", 0o100, SymbolKind::Label);
        t.insert("n", 0o100, SymbolKind::Param);
        t.insert("tmp", 0o2000, SymbolKind::Variable);
        assert_eq!(t.name_of(0o100), Some("beg"));
        assert_eq!(t.name_of(0o2000), Some("tmp"));
        assert_eq!(t.value_of("n"), Some(0o100));
        let back = SymbolTable::parse(&t.to_text()).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = SymbolTable::parse("a 12\nb 9x\n").unwrap_err();
        assert_eq!(
            e,
            SymbolTableError::BadLine {
                line: 2,
                reason: "value is not an 18-bit octal number".into()
            }
        );
    }
}
