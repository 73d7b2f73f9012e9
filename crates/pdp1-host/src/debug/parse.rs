//! The debug protocol's lexical side (DEBUG_PROTOCOL_SPEC.md §1–§3): lines framed from bytes
//! with the 1024-byte limit, numbers (addresses and words octal, counts decimal), register
//! names and the fixed condition grammar. Pure: no machine, no sockets.

use pdp1_core::Machine;

/// The longest line a client may send (spec §1), not counting its `\n`.
pub const MAX_LINE: usize = 1024;

/// One framed piece of a client's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Framed {
    /// A command line, `\r\n` or `\n` stripped.
    Line(String),
    /// A line longer than [`MAX_LINE`]: answered `?arg`, and the input through its `\n`
    /// discarded so the connection stays in step.
    TooLong,
}

/// Cuts a byte stream into lines (spec §1). Bytes that are not ASCII are kept as the
/// replacement character, so a garbage line is an unknown command, not a dropped connection.
#[derive(Debug, Default)]
pub struct Framer {
    buf: Vec<u8>,
    discarding: bool,
}

impl Framer {
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Framed> {
        let mut out = Vec::new();
        for &b in bytes {
            if b == b'\n' {
                if self.discarding {
                    self.discarding = false;
                } else {
                    if self.buf.last() == Some(&b'\r') {
                        self.buf.pop();
                    }
                    out.push(Framed::Line(
                        String::from_utf8_lossy(&self.buf).into_owned(),
                    ));
                }
                self.buf.clear();
            } else if !self.discarding {
                self.buf.push(b);
                if self.buf.len() > MAX_LINE + 1 {
                    // (+1: a `\r` before the `\n` is not part of the line.)
                    self.buf.clear();
                    self.discarding = true;
                    out.push(Framed::TooLong);
                }
            }
        }
        out
    }
}

/// A protocol error: the token (`?arg`, `?addr`, …) and its prose, sent as `- ?token prose`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

impl Refusal {
    pub fn new(token: &str, prose: impl std::fmt::Display) -> Refusal {
        Refusal(format!("?{token} {prose}"))
    }
}

pub type Reply<T> = Result<T, Refusal>;

/// An octal number (addresses and words, spec §2): digits 0–7 only, no prefix.
pub fn octal(s: &str) -> Reply<u32> {
    if s.is_empty() || s.len() > 11 || !s.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return Err(Refusal::new("arg", format!("not an octal number: {s}")));
    }
    u32::from_str_radix(s, 8).map_err(|_| Refusal::new("arg", format!("too large: {s}")))
}

/// An 18-bit word, octal.
pub fn word(s: &str) -> Reply<u32> {
    let w = octal(s)?;
    if w > 0o777_777 {
        return Err(Refusal::new("arg", format!("not an 18-bit word: {s}")));
    }
    Ok(w)
}

/// A count or a time, decimal.
pub fn decimal(s: &str) -> Reply<u64> {
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Refusal::new("arg", format!("not a decimal number: {s}")));
    }
    s.parse()
        .map_err(|_| Refusal::new("arg", format!("not a decimal number: {s}")))
}

/// An address in `0..0177777` (spec §3) that is also in this machine's memory.
pub fn address(s: &str, m: &Machine) -> Reply<u32> {
    let a = octal(s).map_err(|_| Refusal::new("addr", format!("not an octal address: {s}")))?;
    check_address(a, m)
}

pub fn check_address(a: u32, m: &Machine) -> Reply<u32> {
    if a > 0o177_777 || a as usize >= m.memory().len().min(m.config().memory_words) {
        return Err(Refusal::new(
            "addr",
            format!(
                "{a:o} is outside the memory (0-{:o})",
                m.config().memory_words.saturating_sub(1)
            ),
        ));
    }
    Ok(a)
}

/// The registers and status bits `reg` reads (spec §3), in the order bare `reg` lists them.
pub const REGISTERS: [&str; 27] = [
    "pc",
    "ac",
    "io",
    "mb",
    "ma",
    "ir",
    "ov",
    "pf",
    "epc",
    "ema",
    "ta",
    "tw",
    "ss",
    "eta",
    "run",
    "run_enable",
    "cyc",
    "df1",
    "df2",
    "bc",
    "hsc",
    "rim",
    "sbm",
    "exd",
    "ioh",
    "ioc",
    "ios",
];

/// A register's value, or `None` for a name that is none. The processor's phase gives the
/// status bits the spec takes from aap's timing-pulse model: `cyc` (an execute cycle is next),
/// `df1` (a defer cycle is next), `bc` (a sequence-break entry is next).
pub fn register(m: &Machine, name: &str) -> Option<u32> {
    let next = m.next_cycle();
    let bit = |b: bool| u32::from(b);
    Some(match name {
        "pc" => m.pc(),
        "ac" => m.ac().bits(),
        "io" => m.io().bits(),
        "mb" => m.mb().bits(),
        "ma" => m.ma(),
        "ir" => m.ir(),
        "ov" => bit(m.ov()),
        "pf" => u32::from(m.pf()),
        "epc" => (m.pc() >> 12) & 0o17,
        "ema" => (m.ma() >> 12) & 0o17,
        "ta" => m.test_address(),
        "tw" => m.test_word().bits(),
        "ss" => u32::from(m.sense_switches()),
        "eta" => (m.test_address() >> 12) & 0o17,
        "run" => bit(m.running()),
        // (Our machine has no separate run-enable flip-flop: STOP clears RUN itself.)
        "run_enable" => bit(m.running()),
        "cyc" => bit(next == "execute"),
        "df1" => bit(next == "defer"),
        "df2" | "hsc" => 0,
        "bc" => bit(next == "break entry"),
        "rim" => bit(m.reading_in()),
        "sbm" => bit(m.sequence_break().0),
        "exd" => bit(m.extend_mode()),
        "ioh" => bit(m.io_halt()),
        // (The device command enable is not a flip-flop of this model: an IOT always pulses.)
        "ioc" => 1,
        "ios" => bit(m.io_sync()),
        _ => return None,
    })
}

/// `name=value` as the protocol prints it: words and addresses 6 octal digits, the 6-bit
/// fields 2, the 4-bit extension fields 2, single bits 1.
pub fn show_register(name: &str, v: u32) -> String {
    match name {
        "pc" | "ac" | "io" | "mb" | "ma" | "ta" | "tw" => format!("{name}={v:06o}"),
        "ir" | "pf" | "ss" | "epc" | "ema" | "eta" => format!("{name}={v:02o}"),
        _ => format!("{name}={v:o}"),
    }
}

/// What a condition looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Register(&'static str),
    Memory(u32),
}

/// `<reg> (= | !=) <octal>` or `M[<addr>] (= | !=) <octal>` (spec §3), evaluated at
/// instruction boundaries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub operand: Operand,
    pub equal: bool,
    pub value: u32,
}

impl Cond {
    /// Parses the words after `if` (spaces inside the condition are allowed and ignored).
    pub fn parse(words: &[&str], m: &Machine) -> Reply<Cond> {
        let text: String = words.concat();
        let bad = || Refusal::new("arg", format!("not a condition: {text}"));
        let (lhs, equal, rhs) = if let Some((l, r)) = text.split_once("!=") {
            (l, false, r)
        } else if let Some((l, r)) = text.split_once('=') {
            (l, true, r)
        } else {
            return Err(bad());
        };
        let value = word(rhs)?;
        let lower = lhs.to_ascii_lowercase();
        let operand =
            if let Some(inner) = lower.strip_prefix("m[").and_then(|r| r.strip_suffix(']')) {
                Operand::Memory(address(inner, m)?)
            } else if let Some(name) = REGISTERS.iter().find(|r| **r == lower) {
                Operand::Register(name)
            } else {
                return Err(bad());
            };
        Ok(Cond {
            operand,
            equal,
            value,
        })
    }

    pub fn holds(&self, m: &Machine) -> bool {
        let v = match self.operand {
            Operand::Register(r) => register(m, r).unwrap_or(0),
            Operand::Memory(a) => m.read(a).map(|w| w.bits()).unwrap_or(0),
        };
        (v == self.value) == self.equal
    }
}

impl std::fmt::Display for Cond {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.operand {
            Operand::Register(r) => write!(f, "{r}")?,
            Operand::Memory(a) => write!(f, "M[{a:06o}]")?,
        }
        write!(
            f,
            "{}{:06o}",
            if self.equal { "=" } else { "!=" },
            self.value
        )
    }
}

/// A tape name from the network (spec §5, Devices): relative, with no `..` component, so it
/// stays under the tape directory.
pub fn confined(name: &str) -> Reply<&str> {
    let escapes = name.starts_with('/')
        || name.starts_with('\\')
        || name.contains(':')
        || name.split(['/', '\\']).any(|c| c == "..");
    if escapes || name.is_empty() {
        return Err(Refusal::new(
            "file",
            format!("outside the tape directory: {name}"),
        ));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_strips_cr_and_resyncs_after_a_long_line() {
        let mut f = Framer::default();
        assert_eq!(f.push(b"hel"), vec![]);
        assert_eq!(
            f.push(b"lo\r\ns\n"),
            vec![Framed::Line("hello".into()), Framed::Line("s".into())]
        );
        let mut long = vec![b'1'; 3000];
        long.extend_from_slice(b"\nhello\n");
        assert_eq!(
            f.push(&long),
            vec![Framed::TooLong, Framed::Line("hello".into())]
        );
        let exact = vec![b'x'; MAX_LINE];
        assert_eq!(f.push(&[exact.as_slice(), b"\r\n"].concat()).len(), 1);
        assert!(matches!(f.push(b"\xff\xfe\n")[0], Framed::Line(_)));
    }

    #[test]
    fn numbers_are_octal_or_decimal_as_the_spec_says() {
        assert_eq!(octal("777"), Ok(0o777));
        assert!(octal("99").is_err());
        assert!(octal("").is_err());
        assert!(word("1000000").is_err());
        assert_eq!(decimal("4096"), Ok(4096));
        assert!(decimal("12a").is_err());
    }

    #[test]
    fn names_off_the_network_stay_in_the_tape_directory() {
        for bad in ["/etc/passwd", "../x", "tapes/../../x", "a/..", ""] {
            assert!(
                confined(bad).unwrap_err().0.contains("outside the tape"),
                "{bad}"
            );
        }
        assert_eq!(confined("tapes/spacewar.rim"), Ok("tapes/spacewar.rim"));
    }
}
