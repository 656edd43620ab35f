//! Getting a solved table for the command line: solved here with a progress bar and a memory
//! limit, or read from a file written by `lgame solve --out`.

use std::fs::File;
use std::io::{BufReader, IsTerminal};
use std::path::Path;

use anyhow::{anyhow, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lgame::Rules;
use lgame_solver::{estimate, file, human_bytes, Progress, SolveOptions, StateIndex, Tablebase};

use crate::output::Failure;

/// Solves above this many states are announced with their size and a progress bar.
const ANNOUNCE_STATES: u64 = 1_000_000;

/// The default `--max-memory`: a quarter of this project's 24 GiB machines.
pub const DEFAULT_MAX_MEMORY: &str = "6G";

/// Solves `rules`, refusing when the estimate exceeds `max_memory`.
pub fn solve(rules: &Rules, max_memory: u64) -> Result<Tablebase, Failure> {
    let index = StateIndex::new(rules);
    let big = index.len() >= ANNOUNCE_STATES;
    let bar = if big && std::io::stderr().is_terminal() {
        let e = estimate(&index);
        eprintln!(
            "Solving {rules}: {} states, about {} of memory",
            e.states,
            human_bytes(e.peak_bytes)
        );
        let bar = ProgressBar::new(index.len());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {percent:>3}% {pos}/{len} states, {eta} left")
                .expect("a valid template"),
        );
        bar
    } else {
        ProgressBar::with_draw_target(Some(index.len()), ProgressDrawTarget::hidden())
    };
    let mut report = |p: Progress| bar.set_position(p.done);
    let options = SolveOptions {
        max_memory: Some(max_memory),
        progress: Some(&mut report),
        ..SolveOptions::default()
    };
    let tb = Tablebase::solve_with(rules, options).map_err(|e| Failure::BadInput(anyhow!(e)))?;
    bar.finish_and_clear();
    Ok(tb)
}

/// Reads a table from a file, checking that it holds `rules`.
pub fn load(path: &Path, rules: &Rules) -> Result<Tablebase, Failure> {
    let f = File::open(path)
        .with_context(|| format!("opening tablebase {}", path.display()))
        .map_err(Failure::BadInput)?;
    file::read_expecting(BufReader::new(f), rules)
        .map_err(|e| Failure::BadInput(anyhow!("tablebase {}: {e}", path.display())))
}

/// Writes a table to `path` without ever leaving a partial file: it is written beside it
/// and renamed into place.
pub fn save(tb: &Tablebase, path: &Path) -> Result<(), Failure> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let tmp = path.with_file_name(name);
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        file::write(tb, &mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Failure::Io(std::io::Error::new(
            e.kind(),
            format!("writing tablebase {}: {e}", path.display()),
        ))
    })
}
