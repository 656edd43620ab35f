//! The ratings' routes (docs/api.md, "Ratings"): a player's ratings with their history and
//! accuracy, a category's leaderboard, and the fair-play check the analysis routes make.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

use super::refusal::category_named;
use super::PROVISIONAL_DEVIATION;
use crate::accounts::user_named;
use crate::api::Shared;
use crate::error::ApiError;
use crate::games::{GameError, Who};
use crate::identity::Caller;
use crate::ratings::api::{
    AccuracyTrend, CategoryRating, HistoryPoint, Leaderboard, LeaderboardLine, UserRatings,
};
use crate::store::RatingChange;

/// How far back a leaderboard looks: a player who has not played a rated game in the
/// category for 30 days leaves it.
pub const ACTIVE_MS: i64 = 30 * 24 * 3600 * 1000;

/// A leaderboard's length.
pub const LEADERS: i64 = 100;

/// The rated games a profile's accuracy is averaged over (the newest), and the newest of
/// those its trend compares with the average.
pub const ACCURACY_GAMES: usize = 50;
pub const RECENT_GAMES: usize = 10;

pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/users/{name}/ratings", get(user_ratings))
        .route("/api/leaderboard/{category}", get(leaderboard))
}

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the ratings' database", e)
}

async fn user_ratings(
    State(shared): State<Shared>,
    caller: Caller,
    Path(name): Path<String>,
) -> Result<Json<UserRatings>, ApiError> {
    // Scoring the games' accuracy replays up to 50 games a category: limited as analysis is.
    shared
        .analysis_limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let user = user_named(&shared.games.store, &name).await?;
    Ok(Json(UserRatings {
        ratings: ratings_of(&shared, user.id).await?,
        username: user.username,
    }))
}

/// Account `id`'s ratings, each with its history and the player's accuracy (a profile's,
/// and the account's export).
pub(crate) async fn ratings_of(shared: &Shared, id: i64) -> Result<Vec<CategoryRating>, ApiError> {
    let store = &shared.games.store;
    let entries = store.ratings_of(id).await.map_err(storage)?;
    let history = store.rating_history(id).await.map_err(storage)?;
    let mut ratings = Vec::new();
    for (category, entry) in entries {
        let changes: Vec<RatingChange> = history
            .iter()
            .filter(|c| c.category == category)
            .cloned()
            .collect();
        let accuracy = accuracy_of(shared, &changes).await?;
        ratings.push(CategoryRating {
            rating: entry.rating.rating,
            deviation: entry.rating.deviation,
            volatility: entry.rating.volatility,
            provisional: entry.rating.provisional(),
            games: entry.games,
            last_ms: entry.last_ms,
            history: changes
                .iter()
                .map(|c| HistoryPoint {
                    game: c.game.clone(),
                    at_ms: c.at_ms,
                    rating: c.after.rating,
                    deviation: c.after.deviation,
                })
                .collect(),
            category,
            accuracy,
        });
    }
    Ok(ratings)
}

/// A player's accuracy over their newest rated games of one category (`changes`, oldest
/// first: one per game, the player's side in it): `None` if no game of them can be scored.
async fn accuracy_of(
    shared: &Shared,
    changes: &[RatingChange],
) -> Result<Option<AccuracyTrend>, ApiError> {
    let newest = changes.iter().rev().take(ACCURACY_GAMES);
    let mut shares = Vec::new();
    for change in newest {
        let side = change.side;
        let read = shared
            .games
            .read(&change.game, &Who::Server, move |live, _| {
                live.accuracy().and_then(|a| match side {
                    lgame::Color::Red => a.red.accuracy,
                    lgame::Color::Blue => a.blue.accuracy,
                })
            })
            .await;
        if let Ok((_, Some(share))) = read {
            shares.push(share);
        }
    }
    if shares.is_empty() {
        return Ok(None);
    }
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    Ok(Some(AccuracyTrend {
        games: shares.len(),
        average: mean(&shares),
        recent: mean(&shares[..shares.len().min(RECENT_GAMES)]),
    }))
}

async fn leaderboard(
    State(shared): State<Shared>,
    Path(category): Path<String>,
) -> Result<Json<Leaderboard>, ApiError> {
    let category = category_named(&category)?;
    let games = shared.games.clone();
    let since = shared.games.time.now_ms() - ACTIVE_MS;
    let list = |established| {
        games
            .store
            .leaderboard(category, PROVISIONAL_DEVIATION, since, LEADERS, established)
    };
    let leaders = list(true).await.map_err(storage)?;
    let provisional = list(false).await.map_err(storage)?;
    let lines = |leaders: Vec<_>| -> Vec<LeaderboardLine> {
        leaders
            .into_iter()
            .enumerate()
            .map(|(i, l): (usize, crate::store::Leader)| LeaderboardLine {
                rank: i + 1,
                username: l.username,
                rating: l.entry.rating.rating,
                deviation: l.entry.rating.deviation,
                games: l.entry.games,
            })
            .collect()
    };
    Ok(Json(Leaderboard {
        category: category.to_string(),
        players: lines(leaders),
        provisional: lines(provisional),
    }))
}
