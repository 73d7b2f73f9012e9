//! The command line, turned into what the library and each driver take (issue 25: `&Cli`
//! stops here and at `main.rs`): the settings (the command line over the `--config` file), the
//! [`Setup`] (every file the command line names read and checked before anything runs), the
//! run plan and each driver's options. Files are read here, in the binary; the set-up itself
//! is made of bytes and values.

use crate::cli::Cli;
use crate::config::{
    check_seconds, parse_flag_list, parse_light_pen, parse_memory, parse_octal, parse_range,
    parse_sense_list, parse_speed, Settings,
};
use crate::keyboard::parse_typed;
use crate::library::{self, Use};
use crate::run::RunPlan;
use crate::setup::{Restored, Setup};
use crate::tape;
use anyhow::{bail, Context, Result};
use pdp1_asm::SymbolTable;
use pdp1_core::Word;

/// The settings given on the command line alone.
pub fn settings_from_cli(cli: &Cli) -> Result<Settings> {
    let mut s = Settings::default();
    if let Some(t) = &cli.tw {
        s.test_word = Some(Word::new(parse_octal(t, Word::MASK, "--tw")?));
    }
    if let Some(t) = &cli.ss {
        s.sense_switches = Some(parse_sense_list(t, "--ss")?);
    }
    if let Some(t) = &cli.ta {
        s.test_address = Some(parse_octal(t, 0o177777, "--ta")?);
    }
    if cli.mdv {
        s.mul_div = Some(true);
    }
    if cli.swp {
        s.lai_lia = Some(true);
    }
    if cli.second_display {
        s.second_display = Some(true);
    }
    if cli.sbs16 {
        s.sbs16 = Some(true);
    }
    if cli.extend {
        s.extend = Some(true);
    }
    if let Some(t) = &cli.memory {
        s.memory_words = Some(parse_memory(t, "--memory")?);
    }
    if let Some(v) = cli.max_seconds {
        s.max_seconds = Some(check_seconds(v, "--max-seconds")?);
    }
    s.max_instructions = cli.max_instructions;
    if let Some(t) = &cli.speed {
        s.speed = Some(parse_speed(t, "--speed")?);
    }
    for b in &cli.breakpoint {
        s.breakpoints
            .push(parse_octal(b, 0o177777, "--breakpoint")?);
    }
    if let Some(t) = &cli.light_pen {
        s.light_pen = Some(parse_light_pen(t, "--light-pen")?);
    }
    s.light_pen_radius = cli.light_pen_radius;
    if let Some(t) = &cli.sound_flags {
        s.sound_flags = Some(parse_flag_list(t, "--sound-flags")?);
    }
    Ok(s)
}

/// Command line over the config file (if any).
pub fn resolve_settings(cli: &Cli) -> Result<Settings> {
    let from_cli = settings_from_cli(cli)?;
    let base = match &cli.config {
        Some(path) => crate::files::config(path)?
            .to_settings()
            .with_context(|| format!("configuration file {}", path.display()))?,
        None => Settings::default(),
    };
    Ok(from_cli.over(base))
}

/// Read and check everything the command line names. Nothing is run or written here.
pub fn setup_from_cli(cli: &Cli) -> Result<Setup> {
    let mut settings = resolve_settings(cli)?;
    if cli.tape.is_some() && cli.load_state.is_some() {
        bail!("give either a TAPE to read in or --load-state, not both");
    }
    // Which machine: a known tape's (`--profile auto`, the default) or a named one.
    let auto = cli
        .profile
        .as_deref()
        .is_none_or(|p| p.eq_ignore_ascii_case("auto"));
    let script = cli
        .script
        .as_deref()
        .map(crate::files::script)
        .transpose()?;
    // Without a TAPE, a script that reads in a tape first names the machine: its tape's
    // profile (the operator's console steps are the script's own).
    let script_boot = match (&cli.tape, &cli.load_state, &script) {
        (None, None, Some(s)) => s.boot_tape(),
        _ => None,
    };
    let recognised = match (cli.tape.as_deref().or(script_boot), auto) {
        (Some(path), true) => std::fs::read(path)
            .ok()
            .and_then(|f| library::recognise(&f)),
        _ => None,
    };
    let (profile, console) = match (recognised, cli.profile.as_deref()) {
        (Some(k), _) => match k.what {
            Use::Program { profile, .. } if script_boot.is_some() => {
                (Some(library::profile(profile)?), Default::default())
            }
            Use::Program { profile, console } => (Some(library::profile(profile)?), console),
            // (A script may read such a tape in over a program: no complaint then.)
            Use::Other { .. } if script_boot.is_some() => (None, Default::default()),
            Use::Other { advice } => bail!(
                "tape {}: this is {} ({}): {advice}",
                cli.tape
                    .as_deref()
                    .unwrap_or(std::path::Path::new(""))
                    .display(),
                k.title,
                k.file
            ),
        },
        (None, Some(name)) if !auto => (Some(library::profile(name)?), Default::default()),
        (None, _) => (None, Default::default()),
    };
    if let Some(p) = profile {
        // Under whatever the command line and the configuration file say.
        let s = &mut settings;
        s.mul_div = s.mul_div.or(Some(p.mul_div));
        s.memory_words = s.memory_words.or(Some(p.memory_words));
        s.lai_lia = s.lai_lia.or(Some(p.lai_lia));
        s.second_display = s.second_display.or(Some(p.second_display));
        s.extend = s.extend.or(Some(p.extend));
        s.xct_limit = s.xct_limit.or(p.xct_limit);
    }
    settings.test_word = settings.test_word.or(console.test_word.map(Word::new));
    settings.sense_switches = settings.sense_switches.or(console.sense_switches);
    let tape = cli
        .tape
        .as_deref()
        .map(crate::files::boot_tape)
        .transpose()?;
    let reader = cli
        .reader
        .iter()
        .map(|p| crate::files::data_tape(p))
        .collect::<Result<Vec<_>>>()?;
    let typed = cli.type_text.as_deref().map(parse_typed).transpose()?;
    let examine = cli
        .examine
        .iter()
        .map(|r| parse_range(r, "--examine"))
        .collect::<Result<Vec<_>, pdp1_host::error::Error>>()?;
    let symbols = match &cli.symbols {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read symbol table {}", path.display()))?;
            Some(
                SymbolTable::parse(&text)
                    .with_context(|| format!("symbol table {}", path.display()))?,
            )
        }
        None => None,
    };
    let halt_test_words = match &cli.halt_tw {
        Some(list) => list
            .split(',')
            .map(|t| parse_octal(t, Word::MASK, "--halt-tw").map(Word::new))
            .collect::<Result<Vec<_>, pdp1_host::error::Error>>()?,
        None => Vec::new(),
    };
    let deposit_at = cli
        .deposit
        .as_deref()
        .map(|t| parse_octal(t, 0o177777, "--deposit"))
        .transpose()?;
    let start_at = cli
        .start
        .as_deref()
        .map(|t| parse_octal(t, 0o177777, "--start"))
        .transpose()?;
    // The tape's operator steps, unless the command line gives its own.
    let (deposit_at, start_at) = if deposit_at.is_none() && start_at.is_none() {
        (console.deposit, console.start)
    } else {
        (deposit_at, start_at)
    };
    let (continue_halts, halt_test_words) = if cli.continue_halts == 0 && cli.halt_tw.is_none() {
        let words = console.halt_test_words.iter().map(|&w| Word::new(w));
        (console.continue_halts, words.collect())
    } else {
        (cli.continue_halts, halt_test_words)
    };
    Ok(Setup {
        settings,
        tape,
        tape_name: tape::file_name_of(cli.tape.as_deref()),
        reader_names: cli.reader.iter().map(|p| tape::file_name(p)).collect(),
        reader,
        typed,
        examine,
        symbols,
        halt_test_words,
        deposit_at,
        start_at,
        continue_halts,
        recognised,
        profile,
        script,
    })
}

/// The run as the command line and the set-up describe it (limits from the settings, which
/// merged the RON file and the command line and checked the numbers).
pub fn run_plan(cli: &Cli, setup: &Setup) -> RunPlan {
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

/// `--load-state`'s machine, read here.
pub fn restored(cli: &Cli) -> Result<Option<Restored>> {
    cli.load_state
        .as_deref()
        .map(|p| {
            Ok(Restored {
                machine: crate::files::load_state(p)?,
                name: p.display().to_string(),
            })
        })
        .transpose()
}
