//! Bots over HTTP (docs/bots.md): the handlers of `/api/account/bot`, the tokens,
//! `/api/bots`, the challenges, and the bot's NDJSON event stream. What bots, tokens,
//! challenges and events are is `bots.rs`'s; the bodies and answers are `bots/api.rs`'s.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde_json::json;
use tokio::sync::mpsc;

use crate::accounts::routes::logged_in;
use crate::api::live::ndjson;
use crate::api::{created, with_cookie, Shared};
use crate::bots::api::{BotInfo, BotList, ChallengeView, TokenCreated, TokenList};
use crate::bots::api::{ChallengeRequest, DeclineRequest, EventsQuery, NewTokenRequest};
use crate::bots::{self, BotError, POLL_EVERY, SEEN_EVERY_MS};
use crate::error::ApiError;
use crate::extract::{Body, Params};
use crate::games::{self, GameError, Who};
use crate::identity::Caller;
use crate::store::{ChallengeRow, ChallengeState, EventKind, EventRow, Holder};

/// The bot routes.
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/account/bot", post(make_bot))
        .route("/api/account/tokens", post(create_token).get(list_tokens))
        .route("/api/account/tokens/{id}", delete(revoke_token))
        .route("/api/bots", get(list_bots))
        .route(
            "/api/challenges/{id}",
            post(challenge).get(show_challenge).delete(cancel_challenge),
        )
        .route("/api/challenges/{id}/accept", post(accept_challenge))
        .route("/api/challenges/{id}/decline", post(decline_challenge))
        .route("/api/bot/events", get(events))
}

async fn make_bot(State(shared): State<Shared>, caller: Caller) -> Result<Response, ApiError> {
    let user = &logged_in(&caller)?.user;
    bots::make_bot(&shared.games.store, user).await?;
    Ok(Json(json!({ "username": user.username, "bot": true })).into_response())
}

async fn create_token(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<NewTokenRequest>,
) -> Result<Response, ApiError> {
    let user = logged_in(&caller)?.user.id;
    let (row, token) = bots::create_token(&shared.games, user, req.description).await?;
    let answer = TokenCreated {
        id: row.id,
        token,
        description: row.description,
        created_ms: row.created_ms,
    };
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn list_tokens(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<TokenList>, ApiError> {
    let user = logged_in(&caller)?.user.id;
    let rows = bots::tokens_of(&shared.games.store, user).await?;
    let tokens = rows.into_iter().map(Into::into).collect();
    Ok(Json(TokenList { tokens }))
}

async fn revoke_token(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let user = logged_in(&caller)?.user.id;
    let hash = bots::revoke_token(&shared.games.store, user, &id).await?;
    // At once: its streams end (other instances' streams end at their next sweep,
    // `connections.rs`).
    shared
        .connections
        .close_where(|c| c.token.as_deref() == Some(hash.as_str()));
    Ok(StatusCode::NO_CONTENT)
}

async fn list_bots(State(shared): State<Shared>) -> Result<Json<BotList>, ApiError> {
    let rows = bots::bots(&shared.games.store).await?;
    let now = shared.games.time.now_ms();
    let bots = rows
        .into_iter()
        .map(|b| BotInfo {
            online: bots::online(&b, now),
            username: b.username,
            level: b.level,
        })
        .collect();
    Ok(Json(BotList { bots }))
}

/// A challenge as the API shows it.
pub(crate) fn view(row: &ChallengeRow, state: ChallengeState) -> ChallengeView {
    let clock = row.clock;
    ChallengeView {
        id: row.id.clone(),
        status: state.name().to_string(),
        challenger: row.challenger_name.clone(),
        challenged: row.dest_name.clone(),
        variant: row.variant.clone(),
        speed: clock.map(|c| c.speed()),
        clock,
        rated: row.category.is_some(),
        category: row.category.clone(),
        color: row.color.name().into(),
        reason: row
            .reason
            .filter(|_| state == ChallengeState::Declined)
            .map(|reason| reason.name().to_string()),
        game: row
            .game
            .clone()
            .filter(|_| state == ChallengeState::Accepted),
        seat: row
            .challenger_side
            .map(|side| crate::lobby::side_name(side).to_string())
            .filter(|_| state == ChallengeState::Accepted),
        created_ms: row.created_ms,
    }
}

async fn challenge(
    State(shared): State<Shared>,
    mut caller: Caller,
    Path(username): Path<String>,
    Body(req): Body<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let has_account = caller.logged_in.is_some();
    let terms = bots::terms(req.variant, req.clock, req.color, req.rated, has_account)?;
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let dest = bots::challenged(&shared.games.store, &username).await?;
    let (holder, cookie) = caller.holder_or_new()?;
    let name = caller.logged_in.as_ref().map(|l| l.user.username.clone());
    let (row, state) = bots::challenge(&shared.games, terms, holder, name, &dest).await?;
    let answer = (StatusCode::CREATED, Json(view(&row, state))).into_response();
    Ok(with_cookie(cookie, answer))
}

async fn show_challenge(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<ChallengeView>, ApiError> {
    let row = bots::read_challenge(&shared.games, &id).await?;
    Ok(Json(view(&row, row.state)))
}

async fn accept_challenge(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let row = bots::read_challenge(&shared.games, &id).await?;
    let me = logged_in(&caller)?;
    let (game, bot_side) = bots::accept(&shared.games, &me.user, &row).await?;
    let (_, mut state) = shared
        .games
        .read(&game, &Who::Server, |live, _| live.state())
        .await?;
    state.your_sides = vec![bot_side];
    state.you = Some(bot_side);
    let started = games::Started {
        id: game,
        tokens: [None, None],
        state,
        invitation: None,
    };
    Ok((StatusCode::CREATED, Json(created(started))).into_response())
}

async fn decline_challenge(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Body(req): Body<DeclineRequest>,
) -> Result<Json<ChallengeView>, ApiError> {
    let row = bots::read_challenge(&shared.games, &id).await?;
    let me = logged_in(&caller)?;
    let row = bots::decline(&shared.games, &me.user, row, req.reason).await?;
    Ok(Json(view(&row, ChallengeState::Declined)))
}

async fn cancel_challenge(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let row = bots::read_challenge(&shared.games, &id).await?;
    bots::cancel(&shared.games, caller.holder().as_ref(), &row).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An event's line: its id, its kind, and what it is of (the challenge, or the game with
/// the bot's side and its state). `None`: what it tells is gone (a closed account's game).
async fn event_line(
    shared: &Shared,
    bot: i64,
    event: &EventRow,
) -> Result<Option<String>, ApiError> {
    let kind = event.kind.name();
    let line = match event.kind {
        EventKind::Challenge | EventKind::ChallengeCanceled => {
            let found = bots::challenge_row(&shared.games.store, &event.subject).await?;
            let Some(row) = found else {
                return Ok(None);
            };
            json!({ "id": event.id, "type": kind, "challenge": view(&row, row.state) })
        }
        EventKind::GameStart | EventKind::GameFinish => {
            let who = Who::Holder {
                holder: Holder::Account(bot),
                side: None,
            };
            let read = shared
                .games
                .read(&event.subject, &who, |live, sides| (live.state(), sides))
                .await;
            let (state, sides) = match read {
                Ok((_, read)) => read,
                Err(GameError::NoGame(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            let color = sides.first().map(|s| crate::lobby::side_name(*s));
            json!({ "id": event.id, "type": kind,
                    "game": { "id": event.subject, "color": color, "state": state } })
        }
    };
    Ok(Some(line.to_string()))
}

async fn events(
    State(shared): State<Shared>,
    caller: Caller,
    Params(query): Params<EventsQuery>,
) -> Result<Response, ApiError> {
    let me = logged_in(&caller)?.user.clone();
    if !me.bot {
        return Err(BotError::NotABot.into());
    }
    let place = shared.connection(&caller, false)?;
    let mut closed = place.closed.clone();
    // Online from the answer on: a challenge sent once the stream is open is not refused.
    let now = shared.games.time.now_ms();
    bots::seen(&shared.games.store, me.id, now).await?;
    let (lines, receiver) = mpsc::channel::<String>(16);
    let mut shutdown = shared.shutdown.clone();
    tokio::spawn(async move {
        let _place = place;
        let store = &shared.games.store;
        let mut since = query.since;
        // Marked seen by the server's time, as a bot's being online is counted: an open
        // stream keeps its bot online however that time moves.
        let mut seen_at = now;
        loop {
            let now = shared.games.time.now_ms();
            if now - seen_at >= SEEN_EVERY_MS {
                seen_at = now;
                let seen = bots::seen(store, me.id, now).await;
                // Also the keep-alive: a closed stream is noticed here.
                if seen.is_err() || lines.send(String::new()).await.is_err() {
                    return;
                }
            }
            let Ok((found, next)) = bots::events_after(store, me.id, since).await else {
                return;
            };
            for event in &found {
                match event_line(&shared, me.id, event).await {
                    Ok(Some(line)) => {
                        if lines.send(line).await.is_err() {
                            return;
                        }
                    }
                    Ok(None) => {}
                    Err(_) => return,
                }
            }
            since = Some(next);
            tokio::select! {
                _ = tokio::time::sleep(POLL_EVERY) => {}
                _ = shutdown.changed() => return,
                // Revoked: the stream ends at once, and the bot is offline.
                _ = closed.changed() => {
                    let _ = bots::offline(store, me.id).await;
                    return;
                }
            }
        }
    });
    Ok(ndjson(receiver))
}
