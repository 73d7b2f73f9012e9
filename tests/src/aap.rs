//! aap's pulse-level PDP-1 model as a differential oracle, cycle by cycle (issue 31).
//!
//! The model (Angelo Papenhoff's `aap/blincolnlights`, `pdp1/pdp1.c`, MIT) is not in this
//! repository: `AAP_PDP1_SRC` names the `pdp1` directory of a checkout (with `common.c` and
//! `pollfd.c` one level up). [`build`] compiles it with our driver (`tests/aap/driver.c`)
//! into a directory of the caller's, with the system C compiler (`cc`); the driver speaks a
//! small text protocol on stdin/stdout (see the driver's header). [`ours`] runs the same
//! [`Case`] on pdp1-core one memory cycle at a time ([`Machine::step_cycle`], SINGLE STEP),
//! and [`compare`] holds the two machines' registers and flip-flops equal after every cycle
//! and the memory at the end. docs/testing.md, "aap's pulse-level model", has the rules and
//! the documented differences.

use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The environment variable naming the model's `pdp1` source directory.
pub const SRC_VAR: &str = "AAP_PDP1_SRC";

/// The driver's corrections (its `corrections` bits): documented differences bridged on the
/// model's side so that the rest can be compared — the punch status bit cleared when the
/// line is punched, pdp1's typewriter times, the reader's break request only without a
/// completion pulse, the reader's lines one line time apart, a punched line 1/63 s (see
/// the driver's header), a `dpy` restarting the display's timing.
const CORRECTIONS: u32 = 63;

/// The model's source directory, if `AAP_PDP1_SRC` names one with `pdp1.c` in it.
pub fn source() -> Result<PathBuf, String> {
    let dir = std::env::var_os(SRC_VAR).ok_or_else(|| format!("{SRC_VAR} is not set"))?;
    let dir = PathBuf::from(dir);
    for f in [
        "pdp1.c",
        "pdp1.h",
        "../common.c",
        "../pollfd.c",
        "../common.h",
    ] {
        if !dir.join(f).is_file() {
            return Err(format!("{SRC_VAR}={}: no {f} there", dir.display()));
        }
    }
    Ok(dir)
}

/// Compile the model with our driver into `out` (the model's checkout is only read).
pub fn build(src: &Path, out: &Path) -> Result<PathBuf, String> {
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("aap/driver.c");
    let exe = out.join("aap-pdp1-driver");
    let o = Command::new("cc")
        .args(["-O2", "-w", "-o"])
        .arg(&exe)
        .arg(format!("-I{}", src.display()))
        .arg(format!("-I{}", src.join("..").display()))
        .arg(&driver)
        .arg(src.join("pdp1.c"))
        .arg(src.join("../common.c"))
        .arg(src.join("../pollfd.c"))
        .args(["-lpthread", "-lm"])
        .output()
        .map_err(|e| format!("cc: {e}"))?;
    if !o.status.success() {
        return Err(format!("cc failed: {}", String::from_utf8_lossy(&o.stderr)));
    }
    Ok(exe)
}

/// One program for both machines: options, registers at START, core, the reader's tape,
/// and how many memory cycles to run.
#[derive(Clone, Debug)]
pub struct Case {
    /// What kind of program (for the figures).
    pub kind: &'static str,
    pub seed: u64,
    pub sbs16: bool,
    pub mul_div: bool,
    /// START with sequence-break mode on.
    pub sbm: bool,
    pub extend: bool,
    pub cycles: u64,
    pub pc: u32,
    pub ac: u32,
    pub io: u32,
    pub ov: bool,
    pub pf: u8,
    pub ss: u8,
    pub tw: u32,
    pub words: BTreeMap<u32, u32>,
    pub tape: Vec<u8>,
}

/// MB is not compared after the Type 10 option's long execute cycle, where the model leaves
/// its working value in MB.
pub const SKIP_MB: u8 = 1;
/// AC and IO are not compared after a shift's cycle: the model shifts through the cycle's
/// last five time pulses (TP7–TP10, one step for each of count bits 17–13) and finishes in
/// the first four of the next cycle (TP0–TP3, bits 12–9), as the logic does; they are
/// compared after that cycle.
pub const SKIP_ACIO: u8 = 2;

/// PC is not compared (see `compare`: a stop with a break decided in its cycle).
pub const SKIP_PC: u8 = 4;

impl Case {
    /// `p` as a case of `kind` for `cycles` cycles: no sequence-break mode, one channel, no
    /// tape (the caller changes what its kind needs).
    pub fn new(kind: &'static str, p: crate::randprog::Program, cycles: u64) -> Case {
        Case {
            kind,
            seed: p.seed,
            sbs16: false,
            mul_div: p.setup.mdv,
            sbm: false,
            extend: p.extend,
            cycles,
            pc: p.pc,
            ac: p.ac,
            io: p.io,
            ov: p.ov,
            pf: p.pf,
            ss: p.ss,
            tw: p.tw,
            words: p.words,
            tape: Vec::new(),
        }
    }
}

/// What both machines show after a memory cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub time: u64,
    pub pc: u32,
    pub ac: u32,
    pub io: u32,
    pub ma: u32,
    pub mb: u32,
    pub ir: u32,
    pub ov: bool,
    pub pf: u8,
    /// The next cycle: F fetch, D defer, E execute, B break.
    pub next: char,
    pub ios: bool,
    pub ioh: bool,
    pub sbm: bool,
    /// Break channels enabled (Type 120), requested, in progress (bit n = channel n; bit 0
    /// alone with one channel).
    pub enabled: u16,
    pub requested: u16,
    pub active: u16,
    pub extend: bool,
    pub run: bool,
}

/// Our run of a case: the state after each step (a break entry, three cycles, is one step:
/// `cycles` says how many cycles each took), how it ended, and the memory.
pub struct OurRun {
    pub steps: Vec<(u64, State)>,
    pub stop: Option<StopReason>,
    /// What is not compared after each step ([`SKIP_MB`], [`SKIP_ACIO`]).
    pub skip: Vec<u8>,
    pub mem: BTreeMap<u32, u32>,
    /// Where each break entry was decided: (the cycle kind that decided it, the opcode).
    pub breaks: Vec<(char, u32)>,
    pub machine: Machine,
}

fn kind(m: &Machine) -> char {
    match m.next_cycle() {
        "fetch" => 'F',
        "defer" => 'D',
        "execute" => 'E',
        "break entry" => 'B',
        _ => '?',
    }
}

fn state(m: &Machine) -> State {
    let (sbm, enabled, requested, active) = if m.config().sbs16 {
        let (e, r, a) = m.sequence_break_channels();
        (m.sequence_break().0, e, r, a)
    } else {
        let (mode, req, ip) = m.sequence_break();
        (mode, 0, u16::from(req), u16::from(ip))
    };
    State {
        time: m.time_ns(),
        pc: m.pc(),
        ac: m.ac().bits(),
        io: m.io().bits(),
        ma: m.ma(),
        mb: m.mb().bits(),
        ir: m.ir(),
        ov: m.ov(),
        pf: m.pf(),
        next: kind(m),
        ios: m.io_sync(),
        ioh: m.io_halt(),
        sbm,
        enabled,
        requested,
        active,
        extend: m.extend_mode(),
        run: m.running(),
    }
}

/// The case loaded into a fresh pdp1-core machine and STARTed: 64K words and the PDP-1D
/// operate bits, as the model has them.
pub fn machine(c: &Case) -> Machine {
    let mut m = Machine::new(MachineConfig {
        memory_words: 65536,
        mul_div: c.mul_div,
        lai_lia: true,
        sbs16: c.sbs16,
        ..MachineConfig::default()
    })
    .expect("64K is a valid memory size");
    for (&a, &w) in &c.words {
        m.write(a, Word::new(w)).expect("address inside memory");
    }
    if !c.tape.is_empty() {
        m.mount_tape(c.tape.clone());
    }
    m.set_test_address(c.pc);
    m.set_extend_switch(c.extend);
    m.set_sense_switches(c.ss);
    m.set_test_word(Word::new(c.tw));
    m.start(c.sbm);
    m.set_ac(Word::new(c.ac));
    m.set_io(Word::new(c.io));
    m.set_ov(c.ov);
    m.set_pf(c.pf);
    m
}

fn memory(m: &Machine) -> BTreeMap<u32, u32> {
    m.memory()
        .iter()
        .enumerate()
        .filter(|(_, w)| w.bits() != 0)
        .map(|(a, w)| (a as u32, w.bits()))
        .collect()
}

/// Run the case on pdp1-core one step at a time until `c.cycles` cycles have passed or the
/// machine stops.
pub fn ours(c: &Case) -> OurRun {
    let mut m = machine(c);
    let mut steps = Vec::new();
    let mut skip = Vec::new();
    let mut breaks = Vec::new();
    let mut stop = None;
    let mut prev = ('F', 0);
    while m.cycles() < c.cycles {
        let before = kind(&m);
        let c0 = m.cycles();
        if before == 'B' {
            breaks.push(prev);
        }
        let r = m.step_cycle();
        prev = (before, m.ir());
        let long = before == 'E' && c.mul_div && matches!(m.ir(), 0o26 | 0o27);
        let shift = before != 'B' && m.ir() == 0o33;
        steps.push((m.cycles() - c0, state(&m)));
        skip.push(if long { SKIP_MB } else { 0 } | if shift { SKIP_ACIO } else { 0 });
        if r != StopReason::Stepped {
            stop = Some(r);
            break;
        }
    }
    OurRun {
        steps,
        stop,
        skip,
        mem: memory(&m),
        breaks,
        machine: m,
    }
}

/// The model's run of a case: its state after every cycle and its memory — or `None` when
/// it crashed (no reference).
pub type ModelRun = Option<(Vec<State>, BTreeMap<u32, u32>)>;

/// Run `cases` on the model (one driver process), each for the cycles given.
pub fn model(exe: &Path, cases: &[(&Case, u64)]) -> Result<Vec<ModelRun>, String> {
    let mut input = String::new();
    for (c, cycles) in cases {
        let _ = writeln!(
            input,
            "P {:o} {:o} {:o} {:o} {} {:o} {:o} {:o} {:o} {:o} {:o} {:o} {:o}",
            u8::from(c.sbs16),
            u8::from(c.mul_div),
            u8::from(c.sbm),
            u8::from(c.extend),
            cycles,
            c.pc,
            c.ac,
            c.io,
            u8::from(c.ov),
            c.pf,
            c.ss,
            c.tw,
            CORRECTIONS
        );
        let _ = write!(input, "M {:o}", c.words.len());
        for (a, w) in &c.words {
            let _ = write!(input, " {a:o} {w:o}");
        }
        let _ = write!(input, "\nT {:o}", c.tape.len());
        for f in &c.tape {
            let _ = write!(input, " {f:o}");
        }
        input.push_str("\nG\n");
    }
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = BufReader::new(child.stdout.take().expect("piped"));
    let mut runs = Vec::new();
    let mut states = Vec::new();
    let mut mem = BTreeMap::new();
    for line in out.lines() {
        let line = line.map_err(|e| format!("driver output: {e}"))?;
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.first().copied() {
            Some("C") => states.push(parse_state(&f).ok_or(format!("bad line: {line}"))?),
            Some("W") if f.len() == 3 => {
                let a = oct(f[1]).ok_or(format!("bad line: {line}"))?;
                mem.insert(a, oct(f[2]).ok_or(format!("bad line: {line}"))?);
            }
            Some("E") => runs.push(Some((
                std::mem::take(&mut states),
                std::mem::take(&mut mem),
            ))),
            Some("X") => {
                states.clear();
                mem.clear();
                runs.push(None);
            }
            // The model's own messages ("unknown IOT …").
            _ => {}
        }
    }
    let _ = writer.join();
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() || runs.len() != cases.len() {
        return Err(format!(
            "driver ended with {status} after {} of {} programs",
            runs.len(),
            cases.len()
        ));
    }
    Ok(runs)
}

fn oct(s: &str) -> Option<u32> {
    u32::from_str_radix(s, 8).ok()
}

fn parse_state(f: &[&str]) -> Option<State> {
    if f.len() != 20 {
        return None;
    }
    let o = |i: usize| oct(f[i]);
    let b = |i: usize| oct(f[i]).map(|v| v != 0);
    Some(State {
        time: f[1].parse().ok()?,
        pc: o(2)?,
        ac: o(3)?,
        io: o(4)?,
        ma: o(5)?,
        mb: o(6)?,
        ir: o(7)?,
        ov: b(8)?,
        pf: o(9)? as u8,
        next: f[10].chars().next()?,
        ios: b(11)?,
        ioh: b(12)?,
        sbm: b(13)?,
        enabled: o(14)? as u16,
        // One channel: b2 the request, b3 its synchronised copy (kept while the break is in
        // progress), b4 the break in progress; Type 120: b2 and b3 per channel, disjoint.
        requested: 0,
        active: o(17)? as u16,
        extend: b(18)?,
        run: b(19)?,
    })
    .map(|mut s| {
        let (b2, b3) = (
            oct(f[15]).unwrap_or(0) as u16,
            oct(f[16]).unwrap_or(0) as u16,
        );
        s.requested = b2 | (b3 & !s.active);
        s
    })
}

/// How one program compared.
pub enum Outcome {
    Agree,
    /// Agree up to a documented difference, named, where the comparison ends.
    Documented(&'static str),
    /// The model crashed: no reference.
    NoReference,
    Differ(String),
}

/// Where a field of the two states differs (MB left out after the Type 10 long cycle, the
/// run flag after a stop that is a documented difference).
fn field_diffs(
    ours: &State,
    theirs: &State,
    skip: u8,
    skip_run: bool,
    stopped: bool,
) -> Vec<String> {
    let mut d = Vec::new();
    macro_rules! f {
        ($name:ident, $fmt:literal) => {
            if ours.$name != theirs.$name {
                d.push(format!(
                    concat!(stringify!($name), " ours ", $fmt, " aap ", $fmt),
                    ours.$name, theirs.$name
                ));
            }
        };
    }
    f!(time, "{}");
    if skip & SKIP_PC == 0 {
        f!(pc, "{:o}");
    }
    if skip & SKIP_ACIO == 0 {
        f!(ac, "{:06o}");
        f!(io, "{:06o}");
    }
    f!(ma, "{:o}");
    if skip & SKIP_MB == 0 {
        f!(mb, "{:06o}");
    }
    f!(ir, "{:o}");
    f!(ov, "{}");
    f!(pf, "{:o}");
    if !stopped {
        f!(next, "{}");
    }
    f!(ios, "{}");
    f!(ioh, "{}");
    f!(sbm, "{}");
    f!(enabled, "{:o}");
    f!(requested, "{:o}");
    f!(active, "{:o}");
    f!(extend, "{}");
    if !skip_run {
        f!(run, "{}");
    }
    d
}

/// A documented stop: pdp1 stops where the model goes on (docs/testing.md).
fn documented_stop(r: &StopReason) -> Option<&'static str> {
    match r {
        StopReason::IoHang { .. } => Some("I/O wait nothing can end: pdp1 stops (I/O hang)"),
        StopReason::UndefinedInstruction { word, .. } if word.bits() >> 13 == 0o33 => {
            Some("undefined shift sub-code: pdp1 stops")
        }
        _ => None,
    }
}

/// Compare our run with the model's, cycle by cycle, and the memory at the end.
pub fn compare(c: &Case, ours: &OurRun, theirs: &ModelRun) -> Outcome {
    let Some((states, mem)) = theirs else {
        return Outcome::NoReference;
    };
    let mut k = 0usize;
    let mut documented = ours.stop.as_ref().and_then(documented_stop);
    for (i, (n, s)) in ours.steps.iter().enumerate() {
        k += *n as usize;
        let last = i + 1 == ours.steps.len();
        let Some(t) = states.get(k - 1) else {
            return Outcome::Differ(format!(
                "{}: aap stopped after {} cycles, ours runs on (step {i})\n{}",
                header(c),
                states.len(),
                trail(ours, states, i)
            ));
        };
        // (A stopped machine's next cycle is not compared: after an undefined instruction
        // reached through `xct` the model is set for an execute cycle that never comes.)
        let stopped = last && ours.stop.is_some();
        // A stop (hlt, an undefined opcode) in a cycle that synchronised a break request:
        // the model also decides the break there (and cancels an undefined opcode below 30,
        // backing PC up); pdp1 stops first and decides after CONTINUE. PC is then not
        // compared either.
        let break_at_stop = stopped && t.next == 'B';
        if break_at_stop {
            documented = documented.or(Some("a stop with a break decided in its cycle"));
        }
        let skip = ours.skip[i] | if break_at_stop { SKIP_PC } else { 0 };
        let d = field_diffs(s, t, skip, last && documented.is_some(), stopped);
        if !d.is_empty() {
            return Outcome::Differ(format!(
                "{}: after cycle {k} (step {i}): {}\n{}",
                header(c),
                d.join(", "),
                trail(ours, states, i)
            ));
        }
    }
    if k != states.len() {
        return Outcome::Differ(format!(
            "{}: ours ran {k} cycles, aap {}\n{}",
            header(c),
            states.len(),
            trail(ours, states, ours.steps.len().saturating_sub(1))
        ));
    }
    if ours.mem != *mem {
        let diff: Vec<String> = ours
            .mem
            .keys()
            .chain(mem.keys())
            .filter(|a| ours.mem.get(a) != mem.get(a))
            .take(8)
            .map(|a| {
                format!(
                    "{a:o}: ours {:06o} aap {:06o}",
                    ours.mem.get(a).unwrap_or(&0),
                    mem.get(a).unwrap_or(&0)
                )
            })
            .collect();
        return Outcome::Differ(format!(
            "{}: memory differs: {}",
            header(c),
            diff.join(", ")
        ));
    }
    match documented {
        Some(d) => Outcome::Documented(d),
        None => Outcome::Agree,
    }
}

fn header(c: &Case) -> String {
    // The break vectors, routines and prologue say which devices the program drives.
    let io: Vec<String> = c
        .words
        .range(0..0o100)
        .chain(c.words.range(0o600..0o720))
        .map(|(a, w)| format!("{a:o}:{w:06o}"))
        .collect();
    format!(
        "{} seed {} (sbs16 {}, mdv {}, sbm {}, extend {}; {})",
        c.kind,
        c.seed,
        c.sbs16,
        c.mul_div,
        c.sbm,
        c.extend,
        io.join(" ")
    )
}

/// The last few steps before step `i` on both sides, for a failure report.
fn trail(ours: &OurRun, states: &[State], i: usize) -> String {
    let mut s = String::new();
    let mut k = 0usize;
    // `AAP_DIFF_TRAIL`: how many steps before the difference to show (default 6).
    let n = std::env::var("AAP_DIFF_TRAIL")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let from = i.saturating_sub(n);
    for (j, (n, o)) in ours.steps.iter().enumerate().take(i + 1) {
        k += *n as usize;
        if j >= from {
            let _ = writeln!(s, "  ours {k:5}: {}", show(o));
            if let Some(t) = states.get(k - 1) {
                let _ = writeln!(s, "  aap  {k:5}: {}", show(t));
            }
        }
    }
    s
}

fn show(s: &State) -> String {
    format!(
        "t={} pc={:o} ac={:06o} io={:06o} ma={:o} mb={:06o} ir={:o} ov={} pf={:o} next={} ios={} ioh={} sbm={} en={:o} req={:o} act={:o} ext={} run={}",
        s.time, s.pc, s.ac, s.io, s.ma, s.mb, s.ir, u8::from(s.ov), s.pf, s.next,
        u8::from(s.ios), u8::from(s.ioh), u8::from(s.sbm), s.enabled, s.requested, s.active,
        u8::from(s.extend), u8::from(s.run)
    )
}

/// The fast run loop (`run_until`) on the same case, to the end of the instruction where the
/// cycle-by-cycle run ended: the same registers, counts and memory (`None`), or what differs.
pub fn fast_agrees(c: &Case, ours: &OurRun) -> Option<String> {
    let mut slow = ours.machine.clone();
    let stop = match &ours.stop {
        Some(r) => Some(*r),
        None => {
            // Finish the instruction in progress (a break entry is decided: take it too).
            let mut r = None;
            while slow.next_cycle() != "fetch" {
                let s = slow.step_cycle();
                if s != StopReason::Stepped {
                    r = Some(s);
                    break;
                }
            }
            r
        }
    };
    let mut fast = machine(c);
    let r = match &stop {
        Some(_) => fast.run_until(Limit::default()),
        None => fast.run_until(Limit {
            until_ns: Some(slow.time_ns()),
            instructions: None,
        }),
    };
    let want = stop.unwrap_or(StopReason::TimeLimit);
    let (a, b) = (state(&slow), state(&fast));
    let same = r == want
        && a == b
        && slow.cycles() == fast.cycles()
        && slow.instructions() == fast.instructions()
        && memory(&slow) == memory(&fast);
    (!same).then(|| {
        format!(
            "{}: fast path {r:?} after {} cycles / {} instructions, cycle path {want:?} after {} / {}\n  cycle {}\n  fast  {}",
            header(c),
            fast.cycles(),
            fast.instructions(),
            slow.cycles(),
            slow.instructions(),
            show(&a),
            show(&b)
        )
    })
}
