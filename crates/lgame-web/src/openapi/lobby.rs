//! The lobby's paths (docs/api.md, "The lobby"), described for the document as `openapi.rs`
//! describes the games'.

use serde::Serialize;
use utoipa::ToSchema;

use super::BodyRefusals;
use crate::request::{PairingRequest, SeekRequest, SeekTokenQuery};
use crate::response::{
    Created, ErrorBody, PairingStatus, SeekCreated, SeekList, SeekStatus, SeekView,
};

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
    #[schema(value_type = Option<super::Color>)]
    side: Option<String>,
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
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
pub fn create_seek() {}

/// `GET /api/seeks`.
#[utoipa::path(get, path = "/api/seeks", tag = "lobby",
    summary = "The open seeks, newest first",
    responses(
        (status = 200, description = "The open seeks (at most 500)", body = SeekList),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
pub fn list_seeks() {}

/// `GET /api/seeks/{id}`.
#[utoipa::path(get, path = "/api/seeks/{id}", tag = "lobby",
    summary = "A seek: open, taken (its game named) or gone",
    params(("id" = String, Path, description = "The seek's id"), SeekTokenQuery),
    responses(
        (status = 200, description = "The seek; its seeker's side only to the seeker, whose poll keeps an open seek alive", body = SeekStatus),
        (status = 404, description = "No seek has this id (`no_seek`)", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
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
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
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
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
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
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
pub fn join_pool() {}

/// `GET /api/pairing/{ticket}`.
#[utoipa::path(get, path = "/api/pairing/{ticket}", tag = "lobby",
    summary = "A ticket: waiting, or paired (the game and the side)",
    params(("ticket" = String, Path, description = "The ticket")),
    responses(
        (status = 200, description = "Waiting (the poll keeps the ticket alive), or paired", body = PairingStatus),
        (status = 404, description = "No such ticket (`no_ticket`)", body = ErrorBody),
        (status = 410, description = "Withdrawn, or unseen too long (`ticket_gone`)", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
pub fn show_ticket() {}

/// `DELETE /api/pairing/{ticket}`.
#[utoipa::path(delete, path = "/api/pairing/{ticket}", tag = "lobby",
    summary = "Leave the pool",
    params(("ticket" = String, Path, description = "The ticket")),
    responses(
        (status = 204, description = "Left (or gone already)"),
        (status = 404, description = "No such ticket (`no_ticket`)", body = ErrorBody),
        (status = 409, description = "Already paired: the game goes on (`paired`)", body = ErrorBody),
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
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
pub fn websocket() {}
