//! Sound for the host: the program flags' change stream turned into samples
//! (`pdp1_core::sound`), written to a WAV file headless (`--audio`) or played in the window
//! (`frontend/sound.rs`).

use crate::setup::Setup;
use anyhow::{Context, Result};
use pdp1_core::sound::{FlagSynth, SoundConfig};
use pdp1_core::Machine;
use std::path::{Path, PathBuf};

/// Samples per second of `--audio` files and of the window's sound.
pub const SAMPLE_RATE: u32 = 48_000;

/// Which flags sound, from `--sound-flags` / the config's `sound_flags` (default flags 1–4).
pub fn sound_config(setup: &Setup) -> SoundConfig {
    match setup.settings.sound_flags {
        Some(flags) => SoundConfig { flags },
        None => SoundConfig::default(),
    }
}

/// `--audio FILE.wav`: the run's sound, rendered slice by slice, written at the end.
pub struct WavRecorder {
    path: PathBuf,
    synth: FlagSynth,
    samples: Vec<i16>,
}

impl WavRecorder {
    /// Start listening to `m` now (the caller dropped the flag changes recorded before this
    /// run): the sound starts from the flags as they are.
    pub fn start(path: &Path, setup: &Setup, m: &Machine) -> WavRecorder {
        WavRecorder {
            path: path.to_path_buf(),
            synth: FlagSynth::new(sound_config(setup), SAMPLE_RATE, m.time_ns(), m.pf()),
            samples: Vec::new(),
        }
    }

    /// Render everything up to the machine's time now.
    pub fn feed(&mut self, changes: &[pdp1_core::FlagChange], m: &Machine) {
        self.synth.render(changes, m.time_ns(), &mut self.samples);
    }

    /// Render to the end and write the file: mono, 16-bit PCM.
    pub fn finish(mut self, changes: &[pdp1_core::FlagChange], m: &Machine) -> Result<()> {
        self.feed(changes, m);
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: SAMPLE_RATE,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let write = || -> Result<()> {
            let mut w = hound::WavWriter::create(&self.path, spec)?;
            let mut w16 = w.get_i16_writer(self.samples.len() as u32);
            for &s in &self.samples {
                w16.write_sample(s);
            }
            w16.flush()?;
            w.finalize()?;
            Ok(())
        };
        write().with_context(|| format!("cannot write --audio {}", self.path.display()))
    }
}
