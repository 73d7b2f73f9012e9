//! Helpers shared by the core's integration tests: build a machine from octal words, run or
//! step it, and measure what one instruction cost.
#![allow(dead_code)]

pub use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};

pub fn w(v: u32) -> Word {
    Word::new(v)
}

/// A 4K machine (or `cfg`) with `(address, word)` pairs deposited.
pub fn machine_cfg(cfg: MachineConfig, words: &[(u32, u32)]) -> Machine {
    let mut m = Machine::new(cfg).expect("config");
    for &(a, v) in words {
        m.write(a, w(v)).expect("address");
    }
    m
}

/// An 8K machine: memory fields 0 and 1 (Type 15).
pub fn eight_k() -> MachineConfig {
    MachineConfig {
        memory_words: 8192,
        ..Default::default()
    }
}

pub fn machine(words: &[(u32, u32)]) -> Machine {
    machine_cfg(MachineConfig::default(), words)
}

/// START at `pc` (sequence break off) and run for at most `n` instructions.
pub fn run_from(m: &mut Machine, pc: u32, n: u64) -> StopReason {
    m.set_test_address(pc);
    m.start(false);
    m.run_until(Limit {
        until_ns: None,
        instructions: Some(n),
    })
}

/// What one instruction did: its stop reason, memory cycles and emulated ns.
pub struct Step {
    pub stop: StopReason,
    pub cycles: u64,
    pub ns: u64,
}

/// Execute the single instruction at `pc` with AC/IO preset.
pub fn step_at(m: &mut Machine, pc: u32, ac: u32, io: u32) -> Step {
    m.set_pc(pc);
    m.set_ac(w(ac));
    m.set_io(w(io));
    let (c0, t0) = (m.cycles(), m.time_ns());
    let stop = m.step_instruction();
    Step {
        stop,
        cycles: m.cycles() - c0,
        ns: m.time_ns() - t0,
    }
}

/// One instruction `word` placed at 100, executed with AC/IO preset; memory from `data`.
pub fn one(word: u32, ac: u32, io: u32, data: &[(u32, u32)]) -> (Machine, Step) {
    let mut m = machine(data);
    m.write(0o100, w(word)).unwrap();
    let s = step_at(&mut m, 0o100, ac, io);
    (m, s)
}

/// Frames of a word in RIM/`rpb` form: three lines of six bits, hole 8 punched.
pub fn frames(word: u32) -> [u8; 3] {
    [
        0o200 | ((word >> 12) & 0o77) as u8,
        0o200 | ((word >> 6) & 0o77) as u8,
        0o200 | (word & 0o77) as u8,
    ]
}

/// The one `not_run` of the workspace (crates/test-support).
#[allow(unused_imports)] // not every test binary has an oracle
pub use test_support::not_run;
