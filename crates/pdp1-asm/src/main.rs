//! `pdp1-asm SOURCE... [-o TAPE] [--format rim|blk] [--listing FILE] [--symbols FILE]`
//!
//! Assembles MACRO-1 source into a paper-tape image; several SOURCE files are one program, read
//! in order as DEC's MACRO read several tapes. Errors go to stderr as
//! `file:line:column: error: reason`, one per line, and the exit status is 1.

use anyhow::{bail, Context, Result};
use clap::{Parser, ValueEnum};
use pdp1_asm::tape::{self, Image};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// `dio`/word pairs read by the console READ IN key.
    Rim,
    /// MACRO's format: a RIM-format loader at 7751 followed by checksummed blocks.
    Blk,
}

#[derive(Parser, Debug)]
#[command(
    name = "pdp1-asm",
    version,
    about = "MACRO-1 cross-assembler for the PDP-1"
)]
struct Args {
    /// MACRO-1 source file; several are assembled as one program, in the order given (the
    /// first holds the title line, the last usually `start`). `@LIST` stands for the files a
    /// list file names, one a line, relative to its folder (`@roms/kalah.files`).
    #[arg(required = true, num_args = 1..)]
    sources: Vec<PathBuf>,
    /// Tape image to write (default: the first SOURCE with extension .rim).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Tape format.
    #[arg(long, value_enum, default_value = "rim")]
    format: Format,
    /// Write the listing (line, location, word, source) to FILE.
    #[arg(long, value_name = "FILE")]
    listing: Option<PathBuf>,
    /// Write the symbol table (`name value kind` lines) to FILE, for the debugger.
    #[arg(long, value_name = "FILE")]
    symbols: Option<PathBuf>,
    /// Warn about everything the historic DEC MACRO tape would not accept.
    #[arg(long)]
    dec: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let mut texts = Vec::new();
    for p in &args.sources {
        // `@LIST`: the files a list file names (roms/kalah.files), in its order.
        if let Some(list) = p.to_str().and_then(|s| s.strip_prefix('@')) {
            let files = pdp1_asm::read_source_list(std::path::Path::new(list))
                .with_context(|| format!("cannot read the source list {list}"))?;
            texts.extend(files);
            continue;
        }
        let text =
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        texts.push((p.display().to_string(), text));
    }
    let files: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let name = files.iter().map(|f| f.0).collect::<Vec<_>>().join(" ");
    let (result, notes) = pdp1_asm::assemble_files_with_dec_notes(&files);
    if args.dec {
        for n in &notes {
            eprintln!("{}:{}:{}: warning: {}", n.file, n.line, n.column, n.message);
        }
    }
    let asm = match result {
        Ok(a) => a,
        Err(d) => {
            eprintln!("{d}");
            let n = d.0.len();
            eprintln!(
                "{n} error{} in {name}; no tape written",
                if n == 1 { "" } else { "s" }
            );
            std::process::exit(1);
        }
    };
    let image = Image {
        words: asm.words.clone(),
        start: asm.start,
    };
    let frames = match args.format {
        Format::Rim if tape::beyond_field_0(&image) => {
            bail!("the program has words outside field 0, which READ IN cannot load; use --format blk")
        }
        Format::Rim => tape::write_rim(&image),
        Format::Blk => {
            if tape::beyond_field_0(&image) {
                // The 16-bit loader at 7746-7777 of field 0 (tape::ext_loader); READ IN's RIM
                // format loads one field, so there is no --format rim for such a program.
                if let Some((&a, _)) = image.words.range(tape::EXT_LOADER_BASE..0o10000).next() {
                    bail!("the program uses location {a:04o}, which the 16-bit BLK loader at 7746-7777 occupies");
                }
            } else if let Some((&a, _)) = image.words.range(tape::LOADER_BASE..).next() {
                bail!("the program uses location {a:04o}, which the BLK loader at 7751-7777 occupies; use --format rim");
            }
            tape::write_blk(&image)
        }
    };
    let out = args.output.clone().unwrap_or_else(|| {
        let first = &args.sources[0];
        match first.to_str().and_then(|s| s.strip_prefix('@')) {
            Some(list) => PathBuf::from(list).with_extension("rim"),
            None => first.with_extension("rim"),
        }
    });
    std::fs::write(&out, frames).with_context(|| format!("cannot write {}", out.display()))?;
    if let Some(p) = &args.listing {
        std::fs::write(p, &asm.listing).with_context(|| format!("cannot write {}", p.display()))?;
    }
    if let Some(p) = &args.symbols {
        std::fs::write(p, asm.symbols.to_text())
            .with_context(|| format!("cannot write {}", p.display()))?;
    }
    if asm.start.is_none() {
        eprintln!("warning: {name} has no `start` address; the tape will load but not start");
    }
    Ok(())
}
