//! `lgame apply`: play moves in order and print the resulting position.

use std::io::Write;

use anyhow::anyhow;
use lgame::Rules;

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The starting position.
    #[arg(value_name = "POSITION")]
    position: String,

    /// The moves, each one argument: "A2,A3,A4,B4 B2-A1".
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let mut position = input::position(&args.position, rules)?;
    // Read every move before playing any: unreadable input is reported before illegal play.
    let moves = args
        .moves
        .iter()
        .enumerate()
        .map(|(i, text)| input::move_text(text, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, (mv, text)) in moves.iter().zip(&args.moves).enumerate() {
        position = position.play(mv).map_err(|e| {
            Failure::Illegal(anyhow!(
                "move {} '{}' is illegal in {position}: {e}",
                i + 1,
                text.trim()
            ))
        })?;
    }
    writeln!(out, "{position}")?;
    Ok(())
}
