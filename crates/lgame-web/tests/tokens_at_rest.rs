//! Tokens hashed at rest: the database file holds SHA-256(game id ‖ token) of each human
//! side, never a token, so a copied file gives nobody control of a game; a database of the
//! previous schema (tokens in clear) is migrated and its tokens still play. The lobby's
//! secrets (a seek's token, a quick pairing ticket, which then play their games' seats) are
//! kept as their SHA-256 alone too.

use std::path::Path;

use lgame_test_support::accounts::Browser;
use lgame_test_support::http::a_legal_move;
use lgame_test_support::postgres;
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use rusqlite::Connection;
use serde_json::json;
use sha2::{Digest, Sha256};

fn sha256_hex(id: &str, token: &str) -> String {
    let digest = Sha256::new()
        .chain_update(id.as_bytes())
        .chain_update(token.as_bytes())
        .finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of the database and of its WAL and shared-memory files.
fn file_bytes(db: &Path) -> Vec<u8> {
    ["", "-wal", "-shm"]
        .iter()
        .filter_map(|suffix| std::fs::read(format!("{}{suffix}", db.display())).ok())
        .flatten()
        .collect()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Every value of every table, as text.
fn every_value(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(tables.iter().any(|t| t == "games") && tables.iter().any(|t| t == "moves"));
    let mut values = Vec::new();
    for table in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let columns = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for i in 0..columns {
                let value: rusqlite::types::Value = row.get(i).unwrap();
                values.push(format!("{value:?}"));
            }
        }
    }
    values
}

/// Three games with people created and played a little: each person's (game id, token).
fn games_with_people(server: &Server) -> Vec<(String, String)> {
    let mut tokens = Vec::new();
    for (i, spec) in [
        json!({ "red": "human", "blue": "perfect" }),
        json!({ "red": "human", "blue": "human" }),
        json!({ "red": "beginner", "blue": "human", "setup": "kit" }),
    ]
    .into_iter()
    .enumerate()
    {
        let game = server.create(spec);
        let mut state = game.body["state"].clone();
        for m in 0..3 {
            if state["over"] == true {
                break;
            }
            let ply = state["plies"].as_u64().unwrap();
            let reply = server.play(
                &game.id,
                game.token_for(&state),
                ply + 1,
                &a_legal_move(&state, i + m),
            );
            assert_eq!(reply.status, 200, "{}", reply.body);
            state = reply.body;
        }
        for token in game.red.iter().chain(&game.blue) {
            tokens.push((game.id.clone(), token.clone()));
        }
    }
    assert_eq!(tokens.len(), 4);
    tokens
}

#[test]
fn after_games_are_created_and_played_the_database_holds_no_token() {
    let dir = TempDir::new("at-rest");
    let server = Server::start(dir.db());
    let tokens = games_with_people(&server);
    // Read beside the running server (WAL), then again once it has stopped.
    let values = every_value(&dir.db());
    for (id, token) in &tokens {
        // What is stored is the hash: the test looks at the right place.
        assert!(values.iter().any(|v| v.contains(&sha256_hex(id, token))));
        assert!(!values.iter().any(|v| v.contains(token.as_str())));
        assert!(
            !contains(&file_bytes(&dir.db()), token),
            "{token} in the files"
        );
    }
    drop(server);
    let bytes = file_bytes(&dir.db());
    assert!(!bytes.is_empty());
    for (_, token) in &tokens {
        assert!(!contains(&bytes, token), "{token} in the file");
    }
}

#[test]
fn the_lobbys_seek_tokens_and_tickets_are_held_only_as_hashes() {
    let dir = TempDir::new("at-rest-lobby");
    let server = Server::start(dir.db());
    let browser = || Browser::new(&server.addr);
    let (seeker, taker) = (browser(), browser());
    let seek = seeker.post("/api/seeks", &json!({ "clock": { "days": 1 } }));
    assert_eq!(seek.status, 201, "{}", seek.body);
    let id = seek.body["id"].as_str().unwrap();
    let taken = taker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(taken.status, 201, "{}", taken.body);
    let mut secrets = vec![seek.body["token"].as_str().unwrap().to_string()];
    let players = [browser(), browser()];
    for player in &players {
        let ticket = player.post("/api/pairing", &json!({ "control": "1d" }));
        assert_eq!(ticket.status, 202, "{}", ticket.body);
        secrets.push(ticket.body["ticket"].as_str().unwrap().to_string());
    }
    // Paired by the next wave (every 2 s).
    let started = std::time::Instant::now();
    while players[0].get(&format!("/api/pairing/{}", secrets[1])).body["status"] != "paired" {
        assert!(started.elapsed().as_secs() < 10, "never paired");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let values = every_value(&dir.db());
    for secret in &secrets {
        let hash = sha256_hex("", secret);
        assert!(values.iter().any(|v| v.contains(&hash)), "its hash is kept");
        assert!(!values.iter().any(|v| v.contains(secret.as_str())));
    }
    drop(server);
    let bytes = file_bytes(&dir.db());
    for secret in &secrets {
        assert!(!contains(&bytes, secret), "{secret} in the file");
    }
}

#[test]
fn a_database_of_the_previous_schema_migrates_and_its_tokens_still_play() {
    let dir = TempDir::new("migrate-tokens");
    let (id, red, blue) = (
        "00000000000000a1",
        "0123456789abcdef0123456789abcdef",
        "fedcba9876543210fedcba9876543210",
    );
    {
        // Schema version 1, as the server before hashing wrote it: tokens in clear.
        let conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE games (
                id TEXT PRIMARY KEY, created INTEGER NOT NULL, header TEXT NOT NULL,
                red TEXT NOT NULL, blue TEXT NOT NULL, red_token TEXT, blue_token TEXT,
                seed INTEGER NOT NULL, termination TEXT, result TEXT, draw_offer TEXT
             ) STRICT;
             CREATE TABLE moves (
                game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
                mv TEXT NOT NULL, PRIMARY KEY (game, ply)
             ) STRICT, WITHOUT ROWID;
             PRAGMA user_version = 1;",
        )
        .unwrap();
        let header = lgame::Record::from_game(&lgame::Game::new(lgame::Rules::default()));
        conn.execute(
            "INSERT INTO games (id, created, header, red, blue, red_token, blue_token, seed)
             VALUES (?1, 0, ?2, 'human', 'human', ?3, ?4, 1)",
            rusqlite::params![id, header.to_string(), red, blue],
        )
        .unwrap();
    }
    assert!(contains(&file_bytes(&dir.db()), red));
    let server = Server::start(dir.db());
    // Migrated and checkpointed at start: the files hold no token even while it runs.
    for token in [red, blue] {
        assert!(
            !contains(&file_bytes(&dir.db()), token),
            "{token} in the files"
        );
    }
    let state = server.state(id);
    let stranger = server.play(id, &red.replace('0', "1"), 1, &a_legal_move(&state, 0));
    assert_eq!(stranger.status, 403, "{}", stranger.body);
    let early = server.play(id, blue, 1, &a_legal_move(&state, 0));
    assert_eq!(
        early.status, 409,
        "blue's token is blue's, and not to move: {}",
        early.body
    );
    let moved = server.play(id, red, 1, &a_legal_move(&state, 0));
    assert_eq!(moved.status, 200, "{}", moved.body);
    let you = server.get(&format!("/api/games/{id}?token={blue}"));
    assert_eq!(you.body["you"], "blue");
    drop(server);
    let values = every_value(&dir.db());
    assert!(values.iter().any(|v| v.contains(&sha256_hex(id, red))));
    let bytes = file_bytes(&dir.db());
    for token in [red, blue] {
        assert!(!values.iter().any(|v| v.contains(token)));
        assert!(!contains(&bytes, token), "{token} left in the file");
    }
}

#[test]
fn a_postgresql_database_holds_no_token_either() {
    let cluster = postgres::cluster();
    let db = cluster.database("at-rest");
    let server = Server::start(&db);
    let tokens = games_with_people(&server);
    // Everything the database holds, as PostgreSQL's own dump writes it.
    let dump = std::process::Command::new(cluster.program("pg_dump"))
        .args(["--data-only", "--dbname", &db])
        .output()
        .expect("pg_dump runs");
    assert!(dump.status.success(), "{dump:?}");
    let dump = String::from_utf8(dump.stdout).unwrap();
    for (id, token) in &tokens {
        assert!(dump.contains(&sha256_hex(id, token)), "the hash is stored");
        assert!(!dump.contains(token.as_str()), "{token} in the database");
    }
}
