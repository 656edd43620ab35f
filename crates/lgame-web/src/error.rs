//! Errors as the API answers them: a status and `{"error": "..."}`, with the game's state
//! when a change came too late, and the rules' reason as data for an illegal move (so that
//! a page can say it in its own language).
//!
//! A refusal of the games or of a position's questions is a [`GameError`]; which status
//! answers it is decided here, in one `match`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::games::GameError;
use crate::response::ErrorBody;

/// A refused request.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: ErrorBody,
    /// Seconds after which asking again may succeed (a `Retry-After` header), for a 429.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// A refusal of the HTTP layer itself (a body, an endpoint, a limit), with its status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
                state: None,
                reason: None,
            },
            retry_after: None,
        }
    }

    /// The same refusal, saying when to ask again.
    pub fn retry_after(self, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds),
            ..self
        }
    }

    /// A failure of the server while doing `what`: logged, and answered without details.
    pub fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
        tracing::error!(error = %e, "{what}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what}: internal error"),
        )
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let message = e.to_string();
        let (status, state, reason) = match e {
            GameError::Invalid(_) => (StatusCode::BAD_REQUEST, None, None),
            GameError::NotASide => (StatusCode::FORBIDDEN, None, None),
            GameError::NoGame(_) => (StatusCode::NOT_FOUND, None, None),
            GameError::Conflict { state, .. } => (StatusCode::CONFLICT, Some(state), None),
            GameError::Illegal { reason, .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, None, Some(reason))
            }
            GameError::Unservable(_) => (StatusCode::UNPROCESSABLE_ENTITY, None, None),
            GameError::Internal { what, error } => return ApiError::internal(what, error),
        };
        ApiError {
            status,
            body: ErrorBody {
                error: message,
                state,
                reason,
            },
            retry_after: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
