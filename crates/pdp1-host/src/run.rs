//! The run controller (issues 18 and 25): everything a run does besides executing instructions,
//! written once for every host, and the only code that changes the machine. The run plan (limits, `--continue-halts`,
//! the result files and dumps, from the command line and the RON file, with no clap type inside)
//! and [`RunControl`], which owns the machine and what acts on it during the run — the reader's
//! tapes (`--reader`), the typist of `--type` (and of stdin), the `--script`, CONTINUE after a
//! halt with the next `--halt-tw` test word, limits counted from the start of the run, the
//! punched frames, the tracer and write watches, why the machine stands or the run ended — and
//! the end-of-run outputs in one fixed order.
//!
//! The console's actions are its methods (START, STOP, CONTINUE, READ IN, EXAMINE, DEPOSIT, the
//! switches, SINGLE STEP, SINGLE INST, tapes, breakpoints, watches, keys): the window's keys, a
//! script's lines ([`RunControl::act`]) and the ManKalah agent call the same ones, and the
//! machine itself is private ([`RunControl::machine`] to look at it).
//!
//! Every driver takes one step, [`RunControl::advance`] to an emulated time, and shows what it
//! returns ([`Advance`]: typed events, display points, the script's lines, notes, trace lines,
//! a stop, the end). They keep only what is the host's: headless asks for 10 ms slices on an
//! absolute grid ([`SLICE_NS`]) and adds stdout, stdin keys, `--audio`, `--screenshot` and
//! wall-clock pacing; the window asks for 5 ms chunks paced against the host clock and adds
//! drawing, the host keyboard and mouse and sound.
//! Two switches say who is at the console: [`RunControl::unattended`] (headless; the window
//! with limits) makes a stop end the run unless a script goes on, [`RunControl::idle_ends`]
//! (headless) ends it when the program waits for a key that will never come.

use crate::error::Result;
use crate::keyboard::host::KeyTarget;
use crate::keyboard::{Key, Typist};
use crate::script::{Action, Script};
use crate::setup::{examine_lines, registers_line, Setup};
use crate::tape::Feeder;
use crate::trace::Tracer;
use pdp1_asm::SymbolTable;
use pdp1_core::{DisplayPoint, Limit, Machine, MachineConfig, StopReason, TypeEvent, Word};
use std::collections::BTreeSet;
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
            StopReason::UndefinedInstruction { pc, word } => End::Error(format!(
                "undefined instruction {word} at {pc:06o}{}",
                undefined_hint(pc, word)
            )),
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

/// Keys that reach the run from the host while it goes (headless: stdin).
pub trait KeySource {
    /// The keys typed since the last call.
    fn poll(&mut self) -> Polled;
}

/// What a [`KeySource`] had.
#[derive(Debug, Default)]
pub struct Polled {
    pub keys: Vec<Key>,
    /// No more keys can come (end of input).
    pub done: bool,
    /// The operator asked to end the run (Ctrl-C on the terminal).
    pub interrupted: bool,
}

/// Why the machine stopped by itself during an [`RunControl::advance`]; it stands at the
/// console now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A halt, a breakpoint, an error (`End::from_stop` says which).
    Machine(StopReason),
    /// A store into this watched address (the window's write watches).
    Watch(u32),
}

/// What READ IN did before it started the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadIn {
    /// The tape in the reader is read in.
    Reading,
    /// The tape had gone through: the boot tape was rewound to its leader first.
    Rewound,
    /// The tape had gone through and there is no boot tape to rewind.
    NoTape,
}

/// What happened in one [`RunControl::advance`], for the driver to show.
#[derive(Debug, Default)]
pub struct Advance {
    /// The typewriter's output (the paper; the typist and the script have seen it).
    pub typed: Vec<TypeEvent>,
    /// The display's points.
    pub points: Vec<DisplayPoint>,
    /// The script's `examine` lines (stdout), before the slice's typed output.
    pub script_out: Vec<String>,
    /// Warnings and notes for the operator (stderr headless), without the `pdp1: ` prefix.
    pub notes: Vec<String>,
    /// Trace lines made (with [`RunControl::echo_trace`]: the window's pane), and how many of
    /// them are instructions (the others are sequence-break entries).
    pub trace: Vec<String>,
    pub traced: u64,
    /// The script set the machine going (START, CONTINUE, READ IN).
    pub started: bool,
    /// The machine stopped by itself and stands (the run goes on: a script, or someone at
    /// the window, acts next).
    pub stop: Option<Stop>,
    /// The run is over, for this reason.
    pub end: Option<End>,
}

/// A plan applied to one machine: the run controller. It owns the machine and everything
/// that acts on it during a run — the reader's tapes, the typist, the script, the tracer,
/// CONTINUE after halts, the limits, the punch — and runs it towards a given emulated time
/// with [`RunControl::advance`], the one step both drivers take.
pub struct RunControl {
    /// The machine: private, changed only through the controller's methods (issue 25).
    m: Machine,
    pub plan: RunPlan,
    start_ns: u64,
    start_instructions: u64,
    halts_continued: u32,
    feeder: Feeder,
    /// The one typist: the `--type` keys, a script's `type`, stdin's (patient) and the
    /// window's keyboard (a person).
    typist: Typist,
    /// Keys from the host (headless: stdin), asked for after each step.
    keys: Option<Box<dyn KeySource>>,
    /// `--script`: the operator's actions, done at the start of each step.
    script: Option<Script>,
    /// The stop the machine stands at while the script goes on (a halt, or the script's own
    /// STOP: `NotRunning`).
    stood: StopReason,
    /// Someone at the window stopped the machine (STOP): it stands for them, not for the run.
    held: bool,
    /// Nobody at the console: a stop ends the run unless a script goes on (headless; the
    /// window when given limits — a scripted run).
    pub unattended: bool,
    /// The run ends when the program waits for a key with nothing left to type (headless).
    pub idle_ends: bool,
    /// Trace lines are made, one an instruction (`--trace`; the window's ctrl+T).
    tracing: bool,
    /// Trace lines are also handed back in [`Advance::trace`] (the window's pane).
    pub echo_trace: bool,
    /// Addresses whose store stops the machine (the window's ctrl+K).
    watches: BTreeSet<u32>,
    /// The script is acting: its START/CONTINUE/READ IN are reported in
    /// [`Advance::started`], and its STOP is no one's at the window.
    by_script: bool,
    script_started: bool,
    /// `--trace FILE`: where the trace lines go (with `symbols`).
    tracer: Option<Tracer>,
    symbols: Option<SymbolTable>,
    /// The first error writing the trace: the trace stops going to the file, and the error
    /// is reported at the end.
    trace_error: Option<crate::error::Error>,
    /// The reader has been looked at once, before the first step.
    begun: bool,
    punched: Vec<u8>,
    /// A script's `punch FILE`s: each file gets what was punched from its offset in
    /// `punched` to the next one's (or the end).
    punch_files: Vec<(PathBuf, usize)>,
    /// The frames left in the reader when they last changed, and when (emulated ns): whether
    /// the tape is still being read when a time limit comes.
    reader_moved: (usize, u64),
    /// The program has been ready for a key since the run began (or a state was restored):
    /// one that never asks (Spacewar!) is never "thinking".
    asked: bool,
}

/// Emulated time between a terminal host's looks at the machine (10 ms: keys are struck at
/// least 100 ms apart, and the idle stop needs one second): headless runs and the ManKalah
/// agent advance the controller on this absolute grid.
pub const SLICE_NS: u64 = 10_000_000;

/// How long the program must wait for a key, with nothing left to type, before a run with
/// [`RunControl::idle_ends`] ends.
pub const IDLE_NS: u64 = 1_000_000_000;

/// What an undefined instruction's stop adds for the operator when the word holds its own
/// address (opcode 00; not the empty word at 0): that is what an assembler makes of a lone
/// `.`, and MACRO ends a word at a tab, so `lac<tab>.` is two words, `lac 0` and the
/// location's address, which the machine then runs. Opcode 00 is no PDP-1 instruction and the
/// real machine stops on it too (pdp1-hardware.md §2: aap's `IR_INCORR`, SIMH's STOP_RSRV):
/// the fault is the tape's (the PiDP-1 project's `1invad` tapes stop so at 1534,
/// docs/library.md).
fn undefined_hint(pc: u32, word: Word) -> &'static str {
    if pc != 0 && word.opcode() == 0 && word.addr12() == pc & 0o7777 {
        " (the word is its own address, as a `.` assembled alone makes it - MACRO ends a word at a tab, so `lac<tab>.` is two words: data run as code; a PDP-1 stops here too)"
    } else {
        ""
    }
}

impl RunControl {
    /// Start counting the limits at `m`'s present time and instruction count.
    pub fn new(plan: RunPlan, feeder: Feeder, typist: Typist, m: Machine) -> RunControl {
        RunControl {
            start_ns: m.time_ns(),
            start_instructions: m.instructions(),
            m,
            plan,
            halts_continued: 0,
            feeder,
            typist,
            keys: None,
            script: None,
            stood: StopReason::NotRunning,
            held: false,
            unattended: false,
            idle_ends: false,
            tracing: false,
            echo_trace: false,
            watches: BTreeSet::new(),
            by_script: false,
            script_started: false,
            tracer: None,
            symbols: None,
            trace_error: None,
            begun: false,
            punched: Vec::new(),
            punch_files: Vec::new(),
            reader_moved: (usize::MAX, 0),
            asked: false,
        }
    }

    /// The plan, the second tape, the typist and the script as the set-up has them.
    /// `fresh`: a machine just powered on (not a restored state).
    pub fn for_run(plan: RunPlan, setup: &Setup, fresh: bool, m: Machine) -> RunControl {
        let typist = Typist::new(setup.typed.clone().unwrap_or_default(), fresh);
        let mut rc = RunControl::new(plan, setup.feeder(), typist, m);
        rc.script = setup.script.clone();
        rc.symbols = setup.symbols.clone();
        if fresh {
            // A machine just powered on: the run began at time 0, before READ IN (which
            // `--start`/`--deposit` have already finished by now) — the limits count from there.
            rc.start_ns = 0;
            rc.start_instructions = 0;
        }
        rc
    }

    /// Trace the run into `tracer` (names from the symbols).
    pub fn trace(&mut self, tracer: Tracer) {
        self.tracer = Some(tracer);
        self.tracing = true;
    }

    /// Take keys from `keys` after each step.
    pub fn key_source(&mut self, keys: Box<dyn KeySource>) {
        self.keys = Some(keys);
    }

    /// Give the run a script (`for_run` takes the set-up's).
    pub fn set_script(&mut self, script: crate::script::Script) {
        self.script = Some(script);
    }

    /// The script, if it still has actions to do.
    pub fn script_on(&self) -> bool {
        self.script.as_ref().is_some_and(|s| !s.done())
    }

    /// Add a trace line (SINGLE INST in the window). After an error the trace stops going to
    /// the file; the error is reported at the end.
    pub fn trace_line(&mut self, line: &str) {
        if let Some(t) = self.tracer.as_mut() {
            if let Err(e) = t.write_line(line) {
                self.tracer = None;
                self.trace_error = Some(e);
            }
        }
    }

    /// The machine, to look at (drawing, dumps, a host's status line). It is changed only
    /// through the controller's methods.
    pub fn machine(&self) -> &Machine {
        &self.m
    }

    /// The machine, for the debug protocol's commands (issue 30: registers, memory, one
    /// instruction at a time with its breakpoints and watches), which act between steps as
    /// the console's methods do. Crate-private: every host still goes through the controller.
    pub(crate) fn machine_mut(&mut self) -> &mut Machine {
        &mut self.m
    }

    /// The machine set going (START, CONTINUE, READ IN): an earlier stop is over.
    fn set_going(&mut self) {
        self.held = false;
        self.stood = StopReason::NotRunning;
        if self.by_script {
            self.script_started = true;
        }
    }

    // ---- the console (pdp1-hardware.md §2): one implementation each, for the window's
    // keys and switches, a script's lines and any later host ----

    /// START (with START's sequence-break-mode variant `sbm`), at the test address.
    pub fn start(&mut self, sbm: bool) {
        self.set_going();
        self.m.start(sbm);
    }

    /// STOP. Someone at the window (not a script) stopped it: the machine stands for them,
    /// not for the run's end rules.
    pub fn stop(&mut self) {
        if !self.by_script {
            self.held = true;
        }
        self.m.stop();
    }

    /// CONTINUE.
    pub fn cont(&mut self) {
        self.set_going();
        self.m.cont();
    }

    /// READ IN — one rule for the window's F7 and a script's `readin` (docs/frontend.md,
    /// docs/headless.md): after the tape in the reader has gone through (nothing but blank
    /// trailer left) the operator first takes the boot tape back to its leader and puts it in
    /// again (issue 17: "tape ran out"; the `--reader` tapes follow it again); otherwise what
    /// is in the reader is the tape being read in (keys wait until it has been read).
    pub fn read_in(&mut self) -> ReadIn {
        self.set_going();
        // A boot tape stopped part way through (a READ IN that failed, a loader stopped) is
        // not at a block boundary: reading on would take a data word for a `dio` and fail at
        // every press (issue 27). The operator starts over from its leader.
        let part_read = self
            .feeder
            .boot_progress(&self.m)
            .is_some_and(|(read, _, _)| read > 0);
        let r = if part_read || crate::tape::reader_spent(&self.m) {
            if self.feeder.rewind(&mut self.m) {
                ReadIn::Rewound
            } else {
                ReadIn::NoTape
            }
        } else {
            self.feeder.read_in_mounted(&self.m);
            ReadIn::Reading
        };
        self.m.read_in();
        r
    }

    /// The console's EXAMINE: the word at the test address (into AC and MB).
    pub fn examine(&mut self) -> Word {
        self.m.examine()
    }

    /// The console's DEPOSIT: the test word into the test address.
    pub fn deposit(&mut self) {
        self.m.deposit();
    }

    /// What EXAMINE showed, as the window's and the page's status line: `examine TA: WORD`.
    pub fn examine_note(&self, w: Word) -> String {
        format!("examine {:06o}: {:06o}", self.m.test_address(), w.bits())
    }

    /// What DEPOSIT did, as the status line: `deposit TW at TA`.
    pub fn deposit_note(&self) -> String {
        format!(
            "deposit {:06o} at {:06o}",
            self.m.test_word().bits(),
            self.m.test_address()
        )
    }

    /// A script's `deposit ADDR WORD` (SIMH's: the switches and registers stay). An address
    /// outside memory changes nothing (scripts are checked before the run).
    pub fn deposit_at(&mut self, addr: u32, w: Word) {
        let _ = self.m.write(addr, w);
    }

    /// `AAAA/ WWWWWW` lines for addresses `a` to `b` (a script's `examine`).
    pub fn examine_lines(&self, a: u32, b: u32) -> Vec<String> {
        examine_lines(&self.m, a, b)
    }

    pub fn set_test_word(&mut self, w: Word) {
        self.m.set_test_word(w);
    }

    pub fn set_sense_switches(&mut self, bits: u8) {
        self.m.set_sense_switches(bits);
    }

    pub fn set_test_address(&mut self, a: u32) {
        self.m.set_test_address(a);
    }

    pub fn set_extend_switch(&mut self, on: bool) {
        self.m.set_extend_switch(on);
    }

    /// SINGLE STEP: one memory cycle. Returns the cycle it took (`fetch`, `execute`, …) and
    /// the stop, with what the machine did.
    pub fn single_step(&mut self) -> (&'static str, Advance) {
        let took = self.m.next_cycle();
        let r = self.m.step_cycle();
        (took, self.after_single(r))
    }

    /// SINGLE INST: one instruction (a sequence-break entry is a step of its own,
    /// `Machine::step_instruction`), traced when tracing as `--trace` does.
    pub fn single_inst(&mut self) -> Advance {
        let pc = self.m.pc();
        let word = self.m.read(pc).unwrap_or(Word::ZERO);
        let (n0, reading_in) = (self.m.instructions(), self.m.reading_in());
        let r = self.m.step_instruction();
        let mut line = None;
        if self.tracing && self.m.instructions() > n0 {
            line = Some((Tracer::line(&self.m, pc, word, self.symbols.as_ref()), true));
        } else if self.tracing && r == StopReason::Stepped && !reading_in {
            line = Some((Tracer::break_line(&self.m, pc), false));
        }
        let mut a = Advance::default();
        if let Some((l, instruction)) = line {
            self.trace_line(&l);
            a.trace.push(l);
            a.traced += u64::from(instruction);
        }
        let mut out = self.after_single(r);
        out.trace = a.trace;
        out.traced = a.traced;
        out
    }

    /// After SINGLE STEP / SINGLE INST ended in `r`: a halt or an error leaves the machine
    /// standing there, as after a run ([`Advance::stop`] says so); what it did is drained.
    fn after_single(&mut self, r: StopReason) -> Advance {
        let stood = match r {
            StopReason::Stepped | StopReason::TimeLimit | StopReason::InstructionLimit => None,
            other => {
                if self.m.running() {
                    self.m.stop();
                }
                self.held = false;
                self.stood = other;
                Some(Stop::Machine(other))
            }
        };
        let mut a = self.drain();
        a.stop = stood;
        a
    }

    /// What the machine did outside a step (SINGLE STEP, a state about to be replaced): the
    /// punched frames kept, the paper (seen by the typist and the script) and the points.
    pub fn drain(&mut self) -> Advance {
        self.collect_punch();
        let typed = self.m.drain_typewriter();
        self.typist.observe(&typed);
        if let Some(sc) = self.script.as_mut() {
            sc.observe(&typed);
        }
        Advance {
            typed,
            points: self.m.drain_display(),
            ..Advance::default()
        }
    }

    /// The program flags' changes since the last call (sound).
    pub fn drain_flags(&mut self) -> Vec<pdp1_core::FlagChange> {
        self.m.drain_flags()
    }

    /// Toggle a breakpoint at `addr`.
    pub fn toggle_breakpoint(&mut self, addr: u32) {
        if self.m.breakpoints().contains(&addr) {
            self.m.remove_breakpoint(addr);
        } else {
            self.m.add_breakpoint(addr);
        }
    }

    /// Toggle a write watch at `addr` (a store there stops the machine); returns whether it
    /// is on now.
    pub fn toggle_watch(&mut self, addr: u32) -> bool {
        if self.watches.remove(&addr) {
            false
        } else {
            self.watches.insert(addr);
            true
        }
    }

    pub fn watches(&self) -> &BTreeSet<u32> {
        &self.watches
    }

    /// Trace lines on or off (the window's ctrl+T; `--trace` turns them on).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    pub fn tracing(&self) -> bool {
        self.tracing
    }

    /// The Spacewar! control boxes' switches (the window's game keys).
    pub fn set_control_boxes(&mut self, w: Word) {
        self.m.set_control_boxes(w);
    }

    /// Flip one console switch (a click on it, or the keyboard's switch cursor): the window
    /// and the web page alike.
    pub fn toggle_switch(&mut self, sw: crate::draw::console::Switch) {
        use crate::draw::console::Switch;
        let m = &self.m;
        match sw {
            Switch::TestWord(b) => {
                let w = m.test_word().bits() ^ (1 << (17 - b));
                self.set_test_word(Word::new(w));
            }
            Switch::Sense(n) => {
                let ss = m.sense_switches() ^ (1 << (6 - n));
                self.set_sense_switches(ss);
            }
            Switch::TestAddress(b) => {
                let ta = m.test_address() ^ (1 << (15 - b));
                self.set_test_address(ta);
            }
            Switch::Extend => {
                let on = !m.extend_switch();
                self.set_extend_switch(on);
            }
        }
    }

    /// The light pen at these scope coordinates (`None`: away from the tube).
    pub fn set_light_pen(&mut self, at: Option<(i16, i16)>) {
        self.m.set_light_pen(at);
    }

    /// A person at the window's keyboard strikes `c` (the typist's person policy). Keys the
    /// typewriter has no key for are counted in [`RunControl::typist`]'s `unmapped`.
    pub fn type_char(&mut self, c: char) {
        let now = self.m.time_ns();
        self.typist.type_char(c, now, &mut self.m);
    }

    /// A key struck as it is, with no case shift and no waiting (the ManKalah agent: the
    /// program reads key codes the same in either case).
    pub fn strike_code(&mut self, code: u8) -> bool {
        KeyTarget::strike_key(&mut self.m, code)
    }

    /// The program thinks: it runs and is not ready for a key (issue 27: the console says so,
    /// since the tube may be dark; a space struck now is held, `keyboard/host.rs`).
    pub fn thinking(&self) -> bool {
        self.asked && self.m.running() && !crate::keyboard::ready_for_key(&self.m)
    }

    /// The program runs and waits for a key, with none struck or held for it: the person's
    /// turn at the keyboard.
    pub fn waiting_for_key(&self) -> bool {
        self.m.running()
            && crate::keyboard::ready_for_key(&self.m)
            && !self.m.key_pending()
            && self.typist.held.is_empty()
    }

    /// The typist (keys left, overruns).
    pub fn typist(&self) -> &Typist {
        &self.typist
    }

    /// Another machine in place of this one (the window's ctrl+L restoring a state): the
    /// limits count from here, the typewriter's case is not known.
    pub fn restore(&mut self, m: Machine) {
        self.m = m;
        self.restart_counts();
        self.typist.forget_case();
        self.asked = false;
    }

    /// Run towards emulated time `until` (a headless slice, a window chunk): first the
    /// script's actions that are due, then the machine within the plan's limits (a script's
    /// time wait ends the step early; a machine that stands lets time pass for its devices),
    /// then what the run does between steps — CONTINUE after a halt, the reader's next tape,
    /// the next key — and the end rules. Everything the host does to the machine between
    /// steps happens after it, so the step boundaries decide the run.
    pub fn advance(&mut self, until: u64) -> Advance {
        let mut a = self.advance_machine(until);
        self.asked |= self.m.running() && crate::keyboard::ready_for_key(&self.m);
        let left = self.m.tape_remaining();
        if left != self.reader_moved.0 {
            self.reader_moved = (left, self.m.time_ns());
        }
        if a.end == Some(End::TimeLimit) {
            a.notes.extend(self.limit_during_read_in());
        }
        a
    }

    /// A time limit that comes while the boot tape is still being read (READ IN or the tape's
    /// loader) leaves an empty screen: say so, and how long the tape would take (issue 27).
    fn limit_during_read_in(&self) -> Option<String> {
        let (read, all, name) = self.feeder.boot_progress(&self.m)?;
        // Still reading: the reader moved in the last tenth of a second (it reads a line every
        // 2.5 ms). A program that left the rest of its tape unread (snowflake's loader stops at
        // 79 %) has started: nothing to say.
        if self.m.time_ns().saturating_sub(self.reader_moved.1) > 100_000_000 {
            return None;
        }
        let spent = self.m.time_ns().saturating_sub(self.start_ns);
        let name = if name.is_empty() { "the tape" } else { name };
        let needs = match read {
            0 => String::new(),
            r => format!(
                "; {name} needs about {:.0} s",
                spent as f64 * all as f64 / r as f64 / 1e9
            ),
        };
        Some(format!(
            "the time limit came during READ IN: the tape was {} % read{needs}",
            read * 100 / all.max(1)
        ))
    }

    /// [`RunControl::advance`] without the words on a time limit.
    fn advance_machine(&mut self, until: u64) -> Advance {
        let mut a = Advance::default();
        // A person's held keys (after an automatic case shift) go first.
        let now = self.m.time_ns();
        self.typist.pump(now, &mut self.m);
        if !self.begun {
            self.begun = true;
            self.poll_reader();
        }
        // The script's actions that are due, between steps like everything the host does.
        self.script_act(&mut a);
        let now = self.m.time_ns();
        let script_on = self.script_on();
        let deadline = self.script.as_ref().and_then(Script::deadline);
        let mut slice_end = until;
        if let Some(d) = deadline {
            slice_end = slice_end.min(d.max(now + 1));
        }
        let before = (self.m.time_ns(), self.m.instructions());
        let stop = if !self.m.running() && (script_on || !self.unattended || self.held) {
            // The machine stands while a script goes on (or someone at the window looks at
            // it): a time wait lets emulated time pass (the devices finish what they do,
            // Machine::idle_until); with nobody at the console any other wait would never end.
            let attended = !self.unattended || self.held;
            if script_on && deadline.is_none() && !attended {
                let sc = self.script.as_ref().expect("script_on");
                a.notes.push(format!(
                    "warning: {} waits, but the machine stands (pc={:06o}); the run ends",
                    sc.position(),
                    self.m.pc()
                ));
                a.end = Some(End::from_stop(self.stood, &self.m));
                return a;
            }
            match self.limit(slice_end) {
                Ok(l) => self.m.idle_until(l.until_ns.unwrap_or(slice_end)),
                Err(reached) => {
                    a.end = Some(End::from_stop(reached, &self.m));
                    return a;
                }
            }
            None
        } else {
            let limit = match self.limit(slice_end) {
                Ok(l) => l,
                Err(reached) => {
                    a.end = Some(End::from_stop(reached, &self.m));
                    return a;
                }
            };
            if self.tracing || !self.watches.is_empty() {
                match self.run_stepwise(limit, &mut a) {
                    Some(w) => {
                        // (run_stepwise stopped the machine after the store.)
                        self.stood = StopReason::NotRunning;
                        a.stop = Some(Stop::Watch(w));
                        None
                    }
                    None => a.stop.take().and_then(|s| match s {
                        Stop::Machine(r) => Some(r),
                        Stop::Watch(_) => None,
                    }),
                }
            } else {
                Some(self.m.run_until(limit))
            }
        };
        self.collect_punch();
        let stalled = (self.m.time_ns(), self.m.instructions()) == before;

        a.typed = self.m.drain_typewriter();
        self.typist.observe(&a.typed);
        if let Some(sc) = self.script.as_mut() {
            sc.observe(&a.typed);
        }
        a.points = self.m.drain_display();
        // An IOT nothing answers, once per device (issue 27: `life` waited silently for its
        // devices 15 and 16).
        for (pc, w) in self.m.drain_unanswered_iots() {
            a.notes.push(format!(
                "warning: the IOT {w} at {pc:06o} is for device {:02o}, which this machine \
                 does not have: nothing answers it",
                w.bits() & 0o77
            ));
        }

        match stop {
            // A step in which emulated time does not move would repeat forever (only a
            // damaged state, e.g. a clock at its maximum, can do that).
            None
            | Some(StopReason::TimeLimit | StopReason::InstructionLimit | StopReason::Stepped)
                if stalled && a.stop.is_none() =>
            {
                a.end = Some(End::Error(format!(
                    "the machine makes no progress (emulated time stuck at {} ns)",
                    self.m.time_ns()
                )));
                return a;
            }
            None
            | Some(StopReason::TimeLimit | StopReason::InstructionLimit | StopReason::Stepped) => {}
            Some(other) if self.continue_after(other) => {}
            // Any stop with the script still going — a halt, the script's STOP, a
            // breakpoint, or an error such as the undefined instruction 0 that the Spacewar!
            // hyperspace patch jumps to after its READ IN: the machine stands at the console,
            // as on the real machine (a breakpoint too), and the script acts next (an error
            // is said).
            Some(other) if script_on => {
                if let End::Error(msg) = End::from_stop(other, &self.m) {
                    let sc = self.script.as_ref().expect("script_on");
                    a.notes.push(format!(
                        "the machine stopped: {msg} (the script goes on: {})",
                        sc.position()
                    ));
                }
                self.stand(other, &mut a);
            }
            // The script ended with the machine standing: the run ends at that stop.
            Some(StopReason::NotRunning) if self.script.is_some() && self.unattended => {
                a.end = Some(End::from_stop(self.stood, &self.m));
                return a;
            }
            Some(other) if self.unattended => {
                a.end = Some(End::from_stop(other, &self.m));
                return a;
            }
            // Someone at the window: the machine stands for them.
            Some(StopReason::NotRunning) => {}
            Some(other) => self.stand(other, &mut a),
        }

        self.poll_reader();
        let input_done = match self.keys.as_mut() {
            None => true,
            Some(k) => {
                let p = k.poll();
                if p.interrupted {
                    a.end = Some(End::Interrupted);
                    return a;
                }
                self.typist.push(p.keys);
                p.done
            }
        };
        self.type_keys();
        if self.idle_ends {
            if let Some(end) = self.idle_end(input_done, &mut a) {
                a.end = Some(end);
            }
        }
        a
    }

    /// The machine stopped by itself at `stop`: it stands at the console (a breakpoint
    /// leaves the processor running; the operator's CONTINUE resumes past it).
    fn stand(&mut self, stop: StopReason, a: &mut Advance) {
        self.stood = stop;
        self.held = false;
        if self.m.running() {
            self.m.stop();
        }
        a.stop = Some(Stop::Machine(stop));
    }

    /// The end rules of a run nobody types into: the program has waited a second for a key
    /// with nothing left to type, or with a key struck that it does not take.
    fn idle_end(&mut self, input_done: bool, a: &mut Advance) -> Option<End> {
        let since = self.m.key_wait_since()?;
        let waited = self.m.time_ns().saturating_sub(since) >= IDLE_NS;
        if waited && input_done && self.typist.remaining() == 0 && !self.m.key_pending() {
            match self.script.as_ref().filter(|sc| !sc.done()) {
                // Time passes for a time wait; the script may type later.
                Some(sc) if sc.deadline().is_some() => {}
                Some(sc) => {
                    a.notes.push(format!(
                        "warning: {} waits, but the program waits for a key with nothing \
                         left to type; the run ends",
                        sc.position()
                    ));
                    return Some(End::Idle);
                }
                None => return Some(End::Idle),
            }
        }
        // Waiting for a key while one sits untaken in the buffer (the program polls its
        // flag, which was cleared after the key was struck): nothing will ever change.
        if waited && self.m.key_pending() {
            a.notes.push(format!(
                "warning: the program waits for a key but does not take the one struck \
                 ({} more not typed)",
                self.typist.remaining()
            ));
            return Some(End::Idle);
        }
        None
    }

    /// The script's actions that are due, each done by the console method it names.
    fn script_act(&mut self, a: &mut Advance) {
        let Some(mut sc) = self.script.take() else {
            return;
        };
        self.by_script = true;
        self.script_started = false;
        while let Some(action) = sc.next_due(&self.m) {
            self.act(action, &mut a.script_out);
        }
        self.by_script = false;
        // (START, CONTINUE or READ IN: the stop is over — even if a later action stopped it
        // again.)
        a.started = self.script_started;
        self.script = Some(sc);
    }

    /// Do one console action (a script's line): the same methods the window's keys call.
    /// `examine` lines go to `out`.
    pub fn act(&mut self, action: Action, out: &mut Vec<String>) {
        match action {
            Action::TestWord(w) => self.set_test_word(w),
            Action::SenseSwitches(s) => self.set_sense_switches(s),
            Action::TestAddress(a) => self.set_test_address(a),
            Action::Start(a) => {
                if let Some(a) = a {
                    self.set_test_address(a);
                }
                self.start(false);
            }
            Action::Stop => self.stop(),
            Action::Continue => self.cont(),
            Action::ReadIn => {
                self.read_in();
            }
            // (Checked against the memory size before the run.)
            Action::Deposit(a, w) => self.deposit_at(a, w),
            Action::Examine(a, b) => out.extend(self.examine_lines(a, b)),
            Action::Mount { path, frames } => {
                self.mount_frames(frames, &crate::tape::file_name(&path));
            }
            Action::Punch(path) => self.punch_to(path),
            Action::Type(keys) => self.typist.push(keys),
            // (The script keeps its waits: `Script::next_due` never hands them out.)
            Action::WaitHalt | Action::WaitTime(_) | Action::WaitText(_) | Action::WaitTape => {}
        }
    }

    /// Run within `limit` one instruction at a time: a trace line each (and one for each
    /// sequence-break entry), and the write watches checked after each. Each step is the
    /// machine's own run loop limited to one instruction (`run_until_break_entry`, which also
    /// stops before a sequence-break entry, taken as a step of its own), so a stopped machine
    /// stays stopped and breakpoints, halts and I/O waits end the run exactly as they do
    /// without the trace. Returns the watched address written, if a watch stopped the
    /// machine; the machine's stop goes into `a.stop`.
    fn run_stepwise(&mut self, limit: Limit, a: &mut Advance) -> Option<u32> {
        let start_instructions = self.m.instructions();
        let stop = loop {
            let left = match limit.instructions {
                Some(n) => {
                    let done = self.m.instructions() - start_instructions;
                    if done >= n {
                        break StopReason::InstructionLimit;
                    }
                    n - done
                }
                None => u64::MAX,
            };
            if self.m.reading_in() {
                // READ IN: one word pair at a time (no instruction runs until the tape's jmp).
                if limit.until_ns.is_some_and(|t| self.m.time_ns() >= t) {
                    break StopReason::TimeLimit;
                }
                match self.m.step_instruction() {
                    StopReason::Stepped => continue,
                    other => break other,
                }
            }
            let pc = self.m.pc();
            let word = self.m.read(pc).unwrap_or(Word::ZERO);
            let count = self.m.instructions();
            let stop = self.m.run_until_break_entry(Limit {
                until_ns: limit.until_ns,
                instructions: Some(left.min(1)),
            });
            if self.m.instructions() > count {
                if self.tracing {
                    let line = Tracer::line(&self.m, pc, word, self.symbols.as_ref());
                    self.emit_trace(line, true, a);
                }
                if let Some(w) = watch_hit(&self.m, &self.watches) {
                    self.m.stop();
                    return Some(w);
                }
            }
            match stop {
                // A sequence break is next: its own line, then on to the routine.
                StopReason::Stepped => {
                    let line = Tracer::take_break(&mut self.m);
                    if self.tracing {
                        self.emit_trace(line, false, a);
                    }
                }
                StopReason::InstructionLimit => {}
                other => break other,
            }
        };
        a.stop = Some(Stop::Machine(stop));
        None
    }

    fn emit_trace(&mut self, line: String, instruction: bool, a: &mut Advance) {
        self.trace_line(&line);
        if self.echo_trace {
            a.trace.push(line);
            a.traced += u64::from(instruction);
        }
    }

    /// Count the limits from here (a restored state in the window).
    pub fn restart_counts(&mut self) {
        self.start_ns = self.m.time_ns();
        self.start_instructions = self.m.instructions();
    }

    /// Emulated time at which the time limit is reached.
    pub fn end_ns(&self) -> Option<u64> {
        self.plan.max_ns.map(|mx| self.start_ns.saturating_add(mx))
    }

    /// The `run_until` limit for running towards `until` ns: the time limit and the
    /// instructions left. `Err` with the limit when one is already reached.
    pub fn limit(&self, until: u64) -> Result<Limit, StopReason> {
        let m = &self.m;
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

    /// The run has limits: a scripted run, which also ends when the machine stops by itself.
    pub fn scripted(&self) -> bool {
        self.plan.max_ns.is_some() || self.plan.max_instructions.is_some()
    }

    /// After `run_until` stopped with `stop`: for one of the first `--continue-halts` halts,
    /// set the next `--halt-tw` test word and press CONTINUE; returns true then (the run goes
    /// on).
    pub fn continue_after(&mut self, stop: StopReason) -> bool {
        let m = &mut self.m;
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
    pub fn poll_reader(&mut self) {
        let was_read = self.feeder.first_tape_read();
        self.feeder.poll(&mut self.m);
        if self.feeder.first_tape_read() && !was_read {
            self.typist.hold_from(self.m.time_ns());
        }
    }

    /// The name of the tape in the reader, for the console's reader panel (a `--reader`
    /// tape or a script's `mount` changes it as the tape goes in).
    pub fn tape_in_reader(&self) -> &str {
        self.feeder.tape_in_reader()
    }

    /// A script's `mount`: these frames go into the reader in place of what is there (and of
    /// any `--reader` tape still to come), for READ IN or for the program.
    pub fn mount_frames(&mut self, frames: Vec<u8>, name: &str) {
        self.feeder.mount_frames(frames, name, &mut self.m);
    }

    /// The window's ctrl+O with a READ IN tape: the new boot tape, in place of the old one
    /// and any second tape. It waits at its leader for READ IN (issue 27): a load still going
    /// is stopped, so the old tape's loader does not read the new one. The machine is the one
    /// the tape's content asks for ([`crate::library::guess`]; powered on afresh, the
    /// console's switches kept, when it differs), with a known tape's EXTEND switch. Returns
    /// what the operator should be told, one clause each.
    pub fn mount_boot(&mut self, tape: &crate::tape::Tape, name: &str) -> Vec<String> {
        let mut said = Vec::new();
        if self.m.running() && self.feeder.boot_progress(&self.m).is_some() {
            self.stop();
            said.push("the load going on was stopped".to_owned());
        }
        let guess = crate::library::guess(&tape.frames);
        let (p, c) = (&guess.profile, self.m.config().clone());
        if (p.mul_div, p.memory_words, p.lai_lia, p.second_display)
            != (c.mul_div, c.memory_words, c.lai_lia, c.second_display)
        {
            let config = MachineConfig {
                mul_div: p.mul_div,
                memory_words: p.memory_words,
                lai_lia: p.lai_lia,
                second_display: p.second_display,
                ..c
            };
            if let Ok(mut fresh) = Machine::new(config) {
                let m = &self.m;
                fresh.set_test_word(m.test_word());
                fresh.set_sense_switches(m.sense_switches());
                fresh.set_test_address(m.test_address() & (p.memory_words as u32 - 1));
                fresh.set_extend_switch(m.extend_switch());
                fresh.idle_until(m.time_ns());
                self.restore(fresh);
                said.push(format!("the machine is now {}", p.options()));
            }
        }
        let extend = crate::library::recognise(&tape.frames).is_some_and(
            |k| matches!(k.what, crate::library::Use::Program { console, .. } if console.extend),
        );
        if extend && !self.m.extend_switch() {
            self.m.set_extend_switch(true);
            said.push("EXTEND switch on".to_owned());
        }
        self.feeder.mount_boot(tape, name, &mut self.m);
        said
    }

    /// The window's ctrl+O with any other file: a tape for the program to read.
    pub fn mount_data(&mut self, tape: &crate::tape::Tape, name: &str) {
        self.feeder.mount_data(tape, name, &mut self.m);
    }

    /// True once the boot tape has been read (or there was none): until then keys typed
    /// would reach the loader, not the program, and stay in the buffer for it.
    pub fn boot_tape_read(&self) -> bool {
        self.feeder.first_tape_read()
    }

    /// Strike the next key if it is due — never before the boot tape has been read (the
    /// program is not there yet).
    pub fn type_keys(&mut self) {
        if self.feeder.first_tape_read() {
            self.typist.poll(&mut self.m);
        }
    }

    /// A script's `punch FILE`: a fresh tape on the punch, written to FILE at the end of the
    /// run. (`--punch` still gets everything punched in the run.)
    pub fn punch_to(&mut self, path: PathBuf) {
        self.collect_punch();
        self.punch_files.push((path, self.punched.len()));
    }

    /// Keep what the punch punched (for `--punch` at the end).
    pub fn collect_punch(&mut self) {
        self.punched.extend(self.m.drain_punch());
    }

    /// Every frame punched in the run so far (with [`RunControl::collect_punch`] first, the
    /// latest too): a server hands the new ones on as they come.
    pub fn punched(&self) -> &[u8] {
        &self.punched
    }

    /// The run is over: the key source goes (a terminal gets its mode back).
    pub fn close_keys(&mut self) {
        self.keys = None;
    }

    /// The run is over: the trace is finished, and the result files are handed to the host
    /// to write, in this order: `--punch`, a script's `punch FILE`s, `--save-state`.
    /// (`--screenshot` comes after, from the driver; then [`RunControl::dump_lines`].)
    pub fn result_files(&mut self) -> Result<Vec<ResultFile>> {
        self.close_keys();
        self.collect_punch();
        if let Some(e) = self.trace_error.take() {
            return Err(e);
        }
        if let Some(t) = self.tracer.take() {
            t.finish()?;
        }
        let mut files = Vec::new();
        if let Some(path) = &self.plan.punch {
            files.push(ResultFile::Punch(path.clone(), self.punched.clone()));
        }
        for (i, (path, from)) in self.punch_files.iter().enumerate() {
            let to = self
                .punch_files
                .get(i + 1)
                .map_or(self.punched.len(), |n| n.1);
            files.push(ResultFile::Punch(
                path.clone(),
                self.punched[*from..to].to_vec(),
            ));
        }
        if let Some(path) = &self.plan.save_state {
            files.push(ResultFile::State(
                path.clone(),
                crate::state::to_ron(&self.m)?,
            ));
        }
        Ok(files)
    }

    /// `--registers` and `--examine`: the lines for stderr.
    pub fn dump_lines(&self) -> Vec<String> {
        let m = &self.m;
        let mut lines = Vec::new();
        if self.plan.registers {
            lines.push(registers_line(m));
        }
        for &(a, b) in &self.plan.examine {
            lines.extend(examine_lines(m, a, b));
        }
        lines
    }
}

/// A file the run leaves for the host to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultFile {
    /// Punched frames (`--punch`, a script's `punch FILE`).
    Punch(PathBuf, Vec<u8>),
    /// The machine state as RON text (`--save-state`).
    State(PathBuf, String),
}

/// The watched address the instruction just completed wrote, if any: its opcode (`ir`, the
/// instruction's top five bits) stores into memory and its last address `ma` is watched.
pub fn watch_hit(m: &Machine, watches: &BTreeSet<u32>) -> Option<u32> {
    // dac dap dip dio dzm idx isp, and jda/cal (17/16: ir 7).
    const STORES: [u32; 8] = [0o12, 0o13, 0o14, 0o15, 0o16, 0o22, 0o23, 0o07];
    (STORES.contains(&m.ir()) && watches.contains(&m.ma())).then(|| m.ma())
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

    /// A controller over `words`, with no tape and `typist`, started at 100.
    fn started(words: &[(u32, u32)], typist: Typist) -> RunControl {
        let mut rc = RunControl::new(
            RunPlan::default(),
            Feeder::new(None, &[]),
            typist,
            machine(words),
        );
        rc.set_test_address(0o100);
        rc.start(false);
        rc
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
        let mut rc = RunControl::new(plan, Feeder::new(None, &[]), Typist::default(), m);
        let l = rc.limit(u64::MAX).unwrap();
        assert_eq!(l.instructions, Some(10));
        assert_eq!(l.until_ns, Some(rc.m.time_ns() + 1_000_000));
        assert_eq!(rc.m.run_until(l), StopReason::InstructionLimit);
        assert_eq!(rc.m.instructions(), 50);
        assert_eq!(rc.limit(u64::MAX), Err(StopReason::InstructionLimit));
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
        let mut rc = RunControl::new(plan, Feeder::new(None, &[]), Typist::default(), m);
        let mut acs = Vec::new();
        loop {
            let stop = rc.m.run_until(rc.limit(u64::MAX).unwrap());
            acs.push(rc.m.ac().bits());
            if !rc.continue_after(stop) {
                assert_eq!(stop, StopReason::Halted);
                break;
            }
        }
        // The last test word stays for the second CONTINUE too; the third halt ends the run.
        assert_eq!(acs, vec![0, 7, 7]);
        assert_eq!(rc.m.pc(), 0o106);
    }

    /// Issue 25, one typist: a person's key at the window and the patient `--type` keys share
    /// one case tracker — the person's `A` shifts up (and waits for the program to take the
    /// shift), the `--type` key `b` waits for the person's held key and then shifts back
    /// down — and are struck through the controller alone.
    #[test]
    fn the_person_and_the_patient_keys_share_one_typist() {
        // 100: szf i 1 / 101: jmp 100 / 102: tyi / 103: jmp 100 — takes every key.
        let typist = Typist::new(crate::keyboard::parse_typed("b").unwrap(), true);
        let mut rc = started(
            &[
                (0o100, 0o650001),
                (0o101, 0o600100),
                (0o102, 0o720004),
                (0o103, 0o600100),
            ],
            typist,
        );
        rc.type_char('A');
        let mut struck = Vec::new();
        for i in 1..=100 {
            let a = rc.advance(i * SLICE_NS);
            struck.extend(a.typed.iter().filter(|e| e.local).map(|e| e.code));
        }
        assert_eq!(struck, vec![0o74, 0o61, 0o72, 0o62]);
        assert_eq!(rc.typist().remaining(), 0);
        assert_eq!(rc.typist().overruns, 0);
    }

    /// Issue 25: STOP from someone at the console makes the machine stand for them; a
    /// script's STOP does not (the run's end rules go on), and START ends either.
    #[test]
    fn a_scripts_stop_is_not_the_operators() {
        let mut rc = started(&[(0o100, 0o600100)], Typist::default());
        rc.stop();
        assert!(rc.held && !rc.machine().running());
        rc.start(false);
        assert!(!rc.held && rc.machine().running());
        rc.by_script = true;
        rc.act(Action::Stop, &mut Vec::new());
        assert!(!rc.held && !rc.machine().running());
    }

    /// Issue 27: once the program has asked for a key, it thinks while it runs without asking;
    /// a space struck then waits for its next question instead of landing in the buffer.
    #[test]
    fn a_space_struck_while_the_program_thinks_waits_for_its_question() {
        // 100: szf i 1 / 101: jmp 100 / 102: tyi / 103: isp 200 / 104: jmp 103 (4095 times,
        // about 60 ms of thought) / 105: law i 7777 / 106: dac 200 / 107: jmp 100.
        let words = [
            (0o100, 0o650001),
            (0o101, 0o600100),
            (0o102, 0o720004),
            (0o103, 0o460200),
            (0o104, 0o600103),
            (0o105, 0o717777),
            (0o106, 0o240200),
            (0o107, 0o600100),
            (0o200, 0o770000),
        ];
        let mut rc = started(&words, Typist::new(Vec::new(), true));
        let mut spaces = 0;
        let mut go = |rc: &mut RunControl, until: u64| {
            let a = rc.advance(until);
            spaces += a.typed.iter().filter(|e| e.local && e.code == 0).count();
            spaces
        };
        go(&mut rc, 1_000_000);
        assert!(!rc.thinking(), "it asks");
        rc.type_char(' ');
        assert_eq!(go(&mut rc, 5_000_000), 1);
        assert!(rc.thinking());
        rc.type_char(' ');
        assert!(rc.typist().space_held());
        assert_eq!(go(&mut rc, 20_000_000), 1, "held while it thinks");
        assert!(rc.thinking());
        let mut t = 20_000_000;
        while rc.typist().space_held() && t < 1_000_000_000 {
            t += 1_000_000;
            go(&mut rc, t);
        }
        assert_eq!(
            go(&mut rc, t + 1_000_000),
            1,
            "not struck when it asked again"
        );
        assert_eq!((rc.typist().overruns, rc.typist().spaces_ignored), (0, 1));
    }
}
