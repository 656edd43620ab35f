//! Games between two computers, played out at a watchable pace: a ply every
//! `App::computer_delay`, each stored and sent to the watchers as a person's move is, until
//! the game ends or the server stops. A game stored unfinished (the server stopped) goes on
//! when it is next loaded. Should two instances on one database play the same game, each
//! ply is stored by one of them: the other's is refused as made on a stale copy, and that
//! instance takes the database's copy (telling its watchers) and goes on from there.

use std::sync::Arc;

use crate::games::{App, GameError, Slot};

/// Plays the game in `slot` out, in a task of its own (which holds the game in memory).
pub fn start(app: Arc<App>, id: String, slot: Arc<Slot>) {
    tokio::spawn(async move {
        let mut stopping = app.stopping.clone();
        loop {
            tokio::select! {
                _ = tokio::time::sleep(app.computer_delay) => {}
                // Stopping, or the server is gone.
                _ = stopping.wait_for(|stop| *stop) => return,
            }
            let mut live = slot.live.clone().lock_owned().await;
            let (worker, updates) = (app.clone(), slot.updates.clone());
            let step = tokio::task::spawn_blocking(move || {
                match live.step_computers(&worker.store, &updates) {
                    Err(GameError::Outdated) => {
                        worker.refresh(&mut live, &updates)?;
                        Ok(live.plays_itself())
                    }
                    stepped => stepped,
                }
            })
            .await;
            match step {
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => return,
                Ok(Err(e)) => {
                    tracing::error!(game = %id, error = %e, "playing the computers' game");
                    app.forget(&id);
                    return;
                }
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "playing the computers' game");
                    app.forget(&id);
                    return;
                }
            }
        }
    });
}
