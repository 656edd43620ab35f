//! Mail over HTTP (docs/api.md, "Mail"): the handlers of `/api/password-reset…` and
//! `/api/account/email…`, and their limits ([`MailLimits`]). What is mailed and kept is
//! `mail.rs`'s.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::Path;
use axum::extract::State;
use axum::http::header;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::accounts;
use crate::accounts::routes::{account_answer, logged_in, opener};
use crate::api::{with_cookie, RateLimiter, Shared};
use crate::error::ApiError;
use crate::extract::Body;
use crate::identity::{Caller, SESSION_COOKIE};
use crate::mail::api::{
    CodeRequest, EmailChange, MailChoices, ResetAsked, ResetConfirm, ResetRequest,
};
use crate::mail::{self, MailError, Mailer, ResetFor};

/// How often a reset may be asked, and codes tried.
pub struct MailLimits {
    /// Resets asked per address (an hour)...
    resets: RateLimiter,
    /// ... and per name or address asked for, whoever asks: nobody fills a mailbox.
    resets_for: RateLimiter<String>,
    /// Codes tried per address (a minute): a code cannot be guessed anyway, but a client
    /// trying is refused.
    codes: RateLimiter,
}

impl Default for MailLimits {
    fn default() -> MailLimits {
        let hour = Duration::from_secs(3600);
        MailLimits {
            resets: RateLimiter::per(10, hour, "password resets"),
            resets_for: RateLimiter::per(3, hour, "password resets").whose("this name or address"),
            codes: RateLimiter::new(10, "mailed codes tried"),
        }
    }
}

/// The mail routes.
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/password-reset", post(ask_reset))
        .route("/api/password-reset/confirm", post(confirm_reset))
        .route("/api/account/email", post(change_email))
        .route("/api/account/email/confirm", post(confirm_email))
        .route("/api/account/mail", get(mail_choices).put(choose_mail))
        .route(
            "/api/mail/unsubscribe/{token}",
            get(unsubscribe_page).post(unsubscribe),
        )
}

/// The server's mailer, or 503 when it sends no mail.
fn mailer(shared: &Shared) -> Result<&Arc<Mailer>, MailError> {
    shared.mailer.as_ref().ok_or(MailError::NotConfigured)
}

/// Takes a reset asked for and answers at once, the same whoever was named; the mail, if
/// any, is the background's.
async fn ask_reset(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<ResetRequest>,
) -> Result<Response, ApiError> {
    let mailer = mailer(&shared)?.clone();
    let asked = match (req.username, req.email) {
        (Some(name), None) => ResetFor::Username(name),
        (None, Some(email)) => ResetFor::Email(email),
        _ => {
            let why = "name the account by `username` or by `email`, one of them";
            return Err(accounts::AccountError::Invalid(why.into()).into());
        }
    };
    let now_ms = shared.games.time.now_ms();
    let limits = &shared.mail_limits;
    let key = match &asked {
        ResetFor::Username(name) => crate::credentials::username_key(name),
        ResetFor::Email(email) => email.to_lowercase(),
    };
    limits.resets.check_left(caller.client(), now_ms)?;
    limits.resets_for.check(key, now_ms)?;
    limits.resets.count(caller.client(), now_ms);
    let games = shared.games.clone();
    tokio::spawn(async move { mail::mail_resets(&games, &mailer, asked).await });
    let message = "if this names an account with a confirmed email address, a link to a new \
                   password is on its way there (it works for 30 minutes, once)";
    let answer = ResetAsked {
        message: message.into(),
    };
    Ok((StatusCode::ACCEPTED, Json(answer)).into_response())
}

/// Sets the new password, ends every session and connection of the account, and logs the
/// asker in.
async fn confirm_reset(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<ResetConfirm>,
) -> Result<Response, ApiError> {
    mailer(&shared)?;
    shared
        .mail_limits
        .codes
        .check(caller.client(), shared.games.time.now_ms())?;
    let user = mail::reset_password(&shared.games, &req.code, req.password).await?;
    let holder = user.holder();
    shared
        .connections
        .close_where(|c| c.identity.as_ref() == Some(&holder));
    let (_, anon_cookie) = caller.anon_or_new()?;
    let secret = accounts::open_session(&shared.games, &opener(&caller), &user).await?;
    let cookie = caller.cookie(SESSION_COOKIE, &secret, accounts::SESSION_SECONDS);
    let answer = with_cookie(Some(cookie), Json(account_answer(&user)).into_response());
    Ok(with_cookie(anon_cookie, answer))
}

async fn change_email(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<EmailChange>,
) -> Result<Json<crate::accounts::api::Account>, ApiError> {
    let mailer = mailer(&shared)?;
    let me = logged_in(&caller)?;
    mail::change_email(&shared.games, mailer, &me.user, req.email.clone()).await?;
    let user = crate::store::User {
        email: req.email.filter(|e| !e.trim().is_empty()),
        ..me.user.clone()
    };
    Ok(Json(account_answer(&user)))
}

async fn confirm_email(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<CodeRequest>,
) -> Result<StatusCode, ApiError> {
    mailer(&shared)?;
    shared
        .mail_limits
        .codes
        .check(caller.client(), shared.games.time.now_ms())?;
    mail::confirm_email(&shared.games, &req.code).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn mail_choices(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<MailChoices>, ApiError> {
    let me = logged_in(&caller)?;
    let your_move = mail::moves::moves_mailed(&shared.games, me.user.id).await?;
    Ok(Json(MailChoices { your_move }))
}

async fn choose_mail(
    State(shared): State<Shared>,
    caller: Caller,
    Body(choices): Body<MailChoices>,
) -> Result<Json<MailChoices>, ApiError> {
    let me = logged_in(&caller)?;
    mail::moves::mail_moves_to(&shared.games, me.user.id, choices.your_move).await?;
    Ok(Json(choices))
}

/// What a mail's unsubscribe link shows in a browser: a button, so that nothing a mail
/// scanner fetches turns the mail off (RFC 8058: only the `POST` does).
const UNSUBSCRIBE_PAGE: &str = "<!doctype html>
<html lang=\"en\"><meta charset=\"utf-8\"><title>Unsubscribe: L game</title>
<meta name=\"viewport\" content=\"width=device-width\">
<h1>No more \u{201c}your move\u{201d} mail?</h1>
<p>This link stops the mail the L game sends when it is your move in a correspondence game.
You can turn it on again in your account\u{2019}s settings.</p>
<form method=\"post\"><button type=\"submit\">Unsubscribe</button></form>
</html>
";

async fn unsubscribe_page() -> Response {
    let html = [(header::CONTENT_TYPE, "text/html; charset=utf-8")];
    (html, UNSUBSCRIBE_PAGE).into_response()
}

/// One click, no session: the token alone says whose mail stops.
async fn unsubscribe(
    State(shared): State<Shared>,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    mail::moves::unsubscribe(&shared.games, &token).await?;
    let text = [(header::CONTENT_TYPE, "text/plain; charset=utf-8")];
    let done = "Unsubscribed: the L game sends you no more \u{201c}your move\u{201d} mail. \
                You can turn it on again in your account\u{2019}s settings.\n";
    Ok((text, done).into_response())
}
