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

mod commands;
pub mod parse;
pub mod wire;

use crate::run::{Advance, RunControl, Stop};
pub use parse::Framed;
#[cfg(test)]
use parse::Framer;
use parse::{Cond, Refusal};
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

/// When a `pen click` ends.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PenUp {
    /// At this time of the host's wall clock (ms).
    Wall(u64),
    /// At this emulated time (ns), for a host without a clock.
    Emulated(u64),
}

/// The switch override (spec §5, Panel): armed or not, and the switches only it has.
#[derive(Debug, Default)]
struct Panel {
    armed: bool,
    sstep: bool,
    sinst: bool,
}

/// What the protocol needs from its host: the tape directory's files (names already
/// confined to it) for the reader and the punch, and a display to dial (`dpy HOST PORT`).
pub trait Host {
    /// The frames of tape `name`, relative to the tape directory.
    fn read_tape(&mut self, name: &str) -> Result<Vec<u8>, String>;
    /// Send the display's points to a display listening at `host`:`port`.
    fn dial_display(&mut self, host: &str, port: u16) -> Result<(), String>;
    /// Punch into `name`, relative to the tape directory, created or truncated (spec §5:
    /// `punch` opens its file `O_CREAT|O_WRONLY|O_TRUNC`): what the machine punches from now
    /// on goes there, instead of to the file before.
    fn open_punch(&mut self, name: &str) -> Result<(), String>;
    /// Take the tape off the punch (bare `punch`): nothing more goes to its file.
    fn close_punch(&mut self);
    /// `audio [on|off]` (spec §4: one of the old cli's verbs, which in aap's emulator turns
    /// its own loudspeaker on and off): ask the host to sound the program flags (`Some`) or
    /// only report (`None`); returns whether it does now. A host with no loudspeaker (the
    /// headless server) keeps this default: never.
    fn audio(&mut self, on: Option<bool>) -> bool {
        let _ = on;
        false
    }
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
    /// When the light pen's click ends: on the host's wall clock where it gave one
    /// ([`Debugger::set_wall_clock`]; spec §8: "`ms` is real time"), else in emulated time.
    pen_up_at: Option<PenUp>,
    /// The host's wall clock at the last [`Debugger::set_wall_clock`], in ms.
    wall_ms: Option<u64>,
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
            wall_ms: None,
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
        if self.claim.is_some_and(|c| c != id) && commands::writes(&verb, args) {
            self.send(id, "- ?busy another connection holds the claim".into());
            return;
        }
        match self.execute(rc, host, id, &verb, args) {
            Ok(Some(reply)) => self.send(id, reply),
            Ok(None) => {}
            Err(Refusal(e)) => self.send(id, format!("- {e}")),
        }
    }

    /// The host's wall clock now, in ms from any fixed origin: a `pen click`'s length is then
    /// real time, as the spec has it (§8), however far emulated time lags on a busy host.
    pub fn set_wall_clock(&mut self, ms: u64) {
        self.wall_ms = Some(ms);
    }

    /// Runs the machine towards emulated time `until`: the run goal one instruction at a time,
    /// or a plain `go` through the controller's step; then a stop is reported, waits that
    /// expired answered, and a light-pen click that is over lifted.
    pub fn tick(&mut self, rc: &mut RunControl, until: u64) -> Advance {
        let now = rc.machine().time_ns();
        let up = match self.pen_up_at {
            Some(PenUp::Wall(t)) => self.wall_ms.is_some_and(|w| w >= t),
            Some(PenUp::Emulated(t)) => now >= t,
            None => false,
        };
        if up {
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
        // SINGLE STEP / SINGLE INST held by the override: the run flip-flop clears at the end
        // of each memory cycle, or of each instruction ([aap] pdp1.c `MANUAL_RUN`, `STOP`),
        // and the stop's reason is `manual` (spec §6).
        let manual = self.panel.armed && (self.panel.sstep || self.panel.sinst);
        let a = if manual && rc.machine().running() {
            let r = if self.panel.sstep {
                rc.machine_mut().step_cycle()
            } else {
                rc.machine_mut().step_instruction()
            };
            let a = rc.drain();
            let reason = match r {
                StopReason::Stepped => "manual",
                r => classify(r),
            };
            self.stopped(rc, reason, None);
            a
        } else if stepwise {
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
            // A read watch fires on any memory reference to its word — the fetch, a defer, the
            // operand (spec §5) — so with one set the instruction goes a memory cycle at a
            // time and MA is looked at after each; without, SINGLE INST.
            let mut read_at = None;
            let r = if self.wps.iter().any(|w| w.read) {
                loop {
                    let r = rc.machine_mut().step_cycle();
                    let m = rc.machine();
                    if read_at.is_none() && self.wps.iter().any(|w| w.read && w.addr == m.ma()) {
                        read_at = Some(m.ma());
                    }
                    if r != StopReason::Stepped || m.next_cycle() == "fetch" {
                        break r;
                    }
                }
            } else {
                rc.machine_mut().step_instruction()
            };
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
                // reference writes; spec §5); a read watch when one of the cycles above
                // referred to it.
                if (w.write && new != *old) || (w.read && read_at == Some(w.addr)) {
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

#[cfg(test)]
mod tests;
