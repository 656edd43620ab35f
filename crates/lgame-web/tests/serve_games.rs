//! Games bounded and between people and computers (issue #14, items 3 and 6): the ply cap,
//! WebSocket changes, the spectator URL, games between two computers, undo by consent,
//! rematches, and draws offered to the computer.

use std::time::Duration;

use lgame_test_support::backends::Backend;
use lgame_test_support::http::{apply, quiet_moves, Created, Reply};
use lgame_test_support::on_both_backends;
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// A legal move that does not end the game when there is one (so a game runs to the cap).
fn a_quiet_move(state: &Value) -> String {
    let moves = quiet_moves(state);
    // Vary the choice with the ply, so the game wanders.
    let plies = state["plies"].as_u64().unwrap() as usize;
    moves[(plies * 7) % moves.len()].clone()
}

fn post(server: &Server, id: &str, action: &str, token: &str) -> Reply {
    server.post(
        &format!("/api/games/{id}/{action}"),
        &json!({ "token": token }),
    )
}

/// The two tokens of a game between friends.
fn tokens(game: &Created) -> (String, String) {
    (game.red.clone().unwrap(), game.blue.clone().unwrap())
}

/// Plays `n` quiet moves for whichever side is to move; returns the last state.
fn play_moves(server: &Server, game: &Created, n: usize) -> Value {
    let mut state = server.state(&game.id);
    for _ in 0..n {
        let ply = state["plies"].as_u64().unwrap();
        let reply = server.play(
            &game.id,
            game.token_for(&state),
            ply + 1,
            &a_quiet_move(&state),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    state
}

fn the_ply_cap_is_1000_by_default_and_a_5000_ply_attempt_is_drawn_at_the_cap(backend: Backend) {
    let dir = TempDir::new("cap");
    let db = backend.database(&dir);
    let config = lgame_web::Config::new(([127, 0, 0, 1], 0).into(), dir.db());
    assert_eq!(config.max_plies, 1000, "the default cap");
    {
        let server = Server::start(&db);
        let game = server.create(json!({ "red": "human", "blue": "human", "repetition": 0 }));
        assert_eq!(game.body["state"]["draw_rules"]["turn_limit"], 1000);
    }
    let server = Server::with(&db, |c| c.max_plies = 30);
    // Beyond the cap is refused; no limit is the cap.
    let long = server.post(
        "/api/games",
        &json!({ "red": "human", "blue": "human", "turn_limit": 31 }),
    );
    assert_eq!(long.status, 400, "{}", long.body);
    assert!(long.error().contains("at most 30"), "{}", long.error());
    let game = server.create(json!({ "red": "human", "blue": "human", "repetition": 0 }));
    assert_eq!(game.body["state"]["draw_rules"]["turn_limit"], 30);
    let mut state = game.body["state"].clone();
    let mut refused = None;
    for ply in 1..=5000u64 {
        let reply = server.play(&game.id, game.token_for(&state), ply, &a_quiet_move(&state));
        if reply.status != 200 {
            refused = Some((ply, reply));
            break;
        }
        state = reply.body;
    }
    let (ply, reply) = refused.expect("the game ends");
    assert_eq!(ply, 31, "the first move past the cap is refused");
    assert_eq!(reply.status, 409);
    assert!(
        reply.error().contains("the game is over"),
        "{}",
        reply.error()
    );
    assert_eq!(state["plies"], 30);
    assert_eq!(state["over"], true);
    assert_eq!(state["ending"], "turn limit");
    assert_eq!(state["result"], "1/2-1/2");
    // The record says it as a record does.
    let record = server.get(&format!("/api/games/{}/record", game.id));
    let text = record.body.as_str().unwrap();
    assert!(text.contains("[TurnLimit \"30\"]"), "{text}");
    let replayed = text.parse::<lgame::Record>().unwrap().replay().unwrap();
    assert_eq!(
        replayed.conclusion().unwrap().ending,
        lgame::game::Ending::TurnLimit
    );
    // A record at the cap is imported; one longer than the cap is refused.
    let import = server.post("/api/games/import", &json!({ "record": text }));
    assert_eq!(import.status, 201, "{}", import.body);
    drop(server);
    let restarted = Server::with(&db, |c| c.max_plies = 20);
    let import = restarted.post("/api/games/import", &json!({ "record": text }));
    assert_eq!(import.status, 400, "{}", import.body);
}

fn websocket_messages_after_the_first_are_changes_that_add_up_to_the_state(backend: Backend) {
    let dir = TempDir::new("deltas");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human", "repetition": 0 }));
    let (red, blue) = tokens(&game);
    play_moves(&server, &game, 6);
    let mut watcher = server.watch(&game.id);
    let first = watcher.next_message();
    assert_eq!(first["type"], "state");
    assert_eq!(first["moves"].as_array().unwrap().len(), 6);
    let mut state = Value::Null;
    apply(&mut state, &first);
    let check = |state: &Value, message: &Value, added: usize| {
        assert_eq!(message["type"], "change", "{message}");
        assert_eq!(
            message["moves"].as_array().unwrap().len(),
            added,
            "{message}"
        );
        assert!(message.get("seats").is_none() && message.get("start").is_none());
        assert_eq!(
            *state,
            server.state(&game.id),
            "the changes add up to the state"
        );
    };
    // Moves: one ply each.
    for _ in 0..4 {
        play_moves(&server, &game, 1);
        let message = watcher.next_message();
        apply(&mut state, &message);
        check(&state, &message, 1);
        assert_eq!(message["from"], state["plies"].as_u64().unwrap() - 1);
    }
    // A request to take back, then its acceptance: back to Red's turn (two plies).
    assert_eq!(server.state(&game.id)["turn"], "red");
    assert_eq!(post(&server, &game.id, "undo", &red).status, 200);
    let message = watcher.next_message();
    apply(&mut state, &message);
    check(&state, &message, 0);
    assert_eq!(state["undo_request"], "red");
    assert_eq!(post(&server, &game.id, "undo/accept", &blue).status, 200);
    let message = watcher.next_message();
    apply(&mut state, &message);
    check(&state, &message, 0);
    assert_eq!(message["from"], 8);
    assert_eq!(state["plies"], 8);
    // A draw offer, then a move after it.
    assert_eq!(post(&server, &game.id, "draw", &blue).status, 200);
    let message = watcher.next_message();
    apply(&mut state, &message);
    check(&state, &message, 0);
    assert_eq!(state["draw_offer"], "blue");
    play_moves(&server, &game, 1);
    let message = watcher.next_message();
    apply(&mut state, &message);
    check(&state, &message, 1);
    // A player's page: its presence is a change too.
    let player = server.watch_with(&game.id, Some(&red)).unwrap();
    let message = watcher.next_message();
    apply(&mut state, &message);
    check(&state, &message, 0);
    assert_eq!(state["present"]["red"], true);
    player.close();
}

fn the_spectator_url_watches_and_never_moves(backend: Backend) {
    let dir = TempDir::new("spectator");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let (red, blue) = tokens(&game);
    let url = game.body["spectator_url"].as_str().unwrap();
    assert_eq!(url, format!("/api/games/{}", game.id));
    assert_eq!(game.body["ws"], format!("/api/games/{}/ws", game.id));
    let seen = server.get(url);
    assert_eq!(seen.status, 200);
    assert!(!seen.body.to_string().contains(&red) && !seen.body.to_string().contains(&blue));
    assert!(seen.body.get("you").is_none());
    let mut watcher = server.watch(&game.id);
    assert_eq!(watcher.next()["plies"], 0);
    // Without a side's token nothing can be done.
    let mv = a_quiet_move(&seen.body);
    for token in ["", "0123456789abcdef0123456789abcdef"] {
        let reply = server.play(&game.id, token, 1, &mv);
        assert_eq!(reply.status, 403, "{}", reply.body);
        for action in ["undo", "draw", "resign", "rematch"] {
            assert_eq!(
                post(&server, &game.id, action, token).status,
                403,
                "{action}"
            );
        }
    }
    assert_eq!(server.get(&format!("{url}?token=nope")).status, 403);
    // The spectator sees the players' moves live.
    assert_eq!(server.play(&game.id, &red, 1, &mv).status, 200);
    let state = watcher.next();
    assert_eq!(state["plies"], 1);
    assert_eq!(state["moves"][0], mv.as_str());
}

fn a_game_between_two_computers_is_played_out_and_watched_live(backend: Backend) {
    let dir = TempDir::new("computers");
    let db = backend.database(&dir);
    let config = lgame_web::Config::new(([127, 0, 0, 1], 0).into(), dir.db());
    assert_eq!(
        config.computer_delay,
        Duration::from_secs(1),
        "the default pace"
    );
    let server = Server::with(&db, |c| {
        c.computer_delay = Duration::from_millis(20);
        c.max_plies = 12;
    });
    let game = server.create(json!({ "red": "beginner", "blue": "random", "repetition": 0 }));
    assert!(game.red.is_none() && game.blue.is_none(), "no tokens");
    assert_eq!(
        game.body["state"]["plies"], 0,
        "played by the server, a ply at a time"
    );
    let mut watcher = server.watch(&game.id);
    let mut state = watcher.next();
    let mut plies = state["plies"].as_u64().unwrap();
    while state["over"] == false {
        state = watcher.next();
        let now = state["plies"].as_u64().unwrap();
        assert_eq!(now, plies + 1, "one ply at a time");
        plies = now;
    }
    assert!(plies <= 12, "within the cap");
    assert_eq!(state, server.state(&game.id));
    // Stored like any game.
    let record = server.get(&format!("/api/games/{}/record", game.id));
    let replayed = record
        .body
        .as_str()
        .unwrap()
        .parse::<lgame::Record>()
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(replayed.moves().len() as u64, plies);
    assert!(replayed.is_over());
    // An imported game between computers is played out too.
    let imported = server.post(
        "/api/games/import",
        &json!({ "record": "1. A1,A2,A3,B3\n*\n", "red": "random", "blue": "random" }),
    );
    assert_eq!(imported.status, 201, "{}", imported.body);
    let mut watcher = server.watch(imported.body["id"].as_str().unwrap());
    let mut state = watcher.next();
    while state["plies"].as_u64().unwrap() < 3 && state["over"] == false {
        state = watcher.next();
    }
}

fn undo_between_friends_is_asked_and_accepted_or_declined(backend: Backend) {
    let dir = TempDir::new("undo");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human", "repetition": 0 }));
    let (red, blue) = tokens(&game);
    let id = &game.id;
    // Nothing to take back yet; a wrong token; no request to answer.
    let none = post(&server, id, "undo", &red);
    assert_eq!(none.status, 409);
    assert!(
        none.error().contains("no move of yours"),
        "{}",
        none.error()
    );
    assert_eq!(post(&server, id, "undo", "feed").status, 403);
    let unasked = post(&server, id, "undo/accept", &blue);
    assert_eq!(unasked.status, 409);
    assert!(
        unasked.error().contains("no one asks"),
        "{}",
        unasked.error()
    );
    play_moves(&server, &game, 1);
    // Blue has not moved: nothing of Blue's to take back.
    assert_eq!(post(&server, id, "undo", &blue).status, 409);
    // Red asks; Red cannot answer its own request; Blue declines.
    let asked = post(&server, id, "undo", &red);
    assert_eq!(asked.status, 200, "{}", asked.body);
    assert_eq!(asked.body["undo_request"], "red");
    assert_eq!(asked.body["plies"], 1, "nothing taken back yet");
    let own = post(&server, id, "undo/accept", &red);
    assert_eq!(own.status, 409);
    assert!(own.error().contains("your own"), "{}", own.error());
    assert_eq!(post(&server, id, "undo/accept", "feed").status, 403);
    let declined = post(&server, id, "undo/decline", &blue);
    assert_eq!(declined.status, 200);
    assert_eq!(declined.body["undo_request"], json!(null));
    assert_eq!(declined.body["plies"], 1);
    assert_eq!(post(&server, id, "undo/decline", &blue).status, 409);
    // Asked again and accepted: Red's move is taken back.
    assert_eq!(post(&server, id, "undo", &red).status, 200);
    let accepted = post(&server, id, "undo/accept", &blue);
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    assert_eq!(accepted.body["plies"], 0);
    assert_eq!(accepted.body["turn"], "red");
    // After Blue's reply, Red's request takes back two plies; a move withdraws a request.
    play_moves(&server, &game, 3);
    assert_eq!(post(&server, id, "undo", &blue).status, 200);
    let other = post(&server, id, "undo", &red);
    assert_eq!(other.status, 409, "Blue's request is answered first");
    let state = play_moves(&server, &game, 1);
    assert_eq!(
        state["undo_request"],
        json!(null),
        "a move withdraws the request"
    );
    assert_eq!(state["plies"], 4);
    assert_eq!(post(&server, id, "undo", &red).status, 200);
    let back = post(&server, id, "undo/accept", &blue);
    assert_eq!(back.body["plies"], 2, "Red's move and Blue's reply");
    assert_eq!(back.body["turn"], "red");
    // Stored: the game reloads as it stands.
    drop(server);
    let server = Server::start(&db);
    assert_eq!(server.state(id)["plies"], 2);
    // Over: no undo, no answer.
    assert_eq!(post(&server, id, "undo", &red).status, 200);
    assert_eq!(post(&server, id, "resign", &blue).status, 200);
    let over = post(&server, id, "undo", &red);
    assert_eq!(over.status, 409);
    assert!(
        over.error().contains("the game is over"),
        "{}",
        over.error()
    );
    assert_eq!(post(&server, id, "undo/accept", &blue).status, 409);
}

fn a_rematch_swaps_colours_and_links_the_games_both_ways(backend: Backend) {
    let dir = TempDir::new("rematch");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human", "setup": "kit",
                                     "repetition": 5 }));
    let (red, blue) = tokens(&game);
    let early = post(&server, &game.id, "rematch", &red);
    assert_eq!(early.status, 409);
    assert!(early.error().contains("goes on"), "{}", early.error());
    assert_eq!(post(&server, &game.id, "resign", &blue).status, 200);
    assert_eq!(post(&server, &game.id, "rematch", "feed").status, 403);
    // Red asks first: Red plays Blue in the rematch, and gets that side's token only.
    let first = post(&server, &game.id, "rematch", &red);
    assert_eq!(first.status, 201, "{}", first.body);
    let rematch = Created::from(first.body.clone());
    assert_ne!(rematch.id, game.id);
    assert!(rematch.red.is_none() && rematch.blue.is_some());
    let new_blue = rematch.blue.clone().unwrap();
    assert_ne!(new_blue, red);
    let state = &first.body["state"];
    assert_eq!(state["rematch_of"], game.id.as_str());
    assert_eq!(
        state["start"], game.body["state"]["start"],
        "the same start"
    );
    assert_eq!(state["draw_rules"], game.body["state"]["draw_rules"]);
    assert_eq!(server.state(&game.id)["rematch"], rematch.id.as_str());
    assert_eq!(
        post(&server, &game.id, "rematch", &red).status,
        409,
        "given once"
    );
    // Blue asks: Blue plays Red in the rematch.
    let second = post(&server, &game.id, "rematch", &blue);
    assert_eq!(second.status, 201, "{}", second.body);
    let claimed = Created::from(second.body.clone());
    assert_eq!(claimed.id, rematch.id);
    assert!(claimed.blue.is_none());
    let new_red = claimed.red.clone().unwrap();
    assert_eq!(post(&server, &game.id, "rematch", &blue).status, 409);
    // The new tokens play their sides; the old ones play nothing there.
    let mut state = server.state(&rematch.id);
    let mv = a_quiet_move(&state);
    assert_eq!(server.play(&rematch.id, &red, 1, &mv).status, 403);
    assert_eq!(
        server.play(&rematch.id, &new_blue, 1, &mv).status,
        409,
        "Red moves first"
    );
    state = server.play(&rematch.id, &new_red, 1, &mv).body;
    assert_eq!(state["plies"], 1);
    let reply = server.play(&rematch.id, &new_blue, 2, &a_quiet_move(&state));
    assert_eq!(reply.status, 200);
    // The links survive a restart.
    drop(server);
    let server = Server::start(&db);
    assert_eq!(server.state(&game.id)["rematch"], rematch.id.as_str());
    assert_eq!(server.state(&rematch.id)["rematch_of"], game.id.as_str());
    // Against the computer: the computer changes colour too, and moves first at once.
    let solo = server.create(json!({ "red": "human", "blue": "perfect" }));
    let token = solo.red.clone().unwrap();
    assert_eq!(post(&server, &solo.id, "resign", &token).status, 200);
    let again = post(&server, &solo.id, "rematch", &token);
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(
        again.body["state"]["seats"],
        json!({ "red": "perfect", "blue": "human" })
    );
    assert_eq!(again.body["state"]["plies"], 1);
    assert!(again.body["players"]["blue"]["token"].is_string());
}

fn perfect_accepts_a_draw_exactly_when_the_position_is_drawn(backend: Backend) {
    let dir = TempDir::new("draws");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    // Positions of each value, Red to move: the standard start (a draw), wins and losses
    // at a distance.
    let mut positions = vec![("NRR./.RB./.RB./.BBN r".to_string(), "draw".to_string())];
    for (value, plies) in [("win", 1), ("win", 3), ("loss", 2), ("draw", 0)] {
        let query = if value == "draw" {
            format!("/api/classes?value={value}")
        } else {
            format!("/api/classes?value={value}&plies={plies}")
        };
        let classes = server.get(&query);
        assert_eq!(classes.status, 200, "{}", classes.body);
        for class in classes.body["positions"].as_array().unwrap().iter().take(2) {
            positions.push((class["position"].as_str().unwrap().into(), value.into()));
        }
    }
    let mut accepted = 0;
    for (position, value) in &positions {
        let analysis = server.get(&format!(
            "/api/analysis?position={}",
            lgame_test_support::http::encode(position)
        ));
        assert_eq!(analysis.body["value"], value.as_str(), "{position}");
        let game = server.create(json!({ "red": "human", "blue": "perfect", "setup": position }));
        let reply = post(&server, &game.id, "draw", game.red.as_ref().unwrap());
        if value == "draw" {
            assert_eq!(reply.status, 200, "{position}: {}", reply.body);
            assert_eq!(reply.body["ending"], "agreement");
            assert_eq!(reply.body["result"], "1/2-1/2");
            accepted += 1;
        } else {
            assert_eq!(reply.status, 409, "{position}: {}", reply.body);
            assert!(
                reply.error().contains("declines the draw"),
                "{}",
                reply.error()
            );
            assert_eq!(reply.body["state"]["over"], false);
            assert_eq!(
                reply.body["state"]["draw_offer"],
                json!(null),
                "no offer stands"
            );
        }
    }
    assert!(accepted >= 3 && positions.len() >= 9, "{positions:?}");
}

fn a_change_carries_its_own_ply_not_the_game_at_the_default_cap(backend: Backend) {
    let dir = TempDir::new("sizes");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human", "repetition": 0 }));
    let before = play_moves(&server, &game, 999);
    assert_eq!(before["over"], false);
    let mut watcher = server.watch(&game.id);
    let whole = watcher.next_message().to_string();
    let last = play_moves(&server, &game, 1);
    assert_eq!(last["ending"], "turn limit", "drawn at the default cap");
    let change = watcher.next_message();
    let mut state = Value::Null;
    apply(&mut state, &serde_json::from_str(&whole).unwrap());
    apply(&mut state, &change);
    assert!(state == last, "the change applied gives the state answered");
    let change = change.to_string();
    eprintln!(
        "at ply 1000: the whole state {} bytes, the change {} bytes",
        whole.len(),
        change.len()
    );
    assert!(change.len() * 50 < whole.len(), "{change}");
}

on_both_backends!(
    the_ply_cap_is_1000_by_default_and_a_5000_ply_attempt_is_drawn_at_the_cap,
    websocket_messages_after_the_first_are_changes_that_add_up_to_the_state,
    the_spectator_url_watches_and_never_moves,
    a_game_between_two_computers_is_played_out_and_watched_live,
    undo_between_friends_is_asked_and_accepted_or_declined,
    a_rematch_swaps_colours_and_links_the_games_both_ways,
    perfect_accepts_a_draw_exactly_when_the_position_is_drawn,
    a_change_carries_its_own_ply_not_the_game_at_the_default_cap,
);
