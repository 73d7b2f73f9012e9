//! `cargo run --release -p pdp1-bench [-- INSTRUCTIONS [WORKLOAD]]`
//!
//! Runs the same CPU-bound programs for the same number of instructions on pdp1-core (through
//! its public API, counting cycles exactly as always) and on SIMH 3.8's `pdp1`, checks that
//! both end in the same state, and reports emulated instructions per second for each and
//! their ratio. Each program is also punched as a RIM tape and run by our `pdp1 --headless`
//! binary (when it has been built: `cargo build --release -p pdp1`) and by SIMH's `load`. Rates are per CPU second (user + system time of the process doing the work:
//! ours from /proc/self/stat, SIMH's from /usr/bin/time) so that other load on the machine
//! disturbs the comparison less; wall-clock rates are shown as well. See docs/performance.md.

mod workloads;

use anyhow::{bail, Context, Result};
use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};
use pdp1_tests::simh::{parse_report, Script, Simh};
use std::process::Command;
use std::time::Instant;
use workloads::Workload;

/// Default instruction count per run: long enough that process start-up is noise.
const DEFAULT_INSTRUCTIONS: u64 = 400_000_000;

/// User + system CPU seconds of this process so far (Linux /proc, clock ticks of 1/100 s).
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

struct Measured {
    wall: f64,
    cpu: Option<f64>,
    pc: u32,
    ac: u32,
    io: u32,
}

fn run_ours(w: &Workload, n: u64) -> Result<Measured> {
    let cfg = MachineConfig {
        mul_div: w.mdv,
        ..MachineConfig::default()
    };
    let mut m = Machine::new(cfg)?;
    for &(a, v) in w.words {
        m.write(a, Word::new(v))?;
    }
    m.set_pc(w.start);
    m.cont();
    let c0 = own_cpu_seconds();
    let t0 = Instant::now();
    let r = m.run_until(Limit {
        until_ns: None,
        instructions: Some(n),
    });
    let wall = t0.elapsed().as_secs_f64();
    let cpu = own_cpu_seconds().zip(c0).map(|(a, b)| a - b);
    if r != StopReason::InstructionLimit {
        bail!("{}: our machine stopped early: {r:?}", w.name);
    }
    Ok(Measured {
        wall,
        cpu,
        pc: m.pc(),
        ac: m.ac().bits(),
        io: m.io().bits(),
    })
}

/// Run `w` on SIMH: deposited, or loaded from a RIM `tape` (SIMH's `load` sets the PC).
fn run_simh(sim: &Simh, w: &Workload, n: u64, tape: Option<&std::path::Path>) -> Result<Measured> {
    let mut s = Script::new();
    s.cmd("set cpu 4k").cmd(if w.mdv {
        "set cpu mdv"
    } else {
        "set cpu nomdv"
    });
    match tape {
        Some(t) => {
            s.cmd(&format!("load {}", t.display()));
        }
        None => {
            for &(a, v) in w.words {
                s.deposit(a, v);
            }
            s.set_reg("pc", w.start);
        }
    }
    s.step(n).examine_regs(&["PC", "AC", "IO"]);
    let file =
        std::env::temp_dir().join(format!("pdp1-bench-{}-{}.sim", std::process::id(), w.name));
    std::fs::write(&file, format!("{}quit\n", s.text()))?;
    let timed = std::path::Path::new("/usr/bin/time").is_file();
    let mut cmd = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-f").arg("CPU %U %S").arg(sim.path());
        c
    } else {
        Command::new(sim.path())
    };
    let t0 = Instant::now();
    let out = cmd
        .arg(&file)
        .stdin(std::process::Stdio::null())
        .output()
        .context("running SIMH")?;
    let wall = t0.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(&file);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let cpu = child_cpu(&stderr);
    let rep = parse_report(&String::from_utf8_lossy(&out.stdout));
    match &rep.stop {
        Some((msg, _)) if msg == "Step expired" => {}
        other => bail!("{}: SIMH stopped early: {other:?}", w.name),
    }
    let reg = |r: &str| {
        rep.regs
            .get(r)
            .copied()
            .with_context(|| format!("SIMH printed no {r}"))
    };
    Ok(Measured {
        wall,
        cpu,
        pc: reg("PC")?,
        ac: reg("AC")?,
        io: reg("IO")?,
    })
}

/// CPU seconds of a child run under `/usr/bin/time -f "CPU %U %S"`, from its stderr.
fn child_cpu(stderr: &str) -> Option<f64> {
    stderr.lines().rev().find_map(|l| {
        let mut it = l.strip_prefix("CPU ")?.split_whitespace();
        Some(it.next()?.parse::<f64>().ok()? + it.next()?.parse::<f64>().ok()?)
    })
}

/// `pdp1 --headless TAPE --max-instructions N --registers`: READ IN, then N instructions.
fn run_headless(pdp1: &std::path::Path, tape: &std::path::Path, n: u64) -> Result<Measured> {
    let t0 = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("CPU %U %S")
        .arg(pdp1)
        .arg("--headless")
        .arg(tape)
        .arg("--max-instructions")
        .arg(n.to_string())
        .arg("--registers")
        .stdin(std::process::Stdio::null())
        .output()
        .context("running pdp1 --headless")?;
    let wall = t0.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pc="))
        .with_context(|| format!("pdp1 --headless printed no registers: {stderr}"))?;
    let field = |k: &str| -> Result<u32> {
        let v = line
            .split_whitespace()
            .find_map(|f| f.strip_prefix(k))
            .with_context(|| format!("no {k} in {line}"))?;
        Ok(u32::from_str_radix(v, 8)?)
    };
    Ok(Measured {
        wall,
        cpu: child_cpu(&stderr),
        pc: field("pc=")?,
        ac: field("ac=")?,
        io: field("io=")?,
    })
}

fn rate(n: u64, secs: f64) -> f64 {
    n as f64 / secs / 1e6
}

fn check_same(name: &str, ours: &Measured, theirs: &Measured) -> Result<()> {
    if (ours.pc, ours.ac, ours.io) != (theirs.pc, theirs.ac, theirs.io) {
        bail!(
            "{name}: end states differ: ours pc={:06o} ac={:06o} io={:06o}, SIMH pc={:06o} ac={:06o} io={:06o}",
            ours.pc, ours.ac, ours.io, theirs.pc, theirs.ac, theirs.io
        );
    }
    Ok(())
}

fn main() -> Result<()> {
    let n: u64 = match std::env::args().nth(1) {
        Some(a) => a
            .parse()
            .context("argument: number of instructions per run")?,
        None => DEFAULT_INSTRUCTIONS,
    };
    let Some(sim) = Simh::find() else {
        bail!("SIMH's pdp1 (Debian package `simh`) is not installed; nothing to compare with");
    };
    println!("{n} instructions per run; SIMH = {}", sim.path().display());
    println!(
        "{:<16} {:>12} {:>12} {:>8}   {:>12} {:>12}",
        "workload", "ours Minst/s", "SIMH Minst/s", "ratio", "ours (wall)", "SIMH (wall)"
    );
    let only = std::env::args().nth(2);
    let headless = std::env::current_exe()?.with_file_name("pdp1");
    let headless = headless.is_file().then_some(headless);
    let mut rows = Vec::new();
    for w in workloads::ALL
        .iter()
        .filter(|w| only.as_deref().is_none_or(|o| o == w.name))
    {
        let ours = run_ours(w, n)?;
        let theirs = run_simh(&sim, w, n, None)?;
        check_same(w.name, &ours, &theirs)?;
        rows.push((format!("{} (API)", w.name), ours, theirs));
        if let Some(pdp1) = &headless {
            if w.mdv {
                continue; // the headless runner's machine options come from flags; keep it simple
            }
            let tape = std::env::temp_dir().join(format!(
                "pdp1-bench-{}-{}.rim",
                std::process::id(),
                w.name
            ));
            std::fs::write(&tape, workloads::rim_tape(w))?;
            let ours = run_headless(pdp1, &tape, n);
            let theirs = run_simh(&sim, w, n, Some(&tape));
            let _ = std::fs::remove_file(&tape);
            let (ours, theirs) = (ours?, theirs?);
            check_same(w.name, &ours, &theirs)?;
            rows.push((format!("{} (tape)", w.name), ours, theirs));
        }
    }
    for (name, ours, theirs) in rows {
        let (o, s) = match (ours.cpu, theirs.cpu) {
            (Some(a), Some(b)) if a > 0.0 && b > 0.0 => (rate(n, a), rate(n, b)),
            _ => (rate(n, ours.wall), rate(n, theirs.wall)),
        };
        println!(
            "{:<16} {:>12.1} {:>12.1} {:>7.2}x   {:>12.1} {:>12.1}",
            name,
            o,
            s,
            o / s,
            rate(n, ours.wall),
            rate(n, theirs.wall)
        );
    }
    if headless.is_none() {
        println!(
            "(build `cargo build --release -p pdp1` to also time `pdp1 --headless` on the tapes)"
        );
    }
    Ok(())
}
