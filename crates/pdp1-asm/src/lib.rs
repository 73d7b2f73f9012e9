//! # pdp1-asm — MACRO-1 cross-assembler, disassembler and tape formats for the PDP-1
//!
//! * [`assemble`] turns MACRO-1 source (the language of DEC's PDP-1 MACRO, see
//!   `docs/assembler.md`) into memory words, a start address, a symbol table and a listing. All
//!   errors of a run are collected, each with file, line and column.
//! * [`tape`] reads and writes RIM and BLK paper-tape images and FIO-DEC text tapes.
//! * [`disasm`] turns a word back into MACRO text; assembling that text gives the word back.
//!
//! Octal everywhere, DEC bit numbering (bit 0 = sign).

mod assembler;
mod cursor;
pub mod disasm;
mod expr;
mod permanent;
mod symbols;
pub mod tape;

use std::collections::BTreeMap;
use std::fmt;

pub use pdp1_core::Word;
pub use symbols::{SymbolKind, SymbolTable, SymbolTableError};

/// The result of a successful assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembly {
    /// Assembled words by address (only the locations the program fills).
    pub words: BTreeMap<u32, Word>,
    /// The address given by `start`, if any.
    pub start: Option<u32>,
    /// The user's symbols (labels, parameters, variables) for the debugger.
    pub symbols: SymbolTable,
    /// Location, word and source line for every source line.
    pub listing: String,
    /// The tags (`name,`) outside macro expansions by their full address, field included: in a
    /// `field` the symbols hold only the 12 bits within it, as its own instructions address
    /// it, so a profiler or debugger that names a running program's 16-bit addresses needs
    /// these. Several tags at one address: the last.
    pub labels: BTreeMap<u32, String>,
}

impl Assembly {
    /// The words and start address, ready for [`tape::write_rim`] or [`tape::write_blk`].
    pub fn image(&self) -> tape::Image {
        tape::Image {
            words: self.words.clone(),
            start: self.start,
        }
    }
}

/// One error found in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (characters; a tab counts as one).
    pub column: usize,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// All errors of one assembly run, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Assemble MACRO-1 `source`. `file_name` is only used in diagnostics.
pub fn assemble(source: &str, file_name: &str) -> Result<Assembly, Diagnostics> {
    assembler::assemble(source, file_name)
}

/// Assemble several source files, `(name, text)` in order, as one program — as DEC's MACRO read
/// several tapes in one assembly: symbols, macros and literals are shared, the first line of the
/// first file is the title, one `start` ends the whole. Diagnostics name the file, its line and
/// the column.
pub fn assemble_files(files: &[(&str, &str)]) -> Result<Assembly, Diagnostics> {
    assembler::assemble_files_with_notes(files).0
}

/// The source files a list file names, in order, with their texts — the input of
/// [`assemble_files`]. One path a line, relative to the list file's folder; blank lines and
/// lines starting with `/` are left out. The names are the paths as the list file's folder
/// joins them (`roms/lib/move.mac` for `lib/move.mac` in `roms/kalah.files`).
pub fn read_source_list(list: &std::path::Path) -> std::io::Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(list)?;
    let dir = list.parent().unwrap_or(std::path::Path::new(""));
    let mut files = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('/') {
            continue;
        }
        let p = dir.join(line);
        let src = std::fs::read_to_string(&p).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("{} (named in {}): {e}", p.display(), list.display()),
            )
        })?;
        files.push((p.display().to_string(), src));
    }
    Ok(files)
}

/// [`assemble_files`], with the notes of [`assemble_with_dec_notes`].
pub fn assemble_files_with_dec_notes(
    files: &[(&str, &str)],
) -> (Result<Assembly, Diagnostics>, Vec<Diagnostic>) {
    assembler::assemble_files_with_notes(files)
}

/// Assemble, and also list what the historic DEC MACRO (../shared/tapes/macro.rim) would not
/// accept in this source: symbols longer than three characters, macro names shorter than four,
/// the `!` `&` `*` operators and `[ ]`, a comment after blanks, characters FIO-DEC lacks.
/// See docs/assembler.md, "Writing sources the historic MACRO also accepts".
pub fn assemble_with_dec_notes(
    source: &str,
    file_name: &str,
) -> (Result<Assembly, Diagnostics>, Vec<Diagnostic>) {
    assembler::assemble_with_notes(source, file_name)
}
