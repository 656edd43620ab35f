//! The HTTP and WebSocket API (docs/api.md): routes, request bodies, and the bounds on what
//! a client may ask. HTTP only: each handler reads the request, names who asks, gives the
//! games a command ([`Games::run`]) or a question, and answers.
//!
//! The router is here, with the games' handlers; a game watched live (its WebSocket and
//! stream) is `api/live.rs`, the questions about positions `explore/routes.rs` and
//! `catalog/routes.rs`, and the other features' handlers their own `routes.rs`.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{DefaultBodyLimit, MatchedPath, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lgame::game::DrawRules;
use lgame::{Color, Move};
use lgame_players::seated::Seat;
use tokio::sync::{watch, Semaphore};
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};

use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::explore;
use crate::extract::{Body, Params, MAX_BODY};
use crate::games::api::{
    Claim, ClaimRequest, CreateRequest, GameQuery, ImportRequest, MoveRequest, SeatRequest,
    TokenRequest,
};
use crate::games::{self, Command, GameError, Games, Input, NewGame, Outcome, SeatBy, Who};
use crate::identity::{Caller, ClientRules};
pub use crate::limits::RateLimiter;
use crate::response::{Created, Health, Invitation, PlayerLinks, Players, TablesHealth};

pub(crate) mod live;
use crate::catalog::routes::catalog;
use crate::explore::routes::{analysis, classes, diagram, position, qr, records};
use live::{stream, websocket, NDJSON};
/// Everything a handler needs.
#[derive(Clone)]
pub struct Shared {
    pub games: Arc<Games>,
    pub limiter: Arc<RateLimiter>,
    /// Analysis and classes requests per address (`tables.rs` serves their tables).
    pub analysis_limiter: Arc<RateLimiter>,
    /// Turns to solve a table for those requests: as many as the table cache's solvers.
    pub solvers: Arc<Semaphore>,
    /// The WebSockets and streams open, per client (`connections.rs`).
    pub connections: Arc<crate::connections::Connections>,
    pub shutdown: watch::Receiver<bool>,
    /// How clients are seen: HTTPS, trusted proxies.
    pub clients: Arc<ClientRules>,
    /// Sign-ups and failed log-ins (`accounts/routes.rs`).
    pub account_limits: Arc<crate::accounts::routes::AccountLimits>,
    /// The calls that change something, counted per account and address (`limits.rs`).
    pub actions: Arc<crate::limits::Actions>,
    /// Seeks and quick pairing (`lobby.rs`).
    pub lobby: Arc<crate::lobby::Lobby>,
    /// Mail (`mail.rs`), when the server sends it (`--smtp`).
    pub mailer: Option<Arc<crate::mail::Mailer>>,
    /// Password resets asked and mailed codes tried (`mail/routes.rs`).
    pub mail_limits: Arc<crate::mail::routes::MailLimits>,
}

impl Shared {
    /// A WebSocket's or a stream's place among those open, held until it closes (`seat`: a
    /// player's connection to their own game, always admitted).
    pub fn connection(
        &self,
        caller: &Caller,
        seat: bool,
    ) -> Result<crate::connections::Place, ApiError> {
        self.connections
            .admit(crate::connections::Client::of(caller), seat)
    }
}

/// The routes.
pub fn router(shared: Shared) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/openapi.json", get(openapi))
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/undo/accept", post(undo_accept))
        .route("/api/games/{id}/undo/decline", post(undo_decline))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/seat", post(seat))
        .route("/api/games/{id}/invitation", post(invite))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/draw/decline", post(draw_decline))
        .route("/api/games/{id}/give-time", post(give_time))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(websocket))
        .route("/api/games/{id}/stream", get(stream))
        .route("/api/analysis", get(analysis))
        .route("/api/position", get(position))
        .route("/api/classes", get(classes))
        .route("/api/catalog", get(catalog))
        .route("/api/qr", get(qr))
        .route("/api/diagram", get(diagram))
        .route("/api/records", post(records))
        .merge(crate::accounts::routes::routes())
        .merge(crate::mail::routes::routes())
        .merge(crate::lobby::routes())
        .merge(crate::ratings::routes())
        .merge(crate::arena::routes())
        .merge(crate::bots::routes::routes())
        .merge(crate::push::routes::routes())
        .route("/", get(crate::assets::index))
        .route("/@/{name}", get(crate::assets::profile))
        .route("/assets/{*path}", get(crate::assets::asset))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            crate::limits::limit_actions,
        ))
        .layer(axum::middleware::from_fn_with_state(
            shared.clone(),
            crate::identity::identify,
        ))
        .layer(axum::middleware::from_fn(log_request))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // gzip when the client accepts it; small answers, pictures other than SVG, the
        // WebSocket's handshake and the streams (each line goes at once) go as they are.
        .layer(
            tower_http::compression::CompressionLayer::new()
                .compress_when(DefaultPredicate::new().and(NotForContentType::const_new(NDJSON))),
        )
        // A handler that panics is answered 500, not a connection dropped unanswered.
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
        .with_state(shared)
}

/// One line per request: its id, method, the path's route (`/api/users/{name}`: never a
/// username nor an id, and never the query, which may hold a token), status, time; and the
/// same counted in the metrics. Bodies, where tokens travel, are never logged. The id is
/// the server's own, sent back as `x-request-id` and on every line logged while the request
/// is handled (a client's or a proxy's `x-request-id` is not taken: a client could make
/// lines that look like another's).
async fn log_request(route: Option<MatchedPath>, req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = route.map_or("(no route)".to_string(), |r| r.as_str().to_string());
    let id = crate::telemetry::request_id();
    let started = Instant::now();
    let span = tracing::info_span!("request", id = %id);
    let mut response = tracing::Instrument::instrument(next.run(req), span).await;
    let took = started.elapsed();
    let status = response.status().as_u16();
    tracing::info!(
        id,
        %method,
        path,
        status,
        micros = took.as_micros() as u64,
        "request"
    );
    crate::telemetry::request(method.as_str(), &path, status, took);
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    response
}

/// The header that carries a request's id back.
const REQUEST_ID: &str = "x-request-id";

/// The answer to a request whose handler panicked (logged as an internal error).
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal("the request failed", "a handler panicked").into_response()
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

/// The API's OpenAPI document (`openapi.rs`).
async fn openapi() -> Response {
    let json = crate::openapi::json();
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

async fn healthz(State(shared): State<Shared>) -> Json<Health> {
    Json(health(&shared.games))
}

/// The answer to `GET /healthz`.
pub(crate) fn health(games: &Games) -> Health {
    let tables = games.tablebases.stats();
    Health {
        status: "ok",
        games_in_memory: games.cached_games(),
        tables: TablesHealth {
            held: tables.tables,
            bytes: tables.bytes,
            budget: games.tablebases.budget(),
            solving: tables.solving,
            solves: tables.solves,
        },
    }
}

/// A new game's answer (201).
fn created_answer(started: games::Started) -> Response {
    (StatusCode::CREATED, Json(created(started))).into_response()
}

/// The invitation's address: the game's page, offering the seat.
fn invitation(id: &str, (side, code): (Color, String)) -> Invitation {
    Invitation {
        side,
        url: format!("/#/game/{id}?invite={code}"),
    }
}

/// A new game with its public and private URLs (paths on this server).
pub(crate) fn created(started: games::Started) -> Created {
    let games::Started {
        id,
        tokens,
        state,
        invitation: invited,
    } = started;
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
        invitation: invited.map(|i| invitation(&id, i)),
        id,
    }
}

async fn create(
    State(shared): State<Shared>,
    mut caller: Caller,
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
    let draw = DrawRules {
        repetition: Some(req.repetition.unwrap_or(3)),
        turn_limit: req.turn_limit,
    }
    .normalized();
    let game = lgame::Game::new(rules).with_draw_rules(draw);
    check_held(&seats, req.hold.iter().chain(&req.invite))?;
    if req.invite.is_some_and(|side| req.hold.contains(&side)) {
        let message = "a seat the asker holds is not invited to".to_string();
        return Err(GameError::invalid(Input::Player, message).into());
    }
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let (holders, cookie) = held_seats(&mut caller, &req.hold)?;
    let clock = req.clock.map(TimeControl::check).transpose();
    let clock = clock.map_err(|message| GameError::invalid(Input::Clock, message))?;
    let new = NewGame {
        holders,
        invite: req.invite,
        clock,
        ..NewGame::new(game, seats)
    };
    let mut started = start(&shared, new).await?;
    show_held(&mut started.state, &req.hold);
    tracing::info!(game = %started.id, red = %req.red, blue = %req.blue, "game created");
    Ok(with_cookie(cookie, created_answer(started)))
}

/// Refuses a held (or invited) side that is not a person's seat.
fn check_held<'a>(
    seats: &[Seat; 2],
    sides: impl IntoIterator<Item = &'a Color>,
) -> Result<(), ApiError> {
    for side in sides {
        if !seats[*side as usize].is_human() {
            let message =
                format!("{side}'s seat is a computer's: a person's seat is held or invited to");
            return Err(GameError::invalid(Input::Player, message).into());
        }
    }
    Ok(())
}

/// The holders of a new game's seats: the asker's (a new anonymous identity, with its
/// cookie, for a browser without one) for the sides in `hold`.
fn held_seats(
    caller: &mut Caller,
    hold: &[Color],
) -> Result<([Option<crate::store::Holder>; 2], Option<HeaderValue>), ApiError> {
    let mut holders = [None, None];
    if hold.is_empty() {
        return Ok((holders, None));
    }
    let (holder, new) = caller.holder_or_new()?;
    for side in hold {
        holders[*side as usize] = Some(holder.clone());
    }
    Ok((holders, new))
}

/// Writes into a new game's state the seats its creator holds.
fn show_held(state: &mut crate::games::GameState, hold: &[Color]) {
    state.your_sides = hold.to_vec();
    state.you = match hold {
        [one] => Some(*one),
        [] => None,
        _ => Some(state.turn),
    };
}

/// This server's address as the asker reached it (its `Host`, and `https` behind a proxy
/// that ends TLS): a record's `Site`.
pub(crate) fn site_of(shared: &Shared, headers: &HeaderMap) -> String {
    let scheme = if shared.clients.https {
        "https"
    } else {
        "http"
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .unwrap_or("localhost");
    format!("{scheme}://{host}")
}

/// An answer that sets a cookie (a new anonymous identity), if there is one.
pub(crate) fn with_cookie(cookie: Option<HeaderValue>, mut response: Response) -> Response {
    if let Some(cookie) = cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// Creates a game and plays it out if both sides are computers.
async fn start(shared: &Shared, new: NewGame) -> Result<games::Started, GameError> {
    let started = shared.games.create(new).await?;
    shared.games.play_if_computers(&started.id).await;
    Ok(started)
}

async fn import(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<ImportRequest>,
) -> Result<Response, ApiError> {
    let seats: [Seat; 2] = [
        games::parse_seat("red", req.red.as_deref().unwrap_or("human"))?,
        games::parse_seat("blue", req.blue.as_deref().unwrap_or("human"))?,
    ];
    let game = explore::read_record(&req.record)?;
    check_held(&seats, &req.hold)?;
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let (holders, cookie) = held_seats(&mut caller, &req.hold)?;
    let new = NewGame {
        holders,
        ..NewGame::new(game, seats)
    };
    let mut started = start(&shared, new).await?;
    show_held(&mut started.state, &req.hold);
    tracing::info!(game = %started.id, "game imported");
    Ok(with_cookie(cookie, created_answer(started)))
}

async fn show(
    State(shared): State<Shared>,
    caller: Caller,
    headers: HeaderMap,
    Path(id): Path<String>,
    Params(query): Params<GameQuery>,
) -> Result<Response, ApiError> {
    let who = caller.who(query.token.clone(), None);
    let (_, (state, sides)) = shared
        .games
        .read(&id, &who.clone(), move |live, sides| {
            (live.state_for(&who), sides)
        })
        .await?;
    // A token's address opened in a browser (an API answer's `url`): the page, which seats
    // the browser and shows the game's own address at once.
    let browser = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    if let (true, Some(token), [side]) = (browser, &query.token, &sides[..]) {
        let page = format!("/#/game/{id}?{side}={token}");
        return Ok((StatusCode::SEE_OTHER, [(header::LOCATION, page)]).into_response());
    }
    Ok(Json(state).into_response())
}

/// Gives the game a command of the token's side, and answers its outcome: the state, or a
/// new game (201).
async fn command(
    shared: &Shared,
    id: &str,
    who: Who,
    command: Command,
) -> Result<Response, ApiError> {
    match shared.games.run(id, who, command).await? {
        Outcome::State(state) => Ok(Json(state).into_response()),
        Outcome::Started(started) => {
            tracing::info!(game = %started.id, of = %id, "rematch");
            Ok(created_answer(started))
        }
    }
}

async fn play(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<MoveRequest>,
) -> Result<Response, ApiError> {
    let mv: Move = req.mv.parse().map_err(|e| {
        GameError::unreadable(Input::Move, &req.mv, format!("move '{}': {e}", req.mv))
    })?;
    let (ply, think_ms) = (req.ply, req.think_ms.map(u64::from));
    let who = caller.who(req.token, req.side);
    command(&shared, &id, who, Command::Move { ply, mv, think_ms }).await
}

/// A command that needs only who gives it.
async fn by_side(
    shared: &Shared,
    caller: Caller,
    id: &str,
    req: TokenRequest,
    given: Command,
) -> Result<Response, ApiError> {
    command(shared, id, caller.who(req.token, req.side), given).await
}

async fn undo(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::Undo).await
}

async fn undo_accept(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::AcceptUndo).await
}

async fn undo_decline(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::DeclineUndo).await
}

async fn draw(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::OfferDraw).await
}

async fn resign(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::Resign).await
}

async fn draw_decline(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::DeclineDraw).await
}

async fn give_time(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    by_side(&shared, caller, &id, req, Command::GiveTime).await
}

async fn claim(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<ClaimRequest>,
) -> Result<Response, ApiError> {
    let draw = req.result == Claim::Draw;
    let who = caller.who(req.token, req.side);
    command(&shared, &id, who, Command::Claim { draw }).await
}

/// A finished game's rematch: created by the first side to ask (201), each person's token
/// given to them alone.
async fn rematch(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    command(
        &shared,
        &id,
        caller.who(req.token, req.side),
        Command::Rematch,
    )
    .await
}

/// The asker's browser (its session or anonymous identity) takes a seat: by its one-time
/// invitation, or by its token.
async fn seat(
    State(shared): State<Shared>,
    mut caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<SeatRequest>,
) -> Result<Response, ApiError> {
    let by = match (req.invite, req.token) {
        (Some(invite), None) => SeatBy::Invite(invite),
        (None, Some(token)) => SeatBy::Token(token),
        _ => return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "a seat is taken by its invitation or by its token: give one of `invite` and `token`",
        )),
    };
    let (holder, cookie) = caller.holder_or_new()?;
    let state = shared.games.take_seat(&id, holder, by).await?;
    Ok(with_cookie(cookie, Json(state).into_response()))
}

/// A new one-time invitation to the open seat, for the player of the other (by its token
/// or its seat).
async fn invite(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<TokenRequest>,
) -> Result<Json<Invitation>, ApiError> {
    let invited = shared
        .games
        .invite(&id, caller.who(req.token, req.side))
        .await?;
    Ok(Json(invitation(&id, invited)))
}

async fn record(
    State(shared): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let site = site_of(&shared, &headers);
    let (_, text) = shared
        .games
        .read(&id, &Who::Nobody, move |live, _| live.record(&site))
        .await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
