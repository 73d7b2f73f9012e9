//! Issue 25: the disassembly `--trace` writes and the debugger's pane shows. Opcodes 54 and 56
//! are named as the machine has them — `mul`/`div` with the Type 10 multiply/divide, the
//! multiply and divide steps `mus`/`dis` without it (handbook; pdp1-hardware.md §2.2) — and a
//! long operate combination is never left out of the pane's line.
//! (Since issue 27 the default machine has the Type 10: the steps need `--profile pdp1c`.)

mod common;
use common::*;

/// 100 lac 200; 101 (54) 201; 102 (56) 202; 103, 104 hlt (a `div` that does not overflow
/// skips one); 200–202 data.
fn mul_div_program() -> Vec<(u32, u32)> {
    vec![
        (0o100, lac(0o200)),
        (0o101, 0o540201),
        (0o102, 0o560202),
        (0o103, HLT),
        (0o104, HLT),
        (0o200, 3),
        (0o201, 5),
        (0o202, 7),
    ]
}

/// The trace's disassembly column of the line for address `pc`.
fn traced(text: &str, pc: u32) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{pc:06o} ")))
        .unwrap_or_else(|| panic!("no trace line for {pc:o}: {text}"));
    line[14..line.find(" ac=").unwrap()].trim().to_owned()
}

#[test]
fn trace_names_54_and_56_mus_and_dis_without_the_type_10_and_mul_and_div_with_it() {
    let d = scratch("trace-mus-dis");
    let t = tape(&d, "p.rim", &mul_div_program(), 0o100);
    for (extra, mul, div) in [
        (Some("--profile=pdp1c"), "mus 201", "dis 202"),
        (Some("--mdv"), "mul 201", "div 202"),
    ] {
        let tr = d.join("trace.txt");
        let mut args = vec!["--headless", t.as_str(), "--trace", tr.to_str().unwrap()];
        args.extend(extra);
        let r = pdp1(&args);
        assert!(r.ok(), "{extra:?}: {}", r.stderr);
        let text = std::fs::read_to_string(&tr).unwrap();
        assert_eq!(traced(&text, 0o101), mul, "{extra:?}: {text}");
        assert_eq!(traced(&text, 0o102), div, "{extra:?}: {text}");
    }
}

/// The debugger pane's colours and text cell (draw/debugger.rs, draw/canvas.rs: font scale 1
/// at the default window size).
const TEXT: u32 = 0xb8c8b8;
const CELL: usize = 8;

/// The debugger's lines of text in a screenshot.
impl Picture {
    /// The characters in `TEXT` colour on the row of cells whose top left is (x0, y).
    fn text_at(&self, x0: usize, y: usize) -> String {
        let mut line: String = (x0..=self.w - CELL)
            .step_by(CELL)
            .map(|x| self.glyph_at(x, y, |p| p == TEXT))
            .collect();
        line.truncate(line.trim_end().len());
        line
    }

    /// The debugger's disassembly lines in the picture that begin `needle` (address and word),
    /// as words joined by one space, up to the memory view on their right (`ADDR/ …`).
    fn disassembly_lines(&self, needle: &str) -> Vec<String> {
        let mut found = Vec::new();
        for y in 0..self.h.saturating_sub(CELL) {
            for phase in 0..CELL {
                let line = self.text_at(phase, y);
                if let Some(at) = line.find(needle) {
                    let words: Vec<&str> = line[at..]
                        .split_whitespace()
                        .take_while(|w| !w.ends_with('/'))
                        .collect();
                    found.push(words.join(" "));
                }
            }
        }
        found
    }
}

/// The debugger's disassembly line for 100 when 100 holds `cli!lat!cma!hlt!stf 7` (767617,
/// 21 characters): the pane had room for 16 after the address, word and label columns and cut
/// the line at the last space, so the instruction column was empty. It now shows `opr 7617`,
/// which assembles back to the same word.
#[test]
fn a_long_operate_combination_is_not_left_out_of_the_debuggers_line() {
    let d = scratch("debugger-long-operate");
    let t = tape(&d, "p.rim", &[(0o100, 0o767617)], 0o100);
    let shot = d.join("shot.png");
    let r = pdp1(&["--headless", &t, "--screenshot", shot.to_str().unwrap()]);
    assert!(r.ok(), "{}", r.stderr);
    let lines = Picture::load(&shot).disassembly_lines("0100 767617");
    assert_eq!(
        lines,
        ["0100 767617 opr 7617"],
        "the debugger's line for 100"
    );
}

/// The pane names 54 and 56 as the machine has them too.
#[test]
fn the_debuggers_pane_names_54_and_56_as_the_machine_has_them() {
    let d = scratch("debugger-mus-dis");
    let t = tape(&d, "p.rim", &mul_div_program(), 0o100);
    for (extra, mul) in [
        (Some("--profile=pdp1c"), "mus 201"),
        (Some("--mdv"), "mul 201"),
    ] {
        let shot = d.join("shot.png");
        let mut args = vec![
            "--headless",
            t.as_str(),
            "--screenshot",
            shot.to_str().unwrap(),
        ];
        args.extend(extra);
        let r = pdp1(&args);
        assert!(r.ok(), "{extra:?}: {}", r.stderr);
        let lines = Picture::load(&shot).disassembly_lines("0101 540201");
        assert_eq!(lines, [format!("0101 540201 {mul}")], "{extra:?}");
    }
}
