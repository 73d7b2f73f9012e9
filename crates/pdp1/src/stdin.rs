//! Keys from stdin for `--headless` without `--type`.
//!
//! A thread reads stdin so the machine never blocks on it. When stdin is a terminal it is put in
//! non-canonical, no-echo mode with `stty` (the PDP-1 typewriter prints each key itself, and keys
//! should reach the program one by one, not a line at a time); the previous mode is restored
//! when the run ends. Signals are off too, so Ctrl-C ends the run cleanly (registers, state and
//! punch are still written) and Ctrl-D ends the input.

use crate::keyboard::{key_for, Key};
use std::io::{IsTerminal, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver, TryRecvError};

const CTRL_C: u8 = 0x03;
const CTRL_D: u8 = 0x04;

pub struct StdinKeys {
    rx: Receiver<Vec<u8>>,
    /// Bytes of a UTF-8 character split across reads.
    partial: Vec<u8>,
    done: bool,
    interrupted: bool,
    tty: Option<TtyMode>,
}

impl StdinKeys {
    pub fn start() -> StdinKeys {
        let tty = if std::io::stdin().is_terminal() {
            TtyMode::raw()
        } else {
            None
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin();
            let mut buf = [0u8; 256];
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        StdinKeys {
            rx,
            partial: Vec::new(),
            done: false,
            interrupted: false,
            tty,
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.tty.is_some()
    }

    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Keys that arrived since the last call, and whether the input has ended.
    pub fn poll(&mut self) -> (Vec<Key>, bool) {
        let mut keys = Vec::new();
        while !self.done {
            match self.rx.try_recv() {
                Ok(bytes) => {
                    for b in bytes {
                        match b {
                            CTRL_C if self.tty.is_some() => {
                                self.interrupted = true;
                                self.done = true;
                            }
                            CTRL_D if self.tty.is_some() => self.done = true,
                            _ if !self.done => self.partial.push(b),
                            _ => {}
                        }
                    }
                    let valid = match std::str::from_utf8(&self.partial) {
                        Ok(s) => s.len(),
                        Err(e) if e.error_len().is_none() => e.valid_up_to(),
                        // Not UTF-8 at all: take it as Latin-1 rather than stall.
                        Err(_) => {
                            let text: String = self.partial.iter().map(|&b| b as char).collect();
                            keys.extend(keys_for_text(&text));
                            self.partial.clear();
                            continue;
                        }
                    };
                    let text = String::from_utf8_lossy(&self.partial[..valid]).into_owned();
                    keys.extend(keys_for_text(&text));
                    self.partial.drain(..valid);
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.done = true,
            }
        }
        (keys, self.done)
    }
}

/// The terminal's mode before we changed it; restored on drop.
struct TtyMode {
    saved: String,
}

impl TtyMode {
    fn stty(args: &[&str]) -> Option<String> {
        let out = Command::new("stty")
            .args(args)
            .stdin(Stdio::inherit())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    fn raw() -> Option<TtyMode> {
        let saved = Self::stty(&["-g"])?;
        Self::stty(&["-icanon", "-echo", "-isig", "min", "1"])?;
        Some(TtyMode { saved })
    }
}

impl Drop for TtyMode {
    fn drop(&mut self) {
        let _ = Self::stty(&[&self.saved]);
    }
}

/// Keys for the characters of `text`; characters without a key are reported and skipped.
pub fn keys_for_text(text: &str) -> Vec<Key> {
    text.chars()
        .filter_map(|c| {
            let k = key_for(if c == '\u{7f}' { '\u{8}' } else { c });
            if k.is_none() {
                eprintln!("pdp1: no typewriter key for {c:?}; skipped");
            }
            k
        })
        .collect()
}
