//! `--trace FILE`: one line per executed instruction,
//!
//! ```text
//! 006000 227403 lio 7403             ac=000000 io=000000 cycles=1234
//! ```
//!
//! the address and the instruction word as fetched, the disassembly (pdp1-asm's, with names from
//! `--symbols`), then AC, IO and the machine's cycle count after the instruction.

use anyhow::{Context, Result};
use pdp1_asm::SymbolTable;
use pdp1_core::{Limit, Machine, StopReason, Word};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub struct Tracer {
    out: BufWriter<File>,
    path: PathBuf,
}

impl Tracer {
    pub fn create(path: &Path) -> Result<Tracer> {
        let f = File::create(path)
            .with_context(|| format!("cannot create trace file {}", path.display()))?;
        Ok(Tracer {
            out: BufWriter::new(f),
            path: path.to_owned(),
        })
    }

    /// The trace line for the instruction `word` fetched at `pc`, with the registers now.
    pub fn line(m: &Machine, pc: u32, word: Word, symbols: Option<&SymbolTable>) -> String {
        let dis = pdp1_asm::disasm::disassemble(word, symbols);
        format!(
            "{pc:06o} {word} {dis:<20} ac={} io={} cycles={}",
            m.ac(),
            m.io(),
            m.cycles()
        )
    }

    /// `Machine::run_until` one instruction at a time, writing a line for each. Each step is
    /// the machine's own `run_until` limited to one instruction, so a stopped machine stays
    /// stopped (`NotRunning`) and breakpoints, halts and I/O waits end the run exactly as they
    /// do without the trace.
    pub fn run_until(
        &mut self,
        m: &mut Machine,
        limit: Limit,
        symbols: Option<&SymbolTable>,
    ) -> Result<StopReason> {
        let start_instructions = m.instructions();
        loop {
            let left = match limit.instructions {
                Some(n) => {
                    let done = m.instructions() - start_instructions;
                    if done >= n {
                        return Ok(StopReason::InstructionLimit);
                    }
                    n - done
                }
                None => u64::MAX,
            };
            if m.reading_in() {
                // READ IN: one word pair at a time (no instruction runs until the tape's jmp).
                if limit.until_ns.is_some_and(|t| m.time_ns() >= t) {
                    return Ok(StopReason::TimeLimit);
                }
                match m.step_instruction() {
                    StopReason::Stepped => continue,
                    other => return Ok(other),
                }
            }
            let pc = m.pc();
            let word = m.read(pc).unwrap_or(Word::ZERO);
            let count = m.instructions();
            let stop = m.run_until(Limit {
                until_ns: limit.until_ns,
                instructions: Some(left.min(1)),
            });
            if m.instructions() > count {
                writeln!(self.out, "{}", Self::line(m, pc, word, symbols))
                    .with_context(|| format!("cannot write trace file {}", self.path.display()))?;
            }
            match stop {
                StopReason::InstructionLimit => {}
                other => return Ok(other),
            }
        }
    }

    /// Write one line already made (the window's debugger makes them as it records).
    pub fn write_line(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}")
            .with_context(|| format!("cannot write trace file {}", self.path.display()))
    }

    pub fn finish(mut self) -> Result<()> {
        self.out
            .flush()
            .with_context(|| format!("cannot write trace file {}", self.path.display()))
    }
}
