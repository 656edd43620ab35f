//! The HTTP and WebSocket API (docs/api.md): routes, request bodies, and the bounds on what
//! a client may ask.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{
    ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Path, Request, State,
};
use axum::http::{header, request::Parts, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lgame::{Move, Record};
use lgame_players::seated::Seat;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, watch, OwnedMutexGuard, Semaphore};

use crate::error::ApiError;
use crate::explore;
use crate::games::{self, App, GameError, Input, Live, NewGame, Slot};
use crate::request::{
    AnalysisQuery, CreateRequest, GameQuery, ImportRequest, MoveRequest, QrQuery, TokenRequest,
};
use crate::response::{
    Analysis, Catalog, ClassesAnswer, Created, GameState, Health, PlayerLinks, Players,
    PositionAnswer, RecordAnswer, TablesHealth,
};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// Everything a handler needs.
#[derive(Clone)]
pub struct Shared {
    pub app: Arc<App>,
    pub limiter: Arc<RateLimiter>,
    /// Analysis and classes requests per address (`tables.rs` serves their tables).
    pub analysis_limiter: Arc<RateLimiter>,
    /// Turns to solve a table for those requests: as many as the table cache's solvers.
    pub solvers: Arc<Semaphore>,
    pub websockets: Arc<Semaphore>,
    pub max_websockets: usize,
    pub shutdown: watch::Receiver<bool>,
}

/// Requests per client address: a token bucket for each, holding at most `per_minute`
/// requests and refilled at `per_minute` a minute, so that a burst of a minute's worth
/// passes and then one every `60 / per_minute` seconds. Games created, and analysis and
/// classes requests, each have their own.
pub struct RateLimiter {
    per_minute: u32,
    /// What is counted, for the refusal: `games created`.
    what: &'static str,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// Requests an address may still make (fractions count as they refill), as of `at`.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter {
    /// At most `per_minute` `what` a minute from one address; 0: no limit.
    pub fn new(per_minute: u32, what: &'static str) -> RateLimiter {
        RateLimiter {
            per_minute,
            what,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from the address's bucket, or says how long until there is one.
    fn take(&self, ip: IpAddr) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let full = f64::from(self.per_minute);
        let per_second = full / 60.0;
        let now = Instant::now();
        let refilled =
            |b: &Bucket| (b.tokens + now.duration_since(b.at).as_secs_f64() * per_second).min(full);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // A full bucket is the same as none.
            buckets.retain(|_, b| refilled(b) < full);
        }
        let bucket = buckets.entry(ip).or_insert(Bucket {
            tokens: full,
            at: now,
        });
        bucket.tokens = refilled(bucket);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }

    /// Counts a request from `ip`, or refuses it: 429 with `Retry-After`.
    pub fn check(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.take(ip).map_err(|wait| {
            let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many {} from this address: at most {} a minute; retry in {seconds} s",
                    self.what, self.per_minute
                ),
            )
            .retry_after(seconds)
        })
    }
}

/// A JSON body, its rejections answered as JSON errors.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => body_too_large(),
        status => ApiError::new(status, rejection.body_text()),
    }
}

/// The refusal of a body over [`MAX_BODY`].
pub fn body_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the request body is too large (at most {} bytes)", MAX_BODY),
    )
}

/// Query parameters, their rejections answered as JSON errors.
pub struct Params<T>(pub T);

impl<S, T> FromRequestParts<S> for Params<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(q) => Ok(Params(q.0)),
            Err(rejection) => Err(query_rejection(rejection)),
        }
    }
}

fn query_rejection(rejection: QueryRejection) -> ApiError {
    ApiError::new(rejection.status(), rejection.body_text())
}

/// The routes.
pub fn router(shared: Shared) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/undo/accept", post(undo_accept))
        .route("/api/games/{id}/undo/decline", post(undo_decline))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(websocket))
        .route("/api/analysis", get(analysis))
        .route("/api/position", get(position))
        .route("/api/classes", get(classes))
        .route("/api/catalog", get(catalog))
        .route("/api/qr", get(qr))
        .route("/api/diagram", get(diagram))
        .route("/api/records", post(records))
        .route("/", get(crate::assets::index))
        .route("/@/{name}", get(crate::assets::profile))
        .route("/assets/{*path}", get(crate::assets::asset))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(log_request))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // gzip when the client accepts it; small answers, pictures other than SVG and the
        // WebSocket's handshake go as they are.
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(shared)
}

/// One line per request: method, path (never the query, which may hold a token), status,
/// time. Bodies, where tokens travel, are never logged.
async fn log_request(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let started = Instant::now();
    let response = next.run(req).await;
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "request"
    );
    response
}

async fn not_found(req: Request) -> ApiError {
    let path: String = req.uri().path().chars().take(100).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no such endpoint: {} {path}", req.method()),
    )
}

async fn method_not_allowed(req: Request) -> ApiError {
    let path: String = req.uri().path().chars().take(100).collect();
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} is not allowed on {path}", req.method()),
    )
}

async fn healthz(State(shared): State<Shared>) -> Json<Health> {
    Json(health(&shared.app))
}

/// The answer to `GET /healthz`.
pub(crate) fn health(app: &App) -> Health {
    let tables = app.tablebases.stats();
    Health {
        status: "ok",
        games_in_memory: app.cached_games(),
        tables: TablesHealth {
            held: tables.tables,
            bytes: tables.bytes,
            budget: app.tablebases.budget(),
            solving: tables.solving,
            solves: tables.solves,
        },
    }
}

/// Runs blocking work (the database, the computer's move, a solve) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, GameError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(answer) => Ok(answer?),
        Err(e) => Err(ApiError::internal("the request failed", e)),
    }
}

/// The game, loaded from the database if it is not in memory. On a database other
/// instances share, a game in memory is first brought up to the database's copy.
async fn slot(app: &Arc<App>, id: &str) -> Result<Arc<Slot>, ApiError> {
    let slot = unchecked_slot(app, id).await?;
    if app.store.shared() {
        let mut live = slot.live.clone().lock_owned().await;
        let (worker, updates) = (app.clone(), slot.updates.clone());
        blocking(move || worker.catch_up(&mut live, &updates)).await?;
    }
    Ok(slot)
}

/// The game, loaded from the database if it is not in memory, but not checked against it:
/// for a change, which the database refuses if made on a stale copy, and whose refusals
/// are checked before they are answered (`play`).
async fn unchecked_slot(app: &Arc<App>, id: &str) -> Result<Arc<Slot>, ApiError> {
    let not_found = || GameError::NoGame(id.to_string());
    if !games::valid_id(id) {
        return Err(not_found().into());
    }
    if let Some(slot) = app.cached(id) {
        return Ok(slot);
    }
    let (loader, key) = (app.clone(), id.to_string());
    match blocking(move || loader.load(&key)).await? {
        Some(live) => {
            let resume = live.plays_itself();
            let slot = app.insert(live);
            if resume {
                crate::autoplay::start(app.clone(), id.to_string(), slot.clone());
            }
            Ok(slot)
        }
        None => Err(not_found().into()),
    }
}

/// Runs a change to a game under its lock, off the async threads; if another instance
/// changed the game first, once more on the database's copy. Should it panic, the game is
/// dropped from memory and reloaded from the database next time.
async fn change(
    app: &Arc<App>,
    id: &str,
    f: impl Fn(
            &mut OwnedMutexGuard<Live>,
            &App,
            &broadcast::Sender<Arc<str>>,
        ) -> Result<GameState, GameError>
        + Send
        + 'static,
) -> Result<Json<GameState>, ApiError> {
    let slot = slot(app, id).await?;
    let mut guard = slot.live.clone().lock_owned().await;
    let worker = app.clone();
    let updates = slot.updates.clone();
    let result = tokio::task::spawn_blocking(move || match f(&mut guard, &worker, &updates) {
        Err(GameError::Outdated) => {
            worker.refresh(&mut guard, &updates)?;
            f(&mut guard, &worker, &updates)
        }
        answer => answer,
    })
    .await;
    match result {
        Ok(answer) => Ok(Json(answer?)),
        Err(e) => {
            app.forget(id);
            Err(ApiError::internal("the request failed", e))
        }
    }
}

/// A new game's answer (201).
fn created_answer(started: games::Started) -> Response {
    (StatusCode::CREATED, Json(created(started))).into_response()
}

/// A new game with its public and private URLs (paths on this server).
pub(crate) fn created(started: games::Started) -> Created {
    let games::Started { id, tokens, state } = started;
    let links = |token: &Option<String>| {
        token.as_ref().map(|token| PlayerLinks {
            token: token.clone(),
            url: format!("/api/games/{id}?token={token}"),
            ws: format!("/api/games/{id}/ws?token={token}"),
        })
    };
    let players = Players {
        red: links(&tokens[0]),
        blue: links(&tokens[1]),
    };
    Created {
        spectator_url: format!("/api/games/{id}"),
        watch_page: format!("/#/game/{id}"),
        ws: format!("/api/games/{id}/ws"),
        players,
        state,
        id,
    }
}

async fn create(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(req): Body<CreateRequest>,
) -> Result<Response, ApiError> {
    let seats = [
        games::parse_seat("red", &req.red)?,
        games::parse_seat("blue", &req.blue)?,
    ];
    let rules = games::parse_rules(req.variant.as_deref().unwrap_or("classic"))?;
    let rules = match &req.setup {
        Some(setup) => games::with_setup(&rules, setup)?,
        None => rules,
    };
    let draw = games::draw_rules(req.repetition.unwrap_or(3), req.turn_limit.unwrap_or(0));
    let game = lgame::Game::new(rules).with_draw_rules(draw);
    shared.limiter.check(peer.ip())?;
    let app = shared.app.clone();
    let started = blocking(move || app.create(NewGame { game, seats })).await?;
    tracing::info!(game = %started.id, red = %req.red, blue = %req.blue, "game created");
    play_if_computers(&shared.app, &started.id).await;
    Ok(created_answer(started))
}

/// Starts playing a new game out if both its sides are computers.
async fn play_if_computers(app: &Arc<App>, id: &str) {
    if let Some(slot) = app.cached(id) {
        if slot.live.lock().await.plays_itself() {
            crate::autoplay::start(app.clone(), id.to_string(), slot.clone());
        }
    }
}

async fn import(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(req): Body<ImportRequest>,
) -> Result<Response, ApiError> {
    let seats: [Seat; 2] = [
        games::parse_seat("red", req.red.as_deref().unwrap_or("human"))?,
        games::parse_seat("blue", req.blue.as_deref().unwrap_or("human"))?,
    ];
    let record: Record = req
        .record
        .parse()
        .map_err(|e| GameError::Invalid(Input::Record, format!("record: {e}")))?;
    let game = record
        .replay()
        .map_err(|e| GameError::Invalid(Input::Record, format!("record: {e}")))?;
    shared.limiter.check(peer.ip())?;
    let app = shared.app.clone();
    let started = blocking(move || app.create(NewGame { game, seats })).await?;
    tracing::info!(game = %started.id, "game imported");
    play_if_computers(&shared.app, &started.id).await;
    Ok(created_answer(started))
}

async fn show(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Params(query): Params<GameQuery>,
) -> Result<Json<GameState>, ApiError> {
    let slot = slot(&shared.app, &id).await?;
    let live = slot.live.lock().await;
    let mut state = live.state();
    if let Some(token) = &query.token {
        state.you = Some(live.side_of(token).ok_or(GameError::NotASide)?);
    }
    Ok(Json(state))
}

async fn play(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Body(req): Body<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    let mv: Move = req
        .mv
        .parse()
        .map_err(|e| GameError::Invalid(Input::Move, format!("move '{}': {e}", req.mv)))?;
    let app = shared.app.clone();
    let slot = unchecked_slot(&app, &id).await?;
    let game = id.clone();
    // One task makes and settles the change, so that it runs to its end (the change answered
    // or taken back) even if the client goes away while the commit syncs.
    let task = tokio::spawn(async move {
        let mut live = slot.live.clone().lock_owned().await;
        let req = Arc::new(req);
        // Made on the copy in memory. On a database other instances share, that copy may be
        // stale: a move made on it is refused by the database, and a refusal made by it is
        // not to be trusted; then once more on the database's copy (where the ply may be
        // taken: 409).
        for refresh in [false, true] {
            let queued = if !refresh && live.replies_quick(&app.tablebases) {
                // The reply is a few lookups in a table held: made here, sparing the hop to
                // a blocking thread and back (most of a move's thread switches).
                live.play_queued(&app.store, &req.token, req.ply, &mv)
            } else {
                let (worker, updates, req) = (app.clone(), slot.updates.clone(), req.clone());
                // Otherwise the move and the computer's reply are made on a blocking thread
                // (a reply may solve a table, search, or ask an engine; a refresh reads the
                // database) and queued for the writer; the thread is then free.
                let made = tokio::task::spawn_blocking(move || {
                    if refresh {
                        if let Err(e) = worker.catch_up(&mut live, &updates) {
                            return (live, Err(e));
                        }
                    }
                    let queued = live.play_queued(&worker.store, &req.token, req.ply, &mv);
                    (live, queued)
                })
                .await;
                let queued;
                (live, queued) = match made {
                    Ok(made) => made,
                    Err(e) => {
                        app.forget(&game);
                        return Err(ApiError::internal("the request failed", e));
                    }
                };
                queued
            };
            // The commit is awaited with the game's lock held: the next change of this game
            // starts only once this one is stored (or taken back), so a game has one change
            // in the writer's queue at a time and its changes are written in order, and
            // nobody sees the change (the answer, the watchers, another request) before it
            // is stored.
            let queued = match queued {
                Err(_) if !refresh && app.store.shared() => continue,
                queued => queued?,
            };
            match queued.settle(&mut live, &slot.updates).await {
                Err(GameError::Outdated) if !refresh => continue,
                settled => return Ok(settled?),
            }
        }
        unreachable!("the second try returns")
    });
    match task.await {
        Ok(answer) => Ok(Json(answer?)),
        Err(e) => {
            shared.app.forget(&id);
            Err(ApiError::internal("the request failed", e))
        }
    }
}

async fn undo(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    change(&shared.app, &id, move |live, app, updates| {
        live.undo(&app.store, updates, &req.token)
    })
    .await
}

async fn draw(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    change(&shared.app, &id, move |live, app, updates| {
        live.offer_draw(&app.store, &app.tablebases, updates, &req.token)
    })
    .await
}

async fn undo_accept(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    change(&shared.app, &id, move |live, app, updates| {
        live.answer_undo(&app.store, updates, &req.token, games::Answer::Accept)
    })
    .await
}

async fn undo_decline(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    change(&shared.app, &id, move |live, app, updates| {
        live.answer_undo(&app.store, updates, &req.token, games::Answer::Decline)
    })
    .await
}

/// A finished game's rematch: created by the first side to ask (201), each person's token
/// given to them alone.
async fn rematch(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    shared.limiter.check(peer.ip())?;
    let slot = slot(&shared.app, &id).await?;
    let mut live = slot.live.clone().lock_owned().await;
    let (app, updates) = (shared.app.clone(), slot.updates.clone());
    let started = blocking(move || app.rematch(&mut live, &updates, &req.token)).await?;
    tracing::info!(game = %started.id, of = %id, "rematch");
    Ok(created_answer(started))
}

async fn resign(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    change(&shared.app, &id, move |live, app, updates| {
        live.resign(&app.store, updates, &req.token)
    })
    .await
}

async fn record(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = slot(&shared.app, &id).await?;
    let text = slot.live.lock().await.record();
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn analysis(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Params(query): Params<AnalysisQuery>,
) -> Result<Json<Analysis>, ApiError> {
    shared.analysis_limiter.check(peer.ip())?;
    let position = explore::read_position(query.variant.as_deref(), &query.position)?;
    let tb = crate::tables::table(&shared.app, &shared.solvers, *position.rules()).await?;
    blocking(move || {
        tb.analyze(&position)
            .map(Json)
            .map_err(|e| GameError::Unservable(e.to_string()))
    })
    .await
}

async fn position(
    Params(query): Params<explore::PositionQuery>,
) -> Result<Json<PositionAnswer>, ApiError> {
    blocking(move || explore::position_answer(&query).map(Json)).await
}

/// What the page offers and shows: variants, setups, levels, the classic game's figures.
async fn catalog(State(shared): State<Shared>) -> Result<Json<Catalog>, ApiError> {
    let max_table_states = shared.app.max_table_states;
    blocking(move || Ok(Json(crate::catalog::catalog(max_table_states)))).await
}

async fn classes(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Params(query): Params<explore::ClassesQuery>,
) -> Result<Json<ClassesAnswer>, ApiError> {
    shared.analysis_limiter.check(peer.ip())?;
    let rules = games::parse_rules(query.variant.as_deref().unwrap_or("classic"))?;
    let value = explore::read_value(&query.value)?;
    let tb = crate::tables::table(&shared.app, &shared.solvers, rules).await?;
    blocking(move || {
        Ok(Json(explore::classes_answer(
            &tb,
            &rules,
            value,
            query.plies,
        )))
    })
    .await
}

async fn qr(Params(query): Params<QrQuery>) -> Result<Response, ApiError> {
    let svg = explore::qr_svg(&query.text)?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

async fn diagram(Params(query): Params<explore::DiagramQuery>) -> Result<Response, ApiError> {
    let svg = blocking(move || explore::diagram(&query)).await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

async fn records(
    Body(request): Body<explore::RecordRequest>,
) -> Result<Json<RecordAnswer>, ApiError> {
    blocking(move || explore::record_answer(&request).map(Json)).await
}

async fn websocket(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Params(query): Params<GameQuery>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = slot(&shared.app, &id).await?;
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let side = match &query.token {
        Some(token) => Some(
            slot.live
                .lock()
                .await
                .side_of(token)
                .ok_or(GameError::NotASide)?,
        ),
        None => None,
    };
    let permit = shared.websockets.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "too many open WebSockets (at most {})",
                shared.max_websockets
            ),
        )
    })?;
    let shutdown = shared.shutdown.clone();
    let app = shared.app.clone();
    Ok(upgrade
        .max_message_size(MAX_BODY)
        .on_upgrade(move |socket| async move {
            // A player's socket says they are here, from its first message to its close.
            if let Some(side) = side {
                slot.live
                    .lock()
                    .await
                    .presence(&app.store, side, true, &slot.updates);
            }
            watch_game(socket, slot.clone(), shutdown).await;
            if let Some(side) = side {
                slot.live
                    .lock()
                    .await
                    .presence(&app.store, side, false, &slot.updates);
            }
            drop(permit);
        }))
}

/// A watcher's session: the state now, then after every change, until either side closes
/// or the server stops. What the client sends is read and ignored.
async fn watch_game(mut socket: WebSocket, slot: Arc<Slot>, mut shutdown: watch::Receiver<bool>) {
    let (first, mut updates) = {
        let live = slot.live.lock().await;
        (live.message(), slot.updates.subscribe())
    };
    if socket
        .send(Message::Text(first.as_ref().into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => text,
                    // Fell behind: the changes missed are lost, so the whole state again,
                    // and the changes after it (the game's lock orders the two).
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let live = slot.live.lock().await;
                        updates = slot.updates.subscribe();
                        live.message()
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            },
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
}
