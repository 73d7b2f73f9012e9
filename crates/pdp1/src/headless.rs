//! `pdp1 --headless`: no window. The typewriter prints to stdout, keys come from `--type` or
//! stdin, and the run ends when the program halts, at a limit, or when it has taken every key
//! and waited one emulated second for another (issue 2).
//!
//! The machine runs in slices that end on a fixed grid of emulated time ([`SLICE_NS`]), and
//! everything the host does to the machine (striking a key, changing the tape) happens between
//! slices. The grid is absolute, so a run that is saved and restored sees the same slice
//! boundaries as one that was not, and continues bit-identically.

use crate::audio::WavRecorder;
use crate::cli::Cli;
use crate::config::Speed;
use crate::draw::render;
use crate::keyboard::stdin::StdinKeys;
use crate::run::{End, RunControl};
use crate::setup::Setup;
use crate::trace::Tracer;
use crate::typeout::Paper;
use anyhow::{Context, Result};
use pdp1_core::{Machine, StopReason};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Emulated time between the host's looks at the machine (10 ms: keys are struck at least
/// 100 ms apart, and the idle stop needs one second).
pub const SLICE_NS: u64 = 10_000_000;
/// How long the program must wait for a key, with nothing left to type, before the run ends.
pub const IDLE_NS: u64 = 1_000_000_000;

/// Where keys come from: the `--type` text, or stdin.
enum Input {
    Typed,
    Stdin(StdinKeys),
}

/// Run headless. Returns why the run ended; the caller maps [`End::Error`] to a failing exit.
/// Also writes `--audio`, `--screenshot`, `--registers`, `--examine`, `--punch`, `--save-state` and the
/// trace at the end.
pub fn run(mut m: Machine, cli: &Cli, setup: &Setup) -> Result<End> {
    if setup.tape.is_none() && cli.load_state.is_none() && setup.script.is_none() {
        anyhow::bail!(
            "nothing to run: give a TAPE to read in (or --load-state FILE.ron, or a --script)"
        );
    }
    // A script brings its own keys: stdin is not read.
    let mut input = match (&setup.typed, &setup.script) {
        (None, None) => Input::Stdin(StdinKeys::start()),
        _ => Input::Typed,
    };
    let mut script = setup.script.clone();
    let mut script_out = Vec::new();
    // The stop the machine stands at while the script goes on (a halt, or its own STOP).
    let mut stood = StopReason::NotRunning;
    let interactive = matches!(&input, Input::Stdin(k) if k.is_terminal());
    // A person at a terminal wants the real machine's pace; scripts want results fast.
    let speed = setup.speed(if interactive {
        Speed::Factor(1.0)
    } else {
        Speed::Max
    });
    let mut run = RunControl::for_run(cli, setup, &m);
    if let Some(t) = cli.trace.as_deref().map(Tracer::create).transpose()? {
        run.trace(t, setup.symbols.clone());
    }
    let stdout = std::io::stdout();
    let mut paper = Paper::new(stdout.is_terminal());
    let mut text = String::new();
    // `--screenshot`: the window's own picture (scope, console, paper), drawn without a window.
    let mut screen = cli.screenshot.as_ref().map(|_| {
        let (w, h) = render::DEFAULT_SIZE;
        let mut sc = render::Screen::new(w, h);
        sc.widen_for_second_display();
        sc.view.tape_name = crate::frontend::tape_name(cli.tape.as_deref());
        sc
    });

    // `--audio`: the flags' sound from here on.
    let mut audio = cli
        .audio
        .as_deref()
        .map(|p| WavRecorder::start(p, setup, &mut m));
    let start_ns = m.time_ns();
    let wall = Instant::now();

    run.poll_reader(&mut m);
    let end = loop {
        // The script's actions that are due, between slices like everything the host does.
        if let Some(sc) = script.as_mut() {
            if sc.act(&mut m, &mut run, &mut script_out) {
                // (START, CONTINUE or READ IN: the stop is over.)
                stood = StopReason::NotRunning;
            }
            if !script_out.is_empty() {
                let mut out = stdout.lock();
                for line in script_out.drain(..) {
                    let _ = writeln!(out, "{line}");
                }
                let _ = out.flush();
            }
        }
        let now = m.time_ns();
        let mut slice_end = (now / SLICE_NS).saturating_add(1).saturating_mul(SLICE_NS);
        let script_on = script.as_ref().is_some_and(|sc| !sc.done());
        if let Some(d) = script.as_ref().and_then(|sc| sc.deadline()) {
            slice_end = slice_end.min(d.max(now + 1));
        }
        let before = (m.time_ns(), m.instructions());
        let stop = if !m.running() && script_on {
            // The machine stands while the script goes on: a time wait lets emulated time
            // pass (the devices finish what they do, Machine::idle_until); any other wait
            // would never end.
            let sc = script.as_ref().expect("script_on");
            if sc.deadline().is_none() {
                eprintln!(
                    "pdp1: warning: {} waits, but the machine stands (pc={:06o}); the run ends",
                    sc.position(),
                    m.pc()
                );
                break End::from_stop(stood, &m);
            }
            match run.limit(&m, slice_end) {
                Ok(l) => m.idle_until(l.until_ns.unwrap_or(slice_end)),
                Err(reached) => break End::from_stop(reached, &m),
            }
            None
        } else {
            match run.advance(&mut m, slice_end)? {
                Ok(stop) => Some(stop),
                Err(reached) => break End::from_stop(reached, &m),
            }
        };
        let stalled = (m.time_ns(), m.instructions()) == before;

        let events = m.drain_typewriter();
        run.typist.observe(&events);
        if let Some(sc) = script.as_mut() {
            sc.observe(&events);
        }
        paper.render(&events, &mut text);
        if !text.is_empty() {
            let mut out = stdout.lock();
            // A closed stdout (e.g. `| head`) must not stop the machine's run.
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
            text.clear();
        }
        if let Some(a) = audio.as_mut() {
            a.feed(&mut m);
        }
        let points = m.drain_display();
        if let Some(sc) = screen.as_mut() {
            sc.feed_display(&points);
            sc.feed_typewriter(&events);
        }

        match stop {
            // A slice in which emulated time does not move would repeat forever (only a
            // damaged state, e.g. a clock at its maximum, can do that).
            None
            | Some(StopReason::TimeLimit | StopReason::InstructionLimit | StopReason::Stepped)
                if stalled =>
            {
                break End::Error(format!(
                    "the machine makes no progress (emulated time stuck at {} ns)",
                    m.time_ns()
                ));
            }
            None
            | Some(StopReason::TimeLimit | StopReason::InstructionLimit | StopReason::Stepped) => {}
            Some(other) if run.continue_after(&mut m, other) => {}
            // Any stop with the script still going — a halt, the script's STOP, a
            // breakpoint, or an error such as the undefined instruction 0 that the Spacewar!
            // hyperspace patch jumps to after its READ IN: the machine stands at the console,
            // as on the real machine, and the script acts next (an error is said on stderr).
            Some(other) if script_on => {
                if let End::Error(msg) = End::from_stop(other, &m) {
                    let sc = script.as_ref().expect("script_on");
                    eprintln!(
                        "pdp1: the machine stopped: {msg} (the script goes on: {})",
                        sc.position()
                    );
                }
                stood = other;
            }
            // The script ended with the machine standing: the run ends at that stop.
            Some(StopReason::NotRunning) if script.is_some() => break End::from_stop(stood, &m),
            Some(other) => break End::from_stop(other, &m),
        }

        run.poll_reader(&mut m);
        let input_done = match &mut input {
            Input::Typed => true,
            Input::Stdin(k) => {
                let (keys, done) = k.poll();
                if k.interrupted() {
                    break End::Interrupted;
                }
                run.typist.push(keys);
                done
            }
        };
        run.type_keys(&mut m);
        if let Some(since) = m.key_wait_since() {
            let waited = m.time_ns().saturating_sub(since) >= IDLE_NS;
            if waited && input_done && run.typist.remaining() == 0 && !m.key_pending() {
                match script.as_ref().filter(|sc| !sc.done()) {
                    // Time passes for a time wait; the script may type later.
                    Some(sc) if sc.deadline().is_some() => {}
                    Some(sc) => {
                        eprintln!(
                            "pdp1: warning: {} waits, but the program waits for a key with \
                             nothing left to type; the run ends",
                            sc.position()
                        );
                        break End::Idle;
                    }
                    None => break End::Idle,
                }
            }
            // Waiting for a key while one sits untaken in the buffer (the program polls its
            // flag, which was cleared after the key was struck): nothing will ever change.
            if waited && m.key_pending() {
                eprintln!(
                    "pdp1: warning: the program waits for a key but does not take the one struck \
                     ({} more not typed)",
                    run.typist.remaining()
                );
                break End::Idle;
            }
        }
        if let Speed::Factor(f) = speed {
            let due = Duration::from_secs_f64((m.time_ns() - start_ns) as f64 / 1e9 / f);
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
    drop(input);
    if let (Some(sc), Some(path)) = (screen.as_mut(), &cli.screenshot) {
        sc.screenshot(&m, path)
            .with_context(|| format!("cannot write screenshot {}", path.display()))?;
    }
    if let Some(a) = audio {
        a.finish(&mut m)?;
    }
    // The end-of-run outputs in the window's order: trace, punch, state (the screenshot was
    // written above), then the dumps.
    run.write_files(&m)?;
    run.write_dumps(&m);
    Ok(end)
}
