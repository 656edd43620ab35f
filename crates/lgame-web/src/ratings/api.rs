//! The ratings' HTTP types and paths (docs/api.md, "Ratings"): the answers, and the paths
//! described for the OpenAPI document (`openapi.rs`). The handlers are in `routes.rs`.

use serde::Serialize;
use utoipa::ToSchema;

use crate::response::ErrorBody;

/// `GET /api/users/{name}/ratings`: a player's rating in each category they have played
/// rated.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserRatings {
    pub username: String,
    pub ratings: Vec<CategoryRating>,
}

/// A player's rating in one category, its history and their accuracy.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryRating {
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Shown with "?": the deviation is 110 or more.
    pub provisional: bool,
    /// The rated games that made it.
    pub games: u32,
    /// When the last ended (Unix milliseconds).
    pub last_ms: i64,
    /// The rating after each rated game, oldest first.
    pub history: Vec<HistoryPoint>,
    /// Their moves' accuracy against the solved game in these games (`null`: none could be
    /// scored).
    #[schema(required)]
    pub accuracy: Option<AccuracyTrend>,
}

/// A rating after one rated game.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryPoint {
    pub game: String,
    /// When the game ended (Unix milliseconds).
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// A player's accuracy over their newest rated games of a category (up to 50): the mean
/// share of their scored moves that kept the position's value, and the same over the newest
/// ten (above the average: improving).
#[derive(Debug, Serialize, ToSchema)]
pub struct AccuracyTrend {
    pub games: usize,
    pub average: f64,
    pub recent: f64,
}

/// `GET /api/leaderboard/{category}`: the best 100 established players who played rated
/// in the category in the last 30 days.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    pub category: String,
    /// The established players (deviation under 110), ranked.
    pub players: Vec<LeaderboardLine>,
    /// The players whose rating is still provisional (too few games to rank them), best
    /// first, each `rank` its place among them.
    pub provisional: Vec<LeaderboardLine>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardLine {
    pub rank: usize,
    pub username: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
}

/// `GET /api/users/{name}/ratings`.
#[utoipa::path(get, path = "/api/users/{name}/ratings", tag = "ratings",
    summary = "A player's ratings, their history and accuracy",
    params(("name" = String, Path, description = "The username, in any case")),
    responses(
        (status = 200, description = "Each category the player has played rated: the rating, its deviation, its history and the player's accuracy", body = UserRatings),
        (status = 404, description = "No player has this name (`no_user`)", body = ErrorBody),
        (status = 429, description = "Too many analysis, classes and ratings requests from this address (`Retry-After`): each scores games against the solved table", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn user_ratings() {}

/// `GET /api/leaderboard/{category}`.
#[utoipa::path(get, path = "/api/leaderboard/{category}", tag = "ratings",
    summary = "A category's leaderboard",
    params(("category" = String, Path, description = "A rating category: bullet, blitz, rapid, classical, correspondence, misere, sudden-death, neutral-required, one-neutral, symmetry, scoring")),
    responses(
        (status = 200, description = "The best 100 players not provisional who played rated in the category in the last 30 days", body = Leaderboard),
        (status = 404, description = "No such category (`no_category`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn leaderboard() {}
