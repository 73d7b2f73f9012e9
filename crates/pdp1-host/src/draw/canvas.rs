//! A 0RGB pixel buffer (minifb's format) with the few drawing operations the panes need, and PNG
//! output for `--screenshot`.

use super::font::{glyph, GLYPH_H, GLYPH_W};
use crate::error::Context;

/// A rectangle in window pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn contains(&self, px: i32, py: i32) -> bool {
        px >= self.x && py >= self.y && px < self.x + self.w && py < self.y + self.h
    }
    pub fn right(&self) -> i32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> i32 {
        self.y + self.h
    }
    /// The smallest rectangle holding both (an empty one holds nothing).
    pub fn union(self, o: Rect) -> Rect {
        if o.w <= 0 || o.h <= 0 {
            return self;
        }
        if self.w <= 0 || self.h <= 0 {
            return o;
        }
        let (x, y) = (self.x.min(o.x), self.y.min(o.y));
        Rect::new(
            x,
            y,
            self.right().max(o.right()) - x,
            self.bottom().max(o.bottom()) - y,
        )
    }
}

/// 0x00RRGGBB.
pub type Color = u32;

pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
    ((r as u32) << 16) | ((g as u32) << 8) | b as u32
}

pub struct Canvas {
    pub w: usize,
    pub h: usize,
    pub px: Vec<u32>,
}

impl Canvas {
    pub fn new(w: usize, h: usize) -> Canvas {
        Canvas {
            w,
            h,
            px: vec![0; w * h],
        }
    }

    pub fn resize(&mut self, w: usize, h: usize) {
        if (w, h) != (self.w, self.h) {
            self.w = w;
            self.h = h;
            self.px = vec![0; w * h];
        }
    }

    /// Clip `r` to the canvas: (x0, y0, x1, y1) with x1/y1 exclusive, or None if empty.
    fn clip(&self, r: Rect) -> Option<(usize, usize, usize, usize)> {
        let x0 = r.x.max(0) as i64;
        let y0 = r.y.max(0) as i64;
        let x1 = (r.x as i64 + r.w as i64).min(self.w as i64);
        let y1 = (r.y as i64 + r.h as i64).min(self.h as i64);
        (x0 < x1 && y0 < y1).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }

    /// A hash of the pixels in `r` (FNV-1a over the words), to tell whether a repaint changed
    /// anything.
    pub fn hash(&self, r: Rect) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        if let Some((x0, y0, x1, y1)) = self.clip(r) {
            for y in y0..y1 {
                for &p in &self.px[y * self.w + x0..y * self.w + x1] {
                    h = (h ^ p as u64).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
        h
    }

    pub fn fill(&mut self, r: Rect, c: Color) {
        if let Some((x0, y0, x1, y1)) = self.clip(r) {
            for y in y0..y1 {
                self.px[y * self.w + x0..y * self.w + x1].fill(c);
            }
        }
    }

    pub fn set(&mut self, x: i32, y: i32, c: Color) {
        if x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.h {
            self.px[y as usize * self.w + x as usize] = c;
        }
    }

    pub fn frame(&mut self, r: Rect, c: Color) {
        self.fill(Rect::new(r.x, r.y, r.w, 1), c);
        self.fill(Rect::new(r.x, r.bottom() - 1, r.w, 1), c);
        self.fill(Rect::new(r.x, r.y, 1, r.h), c);
        self.fill(Rect::new(r.right() - 1, r.y, 1, r.h), c);
    }

    /// A filled disc (console lamps).
    pub fn disc(&mut self, cx: i32, cy: i32, r: i32, c: Color) {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r + r / 2 {
                    self.set(cx + dx, cy + dy, c);
                }
            }
        }
    }

    /// One character cell at font scale `s` (each font pixel an s×s block). Only ink pixels are
    /// written, so drawing two glyphs at the same place overstrikes them like a typewriter.
    pub fn glyph(&mut self, x: i32, y: i32, ch: char, c: Color, s: i32) {
        let g = glyph(ch);
        let inside = x >= 0
            && y >= 0
            && (x + GLYPH_W as i32 * s) as usize <= self.w
            && (y + GLYPH_H as i32 * s) as usize <= self.h;
        for (row, bits) in g.iter().enumerate() {
            for col in 0..GLYPH_W {
                if bits >> col & 1 == 1 {
                    if s == 1 && inside {
                        // The common case, without per-pixel clipping.
                        self.px[(y as usize + row) * self.w + x as usize + col] = c;
                    } else {
                        self.fill(Rect::new(x + col as i32 * s, y + row as i32 * s, s, s), c);
                    }
                }
            }
        }
    }

    /// Text left to right; returns the x after the last character. Clipped to `clip_right`.
    pub fn text(&mut self, x: i32, y: i32, s: &str, c: Color, scale: i32) -> i32 {
        let mut cx = x;
        for ch in s.chars() {
            if cx + GLYPH_W as i32 * scale > self.w as i32 {
                break;
            }
            if ch != ' ' {
                self.glyph(cx, y, ch, c, scale);
            }
            cx += GLYPH_W as i32 * scale;
        }
        cx
    }

    /// Like `text` but stops before `max_x`.
    pub fn text_clipped(&mut self, x: i32, y: i32, s: &str, c: Color, scale: i32, max_x: i32) {
        let cw = GLYPH_W as i32 * scale;
        let n = ((max_x - x) / cw).max(0) as usize;
        self.text(x, y, &fit_words(s, n), c, scale);
    }

    /// The canvas as an 8-bit RGB PNG file's bytes (the host writes them).
    pub fn png(&self) -> crate::error::Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.w as u32, self.h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut data = Vec::with_capacity(self.w * self.h * 3);
        for &p in &self.px {
            data.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
        }
        let mut writer = enc.write_header().context("cannot encode the PNG")?;
        writer
            .write_image_data(&data)
            .context("cannot encode the PNG")?;
        writer.finish().context("cannot encode the PNG")?;
        Ok(out)
    }
}

/// Pixel size of one text cell at font scale `s`, with one spare pixel row pair between lines.
pub fn cell(s: i32) -> (i32, i32) {
    (GLYPH_W as i32 * s, (GLYPH_H as i32 + 3) * s)
}

/// `s` cut to at most `n` characters — at a space when it has to be cut, so that no number or
/// word is shown in part (issue 17: trace rows ended `cycles=438`); a single word longer than
/// the room is cut where it must be.
pub fn fit_words(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_owned();
    }
    let head: String = s.chars().take(n).collect();
    // The cut falls inside a word unless the next character is a space.
    let next_is_space = s.chars().nth(n).is_some_and(char::is_whitespace);
    if next_is_space {
        return head.trim_end().to_owned();
    }
    match head.rfind(char::is_whitespace) {
        Some(i) if !head[..i].trim().is_empty() => head[..i].trim_end().to_owned(),
        _ => head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_text_never_shows_part_of_a_number() {
        let row = "000102 240200 dac 200            ac=000005 io=000000 cycles=43817";
        let cut = fit_words(row, 60);
        assert!(row.starts_with(&cut) && cut.len() <= 60);
        assert!(cut.ends_with("io=000000"), "{cut}");
        assert_eq!(
            fit_words("12345", 3),
            "123",
            "one word longer than the room"
        );
        assert_eq!(fit_words("ab cd", 5), "ab cd");
        assert_eq!(fit_words("ab cd ef", 5), "ab cd");
    }

    #[test]
    fn fill_is_clipped_to_the_canvas() {
        let mut c = Canvas::new(4, 3);
        c.fill(Rect::new(-2, 1, 10, 5), 7);
        assert_eq!(c.px, vec![0, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7]);
    }

    #[test]
    fn overstrike_keeps_both_glyphs() {
        let mut a = Canvas::new(8, 8);
        a.glyph(0, 0, '3', 1, 1);
        let three = a.px.iter().filter(|&&p| p == 1).count();
        a.glyph(0, 0, 'x', 1, 1);
        let both = a.px.iter().filter(|&&p| p == 1).count();
        let mut b = Canvas::new(8, 8);
        b.glyph(0, 0, 'x', 1, 1);
        let x = b.px.iter().filter(|&&p| p == 1).count();
        assert!(
            both > three && both > x,
            "overstrike must show ink of both characters"
        );
    }

    #[test]
    fn png_round_trip_size() {
        let mut c = Canvas::new(5, 2);
        c.fill(Rect::new(0, 0, 5, 2), rgb(10, 20, 30));
        let bytes = c.png().unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (5, 2));
        assert_eq!(&buf[..3], &[10, 20, 30]);
    }
}
