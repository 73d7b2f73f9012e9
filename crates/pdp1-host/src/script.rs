//! Operator scripts (`--script FILE`, issue 15): what an operator does at the console during a
//! session — switches, START, STOP, CONTINUE, READ IN, tapes on the reader and the punch, keys —
//! with waits for a halt, for a time, or for typed text, one action a line, the way SIMH's `do`
//! files and a demonstrator's checklist work. One parser for every host; the run controller
//! asks [`Script::next_due`] for the actions whose waits are over at the start of each step and
//! does each with its own console method, so everything the script does to the machine happens
//! there, between steps.
//!
//! The format (docs/headless.md, "Operator scripts"): one action a line, words separated by
//! blanks, `#` starts a comment (outside quotes), blank lines are ignored. Numbers are octal
//! (addresses, words, the test word) except times, which are decimal seconds (`2.5s`) or
//! milliseconds (`300ms`) of emulated time. Text is quoted with `'…'` or `"…"` and takes the
//! escapes of `--type` (`\r` `\n` `\b` `\t` `\\`) and `\'` `\"`.
//!
//! The whole file is read and checked before the machine runs: a bad line, a missing tape or an
//! address outside memory is an error naming the file, the line and the column.

use crate::config::{parse_octal, parse_sense_list};
use crate::error::{bail, err, Result};
use crate::keyboard::{parse_typed, Key};
use crate::typeout::{stroke, Stroke};
use pdp1_core::{Machine, TypeEvent, Word};
use std::path::{Path, PathBuf};

/// One console action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `tw OCTAL`: the test word switches.
    TestWord(Word),
    /// `ss 1 3` / `ss 1,3` / `ss none`: the sense switches that are on (bits as
    /// `Machine::set_sense_switches`).
    SenseSwitches(u8),
    /// `ta OCTAL`: the test address switches.
    TestAddress(u32),
    /// `start [OCTAL]`: (TA ← OCTAL, then) START.
    Start(Option<u32>),
    /// `stop`: STOP.
    Stop,
    /// `continue`: CONTINUE.
    Continue,
    /// `readin`: READ IN the tape in the reader.
    ReadIn,
    /// `deposit ADDR WORD`: memory ← word (as SIMH's `deposit`: switches and registers stay).
    Deposit(u32, Word),
    /// `examine A` / `examine A-B`: print `AAAA/ WWWWWW` lines on stdout.
    Examine(u32, u32),
    /// `mount FILE`: the tape goes into the reader (READ IN or the program reads it).
    Mount { path: PathBuf, frames: Vec<u8> },
    /// `punch FILE`: a fresh tape on the punch; what is punched from here on goes to FILE.
    Punch(PathBuf),
    /// `type '…'`: keys for the typist, struck when the program is ready for each.
    Type(Vec<Key>),
    /// `wait halt`: until the machine stands (a `hlt`, or stopped).
    WaitHalt,
    /// `wait 2.5s` / `wait 300ms`: emulated nanoseconds.
    WaitTime(u64),
    /// `wait text "…"`: until the program has typed this text (since the wait began).
    WaitText(String),
    /// `wait tape`: until the tape in the reader has been read up to its blank trailer.
    WaitTape,
}

/// An action and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub line: usize,
    pub action: Action,
}

/// What the script waits for now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Waiting {
    Halt,
    /// Until this emulated time.
    Time(u64),
    Text,
    Tape,
}

/// A parsed script and how far it has got.
#[derive(Clone, Debug)]
pub struct Script {
    /// The file, as named on the command line (for messages).
    name: String,
    pub steps: Vec<Step>,
    next: usize,
    /// The wait in progress (for `steps[next]`).
    waiting: Option<Waiting>,
    /// Program output since the text wait began.
    seen: String,
}

/// A word of a line and the column (1-based, in characters) where it starts.
struct Token {
    text: String,
    col: usize,
    quoted: bool,
}

/// Split a line into words and quoted strings, dropping a `#` comment.
fn tokens(line: &str) -> std::result::Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' {
            break;
        } else if c == '\'' || c == '"' {
            let start = i;
            let mut text = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        return Err((start + 1, format!("the text opened with {c} is not closed")))
                    }
                    Some(&q) if q == c => {
                        i += 1;
                        break;
                    }
                    // `\'` and `\"` are the quotes themselves; other escapes are `--type`'s,
                    // kept for its parser.
                    Some('\\') if matches!(chars.get(i + 1), Some('\'' | '"')) => {
                        text.push(chars[i + 1]);
                        i += 2;
                    }
                    Some('\\') if chars.get(i + 1).is_some() => {
                        text.push('\\');
                        text.push(chars[i + 1]);
                        i += 2;
                    }
                    Some(&o) => {
                        text.push(o);
                        i += 1;
                    }
                }
            }
            out.push(Token {
                text,
                col: start + 1,
                quoted: true,
            });
        } else {
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '#' {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                col: start + 1,
                quoted: false,
            });
        }
    }
    Ok(out)
}

/// `2.5s`, `300ms` → nanoseconds.
fn parse_time(t: &str) -> Result<u64> {
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e6)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1e9)
    } else {
        bail!("`{t}` is not a time: write seconds or milliseconds of emulated time, e.g. `2.5s` or `300ms`");
    };
    match num.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * scale < 1e18 => Ok((v * scale).round() as u64),
        _ => bail!("`{t}` is not a time: write seconds or milliseconds of emulated time, e.g. `2.5s` or `300ms`"),
    }
}

/// The program's typed output as text (`wait text` compares with it; the ManKalah agent reads
/// the program's answers so): carriage return is
/// `\n`, tab `\t`, backspace `\b` (0x08); case shifts and ribbon changes are nothing.
pub fn typed_text(events: &[TypeEvent], out: &mut String) {
    for e in events.iter().filter(|e| !e.local) {
        match stroke(e.code, e.upper) {
            Stroke::Return => out.push('\n'),
            Stroke::Tab => out.push('\t'),
            Stroke::Backspace => out.push('\u{8}'),
            Stroke::Char(c) | Stroke::Overstrike(c) => out.push(c),
            Stroke::Nothing => {}
        }
    }
}

/// `wait text` escapes: those of `--type`, with `\r` and `\n` both the carriage return
/// (typed out as `\n`).
fn unescape_text(t: &str) -> Result<String> {
    let mut out = String::new();
    let mut it = t.chars();
    let mut after_cr = false;
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            after_cr = false;
            continue;
        }
        let e = it.next();
        // `\r\n` is one carriage return, as for `--type`.
        let skip = after_cr && e == Some('n');
        after_cr = e == Some('r');
        match e {
            Some('n') if skip => {}
            Some('r' | 'n') => out.push('\n'),
            Some('b') => out.push('\u{8}'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(o) => bail!("unknown escape `\\{o}` (use \\r or \\n for carriage return, \\b backspace, \\t tab, \\\\ backslash)"),
            None => bail!("the text ends with a lone `\\`"),
        }
    }
    Ok(out)
}

const USAGE: &str = "expected one of: tw, ss, ta, start, stop, continue, readin, deposit, \
                     examine, mount, punch, type, wait (docs/headless.md, \"Operator scripts\")";

impl Script {
    /// Parse and check `text` (the file `name`). `read_tape` reads the tape a `mount` names
    /// (the host's file system: file names are relative to the current directory, as on the
    /// command line), so a missing tape is an error before anything runs.
    pub fn parse(
        text: &str,
        name: &str,
        read_tape: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
    ) -> Result<Script> {
        let mut steps = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let at = |col: usize| format!("script {name} line {n}, column {col}");
            let toks = tokens(line).map_err(|(col, e)| err!("{}: {e}", at(col)))?;
            let Some(first) = toks.first() else {
                continue;
            };
            let verb = first.text.to_ascii_lowercase();
            let args = &toks[1..];
            // The argument count: exactly `n`, or a range.
            let want = |lo: usize, hi: usize, form: &str| -> Result<()> {
                if args.len() < lo || args.len() > hi {
                    let col = args.get(hi).map_or(first.col, |t| t.col);
                    bail!("{}: `{verb}` takes {form}", at(col));
                }
                Ok(())
            };
            let octal = |t: &Token, max: u32, what: &str| -> Result<u32> {
                parse_octal(&t.text, max, what).map_err(|e| err!("{}: {e}", at(t.col)))
            };
            let file = |t: &Token| -> PathBuf { PathBuf::from(&t.text) };
            let action = match verb.as_str() {
                "tw" => {
                    want(1, 1, "the test word in octal, e.g. `tw 20`")?;
                    Action::TestWord(Word::new(octal(&args[0], Word::MASK, "tw")?))
                }
                "ta" => {
                    want(1, 1, "the test address in octal, e.g. `ta 100`")?;
                    Action::TestAddress(octal(&args[0], 0o177777, "ta")?)
                }
                "ss" => {
                    want(
                        1,
                        6,
                        "the sense switches that are on, e.g. `ss 1 3`, or `ss none`",
                    )?;
                    let list: Vec<&str> = args.iter().map(|t| t.text.as_str()).collect();
                    let bits = parse_sense_list(&list.join(","), "ss")
                        .map_err(|e| err!("{}: {e}", at(args[0].col)))?;
                    Action::SenseSwitches(bits)
                }
                "start" => {
                    want(0, 1, "an optional octal address, e.g. `start 4`")?;
                    let a = args
                        .first()
                        .map(|t| octal(t, 0o177777, "start"))
                        .transpose()?;
                    Action::Start(a)
                }
                "stop" | "continue" | "readin" => {
                    want(0, 0, "nothing")?;
                    match verb.as_str() {
                        "stop" => Action::Stop,
                        "continue" => Action::Continue,
                        _ => Action::ReadIn,
                    }
                }
                "deposit" => {
                    want(
                        2,
                        2,
                        "an address and a word in octal, e.g. `deposit 100 760400`",
                    )?;
                    let a = octal(&args[0], 0o177777, "deposit")?;
                    let w = octal(&args[1], Word::MASK, "deposit")?;
                    Action::Deposit(a, Word::new(w))
                }
                "examine" => {
                    want(
                        1,
                        1,
                        "an octal address or range, e.g. `examine 100` or `examine 100-117`",
                    )?;
                    let (a, b) = crate::config::parse_range(&args[0].text, "examine")
                        .map_err(|e| err!("{}: {e}", at(args[0].col)))?;
                    Action::Examine(a, b)
                }
                "mount" => {
                    want(1, 1, "a tape file, e.g. `mount hyperspace85.bin`")?;
                    let path = file(&args[0]);
                    let frames = read_tape(&path).map_err(|e| {
                        err!(
                            "{}: cannot read tape {}: {e}",
                            at(args[0].col),
                            path.display()
                        )
                    })?;
                    if frames.is_empty() {
                        bail!("{}: tape {} is empty", at(args[0].col), path.display());
                    }
                    Action::Mount { path, frames }
                }
                "punch" => {
                    want(
                        1,
                        1,
                        "the file the punched tape is written to, e.g. `punch out.pt`",
                    )?;
                    Action::Punch(file(&args[0]))
                }
                "type" => {
                    want(1, 1, "one quoted text, e.g. `type '3 '`")?;
                    if !args[0].quoted {
                        bail!(
                            "{}: `type` takes its text in quotes, e.g. `type '3 '`",
                            at(args[0].col)
                        );
                    }
                    let keys = parse_typed(&args[0].text)
                        .map_err(|e| err!("{}: {e:#}", at(args[0].col)))?;
                    Action::Type(keys)
                }
                "wait" => {
                    let form = "`halt`, `tape`, a time (`2.5s`, `300ms`) or `text \"…\"`";
                    let Some(what) = args.first() else {
                        bail!("{}: `wait` takes {form}", at(first.col));
                    };
                    match what.text.as_str() {
                        "halt" if !what.quoted => {
                            want(1, 1, form)?;
                            Action::WaitHalt
                        }
                        "tape" if !what.quoted => {
                            want(1, 1, form)?;
                            Action::WaitTape
                        }
                        "text" if !what.quoted => {
                            want(2, 2, form)?;
                            if !args[1].quoted {
                                bail!("{}: the text to wait for goes in quotes", at(args[1].col));
                            }
                            let t = unescape_text(&args[1].text)
                                .map_err(|e| err!("{}: {e}", at(args[1].col)))?;
                            if t.is_empty() {
                                bail!("{}: the text to wait for is empty", at(args[1].col));
                            }
                            Action::WaitText(t)
                        }
                        t => {
                            want(1, 1, form)?;
                            let ns = parse_time(t).map_err(|e| err!("{}: {e}", at(what.col)))?;
                            Action::WaitTime(ns)
                        }
                    }
                }
                _ => bail!(
                    "{}: unknown action `{}`; {USAGE}",
                    at(first.col),
                    first.text
                ),
            };
            steps.push(Step { line: n, action });
        }
        Ok(Script {
            name: name.to_owned(),
            steps,
            next: 0,
            waiting: None,
            seen: String::new(),
        })
    }

    /// The tape the script reads in first (a `mount` followed by `readin`, before anything
    /// runs): when no TAPE is given, the machine is the one this tape needs (docs/library.md).
    pub fn boot_tape(&self) -> Option<&Path> {
        let mut mounted = None;
        for s in &self.steps {
            match &s.action {
                Action::Mount { path, .. } => mounted = Some(path.as_path()),
                Action::ReadIn => return mounted,
                Action::TestWord(_)
                | Action::SenseSwitches(_)
                | Action::TestAddress(_)
                | Action::Deposit(..)
                | Action::Punch(_) => {}
                _ => return None,
            }
        }
        None
    }

    /// Check the addresses against the machine's memory, before the run.
    pub fn check(&self, m: &Machine) -> Result<()> {
        let size = m.config().memory_words as u32;
        for s in &self.steps {
            let addr = match s.action {
                Action::Deposit(a, _) => a,
                Action::Examine(_, b) => b,
                Action::Start(Some(a)) => a,
                _ => continue,
            };
            if addr >= size {
                bail!(
                    "script {} line {}: address {addr:o} is outside the {}K memory (last address {:o})",
                    self.name,
                    s.line,
                    size / 1024,
                    size - 1
                );
            }
        }
        Ok(())
    }

    /// Every action done (the run then ends as one without a script would).
    pub fn done(&self) -> bool {
        self.next >= self.steps.len()
    }

    /// The emulated time a time wait ends (the drivers end their slice there).
    pub fn deadline(&self) -> Option<u64> {
        match self.waiting {
            Some(Waiting::Time(t)) => Some(t),
            _ => None,
        }
    }

    /// Where the script stands, for a message: `script FILE line N (wait text "…")`.
    pub fn position(&self) -> String {
        match self.steps.get(self.next) {
            Some(s) => format!(
                "script {} line {} ({})",
                self.name,
                s.line,
                describe(&s.action)
            ),
            None => format!("script {} (done)", self.name),
        }
    }

    /// The typewriter's events since the last call (for `wait text`).
    pub fn observe(&mut self, events: &[TypeEvent]) {
        if self.waiting == Some(Waiting::Text) {
            typed_text(events, &mut self.seen);
        }
    }

    /// The next action that is due, the waits before it being over (`m`: the machine as it
    /// stands now); `None` while the script waits, and when it is done. The run controller
    /// does each action with the console method it names (`RunControl::act`),
    /// between steps like everything the host does.
    pub fn next_due(&mut self, m: &Machine) -> Option<Action> {
        while let Some(step) = self.steps.get(self.next) {
            if let Some(w) = &self.waiting {
                let over = match (w, &step.action) {
                    (Waiting::Halt, _) => !m.running(),
                    (Waiting::Time(t), _) => m.time_ns() >= *t,
                    (Waiting::Text, Action::WaitText(t)) => self.seen.contains(t.as_str()),
                    (Waiting::Text, _) => true,
                    (Waiting::Tape, _) => tape_read(m),
                };
                if !over {
                    return None;
                }
                self.waiting = None;
                self.seen.clear();
                self.next += 1;
                continue;
            }
            self.waiting = match &step.action {
                Action::WaitHalt => Some(Waiting::Halt),
                Action::WaitTime(ns) => Some(Waiting::Time(m.time_ns().saturating_add(*ns))),
                Action::WaitText(_) => {
                    self.seen.clear();
                    Some(Waiting::Text)
                }
                Action::WaitTape => Some(Waiting::Tape),
                other => {
                    let action = other.clone();
                    self.next += 1;
                    return Some(action);
                }
            };
        }
        None
    }
}

/// The tape in the reader has been read, up to its blank trailer (frames without data holes,
/// as [`crate::tape::reader_spent`]); an empty reader counts as read.
fn tape_read(m: &Machine) -> bool {
    let (frames, pos) = m.tape();
    (pos > 0 || frames.is_empty()) && crate::tape::reader_spent(m)
}

/// An action as written (for messages).
fn describe(a: &Action) -> String {
    match a {
        Action::TestWord(w) => format!("tw {w}"),
        Action::SenseSwitches(_) => "ss".to_owned(),
        Action::TestAddress(t) => format!("ta {t:o}"),
        Action::Start(Some(a)) => format!("start {a:o}"),
        Action::Start(None) => "start".to_owned(),
        Action::Stop => "stop".to_owned(),
        Action::Continue => "continue".to_owned(),
        Action::ReadIn => "readin".to_owned(),
        Action::Deposit(a, w) => format!("deposit {a:o} {w}"),
        Action::Examine(a, b) => format!("examine {a:o}-{b:o}"),
        Action::Mount { path, .. } => format!("mount {}", path.display()),
        Action::Punch(p) => format!("punch {}", p.display()),
        Action::Type(_) => "type".to_owned(),
        Action::WaitHalt => "wait halt".to_owned(),
        Action::WaitTime(ns) => format!("wait {}s", *ns as f64 / 1e9),
        Action::WaitText(t) => format!("wait text {t:?}"),
        Action::WaitTape => "wait tape".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> Result<Vec<Action>> {
        Script::parse(t, "s.txt", &|p| std::fs::read(p))
            .map(|s| s.steps.into_iter().map(|s| s.action).collect())
    }

    fn err(t: &str) -> String {
        format!("{:#}", parse(t).unwrap_err())
    }

    #[test]
    fn every_action_parses() {
        let a = parse(
            "# a comment\n\ntw 20   # the centre\nss 1 3\nss none\nss 1,3\nta 100\nstart\nstart 4\n\
             stop\ncontinue\nreadin\ndeposit 100 760400\nexamine 100\nexamine 100-102\n\
             punch out.pt\ntype '3 \\'#\\r'\nwait halt\nwait tape\nwait 2.5s\nwait 300ms\nwait text \"a\\rb\\r\\nc\"\n",
        )
        .unwrap();
        assert_eq!(
            a,
            vec![
                Action::TestWord(Word::new(0o20)),
                Action::SenseSwitches(0o50),
                Action::SenseSwitches(0),
                Action::SenseSwitches(0o50),
                Action::TestAddress(0o100),
                Action::Start(None),
                Action::Start(Some(4)),
                Action::Stop,
                Action::Continue,
                Action::ReadIn,
                Action::Deposit(0o100, Word::new(0o760400)),
                Action::Examine(0o100, 0o100),
                Action::Examine(0o100, 0o102),
                Action::Punch(PathBuf::from("out.pt")),
                Action::Type(parse_typed("3 '#\\r").unwrap()),
                Action::WaitHalt,
                Action::WaitTape,
                Action::WaitTime(2_500_000_000),
                Action::WaitTime(300_000_000),
                Action::WaitText("a\nb\nc".to_owned()),
            ]
        );
    }

    #[test]
    fn bad_lines_name_the_file_line_and_column() {
        assert_eq!(
            err("tw 20\n  twx 5\n"),
            format!("script s.txt line 2, column 3: unknown action `twx`; {USAGE}")
        );
        assert!(err("tw 9").starts_with("script s.txt line 1, column 4: tw: `9` is not an octal"));
        assert!(err("tw").contains("line 1, column 1: `tw` takes the test word"));
        assert!(err("tw 1 2").contains("line 1, column 6: `tw` takes"));
        assert!(err("ss 7").contains("line 1, column 4: ss: sense switch 7 does not exist"));
        assert!(err("wait").contains("`wait` takes"));
        assert!(err("wait 5").contains("column 6: `5` is not a time"));
        assert!(err("wait -1s").contains("is not a time"));
        assert!(err("wait text oops").contains("column 11: the text to wait for goes in quotes"));
        assert!(err("type 'abc").contains("column 6: the text opened with ' is not closed"));
        assert!(err("type abc").contains("in quotes"));
        assert!(err("type ':'").contains("no key for ':'"));
        assert!(err("mount /nonexistent/t.rim").contains("cannot read tape /nonexistent/t.rim"));
        assert!(err("examine 200-100").contains("ends before it starts"));
        assert!(err("start 1 2").contains("`start` takes an optional"));
    }

    #[test]
    fn the_boot_tape_is_the_first_one_read_in_before_anything_runs() {
        let d = std::env::temp_dir().join(format!("pdp1-script-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let t = d.join("t.rim");
        std::fs::write(&t, [1u8]).unwrap();
        let t = t.display().to_string();
        let s = Script::parse(&format!("tw 20\nmount {t}\nreadin\n"), "s", &|p| {
            std::fs::read(p)
        })
        .unwrap();
        assert_eq!(s.boot_tape(), Some(Path::new(&t)));
        let s = Script::parse(&format!("start 4\nmount {t}\nreadin\n"), "s", &|p| {
            std::fs::read(p)
        })
        .unwrap();
        assert_eq!(s.boot_tape(), None);
        let s = Script::parse(&format!("mount {t}\n"), "s", &|p| std::fs::read(p)).unwrap();
        assert_eq!(s.boot_tape(), None);
    }

    #[test]
    fn odd_lines_are_errors_not_panics() {
        for line in [
            "'",
            "\"",
            "\\",
            "type '\\",
            "type '\\'",
            "wait text '\\'",
            "wait text ''",
            "wait text \"\\q\"",
            "type 'é'",
            "ß 1",
            "tw 7777777",
            "ta 2000000",
            "ss 0",
            "ss 1 2 3 4 5 6 7",
            "examine -",
            "examine 1-",
            "deposit 1 2 3",
            "wait 1e400s",
            "wait 18446744073709551616ms",
            "wait .s",
            "start -1",
            "tw #",
            "#'",
            "mount ''",
            "punch",
            "type",
            "wait halt now",
            "wait tape 1",
            "\u{0}",
        ] {
            let _ = Script::parse(line, "s", &|p| std::fs::read(p));
        }
        assert!(err("wait text ''").contains("empty"));
        assert!(err("mount ''").contains("cannot read tape"));
    }

    #[test]
    fn times_are_emulated_seconds_or_milliseconds() {
        assert_eq!(parse_time("1s").unwrap(), 1_000_000_000);
        assert_eq!(parse_time("0.001s").unwrap(), 1_000_000);
        assert_eq!(parse_time("15ms").unwrap(), 15_000_000);
        assert!(parse_time("1e30s").is_err());
        assert!(parse_time("NaNs").is_err());
        assert!(parse_time("s").is_err());
    }
}
