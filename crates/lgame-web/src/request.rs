//! The bodies and query strings the API reads (docs/api.md): unknown fields are refused.

use lgame::Color;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::clock::TimeControl;
use crate::openapi as schema;

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

/// `GET /api/analysis`: a position under a variant.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AnalysisQuery {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The position: either form, a setup name or `start`.
    pub position: String,
}

/// `GET /api/qr`: the text to encode.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct QrQuery {
    /// The text to encode (at most 1,000 bytes).
    pub text: String,
}

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
