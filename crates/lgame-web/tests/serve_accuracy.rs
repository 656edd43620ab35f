//! A finished game's accuracy in its state (issue #25, item 6): none while the game goes on,
//! each side's numbers once it is over, equal to `lgame_solver::accuracy`'s, and none for a
//! variant the server does not solve.

use lgame::{Game, Move, Position, Rules};
use lgame_solver::{accuracy, Tablebase, Value as Solved};
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// Red to move wins in 9.
const RED_WINS_IN_9: &str = "..../N.BB/R.NB/RRRB r";

/// The moves of a game from the won position: Red wins, slowly once, Blue resists.
fn moves(tb: &Tablebase) -> (Game, Vec<Move>) {
    let won = Position::from_text(RED_WINS_IN_9, &Rules::classic()).unwrap();
    let mut game = Game::from_position(won).unwrap();
    while !game.is_over() {
        let moves = tb.moves(game.position()).unwrap();
        // Red's first moves are the slowest wins; the rest are the best.
        let slowest = moves.iter().rfind(|m| matches!(m.value, Solved::Win(_)));
        let mv = match (game.plies().len(), slowest) {
            (0 | 2 | 4, Some(slow)) => slow.mv,
            _ => moves[0].mv,
        };
        game.play(&mv).unwrap();
    }
    let played = game.moves();
    (game, played)
}

fn side(report: &lgame_solver::SideAccuracy) -> Value {
    json!({
        "moves": report.moves(), "scored": report.scored(), "kept": report.kept(),
        "won_moves": report.won_moves, "won_kept": report.won_kept,
        "drawn_moves": report.drawn_moves, "drawn_kept": report.drawn_kept,
        "lost_moves": report.lost_moves, "extra_plies": report.extra_plies,
        "accuracy": report.accuracy(),
    })
}

/// Plays the moves between two people; returns the state before the last move and after.
fn play_out(server: &Server, moves: &[Move]) -> (String, Value, Value) {
    let game = server.create(json!({ "red": "human", "blue": "human", "setup": RED_WINS_IN_9 }));
    let mut before_last = Value::Null;
    for (i, mv) in moves.iter().enumerate() {
        let state = server.state(&game.id);
        assert_eq!(state["over"], false);
        before_last = state.clone();
        let reply = server.play(
            &game.id,
            game.token_for(&state),
            i as u64 + 1,
            &mv.to_string(),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
    }
    (game.id.clone(), before_last, server.state(&game.id))
}

#[test]
fn a_finished_game_shows_the_libraries_accuracy_and_an_unfinished_one_none() {
    let tb = Tablebase::solve(&Rules::classic());
    let (game, moves) = moves(&tb);
    let expected = accuracy(&tb, &game).unwrap();
    assert!(
        expected.red.extra_plies > 0 && expected.red.accuracy() == Some(1.0),
        "{expected:?}"
    );

    let (_dir, server) = Server::in_temp_dir("accuracy");
    let (id, before_last, finished) = play_out(&server, &moves);
    assert!(before_last["accuracy"].is_null(), "{before_last}");
    assert_eq!(finished["over"], true);
    assert_eq!(
        finished["accuracy"],
        json!({ "red": side(&expected.red), "blue": side(&expected.blue) })
    );
    // A watcher of the finished game gets it too.
    let mut watcher = server.watch(&id);
    assert_eq!(watcher.next()["accuracy"], finished["accuracy"]);
    watcher.close();
}

#[test]
fn a_variant_the_server_does_not_solve_has_no_accuracy() {
    let tb = Tablebase::solve(&Rules::classic());
    let (_, moves) = moves(&tb);
    let dir = TempDir::new("accuracy-small");
    let server = Server::with(dir.db(), |config| config.max_table_states = 100);
    let (_, _, finished) = play_out(&server, &moves);
    assert_eq!(finished["over"], true);
    assert!(finished["accuracy"].is_null(), "{finished}");
}
