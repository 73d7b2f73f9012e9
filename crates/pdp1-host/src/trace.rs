//! `--trace FILE`: one line per executed instruction,
//!
//! ```text
//! 006000 227403 lio 7403             ac=000000 io=000000 cycles=1234
//! ```
//!
//! the address and the instruction word as fetched, the disassembly (pdp1-asm's, with names from
//! `--symbols`), then AC, IO and the processor's time in 5 µs cycles after the instruction
//! (`Machine::processor_cycles`: memory cycles and the Type 10 mul/div time).
//!
//! A sequence-break entry has a line of its own, before the break routine's first instruction:
//! the interrupted address (the one saved in location 1), no word, `sequence break`, and the
//! registers and cycles after the three break cycles:
//!
//! ```text
//! 000101 ------ sequence break       ac=001234 io=004321 cycles=1237
//! 000003 720004 tyi                  ac=001234 io=000066 cycles=1238
//! ```

use crate::error::{Context, Result};
use pdp1_asm::SymbolTable;
use pdp1_core::{Machine, Word};
use std::io::Write;

/// Where the trace lines go: the host's writer (a file, headless and in the window), named
/// for messages.
pub struct Tracer {
    out: Box<dyn Write>,
    name: String,
}

impl Tracer {
    /// Trace into `out` (`name`: the file, for messages).
    pub fn new(out: Box<dyn Write>, name: &str) -> Tracer {
        Tracer {
            out,
            name: name.to_owned(),
        }
    }

    /// The trace line for the instruction `word` fetched at `pc`, with the registers now.
    pub fn line(m: &Machine, pc: u32, word: Word, symbols: Option<&SymbolTable>) -> String {
        let dis = pdp1_asm::disasm::disassemble(word, symbols, m.config());
        format!(
            "{pc:06o} {word} {dis:<20} ac={} io={} cycles={}",
            m.ac(),
            m.io(),
            m.processor_cycles()
        )
    }

    /// The trace line for a sequence-break entry that interrupted the program at `pc`, with
    /// the registers after it.
    pub fn break_line(m: &Machine, pc: u32) -> String {
        format!(
            "{pc:06o} ------ {:<20} ac={} io={} cycles={}",
            "sequence break",
            m.ac(),
            m.io(),
            m.processor_cycles()
        )
    }

    /// Take the sequence-break entry `Machine::run_until_break_entry` stopped before, as one
    /// step; returns its trace line.
    pub fn take_break(m: &mut Machine) -> String {
        let pc = m.pc();
        m.step_cycle();
        Self::break_line(m, pc)
    }

    /// Write one line already made (the window's debugger makes them as it records).
    pub fn write_line(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}")
            .with_context(|| format!("cannot write trace file {}", self.name))
    }

    pub fn finish(mut self) -> Result<()> {
        self.out
            .flush()
            .with_context(|| format!("cannot write trace file {}", self.name))
    }
}
