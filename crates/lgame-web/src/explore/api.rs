//! The positions' HTTP types and paths (docs/api.md, "Questions about positions"): the
//! queries and bodies read, the answers, and the paths described for the OpenAPI document
//! (`openapi.rs`). The handlers are in `api.rs`.

use std::collections::BTreeMap;

use lgame::position::PartialLError;
use lgame::{ByColor, Color, Move, Position, Rules, Square};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::openapi as schema;
use crate::openapi::BodyRefusals;
use crate::response::ErrorBody;

/// The answer to `GET /api/analysis`: the solver's analysis, the JSON of
/// `lgame analyze --json`.
pub use lgame_solver::Analysis;

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

/// `GET /api/position`: a position under a variant, and the cells chosen so far.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PositionQuery {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The position: either form, a setup name or `start`.
    pub position: String,
    /// Cells chosen so far for the mover's next L, `A1,B1`.
    #[serde(default)]
    pub selected: Option<String>,
}

/// `GET /api/classes`: a variant, a value and optionally a distance.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ClassesQuery {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// `win`, `draw` or `loss` for the player to move.
    #[param(value_type = crate::openapi::ValueName)]
    pub value: String,
    /// Only positions at this distance in plies.
    #[serde(default)]
    #[param(minimum = 0, maximum = 65535)]
    pub plies: Option<u16>,
}

/// `POST /api/records`: a record to read, or a line of moves to write as one.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// A record's text (notation.md) to read.
    #[serde(default)]
    pub record: Option<String>,
    /// Or: the rules, the start and the moves of a line to write.
    #[serde(default)]
    pub variant: Option<String>,
    /// The start: a position, a setup name or `start` (default).
    #[serde(default)]
    pub start: Option<String>,
    /// The moves of the line, in notation.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
}

/// `GET /api/diagram`: a position under a variant, and a move to mark.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The position: either form, a setup name or `start`.
    pub position: String,
    /// A move to mark on it.
    #[serde(default)]
    pub highlight: Option<String>,
}

/// The answer to `GET /api/position`: a position laid out for drawing, its legal moves,
/// and why each cell cannot join the cells selected so far.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionAnswer {
    /// The rules.
    #[schema(value_type = schema::Rules)]
    pub variant: Rules,
    /// The position (one-line form).
    #[schema(value_type = schema::Position)]
    pub position: Position,
    /// The board's columns.
    pub width: u8,
    /// The board's rows.
    pub height: u8,
    /// The side to move.
    #[schema(value_type = schema::Color)]
    pub turn: Color,
    /// The scores, under scoring rules.
    #[schema(value_type = Option<schema::Scores>, required)]
    pub scores: Option<ByColor<u8>>,
    /// Where the pieces stand.
    pub pieces: Pieces,
    /// How a finished position ended.
    #[schema(required)]
    pub outcome: Option<OutcomeAnswer>,
    /// How many legal moves there are.
    pub legal_moves: u64,
    /// The placements the mover's L may take.
    #[schema(value_type = Vec<Vec<schema::Square>>)]
    pub l_moves: Vec<Vec<Square>>,
    /// Every legal move; `None` above the listing limit.
    #[schema(required)]
    pub moves: Option<Vec<MoveAnswer>>,
    /// The cells selected so far.
    #[schema(value_type = Vec<schema::Square>)]
    pub selected: Vec<Square>,
    /// For each cell that cannot join the selected ones, why (in words), by cell name.
    pub refusals: BTreeMap<String, String>,
    /// The same reasons as data.
    #[schema(value_type = BTreeMap<String, schema::PartialLError>)]
    pub refusal_reasons: BTreeMap<String, PartialLError>,
}

/// Where the pieces stand.
#[derive(Debug, Serialize, ToSchema)]
pub struct Pieces {
    /// Red's L.
    #[schema(value_type = Vec<schema::Square>)]
    pub red: Vec<Square>,
    /// Blue's L.
    #[schema(value_type = Vec<schema::Square>)]
    pub blue: Vec<Square>,
    /// The neutral pieces.
    #[schema(value_type = Vec<schema::Square>)]
    pub neutrals: Vec<Square>,
}

/// The end of a finished position.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutcomeAnswer {
    /// The side that won.
    #[schema(value_type = schema::Color)]
    pub winner: Color,
    /// `trapped`, `symmetry` or `score target`.
    pub ending: &'static str,
    /// In words.
    pub conclusion: String,
}

/// A legal move as the board draws it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveAnswer {
    /// The move.
    #[serde(rename = "move")]
    #[schema(value_type = schema::Move)]
    pub mv: Move,
    /// The L's new cells.
    #[schema(value_type = Vec<schema::Square>)]
    pub l: Vec<Square>,
    /// Each neutral step, from and to.
    #[schema(value_type = Vec<Vec<schema::Square>>)]
    pub neutrals: Vec<[Square; 2]>,
    /// The position it leads to.
    #[schema(value_type = schema::Position)]
    pub position: Position,
}

/// The answer to `GET /api/classes`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassesAnswer {
    /// The rules.
    #[schema(value_type = schema::Rules)]
    pub variant: Rules,
    /// `win`, `draw` or `loss` for the player to move.
    #[schema(value_type = schema::ValueName)]
    pub value: &'static str,
    /// The distance asked for.
    #[schema(required)]
    pub plies: Option<u16>,
    /// How many classes there are (more than are listed above the limit).
    pub total: usize,
    /// Every distance that occurs.
    pub distances: Vec<u16>,
    /// One position of each class, shortest distance first (at most 1,000).
    pub positions: Vec<ClassAnswer>,
}

/// One symmetry class: its canonical position, Red to move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassAnswer {
    /// The class's canonical position.
    #[schema(value_type = schema::Position)]
    pub position: Position,
    /// `win`, `draw` or `loss` for the player to move.
    #[schema(value_type = schema::ValueName)]
    pub value: &'static str,
    /// The distance to the end in plies; `null` for a draw.
    #[schema(required)]
    pub plies: Option<u16>,
}

/// The answer to `POST /api/records`: a record and the game it holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordAnswer {
    /// The record's text.
    pub record: String,
    /// The rules of the start.
    #[schema(value_type = schema::Rules)]
    pub variant: Rules,
    /// The starting position.
    #[schema(value_type = schema::Position)]
    pub start: Position,
    /// The moves, in order.
    #[schema(value_type = Vec<schema::Move>)]
    pub moves: Vec<Move>,
    /// The position after each move.
    #[schema(value_type = Vec<schema::Position>)]
    pub positions: Vec<Position>,
    /// The result token.
    pub result: String,
    /// The end in words, if the record's game ended.
    #[schema(required)]
    pub conclusion: Option<String>,
}

/// `GET /api/analysis`.
#[utoipa::path(get, path = "/api/analysis", tag = "positions",
    summary = "The solver's analysis of a position",
    params(AnalysisQuery),
    responses(
        (status = 200, description = "The value and every move's, best first", body = schema::Analysis),
        (status = 400, description = "A variant or position refused, or a query parameter", body = ErrorBody),
        (status = 403, description = "A position of a rated game the asker is playing (`rated_game`)", body = ErrorBody),
        (status = 422, description = "A variant too large to solve, or not served", body = ErrorBody),
        (status = 429, description = "Too many analysis and classes requests from this address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "No table can be solved now (`Retry-After`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
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
#[allow(dead_code)] // a description for the document, never called
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
#[allow(dead_code)] // a description for the document, never called
fn classes() {}

/// `GET /api/qr`.
#[utoipa::path(get, path = "/api/qr", tag = "positions",
    summary = "A QR code of a text",
    params(QrQuery),
    responses(
        (status = 200, description = "An SVG picture", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A text too long, or a query parameter refused", body = ErrorBody),
        (status = 422, description = "A text no QR code holds", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
fn qr() {}

/// `GET /api/diagram`.
#[utoipa::path(get, path = "/api/diagram", tag = "positions",
    summary = "The library's SVG diagram of a position",
    params(DiagramQuery),
    responses(
        (status = 200, description = "An SVG picture", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "A variant, position or move refused, or a query parameter", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
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
#[allow(dead_code)] // a description for the document, never called
fn records() {}
