//! Mail's HTTP types and paths (docs/api.md, "Mail"): the bodies read, the answer, and the
//! paths described for the OpenAPI document (`openapi.rs`). The handlers are in
//! `mail/routes.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::api::Account;
use crate::openapi::{ActionRefusals, BodyRefusals};
use crate::response::ErrorBody;

/// `POST /api/password-reset`: the account's name, or its confirmed address.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "username": "alice" }))]
pub struct ResetRequest {
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
}

/// The answer to `POST /api/password-reset`, the same whoever was named.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResetAsked {
    pub message: String,
}

/// `POST /api/password-reset/confirm`: the mailed link's code and the new password.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetConfirm {
    pub code: String,
    pub password: String,
}

/// `POST /api/account/email`: the new address (`null` or empty: none).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailChange {
    #[schema(required)]
    pub email: Option<String>,
}

/// `POST /api/account/email/confirm`: the mailed link's code.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeRequest {
    pub code: String,
}

/// `POST /api/password-reset`.
#[utoipa::path(post, path = "/api/password-reset", tag = "accounts",
    summary = "Mail a link to a new password (to a confirmed address only)",
    request_body = ResetRequest,
    responses(
        (status = 202, description = "Taken: the same answer whether the name or address is known or not; the link (valid 30 minutes, once) is mailed in the background to a confirmed address", body = ResetAsked),
        (status = 400, description = "Unreadable JSON, or neither or both of `username` and `email` (`invalid`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many resets asked from this address, or for this name or address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "The server sends no mail: started without `--smtp` (`no_mail`)", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn ask_reset() {}

/// `POST /api/password-reset/confirm`.
#[utoipa::path(post, path = "/api/password-reset/confirm", tag = "accounts",
    summary = "Set a new password with a mailed code: every session ends, and a new one opens",
    request_body = ResetConfirm,
    responses(
        (status = 200, description = "The password is set, every other session ended; the asker is logged in (a session cookie)", body = Account),
        (status = 400, description = "Unreadable JSON, a code unknown, used or expired (`bad_code`), or the password refused (`bad_password`)", body = ErrorBody),
        (status = 403, description = "The account is disabled, or a request with cookies came from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many codes tried from this address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "The server sends no mail: started without `--smtp` (`no_mail`)", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn confirm_reset() {}

/// `POST /api/account/email`.
#[utoipa::path(post, path = "/api/account/email", tag = "accounts",
    summary = "Change the account's email address: unconfirmed until its mailed link is followed",
    request_body = EmailChange,
    responses(
        (status = 200, description = "Changed; a link that confirms it mailed to the new address", body = Account),
        (status = 400, description = "Unreadable JSON, or not an email address (`bad_email`)", body = ErrorBody),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many calls of this kind from this account or this address (`too_many_requests`, docs/server.md, \"Limits on what changes\")", body = ErrorBody),
        (status = 503, description = "The server sends no mail: started without `--smtp` (`no_mail`)", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn change_email() {}

/// `POST /api/account/email/confirm`.
#[utoipa::path(post, path = "/api/account/email/confirm", tag = "accounts",
    summary = "Confirm an email address with its mailed code (no session needed)",
    request_body = CodeRequest,
    responses(
        (status = 204, description = "Confirmed"),
        (status = 400, description = "Unreadable JSON, or a code unknown, used or expired, or for an address the account no longer has (`bad_code`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        (status = 429, description = "Too many codes tried from this address (`Retry-After`)", body = ErrorBody),
        (status = 503, description = "The server sends no mail: started without `--smtp` (`no_mail`)", body = ErrorBody),
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn confirm_email() {}

/// `GET` and `PUT /api/account/mail`: what the account is mailed.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({ "your_move": true }))]
pub struct MailChoices {
    /// A mail when it is the account's move in a correspondence game (at most one a day;
    /// several games waiting, one digest), to its confirmed address. On unless turned off.
    pub your_move: bool,
}

/// `GET /api/account/mail`.
#[utoipa::path(get, path = "/api/account/mail", tag = "accounts",
    summary = "What the account is mailed",
    responses(
        (status = 200, description = "The account's choices", body = MailChoices),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn mail_choices() {}

/// `PUT /api/account/mail`.
#[utoipa::path(put, path = "/api/account/mail", tag = "accounts",
    summary = "Choose what the account is mailed",
    request_body = MailChoices,
    responses(
        (status = 200, description = "Chosen: the account's choices", body = MailChoices),
        (status = 400, description = "Unreadable JSON", body = ErrorBody),
        (status = 401, description = "No session (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        ActionRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn choose_mail() {}

/// `GET /api/mail/unsubscribe/{token}`.
#[utoipa::path(get, path = "/api/mail/unsubscribe/{token}", tag = "accounts",
    summary = "The page of a mail's unsubscribe link: a button that posts to it (nothing changes)",
    params(("token" = String, Path, description = "The token the mail's `List-Unsubscribe` link carries")),
    responses(
        (status = 200, description = "An HTML page whose one button turns the mail off", body = String, content_type = "text/html"),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn unsubscribe_page() {}

/// `POST /api/mail/unsubscribe/{token}`.
#[utoipa::path(post, path = "/api/mail/unsubscribe/{token}", tag = "accounts",
    summary = "One-click unsubscribe (RFC 8058): turns \"your move\" mail off, no session needed",
    params(("token" = String, Path, description = "The token the mail's `List-Unsubscribe` link carries")),
    request_body(content = Option<serde_json::Value>, description = "None read: a mail client sends `List-Unsubscribe=One-Click` as a form (RFC 8058); any body is ignored"),
    responses(
        (status = 200, description = "Turned off (again: the same)", body = String, content_type = "text/plain"),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "A token nobody has (`not_found`)", body = ErrorBody),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn unsubscribe() {}
