//! The games' HTTP types and paths (docs/api.md, "Games"): the bodies and queries the
//! games' endpoints read, the answers that are theirs alone, and their paths described for
//! the OpenAPI document (`openapi.rs`). The answers shared with other features (a game's
//! state, its players) are in `response.rs`; the handlers in `api.rs`.

use lgame::Color;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::GameState;
use crate::clock::TimeControl;
use crate::openapi as schema;
use crate::openapi::{BodyRefusals, GameRefusals, StorageRefusals};
use crate::response::{Created, ErrorBody};

/// `POST /api/games`: a new game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "red": "human", "blue": "perfect" }))]
pub struct CreateRequest {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// A setup name (`standard`, `kit`, `corners`) or a position (default: the variant's).
    #[serde(default)]
    pub setup: Option<String>,
    /// Red's seat: `human` or a computer level (`perfect`, `beginner:40`, ...).
    pub red: String,
    /// Blue's seat.
    pub blue: String,
    /// Drawn at this repetition of a position (default 3; 0: never).
    #[serde(default)]
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub repetition: Option<u32>,
    /// Drawn after this many plies (default and 0: the server's ply cap).
    #[serde(default)]
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub turn_limit: Option<u32>,
    /// The sides the asker's browser keeps, by its session or anonymous identity (the
    /// page's way: no token in the address).
    #[serde(default)]
    #[schema(value_type = Vec<schema::Color>)]
    pub hold: Vec<Color>,
    /// A side to invite a friend to: the answer's `invitation` is its one-time link.
    #[serde(default)]
    #[schema(value_type = Option<schema::Color>)]
    pub invite: Option<Color>,
    /// The time control (absent: none).
    #[serde(default)]
    #[schema(value_type = Option<schema::TimeControl>)]
    pub clock: Option<TimeControl>,
}

/// `POST /api/games/import`: a game from its record.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The record's text (notation.md).
    pub record: String,
    /// Red's seat (default `human`).
    #[serde(default)]
    pub red: Option<String>,
    /// Blue's seat (default `human`).
    #[serde(default)]
    pub blue: Option<String>,
    /// The sides the asker holds (as in `POST /api/games`): the game is then theirs, in their
    /// list of games, as a game played in their browser without the server.
    #[serde(default)]
    #[schema(value_type = Vec<schema::Color>)]
    pub hold: Vec<Color>,
}

/// `POST /api/games/{id}/moves`: a move for a ply.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The token of the side moving (without one: the asker's seat).
    #[serde(default)]
    pub token: Option<String>,
    /// Which of the asker's seats moves, when they hold both.
    #[serde(default)]
    #[schema(value_type = Option<schema::Color>)]
    pub side: Option<Color>,
    /// The ply the move is for: the state's `plies + 1`.
    pub ply: u64,
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// In a timed game: how long the move took the player by the client's own clock (from
    /// the position shown to the move sent). What the server counted beyond it is network
    /// lag, forgiven out of a quota (docs/api.md, "Clocks").
    #[serde(default)]
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub think_ms: Option<u32>,
}

/// `POST /api/games/{id}/claim`: an absent opponent's game claimed.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The token of the side claiming (without one: the asker's seat).
    #[serde(default)]
    pub token: Option<String>,
    /// Which of the asker's seats claims, when they hold both.
    #[serde(default)]
    #[schema(value_type = Option<schema::Color>)]
    pub side: Option<Color>,
    /// `win` or `draw`.
    #[schema(value_type = schema::Claim)]
    pub result: Claim,
}

/// What a claim asks for.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    Win,
    Draw,
}

/// The body of a change that needs only who asks (undo, draw, resign, rematch): a side's
/// token, or none and the asker's seat.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The token of the side asking (without one: the asker's seat).
    #[serde(default)]
    pub token: Option<String>,
    /// Which of the asker's seats asks, when they hold both.
    #[serde(default)]
    #[schema(value_type = Option<schema::Color>)]
    pub side: Option<Color>,
}

/// `POST /api/games/{id}/seat`: a seat taken by its invitation or its token.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// The invitation's secret (the `invite` of its link).
    #[serde(default)]
    pub invite: Option<String>,
    /// A side's token.
    #[serde(default)]
    pub token: Option<String>,
}

/// `GET /api/games/{id}` and its WebSocket: the token names the side asking.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    /// A side's token: the answer then says which side (`you`).
    #[serde(default)]
    pub token: Option<String>,
}

/// `POST /api/games`.
#[utoipa::path(post, path = "/api/games", tag = "games",
    summary = "Create a game",
    request_body = CreateRequest,
    responses(
        (status = 201, description = "The new game, with each human side's token", body = Created),
        (status = 400, description = "Unreadable JSON, or a variant, setup, player or turn limit refused", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape, or a variant too large to solve", body = ErrorBody),
        (status = 429, description = "Too many games created from this address (`Retry-After`)", body = ErrorBody),
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn create() {}

/// `POST /api/games/import`.
#[utoipa::path(post, path = "/api/games/import", tag = "games",
    summary = "Import a game from its record",
    request_body = ImportRequest,
    responses(
        (status = 201, description = "The new game, with each human side's token", body = Created),
        (status = 400, description = "Unreadable JSON, or a record or player refused", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape, or a variant too large to solve", body = ErrorBody),
        (status = 429, description = "Too many games created from this address (`Retry-After`)", body = ErrorBody),
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn import() {}

/// `GET /api/games/{id}`.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games",
    summary = "The game's state",
    params(("id" = String, Path, description = "The game's id"), GameQuery),
    responses(
        (status = 200, description = "The game (with `you` for a token)", body = GameState),
        (status = 400, description = "A query parameter refused", body = ErrorBody),
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn show() {}

/// `POST /api/games/{id}/moves`.
#[utoipa::path(post, path = "/api/games/{id}/moves", tag = "games",
    summary = "Play a move",
    params(("id" = String, Path, description = "The game's id")),
    request_body = MoveRequest,
    responses(
        (status = 200, description = "The new state (with the computer's reply)", body = GameState),
        (status = 400, description = "Unreadable JSON or move", body = ErrorBody),
        (status = 409, description = "A stale ply, not the side's turn, the side's time has run out, or the game is over (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape, or an illegal move (with `reason`)", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn play() {}

/// `POST /api/games/{id}/undo`.
#[utoipa::path(post, path = "/api/games/{id}/undo", tag = "games",
    summary = "Take back a move, or ask the other person to",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "Nothing to take back, or the game refuses it as it stands (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn undo() {}

/// `POST /api/games/{id}/undo/accept`.
#[utoipa::path(post, path = "/api/games/{id}/undo/accept", tag = "games",
    summary = "Accept the other person's request to take back",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "No request stands, or it is the token's own (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn undo_accept() {}

/// `POST /api/games/{id}/undo/decline`.
#[utoipa::path(post, path = "/api/games/{id}/undo/decline", tag = "games",
    summary = "Decline the other person's request to take back",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "No request stands, or it is the token's own (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn undo_decline() {}

/// `POST /api/games/{id}/rematch`.
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games",
    summary = "A rematch of a finished game",
    params(("id" = String, Path, description = "The finished game's id")),
    request_body = TokenRequest,
    responses(
        (status = 201, description = "The rematch, with the asking person's new side's token", body = Created),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "The game goes on, or the side's token was given (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many games created from this address (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn rematch() {}

/// `POST /api/games/{id}/draw`.
#[utoipa::path(post, path = "/api/games/{id}/draw", tag = "games",
    summary = "Offer or accept a draw",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "The game is over, or the computer declines (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn draw() {}

/// `POST /api/games/{id}/resign`.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games",
    summary = "Resign",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "The game is over (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn resign() {}

/// `POST /api/games/{id}/draw/decline`.
#[utoipa::path(post, path = "/api/games/{id}/draw/decline", tag = "games",
    summary = "Decline the other side's draw offer",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "No offer of the other side stands, or the game is over (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn draw_decline() {}

/// `POST /api/games/{id}/give-time`.
#[utoipa::path(post, path = "/api/games/{id}/give-time", tag = "games",
    summary = "Give the other side 15 s more (a day by correspondence)",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "The game has no clock, or is over (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn give_time() {}

/// `POST /api/games/{id}/claim`.
#[utoipa::path(post, path = "/api/games/{id}/claim", tag = "games",
    summary = "Claim a real-time game whose opponent has left: a win or a draw",
    description = "Allowed when the other side has had no page open for 15 s, on its turn, \
                   in a game with a real-time clock. The game ends `abandoned`.",
    params(("id" = String, Path, description = "The game's id")),
    request_body = ClaimRequest,
    responses(
        (status = 200, description = "The game, ended", body = GameState),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "No real-time clock, the opponent is here or not gone long enough, or the game is over (with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn claim() {}

/// `GET /api/games/{id}/record`.
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    summary = "The game's record (notation.md)",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The record", body = String, content_type = "text/plain"),
        (status = 404, description = "No game has this id", body = ErrorBody),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
fn record() {}

/// `GET /api/games/{id}/ws`.
#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "games",
    summary = "Live updates: a WebSocket of `GameMessage`s (see `x-websocket`)",
    description = "A WebSocket upgrade (RFC 6455). The server sends text messages, each a \
                   `GameMessage`: the whole state first, then a change after each change. \
                   What the client sends is ignored. Not plain HTTP: marked `x-streaming`.",
    params(("id" = String, Path, description = "The game's id"), GameQuery),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, description = "Not a WebSocket handshake, or a query parameter refused", body = ErrorBody),
        (status = 403, description = "The token plays no side of this game", body = ErrorBody),
        (status = 404, description = "No game has this id", body = ErrorBody),
        (status = 429, description = "This address or identity holds the most WebSockets and streams allowed (`too_many_connections`, `Retry-After`); a player's own game's is always admitted", body = ErrorBody),
        (status = 503, description = "Too many WebSockets open, or the database cannot be reached", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
fn websocket() {}
