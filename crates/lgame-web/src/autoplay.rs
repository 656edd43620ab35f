//! Games between two computers, played out at a watchable pace: a ply every
//! `Games::computer_delay`, each given to the game as a command
//! ([`Command::ComputerPly`]) and so stored and sent to the watchers as a person's move
//! is, until the game ends or the server stops. A game stored unfinished (the server
//! stopped) goes on when it is next loaded. Should two instances on one database play the
//! same game, each ply is stored by one of them: the other's is refused as made on a stale
//! copy, and that instance takes the database's copy (telling its watchers) and goes on
//! from there.

use std::sync::Arc;

use crate::games::{Command, GameError, Games, Outcome, Slot, Who};

/// Plays the game out on the copy in `slot`, in a task of its own (which holds it, keeping
/// the game in memory), until that copy is forgotten: a copy loaded in its place plays on
/// in a task of its own.
pub fn start(games: Arc<Games>, id: String, slot: Arc<Slot>) {
    tokio::spawn(async move {
        let mut stopping = games.stopping.clone();
        loop {
            tokio::select! {
                _ = tokio::time::sleep(games.computer_delay) => {}
                // Stopping, or the server is gone.
                _ = stopping.wait_for(|stop| *stop) => return,
            }
            if !games.holds(&id, &slot) {
                return;
            }
            let ply = Command::ComputerPly;
            match games.run_on(&id, slot.clone(), Who::Server, ply).await {
                Ok(Outcome::State(state)) if !state.over => {}
                Ok(_) => return,
                // The other instance played this ply too, twice over: its copy is taken,
                // and the next ply tried after the delay.
                Err(GameError::Outdated) => {}
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "playing the computers' game");
                    games.forget(&id);
                    return;
                }
            }
        }
    });
}
