//! Machine settings: parsed from the command line and from an optional RON file
//! (`--config FILE.ron`), merged so that command-line flags override the file.
//!
//! Values keep the PDP-1's octal conventions: the test word and test address are octal (in RON
//! either as a string of octal digits, `"6000"`, or as a RON octal literal, `0o6000`).

use crate::error::{bail, Result};
use pdp1_core::Word;
use serde::Deserialize;

/// How fast emulated time runs against the wall clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    /// As fast as the host can go.
    Max,
    /// `1.0` = a real PDP-1; `4.0` = four times faster.
    Factor(f64),
}

impl Speed {
    /// The next setting of the speed key: 1× → 2× → 4× → 16× → max → 1× (a configured odd
    /// factor goes to the next step above it).
    pub fn next(self) -> Speed {
        match self {
            Speed::Factor(f) if f < 1.0 => Speed::Factor(1.0),
            Speed::Factor(f) if f < 2.0 => Speed::Factor(2.0),
            Speed::Factor(f) if f < 4.0 => Speed::Factor(4.0),
            Speed::Factor(f) if f < 16.0 => Speed::Factor(16.0),
            Speed::Factor(_) => Speed::Max,
            Speed::Max => Speed::Factor(1.0),
        }
    }

    pub fn label(self) -> String {
        match self {
            Speed::Factor(f) => format!("{f}x"),
            Speed::Max => "max".into(),
        }
    }
}

/// The settings both modes need, after merging the config file and the command line.
/// `None` means "not given anywhere": the machine's power-on value (or the mode's default) applies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub test_word: Option<Word>,
    /// SS1 = 040 … SS6 = 001, the layout of `Machine::set_sense_switches`.
    pub sense_switches: Option<u8>,
    /// 16 bits: extension bits 0–3 and the 12-bit address.
    pub test_address: Option<u32>,
    pub mul_div: Option<bool>,
    /// PDP-1D `lai`/`lia` (`swp`).
    pub lai_lia: Option<bool>,
    pub second_display: Option<bool>,
    /// Type 120 sixteen-channel sequence break system installed.
    pub sbs16: Option<bool>,
    pub extend: Option<bool>,
    pub memory_words: Option<usize>,
    pub max_seconds: Option<f64>,
    pub max_instructions: Option<u64>,
    pub speed: Option<Speed>,
    pub xct_limit: Option<u32>,
    pub indirect_limit: Option<u32>,
    pub breakpoints: Vec<u32>,
    /// Type 30 coordinates the light pen is held at for the whole run.
    pub light_pen: Option<(i16, i16)>,
    pub light_pen_radius: Option<u16>,
    /// Program flags that sound (PF1 = 040 … PF6 = 001); `None`: flags 1–4, the PiDP-1's
    /// (`pdp1_core::sound`).
    pub sound_flags: Option<u8>,
}

/// The RON file. Every field is optional; unknown fields are rejected so a typo is not silently
/// ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub tw: Option<Octal>,
    pub ss: Option<SenseList>,
    pub ta: Option<Octal>,
    pub mdv: Option<bool>,
    pub swp: Option<bool>,
    pub second_display: Option<bool>,
    pub sbs16: Option<bool>,
    pub extend: Option<bool>,
    pub memory: Option<MemorySize>,
    pub max_seconds: Option<f64>,
    pub max_instructions: Option<u64>,
    pub speed: Option<SpeedValue>,
    pub xct_limit: Option<u32>,
    pub indirect_limit: Option<u32>,
    pub breakpoints: Option<Vec<Octal>>,
    pub light_pen: Option<PenPosition>,
    pub light_pen_radius: Option<u16>,
    /// Program flags that sound: `[1, 2, 3, 4]` or `"1,2,3,4"` (`"none"`: silence).
    pub sound_flags: Option<SenseList>,
}

/// Light-pen position: a pair `(x, y)` or a string `"x,y"` (decimal).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum PenPosition {
    Pair(i64, i64),
    Text(String),
}

/// An octal number: a RON integer (write `0o777` for octal) or a string of octal digits.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Octal {
    Number(u64),
    Text(String),
}

/// Sense switches that are on: a list of switch numbers or a string like `"3,5"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum SenseList {
    List(Vec<u8>),
    Text(String),
}

/// Memory size: `"16K"` or a number of words (`16384`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum MemorySize {
    Words(u64),
    Text(String),
}

/// Speed: a factor (`1`, `4.0`) or `"max"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum SpeedValue {
    Factor(f64),
    Text(String),
}

/// Parse an octal number no larger than `max` (`what` names the setting in the error).
pub fn parse_octal(text: &str, max: u32, what: &str) -> Result<u32> {
    let t = text.trim();
    let digits = t.strip_prefix("0o").unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        bail!("{what}: `{text}` is not an octal number (digits 0-7)");
    }
    match u32::from_str_radix(digits, 8) {
        Ok(v) if v <= max => Ok(v),
        _ => bail!("{what}: {digits} is larger than the maximum {max:o} (octal)"),
    }
}

fn octal_value(v: &Octal, max: u32, what: &str) -> Result<u32> {
    match v {
        Octal::Number(n) => match u32::try_from(*n) {
            Ok(n) if n <= max => Ok(n),
            _ => bail!("{what}: {n:o} (octal) is larger than the maximum {max:o} (octal)"),
        },
        Octal::Text(t) => parse_octal(t, max, what),
    }
}

/// Numbers 1–6 (sense switches, program flags) → the 6-bit field, number 1 = 040; `thing`
/// names them in the error (`sense switch`, `program flag`), `have` says what the PDP-1 has.
fn bits_1_to_6(numbers: &[u8], what: &str, thing: &str, have: &str) -> Result<u8> {
    let mut bits = 0u8;
    for &n in numbers {
        if !(1..=6).contains(&n) {
            bail!("{what}: {thing} {n} does not exist (the PDP-1 has {have} 1 to 6)");
        }
        bits |= 0o40 >> (n - 1);
    }
    Ok(bits)
}

/// A comma list of numbers 1–6 (`"3,5"`) → the 6-bit field; empty or `none`: 0.
fn parse_1_to_6_list(text: &str, what: &str, thing: &str, have: &str, example: &str) -> Result<u8> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("none") {
        return Ok(0);
    }
    let mut numbers = Vec::new();
    for part in t.split(',') {
        let p = part.trim();
        match p.parse::<u8>() {
            Ok(n) => numbers.push(n),
            Err(_) => bail!(
                "{what}: `{p}` is not a {thing} number (expected a list like `{example}` of {have} 1 to 6)"
            ),
        }
    }
    bits_1_to_6(&numbers, what, thing, have)
}

/// Sense switch numbers (1–6) → the 6-bit field, SS1 = 040.
pub fn sense_bits(numbers: &[u8], what: &str) -> Result<u8> {
    bits_1_to_6(numbers, what, "sense switch", "switches")
}

/// `"3,5"` → SS3 and SS5 on. An empty string (or `none`) means all off.
pub fn parse_sense_list(text: &str, what: &str) -> Result<u8> {
    parse_1_to_6_list(text, what, "sense switch", "switches", "3,5")
}

/// `"1,2,3,4"` → program flags 1–4 (PF1 = 040), for sound. Empty or `none`: no flag.
pub fn parse_flag_list(text: &str, what: &str) -> Result<u8> {
    parse_1_to_6_list(text, what, "program flag", "flags", "1,2,3,4")
}

/// Program flag numbers (1–6) → the 6-bit field, PF1 = 040.
pub fn flag_bits(numbers: &[u8], what: &str) -> Result<u8> {
    bits_1_to_6(numbers, what, "program flag", "flags")
}

pub fn check_memory_words(words: u64, what: &str) -> Result<usize> {
    if words == 0 || !words.is_multiple_of(4096) || words > 65536 {
        bail!("{what}: {words} words is not one of 4K, 8K, … 64K (multiples of 4096 words up to 65536)");
    }
    Ok(words as usize)
}

/// `4K` … `64K` (case-insensitive `k`), or a number of words.
pub fn parse_memory(text: &str, what: &str) -> Result<usize> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix(['K', 'k']) {
        Some(n) => (n, 1024u64),
        None => (t, 1u64),
    };
    let n: u64 = num.parse().map_err(|_| {
        crate::err!("{what}: `{text}` is not a memory size (expected 4K, 8K, … 64K)")
    })?;
    check_memory_words(n.saturating_mul(scale), what)
}

/// `max` or a positive factor (`1` = real PDP-1 speed).
pub fn parse_speed(text: &str, what: &str) -> Result<Speed> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("max") {
        return Ok(Speed::Max);
    }
    match t.parse::<f64>() {
        Ok(f) => speed_factor(f, what),
        Err(_) => {
            bail!("{what}: `{text}` is not a speed (expected `max` or a factor like `1` or `4`)")
        }
    }
}

fn speed_factor(f: f64, what: &str) -> Result<Speed> {
    if f.is_finite() && f > 0.0 {
        Ok(Speed::Factor(f))
    } else {
        bail!("{what}: speed factor {f} must be a positive number")
    }
}

pub fn check_seconds(s: f64, what: &str) -> Result<f64> {
    if s.is_finite() && s >= 0.0 {
        Ok(s)
    } else {
        bail!("{what}: {s} is not a number of seconds (expected a non-negative number)")
    }
}

/// One Type 30 coordinate, −511 … 511.
fn pen_coord(v: i64, what: &str) -> Result<i16> {
    match i16::try_from(v) {
        Ok(c) if (-511..=511).contains(&c) => Ok(c),
        _ => bail!("{what}: coordinate {v} is off the Type 30 raster (-511 to 511)"),
    }
}

/// `X,Y` in decimal Type 30 coordinates (−511 … 511 each, y up), e.g. `-100,250`.
pub fn parse_light_pen(text: &str, what: &str) -> Result<(i16, i16)> {
    let bad = || {
        crate::err!("{what}: `{text}` is not a position (expected X,Y in decimal, e.g. `-100,250`)")
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: i64 = x.trim().parse().map_err(|_| bad())?;
    let y: i64 = y.trim().parse().map_err(|_| bad())?;
    Ok((pen_coord(x, what)?, pen_coord(y, what)?))
}

/// Parse a `--examine`/breakpoint address range `A-B` or `A` (octal).
pub fn parse_range(text: &str, what: &str) -> Result<(u32, u32)> {
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a, b),
        None => (text, text),
    };
    let a = parse_octal(a, 0o177777, what)?;
    let b = parse_octal(b, 0o177777, what)?;
    if a > b {
        bail!("{what}: range `{text}` ends before it starts");
    }
    Ok((a, b))
}

impl FileConfig {
    /// Parse a RON configuration (the host reads the file; errors give the position).
    pub fn parse(text: &str) -> Result<FileConfig> {
        // Fields are written plainly (`tw: "777"`), not as `Some("777")`.
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let cfg: FileConfig = options.from_str(text).map_err(|e| crate::err!("{e}"))?;
        Ok(cfg)
    }

    /// Convert to [`Settings`], checking every value.
    pub fn to_settings(&self) -> Result<Settings> {
        let mut s = Settings::default();
        if let Some(v) = &self.tw {
            s.test_word = Some(Word::new(octal_value(v, Word::MASK, "tw")?));
        }
        if let Some(v) = &self.ss {
            s.sense_switches = Some(match v {
                SenseList::List(l) => sense_bits(l, "ss")?,
                SenseList::Text(t) => parse_sense_list(t, "ss")?,
            });
        }
        if let Some(v) = &self.ta {
            s.test_address = Some(octal_value(v, 0o177777, "ta")?);
        }
        s.mul_div = self.mdv;
        s.lai_lia = self.swp;
        s.second_display = self.second_display;
        s.sbs16 = self.sbs16;
        s.extend = self.extend;
        if let Some(v) = &self.memory {
            s.memory_words = Some(match v {
                MemorySize::Words(w) => check_memory_words(*w, "memory")?,
                MemorySize::Text(t) => parse_memory(t, "memory")?,
            });
        }
        if let Some(v) = self.max_seconds {
            s.max_seconds = Some(check_seconds(v, "max_seconds")?);
        }
        s.max_instructions = self.max_instructions;
        if let Some(v) = &self.speed {
            s.speed = Some(match v {
                SpeedValue::Factor(f) => speed_factor(*f, "speed")?,
                SpeedValue::Text(t) => parse_speed(t, "speed")?,
            });
        }
        s.xct_limit = self.xct_limit;
        s.indirect_limit = self.indirect_limit;
        if let Some(list) = &self.breakpoints {
            for b in list {
                s.breakpoints.push(octal_value(b, 0o177777, "breakpoints")?);
            }
        }
        if let Some(v) = &self.light_pen {
            s.light_pen = Some(match v {
                PenPosition::Pair(x, y) => {
                    (pen_coord(*x, "light_pen")?, pen_coord(*y, "light_pen")?)
                }
                PenPosition::Text(t) => parse_light_pen(t, "light_pen")?,
            });
        }
        s.light_pen_radius = self.light_pen_radius;
        if let Some(v) = &self.sound_flags {
            s.sound_flags = Some(match v {
                SenseList::List(l) => flag_bits(l, "sound_flags")?,
                SenseList::Text(t) => parse_flag_list(t, "sound_flags")?,
            });
        }
        Ok(s)
    }
}

impl Settings {
    /// `self` (the command line) overrides `base` (the file) field by field; breakpoints add up.
    pub fn over(self, base: Settings) -> Settings {
        let mut breakpoints = base.breakpoints;
        breakpoints.extend(self.breakpoints);
        Settings {
            test_word: self.test_word.or(base.test_word),
            sense_switches: self.sense_switches.or(base.sense_switches),
            test_address: self.test_address.or(base.test_address),
            mul_div: self.mul_div.or(base.mul_div),
            lai_lia: self.lai_lia.or(base.lai_lia),
            second_display: self.second_display.or(base.second_display),
            sbs16: self.sbs16.or(base.sbs16),
            extend: self.extend.or(base.extend),
            memory_words: self.memory_words.or(base.memory_words),
            max_seconds: self.max_seconds.or(base.max_seconds),
            max_instructions: self.max_instructions.or(base.max_instructions),
            speed: self.speed.or(base.speed),
            xct_limit: self.xct_limit.or(base.xct_limit),
            indirect_limit: self.indirect_limit.or(base.indirect_limit),
            breakpoints,
            light_pen: self.light_pen.or(base.light_pen),
            light_pen_radius: self.light_pen_radius.or(base.light_pen_radius),
            sound_flags: self.sound_flags.or(base.sound_flags),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_parsing_rejects_non_octal_and_too_large() {
        assert_eq!(parse_octal("777777", Word::MASK, "tw").unwrap(), 0o777777);
        assert_eq!(parse_octal("0o17", Word::MASK, "tw").unwrap(), 0o17);
        assert!(parse_octal("1000000", Word::MASK, "tw").is_err());
        let e = parse_octal("89", Word::MASK, "--tw")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--tw") && e.contains("octal"), "{e}");
        assert!(parse_octal("", Word::MASK, "tw").is_err());
    }

    #[test]
    fn sense_switch_list_maps_to_handbook_bits() {
        // SS1 is the leftmost of the six switches: 040 … SS6 = 001.
        assert_eq!(parse_sense_list("3,5", "ss").unwrap(), 0o10 | 0o02);
        assert_eq!(parse_sense_list("1,2,3,4,5,6", "ss").unwrap(), 0o77);
        assert_eq!(parse_sense_list("", "ss").unwrap(), 0);
        assert!(parse_sense_list("7", "ss").is_err());
        assert!(parse_sense_list("0", "ss").is_err());
        assert!(parse_sense_list("a", "ss").is_err());
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("4K", "m").unwrap(), 4096);
        assert_eq!(parse_memory("64k", "m").unwrap(), 65536);
        assert_eq!(parse_memory("8192", "m").unwrap(), 8192);
        assert!(parse_memory("5K", "m").is_err());
        assert!(parse_memory("128K", "m").is_err());
        assert!(parse_memory("0K", "m").is_err());
    }

    #[test]
    fn ron_file_fields_and_unknown_field() {
        let c = FileConfig::parse(
            r#"(tw: "777", ss: [3, 5], ta: 0o6000, mdv: true, memory: "64K", max_seconds: 2, speed: "max", swp: true, second_display: false)"#,
        )
        .unwrap();
        let s = c.to_settings().unwrap();
        assert_eq!((s.lai_lia, s.second_display), (Some(true), Some(false)));
        assert_eq!(s.test_word, Some(Word::new(0o777)));
        assert_eq!(s.sense_switches, Some(0o12));
        assert_eq!(s.test_address, Some(0o6000));
        assert_eq!(s.mul_div, Some(true));
        assert_eq!(s.memory_words, Some(65536));
        assert_eq!(s.max_seconds, Some(2.0));
        assert_eq!(s.speed, Some(Speed::Max));
        let e = FileConfig::parse("(tww: 1)").unwrap_err().to_string();
        assert!(e.contains("tww"), "{e}");
        let e = FileConfig::parse(r#"(tw: "9")"#)
            .unwrap()
            .to_settings()
            .unwrap_err();
        assert!(e.to_string().contains("tw"), "{e}");
    }

    #[test]
    fn light_pen_positions() {
        assert_eq!(parse_light_pen("-100,250", "p").unwrap(), (-100, 250));
        assert_eq!(parse_light_pen(" 0 , -0 ", "p").unwrap(), (0, 0));
        assert_eq!(parse_light_pen("511,-511", "p").unwrap(), (511, -511));
        for bad in ["512,0", "0,-512", "1", "a,b", "1,2,3", ""] {
            let e = parse_light_pen(bad, "--light-pen").unwrap_err().to_string();
            assert!(e.contains("--light-pen"), "{bad}: {e}");
        }
        let c = FileConfig::parse("(light_pen: (-3, 40), light_pen_radius: 10)").unwrap();
        let s = c.to_settings().unwrap();
        assert_eq!(
            (s.light_pen, s.light_pen_radius),
            (Some((-3, 40)), Some(10))
        );
        let c = FileConfig::parse(r#"(light_pen: "7,-8")"#).unwrap();
        assert_eq!(c.to_settings().unwrap().light_pen, Some((7, -8)));
        let e = FileConfig::parse("(light_pen: (600, 0))")
            .unwrap()
            .to_settings()
            .unwrap_err();
        assert!(e.to_string().contains("light_pen"), "{e}");
    }

    #[test]
    fn command_line_overrides_file() {
        let file = Settings {
            test_word: Some(Word::new(1)),
            sense_switches: Some(0o40),
            max_instructions: Some(5),
            ..Settings::default()
        };
        let cli = Settings {
            test_word: Some(Word::new(2)),
            ..Settings::default()
        };
        let s = cli.over(file);
        assert_eq!(s.test_word, Some(Word::new(2)));
        assert_eq!(s.sense_switches, Some(0o40));
        assert_eq!(s.max_instructions, Some(5));
    }
}
