//! The HTTP handler of the catalog (`GET /api/catalog`): its route is in `api::router`, its
//! path in `api.rs` beside this file, its answer in `catalog.rs`.

use axum::extract::State;
use axum::Json;

use crate::api::Shared;
use crate::catalog::Catalog;
use crate::cpu::cpu_bound;
use crate::error::ApiError;

/// What the page offers and shows: variants, setups, levels, the classic game's figures.
pub(crate) async fn catalog(State(shared): State<Shared>) -> Result<Json<Catalog>, ApiError> {
    let max_table_states = shared.games.max_table_states;
    Ok(Json(
        cpu_bound(move || Ok(crate::catalog::catalog(max_table_states))).await?,
    ))
}
