//! `lgame play`: a game in the terminal, full-screen (ratatui) or line by line (`--plain`,
//! and whenever standard input is not a terminal). Both fronts play through
//! [`SeatedGame`]; neither holds a rule of its own.

mod plain;
mod tui;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use lgame::game::DrawRules;
use lgame::{Game, Record, Rules};
use lgame_players::seated::{Seat, SeatedGame};
use lgame_players::Tablebases;

use crate::input;
use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Red's player: human; a level (random, beginner, intermediate, perfect, or
    /// level:perfect) with an optional strength, like beginner:40; or a command line that
    /// speaks the engine protocol [default: human, or the loaded game's player].
    #[arg(long, value_name = "PLAYER")]
    red: Option<String>,

    /// Blue's player [default: intermediate, or the loaded game's player].
    #[arg(long, value_name = "PLAYER")]
    blue: Option<String>,

    /// The starting setup: standard, kit, corners or a position.
    #[arg(long, value_name = "S")]
    setup: Option<String>,

    /// Continue the game saved in this record.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,

    /// Draw when a position occurs this many times (0: never).
    #[arg(long, default_value_t = 3, value_name = "N")]
    repetition: u32,

    /// Draw after this many plies (0: no limit; the printable kit's short session is 40).
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    turn_limit: u32,

    /// Line by line, for pipes, screen readers and scripts (also used whenever standard
    /// input is not a terminal).
    #[arg(long)]
    plain: bool,

    /// Seed of the computer players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Where `save` writes the record when no file is named.
    #[arg(long, value_name = "FILE", default_value = "lgame-game.txt")]
    save_to: PathBuf,
}

/// Everything a front needs: the seated game, the tables for hints, where to save, and the
/// seed of the computer players (for a new game).
pub struct Table {
    pub seated: SeatedGame,
    pub tablebases: Arc<Tablebases>,
    pub save_to: PathBuf,
    pub seed: u64,
}

impl Table {
    /// The position's analysis for hints: its value and every move's, best first.
    pub fn hints(&self) -> Option<lgame_solver::Analysis> {
        let game = self.seated.game();
        self.tablebases
            .get(game.rules())
            .analyze(game.position())
            .ok()
    }

    /// A line saying whose turn it is and who plays, or how the game ended.
    pub fn status(&self) -> String {
        let game = self.seated.game();
        match game.conclusion() {
            Some(end) => format!("Game over: {end}"),
            None => {
                let turn = game.position().turn();
                format!(
                    "Move {}: {turn} ({}) to move",
                    game.plies().len() + 1,
                    self.seated.seat(turn)
                )
            }
        }
    }

    /// The game's draw rules in words.
    pub fn draw_rules(&self) -> String {
        let rules = self.seated.game().draw_rules();
        let mut parts = Vec::new();
        if let Some(n) = rules.repetition {
            let nth = match n {
                2 => "second".to_string(),
                3 => "third".to_string(),
                4 => "fourth".to_string(),
                n => format!("{n}th"),
            };
            parts.push(format!("drawn at the {nth} repetition"));
        }
        if let Some(n) = rules.turn_limit {
            parts.push(format!("drawn after {n} plies"));
        }
        if parts.is_empty() {
            "no automatic draw".to_string()
        } else {
            parts.join(", ")
        }
    }

    /// Saves the game's record to `path` (or the default file); returns the full path
    /// written, so that the player is told exactly where it went.
    pub fn save(&self, path: Option<&str>) -> Result<PathBuf, String> {
        let path = path.map_or(self.save_to.clone(), PathBuf::from);
        std::fs::write(&path, self.seated.record().to_string())
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))?;
        Ok(std::fs::canonicalize(&path).unwrap_or(path))
    }
}

fn seat(flag: &str, text: &str) -> Result<Seat, Failure> {
    text.parse()
        .map_err(|e| Failure::BadInput(anyhow!("--{flag} '{text}': {e}")))
}

/// The player a loaded record names in its `Red` or `Blue` tag, if it names one. Records
/// saved before the tags held names say `computer: perfect`.
///
/// An engine's command line in a record is not run: a file must not start programs. The
/// player says so, and names it on the command line (`--red`/`--blue`) to run it.
fn recorded_seat(record: &Record, tag: &str) -> Option<Seat> {
    let text = record.tag(tag)?;
    match text
        .strip_prefix("computer:")
        .unwrap_or(text)
        .parse()
        .ok()?
    {
        Seat::Engine(command) => {
            let flag = tag.to_lowercase();
            eprintln!(
                "note: the record's {tag} is the engine '{command}', which is not run from a \
                 file: give --{flag} to play it"
            );
            None
        }
        seat => Some(seat),
    }
}

/// The game to play, loaded from a record or new under the rules and setup, and its seats:
/// those given, else the loaded game's, else a person against `intermediate`.
fn game(args: &Args, rules: &Rules) -> Result<(Game, [Seat; 2]), Failure> {
    let given =
        |flag: &str, text: &Option<String>| text.as_deref().map(|t| seat(flag, t)).transpose();
    let (red, blue) = (given("red", &args.red)?, given("blue", &args.blue)?);
    let (game, recorded) = match &args.load {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))
                .map_err(Failure::BadInput)?;
            let record: Record = text
                .parse()
                .map_err(|e| Failure::BadInput(anyhow!("{}: {e}", path.display())))?;
            let game = record
                .replay()
                .map_err(|e| Failure::BadInput(anyhow!("{}: {e}", path.display())))?;
            (
                game,
                [
                    recorded_seat(&record, "Red"),
                    recorded_seat(&record, "Blue"),
                ],
            )
        }
        None => {
            let rules = input::with_setup(rules, args.setup.as_deref())?;
            let draw_rules = input::draw_rules(args.turn_limit, args.repetition);
            (Game::new(rules).with_draw_rules(draw_rules), [None, None])
        }
    };
    let [recorded_red, recorded_blue] = recorded;
    let seats = [
        red.or(recorded_red).unwrap_or(Seat::Human),
        blue.or(recorded_blue)
            .unwrap_or(Seat::Computer("intermediate".parse().expect("a level"))),
    ];
    Ok((game, seats))
}

pub fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let (mut game, seats) = game(args, rules)?;
    if !seats.iter().any(Seat::is_human) && game.draw_rules() == DrawRules::NONE {
        // Two computers under the pure rules could play for ever.
        eprintln!("note: two computers and no draw rule: the game is drawn after 500 plies");
        game = game.with_draw_rules(DrawRules {
            turn_limit: Some(500),
            repetition: None,
        });
    }
    let tablebases = Arc::new(Tablebases::default());
    let mut seated = SeatedGame::new(game, seats, args.seed, tablebases.clone());
    // An engine that cannot start is the command's error, before any board is drawn.
    if let Err((color, e)) = seated.start_engines() {
        let flag = color.to_string().to_lowercase();
        let name = seated.seat(color).name();
        return Err(Failure::BadInput(anyhow!("--{flag} '{name}': {e}")));
    }
    let table = Table {
        seated,
        tablebases,
        save_to: args.save_to.clone(),
        seed: args.seed,
    };
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if args.plain || !interactive {
        plain::run(table, std::io::stdin().lock(), out)?;
    } else {
        tui::run(table)?;
    }
    Ok(())
}
