//! Who asks: a request's log-in session and its browser's anonymous identity (cookies),
//! its client address (behind a trusted proxy, `X-Forwarded-For`), and the same-origin
//! rule for requests that carry cookies (docs/accounts.md).
//!
//! [`identify`] runs before every handler: it refuses a cookie-carrying request from
//! another site, reads the session (renewing it when a day old), and leaves a [`Caller`]
//! in the request for the handlers.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lgame::Color;

use crate::accounts::SESSION_SECONDS;
use crate::api::Shared;
use crate::credentials::{new_secret, secret_hash};
use crate::error::ApiError;
use crate::fairplay::Client;
use crate::games::{GameError, Games, Who};
use crate::store::{Holder, User};

/// The log-in session's cookie.
pub const SESSION_COOKIE: &str = "lgame_session";
/// The browser's anonymous identity's cookie.
pub const ANON_COOKIE: &str = "lgame_anon";
/// A session used this long after its last renewal is renewed.
const RENEW_AFTER_SECONDS: i64 = 24 * 3600;
/// An anonymous identity's cookie lasts this long (browsers cap cookies at 400 days).
const ANON_SECONDS: i64 = 400 * 24 * 3600;

/// Now in the server's time (`games.time`), in Unix seconds: what sessions are dated and
/// expire by (here and in `connections.rs`), so that a test moving the server's time moves
/// them too.
pub(crate) fn now_s(games: &Games) -> i64 {
    games.time.now_ms().div_euclid(1000)
}

/// How the server sees its clients.
#[derive(Debug, Clone, Default)]
pub struct ClientRules {
    /// Cookies are `Secure` (the server is reached over HTTPS, behind a proxy).
    pub https: bool,
    /// The reverse proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpAddr>,
}

/// A log-in session found by its cookie.
#[derive(Debug, Clone)]
pub struct LoggedIn {
    /// The hash of the cookie's id: the session's key.
    pub id_hash: String,
    pub user: User,
}

/// Who sends a request: its session's account, if logged in, and its browser's anonymous
/// identity (its cookie's value), if it has one.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub logged_in: Option<LoggedIn>,
    /// The account came from an API token (`Authorization: Bearer`), not a session.
    pub by_token: bool,
    /// That token's hash.
    pub token_hash: Option<String>,
    anon: Option<String>,
    /// The client's address (see [`client_ip`]).
    pub ip: Option<IpAddr>,
    /// The browser in its own words (its `User-Agent`, see [`device_of`]), for the list of an
    /// account's sessions.
    pub device: Option<String>,
    https: bool,
}

impl Caller {
    /// The holder the caller's seats are held by: the account, else the browser.
    pub fn holder(&self) -> Option<Holder> {
        match &self.logged_in {
            Some(l) => Some(l.user.holder()),
            None => self.anon_holder(),
        }
    }

    /// The client's address, for the limits per address.
    pub fn client(&self) -> IpAddr {
        self.ip
            .unwrap_or(IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED))
    }

    /// Where the caller comes from, as fair play notes an account's use (`fairplay.rs`).
    pub fn used_from(&self) -> Client {
        Client {
            address: self.client(),
            browser: self.anon_holder(),
        }
    }

    /// The browser's anonymous holder, if it has an identity.
    pub fn anon_holder(&self) -> Option<Holder> {
        self.anon.as_deref().map(anon_holder)
    }

    /// The caller's holder, a new anonymous identity made if it has none: then its cookie
    /// is to be set on the answer.
    pub fn holder_or_new(&mut self) -> Result<(Holder, Option<HeaderValue>), ApiError> {
        match self.holder() {
            Some(holder) => Ok((holder, None)),
            // Not logged in: the browser's new identity holds.
            None => self.anon_or_new(),
        }
    }

    /// The browser's anonymous holder, a new identity made if it has none (then its cookie
    /// is to be set on the answer): the browser an account logs in from is known by it
    /// (`fairplay.rs`).
    pub fn anon_or_new(&mut self) -> Result<(Holder, Option<HeaderValue>), ApiError> {
        if let Some(anon) = self.anon_holder() {
            return Ok((anon, None));
        }
        let secret = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
        let cookie = self.cookie(ANON_COOKIE, &secret, ANON_SECONDS);
        let anon = anon_holder(&secret);
        self.anon = Some(secret);
        Ok((anon, Some(cookie)))
    }

    /// Who gives a game command: the body's token if it has one, else the caller's seats
    /// (`side` naming one of two).
    pub fn who(&self, token: Option<String>, side: Option<Color>) -> Who {
        match (token.filter(|t| !t.is_empty()), self.holder()) {
            (Some(token), _) => Who::Token(token),
            (None, Some(holder)) => Who::Holder { holder, side },
            (None, None) => Who::Nobody,
        }
    }

    /// A cookie of this server's: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` behind
    /// HTTPS; `max_age` 0 removes it.
    pub fn cookie(&self, name: &str, value: &str, max_age: i64) -> HeaderValue {
        let secure = if self.https { "; Secure" } else { "" };
        let text =
            format!("{name}={value}; Max-Age={max_age}; Path=/; HttpOnly; SameSite=Lax{secure}");
        HeaderValue::from_str(&text).expect("cookie names and hex values are header-safe")
    }
}

/// The holder of a browser's anonymous identity (the cookie's value hashed).
pub fn anon_holder(secret: &str) -> Holder {
    Holder::Browser(secret_hash(secret))
}

/// The caller, as [`identify`] left it in the request.
impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Ok(parts
            .extensions
            .get::<Caller>()
            .cloned()
            .unwrap_or_default())
    }
}

/// A cookie's value, if the request has it and it has the form of this server's secrets
/// (64 hex digits): anything else is ignored.
fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.to_string())
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The most characters of a browser's own words kept with a session.
const DEVICE_CHARS: usize = 160;

/// The browser's own words (its `User-Agent`), printable ASCII only and cut short; `None`
/// when it sends none.
pub fn device_of(headers: &HeaderMap) -> Option<String> {
    let agent = headers.get(header::USER_AGENT)?.to_str().ok()?;
    let kept: String = agent
        .chars()
        .filter(|c| c.is_ascii_graphic() || *c == ' ')
        .take(DEVICE_CHARS)
        .collect();
    Some(kept.trim().to_string()).filter(|d| !d.is_empty())
}

/// The client's address: the connection's, or, when that is a trusted proxy, the address
/// the proxies saw: `X-Forwarded-For` read from the right (each proxy appends the address
/// it was reached from), past the trusted proxies, to the first address that is not one.
/// An unreadable entry stops the walk there: what stands left of it is the client's own
/// word, so the last trusted address read is counted.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, rules: &ClientRules) -> IpAddr {
    if !rules.trusted_proxies.contains(&peer) {
        return peer;
    }
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let mut client = peer;
    for entry in entries.into_iter().rev() {
        match entry.trim().parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !rules.trusted_proxies.contains(&ip) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// Whether a request's `Origin` is this server (`scheme://Host`, the scheme ignored: a
/// proxy may end HTTPS). A request without one is not.
fn same_origin(headers: &HeaderMap) -> bool {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    match (origin, host) {
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, authority)| authority.eq_ignore_ascii_case(host)),
        _ => false,
    }
}

/// Whether the request may change something, or opens a WebSocket (which a page of another
/// site could open with the person's cookies).
fn acts(req: &Request) -> bool {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    !safe || req.headers().contains_key(header::UPGRADE)
}

/// Before every handler: a request that carries cookies and acts must come from this
/// server's own page (else 403 `foreign_origin`: another site cannot play for the person);
/// the session is read and, when a day old, renewed (its cookie sent again); a cookie of an
/// ended session is removed.
pub async fn identify(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    let headers = req.headers();
    let has_cookies = headers.contains_key(header::COOKIE);
    if has_cookies && acts(&req) && !same_origin(headers) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "a request with cookies must come from this server's own page (its Origin)",
        )
        .kind("foreign_origin")
        .into_response();
    }
    let mut caller = Caller {
        anon: cookie_value(headers, ANON_COOKIE),
        ip: Some(client_ip(peer.ip(), headers, &shared.clients)),
        device: device_of(headers),
        https: shared.clients.https,
        logged_in: None,
        by_token: false,
        token_hash: None,
    };
    if let Some(bearer) = bearer(req.headers()) {
        let scoped = beyond_token(&req);
        return match token_account(&shared, &bearer, scoped).await {
            Ok(user) => {
                caller.anon = None;
                caller.by_token = true;
                caller.token_hash = Some(secret_hash(&bearer));
                caller.logged_in = Some(LoggedIn {
                    id_hash: String::new(),
                    user,
                });
                req.extensions_mut().insert(caller);
                next.run(req).await
            }
            Err(refusal) => refusal.into_response(),
        };
    }
    let mut set = None;
    // The page's files need no session: only the API reads it.
    let api = req.uri().path().starts_with("/api/");
    if let Some(secret) = cookie_value(headers, SESSION_COOKIE).filter(|_| api) {
        match session(&shared, &secret, &caller).await {
            Ok(Some((logged_in, renewed))) => {
                if renewed {
                    set = Some(caller.cookie(SESSION_COOKIE, &secret, SESSION_SECONDS));
                }
                caller.logged_in = Some(logged_in);
            }
            Ok(None) => set = Some(caller.cookie(SESSION_COOKIE, "", 0)),
            Err(e) => return ApiError::from(e).into_response(),
        }
    }
    req.extensions_mut().insert(caller);
    let mut response = next.run(req).await;
    // One decision about the session's cookie per answer: a handler that set it (a log-in,
    // a sign-up, a log-out) has the last word over a renewal or the removal of a stale one.
    let decided = response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .any(|c| {
            c.as_bytes()
                .starts_with(format!("{SESSION_COOKIE}=").as_bytes())
        });
    if let Some(cookie) = set.filter(|_| !decided) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// The token of an `Authorization: Bearer TOKEN` header, if the request has one.
fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// What a token may not do: act on the account itself (its sessions, password, data,
/// tokens), which takes the person's log-in. Everything else — games, the lobby,
/// challenges, the bot's stream — it does as its account.
fn beyond_token(req: &Request) -> bool {
    let path = req.uri().path();
    let reading = *req.method() == Method::GET;
    path == "/api/session"
        || path.starts_with("/api/account/tokens")
        || path == "/api/account/password"
        || path == "/api/account/sessions"
        || path == "/api/account/export"
        || (path == "/api/account" && !reading)
}

/// The account of a bearer token, or the refusal: an unknown (or revoked) token is 401 at
/// once, a disabled account's 403, and a token used beyond its scope 403.
async fn token_account(shared: &Shared, token: &str, beyond: bool) -> Result<User, ApiError> {
    if beyond {
        let message = "an API token plays; the account itself takes a log-in session";
        return Err(ApiError::new(StatusCode::FORBIDDEN, message).kind("token_scope"));
    }
    let user = shared
        .games
        .store
        .token_user(&secret_hash(token))
        .await
        .map_err(|e| GameError::storage("reading the token", e))?;
    match user {
        None => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "the API token is unknown or revoked",
        )
        .kind("bad_token")),
        Some(user) if user.disabled => {
            Err(ApiError::new(StatusCode::FORBIDDEN, "the account is disabled").kind("disabled"))
        }
        Some(user) => Ok(user),
    }
}

/// The session of a cookie's id, if it is live (not expired, its account not disabled),
/// renewed when a day old (then `true`, and the caller's browser and address noted); an
/// expired one is ended.
async fn session(
    shared: &Shared,
    secret: &str,
    caller: &Caller,
) -> Result<Option<(LoggedIn, bool)>, GameError> {
    let (games, id_hash) = (&shared.games, secret_hash(secret));
    let storage = |e| GameError::storage("reading the session", e);
    let Some((session, user)) = games.store.session(&id_hash).await.map_err(storage)? else {
        return Ok(None);
    };
    let now_ms = games.time.now_ms();
    let now = now_ms.div_euclid(1000);
    if now >= session.expires {
        games.store.end_session(&id_hash).await.map_err(storage)?;
        return Ok(None);
    }
    if user.disabled {
        return Ok(None);
    }
    let renew = now - session.used >= RENEW_AFTER_SECONDS;
    if renew {
        games
            .store
            .renew_session(&id_hash, now, now + SESSION_SECONDS)
            .await
            .map_err(storage)?;
        // Still used from this browser and address (`fairplay.rs`).
        crate::fairplay::note_use(&games.store, &caller.used_from(), user.id, now_ms).await?;
    }
    Ok(Some((LoggedIn { id_hash, user }, renew)))
}
