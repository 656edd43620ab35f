//! Errors as the API answers them: a status and `{"error": "..."}`, with the game's state
//! when a move came too late, and the rules' reason as data for an illegal move (so that a
//! page can say it in its own language).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use lgame::{IllegalMove, PartialLError, Piece};
use serde_json::{json, Value};

use crate::games::color_name;

/// A refused request.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// The game's current state, for a conflict (a stale move, a game over).
    pub state: Option<Value>,
    /// Why the rules refuse a move, as data ([`illegal_reason`]).
    pub reason: Option<Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            state: None,
            reason: None,
        }
    }

    /// The same refusal with the rules' reason as data.
    pub fn with_reason(mut self, reason: Value) -> ApiError {
        self.reason = Some(reason);
        self
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(id: &str) -> ApiError {
        // The id is the client's own text; keep the message short whatever it sent.
        let shown: String = id.chars().take(40).collect();
        ApiError::new(StatusCode::NOT_FOUND, format!("no game '{shown}'"))
    }

    pub fn forbidden() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "the token does not play a side of this game",
        )
    }

    pub fn conflict(message: impl Into<String>, state: Value) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
            state: Some(state),
            reason: None,
        }
    }

    pub fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
        tracing::error!(error = %e, "{what}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what}: internal error"),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let Some(state) = self.state {
            body["state"] = state;
        }
        if let Some(reason) = self.reason {
            body["reason"] = reason;
        }
        (self.status, Json(body)).into_response()
    }
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::L(color) => color_name(color),
        Piece::Neutral => "neutral",
    }
}

/// Why the rules refuse a move, as data: its `kind` and the cells, pieces and counts the
/// words need (docs/api.md lists them).
pub fn illegal_reason(reason: &IllegalMove) -> Value {
    use IllegalMove::*;
    match reason {
        GameOver { .. } => json!({ "kind": "game_over" }),
        OffBoard { cell, board } => {
            json!({ "kind": "off_board", "cell": cell.to_string(), "board": board.to_string() })
        }
        NotAnL { cells } => json!({ "kind": "not_an_l", "cells": cells.to_cell_list() }),
        Unchanged { cells } => json!({ "kind": "unchanged", "cells": cells.to_cell_list() }),
        LOverlaps { cell, piece } => {
            json!({ "kind": "occupied", "cell": cell.to_string(), "piece": piece_name(*piece) })
        }
        NeutralAfterSymmetryWin => json!({ "kind": "neutral_after_symmetry_win" }),
        TooManyNeutralMoves {
            allowed,
            found,
            rules,
        } => json!({ "kind": "too_many_neutral_moves", "allowed": allowed, "found": found,
                     "rules": rules.to_string() }),
        NeutralMoveRequired => json!({ "kind": "neutral_required" }),
        NoNeutral { cell, piece } => json!({ "kind": "no_neutral", "cell": cell.to_string(),
                                             "piece": piece.map(piece_name) }),
        NeutralTargetOccupied { cell, piece } => json!({ "kind": "neutral_target_occupied",
            "cell": cell.to_string(), "piece": piece_name(*piece) }),
    }
}

/// Why cells cannot become the mover's next L, as data: an [`illegal_reason`], or
/// `no_placement` with the cells.
pub fn partial_l_reason(reason: &PartialLError) -> Value {
    match reason {
        PartialLError::Illegal(e) => illegal_reason(e),
        PartialLError::NoPlacement { cells } => {
            json!({ "kind": "no_placement", "cells": cells.to_cell_list() })
        }
    }
}
