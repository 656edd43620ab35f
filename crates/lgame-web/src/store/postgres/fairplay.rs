//! The PostgreSQL backend's fair play (`store/fairplay.rs` has the SQL).

use super::accounts::Values;
use super::Store;
use crate::store::fairplay::*;
use crate::store::StoreResult;

/// A JSON array parameter's elements, as PostgreSQL reads them.
const LIST: &str = "SELECT json_array_elements_text(CAST(CAST($1 AS TEXT) AS json))";

impl Fairplay for Store {
    fn note_footprint(
        &self,
        user: i64,
        trace: Trace,
        value: &str,
        now_ms: i64,
        forget_before_ms: i64,
    ) -> StoreResult<()> {
        let values: Values = vec![
            Box::new(user),
            Box::new(trace.name()),
            Box::new(value.to_string()),
            Box::new(now_ms),
        ];
        self.rows(NOTE.into(), values)?;
        let values: Values = vec![Box::new(user), Box::new(forget_before_ms)];
        self.rows(FORGET.into(), values).map(drop)
    }

    fn sharing_with(&self, user: i64, trace: Trace, since_ms: i64) -> StoreResult<Vec<i64>> {
        let values: Values = vec![Box::new(user), Box::new(trace.name()), Box::new(since_ms)];
        let rows = self.rows(SHARING_WITH.into(), values)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn sharing_pairs(&self, trace: Trace, since_ms: i64) -> StoreResult<Vec<(i64, i64, String)>> {
        let values: Values = vec![Box::new(trace.name()), Box::new(since_ms)];
        let rows = self.rows(SHARING_PAIRS.into(), values)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    fn footprints_of(&self, user: i64) -> StoreResult<Vec<Footprint>> {
        let rows = self.rows(FOOTPRINTS_OF.into(), vec![Box::new(user)])?;
        Ok(rows
            .iter()
            .map(|r| Footprint {
                kind: r.get(0),
                value: r.get(1),
                first_ms: r.get(2),
                seen_ms: r.get(3),
            })
            .collect())
    }

    fn look_alike(&self, name: &str, except: Option<i64>) -> StoreResult<Option<String>> {
        let values: Values = vec![Box::new(name.to_string()), Box::new(except)];
        let rows = self.rows(LOOK_ALIKE.into(), values)?;
        Ok(rows.first().map(|r| r.get(0)))
    }

    fn still_good(
        &self,
        sessions: &[String],
        tokens: &[String],
        now_s: i64,
    ) -> StoreResult<(Vec<String>, Vec<String>)> {
        let mut good_sessions = Vec::new();
        if !sessions.is_empty() {
            let values: Values = vec![Box::new(json_list(sessions)), Box::new(now_s)];
            let rows = self.rows(good_sessions_sql(LIST), values)?;
            good_sessions = rows.iter().map(|r| r.get(0)).collect();
        }
        let mut good_tokens = Vec::new();
        if !tokens.is_empty() {
            let values: Values = vec![Box::new(json_list(tokens))];
            let rows = self.rows(good_tokens_sql(LIST), values)?;
            good_tokens = rows.iter().map(|r| r.get(0)).collect();
        }
        Ok((good_sessions, good_tokens))
    }

    fn bot_offline(&self, user: i64) -> StoreResult<()> {
        self.rows(BOT_OFFLINE.into(), vec![Box::new(user)])
            .map(drop)
    }
}
