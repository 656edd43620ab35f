//! How a game comes into memory: created (its players seated, a computer's first move
//! played, all stored) or loaded (read back from the database and replayed through the
//! rules), with a rated game's players' ratings. Part of [`Games`]; the rest is in
//! `games.rs`.

use std::sync::Arc;

use lgame::{Color, Move, Record};
use lgame_players::seated::{Seat, SeatedGame};

use super::live::{declared_end, move_texts, stored_clock};
use super::view::{RatingsAnswer, SeatRating};
use super::{parse_seat, GameError, Games, Input, Live, NewGame, Started};
use crate::clock::{Act, Clock, Step};
use crate::cpu::cpu_bound;
use crate::ratings::Entry;
use crate::secret::random_hex;
use crate::secret::token_hash;
use crate::store::{GameRow, Holder, Requests};

impl Games {
    /// Creates a game: seats the players, lets a computer that moves first move, stores it
    /// all and keeps it in memory. In a task of its own, so that a game is made whole even
    /// if the client goes away.
    pub async fn create(self: &Arc<Self>, new: NewGame) -> Result<Started, GameError> {
        let games = self.clone();
        super::to_the_end(async move { games.create_with(new, [true, true]).await }).await
    }

    /// Creates a game, giving a token to the human sides `issue` names; another human side
    /// waits for its token (a rematch's, until its player asks). Computers that move first
    /// move at once, unless both sides are computers: such a game is played out by
    /// [`crate::autoplay`], one ply at a time.
    pub(super) async fn create_with(
        &self,
        new: NewGame,
        issue: [bool; 2],
    ) -> Result<Started, GameError> {
        let NewGame {
            game,
            seats,
            holders,
            invite,
            clock,
            id,
            lobby_tokens,
            category,
            arena,
        } = new;
        let game = self.within_cap(game)?;
        if clock.is_some() && !seats.iter().any(Seat::is_human) {
            return Err(GameError::invalid(
                Input::Player,
                "a clock is for a game with a person in it; two computers play untimed".into(),
            ));
        }
        if !seats.iter().all(Seat::is_human) {
            self.check_table(game.rules())?;
        }
        let id = match id {
            Some(id) => id,
            None => random_hex(8)?,
        };
        // A token only for a side its creator plays: every human side of a game nobody
        // holds (a program's), else the held ones; never the invited side, which is its
        // guest's alone (docs/accounts.md, "Seats").
        let nobody_holds = holders.iter().all(Option::is_none);
        let mut tokens = [None, None];
        for (i, seat) in seats.iter().enumerate() {
            let invited = invite.is_some_and(|side| side as usize == i);
            let theirs = nobody_holds || holders[i].is_some();
            if seat.is_human() && issue[i] && lobby_tokens[i].is_none() && !invited && theirs {
                tokens[i] = Some(random_hex(16)?);
            }
        }
        let invitation = match invite {
            Some(side) if seats[side as usize].is_human() && holders[side as usize].is_none() => {
                Some((side, random_hex(32)?))
            }
            _ => None,
        };
        let mut invites = [None, None];
        if let Some((side, code)) = &invitation {
            invites[*side as usize] = Some(token_hash(&id, code));
        }
        let seed = u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(1);
        let record = Record::from_game(&game.rules_only());
        let variant = record.tag("Variant").map(str::to_string);
        let header = record.to_string();
        let seat_texts = [seats[0].name().to_string(), seats[1].name().to_string()];
        let someone = seats.iter().any(Seat::is_human);
        let tables = self.tablebases.clone();
        // A computer that moves first may solve its table or search: CPU work of its own.
        let seated = cpu_bound(move || {
            let mut seated = SeatedGame::new(game, seats, seed, tables);
            while someone && seated.play_computer().is_some() {}
            Ok(seated)
        })
        .await?;
        let plies = seated.game().plies().len();
        let now = self.time.now_ms();
        let clock = clock.map(|control| {
            // A computer's first move counts as made at once.
            let moves = (1..=plies).zip([Color::Red, Color::Blue].into_iter().cycle());
            moves.fold(Clock::new(control, now), |clock, (plies, turn)| {
                let act = Act::Move { think_ms: None };
                let step = Step {
                    turn,
                    act,
                    at_ms: now,
                    plies,
                    over: false,
                };
                clock.step(step).clock
            })
        });
        let row = GameRow {
            id: id.clone(),
            header,
            seats: seat_texts,
            token_hashes: [0, 1].map(|i| match &lobby_tokens[i] {
                Some(hash) => Some(hash.clone()),
                None => tokens[i].as_ref().map(|token| token_hash(&id, token)),
            }),
            seed,
            end: declared_end(seated.game()),
            requests: Requests::default(),
            rematch: None,
            rematch_of: None,
            holders,
            invites,
            names: [None, None],
            bots: [false, false],
            arena,
            created: Some(now.div_euclid(1000)),
            variant,
            category: category.map(str::to_string),
            version: 0,
            clock: stored_clock(clock.as_ref(), seated.game()),
        };
        let outcome = seated.game().result_token();
        let moves = move_texts(&seated.game().moves());
        let analyst = self.analyst(seated.game().rules());
        let mut live = Live::new(id.clone(), seated, &row, 0, self.time.clone(), analyst);
        self.store
            .insert_game(&row, &moves, outcome, now)
            .await
            .map_err(|e| GameError::storage("storing the game", e))?;
        if row.holders.iter().any(Option::is_some) {
            // The holders' names are the database's to tell.
            self.refresh(&mut live).await?;
        }
        let state = live.state();
        self.insert(live);
        Ok(Started {
            id,
            tokens,
            state,
            invitation,
        })
    }

    /// Loads a stored game, replaying its moves through the rules.
    pub async fn load(&self, id: &str) -> Result<Option<Live>, GameError> {
        let loaded = self
            .store
            .load(id)
            .await
            .map_err(|e| GameError::storage("reading the game", e))?;
        let Some((row, moves)) = loaded else {
            return Ok(None);
        };
        let corrupt =
            |what: String| GameError::internal("loading the game", format!("{id}: {what}"));
        let record: Record = row.header.parse().map_err(|e| corrupt(format!("{e}")))?;
        let mut game = record.new_game().map_err(|e| corrupt(format!("{e}")))?;
        // A game stored with no turn limit or a longer one (before the cap, or under a
        // larger cap) gets the cap, or ends where it stands if it is already longer.
        let mut draw = game.draw_rules();
        if draw.turn_limit.is_none_or(|limit| limit > self.max_plies) {
            draw.turn_limit = Some(self.max_plies.max(moves.len() as u32));
            game = game.with_draw_rules(draw);
        }
        let mut seats = [Seat::Human, Seat::Human];
        for (seat, text) in seats.iter_mut().zip(&row.seats) {
            *seat = parse_seat("seat", text).map_err(|e| corrupt(e.to_string()))?;
        }
        let mut seated = SeatedGame::new(game, seats, row.seed, self.tablebases.clone());
        for (i, text) in moves.iter().enumerate() {
            let mv: Move = text
                .parse()
                .map_err(|e| corrupt(format!("ply {}: {e}", i + 1)))?;
            seated
                .play_human(&mv)
                .map_err(|e| corrupt(format!("ply {}: {e}", i + 1)))?;
        }
        if let Some((termination, result)) = row.end {
            seated
                .game_mut()
                .declare(termination, result)
                .map_err(|e| corrupt(format!("{e}")))?;
        }
        let analyst = self.analyst(seated.game().rules());
        let mut live = Live::new(
            row.id.clone(),
            seated,
            &row,
            row.version,
            self.time.clone(),
            analyst,
        );
        live.ratings = (self.ratings_of(&row.id, row.category.as_deref(), &row.holders)).await?;
        Ok(Some(live))
    }

    /// A rated game's players' ratings: its stored changes once it is over, else the
    /// ratings it would start from now. `None` for a casual game.
    pub(super) async fn ratings_of(
        &self,
        id: &str,
        category: Option<&str>,
        holders: &[Option<Holder>; 2],
    ) -> Result<Option<RatingsAnswer>, GameError> {
        let Some(category) = category else {
            return Ok(None);
        };
        let storage = |e| GameError::storage("reading the ratings", e);
        let changes = self.store.game_ratings(id).await.map_err(storage)?;
        let mut seats = [None, None];
        for (seat, side) in seats.iter_mut().zip(lgame::Color::ALL) {
            if let Some(c) = changes.iter().find(|c| c.side == side) {
                *seat = Some(SeatRating {
                    before: c.before.into(),
                    after: Some(c.after.into()),
                });
            }
        }
        for (seat, holder) in seats.iter_mut().zip(holders) {
            if seat.is_none() {
                let entry = match holder.as_ref().and_then(Holder::account) {
                    Some(user) => self
                        .store
                        .rating_entry(user, category)
                        .await
                        .map_err(storage)?,
                    None => None,
                };
                let now = self.time.now_ms();
                *seat = Some(SeatRating {
                    before: Entry::before(entry, now).into(),
                    after: None,
                });
            }
        }
        let [Some(red), Some(blue)] = seats else {
            return Ok(None);
        };
        Ok(Some(RatingsAnswer { red, blue }))
    }
}
