//! The 18-bit PDP-1 word.

use std::fmt;

/// An 18-bit PDP-1 word. The constructor masks to 18 bits, so a `Word` can never hold more.
/// `Display` prints six octal digits, as every PDP-1 listing does.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
// A saved state is outside input: deserialising checks the 18 bits instead of trusting them
// (the constructor's masking would silently change a damaged word).
#[serde(try_from = "u32", into = "u32")]
pub struct Word(u32);

impl Word {
    /// All 18 bits set: −0 in one's complement.
    pub const MASK: u32 = 0o777_777;
    pub const ZERO: Word = Word(0);
    pub const MINUS_ZERO: Word = Word(Self::MASK);
    pub const SIGN: u32 = 0o400_000;

    /// Build a word from the low 18 bits of `v`.
    #[inline]
    pub const fn new(v: u32) -> Word {
        Word(v & Self::MASK)
    }

    /// The raw 18 bits.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Sign bit (bit 0) set: negative, including −0.
    #[inline]
    pub const fn is_negative(self) -> bool {
        self.0 & Self::SIGN != 0
    }

    /// One's-complement value as a signed integer (−0 reads as 0).
    #[inline]
    pub const fn to_i32(self) -> i32 {
        if self.is_negative() {
            -((self.0 ^ Self::MASK) as i32)
        } else {
            self.0 as i32
        }
    }

    /// One's-complement encoding of `v` (|v| ≤ 2^17 − 1); 0 encodes as +0.
    #[inline]
    pub const fn from_i32(v: i32) -> Word {
        if v < 0 {
            Word::new(!((-v) as u32))
        } else {
            Word::new(v as u32)
        }
    }

    /// Opcode field, bits 0–4 (`w >> 13`).
    #[inline]
    pub const fn opcode(self) -> u32 {
        self.0 >> 13
    }

    /// Indirect / modifier bit 5 (`010000`).
    #[inline]
    pub const fn i_bit(self) -> bool {
        self.0 & 0o010_000 != 0
    }

    /// 12-bit address field, bits 6–17.
    #[inline]
    pub const fn addr12(self) -> u32 {
        self.0 & 0o7777
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:06o}", self.0)
    }
}

impl fmt::Debug for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Word({:06o})", self.0)
    }
}

impl From<Word> for u32 {
    fn from(w: Word) -> u32 {
        w.0
    }
}

/// A value that does not fit in 18 bits (from [`Word::try_from`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAWord(pub u32);

impl fmt::Display for NotAWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:o} (octal) does not fit in 18 bits", self.0)
    }
}

impl std::error::Error for NotAWord {}

impl TryFrom<u32> for Word {
    type Error = NotAWord;
    /// `v` as a word if it fits in 18 bits; unlike [`Word::new`] nothing is masked away.
    fn try_from(v: u32) -> Result<Word, NotAWord> {
        if v <= Self::MASK {
            Ok(Word(v))
        } else {
            Err(NotAWord(v))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_prints_octal() {
        assert_eq!(Word::new(0o1_000_001).bits(), 1);
        assert_eq!(format!("{}", Word::new(0o123)), "000123");
        assert_eq!(Word::from_i32(-1).bits(), 0o777_776);
        assert_eq!(Word::MINUS_ZERO.to_i32(), 0);
        assert_eq!(Word::new(0o777_776).to_i32(), -1);
    }

    #[test]
    fn try_from_refuses_more_than_18_bits() {
        assert_eq!(Word::try_from(0o777_777), Ok(Word::MINUS_ZERO));
        assert_eq!(Word::try_from(0o1_000_000), Err(NotAWord(0o1_000_000)));
        assert!(NotAWord(0o1_000_000).to_string().contains("18 bits"));
    }
}
