//! Many clients at once: no failed request, no lost or doubled move; two moves racing for
//! the same ply: exactly one is played.

mod serve_support;

use std::sync::{Arc, Barrier};

use serde_json::{json, Value};
use serve_support::{a_legal_move, Server, TempDir};

const CLIENTS: usize = 20;
const GAMES_EACH: usize = 3;
const MOVES_EACH: usize = 12;

#[test]
fn twenty_clients_play_at_once_and_no_move_is_lost_or_doubled() {
    let dir = TempDir::new("many");
    let server = Arc::new(Server::start(&dir.db(), &["--create-limit", "0"]));
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
    let server = Server::start(&dir.db(), &[]);
    for (id, moves) in &seen {
        assert_eq!(&server.state(id)["moves"], moves, "game {id} stored");
    }
}

#[test]
fn two_moves_racing_for_the_same_ply_one_is_played_the_other_409() {
    let dir = TempDir::new("race");
    let server = Arc::new(Server::start(&dir.db(), &[]));
    for round in 0..8 {
        let game = server.create(json!({ "red": "human", "blue": "human" }));
        let red = game.red.clone().unwrap();
        let state = game.body["state"].clone();
        let barrier = Arc::new(Barrier::new(2));
        let racers: Vec<_> = (0..2)
            .map(|i| {
                let (server, barrier, id, red) = (
                    server.clone(),
                    barrier.clone(),
                    game.id.clone(),
                    red.clone(),
                );
                let mv = a_legal_move(&state, round * 3 + i * 17);
                std::thread::spawn(move || {
                    barrier.wait();
                    (mv.clone(), server.play(&id, &red, 1, &mv))
                })
            })
            .collect();
        let mut results: Vec<_> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        results.sort_by_key(|(_, reply)| reply.status);
        let (won, lost) = (&results[0], &results[1]);
        assert_eq!((won.1.status, lost.1.status), (200, 409), "{results:?}");
        assert!(lost.1.error().contains("stale move"), "{}", lost.1.error());
        assert_eq!(lost.1.body["state"]["moves"], json!([won.0]));
        let stored = server.state(&game.id);
        assert_eq!(stored["moves"], json!([won.0]), "exactly the winner's move");
    }
}
