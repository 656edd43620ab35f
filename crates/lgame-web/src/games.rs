//! Games in play: loaded from the database, held in memory behind a per-game lock, changed
//! only through the rules library and stored before anyone is told.
//!
//! Nothing here speaks HTTP: a refusal is a [`GameError`], which the API answers with its
//! status (`error.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lgame::game::{DrawRules, Ending};
use lgame::rules::StartSetup;
use lgame::{ByColor, Color, Game, Move, Position, Record, Rules};
use lgame_players::seated::{Seat, SeatedGame};
use lgame_players::{Level, Tablebases};
use tokio::sync::broadcast;

use crate::response::{GameChange, GameMessage, GameState};
use crate::secret::{token_hash, token_matches};
use crate::store::{self, Edit, GameRow, Pending, Store};

mod consent;
mod presence;
mod refusal;

pub use consent::Answer;
pub use presence::RETELL as PRESENCE_RETELL;
pub use refusal::{Conflict, GameError, Input};

/// The server's ply cap by default (`--max-plies`).
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// What every request shares.
pub struct App {
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
}

/// One game in memory: its lock and the channel that tells watchers of every change (the
/// state's JSON).
pub struct Slot {
    pub live: Arc<tokio::sync::Mutex<Live>>,
    pub updates: broadcast::Sender<Arc<str>>,
}

/// A game with its seats, secrets and standing draw offer.
pub struct Live {
    id: String,
    seated: SeatedGame,
    seats: [String; 2],
    /// The hash of each human side's token (`secret.rs`), as stored.
    tokens: [Option<String>; 2],
    draw_offer: Option<Color>,
    /// Pages open (WebSockets with the side's token) per side: who is here now.
    present: presence::Presence,
    /// A side asking the other to let it take back its last move (kept in memory only).
    undo_request: Option<Color>,
    /// The rematch of this game, and the game this is the rematch of (ids).
    rematch: Option<String>,
    rematch_of: Option<String>,
    /// The plies of the state watchers were last sent: where the next change starts.
    announced: usize,
    /// The game's version in the database when this copy was made, plus the changes made
    /// through it since: a change is stored only if the database is still at it.
    version: i64,
}

/// A new game as the client describes it.
pub struct NewGame {
    pub game: Game,
    pub seats: [Seat; 2],
}

/// A game just created: its state and the secrets of its human sides.
pub struct Started {
    pub id: String,
    pub tokens: [Option<String>; 2],
    pub state: GameState,
}

/// A change made to a game in memory, to be stored, or taken back if it cannot be.
enum Change {
    /// Moves played from ply `first` (1 for the first move of the game).
    Played { first: usize, moves: Vec<Move> },
    /// `taken` moves taken back, `keep` left.
    TakenBack { keep: usize, taken: usize },
    /// An end declared off the board: a resignation or an agreed draw.
    Declared,
    /// A side's standing draw offer.
    Offered(Color),
    /// A side asking to take back its last move, or the request answered (declined).
    UndoAsked(Option<Color>),
}

const COLORS: [Color; 2] = [Color::Red, Color::Blue];

/// A side's name as stored: `red`, `blue`.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

fn color_from_name(name: &str) -> Option<Color> {
    COLORS.into_iter().find(|c| color_name(*c) == name)
}

/// `n` random bytes from the operating system's CSPRNG, in hex.
fn random_hex(bytes: usize) -> Result<String, GameError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| GameError::internal("random numbers", e))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Game ids: 16 hex digits.
pub fn valid_id(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A seat as stored and shown: `human` or the player spec (`perfect`, `beginner:40`).
fn seat_text(seat: &Seat) -> String {
    seat.name().to_string()
}

/// Reads a seat through the players library, as `lgame play` and `lgame match` read a
/// player; a command line is refused: the server never runs a program a client names.
pub fn parse_seat(side: &str, text: &str) -> Result<Seat, GameError> {
    let seat = text
        .parse()
        .map_err(|e| GameError::Invalid(Input::Player, format!("{side} '{text}': {e}")))?;
    match seat {
        Seat::Engine(_) => Err(GameError::Invalid(
            Input::Player,
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
        .map_err(|e| GameError::Invalid(Input::Variant, format!("variant '{text}': {e}")))
}

/// The rules with a starting setup: a setup name or a position.
pub fn with_setup(rules: &Rules, text: &str) -> Result<Rules, GameError> {
    let bad = |e: String| GameError::Invalid(Input::Setup, format!("setup '{text}': {e}"));
    let start = match StartSetup::from_name(text) {
        Some(named) => named,
        None => StartSetup::Custom(
            Position::from_text(text, rules)
                .map_err(|e| bad(e.to_string()))?
                .to_setup(),
        ),
    };
    rules.with_setup(start).map_err(|e| bad(e.to_string()))
}

/// Draw rules from counts, 0 meaning none.
pub fn draw_rules(repetition: u32, turn_limit: u32) -> DrawRules {
    DrawRules {
        repetition: (repetition > 0).then_some(repetition),
        turn_limit: (turn_limit > 0).then_some(turn_limit),
    }
}

impl App {
    pub fn new(store: Store, cache_cap: usize, max_table_states: u64) -> App {
        App {
            store,
            tablebases: Arc::new(Tablebases::default()),
            cache: Mutex::new(HashMap::new()),
            cache_cap: cache_cap.max(1),
            max_table_states,
            max_plies: DEFAULT_MAX_PLIES,
            computer_delay: std::time::Duration::from_secs(1),
            stopping: tokio::sync::watch::channel(false).1,
        }
    }

    /// The same server playing games between computers a ply each `delay` until `stopping`
    /// turns true.
    pub fn with_autoplay(
        mut self,
        delay: std::time::Duration,
        stopping: tokio::sync::watch::Receiver<bool>,
    ) -> App {
        self.computer_delay = delay;
        self.stopping = stopping;
        self
    }

    /// The same server with another ply cap (at least 1).
    pub fn with_max_plies(mut self, max_plies: u32) -> App {
        self.max_plies = max_plies.max(1);
        self
    }

    /// The game with its turn limit within the ply cap: no limit becomes the cap; a longer
    /// limit, or more plies than the cap already played (an import), is refused.
    pub fn within_cap(&self, game: Game) -> Result<Game, GameError> {
        let cap = self.max_plies;
        let plies = game.plies().len();
        if plies > cap as usize {
            return Err(GameError::Invalid(
                Input::GameLength,
                format!("the game has {plies} plies; this server plays games of at most {cap}"),
            ));
        }
        let mut draw = game.draw_rules();
        match draw.turn_limit {
            Some(limit) if limit > cap => {
                return Err(GameError::Invalid(
                    Input::TurnLimit,
                    format!("turn limit {limit}: this server plays games of at most {cap} plies"),
                ))
            }
            Some(_) => {}
            None => draw.turn_limit = Some(cap),
        }
        Ok(game.with_draw_rules(draw))
    }

    /// The same, its tables kept in `tablebases` (with their budget and pool of solvers).
    pub fn with_tablebases(self, tablebases: Arc<Tablebases>) -> App {
        App { tablebases, ..self }
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

    /// Puts a game in memory, unless it is there already (then that one is kept), dropping
    /// games no one holds when the cache is full.
    pub fn insert(&self, live: Live) -> Arc<Slot> {
        let mut cache = self.cache();
        if let Some(slot) = cache.get(&live.id) {
            return slot.clone();
        }
        if cache.len() >= self.cache_cap {
            let target = self.cache_cap - self.cache_cap / 10 - 1;
            let idle: Vec<String> = cache
                .iter()
                .filter(|(_, s)| Arc::strong_count(s) == 1 && Arc::strong_count(&s.live) == 1)
                .map(|(id, _)| id.clone())
                .take(cache.len().saturating_sub(target))
                .collect();
            for id in idle {
                cache.remove(&id);
            }
        }
        let id = live.id.clone();
        let slot = Arc::new(Slot {
            live: Arc::new(tokio::sync::Mutex::new(live)),
            updates: broadcast::channel(16).0,
        });
        cache.insert(id, slot.clone());
        slot
    }

    /// Every game in memory.
    pub fn cached_slots(&self) -> Vec<(String, Arc<Slot>)> {
        let cache = self.cache();
        cache
            .iter()
            .map(|(id, slot)| (id.clone(), slot.clone()))
            .collect()
    }

    /// How many games are in memory.
    pub fn cached_games(&self) -> usize {
        self.cache().len()
    }

    /// Creates a game: seats the players, lets a computer that moves first move, stores it
    /// all and keeps it in memory. (Blocking: solves the table a computer player needs.)
    pub fn create(&self, new: NewGame) -> Result<Started, GameError> {
        self.create_with(new, [true, true])
    }

    /// Creates a game, giving a token to the human sides `issue` names; another human side
    /// waits for its token (a rematch's, until its player asks). Computers that move first
    /// move at once, unless both sides are computers: such a game is played out by
    /// [`crate::autoplay`], one ply at a time.
    fn create_with(&self, new: NewGame, issue: [bool; 2]) -> Result<Started, GameError> {
        let NewGame { game, seats } = new;
        let game = self.within_cap(game)?;
        if !seats.iter().all(Seat::is_human) {
            self.check_table(game.rules())?;
        }
        let id = random_hex(8)?;
        let mut tokens = [None, None];
        for (i, seat) in seats.iter().enumerate() {
            if seat.is_human() && issue[i] {
                tokens[i] = Some(random_hex(16)?);
            }
        }
        let seed = u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(1);
        let header = Record::from_game(&game.rules_only()).to_string();
        let seat_texts = [seat_text(&seats[0]), seat_text(&seats[1])];
        let someone = seats.iter().any(Seat::is_human);
        let mut seated = SeatedGame::new(game, seats, seed, self.tablebases.clone());
        while someone && seated.play_computer().is_some() {}
        let hashes = tokens
            .clone()
            .map(|token| token.map(|token| token_hash(&id, &token)));
        let row = GameRow {
            id: id.clone(),
            header,
            seats: seat_texts,
            token_hashes: hashes.clone(),
            seed,
            end: declared_end(seated.game()),
            draw_offer: None,
            undo_request: None,
            rematch: None,
            rematch_of: None,
            version: 0,
        };
        self.store
            .insert_game(&row, &move_texts(&seated.game().moves()))
            .map_err(|e| GameError::storage("storing the game", e))?;
        let live = Live {
            id: id.clone(),
            announced: seated.game().plies().len(),
            seated,
            seats: row.seats,
            tokens: hashes,
            draw_offer: None,
            present: presence::Presence::default(),
            undo_request: None,
            rematch: None,
            rematch_of: None,
            version: 0,
        };
        let state = live.state();
        self.insert(live);
        Ok(Started { id, tokens, state })
    }

    /// Loads a stored game, replaying its moves through the rules. (Blocking.)
    pub fn load(&self, id: &str) -> Result<Option<Live>, GameError> {
        let loaded = self
            .store
            .load(id)
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
        if let Some((termination, result)) = &row.end {
            let t = lgame::game::Termination::from_name(termination)
                .ok_or_else(|| corrupt(format!("termination {termination}")))?;
            let r: lgame::game::ResultToken = result
                .parse()
                .map_err(|_| corrupt(format!("result {result}")))?;
            seated
                .game_mut()
                .declare(t, r)
                .map_err(|e| corrupt(format!("{e}")))?;
        }
        Ok(Some(Live {
            id: row.id,
            announced: seated.game().plies().len(),
            seated,
            seats: row.seats,
            tokens: row.token_hashes,
            draw_offer: row.draw_offer.as_deref().and_then(color_from_name),
            present: presence::Presence::default(),
            undo_request: row.undo_request.as_deref().and_then(color_from_name),
            rematch: row.rematch,
            rematch_of: row.rematch_of,
            version: row.version,
        }))
    }

    /// Replaces a game in memory by the database's copy and tells its watchers what
    /// changed. (Blocking.)
    pub fn refresh(
        &self,
        live: &mut Live,
        updates: &broadcast::Sender<Arc<str>>,
    ) -> Result<(), GameError> {
        let fresh = self
            .load(&live.id)?
            .ok_or_else(|| GameError::NoGame(live.id.clone()))?;
        live.replace(fresh, updates);
        Ok(())
    }

    /// Brings a game in memory up to the database's copy if another instance changed it
    /// (a database several instances share: see [`Store::shared`]). (Blocking.)
    pub fn catch_up(
        &self,
        live: &mut Live,
        updates: &broadcast::Sender<Arc<str>>,
    ) -> Result<(), GameError> {
        let stored = self
            .store
            .version_of(&live.id)
            .map_err(|e| GameError::storage("reading the game", e))?;
        match stored {
            Some(version) if version == live.version => Ok(()),
            _ => self.refresh(live, updates),
        }
    }
}

/// A WebSocket message's JSON.
fn message(message: &GameMessage) -> Arc<str> {
    // Text, numbers and lists, with string keys: nothing in it can fail to serialize.
    serde_json::to_string(message)
        .expect("a game message serializes")
        .into()
}

/// Moves as stored: their notation.
fn move_texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// A game with the same rules, start and draw rules and no moves: what a record's tags say.
trait RulesOnly {
    fn rules_only(&self) -> Game;
}

impl RulesOnly for Game {
    fn rules_only(&self) -> Game {
        Game::new(*self.rules()).with_draw_rules(self.draw_rules())
    }
}

/// An end declared off the board, as stored: its termination name and result token.
fn declared_end(game: &Game) -> Option<(String, String)> {
    let end = game.conclusion()?;
    match end.ending {
        Ending::Declared(t) => Some((t.name().to_string(), end.token().to_string())),
        _ => None,
    }
}

impl Live {
    /// The side whose token this is; every side's hash is compared, each in constant time.
    pub fn side_of(&self, token: &str) -> Option<Color> {
        let mut side = None;
        for color in COLORS {
            if let Some(hash) = &self.tokens[color as usize] {
                if token_matches(&self.id, token, hash) {
                    side = Some(color);
                }
            }
        }
        side
    }

    fn side(&self, token: &str) -> Result<Color, GameError> {
        self.side_of(token).ok_or(GameError::NotASide)
    }

    /// The game as everyone may see it (never a token).
    pub fn state(&self) -> GameState {
        let game = self.seated.game();
        let conclusion = game.conclusion();
        let [red, blue] = self.seats.clone();
        GameState {
            id: self.id.clone(),
            variant: Record::from_game(game).tag("Variant").map(str::to_string),
            start: *game.start(),
            position: *game.position(),
            turn: game.position().turn(),
            plies: game.plies().len(),
            moves: game.moves(),
            over: conclusion.is_some(),
            result: game.result_token().to_string(),
            ending: conclusion.map(|c| c.ending.name()),
            conclusion: conclusion.map(|c| c.to_string()),
            draw_rules: game.draw_rules(),
            seats: ByColor { red, blue },
            draw_offer: self.draw_offer,
            positions: game.plies().iter().map(|p| p.position).collect(),
            present: ByColor::new_with(|c| self.present.present(c)),
            undo_request: self.undo_request,
            rematch: self.rematch.clone(),
            rematch_of: self.rematch_of.clone(),
            you: None,
        }
    }

    /// Whether the computer's replies in this game take no more than a few table lookups, so
    /// that a move can be made on an async thread rather than a blocking one: each computer
    /// seat is a built-in level that does not search (not `intermediate`, no engine), and
    /// the table it may probe is held already. (A table dropped from the cache between this
    /// check and the reply would be solved on the async thread: slow, but still correct.)
    pub fn replies_quick(&self, tables: &Tablebases) -> bool {
        let rules = self.seated.game().rules();
        COLORS.iter().all(|&color| match self.seated.seat(color) {
            Seat::Human => true,
            Seat::Engine(_) => false,
            Seat::Computer(spec) => {
                let probes = spec.level == Level::Perfect || spec.strength > 0;
                spec.level != Level::Intermediate && (!probes || tables.cached(rules).is_some())
            }
        })
    }

    /// The game's version as this copy knows it.
    pub fn version(&self) -> i64 {
        self.version
    }

    /// Takes the database's copy `fresh` in place of this one (keeping who is here), and
    /// tells the watchers what changed: the plies from the first that differs.
    fn replace(&mut self, fresh: Live, updates: &broadcast::Sender<Arc<str>>) {
        let (old, new) = (self.seated.game().moves(), fresh.seated.game().moves());
        let same = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let announced = self.announced.min(same);
        let present = std::mem::take(&mut self.present);
        *self = Live {
            present,
            announced,
            ..fresh
        };
        self.changed(updates);
    }

    /// What changed since watchers were last sent the state `announced` plies long: the
    /// plies from the first that differs (a change either adds plies or takes some back),
    /// and the fields that may change.
    fn change(&self, state: &GameState) -> GameChange {
        let from = self.announced.min(state.plies);
        GameChange {
            from,
            moves: state.moves[from..].to_vec(),
            positions: state.positions[from..].to_vec(),
            plies: state.plies,
            position: state.position,
            turn: state.turn,
            over: state.over,
            result: state.result.clone(),
            ending: state.ending,
            conclusion: state.conclusion.clone(),
            draw_offer: state.draw_offer,
            present: state.present,
            undo_request: state.undo_request,
            rematch: state.rematch.clone(),
        }
    }

    /// Whether a person sits on `side` (with a token, or waiting for it).
    fn human(&self, side: Color) -> bool {
        self.seats[side as usize] == "human"
    }

    /// The game's record (notation.md), seats as tags.
    pub fn record(&self) -> String {
        self.seated.record().to_string()
    }

    /// A refusal of the game as it stands, with its state.
    fn conflict(&self, why: Conflict) -> GameError {
        GameError::Conflict {
            why,
            state: Box::new(self.state()),
        }
    }

    fn over(&self) -> Result<(), GameError> {
        match self.seated.game().conclusion() {
            Some(end) => Err(self.conflict(Conflict::Over(end))),
            None => Ok(()),
        }
    }

    /// A side's page connected here (`joined`) or left: watchers are told who is here, and
    /// so are the other instances on a shared database.
    pub fn presence(
        &mut self,
        store: &Store,
        side: Color,
        joined: bool,
        updates: &broadcast::Sender<Arc<str>>,
    ) {
        self.present.here_changed(side, joined);
        store.announce_presence(&self.id, self.present.here());
        self.changed(updates);
    }

    /// What another instance told of the pages it has open on this game.
    pub fn presence_elsewhere(
        &mut self,
        instance: &str,
        counts: [u32; 2],
        updates: &broadcast::Sender<Arc<str>>,
    ) {
        self.present.told(instance, counts);
        self.changed(updates);
    }

    /// Tells the other instances again of the pages open here, if any, and forgets what
    /// stopped instances told (telling the watchers if that changes who is here).
    pub fn retell_presence(&mut self, store: &Store, updates: &broadcast::Sender<Arc<str>>) {
        if self.present.here() != [0, 0] {
            store.announce_presence(&self.id, self.present.here());
        }
        if self.present.expire() {
            self.changed(updates);
        }
    }

    /// The whole state as the game's WebSockets send it first: its JSON.
    pub fn message(&self) -> Arc<str> {
        message(&GameMessage::State(self.state()))
    }

    /// Tells every watcher what changed, and returns the new state.
    fn changed(&mut self, updates: &broadcast::Sender<Arc<str>>) -> GameState {
        let state = self.state();
        // No watcher is no error; with none the message is not even written (most moves).
        // Watchers subscribe under the game's lock, which the caller holds: none is missed.
        if updates.receiver_count() > 0 {
            let _ = updates.send(message(&GameMessage::Change(self.change(&state))));
        }
        self.announced = state.plies;
        state
    }

    /// Stores a change made in memory, or takes it back if it cannot be stored; then tells
    /// the watchers. Every change to a game ends here, or in [`Uncommitted::settle`].
    /// (Blocking: waits for the commit.)
    fn commit(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        change: Change,
    ) -> Result<GameState, GameError> {
        let queued = self.queue(store, change);
        let stored = queued.pending.wait();
        self.settle(queued.change, stored, updates)
    }

    /// Queues a change made in memory for the writer.
    fn queue(&self, store: &Store, change: Change) -> Uncommitted {
        let stored = match &change {
            Change::Played { first, moves } => store::Change::Append {
                first: *first,
                moves: move_texts(moves),
            },
            Change::TakenBack { keep, .. } => store::Change::Truncate { keep: *keep },
            Change::Declared => {
                let (termination, result) = declared_end(self.seated.game()).unwrap_or_default();
                store::Change::End {
                    termination,
                    result,
                }
            }
            Change::Offered(side) => store::Change::DrawOffer(Some(color_name(*side).to_string())),
            Change::UndoAsked(side) => {
                store::Change::UndoRequest(side.map(|side| color_name(side).to_string()))
            }
        };
        let pending = store.queue(Edit {
            id: self.id.clone(),
            version: self.version,
            change: stored,
        });
        Uncommitted { change, pending }
    }

    /// Once a change's outcome is known: takes it back if it was not stored, or tells the
    /// watchers.
    fn settle(
        &mut self,
        change: Change,
        stored: anyhow::Result<()>,
        updates: &broadcast::Sender<Arc<str>>,
    ) -> Result<GameState, GameError> {
        if let Err(e) = stored {
            let outdated = store::is_stale(&e);
            let what = match change {
                Change::Played { moves, .. } => {
                    for _ in &moves {
                        self.seated.game_mut().undo();
                    }
                    "storing the move"
                }
                Change::TakenBack { taken, .. } => {
                    for _ in 0..taken {
                        self.seated.game_mut().redo();
                    }
                    "storing the undo"
                }
                Change::Declared => {
                    self.seated.game_mut().undo_declaration();
                    "storing the end of the game"
                }
                Change::Offered(_) => "storing the offer",
                Change::UndoAsked(_) => "storing the request to take back",
            };
            if outdated {
                return Err(GameError::Outdated);
            }
            return Err(GameError::storage(what, e));
        }
        self.version += 1;
        match change {
            Change::Offered(side) => self.draw_offer = Some(side),
            Change::UndoAsked(side) => self.undo_request = side,
            // A move, an undo or an end withdraws a standing offer and a request to take
            // back (as the store does).
            Change::Played { .. } | Change::TakenBack { .. } | Change::Declared => {
                self.draw_offer = None;
                self.undo_request = None;
            }
        }
        Ok(self.changed(updates))
    }

    /// [`Live::play_queued`], then waits for the commit and settles the change (blocking).
    #[cfg(test)]
    pub fn play(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
        ply: u64,
        mv: &Move,
    ) -> Result<GameState, GameError> {
        let queued = self.play_queued(store, token, ply, mv)?;
        let stored = queued.pending.wait();
        self.settle(queued.change, stored, updates)
    }

    /// A person's move for ply `ply` (1 for the first), then the computer's reply, up to
    /// the commit: both are made in memory and queued for the
    /// writer. The caller must keep the game's lock until [`Uncommitted::settle`] (which
    /// answers, or takes the moves back): so a game has one change in flight at a time and
    /// its changes are written in order. (Blocking: the computer's reply may solve a table.)
    pub fn play_queued(
        &mut self,
        store: &Store,
        token: &str,
        ply: u64,
        mv: &Move,
    ) -> Result<Uncommitted, GameError> {
        let side = self.side(token)?;
        self.over()?;
        let played = self.seated.game().plies().len();
        if ply != played as u64 + 1 {
            return Err(self.conflict(Conflict::Stale { ply, played }));
        }
        let turn = self.seated.game().position().turn();
        if turn != side {
            return Err(self.conflict(Conflict::NotYourTurn { turn, side }));
        }
        let before = *self.seated.game().position();
        match self.seated.play_human(mv) {
            Ok(_) => {}
            Err(lgame::game::GameError::Illegal(reason)) => {
                return Err(GameError::Illegal {
                    message: format!("move '{mv}' is illegal in {before}: {reason}"),
                    reason,
                })
            }
            Err(e) => return Err(self.conflict(Conflict::Refused(e))),
        }
        let mut moves = vec![*mv];
        while let Some(reply) = self.seated.play_computer() {
            moves.push(reply);
        }
        let first = played + 1;
        Ok(self.queue(store, Change::Played { first, moves }))
    }

    /// Takes back moves to the person's previous turn, in a game against the computer;
    /// between two people, asks the other's consent to take back the side's last move.
    pub fn undo(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<GameState, GameError> {
        let side = self.side(token)?;
        if self.human(!side) {
            return self.ask_undo(store, updates, side);
        }
        if let Some(end) = self.seated.game().conclusion() {
            if matches!(end.ending, Ending::Declared(_)) {
                return Err(self.conflict(Conflict::Over(end)));
            }
        }
        let taken = self.seated.undo();
        if taken == 0 || !self.seated.waiting_for_human() {
            // Back before the person's first move: put it all back.
            for _ in 0..taken {
                self.seated.game_mut().redo();
            }
            return Err(self.conflict(Conflict::NothingToUndo));
        }
        let keep = self.seated.game().plies().len();
        self.commit(store, updates, Change::TakenBack { keep, taken })
    }

    /// Offers a draw, or accepts the opponent's standing offer (the game is then drawn).
    /// A computer opponent accepts at once when its level judges the position drawn, and
    /// declines otherwise.
    pub fn offer_draw(
        &mut self,
        store: &Store,
        tables: &Tablebases,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<GameState, GameError> {
        let side = self.side(token)?;
        self.over()?;
        let other = !side;
        if !self.human(other) {
            return self.offer_to_computer(store, tables, updates, other);
        }
        if self.draw_offer == Some(other) {
            if let Err(e) = self.seated.game_mut().agree_draw() {
                return Err(self.conflict(Conflict::Refused(e)));
            }
            self.commit(store, updates, Change::Declared)
        } else if self.draw_offer == Some(side) {
            // The offer stands already.
            Ok(self.changed(updates))
        } else {
            self.commit(store, updates, Change::Offered(side))
        }
    }

    /// The token's side resigns.
    pub fn resign(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<GameState, GameError> {
        let side = self.side(token)?;
        self.over()?;
        if let Err(e) = self.seated.game_mut().resign(side) {
            return Err(self.conflict(Conflict::Refused(e)));
        }
        self.commit(store, updates, Change::Declared)
    }
}

/// A change made in memory and queued for the writer, its outcome not yet known.
#[must_use = "a change made in memory must be settled: answered, or taken back"]
pub struct Uncommitted {
    change: Change,
    pending: Pending,
}

impl Uncommitted {
    /// Awaits the commit (holding no thread while the batch syncs), then settles the change
    /// in `live`, which must be the game that made it, under the same lock: taken back if it
    /// was not stored (an error, 500), or told to the watchers and the new state returned.
    pub async fn settle(
        self,
        live: &mut Live,
        updates: &broadcast::Sender<Arc<str>>,
    ) -> Result<GameState, GameError> {
        let stored = self.pending.outcome().await;
        live.settle(self.change, stored, updates)
    }
}

/// Withdrawing a declared end that could not be stored.
trait UndoDeclaration {
    fn undo_declaration(&mut self);
}

impl UndoDeclaration for Game {
    fn undo_declaration(&mut self) {
        // `Game::undo` drops a declared end with the last move; replaying the move keeps the
        // moves and loses only the declaration.
        if let Some(mv) = self.undo() {
            let _ = self.play(&mv);
        } else {
            *self = self.rules_only();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Synchronous;

    /// A store in a folder of its own, removed afterwards.
    struct TempStore(std::path::PathBuf);

    impl Drop for TempStore {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn app(name: &str) -> (TempStore, App) {
        let dir = std::env::temp_dir().join(format!("lgame-games-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&dir.join("games.db").into(), Synchronous::Normal).unwrap();
        (
            TempStore(dir),
            App::new(store, 100, crate::DEFAULT_MAX_TABLE_STATES),
        )
    }

    /// Whether a new classic game of human against `computer` has quick replies, with the
    /// app's tables (which creating the game filled if the player probes one) and with none.
    fn quick(app: &App, computer: &str) -> (bool, bool) {
        let started = app
            .create(NewGame {
                game: Game::new(Rules::classic()),
                seats: [Seat::Human, computer.parse().unwrap()],
            })
            .unwrap();
        let slot = app.cached(&started.id).unwrap();
        let live = slot.live.blocking_lock();
        (
            live.replies_quick(&app.tablebases),
            live.replies_quick(&Tablebases::default()),
        )
    }

    #[test]
    fn a_reply_is_quick_only_from_a_level_that_does_not_search_with_its_table_held() {
        let (_dir, app) = app("quick");
        assert_eq!(quick(&app, "human"), (true, true));
        assert_eq!(quick(&app, "random"), (true, true), "random needs no table");
        assert_eq!(quick(&app, "perfect"), (true, false), "perfect: its table");
        assert_eq!(
            quick(&app, "beginner:40"),
            (true, false),
            "a strength probes"
        );
        assert_eq!(quick(&app, "intermediate"), (false, false), "it searches");
    }
}
