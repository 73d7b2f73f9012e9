//! What a run does besides executing instructions, written once for the window and for
//! headless runs (issue 18): the run plan (limits, `--continue-halts`, the result files and
//! dumps, taken from the command line and the RON file, with no clap type inside) and the
//! controller that applies it to a machine — limits counted from the start of the run, the
//! second tape (`--reader`), the typist of `--type` (and of stdin), CONTINUE after a halt with
//! the next `--halt-tw` test word, the punched frames, and the end-of-run outputs in one fixed
//! order.
//!
//! The two drivers keep only what differs between them: headless runs in 10 ms slices on an
//! absolute grid, types `--type`/stdin keys and ends when the program idles; the window runs
//! in 5 ms chunks paced against the host clock and takes keys from the host keyboard.

use crate::cli::Cli;
use crate::keyboard::Typist;
use crate::setup::{examine_lines, registers_line, Setup};
use crate::tape::Feeder;
use crate::trace::Tracer;
use anyhow::{Context, Result};
use pdp1_asm::SymbolTable;
use pdp1_core::{Limit, Machine, StopReason, Word};
use std::io::Write;
use std::path::PathBuf;

/// Why a run ended (headless: the exit; the window: the status line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// `hlt`; the PC points after it.
    Halted {
        pc: u32,
    },
    Breakpoint(u32),
    TimeLimit,
    InstructionLimit,
    /// Every key taken and the program waited a second for another.
    Idle,
    /// Ctrl-C on the terminal.
    Interrupted,
    /// The machine was not running (e.g. a state saved after a halt).
    NotRunning,
    /// The machine stopped on an error: the message says which.
    Error(String),
}

impl End {
    pub fn from_stop(stop: StopReason, m: &Machine) -> End {
        match stop {
            StopReason::Halted => End::Halted { pc: m.pc() },
            StopReason::Breakpoint(a) => End::Breakpoint(a),
            StopReason::TimeLimit => End::TimeLimit,
            StopReason::InstructionLimit => End::InstructionLimit,
            StopReason::NotRunning | StopReason::Stepped => End::NotRunning,
            StopReason::UndefinedInstruction { pc, word } => {
                End::Error(format!("undefined instruction {word} at {pc:06o}"))
            }
            StopReason::IoHang { pc, word } => End::Error(format!(
                "I/O hang: the IOT {word} at {pc:06o} waits for a completion pulse that can never come"
            )),
            StopReason::XctLimit { pc } => End::Error(format!(
                "xct chain at {pc:06o} longer than the limit of {} (xct_limit)",
                m.config().xct_limit
            )),
            StopReason::IndirectLimit { pc } => End::Error(format!(
                "indirect address chain at {pc:06o} longer than the limit of {} (indirect_limit)",
                m.config().indirect_limit
            )),
            StopReason::ReadInFailed { word: Some(w) } => End::Error(format!(
                "READ IN failed: the tape holds {w} where READ IN needs a dio or jmp"
            )),
            StopReason::ReadInFailed { word: None } => {
                End::Error("READ IN failed: the tape ran out before its jmp".to_owned())
            }
        }
    }

    /// One line for `--verbose` (normal ends) or the error message.
    pub fn describe(&self) -> String {
        match self {
            End::Halted { pc } => format!("halted (pc={pc:06o})"),
            End::Breakpoint(a) => format!("breakpoint at {a:06o}"),
            End::TimeLimit => "emulated-time limit reached".to_owned(),
            End::InstructionLimit => "instruction limit reached".to_owned(),
            End::Idle => "waiting for a key with nothing left to type".to_owned(),
            End::Interrupted => "interrupted".to_owned(),
            End::NotRunning => "the machine is not running".to_owned(),
            End::Error(e) => e.clone(),
        }
    }
}

/// The run as the command line and the configuration file describe it.
#[derive(Clone, Debug, Default)]
pub struct RunPlan {
    /// Emulated time and instructions this run may take (from its start).
    pub max_ns: Option<u64>,
    pub max_instructions: Option<u64>,
    /// Press CONTINUE after each of the first N halts, setting these test words first (the
    /// last stays for any further halts).
    pub continue_halts: u32,
    pub halt_test_words: Vec<Word>,
    /// Result files and stderr dumps at the end.
    pub punch: Option<PathBuf>,
    pub save_state: Option<PathBuf>,
    pub registers: bool,
    pub examine: Vec<(u32, u32)>,
}

impl RunPlan {
    pub fn new(cli: &Cli, setup: &Setup) -> RunPlan {
        // (The settings merged the RON file and the command line and checked the numbers.)
        let s = &setup.settings;
        RunPlan {
            max_ns: s.max_seconds.map(|sec| (sec * 1e9) as u64),
            max_instructions: s.max_instructions,
            continue_halts: setup.continue_halts,
            halt_test_words: setup.halt_test_words.clone(),
            punch: cli.punch.clone(),
            save_state: cli.save_state.clone(),
            registers: cli.registers,
            examine: setup.examine.clone(),
        }
    }
}

/// A plan applied to one machine.
pub struct RunControl {
    pub plan: RunPlan,
    start_ns: u64,
    start_instructions: u64,
    halts_continued: u32,
    feeder: Feeder,
    /// Strikes the `--type` keys (and, headless, those from stdin) when the program is ready.
    pub typist: Typist,
    /// `--trace FILE`: the run goes one instruction at a time, a line each (with `symbols`).
    tracer: Option<Tracer>,
    symbols: Option<SymbolTable>,
    /// The first error writing the trace a line at a time (the window's): reported at the end.
    trace_error: Option<anyhow::Error>,
    punched: Vec<u8>,
    /// A script's `punch FILE`s: each file gets what was punched from its offset in
    /// `punched` to the next one's (or the end).
    punch_files: Vec<(PathBuf, usize)>,
}

impl RunControl {
    /// Start counting the limits at `m`'s present time and instruction count.
    pub fn new(plan: RunPlan, feeder: Feeder, typist: Typist, m: &Machine) -> RunControl {
        RunControl {
            plan,
            start_ns: m.time_ns(),
            start_instructions: m.instructions(),
            halts_continued: 0,
            feeder,
            typist,
            tracer: None,
            symbols: None,
            trace_error: None,
            punched: Vec::new(),
            punch_files: Vec::new(),
        }
    }

    /// Trace the run into `tracer` (names from `symbols`).
    pub fn trace(&mut self, tracer: Tracer, symbols: Option<SymbolTable>) {
        self.tracer = Some(tracer);
        self.symbols = symbols;
    }

    /// Add a trace line (the window traces instruction by instruction itself, for its pane).
    /// After an error the trace stops going to the file; the error is reported at the end.
    pub fn trace_line(&mut self, line: &str) {
        if let Some(t) = self.tracer.as_mut() {
            if let Err(e) = t.write_line(line) {
                self.tracer = None;
                self.trace_error = Some(e);
            }
        }
    }

    /// Run `m` towards `until` (one slice) within the plan's limits — through the tracer when
    /// there is one — and keep what was punched. `Err` with the limit if one was already
    /// reached (nothing ran).
    pub fn advance(
        &mut self,
        m: &mut Machine,
        until: u64,
    ) -> Result<Result<StopReason, StopReason>> {
        let limit = match self.limit(m, until) {
            Ok(l) => l,
            Err(reached) => return Ok(Err(reached)),
        };
        let stop = match self.tracer.as_mut() {
            Some(t) => t.run_until(m, limit, self.symbols.as_ref())?,
            None => m.run_until(limit),
        };
        self.collect_punch(m);
        Ok(Ok(stop))
    }

    /// The plan, the second tape and the typist as the command line asks for them.
    pub fn for_run(cli: &Cli, setup: &Setup, m: &Machine) -> RunControl {
        let typist = Typist::new(
            setup.typed.clone().unwrap_or_default(),
            cli.load_state.is_none(),
        );
        let mut rc = RunControl::new(RunPlan::new(cli, setup), setup.feeder(), typist, m);
        if cli.load_state.is_none() {
            // A machine just powered on: the run began at time 0, before READ IN (which
            // `--start`/`--deposit` have already finished by now) — the limits count from there.
            rc.start_ns = 0;
            rc.start_instructions = 0;
        }
        rc
    }

    /// Count the limits from here (a restored state in the window).
    pub fn restart_counts(&mut self, m: &Machine) {
        self.start_ns = m.time_ns();
        self.start_instructions = m.instructions();
    }

    /// Emulated time at which the time limit is reached.
    pub fn end_ns(&self) -> Option<u64> {
        self.plan.max_ns.map(|mx| self.start_ns.saturating_add(mx))
    }

    /// The `run_until` limit for running towards `until` ns: the time limit and the
    /// instructions left. `Err` with the limit when one is already reached.
    pub fn limit(&self, m: &Machine, until: u64) -> Result<Limit, StopReason> {
        if self.end_ns().is_some_and(|e| m.time_ns() >= e) {
            return Err(StopReason::TimeLimit);
        }
        let done = m.instructions() - self.start_instructions;
        let left = self.plan.max_instructions.map(|n| n.saturating_sub(done));
        if left == Some(0) {
            return Err(StopReason::InstructionLimit);
        }
        Ok(Limit {
            until_ns: Some(self.end_ns().map_or(until, |e| e.min(until))),
            instructions: left,
        })
    }

    /// True when either limit is reached.
    pub fn limit_reached(&self, m: &Machine) -> bool {
        self.limit(m, u64::MAX).is_err()
    }

    /// The run has limits: a scripted run, which also ends when the machine stops by itself.
    pub fn scripted(&self) -> bool {
        self.plan.max_ns.is_some() || self.plan.max_instructions.is_some()
    }

    /// After `run_until` stopped with `stop`: for one of the first `--continue-halts` halts,
    /// set the next `--halt-tw` test word and press CONTINUE; returns true then (the run goes
    /// on).
    pub fn continue_after(&mut self, m: &mut Machine, stop: StopReason) -> bool {
        // The program waits for the reader, which ran out of tape within the slice, before
        // the host could put the next `--reader` tape in: the operator does, and the wait
        // goes on (the reader remembers the frame asked for).
        if matches!(stop, StopReason::IoHang { .. }) && self.feeder.feed_now(m) {
            m.cont();
            return true;
        }
        if stop != StopReason::Halted || self.halts_continued >= self.plan.continue_halts {
            return false;
        }
        let words = &self.plan.halt_test_words;
        if let Some(&tw) = words.get(self.halts_continued as usize).or(words.last()) {
            m.set_test_word(tw);
        }
        self.halts_continued += 1;
        m.cont();
        true
    }

    /// Mount `--reader`'s tape once the boot tape has been read; the typist then waits the key
    /// interval, so the program gets to start before the first key.
    pub fn poll_reader(&mut self, m: &mut Machine) {
        let was_read = self.feeder.first_tape_read();
        self.feeder.poll(m);
        if self.feeder.first_tape_read() && !was_read {
            self.typist.hold_from(m.time_ns());
        }
    }

    /// The reader's tapes (READ IN again, mounting a tape from the window).
    pub fn feeder(&mut self) -> &mut Feeder {
        &mut self.feeder
    }

    /// True once the boot tape has been read (or there was none): until then keys typed
    /// would reach the loader, not the program, and stay in the buffer for it.
    pub fn boot_tape_read(&self) -> bool {
        self.feeder.first_tape_read()
    }

    /// Strike the next key if it is due — never before the boot tape has been read (the
    /// program is not there yet).
    pub fn type_keys(&mut self, m: &mut Machine) {
        if self.feeder.first_tape_read() {
            self.typist.poll(m);
        }
    }

    /// A script's `punch FILE`: a fresh tape on the punch, written to FILE at the end of the
    /// run. (`--punch` still gets everything punched in the run.)
    pub fn punch_to(&mut self, path: PathBuf, m: &mut Machine) {
        self.collect_punch(m);
        self.punch_files.push((path, self.punched.len()));
    }

    /// Keep what the punch punched (for `--punch` at the end).
    pub fn collect_punch(&mut self, m: &mut Machine) {
        self.punched.extend(m.drain_punch());
    }

    /// The result files, in this order: the trace, `--punch`, `--save-state`. (`--screenshot`
    /// comes after, from the driver; then [`RunControl::write_dumps`].)
    pub fn write_files(&mut self, m: &Machine) -> Result<()> {
        if let Some(e) = self.trace_error.take() {
            return Err(e);
        }
        if let Some(t) = self.tracer.take() {
            t.finish()?;
        }
        if let Some(path) = &self.plan.punch {
            std::fs::write(path, &self.punched)
                .with_context(|| format!("cannot write punch file {}", path.display()))?;
        }
        for (i, (path, from)) in self.punch_files.iter().enumerate() {
            let to = self
                .punch_files
                .get(i + 1)
                .map_or(self.punched.len(), |n| n.1);
            std::fs::write(path, &self.punched[*from..to])
                .with_context(|| format!("cannot write punch file {}", path.display()))?;
        }
        if let Some(path) = &self.plan.save_state {
            crate::state::save(m, path)?;
        }
        Ok(())
    }

    /// `--registers` and `--examine` on stderr.
    pub fn write_dumps(&self, m: &Machine) {
        let mut err = std::io::stderr().lock();
        if self.plan.registers {
            let _ = writeln!(err, "{}", registers_line(m));
        }
        for &(a, b) in &self.plan.examine {
            for line in examine_lines(m, a, b) {
                let _ = writeln!(err, "{line}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdp1_core::MachineConfig;

    fn machine(words: &[(u32, u32)]) -> Machine {
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        for &(a, w) in words {
            m.write(a, Word::new(w)).unwrap();
        }
        m
    }

    #[test]
    fn limits_count_from_the_start_of_the_run() {
        // 100: jmp 100 — run 40 instructions, then start a plan of 10 more.
        let mut m = machine(&[(0o100, 0o600100)]);
        m.set_test_address(0o100);
        m.start(false);
        m.run_until(Limit {
            until_ns: None,
            instructions: Some(40),
        });
        let plan = RunPlan {
            max_instructions: Some(10),
            max_ns: Some(1_000_000),
            ..Default::default()
        };
        let rc = RunControl::new(plan, Feeder::new(None, &[]), Typist::default(), &m);
        let l = rc.limit(&m, u64::MAX).unwrap();
        assert_eq!(l.instructions, Some(10));
        assert_eq!(l.until_ns, Some(m.time_ns() + 1_000_000));
        assert_eq!(m.run_until(l), StopReason::InstructionLimit);
        assert_eq!(m.instructions(), 50);
        assert_eq!(rc.limit(&m, u64::MAX), Err(StopReason::InstructionLimit));
    }

    #[test]
    fn halts_are_continued_with_the_next_test_word() {
        // 100: lat / 101: hlt / 102: lat / 103: hlt / 104: lat / 105: hlt
        let prog = [
            (0o100, 0o762200),
            (0o101, 0o760400),
            (0o102, 0o762200),
            (0o103, 0o760400),
            (0o104, 0o762200),
            (0o105, 0o760400),
        ];
        let mut m = machine(&prog);
        m.set_test_address(0o100);
        m.start(false);
        let plan = RunPlan {
            continue_halts: 2,
            halt_test_words: vec![Word::new(7)],
            ..Default::default()
        };
        let mut rc = RunControl::new(plan, Feeder::new(None, &[]), Typist::default(), &m);
        let mut acs = Vec::new();
        loop {
            let stop = m.run_until(rc.limit(&m, u64::MAX).unwrap());
            acs.push(m.ac().bits());
            if !rc.continue_after(&mut m, stop) {
                assert_eq!(stop, StopReason::Halted);
                break;
            }
        }
        // The last test word stays for the second CONTINUE too; the third halt ends the run.
        assert_eq!(acs, vec![0, 7, 7]);
        assert_eq!(m.pc(), 0o106);
    }
}
