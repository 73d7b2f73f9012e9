//! The page's link: `?tape=kalah.rim&tw=400004&type=3%20&speed=max`. Each parameter means what
//! the headless option of the same name means and is checked by the same parser
//! (`pdp1_host::config`, `pdp1_host::keyboard`), so a bad value gets the option's own message.

use pdp1_core::Word;
use pdp1_host::config::{parse_octal, parse_sense_list, parse_speed, Speed};
use pdp1_host::keyboard::{parse_typed, Key};

/// What a link asks for; `None`: not given.
#[derive(Debug, Default)]
pub struct Query {
    pub tape: Option<String>,
    pub test_word: Option<Word>,
    pub sense_switches: Option<u8>,
    pub typed: Option<Vec<Key>>,
    pub speed: Option<Speed>,
    /// `keypad=1`: the touch keypad shown whatever the screen (a kiosk with a touch panel the
    /// browser does not report, and the tests); `keypad=0`: never. The page's script reads it;
    /// here it is checked.
    pub keypad: Option<bool>,
}

/// The parameters a link may have.
pub const NAMES: [&str; 6] = ["tape", "tw", "ss", "type", "speed", "keypad"];

/// Parse `query` (with or without the leading `?`). An unknown parameter, a repeated one, or
/// a value its option refuses is an error naming it.
pub fn parse(query: &str) -> Result<Query, String> {
    let mut q = Query::default();
    let mut seen = Vec::new();
    for pair in query.trim_start_matches('?').split('&') {
        if pair.is_empty() {
            continue;
        }
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k)?, decode(v)?);
        if seen.contains(&k) {
            return Err(format!("link: `{k}` is given twice"));
        }
        let e = |e: pdp1_host::error::Error| format!("link: {e}");
        match k.as_str() {
            "tape" => q.tape = Some(v),
            "tw" => q.test_word = Some(Word::new(parse_octal(&v, Word::MASK, "tw").map_err(e)?)),
            "ss" => q.sense_switches = Some(parse_sense_list(&v, "ss").map_err(e)?),
            "type" => q.typed = Some(parse_typed(&v).map_err(e)?),
            "speed" => q.speed = Some(parse_speed(&v, "speed").map_err(e)?),
            "keypad" => {
                q.keypad = Some(match v.as_str() {
                    "1" => true,
                    "0" => false,
                    _ => return Err(format!("link: keypad={v}: 1 (shown) or 0 (hidden)")),
                })
            }
            _ => {
                return Err(format!(
                    "link: unknown parameter `{k}` (the page knows {})",
                    NAMES.join(", ")
                ))
            }
        }
        seen.push(k);
    }
    Ok(q)
}

/// Percent-decoding (`%20`, and `+` for a space, as forms send it).
fn decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("link: bad escape in `{s}` (%XX, two hex digits)"))?;
                out.push(hex);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("link: `{s}` is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issues_link_is_read_with_the_headless_meanings() {
        let q = parse("?tape=kalah.rim&tw=400004&type=3%20&speed=max").unwrap();
        assert_eq!(q.tape.as_deref(), Some("kalah.rim"));
        assert_eq!(q.test_word, Some(Word::new(0o400004)));
        assert_eq!(
            q.typed.as_ref().map(Vec::len),
            parse_typed("3 ").ok().map(|k| k.len())
        );
        assert_eq!(q.speed, Some(Speed::Max));
        assert_eq!(parse("ss=3,5").unwrap().sense_switches, Some(0o12));
        assert_eq!(parse("speed=2").unwrap().speed, Some(Speed::Factor(2.0)));
        assert_eq!(parse("keypad=1").unwrap().keypad, Some(true));
        assert_eq!(parse("keypad=0").unwrap().keypad, Some(false));
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        assert!(parse("tw=9").unwrap_err().contains("tw"));
        assert!(parse("colour=red")
            .unwrap_err()
            .contains("unknown parameter `colour`"));
        assert!(parse("speed=fast").unwrap_err().contains("speed"));
        assert!(parse("keypad=yes").unwrap_err().contains("keypad"));
        assert!(parse("tw=1&tw=2").unwrap_err().contains("twice"));
        assert!(parse("type=%2").unwrap_err().contains("escape"));
        assert!(parse("").is_ok());
    }
}
