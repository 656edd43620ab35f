//! `lgame admin backup` (docs/deploy.md, "Backups"): a copy of a running server's SQLite
//! database taken while moves are played holds every move answered before it began, passes
//! `PRAGMA integrity_check` and serves again; an existing file is replaced only with
//! `--force`; a PostgreSQL database is sent to pg_dump.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use lgame_test_support::http::{quiet_moves, Client};
use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};
use serde_json::json;

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// The moves answered 200: each game's id and the move's ply.
type Answered = Arc<Mutex<Vec<(String, u64)>>>;

/// Plays games of two people at `addr` until `stop`, a move at a time (games cut at 60
/// plies, so that many games are written), recording each move answered.
fn play(addr: String, seed: usize, answered: Answered, stop: Arc<AtomicBool>) {
    let client = Client::new(addr);
    while !stop.load(Ordering::Relaxed) {
        let game = client.create(json!({"red": "human", "blue": "human", "repetition": 0}));
        let mut state = game.body["state"].clone();
        for ply in 1..=60u64 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let moves = quiet_moves(&state);
            let mv = &moves[(seed + ply as usize) % moves.len()];
            let reply = client.play(&game.id, game.token_for(&state), ply, mv);
            assert_eq!(reply.status, 200, "{}", reply.body);
            answered.lock().unwrap().push((game.id.clone(), ply));
            state = reply.body;
        }
    }
}

/// Waits (up to 60 s) until at least `count` moves were answered.
fn wait_for(answered: &Answered, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while answered.lock().unwrap().len() < count {
        assert!(
            Instant::now() < deadline,
            "fewer than {count} moves in 60 s"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

fn integrity(db: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut check = conn.prepare("PRAGMA integrity_check").unwrap();
    let rows = check.query_map([], |row| row.get(0)).unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

#[test]
fn a_backup_under_load_holds_every_move_answered_before_it_and_serves() {
    let dir = TempDir::new("backup");
    let server = ServeProcess::start(LGAME, dir.db(), &["--create-limit", "0"]);
    let answered = Answered::default();
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..2)
        .map(|seed| {
            let (addr, answered, stop) = (server.addr.clone(), answered.clone(), stop.clone());
            thread::spawn(move || play(addr, seed, answered, stop))
        })
        .collect();

    wait_for(&answered, 100);
    let before = answered.lock().unwrap().clone();
    let copy = dir.path().join("copy.db");
    let (ok, said) = LGAME.admin(dir.db(), &["backup", "--out", copy.to_str().unwrap()]);
    // The moves went on during the copy and after it.
    let after = answered.lock().unwrap().len();
    wait_for(&answered, after + 20);
    stop.store(true, Ordering::Relaxed);
    for player in players {
        player.join().unwrap();
    }
    assert!(ok, "{said}");
    assert!(said.contains("integrity ok"), "{said}");

    // A plain SQLite file, whole in itself: no WAL beside it, no partial copy left.
    assert_eq!(integrity(&copy), ["ok"]);
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("copy") || name.contains("partial"))
        .collect();
    files.sort();
    assert_eq!(files, ["copy.db"]);

    let restored = ServeProcess::start(LGAME, &copy, &[]);
    for (id, ply) in &before {
        let state = restored.state(id);
        let plies = state["moves"].as_array().unwrap().len() as u64;
        assert!(
            plies >= *ply,
            "game {id}: {plies} plies in the copy, move {ply} answered"
        );
    }
}

#[test]
fn an_existing_file_is_replaced_only_with_force() {
    let dir = TempDir::new("backup-force");
    let server = ServeProcess::start(LGAME, dir.db(), &[]);
    server.create(json!({"red": "human", "blue": "human"}));
    let db = dir.db().to_str().unwrap().to_string();
    let copy = dir.path().join("copy.db");
    std::fs::write(&copy, "an older backup").unwrap();
    let out = copy.to_str().unwrap();

    let (ok, said) = LGAME.admin(&db, &["backup", "--out", out]);
    assert!(!ok, "{said}");
    assert!(said.contains("--force"), "{said}");
    assert_eq!(std::fs::read(&copy).unwrap(), b"an older backup");

    let (ok, said) = LGAME.admin(&db, &["backup", "--out", out, "--force"]);
    assert!(ok, "{said}");
    assert_eq!(integrity(&copy), ["ok"]);

    // Never the database itself, even with --force.
    let (ok, said) = LGAME.admin(&db, &["backup", "--out", &db, "--force"]);
    assert!(!ok, "{said}");
    assert!(said.contains("the database itself"), "{said}");
}

#[test]
fn a_postgresql_database_is_sent_to_pg_dump() {
    let dir = TempDir::new("backup-postgres");
    let copy = dir.path().join("copy.db");
    // Nothing listens there: the refusal comes before any connection.
    let (ok, said) = LGAME.admin(
        "postgres://lgame:secret@127.0.0.1:1/games",
        &["backup", "--out", copy.to_str().unwrap()],
    );
    assert!(!ok, "{said}");
    assert!(said.contains("pg_dump"), "{said}");
    assert!(!said.contains("secret"), "{said}");
    assert!(!copy.exists());
}
