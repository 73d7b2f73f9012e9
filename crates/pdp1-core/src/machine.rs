//! The machine: registers, memory, devices, console and run control.
//!
//! This file is the public contract other crates build against; the instruction set lives in
//! [`cpu`](self) (`machine/cpu.rs`), the in-out transfer group and the devices in
//! `machine/io.rs`, READ IN in `machine/readin.rs`.
//!
//! # Time
//!
//! Emulated time is a nanosecond count that only the machine advances. Every 5 µs memory cycle
//! is charged where it happens — the fetch, each defer (indirect) cycle, the execute cycle — so
//! an instruction's duration follows from the code that performs it (mooneye-gb style) rather
//! than from a side table. The resulting times are the handbook's ([HB] table in
//! pdp1-hardware.md §3.1): `jmp`/`jsp`/skip/shift/`law`/operate/IOT 5 µs, the other memory
//! reference instructions 10 µs, +5 µs per indirect level, `xct` 5 µs + the executed instruction.
//! Type 10 `mul`/`div` add their data-dependent extra time (see `cpu.rs`).
//!
//! # Registers ([SIMH-cpu] header, pdp1-hardware.md §1.2)
//!
//! ```text
//!   AC<0:17>   accumulator                IO<0:17>  in-out register
//!   PC<2:17>   program counter (bits 2–5 the Type 15 field, 0 on a 4K machine)
//!   MA<2:17>   memory address             MB<0:17>  memory buffer
//!   IR<0:4>    instruction register       OV        overflow
//!   PF<1:6>    program flags (PF1 = 040)  EXD       extend mode (Type 15)
//!   SS<1:6>    sense switches             TW<0:17>  test word
//!   TA<2:17>   test address (+ EXTEND switch)
//!   IOH, IOS   I/O halt (waiting), I/O sync (completion pulse arrived)
//!   SBM, SB request, SB in progress          one-channel sequence break
//!   SBS enable/request/active<0:15>          Type 120 16-channel option (channel 0 first)
//!   status<0:6> read by cks: light pen, reader, type out, type in, punch, –, SBM
//! ```
//!
//! Open questions (where the sources disagree, pdp1-hardware.md §9) and what we chose:
//! display ±0 and intensity order are left to the renderer (both reported); `cbs` keeps the
//! mode ([aap]); the break entry leaves the OV/EXD/PC word in AC and OV as it was, and a
//! break can cancel a memory-reference instruction after its fetch or a defer cycle, never
//! Type 10's long cycle ([aap]; SIMH and MAME clear OV, SIMH keeps AC and breaks only between
//! instructions — issue 16, `machine/cycle.rs`, `machine/io/sequence_break.rs`); READ IN accepts `dac` like `dio` (SIMH,
//! MAME); typewriter times from the maintenance manual (MAME); the idle punch reads ready
//! (aap, MAME; SIMH clears it at reset); the light pen sees points within 5 coordinate steps
//! ([aap]; MAME 10, SIMH 4) and sets status bit 0 as MAME and aap do (SIMH sets bit 3); the
//! I/O wait, IOS and the display's completion pulse as aap's pulse-level model has them, and a
//! divide overflow of AC = −0 leaves +0 as in aap (SIMH: −0) — issue 16, see `machine/io.rs`,
//! `machine/io/display.rs`, `machine/cpu.rs` and the list in docs/testing.md.
//!
//! Options beyond the standard PDP-1C, chosen in [`MachineConfig`] before power-on: the Type 10
//! multiply/divide, memory beyond 4K (Type 15), the PDP-1D `lai`/`lia` (`swp`) and a second
//! Type 30 display (issue 16); all off by default.
//!
//! Outputs leave as timed streams the host drains: display points ([`Machine::drain_display`]),
//! typed characters, punched bytes, and the program flags' changes ([`Machine::drain_flags`],
//! the sound of flags 1–4, `machine/io/flags.rs`).
//!
//! Devices schedule their events (a typed character finishing, a tape line arriving, a display
//! point's completion) as absolute emulated times; the run loop compares `time_ns` with one
//! `next_event_ns` per instruction and services the devices only when something is due.

mod core;
mod cpu;
mod cycle;
mod exec;
mod fast;
mod io;
mod readin;

use crate::word::Word;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub use io::{
    DISPLAY_COMPLETION_NS, DISPLAY_DEFLECTION_NS, KEY_POLL_GAP_NS, PUNCH_LINE_NS, READER_LINE_NS,
    TYPE_CHAR_NS, TYPE_CR_NS, TYPE_SHIFT_NS,
};

/// The default `xct_limit` and `indirect_limit`: no debugger stop. (Only an endless chain,
/// `jmp i .` or `xct .`, ever reaches it — about 5 s of emulated time inside one
/// instruction — and it keeps such a loop from hanging the emulator for good.)
pub const NO_CHAIN_LIMIT: u32 = 1 << 20;

/// Fixed machine options, chosen before power-on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineConfig {
    /// Core memory in words: 4096 … 65536 in steps of 4096 (Type 15 extension above 4K).
    pub memory_words: usize,
    /// Type 10 multiply/divide installed (`mul`/`div`); otherwise opcodes 54/56 are `mus`/`dis`.
    pub mul_div: bool,
    /// Longest `xct` chain before the machine stops with [`StopReason::XctLimit`] (SIMH: 16).
    /// A debugger's stop, off by default ([`NO_CHAIN_LIMIT`]): the real machine follows any
    /// chain, and programs such as FLASH chain through all of memory on purpose.
    pub xct_limit: u32,
    /// Longest indirect chain before [`StopReason::IndirectLimit`] (guards `jmp i .` loops).
    /// Same meaning as SIMH's `IND_MAX` (default 16 there): at most this many indirect words
    /// are read; if the last one read still has its indirect bit set, the machine stops.
    /// Off by default ([`NO_CHAIN_LIMIT`]), like `xct_limit`.
    pub indirect_limit: u32,
    /// The PDP-1D operate bits `lai` (000040: AC ← IO) and `lia` (000020: IO ← AC); both
    /// together, `swp` = 760060, exchange AC and IO. They act after cli, cla, lat, lap and
    /// cma ([SIMH-cpu] case 037 under `UNIT_1D`: `MB = IO; if LIA IO = AC; if LAI AC = MB`;
    /// [aap] `LAILIA`: the transfers in the next cycle's TP0–TP2, after the operate's own
    /// micro-operations; the PiDP-1 notes: "lsw 760060 swap AC and IO, combines lai and lia").
    /// Off (a PDP-1C), the two bits do nothing, as they always did here.
    #[serde(default)]
    pub lai_lia: bool,
    /// A second Type 30 display. With it, `dpy` bit 9 (000400, the top bit of the intensity
    /// field) chooses the display and only bits 10–11 are the intensity — the wiring aap's
    /// PiDP-1 emulator gives two scopes, and what the dual-screen Spacewar! 4.4 expects (it
    /// plots every other frame with `dpy` 720407/724407). Without it every `dpy` goes to the
    /// one display, with its full 3-bit intensity.
    #[serde(default)]
    pub second_display: bool,
    /// Type 120 sixteen-channel sequence break system installed (IOTs `dsc`, `asc`, `isb`,
    /// `cac`; channel n breaks to 4n…4n+3). Without it the standard one-channel system
    /// (pdp1-hardware.md §7.1). See `machine/io/sequence_break.rs`.
    #[serde(default)]
    pub sbs16: bool,
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig {
            memory_words: 4096,
            mul_div: false,
            xct_limit: NO_CHAIN_LIMIT,
            indirect_limit: NO_CHAIN_LIMIT,
            lai_lia: false,
            second_display: false,
            sbs16: false,
        }
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
    /// An I/O wait nothing can end: no completion pulse owed, and no sequence break that can
    /// still come to interrupt it (SIMH: "I/O wait hang", which SIMH reports whenever no pulse
    /// is owed).
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
    /// Intensity code from instruction bits 9–11 (0–7; order dim→bright 4,5,6,7,0,1,2,3). With
    /// a second display (`MachineConfig::second_display`) bit 9 chooses the display and the
    /// code is bits 10–11 alone (0–3).
    pub intensity: u8,
    /// The display the point went to: 0 the first (the only one on a standard machine), 1 the
    /// second.
    #[serde(default)]
    pub scope: u8,
    /// Emulated time (ns) at which the spot is intensified.
    pub time_ns: u64,
}

/// One change of the program flags (`stf`/`clf`, a key setting PF1, the light pen PF3, the
/// console), as the flags' sound stream records it (`machine/io/flags.rs`; turned into
/// samples by [`crate::sound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagChange {
    /// Emulated time (ns) of the change.
    pub time_ns: u64,
    /// The new flag word, PF1 = 040 … PF6 = 001.
    pub flags: u8,
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

/// Bits of the in-out status register read by `cks` (pdp1-hardware.md §2.7.2, DEC bit numbers).
pub mod status {
    /// Bit 0: light pen hit (cleared by `dpy`).
    pub const LIGHT_PEN: u32 = 0o400_000;
    /// Bit 1: reader buffer full.
    pub const READER: u32 = 0o200_000;
    /// Bit 2: typewriter output ready (not busy).
    pub const TYPE_OUT: u32 = 0o100_000;
    /// Bit 3: typewriter input buffer full (a key was struck).
    pub const TYPE_IN: u32 = 0o040_000;
    /// Bit 4: punch ready.
    pub const PUNCH: u32 = 0o020_000;
    /// Bit 6: sequence-break mode on.
    pub const SEQ_BREAK: u32 = 0o004_000;
}

/// Default light-pen hit radius in Type 30 coordinate steps. The emulators differ (aap 5,
/// MAME 10, SIMH 4; pdp1-hardware.md §4.5) and no DEC figure for the Type 32's field of view
/// is known; we take aap's, the gate-level model. A point is seen when its distance from the
/// pen, `sqrt(dx² + dy²)`, is at most the radius.
pub const LIGHT_PEN_RADIUS: u16 = 5;

fn default_light_pen_radius() -> u16 {
    LIGHT_PEN_RADIUS
}

/// Memory cycle length, ns.
pub(crate) const CYCLE: u64 = crate::CYCLE_NS;
const MASK: u32 = Word::MASK;
const SIGN: u32 = Word::SIGN;
/// Address bits within a field.
const DAMASK: u32 = 0o7777;
/// Field bits of a 16-bit address (Type 15).
const FIELD: u32 = 0o170_000;
/// A full 16-bit address.
const AMASK: u32 = 0o177_777;
/// Indirect bit 5.
const IBIT: u32 = 0o010_000;

/// The whole machine state. Serialisable so the host can save and restore it bit-identically.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    config: MachineConfig,
    mem: core::Core,

    // Registers (raw 18-bit values; PC/MA 16 bits with the field in bits 2–5).
    ac: u32,
    io: u32,
    pc: u32,
    ma: u32,
    mb: u32,
    ir: u32,
    ov: bool,
    /// Program flags, PF1 = 040 … PF6 = 001.
    pf: u8,
    /// Extend mode (Type 15).
    extend: bool,

    // Console switches.
    tw: u32,
    ss: u8,
    ta: u32,
    extend_sw: bool,
    control_boxes: u32,

    /// Type 32 light pen: where it points, in Type 30 coordinates (`None`: away from the
    /// tube), and how near a plotted point must be for it to see it. Host input like the
    /// control boxes, so it is saved with the state (a restored run sees the pen where the
    /// saved one did); `serde(default)` keeps states saved before the pen existed loadable.
    #[serde(default)]
    light_pen: Option<(i16, i16)>,
    #[serde(default = "default_light_pen_radius")]
    light_pen_radius: u16,

    // Run state.
    running: bool,
    readin: readin::ReadIn,
    /// Position inside an instruction when stepping single memory cycles.
    phase: cycle::Phase,
    /// Emulated time is `cycles * CYCLE + extra_ns`: one counter to bump per memory cycle,
    /// plus the time that is not whole memory cycles (Type 10 mul/div, the reader during
    /// READ IN).
    cycles: u64,
    extra_ns: u64,
    /// The part of `extra_ns` that is READ IN's reader time (the rest is Type 10 mul/div and
    /// `stopped_ns`).
    #[serde(default)]
    readin_ns: u64,
    /// The part of `extra_ns` that passed with the processor stopped while its devices went on
    /// ([`Machine::idle_until`]).
    #[serde(default)]
    stopped_ns: u64,
    instructions: u64,
    /// `run_until_break_entry` is running: stop before a sequence-break entry.
    #[serde(skip)]
    stop_before_break: bool,

    // In-out control: I/O halt (waiting), I/O sync (completion pulse arrived), pending pulses.
    ioh: bool,
    ios: bool,
    cpls: u8,
    /// In-out status register bits (see [`status`]), excluding the sequence-break bit.
    iosta: u32,

    // One-channel sequence break: mode on, request pending, break in progress.
    sbm: bool,
    sb_req: bool,
    sb_ip: bool,
    /// The Type 120's channels (enables, requests, breaks in progress), with `sbs16`.
    #[serde(default)]
    chan: io::Channels,

    // Devices.
    next_event_ns: u64,
    dev: io::Devices,

    breakpoints: BTreeSet<u32>,
    /// The last run stopped at a breakpoint here, after this many instructions: the next run
    /// from that very point runs the instruction there instead of stopping again (a resume).
    /// Anything else that ends a run — a time slice, an instruction limit — leaves it `None`,
    /// so a breakpoint where a slice begins is still taken (issue 18).
    #[serde(default)]
    resume_from: Option<(u32, u64)>,
    /// `breakpoints` as the run loop's bitmap (rebuilt when they change, or after a restore).
    #[serde(skip)]
    bp_map: Option<Box<[u64; fast::BP_WORDS]>>,
}

/// Next address within the same 4K field (the PC never carries into the field bits).
#[inline]
const fn incr(a: u32) -> u32 {
    (a & FIELD) | ((a + 1) & DAMASK)
}

#[inline]
const fn decr(a: u32) -> u32 {
    (a & FIELD) | (a.wrapping_sub(1) & DAMASK)
}

impl Machine {
    /// Power on with `config`: memory zero, machine stopped, PC 0.
    pub fn new(config: MachineConfig) -> Result<Machine, MachineError> {
        let n = config.memory_words;
        if n == 0 || n > 65536 || !n.is_multiple_of(4096) {
            return Err(MachineError::BadMemorySize(n));
        }
        let second_display = config.second_display;
        Ok(Machine {
            mem: core::Core::new(n),
            config,
            ac: 0,
            io: 0,
            pc: 0,
            ma: 0,
            mb: 0,
            ir: 0,
            ov: false,
            pf: 0,
            extend: false,
            tw: 0,
            ss: 0,
            ta: 0,
            extend_sw: false,
            control_boxes: 0,
            light_pen: None,
            light_pen_radius: LIGHT_PEN_RADIUS,
            running: false,
            readin: readin::ReadIn::default(),
            phase: cycle::Phase::Fetch,
            cycles: 0,
            extra_ns: 0,
            readin_ns: 0,
            stopped_ns: 0,
            instructions: 0,
            stop_before_break: false,
            ioh: false,
            ios: false,
            cpls: 0,
            // Idle typewriter and punch read "ready" (aap computes both as "not busy"; MAME
            // sets both at reset; SIMH leaves its punch "done" bit clear until the first line).
            iosta: status::TYPE_OUT | status::PUNCH,
            sbm: false,
            sb_req: false,
            sb_ip: false,
            chan: io::Channels::default(),
            next_event_ns: u64::MAX,
            dev: io::Devices::new(second_display),
            breakpoints: BTreeSet::new(),
            resume_from: None,
            bp_map: None,
        })
    }
    pub fn config(&self) -> &MachineConfig {
        &self.config
    }

    // ---- registers and state (read) ----
    pub fn ac(&self) -> Word {
        Word::new(self.ac)
    }
    pub fn io(&self) -> Word {
        Word::new(self.io)
    }
    /// Program counter, 16 bits with the Type 15 field in bits 2–5 (12 bits on a 4K machine).
    pub fn pc(&self) -> u32 {
        self.pc
    }
    /// Memory address (MA lamps): the address of the last memory cycle — the fetch, an
    /// indirect word, or the operand read or store — as the single-cycle steps show it.
    /// (So after a direct `jmp` it is the `jmp`'s own address; MB then holds the word of
    /// that cycle.)
    pub fn ma(&self) -> u32 {
        self.ma
    }
    pub fn mb(&self) -> Word {
        Word::new(self.mb)
    }
    /// Instruction register: the 5-bit opcode of the last fetched instruction.
    pub fn ir(&self) -> u32 {
        self.ir
    }
    pub fn ov(&self) -> bool {
        self.ov
    }
    /// Program flags as a 6-bit field, PF1 = 040 … PF6 = 001 (SIMH's PF register layout).
    pub fn pf(&self) -> u8 {
        self.pf
    }
    pub fn extend_mode(&self) -> bool {
        self.extend
    }
    pub fn running(&self) -> bool {
        self.running
    }
    /// Emulated time since power-on, in nanoseconds.
    pub fn time_ns(&self) -> u64 {
        self.now()
    }
    /// Let emulated time pass to `t_ns` with the processor stopped (after a `hlt`, STOP, a
    /// breakpoint or an I/O hang). The processor takes no cycles, but the devices are separate
    /// logic with their own timing and go on, as on the real machine: a character being typed
    /// is finished and a tape line being read lands in the reader buffer, and whatever their
    /// completion sets (flags, the I/O synchroniser, a sequence-break request) waits for
    /// CONTINUE; a front end's phosphor, which decays on `time_ns`, fades. Each device event
    /// is served at its own time, in order. Nothing happens while the processor runs or READ IN
    /// is reading (time passes by `run_until` then), or when `t_ns` is not later than now.
    /// The time is kept out of [`Machine::processor_cycles`].
    pub fn idle_until(&mut self, t_ns: u64) {
        if self.running || self.readin.active {
            return;
        }
        loop {
            let now = self.now();
            if self.next_event_ns <= now {
                self.service_devices();
                if self.next_event_ns <= now {
                    // (A device that stays due would spin; none does, but never hang here.)
                    break;
                }
                continue;
            }
            if now >= t_ns {
                break;
            }
            let d = self.next_event_ns.min(t_ns) - now;
            self.extra_ns += d;
            self.stopped_ns += d;
        }
    }
    /// Memory cycles (5 µs each) taken since power-on; mul/div count their documented extra time
    /// in `time_ns` only (see [`Machine::processor_cycles`]).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }
    /// The time the processor has run, in 5 µs cycles, rounded down: the memory cycles plus
    /// the Type 10 mul/div time beyond their two cycles — `time_ns` without READ IN's reader
    /// time and the time it stood stopped ([`Machine::idle_until`]), over 5 µs. (A `mul` takes 4–5 such cycles, a `div` 7–9; `cycles()` counts 2.)
    /// The count `--trace` and `--registers` print.
    pub fn processor_cycles(&self) -> u64 {
        (self.now() - self.readin_ns - self.stopped_ns) / CYCLE
    }
    /// Instructions completed since power-on.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }
    /// The in-out status word as `cks` would read it now.
    pub fn status_word(&self) -> Word {
        Word::new(self.iosta | if self.sbm { status::SEQ_BREAK } else { 0 })
    }
    /// Sequence-break state: (mode on, request pending, break in progress) — of the
    /// one-channel system; with the Type 120 the request and in-progress flags are per channel
    /// ([`Machine::sequence_break_channels`]).
    pub fn sequence_break(&self) -> (bool, bool, bool) {
        (self.sbm, self.sb_req, self.sb_ip)
    }
    /// The Type 120's channels as (enabled, requested, in progress), bit n = channel n
    /// (channel 0 the highest priority); all 0 without the option.
    pub fn sequence_break_channels(&self) -> (u16, u16, u16) {
        (self.chan.enabled, self.chan.requested, self.chan.active)
    }
    /// The machine is in an I/O wait (an IOT with the wait bit is being re-executed).
    pub fn io_halt(&self) -> bool {
        self.ioh
    }
    /// The I/O synchroniser IOS: a completion pulse has arrived that no IOT has consumed
    /// yet (an IOT that waits then proceeds at once; see `machine/io.rs`).
    pub fn io_sync(&self) -> bool {
        self.ios
    }
    /// READ IN is in progress.
    pub fn reading_in(&self) -> bool {
        self.readin.active
    }

    // ---- registers (write, for the console and tests) ----
    pub fn set_ac(&mut self, w: Word) {
        self.ac = w.bits();
    }
    pub fn set_io(&mut self, w: Word) {
        self.io = w.bits();
    }
    /// Set the PC. An instruction part-way through single cycles, or an I/O wait in
    /// progress, is abandoned (the operator moved the machine elsewhere).
    pub fn set_pc(&mut self, pc: u32) {
        self.pc = pc & AMASK;
        self.phase = cycle::Phase::Fetch;
        self.ioh = false;
    }
    pub fn set_ov(&mut self, ov: bool) {
        self.ov = ov;
    }
    pub fn set_pf(&mut self, pf: u8) {
        self.pf = pf & 0o77;
        self.dev.flags.note(self.now(), self.pf);
    }
    pub fn set_extend_mode(&mut self, on: bool) {
        self.extend = on;
    }
    /// Turn sequence-break mode on or off (as `esm`/`lsm` would).
    pub fn set_sequence_break_mode(&mut self, on: bool) {
        self.sbm = on;
    }

    // ---- memory ----
    pub fn memory(&self) -> &[Word] {
        self.mem.words()
    }
    pub fn read(&self, addr: u32) -> Result<Word, MachineError> {
        self.mem.get(addr).ok_or(MachineError::AddressOutOfRange {
            addr,
            size: self.config.memory_words,
        })
    }
    pub fn write(&mut self, addr: u32, w: Word) -> Result<(), MachineError> {
        if self.mem.set(addr, w) {
            Ok(())
        } else {
            Err(MachineError::AddressOutOfRange {
                addr,
                size: self.config.memory_words,
            })
        }
    }

    // ---- console switches ----
    pub fn test_word(&self) -> Word {
        Word::new(self.tw)
    }
    pub fn set_test_word(&mut self, w: Word) {
        self.tw = w.bits();
    }
    /// Sense switches, SS1 = 040 … SS6 = 001.
    pub fn sense_switches(&self) -> u8 {
        self.ss
    }
    pub fn set_sense_switches(&mut self, ss: u8) {
        self.ss = ss & 0o77;
    }
    pub fn test_address(&self) -> u32 {
        self.ta
    }
    /// 16-bit test address (extension bits 0–3 select the field).
    pub fn set_test_address(&mut self, ta: u32) {
        self.ta = ta & AMASK;
    }
    /// The console EXTEND switch: START and READ IN enter extend mode when it is on.
    /// The console EXTEND switch.
    pub fn extend_switch(&self) -> bool {
        self.extend_sw
    }
    pub fn set_extend_switch(&mut self, on: bool) {
        self.extend_sw = on;
    }
    /// Spacewar! control boxes, read by IOT 11 (MAME layout: player 2 in bits 0–3, player 1 in 14–17).
    pub fn set_control_boxes(&mut self, w: Word) {
        self.control_boxes = w.bits();
    }

    /// Point the Type 32 light pen at Type 30 coordinates (x, y), each −511 ..= 511 (larger
    /// values are clamped), or take it away from the tube with `None`. From the next `dpy` on,
    /// every point plotted within [`Machine::light_pen_radius`] of it sets status bit 0
    /// (`cks` 400000) and program flag 3 (pdp1-hardware.md §4.5); moving the pen does not
    /// change the status bit by itself (the next `dpy` does).
    pub fn set_light_pen(&mut self, at: Option<(i16, i16)>) {
        self.light_pen = at.map(|(x, y)| (x.clamp(-511, 511), y.clamp(-511, 511)));
    }
    /// Where the light pen points, if it is at the tube.
    pub fn light_pen(&self) -> Option<(i16, i16)> {
        self.light_pen
    }
    /// How near (in coordinate steps) a point must be for the pen to see it; default
    /// [`LIGHT_PEN_RADIUS`].
    pub fn set_light_pen_radius(&mut self, r: u16) {
        self.light_pen_radius = r;
    }
    pub fn light_pen_radius(&self) -> u16 {
        self.light_pen_radius
    }

    // ---- console keys ----

    /// Start-clear ([aap] `sc()`): clears OV, the I/O halt/sync state, the sequence-break
    /// request and in-progress flags and extend mode (then sets it from the EXTEND switch);
    /// does not touch AC, IO, the program flags or memory.
    fn start_clear(&mut self) {
        self.ov = false;
        self.ioh = false;
        self.ios = false;
        self.cpls = 0;
        self.sb_req = false;
        self.sb_ip = false;
        self.chan.clear();
        self.extend = self.extend_sw;
        self.readin.active = false;
        self.phase = cycle::Phase::Fetch;
        self.resume_from = None;
    }

    /// START: start-clear, PC ← test address, run (sequence-break mode on if `sbm`).
    pub fn start(&mut self, sbm: bool) {
        self.start_clear();
        self.sbm = sbm;
        self.pc = self.ta;
        self.running = true;
    }
    /// STOP: stop at the end of the current instruction.
    pub fn stop(&mut self) {
        self.running = false;
    }
    /// CONTINUE: resume from the current state.
    pub fn cont(&mut self) {
        self.running = true;
    }
    /// EXAMINE: start-clear, PC ← TA, an `lac` cycle: AC and MB show M[TA]; returns M[TA].
    pub fn examine(&mut self) -> Word {
        self.start_clear();
        self.running = false;
        self.pc = self.ta;
        self.ma = self.ta;
        self.mb = self.rd(self.ta);
        self.ac = self.mb;
        Word::new(self.ac)
    }
    /// DEPOSIT: start-clear, AC ← TW, a `dac` cycle at TA.
    pub fn deposit(&mut self) {
        self.start_clear();
        self.running = false;
        self.pc = self.ta;
        self.ac = self.tw;
        self.ma = self.ta;
        self.mb = self.tw;
        self.wr(self.ta, self.tw);
    }
    /// READ IN: start-clear and enter read-in mode; the reader then loads `dio`/`jmp` word pairs
    /// as `run_until` advances time (at the reader's real speed), and the program starts at the
    /// `jmp`'s address.
    pub fn read_in(&mut self) {
        self.start_clear();
        self.sbm = false;
        self.dev.ptr.forget_read();
        self.reschedule();
        self.readin = readin::ReadIn {
            active: true,
            pending: None,
        };
        self.running = true;
    }

    // ---- run control ----

    /// Run until a stop reason. Breakpoints are checked before each instruction, the first
    /// included, except when the run resumes from the breakpoint the last run stopped at (then
    /// the instruction there runs). Not during an I/O wait: the waiting IOT is not fetched anew.
    pub fn run_until(&mut self, limit: Limit) -> StopReason {
        if !self.running {
            return StopReason::NotRunning;
        }
        let until = limit.until_ns.unwrap_or(u64::MAX);
        let max_instr = match limit.instructions {
            Some(n) => self.instructions.saturating_add(n),
            None => u64::MAX,
        };
        // (Cheap insurance for a restored state: the event time follows from the devices, the
        // breakpoint bitmap from the breakpoints.)
        self.reschedule();
        if self.bp_map.is_none() && !self.breakpoints.is_empty() {
            self.bp_map = Some(fast::breakpoint_map(self.breakpoints.iter().copied()));
        }
        if !self.readin.active {
            if let Some(r) = self.finish_instruction() {
                self.running = false;
                return r;
            }
        }
        loop {
            if self.now() >= until {
                return StopReason::TimeLimit;
            }
            if self.instructions >= max_instr {
                return StopReason::InstructionLimit;
            }
            if self.readin.active {
                if let Some(r) = self.readin_word() {
                    self.running = false;
                    return r;
                }
                continue;
            }
            // Run until the next device event, the time limit, the instruction limit or a
            // breakpoint (a breakpoint leaves the machine running, so CONTINUE resumes).
            if let Some(r) = self.run_fast(until, max_instr) {
                // (A breakpoint, or `Stepped` before a break entry for
                // `run_until_break_entry`, leaves the machine running.)
                if !matches!(r, StopReason::Breakpoint(_) | StopReason::Stepped) {
                    self.running = false;
                }
                return r;
            }
            if self.now() >= self.next_event_ns {
                self.service_devices();
            }
        }
    }

    /// As [`Machine::run_until`], but return [`StopReason::Stepped`] (the machine still
    /// running) just before a sequence-break entry, so that a caller going an instruction at a
    /// time (`--trace`) can take the entry as a step of its own with [`Machine::step_cycle`]
    /// instead of finding it folded into the first instruction of the break routine.
    pub fn run_until_break_entry(&mut self, limit: Limit) -> StopReason {
        self.stop_before_break = true;
        let r = self.run_until(limit);
        self.stop_before_break = false;
        r
    }

    /// The memory cycle SINGLE STEP will take next: `"fetch"`, `"defer"` (an indirect word, or
    /// a debreak's return word), `"execute"`, `"break entry"` (the three cycles of a
    /// sequence-break entry) — or `"read in"` while READ IN reads.
    pub fn next_cycle(&self) -> &'static str {
        if self.readin.active {
            return "read in";
        }
        match self.phase {
            cycle::Phase::Fetch => "fetch",
            cycle::Phase::Defer { .. } => "defer",
            cycle::Phase::Execute { .. } => "execute",
            cycle::Phase::Debreak { .. } => "defer",
            cycle::Phase::Break { .. } => "break entry",
        }
    }

    /// Execute exactly one memory cycle (SINGLE STEP): a fetch, a defer or an execute cycle
    /// (see `machine/cycle.rs`; a sequence-break entry counts as one step). During READ IN,
    /// one word is read.
    pub fn step_cycle(&mut self) -> StopReason {
        let r = if self.readin.active {
            let r = self.readin_word();
            if self.now() >= self.next_event_ns {
                self.service_devices();
            }
            r
        } else {
            self.cycle_serviced()
        };
        match r {
            Some(r) => {
                self.running = false;
                r
            }
            None => StopReason::Stepped,
        }
    }

    /// Execute exactly one instruction (SINGLE INST). A waiting IOT runs until its completion
    /// pulse (or a hang); during READ IN, one word pair is read. A sequence-break entry is a
    /// step of its own, as in `--trace` (issue 16): when the instruction just stepped is
    /// followed by a break, the next SINGLE INST takes the entry and stops at the break
    /// routine's first instruction; when the break cancels the instruction at PC (a
    /// memory-reference instruction, see `machine/cycle.rs`), this one does.
    pub fn step_instruction(&mut self) -> StopReason {
        if self.readin.active {
            loop {
                if let Some(r) = self.readin_word() {
                    self.running = false;
                    return r;
                }
                if self.readin.pending.is_none() {
                    return StopReason::Stepped;
                }
            }
        }
        if !self.at_instruction_boundary() {
            // (Each cycle services the devices whose time has come.)
            return match self.finish_instruction() {
                Some(r) => {
                    self.running = false;
                    r
                }
                None => StopReason::Stepped,
            };
        }
        if self.break_entry_next() {
            return self.step_cycle();
        }
        let n = self.instructions;
        loop {
            if let Some(r) = self.step() {
                self.running = false;
                return r;
            }
            if self.instructions != n {
                return StopReason::Stepped;
            }
            if self.break_entry_next() {
                return self.step_cycle();
            }
        }
    }
    pub fn add_breakpoint(&mut self, addr: u32) {
        self.breakpoints.insert(addr & AMASK);
        self.bp_map = Some(fast::breakpoint_map(self.breakpoints.iter().copied()));
    }
    pub fn remove_breakpoint(&mut self, addr: u32) {
        self.breakpoints.remove(&(addr & AMASK));
        self.bp_map = (!self.breakpoints.is_empty())
            .then(|| fast::breakpoint_map(self.breakpoints.iter().copied()));
    }
    pub fn breakpoints(&self) -> Vec<u32> {
        self.breakpoints.iter().copied().collect()
    }

    // ---- devices ----
    /// Put a paper tape (raw frames) in the reader, replacing any tape there.
    pub fn mount_tape(&mut self, frames: Vec<u8>) {
        let now = self.now();
        if self.dev.ptr.mount(frames, now) {
            // The reader's completion pulse (`Reader::PULSE`) is owed again.
            self.cpls |= 1;
        }
        self.reschedule();
    }
    /// Frames left unread in the reader.
    pub fn tape_remaining(&self) -> usize {
        self.dev.ptr.tape.len().saturating_sub(self.dev.ptr.pos)
    }
    /// The tape in the reader (all its frames) and how many have been read — for a front
    /// panel's picture of the reader.
    pub fn tape(&self) -> (&[u8], usize) {
        (
            &self.dev.ptr.tape,
            self.dev.ptr.pos.min(self.dev.ptr.tape.len()),
        )
    }
    /// The frames left unread in the reader, in reading order.
    pub fn tape_unread(&self) -> &[u8] {
        self.dev.ptr.tape.get(self.dev.ptr.pos..).unwrap_or(&[])
    }
    /// The operator strikes a key (FIO-DEC code; case-shift keys are codes 072/074 like the real
    /// keyboard). Sets the buffer, status bit and PF1, and prints the key locally. Returns false if
    /// the previous key had not been taken yet (the buffer is overrun, as on the real machine: the
    /// new code replaces the old one).
    pub fn strike_key(&mut self, code: u8) -> bool {
        self.key_struck(code)
    }
    /// A key is in the typewriter buffer, not yet taken by `tyi`.
    pub fn key_pending(&self) -> bool {
        self.iosta & status::TYPE_IN != 0
    }
    /// When the program has been waiting for a key (polling the typewriter flag or status with no
    /// key struck, and typing nothing) continuously: the emulated time the wait began. `None` if
    /// it is not waiting now.
    ///
    /// A poll is `szf` testing flag 1 while PF1 is clear, or `cks`/`tyi` while no key is in
    /// the buffer. The wait starts at the first poll, ends when a key is struck or the program
    /// types (`tyo`), and lapses when more than 100 ms pass between two polls (the next poll
    /// starts a new wait). Polls made while the typewriter is still printing a character do
    /// not count: the program is then waiting for the printer (DDT polls `cks` for that). A
    /// `stf`/`clf` of flag 1 by the program ends the wait too: it uses the flag as its own.
    pub fn key_wait_since(&self) -> Option<u64> {
        self.dev.tty.key_wait_since(self.now())
    }
    pub fn drain_typewriter(&mut self) -> Vec<TypeEvent> {
        std::mem::take(&mut self.dev.tty.events)
    }
    pub fn drain_display(&mut self) -> Vec<DisplayPoint> {
        std::mem::take(&mut self.dev.dpy.points)
    }
    /// The program flags' changes since the last drain, in time order (see [`FlagChange`];
    /// the flag word before the first is the one the previous drain ended with, or
    /// [`Machine::pf`] as it was when the host began listening).
    pub fn drain_flags(&mut self) -> Vec<FlagChange> {
        std::mem::take(&mut self.dev.flags.changes)
    }
    /// Bytes punched since the last drain (each a full 8-hole frame).
    pub fn drain_punch(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.dev.ptp.out)
    }
    /// Typewriter case (upper) and ribbon (red) state.
    pub fn typewriter_state(&self) -> (bool, bool) {
        (self.dev.tty.upper, self.dev.tty.red)
    }

    // ---- internal helpers shared by the submodules ----

    /// One 5 µs memory cycle.
    #[inline(always)]
    fn cycle(&mut self) {
        self.cycles += 1;
    }

    /// Emulated time now, ns.
    #[inline(always)]
    fn now(&self) -> u64 {
        self.cycles * CYCLE + self.extra_ns
    }

    /// Read memory; non-existent memory reads as 0 (SIMH).
    #[inline(always)]
    fn rd(&self, a: u32) -> u32 {
        self.mem.rd(a)
    }

    /// Write memory; writes to non-existent memory are lost (SIMH `MEM_ADDR_OK`).
    #[inline(always)]
    fn wr(&mut self, a: u32, v: u32) {
        self.mem.wr(a, v)
    }

    /// The return-address word of jsp/jda/cal/lap and the break: OV, EXD, 16-bit PC.
    #[inline(always)]
    fn epc_word(&self) -> u32 {
        exec::epc(self.ov, self.extend, self.pc)
    }
}
