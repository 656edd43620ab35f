//! The positions' HTTP paths (docs/api.md, "Questions about positions"), described for the
//! OpenAPI document (`openapi.rs`), and the queries only the handlers read; the questions
//! the feature reads and its answers are `explore.rs`'s. The handlers are in `routes.rs`.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::explore::{ClassesAnswer, DiagramQuery, PositionAnswer, PositionQuery};
use crate::explore::{RecordAnswer, RecordRequest};
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
