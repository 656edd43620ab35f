//! Why the games refuse a request: what happened, in words and as data, never an HTTP
//! status (which `error.rs` chooses).

use std::fmt;

use lgame::game::Conclusion;
use lgame::moves::IllegalMove;
use lgame::Color;

use super::view::GameState;
use crate::store::{StoreError, Trouble};

/// Why a request about a game or a position is refused: what happened, not how HTTP says
/// it.
#[derive(Debug)]
#[non_exhaustive]
pub enum GameError {
    /// Text the libraries cannot read (a variant, setup, seat, position, move or record),
    /// or a request for what cannot be.
    Invalid {
        /// What the text was meant to be.
        what: Input,
        /// The client's text that was refused (shortened), when there is one.
        input: Option<String>,
        /// The refusal in words: the text quoted and the library's reason.
        message: String,
    },
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
        /// The move, in notation.
        input: String,
        /// The move, where, and the rules' reason, in words.
        message: String,
        /// The rules' reason.
        reason: IllegalMove,
    },
    /// A variant whose table is larger than this server solves or keeps.
    TooLarge(String),
    /// A request read but not served: a move that cannot be played for a reason other than
    /// the rules', a request of the wrong shape.
    Unservable(String),
    /// The game in memory is behind the database: another server instance changed it
    /// first. Nothing was changed; the game is reloaded and the request tried again.
    Outdated,
    /// The database cannot take the request now (it cannot be reached, its disk is full,
    /// its file is read-only): what was being done, and why. Nothing was changed; the
    /// request may be sent again.
    Unavailable(&'static str, Trouble),
    /// The database or the machine failed.
    Internal {
        /// What was being done.
        what: &'static str,
        /// What failed.
        error: String,
    },
}

/// What a refused text was meant to be: the API gives it as the refusal's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Input {
    /// Rules (`variant`).
    Variant,
    /// A starting setup.
    Setup,
    /// A position (or a record's start).
    Position,
    /// A cell's name.
    Cell,
    /// A move (or a record's ply, a highlight).
    Move,
    /// A game record.
    Record,
    /// A seat: human or a computer level.
    Player,
    /// A value: win, draw or loss.
    Value,
    /// A turn limit above the server's cap.
    TurnLimit,
    /// A game longer than the server's cap.
    GameLength,
    /// A time control out of bounds.
    Clock,
    /// Another request for what cannot be (a QR text too long).
    Other,
}

impl Input {
    /// The refusal's kind in the API (docs/api.md, "Refusals").
    pub fn kind(self) -> &'static str {
        match self {
            Input::Variant => "bad_variant",
            Input::Setup => "bad_setup",
            Input::Position => "bad_position",
            Input::Cell => "bad_cell",
            Input::Move => "bad_move",
            Input::Record => "bad_record",
            Input::Player => "bad_player",
            Input::Value => "bad_value",
            Input::TurnLimit => "turn_limit_too_long",
            Input::GameLength => "game_too_long",
            Input::Clock => "bad_clock",
            Input::Other => "invalid",
        }
    }
}

impl GameError {
    /// A refusal of the client's text `input`, meant to be `what`, with the message that
    /// quotes it.
    pub fn unreadable(what: Input, input: &str, message: String) -> GameError {
        GameError::Invalid {
            what,
            input: Some(input.to_string()),
            message,
        }
    }

    /// A request for what cannot be, with no one text of the client's to blame.
    pub fn invalid(what: Input, message: String) -> GameError {
        GameError::Invalid {
            what,
            input: None,
            message,
        }
    }

    /// The client's text the refusal is about, if any (the API's `input`).
    pub fn input(&self) -> Option<String> {
        match self {
            GameError::Invalid { input, .. } => input.clone(),
            GameError::Illegal { input, .. } => Some(input.clone()),
            GameError::NoGame(id) => Some(shown_id(id)),
            _ => None,
        }
    }

    /// A failure of the database while doing `what`: it could not be reached (then the
    /// request may be sent again), or it failed.
    pub fn storage(what: &'static str, error: StoreError) -> GameError {
        match error {
            StoreError::Stale => GameError::Outdated,
            StoreError::Unavailable(trouble, _) => GameError::Unavailable(what, trouble),
            StoreError::NotFound | StoreError::Other(_) => GameError::internal(what, error),
        }
    }

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
            GameError::Invalid { message, .. }
            | GameError::Illegal { message, .. }
            | GameError::TooLarge(message)
            | GameError::Unservable(message) => f.write_str(message),
            GameError::NoGame(id) => write!(f, "no game '{}'", shown_id(id)),
            GameError::NotASide => f.write_str(
                "you do not play a side of this game (no seat of yours, or a wrong token or invitation)",
            ),
            GameError::Conflict { why, .. } => why.fmt(f),
            GameError::Outdated => f.write_str(
                "the game changed on another server instance at the same time; try again",
            ),
            GameError::Unavailable(what, Trouble::Unreachable) => {
                write!(
                    f,
                    "{what}: the database cannot be reached; try again shortly"
                )
            }
            GameError::Unavailable(what, Trouble::Full) => write!(
                f,
                "{what}: the server's disk is full; nothing was changed, try again later"
            ),
            GameError::Unavailable(what, Trouble::ReadOnly) => write!(
                f,
                "{what}: the server's database is read-only; nothing was changed, try again later"
            ),
            GameError::Internal { what, error } => write!(f, "{what}: {error}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<getrandom::Error> for GameError {
    /// The operating system gave no random bytes (for a secret or an id).
    fn from(e: getrandom::Error) -> GameError {
        GameError::internal("random numbers", e)
    }
}

/// A game id as the client sent it, kept short whatever it sent.
fn shown_id(id: &str) -> String {
    id.chars().take(40).collect()
}

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
    /// The person has no move to take back.
    NothingToUndo,
    /// A request to take back stands already (between two people).
    UndoAsked(Color),
    /// No request to take back stands.
    NoUndoRequest,
    /// A side answers its own request to take back.
    OwnUndoRequest,
    /// The seat asked for is held by someone already (or is not a person's).
    SeatTaken(Color),
    /// The computer opponent does not judge the position drawn.
    DrawDeclined {
        /// The computer's side.
        side: Color,
        /// Its seat.
        seat: String,
    },
    /// A rematch is asked for before the game is over.
    NotOver,
    /// The side's token for the rematch was given already.
    RematchGiven(String),
    /// No draw offer of the other side stands.
    NoDrawOffer,
    /// A move made after the side's time ran out (the lag forgiven counted): the side
    /// loses on time once the grace has passed.
    OutOfTime(Color),
    /// The game has no clock (giving time, claiming an absent opponent's game).
    NoClock,
    /// A claim of an absent opponent's game while the opponent is here, has not been gone
    /// long enough, or it is not the opponent's turn.
    OpponentHere(Color),
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
            Conflict::NothingToUndo => f.write_str("there is no move of yours to take back"),
            Conflict::UndoAsked(side) => write!(
                f,
                "{side} asks to take back a move already: that request is answered first"
            ),
            Conflict::NoUndoRequest => f.write_str("no one asks to take back a move"),
            Conflict::OwnUndoRequest => f.write_str(
                "the request to take back is your own: the other side accepts or declines it",
            ),
            Conflict::DrawDeclined { side, seat } => write!(
                f,
                "{side} ({seat}) declines the draw: it does not judge the position drawn"
            ),
            Conflict::SeatTaken(side) => {
                write!(f, "{side}'s seat is taken: someone took it first")
            }
            Conflict::NotOver => f.write_str("a rematch is for a finished game: this one goes on"),
            Conflict::RematchGiven(id) => write!(
                f,
                "your side of the rematch {id} was given already (with its token)"
            ),
            Conflict::NoDrawOffer => f.write_str("the other side offers no draw"),
            Conflict::OutOfTime(side) => write!(f, "{side}'s time has run out"),
            Conflict::NoClock => f.write_str("the game has no clock"),
            Conflict::OpponentHere(side) => write!(
                f,
                "{side} has not left: a real-time game is claimed when the opponent has had \
                 no page open for {} s on their turn",
                crate::clock::GONE_MS / 1000
            ),
            Conflict::Refused(e) => e.fmt(f),
        }
    }
}
