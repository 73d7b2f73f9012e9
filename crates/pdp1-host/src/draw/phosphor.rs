//! The Type 30 precision CRT with its P7 phosphor, as a pure function of the timed point stream.
//!
//! Model (pdp1-hardware.md §4.6; chosen after reading SIMH `display/display.c`, aap's p7sim
//! `main.c` and masswerk's CRT notes):
//!
//! * Two phosphor layers, as in all three: a short **blue-white flash** (half-life 50 ms, SIMH's
//!   and p7sim's figure) and a long **yellow-green afterglow**. SIMH gives the afterglow 0.2 s,
//!   p7sim about 1.8 s (×0.987 per 33 ms frame); we take **0.5 s**, between the two, so moving
//!   things leave the trails people remember from the real tube while the Kalah board does not
//!   smear when it is redrawn. The afterglow is excited by the same hit with a quarter of the
//!   flash's energy, so a picture refreshed at 20–30 Hz shows both layers about equally.
//! * Energy is kept per screen pixel and decays as 2^(−Δt/half-life), where Δt is **emulated**
//!   time: the host only says "show the tube as it is at emulated time t", so pausing the
//!   machine freezes the picture and the result does not depend on how often frames are drawn.
//! * Intensity: the `dpy` code (instruction bits 9–11) read as signed 3 bits, dim→bright
//!   4,5,6,7,0,1,2,3 ([MW], [aap] `(dint+4)&7`). Level l = 0…7 sets the spot's energy
//!   2^((l−7)/3) (0.2 … 1; p7sim uses a linear 0.25 … 1) and its radius σ = 0.6 + 0.15·l raster
//!   units (the handbook's largest dot, 0.015 in on a 9.25 in raster, is about 1.7 units).
//! * Coordinates: aap's true one's-complement mapping, raster = 512 + v, so +0 and −0 plot at the
//!   same place (aap is the gate-level model; MAME/masswerk put −0 one step left). Y grows up.
//! * Spots are separable Gaussians sampled at their exact sub-pixel position, so the tube can be
//!   shown at any pane size without aliasing the 1024×1024 raster.
//! * Energy becomes colour: the flash is blue-white, the afterglow the PiDP-1's yellow-green
//!   (179, 225, 0); their light adds and the brightest channel saturates as x / (1 + x) with the
//!   others in proportion, so a refreshed picture is blue-white and what fades is yellow-green
//!   (issue 17). The afterglow saturates: a hit lifts it to the hit's own level (a quarter of
//!   the flash's energy) and refreshing builds it up no further.
//!
//! * The face is **round**: the Type 30's 16-inch tube shows a circle, and the 1024×1024 raster
//!   is the square around it, so its corners are off the face (SIMH's display comments,
//!   pdp1-hardware.md §4.1: a 16-inch tube with a raster "14 3/8 in. square", whose inscribed
//!   circle is about a 16-inch tube's usable face; masswerk, "Inside Spacewar! Part 2": the
//!   Type 30 "would paint any content on a perfectly square display area, it exposed a circular
//!   tube"). The handbook's 9.25-inch raster would fit whole on the face; we follow SIMH and
//!   masswerk. Points in the corners light the phosphor model as any other but are not shown; the pane around the face is the cabinet with the bright
//!   metal rim of the bezel.
//!
//! Cost is proportional to lit area, not pane size: the pane is cut into 16×16 tiles and only
//! tiles holding visible energy are decayed and colour-mapped.

use super::canvas::{Canvas, Color};
use pdp1_core::DisplayPoint;

/// Addressable positions per axis ([HB]: 1024 by 1024).
pub const RASTER: usize = 1024;
/// Half-life of the blue-white flash, seconds ([SIMH-display], [p7sim]).
pub const BLUE_HALF_LIFE_S: f64 = 0.05;
/// Half-life of the yellow-green afterglow, seconds (see the module comment).
pub const GREEN_HALF_LIFE_S: f64 = 0.5;
/// Afterglow energy per hit relative to the flash.
pub const GREEN_EXCITATION: f32 = 0.45;
/// Energy below which a pixel is dark (well under one 8-bit step after colour mapping).
pub const DARK: f32 = 1.0e-3;
/// Flash colour (blue-white: masswerk's "bright-blueish" onset, the PiDP-1 display's blue
/// flash) and afterglow colour (the PiDP-1 display's glow, RGB 179,225,0), as gains on the
/// layer energies. Light adds; [`tone`] then saturates towards the colour's own hue.
const FLASH_RGB: [f32; 3] = [1.1, 1.4, 2.2];
const GLOW_RGB: [f32; 3] = [1.6, 2.0, 0.0];
/// The unlit tube face.
pub const TUBE_FACE: Color = 0x00_06_09_0a;
/// The cabinet around the tube (DEC's grey-blue panel paint, darkened so the tube stands out).
pub const CABINET: Color = 0x00_2a_2e_34;
/// The bezel's metal rim around the face.
pub const RIM: Color = 0x00_9c_a0_a6;
const TILE: usize = 16;

/// Renderer level 0 (dimmest) … 7 (brightest) for a raw `dpy` intensity code 0–7.
pub fn level(code: u8) -> u8 {
    code.wrapping_add(4) & 7
}

/// Spot energy for a level (1.0 at the brightest).
pub fn brightness(level: u8) -> f32 {
    2f32.powf((level as f32 - 7.0) / 3.0)
}

/// Spot radius (Gaussian σ) in raster units for a level.
pub fn spot_sigma(level: u8) -> f32 {
    0.6 + 0.15 * level as f32
}

/// Raster position 1…1023 of a one's-complement coordinate −511…511 (±0 → 512, aap).
pub fn raster(v: i16) -> u16 {
    (512 + v.clamp(-511, 511)) as u16
}

/// The P7 tube face at one pane size.
pub struct Phosphor {
    size: usize,
    /// Pixels of cabinet and rim on each side of the raster's square.
    margin: usize,
    /// Per pane row, the pixels [lo, hi) on the round face (empty outside it).
    face: Vec<(usize, usize)>,
    blue: Vec<f32>,
    green: Vec<f32>,
    tiles: usize,
    tile_blue: Vec<f32>,
    tile_green: Vec<f32>,
    now_ns: u64,
    pending: Vec<DisplayPoint>,
    /// Tiles drawn lit last time (unlit ones already show the bare face on the canvas).
    shown: Vec<bool>,
    /// The picture changed since it was last drawn (time moved or points arrived).
    changed: bool,
    /// The pane pixels the last `draw` wrote, as a rectangle (x, y, w, h; w = 0: none).
    written: (usize, usize, usize, usize),
}

impl Phosphor {
    /// A dark tube shown in a `size`×`size` pixel pane: the round face with the bezel around it.
    pub fn new(size: usize) -> Phosphor {
        Phosphor::with_margin(size, margin(size))
    }

    /// A pane with `margin` pixels of bezel on each side of the raster's square.
    pub fn with_margin(size: usize, margin: usize) -> Phosphor {
        let size = size.max(16);
        let margin = margin.min((size - 8) / 2);
        let tiles = size.div_ceil(TILE);
        // The face: the circle inscribed in the raster's square.
        let c = size as f32 / 2.0;
        let radius = (size - 2 * margin) as f32 / 2.0;
        let face = (0..size)
            .map(|y| {
                let dy = y as f32 + 0.5 - c;
                let h2 = radius * radius - dy * dy;
                if h2 <= 0.0 {
                    return (0, 0);
                }
                let h = h2.sqrt();
                let lo = (c - h - 0.5).ceil().max(0.0) as usize;
                let hi = ((c + h - 0.5).floor() + 1.0).clamp(0.0, size as f32) as usize;
                (lo.min(hi), hi)
            })
            .collect();
        Phosphor {
            size,
            margin,
            face,
            blue: vec![0.0; size * size],
            green: vec![0.0; size * size],
            tiles,
            tile_blue: vec![0.0; tiles * tiles],
            tile_green: vec![0.0; tiles * tiles],
            now_ns: 0,
            pending: Vec::new(),
            shown: vec![true; tiles * tiles],
            changed: true,
            written: (0, 0, 0, 0),
        }
    }

    /// Change the pane size. The afterglow cannot be resampled, so the tube starts dark (the
    /// program redraws within a frame or two).
    pub fn resize(&mut self, size: usize) {
        if size.max(16) != self.size {
            let now = self.now_ns;
            let pending = std::mem::take(&mut self.pending);
            *self = Phosphor::with_margin(size, margin(size));
            self.now_ns = now;
            self.pending = pending;
        }
    }

    /// Queue points from the machine; they light the tube at their own emulated times when the
    /// picture is next advanced.
    pub fn feed(&mut self, points: &[DisplayPoint]) {
        self.pending.extend_from_slice(points);
        // A headless run may feed seconds of points between pictures: fold them in as we go.
        if self.pending.len() > 200_000 {
            let last = self
                .pending
                .iter()
                .map(|p| p.time_ns)
                .max()
                .unwrap_or(self.now_ns);
            self.advance(last.max(self.now_ns));
        }
    }

    /// Bring the tube to emulated time `t_ns`: decay everything lit so far, then light the queued
    /// points with the energy left after their own age. Going back in time (a restored state)
    /// clears the tube.
    pub fn advance(&mut self, t_ns: u64) {
        if t_ns < self.now_ns {
            self.clear();
        }
        let dt = (t_ns - self.now_ns) as f64 * 1e-9;
        if dt > 0.0 {
            self.decay(
                decay_factor(dt, BLUE_HALF_LIFE_S),
                decay_factor(dt, GREEN_HALF_LIFE_S),
            );
        }
        if t_ns != self.now_ns || !self.pending.is_empty() {
            self.changed = true;
        }
        self.now_ns = t_ns;
        let pending = std::mem::take(&mut self.pending);
        for p in &pending {
            let age = t_ns.saturating_sub(p.time_ns) as f64 * 1e-9;
            let fg = decay_factor(age, GREEN_HALF_LIFE_S);
            if fg * GREEN_EXCITATION < DARK * 0.1 {
                continue; // long gone
            }
            self.splat(p, decay_factor(age, BLUE_HALF_LIFE_S), fg);
        }
        self.pending = pending;
        self.pending.clear();
    }

    fn clear(&mut self) {
        self.blue.fill(0.0);
        self.green.fill(0.0);
        self.tile_blue.fill(0.0);
        self.tile_green.fill(0.0);
        self.now_ns = 0;
        self.changed = true;
    }

    fn tile_pixels(&self, t: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
        let (tx, ty) = (t % self.tiles, t / self.tiles);
        let x0 = tx * TILE;
        let x1 = (x0 + TILE).min(self.size);
        let y0 = ty * TILE;
        let y1 = (y0 + TILE).min(self.size);
        let size = self.size;
        (y0..y1).map(move |y| y * size + x0..y * size + x1)
    }

    fn decay(&mut self, fb: f32, fg: f32) {
        for t in 0..self.tile_blue.len() {
            if self.tile_blue[t] == 0.0 && self.tile_green[t] == 0.0 {
                continue;
            }
            let mb = self.tile_blue[t] * fb;
            let mg = self.tile_green[t] * fg;
            let dark = mb < DARK && mg < DARK;
            let rows: Vec<_> = self.tile_pixels(t).collect();
            for r in rows {
                if dark {
                    self.blue[r.clone()].fill(0.0);
                    self.green[r].fill(0.0);
                } else {
                    self.blue[r.clone()].iter_mut().for_each(|e| *e *= fb);
                    self.green[r].iter_mut().for_each(|e| *e *= fg);
                }
            }
            self.tile_blue[t] = if dark { 0.0 } else { mb };
            self.tile_green[t] = if dark { 0.0 } else { mg };
        }
    }

    /// Pixels per raster step.
    fn scale(&self) -> f32 {
        (self.size - 2 * self.margin) as f32 / RASTER as f32
    }

    /// Pixel-space centre of raster position (rx, ry), y flipped so +y is up.
    fn centre(&self, rx: u16, ry: u16) -> (f32, f32) {
        let s = self.scale();
        let m = self.margin as f32;
        (
            m + (rx as f32 + 0.5) * s - 0.5,
            m + ((RASTER - 1 - ry as usize) as f32 + 0.5) * s - 0.5,
        )
    }

    #[cfg(test)]
    /// Whether pane pixel (px, py) is on the round face.
    pub fn on_face(&self, px: usize, py: usize) -> bool {
        self.face
            .get(py)
            .is_some_and(|&(lo, hi)| px >= lo && px < hi)
    }

    /// The coordinate pair whose spot centre is nearest to pixel (px, py) of the pane: the
    /// inverse of the mapping points are drawn with, so the light pen sees what the mouse
    /// points at. Pixels outside the raster give the nearest edge coordinate (±511).
    pub fn coord_at(&self, px: i32, py: i32) -> (i16, i16) {
        let s = self.scale();
        let m = self.margin as f32;
        let rx = ((px as f32 - m + 0.5) / s - 0.5).round();
        let ry = (RASTER - 1) as f32 - ((py as f32 - m + 0.5) / s - 0.5).round();
        let v = |r: f32| (r - 512.0).clamp(-511.0, 511.0) as i16;
        (v(rx), v(ry))
    }

    #[cfg(test)]
    /// The pixel a coordinate pair lands on (for tests and the light pen).
    pub fn pixel_of(&self, x: i16, y: i16) -> (usize, usize) {
        let (cx, cy) = self.centre(raster(x), raster(y));
        (cx.round() as usize, cy.round() as usize)
    }

    fn splat(&mut self, p: &DisplayPoint, fb: f32, fg: f32) {
        let l = level(p.intensity);
        let e = brightness(l);
        let (cx, cy) = self.centre(raster(p.x), raster(p.y));
        let sigma = (spot_sigma(l) * self.scale()).max(0.5);
        let r = (2.5 * sigma).ceil() as i32;
        let (ix, iy) = (cx.round() as i32, cy.round() as i32);
        let inv = 1.0 / (2.0 * sigma * sigma);
        let gx: Vec<f32> = (-r..=r)
            .map(|d| (-((ix + d) as f32 - cx).powi(2) * inv).exp())
            .collect();
        let gy: Vec<f32> = (-r..=r)
            .map(|d| (-((iy + d) as f32 - cy).powi(2) * inv).exp())
            .collect();
        let (eb, eg) = (e * fb, e * GREEN_EXCITATION * fg);
        for (j, wy) in gy.iter().enumerate() {
            let y = iy - r + j as i32;
            if y < 0 || y >= self.size as i32 {
                continue;
            }
            for (i, wx) in gx.iter().enumerate() {
                let x = ix - r + i as i32;
                if x < 0 || x >= self.size as i32 {
                    continue;
                }
                let k = wx * wy;
                let idx = y as usize * self.size + x as usize;
                self.blue[idx] += eb * k;
                // The afterglow saturates: a hit lifts it to its own level, it does not pile
                // up. So a picture refreshed 20 times a second glows no more than one hit leaves
                // behind and the flash's blue-white shows, with the glow in the same proportion
                // everywhere in the spot (issue 17: the refreshed Kalah board was mint-white).
                self.green[idx] = self.green[idx].max(eg * k);
                let t = (y as usize / TILE) * self.tiles + x as usize / TILE;
                self.tile_blue[t] = self.tile_blue[t].max(self.blue[idx]);
                self.tile_green[t] = self.tile_green[t].max(self.green[idx]);
            }
        }
    }

    #[cfg(test)]
    /// (flash, afterglow) energy at a pixel.
    pub fn energy(&self, px: usize, py: usize) -> (f32, f32) {
        let i = py * self.size + px;
        (self.blue[i], self.green[i])
    }

    /// The sum of every pixel's (flash, afterglow) energy.
    pub fn total_energy(&self) -> f32 {
        self.blue.iter().chain(&self.green).sum()
    }

    #[cfg(test)]
    /// Pixels with any energy at all (tests use it to check that dark really is dark).
    pub fn lit_pixels(&self) -> usize {
        self.blue
            .iter()
            .zip(&self.green)
            .filter(|(b, g)| **b > 0.0 || **g > 0.0)
            .count()
    }

    #[cfg(test)]
    /// Colour of one pixel from its energies.
    pub fn colour(&self, eb: f32, eg: f32) -> Color {
        tone(eb, eg)
    }

    /// Draw the tube into `canvas` with the pane's top-left corner at (ox, oy). Tiles that were
    /// dark last time and still are keep what the canvas holds, unless `all` (the canvas was
    /// drawn over or resized: then the bezel is drawn too). Only the round face's pixels are
    /// ever written after that. Returns whether any pixel was written (a dark tube whose time
    /// moves on writes none).
    pub fn draw(&mut self, canvas: &mut Canvas, ox: usize, oy: usize, all: bool) -> bool {
        // A stopped or paused machine: the canvas already shows this picture.
        self.written = (0, 0, 0, 0);
        if !self.changed && !all {
            return false;
        }
        self.changed = false;
        if all {
            self.draw_bezel(canvas, ox, oy);
        }
        let mut wrote = all;
        // The tiles written, in tile units: [x0, x1) × [y0, y1).
        let mut span = if all {
            (0, self.tiles, 0, self.tiles)
        } else {
            (usize::MAX, 0, usize::MAX, 0)
        };
        for t in 0..self.tile_blue.len() {
            let lit = self.tile_blue[t] > 0.0 || self.tile_green[t] > 0.0;
            if !lit && !self.shown[t] && !all {
                continue;
            }
            wrote = true;
            self.shown[t] = lit;
            let (tx, ty) = (t % self.tiles, t / self.tiles);
            span = (
                span.0.min(tx),
                span.1.max(tx + 1),
                span.2.min(ty),
                span.3.max(ty + 1),
            );
            let x0 = tx * TILE;
            let x1 = (x0 + TILE).min(self.size).min(canvas.w.saturating_sub(ox));
            if x1 <= x0 {
                continue;
            }
            for py in ty * TILE..((ty + 1) * TILE).min(self.size) {
                let cy = oy + py;
                if cy >= canvas.h {
                    break;
                }
                let (lo, hi) = self.face[py];
                let (x0, x1) = (x0.max(lo), x1.min(hi));
                if x1 <= x0 {
                    continue;
                }
                let dst = &mut canvas.px[cy * canvas.w + ox + x0..cy * canvas.w + ox + x1];
                if lit {
                    let src = py * self.size + x0..py * self.size + x1;
                    let (b, g) = (&self.blue[src.clone()], &self.green[src]);
                    for ((d, &eb), &eg) in dst.iter_mut().zip(b).zip(g) {
                        *d = tone(eb, eg);
                    }
                } else {
                    dst.fill(TUBE_FACE);
                }
            }
        }
        if span.0 < span.1 {
            let (x0, y0) = (span.0 * TILE, span.2 * TILE);
            self.written = (
                x0,
                y0,
                (span.1 * TILE).min(self.size) - x0,
                (span.3 * TILE).min(self.size) - y0,
            );
        }
        wrote
    }

    /// The pane pixels the last [`Phosphor::draw`] wrote (x, y, w, h; w = 0 when none): the
    /// page copies only these to its canvas.
    pub fn written(&self) -> (usize, usize, usize, usize) {
        self.written
    }

    /// The picture holds still in extent: the tiles holding light are the ones drawn lit last
    /// time (a refreshed picture such as the Kalah board, or a dark tube). Its brightness may
    /// still change; the window then shows it at a lower rate.
    pub fn steady(&self) -> bool {
        self.tile_blue
            .iter()
            .zip(&self.tile_green)
            .zip(&self.shown)
            .all(|((&b, &g), &shown)| (b > 0.0 || g > 0.0) == shown)
    }
}

impl Phosphor {
    /// The cabinet and the bezel's rim: every pane pixel off the face (drawn on full redraws).
    fn draw_bezel(&self, canvas: &mut Canvas, ox: usize, oy: usize) {
        let c = self.size as f32 / 2.0;
        let radius = (self.size - 2 * self.margin) as f32 / 2.0;
        // The rim: a metal ring as wide as half the margin, just outside the face.
        let rim = radius + (self.margin as f32 / 2.0).max(1.5);
        let w = self.size.min(canvas.w.saturating_sub(ox));
        for py in 0..self.size.min(canvas.h.saturating_sub(oy)) {
            let dy = py as f32 + 0.5 - c;
            let (lo, hi) = self.face[py];
            let row = &mut canvas.px[(oy + py) * canvas.w + ox..(oy + py) * canvas.w + ox + w];
            for (px, d) in row.iter_mut().enumerate() {
                if px >= lo && px < hi {
                    continue;
                }
                let dx = px as f32 + 0.5 - c;
                let r = (dx * dx + dy * dy).sqrt();
                *d = if r < rim { RIM } else { CABINET };
            }
        }
    }
}

/// Bezel pixels on each side of the raster's square for a pane of `size` pixels.
fn margin(size: usize) -> usize {
    (size / 48).max(4)
}

/// Energy → 0RGB: x / (1 + x) per channel over the tube face. Plain arithmetic without table
/// look-ups so the compiler can vectorise the colour-mapping loop (it is most of a frame's work).
#[inline(always)]
fn tone(eb: f32, eg: f32) -> Color {
    const FACE: [f32; 3] = [
        (TUBE_FACE >> 16 & 0xff) as f32,
        (TUBE_FACE >> 8 & 0xff) as f32,
        (TUBE_FACE & 0xff) as f32,
    ];
    // The two layers' light adds; the brightest channel m is saturated as m / (1 + m) and the
    // others keep their proportion to it, so an overdriven spot brightens in its own hue
    // (blue-white, or yellow-green) instead of washing out to white.
    let lin: [f32; 3] = std::array::from_fn(|c| eb * FLASH_RGB[c] + eg * GLOW_RGB[c]);
    let m = lin[0].max(lin[1]).max(lin[2]);
    let scale = if m > 0.0 { 1.0 / (1.0 + m) } else { 0.0 };
    let ch = |c: usize| (FACE[c] + (255.0 - FACE[c]) * lin[c] * scale + 0.5) as u32;
    ch(0) << 16 | ch(1) << 8 | ch(2)
}

fn decay_factor(age_s: f64, half_life_s: f64) -> f32 {
    (-age_s / half_life_s).exp2() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn pt(x: i16, y: i16, intensity: u8, time_ns: u64) -> DisplayPoint {
        DisplayPoint {
            x,
            y,
            x_minus_zero: false,
            y_minus_zero: false,
            intensity,
            scope: 0,
            time_ns,
        }
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-4 * b.abs().max(1e-3)
    }

    #[test]
    fn a_spot_starts_at_its_level_energy_and_halves_per_half_life() {
        // Pane of 1024 pixels: one raster position per pixel, spot centred on a pixel.
        let mut p = Phosphor::with_margin(1024, 0);
        p.feed(&[pt(0, 0, 0, 10 * MS)]);
        p.advance(10 * MS);
        let (px, py) = p.pixel_of(0, 0);
        assert_eq!((px, py), (512, 511)); // raster (512, 512), y up: row 1023 − 512
        let b = brightness(4); // code 0 = "normal", level 4
        let (eb, eg) = p.energy(px, py);
        assert!(close(eb, b), "{eb} vs {b}");
        assert!(close(eg, b * GREEN_EXCITATION));

        p.advance(60 * MS); // 50 ms later: one flash half-life, 0.1 afterglow half-lives
        let (eb, eg) = p.energy(px, py);
        assert!(close(eb, b / 2.0), "{eb}");
        assert!(close(eg, b * GREEN_EXCITATION * 0.5f32.powf(0.1)), "{eg}");

        p.advance(10 * MS + 500 * MS); // 0.5 s after the hit: afterglow at half
        let (eb, eg) = p.energy(px, py);
        assert!(close(eg, b * GREEN_EXCITATION / 2.0), "{eg}");
        assert!(eb < b * 1e-2, "flash is 10 half-lives gone: {eb}");
    }

    #[test]
    fn paused_time_freezes_the_picture_and_frame_splits_do_not_matter() {
        let mut a = Phosphor::with_margin(512, 0);
        let mut b = Phosphor::with_margin(512, 0);
        let pts: Vec<_> = (0..50)
            .map(|i| pt(i * 7 - 170, 100 - i * 3, (i % 8) as u8, i as u64 * 50_000))
            .collect();
        a.feed(&pts);
        b.feed(&pts);
        a.advance(5 * MS);
        let before: Vec<_> = (0..512).map(|x| a.energy(x, 200)).collect();
        a.advance(5 * MS); // host frames pass, emulated time does not
        a.advance(5 * MS);
        let after: Vec<_> = (0..512).map(|x| a.energy(x, 200)).collect();
        assert_eq!(before, after);
        // 1 ms frames versus one jump to the same emulated time.
        for t in (6..=80).map(|m| m * MS) {
            a.advance(t);
        }
        b.advance(80 * MS);
        for y in (0..512).step_by(3) {
            for x in 0..512 {
                let (ea, eb) = (a.energy(x, y), b.energy(x, y));
                assert!((ea.0 - eb.0).abs() < 1e-5 && (ea.1 - eb.1).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn late_points_are_aged_by_their_own_time() {
        let mut p = Phosphor::with_margin(1024, 0);
        p.advance(100 * MS);
        p.feed(&[pt(100, -100, 3, 50 * MS)]); // drawn 50 ms before the picture's time
        p.advance(100 * MS);
        let (px, py) = p.pixel_of(100, -100);
        assert!(close(p.energy(px, py).0, brightness(7) / 2.0));
    }

    #[test]
    fn intensity_codes_order_dim_to_bright_4567_0123() {
        let mut p = Phosphor::with_margin(1024, 0);
        let order = [4u8, 5, 6, 7, 0, 1, 2, 3];
        let pts: Vec<_> = order
            .iter()
            .enumerate()
            .map(|(i, &c)| pt(-400 + 100 * i as i16, 0, c, 0))
            .collect();
        p.feed(&pts);
        p.advance(0);
        let mut last_peak = 0.0;
        let mut last_area = 0;
        for (i, _) in order.iter().enumerate() {
            let x = -400 + 100 * i as i16;
            let (px, py) = p.pixel_of(x, 0);
            let peak = p.energy(px, py).0;
            // Area lit above a fixed visible level, within this spot's neighbourhood.
            let area = (py - 10..=py + 10)
                .flat_map(|y| (px - 10..=px + 10).map(move |x| (x, y)))
                .filter(|&(x, y)| p.energy(x, y).0 > 0.05)
                .count();
            assert!(
                peak > last_peak,
                "level {i}: brightness {peak} not above {last_peak}"
            );
            assert!(
                area > last_area,
                "level {i}: spot area {area} not above {last_area}"
            );
            last_peak = peak;
            last_area = area;
        }
        assert!(close(last_peak, 1.0), "code 3 is full brightness");
    }

    #[test]
    fn plus_and_minus_zero_coincide_and_y_grows_up() {
        let p = Phosphor::with_margin(1024, 0);
        // DisplayPoint carries −0 as x = 0 with the flag: the mapping is by value.
        assert_eq!(raster(0), 512);
        assert_eq!(raster(-1), 511);
        assert_eq!(raster(1), 513);
        assert_eq!(raster(511), 1023);
        assert_eq!(raster(-511), 1);
        let mut a = Phosphor::with_margin(1024, 0);
        a.feed(&[DisplayPoint {
            x: 0,
            y: 0,
            x_minus_zero: true,
            y_minus_zero: true,
            intensity: 0,
            scope: 0,
            time_ns: 0,
        }]);
        a.advance(0);
        let mut b = Phosphor::with_margin(1024, 0);
        b.feed(&[pt(0, 0, 0, 0)]);
        b.advance(0);
        for y in 500..524 {
            for x in 500..524 {
                assert_eq!(a.energy(x, y), b.energy(x, y));
            }
        }
        assert!(
            p.pixel_of(0, 10).1 < p.pixel_of(0, 0).1,
            "+y is up the screen"
        );
        assert_eq!(p.pixel_of(-511, -511), (1, 1022));
    }

    /// Issue 17: a point refreshed 20 times a second (the Kalah board) shows the P7's blue-white
    /// flash — it was a pale mint-white, the afterglow piling up under it — and once the refresh
    /// stops what stays is the yellow-green afterglow.
    #[test]
    fn a_refreshed_spot_is_blue_white_and_fades_yellow_green() {
        let mut p = Phosphor::with_margin(512, 0);
        let hits: Vec<DisplayPoint> = (0..20).map(|i| pt(0, 0, 3, i * 50 * MS)).collect();
        p.feed(&hits);
        p.advance(19 * 50 * MS + 10 * MS);
        let (cx, cy) = p.pixel_of(0, 0);
        let rgb = |p: &Phosphor| {
            let (eb, eg) = p.energy(cx, cy);
            let c = p.colour(eb, eg);
            (c >> 16 & 0xff, c >> 8 & 0xff, c & 0xff)
        };
        let (r, g, b) = rgb(&p);
        assert!(b > g && g > r, "refreshed: blue-white, got {r},{g},{b}");
        p.advance(19 * 50 * MS + 400 * MS);
        let (r, g, b) = rgb(&p);
        assert!(g > b && r > b, "fading: yellow-green, got {r},{g},{b}");
    }

    #[test]
    fn the_tube_goes_completely_dark_and_colour_is_monotone() {
        let mut p = Phosphor::with_margin(300, 0);
        p.feed(&[pt(0, 0, 3, 0), pt(511, 511, 3, 0), pt(-511, -511, 3, 0)]);
        p.advance(0);
        assert!(p.lit_pixels() > 0);
        p.advance(20_000 * MS);
        assert_eq!(p.lit_pixels(), 0);
        // Colour brightens with energy in every channel.
        let lum = |c: Color| (c >> 16 & 0xff) + (c >> 8 & 0xff) + (c & 0xff);
        assert_eq!(p.colour(0.0, 0.0), TUBE_FACE);
        assert!(lum(p.colour(0.1, 0.0)) < lum(p.colour(0.5, 0.0)));
        assert!(lum(p.colour(0.5, 0.0)) < lum(p.colour(2.0, 0.0)));
        // The flash is blue-white, the afterglow yellow-green.
        let f = p.colour(0.3, 0.0);
        assert!((f & 0xff) > (f >> 16 & 0xff), "flash: more blue than red");
        let g = p.colour(0.0, 0.3);
        assert!(
            (g >> 8 & 0xff) > (g & 0xff) && (g >> 8 & 0xff) > (g >> 16 & 0xff),
            "glow: green"
        );
    }

    #[test]
    fn coord_at_inverts_the_drawing_mapping() {
        // At one pixel per raster step or more the round trip is exact; on a smaller pane a
        // pixel covers 1/s steps, so the pen lands within that of the point.
        for size in [300, 760, 1024, 2048] {
            let p = Phosphor::new(size);
            let tol = (1.0 / p.scale()).ceil() as i16;
            for (x, y) in [(0, 0), (100, -50), (-511, 511), (511, -511), (-3, 7)] {
                let (px, py) = p.pixel_of(x, y);
                let (cx, cy) = p.coord_at(px as i32, py as i32);
                if p.scale() >= 1.0 {
                    assert_eq!((cx, cy), (x, y), "size {size}");
                } else {
                    assert!(
                        (cx - x).abs() <= tol && (cy - y).abs() <= tol,
                        "size {size}: ({x}, {y}) -> ({cx}, {cy})"
                    );
                }
            }
            // Up the pane is +y; off the pane clamps to the edge.
            assert!(p.coord_at(size as i32 / 2, 0).1 > 500);
            assert_eq!(p.coord_at(-50, size as i32 + 50), (-511, -511));
        }
    }

    #[test]
    fn drawing_puts_the_spot_where_the_raster_says() {
        let mut p = Phosphor::with_margin(256, 0);
        p.feed(&[pt(255, 0, 3, 0)]);
        p.advance(0);
        let mut c = Canvas::new(300, 260);
        p.draw(&mut c, 10, 2, true);
        let (px, py) = p.pixel_of(255, 0);
        let lit = c.px[(py + 2) * c.w + px + 10];
        assert_ne!(lit, TUBE_FACE);
        // Elsewhere on the face the bare tube, off it (the pane's corner) the cabinet.
        assert_eq!(c.px[(2 + 128) * c.w + 10 + 40], TUBE_FACE);
        assert_eq!(c.px[(2 + 5) * c.w + 10 + 5], CABINET);
    }

    /// Issue 17: the face is round. The pane's corners are the cabinet, the rim rings the face,
    /// the centre and a point well inside the circle light up, and a point in the raster's
    /// corner (off the face) is not shown although the phosphor model holds its energy.
    #[test]
    fn the_face_is_round_with_the_bezel_around_it() {
        let size = 760;
        let mut p = Phosphor::new(size);
        let (m, r) = (p.margin, (size - 2 * p.margin) as f32 / 2.0);
        assert!(m >= 4);
        p.feed(&[pt(0, 0, 3, 0), pt(300, 300, 3, 0), pt(-505, 505, 3, 0)]);
        p.advance(MS);
        let mut c = Canvas::new(size, size);
        p.draw(&mut c, 0, 0, true);
        let at = |c: &Canvas, x: usize, y: usize| c.px[y * size + x];
        for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)] {
            assert_eq!(at(&c, x, y), CABINET, "pane corner ({x}, {y})");
        }
        // The corner point has energy but its pixel is off the face and shows the cabinet.
        let (cx, cy) = p.pixel_of(-505, 505);
        assert!(p.energy(cx, cy).0 > 0.1, "the model holds the corner point");
        assert!(!p.on_face(cx, cy));
        assert_eq!(at(&c, cx, cy), CABINET);
        // Points inside the circle are drawn; (300, 300) is 424 units out, inside 511.
        for (x, y) in [(0, 0), (300, 300)] {
            let (px, py) = p.pixel_of(x, y);
            assert!(p.on_face(px, py));
            assert_ne!(at(&c, px, py), TUBE_FACE, "({x}, {y}) lit");
        }
        // The rim just outside the face on the horizontal axis, the bare face just inside.
        let mid = size / 2;
        let edge = (size as f32 / 2.0 - r) as usize; // first raster column
        assert_eq!(at(&c, edge - 1, mid), RIM);
        assert_eq!(at(&c, edge + 2, mid), TUBE_FACE);
        // Later frames write the face only: a corner point fed now still leaves the bezel.
        p.feed(&[pt(511, -511, 3, MS)]);
        p.advance(2 * MS);
        p.draw(&mut c, 0, 0, false);
        assert_eq!(at(&c, size - 1, size - 1), CABINET);
        let (qx, qy) = p.pixel_of(511, -511);
        assert_eq!(at(&c, qx, qy), CABINET);
    }
}
