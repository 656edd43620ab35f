//! The database the server is given (`--db`): an SQLite file or a PostgreSQL database, as
//! the command line names it, shown without its password, and opened as the [`Store`].

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::store::{Store, Synchronous};

/// Where the games are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file (created with its schema on first start).
    Sqlite(PathBuf),
    /// A PostgreSQL database: a libpq-style URL (`postgres://USER@HOST:PORT/DB`) or
    /// key=value connection string.
    Postgres(String),
}

impl Database {
    /// Opens (creating if need be) the database, brings its schema up to date and gets
    /// ready to write. `synchronous` is SQLite's; PostgreSQL commits as its server is set
    /// to (`synchronous_commit`, on by default: a commit is on the database's disk).
    pub fn open(&self, synchronous: Synchronous) -> anyhow::Result<Store> {
        match self {
            Database::Sqlite(path) => Store::sqlite(path, synchronous),
            Database::Postgres(url) => Store::postgres(url, &self.to_string()),
        }
    }
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
            Database::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A connection string with its password hidden.
fn without_password(url: &str) -> String {
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

impl FromStr for Synchronous {
    type Err = String;

    fn from_str(text: &str) -> Result<Synchronous, String> {
        match text.to_ascii_lowercase().as_str() {
            "full" => Ok(Synchronous::Full),
            "normal" => Ok(Synchronous::Normal),
            _ => Err(format!(
                "'{text}' is not a synchronous setting (full or normal)"
            )),
        }
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
}
