//! The server's API end to end, over HTTP and WebSockets on a loopback port.

use lgame_test_support::backends::Backend;
use lgame_test_support::http::{a_legal_move, Reply};
use lgame_test_support::on_both_backends;
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::json;

fn a_whole_game_against_the_computer_to_the_end(backend: Backend) {
    let dir = TempDir::new("whole");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "perfect" }));
    assert!(game.blue.is_none(), "no token for the computer's side");
    let mut state = game.body["state"].clone();
    assert_eq!(state["plies"], 0);
    let mut pick = 7;
    while state["over"] == false {
        let ply = state["plies"].as_u64().unwrap();
        assert!(ply < 400, "the game ends (threefold repetition)");
        let mv = a_legal_move(&state, pick);
        pick = pick * 31 + 11;
        let reply = server.play(&game.id, game.red.as_ref().unwrap(), ply + 1, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
        assert_eq!(state["moves"][ply as usize], mv.as_str());
        if state["over"] == false {
            assert_eq!(state["plies"], ply + 2, "the computer replied at once");
            assert_eq!(state["turn"], "red");
        }
    }
    assert_ne!(state["result"], "*");
    assert!(state["conclusion"].as_str().unwrap().len() > 5);
    assert_eq!(server.state(&game.id), state);
    // Over is over.
    let ply = state["plies"].as_u64().unwrap();
    let late = server.play(&game.id, game.red.as_ref().unwrap(), ply + 1, "A1,A2,A3,B3");
    assert_eq!(late.status, 409);
    assert!(
        late.error().contains("the game is over"),
        "{}",
        late.error()
    );
    // The record is judged true by the library.
    let record = server.get(&format!("/api/games/{}/record", game.id));
    assert_eq!(record.status, 200);
    let text = record.body.as_str().unwrap();
    let replayed = text.parse::<lgame::Record>().unwrap().replay().unwrap();
    assert_eq!(replayed.moves().len() as u64, ply);
    assert_eq!(replayed.result_token().to_string(), state["result"]);
}

fn the_computer_moving_first_moves_at_once(backend: Backend) {
    let dir = TempDir::new("first");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "beginner:40", "blue": "human", "setup": "kit" }));
    assert!(game.red.is_none());
    assert_eq!(game.body["state"]["plies"], 1);
    assert_eq!(game.body["state"]["turn"], "blue");
    assert_eq!(game.body["state"]["seats"]["red"], "beginner:40");
}

fn friends_play_with_two_tokens_and_a_spectator_watches_live(backend: Backend) {
    let dir = TempDir::new("friends");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human", "repetition": 0 }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    assert_ne!(red, blue);
    assert_eq!(red.len(), 32, "128 random bits in hex");
    assert_eq!(game.body["state"]["draw_rules"]["repetition"], json!(null));
    // Spectators never see a token.
    let public = server.state(&game.id);
    assert!(!public.to_string().contains(&red) && !public.to_string().contains(&blue));
    assert_eq!(
        server
            .get(&format!("/api/games/{}?token={red}", game.id))
            .body["you"],
        "red"
    );
    assert_eq!(
        server
            .get(&format!("/api/games/{}?token=nope", game.id))
            .status,
        403
    );

    let mut spectator = server.watch(&game.id);
    let first = spectator.next();
    assert_eq!(first["plies"], 0);
    assert!(!first.to_string().contains(&red));

    let mut state = first;
    for ply in 1..=4u64 {
        let mv = a_legal_move(&state, ply as usize * 5);
        let token = if ply % 2 == 1 { &red } else { &blue };
        let reply = server.play(&game.id, token, ply, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let seen = spectator.next();
        assert_eq!(seen, reply.body, "the spectator sees each new state");
        assert_eq!(seen["moves"][ply as usize - 1], mv.as_str());
        state = seen;
    }
    // Red may not move for Blue.
    let wrong = server.play(&game.id, &blue, 5, &a_legal_move(&state, 0));
    assert_eq!(wrong.status, 409);
    assert!(
        wrong.error().contains("it is Red's turn"),
        "{}",
        wrong.error()
    );

    // Reconnecting gets the current state.
    spectator.close();
    let mut again = server.watch(&game.id);
    assert_eq!(again.next(), state);

    // Undo between friends only asks (serve_games.rs answers); a draw by agreement takes an
    // offer and an acceptance.
    let undo = server.post(
        &format!("/api/games/{}/undo", game.id),
        &json!({ "token": red }),
    );
    assert_eq!(undo.status, 200, "{}", undo.body);
    assert_eq!(undo.body["undo_request"], "red");
    assert_eq!(again.next()["undo_request"], "red");
    let offer = server.post(
        &format!("/api/games/{}/draw", game.id),
        &json!({ "token": red }),
    );
    assert_eq!(offer.status, 200);
    assert_eq!(offer.body["draw_offer"], "red");
    assert_eq!(again.next()["draw_offer"], "red");
    let accept = server.post(
        &format!("/api/games/{}/draw", game.id),
        &json!({ "token": blue }),
    );
    assert_eq!(accept.status, 200, "{}", accept.body);
    assert_eq!(accept.body["result"], "1/2-1/2");
    assert_eq!(accept.body["ending"], "agreement");
    assert_eq!(again.next()["ending"], "agreement");
    again.close();
}

fn refusals_name_the_problem_and_change_nothing(backend: Backend) {
    let dir = TempDir::new("refusals");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    let before = server.state(&game.id);
    let moves = format!("/api/games/{}/moves", game.id);
    let good = a_legal_move(&before, 0);

    let cases: Vec<(Reply, u16, &str)> = vec![
        (
            server.play(&game.id, "0123456789abcdef0123456789abcdef", 1, &good),
            403,
            "token",
        ),
        (server.play(&game.id, "", 1, &good), 403, "token"),
        (
            server.play(&game.id, &blue, 1, &good),
            409,
            "it is Red's turn",
        ),
        (server.play(&game.id, &red, 2, &good), 409, "stale move"),
        (server.play(&game.id, &red, 0, &good), 409, "stale move"),
        (
            server.play(&game.id, &red, 1, "A1,A2,A3,A4"),
            422,
            "illegal",
        ),
        (
            server.play(&game.id, &red, 1, "B4,C4,B3,B2"),
            422,
            "already",
        ),
        (server.play(&game.id, &red, 1, "Z9,A1"), 400, "move 'Z9,A1'"),
        (
            server.play("0123456789abcdef", &red, 1, &good),
            404,
            "no game '0123456789abcdef'",
        ),
        (server.play("nonsense", &red, 1, &good), 404, "no game"),
        (server.get("/api/games/ffffffffffffffff"), 404, "no game"),
        (server.get("/api/games/ffffffffffffffff/ws"), 404, "no game"),
        (server.get("/api/nothing"), 404, "no such endpoint"),
        (
            server.request("DELETE", &format!("/api/games/{}", game.id), None),
            405,
            "not allowed",
        ),
        (
            server.request("POST", &moves, Some("{\"token\": ")),
            400,
            "parse",
        ),
        (
            server.request("POST", &moves, Some("not json")),
            400,
            "parse",
        ),
        (
            server.post(
                &moves,
                &json!({ "token": red, "ply": 1, "move": good, "extra": 1 }),
            ),
            422,
            "unknown field `extra`",
        ),
        (
            server.post(&moves, &json!({ "token": red, "ply": "1", "move": good })),
            422,
            "invalid type",
        ),
        (
            server.post(&moves, &json!({ "token": red, "ply": -1, "move": good })),
            422,
            "ply",
        ),
        (
            server.post(&moves, &json!({ "token": red, "move": good })),
            422,
            "missing field `ply`",
        ),
        (
            server.request(
                "POST",
                &moves,
                Some(&format!("\"{}\"", "x".repeat(70 * 1024))),
            ),
            413,
            "too large",
        ),
        (
            server.post("/api/games", &json!({ "red": "human" })),
            422,
            "missing field `blue`",
        ),
        (
            server.post("/api/games", &json!({ "red": "human", "blue": "genius" })),
            400,
            "blue 'genius'",
        ),
        (
            server.post(
                "/api/games",
                &json!({ "red": "human", "blue": "human", "turn_limit": 5000 }),
            ),
            400,
            "at most 1000 plies",
        ),
        (
            server.post(
                "/api/games",
                &json!({ "red": "human", "blue": "human", "variant": "misere,bogus" }),
            ),
            400,
            "variant 'misere,bogus'",
        ),
        (
            server.post(
                "/api/games",
                &json!({ "red": "human", "blue": "human", "setup": "NRR./.RB./.RB./.BB r" }),
            ),
            400,
            "setup 'NRR./.RB./.RB./.BB r'",
        ),
        (
            server.post(
                "/api/games",
                &json!({ "red": "human", "blue": "perfect", "variant": "board=8x8" }),
            ),
            422,
            "this server solves tables of at most",
        ),
        (
            server.get("/api/analysis?position=NRR./.RB"),
            400,
            "position 'NRR./.RB'",
        ),
        (server.get("/api/analysis"), 400, "position"),
        (
            server.get("/api/analysis?position=start&x=1"),
            400,
            "unknown field",
        ),
        (
            server.post(
                "/api/games/import",
                &json!({ "record": "1. A1,A2,A3,B3\n1-0\n" }),
            ),
            400,
            "record",
        ),
        (
            server.post(
                "/api/games/import",
                &json!({ "record": "1. B1,B2,B3,C1\n*\n" }),
            ),
            400,
            "ply 1",
        ),
    ];
    for (reply, status, words) in &cases {
        assert_eq!(reply.status, *status, "{words}: {}", reply.body);
        assert!(
            reply.error().contains(words),
            "{status}: {:?} should name {words:?}",
            reply.error()
        );
    }
    let after = server.state(&game.id);
    assert_eq!(after, before, "no refusal changed the game");
    // And the server is still up.
    assert_eq!(server.get("/healthz").status, 200);
}

fn undo_resign_export_and_import(backend: Backend) {
    let dir = TempDir::new("undo");
    let db = backend.database(&dir);
    let server = Server::start(&db);
    let game = server.create(json!({ "red": "human", "blue": "intermediate" }));
    let red = game.red.clone().unwrap();
    let undo = |token: &str| {
        server.post(
            &format!("/api/games/{}/undo", game.id),
            &json!({ "token": token }),
        )
    };
    let nothing = undo(&red);
    assert_eq!(nothing.status, 409);
    assert!(
        nothing.error().contains("no move of yours"),
        "{}",
        nothing.error()
    );

    let mut state = game.body["state"].clone();
    for i in 0..2 {
        let ply = state["plies"].as_u64().unwrap();
        state = server
            .play(&game.id, &red, ply + 1, &a_legal_move(&state, i + 3))
            .body;
    }
    assert_eq!(state["plies"], 4);
    let back = undo(&red);
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(back.body["plies"], 2, "back to the person's turn");
    assert_eq!(back.body["turn"], "red");
    assert_eq!(undo("ffff").status, 403);

    let resigned = server.post(
        &format!("/api/games/{}/resign", game.id),
        &json!({ "token": red }),
    );
    assert_eq!(resigned.status, 200);
    assert_eq!(resigned.body["result"], "0-1");
    assert_eq!(resigned.body["ending"], "resignation");
    let refused = undo(&red);
    assert_eq!(refused.status, 409);
    assert!(refused.error().contains("over"));

    let record = server.get(&format!("/api/games/{}/record", game.id));
    let text = record.body.as_str().unwrap();
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    let imported = server.post("/api/games/import", &json!({ "record": text }));
    assert_eq!(imported.status, 201, "{}", imported.body);
    let copy = &imported.body["state"];
    assert_eq!(copy["moves"], resigned.body["moves"]);
    assert_eq!(copy["result"], "0-1");
    assert_ne!(imported.body["id"], game.body["id"]);

    // An unfinished record goes on where it stopped, against the computer.
    let open = format!(
        "[Variant \"classic\"]\n\n1. {}\n*\n",
        a_legal_move(&game.body["state"], 2)
    );
    let imported = server.post(
        "/api/games/import",
        &json!({ "record": open, "red": "perfect" }),
    );
    assert_eq!(imported.status, 201, "{}", imported.body);
    assert_eq!(imported.body["state"]["plies"], 1);
    assert!(imported.body["players"]["blue"]["token"].is_string());
}

fn creating_games_is_rate_limited_per_address(backend: Backend) {
    let dir = TempDir::new("rate");
    let db = backend.database(&dir);
    let server = Server::with(&db, |c| c.create_limit = 3);
    for _ in 0..3 {
        server.create(json!({ "red": "human", "blue": "human" }));
    }
    let refused = server.post("/api/games", &json!({ "red": "human", "blue": "human" }));
    assert_eq!(refused.status, 429);
    assert!(refused.error().contains("at most 3 a minute"));
}

fn websockets_are_capped(backend: Backend) {
    let dir = TempDir::new("wscap");
    let db = backend.database(&dir);
    let server = Server::with(&db, |c| c.max_websockets = 2);
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let mut a = server.watch(&game.id);
    let mut b = server.watch(&game.id);
    a.next();
    b.next();
    let refused = server.get(&format!("/api/games/{}/ws", game.id));
    // Not a WebSocket handshake: refused before the cap is counted.
    assert_eq!(refused.status, 400, "{}", refused.body);
    let third = std::net::TcpStream::connect(&server.addr).unwrap();
    let url = format!("ws://{}/api/games/{}/ws", server.addr, game.id);
    match tungstenite::client(url, third) {
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            assert_eq!(response.status(), 503)
        }
        other => panic!("expected 503, got {:?}", other.map(|_| ())),
    }
    a.close();
    b.close();
}

on_both_backends!(
    a_whole_game_against_the_computer_to_the_end,
    the_computer_moving_first_moves_at_once,
    friends_play_with_two_tokens_and_a_spectator_watches_live,
    refusals_name_the_problem_and_change_nothing,
    undo_resign_export_and_import,
    creating_games_is_rate_limited_per_address,
    websockets_are_capped,
);
