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

/// Reads a memory size: bytes, or a number with `K`, `M`, `G` (powers of 1000) or `KiB`,
/// `MiB`, `GiB`.
pub fn memory_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let factor: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("'{text}' is not a memory size (like 4G or 500M)")),
    };
    let n: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a memory size (like 4G or 500M)"))?;
    Ok((n * factor) as u64)
}

/// The rules with the starting setup of `--setup` (a setup name or a position), read by the
/// library ([`Rules::with_setup_text`]).
pub fn with_setup(rules: &Rules, setup: Option<&str>) -> Result<Rules, Failure> {
    let Some(text) = setup else {
        return Ok(*rules);
    };
    rules
        .with_setup_text(text)
        .map_err(|e| Failure::BadInput(anyhow!("--setup '{text}': {e}")))
}

/// The draw rules of `--turn-limit` and `--repetition` (0: none, as
/// [`lgame::game::DrawRules::normalized`] reads it).
pub fn draw_rules(turn_limit: u32, repetition: u32) -> lgame::game::DrawRules {
    lgame::game::DrawRules {
        turn_limit: Some(turn_limit),
        repetition: Some(repetition),
    }
    .normalized()
}

pub use lgame_solver::grouped;
