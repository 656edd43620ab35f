//! Why the lobby refuses a request: what happened, in words, never an HTTP status (which
//! `error.rs` chooses, beside the games' refusals).

use std::fmt;

use super::SeekKind;
use crate::fairplay::FairPlayError;
use crate::games::GameError;

/// Why the lobby refuses a seek, a ticket, or taking or withdrawing one.
#[derive(Debug)]
#[non_exhaustive]
pub enum LobbyError {
    /// A browser without an account asks for a rated game: seeking one, or taking a rated
    /// seek (`taking`).
    AccountOnly { taking: bool },
    /// A rated seek of a variant (or control) that is not rated.
    NotRated { variant: String },
    /// The holder has as many open seeks (or tickets) as it may.
    TooMany {
        kind: SeekKind,
        /// A browser without an account (counted with its address).
        anonymous: bool,
        limit: i64,
    },
    /// No seek has this id (the client's text).
    NoSeek(String),
    /// No ticket is this secret.
    NoTicket,
    /// The seek was withdrawn, or its page closed.
    SeekGone,
    /// The ticket was withdrawn, or its page closed.
    TicketGone,
    /// Someone else took the seek first.
    TakenFirst,
    /// The seek to withdraw was taken: its game goes on.
    Taken,
    /// The ticket to withdraw was paired: its game goes on.
    Paired,
    /// The taker holds the seek.
    OwnSeek,
    /// Someone other than the seeker withdraws a seek.
    NotYourSeek,
    /// The taker's rating is outside the range the seeker wants.
    OutOfRange { min: i64, max: i64, rating: i64 },
    /// Fair play's refusal: two accounts of one browser in a rated game (`fairplay.rs`).
    FairPlay(FairPlayError),
    /// The games' refusal (a variant, a clock) or the database's failure.
    Game(GameError),
}

impl fmt::Display for LobbyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LobbyError::AccountOnly { taking: false } => {
                f.write_str("only an account plays rated games: log in, or seek a casual game")
            }
            LobbyError::AccountOnly { taking: true } => {
                f.write_str("only an account plays rated games: log in to take this seek")
            }
            LobbyError::NotRated { variant } => {
                write!(f, "'{variant}' is not rated: seek a casual game")
            }
            LobbyError::TooMany {
                kind,
                anonymous,
                limit,
            } => {
                let whose = if *anonymous {
                    "this browser or this address"
                } else {
                    "an account"
                };
                let kind = kind.name();
                write!(
                    f,
                    "{whose} may have at most {limit} open {kind}s: withdraw one first"
                )
            }
            LobbyError::NoSeek(id) => write!(f, "no seek '{id}'"),
            LobbyError::NoTicket => f.write_str("no such ticket"),
            LobbyError::SeekGone => f.write_str("the seek is gone: withdrawn, or its page closed"),
            LobbyError::TicketGone => {
                f.write_str("the ticket is gone: withdrawn, or its page closed")
            }
            LobbyError::TakenFirst => f.write_str("someone else took the seek first"),
            LobbyError::Taken => f.write_str("the seek was taken: its game goes on"),
            LobbyError::Paired => f.write_str("already paired: the game goes on"),
            LobbyError::OwnSeek => f.write_str("this is your own seek: withdraw it instead"),
            LobbyError::NotYourSeek => {
                f.write_str("only its seeker withdraws a seek (its cookies or its token)")
            }
            LobbyError::OutOfRange { min, max, rating } => write!(
                f,
                "the seeker wants an opponent rated {min} to {max}; you are rated {rating}"
            ),
            LobbyError::FairPlay(e) => e.fmt(f),
            LobbyError::Game(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LobbyError {}

impl From<GameError> for LobbyError {
    fn from(e: GameError) -> LobbyError {
        LobbyError::Game(e)
    }
}

impl From<FairPlayError> for LobbyError {
    fn from(e: FairPlayError) -> LobbyError {
        LobbyError::FairPlay(e)
    }
}

impl From<getrandom::Error> for LobbyError {
    /// No random bytes for a secret or an id: the server's failure.
    fn from(e: getrandom::Error) -> LobbyError {
        GameError::from(e).into()
    }
}
