//! The test clock's route, `POST /api/test/clock` (only with `lgame serve --test-clock`).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::extract::Body;
use crate::games::Games;

/// How far to move the server's time forward.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Advance {
    advance_ms: i64,
}

#[derive(Serialize)]
struct Now {
    now_ms: i64,
}

/// The test's route, for a server for tests only: moves the server's time forward, so that
/// tests need not wait for clocks, and tells every game's watchers their clocks anew.
pub fn test_routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/test/clock", post(advance))
        .with_state(games)
}

async fn advance(State(games): State<Arc<Games>>, Body(req): Body<Advance>) -> Json<Now> {
    games.time.advance(req.advance_ms.max(0));
    games.retell_clocks().await;
    Json(Now {
        now_ms: games.time.now_ms(),
    })
}
