//! A game with its seats: each side a person or a computer player. What every interface
//! that plays (the terminal, the web server) needs: whose turn it is, the computer's reply,
//! and undo that takes a person back to their own last turn.
//!
//! ```
//! use std::sync::Arc;
//! use lgame::{Game, Rules};
//! use lgame_players::seated::{Seat, SeatedGame};
//! use lgame_players::Tablebases;
//!
//! let seats = ["human".parse()?, "perfect".parse()?];
//! let mut table = SeatedGame::new(Game::new(Rules::classic()), seats, 1, Arc::new(Tablebases::default()));
//! assert!(table.waiting_for_human());
//! let mv = table.game().position().legal_moves()[0];
//! table.play_human(&mv)?;
//! let reply = table.play_computer().expect("the computer answers");
//! assert_eq!(table.game().plies().len(), 2);
//! table.undo();
//! assert_eq!(table.game().plies().len(), 0, "back to the person's own turn");
//! # let _ = reply;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use lgame::game::{GameError, GameResult, ResultToken, Termination};
use lgame::{Color, Game, Move, Position, Record};

use crate::external::{External, Failure};
use crate::{BuiltIn, ParseSpecError, Player, PlayerName, PlayerSpec, Tablebases};

/// How long an engine at the table has to start and get ready, and to choose each move.
const ENGINE_READY: Duration = Duration::from_secs(60);
const ENGINE_MOVE: Duration = Duration::from_secs(1);

/// Who plays one side: read from a [`PlayerName`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A person.
    Human,
    /// A built-in computer player.
    Computer(PlayerSpec),
    /// A program that speaks the engine protocol, run by `sh -c`.
    Engine(String),
}

impl Seat {
    /// Whether a person sits here.
    pub fn is_human(&self) -> bool {
        *self == Seat::Human
    }

    /// The player's name as it is read back: `human`, `perfect`, `beginner:40`, or the
    /// engine's command line (the form kept in a record's `Red` and `Blue` tags).
    pub fn name(&self) -> PlayerName {
        match self {
            Seat::Human => PlayerName::Human,
            Seat::Computer(spec) => PlayerName::BuiltIn(*spec),
            Seat::Engine(command) => PlayerName::Command(command.clone()),
        }
    }
}

impl From<PlayerName> for Seat {
    fn from(name: PlayerName) -> Seat {
        match name {
            PlayerName::Human => Seat::Human,
            PlayerName::BuiltIn(spec) => Seat::Computer(spec),
            PlayerName::Command(command) => Seat::Engine(command),
        }
    }
}

impl FromStr for Seat {
    type Err = ParseSpecError;

    /// Any [`PlayerName`]: `human`, `perfect`, `level:beginner:40`, a command line.
    fn from_str(text: &str) -> Result<Seat, ParseSpecError> {
        text.parse::<PlayerName>().map(Seat::from)
    }
}

impl fmt::Display for Seat {
    /// For people: `human`, `computer: perfect`, `engine: python3 engine.py`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(spec) => write!(f, "computer: {spec}"),
            Seat::Engine(command) => write!(f, "engine: {command}"),
        }
    }
}

/// A computer at the table: a built-in player, or an engine started on its first move.
enum Computer {
    BuiltIn(BuiltIn),
    Engine {
        command: String,
        running: Option<External>,
    },
}

impl Computer {
    /// Starts the engine, when it is one that has not started, and readies it for `game`.
    fn start(&mut self, game: &Game) -> Result<(), Failure> {
        if let Computer::Engine { command, running } = self {
            if running.is_none() {
                let mut engine = External::start(command, ENGINE_READY)?;
                engine.new_game_with(game.rules(), game.draw_rules(), ENGINE_READY)?;
                *running = Some(engine);
            }
        }
        Ok(())
    }

    /// A legal move, or why there is none: a built-in player always has one.
    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        self.start(game).map_err(|e| e.to_string())?;
        let mv = match self {
            Computer::BuiltIn(player) => {
                return player.choose_move(game).ok_or_else(|| "no move".into())
            }
            Computer::Engine { running, .. } => running
                .as_mut()
                .expect("started")
                .choose_move(game, ENGINE_MOVE)?,
        };
        game.position()
            .check_move(&mv)
            .map_err(|e| format!("illegal move '{mv}': {e}"))?;
        Ok(mv)
    }
}

/// A game and who sits on each side.
pub struct SeatedGame {
    game: Game,
    seats: [Seat; 2],
    players: [Option<Computer>; 2],
    forfeit: Option<String>,
}

impl SeatedGame {
    /// Seats Red and Blue at a game; computer players choose with random numbers from
    /// `seed` and probe `tablebases`. An engine starts when it is first asked for a move
    /// (or by [`SeatedGame::start_engines`]).
    pub fn new(game: Game, seats: [Seat; 2], seed: u64, tablebases: Arc<Tablebases>) -> SeatedGame {
        let players = [0, 1].map(|i| match &seats[i] {
            Seat::Human => None,
            Seat::Computer(spec) => {
                let mut player =
                    BuiltIn::new(*spec, seed.wrapping_add(i as u64), tablebases.clone());
                player.prepare(game.rules());
                Some(Computer::BuiltIn(player))
            }
            Seat::Engine(command) => Some(Computer::Engine {
                command: command.clone(),
                running: None,
            }),
        });
        SeatedGame {
            game,
            seats,
            players,
            forfeit: None,
        }
    }

    /// Starts every engine at the table and waits until each is ready for the game.
    ///
    /// # Errors
    /// The side of the first engine that cannot start, and why.
    pub fn start_engines(&mut self) -> Result<(), (Color, Failure)> {
        for (color, player) in Color::ALL.into_iter().zip(&mut self.players) {
            if let Some(player) = player {
                player.start(&self.game).map_err(|e| (color, e))?;
            }
        }
        Ok(())
    }

    /// Why a computer forfeited the game, when one did (an engine that crashed, answered
    /// late or played an illegal move).
    pub fn forfeit(&self) -> Option<&str> {
        self.forfeit.as_deref()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, to declare an end off the board (resignation, agreement).
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Who sits on `color`'s side.
    pub fn seat(&self, color: Color) -> &Seat {
        &self.seats[color as usize]
    }

    /// Whether the game goes on and a person is to move.
    pub fn waiting_for_human(&self) -> bool {
        !self.game.is_over() && self.person_to_move()
    }

    /// Whether the game goes on and a computer is to move.
    pub fn computer_to_move(&self) -> bool {
        !self.game.is_over() && !self.waiting_for_human()
    }

    /// The computer's move, played, when a computer is to move. A computer that has no
    /// legal move to give (an engine that fails) forfeits: the game is over, won by the
    /// other side, and [`SeatedGame::forfeit`] says why.
    pub fn play_computer(&mut self) -> Option<Move> {
        if !self.computer_to_move() {
            return None;
        }
        let turn = self.game.position().turn();
        let player = self.players[turn as usize].as_mut()?;
        match player.choose(&self.game) {
            Ok(mv) => {
                self.game.play(&mv).expect("the move was checked");
                Some(mv)
            }
            Err(reason) => {
                let win = ResultToken::Finished(GameResult::win_for(!turn));
                self.game
                    .declare(Termination::Forfeit, win)
                    .expect("the game was not over");
                self.forfeit = Some(reason);
                None
            }
        }
    }

    /// A person's move, checked by the rules.
    ///
    /// # Errors
    /// The game's [`GameError`]: over, or the move's illegality with its reason.
    pub fn play_human(&mut self, mv: &Move) -> Result<&Position, GameError> {
        self.game.play(mv)
    }

    fn person_to_move(&self) -> bool {
        self.seat(self.game.position().turn()).is_human()
    }

    /// Takes back moves until a person is to move again (at least one move, when there is
    /// one); with no person at the table, one move. Returns how many were taken back.
    pub fn undo(&mut self) -> usize {
        self.step_to_person(Game::undo)
    }

    /// Replays what [`SeatedGame::undo`] took back, up to the next person's turn. Returns
    /// how many moves were replayed.
    pub fn redo(&mut self) -> usize {
        self.step_to_person(Game::redo)
    }

    /// Steps through the game (undo or redo) until a person is to move, or one step when no
    /// person is at the table.
    fn step_to_person(&mut self, step: fn(&mut Game) -> Option<Move>) -> usize {
        let nobody = !self.seats.iter().any(Seat::is_human);
        let mut steps = 0;
        while step(&mut self.game).is_some() {
            steps += 1;
            if nobody || self.person_to_move() {
                break;
            }
        }
        steps
    }

    /// The game's record, with the players' names as the `Red` and `Blue` tags (read back
    /// by [`Seat`]'s `FromStr`), and a forfeit's reason as its comment.
    pub fn record(&self) -> Record {
        let mut record = Record::from_game(&self.game);
        record.set_tag("Red", self.seats[0].name().to_string());
        record.set_tag("Blue", self.seats[1].name().to_string());
        if let Some(reason) = &self.forfeit {
            // A forfeit ends the game on the forfeiting side's turn.
            let side = self.game.position().turn();
            record.comment = Some(format!("{side} ({}) forfeits: {reason}", self.seat(side)));
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lgame::Rules;

    fn table(red: &str, blue: &str) -> SeatedGame {
        SeatedGame::new(
            Game::new(Rules::classic()),
            [red.parse().unwrap(), blue.parse().unwrap()],
            3,
            Arc::new(Tablebases::default()),
        )
    }

    #[test]
    fn seats_read_human_or_a_level() {
        assert_eq!("Human".parse::<Seat>().unwrap(), Seat::Human);
        assert_eq!(
            "beginner:40".parse::<Seat>().unwrap().to_string(),
            "computer: beginner:40"
        );
        assert_eq!(
            "level:perfect".parse::<Seat>().unwrap(),
            "perfect".parse::<Seat>().unwrap()
        );
        assert_eq!(
            "./engine --fast".parse::<Seat>().unwrap(),
            Seat::Engine("./engine --fast".into())
        );
        assert!("level:genius".parse::<Seat>().is_err());
    }

    #[test]
    fn an_engine_that_cannot_start_forfeits_and_the_other_side_wins() {
        let mut t = table("human", "/nonexistent/lgame-engine");
        assert!(t.start_engines().is_err());
        let mv = t.game().position().legal_moves()[0];
        t.play_human(&mv).unwrap();
        assert_eq!(t.play_computer(), None);
        assert!(t.game().is_over());
        assert_eq!(
            t.game().conclusion().and_then(|c| c.result),
            Some(GameResult::win_for(Color::Red))
        );
        let reason = t.forfeit().expect("a forfeit").to_string();
        assert!(reason.contains("/nonexistent/lgame-engine"), "{reason}");
        let record = t.record();
        assert_eq!(record.tag("Blue"), Some("/nonexistent/lgame-engine"));
        assert!(record
            .comment
            .as_deref()
            .unwrap()
            .starts_with("Blue (engine: /nonexistent/lgame-engine) forfeits"));
    }

    #[test]
    fn undo_against_the_computer_goes_back_to_the_persons_turn_and_redo_returns() {
        let mut t = table("human", "random");
        for _ in 0..3 {
            let mv = t.game().position().legal_moves()[0];
            t.play_human(&mv).unwrap();
            t.play_computer().unwrap();
        }
        assert_eq!(t.game().plies().len(), 6);
        assert_eq!(t.undo(), 2);
        assert_eq!(t.game().plies().len(), 4);
        assert!(t.waiting_for_human());
        assert_eq!(t.redo(), 2);
        assert_eq!(t.game().plies().len(), 6);
    }

    #[test]
    fn two_people_undo_one_move_at_a_time() {
        let mut t = table("human", "human");
        for _ in 0..2 {
            let mv = t.game().position().legal_moves()[0];
            t.play_human(&mv).unwrap();
        }
        assert_eq!(t.undo(), 1);
        assert_eq!(t.game().plies().len(), 1);
    }

    #[test]
    fn the_computer_only_moves_on_its_own_turn() {
        let mut t = table("human", "perfect");
        assert_eq!(t.play_computer(), None);
        let mut t = table("perfect", "perfect");
        assert!(t.play_computer().is_some());
        assert!(t.play_computer().is_some());
        assert_eq!(t.record().tag("Red"), Some("perfect"));
    }
}
