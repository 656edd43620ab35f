//! Games in play: loaded from the database, held in memory behind a per-game lock, changed
//! only through the rules library and stored before anyone is told.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use lgame::{Color, DrawRules, Ending, Game, GameError, Move, Position, Record, Rules, StartSetup};
use lgame_players::seated::{Seat, SeatedGame};
use lgame_players::Tablebases;
use serde_json::{json, Value};
use subtle::ConstantTimeEq;
use tokio::sync::broadcast;

use crate::error::ApiError;
use crate::store::{GameRow, Store};

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
}

/// One game in memory: its lock and the channel that tells watchers of every change.
pub struct Slot {
    pub live: Arc<tokio::sync::Mutex<Live>>,
    pub updates: broadcast::Sender<Arc<str>>,
}

/// A game with its seats, secrets and standing draw offer.
pub struct Live {
    id: String,
    seated: SeatedGame,
    seats: [String; 2],
    tokens: [Option<String>; 2],
    draw_offer: Option<Color>,
    /// Live connections (WebSockets with the side's token) per side: who is here now.
    present: [u32; 2],
}

/// A new game as the client describes it.
pub struct NewGame {
    pub game: Game,
    pub seats: [Seat; 2],
}

/// A game just created: its state and the secrets of its human sides.
pub struct Created {
    pub id: String,
    pub tokens: [Option<String>; 2],
    pub state: Value,
}

const COLORS: [Color; 2] = [Color::Red, Color::Blue];

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

fn color_from_name(name: &str) -> Option<Color> {
    COLORS.into_iter().find(|c| color_name(*c) == name)
}

/// `n` random bytes from the operating system's CSPRNG, in hex.
fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal("random numbers", e))?;
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
pub fn parse_seat(side: &str, text: &str) -> Result<Seat, ApiError> {
    let seat = text
        .parse()
        .map_err(|e| ApiError::bad_request(format!("{side} '{text}': {e}")))?;
    match seat {
        Seat::Engine(_) => Err(ApiError::bad_request(format!(
            "{side} '{text}': the server plays human or a built-in level (random, beginner, \
             intermediate, perfect, with an optional strength such as beginner:40); it runs \
             no program"
        ))),
        seat => Ok(seat),
    }
}

/// Reads the rules through the library.
pub fn parse_rules(text: &str) -> Result<Rules, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad_request(format!("variant '{text}': {e}")))
}

/// The rules with a starting setup: a setup name or a position.
pub fn with_setup(rules: &Rules, text: &str) -> Result<Rules, ApiError> {
    let bad = |e: String| ApiError::bad_request(format!("setup '{text}': {e}"));
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
        }
    }

    /// Refuses a variant whose table is larger than the server solves.
    pub fn check_table(&self, rules: &Rules) -> Result<(), ApiError> {
        let states = lgame_solver::StateIndex::new(rules).len();
        if states > self.max_table_states {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "'{rules}' has {states} positions; this server solves tables of at most {}",
                    self.max_table_states
                ),
            ));
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

    /// How many games are in memory.
    pub fn cached_games(&self) -> usize {
        self.cache().len()
    }

    /// Creates a game: seats the players, lets a computer that moves first move, and
    /// stores it all. (Blocking: solves the table a computer player needs.)
    pub fn create(&self, new: NewGame) -> Result<(Created, Arc<Slot>), ApiError> {
        let NewGame { game, seats } = new;
        if !seats.iter().any(Seat::is_human) {
            return Err(ApiError::bad_request(
                "at least one side must be human: red or blue must be 'human'",
            ));
        }
        if !seats.iter().all(Seat::is_human) {
            self.check_table(game.rules())?;
        }
        let id = random_hex(8)?;
        let mut tokens = [None, None];
        for (i, seat) in seats.iter().enumerate() {
            if seat.is_human() {
                tokens[i] = Some(random_hex(16)?);
            }
        }
        let seed = u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(1);
        let header = Record::from_game(&game.rules_only()).to_string();
        let seat_texts = [seat_text(&seats[0]), seat_text(&seats[1])];
        let mut seated = SeatedGame::new(game, seats, seed, self.tablebases.clone());
        while seated.play_computer().is_some() {}
        let row = GameRow {
            id: id.clone(),
            header,
            seats: seat_texts,
            tokens: tokens.clone(),
            seed,
            end: declared_end(seated.game()),
            draw_offer: None,
        };
        let moves: Vec<String> = seated
            .game()
            .moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        self.store
            .insert_game(&row, &moves)
            .map_err(|e| ApiError::internal("storing the game", e))?;
        let live = Live {
            id: id.clone(),
            seated,
            seats: row.seats,
            tokens: tokens.clone(),
            draw_offer: None,
            present: [0; 2],
        };
        let state = live.state();
        let slot = self.insert(live);
        Ok((Created { id, tokens, state }, slot))
    }

    /// Loads a stored game, replaying its moves through the rules. (Blocking.)
    pub fn load(&self, id: &str) -> Result<Option<Live>, ApiError> {
        let loaded = self
            .store
            .load(id)
            .map_err(|e| ApiError::internal("reading the game", e))?;
        let Some((row, moves)) = loaded else {
            return Ok(None);
        };
        let corrupt =
            |what: String| ApiError::internal("loading the game", format!("{id}: {what}"));
        let record: Record = row.header.parse().map_err(|e| corrupt(format!("{e}")))?;
        let game = record.new_game().map_err(|e| corrupt(format!("{e}")))?;
        let mut seats = [Seat::Human, Seat::Human];
        for (seat, text) in seats.iter_mut().zip(&row.seats) {
            *seat = parse_seat("seat", text).map_err(|e| corrupt(e.message))?;
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
            let t = lgame::Termination::from_name(termination)
                .ok_or_else(|| corrupt(format!("termination {termination}")))?;
            let r: lgame::ResultToken = result
                .parse()
                .map_err(|_| corrupt(format!("result {result}")))?;
            seated
                .game_mut()
                .declare(t, r)
                .map_err(|e| corrupt(format!("{e}")))?;
        }
        Ok(Some(Live {
            id: row.id,
            seated,
            seats: row.seats,
            tokens: row.tokens,
            draw_offer: row.draw_offer.as_deref().and_then(color_from_name),
            present: [0; 2],
        }))
    }
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
    /// The side whose token this is; every token is compared, each in constant time.
    pub fn side_of(&self, token: &str) -> Option<Color> {
        let mut side = None;
        for color in COLORS {
            if let Some(secret) = &self.tokens[color as usize] {
                if bool::from(secret.as_bytes().ct_eq(token.as_bytes())) {
                    side = Some(color);
                }
            }
        }
        side
    }

    fn side(&self, token: &str) -> Result<Color, ApiError> {
        self.side_of(token).ok_or_else(ApiError::forbidden)
    }

    /// The game as everyone may see it (never a token).
    pub fn state(&self) -> Value {
        let game = self.seated.game();
        let record = Record::from_game(game);
        let conclusion = game.conclusion();
        let rules = game.draw_rules();
        json!({
            "id": self.id,
            "variant": record.tag("Variant"),
            "start": game.start().to_string(),
            "position": game.position().to_string(),
            "turn": color_name(game.position().turn()),
            "plies": game.plies().len(),
            "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "over": conclusion.is_some(),
            "result": game.result_token().to_string(),
            "ending": conclusion.map(|c| c.ending.name()),
            "conclusion": conclusion.map(|c| c.to_string()),
            "draw_rules": { "repetition": rules.repetition, "turn_limit": rules.turn_limit },
            "seats": { "red": self.seats[0], "blue": self.seats[1] },
            "draw_offer": self.draw_offer.map(color_name),
            "positions": game.plies().iter().map(|p| p.position.to_string()).collect::<Vec<_>>(),
            "present": { "red": self.present[0] > 0, "blue": self.present[1] > 0 },
        })
    }

    /// The game's record (notation.md), seats as tags.
    pub fn record(&self) -> String {
        self.seated.record().to_string()
    }

    fn over(&self) -> Result<(), ApiError> {
        match self.seated.game().conclusion() {
            Some(end) => Err(ApiError::conflict(
                format!("the game is over ({end})"),
                self.state(),
            )),
            None => Ok(()),
        }
    }

    /// A side's page connected (`joined`) or left: watchers are told who is here.
    pub fn presence(&mut self, side: Color, joined: bool, updates: &broadcast::Sender<Arc<str>>) {
        let count = &mut self.present[side as usize];
        *count = if joined {
            count.saturating_add(1)
        } else {
            count.saturating_sub(1)
        };
        self.changed(updates);
    }

    /// Tells every watcher the new state, and returns it.
    fn changed(&self, updates: &broadcast::Sender<Arc<str>>) -> Value {
        let state = self.state();
        // No watcher is no error.
        let _ = updates.send(state.to_string().into());
        state
    }

    /// A person's move for ply `ply` (1 for the first), then the computer's reply; both
    /// stored before the answer.
    pub fn play(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
        ply: u64,
        mv: &Move,
    ) -> Result<Value, ApiError> {
        let side = self.side(token)?;
        self.over()?;
        let played = self.seated.game().plies().len();
        if ply != played as u64 + 1 {
            return Err(ApiError::conflict(
                format!(
                    "stale move: it is for ply {ply}, but {played} plies are played and the next is {}",
                    played + 1
                ),
                self.state(),
            ));
        }
        let turn = self.seated.game().position().turn();
        if turn != side {
            return Err(ApiError::conflict(
                format!("it is {turn}'s turn, not {side}'s"),
                self.state(),
            ));
        }
        let before = self.seated.game().position().to_string();
        match self.seated.play_human(mv) {
            Ok(_) => {}
            Err(GameError::Illegal(reason)) => {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("move '{mv}' is illegal in {before}: {reason}"),
                )
                .with_reason(crate::error::illegal_reason(&reason)))
            }
            Err(e) => return Err(ApiError::conflict(e.to_string(), self.state())),
        }
        let mut moves = vec![*mv];
        while let Some(reply) = self.seated.play_computer() {
            moves.push(reply);
        }
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        if let Err(e) = store.append_moves(&self.id, played + 1, &texts) {
            for _ in &moves {
                self.seated.game_mut().undo();
            }
            return Err(ApiError::internal("storing the move", e));
        }
        self.draw_offer = None;
        Ok(self.changed(updates))
    }

    /// Takes back moves to the person's previous turn, in a game against the computer.
    pub fn undo(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<Value, ApiError> {
        self.side(token)?;
        if self.tokens.iter().all(Option::is_some) {
            return Err(ApiError::conflict(
                "undo is only for games against the computer",
                self.state(),
            ));
        }
        if let Some(end) = self.seated.game().conclusion() {
            if matches!(end.ending, Ending::Declared(_)) {
                return Err(ApiError::conflict(
                    format!("the game is over ({end})"),
                    self.state(),
                ));
            }
        }
        let taken = self.seated.undo();
        if taken == 0 || !self.seated.waiting_for_human() {
            // Back before the person's first move: put it all back.
            for _ in 0..taken {
                self.seated.game_mut().redo();
            }
            return Err(ApiError::conflict(
                "there is no move of yours to take back",
                self.state(),
            ));
        }
        let keep = self.seated.game().plies().len();
        if let Err(e) = store.truncate_moves(&self.id, keep) {
            for _ in 0..taken {
                self.seated.game_mut().redo();
            }
            return Err(ApiError::internal("storing the undo", e));
        }
        self.draw_offer = None;
        Ok(self.changed(updates))
    }

    /// Offers a draw, or accepts the opponent's standing offer (the game is then drawn).
    pub fn offer_draw(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<Value, ApiError> {
        let side = self.side(token)?;
        self.over()?;
        if self.tokens[(!side) as usize].is_none() {
            return Err(ApiError::conflict(
                format!(
                    "{} ({}) does not accept draws",
                    !side,
                    self.seats[(!side) as usize]
                ),
                self.state(),
            ));
        }
        if self.draw_offer == Some(!side) {
            self.seated
                .game_mut()
                .agree_draw()
                .map_err(|e| ApiError::conflict(e.to_string(), self.state()))?;
            let (t, r) = declared_end(self.seated.game()).unwrap_or_default();
            if let Err(e) = store.set_end(&self.id, &t, &r) {
                self.seated.game_mut().undo_declaration();
                return Err(ApiError::internal("storing the draw", e));
            }
            self.draw_offer = None;
        } else if self.draw_offer != Some(side) {
            store
                .set_draw_offer(&self.id, Some(color_name(side)))
                .map_err(|e| ApiError::internal("storing the offer", e))?;
            self.draw_offer = Some(side);
        }
        Ok(self.changed(updates))
    }

    /// The token's side resigns.
    pub fn resign(
        &mut self,
        store: &Store,
        updates: &broadcast::Sender<Arc<str>>,
        token: &str,
    ) -> Result<Value, ApiError> {
        let side = self.side(token)?;
        self.over()?;
        self.seated
            .game_mut()
            .resign(side)
            .map_err(|e| ApiError::conflict(e.to_string(), self.state()))?;
        let (t, r) = declared_end(self.seated.game()).unwrap_or_default();
        if let Err(e) = store.set_end(&self.id, &t, &r) {
            self.seated.game_mut().undo_declaration();
            return Err(ApiError::internal("storing the resignation", e));
        }
        self.draw_offer = None;
        Ok(self.changed(updates))
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
