//! `lgame judge`: the referee for game records.

use std::io::Write;
use std::path::PathBuf;

use anyhow::anyhow;
use lgame::Rules;

use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON.
    #[arg(long)]
    json: bool,

    /// The record file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

pub fn run(_args: &Args, _rules: &Rules, _out: &mut impl Write) -> Result<(), Failure> {
    Err(Failure::BadInput(anyhow!("judge is not written yet")))
}
