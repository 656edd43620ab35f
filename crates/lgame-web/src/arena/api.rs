//! The arenas' HTTP types and paths (docs/api.md, "Arenas"): the body read, the answers,
//! and the paths described for the OpenAPI document (`openapi.rs`). The handlers are in
//! `routes.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::clock::TimeControl;
use crate::openapi as schema;
use crate::openapi::BodyRefusals;
use crate::response::ErrorBody;

/// `POST /api/arenas`: an arena tournament.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "clock": { "initial_s": 180, "increment_s": 2 }, "minutes": 30, "rated": true }))]
pub struct ArenaRequest {
    /// The variant's catalog name (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// Every game's time control, as a seek's.
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    /// How long pairing goes on: 10 to 180.
    pub minutes: i64,
    /// Rated (a rated variant and control: docs/ratings.md) or casual (the default).
    #[serde(default)]
    pub rated: bool,
    /// When it starts (the server's time, in milliseconds; default now, and never before).
    #[serde(default)]
    pub starts_at: Option<i64>,
}

/// An arena tournament, as `GET /api/arenas` lists it (docs/api.md, "Arenas").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaSummary {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    /// How long pairing goes on.
    pub minutes: i64,
    pub rated: bool,
    /// A rated arena's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// When pairing starts and ends (the server's time, in milliseconds).
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running` (until its end, and after it while a game of it goes on) or
    /// `finished`.
    pub state: String,
    /// How many joined.
    pub players: i64,
    /// Who made it (a username; `null` once their account is closed).
    #[schema(required)]
    pub creator: Option<String>,
}

/// The answer to `GET /api/arenas`: those not yet over first, soonest first, then the
/// finished, the latest first; at most 50.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArenaList {
    pub arenas: Vec<ArenaSummary>,
}

/// A player's line in an arena's standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaStanding {
    /// 1 for the best.
    pub rank: usize,
    pub username: String,
    pub score: u32,
    /// On a streak: their last two games won, so their next game's points double.
    pub fire: bool,
    /// The points of each of their games, in order.
    pub sheet: Vec<u32>,
    /// The game of the arena they are playing (`null` while waiting, and for the instant
    /// a new pairing's game takes to be stored).
    #[schema(required)]
    pub game: Option<String>,
    /// Left the arena, or withdrawn for not moving in a game: not paired again.
    pub withdrawn: bool,
}

/// An arena with its standings: the answer to `GET /api/arenas/{id}`, to its creation, to
/// joining and leaving.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaView {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    pub minutes: i64,
    pub rated: bool,
    /// A rated arena's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running` or `finished`.
    pub state: String,
    pub players: i64,
    /// Who made it (a username; `null` once their account is closed).
    #[schema(required)]
    pub creator: Option<String>,
    /// Every player who joined, best first: by score, then who reached it first, then by
    /// username.
    pub standings: Vec<ArenaStanding>,
    /// The best three's usernames once the arena is finished, else `null`.
    #[schema(required)]
    pub podium: Option<Vec<String>>,
}

/// `POST /api/arenas`.
#[utoipa::path(post, path = "/api/arenas", tag = "arenas",
    summary = "Make an arena tournament",
    request_body = ArenaRequest,
    responses(
        (status = 201, description = "The arena, no one joined yet", body = ArenaView),
        (status = 400, description = "Unreadable JSON, or a variant, clock or length refused (`bad_variant`, `bad_clock`; `invalid`: minutes not 10 to 180, a start more than 30 days ahead; `not_rated`: a rated arena of a variant or control not rated)", body = ErrorBody),
        (status = 401, description = "No session: arenas are for accounts (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many requests from this address (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn create_arena() {}

/// `GET /api/arenas`.
#[utoipa::path(get, path = "/api/arenas", tag = "arenas",
    summary = "The arenas: upcoming and running first, then finished",
    responses(
        (status = 200, description = "At most 50 arenas", body = ArenaList),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn list_arenas() {}

/// `GET /api/arenas/{id}`.
#[utoipa::path(get, path = "/api/arenas/{id}", tag = "arenas",
    summary = "An arena and its standings",
    params(("id" = String, Path, description = "The arena's id")),
    responses(
        (status = 200, description = "The arena, its standings and, once finished, its podium", body = ArenaView),
        (status = 404, description = "No arena has this id (`no_arena`)", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn show_arena() {}

/// `POST /api/arenas/{id}/join`.
#[utoipa::path(post, path = "/api/arenas/{id}/join", tag = "arenas",
    summary = "Join an arena (again, after leaving it)",
    params(("id" = String, Path, description = "The arena's id")),
    request_body(content = Option<serde_json::Value>, description = "None (any body is ignored)"),
    responses(
        (status = 200, description = "The arena, the asker among its players: paired whenever waiting while it runs", body = ArenaView),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "No arena has this id (`no_arena`)", body = ErrorBody),
        (status = 409, description = "The arena's time is up (`arena_finished`)", body = ErrorBody),
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn join_arena() {}

/// `POST /api/arenas/{id}/leave`.
#[utoipa::path(post, path = "/api/arenas/{id}/leave", tag = "arenas",
    summary = "Leave an arena: paired no more, the points kept",
    params(("id" = String, Path, description = "The arena's id")),
    request_body(content = Option<serde_json::Value>, description = "None (any body is ignored)"),
    responses(
        (status = 200, description = "The arena, the asker withdrawn (a game in progress is still played and counts)", body = ArenaView),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "No arena has this id (`no_arena`)", body = ErrorBody),
        (status = 409, description = "The arena's time is up (`arena_finished`)", body = ErrorBody),
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn leave_arena() {}
