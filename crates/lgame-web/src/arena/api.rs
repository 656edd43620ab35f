//! The arenas' HTTP types and paths (docs/api.md, "Arenas"): the body read, the list
//! answered, and the paths described for the OpenAPI document (`openapi.rs`); an arena's
//! summary and view are the feature's (`arena.rs`). The handlers are in `routes.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::arena::{ArenaSummary, ArenaView};
use crate::clock::TimeControl;
use crate::openapi as schema;
use crate::openapi::{ActionRefusals, BodyRefusals, StorageRefusals};
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

/// The answer to `GET /api/arenas`: those not yet over first, soonest first, then the
/// finished, the latest first; at most 50.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArenaList {
    pub arenas: Vec<ArenaSummary>,
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
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn create_arena() {}

/// `GET /api/arenas`.
#[utoipa::path(get, path = "/api/arenas", tag = "arenas",
    summary = "The arenas: upcoming and running first, then finished",
    responses(
        (status = 200, description = "At most 50 arenas", body = ArenaList),
        StorageRefusals,
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
        StorageRefusals,
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
        ActionRefusals,
        StorageRefusals,
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
        ActionRefusals,
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn leave_arena() {}
