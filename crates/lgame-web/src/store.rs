//! The database: every game and every accepted move, in SQLite.
//!
//! One connection, in WAL mode, behind a mutex; every change is one transaction, committed
//! before the server answers. The schema is versioned with `PRAGMA user_version`: each entry
//! of [`MIGRATIONS`] moves it one version up, in a transaction of its own.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use anyhow::{bail, Context};
use rusqlite::{params, Connection, OptionalExtension};

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

impl std::str::FromStr for Synchronous {
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

/// The schema, one migration per version (version = index + 1).
const MIGRATIONS: &[&str] = &[
    // Version 1.
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
    // Version 2: a finished game's rematch, linked both ways.
    "ALTER TABLE games ADD COLUMN rematch TEXT;
    ALTER TABLE games ADD COLUMN rematch_of TEXT;",
];

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub header: String,
    pub seats: [String; 2],
    pub tokens: [Option<String>; 2],
    pub seed: u64,
    /// A declared end: termination name and result token.
    pub end: Option<(String, String)>,
    pub draw_offer: Option<String>,
}

/// The database.
pub struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (creating if need be) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path, synchronous: Synchronous) -> anyhow::Result<Store> {
        let mut conn = Connection::open(path)
            .with_context(|| format!("opening the database {}", path.display()))?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            bail!("{}: cannot use WAL mode (got {mode})", path.display());
        }
        let sync = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn).with_context(|| format!("migrating {}", path.display()))?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The schema version of the database.
    pub fn version(&self) -> anyhow::Result<u32> {
        Ok(self
            .conn()
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Stores a new game and its moves.
    pub fn insert_game(&self, game: &GameRow, moves: &[String]) -> anyhow::Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let (termination, result) = game.end.clone().unzip();
        tx.execute(
            "INSERT INTO games (id, created, header, red, blue, red_token, blue_token, seed,
                                termination, result, draw_offer)
             VALUES (?1, unixepoch(), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                game.id,
                game.header,
                game.seats[0],
                game.seats[1],
                game.tokens[0],
                game.tokens[1],
                game.seed as i64,
                termination,
                result,
                game.draw_offer,
            ],
        )?;
        insert_moves(&tx, &game.id, 1, moves)?;
        tx.commit()?;
        Ok(())
    }

    /// Appends moves numbered from `first_ply` and withdraws any draw offer. A ply already
    /// stored fails (the `(game, ply)` key): nothing is written then.
    pub fn append_moves(&self, id: &str, first_ply: usize, moves: &[String]) -> anyhow::Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        insert_moves(&tx, id, first_ply, moves)?;
        tx.execute(
            "UPDATE games SET draw_offer = NULL WHERE id = ?1 AND draw_offer IS NOT NULL",
            [id],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Deletes the moves after the first `keep` and withdraws any draw offer (undo).
    pub fn truncate_moves(&self, id: &str, keep: usize) -> anyhow::Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game = ?1 AND ply > ?2",
            params![id, keep as i64],
        )?;
        tx.execute("UPDATE games SET draw_offer = NULL WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(())
    }

    /// Records an end declared off the board (resignation, agreement).
    pub fn set_end(&self, id: &str, termination: &str, result: &str) -> anyhow::Result<()> {
        self.conn().execute(
            "UPDATE games SET termination = ?2, result = ?3, draw_offer = NULL WHERE id = ?1",
            params![id, termination, result],
        )?;
        Ok(())
    }

    /// Records or withdraws a draw offer.
    pub fn set_draw_offer(&self, id: &str, offer: Option<&str>) -> anyhow::Result<()> {
        self.conn().execute(
            "UPDATE games SET draw_offer = ?2 WHERE id = ?1",
            params![id, offer],
        )?;
        Ok(())
    }

    /// A game and its moves in order, if it exists.
    pub fn load(&self, id: &str) -> anyhow::Result<Option<(GameRow, Vec<String>)>> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, header, red, blue, red_token, blue_token, seed, termination, result,
                        draw_offer
                 FROM games WHERE id = ?1",
                [id],
                |r| {
                    let termination: Option<String> = r.get(7)?;
                    let result: Option<String> = r.get(8)?;
                    Ok(GameRow {
                        id: r.get(0)?,
                        header: r.get(1)?,
                        seats: [r.get(2)?, r.get(3)?],
                        tokens: [r.get(4)?, r.get(5)?],
                        seed: r.get::<_, i64>(6)? as u64,
                        end: termination.zip(result),
                        draw_offer: r.get(9)?,
                    })
                },
            )
            .optional()?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut stmt = conn.prepare_cached("SELECT mv FROM moves WHERE game = ?1 ORDER BY ply")?;
        let moves = stmt
            .query_map([id], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(Some((row, moves)))
    }

    /// Links a game to its rematch, both ways.
    pub fn link_rematch(&self, old: &str, new: &str) -> anyhow::Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("UPDATE games SET rematch = ?2 WHERE id = ?1", [old, new])?;
        tx.execute("UPDATE games SET rematch_of = ?1 WHERE id = ?2", [old, new])?;
        tx.commit()?;
        Ok(())
    }

    /// A game's rematch and the game it is the rematch of.
    pub fn rematch_links(&self, id: &str) -> anyhow::Result<(Option<String>, Option<String>)> {
        Ok(self.conn().query_row(
            "SELECT rematch, rematch_of FROM games WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// Gives a human side that waited for it its token (`side`: `red` or `blue`).
    pub fn set_token(&self, id: &str, side: &str, token: &str) -> anyhow::Result<()> {
        let sql = match side {
            "red" => "UPDATE games SET red_token = ?2 WHERE id = ?1 AND red_token IS NULL",
            _ => "UPDATE games SET blue_token = ?2 WHERE id = ?1 AND blue_token IS NULL",
        };
        let changed = self.conn().execute(sql, [id, token])?;
        if changed != 1 {
            bail!("{id}: the {side} side has its token already");
        }
        Ok(())
    }

    /// How many games are stored.
    pub fn count_games(&self) -> anyhow::Result<u64> {
        Ok(self
            .conn()
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))? as u64)
    }
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    first_ply: usize,
    moves: &[String],
) -> anyhow::Result<()> {
    let mut stmt = tx.prepare_cached("INSERT INTO moves (game, ply, mv) VALUES (?1, ?2, ?3)")?;
    for (i, mv) in moves.iter().enumerate() {
        stmt.execute(params![id, (first_ply + i) as i64, mv])?;
    }
    Ok(())
}

fn migrate(conn: &mut Connection) -> anyhow::Result<()> {
    let version: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version as usize > MIGRATIONS.len() {
        bail!(
            "the database has schema version {version}, newer than this server's {}",
            MIGRATIONS.len()
        );
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as u32)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_and_its_moves_round_trip_and_a_ply_is_stored_once() {
        let dir = std::env::temp_dir().join(format!("lgame-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&path, Synchronous::Normal).unwrap();
        assert_eq!(store.version().unwrap(), MIGRATIONS.len() as u32);
        let row = GameRow {
            id: "g1".into(),
            header: "[Variant \"classic\"]\n\n*\n".into(),
            seats: ["human".into(), "perfect".into()],
            tokens: [Some("t".into()), None],
            seed: u64::MAX,
            end: None,
            draw_offer: None,
        };
        store.insert_game(&row, &["a".into()]).unwrap();
        store.append_moves("g1", 2, &["b".into()]).unwrap();
        assert!(store.append_moves("g1", 2, &["c".into()]).is_err());
        let (back, moves) = store.load("g1").unwrap().unwrap();
        assert_eq!(back, row);
        assert_eq!(moves, ["a", "b"]);
        store.truncate_moves("g1", 1).unwrap();
        assert_eq!(store.load("g1").unwrap().unwrap().1, ["a"]);
        drop(store);
        // Reopening does not migrate again.
        let store = Store::open(&path, Synchronous::Full).unwrap();
        assert_eq!(store.count_games().unwrap(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
