//! Reading the command line's rules, positions and moves through the library, with the
//! offending text named in every error.

use anyhow::anyhow;
use lgame::{Move, Position, Rules};

use crate::output::Failure;

/// Reads `--variant`.
pub fn rules(text: &str) -> Result<Rules, Failure> {
    text.parse::<Rules>()
        .map_err(|e| Failure::BadInput(anyhow!("variant '{text}': {e}")))
}

/// Reads a position in either form, a setup name, or `start` (the rules' starting position).
pub fn position(text: &str, rules: &Rules) -> Result<Position, Failure> {
    Position::from_text(text, rules)
        .map_err(|e| Failure::BadInput(anyhow!("position '{text}': {e}")))
}

/// Reads an optional position argument; none means the rules' starting position.
pub fn position_or_start(text: Option<&str>, rules: &Rules) -> Result<Position, Failure> {
    match text {
        Some(text) => position(text, rules),
        None => Ok(rules.start_position()),
    }
}

/// Reads the `number`th move (counting from 1) of the command line.
pub fn move_text(text: &str, number: usize) -> Result<Move, Failure> {
    text.parse::<Move>()
        .map_err(|e| Failure::BadInput(anyhow!("move {number} '{text}': {e}")))
}
