//! The bitmap font: 8×8 glyphs from the `font8x8` crate (public-domain IBM-PC-style glyphs) plus
//! the few FIO-DEC characters it lacks (⊃ ∨ ∧ ↑ → ‾), drawn here in the same style.
//!
//! Glyph rows are bytes, top row first; bit 0 is the leftmost pixel (font8x8's convention).

use font8x8::legacy::{BASIC_LEGACY, LATIN_LEGACY};

/// Glyph cell width and height in font pixels.
pub const GLYPH_W: usize = 8;
pub const GLYPH_H: usize = 8;

/// FIO-DEC upper-case characters that are not in font8x8's Latin tables ([pdp1-hardware §5.2]).
const EXTRA: [(char, [u8; 8]); 6] = [
    // ⊃ "implies" (UC 4): an open-left horseshoe.
    ('⊃', [0x00, 0x1F, 0x20, 0x40, 0x40, 0x20, 0x1F, 0x00]),
    // ∨ "or" (UC 5).
    ('∨', [0x00, 0x41, 0x22, 0x22, 0x14, 0x14, 0x08, 0x00]),
    // ∧ "and" (UC 6).
    ('∧', [0x00, 0x08, 0x14, 0x14, 0x22, 0x22, 0x41, 0x00]),
    // ↑ (UC 9).
    ('↑', [0x08, 0x1C, 0x2A, 0x08, 0x08, 0x08, 0x08, 0x00]),
    // → (UC 0).
    ('→', [0x00, 0x10, 0x20, 0x7F, 0x20, 0x10, 0x00, 0x00]),
    // ‾ overline (LC 056, non-spacing).
    ('‾', [0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
];

/// The glyph for `c`; an unknown character shows as a hollow box so it is noticed.
pub fn glyph(c: char) -> [u8; 8] {
    let u = c as u32;
    match u {
        0x20..=0x7E => BASIC_LEGACY[u as usize],
        0xA0..=0xFF => LATIN_LEGACY[(u - 0xA0) as usize],
        _ => EXTRA
            .iter()
            .find(|(e, _)| *e == c)
            .map(|(_, g)| *g)
            .unwrap_or([0x00, 0x7E, 0x42, 0x42, 0x42, 0x42, 0x7E, 0x00]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fiodec_character_has_a_real_glyph() {
        let hollow = glyph('\u{2603}');
        for code in 0..64u8 {
            for upper in [false, true] {
                if let Some(c) = pdp1_core::fiodec::to_char(code, upper) {
                    if c != ' ' {
                        assert_ne!(glyph(c), hollow, "code {code:02o} upper={upper} {c:?}");
                        assert_ne!(glyph(c), [0; 8], "code {code:02o} upper={upper} {c:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn ascii_letters_come_from_font8x8() {
        // 'A' in font8x8: rows 0x0C,0x1E,0x33,0x33,0x3F,0x33,0x33,0x00.
        assert_eq!(glyph('A'), [0x0C, 0x1E, 0x33, 0x33, 0x3F, 0x33, 0x33, 0x00]);
    }
}
