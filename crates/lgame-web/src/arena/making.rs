//! Making an arena and taking part in one: what the arena feature decides, refusing with an
//! [`ArenaError`] (the status that answers it is `error.rs`' choice). The paths that call
//! these are in `routes.rs`.

use std::fmt;

use super::{storage, MINUTES};
use super::{ArenaData, ArenaRow};
use crate::clock::TimeControl;
use crate::games::{self, GameError, Games, Input};
use crate::secret::random_hex;

/// How far ahead an arena may be set to start: 30 days.
pub const AHEAD_MS: i64 = 30 * 24 * 3600 * 1000;

/// What a creator asks of a new arena.
pub struct ArenaTerms {
    /// The variant's catalog name (`None`: classic).
    pub variant: Option<String>,
    pub clock: TimeControl,
    pub minutes: i64,
    pub rated: bool,
    /// When it starts (`None`: now).
    pub starts_at: Option<i64>,
}

/// Why the arenas refuse a request.
#[derive(Debug)]
pub enum ArenaError {
    /// A browser without an account: only accounts play in arenas.
    AccountOnly,
    /// A rated arena of a variant (or control) that is not rated.
    NotRated { variant: String },
    /// No arena has this id (the client's text).
    NoArena(String),
    /// The arena's time is up: nobody joins or leaves it.
    Finished,
    /// The games' refusal (a variant, a clock, a length) or the database's failure.
    Game(GameError),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::AccountOnly => f.write_str("only an account plays in arenas: log in first"),
            ArenaError::NotRated { variant } => write!(
                f,
                "'{variant}' at this control is not rated: make a casual arena"
            ),
            ArenaError::NoArena(id) => write!(f, "no arena '{id}'"),
            ArenaError::Finished => {
                f.write_str("the arena's time is up: nobody joins or leaves it now")
            }
            ArenaError::Game(e) => e.fmt(f),
        }
    }
}

impl From<GameError> for ArenaError {
    fn from(e: GameError) -> ArenaError {
        ArenaError::Game(e)
    }
}

/// The arena `terms` ask for, made by account `creator` at `now_ms`: checked, not stored.
pub fn plan(terms: ArenaTerms, creator: i64, now_ms: i64) -> Result<ArenaRow, ArenaError> {
    let invalid = |what, message| ArenaError::Game(GameError::invalid(what, message));
    let variant = terms.variant.unwrap_or_else(|| "classic".into());
    let rules = games::parse_rules(&variant)?;
    let clock = terms
        .clock
        .check()
        .map_err(|message| invalid(Input::Clock, message))?;
    if !MINUTES.contains(&terms.minutes) {
        let message = format!(
            "minutes {}: an arena lasts {} to {} minutes",
            terms.minutes,
            MINUTES.start(),
            MINUTES.end()
        );
        return Err(invalid(Input::Other, message));
    }
    let category = crate::ratings::category(&rules, Some(clock));
    if terms.rated && category.is_none() {
        return Err(ArenaError::NotRated { variant });
    }
    let starts_at = terms.starts_at.unwrap_or(now_ms).max(now_ms);
    if starts_at > now_ms + AHEAD_MS {
        let message = "starts_at: an arena starts within 30 days".to_string();
        return Err(invalid(Input::Other, message));
    }
    Ok(ArenaRow {
        id: random_hex(8).map_err(GameError::from)?,
        variant,
        clock,
        minutes: terms.minutes,
        category: category.filter(|_| terms.rated).map(str::to_string),
        starts_at,
        ends_at: starts_at + terms.minutes * 60_000,
        creator: Some(creator),
        creator_name: None,
        created_ms: now_ms,
        players: 0,
        unfinished: 0,
    })
}

/// Stores a planned arena, and reads it back as stored.
pub async fn open(games: &Games, row: &ArenaRow) -> Result<ArenaData, ArenaError> {
    games.store.insert_arena(row).await.map_err(storage)?;
    tracing::info!(arena = %row.id, "arena made");
    read(games, &row.id).await
}

/// Arena `id` as stored now.
pub async fn read(games: &Games, id: &str) -> Result<ArenaData, ArenaError> {
    let now = games.time.now_ms();
    let data = games.store.arena(id, now).await.map_err(storage)?;
    data.ok_or_else(|| ArenaError::NoArena(id.to_string()))
}

/// Account `user` joins (`joining`) or leaves arena `id` while it is open: the arena after.
pub async fn take_part(
    games: &Games,
    user: i64,
    id: &str,
    joining: bool,
) -> Result<ArenaData, ArenaError> {
    let data = read(games, id).await?;
    let now = games.time.now_ms();
    if now >= data.arena.ends_at {
        return Err(ArenaError::Finished);
    }
    match joining {
        true => games.store.join_arena(id, user, now).await,
        false => games.store.leave_arena(id, user, now).await.map(drop),
    }
    .map_err(storage)?;
    read(games, id).await
}
