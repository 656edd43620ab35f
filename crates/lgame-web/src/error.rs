//! Errors as the API answers them: a status and `{"error": "...", "kind": "..."}`, with the
//! game's state when a change came too late, and the rules' reason as data for an illegal
//! move, so that a page can say every refusal in its own language.
//!
//! A refusal of the games or of a position's questions is a [`GameError`], of the accounts
//! an [`AccountError`], of the arenas an [`ArenaError`], of the bots a [`BotError`], of fair
//! play a [`FairPlayError`], of the lobby a [`LobbyError`], of the ratings a [`RatingsError`],
//! of Web Push a [`PushError`];
//! which status and kind answer each is decided here, in one `match` per type.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::accounts::AccountError;
use crate::arena::ArenaError;
use crate::bots::BotError;
use crate::fairplay::FairPlayError;
use crate::games::{Conflict, GameError};
use crate::lobby::LobbyError;
use crate::mail::MailError;
use crate::push::PushError;
use crate::ratings::RatingsError;
use crate::response::ErrorBody;
use crate::store::Trouble;

/// Every refusal's `kind` the server can answer (docs/api.md, "Refusals"): the page has
/// words for each in every language it offers (a browser test checks), and a unit test below
/// finds every kind written in the server's source in this list.
#[rustfmt::skip]
pub const ERROR_KINDS: [&str; 85] = [
    // Texts the library cannot read (`games::Input`), and requests that cannot be.
    "bad_variant", "bad_setup", "bad_position", "bad_cell", "bad_move", "bad_record",
    "bad_player", "bad_value", "turn_limit_too_long", "game_too_long", "bad_clock", "invalid",
    "illegal_move", "variant_too_large", "unservable",
    // Games: who asks, which game, and the game as it stands (`games::Conflict`).
    "not_a_side", "no_game", "outdated", "game_over", "stale_move", "not_your_turn",
    "nothing_to_undo", "undo_asked", "no_undo_request", "own_undo_request", "draw_declined",
    "seat_taken", "not_over", "rematch_given", "no_draw_offer", "out_of_time", "no_clock",
    "opponent_here", "refused",
    // Accounts and sessions.
    "no_session", "wrong_credentials", "username_taken", "username_lookalike", "bad_username",
    "bad_password", "bad_email", "no_user", "disabled", "foreign_origin", "no_such_session",
    // Mail.
    "no_mail", "bad_code",
    // Fair play, connections and the storage.
    "same_browser", "too_many_connections", "storage_full", "storage_read_only",
    // The lobby and quick pairing.
    "no_seek", "not_your_seek", "seek_gone", "seek_taken", "own_seek", "too_many_seeks",
    "no_ticket", "ticket_gone", "paired",
    // Ratings and arenas.
    "no_category", "not_rated", "rated_game", "rating_range", "no_arena", "arena_finished",
    // Bots, their tokens and challenges.
    "bad_token", "token_scope", "not_a_bot", "has_games", "no_token", "no_challenge",
    "not_your_challenge", "challenge_settled", "bot_offline",
    // Push subscriptions.
    "bad_subscription", "no_subscription",
    // The HTTP layer, by status.
    "not_found", "method_not_allowed", "timeout", "body_too_large", "too_many_requests",
    "unavailable", "bad_request", "internal",
];

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

    /// The same refusal with a kind of its own (one of [`ERROR_KINDS`]).
    pub fn kind(mut self, kind: &'static str) -> ApiError {
        debug_assert!(
            ERROR_KINDS.contains(&kind),
            "'{kind}' is not in ERROR_KINDS"
        );
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

impl From<getrandom::Error> for ApiError {
    /// No random bytes for a secret or an id: the server's failure.
    fn from(e: getrandom::Error) -> ApiError {
        GameError::from(e).into()
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

// Accounts and bots.

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            AccountError::Game(e) => return e.into(),
            AccountError::NoSession => (StatusCode::UNAUTHORIZED, "no_session"),
            AccountError::WrongCredentials => (StatusCode::UNAUTHORIZED, "wrong_credentials"),
            AccountError::Disabled => (StatusCode::FORBIDDEN, "disabled"),
            AccountError::BadUsername(_) => (StatusCode::BAD_REQUEST, "bad_username"),
            AccountError::BadPassword(_) => (StatusCode::BAD_REQUEST, "bad_password"),
            AccountError::BadEmail(_) => (StatusCode::BAD_REQUEST, "bad_email"),
            AccountError::Invalid(_) => (StatusCode::BAD_REQUEST, "invalid"),
            AccountError::UsernameTaken(_) => (StatusCode::CONFLICT, "username_taken"),
            AccountError::UsernameLookalike { .. } => (StatusCode::CONFLICT, "username_lookalike"),
            AccountError::NoUser(_) => (StatusCode::NOT_FOUND, "no_user"),
            AccountError::NoSuchSession(_) => (StatusCode::NOT_FOUND, "no_such_session"),
        };
        ApiError::new(status, message).kind(kind)
    }
}

impl From<MailError> for ApiError {
    fn from(e: MailError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            MailError::Account(e) => return e.into(),
            MailError::NotConfigured => (StatusCode::SERVICE_UNAVAILABLE, "no_mail"),
            MailError::BadCode => (StatusCode::BAD_REQUEST, "bad_code"),
            MailError::UnknownLink => (StatusCode::NOT_FOUND, "not_found"),
        };
        ApiError::new(status, message).kind(kind)
    }
}

impl From<BotError> for ApiError {
    fn from(e: BotError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            BotError::Game(e) => return e.into(),
            BotError::FairPlay(e) => return e.into(),
            BotError::NotABot => (StatusCode::FORBIDDEN, "not_a_bot"),
            BotError::Person(_) => (StatusCode::BAD_REQUEST, "not_a_bot"),
            BotError::HasGames => (StatusCode::CONFLICT, "has_games"),
            BotError::NoToken(_) => (StatusCode::NOT_FOUND, "no_token"),
            BotError::NoChallenge(_) => (StatusCode::NOT_FOUND, "no_challenge"),
            BotError::NoPlayer(_) => (StatusCode::NOT_FOUND, "no_user"),
            BotError::NotRated { .. } => (StatusCode::BAD_REQUEST, "not_rated"),
            BotError::RatedNeedsAccount => (StatusCode::UNAUTHORIZED, "no_session"),
            BotError::BotOffline(_) => (StatusCode::CONFLICT, "bot_offline"),
            BotError::Answered | BotError::NotPending(_) => {
                (StatusCode::CONFLICT, "challenge_settled")
            }
            BotError::NotTheBot | BotError::NotTheChallenger => {
                (StatusCode::FORBIDDEN, "not_your_challenge")
            }
        };
        ApiError::new(status, message).kind(kind)
    }
}

impl From<FairPlayError> for ApiError {
    fn from(e: FairPlayError) -> ApiError {
        match e {
            FairPlayError::Game(e) => e.into(),
            FairPlayError::SameBrowser => {
                ApiError::new(StatusCode::FORBIDDEN, e.to_string()).kind("same_browser")
            }
        }
    }
}

// The lobby, arenas and the tables.

impl From<ArenaError> for ApiError {
    fn from(e: ArenaError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            ArenaError::AccountOnly => (StatusCode::UNAUTHORIZED, "no_session"),
            ArenaError::NotRated { .. } => (StatusCode::BAD_REQUEST, "not_rated"),
            ArenaError::NoArena(_) => (StatusCode::NOT_FOUND, "no_arena"),
            ArenaError::Finished => (StatusCode::CONFLICT, "arena_finished"),
            ArenaError::Game(e) => return e.into(),
        };
        ApiError::new(status, message).kind(kind)
    }
}

impl From<RatingsError> for ApiError {
    fn from(e: RatingsError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            RatingsError::NoCategory(_) => (StatusCode::NOT_FOUND, "no_category"),
            RatingsError::RatedGame => (StatusCode::FORBIDDEN, "rated_game"),
            RatingsError::Game(e) => return e.into(),
        };
        ApiError::new(status, message).kind(kind)
    }
}

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            LobbyError::AccountOnly { .. } => (StatusCode::UNAUTHORIZED, "no_session"),
            LobbyError::NotRated { .. } => (StatusCode::BAD_REQUEST, "not_rated"),
            LobbyError::TooMany { .. } => (StatusCode::CONFLICT, "too_many_seeks"),
            LobbyError::NoSeek(_) => (StatusCode::NOT_FOUND, "no_seek"),
            LobbyError::NoTicket => (StatusCode::NOT_FOUND, "no_ticket"),
            LobbyError::SeekGone => (StatusCode::GONE, "seek_gone"),
            LobbyError::TicketGone => (StatusCode::GONE, "ticket_gone"),
            LobbyError::TakenFirst | LobbyError::Taken => (StatusCode::CONFLICT, "seek_taken"),
            LobbyError::Paired => (StatusCode::CONFLICT, "paired"),
            LobbyError::OwnSeek => (StatusCode::CONFLICT, "own_seek"),
            LobbyError::NotYourSeek => (StatusCode::FORBIDDEN, "not_your_seek"),
            LobbyError::OutOfRange { .. } => (StatusCode::FORBIDDEN, "rating_range"),
            LobbyError::FairPlay(e) => return e.into(),
            LobbyError::Game(e) => return e.into(),
        };
        ApiError::new(status, message).kind(kind)
    }
}

impl From<PushError> for ApiError {
    fn from(e: PushError) -> ApiError {
        let message = e.to_string();
        let (status, kind) = match e {
            PushError::BadSubscription(_) => (StatusCode::BAD_REQUEST, "bad_subscription"),
            PushError::NoSubscription => (StatusCode::NOT_FOUND, "no_subscription"),
            PushError::Storage(e) => return GameError::storage("the push subscription", e).into(),
        };
        ApiError::new(status, message).kind(kind)
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

    /// The kinds written in the server's source: every `.kind("…")`, the first argument of
    /// every call of a function that takes a `kind: &'static str` first, and the string
    /// literals of the code that maps errors to kinds (this file's and `games::Input`'s).
    fn kinds_in_the_source() -> std::collections::BTreeSet<String> {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src.clone()];
        let mut sources = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap().to_string();
                sources.push((path, code));
            }
        }
        // The functions that pass a kind on: `fn NAME(kind: &'static str`.
        let passers: Vec<String> = sources
            .iter()
            .flat_map(|(_, code)| code.split("fn ").skip(1).map(str::to_string))
            .filter_map(|f| {
                let (name, rest) = f.split_once('(')?;
                rest.starts_with("kind: &'static str")
                    .then(|| name.trim().to_string())
            })
            .collect();
        let mut found = std::collections::BTreeSet::new();
        let literal = |text: &str| -> Vec<String> {
            text.split('"')
                .skip(1)
                .step_by(2)
                .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                .map(str::to_string)
                .collect()
        };
        for (path, code) in &sources {
            for call in code.split(".kind(\"").skip(1) {
                found.extend(literal(&format!("\"{call}")).into_iter().take(1));
            }
            for passer in &passers {
                for call in code.split(&format!("{passer}(")).skip(1) {
                    let first = call.trim_start();
                    if first.starts_with('"') {
                        found.extend(literal(first).into_iter().take(1));
                    }
                }
            }
            let name = path.file_name().unwrap().to_str().unwrap();
            if name == "error.rs" || name == "refusal.rs" {
                let mapping = code.lines().filter(|l| {
                    let l = l.trim_start();
                    !l.starts_with("//")
                        && (l.contains("=> ") || l.starts_with('"') || l.contains("StatusCode::"))
                });
                for line in mapping {
                    found.extend(literal(line));
                }
            }
        }
        found
    }

    #[test]
    fn every_kind_the_source_writes_is_listed_and_every_listed_kind_is_written() {
        let listed: std::collections::BTreeSet<String> =
            ERROR_KINDS.iter().map(|k| k.to_string()).collect();
        assert_eq!(listed.len(), ERROR_KINDS.len(), "a kind listed twice");
        let written = kinds_in_the_source();
        let unlisted: Vec<_> = written.difference(&listed).collect();
        assert!(
            unlisted.is_empty(),
            "kinds missing from ERROR_KINDS: {unlisted:?}"
        );
        let unwritten: Vec<_> = listed.difference(&written).collect();
        assert!(
            unwritten.is_empty(),
            "kinds listed but never answered: {unwritten:?}"
        );
    }

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
