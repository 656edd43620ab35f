//! The database: every game and every accepted move, in SQLite (one file, the default) or in
//! PostgreSQL (several server instances on one database).
//!
//! Both backends keep the same two tables (`games`, `moves`), versioned schemas and the same
//! guarantee: a change is reported done only once it is committed. Every change to a game
//! names the game's `version` it was made on and moves it one up, or fails with [`Stale`]
//! when the stored game has moved on (another instance changed it): no change is ever made
//! on a stale copy. PostgreSQL also tells every instance of each change ([`Notice`]), so
//! that their watchers see it at once.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::anyhow;
use tokio::sync::{mpsc, oneshot};

mod postgres;
mod sqlite;

pub use sqlite::Synchronous;

/// Where the games are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file (created with its schema on first start).
    Sqlite(PathBuf),
    /// A PostgreSQL database: a libpq-style URL (`postgres://USER@HOST:PORT/DB`) or
    /// key=value connection string.
    Postgres(String),
}

impl FromStr for Database {
    type Err = String;

    /// `postgres://…` or `postgresql://…` (or `host=… dbname=…`) is PostgreSQL; `sqlite:PATH`
    /// or any other text is an SQLite file's path.
    fn from_str(text: &str) -> Result<Database, String> {
        if text.is_empty() {
            return Err("an empty database name".into());
        }
        if text.starts_with("postgres://")
            || text.starts_with("postgresql://")
            || (text.contains("dbname=") && text.contains('='))
        {
            return Ok(Database::Postgres(text.to_string()));
        }
        let path = text.strip_prefix("sqlite:").unwrap_or(text);
        let path = path.strip_prefix("//").unwrap_or(path);
        if path.is_empty() {
            return Err(format!("'{text}' names no file"));
        }
        Ok(Database::Sqlite(PathBuf::from(path)))
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

impl fmt::Display for Database {
    /// The file's path, or the URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&postgres::without_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub header: String,
    pub seats: [String; 2],
    /// The hash of each human side's token (`secret::token_hash`); never the token.
    pub token_hashes: [Option<String>; 2],
    pub seed: u64,
    /// A declared end: termination name and result token.
    pub end: Option<(String, String)>,
    pub draw_offer: Option<String>,
    /// The side asking to take back (`red`, `blue`).
    pub undo_request: Option<String>,
    /// The game's rematch, and the game it is the rematch of.
    pub rematch: Option<String>,
    pub rematch_of: Option<String>,
    /// Changes made to the game since it was created: each change moves it one up.
    pub version: i64,
}

/// A change to a stored game, made on its version `version` (and moving it one up).
#[derive(Debug, Clone)]
pub struct Edit {
    pub id: String,
    pub version: i64,
    pub change: Change,
}

/// What an [`Edit`] changes.
#[derive(Debug, Clone)]
pub enum Change {
    /// Moves numbered from `first` (1 for the first move); withdraws a draw offer and a
    /// request to take back.
    Append { first: usize, moves: Vec<String> },
    /// The moves after the first `keep` deleted (undo); withdraws the offer and request.
    Truncate { keep: usize },
    /// An end declared off the board: termination name and result token; withdraws the
    /// offer and request.
    End { termination: String, result: String },
    /// A side's standing draw offer (`red`, `blue`), or none.
    DrawOffer(Option<String>),
    /// A side asking to take back, or none.
    UndoRequest(Option<String>),
}

/// The refusal of an [`Edit`] made on a version the stored game has left: another instance
/// changed it first. Nothing was written.
#[derive(Debug)]
pub struct Stale {
    pub id: String,
}

impl fmt::Display for Stale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} changed in the database since it was read",
            self.id
        )
    }
}

impl std::error::Error for Stale {}

/// Whether an error is a [`Stale`] refusal.
pub fn is_stale(error: &anyhow::Error) -> bool {
    error.downcast_ref::<Stale>().is_some()
}

/// Whether an error is the database's being out of reach (PostgreSQL restarting, failing
/// over, the network down) rather than a failure of the change.
pub fn is_unreachable(error: &anyhow::Error) -> bool {
    error.chain().any(postgres::is_unreachable)
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
    /// The connection that listens was lost and is back: anything may have changed.
    Reconnected,
}

/// A change queued for the database: its outcome once committed (or failed). Waited for on
/// a blocking thread ([`Pending::wait`]) or awaited ([`Pending::outcome`]), which holds no
/// thread while the commit syncs.
#[must_use = "a change is committed only when its outcome is known"]
pub struct Pending(anyhow::Result<oneshot::Receiver<anyhow::Result<()>>>);

impl Pending {
    fn stopped() -> anyhow::Error {
        anyhow!("the database writer has stopped")
    }

    /// A change sent to be written: its outcome comes through `outcome`.
    fn sent(outcome: oneshot::Receiver<anyhow::Result<()>>) -> Pending {
        Pending(Ok(outcome))
    }

    /// A change that could not even be sent.
    fn failed() -> Pending {
        Pending(Err(Pending::stopped()))
    }

    /// Waits for the outcome. (Blocking: call it off the async threads.)
    pub fn wait(self) -> anyhow::Result<()> {
        self.0?.blocking_recv().map_err(|_| Pending::stopped())?
    }

    /// The outcome, awaited.
    pub async fn outcome(self) -> anyhow::Result<()> {
        self.0?.await.map_err(|_| Pending::stopped())?
    }
}

/// The database, through one backend or the other.
pub enum Store {
    Sqlite(sqlite::Store),
    Postgres(postgres::Store),
}

impl Store {
    /// Opens (creating if need be) the database, brings its schema up to date and gets
    /// ready to write. `synchronous` is SQLite's; PostgreSQL commits as its server is set
    /// to (`synchronous_commit`, on by default: a commit is on the database's disk).
    pub fn open(db: &Database, synchronous: Synchronous) -> anyhow::Result<Store> {
        Ok(match db {
            Database::Sqlite(path) => Store::Sqlite(sqlite::Store::open(path, synchronous)?),
            Database::Postgres(url) => {
                Store::Postgres(postgres::Store::open(url, instance_name()?)?)
            }
        })
    }

    /// Whether other server instances may change the games too (then a game in memory is
    /// checked against the database before it is used).
    pub fn shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// The other instances' changes, as PostgreSQL tells them (`None` for SQLite, which
    /// one instance owns). Taken once.
    pub fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(pg) => pg.notices(),
        }
    }

    /// Tells the other instances how many pages (per side) this one has open on a game
    /// (nothing to tell on SQLite, which one instance owns).
    pub fn announce_presence(&self, id: &str, counts: [u32; 2]) {
        if let Store::Postgres(pg) = self {
            pg.announce_presence(id, counts);
        }
    }

    /// Changes written and commits made so far: how well the writer batches.
    pub fn write_counts(&self) -> (u64, u64) {
        match self {
            Store::Sqlite(s) => s.write_counts(),
            Store::Postgres(pg) => pg.write_counts(),
        }
    }

    /// The schema version of the database.
    pub fn version(&self) -> anyhow::Result<u32> {
        match self {
            Store::Sqlite(s) => s.version(),
            Store::Postgres(pg) => pg.version(),
        }
    }

    /// How many games are stored.
    pub fn count_games(&self) -> anyhow::Result<u64> {
        match self {
            Store::Sqlite(s) => s.count_games(),
            Store::Postgres(pg) => pg.count_games(),
        }
    }

    /// Stores a new game (at version 0) and its moves. (Blocking.)
    pub fn insert_game(&self, game: &GameRow, moves: &[String]) -> anyhow::Result<()> {
        match self {
            Store::Sqlite(s) => s.insert_game(game, moves),
            Store::Postgres(pg) => pg.insert_game(game, moves),
        }
    }

    /// Queues a change for the database, without waiting for it. It fails with [`Stale`]
    /// if the game is no longer at the edit's version, and a ply already stored fails (the
    /// `(game, ply)` key): nothing is written then.
    pub fn queue(&self, edit: Edit) -> Pending {
        match self {
            Store::Sqlite(s) => s.queue_edit(edit),
            Store::Postgres(pg) => pg.queue_edit(edit),
        }
    }

    /// A game and its moves in order, if it exists. (Blocking.)
    pub fn load(&self, id: &str) -> anyhow::Result<Option<(GameRow, Vec<String>)>> {
        match self {
            Store::Sqlite(s) => s.load(id),
            Store::Postgres(pg) => pg.load(id),
        }
    }

    /// A game's version as stored, if it exists. (Blocking.)
    pub fn version_of(&self, id: &str) -> anyhow::Result<Option<i64>> {
        match self {
            Store::Sqlite(s) => s.version_of(id),
            Store::Postgres(pg) => pg.version_of(id),
        }
    }

    /// Links a game to its rematch, both ways (both links or neither), moving both games'
    /// versions up; or, if the game has a rematch already (another instance linked one
    /// first), nothing: then `false`. (Blocking.)
    pub fn link_rematch(&self, old: &str, new: &str) -> anyhow::Result<bool> {
        match self {
            Store::Sqlite(s) => s.link_rematch(old, new),
            Store::Postgres(pg) => pg.link_rematch(old, new),
        }
    }

    /// Gives a human side that waited for it its token (`side`: `red` or `blue`), keeping
    /// its hash, and moves the game's version up; `false` if the side has one. (Blocking.)
    pub fn set_token(&self, id: &str, side: &str, token_hash: &str) -> anyhow::Result<bool> {
        match self {
            Store::Sqlite(s) => s.set_token(id, side, token_hash),
            Store::Postgres(pg) => pg.set_token(id, side, token_hash),
        }
    }
}

/// A name for this instance among those on the database: random, a new one each start.
fn instance_name() -> anyhow::Result<String> {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).map_err(|e| anyhow!("random numbers: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The SQL column of a side's token hash.
fn token_column(side: &str) -> anyhow::Result<&'static str> {
    match side {
        "red" => Ok("red_token_hash"),
        "blue" => Ok("blue_token_hash"),
        _ => Err(anyhow!("'{side}' is not a side")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_is_postgresql_by_its_url_and_sqlite_otherwise() {
        let pg = "postgres://lgame@db.example:5432/games";
        assert_eq!(pg.parse(), Ok(Database::Postgres(pg.into())));
        let pg = "postgresql://lgame:secret@10.0.0.1/games";
        assert_eq!(pg.parse(), Ok(Database::Postgres(pg.into())));
        let kv = "host=/run/postgresql dbname=games user=lgame";
        assert_eq!(kv.parse(), Ok(Database::Postgres(kv.into())));
        assert_eq!(
            "games.db".parse(),
            Ok(Database::Sqlite(PathBuf::from("games.db")))
        );
        assert_eq!(
            "sqlite:/var/lib/lgame/games.db".parse(),
            Ok(Database::Sqlite(PathBuf::from("/var/lib/lgame/games.db")))
        );
        assert_eq!(
            "sqlite:///srv/g.db".parse(),
            Ok(Database::Sqlite(PathBuf::from("/srv/g.db")))
        );
        assert!("".parse::<Database>().is_err());
        assert!("sqlite:".parse::<Database>().is_err());
        // The password is never shown.
        let shown = Database::Postgres(pg.into()).to_string();
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains("10.0.0.1/games"), "{shown}");
    }
}
