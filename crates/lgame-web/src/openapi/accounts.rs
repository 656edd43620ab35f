//! The accounts' and seats' paths (docs/accounts.md), described for the document as
//! `openapi.rs` describes the games'.

use super::{BodyRefusals, GameRefusals};
use crate::request::{
    GamesListQuery, LogInRequest, PasswordChange, PasswordRequest, SeatRequest, SignUpRequest,
    TokenRequest,
};
use crate::response::{
    Account, Ended, ErrorBody, Export, GameState, GamesPage, Invitation, Profile,
    SessionInfoAnswer, Sessions,
};

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
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
pub fn sign_up() {}

/// `GET /api/account`.
#[utoipa::path(get, path = "/api/account", tag = "accounts",
    summary = "Who am I",
    responses(
        (status = 200, description = "The session's account", body = Account),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
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
pub fn log_in() {}

/// `GET /api/session`.
#[utoipa::path(get, path = "/api/session", tag = "accounts",
    summary = "Who is logged in (nobody is an answer too)",
    responses(
        (status = 200, description = "The session's account, or `null`", body = SessionInfoAnswer),
    ))]
pub fn session() {}

/// `DELETE /api/session`.
#[utoipa::path(delete, path = "/api/session", tag = "accounts",
    summary = "Log out",
    responses(
        (status = 204, description = "The session ended and its cookie removed"),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
    ))]
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
pub fn change_password() {}

/// `DELETE /api/account/sessions`.
#[utoipa::path(delete, path = "/api/account/sessions", tag = "accounts",
    summary = "Log out of every other session",
    responses(
        (status = 200, description = "How many sessions ended", body = Ended),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
    ))]
pub fn end_other_sessions() {}

/// `GET /api/account/sessions`.
#[utoipa::path(get, path = "/api/account/sessions", tag = "accounts",
    summary = "The account's sessions",
    responses(
        (status = 200, description = "Each session with its browser (its own words), address and last use, the last used first; the asker's own marked `current`", body = Sessions),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
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
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
    ))]
pub fn end_one_session() {}

/// `GET /api/account/export`.
#[utoipa::path(get, path = "/api/account/export", tag = "accounts",
    summary = "All the account's data, as a JSON file",
    responses(
        (status = 200, description = "Everything kept about the account: its sessions (never their cookies), games and their records, ratings with their history, tokens (ids and descriptions), arenas, and the browsers and addresses it was used from in the last 30 days", body = Export),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
pub fn export() {}

/// `GET /api/account/games`.
#[utoipa::path(get, path = "/api/account/games", tag = "accounts",
    summary = "My games: the session's account's, or the browser's",
    params(GamesListQuery),
    responses(
        (status = 200, description = "A page of the asker's games, newest first, unfinished ones included", body = GamesPage),
        (status = 400, description = "A query parameter refused", body = ErrorBody),
    ))]
pub fn my_games() {}

/// `GET /api/users/{name}`.
#[utoipa::path(get, path = "/api/users/{name}", tag = "accounts",
    summary = "A player's profile",
    params(("name" = String, Path, description = "The username, in any case")),
    responses(
        (status = 200, description = "The profile: games counted, games going on", body = Profile),
        (status = 404, description = "No player has this name (`no_user`)", body = ErrorBody),
    ))]
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
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
    ))]
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
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")", body = ErrorBody),
    ))]
pub fn invitation() {}
