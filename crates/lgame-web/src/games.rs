//! Games in play: loaded from the database, held in memory behind a per-game lock, changed
//! only through the rules library and stored before anyone is told.
//!
//! Every change to a game goes through one entry point, [`Games::run`]: the HTTP API, the
//! computers' games (`autoplay.rs`) and the other instances' news (`peers.rs`) all give it
//! a [`Command`]. What a command may do in which state is `machine.rs`; the game in memory
//! and the draft a command is decided on is `live.rs`; how a game is created or loaded
//! into memory is `load.rs`; the concurrency ritual (the game's
//! lock, a blocking thread or not, decide, store, then swap in and tell; the second try on
//! the database's copy, a panic's game forgotten) is written here, once. Nothing here speaks HTTP: a refusal is a
//! [`GameError`], which the API answers with its status (`error.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lgame::{Color, Game, Rules};
use lgame_players::seated::Seat;
use lgame_players::Tablebases;
use tokio::sync::OwnedMutexGuard;

use crate::clock::{TimeControl, TimeSource};
use crate::push::{Notice, Push};
use crate::store::{Holder, Requests, Store, StoreError};

pub(crate) mod api;
mod live;
mod load;
mod machine;
mod presence;
mod refusal;
mod rematch;
mod seats;
pub(crate) mod view;

pub use live::{player_at, Live};
pub use machine::{Command, Who};
pub use presence::RETELL as PRESENCE_RETELL;
pub use refusal::{Conflict, GameError, Input};
pub use seats::SeatBy;
pub use view::{GameMessage, GameState, Player, PlayersBySide};

use machine::Decision;

/// The server's ply cap by default (`--max-plies`).
pub const DEFAULT_MAX_PLIES: u32 = 1000;

const COLORS: [Color; 2] = [Color::Red, Color::Blue];

/// One game in memory, behind its lock.
pub type Slot = tokio::sync::Mutex<Live>;

/// A game's lock, held across a change.
type Guard = OwnedMutexGuard<Live>;

/// The games: every request, computer and notice reaches them through [`Games::run`].
pub struct Games {
    pub store: Store,
    pub tablebases: Arc<Tablebases>,
    /// Games in memory, by id: loaded on first access, dropped (when no one holds them)
    /// beyond `cache_cap`.
    cache: Mutex<HashMap<String, Arc<Slot>>>,
    cache_cap: usize,
    /// The largest table (in positions) the server solves for a computer player or an
    /// analysis.
    pub max_table_states: u64,
    /// The most plies a game may have: every game's turn limit is at most this.
    pub max_plies: u32,
    /// A game between two computers plays a ply each this long ([`crate::autoplay`])...
    pub computer_delay: std::time::Duration,
    /// ... until this says the server stops.
    pub stopping: tokio::sync::watch::Receiver<bool>,
    /// The server's time, which every clock reads (`clock.rs`).
    pub time: Arc<TimeSource>,
    /// Web Push: what a player is told on their browsers while their page is closed.
    pub push: Arc<Push>,
}

/// A new game as the client describes it.
pub struct NewGame {
    pub game: Game,
    pub seats: [Seat; 2],
    /// Who holds each seat from the start (`store/accounts.rs`): the creator's sides.
    pub holders: [Option<Holder>; 2],
    /// A side to invite someone to (a friend's seat): a one-time invitation is made.
    pub invite: Option<Color>,
    /// Its time control, if it has one.
    pub clock: Option<TimeControl>,
    /// Its id, if chosen before it is made (a game of the lobby's, claimed by that id).
    pub id: Option<String>,
    /// The seats played with a secret of the lobby's instead of a new token: its stored
    /// form (`secret::lobby_token_hash`).
    pub lobby_tokens: [Option<String>; 2],
    /// The rating category of a rated game (`ratings::category`); `None`: casual.
    pub category: Option<&'static str>,
    /// The arena that paired it (its `arena_games` row is stored first).
    pub arena: Option<String>,
}

impl NewGame {
    /// A game nobody holds a seat of (its tokens are the only way to play it).
    pub fn new(game: Game, seats: [Seat; 2]) -> NewGame {
        NewGame {
            game,
            seats,
            holders: [None, None],
            invite: None,
            clock: None,
            id: None,
            lobby_tokens: [None, None],
            category: None,
            arena: None,
        }
    }
}

/// A game just created: its state, the secrets of its human sides, and the invitation to
/// a seat (its side and secret), shown once.
pub struct Started {
    pub id: String,
    pub tokens: [Option<String>; 2],
    pub state: GameState,
    pub invitation: Option<(Color, String)>,
}

/// What a command answers.
pub enum Outcome {
    /// The game's state after it.
    State(GameState),
    /// A new game (a rematch), with the asking side's token.
    Started(Started),
}

/// Game ids: 16 hex digits.
pub fn valid_id(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Reads a seat through the players library, as `lgame play` and `lgame match` read a
/// player; a command line is refused: the server never runs a program a client names.
pub fn parse_seat(side: &str, text: &str) -> Result<Seat, GameError> {
    let seat = text
        .parse()
        .map_err(|e| GameError::unreadable(Input::Player, text, format!("{side} '{text}': {e}")))?;
    match seat {
        Seat::Engine(_) => Err(GameError::unreadable(
            Input::Player,
            text,
            format!(
                "{side} '{text}': the server plays human or a built-in level (random, beginner, \
             intermediate, perfect, with an optional strength such as beginner:40); it runs \
             no program"
            ),
        )),
        seat => Ok(seat),
    }
}

/// Reads the rules through the library.
pub fn parse_rules(text: &str) -> Result<Rules, GameError> {
    text.parse()
        .map_err(|e| GameError::unreadable(Input::Variant, text, format!("variant '{text}': {e}")))
}

/// The rules with a starting setup: a setup name or a position (read by the library).
pub fn with_setup(rules: &Rules, text: &str) -> Result<Rules, GameError> {
    rules
        .with_setup_text(text)
        .map_err(|e| GameError::unreadable(Input::Setup, text, format!("setup '{text}': {e}")))
}

impl Games {
    pub fn new(store: Store, cache_cap: usize, max_table_states: u64) -> Games {
        Games {
            store,
            tablebases: Arc::new(Tablebases::default()),
            cache: Mutex::new(HashMap::new()),
            cache_cap: cache_cap.max(1),
            max_table_states,
            max_plies: DEFAULT_MAX_PLIES,
            computer_delay: std::time::Duration::from_secs(1),
            stopping: tokio::sync::watch::channel(false).1,
            time: Arc::new(TimeSource::system()),
            push: Arc::new(Push::unkept()),
        }
    }

    /// The same, telling players through `push`.
    pub fn with_push(self, push: Arc<Push>) -> Games {
        Games { push, ..self }
    }

    /// Tells `holder` of `notice` on the browsers its account subscribed to pushes, in the
    /// background: the one hook of the games, the lobby and the bots for a player away
    /// from their page (a browser's identity without an account is never told).
    pub fn notify(self: &Arc<Self>, holder: &Holder, notice: Notice) {
        let Holder::Account(user_id) = *holder else {
            return;
        };
        let games = self.clone();
        tokio::spawn(async move {
            let push = games.push.clone();
            push.deliver(&games.store, user_id, &notice).await;
        });
    }

    /// The same, its clocks reading `time`.
    pub fn with_time(self, time: Arc<TimeSource>) -> Games {
        Games { time, ..self }
    }

    /// The same server playing games between computers a ply each `delay` until `stopping`
    /// turns true.
    pub fn with_autoplay(
        mut self,
        delay: std::time::Duration,
        stopping: tokio::sync::watch::Receiver<bool>,
    ) -> Games {
        self.computer_delay = delay;
        self.stopping = stopping;
        self
    }

    /// The same server with another ply cap (at least 1).
    pub fn with_max_plies(mut self, max_plies: u32) -> Games {
        self.max_plies = max_plies.max(1);
        self
    }

    /// The same, its tables kept in `tablebases` (with their budget and pool of solvers).
    pub fn with_tablebases(self, tablebases: Arc<Tablebases>) -> Games {
        Games { tablebases, ..self }
    }

    /// The game with its turn limit within the ply cap: no limit becomes the cap; a longer
    /// limit, or more plies than the cap already played (an import), is refused.
    pub fn within_cap(&self, game: Game) -> Result<Game, GameError> {
        let cap = self.max_plies;
        let plies = game.plies().len();
        if plies > cap as usize {
            return Err(GameError::invalid(
                Input::GameLength,
                format!("the game has {plies} plies; this server plays games of at most {cap}"),
            ));
        }
        let mut draw = game.draw_rules();
        match draw.turn_limit {
            Some(limit) if limit > cap => {
                return Err(GameError::invalid(
                    Input::TurnLimit,
                    format!("turn limit {limit}: this server plays games of at most {cap} plies"),
                ))
            }
            Some(_) => {}
            None => draw.turn_limit = Some(cap),
        }
        Ok(game.with_draw_rules(draw))
    }

    /// The tables that score a finished game under `rules`: the server's, if it solves them.
    fn analyst(&self, rules: &Rules) -> Option<Arc<Tablebases>> {
        self.check_table(rules)
            .ok()
            .map(|_| self.tablebases.clone())
    }

    /// Refuses a variant whose table is larger than the server solves, or than its tables'
    /// memory budget.
    pub fn check_table(&self, rules: &Rules) -> Result<(), GameError> {
        let index = lgame_solver::StateIndex::new(rules);
        let states = index.len();
        if states > self.max_table_states {
            return Err(GameError::TooLarge(format!(
                "'{rules}' has {states} positions; this server solves tables of at most {}",
                self.max_table_states
            )));
        }
        if let Some(budget) = self.tablebases.budget() {
            let bytes = index.table_bytes();
            if bytes > budget {
                return Err(GameError::TooLarge(format!(
                    "the table of '{rules}' takes {bytes} bytes; this server keeps tables in \
                     {budget} bytes"
                )));
            }
        }
        Ok(())
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game in memory, if it is loaded.
    pub fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        self.cache().get(id).cloned()
    }

    /// Forgets a game in memory (after a failure left it unsure); the database has it.
    pub fn forget(&self, id: &str) {
        self.cache().remove(id);
    }

    /// Puts a game in memory, unless it is there already (then that one is kept, and the
    /// answer says so: `false`), dropping games no one holds when the cache is full.
    fn insert(&self, live: Live) -> (Arc<Slot>, bool) {
        let mut cache = self.cache();
        if let Some(slot) = cache.get(&live.id) {
            return (slot.clone(), false);
        }
        if cache.len() >= self.cache_cap {
            let target = self.cache_cap - self.cache_cap / 10 - 1;
            let idle: Vec<String> = cache
                .iter()
                .filter(|(_, s)| Arc::strong_count(s) == 1)
                .map(|(id, _)| id.clone())
                .take(cache.len().saturating_sub(target))
                .collect();
            for id in idle {
                cache.remove(&id);
            }
        }
        let id = live.id.clone();
        let slot = Arc::new(tokio::sync::Mutex::new(live));
        cache.insert(id, slot.clone());
        (slot, true)
    }

    /// Whether `slot` is the game's copy in memory (not one forgotten since).
    pub fn holds(&self, id: &str, slot: &Arc<Slot>) -> bool {
        self.cached(id)
            .is_some_and(|cached| Arc::ptr_eq(&cached, slot))
    }

    /// The ids of every game in memory.
    pub fn cached_ids(&self) -> Vec<String> {
        self.cache().keys().cloned().collect()
    }

    /// How many games are in memory.
    pub fn cached_games(&self) -> usize {
        self.cache().len()
    }

    /// Replaces a game in memory by the database's copy and tells its watchers what
    /// changed.
    async fn refresh(&self, live: &mut Live) -> Result<(), GameError> {
        // Boxed, as in `slot`: see `run_locked`.
        let fresh = Box::pin(self.load(&live.id))
            .await?
            .ok_or_else(|| GameError::NoGame(live.id.clone()))?;
        live.replace(fresh);
        Ok(())
    }

    /// Brings a game in memory up to the database's copy if another instance changed it
    /// (a database several instances share: see [`crate::store::Backend::shared`]).
    async fn catch_up(&self, live: &mut Live) -> Result<(), GameError> {
        match self.store.version_of(&live.id).await {
            Ok(version) if version == live.version() => Ok(()),
            Ok(_) => self.refresh(live).await,
            Err(StoreError::NotFound) => Err(GameError::NoGame(live.id.clone())),
            Err(e) => Err(GameError::storage("reading the game", e)),
        }
    }

    /// The game, loaded from the database if it is not in memory (a game between two
    /// computers then goes on). Not checked against the database: see [`Games::run`] and
    /// [`Games::read`].
    async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, GameError> {
        if !valid_id(id) {
            return Err(GameError::NoGame(id.to_string()));
        }
        if let Some(slot) = self.cached(id) {
            return Ok(slot);
        }
        // Boxed: a load's future is large (the game read and replayed), and the future of
        // every command that may load would otherwise carry its room (see `run_locked`).
        let live = Box::pin(self.load(id))
            .await?
            .ok_or_else(|| GameError::NoGame(id.to_string()))?;
        let resume = live.plays_itself();
        let (slot, inserted) = self.insert(live);
        // Loaded twice at once: the copy kept plays on, the other is dropped.
        if resume && inserted {
            crate::autoplay::start(self.clone(), id.to_string(), slot.clone());
        }
        Ok(slot)
    }

    /// Tells the watchers of every timed game in memory its clocks anew (after the server's
    /// time moved: a test's `POST /api/test/clock`).
    pub async fn retell_clocks(&self) {
        let slots: Vec<Arc<Slot>> = self.cache().values().cloned().collect();
        for slot in slots {
            let mut live = slot.lock().await;
            if live.clock.is_some() {
                live.tell();
            }
        }
    }

    /// Starts playing a new game out if both its sides are computers.
    pub async fn play_if_computers(self: &Arc<Self>, id: &str) {
        if let Some(slot) = self.cached(id) {
            if slot.lock().await.plays_itself() {
                crate::autoplay::start(self.clone(), id.to_string(), slot.clone());
            }
        }
    }

    /// Reads a game as it stands — on a database other instances share, first brought up
    /// to the database's copy — and the seats `who` plays (a token must play one; a holder
    /// or the server may play none). Returns the game's slot too, for a watcher.
    pub async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        who: &Who,
        read: impl FnOnce(&Live, Vec<Color>) -> T + Send + 'static,
    ) -> Result<(Arc<Slot>, T), GameError> {
        let slot = self.slot(id).await?;
        let mut live = slot.clone().lock_owned().await;
        if self.store.shared() {
            self.catch_up(&mut live).await?;
        }
        let sides = live.sides_of(who);
        if matches!(who, Who::Token(_)) && sides.is_empty() {
            return Err(GameError::NotASide);
        }
        let answer = read(&live, sides);
        Ok((slot, answer))
    }

    /// Runs a command on a game: the one way a game changes. In one task of its own, so
    /// that a change runs to its end (stored and told, or refused) even if the client goes
    /// away; under the game's lock, so that a game has one change in flight and its changes
    /// are stored in order and seen by nobody before they are stored. A command is decided
    /// on a draft of the copy in memory (on a blocking thread if it may take long); on a database
    /// other instances share, a refusal or an answer that stored nothing is decided again
    /// on the database's copy, and so is a change the database refused as made on a stale
    /// copy. Should a command panic, the game is dropped from memory and reloaded from the
    /// database next time.
    pub async fn run(
        self: &Arc<Self>,
        id: &str,
        who: Who,
        command: Command,
    ) -> Result<Outcome, GameError> {
        let slot = self.slot(id).await?;
        self.run_on(id, slot, who, command).await
    }

    /// [`Games::run`] on a copy of the game its caller holds: a WebSocket's presence goes to
    /// the copy it watches, a computers' game plays on its own copy.
    pub async fn run_on(
        self: &Arc<Self>,
        id: &str,
        slot: Arc<Slot>,
        who: Who,
        command: Command,
    ) -> Result<Outcome, GameError> {
        let run = move |games: Arc<Games>, live| async move {
            games.run_locked(live, who, command).await
        };
        self.locked(id, slot, run).await
    }

    /// Runs `work` on game `id`'s copy `slot`, its lock held, in a task of its own: so that
    /// it runs to its end (stored, then in memory and told) even if its caller goes away.
    /// Should it panic, the game is forgotten (its copy in memory may be half changed).
    async fn locked<T, Work>(
        self: &Arc<Self>,
        id: &str,
        slot: Arc<Slot>,
        work: impl FnOnce(Arc<Games>, Guard) -> Work + Send + 'static,
    ) -> Result<T, GameError>
    where
        T: Send + 'static,
        Work: std::future::Future<Output = Result<T, GameError>> + Send + 'static,
    {
        let games = self.clone();
        let task = tokio::spawn(async move {
            let live = slot.lock_owned().await;
            work(games, live).await
        });
        match task.await {
            Ok(outcome) => outcome,
            Err(e) => {
                self.forget(id);
                Err(GameError::internal("the request failed", e))
            }
        }
    }

    async fn run_locked(
        self: &Arc<Self>,
        mut live: Guard,
        who: Who,
        command: Command,
    ) -> Result<Outcome, GameError> {
        // A future holds room for its largest await, and a command's task is moved whole at
        // its spawn: the rare large ones (a rematch creates a game, a refresh loads one) are
        // boxed, so that a move's task is 2 KB, not 11 KB copied on every command.
        match command {
            Command::Rematch => return Box::pin(self.run_rematch(live, &who)).await,
            Command::CatchUp { version } => {
                if version.is_none_or(|version| live.version() < version) {
                    self.catch_up(&mut live).await?;
                }
                return Ok(Outcome::State(live.state()));
            }
            _ => {}
        }
        // A side's command on a game whose clock is past due: the flag (or abort) first,
        // which the command then meets.
        if command.by_a_side() && live.due().is_some() {
            live = self.attempt(live, &Who::Server, &Command::Flag).await?.0;
        }
        let (mut live, first) = self.attempt(live, &who, &command).await?;
        if first.trusted || !self.store.shared() {
            return first.result.map(|o| seen(o, &live, &who));
        }
        // A change the database refused as stale: the copy is known to be behind, so it is
        // reloaded without first reading the version again.
        match first.result {
            Err(GameError::Outdated) => self.refresh(&mut live).await?,
            _ => self.catch_up(&mut live).await?,
        }
        let (live, second) = self.attempt(live, &who, &command).await?;
        second.result.map(|o| seen(o, &live, &who))
    }

    /// Decides the command on the game's draft, stores the change it makes and only then
    /// swaps it in and tells the watchers: a change the database refuses never reaches the
    /// game.
    async fn attempt(
        self: &Arc<Self>,
        mut live: Guard,
        who: &Who,
        command: &Command,
    ) -> Result<(Guard, Attempt), GameError> {
        // A computer's reply may search or solve a table: CPU work of its own, on a
        // blocking thread so that it holds no async thread (the lock held all the same).
        let decided = if command.may_block(&live, &self.tablebases) {
            let (tables, who, command) = (self.tablebases.clone(), who.clone(), command.clone());
            let (back, decided) = self
                .on_blocking(live, move |l| Ok(decide(l, &who, &command, &tables)))
                .await?;
            live = back;
            decided
        } else {
            decide(&mut live, who, command, &self.tablebases)
        };
        let attempt = match decided {
            Err(e) => Attempt::unsure(Err(e)),
            Ok(Decision::Answer) => Attempt::unsure(Ok(Outcome::State(live.state()))),
            Ok(Decision::Told) => {
                self.tell_presence(&live, command);
                Attempt::trusted(Ok(Outcome::State(live.state())))
            }
            Ok(Decision::Store(change)) => {
                let edit = live.edit(&change);
                let rated_end =
                    edit.outcome != lgame::game::ResultToken::Unfinished && live.category.is_some();
                // Awaited with the game's lock held and no thread taken while it syncs.
                match self.store.queue(edit).outcome().await {
                    Err(e) => {
                        let stale = matches!(e, StoreError::Stale);
                        let refused = Err(GameError::storage(change.storing(), e));
                        match stale {
                            true => Attempt::unsure(refused),
                            false => Attempt::trusted(refused),
                        }
                    }
                    Ok(()) => {
                        if rated_end {
                            // The end changed both ratings in the same transaction: shown
                            // with it.
                            let category = live.category.as_deref();
                            match self.ratings_of(&live.id, category, &live.holders).await {
                                Ok(ratings) => live.ratings = ratings,
                                Err(e) => {
                                    tracing::warn!(error = %e, "reading a rated game's ratings")
                                }
                            }
                        }
                        let plies = live.game.plies().len();
                        let state = live.commit(&change);
                        if let Some(account) = live.correspondence_turn() {
                            let moved = live.game.plies().len() > plies;
                            crate::notify::your_move(self, &live.id, account, moved);
                        }
                        Attempt::trusted(Ok(Outcome::State(state)))
                    }
                }
            }
        };
        Ok((live, attempt))
    }

    /// Tells the other instances of the pages open here when a command changed them.
    fn tell_presence(&self, live: &Live, command: &Command) {
        let here = live.present.here();
        let changed = matches!(command, Command::Present | Command::Absent);
        if changed || (*command == Command::RetellPresence && here != [0, 0]) {
            self.store.announce_presence(&live.id, here);
        }
    }

    /// Runs CPU-bound `work` on the game on a blocking thread, the lock held; should it
    /// panic, the game is forgotten (its copy in memory may be half changed).
    async fn on_blocking<T: Send + 'static>(
        &self,
        mut live: Guard,
        work: impl FnOnce(&mut Live) -> Result<T, GameError> + Send + 'static,
    ) -> Result<(Guard, T), GameError> {
        let id = live.id.clone();
        match tokio::task::spawn_blocking(move || {
            let done = work(&mut live);
            (live, done)
        })
        .await
        {
            Ok((live, done)) => Ok((live, done?)),
            Err(e) => {
                self.forget(&id);
                Err(GameError::internal("the request failed", e))
            }
        }
    }
}

/// A command decided and stored, or refused: whether its answer stands whatever other
/// instances did (a change the database stored, who is here), or may have been made on a
/// stale copy.
struct Attempt {
    result: Result<Outcome, GameError>,
    trusted: bool,
}

impl Attempt {
    fn trusted(result: Result<Outcome, GameError>) -> Attempt {
        Attempt {
            result,
            trusted: true,
        }
    }

    fn unsure(result: Result<Outcome, GameError>) -> Attempt {
        Attempt {
            result,
            trusted: false,
        }
    }
}

/// A command's answer as its giver sees it: a person playing by their seat (no token) is
/// told the seats they play; a token's answer is everyone's state, as a spectator's.
fn seen(outcome: Outcome, live: &Live, who: &Who) -> Outcome {
    match outcome {
        Outcome::State(mut state) if matches!(who, Who::Holder { .. }) => {
            live.show_sides(&mut state, who);
            Outcome::State(state)
        }
        started => started,
    }
}

/// The side a command is given for: a token's, or one of the seats a holder holds (the
/// one named, else the only one, else the one the command concerns: the side to move,
/// or the side asked to take back a move); the server's commands have none.
fn side_for(live: &Live, who: &Who, command: &Command) -> Result<Option<Color>, GameError> {
    let held = live.sides_of(who);
    let side = match (who, &held[..]) {
        (Who::Server, _) => return Ok(None),
        (_, []) => return Err(GameError::NotASide),
        (
            Who::Holder {
                side: Some(side), ..
            },
            _,
        ) => {
            if !held.contains(side) {
                return Err(GameError::NotASide);
            }
            *side
        }
        (_, [one]) => *one,
        (_, _) => match (command, live.requests.undo_request) {
            (Command::AcceptUndo | Command::DeclineUndo, Some(asking)) => !asking,
            _ => live.game.position().turn(),
        },
    };
    Ok(Some(side))
}

/// Who gives the command, then what the game decides: a side's command needs its token or
/// its seat, the server's none.
fn decide(
    live: &mut Live,
    who: &Who,
    command: &Command,
    tables: &Tablebases,
) -> Result<Decision, GameError> {
    let side = side_for(live, who, command)?;
    if command.by_a_side() != side.is_some() {
        return Err(GameError::NotASide);
    }
    live.decide(side, command, tables)
}

/// Runs `work` in a task of its own, so that it runs to its end (stored, then in memory)
/// even if the request that asked for it goes away.
pub async fn to_the_end<T: Send + 'static>(
    work: impl std::future::Future<Output = Result<T, GameError>> + Send + 'static,
) -> Result<T, GameError> {
    match tokio::spawn(work).await {
        Ok(answer) => answer,
        Err(e) => Err(GameError::internal("the request failed", e)),
    }
}

#[cfg(test)]
pub(crate) mod tests;
