//! Issue 13: Bell's learning Kalah (roms/bell.rim) keeps its memory on paper tape with what the
//! `pdp1` binary offers: `--punch FILE` for what `p` punches, and the tape read back by `r` from
//! `--reader FILE` or a script's `mount FILE` — in a new run, after READ IN. The tape is
//! recognised, so the plain command gets the 64K it needs.

mod common;
use common::*;
use std::path::PathBuf;

fn rom() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../roms/bell.rim")
        .display()
        .to_string()
}

#[test]
fn the_memory_goes_to_a_punch_file_and_comes_back_from_the_reader() {
    let dir = scratch("bell");
    let tape = dir.join("bell-memory.pt");
    let t = tape.display().to_string();
    let r = pdp1(&["--headless", &rom(), "--punch", &t, "--type", "p"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stdout.ends_with("p\npunched 0\n"), "{:?}", r.stdout);
    assert!(std::fs::metadata(&tape).unwrap().len() > 20);
    // A new run: READ IN, the memory tape in the reader after it, `r`.
    let r = pdp1(&["--headless", &rom(), "--reader", &t, "--type", "r"]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stdout.ends_with("r\nread 0\n"), "{:?}", r.stdout);
    // The same with a script that mounts it once READ IN is done.
    let script = dir.join("bell-restore.pdp1");
    std::fs::write(
        &script,
        format!(
            "mount {}\nreadin\nwait tape\nmount {t}\ntype 'r'\nwait text \"read\"\n",
            rom()
        ),
    )
    .unwrap();
    let r = pdp1(&["--headless", "--script", &script.display().to_string()]);
    assert!(r.ok(), "{}", r.stderr);
    assert!(r.stdout.ends_with("r\nread 0\n"), "{:?}", r.stdout);
    // Another program's tape is refused.
    let kalah = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../roms/kalah.rim");
    let r = pdp1(&[
        "--headless",
        &rom(),
        "--reader",
        &kalah.display().to_string(),
        "--type",
        "r",
    ]);
    assert!(
        r.stdout.ends_with("r\nnot a memory tape\n"),
        "{:?}",
        r.stdout
    );
}
