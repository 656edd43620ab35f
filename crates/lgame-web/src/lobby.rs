//! The lobby (docs/api.md, "The lobby"): seeks that anyone may take, and quick pairing's
//! pool, which pairs the players waiting for the same control in waves.
//!
//! Both live in the database (`lobby/rows.rs`), so that several instances on one
//! PostgreSQL have one lobby and one pool: a seek is taken, or two tickets paired, by a
//! conditional update that one claimer wins; the game is then made under the id claimed.
//! Each instance keeps the open seeks it has heard of, for its pages' live streams
//! (`GET /api/lobby/ws`), and hears of the others' changes by the database's notices.
//!
//! A seek or ticket lives while its holder shows it is still wanted: a lobby page of theirs
//! open on some instance (each instance says so for its pages every [`SWEEP_EVERY`]), or a
//! poll of it. Unseen for [`LIFETIMES`]' `unseen_ms`, it is gone: a closed page's seek
//! disappears within seconds. Times are the server's (`clock::TimeSource`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lgame::game::DrawRules;
use lgame::Color;
use lgame_players::seated::Seat;
use serde::Serialize;
use tokio::sync::broadcast;
use utoipa::ToSchema;

use crate::clock::TimeControl;
use crate::credentials::{new_secret, secret_hash};
use crate::games::{self, GameError, Games, NewGame, Started};
use crate::ratings::{self, Entry, START};
use crate::schema;
use crate::secret::lobby_seat_hash;
use crate::secret::random_hex;
use crate::store::{ColorChoice, Holder};

pub(crate) mod api;
mod refusal;
mod routes;
mod rows;
pub use refusal::LobbyError;
pub use routes::routes;
pub use rows::{Lifetimes, SeekKind, SeekRow, SeekState};

/// How long things last in the lobby.
pub const LIFETIMES: Lifetimes = Lifetimes {
    unseen_ms: 10_000,
    claim_ms: 10_000,
    keep_ms: 3_600_000,
};

/// How often an instance says which holders have its lobby pages open, and sweeps.
pub const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// How often quick pairing pairs the players waiting.
pub const WAVE_EVERY: Duration = Duration::from_secs(2);

/// The open seeks (and tickets) one holder, or one address without an account, may have.
pub const LIMIT: i64 = 3;

/// The most open seeks an instance keeps in memory, and the most tickets one wave pairs.
const MOST: i64 = 100_000;

/// The most seeks a page or `GET /api/seeks` is given: the newest.
pub const LISTED: usize = 500;

/// Quick pairing's controls: minutes + seconds a move, or days a move.
pub const POOL: [&str; 11] = [
    "1+0", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "1d", "3d",
];

/// A pool control's time control (`None`: not one of [`POOL`]).
pub fn pool_control(name: &str) -> Option<TimeControl> {
    if !POOL.contains(&name) {
        return None;
    }
    if let Some(days) = name.strip_suffix('d') {
        return Some(TimeControl::Correspondence {
            days: days.parse().ok()?,
        });
    }
    let (minutes, increment) = name.split_once('+')?;
    Some(TimeControl::RealTime {
        initial_s: minutes.parse::<u32>().ok()? * 60,
        increment_s: increment.parse().ok()?,
    })
}

/// What a lobby page hears.
#[derive(Debug)]
pub enum News {
    /// A new open seek.
    Added(Box<SeekRow>),
    /// Seek `id` is no longer open (taken, withdrawn or unseen).
    Gone(String),
    /// A seeker's game is made: told to the holder's pages only (the message's JSON).
    Game { holder: Holder, message: Arc<str> },
}

/// An open seek, as the lobby lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeekView {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    /// The seeker's side: `red`, `blue` or `random`.
    pub colour: String,
    pub rated: bool,
    /// A rated seek's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// The seeker's rating in the seek's category (rated or not), rounded; a browser's is
    /// the start's, 1500.
    pub rating: i64,
    /// Whether that rating is provisional (shown with "?").
    pub provisional: bool,
    /// The ratings the seek's taker may have, `[min, max]`.
    #[schema(required)]
    pub rating_range: Option<[i64; 2]>,
    /// The seeker's username (`null`: anonymous).
    #[schema(required)]
    pub name: Option<String>,
    /// When it was made (the server's time, in milliseconds).
    pub created_ms: i64,
    /// The asker's own seek.
    pub mine: bool,
}

/// The lobby of one instance.
pub struct Lobby {
    pub games: Arc<Games>,
    /// The open seeks this instance has heard of, by id.
    open: Mutex<BTreeMap<String, SeekRow>>,
    news: broadcast::Sender<Arc<News>>,
    /// The holders with a lobby page open here, and how many.
    watching: Mutex<HashMap<Holder, usize>>,
    /// Open seeks (and tickets) a holder may have.
    pub limit: i64,
}

/// A browser without an account.
fn anonymous(holder: &Holder) -> bool {
    matches!(holder, Holder::Browser(_))
}

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the lobby's database", e)
}

/// A seek's public view (`mine`: the asker's own).
pub fn view(row: &SeekRow, mine: bool) -> SeekView {
    let clock = row.clock;
    SeekView {
        id: row.id.clone(),
        variant: row.variant.clone(),
        clock,
        speed: clock.speed(),
        colour: row.colour.name().into(),
        rated: row.category.is_some(),
        category: row.category.clone(),
        rating: row.rating,
        provisional: row.provisional,
        rating_range: row.range,
        name: row.name.clone(),
        created_ms: row.created_ms,
        mine,
    }
}

/// A side as the rows keep it.
pub use crate::store::side_name;

/// The side a row's seeker plays: its colour, or one drawn.
pub(crate) fn side_of(colour: ColorChoice) -> Result<Color, GameError> {
    if let Some(side) = colour.side() {
        return Ok(side);
    }
    let coin = random_hex(1)?;
    Ok(if u8::from_str_radix(&coin, 16).unwrap_or(0) % 2 == 0 {
        Color::Red
    } else {
        Color::Blue
    })
}

impl Lobby {
    pub fn new(games: Arc<Games>) -> Lobby {
        Lobby {
            games,
            open: Mutex::default(),
            news: broadcast::channel(4096).0,
            watching: Mutex::default(),
            limit: LIMIT,
        }
    }

    /// The same lobby with another [`LIMIT`].
    pub fn with_limit(self, limit: i64) -> Lobby {
        Lobby { limit, ..self }
    }

    fn now(&self) -> i64 {
        self.games.time.now_ms()
    }

    /// The open seeks and quick pairing's tickets this instance knows of, counted.
    pub fn open_counts(&self) -> (usize, usize) {
        let open = self.lock_open();
        let tickets = open
            .values()
            .filter(|row| row.kind == SeekKind::Ticket)
            .count();
        (open.len() - tickets, tickets)
    }

    /// Reads the open seeks, then sweeps and pairs, until `stopping` turns true.
    pub fn start(self: &Arc<Self>, mut stopping: tokio::sync::watch::Receiver<bool>) {
        let lobby = self.clone();
        tokio::spawn(async move {
            lobby.reload().await;
            let mut sweep = tokio::time::interval(SWEEP_EVERY);
            let mut wave = tokio::time::interval(WAVE_EVERY);
            for interval in [&mut sweep, &mut wave] {
                interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            }
            loop {
                let done = tokio::select! {
                    _ = sweep.tick() => lobby.sweep().await,
                    _ = wave.tick() => lobby.pair().await,
                    _ = stopping.changed() => break,
                };
                if let Err(e) = done {
                    tracing::warn!(error = %e, "the lobby");
                }
            }
        });
    }

    /// Subscribes a page: the open seeks now (the [`LISTED`] newest first) and what it will
    /// hear after.
    /// `holder` (if any) is counted as watching until [`Lobby::leave`].
    pub fn watch(&self, holder: Option<&Holder>) -> (Vec<SeekRow>, broadcast::Receiver<Arc<News>>) {
        if let Some(holder) = holder {
            *self.lock_watching().entry(holder.clone()).or_default() += 1;
        }
        let open = self.lock_open();
        let receiver = self.news.subscribe();
        let mut seeks: Vec<&SeekRow> = open.values().collect();
        seeks.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id)));
        let newest = seeks.into_iter().take(LISTED).cloned().collect();
        (newest, receiver)
    }

    /// A page of `holder`'s closed.
    pub fn leave(&self, holder: Option<&Holder>) {
        if let Some(holder) = holder {
            let mut watching = self.lock_watching();
            if let Some(count) = watching.get_mut(holder) {
                *count -= 1;
                if *count == 0 {
                    watching.remove(holder);
                }
            }
        }
    }

    fn lock_open(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, SeekRow>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `game` started: the seekers with no lobby page open here are told by push.
    fn tell_away(&self, rows: &[(SeekRow, Color)], game: &str) {
        let watching = self.lock_watching();
        let away = rows
            .iter()
            .filter(|(r, _)| !watching.contains_key(&r.holder));
        let away: Vec<Holder> = away.map(|(r, _)| r.holder.clone()).collect();
        drop(watching);
        for holder in away {
            let game = game.to_string();
            self.games
                .notify(&holder, crate::push::Notice::GameStarted { game });
        }
    }

    fn lock_watching(&self) -> std::sync::MutexGuard<'_, HashMap<Holder, usize>> {
        self.watching.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, news: News) {
        let _ = self.news.send(Arc::new(news));
    }

    /// Row `id` changed here: the other instances are told, and this one's pages.
    async fn changed(&self, id: &str) {
        self.games.store.announce_lobby(id);
        self.heard(id).await;
    }

    /// Row `id` changed (here or on another instance): read again, and told to the pages.
    pub async fn heard(&self, id: &str) {
        let (games, key) = (self.games.clone(), id.to_string());
        let row = games.store.seek(&key).await.map_err(storage);
        match row {
            Ok(row) => self.apply(id, row),
            Err(e) => tracing::warn!(seek = %id, error = %e, "reading a seek"),
        }
    }

    /// Reads every open seek again (the notices may have been missed), telling the pages
    /// what changed.
    pub async fn reload(&self) {
        let rows = self.games.store.open_seeks(SeekKind::Seek, MOST).await;
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) => return tracing::warn!(error = %e, "reading the lobby"),
        };
        let known: Vec<String> = self.lock_open().keys().cloned().collect();
        let now: HashMap<String, SeekRow> = rows.into_iter().map(|r| (r.id.clone(), r)).collect();
        for id in known.iter().filter(|id| !now.contains_key(*id)) {
            self.apply(id, None);
        }
        for (id, row) in now {
            self.apply(&id, Some(row));
        }
    }

    /// Row `id` as it now stands, told to this instance's pages if it changed for them.
    fn apply(&self, id: &str, row: Option<SeekRow>) {
        let open_now = row
            .as_ref()
            .filter(|r| r.state == SeekState::Open && r.kind == SeekKind::Seek);
        let was_open = {
            let mut open = self.lock_open();
            let was = open.remove(id).is_some();
            if let Some(row) = open_now {
                open.insert(id.to_string(), row.clone());
            }
            was
        };
        match (was_open, open_now) {
            (false, Some(row)) => self.publish(News::Added(Box::new(row.clone()))),
            (true, None) => self.publish(News::Gone(id.to_string())),
            _ => {}
        }
        if let Some(row) = row.filter(|r| r.state == SeekState::Made) {
            let message = serde_json::json!({
                "type": "game",
                "kind": row.kind.name(),
                "seek": (row.kind == SeekKind::Seek).then_some(&row.id),
                "game": row.game,
                "side": row.side.map(side_name),
                "watch_page": row.game.as_ref().map(|g| format!("/#/game/{g}")),
            });
            self.publish(News::Game {
                holder: row.holder,
                message: message.to_string().into(),
            });
        }
    }

    /// Says which holders have pages open here, then applies the lifetimes.
    async fn sweep(&self) -> Result<(), GameError> {
        let holders: Vec<Holder> = self.lock_watching().keys().cloned().collect();
        let (store, now) = (&self.games.store, self.now());
        if !holders.is_empty() {
            store.touch(&holders, now).await.map_err(storage)?;
        }
        let changed = store.sweep(now, LIFETIMES).await.map_err(storage)?;
        for id in changed {
            self.changed(&id).await;
        }
        Ok(())
    }

    /// A holder's rating in `category` as the lobby shows it, rounded, and whether it is
    /// provisional: a browser's and a new player's are the start's.
    pub async fn rating_of(
        &self,
        holder: &Holder,
        category: Option<&'static str>,
    ) -> Result<(i64, bool), GameError> {
        let (Some(user), Some(category)) = (holder.account(), category) else {
            return Ok((START.rating.round() as i64, true));
        };
        let entry = self
            .games
            .store
            .rating_entry(user, category)
            .await
            .map_err(|e| GameError::storage("the ratings' database", e))?;
        let rating = Entry::before(entry, self.now());
        Ok((rating.rating.round() as i64, rating.provisional()))
    }

    /// Adds a seek (or a ticket) of `holder`'s, from address `ip`: its secret. A rated one
    /// needs an account and a rated category.
    pub async fn add(
        &self,
        kind: SeekKind,
        holder: Holder,
        ip: IpAddr,
        wanted: Wanted,
    ) -> Result<(SeekRow, String), LobbyError> {
        let Wanted {
            variant,
            clock,
            colour,
            rated,
            range,
        } = wanted;
        let rules = games::parse_rules(&variant)?;
        let category = ratings::category(&rules, Some(clock));
        if rated && anonymous(&holder) {
            return Err(LobbyError::AccountOnly { taking: false });
        }
        if rated && category.is_none() {
            return Err(LobbyError::NotRated { variant });
        }
        let (rating, provisional) = self.rating_of(&holder, category).await?;
        let token = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
        let id = match kind {
            SeekKind::Seek => random_hex(8)?,
            SeekKind::Ticket => secret_hash(&token),
        };
        let now = self.now();
        let row = SeekRow {
            id,
            kind,
            token_hash: secret_hash(&token),
            holder,
            ip,
            variant,
            clock,
            colour,
            rating,
            created_ms: now,
            seen_ms: now,
            state: SeekState::Open,
            changed_ms: now,
            game: None,
            side: None,
            name: None,
            category: category.filter(|_| rated).map(str::to_string),
            provisional,
            range,
        };
        let (games, stored, limit) = (self.games.clone(), row.clone(), self.limit);
        let added = games
            .store
            .insert_seek(&stored, limit)
            .await
            .map_err(storage)?;
        if !added {
            return Err(LobbyError::TooMany {
                kind,
                anonymous: anonymous(&row.holder),
                limit,
            });
        }
        // The holder's page, if open, keeps it seen from now on.
        self.changed(&row.id).await;
        let row = self.read(&row.id).await?.unwrap_or(row);
        Ok((row, token))
    }

    /// Row `id`, if there is one.
    pub async fn read(&self, id: &str) -> Result<Option<SeekRow>, GameError> {
        let (games, id) = (self.games.clone(), id.to_string());
        games.store.seek(&id).await.map_err(storage)
    }

    /// A poll of an open row of its holder's: it is still wanted.
    pub async fn seen(&self, id: &str) -> Result<(), GameError> {
        let (games, id, now) = (self.games.clone(), id.to_string(), self.now());
        games.store.seen(&id, now).await.map_err(storage)
    }

    /// Withdraws an open row: `false` if it was not open.
    pub async fn withdraw(&self, id: &str) -> Result<bool, GameError> {
        let (games, key, now) = (self.games.clone(), id.to_string(), self.now());
        let withdrawn = games.store.withdraw(&key, now).await.map_err(storage)?;
        if withdrawn {
            self.changed(id).await;
        }
        Ok(withdrawn)
    }

    /// Takes seek `id` for `taker`: the game made, the taker's side.
    pub async fn take(&self, id: &str, taker: &Holder) -> Result<(Started, Color), LobbyError> {
        let row = self
            .read(id)
            .await?
            .filter(|r| r.kind == SeekKind::Seek)
            .ok_or_else(|| LobbyError::NoSeek(id.to_string()))?;
        match row.state {
            SeekState::Open => {}
            SeekState::Gone => return Err(LobbyError::SeekGone),
            SeekState::Claimed | SeekState::Made => return Err(LobbyError::TakenFirst),
        }
        if row.holder == *taker {
            return Err(LobbyError::OwnSeek);
        }
        if row.category.is_some() && anonymous(taker) {
            return Err(LobbyError::AccountOnly { taking: true });
        }
        if let Some([min, max]) = row.range {
            let category = self.category_of(&row)?;
            let (rating, _) = self.rating_of(taker, category).await?;
            if !(min..=max).contains(&rating) {
                return Err(LobbyError::OutOfRange { min, max, rating });
            }
        }
        if row.category.is_some() {
            crate::fairplay::check_pair(&self.games, &row.holder, taker).await?;
        }
        let side = side_of(row.colour)?;
        let claimed = [(row, side)];
        match self.make(&claimed, Some(taker)).await? {
            Some(started) => Ok((started, !side)),
            // Someone was first: taken, or gone meanwhile.
            None => match self.read(id).await?.map(|r| r.state) {
                Some(SeekState::Gone) | None => Err(LobbyError::SeekGone),
                _ => Err(LobbyError::TakenFirst),
            },
        }
    }

    /// Claims `rows` (each with its seeker's side) for one new game, the other side, if one
    /// is left, `taker`'s; makes it; tells everyone. `None` if a row was claimed first.
    async fn make(
        &self,
        rows: &[(SeekRow, Color)],
        taker: Option<&Holder>,
    ) -> Result<Option<Started>, LobbyError> {
        let game_id = random_hex(8)?;
        let claims: Vec<(String, Color)> =
            rows.iter().map(|(r, side)| (r.id.clone(), *side)).collect();
        let (games, now) = (self.games.clone(), self.now());
        let (ids, id) = (claims.clone(), game_id.clone());
        let won = games
            .store
            .claim_seeks(&ids, &id, now)
            .await
            .map_err(storage)?;
        if !won {
            return Ok(None);
        }
        let mut holders = [None, None];
        let mut lobby_tokens = [None, None];
        for (row, side) in rows.iter() {
            holders[*side as usize] = Some(row.holder.clone());
            lobby_tokens[*side as usize] = Some(lobby_seat_hash(&row.token_hash));
        }
        for holder in holders.iter_mut().filter(|h| h.is_none()) {
            *holder = taker.cloned();
        }
        let first = &rows[0].0;
        let rules = games::parse_rules(&first.variant)?;
        let clock = first.clock;
        let category = first
            .category
            .as_ref()
            .and_then(|_| ratings::category(&rules, Some(clock)));
        let new = paired_game(game_id.clone(), rules, clock, holders, category);
        let new = NewGame {
            lobby_tokens,
            ..new
        };
        let games = self.games.clone();
        let made = games.create(new).await;
        let state = if made.is_ok() {
            SeekState::Made
        } else {
            SeekState::Open
        };
        let now = self.now();
        let settled: Vec<String> = claims.into_iter().map(|(id, _)| id).collect();
        for id in &settled {
            self.games
                .store
                .settle(id, state, now)
                .await
                .map_err(storage)?;
        }
        for id in &settled {
            self.changed(id).await;
        }
        if state == SeekState::Made {
            self.tell_away(rows, &game_id);
        }
        Ok(Some(made?))
    }

    /// A seek's category as the lobby rates it: its own if rated, else its variant's at
    /// its speed (for the range a casual seek asks of its taker).
    fn category_of(&self, row: &SeekRow) -> Result<Option<&'static str>, GameError> {
        let rules = games::parse_rules(&row.variant)?;
        Ok(ratings::category(&rules, Some(row.clock)))
    }

    /// One wave of quick pairing: the tickets waiting for each control (rated and casual
    /// apart), paired nearest ratings first within the range each has waited for
    /// ([`pairs`]).
    async fn pair(&self) -> Result<(), GameError> {
        let waiting = self
            .games
            .store
            .open_seeks(SeekKind::Ticket, MOST)
            .await
            .map_err(storage)?;
        let mut pools: BTreeMap<(TimeControl, Option<String>), Vec<SeekRow>> = BTreeMap::new();
        for row in waiting {
            let key = (row.clock, row.category.clone());
            pools.entry(key).or_default().push(row);
        }
        let now = self.now();
        for ((_, category), pool) in pools {
            // Rated: never two accounts of one browser (`fairplay.rs`).
            let holders: Vec<Holder> = pool.iter().map(|r| r.holder.clone()).collect();
            let apart = match category {
                Some(_) => crate::fairplay::unpairable_at(&self.games.store, &holders, now).await?,
                None => Default::default(),
            };
            let waiting: Vec<Waiting> = pool
                .iter()
                .map(|r| Waiting {
                    holder: &r.holder,
                    rating: r.rating,
                    since_ms: r.created_ms,
                })
                .collect();
            for (a, b) in pairs(&waiting, now, &apart) {
                let side = side_of(ColorChoice::Random)?;
                let pair = [(pool[a].clone(), side), (pool[b].clone(), !side)];
                if let Err(e) = self.make(&pair, None).await {
                    tracing::warn!(error = %e, "pairing two players");
                }
            }
        }
        Ok(())
    }
}

/// A game between two people as the lobby and the arenas make them: game `id`, both seats
/// held (`holders`, by side), `clock`, a draw on the third repetition, rated in `category`
/// (`None`: casual).
pub fn paired_game(
    id: String,
    rules: lgame::Rules,
    clock: TimeControl,
    holders: [Option<Holder>; 2],
    category: Option<&'static str>,
) -> NewGame {
    let draw = DrawRules {
        repetition: Some(3),
        turn_limit: None,
    }
    .normalized();
    NewGame {
        holders,
        clock: Some(clock),
        id: Some(id),
        category,
        ..NewGame::new(
            lgame::Game::new(rules).with_draw_rules(draw),
            [Seat::Human, Seat::Human],
        )
    }
}

/// What a seek or a ticket asks for.
pub struct Wanted {
    /// The variant's catalog name.
    pub variant: String,
    pub clock: TimeControl,
    /// The seeker's side, as asked.
    pub colour: ColorChoice,
    pub rated: bool,
    /// The ratings a seek's taker may have.
    pub range: Option<[i64; 2]>,
}

/// The rating gap a ticket accepts at once, and how much wider it grows each second it
/// waits: after 20 s, ±600.
pub const RANGE_AT_ONCE: i64 = 100;
pub const RANGE_PER_SECOND: i64 = 25;

/// A ticket as pairing sees it.
pub struct Waiting<'a> {
    pub holder: &'a Holder,
    pub rating: i64,
    /// When it began to wait (the server's time, in milliseconds).
    pub since_ms: i64,
}

/// The gap a ticket waiting since `since_ms` accepts at `now_ms`.
pub fn range_after(since_ms: i64, now_ms: i64) -> i64 {
    RANGE_AT_ONCE + RANGE_PER_SECOND * ((now_ms - since_ms).max(0) / 1000)
}

/// Quick pairing's pairs among the tickets of one pool (their indexes): the two nearest
/// ratings first, then the next nearest of those left, and so on (on a tie, the one who
/// waited longest first), never a holder with itself nor two kept `apart` (`(i, j)`, `i <
/// j`: `fairplay::unpairable_at`), and a pair only if its gap is within the range of the one
/// of the two who has waited longer.
pub fn pairs(
    waiting: &[Waiting<'_>],
    now_ms: i64,
    apart: &BTreeSet<(usize, usize)>,
) -> Vec<(usize, usize)> {
    let mut candidates = Vec::new();
    for (i, a) in waiting.iter().enumerate() {
        for (j, b) in waiting.iter().enumerate().skip(i + 1) {
            let gap = (a.rating - b.rating).abs();
            let range = range_after(a.since_ms.min(b.since_ms), now_ms);
            if a.holder != b.holder && gap <= range && !apart.contains(&(i, j)) {
                candidates.push((gap, a.since_ms.min(b.since_ms), i, j));
            }
        }
    }
    candidates.sort_unstable();
    let mut taken = vec![false; waiting.len()];
    let mut chosen = Vec::new();
    for (_, _, i, j) in candidates {
        if !taken[i] && !taken[j] {
            taken[i] = true;
            taken[j] = true;
            chosen.push((i, j));
        }
    }
    chosen
}

#[cfg(test)]
mod tests;
