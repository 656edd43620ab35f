//! Accounts over HTTP (docs/accounts.md): the handlers of `/api/account…`, `/api/session`
//! and `/api/users/…`. Who asks is `identity.rs`'s [`Caller`]; what an account is and does
//! is `accounts.rs`'s; the bodies and answers are `accounts/api.rs`'s.

use std::net::IpAddr;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lgame::game::{ResultToken, Termination};
use lgame::{ByColor, Color};

use crate::accounts::api::{
    Account, ArenaJoined, Counts, Ended, Export, ExportedRecord, GameSummary, GamesPage, Profile,
    SessionInfo, SessionInfoAnswer, Sessions,
};
use crate::accounts::api::{
    GamesListQuery, LogInRequest, PasswordChange, PasswordRequest, SignUpRequest,
};
use crate::accounts::{self, AccountError, Opener, SignUp, MAX_PER_PAGE, SESSION_SECONDS};
use crate::api::{with_cookie, RateLimiter, Shared};
use crate::credentials;
use crate::error::ApiError;
use crate::extract::{Body, Params};
use crate::games::{player_at, Who};
use crate::identity::{Caller, LoggedIn, SESSION_COOKIE};
use crate::store::{GameStanding, GamesQuery, Holder, Listed, User};

/// The limits on sign-ups and failed log-ins.
pub struct AccountLimits {
    /// Accounts made per address (counted when made).
    pub sign_ups: RateLimiter,
    /// Failed log-ins per address...
    pub failures: RateLimiter,
    /// ... and per account and address: a stranger's failures elsewhere never lock a
    /// person out of their own account.
    pub account_failures: RateLimiter<(String, IpAddr)>,
}

impl AccountLimits {
    /// `sign_ups_per_hour` accounts an hour per address, `failures_per_minute` failed
    /// log-ins a minute per address and half as many per account and address (0: no
    /// limit).
    pub fn new(sign_ups_per_hour: u32, failures_per_minute: u32) -> AccountLimits {
        let minute = Duration::from_secs(60);
        AccountLimits {
            sign_ups: RateLimiter::per(sign_ups_per_hour, Duration::from_secs(3600), "sign-ups"),
            failures: RateLimiter::per(failures_per_minute, minute, "failed log-ins"),
            account_failures: RateLimiter::per(
                failures_per_minute.div_ceil(2),
                minute,
                "failed log-ins to this account",
            ),
        }
    }
}

/// The account routes.
pub fn routes() -> Router<Shared> {
    Router::new()
        .route(
            "/api/account",
            post(sign_up).get(account).delete(close_account),
        )
        .route("/api/session", post(log_in).delete(log_out).get(session))
        .route("/api/account/password", post(change_password))
        .route(
            "/api/account/sessions",
            get(sessions).delete(end_other_sessions),
        )
        .route(
            "/api/account/sessions/{id}",
            axum::routing::delete(end_one_session),
        )
        .route("/api/account/export", get(export))
        .route("/api/account/games", get(my_games))
        .route("/api/users/{name}", get(profile))
        .route("/api/users/{name}/games", get(user_games))
}

/// The caller's session, or 401.
pub(crate) fn logged_in(caller: &Caller) -> Result<&LoggedIn, ApiError> {
    Ok(caller.logged_in.as_ref().ok_or(AccountError::NoSession)?)
}

pub(crate) fn account_answer(user: &User) -> Account {
    Account {
        username: user.username.clone(),
        bot: user.bot,
        email: user.email.clone(),
        created: user.created,
    }
}

/// Where the caller opens a session from.
pub(crate) fn opener(caller: &Caller) -> Opener {
    Opener {
        client: caller.used_from(),
        device: caller.device.clone(),
        ip: caller.ip,
    }
}

/// Ends at once this instance's WebSockets and streams opened with `user`'s sessions but
/// `keep`'s (the asker's), ended; the other instances end theirs at their next sweep
/// (`connections.rs`).
fn end_connections(shared: &Shared, user: &User, keep: &str) {
    let holder = user.holder();
    shared.connections.close_where(|c| {
        c.identity.as_ref() == Some(&holder) && c.session.as_deref().is_some_and(|s| s != keep)
    });
}

/// The answer that removes the session's cookie.
fn without_session(caller: &Caller) -> Response {
    let clear = caller.cookie(SESSION_COOKIE, "", 0);
    with_cookie(Some(clear), StatusCode::NO_CONTENT.into_response())
}

async fn sign_up(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<SignUpRequest>,
) -> Result<Response, ApiError> {
    let ip = caller.client();
    let time = &shared.games.time;
    shared
        .account_limits
        .sign_ups
        .check_left(ip, time.now_ms())?;
    let asked = SignUp {
        username: req.username,
        password: req.password,
        email: req.email,
    };
    let new = accounts::check_sign_up(&shared.games.store, asked).await?;
    let (_, anon_cookie) = caller.anon_or_new()?;
    let (user, secret) = accounts::sign_up(&shared.games, new, &opener(&caller)).await?;
    shared.account_limits.sign_ups.count(ip, time.now_ms());
    tracing::info!(user = user.id, "account made");
    if let (Some(mailer), Some(email)) = (&shared.mailer, &user.email) {
        crate::mail::ask_confirmation(&shared.games, mailer, &user, email).await?;
    }
    let cookie = caller.cookie(SESSION_COOKIE, &secret, SESSION_SECONDS);
    let answer = (StatusCode::CREATED, Json(account_answer(&user))).into_response();
    Ok(with_cookie(anon_cookie, with_cookie(Some(cookie), answer)))
}

/// Checks a password for an account named by its username (`accounts::verify`), within
/// the limits on failures: a wrong password and an unknown name both count against the
/// address and the (account, address).
async fn check_login(
    shared: &Shared,
    caller: &Caller,
    username: &str,
    password: String,
) -> Result<User, ApiError> {
    let limits = &shared.account_limits;
    let key = credentials::username_key(username);
    let ip = caller.client();
    let time = &shared.games.time;
    limits.failures.check_left(ip, time.now_ms())?;
    limits
        .account_failures
        .check_left((key.clone(), ip), time.now_ms())?;
    let checked = accounts::verify(&shared.games.store, username, password).await;
    if let Err(AccountError::WrongCredentials) = checked {
        limits.failures.count(ip, time.now_ms());
        limits.account_failures.count((key, ip), time.now_ms());
    }
    Ok(checked?)
}

async fn log_in(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<LogInRequest>,
) -> Result<Response, ApiError> {
    let user = check_login(&shared, &caller, &req.username, req.password).await?;
    let (_, anon_cookie) = caller.anon_or_new()?;
    let secret = accounts::open_session(&shared.games, &opener(&caller), &user).await?;
    let cookie = caller.cookie(SESSION_COOKIE, &secret, SESSION_SECONDS);
    let answer = with_cookie(Some(cookie), Json(account_answer(&user)).into_response());
    Ok(with_cookie(anon_cookie, answer))
}

async fn log_out(State(shared): State<Shared>, caller: Caller) -> Result<Response, ApiError> {
    if let Some(logged_in) = &caller.logged_in {
        accounts::end_session(&shared.games.store, &logged_in.id_hash).await?;
        shared
            .connections
            .close_where(|c| c.session.as_deref() == Some(logged_in.id_hash.as_str()));
    }
    Ok(without_session(&caller))
}

async fn account(caller: Caller) -> Result<Json<Account>, ApiError> {
    Ok(Json(account_answer(&logged_in(&caller)?.user)))
}

/// Who is logged in, nobody being an answer too (a page asks on every load: a 401 would be
/// an error in its console).
async fn session(caller: Caller) -> Json<SessionInfoAnswer> {
    let account = caller.logged_in.as_ref().map(|l| account_answer(&l.user));
    Json(SessionInfoAnswer { account })
}

async fn change_password(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<PasswordChange>,
) -> Result<Json<Account>, ApiError> {
    let me = logged_in(&caller)?;
    check_login(&shared, &caller, &me.user.username, req.password).await?;
    let store = &shared.games.store;
    accounts::change_password(store, &me.user, &me.id_hash, req.new_password).await?;
    end_connections(&shared, &me.user, &me.id_hash);
    Ok(Json(account_answer(&me.user)))
}

/// The account's sessions, each with its browser, address and last use.
async fn sessions(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<Sessions>, ApiError> {
    let me = logged_in(&caller)?;
    let listed = accounts::sessions(&shared.games.store, me.user.id).await?;
    Ok(Json(Sessions {
        sessions: listed
            .into_iter()
            .map(|s| SessionInfo::of(s, &me.id_hash))
            .collect(),
    }))
}

/// Ends one of the account's sessions by its public id (the asker's own too: a log-out),
/// and its connections.
async fn end_one_session(
    State(shared): State<Shared>,
    caller: Caller,
    Path(public): Path<String>,
) -> Result<Response, ApiError> {
    let me = logged_in(&caller)?;
    let id_hash = accounts::end_session_of(&shared.games.store, me.user.id, &public).await?;
    shared
        .connections
        .close_where(|c| c.session.as_deref() == Some(id_hash.as_str()));
    // The asker's own session ended: its cookie goes too (one decision for this answer).
    Ok(match id_hash == me.id_hash {
        true => without_session(&caller),
        false => StatusCode::NO_CONTENT.into_response(),
    })
}

async fn end_other_sessions(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<Ended>, ApiError> {
    let me = logged_in(&caller)?;
    let ended = accounts::end_other_sessions(&shared.games.store, me.user.id, &me.id_hash).await?;
    end_connections(&shared, &me.user, &me.id_hash);
    Ok(Json(Ended { ended }))
}

async fn close_account(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<PasswordRequest>,
) -> Result<Response, ApiError> {
    let me = logged_in(&caller)?;
    check_login(&shared, &caller, &me.user.username, req.password).await?;
    let id = me.user.id;
    accounts::close(&shared.games, id).await?;
    tracing::info!(user = id, "account closed");
    shared
        .connections
        .close_where(|c| c.identity == Some(Holder::Account(id)));
    Ok(without_session(&caller))
}

/// A list of games as the API shows it, for `holder`.
fn summary(game: Listed, holder: &Holder) -> GameSummary {
    let side = |c: Color| game.holders[c as usize].as_ref() == Some(holder);
    let player = |c: Color| {
        let i = c as usize;
        player_at(
            &game.seats[i],
            game.holders[i].as_ref(),
            game.names[i].as_deref(),
            game.bots[i],
        )
    };
    GameSummary {
        url: format!("/#/game/{}", game.id),
        players: ByColor::new_with(player),
        you: [Color::Red, Color::Blue].into_iter().find(|&c| side(c)),
        over: game.result != ResultToken::Unfinished || game.termination.is_some(),
        aborted: game.termination == Some(Termination::Aborted),
        id: game.id,
        variant: game.variant,
        result: game.result.to_string(),
        plies: game.plies as u64,
        created: game.created,
        clock: game.clock.map(|clock| clock.control),
    }
}

/// The page asked for and its length, or 400.
fn page_bounds(query: &GamesListQuery) -> Result<(u32, u32), AccountError> {
    accounts::page_bounds(query.page.as_deref(), query.per_page.as_deref())
}

/// One page of `holder`'s games.
async fn games_page(
    shared: &Shared,
    holder: Holder,
    query: GamesListQuery,
    opponent: Option<Holder>,
) -> Result<GamesPage, ApiError> {
    let (page, per_page) = page_bounds(&query)?;
    let q = GamesQuery {
        holder: holder.clone(),
        standing: accounts::standing(query.result.as_deref())?,
        variant: query.variant.filter(|v| !v.is_empty()),
        opponent,
        limit: i64::from(per_page),
        offset: i64::from(per_page) * (i64::from(page) - 1),
    };
    let (listed, total) = accounts::games_of(&shared.games.store, &q).await?;
    Ok(GamesPage {
        games: listed.into_iter().map(|g| summary(g, &holder)).collect(),
        page,
        per_page,
        total,
    })
}

/// The asker's games (their session's, or their browser's): unfinished ones to resume.
async fn my_games(
    State(shared): State<Shared>,
    caller: Caller,
    Params(query): Params<GamesListQuery>,
) -> Result<Json<GamesPage>, ApiError> {
    let (page, per_page) = page_bounds(&query)?;
    let Some(holder) = caller.holder() else {
        // A browser that has never held a seat: no games, on the page it asked for.
        return Ok(Json(GamesPage {
            games: Vec::new(),
            page,
            per_page,
            total: 0,
        }));
    };
    let store = &shared.games.store;
    let opponent = accounts::opponent_holder(store, query.opponent.clone()).await?;
    Ok(Json(games_page(&shared, holder, query, opponent).await?))
}

async fn profile(
    State(shared): State<Shared>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let store = &shared.games.store;
    let user = accounts::user_named(store, &name).await?;
    let standings = accounts::standings(store, &user.holder()).await?;
    let count = |s: GameStanding| {
        standings
            .iter()
            .find(|(t, _)| *t == s)
            .map_or(0, |(_, n)| *n)
    };
    let ongoing = GamesListQuery {
        result: Some("ongoing".into()),
        per_page: Some(MAX_PER_PAGE.to_string()),
        ..GamesListQuery::default()
    };
    let playing = games_page(&shared, user.holder(), ongoing, None).await?;
    Ok(Json(Profile {
        bot: user.bot,
        username: user.username,
        created: user.created,
        counts: Counts {
            // An aborted game was never played.
            games: standings
                .iter()
                .filter(|(s, _)| *s != GameStanding::Aborted)
                .map(|(_, n)| n)
                .sum(),
            wins: count(GameStanding::Win),
            draws: count(GameStanding::Draw),
            losses: count(GameStanding::Loss),
        },
        playing: playing.games,
    }))
}

async fn user_games(
    State(shared): State<Shared>,
    Path(name): Path<String>,
    Params(query): Params<GamesListQuery>,
) -> Result<Json<GamesPage>, ApiError> {
    let store = &shared.games.store;
    let user = accounts::user_named(store, &name).await?;
    let opponent = accounts::opponent_holder(store, query.opponent.clone()).await?;
    Ok(Json(
        games_page(&shared, user.holder(), query, opponent).await?,
    ))
}

/// Everything the server keeps of the account, as one JSON file.
async fn export(
    State(shared): State<Shared>,
    caller: Caller,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let me = logged_in(&caller)?;
    let kept = accounts::kept(&shared.games.store, me.user.id).await?;
    let ratings = crate::ratings::ratings_of(&shared, me.user.id).await?;
    let mut all = Vec::new();
    let mut page = 1;
    loop {
        let query = GamesListQuery {
            page: Some(page.to_string()),
            per_page: Some(MAX_PER_PAGE.to_string()),
            ..GamesListQuery::default()
        };
        let got = games_page(&shared, me.user.holder(), query, None).await?;
        let done = got.games.len() < MAX_PER_PAGE as usize;
        all.extend(got.games);
        if done {
            break;
        }
        page += 1;
    }
    // Each game's record, with the tags a download has.
    let site = crate::api::site_of(&shared, &headers);
    let mut records = Vec::with_capacity(all.len());
    for game in &all {
        let site = site.clone();
        let (_, record) = shared
            .games
            .read(&game.id, &Who::Nobody, move |live, _| live.record(&site))
            .await?;
        records.push(ExportedRecord {
            game: game.id.clone(),
            record,
        });
    }
    let body = Export {
        account: account_answer(&me.user),
        records,
        sessions: kept
            .sessions
            .into_iter()
            .map(|s| SessionInfo::of(s, &me.id_hash))
            .collect(),
        games: all,
        ratings,
        tokens: kept.tokens.into_iter().map(Into::into).collect(),
        arenas: kept
            .arenas
            .into_iter()
            .map(|(arena, joined_ms, left_ms)| ArenaJoined {
                arena,
                joined_ms,
                left_ms,
            })
            .collect(),
        footprints: kept.footprints.into_iter().map(Into::into).collect(),
    };
    let filename = format!("attachment; filename=\"lgame-{}.json\"", me.user.username);
    Ok(([(header::CONTENT_DISPOSITION, filename)], Json(body)).into_response())
}
