//! The writer: a round trip, batches, failures, panics, and the migration of tokens.
use super::*;
use crate::store::games::insert_moves;
use crate::store::wait;
use crate::store::{Edit, GameRow, Requests, StoredChange};
use lgame::Color;

type Store = crate::store::Store;

fn open(path: &Path, synchronous: Synchronous) -> Store {
    Store::sqlite(path, synchronous).unwrap()
}

/// A fresh database path in a directory of the test's own.
fn fresh(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lgame-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("t.db")
}

fn row(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        header: "[Variant \"classic\"]\n\n*\n".into(),
        seats: ["human".into(), "perfect".into()],
        token_hashes: [Some(token_hash(id, "t")), None],
        seed: u64::MAX,
        end: None,
        requests: Requests::default(),
        rematch: None,
        rematch_of: None,
        holders: [None, None],
        invites: [None, None],
        names: [None, None],
        bots: [false, false],
        arena: None,
        created: None,
        variant: None,
        category: None,
        version: 0,
        clock: Default::default(),
    }
}

/// An edit of game `id` made on `version`.
fn edit(id: &str, version: i64, change: StoredChange) -> Edit {
    Edit {
        id: id.into(),
        version,
        change,
        requests: Requests::default(),
        outcome: lgame::game::ResultToken::Unfinished,
        clock: Default::default(),
        at_ms: crate::clock::TimeSource::wall_ms(),
    }
}

fn append_edit(id: &str, version: i64, first: usize, mv: &str) -> Edit {
    let moves = vec![mv.to_string()];
    edit(id, version, StoredChange::Append { first, moves })
}

#[test]
fn a_game_and_its_moves_round_trip_and_a_ply_is_stored_once() {
    let path = fresh("round-trip");
    let store = open(&path, Synchronous::Normal);
    assert_eq!(wait(store.version()).unwrap(), MIGRATIONS.len() as u32);
    let row = row("g1");
    wait(store.insert_game(
        &row,
        &["a".into()],
        lgame::game::ResultToken::Unfinished,
        crate::clock::TimeSource::wall_ms(),
    ))
    .unwrap();
    store.queue(append_edit("g1", 0, 2, "b")).wait().unwrap();
    // The ply stored already, even on the right version: refused.
    assert!(store.queue(append_edit("g1", 1, 2, "c")).wait().is_err());
    // A stale version: refused as stale, nothing written.
    let stale = store
        .queue(append_edit("g1", 0, 3, "c"))
        .wait()
        .unwrap_err();
    assert!(matches!(stale, StoreError::Stale), "{stale:#}");
    let (mut back, moves) = wait(store.load("g1")).unwrap().unwrap();
    assert!(back.created.take().is_some(), "read back, never written");
    assert_eq!(back, GameRow { version: 1, ..row });
    assert_eq!(moves, ["a", "b"]);
    assert_eq!(wait(store.version_of("g1")).unwrap(), 1);
    assert!(matches!(
        wait(store.version_of("none")),
        Err(StoreError::NotFound)
    ));
    store
        .queue(Edit {
            requests: Requests {
                undo_request: Some(Color::Blue),
                draw_offer: None,
            },
            ..edit("g1", 1, StoredChange::Requests)
        })
        .wait()
        .unwrap();
    assert_eq!(
        wait(store.load("g1"))
            .unwrap()
            .unwrap()
            .0
            .requests
            .undo_request,
        Some(Color::Blue)
    );
    // An undo that leaves no request.
    store
        .queue(edit("g1", 2, StoredChange::Truncate { keep: 1 }))
        .wait()
        .unwrap();
    let (back, moves) = wait(store.load("g1")).unwrap().unwrap();
    assert_eq!(
        (back.version, back.requests.undo_request, moves),
        (3, None, vec!["a".to_string()])
    );
    drop(store);
    // Reopening does not migrate again.
    let store = open(&path, Synchronous::Full);
    assert_eq!(wait(store.count_games()).unwrap(), 1);
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// Holds the writer inside a batch of its own until the returned sender is dropped, so
/// that what is queued meanwhile is written together.
fn hold_writer(store: &Store) -> (mpsc::Sender<()>, Pending) {
    let (release, held) = mpsc::channel::<()>();
    let (started, holding) = mpsc::channel();
    let done = enqueue(
        store,
        Box::new(move |_| {
            Box::pin(async move {
                started.send(()).unwrap();
                let _ = held.recv();
                Ok(())
            })
        }),
    );
    holding.recv().unwrap();
    (release, done)
}

/// Queues a change without waiting for it.
fn enqueue(store: &Store, job: Job) -> Pending {
    store.0.write(job)
}

fn append(id: &'static str, ply: usize) -> Job {
    Box::new(move |c| Box::pin(async move { insert_moves(c, id, ply, &[format!("m{ply}")]).await }))
}

fn moves(store: &Store, id: &str) -> Vec<String> {
    wait(store.load(id)).unwrap().unwrap().1
}

#[test]
fn changes_queued_together_are_one_commit_and_a_refused_one_fails_alone() {
    let path = fresh("batch");
    let store = open(&path, Synchronous::Full);
    for id in ["g1", "g2", "g3"] {
        wait(store.insert_game(
            &row(id),
            &["m1".into()],
            lgame::game::ResultToken::Unfinished,
            crate::clock::TimeSource::wall_ms(),
        ))
        .unwrap();
    }
    let (changes, commits) = store.write_counts();
    assert_eq!(
        (changes, commits),
        (3, 3),
        "one commit each when nothing waits"
    );
    let (release, held) = hold_writer(&store);
    let outcomes: Vec<_> = [
        append("g1", 2),
        append("g2", 2),
        append("g1", 1),
        append("g3", 2),
    ]
    .into_iter()
    .map(|job| enqueue(&store, job))
    .collect();
    drop(release);
    held.wait().unwrap();
    let outcomes: Vec<bool> = outcomes.into_iter().map(|o| o.wait().is_ok()).collect();
    // Ply 1 of g1 is stored already: that change alone is refused.
    assert_eq!(outcomes, [true, true, false, true]);
    assert_eq!(
        store.write_counts(),
        (changes + 5, commits + 2),
        "the held batch, then the four queued behind it in one commit"
    );
    assert_eq!(moves(&store, "g1"), ["m1", "m2"]);
    assert_eq!(moves(&store, "g2"), ["m1", "m2"]);
    assert_eq!(moves(&store, "g3"), ["m1", "m2"]);
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_batch_whose_commit_fails_fails_every_change_and_writes_none() {
    let path = fresh("failed-commit");
    let store = open(&path, Synchronous::Full);
    for id in ["g1", "g2"] {
        wait(store.insert_game(
            &row(id),
            &[],
            lgame::game::ResultToken::Unfinished,
            crate::clock::TimeSource::wall_ms(),
        ))
        .unwrap();
    }
    let (release, held) = hold_writer(&store);
    // A move of a game that does not exist, its foreign key checked only at the commit:
    // the change itself succeeds, the commit of its batch fails.
    let poison: Job = Box::new(|c| {
        Box::pin(async move {
            c.execute("PRAGMA defer_foreign_keys = ON", &[]).await?;
            insert_moves(c, "none", 1, &["m1".into()]).await
        })
    });
    let outcomes: Vec<_> = [append("g1", 1), poison, append("g2", 1)]
        .into_iter()
        .map(|job| enqueue(&store, job))
        .collect();
    drop(release);
    held.wait().unwrap();
    for outcome in outcomes {
        let e = outcome.wait().unwrap_err();
        assert!(format!("{e:#}").contains("committing"), "{e:#}");
    }
    assert!(moves(&store, "g1").is_empty() && moves(&store, "g2").is_empty());
    // The writer goes on.
    store.queue(append_edit("g1", 0, 1, "m1")).wait().unwrap();
    assert_eq!(moves(&store, "g1"), ["m1"]);
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_change_that_panics_fails_its_batch_and_the_writer_goes_on() {
    let path = fresh("panic");
    let store = open(&path, Synchronous::Normal);
    for id in ["g1", "g2"] {
        wait(store.insert_game(
            &row(id),
            &[],
            lgame::game::ResultToken::Unfinished,
            crate::clock::TimeSource::wall_ms(),
        ))
        .unwrap();
    }
    let (release, held) = hold_writer(&store);
    let panics: Job =
        Box::new(|_| Box::pin(async { panic!("a change that panics (expected by the test)") }));
    let outcomes: Vec<_> = [append("g1", 1), panics, append("g2", 1)]
        .into_iter()
        .map(|job| enqueue(&store, job))
        .collect();
    drop(release);
    held.wait().unwrap();
    for outcome in outcomes {
        assert!(outcome.wait().is_err());
    }
    assert!(moves(&store, "g1").is_empty() && moves(&store, "g2").is_empty());
    store.queue(append_edit("g2", 0, 1, "m1")).wait().unwrap();
    assert_eq!(moves(&store, "g2"), ["m1"]);
    drop(store);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_version_1_database_has_its_tokens_replaced_by_their_hashes() {
    let path = fresh("migrate");
    let token = "0123456789abcdef0123456789abcdef";
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("PRAGMA journal_mode = WAL").unwrap();
        let Migration::Sql(v1) = MIGRATIONS[0] else {
            unreachable!("version 1 is SQL")
        };
        conn.execute_batch(v1).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO games (id, created, header, red, blue, red_token, blue_token, seed)
             VALUES ('g1', 0, 'h', 'human', 'perfect', '{token}', NULL, 7);
             PRAGMA user_version = 1;"
        ))
        .unwrap();
    }
    assert!(std::fs::read(&path)
        .unwrap()
        .windows(token.len())
        .any(|w| w == token.as_bytes()));
    let store = open(&path, Synchronous::Full);
    assert_eq!(wait(store.version()).unwrap() as usize, MIGRATIONS.len());
    let (back, _) = wait(store.load("g1")).unwrap().unwrap();
    assert_eq!(back.token_hashes, [Some(token_hash("g1", token)), None]);
    drop(store);
    // Closed (the WAL checkpointed into the file): the token is nowhere in it.
    let bytes = std::fs::read(&path).unwrap();
    assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}
