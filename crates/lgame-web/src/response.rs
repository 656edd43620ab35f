//! The JSON answers of the HTTP layer itself, as types: a refusal, a new game's answer (its
//! links and invitation), the server's health. What `docs/api.md` documents, field by field
//! (a test reads the document's examples against them). Plain data, no logic: the handlers
//! fill them in, serde writes them. A game's state, its players and its WebSocket messages
//! are the games feature's (`games/view.rs`); each feature's own answers are in its HTTP
//! part (`games/api.rs`, `lobby/api.rs`, …).
//!
//! Values of the rules library go out as the library serializes them (its `serde`
//! feature): positions, moves, cells and rules in their notation, sides as `red` and
//! `blue`, and the rules' reasons as data with a `kind`.

use lgame::moves::IllegalMove;
use lgame::Color;
use serde::Serialize;
use utoipa::ToSchema;

use crate::games::GameState;
use crate::openapi as schema;

/// A refusal: `{"error": "...", "kind": "..."}`, with the client's text that was refused,
/// the game's state for a conflict and the rules' reason for an illegal move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What is wrong, in (English) words.
    pub error: String,
    /// What is wrong, as data: a page words the refusal in its own language by it
    /// (`docs/api.md`, "Refusals").
    pub kind: &'static str,
    /// The client's text that was refused (a variant, a position, a move…), when the
    /// refusal names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub input: Option<String>,
    /// The game's current state (a 409).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = GameState, required = false)]
    pub state: Option<Box<GameState>>,
    /// Why the rules refuse a move, as data (a 422 for an illegal move).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = schema::IllegalMove, required = false)]
    pub reason: Option<Box<IllegalMove>>,
}

/// The answer to `POST /api/games` and `POST /api/games/import` (201).
#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    /// The new game's id.
    pub id: String,
    /// The game's public address (a path on this server).
    pub spectator_url: String,
    /// The web page watching the game (an address on this server).
    pub watch_page: String,
    /// The game's public WebSocket (a path).
    pub ws: String,
    /// The human sides the asker plays only: every human side of a game nobody holds, else
    /// the held ones; never an invited side (its seat is the guest's alone).
    pub players: Players,
    /// The new game's state.
    pub state: GameState,
    /// The one-time invitation to a seat (asked with `invite`): give its link to one
    /// person.
    #[schema(required)]
    pub invitation: Option<Invitation>,
}

/// A one-time invitation to take a game's seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct Invitation {
    /// The seat's side.
    #[schema(value_type = schema::Color)]
    pub side: Color,
    /// The page's address that offers the seat (a path on this server).
    pub url: String,
}

/// The links of each human side of a new game.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Players {
    /// Red's, if Red is a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = PlayerLinks, required = false)]
    pub red: Option<PlayerLinks>,
    /// Blue's, if Blue is a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = PlayerLinks, required = false)]
    pub blue: Option<PlayerLinks>,
}

/// A human side's secret and its private URLs.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerLinks {
    /// The side's secret: it alone acts for the side. Given once.
    pub token: String,
    /// The game's address with the token (private).
    pub url: String,
    /// The game's WebSocket with the token (private).
    pub ws: String,
}

/// The answer to `GET /healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// Games held in memory now.
    pub games_in_memory: usize,
    /// The solved tables in memory.
    pub tables: TablesHealth,
}

/// The solved tables in memory (`GET /healthz`).
#[derive(Debug, Serialize, ToSchema)]
pub struct TablesHealth {
    /// Tables held, ready.
    pub held: usize,
    /// Their bytes.
    pub bytes: u64,
    /// The memory budget (`--table-memory`); `None`: no bound.
    #[schema(required)]
    pub budget: Option<u64>,
    /// Tables being solved now.
    pub solving: usize,
    /// Tables solved since the server started.
    pub solves: u64,
}
