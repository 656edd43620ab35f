//! The `lgame` command: list legal moves, play moves, draw the board.
//!
//! All rule logic lives in the `lgame` library; this binary only reads arguments, calls it and
//! prints. Errors go to stderr prefixed `error: `; unreadable input exits 2, an illegal move 1.

#[cfg(feature = "server")]
mod admin;
mod analyze;
mod apply;
mod bot;
mod engine;
mod input;
mod judge;
mod matches;
mod moves;
mod output;
mod play;
mod render;
#[cfg(feature = "server")]
mod serve;
mod show;
mod solve;
mod solve_large;
mod tablebase;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Software for Edward de Bono's L game.
///
/// A POSITION is one argument, in either form of the notation, quoted:
/// "NRR./.RB./.RB./.BBN r" or "R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,D1 r"; or a setup name
/// (standard, kit, corners), or `start` for the variant's starting position.
#[derive(Debug, Parser)]
#[command(name = "lgame", version)]
struct Cli {
    /// The rules: classic, or a comma-separated option list such as misere,
    /// sudden-death, neutral-required, neutrals=1, board=5x5, symmetry, scoring,target=12,
    /// setup=kit.
    #[arg(long, global = true, value_name = "RULES", default_value = "classic")]
    variant: String,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Every legal move in a position and the position each leads to.
    Moves(moves::Args),
    /// Play moves in order from a position and print the resulting position.
    Apply(apply::Args),
    /// Draw the board.
    Show(show::Args),
    /// Solve the variant and print its statistics (positions, values, distances, extremes).
    Solve(solve::Args),
    /// Solve a large board into a table file (a byte a class, every core, checkpoints), or
    /// probe such a file.
    SolveLarge(solve_large::Args),
    /// The value of a position and of every legal move, best first.
    Analyze(analyze::Args),
    /// An SVG diagram of a position.
    Render(render::Args),
    /// Check a game record: every move legal, the result true.
    Judge(judge::Args),
    /// Speak the engine protocol on standard input and output with a built-in player.
    Engine(engine::Args),
    /// Play on a game server as a bot account: an engine (or a built-in level) accepts
    /// challenges and plays them (docs/bots.md).
    Bot(bot::Args),
    /// Play a match between two players, refereed and recorded.
    Match(matches::Args),
    /// Play a game in the terminal: against the computer, two people, or two computers.
    Play(play::Args),
    /// Run the game server: games over HTTP and WebSocket, stored in SQLite or PostgreSQL (docs/api.md).
    #[cfg(feature = "server")]
    Serve(serve::Args),
    /// The server's accounts, on its machine: reset a password, disable, enable, rename,
    /// list the newest (docs/accounts.md).
    #[cfg(feature = "server")]
    Admin(admin::Args),
}

/// The command line; `lgame serve`'s settings also from the environment and a file. Help and
/// version are printed to stdout (exit 0), usage errors to stderr (exit 2).
#[cfg(feature = "server")]
fn parse() -> Result<(Cli, serve::config::Sources), output::Failure> {
    let (matches, sources) = serve::config::parse(<Cli as clap::CommandFactory>::command())?;
    let cli =
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    Ok((cli, sources))
}

#[cfg(not(feature = "server"))]
fn parse() -> Result<(Cli, ()), output::Failure> {
    Ok((Cli::parse(), ()))
}

fn main() -> ExitCode {
    #[cfg_attr(not(feature = "server"), allow(unused_variables))]
    let (cli, sources) = match parse() {
        Ok(parsed) => parsed,
        Err(failure) => return failure.report(),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let result = input::rules(&cli.variant)
        .and_then(|rules| match &cli.command {
            Command::Moves(args) => moves::run(args, &rules, &mut out),
            Command::Apply(args) => apply::run(args, &rules, &mut out),
            Command::Show(args) => show::run(args, &rules, &mut out),
            Command::Solve(args) => solve::run(args, &rules, &mut out),
            Command::SolveLarge(args) => solve_large::run(args, &rules, &mut out),
            Command::Analyze(args) => analyze::run(args, &rules, &mut out),
            Command::Render(args) => render::run(args, &rules, &mut out),
            Command::Judge(args) => judge::run(args, &rules, &mut out),
            Command::Engine(args) => engine::run(args, &rules, &mut out),
            Command::Bot(args) => bot::run(args, &mut out),
            Command::Match(args) => matches::run(args, &rules, &mut out),
            Command::Play(args) => play::run(args, &rules, &mut out),
            #[cfg(feature = "server")]
            Command::Serve(args) => serve::run(args, &sources, &rules, &mut out),
            #[cfg(feature = "server")]
            Command::Admin(args) => admin::run(args, &mut out),
        })
        .and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
