//! Clocks (issue #24), on both backends, through servers in processes of their own whose
//! time the tests move forward (`test_clock=true`: `POST /api/test/clock`) instead of
//! waiting for it: a real-time game flagged by the server with no request arriving; an
//! abort when a first move does not come; lag within the quota forgiven and beyond it not;
//! a move after the time ran out refused; time given; an absent opponent's game claimed;
//! flagged by instance B after instance A is SIGKILLed (PostgreSQL); the time no instance
//! ran given back after a restart.

use std::time::{Duration, Instant};

use lgame_test_support::backends::Backend;
use lgame_test_support::http::{quiet_moves, Client, Created, Reply};
use lgame_test_support::postgres::cluster;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::{json, Value};

const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

/// Longest wait for the server to act on a deadline (it looks every 50 ms).
const PATIENCE: Duration = Duration::from_secs(5);

fn server(db: &str) -> ServeProcess {
    ServeProcess::start(SERVER, db, &["create_limit=0", "test_clock=true"])
}

/// Moves the server's time forward.
fn advance(server: &Client, ms: i64) {
    let reply = server.post("/api/test/clock", &json!({ "advance_ms": ms }));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

/// A game between two people with tokens, timed by `clock`.
fn timed(server: &Client, clock: Value) -> Created {
    server.create(json!({ "red": "human", "blue": "human", "repetition": 0, "clock": clock }))
}

fn token(game: &Created, side: &str) -> String {
    match side {
        "red" => game.red.clone().unwrap(),
        _ => game.blue.clone().unwrap(),
    }
}

/// The side to move plays a quiet move, with `think_ms` if given.
fn play(server: &Client, game: &Created, think_ms: Option<u64>) -> Reply {
    let state = server.state(&game.id);
    let side = state["turn"].as_str().unwrap();
    let mut body = json!({
        "token": token(game, side),
        "ply": state["plies"].as_u64().unwrap() + 1,
        "move": quiet_moves(&state)[0],
    });
    if let Some(think) = think_ms {
        body["think_ms"] = json!(think);
    }
    server.post(&format!("/api/games/{}/moves", game.id), &body)
}

/// Plays both first moves: the clocks then run, Red's first.
fn start_clocks(server: &Client, game: &Created) {
    for _ in 0..2 {
        let reply = play(server, game, None);
        assert_eq!(reply.status, 200, "{}", reply.body);
    }
    assert_eq!(server.state(&game.id)["clock"]["running"], "red");
}

/// The state once the game is over, read once after waiting (no request in between: the
/// server decides alone), within `PATIENCE`; and how long that took.
fn over_without_asking(server: &Client, id: &str) -> (Value, Duration) {
    let started = Instant::now();
    let mut wait = Duration::from_millis(200);
    loop {
        std::thread::sleep(wait);
        let state = server.state(id);
        if state["over"] == true || started.elapsed() > PATIENCE {
            return (state, started.elapsed());
        }
        wait = Duration::from_millis(100);
    }
}

fn a_real_time_game_is_flagged_by_the_server_with_no_client_connected(backend: Backend) {
    let dir = TempDir::new(&format!("clock-flag-{backend:?}"));
    let server = server(&backend.database(&dir));
    let game = timed(&server, json!({ "initial_s": 60, "increment_s": 0 }));
    start_clocks(&server, &game);
    // Red's time runs: 59 s later the game goes on...
    advance(&server, 59_000);
    std::thread::sleep(Duration::from_millis(300));
    let state = server.state(&game.id);
    assert_eq!(state["over"], false, "{state}");
    let red_ms = state["clock"]["red_ms"].as_i64().unwrap();
    assert!(
        (500..=1000).contains(&red_ms),
        "Red has about 1 s: {red_ms}"
    );
    // ... and once its time and the grace (1 s) have passed, Red has lost on time.
    advance(&server, 1500);
    let (state, _) = over_without_asking(&server, &game.id);
    assert_eq!(state["ending"], "time", "{state}");
    assert_eq!(state["result"], "0-1");
    assert_eq!(state["conclusion"], "Blue wins: Red ran out of time");
    assert_eq!(state["clock"]["red_ms"], 0);
    assert_eq!(state["clock"]["running"], Value::Null);
    assert!(state["clock"]["blue_ms"].as_i64().unwrap() > 59_000);
    let record = server.get(&format!("/api/games/{}/record", game.id)).body;
    let record = record.as_str().unwrap();
    assert!(record.contains("[Termination \"time\"]"), "{record}");
    assert!(record.contains("[TimeControl \"60+0\"]"), "{record}");
    // A move now is refused: the game is over.
    let late = play(&server, &game, None);
    assert_eq!(
        (late.status, &late.body["kind"]),
        (409, &json!("game_over")),
        "{}",
        late.body
    ); // Its rematch has the same clock.
    let body = json!({ "token": token(&game, "red") });
    let rematch = server.post(&format!("/api/games/{}/rematch", game.id), &body);
    assert_eq!(rematch.status, 201, "{}", rematch.body);
    assert_eq!(rematch.body["state"]["clock"]["initial_s"], 60);
    assert_eq!(rematch.body["state"]["clock"]["red_ms"], 60_000);
}

fn a_game_whose_first_move_does_not_come_is_aborted(backend: Backend) {
    let dir = TempDir::new(&format!("clock-abort-{backend:?}"));
    let server = server(&backend.database(&dir));
    let nobody_moves = timed(&server, json!({ "initial_s": 180, "increment_s": 2 }));
    let blue_does_not = timed(&server, json!({ "initial_s": 180, "increment_s": 2 }));
    let state = server.state(&nobody_moves.id);
    assert_eq!(state["clock"]["running"], Value::Null);
    assert!(state["clock"]["first_move_ms"].as_i64().unwrap() > 29_000);
    advance(&server, 20_000);
    assert_eq!(play(&server, &blue_does_not, None).status, 200);
    // 31 s after the start: the first game is aborted; Blue still has 19 s.
    advance(&server, 11_000);
    let (state, _) = over_without_asking(&server, &nobody_moves.id);
    assert_eq!(
        (&state["ending"], &state["result"]),
        (&json!("aborted"), &json!("*"))
    );
    let state = server.state(&blue_does_not.id);
    assert_eq!(state["over"], false);
    let left = state["clock"]["first_move_ms"].as_i64().unwrap();
    assert!((18_000..=20_000).contains(&left), "{left}");
    advance(&server, 20_000);
    let (state, _) = over_without_asking(&server, &blue_does_not.id);
    assert_eq!(state["ending"], "aborted", "{state}");
}

fn lag_within_the_quota_is_forgiven_and_beyond_it_not(backend: Backend) {
    let dir = TempDir::new(&format!("clock-lag-{backend:?}"));
    let server = server(&backend.database(&dir));
    // 3+0: a quota of 3 × min(1 s, 180 s × 0.4 % + 0.15 s) = 2610 ms to start with.
    let game = timed(&server, json!({ "initial_s": 180, "increment_s": 0 }));
    start_clocks(&server, &game);
    // Red: 10 s by the server's count, 9 s by the client's: 1 s of lag, all forgiven.
    advance(&server, 10_000);
    let red = play(&server, &game, Some(9000));
    assert_eq!(red.status, 200, "{}", red.body);
    assert_eq!(red.body["clock"]["red_ms"], 180_000 - 9000);
    // Blue claims 10 s of lag: only the quota is forgiven.
    advance(&server, 10_000);
    let blue = play(&server, &game, Some(0));
    assert_eq!(blue.status, 200, "{}", blue.body);
    let blue_ms = blue.body["clock"]["blue_ms"].as_i64().unwrap();
    let expected = 180_000 - (10_000 - 2610);
    assert!(
        (expected - 500..=expected).contains(&blue_ms),
        "Blue has {blue_ms}, about {expected}"
    );
    // Red's move 171.3 s later, by the server's count 0.3 s after Red's time ran out, is in
    // time: 1.3 s of it was lag, forgiven (the quota is 2610 - 1000 + 870 = 2480 ms).
    advance(&server, 171_300);
    let red = play(&server, &game, Some(170_000));
    assert_eq!(red.status, 200, "{}", red.body);
    assert_eq!(red.body["clock"]["red_ms"], 1000);
    // Blue's, 0.6 s after its time ran out with no lag claimed, is not: refused, and Blue
    // loses on time once the grace has passed.
    let blue_ms = server.state(&game.id)["clock"]["blue_ms"].as_i64().unwrap();
    advance(&server, blue_ms + 600);
    let late = play(&server, &game, Some((blue_ms + 600) as u64));
    assert_eq!(
        (late.status, &late.body["kind"]),
        (409, &json!("out_of_time")),
        "{}",
        late.body
    );
    let (state, _) = over_without_asking(&server, &game.id);
    assert_eq!(
        (&state["ending"], &state["result"]),
        (&json!("time"), &json!("1-0"))
    );
}

fn time_is_given_and_an_absent_opponents_game_claimed(backend: Backend) {
    let dir = TempDir::new(&format!("clock-claim-{backend:?}"));
    let server = server(&backend.database(&dir));
    let game = timed(&server, json!({ "initial_s": 120, "increment_s": 1 }));
    start_clocks(&server, &game);
    let path = |action: &str| format!("/api/games/{}/{action}", game.id);
    let given = server.post(&path("give-time"), &json!({ "token": token(&game, "red") }));
    assert_eq!(given.status, 200, "{}", given.body);
    assert_eq!(given.body["clock"]["blue_ms"], 135_000);
    // Red's page is open; Red plays; Blue, to move, has no page: gone, but not for 15 s.
    let red_page = server
        .watch_with(&game.id, Some(&token(&game, "red")))
        .unwrap();
    assert_eq!(play(&server, &game, Some(0)).status, 200);
    let claim = |result: &str| {
        let body = json!({ "token": token(&game, "red"), "result": result });
        server.post(&path("claim"), &body)
    };
    advance(&server, 10_000);
    let early = claim("win");
    assert_eq!(
        (early.status, &early.body["kind"]),
        (409, &json!("opponent_here")),
        "{}",
        early.body
    );
    // Blue may not claim Red's absence: Red is here, and it is Blue's turn.
    let body = json!({ "token": token(&game, "blue"), "result": "win" });
    let wrong = server.post(&path("claim"), &body);
    assert_eq!(wrong.body["kind"], "opponent_here", "{}", wrong.body);
    advance(&server, 6000);
    let claimed = claim("win");
    assert_eq!(claimed.status, 200, "{}", claimed.body);
    assert_eq!(claimed.body["ending"], "abandoned");
    assert_eq!(claimed.body["result"], "1-0");
    drop(red_page);
    // Untimed: neither command.
    let untimed = server.create(json!({ "red": "human", "blue": "human" }));
    let body = json!({ "token": untimed.red.clone().unwrap() });
    let refused = server.post(&format!("/api/games/{}/give-time", untimed.id), &body);
    assert_eq!(
        (refused.status, &refused.body["kind"]),
        (409, &json!("no_clock"))
    );
}

fn a_draw_offer_is_declined(backend: Backend) {
    let dir = TempDir::new(&format!("clock-decline-{backend:?}"));
    let server = server(&backend.database(&dir));
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let path = |action: &str| format!("/api/games/{}/{action}", game.id);
    let red = json!({ "token": token(&game, "red") });
    let blue = json!({ "token": token(&game, "blue") });
    let none = server.post(&path("draw/decline"), &blue);
    assert_eq!(
        (none.status, &none.body["kind"]),
        (409, &json!("no_draw_offer"))
    );
    assert_eq!(server.post(&path("draw"), &red).body["draw_offer"], "red");
    let own = server.post(&path("draw/decline"), &red);
    assert_eq!(
        own.body["kind"], "no_draw_offer",
        "one's own offer is not declined"
    );
    let declined = server.post(&path("draw/decline"), &blue);
    assert_eq!(declined.status, 200, "{}", declined.body);
    assert_eq!(declined.body["draw_offer"], Value::Null);
    assert_eq!(declined.body["over"], false);
}

fn bad_clocks_are_refused(backend: Backend) {
    let dir = TempDir::new(&format!("clock-bad-{backend:?}"));
    let server = server(&backend.database(&dir));
    for clock in [
        json!({ "initial_s": 10, "increment_s": 0 }),
        json!({ "initial_s": 10_801, "increment_s": 0 }),
        json!({ "initial_s": 60, "increment_s": 181 }),
        json!({ "days": 0 }),
        json!({ "days": 15 }),
    ] {
        let body = json!({ "red": "human", "blue": "human", "clock": clock });
        let reply = server.post("/api/games", &body);
        assert_eq!(
            (reply.status, &reply.body["kind"]),
            (400, &json!("bad_clock")),
            "{clock}"
        );
    }
    let two_computers = json!({ "red": "random", "blue": "random", "clock": { "days": 1 } });
    let reply = server.post("/api/games", &two_computers);
    assert_eq!(
        (reply.status, &reply.body["kind"]),
        (400, &json!("bad_player"))
    );
    let odd = json!({ "red": "human", "blue": "human", "clock": { "minutes": 3 } });
    assert_eq!(server.post("/api/games", &odd).status, 422);
    // Correspondence: days a move, given again after each move.
    let days = timed(&server, json!({ "days": 2 }));
    start_clocks(&server, &days);
    advance(&server, 86_400_000);
    let moved = play(&server, &days, None);
    assert_eq!(moved.body["clock"]["red_ms"], 2 * 86_400_000);
    assert_eq!(moved.body["clock"]["speed"], "correspondence");
}

on_both_backends!(
    a_real_time_game_is_flagged_by_the_server_with_no_client_connected,
    a_game_whose_first_move_does_not_come_is_aborted,
    lag_within_the_quota_is_forgiven_and_beyond_it_not,
    time_is_given_and_an_absent_opponents_game_claimed,
    a_draw_offer_is_declined,
    bad_clocks_are_refused,
);

#[test]
fn a_game_is_flagged_by_instance_b_after_instance_a_is_killed() {
    let url = cluster().database("clock_kill");
    let a = server(&url);
    let b = server(&url);
    let game = timed(&a, json!({ "initial_s": 30, "increment_s": 0 }));
    start_clocks(&a, &game);
    // A holds the game in memory, and dies.
    a.kill();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.state(&game.id)["over"], false);
    advance(&b, 31_500);
    let (state, took) = over_without_asking(&b, &game.id);
    assert_eq!(state["ending"], "time", "{state}");
    println!("flagged by B {took:?} after the deadline and grace passed");
}

#[test]
fn the_time_no_instance_ran_is_given_back() {
    let dir = TempDir::new("clock-restart");
    let db = Backend::Sqlite.database(&dir);
    let first = server(&db);
    let game = timed(&first, json!({ "initial_s": 60, "increment_s": 0 }));
    start_clocks(&first, &game);
    let before = first.state(&game.id)["clock"]["red_ms"].as_i64().unwrap();
    first.kill();
    // Down for 4.5 s, more than the 3 s an instance may go without saying it is alive.
    std::thread::sleep(Duration::from_millis(4500));
    let second = server(&db);
    let after = second.state(&game.id)["clock"]["red_ms"].as_i64().unwrap();
    // Given back, to the last time the first instance said it was alive (at most 1 s
    // before it died, so Red gets up to a second more, never less).
    assert!(
        after >= before - 300 && after <= before + 1200,
        "Red had {before} ms before the restart and {after} after"
    );
}
