//! `pdp1 --listen --headless` (issue 30): the PiDP-1's three ports over real sockets — the debug
//! protocol (1040), the typewriter (1041) and the Type 30's points (3400) — with clients
//! written here from aap's spec and the `pdp1_periph` wire format; and, where a developer has
//! fetched them (docs/pidp1.md), aap's own conformance test (`PDP1DBG_TEST`) and the
//! agent-pdp1 client (`PDP1DBG_CLIENT`), run from outside the repository. Each test starts its
//! own server on ports the system picks (`--ports 0,0,0`) with its own scratch folder.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use test_support::{not_run_optional, scratch};

/// A `pdp1 --listen` process and its three ports; killed when dropped.
struct Server {
    child: Child,
    debug: u16,
    typewriter: u16,
    display: u16,
}

impl Server {
    fn start(tape_dir: &Path, extra: &[&str]) -> Server {
        let mut cmd = Command::new(common::bin());
        cmd.args(["--listen", "--headless"]);
        Server::spawn(cmd, tape_dir, extra)
    }

    /// `cmd` (the binary, or xvfb-run with it) given the ports and the tape folder, in a
    /// process group of its own (so that dropping it ends all of it).
    fn spawn(mut cmd: Command, tape_dir: &Path, extra: &[&str]) -> Server {
        use std::os::unix::process::CommandExt;
        let mut child = cmd
            .args(["--ports", "0,0,0", "--tape-dir"])
            .arg(tape_dir)
            .args(extra)
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pdp1 --listen");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let mut port = |what: &str| -> u16 {
            let prefix = format!("pdp1: {what} on 127.0.0.1:");
            loop {
                let l = lines.next().expect("a port line").expect("stderr");
                if let Some(p) = l.strip_prefix(&prefix) {
                    return p.parse().expect("port");
                }
                assert!(!l.starts_with("pdp1: error"), "{l}");
            }
        };
        let (debug, typewriter, display) =
            (port("debug protocol"), port("typewriter"), port("display"));
        // (Keep draining stderr so the server never blocks on it.)
        std::thread::spawn(move || for _ in lines {});
        Server {
            child,
            debug,
            typewriter,
            display,
        }
    }

    fn client(&self) -> Client {
        Client::connect(self.debug)
    }

    /// Still serving (the machine did not stop for a client's misbehaviour).
    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // (The whole group: xvfb-run's X server and pdp1 too, not only the first process.)
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A debug-protocol client, as the spec's §1 says one reads: lines until `+` or `-`,
/// events (`!`) kept aside.
struct Client {
    r: BufReader<TcpStream>,
    w: TcpStream,
    events: Vec<String>,
}

impl Client {
    fn connect(port: u16) -> Client {
        let s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        Client {
            r: BufReader::new(s.try_clone().unwrap()),
            w: s,
            events: vec![],
        }
    }

    fn line(&mut self) -> Option<String> {
        let mut l = String::new();
        match self.r.read_line(&mut l) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(l.trim_end_matches(['\r', '\n']).to_string()),
        }
    }

    /// (answer line, data lines)
    fn cmd(&mut self, line: &str) -> (String, Vec<String>) {
        self.w.write_all(format!("{line}\n").as_bytes()).unwrap();
        let mut data = vec![];
        loop {
            let l = self
                .line()
                .unwrap_or_else(|| panic!("closed during {line:?}"));
            match l.chars().next() {
                Some('!') => self.events.push(l),
                Some(':') => data.push(l[1..].trim().to_string()),
                Some('+' | '-') => return (l, data),
                _ => panic!("untyped line {l:?}"),
            }
        }
    }

    fn ok(&mut self, line: &str) -> String {
        let (a, _) = self.cmd(line);
        assert!(a.starts_with('+'), "{line:?} → {a}");
        a
    }

    fn field(&mut self, line: &str, key: &str) -> String {
        let a = self.ok(line);
        a.split_whitespace()
            .find_map(|f| f.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("no {key} in {a}"))
            .to_string()
    }

    /// `n` words from `addr`.
    fn words(&mut self, addr: u32, n: usize) -> Vec<u32> {
        let (a, data) = self.cmd(&format!("e {addr:o} {n}"));
        assert!(a.starts_with('+'), "{a}");
        data.iter()
            .flat_map(|l| l.split_whitespace().skip(1))
            .map(|w| u32::from_str_radix(w, 8).unwrap())
            .collect()
    }
}

/// The Python program the variable `var` names, with python3 there to run it; else says
/// NOT RUN (an optional oracle, never in CI) and gives `None`.
fn python_program(var: &str, what: &str) -> Option<std::ffi::OsString> {
    let Some(path) = std::env::var_os(var) else {
        not_run_optional(&format!("{var} ({what}) is not set"));
        return None;
    };
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !python {
        not_run_optional("python3 is not installed");
        return None;
    }
    Some(path)
}

/// The Kalah program, assembled here (pdp1-asm) into `dir` with its symbol table; returns
/// the symbols as (name, value).
fn assemble_kalah(dir: &Path) -> Vec<(String, u32)> {
    let roms = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../roms");
    let asm = PathBuf::from(common::bin()).with_file_name("pdp1-asm");
    if !asm.exists() {
        // (Built by `cargo test --workspace`; a lone `cargo test -p pdp1` builds it here.)
        let st = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "pdp1-asm"])
            .status()
            .expect("cargo build pdp1-asm");
        assert!(st.success());
    }
    let st = Command::new(&asm)
        .arg(format!("@{}", roms.join("kalah.files").display()))
        .arg("-o")
        .arg(dir.join("kalah.rim"))
        .arg("--symbols")
        .arg(dir.join("kalah.sym"))
        .status()
        .expect("pdp1-asm");
    assert!(st.success());
    std::fs::read_to_string(dir.join("kalah.sym"))
        .unwrap()
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            Some((
                f.next()?.to_string(),
                u32::from_str_radix(f.next()?, 8).ok()?,
            ))
        })
        .collect()
}

fn symbol(syms: &[(String, u32)], name: &str) -> u32 {
    syms.iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no symbol {name}"))
        .1
}

/// Reads what the typewriter port sends until `done` says so (or a minute passes).
fn read_paper(t: &mut TcpStream, paper: &mut String, done: impl Fn(&str) -> bool) {
    t.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    let mut buf = [0u8; 256];
    while !done(paper) && Instant::now() < end {
        if let Ok(n) = t.read(&mut buf) {
            paper.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
}

/// The board (a6 … a1 ka b6 … b1 kb), 14 words at `bd`.
fn board(c: &mut Client, bd: u32) -> Vec<u32> {
    c.words(bd, 14)
}

/// aap's conformance test, unmodified, from where `PDP1DBG_TEST` says (docs/pidp1.md).
#[test]
fn aaps_conformance_test_passes() {
    let Some(test) = python_program("PDP1DBG_TEST", "aap's pdp1dbg_test.py") else {
        return;
    };
    let dir = scratch("listen-conformance");
    let s = Server::start(dir.path(), &[]);
    let out = Command::new("python3")
        .arg(&test)
        .args(["--host", "127.0.0.1", "--port", &s.debug.to_string()])
        .output()
        .expect("python3");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(out.status.success(), "{text}");
    assert!(text.contains(" passed, 0 failed, "), "{text}");
}

/// Garbage, a line of a megabyte, a ninth connection and a client that goes away in the
/// middle of a `run` get the spec's answers; the machine and the other clients go on.
#[test]
fn misbehaving_clients_leave_the_machine_and_the_others_alone() {
    let dir = scratch("listen-misbehaving");
    let mut s = Server::start(dir.path(), &["--speed", "max"]);
    let mut a = s.client();
    assert!(a.ok("hello").starts_with("+ proto=1 machine=pdp1 maxmem="));
    // Garbage and a megabyte without a line end, then a line end: two errors, in step.
    a.w.write_all(b"\xff\xfe\x00 nonsense\n").unwrap();
    assert!(a.line().unwrap().starts_with("- ?cmd "));
    a.w.write_all(&vec![b'7'; 1 << 20]).unwrap();
    a.w.write_all(b"\n").unwrap();
    assert_eq!(a.line().unwrap(), "- ?arg line too long");
    assert!(a.ok("hello").starts_with("+ proto=1"));
    // Eight connections at most: the ninth is told and closed.
    let mut others: Vec<Client> = (0..7).map(|_| s.client()).collect();
    for o in &mut others {
        o.ok("s");
    }
    let mut ninth = s.client();
    assert_eq!(
        ninth.line().as_deref(),
        Some("- ?busy too many connections")
    );
    assert_eq!(ninth.line(), None);
    // A client that goes away in the middle of a long run: the machine stops and stands.
    let mut b = others.pop().unwrap();
    b.ok("d 100 600100");
    b.ok("w pc 100");
    b.w.write_all(b"run 1000000000000\n").unwrap();
    b.w.flush().unwrap();
    // (Polled, not a fixed pause: on a busy host the server may take a while to read it.)
    let end = Instant::now() + Duration::from_secs(20);
    while a.field("s", "run") != "1" && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(a.field("s", "run"), "1", "the run is under way");
    drop(b);
    let end = Instant::now() + Duration::from_secs(20);
    while a.field("s", "run") == "1" && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(a.field("s", "run"), "0");
    // A place is free again, and everyone else is still served.
    let mut c = s.client();
    assert!(c.ok("hello").starts_with("+ proto=1"));
    for o in &mut others {
        o.ok("s");
    }
    // quit closes the connection after its answer.
    assert_eq!(c.ok("quit"), "+ bye");
    assert_eq!(c.line(), None);
    assert!(s.alive());
}

/// The project's own client does what a PiDP-1 owner's `pdp1dbg.py` session does: the
/// Kalah program assembled here, loaded over 1040, a breakpoint at its key-input routine
/// (`key`), a key struck on the typewriter port, a deposit into the board while it stands
/// there, and the board read from memory after the move. A telnet-like client on 1041 sees
/// the move typed.
#[test]
fn a_debug_session_and_a_telnet_client_play_kalah() {
    let dir = scratch("listen-kalah");
    let syms = assemble_kalah(dir.path());
    let (key, bd) = (symbol(&syms, "key"), symbol(&syms, "bd"));
    let mut s = Server::start(dir.path(), &["--speed", "8"]);
    let mut c = s.client();
    let mut t = TcpStream::connect(("127.0.0.1", s.typewriter)).unwrap();
    // A second typewriter client: it gets the same paper.
    let mut t2 = TcpStream::connect(("127.0.0.1", s.typewriter)).unwrap();
    let start = c.ok("load kalah.rim");
    assert_eq!(start, "+ loaded start=000100");
    c.ok("panel on");
    c.ok("sw tw 4");
    c.ok(&format!("b {key:o}"));
    c.ok("go 100");
    // The program sets up the board and waits for a key.
    let end = Instant::now() + Duration::from_secs(20);
    while board(&mut c, bd) != [3, 3, 3, 3, 3, 3, 0, 3, 3, 3, 3, 3, 3, 0] && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        board(&mut c, bd),
        [3, 3, 3, 3, 3, 3, 0, 3, 3, 3, 3, 3, 3, 0]
    );
    t.write_all(b"3").unwrap();
    let st = c.ok("wait 30000");
    assert!(
        st.contains(&format!(" pc={key:06o} ")) && st.contains("stop=break"),
        "{st}"
    );
    // Pit a1 (next to the kalah) gets three more stones while the program stands at `key`.
    c.ok(&format!("d {:o} 6", bd + 5));
    c.ok("ub *");
    c.ok("go");
    let mut paper = String::new();
    read_paper(&mut t, &mut paper, |p| p.contains('.'));
    assert_eq!(paper, "3.", "move 3 ends in the kalah: a repeat move");
    // Pit 3's stones went to a2, a1 and the kalah.
    assert_eq!(board(&mut c, bd)[..7], [3, 3, 3, 0, 4, 7, 1]);
    // The machine moves for the side to move (space).
    t.write_all(b" ").unwrap();
    read_paper(&mut t, &mut paper, |p| {
        p.ends_with([',', '.']) && p.len() > 4
    });
    let after: Vec<char> = paper.chars().collect();
    assert!(('1'..='6').contains(&after[after.len() - 2]), "{paper:?}");
    let mut paper2 = String::new();
    read_paper(&mut t2, &mut paper2, |p| p.len() >= paper.len());
    assert_eq!(paper2, paper, "every typewriter client gets the paper");
    assert!(s.alive());
}

/// The Type 30's points on 3400 are the ones the machine plots, in screen units as
/// `pdp1_periph` draws them: decoded here from the wire format and compared with the same
/// program run in this process.
#[test]
fn the_display_port_streams_the_kalah_board() {
    let dir = scratch("listen-display");
    assemble_kalah(dir.path());
    let s = Server::start(dir.path(), &["--speed", "4"]);
    let mut c = s.client();
    let mut d = TcpStream::connect(("127.0.0.1", s.display)).unwrap();
    c.ok("load kalah.rim");
    c.ok("panel on");
    c.ok("sw tw 4");
    c.ok("go 100");
    // Half a second of emulated time (the program's set-up and many frames of the board
    // standing still), however long the host takes for it.
    d.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    // The wire format (p7.c): x bits 0-9, y 10-19, brightness 20-22, µs since the last in
    // 23-31; 511 there escapes a time word.
    let mut seen = std::collections::BTreeSet::new();
    let mut escape = false;
    let mut us = 0u64;
    let mut pending: Vec<u8> = vec![];
    let mut buf = [0u8; 65536];
    let end = Instant::now() + Duration::from_secs(60);
    while us < 500_000 && Instant::now() < end {
        if let Ok(n) = d.read(&mut buf) {
            pending.extend_from_slice(&buf[..n]);
        }
        let whole = pending.len() / 4 * 4;
        for w in pending[..whole].chunks_exact(4) {
            let w = u32::from_le_bytes(w.try_into().unwrap());
            if escape {
                escape = false;
                us += u64::from(w);
            } else if w >> 23 == 511 {
                escape = true;
            } else {
                us += u64::from(w >> 23);
                let (x, y) = (w & 0o1777, w >> 10 & 0o1777);
                if x != 0 || y != 0 {
                    seen.insert((x, y));
                }
            }
        }
        pending.drain(..whole);
    }
    assert!(us >= 500_000, "the stream covers emulated time: {us} µs");
    // The same program in this process: the points of its first half second.
    let rim = std::fs::read(dir.path().join("kalah.rim")).unwrap();
    let image = pdp1_asm::tape::read_image(&rim).unwrap();
    let mut m = pdp1_core::Machine::new(pdp1_core::MachineConfig::default()).unwrap();
    for (a, w) in &image.words {
        m.write(*a, *w).unwrap();
    }
    m.set_test_word(pdp1_core::Word::new(4));
    m.set_pc(0o100);
    m.cont();
    m.run_until(pdp1_core::Limit {
        until_ns: Some(500_000_000),
        ..Default::default()
    });
    // Screen units as aap's mapcoord folds them: 0..511 → 512..1023, −511..−1 → 2..512.
    let screen = |v: i16| {
        if v >= 0 {
            v as u32 + 512
        } else {
            (v as i32 + 513) as u32
        }
    };
    let expected: std::collections::BTreeSet<(u32, u32)> = m
        .drain_display()
        .iter()
        .map(|p| (screen(p.x), screen(p.y)))
        .filter(|&(x, y)| x != 0 || y != 0)
        .collect();
    assert!(
        expected.len() > 100,
        "the board is drawn: {} points",
        expected.len()
    );
    assert_eq!(
        seen, expected,
        "the board's points, as the window draws them"
    );
}

/// The agent-pdp1 client (`pdp1dbg.py`, from where `PDP1DBG_CLIENT` says) drives the machine:
/// the same session as above, in its batch mode.
#[test]
fn the_pdp1dbg_client_drives_kalah() {
    let Some(client) = python_program("PDP1DBG_CLIENT", "agent-pdp1's pdp1dbg.py") else {
        return;
    };
    let dir = scratch("listen-pdp1dbg");
    let syms = assemble_kalah(dir.path());
    let (key, bd) = (symbol(&syms, "key"), symbol(&syms, "bd"));
    let s = Server::start(dir.path(), &["--speed", "8"]);
    let run = |cmds: &[String]| -> String {
        let out = Command::new("python3")
            .arg(&client)
            .args(["--port", &s.debug.to_string(), "--timeout", "60"])
            .args(cmds)
            .output()
            .expect("python3");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        println!("{text}");
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let cmds = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let out = run(&cmds(&[
        "load kalah.rim",
        "panel on",
        "sw tw 4",
        &format!("b {key:o}"),
        "go 100",
        "sleep 1",
        &format!("e {bd:o} 14"),
    ]));
    assert!(out.contains("loaded start=000100"), "{out}");
    assert!(
        out.contains(&format!(
            "{bd:06o} 000003 000003 000003 000003 000003 000003 000000 000003"
        )),
        "{out}"
    );
    let mut t = TcpStream::connect(("127.0.0.1", s.typewriter)).unwrap();
    t.write_all(b"3").unwrap();
    let out = run(&cmds(&[
        "wait 30000",
        &format!("d {:o} 6", bd + 5),
        "ub *",
        "go",
        "sleep 2",
        &format!("e {bd:o} 7"),
    ]));
    assert!(out.contains("stop=break"), "{out}");
    assert!(
        out.contains(&format!(
            "{bd:06o} 000003 000003 000003 000000 000004 000007 000001"
        )),
        "{out}"
    );
}

/// `--listen` beside the window (under Xvfb): a client breaks the program the window shows,
/// and the machine the window runs answers it — the operator at the console and the clients
/// share one machine, as on the PiDP-1.
#[test]
fn the_window_keeps_working_with_clients() {
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        common::not_run("listen: xvfb-run is needed for the window (.ci/run installs it)");
        return;
    }
    let dir = scratch("listen-window");
    let syms = assemble_kalah(dir.path());
    let (key, bd) = (symbol(&syms, "key"), symbol(&syms, "bd"));
    let mut cmd = Command::new("xvfb-run");
    cmd.args([
        "-a",
        "-s",
        "-screen 0 1600x1000x24",
        common::bin(),
        "--listen",
    ]);
    let mut s = Server::spawn(cmd, dir.path(), &["--speed", "4", "--mute"]);
    let mut c = s.client();
    let mut t = TcpStream::connect(("127.0.0.1", s.typewriter)).unwrap();
    c.ok("load kalah.rim");
    c.ok("panel on");
    c.ok("sw tw 4");
    c.ok(&format!("b {key:o}"));
    c.ok("go 100");
    std::thread::sleep(Duration::from_millis(500));
    t.write_all(b"3").unwrap();
    let st = c.ok("wait 30000");
    assert!(
        st.contains(&format!(" pc={key:06o} ")) && st.contains("stop=break"),
        "{st}"
    );
    c.ok("ub *");
    c.ok("go");
    let mut paper = String::new();
    read_paper(&mut t, &mut paper, |p| p.contains('.'));
    assert_eq!(paper, "3.");
    assert_eq!(board(&mut c, bd)[..7], [3, 3, 3, 0, 4, 4, 1]);
    assert!(s.alive(), "the window is still up");
}

/// `pdp1_periph`'s light pen comes back on 3400 (the mouse held on its scope): a program that
/// plots one point and counts the times the pen sees it (program flag 3) counts while the
/// pen is down on the point, and stops when it is lifted.
#[test]
fn the_display_port_takes_the_light_pen() {
    let dir = scratch("listen-pen");
    let s = Server::start(dir.path(), &["--speed", "max"]);
    let mut c = s.client();
    let mut d = TcpStream::connect(("127.0.0.1", s.display)).unwrap();
    // 200: lac x; lio y; dpy (wait); szf 3 (flag 3 clear: skip); jmp 206; jmp 200;
    // 206: clf 3; idx hits; jmp 200 — x = 0 (screen 512), y = -212 as a 10-bit
    // one's-complement number in IO bits 0-9 (1453 << 8: screen 300), hits at 222.
    c.ok("d 200 200220 220221 730007 640003 600206 600200 760003 440222 600200");
    c.ok("d 220 0 625400 0");
    c.ok("w pc 200");
    c.ok("go");
    let hits = |c: &mut Client| c.words(0o222, 1)[0];
    let pen = |d: &mut TcpStream, w: u32| d.write_all(&w.to_le_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(hits(&mut c), 0, "no pen yet");
    pen(&mut d, 0xFF << 24 | 1 << 20 | 512 << 10 | 300);
    let end = Instant::now() + Duration::from_secs(20);
    while hits(&mut c) == 0 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(hits(&mut c) > 0, "the pen down on the point sees it");
    pen(&mut d, 0xFF << 24 | 512 << 10 | 300);
    // The lift reaches the machine after the host's threads get round to it, which on a busy
    // machine may take longer than any fixed pause: wait until the count stands still (the
    // program, running at full speed, counts thousands of hits a second while the pen is down).
    let end = Instant::now() + Duration::from_secs(20);
    let mut settled = hits(&mut c);
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = hits(&mut c);
        if now == settled || Instant::now() > end {
            break;
        }
        settled = now;
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(hits(&mut c), settled, "lifted, it sees nothing");
    c.ok("stop");
}

#[test]
fn the_punch_writes_a_file_under_the_tape_directory() {
    // Spec §5: `punch NAME` creates or truncates NAME under the tape directory and what the
    // program punches goes there; bare `punch` takes the tape off.
    let dir = scratch("listen-punch");
    std::fs::write(dir.path().join("old.rim"), b"left over").unwrap();
    let s = Server::start(dir.path(), &["--speed", "max"]);
    let mut c = s.client();
    // 100: lio 110 / ppa / lio 111 / ppa / hlt;  110: 101  111: 232
    c.ok("d 100 220110 730005 220111 730005 760400");
    c.ok("d 110 101 232");
    let punch_once = |c: &mut Client| {
        c.ok("go 100");
        assert_eq!(c.field("wait 20000", "stop"), "halt");
    };
    assert_eq!(c.ok("punch old.rim"), "+ punch old.rim");
    assert_eq!(std::fs::read(dir.path().join("old.rim")).unwrap(), b"");
    punch_once(&mut c);
    assert_eq!(
        std::fs::read(dir.path().join("old.rim")).unwrap(),
        [0o101, 0o232]
    );
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    assert_eq!(c.ok("p sub/new.rim"), "+ punch sub/new.rim");
    punch_once(&mut c);
    assert_eq!(c.ok("punch"), "+ punch");
    punch_once(&mut c);
    assert_eq!(
        std::fs::read(dir.path().join("sub/new.rim")).unwrap(),
        [0o101, 0o232],
        "one run's frames: the tape came off before the next"
    );
    assert_eq!(
        std::fs::read(dir.path().join("old.rim")).unwrap(),
        [0o101, 0o232]
    );
    assert!(c.cmd("punch ../escape.rim").0.starts_with("- ?file"));
    assert!(c.cmd("punch nodir/x.rim").0.starts_with("- ?file"));
    assert!(!dir.path().join("../escape.rim").exists());
}
