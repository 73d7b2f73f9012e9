//! The Type 30 point stream of the PiDP-1's port 3400 (issue 30), as `pdp1_periph` (the
//! PiDP-1's display program, `src/pdp1_periph/p7.c`) reads it: 32-bit little-endian words,
//! one a point — x in bits 0–9 and y in bits 10–19 in screen units (0–1023, origin bottom
//! left, 512 the centre), the brightness 0–7 in bits 20–22, and in bits 23–31 the time in
//! microseconds since the point before. 511 there is an escape: the next word is a time. A
//! point at (0,0) is only time. Pure: points in, bytes out.

use pdp1_core::DisplayPoint;

/// The escape for a long gap: the next word is the time.
pub const ESCAPE: u32 = 511;

/// A program coordinate (signed 10 bits) in screen units: `0..511` to `512..1023` and
/// `-511..-1` to `2..512` (aap's `mapcoord`: 0 and −1 land on the same column).
pub fn screen(v: i16) -> u32 {
    if v >= 0 {
        (v as i32 + 512).min(1023) as u32
    } else {
        (v as i32 + 513).max(1) as u32
    }
}

/// Our intensity code (dim→bright 4,5,6,7,0,1,2,3) as the stream's brightness (0 dim, 7
/// bright).
pub fn brightness(code: u8) -> u32 {
    u32::from((code & 7) ^ 4)
}

/// What a display sends back (`pdp1_periph`'s light pen, `updatepen` in p7.c): a word with
/// 0xFF in its top byte, the pen down in bit 20, x in bits 10–19 and y in bits 0–9 (screen
/// units, y up). Returns `None` for any other word, else the pen's place (`None`: lifted)
/// in the program's coordinates, which the machine's light pen compares.
pub fn pen(word: u32) -> Option<Option<(i16, i16)>> {
    if word >> 24 != 0xFF {
        return None;
    }
    let down = word >> 20 & 1 == 1;
    let (x, y) = ((word >> 10 & 0o1777) as i16, (word & 0o1777) as i16);
    Some(down.then_some((x - 512, y - 512)))
}

/// Encodes points for one display, keeping the time of the last one sent.
#[derive(Debug, Default)]
pub struct Encoder {
    last_ns: Option<u64>,
}

impl Encoder {
    pub fn encode(&mut self, points: &[DisplayPoint], out: &mut Vec<u8>) {
        for p in points.iter().filter(|p| p.scope == 0) {
            let mut dt = self
                .last_ns
                .map(|t| p.time_ns.saturating_sub(t) / 1000)
                .unwrap_or(0);
            self.last_ns = Some(p.time_ns);
            // p7.c reads the word after an escape as a point too, so the escaped gap is whole
            // multiples of 2^20 µs below 2^23 (x, y and the word's own time all 0), and the
            // rest goes in time-only words of at most 510 µs.
            while dt >= 1 << 20 {
                let k = (dt >> 20).min(7);
                out.extend_from_slice(&(ESCAPE << 23).to_le_bytes());
                out.extend_from_slice(&((k << 20) as u32).to_le_bytes());
                dt -= k << 20;
            }
            while dt >= u64::from(ESCAPE) {
                out.extend_from_slice(&(510u32 << 23).to_le_bytes());
                dt -= 510;
            }
            let w =
                (dt as u32) << 23 | brightness(p.intensity) << 20 | screen(p.y) << 10 | screen(p.x);
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_fold_as_aaps_mapcoord() {
        assert_eq!(screen(0), 512);
        assert_eq!(screen(-1), 512);
        assert_eq!(screen(511), 1023);
        assert_eq!(screen(-511), 2);
        assert_eq!(brightness(3), 7);
        assert_eq!(brightness(4), 0);
    }

    #[test]
    fn the_pen_word_of_pdp1_periph() {
        assert_eq!(
            pen(0xFF << 24 | 1 << 20 | 512 << 10 | 300),
            Some(Some((0, -212)))
        );
        assert_eq!(pen(0xFF << 24 | 600 << 10 | 300), Some(None));
        assert_eq!(pen(7 << 20 | 512 << 10 | 300), None, "a point, not the pen");
    }

    #[test]
    fn long_gaps_are_escaped() {
        let p = |t: u64, x: i16| crate::test_point(x, t);
        let mut e = Encoder::default();
        let mut out = vec![];
        e.encode(
            &[p(1_000, 1), p(51_000, 2), p(51_000 + 2_098_176_000, 3)],
            &mut out,
        );
        let words: Vec<u32> = out
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        // 2,098,176 µs = 2 × 2^20 + 1024: the escape and 2 × 2^20, two 510s, a point after 4.
        assert_eq!(words.len(), 7);
        assert_eq!(words[0] >> 23, 0);
        assert_eq!(words[1] >> 23, 50);
        assert_eq!(words[1] & 0o1777, 514);
        assert_eq!(words[2], ESCAPE << 23);
        assert_eq!(words[3], 2 << 20);
        assert_eq!(words[4], 510 << 23);
        assert_eq!(words[6] >> 23, 4);
        assert_eq!(words[6] & 0o1777, 515);
        assert_eq!(words[6] >> 20 & 7, 7);
    }
}
