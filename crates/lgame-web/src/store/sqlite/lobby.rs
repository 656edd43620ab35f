//! The SQLite backend's lobby (`store/lobby.rs` has the SQL). Every change runs in the
//! writer's transaction, so a claim of several rows is all or none.

use rusqlite::{params, OptionalExtension, Row};

use super::accounts::numbered;
use super::Store;
use crate::store::lobby::*;
use crate::store::{StoreError, StoreResult};

/// A row in [`COLUMNS`]' order, and its kind's and state's names.
fn raw(r: &Row<'_>) -> rusqlite::Result<(SeekRow, String, String)> {
    let row = SeekRow {
        id: r.get(0)?,
        kind: SeekKind::Seek,
        token_hash: r.get(2)?,
        holder: r.get(3)?,
        ip: r.get(4)?,
        variant: r.get(5)?,
        clock: r.get(6)?,
        colour: r.get(7)?,
        rating: r.get(8)?,
        created_ms: r.get(9)?,
        seen_ms: r.get(10)?,
        state: SeekState::Open,
        changed_ms: r.get(12)?,
        game: r.get(13)?,
        side: r.get(14)?,
        name: r.get(15)?,
        category: r.get(16)?,
        provisional: r.get(17)?,
        range: range(r.get(18)?, r.get(19)?),
    };
    Ok((row, r.get(1)?, r.get(11)?))
}

impl Seeks for Store {
    fn insert_seek(&self, seek: &SeekRow, limit: i64) -> StoreResult<bool> {
        let s = seek.clone();
        self.write_returning(move |conn| {
            if s.kind == SeekKind::Ticket {
                conn.execute(&numbered(WITHDRAW_TICKETS), params![s.holder, s.created_ms])?;
            }
            let by_address = s.holder.starts_with("a:").then_some(&s.ip);
            let open: i64 = conn.query_row(
                &numbered(COUNT_OPEN),
                params![s.kind.name(), s.holder, by_address],
                |r| r.get(0),
            )?;
            if open >= limit {
                return Ok(false);
            }
            conn.execute(
                &numbered(INSERT),
                params![
                    s.id,
                    s.kind.name(),
                    s.token_hash,
                    s.holder,
                    s.ip,
                    s.variant,
                    s.clock,
                    s.colour,
                    s.rating,
                    s.created_ms,
                    s.seen_ms,
                    s.changed_ms,
                    s.category,
                    s.provisional,
                    s.range.map(|r| r[0]),
                    s.range.map(|r| r[1])
                ],
            )?;
            Ok(true)
        })
    }

    fn seek(&self, id: &str) -> StoreResult<Option<SeekRow>> {
        let conn = self.reader();
        let found = conn
            .prepare_cached(&numbered(&seek_sql()))?
            .query_row([id], raw)
            .optional()?;
        found
            .map(|(row, kind, state)| parsed(row, &kind, &state))
            .transpose()
    }

    fn open_seeks(&self, kind: SeekKind, limit: i64) -> StoreResult<Vec<SeekRow>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&open_seeks_sql()))?;
        let rows = stmt.query_map(params![kind.name(), limit], raw)?;
        rows.map(|r| {
            let (row, kind, state) = r?;
            parsed(row, &kind, &state)
        })
        .collect()
    }

    fn claim_seeks(
        &self,
        claims: &[(String, String)],
        game: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let (claims, game) = (claims.to_vec(), game.to_string());
        let claimed = self.write_returning(move |conn| {
            for (id, side) in &claims {
                if conn.execute(&numbered(CLAIM), params![id, game, side, now_ms])? == 0 {
                    // Rolls the job's savepoint back: none of the rows is claimed.
                    return Err(StoreError::Stale);
                }
            }
            Ok(())
        });
        match claimed {
            Ok(()) => Ok(true),
            Err(StoreError::Stale) => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn settle(&self, id: &str, state: SeekState, now_ms: i64) -> StoreResult<()> {
        let id = id.to_string();
        self.write(move |conn| {
            conn.execute(&numbered(SETTLE), params![id, state.name(), now_ms])?;
            Ok(())
        })
    }

    fn withdraw(&self, id: &str, now_ms: i64) -> StoreResult<bool> {
        let id = id.to_string();
        self.write_returning(move |conn| {
            Ok(conn.execute(&numbered(WITHDRAW), params![id, now_ms])? == 1)
        })
    }

    fn touch(&self, holders: &[String], now_ms: i64) -> StoreResult<()> {
        let holders = holders.to_vec();
        self.write(move |conn| {
            let mut stmt = conn.prepare_cached(&numbered(TOUCH))?;
            for holder in &holders {
                stmt.execute(params![holder, now_ms])?;
            }
            Ok(())
        })
    }

    fn seen(&self, id: &str, now_ms: i64) -> StoreResult<()> {
        let id = id.to_string();
        self.write(move |conn| {
            conn.execute(&numbered(SEEN), params![id, now_ms])?;
            Ok(())
        })
    }

    fn sweep(&self, now_ms: i64, lifetimes: Lifetimes) -> StoreResult<Vec<String>> {
        self.write_returning(move |conn| {
            let mut changed = Vec::new();
            for (sql, age) in [
                (SWEEP_UNSEEN, lifetimes.unseen_ms),
                (SWEEP_CLAIMS, lifetimes.claim_ms),
            ] {
                let mut stmt = conn.prepare_cached(&numbered(sql))?;
                let ids = stmt.query_map(params![now_ms - age, now_ms], |r| r.get(0))?;
                for id in ids {
                    changed.push(id?);
                }
            }
            for sql in SWEEP_OLD {
                conn.execute(&numbered(sql), [now_ms - lifetimes.keep_ms])?;
            }
            Ok(changed)
        })
    }
}
