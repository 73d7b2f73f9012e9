//! Everything both modes (headless and window) need before the machine runs, read and checked
//! up front so that bad input is reported before anything happens: merged settings, the tapes,
//! typed keys, symbols, address ranges to examine. Also builds the machine: power-on or a saved
//! state, switches, tape mounted, READ IN pressed.

use crate::config::{Settings, Speed};
use crate::error::{bail, Result};
use crate::keyboard::Key;
use crate::library::{Known, Profile};
use crate::script::Script;
use crate::tape::{Feeder, Tape};
use pdp1_asm::SymbolTable;
use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};

/// A saved machine state to run on (`--load-state`), and its file's name for messages.
#[derive(Debug)]
pub struct Restored {
    pub machine: pdp1_core::Machine,
    pub name: String,
}

/// What `main` hands to the headless runner or to `frontend::run`.
#[derive(Debug, Default)]
pub struct Setup {
    /// Switches, machine options, limits, speed, breakpoints (config file under command line).
    pub settings: Settings,
    /// The boot tape (already checked as a RIM/BLK image), if one was given.
    pub tape: Option<Tape>,
    /// The `--reader` tapes, in order: the first mounted once the boot tape has been read,
    /// each further one when the one before has run out: see [`Feeder`].
    pub reader: Vec<Tape>,
    /// The boot tape's file name and the `--reader` tapes', as the console's reader panel
    /// names them.
    pub tape_name: String,
    pub reader_names: Vec<String>,
    /// Keys from `--type`, parsed and checked; `None` when `--type` was not given.
    pub typed: Option<Vec<Key>>,
    /// `--examine` ranges (octal addresses, inclusive), checked against the memory size.
    pub examine: Vec<(u32, u32)>,
    /// `--symbols`: names for the trace and the debugger.
    pub symbols: Option<SymbolTable>,
    /// `--halt-tw`: test words to set before the CONTINUEs of `--continue-halts`, in order.
    pub halt_test_words: Vec<Word>,
    /// `--deposit` and `--start`: console keys pressed once READ IN is done.
    pub deposit_at: Option<u32>,
    pub start_at: Option<u32>,
    /// `--continue-halts`, or a known tape's.
    pub continue_halts: u32,
    /// The known tape recognised (with `--profile auto`) and the profile applied, if any.
    pub recognised: Option<&'static Known>,
    pub profile: Option<&'static Profile>,
    /// `--script`: parsed and checked (its tapes read) before anything runs.
    pub script: Option<Script>,
}

impl Setup {
    /// What was recognised and which machine it gets, for the operator: e.g. "known tape
    /// spacewar48.rim (Spacewar! 4.8): machine mdv (Type 10 multiply/divide)".
    pub fn machine_note(&self) -> Option<String> {
        let p = self.profile?;
        Some(match self.recognised {
            Some(k) => format!(
                "known tape {} ({}): machine {} ({})",
                k.file,
                k.title,
                p.name,
                p.options()
            ),
            None => format!("machine {} ({})", p.name, p.options()),
        })
    }

    /// The speed to run at; `default` is the mode's own (window: real time, headless: max).
    pub fn speed(&self, default: Speed) -> Speed {
        self.settings.speed.unwrap_or(default)
    }

    /// A feeder that puts `--reader`'s tape in once the boot tape has been read.
    pub fn feeder(&self) -> Feeder {
        Feeder::new(self.tape.as_ref(), &self.reader).named(&self.tape_name, &self.reader_names)
    }

    /// Power on (or take the `restored` machine: `--load-state`), set the switches, mount the
    /// tape and press READ IN.
    pub fn build_machine(&self, restored: Option<Restored>) -> Result<Machine> {
        let s = &self.settings;
        let mut m = match restored {
            Some(Restored { machine: m, name }) => {
                let path = std::path::Path::new(&name);
                let c = m.config();
                if let Some(words) = s.memory_words.filter(|&w| w != c.memory_words) {
                    bail!(
                        "state file {} is a {}K machine; it cannot be restored with a {}K memory",
                        path.display(),
                        c.memory_words / 1024,
                        words / 1024
                    );
                }
                if s.mul_div.is_some_and(|d| d != c.mul_div) {
                    bail!(
                        "state file {} was saved {} the Type 10 multiply/divide option; \
                         the settings ask for the opposite",
                        path.display(),
                        if c.mul_div { "with" } else { "without" }
                    );
                }
                for (given, saved, what) in [
                    (s.lai_lia, c.lai_lia, "the PDP-1D swp (lai/lia)"),
                    (s.second_display, c.second_display, "a second display"),
                    (s.sbs16, c.sbs16, "the Type 120 16-channel sequence break"),
                ] {
                    if given.is_some_and(|g| g != saved) {
                        bail!(
                            "state file {} was saved {} {what}; the settings ask for the opposite",
                            path.display(),
                            if saved { "with" } else { "without" }
                        );
                    }
                }
                m
            }
            None => {
                let defaults = MachineConfig::default();
                let config = MachineConfig {
                    memory_words: s.memory_words.unwrap_or(defaults.memory_words),
                    mul_div: s.mul_div.unwrap_or(defaults.mul_div),
                    sbs16: s.sbs16.unwrap_or(defaults.sbs16),
                    xct_limit: s.xct_limit.unwrap_or(defaults.xct_limit),
                    indirect_limit: s.indirect_limit.unwrap_or(defaults.indirect_limit),
                    lai_lia: s.lai_lia.unwrap_or(defaults.lai_lia),
                    second_display: s.second_display.unwrap_or(defaults.second_display),
                };
                Machine::new(config).map_err(|e| crate::err!("{e}"))?
            }
        };
        // On a restored machine only the switches given explicitly change; a fresh one powers
        // on with every switch off.
        if let Some(tw) = s.test_word {
            m.set_test_word(tw);
        }
        if let Some(ss) = s.sense_switches {
            m.set_sense_switches(ss);
        }
        if let Some(ta) = s.test_address {
            m.set_test_address(ta);
        }
        if let Some(ex) = s.extend {
            m.set_extend_switch(ex);
        }
        // The light pen likewise: a restored machine keeps the saved pen unless told.
        if let Some(p) = s.light_pen {
            m.set_light_pen(Some(p));
        }
        if let Some(r) = s.light_pen_radius {
            m.set_light_pen_radius(r);
        }
        let size = m.config().memory_words as u32;
        for &b in &s.breakpoints {
            if b >= size {
                bail!("breakpoint {b:o} is outside the {}K memory", size / 1024);
            }
            m.add_breakpoint(b);
        }
        for &(a, b) in &self.examine {
            if b >= size {
                bail!(
                    "--examine {a:o}-{b:o}: address {b:o} is outside the {}K memory (last address {:o})",
                    size / 1024,
                    size - 1
                );
            }
        }
        for (what, at) in [("--deposit", self.deposit_at), ("--start", self.start_at)] {
            if let Some(a) = at.filter(|&a| a >= size) {
                bail!("{what} {a:o} is outside the {}K memory", size / 1024);
            }
        }
        if let Some(s) = &self.script {
            s.check(&m)?;
        }
        if let Some(tape) = &self.tape {
            m.mount_tape(tape.frames.clone());
            m.read_in();
            if self.deposit_at.is_some() || self.start_at.is_some() {
                load_whole_tape(&mut m, tape.start)?;
            }
        }
        // The operator's console sequence after READ IN (e.g. Minskytron: the test word into
        // AC by DEPOSIT, then START at 5): the keys act as on the console, through TA.
        if let Some(a) = self.deposit_at {
            m.set_test_address(a);
            m.deposit();
        }
        if let Some(a) = self.start_at {
            m.set_test_address(a);
            m.start(false);
        }
        Ok(m)
    }
}

/// Let READ IN and the tape's own loader (a BLK tape's) load everything, up to the moment the
/// program would start: a breakpoint on the tape's start address, so the console keys that
/// follow act before the program's first instruction, as when the operator stops the machine
/// after the read-in.
fn load_whole_tape(m: &mut Machine, start: Option<u32>) -> Result<()> {
    let Some(start) = start else {
        return Ok(());
    };
    // READ IN itself, word by word: a RIM tape's final `jmp` leaves the PC at the start.
    while m.reading_in() {
        match m.step_cycle() {
            StopReason::Stepped => {}
            stop => bail!("READ IN did not finish: {stop:?}"),
        }
    }
    if m.pc() == start {
        return Ok(());
    }
    // A BLK tape's loader reads the blocks and then jumps to the start.
    let had = m.breakpoints().contains(&start);
    m.add_breakpoint(start);
    // Ten minutes of emulated time: a 4K-word tape takes about 1 minute at 400 lines/s.
    let limit = m.time_ns() + 600_000_000_000;
    let stop = m.run_until(Limit {
        until_ns: Some(limit),
        instructions: None,
    });
    if !had {
        m.remove_breakpoint(start);
    }
    match stop {
        StopReason::Breakpoint(_) if m.pc() == start => Ok(()),
        other => bail!(
            "the tape was not loaded up to its start address {start:o} \
             (the machine stopped: {other:?} at {:o})",
            m.pc()
        ),
    }
}

/// `pc=NNNNNN ac=NNNNNN io=NNNNNN ov=N pf=NN cycles=N` (octal except cycles): the `--registers`
/// line (issue 2 contract). `cycles` is the processor's time in 5 µs cycles, Type 10 mul/div
/// time included (`Machine::processor_cycles`).
pub fn registers_line(m: &Machine) -> String {
    format!(
        "pc={:06o} ac={} io={} ov={} pf={:02o} cycles={}",
        m.pc(),
        m.ac(),
        m.io(),
        u8::from(m.ov()),
        m.pf(),
        m.processor_cycles()
    )
}

/// `AAAA/ WWWWWW` lines for memory `a..=b` (the `--examine` contract; addresses above 7777 get
/// as many digits as they need).
pub fn examine_lines(m: &Machine, a: u32, b: u32) -> Vec<String> {
    (a..=b)
        .map(|addr| {
            let w = m.read(addr).unwrap_or(Word::ZERO);
            format!("{addr:04o}/ {w}")
        })
        .collect()
}
