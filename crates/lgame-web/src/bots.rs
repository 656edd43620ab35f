//! Bots (docs/bots.md): accounts that programs play through the API with a token, the
//! challenges people send them, each bot's stream of events, and the server's own computer
//! levels, which are bots that accept every challenge at once.
//!
//! A token is the `Authorization: Bearer` of a program (`identity.rs` reads it); it acts
//! for its account in games, the lobby and challenges, never on the account itself.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use lgame::game::DrawRules;
use lgame_players::seated::Seat;
use lgame_players::Level;
use serde_json::json;
use tokio::sync::mpsc;

use crate::accounts::logged_in;
use crate::api::live::ndjson;
use crate::api::{created, with_cookie, Shared};
use crate::bots::api::{BotInfo, BotList, ChallengeView, TokenCreated, TokenList};
use crate::bots::api::{ChallengeRequest, DeclineRequest, EventsQuery, NewTokenRequest};
use crate::clock::TimeControl;
use crate::credentials::{new_secret, secret_hash};
use crate::error::ApiError;
use crate::extract::{Body, Params};
use crate::games::{self, GameError, Input, NewGame, Who};
use crate::identity::{Caller, LoggedIn};
use crate::lobby::side_of;
use crate::secret::random_hex;
use crate::store::{user_holder, ChallengeRow, ChallengeState, EventRow, Settle, TokenRow, UserBy};

pub(crate) mod api;

/// A token's text: this prefix, then 64 hex digits (256 random bits). The prefix tells it
/// from a session's cookie, which it never is.
pub const TOKEN_PREFIX: &str = "lgb_";

/// A bot is online while its event stream was open this recently.
const ONLINE_MS: i64 = 15_000;

/// How often an open event stream is marked seen (in the server's time), and looks for
/// new events.
const SEEN_EVERY_MS: i64 = 5_000;
const POLL_EVERY: Duration = Duration::from_millis(200);

/// A pending challenge unanswered this long is withdrawn.
pub const CHALLENGE_TTL_MS: i64 = 60_000;

/// The reasons a bot may give for declining, as lichess's.
pub const DECLINE_REASONS: [&str; 9] = [
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "variant",
    "too_many_games",
];

/// The account the server's computer level `level` plays as.
pub fn level_username(level: Level) -> String {
    format!("lgame-{}", level.name())
}

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

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the bots' database", e)
}

fn not_a_bot() -> ApiError {
    let message = "only a bot account may do this: make the account a bot first";
    ApiError::new(StatusCode::FORBIDDEN, message).kind("not_a_bot")
}

fn no_challenge(id: &str) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, format!("no challenge '{id}'")).kind("no_challenge")
}

/// Makes the server's computer levels' accounts, if missing: bots with no password, dated
/// by the wall clock (the server's time is set after).
pub async fn ensure_levels(store: &crate::store::Store) -> anyhow::Result<()> {
    let now_s = crate::clock::TimeSource::wall_ms().div_euclid(1000);
    for level in Level::ALL {
        let name = level_username(level);
        if store.level_bot(level.name(), &name, now_s).await?.is_none() {
            tracing::warn!(account = %name, "a person holds the name of a computer level's bot");
        }
    }
    Ok(())
}

async fn make_bot(State(shared): State<Shared>, caller: Caller) -> Result<Response, ApiError> {
    let user = logged_in(&caller)?.user.clone();
    if !user.bot {
        let games = shared.games.clone();
        let made = games.store.make_bot(user.id).await.map_err(storage)?;
        if !made {
            let message = "an account that has played becomes no bot (as on lichess): \
                           make a new account for the bot";
            return Err(ApiError::new(StatusCode::CONFLICT, message).kind("has_games"));
        }
    }
    Ok(Json(json!({ "username": user.username, "bot": true })).into_response())
}

async fn create_token(
    State(shared): State<Shared>,
    caller: Caller,
    Body(req): Body<NewTokenRequest>,
) -> Result<Response, ApiError> {
    let user = logged_in(&caller)?.user.clone();
    let description = req
        .description
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty());
    if description
        .as_ref()
        .is_some_and(|d| d.chars().count() > 100)
    {
        let message = "description: at most 100 characters".to_string();
        return Err(GameError::invalid(Input::Other, message).into());
    }
    let secret = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let token = format!("{TOKEN_PREFIX}{secret}");
    let row = TokenRow {
        id: random_hex(4)?,
        user_id: user.id,
        hash: secret_hash(&token),
        description,
        created_ms: shared.games.time.now_ms(),
    };
    let games = shared.games.clone();
    let stored = row.clone();
    games.store.insert_token(&stored).await.map_err(storage)?;
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
    let games = shared.games.clone();
    let rows = games.store.tokens_of(user).await.map_err(storage)?;
    let tokens = rows.into_iter().map(Into::into).collect();
    Ok(Json(TokenList { tokens }))
}

async fn revoke_token(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let user = logged_in(&caller)?.user.id;
    let store = &shared.games.store;
    let hash = store
        .tokens_of(user)
        .await
        .map_err(storage)?
        .into_iter()
        .find(|t| t.id == id)
        .map(|t| t.hash);
    let revoked = match store.delete_token(user, &id).await.map_err(storage)? {
        true => {
            // At once: its streams end and its bot is offline (other instances' streams
            // end at their next sweep, `connections.rs`).
            store.bot_offline(user).await.map_err(storage)?;
            hash
        }
        false => None,
    };
    if let Some(hash) = revoked {
        shared
            .connections
            .close_where(|c| c.token.as_deref() == Some(hash.as_str()));
        return Ok(StatusCode::NO_CONTENT);
    }
    Err(ApiError::new(StatusCode::NOT_FOUND, format!("no token '{id}'")).kind("no_token"))
}

async fn list_bots(State(shared): State<Shared>) -> Result<Json<BotList>, ApiError> {
    let games = shared.games.clone();
    let rows = games.store.bots().await.map_err(storage)?;
    let now = shared.games.time.now_ms();
    let bots = rows
        .into_iter()
        .map(|b| BotInfo {
            online: b.level.is_some() || b.seen_ms.is_some_and(|seen| now - seen < ONLINE_MS),
            username: b.username,
            level: b.level,
        })
        .collect();
    Ok(Json(BotList { bots }))
}

/// A challenge as the API shows it.
pub(crate) fn view(row: &ChallengeRow, state: ChallengeState) -> Result<ChallengeView, ApiError> {
    let clock = row
        .clock
        .as_deref()
        .map(serde_json::from_str::<TimeControl>)
        .transpose()
        .map_err(|e| ApiError::internal("a challenge's clock", e))?;
    Ok(ChallengeView {
        id: row.id.clone(),
        status: state.name().to_string(),
        challenger: row.challenger_name.clone(),
        challenged: row.dest_name.clone(),
        variant: row.variant.clone(),
        speed: clock.map(TimeControl::speed),
        clock,
        rated: row.category.is_some(),
        category: row.category.clone(),
        color: row.color.clone(),
        reason: row
            .reason
            .clone()
            .filter(|_| state == ChallengeState::Declined),
        game: row
            .game
            .clone()
            .filter(|_| state == ChallengeState::Accepted),
        seat: row
            .challenger_side
            .clone()
            .filter(|_| state == ChallengeState::Accepted),
        created_ms: row.created_ms,
    })
}

/// Challenge `id` as it stands: a pending one past its time is withdrawn first.
async fn read_challenge(shared: &Shared, id: &str) -> Result<ChallengeRow, ApiError> {
    let games = shared.games.clone();
    let key = id.to_string();
    let row = games
        .store
        .challenge(&key)
        .await
        .map_err(storage)?
        .ok_or_else(|| no_challenge(id))?;
    let now = shared.games.time.now_ms();
    if row.state == ChallengeState::Pending && now - row.created_ms > CHALLENGE_TTL_MS {
        settle(shared, id, Settle::canceled()).await?;
        let games = shared.games.clone();
        let key = id.to_string();
        return games
            .store
            .challenge(&key)
            .await
            .map_err(storage)?
            .ok_or_else(|| no_challenge(id));
    }
    Ok(row)
}

async fn settle(shared: &Shared, id: &str, how: Settle) -> Result<bool, ApiError> {
    let now = shared.games.time.now_ms();
    let store = &shared.games.store;
    Ok(store
        .settle_challenge(id, &how, now)
        .await
        .map_err(storage)?)
}

async fn challenge(
    State(shared): State<Shared>,
    mut caller: Caller,
    Path(username): Path<String>,
    Body(req): Body<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let variant = req.variant.unwrap_or_else(|| "classic".into());
    let rules = games::parse_rules(&variant)?;
    let clock = req
        .clock
        .map(|c| c.check())
        .transpose()
        .map_err(|message| GameError::invalid(Input::Clock, message))?;
    let color = req.color.unwrap_or_else(|| "random".into());
    if !["red", "blue", "random"].contains(&color.as_str()) {
        let message = format!("color '{color}': red, blue or random");
        return Err(GameError::invalid(Input::Player, message).into());
    }
    let category = match req.rated {
        false => None,
        true => Some(crate::ratings::category(&rules, clock).ok_or_else(|| {
            let message = format!(
                "variant '{variant}' {}: not rated (docs/ratings.md)",
                if clock.is_some() {
                    "at this control"
                } else {
                    "without a clock"
                }
            );
            ApiError::new(StatusCode::BAD_REQUEST, message).kind("not_rated")
        })?),
    };
    if category.is_some() && caller.logged_in.is_none() {
        let message = "a rated challenge is an account's: log in";
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, message).kind("no_session"));
    }
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let games = shared.games.clone();
    let key = username.to_lowercase();
    let dest = games
        .store
        .user(UserBy::Key(&key))
        .await
        .map_err(storage)?
        .filter(|u| !u.disabled)
        .ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, format!("no player '{username}'")).kind("no_user")
        })?;
    if !dest.bot {
        let message = format!(
            "'{}' is a person: challenges go to bots (invite a person by link, or meet in the lobby)",
            dest.username
        );
        return Err(ApiError::new(StatusCode::BAD_REQUEST, message).kind("not_a_bot"));
    }
    let (holder, cookie) = caller.holder_or_new()?;
    if holder == user_holder(dest.id) {
        let message = "a bot does not challenge itself";
        return Err(GameError::invalid(Input::Player, message.into()).into());
    }
    if category.is_some() {
        crate::fairplay::check_pair(&shared.games, &holder, &user_holder(dest.id)).await?;
    }
    let games = shared.games.clone();
    let levels = games.store.bots().await.map_err(storage)?;
    let bot = levels.into_iter().find(|b| b.id == dest.id);
    let level = bot.as_ref().and_then(|b| b.level.clone());
    let now = shared.games.time.now_ms();
    let online = bot
        .and_then(|b| b.seen_ms)
        .is_some_and(|s| now - s < ONLINE_MS);
    if level.is_none() && !online {
        let message = format!(
            "the bot '{}' is not online: its program is not connected",
            dest.username
        );
        return Err(ApiError::new(StatusCode::CONFLICT, message).kind("bot_offline"));
    }
    let row = ChallengeRow {
        id: random_hex(8)?,
        challenger: holder,
        challenger_name: caller.logged_in.as_ref().map(|l| l.user.username.clone()),
        dest: dest.id,
        dest_name: dest.username.clone(),
        variant,
        clock: clock
            .map(|c| serde_json::to_string(&c))
            .transpose()
            .map_err(|e| ApiError::internal("a clock", e))?,
        category: category.map(str::to_string),
        color,
        state: ChallengeState::Pending,
        reason: None,
        game: None,
        challenger_side: None,
        created_ms: now,
    };
    let games = shared.games.clone();
    let stored = row.clone();
    games
        .store
        .insert_challenge(&stored, now)
        .await
        .map_err(storage)?;
    tracing::info!(challenge = %row.id, bot = %dest.username, "challenge");
    let mut state = ChallengeState::Pending;
    let mut row = row;
    if let Some(level) = level {
        // The server's own level accepts at once, whatever the control.
        let (game, side) = start_game(&shared, &row, Some(&level)).await?;
        (row.game, row.challenger_side, state) = (Some(game), Some(side), ChallengeState::Accepted);
    }
    let answer = (StatusCode::CREATED, Json(view(&row, state)?)).into_response();
    Ok(with_cookie(cookie, answer))
}

/// Accepts pending challenge `row` (its bot, or the server for one of its levels): the
/// challenge is claimed first, so that one answer wins, then the game is made. Returns the
/// game and the challenger's side.
async fn start_game(
    shared: &Shared,
    row: &ChallengeRow,
    level: Option<&str>,
) -> Result<(String, String), ApiError> {
    let side = side_of(&row.color)?;
    let side_name = crate::lobby::side_name(side).to_string();
    let game_id = random_hex(8)?;
    let claim = Settle {
        state: ChallengeState::Accepted,
        reason: None,
        game: Some(game_id.clone()),
        challenger_side: Some(side_name.clone()),
    };
    if !settle(shared, &row.id, claim).await? {
        let message = "the challenge was answered already, or withdrawn";
        return Err(ApiError::new(StatusCode::CONFLICT, message).kind("challenge_settled"));
    }
    let rules = games::parse_rules(&row.variant)?;
    let clock = row
        .clock
        .as_deref()
        .map(serde_json::from_str::<TimeControl>)
        .transpose()
        .map_err(|e| ApiError::internal("a challenge's clock", e))?;
    let mut holders = [None, None];
    holders[side as usize] = Some(row.challenger.clone());
    holders[!side as usize] = Some(user_holder(row.dest));
    let mut seats = [Seat::Human, Seat::Human];
    if let Some(level) = level {
        seats[!side as usize] = games::parse_seat(crate::lobby::side_name(!side), level)?;
    }
    let category = row
        .category
        .as_ref()
        .and_then(|_| crate::ratings::category(&rules, clock));
    let draw = DrawRules {
        repetition: Some(3),
        turn_limit: None,
    }
    .normalized();
    let new = NewGame {
        holders,
        clock,
        id: Some(game_id.clone()),
        category,
        ..NewGame::new(lgame::Game::new(rules).with_draw_rules(draw), seats)
    };
    let games = shared.games.clone();
    let started = games.create(new).await?;
    tracing::info!(challenge = %row.id, game = %started.id, "challenge accepted");
    Ok((started.id, side_name))
}

async fn show_challenge(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<ChallengeView>, ApiError> {
    let row = read_challenge(&shared, &id).await?;
    Ok(Json(view(&row, row.state)?))
}

/// The challenged bot's account, or 403.
fn challenged_bot<'a>(caller: &'a Caller, row: &ChallengeRow) -> Result<&'a LoggedIn, ApiError> {
    let me = logged_in(caller)?;
    if me.user.id != row.dest {
        let message = "only the challenged bot answers a challenge";
        return Err(ApiError::new(StatusCode::FORBIDDEN, message).kind("not_your_challenge"));
    }
    Ok(me)
}

fn not_pending(row: &ChallengeRow) -> ApiError {
    let message = format!("the challenge is {}, no longer pending", row.state.name());
    ApiError::new(StatusCode::CONFLICT, message).kind("challenge_settled")
}

async fn accept_challenge(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let row = read_challenge(&shared, &id).await?;
    challenged_bot(&caller, &row)?;
    if row.state != ChallengeState::Pending {
        return Err(not_pending(&row));
    }
    let (game, side) = start_game(&shared, &row, None).await?;
    let bot_side = !side_of(&side)?;
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
    let row = read_challenge(&shared, &id).await?;
    challenged_bot(&caller, &row)?;
    let reason = req.reason.unwrap_or_else(|| "generic".into());
    if !DECLINE_REASONS.contains(&reason.as_str()) {
        let message = format!("reason '{reason}': one of {}", DECLINE_REASONS.join(", "));
        return Err(GameError::invalid(Input::Other, message).into());
    }
    let how = Settle {
        state: ChallengeState::Declined,
        reason: Some(reason.clone()),
        game: None,
        challenger_side: None,
    };
    if row.state != ChallengeState::Pending || !settle(&shared, &id, how).await? {
        return Err(not_pending(&row));
    }
    let row = ChallengeRow {
        reason: Some(reason),
        ..row
    };
    Ok(Json(view(&row, ChallengeState::Declined)?))
}

async fn cancel_challenge(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let row = read_challenge(&shared, &id).await?;
    if caller.holder().as_deref() != Some(row.challenger.as_str()) {
        let message = "only its challenger withdraws a challenge";
        return Err(ApiError::new(StatusCode::FORBIDDEN, message).kind("not_your_challenge"));
    }
    if row.state == ChallengeState::Canceled || settle(&shared, &id, Settle::canceled()).await? {
        return Ok(StatusCode::NO_CONTENT);
    }
    Err(not_pending(&row))
}

/// An event's line: its id, its kind, and what it is of (the challenge, or the game with
/// the bot's side and its state). `None`: what it tells is gone (a closed account's game).
async fn event_line(
    shared: &Shared,
    bot: i64,
    event: &EventRow,
) -> Result<Option<String>, ApiError> {
    let line = match event.kind.as_str() {
        crate::store::CHALLENGE | crate::store::CHALLENGE_CANCELED => {
            let games = shared.games.clone();
            let key = event.subject.clone();
            let Some(row) = games.store.challenge(&key).await.map_err(storage)? else {
                return Ok(None);
            };
            json!({ "id": event.id, "type": event.kind, "challenge": view(&row, row.state)? })
        }
        _ => {
            let who = Who::Holder {
                holder: user_holder(bot),
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
            json!({ "id": event.id, "type": event.kind,
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
        return Err(not_a_bot());
    }
    let place = shared.connection(&caller, false)?;
    let mut closed = place.closed.clone();
    // Online from the answer on: a challenge sent once the stream is open is not refused.
    let (games, now) = (shared.games.clone(), shared.games.time.now_ms());
    games.store.bot_seen(me.id, now).await.map_err(storage)?;
    let (lines, receiver) = mpsc::channel::<String>(16);
    let mut shutdown = shared.shutdown.clone();
    tokio::spawn(async move {
        let _place = place;
        let mut since = query.since;
        // Marked seen by the server's time, as [`ONLINE_MS`] is counted: an open stream
        // keeps its bot online however that time moves.
        let mut seen_at = now;
        loop {
            let now = shared.games.time.now_ms();
            if now - seen_at >= SEEN_EVERY_MS {
                seen_at = now;
                let seen = shared.games.store.bot_seen(me.id, now).await;
                // Also the keep-alive: a closed stream is noticed here.
                if seen.is_err() || lines.send(String::new()).await.is_err() {
                    return;
                }
            }
            let games = shared.games.clone();
            let after = since;
            let found = games.store.events(me.id, after, 100).await.map_err(storage);
            let Ok((found, last)) = found else {
                return;
            };
            let next = found.last().map(|e| e.id).unwrap_or(since.unwrap_or(last));
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
            since = Some(if since.is_none() {
                last.max(next)
            } else {
                next
            });
            tokio::select! {
                _ = tokio::time::sleep(POLL_EVERY) => {}
                _ = shutdown.changed() => return,
                // Revoked: the stream ends at once, and the bot is offline.
                _ = closed.changed() => {
                    let games = shared.games.clone();
                    let _ = games.store.bot_offline(me.id).await.map_err(storage);
                    return;
                }
            }
        }
    });
    Ok(ndjson(receiver))
}
