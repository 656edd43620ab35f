//! `lgame judge`: the referee for game records. All the judging is the rules crate's
//! [`lgame::referee::judge_bytes`]; this reads the file and prints the judgement.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use lgame::referee::Judgement;
use lgame::Rules;
use serde::Serialize;

use crate::output::Failure;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
The record carries its own rules in its Variant tag (and its Setup, TurnLimit, Repetition \
and Termination tags), so the global --variant is ignored. See docs/records.md.

Exit status: 0 for a valid record, 1 for an invalid one (the report is printed either way), \
2 for input that cannot be read as a record at all (a missing or unreadable file, bytes that \
are not UTF-8 text, an empty file).")]
pub struct Args {
    /// Print the judgement as JSON: valid, plies, result, ending, error, final_position,
    /// record_result, result_agrees.
    #[arg(long)]
    json: bool,

    /// The record file, or `-` for standard input. Its Variant tag gives the rules; the
    /// global --variant is ignored.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// The JSON form of a judgement.
#[derive(Debug, Serialize)]
struct Report<'a> {
    valid: bool,
    plies: usize,
    result: String,
    ending: &'a str,
    error: Option<ErrorReport<'a>>,
    final_position: &'a str,
    record_result: Option<String>,
    result_agrees: bool,
    /// The rules the record is played under, when its header sets up a game.
    variant: Option<String>,
    /// How the game ended, in words (`Blue wins: Red cannot move their L`).
    conclusion: Option<String>,
}

/// The first problem of an invalid record.
#[derive(Debug, Serialize)]
struct ErrorReport<'a> {
    ply: usize,
    #[serde(rename = "move")]
    move_text: &'a str,
    reason: &'a str,
    /// The line, counted from 1; null for a problem at the end of the text.
    line: Option<usize>,
}

impl<'a> Report<'a> {
    fn new(j: &'a Judgement) -> Report<'a> {
        Report {
            valid: j.valid,
            plies: j.plies,
            result: j.result.to_string(),
            ending: &j.ending,
            error: j.error.as_ref().map(|e| ErrorReport {
                ply: e.ply,
                move_text: &e.move_text,
                reason: &e.reason,
                line: e.line,
            }),
            final_position: &j.final_position,
            record_result: j.record_result.map(|r| r.to_string()),
            result_agrees: j.result_agrees,
            variant: j.game.as_ref().map(|g| g.rules().to_string()),
            conclusion: j.conclusion().map(|c| c.to_string()),
        }
    }
}

/// Reads the whole file, or standard input for `-`.
fn read_input(file: &Path) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    let read = if file == Path::new("-") {
        io::stdin().lock().read_to_end(&mut bytes).map(|_| ())
    } else {
        fs::read(file).map(|b| bytes = b)
    };
    read.map_err(|e| Failure::BadInput(anyhow!("cannot read {}: {e}", name(file))))?;
    Ok(bytes)
}

fn name(file: &Path) -> String {
    if file == Path::new("-") {
        "standard input".to_string()
    } else {
        format!("'{}'", file.display())
    }
}

fn write_text(j: &Judgement, out: &mut impl Write) -> io::Result<()> {
    match &j.error {
        None => writeln!(out, "valid record")?,
        Some(e) => writeln!(out, "invalid record: {e}")?,
    }
    if let Some(game) = &j.game {
        writeln!(out, "variant: {}", game.rules())?;
    }
    writeln!(out, "plies: {} replayed validly", j.plies)?;
    match j.conclusion() {
        Some(c) => writeln!(out, "result: {} ({}: {c})", j.result, j.ending)?,
        None => writeln!(out, "result: {} ({})", j.result, j.ending)?,
    }
    let agrees = if j.game.is_none() {
        "cannot be checked"
    } else if j.result_agrees {
        "agrees"
    } else {
        "does not agree"
    };
    match j.record_result {
        Some(token) => writeln!(out, "record's result: {token} ({agrees})")?,
        None => writeln!(out, "record's result: none (the result token is missing)")?,
    }
    if j.game.is_some() {
        writeln!(out, "final position: {}", j.final_position)?;
    } else {
        writeln!(out, "final position: none (the header sets up no game)")?;
    }
    Ok(())
}

pub fn run(args: &Args, _rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let bytes = read_input(&args.file)?;
    let judgement = lgame::referee::judge_bytes(&bytes)
        .map_err(|e| Failure::BadInput(anyhow!("{}: {e}", name(&args.file))))?;
    if args.json {
        let json = serde_json::to_string_pretty(&Report::new(&judgement))
            .map_err(|e| Failure::Io(io::Error::other(e)))?;
        writeln!(out, "{json}")?;
    } else {
        write_text(&judgement, out)?;
    }
    out.flush()?;
    match &judgement.error {
        None => Ok(()),
        Some(e) => Err(Failure::Illegal(anyhow!("invalid record: {e}"))),
    }
}
