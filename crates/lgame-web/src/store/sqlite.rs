//! The SQLite backend: one file, one server instance.
//!
//! Writes go through one thread, the *writer*, which owns the write connection: it takes the
//! changes of many games from a queue, writes them in one transaction and commits them with
//! one sync (group commit), then tells each caller, who waits until its own change is on
//! disk. Reads use a second connection (WAL lets them run beside the writer). The schema is
//! versioned with `PRAGMA user_version`: each entry of [`MIGRATIONS`] moves it one version
//! up, in a transaction of its own. Tokens are stored only as hashes (`secret.rs`).

pub(super) mod backup;

use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};

use std::thread::JoinHandle;
use tokio::sync::oneshot;

use anyhow::{anyhow, bail, Context};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{params, Connection};

use super::sql::{BoxFuture, Conn, Dialect, Job, Row, Value};
use super::{Counts, Driver, Pending, StoreError, StoreResult, Trouble};
use crate::secret::token_hash;

/// How hard SQLite works to make a commit durable (`PRAGMA synchronous`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// `FULL`: the WAL is synced at every commit. A commit survives the process being
    /// killed and the machine losing power.
    #[default]
    Full,
    /// `NORMAL`: the WAL is synced only at checkpoints. A commit survives the process being
    /// killed (SIGKILL, a panic, OOM), not a power loss or kernel crash.
    Normal,
}

/// One step of the schema.
enum Migration {
    Sql(&'static str),
    /// A step SQL alone cannot take (hashing), run in the migration's transaction.
    Code(fn(&Connection) -> anyhow::Result<()>),
}

/// The schema, one migration per version (version = index + 1).
const MIGRATIONS: &[Migration] = &[
    // Version 1.
    Migration::Sql(
        "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created INTEGER NOT NULL,          -- Unix seconds
        header TEXT NOT NULL,              -- a record of no moves: variant, setup, draw rules
        red TEXT NOT NULL,                 -- the seats: human, or a player spec
        blue TEXT NOT NULL,
        red_token TEXT,                    -- the secret of a human side
        blue_token TEXT,
        seed INTEGER NOT NULL,             -- the computer players' seed
        termination TEXT,                  -- an end declared off the board, by name
        result TEXT,                       -- ... and its result token
        draw_offer TEXT                    -- 'red' or 'blue': a standing offer
    ) STRICT;
    CREATE TABLE moves (
        game TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,              -- 1 for the first move
        mv TEXT NOT NULL,
        PRIMARY KEY (game, ply)
    ) STRICT, WITHOUT ROWID;",
    ),
    // Version 2: tokens hashed at rest (`secret::token_hash`), the columns renamed to say so.
    Migration::Code(hash_stored_tokens),
    // Version 3: a finished game's rematch, linked both ways.
    Migration::Sql(
        "ALTER TABLE games ADD COLUMN rematch TEXT;
        ALTER TABLE games ADD COLUMN rematch_of TEXT;",
    ),
    // Version 4: a version per game, moved up by every change (several instances share
    // PostgreSQL, and the two backends keep one shape), and a standing request to take back.
    Migration::Sql(
        "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN undo_request TEXT;",
    ),
    // Version 5: accounts, their sessions, and who holds each seat (`store/accounts.rs`);
    // each game's variant and result for the lists of games (games stored before keep
    // '*': none of them has a holder to be listed for).
    Migration::Sql(concat!(
        "CREATE TABLE users (
            id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,     -- lower case: unique ignoring case
            password_hash TEXT NOT NULL,           -- Argon2id, a PHC string
            email TEXT,
            created INTEGER NOT NULL,
            disabled INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE TABLE sessions (
            id_hash TEXT PRIMARY KEY,              -- SHA-256 of the cookie's id
            user_id INTEGER NOT NULL REFERENCES users(id),
            created INTEGER NOT NULL,
            used INTEGER NOT NULL,
            expires INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX sessions_by_user ON sessions (user_id);",
        seat_columns!()
    )),
    // Version 6: clocks (`clock.rs`), and the instant an instance was last alive, so that
    // the time no instance ran is given back to the clocks.
    Migration::Sql(
        "ALTER TABLE games ADD COLUMN clock TEXT;         -- JSON: the control and the clocks
        ALTER TABLE games ADD COLUMN deadline_ms INTEGER; -- game time: when the server acts
        CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
        CREATE TABLE lgame_alive (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            alive_ms INTEGER NOT NULL,     -- the wall clock when an instance was last alive
            downtime_ms INTEGER NOT NULL   -- the time no instance ran, in all
        ) STRICT;",
    ),
    // Version 7: the lobby's seeks and quick pairing's tickets (`lobby/rows.rs`).
    Migration::Sql(super::schema::LOBBY),
    // Version 8: ratings, and the rated games and seeks (`store/ratings.rs`).
    Migration::Sql(super::ratings::SCHEMA),
    // Version 9: arena tournaments, their players and games (`arena/rows.rs`).
    Migration::Sql(super::schema::ARENAS),
    // Version 10: bots, their API tokens, challenges and events (`store/bots.rs`).
    Migration::Sql(super::bots::SCHEMA_SQLITE),
    // Version 11: fair play: the browsers and addresses accounts used, names folded
    // (`store/fairplay.rs`).
    Migration::Sql(super::fairplay::SCHEMA),
    // Version 12: each session's browser and address (`store/accounts.rs`), for the
    // account's list of its sessions.
    Migration::Sql(super::accounts::SESSIONS_DEVICE),
    // Version 13: mail's one-time codes and confirmed addresses (`mail/rows.rs`).
    Migration::Sql(super::schema::MAIL),
    // Version 14: Web Push's key and subscriptions (`push/rows.rs`).
    Migration::Sql(super::schema::PUSH),
    // Version 15: correspondence's "your move" mail (`mail/rows.rs`).
    Migration::Sql(super::schema::MAIL_MOVES),
];

/// Migration 2: replaces each stored token by its hash.
fn hash_stored_tokens(conn: &Connection) -> anyhow::Result<()> {
    conn.execute_batch(
        "ALTER TABLE games RENAME COLUMN red_token TO red_token_hash;
         ALTER TABLE games RENAME COLUMN blue_token TO blue_token_hash;",
    )?;
    let rows: Vec<(String, [Option<String>; 2])> = conn
        .prepare("SELECT id, red_token_hash, blue_token_hash FROM games")?
        .query_map([], |r| Ok((r.get(0)?, [r.get(1)?, r.get(2)?])))?
        .collect::<Result<_, _>>()?;
    let mut update =
        conn.prepare("UPDATE games SET red_token_hash = ?2, blue_token_hash = ?3 WHERE id = ?1")?;
    for (id, tokens) in rows {
        let [red, blue] = tokens.map(|t| t.map(|t| token_hash(&id, &t)));
        update.execute(params![id, red, blue])?;
    }
    Ok(())
}

/// A change waiting in the writer's queue, and where its outcome goes.
struct Queued {
    job: Job,
    done: oneshot::Sender<StoreResult<()>>,
}

/// The most changes written in one transaction.
const MAX_BATCH: usize = 1024;

/// The database.
pub struct Store {
    /// The writer's queue (`None` once closing).
    queue: Option<mpsc::Sender<Queued>>,
    writer: Option<JoinHandle<()>>,
    counts: Arc<Counts>,
    reader: Arc<Mutex<Connection>>,
}

/// Opens a connection in WAL mode, for writing: a database that cannot be written (a
/// read-only file, folder or file system) is an error that names its path, not a server
/// that starts and fails at its first change.
fn connect(path: &Path) -> anyhow::Result<Connection> {
    let conn = Connection::open(path)
        .with_context(|| format!("opening the database {}", path.display()))?;
    let unwritable = || {
        format!(
            "the database {} cannot be opened for writing (is the file, its folder or its \
             file system read-only?)",
            path.display()
        )
    };
    if conn.is_readonly(rusqlite::MAIN_DB)? {
        bail!(unwritable());
    }
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .with_context(unwritable)?;
    if !mode.eq_ignore_ascii_case("wal") {
        bail!("{}: cannot use WAL mode (got {mode})", path.display());
    }
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

impl Store {
    /// Opens (creating if need be) the database at `path`, brings its schema up to date and
    /// starts the writer.
    pub fn open(path: &Path, synchronous: Synchronous) -> anyhow::Result<Store> {
        let mut conn = connect(path)?;
        let sync = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        // What is deleted or overwritten (a token replaced by its hash, undone moves) is
        // zeroed in the file, not left in free space.
        conn.pragma_update(None, "secure_delete", "ON")?;
        migrate(&mut conn).with_context(|| format!("migrating {}", path.display()))?;
        let reader = connect(path)?;
        let (queue, jobs) = mpsc::channel();
        let counts = Arc::new(Counts::default());
        let writer = {
            let counts = counts.clone();
            std::thread::Builder::new()
                .name("lgame-db-writer".into())
                .spawn(move || write_loop(conn, jobs, &counts))
                .context("starting the database writer")?
        };
        Ok(Store {
            queue: Some(queue),
            writer: Some(writer),
            counts,
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// Queues a job for the writer, without waiting for it.
    fn queue_job(&self, job: Job) -> Pending {
        let (done, outcome) = oneshot::channel();
        match &self.queue {
            Some(queue) if queue.send(Queued { job, done }).is_ok() => Pending::sent(outcome),
            _ => Pending::failed(),
        }
    }
}

impl Driver for Store {
    fn shared(&self) -> bool {
        false
    }

    fn counts(&self) -> &Counts {
        &self.counts
    }

    /// The writer runs the job in its next batch (group commit).
    fn write(&self, job: Job) -> Pending {
        self.queue_job(job)
    }

    /// Runs the job on the reading connection (WAL lets it read beside the writer), in a
    /// transaction: one instant of the database. On a blocking thread when called from the
    /// async threads.
    fn read(&self, job: Job) -> Pending {
        let reader = self.reader.clone();
        let run = move || read_on(&reader, job);
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                let (done, outcome) = oneshot::channel();
                runtime.spawn_blocking(move || {
                    let _ = done.send(run());
                });
                Pending::sent(outcome)
            }
            Err(_) => Pending::done(run()),
        }
    }

    /// The log checkpointed into the file at once: the erased rows' old pages do not wait
    /// there for the next checkpoint (`secure_delete` zeroes them in the file).
    fn erase_deleted(&self) -> StoreResult<()> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// Runs a reading job on `reader`, in a transaction.
fn read_on(reader: &Mutex<Connection>, job: Job) -> StoreResult<()> {
    let mut conn = reader.lock().unwrap_or_else(|e| e.into_inner());
    if !conn.is_autocommit() {
        // A read that panicked left its transaction open.
        let _ = conn.execute_batch("ROLLBACK");
    }
    conn.execute_batch("BEGIN")?;
    let outcome = super::sql::wait(job(&mut Sqlite(&mut conn)));
    let ended = conn.execute_batch("COMMIT").map_err(StoreError::from);
    outcome.and(ended)
}

/// SQLite's side of the seam: a connection inside the writer's (or a reader's)
/// transaction. Its statements are done when they return.
struct Sqlite<'a>(&'a mut Connection);

impl Sqlite<'_> {
    fn rows(&mut self, sql: &str, args: &[Value]) -> StoreResult<Vec<Row>> {
        let mut stmt = self.0.prepare_cached(&numbered(sql))?;
        let width = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
        let mut read = Vec::new();
        while let Some(row) = rows.next()? {
            let values = (0..width)
                .map(|i| value(row.get_ref(i)?))
                .collect::<StoreResult<_>>()?;
            read.push(Row(values));
        }
        Ok(read)
    }
}

impl Conn for Sqlite<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, StoreResult<u64>> {
        let done = self
            .0
            .prepare_cached(&numbered(sql))
            .and_then(|mut stmt| stmt.execute(rusqlite::params_from_iter(args)))
            .map(|changed| changed as u64)
            .map_err(StoreError::from);
        Box::pin(std::future::ready(done))
    }

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, StoreResult<Vec<Row>>> {
        Box::pin(std::future::ready(self.rows(sql, args)))
    }
}

/// A column read back.
fn value(column: ValueRef<'_>) -> StoreResult<Value> {
    Ok(match column {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Float(f),
        ValueRef::Text(t) => {
            Value::Text(String::from_utf8(t.to_vec()).map_err(|e| StoreError::Other(e.into()))?)
        }
        ValueRef::Blob(_) => return Err(StoreError::Other(anyhow!("a blob in a column"))),
    })
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Float(f) => ValueRef::Real(*f),
            Value::Text(t) => ValueRef::Text(t.as_bytes()),
            Value::Bool(b) => ValueRef::Integer(i64::from(*b)),
        }))
    }
}

/// A statement in SQLite's numbering: `$N` is `?N` (SQLite numbers `$N` by first
/// appearance, not by its digits).
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        let digit_follows = chars.peek().is_some_and(char::is_ascii_digit);
        out.push(if c == '$' && digit_follows { '?' } else { c });
    }
    out
}

impl Drop for Store {
    /// Lets the writer finish what is queued and close its connection.
    fn drop(&mut self) {
        self.queue = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// The writer: waits for a change, takes every change queued behind it (up to
/// [`MAX_BATCH`]), writes them in one transaction, then tells each caller.
fn write_loop(mut conn: Connection, queue: mpsc::Receiver<Queued>, counts: &Counts) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (jobs, waiting): (Vec<Job>, Vec<_>) =
            batch.into_iter().map(|q| (q.job, q.done)).unzip();
        let started = std::time::Instant::now();
        let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            write_batch(&mut conn, jobs)
        }));
        let outcomes = written.unwrap_or_else(|_| {
            // A change panicked: its batch is rolled back and fails, and the writer goes on
            // (a dead writer would fail every later change).
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            let failed = || {
                Err(StoreError::Other(anyhow!(
                    "writing the batch failed (a panic)"
                )))
            };
            waiting.iter().map(|_| failed()).collect()
        });
        counts.committed(outcomes.len(), started.elapsed());
        for (done, outcome) in waiting.into_iter().zip(outcomes) {
            // A caller that has gone no longer waits: nothing to tell.
            let _ = done.send(outcome);
        }
    }
}

/// Writes changes in one transaction, each in a savepoint of its own so that one refused
/// (a ply already stored) leaves the others; then commits. If the commit fails, every change
/// of the batch fails (and none is written). One outcome per change, in order.
fn write_batch(conn: &mut Connection, jobs: Vec<Job>) -> Vec<StoreResult<()>> {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        return jobs
            .iter()
            .map(|_| Err(batch_failed(&e, "starting a transaction")))
            .collect();
    }
    let mut outcomes: Vec<StoreResult<()>> = Vec::with_capacity(jobs.len());
    for job in jobs {
        let outcome = conn
            .execute_batch("SAVEPOINT change")
            .map_err(StoreError::from)
            .and_then(|()| super::sql::wait(job(&mut Sqlite(conn))));
        let closed = match outcome {
            Ok(()) => conn.execute_batch("RELEASE change"),
            Err(_) => conn.execute_batch("ROLLBACK TO change; RELEASE change"),
        };
        outcomes.push(outcome.and(closed.map_err(StoreError::from)));
    }
    if let Err(e) = conn.execute_batch("COMMIT") {
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        return outcomes
            .into_iter()
            .map(|_| Err(batch_failed(&e, "committing")))
            .collect();
    }
    outcomes
}

/// A batch's failure while `doing`, told to each of its changes: the trouble it is (a full
/// disk, a read-only file), or a failure.
fn batch_failed(e: &rusqlite::Error, doing: &str) -> StoreError {
    StoreError::of(trouble(e), anyhow!("{doing}: {e:#}"))
}

/// The trouble a failure is, if it is one of SQLite's.
pub(super) fn trouble(cause: &(dyn std::error::Error + 'static)) -> Option<Trouble> {
    use rusqlite::ErrorCode::*;
    match cause
        .downcast_ref::<rusqlite::Error>()?
        .sqlite_error_code()?
    {
        DiskFull => Some(Trouble::Full),
        ReadOnly => Some(Trouble::ReadOnly),
        CannotOpen | SystemIoFailure | DatabaseBusy | DatabaseLocked => Some(Trouble::Unreachable),
        _ => None,
    }
}

fn migrate(conn: &mut Connection) -> anyhow::Result<()> {
    let version: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    super::known_schema(version as usize, MIGRATIONS.len())?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        match step {
            Migration::Sql(sql) => tx.execute_batch(sql)?,
            Migration::Code(run) => run(&tx)?,
        }
        tx.pragma_update(None, "user_version", (i + 1) as u32)?;
        tx.commit()?;
    }
    if (version as usize) < MIGRATIONS.len() {
        // Into the main file at once: the pages a migration replaced (tokens in clear) do
        // not wait there for the next checkpoint.
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
