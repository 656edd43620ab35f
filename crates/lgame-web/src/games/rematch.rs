//! A finished game's rematch: a new game with the same rules and seats, colours swapped.
//! The first side to ask creates it (and links the games both ways); each person gets their
//! own side's token by asking, once — even when two instances are asked at once.

use std::sync::Arc;

use lgame::Color;

use super::machine::Who;
use super::{parse_seat, random_hex, Conflict, GameError, Games, Guard, Live, NewGame};
use super::{Outcome, Started};
use crate::secret::token_hash;

impl Games {
    /// [`super::Command::Rematch`], as [`Games::run`] gives it: on the database's copy of
    /// the game (another instance may have made the rematch already), on a blocking thread.
    pub(super) async fn run_rematch(
        self: &Arc<Self>,
        live: Guard,
        who: &Who,
    ) -> Result<Outcome, GameError> {
        let Who::Token(token) = who.clone() else {
            return Err(GameError::NotASide);
        };
        let games = self.clone();
        let (_, started) = self
            .on_blocking(live, move |live| {
                if games.store.shared() {
                    games.catch_up(live)?;
                }
                games.rematch(live, &token)
            })
            .await?;
        Ok(Outcome::Started(started))
    }

    /// The token's side asks for a rematch of a finished game. (Blocking.)
    fn rematch(&self, live: &mut Live, token: &str) -> Result<Started, GameError> {
        let side = live.side_of(token).ok_or(GameError::NotASide)?;
        if !live.seated.game().is_over() {
            return Err(live.conflict(Conflict::NotOver));
        }
        let new_side = !side;
        if let Some(id) = live.rematch.clone() {
            return self.claim(&id, new_side);
        }
        let fresh = live.seated.game().rules_only();
        let seats = [
            parse_seat("blue", &live.seats[1])?,
            parse_seat("red", &live.seats[0])?,
        ];
        let mut issue = [false; 2];
        issue[new_side as usize] = true;
        let started = self.create_with(NewGame { game: fresh, seats }, issue)?;
        let linked = self
            .store
            .link_rematch(&live.id, &started.id)
            .map_err(|e| GameError::storage("linking the rematch", e))?;
        if !linked {
            // Another instance made the rematch first: that one is claimed (the game made
            // here stays unlinked, never shown).
            self.forget(&started.id);
            self.refresh(live)?;
            let id = live.rematch.clone().ok_or_else(|| {
                GameError::internal("linking the rematch", "the game has no rematch")
            })?;
            return self.claim(&id, new_side);
        }
        // Both games as stored now (links and versions), their watchers told.
        if let Some(slot) = self.cached(&started.id) {
            self.refresh(&mut slot.blocking_lock())?;
        }
        self.refresh(live)?;
        let mut started = started;
        started.state.rematch_of = Some(live.id.clone());
        Ok(started)
    }

    /// The rematch `id` with a token for `side`, if that side has none yet. (Blocking.)
    fn claim(&self, id: &str, side: Color) -> Result<Started, GameError> {
        let slot = match self.cached(id) {
            Some(slot) => slot,
            None => {
                let live = self
                    .load(id)?
                    .ok_or_else(|| GameError::NoGame(id.to_string()))?;
                self.insert(live).0
            }
        };
        let mut rematch = slot.blocking_lock();
        if self.store.shared() {
            self.catch_up(&mut rematch)?;
        }
        if rematch.tokens[side as usize].is_some() || !rematch.human(side) {
            return Err(rematch.conflict(Conflict::RematchGiven(id.to_string())));
        }
        let token = random_hex(16)?;
        // In the database and in memory, a side is known by its token's hash only.
        let hash = token_hash(id, &token);
        let given = self
            .store
            .set_token(id, side, &hash)
            .map_err(|e| GameError::storage("storing the token", e))?;
        self.refresh(&mut rematch)?;
        if !given {
            // Given through another instance meanwhile.
            return Err(rematch.conflict(Conflict::RematchGiven(id.to_string())));
        }
        let mut tokens = [None, None];
        tokens[side as usize] = Some(token);
        Ok(Started {
            id: id.to_string(),
            tokens,
            state: rematch.state(),
        })
    }
}
