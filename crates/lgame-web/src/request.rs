//! The bodies and query strings the API reads (docs/api.md): unknown fields are refused.

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

/// `POST /api/games`: a new game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub setup: Option<String>,
    pub red: String,
    pub blue: String,
    #[serde(default)]
    pub repetition: Option<u32>,
    #[serde(default)]
    pub turn_limit: Option<u32>,
}

/// `POST /api/games/import`: a game from its record.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    pub record: String,
    #[serde(default)]
    pub red: Option<String>,
    #[serde(default)]
    pub blue: Option<String>,
}

/// `POST /api/games/{id}/moves`: a move for a ply.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    pub token: String,
    pub ply: u64,
    #[serde(rename = "move")]
    pub mv: String,
}

/// The body of a change that needs only the side's token (undo, draw, resign, rematch).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    pub token: String,
}

/// `GET /api/games/{id}` and its WebSocket: the token names the side asking.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    #[serde(default)]
    pub token: Option<String>,
}

/// `GET /api/analysis`: a position under a variant.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AnalysisQuery {
    #[serde(default)]
    pub variant: Option<String>,
    pub position: String,
}

/// `GET /api/qr`: the text to encode.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct QrQuery {
    pub text: String,
}
