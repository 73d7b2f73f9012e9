//! The `pdp1` binary: parses the command line, builds the machine, and runs it headless or in a
//! window. (Skeleton: filled in by the headless and frontend work.)

mod cli;
mod frontend;

use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = cli::Cli::parse();
    let _ = cli;
    Ok(())
}
