//! Convert a memory tape punched before issue 29 halved part 10 (format version 2, part 10 of
//! 1024 entries) to the format the PDP-1 program and the reference now read (version 3, part 10
//! of 512): `kalah::bell::convert_version_2`. Parts 0–9 and part 10's list keep their slots;
//! part 10's whole positions are stored again through the memory's own store, and what it
//! spilled or forgot is reported. docs/bell.md, "The memory tape".
//!
//! cargo run --release -p kalah --example bell_tape_convert -- OLD NEW
//!
//! A foreign, damaged or other-version tape is refused and NEW is not written.

use kalah::bell::{convert_version_2, Outcome};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [old, new] = args.as_slice() else {
        return Err("usage: bell_tape_convert OLD NEW (a version-2 memory tape, the version-3 one to write)".into());
    };
    let tape = std::fs::read(old).map_err(|e| format!("{old}: {e}"))?;
    let c = convert_version_2(&tape).map_err(|e| format!("{old}: {e}"))?;
    std::fs::write(new, &c.tape).map_err(|e| format!("{new}: {e}"))?;
    println!(
        "{new}: version 3, {} entries; part 10 had {}: {} kept in its list, {} stored in its window",
        c.entries, c.part_10, c.listed, c.stored
    );
    for (part, n) in &c.spilled {
        println!("  {n} spilled to part {part}");
    }
    if !c.forgotten.is_empty() {
        let losses = c
            .forgotten
            .iter()
            .filter(|e| e.outcome == Outcome::Loss)
            .count();
        println!(
            "  {} forgotten ({losses} losses): their windows full",
            c.forgotten.len()
        );
    }
    Ok(())
}
