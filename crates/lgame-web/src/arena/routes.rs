//! The arenas' paths (docs/api.md, "Arenas"): made, listed, shown, joined and left.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use super::making::{self, ArenaError, ArenaTerms};
use super::{storage, summary, view, LISTED};
use crate::api::Shared;
use crate::arena::api::{ArenaList, ArenaRequest};
use crate::arena::ArenaView;
use crate::error::ApiError;
use crate::extract::Body;
use crate::identity::Caller;

pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/arenas", post(create_arena).get(list_arenas))
        .route("/api/arenas/{id}", get(show_arena))
        .route("/api/arenas/{id}/join", post(join_arena))
        .route("/api/arenas/{id}/leave", post(leave_arena))
}

/// The caller's account: only an account plays in arenas.
fn account(caller: &Caller) -> Result<i64, ArenaError> {
    let logged_in = caller.logged_in.as_ref().ok_or(ArenaError::AccountOnly)?;
    Ok(logged_in.user.id)
}

async fn create_arena(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<ArenaRequest>,
) -> Result<Response, ApiError> {
    let creator = account(&caller)?;
    let terms = ArenaTerms {
        variant: req.variant,
        clock: req.clock,
        minutes: req.minutes,
        rated: req.rated,
        starts_at: req.starts_at,
    };
    let now = shared.games.time.now_ms();
    let row = making::plan(terms, creator, now)?;
    shared.limiter.check(caller.client(), now)?;
    let data = making::open(&shared.games, &row).await?;
    Ok((StatusCode::CREATED, Json(view(&data, now))).into_response())
}

async fn list_arenas(State(shared): State<Shared>) -> Result<Json<ArenaList>, ApiError> {
    let (games, now) = (shared.games.clone(), shared.games.time.now_ms());
    let rows = games.store.arenas(now, LISTED).await.map_err(storage)?;
    let arenas = rows.iter().map(|r| summary(r, now)).collect();
    Ok(Json(ArenaList { arenas }))
}

async fn show_arena(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<ArenaView>, ApiError> {
    let data = making::read(&shared.games, &id).await?;
    Ok(Json(view(&data, shared.games.time.now_ms())))
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
    let data = making::take_part(&shared.games, user, id, joining).await?;
    Ok(Json(view(&data, shared.games.time.now_ms())))
}
