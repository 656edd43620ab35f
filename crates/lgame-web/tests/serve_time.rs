//! One source of time (issue #39): every timer of the server reads its time source
//! (`clock::TimeSource`), so that moving it (`test_clock=true`, `POST /api/test/clock`)
//! moves them all. On both backends, a server in a process of its own is moved forward and,
//! with no other time passing, a challenge expires, a bot goes offline, a game nobody moved
//! in is aborted, a rate limit refills and a session expires. Read by the wall clock, none of
//! them would have (the test takes seconds, they take a minute to a month).
//!
//! A bot is online while its event stream is open, and the server marks it seen as long as
//! the stream is: its program gone means its stream ended, here by its server stopping (a
//! SIGKILL) and another starting on the same database, which the bot does not reconnect
//! to.

use std::time::{Duration, Instant};

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::bots::Program;
use lgame_test_support::http::Client;
use lgame_test_support::serve::{Program as Server, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::{json, Value};

const SERVER: Server = Server::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

const PASSWORD: &str = "Quiet-Lantern-Orbit-71";

/// Longest wait for the server to act on a deadline by itself (it looks every 50 ms).
const PATIENCE: Duration = Duration::from_secs(5);

/// Moves the server's time forward.
fn advance(server: &Client, ms: i64) {
    let reply = server.post("/api/test/clock", &json!({ "advance_ms": ms }));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

/// Whether the bot `name` is listed online.
fn online(server: &Client, name: &str) -> Value {
    let bots = server.get("/api/bots").body;
    bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["username"] == name)
        .unwrap_or_else(|| panic!("no bot {name}: {bots}"))["online"]
        .clone()
}

fn challenge_status(server: &Client, id: &str) -> Value {
    let page = server.get(&format!("/api/challenges/{id}"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.body["status"].clone()
}

/// A casual game without a clock, asked by the client's address: 201, or 429 past the limit.
fn create_status(server: &Client) -> u16 {
    let body = json!({ "red": "human", "blue": "random" });
    server.post("/api/games", &body).status
}

fn moving_the_servers_time_moves_every_timer(backend: Backend) {
    let dir = TempDir::new(&format!("time-{backend:?}"));
    let db = backend.database(&dir);

    // The first server: a bot whose program is connected, challenged by Alice; a game with
    // a clock that nobody moves in.
    let first = ServeProcess::start(SERVER, &db, &["create_limit=0", "test_clock=true"]);
    let alice = Browser::signed_up(&first.addr, "alice", PASSWORD);
    let bot = Program::new(
        &first.addr,
        &Browser::signed_up(&first.addr, "deepl", PASSWORD).bot_token(),
    );
    let events = bot.stream("/api/bot/events");
    let challenge = alice.post("/api/challenges/deepl", &json!({}));
    assert_eq!(challenge.status, 201, "{}", challenge.body);
    let challenge = challenge.body["id"].as_str().unwrap().to_string();
    let game = first.create(json!({
        "red": "human", "blue": "human",
        "clock": { "initial_s": 180, "increment_s": 2 },
    }));
    let session = alice.cookie("lgame_session").expect("Alice's session");

    // The bot's program goes with its server; the games, the challenge, the session and the
    // bot's last sighting stay in the database. The second server limits games created to
    // two a minute.
    first.kill();
    drop(events);
    let server = ServeProcess::start(SERVER, &db, &["create_limit=2", "test_clock=true"]);
    let alice = Browser::new(&server.addr);
    alice.put_cookie("lgame_session", Some(&session));

    // Before the server's time moves, every timer is still running.
    assert_eq!(online(&server, "deepl"), true);
    assert_eq!(challenge_status(&server, &challenge), "pending");
    let state = server.state(&game.id);
    assert_eq!(state["over"], false, "{state}");
    assert_eq!(state["clock"]["running"], Value::Null, "{state}");
    let account = alice.get("/api/account");
    assert_eq!(
        (account.status, &account.body["username"]),
        (200, &json!("alice")),
        "{}",
        account.body
    );
    assert_eq!([create_status(&server), create_status(&server)], [201, 201]);
    assert_eq!(create_status(&server), 429);

    // A minute and a second of the server's time, and nothing else.
    advance(&server, 61_000);
    // Unanswered for a minute: withdrawn, and no longer answered.
    assert_eq!(challenge_status(&server, &challenge), "canceled");
    // Unseen for 15 s: offline, and so not challenged.
    assert_eq!(online(&server, "deepl"), false);
    let refused = alice.post("/api/challenges/deepl", &json!({}));
    assert_eq!(
        (refused.status, refused.kind()),
        (409, "bot_offline"),
        "{}",
        refused.body
    );
    // Two games a minute: the bucket has refilled.
    assert_eq!(create_status(&server), 201);
    // No first move within 30 s: aborted, by the server alone.
    let started = Instant::now();
    let mut state = server.state(&game.id);
    while state["over"] != true && started.elapsed() < PATIENCE {
        std::thread::sleep(Duration::from_millis(50));
        state = server.state(&game.id);
    }
    assert_eq!(
        (&state["ending"], &state["result"]),
        (&json!("aborted"), &json!("*")),
        "{state}"
    );
    // Still logged in a minute on...
    assert_eq!(alice.get("/api/account").status, 200);

    // ... and no longer 30 days on: the session has expired.
    advance(&server, 30 * 24 * 3600 * 1000);
    let expired = alice.get("/api/account");
    assert_eq!(
        (expired.status, expired.kind()),
        (401, "no_session"),
        "{}",
        expired.body
    );
}

on_both_backends!(moving_the_servers_time_moves_every_timer);
