//! The server as a process of its own (lgame-web's test server: `lgame_web::run`, as `lgame
//! serve` runs it): every accepted move survives the server being killed (SIGKILL), after a
//! few games or a burst of twenty clients at once; a server stopped by SIGTERM with a
//! WebSocket open, or killed, restarts on its database with every game as it was; killed
//! while 32 games move at once, every answered move is stored. (What needs no process of
//! its own is tested in-process, in the other files here.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use lgame_test_support::backends::Backend;
use lgame_test_support::http::{a_legal_move, Created};
use lgame_test_support::on_both_backends;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// lgame-web's test server, `lgame_web::run` in a process of its own.
const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

/// The burst: clients at once, games each plays, moves in each game.
const CLIENTS: usize = 20;
const GAMES_EACH: usize = 3;
const MOVES_EACH: usize = 12;

/// The server on `db` with `extra` fields of its configuration, on a free port.
fn serve(db: &str, extra: &[&str]) -> ServeProcess {
    ServeProcess::start(SERVER, db, extra)
}

/// Plays `count` moves in a game, each side's person in turn.
fn play_some(server: &ServeProcess, game: &Created, count: usize, pick: usize) -> Value {
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

fn a_killed_server_loses_no_move_and_play_continues(backend: Backend) {
    let dir = TempDir::new("crash");
    let db = backend.database(&dir);
    let server = serve(&db, &[]);
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
    let server = serve(&db, &[]);
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
    let server = serve(&db, &[]);
    for (game, state) in games.iter().zip(&states) {
        assert_eq!(&server.state(&game.id), state);
    }
}

fn twenty_clients_play_at_once_and_no_move_is_lost_or_doubled(backend: Backend) {
    let dir = TempDir::new("many");
    let db = backend.database(&dir);
    let server = Arc::new(serve(&db, &["create_limit=0"]));
    let start = Arc::new(Barrier::new(CLIENTS));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (server, start) = (server.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                let mut seen: Vec<(String, Value)> = Vec::new();
                for g in 0..GAMES_EACH {
                    let blue = ["perfect", "human", "beginner", "intermediate"][(c + g) % 4];
                    let game = server.create(json!({ "red": "human", "blue": blue }));
                    let mut state = game.body["state"].clone();
                    for i in 0..MOVES_EACH {
                        if state["over"] == true {
                            break;
                        }
                        let ply = state["plies"].as_u64().unwrap();
                        let mv = a_legal_move(&state, c * 13 + g * 5 + i);
                        let reply = server.play(&game.id, game.token_for(&state), ply + 1, &mv);
                        assert_eq!(reply.status, 200, "{}", reply.body);
                        assert_eq!(reply.body["moves"][ply as usize], mv.as_str());
                        state = reply.body;
                    }
                    seen.push((game.id.clone(), state["moves"].clone()));
                }
                seen
            })
        })
        .collect();
    let seen: Vec<(String, Value)> = clients
        .into_iter()
        .flat_map(|c| c.join().expect("no client failed"))
        .collect();
    assert_eq!(seen.len(), CLIENTS * GAMES_EACH);
    for (id, moves) in &seen {
        assert_eq!(&server.state(id)["moves"], moves, "game {id} in memory");
    }
    // And in the database, after a kill.
    let server = Arc::into_inner(server).unwrap();
    server.kill();
    let server = serve(&db, &[]);
    for (id, moves) in &seen {
        assert_eq!(&server.state(id)["moves"], moves, "game {id} stored");
    }
}

fn killed_while_many_games_move_at_once_every_answered_move_is_stored(backend: Backend) {
    // Enough games at once that the server writes many in each commit (group commit).
    const GAMES: usize = 32;
    const ANSWERED: usize = 600;
    let dir = TempDir::new("burst");
    let db = backend.database(&dir);
    let server = serve(&db, &["create_limit=0"]);
    let games: Vec<Created> = (0..GAMES)
        .map(|_| server.create(json!({ "red": "human", "blue": "human", "repetition": 0 })))
        .collect();
    let answered = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(g, game)| {
            let (addr, game, answered) = (server.addr.clone(), game.clone(), answered.clone());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(30))
                    .build();
                let url = format!("http://{addr}/api/games/{}/moves", game.id);
                let mut state = game.body["state"].clone();
                for i in 0.. {
                    if state["over"] == true {
                        break;
                    }
                    let ply = state["plies"].as_u64().unwrap();
                    let body = json!({
                        "token": game.token_for(&state),
                        "ply": ply + 1,
                        "move": a_legal_move(&state, g * 31 + i),
                    });
                    match agent.post(&url).send_json(body) {
                        Ok(reply) => state = reply.into_json().unwrap(),
                        Err(ureq::Error::Status(code, reply)) => {
                            panic!("{code}: {}", reply.into_string().unwrap())
                        }
                        // The server is gone: the last answer is what was promised.
                        Err(_) => break,
                    }
                    answered.fetch_add(1, Ordering::Relaxed);
                }
                state
            })
        })
        .collect();
    let waiting = Instant::now();
    while answered.load(Ordering::Relaxed) < ANSWERED && !clients.iter().all(|c| c.is_finished()) {
        assert!(
            waiting.elapsed() < Duration::from_secs(120),
            "{ANSWERED} moves not answered in 120 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill(); // SIGKILL, the clients still sending
    let last: Vec<Value> = clients
        .into_iter()
        .map(|c| c.join().expect("no move refused"))
        .collect();
    let server = serve(&db, &[]);
    for (game, last) in games.iter().zip(&last) {
        let promised = last["moves"].as_array().unwrap();
        let stored = server.state(&game.id)["moves"].as_array().unwrap().clone();
        // Every answered move, in order; beyond them at most the move in flight, stored
        // before its answer could be sent.
        assert!(
            stored.len() >= promised.len() && stored.len() <= promised.len() + 1,
            "game {}: {} moves answered, {} stored",
            game.id,
            promised.len(),
            stored.len()
        );
        assert_eq!(&stored[..promised.len()], &promised[..], "game {}", game.id);
    }
}

on_both_backends!(
    a_killed_server_loses_no_move_and_play_continues,
    twenty_clients_play_at_once_and_no_move_is_lost_or_doubled,
    killed_while_many_games_move_at_once_every_answered_move_is_stored,
);
