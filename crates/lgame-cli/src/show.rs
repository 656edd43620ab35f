//! `lgame show`: the board drawn by the library, coloured on a terminal.

use std::io::{IsTerminal, Write};

use clap::ValueEnum;
use lgame::Rules;

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// When to colour the board: auto colours a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    color: Color,

    /// The position (default: the variant's starting position).
    #[arg(value_name = "POSITION")]
    position: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

impl Color {
    fn enabled(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !no_color && std::io::stdout().is_terminal()
            }
        }
    }
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let position = input::position_or_start(args.position.as_deref(), rules)?;
    out.write_all(lgame::diagram::text(&position, args.color.enabled()).as_bytes())?;
    Ok(())
}
