//! The debug protocol from its spec (aap's DEBUG_PROTOCOL_SPEC.md v1, §1–§7), without
//! sockets: every command, event and error, on a machine the tests drive a slice at a time.

use super::*;
use crate::keyboard::Typist;
use crate::run::RunPlan;
use crate::tape::Feeder;
use pdp1_core::MachineConfig;

/// The countdown program of the spec's worked example (§9): entry 4, `cnt` at 15, `hlt` at 11.
const DEMO: &str = "d 4 700005 240015 200015 640100 600012 760400 420016 240015 600006 0 1";
/// A `jsp` subroutine: `jsp 24` at 20, `hlt` at 21; the subroutine returns through 26.
const SUB: &str = "d 20 620024 760400 0 0 260026 600026 600000";

struct FakeHost {
    dialled: Vec<(String, u16)>,
    /// The punch's file, if a tape is on it.
    punch: Option<String>,
}

impl Host for FakeHost {
    fn read_tape(&mut self, name: &str) -> Result<Vec<u8>, String> {
        match name {
            "demo.rim" => {
                let mut image = pdp1_asm::tape::Image {
                    words: Default::default(),
                    start: Some(0o4),
                };
                image.words.insert(0o4, Word::new(0o700005));
                image.words.insert(0o5, Word::new(0o760400));
                Ok(pdp1_asm::tape::write_rim(&image))
            }
            // One binary word, `law 5` (700005): neither `dio` nor `jmp`, READ IN cannot go on.
            "bad.rim" => Ok(vec![0o270, 0o200, 0o205]),
            _ => Err("No such file or directory".into()),
        }
    }

    fn dial_display(&mut self, host: &str, port: u16) -> Result<(), String> {
        self.dialled.push((host.into(), port));
        Ok(())
    }

    fn open_punch(&mut self, name: &str) -> Result<(), String> {
        if name.starts_with("nodir/") {
            return Err("No such file or directory".into());
        }
        self.punch = Some(name.into());
        Ok(())
    }

    fn close_punch(&mut self) {
        self.punch = None;
    }
}

struct Bench {
    rc: RunControl,
    d: Debugger,
    host: FakeHost,
    /// Lines sent to each connection and not yet looked at.
    inbox: BTreeMap<ConnId, Vec<String>>,
}

impl Bench {
    fn new() -> Bench {
        let m = Machine::new(MachineConfig::default()).expect("machine");
        let rc = RunControl::new(
            RunPlan::default(),
            Feeder::new(None, &[]),
            Typist::new(Vec::new(), true),
            m,
        );
        let mut b = Bench {
            rc,
            d: Debugger::new(),
            host: FakeHost {
                dialled: vec![],
                punch: None,
            },
            inbox: BTreeMap::new(),
        };
        b.d.connect(1);
        b.d.connect(2);
        b
    }

    fn collect(&mut self) {
        for (id, l) in self.d.take_output() {
            self.inbox.entry(id).or_default().push(l);
        }
    }

    fn tick(&mut self) {
        let until = self.rc.machine().time_ns() + 1_000_000;
        self.d.tick(&mut self.rc, until);
        self.collect();
    }

    /// Sends `line` from `id` without waiting for the answer.
    fn send(&mut self, id: ConnId, line: &str) {
        self.d.command(&mut self.rc, &mut self.host, id, line);
        self.collect();
    }

    /// Everything `id` has been sent so far, taken.
    fn take(&mut self, id: ConnId) -> Vec<String> {
        self.inbox.remove(&id).unwrap_or_default()
    }

    /// Sends `line` from `id` and lets the machine go until `id` is answered (`+` or `-`);
    /// returns the lines up to the answer (events and data lines included), the rest kept.
    fn cmd_on(&mut self, id: ConnId, line: &str) -> Vec<String> {
        self.send(id, line);
        for _ in 0..10_000 {
            let inbox = self.inbox.entry(id).or_default();
            if let Some(end) = inbox.iter().position(|l| l.starts_with(['+', '-'])) {
                return inbox.drain(..=end).collect();
            }
            self.tick();
        }
        panic!("no answer to {line:?}");
    }

    fn cmd(&mut self, line: &str) -> Vec<String> {
        self.cmd_on(1, line)
    }

    /// The answer line of `line` (asserting it succeeded).
    fn ok(&mut self, line: &str) -> String {
        let l = self.cmd(line);
        let last = l.last().expect("answer").clone();
        assert!(last.starts_with('+'), "{line:?} → {l:?}");
        last
    }

    /// The error token of `line` (asserting it failed).
    fn err(&mut self, line: &str) -> String {
        let last = self.cmd(line).last().expect("answer").clone();
        assert!(last.starts_with("- ?"), "{line:?} should fail: {last}");
        last[2..].split(' ').next().expect("token").to_string()
    }

    /// `key=value` of an answer.
    fn kv(&mut self, line: &str) -> BTreeMap<String, String> {
        self.ok(line)[1..]
            .split_whitespace()
            .filter_map(|f| f.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn demo(&mut self) {
        self.ok(DEMO);
        self.ok("w pc 4");
    }
}

#[test]
fn session_commands() {
    let mut b = Bench::new();
    let h = b.kv("hello");
    assert_eq!(h["proto"], "1");
    assert_eq!(h["machine"], "pdp1");
    assert_eq!(h["maxmem"], "10000", "4K words, octal");
    let help = b.cmd("help");
    assert!(help.len() > 10 && help[..help.len() - 1].iter().all(|l| l.starts_with(": ")));
    // `help <cmd>`: the lines naming that command only.
    let e = b.cmd("help E");
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].starts_with(": e <addr> [n]"));
    assert!(b.cmd("help uwp")[0].starts_with(": wp <addr>"));
    assert!(b.cmd("help punch")[0].starts_with(": reader|load|punch"));
    assert!(b.cmd("help sbs")[0].starts_with(": muldiv|audio"));
    assert_eq!(b.cmd("help frobnicate").len(), 1, "no lines, then +");
    assert_eq!(b.err("help e d"), "?arg");
    assert_eq!(b.ok("events all"), "+ events=all");
    assert_eq!(b.ok("EVENTS none"), "+ events=none", "case-insensitive");
    assert_eq!(b.err("events some"), "?arg");
    assert_eq!(b.err("frobnicate"), "?cmd");
    assert_eq!(b.err("hello there"), "?arg", "unknown trailing arguments");
    // An empty line is not a command: no answer.
    b.send(1, "  \t ");
    assert!(b.take(1).is_empty());
    assert_eq!(b.ok("quit"), "+ bye");
    assert_eq!(b.d.take_closing(), vec![1]);
}

#[test]
fn framing_errors_keep_the_connection_in_step() {
    let mut b = Bench::new();
    let mut f = Framer::default();
    let mut input = b"d 100 ".to_vec();
    input.extend(std::iter::repeat_n(b'1', 1 << 20));
    input.extend_from_slice(b"\n\xff\xfe garbage\r\nhello\r\n");
    for piece in f.push(&input) {
        b.d.input(&mut b.rc, &mut b.host, 1, piece);
    }
    b.collect();
    let got = b.take(1);
    assert_eq!(got[0], "- ?arg line too long");
    assert!(got[1].starts_with("- ?cmd"), "{got:?}");
    assert!(got[2].starts_with("+ proto=1"), "{got:?}");
}

#[test]
fn memory_commands_and_their_errors() {
    let mut b = Bench::new();
    b.demo();
    let e = b.cmd("e 4 11");
    assert_eq!(
        e[0],
        ": 000004 700005 240015 200015 640100 600012 760400 420016 240015"
    );
    assert_eq!(e[1], ": 000014 600006 000000 000001");
    assert_eq!(e[2], "+ 11");
    assert_eq!(b.err("e 10000"), "?addr", "outside the 4K memory");
    assert_eq!(b.err("e 200000"), "?addr");
    assert_eq!(b.err("e 7777 2"), "?addr", "runs off the end");
    assert_eq!(b.err("e 0 4097"), "?limit");
    assert_eq!(b.err("e 0 0"), "?limit");
    assert_eq!(b.err("e"), "?arg");
    assert_eq!(b.err("d 100 99"), "?arg", "octal only");
    assert_eq!(b.err("d 100 1000000"), "?arg", "18 bits");
    assert_eq!(b.err("d 100"), "?arg");
    assert_eq!(b.ok("d 1000 123456 654321"), "+ 2");
    assert_eq!(b.cmd("e 1000 2")[0], ": 001000 123456 654321");
    assert_eq!(b.ok("z 1000 1"), "+ 1");
    assert_eq!(b.cmd("e 1000 2")[0], ": 001000 000000 654321");
    assert_eq!(b.err("z 1000"), "?arg");
    // d and z are refused while running; poke is not.
    b.ok("d 4 600004");
    b.ok("go");
    assert_eq!(b.err("d 1000 1"), "?state");
    assert_eq!(b.err("z"), "?state");
    assert_eq!(b.ok("poke 1000 7"), "+ 1");
    b.ok("stop");
    assert_eq!(b.cmd("e 1000")[0], ": 001000 000007");
    assert_eq!(b.ok("z"), "+ 4096");
    assert_eq!(b.cmd("e 1000")[0], ": 001000 000000");
}

#[test]
fn registers_and_the_status_line() {
    let mut b = Bench::new();
    b.demo();
    assert_eq!(b.ok("w ac 777777"), "+ ac=777777");
    assert_eq!(b.ok("r ac io"), "+ ac=777777 io=000000");
    assert_eq!(b.ok("w io 5"), "+ io=000005");
    assert_eq!(b.ok("w ov 1"), "+ ov=1");
    assert_eq!(b.ok("w pf 41"), "+ pf=41");
    assert_eq!(b.err("w pf 100"), "?arg");
    assert_eq!(b.err("w ta 100"), "?reg", "switches: use sw");
    assert_eq!(b.err("w nosuch 1"), "?reg");
    assert_eq!(b.err("w run 1"), "?reg", "status: not writable");
    // mb, ma, ir, epc and ema are writable (spec §3), to their widths; ma, epc and ema must
    // leave the address in this 4K machine's core.
    for (line, answer) in [
        ("w mb 777777", "+ mb=777777"),
        ("w ma 7654", "+ ma=007654"),
        ("w ir 37", "+ ir=37"),
        ("w epc 0", "+ epc=00"),
        ("w ema 0", "+ ema=00"),
        ("w ir 40", "- ?arg"),
        ("w mb 1000000", "- ?arg"),
        ("w ema 20", "- ?arg"),
        ("w ma 10000", "- ?addr"),
        ("w epc 1", "- ?addr"),
    ] {
        let got = b.cmd(line).pop().unwrap();
        assert!(got.starts_with(answer), "{line}: {got}");
    }
    assert_eq!(b.kv("r mb ma ir")["ma"], "007654");
    assert_eq!(b.err("r nosuch"), "?file", "not a register: a tape name");
    assert_eq!(b.err("reg nosuch"), "?reg");
    let all = b.kv("reg");
    assert_eq!(all.len(), parse::REGISTERS.len());
    // w pc puts the machine at a fetch boundary: one memory cycle into `law 5`'s successor
    // (dac, which has an execute cycle) leaves cyc=1, and w pc clears it.
    b.ok("w pc 5");
    assert_eq!(b.kv("cycle")["cyc"], "1");
    assert_eq!(b.kv("s")["stop"], "cycle");
    b.ok("w pc 4");
    let s = b.kv("s");
    assert_eq!(
        (s["cyc"].as_str(), s["pc"].as_str(), s["at"].as_str()),
        ("0", "000004", "700005")
    );
    for k in [
        "run", "df1", "ma", "mb", "ir", "ov", "pf", "ss", "stop", "ac", "io",
    ] {
        assert!(s.contains_key(k), "{k}");
    }
    let full = b.kv("s full");
    for k in parse::REGISTERS {
        assert!(full.contains_key(k), "{k}");
    }
    assert_eq!(b.err("s half"), "?arg");
    b.ok("go");
    assert_eq!(b.err("w ac 1"), "?state");
}

#[test]
fn bounded_runs_stop_with_their_reason() {
    let mut b = Bench::new();
    b.demo();
    let s = b.kv("step");
    assert_eq!(
        (
            s["pc"].as_str(),
            s["ac"].as_str(),
            s["stop"].as_str(),
            s["run"].as_str()
        ),
        ("000005", "000005", "step", "0")
    );
    assert_eq!(b.kv("step 3")["pc"], "000010");
    let s = b.kv("run 100");
    assert_eq!(
        (s["stop"].as_str(), s["pc"].as_str()),
        ("halt", "000012"),
        "PC after the hlt"
    );
    b.ok("d 4 0");
    b.ok("w pc 4");
    assert_eq!(b.kv("run 10")["stop"], "illegal");
    b.ok("d 4 600004");
    b.ok("w pc 4");
    let s = b.kv("run 50");
    assert_eq!(
        (s["stop"].as_str(), s["run"].as_str()),
        ("step", "0"),
        "the budget"
    );
    b.demo();
    b.ok("d 15 0");
    assert_eq!(b.kv("run 100 if M[15]=000004")["stop"], "cond");
    assert_eq!(b.cmd("e 15")[0], ": 000015 000004");
    assert_eq!(
        b.kv("run 100 if ac != 3")["stop"],
        "cond",
        "spaces in a condition"
    );
    assert_eq!(b.err("run 100 if M[15]"), "?arg");
    assert_eq!(b.err("run 100 if M[200000]=1"), "?addr");
    assert_eq!(b.err("run"), "?arg");
    assert_eq!(b.err("step x"), "?arg");
    assert_eq!(b.err("cycle 100001"), "?limit");
}

#[test]
fn trace_lines() {
    let mut b = Bench::new();
    b.demo();
    let t = b.cmd("trace 3");
    assert_eq!(
        t[0],
        ": pc=000004 inst=700005 ac=000005 io=000000 ma=000004 mb=700005 ov=0"
    );
    assert!(t[1].starts_with(": pc=000005 inst=240015 "));
    assert!(t[3].starts_with("+ ") && t[3].contains("stop=step"));
    let t = b.cmd("trace 2 changed");
    assert_eq!(t.len(), 3);
    assert!(t[..2].iter().all(|l| !l.contains("io=")), "{t:?}");
    assert!(t[0].starts_with(": pc=000007 inst=640100"));
    assert_eq!(b.err("trace"), "?arg");
    assert_eq!(b.err("trace 100001"), "?limit");
}

#[test]
fn breakpoints_conditions_until_next_back() {
    let mut b = Bench::new();
    b.demo();
    assert_eq!(b.ok("b 12"), "+ 1");
    let s = b.kv("run 100");
    assert_eq!(
        (s["stop"].as_str(), s["pc"].as_str(), s["at"].as_str()),
        ("break", "000012", "420016")
    );
    assert_eq!(b.cmd("b"), vec![": 000012", "+ 1"]);
    // Set going from the breakpoint, the machine runs the instruction there (at full speed
    // with `go`, the machine's own breakpoint test).
    b.ok("go");
    assert_eq!(b.kv("wait")["pc"], "000012", "the next time round");
    assert_eq!(b.ok("ub 12"), "+ 1");
    assert_eq!(b.ok("ub 12"), "+ 0");
    b.demo();
    b.ok("d 15 0");
    b.ok("b 12 if M[15]=000002");
    assert_eq!(b.cmd("b"), vec![": 000012 if M[000015]=000002", "+ 1"]);
    assert_eq!(b.kv("run 200")["stop"], "break");
    assert_eq!(b.cmd("e 15")[0], ": 000015 000002");
    assert_eq!(b.ok("ub *"), "+ 1");
    assert_eq!(b.err("b 12 when ac=1"), "?arg");
    assert_eq!(b.err("ub"), "?arg");
    // until: a temporary breakpoint, gone afterwards.
    b.demo();
    let s = b.kv("until 12");
    assert_eq!((s["stop"].as_str(), s["pc"].as_str()), ("break", "000012"));
    assert_eq!(b.ok("b"), "+ 0");
    assert_eq!(b.kv("until 11 2")["stop"], "step", "its budget");
    assert_eq!(b.ok("b"), "+ 0");
    // next over a jsp; back lists the transfer; a breakpoint at the entry leaves AC alone.
    b.ok(SUB);
    b.ok("w pc 20");
    assert_eq!(b.kv("next")["pc"], "000021");
    let back = b.cmd("back");
    assert_eq!(back[0], ": 0 to=000024 from=000020 ret=000021");
    assert_eq!(b.cmd("back 0"), vec!["+ 0"]);
    b.ok("d 26 600000");
    b.ok("w pc 20");
    b.ok("b 24");
    let s = b.kv("run 100");
    assert_eq!((s["pc"].as_str(), s["ac"].as_str()), ("000024", "000021"));
    b.ok("ub *");
    let s = b.kv("run 100");
    assert_eq!((s["stop"].as_str(), s["pc"].as_str()), ("halt", "000022"));
    // next over an instruction that is no call is a step.
    b.demo();
    assert_eq!(b.kv("next")["pc"], "000005");
}

#[test]
fn watchpoints_and_their_events() {
    let mut b = Bench::new();
    b.demo();
    b.ok("d 15 0");
    b.ok("wp 15 w");
    b.ok("events all");
    let l = b.cmd("run 100");
    assert_eq!(l[0], "!wp addr=000015 old=000000 new=000005 pc=000005");
    assert!(l[1].contains("stop=watch"), "{l:?}");
    assert!(
        !l.iter().any(|x| x.starts_with("!stop")),
        "no !stop for its own command"
    );
    // A read watch fires on any reference to its word (spec §5: every memory cycle reads
    // its word, read-restore): `lac 15` at 6, then `dac 15` at 13, whose execute cycle
    // reads and rewrites it.
    b.ok("uwp *");
    b.ok("wp 15 r");
    let l = b.cmd("run 100");
    assert!(
        l[0].starts_with("!wp addr=000015 ") && l[0].ends_with("pc=000006"),
        "{l:?}"
    );
    let l = b.cmd("run 100");
    assert!(
        l[0].starts_with("!wp addr=000015 ") && l[0].ends_with("pc=000013"),
        "{l:?}"
    );
    // The fetch is a reference too: a read watch on the word of `lac 15` fires when it is
    // fetched, though the instruction's last memory cycle is at 15.
    b.ok("uwp *");
    b.demo();
    b.ok("wp 6 r");
    let l = b.cmd("run 100");
    assert!(
        l[0].starts_with("!wp addr=000006 ") && l[0].ends_with("pc=000006"),
        "{l:?}"
    );
    b.ok("uwp *");
    b.ok("wp 15 r");
    assert_eq!(b.ok("uwp 15"), "+ 1");
    assert_eq!(b.ok("uwp *"), "+ 0");
    assert_eq!(b.err("wp 15 x"), "?arg");
    assert_eq!(b.err("wp 200000"), "?addr");
    // A write watch during a plain go stops it too, and the others are told.
    b.demo();
    b.ok("wp 15");
    b.ok("go");
    let other = b.cmd_on(2, "wait 1000");
    assert!(other[0].contains("stop=watch"), "{other:?}");
    let mine = b.take(1);
    assert!(
        mine.iter().any(|l| l.starts_with("!wp"))
            && mine.iter().any(|l| l.starts_with("!stop reason=watch")),
        "{mine:?}"
    );
}

#[test]
fn go_wait_stop_and_the_stop_event() {
    let mut b = Bench::new();
    b.demo();
    assert_eq!(b.ok("go"), "+ run=1");
    let s = b.kv("wait 5000");
    assert_eq!(s["stop"], "halt");
    // The other connection gets !stop; the one whose wait it answered does not.
    assert!(b
        .take(2)
        .iter()
        .any(|l| l.starts_with("!stop reason=halt ") && l.contains(" at=")));
    assert_eq!(b.kv("wait 100")["stop"], "halt", "already stopped");
    b.ok("d 4 600004");
    b.ok("w pc 4");
    b.ok("go 4");
    assert_eq!(b.err("wait 20"), "?timeout");
    assert_eq!(b.err("wait x"), "?arg");
    let s = b.kv("stop");
    assert_eq!((s["stop"].as_str(), s["run"].as_str()), ("stop", "0"));
    assert!(b.take(2).iter().any(|l| l.starts_with("!stop reason=stop")));
    // events none: nothing.
    b.cmd_on(2, "events none");
    b.demo();
    b.ok("go");
    b.kv("wait");
    assert!(b.take(2).is_empty());
    // A second command while one is pending is refused; the first stays pending.
    b.ok("d 4 600004");
    b.ok("w pc 4");
    b.send(1, "run 100000000");
    b.send(1, "s");
    assert_eq!(b.take(1), vec!["- ?state a command is pending"]);
    // Last write wins: the other connection stops the machine; the run is answered.
    let s = b.cmd_on(2, "stop");
    assert!(s[0].contains("stop=stop"));
    let mine = b.take(1);
    assert!(
        mine[0].starts_with("+ run=0") && mine[0].contains("stop=stop"),
        "{mine:?}"
    );
    assert_eq!(b.err("go 200000"), "?addr");
}

#[test]
fn a_connection_that_goes_away_leaves_the_machine_standing() {
    let mut b = Bench::new();
    b.ok("d 4 600004");
    b.ok("w pc 4");
    b.send(1, "until 100");
    b.send(1, "claim");
    b.tick();
    assert!(b.rc.machine().running());
    b.d.disconnect(&mut b.rc, 1);
    assert!(!b.rc.machine().running());
    // Its temporary breakpoint and its pending command went with it; the claim is free.
    assert_eq!(b.cmd_on(2, "b"), vec!["+ 0"]);
    assert_eq!(b.cmd_on(2, "d 100 1"), vec!["+ 1"]);
    assert_eq!(b.d.connections(), 1);
}

#[test]
fn claim_excludes_the_others_writes() {
    let mut b = Bench::new();
    b.demo();
    assert_eq!(b.ok("claim"), "+ claim=1");
    assert_eq!(
        b.cmd_on(2, "d 100 1"),
        vec!["- ?busy another connection holds the claim"]
    );
    assert_eq!(
        b.cmd_on(2, "claim").last().unwrap(),
        "- ?busy another connection holds the claim"
    );
    assert!(
        b.cmd_on(2, "s")[0].starts_with("+ run=0"),
        "reads stay allowed"
    );
    assert!(b.cmd_on(2, "e 4")[1].starts_with("+ 1"));
    assert!(b.cmd_on(2, "pen click 1 1")[0].starts_with("- ?busy"));
    assert_eq!(b.ok("release"), "+ claim=0");
    assert_eq!(b.cmd_on(2, "d 100 1"), vec!["+ 1"]);
}

#[test]
fn the_panel_override_switches_and_keys() {
    let mut b = Bench::new();
    assert_eq!(b.ok("panel"), "+ panel=off");
    assert_eq!(b.err("sw ta 100"), "?state");
    assert_eq!(b.ok("sw ta"), "+ ta=000000", "reading needs no override");
    assert_eq!(b.ok("panel on"), "+ panel=on");
    assert_eq!(b.ok("sw ta 100"), "+ ta=000100");
    assert_eq!(b.kv("r ta")["ta"], "000100");
    assert_eq!(b.ok("sw tw 123456"), "+ tw=123456");
    assert_eq!(b.ok("sw ss 40"), "+ ss=40");
    assert_eq!(b.ok("sw sinst 1"), "+ sinst=1");
    assert_eq!(b.ok("sw sinst 0"), "+ sinst=0");
    assert_eq!(b.err("sw ss 100"), "?arg");
    assert_eq!(b.err("sw nosuch 1"), "?arg");
    assert!(b.ok("sw").contains("power=1"));
    // lat and szs 1 see the switches.
    b.ok("d 100 762000 640010 760400 760400");
    b.ok("w pc 100");
    b.ok("w ac 0");
    let s = b.kv("run 10");
    assert_eq!(
        (
            s["stop"].as_str(),
            s["ac"].as_str(),
            s["pc"].as_str(),
            s["ss"].as_str()
        ),
        ("halt", "123456", "000103", "40")
    );
    // SINGLE INST held: each CONTINUE runs one instruction and stops, reason `manual`
    // (spec §6); SINGLE STEP: one memory cycle (`lac 103`'s fetch, then its execute).
    b.ok("sw sinst 1");
    b.ok("d 100 762000 200103 760400 000005");
    b.ok("w pc 100");
    let s = b.kv("run 10");
    assert_eq!((s["stop"].as_str(), s["pc"].as_str()), ("manual", "000101"));
    b.ok("sw sinst 0");
    b.ok("sw sstep 1");
    let s = b.kv("run 10");
    assert_eq!((s["stop"].as_str(), s["pc"].as_str()), ("manual", "000102"));
    assert_eq!(
        s["cyc"], "1",
        "stopped after the fetch, the execute cycle next"
    );
    let s = b.kv("run 10");
    assert_eq!((s["stop"].as_str(), s["ac"].as_str()), ("manual", "000005"));
    assert_eq!(s["cyc"], "0");
    b.ok("sw sstep 0");
    b.ok("sw sinst 1");
    assert_eq!(b.ok("panel off"), "+ panel=off");
    assert_eq!(
        b.ok("sw sinst"),
        "+ sinst=0",
        "disarming drops what only the override held"
    );
    assert_eq!(b.ok("panel off force"), "+ panel=off");
    // The keys, each one clean edge; events=all connections see them.
    b.cmd_on(2, "events all");
    b.ok("d 100 760400");
    assert_eq!(b.ok("key exam"), "+ key=exam");
    assert_eq!(b.kv("r ac")["ac"], "760400", "EXAMINE at TA=100");
    assert_eq!(b.ok("key start"), "+ key=start");
    assert_eq!(b.kv("wait")["stop"], "halt");
    assert!(b.take(2).iter().any(|l| l == "!panel key=start"));
    assert_eq!(b.ok("key cont up"), "+ key=cont up");
    assert_eq!(b.ok("key stop"), "+ key=stop");
    b.ok("panel on");
    b.ok("sw tw 7");
    assert_eq!(b.ok("key dep"), "+ key=dep");
    assert_eq!(b.cmd("e 100")[0], ": 000100 000007");
    assert_eq!(b.ok("key feed"), "+ key=feed");
    assert_eq!(b.err("key power"), "?arg");
    assert_eq!(b.err("panel sideways"), "?arg");
}

#[test]
fn tapes_stay_in_the_tape_directory() {
    let mut b = Bench::new();
    for bad in [
        "punch /etc/passwd",
        "reader /etc/passwd",
        "load /etc/passwd",
        "p ../escape.rim",
        "reader tapes/../../escape",
        "l /x",
    ] {
        let l = b.cmd(bad);
        assert!(
            l[0].starts_with("- ?file outside the tape directory: "),
            "{bad}: {l:?}"
        );
    }
    assert!(b.cmd("reader no_such_tape.rim")[0].starts_with("- ?file cannot open no_such_tape.rim"));
    assert_eq!(b.ok("load demo.rim"), "+ loaded start=000004");
    assert_eq!(b.cmd("e 4 2")[0], ": 000004 700005 760400");
    assert_eq!(b.ok("reader demo.rim"), "+ reader demo.rim");
    assert_eq!(b.ok("r"), "+ reader", "bare r unmounts");
    assert_eq!(b.ok("readin"), "+ run=1");
    b.ok("stop");
    // READ IN that cannot go on stops the machine with the reason `readin` (spec §6).
    assert_eq!(b.ok("reader bad.rim"), "+ reader bad.rim");
    b.ok("readin");
    assert_eq!(b.kv("wait 1000")["stop"], "readin");
    assert_eq!(b.err("load"), "?arg");
    // The punch: a file under the tape directory, then bare `punch` takes it off.
    assert_eq!(b.ok("punch out.rim"), "+ punch out.rim");
    assert_eq!(b.host.punch.as_deref(), Some("out.rim"));
    assert_eq!(b.ok("p tapes/two.rim"), "+ punch tapes/two.rim");
    assert_eq!(b.host.punch.as_deref(), Some("tapes/two.rim"));
    assert_eq!(b.err("punch nodir/x.rim"), "?file");
    assert_eq!(b.ok("punch"), "+ punch");
    assert_eq!(b.host.punch, None);
    assert_eq!(b.ok("dpy 127.0.0.1 4000"), "+ display 127.0.0.1 4000");
    assert_eq!(b.host.dialled, vec![("127.0.0.1".to_string(), 4000)]);
    assert_eq!(b.err("dpy 127.0.0.1 70000"), "?arg");
    // The lenient device verbs: on/off and 1/16 change the machine, anything else reports.
    assert_eq!(b.ok("muldiv ?"), "+ muldiv off");
    assert_eq!(b.ok("muldiv on"), "+ muldiv on");
    assert!(b.rc.machine().config().mul_div);
    assert_eq!(b.ok("muldiv"), "+ muldiv on");
    assert_eq!(b.ok("muldiv off"), "+ muldiv off");
    assert!(!b.rc.machine().config().mul_div);
    assert_eq!(b.ok("audio"), "+ audio off");
    assert_eq!(b.ok("sbs 16"), "+ sbs 16");
    assert!(b.rc.machine().config().sbs16);
    assert_eq!(b.ok("sbs 5"), "+ sbs 16", "lenient: reports");
    assert_eq!(b.ok("sbs 1"), "+ sbs 1");
    assert!(!b.rc.machine().config().sbs16);
}

#[test]
fn the_light_pen_click() {
    let mut b = Bench::new();
    assert_eq!(b.ok("pen click 512 300"), "+ pen click x=512 y=300 ms=100");
    assert_eq!(b.rc.machine().light_pen(), Some((0, -212)));
    for bad in [
        "pen click 1024 300",
        "pen click 512 -1",
        "pen click 512 300 0",
        "pen click 512 300 20000",
        "pen click 512",
        "pen click 512 300 100 7",
    ] {
        assert_eq!(b.err(bad), "?arg", "{bad}");
    }
    assert_eq!(b.ok("pen 99"), "+ pen 16");
    assert_eq!(b.ok("pen 0"), "+ pen 1");
    assert_eq!(b.ok("pen"), "+ pen 1");
    assert_eq!(b.ok("pen click 100 100 1"), "+ pen click x=100 y=100 ms=1");
    // The click is lifted when its time is up (emulated time; the machine stands meanwhile).
    b.tick();
    b.tick();
    assert_eq!(b.rc.machine().light_pen(), None);
    // With the host's wall clock given, the click lasts that long in real time (spec §8),
    // however much or little emulated time passes meanwhile.
    b.d.set_wall_clock(1_000);
    b.ok("pen click 512 300 250");
    for _ in 0..300 {
        b.tick();
    }
    assert!(
        b.rc.machine().light_pen().is_some(),
        "still down at 1000 ms of the wall clock, after 300 ms of emulated time"
    );
    b.d.set_wall_clock(1_249);
    b.tick();
    assert!(
        b.rc.machine().light_pen().is_some(),
        "still down at 1249 ms"
    );
    b.d.set_wall_clock(1_250);
    b.tick();
    assert_eq!(b.rc.machine().light_pen(), None, "up at 1250 ms");
}

#[test]
fn a_stop_from_the_console_answers_the_clients() {
    // The window's STOP key stops the machine under a client's `run`: settle() between
    // steps answers it, and the others get !stop.
    let mut b = Bench::new();
    b.ok("d 4 600004");
    b.ok("w pc 4");
    b.send(1, "run 100000000");
    b.tick();
    b.rc.stop();
    b.d.settle(&mut b.rc);
    b.collect();
    let mine = b.take(1);
    assert!(
        mine[0].starts_with("+ run=0") && mine[0].ends_with("stop=stop"),
        "{mine:?}"
    );
    assert!(b.take(2)[0].starts_with("!stop reason=stop "));
    b.d.settle(&mut b.rc);
    b.collect();
    assert!(b.take(2).is_empty(), "once");
}
