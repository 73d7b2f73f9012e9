//! Saved machine states (`--save-state FILE.ron`, `--load-state FILE.ron`): the whole
//! `pdp1_core::Machine` in RON, inside a small header that names the format and its version.
//!
//! Loading checks everything it can before the state is used, so a corrupt or incompatible file
//! is an error that changes nothing. Saving writes a temporary file beside the target and renames
//! it, so an interrupted save never leaves a half-written state where a good one was.

use crate::error::{bail, Result};
use pdp1_core::{Machine, Word};
use serde::{Deserialize, Serialize};

/// The header's format name.
pub const FORMAT: &str = "pdp1-state";
/// Bump when the machine's serialised form changes incompatibly. Version 2 (issue 18) keeps
/// the devices' state under `machine.dev`; version 1 had `tty`, `ptr`, `ptp`, `dpy` and
/// `flags` among the machine's own fields, and is still read (see [`v1_to_v2`]).
pub const VERSION: u32 = 2;

/// The devices' fields that version 1 kept directly in the machine.
const V1_DEVICE_FIELDS: [&str; 5] = ["tty", "ptr", "ptp", "dpy", "flags"];

#[derive(Serialize)]
struct StateOut<'a> {
    format: &'a str,
    version: u32,
    machine: &'a Machine,
}

#[derive(Deserialize)]
struct StateIn {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    machine: Machine,
}

/// The state as RON text.
pub fn to_ron(m: &Machine) -> Result<String> {
    let pretty = ron::ser::PrettyConfig::new()
        .depth_limit(3)
        .compact_arrays(true);
    ron::ser::to_string_pretty(
        &StateOut {
            format: FORMAT,
            version: VERSION,
            machine: m,
        },
        pretty,
    )
    .map_err(|e| crate::err!("cannot serialise the machine state: {e}"))
}

/// Parse a state from RON text, checking the header and the machine's consistency.
pub fn from_ron(text: &str) -> Result<Machine> {
    // First only the header, so an incompatible version is reported as such and not as a parse
    // error somewhere inside the machine.
    let value: ron::Value = ron::from_str(text).map_err(|e| crate::err!("{e}"))?;
    let field = |name: &str| match &value {
        ron::Value::Map(map) => map
            .iter()
            .find(|(k, _)| **k == ron::Value::String(name.to_owned()))
            .map(|(_, v)| v.clone()),
        _ => None,
    };
    match field("format") {
        Some(ron::Value::String(f)) if f == FORMAT => {}
        Some(ron::Value::String(f)) => bail!("it is not a pdp1 machine state (format `{f}`)"),
        _ => bail!("it is not a pdp1 machine state (no `format: \"{FORMAT}\"` header)"),
    }
    match field("version") {
        Some(ron::Value::Number(n)) if n.as_i64() == Some(i64::from(VERSION)) => {}
        Some(ron::Value::Number(n)) if n.as_i64() == Some(1) => {
            return from_ron(&v1_to_v2(text)?);
        }
        Some(ron::Value::Number(n)) => bail!(
            "it was written by an incompatible pdp1 (state format version {}; this pdp1 reads versions 1 to {VERSION})",
            n.as_i64().map_or_else(|| format!("{n:?}"), |v| v.to_string())
        ),
        _ => bail!("it has no state format version"),
    }
    check_fields(&value)?;
    let s: StateIn = ron::from_str(text).map_err(|e| crate::err!("{e}"))?;
    if s.format != FORMAT || s.version != VERSION {
        bail!("it is not a pdp1 machine state of version {VERSION}");
    }
    check(&s.machine)?;
    Ok(s.machine)
}

/// A version 1 state's text as version 2: the device fields of the machine (`tty`, `ptr`,
/// `ptp`, `dpy`, `flags`) moved, text unchanged, into a `dev: (…)` struct where the first of
/// them stood, and the version made 2. Done on the text because `ron::Value` forgets the
/// names of enum variants (the processor's phase), so a parsed value cannot be written back.
fn v1_to_v2(text: &str) -> Result<String> {
    let bad = || crate::err!("its version 1 layout is damaged");
    let top = struct_fields(text, 0).ok_or_else(bad)?;
    let field = |name: &str| top.iter().find(|f| f.name == name).ok_or_else(bad);
    let machine = field("machine")?;
    let version = field("version")?;
    let body = machine.value;
    let fields = struct_fields(text, body).ok_or_else(bad)?;
    let moved: Vec<&Field> = fields
        .iter()
        .filter(|f| V1_DEVICE_FIELDS.contains(&f.name))
        .collect();
    let Some(first) = moved.first() else {
        bail!("its version 1 machine has no devices");
    };
    let dev = moved
        .iter()
        .map(|f| &text[f.start..f.end])
        .collect::<Vec<_>>()
        .join(", ");
    // Rebuild: the text up to the version's value, `2`, on to the first device field, `dev`,
    // then the rest with every device field (and the comma after it) left out.
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..version.value]);
    out.push('2');
    let mut at = version.end;
    for f in &fields {
        if !V1_DEVICE_FIELDS.contains(&f.name) {
            continue;
        }
        out.push_str(&text[at..f.start]);
        if std::ptr::eq(f, *first) {
            out.push_str("dev: (");
            out.push_str(&dev);
            out.push_str("), ");
        }
        at = f.next;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// A field of a RON struct in a text: its name, where the field starts, where its value
/// starts and ends, and where the next field may start (after a comma, if any).
struct Field<'a> {
    name: &'a str,
    start: usize,
    value: usize,
    end: usize,
    next: usize,
}

/// The fields of the RON struct whose `(` is the first non-blank character at or after `at`:
/// names and spans, found by counting brackets outside strings. `None` if it is not a struct.
fn struct_fields(text: &str, at: usize) -> Option<Vec<Field<'_>>> {
    let b = text.as_bytes();
    let skip_blank = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut i = skip_blank(at);
    if b.get(i) != Some(&b'(') {
        return None;
    }
    i += 1;
    let mut fields = Vec::new();
    loop {
        i = skip_blank(i);
        if b.get(i) == Some(&b')') {
            return Some(fields);
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        let name = &text[start..i];
        i = skip_blank(i);
        if name.is_empty() || b.get(i) != Some(&b':') {
            return None;
        }
        let value = skip_blank(i + 1);
        // The value runs to the comma or `)` at this depth.
        let (mut j, mut depth, mut in_str) = (value, 0u32, false);
        while j < b.len() {
            let c = b[j];
            if in_str {
                match c {
                    b'\\' => j += 1,
                    b'"' => in_str = false,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' if depth > 0 => depth -= 1,
                    b',' | b')' if depth == 0 => break,
                    _ => {}
                }
            }
            j += 1;
        }
        if j >= b.len() {
            return None;
        }
        let mut end = j;
        while end > value && b[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let next = if b[j] == b',' { j + 1 } else { j };
        fields.push(Field {
            name,
            start,
            value,
            end,
            next,
        });
        i = next;
    }
}

/// The field `name` of a RON struct value.
fn get<'a>(v: &'a ron::Value, name: &str) -> Option<&'a ron::Value> {
    match v {
        ron::Value::Map(map) => map
            .iter()
            .find(|(k, _)| matches!(k, ron::Value::String(s) if s == name))
            .map(|(_, v)| v),
        _ => None,
    }
}

/// Largest clock value accepted: 2^50 ns is 13 days of emulated time, 2^50 cycles 178 years;
/// far beyond any real run, far enough below 2^64 that the core's time arithmetic cannot
/// overflow.
const CLOCK_MAX: i64 = 1 << 50;

/// Checks on the machine's own fields that its public API cannot see before it is used: the
/// register widths, the clocks (the core computes time from them and would overflow on absurd values) and the
/// reader's position within its tape. A field the core renamed is simply not checked here.
fn check_fields(value: &ron::Value) -> Result<()> {
    let Some(m) = get(value, "machine") else {
        return Ok(());
    };
    // Registers are kept as raw integers in the machine; the core trusts their widths.
    for (name, bits) in [
        ("ac", 18),
        ("io", 18),
        ("mb", 18),
        ("tw", 18),
        ("control_boxes", 18),
        ("pc", 16),
        ("ma", 16),
        ("ta", 16),
        ("ir", 5),
        ("pf", 6),
        ("ss", 6),
    ] {
        if let Some(ron::Value::Number(n)) = get(m, name) {
            if !n.as_i64().is_some_and(|v| (0..1 << bits).contains(&v)) {
                bail!("its register `{name}` does not fit in {bits} bits");
            }
        }
    }
    for name in ["cycles", "extra_ns", "instructions"] {
        if let Some(ron::Value::Number(n)) = get(m, name) {
            if !n.as_i64().is_some_and(|v| (0..=CLOCK_MAX).contains(&v)) {
                bail!("its clock `{name}` is out of range");
            }
        }
    }
    if let Some(ptr) = get(m, "dev").and_then(|d| get(d, "ptr")) {
        if let (Some(ron::Value::Seq(tape)), Some(ron::Value::Number(pos))) =
            (get(ptr, "tape"), get(ptr, "pos"))
        {
            if !pos
                .as_i64()
                .is_some_and(|p| p >= 0 && p as usize <= tape.len())
            {
                bail!("its tape reader is positioned beyond the end of its tape");
            }
        }
    }
    Ok(())
}

/// Consistency checks a hand-edited or damaged file could break without a parse error: the
/// memory size is a valid option and matches the memory, and every word fits in 18 bits.
fn check(m: &Machine) -> Result<()> {
    let c = m.config();
    if let Err(e) = Machine::new(c.clone()) {
        bail!("its machine options are invalid: {e}");
    }
    if m.memory().len() != c.memory_words {
        bail!(
            "it holds {} memory words but its options say {}",
            m.memory().len(),
            c.memory_words
        );
    }
    let over = |w: Word| w.bits() > Word::MASK;
    if let Some(a) = m.memory().iter().position(|&w| over(w)) {
        bail!("memory word {a:o} has more than 18 bits");
    }
    for (name, w) in [
        ("AC", m.ac()),
        ("IO", m.io()),
        ("MB", m.mb()),
        ("test word", m.test_word()),
    ] {
        if over(w) {
            bail!("register {name} has more than 18 bits");
        }
    }
    if m.pc() as usize >= c.memory_words {
        bail!(
            "PC {:o} is outside its {}-word memory",
            m.pc(),
            c.memory_words
        );
    }
    Ok(())
}
