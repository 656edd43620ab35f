//! Accounts over HTTP (docs/accounts.md): sign up, log in and out, the account's settings,
//! its data, and everyone's profiles and lists of games. Who asks is `identity.rs`'s
//! [`Caller`]; names and passwords are checked and hashed by `credentials.rs`; the rows are
//! the store's (`store/accounts.rs`).

use std::net::IpAddr;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lgame::{ByColor, Color};

use crate::accounts::api::{
    Account, ArenaJoined, Counts, Ended, Export, ExportedRecord, GameSummary, GamesPage, Profile,
    SessionInfo, SessionInfoAnswer, Sessions,
};
use crate::accounts::api::{
    GamesListQuery, LogInRequest, PasswordChange, PasswordRequest, SignUpRequest,
};
use crate::api::{with_cookie, RateLimiter, Shared};
use crate::clock::Clock;
use crate::cpu::cpu_bound;
use crate::credentials::{self, new_secret, secret_hash};
use crate::error::ApiError;
use crate::extract::{Body, Params};
use crate::games::{player_at, GameError, Games, Who};
use crate::identity::{Caller, LoggedIn, SESSION_COOKIE, SESSION_SECONDS};
use crate::store::{
    user_holder, wait, GameStanding, GamesQuery, Listed, NewUser, Session, User, UserBy,
    UserChange, SESSION_ID_LEN,
};

pub(crate) mod api;

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

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the accounts' database", e)
}

pub(crate) fn no_session() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "you are not logged in").kind("no_session")
}

fn wrong_credentials() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "wrong username or password").kind("wrong_credentials")
}

/// A password refused by the rules (`credentials::check_password`): its own kind, so that a
/// page puts the person back in the password field.
fn bad_password(message: String) -> ApiError {
    invalid(message).kind("bad_password")
}

fn invalid(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message).kind("invalid")
}

/// The caller's session, or 401.
pub(crate) fn logged_in(caller: &Caller) -> Result<&LoggedIn, ApiError> {
    caller.logged_in.as_ref().ok_or_else(no_session)
}

fn account_answer(user: &User) -> Account {
    Account {
        username: user.username.clone(),
        bot: user.bot,
        email: user.email.clone(),
        created: user.created,
    }
}

/// A new session for the account: its cookie, the browser's anonymous games kept by the
/// account, and the browser and address it is used from noted (`fairplay.rs`). (Blocking.)
fn open_session(games: &Games, caller: &Caller, user: &User) -> Result<HeaderValue, GameError> {
    let secret = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let now_ms = games.time.now_ms();
    let now = now_ms.div_euclid(1000);
    let session = Session {
        user: user.id,
        created: now,
        used: now,
        expires: now + SESSION_SECONDS,
        device: caller.device.clone(),
        address: caller.ip.map(|ip| ip.to_string()),
    };
    wait(games.store.insert_session(&secret_hash(&secret), &session)).map_err(storage)?;
    if let Some(anon) = caller.anon_holder() {
        wait(games.adopt_seats(&anon, &user.holder()))?;
    }
    wait(crate::fairplay::note_use(
        &games.store,
        caller,
        user.id,
        now_ms,
    ))?;
    Ok(caller.cookie(SESSION_COOKIE, &secret, SESSION_SECONDS))
}

/// Ends at once this instance's WebSockets and streams opened with `user`'s sessions but
/// `keep`'s (the asker's), ended; the other instances end theirs at their next sweep
/// (`connections.rs`).
fn end_connections(shared: &Shared, user: &User, keep: &str) {
    let holder = user.holder();
    shared.connections.close_where(|c| {
        c.identity.as_deref() == Some(holder.as_str())
            && c.session.as_deref().is_some_and(|s| s != keep)
    });
}

/// An email address, roughly checked: it is only ever shown to its owner.
fn check_email(email: &str) -> Result<(), String> {
    let ok = email.len() <= 254
        && email.split_once('@').is_some_and(|(user, host)| {
            !user.is_empty() && host.contains('.') && !host.starts_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    ok.then_some(())
        .ok_or_else(|| format!("'{email}' is not an email address"))
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
    credentials::check_username(&req.username).map_err(|e| invalid(e).kind("bad_username"))?;
    credentials::check_password(&req.password, &req.username).map_err(bad_password)?;
    let email = req.email.filter(|e| !e.trim().is_empty());
    if let Some(email) = &email {
        check_email(email).map_err(|e| invalid(e).kind("bad_email"))?;
    }
    refuse_look_alike(&shared, &req.username, None).await?;
    let (_, anon_cookie) = caller.anon_or_new()?;
    let games = shared.games.clone();
    let (user, cookie) = cpu_bound(move || {
        let hash = credentials::hash_password(&req.password)
            .map_err(|e| GameError::internal("hashing the password", e))?;
        let new = NewUser {
            key: credentials::username_key(&req.username),
            username: req.username,
            password_hash: hash,
            email,
        };
        let now_s = games.time.now_ms().div_euclid(1000);
        let Some(id) = wait(games.store.create_user(&new, now_s)).map_err(storage)? else {
            return Ok(Err(new.username));
        };
        let user = wait(games.store.user(UserBy::Id(id)))
            .map_err(storage)?
            .ok_or_else(|| GameError::internal("signing up", "the new account is gone"))?;
        let cookie = open_session(&games, &caller, &user)?;
        Ok(Ok((user, cookie)))
    })
    .await?
    .map_err(|name| {
        ApiError::new(
            StatusCode::CONFLICT,
            format!("the username '{name}' is taken (names are the same whatever their case)"),
        )
        .kind("username_taken")
    })?;
    shared.account_limits.sign_ups.count(ip, time.now_ms());
    tracing::info!(user = user.id, "account made");
    let answer = (StatusCode::CREATED, Json(account_answer(&user))).into_response();
    Ok(with_cookie(anon_cookie, with_cookie(Some(cookie), answer)))
}

/// Refuses a username that reads as an existing account's (`credentials::username_fold`):
/// 409 `username_lookalike`, naming it. The same name in another case is `username_taken`,
/// as the insert finds.
async fn refuse_look_alike(
    shared: &Shared,
    username: &str,
    except: Option<i64>,
) -> Result<(), ApiError> {
    let (games, name) = (shared.games.clone(), username.to_string());
    let found = games
        .store
        .look_alike(&name, except)
        .await
        .map_err(storage)?;
    match found {
        Some(existing)
            if credentials::username_key(&existing) != credentials::username_key(username) =>
        {
            let message = format!(
                "the username '{username}' reads as the player '{existing}' \
                 (names are compared ignoring case, '_', '-' and '.', and 0/o, 1/i/l, 5/s, 8/b, \
                 rn/m, vv/w): choose another"
            );
            Err(ApiError::new(StatusCode::CONFLICT, message).kind("username_lookalike"))
        }
        _ => Ok(()),
    }
}

/// Checks a password for an account named by its username's key: the account if right.
/// An unknown name costs the same time as a wrong password, and both count against the
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
    let user = shared
        .games
        .store
        .user(UserBy::Key(&key))
        .await
        .map_err(storage)?;
    // Argon2 takes its time: off the async threads.
    let user = cpu_bound(move || {
        let hash = user.as_ref().map(|u| u.password_hash.as_str());
        Ok(credentials::verify_password(&password, hash)
            .then_some(user)
            .flatten())
    })
    .await?;
    let Some(user) = user else {
        limits.failures.count(ip, time.now_ms());
        limits.account_failures.count((key, ip), time.now_ms());
        return Err(wrong_credentials());
    };
    if user.disabled {
        return Err(
            ApiError::new(StatusCode::FORBIDDEN, "this account is disabled").kind("disabled"),
        );
    }
    Ok(user)
}

async fn log_in(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<LogInRequest>,
) -> Result<Response, ApiError> {
    let user = check_login(&shared, &caller, &req.username, req.password).await?;
    let (_, anon_cookie) = caller.anon_or_new()?;
    let games = shared.games.clone();
    let (cookie, user) = cpu_bound(move || {
        let cookie = open_session(&games, &caller, &user)?;
        Ok((cookie, user))
    })
    .await?;
    let answer = with_cookie(Some(cookie), Json(account_answer(&user)).into_response());
    Ok(with_cookie(anon_cookie, answer))
}

async fn log_out(State(shared): State<Shared>, caller: Caller) -> Result<Response, ApiError> {
    if let Some(logged_in) = caller.logged_in.clone() {
        let games = shared.games.clone();
        let id_hash = logged_in.id_hash.clone();
        games.store.end_session(&id_hash).await.map_err(storage)?;
        shared
            .connections
            .close_where(|c| c.session.as_deref() == Some(logged_in.id_hash.as_str()));
    }
    let clear = caller.cookie(SESSION_COOKIE, "", 0);
    Ok(with_cookie(
        Some(clear),
        StatusCode::NO_CONTENT.into_response(),
    ))
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
    let me = logged_in(&caller)?.clone();
    check_login(&shared, &caller, &me.user.username, req.password).await?;
    credentials::check_password(&req.new_password, &me.user.username).map_err(bad_password)?;
    let hash = cpu_bound(move || {
        credentials::hash_password(&req.new_password)
            .map_err(|e| GameError::internal("hashing the password", e))
    })
    .await?;
    let store = &shared.games.store;
    store
        .change_user(me.user.id, &UserChange::Password(hash))
        .await
        .map_err(storage)?;
    // Whoever else knew the old password is logged out.
    store
        .end_sessions(me.user.id, Some(&me.id_hash))
        .await
        .map_err(storage)?;
    end_connections(&shared, &me.user, &me.id_hash);
    Ok(Json(account_answer(&me.user)))
}

/// The account's sessions, each with its browser, address and last use.
async fn sessions(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<Sessions>, ApiError> {
    let me = logged_in(&caller)?.clone();
    let (games, id) = (shared.games.clone(), me.user.id);
    let listed = games.store.sessions_of(id).await.map_err(storage)?;
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
    let me = logged_in(&caller)?.clone();
    let readable = public.len() == SESSION_ID_LEN && public.bytes().all(|b| b.is_ascii_hexdigit());
    let (games, id) = (shared.games.clone(), me.user.id);
    let ended = match readable {
        true => {
            let asked = public.to_ascii_lowercase();
            games
                .store
                .end_session_of(id, &asked)
                .await
                .map_err(storage)?
        }
        false => None,
    };
    let Some(id_hash) = ended else {
        let message = format!("no session '{public}' of this account");
        return Err(ApiError::new(StatusCode::NOT_FOUND, message).kind("no_such_session"));
    };
    shared
        .connections
        .close_where(|c| c.session.as_deref() == Some(id_hash.as_str()));
    // The asker's own session ended: its cookie goes too (one decision for this answer).
    let own = id_hash == me.id_hash;
    let answer = StatusCode::NO_CONTENT.into_response();
    Ok(match own {
        true => with_cookie(Some(caller.cookie(SESSION_COOKIE, "", 0)), answer),
        false => answer,
    })
}

async fn end_other_sessions(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<Ended>, ApiError> {
    let me = logged_in(&caller)?.clone();
    let games = shared.games.clone();
    let (id, keep) = (me.user.id, me.id_hash.clone());
    let ended = games
        .store
        .end_sessions(id, Some(&keep))
        .await
        .map_err(storage)?;
    end_connections(&shared, &me.user, &me.id_hash);
    Ok(Json(Ended { ended }))
}

async fn close_account(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<PasswordRequest>,
) -> Result<Response, ApiError> {
    let me = logged_in(&caller)?.clone();
    check_login(&shared, &caller, &me.user.username, req.password).await?;
    let games = shared.games.clone();
    let id = me.user.id;
    cpu_bound(move || {
        let held = wait(games.held_by(&user_holder(id)))?;
        wait(games.store.delete_user(id)).map_err(storage)?;
        // The games in memory show the player as deleted from now on.
        wait(games.refresh_cached(&held))
    })
    .await?;
    tracing::info!(user = id, "account closed");
    shared
        .connections
        .close_where(|c| c.identity.as_deref() == Some(user_holder(id).as_str()));
    let clear = caller.cookie(SESSION_COOKIE, "", 0);
    Ok(with_cookie(
        Some(clear),
        StatusCode::NO_CONTENT.into_response(),
    ))
}

/// The most games in one page of a list.
const MAX_PER_PAGE: u32 = 100;

/// A list of games as the API shows it, for `holder`.
fn summary(game: Listed, holder: &str) -> GameSummary {
    let side = |c: Color| game.holders[c as usize].as_deref() == Some(holder);
    let player = |c: Color| {
        let i = c as usize;
        player_at(
            &game.seats[i],
            game.holders[i].as_deref(),
            game.names[i].as_deref(),
            game.bots[i],
        )
    };
    GameSummary {
        url: format!("/#/game/{}", game.id),
        players: ByColor::new_with(player),
        you: [Color::Red, Color::Blue].into_iter().find(|&c| side(c)),
        over: game.result != "*" || game.termination.is_some(),
        aborted: game.termination.as_deref() == Some("aborted"),
        id: game.id,
        variant: game.variant,
        result: game.result,
        plies: game.plies as u64,
        created: game.created,
        clock: game
            .clock
            .and_then(|json| serde_json::from_str::<Clock>(&json).ok())
            .map(|clock| clock.control),
    }
}

/// The page asked for and its length (default the first 20, at most 100), or 400.
fn page_bounds(query: &GamesListQuery) -> Result<(u32, u32), ApiError> {
    let read = |text: &Option<String>, default: u32| {
        match text {
        None => Ok(default),
        Some(text) => match text.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(invalid(format!(
                "'{text}' is not a page number or size: pages count from 1, and a page holds at least one game"
            ))),
        },
    }
    };
    Ok((
        read(&query.page, 1)?,
        read(&query.per_page, 20)?.min(MAX_PER_PAGE),
    ))
}

/// One page of `holder`'s games.
async fn games_page(
    shared: &Shared,
    holder: String,
    query: GamesListQuery,
    opponent: Option<String>,
) -> Result<GamesPage, ApiError> {
    let (page, per_page) = page_bounds(&query)?;
    let standing = match query.result.as_deref() {
        None | Some("") => None,
        Some(name) => Some(GameStanding::from_name(name).ok_or_else(|| {
            invalid(format!(
                "'{name}' is not a result to filter by: win, draw, loss, ongoing or aborted"
            ))
        })?),
    };
    let q = GamesQuery {
        holder: holder.clone(),
        standing,
        variant: query.variant.filter(|v| !v.is_empty()),
        opponent,
        limit: i64::from(per_page),
        offset: i64::from(per_page) * (i64::from(page) - 1),
    };
    let games = shared.games.clone();
    let (listed, total) = games.store.games_of(&q).await.map_err(storage)?;
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
    let opponent = opponent_holder(&shared, query.opponent.clone()).await?;
    Ok(Json(games_page(&shared, holder, query, opponent).await?))
}

/// An account by its username (any case), or 404.
pub(crate) async fn user_named(shared: &Shared, name: &str) -> Result<User, ApiError> {
    let (games, key) = (shared.games.clone(), credentials::username_key(name));
    let user = games.store.user(UserBy::Key(&key)).await.map_err(storage)?;
    user.ok_or_else(|| {
        let name: String = name.chars().take(40).collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no player is named '{name}'"),
        )
        .kind("no_user")
    })
}

/// The holder of the opponent filter's account (an unknown name matches no game).
async fn opponent_holder(
    shared: &Shared,
    name: Option<String>,
) -> Result<Option<String>, ApiError> {
    match name.filter(|n| !n.is_empty()) {
        None => Ok(None),
        Some(name) => Ok(Some(match user_named(shared, &name).await {
            Ok(user) => user.holder(),
            Err(e) if e.status == StatusCode::NOT_FOUND => user_holder(-1),
            Err(e) => return Err(e),
        })),
    }
}

async fn profile(
    State(shared): State<Shared>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let user = user_named(&shared, &name).await?;
    let (games, holder) = (shared.games.clone(), user.holder());
    let standings = games.store.standings(&holder).await.map_err(storage)?;
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
    let user = user_named(&shared, &name).await?;
    let opponent = opponent_holder(&shared, query.opponent.clone()).await?;
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
    let me = logged_in(&caller)?.clone();
    let (store, id) = (&shared.games.store, me.user.id);
    let (sessions, tokens, arenas, footprints) = (
        store.sessions_of(id).await.map_err(storage)?,
        store.tokens_of(id).await.map_err(storage)?,
        store.arenas_of(id).await.map_err(storage)?,
        store.footprints_of(id).await.map_err(storage)?,
    );
    let ratings = crate::ratings::ratings_of(&shared, id).await?;
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
        sessions: sessions
            .into_iter()
            .map(|s| SessionInfo::of(s, &me.id_hash))
            .collect(),
        games: all,
        ratings,
        tokens: tokens.into_iter().map(Into::into).collect(),
        arenas: arenas
            .into_iter()
            .map(|(arena, joined_ms, left_ms)| ArenaJoined {
                arena,
                joined_ms,
                left_ms,
            })
            .collect(),
        footprints: footprints.into_iter().map(Into::into).collect(),
    };
    let filename = format!("attachment; filename=\"lgame-{}.json\"", me.user.username);
    Ok(([(header::CONTENT_DISPOSITION, filename)], Json(body)).into_response())
}
