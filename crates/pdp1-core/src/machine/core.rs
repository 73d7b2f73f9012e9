//! Core memory.
//!
//! Always 65,536 words are allocated so that any 16-bit address indexes the array without a
//! bounds check in the hot loop; only the first `size` words exist. Addresses beyond the
//! installed memory read as 0 and ignore writes (SIMH's `MEM_ADDR_OK`). Serialised as the
//! size and the words up to the last non-zero one.

use crate::word::Word;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

pub(super) const MAX: usize = 65536;

#[derive(Clone)]
pub(super) struct Core {
    words: Box<[Word; MAX]>,
    size: usize,
}

fn zeroed() -> Box<[Word; MAX]> {
    vec![Word::ZERO; MAX]
        .into_boxed_slice()
        .try_into()
        .expect("65536 words")
}

impl Core {
    pub(super) fn new(size: usize) -> Core {
        Core {
            words: zeroed(),
            size,
        }
    }

    /// The installed words.
    pub(super) fn words(&self) -> &[Word] {
        &self.words[..self.size]
    }

    pub(super) fn get(&self, a: u32) -> Option<Word> {
        self.words().get(a as usize).copied()
    }

    pub(super) fn set(&mut self, a: u32, w: Word) -> bool {
        if (a as usize) < self.size {
            self.words[a as usize] = w;
            true
        } else {
            false
        }
    }

    /// The whole 64K array and the installed size, for the run loop (`fast.rs`), which
    /// indexes it with masked 16-bit addresses (no bounds check) and checks the size on writes.
    #[inline(always)]
    pub(super) fn raw(&mut self) -> (&mut [Word; MAX], usize) {
        (&mut self.words, self.size)
    }

    /// Read a 16-bit address (higher bits ignored); 0 outside the installed memory.
    #[inline(always)]
    pub(super) fn rd(&self, a: u32) -> u32 {
        self.words[(a & 0xFFFF) as usize].bits()
    }

    /// Write a 16-bit address; lost outside the installed memory.
    #[inline(always)]
    pub(super) fn wr(&mut self, a: u32, v: u32) {
        let a = (a & 0xFFFF) as usize;
        if a < self.size {
            self.words[a] = Word::new(v);
        }
    }
}

impl fmt::Debug for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let used = self.words().iter().filter(|w| w.bits() != 0).count();
        write!(f, "Core {{ size: {}, non-zero words: {used} }}", self.size)
    }
}

#[derive(Serialize, Deserialize)]
struct CoreImage {
    size: usize,
    words: Vec<Word>,
}

impl Serialize for Core {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let w = self.words();
        let end = w.iter().rposition(|x| x.bits() != 0).map_or(0, |i| i + 1);
        CoreImage {
            size: self.size,
            words: w[..end].to_vec(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Core {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Core, D::Error> {
        let img = CoreImage::deserialize(d)?;
        if img.size == 0 || img.size > MAX || img.words.len() > img.size {
            return Err(serde::de::Error::custom(format!(
                "memory image of {} words for a {}-word memory",
                img.words.len(),
                img.size
            )));
        }
        let mut c = Core::new(img.size);
        c.words[..img.words.len()].copy_from_slice(&img.words);
        Ok(c)
    }
}
