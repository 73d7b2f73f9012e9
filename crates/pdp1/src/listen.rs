//! `pdp1 --listen [ADDR]` (beside the window; alone with `--headless`, [`run`]): the machine
//! served on the PiDP-1's three ports (issue 30), so the
//! tools that talk to aap's emulator talk to this one — the debug protocol on 1040
//! (`pdp1dbg.py`, `pdp1_periph`'s commands; the language is `pdp1_host::debug`'s), the
//! typewriter on 1041 (what the machine types goes to every client; a key from any is struck),
//! and the Type 30's points on 3400 in the wire format `pdp1_periph` draws
//! (`pdp1_host::debug::wire`).
//!
//! Sockets and threads are this driver's only: one thread accepts on each port, one reads
//! each connection and one writes it; they talk to the machine's loop through a channel,
//! and the loop applies what came between the controller's steps, paced to the wall clock
//! (a `wait`'s timeout and a light-pen click are emulated time, as on the PiDP-1 where the
//! machine keeps real time). A client that sends garbage, overlong lines or goes away in the
//! middle of a command gets the protocol's error or is dropped; the machine and the other
//! clients go on. A client that does not read its output is dropped too, rather than let it
//! stop the machine.

use crate::config::Speed;
use crate::run::{Advance, End, RunControl, RunPlan, SLICE_NS};
use crate::setup::Setup;
use crate::typeout::Paper;
use anyhow::{Context, Result};
use pdp1_core::Machine;
use pdp1_host::debug::parse::Framer;
use pdp1_host::debug::{self, wire, ConnId, Debugger, Framed};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The ports, in the order `--ports` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortNumbers {
    pub debug: u16,
    pub typewriter: u16,
    pub display: u16,
}

impl Default for PortNumbers {
    fn default() -> Self {
        PortNumbers {
            debug: 1040,
            typewriter: 1041,
            display: 3400,
        }
    }
}

/// What `--listen` serves and where.
#[derive(Debug, Clone)]
pub struct Options {
    pub addr: IpAddr,
    pub ports: PortNumbers,
    /// Where the debug protocol's tape names are looked up (`--tape-dir`).
    pub tape_dir: PathBuf,
}

/// Parses `--ports DEBUG,TYPEWRITER,DISPLAY` (0: any free port, said on stderr).
pub fn parse_ports(s: &str) -> Result<PortNumbers> {
    let p: Vec<u16> = s
        .split(',')
        .map(|x| x.trim().parse::<u16>())
        .collect::<std::result::Result<_, _>>()
        .with_context(|| format!("--ports {s}: three port numbers, e.g. 1040,1041,3400"))?;
    let [debug, typewriter, display] = p[..] else {
        anyhow::bail!("--ports {s}: three port numbers, e.g. 1040,1041,3400");
    };
    Ok(PortNumbers {
        debug,
        typewriter,
        display,
    })
}

/// Chunks of output a client may have unread before it is dropped.
const BACKLOG: usize = 4096;

enum Msg {
    DebugOpen(ConnId, Client),
    Debug(ConnId, Framed),
    DebugClosed(ConnId),
    TypewriterOpen(ConnId, Client),
    Keys(Vec<u8>),
    Closed(ConnId),
    DisplayOpen(ConnId, Client),
    /// A display's light pen (`pdp1_periph`): where it is, `None` lifted.
    Pen(Option<(i16, i16)>),
}

/// A connection's writing side: a thread that writes what it is sent, and the stream to shut.
struct Client {
    tx: SyncSender<Vec<u8>>,
    stream: TcpStream,
}

impl Client {
    fn new(stream: TcpStream) -> std::io::Result<Client> {
        let mut w = stream.try_clone()?;
        let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(BACKLOG);
        std::thread::spawn(move || {
            for chunk in rx {
                // (An empty chunk: close once what came before it is written.)
                if chunk.is_empty() || w.write_all(&chunk).is_err() {
                    break;
                }
            }
            let _ = w.shutdown(Shutdown::Both);
        });
        Ok(Client { tx, stream })
    }

    /// Queues `bytes`; false when the client is gone or has not read for too long (dropped).
    fn send(&self, bytes: Vec<u8>) -> bool {
        match self.tx.try_send(bytes) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                let _ = self.stream.shutdown(Shutdown::Both);
                false
            }
        }
    }

    /// Closes the connection after what was queued before (`quit`'s `+ bye`).
    fn close(&self) {
        if self.tx.try_send(Vec::new()).is_err() {
            let _ = self.stream.shutdown(Shutdown::Both);
        }
    }
}

fn next_id() -> ConnId {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed) as ConnId
}

fn bind(addr: IpAddr, port: u16, what: &str) -> Result<TcpListener> {
    let l = TcpListener::bind(SocketAddr::new(addr, port))
        .with_context(|| format!("cannot listen for the {what} on {addr}:{port}"))?;
    let at = l.local_addr()?;
    // (Tests bind port 0 and read the port from here.)
    eprintln!("pdp1: {what} on {at}");
    Ok(l)
}

/// Port 1040: at most [`debug::MAX_CONNECTIONS`] at once; the next is told so and closed.
fn serve_debug(l: TcpListener, tx: Sender<Msg>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in l.incoming().flatten() {
        if open.load(Ordering::SeqCst) >= debug::MAX_CONNECTIONS {
            let mut s = stream;
            let _ = s.write_all(format!("{}\n", debug::BUSY).as_bytes());
            let _ = s.shutdown(Shutdown::Both);
            continue;
        }
        let (Ok(mut r), Ok(client)) = (stream.try_clone(), Client::new(stream)) else {
            continue;
        };
        let id = next_id();
        open.fetch_add(1, Ordering::SeqCst);
        if tx.send(Msg::DebugOpen(id, client)).is_err() {
            return;
        }
        let (tx, open) = (tx.clone(), open.clone());
        std::thread::spawn(move || {
            let mut framer = Framer::default();
            let mut buf = [0u8; 4096];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                for f in framer.push(&buf[..n]) {
                    if tx.send(Msg::Debug(id, f)).is_err() {
                        return;
                    }
                }
            }
            let _ = tx.send(Msg::DebugClosed(id));
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// Port 1041: every connection gets what is typed; what any sends is struck as keys.
fn serve_typewriter(l: TcpListener, tx: Sender<Msg>) {
    for stream in l.incoming().flatten() {
        let (Ok(mut r), Ok(client)) = (stream.try_clone(), Client::new(stream)) else {
            continue;
        };
        let id = next_id();
        if tx.send(Msg::TypewriterOpen(id, client)).is_err() {
            return;
        }
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 || tx.send(Msg::Keys(buf[..n].to_vec())).is_err() {
                    break;
                }
            }
            let _ = tx.send(Msg::Closed(id));
        });
    }
}

/// Port 3400: every connection gets the points; what a display sends back is its light pen
/// (`pdp1_periph`: the mouse held on the scope).
fn serve_display(l: TcpListener, tx: Sender<Msg>) {
    for stream in l.incoming().flatten() {
        if open_display(stream, &tx).is_err() {
            return;
        }
    }
}

fn open_display(stream: TcpStream, tx: &Sender<Msg>) -> Result<()> {
    let mut r = stream.try_clone()?;
    let client = Client::new(stream)?;
    let id = next_id();
    tx.send(Msg::DisplayOpen(id, client))
        .map_err(|_| anyhow::anyhow!("the machine has stopped"))?;
    let tx = tx.clone();
    std::thread::spawn(move || {
        let mut word = [0u8; 4];
        while r.read_exact(&mut word).is_ok() {
            if let Some(at) = wire::pen(u32::from_le_bytes(word)) {
                if tx.send(Msg::Pen(at)).is_err() {
                    break;
                }
            }
        }
        let _ = tx.send(Msg::Closed(id));
    });
    Ok(())
}

/// The tape directory, the punch's file and the display dial-out, for the protocol.
struct NetHost {
    tape_dir: PathBuf,
    tx: Sender<Msg>,
    /// The file a client put on the punch (`punch NAME`), if any.
    punch: Option<(String, std::fs::File)>,
    /// How many of the run's punched frames have been handed on (to the file or to no one).
    punched: usize,
    /// The window's loudspeaker: `Some(sounding)` where there is one (the window tells,
    /// [`Ports::set_speaker`]), `None` headless.
    speaker: Option<bool>,
    /// A client's `audio on|off` for the window to carry out ([`Ports::take_audio`]).
    audio_asked: Option<bool>,
}

impl NetHost {
    /// `name` under the tape directory. (The protocol has already refused absolute names and
    /// `..`; this is the second lock.)
    fn path(&self, name: &str) -> std::result::Result<PathBuf, String> {
        let rel = Path::new(name);
        if rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err("outside the tape directory".into());
        }
        Ok(self.tape_dir.join(rel))
    }

    /// The frames punched since the last call to the punch's file, if a tape is on it.
    fn punch_frames(&mut self, rc: &mut RunControl) {
        rc.collect_punch();
        let all = rc.punched();
        let new = &all[self.punched.min(all.len())..];
        self.punched = all.len();
        if let Some((name, f)) = &mut self.punch {
            if let Err(e) = f.write_all(new) {
                eprintln!("pdp1: punch {name}: {e}; the tape is off the punch");
                self.punch = None;
            }
        }
    }
}

impl debug::Host for NetHost {
    fn read_tape(&mut self, name: &str) -> std::result::Result<Vec<u8>, String> {
        std::fs::read(self.path(name)?).map_err(|e| e.to_string())
    }

    fn open_punch(&mut self, name: &str) -> std::result::Result<(), String> {
        let f = std::fs::File::create(self.path(name)?).map_err(|e| e.to_string())?;
        self.punch = Some((name.to_string(), f));
        Ok(())
    }

    fn close_punch(&mut self) {
        self.punch = None;
    }

    fn audio(&mut self, on: Option<bool>) -> bool {
        match (self.speaker, on) {
            (Some(_), Some(on)) => {
                self.speaker = Some(on);
                self.audio_asked = Some(on);
                on
            }
            (Some(sounding), None) => sounding,
            (None, _) => false,
        }
    }

    fn dial_display(&mut self, host: &str, port: u16) -> std::result::Result<(), String> {
        let s = TcpStream::connect((host, port)).map_err(|e| e.to_string())?;
        open_display(s, &self.tx).map_err(|e| e.to_string())
    }
}

/// The three ports and their clients, for a driver's loop: [`Ports::poll`] applies what the
/// clients sent, [`Ports::step`] runs the machine (through the debug protocol's goal and
/// checks) and sends them what it did. The headless server and the window both use it.
pub struct Ports {
    rx: Receiver<Msg>,
    host: NetHost,
    dbg: Debugger,
    debug_clients: BTreeMap<ConnId, Client>,
    typewriters: BTreeMap<ConnId, Client>,
    displays: BTreeMap<ConnId, (Client, wire::Encoder)>,
    paper: Paper,
    /// The wall clock's origin for the debug protocol's real-time `pen click`.
    opened: std::time::Instant,
}

impl Ports {
    /// Listens on the three ports (said on stderr).
    pub fn open(opts: &Options) -> Result<Ports> {
        let (tx, rx) = mpsc::channel();
        let l = bind(opts.addr, opts.ports.debug, "debug protocol")?;
        let t = bind(opts.addr, opts.ports.typewriter, "typewriter")?;
        let d = bind(opts.addr, opts.ports.display, "display")?;
        {
            let tx = tx.clone();
            std::thread::spawn(move || serve_debug(l, tx));
        }
        {
            let tx = tx.clone();
            std::thread::spawn(move || serve_typewriter(t, tx));
        }
        {
            let tx = tx.clone();
            std::thread::spawn(move || serve_display(d, tx));
        }
        Ok(Ports {
            rx,
            host: NetHost {
                tape_dir: opts.tape_dir.clone(),
                tx,
                punch: None,
                punched: 0,
                speaker: None,
                audio_asked: None,
            },
            dbg: Debugger::new(),
            debug_clients: BTreeMap::new(),
            typewriters: BTreeMap::new(),
            displays: BTreeMap::new(),
            paper: Paper::new(false),
            opened: std::time::Instant::now(),
        })
    }

    /// The window's loudspeaker, sounding or not (`None`: no loudspeaker), for `audio`.
    pub fn set_speaker(&mut self, sounding: Option<bool>) {
        self.host.speaker = sounding;
    }

    /// A client's `audio on|off` since the last call, for the window to carry out.
    pub fn take_audio(&mut self) -> Option<bool> {
        self.host.audio_asked.take()
    }

    /// A bounded run is under way: the driver should not sleep.
    pub fn busy(&self) -> bool {
        self.dbg.busy()
    }

    /// Applies what the clients sent, waiting up to `wait` for the first message.
    pub fn poll(&mut self, rc: &mut RunControl, wait: Duration) {
        let mut msgs: Vec<Msg> = if wait.is_zero() {
            Vec::new()
        } else {
            self.rx.recv_timeout(wait).into_iter().collect()
        };
        msgs.extend(self.rx.try_iter());
        for msg in msgs {
            match msg {
                Msg::DebugOpen(id, c) => {
                    self.dbg.connect(id);
                    self.debug_clients.insert(id, c);
                }
                Msg::Debug(id, f) => self.dbg.input(rc, &mut self.host, id, f),
                Msg::DebugClosed(id) => {
                    self.dbg.disconnect(rc, id);
                    self.debug_clients.remove(&id);
                }
                Msg::TypewriterOpen(id, c) => {
                    self.typewriters.insert(id, c);
                }
                Msg::Keys(bytes) => {
                    for c in String::from_utf8_lossy(&bytes).chars() {
                        // (Telnet's line ends: CR LF or CR NUL is one carriage return.)
                        match c {
                            '\0' | '\n' => {}
                            '\r' => rc.type_char('\n'),
                            c => rc.type_char(c),
                        }
                    }
                }
                Msg::Closed(id) => {
                    self.typewriters.remove(&id);
                    self.displays.remove(&id);
                }
                Msg::DisplayOpen(id, c) => {
                    self.displays.insert(id, (c, wire::Encoder::default()));
                }
                Msg::Pen(at) => rc.set_light_pen(at),
            }
        }
        self.dbg.settle(rc);
        self.flush();
    }

    /// Runs the machine towards `until` and sends the clients what it did; returns it for
    /// the driver to show too.
    pub fn step(&mut self, rc: &mut RunControl, until: u64) -> Advance {
        self.dbg
            .set_wall_clock(self.opened.elapsed().as_millis() as u64);
        let a = self.dbg.tick(rc, until);
        self.host.punch_frames(rc);
        self.flush();
        if !a.typed.is_empty() {
            let mut text = String::new();
            self.paper.render(&a.typed, &mut text);
            let bytes = text.replace('\n', "\r\n").into_bytes();
            self.typewriters.retain(|_, c| c.send(bytes.clone()));
        }
        if !a.points.is_empty() {
            self.displays.retain(|_, (c, enc)| {
                let mut out = Vec::new();
                enc.encode(&a.points, &mut out);
                c.send(out)
            });
        }
        a
    }

    /// The debug protocol's replies and events to their connections; `quit` closes.
    fn flush(&mut self) {
        for (id, line) in self.dbg.take_output() {
            if let Some(c) = self.debug_clients.get(&id) {
                if !c.send(format!("{line}\n").into_bytes()) {
                    self.debug_clients.remove(&id);
                }
            }
        }
        for id in self.dbg.take_closing() {
            if let Some(c) = self.debug_clients.remove(&id) {
                c.close();
            }
        }
    }
}

/// Serves the machine headless (`--listen --headless`) until the process is killed.
pub fn run(m: Machine, plan: RunPlan, opts: &Options, setup: &Setup) -> Result<End> {
    let mut ports = Ports::open(opts)?;
    let mut rc = RunControl::for_run(plan, setup, true, m);
    // The operator is at the console (the clients): a stop leaves the machine standing.
    rc.unattended = false;
    rc.idle_ends = false;
    // The PiDP-1 keeps real time (its clients' `wait`s and pen clicks are in milliseconds);
    // `--speed` changes the pace, e.g. for tests.
    let speed = setup.speed(Speed::Factor(1.0));
    let start_ns = rc.machine().time_ns();
    let wall = Instant::now();
    let mut last = Instant::now();
    loop {
        // Emulated time follows the wall clock; the loop sleeps on the channel when ahead. At
        // `--speed max` a machine that stands lets time pass as the wall clock does.
        let now = rc.machine().time_ns();
        let since = last.elapsed().as_nanos() as u64;
        last = Instant::now();
        let going = rc.machine().running() || ports.busy();
        let due = match speed {
            Speed::Factor(f) => start_ns + (wall.elapsed().as_secs_f64() * f * 1e9) as u64,
            Speed::Max if going => now + SLICE_NS,
            Speed::Max => now + since.max(1_000_000),
        };
        let wait = match speed {
            Speed::Max if !going => Duration::from_millis(1),
            _ if now >= due => Duration::ZERO,
            _ => Duration::from_nanos((due - now).min(2_000_000)),
        };
        ports.poll(&mut rc, wait);
        // At most one slice at a time, so the clients are heard between slices.
        let now = rc.machine().time_ns();
        let a = ports.step(&mut rc, due.min(now + SLICE_NS).max(now + 1));
        for note in &a.notes {
            eprintln!("pdp1: {note}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdp1_host::debug::Host;

    fn host(speaker: Option<bool>) -> NetHost {
        NetHost {
            tape_dir: PathBuf::new(),
            tx: mpsc::channel().0,
            punch: None,
            punched: 0,
            speaker,
            audio_asked: None,
        }
    }

    /// `audio on|off` is the window's loudspeaker (aap's cli verb turns the emulator's own
    /// sound on and off); headless there is none, so it stays off and nothing is asked.
    #[test]
    fn audio_is_the_windows_loudspeaker() {
        let mut h = host(Some(false));
        assert!(!h.audio(None), "reports the muted speaker");
        assert!(h.audio(Some(true)));
        assert_eq!(h.audio_asked, Some(true), "the window is asked to sound");
        assert!(h.audio(None));
        assert!(!h.audio(Some(false)));
        assert_eq!(h.audio_asked, Some(false));
        let mut headless = host(None);
        assert!(!headless.audio(Some(true)));
        assert_eq!(headless.audio_asked, None);
    }
}
