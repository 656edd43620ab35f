//! The ratings' paths (docs/api.md, "Ratings"), described for the document as `openapi.rs`
//! describes the games'.

use crate::response::{ErrorBody, Leaderboard, UserRatings};

/// `GET /api/users/{name}/ratings`.
#[utoipa::path(get, path = "/api/users/{name}/ratings", tag = "ratings",
    summary = "A player's ratings, their history and accuracy",
    params(("name" = String, Path, description = "The username, in any case")),
    responses(
        (status = 200, description = "Each category the player has played rated: the rating, its deviation, its history and the player's accuracy", body = UserRatings),
        (status = 404, description = "No player has this name (`no_user`)", body = ErrorBody),
        (status = 429, description = "Too many analysis, classes and ratings requests from this address (`Retry-After`): each scores games against the solved table", body = ErrorBody),
    ))]
pub fn user_ratings() {}

/// `GET /api/leaderboard/{category}`.
#[utoipa::path(get, path = "/api/leaderboard/{category}", tag = "ratings",
    summary = "A category's leaderboard",
    params(("category" = String, Path, description = "A rating category: bullet, blitz, rapid, classical, correspondence, misere, sudden-death, neutral-required, one-neutral, symmetry, scoring")),
    responses(
        (status = 200, description = "The best 100 players not provisional who played rated in the category in the last 30 days", body = Leaderboard),
        (status = 404, description = "No such category (`no_category`)", body = ErrorBody),
    ))]
pub fn leaderboard() {}
