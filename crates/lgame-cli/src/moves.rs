//! `lgame moves`: every legal move and the position it leads to.

use std::io::Write;

use lgame::{Position, Rules};
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON: {"position", "variant", "legal_moves", "moves": [{"move", "position"}]}.
    #[arg(long)]
    json: bool,

    /// The position (default: the variant's starting position).
    #[arg(value_name = "POSITION")]
    position: Option<String>,
}

#[derive(Serialize)]
struct Report<'a> {
    position: String,
    variant: String,
    legal_moves: usize,
    moves: Entries<'a>,
}

/// The moves with their results, generated and written one by one: the big variants have
/// millions, so no list of them is kept.
struct Entries<'a> {
    position: &'a Position,
}

#[derive(Serialize)]
struct Entry {
    #[serde(rename = "move")]
    mv: String,
    position: String,
}

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        let mut result = Ok(());
        self.position.for_each_legal_move(|mv| {
            if result.is_ok() {
                result = seq.serialize_element(&Entry {
                    mv: mv.to_string(),
                    position: self.position.play_unchecked(&mv).to_string(),
                });
            }
        });
        result?;
        seq.end()
    }
}

fn count_moves(position: &Position) -> usize {
    let mut count = 0;
    position.for_each_legal_move(|_| count += 1);
    count
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let position = input::position_or_start(args.position.as_deref(), rules)?;
    if args.json {
        let report = Report {
            position: position.to_string(),
            variant: position.rules().to_string(),
            legal_moves: count_moves(&position),
            moves: Entries {
                position: &position,
            },
        };
        serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    if let Some(outcome) = position.outcome() {
        writeln!(out, "Game over: {outcome}")?;
    }
    let mut count = 0;
    let mut result = Ok(());
    position.for_each_legal_move(|mv| {
        if result.is_ok() {
            result = writeln!(out, "{mv}  ->  {}", position.play_unchecked(&mv));
            count += 1;
        }
    });
    result?;
    let plural = if count == 1 { "" } else { "s" };
    writeln!(out, "{count} legal move{plural}")?;
    Ok(())
}
