//! The debug protocol's commands (spec §5) as `Debugger`'s methods over the run controller:
//! session, memory, registers, run control, breakpoints and watchpoints, the panel, tapes
//! and devices; which commands write (refused to others under a claim); `help`'s text.

use super::parse::{self, Cond, Refusal, Reply};
use super::*;

impl Debugger {
    pub(super) fn execute(
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
                // `help <cmd>` (spec §5): the lines about that command; bare, all of them.
                let want = match args {
                    [] => None,
                    [c] => Some(c.to_ascii_lowercase()),
                    _ => return Err(Refusal::new("arg", "help [<cmd>]")),
                };
                for l in HELP {
                    if want.as_ref().is_none_or(|c| help_names(l).any(|n| n == c)) {
                        self.send(id, format!(": {l}"));
                    }
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
                let fits = |max: u32| {
                    if v <= max {
                        Ok(())
                    } else {
                        Err(Refusal::new("arg", format!("{v:o} too large for {r}")))
                    }
                };
                let m = rc.machine_mut();
                // Every register of spec §3's table marked writable, to its width; the
                // addresses (ma, and pc or ma with a new field) must be in this machine's core.
                match r.as_str() {
                    "pc" => {
                        // The next instruction is here: a fetch boundary (Machine::set_pc
                        // abandons a part-done instruction and an in-out wait).
                        parse::check_address(v, m)?;
                        m.set_pc(v);
                    }
                    "ac" => {
                        fits(0o777_777)?;
                        m.set_ac(Word::new(v));
                    }
                    "io" => {
                        fits(0o777_777)?;
                        m.set_io(Word::new(v));
                    }
                    "mb" => {
                        fits(0o777_777)?;
                        m.set_mb(Word::new(v));
                    }
                    "ma" => {
                        parse::check_address(v, m)?;
                        m.set_ma(v);
                    }
                    "ir" => {
                        fits(0o37)?;
                        m.set_ir(v);
                    }
                    "ov" => {
                        fits(1)?;
                        m.set_ov(v == 1);
                    }
                    "pf" => {
                        fits(0o77)?;
                        m.set_pf(v as u8);
                    }
                    "epc" => {
                        fits(0o17)?;
                        parse::check_address(v << 12 | (m.pc() & 0o7777), m)?;
                        m.set_pc_field(v);
                    }
                    "ema" => {
                        fits(0o17)?;
                        parse::check_address(v << 12 | (m.ma() & 0o7777), m)?;
                        m.set_ma_field(v);
                    }
                    "ta" | "tw" | "ss" | "eta" => {
                        return Err(Refusal::new("reg", format!("{r} is a switch: use sw")))
                    }
                    other if parse::register(m, other).is_some() => {
                        return Err(Refusal::new(
                            "reg",
                            format!("{other} is status: not writable"),
                        ))
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
            // The punch (spec §5): a file under the tape directory takes what is punched
            // from now on; bare `punch` takes the tape off.
            "punch" | "p" => match args {
                [] => {
                    host.close_punch();
                    "punch".into()
                }
                [name, ..] => {
                    let name = parse::confined(name)?;
                    host.open_punch(name)
                        .map_err(|e| Refusal::new("file", format!("cannot open {name}: {e}")))?;
                    format!("punch {name}")
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
            // The lenient device verbs (spec §5): `muldiv on|off` and `sbs 1|16` install or
            // remove the option, anything else (`muldiv ?`) only reports it, as in aap's cli.
            "muldiv" => {
                match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
                    Some("on") => rc.machine_mut().set_mul_div(true),
                    Some("off") => rc.machine_mut().set_mul_div(false),
                    _ => {}
                }
                let on = rc.machine().config().mul_div;
                format!("muldiv {}", if on { "on" } else { "off" })
            }
            "audio" => {
                let on = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
                    Some("on") => Some(true),
                    Some("off") => Some(false),
                    _ => None,
                };
                format!("audio {}", if host.audio(on) { "on" } else { "off" })
            }
            "sbs" => {
                match args.first().copied() {
                    Some("1") => rc.machine_mut().set_sbs16(false),
                    Some("16") => rc.machine_mut().set_sbs16(true),
                    _ => {}
                }
                format!("sbs {}", if rc.machine().config().sbs16 { 16 } else { 1 })
            }
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
                self.pen_up_at = Some(match self.wall_ms {
                    Some(w) => super::PenUp::Wall(w + ms),
                    None => super::PenUp::Emulated(rc.machine().time_ns() + ms * 1_000_000),
                });
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
pub(super) fn writes(verb: &str, args: &[&str]) -> bool {
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

/// The commands a help line is about: the words of its synopsis (before the two spaces
/// that start the description), not the `<arguments>`; the closing notes are about none.
fn help_names(line: &str) -> impl Iterator<Item = &str> {
    let synopsis = match line.split_once("  ") {
        _ if line.starts_with("note:") => "",
        Some((s, _)) => s,
        None => line,
    };
    synopsis
        .split([' ', '|'])
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase()))
}

const HELP: [&str; 27] = [
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
    "muldiv|audio [on|off] | sbs [1|16] | pen [<n>]   the options (sbs, pen decimal)",
    "note: opcode 0 is not hlt (760400); it stops as illegal",
];
