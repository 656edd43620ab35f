//! The database: every game and every accepted move, in SQLite (one file, the default) or in
//! PostgreSQL (several server instances on one database).
//!
//! Both backends keep the same tables, versioned schemas and the same
//! guarantee: a change is reported done only once it is committed. Every change to a game
//! names the game's `version` it was made on and moves it one up, or fails with
//! [`StoreError::Stale`] when the stored game has moved on (another instance changed it): no
//! change is ever made on a stale copy. Each is a driver behind the one [`Store`] the server
//! holds. PostgreSQL also tells every instance of each change ([`Notice`]), so
//! that their watchers see it at once.

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::clock::Clock;
use anyhow::anyhow;
use lgame::game::{ResultToken, Termination};
use lgame::Color;
use tokio::sync::{mpsc, oneshot};

/// The columns schema version 5 (SQLite) and 2 (PostgreSQL) add to `games`, in SQL both
/// read the same: who holds each seat, its invitation's hash, the variant's name and the
/// result token, and the indexes of the lists of games (`store/accounts.rs`).
macro_rules! seat_columns {
    () => {
        "ALTER TABLE games ADD COLUMN red_holder TEXT;
        ALTER TABLE games ADD COLUMN blue_holder TEXT;
        ALTER TABLE games ADD COLUMN red_invite_hash TEXT;
        ALTER TABLE games ADD COLUMN blue_invite_hash TEXT;
        ALTER TABLE games ADD COLUMN variant TEXT;
        ALTER TABLE games ADD COLUMN outcome TEXT NOT NULL DEFAULT '*';
        CREATE INDEX games_by_red_holder ON games (red_holder, created);
        CREATE INDEX games_by_blue_holder ON games (blue_holder, created);"
    };
}

/// An operation of the store, in a transaction: `transaction!(self.write, |c| { … })` runs
/// the block with `c`, the transaction's [`sql::Conn`], through [`Store::write`] (or
/// `read`), and answers what the block answers.
macro_rules! transaction {
    ($store:ident . $run:ident, |$c:ident| $body:block) => {
        $store.$run(move |$c| Box::pin(async move $body))
    };
}

/// An enum stored as text, each variant by its name: `name()`, `from_name()`, and its
/// conversions at the seam (`store/sql.rs`).
macro_rules! stored_names {
    ($type:ident { $($variant:ident = $name:literal),* $(,)? }) => {
        impl $type {
            /// Its name, as stored.
            pub fn name(self) -> &'static str {
                match self {
                    $($type::$variant => $name),*
                }
            }

            /// The one named `name`.
            pub fn from_name(name: &str) -> $crate::store::StoreResult<$type> {
                match name {
                    $($name => Ok($type::$variant),)*
                    other => Err($crate::store::StoreError::Other(anyhow::anyhow!(
                        "'{other}' is not a {}",
                        stringify!($type)
                    ))),
                }
            }
        }

        impl $crate::store::sql::FromValue for $type {
            fn from_value(value: &$crate::store::sql::Value) -> Option<$type> {
                match value {
                    $crate::store::sql::Value::Text(text) => $type::from_name(text).ok(),
                    _ => None,
                }
            }
        }

        impl From<$type> for $crate::store::sql::Value {
            fn from(v: $type) -> $crate::store::sql::Value {
                v.name().into()
            }
        }

        impl $crate::store::sql::NotString for $type {}
    };
}

pub(crate) use {stored_names, transaction};

mod accounts;
mod bots;
mod fairplay;
mod games;
mod postgres;
mod ratings;
mod schema;
pub(crate) mod sql;
mod sqlite;
mod types;

use sql::{BoxFuture, Conn, FromRow, Job, Value};

pub use accounts::{
    GameStanding, GamesQuery, Listed, ListedSession, NewUser, Session, User, UserBy, UserChange,
    SESSION_ID_LEN,
};

pub use bots::{
    BotRow, ChallengeRow, ChallengeState, DeclineReason, EventKind, EventRow, Settle, TokenRow,
};
pub(crate) use games::stale_is_false;
pub use ratings::{Leader, RatingChange};
pub use sql::wait;
pub use sqlite::backup::{online_backup, BackupProgress};
pub use sqlite::Synchronous;
pub use types::{side_name, ColorChoice, Holder};

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub header: String,
    pub seats: [String; 2],
    /// The hash of each human side's token (`secret::token_hash`); never the token.
    pub token_hashes: [Option<String>; 2],
    pub seed: u64,
    /// A declared end: how, and the result.
    pub end: Option<(Termination, ResultToken)>,
    /// What stands between the players.
    pub requests: Requests,
    /// The game's rematch, and the game it is the rematch of.
    pub rematch: Option<String>,
    pub rematch_of: Option<String>,
    /// Who holds each side's seat (`store/accounts.rs`), and the hash of an open
    /// invitation to a seat nobody holds.
    pub holders: [Option<Holder>; 2],
    pub invites: [Option<String>; 2],
    /// The holders' usernames, as loaded (not stored with the game).
    pub names: [Option<String>; 2],
    /// Whether each holder is a bot account, as loaded (not stored with the game).
    pub bots: [bool; 2],
    /// The arena that paired it, as loaded (its `arena_games` row, not stored with the game).
    pub arena: Option<String>,
    /// When it was stored (Unix seconds), as loaded; `None` for a game being made.
    pub created: Option<i64>,
    /// The variant's name (`None`: custom rules), for the lists of games.
    pub variant: Option<String>,
    /// A rated game's category (`ratings::category`); `None`: casual.
    pub category: Option<String>,
    /// Changes made to the game since it was created: each change moves it one up.
    pub version: i64,
    /// Its clocks, if it has a time control.
    pub clock: StoredClock,
}

/// A game's clocks as stored (`clock.rs`; their JSON in the row) and when the server must
/// act on the game if nobody does (a flag, an abort), in game time (`clock::TimeSource`):
/// the instant every instance looks for ([`Store::overdue`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredClock {
    /// `None`: an untimed game.
    pub clocks: Option<Clock>,
    pub deadline_ms: Option<i64>,
}

/// What one side asks of the other and waits for: a standing draw offer, a request to take
/// back a move. Every change stores them as the game's rules left them (a move, for one,
/// withdraws both: `games/machine.rs` decides, the store writes what it is given).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Requests {
    /// The side offering a draw.
    pub draw_offer: Option<Color>,
    /// The side asking to take back its last move.
    pub undo_request: Option<Color>,
}

/// A change to a stored game, made on its version `version` (and moving it one up), which
/// leaves the standing requests at `requests`.
#[derive(Debug, Clone)]
pub struct Edit {
    pub id: String,
    pub version: i64,
    pub change: StoredChange,
    pub requests: Requests,
    /// The game's result token after the change (`*` while it goes on), kept for the lists
    /// of games.
    pub outcome: ResultToken,
    /// Its clocks after the change.
    pub clock: StoredClock,
    /// When it was made, in the server's time (a rated end's date, a bot's event).
    pub at_ms: i64,
}

/// What an [`Edit`] changes besides the requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredChange {
    /// Moves numbered from `first` (1 for the first move).
    Append { first: usize, moves: Vec<String> },
    /// The moves after the first `keep` deleted (undo).
    Truncate { keep: usize },
    /// An end declared off the board: how, and the result.
    End {
        termination: Termination,
        result: ResultToken,
    },
    /// Nothing but the requests.
    Requests,
}

/// Why the database did not do what it was asked. Nothing was written.
#[derive(Debug)]
pub enum StoreError {
    /// An [`Edit`] made on a version the stored game has left: another instance changed it
    /// first.
    Stale,
    /// The database cannot take the request now (it cannot be reached, its disk is full,
    /// its file is read-only): the same may succeed later, once someone has seen to it.
    Unavailable(Trouble, anyhow::Error),
    /// No such game.
    NotFound,
    /// Anything else: the database or the machine failed.
    Other(anyhow::Error),
}

/// What the store answers.
pub type StoreResult<T> = Result<T, StoreError>;

/// Why the database cannot take a request now (each its own refusal: `error.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trouble {
    /// It cannot be reached: PostgreSQL restarting, failing over, the network down; an
    /// SQLite file that cannot be opened or read, or is locked.
    Unreachable,
    /// Its disk is full.
    Full,
    /// It is read-only (its file, its file system, a standby).
    ReadOnly,
}

impl StoreError {
    /// `error`, unavailable for `trouble` if it is one, else a failure.
    fn of(trouble: Option<Trouble>, error: anyhow::Error) -> StoreError {
        match trouble {
            Some(trouble) => StoreError::Unavailable(trouble, error),
            None => StoreError::Other(error),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Stale => f.write_str("the game changed in the database since it was read"),
            StoreError::Unavailable(Trouble::Unreachable, e) => {
                write!(f, "the database cannot be reached: {e:#}")
            }
            StoreError::Unavailable(Trouble::Full, e) => {
                write!(f, "the database's disk is full: {e:#}")
            }
            StoreError::Unavailable(Trouble::ReadOnly, e) => {
                write!(f, "the database is read-only: {e:#}")
            }
            StoreError::NotFound => f.write_str("no such game in the database"),
            StoreError::Other(e) => write!(f, "{e:#}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<anyhow::Error> for StoreError {
    /// A driver's failure, told apart once here: a trouble of the database's (as its driver
    /// tells it), or anything else.
    fn from(error: anyhow::Error) -> StoreError {
        let trouble = (error.chain()).find_map(|c| postgres::trouble(c).or(sqlite::trouble(c)));
        StoreError::of(trouble, error)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        anyhow::Error::from(error).into()
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> StoreError {
        anyhow::Error::from(error).into()
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(error: deadpool_postgres::PoolError) -> StoreError {
        anyhow::Error::from(error).into()
    }
}

/// What another instance changed: told by PostgreSQL (LISTEN/NOTIFY).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` is now at `version`.
    Changed { id: String, version: i64 },
    /// Another instance has `counts` pages open (per side) on game `id`.
    Presence {
        id: String,
        instance: String,
        counts: [u32; 2],
    },
    /// Seek (or ticket) `id` of the lobby changed.
    Lobby { id: String },
    /// The connection that listens was lost and is back: anything may have changed.
    Reconnected,
}

/// A change queued for the database: its outcome once committed (or failed). Awaited
/// ([`Pending::outcome`]), which holds no thread while the commit syncs, or waited for by a
/// caller that is not async ([`Pending::wait`]).
#[must_use = "a change is committed only when its outcome is known"]
pub struct Pending(Option<oneshot::Receiver<StoreResult<()>>>);

impl Pending {
    fn stopped() -> StoreError {
        StoreError::Other(anyhow!("the database writer has stopped"))
    }

    /// A change sent to be written: its outcome comes through `outcome`.
    fn sent(outcome: oneshot::Receiver<StoreResult<()>>) -> Pending {
        Pending(Some(outcome))
    }

    /// A change that could not even be sent.
    fn failed() -> Pending {
        Pending(None)
    }

    /// A job already done.
    fn done(outcome: StoreResult<()>) -> Pending {
        let (tell, told) = oneshot::channel();
        let _ = tell.send(outcome);
        Pending::sent(told)
    }

    /// Waits for the outcome. (Blocking: never on an async thread.)
    pub fn wait(self) -> StoreResult<()> {
        sql::wait(self.outcome())
    }

    /// The outcome, awaited.
    pub async fn outcome(self) -> StoreResult<()> {
        let outcome = self.0.ok_or_else(Pending::stopped)?;
        outcome.await.map_err(|_| Pending::stopped())?
    }
}

/// What differs between the two databases, behind the operations written once over
/// [`sql::Conn`]: how a transaction is run (SQLite's writer thread and its group commit,
/// PostgreSQL's pool), what the other instances are told, the schema's version.
pub(crate) trait Driver: Send + Sync {
    /// Whether other server instances may change the games too (then a game in memory is
    /// checked against the database before a refusal or an answer that wrote nothing).
    fn shared(&self) -> bool;

    /// The other instances' changes, as the database tells them (`None` when one instance
    /// owns the database). Taken once.
    fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        None
    }

    /// Tells the other instances how many pages (per side) this one has open on a game
    /// (nothing to tell when one instance owns the database).
    fn announce_presence(&self, _id: &str, _counts: [u32; 2]) {}

    /// Tells the other instances that seek `id` of the lobby changed.
    fn announce_lobby(&self, _id: &str) {}

    /// Changes written and commits made so far.
    fn counts(&self) -> &Counts;

    /// Runs `job` in a transaction that writes, committed if the job succeeds (else rolled
    /// back), without waiting for it; the games the job said it changed
    /// ([`sql::Conn::changed`]) are told to the other instances once committed.
    fn write(&self, job: Job) -> Pending;

    /// Runs `job` in a transaction that only reads, from one instant of the database.
    fn read(&self, job: Job) -> Pending;

    /// Rows were erased (a closed account's): their bytes are taken out of the database's
    /// files, not left in free pages.
    fn erase_deleted(&self) -> StoreResult<()>;
}

/// What a driver has written: changes, and commits (syncs) made.
#[derive(Default)]
pub(crate) struct Counts {
    changes: AtomicU64,
    commits: AtomicU64,
}

impl Counts {
    /// `changes` written in one commit, which took `took` (also in the metrics, when the
    /// server has them: `lgame_store_commit_seconds`, `lgame_store_batch_changes`).
    fn committed(&self, changes: usize, took: std::time::Duration) {
        self.changes.fetch_add(changes as u64, Ordering::Relaxed);
        self.commits.fetch_add(1, Ordering::Relaxed);
        metrics::histogram!("lgame_store_commit_seconds").record(took.as_secs_f64());
        metrics::histogram!("lgame_store_batch_changes").record(changes as f64);
    }
}

/// The database, through one driver or the other: every operation of the store is a method
/// of it, written once (`store/games.rs`, `store/accounts.rs`, …).
pub struct Store(Box<dyn Driver>);

impl Store {
    /// Opens (creating if need be) the SQLite database at `path`, brings its schema up to
    /// date and starts its writer.
    pub fn sqlite(path: &Path, synchronous: Synchronous) -> anyhow::Result<Store> {
        Ok(Store(Box::new(sqlite::Store::open(path, synchronous)?)))
    }

    /// Connects to the PostgreSQL database at `url` (`shown`: as messages may show it, no
    /// password), brings its schema up to date and starts listening to the other
    /// instances, this one named at random.
    pub fn postgres(url: &str, shown: &str) -> anyhow::Result<Store> {
        let instance = crate::secret::random_hex(6).map_err(|e| anyhow!("random numbers: {e}"))?;
        Ok(Store(Box::new(postgres::Store::open(
            url, shown, instance,
        )?)))
    }

    /// See [`Driver::shared`].
    pub fn shared(&self) -> bool {
        self.0.shared()
    }

    /// See [`Driver::notices`].
    pub fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        self.0.notices()
    }

    /// See [`Driver::announce_presence`].
    pub fn announce_presence(&self, id: &str, counts: [u32; 2]) {
        self.0.announce_presence(id, counts)
    }

    /// See [`Driver::announce_lobby`].
    pub fn announce_lobby(&self, id: &str) {
        self.0.announce_lobby(id)
    }

    /// Changes written and commits made so far: how well the writer batches.
    pub fn write_counts(&self) -> (u64, u64) {
        let counts = self.0.counts();
        let read = |n: &AtomicU64| n.load(Ordering::Relaxed);
        (read(&counts.changes), read(&counts.commits))
    }

    /// The schema version of the database.
    pub async fn version(&self) -> StoreResult<u32> {
        transaction!(self.read, |c| {
            let sql = match c.dialect() {
                sql::Dialect::Sqlite => "PRAGMA user_version",
                sql::Dialect::Postgres => "SELECT version FROM lgame_schema",
            };
            c.query_one(sql, &[]).await?.get(0)
        })
        .await
    }

    /// The rows one statement reads, each read as a `T`, in a transaction of its own.
    pub(crate) async fn select<T: FromRow + Send + 'static>(
        &self,
        sql: impl AsRef<str> + Send + 'static,
        args: impl Into<Vec<Value>>,
    ) -> StoreResult<Vec<T>> {
        let args = args.into();
        transaction!(self.read, |c| { c.rows(sql.as_ref(), &args).await }).await
    }

    /// The one row a statement reads, if any, read as a `T`, in a transaction of its own.
    pub(crate) async fn select_one<T: FromRow + Send + 'static>(
        &self,
        sql: impl AsRef<str> + Send + 'static,
        args: impl Into<Vec<Value>>,
    ) -> StoreResult<Option<T>> {
        let args = args.into();
        transaction!(self.read, |c| { c.row(sql.as_ref(), &args).await }).await
    }

    /// Runs one statement in a transaction that writes; the number of rows it changed.
    pub(crate) async fn run(
        &self,
        sql: impl AsRef<str> + Send + 'static,
        args: impl Into<Vec<Value>>,
    ) -> StoreResult<u64> {
        let args = args.into();
        transaction!(self.write, |c| { c.execute(sql.as_ref(), &args).await }).await
    }

    /// Runs `op` in a transaction that writes; its answer, once committed.
    pub(crate) async fn write<T: Send + 'static>(
        &self,
        op: impl for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, StoreResult<T>> + Send + 'static,
    ) -> StoreResult<T> {
        let (job, answer) = answering(op);
        self.0.write(job).outcome().await?;
        answer.try_recv().map_err(|_| Pending::stopped())
    }

    /// Runs `op` in a transaction that reads; its answer.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        op: impl for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, StoreResult<T>> + Send + 'static,
    ) -> StoreResult<T> {
        let (job, answer) = answering(op);
        self.0.read(job).outcome().await?;
        answer.try_recv().map_err(|_| Pending::stopped())
    }
}

/// `op` as a job, and where its answer comes once it has run.
fn answering<T: Send + 'static>(
    op: impl for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, StoreResult<T>> + Send + 'static,
) -> (Job, std::sync::mpsc::Receiver<T>) {
    let (tell, answer) = std::sync::mpsc::channel();
    let job: Job = Box::new(move |conn| {
        Box::pin(async move {
            let _ = tell.send(op(conn).await?);
            Ok(())
        })
    });
    (job, answer)
}

/// Refuses a database whose schema `version` is newer than this server's `latest`.
fn known_schema(version: usize, latest: usize) -> anyhow::Result<()> {
    anyhow::ensure!(
        version <= latest,
        "the database has schema version {version}, newer than this server's {latest}"
    );
    Ok(())
}

/// The SQL column of a side's token hash.
fn token_column(side: Color) -> &'static str {
    match side {
        Color::Red => "red_token_hash",
        Color::Blue => "blue_token_hash",
    }
}

/// The [`Store`]'s interface, exercised the same way on SQLite and on PostgreSQL.
#[cfg(test)]
mod both_backends {
    use lgame_test_support::backends::Backend as Db;
    use lgame_test_support::{on_both_backends, TempDir};

    use super::*;
    use crate::clock::TimeSource;
    use crate::database::Database;

    fn row(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            header: "[Variant \"classic\"]\n\n*\n".into(),
            seats: ["human".into(), "human".into()],
            token_hashes: [Some("red-hash".into()), None],
            seed: 42,
            end: None,
            requests: Requests {
                draw_offer: Some(Color::Red),
                undo_request: Some(Color::Blue),
            },
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

    fn edit(id: &str, version: i64, change: StoredChange, requests: Requests) -> Edit {
        Edit {
            id: id.into(),
            version,
            change,
            requests,
            outcome: ResultToken::Unfinished,
            clock: Default::default(),
            at_ms: TimeSource::wall_ms(),
        }
    }

    fn append(first: usize, mv: &str) -> StoredChange {
        StoredChange::Append {
            first,
            moves: vec![mv.into()],
        }
    }

    fn the_interface_keeps_games_edits_links_and_tokens(db: Db) {
        let dir = TempDir::new("store-interface");
        let database: Database = db.database(&dir).parse().unwrap();
        let store = database.open(Synchronous::Normal).unwrap();
        assert_eq!(store.shared(), db == Db::Postgres);
        assert!(wait(store.version()).unwrap() >= 1);
        let (a, b) = (row("aaaaaaaaaaaaaaaa"), row("bbbbbbbbbbbbbbbb"));
        wait(store.insert_game(
            &a,
            &["A1,A2,A3,B3".into()],
            ResultToken::Unfinished,
            TimeSource::wall_ms(),
        ))
        .unwrap();
        wait(store.insert_game(&b, &[], ResultToken::Unfinished, TimeSource::wall_ms())).unwrap();
        assert_eq!(wait(store.count_games()).unwrap(), 2);
        let (mut back, moves) = wait(store.load(&a.id)).unwrap().unwrap();
        // When it was stored is read back (the database's clock), never written.
        let stored = back.created.take().expect("its time of storing");
        assert!(stored > 1_700_000_000, "{stored}");
        assert_eq!((back, moves), (a.clone(), vec!["A1,A2,A3,B3".to_string()]));
        assert!(wait(store.load("cccccccccccccccc")).unwrap().is_none());
        assert!(matches!(
            wait(store.version_of("cccccccccccccccc")),
            Err(StoreError::NotFound)
        ));

        // An edit on the game's version: stored, the version one up, the requests as given.
        let none = Requests::default();
        let asked = Requests {
            draw_offer: None,
            undo_request: Some(Color::Blue),
        };
        let played = edit(&a.id, 0, append(2, "C1,C2,C3,D3"), none);
        store.queue(played).wait().unwrap();
        assert_eq!(wait(store.version_of(&a.id)).unwrap(), 1);
        // A stale version writes nothing; a ply stored already fails.
        let stale = store.queue(edit(&a.id, 0, append(3, "x"), asked));
        assert!(matches!(stale.wait(), Err(StoreError::Stale)));
        let again = store.queue(edit(&a.id, 1, append(2, "x"), asked));
        assert!(matches!(again.wait(), Err(StoreError::Other(_))));
        let (back, moves) = wait(store.load(&a.id)).unwrap().unwrap();
        assert_eq!((back.version, back.requests, moves.len()), (1, none, 2));
        store
            .queue(edit(&a.id, 1, StoredChange::Requests, asked))
            .wait()
            .unwrap();
        assert_eq!(wait(store.load(&a.id)).unwrap().unwrap().0.requests, asked);
        let undone = edit(&a.id, 2, StoredChange::Truncate { keep: 1 }, none);
        store.queue(undone).wait().unwrap();
        let resigned = (Termination::Resignation, "0-1".parse().unwrap());
        let end = StoredChange::End {
            termination: resigned.0,
            result: resigned.1,
        };
        store.queue(edit(&a.id, 3, end, none)).wait().unwrap();
        let (back, moves) = wait(store.load(&a.id)).unwrap().unwrap();
        assert_eq!(
            (back.end, back.requests, moves.len()),
            (Some(resigned), none, 1)
        );

        // A rematch linked once, both ways; a waiting side's token given once.
        assert!(wait(store.link_rematch(&a.id, &b.id)).unwrap());
        assert!(!wait(store.link_rematch(&a.id, "cccccccccccccccc")).unwrap());
        let (old, new) = (
            wait(store.load(&a.id)).unwrap().unwrap().0,
            wait(store.load(&b.id)).unwrap().unwrap().0,
        );
        assert_eq!(
            (old.rematch, new.rematch_of),
            (Some(b.id.clone()), Some(a.id.clone()))
        );
        assert_eq!((old.version, new.version), (5, 1));
        assert!(wait(store.set_token(&b.id, Color::Blue, "blue-hash")).unwrap());
        assert!(!wait(store.set_token(&b.id, Color::Blue, "another")).unwrap());
        assert!(!wait(store.set_token(&b.id, Color::Red, "another")).unwrap());
        let back = wait(store.load(&b.id)).unwrap().unwrap().0;
        assert_eq!(back.token_hashes[1].as_deref(), Some("blue-hash"));
        assert_eq!(back.version, 2);
        assert!(store.write_counts().0 >= 5);
    }

    on_both_backends!(the_interface_keeps_games_edits_links_and_tokens);
}
