//! The accounts' and seats' HTTP types and paths (docs/accounts.md): the bodies and queries
//! read, the answers, and the paths described for the OpenAPI document (`openapi.rs`). The
//! handlers are in `accounts/routes.rs`.

use lgame::{ByColor, Color};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::bots::api::TokenInfo;
use crate::clock::TimeControl;
use crate::games::api::{SeatRequest, TokenRequest};
use crate::games::{GameState, Player, PlayersBySide};
use crate::openapi as schema;
use crate::openapi::{ActionRefusals, BodyRefusals, GameRefusals, StorageRefusals};
use crate::ratings::api::CategoryRating;
use crate::response::{ErrorBody, Invitation};

/// `POST /api/account`: a new account.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "username": "alice", "password": "a long passphrase" }))]
pub struct SignUpRequest {
    /// 2 to 20 ASCII letters, digits, `_` and `-`; unique whatever its case.
    pub username: String,
    /// At least 8 characters, not a common password.
    pub password: String,
    /// Optional, never shown to anyone else.
    #[serde(default)]
    pub email: Option<String>,
}

/// `POST /api/session`: a log-in.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LogInRequest {
    /// The username, in any case.
    pub username: String,
    pub password: String,
}

/// `POST /api/account/password`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub password: String,
    /// The password from now on.
    pub new_password: String,
}

/// `DELETE /api/account`: the password, to close the account.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    pub password: String,
}

/// A page of a list of games, filtered.
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GamesListQuery {
    /// The page, from 1 (read as text and checked by the handler: an empty value is
    /// refused, not taken for the default).
    #[serde(default)]
    #[param(value_type = Option<u32>, format = Int64, minimum = 1, maximum = 4294967295_u64)]
    pub page: Option<String>,
    /// Games a page (default 20, at most 100).
    #[serde(default)]
    #[param(value_type = Option<u32>, format = Int64, minimum = 1, maximum = 4294967295_u64)]
    pub per_page: Option<String>,
    /// Only games the player `win`s, `draw`s, `loss`es, or `ongoing` ones.
    #[serde(default)]
    pub result: Option<String>,
    /// Only games of this variant (its name, as the state's `variant`).
    #[serde(default)]
    pub variant: Option<String>,
    /// Only games against this username.
    #[serde(default)]
    pub opponent: Option<String>,
}

/// The answer to `GET /api/session`: the session's account, or `null` for nobody.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionInfoAnswer {
    #[schema(required)]
    pub account: Option<Account>,
}

/// An account, as its owner sees it (`GET /api/account`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Account {
    pub username: String,
    /// A bot account (`POST /api/account/bot`).
    pub bot: bool,
    /// Shown to the owner only.
    #[schema(required)]
    pub email: Option<String>,
    /// When it was made (Unix seconds).
    pub created: i64,
}

/// How many sessions were ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ended {
    pub ended: u64,
}

/// A player's public profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub username: String,
    /// A bot: a program (or the server's computer) plays it.
    pub bot: bool,
    /// When the account was made (Unix seconds).
    pub created: i64,
    pub counts: Counts,
    /// The games the player is playing now.
    pub playing: Vec<GameSummary>,
}

/// A player's games, counted by how they ended for them.
#[derive(Debug, Serialize, ToSchema)]
pub struct Counts {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// A page of a list of games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct GamesPage {
    pub games: Vec<GameSummary>,
    pub page: u32,
    pub per_page: u32,
    /// The games the filters match, in all.
    pub total: u64,
}

/// A game in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    /// The rules text (`null`: not a named variant).
    #[schema(required)]
    pub variant: Option<String>,
    #[schema(value_type = PlayersBySide)]
    pub players: ByColor<Player>,
    /// The result token (`*` while it goes on, and for an aborted game).
    pub result: String,
    pub over: bool,
    /// Whether it was aborted (called off before both sides moved): over, with no result.
    pub aborted: bool,
    pub plies: u64,
    /// The side of the player whose list this is.
    #[schema(value_type = Option<schema::Color>, required)]
    pub you: Option<Color>,
    /// When it was made (Unix seconds).
    pub created: i64,
    /// The game's page (an address on this server).
    pub url: String,
    /// Its time control (`null`: untimed).
    #[schema(value_type = Option<schema::TimeControl>, required)]
    pub clock: Option<TimeControl>,
}

/// A session, as the account's settings and data list it (never its cookie).
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionInfo {
    /// Its public id (16 hex digits), to end it with `DELETE /api/account/sessions/{id}`:
    /// nothing of its cookie.
    pub id: String,
    /// The browser it was opened in, in the browser's own words (its `User-Agent`).
    #[schema(required)]
    pub device: Option<String>,
    /// The address it was opened from.
    #[schema(required)]
    pub address: Option<String>,
    /// Unix seconds: made, last used (renewed at most once a day), ends.
    pub created: i64,
    pub used: i64,
    pub expires: i64,
    /// Whether it is the asker's own session.
    pub current: bool,
}

impl SessionInfo {
    /// A listed session; `current` when `own` is its id's hash.
    pub fn of(listed: crate::store::ListedSession, own: &str) -> SessionInfo {
        let s = listed.session;
        SessionInfo {
            current: own.starts_with(&listed.id),
            id: listed.id,
            device: s.device,
            address: s.address,
            created: s.created,
            used: s.used,
            expires: s.expires,
        }
    }
}

/// The answer to `GET /api/account/sessions`: the account's sessions, the last used first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Sessions {
    pub sessions: Vec<SessionInfo>,
}

/// Everything the server keeps of an account (`GET /api/account/export`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Export {
    pub account: Account,
    pub sessions: Vec<SessionInfo>,
    /// Every game the account holds a seat of.
    pub games: Vec<GameSummary>,
    /// Each of those games' record (notation.md) with its tags (docs/records.md, "The
    /// server's records"), by the game's id.
    pub records: Vec<ExportedRecord>,
    /// Its ratings, each with its history (the rating after each rated game).
    pub ratings: Vec<CategoryRating>,
    /// Its API tokens: ids and descriptions, never the tokens.
    pub tokens: Vec<TokenInfo>,
    /// The arenas it joined.
    pub arenas: Vec<ArenaJoined>,
    /// The browsers (their anonymous identity's hash) and addresses it was used from in
    /// the last 30 days (docs/ratings.md, "Fair play").
    pub footprints: Vec<FootprintView>,
}

/// A game's record in an account's export.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedRecord {
    pub game: String,
    pub record: String,
}

/// An arena an account joined.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArenaJoined {
    pub arena: String,
    /// When it last joined, in the server's milliseconds.
    pub joined_ms: i64,
    /// When it left (`null`: still in).
    #[schema(required)]
    pub left_ms: Option<i64>,
}

/// A browser or an address an account was used from.
#[derive(Debug, Serialize, ToSchema)]
pub struct FootprintView {
    /// `browser` (its anonymous identity's hash, `a:HASH`) or `address`.
    pub kind: String,
    pub value: String,
    /// When first used, Unix milliseconds.
    pub first_ms: i64,
    /// When last used.
    pub seen_ms: i64,
}

impl From<crate::fairplay::Footprint> for FootprintView {
    fn from(f: crate::fairplay::Footprint) -> FootprintView {
        FootprintView {
            kind: f.kind.name().to_string(),
            value: f.value,
            first_ms: f.first_ms,
            seen_ms: f.seen_ms,
        }
    }
}

/// `POST /api/account`.
#[utoipa::path(post, path = "/api/account", tag = "accounts",
    summary = "Sign up (and log in)",
    request_body = SignUpRequest,
    responses(
        (status = 201, description = "The account; the session's cookie is set, and the browser's games are the account's", body = Account),
        (status = 400, description = "Unreadable JSON, or a username, password or email refused (`bad_username`, `bad_password`, `bad_email`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 409, description = "The username is taken, whatever its case (`username_taken`), or reads as an existing account's (`username_lookalike`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many sign-ups from this address (`Retry-After`)", body = ErrorBody),
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn sign_up() {}

/// `GET /api/account`.
#[utoipa::path(get, path = "/api/account", tag = "accounts",
    summary = "Who am I",
    responses(
        (status = 200, description = "The session's account", body = Account),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn account() {}

/// `DELETE /api/account`.
#[utoipa::path(delete, path = "/api/account", tag = "accounts",
    summary = "Close the account",
    request_body = PasswordRequest,
    responses(
        (status = 204, description = "Closed: username, password, sessions and email erased; its games stay, their player shown as deleted"),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 401, description = "No session, or a wrong password", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many failed passwords (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn close_account() {}

/// `POST /api/session`.
#[utoipa::path(post, path = "/api/session", tag = "accounts",
    summary = "Log in",
    request_body = LogInRequest,
    responses(
        (status = 200, description = "The account; the session's cookie is set, and the browser's games are the account's", body = Account),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 401, description = "Wrong username or password, the same for both (`wrong_credentials`)", body = ErrorBody),
        (status = 403, description = "A disabled account (`disabled`), or cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many failed log-ins from this address, or to this account from it (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn log_in() {}

/// `GET /api/session`.
#[utoipa::path(get, path = "/api/session", tag = "accounts",
    summary = "Who is logged in (nobody is an answer too)",
    responses(
        (status = 200, description = "The session's account, or `null`", body = SessionInfoAnswer),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn session() {}

/// `DELETE /api/session`.
#[utoipa::path(delete, path = "/api/session", tag = "accounts",
    summary = "Log out",
    responses(
        (status = 204, description = "The session ended and its cookie removed"),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn log_out() {}

/// `POST /api/account/password`.
#[utoipa::path(post, path = "/api/account/password", tag = "accounts",
    summary = "Change the password (every other session ends)",
    request_body = PasswordChange,
    responses(
        (status = 200, description = "Changed", body = Account),
        (status = 400, description = "Unreadable JSON, or the new password refused (`invalid`)", body = ErrorBody),
        (status = 401, description = "No session, or a wrong password", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many failed passwords (`Retry-After`); or too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn change_password() {}

/// `DELETE /api/account/sessions`.
#[utoipa::path(delete, path = "/api/account/sessions", tag = "accounts",
    summary = "Log out of every other session",
    responses(
        (status = 200, description = "How many sessions ended", body = Ended),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn end_other_sessions() {}

/// `GET /api/account/sessions`.
#[utoipa::path(get, path = "/api/account/sessions", tag = "accounts",
    summary = "The account's sessions",
    responses(
        (status = 200, description = "Each session with its browser (its own words), address and last use, the last used first; the asker's own marked `current`", body = Sessions),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn list_sessions() {}

/// `DELETE /api/account/sessions/{id}`.
#[utoipa::path(delete, path = "/api/account/sessions/{id}", tag = "accounts",
    summary = "End one session",
    params(("id" = String, Path, description = "The session's public id (`GET /api/account/sessions`)")),
    responses(
        (status = 204, description = "Ended, and its pages' connections closed (the asker's own session: its cookie is removed too)"),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "The account has no such session (`no_such_session`)", body = ErrorBody),
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn end_one_session() {}

/// `GET /api/account/export`.
#[utoipa::path(get, path = "/api/account/export", tag = "accounts",
    summary = "All the account's data, as a JSON file",
    responses(
        (status = 200, description = "Everything kept about the account: its sessions (never their cookies), games and their records, ratings with their history, tokens (ids and descriptions), arenas, and the browsers and addresses it was used from in the last 30 days", body = Export),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn export() {}

/// `GET /api/account/games`.
#[utoipa::path(get, path = "/api/account/games", tag = "accounts",
    summary = "My games: the session's account's, or the browser's",
    params(GamesListQuery),
    responses(
        (status = 200, description = "A page of the asker's games, newest first, unfinished ones included", body = GamesPage),
        (status = 400, description = "A query parameter refused", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn my_games() {}

/// `GET /api/users/{name}`.
#[utoipa::path(get, path = "/api/users/{name}", tag = "accounts",
    summary = "A player's profile",
    params(("name" = String, Path, description = "The username, in any case")),
    responses(
        (status = 200, description = "The profile: games counted, games going on", body = Profile),
        (status = 404, description = "No player has this name (`no_user`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn profile() {}

/// `GET /api/users/{name}/games`.
#[utoipa::path(get, path = "/api/users/{name}/games", tag = "accounts",
    summary = "A player's games",
    params(("name" = String, Path, description = "The username, in any case"), GamesListQuery),
    responses(
        (status = 200, description = "A page of the player's games, newest first", body = GamesPage),
        (status = 400, description = "A query parameter refused", body = ErrorBody),
        (status = 404, description = "No player has this name (`no_user`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn user_games() {}

/// `POST /api/games/{id}/seat`.
#[utoipa::path(post, path = "/api/games/{id}/seat", tag = "games",
    summary = "Take a seat, by its invitation or its token, for this browser",
    params(("id" = String, Path, description = "The game's id")),
    request_body = SeatRequest,
    responses(
        (status = 200, description = "The state, with the asker's seats (`your_sides`); the anonymous identity's cookie is set if the browser had none", body = GameState),
        (status = 400, description = "Unreadable JSON, or neither or both of `invite` and `token`", body = ErrorBody),
        (status = 409, description = "Someone took the seat first (`seat_taken`, with `state`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn seat() {}

/// `POST /api/games/{id}/invitation`.
#[utoipa::path(post, path = "/api/games/{id}/invitation", tag = "games",
    summary = "A new one-time invitation to the open seat (the old link stops working)",
    params(("id" = String, Path, description = "The game's id")),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The invitation", body = Invitation),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 409, description = "The seat was taken meanwhile (`seat_taken`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        BodyRefusals,
        GameRefusals,
        ActionRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn invitation() {}
