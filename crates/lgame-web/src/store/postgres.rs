//! The PostgreSQL backend: several server instances on one database.
//!
//! Each change is one transaction on a pooled connection (deadpool-postgres over
//! tokio-postgres): PostgreSQL itself groups the commits of concurrent transactions into one
//! flush of its log. A change moves its game's `version` up only if it still is the version
//! the change was made on (a row lock orders two instances' changes: the second finds the
//! version moved and fails as [`StoreError::Stale`]). Once committed, every instance is told through
//! `NOTIFY` on the channel [`CHANNEL`]: not in the change's own transaction, because
//! PostgreSQL holds one lock for every notifying transaction until its commit is flushed, and
//! so would flush the changes' commits one after another; instead an *announcer* task sends
//! the notices of the changes committed meanwhile in one transaction of their own, which need
//! not wait for the disk. One connection outside the pool `LISTEN`s for the notices, and
//! reconnects when it is lost.
//!
//! The backend runs on a small tokio runtime of its own, so that its blocking calls (a load,
//! a new game) can be made from any thread, in the server's runtime or not.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{AsyncMessage, IsolationLevel, NoTls};

use lgame::Color;

use super::{side_from_text, side_text, token_column};

mod accounts;
mod arenas;
mod bots;
mod fairplay;
mod lobby;
mod ratings;
use super::{
    Backend, Change, Edit, GameRow, Notice, Pending, Requests, StoreError, StoreResult, StoredClock,
};

/// The channel of the notices: payload `ID VERSION` (a change committed) or `p ID INSTANCE
/// RED BLUE` (the pages an instance has open on a game).
pub const CHANNEL: &str = "lgame_games";

/// Connections the pool opens at most.
const POOL_SIZE: usize = 16;

/// The lock taken while the schema is migrated, so that two instances starting together
/// migrate once (an arbitrary constant: "lgame" in ASCII).
const MIGRATION_LOCK: i64 = 0x6c_67_61_6d_65;

/// The schema, one migration per version (version = index + 1), kept in `lgame_schema`.
/// Version 1 is the SQLite schema at its version 4, in PostgreSQL's types.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created BIGINT NOT NULL DEFAULT extract(epoch FROM now())::bigint,
        header TEXT NOT NULL,              -- a record of no moves: variant, setup, draw rules
        red TEXT NOT NULL,                 -- the seats: human, or a player spec
        blue TEXT NOT NULL,
        red_token_hash TEXT,               -- the hash of a human side's secret
        blue_token_hash TEXT,
        seed BIGINT NOT NULL,              -- the computer players' seed (its 64 bits)
        termination TEXT,                  -- an end declared off the board, by name
        result TEXT,                       -- ... and its result token
        draw_offer TEXT,                   -- 'red' or 'blue': a standing offer
        undo_request TEXT,                 -- 'red' or 'blue': asking to take back
        rematch TEXT,
        rematch_of TEXT,
        version BIGINT NOT NULL DEFAULT 0  -- moved one up by every change
    );
    CREATE TABLE moves (
        game TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,              -- 1 for the first move
        mv TEXT NOT NULL,
        PRIMARY KEY (game, ply)
    );",
    // Version 2: the SQLite schema's version 5 (accounts, sessions, seats' holders).
    concat!(
        "CREATE TABLE users (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        email TEXT,
        created BIGINT NOT NULL,
        disabled BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL REFERENCES users(id),
        created BIGINT NOT NULL,
        used BIGINT NOT NULL,
        expires BIGINT NOT NULL
    );
    CREATE INDEX sessions_by_user ON sessions (user_id);",
        seat_columns!()
    ),
    // Version 3: the SQLite schema's version 6 (clocks, the instant an instance was alive).
    "ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
    CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
    CREATE TABLE lgame_alive (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        alive_ms BIGINT NOT NULL,
        downtime_ms BIGINT NOT NULL
    );",
    // Version 4: the SQLite schema's version 7 (the lobby).
    super::lobby::SCHEMA,
    // Version 5: the SQLite schema's version 8 (ratings).
    super::ratings::SCHEMA,
    // Version 6: the SQLite schema's version 9 (arena tournaments).
    super::arenas::SCHEMA,
    // Version 7: the SQLite schema's version 10 (bots).
    super::bots::SCHEMA_POSTGRES,
    // Version 8: the SQLite schema's version 11 (fair play).
    super::fairplay::SCHEMA,
    // Version 9: the SQLite schema's version 12 (each session's browser and address).
    super::accounts::SESSIONS_DEVICE,
];

/// Changes written and commits made: one each per change here.
#[derive(Default)]
struct Counts {
    changes: AtomicU64,
}

/// The database.
pub struct Store {
    runtime: Option<tokio::runtime::Runtime>,
    pool: Pool,
    /// The announcer's queue: the notices to send.
    announce: mpsc::UnboundedSender<String>,
    /// This instance's name in the notices of presence (random, per start).
    instance: String,
    notices: Mutex<Option<mpsc::UnboundedReceiver<Notice>>>,
    counts: Arc<Counts>,
}

/// Whether an error says the database cannot be reached: no connection to be had in time,
/// a connection lost, or the server refusing work as it shuts down or starts (SQLSTATE
/// classes 08, connection exception, and 57, operator intervention).
pub fn is_unreachable(cause: &(dyn std::error::Error + 'static)) -> bool {
    if let Some(e) = cause.downcast_ref::<deadpool_postgres::PoolError>() {
        return match e {
            deadpool_postgres::PoolError::Backend(e) => is_unreachable(e),
            deadpool_postgres::PoolError::Timeout(_) => true,
            _ => false,
        };
    }
    let Some(e) = cause.downcast_ref::<tokio_postgres::Error>() else {
        return false;
    };
    match e.code() {
        Some(state) => ["08", "57"]
            .iter()
            .any(|class| state.code().starts_with(class)),
        None => {
            e.is_closed() || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        }
    }
}

/// A connection string with its password hidden.
pub fn without_password(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        // scheme://user:password@host...: the password is between the first ':' and the
        // last '@' of the part before the path.
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        if let Some((userinfo, host)) = authority.rsplit_once('@') {
            if let Some((user, _)) = userinfo.split_once(':') {
                return format!("{scheme}://{user}:***@{host}{path}");
            }
        }
        return url.to_string();
    }
    url.split_whitespace()
        .map(|pair| match pair.split_once('=') {
            Some(("password", _)) => "password=***".to_string(),
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Store {
    /// Connects to the database at `url`, brings its schema up to date and starts
    /// listening for the other instances' changes.
    pub fn open(url: &str, instance: String) -> anyhow::Result<Store> {
        let shown = without_password(url);
        let mut config: tokio_postgres::Config = url
            .parse()
            .with_context(|| format!("reading the PostgreSQL connection string {shown}"))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        if config.get_application_name().is_none() {
            config.application_name("lgame serve");
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("lgame-postgres")
            .enable_all()
            .build()
            .context("starting the database's runtime")?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .context("making the connection pool")?;
        let (tell, notices) = mpsc::unbounded_channel();
        let (announce, committed) = mpsc::unbounded_channel();
        let store = Store {
            runtime: Some(runtime),
            announce,
            instance: instance.clone(),
            pool,
            notices: Mutex::new(Some(notices)),
            counts: Arc::default(),
        };
        let pool = store.pool.clone();
        // The root cause alone: the driver's and the pool's wrappers repeat themselves.
        store
            .run(async move { migrate(&pool).await })
            .map_err(|e| anyhow!("opening {shown}: {}", e.root_cause()))?;
        store.handle().spawn(listen(config, instance, tell));
        store
            .handle()
            .spawn(announcer(store.pool.clone(), committed));
        Ok(store)
    }

    fn handle(&self) -> &tokio::runtime::Handle {
        self.runtime
            .as_ref()
            .expect("the runtime lives as long as the store")
            .handle()
    }

    /// Runs `work` on the backend's runtime and waits for it (from any thread).
    fn run<T: Send + 'static>(
        &self,
        work: impl Future<Output = anyhow::Result<T>> + Send + 'static,
    ) -> anyhow::Result<T> {
        let (done, outcome) = std::sync::mpsc::channel();
        self.handle().spawn(async move {
            let _ = done.send(work.await);
        });
        outcome
            .recv()
            .map_err(|_| anyhow!("the database's runtime has stopped"))?
    }
}

impl Backend for Store {
    fn shared(&self) -> bool {
        true
    }

    fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    fn announce_presence(&self, id: &str, [red, blue]: [u32; 2]) {
        let _ = self
            .announce
            .send(format!("p {id} {} {red} {blue}", self.instance));
    }

    fn announce_lobby(&self, id: &str) {
        let _ = self.announce.send(format!("l {id}"));
    }

    fn write_counts(&self) -> (u64, u64) {
        let changes = self.counts.changes.load(Ordering::Relaxed);
        (changes, changes)
    }

    fn version(&self) -> StoreResult<u32> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let row = client
                .query_one("SELECT version FROM lgame_schema", &[])
                .await?;
            Ok(row.get::<_, i32>(0) as u32)
        })?)
    }

    fn overdue(&self, now_ms: i64, limit: usize) -> StoreResult<Vec<String>> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let query = client
                .prepare_cached(
                    "SELECT id FROM games WHERE deadline_ms <= $1 ORDER BY deadline_ms LIMIT $2",
                )
                .await?;
            let rows = client.query(&query, &[&now_ms, &(limit as i64)]).await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })?)
    }

    fn wake(&self, wall_ms: i64, gap_ms: i64) -> StoreResult<i64> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO lgame_alive (id, alive_ms, downtime_ms) VALUES (1, $1, 0)
                 ON CONFLICT DO NOTHING",
                &[&wall_ms],
            )
            .await?;
            // Locked to the commit: instances starting together count a gap once.
            let row = tx
                .query_one(
                    "SELECT alive_ms, downtime_ms FROM lgame_alive WHERE id = 1 FOR UPDATE",
                    &[],
                )
                .await?;
            let (alive, mut down): (i64, i64) = (row.get(0), row.get(1));
            if wall_ms - alive > gap_ms {
                down += wall_ms - alive;
            }
            tx.execute(
                "UPDATE lgame_alive SET alive_ms = greatest(alive_ms, $1), downtime_ms = $2",
                &[&wall_ms, &down],
            )
            .await?;
            tx.commit().await?;
            Ok(down)
        })?)
    }

    fn keep_alive(&self, wall_ms: i64) -> StoreResult<()> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            client
                .execute(
                    "UPDATE lgame_alive SET alive_ms = greatest(alive_ms, $1)",
                    &[&wall_ms],
                )
                .await?;
            Ok(())
        })?)
    }

    fn count_games(&self) -> StoreResult<u64> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let row = client.query_one("SELECT count(*) FROM games", &[]).await?;
            Ok(row.get::<_, i64>(0) as u64)
        })?)
    }

    fn insert_game(&self, game: &GameRow, moves: &[String], outcome: &str) -> StoreResult<()> {
        let (pool, game, moves) = (self.pool.clone(), game.clone(), moves.to_vec());
        let outcome = outcome.to_string();
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let (termination, result) = game.end.clone().unzip();
            let insert = tx
                .prepare_cached(
                    "INSERT INTO games (id, header, red, blue, red_token_hash, blue_token_hash,
                                        seed, termination, result, draw_offer, undo_request,
                                        red_holder, blue_holder, red_invite_hash,
                                        blue_invite_hash, variant, outcome, clock,
                                        deadline_ms, category)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                             $16, $17, $18, $19, $20)",
                )
                .await?;
            tx.execute(
                &insert,
                &[
                    &game.id,
                    &game.header,
                    &game.seats[0],
                    &game.seats[1],
                    &game.token_hashes[0],
                    &game.token_hashes[1],
                    &(game.seed as i64),
                    &termination,
                    &result,
                    &game.requests.draw_offer.map(side_text),
                    &game.requests.undo_request.map(side_text),
                    &game.holders[0],
                    &game.holders[1],
                    &game.invites[0],
                    &game.invites[1],
                    &game.variant,
                    &outcome,
                    &game.clock.json,
                    &game.clock.deadline_ms,
                    &game.category,
                ],
            )
            .await?;
            insert_moves(&tx, &game.id, 1, &moves).await?;
            bots::note_start(&tx, &game.id, &game.holders).await?;
            tx.commit().await?;
            Ok(())
        })?)
    }

    fn queue(&self, edit: Edit) -> Pending {
        let Some(runtime) = &self.runtime else {
            return Pending::failed();
        };
        let (done, outcome) = oneshot::channel();
        let (pool, counts, announce) = (
            self.pool.clone(),
            self.counts.clone(),
            self.announce.clone(),
        );
        runtime.spawn(async move {
            let written = apply(&pool, &edit).await;
            if written.is_ok() {
                let _ = announce.send(notice(&edit.id, edit.version + 1));
            }
            counts.changes.fetch_add(1, Ordering::Relaxed);
            // A caller that has gone no longer waits: nothing to tell.
            let _ = done.send(written);
        });
        Pending::sent(outcome)
    }

    fn load(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<String>)>> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        let loaded = self.run(async move {
            let mut client = pool.get().await?;
            let tx = client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?;
            let game = tx
                .prepare_cached(
                    "SELECT id, header, red, blue, red_token_hash, blue_token_hash, seed,
                            termination, result, draw_offer, undo_request, rematch,
                            rematch_of, version, red_holder, blue_holder, red_invite_hash,
                            blue_invite_hash, variant,
                            (SELECT username FROM users WHERE 'u:' || id = red_holder),
                            (SELECT username FROM users WHERE 'u:' || id = blue_holder),
                            clock, deadline_ms, category,
                            (SELECT bot FROM users WHERE 'u:' || id = red_holder),
                            (SELECT bot FROM users WHERE 'u:' || id = blue_holder),
                            (SELECT arena FROM arena_games WHERE game = games.id), created
                     FROM games WHERE id = $1",
                )
                .await?;
            let Some(r) = tx.query_opt(&game, &[&id]).await? else {
                return Ok(None);
            };
            let termination: Option<String> = r.get(7);
            let result: Option<String> = r.get(8);
            let sides: [Option<String>; 2] = [r.get(9), r.get(10)];
            let row = GameRow {
                id: r.get(0),
                header: r.get(1),
                seats: [r.get(2), r.get(3)],
                token_hashes: [r.get(4), r.get(5)],
                seed: r.get::<_, i64>(6) as u64,
                end: termination.zip(result),
                requests: Requests::default(),
                rematch: r.get(11),
                rematch_of: r.get(12),
                version: r.get(13),
                holders: [r.get(14), r.get(15)],
                invites: [r.get(16), r.get(17)],
                variant: r.get(18),
                category: r.get(23),
                names: [r.get(19), r.get(20)],
                bots: [
                    r.get::<_, Option<bool>>(24).unwrap_or(false),
                    r.get::<_, Option<bool>>(25).unwrap_or(false),
                ],
                arena: r.get(26),
                created: r.get(27),
                clock: StoredClock {
                    json: r.get(21),
                    deadline_ms: r.get(22),
                },
            };
            let moves = tx
                .prepare_cached("SELECT mv FROM moves WHERE game = $1 ORDER BY ply")
                .await?;
            let moves = tx
                .query(&moves, &[&id])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
            tx.commit().await?;
            Ok(Some((sides, row, moves)))
        })?;
        let Some(([draw_offer, undo_request], mut row, moves)) = loaded else {
            return Ok(None);
        };
        row.requests = Requests {
            draw_offer: side_from_text(draw_offer)?,
            undo_request: side_from_text(undo_request)?,
        };
        Ok(Some((row, moves)))
    }

    fn version_of(&self, id: &str) -> StoreResult<i64> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        let version: Option<i64> = self.run(async move {
            let client = pool.get().await?;
            let query = client
                .prepare_cached("SELECT version FROM games WHERE id = $1")
                .await?;
            Ok(client.query_opt(&query, &[&id]).await?.map(|r| r.get(0)))
        })?;
        version.ok_or(StoreError::NotFound)
    }

    fn link_rematch(&self, old: &str, new: &str) -> StoreResult<bool> {
        let (pool, old, new) = (self.pool.clone(), old.to_string(), new.to_string());
        let announce = self.announce.clone();
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let mut notices = Vec::new();
            // The second of two instances linking at once waits for the first's row lock,
            // then finds the link made.
            let links = [
                (&old, "rematch", &new, "AND rematch IS NULL"),
                (&new, "rematch_of", &old, ""),
            ];
            for (id, column, other, unlinked) in links {
                let link = format!(
                    "UPDATE games SET {column} = $2, version = version + 1
                     WHERE id = $1 {unlinked} RETURNING version"
                );
                let Some(row) = tx.query_opt(&link, &[id, other]).await? else {
                    return Ok(false);
                };
                notices.push(notice(id, row.get(0)));
            }
            tx.commit().await?;
            for notice in notices {
                let _ = announce.send(notice);
            }
            Ok(true)
        })?)
    }

    fn set_token(&self, id: &str, side: Color, hash: &str) -> StoreResult<bool> {
        let column = token_column(side);
        let sql = format!(
            "UPDATE games SET {column} = $2, version = version + 1
             WHERE id = $1 AND {column} IS NULL RETURNING version"
        );
        let (pool, id, hash) = (self.pool.clone(), id.to_string(), hash.to_string());
        let announce = self.announce.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let Some(row) = client.query_opt(&sql, &[&id, &hash]).await? else {
                return Ok(false);
            };
            let _ = announce.send(notice(&id, row.get(0)));
            Ok(true)
        })?)
    }
}

impl Drop for Store {
    /// Stops the runtime without waiting (the store may be dropped on an async thread): a
    /// change in flight is committed whole or not at all.
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Writes an edit in a transaction of its own: moves the game's version one up and writes
/// the standing requests if it is still at the edit's version (else [`StoreError::Stale`]),
/// then makes the change.
async fn apply(pool: &Pool, edit: &Edit) -> StoreResult<()> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let id = &edit.id;
    let Requests {
        draw_offer,
        undo_request,
    } = edit.requests;
    let guard = tx
        .prepare_cached(
            "UPDATE games SET version = version + 1, draw_offer = $3, undo_request = $4,
                              outcome = $5, clock = $6, deadline_ms = $7
             WHERE id = $1 AND version = $2",
        )
        .await?;
    let (draw_offer, undo_request) = (draw_offer.map(side_text), undo_request.map(side_text));
    if tx
        .execute(
            &guard,
            &[
                id,
                &edit.version,
                &draw_offer,
                &undo_request,
                &edit.outcome,
                &edit.clock.json,
                &edit.clock.deadline_ms,
            ],
        )
        .await?
        != 1
    {
        // Dropped unfinished: rolled back.
        return Err(StoreError::Stale);
    }
    match &edit.change {
        Change::Append { first, moves } => insert_moves(&tx, id, *first, moves).await?,
        Change::Truncate { keep } => {
            tx.execute(
                "DELETE FROM moves WHERE game = $1 AND ply > $2",
                &[id, &(*keep as i32)],
            )
            .await?;
        }
        Change::End {
            termination,
            result,
        } => {
            tx.execute(
                "UPDATE games SET termination = $2, result = $3 WHERE id = $1",
                &[id, termination, result],
            )
            .await?;
        }
        Change::Requests => {}
    }
    ratings::rate_end(&tx, id, &edit.outcome).await?;
    let ended = matches!(edit.change, Change::End { .. });
    bots::note_end(&tx, id, &edit.outcome, ended).await?;
    tx.commit().await?;
    Ok(())
}

/// A notice's payload: game `id` is at `version`.
fn notice(id: &str, version: i64) -> String {
    format!("{id} {version}")
}

/// The most notices sent in one transaction.
const MAX_NOTICES: usize = 1024;

/// Sends the notices of committed changes: those queued meanwhile in one transaction, which
/// does not wait for its commit to be flushed (a notice is not data: a lost one is made up
/// for by the check before each request and by the next notice of the game).
async fn announcer(pool: Pool, mut committed: mpsc::UnboundedReceiver<String>) {
    while let Some(first) = committed.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_NOTICES {
            match committed.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        if let Err(e) = send_notices(&pool, &batch).await {
            tracing::warn!(error = %e, notices = batch.len(), "cannot tell the other instances");
        }
    }
}

async fn send_notices(pool: &Pool, batch: &[String]) -> anyhow::Result<()> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.batch_execute("SET LOCAL synchronous_commit = off")
        .await?;
    tx.execute(
        "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload",
        &[&CHANNEL, &batch],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn insert_moves(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
    first_ply: usize,
    moves: &[String],
) -> anyhow::Result<()> {
    let insert = tx
        .prepare_cached("INSERT INTO moves (game, ply, mv) VALUES ($1, $2, $3)")
        .await?;
    for (i, mv) in moves.iter().enumerate() {
        tx.execute(&insert, &[&id, &((first_ply + i) as i32), mv])
            .await?;
    }
    Ok(())
}

/// Creates or updates the schema, under a lock that makes instances starting together
/// take turns.
async fn migrate(pool: &Pool) -> anyhow::Result<()> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS lgame_schema (version INTEGER NOT NULL)")
        .await?;
    let version = match tx
        .query_opt("SELECT version FROM lgame_schema", &[])
        .await?
    {
        Some(row) => row.get::<_, i32>(0) as usize,
        None => {
            tx.execute("INSERT INTO lgame_schema (version) VALUES (0)", &[])
                .await?;
            0
        }
    };
    if version > MIGRATIONS.len() {
        bail!(
            "the database has schema version {version}, newer than this server's {}",
            MIGRATIONS.len()
        );
    }
    for sql in &MIGRATIONS[version..] {
        tx.batch_execute(sql).await?;
    }
    tx.execute(
        "UPDATE lgame_schema SET version = $1",
        &[&(MIGRATIONS.len() as i32)],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Listens for the changes' notices on a connection of its own and hands them on, until
/// nobody takes them; when the connection is lost, connects again (every second) and says
/// so ([`Notice::Reconnected`]): what changed meanwhile was not heard.
async fn listen(
    config: tokio_postgres::Config,
    instance: String,
    notices: mpsc::UnboundedSender<Notice>,
) {
    let mut lost = false;
    while !notices.is_closed() {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (heard, me) = (notices.clone(), instance.clone());
                // The connection's messages (the notices among them) are read by polling
                // it, beside the client's requests.
                let reader = tokio::spawn(async move {
                    while let Some(message) =
                        std::future::poll_fn(|cx| connection.poll_message(cx)).await
                    {
                        match message {
                            Ok(AsyncMessage::Notification(n)) => {
                                let notice = parse_notice(n.payload()).filter(|notice| {
                                    // This instance's own presence it knows.
                                    !matches!(notice, Notice::Presence { instance, .. } if *instance == me)
                                });
                                if let Some(notice) = notice {
                                    if heard.send(notice).is_err() {
                                        return;
                                    }
                                }
                            }
                            Ok(_) => {}
                            Err(e) => {
                                tracing::warn!(error = %e, "the database connection that listens failed");
                                return;
                            }
                        }
                    }
                });
                match client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
                    Ok(()) => {
                        if lost {
                            tracing::info!("listening to the database again");
                            let _ = notices.send(Notice::Reconnected);
                        }
                        let _ = reader.await;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot listen to the database");
                        reader.abort();
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot connect to the database to listen"),
        }
        lost = true;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// A notice's payload: `ID VERSION`, `p ID INSTANCE RED BLUE` or `l SEEK`.
fn parse_notice(payload: &str) -> Option<Notice> {
    let words: Vec<&str> = payload.split(' ').collect();
    match words[..] {
        ["l", id] => Some(Notice::Lobby { id: id.to_string() }),
        [id, version] => Some(Notice::Changed {
            id: id.to_string(),
            version: version.parse().ok()?,
        }),
        ["p", id, instance, red, blue] => Some(Notice::Presence {
            id: id.to_string(),
            instance: instance.to_string(),
            counts: [red.parse().ok()?, blue.parse().ok()?],
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(
            without_password("postgres://lgame:s3cr3t@db:5432/games"),
            "postgres://lgame:***@db:5432/games"
        );
        assert_eq!(
            without_password("postgres://lgame@db/games"),
            "postgres://lgame@db/games"
        );
        assert_eq!(
            without_password("host=db password=s3cr3t dbname=games"),
            "host=db password=*** dbname=games"
        );
    }

    #[test]
    fn a_notice_is_a_game_and_its_version() {
        assert_eq!(
            parse_notice("0123456789abcdef 12"),
            Some(Notice::Changed {
                id: "0123456789abcdef".into(),
                version: 12
            })
        );
        assert_eq!(
            parse_notice("p 0123456789abcdef 9f3a 1 0"),
            Some(Notice::Presence {
                id: "0123456789abcdef".into(),
                instance: "9f3a".into(),
                counts: [1, 0]
            })
        );
        assert_eq!(
            parse_notice("l 89abcdef"),
            Some(Notice::Lobby {
                id: "89abcdef".into()
            })
        );
        assert_eq!(parse_notice("p 0123456789abcdef 9f3a 1"), None);
        assert_eq!(parse_notice("0123456789abcdef"), None);
        assert_eq!(parse_notice("0123456789abcdef x"), None);
    }
}
