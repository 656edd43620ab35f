//! What a game needs the other side's say for: taking back between two people (asked, then
//! accepted or declined), a draw offered to the computer (accepted when its level judges
//! the position drawn), a rematch (a new game, colours swapped, each person's token given
//! to them alone); and a game between two computers, played a ply at a time.

use std::sync::Arc;

use lgame::{Color, Game, Position};
use lgame_players::seated::Seat;
use lgame_players::{Level, Tablebases};
use lgame_solver::Wdl;
use tokio::sync::broadcast;

use super::{color_name, parse_seat, random_hex, App, Change, Live, NewGame, Started};
use super::{Conflict, GameError};
use crate::response::GameState;
use crate::secret::token_hash;

/// How a request to take back is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
}

impl Live {
    /// Between two people: `side` asks to take back its last move (and the reply to it, if
    /// the other has replied). Nothing is taken back until the other accepts.
    pub(super) fn ask_undo(
        &mut self,
        store: &crate::store::Store,
        updates: &broadcast::Sender<Arc<str>>,
        side: Color,
    ) -> Result<GameState, GameError> {
        self.over()?;
        match self.undo_request {
            Some(asking) if asking == side => return Ok(self.changed(updates)),
            Some(asking) => return Err(self.conflict(Conflict::UndoAsked(asking))),
            None => {}
        }
        if self.undo_depth(side).is_none() {
            return Err(self.conflict(Conflict::NothingToUndo));
        }
        self.commit(store, updates, Change::UndoAsked(Some(side)))
    }

    /// How many plies take back `side`'s last move: 1 if it was the last ply, 2 if the
    /// other has replied; `None` when the side has not moved.
    fn undo_depth(&self, side: Color) -> Option<usize> {
        let plies = self.seated.game().plies().len();
        let depth = if self.seated.game().position().turn() == side {
            2
        } else {
            1
        };
        (plies >= depth).then_some(depth)
    }

    /// The token's side accepts or declines the other side's request to take back.
    pub fn answer_undo(
        &mut self,
        store: &crate::store::Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
        answer: Answer,
    ) -> Result<GameState, GameError> {
        let side = self.side(token)?;
        self.over()?;
        let asking = match self.undo_request {
            None => return Err(self.conflict(Conflict::NoUndoRequest)),
            Some(asking) if asking == side => return Err(self.conflict(Conflict::OwnUndoRequest)),
            Some(asking) => asking,
        };
        if answer == Answer::Decline {
            return self.commit(store, updates, Change::UndoAsked(None));
        }
        let Some(taken) = self.undo_depth(asking) else {
            return Err(self.conflict(Conflict::NothingToUndo));
        };
        for _ in 0..taken {
            self.seated.game_mut().undo();
        }
        let keep = self.seated.game().plies().len();
        self.commit(store, updates, Change::TakenBack { keep, taken })
    }

    /// A draw offered to the computer on `side`: agreed at once when its level judges the
    /// position drawn, declined (409) otherwise.
    pub(super) fn offer_to_computer(
        &mut self,
        store: &crate::store::Store,
        tables: &Tablebases,
        updates: &broadcast::Sender<Arc<str>>,
        side: Color,
    ) -> Result<GameState, GameError> {
        let drawn = match self.seated.seat(side) {
            Seat::Computer(spec) => judges_drawn(spec.level, self.seated.game(), tables),
            _ => false,
        };
        if !drawn {
            let seat = self.seats[side as usize].clone();
            return Err(self.conflict(Conflict::DrawDeclined { side, seat }));
        }
        if let Err(e) = self.seated.game_mut().agree_draw() {
            return Err(self.conflict(Conflict::Refused(e)));
        }
        self.commit(store, updates, Change::Declared)
    }

    /// In a game between two computers: the next ply, played and stored. Returns whether
    /// the game goes on.
    pub fn step_computers(
        &mut self,
        store: &crate::store::Store,
        updates: &broadcast::Sender<Arc<str>>,
    ) -> Result<bool, GameError> {
        let first = self.seated.game().plies().len() + 1;
        match self.seated.play_computer() {
            Some(mv) => {
                let moves = vec![mv];
                self.commit(store, updates, Change::Played { first, moves })?;
            }
            // A forfeit (never a built-in level) or the end: store any declared end.
            None if super::declared_end(self.seated.game()).is_some() => {
                self.commit(store, updates, Change::Declared)?;
            }
            None => {}
        }
        Ok(self.plays_itself())
    }

    /// Whether this is a game between two computers that goes on.
    pub fn plays_itself(&self) -> bool {
        !self.human(Color::Red) && !self.human(Color::Blue) && !self.seated.game().is_over()
    }
}

/// Whether a computer of `level` judges the game's position drawn: `perfect` exactly when
/// the table says so; the other levels, which look at most a move ahead, when the player to
/// move has no move that wins at once.
fn judges_drawn(level: Level, game: &Game, tables: &Tablebases) -> bool {
    let position = game.position();
    match level {
        Level::Perfect => tables
            .get(game.rules())
            .wdl(position)
            .is_ok_and(|wdl| wdl == Wdl::Draw),
        _ => !position
            .legal_moves()
            .iter()
            .any(|mv| wins_at_once(position, &position.play_unchecked(mv))),
    }
}

/// Whether `after` is a win for the side that was to move in `before`.
fn wins_at_once(before: &Position, after: &Position) -> bool {
    after.outcome().is_some_and(|o| o.winner == before.turn())
}

impl App {
    /// The token's side asks for a rematch of a finished game: the same rules and seats,
    /// colours swapped. The first to ask creates it (and links the games both ways); each
    /// person gets their own side's token by asking, once.
    pub fn rematch(
        &self,
        live: &mut Live,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<Started, GameError> {
        let side = live.side(token)?;
        if !live.seated.game().is_over() {
            return Err(live.conflict(Conflict::NotOver));
        }
        let new_side = !side;
        if let Some(id) = live.rematch.clone() {
            return self.claim(&id, new_side);
        }
        let game = live.seated.game();
        let fresh = Game::new(*game.rules()).with_draw_rules(game.draw_rules());
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
            self.refresh(live, updates)?;
            let id = live.rematch.clone().ok_or_else(|| {
                GameError::internal("linking the rematch", "the game has no rematch")
            })?;
            return self.claim(&id, new_side);
        }
        // Both games as stored now (links and versions), their watchers told.
        if let Some(slot) = self.cached(&started.id) {
            self.refresh(&mut slot.live.blocking_lock(), &slot.updates)?;
        }
        self.refresh(live, updates)?;
        let mut started = started;
        started.state.rematch_of = Some(live.id.clone());
        Ok(started)
    }

    /// The rematch `id` with a token for `side`, if that side has none yet.
    fn claim(&self, id: &str, side: Color) -> Result<Started, GameError> {
        let slot = match self.cached(id) {
            Some(slot) => slot,
            None => {
                let live = self
                    .load(id)?
                    .ok_or_else(|| GameError::NoGame(id.to_string()))?;
                self.insert(live)
            }
        };
        let mut rematch = slot.live.blocking_lock();
        if self.store.shared() {
            self.catch_up(&mut rematch, &slot.updates)?;
        }
        if rematch.tokens[side as usize].is_some() || !rematch.human(side) {
            return Err(rematch.conflict(Conflict::RematchGiven(id.to_string())));
        }
        let token = random_hex(16)?;
        // In the database and in memory, a side is known by its token's hash only.
        let hash = token_hash(id, &token);
        let given = self
            .store
            .set_token(id, color_name(side), &hash)
            .map_err(|e| GameError::storage("storing the token", e))?;
        self.refresh(&mut rematch, &slot.updates)?;
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
