//! Where the Kalah program spends its time: runs Russell's 2-in-a-pit proof search (test word
//! 040040, keys `a101.b102.o4.d<id>.` and space, SS6 up) one instruction at a time and prints
//! the memory cycles spent under each label of the Kalah program (roms/kalah.files) (the nearest label at or below
//! each address), the most expensive first, with the stack depth reached.
//!
//! `cargo run --release -p pdp1-tests --example kalah_profile -- 13 [rows] [counts-file]`
#[path = "../tests/kalah_support/mod.rs"]
mod kalah_support;
use kalah_support::*;
use pdp1_core::StopReason;
use std::collections::HashMap;

fn main() {
    let mut args = std::env::args().skip(1);
    let id: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(13);
    let rows: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(40);
    let mut p = Program::boot(0o040040, 0o001);
    p.type_text(&format!("a101.b102.o4.d{id}."));
    p.paper();
    let (wt, sp, stk) = (p.sym("wt"), p.sym("sp"), p.sym("stk"));
    p.m.strike_key(SPACE);
    let mut cycles_at: HashMap<u32, u64> = HashMap::new();
    let mut count_at: HashMap<u32, u64> = HashMap::new();
    let start = p.m.cycles();
    let mut deepest = 0;
    let mut steps = 0u64;
    // The program leaves `wt` to take the key; the search is over when it is back there.
    while !(p.m.pc() == wt && steps > 100) {
        let (pc, c) = (p.m.pc(), p.m.cycles());
        match p.m.step_instruction() {
            StopReason::Stepped => {}
            other => {
                eprintln!("stopped: {other:?}");
                std::process::exit(1);
            }
        }
        *cycles_at.entry(pc).or_default() += p.m.cycles() - c;
        *count_at.entry(pc).or_default() += 1;
        deepest = deepest.max(p.m.read(sp).map(|w| w.bits()).unwrap_or(0));
        steps += 1;
    }
    let total = p.m.cycles() - start;
    let mut labels: Vec<(u32, String)> = p
        .asm
        .symbols
        .iter()
        .filter(|&(_, v, _)| v >= 0o100 && v < stk)
        .map(|(n, v, _)| (v, n.to_string()))
        .collect();
    labels.sort();
    let mut by_label: HashMap<&str, u64> = HashMap::new();
    for (pc, c) in &cycles_at {
        let i = labels.partition_point(|(v, _)| v <= pc);
        let name = if i == 0 {
            "?"
        } else {
            labels[i - 1].1.as_str()
        };
        *by_label.entry(name).or_default() += c;
    }
    let mut v: Vec<_> = by_label.into_iter().collect();
    v.sort_by_key(|&(n, c)| (std::cmp::Reverse(c), n));
    println!("paper: {}", p.paper().trim());
    println!(
        "id {id}: {total} cycles = {:.1} s emulated, {steps} instructions, stack {} words",
        total as f64 * 5e-6,
        deepest.saturating_sub(stk)
    );
    for (name, c) in v.into_iter().take(rows) {
        println!("{name:6} {c:10} {:5.1} %", 100.0 * c as f64 / total as f64);
    }
    // With a third argument (a file name), every address run: `octal-address count cycles`,
    // to be joined with the assembler's listing.
    if let Some(path) = args.next() {
        let mut rows: Vec<_> = count_at
            .iter()
            .map(|(a, n)| (*a, *n, cycles_at[a]))
            .collect();
        rows.sort();
        let text: String = rows
            .iter()
            .map(|(a, n, c)| format!("{a:06o} {n} {c}\n"))
            .collect();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
