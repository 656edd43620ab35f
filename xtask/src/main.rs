//! `cargo xtask`: the project's own tasks, beside the product.
//!
//! - `cargo xtask test [ARGS…]` is the README's test command. The tests drive real programs
//!   beside the Rust code (Debian's Chromium through ChromeDriver for the web page, tmux for
//!   the terminal, Python for the example engine and the Python package, Node.js and the
//!   page's npm packages for its accessibility test), so it first makes sure they are there:
//!   missing programs are installed with apt-get when it runs as root, and otherwise it stops
//!   at once and names the packages to install; the npm packages are installed by `npm ci`
//!   when `node_modules` is missing or older than `package-lock.json`. Then it runs every
//!   test of the workspace, going on past a failing test binary so that one failure does not
//!   hide the others; without arguments it then builds the Python package's wheel (maturin,
//!   kept in `target/py-venv`) and runs its pytest suite against that wheel in a fresh
//!   virtual environment (`target/py-test-venv`) with no Rust toolchain on `PATH`. It fails
//!   if the tests left
//!   any file in the checkout outside `target/`, or a new entry in the user's home (its top
//!   level, `~/.config`, `~/.cache`, `~/Downloads`) but the caches cargo, npm and pip keep.
//! - `cargo xtask npm-ci` installs the page's npm packages alone, as `test` does (for CI's
//!   `npm run check`).
//! - `cargo xtask report [--out DIR]` writes the solved game's report, `docs/analysis.md`
//!   and its diagrams; the table of boards comes from `docs/analysis/large-boards.tsv`.
//! - `cargo xtask report-large [--out DIR] [--tables DIR] [--max-positions N]` solves the
//!   boards and neutral counts not yet in that file (for hours; a stopped run resumes).
//! - `cargo xtask wasm [--check]` builds the page's WebAssembly engine (`crates/lgame-wasm`)
//!   with Debian's `rustc-web` (installed when missing) into
//!   `crates/lgame-web/web/engine/lgame.wasm`; `--check` fails when the committed file differs.
//! - `cargo xtask static DIR` writes the page as static files (lgame-web's example
//!   `static_site`, `lgame_web::write_static_site`):
//!   served by any static web host, it plays with its WebAssembly engine, no server.
//! - `cargo xtask players-report [--out FILE]` plays the computer players against each other
//!   and writes `docs/players.md`.

mod players_report;
mod report;
mod test;
mod wasm;

use std::env;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask TASK [ARGS…]

  test [CARGO TEST ARGS…]     install what the tests need when it is missing (apt-get, as
                              root), then run `cargo test --workspace --no-fail-fast`
                              and (without arguments) the Python package's tests
  test-python                 only the Python package's tests (the wheel, a fresh
                              environment without Rust on PATH, pytest)
  npm-ci                      install the page's npm packages (crates/lgame-web) when
                              node_modules is missing or older than package-lock.json
  report [--out DIR]          write DIR/analysis.md and its diagrams (default DIR: docs),
                              the boards from DIR/analysis/large-boards.tsv
  report-large [--out DIR] [--tables DIR] [--max-positions N] [--only LIST]
                              solve the boards 4x4 to 8x8 not yet in that file (tables
                              and checkpoints in target/large-tables; up to N positions,
                              default 3000000000, or only the spaces listed as
                              BOARD:NEUTRALS, e.g. '8x8:3 6x6:5'; resumes)
  static DIR                  write the page as static files into DIR (any static web
                              host: the WebAssembly engine plays, no server)
  wasm [--check]              build the page's WebAssembly engine into
                              crates/lgame-web/web/engine/lgame.wasm (installs Debian's
                              rustc-web); --check: fail when the committed file differs
  players-report [--out FILE] write the computer players' report (default docs/players.md)";

/// The workspace's root folder, where the default outputs go.
fn root() -> PathBuf {
    let xtask = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<OsString> = env::args_os().skip(1).collect();
    let task = args.first().and_then(|a| a.to_str()).unwrap_or("");
    let rest = args.get(1..).unwrap_or_default().to_vec();
    let result = match task {
        "test" => return test::run(rest),
        "test-python" => return test::run_python(),
        "npm-ci" => return test::run_npm_ci(),
        "static" => match rest.as_slice() {
            [dir] => run_static(std::path::Path::new(dir)),
            _ => Err(anyhow::anyhow!(
                "static needs one folder: cargo xtask static DIR"
            )),
        },
        "wasm" => match rest.first().and_then(|a| a.to_str()) {
            None => wasm::run(&root(), false),
            Some("--check") if rest.len() == 1 => wasm::run(&root(), true),
            Some(other) => Err(anyhow::anyhow!("wasm: unknown argument '{other}'")),
        },
        "report" | "report-large" | "large-one" | "players-report" => {
            if let Some(code) = optimised(&args) {
                return code;
            }
            match task {
                "report" => run_report(&rest),
                "report-large" => run_report_large(&rest),
                "large-one" => run_large_one(&rest),
                _ => run_players_report(&rest),
            }
        }
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        "" => Err(anyhow::anyhow!("no task given")),
        other => Err(anyhow::anyhow!("unknown task '{other}'")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// The reports solve every variant and play thousands of games: a debug build runs them
/// again optimised (`cargo run --release`), which says what went wrong, if anything.
fn optimised(args: &[OsString]) -> Option<ExitCode> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["run", "--release", "--quiet", "--package", "xtask", "--"])
        .args(args)
        .status();
    Some(match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(1, 255) as u8)),
        Err(e) => {
            eprintln!("error: cannot run cargo: {e}");
            ExitCode::FAILURE
        }
    })
}

/// The value of `--NAME VALUE` among `args`, if given; any other argument is an error.
fn options<'a>(args: &'a [OsString], names: &[&str]) -> anyhow::Result<Vec<Option<&'a str>>> {
    let mut values = vec![None; names.len()];
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let arg = arg.to_str().unwrap_or("");
        let Some(i) = names.iter().position(|n| arg == format!("--{n}")) else {
            anyhow::bail!("unknown argument '{arg}'");
        };
        let value = rest.next().and_then(|v| v.to_str());
        values[i] = Some(value.ok_or_else(|| anyhow::anyhow!("{arg} needs a value"))?);
    }
    Ok(values)
}

fn run_report(args: &[OsString]) -> anyhow::Result<()> {
    let values = options(args, &["out"])?;
    let report = report::Args {
        out: values[0].map_or_else(|| root().join("docs"), PathBuf::from),
    };
    report::run(&report, &mut std::io::stdout().lock())
}

fn run_report_large(args: &[OsString]) -> anyhow::Result<()> {
    let values = options(args, &["out", "tables", "max-positions", "only"])?;
    let only = values[3]
        .map(|list| {
            list.split_whitespace()
                .map(|item| {
                    let (board, k) = item
                        .split_once(':')
                        .ok_or_else(|| anyhow::anyhow!("--only '{item}': not BOARD:NEUTRALS"))?;
                    let k = k
                        .parse()
                        .map_err(|_| anyhow::anyhow!("--only '{item}': bad neutral count"))?;
                    Ok((board.to_string(), k))
                })
                .collect::<anyhow::Result<Vec<_>>>()
        })
        .transpose()?;
    let report = report::LargeArgs {
        out: values[0].map_or_else(|| root().join("docs"), PathBuf::from),
        tables: values[1].map_or_else(|| root().join("target/large-tables"), PathBuf::from),
        max_positions: match values[2] {
            Some(n) => n
                .parse()
                .map_err(|_| anyhow::anyhow!("--max-positions '{n}': not a number"))?,
            None => 3_000_000_000,
        },
        only,
    };
    report::run_large(&report, &mut std::io::stdout().lock())
}

/// `large-one RULES TABLE`: one space of report-large, run by it in a process of its own.
fn run_large_one(args: &[OsString]) -> anyhow::Result<()> {
    let [rules, table] = args else {
        anyhow::bail!("large-one needs RULES and TABLE");
    };
    let rules = rules
        .to_str()
        .ok_or_else(|| anyhow::anyhow!("rules not UTF-8"))?;
    report::run_large_one(
        rules,
        std::path::Path::new(table),
        &mut std::io::stdout().lock(),
    )
}

/// The page as static files: lgame-web's example `static_site`, run by cargo (xtask does not
/// depend on the server, so that `cargo xtask npm-ci` and the rest build in seconds).
fn run_static(dir: &std::path::Path) -> anyhow::Result<()> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "run",
            "--quiet",
            "-p",
            "lgame-web",
            "--example",
            "static_site",
            "--",
        ])
        .arg(dir)
        .current_dir(root())
        .status()?;
    anyhow::ensure!(status.success(), "the example static_site failed: {status}");
    Ok(())
}

fn run_players_report(args: &[OsString]) -> anyhow::Result<()> {
    let values = options(args, &["out"])?;
    let path = values[0].map_or_else(|| root().join("docs/players.md"), PathBuf::from);
    let text = players_report::report();
    std::fs::write(&path, text).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    writeln!(std::io::stdout(), "wrote {}", path.display())?;
    Ok(())
}
