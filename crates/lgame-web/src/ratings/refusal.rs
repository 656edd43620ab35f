//! Why the ratings refuse a request, and fair play's one check of the analysis: what
//! happened, in words, never an HTTP status (which `error.rs` chooses).

use std::fmt;
use std::sync::Arc;

use lgame::Position;

use super::categories;
use crate::games::{GameError, Games, Who};
use crate::store::Holder;

/// Why the ratings refuse a request.
#[derive(Debug)]
pub enum RatingsError {
    /// No rating category has this name (the client's text, cut to 40 characters).
    NoCategory(String),
    /// Analysis of a position of a rated game the caller is playing.
    RatedGame,
    /// The database's failure.
    Game(GameError),
}

impl fmt::Display for RatingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingsError::NoCategory(shown) => {
                let known = categories().collect::<Vec<_>>().join(", ");
                write!(f, "no rating category '{shown}': {known}")
            }
            RatingsError::RatedGame => {
                f.write_str("no analysis of a rated game you are playing: ask again after it ends")
            }
            RatingsError::Game(e) => e.fmt(f),
        }
    }
}

impl From<GameError> for RatingsError {
    fn from(e: GameError) -> RatingsError {
        RatingsError::Game(e)
    }
}

/// The category named `text`.
pub fn category_named(text: &str) -> Result<&'static str, RatingsError> {
    categories()
        .find(|c| *c == text)
        .ok_or_else(|| RatingsError::NoCategory(text.chars().take(40).collect()))
}

/// Fair play: refuses to analyse `position` for `holder` while it plays a rated game that
/// has reached it. A game it plays that cannot be read is passed over: the check refuses
/// help, it never fails a question of its own.
pub async fn refuse_own_rated_game(
    games: &Arc<Games>,
    holder: Option<Holder>,
    position: &Position,
) -> Result<(), RatingsError> {
    let Some(holder) = holder else {
        return Ok(());
    };
    let playing = games
        .store
        .rated_games_playing(&holder)
        .await
        .map_err(|e| GameError::storage("the ratings' database", e))?;
    let wanted = *position;
    for id in playing {
        let read = games
            .read(&id, &Who::Server, move |live, _| {
                live.goes_on_through(&wanted)
            })
            .await;
        if let Ok((_, true)) = read {
            return Err(RatingsError::RatedGame);
        }
    }
    Ok(())
}
