//! Other server instances on the same database (PostgreSQL): what they change reaches this
//! instance's games in memory, and so its WebSocket watchers, as soon as the database tells
//! of it; so do the pages they have open (presence), which this instance tells them in turn,
//! again every `PRESENCE_RETELL`. Requests do not depend on it: a game in memory is checked against the database's
//! version before each use (`api::slot`), and a change made on a stale copy is refused by
//! the database (`store::Stale`).

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::games::{App, Slot, PRESENCE_RETELL};
use crate::store::Notice;

/// Follows the database's notices in a task of its own, until they stop.
pub fn follow(app: Arc<App>, mut notices: mpsc::UnboundedReceiver<Notice>) {
    tokio::spawn(retell_presence(app.clone()));
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            match notice {
                Notice::Changed { id, version } => {
                    if let Some(slot) = app.cached(&id) {
                        tokio::spawn(catch_up(app.clone(), id, slot, Some(version)));
                    }
                }
                Notice::Presence {
                    id,
                    instance,
                    counts,
                } => {
                    if let Some(slot) = app.cached(&id) {
                        let mut live = slot.live.clone().lock_owned().await;
                        live.presence_elsewhere(&instance, counts, &slot.updates);
                    }
                }
                // Changes may have been missed: every game in memory is checked.
                Notice::Reconnected => {
                    for (id, slot) in app.cached_slots() {
                        tokio::spawn(catch_up(app.clone(), id, slot, None));
                    }
                }
            }
        }
    });
}

/// Brings a game in memory up to the database's copy (if it is behind `version`, or
/// whenever it differs when no version is known), telling its watchers.
async fn catch_up(app: Arc<App>, id: String, slot: Arc<Slot>, version: Option<i64>) {
    let mut live = slot.live.clone().lock_owned().await;
    if version.is_some_and(|version| live.version() >= version) {
        return;
    }
    let updates = slot.updates.clone();
    let worker = app.clone();
    let caught = tokio::task::spawn_blocking(move || worker.catch_up(&mut live, &updates)).await;
    if !matches!(caught, Ok(Ok(()))) {
        // Unsure: the next request loads it again.
        tracing::warn!(game = %id, "could not catch up with the database");
        app.forget(&id);
    }
}

/// Every `PRESENCE_RETELL`, until the server stops: the pages open here told again, and what
/// stopped instances told forgotten.
async fn retell_presence(app: Arc<App>) {
    let mut stopping = app.stopping.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(PRESENCE_RETELL) => {}
            _ = stopping.wait_for(|stop| *stop) => return,
        }
        for (_, slot) in app.cached_slots() {
            let mut live = slot.live.clone().lock_owned().await;
            live.retell_presence(&app.store, &slot.updates);
        }
    }
}
