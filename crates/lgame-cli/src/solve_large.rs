//! `lgame solve-large`: solve a large board (one byte a symmetry class, every core,
//! checkpoints) into a table file, or probe such a file (memory-mapped); with
//! `--distributed` (the `mpi` feature), on the ranks of an `mpirun`.

#[cfg(feature = "mpi")]
mod distributed;

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

    /// Stop with a checkpoint once this level is done (--resume goes on from there): a run
    /// cut into sessions.
    #[arg(long, value_name = "LEVEL")]
    stop_after_level: Option<u32>,

    /// Solve nothing: print the value of this position from the table in --out (the
    /// table's own rules are used; --variant is ignored).
    #[arg(long, value_name = "POSITION")]
    probe: Option<String>,

    /// Refuse to solve when the table (a byte a class) needs more than this (e.g. 6G).
    /// (With --distributed: a rank's share of the table.)
    #[arg(long, value_name = "SIZE", default_value = "16G", value_parser = input::memory_size)]
    max_memory: u64,

    /// Solve on the ranks of an MPI run (`mpirun -np N lgame solve-large --distributed
    /// ...`), each holding a share of the table: the same file as a one-process solve.
    /// Needs an lgame built with the `mpi` feature.
    #[arg(long)]
    distributed: bool,
}

fn bad(e: &dyn std::fmt::Display) -> Failure {
    Failure::BadInput(anyhow!("{e}"))
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    if let Some(text) = &args.probe {
        let table = LargeTable::open(&args.out)
            .map_err(|e| bad(&format!("table {}: {e}", args.out.display())))?;
        let position = input::position(text, table.space().rules())?;
        let value = table.value(&position).map_err(|e| bad(&e))?;
        writeln!(out, "{}", value_text(value))?;
        return Ok(());
    }
    if args.distributed {
        return run_distributed(args, rules, out);
    }
    let space = Space::new(rules).map_err(|e| bad(&e))?;
    let bytes = space.slots();
    check_memory(rules, &space, bytes, args.max_memory, "")?;
    let resume = if args.resume {
        let table = open_checkpoint(args, &space)?;
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
        threads()
    );
    let bar = progress_bar(bytes);
    let report = |p: LargeProgress| show(&bar, p);
    let started = Instant::now();
    let outcome =
        large::solve(&space, resume, &options(args, Some(&report))).map_err(|e| bad(&e))?;
    bar.finish_and_clear();
    if !outcome.complete {
        return stopped(args, outcome.next_level, out);
    }
    let s = LargeStats::of(&space, &outcome.table);
    let start = large::decode_slot(&outcome.table, start_slot(&space, rules));
    let solved = Solved {
        stats: s,
        start,
        decided: &outcome.decided,
        elapsed: started.elapsed(),
        bytes,
    };
    solved.print(args, rules, out)
}

#[cfg(feature = "mpi")]
fn run_distributed(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    distributed::run(args, rules, out)
}

#[cfg(not(feature = "mpi"))]
fn run_distributed(_: &Args, _: &Rules, _: &mut impl Write) -> Result<(), Failure> {
    Err(bad(
        &"--distributed needs an lgame built with MPI: cargo build --release -p lgame-cli \
          --features mpi (with Open MPI's libopenmpi-dev and clang installed), then \
          mpirun -np N lgame solve-large --distributed ...",
    ))
}

/// Refuses a table (or a rank's share of one, `what`) over `--max-memory`.
fn check_memory(
    rules: &Rules,
    space: &Space,
    bytes: u64,
    max_memory: u64,
    what: &str,
) -> Result<(), Failure> {
    if bytes > max_memory {
        return Err(bad(&format!(
            "{rules} needs {}{what} for its table ({} classes, a byte each), more than \
             --max-memory {}",
            human_bytes(bytes),
            grouped(space.slots()),
            human_bytes(max_memory)
        )));
    }
    Ok(())
}

/// The checkpoint in `--out`, for `--resume`: a table of the same rules.
fn open_checkpoint(args: &Args, space: &Space) -> Result<LargeTable, Failure> {
    let table = LargeTable::open(&args.out)
        .map_err(|e| bad(&format!("checkpoint {}: {e}", args.out.display())))?;
    if table.space().rules().to_string() != space.rules().to_string() {
        return Err(bad(&format!(
            "the checkpoint is for '{}', not '{}'",
            table.space().rules(),
            space.rules()
        )));
    }
    Ok(table)
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The solve's options from the command's.
fn options<'a>(
    args: &'a Args,
    progress: Option<&'a (dyn Fn(LargeProgress) + Sync)>,
) -> LargeOptions<'a> {
    LargeOptions {
        file: Some(&args.out),
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_minutes.max(0.0) * 60.0),
        stop_after_level: args.stop_after_level,
        progress,
        ..LargeOptions::default()
    }
}

/// A bar per level, drawn on a terminal only.
fn progress_bar(len: u64) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(len)
    } else {
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "level {msg} {bar:40} {percent:>3}% of the level, {eta} left in it, {elapsed} in all",
        )
        .expect("a valid template"),
    );
    bar
}

fn show(bar: &ProgressBar, p: LargeProgress) {
    let level = p.level.to_string();
    if bar.message() != level {
        bar.set_message(level);
        bar.set_length(p.total);
    }
    bar.set_position(p.done);
}

fn start_slot(space: &Space, rules: &Rules) -> u64 {
    space
        .slot_of(&rules.start_position())
        .expect("the rules' own start")
}

/// Says where a run stopped by --stop-after-level left its checkpoint.
fn stopped(args: &Args, next_level: u32, out: &mut impl Write) -> Result<(), Failure> {
    writeln!(
        out,
        "Stopped after level {}: checkpoint {} (--resume goes on)",
        next_level - 1,
        args.out.display()
    )?;
    Ok(())
}

/// What a solve found, for its summary.
struct Solved<'a> {
    stats: LargeStats,
    start: Value,
    decided: &'a [(u32, u64)],
    elapsed: Duration,
    bytes: u64,
}

impl Solved<'_> {
    fn print(&self, args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
        let s = &self.stats;
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
        writeln!(out, "Standard setup: {}", value_text(self.start))?;
        let levels: Vec<String> = self
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
            self.elapsed.as_secs_f64(),
            human_bytes(self.bytes)
        )?;
        writeln!(out, "Table file:     {}", args.out.display())?;
        Ok(())
    }
}

fn value_text(value: Value) -> String {
    match value.plies() {
        Some(p) => format!("{} in {p}", value.wdl()),
        None => value.wdl().to_string(),
    }
}
