//! Differential test against aap's pulse-level PDP-1 model, cycle by cycle (issue 31): random
//! programs as the SIMH differential makes them, and programs with in-out transfers and
//! sequence breaks (one channel and the Type 120) whose completions and break requests fall
//! at every phase of every instruction; after every memory cycle both machines' registers
//! and flip-flops must agree, and memory at the end. The fast run loop must agree with the
//! cycle path on the same programs. See docs/testing.md, "aap's pulse-level model".
//!
//! Environment: `AAP_PDP1_SRC` (the model's `pdp1` directory; without it the test is not
//! run, in CI too), `AAP_DIFF_PROGRAMS` (default 2000), `AAP_DIFF_SEED` (first seed; program
//! k uses seed + k).

use pdp1_tests::aap::{self, Case, Outcome};
use pdp1_tests::randprog::{io_program, program};
use std::collections::BTreeMap;

const DEFAULT_PROGRAMS: u64 = 2000;
const DEFAULT_SEED: u64 = 0xAA9_0000;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Program `k` of a run from `seed0`: a fifth plain random programs, the rest with IOTs.
fn case(seed0: u64, k: u64) -> Case {
    let seed = seed0 + k;
    if k.is_multiple_of(5) {
        let p = program(seed);
        let cycles = 3 * p.steps + 8;
        return Case::new("random", p, cycles);
    }
    let kind = ["break", "break16", "wait", "break"][(k % 5 - 1) as usize];
    let io = io_program(seed, kind);
    Case {
        sbs16: io.sbs16,
        sbm: io.sbm,
        tape: io.tape,
        ..Case::new(io.kind, io.prog, io.cycles)
    }
}

/// What one worker found.
#[derive(Default)]
struct Tally {
    programs: usize,
    cycles: u64,
    agree: usize,
    documented: BTreeMap<&'static str, usize>,
    no_reference: Vec<u64>,
    failures: Vec<String>,
    fast_failures: Vec<String>,
    /// Break entries by the cycle kind that decided them and the opcode of its instruction.
    breaks: BTreeMap<(char, u32), usize>,
    kinds: BTreeMap<&'static str, usize>,
}

fn run_chunk(exe: &std::path::Path, cases: &[Case]) -> Tally {
    let mut t = Tally::default();
    for batch in cases.chunks(40) {
        let ours: Vec<_> = batch.iter().map(aap::ours).collect();
        let req: Vec<_> = batch
            .iter()
            .zip(&ours)
            .map(|(c, o)| (c, o.steps.iter().map(|(n, _)| n).sum::<u64>()))
            .collect();
        let theirs = aap::model(exe, &req).expect("the model's driver runs");
        for ((c, o), m) in batch.iter().zip(&ours).zip(&theirs) {
            t.programs += 1;
            *t.kinds.entry(c.kind).or_default() += 1;
            match aap::compare(c, o, m) {
                Outcome::Agree => t.agree += 1,
                Outcome::Documented(d) => *t.documented.entry(d).or_default() += 1,
                Outcome::NoReference => t.no_reference.push(c.seed),
                Outcome::Differ(d) => t.failures.push(d),
            }
            if m.is_some() {
                t.cycles += o.steps.iter().map(|(n, _)| n).sum::<u64>();
            }
            for &b in &o.breaks {
                *t.breaks.entry(b).or_default() += 1;
            }
            if let Some(f) = aap::fast_agrees(c, o) {
                t.fast_failures.push(f);
            }
        }
    }
    t
}

#[test]
fn programs_agree_with_aaps_model_cycle_by_cycle() {
    let src = match aap::source() {
        Ok(s) => s,
        Err(why) => {
            // The model is a checkout outside the repository, fetched from GitHub, which CI
            // (no network but the package registries) cannot provide: an optional oracle.
            pdp1_tests::not_run_optional(&format!("aap_diff: {why}"));
            return;
        }
    };
    let dir = std::env::temp_dir().join(format!(
        "pdp1-aap-diff-{}-programs_agree_with_aaps_model",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let exe = aap::build(&src, &dir).expect("the model builds with our driver");
    let count = env_u64("AAP_DIFF_PROGRAMS", DEFAULT_PROGRAMS);
    let seed0 = env_u64("AAP_DIFF_SEED", DEFAULT_SEED);
    let cases: Vec<Case> = (0..count).map(|k| case(seed0, k)).collect();
    let half = cases.len().div_ceil(2).max(1);
    let t0 = std::time::Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let hs: Vec<_> = cases
            .chunks(half)
            .map(|ch| {
                let exe = &exe;
                s.spawn(move || run_chunk(exe, ch))
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    let _ = std::fs::remove_dir_all(&dir);
    let mut all = Tally::default();
    for t in tallies {
        all.programs += t.programs;
        all.cycles += t.cycles;
        all.agree += t.agree;
        for (k, v) in t.documented {
            *all.documented.entry(k).or_default() += v;
        }
        for (k, v) in t.breaks {
            *all.breaks.entry(k).or_default() += v;
        }
        for (k, v) in t.kinds {
            *all.kinds.entry(k).or_default() += v;
        }
        all.no_reference.extend(t.no_reference);
        all.failures.extend(t.failures);
        all.fast_failures.extend(t.fast_failures);
    }
    eprintln!(
        "aap_diff: {} programs (seeds {seed0}..{}, {:?}) in {:.1?}: {} cycles compared; {} agree, documented differences {:?}, {} without reference (the model crashed: seeds {:?}), {} differ; fast path differs on {}",
        all.programs,
        seed0 + count,
        all.kinds,
        t0.elapsed(),
        all.cycles,
        all.agree,
        all.documented,
        all.no_reference.len(),
        &all.no_reference[..all.no_reference.len().min(10)],
        all.failures.len(),
        all.fast_failures.len()
    );
    let by_kind = |k: char| {
        all.breaks
            .iter()
            .filter(|((c, _), _)| *c == k)
            .map(|((_, op), n)| format!("{op:02o}:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    eprintln!(
        "aap_diff: break entries after a fetch [opcode:count] {}\n  after a defer {}\n  after an execute {}",
        by_kind('F'),
        by_kind('D'),
        by_kind('E')
    );
    for f in all.failures.iter().take(3) {
        eprintln!("---- DIFFERENCE\n{f}");
    }
    for f in all.fast_failures.iter().take(3) {
        eprintln!("---- FAST PATH\n{f}");
    }
    assert!(
        all.failures.is_empty() && all.fast_failures.is_empty(),
        "{} programs differ from aap's model, {} fast-path runs from the cycle path (first ones above; AAP_DIFF_SEED={seed0})",
        all.failures.len(),
        all.fast_failures.len()
    );
}

/// Without the model too (so in CI): the fast run loop agrees with the cycle path on the
/// programs with IOTs and breaks (`AAP_DIFF_FAST_PROGRAMS` of them, default 600, from
/// `AAP_DIFF_SEED`).
#[test]
fn the_fast_path_agrees_with_the_cycle_path_on_programs_with_breaks() {
    let count = env_u64("AAP_DIFF_FAST_PROGRAMS", 600);
    let seed0 = env_u64("AAP_DIFF_SEED", DEFAULT_SEED);
    let mut breaks = 0;
    let failures: Vec<String> = (0..count)
        .map(|k| case(seed0, k))
        .filter_map(|c| {
            let o = aap::ours(&c);
            breaks += o.breaks.len();
            aap::fast_agrees(&c, &o)
        })
        .collect();
    eprintln!(
        "{count} programs (seeds {seed0}..{}): {breaks} break entries; the fast path differs on {}",
        seed0 + count,
        failures.len()
    );
    for f in failures.iter().take(3) {
        eprintln!("---- FAST PATH\n{f}");
    }
    assert!(breaks > count as usize, "the programs take breaks");
    assert!(failures.is_empty(), "{} programs differ", failures.len());
}
