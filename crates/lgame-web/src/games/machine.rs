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
    Holder {
        holder: crate::store::Holder,
        side: Option<Color>,
    },
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
mod tests;
