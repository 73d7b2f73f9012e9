//! The operator console panel ([pdp1-hardware §7.2]): register lamps, state lamps, the test word,
//! sense switch and test address switches, and the console keys. Drawn from the machine's state
//! every frame; every switch and key leaves a hit box so the mouse can work it.

use super::canvas::{cell, rgb, Canvas, Color, Rect};
use pdp1_core::Machine;

/// A console switch, by DEC bit number (bit 0 = leftmost, the most significant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    /// Test word bit 0–17.
    TestWord(u8),
    /// Sense switch 1–6.
    Sense(u8),
    /// Test address bit 0–15 (0–3 are the Type 15 extension bits).
    TestAddress(u8),
    /// The EXTEND switch.
    Extend,
}

/// Number of switches reachable by the keyboard switch cursor.
pub const SWITCH_COUNT: usize = 18 + 6 + 16 + 1;

/// The switch at keyboard-cursor position `i` (TW 0–17, SS 1–6, TA 0–15, EXTEND).
pub fn switch_at(i: usize) -> Switch {
    match i % SWITCH_COUNT {
        i @ 0..=17 => Switch::TestWord(i as u8),
        i @ 18..=23 => Switch::Sense(i as u8 - 17),
        i @ 24..=39 => Switch::TestAddress(i as u8 - 24),
        _ => Switch::Extend,
    }
}

/// Console keys and the frontend's own buttons beside them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Start,
    StartSbm,
    Stop,
    Continue,
    Examine,
    Deposit,
    ReadIn,
    SingleStep,
    SingleInst,
    Pause,
    Speed,
    Help,
}

impl Key {
    /// The key's name, a shorter form of it, and its function key.
    pub fn label(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Key::Start => ("START", "START", "F2"),
            Key::StartSbm => ("START SBM", "SBM", "sF2"),
            Key::Stop => ("STOP", "STOP", "F3"),
            Key::Continue => ("CONT", "CONT", "F4"),
            Key::Examine => ("EXAM", "EXAM", "F5"),
            Key::Deposit => ("DEP", "DEP", "F6"),
            Key::ReadIn => ("READ IN", "READ", "F7"),
            Key::SingleStep => ("SGL STEP", "STEP", "F8"),
            Key::SingleInst => ("SGL INST", "INST", "F9"),
            Key::Pause => ("PAUSE", "PAUSE", "F10"),
            Key::Speed => ("SPEED", "SPEED", "F11"),
            Key::Help => ("HELP", "HELP", "F1"),
        }
    }

    /// The button's text in `room` characters: the name with its function key, else the short
    /// name with it, else the function key alone (issue 17: the hints must stay visible at
    /// every size, and no word or number is cut).
    pub fn text(self, room: usize) -> String {
        let (name, short, fkey) = self.label();
        [format!("{name} {fkey}"), format!("{short} {fkey}")]
            .into_iter()
            .find(|t| t.len() <= room)
            .unwrap_or_else(|| fkey.to_string())
    }
}

/// The console keys as drawn, two rows of six.
pub const KEYS: [[Key; 6]; 2] = [
    [
        Key::Start,
        Key::StartSbm,
        Key::Stop,
        Key::Continue,
        Key::Examine,
        Key::Deposit,
    ],
    [
        Key::ReadIn,
        Key::SingleStep,
        Key::SingleInst,
        Key::Pause,
        Key::Speed,
        Key::Help,
    ],
];

/// Characters that fit on one key button in a console pane `w` pixels wide at font scale `s`.
pub fn key_room(w: i32, s: i32) -> usize {
    let (cw, _) = cell(s);
    let bw = (w - 12 * s) / 6 - 4 * s;
    ((bw - 2 * s) / cw).max(0) as usize
}

/// Something the mouse can press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Switch(Switch),
    Key(Key),
    /// A disassembly line in the debugger (toggles a breakpoint).
    Line(u32),
}

/// Switch state the machine has no getter for, and the frontend's run state, for drawing.
pub struct PanelState<'a> {
    pub extend_switch: bool,
    pub switch_cursor: Option<usize>,
    pub speed: &'a str,
    pub paused: bool,
    /// The keyboard works the control boxes.
    pub game: bool,
    /// The boot tape's file name, for the reader's label.
    pub tape_name: &'a str,
}

const PANEL: Color = rgb(0x22, 0x34, 0x4c);
const PANEL_DARK: Color = rgb(0x18, 0x26, 0x38);
const LABEL: Color = rgb(0xd6, 0xdc, 0xe4);
const LAMP_ON: Color = rgb(0xff, 0xd8, 0x82);
const LAMP_OFF: Color = rgb(0x3a, 0x34, 0x2a);
const SWITCH_ON: Color = rgb(0xf0, 0xf0, 0xe8);
const SWITCH_OFF: Color = rgb(0x58, 0x66, 0x78);
const CURSOR: Color = rgb(0xff, 0x60, 0x40);
/// The paper tape in the reader picture, and its punched holes.
pub const TAPE_PAPER: Color = rgb(0xe6, 0xd3, 0x96);
pub const TAPE_HOLE: Color = rgb(0x20, 0x1c, 0x14);

/// Height in pixels the panel needs at font scale `s`.
pub fn height(s: i32) -> i32 {
    cell(s).1 * 14 + 8 * s
}

/// Switch pitch (centre to centre) and body size in pixels at font scale `s` (issue 17: the
/// levers were 3×5 px): 12×20 px at scale 1, twice that on big screens.
pub fn switch_size(s: i32) -> (i32, i32, i32) {
    (12 * s, 10 * s, 2 * cell(s).1 - 2 * s)
}

struct Geo {
    s: i32,
    cw: i32,
    lh: i32,
}

impl Geo {
    /// x of the centre of bit `i` of an `n`-bit row starting at `x`, with octal grouping from
    /// the right (so 18 bits read as six octal digits).
    fn bit_x(&self, x: i32, n: usize, i: usize) -> i32 {
        let gaps = (1..=i).filter(|&k| (n - k).is_multiple_of(3)).count() as i32;
        x + i as i32 * self.cw + gaps * 4 * self.s + self.cw / 2
    }
    fn row_width(&self, n: usize) -> i32 {
        self.bit_x(0, n, n - 1) + self.cw
    }
    /// The same for a row of switches, at the switches' pitch.
    fn switch_x(&self, x: i32, n: usize, i: usize) -> i32 {
        let (pitch, _, _) = switch_size(self.s);
        let gaps = (1..=i).filter(|&k| (n - k).is_multiple_of(3)).count() as i32;
        x + i as i32 * pitch + gaps * 4 * self.s + pitch / 2
    }
}

fn octal(v: u32, n: usize) -> String {
    format!("{:0w$o}", v, w = n.div_ceil(3))
}

/// Draw a row of lamps showing the low `n` bits of `v`; returns the x after the row.
fn lamps(c: &mut Canvas, g: &Geo, x: i32, y: i32, label: &str, v: u32, n: usize) -> i32 {
    c.text(x, y, label, LABEL, g.s);
    let lx = x + (label.len().max(3) as i32 + 1) * g.cw;
    for i in 0..n {
        let on = v >> (n - 1 - i) & 1 == 1;
        c.disc(
            g.bit_x(lx, n, i),
            y + 3 * g.s,
            3 * g.s,
            if on { LAMP_ON } else { LAMP_OFF },
        );
    }
    let vx = lx + g.row_width(n) + g.cw / 2;
    c.text(vx, y, &octal(v, n), LABEL, g.s)
}

#[allow(clippy::too_many_arguments)]
fn switches(
    c: &mut Canvas,
    g: &Geo,
    hits: &mut Vec<(Rect, Hit)>,
    x: i32,
    y: i32,
    label: &str,
    v: u32,
    n: usize,
    make: impl Fn(u8) -> Switch,
    cursor: Option<Switch>,
) -> i32 {
    let (pitch, bw, bh) = switch_size(g.s);
    // Labels and the octal value beside the middle of the levers.
    let ty = y + bh / 2 - g.lh / 2;
    c.text(x, ty, label, LABEL, g.s);
    let lx = x + (label.len().max(3) as i32 + 1) * g.cw;
    for i in 0..n {
        let on = v >> (n - 1 - i) & 1 == 1;
        let cx = g.switch_x(lx, n, i);
        let body = Rect::new(cx - bw / 2, y, bw, bh);
        let sw = make(i as u8);
        if cursor == Some(sw) {
            c.frame(
                Rect::new(
                    body.x - g.s,
                    body.y - g.s,
                    body.w + 2 * g.s,
                    body.h + 2 * g.s,
                ),
                CURSOR,
            );
        }
        c.fill(body, PANEL_DARK);
        // The lever: up = 1, as on the real console.
        let lever = if on {
            Rect::new(
                body.x + g.s,
                body.y + g.s,
                body.w - 2 * g.s,
                body.h / 2 - g.s,
            )
        } else {
            Rect::new(
                body.x + g.s,
                body.y + body.h / 2,
                body.w - 2 * g.s,
                body.h / 2 - g.s,
            )
        };
        c.fill(lever, if on { SWITCH_ON } else { SWITCH_OFF });
        // The whole pitch is the switch's: neighbours' boxes touch, no click falls between.
        hits.push((
            Rect::new(cx - pitch / 2, body.y, pitch, body.h),
            Hit::Switch(sw),
        ));
    }
    let vx = g.switch_x(lx, n, n - 1) + pitch / 2 + g.cw / 2;
    c.text(vx, ty, &octal(v, n), LABEL, g.s)
}

/// The paper tape reader (issue 17: the 22-second load looked dead): its label with how much
/// of the tape has been read at `(lx, ly)`, and in `strip` the tape itself moving through the
/// read head — one column per frame, its eight channels' holes and the small feed hole between
/// channels 3 and 4, the frames already read to the left of the head.
fn reader(c: &mut Canvas, g: &Geo, strip: Rect, lx: i32, ly: i32, m: &Machine, st: &PanelState) {
    let (frames, read) = m.tape();
    if frames.is_empty() {
        c.text(lx, ly, "TAPE  none (ctrl+O mounts one)", LABEL, g.s);
        return;
    }
    let pct = read * 100 / frames.len();
    let label = format!("TAPE  {} {pct}% {read}/{}", st.tape_name, frames.len());
    let room = ((strip.right() - lx) / g.cw).max(0) as usize;
    // Cut at a space: the tape's name and percentage stay, never part of a number.
    let label = super::canvas::fit_words(&label, room);
    c.text(lx, ly, &label, LABEL, g.s);
    let fw = 3 * g.s;
    let cols = (strip.w / fw).max(1) as usize;
    let head = cols / 3;
    let dot = (strip.h / 10).max(1);
    for col in 0..cols {
        let Some(i) = (read + col).checked_sub(head) else {
            continue;
        };
        let Some(&f) = frames.get(i) else {
            break;
        };
        let x = strip.x + col as i32 * fw;
        c.fill(Rect::new(x, strip.y, fw, strip.h), TAPE_PAPER);
        // Channel 1 at the top, 8 at the bottom; the feed hole between 3 and 4.
        for (row, bit) in [0, 1, 2, 8, 3, 4, 5, 6, 7].into_iter().enumerate() {
            let hole = bit == 8 || f >> bit & 1 == 1;
            if hole {
                let w = if bit == 8 { dot } else { 2 * g.s };
                let y = strip.y + (row as i32 + 1) * strip.h / 11;
                c.fill(Rect::new(x + (fw - w) / 2, y, w, dot), TAPE_HOLE);
            }
        }
    }
    let hx = strip.x + head as i32 * fw - 1;
    c.fill(Rect::new(hx, strip.y, 1, strip.h), CURSOR);
}

/// Draw the panel into `r`, appending hit boxes.
pub fn draw(
    c: &mut Canvas,
    r: Rect,
    s: i32,
    m: &Machine,
    st: &PanelState,
    hits: &mut Vec<(Rect, Hit)>,
) {
    let (cw, lh) = cell(s);
    let g = Geo { s, cw, lh };
    c.fill(r, PANEL);
    let x = r.x + 6 * s;
    let col2 = r.x + r.w / 2 + 2 * s;
    let y = |i: i32| r.y + 4 * s + i * lh + lh / 4;

    // Title and state lamps.
    let tx = c.text(x, y(0), "PDP-1", LAMP_ON, s) + cw;
    let state = [
        ("RUN", m.running()),
        ("READ IN", m.reading_in()),
        ("OV", m.ov()),
        ("EXT", m.extend_mode()),
        ("KEY", m.key_pending()),
    ];
    let mut sx = tx;
    for (name, on) in state {
        c.disc(
            sx + 3 * s,
            y(0) + 3 * s,
            3 * s,
            if on { LAMP_ON } else { LAMP_OFF },
        );
        sx = c.text(sx + 8 * s, y(0), name, LABEL, s) + cw;
    }
    let speed = format!(
        "{}{}{}",
        if st.game { "BOXES " } else { "" },
        st.speed,
        if st.paused { " PAUSED" } else { "" }
    );
    c.text(
        r.right() - (speed.len() as i32 + 1) * cw,
        y(0),
        &speed,
        if st.paused { CURSOR } else { LABEL },
        s,
    );

    // Registers, two per row.
    lamps(c, &g, x, y(1), "AC", m.ac().bits(), 18);
    lamps(c, &g, col2, y(1), "IO", m.io().bits(), 18);
    lamps(c, &g, x, y(2), "MB", m.mb().bits(), 18);
    lamps(c, &g, col2, y(2), "PC", m.pc(), 16);
    lamps(c, &g, x, y(3), "MA", m.ma(), 16);
    let ix = lamps(c, &g, col2, y(3), "IR", m.ir(), 5);
    lamps(c, &g, ix + cw, y(3), "PF", m.pf() as u32, 6);
    lamps(c, &g, x, y(4), "SS", m.sense_switches() as u32, 6);
    reader(
        c,
        &g,
        Rect::new(x, r.y + 4 * s + 5 * lh, r.w - 12 * s, lh),
        col2,
        y(4),
        m,
        st,
    );

    // Switches: two rows of levers two text lines high.
    let cursor = st.switch_cursor.map(switch_at);
    let sy = y(6) - lh / 3;
    let tw_end = switches(
        c,
        &g,
        hits,
        x,
        sy,
        "TW",
        m.test_word().bits(),
        18,
        Switch::TestWord,
        cursor,
    );
    switches(
        c,
        &g,
        hits,
        tw_end + cw,
        sy,
        "SS",
        m.sense_switches() as u32,
        6,
        |i| Switch::Sense(i + 1),
        cursor,
    );
    let ty = y(8) + lh / 3;
    let ex = switches(
        c,
        &g,
        hits,
        x,
        ty,
        "TA",
        m.test_address(),
        16,
        Switch::TestAddress,
        cursor,
    );
    switches(
        c,
        &g,
        hits,
        ex + cw,
        ty,
        "EXT",
        st.extend_switch as u32,
        1,
        |_| Switch::Extend,
        cursor,
    );

    // Keys.
    let bw = (r.w - 12 * s) / 6;
    let room = key_room(r.w, s);
    for (row, ks) in KEYS.iter().enumerate() {
        let by = y(11) + lh / 4 + row as i32 * (lh + 3 * s);
        for (i, k) in ks.iter().enumerate() {
            let b = Rect::new(x + i as i32 * bw, by, bw - 4 * s, lh + s);
            c.fill(b, PANEL_DARK);
            c.frame(b, SWITCH_OFF);
            c.text_clipped(b.x + 2 * s, b.y + 2 * s, &k.text(room), LABEL, s, b.right());
            hits.push((b, Hit::Key(*k)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_cursor_covers_every_switch_once() {
        let all: Vec<_> = (0..SWITCH_COUNT).map(switch_at).collect();
        assert_eq!(all[0], Switch::TestWord(0));
        assert_eq!(all[17], Switch::TestWord(17));
        assert_eq!(all[18], Switch::Sense(1));
        assert_eq!(all[23], Switch::Sense(6));
        assert_eq!(all[24], Switch::TestAddress(0));
        assert_eq!(all[39], Switch::TestAddress(15));
        assert_eq!(all[40], Switch::Extend);
        assert_eq!(switch_at(SWITCH_COUNT), Switch::TestWord(0));
    }

    #[test]
    fn lamp_rows_group_in_octal_digits() {
        let g = Geo {
            s: 1,
            cw: 8,
            lh: 11,
        };
        // Gaps between bits 2|3, 5|6 …: bit 3 is one lamp + one gap further than bit 2.
        assert_eq!(g.bit_x(0, 18, 3) - g.bit_x(0, 18, 2), 8 + 4);
        assert_eq!(g.bit_x(0, 18, 2) - g.bit_x(0, 18, 1), 8);
        // 16-bit rows group from the right: 1 + 3 + 3 + 3 + 3 + 3.
        assert_eq!(g.bit_x(0, 16, 1) - g.bit_x(0, 16, 0), 12);
        assert_eq!(octal(0o17, 6), "17");
        assert_eq!(octal(5, 16), "000005");
    }
}
