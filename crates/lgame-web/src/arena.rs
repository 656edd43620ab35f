//! Arena tournaments (docs/ratings.md, "Arena tournaments"; docs/api.md, "Arenas"): for
//! its minutes, an arena pairs its players who are waiting, again and again, as lichess's
//! arena does; whoever scores the most wins.
//!
//! The scoring, as lichess's arena scores: 2 points a win, 1 a draw, 0 a loss; after two
//! wins in a row a player is on a streak and each game's points double until a game is not
//! won. Against draw farming (the L game's perfect play draws): a draw before ply
//! [`EARLY_DRAW_PLIES`] scores nothing, and a draw right after a draw scores nothing.
//!
//! The pairing ([`start`]): every [`TICK`] each instance pairs each running arena's
//! waiting players (joined, not withdrawn, in no game of the arena), in one transaction
//! per arena (`arena/rows.rs`), neighbours by score ([`pairs`]). Nothing of a score is
//! stored: the standings ([`standings`]) are read from the games the arena made, so every
//! instance shows the same, and a stopped instance loses no point.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use lgame::game::{GameResult, ResultToken, Termination};
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::TimeControl;
use crate::games::{self, GameError, Games, NewGame};
use crate::schema;
use crate::secret::random_hex;
use crate::store::Holder;

pub(crate) mod api;
mod making;
mod routes;
mod rows;

pub use making::{ArenaError, ArenaTerms, AHEAD_MS};
pub use routes::routes;
pub use rows::{ArenaData, ArenaGame, ArenaPlayer, ArenaRow, Chooser, Pairing, MAKING_MS};

/// How often an instance pairs the waiting players of each running arena.
pub const TICK: Duration = Duration::from_secs(1);

/// An arena's length, in minutes.
pub const MINUTES: std::ops::RangeInclusive<i64> = 10..=180;

/// The most arenas `GET /api/arenas` lists.
pub const LISTED: i64 = 50;

/// Two players whose last games were against each other are paired again only once both
/// have waited this long (the server's milliseconds): until then, each waits for another.
pub const REMATCH_AFTER_MS: i64 = 10_000;

/// An arena tournament, as `GET /api/arenas` lists it (docs/api.md, "Arenas").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaSummary {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    /// How long pairing goes on.
    pub minutes: i64,
    pub rated: bool,
    /// A rated arena's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// When pairing starts and ends (the server's time, in milliseconds).
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running` (until its end, and after it while a game of it goes on) or
    /// `finished`.
    pub state: String,
    /// How many joined.
    pub players: i64,
    /// Who made it (a username; `null` once their account is closed).
    #[schema(required)]
    pub creator: Option<String>,
}

/// A player's line in an arena's standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaStanding {
    /// 1 for the best.
    pub rank: usize,
    pub username: String,
    pub score: u32,
    /// On a streak: their last two games won, so their next game's points double.
    pub fire: bool,
    /// The points of each of their games, in order.
    pub sheet: Vec<u32>,
    /// The game of the arena they are playing (`null` while waiting, and for the instant
    /// a new pairing's game takes to be stored).
    #[schema(required)]
    pub game: Option<String>,
    /// Left the arena, or withdrawn for not moving in a game: not paired again.
    pub withdrawn: bool,
}

/// An arena with its standings: the answer to `GET /api/arenas/{id}`, to its creation, to
/// joining and leaving.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaView {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    pub minutes: i64,
    pub rated: bool,
    /// A rated arena's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running` or `finished`.
    pub state: String,
    pub players: i64,
    /// Who made it (a username; `null` once their account is closed).
    #[schema(required)]
    pub creator: Option<String>,
    /// Every player who joined, best first: by score, then who reached it first, then by
    /// username.
    pub standings: Vec<ArenaStanding>,
    /// The best three's usernames once the arena is finished, else `null`.
    #[schema(required)]
    pub podium: Option<Vec<String>>,
}

/// Where an arena is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArenaState {
    Upcoming,
    Running,
    Finished,
}

impl ArenaState {
    pub fn name(self) -> &'static str {
        match self {
            ArenaState::Upcoming => "upcoming",
            ArenaState::Running => "running",
            ArenaState::Finished => "finished",
        }
    }
}

/// An arena's state at `now_ms`: running until its end, and after it while a game of it
/// is unfinished.
pub fn state_of(arena: &ArenaRow, now_ms: i64) -> ArenaState {
    if now_ms < arena.starts_at {
        ArenaState::Upcoming
    } else if now_ms < arena.ends_at || arena.unfinished > 0 {
        ArenaState::Running
    } else {
        ArenaState::Finished
    }
}

/// Whether new games are paired at `now_ms`.
pub fn pairing_open(arena: &ArenaRow, now_ms: i64) -> bool {
    arena.starts_at <= now_ms && now_ms < arena.ends_at
}

/// A player's place in an arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub user_id: i64,
    pub username: String,
    pub sheet: Sheet,
    /// The game of the arena they are playing (or that is being made).
    pub game: Option<String>,
    /// Whether that game is stored yet (shown only then: its id answers).
    pub game_stored: bool,
    /// Left, or absent: a game of theirs aborted before their first move since they joined.
    pub withdrawn: bool,
    /// When the game that gave their last points ended (`i64::MAX`: none did).
    pub reached_ms: i64,
    /// Since when they have been free to play: joined, or their last game ended.
    pub free_since: i64,
    /// Their last game's opponent.
    pub last_opponent: Option<i64>,
}

/// How one game ended for the side `side` (0 Red, 1 Blue); `None` if it scores no game
/// (unfinished, or aborted).
fn played(outcome: ResultToken, plies: i64, side: usize) -> Option<Played> {
    let won = match outcome {
        ResultToken::Finished(GameResult::RedWins) => 0,
        ResultToken::Finished(GameResult::BlueWins) => 1,
        ResultToken::Finished(GameResult::Draw) => {
            return Some(Played::Draw {
                plies: u32::try_from(plies).unwrap_or(u32::MAX),
            })
        }
        ResultToken::Unfinished => return None,
    };
    Some(if won == side {
        Played::Win
    } else {
        Played::Loss
    })
}

impl ArenaGame {
    /// Whether the game is over: a result, or a declared end (an abort has no result).
    pub fn over(&self) -> bool {
        let finished = |o: &ResultToken| *o != ResultToken::Unfinished;
        self.outcome.as_ref().is_some_and(finished) || self.termination.is_some()
    }

    /// Whether the game is still to be played or made (`now_ms`: see [`MAKING_MS`]).
    pub fn in_progress(&self, now_ms: i64) -> bool {
        match self.outcome {
            None => self.made_ms > now_ms - MAKING_MS,
            Some(_) => !self.over(),
        }
    }
}

/// Every player's standing, best first: by score, then who reached it first, then by
/// username.
pub fn standings(data: &ArenaData, now_ms: i64) -> Vec<Standing> {
    let mut all: Vec<Standing> = data
        .players
        .iter()
        .map(|p| Standing {
            user_id: p.user_id,
            username: p.username.clone(),
            sheet: Sheet::default(),
            game: None,
            game_stored: false,
            withdrawn: p.left_ms.is_some(),
            reached_ms: i64::MAX,
            free_since: p.joined_ms,
            last_opponent: None,
        })
        .collect();
    for g in &data.games {
        for (side, player) in g.players.iter().enumerate() {
            let Some(joined) = data.players.iter().find(|p| p.user_id == *player) else {
                continue;
            };
            let Some(s) = all.iter_mut().find(|s| s.user_id == *player) else {
                continue;
            };
            if g.in_progress(now_ms) {
                s.game = Some(g.game.clone());
                s.game_stored = g.outcome.is_some();
                s.last_opponent = Some(g.players[1 - side]);
                continue;
            }
            if !g.over() {
                continue; // never made
            }
            s.last_opponent = Some(g.players[1 - side]);
            let ended = g.ended_ms.unwrap_or(now_ms);
            s.free_since = s.free_since.max(ended);
            let outcome = g.outcome.unwrap_or(ResultToken::Unfinished);
            if g.termination == Some(Termination::Aborted) && outcome == ResultToken::Unfinished {
                // Aborted before both first moves: the side to move never moved (Red
                // moves first).
                let absent = usize::from(g.plies % 2 == 1);
                if absent == side && g.made_ms >= joined.joined_ms {
                    s.withdrawn = true;
                }
                continue;
            }
            if let Some(result) = played(outcome, g.plies, side) {
                if s.sheet.add(result) > 0 {
                    s.reached_ms = ended;
                }
            }
        }
    }
    all.sort_by(|a, b| {
        b.sheet
            .score
            .cmp(&a.sheet.score)
            .then(a.reached_ms.cmp(&b.reached_ms))
            .then(a.username.cmp(&b.username))
    });
    all
}

/// The pairs among `waiting` (best first; their indexes): each still unpaired, from the
/// best, with the next unpaired who was not their last opponent. Two left over who last
/// played each other are swapped into the nearest pair made, if that pairs no one with
/// their last opponent; else they are paired together only once both have been free for
/// [`REMATCH_AFTER_MS`]. An odd one out waits. Two accounts kept `apart` (their ids, the
/// smaller first: `fairplay::unpairable_at`) are never paired.
pub fn pairs(
    waiting: &[&Standing],
    now_ms: i64,
    apart: &BTreeSet<(i64, i64)>,
) -> Vec<(usize, usize)> {
    let allowed = |i: usize, j: usize| {
        let (a, b) = (waiting[i].user_id, waiting[j].user_id);
        !apart.contains(&(a.min(b), a.max(b)))
    };
    let fresh = |i: usize, j: usize| {
        let (a, b) = (waiting[i], waiting[j]);
        a.last_opponent != Some(b.user_id) && b.last_opponent != Some(a.user_id) && allowed(i, j)
    };
    let free = |i: usize| waiting[i].free_since + REMATCH_AFTER_MS <= now_ms;
    let mut taken = vec![false; waiting.len()];
    let mut chosen = Vec::new();
    for i in 0..waiting.len() {
        if taken[i] {
            continue;
        }
        if let Some(j) = (i + 1..waiting.len()).find(|&j| !taken[j] && fresh(i, j)) {
            taken[i] = true;
            taken[j] = true;
            chosen.push((i, j));
        }
    }
    let left: Vec<usize> = (0..waiting.len()).filter(|&i| !taken[i]).collect();
    let mut rest = Vec::new();
    let mut k = 0;
    while k < left.len() {
        if k + 1 < left.len() {
            let (x, y) = (left[k], left[k + 1]);
            let swap = chosen
                .iter()
                .rposition(|&(a, b)| fresh(a, x) && fresh(b, y));
            if let Some(p) = swap {
                let (a, b) = chosen[p];
                chosen[p] = (a, x);
                chosen.push((b, y));
                k += 2;
                continue;
            }
        }
        rest.push(left[k]);
        k += 1;
    }
    let mut k = 0;
    while k + 1 < rest.len() {
        if free(rest[k]) && free(rest[k + 1]) && allowed(rest[k], rest[k + 1]) {
            chosen.push((rest[k], rest[k + 1]));
            k += 2;
        } else {
            k += 1;
        }
    }
    chosen
}

/// Who waits in an arena at `now_ms`, best first: pairing is open, and each has joined,
/// not withdrawn, and is in no game of the arena.
pub fn waiting<'a>(standings: &'a [Standing], arena: &ArenaRow, now_ms: i64) -> Vec<&'a Standing> {
    if !pairing_open(arena, now_ms) {
        return Vec::new();
    }
    standings
        .iter()
        .filter(|s| !s.withdrawn && s.game.is_none())
        .collect()
}

/// The pairings to make in an arena as read, sides drawn at random, never two accounts
/// kept `apart`.
fn choose(data: &ArenaData, now_ms: i64, apart: &BTreeSet<(i64, i64)>) -> Vec<Pairing> {
    let all = standings(data, now_ms);
    let waiting = waiting(&all, &data.arena, now_ms);
    let mut made = Vec::new();
    for (i, j) in pairs(&waiting, now_ms, apart) {
        let (Ok(game), Ok(coin)) = (random_hex(8), random_hex(1)) else {
            tracing::warn!("no random numbers for an arena's pairing");
            return made;
        };
        let (a, b) = (waiting[i].user_id, waiting[j].user_id);
        let red_first = u8::from_str_radix(&coin, 16).unwrap_or(0) % 2 == 0;
        let players = if red_first { [a, b] } else { [b, a] };
        made.push(Pairing { game, players });
    }
    made
}

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the arenas' database", e)
}

/// Pairs every running arena each [`TICK`], until `stopping` turns true.
pub fn start(games: Arc<Games>, mut stopping: tokio::sync::watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(e) = pair_all(&games).await {
                        tracing::warn!(error = %e, "pairing the arenas");
                    }
                }
                _ = stopping.changed() => break,
            }
        }
    });
}

/// One pairing of every arena running (or with games to see end), and their games made.
pub async fn pair_all(games: &Arc<Games>) -> Result<(), GameError> {
    let now = games.time.now_ms();
    let store = games.clone();
    let running = store.store.running_arenas(now).await.map_err(storage)?;
    for id in running {
        let apart = kept_apart(&games.store, &id, now).await?;
        let chooser: Chooser = Box::new(move |data| choose(data, now, &apart));
        let made = games
            .store
            .pair_arena(&id, now, chooser)
            .await
            .map_err(storage);
        let made = match made {
            Ok(made) if made.is_empty() => continue,
            Ok(made) => made,
            // The others are paired all the same.
            Err(e) => {
                tracing::warn!(arena = %id, error = %e, "pairing an arena");
                continue;
            }
        };
        let store = games.clone();
        let key = id.clone();
        let Some(data) = store.store.arena(&key, now).await.map_err(storage)? else {
            continue;
        };
        for pairing in made {
            if let Err(e) = make_game(games, &data.arena, &pairing).await {
                tracing::warn!(arena = %id, game = %pairing.game, error = %e, "an arena's game");
            }
        }
    }
    Ok(())
}

/// The players of a rated arena never paired with each other (`fairplay.rs`), as pairs of
/// account ids, the smaller first.
async fn kept_apart(
    store: &crate::store::Store,
    id: &str,
    now_ms: i64,
) -> Result<BTreeSet<(i64, i64)>, GameError> {
    let Some(data) = store.arena(id, now_ms).await.map_err(storage)? else {
        return Ok(BTreeSet::new());
    };
    if data.arena.category.is_none() {
        return Ok(BTreeSet::new());
    }
    let holders: Vec<Holder> = data
        .players
        .iter()
        .map(|p| Holder::Account(p.user_id))
        .collect();
    let pairs = crate::fairplay::unpairable_at(store, &holders, now_ms).await?;
    Ok(pairs
        .into_iter()
        .map(|(i, j)| {
            let (a, b) = (data.players[i].user_id, data.players[j].user_id);
            (a.min(b), a.max(b))
        })
        .collect())
}

/// Makes a pairing's game: the arena's variant and clock, both seats held, rated in its
/// category if the arena is.
async fn make_game(
    games: &Arc<Games>,
    arena: &ArenaRow,
    pairing: &Pairing,
) -> Result<(), GameError> {
    let rules = games::parse_rules(&arena.variant)?;
    let clock = arena.clock;
    let category = arena
        .category
        .as_ref()
        .and_then(|_| crate::ratings::category(&rules, Some(clock)));
    let holders = pairing.players.map(|p| Some(Holder::Account(p)));
    let new = NewGame {
        arena: Some(arena.id.clone()),
        ..crate::lobby::paired_game(pairing.game.clone(), rules, clock, holders, category)
    };
    let games = games.clone();
    games.create(new).await?;
    Ok(())
}

/// An arena's summary at `now_ms`.
pub fn summary(arena: &ArenaRow, now_ms: i64) -> ArenaSummary {
    let clock = arena.clock;
    ArenaSummary {
        id: arena.id.clone(),
        variant: arena.variant.clone(),
        clock,
        speed: clock.speed(),
        minutes: arena.minutes,
        rated: arena.category.is_some(),
        category: arena.category.clone(),
        starts_at: arena.starts_at,
        ends_at: arena.ends_at,
        state: state_of(arena, now_ms).name().to_string(),
        players: arena.players,
        creator: arena.creator_name.clone(),
    }
}

/// An arena's view at `now_ms`: its summary, its standings and, once finished, its podium.
pub fn view(data: &ArenaData, now_ms: i64) -> ArenaView {
    let s = summary(&data.arena, now_ms);
    let standings: Vec<ArenaStanding> = standings(data, now_ms)
        .into_iter()
        .enumerate()
        .map(|(i, s)| ArenaStanding {
            rank: i + 1,
            fire: s.sheet.on_fire(),
            score: s.sheet.score,
            sheet: s.sheet.games.iter().map(|g| g.points).collect(),
            username: s.username,
            game: s.game.filter(|_| s.game_stored),
            withdrawn: s.withdrawn,
        })
        .collect();
    let podium = (state_of(&data.arena, now_ms) == ArenaState::Finished).then(|| {
        standings
            .iter()
            .take(3)
            .map(|s| s.username.clone())
            .collect()
    });
    ArenaView {
        id: s.id,
        variant: s.variant,
        clock: s.clock,
        speed: s.speed,
        minutes: s.minutes,
        rated: s.rated,
        category: s.category,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        state: s.state,
        players: s.players,
        creator: s.creator,
        standings,
        podium,
    }
}

/// A draw in fewer plies than this scores nothing.
pub const EARLY_DRAW_PLIES: u32 = 20;

/// How a tournament game ended for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Played {
    Win,
    /// A draw after `plies` plies.
    Draw {
        plies: u32,
    },
    Loss,
}

/// One game on a player's sheet and the points it gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Scored {
    pub played: Played,
    pub points: u32,
    /// Scored on a streak (doubled).
    pub fire: bool,
}

/// A player's games in a tournament, in the order they ended, and the score.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Sheet {
    pub games: Vec<Scored>,
    pub score: u32,
}

impl Sheet {
    /// Whether the player is on a streak: their last two games were won.
    pub fn on_fire(&self) -> bool {
        let n = self.games.len();
        n >= 2 && self.games[n - 2..].iter().all(|g| g.played == Played::Win)
    }

    /// Adds a game that ended; answers its points.
    pub fn add(&mut self, played: Played) -> u32 {
        let fire = self.on_fire();
        let after_draw = matches!(
            self.games.last(),
            Some(Scored {
                played: Played::Draw { .. },
                ..
            })
        );
        let base = match played {
            Played::Win => 2,
            Played::Draw { plies } if plies < EARLY_DRAW_PLIES || after_draw => 0,
            Played::Draw { .. } => 1,
            Played::Loss => 0,
        };
        let points = if fire { base * 2 } else { base };
        self.games.push(Scored {
            played,
            points,
            fire,
        });
        self.score += points;
        points
    }
}

#[cfg(test)]
mod tests;
