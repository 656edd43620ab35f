//! Other server instances on the same database (PostgreSQL): what they change reaches this
//! instance's games in memory, and so its WebSocket watchers, as soon as the database tells
//! of it; so do the pages they have open (presence), which this instance tells them in turn,
//! again every `PRESENCE_RETELL`. Each piece of news is a command to the game
//! ([`Games::run`]). Requests do not depend on it: a refusal or an answer that stored
//! nothing is checked against the database's copy, and a change made on a stale copy is
//! refused by the database (`StoreError::Stale`).

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::games::{Command, Games, Who, PRESENCE_RETELL};
use crate::store::Notice;

/// Follows the database's notices in a task of its own, until they stop.
pub fn follow(games: Arc<Games>, mut notices: mpsc::UnboundedReceiver<Notice>) {
    tokio::spawn(retell_presence(games.clone()));
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            match notice {
                Notice::Changed { id, version } => {
                    let version = Some(version);
                    tell(&games, id, Command::CatchUp { version });
                }
                Notice::Presence {
                    id,
                    instance,
                    counts,
                } => tell(&games, id, Command::PresenceElsewhere { instance, counts }),
                // Changes may have been missed: every game in memory is checked.
                Notice::Reconnected => {
                    for id in games.cached_ids() {
                        tell(&games, id, Command::CatchUp { version: None });
                    }
                }
            }
        }
    });
}

/// Gives a game in memory the news, in a task of its own; a game that could not take it is
/// forgotten (the next request loads it again).
fn tell(games: &Arc<Games>, id: String, news: Command) {
    if games.cached(&id).is_none() {
        return;
    }
    let games = games.clone();
    tokio::spawn(async move {
        if let Err(e) = games.run(&id, Who::Server, news).await {
            tracing::warn!(game = %id, error = %e, "could not catch up with the database");
            games.forget(&id);
        }
    });
}

/// Every `PRESENCE_RETELL`, until the server stops: the pages open here told again, and what
/// stopped instances told forgotten.
async fn retell_presence(games: Arc<Games>) {
    let mut stopping = games.stopping.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(PRESENCE_RETELL) => {}
            _ = stopping.wait_for(|stop| *stop) => return,
        }
        for id in games.cached_ids() {
            tell(&games, id, Command::RetellPresence);
        }
    }
}
