//! Every accepted move survives the server being killed; a stopped server restarts on its
//! database with every game as it was.

mod serve_support;

use serde_json::{json, Value};
use serve_support::{a_legal_move, Created, Server, TempDir};

/// Plays `count` moves in a game, each side's person in turn.
fn play_some(server: &Server, game: &Created, count: usize, pick: usize) -> Value {
    let mut state = server.state(&game.id);
    for i in 0..count {
        if state["over"] == true {
            break;
        }
        let ply = state["plies"].as_u64().unwrap();
        let reply = server.play(
            &game.id,
            game.token_for(&state),
            ply + 1,
            &a_legal_move(&state, pick + i * 7),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    state
}

#[test]
fn a_killed_server_loses_no_move_and_play_continues() {
    let dir = TempDir::new("crash");
    let server = Server::start(&dir.db(), &[]);
    let mut games = Vec::new();
    for (i, spec) in [
        json!({ "red": "human", "blue": "perfect" }),
        json!({ "red": "intermediate", "blue": "human", "setup": "kit" }),
        json!({ "red": "human", "blue": "human", "repetition": 0, "turn_limit": 40 }),
        json!({ "red": "human", "blue": "human", "variant": "misere" }),
        json!({ "red": "human", "blue": "beginner:40", "variant": "neutrals=1" }),
    ]
    .into_iter()
    .enumerate()
    {
        let game = server.create(spec);
        play_some(&server, &game, 3 + i, i);
        games.push(game);
    }
    // A standing draw offer and a resignation are stored too.
    let friends = &games[2];
    let offer = server.post(
        &format!("/api/games/{}/draw", friends.id),
        &json!({ "token": friends.red.as_ref().unwrap() }),
    );
    assert_eq!(offer.status, 200);
    let resigned = server.post(
        &format!("/api/games/{}/resign", games[3].id),
        &json!({ "token": games[3].blue.as_ref().unwrap() }),
    );
    assert_eq!(resigned.status, 200);
    let before: Vec<Value> = games.iter().map(|g| server.state(&g.id)).collect();

    server.kill(); // SIGKILL, straight after the last answer
    let server = Server::start(&dir.db(), &[]);
    for (game, before) in games.iter().zip(&before) {
        assert_eq!(
            &server.state(&game.id),
            before,
            "game {} as it was",
            game.id
        );
    }
    // Play goes on, with the same tokens.
    let after = play_some(&server, &games[0], 2, 1);
    assert!(after["plies"].as_u64() > before[0]["plies"].as_u64() || after["over"] == true);
    let accept = server.post(
        &format!("/api/games/{}/draw", friends.id),
        &json!({ "token": friends.blue.as_ref().unwrap() }),
    );
    assert_eq!(accept.status, 200, "{}", accept.body);
    assert_eq!(accept.body["ending"], "agreement");

    // A graceful stop (SIGTERM), even with a spectator connected, keeps it all as well.
    let states: Vec<Value> = games.iter().map(|g| server.state(&g.id)).collect();
    let mut spectator = server.watch(&games[0].id);
    assert_eq!(spectator.next(), states[0]);
    let status = server.terminate();
    assert!(status.success(), "{status}");
    let server = Server::start(&dir.db(), &[]);
    for (game, state) in games.iter().zip(&states) {
        assert_eq!(&server.state(&game.id), state);
    }
}
