//! Typewriter transcripts: driving a program on our machine with typed keys, and cutting the
//! typewriter text out of SIMH's output, both rendered the way SIMH 3.8 prints FIO-DEC
//! (ASCII stand-ins, carriage return as a new line, case and ribbon codes silent).

use pdp1_core::{fiodec, Limit, Machine, StopReason, TypeEvent};

/// FIO-DEC codes of the typewriter's control keys.
const TAB: u8 = 0o36;
const BACKSPACE: u8 = 0o75;
const CARRIAGE_RETURN: u8 = 0o77;

/// Text of typewriter events as SIMH shows it (`\r` dropped).
pub fn render(events: &[TypeEvent]) -> String {
    let mut s = String::new();
    for e in events {
        match e.code {
            CARRIAGE_RETURN => s.push('\n'),
            TAB => s.push('\t'),
            BACKSPACE => s.push('\u{8}'),
            c => {
                if let Some(ch) = fiodec::to_ascii(c, e.upper) {
                    s.push(ch);
                }
            }
        }
    }
    s
}

/// The typewriter text in SIMH's stdout (run unbuffered, so typewriter output and SIMH's own
/// messages arrive in order): drop everything up to the banner line, the `### SECTION`
/// markers, stop messages (SIMH prints them as `\n<reason>, PC: …\n`), `Goodbye`, and `\r`.
pub fn simh_typewriter_text(out: &str) -> String {
    let mut s = out.replace('\r', "");
    if let Some(i) = s.find("PDP-1 simulator V") {
        let end = s[i..].find('\n').map_or(s.len(), |j| i + j + 1);
        s.replace_range(..end, "");
    }
    while let Some(i) = s.find(crate::simh::MARK) {
        let end = s[i..].find('\n').map_or(s.len(), |j| i + j + 1);
        s.replace_range(i..end, "");
    }
    while let Some(p) = s.find(", PC: ") {
        let start = s[..p].rfind('\n').unwrap_or(0);
        let end = s[p..].find('\n').map_or(s.len(), |j| p + j + 1);
        s.replace_range(start..end, "");
    }
    if let Some(stripped) = s.strip_suffix("Goodbye\n") {
        s = stripped.to_string();
    }
    s
}

/// FIO-DEC codes for typing `text` (lower-case characters only, plus space, newline = carriage
/// return); `None` for a character that needs the upper case.
pub fn keys(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .map(|c| match fiodec::from_char(c) {
            Some((code, Some(false) | None)) => Some(code),
            _ => None,
        })
        .collect()
}

/// How a typing run ended badly.
#[derive(Debug)]
pub struct Stopped(pub StopReason, pub u32);

/// Run `m` until it stops (halt etc.) or `max_ns` passes; return the stop reason.
pub fn run_until_stop(m: &mut Machine, max_ns: u64) -> StopReason {
    let until = m.time_ns() + max_ns;
    m.run_until(Limit {
        until_ns: Some(until),
        instructions: None,
    })
}

/// Type `keys` like a patient operator: each key only after the program has waited for a
/// key for `gap_ns`; after the last key, run until the program has waited `settle_ns`.
/// Returns all typewriter events (program output and local printing of the keys).
pub fn type_keys(
    m: &mut Machine,
    keys: &[u8],
    gap_ns: u64,
    settle_ns: u64,
    max_ns: u64,
) -> Result<Vec<TypeEvent>, Stopped> {
    let deadline = m.time_ns() + max_ns;
    let mut next = 0;
    let mut events = Vec::new();
    while m.time_ns() < deadline {
        let slice = m.time_ns() + 2_000_000;
        match m.run_until(Limit {
            until_ns: Some(slice),
            instructions: None,
        }) {
            StopReason::TimeLimit => {}
            other => return Err(Stopped(other, m.pc())),
        }
        events.extend(m.drain_typewriter());
        if let Some(t) = m.key_wait_since() {
            let waited = m.time_ns().saturating_sub(t);
            if next < keys.len() && waited >= gap_ns {
                m.strike_key(keys[next]);
                next += 1;
            } else if next == keys.len() && waited >= settle_ns {
                break;
            }
        }
    }
    events.extend(m.drain_typewriter());
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_typewriter_text_out_of_simh_output() {
        let out = "\nPDP-1 simulator V3.8-1\n### SECTION 1\n\r\n100/\t0\t\nStep expired, PC: 006024 (JMP 6023)\nab### SECTION 2\nGoodbye\n";
        assert_eq!(simh_typewriter_text(out), "\n100/\t0\tab");
    }
}
