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

use std::error::Error;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, Context};
use bytes::BytesMut;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use tokio_postgres::{AsyncMessage, IsolationLevel, NoTls};

use super::sql::{BoxFuture, Conn, Dialect, Job, Row, Value};
use super::{Counts, Driver, Notice, Pending, StoreResult, Trouble};

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
    super::schema::LOBBY,
    // Version 5: the SQLite schema's version 8 (ratings).
    super::ratings::SCHEMA,
    // Version 6: the SQLite schema's version 9 (arena tournaments).
    super::schema::ARENAS,
    // Version 7: the SQLite schema's version 10 (bots).
    super::bots::SCHEMA_POSTGRES,
    // Version 8: the SQLite schema's version 11 (fair play).
    super::fairplay::SCHEMA,
    // Version 9: the SQLite schema's version 12 (each session's browser and address).
    super::accounts::SESSIONS_DEVICE,
    // Version 10: the SQLite schema's version 13 (mail's codes and confirmed addresses).
    super::schema::MAIL,
    // Version 11: the SQLite schema's version 14 (Web Push).
    super::schema::PUSH,
    // Version 12: the SQLite schema's version 15 (correspondence's "your move" mail).
    super::schema::MAIL_MOVES,
];

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

/// The trouble a failure is, if it is one of PostgreSQL's: it cannot be reached (no
/// connection to be had in time, a connection lost, or the server refusing work as it shuts
/// down or starts: SQLSTATE classes 08, connection exception, and 57, operator
/// intervention), its disk is full, it is read-only (a standby).
pub(super) fn trouble(cause: &(dyn Error + 'static)) -> Option<Trouble> {
    if let Some(e) = cause.downcast_ref::<deadpool_postgres::PoolError>() {
        return match e {
            deadpool_postgres::PoolError::Backend(e) => trouble(e),
            deadpool_postgres::PoolError::Timeout(_) => Some(Trouble::Unreachable),
            _ => None,
        };
    }
    let e = cause.downcast_ref::<tokio_postgres::Error>()?;
    match e.code().map(|state| state.code()) {
        Some("53100") => Some(Trouble::Full),
        Some("25006") => Some(Trouble::ReadOnly),
        Some(state) if state.starts_with("08") || state.starts_with("57") => {
            Some(Trouble::Unreachable)
        }
        Some(_) => None,
        None => (e.is_closed() || e.source().is_some_and(|s| s.is::<std::io::Error>()))
            .then_some(Trouble::Unreachable),
    }
}

impl Store {
    /// Connects to the database at `url` (`shown` in messages), brings its schema up to
    /// date and starts listening for the other instances' changes.
    pub fn open(url: &str, shown: &str, instance: String) -> anyhow::Result<Store> {
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

    /// Runs `job` in a transaction on a pooled connection (`read_only`: one that sees one
    /// instant of the database), committed if the job succeeds; `then` is given the
    /// outcome, with the notices of the games the job changed, and answers the caller.
    fn transaction(
        &self,
        job: Job,
        read_only: bool,
        then: impl FnOnce(StoreResult<Vec<String>>) -> StoreResult<()> + Send + 'static,
    ) -> Pending {
        let Some(runtime) = &self.runtime else {
            return Pending::failed();
        };
        let (done, outcome) = oneshot::channel();
        let pool = self.pool.clone();
        runtime.spawn(async move {
            let ran = async {
                let mut client = pool.get().await?;
                let mut tx = client.build_transaction();
                if read_only {
                    tx = tx
                        .isolation_level(IsolationLevel::RepeatableRead)
                        .read_only(true);
                }
                let mut conn = Postgres {
                    tx: tx.start().await?,
                    changed: Vec::new(),
                };
                job(&mut conn).await?;
                let Postgres { tx, changed } = conn;
                tx.commit().await?;
                Ok(changed)
            }
            .await;
            // A caller that has gone no longer waits: nothing to tell.
            let _ = done.send(then(ran));
        });
        Pending::sent(outcome)
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

impl Driver for Store {
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

    /// One commit per change.
    fn counts(&self) -> &Counts {
        &self.counts
    }

    /// A transaction of its own on a pooled connection (PostgreSQL groups concurrent
    /// commits into one flush of its log); the games it changed are announced once it is
    /// committed.
    fn write(&self, job: Job) -> Pending {
        let (counts, announce) = (self.counts.clone(), self.announce.clone());
        // From the pool's connection asked for to the commit.
        let started = std::time::Instant::now();
        self.transaction(job, false, move |written| {
            counts.committed(1, started.elapsed());
            for notice in written? {
                let _ = announce.send(notice);
            }
            Ok(())
        })
    }

    /// A read-only transaction that sees one instant of the database.
    fn read(&self, job: Job) -> Pending {
        self.transaction(job, true, |read| read.map(drop))
    }

    fn erase_deleted(&self) -> StoreResult<()> {
        self.handle().spawn(erase(self.pool.clone()));
        Ok(())
    }
}

/// When the erased rows' bytes are taken out of the tables' files after an account is
/// closed: at once, and again later, since a transaction open meanwhile (a backup, another
/// application's) may still see them, and `VACUUM FULL` then copies them into the new file.
const ERASE_AFTER: [Duration; 6] = [
    Duration::ZERO,
    Duration::from_secs(2),
    Duration::from_secs(5),
    Duration::from_secs(10),
    Duration::from_secs(60),
    Duration::from_secs(600),
];

/// Rewrites the accounts' tables (`VACUUM FULL`: a plain VACUUM leaves erased rows in the
/// pages' free space) at each of [`ERASE_AFTER`]. Each try waits at most a second for its
/// lock, so that no log-in queues behind it for longer while a backup holds the tables;
/// a try that cannot have it is made at the next. PostgreSQL's write-ahead log keeps the
/// rows until its segments are recycled.
async fn erase(pool: Pool) {
    let mut since = Duration::ZERO;
    for at in ERASE_AFTER {
        tokio::time::sleep(at - since).await;
        since = at;
        if let Err(e) = vacuum_accounts(&pool).await {
            tracing::warn!(error = %e, "cannot rewrite the accounts' tables yet");
        }
    }
}

async fn vacuum_accounts(pool: &Pool) -> anyhow::Result<()> {
    let client = pool.get().await?;
    client.batch_execute("SET lock_timeout = '1s'").await?;
    // Not in a transaction (VACUUM refuses one), so apart from the SET.
    let vacuumed = client.batch_execute("VACUUM FULL sessions, users").await;
    client.batch_execute("RESET lock_timeout").await?;
    Ok(vacuumed?)
}

/// PostgreSQL's side of the seam: a transaction on a pooled connection, and the notices of
/// the games it changed, sent once it is committed.
struct Postgres<'a> {
    tx: deadpool_postgres::Transaction<'a>,
    changed: Vec<String>,
}

/// The arguments of a statement, as the driver takes them (each statement prepared once per
/// connection).
fn arguments(args: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

impl Conn for Postgres<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, StoreResult<u64>> {
        Box::pin(async move {
            let statement = self.tx.prepare_cached(sql).await?;
            Ok(self.tx.execute(&statement, &arguments(args)).await?)
        })
    }

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, StoreResult<Vec<Row>>> {
        Box::pin(async move {
            let statement = self.tx.prepare_cached(sql).await?;
            let rows = self.tx.query(&statement, &arguments(args)).await?;
            rows.iter()
                .map(|row| {
                    let values = (0..row.len())
                        .map(|i| row.try_get::<_, Value>(i))
                        .collect::<Result<_, _>>()?;
                    Ok(Row(values))
                })
                .collect()
        })
    }

    fn changed(&mut self, id: &str, version: i64) {
        self.changed.push(notice(id, version));
    }
}

/// A value bound as its column's type wants it: an integer into `SMALLINT`, `INTEGER`,
/// `BIGINT` or `BOOLEAN`, SQLite's way of keeping a flag.
impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (Value::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Value::Float(f), &Type::FLOAT8) => f.to_sql(ty, out),
            (Value::Float(f), &Type::FLOAT4) => (*f as f32).to_sql(ty, out),
            (Value::Bool(b), &Type::BOOL) => b.to_sql(ty, out),
            (Value::Bool(b), &Type::INT8) => i64::from(*b).to_sql(ty, out),
            (Value::Text(t), &Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME) => {
                t.to_sql(ty, out)
            }
            (value, ty) => Err(format!("{value:?} cannot be bound as a {ty}").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A column read back, whichever of the types the schema uses.
impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Value, Box<dyn Error + Sync + Send>> {
        Ok(match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Value::Int(i16::from_sql(ty, raw)?.into()),
            Type::BOOL => Value::Bool(bool::from_sql(ty, raw)?),
            Type::FLOAT8 => Value::Float(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Float(f32::from_sql(ty, raw)?.into()),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
                Value::Text(String::from_sql(ty, raw)?)
            }
            _ => return Err(format!("a column of type {ty}").into()),
        })
    }

    fn from_sql_null(_: &Type) -> Result<Value, Box<dyn Error + Sync + Send>> {
        Ok(Value::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
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
    super::known_schema(version, MIGRATIONS.len())?;
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
