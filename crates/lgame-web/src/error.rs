//! Errors as the API answers them: a status and `{"error": "..."}`, with the game's state
//! when a move came too late.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

/// A refused request.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// The game's current state, for a conflict (a stale move, a game over).
    pub state: Option<Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            state: None,
        }
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
        (self.status, Json(body)).into_response()
    }
}
