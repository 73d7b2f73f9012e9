//! The minifb desktop frontend: Type 30 scope, typewriter paper, console panel, debugger pane.
//!
//! Entry point: [`run`]. The picture itself is `draw::render::Screen` (`crate::draw`), a pure
//! function of the machine and its output streams, also used headless for `--screenshot`. The
//! run itself is the run controller's (`crate::run`: it owns the machine, the script, the
//! typist, the limits and the stop rules; the window takes its steps as headless does). This
//! module only connects them to a window: host input turned into the controller's console
//! actions, real-time pacing ([`pacing`]), frame timing and sound.

pub mod controls;
mod fullscreen;
/// Pacing is the library's (issue 26: the web page paces the same way).
pub use pdp1_host::pacing;
pub mod sound;

use crate::draw::{console, render};

use crate::run::{Advance, End, ReadIn, RunControl, Stop};
use crate::setup::Setup;
use anyhow::{anyhow, bail};
use console::{Hit, Key as CKey, SWITCH_COUNT};
use minifb::{InputCallback, Key, MouseButton, MouseMode, Window, WindowOptions};
use pacing::{Pacer, Speed};
use pdp1_core::StopReason;
use render::{Screen, DEFAULT_SIZE};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Frames per second. The phosphor is computed from emulated time, so the frame rate only
/// decides how smooth motion looks; 50 Hz keeps host CPU use low.
pub const FPS: u32 = 50;

/// Characters typed on the host, collected by minifb's input callback.
#[derive(Default)]
struct Typed {
    events: Vec<Input>,
    ctrl: bool,
    alt: bool,
    shift: bool,
}

/// Host input in the order it happened. Keys are taken from minifb's callback rather than by
/// polling once a frame, so a press and release within one frame (a quick tap, or xdotool) are
/// not lost.
#[derive(Clone, Copy, Debug)]
enum Input {
    Char(char),
    /// A key went down (auto-repeat included), with Ctrl and Shift as they were.
    Key(Key, bool, bool),
}

struct Sink(Rc<RefCell<Typed>>);

impl InputCallback for Sink {
    fn add_char(&mut self, c: u32) {
        let mut t = self.0.borrow_mut();
        let Some(c) = char::from_u32(c) else { return };
        // Ctrl/Alt chords are frontend commands, not typing; of the control characters only
        // return, backspace and tab are typewriter keys.
        if t.ctrl || t.alt || (c.is_control() && !matches!(c, '\r' | '\n' | '\u{8}' | '\t')) {
            return;
        }
        t.events.push(Input::Char(if c == '\n' { '\r' } else { c }));
    }
    fn set_key_state(&mut self, key: Key, down: bool) {
        let mut t = self.0.borrow_mut();
        match key {
            Key::LeftCtrl | Key::RightCtrl => t.ctrl = down,
            Key::LeftAlt | Key::RightAlt => t.alt = down,
            Key::LeftShift | Key::RightShift => t.shift = down,
            k if down => {
                let (ctrl, shift) = (t.ctrl, t.shift);
                t.events.push(Input::Key(k, ctrl, shift));
            }
            _ => {}
        }
    }
}

/// Settings the frontend takes from the command line.
pub struct Options {
    pub speed: Speed,
    pub symbols: Option<pdp1_asm::SymbolTable>,
    pub screenshot: Option<PathBuf>,
    pub trace: Option<PathBuf>,
    /// `--save-state` (also where Ctrl+S saves) and `--load-state` (where Ctrl+L loads).
    pub save_state: Option<PathBuf>,
    pub load_state: Option<PathBuf>,
    /// The boot tape's own keys for the help overlay: the lines of `TAPE.help` beside the
    /// tape file (roms/kalah.help), if there is one.
    pub program_help: Vec<String>,
    /// No boot tape and no state to restore: the window says what to do.
    pub no_tape: bool,
    /// The boot tape's file name, for the console's reader.
    pub tape_name: String,
    /// A machine just powered on (no `--load-state`).
    pub fresh: bool,
    /// `--script`'s file name, for the status line.
    pub script_name: Option<String>,
    /// `--mute`.
    pub mute: bool,
    /// `--listen`: the PiDP-1's ports beside the window (issue 30).
    pub listen: Option<crate::listen::Options>,
    /// `--kiosk` (issue 27): the tube first, keys without Ctrl reach only the typewriter, the
    /// tape read in again after [`KIOSK_IDLE`] without a key.
    pub kiosk: bool,
}

/// The lines of the help file beside `tape` (`kalah.rim` → `kalah.help`), none if there is
/// no such file; an unreadable one is an error.
pub fn program_help(tape: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let p = tape.with_extension("help");
    if !p.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&p)
        .map_err(|e| anyhow!("cannot read the tape's help file {}: {e}", p.display()))?;
    Ok(text.lines().map(str::to_owned).collect())
}

/// What the program's help file says space does, as a status line: `space lets the machine
/// move for the side to move` from the line `space  the machine moves for the side to move`.
pub fn space_hint(help: &[String]) -> Option<String> {
    let what = help.iter().find_map(|l| l.strip_prefix("space"))?.trim();
    let what = what.strip_prefix("the machine ")?;
    let (verb, rest) = what.split_once(' ').unwrap_or((what, ""));
    let verb = verb.strip_suffix('s').unwrap_or(verb);
    Some(
        format!("your move is made: space lets the machine {verb} {rest}")
            .trim_end()
            .to_owned(),
    )
}

/// The tape's file name as the console's reader shows it.
pub fn tape_name(tape: Option<&std::path::Path>) -> String {
    crate::tape::file_name_of(tape)
}

/// An unchanged picture is uploaded again after this many frames (half a second).
const KEEPALIVE: u32 = 25;

/// A kiosk reads its tape in again after this long without a key (the next visitor finds the
/// game at its start).
pub const KIOSK_IDLE: Duration = Duration::from_secs(300);

/// How long a status message stays.
const STATUS_KEEP: Duration = Duration::from_secs(10);

/// The status line while the program thinks (issue 27: the tube may be dark meanwhile).
pub const THINKING: &str = "the machine is thinking (a space struck now is not taken as a move)";

/// What the window says when it opens without a tape.
pub const NO_TAPE: &str =
    "no tape: ctrl+O mounts one, then F7 READ IN (or start with a tape: pdp1 roms/kalah.rim); F1 help";

/// Open the window and run `machine` in it until the window is closed or a limit is reached.
pub fn run(
    machine: pdp1_core::Machine,
    plan: crate::run::RunPlan,
    opts: Options,
    setup: &Setup,
) -> anyhow::Result<()> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        bail!("no display (neither DISPLAY nor WAYLAND_DISPLAY is set); use --headless to run without a window");
    }
    // A kiosk fills the screen: the window at the screen's size, borderless, at 0,0, and the
    // window manager asked for full screen (frontend/fullscreen.rs).
    let screen = opts.kiosk.then(fullscreen::screen_size).flatten();
    if opts.kiosk && screen.is_none() {
        eprintln!("{}", fullscreen::NO_SCREEN_SIZE);
    }
    let (w, h) = screen.unwrap_or(DEFAULT_SIZE);
    let mut window = Window::new(
        "PDP-1",
        w,
        h,
        WindowOptions {
            resize: true,
            borderless: screen.is_some(),
            // FitScreen only picks the window's first size (2× the default on a 4K screen); we
            // always draw at the window's real size, 1:1, and re-lay out on resize.
            scale: if screen.is_some() {
                minifb::Scale::X1
            } else {
                minifb::Scale::FitScreen
            },
            scale_mode: minifb::ScaleMode::UpperLeft,
            ..WindowOptions::default()
        },
    )
    .map_err(|e| {
        let on = std::env::var("DISPLAY")
            .map(|d| format!(" on display {d}"))
            .unwrap_or_default();
        anyhow!("cannot open a window{on} ({e}); without a display use --headless")
    })?;
    if screen.is_some() {
        window.set_position(0, 0);
        match fullscreen::ask_full_screen(&window) {
            Ok(true) => {}
            Ok(false) => eprintln!("pdp1: --kiosk: not an X11 window (Wayland): no full screen"),
            Err(e) => eprintln!("pdp1: --kiosk: {e}"),
        }
    }
    // We pace frames ourselves (emulation and drawing share the frame).
    window.set_target_fps(0);
    let typed = Rc::new(RefCell::new(Typed::default()));
    window.set_input_callback(Box::new(Sink(typed.clone())));

    let (w, h) = window.get_size();
    let run = RunControl::for_run(plan, setup, opts.fresh, machine);
    let (script_name, mute) = (opts.script_name.clone(), opts.mute);
    let ports = opts
        .listen
        .as_ref()
        .map(crate::listen::Ports::open)
        .transpose()?;
    let mut app = App::new(opts, run, w, h)?;
    app.ports = ports;
    app.had_script = setup.script.is_some();
    if let Some(p) = script_name {
        // (In place of the no-tape advice: the script mounts its own tapes.)
        app.status(format!("script {p}"));
    }
    app.speaker = Some(sound::Speaker::open(setup, mute));
    if let Some(note) = setup.machine_note() {
        app.status(note);
    }
    let frame = Duration::from_secs(1) / FPS;
    let mut next = Instant::now();
    let mut unchanged = 0;
    while window.is_open() && !app.quit {
        let events = std::mem::take(&mut typed.borrow_mut().events);
        app.input(&window, &events);
        if let Some(p) = app.ports.as_mut() {
            // (What the clients sent, between the window's steps like its own keys. A
            // client's `audio on|off` is Ctrl+U's: the window's loudspeaker.)
            let sp = app.speaker.as_mut().filter(|sp| sp.has_device());
            p.set_speaker(sp.as_ref().map(|sp| !sp.muted));
            p.poll(&mut app.run, Duration::ZERO);
            if let (Some(on), Some(sp)) = (p.take_audio(), sp) {
                sp.muted = !on;
            }
        }
        app.emulate();
        let (ww, wh) = window.get_size();
        app.screen.resize(ww, wh);
        let (bw, bh) = app.screen.size();
        app.screen.render(app.run.machine());
        // minifb uploads the whole window on every update_with_buffer (a copy into its X image
        // and an XPutImage, most of the window's CPU time): only changed frames are uploaded,
        // and at least every KEEPALIVE frames in case the window was uncovered (minifb does not
        // repaint on Expose). Unchanged frames only take the host's input events.
        unchanged += 1;
        if app.screen.dirty() || unchanged >= KEEPALIVE {
            unchanged = 0;
            window
                .update_with_buffer(app.screen.pixels(), bw, bh)
                .map_err(|e| anyhow!("window update failed: {e}"))?;
        } else {
            window.update();
        }
        next += frame;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else {
            next = now;
        }
    }
    app.finish()
}

/// The frontend's state between frames.
pub struct App {
    pub screen: Screen,
    pacer: Pacer,
    start: Instant,
    opts: Options,
    mouse_was_down: bool,
    /// The last key or click (a kiosk's idle time).
    last_input: Instant,
    /// A kiosk's watch for the end of a game (it restarts the tape a minute later).
    game_end: pdp1_host::kiosk::GameEnd,
    /// The left button went down on the scope and is still held: the light pen follows it.
    pen_held: bool,
    /// The operator has just struck a digit (a move, in the Kalah programs): when the program
    /// next waits for a key, the status line says what space does (issue 27).
    after_move: bool,
    /// Where the light pen rests when the mouse does not hold it: `--light-pen` (or the
    /// restored state's pen), else away from the tube.
    pen_rest: Option<(i16, i16)>,
    /// The run controller, the one way into the machine: limits from the start of the run,
    /// `--reader`, `--type`, `--script`, `--continue-halts`, the punched frames, the stop rules,
    /// the end-of-run outputs (shared with headless).
    pub run: RunControl,
    /// A `--script` was given and has not been seen done (for the status line).
    had_script: bool,
    /// Ctrl+O: the path of a tape to mount (or, `goto`, ctrl+J: an address or symbol), being
    /// typed on the status line.
    prompt: Option<String>,
    goto: bool,
    /// When the status line's message was set.
    status_at: Instant,
    quit: bool,
    /// `--listen`: the clients on the PiDP-1's ports share the machine with the window.
    ports: Option<crate::listen::Ports>,
    /// The sound of the program flags (`frontend/sound.rs`); `None` in tests.
    pub speaker: Option<sound::Speaker>,
}

impl App {
    pub fn new(mut opts: Options, mut run: RunControl, w: usize, h: usize) -> anyhow::Result<App> {
        let mut screen = Screen::new(w, h);
        // A run with limits is a scripted run: like a headless one it also ends when the
        // machine stops by itself (otherwise emulated time would never reach the limit).
        run.unattended = run.scripted();
        // The debugger's pane shows the trace lines as they are made.
        run.echo_trace = true;
        if let Some(p) = &opts.trace {
            // The file is the run controller's trace; the pane records what goes into it.
            run.trace(crate::files::trace(p)?);
            screen.view.debugger.tracing = true;
        }
        screen.view.debugger.symbols = opts.symbols.take();
        screen.view.program_help = std::mem::take(&mut opts.program_help);
        screen.view.tape_name = std::mem::take(&mut opts.tape_name);
        if opts.no_tape {
            screen.view.status = NO_TAPE.to_owned();
        }
        screen.view.tube_first = opts.kiosk;
        screen.view.kiosk = opts.kiosk;
        screen.view.extend_switch = run.machine().extend_switch();
        screen.view.speed = opts.speed.label();
        let start = Instant::now();
        let pacer = Pacer::new(opts.speed, Duration::ZERO, run.machine().time_ns());
        let pen_rest = run.machine().light_pen();
        Ok(App {
            screen,
            pacer,
            start,
            opts,
            mouse_was_down: false,
            last_input: Instant::now(),
            game_end: Default::default(),
            pen_held: false,
            after_move: false,
            pen_rest,
            run,
            had_script: false,
            prompt: None,
            goto: false,
            status_at: Instant::now(),
            quit: false,
            ports: None,
            speaker: None,
        })
    }

    fn host_now(&self) -> Duration {
        self.start.elapsed()
    }

    fn status(&mut self, s: impl Into<String>) {
        self.screen.view.status = s.into();
        self.status_at = Instant::now();
    }

    /// A message stays on the status line for `STATUS_KEEP` (issue 17: stale messages
    /// lingered); a prompt being typed and the no-tape guidance stay.
    fn expire_status(&mut self) {
        let v = &mut self.screen.view;
        if self.prompt.is_none()
            && !v.status.is_empty()
            && v.status != NO_TAPE
            && self.status_at.elapsed() >= STATUS_KEEP
        {
            v.status.clear();
        }
    }

    /// Run the machine for this frame's share of time, showing its output as it comes (the
    /// library's frame loop, the page's too: `pacing::run_frame`).
    pub fn emulate(&mut self) {
        let host = self.host_now();
        let mut pacer = self.pacer.clone();
        pacing::run_frame(&mut pacer, self, host);
        self.pacer = pacer;
        self.feed_sound();
        self.expire_status();
        self.show_thinking();
        self.kiosk_restart();
    }

    /// The status line says that the program thinks (running, not ready for the key it has
    /// asked for before), unless it has something else to say; it goes when it is ready.
    ///
    /// After the operator's own move (a digit struck), once the program waits for a key
    /// again, it says what space does there, from the program's help file (`space  the
    /// machine moves for the side to move`): the machine does not answer until asked.
    fn show_thinking(&mut self) {
        let v = &mut self.screen.view;
        if self.run.thinking() {
            if v.status.is_empty() {
                v.status = THINKING.to_owned();
            }
            return;
        } else if v.status == THINKING {
            v.status.clear();
        }
        if self.after_move && self.run.waiting_for_key() {
            self.after_move = false;
            if let Some(hint) = space_hint(&v.program_help) {
                self.status(hint);
            }
        }
    }

    /// One step of the run controller towards `t`, then its output on the screen. False when
    /// the machine stopped or the run ended.
    fn step(&mut self, t: u64) -> bool {
        // (The debugger's trace and write watches are the controller's: it goes one
        // instruction at a time and hands the trace lines to the pane.)
        let a = match self.ports.as_mut() {
            Some(p) => p.step(&mut self.run, t),
            None => self.run.advance(t),
        };
        self.show(&a);
        if let Some(end) = &a.end {
            if !matches!(end, End::TimeLimit | End::InstructionLimit) {
                self.status(end.describe());
            }
            self.quit = true;
            return false;
        }
        a.stop.is_none()
    }

    /// What a step of the run brought: the script's lines and notes, the picture, the
    /// paper, trace lines for the pane, and a stop.
    fn show(&mut self, a: &Advance) {
        for line in &a.script_out {
            println!("{line}");
        }
        let done_now = self.script_done_now();
        if let Some(last) = a.script_out.last() {
            self.status(format!("script: {last}"));
        } else if done_now {
            self.status("script done");
        }
        if let Some(n) = a.notes.last() {
            self.status(n.clone());
        }
        // And on stderr, as headless (issue 27: a status line is soon overwritten).
        for n in &a.notes {
            eprintln!("pdp1: {n}");
        }
        for line in &a.trace {
            self.screen.view.debugger.record_line(line.clone());
        }
        self.screen.view.debugger.traced += a.traced;
        if self.screen.view.tape_name != self.run.tape_in_reader() {
            self.screen.view.tape_name = self.run.tape_in_reader().to_owned();
        }
        // At full speed only the last tenth of a second's points reach the tube
        // (`pdp1_host::draw::render::FULL_SPEED_POINTS_NS`, as in the page).
        self.screen
            .keep_recent_points(self.pacer.speed() == Speed::Max);
        self.screen.feed_display(&a.points);
        self.screen.feed_typewriter(&a.typed);
        if self.opts.kiosk {
            self.game_end
                .observe(&a.typed, self.run.machine().time_ns());
        }
        match a.stop {
            Some(Stop::Machine(r)) => self.stopped(r),
            Some(Stop::Watch(w)) => {
                self.status(format!(
                    "write to {w:04o} (watched, ctrl+K): stopped before pc={:06o}",
                    self.run.machine().pc()
                ));
            }
            None => {}
        }
    }

    /// The script has just done its last action (said once on the status line).
    fn script_done_now(&mut self) -> bool {
        let done = self.had_script && !self.run.script_on();
        if done {
            self.had_script = false;
        }
        done
    }

    /// The machine stopped by itself at `r` (the controller made it stand): say why.
    fn stopped(&mut self, r: StopReason) {
        // The same words as a headless run's end (`run::End`).
        let msg = End::from_stop(r, self.run.machine()).describe();
        self.screen.view.debugger.cursor = None;
        self.status(msg);
    }

    /// The program flags' sound (`frontend/sound.rs`), heard in tune only at 1x.
    fn feed_sound(&mut self) {
        let audible = self.pacer.speed() == Speed::Factor(1.0) && !self.pacer.paused();
        let changes = self.run.drain_flags();
        if let Some(sp) = self.speaker.as_mut() {
            sp.feed(&changes, self.run.machine(), audible);
        }
    }

    /// Move what the machine did outside a step of the run (SINGLE STEP, SINGLE INST, a
    /// state being replaced) to the screen.
    fn collect(&mut self) {
        let a = self.run.drain();
        self.screen.feed_display(&a.points);
        self.screen.feed_typewriter(&a.typed);
        self.feed_sound();
    }

    /// Ctrl+U: sound off / on.
    fn toggle_sound(&mut self) {
        let msg = match self.speaker.as_mut() {
            Some(sp) if sp.has_device() => {
                sp.muted = !sp.muted;
                if sp.muted {
                    "sound off (ctrl+U)"
                } else if self.pacer.speed() == Speed::Factor(1.0) {
                    "sound on"
                } else {
                    "sound on (heard at 1x speed only: F11)"
                }
            }
            _ => "no sound device: running silent",
        };
        self.status(msg);
    }

    /// Write `--screenshot` if asked; called once at the end.
    /// The end-of-run outputs, in the headless runner's order: trace, punch, state,
    /// screenshot, then `--registers` and `--examine` on stderr.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.collect();
        crate::files::write_run_files(&mut self.run)?;
        if let Some(p) = self.opts.screenshot.clone() {
            let png = self.screen.screenshot(self.run.machine())?;
            crate::files::write_png(&png, &p)?;
        }
        crate::files::print_dumps(&self.run);
        Ok(())
    }

    /// Where Ctrl+S saves: `--save-state FILE` or `pdp1-state.ron`.
    fn state_path(&self) -> PathBuf {
        self.opts
            .save_state
            .clone()
            .unwrap_or_else(|| PathBuf::from("pdp1-state.ron"))
    }

    fn save_state(&mut self) {
        let p = self.state_path();
        let msg = match crate::files::save_state(self.run.machine(), &p) {
            Ok(()) => format!("state saved to {}", p.display()),
            Err(e) => format!("{e:#}"),
        };
        self.status(msg);
    }

    /// Ctrl+L: restore `--load-state FILE`, else the Ctrl+S file. A bad file changes nothing.
    fn load_state(&mut self) {
        let p = self
            .opts
            .load_state
            .clone()
            .unwrap_or_else(|| self.state_path());
        match crate::files::load_state(&p) {
            Ok(m) => {
                self.collect();
                // (Limits count from here; the typewriter's case is not known.)
                self.run.restore(m);
                self.pen_rest = self.run.machine().light_pen();
                self.pen_held = false;
                // The console shows the restored machine's switches.
                self.screen.view.extend_switch = self.run.machine().extend_switch();
                self.screen.view.debugger.cursor = None;
                self.pacer
                    .reanchor(self.host_now(), self.run.machine().time_ns());
                self.status(format!("state restored from {}", p.display()));
            }
            Err(e) => self.status(format!("{e:#} (nothing changed)")),
        }
    }

    fn press(&mut self, k: CKey, shift: bool) {
        let host = self.host_now();
        // (Every console key is the run controller's action, as a script's line is.)
        match k {
            CKey::Start => self.run.start(shift),
            CKey::StartSbm => self.run.start(true),
            CKey::Stop => self.run.stop(),
            CKey::Continue => self.run.cont(),
            CKey::Examine => {
                let w = self.run.examine();
                self.screen.view.debugger.mem_addr = self.run.machine().test_address() & !1;
                self.status(self.run.examine_note(w));
            }
            CKey::Deposit => {
                self.run.deposit();
                self.status(self.run.deposit_note());
            }
            CKey::ReadIn => match self.run.read_in() {
                ReadIn::Reading => {}
                ReadIn::Rewound => self.status("tape rewound to its leader and read in again"),
                ReadIn::NoTape => self.status("no tape in the reader: ctrl+O mounts one"),
            },
            CKey::SingleStep => {
                // Say which memory cycle the step took and which comes next (issue 17).
                let (took, a) = self.run.single_step();
                self.after_step(&a);
                if a.stop.is_none() {
                    let m = self.run.machine();
                    self.status(format!(
                        "single step: the {took} cycle (MA {:04o}, MB {:06o}); next: {}, pc={:06o}",
                        m.ma(),
                        m.mb().bits(),
                        m.next_cycle(),
                        m.pc()
                    ));
                }
            }
            CKey::SingleInst => {
                let a = self.run.single_inst();
                self.after_step(&a);
            }
            CKey::Pause => {
                let t = self.run.machine().time_ns();
                self.screen.view.paused = self.pacer.toggle_pause(host, t);
            }
            CKey::Speed => {
                let t = self.run.machine().time_ns();
                self.screen.view.speed = self.pacer.next_speed(host, t).label();
            }
            CKey::Help => self.screen.view.help = !self.screen.view.help,
        }
        self.pacer.reanchor(host, self.run.machine().time_ns());
    }

    /// What SINGLE STEP / SINGLE INST did: the trace line, the paper and the picture, and
    /// where the machine stands.
    fn after_step(&mut self, a: &Advance) {
        self.screen.view.debugger.cursor = None;
        for line in &a.trace {
            self.screen.view.debugger.record_line(line.clone());
        }
        self.screen.view.debugger.traced += a.traced;
        self.screen.feed_display(&a.points);
        self.screen.feed_typewriter(&a.typed);
        match a.stop {
            Some(Stop::Machine(r)) => self.stopped(r),
            _ => {
                let pc = self.run.machine().pc();
                self.status(format!("stepped, pc={pc:06o}"));
            }
        }
        self.feed_sound();
    }

    fn screenshot_now(&mut self) {
        let path = next_free("pdp1-screenshot", "png");
        let shot = self.screen.screenshot(self.run.machine());
        match shot
            .map_err(anyhow::Error::from)
            .and_then(|png| crate::files::write_png(&png, &path))
        {
            Ok(()) => self.status(format!("wrote {}", path.display())),
            Err(e) => self.status(format!("{e:#}")),
        }
    }

    /// Host keyboard and mouse.
    fn input(&mut self, w: &Window, events: &[Input]) {
        self.events(events);
        if self.screen.view.game {
            let ctrl = w.is_key_down(Key::LeftCtrl) || w.is_key_down(Key::RightCtrl);
            let word = if ctrl {
                pdp1_core::Word::ZERO
            } else {
                controls::control_word(|k| w.is_key_down(k))
            };
            self.run.set_control_boxes(word);
        }
        self.mouse(w);
    }

    /// The typed characters and keys, in order.
    fn events(&mut self, events: &[Input]) {
        if !events.is_empty() {
            // Whatever a key did shows at once, not at the running machine's panel rate.
            self.screen.panels_due();
            self.last_input = Instant::now();
            // (A visitor is there: the game just ended stays for them.)
            self.game_end.clear();
        }
        for &e in events {
            if self.prompt.is_some() {
                self.prompt_input(e);
                continue;
            }
            match e {
                // In control-box mode the letter keys steer ships instead of typing.
                Input::Char(_) if self.screen.view.game => {}
                // Keys typed while the boot tape is read in would wait in the buffer and
                // become the program's first key once it starts (issue 17: `3` and space
                // during Kalah's 22-second load played a move): they are not struck.
                Input::Char(_) if !self.run.boot_tape_read() => {
                    self.status("the tape is still being read in: key not struck");
                }
                Input::Char(c) => {
                    let before = self.run.typist().overruns;
                    self.after_move = c.is_ascii_digit();
                    self.run.type_char(c);
                    if self.run.typist().overruns > before {
                        self.status("key overran the typewriter buffer (typed before the program took the last one)");
                    }
                }
                // A kiosk's visitors reach the typewriter only: the console's function keys,
                // the debugger's and the help's keys need Ctrl (issue 27).
                Input::Key(_, false, _) if self.opts.kiosk => {}
                Input::Key(k, ctrl, shift) => self.key(k, ctrl, shift),
            }
        }
    }

    /// A kiosk left alone for [`KIOSK_IDLE`], or for
    /// [`pdp1_host::kiosk::GAME_OVER_PAUSE_NS`] of emulated time
    /// after a game ended (`pdp1_host::kiosk`), reads its tape in again (READ IN rewinds a
    /// tape read to its end) on a fresh sheet of paper, so the next visitor finds the program
    /// at its start (and a day of games leaves no day of paper in memory).
    fn kiosk_restart(&mut self) {
        let over = self.game_end.due(self.run.machine().time_ns());
        if self.opts.kiosk && (over || self.last_input.elapsed() >= KIOSK_IDLE) {
            self.last_input = Instant::now();
            self.game_end.clear();
            self.screen.new_sheet();
            self.press(CKey::ReadIn, false);
        }
    }

    /// A key while ctrl+O asks for a tape's path: typing edits it, Return mounts it, Escape
    /// gives up.
    fn prompt_input(&mut self, e: Input) {
        let Some(path) = self.prompt.as_mut() else {
            return;
        };
        match e {
            Input::Char('\r') => {
                let text = self.prompt.take().unwrap_or_default();
                if self.goto {
                    self.go_to(&text);
                } else {
                    self.mount(std::path::Path::new(text.trim()));
                }
                return;
            }
            Input::Char('\u{8}') | Input::Key(Key::Backspace, ..) => {
                path.pop();
            }
            Input::Char(c) if !c.is_control() => path.push(c),
            Input::Key(Key::Escape, ..) => {
                self.prompt = None;
                self.status(if self.goto { "" } else { "no tape mounted" });
                return;
            }
            _ => {}
        }
        let shown = if self.goto {
            format!("go to address (octal) or symbol, Return: {path}_")
        } else {
            format!("mount tape (Return mounts, Escape gives up): {path}_")
        };
        self.status(shown);
    }

    /// Ctrl+J: the disassembly cursor and the memory view go to the address or symbol typed
    /// (then ctrl+B sets a breakpoint there, ctrl+K a write watch).
    fn go_to(&mut self, text: &str) {
        let mask = (self.run.machine().memory().len() as u32).saturating_sub(1);
        let d = &mut self.screen.view.debugger;
        match d.resolve(text, mask) {
            Some(a) => {
                d.cursor = Some(a);
                d.mem_addr = a & !1;
                self.status(format!("at {a:04o} ({})", text.trim()));
            }
            None => self.status(format!("{}: no such address or symbol", text.trim())),
        }
    }

    /// Put the tape at `path` in the reader: a RIM/BLK tape as the boot tape (READ IN loads
    /// it), any other file as a tape for the program to read. A file that cannot be read
    /// changes nothing.
    fn mount(&mut self, path: &std::path::Path) {
        let name = path.display();
        let msg = match crate::files::boot_tape(path) {
            Ok(t) => {
                let said = self.run.mount_boot(&t, &tape_name(Some(path)));
                // F1 shows the new program's keys (issue 27: only the first tape's were).
                self.screen.view.program_help = program_help(path).unwrap_or_default();
                let mut msg = format!("{name} is in the reader: F7 READ IN loads it");
                for s in said {
                    msg.push_str("; ");
                    msg.push_str(&s);
                }
                msg
            }
            Err(boot) => {
                match crate::files::data_tape(path) {
                    // Not a READ IN image (or truncated): a data tape, unless it cannot be read.
                    Ok(t) if path.is_file() => {
                        self.run.mount_data(&t, &tape_name(Some(path)));
                        format!("{name} is in the reader for the program ({boot:#}: not a READ IN tape)")
                    }
                    Ok(_) => format!("{boot:#} (nothing mounted)"),
                    Err(e) => format!("{e:#} (nothing mounted)"),
                }
            }
        };
        self.status(msg);
    }

    fn key(&mut self, k: Key, ctrl: bool, shift: bool) {
        // The help, taller than the window, scrolls (issue 27).
        if self.screen.view.help && !ctrl {
            let (rows, most) = self.screen.help_rows();
            let page = rows.saturating_sub(1).max(1);
            let v = &mut self.screen.view;
            let to = match k {
                Key::Down => Some(v.help_scroll + 1),
                Key::Up => Some(v.help_scroll.saturating_sub(1)),
                Key::PageDown => Some(v.help_scroll + page),
                Key::PageUp => Some(v.help_scroll.saturating_sub(page)),
                _ => None,
            };
            if let Some(to) = to {
                v.help_scroll = to.min(most);
                return;
            }
        }
        let dbg_focus = self.screen.view.debugger.focus(self.run.machine());
        let mask = (self.run.machine().memory().len() as u32).saturating_sub(1);
        match (k, ctrl) {
            (Key::F1, _) => self.press(CKey::Help, shift),
            (Key::Escape, _) => self.screen.view.help = false,
            (Key::F2, _) => self.press(CKey::Start, shift),
            (Key::F3, _) => self.press(CKey::Stop, shift),
            (Key::F4, _) => self.press(CKey::Continue, shift),
            (Key::F5, _) => self.press(CKey::Examine, shift),
            (Key::F6, _) => self.press(CKey::Deposit, shift),
            (Key::F7, _) => self.press(CKey::ReadIn, shift),
            (Key::F8, _) => self.press(CKey::SingleStep, shift),
            (Key::F9, _) => self.press(CKey::SingleInst, shift),
            (Key::F10, _) => self.press(CKey::Pause, shift),
            (Key::F11, _) => self.press(CKey::Speed, shift),
            (Key::F12, _) => self.screenshot_now(),
            (Key::Q, true) => self.quit = true,
            (Key::S, true) => self.save_state(),
            (Key::F, true) => {
                let v = &mut self.screen.view;
                v.tube_first = !v.tube_first;
                self.status(if self.screen.view.tube_first {
                    "the tube first: console and debugger hidden (ctrl+F brings them back)"
                } else {
                    "console and debugger shown"
                });
            }
            (Key::G, true) => {
                let v = &mut self.screen.view;
                v.game = !v.game;
                let msg = if v.game {
                    "control boxes: A D S W (player 1) and J L K I (player 2) rotate, rotate, thrust, fire"
                } else {
                    "keyboard back on the typewriter"
                };
                if !self.screen.view.game {
                    self.run.set_control_boxes(pdp1_core::Word::ZERO);
                }
                self.status(msg);
            }
            (Key::D, true) => {
                if self.screen.second_display_used() {
                    let v = &mut self.screen.view;
                    v.scopes = v.scopes.next();
                    let msg = match v.scopes {
                        render::Scopes::Both => "both displays",
                        render::Scopes::First => "the first display alone",
                        render::Scopes::Second => "the second display alone",
                    };
                    self.status(msg);
                } else {
                    self.status("the second display has not been used");
                }
            }
            (Key::L, true) => self.load_state(),
            (Key::U, true) => self.toggle_sound(),
            (Key::O, true) => {
                self.prompt = Some(String::new());
                self.goto = false;
                self.status("mount tape (Return mounts, Escape gives up): _");
            }
            (Key::J, true) => {
                self.prompt = Some(String::new());
                self.goto = true;
                self.status("go to address (octal) or symbol, Return: _");
            }
            (Key::K, true) => {
                let on = self.run.toggle_watch(dbg_focus);
                // (The pane lists the controller's watches.)
                self.screen.view.debugger.watches = self.run.watches().clone();
                self.status(format!(
                    "write watch at {dbg_focus:04o} {}",
                    if on { "on" } else { "off" }
                ));
            }
            (Key::Left, true) | (Key::Right, true) => {
                let n = SWITCH_COUNT;
                let c = self.screen.view.switch_cursor.unwrap_or(0);
                self.screen.view.switch_cursor = Some(if k == Key::Left {
                    (c + n - 1) % n
                } else {
                    (c + 1) % n
                });
            }
            (Key::Up, true) | (Key::Down, true) => {
                let c = self.screen.view.switch_cursor.unwrap_or(0);
                self.screen.view.switch_cursor = Some(c);
                let sw = console::switch_at(c);
                if self.switch_is_on(sw) != (k == Key::Up) {
                    self.toggle_switch(sw);
                }
            }
            (Key::B, true) => {
                self.run.toggle_breakpoint(dbg_focus);
            }
            (Key::T, true) => {
                let on = !self.run.tracing();
                self.run.set_tracing(on);
                self.screen.view.debugger.tracing = on;
                let msg = if on { "trace on" } else { "trace off" };
                self.status(msg);
            }
            (Key::W, true) => {
                let path = next_free("pdp1-trace", "txt");
                let r = std::fs::write(&path, self.screen.view.debugger.trace_text());
                self.status(match r {
                    Ok(()) => format!("wrote {}", path.display()),
                    Err(e) => format!("cannot write {}: {e:#}", path.display()),
                });
            }
            (Key::M, true) => self.screen.view.debugger.mem_addr = dbg_focus & !1,
            (Key::Up, false) => {
                self.screen.view.debugger.cursor = Some(dbg_focus.wrapping_sub(1) & mask)
            }
            (Key::Down, false) => {
                self.screen.view.debugger.cursor = Some(dbg_focus.wrapping_add(1) & mask)
            }
            (Key::Home, false) => self.screen.view.debugger.cursor = None,
            (Key::PageUp, false) | (Key::PageDown, false) => {
                let step = if shift { 0o400 } else { 0o20 };
                let d = &mut self.screen.view.debugger;
                d.mem_addr = if k == Key::PageUp {
                    d.mem_addr.wrapping_sub(step)
                } else {
                    d.mem_addr + step
                } & mask;
            }
            (Key::End, false) => self.screen.view.paper_scroll = 0,
            _ => {}
        }
    }

    /// A console switch flipped (a click, or ctrl+arrows): the controller sets it.
    fn toggle_switch(&mut self, sw: console::Switch) {
        self.run.toggle_switch(sw);
        self.screen.view.extend_switch = self.run.machine().extend_switch();
    }

    fn switch_is_on(&self, sw: console::Switch) -> bool {
        match sw {
            console::Switch::TestWord(b) => {
                self.run.machine().test_word().bits() >> (17 - b) & 1 == 1
            }
            console::Switch::Sense(n) => self.run.machine().sense_switches() >> (6 - n) & 1 == 1,
            console::Switch::TestAddress(b) => {
                self.run.machine().test_address() >> (15 - b) & 1 == 1
            }
            console::Switch::Extend => self.screen.view.extend_switch,
        }
    }

    fn mouse(&mut self, w: &Window) {
        let down = w.get_mouse_down(MouseButton::Left);
        let pos = w.get_unscaled_mouse_pos(MouseMode::Discard);
        if down && !self.mouse_was_down {
            self.screen.panels_due();
            if let Some((x, y)) = pos {
                match self.screen.hit(x as i32, y as i32) {
                    Some(Hit::Switch(sw)) => self.toggle_switch(sw),
                    Some(Hit::Key(k)) => self.press(k, false),
                    Some(Hit::Line(a)) => {
                        self.run.toggle_breakpoint(a);
                    }
                    // A press on the scope (and on nothing drawn over it) takes up the
                    // light pen.
                    None => self.pen_held = self.screen.scope_coord(x as i32, y as i32).is_some(),
                }
            }
        }
        // While held the pen follows the mouse over the scope (off the scope it is not
        // at the tube); released, it goes back to where it rests. Sampled once a frame.
        if self.pen_held && !down {
            self.pen_held = false;
            self.run.set_light_pen(self.pen_rest);
        } else if self.pen_held {
            let at = pos.and_then(|(x, y)| self.screen.scope_coord(x as i32, y as i32));
            self.run.set_light_pen(at);
        }
        self.mouse_was_down = down;
        if let (Some((_, dy)), Some((x, y))) = (w.get_scroll_wheel(), pos) {
            let l = self.screen.layout();
            if l.paper.contains(x as i32, y as i32) {
                let lines = self.screen.paper().lines().len();
                let v = &mut self.screen.view;
                let step = (dy.abs().ceil() as usize).max(1) * 3;
                v.paper_scroll = if dy > 0.0 {
                    (v.paper_scroll + step).min(lines.saturating_sub(1))
                } else {
                    v.paper_scroll.saturating_sub(step)
                };
            }
        }
    }
}

/// The window's machine for the library's frame loop.
impl pacing::Frame for App {
    fn running(&self) -> bool {
        self.run.machine().running()
    }
    fn time_ns(&self) -> u64 {
        self.run.machine().time_ns()
    }
    fn clock(&self) -> Duration {
        self.host_now()
    }
    fn step(&mut self, t: u64) -> bool {
        App::step(self, t)
    }
    fn quit(&self) -> bool {
        self.quit
    }
}

/// `stem-N.ext` for the first N that does not exist yet.
fn next_free(stem: &str, ext: &str) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("{stem}-{n}.{ext}")))
        .find(|p| !Path::new(p).exists())
        .expect("some file name is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keyboard::Typist;
    use pdp1_core::machine::status;
    use pdp1_core::{Machine, MachineConfig, Word};

    fn options() -> Options {
        Options {
            speed: Speed::Max,
            symbols: None,
            screenshot: None,
            trace: None,
            save_state: None,
            load_state: None,
            program_help: Vec::new(),
            no_tape: false,
            tape_name: String::new(),
            fresh: true,
            script_name: None,
            mute: false,
            listen: None,
            kiosk: false,
        }
    }

    /// The EXTEND lamp shows the machine's switch: a machine (or restored state) with it on
    /// lights it without `--extend`, and Ctrl+L of a state with it off puts it out (issue 18:
    /// the lamp followed the command line, not the machine).
    #[test]
    fn the_extend_lamp_shows_the_machines_switch() {
        let dir = test_support::scratch("extend-lamp");
        let off = dir.join("off.ron");
        crate::files::save_state(&Machine::new(MachineConfig::default()).unwrap(), &off).unwrap();

        let mut m = Machine::new(MachineConfig::default()).unwrap();
        m.set_extend_switch(true);
        let mut opts = options();
        opts.load_state = Some(off.clone());
        let run = RunControl::new(
            Default::default(),
            crate::tape::Feeder::new(None, &[]),
            Default::default(),
            m,
        );
        let mut app = App::new(opts, run, 800, 600).unwrap();
        assert!(
            app.screen.view.extend_switch,
            "lit for the machine's switch"
        );
        app.load_state();
        assert!(!app.run.machine().extend_switch());
        assert!(
            !app.screen.view.extend_switch,
            "out after restoring a state without it"
        );
    }

    /// Issue 17: F1 shows the program's keys when its tape has a help file beside it (Kalah's
    /// does), and a window opened without a tape says what to do instead of staying blank.
    #[test]
    fn help_shows_the_programs_keys_and_no_tape_says_what_to_do() {
        let kalah = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../roms/kalah.rim");
        let lines = program_help(&kalah).unwrap();
        assert!(lines.iter().any(|l| l.starts_with("1-6")), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("space")), "{lines:?}");
        let run = || {
            RunControl::new(
                Default::default(),
                crate::tape::Feeder::new(None, &[]),
                Default::default(),
                Machine::new(MachineConfig::default()).unwrap(),
            )
        };
        let mut opts = options();
        opts.program_help = lines.clone();
        let app = App::new(opts, run(), 800, 600).unwrap();
        let shown = app.screen.help_lines();
        assert!(
            shown.len() > render::HELP.len() + lines.len(),
            "frontend keys, then the program's"
        );
        assert_eq!(shown[render::HELP.len() + 1], lines[0]);
        assert_ne!(app.screen.view.status, NO_TAPE, "a tape was given");
        // Issue 27: Bell's tape has its help too.
        let bell = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../roms/bell.rim");
        let lines = program_help(&bell).unwrap();
        for key in ["1-6", "space", "p ", "r "] {
            assert!(lines.iter().any(|l| l.starts_with(key)), "{key}: {lines:?}");
        }
        // At 800×480 the help is taller than the window: it scrolls down to the program's
        // last key and back.
        let mut opts = options();
        opts.program_help = lines.clone();
        let mut app = App::new(opts, run(), 800, 480).unwrap();
        app.screen.view.help = true;
        let (rows, most) = app.screen.help_rows();
        let all = app.screen.help_lines().len();
        assert!(rows < all && most > 0, "{rows} of {all}");
        for _ in 0..all {
            app.key(Key::PageDown, false, false);
        }
        assert_eq!(app.screen.view.help_scroll, most);
        assert!(most + rows > all, "the last line is in the window");
        app.screen.screenshot(app.run.machine()).unwrap();
        app.key(Key::Up, false, false);
        assert_eq!(app.screen.view.help_scroll, most - 1);
        // Mounted with ctrl+O on a PDP-1C: its keys in F1's help, its 64K machine, said.
        let mut app = App::new(options(), run(), 800, 600).unwrap();
        app.mount(&bell);
        assert_eq!(app.screen.view.program_help, lines);
        assert_eq!(app.run.machine().config().memory_words, 65536);
        assert!(
            app.screen.view.status.contains("the machine is now"),
            "{}",
            app.screen.view.status
        );
        // No help file beside a tape: only the frontend's keys.
        assert!(program_help(std::path::Path::new("/nonexistent/x.rim"))
            .unwrap()
            .is_empty());
        // No tape at all.
        let mut opts = options();
        opts.no_tape = true;
        let app = App::new(opts, run(), 800, 600).unwrap();
        assert_eq!(app.screen.view.status, NO_TAPE);
        assert_eq!(app.screen.help_lines().len(), render::HELP.len());
    }

    fn app_with(words: &[(u32, u32)]) -> App {
        app_with_run(words, Default::default(), Typist::default())
    }

    /// Issue 17, the debugger: a write watch (ctrl+K) stops the machine after a store into
    /// the address, also one that writes the value already there; ctrl+J goes to an address or
    /// a symbol, where ctrl+B sets a breakpoint; SINGLE STEP says which cycle it took.
    #[test]
    fn write_watches_go_to_a_symbol_and_single_step_names_its_cycle() {
        // 100: law 5 / 101: dac 200 / 102: law 6 / 103: dac 201 / 104: jmp 100; 201 holds 6.
        let prog = [
            (0o100, 0o700005),
            (0o101, 0o240200),
            (0o102, 0o700006),
            (0o103, 0o240201),
            (0o104, 0o600100),
            (0o201, 0o000006),
        ];
        let mut app = app_with(&prog);
        app.run.toggle_watch(0o201);
        app.run.set_test_address(0o100);
        app.run.start(false);
        for _ in 0..50 {
            if !app.run.machine().running() {
                break;
            }
            app.emulate();
        }
        assert!(!app.run.machine().running(), "the watch stopped it");
        assert_eq!(app.run.machine().pc(), 0o104, "right after the dac 201");
        assert!(
            app.screen.view.status.contains("write to 0201"),
            "{}",
            app.screen.view.status
        );

        // ctrl+J to a symbol, then ctrl+B: a breakpoint there.
        app.screen.view.debugger.symbols =
            Some(pdp1_asm::SymbolTable::parse("store 000103 label\n").unwrap());
        let mut ev = vec![Input::Key(Key::J, true, false)];
        ev.extend("store".chars().map(Input::Char));
        ev.push(Input::Char('\r'));
        ev.push(Input::Key(Key::B, true, false));
        app.events(&ev);
        assert_eq!(app.screen.view.debugger.cursor, Some(0o103));
        assert!(app.run.machine().breakpoints().contains(&0o103));
        let mut ev = vec![Input::Key(Key::J, true, false)];
        ev.extend("nowhere".chars().map(Input::Char));
        ev.push(Input::Char('\r'));
        app.events(&ev);
        assert!(
            app.screen.view.status.contains("no such"),
            "{}",
            app.screen.view.status
        );

        // SINGLE STEP at 104 (jmp: fetch only), then at 100 (law), then 101 (dac: fetch, execute).
        app.press(CKey::SingleStep, false);
        app.press(CKey::SingleStep, false);
        assert_eq!(app.run.machine().pc(), 0o101);
        app.press(CKey::SingleStep, false);
        let st = app.screen.view.status.clone();
        assert!(
            st.contains("the fetch cycle") && st.contains("next: execute"),
            "{st}"
        );
        app.press(CKey::SingleStep, false);
        let st = app.screen.view.status.clone();
        assert!(
            st.contains("the execute cycle (MA 0200") && st.contains("next: fetch"),
            "{st}"
        );
    }

    /// A RIM tape file in `dir` that loads `law n` / `hlt` at 100 and starts there.
    fn law_tape(dir: &std::path::Path, n: u32) -> std::path::PathBuf {
        let src = format!(
            "law tape (the first line is the title)\n100/\n\tlaw {n:o}\n\thlt\n\tstart 100\n"
        );
        let a = pdp1_asm::assemble(&src, "t.mac").unwrap();
        let p = dir.join(format!("law{n}.rim"));
        std::fs::write(&p, pdp1_asm::tape::write_rim(&a.image())).unwrap();
        p
    }

    /// Run until the machine stops by itself (at most a few emulated seconds).
    fn run_to_stop(app: &mut App) {
        for _ in 0..2000 {
            app.emulate();
            if !app.run.machine().running() && !app.run.machine().reading_in() {
                return;
            }
        }
        panic!("still running");
    }

    /// A kiosk's window (1000×900) on a machine running `words` from 100.
    fn kiosk_running(words: &[u32]) -> App {
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        for (a, &w) in (0o100..).zip(words) {
            m.write(a, Word::new(w)).unwrap();
        }
        let run = RunControl::new(
            Default::default(),
            crate::tape::Feeder::new(None, &[]),
            Typist::default(),
            m,
        );
        let opts = Options {
            kiosk: true,
            ..options()
        };
        let mut app = App::new(opts, run, 1000, 900).unwrap();
        app.run.set_test_address(0o100);
        app.run.start(false);
        app
    }

    /// Issue 27, the kiosk: the tube first; keys without Ctrl reach the typewriter only (F3
    /// does not stop the machine, Escape and F1 do nothing), Ctrl's still work; left alone
    /// for [`KIOSK_IDLE`] it presses READ IN (here: no tape, so it says so).
    #[test]
    fn a_kiosk_reaches_the_typewriter_only_and_reads_in_again_when_idle() {
        let mut kiosk = kiosk_running(&[0o600100]);
        assert!(kiosk.screen.view.tube_first);
        for k in [Key::F3, Key::F1, Key::F10, Key::F7] {
            kiosk.events(&[Input::Key(k, false, false)]);
        }
        assert!(kiosk.run.machine().running(), "F3 did not stop it");
        assert!(!kiosk.screen.view.help);
        kiosk.emulate();
        assert!(kiosk.screen.view.status.is_empty());
        kiosk.events(&[Input::Key(Key::F, true, false)]);
        assert!(!kiosk.screen.view.tube_first, "ctrl+F still works");
        kiosk.last_input = Instant::now() - KIOSK_IDLE;
        kiosk.emulate();
        assert!(
            kiosk.screen.view.status.contains("no tape in the reader"),
            "{}",
            kiosk.screen.view.status
        );
    }

    /// Issue 27, the kiosk restarts a finished game: a program that types Kalah's last line
    /// (`tie 49-49` and a carriage return) and then idles. Half a minute of emulated time
    /// later the game is still there; past [`pdp1_host::kiosk::GAME_OVER_PAUSE_NS`] the kiosk
    /// presses READ IN (here: no tape, so it says so) on a fresh sheet of paper. A key struck
    /// after the game's end keeps it.
    #[test]
    fn a_kiosk_reads_in_again_a_minute_after_a_game_ends() {
        use pdp1_host::kiosk::GAME_OVER_PAUSE_NS;
        const S: u64 = 1_000_000_000;
        let mut words = Vec::new();
        for c in "tie 49-49\r".chars() {
            let code = match c {
                '\r' => 0o77,
                c => u32::from(pdp1_core::fiodec::from_char(c).unwrap().0),
            };
            // law c, AC and IO exchanged (rcr 9s twice), tyo (waiting for the typewriter).
            words.extend([0o700000 | code, 0o673777, 0o673777, 0o730003]);
        }
        let end = 0o100 + words.len() as u32;
        words.push(0o600000 | end); // jmp . (the program idles, as Kalah waits for a key)
        let kiosk_on = |words: &[u32]| {
            let mut app = kiosk_running(words);
            pacing::run_to(&mut app, 2 * S);
            assert_eq!(app.run.machine().pc(), end, "the game's end is typed");
            app
        };
        let mut kiosk = kiosk_on(&words);
        pacing::run_to(&mut kiosk, 2 * S + GAME_OVER_PAUSE_NS / 2);
        kiosk.kiosk_restart();
        assert!(kiosk.run.machine().running(), "the result stays a while");
        assert!(
            kiosk.screen.paper().lines().len() > 1,
            "the result is on the paper"
        );
        pacing::run_to(&mut kiosk, 2 * S + GAME_OVER_PAUSE_NS);
        kiosk.kiosk_restart();
        assert_eq!(kiosk.screen.paper().lines().len(), 1, "a fresh sheet");
        assert!(
            kiosk.screen.view.status.contains("no tape in the reader"),
            "READ IN pressed: {}",
            kiosk.screen.view.status
        );

        let mut played_on = kiosk_on(&words);
        played_on.events(&[Input::Char('\r')]);
        pacing::run_to(&mut played_on, 2 * S + 2 * GAME_OVER_PAUSE_NS);
        played_on.kiosk_restart();
        assert!(
            played_on.run.machine().running(),
            "a visitor's key keeps it"
        );
        assert!(!played_on.screen.view.status.contains("no tape"));
    }

    fn app_with_run(words: &[(u32, u32)], plan: crate::run::RunPlan, typist: Typist) -> App {
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        for &(a, v) in words {
            m.write(a, Word::new(v)).unwrap();
        }
        let run = RunControl::new(plan, crate::tape::Feeder::new(None, &[]), typist, m);
        App::new(options(), run, 800, 600).unwrap()
    }

    /// Issue 18 (one run controller): the window's typist follows the case the program
    /// printed in, as headless does — after the program typed the upper-case shift, a
    /// lower-case key is preceded by the lower-case shift. (The window's typist never saw
    /// the paper: it struck `a` in upper case.)
    #[test]
    fn the_windows_typist_follows_the_case_the_program_printed() {
        // 100: lio 200 (074, upper case) / 101: tyo / 102: szf i 1 / 103: jmp 102 /
        // 104: tyi / 105: hlt
        let prog = [
            (0o100, 0o220200),
            (0o101, 0o720003),
            (0o102, 0o650001),
            (0o103, 0o600102),
            (0o104, 0o720004),
            (0o105, 0o760400),
            (0o200, 0o74),
        ];
        let typist = Typist::new(crate::keyboard::parse_typed("a").unwrap(), true);
        let mut app = app_with_run(&prog, Default::default(), typist);
        app.run.set_test_address(0o100);
        app.run.start(false);
        run_to_stop(&mut app);
        assert_eq!(app.run.machine().pc(), 0o106, "halted after the key");
        assert_eq!(
            app.run.machine().io().bits() & 0o77,
            0o72,
            "the lower-case shift came first"
        );
    }

    /// Issue 27: after the operator's own move (a digit struck), once the program waits for
    /// a key again, the status line says that space lets the machine answer — from the
    /// program's help file; a space or a letter struck says nothing.
    #[test]
    fn after_the_operators_move_the_status_says_what_space_does() {
        let help = |f: &str| {
            program_help(
                &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../roms")
                    .join(f),
            )
            .unwrap()
        };
        assert_eq!(
            space_hint(&help("kalah.rim")).as_deref(),
            Some("your move is made: space lets the machine move for the side to move")
        );
        assert_eq!(
            space_hint(&help("bell.rim")).as_deref(),
            Some("your move is made: space lets the machine play its whole turn (or opens)")
        );
        assert_eq!(space_hint(&["1-6 pits".to_owned()]), None);
        // 100: szf i 1 / 101: jmp 100 / 102: tyi / 103: jmp 100 (a program that waits for
        // key after key).
        let prog = [
            (0o100, 0o650001),
            (0o101, 0o600100),
            (0o102, 0o720004),
            (0o103, 0o600100),
        ];
        let mut app = app_with_run(&prog, Default::default(), Typist::default());
        app.screen.view.program_help = help("kalah.rim");
        app.run.set_test_address(0o100);
        app.run.start(false);
        let settle = |app: &mut App| {
            for _ in 0..20 {
                app.start = app.start.checked_sub(Duration::from_millis(30)).unwrap();
                app.emulate();
            }
        };
        settle(&mut app);
        assert!(!app.screen.view.status.contains("space lets"));
        app.events(&[Input::Char('3')]);
        settle(&mut app);
        assert!(
            app.screen
                .view
                .status
                .contains("space lets the machine move"),
            "{}",
            app.screen.view.status
        );
        app.screen.view.status.clear();
        app.events(&[Input::Char('a')]);
        settle(&mut app);
        assert!(
            !app.screen.view.status.contains("space lets"),
            "a letter is no move"
        );
    }

    /// Issue 18: while a script waits with the machine standing, time passes in the window
    /// up to the time limit and not beyond, as headless (the window let it run on to the next
    /// frame's host time, so a saved state differed from the headless run's).
    #[test]
    fn a_standing_machine_stops_at_the_time_limit() {
        let plan = crate::run::RunPlan {
            max_ns: Some(50_000_000),
            ..Default::default()
        };
        let mut app = app_with_run(&[], plan, Typist::default());
        app.run.set_script(
            crate::script::Script::parse("wait 1s\n", "t.pdp1", &|p| std::fs::read(p)).unwrap(),
        );
        for _ in 0..100 {
            app.start = app.start.checked_sub(Duration::from_millis(30)).unwrap();
            app.emulate();
            if app.quit {
                break;
            }
        }
        assert!(app.quit, "the limit ends the run");
        assert_eq!(
            app.run.machine().time_ns(),
            50_000_000,
            "{}",
            app.screen.view.status
        );
    }

    /// Issue 18: a window run with limits whose machine is not running ends at once, as a
    /// headless one does ("the machine is not running"); the window let time pass to the
    /// limit.
    #[test]
    fn a_scripted_window_run_of_a_machine_not_running_ends_at_once() {
        let plan = crate::run::RunPlan {
            max_ns: Some(100_000_000_000),
            ..Default::default()
        };
        let mut app = app_with_run(&[], plan, Typist::default());
        app.start = app.start.checked_sub(Duration::from_millis(30)).unwrap();
        app.emulate();
        assert!(app.quit);
        assert_eq!(app.run.machine().time_ns(), 0);
    }

    /// Issue 18: a window run with limits (a scripted run) ends when its script is done with
    /// the machine standing at the script's own STOP, as a headless run does (the window went
    /// on to the time limit).
    #[test]
    fn a_scripted_window_run_ends_when_the_script_stops_the_machine() {
        // 100: hlt / 101: jmp 100
        let plan = crate::run::RunPlan {
            max_ns: Some(100_000_000_000),
            ..Default::default()
        };
        let mut app = app_with_run(
            &[(0o100, 0o760400), (0o101, 0o600100)],
            plan,
            Typist::default(),
        );
        let script = crate::script::Script::parse("wait halt\ncontinue\nstop\n", "t.pdp1", &|p| {
            std::fs::read(p)
        })
        .unwrap();
        app.run.set_script(script);
        app.run.set_test_address(0o100);
        app.run.start(false);
        for _ in 0..50 {
            app.emulate();
            if app.quit {
                break;
            }
        }
        assert!(app.quit, "the run ended");
        assert!(
            app.run.machine().time_ns() < 1_000_000_000,
            "well before the limit"
        );
    }

    /// Issue 17: a status message goes after ten seconds (stale ones lingered), a prompt
    /// being typed stays.
    #[test]
    fn status_messages_expire() {
        let mut app = app_with(&[(0o100, 0o760400)]);
        app.status("wrote pdp1-screenshot-1.png");
        app.emulate();
        assert_eq!(app.screen.view.status, "wrote pdp1-screenshot-1.png");
        app.status_at -= STATUS_KEEP;
        app.emulate();
        assert_eq!(app.screen.view.status, "", "expired");
        app.events(&[Input::Key(Key::J, true, false)]);
        app.status_at -= STATUS_KEEP;
        app.emulate();
        assert!(
            app.screen.view.status.starts_with("go to"),
            "the prompt stays"
        );
    }

    /// Issue 17: READ IN after the tape has been read rewinds it and reads it in again (it said
    /// "tape ran out"); ctrl+O mounts another tape by its path, and a bad path changes nothing.
    #[test]
    fn read_in_again_rewinds_the_tape_and_ctrl_o_mounts_another() {
        let dir = test_support::scratch("read-in-again");
        let five = crate::files::boot_tape(&law_tape(&dir, 5)).unwrap();
        let seven = law_tape(&dir, 7);
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        m.mount_tape(five.frames.clone());
        let run = RunControl::new(
            Default::default(),
            crate::tape::Feeder::new(Some(&five), &[]),
            Default::default(),
            m,
        );
        let mut app = App::new(options(), run, 800, 600).unwrap();
        app.press(CKey::ReadIn, false);
        run_to_stop(&mut app);
        assert_eq!(app.run.machine().ac(), Word::new(5), "loaded and ran");
        // Clobber the program; READ IN again must load it from the rewound tape.
        // (DEPOSIT's own way would need the test word; a script's deposit, then EXAMINE
        // of the clobbered word clears AC.)
        app.run.deposit_at(0o100, Word::ZERO);
        app.run.set_test_address(0o100);
        app.run.examine();
        assert_eq!(app.run.machine().ac(), Word::ZERO);
        app.press(CKey::ReadIn, false);
        assert!(
            app.screen.view.status.contains("rewound"),
            "{}",
            app.screen.view.status
        );
        run_to_stop(&mut app);
        assert_eq!(
            app.run.machine().read(0o100).unwrap(),
            Word::new(0o700005),
            "read in again"
        );
        assert_eq!(app.run.machine().ac(), Word::new(5));

        // ctrl+O, a path that is not there: nothing changes.
        let typed = |app: &mut App, text: &str| {
            let mut ev = vec![Input::Key(Key::O, true, false)];
            ev.extend(text.chars().map(Input::Char));
            ev.push(Input::Char('\r'));
            app.events(&ev);
        };
        typed(&mut app, dir.join("nothing.rim").to_str().unwrap());
        assert!(
            app.screen.view.status.contains("nothing mounted"),
            "{}",
            app.screen.view.status
        );
        // ctrl+O with the other tape, then READ IN.
        typed(&mut app, seven.to_str().unwrap());
        assert!(
            app.screen.view.status.contains("F7 READ IN"),
            "{}",
            app.screen.view.status
        );
        app.press(CKey::ReadIn, false);
        run_to_stop(&mut app);
        assert_eq!(
            app.run.machine().ac(),
            Word::new(7),
            "the mounted tape was read in"
        );
    }

    /// Issue 16: after the machine stops, the picture fades and a character being typed is
    /// finished (it stayed lit for ever: the tube decays on emulated time, which stood still
    /// with the processor). Host time is simulated by moving the app's start back.
    #[test]
    fn a_stopped_machines_picture_fades_and_its_typewriter_finishes() {
        // 100: dpy-i (720007, a point at 0,0) / 101: tyo (no wait, 720003) / 102: hlt
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        for (a, v) in [(0o100, 0o720007), (0o101, 0o720003), (0o102, 0o760400)] {
            m.write(a, Word::new(v)).unwrap();
        }
        m.set_io(Word::new(0o61));
        let run = RunControl::new(
            Default::default(),
            crate::tape::Feeder::new(None, &[]),
            Default::default(),
            m,
        );
        let mut app = App::new(options(), run, 800, 600).unwrap();
        app.run.set_test_address(0o100);
        app.run.start(false);
        for _ in 0..100 {
            if !app.run.machine().running() {
                break;
            }
            app.emulate();
        }
        assert!(!app.run.machine().running(), "halted");
        assert_eq!(
            app.run.machine().status_word().bits() & status::TYPE_OUT,
            0,
            "typing"
        );
        app.screen.render(app.run.machine());
        let lit = app.screen.scope_energy();
        assert!(lit > 0.0, "the point is on the tube");
        let t0 = app.run.machine().time_ns();
        // Two seconds of host time in frames of 20 ms.
        for _ in 0..100 {
            app.start = app.start.checked_sub(Duration::from_millis(20)).unwrap();
            app.emulate();
        }
        assert!(!app.run.machine().running(), "still stopped");
        assert!(
            app.run.machine().time_ns() > t0 + 1_000_000_000,
            "time went on"
        );
        assert_ne!(
            app.run.machine().status_word().bits() & status::TYPE_OUT,
            0,
            "the character was finished"
        );
        app.screen.render(app.run.machine());
        assert!(
            app.screen.scope_energy() < lit / 8.0,
            "faded: {} of {lit}",
            app.screen.scope_energy()
        );
    }

    /// Issue 25: the console's switches and keys in the window are the run controller's
    /// actions — ctrl+arrows set the test word, the test address and EXTEND on the machine
    /// (the lamp follows the machine), F6 DEPOSIT and F5 EXAMINE act at the test address, and
    /// F3 STOP makes the machine stand for the operator until F4 CONTINUE.
    #[test]
    fn the_windows_switches_and_console_keys_are_the_controllers() {
        // 100: jmp 100
        let mut app = app_with(&[(0o100, 0o600100)]);
        let up = |app: &mut App| app.events(&[Input::Key(Key::Up, true, false)]);
        let right = |app: &mut App, n: usize| {
            for _ in 0..n {
                app.events(&[Input::Key(Key::Right, true, false)]);
            }
        };
        // Test word bit 17 (the cursor's first step right from bit 0 is bit 1).
        right(&mut app, 17);
        up(&mut app);
        assert_eq!(app.run.machine().test_word(), Word::new(1));
        // Test address bits 9 and 10 (0100 is bit 9 of 16): cursor 24 + 9.
        right(&mut app, 24 + 9 - 17);
        up(&mut app);
        assert_eq!(app.run.machine().test_address(), 0o100);
        // EXTEND, the last switch: the machine's switch and the lamp.
        right(&mut app, SWITCH_COUNT - 1 - (24 + 9));
        up(&mut app);
        assert!(app.run.machine().extend_switch() && app.screen.view.extend_switch);
        // DEPOSIT the test word at 100, EXAMINE it back.
        app.events(&[Input::Key(Key::F6, false, false)]);
        assert_eq!(app.run.machine().read(0o100).unwrap(), Word::new(1));
        assert!(app.screen.view.status.contains("deposit 000001 at 000100"));
        app.events(&[Input::Key(Key::F5, false, false)]);
        assert!(app.screen.view.status.contains("examine 000100: 000001"));
        // START, STOP: it stands; CONTINUE: it runs again.
        app.run.deposit_at(0o100, Word::new(0o600100));
        app.events(&[Input::Key(Key::F2, false, false)]);
        assert!(app.run.machine().running());
        app.events(&[Input::Key(Key::F3, false, false)]);
        assert!(!app.run.machine().running());
        app.emulate();
        assert!(
            !app.quit && !app.run.machine().running(),
            "stands for the operator"
        );
        app.events(&[Input::Key(Key::F4, false, false)]);
        assert!(app.run.machine().running());
    }
}
