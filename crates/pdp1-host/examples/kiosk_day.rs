//! An emulated day of the kiosk (issue 27): `roms/kalah.rim` read in, games played one after
//! another at full speed, and the tape read in again a minute after each game's end, as
//! `pdp1 --kiosk` does (`pdp1_host::kiosk`). The visitor strikes space whenever the program
//! waits for a key, so the machine plays both sides. Everything a kiosk's window keeps is
//! kept: the run controller, the typist, the screen (tube, paper, strip) fed with every point
//! and character and drawn once a second of emulated time, the program flags' changes taken as
//! the loudspeaker takes them. Once an emulated hour it prints
//! the process's resident memory (VmRSS) and CPU time, from /proc (Linux).
//!
//! ```sh
//! cargo run --release -p pdp1-host --example kiosk_day            # 86,400 emulated seconds
//! cargo run --release -p pdp1-host --example kiosk_day -- 3600 roms/kalah.rim
//! cargo run --release -p pdp1-host --example kiosk_day -- 86400 --keep-paper
//! ```
//!
//! (`--keep-paper`: the restarts keep the paper, as the kiosk did before it took a fresh sheet.)
//!
//! Not a test: it takes minutes, and its figures are the host's (docs/performance.md).

use anyhow::{bail, Context, Result};
use pdp1_core::{Machine, MachineConfig};
use pdp1_host::draw::render::Screen;
use pdp1_host::keyboard::Typist;
use pdp1_host::kiosk::GameEnd;
use pdp1_host::run::{RunControl, RunPlan};
use pdp1_host::tape::{Feeder, Tape};
use std::time::Instant;

const S: u64 = 1_000_000_000;
/// Steps of the run between the visitor's looks (the headless runner's grid).
const SLICE: u64 = pdp1_host::run::SLICE_NS;

/// A number from /proc/self/status (`VmRSS:  1234 kB` → 1234).
fn status_kb(key: &str) -> Result<u64> {
    let s = std::fs::read_to_string("/proc/self/status").context("reading /proc/self/status")?;
    s.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .with_context(|| format!("no {key} in /proc/self/status"))
}

/// User + system CPU seconds of this process (/proc/self/stat fields 14 and 15, in clock
/// ticks of 1/100 s, Linux's USER_HZ).
fn cpu_seconds() -> Result<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").context("reading /proc/self/stat")?;
    // (Fields after the command name, which is in parentheses and may hold spaces.)
    let rest = s.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| -> Result<f64> {
        Ok(f.get(i).context("short /proc/self/stat")?.parse::<f64>()?)
    };
    // rest[0] is field 3 (state): utime is field 14, stime 15.
    Ok((tick(11)? + tick(12)?) / 100.0)
}

/// One line of the table: emulated hours, games, spaces struck, RSS, CPU and wall seconds.
fn report(now_ns: u64, games: u64, spaces: u64, wall: Instant) -> Result<()> {
    println!(
        "{:>10.1}  {games:>5}  {spaces:>6}  {:>6}  {:>5.1}  {:>6.1}",
        now_ns as f64 / 3600e9,
        status_kb("VmRSS:")?,
        cpu_seconds()?,
        wall.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).peekable();
    let seconds: u64 = match args.next() {
        Some(a) => a.parse().context("argument 1: emulated seconds")?,
        None => 86_400,
    };
    // `--keep-paper`: the paper is not renewed at the restarts (the kiosk before it was).
    let keep_paper = args.next_if(|a| a == "--keep-paper").is_some();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = args
        .next()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("roms/kalah.rim"));
    let frames = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let tape = Tape::boot(frames, "kalah.rim")?;
    let profile = pdp1_host::library::guess(&tape.frames).profile;
    let config = MachineConfig {
        mul_div: profile.mul_div,
        memory_words: profile.memory_words,
        ..MachineConfig::default()
    };
    let mut m = Machine::new(config)?;
    m.mount_tape(tape.frames.clone());
    m.read_in();
    let feeder = Feeder::new(Some(&tape), &[]).named("kalah.rim", &[]);
    let mut rc = RunControl::new(RunPlan::default(), feeder, Typist::default(), m);
    let mut screen = Screen::new(1280, 760);
    (screen.view.tube_first, screen.view.kiosk) = (true, true);
    let mut watch = GameEnd::default();

    let wall = Instant::now();
    let (mut games, mut spaces, mut next_draw, mut next_report) = (0u64, 0u64, S, 0u64);
    println!("emulated h  games  spaces  RSS kB  CPU s  wall s");
    let end = seconds * S;
    while rc.machine().time_ns() < end {
        let now = rc.machine().time_ns();
        if now >= next_report {
            report(now, games, spaces, wall)?;
            next_report += 3600 * S;
        }
        let a = rc.advance((now / SLICE + 1) * SLICE);
        screen.feed_display(&a.points);
        screen.feed_typewriter(&a.typed);
        watch.observe(&a.typed, rc.machine().time_ns());
        // (The program flags' changes, which the window's loudspeaker takes every frame.)
        rc.drain_flags();
        if let Some(stop) = a.stop {
            bail!("the machine stopped at {:.1} s: {stop:?}", now as f64 / 1e9);
        }
        let now = rc.machine().time_ns();
        if now >= next_draw {
            screen.render(rc.machine());
            next_draw += S;
        }
        if watch.due(now) {
            // The kiosk's READ IN a minute after the game's last line.
            watch.clear();
            if !keep_paper {
                screen.new_sheet();
            }
            rc.read_in();
            games += 1;
        } else if !watch.pending() && rc.waiting_for_key() {
            rc.type_char(' ');
            spaces += 1;
        }
    }
    report(rc.machine().time_ns(), games, spaces, wall)?;
    println!("peak RSS (VmHWM): {} kB", status_kb("VmHWM:")?);
    Ok(())
}
