//! The SQLite backend's fair play (`store/fairplay.rs` has the SQL).

use rusqlite::{params, OptionalExtension};

use super::accounts::numbered;
use super::Store;
use crate::store::fairplay::*;
use crate::store::StoreResult;

/// A JSON array parameter's elements, as SQLite reads them.
const LIST: &str = "SELECT value FROM json_each($1)";

impl Fairplay for Store {
    fn note_footprint(
        &self,
        user: i64,
        trace: Trace,
        value: &str,
        now_ms: i64,
        forget_before_ms: i64,
    ) -> StoreResult<()> {
        let value = value.to_string();
        self.write(move |conn| {
            conn.prepare_cached(&numbered(NOTE))?.execute(params![
                user,
                trace.name(),
                value,
                now_ms
            ])?;
            conn.prepare_cached(&numbered(FORGET))?
                .execute(params![user, forget_before_ms])?;
            Ok(())
        })
    }

    fn sharing_with(&self, user: i64, trace: Trace, since_ms: i64) -> StoreResult<Vec<i64>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(SHARING_WITH))?;
        let rows = stmt.query_map(params![user, trace.name(), since_ms], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn sharing_pairs(&self, trace: Trace, since_ms: i64) -> StoreResult<Vec<(i64, i64, String)>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(SHARING_PAIRS))?;
        let rows = stmt.query_map(params![trace.name(), since_ms], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn footprints_of(&self, user: i64) -> StoreResult<Vec<Footprint>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(FOOTPRINTS_OF))?;
        let rows = stmt.query_map([user], |r| {
            Ok(Footprint {
                kind: r.get(0)?,
                value: r.get(1)?,
                first_ms: r.get(2)?,
                seen_ms: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn look_alike(&self, name: &str, except: Option<i64>) -> StoreResult<Option<String>> {
        let conn = self.reader();
        let found = conn
            .prepare_cached(&numbered(LOOK_ALIKE))?
            .query_row(params![name, except], |r| r.get(0))
            .optional()?;
        Ok(found)
    }

    fn still_good(
        &self,
        sessions: &[String],
        tokens: &[String],
        now_s: i64,
    ) -> StoreResult<(Vec<String>, Vec<String>)> {
        let conn = self.reader();
        let mut good_sessions = Vec::new();
        if !sessions.is_empty() {
            let mut stmt = conn.prepare_cached(&numbered(&good_sessions_sql(LIST)))?;
            let rows = stmt.query_map(params![json_list(sessions), now_s], |r| r.get(0))?;
            good_sessions = rows.collect::<Result<_, _>>()?;
        }
        let mut good_tokens = Vec::new();
        if !tokens.is_empty() {
            let mut stmt = conn.prepare_cached(&numbered(&good_tokens_sql(LIST)))?;
            let rows = stmt.query_map(params![json_list(tokens)], |r| r.get(0))?;
            good_tokens = rows.collect::<Result<_, _>>()?;
        }
        Ok((good_sessions, good_tokens))
    }

    fn bot_offline(&self, user: i64) -> StoreResult<()> {
        self.write(move |conn| {
            conn.execute(&numbered(BOT_OFFLINE), [user])?;
            Ok(())
        })
    }
}
