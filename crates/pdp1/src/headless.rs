//! `pdp1 --headless`: no window. The typewriter prints to stdout, keys come from `--type` or
//! stdin, and the run ends when the program halts, at a limit, or when it has taken every key
//! and waited one emulated second for another (issue 2).
//!
//! The machine runs in slices that end on a fixed grid of emulated time ([`SLICE_NS`]), and
//! everything the host does to the machine (striking a key, changing the tape) happens between
//! slices. The grid is absolute, so a run that is saved and restored sees the same slice
//! boundaries as one that was not, and continues bit-identically.

use crate::audio::WavRecorder;
use crate::config::Speed;
use crate::draw::render;
use crate::run::{End, KeySource, Polled, RunControl, RunPlan, SLICE_NS};
use crate::setup::Setup;
use crate::stdin::StdinKeys;
use crate::typeout::Paper;
use anyhow::{Context, Result};
use pdp1_core::Machine;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Keys from stdin, for the run controller.
impl KeySource for StdinKeys {
    fn poll(&mut self) -> Polled {
        let (keys, done) = StdinKeys::poll(self);
        Polled {
            keys,
            done,
            interrupted: self.interrupted(),
        }
    }
}

/// Run headless. Returns why the run ended; the caller maps [`End::Error`] to a failing exit.
/// Also writes `--audio`, `--screenshot`, `--registers`, `--examine`, `--punch`, `--save-state` and the
/// trace at the end.
///
/// The run itself is the controller's ([`RunControl::advance`], one slice at a time); this
/// driver adds what only a terminal has: the paper on stdout, keys from stdin, `--audio`,
/// `--screenshot` and pacing to the wall clock for a person at the terminal.
/// What the command line asks of a headless run besides the set-up (built by `main`).
#[derive(Debug, Default)]
pub struct Options {
    /// A machine just powered on (no `--load-state`).
    pub fresh: bool,
    pub trace: Option<PathBuf>,
    pub screenshot: Option<PathBuf>,
    pub audio: Option<PathBuf>,
}

pub fn run(m: Machine, plan: RunPlan, opts: &Options, setup: &Setup) -> Result<End> {
    if setup.tape.is_none() && opts.fresh && setup.script.is_none() {
        anyhow::bail!(
            "nothing to run: give a TAPE to read in (or --load-state FILE.ron, or a --script)"
        );
    }
    let mut run = RunControl::for_run(plan, setup, opts.fresh, m);
    // Nobody at the console: a stop ends the run, and so does waiting for a key that will
    // never come.
    run.unattended = true;
    run.idle_ends = true;
    // A script brings its own keys: stdin is not read.
    let mut interactive = false;
    if setup.typed.is_none() && setup.script.is_none() {
        let keys = StdinKeys::start();
        interactive = keys.is_terminal();
        run.key_source(Box::new(keys));
    }
    // A person at a terminal wants the real machine's pace; scripts want results fast.
    let speed = setup.speed(if interactive {
        Speed::Factor(1.0)
    } else {
        Speed::Max
    });
    if let Some(t) = opts.trace.as_deref().map(crate::files::trace).transpose()? {
        run.trace(t);
    }
    let stdout = std::io::stdout();
    let mut paper = Paper::new(stdout.is_terminal());
    let mut text = String::new();
    // `--screenshot`: the window's own picture (scope, console, paper), drawn without a window.
    let mut screen = opts.screenshot.as_ref().map(|_| {
        let (w, h) = render::DEFAULT_SIZE;
        let mut sc = render::Screen::new(w, h);
        sc.widen_for_second_display();
        sc.view.tape_name = setup.tape_name.clone();
        sc
    });

    // `--audio`: the flags' sound from here on.
    let mut audio = opts.audio.as_deref().map(|p| {
        run.drain_flags();
        WavRecorder::start(p, setup, run.machine())
    });
    let start_ns = run.machine().time_ns();
    let wall = Instant::now();

    let end = loop {
        // Slices end on an absolute grid of emulated time.
        let now = run.machine().time_ns();
        let slice_end = (now / SLICE_NS).saturating_add(1).saturating_mul(SLICE_NS);
        let a = run.advance(slice_end);
        if !a.script_out.is_empty() {
            let mut out = stdout.lock();
            for line in &a.script_out {
                let _ = writeln!(out, "{line}");
            }
            let _ = out.flush();
        }
        for note in &a.notes {
            eprintln!("pdp1: {note}");
        }
        paper.render(&a.typed, &mut text);
        if !text.is_empty() {
            let mut out = stdout.lock();
            // A closed stdout (e.g. `| head`) must not stop the machine's run.
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
            text.clear();
        }
        if let Some(au) = audio.as_mut() {
            let changes = run.drain_flags();
            au.feed(&changes, run.machine());
        }
        if let Some(sc) = screen.as_mut() {
            if sc.view.tape_name != run.tape_in_reader() {
                sc.view.tape_name = run.tape_in_reader().to_owned();
            }
            sc.feed_display(&a.points);
            sc.feed_typewriter(&a.typed);
        }
        if let Some(end) = a.end {
            break end;
        }
        if let Speed::Factor(f) = speed {
            let due =
                Duration::from_secs_f64((run.machine().time_ns() - start_ns) as f64 / 1e9 / f);
            if let Some(ahead) = due.checked_sub(wall.elapsed()) {
                std::thread::sleep(ahead);
            }
        }
    };

    paper.finish(&mut text);
    if !text.is_empty() {
        let mut out = stdout.lock();
        let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    }
    run.close_keys();
    if let (Some(sc), Some(path)) = (screen.as_mut(), &opts.screenshot) {
        sc.screenshot(run.machine())
            .map_err(anyhow::Error::from)
            .and_then(|png| crate::files::write_png(&png, path))
            .with_context(|| format!("cannot write screenshot {}", path.display()))?;
    }
    if let Some(a) = audio {
        let changes = run.drain_flags();
        a.finish(&changes, run.machine())?;
    }
    // The end-of-run outputs in the window's order: trace, punch, state (the screenshot was
    // written above), then the dumps.
    crate::files::write_run_files(&mut run)?;
    crate::files::print_dumps(&run);
    Ok(end)
}
