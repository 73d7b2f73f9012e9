//! The machine: registers, memory, devices, console and run control.
//!
//! THIS FILE IS THE PUBLIC CONTRACT other crates build against (written first, bodies filled in
//! by the core work). Keep the signatures; add to them freely.

use crate::word::Word;
use serde::{Deserialize, Serialize};

/// Fixed machine options, chosen before power-on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineConfig {
    /// Core memory in words: 4096 … 65536 in steps of 4096 (Type 15 extension above 4K).
    pub memory_words: usize,
    /// Type 10 multiply/divide installed (`mul`/`div`); otherwise opcodes 54/56 are `mus`/`dis`.
    pub mul_div: bool,
    /// Longest `xct` chain before the machine stops with [`StopReason::XctLimit`] (SIMH: 16).
    pub xct_limit: u32,
    /// Longest indirect chain before [`StopReason::IndirectLimit`] (guards `jmp i .` loops).
    pub indirect_limit: u32,
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig { memory_words: 4096, mul_div: false, xct_limit: 16, indirect_limit: 1000 }
    }
}

/// Errors from console operations given impossible arguments (not machine behaviour).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MachineError {
    #[error("memory size {0} words is not a multiple of 4096 between 4096 and 65536")]
    BadMemorySize(usize),
    #[error("address {addr:06o} is outside the {size}-word memory")]
    AddressOutOfRange { addr: u32, size: usize },
}

/// Why `run_until` (or a step) returned. Stop reasons are values, not errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    /// `hlt` executed; PC points after it.
    Halted,
    /// PC reached a breakpoint address (checked before the instruction there runs).
    Breakpoint(u32),
    /// Opcode 00, 05, 06, 17, 36 (or an undefined shift sub-code) at `pc`.
    UndefinedInstruction { pc: u32, word: Word },
    /// An I/O-wait IOT with no completion pulse pending or possible (SIMH: "I/O wait hang").
    IoHang { pc: u32, word: Word },
    /// `xct` chain longer than `MachineConfig::xct_limit`.
    XctLimit { pc: u32 },
    /// Indirect chain longer than `MachineConfig::indirect_limit`.
    IndirectLimit { pc: u32 },
    /// READ IN found something other than `dio`/`jmp`, or the tape ran out during read-in.
    ReadInFailed { word: Option<Word> },
    /// The emulated-time limit was reached.
    TimeLimit,
    /// The instruction-count limit was reached.
    InstructionLimit,
    /// Single-step / single-instruction / console stop completed.
    Stepped,
    /// The machine was not running (stopped at the console) when asked to run.
    NotRunning,
}

/// Limits for [`Machine::run_until`]. `None` = no limit of that kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// Stop when `machine.time_ns()` reaches this absolute emulated time.
    pub until_ns: Option<u64>,
    /// Stop after this many more instructions.
    pub instructions: Option<u64>,
}

/// One point put on the Type 30 by `dpy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisplayPoint {
    /// AC bits 0–9 as a one's-complement number, −511 ..= 511 (−0 reads as 0).
    pub x: i16,
    /// IO bits 0–9 likewise.
    pub y: i16,
    /// True when the 10-bit field was −0 (1777), so a renderer can choose aap's or MAME's mapping.
    pub x_minus_zero: bool,
    pub y_minus_zero: bool,
    /// Raw intensity code from instruction bits 9–11 (0–7; order dim→bright 4,5,6,7,0,1,2,3).
    pub intensity: u8,
    /// Emulated time (ns) at which the spot is intensified.
    pub time_ns: u64,
}

/// One thing the console typewriter did to the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeEvent {
    /// FIO-DEC code (0–077), including control codes (072/074 case, 034/035 ribbon, 075 backspace,
    /// 077 carriage return, 036 tab).
    pub code: u8,
    /// Case shift state in effect when the character was printed (after this code took effect).
    pub upper: bool,
    /// Red ribbon in effect.
    pub red: bool,
    /// True when this was the operator's key printing locally, false when typed by the program (`tyo`).
    pub local: bool,
    /// Emulated time (ns) of the event.
    pub time_ns: u64,
}

/// The whole machine state. Serialisable so the host can save and restore it bit-identically.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    config: MachineConfig,
    // registers, memory, devices, time … (core work fills these in)
}

impl Machine {
    /// Power on with `config`: memory zero, machine stopped, PC 0.
    pub fn new(config: MachineConfig) -> Result<Machine, MachineError> {
        let _ = config;
        todo!()
    }
    pub fn config(&self) -> &MachineConfig {
        &self.config
    }

    // ---- registers and state (read) ----
    pub fn ac(&self) -> Word { todo!() }
    pub fn io(&self) -> Word { todo!() }
    /// Program counter, 16 bits with the Type 15 field in bits 2–5 (12 bits on a 4K machine).
    pub fn pc(&self) -> u32 { todo!() }
    pub fn ma(&self) -> u32 { todo!() }
    pub fn mb(&self) -> Word { todo!() }
    /// Instruction register: the 5-bit opcode of the last fetched instruction.
    pub fn ir(&self) -> u32 { todo!() }
    pub fn ov(&self) -> bool { todo!() }
    /// Program flags as a 6-bit field, PF1 = 040 … PF6 = 001 (SIMH's PF register layout).
    pub fn pf(&self) -> u8 { todo!() }
    pub fn extend_mode(&self) -> bool { todo!() }
    pub fn running(&self) -> bool { todo!() }
    /// Emulated time since power-on, in nanoseconds.
    pub fn time_ns(&self) -> u64 { todo!() }
    /// Memory cycles (5 µs each) taken since power-on; mul/div count their documented extra time
    /// in `time_ns` only.
    pub fn cycles(&self) -> u64 { todo!() }
    /// Instructions completed since power-on.
    pub fn instructions(&self) -> u64 { todo!() }

    // ---- registers (write, for the console and tests) ----
    pub fn set_ac(&mut self, w: Word) { let _ = w; todo!() }
    pub fn set_io(&mut self, w: Word) { let _ = w; todo!() }
    pub fn set_pc(&mut self, pc: u32) { let _ = pc; todo!() }
    pub fn set_ov(&mut self, ov: bool) { let _ = ov; todo!() }
    pub fn set_pf(&mut self, pf: u8) { let _ = pf; todo!() }

    // ---- memory ----
    pub fn memory(&self) -> &[Word] { todo!() }
    pub fn read(&self, addr: u32) -> Result<Word, MachineError> { let _ = addr; todo!() }
    pub fn write(&mut self, addr: u32, w: Word) -> Result<(), MachineError> { let _ = (addr, w); todo!() }

    // ---- console switches ----
    pub fn test_word(&self) -> Word { todo!() }
    pub fn set_test_word(&mut self, w: Word) { let _ = w; todo!() }
    /// Sense switches, SS1 = 040 … SS6 = 001.
    pub fn sense_switches(&self) -> u8 { todo!() }
    pub fn set_sense_switches(&mut self, ss: u8) { let _ = ss; todo!() }
    pub fn test_address(&self) -> u32 { todo!() }
    /// 16-bit test address (extension bits 0–3 select the field).
    pub fn set_test_address(&mut self, ta: u32) { let _ = ta; todo!() }
    /// The console EXTEND switch: START and READ IN enter extend mode when it is on.
    pub fn set_extend_switch(&mut self, on: bool) { let _ = on; todo!() }
    /// Spacewar! control boxes, read by IOT 11 (MAME layout: player 2 in bits 0–3, player 1 in 14–17).
    pub fn set_control_boxes(&mut self, w: Word) { let _ = w; todo!() }

    // ---- console keys ----
    /// START: start-clear, PC ← test address, run (sequence-break mode on if `sbm`).
    pub fn start(&mut self, sbm: bool) { let _ = sbm; todo!() }
    /// STOP: stop at the end of the current instruction.
    pub fn stop(&mut self) { todo!() }
    /// CONTINUE: resume from the current state.
    pub fn cont(&mut self) { todo!() }
    /// EXAMINE: start-clear, PC ← TA, an `lac` cycle: AC and MB show M[TA]; returns M[TA].
    pub fn examine(&mut self) -> Word { todo!() }
    /// DEPOSIT: start-clear, AC ← TW, a `dac` cycle at TA.
    pub fn deposit(&mut self) { todo!() }
    /// READ IN: start-clear and enter read-in mode; the reader then loads `dio`/`jmp` word pairs
    /// as `run_until` advances time (at the reader's real speed), and the program starts at the
    /// `jmp`'s address.
    pub fn read_in(&mut self) { todo!() }

    // ---- run control ----
    /// Run until a stop reason. Breakpoints are checked before each instruction.
    pub fn run_until(&mut self, limit: Limit) -> StopReason { let _ = limit; todo!() }
    /// Execute exactly one memory cycle (SINGLE STEP).
    pub fn step_cycle(&mut self) -> StopReason { todo!() }
    /// Execute exactly one instruction (SINGLE INST).
    pub fn step_instruction(&mut self) -> StopReason { todo!() }
    pub fn add_breakpoint(&mut self, addr: u32) { let _ = addr; todo!() }
    pub fn remove_breakpoint(&mut self, addr: u32) { let _ = addr; todo!() }
    pub fn breakpoints(&self) -> Vec<u32> { todo!() }

    // ---- devices ----
    /// Put a paper tape (raw frames) in the reader, replacing any tape there.
    pub fn mount_tape(&mut self, frames: Vec<u8>) { let _ = frames; todo!() }
    /// Frames left unread in the reader.
    pub fn tape_remaining(&self) -> usize { todo!() }
    /// The operator strikes a key (FIO-DEC code; case-shift keys are codes 072/074 like the real
    /// keyboard). Sets the buffer, status bit and PF1, and prints the key locally. Returns false if
    /// the previous key had not been taken yet (the buffer is overrun, as on the real machine: the
    /// new code replaces the old one).
    pub fn strike_key(&mut self, code: u8) -> bool { let _ = code; todo!() }
    /// A key is in the typewriter buffer, not yet taken by `tyi`.
    pub fn key_pending(&self) -> bool { todo!() }
    /// When the program has been waiting for a key (polling the typewriter flag or status with no
    /// key struck, and typing nothing) continuously: the emulated time the wait began. `None` if
    /// it is not waiting now.
    pub fn key_wait_since(&self) -> Option<u64> { todo!() }
    pub fn drain_typewriter(&mut self) -> Vec<TypeEvent> { todo!() }
    pub fn drain_display(&mut self) -> Vec<DisplayPoint> { todo!() }
    /// Bytes punched since the last drain (each a full 8-hole frame).
    pub fn drain_punch(&mut self) -> Vec<u8> { todo!() }
}
