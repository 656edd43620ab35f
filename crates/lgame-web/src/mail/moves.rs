//! Correspondence's "your move" mail (docs/deploy.md, "Mail"). A correspondence game's turn
//! passing is noted by [`crate::notify::your_move`] (a row: the game waits for that account's
//! move). Every [`LOOK_EVERY`], each instance mails the accounts with moves not mailed about
//! yet that have a confirmed address, this mail on, and no such mail in the last [`DAY_MS`]
//! of the server's clock: one game waiting, a mail about it; several, one digest naming them
//! all. So an account gets at most one a day, and a game at most one a turn and a day. Each
//! mail carries a one-click unsubscribe link (RFC 8058) with the account's token, which
//! only turns this mail off: a `POST` to it needs no session.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::credentials::new_secret;
use crate::games::{GameError, Games};
use crate::mail::{storage, MailError, Mailer};
use crate::store::UserBy;

/// How often an instance looks for moves to mail about.
pub const LOOK_EVERY: Duration = Duration::from_secs(1);

/// An account gets at most one "your move" mail in this long: a day.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// Mails the moves due every [`LOOK_EVERY`], until `stopping` turns true.
pub fn start(
    games: Arc<Games>,
    mailer: Arc<Mailer>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let mut look = tokio::time::interval(LOOK_EVERY);
        look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = look.tick() => mail_moves_due(&games, &mailer).await,
                _ = stopping.changed() => break,
            }
        }
    });
}

/// Mails each account its moves due: one mail, or one digest.
async fn mail_moves_due(games: &Arc<Games>, mailer: &Arc<Mailer>) {
    let now_ms = games.time.now_ms();
    let due = match games.store.moves_due(now_ms - DAY_MS).await {
        Ok(due) => due,
        Err(e) => {
            tracing::debug!(error = %e, "moves to mail");
            return;
        }
    };
    let mut by_account: BTreeMap<i64, (String, Vec<String>)> = BTreeMap::new();
    for (user, game, email) in due {
        let (_, waiting) = by_account.entry(user).or_insert((email, Vec::new()));
        waiting.push(game);
    }
    for (user, (email, waiting)) in by_account {
        if let Err(e) = mail_moves(games, mailer, (user, &email), waiting, now_ms).await {
            tracing::warn!(error = %e, user, "your move not mailed");
        }
    }
}

/// Mails account `user` at `email` about the games `waiting` for its move, if another
/// instance has not since.
async fn mail_moves(
    games: &Arc<Games>,
    mailer: &Arc<Mailer>,
    (user, email): (i64, &str),
    waiting: Vec<String>,
    now_ms: i64,
) -> Result<(), MailError> {
    let store = &games.store;
    let Some(account) = store.user(UserBy::Id(user)).await.map_err(storage)? else {
        return Ok(());
    };
    let token = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let claimed = store
        .claim_moves_mail((user, &token), waiting.clone(), now_ms, now_ms - DAY_MS)
        .await
        .map_err(storage)?;
    let Some(token) = claimed else {
        return Ok(());
    };
    let unsubscribe = mailer.unsubscribe_link(&token);
    let links: Vec<String> = waiting.iter().map(|id| mailer.game_link(id)).collect();
    let (subject, opening) = match links.len() {
        1 => (
            "Your move in the L game".to_string(),
            "it is your move in a correspondence game".to_string(),
        ),
        n => (
            format!("{n} L games wait for your move"),
            format!("{n} correspondence games wait for your move"),
        ),
    };
    let text = format!(
        "Hello {name},\n\n{opening}:\n{games}\n\nYou get at most one such mail a day; when \
         several games wait, one mail names them all.\n\nTo get no more of these mails, open \
         {unsubscribe}\nor choose in your account's settings.\n",
        name = account.username,
        games = links.join("\n"),
    );
    mailer.send_with_unsubscribe(email, (&subject, text), Some(unsubscribe));
    Ok(())
}

/// Turns "your move" mail off for the owner of an unsubscribe link's token.
pub async fn unsubscribe(games: &Games, token: &str) -> Result<(), MailError> {
    let now_ms = games.time.now_ms();
    let found = games.store.unsubscribe(token, now_ms).await;
    match found.map_err(storage)? {
        true => Ok(()),
        false => Err(MailError::UnknownLink),
    }
}

/// Whether account `user` is mailed when it is its move in correspondence.
pub async fn moves_mailed(games: &Games, user: i64) -> Result<bool, MailError> {
    games.store.moves_mailed(user).await.map_err(storage)
}

/// Account `user` chooses whether it is mailed when it is its move in correspondence.
pub async fn mail_moves_to(games: &Games, user: i64, on: bool) -> Result<(), MailError> {
    let token = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let now_ms = games.time.now_ms();
    let chosen = games.store.mail_moves((user, &token), on, now_ms).await;
    chosen.map_err(storage)
}
