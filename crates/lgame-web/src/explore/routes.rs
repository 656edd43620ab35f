//! The HTTP handlers of the questions about positions (docs/api.md, "Questions about
//! positions"): each reads its query or body, asks `explore.rs` (or the solver), and answers.
//! Their routes are in `api::router`; their paths, and the queries only they read, in
//! `api.rs` beside this file.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::api::Shared;
use crate::cpu::cpu_bound;
use crate::error::ApiError;
use crate::explore;
use crate::explore::api::{Analysis, AnalysisQuery, ClassesQuery, QrQuery};
use crate::explore::{ClassesAnswer, PositionAnswer, RecordAnswer};
use crate::extract::{Body, Params};
use crate::games::{self, GameError};
use crate::identity::Caller;

pub(crate) async fn analysis(
    State(shared): State<Shared>,
    caller: Caller,
    Params(query): Params<AnalysisQuery>,
) -> Result<Json<Analysis>, ApiError> {
    shared
        .analysis_limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let position = explore::read_position(query.variant.as_deref(), &query.position)?;
    crate::ratings::refuse_own_rated_game(&shared.games, caller.holder(), &position).await?;
    let tb = crate::tables::table(&shared.games, &shared.solvers, *position.rules()).await?;
    let analysed = cpu_bound(move || {
        tb.analyze(&position)
            .map_err(|e| GameError::Unservable(e.to_string()))
    });
    Ok(Json(analysed.await?))
}

pub(crate) async fn position(
    Params(query): Params<explore::PositionQuery>,
) -> Result<Json<PositionAnswer>, ApiError> {
    Ok(Json(
        cpu_bound(move || explore::position_answer(&query)).await?,
    ))
}

pub(crate) async fn classes(
    State(shared): State<Shared>,
    caller: Caller,
    Params(query): Params<ClassesQuery>,
) -> Result<Json<ClassesAnswer>, ApiError> {
    shared
        .analysis_limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let rules = games::parse_rules(query.variant.as_deref().unwrap_or("classic"))?;
    let value = explore::read_value(&query.value)?;
    let tb = crate::tables::table(&shared.games, &shared.solvers, rules).await?;
    let answer = cpu_bound(move || Ok(explore::classes_answer(&tb, &rules, value, query.plies)));
    Ok(Json(answer.await?))
}

pub(crate) async fn qr(Params(query): Params<QrQuery>) -> Result<Response, ApiError> {
    let svg = explore::qr_svg(&query.text)?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

pub(crate) async fn diagram(
    Params(query): Params<explore::DiagramQuery>,
) -> Result<Response, ApiError> {
    let svg = cpu_bound(move || explore::diagram(&query)).await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

pub(crate) async fn records(
    Body(request): Body<explore::RecordRequest>,
) -> Result<Json<RecordAnswer>, ApiError> {
    Ok(Json(
        cpu_bound(move || explore::record_answer(&request)).await?,
    ))
}
