//! `lgame solve-large`: solve a large board (one byte a symmetry class, every core,
//! checkpoints) into a table file, or probe such a file (memory-mapped).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lgame::Rules;
use lgame_solver::large::{self, LargeOptions, LargeProgress, LargeStats, LargeTable, Space};
use lgame_solver::{grouped, human_bytes, Value};

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table file: written (checkpoints, then the result), or read with --probe.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Go on from the checkpoint in --out instead of starting again.
    #[arg(long)]
    resume: bool,

    /// Write a checkpoint after a level when this many minutes have passed since the last.
    #[arg(long, value_name = "MINUTES", default_value_t = 10.0)]
    checkpoint_minutes: f64,

    /// Solve nothing: print the value of this position from the table in --out (the
    /// table's own rules are used; --variant is ignored).
    #[arg(long, value_name = "POSITION")]
    probe: Option<String>,

    /// Refuse to solve when the table (a byte a class) needs more than this (e.g. 6G).
    #[arg(long, value_name = "SIZE", default_value = "16G", value_parser = input::memory_size)]
    max_memory: u64,
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let bad = |e: &dyn std::fmt::Display| Failure::BadInput(anyhow!("{e}"));
    if let Some(text) = &args.probe {
        let table = LargeTable::open(&args.out)
            .map_err(|e| bad(&format!("table {}: {e}", args.out.display())))?;
        let position = input::position(text, table.space().rules())?;
        let value = table.value(&position).map_err(|e| bad(&e))?;
        writeln!(out, "{}", value_text(value))?;
        return Ok(());
    }
    let space = Space::new(rules).map_err(|e| bad(&e))?;
    let bytes = space.slots();
    if bytes > args.max_memory {
        return Err(bad(&format!(
            "{rules} needs {} for its table ({} classes, a byte each), more than --max-memory {}",
            human_bytes(bytes),
            grouped(bytes),
            human_bytes(args.max_memory)
        )));
    }
    let resume = if args.resume {
        let table = LargeTable::open(&args.out)
            .map_err(|e| bad(&format!("checkpoint {}: {e}", args.out.display())))?;
        if table.space().rules().to_string() != space.rules().to_string() {
            return Err(bad(&format!(
                "the checkpoint is for '{}', not '{rules}'",
                table.space().rules()
            )));
        }
        Some((table.bytes().to_vec(), table.next_level()))
    } else {
        None
    };
    eprintln!(
        "Solving {rules}: {} positions, {} slots (a class each under {} symmetries), {} of \
         memory, {} threads",
        grouped(space.positions()),
        grouped(space.slots()),
        space.symmetries(),
        human_bytes(bytes),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(bytes)
    } else {
        ProgressBar::with_draw_target(Some(bytes), ProgressDrawTarget::hidden())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "level {msg} {bar:40} {percent:>3}% of the level, {eta} left in it, {elapsed} in all",
        )
        .expect("a valid template"),
    );
    let started = Instant::now();
    let report = |p: LargeProgress| {
        let level = p.level.to_string();
        if bar.message() != level {
            bar.set_message(level);
        }
        bar.set_position(p.done);
    };
    let options = LargeOptions {
        file: Some(&args.out),
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_minutes.max(0.0) * 60.0),
        stop_after_level: None,
        progress: Some(&report),
        ..LargeOptions::default()
    };
    let outcome = large::solve(&space, resume, &options).map_err(|e| bad(&e))?;
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let s = LargeStats::of(&space, &outcome.table);
    let start = large::decode_slot(
        &outcome.table,
        space
            .slot_of(&rules.start_position())
            .expect("the rules' own start"),
    );
    writeln!(out, "Variant:        {rules}")?;
    writeln!(
        out,
        "Positions:      {} ({} classes)",
        grouped(s.positions),
        grouped(s.classes)
    )?;
    writeln!(
        out,
        "Won/lost/drawn: {} / {} / {}",
        grouped(s.won),
        grouped(s.lost),
        grouped(s.drawn)
    )?;
    writeln!(out, "Trapped:        {}", grouped(s.trapped))?;
    writeln!(
        out,
        "Longest win:    {}",
        s.longest_win
            .map_or("none".into(), |p| format!("{p} plies"))
    )?;
    writeln!(out, "Standard setup: {}", value_text(start))?;
    let levels: Vec<String> = outcome
        .decided
        .iter()
        .map(|(l, n)| format!("{l}:{n}"))
        .collect();
    writeln!(
        out,
        "Levels:         {} (level:classes decided)",
        levels.join(" ")
    )?;
    writeln!(
        out,
        "Solve time:     {:.1} s (this run), table {}",
        elapsed.as_secs_f64(),
        human_bytes(bytes)
    )?;
    writeln!(out, "Table file:     {}", args.out.display())?;
    Ok(())
}

fn value_text(value: Value) -> String {
    match value.plies() {
        Some(p) => format!("{} in {p}", value.wdl()),
        None => value.wdl().to_string(),
    }
}
