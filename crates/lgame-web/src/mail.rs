//! Mail (docs/deploy.md, "Mail"): a password reset by a one-time link, an email address
//! confirmed by a link before anything else is sent to it. Sent over SMTP by `lettre`, in
//! the background, so that an answer never waits for (or tells anything by) a mail server.
//! A link's code is kept only as its hash (`mail/rows.rs`), for [`CODE_MS`], and used once.
//! Correspondence's "your move" mail is `mail/moves.rs`'s. The HTTP part is `mail/routes.rs`
//! (who asks, the limits) and `mail/api.rs` (the bodies and paths).

use std::fmt;
use std::sync::Arc;

use anyhow::Context;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::accounts::{self, AccountError};
use crate::cpu::cpu_bound;
use crate::credentials::{self, new_secret, secret_hash};
use crate::games::{GameError, Games};
use crate::store::{User, UserBy, UserChange};

pub(crate) mod api;
pub mod moves;
pub(crate) mod routes;
mod rows;

pub use rows::Purpose;

/// How long a mailed link works: 30 minutes.
pub const CODE_MS: i64 = 30 * 60 * 1000;

const LIST_UNSUBSCRIBE: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe");
const LIST_UNSUBSCRIBE_POST: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe-Post");

/// How the server sends mail (`lgame serve --smtp`).
#[derive(Clone)]
pub struct MailConfig {
    /// The relay, in lettre's URL form: `smtp://HOST:PORT` (plain, for a relay on the machine
    /// itself), `smtps://USER:PASSWORD@HOST` or `smtp://…?tls=required` (TLS).
    pub smtp: String,
    /// The relay's password, when it is not in the URL (`--smtp-password-file`).
    pub password: Option<String>,
    /// The sender (`--mail-from`); by default `lgame@` the site's host.
    pub from: Option<String>,
    /// The site's address the links point to (`--site-url`): `https://l.example.org`.
    pub site_url: String,
}

impl fmt::Debug for MailConfig {
    /// Never the password, in the URL or apart.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("MailConfig")
            .field("smtp", &without_password(&self.smtp))
            .field("from", &self.from)
            .field("site_url", &self.site_url)
            .finish_non_exhaustive()
    }
}

/// An SMTP URL without the password of its user (`smtps://user:***@host`).
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((user, host)) if user.contains(':') => {
            let user = user.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_string(),
    }
}

/// A refusal of mail's, each with its words (`error.rs` gives each its status and kind).
#[derive(Debug)]
pub enum MailError {
    /// The server was started without `--smtp`.
    NotConfigured,
    /// A link's code unknown, used already or expired.
    BadCode,
    /// An unsubscribe link nobody's.
    UnknownLink,
    Account(AccountError),
}

impl fmt::Display for MailError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MailError::NotConfigured => f.write_str("this server sends no mail"),
            MailError::BadCode => f.write_str(
                "this link is not valid: it was used already, has expired (links work for 30 \
                 minutes) or was mistyped",
            ),
            MailError::UnknownLink => f.write_str("this unsubscribe link is nobody's"),
            MailError::Account(e) => e.fmt(f),
        }
    }
}

impl From<AccountError> for MailError {
    fn from(e: AccountError) -> MailError {
        MailError::Account(e)
    }
}

impl From<GameError> for MailError {
    fn from(e: GameError) -> MailError {
        MailError::Account(e.into())
    }
}

pub(crate) fn storage(e: crate::store::StoreError) -> MailError {
    GameError::storage("mail's database", e).into()
}

/// The server's way out for mail: the relay, the sender and the site the links point to.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    site: String,
}

impl Mailer {
    /// The relay as configured (nothing is connected before the first mail).
    ///
    /// # Errors
    /// The URL, the sender or the site's address cannot be read.
    pub fn new(config: &MailConfig) -> anyhow::Result<Mailer> {
        let shown = without_password(&config.smtp);
        let mut transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp)
            .with_context(|| format!("reading the SMTP URL {shown}"))?;
        if let Some(password) = &config.password {
            let user = smtp_user(&config.smtp)
                .with_context(|| format!("a password file needs a user in the URL: {shown}"))?;
            transport = transport.credentials(Credentials::new(user, password.clone()));
        }
        let site = config.site_url.trim_end_matches('/').to_string();
        let host = site
            .split_once("://")
            .map(|(_, rest)| rest.split(['/', ':']).next().unwrap_or_default())
            .filter(|host| !host.is_empty())
            .with_context(|| format!("'{site}' is not a site's address (https://HOST)"))?;
        let from = config.from.clone().unwrap_or(format!("lgame@{host}"));
        let from = from
            .parse()
            .with_context(|| format!("'{from}' is not a sender's address"))?;
        Ok(Mailer {
            transport: transport.build(),
            from,
            site,
        })
    }

    /// The page's address for a view: `SITE/#/reset?code=…`.
    fn link(&self, view: &str, code: &str) -> String {
        format!("{}/#/{view}?code={code}", self.site)
    }

    /// A game's page: `SITE/#/game/ID`.
    fn game_link(&self, game: &str) -> String {
        format!("{}/#/game/{game}", self.site)
    }

    /// The one-click unsubscribe link of an account's token (`mail/routes.rs`).
    fn unsubscribe_link(&self, token: &str) -> String {
        format!("{}/api/mail/unsubscribe/{token}", self.site)
    }

    /// Sends a mail in the background; a failure is logged (the asker was answered already).
    fn send_in_background(self: &Arc<Self>, to: &str, subject: &str, text: String) {
        self.send_with_unsubscribe(to, (subject, text), None);
    }

    /// [`Mailer::send_in_background`], with RFC 8058's one-click unsubscribe headers when
    /// `unsubscribe` (its URL) is given.
    fn send_with_unsubscribe(
        self: &Arc<Self>,
        to: &str,
        (subject, text): (&str, String),
        unsubscribe: Option<String>,
    ) {
        let built = to
            .parse::<Mailbox>()
            .map_err(anyhow::Error::from)
            .and_then(|to| {
                let mut message = Message::builder()
                    .from(self.from.clone())
                    .to(to)
                    .subject(subject)
                    .header(ContentType::TEXT_PLAIN);
                if let Some(url) = unsubscribe {
                    message = message
                        .raw_header(HeaderValue::new(LIST_UNSUBSCRIBE, format!("<{url}>")))
                        .raw_header(HeaderValue::new(
                            LIST_UNSUBSCRIBE_POST,
                            "List-Unsubscribe=One-Click".into(),
                        ));
                }
                Ok(message.body(text)?)
            });
        let mailer = self.clone();
        tokio::spawn(async move {
            let sent = match built {
                Ok(message) => mailer.transport.send(message).await.map_err(Into::into),
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                tracing::warn!(error = %e, "mail not sent");
            }
        });
    }
}

/// The user an SMTP URL names (`smtps://USER:…@HOST`).
fn smtp_user(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let (user, _) = rest.split_once('@')?;
    let user = user.split(':').next()?;
    (!user.is_empty()).then(|| user.to_string())
}

/// Who asks for a new password: an account's name, or an address.
#[derive(Debug, Clone)]
pub enum ResetFor {
    Username(String),
    Email(String),
}

/// Mails a link to a new password to every account `asked` names whose email is confirmed;
/// nothing to anyone else. Run in the background: the asker hears the same either way.
pub async fn mail_resets(games: &Arc<Games>, mailer: &Arc<Mailer>, asked: ResetFor) {
    let store = &games.store;
    let owners = match &asked {
        ResetFor::Username(name) => {
            let key = credentials::username_key(name);
            store
                .user(UserBy::Key(&key))
                .await
                .map(|u| u.map(|u| u.id).into_iter().collect())
        }
        ResetFor::Email(email) => store.confirmed_owners(email).await,
    };
    let owners = owners.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "reading the accounts to reset");
        Vec::new()
    });
    for owner in owners {
        let user = store.user(UserBy::Id(owner)).await;
        let email = store.confirmed_email(owner).await;
        let (Ok(Some(user)), Ok(Some(email))) = (user, email) else {
            continue;
        };
        if user.disabled {
            continue;
        }
        let text = |link: &str| {
            format!(
                "Someone (you, we hope) asked for a new password for the L game account \
                 '{name}'.\n\nChoose it here within 30 minutes:\n{link}\n\nIf it was not you, \
                 do nothing: your password stays as it is.\n",
                name = user.username
            )
        };
        if let Err(e) = mail_code(games, mailer, Purpose::Reset, (&user, &email), text).await {
            tracing::warn!(error = %e, user = user.id, "reset not mailed");
        }
    }
}

/// Makes a code for `purpose`, keeps its hash and mails its link, in words `text` makes.
async fn mail_code(
    games: &Arc<Games>,
    mailer: &Arc<Mailer>,
    purpose: Purpose,
    (user, email): (&User, &str),
    text: impl FnOnce(&str) -> String,
) -> Result<(), MailError> {
    let code = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let now_ms = games.time.now_ms();
    games
        .store
        .insert_mail_code(
            &secret_hash(&code),
            purpose,
            (user.id, email),
            now_ms,
            now_ms + CODE_MS,
        )
        .await
        .map_err(storage)?;
    let (view, subject) = match purpose {
        Purpose::Reset => ("reset", "Your new L game password"),
        Purpose::Confirm => ("confirm-email", "Confirm your email address for the L game"),
    };
    mailer.send_in_background(email, subject, text(&mailer.link(view, &code)));
    Ok(())
}

/// Sets a new password with a reset link's code (once), and ends every session of the
/// account: the account.
pub async fn reset_password(
    games: &Arc<Games>,
    code: &str,
    password: String,
) -> Result<User, MailError> {
    let store = &games.store;
    let hash = secret_hash(code);
    let now_ms = games.time.now_ms();
    let (owner, _) = store
        .valid_mail_code(&hash, Purpose::Reset, now_ms)
        .await
        .map_err(storage)?
        .ok_or(MailError::BadCode)?;
    let user = store.user(UserBy::Id(owner)).await.map_err(storage)?;
    let user = user.ok_or(MailError::BadCode)?;
    if user.disabled {
        return Err(AccountError::Disabled.into());
    }
    // The rules first: a refused password leaves the link to be used again.
    credentials::check_password(&password, &user.username).map_err(AccountError::BadPassword)?;
    let password_hash = cpu_bound(move || {
        credentials::hash_password(&password)
            .map_err(|e| GameError::internal("hashing the password", e))
    })
    .await?;
    let used = store.use_mail_code(&hash, Purpose::Reset, now_ms).await;
    used.map_err(storage)?.ok_or(MailError::BadCode)?;
    let change = UserChange::Password(password_hash);
    store.change_user(user.id, &change).await.map_err(storage)?;
    store.end_sessions(user.id, None).await.map_err(storage)?;
    tracing::info!(user = user.id, "password reset by mail");
    Ok(user)
}

/// Gives the account a new email address (none: removed), unconfirmed, and mails its
/// confirmation link.
pub async fn change_email(
    games: &Arc<Games>,
    mailer: &Arc<Mailer>,
    user: &User,
    email: Option<String>,
) -> Result<(), MailError> {
    let email = email.filter(|e| !e.trim().is_empty());
    if let Some(email) = &email {
        accounts::check_email(email).map_err(AccountError::BadEmail)?;
    }
    let change = UserChange::Email(email.clone());
    games
        .store
        .change_user(user.id, &change)
        .await
        .map_err(storage)?;
    match email {
        Some(email) => ask_confirmation(games, mailer, user, &email).await,
        None => Ok(()),
    }
}

/// Mails the link that confirms `email` is `user`'s.
pub async fn ask_confirmation(
    games: &Arc<Games>,
    mailer: &Arc<Mailer>,
    user: &User,
    email: &str,
) -> Result<(), MailError> {
    let text = |link: &str| {
        format!(
            "This address was given for the L game account '{name}'.\n\nConfirm it here within \
             30 minutes:\n{link}\n\nUntil then nothing else is sent to it. If it was not you, \
             do nothing.\n",
            name = user.username
        )
    };
    mail_code(games, mailer, Purpose::Confirm, (user, email), text).await
}

/// Confirms an address with its link's code (once): refused if the account's email has
/// changed since.
pub async fn confirm_email(games: &Arc<Games>, code: &str) -> Result<(), MailError> {
    let store = &games.store;
    let now_ms = games.time.now_ms();
    let used = store
        .use_mail_code(&secret_hash(code), Purpose::Confirm, now_ms)
        .await;
    let (owner, email) = used.map_err(storage)?.ok_or(MailError::BadCode)?;
    let user = store.user(UserBy::Id(owner)).await.map_err(storage)?;
    if user.and_then(|u| u.email) != Some(email.clone()) {
        return Err(MailError::BadCode);
    }
    store
        .confirm_email(owner, &email, now_ms)
        .await
        .map_err(storage)?;
    Ok(())
}
