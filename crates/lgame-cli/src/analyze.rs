//! `lgame analyze`: a position's value and every move's value, best first; or, with `-`,
//! one JSON line per position read from standard input.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::anyhow;
use lgame::{Position, Rules};
use lgame_solver::{Analysis, Tablebase};

use crate::input;
use crate::output::Failure;
use crate::tablebase::{self, DEFAULT_MAX_MEMORY};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON: {"position", "variant", "value", "plies", "legal_moves", "moves": [...]}.
    #[arg(long)]
    json: bool,

    /// Use this tablebase file (from `lgame solve --out`) instead of solving.
    #[arg(long, value_name = "FILE")]
    tablebase: Option<PathBuf>,

    /// Refuse to solve when the estimated memory exceeds this (e.g. 500M, 6G).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_MEMORY, value_parser = input::memory_size)]
    max_memory: u64,

    /// The position, or `-` to read positions from standard input, one per line (each may
    /// start with `[RULES]` to give its own variant), printing one JSON line each.
    #[arg(value_name = "POSITION")]
    position: String,
}

/// Tables solved so far, one per variant.
struct Tables<'a> {
    args: &'a Args,
    solved: HashMap<Rules, Tablebase>,
}

impl Tables<'_> {
    fn get(&mut self, rules: &Rules) -> Result<&Tablebase, Failure> {
        if !self.solved.contains_key(rules) {
            let tb = match &self.args.tablebase {
                Some(path) => tablebase::load(path, rules)?,
                None => tablebase::solve(rules, self.args.max_memory)?,
            };
            self.solved.insert(*rules, tb);
        }
        Ok(&self.solved[rules])
    }

    fn analyze(&mut self, position: &Position) -> Result<Analysis, Failure> {
        self.get(position.rules())?
            .analyze(position)
            .map_err(|e| Failure::BadInput(anyhow!(e)))
    }
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let mut tables = Tables {
        args,
        solved: HashMap::new(),
    };
    if args.position.trim() == "-" {
        return batch(&mut tables, rules, out);
    }
    let position = input::position(&args.position, rules)?;
    let analysis = tables.analyze(&position)?;
    if args.json {
        serde_json::to_writer(&mut *out, &analysis).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    let plies = |p: Option<u16>| p.map_or(String::new(), |p| format!(" in {p}"));
    writeln!(out, "{}", lgame::diagram::text(&position, false).trim_end())?;
    writeln!(
        out,
        "Value: {}{} for {} ({} legal moves)",
        analysis.value,
        plies(analysis.plies),
        position.turn(),
        analysis.legal_moves
    )?;
    for m in &analysis.moves {
        writeln!(
            out,
            "  {:<22} {:<12} -> {}",
            m.mv,
            format!("{}{}", m.value, plies(m.plies)),
            m.position
        )?;
    }
    Ok(())
}

/// One JSON line per input line; a line that cannot be analysed gives
/// `{"position": line, "error": reason}` and the batch goes on.
fn batch(tables: &mut Tables, default: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let mut stdin = std::io::stdin().lock();
    let mut failed = false;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if stdin.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&bytes);
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let utf8 = std::str::from_utf8(&bytes)
            .map_err(|_| Failure::BadInput(anyhow!("the line is not UTF-8 text")));
        let result = utf8
            .and_then(|_| line_rules(text, default))
            .and_then(|(rules, position)| {
                let position = input::position(position, &rules)?;
                tables.analyze(&position)
            });
        match result {
            Ok(analysis) => {
                serde_json::to_writer(&mut *out, &analysis).map_err(std::io::Error::from)?
            }
            Err(Failure::BadInput(e)) => {
                failed = true;
                let error = serde_json::json!({ "position": text, "error": format!("{e:#}") });
                serde_json::to_writer(&mut *out, &error).map_err(std::io::Error::from)?;
            }
            Err(other) => return Err(other),
        }
        writeln!(out)?;
    }
    if failed {
        return Err(Failure::BadInput(anyhow!(
            "some lines could not be analysed (see their \"error\")"
        )));
    }
    Ok(())
}

/// Splits an optional leading `[RULES]` from a batch line.
fn line_rules<'a>(text: &'a str, default: &Rules) -> Result<(Rules, &'a str), Failure> {
    match text.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
        Some((rules, position)) => Ok((input::rules(rules)?, position.trim())),
        None => Ok((*default, text)),
    }
}
