//! The lobby's HTTP types and paths (docs/api.md, "The lobby"): the bodies and queries its
//! endpoints read, its answers (a seek in them is the lobby's own `SeekView`), its live
//! stream's message, and its paths described for the OpenAPI document (`openapi.rs`). The
//! handlers are in `routes.rs`.

use lgame::Color;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::clock::TimeControl;
use crate::lobby::SeekView;
use crate::openapi as schema;
use crate::openapi::{ActionRefusals, BodyRefusals, StorageRefusals};
use crate::response::{Created, ErrorBody};

/// A message of the lobby's live stream (`GET /api/lobby/ws`), by its `type`: `lobby` (the
/// open seeks, first and after falling behind), `seek` (a new one), `gone` (one taken,
/// withdrawn or unseen), `game` (to the seeker's pages only: its seek taken, or its
/// ticket paired).
#[derive(Serialize, ToSchema)]
pub struct LobbyMessage {
    /// `lobby`, `seek`, `gone` or `game`.
    #[serde(rename = "type")]
    kind: String,
    /// `lobby`: the open seeks, newest first.
    seeks: Option<Vec<SeekView>>,
    /// `seek`: the new seek; `game`: the seek taken (`null` for a ticket).
    seek: Option<SeekView>,
    /// `gone`: the seek's id.
    id: Option<String>,
    /// `game`: `seek` or `ticket`, the game, its page, and the side the seeker plays.
    #[schema(value_type = Option<String>)]
    game: Option<String>,
    watch_page: Option<String>,
    #[schema(value_type = Option<schema::Color>)]
    side: Option<String>,
}

/// `POST /api/seeks`: a seek for the lobby.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "clock": { "initial_s": 180, "increment_s": 2 }, "colour": "random" }))]
pub struct SeekRequest {
    /// The variant's catalog name (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The time control: a seek always has one.
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    /// The seeker's side: `red`, `blue` or `random` (the default).
    #[serde(default)]
    pub colour: Option<String>,
    /// Rated (accounts only, and a rated variant: docs/ratings.md) or casual (the
    /// default).
    #[serde(default)]
    pub rated: bool,
    /// The ratings the seek's taker may have, `[min, max]` (in the seek's category).
    #[serde(default)]
    pub rating_range: Option<[i64; 2]>,
}

/// `POST /api/pairing`: waiting in quick pairing's pool.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "control": "3+0" }))]
pub struct PairingRequest {
    /// One of the pool's controls: `1+0`, `2+1`, `3+0`, `3+2`, `5+0`, `5+3`, `10+0`,
    /// `10+5`, `15+10` (minutes + seconds a move), `1d`, `3d` (days a move).
    pub control: String,
    /// Rated (accounts only) or casual (the default): each is paired with its own kind.
    #[serde(default)]
    pub rated: bool,
}

/// A seek's secret, for a client without the seeker's cookies (a program).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeekTokenQuery {
    /// The `token` the seek's answer gave.
    #[serde(default)]
    pub token: Option<String>,
}

/// The answer to `POST /api/seeks` (201).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekCreated {
    pub id: String,
    /// The seek's secret, shown once: with it a program withdraws the seek, asks for its
    /// game (`GET /api/seeks/{id}?token=`) and plays its seat (the game's `token`).
    pub token: String,
    pub seek: SeekView,
}

/// The answer to `GET /api/seeks`: the open seeks, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekList {
    pub seeks: Vec<SeekView>,
}

/// The answer to `GET /api/seeks/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekStatus {
    pub seek: SeekView,
    /// `open`, `taken` (its game named) or `gone` (withdrawn, or its page closed).
    pub status: String,
    /// Its game, once taken.
    #[schema(required)]
    pub game: Option<String>,
    /// The seeker's side in it: told only to the seeker (its cookies or its `token`).
    #[schema(value_type = Option<schema::Color>, required)]
    pub side: Option<Color>,
}

/// The answer to `POST /api/pairing` (202) and `GET /api/pairing/{ticket}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingStatus {
    /// The ticket: the secret to ask with, and to play the game's seat with (its `token`).
    pub ticket: String,
    pub control: String,
    /// `waiting` or `paired`.
    pub status: String,
    /// Once paired: the game, its page and the side played.
    #[schema(required)]
    pub game: Option<String>,
    #[schema(required)]
    pub watch_page: Option<String>,
    #[schema(value_type = Option<schema::Color>, required)]
    pub side: Option<Color>,
}

/// `POST /api/seeks`.
#[utoipa::path(post, path = "/api/seeks", tag = "lobby",
    summary = "Seek a game in the lobby",
    request_body = SeekRequest,
    responses(
        (status = 201, description = "The seek, and its secret (shown once); an anonymous asker's identity cookie is set", body = SeekCreated),
        (status = 400, description = "Unreadable JSON, or a variant, clock or colour refused (`bad_variant`, `bad_clock`, `bad_player`; `invalid`: a rating range; `not_rated`: a rated seek of a variant not rated)", body = ErrorBody),
        (status = 401, description = "A rated seek from a browser without an account (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 409, description = "The asker (or, anonymous, its address) has as many open seeks as allowed (`too_many_seeks`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many requests from this address (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn create_seek() {}

/// `GET /api/seeks`.
#[utoipa::path(get, path = "/api/seeks", tag = "lobby",
    summary = "The open seeks, newest first",
    responses(
        (status = 200, description = "The open seeks (at most 500)", body = SeekList),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn list_seeks() {}

/// `GET /api/seeks/{id}`.
#[utoipa::path(get, path = "/api/seeks/{id}", tag = "lobby",
    summary = "A seek: open, taken (its game named) or gone",
    params(("id" = String, Path, description = "The seek's id"), SeekTokenQuery),
    responses(
        (status = 200, description = "The seek; its seeker's side only to the seeker, whose poll keeps an open seek alive", body = SeekStatus),
        (status = 404, description = "No seek has this id (`no_seek`)", body = ErrorBody),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn show_seek() {}

/// `DELETE /api/seeks/{id}`.
#[utoipa::path(delete, path = "/api/seeks/{id}", tag = "lobby",
    summary = "Withdraw a seek",
    params(("id" = String, Path, description = "The seek's id"), SeekTokenQuery),
    responses(
        (status = 204, description = "Withdrawn (or gone already)"),
        (status = 403, description = "Not the seeker's (`not_your_seek`), or cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "No seek has this id (`no_seek`)", body = ErrorBody),
        (status = 409, description = "Taken: its game goes on (`seek_taken`)", body = ErrorBody),
        ActionRefusals,
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn withdraw_seek() {}

/// `POST /api/seeks/{id}/accept`.
#[utoipa::path(post, path = "/api/seeks/{id}/accept", tag = "lobby",
    summary = "Take a seek: the game starts for both",
    params(("id" = String, Path, description = "The seek's id")),
    request_body(content = Option<serde_json::Value>, description = "None (any body is ignored)"),
    responses(
        (status = 201, description = "The game, the taker's seat held by its cookies (and its token)", body = Created),
        (status = 401, description = "A rated seek taken by a browser without an account (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`), or a taker rated outside the seek's range (`rating_range`), or a rated seek's seeker and taker whose accounts used the same browser (`same_browser`)", body = ErrorBody),
        (status = 404, description = "No seek has this id (`no_seek`)", body = ErrorBody),
        (status = 409, description = "Someone else took it first (`seek_taken`), or it is the asker's own (`own_seek`)", body = ErrorBody),
        (status = 410, description = "Withdrawn, or its page closed (`seek_gone`)", body = ErrorBody),
        (status = 429, description = "Too many requests from this address (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn accept_seek() {}

/// `POST /api/pairing`.
#[utoipa::path(post, path = "/api/pairing", tag = "lobby",
    summary = "Wait in quick pairing's pool for a control",
    request_body = PairingRequest,
    responses(
        (status = 202, description = "Waiting: the ticket (a secret; the asker's other ticket withdrawn)", body = PairingStatus),
        (status = 400, description = "Unreadable JSON, or not one of the pool's controls (`bad_clock`)", body = ErrorBody),
        (status = 401, description = "A rated ticket from a browser without an account (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 409, description = "The address has as many tickets as allowed (`too_many_seeks`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many requests from this address (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn join_pool() {}

/// `GET /api/pairing/{ticket}`.
#[utoipa::path(get, path = "/api/pairing/{ticket}", tag = "lobby",
    summary = "A ticket: waiting, or paired (the game and the side)",
    params(("ticket" = String, Path, description = "The ticket")),
    responses(
        (status = 200, description = "Waiting (the poll keeps the ticket alive), or paired", body = PairingStatus),
        (status = 404, description = "No such ticket (`no_ticket`)", body = ErrorBody),
        (status = 410, description = "Withdrawn, or unseen too long (`ticket_gone`)", body = ErrorBody),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn show_ticket() {}

/// `DELETE /api/pairing/{ticket}`.
#[utoipa::path(delete, path = "/api/pairing/{ticket}", tag = "lobby",
    summary = "Leave the pool",
    params(("ticket" = String, Path, description = "The ticket")),
    responses(
        (status = 204, description = "Left (or gone already)"),
        (status = 404, description = "No such ticket (`no_ticket`)", body = ErrorBody),
        (status = 409, description = "Already paired: the game goes on (`paired`)", body = ErrorBody),
        ActionRefusals,
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn leave_pool() {}

/// `GET /api/lobby/ws`.
#[utoipa::path(get, path = "/api/lobby/ws", tag = "lobby",
    summary = "The lobby live: a WebSocket of `LobbyMessage`s (see `x-websocket`)",
    description = "A WebSocket upgrade (RFC 6455). The server sends text messages, each a \
                   `LobbyMessage`: the open seeks first, then each change, and to the \
                   asker's pages (its cookies) its game when its seek is taken or its ticket \
                   paired. While a page of the asker's is open, its seeks and tickets stay. \
                   What the client sends is ignored. Not plain HTTP: marked `x-streaming`.",
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, description = "Not a WebSocket handshake", body = ErrorBody),
        (status = 429, description = "This address or identity holds the most WebSockets and streams allowed (`too_many_connections`, `Retry-After`); a player's own game's is always admitted", body = ErrorBody),
        (status = 503, description = "Too many WebSockets open", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn websocket() {}
