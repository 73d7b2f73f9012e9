//! Running one random program on our machine and on SIMH, and comparing the end states.

use crate::randprog::{Program, Setup};
use crate::simh::{Report, Script};
use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The state both machines are compared on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndState {
    /// Stop class: "limit", "halt", "undefined", "xct-limit", "indirect-limit", or what else
    /// happened.
    pub stop: String,
    pub ac: u32,
    pub io: u32,
    pub pc: u32,
    pub ov: bool,
    pub pf: u8,
    pub extend: bool,
    /// All non-zero memory words.
    pub mem: BTreeMap<u32, u32>,
}

/// The machine configuration matching SIMH's defaults for a setup (XCT_MAX = IND_MAX = 16).
pub fn config(setup: Setup) -> MachineConfig {
    MachineConfig {
        memory_words: setup.memory_words as usize,
        mul_div: setup.mdv,
        xct_limit: 16,
        indirect_limit: 16,
        ..MachineConfig::default()
    }
}

/// `p` loaded into a fresh pdp1-core machine, ready to run.
fn load(p: &Program) -> Machine {
    let mut m = Machine::new(config(p.setup)).expect("valid memory size");
    for (&a, &w) in &p.words {
        m.write(a, Word::new(w)).expect("address inside memory");
    }
    m.set_ac(Word::new(p.ac));
    m.set_io(Word::new(p.io));
    m.set_ov(p.ov);
    m.set_pf(p.pf);
    m.set_sense_switches(p.ss);
    m.set_test_word(Word::new(p.tw));
    m.set_extend_mode(p.extend);
    m.set_pc(p.pc);
    m.cont();
    m
}

/// The end state of `m`, stopped for `r`.
fn end_state(m: &Machine, r: StopReason) -> EndState {
    let stop = match r {
        StopReason::InstructionLimit => "limit".to_string(),
        StopReason::Halted => "halt".to_string(),
        StopReason::UndefinedInstruction { .. } => "undefined".to_string(),
        StopReason::XctLimit { .. } => "xct-limit".to_string(),
        StopReason::IndirectLimit { .. } => "indirect-limit".to_string(),
        other => format!("{other:?}"),
    };
    let mem = m
        .memory()
        .iter()
        .enumerate()
        .filter(|(_, w)| w.bits() != 0)
        .map(|(a, w)| (a as u32, w.bits()))
        .collect();
    EndState {
        stop,
        ac: m.ac().bits(),
        io: m.io().bits(),
        pc: m.pc(),
        ov: m.ov(),
        pf: m.pf(),
        extend: m.extend_mode(),
        mem,
    }
}

/// Run `p` on pdp1-core.
pub fn run_ours(p: &Program) -> EndState {
    let mut m = load(p);
    let r = m.run_until(Limit {
        until_ns: None,
        instructions: Some(p.steps),
    });
    end_state(&m, r)
}

/// The one place where pdp1-core deliberately differs from SIMH on these programs: a Type 10
/// `div` that overflows with AC = −0 (against a divisor of ±0) leaves AC +0 in pdp1-core, as
/// in aap's gate-level model of the divide flow chart, and −0 in SIMH, which returns before
/// touching the registers (docs/testing.md, pdp1-core `cpu.rs`). This runs `p` an
/// instruction at a time and, after each such divide, puts −0 back in AC as SIMH would: the
/// end state to compare with SIMH, and how many times that happened. Every other difference
/// still shows.
pub fn run_ours_with_simh_divide(p: &Program) -> (EndState, usize) {
    let mut m = load(p);
    let mut patched = 0;
    let r = loop {
        if m.instructions() >= p.steps {
            break StopReason::InstructionLimit;
        }
        let (ac, io, pc) = (m.ac().bits(), m.io().bits(), m.pc());
        let r = m.step_instruction();
        // A divide overflow: IR shows div (also through xct), no skip (the PC went on by
        // one: a divide that does not overflow always skips), IO kept, AC −0 became +0.
        let next = (pc & !0o7777) | ((pc + 1) & 0o7777);
        if p.setup.mdv
            && ac == 0o777777
            && m.ir() == 0o27
            && m.ac().bits() == 0
            && m.io().bits() == io
            && m.pc() == next
        {
            m.set_ac(Word::new(0o777777));
            patched += 1;
        }
        if r != StopReason::Stepped {
            break r;
        }
    };
    (end_state(&m, r), patched)
}

/// Append the commands that load, run and dump `p` as section `n` of a SIMH batch. The batch
/// must have been set up with [`batch_header`] for `p.setup`.
pub fn simh_commands(s: &mut Script, n: usize, p: &Program) {
    let top = p.setup.memory_words - 1;
    s.section(n);
    // Clearing all of memory costs SIMH ~5 ms per 8K; the programs only ever write inside
    // 0000–0777 of fields 0 and 1 (see `randprog`), so clear just that. The examine below
    // still covers all of memory, so a stray write anywhere shows up as a mismatch.
    for f in (0..p.setup.memory_words).step_by(0o10000) {
        s.fill(f, f + 0o777, 0);
    }
    for (&a, &w) in &p.words {
        s.deposit(a, w);
    }
    s.set_reg("ac", p.ac)
        .set_reg("io", p.io)
        .set_reg("ov", u32::from(p.ov))
        .set_reg("pf", u32::from(p.pf))
        .set_reg("ss", u32::from(p.ss))
        .set_reg("tw", p.tw)
        .set_reg("extm", u32::from(p.extend))
        .set_reg("pc", p.pc)
        .step(p.steps)
        .examine_regs(&["AC", "IO", "PC", "OV", "PF", "EXTM"])
        .examine_nonzero(0, top);
}

/// The commands that configure SIMH for a batch of programs with this setup. `stop_inst`
/// makes SIMH stop on undefined opcodes 05/06/17/36 and undefined shifts as the PDP-1C does
/// (its default is to treat them as no-ops).
pub fn batch_header(setup: Setup) -> Script {
    let mut s = Script::new();
    s.cmd(&format!("set cpu {}k", setup.memory_words / 1024))
        .cmd(if setup.mdv {
            "set cpu mdv"
        } else {
            "set cpu nomdv"
        })
        .cmd("set cpu pdp1c")
        .set_reg("stop_inst", 1);
    s
}

/// SIMH's end state from its report.
pub fn simh_state(r: &Report) -> Result<EndState, String> {
    let reg = |n: &str| {
        r.regs
            .get(n)
            .copied()
            .ok_or_else(|| format!("SIMH printed no {n}: {r:?}"))
    };
    let stop = match &r.stop {
        Some((m, _)) => match m.as_str() {
            "Step expired" => "limit".to_string(),
            "HALT instruction" => "halt".to_string(),
            "Undefined instruction" => "undefined".to_string(),
            "Nested XCT's" => "xct-limit".to_string(),
            "Nested indirect addresses" => "indirect-limit".to_string(),
            other => other.to_string(),
        },
        None => return Err(format!("SIMH printed no stop message: {r:?}")),
    };
    Ok(EndState {
        stop,
        ac: reg("AC")?,
        io: reg("IO")?,
        pc: reg("PC")?,
        ov: reg("OV")? != 0,
        pf: reg("PF")? as u8,
        extend: reg("EXTM")? != 0,
        mem: r.mem.clone(),
    })
}

/// A readable account of a mismatch: the program, its start state and both end states.
pub fn describe(p: &Program, ours: &EndState, simh: &EndState) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "seed {} (replay: SIMH_DIFF_SEED={} SIMH_DIFF_PROGRAMS=1), {} words, {}, extend {}, {} instructions",
        p.seed,
        p.seed,
        p.setup.memory_words,
        if p.setup.mdv { "mdv" } else { "nomdv" },
        p.extend,
        p.steps
    );
    let _ = writeln!(
        s,
        "start: pc={:06o} ac={:06o} io={:06o} ov={} pf={:02o} ss={:02o} tw={:06o}",
        p.pc, p.ac, p.io, p.ov as u8, p.pf, p.ss, p.tw
    );
    // Opcodes 54/56 are named as the program's machine has them (mul/div or mus/dis).
    let names = MachineConfig {
        mul_div: p.setup.mdv,
        ..MachineConfig::default()
    };
    for (&a, &w) in &p.words {
        let _ = writeln!(
            s,
            "  {a:06o}/ {w:06o}  {}",
            pdp1_asm::disasm::disassemble(Word::new(w), None, &names)
        );
    }
    let row = |e: &EndState| {
        format!(
            "stop={} pc={:06o} ac={:06o} io={:06o} ov={} pf={:02o} extm={}",
            e.stop, e.pc, e.ac, e.io, e.ov as u8, e.pf, e.extend as u8
        )
    };
    let _ = writeln!(s, "ours: {}", row(ours));
    let _ = writeln!(s, "simh: {}", row(simh));
    let addrs: std::collections::BTreeSet<u32> =
        ours.mem.keys().chain(simh.mem.keys()).copied().collect();
    for a in addrs {
        let (o, m) = (
            ours.mem.get(&a).copied().unwrap_or(0),
            simh.mem.get(&a).copied().unwrap_or(0),
        );
        if o != m {
            let _ = writeln!(s, "  memory {a:06o}: ours {o:06o} simh {m:06o}");
        }
    }
    s
}
