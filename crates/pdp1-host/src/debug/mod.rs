//! The PiDP-1's debug protocol (issue 30): the language of port 1040 as aap's
//! `DEBUG_PROTOCOL_SPEC.md` (version 1) defines it, written from the spec, as pure code over
//! the run controller. Lines go in ([`Debugger::input`]), replies and events come out
//! ([`Debugger::take_output`]), and the machine goes forward only in [`Debugger::tick`],
//! between the commands, as the console's actions do — so a socket server, a test, or later
//! the web page drive it the same way. No sockets, threads or clocks here: a `wait`'s timeout
//! and a light-pen click's length are emulated time, which the host paces to the wall clock.
//!
//! How the machine runs under the protocol: the bounded commands (`step`, `run`, `until`,
//! `next`, `trace`) and a `go` with conditional breakpoints or watchpoints go one
//! instruction at a time, checking breakpoints before each fetch (so PC points at the
//! breakpoint), watchpoints, conditions, the budget and the call ring after each; a plain
//! `go` runs at full speed through [`RunControl::advance`] with the unconditional breakpoints
//! as the machine's own.

pub mod parse;
pub mod wire;

use crate::run::{Advance, RunControl, Stop};
pub use parse::Framed;
#[cfg(test)]
use parse::Framer;
use parse::{Cond, Refusal, Reply};
use pdp1_core::{Machine, StopReason, Word};
use std::collections::{BTreeMap, VecDeque};

/// A connection, as the host numbers them.
pub type ConnId = u64;

/// Connections served at once (spec §4); the next is answered [`BUSY`] and closed.
pub const MAX_CONNECTIONS: usize = 8;
/// The line a connection over the limit gets before it is closed.
pub const BUSY: &str = "- ?busy too many connections";
/// `e`'s largest count (spec §5).
const MAX_EXAMINE: u64 = 4096;
/// The call ring's length (spec §5, `back`).
const RING: usize = 64;
/// `trace`'s largest count: its lines are the reply, held until the end.
const MAX_TRACE: u64 = 100_000;
/// `cycle`'s largest count (memory cycles done at once).
const MAX_CYCLES: u64 = 100_000;

/// Which events a connection is sent (spec §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Events {
    None,
    Stop,
    All,
}

/// A command answered later (spec §8: "pending").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// The connection owns the run goal.
    Goal,
    /// `wait`, until a stop or this emulated time.
    Wait(Option<u64>),
}

#[derive(Debug)]
struct Conn {
    events: Events,
    pending: Option<Pending>,
}

/// A bounded run (spec §5, Run control) and who waits for it.
#[derive(Debug)]
struct Goal {
    owner: ConnId,
    /// Instructions left before `stop=step` (`None`: no budget).
    left: Option<u64>,
    /// `run N if COND`.
    cond: Option<Cond>,
    /// `trace N [changed]`: the lines so far.
    trace: Option<(bool, Vec<String>)>,
}

#[derive(Clone, Debug)]
struct Breakpoint {
    addr: u32,
    cond: Option<Cond>,
    /// Temporary (`until`, `next`): removed when its connection closes or its goal ends.
    owner: Option<ConnId>,
}

#[derive(Clone, Copy, Debug)]
struct Watchpoint {
    addr: u32,
    read: bool,
    write: bool,
}

/// One `jsp`/`jda`/`cal` transfer (spec §5, `back`).
#[derive(Clone, Copy, Debug)]
struct Call {
    to: u32,
    from: u32,
    ret: u32,
}

/// The switch override (spec §5, Panel): armed or not, and the switches only it has.
#[derive(Debug, Default)]
struct Panel {
    armed: bool,
    sstep: bool,
    sinst: bool,
}

/// What the protocol needs from its host: the tape directory's files (names already
/// confined to it) and a display to dial (`dpy HOST PORT`).
pub trait Host {
    /// The frames of tape `name`, relative to the tape directory.
    fn read_tape(&mut self, name: &str) -> Result<Vec<u8>, String>;
    /// Send the display's points to a display listening at `host`:`port`.
    fn dial_display(&mut self, host: &str, port: u16) -> Result<(), String>;
}

/// The protocol's state over one machine: connections, breakpoints, watchpoints, the call
/// ring, the run goal, the override; the replies and events waiting to be sent.
pub struct Debugger {
    conns: BTreeMap<ConnId, Conn>,
    claim: Option<ConnId>,
    bps: Vec<Breakpoint>,
    wps: Vec<Watchpoint>,
    ring: VecDeque<Call>,
    last_stop: &'static str,
    goal: Option<Goal>,
    panel: Panel,
    /// When the light pen's click ends (emulated ns).
    pen_up_at: Option<u64>,
    /// The machine was running at the end of the last tick (a stop is reported once).
    was_running: bool,
    /// The next instruction is not checked against the breakpoints: it is the one the
    /// machine was set going from (continuing from a breakpoint runs it).
    resuming: bool,
    out: Vec<(ConnId, String)>,
    closing: Vec<ConnId>,
}

impl Default for Debugger {
    fn default() -> Self {
        Debugger::new()
    }
}

fn ok(s: impl Into<String>) -> String {
    let s = s.into();
    if s.is_empty() {
        "+".into()
    } else {
        format!("+ {s}")
    }
}

impl Debugger {
    pub fn new() -> Debugger {
        Debugger {
            conns: BTreeMap::new(),
            claim: None,
            bps: Vec::new(),
            wps: Vec::new(),
            ring: VecDeque::new(),
            last_stop: "none",
            goal: None,
            panel: Panel::default(),
            pen_up_at: None,
            was_running: false,
            resuming: false,
            out: Vec::new(),
            closing: Vec::new(),
        }
    }

    /// A new connection (the host refuses the ninth with [`BUSY`] before calling this).
    pub fn connect(&mut self, id: ConnId) {
        self.conns.insert(
            id,
            Conn {
                events: Events::Stop,
                pending: None,
            },
        );
    }

    /// A bounded run is under way (the host should not sleep).
    pub fn busy(&self) -> bool {
        self.goal.is_some()
    }

    pub fn connections(&self) -> usize {
        self.conns.len()
    }

    /// A connection closed (or dropped): its pending command is cancelled — a bounded run it
    /// was waiting for stops the machine, so a client that dies in the middle of a `run`
    /// leaves it standing —, its temporary breakpoints and its claim go (spec §4).
    pub fn disconnect(&mut self, rc: &mut RunControl, id: ConnId) {
        self.conns.remove(&id);
        if self.claim == Some(id) {
            self.claim = None;
        }
        if self.goal.as_ref().is_some_and(|g| g.owner == id) {
            self.goal = None;
            if rc.machine().running() {
                rc.stop();
            }
            self.last_stop = "stop";
            self.was_running = false;
        }
        self.bps.retain(|b| b.owner != Some(id));
        self.sync_breakpoints(rc);
        self.out.retain(|(c, _)| *c != id);
    }

    /// The lines to send, each to its connection, in order.
    pub fn take_output(&mut self) -> Vec<(ConnId, String)> {
        std::mem::take(&mut self.out)
    }

    /// Connections to close once their output is sent (`quit`).
    pub fn take_closing(&mut self) -> Vec<ConnId> {
        std::mem::take(&mut self.closing)
    }

    fn send(&mut self, id: ConnId, line: String) {
        self.out.push((id, line));
    }

    /// One framed piece of input from connection `id`.
    pub fn input(&mut self, rc: &mut RunControl, host: &mut dyn Host, id: ConnId, f: Framed) {
        match f {
            Framed::TooLong => self.send(id, "- ?arg line too long".into()),
            Framed::Line(line) => self.command(rc, host, id, &line),
        }
    }

    /// One command line from connection `id`; its reply (or none yet, for a pending command)
    /// goes to the output.
    pub fn command(&mut self, rc: &mut RunControl, host: &mut dyn Host, id: ConnId, line: &str) {
        if !self.conns.contains_key(&id) {
            self.connect(id);
        }
        let words: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
        let Some(first) = words.first() else {
            return;
        };
        let verb = first.to_ascii_lowercase();
        let args = &words[1..];
        if self.conns[&id].pending.is_some() {
            // (One outstanding command per connection, spec §1: a client that sends a second
            // is told so, and the first stays pending.)
            self.send(id, "- ?state a command is pending".into());
            return;
        }
        if self.claim.is_some_and(|c| c != id) && writes(&verb, args) {
            self.send(id, "- ?busy another connection holds the claim".into());
            return;
        }
        match self.execute(rc, host, id, &verb, args) {
            Ok(Some(reply)) => self.send(id, reply),
            Ok(None) => {}
            Err(Refusal(e)) => self.send(id, format!("- {e}")),
        }
    }

    /// Runs the machine towards emulated time `until`: the run goal one instruction at a time,
    /// or a plain `go` through the controller's step; then a stop is reported, waits that
    /// expired answered, and a light-pen click that is over lifted.
    pub fn tick(&mut self, rc: &mut RunControl, until: u64) -> Advance {
        let now = rc.machine().time_ns();
        if self.pen_up_at.is_some_and(|t| now >= t) {
            self.pen_up_at = None;
            rc.set_light_pen(None);
        }
        // (Set going from a breakpoint, the first instruction goes here too: the machine's
        // own breakpoint test would stop it again where it stands.)
        let stepwise = self.goal.is_some()
            || (rc.machine().running()
                && (self.resuming
                    || !self.wps.is_empty()
                    || self.bps.iter().any(|b| b.cond.is_some())));
        let a = if stepwise {
            self.run_stepwise(rc, until)
        } else {
            let mut a = rc.advance(until);
            if let Some(stop) = a.stop.take() {
                let reason = match stop {
                    Stop::Machine(r) => classify(r),
                    Stop::Watch(_) => "watch",
                };
                if let Stop::Machine(StopReason::Breakpoint(addr)) = stop {
                    self.event_all(format!("!bp addr={addr:06o}"));
                }
                self.stopped(rc, reason, None);
                a.stop = Some(stop);
            } else if self.was_running && !rc.machine().running() {
                self.stopped(rc, "stop", None);
            }
            a
        };
        self.was_running = rc.machine().running();
        let now = rc.machine().time_ns();
        let expired: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| matches!(c.pending, Some(Pending::Wait(Some(t))) if now >= t))
            .map(|(id, _)| *id)
            .collect();
        for id in expired {
            self.conns.get_mut(&id).expect("listed").pending = None;
            self.send(id, "- ?timeout the machine is still running".into());
        }
        a
    }

    /// Between steps, where the host does not run the machine (the window while it stands):
    /// a stop that came from elsewhere — the window's STOP key — answers the pending
    /// commands and is sent as `!stop`.
    pub fn settle(&mut self, rc: &mut RunControl) {
        if self.was_running && !rc.machine().running() {
            self.stopped(rc, "stop", None);
        }
    }

    /// The goal (or a `go` that needs its checks) one instruction at a time until `until`.
    fn run_stepwise(&mut self, rc: &mut RunControl, until: u64) -> Advance {
        if !rc.machine().running() {
            rc.cont();
        }
        let mut reason = None;
        while rc.machine().time_ns() < until {
            if let Some(g) = &self.goal {
                if g.left == Some(0) {
                    reason = Some("step");
                    break;
                }
            }
            let m = rc.machine();
            let pc = m.pc();
            if !self.resuming && m.next_cycle() == "fetch" {
                if let Some(bp) = self
                    .bps
                    .iter()
                    .find(|b| b.addr == pc && b.cond.as_ref().is_none_or(|c| c.holds(m)))
                {
                    self.event_all(format!("!bp addr={:06o}", bp.addr));
                    reason = Some("break");
                    break;
                }
            }
            self.resuming = false;
            let before: Vec<u32> = self
                .wps
                .iter()
                .map(|w| m.read(w.addr).map(|v| v.bits()).unwrap_or(0))
                .collect();
            let regs = trace_values(m);
            let word = m.read(pc).unwrap_or(Word::ZERO).bits();
            let n0 = m.instructions();
            let r = rc.machine_mut().step_instruction();
            let m = rc.machine();
            let retired = m.instructions() > n0;
            if retired {
                // jsp (62), cal (16), jda (17): the call ring.
                if matches!(word >> 12, 0o62 | 0o63 | 0o16 | 0o17) {
                    if self.ring.len() == RING {
                        self.ring.pop_back();
                    }
                    self.ring.push_front(Call {
                        to: m.pc(),
                        from: pc,
                        ret: (pc + 1) & 0o177_777,
                    });
                }
                if let Some((changed, lines)) = self.goal.as_mut().and_then(|g| g.trace.as_mut()) {
                    lines.push(trace_line(pc, word, &regs, &trace_values(m), *changed));
                }
                if let Some(g) = self.goal.as_mut() {
                    if let Some(l) = g.left.as_mut() {
                        *l -= 1;
                    }
                }
            }
            let mut watched = None;
            for (w, old) in self.wps.iter().zip(&before) {
                let new = m.read(w.addr).map(|v| v.bits()).unwrap_or(0);
                // A write watch fires when the word changed (core is read-restore: every
                // reference writes; spec §5); a read watch when the instruction's operand
                // cycle was there.
                if (w.write && new != *old) || (w.read && retired && m.ma() == w.addr) {
                    watched = Some(format!(
                        "!wp addr={:06o} old={old:06o} new={new:06o} pc={pc:06o}",
                        w.addr
                    ));
                    break;
                }
            }
            if let Some(e) = watched {
                self.event_all(e);
                reason = Some("watch");
                break;
            }
            if r != StopReason::Stepped {
                reason = Some(classify(r));
                break;
            }
            if self
                .goal
                .as_ref()
                .and_then(|g| g.cond.as_ref())
                .is_some_and(|c| c.holds(m))
            {
                reason = Some("cond");
                break;
            }
        }
        let a = rc.drain();
        if let Some(reason) = reason {
            self.stopped(rc, reason, None);
        }
        a
    }

    /// The machine stopped for `reason`: the pending commands are answered with the status
    /// (the goal's trace lines first), and every other connection that asked for events gets
    /// `!stop`. `by`: the connection whose own command stopped it (it gets the reply).
    fn stopped(&mut self, rc: &mut RunControl, reason: &'static str, by: Option<ConnId>) {
        if rc.machine().running() {
            rc.stop();
        }
        self.was_running = false;
        self.last_stop = reason;
        let status = self.status(rc.machine(), false);
        // Who gets the status as the reply to their own command gets no `!stop` for it.
        let mut answered: Vec<ConnId> = by.into_iter().collect();
        if let Some(g) = self.goal.take() {
            answered.push(g.owner);
            for l in g.trace.map(|(_, l)| l).unwrap_or_default() {
                self.send(g.owner, format!(": {l}"));
            }
            if let Some(c) = self.conns.get_mut(&g.owner) {
                c.pending = None;
            }
            self.send(g.owner, ok(status.clone()));
            self.bps.retain(|b| b.owner != Some(g.owner));
            self.sync_breakpoints(rc);
        }
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            let c = self.conns.get_mut(&id).expect("listed");
            if matches!(c.pending, Some(Pending::Wait(_))) {
                c.pending = None;
                self.send(id, ok(status.clone()));
            } else if !answered.contains(&id) && c.events != Events::None {
                self.send(id, format!("!stop reason={reason} {status}"));
            }
        }
    }

    /// An event for the connections that asked for all of them (`!bp`, `!wp`, `!panel`).
    fn event_all(&mut self, e: String) {
        let ids: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.events == Events::All)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.send(id, e.clone());
        }
    }

    /// The status line (spec §3), `full` with the extra keys of `s full`.
    fn status(&self, m: &Machine, full: bool) -> String {
        let show = |k: &str| parse::show_register(k, parse::register(m, k).unwrap_or(0));
        let mut s: Vec<String> = STATUS.iter().map(|k| show(k)).collect();
        s.push(format!(
            "at={:06o}",
            m.read(m.pc()).map(|w| w.bits()).unwrap_or(0)
        ));
        s.push(format!("stop={}", self.last_stop));
        if full {
            // `s full`: every other register and status bit.
            s.extend(
                parse::REGISTERS
                    .iter()
                    .filter(|k| !STATUS.contains(k))
                    .map(|k| show(k)),
            );
        }
        s.join(" ")
    }

    /// The machine's own breakpoints are the unconditional ones (the full-speed `go`).
    fn sync_breakpoints(&self, rc: &mut RunControl) {
        let m = rc.machine_mut();
        for a in m.breakpoints() {
            m.remove_breakpoint(a);
        }
        for b in self.bps.iter().filter(|b| b.cond.is_none()) {
            m.add_breakpoint(b.addr);
        }
    }

    /// A run-control command replaces the goal before it (last write wins, spec §4): the
    /// earlier one's owner is answered with the status as it is.
    fn replace_goal(&mut self, rc: &mut RunControl, goal: Option<Goal>) {
        if let Some(old) = self.goal.take() {
            if let Some(c) = self.conns.get_mut(&old.owner) {
                c.pending = None;
            }
            let status = self.status(rc.machine(), false);
            self.send(old.owner, ok(status));
            self.bps.retain(|b| b.owner != Some(old.owner));
            self.sync_breakpoints(rc);
        }
        if let Some(g) = goal {
            self.conns.get_mut(&g.owner).expect("connected").pending = Some(Pending::Goal);
            if !rc.machine().running() {
                rc.cont();
            }
            self.was_running = true;
            self.resuming = true;
            self.goal = Some(g);
        }
    }

    fn execute(
        &mut self,
        rc: &mut RunControl,
        host: &mut dyn Host,
        id: ConnId,
        verb: &str,
        args: &[&str],
    ) -> Reply<Option<String>> {
        let running = rc.machine().running();
        let none = |args: &[&str]| -> Reply<()> {
            if let Some(a) = args.first() {
                return Err(Refusal::new("arg", format!("unexpected argument: {a}")));
            }
            Ok(())
        };
        let reply = match verb {
            "hello" => {
                none(args)?;
                let c = rc.machine().config();
                let mut opts = vec![];
                if c.mul_div {
                    opts.push("muldiv");
                }
                opts.push("extend");
                if c.sbs16 {
                    opts.push("sbs16");
                }
                format!(
                    "proto=1 machine=pdp1 maxmem={:o} opts={}",
                    c.memory_words,
                    opts.join(",")
                )
            }
            "help" => {
                for l in HELP {
                    self.send(id, format!(": {l}"));
                }
                String::new()
            }
            "events" => {
                let e = match args {
                    ["none"] => Events::None,
                    ["stop"] => Events::Stop,
                    ["all"] => Events::All,
                    [] => self.conns[&id].events,
                    _ => return Err(Refusal::new("arg", "events none|stop|all")),
                };
                self.conns.get_mut(&id).expect("connected").events = e;
                format!("events={}", format!("{e:?}").to_ascii_lowercase())
            }
            "claim" => {
                none(args)?;
                if self.claim.is_some_and(|c| c != id) {
                    return Err(Refusal::new("busy", "another connection holds the claim"));
                }
                self.claim = Some(id);
                "claim=1".into()
            }
            "release" => {
                none(args)?;
                if self.claim == Some(id) {
                    self.claim = None;
                }
                "claim=0".into()
            }
            "quit" => {
                self.closing.push(id);
                "bye".into()
            }
            "e" => {
                let m = rc.machine();
                let (a, n) = match args {
                    [a] => (parse::address(a, m)?, 1),
                    [a, n] => (parse::address(a, m)?, parse::decimal(n)?),
                    _ => return Err(Refusal::new("arg", "e <addr> [n]")),
                };
                if n == 0 || n > MAX_EXAMINE {
                    return Err(Refusal::new("limit", format!("count 1-{MAX_EXAMINE}")));
                }
                parse::check_address(a + n as u32 - 1, m)?;
                let words: Vec<u32> = (a..a + n as u32)
                    .map(|x| m.read(x).map(|w| w.bits()).unwrap_or(0))
                    .collect();
                let lines: Vec<String> = words
                    .chunks(8)
                    .enumerate()
                    .map(|(i, ch)| {
                        let ws: Vec<String> = ch.iter().map(|w| format!("{w:06o}")).collect();
                        format!(": {:06o} {}", a + 8 * i as u32, ws.join(" "))
                    })
                    .collect();
                for l in lines {
                    self.send(id, l);
                }
                n.to_string()
            }
            "d" | "poke" => {
                if verb == "d" && running {
                    return Err(Refusal::new(
                        "state",
                        "the machine is running (poke writes anyway)",
                    ));
                }
                let m = rc.machine();
                let [a, ws @ ..] = args else {
                    return Err(Refusal::new("arg", "d <addr> <word>..."));
                };
                if ws.is_empty() {
                    return Err(Refusal::new("arg", "d <addr> <word>..."));
                }
                let a = parse::address(a, m)?;
                parse::check_address(a + ws.len() as u32 - 1, m)?;
                let ws = ws
                    .iter()
                    .map(|w| parse::word(w))
                    .collect::<Reply<Vec<u32>>>()?;
                for (i, w) in ws.iter().enumerate() {
                    let _ = rc.machine_mut().write(a + i as u32, Word::new(*w));
                }
                ws.len().to_string()
            }
            "z" => {
                if running {
                    return Err(Refusal::new("state", "the machine is running"));
                }
                let m = rc.machine();
                let (a, n) = match args {
                    [] => (0, m.config().memory_words as u64),
                    [a, n] => (parse::address(a, m)?, parse::decimal(n)?),
                    _ => return Err(Refusal::new("arg", "z [<addr> <n>]")),
                };
                if n > 0 {
                    parse::check_address(a + n as u32 - 1, m)?;
                }
                for x in a..a + n as u32 {
                    let _ = rc.machine_mut().write(x, Word::ZERO);
                }
                n.to_string()
            }
            "reg" => self.read_registers(rc.machine(), args)?,
            "r" if args.first().is_some_and(|a| {
                parse::register(rc.machine(), &a.to_ascii_lowercase()).is_some()
            }) =>
            {
                self.read_registers(rc.machine(), args)?
            }
            "w" => {
                let [r, v] = args else {
                    return Err(Refusal::new("arg", "w <reg> <octal>"));
                };
                let r = r.to_ascii_lowercase();
                if running {
                    return Err(Refusal::new("state", "the machine is running"));
                }
                let v = parse::octal(v)?;
                let m = rc.machine_mut();
                match r.as_str() {
                    "pc" => {
                        // The next instruction is here: a fetch boundary (Machine::set_pc
                        // abandons a part-done instruction and an in-out wait).
                        parse::check_address(v, m)?;
                        m.set_pc(v);
                    }
                    "ac" => m.set_ac(Word::new(parse::word(&format!("{v:o}"))?)),
                    "io" => m.set_io(Word::new(parse::word(&format!("{v:o}"))?)),
                    "ov" if v <= 1 => m.set_ov(v == 1),
                    "pf" if v <= 0o77 => m.set_pf(v as u8),
                    "ov" | "pf" => {
                        return Err(Refusal::new("arg", format!("{v:o} too large for {r}")))
                    }
                    "ta" | "tw" | "ss" | "eta" => {
                        return Err(Refusal::new("reg", format!("{r} is a switch: use sw")))
                    }
                    other if parse::register(m, other).is_some() => {
                        return Err(Refusal::new("reg", format!("{other} is not writable here")))
                    }
                    other => return Err(Refusal::new("reg", format!("no register {other}"))),
                }
                parse::show_register(&r, parse::register(rc.machine(), &r).unwrap_or(0))
            }
            "s" => match args {
                [] => self.status(rc.machine(), false),
                ["full"] => self.status(rc.machine(), true),
                _ => return Err(Refusal::new("arg", "s [full]")),
            },
            "go" => {
                let addr = optional_address(args, rc.machine(), "go [<addr>]")?;
                self.replace_goal(rc, None);
                if let Some(a) = addr {
                    rc.machine_mut().set_pc(a);
                }
                rc.cont();
                self.was_running = true;
                self.resuming = true;
                "run=1".into()
            }
            "readin" => {
                let addr = optional_address(args, rc.machine(), "readin [<addr>]")?;
                self.replace_goal(rc, None);
                if let Some(a) = addr {
                    rc.set_test_address(a);
                }
                rc.read_in();
                self.was_running = true;
                "run=1".into()
            }
            "stop" => {
                none(args)?;
                // (A bounded run pending on any connection is answered with this stop.)
                if rc.machine().running() || self.goal.is_some() || self.last_stop == "none" {
                    self.stopped(rc, "stop", Some(id));
                }
                self.status(rc.machine(), false)
            }
            "step" | "run" | "trace" | "next" | "until" => {
                return self.run_command(rc, id, verb, args).map(|()| None);
            }
            "cycle" => {
                let n = match args {
                    [] => 1,
                    [n] => parse::decimal(n)?,
                    _ => return Err(Refusal::new("arg", "cycle [n]")),
                };
                if n > MAX_CYCLES {
                    return Err(Refusal::new(
                        "limit",
                        format!("at most {MAX_CYCLES} cycles"),
                    ));
                }
                self.replace_goal(rc, None);
                let mut reason = "cycle";
                for _ in 0..n {
                    let (_, a) = rc.single_step();
                    if let Some(Stop::Machine(r)) = a.stop {
                        reason = classify(r);
                        break;
                    }
                }
                if rc.machine().running() {
                    rc.stop();
                }
                self.stopped(rc, reason, Some(id));
                self.status(rc.machine(), false)
            }
            "wait" => {
                let ms = match args {
                    [] => None,
                    [ms] => Some(parse::decimal(ms)?),
                    _ => return Err(Refusal::new("arg", "wait [<ms>]")),
                };
                if !rc.machine().running() && self.goal.is_none() {
                    self.status(rc.machine(), false)
                } else {
                    let deadline = ms.map(|ms| rc.machine().time_ns() + ms * 1_000_000);
                    self.conns.get_mut(&id).expect("connected").pending =
                        Some(Pending::Wait(deadline));
                    return Ok(None);
                }
            }
            "b" => {
                if args.is_empty() {
                    let lines: Vec<String> = self
                        .bps
                        .iter()
                        .map(|b| match &b.cond {
                            None => format!(": {:06o}", b.addr),
                            Some(c) => format!(": {:06o} if {c}", b.addr),
                        })
                        .collect();
                    let n = lines.len();
                    for l in lines {
                        self.send(id, l);
                    }
                    n.to_string()
                } else {
                    let m = rc.machine();
                    let addr = parse::address(args[0], m)?;
                    let cond = match &args[1..] {
                        [] => None,
                        [kw, rest @ ..] if kw.eq_ignore_ascii_case("if") && !rest.is_empty() => {
                            Some(Cond::parse(rest, m)?)
                        }
                        _ => return Err(Refusal::new("arg", "b <addr> [if <cond>]")),
                    };
                    self.bps.retain(|b| b.addr != addr || b.owner.is_some());
                    self.bps.push(Breakpoint {
                        addr,
                        cond,
                        owner: None,
                    });
                    self.sync_breakpoints(rc);
                    "1".into()
                }
            }
            "ub" => {
                let n = remove(&mut self.bps, args, rc.machine(), |b| b.addr, "ub <addr>|*")?;
                self.sync_breakpoints(rc);
                n.to_string()
            }
            "wp" => {
                let (a, kind) = match args {
                    [a] => (a, "w"),
                    [a, k] => (a, *k),
                    _ => return Err(Refusal::new("arg", "wp <addr> [r|w|rw]")),
                };
                let addr = parse::address(a, rc.machine())?;
                let (read, write) = match kind.to_ascii_lowercase().as_str() {
                    "r" => (true, false),
                    "w" => (false, true),
                    "rw" | "wr" => (true, true),
                    _ => return Err(Refusal::new("arg", "wp <addr> [r|w|rw]")),
                };
                self.wps.retain(|w| w.addr != addr);
                self.wps.push(Watchpoint { addr, read, write });
                String::new()
            }
            "uwp" => remove(
                &mut self.wps,
                args,
                rc.machine(),
                |w| w.addr,
                "uwp <addr>|*",
            )?
            .to_string(),
            "back" => {
                let n = match args {
                    [] => 16,
                    [n] => parse::decimal(n)?,
                    _ => return Err(Refusal::new("arg", "back [n]")),
                };
                let lines: Vec<String> = self
                    .ring
                    .iter()
                    .take(n as usize)
                    .enumerate()
                    .map(|(i, c)| {
                        format!(
                            ": {i} to={:06o} from={:06o} ret={:06o}",
                            c.to, c.from, c.ret
                        )
                    })
                    .collect();
                let n = lines.len();
                for l in lines {
                    self.send(id, l);
                }
                n.to_string()
            }
            "panel" => match args {
                [] => format!("panel={}", if self.panel.armed { "on" } else { "off" }),
                ["on"] => {
                    self.panel.armed = true;
                    "panel=on".into()
                }
                ["off"] | ["off", "force"] => {
                    // (This machine's POWER is always on: disarming never powers it down, so
                    // `panel off` has nothing to refuse.)
                    self.panel.armed = false;
                    self.panel.sstep = false;
                    self.panel.sinst = false;
                    "panel=off".into()
                }
                _ => return Err(Refusal::new("arg", "panel [on|off [force]]")),
            },
            "sw" => self.switch(rc, args)?,
            "key" => {
                let (name, up) = match args {
                    [k] => (k.to_ascii_lowercase(), false),
                    [k, u] if u.eq_ignore_ascii_case("up") => (k.to_ascii_lowercase(), true),
                    _ => return Err(Refusal::new("arg", "key <name> [up]")),
                };
                self.key(rc, id, &name, up)?
            }
            "reader" | "r" | "load" | "l" => {
                let long = match verb {
                    "r" => "reader",
                    "l" => "load",
                    v => v,
                };
                self.tape(rc, host, long, args)?
            }
            "punch" | "p" => match args {
                [] => "punch".into(),
                [name, ..] => {
                    parse::confined(name)?;
                    return Err(Refusal::new(
                        "file",
                        "the punch is not served over the network yet",
                    ));
                }
            },
            "display" | "dpy" => match args {
                [] => "display".into(),
                [h] | [h, _] => {
                    let port = match args.get(1) {
                        Some(p) => parse::decimal(p)?,
                        None => 3400,
                    };
                    let port = u16::try_from(port)
                        .map_err(|_| Refusal::new("arg", format!("no port {port}")))?;
                    host.dial_display(h, port)
                        .map_err(|e| Refusal::new("file", format!("display {h} {port}: {e}")))?;
                    format!("display {h} {port}")
                }
                _ => return Err(Refusal::new("arg", "display [<host> [<port>]]")),
            },
            // The lenient device verbs (spec §5): they report what this machine has.
            "muldiv" => format!(
                "muldiv {}",
                if rc.machine().config().mul_div {
                    "on"
                } else {
                    "off"
                }
            ),
            "audio" => "audio off".into(),
            "sbs" => format!("sbs {}", if rc.machine().config().sbs16 { 16 } else { 1 }),
            "pen" => self.pen(rc, args)?,
            other => return Err(Refusal::new("cmd", format!("unknown command: {other}"))),
        };
        Ok(Some(ok(reply)))
    }

    fn read_registers(&self, m: &Machine, args: &[&str]) -> Reply<String> {
        let names: Vec<String> = if args.is_empty() {
            parse::REGISTERS.iter().map(|s| s.to_string()).collect()
        } else {
            args.iter().map(|a| a.to_ascii_lowercase()).collect()
        };
        let mut out = vec![];
        for n in &names {
            let v = parse::register(m, n)
                .ok_or_else(|| Refusal::new("reg", format!("no register {n}")))?;
            out.push(parse::show_register(n, v));
        }
        Ok(out.join(" "))
    }

    fn run_command(
        &mut self,
        rc: &mut RunControl,
        id: ConnId,
        verb: &str,
        args: &[&str],
    ) -> Reply<()> {
        let m = rc.machine();
        let mut g = Goal {
            owner: id,
            left: None,
            cond: None,
            trace: None,
        };
        match verb {
            "step" => {
                g.left = Some(match args {
                    [] => 1,
                    [n] => parse::decimal(n)?,
                    _ => return Err(Refusal::new("arg", "step [n]")),
                });
            }
            "run" => {
                let [n, rest @ ..] = args else {
                    return Err(Refusal::new("arg", "run <n> [if <cond>]"));
                };
                g.left = Some(parse::decimal(n)?);
                match rest {
                    [] => {}
                    [kw, c @ ..] if kw.eq_ignore_ascii_case("if") && !c.is_empty() => {
                        g.cond = Some(Cond::parse(c, m)?)
                    }
                    _ => return Err(Refusal::new("arg", "run <n> [if <cond>]")),
                }
            }
            "trace" => {
                let (n, changed) = match args {
                    [n] => (parse::decimal(n)?, false),
                    [n, c] if c.eq_ignore_ascii_case("changed") => (parse::decimal(n)?, true),
                    _ => return Err(Refusal::new("arg", "trace <n> [changed]")),
                };
                if n > MAX_TRACE {
                    return Err(Refusal::new("limit", format!("at most {MAX_TRACE} lines")));
                }
                g.left = Some(n);
                g.trace = Some((changed, Vec::new()));
            }
            "until" => {
                let (a, n) = match args {
                    [a] => (parse::address(a, m)?, None),
                    [a, n] => (parse::address(a, m)?, Some(parse::decimal(n)?)),
                    _ => return Err(Refusal::new("arg", "until <addr> [n]")),
                };
                g.left = n;
                self.bps.push(Breakpoint {
                    addr: a,
                    cond: None,
                    owner: Some(id),
                });
            }
            _ => {
                // next [n]: over a jsp/jda/cal, to the word after it; otherwise one step.
                let n = match args {
                    [] => 1,
                    [n] => parse::decimal(n)?,
                    _ => return Err(Refusal::new("arg", "next [n]")),
                };
                let pc = m.pc();
                let word = m.read(pc).unwrap_or(Word::ZERO).bits();
                if matches!(word >> 12, 0o62 | 0o63 | 0o16 | 0o17) && n == 1 {
                    self.bps.push(Breakpoint {
                        addr: (pc + 1) & 0o177_777,
                        cond: None,
                        owner: Some(id),
                    });
                } else {
                    g.left = Some(n);
                }
            }
        }
        self.replace_goal(rc, None);
        self.replace_goal(rc, Some(g));
        Ok(())
    }

    fn switch(&mut self, rc: &mut RunControl, args: &[&str]) -> Reply<String> {
        let show = |m: &Machine, name: &str, panel: &Panel| -> Option<String> {
            Some(match name {
                "ta" => format!("ta={:06o}", m.test_address()),
                "tw" => format!("tw={:06o}", m.test_word().bits()),
                "ss" => format!("ss={:02o}", m.sense_switches()),
                "sstep" => format!("sstep={}", u8::from(panel.sstep)),
                "sinst" => format!("sinst={}", u8::from(panel.sinst)),
                "extend" => format!("extend={}", u8::from(m.extend_switch())),
                "power" => "power=1".into(),
                _ => return None,
            })
        };
        const NAMES: [&str; 7] = ["ta", "tw", "ss", "sstep", "sinst", "extend", "power"];
        match args {
            [] => Ok(NAMES
                .iter()
                .filter_map(|n| show(rc.machine(), n, &self.panel))
                .collect::<Vec<_>>()
                .join(" ")),
            [n] => show(rc.machine(), &n.to_ascii_lowercase(), &self.panel)
                .ok_or_else(|| Refusal::new("arg", format!("no switch {n}"))),
            [n, v] => {
                let n = n.to_ascii_lowercase();
                if !NAMES.contains(&n.as_str()) {
                    return Err(Refusal::new("arg", format!("no switch {n}")));
                }
                if !self.panel.armed {
                    return Err(Refusal::new("state", "the override is off: panel on first"));
                }
                let v = parse::octal(v)?;
                let too_big = |max: u32| -> Reply<u32> {
                    if v > max {
                        Err(Refusal::new("arg", format!("{v:o} too large for {n}")))
                    } else {
                        Ok(v)
                    }
                };
                match n.as_str() {
                    "ta" => rc.set_test_address(too_big(0o177_777)?),
                    "tw" => rc.set_test_word(Word::new(too_big(0o777_777)?)),
                    "ss" => rc.set_sense_switches(too_big(0o77)? as u8),
                    "sstep" => self.panel.sstep = too_big(1)? == 1,
                    "sinst" => self.panel.sinst = too_big(1)? == 1,
                    "extend" => rc.set_extend_switch(too_big(1)? == 1),
                    // POWER stays on: the machine has no power-off state to go to.
                    _ => {}
                }
                Ok(show(rc.machine(), &n, &self.panel).expect("named"))
            }
            _ => Err(Refusal::new("arg", "sw [<name> [<octal>]]")),
        }
    }

    fn key(&mut self, rc: &mut RunControl, id: ConnId, name: &str, up: bool) -> Reply<String> {
        match name {
            "start" => {
                self.replace_goal(rc, None);
                rc.start(up);
                self.was_running = true;
            }
            "stop" => {
                if rc.machine().running() || self.goal.is_some() {
                    self.stopped(rc, "stop", Some(id));
                }
            }
            "cont" => {
                self.replace_goal(rc, None);
                rc.cont();
                self.was_running = true;
            }
            "exam" => {
                rc.examine();
            }
            "dep" => rc.deposit(),
            "readin" => {
                self.replace_goal(rc, None);
                rc.read_in();
                self.was_running = true;
            }
            // (The reader's feed and the tape reader key drive nothing on this machine.)
            "feed" | "reader" => {}
            _ => {
                return Err(Refusal::new(
                    "arg",
                    "key start|stop|cont|exam|dep|readin|feed|reader [up]",
                ))
            }
        }
        let e = format!("!panel key={name}");
        self.event_all(e);
        Ok(format!("key={name}{}", if up { " up" } else { "" }))
    }

    fn tape(
        &mut self,
        rc: &mut RunControl,
        host: &mut dyn Host,
        verb: &str,
        args: &[&str],
    ) -> Reply<String> {
        let name = match args {
            [] if verb == "reader" => {
                rc.mount_frames(Vec::new(), "");
                return Ok("reader".into());
            }
            [name, ..] => parse::confined(name)?,
            [] => return Err(Refusal::new("arg", "load <file>")),
        };
        let frames = host
            .read_tape(name)
            .map_err(|e| Refusal::new("file", format!("cannot open {name}: {e}")))?;
        if verb == "reader" {
            rc.mount_frames(frames, name);
            return Ok(format!("reader {name}"));
        }
        if rc.machine().running() {
            return Err(Refusal::new("state", "the machine is running"));
        }
        let image = pdp1_asm::tape::read_image(&frames)
            .map_err(|e| Refusal::new("file", format!("{name}: {e}")))?;
        for (a, w) in &image.words {
            parse::check_address(*a, rc.machine())?;
            let _ = rc.machine_mut().write(*a, *w);
        }
        Ok(match image.start {
            Some(s) => format!("loaded start={s:06o}"),
            None => "loaded".into(),
        })
    }

    fn pen(&mut self, rc: &mut RunControl, args: &[&str]) -> Reply<String> {
        match args {
            [c, rest @ ..] if c.eq_ignore_ascii_case("click") => {
                let bad = || Refusal::new("arg", "pen click <x 0-1023> <y 0-1023> [<ms 1-10000>]");
                let (x, y, ms) = match rest {
                    [x, y] => (x, y, None),
                    [x, y, ms] => (x, y, Some(ms)),
                    _ => return Err(bad()),
                };
                let x = parse::decimal(x).map_err(|_| bad())?;
                let y = parse::decimal(y).map_err(|_| bad())?;
                let ms = match ms {
                    Some(ms) => parse::decimal(ms).map_err(|_| bad())?,
                    None => 100,
                };
                if x > 1023 || y > 1023 || !(1..=10_000).contains(&ms) {
                    return Err(bad());
                }
                // Screen units (origin bottom left, 512 the centre) to the program's signed
                // 10-bit coordinates, which the machine's light pen compares.
                rc.set_light_pen(Some((x as i16 - 512, y as i16 - 512)));
                self.pen_up_at = Some(rc.machine().time_ns() + ms * 1_000_000);
                Ok(format!("pen click x={x} y={y} ms={ms}"))
            }
            [] => Ok(format!("pen {}", rc.machine().light_pen_radius())),
            [n, ..] => {
                // Lenient (spec §5): a radius out of range is clamped, not refused.
                let r = n
                    .parse::<i64>()
                    .unwrap_or(i64::from(rc.machine().light_pen_radius()));
                let r = r.clamp(1, 16) as u16;
                rc.machine_mut().set_light_pen_radius(r);
                Ok(format!("pen {r}"))
            }
        }
    }
}

/// `go [<addr>]`, `readin [<addr>]`: the address if there is one.
fn optional_address(args: &[&str], m: &Machine, usage: &str) -> Reply<Option<u32>> {
    match args {
        [] => Ok(None),
        [a] => parse::address(a, m).map(Some),
        _ => Err(Refusal::new("arg", usage)),
    }
}

/// `ub`/`uwp`: removes the entries at the address (`*`: all); how many went.
fn remove<T>(
    v: &mut Vec<T>,
    args: &[&str],
    m: &Machine,
    addr: fn(&T) -> u32,
    usage: &str,
) -> Reply<usize> {
    let n = v.len();
    match args {
        ["*"] => v.clear(),
        [a] => {
            let a = parse::address(a, m)?;
            v.retain(|x| addr(x) != a);
        }
        _ => return Err(Refusal::new("arg", usage)),
    }
    Ok(n - v.len())
}

/// The commands that change something, refused `?busy` to others while one holds the claim.
fn writes(verb: &str, args: &[&str]) -> bool {
    match verb {
        "hello" | "help" | "events" | "claim" | "release" | "quit" | "e" | "reg" | "s" | "wait"
        | "back" => false,
        "b" | "panel" | "muldiv" | "audio" | "sbs" | "display" | "dpy" | "punch" | "p" => {
            !args.is_empty()
        }
        "sw" => args.len() > 1,
        "pen" => !args.is_empty(),
        "r" => {
            !args.is_empty()
                && !args
                    .iter()
                    .all(|a| parse::REGISTERS.contains(&a.to_ascii_lowercase().as_str()))
        }
        _ => true,
    }
}

/// The stop reason's name (spec §6).
fn classify(r: StopReason) -> &'static str {
    match r {
        StopReason::Halted => "halt",
        StopReason::Breakpoint(_) => "break",
        StopReason::UndefinedInstruction { .. } => "illegal",
        StopReason::ReadInFailed { .. } => "readin",
        StopReason::IoHang { .. }
        | StopReason::XctLimit { .. }
        | StopReason::IndirectLimit { .. } => "illegal",
        StopReason::TimeLimit | StopReason::InstructionLimit | StopReason::Stepped => "step",
        StopReason::NotRunning => "stop",
    }
}

/// The status line's registers (spec §3), before `at` and `stop`.
const STATUS: [&str; 12] = [
    "run", "cyc", "df1", "pc", "ac", "io", "ma", "mb", "ir", "ov", "pf", "ss",
];

const TRACE_KEYS: [&str; 5] = ["ac", "io", "ma", "mb", "ov"];

fn trace_values(m: &Machine) -> [u32; 5] {
    TRACE_KEYS.map(|k| parse::register(m, k).unwrap_or(0))
}

/// `pc=… inst=… ac=… io=… ma=… mb=… ov=…` (spec §5, `trace`); `changed` leaves out the
/// registers the instruction did not change.
fn trace_line(pc: u32, inst: u32, before: &[u32; 5], after: &[u32; 5], changed: bool) -> String {
    let mut s = format!("pc={pc:06o} inst={inst:06o}");
    for (i, k) in TRACE_KEYS.iter().enumerate() {
        if !changed || before[i] != after[i] {
            s.push(' ');
            s.push_str(&parse::show_register(k, after[i]));
        }
    }
    s
}

const HELP: [&str; 26] = [
    "hello                      protocol version and machine",
    "help                       this list",
    "events none|stop|all       which asynchronous events (!) this connection gets",
    "claim | release            advisory exclusive use",
    "quit                       close the connection",
    "e <addr> [n]               examine n words (addr octal, n decimal)",
    "d <addr> <word>...         deposit (refused while running)",
    "poke <addr> <word>...      deposit even while running",
    "z [<addr> <n>]             zero core",
    "reg [<reg>...] | r <reg>   read registers",
    "w <reg> <octal>            write a register (refused while running)",
    "s [full]                   status line",
    "go [<addr>] | stop         run (returns at once) | stop",
    "step [n] | next [n]        n instructions | over jsp/jda/cal",
    "cycle [n]                  n memory cycles",
    "run <n> [if <cond>]        run at most n instructions; cond: reg=oct, M[addr]!=oct",
    "until <addr> [n]           temporary breakpoint and run",
    "trace <n> [changed]        run n instructions, one line each",
    "wait [<ms>]                until the machine stops",
    "readin [<addr>]            READ IN",
    "b [<addr> [if <cond>]] | ub <addr>|*     breakpoints",
    "wp <addr> [r|w|rw] | uwp <addr>|*        watchpoints",
    "back [n]                   the last jsp/jda/cal transfers",
    "panel [on|off] | key <name> [up] | sw [<name> [<octal>]]   the console",
    "reader|load|punch <file> | dpy <host> [<port>] | pen click <x> <y> [<ms>]",
    "note: opcode 0 is not hlt (760400); it stops as illegal",
];

#[cfg(test)]
mod tests;
