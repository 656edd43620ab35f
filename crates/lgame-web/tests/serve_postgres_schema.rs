//! The server on PostgreSQL, each instance a process of its own (lgame-web's test server):
//! the schema made once however many instances start together, a newer schema refused, and
//! a database that cannot be reached named in a clear error (never its password) instead
//! of a wait.

use std::time::{Duration, Instant};

use lgame_test_support::postgres;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::stderr;

/// lgame-web's test server, `lgame_web::run` in a process of its own.
const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

#[test]
fn instances_starting_together_make_the_schema_once() {
    let cluster = postgres::cluster();
    let db = cluster.database("schema");
    let starting: Vec<_> = (0..3)
        .map(|_| {
            let db = db.clone();
            std::thread::spawn(move || ServeProcess::start(SERVER, &db, &[]))
        })
        .collect();
    let servers: Vec<ServeProcess> = starting.into_iter().map(|s| s.join().unwrap()).collect();
    for server in &servers {
        assert_eq!(server.get("/healthz").status, 200);
    }
    assert_eq!(
        cluster
            .query(&db, "SELECT version FROM lgame_schema")
            .unwrap()
            .trim(),
        "12"
    );
    let tables = cluster
        .query(
            &db,
            "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables \
             WHERE schemaname = 'public'",
        )
        .unwrap();
    assert_eq!(
        tables.trim(),
        "api_tokens,arena_games,arena_players,arenas,bot_events,challenges,footprints,games,lgame_alive,lgame_schema,mail_codes,mail_confirmed,mail_moves,mail_prefs,moves,push_keys,push_subscriptions,rating_changes,ratings,seekers,seeks,sessions,users"
    );
}

#[test]
fn a_database_of_a_newer_schema_is_refused() {
    let cluster = postgres::cluster();
    let db = cluster.database("newer");
    drop(ServeProcess::start(SERVER, &db, &[]));
    cluster
        .query(&db, "UPDATE lgame_schema SET version = 99")
        .unwrap();
    let out = SERVER.run(&db, &[]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("schema version 99, newer than this server's 12"),
        "{err}"
    );
}

#[test]
fn a_database_that_cannot_be_reached_is_a_clear_error_without_its_password() {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    let url = "postgres://lgame:s3cr3t@127.0.0.1:1/games";
    let started = Instant::now();
    let out = SERVER.run(url, &[]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it did not wait"
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("postgres://lgame:***@127.0.0.1:1/games"),
        "names the database: {err}"
    );
    assert!(!err.contains("s3cr3t"), "the password shown: {err}");
}
