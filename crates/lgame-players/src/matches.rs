//! Matches between players: built-in levels or engines in other processes, refereed game by
//! game. Before the first game every engine is started once, to check that it starts and
//! declares the match's rules; one that does not stops the match before it begins. In a
//! game, an illegal move, malformed output, a crash or a timeout loses that game by forfeit,
//! is recorded with its reason, and the match goes on.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use lgame::game::{DrawRules, GameResult, ResultToken, Termination};
use lgame::{Color, Game, Move, Record, Rules};

use crate::external::{External, Failure};
use crate::{BuiltIn, ParseSpecError, Player, PlayerName, PlayerSpec, Tablebases};

/// Time allowed for an engine to start and answer the handshake (`lgp` to `lgpok`), and to
/// get ready for a game (`isready` to `readyok`: a perfect engine may solve its table then).
pub const READY_TIMEOUT: Duration = Duration::from_secs(60);

/// One side of a match: a built-in level, or a command line that speaks the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contender {
    /// A built-in level: `perfect`, `level:beginner:40`.
    BuiltIn(PlayerSpec),
    /// Any other text: a command line run by `sh -c`.
    Command(String),
}

/// Text that names no contender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContenderError {
    /// Not a player's name at all (an unknown level, a bad strength, nothing).
    Name(ParseSpecError),
    /// `human`: nobody can type moves into a match.
    Human,
}

impl fmt::Display for ContenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContenderError::Name(e) => e.fmt(f),
            ContenderError::Human => f.write_str(
                "a match is played by programs, not people: name a level (perfect, \
                 level:beginner:40) or an engine's command line (lgame play takes a human)",
            ),
        }
    }
}

impl std::error::Error for ContenderError {}

impl FromStr for Contender {
    type Err = ContenderError;

    /// A player's name as [`PlayerName`] reads it (`perfect`, `level:perfect`,
    /// `beginner:40`, `level:beginner:40`, or a command line), but not `human`.
    fn from_str(text: &str) -> Result<Contender, ContenderError> {
        match text.parse::<PlayerName>().map_err(ContenderError::Name)? {
            PlayerName::Human => Err(ContenderError::Human),
            PlayerName::BuiltIn(spec) => Ok(Contender::BuiltIn(spec)),
            PlayerName::Command(command) => Ok(Contender::Command(command)),
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::BuiltIn(spec) => write!(f, "level:{spec}"),
            Contender::Command(command) => f.write_str(command),
        }
    }
}

/// How a match is played.
#[derive(Debug, Clone)]
pub struct MatchOptions {
    /// The rules, setup included.
    pub rules: Rules,
    /// Number of games; colours alternate, the first contender Red in game 1.
    pub games: u32,
    /// Time per move for engines (built-in levels are not timed).
    pub time_per_move: Duration,
    /// The draw rules of every game.
    pub draw_rules: DrawRules,
    /// Seed of the built-in players' choices (game n uses seed + n).
    pub seed: u64,
    /// Where to save each game's record and each engine's standard error, if anywhere.
    pub records: Option<PathBuf>,
}

/// Why a match could not be played.
#[derive(Debug)]
pub enum MatchError {
    /// An engine cannot play the match: it does not start, fails the handshake, or does not
    /// declare the match's rules. Found before the first game.
    Engine {
        /// 0 for the first contender, 1 for the second.
        contender: usize,
        /// Its command line.
        command: String,
        /// What went wrong.
        failure: Failure,
    },
    /// A record or a log could not be written.
    Records(std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Engine {
                command, failure, ..
            } => write!(
                f,
                "the engine '{command}' cannot play this match: {failure}"
            ),
            MatchError::Records(e) => write!(f, "saving records: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// A game lost by forfeit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forfeit {
    /// The side that forfeited.
    pub side: Color,
    /// Its player.
    pub player: String,
    /// Why.
    pub reason: String,
}

/// One game of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameReport {
    /// 1, 2, …
    pub number: u32,
    /// Red's player.
    pub red: String,
    /// Blue's player.
    pub blue: String,
    /// The result token.
    pub result: ResultToken,
    /// How it ended (`trapped`, `repetition`, `forfeit`, …).
    pub ending: String,
    /// Plies played.
    pub plies: usize,
    /// The record file, when records are saved.
    pub record: Option<PathBuf>,
    /// The log files of the engines' standard error, Red's first, when records are saved.
    pub logs: Vec<PathBuf>,
    /// The forfeit, if the game was lost by one.
    pub forfeit: Option<Forfeit>,
}

/// One contender's totals.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The contender.
    pub player: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Points: 1 a win, ½ a draw.
    pub points: f64,
    /// Games lost by forfeit.
    pub forfeits: u32,
}

/// The outcome of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchReport {
    /// Games played.
    pub games: u32,
    /// Games won by Red.
    pub red_wins: u32,
    /// Games won by Blue.
    pub blue_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by forfeit.
    pub forfeits: u32,
    /// Every game.
    pub results: Vec<GameReport>,
    /// The two contenders' totals, first contender first.
    pub standings: [Standing; 2],
}

/// A side while a game is played.
enum Side {
    BuiltIn(BuiltIn),
    Engine(Result<External, String>),
}

impl Side {
    fn start(
        contender: &Contender,
        seed: u64,
        tablebases: &Arc<Tablebases>,
        options: &MatchOptions,
        stderr_log: Option<&Path>,
    ) -> Side {
        match contender {
            Contender::BuiltIn(spec) => {
                let mut player = BuiltIn::new(*spec, seed, tablebases.clone());
                player.prepare(&options.rules);
                Side::BuiltIn(player)
            }
            Contender::Command(command) => Side::Engine(
                External::start_with(command, READY_TIMEOUT, stderr_log)
                    .and_then(|mut e| {
                        e.new_game_with(&options.rules, options.draw_rules, READY_TIMEOUT)
                            .map(|()| e)
                    })
                    .map_err(|e| e.to_string()),
            ),
        }
    }

    /// The side's move, or why it forfeits.
    fn next_move(&mut self, game: &Game, time: Duration) -> Result<Move, String> {
        match self {
            Side::BuiltIn(player) => player
                .choose_move(game)
                .ok_or_else(|| "no move in a game that is not over".to_string()),
            Side::Engine(Err(e)) => Err(e.clone()),
            Side::Engine(Ok(engine)) => engine.choose_move(game, time),
        }
    }

    fn finish(self) {
        if let Side::Engine(Ok(engine)) = self {
            engine.stop();
        }
    }
}

/// Plays a game between two in-process players (Red first) until it ends by the rules or
/// its draw rules. Returns `Err(color)` if a player had no move or an illegal one, which
/// built-in players never do.
pub fn play_out(game: &mut Game, players: [&mut dyn Player; 2]) -> Result<(), Color> {
    while !game.is_over() {
        let color = game.position().turn();
        let mv = players[color as usize].choose_move(game).ok_or(color)?;
        game.play(&mv).map_err(|_| color)?;
    }
    Ok(())
}

/// Plays one game between two sides; returns the game and any forfeit.
fn play_game(
    sides: &mut [Side; 2],
    names: [&str; 2],
    options: &MatchOptions,
) -> (Game, Option<Forfeit>) {
    let mut game = Game::new(options.rules).with_draw_rules(options.draw_rules);
    while !game.is_over() {
        let color = game.position().turn();
        let i = color as usize;
        let outcome = sides[i]
            .next_move(&game, options.time_per_move)
            .and_then(|mv| {
                game.play(&mv)
                    .map(|_| ())
                    .map_err(|e| format!("illegal move '{mv}': {e}"))
            });
        if let Err(reason) = outcome {
            let win = ResultToken::Finished(GameResult::win_for(!color));
            game.declare(Termination::Forfeit, win)
                .expect("the game was not over");
            let forfeit = Forfeit {
                side: color,
                player: names[i].to_string(),
                reason,
            };
            return (game, Some(forfeit));
        }
    }
    (game, None)
}

/// Starts every engine once, before the match: it must start, answer the handshake and
/// declare the match's rules.
fn check_engines(contenders: [&Contender; 2], rules: &Rules) -> Result<(), MatchError> {
    for (i, contender) in contenders.iter().enumerate() {
        if let Contender::Command(command) = contender {
            let refused = |failure| MatchError::Engine {
                contender: i,
                command: command.clone(),
                failure,
            };
            let engine = External::start(command, READY_TIMEOUT).map_err(refused)?;
            let plays = engine.check_plays(rules);
            engine.stop();
            plays.map_err(refused)?;
        }
    }
    Ok(())
}

fn save_record(
    dir: &Path,
    number: u32,
    game: &Game,
    names: [&str; 2],
    forfeit: &Option<Forfeit>,
) -> std::io::Result<PathBuf> {
    let mut record = Record::from_game(game);
    record.set_tag("Event", "lgame match");
    record.set_tag("Round", number.to_string());
    record.set_tag("Red", names[0]);
    record.set_tag("Blue", names[1]);
    if let Some(f) = forfeit {
        record.comment = Some(format!("{} ({}) forfeits: {}", f.side, f.player, f.reason));
    }
    let path = dir.join(format!("game-{number:03}.txt"));
    std::fs::write(&path, record.to_string())?;
    Ok(path)
}

/// Plays a match, calling `on_game` after each game. With `options.records`, each game's
/// record is saved there as `game-001.txt`, …, and each engine's standard error in that game
/// as `game-001-red.stderr.log` (or `-blue`).
///
/// # Errors
/// [`MatchError::Engine`] before the first game when an engine cannot play the match;
/// [`MatchError::Records`] when a record or log cannot be saved.
pub fn run_match(
    contenders: [&Contender; 2],
    options: &MatchOptions,
    tablebases: Arc<Tablebases>,
    mut on_game: impl FnMut(&GameReport),
) -> Result<MatchReport, MatchError> {
    check_engines(contenders, &options.rules)?;
    if let Some(dir) = &options.records {
        std::fs::create_dir_all(dir).map_err(MatchError::Records)?;
    }
    let mut standings = contenders.map(|c| Standing {
        player: c.to_string(),
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        points: 0.0,
        forfeits: 0,
    });
    let mut report = MatchReport {
        games: 0,
        red_wins: 0,
        blue_wins: 0,
        draws: 0,
        forfeits: 0,
        results: Vec::new(),
        standings: standings.clone(),
    };
    for number in 1..=options.games {
        // Colours alternate: the first contender is Red in odd games.
        let order = if number % 2 == 1 { [0, 1] } else { [1, 0] };
        let seed = options.seed.wrapping_add(number as u64);
        // Each engine's standard error, by the colour it plays in this game.
        let logs: [Option<PathBuf>; 2] = [0, 1].map(|slot| {
            let dir = options.records.as_ref()?;
            let engine = matches!(contenders[order[slot]], Contender::Command(_));
            let color = ["red", "blue"][slot];
            engine.then(|| dir.join(format!("game-{number:03}-{color}.stderr.log")))
        });
        let mut sides = [0, 1].map(|slot| {
            let c = order[slot];
            Side::start(
                contenders[c],
                seed.wrapping_mul(2).wrapping_add(c as u64),
                &tablebases,
                options,
                logs[slot].as_deref(),
            )
        });
        // Red's name first: an engine's own name with its command, or the level.
        let names: [String; 2] = [0, 1].map(|slot| match &sides[slot] {
            Side::Engine(Ok(engine)) if engine.name() != contenders[order[slot]].to_string() => {
                format!("{} ({})", engine.name(), contenders[order[slot]])
            }
            _ => contenders[order[slot]].to_string(),
        });
        let names = [names[0].as_str(), names[1].as_str()];
        let (game, forfeit) = play_game(&mut sides, names, options);
        for side in sides {
            side.finish();
        }
        let conclusion = game.conclusion();
        let result = game.result_token();
        let record = match &options.records {
            Some(dir) => Some(
                save_record(dir, number, &game, names, &forfeit).map_err(MatchError::Records)?,
            ),
            None => None,
        };
        let winner = conclusion
            .and_then(|c| c.result)
            .and_then(GameResult::winner);
        match winner {
            Some(Color::Red) => report.red_wins += 1,
            Some(Color::Blue) => report.blue_wins += 1,
            None => report.draws += 1,
        }
        for (slot, &c) in order.iter().enumerate() {
            let s = &mut standings[c];
            let color = if slot == 0 { Color::Red } else { Color::Blue };
            s.games += 1;
            match winner {
                Some(w) if w == color => {
                    s.wins += 1;
                    s.points += 1.0;
                }
                Some(_) => s.losses += 1,
                None => {
                    s.draws += 1;
                    s.points += 0.5;
                }
            }
            if forfeit.as_ref().is_some_and(|f| f.side == color) {
                s.forfeits += 1;
            }
        }
        report.forfeits += forfeit.is_some() as u32;
        report.games += 1;
        let game_report = GameReport {
            number,
            red: names[0].to_string(),
            blue: names[1].to_string(),
            result,
            ending: conclusion.map_or("unfinished".to_string(), |c| c.ending.name().to_string()),
            plies: game.plies().len(),
            record,
            logs: logs.into_iter().flatten().collect(),
            forfeit,
        };
        on_game(&game_report);
        report.results.push(game_report);
    }
    report.standings = standings;
    Ok(report)
}
