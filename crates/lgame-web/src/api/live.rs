//! A game watched live over HTTP: its WebSocket (`/api/games/{id}/ws`) and its NDJSON
//! stream (`/api/games/{id}/stream`), who is here on each, and the long answers of NDJSON
//! the bots' events share. Their routes are in `api::router`.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use lgame::Color;
use tokio::sync::{broadcast, mpsc, watch};

use super::Shared;
use crate::error::ApiError;
use crate::extract::{Params, MAX_BODY};
use crate::games::api::GameQuery;
use crate::games::{Command, Games, Slot, Who};
use crate::identity::Caller;

pub(crate) async fn websocket(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<GameQuery>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let who = caller.who(query.token, None);
    let (slot, sides) = shared.games.read(&id, &who, |_, sides| sides).await?;
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let place = shared.connection(&caller, !sides.is_empty())?;
    let shutdown = shared.shutdown.clone();
    let presence = PagePresence::of(&shared, &id, &slot, who, &sides);
    Ok(upgrade
        .max_message_size(MAX_BODY)
        .on_upgrade(move |socket| async move {
            presence.tell(Command::Present).await;
            watch_game(socket, slot, shutdown, place.closed.clone()).await;
            presence.tell(Command::Absent).await;
            drop(place);
        }))
}

/// A player's page (a WebSocket, a stream) says they are here, from its opening to its
/// close: told to the copy of the game it watches. A spectator's says nothing.
struct PagePresence {
    games: Arc<Games>,
    id: String,
    slot: Arc<Slot>,
    player: Option<Who>,
}

impl PagePresence {
    fn of(shared: &Shared, id: &str, slot: &Arc<Slot>, who: Who, sides: &[Color]) -> PagePresence {
        PagePresence {
            games: shared.games.clone(),
            id: id.to_string(),
            slot: slot.clone(),
            player: Some(who).filter(|_| !sides.is_empty()),
        }
    }

    async fn tell(&self, command: Command) {
        if let Some(who) = self.player.clone() {
            let _ = self
                .games
                .run_on(&self.id, self.slot.clone(), who, command)
                .await;
        }
    }
}

/// The media type of the streams: one JSON value a line (blank lines keep it alive).
pub const NDJSON: &str = "application/x-ndjson";

/// How often a stream with nothing to say sends a blank line, so that a client (and the
/// server) notices a connection gone.
pub const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(5);

/// A long answer of the lines `lines` gives, each written as it comes, until it closes.
pub(crate) fn ndjson(lines: mpsc::Receiver<String>) -> Response {
    let body = futures_util::stream::unfold(lines, |mut lines| async move {
        let line = lines.recv().await?;
        Some((
            Ok::<_, std::convert::Infallible>(format!("{line}\n")),
            lines,
        ))
    });
    (
        [
            (header::CONTENT_TYPE, NDJSON),
            (header::CACHE_CONTROL, "no-store"),
            (header::HeaderName::from_static("x-accel-buffering"), "no"),
        ],
        axum::body::Body::from_stream(body),
    )
        .into_response()
}

/// `GET /api/games/{id}/stream`: the WebSocket's messages as NDJSON, for programs (a bot):
/// the state, then every change, a blank line when there was nothing to say for
/// [`KEEP_ALIVE`]. A player's stream says they are here, as their page would.
pub(crate) async fn stream(
    State(shared): State<Shared>,
    caller: Caller,
    Path(id): Path<String>,
    Params(query): Params<GameQuery>,
) -> Result<Response, ApiError> {
    let who = caller.who(query.token, None);
    let (slot, sides) = shared.games.read(&id, &who, |_, sides| sides).await?;
    let place = shared.connection(&caller, !sides.is_empty())?;
    let mut closed = place.closed.clone();
    let mut shutdown = shared.shutdown.clone();
    let presence = PagePresence::of(&shared, &id, &slot, who, &sides);
    let (lines, receiver) = mpsc::channel::<String>(64);
    tokio::spawn(async move {
        presence.tell(Command::Present).await;
        let (first, mut updates) = slot.lock().await.watch();
        let mut next = Some(first);
        loop {
            if let Some(text) = next.take() {
                if lines.send(text.to_string()).await.is_err() {
                    break;
                }
            }
            tokio::select! {
                update = updates.recv() => match update {
                    Ok(text) => next = Some(text),
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let (state, again) = slot.lock().await.watch();
                        updates = again;
                        next = Some(state);
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = tokio::time::sleep(KEEP_ALIVE) => {
                    if lines.send(String::new()).await.is_err() {
                        break;
                    }
                }
                _ = shutdown.changed() => break,
                _ = closed.changed() => break,
            }
        }
        presence.tell(Command::Absent).await;
        drop(place);
    });
    Ok(ndjson(receiver))
}

/// A watcher's session: the state now, then after every change, until either side closes,
/// the server stops or ends it (`closed`: revoked, or its place taken). What the client
/// sends is read and ignored.
async fn watch_game(
    mut socket: WebSocket,
    slot: Arc<Slot>,
    mut shutdown: watch::Receiver<bool>,
    mut closed: watch::Receiver<bool>,
) {
    let (first, mut updates) = slot.lock().await.watch();
    if socket
        .send(Message::Text(first.as_ref().into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => text,
                    // Fell behind: the changes missed are lost, so the whole state again,
                    // and the changes after it (the game's lock orders the two).
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let (state, again) = slot.lock().await.watch();
                        updates = again;
                        state
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
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
                let _ = socket.send(Message::Close(Some(ended_by_server()))).await;
                break;
            }
        }
    }
}

/// The close frame of a connection the server ended: its credentials revoked, or its
/// place taken by the same client's connection to its own game (`connections.rs`).
pub(crate) fn ended_by_server() -> axum::extract::ws::CloseFrame {
    axum::extract::ws::CloseFrame {
        code: 4001,
        reason: "ended by the server: revoked, or another of your connections took its place"
            .into(),
    }
}
