//! customasm-style cases: each `tests/cases/*.mac` is a small source whose expected output is
//! written inline in comments, worked out by hand from pdp1-hardware.md (not from this
//! assembler's output):
//!
//! * `/= [LOC:]WORD WORD …` — the words this line assembles to (octal), optionally the first
//!   word's location; `/=` alone means the line assembles to nothing.
//! * `/error: TEXT` or `/error@COL: TEXT` — an error on this line whose message contains TEXT
//!   (at column COL); `/error+N…` puts it N lines further down. A file with error markers must
//!   fail with exactly those errors.
//! * `/start= ADDR` — the start address.

use pdp1_asm::assemble;
use std::collections::BTreeMap;
use std::path::PathBuf;

struct Expect {
    words: BTreeMap<usize, (Option<u32>, Vec<u32>)>,
    errors: Vec<(usize, Option<usize>, String)>,
    start: Option<u32>,
}

fn parse_expectations(src: &str) -> Expect {
    let mut e = Expect {
        words: BTreeMap::new(),
        errors: Vec::new(),
        start: None,
    };
    for (i, line) in src.split('\n').enumerate() {
        let no = i + 1;
        if let Some(k) = line.find("/=") {
            let mut loc = None;
            let mut ws = Vec::new();
            for (j, tok) in line[k + 2..].split_whitespace().enumerate() {
                let tok = match tok.split_once(':') {
                    Some((l, w)) if j == 0 => {
                        loc = Some(u32::from_str_radix(l, 8).expect("location"));
                        w
                    }
                    _ => tok,
                };
                ws.push(
                    u32::from_str_radix(tok, 8)
                        .unwrap_or_else(|_| panic!("line {no}: bad word {tok}")),
                );
            }
            e.words.insert(no, (loc, ws));
        }
        if let Some(k) = line.find("/error") {
            let mut rest = &line[k + 6..];
            // `/error+N…`: the error is N lines further down (for a line that cannot hold a
            // comment, such as an unterminated text).
            let mut no = no;
            if let Some(r) = rest.strip_prefix('+') {
                let digits: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
                no += digits.parse::<usize>().expect("/error+N");
                rest = &r[digits.len()..];
            }
            let (col, text) = match rest.strip_prefix('@') {
                Some(r) => {
                    let (c, t) = r.split_once(':').expect("/error@COL: text");
                    (Some(c.trim().parse().expect("column")), t)
                }
                None => (None, rest.strip_prefix(':').expect("/error: text")),
            };
            e.errors.push((no, col, text.trim().to_string()));
        }
        if let Some(k) = line.find("/start=") {
            e.start = Some(u32::from_str_radix(line[k + 7..].trim(), 8).expect("start"));
        }
    }
    e
}

/// Words per source line, read from the listing (`line loc word source`, continuation lines
/// `loc word`).
fn words_by_line(listing: &str) -> BTreeMap<usize, Vec<(u32, u32)>> {
    let mut m: BTreeMap<usize, Vec<(u32, u32)>> = BTreeMap::new();
    let mut cur = 0;
    for l in listing.lines() {
        let (num, rest) = l.split_at(5.min(l.len()));
        if let Ok(n) = num.trim().parse::<usize>() {
            cur = n;
        }
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() >= 2
            && f[0].len() == 4
            && f[1].len() == 6
            && rest.starts_with(' ')
            && !rest.starts_with("  ")
        {
            if let (Ok(a), Ok(w)) = (u32::from_str_radix(f[0], 8), u32::from_str_radix(f[1], 8)) {
                m.entry(cur).or_default().push((a, w));
            }
        }
    }
    m
}

fn run_case(name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(format!("{name}.mac"));
    let src = std::fs::read_to_string(&path).unwrap();
    let e = parse_expectations(&src);
    let file = format!("{name}.mac");
    match assemble(&src, &file) {
        Ok(asm) => {
            assert!(
                e.errors.is_empty(),
                "{name}: expected errors {:?}, assembled fine",
                e.errors
            );
            let got = words_by_line(&asm.listing);
            for (line, (loc, want)) in &e.words {
                let have: Vec<(u32, u32)> = got.get(line).cloned().unwrap_or_default();
                let have_words: Vec<u32> = have.iter().map(|&(_, w)| w).collect();
                let show = |v: &[u32]| {
                    v.iter()
                        .map(|w| format!("{w:06o}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                assert_eq!(
                    show(&have_words),
                    show(want),
                    "{name}.mac line {line}:\n{}",
                    asm.listing
                );
                if let Some(l) = loc {
                    assert_eq!(
                        have.first().map(|&(a, _)| a),
                        Some(*l),
                        "{name}.mac line {line}: location"
                    );
                }
            }
            if e.start.is_some() {
                assert_eq!(asm.start, e.start, "{name}: start address");
            }
        }
        Err(d) => {
            let mut unmatched: Vec<_> = d.0.clone();
            for (line, col, text) in &e.errors {
                let k = unmatched
                    .iter()
                    .position(|x| {
                        x.line == *line
                            && col.is_none_or(|c| x.column == c)
                            && x.message.contains(text.as_str())
                    })
                    .unwrap_or_else(|| {
                        panic!("{name}: no error `{text}` at line {line} col {col:?}; got:\n{d}")
                    });
                let x = unmatched.remove(k);
                assert_eq!(x.file, file);
            }
            assert!(
                unmatched.is_empty(),
                "{name}: unexpected errors:\n{}",
                Diagnostics(unmatched)
            );
        }
    }
}

use pdp1_asm::Diagnostics;

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { run_case(stringify!($name)); } )*
        const ALL: &[&str] = &[$(stringify!($name)),*];
    };
}

cases!(
    instructions,
    expressions,
    radix,
    labels_location,
    assignment,
    start,
    char_flexo,
    text,
    repeat,
    literals,
    variables,
    macros,
    error_undefined,
    error_redefinition,
    error_bad_expression,
    error_out_of_range,
    error_unterminated_macro,
    error_unterminated_text,
    error_literal_without_constants,
    error_variables_without_variables,
    error_macro_arguments,
    error_terminate_without_define,
    error_bad_label,
    errors_all_reported,
);

#[test]
fn every_case_file_has_a_test() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    for f in std::fs::read_dir(dir).unwrap() {
        let p = f.unwrap().path();
        let stem = p.file_stem().unwrap().to_string_lossy().to_string();
        assert!(
            ALL.contains(&stem.as_str()),
            "tests/cases/{stem}.mac is not listed in cases!()"
        );
    }
}
