//! A game's state as the page reads it: the players' presence, kept by their WebSockets
//! until the last one closes, and the position after each ply as the library replays it;
//! end to end over HTTP and WebSockets on a loopback port.

use lgame::{Position, Rules};
use lgame_test_support::http::{a_legal_move, Reply};
use lgame_test_support::library::replay;
use lgame_test_support::server::Server;
use serde_json::{json, Value};

fn present(state: &Value) -> (bool, bool) {
    (
        state["present"]["red"].as_bool().unwrap(),
        state["present"]["blue"].as_bool().unwrap(),
    )
}

#[test]
fn a_players_socket_marks_their_side_present_until_the_last_one_closes() {
    let (_dir, server) = Server::in_temp_dir("page-presence");
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    assert_eq!(present(&game.body["state"]), (false, false));
    assert_eq!(present(&server.state(&game.id)), (false, false));

    let mut spectator = server.watch_with(&game.id, None).unwrap();
    assert_eq!(
        present(&spectator.next()),
        (false, false),
        "a spectator is nobody"
    );

    // A wrong token is refused before any socket opens.
    match server.watch_with(&game.id, Some("0123456789abcdef0123456789abcdef")) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        Err(e) => panic!("expected 403, got {e}"),
        Ok(_) => panic!("a wrong token opened a socket"),
    }

    let mut blue_page = server.watch_with(&game.id, Some(&blue)).unwrap();
    assert_eq!(present(&spectator.next()), (false, true));
    assert_eq!(
        present(&blue_page.next()),
        (false, true),
        "blue sees itself"
    );
    assert_eq!(present(&server.state(&game.id)), (false, true));

    // A second page of Blue's, then moves: Blue stays present throughout.
    let second_page = server.watch_with(&game.id, Some(&blue)).unwrap();
    assert_eq!(present(&spectator.next()), (false, true));
    let mut state = server.state(&game.id);
    for ply in 1..=3u64 {
        let mv = a_legal_move(&state, ply as usize * 13);
        let token = if ply % 2 == 1 { &red } else { &blue };
        let reply: Reply = server.play(&game.id, token, ply, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = spectator.next();
        assert_eq!(state, reply.body);
        assert_eq!(present(&state), (false, true));
    }

    // Closing one of two pages: still present; the last: gone.
    blue_page.close();
    assert_eq!(
        present(&spectator.next()),
        (false, true),
        "one page is still open"
    );
    second_page.close();
    let after = spectator.next();
    assert_eq!(present(&after), (false, false));
    assert_eq!(after["plies"], 3, "only presence changed");
    assert_eq!(present(&server.state(&game.id)), (false, false));

    // Red's page marks Red, not Blue.
    let red_page = server.watch_with(&game.id, Some(&red)).unwrap();
    assert_eq!(present(&spectator.next()), (true, false));
    red_page.close();
    assert_eq!(present(&spectator.next()), (false, false));
    spectator.close();
}

#[test]
fn a_game_state_lists_the_position_after_each_ply_as_the_library_replays_it() {
    let (_dir, server) = Server::in_temp_dir("page-positions");
    let game = server.create(json!({ "red": "human", "blue": "human", "setup": "kit" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    assert_eq!(game.body["state"]["positions"], json!([]));
    let mut state = game.body["state"].clone();
    for ply in 1..=6u64 {
        let mv = a_legal_move(&state, ply as usize * 29 + 3);
        let token = if ply % 2 == 1 { &red } else { &blue };
        let reply = server.play(&game.id, token, ply, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    let state = server.state(&game.id);
    let moves: Vec<String> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves.len(), 6);
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let start = Position::from_text(state["start"].as_str().unwrap(), &rules).unwrap();
    assert_eq!(start, Position::from_text("kit", &rules).unwrap());
    let expected = replay(&start, &moves);
    assert_eq!(state["positions"], json!(expected));
    assert_eq!(state["position"], json!(expected.last().unwrap()));
}
