//! The bodies and query strings the API reads (docs/api.md): unknown fields are refused.

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

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
}

/// `POST /api/games/{id}/moves`: a move for a ply.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The token of the side moving.
    pub token: String,
    /// The ply the move is for: the state's `plies + 1`.
    pub ply: u64,
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The body of a change that needs only the side's token (undo, draw, resign, rematch).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The token of the side asking.
    pub token: String,
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
