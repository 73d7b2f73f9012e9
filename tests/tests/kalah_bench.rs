//! Benchmark (issue 4, "Performance"): emulated thinking time of the program for the first move
//! from the opening (3 stones) at depths 2–8, with the static order and with the short look, and
//! positions examined per emulated second. Prints a table; asserts nothing about time.
//!
//! `cargo test --release -p pdp1-tests --test kalah_bench -- --ignored --nocapture`
mod kalah_support;
use kalah_support::*;

#[test]
#[ignore]
fn thinking_time_from_the_opening() {
    println!(
        "| depth | order | move | v | e (positions) | p | emulated s | positions/s | host ms |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for depth in 2..=8 {
        for short in [false, true] {
            let opts = TW_ANALYSIS | if short { TW_SHORT_LOOK } else { 0 };
            let mut p = Program::boot(test_word(depth, 3, opts), 0);
            p.m.drain_typewriter();
            let host = std::time::Instant::now();
            p.key(SPACE);
            let host_ms = host.elapsed().as_millis();
            let ev = p.m.drain_typewriter();
            let space = ev.iter().find(|e| e.code == 0).unwrap().time_ns;
            let bs = ev.iter().find(|e| e.code == 0o75).unwrap().time_ns;
            let text: String = ev
                .iter()
                .filter_map(|e| {
                    if e.code == 0o77 {
                        Some('\n')
                    } else {
                        pdp1_core::fiodec::to_ascii(e.code, e.upper)
                    }
                })
                .collect();
            let a = parse_analysis(&text).unwrap();
            let mv = text.trim_start().chars().next().unwrap();
            let secs = (bs - space) as f64 / 1e9;
            println!(
                "| {depth} | {} | {mv} | {} | {} | {} | {secs:.2} | {:.0} | {host_ms} |",
                if short { "short look" } else { "static" },
                a.v,
                a.e,
                a.p,
                a.e as f64 / secs
            );
        }
    }
}
