//! The lobby's paths (docs/api.md, "The lobby"): seeks, quick pairing, and the live stream.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lgame::Color;
use tokio::sync::broadcast;

use super::{pool_control, view, Lobby, LobbyError, News, SeekView, Wanted, LISTED, POOL};
use super::{SeekKind, SeekRow, SeekState};
use crate::api::{created, with_cookie, Shared};
use crate::clock::TimeControl;
use crate::credentials::secret_hash;
use crate::error::ApiError;
use crate::extract::{Body, Params, MAX_BODY};
use crate::games::{self, GameError, Input};
use crate::identity::Caller;
use crate::lobby::api::{PairingRequest, SeekRequest, SeekTokenQuery};
use crate::lobby::api::{PairingStatus, SeekCreated, SeekList, SeekStatus};
use crate::store::{ColorChoice, Holder};

pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/seeks", post(create_seek).get(list_seeks))
        .route("/api/seeks/{id}", get(show_seek).delete(withdraw_seek))
        .route("/api/seeks/{id}/accept", post(accept_seek))
        .route("/api/pairing", post(join_pool))
        .route("/api/pairing/{ticket}", get(show_ticket).delete(leave_pool))
        .route("/api/lobby/ws", get(websocket))
}

fn invalid(what: Input, message: String) -> ApiError {
    GameError::invalid(what, message).into()
}

async fn create_seek(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<SeekRequest>,
) -> Result<Response, ApiError> {
    if let Some([min, max]) = req.rating_range {
        if !(0..=max).contains(&min) || max > 4000 {
            let message = format!("rating_range [{min}, {max}]: from 0 to 4000, low to high");
            return Err(invalid(Input::Other, message));
        }
    }
    let variant = req.variant.unwrap_or_else(|| "classic".into());
    games::parse_rules(&variant)?;
    let clock = req
        .clock
        .check()
        .map_err(|message| GameError::invalid(Input::Clock, message))?;
    let colour = req.colour.unwrap_or_else(|| "random".into());
    let Ok(colour) = colour.parse::<ColorChoice>() else {
        let message = format!("colour '{colour}': red, blue or random");
        return Err(invalid(Input::Player, message));
    };
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let (holder, cookie) = caller.holder_or_new()?;
    let ip = caller.client();
    let (row, token) = shared
        .lobby
        .add(
            SeekKind::Seek,
            holder,
            ip,
            Wanted {
                variant,
                clock,
                colour,
                rated: req.rated,
                range: req.rating_range,
            },
        )
        .await?;
    let seek = view(&row, true);
    let answer = SeekCreated {
        id: row.id,
        token,
        seek,
    };
    Ok(with_cookie(
        cookie,
        (StatusCode::CREATED, Json(answer)).into_response(),
    ))
}

async fn list_seeks(
    State(shared): State<Shared>,
    caller: Caller,
) -> Result<Json<SeekList>, ApiError> {
    let rows = shared
        .games
        .store
        .open_seeks(SeekKind::Seek, LISTED as i64)
        .await
        .map_err(|e| GameError::storage("the lobby's database", e))?;
    let me = caller.holder();
    let seeks = rows
        .iter()
        .map(|r| view(r, me.as_ref() == Some(&r.holder)))
        .collect();
    Ok(Json(SeekList { seeks }))
}

/// Seek `id` and whether the asker is its seeker (its holder, or the holder of its token).
async fn seek_of(
    lobby: &Lobby,
    caller: &Caller,
    id: &str,
    token: Option<&str>,
) -> Result<(SeekRow, bool), ApiError> {
    let row = lobby
        .read(id)
        .await?
        .filter(|r| r.kind == SeekKind::Seek)
        .ok_or_else(|| LobbyError::NoSeek(id.to_string()))?;
    let mine = caller.holder().as_ref() == Some(&row.holder)
        || token.is_some_and(|t| secret_hash(t) == row.token_hash);
    Ok((row, mine))
}

fn side(row: &SeekRow) -> Option<Color> {
    row.side
}

async fn show_seek(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<SeekTokenQuery>,
) -> Result<Json<SeekStatus>, ApiError> {
    let (row, mine) = seek_of(&shared.lobby, &caller, &id, query.token.as_deref()).await?;
    if mine && row.state == SeekState::Open {
        shared.lobby.seen(&id).await?;
    }
    let made = row.state == SeekState::Made;
    let status = match row.state {
        SeekState::Open => "open",
        SeekState::Claimed | SeekState::Made => "taken",
        SeekState::Gone => "gone",
    };
    Ok(Json(SeekStatus {
        seek: view(&row, mine),
        status: status.into(),
        game: row.game.clone().filter(|_| made),
        side: side(&row).filter(|_| made && mine),
    }))
}

async fn withdraw_seek(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<SeekTokenQuery>,
) -> Result<StatusCode, ApiError> {
    let (row, mine) = seek_of(&shared.lobby, &caller, &id, query.token.as_deref()).await?;
    if !mine {
        return Err(LobbyError::NotYourSeek.into());
    }
    if row.state == SeekState::Gone || shared.lobby.withdraw(&id).await? {
        return Ok(StatusCode::NO_CONTENT);
    }
    Err(LobbyError::Taken.into())
}

async fn accept_seek(
    State(shared): State<Shared>,
    mut caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let (holder, cookie) = caller.holder_or_new()?;
    let (mut started, side) = shared.lobby.take(&id, &holder).await?;
    started.state.your_sides = vec![side];
    started.state.you = Some(side);
    tracing::info!(seek = %id, game = %started.id, "seek taken");
    let answer = (StatusCode::CREATED, Json(created(started))).into_response();
    Ok(with_cookie(cookie, answer))
}

/// A pool control's name from its time control.
fn control_name(clock: TimeControl) -> String {
    POOL.iter()
        .find(|name| pool_control(name) == Some(clock))
        .map_or_else(String::new, |name| name.to_string())
}

fn pairing(ticket: String, row: &SeekRow) -> PairingStatus {
    let made = row.state == SeekState::Made;
    let game = row.game.clone().filter(|_| made);
    PairingStatus {
        ticket,
        control: control_name(row.clock),
        status: if made { "paired" } else { "waiting" }.into(),
        watch_page: game.as_ref().map(|g| format!("/#/game/{g}")),
        game,
        side: side(row).filter(|_| made),
    }
}

async fn join_pool(
    State(shared): State<Shared>,
    mut caller: Caller,
    Body(req): Body<PairingRequest>,
) -> Result<Response, ApiError> {
    let clock = pool_control(&req.control).ok_or_else(|| {
        let message = format!(
            "control '{}': quick pairing's are {}",
            req.control,
            POOL.join(", ")
        );
        GameError::unreadable(Input::Clock, &req.control, message)
    })?;
    shared
        .limiter
        .check(caller.client(), shared.games.time.now_ms())?;
    let (holder, cookie) = caller.holder_or_new()?;
    let ip = caller.client();
    let (row, ticket) = shared
        .lobby
        .add(
            SeekKind::Ticket,
            holder,
            ip,
            Wanted {
                variant: "classic".into(),
                clock,
                colour: ColorChoice::Random,
                rated: req.rated,
                range: None,
            },
        )
        .await?;
    let answer = (StatusCode::ACCEPTED, Json(pairing(ticket, &row))).into_response();
    Ok(with_cookie(cookie, answer))
}

/// The ticket's row (keyed by its hash).
async fn ticket_row(lobby: &Lobby, ticket: &str) -> Result<SeekRow, ApiError> {
    let row = lobby.read(&secret_hash(ticket)).await?;
    Ok(row
        .filter(|r| r.kind == SeekKind::Ticket)
        .ok_or(LobbyError::NoTicket)?)
}

async fn show_ticket(
    State(shared): State<Shared>,
    Path(ticket): Path<String>,
) -> Result<Json<PairingStatus>, ApiError> {
    let row = ticket_row(&shared.lobby, &ticket).await?;
    match row.state {
        SeekState::Gone => Err(LobbyError::TicketGone.into()),
        SeekState::Open => {
            shared.lobby.seen(&row.id).await?;
            Ok(Json(pairing(ticket, &row)))
        }
        SeekState::Claimed | SeekState::Made => Ok(Json(pairing(ticket, &row))),
    }
}

async fn leave_pool(
    State(shared): State<Shared>,
    Path(ticket): Path<String>,
) -> Result<StatusCode, ApiError> {
    let row = ticket_row(&shared.lobby, &ticket).await?;
    if row.state == SeekState::Gone || shared.lobby.withdraw(&row.id).await? {
        return Ok(StatusCode::NO_CONTENT);
    }
    Err(LobbyError::Paired.into())
}

async fn websocket(
    State(shared): State<Shared>,
    caller: Caller,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let place = shared.connection(&caller, false)?;
    let (lobby, shutdown) = (shared.lobby.clone(), shared.shutdown.clone());
    let holder = caller.holder();
    Ok(upgrade
        .max_message_size(MAX_BODY)
        .on_upgrade(move |socket| async move {
            let ends = [shutdown, place.closed.clone()];
            watch_lobby(socket, &lobby, holder.as_ref(), ends).await;
            lobby.leave(holder.as_ref());
            drop(place);
        }))
}

/// The open seeks, as a page's first message (or again after falling behind).
fn snapshot(seeks: &[SeekRow], holder: Option<&Holder>) -> String {
    let seeks: Vec<SeekView> = seeks
        .iter()
        .map(|r| view(r, holder == Some(&r.holder)))
        .collect();
    serde_json::json!({ "type": "lobby", "seeks": seeks }).to_string()
}

/// What a page hears of `news` (`None`: nothing).
fn message(news: &News, holder: Option<&Holder>) -> Option<String> {
    match news {
        News::Added(row) => {
            let seek = view(row, holder == Some(&row.holder));
            Some(serde_json::json!({ "type": "seek", "seek": seek }).to_string())
        }
        News::Gone(id) => Some(serde_json::json!({ "type": "gone", "id": id }).to_string()),
        News::Game {
            holder: seeker,
            message,
        } => (holder == Some(seeker)).then(|| message.to_string()),
    }
}

/// A lobby page's session: the open seeks, then each change, until either side closes, the
/// server stops or it ends the connection (`[shutdown, closed]`). What the page sends is
/// read and ignored.
async fn watch_lobby(
    mut socket: WebSocket,
    lobby: &Lobby,
    holder: Option<&Holder>,
    [mut shutdown, mut closed]: [tokio::sync::watch::Receiver<bool>; 2],
) {
    let (seeks, mut news) = lobby.watch(holder);
    if socket
        .send(Message::Text(snapshot(&seeks, holder).into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            heard = news.recv() => {
                let text = match heard {
                    Ok(news) => match message(&news, holder) {
                        Some(text) => text,
                        None => continue,
                    },
                    // Fell behind: the open seeks again (a seeker's game missed is still
                    // told by `GET /api/seeks/{id}` and the page's poll).
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        lobby.leave(holder);
                        let (seeks, again) = lobby.watch(holder);
                        news = again;
                        snapshot(&seeks, holder)
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
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
            _ = closed.changed() => {
                let _ = socket.send(Message::Close(Some(crate::api::live::ended_by_server()))).await;
                break;
            }
        }
    }
}
