//! `lgame solve`: solve a variant and print its statistics.

use std::io::Write;
use std::path::PathBuf;

use lgame::Rules;
use lgame_solver::Statistics;

use crate::input;
use crate::input::grouped;
use crate::output::Failure;
use crate::tablebase::{self, DEFAULT_MAX_MEMORY};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,

    /// Also write the tablebase to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Refuse to solve when the estimated memory exceeds this (e.g. 500M, 6G).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_MEMORY, value_parser = input::memory_size)]
    max_memory: u64,
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let tb = tablebase::solve(rules, args.max_memory)?;
    if let Some(path) = &args.out {
        tablebase::save(&tb, path)?;
    }
    let s = Statistics::of(&tb);
    if args.json {
        serde_json::to_writer(&mut *out, &s).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    let target = s.target.map_or(String::new(), |t| format!(", target {t}"));
    writeln!(
        out,
        "Variant:        {} ({} board, {} neutrals{target})",
        s.variant, s.board, s.neutrals
    )?;
    writeln!(
        out,
        "Positions:      {} ({} up to symmetry)",
        grouped(s.positions),
        grouped(s.classes)
    )?;
    writeln!(
        out,
        "Won/lost/drawn: {} / {} / {} (classes {} / {} / {})",
        grouped(s.won),
        grouped(s.lost),
        grouped(s.drawn),
        grouped(s.won_classes),
        grouped(s.lost_classes),
        grouped(s.drawn_classes)
    )?;
    writeln!(
        out,
        "Game over:      {} positions ({} trapped)",
        grouped(s.terminal),
        grouped(s.trapped)
    )?;
    writeln!(
        out,
        "By plies to the end (won / lost for the player to move):"
    )?;
    for c in &s.by_plies {
        writeln!(
            out,
            "  {:>4}: {:>10} / {}",
            c.plies,
            grouped(c.won),
            grouped(c.lost)
        )?;
    }
    match (&s.longest_win_plies, &s.longest_win) {
        (Some(plies), Some(example)) => writeln!(
            out,
            "Longest win:    {plies} plies, e.g. {} ({} positions)",
            example.position,
            grouped(example.count)
        )?,
        _ => writeln!(out, "Longest win:    none (no position is won)")?,
    }
    writeln!(
        out,
        "Most moves:     {}, e.g. {} ({} positions)",
        s.max_moves,
        s.max_moves_example.position,
        grouped(s.max_moves_example.count)
    )?;
    writeln!(out, "Moves in all:   {}", grouped(s.edges))?;
    let plies = s.start_plies.map_or(String::new(), |p| format!(" in {p}"));
    writeln!(
        out,
        "Start:          {}: {}{plies}, {} legal moves",
        s.start_position, s.start_value, s.start_moves
    )?;
    writeln!(out, "Solved in:      {:.3} ms", s.solve_ms)?;
    if let Some(path) = &args.out {
        writeln!(out, "Tablebase:      {}", path.display())?;
    }
    Ok(())
}
