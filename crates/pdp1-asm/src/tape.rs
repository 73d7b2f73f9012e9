//! Paper-tape images: RIM, BLK (MACRO's checksummed blocks behind a RIM-format loader) and
//! FIO-DEC text tapes. Facts from pdp1-hardware.md §6.3–6.5.
//!
//! A tape image is a sequence of frames (bytes), channel 1 = bit 0 … channel 8 = bit 7.
//! Binary words are three frames carrying 6 bits each, most significant first, every one with
//! hole 8 (0200) punched; frames without hole 8 are skipped, as the reader's `rpb` does
//! ([HB via MAME-drv], [SIMH-sys `pdp1_getw`]). Channel 7 is ignored.
//!
//! Positions in errors: `word` counts binary words from 0 in tape order, `frame` is the byte
//! offset in the image of that word's first frame.

use pdp1_core::arith;
use pdp1_core::fiodec;
use pdp1_core::Word;
use std::collections::BTreeMap;

/// Memory contents a tape loads, and where it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    pub words: BTreeMap<u32, Word>,
    /// Where the machine starts (`jmp` at the end of the tape); `None` if the tape has no `jmp`.
    pub start: Option<u32>,
}

/// Why a tape could not be read.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum TapeError {
    #[error("the tape holds no binary word (no frames with hole 8)")]
    Empty,
    #[error("tape ends inside word {word} (frame {frame}): only {have} of its 3 binary frames are there")]
    TruncatedWord {
        word: usize,
        frame: usize,
        have: usize,
    },
    #[error("word {word} (frame {frame}) is {value}: READ IN accepts only dio (load) or jmp (start) here")]
    NotDioOrJmp {
        word: usize,
        frame: usize,
        value: Word,
    },
    #[error(
        "tape ends after `dio {addr:04o}` in word {word} (frame {frame}): its data word is missing"
    )]
    MissingData {
        word: usize,
        frame: usize,
        addr: u32,
    },
    #[error("the RIM part ends without a jmp into a loader, so no blocks can be read")]
    NoLoaderJump,
    #[error("block starting at word {word} (frame {frame}): first word {value} is neither `dio FA` (a block) nor `jmp S` (the start)")]
    BadBlockStart {
        word: usize,
        frame: usize,
        value: Word,
    },
    #[error("block starting at word {word} (frame {frame}): second word {value} is not `dio LA+1` with LA+1 above the first address {first:04o} and at most 10000")]
    BadBlockEnd {
        word: usize,
        frame: usize,
        value: Word,
        first: u32,
    },
    #[error("tape ends inside the block {first:04o}-{last:04o} that starts at word {word} (frame {frame})")]
    TruncatedBlock {
        word: usize,
        frame: usize,
        first: u32,
        last: u32,
    },
    #[error("checksum error in block {first:04o}-{last:04o}: checksum word {word} (frame {frame}) is {found}, the words add up to {computed}")]
    Checksum {
        word: usize,
        frame: usize,
        first: u32,
        last: u32,
        found: Word,
        computed: Word,
    },
    #[error("character {ch:?} at position {pos} has no FIO-DEC code")]
    NoFiodec { ch: char, pos: usize },
}

const HOLE8: u8 = 0o200;
const DIO: u32 = 0o320000;
const JMP: u32 = 0o600000;
/// Blank frames before and after a tape: DEC's two feet of leader, 10 lines per inch.
const LEADER: usize = 240;
/// Blank frames between blocks (the MIT memo recommends about 5).
const GAP: usize = 5;
/// Largest block MACRO punches (`LOADERBUFSIZE 0100` in [macro1]).
pub const MAX_BLOCK: usize = 0o100;

fn is_dio(w: Word) -> bool {
    w.bits() & 0o770000 == DIO
}
fn is_jmp(w: Word) -> bool {
    w.bits() & 0o770000 == JMP
}

/// Reads binary words the way `rpb` does.
struct WordReader<'a> {
    frames: &'a [u8],
    pos: usize,
    index: usize,
}

/// One binary word and where it came from.
#[derive(Clone, Copy)]
struct At {
    value: Word,
    word: usize,
    frame: usize,
}

impl<'a> WordReader<'a> {
    fn new(frames: &'a [u8]) -> Self {
        WordReader {
            frames,
            pos: 0,
            index: 0,
        }
    }

    /// The next word, `None` at a clean end of tape.
    fn next(&mut self) -> Result<Option<At>, TapeError> {
        let mut v = 0u32;
        let mut have = 0;
        let mut first = 0;
        while have < 3 {
            let Some(&f) = self.frames.get(self.pos) else {
                if have == 0 {
                    return Ok(None);
                }
                return Err(TapeError::TruncatedWord {
                    word: self.index,
                    frame: first,
                    have,
                });
            };
            self.pos += 1;
            if f & HOLE8 == 0 {
                continue;
            }
            if have == 0 {
                first = self.pos - 1;
            }
            v = (v << 6) | u32::from(f & 0o77);
            have += 1;
        }
        let at = At {
            value: Word::new(v),
            word: self.index,
            frame: first,
        };
        self.index += 1;
        Ok(Some(at))
    }
}

/// The RIM part: `dio A` / data pairs until `jmp S`. Returns the jmp, or `None` at a clean end.
fn read_rim_part(
    r: &mut WordReader,
    words: &mut BTreeMap<u32, Word>,
) -> Result<Option<At>, TapeError> {
    loop {
        let Some(w) = r.next()? else {
            return Ok(None);
        };
        if is_jmp(w.value) {
            return Ok(Some(w));
        }
        if !is_dio(w.value) {
            return Err(TapeError::NotDioOrJmp {
                word: w.word,
                frame: w.frame,
                value: w.value,
            });
        }
        let addr = w.value.addr12();
        let Some(d) = r.next()? else {
            return Err(TapeError::MissingData {
                word: w.word,
                frame: w.frame,
                addr,
            });
        };
        words.insert(addr, d.value);
    }
}

/// Read a RIM tape as the console READ IN does ([aap `readin1/readin2`], §6.3): `dio Y` stores
/// the next word at Y, `jmp Y` ends read-in and starts at Y. Anything else is an error (aap
/// accepts only dio; SIMH's tolerance of `dac` is not copied). A tape that ends cleanly after a
/// complete pair loads with `start: None`.
pub fn read_rim(frames: &[u8]) -> Result<Image, TapeError> {
    let mut r = WordReader::new(frames);
    let mut words = BTreeMap::new();
    let jmp = read_rim_part(&mut r, &mut words)?;
    if jmp.is_none() && words.is_empty() {
        return Err(TapeError::Empty);
    }
    Ok(Image {
        words,
        start: jmp.map(|j| j.value.addr12()),
    })
}

/// Read the blocks after the RIM part as the 7751 loader does (§6.5): `dio FA`, `dio LA+1`,
/// the words for FA…LA, then the checksum (one's-complement `add` of the first word, the data
/// words and the second word); a `jmp S` where a block would start gives the start address.
/// With `ext` (the RIM part loaded [`ext_loader`]) the blocks' first two words are 16-bit
/// addresses.
fn read_blocks(r: &mut WordReader, image: &mut Image, ext: bool) -> Result<(), TapeError> {
    loop {
        let Some(w1) = r.next()? else {
            return Ok(());
        };
        if is_jmp(w1.value) {
            image.start = Some(w1.value.addr12());
            return Ok(());
        }
        read_block(r, image, w1, ext)?;
    }
}

/// One block after its first word `w1`: DEC's (`dio FA`, `dio LA+1`) or, with `ext`,
/// [`ext_loader`]'s (the 16-bit first address and last address + 1).
fn read_block(r: &mut WordReader, image: &mut Image, w1: At, ext: bool) -> Result<(), TapeError> {
    let bad_start = !if ext {
        w1.value.bits() <= 0o177777
    } else {
        is_dio(w1.value)
    };
    if bad_start {
        return Err(TapeError::BadBlockStart {
            word: w1.word,
            frame: w1.frame,
            value: w1.value,
        });
    }
    let first = if ext {
        w1.value.bits()
    } else {
        w1.value.addr12()
    };
    let truncated = |last| TapeError::TruncatedBlock {
        word: w1.word,
        frame: w1.frame,
        first,
        last,
    };
    let w2 = r.next()?.ok_or_else(|| truncated(first))?;
    let (end, limit, shaped) = if ext {
        (w2.value.bits(), 0o200000, true)
    } else {
        let v = w2.value.bits();
        (
            v.wrapping_sub(DIO),
            0o10000,
            is_dio(w2.value) || v == DIO + 0o10000,
        )
    };
    if !shaped || end <= first || end > limit {
        return Err(TapeError::BadBlockEnd {
            word: w1.word,
            frame: w1.frame,
            value: w2.value,
            first,
        });
    }
    let last = end - 1;
    let mut sum = w1.value;
    for a in first..end {
        let d = r.next()?.ok_or_else(|| truncated(last))?;
        image.words.insert(a, d.value);
        sum = arith::add(sum, d.value).0;
    }
    sum = arith::add(sum, w2.value).0;
    let ck = r.next()?.ok_or_else(|| truncated(last))?;
    if ck.value != sum {
        return Err(TapeError::Checksum {
            word: ck.word,
            frame: ck.frame,
            first,
            last,
            found: ck.value,
            computed: sum,
        });
    }
    Ok(())
}

/// Did the RIM part load [`ext_loader`]?
fn loaded_ext_loader(words: &BTreeMap<u32, Word>) -> bool {
    ext_loader().iter().all(|(a, w)| words.get(a) == Some(w))
}

/// Read a BLK tape: the RIM part (normally MACRO's loader at 7751–7775, ending `jmp 7751`), then
/// the checksummed blocks. The image holds the RIM part's words as READ IN leaves them and the
/// blocks' words; it does not model the loader's own scratch words (`a`, `ck`, `en1`) changing
/// while it runs. A tape that ends cleanly after a block loads with `start: None`.
pub fn read_blk(frames: &[u8]) -> Result<Image, TapeError> {
    let mut r = WordReader::new(frames);
    let mut image = Image::default();
    if read_rim_part(&mut r, &mut image.words)?.is_none() {
        return Err(if image.words.is_empty() {
            TapeError::Empty
        } else {
            TapeError::NoLoaderJump
        });
    }
    let ext = loaded_ext_loader(&image.words);
    read_blocks(&mut r, &mut image, ext)?;
    Ok(image)
}

/// Read either kind: BLK when the RIM part ends with a `jmp` into an address it loaded (a
/// loader) and the next binary word starts a block (`dio`) or is the start `jmp`, otherwise RIM.
pub fn read_image(frames: &[u8]) -> Result<Image, TapeError> {
    let mut r = WordReader::new(frames);
    let mut image = Image::default();
    let Some(jmp) = read_rim_part(&mut r, &mut image.words)? else {
        if image.words.is_empty() {
            return Err(TapeError::Empty);
        }
        return Ok(image);
    };
    let target = jmp.value.addr12();
    // A block reader follows when the next word is a block's `dio FA` (or at once the start
    // `jmp`); lisp.rim, a RIM tape, has a stray 000000 word after its jmp.
    let mut peek = WordReader {
        frames: r.frames,
        pos: r.pos,
        index: r.index,
    };
    let ext = target == EXT_LOADER_BASE && loaded_ext_loader(&image.words);
    let next_is_block =
        matches!(peek.next(), Ok(Some(w)) if is_dio(w.value) || is_jmp(w.value) || ext);
    if image.words.contains_key(&target) && next_is_block {
        read_blocks(&mut r, &mut image, ext)?;
    } else {
        image.start = Some(target);
    }
    Ok(image)
}

fn punch_word(out: &mut Vec<u8>, w: u32) {
    for shift in [12, 6, 0] {
        out.push(HOLE8 | ((w >> shift) & 0o77) as u8);
    }
}

/// A RIM tape: leader, `dio A` / word pairs in address order, `jmp start` (omitted when the
/// image has no start), trailer.
pub fn write_rim(image: &Image) -> Vec<u8> {
    let mut out = vec![0; LEADER];
    for (&a, &w) in &image.words {
        punch_word(&mut out, DIO | (a & 0o7777));
        punch_word(&mut out, w.bits());
    }
    if let Some(s) = image.start {
        punch_word(&mut out, JMP | (s & 0o7777));
    }
    out.resize(out.len() + LEADER, 0);
    out
}

/// First address of the block loader (§6.5; DDT expects it there).
pub const LOADER_BASE: u32 = 0o7751;

/// The 7751 binary loader, written out from its listing in pdp1-hardware.md §6.5 (MIT memo
/// "PDP Binary Tape Format and Input Routine", 1961): 7751–7775; `ck` (7776) and `en1` (7777)
/// are its scratch words and are not punched.
pub fn loader() -> Vec<(u32, Word)> {
    const RPB: u32 = 0o730002;
    let (inn, b, a, ck, en1) = (
        LOADER_BASE,
        LOADER_BASE + 6,
        LOADER_BASE + 7,
        0o7776,
        0o7777,
    );
    let code = [
        RPB,          // in,  rpb
        DIO | a,      //      dio a      first word of the block: `dio FA` (or `jmp S`)
        0o100000 | a, //      xct a      stores it at FA for now, or starts the program
        DIO | ck,     //      dio ck     checksum starts with word 1
        RPB,          //      rpb
        DIO | en1,    //      dio en1    word 2 = `dio LA+1`
        RPB,          // b,   rpb
        0,            // a,   (self-modified: dio FA, FA+1, ...)
        0o210000 | a, //      lac i a
    ];
    code.iter()
        .chain(&loader_tail(a, b, ck, en1, inn))
        .enumerate()
        .map(|(i, &w)| (inn + i as u32, Word::new(w)))
        .collect()
}

/// The end of a block loader's loop and of its block, from the word in AC (both loaders): the
/// checksum `ck` summed, the address `a` stepped to `en` (the last + 1) and back to `b` for the
/// next word, then the checksum word read and compared (a halt when it differs), and `in` for
/// the next block.
fn loader_tail(a: u32, b: u32, ck: u32, en: u32, inn: u32) -> [u32; 12] {
    const RPB: u32 = 0o730002;
    [
        0o400000 | ck, //      add ck
        0o240000 | ck, //      dac ck
        0o440000 | a,  //      idx a
        0o520000 | en, //      sas en
        JMP | b,       //      jmp b
        0o200000 | ck, //      lac ck
        0o400000 | en, //      add en
        RPB,           //      rpb
        DIO | ck,      //      dio ck
        0o520000 | ck, //      sas ck
        0o760400,      //      hlt        checksum error; CONTINUE reads the next block
        JMP | inn,     //      jmp in
    ]
}

/// First address of the 16-bit block loader, for a program with words outside field 0
/// ([`ext_loader`]): five words below DEC's.
pub const EXT_LOADER_BASE: u32 = 0o7746;

/// The block loader for a program that fills more than field 0 (our own, for the Type 15
/// memory extension; DEC's 7751 loader stores with `dio FA`, in field 0 only). It is DEC's
/// loader run in extend mode, where an indirect word holds a 16-bit address (pdp1-hardware.md
/// §1.1): a block's first word is its first address (16 bits, so positive), the second its
/// last address + 1, the words stored by `dio i a`; the checksum is DEC's (the one's-complement
/// sum of the first word, the data words and the second word), of the words read, not of the
/// memory (DEC's `lac i a`), so that a tape for 64K loads on a smaller machine, whose missing
/// fields ignore the words, and its program can say what it needs. A negative first word is the
/// start block `jmp S`, executed as it is: the program starts in extend mode. 7746–7775 are
/// the code (the checksum `ck` is kept in 7746, whose `eem` runs once), 7776 and 7777 its
/// scratch words (not punched).
pub fn ext_loader() -> Vec<(u32, Word)> {
    const RPB: u32 = 0o730002;
    const EEM: u32 = 0o724074;
    const SPI: u32 = 0o642000;
    const RCL_9S: u32 = 0o663777;
    let base = EXT_LOADER_BASE;
    let (ck, inn, b, a, en) = (base, base + 1, base + 8, 0o7776, 0o7777);
    let code = [
        EEM,          // ck,  eem        16-bit indirect addresses
        RPB,          // in,  rpb
        DIO | a,      //      dio a      first word: the first address, or jmp S
        SPI,          //      spi
        JMP | a,      //      jmp a      negative: the start block, jmp S
        DIO | ck,     //      dio ck     checksum starts with word 1
        RPB,          //      rpb
        DIO | en,     //      dio en     word 2: the last address + 1
        RPB,          // b,   rpb
        0o330000 | a, //      dio i a
        RCL_9S,       //      rcl 9s     the word to AC (AC and IO exchanged)
        RCL_9S,       //      rcl 9s
    ];
    let tail = loader_tail(a, b, ck, en, inn);
    debug_assert_eq!(base + (code.len() + tail.len()) as u32, a);
    code.iter()
        .chain(&tail)
        .enumerate()
        .map(|(i, &w)| (base + i as u32, Word::new(w)))
        .collect()
}

/// Does the image reach outside field 0 (and so need [`ext_loader`])?
pub fn beyond_field_0(image: &Image) -> bool {
    image.words.range(0o10000..).next().is_some()
}

/// Contiguous runs of the image split into blocks of at most [`MAX_BLOCK`] words.
fn blocks(image: &Image) -> Vec<(u32, Vec<Word>)> {
    let mut out: Vec<(u32, Vec<Word>)> = Vec::new();
    for (&a, &w) in &image.words {
        match out.last_mut() {
            Some((first, ws)) if *first + ws.len() as u32 == a && ws.len() < MAX_BLOCK => {
                ws.push(w)
            }
            _ => out.push((a, vec![w])),
        }
    }
    out
}

/// A BLK tape as MACRO punches it: leader, the loader in RIM format ending `jmp 7751`, blocks of
/// at most 100 words each followed by a short gap, `jmp start` (omitted without a start),
/// trailer. Words at 7751–7777 would overwrite the loader while it runs; callers should refuse
/// such images (the `pdp1-asm` command does).
///
/// An image with words outside field 0 gets the 16-bit loader ([`ext_loader`], at 7750) and
/// its blocks (first and last + 1 addresses in 16 bits); every other tape is byte for byte
/// MACRO's.
pub fn write_blk(image: &Image) -> Vec<u8> {
    let ext = beyond_field_0(image);
    let (loader, base) = if ext {
        (ext_loader(), EXT_LOADER_BASE)
    } else {
        (loader(), LOADER_BASE)
    };
    let mut out = vec![0; LEADER];
    for (a, w) in loader {
        punch_word(&mut out, DIO | a);
        punch_word(&mut out, w.bits());
    }
    punch_word(&mut out, JMP | base);
    out.resize(out.len() + GAP, 0);
    for (first, ws) in blocks(image) {
        let (w1, w2) = if ext {
            (Word::new(first), Word::new(first + ws.len() as u32))
        } else {
            let first = first & 0o7777;
            (
                Word::new(DIO | first),
                Word::new(DIO + first + ws.len() as u32),
            )
        };
        punch_word(&mut out, w1.bits());
        punch_word(&mut out, w2.bits());
        let mut sum = w1;
        for &w in &ws {
            punch_word(&mut out, w.bits());
            sum = arith::add(sum, w).0;
        }
        sum = arith::add(sum, w2).0;
        punch_word(&mut out, sum.bits());
        out.resize(out.len() + GAP, 0);
    }
    if let Some(s) = image.start {
        punch_word(&mut out, JMP | (s & 0o7777));
    }
    out.resize(out.len() + LEADER, 0);
    out
}

/// One FIO-DEC frame: the code in channels 1–6 and channel 8 set so that the frame has an odd
/// number of holes, as on the real FIO-DEC tapes in ../shared/tapes (lisp-defs.pt: space is
/// 0200, carriage return 0277, `(` 057). A blank frame (000) is tape feed, not a space.
pub fn fiodec_frame(code: u8) -> u8 {
    let code = code & 0o77;
    if code.count_ones() & 1 == 0 {
        code | HOLE8
    } else {
        code
    }
}

/// Punch `text` as a FIO-DEC tape, inserting case shifts (072 lower, 074 upper) where the case
/// changes; the first cased character always gets an explicit shift. `\n` is a carriage return,
/// `\t` a tab, `\r` is dropped. SIMH's ASCII stand-ins are accepted (see `pdp1_core::fiodec`).
pub fn text_to_fiodec_tape(text: &str) -> Result<Vec<u8>, TapeError> {
    let mut out = Vec::new();
    let mut case: Option<bool> = None;
    for (pos, ch) in text.chars().enumerate() {
        if ch == '\r' {
            continue;
        }
        let (code, need) = fiodec::from_char(ch).ok_or(TapeError::NoFiodec { ch, pos })?;
        if let Some(upper) = need {
            if case != Some(upper) {
                out.push(fiodec_frame(if upper {
                    fiodec::UPPER_CASE
                } else {
                    fiodec::LOWER_CASE
                }));
                case = Some(upper);
            }
        }
        out.push(fiodec_frame(code));
    }
    Ok(out)
}

/// Read a FIO-DEC text tape back to text: blank frames are skipped, case shifts change the case
/// (lower at the start), carriage return → `\n`, tab → `\t`, backspace → `\u{8}`; ribbon colour
/// and stop codes and unassigned codes produce nothing.
pub fn fiodec_tape_to_text(frames: &[u8]) -> String {
    let mut s = String::new();
    let mut upper = false;
    for &f in frames {
        if f == 0 {
            continue;
        }
        match f & 0o77 {
            fiodec::LOWER_CASE => upper = false,
            fiodec::UPPER_CASE => upper = true,
            fiodec::CARRIAGE_RETURN => s.push('\n'),
            fiodec::TAB => s.push('\t'),
            fiodec::BACKSPACE => s.push('\u{8}'),
            code => {
                if let Some(c) = fiodec::to_char(code, upper) {
                    s.push(c);
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img(words: &[(u32, u32)], start: Option<u32>) -> Image {
        Image {
            words: words.iter().map(|&(a, w)| (a, Word::new(w))).collect(),
            start,
        }
    }

    #[test]
    fn handbook_rpb_example_frames() {
        // HB: `sub 5137` = 425137 is punched as lines 42, 51, 37, each with channel 8.
        let t = write_rim(&img(&[(0o100, 0o425137)], None));
        let data: Vec<u8> = t.iter().copied().filter(|f| f & HOLE8 != 0).collect();
        assert_eq!(&data[3..6], &[0o242, 0o251, 0o237]);
    }

    #[test]
    fn loader_matches_the_listing() {
        // pdp1-hardware.md §6.5 listing, octal words 7751–7775.
        let expect = [
            0o730002, 0o327760, 0o107760, 0o327776, 0o730002, 0o327777, 0o730002, 0o000000,
            0o217760, 0o407776, 0o247776, 0o447760, 0o527777, 0o607757, 0o207776, 0o407777,
            0o730002, 0o327776, 0o527776, 0o760400, 0o607751,
        ];
        let l = loader();
        assert_eq!(l.len(), expect.len());
        for (i, (a, w)) in l.iter().enumerate() {
            assert_eq!(*a, 0o7751 + i as u32);
            assert_eq!(w.bits(), expect[i], "at {a:o}");
        }
    }

    #[test]
    fn rim_and_blk_round_trip() {
        let mut words: Vec<(u32, u32)> = (0o100..0o400).map(|a| (a, a * 7 + 0o400000)).collect();
        words.push((0o1000, 0o777777));
        let i = img(&words, Some(0o100));
        assert_eq!(read_rim(&write_rim(&i)).unwrap(), i);
        assert_eq!(read_image(&write_rim(&i)).unwrap(), i);
        let b = read_blk(&write_blk(&i)).unwrap();
        assert_eq!(b.start, Some(0o100));
        for (a, w) in &i.words {
            assert_eq!(b.words.get(a), Some(w));
        }
        assert_eq!(read_image(&write_blk(&i)).unwrap(), b);
    }

    #[test]
    fn checksum_error_names_block_and_word() {
        let i = img(&[(0o100, 1), (0o101, 2)], Some(0o100));
        let mut t = write_blk(&i);
        // Corrupt the last frame of the first data word of the block (the 21 loader pairs +
        // jmp = 43 words, then dio FA, dio LA+1, data...).
        let data_frames: Vec<usize> = (0..t.len()).filter(|&k| t[k] & HOLE8 != 0).collect();
        let k = data_frames[(43 + 2) * 3 + 2];
        t[k] ^= 0o4;
        match read_blk(&t).unwrap_err() {
            TapeError::Checksum {
                word, first, last, ..
            } => {
                assert_eq!((word, first, last), (43 + 4, 0o100, 0o101));
            }
            e => panic!("{e}"),
        }
    }

    #[test]
    fn fiodec_text_round_trip_with_shifts() {
        let t = text_to_fiodec_tape("Ab (x)\n").unwrap();
        // upper-case shift, A, lower-case shift, b, space, (, x, ), carriage return
        let codes: Vec<u8> = t.iter().map(|f| f & 0o77).collect();
        assert_eq!(
            codes,
            [0o74, 0o61, 0o72, 0o62, 0o00, 0o57, 0o27, 0o55, 0o77]
        );
        assert_eq!(t[4], 0o200); // space carries the parity hole
        assert_eq!(fiodec_tape_to_text(&t), "Ab (x)\n");
        assert!(matches!(
            text_to_fiodec_tape("a;"),
            Err(TapeError::NoFiodec { ch: ';', pos: 1 })
        ));
    }
}
