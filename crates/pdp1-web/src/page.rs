//! The machine behind the page: the run controller, the pacer and the `Screen`, driven by the
//! page's script 30 times a second (and back to back at full speed).
// `#[wasm_bindgen]` expands to unsafe glue (pointers across the JS boundary): allowed in this
// module of exported items only; the crate denies unsafe code everywhere else (Cargo.toml).
#![allow(unsafe_code)]

use crate::query::{self, Query};
use crate::tapes;
use pdp1_core::sound::{FlagSynth, SoundConfig};
use pdp1_core::StopReason;
use pdp1_host::config::{Settings, Speed};
use pdp1_host::draw::canvas::Rect;
use pdp1_host::draw::console::{self, Hit, Key as CKey};
use pdp1_host::draw::render::{Screen, DEFAULT_SIZE};
use pdp1_host::library::{self, Use};
use pdp1_host::pacing::{self, Pacer};
use pdp1_host::run::{Advance, ReadIn, RunControl, RunPlan, Stop};
use pdp1_host::setup::Setup;
use pdp1_host::tape::Tape;
use pdp1_host::typeout::Paper;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// A longer stretch of emulated time between two calls for sound is not played (the window's
/// `frontend/sound.rs` rule).
const SOUND_GAP_NS: u64 = 500_000_000;

/// Where the punch's tape goes when the page downloads it (the run controller keeps what was
/// punched for its result file; the page hands the bytes to the browser instead).
const PUNCH_NAME: &str = "punch.tape";

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// The page's clock (ms), for the budget of a frame at full speed.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The host clock in ms: the browser's, or (native tests) the process's.
fn clock_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        performance_now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        static T0: OnceLock<std::time::Instant> = OnceLock::new();
        T0.get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
            * 1e3
    }
}

fn host(ms: f64) -> Duration {
    Duration::from_secs_f64(ms.max(0.0) / 1e3)
}

/// The machine on the page.
#[wasm_bindgen]
pub struct Page {
    run: RunControl,
    screen: Screen,
    pacer: Pacer,
    /// The typewriter's text not yet handed to the page (`#paper`).
    paper: Paper,
    text: String,
    /// The picture as the canvas takes it: RGBA bytes, a word a pixel (wasm32 is
    /// little-endian: 0xAABBGGRR).
    rgba: Vec<u32>,
    /// What the last draw changed (see [`Page::damage`]).
    damage: Rect,
    synth: FlagSynth,
    /// Which flags sound (the synth is made again at the page's sample rate).
    sound_flags: SoundConfig,
    sound: Vec<i16>,
}

#[wasm_bindgen]
impl Page {
    /// A machine for the link `query`, with the tape `name`: `frames` if the page has them (a
    /// file dropped or fetched), else the built-in tape of that name. Without a tape at all,
    /// the machine stands powered on and the page offers its tapes.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str, name: &str, frames: Option<Vec<u8>>) -> Result<Page, String> {
        let q = query::parse(query)?;
        let name = if name.is_empty() {
            q.tape.clone().unwrap_or_default()
        } else {
            name.to_owned()
        };
        let (frames, help) = match (frames, tapes::built_in(&name)) {
            (Some(f), b) => (Some(f), b.map_or("", |b| b.help)),
            (None, Some(b)) => (Some(b.frames.to_vec()), b.help),
            (None, None) if name.is_empty() => (None, ""),
            (None, None) => {
                return Err(format!(
                    "no tape `{name}`: the page has {} built in (or drop a tape file on it)",
                    tapes::names().join(", ")
                ))
            }
        };
        let setup = setup(&q, &name, frames)?;
        let m = setup.build_machine(None).map_err(|e| e.to_string())?;
        let plan = RunPlan {
            continue_halts: setup.continue_halts,
            halt_test_words: setup.halt_test_words.clone(),
            punch: Some(PUNCH_NAME.into()),
            ..RunPlan::default()
        };
        let run = RunControl::for_run(plan, &setup, true, m);
        let (w, h) = DEFAULT_SIZE;
        let mut screen = Screen::new(w, h);
        screen.view.tape_name = setup.tape_name.clone();
        screen.view.program_help = help.lines().map(str::to_owned).collect();
        let speed = setup.speed(Speed::Factor(1.0));
        screen.view.speed = speed.label();
        screen.view.status = match (setup.machine_note(), setup.tape.is_none()) {
            (Some(note), _) => note,
            (None, true) => "no tape: choose one above, or drop a tape file on the page".into(),
            (None, false) => String::new(),
        };
        let m = run.machine();
        let config = match setup.settings.sound_flags {
            Some(flags) => SoundConfig { flags },
            None => SoundConfig::default(),
        };
        let synth = FlagSynth::new(config, 48_000, m.time_ns(), m.pf());
        let pacer = Pacer::new(speed, host(clock_ms()), m.time_ns());
        Ok(Page {
            run,
            screen,
            pacer,
            paper: Paper::new(false),
            text: String::new(),
            rgba: Vec::new(),
            damage: Rect::new(0, 0, 0, 0),
            synth,
            sound_flags: config,
            sound: Vec::new(),
        })
    }

    /// One tick of the page: run the machine as far as the pacing allows ([`Page::run`]), then
    /// draw ([`Page::draw`]). True when the picture changed.
    pub fn frame(&mut self) -> bool {
        self.run();
        self.draw()
    }

    /// Run the machine as far as the pacing allows: to real time (or a multiple), or at full
    /// speed for the pacer's budget of the page's clock (the library's frame loop, the
    /// window's too). At full speed the page calls it back to back ([`Page::flat_out`]).
    pub fn run(&mut self) {
        let now = host(clock_ms());
        let mut pacer = self.pacer.clone();
        pacing::run_frame(&mut pacer, self, now);
        self.pacer = pacer;
    }

    /// The machine runs at full speed (not paused): the page then runs it in back-to-back
    /// tasks rather than once a tick.
    pub fn flat_out(&self) -> bool {
        self.pacer.speed() == Speed::Max && !self.pacer.paused() && self.run.machine().running()
    }

    /// Render, and convert to RGBA what the picture changed ([`Page::damage`]); true when it
    /// changed (the page then copies that rectangle to the canvas). A Kalah board lights a
    /// fifth of the canvas, so converting and copying only that is most of the page's saving
    /// at 1× (docs/web.md, "Figures").
    pub fn draw(&mut self) -> bool {
        self.screen.render(self.run.machine());
        let (w, h) = self.screen.size();
        let fresh = self.rgba.len() != w * h;
        if !self.screen.dirty() && !fresh {
            self.damage = Rect::new(0, 0, 0, 0);
            return false;
        }
        let d = if fresh {
            self.rgba.resize(w * h, 0);
            Rect::new(0, 0, w as i32, h as i32)
        } else {
            self.screen.damage()
        };
        let px = self.screen.pixels();
        let (x0, x1) = (d.x as usize, d.right() as usize);
        for y in d.y as usize..d.bottom() as usize {
            let row = y * w;
            for (o, &p) in self.rgba[row + x0..row + x1]
                .iter_mut()
                .zip(&px[row + x0..row + x1])
            {
                // 0x00RRGGBB → bytes R, G, B, 255 in memory.
                *o = 0xff00_0000 | (p & 0xff) << 16 | (p & 0xff00) | (p >> 16 & 0xff);
            }
        }
        self.damage = d;
        true
    }

    /// The rectangle the last [`Page::draw`] changed: x, y, width, height in canvas pixels.
    pub fn damage(&self) -> Vec<i32> {
        let d = self.damage;
        vec![d.x, d.y, d.w, d.h]
    }

    /// The canvas size changed (CSS pixels times the device's ratio).
    pub fn resize(&mut self, w: usize, h: usize) {
        self.screen.resize(w, h);
    }

    pub fn width(&self) -> usize {
        self.screen.size().0
    }

    pub fn height(&self) -> usize {
        self.screen.size().1
    }

    /// Where the RGBA picture is in the module's memory (`width × height × 4` bytes).
    pub fn pixels(&self) -> *const u8 {
        self.rgba.as_ptr().cast()
    }

    /// The typewriter's text since the last call, as headless prints it (for `#paper`).
    pub fn take_text(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// The status line's message.
    pub fn status(&self) -> String {
        self.screen.view.status.clone()
    }

    /// Emulated instructions executed so far (the page's speed figure).
    pub fn instructions(&self) -> f64 {
        self.run.machine().instructions() as f64
    }

    /// Emulated time so far, seconds.
    pub fn seconds(&self) -> f64 {
        self.run.machine().time_ns() as f64 / 1e9
    }

    /// A key went down (the browser's `KeyboardEvent.key`). True when the machine took it
    /// (the page then keeps the browser from acting on it). The keys are the window's
    /// (docs/frontend.md), less those for files and the debugger the page does not have.
    pub fn key(&mut self, key: &str, ctrl: bool, shift: bool, alt: bool) -> bool {
        self.screen.panels_due();
        if alt || ctrl {
            return false;
        }
        let console = match key {
            "F1" => Some(CKey::Help),
            "F2" if shift => Some(CKey::StartSbm),
            "F2" => Some(CKey::Start),
            "F3" => Some(CKey::Stop),
            "F4" => Some(CKey::Continue),
            "F5" => Some(CKey::Examine),
            "F6" => Some(CKey::Deposit),
            "F7" => Some(CKey::ReadIn),
            "F8" => Some(CKey::SingleStep),
            "F9" => Some(CKey::SingleInst),
            "F10" => Some(CKey::Pause),
            "F11" => Some(CKey::Speed),
            _ => None,
        };
        if let Some(k) = console {
            self.press(k);
            return true;
        }
        let c = match key {
            "Escape" if self.screen.view.help => {
                self.screen.view.help = false;
                return true;
            }
            "Enter" => '\r',
            "Backspace" => '\u{8}',
            "Tab" => '\t',
            k => {
                let mut cs = k.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => c,
                    _ => return false,
                }
            }
        };
        self.run.type_char(c);
        true
    }

    /// A click at canvas pixel (x, y): a console key or switch.
    pub fn click(&mut self, x: i32, y: i32) {
        self.screen.panels_due();
        match self.screen.hit(x, y) {
            Some(Hit::Key(k)) => self.press(k),
            Some(Hit::Switch(sw)) => self.toggle_switch(sw),
            _ => {}
        }
    }

    /// A file for the reader that is not a program tape (a text tape, Bell's memory tape):
    /// the program reads it. An empty file is refused.
    pub fn mount_data(&mut self, name: &str, frames: Vec<u8>) -> Result<(), String> {
        if frames.is_empty() {
            return Err(format!("{name} is empty: no tape"));
        }
        self.run.mount_frames(frames, name);
        self.screen.view.tape_name = self.run.tape_in_reader().to_owned();
        self.screen.view.status = format!("{name} in the reader (for the program to read)");
        Ok(())
    }

    /// What the punch has punched so far (Bell's memory tape), for a download.
    pub fn punched(&mut self) -> Vec<u8> {
        let files = self.run.result_files().unwrap_or_default();
        files
            .into_iter()
            .find_map(|f| match f {
                pdp1_host::run::ResultFile::Punch(_, bytes) => Some(bytes),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The sound since the last call at `rate` samples a second, -1…1 (only at 1×: at other
    /// speeds the square waves would be noise, the window's rule). The page plays it.
    pub fn take_sound(&mut self, rate: u32) -> Vec<f32> {
        let rate = rate.max(1);
        let changes = self.run.drain_flags();
        let m = self.run.machine();
        let now = m.time_ns();
        let from = self.synth.time_ns();
        let audible = self.pacer.speed() == Speed::Factor(1.0) && !self.pacer.paused();
        // Silent, or after a gap (a pause, a tab in the background: the window's half second),
        // the synth starts again from now instead of rendering what nobody hears: at full
        // speed that was seconds of samples every tick, two thirds of the page's time.
        if !audible || now < from || now - from > SOUND_GAP_NS || self.synth.rate() != rate {
            self.synth = FlagSynth::new(self.sound_flags, rate, now, m.pf());
            return Vec::new();
        }
        self.sound.clear();
        self.synth.render(&changes, now, &mut self.sound);
        let full = f32::from(i16::MAX);
        self.sound.iter().map(|&s| f32::from(s) / full).collect()
    }

    /// Whether `frames` is a program tape (RIM or BLK) the page boots as a new machine; any
    /// other file goes in the reader ([`Page::mount_data`]).
    pub fn is_boot_tape(frames: &[u8]) -> bool {
        Tape::boot(frames.to_vec(), "").is_ok()
    }

    /// Names of the built-in tapes, comma-separated (the page's tape buttons).
    pub fn built_in() -> String {
        tapes::names().join(",")
    }
}

impl Page {
    /// One step of the controller; false when the machine stopped.
    fn advance(&mut self, t: u64) -> bool {
        let a = self.run.advance(t);
        self.show(&a);
        a.stop.is_none() && a.end.is_none()
    }

    fn show(&mut self, a: &Advance) {
        if let Some(n) = a.notes.last() {
            self.screen.view.status = n.clone();
        }
        if self.screen.view.tape_name != self.run.tape_in_reader() {
            self.screen.view.tape_name = self.run.tape_in_reader().to_owned();
        }
        // At full speed only the last tenth of a second's points reach the tube
        // (`pdp1_host::draw::render::FULL_SPEED_POINTS_NS`, as in the window).
        self.screen
            .keep_recent_points(self.pacer.speed() == Speed::Max);
        self.screen.feed_display(&a.points);
        self.screen.feed_typewriter(&a.typed);
        self.paper.render(&a.typed, &mut self.text);
        if let Some(end) = &a.end {
            self.screen.view.status = end.describe();
        }
        match a.stop {
            Some(Stop::Machine(StopReason::Halted)) => {
                self.screen.view.status = format!(
                    "halted at pc={:06o} (F4 continues)",
                    self.run.machine().pc()
                );
            }
            Some(Stop::Machine(r)) => {
                self.screen.view.status =
                    pdp1_host::run::End::from_stop(r, self.run.machine()).describe();
            }
            Some(Stop::Watch(_)) | None => {}
        }
    }

    /// A console key (a function key or a click), as the run controller's action.
    fn press(&mut self, k: CKey) {
        let now = host(clock_ms());
        let view = &mut self.screen.view;
        match k {
            CKey::Start => self.run.start(false),
            CKey::StartSbm => self.run.start(true),
            CKey::Stop => self.run.stop(),
            CKey::Continue => self.run.cont(),
            CKey::Examine => {
                let w = self.run.examine();
                view.status = self.run.examine_note(w);
            }
            CKey::Deposit => {
                self.run.deposit();
                view.status = self.run.deposit_note();
            }
            CKey::ReadIn => match self.run.read_in() {
                ReadIn::Reading => {}
                ReadIn::Rewound => {
                    view.status = "tape rewound to its leader and read in again".into()
                }
                ReadIn::NoTape => {
                    view.status = "no tape in the reader: drop one on the page".into()
                }
            },
            CKey::SingleStep => {
                let (took, a) = self.run.single_step();
                self.show(&a);
                self.screen.view.status = format!("single step: the {took} cycle");
            }
            CKey::SingleInst => {
                let a = self.run.single_inst();
                self.show(&a);
            }
            CKey::Pause => {
                view.paused = self.pacer.toggle_pause(now, self.run.machine().time_ns());
            }
            CKey::Speed => {
                view.speed = self
                    .pacer
                    .next_speed(now, self.run.machine().time_ns())
                    .label();
            }
            CKey::Help => view.help = !view.help,
        }
        self.pacer.reanchor(now, self.run.machine().time_ns());
    }

    fn toggle_switch(&mut self, sw: console::Switch) {
        self.run.toggle_switch(sw);
        self.screen.view.extend_switch = self.run.machine().extend_switch();
    }
}

/// The page's machine for the library's frame loop.
impl pacing::Frame for Page {
    fn running(&self) -> bool {
        self.run.machine().running()
    }
    fn time_ns(&self) -> u64 {
        self.run.machine().time_ns()
    }
    fn clock(&self) -> Duration {
        host(clock_ms())
    }
    fn step(&mut self, t: u64) -> bool {
        self.advance(t)
    }
}

/// The set-up for a link and a tape: the settings the link gives over the profile of the
/// tape (recognised as on the desktop), the tape's console steps, the typed keys.
fn setup(q: &Query, name: &str, frames: Option<Vec<u8>>) -> Result<Setup, String> {
    let mut settings = Settings {
        test_word: q.test_word,
        sense_switches: q.sense_switches,
        speed: q.speed,
        ..Settings::default()
    };
    let known = frames.as_deref().and_then(library::recognise);
    let console = match known.map(|k| k.what) {
        Some(Use::Program { console, .. }) => console,
        Some(Use::Other { advice }) => {
            let k = known.expect("recognised");
            return Err(format!(
                "tape {name}: this is {} ({}): {advice}",
                k.title, k.file
            ));
        }
        None => library::Console::default(),
    };
    // The machine from the tape's content, as on the desktop (issue 27: `options.rs`); the
    // known tapes' table gives only their console steps.
    let profile = Some(
        frames
            .as_deref()
            .map_or(library::DEFAULT, |f| library::guess(f).profile),
    );
    if console.extend {
        settings.extend = settings.extend.or(Some(true));
    }
    if let Some(p) = profile {
        p.apply(&mut settings);
    }
    settings.test_word = settings
        .test_word
        .or(console.test_word.map(pdp1_core::Word::new));
    settings.sense_switches = settings.sense_switches.or(console.sense_switches);
    let tape = frames
        .map(|f| Tape::boot(f, name))
        .transpose()
        .map_err(|e| e.to_string())?;
    Ok(Setup {
        settings,
        tape,
        tape_name: name.to_owned(),
        typed: q.typed.clone(),
        halt_test_words: console
            .halt_test_words
            .iter()
            .map(|&w| pdp1_core::Word::new(w))
            .collect(),
        deposit_at: console.deposit,
        start_at: console.start,
        continue_halts: console.continue_halts,
        recognised: known,
        profile,
        ..Setup::default()
    })
}
