//! The game's state machine: every command a game takes, who may give it, in which state it
//! is allowed, and what it does — the change it makes on the game's draft (stored, then
//! swapped in, by [`super::Games::run`]) and so what it does to standing offers
//! ([`Change::requests_after`]). Each match names every command: a new one is handled or
//! does not compile.
//!
//! | command | from | allowed when | makes |
//! |---|---|---|---|
//! | `Move` | the side to move | not over, for the next ply, in time | the move and the computer's replies |
//! | `Undo` | a side | against the computer: the person has a move to take back and the game did not end by a declaration; between people: not over, no other request stands, the side has moved | plies taken back / a request to take back |
//! | `AcceptUndo`, `DeclineUndo` | the other side | not over, the other's request stands | plies taken back / the request withdrawn |
//! | `OfferDraw` | a side | not over | an offer; a draw when the other side's offer stands or the computer judges the position drawn |
//! | `DeclineDraw` | the other side | not over, the other's offer stands | the offer withdrawn |
//! | `GiveTime` | a side | not over, a clock | 15 s (a day by correspondence) more for the other side |
//! | `Claim` | a side | not over, a real-time clock, the other side to move and gone for 15 s | a win or a draw (`abandoned`) |
//! | `Flag` | the server | a clock's deadline passed | a loss on `time`, or the game `aborted` before both first moves |
//! | `Resign` | a side | not over | the end |
//! | `Rematch` | a side | over | a new game (`rematch.rs`) |
//! | `ComputerPly` | the server | both sides computers | the next ply, or the declared end |
//! | `Present`, `Absent` | a side's page | always | who is here (not stored) |
//! | `CatchUp`, `PresenceElsewhere`, `RetellPresence` | the server | always | the copy brought up to the database; who is here elsewhere |
//!
//! A move, an undo or an end withdraws a standing draw offer and a request to take back.
//! Every change stored is also a step of the clocks ([`crate::clock::Clock::step`]): the side that was to
//! move is charged its time.

use lgame::game::{Ending, GameResult, ResultToken, Termination};
use lgame::{Color, Move};
use lgame_players::seated::Seat;
use lgame_players::Tablebases;

use super::live::{declared_end, Change, Live};
use super::{Conflict, GameError, Requests};
use crate::clock::{Act, Due, Step, GONE_MS};

/// Every change a game takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A person's move for ply `ply` (1 for the first), then the computer's replies;
    /// `think_ms` is the client's own measure of the time the move took the person (from
    /// the position shown to the move sent): the rest of the server's count is lag, forgiven
    /// out of a quota (`clock.rs`).
    Move {
        ply: u64,
        mv: Move,
        think_ms: Option<u64>,
    },
    /// Against the computer: take back to the person's previous turn. Between people: ask
    /// the other to let the side take back its last move.
    Undo,
    /// Let the other side take back its last move, as it asked.
    AcceptUndo,
    /// Refuse the other side's request to take back.
    DeclineUndo,
    /// Offer a draw, or accept the other side's standing offer; a computer accepts when its
    /// level judges the position drawn, and declines otherwise.
    OfferDraw,
    /// Refuse the other side's standing draw offer.
    DeclineDraw,
    /// Give the other side more time (15 s in real time, a day by correspondence).
    GiveTime,
    /// Claim a real-time game whose opponent has gone (no page open for 15 s on their
    /// turn): a win, or a draw.
    Claim { draw: bool },
    /// Resign.
    Resign,
    /// A finished game's rematch, colours swapped (`rematch.rs`).
    Rematch,
    /// In a game between two computers: the next ply (`autoplay.rs`).
    ComputerPly,
    /// A clock's deadline has passed (`flags.rs`): the side to move loses on time, or the
    /// game is aborted before both first moves; nothing if it is not due.
    Flag,
    /// A page of the side opened on the game (a WebSocket with the side's token).
    Present,
    /// That page closed.
    Absent,
    /// Another instance changed the game (`peers.rs`): the copy in memory is brought up to
    /// the database's if it is behind `version` (or, with none, if it differs).
    CatchUp { version: Option<i64> },
    /// What another instance told of the pages it has open on the game.
    PresenceElsewhere { instance: String, counts: [u32; 2] },
    /// Tell the other instances again of the pages open here, and forget what stopped
    /// instances told.
    RetellPresence,
}

/// Who gives a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Who {
    /// A side's secret token (the API's `token`).
    Token(String),
    /// A person by the seats they hold (`store/accounts.rs`): their session's account or
    /// their browser's anonymous identity; `side` picks one when they hold both.
    Holder { holder: String, side: Option<Color> },
    /// Someone with no token, no session and no anonymous identity: plays no side.
    Nobody,
    /// The server itself: its computers' games, the other instances' news.
    Server,
}

/// What a command decided, on the draft: nothing in the game has changed yet.
#[derive(Debug)]
pub(super) enum Decision {
    /// A change to store: the draft holds the game as it makes it, swapped in once stored.
    Store(Change),
    /// Nothing to store: the state as it stands answers (on a database other instances
    /// share, an answer of a copy that may be stale is made again on the database's copy).
    Answer,
    /// Nothing to store, and the copy's staleness does not matter (who is here).
    Told,
}

impl Command {
    /// Whether the command is given by a side (with a token), rather than the server.
    pub fn by_a_side(&self) -> bool {
        match self {
            Command::Move { .. }
            | Command::Undo
            | Command::AcceptUndo
            | Command::DeclineUndo
            | Command::OfferDraw
            | Command::DeclineDraw
            | Command::GiveTime
            | Command::Claim { .. }
            | Command::Resign
            | Command::Rematch
            | Command::Present
            | Command::Absent => true,
            Command::ComputerPly
            | Command::Flag
            | Command::CatchUp { .. }
            | Command::PresenceElsewhere { .. }
            | Command::RetellPresence => false,
        }
    }

    /// Whether deciding it may take long (a computer's reply, a table to solve): then it is
    /// decided on a blocking thread, else on the async task.
    pub(super) fn may_block(&self, live: &Live, tables: &Tablebases) -> bool {
        match self {
            Command::Move { .. } | Command::OfferDraw | Command::ComputerPly => {
                !live.replies_quick(tables)
            }
            Command::Undo
            | Command::AcceptUndo
            | Command::DeclineUndo
            | Command::DeclineDraw
            | Command::GiveTime
            | Command::Claim { .. }
            | Command::Resign
            | Command::Rematch
            | Command::Flag
            | Command::Present
            | Command::Absent
            | Command::CatchUp { .. }
            | Command::PresenceElsewhere { .. }
            | Command::RetellPresence => false,
        }
    }
}

impl Live {
    /// Decides a command of `side` (`None`: the server's) on a fresh draft of the game as it
    /// stands: a change made on the draft, its clocks stepped, or a refusal. Either way the
    /// game itself is as it was; only who is here changes at once (it is never stored).
    pub(super) fn decide(
        &mut self,
        side: Option<Color>,
        command: &Command,
        tables: &Tablebases,
    ) -> Result<Decision, GameError> {
        self.redraft();
        let now = self.time.now_ms();
        let turn = self.game.position().turn();
        let decision = match side {
            None => self.decide_for_server(command, now)?,
            Some(side) => self.decide_for(side, command, tables, now)?,
        };
        if let Decision::Store(change) = &decision {
            let game = self.draft.seated.game();
            let act = match (change, command) {
                (Change::Played { .. }, Command::Move { think_ms, .. }) => Act::Move {
                    think_ms: *think_ms,
                },
                // A computer's ply: no thinking time told, no lag forgiven.
                (Change::Played { .. }, _) => Act::Move { think_ms: None },
                (Change::TakenBack { .. } | Change::Declared | Change::Asked(_), _) => Act::Other,
            };
            let step = Step {
                turn,
                act,
                at_ms: now,
                plies: game.plies().len(),
                over: game.is_over(),
            };
            self.draft.clock = self.draft.clock.as_ref().map(|c| c.step(step).clock);
        }
        Ok(decision)
    }

    /// What is due on the game's clock now, if anything: a flag, an abort.
    pub fn due(&self) -> Option<Due> {
        let turn = self.game.position().turn();
        let clock = self.clock.as_ref()?;
        clock.due(turn, self.time.now_ms())
    }

    fn decide_for(
        &mut self,
        side: Color,
        command: &Command,
        tables: &Tablebases,
        now: i64,
    ) -> Result<Decision, GameError> {
        match command {
            Command::Move { ply, mv, think_ms } => self.play(side, *ply, mv, *think_ms, now),
            Command::Undo if self.human(!side) => self.ask_undo(side),
            Command::Undo => self.take_back(),
            Command::AcceptUndo => self.answer_undo(side, true),
            Command::DeclineUndo => self.answer_undo(side, false),
            Command::OfferDraw => self.offer_draw(side, tables),
            Command::DeclineDraw => {
                self.playing()?;
                if self.requests.draw_offer != Some(!side) {
                    return Err(self.conflict(Conflict::NoDrawOffer));
                }
                Ok(Decision::Store(Change::Asked(Requests {
                    draw_offer: None,
                    ..self.requests
                })))
            }
            Command::GiveTime => {
                self.playing()?;
                match &mut self.draft.clock {
                    Some(clock) => clock.give(!side),
                    None => return Err(self.conflict(Conflict::NoClock)),
                }
                Ok(Decision::Store(Change::Asked(self.requests)))
            }
            Command::Claim { draw } => self.claim(side, *draw, now),
            Command::Resign => {
                self.playing()?;
                let resigned = self.draft.seated.game_mut().resign(side);
                resigned.map_err(|e| self.conflict(Conflict::Refused(e)))?;
                Ok(Decision::Store(Change::Declared))
            }
            Command::Present | Command::Absent => {
                self.presence(side, *command == Command::Present);
                Ok(Decision::Told)
            }
            // The server's; `Rematch` and `CatchUp` are the runner's (`games.rs`).
            Command::ComputerPly
            | Command::Flag
            | Command::CatchUp { .. }
            | Command::PresenceElsewhere { .. }
            | Command::RetellPresence
            | Command::Rematch => Err(GameError::NotASide),
        }
    }

    fn decide_for_server(&mut self, command: &Command, now: i64) -> Result<Decision, GameError> {
        match command {
            Command::Flag => {
                let turn = self.draft.seated.game().position().turn();
                let due = self.draft.clock.as_ref().and_then(|c| c.due(turn, now));
                let (termination, result) = match due {
                    None => return Ok(Decision::Answer),
                    Some(Due::Abort) => (Termination::Aborted, ResultToken::Unfinished),
                    Some(Due::Flag(side)) => (
                        Termination::Time,
                        ResultToken::Finished(GameResult::win_for(!side)),
                    ),
                };
                let declared = self.draft.seated.game_mut().declare(termination, result);
                declared.map_err(|e| self.conflict(Conflict::Refused(e)))?;
                Ok(Decision::Store(Change::Declared))
            }
            Command::ComputerPly if self.plays_itself() => {
                let first = self.draft.seated.game().plies().len() + 1;
                match self.draft.seated.play_computer() {
                    Some(mv) => Ok(Decision::Store(Change::Played {
                        first,
                        moves: vec![mv],
                    })),
                    // A forfeit (never a built-in level): its declared end is stored.
                    None if declared_end(self.draft.seated.game()).is_some() => {
                        Ok(Decision::Store(Change::Declared))
                    }
                    None => Ok(Decision::Answer),
                }
            }
            Command::ComputerPly => Ok(Decision::Answer),
            Command::PresenceElsewhere { instance, counts } => {
                self.presence_elsewhere(instance, *counts);
                Ok(Decision::Told)
            }
            Command::RetellPresence => {
                self.expire_presence();
                Ok(Decision::Told)
            }
            // A side's, which needs a side; `CatchUp` is the runner's (`games.rs`).
            Command::Move { .. }
            | Command::Undo
            | Command::AcceptUndo
            | Command::DeclineUndo
            | Command::OfferDraw
            | Command::DeclineDraw
            | Command::GiveTime
            | Command::Claim { .. }
            | Command::Resign
            | Command::Rematch
            | Command::Present
            | Command::Absent
            | Command::CatchUp { .. } => Err(GameError::NotASide),
        }
    }

    /// Refuses anything but a finished game's rematch once the game is over.
    fn playing(&self) -> Result<(), GameError> {
        match self.draft.seated.game().conclusion() {
            Some(end) => Err(self.conflict(Conflict::Over(end))),
            None => Ok(()),
        }
    }

    fn play(
        &mut self,
        side: Color,
        ply: u64,
        mv: &Move,
        think_ms: Option<u64>,
        now: i64,
    ) -> Result<Decision, GameError> {
        self.playing()?;
        let played = self.draft.seated.game().plies().len();
        if ply != played as u64 + 1 {
            return Err(self.conflict(Conflict::Stale { ply, played }));
        }
        let turn = self.draft.seated.game().position().turn();
        if turn != side {
            return Err(self.conflict(Conflict::NotYourTurn { turn, side }));
        }
        if self
            .clock
            .as_ref()
            .is_some_and(|c| c.too_late(side, think_ms, now))
        {
            return Err(self.conflict(Conflict::OutOfTime(side)));
        }
        let before = *self.draft.seated.game().position();
        match self.draft.seated.play_human(mv) {
            Ok(_) => {}
            Err(lgame::game::GameError::Illegal(reason)) => {
                return Err(GameError::Illegal {
                    input: mv.to_string(),
                    message: format!("move '{mv}' is illegal in {before}: {reason}"),
                    reason,
                })
            }
            Err(e) => return Err(self.conflict(Conflict::Refused(e))),
        }
        let mut moves = vec![*mv];
        while let Some(reply) = self.draft.seated.play_computer() {
            moves.push(reply);
        }
        let first = played + 1;
        Ok(Decision::Store(Change::Played { first, moves }))
    }

    /// Against the computer: back to the person's previous turn.
    fn take_back(&mut self) -> Result<Decision, GameError> {
        if let Some(end) = self.draft.seated.game().conclusion() {
            if matches!(end.ending, Ending::Declared(_)) {
                return Err(self.conflict(Conflict::Over(end)));
            }
        }
        let taken = self.draft.seated.undo();
        if taken == 0 || !self.draft.seated.waiting_for_human() {
            // Back before the person's first move.
            return Err(self.conflict(Conflict::NothingToUndo));
        }
        let keep = self.draft.seated.game().plies().len();
        Ok(Decision::Store(Change::TakenBack { keep, taken }))
    }

    /// Between two people: `side` asks to take back its last move (and the reply to it, if
    /// the other has replied). Nothing is taken back until the other accepts.
    fn ask_undo(&mut self, side: Color) -> Result<Decision, GameError> {
        self.playing()?;
        match self.requests.undo_request {
            Some(asking) if asking == side => return Ok(Decision::Answer),
            Some(asking) => return Err(self.conflict(Conflict::UndoAsked(asking))),
            None => {}
        }
        if self.undo_depth(side).is_none() {
            return Err(self.conflict(Conflict::NothingToUndo));
        }
        Ok(Decision::Store(Change::Asked(Requests {
            undo_request: Some(side),
            ..self.requests
        })))
    }

    /// How many plies take back `side`'s last move: 1 if it was the last ply, 2 if the
    /// other has replied; `None` when the side has not moved.
    fn undo_depth(&self, side: Color) -> Option<usize> {
        let plies = self.draft.seated.game().plies().len();
        let depth = if self.draft.seated.game().position().turn() == side {
            2
        } else {
            1
        };
        (plies >= depth).then_some(depth)
    }

    /// `side` accepts or declines the other side's request to take back.
    fn answer_undo(&mut self, side: Color, accept: bool) -> Result<Decision, GameError> {
        self.playing()?;
        let asking = match self.requests.undo_request {
            None => return Err(self.conflict(Conflict::NoUndoRequest)),
            Some(asking) if asking == side => return Err(self.conflict(Conflict::OwnUndoRequest)),
            Some(asking) => asking,
        };
        if !accept {
            return Ok(Decision::Store(Change::Asked(Requests {
                undo_request: None,
                ..self.requests
            })));
        }
        let Some(taken) = self.undo_depth(asking) else {
            return Err(self.conflict(Conflict::NothingToUndo));
        };
        for _ in 0..taken {
            self.draft.seated.game_mut().undo();
        }
        let keep = self.draft.seated.game().plies().len();
        Ok(Decision::Store(Change::TakenBack { keep, taken }))
    }

    /// `side` claims a real-time game whose opponent has gone: no page of theirs open for
    /// [`GONE_MS`], on their turn; a win, or a `draw`, recorded as `abandoned`.
    fn claim(&mut self, side: Color, draw: bool, now: i64) -> Result<Decision, GameError> {
        self.playing()?;
        let real_time = self
            .draft
            .clock
            .as_ref()
            .is_some_and(|c| c.control.real_time());
        if !real_time {
            return Err(self.conflict(Conflict::NoClock));
        }
        let other = !side;
        let turn = self.draft.seated.game().position().turn();
        let gone = self.gone_since(other).is_some_and(|t| now - t >= GONE_MS);
        if turn != other || !gone || !self.human(other) {
            return Err(self.conflict(Conflict::OpponentHere(other)));
        }
        let result = match draw {
            true => ResultToken::Finished(GameResult::Draw),
            false => ResultToken::Finished(GameResult::win_for(side)),
        };
        let declared = self.draft.seated.game_mut();
        let declared = declared.declare(Termination::Abandoned, result);
        declared.map_err(|e| self.conflict(Conflict::Refused(e)))?;
        Ok(Decision::Store(Change::Declared))
    }

    /// Offers a draw, or accepts the opponent's standing offer (the game is then drawn). A
    /// computer opponent accepts at once when its level judges the position drawn, and
    /// declines otherwise.
    fn offer_draw(&mut self, side: Color, tables: &Tablebases) -> Result<Decision, GameError> {
        self.playing()?;
        let other = !side;
        if self.human(other) {
            match self.requests.draw_offer {
                // The other side offered: agreed.
                Some(offering) if offering == other => {}
                // The offer stands already.
                Some(_) => return Ok(Decision::Answer),
                None => {
                    return Ok(Decision::Store(Change::Asked(Requests {
                        draw_offer: Some(side),
                        ..self.requests
                    })))
                }
            }
        } else {
            let accepts = match self.draft.seated.seat(other) {
                Seat::Computer(spec) => spec.level.accepts_draw(self.draft.seated.game(), tables),
                _ => false,
            };
            if !accepts {
                let seat = self.seats[other as usize].clone();
                return Err(self.conflict(Conflict::DrawDeclined { side: other, seat }));
            }
        }
        let drawn = self.draft.seated.game_mut().agree_draw();
        drawn.map_err(|e| self.conflict(Conflict::Refused(e)))?;
        Ok(Decision::Store(Change::Declared))
    }
}

#[cfg(test)]
mod tests {
    //! The state machine alone, on games in memory: each change a command decides is kept
    //! as if the database had stored it.

    use std::sync::Arc;

    use lgame::{Game, Position, Rules};
    use lgame_players::seated::SeatedGame;
    use lgame_solver::Value;

    use super::*;
    use crate::store::GameRow;

    const ID: &str = "0123456789abcdef";

    fn tables() -> Arc<Tablebases> {
        static SHARED: std::sync::OnceLock<Arc<Tablebases>> = std::sync::OnceLock::new();
        SHARED.get_or_init(Default::default).clone()
    }

    /// A classic game of `red` against `blue` (`human` or a level) from `start`.
    fn live(red: &str, blue: &str, start: Option<Position>) -> Live {
        let game = match start {
            Some(position) => Game::from_position(position).unwrap(),
            None => Game::new(Rules::classic()),
        };
        seat(red, blue, game)
    }

    /// `game` in memory, `red` against `blue`.
    fn seat(red: &str, blue: &str, game: Game) -> Live {
        let seats = [red.parse().unwrap(), blue.parse().unwrap()];
        let seated = SeatedGame::new(game, seats, 7, tables());
        let row = GameRow {
            id: ID.into(),
            header: String::new(),
            seats: [red.into(), blue.into()],
            token_hashes: [None, None],
            seed: 7,
            end: None,
            requests: Requests::default(),
            rematch: None,
            rematch_of: None,
            holders: [None, None],
            invites: [None, None],
            names: [None, None],
            bots: [false, false],
            arena: None,
            created: None,
            variant: None,
            category: None,
            version: 0,
            clock: Default::default(),
        };
        Live::new(ID.into(), seated, &row, 0, Default::default(), None).unwrap()
    }

    /// A person's move for `ply`, with no thinking time told.
    fn moving(ply: u64, mv: Move) -> Command {
        Command::Move {
            ply,
            mv,
            think_ms: None,
        }
    }

    /// Decides a command and keeps what it changed, as a stored change is kept.
    fn run(live: &mut Live, side: Option<Color>, command: &Command) -> Result<(), GameError> {
        match live.decide(side, command, &tables())? {
            Decision::Store(change) => {
                live.commit(&change);
                Ok(())
            }
            Decision::Answer | Decision::Told => Ok(()),
        }
    }

    /// The refusal's kind, as the API names it (docs/api.md, "Refusals").
    fn refusal(e: GameError) -> &'static str {
        crate::error::ApiError::from(e).body.kind
    }

    /// A legal move that does not end the game; in a finished game, any L move (the game
    /// refuses it before the rules could).
    fn quiet_move(live: &Live) -> Move {
        let position = *live.game.position();
        position
            .legal_moves()
            .into_iter()
            .find(|mv| position.play_unchecked(mv).outcome().is_none())
            .unwrap_or_else(|| "A1,A2,A3,B3".parse().unwrap())
    }

    /// A classic position, Red to move, whose value for Red is `value`.
    fn position_of(value: Value) -> Position {
        let rules = Rules::classic();
        let table = tables().get(&rules);
        lgame::position::all_positions(&rules)
            .into_iter()
            .find(|p| p.turn() == Color::Red && table.value(p) == Ok(value))
            .unwrap()
    }

    /// Now, as the games of these tests read it.
    fn game_now() -> i64 {
        crate::clock::TimeSource::system().now_ms()
    }

    /// The states a game can be in, each with how to reach it.
    fn states() -> Vec<(&'static str, Live)> {
        use Color::{Blue, Red};
        let mut states = Vec::new();
        states.push(("friends, the start", live("human", "human", None)));
        let mut moved = live("human", "human", None);
        let mv = quiet_move(&moved);
        run(&mut moved, Some(Red), &moving(1, mv)).unwrap();
        run(&mut moved, Some(Red), &Command::Undo).unwrap();
        states.push(("friends, Red asks to take back", moved));
        let mut offered = live("human", "human", None);
        run(&mut offered, Some(Red), &Command::OfferDraw).unwrap();
        states.push(("friends, Red offers a draw", offered));
        let mut resigned = live("human", "human", None);
        run(&mut resigned, Some(Blue), &Command::Resign).unwrap();
        states.push(("friends, Blue resigned", resigned));
        states.push(("against perfect, the start", live("human", "perfect", None)));
        let mut lost = live("human", "perfect", Some(position_of(Value::Win(1))));
        let win = {
            let position = *lost.game.position();
            let moves = position.legal_moves();
            *moves
                .iter()
                .find(|mv| position.play_unchecked(mv).outcome().is_some())
                .unwrap()
        };
        run(&mut lost, Some(Red), &moving(1, win)).unwrap();
        states.push(("against perfect, Blue trapped", lost));
        let mut resigned = live("human", "perfect", None);
        run(&mut resigned, Some(Red), &Command::Resign).unwrap();
        states.push(("against perfect, Red resigned", resigned));
        let winning = live("human", "perfect", Some(position_of(Value::Loss(2))));
        states.push(("against perfect, Blue wins", winning));
        states.push(("two computers", live("random", "perfect", None)));
        // Timed between friends: both first moves made, Red to move, with time left; and
        // the same, Red's time run out a minute ago.
        let timed = |since_ms: i64| {
            let mut game = live("human", "human", None);
            let control = crate::clock::TimeControl::RealTime {
                initial_s: 60,
                increment_s: 0,
            };
            let mut clock = crate::clock::Clock::new(control, since_ms);
            clock.started = true;
            game.clock = Some(clock);
            game
        };
        states.push(("timed friends", timed(game_now())));
        states.push(("timed friends, out of time", timed(game_now() - 120_000)));
        states
    }

    #[test]
    fn every_command_is_refused_in_each_state_where_it_is_not_allowed() {
        use Color::{Blue, Red};
        fn ply(live: &Live, ply: u64) -> Command {
            Command::Move {
                ply,
                mv: quiet_move(live),
                think_ms: None,
            }
        }
        fn ply1(live: &Live) -> Command {
            ply(live, 1)
        }
        type Case = (
            &'static str,
            Option<Color>,
            fn(&Live) -> Command,
            &'static str,
        );
        let allowed = "allowed";
        let cases: &[Case] = &[
            (
                "friends, the start",
                Some(Blue),
                |l| ply(l, 1),
                "not_your_turn",
            ),
            ("friends, the start", Some(Red), |l| ply(l, 3), "stale_move"),
            ("friends, the start", Some(Red), |l| ply(l, 1), allowed),
            (
                "friends, the start",
                Some(Red),
                |_| Command::Undo,
                "nothing_to_undo",
            ),
            (
                "friends, the start",
                Some(Blue),
                |_| Command::AcceptUndo,
                "no_undo_request",
            ),
            (
                "friends, the start",
                Some(Blue),
                |_| Command::DeclineUndo,
                "no_undo_request",
            ),
            (
                "friends, the start",
                Some(Red),
                |_| Command::OfferDraw,
                allowed,
            ),
            (
                "friends, the start",
                Some(Red),
                |_| Command::Resign,
                allowed,
            ),
            (
                "friends, the start",
                Some(Red),
                |_| Command::ComputerPly,
                "not_a_side",
            ),
            ("friends, the start", None, |l| ply(l, 1), "not_a_side"),
            (
                "friends, the start",
                None,
                |_| Command::Resign,
                "not_a_side",
            ),
            (
                "friends, the start",
                None,
                |_| Command::ComputerPly,
                allowed,
            ),
            (
                "friends, the start",
                Some(Red),
                |_| Command::Present,
                allowed,
            ),
            (
                "friends, Red asks to take back",
                Some(Red),
                |_| Command::Undo,
                allowed,
            ),
            (
                "friends, the start",
                Some(Blue),
                |_| Command::DeclineDraw,
                "no_draw_offer",
            ),
            (
                "friends, the start",
                Some(Red),
                |_| Command::GiveTime,
                "no_clock",
            ),
            (
                "friends, the start",
                Some(Red),
                |_| Command::Claim { draw: false },
                "no_clock",
            ),
            ("friends, the start", None, |_| Command::Flag, allowed),
            (
                "friends, the start",
                Some(Red),
                |_| Command::Flag,
                "not_a_side",
            ),
            (
                "friends, Red offers a draw",
                Some(Blue),
                |_| Command::DeclineDraw,
                allowed,
            ),
            (
                "friends, Red offers a draw",
                Some(Red),
                |_| Command::DeclineDraw,
                "no_draw_offer",
            ),
            (
                "friends, Blue resigned",
                Some(Red),
                |_| Command::GiveTime,
                "game_over",
            ),
            (
                "friends, Blue resigned",
                Some(Blue),
                |_| Command::DeclineDraw,
                "game_over",
            ),
            ("timed friends", Some(Red), |_| Command::GiveTime, allowed),
            ("timed friends", Some(Blue), |_| Command::GiveTime, allowed),
            (
                "timed friends",
                Some(Blue),
                |_| Command::Claim { draw: false },
                "opponent_here",
            ),
            (
                "timed friends",
                Some(Red),
                |_| Command::Claim { draw: true },
                "opponent_here",
            ),
            ("timed friends", Some(Red), |l| ply(l, 1), allowed),
            (
                "timed friends, out of time",
                Some(Red),
                |l| ply(l, 1),
                "out_of_time",
            ),
            (
                "timed friends, out of time",
                None,
                |_| Command::Flag,
                allowed,
            ),
            (
                "timed friends, out of time",
                Some(Blue),
                |_| Command::GiveTime,
                allowed,
            ),
            (
                "friends, Red asks to take back",
                Some(Blue),
                |_| Command::Undo,
                "undo_asked",
            ),
            (
                "friends, Red asks to take back",
                Some(Red),
                |_| Command::AcceptUndo,
                "own_undo_request",
            ),
            (
                "friends, Red asks to take back",
                Some(Red),
                |_| Command::DeclineUndo,
                "own_undo_request",
            ),
            (
                "friends, Red asks to take back",
                Some(Blue),
                |_| Command::AcceptUndo,
                allowed,
            ),
            (
                "friends, Red asks to take back",
                Some(Blue),
                |_| Command::DeclineUndo,
                allowed,
            ),
            (
                "friends, Red asks to take back",
                Some(Red),
                |l| ply(l, 2),
                "not_your_turn",
            ),
            (
                "friends, Red offers a draw",
                Some(Red),
                |_| Command::OfferDraw,
                allowed,
            ),
            (
                "friends, Red offers a draw",
                Some(Blue),
                |_| Command::OfferDraw,
                allowed,
            ),
            ("friends, Blue resigned", Some(Red), ply1, "game_over"),
            (
                "friends, Blue resigned",
                Some(Red),
                |_| Command::Undo,
                "game_over",
            ),
            (
                "friends, Blue resigned",
                Some(Blue),
                |_| Command::AcceptUndo,
                "game_over",
            ),
            (
                "friends, Blue resigned",
                Some(Blue),
                |_| Command::DeclineUndo,
                "game_over",
            ),
            (
                "friends, Blue resigned",
                Some(Red),
                |_| Command::OfferDraw,
                "game_over",
            ),
            (
                "friends, Blue resigned",
                Some(Red),
                |_| Command::Resign,
                "game_over",
            ),
            (
                "against perfect, the start",
                Some(Red),
                |_| Command::Undo,
                "nothing_to_undo",
            ),
            (
                "against perfect, the start",
                Some(Red),
                |_| Command::OfferDraw,
                allowed,
            ),
            (
                "against perfect, the start",
                Some(Red),
                |_| Command::AcceptUndo,
                "no_undo_request",
            ),
            (
                "against perfect, Blue trapped",
                Some(Red),
                |l| ply(l, 2),
                "game_over",
            ),
            (
                "against perfect, Blue trapped",
                Some(Red),
                |_| Command::Undo,
                allowed,
            ),
            (
                "against perfect, Blue trapped",
                Some(Red),
                |_| Command::OfferDraw,
                "game_over",
            ),
            (
                "against perfect, Blue trapped",
                Some(Red),
                |_| Command::Resign,
                "game_over",
            ),
            (
                "against perfect, Red resigned",
                Some(Red),
                |_| Command::Undo,
                "game_over",
            ),
            (
                "against perfect, Red resigned",
                Some(Red),
                |_| Command::OfferDraw,
                "game_over",
            ),
            (
                "against perfect, Blue wins",
                Some(Red),
                |_| Command::OfferDraw,
                "draw_declined",
            ),
            (
                "against perfect, Blue wins",
                Some(Red),
                |l| ply(l, 1),
                allowed,
            ),
            ("two computers", Some(Red), |_| Command::Resign, allowed),
            ("two computers", None, |_| Command::ComputerPly, allowed),
        ];
        let states = states();
        for (state, side, command, expected) in cases {
            let (_, template) = states.iter().find(|(name, _)| name == state).unwrap();
            // Each case on a copy of the state, rebuilt the way the state was reached.
            let mut game = rebuild(template);
            let command = command(&game);
            // The clocks as stored (their view ticks with the time).
            let seen = |game: &Live| {
                let mut state = serde_json::to_value(game.state()).unwrap();
                state["clock"] = serde_json::to_value(&game.clock).unwrap();
                state
            };
            let before = seen(&game);
            let outcome = run(&mut game, *side, &command);
            let refused = outcome.is_err();
            let got = match outcome {
                Ok(()) => allowed,
                Err(e) => refusal(e),
            };
            assert_eq!(got, *expected, "{state}: {side:?} {command:?}");
            if refused {
                assert_eq!(
                    seen(&game),
                    before,
                    "{state}: a refused {command:?} leaves the game as it was"
                );
            }
        }
    }

    /// A copy of a game in memory: its game, standing requests and clocks, with new players.
    fn rebuild(template: &Live) -> Live {
        let [red, blue] = &template.seats;
        let mut copy = seat(red, blue, template.game.clone());
        copy.requests = template.requests;
        copy.clock = template.clock.clone();
        copy
    }

    #[test]
    fn a_move_an_undo_or_an_end_withdraws_a_standing_offer_and_request() {
        let standing = Requests {
            draw_offer: Some(Color::Red),
            undo_request: Some(Color::Blue),
        };
        let changes = [
            Change::Played {
                first: 1,
                moves: vec![],
            },
            Change::TakenBack { keep: 0, taken: 1 },
            Change::Declared,
        ];
        for change in changes {
            assert_eq!(change.requests_after(), Requests::default(), "{change:?}");
        }
        assert_eq!(Change::Asked(standing).requests_after(), standing);
        // Through the machine: Red offers, Blue moves, the offer is gone.
        let mut game = live("human", "human", None);
        let mv = quiet_move(&game);
        run(&mut game, Some(Color::Red), &moving(1, mv)).unwrap();
        run(&mut game, Some(Color::Red), &Command::OfferDraw).unwrap();
        assert_eq!(game.state().draw_offer, Some(Color::Red));
        // Asking to take back, and the answer, leave the other request standing.
        run(&mut game, Some(Color::Red), &Command::Undo).unwrap();
        let state = game.state();
        assert_eq!(
            (state.draw_offer, state.undo_request),
            (Some(Color::Red), Some(Color::Red))
        );
        run(&mut game, Some(Color::Blue), &Command::DeclineUndo).unwrap();
        let state = game.state();
        assert_eq!(
            (state.draw_offer, state.undo_request),
            (Some(Color::Red), None)
        );
        run(&mut game, Some(Color::Red), &Command::Undo).unwrap();
        run(&mut game, Some(Color::Blue), &Command::OfferDraw).unwrap();
        assert!(game.state().over, "Blue accepts Red's offer");
        let mut game = live("human", "human", None);
        let mv = quiet_move(&game);
        run(&mut game, Some(Color::Red), &moving(1, mv)).unwrap();
        run(&mut game, Some(Color::Red), &Command::OfferDraw).unwrap();
        let mv = quiet_move(&game);
        run(&mut game, Some(Color::Blue), &moving(2, mv)).unwrap();
        assert_eq!(game.state().draw_offer, None);
    }
}
