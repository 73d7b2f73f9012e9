//! Development aid: read in a tape, type keys, print the typewriter transcript.
//! `cargo run -p pdp1-core --example runtape -- TAPE [KEYS] [SECONDS] [mdv]`
//!
//! Environment: `EXT` extend switch on; `TW=oct` test word; `CONT=n` continue after n halts,
//! setting the test word from `TW<k>` (k counts down from n−1) at each; `TRACE` trace 20
//! instructions after the last continue; `DUMP` print 2340–2377; `EV` print typewriter events.
//! Example (LISP as SIMH's notes describe):
//! `TW2=7777 TW1=400 EXT=1 CONT=3 runtape lisp.rim '' 60 mdv`
use pdp1_core::{fiodec, Limit, Machine, MachineConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tape = std::fs::read(&args[1]).expect("tape");
    let keys: Vec<char> = args
        .get(2)
        .map(|s| s.replace("\\r", "\r").chars().collect())
        .unwrap_or_default();
    let secs: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5.0);
    let mdv = args.get(4).is_some_and(|s| s == "mdv");
    let mut m = Machine::new(MachineConfig {
        mul_div: mdv,
        ..Default::default()
    })
    .unwrap();
    m.mount_tape(tape);
    m.read_in();
    let end = (secs * 1e9) as u64;
    let mut ki = 0;
    let mut conts: u32 = std::env::var("CONT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut upper = false;
    let mut out = String::new();
    let mut last_key = 0u64;
    let t0 = std::time::Instant::now();
    loop {
        let r = m.run_until(Limit {
            until_ns: Some((m.time_ns() + 10_000_000).min(end)),
            instructions: None,
        });
        for e in m.drain_typewriter() {
            if std::env::var("EV").is_ok() {
                eprintln!("{e:?}");
            }
            match e.code {
                0o77 => out.push('\n'),
                0o36 => out.push('\t'),
                c => {
                    if let Some(ch) = fiodec::to_char(c, e.upper) {
                        out.push(ch)
                    }
                }
            }
        }
        if r == pdp1_core::StopReason::Halted && conts > 0 {
            conts -= 1;
            println!("halt at {:06o}, continuing", m.pc());
            if let Some(tw) = std::env::var(format!("TW{}", conts))
                .ok()
                .and_then(|v| u32::from_str_radix(&v, 8).ok())
            {
                m.set_test_word(pdp1_core::Word::new(tw));
            }
            m.cont();
            if conts == 0 && std::env::var("TRACE").is_ok() {
                for _ in 0..20 {
                    let pc = m.pc();
                    let w = m.read(pc).unwrap();
                    let r = m.step_instruction();
                    println!(
                        "{pc:06o} {w} ac={} io={} ov={} {r:?}",
                        m.ac(),
                        m.io(),
                        m.ov()
                    );
                }
            }
            continue;
        }
        if r != pdp1_core::StopReason::TimeLimit {
            println!("stop: {r:?} pc={:06o}", m.pc());
            break;
        }
        if m.time_ns() >= end {
            break;
        }
        if ki < keys.len()
            && !m.reading_in()
            && m.key_wait_since().is_some()
            && m.time_ns() - last_key > 100_000_000
        {
            let (code, case) = fiodec::from_char(keys[ki]).unwrap();
            if let Some(u) = case {
                if u != upper {
                    m.strike_key(if u { 0o74 } else { 0o72 });
                    upper = u;
                    last_key = m.time_ns();
                    continue;
                }
            }
            m.strike_key(code);
            last_key = m.time_ns();
            ki += 1;
        }
    }
    if std::env::var("DUMP").is_ok() {
        for a in 0o2340..0o2400u32 {
            println!("{a:06o} {}", m.read(a).unwrap());
        }
    }
    println!("{out}");
    println!("display points: {}", m.drain_display().len());
    println!(
        "pc={:06o} ac={} io={} instr={} time={}ms real={:?} wait={:?}",
        m.pc(),
        m.ac(),
        m.io(),
        m.instructions(),
        m.time_ns() / 1_000_000,
        t0.elapsed(),
        m.key_wait_since()
    );
}
