//! The window's sound: the program flags (`pdp1_core::sound`, flags 1–4 by default) played
//! through the host's default output device with `cpal`.
//!
//! * Samples are made from the flags' change stream at each frame, in emulated time, at the
//!   device's own rate, and queued for the device's callback (which runs on cpal's thread and
//!   only takes from the queue: the machine never sees the host's clock).
//! * At 1× speed the music is in tune. At any other speed (or paused, or muted with Ctrl+U /
//!   `--mute`) the samples are made and thrown away: sped-up or slowed square waves would
//!   only be noise, and the emulated time keeps its lead either way.
//! * Frames (50 a second) bring 20 ms of samples at a time, not evenly; the callback starts playing only
//!   once [`LEAD`] of sound is queued and, after running dry, waits for that lead again,
//!   holding the last level meanwhile (a held level is silent; a jump to 0 would click). The
//!   queue is kept below [`MAX_QUEUE`], so the sound lags the picture by at most that.
//! * No device, or one that cannot be opened (a machine without a sound card, Xvfb in CI):
//!   one line on stderr and the window runs silent.

use crate::audio::sound_config;
use crate::setup::Setup;
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use pdp1_core::sound::{FlagSynth, SoundConfig};
use pdp1_core::Machine;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Sound queued before playing starts (and after the queue ran dry).
pub const LEAD: f64 = 0.06;
/// The most sound kept queued; older samples are dropped beyond it.
pub const MAX_QUEUE: f64 = 0.25;

/// Samples between the emulator and the device's callback.
#[derive(Debug, Default)]
pub struct Queue {
    samples: VecDeque<i16>,
    /// Playing (enough was queued); false: waiting for the lead.
    playing: bool,
    /// The last sample played, held while waiting.
    last: i16,
    lead: usize,
    max: usize,
}

impl Queue {
    pub fn new(rate: u32) -> Queue {
        Queue {
            lead: (f64::from(rate) * LEAD) as usize,
            max: (f64::from(rate) * MAX_QUEUE) as usize,
            ..Queue::default()
        }
    }

    /// The emulator's side: samples made this frame.
    pub fn push(&mut self, s: &[i16]) {
        self.samples.extend(s);
        let over = self.samples.len().saturating_sub(self.max);
        self.samples.drain(..over);
    }

    /// The device's side: the next sample.
    pub fn pop(&mut self) -> i16 {
        if !self.playing && self.samples.len() >= self.lead.max(1) {
            self.playing = true;
        }
        if self.playing {
            match self.samples.pop_front() {
                Some(s) => self.last = s,
                None => self.playing = false,
            }
        }
        self.last
    }
}

/// The window's speaker.
pub struct Speaker {
    config: SoundConfig,
    out: Option<(cpal::Stream, u32, Arc<Mutex<Queue>>)>,
    synth: Option<FlagSynth>,
    pub muted: bool,
    buf: Vec<i16>,
}

impl Speaker {
    /// Open the default output device; without one, say so once on stderr and stay silent.
    pub fn open(setup: &Setup, muted: bool) -> Speaker {
        let out = match open_device() {
            Ok(o) => Some(o),
            Err(e) => {
                eprintln!("pdp1: no sound ({e}); running silent");
                None
            }
        };
        Speaker {
            config: sound_config(setup),
            out,
            synth: None,
            muted,
            buf: Vec::new(),
        }
    }

    /// A speaker with no device (tests).
    #[cfg(test)]
    pub fn silent() -> Speaker {
        Speaker {
            config: SoundConfig::default(),
            out: None,
            synth: None,
            muted: false,
            buf: Vec::new(),
        }
    }

    pub fn has_device(&self) -> bool {
        self.out.is_some()
    }

    /// After a frame: make the samples up to the machine's time; queue them if `audible`
    /// (1× speed, not paused) and not muted. A jump in emulated time (a restored state, or
    /// the machine far ahead at top speed) starts the sound afresh from there.
    pub fn feed(&mut self, changes: &[pdp1_core::FlagChange], m: &Machine, audible: bool) {
        let Some((_, rate, queue)) = &self.out else {
            return;
        };
        let now = m.time_ns();
        let fresh = match &self.synth {
            Some(s) => {
                let t = s.time_ns();
                now < t || now - t > 500_000_000
            }
            None => true,
        };
        if fresh {
            self.synth = Some(FlagSynth::new(self.config, *rate, now, m.pf()));
            return;
        }
        let synth = self.synth.as_mut().expect("made above");
        self.buf.clear();
        synth.render(changes, now, &mut self.buf);
        if audible && !self.muted {
            if let Ok(mut q) = queue.lock() {
                q.push(&self.buf);
            }
        }
    }
}

/// The default output device, playing from a [`Queue`] at its own default rate.
fn open_device() -> Result<(cpal::Stream, u32, Arc<Mutex<Queue>>), String> {
    if !linux_may_have_sound() {
        return Err("no sound card or sound server found".to_owned());
    }
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or_else(|| "no output device".to_owned())?;
    let supported = device
        .default_output_config()
        .map_err(|e| format!("output device: {e}"))?;
    let rate = supported.sample_rate().0;
    let channels = usize::from(supported.channels().max(1));
    let queue = Arc::new(Mutex::new(Queue::new(rate)));
    let q = queue.clone();
    let config: cpal::StreamConfig = supported.config();
    let err = |e| eprintln!("pdp1: sound: {e}");
    let stream = match supported.sample_format() {
        cpal::SampleFormat::F32 => device.build_output_stream(
            &config,
            move |data: &mut [f32], _| fill(data, channels, &q, |s| f32::from(s) / 32768.0),
            err,
            None,
        ),
        cpal::SampleFormat::I16 => device.build_output_stream(
            &config,
            move |data: &mut [i16], _| fill(data, channels, &q, |s| s),
            err,
            None,
        ),
        cpal::SampleFormat::U16 => device.build_output_stream(
            &config,
            move |data: &mut [u16], _| fill(data, channels, &q, |s| (i32::from(s) + 32768) as u16),
            err,
            None,
        ),
        other => return Err(format!("sample format {other} not supported")),
    }
    .map_err(|e| format!("cannot open the output device: {e}"))?;
    stream
        .play()
        .map_err(|e| format!("cannot start the output device: {e}"))?;
    Ok((stream, rate, queue))
}

/// On Linux, whether ALSA has anything to open: a sound card, or a PulseAudio / PipeWire
/// server. Without one, opening ALSA's default device only fails after the ALSA library has
/// printed its own errors on stderr (and it has no safe way to silence them), so we do not
/// try. Elsewhere: true (cpal finds out).
fn linux_may_have_sound() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let card = std::fs::read_to_string("/proc/asound/cards")
        .is_ok_and(|c| !c.trim().is_empty() && !c.contains("no soundcards"));
    let server = std::env::var_os("PULSE_SERVER").is_some()
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| {
            let d = std::path::Path::new(&d);
            d.join("pulse/native").exists() || d.join("pipewire-0").exists()
        });
    card || server
}

/// The callback: one sample from the queue for every frame of `channels` values.
fn fill<T: Copy>(data: &mut [T], channels: usize, q: &Mutex<Queue>, conv: impl Fn(i16) -> T) {
    let Ok(mut q) = q.lock() else {
        return;
    };
    for frame in data.chunks_mut(channels) {
        let v = conv(q.pop());
        frame.fill(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_waits_for_its_lead_and_holds_the_last_level() {
        let mut q = Queue::new(1000); // lead 60, max 250
        q.push(&[5; 59]);
        assert_eq!(q.pop(), 0, "not yet: under the lead");
        q.push(&[7]);
        assert_eq!(q.pop(), 5);
        for _ in 0..58 {
            q.pop();
        }
        assert_eq!(q.pop(), 7);
        assert_eq!(q.pop(), 7, "ran dry: the last level is held");
        q.push(&[1; 1000]);
        assert_eq!(q.samples.len(), 250, "at most MAX_QUEUE");
    }

    #[test]
    fn a_speaker_without_a_device_only_drains() {
        let mut m = Machine::new(pdp1_core::MachineConfig::default()).unwrap();
        m.set_pf(0o40);
        let mut s = Speaker::silent();
        let changes = m.drain_flags();
        s.feed(&changes, &m, true);
        assert!(m.drain_flags().is_empty());
    }
}
