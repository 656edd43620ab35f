//! The SQLite backend's ratings (`store/ratings.rs` has the SQL). A game's rating changes
//! are written by the writer in the transaction that stores its result.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::accounts::numbered;
use super::Store;
use crate::ratings::Entry;
use crate::store::ratings::*;
use crate::store::StoreResult;

fn read_entry(r: &Row<'_>, first: usize) -> rusqlite::Result<Entry> {
    Ok(entry(
        r.get(first)?,
        r.get(first + 1)?,
        r.get(first + 2)?,
        r.get(first + 3)?,
        r.get(first + 4)?,
    ))
}

fn read_change(r: &Row<'_>) -> rusqlite::Result<RatingChange> {
    Ok(RatingChange {
        game: r.get(0)?,
        side: r.get(1)?,
        user_id: r.get(2)?,
        category: r.get(3)?,
        at_ms: r.get(4)?,
        before: rating(r.get(5)?, r.get(6)?, r.get(7)?),
        after: rating(r.get(8)?, r.get(9)?, r.get(10)?),
    })
}

/// Rates game `id` if its result `outcome` ends a rated game that has not been rated yet:
/// both entries and both changes written on `conn`, in the caller's transaction.
pub(super) fn rate_end(conn: &Connection, id: &str, outcome: &str) -> StoreResult<()> {
    if outcome == "*" {
        return Ok(());
    }
    let (category, red, blue, plies): (Option<String>, Option<String>, Option<String>, i64) = conn
        .prepare_cached(&numbered(GAME_RATED))?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    let Some((players, category, result)) = to_rate(category, [red, blue], outcome, plies) else {
        return Ok(());
    };
    let rated: i64 = conn
        .prepare_cached(&numbered(CHANGED))?
        .query_row([id], |r| r.get(0))?;
    if rated > 0 {
        return Ok(());
    }
    let mut entries = [None, None];
    for (entry, player) in entries.iter_mut().zip(players) {
        *entry = conn
            .prepare_cached(&numbered(&entry_sql()))?
            .query_row(params![player, category], |r| read_entry(r, 0))
            .optional()?;
    }
    let (after, changes) = changes(id, players, &category, entries, result, now_ms());
    for (player, e) in players.into_iter().zip(after) {
        write_entry(conn, player, &category, &e)?;
    }
    for c in &changes {
        write_change(conn, c)?;
    }
    Ok(())
}

/// Writes account `player`'s entry in `category`.
fn write_entry(conn: &Connection, player: i64, category: &str, e: &Entry) -> StoreResult<()> {
    conn.prepare_cached(&numbered(UPSERT_ENTRY))?
        .execute(params![
            player,
            category,
            e.rating.rating,
            e.rating.deviation,
            e.rating.volatility,
            e.games,
            e.last_ms
        ])?;
    Ok(())
}

/// Writes one player's change in one game.
fn write_change(conn: &Connection, c: &RatingChange) -> StoreResult<()> {
    conn.prepare_cached(&numbered(INSERT_CHANGE))?
        .execute(params![
            c.game,
            c.side,
            c.user_id,
            c.category,
            c.at_ms,
            c.before.rating,
            c.before.deviation,
            c.before.volatility,
            c.after.rating,
            c.after.deviation,
            c.after.volatility
        ])?;
    Ok(())
}

impl Ratings for Store {
    fn replace_ratings(
        &self,
        entries: &[(i64, String, Entry)],
        changes: &[RatingChange],
    ) -> StoreResult<()> {
        let (entries, changes) = (entries.to_vec(), changes.to_vec());
        self.write(move |conn| {
            for sql in REPLACE_ALL {
                conn.execute(sql, [])?;
            }
            for (player, category, entry) in &entries {
                write_entry(conn, *player, category, entry)?;
            }
            for change in &changes {
                write_change(conn, change)?;
            }
            Ok(())
        })
    }

    fn ratings_of(&self, user_id: i64) -> StoreResult<Vec<(String, Entry)>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&ratings_of_sql()))?;
        let rows = stmt.query_map([user_id], |r| Ok((r.get(0)?, read_entry(r, 1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn rating_entry(&self, user_id: i64, category: &str) -> StoreResult<Option<Entry>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&entry_sql()))?;
        Ok(stmt
            .query_row(params![user_id, category], |r| read_entry(r, 0))
            .optional()?)
    }

    fn rating_history(&self, user_id: i64) -> StoreResult<Vec<RatingChange>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&history_sql()))?;
        let rows = stmt.query_map([user_id], read_change)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn game_ratings(&self, id: &str) -> StoreResult<Vec<RatingChange>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&game_ratings_sql()))?;
        let rows = stmt.query_map([id], read_change)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn leaderboard(
        &self,
        category: &str,
        deviation: f64,
        since_ms: i64,
        limit: i64,
        established: bool,
    ) -> StoreResult<Vec<Leader>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(LEADERBOARD))?;
        let rows = stmt.query_map(
            params![category, deviation, since_ms, limit, established],
            |r| {
                Ok(Leader {
                    username: r.get(0)?,
                    entry: read_entry(r, 1)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn rated_games(&self) -> StoreResult<Vec<RatedGame>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(RATED_GAMES))?;
        let rows = stmt.query_map([], |r| {
            Ok(RatedGame {
                id: r.get(0)?,
                category: r.get(1)?,
                holders: [r.get(2)?, r.get(3)?],
                outcome: r.get(4)?,
                at_ms: r.get(5)?,
                plies: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn all_ratings(&self) -> StoreResult<Vec<(i64, String, Entry)>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&all_ratings_sql()))?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, read_entry(r, 2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn rated_games_playing(&self, holder: &str) -> StoreResult<Vec<String>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(RATED_PLAYING))?;
        let rows = stmt.query_map([holder], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
