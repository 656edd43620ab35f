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

use lgame::{Color, Game, GameError, Move, Position, Record};

use crate::{BuiltIn, ParseSpecError, Player, PlayerSpec, Tablebases};

/// Who plays one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// A person.
    Human,
    /// A built-in computer player.
    Computer(PlayerSpec),
}

impl FromStr for Seat {
    type Err = ParseSpecError;

    /// `human`, or a level with an optional strength: `perfect`, `beginner:40`.
    fn from_str(text: &str) -> Result<Seat, ParseSpecError> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Seat::Human)
        } else {
            text.parse().map(Seat::Computer)
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(spec) => write!(f, "computer: {spec}"),
        }
    }
}

/// A game and who sits on each side.
pub struct SeatedGame {
    game: Game,
    seats: [Seat; 2],
    players: [Option<BuiltIn>; 2],
}

impl SeatedGame {
    /// Seats Red and Blue at a game; computer players choose with random numbers from
    /// `seed` and probe `tablebases`.
    pub fn new(game: Game, seats: [Seat; 2], seed: u64, tablebases: Arc<Tablebases>) -> SeatedGame {
        let players = [0, 1].map(|i| match seats[i] {
            Seat::Human => None,
            Seat::Computer(spec) => {
                let mut player =
                    BuiltIn::new(spec, seed.wrapping_add(i as u64), tablebases.clone());
                player.prepare(game.rules());
                Some(player)
            }
        });
        SeatedGame {
            game,
            seats,
            players,
        }
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
    pub fn seat(&self, color: Color) -> Seat {
        self.seats[color as usize]
    }

    /// Whether the game goes on and a person is to move.
    pub fn waiting_for_human(&self) -> bool {
        !self.game.is_over() && self.seat(self.game.position().turn()) == Seat::Human
    }

    /// Whether the game goes on and a computer is to move.
    pub fn computer_to_move(&self) -> bool {
        !self.game.is_over() && !self.waiting_for_human()
    }

    /// The computer's move, played, when a computer is to move.
    pub fn play_computer(&mut self) -> Option<Move> {
        if !self.computer_to_move() {
            return None;
        }
        let turn = self.game.position().turn();
        let player = self.players[turn as usize].as_mut()?;
        let mv = player.choose_move(&self.game)?;
        self.game.play(&mv).ok()?;
        Some(mv)
    }

    /// A person's move, checked by the rules.
    ///
    /// # Errors
    /// The game's [`GameError`]: over, or the move's illegality with its reason.
    pub fn play_human(&mut self, mv: &Move) -> Result<&Position, GameError> {
        self.game.play(mv)
    }

    fn person_to_move(&self) -> bool {
        self.seat(self.game.position().turn()) == Seat::Human
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
        let nobody = self.seats.iter().all(|s| *s != Seat::Human);
        let mut steps = 0;
        while step(&mut self.game).is_some() {
            steps += 1;
            if nobody || self.person_to_move() {
                break;
            }
        }
        steps
    }

    /// The game's record, with the seats as the `Red` and `Blue` tags.
    pub fn record(&self) -> Record {
        let mut record = Record::from_game(&self.game);
        record.set_tag("Red", self.seats[0].to_string());
        record.set_tag("Blue", self.seats[1].to_string());
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
        assert!("genius".parse::<Seat>().is_err());
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
        assert_eq!(t.record().tag("Red"), Some("computer: perfect"));
    }
}
