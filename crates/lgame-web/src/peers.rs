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
use crate::lobby::Lobby;
use crate::store::Notice;

/// Follows the database's notices in a task of its own, until they stop.
pub fn follow(games: Arc<Games>, lobby: Arc<Lobby>, mut notices: mpsc::UnboundedReceiver<Notice>) {
    tokio::spawn(retell_presence(games.clone()));
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            match notice {
                Notice::Changed { id, version } => {
                    let version = Some(version);
                    tell(&games, id, Command::CatchUp { version });
                }
                // In the order told (the last news of an instance is what stands), so
                // awaited here.
                Notice::Presence {
                    id,
                    instance,
                    counts,
                } => {
                    if games.cached(&id).is_some() {
                        let news = Command::PresenceElsewhere { instance, counts };
                        let _ = games.run(&id, Who::Server, news).await;
                    }
                }
                Notice::Lobby { id } => {
                    let lobby = lobby.clone();
                    tokio::spawn(async move { lobby.heard(&id).await });
                }
                // Changes may have been missed: every game in memory is checked, and the
                // lobby read again.
                Notice::Reconnected => {
                    for id in games.cached_ids() {
                        tell(&games, id, Command::CatchUp { version: None });
                    }
                    let lobby = lobby.clone();
                    tokio::spawn(async move { lobby.reload().await });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tests::{app, started};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_instances_news_of_its_pages_is_taken_in_the_order_told() {
        let (_dir, games) = app("peers-order");
        let games = Arc::new(games);
        let game = started(&games, "human", "human").await;
        let (tell, notices) = mpsc::unbounded_channel();
        follow(games.clone(), Arc::new(Lobby::new(games.clone())), notices);
        let news = |counts: [u32; 2]| Notice::Presence {
            id: game.id.clone(),
            instance: "b".into(),
            counts,
        };
        // A page of Red opened and closed again and again, then one of Blue opened: all told
        // at once, as the other instance's announcer sends a batch.
        for _ in 0..30 {
            tell.send(news([1, 0])).unwrap();
            tell.send(news([0, 0])).unwrap();
        }
        tell.send(news([0, 1])).unwrap();
        let present = || async {
            let read = games.read(&game.id, &Who::Nobody, |live, _| live.state().present);
            read.await.ok().unwrap().1
        };
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
        while !present().await.blue {
            assert!(
                tokio::time::Instant::now() < deadline,
                "Blue's page never told"
            );
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let now = present().await;
        assert!(!now.red && now.blue, "the last news stands: {now:?}");
    }
}
