//! A finished game's rematch: a new game with the same rules and seats, colours swapped.
//! The first side to ask creates it (and links the games both ways); each person gets their
//! own side's token by asking, once — even when two instances are asked at once.

use std::sync::Arc;

use lgame::Color;

use super::machine::{Command, Who};
use super::{parse_seat, Conflict, GameError, Games, Guard, Live, NewGame};
use super::{side_for, Outcome, Started};
use crate::secret::random_hex;
use crate::secret::token_hash;
use crate::store::Holder;

impl Games {
    /// [`super::Command::Rematch`], as [`Games::run`] gives it: on the database's copy of
    /// the game (another instance may have made the rematch already).
    pub(super) async fn run_rematch(
        self: &Arc<Self>,
        mut live: Guard,
        who: &Who,
    ) -> Result<Outcome, GameError> {
        if self.store.shared() {
            self.catch_up(&mut live).await?;
        }
        Ok(Outcome::Started(self.rematch(&mut live, who).await?))
    }

    /// A side asks for a rematch of a finished game: by its token (the new game's token is
    /// its answer), or by its seat (the rematch's seats are held by the same people,
    /// colours swapped).
    async fn rematch(self: &Arc<Self>, live: &mut Live, who: &Who) -> Result<Started, GameError> {
        let side = side_for(live, who, &Command::Rematch)?.ok_or(GameError::NotASide)?;
        if !live.game.is_over() {
            return Err(live.conflict(Conflict::NotOver));
        }
        let new_side = !side;
        let by_token = matches!(who, Who::Token(_));
        if let Some(id) = live.rematch.clone() {
            return match by_token {
                true => self.claim(&id, new_side).await,
                false => self.held_rematch(&id).await,
            };
        }
        let fresh = live.game.rules_only();
        let seats = [
            parse_seat("blue", &live.seats[1])?,
            parse_seat("red", &live.seats[0])?,
        ];
        let mut issue = [false; 2];
        issue[new_side as usize] = by_token;
        // A rated game's rematch is rated too: the same players, rules and clock; casual if
        // the two have since played from one browser (`fairplay.rs`).
        let holders: Vec<Holder> = live.holders.iter().flatten().cloned().collect();
        let now = self.time.now_ms();
        let apart = live.category.is_some()
            && !crate::fairplay::unpairable_at(&self.store, &holders, now)
                .await?
                .is_empty();
        let category = live
            .category
            .as_deref()
            .filter(|_| !apart)
            .and_then(|c| crate::ratings::categories().find(|known| *known == c));
        let new = NewGame {
            holders: [live.holders[1].clone(), live.holders[0].clone()],
            clock: live.clock.as_ref().map(|c| c.control),
            category,
            ..NewGame::new(fresh, seats)
        };
        let started = self.create_with(new, issue).await?;
        let linked = self
            .store
            .link_rematch(&live.id, &started.id)
            .await
            .map_err(|e| GameError::storage("linking the rematch", e))?;
        if !linked {
            // Another instance made the rematch first: that one is claimed (the game made
            // here stays unlinked, never shown).
            self.forget(&started.id);
            self.refresh(live).await?;
            let id = live.rematch.clone().ok_or_else(|| {
                GameError::internal("linking the rematch", "the game has no rematch")
            })?;
            return self.claim(&id, new_side).await;
        }
        // Both games as stored now (links and versions), their watchers told.
        if let Some(slot) = self.cached(&started.id) {
            self.refresh(&mut *slot.lock().await).await?;
        }
        self.refresh(live).await?;
        let mut started = started;
        started.state.rematch_of = Some(live.id.clone());
        Ok(started)
    }

    /// The rematch `id`, made already, for a person who holds their seat in it.
    async fn held_rematch(&self, id: &str) -> Result<Started, GameError> {
        let slot = self.loaded(id).await?;
        let mut rematch = slot.lock().await;
        if self.store.shared() {
            self.catch_up(&mut rematch).await?;
        }
        Ok(Started {
            id: id.to_string(),
            tokens: [None, None],
            state: rematch.state(),
            invitation: None,
        })
    }

    /// The game `id`, from memory or loaded into it.
    async fn loaded(&self, id: &str) -> Result<Arc<super::Slot>, GameError> {
        Ok(match self.cached(id) {
            Some(slot) => slot,
            None => {
                let live = self
                    .load(id)
                    .await?
                    .ok_or_else(|| GameError::NoGame(id.to_string()))?;
                self.insert(live).0
            }
        })
    }

    /// The rematch `id` with a token for `side`, if that side has none yet.
    async fn claim(&self, id: &str, side: Color) -> Result<Started, GameError> {
        let slot = self.loaded(id).await?;
        let mut rematch = slot.lock().await;
        if self.store.shared() {
            self.catch_up(&mut rematch).await?;
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
            .await
            .map_err(|e| GameError::storage("storing the token", e))?;
        self.refresh(&mut rematch).await?;
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
            invitation: None,
        })
    }
}
