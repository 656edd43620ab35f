//! A game in memory: its seats and secrets, what stands between the players, who is here,
//! and the channel that tells its watchers of every change. A command is decided on a copy
//! of the game, the [`Draft`] (what it may do is `machine.rs`); once the database has stored
//! the change, the draft is swapped in and told ([`Live::commit`]). A change the database
//! refuses is never made in memory, so there is nothing to take back.

use std::sync::{Arc, Mutex};

use lgame::game::{ResultToken, Termination};
use lgame::{ByColor, Color, Game, Move, Record};
use lgame_players::seated::{Seat, SeatedGame};
use lgame_players::{Level, Tablebases};
use tokio::sync::broadcast;

use super::presence::Presence;
use super::view::{
    AccuracyAnswer, GameChange, GameMessage, GameState, Player, PlayerKind, RatingsAnswer,
};
use super::{Conflict, GameError, Who, COLORS};
use crate::clock::{Clock, TimeControl, TimeSource};
use crate::secret::token_matches;
use crate::store::{self, Edit, Holder, Requests, StoredClock};

/// A game with its seats, secrets and standing requests.
pub struct Live {
    pub(super) id: String,
    /// The game as stored, which everyone sees: replaced only by a change the database
    /// stored ([`Live::commit`]).
    pub(super) game: Game,
    /// Where the next command is decided.
    pub(super) draft: Draft,
    pub(super) seats: [String; 2],
    /// The hash of each human side's token (`secret.rs`), as stored.
    pub(super) tokens: [Option<String>; 2],
    /// What one side asks of the other: a draw, taking back a move.
    pub(super) requests: Requests,
    /// Pages open (WebSockets with the side's token) per side: who is here now.
    pub(super) present: Presence,
    /// The rematch of this game, and the game this is the rematch of (ids).
    pub(super) rematch: Option<String>,
    pub(super) rematch_of: Option<String>,
    /// Who holds each seat (`store/accounts.rs`), their usernames, and the hash of a seat's
    /// open invitation.
    pub(super) holders: [Option<Holder>; 2],
    pub(super) names: [Option<String>; 2],
    pub(super) bots: [bool; 2],
    pub(super) invites: [Option<String>; 2],
    /// The arena that paired the game, if one did.
    pub(super) arena: Option<String>,
    /// When the game was made (Unix seconds).
    created: i64,
    /// Its clocks as stored, if it has a time control, and the server's time they read.
    pub(super) clock: Option<Clock>,
    pub(super) time: Arc<TimeSource>,
    /// Since when (game time) each side has had no page open anywhere (`None`: one is).
    gone_since: [Option<i64>; 2],
    /// The plies of the state watchers were last sent: where the next change starts.
    pub(super) announced: usize,
    /// The game's version in the database when this copy was made, plus the changes made
    /// through it since: a change is stored only if the database is still at it.
    pub(super) version: i64,
    /// Tells every watcher of the game each change (the state's JSON); subscribed under
    /// the game's lock, so that no change is missed between the state and the next change.
    updates: broadcast::Sender<Arc<str>>,
    /// The tables that score a finished game's moves (`None`: the server does not solve
    /// this variant), and the score of the moves it was last computed for.
    analyst: Option<Arc<Tablebases>>,
    accuracy: Mutex<Option<(Vec<Move>, Option<AccuracyAnswer>)>>,
    /// A rated game's category, and its players' ratings as the database last told them.
    pub(super) category: Option<String>,
    pub(super) ratings: Option<RatingsAnswer>,
}

/// Where a command is decided (`machine.rs`): the players at a copy of the game, and a copy
/// of the clocks, made afresh for each command ([`Live::redraft`]). Kept with the game so that
/// each command reuses the memory of the last ([`Game::clone_from`]); between two commands
/// what it holds means nothing.
pub(super) struct Draft {
    pub(super) seated: SeatedGame,
    pub(super) clock: Option<Clock>,
}

/// Who sits at a seat (`human` or a computer's spec), by its holder, the holder's username
/// and whether it is a bot: a bot account (a program's, or one of the server's levels'), a
/// computer, a seat nobody holds yet, an account, a closed account, a browser.
pub fn player_at(seat: &str, holder: Option<&Holder>, name: Option<&str>, bot: bool) -> Player {
    let (kind, name) = match (holder, name) {
        (Some(_), Some(name)) if bot => (PlayerKind::Bot, Some(name.to_string())),
        _ if seat != "human" => (PlayerKind::Computer, Some(seat.to_string())),
        (None, _) => (PlayerKind::Open, None),
        (Some(_), Some(name)) => (PlayerKind::User, Some(name.to_string())),
        (Some(Holder::Account(_)), None) => (PlayerKind::Deleted, None),
        (Some(_), None) => (PlayerKind::Anonymous, None),
    };
    Player { kind, name }
}

/// A change decided on the draft, to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Moves played from ply `first` (1 for the first move of the game).
    Played { first: usize, moves: Vec<Move> },
    /// `taken` moves taken back, `keep` left.
    TakenBack { keep: usize, taken: usize },
    /// An end declared off the board: a resignation or an agreed draw.
    Declared,
    /// Only what stands between the players: an offer, a request, an answer.
    Asked(Requests),
}

impl Change {
    /// What stands between the players once this change is made: a move,
    /// an undo or an end withdraws a standing draw offer and a request to take back; an
    /// offer, a request or its answer is what it says. (The one place this is decided: the
    /// stores write what the edit gives them.)
    pub fn requests_after(&self) -> Requests {
        match self {
            Change::Played { .. } | Change::TakenBack { .. } | Change::Declared => {
                Requests::default()
            }
            Change::Asked(requests) => *requests,
        }
    }

    /// What storing it is, as a refusal to store it says.
    pub(super) fn storing(&self) -> &'static str {
        match self {
            Change::Played { .. } => "storing the move",
            Change::TakenBack { .. } => "storing the undo",
            Change::Declared => "storing the end of the game",
            Change::Asked(_) => "storing the request",
        }
    }
}

impl Live {
    /// A game in memory, as created or loaded, with no watcher yet, its clocks `row`'s.
    pub(super) fn new(
        id: String,
        seated: SeatedGame,
        row: &store::GameRow,
        version: i64,
        time: Arc<TimeSource>,
        analyst: Option<Arc<Tablebases>>,
    ) -> Live {
        let clock = row.clock.clocks.clone();
        let now = time.now_ms();
        Live {
            game: seated.game().clone(),
            announced: seated.game().plies().len(),
            draft: Draft {
                seated,
                clock: clock.clone(),
            },
            clock,
            time,
            gone_since: [Some(now); 2],
            id,
            seats: row.seats.clone(),
            tokens: row.token_hashes.clone(),
            requests: row.requests,
            present: Presence::default(),
            rematch: row.rematch.clone(),
            rematch_of: row.rematch_of.clone(),
            holders: row.holders.clone(),
            names: row.names.clone(),
            bots: row.bots,
            invites: row.invites.clone(),
            arena: row.arena.clone(),
            created: row.created.unwrap_or(now.div_euclid(1000)),
            version,
            updates: broadcast::channel(16).0,
            analyst,
            accuracy: Mutex::new(None),
            category: row.category.clone(),
            ratings: None,
        }
    }

    /// Makes the draft a copy of the game and its clocks as they stand, for a command to be
    /// decided on.
    pub(super) fn redraft(&mut self) {
        self.draft.seated.game_mut().clone_from(&self.game);
        self.draft.clock.clone_from(&self.clock);
    }

    /// Since when (game time) `side` has had no page open anywhere, if it has none.
    pub(super) fn gone_since(&self, side: Color) -> Option<i64> {
        self.gone_since[side as usize]
    }

    /// Notes who has gone since when, after who is here changed.
    fn note_gone(&mut self) {
        let now = self.time.now_ms();
        for side in COLORS {
            let gone = &mut self.gone_since[side as usize];
            *gone = match self.present.present(side) {
                true => None,
                false => Some(gone.unwrap_or(now)),
            };
        }
    }

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

    /// The seats `who` plays: a token's side, or every seat a holder holds.
    pub fn sides_of(&self, who: &Who) -> Vec<Color> {
        match who {
            Who::Token(token) => self.side_of(token).into_iter().collect(),
            Who::Holder { holder, .. } => COLORS
                .into_iter()
                .filter(|&c| self.holders[c as usize].as_ref() == Some(holder))
                .collect(),
            Who::Nobody | Who::Server => Vec::new(),
        }
    }

    /// Who sits at each side, as everyone may see it.
    fn player(&self, side: Color) -> Player {
        let i = side as usize;
        let held = self.holders[i].as_ref();
        let by_token = held.is_none() && self.tokens[i].is_some() && self.invites[i].is_none();
        match by_token {
            // A side played by its token alone (a program's, an old link's).
            true => Player {
                kind: PlayerKind::Anonymous,
                name: None,
            },
            false => player_at(&self.seats[i], held, self.names[i].as_deref(), self.bots[i]),
        }
    }

    /// The game as `who` sees it: everyone's state, with the seats `who` plays.
    pub fn state_for(&self, who: &Who) -> GameState {
        let mut state = self.state();
        self.show_sides(&mut state, who);
        state
    }

    /// Writes into a state of this game the seats `who` plays.
    pub fn show_sides(&self, state: &mut GameState, who: &Who) {
        state.your_sides = self.sides_of(who);
        state.you = match state.your_sides[..] {
            [] => None,
            [one] => Some(one),
            _ => Some(state.turn),
        };
    }

    /// Whether the game goes on and `position` is one it has stood at.
    pub fn goes_on_through(&self, position: &lgame::Position) -> bool {
        let game = &self.game;
        !game.is_over()
            && (game.start() == position || game.plies().iter().any(|p| p.position == *position))
    }

    /// The game as everyone may see it (never a token).
    pub fn state(&self) -> GameState {
        let game = &self.game;
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
            draw_offer: self.requests.draw_offer,
            positions: game.plies().iter().map(|p| p.position).collect(),
            present: ByColor::new_with(|c| self.present.present(c)),
            undo_request: self.requests.undo_request,
            rematch: self.rematch.clone(),
            rematch_of: self.rematch_of.clone(),
            players: ByColor::new_with(|c| self.player(c)),
            invitation: COLORS.into_iter().find(|&c| {
                self.invites[c as usize].is_some() && self.holders[c as usize].is_none()
            }),
            invited: COLORS
                .into_iter()
                .find(|&c| self.invites[c as usize].is_some()),
            arena: self.arena.clone(),
            you: None,
            your_sides: Vec::new(),
            clock: self
                .clock
                .as_ref()
                .map(|c| c.view(game.position().turn(), self.time.now_ms())),
            accuracy: self.accuracy(),
            rated: self.category.is_some(),
            category: self.category.clone(),
            ratings: self.ratings,
        }
    }

    /// Both sides' accuracy once the game is over (never during play: that would be
    /// analysis), computed once for the moves played and kept; `None` for a variant the
    /// server does not solve, and for an aborted game (nothing was played). The table is the
    /// one the server holds, or solved here.
    pub fn accuracy(&self) -> Option<AccuracyAnswer> {
        let game = &self.game;
        let aborted = lgame::game::Ending::Declared(lgame::game::Termination::Aborted);
        if game.conclusion().is_none_or(|c| c.ending == aborted) {
            return None;
        }
        let tables = self.analyst.as_ref()?;
        let mut held = self.accuracy.lock().unwrap_or_else(|e| e.into_inner());
        let moves = game.moves();
        if let Some((scored, answer)) = held.as_ref() {
            if *scored == moves {
                return *answer;
            }
        }
        let table = tables.get(game.rules());
        let answer = lgame_solver::accuracy(&table, game)
            .ok()
            .map(AccuracyAnswer::from);
        *held = Some((moves, answer));
        answer
    }

    /// Whether the computer's replies in this game take no more than a few table lookups, so
    /// that a move can be made on an async thread rather than a blocking one: each computer
    /// seat is a built-in level that does not search (not `intermediate`, no engine), and
    /// the table it may probe is held already. (A table dropped from the cache between this
    /// check and the reply would be solved on the async thread: slow, but still correct.)
    pub fn replies_quick(&self, tables: &Tablebases) -> bool {
        let rules = self.game.rules();
        COLORS
            .iter()
            .all(|&color| match self.draft.seated.seat(color) {
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

    /// Whether a person sits on `side` (with a token, or waiting for it).
    /// In a correspondence game, the account whose move it is (`Some(None)`: no account's,
    /// or the game is over); `None` in any other game.
    pub(super) fn correspondence_turn(&self) -> Option<Option<i64>> {
        let clock = self.clock.as_ref()?;
        if !matches!(clock.control, TimeControl::Correspondence { .. }) {
            return None;
        }
        let side = self.game.position().turn() as usize;
        let holder = self.holders[side].as_ref().filter(|_| !self.game.is_over());
        Some(holder.and_then(Holder::account))
    }

    pub(super) fn human(&self, side: Color) -> bool {
        self.seats[side as usize] == "human"
    }

    /// Whether this is a game between two computers that goes on.
    pub fn plays_itself(&self) -> bool {
        !self.human(Color::Red) && !self.human(Color::Blue) && !self.game.is_over()
    }

    /// The game's record (notation.md) with what a reader wants to know of it, as tags (docs/
    /// records.md, "The server's records"): the players' names (`Red`, `Blue`), `Date`,
    /// `Site` (this server's address, `site`), `Event` (rated or casual, its speed, its
    /// arena), each player's rating before a rated game (`RedRating`, `BlueRating`), a timed
    /// game's `TimeControl`, and once it is over how it ended (`Ending`) beside `Result`
    /// (and `Termination` for an end declared off the board).
    pub fn record(&self, site: &str) -> String {
        // The game's own record: the server seats no engine, so none forfeits with a reason
        // to tell (`SeatedGame::record`'s comment).
        let mut record = Record::from_game(&self.game);
        for side in COLORS {
            let name = player_name(&self.player(side), &self.seats[side as usize]);
            record.set_tag(if side == Color::Red { "Red" } else { "Blue" }, name);
        }
        record.set_tag("Date", record_date(self.created));
        record.set_tag("Site", site);
        let speed = self.clock.as_ref().map(|c| c.control.speed().name());
        let mode = if self.category.is_some() {
            "Rated"
        } else {
            "Casual"
        };
        let event = match (&self.arena, speed) {
            (Some(arena), _) => format!("{mode} arena {arena}"),
            (None, Some(speed)) => format!("{mode} {speed} game"),
            (None, None) => format!("{mode} game"),
        };
        record.set_tag("Event", event);
        if let Some(ratings) = &self.ratings {
            record.set_tag("RedRating", format!("{:.0}", ratings.red.before.rating));
            record.set_tag("BlueRating", format!("{:.0}", ratings.blue.before.rating));
        }
        if let Some(clock) = &self.clock {
            record.set_tag("TimeControl", clock.control.tag());
        }
        if let Some(conclusion) = self.game.conclusion() {
            record.set_tag("Ending", conclusion.ending.name());
        }
        record.to_string()
    }

    /// A refusal of the game as it stands, with its state.
    pub(super) fn conflict(&self, why: Conflict) -> GameError {
        GameError::Conflict {
            why,
            state: Box::new(self.state()),
        }
    }

    /// Takes the database's copy `fresh` in place of this one (keeping who is here and the
    /// watchers), and tells the watchers what changed: the plies from the first that
    /// differs.
    pub(super) fn replace(&mut self, fresh: Live) {
        let (old, new) = (self.game.moves(), fresh.game.moves());
        let same = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let announced = self.announced.min(same);
        let present = std::mem::take(&mut self.present);
        let updates = self.updates.clone();
        *self = Live {
            present,
            announced,
            updates,
            gone_since: self.gone_since,
            ..fresh
        };
        self.tell();
    }

    /// A new watcher: the whole state now (its JSON), and every change after it.
    pub fn watch(&self) -> (Arc<str>, broadcast::Receiver<Arc<str>>) {
        (
            message(&GameMessage::State(self.state())),
            self.updates.subscribe(),
        )
    }

    /// Tells every watcher what changed since they were last told, and returns the new
    /// state.
    pub(super) fn tell(&mut self) -> GameState {
        let state = self.state();
        // No watcher is no error; with none the message is not even written (most moves).
        if self.updates.receiver_count() > 0 {
            let _ = self
                .updates
                .send(message(&GameMessage::Change(self.change(&state))));
        }
        self.announced = state.plies;
        state
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
            players: state.players.clone(),
            invitation: state.invitation,
            clock: state.clock.clone(),
            accuracy: state.accuracy,
            ratings: state.ratings,
        }
    }

    /// The edit that stores the change decided on the draft, on this copy's version.
    pub(super) fn edit(&self, change: &Change) -> Edit {
        let game = self.draft.seated.game();
        let stored = match change {
            Change::Played { first, moves } => store::StoredChange::Append {
                first: *first,
                moves: move_texts(moves),
            },
            Change::TakenBack { keep, .. } => store::StoredChange::Truncate { keep: *keep },
            Change::Declared => match declared_end(game) {
                Some((termination, result)) => store::StoredChange::End {
                    termination,
                    result,
                },
                // Never: a declaration leaves a declared end.
                None => store::StoredChange::Requests,
            },
            Change::Asked(_) => store::StoredChange::Requests,
        };
        Edit {
            id: self.id.clone(),
            version: self.version,
            change: stored,
            requests: change.requests_after(),
            outcome: game.result_token(),
            clock: stored_clock(self.draft.clock.as_ref(), game),
            at_ms: self.time.now_ms(),
        }
    }

    /// Once the database has stored `change`, the draft it was decided on becomes the game
    /// (the old game's memory left to the next draft), and the watchers are told.
    pub(super) fn commit(&mut self, change: &Change) -> GameState {
        std::mem::swap(&mut self.game, self.draft.seated.game_mut());
        std::mem::swap(&mut self.clock, &mut self.draft.clock);
        self.requests = change.requests_after();
        self.version += 1;
        self.tell()
    }

    /// A side's page connected here (`joined`) or left: watchers are told who is here.
    pub(super) fn presence(&mut self, side: Color, joined: bool) -> GameState {
        self.present.here_changed(side, joined);
        self.note_gone();
        self.tell()
    }

    /// What another instance told of the pages it has open on this game.
    pub(super) fn presence_elsewhere(&mut self, instance: &str, counts: [u32; 2]) -> GameState {
        self.present.told(instance, counts);
        self.note_gone();
        self.tell()
    }

    /// Forgets what stopped instances told, telling the watchers if that changes who is
    /// here.
    pub(super) fn expire_presence(&mut self) {
        if self.present.expire() {
            self.note_gone();
            self.tell();
        }
    }
}

/// Clocks as stored, in `game`: with the deadline the server keeps.
pub(super) fn stored_clock(clock: Option<&Clock>, game: &Game) -> StoredClock {
    let turn = game.position().turn();
    StoredClock {
        clocks: clock.cloned(),
        deadline_ms: clock.and_then(|c| c.deadline_ms(turn)),
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
pub(super) fn move_texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// An end declared off the board, as stored: how, and the result.
pub(super) fn declared_end(game: &lgame::Game) -> Option<(Termination, ResultToken)> {
    let end = game.conclusion()?;
    match end.ending {
        lgame::game::Ending::Declared(t) => Some((t, end.token())),
        _ => None,
    }
}

/// A player's name in a record: an account's username, `Anonymous` for a person without
/// one, the computer and its level, `(deleted)` for an account since closed, `?` for a seat
/// nobody has taken.
fn player_name(player: &Player, seat: &str) -> String {
    match (player.kind, &player.name) {
        (PlayerKind::User | PlayerKind::Bot, Some(name)) => name.clone(),
        (PlayerKind::Computer, _) => format!("computer ({seat})"),
        (PlayerKind::Deleted, _) => "(deleted)".to_string(),
        (PlayerKind::Open, _) => "?".to_string(),
        _ => "Anonymous".to_string(),
    }
}

/// A record's `Date`: `YYYY.MM.DD` (as PGN writes it) of a Unix time in seconds, in UTC.
fn record_date(unix_s: i64) -> String {
    // Days to a civil date (Howard Hinnant's algorithm), so that no date crate is needed.
    let days = unix_s.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod record_tests {
    use super::record_date;

    #[test]
    fn record_dates_are_the_utc_calendar_day() {
        assert_eq!(record_date(0), "1970.01.01");
        assert_eq!(record_date(951_782_400), "2000.02.29");
        assert_eq!(record_date(1_796_515_199), "2026.12.05");
        assert_eq!(record_date(1_796_515_200), "2026.12.06");
        assert_eq!(record_date(-86_400), "1969.12.31");
    }
}
