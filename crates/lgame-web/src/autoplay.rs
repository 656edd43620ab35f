//! Games between two computers, played out at a watchable pace: a ply every
//! `App::computer_delay`, each stored and sent to the watchers as a person's move is, until
//! the game ends or the server stops. A game stored unfinished (the server stopped) goes on
//! when it is next loaded.

use std::sync::Arc;

use crate::games::{App, Slot};

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
            let step =
                tokio::task::spawn_blocking(move || live.step_computers(&worker.store, &updates))
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
