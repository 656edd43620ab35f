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
    Live::new(ID.into(), seated, &row, 0, Default::default(), None)
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
