//! The server acts on clocks nobody acts on. Every instance looks in the database, every
//! [`POLL`], for games whose deadline has passed (`store::StoredClock`) — whichever instance
//! holds the game, or none, as after a SIGKILL — and gives each the server's
//! [`Command::Flag`]: a loss on time, or an abort. Two instances flagging one game make one
//! change: the second finds the game's version moved and the game over.
//!
//! Each instance also says, every [`ALIVE_EVERY`], that it is alive: an instance that starts
//! after none was for longer than [`GAP`] gives the clocks back that time
//! ([`wake`]), so a server's restart is nobody's loss on time.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::clock::TimeSource;
use crate::games::{Command, Games, Who};
use crate::store::sql::args;
use crate::store::{Store, StoreResult};

pub(crate) mod routes;

/// How often an instance looks for games past their deadline: a flag is decided at most
/// this long (and the time to store it) after the deadline and its grace.
pub const POLL: Duration = Duration::from_millis(50);

/// How often an instance says it is alive.
pub const ALIVE_EVERY: Duration = Duration::from_secs(1);

/// Longer than this without an instance alive, and the time is given back to the clocks.
pub const GAP: Duration = Duration::from_secs(3);

/// The most games flagged in one look.
const BATCH: usize = 500;

/// Sets the server's time at its start: the wall clock less the time no instance ran
/// (counted now if none ran for more than [`GAP`]).
pub async fn wake(store: &Store, time: &TimeSource) -> anyhow::Result<()> {
    let down = store
        .wake(TimeSource::wall_ms(), GAP.as_millis() as i64)
        .await?;
    time.advance(-down);
    Ok(())
}

/// Games whose clock is running (a deadline the server will act on), every instance's.
pub async fn clocks_running(store: &Store) -> StoreResult<i64> {
    let sql = "SELECT COUNT(*) FROM games WHERE deadline_ms IS NOT NULL";
    Ok(store.select_one(sql, args![]).await?.unwrap_or(0))
}

/// Looks for overdue games and says the instance is alive, until `stopping` turns true.
pub fn start(games: Arc<Games>, mut stopping: tokio::sync::watch::Receiver<bool>) {
    let flagging: Arc<Mutex<HashSet<String>>> = Arc::default();
    tokio::spawn(async move {
        let mut look = tokio::time::interval(POLL);
        look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut alive = tokio::time::interval(ALIVE_EVERY);
        loop {
            tokio::select! {
                _ = look.tick() => flag_overdue(&games, &flagging).await,
                _ = alive.tick() => {
                    if let Err(e) = games.store.keep_alive(TimeSource::wall_ms()).await {
                        tracing::warn!(error = %e, "the server's time");
                    }
                }
                _ = stopping.changed() => break,
            }
        }
    });
}

/// Gives every overdue game not being flagged already the server's flag, each in a task of
/// its own.
async fn flag_overdue(games: &Arc<Games>, flagging: &Arc<Mutex<HashSet<String>>>) {
    let now = games.time.now_ms();
    let overdue = games.store.overdue(now, BATCH).await;
    let ids = match overdue {
        Ok(ids) => ids,
        Err(e) => {
            tracing::debug!(error = %e, "flags");
            return;
        }
    };
    for id in ids {
        if !flagging
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone())
        {
            continue;
        }
        let (games, flagging) = (games.clone(), flagging.clone());
        tokio::spawn(async move {
            if let Err(e) = games.run(&id, Who::Server, Command::Flag).await {
                tracing::debug!(game = %id, error = %e, "flag");
            }
            flagging
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
        });
    }
}
