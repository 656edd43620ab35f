//! The bots' HTTP types and paths (docs/api.md, "Bots"; docs/bots.md): the bodies and
//! queries read, the answers, and the paths described for the OpenAPI document
//! (`openapi.rs`). The two streams are long answers of NDJSON, marked `x-streaming` as the
//! WebSockets are. The handlers are in `bots/routes.rs`.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::clock::TimeControl;
use crate::games::api::GameQuery;
use crate::openapi as schema;
use crate::openapi::{ActionRefusals, BodyRefusals, StorageRefusals};
use crate::response::{Created, ErrorBody};

/// `POST /api/account/tokens`: a new API token.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "description": "my engine" }))]
pub struct NewTokenRequest {
    /// What it is for (at most 100 characters).
    #[serde(default)]
    pub description: Option<String>,
}

/// `POST /api/challenges/{username}`: a game asked of a bot.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "clock": { "initial_s": 180, "increment_s": 2 }, "color": "random" }))]
pub struct ChallengeRequest {
    /// The variant's catalog name (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The time control (none: untimed).
    #[serde(default)]
    #[schema(value_type = Option<schema::TimeControl>)]
    pub clock: Option<TimeControl>,
    /// Rated (accounts only, and a rated variant and control) or casual (the default).
    #[serde(default)]
    pub rated: bool,
    /// The challenger's side: `red`, `blue` or `random` (the default).
    #[serde(default)]
    pub color: Option<String>,
}

/// `POST /api/challenges/{id}/decline`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "reason": "too_fast" }))]
pub struct DeclineRequest {
    /// Why: `generic` (the default), `later`, `too_fast`, `too_slow`, `time_control`,
    /// `rated`, `casual`, `variant` or `too_many_games`.
    #[serde(default)]
    pub reason: Option<String>,
}

/// `GET /api/bot/events[?since=ID]`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Resume after this event's id (none: what still stands, then what comes).
    pub since: Option<i64>,
}

/// The answer to `POST /api/account/tokens` (201): the token, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCreated {
    /// The token's id, to revoke it.
    pub id: String,
    /// The token: `Authorization: Bearer TOKEN`. Only its hash is kept: it cannot be
    /// shown again.
    pub token: String,
    #[schema(required)]
    pub description: Option<String>,
    /// When it was made (Unix milliseconds).
    pub created_ms: i64,
}

/// One of the account's tokens, without the token.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenInfo {
    pub id: String,
    #[schema(required)]
    pub description: Option<String>,
    pub created_ms: i64,
}

impl From<crate::store::TokenRow> for TokenInfo {
    fn from(t: crate::store::TokenRow) -> TokenInfo {
        TokenInfo {
            id: t.id,
            description: t.description,
            created_ms: t.created_ms,
        }
    }
}

/// `GET /api/account/tokens`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenList {
    pub tokens: Vec<TokenInfo>,
}

/// A bot, as the lobby lists them.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotInfo {
    pub username: String,
    /// The server's computer level it plays (`null`: a program plays it through the API).
    #[schema(required)]
    pub level: Option<String>,
    /// Whether it accepts challenges now: the server's levels always; a program's bot while
    /// its event stream is open.
    pub online: bool,
}

/// `GET /api/bots`.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotList {
    pub bots: Vec<BotInfo>,
}

/// A challenge to a bot.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengeView {
    pub id: String,
    /// `pending`, `accepted`, `declined` or `canceled` (withdrawn, or unanswered for a
    /// minute).
    pub status: String,
    /// The challenger's username (`null`: a browser without an account).
    #[schema(required)]
    pub challenger: Option<String>,
    /// The bot challenged.
    pub challenged: String,
    /// The variant's catalog name.
    pub variant: String,
    /// The time control (`null`: untimed).
    #[schema(required, value_type = Option<schema::TimeControl>)]
    pub clock: Option<TimeControl>,
    #[schema(required, value_type = Option<String>, example = "blitz")]
    pub speed: Option<crate::clock::Speed>,
    pub rated: bool,
    /// A rated challenge's category; `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// The challenger's side asked for: `red`, `blue` or `random`.
    pub color: String,
    /// Why the bot declined (`declined` only).
    #[schema(required)]
    pub reason: Option<String>,
    /// The game, once accepted.
    #[schema(required)]
    pub game: Option<String>,
    /// The challenger's side in it, once accepted.
    #[schema(required)]
    pub seat: Option<String>,
    /// When it was made (Unix milliseconds).
    pub created_ms: i64,
}

/// `POST /api/account/bot`.
#[utoipa::path(post, path = "/api/account/bot", tag = "bots",
    summary = "Make the account a bot (before its first game)",
    request_body(content = Option<serde_json::Value>, description = "None (any body is ignored)"),
    responses(
        (status = 200, description = "The account is a bot: `{\"username\": …, \"bot\": true}`", body = serde_json::Value),
        (status = 401, description = "No session, nor token (`no_session`; `bad_token`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 409, description = "The account has played (`has_games`)", body = ErrorBody),
        ActionRefusals,
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn make_bot() {}

/// `POST /api/account/tokens`.
#[utoipa::path(post, path = "/api/account/tokens", tag = "bots",
    summary = "A new API token, shown once",
    request_body = NewTokenRequest,
    responses(
        (status = 201, description = "The token (only its hash is kept) and its id", body = TokenCreated),
        (status = 400, description = "A description over 100 characters (`invalid`)", body = ErrorBody),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A token (`token_scope`), or cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        ActionRefusals,
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn create_token() {}

/// `GET /api/account/tokens`.
#[utoipa::path(get, path = "/api/account/tokens", tag = "bots",
    summary = "The account's tokens (never the tokens themselves)",
    responses(
        (status = 200, description = "Oldest first", body = TokenList),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A token (`token_scope`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn list_tokens() {}

/// `DELETE /api/account/tokens/{id}`.
#[utoipa::path(delete, path = "/api/account/tokens/{id}", tag = "bots",
    summary = "Revoke a token: refused from the next request on",
    params(("id" = String, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A token (`token_scope`), or cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "The account has no such token (`no_token`)", body = ErrorBody),
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn revoke_token() {}

/// `GET /api/bots`.
#[utoipa::path(get, path = "/api/bots", tag = "bots",
    summary = "The bots: the server's computer levels, then the programs' bots",
    responses(
        (status = 200, description = "Every bot, online or not", body = BotList),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn list_bots() {}

/// `POST /api/challenges/{username}`.
#[utoipa::path(post, path = "/api/challenges/{username}", tag = "bots",
    summary = "Challenge a bot",
    params(("username" = String, Path, description = "The bot's username, in any case")),
    request_body = ChallengeRequest,
    responses(
        (status = 201, description = "The challenge: `pending` until the bot answers, `accepted` at once by the server's levels", body = ChallengeView),
        (status = 400, description = "A variant, clock or colour refused; a person, not a bot (`not_a_bot`); not rated (`not_rated`)", body = ErrorBody),
        (status = 401, description = "A rated challenge without an account (`no_session`); an unknown token (`bad_token`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`); a rated challenge between accounts that used the same browser (`same_browser`)", body = ErrorBody),
        (status = 404, description = "No player has this name (`no_user`)", body = ErrorBody),
        (status = 409, description = "The bot's program is not connected (`bot_offline`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many games made from this address (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn challenge() {}

/// `GET /api/challenges/{id}`.
#[utoipa::path(get, path = "/api/challenges/{id}", tag = "bots",
    summary = "A challenge: pending, declined with a reason, or its game and the challenger's seat",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge as it stands", body = ChallengeView),
        (status = 404, description = "No challenge has this id (`no_challenge`)", body = ErrorBody),
        StorageRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn show_challenge() {}

/// `DELETE /api/challenges/{id}`.
#[utoipa::path(delete, path = "/api/challenges/{id}", tag = "bots",
    summary = "Withdraw a challenge (its challenger)",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 204, description = "Withdrawn (the bot is told)"),
        (status = 403, description = "Not its challenger (`not_your_challenge`)", body = ErrorBody),
        (status = 404, description = "No challenge has this id (`no_challenge`)", body = ErrorBody),
        (status = 409, description = "Answered already (`challenge_settled`)", body = ErrorBody),
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn cancel_challenge() {}

/// `POST /api/challenges/{id}/accept`.
#[utoipa::path(post, path = "/api/challenges/{id}/accept", tag = "bots",
    summary = "Accept a challenge (the bot challenged): the game starts",
    params(("id" = String, Path, description = "The challenge's id")),
    request_body(content = Option<serde_json::Value>, description = "None (any body is ignored)"),
    responses(
        (status = 201, description = "The game, as a new game's answer (no token: the bot plays it with its own)", body = Created),
        (status = 401, description = "No session, nor token (`no_session`)", body = ErrorBody),
        (status = 403, description = "Not the bot challenged (`not_your_challenge`)", body = ErrorBody),
        (status = 404, description = "No challenge has this id (`no_challenge`)", body = ErrorBody),
        (status = 409, description = "Answered already, or withdrawn (`challenge_settled`)", body = ErrorBody),
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn accept_challenge() {}

/// `POST /api/challenges/{id}/decline`.
#[utoipa::path(post, path = "/api/challenges/{id}/decline", tag = "bots",
    summary = "Decline a challenge (the bot challenged), with a reason",
    params(("id" = String, Path, description = "The challenge's id")),
    request_body = DeclineRequest,
    responses(
        (status = 200, description = "The challenge, declined", body = ChallengeView),
        (status = 400, description = "An unknown reason (`invalid`)", body = ErrorBody),
        (status = 401, description = "No session, nor token (`no_session`)", body = ErrorBody),
        (status = 403, description = "Not the bot challenged (`not_your_challenge`)", body = ErrorBody),
        (status = 404, description = "No challenge has this id (`no_challenge`)", body = ErrorBody),
        (status = 409, description = "Answered already (`challenge_settled`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn decline_challenge() {}

/// `GET /api/bot/events`.
#[utoipa::path(get, path = "/api/bot/events", tag = "bots",
    summary = "The bot's events: a long answer of NDJSON (see `x-streaming`)",
    description = "One JSON object a line, each with its `id` and `type`: `challenge`, \
                   `challengeCanceled`, `gameStart`, `gameFinish`; a blank line every 5 s \
                   when there is nothing to say. `since` resumes after an event's id.",
    params(EventsQuery),
    responses(
        (status = 200, description = "The stream", body = String, content_type = "application/x-ndjson"),
        (status = 400, description = "A query parameter refused (`since` not a number)", body = ErrorBody),
        (status = 401, description = "No token, or an unknown one (`no_session`, `bad_token`)", body = ErrorBody),
        (status = 403, description = "The account is no bot (`not_a_bot`)", body = ErrorBody),
        (status = 429, description = "This address or identity holds the most WebSockets and streams allowed (`too_many_connections`, `Retry-After`); a player's own game's is always admitted", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn events() {}

/// `GET /api/games/{id}/stream`.
#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games",
    summary = "Live updates as NDJSON: the WebSocket's `GameMessage`s (see `x-streaming`)",
    description = "A long answer: the whole state first, then a change after each change, \
                   one JSON object a line, a blank line every 5 s when there is nothing to \
                   say. A player's stream says they are here, as their page would.",
    params(("id" = String, Path, description = "The game's id"), GameQuery),
    responses(
        (status = 200, description = "The stream", body = String, content_type = "application/x-ndjson"),
        (status = 403, description = "The token plays no side of this game", body = ErrorBody),
        (status = 404, description = "No game has this id", body = ErrorBody),
        (status = 429, description = "This address or identity holds the most WebSockets and streams allowed (`too_many_connections`, `Retry-After`); a player's own game's is always admitted", body = ErrorBody),
        (status = 503, description = "Too many streams and WebSockets open, or the database cannot be reached", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn game_stream() {}
