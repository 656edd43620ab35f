//! `lgame match`: two players, a number of games, every game refereed and recorded.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::anyhow;
use lgame::Rules;
use lgame_players::matches::{
    run_match, Contender, GameReport, MatchError, MatchOptions, MatchReport,
};
use lgame_players::Tablebases;
use serde::Serialize;

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Red in the first game: a level (`perfect`, `level:beginner:40`) or a command line
    /// speaking the engine protocol (run with sh -c; docs/engine-protocol.md).
    #[arg(long, value_name = "PLAYER")]
    red: String,

    /// Blue in the first game (colours alternate from game to game).
    #[arg(long, value_name = "PLAYER")]
    blue: String,

    /// Number of games.
    #[arg(long, default_value_t = 2)]
    games: u32,

    /// The starting setup: standard, kit, corners or a position.
    #[arg(long, value_name = "S")]
    setup: Option<String>,

    /// Milliseconds an engine has for each move (built-in levels are not timed).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    time_per_move: u64,

    /// Draw after this many plies (0: no limit).
    #[arg(long, default_value_t = 200, value_name = "PLIES")]
    turn_limit: u32,

    /// Draw when a position occurs this many times (0: never).
    #[arg(long, default_value_t = 3, value_name = "N")]
    repetition: u32,

    /// Save every game's record in this folder (game-001.txt, …), with each engine's
    /// standard error beside it (game-001-red.stderr.log, …). Without it nothing is saved.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,

    /// Seed of the built-in players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct JsonGame {
    game: u32,
    red: String,
    blue: String,
    result: String,
    ending: String,
    plies: usize,
    record: Option<String>,
    forfeit: Option<JsonForfeit>,
}

#[derive(Serialize)]
struct JsonForfeit {
    side: String,
    player: String,
    reason: String,
}

#[derive(Serialize)]
struct JsonStanding {
    player: String,
    games: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    points: f64,
    forfeits: u32,
}

#[derive(Serialize)]
struct JsonReport {
    variant: String,
    games: u32,
    red_wins: u32,
    blue_wins: u32,
    draws: u32,
    forfeits: u32,
    results: Vec<JsonGame>,
    standings: Vec<JsonStanding>,
}

fn json_game(g: &GameReport) -> JsonGame {
    JsonGame {
        game: g.number,
        red: g.red.clone(),
        blue: g.blue.clone(),
        result: g.result.to_string(),
        ending: g.ending.clone(),
        plies: g.plies,
        record: g.record.as_ref().map(|p| p.display().to_string()),
        forfeit: g.forfeit.as_ref().map(|f| JsonForfeit {
            side: f.side.to_string(),
            player: f.player.clone(),
            reason: f.reason.clone(),
        }),
    }
}

fn json(report: &MatchReport, rules: &Rules) -> JsonReport {
    JsonReport {
        variant: rules.to_string(),
        games: report.games,
        red_wins: report.red_wins,
        blue_wins: report.blue_wins,
        draws: report.draws,
        forfeits: report.forfeits,
        results: report.results.iter().map(json_game).collect(),
        standings: report
            .standings
            .iter()
            .map(|s| JsonStanding {
                player: s.player.clone(),
                games: s.games,
                wins: s.wins,
                losses: s.losses,
                draws: s.draws,
                points: s.points,
                forfeits: s.forfeits,
            })
            .collect(),
    }
}

const FLAGS: [&str; 2] = ["--red", "--blue"];

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let contender = |flag: &str, text: &str| {
        text.parse::<Contender>()
            .map_err(|e| Failure::BadInput(anyhow!("{flag} '{text}': {e}")))
    };
    let (red, blue) = (
        contender(FLAGS[0], &args.red)?,
        contender(FLAGS[1], &args.blue)?,
    );
    let rules = input::with_setup(rules, args.setup.as_deref())?;
    let options = MatchOptions {
        rules,
        games: args.games,
        time_per_move: Duration::from_millis(args.time_per_move),
        draw_rules: input::draw_rules(args.turn_limit, args.repetition),
        seed: args.seed,
        records: args.records.clone(),
    };
    let mut progress = std::io::stderr();
    let report = run_match(
        [&red, &blue],
        &options,
        Arc::new(Tablebases::default()),
        |g| {
            if !args.json {
                let forfeit = g.forfeit.as_ref().map_or(String::new(), |f| {
                    format!(" ({} forfeits: {})", f.side, f.reason)
                });
                let _ = writeln!(
                    progress,
                    "game {}: {} vs {}: {} by {} after {} plies{forfeit}",
                    g.number, g.red, g.blue, g.result, g.ending, g.plies
                );
            }
        },
    )
    .map_err(|e| match e {
        // An engine that cannot play is the user's input to fix, like a bad level.
        MatchError::Engine {
            contender,
            command,
            failure,
        } => Failure::BadInput(anyhow!(
            "{} '{command}': the engine cannot play this match: {failure}",
            FLAGS[contender]
        )),
        MatchError::Records(e) => Failure::Io(std::io::Error::new(
            e.kind(),
            format!("saving records: {e}"),
        )),
    })?;
    if args.json {
        serde_json::to_writer(&mut *out, &json(&report, &rules)).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} games of {rules}: Red won {}, Blue won {}, {} drawn, {} forfeits",
        report.games, report.red_wins, report.blue_wins, report.draws, report.forfeits
    )?;
    writeln!(
        out,
        "{:>5} {:>5} {:>6} {:>5} {:>6} {:>8}  player",
        "games", "wins", "losses", "draws", "points", "forfeits"
    )?;
    for s in &report.standings {
        writeln!(
            out,
            "{:>5} {:>5} {:>6} {:>5} {:>6.1} {:>8}  {}",
            s.games, s.wins, s.losses, s.draws, s.points, s.forfeits, s.player
        )?;
    }
    if let Some(dir) = &args.records {
        writeln!(out, "records in {}", dir.display())?;
    }
    Ok(())
}
