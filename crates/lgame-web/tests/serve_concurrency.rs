//! Two moves racing for the same ply: exactly one is played. (Many clients at once, then a
//! SIGKILL: `serve_durability.rs`.)

use std::sync::{Arc, Barrier};

use lgame_test_support::backends::Backend;
use lgame_test_support::http::a_legal_move;
use lgame_test_support::on_both_backends;
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::json;

fn two_moves_racing_for_the_same_ply_one_is_played_the_other_409(backend: Backend) {
    let dir = TempDir::new("race");
    let db = backend.database(&dir);
    let server = Arc::new(Server::start(&db));
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

on_both_backends!(two_moves_racing_for_the_same_ply_one_is_played_the_other_409,);
