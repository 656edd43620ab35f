//! What a player away from the page is told: here, the one call made where a correspondence
//! game's turn passes. It is noted in the background (a move never waits for it): the mail
//! (`mail/moves.rs`) is sent from that note, on the server's clock, and a push
//! (`push.rs`) goes at once to the player's browsers when a move was made.

use std::sync::Arc;

use crate::games::Games;
use crate::push::Notice;
use crate::store::Holder;

/// Correspondence game `game` now waits for account `user`'s move — or (`None`) for no
/// account's: a computer's or a guest's turn, or the game is over. `moved`: the turn passed
/// by a move just made (not by a seat taken or an offer), which is what a push tells.
pub fn your_move(games: &Arc<Games>, game: &str, user: Option<i64>, moved: bool) {
    if let (Some(user), true) = (user, moved) {
        let game = game.to_string();
        games.notify(&Holder::Account(user), Notice::YourMove { game });
    }
    let (games, game) = (games.clone(), game.to_string());
    // The time of the turn, not of the note: a later turn's note may be written first.
    let now_ms = games.time.now_ms();
    tokio::spawn(async move {
        if let Err(e) = games.store.move_waits(&game, user, now_ms).await {
            tracing::warn!(error = %e, game, "a correspondence move to mail");
        }
    });
}
