//! The arenas' paths (docs/api.md, "Arenas"): made, listed, shown, joined and left.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use super::{storage, summary, view, LISTED, MINUTES};
use crate::api::Shared;
use crate::arena::api::{ArenaList, ArenaRequest};
use crate::arena::ArenaView;
use crate::error::ApiError;
use crate::extract::Body;
use crate::games::{self, GameError, Input};
use crate::identity::Caller;
use crate::secret::random_hex;
use crate::store::{ArenaData, ArenaRow};

/// How far ahead an arena may be set to start: 30 days.
pub const AHEAD_MS: i64 = 30 * 24 * 3600 * 1000;

pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/arenas", post(create_arena).get(list_arenas))
        .route("/api/arenas/{id}", get(show_arena))
        .route("/api/arenas/{id}/join", post(join_arena))
        .route("/api/arenas/{id}/leave", post(leave_arena))
}

fn invalid(what: Input, message: String) -> ApiError {
    GameError::invalid(what, message).into()
}

/// The caller's account, or 401.
fn account(caller: &Caller) -> Result<i64, ApiError> {
    match &caller.logged_in {
        Some(logged_in) => Ok(logged_in.user.id),
        None => {
            let message = "only an account plays in arenas: log in first";
            Err(ApiError::new(StatusCode::UNAUTHORIZED, message).kind("no_session"))
        }
    }
}

async fn create_arena(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<ArenaRequest>,
) -> Result<Response, ApiError> {
    let creator = account(&caller)?;
    let variant = req.variant.unwrap_or_else(|| "classic".into());
    let rules = games::parse_rules(&variant)?;
    let clock = req
        .clock
        .check()
        .map_err(|message| GameError::invalid(Input::Clock, message))?;
    if !MINUTES.contains(&req.minutes) {
        let message = format!(
            "minutes {}: an arena lasts {} to {} minutes",
            req.minutes,
            MINUTES.start(),
            MINUTES.end()
        );
        return Err(invalid(Input::Other, message));
    }
    let category = crate::ratings::category(&rules, Some(clock));
    if req.rated && category.is_none() {
        let message = format!("'{variant}' at this control is not rated: make a casual arena");
        return Err(ApiError::new(StatusCode::BAD_REQUEST, message).kind("not_rated"));
    }
    let now = shared.games.time.now_ms();
    let starts_at = req.starts_at.unwrap_or(now).max(now);
    if starts_at > now + AHEAD_MS {
        let message = "starts_at: an arena starts within 30 days".to_string();
        return Err(invalid(Input::Other, message));
    }
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let row = ArenaRow {
        id: random_hex(8)?,
        variant,
        clock,
        minutes: req.minutes,
        category: category.filter(|_| req.rated).map(str::to_string),
        starts_at,
        ends_at: starts_at + req.minutes * 60_000,
        creator: Some(creator),
        creator_name: None,
        created_ms: now,
        players: 0,
        unfinished: 0,
    };
    let (games, stored) = (shared.games.clone(), row.clone());
    games.store.insert_arena(&stored).await.map_err(storage)?;
    let data = read(&shared, &row.id).await?;
    tracing::info!(arena = %row.id, "arena made");
    Ok((StatusCode::CREATED, Json(view(&data, now))).into_response())
}

async fn list_arenas(State(shared): State<Shared>) -> Result<Json<ArenaList>, ApiError> {
    let (games, now) = (shared.games.clone(), shared.games.time.now_ms());
    let rows = games.store.arenas(now, LISTED).await.map_err(storage)?;
    let arenas = rows.iter().map(|r| summary(r, now)).collect();
    Ok(Json(ArenaList { arenas }))
}

/// Arena `id` as stored now, or 404.
async fn read(shared: &Shared, id: &str) -> Result<ArenaData, ApiError> {
    let (games, key, now) = (
        shared.games.clone(),
        id.to_string(),
        shared.games.time.now_ms(),
    );
    games
        .store
        .arena(&key, now)
        .await
        .map_err(storage)?
        .ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, format!("no arena '{id}'")).kind("no_arena")
        })
}

async fn show_arena(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<ArenaView>, ApiError> {
    let data = read(&shared, &id).await?;
    Ok(Json(view(&data, shared.games.time.now_ms())))
}

/// Arena `id` for a player to join or leave: 409 once its time is up.
async fn open_arena(shared: &Shared, id: &str) -> Result<ArenaData, ApiError> {
    let data = read(shared, id).await?;
    if shared.games.time.now_ms() >= data.arena.ends_at {
        let message = "the arena's time is up: nobody joins or leaves it now";
        return Err(ApiError::new(StatusCode::CONFLICT, message).kind("arena_finished"));
    }
    Ok(data)
}

async fn join_arena(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<ArenaView>, ApiError> {
    take_part(&shared, &caller, &id, true).await
}

async fn leave_arena(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<ArenaView>, ApiError> {
    take_part(&shared, &caller, &id, false).await
}

/// The caller's account joins (`joining`) or leaves arena `id` while it is open: its view
/// after.
async fn take_part(
    shared: &Shared,
    caller: &Caller,
    id: &str,
    joining: bool,
) -> Result<Json<ArenaView>, ApiError> {
    let user = account(caller)?;
    open_arena(shared, id).await?;
    let (games, key, now) = (
        shared.games.clone(),
        id.to_string(),
        shared.games.time.now_ms(),
    );
    let store = &games.store;
    match joining {
        true => store.join_arena(&key, user, now).await,
        false => store.leave_arena(&key, user, now).await.map(drop),
    }
    .map_err(storage)?;
    let data = read(shared, id).await?;
    Ok(Json(view(&data, shared.games.time.now_ms())))
}
