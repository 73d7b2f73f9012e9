//! Real tapes from ../shared/tapes (beside the project checkout). When the folder is absent
//! these tests say so and pass without running, unless `PDP1_REQUIRE_ORACLES` is set (CI).

mod common;
use common::*;
use pdp1_core::fiodec;
use std::path::PathBuf;

fn tape(name: &str) -> Option<Vec<u8>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/tapes")
        .join(name);
    match std::fs::read(&p) {
        Ok(t) => Some(t),
        Err(_) => {
            not_run(&format!("{} not found", p.display()));
            None
        }
    }
}

/// Type `keys` as a patient typist: each key once the program waits for it; return the
/// printed text (FIO-DEC → Unicode, CR → newline).
fn session(m: &mut Machine, keys: &str, seconds: u64) -> String {
    let mut keys = keys.chars().peekable();
    let mut upper = false;
    let mut out = String::new();
    let end = m.time_ns() + seconds * 1_000_000_000;
    while m.time_ns() < end {
        let r = m.run_until(Limit {
            until_ns: Some(m.time_ns() + 10_000_000),
            instructions: None,
        });
        for e in m.drain_typewriter() {
            match e.code {
                fiodec::CARRIAGE_RETURN => out.push('\n'),
                fiodec::TAB => out.push('\t'),
                c => out.extend(fiodec::to_char(c, e.upper)),
            }
        }
        assert_eq!(r, StopReason::TimeLimit, "{out}");
        if m.reading_in() || m.key_wait_since().is_none() {
            continue;
        }
        let Some(&c) = keys.peek() else { continue };
        let (code, case) = fiodec::from_char(c).expect("typeable");
        match case {
            Some(u) if u != upper => {
                m.strike_key(if u {
                    fiodec::UPPER_CASE
                } else {
                    fiodec::LOWER_CASE
                });
                upper = u;
            }
            _ => {
                m.strike_key(code);
                keys.next();
            }
        }
    }
    out
}

#[test]
fn ddt_reads_in_and_examines_a_location() {
    let Some(t) = tape("ddt.rim") else { return };
    let mut m = machine(&[]);
    m.mount_tape(t);
    m.read_in();
    let out = session(&mut m, "100/", 20);
    // The operator's "100/" printed locally, then DDT types the contents (0) after a tab.
    assert!(out.contains("100/\t0"), "{out:?}");
}
