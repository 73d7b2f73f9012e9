//! The whole window as one pure picture: scope, console, typewriter paper, debugger, help.
//!
//! [`Screen`] owns everything that is drawn but nothing that talks to the host, so the headless
//! runner can feed it the same point and typewriter streams and write `--screenshot` without a
//! window.

use super::canvas::{cell, rgb, Canvas, Color, Rect};
use super::console::{self, Hit, PanelState};
use super::debugger::Debugger;
use super::paper::Paper;
use super::phosphor::Phosphor;
use pdp1_core::{DisplayPoint, Machine, TypeEvent};

/// Window size when nothing else is known (fits a 1366×768 laptop with decorations, 16:10).
pub const DEFAULT_SIZE: (usize, usize) = (1280, 760);

/// Where the panes are, for a window size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub scope: Rect,
    /// The second display, beside the first, when both are shown.
    pub scope2: Option<Rect>,
    pub console: Rect,
    pub paper: Rect,
    pub debug: Rect,
    /// Ctrl+F: the band under the tube, where the window is squarer than the tube and the
    /// paper beside it allow (1000×900): the status line, or the program's keys (issue 27: it
    /// was left black). Empty in the other layouts.
    pub strip: Rect,
    /// Font scale (1 = 8×8 pixel glyphs).
    pub s: i32,
}

/// Text columns the right-hand column is given before the scope takes the rest.
const RIGHT_COLUMNS: i32 = 66;
/// Height left under the tube from which the paper goes there instead.
const PAPER_UNDER: i32 = 160;
/// The narrowest paper beside the tube in the tube-first layout (Ctrl+F), in columns: the 7-pit
/// program's typed board (`pb7`, SS4) is 27 columns wide, its tabs at every eighth (issue 27:
/// at 1000×900 24 columns lost pit 7).
pub const TUBE_FIRST_PAPER: i32 = 27;
/// The smallest picture the window draws (issue 17: at 400x300 the console's labels
/// overlapped): a smaller window shows its top left part.
pub const MIN_SIZE: (usize, usize) = (720, 440);

/// The paper pane's width that shows `columns` characters (`draw_paper`: the sheet inset 3 and
/// its text 2 more glyph pixels from each side).
fn paper_width(columns: i32, s: i32) -> i32 {
    columns * cell(s).0 + 8 * s
}

/// The characters a paper pane `w` wide shows in a line ([`paper_width`]'s inverse).
pub fn paper_columns(w: i32, s: i32) -> i32 {
    ((w - 8 * s) / cell(s).0).max(0)
}

impl Layout {
    pub fn new(w: usize, h: usize) -> Layout {
        let (w, h) = (w as i32, h as i32);
        // Big screens get doubled glyphs so text keeps its physical size.
        let s = if w >= 2400 && h >= 1400 { 2 } else { 1 };
        let (cw, _) = cell(s);
        let side = h.min(w - RIGHT_COLUMNS * cw).max(200.min(w));
        let rx = side;
        let rw = (w - side).max(0);
        let ch = console::height(s).min(h);
        let rest = (h - ch).max(0);
        // A window taller than the scope is wide (1000x900: a 472x428 empty block under the
        // tube, issue 17): the typewriter paper goes under the tube and the debugger gets
        // the right-hand column below the console.
        if h - side >= PAPER_UNDER {
            return Layout {
                scope: Rect::new(0, 0, side, side),
                scope2: None,
                console: Rect::new(rx, 0, rw, ch),
                paper: Rect::new(0, side, side, h - side),
                debug: Rect::new(rx, ch, rw, rest),
                strip: Rect::default(),
                s,
            };
        }
        let ph = rest * 11 / 20;
        Layout {
            scope: Rect::new(0, 0, side, side.min(h)),
            scope2: None,
            console: Rect::new(rx, 0, rw, ch),
            paper: Rect::new(rx, ch, rw, ph),
            debug: Rect::new(rx, ch + ph, rw, rest - ph),
            strip: Rect::default(),
            s,
        }
    }

    /// Ctrl+F, the tube first (issue 17: a demonstrator's small screen — 800×480 leaves the
    /// normal layout a 272-pixel tube beside the 66-column console): the tube as high as the
    /// window, the typewriter paper in the strip beside it (at least [`TUBE_FIRST_PAPER`]
    /// columns), console and debugger hidden (empty panes at the right edge).
    pub fn tube_first(w: usize, h: usize) -> Layout {
        Layout::tube_over_strip(w, h, 0)
    }

    /// The kiosk's layout (`--kiosk`, issue 27): the tube first, with at least one line of the
    /// strip under it for the program's keys. The strip runs the window's whole width (the
    /// paper beside the tube stops above it), so a help file's keys are not cut at the tube's.
    pub fn kiosk(w: usize, h: usize) -> Layout {
        let s = Layout::new(w, h).s;
        let mut l = Layout::tube_over_strip(w, h, cell(s).1 + 4 * s);
        l.paper.h = l.scope.h;
        l.strip = Rect::new(0, l.scope.h, w as i32, h as i32 - l.scope.h);
        l
    }

    /// [`Layout::tube_first`] with a strip at least `strip` pixels high under the tube.
    fn tube_over_strip(w: usize, h: usize, strip: i32) -> Layout {
        let normal = Layout::new(w, h);
        let (w, h) = (w as i32, h as i32);
        let side = (h - strip)
            .min(w - paper_width(TUBE_FIRST_PAPER, normal.s))
            .max(200.min(w));
        let rw = (w - side).max(0);
        let tube = side.min(h);
        Layout {
            scope: Rect::new(0, 0, side, tube),
            scope2: None,
            console: Rect::new(w, 0, 0, 0),
            paper: Rect::new(side, 0, rw, h),
            debug: Rect::new(w, h, 0, 0),
            strip: Rect::new(0, tube, side, h - tube),
            s: normal.s,
        }
    }

    /// Two scopes side by side, each as large as the space left of the right-hand column
    /// allows (half of it when the window is as wide as the one-scope layout needs), then the
    /// same right-hand column.
    pub fn dual(w: usize, h: usize) -> Layout {
        let single = Layout::new(w, h);
        let (wi, hi) = (w as i32, h as i32);
        let (cw, _) = cell(single.s);
        let side = hi
            .min((wi - RIGHT_COLUMNS * cw) / 2)
            .max(100.min(wi / 2))
            .max(1);
        let rx = 2 * side;
        let rw = (wi - rx).max(0);
        Layout {
            scope: Rect::new(0, 0, side, side.min(hi)),
            scope2: Some(Rect::new(side, 0, side, side.min(hi))),
            console: Rect {
                x: rx,
                w: rw,
                ..single.console
            },
            paper: Rect {
                x: rx,
                w: rw,
                ..single.paper
            },
            debug: Rect {
                x: rx,
                w: rw,
                ..single.debug
            },
            ..single
        }
    }
}

/// Which displays the scope pane shows once the second display has been used (the window's
/// Ctrl+D cycles them; a machine with one display always shows the first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scopes {
    /// Both, side by side.
    #[default]
    Both,
    /// The first display alone, at the full pane size.
    First,
    /// The second display alone, at the full pane size.
    Second,
}

impl Scopes {
    pub fn next(self) -> Scopes {
        match self {
            Scopes::Both => Scopes::First,
            Scopes::First => Scopes::Second,
            Scopes::Second => Scopes::Both,
        }
    }
}

/// What the frontend shows beyond the machine itself.
pub struct View {
    pub help: bool,
    pub speed: String,
    pub paused: bool,
    pub extend_switch: bool,
    /// Keyboard switch cursor (shown once used).
    pub switch_cursor: Option<usize>,
    /// Paper lines scrolled back from the newest.
    pub paper_scroll: usize,
    /// Last event worth telling the operator (stop reason, file written, overrun …).
    pub status: String,
    pub debugger: Debugger,
    /// Ctrl+G: the keyboard works the Spacewar! control boxes instead of the typewriter.
    pub game: bool,
    /// The loaded program's own keys, shown under the frontend's in the help overlay.
    pub program_help: Vec<String>,
    /// The boot tape's file name, for the reader's picture on the console.
    pub tape_name: String,
    /// Which displays are shown once the second one has been used (Ctrl+D).
    pub scopes: Scopes,
    /// Ctrl+F: the tube as large as the window's height, the paper beside it, console and
    /// debugger hidden ([`Layout::tube_first`]).
    pub tube_first: bool,
    /// `--kiosk`: with `tube_first`, a line for the program's keys under the tube.
    pub kiosk: bool,
    /// Help lines scrolled past at the top, where the help is taller than the window (issue
    /// 27: at 800×480 it was cut before the program's keys).
    pub help_scroll: usize,
}

impl Default for View {
    fn default() -> View {
        View {
            help: false,
            game: false,
            program_help: Vec::new(),
            tape_name: String::new(),
            speed: "1x".into(),
            paused: false,
            extend_switch: false,
            switch_cursor: None,
            paper_scroll: 0,
            status: String::new(),
            debugger: Debugger::new(None),
            scopes: Scopes::Both,
            tube_first: false,
            kiosk: false,
            help_scroll: 0,
        }
    }
}

pub struct Screen {
    canvas: Canvas,
    layout: Layout,
    phosphor: Phosphor,
    /// The second display's tube, from its first point on (`DisplayPoint::scope` 1).
    phosphor2: Option<Phosphor>,
    /// When the second display is first used, widen the picture so that each tube keeps the
    /// size the first one had (headless `--screenshot`), instead of halving the tubes inside
    /// the same size (the window, whose size the host decides).
    widen_for_second: bool,
    /// The `scopes` the layout was made for.
    shown: Scopes,
    /// The layout is the tube-first one (the view's `tube_first` when it was laid out).
    shown_tube_first: bool,
    paper: Paper,
    pub view: View,
    /// Mouse targets of the console, the debugger and the help overlay, kept while a pane is
    /// not redrawn.
    console_hits: Vec<(Rect, Hit)>,
    debug_hits: Vec<(Rect, Hit)>,
    help_hits: Vec<(Rect, Hit)>,
    /// Repaint everything next frame (first frame, resize, overlay).
    redraw_all: bool,
    /// Frames rendered (the lamps and the debugger follow a running machine every
    /// [`PANEL_EVERY`]th frame).
    frame: u64,
    /// Repaint the console and the debugger next frame (input, pause, step …).
    panels_due: bool,
    /// Bumped whenever typewriter output arrives.
    paper_version: u64,
    /// (paper_version, paper_scroll) the paper pane shows, if it is up to date.
    paper_shown: Option<(u64, usize)>,
    /// The last frame changed the picture (the window uploads only changed frames).
    dirty: bool,
    /// Where it changed it: the bounding rectangle of the pixels written (the page copies only
    /// these to its canvas).
    damage: Rect,
    /// A hash of the console and debugger panes as last drawn: a repaint that draws the same
    /// pixels (a stopped machine, or lamps that did not change) does not count as a change.
    panels_hash: u64,
    /// At full speed ([`Screen::keep_recent_points`]), the display points since the last
    /// picture, the last [`FULL_SPEED_POINTS_NS`] of them only, fed to the tube when it is
    /// rendered; `None` at a set speed, where every point goes to the tube at once.
    recent: Option<Vec<DisplayPoint>>,
}

/// At full speed the tube is shown only the display points of this much emulated time before
/// each picture (ns). A frame of the host then covers seconds of emulated time, and the
/// phosphor model would splat every point whose afterglow has not gone — seconds of them a
/// picture, most of the host's time (issue 26: munching squares at full speed ran at 5–6
/// million instructions a second in the page, 34–47 million with the cut). A tenth of a second
/// is two refreshes of a picture refreshed at 20 Hz (the Kalah board): the P7's blue-white
/// flash (half-life 50 ms) has faded to a quarter by then and the afterglow a refreshed spot
/// keeps is renewed by the later refresh anyway, so a still picture looks as before; what moves
/// leaves a shorter trail, at a speed where it is a blur (docs/web.md, "How it is made").
pub const FULL_SPEED_POINTS_NS: u64 = 100_000_000;

/// The buffer of [`Screen::recent`] is cut (to the last [`FULL_SPEED_POINTS_NS`] before its
/// newest point) when it grows past this many points, so it stays bounded however long a host
/// runs between pictures.
const RECENT_CUT_AT: usize = 1 << 16;

/// While the machine runs, the console lamps and the debugger are repainted every this many
/// frames (12.5 Hz at 50 frames/s: plenty for lamps and a disassembly that cannot be read at
/// speed anyway); at once after input and whenever the machine is stopped or paused.
pub const PANEL_EVERY: u64 = 4;

const PAPER: Color = rgb(0xf2, 0xee, 0xe0);
const PLATEN: Color = rgb(0x2a, 0x2a, 0x2a);
const INK_BLACK: Color = rgb(0x1c, 0x1c, 0x20);
const INK_RED: Color = rgb(0xc4, 0x22, 0x24);
const BEZEL: Color = rgb(0x10, 0x10, 0x10);
const HELP_BG: Color = rgb(0x0c, 0x10, 0x18);
const HELP_TEXT: Color = rgb(0xe0, 0xe6, 0xee);
const HELP_HEAD: Color = rgb(0xff, 0xd8, 0x82);

/// The key map, shown by the help key and documented in docs/frontend.md.
pub const HELP: &[&str] = &[
    "PDP-1 FRONTEND - KEYS (F1 or the HELP button closes)",
    "",
    "Typing: letters, digits, space, return, backspace, tab and",
    "  the punctuation FIO-DEC has go to the typewriter. Upper-case",
    "  characters send the case-shift code first, as the real keyboard.",
    "  @=middle dot  \\=overline  #=implies  !=or  &=and  ^=up arrow",
    "  `=right arrow  *=times  (SIMH's stand-ins)",
    "",
    "Console:  F2 START   shift+F2 START with sequence break",
    "  F3 STOP   F4 CONTINUE   F5 EXAMINE   F6 DEPOSIT   F7 READ IN",
    "  F8 SINGLE STEP (one memory cycle)   F9 SINGLE INST",
    "  F7 again after the tape was read rewinds it and reads it in",
    "ctrl+O mount a tape: type its path, Return (RIM/BLK: F7 loads",
    "  it; any other file goes in the reader for the program)",
    "  F10 pause/resume the clock   F11 speed 1x,2x,4x,16x,max",
    "  F12 screenshot (pdp1-screenshot-N.png)",
    "Switches: click them, or ctrl+left/right to choose one",
    "  (TW 0-17, SS 1-6, TA 0-15, EXT) and ctrl+up/down to set it",
    "",
    "Debugger: up/down move the disassembly cursor, Home follows PC",
    "  ctrl+B or a click on a line: breakpoint at the cursor",
    "  ctrl+J go to an address or symbol, ctrl+K stop on writes there",
    "  PgUp/PgDn scroll the memory view, ctrl+M memory view at cursor",
    "  ctrl+T trace on/off, ctrl+W write trace to pdp1-trace-N.txt",
    "Light pen: hold the left mouse button on the scope; the pen",
    "  sees points there (cks bit 0, flag 3); release takes it away",
    "Paper: mouse wheel scrolls back, End returns to the carriage",
    "ctrl+S / ctrl+L save / restore the machine state",
    "ctrl+G Spacewar! control boxes: A D S W and J L K I",
    "  (rotate left, rotate right, thrust, fire); ctrl+G again types",
    "ctrl+D second display (once used): both, first, second",
    "ctrl+F the tube first: as high as the window, the paper beside",
    "  it, console and debugger hidden (a small screen); again: back",
    "ctrl+U sound on/off (program flags 1-4; heard at 1x speed)",
    "ctrl+Q or closing the window quits.",
];

impl Screen {
    pub fn new(w: usize, h: usize) -> Screen {
        let (w, h) = (w.max(MIN_SIZE.0), h.max(MIN_SIZE.1));
        let layout = Layout::new(w, h);
        Screen {
            canvas: Canvas::new(w, h),
            phosphor: Phosphor::new(layout.scope.w as usize),
            phosphor2: None,
            widen_for_second: false,
            shown: Scopes::Both,
            shown_tube_first: false,
            layout,
            paper: Paper::new(),
            view: View::default(),
            console_hits: Vec::new(),
            debug_hits: Vec::new(),
            help_hits: Vec::new(),
            redraw_all: true,
            frame: 0,
            panels_due: true,
            paper_version: 0,
            paper_shown: None,
            dirty: true,
            damage: Rect::new(0, 0, 0, 0),
            panels_hash: 0,
            recent: None,
        }
    }

    /// Whether the last [`Screen::render`] changed any pixel the window shows (the window
    /// skips uploading unchanged frames, issue 17's CPU budget).
    pub fn dirty(&self) -> bool {
        self.dirty
    }

    /// The rectangle of the canvas the last [`Screen::render`] changed (empty when it changed
    /// nothing): a host that copies pixels itself copies only these.
    pub fn damage(&self) -> Rect {
        self.damage
    }

    /// The picture as last rendered.
    pub fn pixels(&self) -> &[u32] {
        &self.canvas.px
    }

    pub fn size(&self) -> (usize, usize) {
        (self.canvas.w, self.canvas.h)
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    pub fn resize(&mut self, w: usize, h: usize) {
        let (w, h) = (w.max(MIN_SIZE.0), h.max(MIN_SIZE.1));
        if (w, h) != self.size() && w > 0 && h > 0 {
            self.canvas.resize(w, h);
            self.relayout();
        }
    }

    /// Headless pictures: when the second display is first used, widen the picture by one tube
    /// so both keep the first tube's size (see [`Screen::feed_display`]).
    pub fn widen_for_second_display(&mut self) {
        self.widen_for_second = true;
    }

    /// The second display has plotted something.
    pub fn second_display_used(&self) -> bool {
        self.phosphor2.is_some()
    }

    /// Lay the panes out again for the canvas size and the displays shown; a tube whose pane
    /// changes size starts dark (see `Phosphor::resize`).
    fn relayout(&mut self) {
        let (w, h) = self.size();
        self.shown = self.view.scopes;
        self.shown_tube_first = self.view.tube_first;
        let both = self.phosphor2.is_some() && self.shown == Scopes::Both;
        self.layout = if both {
            Layout::dual(w, h)
        } else if self.view.tube_first && self.view.kiosk {
            Layout::kiosk(w, h)
        } else if self.view.tube_first {
            Layout::tube_first(w, h)
        } else {
            Layout::new(w, h)
        };
        let side = self.layout.scope.w as usize;
        self.phosphor.resize(side);
        if let Some(p) = &mut self.phosphor2 {
            p.resize(side);
        }
        self.redraw_all = true;
    }

    /// Full speed (`on`) or a set speed: at full speed the points fed are kept and only the
    /// last [`FULL_SPEED_POINTS_NS`] before a picture reach the tube, when it is rendered
    /// (the window and the page alike). Leaving full speed feeds what was kept.
    pub fn keep_recent_points(&mut self, on: bool) {
        match (on, self.recent.take()) {
            (true, kept) => self.recent = Some(kept.unwrap_or_default()),
            (false, Some(kept)) => self.feed_now(&kept),
            (false, None) => {}
        }
    }

    /// Points from `Machine::drain_display` (kept for the next picture at full speed: see
    /// [`Screen::keep_recent_points`]).
    pub fn feed_display(&mut self, points: &[DisplayPoint]) {
        let Some(kept) = &mut self.recent else {
            self.feed_now(points);
            return;
        };
        kept.extend_from_slice(points);
        if kept.len() > RECENT_CUT_AT {
            let newest = kept.last().map_or(0, |p| p.time_ns);
            cut_before(kept, newest.saturating_sub(FULL_SPEED_POINTS_NS));
        }
    }

    /// The points kept at full speed that are no older than [`FULL_SPEED_POINTS_NS`] before
    /// `now_ns` go to the tube (the rest would have faded).
    fn feed_recent(&mut self, now_ns: u64) {
        if let Some(mut kept) = self.recent.take() {
            if !kept.is_empty() {
                cut_before(&mut kept, now_ns.saturating_sub(FULL_SPEED_POINTS_NS));
                self.feed_now(&kept);
                kept.clear();
            }
            self.recent = Some(kept);
        }
    }

    /// Points to the tubes now. A machine with one display only sends points for the first;
    /// the first point for the second brings its tube into the picture.
    fn feed_now(&mut self, points: &[DisplayPoint]) {
        if points.iter().all(|p| p.scope == 0) {
            self.phosphor.feed(points);
            return;
        }
        let (first, second): (Vec<DisplayPoint>, Vec<DisplayPoint>) =
            points.iter().partition(|p| p.scope == 0);
        self.phosphor.feed(&first);
        if self.phosphor2.is_none() {
            self.phosphor2 = Some(Phosphor::new(self.layout.scope.w as usize));
            if self.widen_for_second && self.view.scopes == Scopes::Both {
                let (w, h) = self.size();
                let side = self.layout.scope.w as usize;
                self.canvas.resize(w + side, h);
            }
            self.relayout();
        }
        if let Some(p) = &mut self.phosphor2 {
            p.feed(&second);
        }
    }

    /// Events from `Machine::drain_typewriter`.
    pub fn feed_typewriter(&mut self, events: &[TypeEvent]) {
        if !events.is_empty() {
            self.paper.type_events(events);
            self.paper_version += 1;
        }
    }

    /// A fresh sheet in the typewriter (the kiosk's restart, issue 27: the next visitor's game
    /// on clean paper, and a machine running all day keeps no day's worth of paper: each
    /// character struck is a few dozen bytes, up to [`super::paper::MAX_LINES`] lines).
    pub fn new_sheet(&mut self) {
        self.paper = Paper::new();
        self.paper_version += 1;
        self.view.paper_scroll = 0;
    }

    /// Repaint the console and the debugger next frame (something the operator did may have
    /// changed them).
    pub fn panels_due(&mut self) {
        self.panels_due = true;
    }

    pub fn paper(&self) -> &Paper {
        &self.paper
    }

    /// What the mouse would press at (x, y).
    pub fn hit(&self, x: i32, y: i32) -> Option<Hit> {
        self.console_hits
            .iter()
            .chain(&self.debug_hits)
            .chain(&self.help_hits)
            .rev()
            .find(|(r, _)| r.contains(x, y))
            .map(|(_, h)| *h)
    }

    /// The Type 30 coordinates under window pixel (x, y), if it is on the scope (for the
    /// light pen; the same mapping the points are drawn with).
    pub fn scope_coord(&self, x: i32, y: i32) -> Option<(i16, i16)> {
        // The pen is at the first display; when the second is shown alone it is out of reach.
        if self.phosphor2.is_some() && self.shown == Scopes::Second {
            return None;
        }
        let sc = self.layout.scope;
        sc.contains(x, y)
            .then(|| self.phosphor.coord_at(x - sc.x, y - sc.y))
    }

    /// All the energy on the tube (flash and afterglow), as last rendered (the hosts' tests
    /// see a picture fade with it).
    pub fn scope_energy(&self) -> f32 {
        self.phosphor.total_energy()
    }

    /// Draw the current state (the scope as it looks at the machine's emulated time).
    pub fn render(&mut self, m: &Machine) -> &[u32] {
        self.feed_recent(m.time_ns());
        if self.view.scopes != self.shown || self.view.tube_first != self.shown_tube_first {
            self.relayout();
        }
        self.phosphor.advance(m.time_ns());
        if let Some(p) = &mut self.phosphor2 {
            p.advance(m.time_ns());
        }
        self.frame += 1;
        let l = self.layout;
        // The panes cover everything but the bezel below/right of the tube; the tube itself only
        // redraws its lit tiles unless something was drawn over it.
        let all = std::mem::take(&mut self.redraw_all);
        if all {
            let full = Rect::new(0, 0, self.canvas.w as i32, self.canvas.h as i32);
            self.canvas.fill(full, BEZEL);
        }
        let (sx, sy) = (l.scope.x as usize, l.scope.y as usize);
        let due = std::mem::take(&mut self.panels_due);
        // A picture that holds still in extent (the Kalah board being refreshed) is shown at
        // half the frame rate: its flash pulses with the program's refresh anyway, and each
        // frame the window uploads costs a whole-window copy (issue 17: CPU under 5 %).
        let steady = self.phosphor.steady() && self.phosphor2.as_ref().is_none_or(|p| p.steady());
        let scope = all || due || !steady || self.frame.is_multiple_of(2);
        let mut dirty = all;
        let full = Rect::new(0, 0, self.canvas.w as i32, self.canvas.h as i32);
        let mut damage = if all { full } else { Rect::new(0, 0, 0, 0) };
        // What a tube's draw wrote, on the canvas.
        let wrote = |p: &Phosphor, x: usize, y: usize| {
            let (wx, wy, ww, wh) = p.written();
            Rect::new((x + wx) as i32, (y + wy) as i32, ww as i32, wh as i32)
        };
        if scope {
            dirty |= match (&mut self.phosphor2, self.shown, l.scope2) {
                (Some(p2), _, Some(r2)) => {
                    let (x2, y2) = (r2.x as usize, r2.y as usize);
                    let a = self.phosphor.draw(&mut self.canvas, sx, sy, all);
                    let b = p2.draw(&mut self.canvas, x2, y2, all);
                    damage = damage
                        .union(wrote(&self.phosphor, sx, sy))
                        .union(wrote(p2, x2, y2));
                    a || b
                }
                (Some(p2), Scopes::Second, None) => {
                    let b = p2.draw(&mut self.canvas, sx, sy, all);
                    damage = damage.union(wrote(p2, sx, sy));
                    b
                }
                _ => {
                    let a = self.phosphor.draw(&mut self.canvas, sx, sy, all);
                    damage = damage.union(wrote(&self.phosphor, sx, sy));
                    a
                }
            };
        }
        // A running machine changes its lamps every instruction: follow it at a lower rate.
        // Stopped, the panes change only by input (which makes them due) or by the devices
        // finishing (a character typed, a tape line read), shown within PANEL_EVERY frames.
        if all || due || self.frame.is_multiple_of(PANEL_EVERY) {
            let st = PanelState {
                extend_switch: self.view.extend_switch,
                switch_cursor: self.view.switch_cursor,
                speed: &self.view.speed,
                paused: self.view.paused,
                game: self.view.game,
                tape_name: &self.view.tape_name,
            };
            self.console_hits.clear();
            self.debug_hits.clear();
            // (Hidden in the tube-first layout: empty panes.)
            if l.console.h > 0 {
                console::draw(
                    &mut self.canvas,
                    l.console,
                    l.s,
                    m,
                    &st,
                    &mut self.console_hits,
                );
            }
            if l.debug.h > 0 {
                self.view.debugger.draw(
                    &mut self.canvas,
                    l.debug,
                    l.s,
                    m,
                    &self.view.status,
                    &mut self.debug_hits,
                );
            }
            if l.strip.h > 0 {
                self.draw_strip(l.strip, l.s);
            }
            let h = self.canvas.hash(l.console)
                ^ self.canvas.hash(l.debug).rotate_left(1)
                ^ self.canvas.hash(l.strip).rotate_left(2);
            if h != self.panels_hash {
                dirty = true;
                damage = damage.union(l.console).union(l.debug).union(l.strip);
            }
            self.panels_hash = h;
        }
        let paper = (self.paper_version, self.view.paper_scroll);
        if all || self.paper_shown != Some(paper) {
            self.draw_paper(l.paper, l.s);
            self.paper_shown = Some(paper);
            dirty = true;
            damage = damage.union(l.paper);
        }
        self.help_hits.clear();
        if self.view.help {
            self.draw_help();
            self.redraw_all = true;
            dirty = true;
            damage = full;
        }
        self.dirty = dirty;
        // (Panes are clipped to the canvas; a tube's pane may reach past its edge.)
        let d = damage;
        let (x, y) = (d.x.clamp(0, full.w), d.y.clamp(0, full.h));
        self.damage = Rect::new(
            x,
            y,
            (d.right().min(full.w) - x).max(0),
            (d.bottom().min(full.h) - y).max(0),
        );
        &self.canvas.px
    }

    /// Render the picture as a PNG file's bytes.
    pub fn screenshot(&mut self, m: &Machine) -> crate::error::Result<Vec<u8>> {
        // Everything, whatever was skipped in the window's last frames.
        self.redraw_all = true;
        self.render(m);
        self.canvas.png()
    }

    /// The band under the tube (Ctrl+F): the status line, or else the program's keys, on one
    /// line each as far as they fit.
    fn draw_strip(&mut self, r: Rect, s: i32) {
        let (_, lh) = cell(s);
        self.canvas.fill(r, PLATEN);
        let text = if self.view.status.is_empty() {
            // The help file's lines after its title, as one line of words.
            let words = self.view.program_help.iter().skip(1);
            words
                .flat_map(|l| l.split_whitespace())
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            self.view.status.clone()
        };
        let y = r.y + (r.h - lh).max(0) / 2;
        if r.h >= lh {
            self.canvas
                .text_clipped(r.x + 2 * s, y, &text, HELP_TEXT, s, r.right() - 2 * s);
        }
    }

    fn draw_paper(&mut self, r: Rect, s: i32) {
        let (cw, lh) = cell(s);
        let c = &mut self.canvas;
        c.fill(r, PLATEN);
        let sheet = Rect::new(r.x + 3 * s, r.y + 2 * s, r.w - 6 * s, r.h - 4 * s);
        c.fill(sheet, PAPER);
        let rows = ((sheet.h - 4 * s) / lh).max(1) as usize;
        let lines = self.paper.lines();
        let end = lines
            .len()
            .saturating_sub(self.view.paper_scroll.min(lines.len().saturating_sub(1)));
        let start = end.saturating_sub(rows);
        let x0 = sheet.x + 2 * s;
        for (i, line) in lines[start..end].iter().enumerate() {
            let y = sheet.y + 3 * s + i as i32 * lh;
            for (col, cell) in line.iter().enumerate() {
                let x = x0 + col as i32 * cw;
                if x + cw > sheet.right() {
                    break;
                }
                for strike in cell {
                    c.glyph(
                        x,
                        y,
                        strike.ch,
                        if strike.red { INK_RED } else { INK_BLACK },
                        s,
                    );
                }
            }
        }
        // The carriage: a caret under the next print position when at the bottom.
        if self.view.paper_scroll == 0 {
            let (line, col) = self.paper.carriage();
            let i = (line - start) as i32;
            let x = x0 + col as i32 * cw;
            let y = sheet.y + 3 * s + i * lh + lh - 2 * s;
            if x + cw <= sheet.right() {
                c.fill(Rect::new(x, y, cw - s, s), rgb(0x90, 0x90, 0x90));
            }
        } else {
            let t = format!("-- {} lines back (End) --", self.view.paper_scroll);
            c.text_clipped(
                sheet.x + 2 * s,
                sheet.bottom() - lh,
                &t,
                INK_RED,
                s,
                sheet.right(),
            );
        }
    }

    /// The help overlay's lines: the frontend's keys, then the program's (first line a
    /// heading).
    pub fn help_lines(&self) -> Vec<&str> {
        let mut lines: Vec<&str> = HELP.to_vec();
        if !self.view.program_help.is_empty() {
            lines.push("");
            lines.extend(self.view.program_help.iter().map(String::as_str));
        }
        lines
    }

    /// The help lines the window can show at once, and the most they can be scrolled.
    pub fn help_rows(&self) -> (usize, usize) {
        let (_, lh) = cell(self.layout.s);
        let rows = ((self.canvas.h as i32 / lh) - 2).max(1) as usize;
        let all = self.help_lines().len();
        (rows, all.saturating_sub(rows - 1).min(all))
    }

    fn draw_help(&mut self) {
        let s = self.layout.s;
        let (cw, lh) = cell(s);
        let all: Vec<String> = self.help_lines().iter().map(|l| l.to_string()).collect();
        // Taller than the window: a window of lines from `help_scroll`, the last row saying
        // how to see the rest (Up/Down, Page Up/Down).
        let (rows, most) = self.help_rows();
        let from = if all.len() > rows {
            self.view.help_scroll.min(most)
        } else {
            0
        };
        let mut lines: Vec<String> = all.iter().skip(from).take(rows).cloned().collect();
        if all.len() > rows {
            lines.truncate(rows - 1);
            let left = all.len() - from - lines.len();
            lines.push(format!(
                "-- line {} of {}; {left} more: Up/Down, PgUp/PgDn --",
                from + 1,
                all.len()
            ));
        }
        let heads: Vec<usize> = [0, HELP.len() + 1]
            .iter()
            .filter_map(|&i| i.checked_sub(from))
            .collect();
        let w = (lines.iter().map(|l| l.len()).max().unwrap_or(0) as i32 + 4) * cw;
        let h = (lines.len() as i32 + 2) * lh;
        let sc = self.layout.scope;
        let r = Rect::new(
            sc.x + (sc.w - w).max(0) / 2,
            (sc.y + (sc.h - h).max(0) / 2).min((self.canvas.h as i32 - h).max(0)),
            w,
            h,
        );
        self.canvas.fill(r, HELP_BG);
        self.canvas.frame(r, HELP_HEAD);
        for (i, l) in lines.iter().enumerate() {
            let head = heads.contains(&i) && !(i + from > 0 && self.view.program_help.is_empty());
            let col = if head { HELP_HEAD } else { HELP_TEXT };
            self.canvas
                .text(r.x + 2 * cw, r.y + lh + i as i32 * lh, l, col, s);
        }
        self.help_hits.push((r, Hit::Key(console::Key::Help)));
    }
}

/// Drop the points made before `from_ns` (they are in time order, as the machine makes them).
fn cut_before(points: &mut Vec<DisplayPoint>, from_ns: u64) {
    let old = points.partition_point(|p| p.time_ns < from_ns);
    points.drain(..old);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Window sizes from the smallest up, for the layout's tests.
    const WINDOW_SIZES: [(usize, usize); 5] = [
        MIN_SIZE,
        DEFAULT_SIZE,
        (1000, 900),
        (1600, 1000),
        (2400, 1400),
    ];

    /// At full speed the screen keeps for a picture only the display points of the last tenth
    /// of a second before it (older ones would have faded), in a buffer that stays bounded
    /// however many come between pictures; at a set speed every point reaches the tube at once.
    #[test]
    fn at_full_speed_the_tube_gets_the_last_tenth_of_a_second() {
        let at = crate::test_point;
        let now = 30 * FULL_SPEED_POINTS_NS;
        // Two seconds of points, a point every 10 µs, up to a fifth of a second before `now`
        // (the P7's afterglow would still show them: the set-speed case below).
        let old: Vec<DisplayPoint> = (0..200_000u64)
            .map(|i| {
                at(
                    (i % 400) as i16 - 200,
                    now - 2 * FULL_SPEED_POINTS_NS - 10_000 * i,
                )
            })
            .rev()
            .collect();
        // The tube brought to `now` (a picture's `render` does it with the machine's time).
        let lit_at_now = |sc: &mut Screen| {
            sc.phosphor.advance(now);
            sc.phosphor.lit_pixels()
        };
        let mut sc = Screen::new(800, 480);
        sc.keep_recent_points(true);
        for chunk in old.chunks(1000) {
            sc.feed_display(chunk);
        }
        let kept = sc.recent.as_ref().map_or(0, Vec::len);
        assert!(kept <= RECENT_CUT_AT + 1000, "{kept} points kept");
        assert!(kept > 0, "the newest were kept until the picture");
        sc.feed_recent(now);
        assert_eq!(
            sc.recent.as_ref().map(Vec::len),
            Some(0),
            "the picture took them"
        );
        assert_eq!(
            lit_at_now(&mut sc),
            0,
            "older than a tenth: none reached the tube"
        );
        // A point within the tenth reaches the tube with the picture.
        sc.feed_display(&[at(100, now - FULL_SPEED_POINTS_NS / 2)]);
        sc.feed_recent(now);
        assert!(lit_at_now(&mut sc) > 0);
        // At a set speed the old points go to the tube, and so does what full speed kept when
        // the speed is set.
        let last = &old[old.len() - 10..];
        let mut sc = Screen::new(800, 480);
        sc.feed_display(last);
        assert!(lit_at_now(&mut sc) > 0, "still lit a fifth of a second on");
        let mut sc = Screen::new(800, 480);
        sc.keep_recent_points(true);
        sc.feed_display(last);
        sc.keep_recent_points(false);
        assert!(
            lit_at_now(&mut sc) > 0,
            "leaving full speed feeds what was kept"
        );
    }

    #[test]
    fn layout_fits_the_window_without_overlap() {
        for (w, h) in [
            DEFAULT_SIZE,
            (1024, 600),
            (1920, 1080),
            (2560, 1440),
            (3840, 2160),
        ] {
            let l = Layout::new(w, h);
            let (w, h) = (w as i32, h as i32);
            assert_eq!(l.scope.w, l.scope.h, "square tube");
            assert!(l.scope.right() <= l.console.x);
            assert_eq!(l.console.right(), w);
            assert_eq!(l.console.bottom(), l.paper.y);
            assert_eq!(l.paper.bottom(), l.debug.y);
            assert_eq!(l.debug.bottom(), h);
            assert!(l.paper.h > 100 && l.debug.h > 100, "{w}x{h}: {l:?}");
            assert!(l.console.w >= RIGHT_COLUMNS * cell(l.s).0);
        }
    }

    /// Issue 17, a demonstrator's small screen: in the normal layout 800×480 gives the tube
    /// 272 pixels beside the 66-column console; Ctrl+F (the tube first) gives it the window's
    /// height, the paper the strip beside it, and draws no console or debugger (nothing to
    /// click there); Ctrl+F again brings the normal layout back.
    #[test]
    fn the_tube_first_layout_gives_a_small_screen_to_the_tube() {
        for (w, h) in [
            (720, 440),
            (800, 480),
            (1024, 600),
            (1280, 760),
            (1000, 900),
        ] {
            let normal = Layout::new(w, h);
            let l = Layout::tube_first(w, h);
            let (wi, hi) = (w as i32, h as i32);
            assert_eq!(
                l.scope.w,
                hi.min(wi - paper_width(TUBE_FIRST_PAPER, l.s)),
                "{w}x{h}"
            );
            assert!(l.scope.w >= normal.scope.w, "{w}x{h}: {l:?}");
            assert_eq!((l.paper.x, l.paper.y), (l.scope.right(), 0));
            assert_eq!((l.paper.right(), l.paper.bottom()), (wi, hi));
            assert!(
                paper_columns(l.paper.w, l.s) >= TUBE_FIRST_PAPER,
                "{w}x{h}: {l:?}"
            );
            assert_eq!(l.console.w * l.console.h + l.debug.w * l.debug.h, 0);
            // Under the tube the strip, down to the window's bottom (issue 27).
            assert_eq!((l.strip.x, l.strip.y), (0, l.scope.bottom()), "{w}x{h}");
            assert_eq!((l.strip.w, l.strip.bottom()), (l.scope.w, hi), "{w}x{h}");
        }
        assert_eq!(Layout::tube_first(800, 480).scope.w, 480);
        assert_eq!(Layout::new(800, 480).scope.w, 272);

        let m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        let mut sc = Screen::new(800, 480);
        sc.render(&m);
        assert!(
            !sc.console_hits.is_empty(),
            "the normal layout has switches"
        );
        sc.view.tube_first = true;
        sc.render(&m);
        assert_eq!(sc.layout().scope.w, 480);
        assert!(sc.console_hits.is_empty() && sc.debug_hits.is_empty());
        sc.view.tube_first = false;
        sc.render(&m);
        assert_eq!(sc.layout().scope.w, 272);
        assert!(!sc.console_hits.is_empty());
        // The kiosk keeps a line under the tube for the program's keys, even at 800×480.
        let l = Layout::kiosk(800, 480);
        assert!(l.strip.h >= cell(l.s).1 && l.strip.bottom() == 480, "{l:?}");
        assert_eq!(l.scope.w + l.strip.h, 480);
        // ... as wide as the window, under the paper too (which stops above it).
        assert_eq!((l.strip.x, l.strip.w), (0, 800), "{l:?}");
        assert_eq!(l.paper.bottom(), l.strip.y, "{l:?}");
        let mut sc = Screen::new(1024, 600);
        (sc.view.tube_first, sc.view.kiosk) = (true, true);
        sc.view.program_help = vec!["TITLE".into(), "1-6 move that pit ".repeat(20)];
        sc.render(&m);
        let l = sc.layout();
        let y0 = l.strip.y as usize;
        let c = &sc.canvas;
        let inked = (y0..c.h)
            .flat_map(|y| (l.scope.w as usize..c.w).map(move |x| (x, y)))
            .filter(|&(x, y)| c.px[y * c.w + x] == HELP_TEXT)
            .count();
        assert!(inked > 100, "the keys go on past the tube: {inked} pixels");

        // Issue 27, 1000×900: the paper shows the 7-pit typed board's 27 columns, and no
        // black band is left under the tube (no pixel there is the bezel's).
        let mut sc = Screen::new(1000, 900);
        sc.view.tube_first = true;
        sc.view.status = "status".into();
        sc.render(&m);
        let l = sc.layout();
        assert!(l.strip.h > 0, "{l:?}");
        assert!(paper_columns(l.paper.w, l.s) >= 27);
        let c = &sc.canvas;
        for y in l.scope.bottom()..900 {
            let row = &c.px[y as usize * c.w..][..l.scope.w as usize];
            assert!(row.iter().all(|&p| p != BEZEL), "row {y} is the bezel's");
        }
    }

    /// Issue 17: a window taller than the tube is wide puts the paper under the tube instead of
    /// leaving the space empty; every pane stays inside the window and none overlaps another;
    /// below the minimum size the picture keeps the minimum (the window shows its top left).
    #[test]
    fn tall_windows_put_the_paper_under_the_tube_and_small_ones_keep_a_minimum() {
        for (w, h) in [
            (1000, 900),
            (900, 1200),
            (1280, 1024),
            MIN_SIZE,
            DEFAULT_SIZE,
        ] {
            let l = Layout::new(w, h);
            let (wi, hi) = (w as i32, h as i32);
            let panes = [l.scope, l.console, l.paper, l.debug];
            for (i, a) in panes.iter().enumerate() {
                assert!(
                    a.x >= 0 && a.y >= 0 && a.right() <= wi && a.bottom() <= hi,
                    "{w}x{h}: {l:?}"
                );
                for b in &panes[i + 1..] {
                    let apart = a.right() <= b.x
                        || b.right() <= a.x
                        || a.bottom() <= b.y
                        || b.bottom() <= a.y;
                    assert!(apart, "{w}x{h}: {a:?} overlaps {b:?}");
                }
            }
            // Nothing left empty under the tube but a strip.
            let covered = l.paper.y == l.scope.bottom() || hi - l.scope.bottom() < PAPER_UNDER;
            assert!(covered, "{w}x{h}: {l:?}");
        }
        let l = Layout::new(1000, 900);
        assert_eq!((l.paper.y, l.paper.w), (l.scope.bottom(), l.scope.w));
        assert!(
            l.debug.h > 500,
            "the debugger takes the right-hand column: {l:?}"
        );
        assert_eq!(Screen::new(400, 300).size(), MIN_SIZE);
        let mut sc = Screen::new(1280, 760);
        sc.resize(300, 200);
        assert_eq!(sc.size(), MIN_SIZE);
    }

    #[test]
    fn dual_layout_puts_two_square_tubes_left_of_the_same_column() {
        for (w, h) in [
            DEFAULT_SIZE,
            (2032, 760),
            (1920, 1080),
            (2560, 1520),
            (300, 200),
        ] {
            let l = Layout::dual(w, h);
            let r2 = l.scope2.expect("second tube");
            assert_eq!((l.scope.w, l.scope.h), (r2.w, r2.h), "{w}x{h}: {l:?}");
            assert_eq!(l.scope.right(), r2.x);
            assert!(r2.right() <= l.console.x, "{w}x{h}: {l:?}");
            assert_eq!(l.console.right(), w as i32);
            assert_eq!(l.debug.bottom(), h as i32);
        }
        // Wide enough, each tube is as large as the one tube of the single layout.
        assert_eq!(
            Layout::dual(2032, 760).scope,
            Layout::new(DEFAULT_SIZE.0, DEFAULT_SIZE.1).scope
        );
    }

    fn point(scope: u8) -> DisplayPoint {
        DisplayPoint {
            x: 10,
            y: -10,
            x_minus_zero: false,
            y_minus_zero: false,
            intensity: 3,
            scope,
            time_ns: 0,
        }
    }

    #[test]
    fn the_second_tube_appears_with_its_first_point() {
        let (w, h) = DEFAULT_SIZE;
        let one = Layout::new(w, h);
        for widen in [false, true] {
            let mut sc = Screen::new(w, h);
            if widen {
                sc.widen_for_second_display();
            }
            sc.feed_display(&[point(0), point(0)]);
            assert_eq!(sc.layout(), one, "first-display points change nothing");
            assert!(!sc.second_display_used());
            sc.feed_display(&[point(0), point(1)]);
            assert!(sc.second_display_used());
            let l = sc.layout();
            assert!(l.scope2.is_some());
            if widen {
                // Headless: the picture grows by one tube, each keeps the single layout's size.
                assert_eq!(sc.size(), (w + one.scope.w as usize, h));
                assert_eq!(l.scope, one.scope);
            } else {
                // The window keeps its size; the tubes share the space.
                assert_eq!(sc.size(), (w, h));
                assert!(l.scope.w < one.scope.w);
            }
            // Ctrl+D's views: one tube at the full size, then both again.
            let m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
            sc.view.scopes = Scopes::Second;
            sc.render(&m);
            assert_eq!(sc.layout().scope2, None);
            assert_eq!(
                sc.scope_coord(10, 10),
                None,
                "the pen is on the first display"
            );
            sc.view.scopes = Scopes::Both;
            sc.render(&m);
            assert!(sc.layout().scope2.is_some());
        }
    }

    #[test]
    fn clicks_and_screenshots_see_the_panels_on_frames_that_skip_them() {
        let mut m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        m.cont(); // running: the panels repaint only every PANEL_EVERY-th frame
        let (w, h) = DEFAULT_SIZE;
        let mut sc = Screen::new(w, h);
        sc.render(&m); // the first frame draws everything
        let (r, hit) = sc.console_hits[0];
        let (x, y) = (r.x + r.w / 2, r.y + r.h / 2);
        let panes = sc.layout.console;
        let pixels = |sc: &Screen| -> Vec<u32> {
            (panes.y..panes.bottom())
                .flat_map(|y| (panes.x..panes.right()).map(move |x| (x, y)))
                .map(|(x, y)| sc.canvas.px[y as usize * sc.canvas.w + x as usize])
                .collect()
        };
        let first = pixels(&sc);
        // Change what the lamps show; frames that skip the panels keep the old picture and
        // the old hit boxes, the next due frame (or a screenshot) shows the new state.
        m.set_ac(pdp1_core::Word::new(0o777_777));
        for _ in 1..PANEL_EVERY {
            sc.render(&m);
            assert_eq!(sc.hit(x, y), Some(hit), "hit box kept on a skipped frame");
            if !sc.frame.is_multiple_of(PANEL_EVERY) {
                assert_eq!(pixels(&sc), first, "panel not repainted on a skipped frame");
            }
        }
        sc.panels_due();
        sc.render(&m);
        assert_ne!(
            pixels(&sc),
            first,
            "input makes the next frame repaint the panels"
        );
        assert_eq!(sc.hit(x, y), Some(hit));
    }

    #[test]
    fn any_window_size_renders_without_panicking() {
        let m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        for (w, h) in [
            (1, 1),
            (17, 9),
            (200, 700),
            (700, 200),
            (529, 300),
            (1280, 760),
        ] {
            let mut sc = Screen::new(w, h);
            sc.view.help = true;
            sc.view.debugger.tracing = true;
            sc.feed_typewriter(&[pdp1_core::TypeEvent {
                code: 0o61,
                upper: false,
                red: true,
                local: true,
                time_ns: 0,
            }]);
            let px = sc.render(&m);
            // Below the minimum the picture keeps the minimum size (the window crops it).
            assert_eq!(px.len(), w.max(MIN_SIZE.0) * h.max(MIN_SIZE.1));
        }
    }

    /// Issue 17: the switches were 3×5 px. At every size each of the 41 switches has a box of
    /// at least 10×18 px (scaled with the font) inside the console pane, its centre clicks that
    /// switch and no other, and no two boxes overlap.
    #[test]
    fn switches_are_big_enough_to_click_at_every_size() {
        let m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        for (w, h) in WINDOW_SIZES {
            let mut sc = Screen::new(w, h);
            sc.render(&m);
            let l = sc.layout();
            let boxes: Vec<(Rect, console::Switch)> = sc
                .console_hits
                .iter()
                .filter_map(|&(r, hit)| match hit {
                    Hit::Switch(sw) => Some((r, sw)),
                    _ => None,
                })
                .collect();
            assert_eq!(boxes.len(), console::SWITCH_COUNT, "{w}x{h}");
            for (i, &(r, sw)) in boxes.iter().enumerate() {
                assert!(r.w >= 10 * l.s && r.h >= 18 * l.s, "{w}x{h}: {sw:?} {r:?}");
                let c = l.console;
                assert!(
                    r.x >= c.x && r.y >= c.y && r.right() <= c.right() && r.bottom() <= c.bottom(),
                    "{w}x{h}: {sw:?} {r:?} outside the console {c:?}"
                );
                assert_eq!(
                    sc.hit(r.x + r.w / 2, r.y + r.h / 2),
                    Some(Hit::Switch(sw)),
                    "{w}x{h}"
                );
                for &(q, other) in &boxes[i + 1..] {
                    let apart = r.right() <= q.x
                        || q.right() <= r.x
                        || r.bottom() <= q.y
                        || q.bottom() <= r.y;
                    assert!(apart, "{w}x{h}: {sw:?} {r:?} overlaps {other:?} {q:?}");
                }
            }
        }
    }

    /// Issue 17: the function-key hints stay visible at every size: each console key shows its
    /// function key whole (with its name, or a short name, when there is room), and the text
    /// fits its button.
    #[test]
    fn function_keys_show_at_every_size() {
        for (w, h) in WINDOW_SIZES.into_iter().chain([(3840, 2160)]) {
            let l = Layout::new(w, h);
            let room = console::key_room(l.console.w, l.s);
            for k in console::KEYS.iter().flatten() {
                let (name, short, fkey) = k.label();
                let t = k.text(room);
                assert!(t.len() <= room, "{w}x{h}: {t:?} in {room} characters");
                assert!(t.ends_with(fkey), "{w}x{h}: {k:?} shows {t:?}");
                assert!(
                    t == fkey || t.starts_with(name) || t.starts_with(short),
                    "{w}x{h}: {t:?}"
                );
            }
            // At the default size every key keeps a name beside its function key.
            if (w, h) == DEFAULT_SIZE {
                assert!(console::KEYS
                    .iter()
                    .flatten()
                    .all(|k| k.text(room).contains(' ')));
            }
        }
    }

    /// Issue 17 (CPU): the window uploads only frames that changed. A stopped machine with a dark
    /// tube changes nothing; a lamp that changes shows on the next panel frame; a picture that
    /// holds still (the same spot refreshed) is drawn every other frame, a moving one every frame.
    #[test]
    fn only_changed_frames_are_dirty() {
        const FRAME: u64 = 20_000_000;
        let mut m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        let mut sc = Screen::new(1280, 760);
        sc.render(&m);
        assert!(sc.dirty(), "the first frame");
        for i in 0..2 * PANEL_EVERY {
            sc.render(&m);
            assert!(!sc.dirty(), "frame {i}: nothing changed");
        }
        m.set_ac(pdp1_core::Word::new(0o777_777));
        let lamps = (0..PANEL_EVERY).filter(|_| {
            sc.render(&m);
            sc.dirty()
        });
        assert_eq!(lamps.count(), 1, "the new AC shows on one panel frame");
        // The debugger shows the emulated time, so panel frames are dirty while time moves:
        // count the frames between them.
        let frames = |moving: bool, sc: &mut Screen, m: &mut Machine| -> usize {
            let mut dirty = 0;
            for i in 0..4 * PANEL_EVERY {
                let t = m.time_ns() + FRAME;
                m.idle_until(t);
                let mut p = point(0);
                p.time_ns = t - FRAME / 2;
                if moving {
                    p.x = 40 * i as i16 - 300;
                }
                sc.feed_display(&[p]);
                sc.render(m);
                if sc.dirty() && !sc.frame.is_multiple_of(PANEL_EVERY) {
                    dirty += 1;
                }
            }
            dirty
        };
        frames(false, &mut sc, &mut m); // the spot's tiles light up
        let steady = frames(false, &mut sc, &mut m);
        let moving = frames(true, &mut sc, &mut m);
        // Of 16 frames, 4 are panel frames; of the other 12 the even ones draw a still picture.
        let others = (0..4 * PANEL_EVERY).filter(|f| f % PANEL_EVERY != 0);
        let even = others.clone().filter(|f| f % 2 == 0).count();
        assert_eq!(moving, others.count(), "a moving spot: every frame");
        assert_eq!(steady, even, "a refreshed spot: every other frame");
    }

    /// The page copies only what changed: the first frame is all of the canvas, a frame that
    /// changed nothing is empty, a lit spot's frame is the spot's tiles (inside the tube's pane,
    /// far smaller than it, holding the spot's pixel), and a lamp's frame covers the console.
    #[test]
    fn damage_is_what_changed() {
        let mut m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        let mut sc = Screen::new(1280, 760);
        sc.render(&m);
        assert_eq!(sc.damage(), Rect::new(0, 0, 1280, 760), "the first frame");
        for _ in 0..PANEL_EVERY {
            sc.render(&m);
            assert_eq!((sc.damage().w, sc.damage().h), (0, 0), "nothing changed");
        }
        m.idle_until(10_000_000);
        let mut p = point(0);
        p.time_ns = 5_000_000;
        sc.feed_display(&[p]);
        // (Frames until the scope's: a still picture is drawn every other frame.)
        let d = (0..2)
            .map(|_| {
                sc.render(&m);
                sc.damage()
            })
            .find(|d| d.w > 0)
            .expect("the spot is drawn");
        let sp = sc.layout.scope;
        assert!(d.x >= sp.x && d.right() <= sp.right() && d.y >= sp.y && d.bottom() <= sp.bottom());
        assert!(d.w * d.h * 16 < sp.w * sp.h, "{d:?} is most of the tube");
        let (cx, cy) = (sp.x + sp.w / 2, sp.y + sp.h / 2);
        assert!(d.contains(cx, cy), "{d:?} misses the spot at the centre");
        m.set_ac(pdp1_core::Word::new(0o777_777));
        let c = sc.layout.console;
        let lamps = (0..PANEL_EVERY)
            .map(|_| {
                sc.render(&m);
                sc.damage()
            })
            .find(|d| d.w > 0 && d.x >= c.x)
            .expect("the new AC is drawn");
        assert!(lamps.contains(c.x, c.y) && lamps.contains(c.right() - 1, c.bottom() - 1));
    }
}
