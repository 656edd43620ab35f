//! `lgame solve`: solve a variant and print its statistics.

use std::io::Write;
use std::path::PathBuf;

use anyhow::anyhow;
use lgame::Rules;
use lgame_solver::{estimate, human_bytes, Estimate, SolveError, StateIndex, Statistics};

use crate::input;
use crate::input::grouped;
use crate::output::Failure;
use crate::tablebase;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,

    /// Also write the tablebase to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Refuse to solve when the estimated memory exceeds this (e.g. 500M, 6G); without it,
    /// the memory the system has available (MemAvailable in /proc/meminfo).
    #[arg(long, visible_alias = "memory-limit", value_name = "SIZE", value_parser = input::memory_size)]
    max_memory: Option<u64>,
}

/// The bytes the system can give a new process without swapping: `MemAvailable` of
/// /proc/meminfo (`None` where there is no such file or line).
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    kilobytes_field(&meminfo, "MemAvailable:")
}

/// This process's peak resident memory: `VmHWM` of /proc/self/status.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kilobytes_field(&status, "VmHWM:")
}

/// The bytes of a `Name:   123 kB` line.
fn kilobytes_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// The limit a solve is held to: the option's, else what the system has available (else
/// none can be read: no limit).
fn memory_limit(args: &Args, rules: &Rules, e: &Estimate) -> Result<Option<u64>, Failure> {
    if let Some(limit) = args.max_memory {
        // Refused before anything is printed, in the library's words.
        if e.peak_bytes > limit {
            let estimate = *e;
            return Err(Failure::BadInput(anyhow!(SolveError::TooBig {
                estimate,
                limit
            })));
        }
        return Ok(Some(limit));
    }
    let Some(available) = available_memory() else {
        return Ok(None);
    };
    if e.peak_bytes > available {
        return Err(Failure::BadInput(anyhow!(
            "solving {rules} needs about {} for {} states, {} available (MemAvailable; set \
             --memory-limit to try anyway)",
            human_bytes(e.peak_bytes),
            grouped(e.states),
            human_bytes(available)
        )));
    }
    Ok(Some(available))
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let e = estimate(&StateIndex::new(rules));
    let limit = memory_limit(args, rules, &e)?;
    let tb = tablebase::solve(rules, limit.unwrap_or(u64::MAX))?;
    let peak = peak_memory();
    if let Some(path) = &args.out {
        tablebase::save(&tb, path)?;
    }
    let s = Statistics::of(&tb);
    if args.json {
        let mut json = serde_json::to_value(&s).map_err(std::io::Error::from)?;
        if let Some(fields) = json.as_object_mut() {
            fields.insert("states".into(), e.states.into());
            fields.insert("memory_estimate_bytes".into(), e.peak_bytes.into());
            fields.insert("memory_limit_bytes".into(), limit.into());
            fields.insert("peak_memory_bytes".into(), peak.into());
        }
        serde_json::to_writer(&mut *out, &json).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    // The space and the estimate (known before the solve; printed with the rest, so that a
    // failure prints nothing).
    let limit = limit.map_or("no limit".to_string(), |l| {
        format!("limit {}", human_bytes(l))
    });
    writeln!(
        out,
        "Space:          {} states, about {} of memory to solve ({limit})",
        grouped(e.states),
        human_bytes(e.peak_bytes)
    )?;
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
    let peak = peak.map_or("unknown".to_string(), human_bytes);
    writeln!(
        out,
        "Memory used:    {peak} at the peak (the whole process; estimated {} for the solve)",
        human_bytes(e.peak_bytes)
    )?;
    if let Some(path) = &args.out {
        writeln!(out, "Tablebase:      {}", path.display())?;
    }
    Ok(())
}
