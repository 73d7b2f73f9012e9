//! The file system side of the library (issue 25): `pdp1-host` takes bytes and text and hands
//! back bytes and lines; the binary reads and writes the files the command line and the
//! window's keys name — tapes, scripts, the configuration, saved states, the trace, the result
//! files, screenshots. The messages are the ones the operator has always seen.

use crate::run::ResultFile;
use crate::script::Script;
use crate::tape::Tape;
use crate::trace::Tracer;
use anyhow::{bail, Context, Result};
use pdp1_core::Machine;
use std::path::Path;

fn read_frames(path: &Path, what: &str) -> Result<Vec<u8>> {
    let frames =
        std::fs::read(path).with_context(|| format!("cannot read {what} {}", path.display()))?;
    if frames.is_empty() {
        bail!("{what} {} is empty", path.display());
    }
    Ok(frames)
}

/// A tape to READ IN, checked as a RIM or BLK image.
pub fn boot_tape(path: &Path) -> Result<Tape> {
    Ok(Tape::boot(
        read_frames(path, "tape")?,
        &path.display().to_string(),
    )?)
}

/// A tape the program reads itself.
pub fn data_tape(path: &Path) -> Result<Tape> {
    Ok(Tape::data(
        read_frames(path, "reader tape")?,
        &path.display().to_string(),
    )?)
}

/// Read and check the script `path`; the tapes it mounts are read now, relative to the current
/// directory as on the command line.
pub fn script(path: &Path) -> Result<Script> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read script {}", path.display()))?;
    Ok(Script::parse(&text, &path.display().to_string(), &|p| {
        std::fs::read(p)
    })?)
}

/// Read and parse a RON configuration file. Errors name the file and the position.
pub fn config(path: &Path) -> Result<crate::config::FileConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read configuration file {}", path.display()))?;
    crate::config::FileConfig::parse(&text)
        .with_context(|| format!("configuration file {}", path.display()))
}

/// Save the machine to `path` (atomically: temporary file, then rename).
pub fn save_state(m: &Machine, path: &Path) -> Result<()> {
    write_state(&crate::state::to_ron(m)?, path)
}

fn write_state(text: &str, path: &Path) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .with_context(|| format!("cannot write state file {}", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot write state file {}", path.display()))?;
    Ok(())
}

/// Load and check a saved state.
pub fn load_state(path: &Path) -> Result<Machine> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read state file {}", path.display()))?;
    crate::state::from_ron(&text)
        .with_context(|| format!("state file {} cannot be restored", path.display()))
}

/// The trace file.
pub fn trace(path: &Path) -> Result<Tracer> {
    let f = std::fs::File::create(path)
        .with_context(|| format!("cannot create trace file {}", path.display()))?;
    Ok(Tracer::new(
        Box::new(std::io::BufWriter::new(f)),
        &path.display().to_string(),
    ))
}

/// The run's result files, in the controller's order.
pub fn write_results(files: &[ResultFile]) -> Result<()> {
    for f in files {
        match f {
            ResultFile::Punch(path, frames) => std::fs::write(path, frames)
                .with_context(|| format!("cannot write punch file {}", path.display()))?,
            ResultFile::State(path, text) => write_state(text, path)?,
        }
    }
    Ok(())
}

/// A PNG's bytes to `path`.
pub fn write_png(png: &[u8], path: &Path) -> Result<()> {
    std::fs::write(path, png)
        .with_context(|| format!("cannot create screenshot {}", path.display()))
}

/// The end of a run: the trace finished and the result files written (trace, `--punch`,
/// `--save-state`, in that order).
pub fn write_run_files(run: &mut crate::run::RunControl) -> Result<()> {
    let files = run.result_files()?;
    write_results(&files)
}

/// `--registers` and `--examine` on stderr, after everything else.
pub fn print_dumps(run: &crate::run::RunControl) {
    for line in run.dump_lines() {
        eprintln!("{line}");
    }
}
