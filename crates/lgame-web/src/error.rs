//! Errors as the API answers them: a status and `{"error": "...", "kind": "..."}`, with the
//! game's state when a change came too late, and the rules' reason as data for an illegal
//! move, so that a page can say every refusal in its own language.
//!
//! A refusal of the games or of a position's questions is a [`GameError`]; which status
//! and kind answer it is decided here, in one `match`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::games::{Conflict, GameError};
use crate::response::ErrorBody;
use crate::store::Trouble;

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
                kind: status_kind(status),
                input: None,
                state: None,
                reason: None,
            },
            retry_after: None,
        }
    }

    /// The same refusal with a kind of its own.
    pub fn kind(mut self, kind: &'static str) -> ApiError {
        self.body.kind = kind;
        self
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
        let (message, input) = (e.to_string(), e.input());
        let (status, kind, state, reason) = match e {
            GameError::Invalid { what, .. } => (StatusCode::BAD_REQUEST, what.kind(), None, None),
            GameError::NotASide => (StatusCode::FORBIDDEN, "not_a_side", None, None),
            GameError::NoGame(_) => (StatusCode::NOT_FOUND, "no_game", None, None),
            GameError::Conflict { why, state } => {
                (StatusCode::CONFLICT, conflict_kind(&why), Some(state), None)
            }
            GameError::Illegal { reason, .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_move",
                None,
                Some(Box::new(reason)),
            ),
            GameError::TooLarge(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "variant_too_large",
                None,
                None,
            ),
            GameError::Unservable(_) => {
                (StatusCode::UNPROCESSABLE_ENTITY, "unservable", None, None)
            }
            GameError::Outdated => (StatusCode::CONFLICT, "outdated", None, None),
            GameError::Unavailable(_, trouble) => {
                let (kind, seconds) = match trouble {
                    Trouble::Unreachable => ("unavailable", 5),
                    Trouble::Full => ("storage_full", 60),
                    Trouble::ReadOnly => ("storage_read_only", 60),
                };
                return ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
                    .kind(kind)
                    .retry_after(seconds);
            }
            GameError::Internal { what, error } => return ApiError::internal(what, error),
        };
        ApiError {
            status,
            body: ErrorBody {
                error: message,
                kind,
                input,
                state,
                reason,
            },
            retry_after: None,
        }
    }
}

/// The kind of a refusal of the HTTP layer (a body, an endpoint, a limit), by its status.
fn status_kind(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "body_too_large",
        StatusCode::TOO_MANY_REQUESTS => "too_many_requests",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    }
}

/// The kind of a change the game refuses as it stands.
fn conflict_kind(why: &Conflict) -> &'static str {
    match why {
        Conflict::Over(_) => "game_over",
        Conflict::Stale { .. } => "stale_move",
        Conflict::NotYourTurn { .. } => "not_your_turn",
        Conflict::NothingToUndo => "nothing_to_undo",
        Conflict::UndoAsked(_) => "undo_asked",
        Conflict::NoUndoRequest => "no_undo_request",
        Conflict::OwnUndoRequest => "own_undo_request",
        Conflict::DrawDeclined { .. } => "draw_declined",
        Conflict::SeatTaken(_) => "seat_taken",
        Conflict::NotOver => "not_over",
        Conflict::RematchGiven(_) => "rematch_given",
        Conflict::NoDrawOffer => "no_draw_offer",
        Conflict::OutOfTime(_) => "out_of_time",
        Conflict::NoClock => "no_clock",
        Conflict::OpponentHere(_) => "opponent_here",
        Conflict::Refused(_) => "refused",
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

#[cfg(test)]
mod tests {
    use super::*;

    fn body(e: GameError) -> ErrorBody {
        ApiError::from(e).body
    }

    #[test]
    fn refusals_of_text_say_what_was_refused_as_data() {
        let variant = body(crate::games::parse_rules("hexagonal").unwrap_err());
        assert_eq!(
            (variant.kind, variant.input.as_deref()),
            ("bad_variant", Some("hexagonal"))
        );
        let rules = crate::games::parse_rules("classic").unwrap();
        let setup = body(crate::games::with_setup(&rules, "nowhere").unwrap_err());
        // A move the rules refuse names the move as written.
        let illegal = body(GameError::Illegal {
            input: "A1,A2,A3,B1".into(),
            message: "move 'A1,A2,A3,B1' is illegal in … : the L cannot go there".into(),
            reason: lgame::moves::IllegalMove::NeutralMoveRequired,
        });
        assert_eq!(
            (illegal.kind, illegal.input.as_deref()),
            ("illegal_move", Some("A1,A2,A3,B1"))
        );
        assert_eq!(
            (setup.kind, setup.input.as_deref()),
            ("bad_setup", Some("nowhere"))
        );
        let position = body(crate::explore::read_position(None, "not a position").unwrap_err());
        assert_eq!(
            (position.kind, position.input.as_deref()),
            ("bad_position", Some("not a position"))
        );
        let seat = body(crate::games::parse_seat("red", "grandmaster").unwrap_err());
        assert_eq!(
            (seat.kind, seat.input.as_deref()),
            ("bad_player", Some("grandmaster"))
        );
        let value = body(crate::explore::read_value("better").unwrap_err());
        assert_eq!(value.kind, "bad_value");
    }

    #[test]
    fn refusals_of_the_http_layer_have_kinds_by_status() {
        let e = ApiError::new(StatusCode::NOT_FOUND, "no such file");
        assert_eq!((e.body.kind, e.body.input), ("not_found", None));
        assert_eq!(
            ApiError::new(StatusCode::TOO_MANY_REQUESTS, "slow down")
                .body
                .kind,
            "too_many_requests"
        );
        assert_eq!(
            ApiError::new(StatusCode::BAD_REQUEST, "?").body.kind,
            "bad_request"
        );
        let missing = body(GameError::NoGame("abc".into()));
        assert_eq!(
            (missing.kind, missing.input.as_deref()),
            ("no_game", Some("abc"))
        );
    }
}
