//! Paper tapes (their frames: the host reads the files): the boot tape (checked as a RIM/BLK image before anything runs) and
//! the second tape that goes into the reader once the first has been read (`--reader`).

use crate::error::{bail, Context, Result};
use pdp1_core::Machine;
use std::collections::VecDeque;
use std::path::Path;

/// A tape file's frames.
#[derive(Clone, Debug)]
pub struct Tape {
    pub frames: Vec<u8>,
    /// Where the program starts once the whole tape is loaded (a BLK tape's start block, or
    /// the RIM tape's final `jmp`); `None` for data tapes.
    pub start: Option<u32>,
}

/// A tape's file name as the console's reader panel shows it.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// [`file_name`] of a tape that may be absent (empty then).
pub fn file_name_of(path: Option<&Path>) -> String {
    path.map(file_name).unwrap_or_default()
}

impl Tape {
    /// A tape to READ IN, from its frames (`name`: the file as the operator named it, for
    /// messages): must be a well-formed RIM or BLK image, checked here so a bad tape is
    /// reported (with the word and frame) before the machine runs.
    pub fn boot(frames: Vec<u8>, name: &str) -> Result<Tape> {
        if frames.is_empty() {
            bail!("tape {name} is empty");
        }
        let start = check_image(&frames).with_context(|| format!("tape {name}"))?;
        Ok(Tape {
            frames,
            start: Some(start),
        })
    }

    /// A tape the program reads itself (any frames: text, binary, …).
    pub fn data(frames: Vec<u8>, name: &str) -> Result<Tape> {
        if frames.is_empty() {
            bail!("reader tape {name} is empty");
        }
        Ok(Tape {
            frames,
            start: None,
        })
    }
}

/// Nothing but blank leader or trailer is left in the reader (frames without data holes 1–7;
/// some tapes end with hole 8 alone): READ IN would run off the end.
pub fn reader_spent(m: &Machine) -> bool {
    m.tape_unread().iter().all(|&f| f & 0o177 == 0)
}

/// Check a READ IN tape with the assembler crate's tape reader; returns its start address.
fn check_image(frames: &[u8]) -> Result<u32> {
    let image = pdp1_asm::tape::read_image(frames).map_err(|e| crate::err!("{e}"))?;
    match image.start {
        Some(start) => Ok(start),
        // READ IN would load the words and then run off the end of the tape.
        None => bail!("the tape has no start address (no final jmp): it may be truncated"),
    }
}

/// Puts the second tape in the reader once the first has been read: when nothing but blank
/// frames (no data holes) is left of the first tape, READ IN or the program's loader has taken
/// everything on it, as an operator would see before changing tapes; or when the program it
/// loaded asks for a key (it has started, whatever is left on the tape).
#[derive(Debug, Default)]
pub struct Feeder {
    /// The boot tape, to see what is left of it (`None`: no boot tape, mount at once).
    first: Option<Reel>,
    /// The `--reader` tapes still to come, in order.
    next: VecDeque<Reel>,
    /// The `--reader` tapes as they were given, for a rewind.
    next_given: Vec<Reel>,
    /// The length of the `--reader` tape now in the reader (`None`: none mounted yet).
    current: Option<usize>,
    first_done: bool,
    /// The name of the tape now in the reader, for the console's reader panel: every way a
    /// tape goes in — READ IN, the `--reader` queue, a script's `mount`, the window's Ctrl+O —
    /// passes through here, so the panel names the tape the reader holds.
    in_reader: String,
}

/// A tape as the feeder keeps it: its name (for the reader panel) and its frames.
#[derive(Clone, Debug, Default)]
struct Reel {
    name: String,
    frames: Vec<u8>,
}

impl Reel {
    fn unnamed(frames: &[u8]) -> Reel {
        Reel {
            name: String::new(),
            frames: frames.to_vec(),
        }
    }
}

impl Feeder {
    pub fn new(first: Option<&Tape>, next: &[Tape]) -> Feeder {
        let given: Vec<Reel> = next.iter().map(|t| Reel::unnamed(&t.frames)).collect();
        Feeder {
            first: first.map(|t| Reel::unnamed(&t.frames)),
            next: given.iter().cloned().collect(),
            next_given: given,
            current: None,
            first_done: first.is_none(),
            in_reader: String::new(),
        }
    }

    /// Name the tapes `new` was given (the boot tape, then the `--reader` tapes in order), as
    /// the console's reader panel shows them.
    pub fn named(mut self, first: &str, next: &[String]) -> Feeder {
        if let Some(f) = &mut self.first {
            f.name = first.to_owned();
        }
        self.in_reader = first.to_owned();
        for (reel, name) in self.next_given.iter_mut().zip(next) {
            reel.name = name.clone();
        }
        self.next = self.next_given.iter().cloned().collect();
        self
    }

    /// The name of the tape in the reader (empty: none named).
    pub fn tape_in_reader(&self) -> &str {
        &self.in_reader
    }

    /// Put `reel` in the reader.
    fn load(&mut self, reel: Reel, m: &mut Machine) {
        self.in_reader = reel.name;
        m.mount_tape(reel.frames);
    }

    /// The operator takes the boot tape back to its leader and puts it in the reader again
    /// (READ IN after the tape has been read, issue 17); the second tape follows it again.
    /// False when there is no boot tape.
    pub fn rewind(&mut self, m: &mut Machine) -> bool {
        let Some(first) = self.first.clone() else {
            return false;
        };
        self.load(first, m);
        self.next = self.next_given.iter().cloned().collect();
        self.current = None;
        self.first_done = false;
        true
    }

    /// A new boot tape goes into the reader (the window's Ctrl+O), in place of the old one
    /// and any second tape.
    pub fn mount_boot(&mut self, tape: &Tape, name: &str, m: &mut Machine) {
        let reel = Reel {
            name: name.to_owned(),
            frames: tape.frames.clone(),
        };
        self.first = Some(reel.clone());
        self.forget_queue();
        self.first_done = false;
        self.load(reel, m);
    }

    /// A data tape goes into the reader for the program to read (the window's Ctrl+O): the
    /// boot tape counts as read.
    pub fn mount_data(&mut self, tape: &Tape, name: &str, m: &mut Machine) {
        self.mount_frames(tape.frames.clone(), name, m);
    }

    /// A script's `mount`: these frames go into the reader in place of what is there (and of
    /// any `--reader` tape still to come); the program or READ IN reads them.
    pub fn mount_frames(&mut self, frames: Vec<u8>, name: &str, m: &mut Machine) {
        self.forget_queue();
        self.first_done = true;
        let name = name.to_owned();
        self.load(Reel { name, frames }, m);
    }

    /// A script's `readin`: what is left in the reader is the tape being read in — keys wait
    /// until it has been read, as for the boot tape, and a rewind (the window's READ IN
    /// again) puts it back.
    pub fn read_in_mounted(&mut self, m: &Machine) {
        let unread = m.tape_unread();
        if unread.is_empty() {
            return;
        }
        self.first = Some(Reel {
            name: self.in_reader.clone(),
            frames: unread.to_vec(),
        });
        self.first_done = false;
    }

    /// The operator puts another tape in by hand: the `--reader` tapes are not fed any more.
    fn forget_queue(&mut self) {
        self.next.clear();
        self.next_given.clear();
        self.current = None;
    }

    /// True once the first tape has been read (or there was none).
    pub fn first_tape_read(&self) -> bool {
        self.first_done
    }

    /// The reader has run out: mount the next `--reader` tape now, if one is due. True if one
    /// went in.
    pub fn feed_now(&mut self, m: &mut Machine) -> bool {
        let before = self.next.len();
        self.poll(m);
        self.next.len() < before
    }

    /// Check the reader; mount the second tape when due.
    pub fn poll(&mut self, m: &mut Machine) {
        if !self.first_done {
            let first = self.first.as_ref().map_or(0, |f| f.frames.len());
            let left = m.tape_remaining().min(first);
            // Leader and trailer are blank, or punched with hole 8 alone (lisp.rim ends with
            // such frames): frames without data holes 1–7.
            if left < first && reader_spent(m) {
                self.first_done = true;
            }
            // Some tapes end in a punched-out frame (expensive-typewriter.rim: 377) that no
            // loader reads. A program that polls the keyboard has started: neither READ IN nor
            // a binary loader looks at the typewriter, so the operator would take the tape out.
            if m.key_wait_since().is_some() {
                self.first_done = true;
            }
        }
        // The first `--reader` tape as soon as the boot tape is read; each further one when
        // the one before has run out (read, up to its blank trailer).
        let due = match self.current {
            None => true,
            Some(len) => m.tape_remaining() < len && reader_spent(m),
        };
        if self.first_done && due {
            if let Some(reel) = self.next.pop_front() {
                self.current = Some(reel.frames.len());
                self.load(reel, m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdp1_core::{Limit, MachineConfig, Word};

    /// A machine reading the reader line after line (100: rpa with wait, 101: jmp 100) for
    /// `ms` milliseconds of emulated time, the feeder polled every millisecond.
    fn read_for(m: &mut Machine, f: &mut Feeder, ms: u64) {
        for _ in 0..ms {
            let until = m.time_ns() + 1_000_000;
            m.run_until(Limit {
                until_ns: Some(until),
                instructions: None,
            });
            f.poll(m);
        }
    }

    #[test]
    fn the_reader_panel_names_the_tape_in_the_reader() {
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        m.write(0o100, Word::new(0o730001)).unwrap(); // rpa (wait for the line)
        m.write(0o101, Word::new(0o600100)).unwrap(); // jmp 100
        m.set_pc(0o100);
        m.cont();
        let tape = |frames: &[u8]| Tape {
            frames: frames.to_vec(),
            start: None,
        };
        let names = ["a.pt".to_owned(), "b.pt".to_owned()];
        let mut f = Feeder::new(None, &[tape(&[1, 2, 0]), tape(&[3, 0])]).named("", &names);
        assert_eq!(f.tape_in_reader(), "");
        f.poll(&mut m);
        assert_eq!(
            f.tape_in_reader(),
            "a.pt",
            "the first --reader tape goes in at once"
        );
        read_for(&mut m, &mut f, 20);
        assert_eq!(
            f.tape_in_reader(),
            "b.pt",
            "the second when the first ran out"
        );
        // A script's `mount` (and the window's Ctrl+O) names what it puts in.
        f.mount_frames(vec![5, 0], "hyperspace85.bin", &mut m);
        assert_eq!(f.tape_in_reader(), "hyperspace85.bin");
        read_for(&mut m, &mut f, 20);
        assert_eq!(
            f.tape_in_reader(),
            "hyperspace85.bin",
            "the queue was forgotten"
        );
    }
}
