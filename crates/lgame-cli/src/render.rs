//! `lgame render`: an SVG diagram of a position, optionally with a move marked.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use lgame::Rules;

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the SVG to this file instead of standard output.
    #[arg(long, value_name = "FILE.svg")]
    out: Option<PathBuf>,

    /// Mark this move on the diagram: its new L outlined, each neutral move as an arrow.
    #[arg(long, value_name = "MOVE")]
    highlight: Option<String>,

    /// The position (default: the variant's starting position).
    #[arg(value_name = "POSITION")]
    position: Option<String>,
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let position = input::position_or_start(args.position.as_deref(), rules)?;
    let highlight = args
        .highlight
        .as_deref()
        .map(|text| input::move_text(text, 1))
        .transpose()?;
    let svg = lgame::diagram::svg(&position, highlight.as_ref());
    match &args.out {
        Some(path) => std::fs::write(path, svg)
            .with_context(|| format!("writing {}", path.display()))
            .map_err(|e| Failure::Io(std::io::Error::other(format!("{e:#}"))))?,
        None => out.write_all(svg.as_bytes())?,
    }
    Ok(())
}
