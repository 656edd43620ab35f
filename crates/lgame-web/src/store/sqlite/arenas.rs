//! The SQLite backend's arenas (`store/arenas.rs` has the SQL). A pairing runs in the
//! writer's transaction: the one writer pairs one arena at a time.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::accounts::numbered;
use super::Store;
use crate::store::arenas::*;
use crate::store::StoreResult;

fn read_arena(r: &Row<'_>) -> rusqlite::Result<ArenaRow> {
    Ok(ArenaRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        clock: r.get(2)?,
        minutes: r.get(3)?,
        category: r.get(4)?,
        starts_at: r.get(5)?,
        ends_at: r.get(6)?,
        creator: r.get(7)?,
        creator_name: r.get(8)?,
        created_ms: r.get(9)?,
        players: r.get(10)?,
        unfinished: r.get(11)?,
    })
}

/// Arena `id` as `conn` reads it.
fn load(conn: &Connection, id: &str, now_ms: i64) -> StoreResult<Option<ArenaData>> {
    let Some(arena) = conn
        .prepare_cached(&numbered(&arena_sql(false)))?
        .query_row(params![now_ms, id], read_arena)
        .optional()?
    else {
        return Ok(None);
    };
    let players = conn
        .prepare_cached(&numbered(PLAYERS))?
        .query_map([id], |r| {
            Ok(ArenaPlayer {
                user_id: r.get(0)?,
                username: r.get(1)?,
                joined_ms: r.get(2)?,
                left_ms: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let games = conn
        .prepare_cached(&numbered(GAMES))?
        .query_map([id], |r| {
            Ok(ArenaGame {
                game: r.get(0)?,
                players: [r.get(1)?, r.get(2)?],
                seq: r.get(3)?,
                made_ms: r.get(4)?,
                ended_ms: r.get(5)?,
                outcome: r.get(6)?,
                termination: r.get(7)?,
                plies: r.get(8)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(ArenaData {
        arena,
        players,
        games,
    }))
}

impl Arenas for Store {
    fn insert_arena(&self, a: &ArenaRow) -> StoreResult<()> {
        let a = a.clone();
        self.write(move |conn| {
            conn.execute(
                &numbered(INSERT),
                params![
                    a.id,
                    a.variant,
                    a.clock,
                    a.minutes,
                    a.category,
                    a.starts_at,
                    a.ends_at,
                    a.creator,
                    a.created_ms
                ],
            )?;
            Ok(())
        })
    }

    fn arena(&self, id: &str, now_ms: i64) -> StoreResult<Option<ArenaData>> {
        load(&self.reader(), id, now_ms)
    }

    fn arenas(&self, now_ms: i64, limit: i64) -> StoreResult<Vec<ArenaRow>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&arenas_sql()))?;
        let rows = stmt.query_map(params![now_ms, limit], read_arena)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn running_arenas(&self, now_ms: i64) -> StoreResult<Vec<String>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(RUNNING))?;
        let rows = stmt.query_map([now_ms], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn arenas_of(&self, user: i64) -> StoreResult<Vec<(String, i64, Option<i64>)>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(ARENAS_OF))?;
        let rows = stmt.query_map([user], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn join_arena(&self, id: &str, user: i64, now_ms: i64) -> StoreResult<()> {
        let id = id.to_string();
        self.write(move |conn| {
            conn.execute(&numbered(JOIN), params![id, user, now_ms])?;
            Ok(())
        })
    }

    fn leave_arena(&self, id: &str, user: i64, now_ms: i64) -> StoreResult<bool> {
        let id = id.to_string();
        self.write_returning(move |conn| {
            Ok(conn.execute(&numbered(LEAVE), params![id, user, now_ms])? == 1)
        })
    }

    fn pair_arena(&self, id: &str, now_ms: i64, choose: Chooser) -> StoreResult<Vec<Pairing>> {
        let id = id.to_string();
        self.write_returning(move |conn| {
            let Some(mut data) = load(conn, &id, now_ms)? else {
                return Ok(Vec::new());
            };
            for game in data.games.iter_mut().filter(|g| g.over()) {
                if game.ended_ms.is_none() {
                    conn.execute(&numbered(ENDED), params![game.game, now_ms])?;
                    game.ended_ms = Some(now_ms);
                }
            }
            let pairings = choose(&data);
            let mut seq = data.games.iter().map(|g| g.seq).max().unwrap_or(0);
            for p in &pairings {
                seq += 1;
                conn.execute(
                    &numbered(INSERT_GAME),
                    params![p.game, id, p.players[0], p.players[1], seq, now_ms],
                )?;
            }
            Ok(pairings)
        })
    }
}
