//! Why the games refuse a request: what happened, in words and as data, never an HTTP
//! status (which `error.rs` chooses).

use std::fmt;

use lgame::game::Conclusion;
use lgame::moves::IllegalMove;
use lgame::Color;

use crate::response::GameState;

/// Why a request about a game or a position is refused: what happened, not how HTTP says
/// it.
#[derive(Debug)]
#[non_exhaustive]
pub enum GameError {
    /// Text the libraries cannot read (a variant, setup, seat, position, move or record:
    /// the message quotes it and gives the library's reason), or a request for what cannot
    /// be (a game between two computers).
    Invalid(String),
    /// No game has this id (the client's text).
    NoGame(String),
    /// The token plays no side of the game.
    NotASide,
    /// The game as it stands refuses the change.
    Conflict {
        /// Why.
        why: Conflict,
        /// The game's state now.
        state: Box<GameState>,
    },
    /// The rules refuse a move.
    Illegal {
        /// The move, where, and the rules' reason, in words.
        message: String,
        /// The rules' reason.
        reason: IllegalMove,
    },
    /// A request read but not served: a variant too large to solve, a move that cannot be
    /// played for a reason other than the rules', a request of the wrong shape.
    Unservable(String),
    /// The database or the machine failed.
    Internal {
        /// What was being done.
        what: &'static str,
        /// What failed.
        error: String,
    },
}

impl GameError {
    /// A failure of the database or the machine while doing `what`.
    pub fn internal(what: &'static str, error: impl fmt::Display) -> GameError {
        GameError::Internal {
            what,
            error: error.to_string(),
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Invalid(message)
            | GameError::Illegal { message, .. }
            | GameError::Unservable(message) => f.write_str(message),
            // The id is the client's own text; keep the message short whatever it sent.
            GameError::NoGame(id) => {
                write!(f, "no game '{}'", id.chars().take(40).collect::<String>())
            }
            GameError::NotASide => f.write_str("the token does not play a side of this game"),
            GameError::Conflict { why, .. } => why.fmt(f),
            GameError::Internal { what, error } => write!(f, "{what}: {error}"),
        }
    }
}

impl std::error::Error for GameError {}

/// Why a game refuses a change as it stands.
#[derive(Debug)]
#[non_exhaustive]
pub enum Conflict {
    /// The game is over.
    Over(Conclusion),
    /// A move for another ply than the next.
    Stale {
        /// The ply the move was for.
        ply: u64,
        /// The plies played.
        played: usize,
    },
    /// It is the other side's turn.
    NotYourTurn {
        /// Whose turn it is.
        turn: Color,
        /// The side of the token.
        side: Color,
    },
    /// Undo between two people (it would need the other's consent).
    UndoBetweenPeople,
    /// The person has no move to take back.
    NothingToUndo,
    /// The opponent is a computer, which accepts no draw.
    NoDraws {
        /// The computer's side.
        side: Color,
        /// Its seat.
        seat: String,
    },
    /// The game refuses it.
    Refused(lgame::game::GameError),
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::Over(end) => write!(f, "the game is over ({end})"),
            Conflict::Stale { ply, played } => write!(
                f,
                "stale move: it is for ply {ply}, but {played} plies are played and the next is {}",
                played + 1
            ),
            Conflict::NotYourTurn { turn, side } => write!(f, "it is {turn}'s turn, not {side}'s"),
            Conflict::UndoBetweenPeople => {
                f.write_str("undo is only for games against the computer")
            }
            Conflict::NothingToUndo => f.write_str("there is no move of yours to take back"),
            Conflict::NoDraws { side, seat } => write!(f, "{side} ({seat}) does not accept draws"),
            Conflict::Refused(e) => e.fmt(f),
        }
    }
}
