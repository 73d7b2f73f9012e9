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
    /// Set after the first instruction: a run may start on a breakpoint and must pass it.
    started: bool,
}

impl Tracer {
    pub fn create(path: &Path) -> Result<Tracer> {
        let f = File::create(path)
            .with_context(|| format!("cannot create trace file {}", path.display()))?;
        Ok(Tracer {
            out: BufWriter::new(f),
            path: path.to_owned(),
            started: false,
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

    /// Like `Machine::run_until`, but one instruction at a time, writing a line for each.
    /// Breakpoints are honoured as `run_until` does (checked before the instruction runs).
    pub fn run_until(
        &mut self,
        m: &mut Machine,
        limit: Limit,
        symbols: Option<&SymbolTable>,
    ) -> Result<StopReason> {
        let start_instructions = m.instructions();
        let breakpoints = m.breakpoints();
        loop {
            if let Some(n) = limit.instructions {
                if m.instructions() - start_instructions >= n {
                    return Ok(StopReason::InstructionLimit);
                }
            }
            if let Some(t) = limit.until_ns {
                if m.time_ns() >= t {
                    return Ok(StopReason::TimeLimit);
                }
            }
            let pc = m.pc();
            // A breakpoint stops before the instruction; a run that starts on one runs it.
            if self.started && breakpoints.contains(&pc) {
                return Ok(StopReason::Breakpoint(pc));
            }
            self.started = true;
            let word = m.read(pc).unwrap_or(Word::ZERO);
            let (count, time) = (m.instructions(), m.time_ns());
            let stop = m.step_instruction();
            if m.instructions() > count {
                writeln!(self.out, "{}", Self::line(m, pc, word, symbols))
                    .with_context(|| format!("cannot write trace file {}", self.path.display()))?;
            }
            match stop {
                StopReason::Stepped => {
                    if m.instructions() == count && m.time_ns() == time {
                        // Nothing moved: the machine is not running.
                        return Ok(StopReason::NotRunning);
                    }
                }
                other => return Ok(other),
            }
        }
    }

    pub fn finish(mut self) -> Result<()> {
        self.out
            .flush()
            .with_context(|| format!("cannot write trace file {}", self.path.display()))
    }
}
