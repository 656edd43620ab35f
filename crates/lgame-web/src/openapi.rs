//! The API described for machines: an OpenAPI 3.1 document of every endpoint, its request
//! body or query, its answers and its refusals (`GET /api/openapi.json`, docs/api.md
//! "The OpenAPI document").
//!
//! The schemas are derived from the Rust types the server reads and writes (`request.rs`,
//! `response.rs`, the queries of `explore.rs`) by `utoipa`. The values of the rules library
//! and the solver (positions, moves, sides, reasons, the analysis), whose crates know no
//! OpenAPI, are described here by types of their own that stand for them in the schemas
//! only: the tests validate real answers, and every example of docs/api.md, against the
//! document, so a description that drifts from what the library serializes fails there.
//!
//! The paths are described by the doc-only functions below (`#[utoipa::path]`), apart from
//! the handlers in `api.rs`; a test reads `api::router`'s routes from its source and fails
//! when one is not in the document, or the document has one the router does not.
//!
//! The WebSocket (`/api/games/{id}/ws`) is an HTTP upgrade: OpenAPI describes its request
//! and its refusals, and the messages it sends are the schema `GameMessage`, named by the
//! operation's `x-websocket` extension (which marks it as a stream a generic HTTP client
//! such as Schemathesis skips).

// The types and functions below describe; nothing calls or builds them.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Serialize;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::{IntoResponses, OpenApi, ToSchema};

mod accounts;
mod arenas;
mod bots;
mod lobby;
mod ratings;

use crate::explore::{ClassesQuery, DiagramQuery, PositionQuery, RecordRequest};
use crate::request::{
    AnalysisQuery, ClaimRequest, CreateRequest, GameQuery, ImportRequest, MoveRequest, QrQuery,
    TokenRequest,
};
use crate::response::{
    Catalog, ClassesAnswer, Created, ErrorBody, GameMessage, GameState, Health, PositionAnswer,
    RecordAnswer,
};

/// The WebSockets, which the document marks as streams, and the schema of their messages.
pub const WEBSOCKETS: [(&str, &str); 2] = [
    ("/api/games/{id}/ws", "GameMessage"),
    ("/api/lobby/ws", "LobbyMessage"),
];

/// The document's JSON, made once.
pub fn json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        serde_json::to_string_pretty(&document()).expect("the OpenAPI document serializes")
    })
}

/// The OpenAPI document of the API.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    for (path, schema) in WEBSOCKETS {
        let Some(op) = doc
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.get.as_mut())
        else {
            continue;
        };
        let marks = ExtensionsBuilder::new()
            .add(
                "x-websocket",
                serde_json::json!({
                    "subprotocol": null,
                    "server_messages": {
                        "encoding": "text, one JSON object a message",
                        "schema": { "$ref": format!("#/components/schemas/{schema}") }
                    },
                    "client_messages": "read and ignored"
                }),
            )
            .add("x-streaming", "websocket")
            .build();
        match &mut op.extensions {
            Some(extensions) => extensions.merge(marks),
            None => op.extensions = Some(marks),
        }
    }
    for path in STREAMS {
        let op = doc
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.get.as_mut());
        if let Some(op) = op {
            let marks = ExtensionsBuilder::new()
                .add("x-streaming", "ndjson")
                .build();
            match &mut op.extensions {
                Some(extensions) => extensions.merge(marks),
                None => op.extensions = Some(marks),
            }
        }
    }
    link_new_games(&mut doc);
    doc
}

/// The long answers of NDJSON, which the document marks as streams.
pub const STREAMS: [&str; 2] = ["/api/games/{id}/stream", "/api/bot/events"];

/// OpenAPI links from a new game's answer (201) to the operations on the game, with its id
/// and Red's token: how a client (and Schemathesis's stateful tests) goes from one to the
/// next.
fn link_new_games(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::link::LinkBuilder;
    use utoipa::openapi::RefOr;

    let id = "$response.body#/id";
    let token = "$response.body#/players/red/token";
    let links = [
        ("show", "the game's state", None),
        ("record", "the game's record", None),
        (
            "play",
            "a move in the game",
            Some(serde_json::json!({ "token": token, "ply": 1, "move": "A1,A2,A3,B3 D1-D2" })),
        ),
        (
            "undo",
            "take back in the game",
            Some(serde_json::json!({ "token": token })),
        ),
        (
            "draw",
            "offer a draw in the game",
            Some(serde_json::json!({ "token": token })),
        ),
        (
            "resign",
            "resign the game",
            Some(serde_json::json!({ "token": token })),
        ),
        (
            "rematch",
            "a rematch of the game",
            Some(serde_json::json!({ "token": token })),
        ),
    ];
    for path in ["/api/games", "/api/games/import"] {
        let Some(op) = doc
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.post.as_mut())
        else {
            continue;
        };
        let Some(RefOr::T(created)) = op.responses.responses.get_mut("201") else {
            continue;
        };
        for (operation, description, body) in &links {
            let link = LinkBuilder::new()
                .operation_id(*operation)
                .description(*description)
                .parameter("id", id)
                .request_body(body.clone())
                .build();
            created.links.insert(operation.to_string(), RefOr::T(link));
        }
    }
}

/// The refusals of a JSON body, which every endpoint that reads one may answer.
#[derive(IntoResponses)]
#[allow(dead_code)] // a description for the document, never made
enum BodyRefusals {
    #[response(status = 413, description = "The body is over 64 KiB")]
    TooLarge(ErrorBody),
    #[response(
        status = 415,
        description = "The body is not declared `application/json`"
    )]
    NotJson(ErrorBody),
}

/// The refusals every command to a game may answer, whatever the command.
#[derive(IntoResponses)]
#[allow(dead_code)] // a description for the document, never made
enum GameRefusals {
    #[response(
        status = 403,
        description = "The token or the asker's seat plays no side of this game (`not_a_side`), \
                       or a request with cookies came from another site (`foreign_origin`)"
    )]
    NotASide(ErrorBody),
    #[response(status = 404, description = "No game has this id")]
    NoGame(ErrorBody),
    #[response(
        status = 503,
        description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)"
    )]
    Unavailable(ErrorBody),
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "The L game server",
        description = "The HTTP and WebSocket API of `lgame serve` (docs/api.md): games, \
                       their moves and live updates, and questions about positions. Every \
                       refusal is a 4xx or 5xx with an `ErrorBody`.",
        license(name = "MIT OR Apache-2.0"),
    ),
    paths(
        healthz, openapi_json, create, import, show, play, undo, undo_accept, undo_decline,
        rematch, draw, draw_decline, resign, give_time, claim, record, websocket, analysis, position, classes, catalog, qr,
        diagram, records, index, profile_page, asset, accounts::seat, accounts::invitation,
        accounts::sign_up, accounts::account, accounts::session, accounts::close_account, accounts::log_in,
        accounts::log_out, accounts::change_password, accounts::end_other_sessions,
        accounts::list_sessions, accounts::end_one_session,
        accounts::export, accounts::my_games, accounts::profile, accounts::user_games,
        lobby::create_seek, lobby::list_seeks, lobby::show_seek, lobby::withdraw_seek,
        lobby::accept_seek, lobby::join_pool, lobby::show_ticket, lobby::leave_pool,
        lobby::websocket, ratings::user_ratings, ratings::leaderboard,
        arenas::create_arena, arenas::list_arenas, arenas::show_arena, arenas::join_arena,
        arenas::leave_arena, bots::make_bot, bots::create_token, bots::list_tokens,
        bots::revoke_token, bots::list_bots, bots::challenge, bots::show_challenge,
        bots::cancel_challenge, bots::accept_challenge, bots::decline_challenge,
        bots::events, bots::game_stream
    ),
    components(schemas(GameMessage, lobby::LobbyMessage, ErrorBody, PartialLError, IllegalMove)),
    tags(
        (name = "games", description = "Games: created, played, watched."),
        (name = "accounts", description = "Accounts, sessions, players' profiles and games."),
        (name = "lobby", description = "Seeks and quick pairing: games with strangers."),
        (name = "ratings", description = "Ratings, their history, leaderboards."),
        (name = "arenas", description = "Arena tournaments: made, joined, their standings."),
        (name = "bots", description = "Bot accounts, API tokens, challenges, the bots' events."),
        (name = "positions", description = "Questions about positions that are not games."),
        (name = "server", description = "The server itself."),
        (name = "page", description = "The web page's files."),
    )
)]
struct ApiDoc;

// ---- The rules library's and the solver's values, as they serialize ----

/// A position in its one-line form (notation.md): the rows from the top, `R`, `B`, `N` and
/// `.`, separated by `/`, then the side to move (`r` or `b`), e.g.
/// `NRR./.RB./.RB./.BBN r`.
#[derive(Serialize, ToSchema)]
pub struct Position(String);

/// A move in notation (notation.md): the L's four cells, then each neutral step, e.g.
/// `A1,A2,A3,B3 D1-D2`.
#[derive(Serialize, ToSchema)]
pub struct Move(String);

/// A cell's name: its column letter and row number, e.g. `B3`.
#[derive(Serialize, ToSchema)]
pub struct Square(String);

/// Cells by name, separated by commas in notation order, e.g. `A1,A2,A3,B3`.
#[derive(Serialize, ToSchema)]
pub struct Cells(String);

/// A board's size, e.g. `4x4`.
#[derive(Serialize, ToSchema)]
pub struct Board(String);

/// A rules text (notation.md, "Rules"), e.g. `classic`, `sudden-death`, `setup=kit`.
#[derive(Serialize, ToSchema)]
pub struct Rules(String);

/// A side.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The first player.
    Red,
    /// The second player.
    Blue,
}

/// What stands on a cell: a side's L or a neutral.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    /// Red's L.
    Red,
    /// Blue's L.
    Blue,
    /// A neutral piece.
    Neutral,
}

/// A value for the player to move.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ValueName {
    /// Won with best play.
    Win,
    /// Drawn with best play.
    Draw,
    /// Lost with best play.
    Loss,
}

/// The seats: `human`, or the computer player (`perfect`, `beginner:40`, ...).
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    /// Red's seat.
    red: String,
    /// Blue's seat.
    blue: String,
}

/// Who sits at each side.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayersBySide {
    /// Red's player.
    red: crate::response::Player,
    /// Blue's player.
    blue: crate::response::Player,
}

/// A time control: real time (a base and a Fischer increment), or days a move.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum TimeControl {
    RealTime(RealTimeControl),
    Correspondence(CorrespondenceControl),
}

/// Real time: each side's time at the start, and what each move adds.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RealTimeControl {
    /// Seconds each side starts with: 15 to 10800 (180 min).
    #[schema(minimum = 15, maximum = 10800)]
    initial_s: u32,
    /// Seconds added after each move: 0 to 180.
    #[schema(minimum = 0, maximum = 180)]
    increment_s: u32,
}

/// Correspondence: days a move.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CorrespondenceControl {
    /// Days for each move: 1 to 14.
    #[schema(minimum = 1, maximum = 14)]
    days: u32,
}

/// A game's clocks as of an answer or a message.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Real time: seconds each side started with.
    #[schema(required = false)]
    initial_s: u32,
    /// Real time: seconds added after each move.
    #[schema(required = false)]
    increment_s: u32,
    /// Correspondence: days a move.
    #[schema(required = false)]
    days: u32,
    /// `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical` (by `initial_s + 40 ×
    /// increment_s`) or `correspondence`.
    #[schema(pattern = "^(ultrabullet|bullet|blitz|rapid|classical|correspondence)$")]
    speed: String,
    /// Red's time left, in milliseconds.
    red_ms: i64,
    /// Blue's time left.
    blue_ms: i64,
    /// Whose time runs: `null` before both first moves and after the end.
    #[schema(required)]
    running: Option<Color>,
    /// Before both first moves: the side to move's time left to make its first move before
    /// the game is aborted.
    #[schema(required)]
    first_move_ms: Option<i64>,
}

/// What a claim asks for: `win` or `draw`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum Claim {
    Win,
    Draw,
}

/// Whether each side has a page open now.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Presence {
    /// Red's.
    red: bool,
    /// Blue's.
    blue: bool,
}

/// Each side's score, under scoring rules.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Scores {
    /// Red's score.
    red: u8,
    /// Blue's score.
    blue: u8,
}

/// A game's draw rules.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRules {
    /// Drawn once this many plies are played (`0`: no turn limit).
    #[schema(required)]
    turn_limit: Option<u32>,
    /// Drawn at this repetition of a position (`0` or `1`: no repetition draw).
    #[schema(required)]
    repetition: Option<u32>,
}

/// Why the rules refuse a move, as data: its `kind` and the fields its words name
/// (docs/api.md, "Reasons as data").
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// A cell of the move is off the board.
    OffBoard {
        /// The cell.
        cell: Square,
        /// The board.
        board: Board,
    },
    /// The four cells are not an L.
    NotAnL {
        /// The cells.
        cells: Cells,
    },
    /// The L would stay where it is.
    Unchanged {
        /// Its cells.
        cells: Cells,
    },
    /// The new L covers an occupied cell.
    #[serde(rename = "occupied")]
    LOverlaps {
        /// The cell.
        cell: Square,
        /// What stands there.
        piece: Piece,
    },
    /// The L move wins by symmetry, which ends the game: no neutral may move.
    NeutralAfterSymmetryWin,
    /// More neutral moves than the rules allow.
    TooManyNeutralMoves {
        /// The rules' limit.
        allowed: u32,
        /// The move's count.
        found: u32,
        /// The rules.
        rules: Rules,
    },
    /// The rules require a neutral move and the move has none.
    #[serde(rename = "neutral_required")]
    NeutralMoveRequired,
    /// A neutral move from a cell without a neutral.
    NoNeutral {
        /// The cell.
        cell: Square,
        /// What stands there instead (`null`: nothing).
        #[schema(required)]
        piece: Option<Piece>,
    },
    /// A neutral move to a cell that is not empty after the L move.
    NeutralTargetOccupied {
        /// The cell.
        cell: Square,
        /// What stands there.
        piece: Piece,
    },
}

/// Why cells chosen for an L cannot become a legal placement: no free L covers them, or
/// the rules' reason as for a move.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum PartialLError {
    /// No L on the board, free or not, covers all the cells.
    NoPlacement(NoPlacement),
    /// A rule forbids it, as it would forbid the whole move.
    Illegal(IllegalMove),
}

/// No L covers the cells.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoPlacement {
    /// `no_placement`.
    kind: NoPlacementKind,
    /// The cells.
    cells: Cells,
}

/// The kind of [`NoPlacement`].
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoPlacementKind {
    /// The only value.
    NoPlacement,
}

/// The solver's analysis of a position (the JSON of `lgame analyze --json`): its value and
/// every legal move's, best first.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Analysis {
    /// The position (canonical text).
    position: Position,
    /// The rules (canonical text).
    variant: Rules,
    /// For the player to move.
    value: ValueName,
    /// Plies to the end under best play, `null` for a draw.
    #[schema(required)]
    plies: Option<u16>,
    /// How many legal moves there are.
    legal_moves: usize,
    /// Every legal move, best first.
    moves: Vec<AnalysedMove>,
}

/// One move of an [`Analysis`].
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysedMove {
    /// The move.
    #[serde(rename = "move")]
    mv: Move,
    /// The position it leads to.
    position: Position,
    /// Its value for the mover.
    value: ValueName,
    /// Plies to the end counted from the analysed position, `null` for a draw.
    #[schema(required)]
    plies: Option<u16>,
}

/// Any JSON object (the OpenAPI document itself).
#[derive(Serialize, ToSchema)]
pub struct OpenApiDocument(BTreeMap<String, serde_json::Value>);

// ---- The paths ----

/// `GET /healthz`.
#[utoipa::path(get, path = "/healthz", tag = "server",
    summary = "The server's health: games and tables in memory",
    responses((status = 200, description = "The server answers", body = Health)))]
fn healthz() {}

/// `GET /api/openapi.json`.
#[utoipa::path(get, path = "/api/openapi.json", tag = "server",
    summary = "This document",
    responses((status = 200, description = "The OpenAPI 3.1 document of the API", body = OpenApiDocument)))]
fn openapi_json() {}

/// `POST /api/games`.
#[utoipa::path(post, path = "/api/games", tag = "games",
    summary = "Create a game",
    request_body = CreateRequest,
    responses(
        (status = 201, description = "The new game, with each human side's token", body = Created),
        (status = 400, description = "Unreadable JSON, or a variant, setup, player or turn limit refused", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape, or a variant too large to solve", body = ErrorBody),
        (status = 429, description = "Too many games created from this address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
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
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
        BodyRefusals,
    ))]
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
fn claim() {}

/// `GET /api/games/{id}/record`.
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    summary = "The game's record (notation.md)",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The record", body = String, content_type = "text/plain"),
        (status = 404, description = "No game has this id", body = ErrorBody),
        (status = 503, description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)", body = ErrorBody),
    ))]
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
fn websocket() {}

/// `GET /api/analysis`.
#[utoipa::path(get, path = "/api/analysis", tag = "positions",
    summary = "The solver's analysis of a position",
    params(AnalysisQuery),
    responses(
        (status = 200, description = "The value and every move's, best first", body = Analysis),
        (status = 400, description = "A variant or position refused, or a query parameter", body = ErrorBody),
        (status = 403, description = "A position of a rated game the asker is playing (`rated_game`)", body = ErrorBody),
        (status = 422, description = "A variant too large to solve, or not served", body = ErrorBody),
        (status = 429, description = "Too many analysis and classes requests from this address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "No table can be solved now (`Retry-After`)", body = ErrorBody),
    ))]
fn analysis() {}

/// `GET /api/position`.
#[utoipa::path(get, path = "/api/position", tag = "positions",
    summary = "A position laid out for a board, with its legal moves",
    params(PositionQuery),
    responses(
        (status = 200, description = "The position, its moves, and why cells cannot join `selected`", body = PositionAnswer),
        (status = 400, description = "A variant, position or cell refused, or a query parameter", body = ErrorBody),
        (status = 422, description = "Not served", body = ErrorBody),
    ))]
fn position() {}

/// `GET /api/classes`.
#[utoipa::path(get, path = "/api/classes", tag = "positions",
    summary = "Symmetry classes of a solved variant by value",
    params(ClassesQuery),
    responses(
        (status = 200, description = "One canonical position of each class, shortest first", body = ClassesAnswer),
        (status = 400, description = "A variant or value refused, or a query parameter", body = ErrorBody),
        (status = 422, description = "A variant too large to solve", body = ErrorBody),
        (status = 429, description = "Too many analysis and classes requests from this address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "No table can be solved now (`Retry-After`)", body = ErrorBody),
    ))]
fn classes() {}

/// `GET /api/catalog`.
#[utoipa::path(get, path = "/api/catalog", tag = "positions",
    summary = "What the page offers and shows: variants, setups, levels, the solved game's figures",
    responses((status = 200, description = "The catalog", body = Catalog)))]
fn catalog() {}

/// `GET /api/qr`.
#[utoipa::path(get, path = "/api/qr", tag = "positions",
    summary = "A QR code of a text",
    params(QrQuery),
    responses(
        (status = 200, description = "An SVG picture", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A text too long, or a query parameter refused", body = ErrorBody),
        (status = 422, description = "A text no QR code holds", body = ErrorBody),
    ))]
fn qr() {}

/// `GET /api/diagram`.
#[utoipa::path(get, path = "/api/diagram", tag = "positions",
    summary = "The library's SVG diagram of a position",
    params(DiagramQuery),
    responses(
        (status = 200, description = "An SVG picture", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A variant, position or move refused, or a query parameter", body = ErrorBody),
    ))]
fn diagram() {}

/// `POST /api/records`.
#[utoipa::path(post, path = "/api/records", tag = "positions",
    summary = "Read a record, or write a line of moves as one",
    request_body = RecordRequest,
    responses(
        (status = 200, description = "The record and the game it holds", body = RecordAnswer),
        (status = 400, description = "Unreadable JSON, record, start or move", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape, an illegal move (with `reason`), or neither a record nor moves", body = ErrorBody),
        BodyRefusals,
    ))]
fn records() {}

/// `GET /`.
#[utoipa::path(get, path = "/", tag = "page",
    summary = "The web page (docs/web.md)",
    responses(
        (status = 200, description = "The page", body = String, content_type = "text/html"),
        (status = 304, description = "Not modified (`If-None-Match`)"),
    ))]
fn index() {}

/// `GET /@/{name}`.
#[utoipa::path(get, path = "/@/{name}", tag = "page",
    summary = "The web page at a player's profile (it reads the path)",
    params(("name" = String, Path, description = "The player's username")),
    responses(
        (status = 200, description = "The page", body = String, content_type = "text/html"),
        (status = 304, description = "Not modified (`If-None-Match`)"),
    ))]
fn profile_page() {}

/// `GET /assets/{path}`.
#[utoipa::path(get, path = "/assets/{path}", tag = "page",
    summary = "A file of the web page",
    params(("path" = String, Path, description = "The file's path under `web/`")),
    responses(
        (status = 200, description = "The file, typed by its name", content(
            (String = "text/javascript"),
            (String = "text/css"),
            (String = "text/html"),
            (String = "image/svg+xml"),
            (String = "image/png"),
            (String = "image/x-icon"),
            (String = "application/json"),
            (String = "text/plain"),
            (String = "application/octet-stream"),
        )),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 404, description = "No such file", body = ErrorBody),
    ))]
fn asset() {}

/// Where `value` breaks the document's schema `name` (a component, e.g. `GameState`): the
/// validator's messages, none if it conforms.
#[cfg(test)]
pub(crate) fn schema_errors(name: &str, value: &serde_json::Value) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(json()).expect("the document is JSON");
    assert!(
        doc["components"]["schemas"].get(name).is_some(),
        "the document has no schema {name}"
    );
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    let validator = jsonschema::validator_for(&schema).expect("the document's schemas compile");
    validator
        .iter_errors(value)
        .map(|e| format!("{name}{}: {e}", e.instance_path()))
        .collect()
}

/// The page's JSDoc types of the document's schemas (`web/js/api-types.js`): a `@typedef`
/// for each, its description and its fields' (`@property`, `[name]` when it may be left
/// out), the types written as TypeScript reads them.
#[cfg(test)]
pub(crate) fn jsdoc() -> String {
    use serde_json::Value;

    fn comment(text: &str) -> String {
        text.replace("*/", "*\\/")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn literal(value: &Value) -> String {
        match value {
            Value::String(s) => format!("'{}'", s.replace('\'', "\\'")),
            other => other.to_string(),
        }
    }
    fn union(types: Vec<String>) -> String {
        let mut unique: Vec<String> = Vec::new();
        for t in types {
            if !unique.contains(&t) {
                unique.push(t);
            }
        }
        unique.join(" | ")
    }
    fn ts(schema: &Value) -> String {
        if let Some(r) = schema["$ref"].as_str() {
            return r.rsplit('/').next().unwrap_or(r).to_string();
        }
        if let Some(options) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
            return union(options.iter().map(ts).collect());
        }
        if let Some(parts) = schema["allOf"].as_array() {
            let parts: Vec<String> = parts.iter().map(|p| format!("({})", ts(p))).collect();
            return parts.join(" & ");
        }
        if let Some(values) = schema["enum"].as_array() {
            return union(values.iter().map(literal).collect());
        }
        match &schema["type"] {
            Value::Array(types) => union(
                types
                    .iter()
                    .map(|t| {
                        let mut one = schema.clone();
                        one["type"] = t.clone();
                        ts(&one)
                    })
                    .collect(),
            ),
            Value::String(t) => match t.as_str() {
                "string" => "string".into(),
                "integer" | "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => {
                    let item = ts(&schema["items"]);
                    if item.contains([' ', '|', '&']) {
                        format!("Array<{item}>")
                    } else {
                        format!("{item}[]")
                    }
                }
                "object" => object(schema),
                other => panic!("a schema of type {other}"),
            },
            _ if schema.get("properties").is_some() => object(schema),
            _ => "unknown".into(),
        }
    }
    fn object(schema: &Value) -> String {
        let required = |name: &str| {
            schema["required"]
                .as_array()
                .is_some_and(|r| r.iter().any(|n| n == name))
        };
        match (
            schema["properties"].as_object(),
            &schema["additionalProperties"],
        ) {
            (Some(props), _) => {
                let fields: Vec<String> = props
                    .iter()
                    .map(|(name, s)| {
                        let optional = if required(name) { "" } else { "?" };
                        format!("{name}{optional}: {}", ts(s))
                    })
                    .collect();
                format!("{{ {} }}", fields.join(", "))
            }
            (None, Value::Object(_)) => {
                format!("Record<string, {}>", ts(&schema["additionalProperties"]))
            }
            _ => "Record<string, unknown>".into(),
        }
    }

    let doc: Value = serde_json::from_str(json()).expect("the document is JSON");
    let mut out = String::from(
        "// @ts-check\n\
         // GENERATED from the server's OpenAPI document (GET /api/openapi.json, made from the\n\
         // Rust types by crates/lgame-web/src/openapi.rs): do not edit. The test\n\
         // openapi::tests::the_pages_api_types_are_the_documents fails when it differs;\n\
         // `LGAME_BLESS=1 cargo test -p lgame-web --lib openapi` writes it again.\n\
         // JSDoc only: the API's answers and bodies as the page reads and sends them.\n",
    );
    for (name, schema) in doc["components"]["schemas"].as_object().expect("schemas") {
        out.push_str("\n/**\n");
        if let Some(text) = schema["description"].as_str() {
            out.push_str(&format!(" * {}\n", comment(text)));
        }
        match schema["properties"].as_object() {
            Some(props) if schema.get("oneOf").is_none() && schema.get("allOf").is_none() => {
                out.push_str(&format!(" * @typedef {{Object}} {name}\n"));
                let required = schema["required"].as_array().cloned().unwrap_or_default();
                for (field, s) in props {
                    let shown = if required.iter().any(|r| r == field) {
                        field.clone()
                    } else {
                        format!("[{field}]")
                    };
                    let text = s["description"]
                        .as_str()
                        .or(s["oneOf"][0]["description"].as_str())
                        .map(|d| format!(" {}", comment(d)))
                        .unwrap_or_default();
                    out.push_str(&format!(" * @property {{{}}} {shown}{text}\n", ts(s)));
                }
            }
            _ => out.push_str(&format!(" * @typedef {{{}}} {name}\n", ts(schema))),
        }
        out.push_str(" */\n");
    }
    out.push_str("\nexport {};\n");
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use utoipa::openapi::path::HttpMethod;

    use super::*;

    /// The routers' sources: the games' and the accounts'.
    const API_RS: &str = concat!(
        include_str!("api.rs"),
        include_str!("accounts.rs"),
        include_str!("lobby/routes.rs"),
        include_str!("ratings/routes.rs"),
        include_str!("arena/routes.rs"),
        include_str!("bots.rs")
    );

    /// The routes of `api::router`, read from its source: each `.route("PATH", …)` and the
    /// methods it is given (`get(…)`, `post(…)`, chained or not), the path as OpenAPI writes
    /// it (`{*path}` → `{path}`).
    fn router_routes() -> BTreeSet<(String, String)> {
        let mut routes = BTreeSet::new();
        let mut rest = API_RS;
        while let Some(at) = rest.find(".route(") {
            rest = rest[at + ".route(".len()..].trim_start();
            let Some(quoted) = rest.strip_prefix('"') else {
                continue;
            };
            rest = quoted;
            let end = rest.find('"').expect("a route's path ends");
            let path = any_params(&rest[..end].replace("{*", "{"));
            // The route's methods: up to the next route, fallback or the router's end.
            let call = &rest[end..];
            let stop = [".route(", ".fallback", ".layer", ".with_state"]
                .iter()
                .filter_map(|s| call.find(s))
                .min()
                .unwrap_or(call.len());
            let call = &call[..stop];
            for method in ["get", "post", "put", "delete", "patch"] {
                let mut from = 0;
                while let Some(i) = call[from..].find(&format!("{method}(")) {
                    let i = from + i;
                    let before = call[..i].chars().next_back();
                    if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        routes.insert((method.to_uppercase(), path.clone()));
                    }
                    from = i + method.len();
                }
            }
        }
        routes
    }

    fn documented_routes() -> BTreeSet<(String, String)> {
        let doc = document();
        let mut routes = BTreeSet::new();
        for (path, item) in &doc.paths.paths {
            for (method, op) in [
                (HttpMethod::Get, &item.get),
                (HttpMethod::Post, &item.post),
                (HttpMethod::Put, &item.put),
                (HttpMethod::Delete, &item.delete),
                (HttpMethod::Patch, &item.patch),
            ] {
                if op.is_some() {
                    let name = serde_json::to_value(&method).unwrap();
                    let name = name.as_str().unwrap().to_uppercase();
                    routes.insert((name, any_params(path)));
                }
            }
        }
        routes
    }

    /// A path with its parameters' names left out (`/api/challenges/{}`): the router names
    /// one segment once (`{id}`), the document may name it by what each method takes there
    /// (`{username}` to challenge, `{id}` to read).
    fn any_params(path: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        for c in path.chars() {
            match c {
                '{' => {
                    inside = true;
                    out.push_str("{}");
                }
                '}' => inside = false,
                _ if inside => {}
                _ => out.push(c),
            }
        }
        out
    }

    #[test]
    fn the_pages_api_types_are_the_documents() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/web/js/api-types.js");
        let generated = jsdoc();
        if std::env::var_os("LGAME_BLESS").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == generated,
            "web/js/api-types.js is not the OpenAPI document's types: \
             `LGAME_BLESS=1 cargo test -p lgame-web --lib openapi` writes it again"
        );
    }

    #[test]
    fn the_schemas_refuse_what_the_server_never_answers() {
        let state = serde_json::json!({ "red": "human", "blue": "human" });
        assert!(schema_errors("Seats", &state).is_empty());
        let extra = serde_json::json!({ "red": "human", "blue": "human", "green": "human" });
        assert!(
            !schema_errors("Seats", &extra).is_empty(),
            "an unknown field"
        );
        let reason = serde_json::json!({ "kind": "occupied", "cell": "B1" });
        assert!(
            !schema_errors("IllegalMove", &reason).is_empty(),
            "a field missing"
        );
        let unknown = serde_json::json!({ "kind": "no_such_reason" });
        assert!(
            !schema_errors("PartialLError", &unknown).is_empty(),
            "an unknown kind"
        );
        let side = serde_json::json!("green");
        assert!(!schema_errors("Color", &side).is_empty(), "not a side");
    }

    #[test]
    fn every_route_of_the_router_is_in_the_document_and_no_other() {
        let router = router_routes();
        assert!(
            router.len() >= 20,
            "the routes of api::router are read from api.rs's `.route(\"PATH\", METHOD(...))` \
             calls; found only {router:?}: if the router moved, read it where it is now"
        );
        let documented = documented_routes();
        let undocumented: Vec<_> = router.difference(&documented).collect();
        let unrouted: Vec<_> = documented.difference(&router).collect();
        assert!(
            undocumented.is_empty() && unrouted.is_empty(),
            "routes of the router not in the OpenAPI document (describe them in openapi.rs): \
             {undocumented:?}; in the document, not routed: {unrouted:?}"
        );
    }

    #[test]
    fn every_operation_has_its_answers_schemas_and_its_request() {
        let doc: serde_json::Value = serde_json::from_str(json()).unwrap();
        let mut missing = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let what = format!("{} {path}", method.to_uppercase());
                let responses = op["responses"].as_object().unwrap();
                let ok = responses.keys().any(|s| s.starts_with('2') || s == "101");
                if !ok {
                    missing.push(format!("{what}: no success answer"));
                }
                for (status, answer) in responses {
                    let bodiless = status == "101" || status == "204" || status == "304";
                    let has_schema = answer["content"].as_object().is_some_and(|c| {
                        !c.is_empty() && c.values().all(|m| m.get("schema").is_some())
                    });
                    if !bodiless && !has_schema {
                        missing.push(format!("{what} {status}: no schema"));
                    }
                    if status.starts_with(['4', '5']) {
                        let schema = &answer["content"]["application/json"]["schema"]["$ref"];
                        if schema != "#/components/schemas/ErrorBody" {
                            missing.push(format!("{what} {status}: not an ErrorBody"));
                        }
                    }
                }
                if method == "post"
                    && op["requestBody"]["content"]["application/json"]["schema"].is_null()
                {
                    missing.push(format!("{what}: no request body schema"));
                }
                let params_in_path = path.matches('{').count();
                let path_params = op["parameters"]
                    .as_array()
                    .map_or(0, |ps| ps.iter().filter(|p| p["in"] == "path").count());
                if params_in_path != path_params {
                    missing.push(format!("{what}: {path_params} path parameters described"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "the OpenAPI document lacks:\n{}",
            missing.join("\n")
        );
        assert_eq!(doc["openapi"], "3.1.0");
        for (path, schema) in WEBSOCKETS {
            let ws = &doc["paths"][path]["get"];
            assert_eq!(ws["x-streaming"], "websocket", "{path} is marked a stream");
            assert_eq!(
                ws["x-websocket"]["server_messages"]["schema"]["$ref"],
                format!("#/components/schemas/{schema}")
            );
            assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
        }
    }
}
