//! Fair play's footprints (`fairplay.rs`): the browsers and addresses each account has used,
//! and the questions asked of them: the accounts that shared a browser with one, the pairs
//! that shared an address. Their queries over the store (their table: `store/fairplay.rs`'s
//! schema), the same on both backends.

use crate::store::sql::{args, FromRow, Row};
use crate::store::{stored_names, transaction, Store, StoreResult};

/// What a footprint is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trace {
    /// A browser, by its anonymous identity's holder (`a:HASH`, never the cookie).
    Browser,
    /// A client address.
    Address,
}

stored_names!(Trace {
    Browser = "browser",
    Address = "address",
});

/// A browser or an address an account has used, first and last (Unix milliseconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footprint {
    pub kind: Trace,
    pub value: String,
    pub first_ms: i64,
    pub seen_ms: i64,
}

const NOTE: &str = "INSERT INTO footprints (user_id, kind, value, first_ms, seen_ms)
     VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (user_id, kind, value) DO UPDATE SET seen_ms = excluded.seen_ms";

const FORGET: &str = "DELETE FROM footprints WHERE user_id = $1 AND seen_ms < $2";

const SHARING_WITH: &str = "SELECT DISTINCT b.user_id FROM footprints a
     JOIN footprints b ON b.kind = a.kind AND b.value = a.value AND b.user_id <> a.user_id
     WHERE a.user_id = $1 AND a.kind = $2 AND a.seen_ms >= $3 AND b.seen_ms >= $3
     ORDER BY b.user_id";

const SHARING_PAIRS: &str = "SELECT a.user_id, b.user_id, a.value FROM footprints a
     JOIN footprints b ON b.kind = a.kind AND b.value = a.value AND b.user_id > a.user_id
     WHERE a.kind = $1 AND a.seen_ms >= $2 AND b.seen_ms >= $2
     ORDER BY a.user_id, b.user_id, a.value";

const FOOTPRINTS_OF: &str = "SELECT kind, value, first_ms, seen_ms FROM footprints
     WHERE user_id = $1 ORDER BY seen_ms DESC, kind, value";

impl FromRow for Footprint {
    fn from_row(r: &Row) -> StoreResult<Footprint> {
        Ok(Footprint {
            kind: r.get(0)?,
            value: r.get(1)?,
            first_ms: r.get(2)?,
            seen_ms: r.get(3)?,
        })
    }
}

/// What the store keeps of the footprints.
impl Store {
    /// Account `user` used `value` (a browser or an address) at `now_ms`; its footprints
    /// older than `forget_before_ms` are forgotten.
    pub async fn note_footprint(
        &self,
        user: i64,
        trace: Trace,
        value: &str,
        now_ms: i64,
        forget_before_ms: i64,
    ) -> StoreResult<()> {
        let value = value.to_string();
        transaction!(self.write, |c| {
            c.execute(NOTE, &args![user, trace.name(), &value, now_ms])
                .await?;
            c.execute(FORGET, &args![user, forget_before_ms]).await?;
            Ok(())
        })
        .await
    }

    /// The other accounts that used one of `user`'s browsers (or addresses), both since
    /// `since_ms`.
    pub async fn sharing_with(
        &self,
        user: i64,
        trace: Trace,
        since_ms: i64,
    ) -> StoreResult<Vec<i64>> {
        self.select(SHARING_WITH, args![user, trace.name(), since_ms])
            .await
    }

    /// Every pair of accounts (the smaller id first) that used one browser (or address)
    /// since `since_ms`, with what they shared.
    pub async fn sharing_pairs(
        &self,
        trace: Trace,
        since_ms: i64,
    ) -> StoreResult<Vec<(i64, i64, String)>> {
        self.select(SHARING_PAIRS, args![trace.name(), since_ms])
            .await
    }

    /// An account's footprints, newest first.
    pub async fn footprints_of(&self, user: i64) -> StoreResult<Vec<Footprint>> {
        self.select(FOOTPRINTS_OF, args![user]).await
    }
}
