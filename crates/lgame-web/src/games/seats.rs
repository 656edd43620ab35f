//! Who holds a game's seats (`store/accounts.rs`): a seat taken by its one-time
//! invitation (the first to press wins, across instances: the database's conditional
//! update decides) or by its token, a new invitation for a seat still open, and a
//! browser's seats given to the account it signs up or logs in with.

use std::sync::Arc;

use lgame::Color;
use subtle::ConstantTimeEq;

use super::view::GameState;
use super::{Conflict, GameError, Games, Guard, Live, COLORS};
use crate::secret::random_hex;
use crate::secret::token_hash;
use crate::store::Holder;

/// How a person takes a seat.
#[derive(Debug, Clone)]
pub enum SeatBy {
    /// The seat's invitation (the secret of its link).
    Invite(String),
    /// The side's token (an old link, a program's answer opened in a browser).
    Token(String),
}

impl Games {
    /// `holder` takes a seat of game `id`; the state as they see it now. Everyone
    /// watching is told who sits there.
    pub async fn take_seat(
        self: &Arc<Self>,
        id: &str,
        holder: Holder,
        by: SeatBy,
    ) -> Result<GameState, GameError> {
        let slot = self.slot(id).await?;
        let seat = move |games: Arc<Games>, mut live: Guard| async move {
            games.seat(&mut live, &holder, &by).await
        };
        self.locked(id, slot, seat).await
    }

    /// [`Games::take_seat`] on the game, its lock held.
    async fn seat(
        &self,
        live: &mut Live,
        holder: &Holder,
        by: &SeatBy,
    ) -> Result<GameState, GameError> {
        if self.store.shared() {
            self.catch_up(live).await?;
        }
        let (side, invite) = match by {
            SeatBy::Token(token) => (live.side_of(token).ok_or(GameError::NotASide)?, None),
            SeatBy::Invite(code) => {
                let hash = token_hash(&live.id, code);
                let side = invited_side(live, &hash).ok_or(GameError::NotASide)?;
                (side, Some(hash))
            }
        };
        let seated = |live: &Live| {
            live.state_for(&super::Who::Holder {
                holder: holder.clone(),
                side: None,
            })
        };
        match &live.holders[side as usize] {
            Some(h) if h == holder => return Ok(seated(live)),
            Some(_) => return Err(live.conflict(Conflict::SeatTaken(side))),
            None => {}
        }
        let taken = (self.store)
            .take_seat(&live.id, side, holder, invite.as_deref())
            .await
            .map_err(|e| GameError::storage("taking the seat", e))?;
        self.refresh(live).await?;
        if !taken {
            // Taken through another instance a moment before.
            return Err(live.conflict(Conflict::SeatTaken(side)));
        }
        Ok(seated(live))
    }

    /// A new one-time invitation to the open seat of game `id` (the old one stops working),
    /// asked by the player of the other seat: its side and secret.
    pub async fn invite(
        self: &Arc<Self>,
        id: &str,
        who: super::Who,
    ) -> Result<(Color, String), GameError> {
        let slot = self.slot(id).await?;
        let invite = move |games: Arc<Games>, mut live: Guard| async move {
            games.new_invitation(&mut live, &who).await
        };
        self.locked(id, slot, invite).await
    }

    /// [`Games::invite`] on the game, its lock held.
    async fn new_invitation(
        &self,
        live: &mut Live,
        who: &super::Who,
    ) -> Result<(Color, String), GameError> {
        if self.store.shared() {
            self.catch_up(live).await?;
        }
        let hosts = live.sides_of(who);
        let open = COLORS
            .into_iter()
            .find(|&c| live.human(c) && live.holders[c as usize].is_none() && hosts.contains(&!c));
        let side = open.ok_or(GameError::NotASide)?;
        let code = random_hex(32)?;
        let invite = token_hash(&live.id, &code);
        let given = self
            .store
            .set_invite(&live.id, side, &invite)
            .await
            .map_err(|e| GameError::storage("storing the invitation", e))?;
        self.refresh(live).await?;
        if !given {
            return Err(live.conflict(Conflict::SeatTaken(side)));
        }
        Ok((side, code))
    }

    /// Gives every seat `from` holds to `to`, and brings the games in memory up to date.
    pub async fn adopt_seats(
        self: &Arc<Self>,
        from: &Holder,
        to: &Holder,
    ) -> Result<usize, GameError> {
        let changed = self
            .store
            .adopt_seats(from, to)
            .await
            .map_err(|e| GameError::storage("keeping the games", e))?;
        self.refresh_cached(&changed).await?;
        Ok(changed.len())
    }

    /// The games a holder holds a seat of (every one).
    pub async fn held_by(&self, holder: &Holder) -> Result<Vec<String>, GameError> {
        let query = crate::store::GamesQuery {
            holder: holder.clone(),
            standing: None,
            variant: None,
            opponent: None,
            limit: i64::MAX,
            offset: 0,
        };
        let (games, _) = self
            .store
            .games_of(&query)
            .await
            .map_err(|e| GameError::storage("listing the games", e))?;
        Ok(games.into_iter().map(|g| g.id).collect())
    }

    /// Brings those of these games held in memory up to the database's copy (their
    /// watchers told), each under its lock as a command is ([`Games::locked`]).
    pub async fn refresh_cached(self: &Arc<Self>, ids: &[String]) -> Result<(), GameError> {
        for id in ids {
            if let Some(slot) = self.cached(id) {
                let refresh = |games: Arc<Games>, mut live: Guard| async move {
                    games.refresh(&mut live).await
                };
                self.locked(id, slot, refresh).await?;
            }
        }
        Ok(())
    }
}

/// The side whose open invitation has this hash (compared in constant time).
fn invited_side(live: &Live, hash: &str) -> Option<Color> {
    COLORS.into_iter().find(|&c| {
        live.invites[c as usize]
            .as_deref()
            .is_some_and(|h| bool::from(h.as_bytes().ct_eq(hash.as_bytes())))
    })
}
