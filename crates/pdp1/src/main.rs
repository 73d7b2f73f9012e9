//! The `pdp1` binary: parses the command line, reads the configuration, builds the machine
//! (mounting the tape and pressing READ IN), and runs it headless or in a window.
//!
//! Exit status: 0 when a run ends normally (halt, limit, breakpoint, idle at the keyboard);
//! 1 for bad input found before the run (files, tapes, option values) or a failure writing
//! results; 2 for command-line syntax errors (from clap); 3 when the machine stopped on an error
//! (undefined instruction, I/O hang, xct/indirect limit, failed READ IN).

mod audio;
mod cli;
mod files;
mod frontend;
mod headless;
mod listen;
mod mankalah;
mod options;
mod serve;
mod stdin;

// The library every host stands on (crates/pdp1-host), under the names the drivers use.
use pdp1_host::{config, draw, keyboard, library, run, script, setup, state, tape, trace, typeout};

use clap::Parser;
use std::process::ExitCode;

/// Bad input or an I/O failure.
const EXIT_ERROR: u8 = 1;
/// The machine stopped on an error.
const EXIT_MACHINE: u8 = 3;

fn main() -> ExitCode {
    // clap prints its own message (and `--help`/`--version` text) and exits 2 on bad syntax.
    let cli = cli::Cli::parse();
    match run(&cli) {
        Ok(Some(run::End::Error(message))) => {
            eprintln!("pdp1: the machine stopped: {message}");
            ExitCode::from(EXIT_MACHINE)
        }
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(end)) => {
            if cli.verbose {
                eprintln!("pdp1: {}", end.describe());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pdp1: error: {e:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Options a driver cannot honour are refused with one line, never silently dropped (issue
/// 25): what each driver does with the others is in docs/headless.md and docs/kalah.md.
fn refuse_options(cli: &cli::Cli) -> anyhow::Result<()> {
    use anyhow::bail;
    if cli.mankalah {
        // The agent answers at the machine's top speed and shows nothing: no picture, no
        // sound, and a breakpoint would stop the program in the middle of the match.
        let refused = [
            (!cli.breakpoint.is_empty(), "--breakpoint"),
            (cli.screenshot.is_some(), "--screenshot"),
            (cli.audio.is_some(), "--audio"),
            (cli.speed.is_some(), "--speed"),
            (cli.mute, "--mute"),
            (cli.sound_flags.is_some(), "--sound-flags"),
        ];
        if let Some((_, name)) = refused.iter().find(|(given, _)| *given) {
            bail!(
                "{name} does not go with --mankalah (the agent plays at top speed, shows and \
                 sounds nothing, and is not stopped mid-match)"
            );
        }
    } else if let Some(d) = cli.depth {
        bail!("--depth {d} is the ManKalah agent's search depth: give it with --mankalah (a run's depth is the program's test word, --tw)");
    } else if let Some(t) = cli.move_time {
        bail!("--move-time {t} is the ManKalah agent's time per move: give it with --mankalah");
    }
    if cli.listen.is_some() && (cli.mankalah || (cli.headless && cli.screenshot.is_some())) {
        bail!("--listen serves the machine to the PiDP-1's tools, beside the window or with --headless alone: it does not go with --mankalah, nor --headless with --screenshot");
    }
    if !cli.mankalah && !cli.headless && cli.audio.is_some() {
        bail!("--audio records a headless run's sound to a file: give it with --headless (the window plays the sound; ctrl+U turns it off)");
    }
    Ok(())
}

/// Headless runs say why they ended; the window just closes (`None`).
fn run(cli: &cli::Cli) -> anyhow::Result<Option<run::End>> {
    refuse_options(cli)?;
    // The web page (issue 26): the machine runs in the browser, not here.
    if let Some(dir) = &cli.write_page {
        return serve::write_page(dir).map(|_| None);
    }
    if cli.serve {
        return serve::serve(cli.port.unwrap_or(serve::PORT), cli.tape.as_deref()).map(|_| None);
    }
    if cli.port.is_some() {
        anyhow::bail!("--port is where --serve serves the page: give it with --serve");
    }
    let setup = options::setup_from_cli(cli)?;
    if cli.verbose || setup.machine_chosen_by_content() {
        if let Some(note) = setup.machine_note() {
            eprintln!("pdp1: {note}");
        }
    }
    let machine = setup.build_machine(options::restored(cli)?)?;
    // Each driver takes its own options, built from the command line here; none sees `Cli`.
    let plan = options::run_plan(cli, &setup);
    let fresh = cli.load_state.is_none();
    if cli.mankalah {
        let opts = mankalah::Options {
            fresh,
            depth: cli.depth,
            move_time: cli.move_time,
            trace: cli.trace.clone(),
        };
        // The match's end (regular or aborted by the engine) is a normal end; errors are `Err`.
        return mankalah::run(machine, plan, &opts, &setup).map(|_| None);
    }
    let listen = cli
        .listen
        .map(|addr| -> anyhow::Result<listen::Options> {
            Ok(listen::Options {
                addr,
                ports: listen::parse_ports(&cli.ports)?,
                tape_dir: cli.tape_dir.clone().unwrap_or_else(|| ".".into()),
            })
        })
        .transpose()?;
    if let (Some(opts), true) = (&listen, cli.headless) {
        return listen::run(machine, plan, opts, &setup).map(Some);
    }
    if cli.headless {
        let opts = headless::Options {
            fresh,
            trace: cli.trace.clone(),
            screenshot: cli.screenshot.clone(),
            audio: cli.audio.clone(),
        };
        headless::run(machine, plan, &opts, &setup).map(Some)
    } else {
        let opts = frontend::Options {
            // The window runs in real time unless told otherwise.
            speed: setup.speed(frontend::pacing::Speed::Factor(1.0)),
            symbols: setup.symbols.clone(),
            screenshot: cli.screenshot.clone(),
            trace: cli.trace.clone(),
            save_state: cli.save_state.clone(),
            load_state: cli.load_state.clone(),
            program_help: cli
                .tape
                .as_deref()
                .map(frontend::program_help)
                .transpose()?
                .unwrap_or_default(),
            no_tape: cli.tape.is_none() && cli.load_state.is_none(),
            tape_name: setup.tape_name.clone(),
            fresh,
            script_name: cli.script.as_ref().map(|p| p.display().to_string()),
            mute: cli.mute,
            kiosk: cli.kiosk,
            listen,
        };
        // The frontend explains a missing display and points to --headless itself.
        frontend::run(machine, plan, opts, &setup).map(|()| None)
    }
}
