//! A change the database refuses never reaches the game in memory (issue #39: a command is
//! decided on a copy of the game, stored, and only then swapped in). With every change to a
//! game refused by the database (a trigger the test adds), each kind of change — a move with
//! the computer's reply, an undo, an end, an offer and its answer, time given — is answered
//! with the refusal, and the game the server shows (moves, clocks, offers, the end) is the
//! game a second server loads from the database: on both backends.

use std::time::{SystemTime, UNIX_EPOCH};

use lgame_test_support::backends::Backend;
use lgame_test_support::http::{quiet_moves, Client, Created, Reply};
use lgame_test_support::postgres::cluster;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::{json, Value};

const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

/// Ten minutes and three more a move: no clock runs out during the test, and a move's
/// clocks kept in memory after the database refused it would show three minutes more.
const CLOCK: &str = r#"{ "initial_s": 600, "increment_s": 180 }"#;

/// Makes the database refuse every change to a game from now on, as a database that cannot
/// write would: the edit's first statement fails.
fn refuse_every_change(backend: Backend, dir: &TempDir, db: &str) {
    match backend {
        Backend::Sqlite => {
            let conn = rusqlite::Connection::open(dir.db()).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(30))
                .unwrap();
            conn.execute_batch(
                "CREATE TRIGGER refuse_changes BEFORE UPDATE ON games
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;",
            )
            .unwrap();
        }
        Backend::Postgres => {
            let name = db.rsplit('/').next().unwrap();
            let sql = "CREATE FUNCTION refuse_changes() RETURNS trigger LANGUAGE plpgsql
                       AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
                       CREATE TRIGGER refuse_changes BEFORE UPDATE ON games
                       FOR EACH ROW EXECUTE FUNCTION refuse_changes();";
            cluster().query(name, sql).unwrap();
        }
    }
}

/// The wall clock in milliseconds, as the servers read it.
fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Asserts that the game `live` shows is the game `fresh` loaded from the database. The
/// running side's time goes on between the two reads: `fresh`'s is less by at most the time
/// between them; everything else is equal.
fn assert_stored(live: &Client, fresh: &Client, id: &str, what: &str) {
    let before = wall_ms();
    let mut shown = live.state(id);
    let mut stored = fresh.state(id);
    let between = wall_ms() - before;
    if let Some(side) = shown["clock"]["running"].as_str() {
        let key = format!("{side}_ms");
        let (a, b) = (&shown["clock"][&key], &stored["clock"][&key]);
        let (a, b) = (a.as_i64().unwrap(), b.as_i64().unwrap_or(i64::MIN));
        assert!(
            b <= a && a - b <= between,
            "{what}: {side}'s time shown {a} ms, stored {b} ms, read {between} ms apart"
        );
        shown["clock"][&key] = Value::Null;
        stored["clock"][&key] = Value::Null;
    }
    assert_eq!(shown, stored, "{what}: the game shown is the game stored");
}

/// Asserts that the database refused the change (the server answers 500, the game as it
/// was) and that the game shown is still the game stored.
fn refused(reply: Reply, live: &Client, fresh: &Client, id: &str, what: &str) {
    assert_eq!(reply.status, 500, "{what}: {}", reply.body);
    assert_eq!(reply.body["kind"], "internal", "{what}: {}", reply.body);
    assert_stored(live, fresh, id, what);
}

fn post(server: &Client, game: &Created, path: &str, token: &Option<String>) -> Reply {
    let token = token.as_deref().unwrap();
    server.post(
        &format!("/api/games/{}/{path}", game.id),
        &json!({ "token": token }),
    )
}

/// The side to move plays a quiet move; panics unless it is stored.
fn play(server: &Client, game: &Created) -> Value {
    let state = server.state(&game.id);
    let ply = state["plies"].as_u64().unwrap() + 1;
    let reply = server.play(
        &game.id,
        game.token_for(&state),
        ply,
        &quiet_moves(&state)[0],
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body
}

fn a_change_the_database_refuses_leaves_the_game_as_stored(backend: Backend) {
    let dir = TempDir::new(&format!("decide-refused-{backend:?}"));
    let db = backend.database(&dir);
    let live = ServeProcess::start(SERVER, &db, &["create_limit=0"]);
    let clock: Value = serde_json::from_str(CLOCK).unwrap();

    // Two people, both first moves made (the clocks run, Red's), Red offering a draw and
    // asking to take back its move.
    let friends = live.create(json!({
        "red": "human", "blue": "human", "repetition": 0, "clock": clock,
    }));
    play(&live, &friends);
    play(&live, &friends);
    for path in ["draw", "undo"] {
        let reply = post(&live, &friends, path, &friends.red);
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
    }
    let standing = live.state(&friends.id);
    assert_eq!(
        (
            &standing["draw_offer"],
            &standing["undo_request"],
            &standing["clock"]["running"]
        ),
        (&json!("red"), &json!("red"), &json!("red")),
        "{standing}"
    );
    // A person against the computer, two moves each.
    let computer = live.create(json!({ "red": "human", "blue": "random", "clock": clock }));
    play(&live, &computer);
    let state = play(&live, &computer);
    assert_eq!(state["plies"], 4, "{state}");

    refuse_every_change(backend, &dir, &db);
    let fresh = ServeProcess::start(SERVER, &db, &["create_limit=0"]);
    assert_stored(&live, &fresh, &friends.id, "before any refusal");
    assert_stored(&live, &fresh, &computer.id, "before any refusal");

    let id = &friends.id;
    let state = live.state(id);
    let mv = &quiet_moves(&state)[0];
    let moved = live.play(id, friends.red.as_deref().unwrap(), 3, mv);
    refused(moved, &live, &fresh, id, "Red's move");
    let changes = [
        ("undo/accept", &friends.blue, "Blue lets Red take back"),
        (
            "undo/decline",
            &friends.blue,
            "Blue refuses to let Red take back",
        ),
        ("draw", &friends.blue, "Blue accepts the draw"),
        ("draw/decline", &friends.blue, "Blue declines the draw"),
        ("give-time", &friends.red, "Red gives Blue time"),
        ("give-time", &friends.blue, "Blue gives Red time"),
        ("resign", &friends.blue, "Blue resigns"),
    ];
    for (path, token, what) in changes {
        let reply = post(&live, &friends, path, token);
        refused(reply, &live, &fresh, id, what);
    }

    let id = &computer.id;
    let state = live.state(id);
    let mv = &quiet_moves(&state)[0];
    let moved = live.play(id, computer.red.as_deref().unwrap(), 5, mv);
    refused(moved, &live, &fresh, id, "a move and the computer's reply");
    let undo = post(&live, &computer, "undo", &computer.red);
    refused(undo, &live, &fresh, id, "taking back against the computer");
    assert_eq!(live.state(id)["plies"], 4);
}

on_both_backends!(a_change_the_database_refuses_leaves_the_game_as_stored);
