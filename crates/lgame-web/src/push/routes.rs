//! Web Push over HTTP: `GET /api/push/key` and a browser's subscription kept or ended for
//! the account signed in (`push.rs` decides; `push/api.rs` has the bodies and paths).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::accounts::AccountError;
use crate::api::Shared;
use crate::error::ApiError;
use crate::extract::Body;
use crate::identity::Caller;
use crate::push::api::{PushKey, Subscription, Unsubscription};

pub fn routes() -> Router<Shared> {
    Router::new().route("/api/push/key", get(push_key)).route(
        "/api/push/subscriptions",
        post(subscribe).delete(unsubscribe),
    )
}

async fn push_key(State(shared): State<Shared>) -> Json<PushKey> {
    Json(PushKey {
        key: shared.games.push.public_key(),
    })
}

/// The account signed in: a browser without one has no notices (they follow a person, not
/// a browser's anonymous seats).
fn account_id(caller: &Caller) -> Result<i64, ApiError> {
    let logged_in = caller.logged_in.as_ref().ok_or(AccountError::NoSession)?;
    Ok(logged_in.user.id)
}

async fn subscribe(
    State(shared): State<Shared>,
    caller: Caller,
    Body(sub): Body<Subscription>,
) -> Result<StatusCode, ApiError> {
    let user = account_id(&caller)?;
    let now = shared.games.time.now_ms();
    let keys = &sub.keys;
    let push = &shared.games.push;
    let store = &shared.games.store;
    push.subscribe(store, user, &sub.endpoint, &keys.p256dh, &keys.auth, now)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn unsubscribe(
    State(shared): State<Shared>,
    caller: Caller,
    Body(body): Body<Unsubscription>,
) -> Result<StatusCode, ApiError> {
    let user = account_id(&caller)?;
    let games = &shared.games;
    games
        .push
        .unsubscribe(&games.store, user, &body.endpoint)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
