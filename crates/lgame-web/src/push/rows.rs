//! Web Push's rows: the server's VAPID key, made once, and the accounts' subscriptions, with
//! their queries over the store (their tables: `store/schema.rs`).

use crate::store::sql::{args, FromRow, Row};
use crate::store::{transaction, Store, StoreResult};

/// A browser's push subscription, held by an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionRow {
    /// The push service's URL for this browser: the subscription's key.
    pub endpoint: String,
    pub user_id: i64,
    /// The browser's P-256 public key and its authentication secret, base64url.
    pub p256dh: String,
    pub auth: String,
}

impl FromRow for SubscriptionRow {
    fn from_row(r: &Row) -> StoreResult<SubscriptionRow> {
        Ok(SubscriptionRow {
            endpoint: r.get(0)?,
            user_id: r.get(1)?,
            p256dh: r.get(2)?,
            auth: r.get(3)?,
        })
    }
}

/// Keeps key `$1` unless there is one already (two instances starting at once keep one).
const KEEP_KEY: &str = "INSERT INTO push_keys (id, private_key) VALUES (1, $1)
     ON CONFLICT (id) DO NOTHING";
const KEY: &str = "SELECT private_key FROM push_keys WHERE id = 1";

/// A browser subscribes again (a new key, or another account signed in on it): one row an
/// endpoint, the latest holder's.
const SUBSCRIBE: &str = "INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth,
        created_ms) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id,
        p256dh = excluded.p256dh, auth = excluded.auth, created_ms = excluded.created_ms";
/// Deletes account `$1`'s subscriptions but `$3`, just kept, and its `$2` newest others.
const KEEP_NEWEST: &str = "DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint <> $3
     AND endpoint NOT IN (SELECT endpoint FROM push_subscriptions
        WHERE user_id = $1 AND endpoint <> $3 ORDER BY created_ms DESC, endpoint LIMIT $2)";
const UNSUBSCRIBE: &str = "DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2";
/// A subscription the push service says is gone.
const GONE: &str = "DELETE FROM push_subscriptions WHERE endpoint = $1";
const OF_USER: &str = "SELECT endpoint, user_id, p256dh, auth FROM push_subscriptions
     WHERE user_id = $1 ORDER BY created_ms";

/// What the store keeps of Web Push.
impl Store {
    /// The server's VAPID private key: `made` kept if none was, else the one kept.
    pub async fn push_key(&self, made: &str) -> StoreResult<String> {
        self.run(KEEP_KEY, args![made]).await?;
        let kept: Option<String> = self.select_one(KEY, args![]).await?;
        Ok(kept.unwrap_or_else(|| made.to_string()))
    }

    /// Keeps a browser's subscription for its account, which keeps its newest `most` (a
    /// notice is posted to each: an account cannot make the server post to endless URLs).
    pub async fn subscribe_push(
        &self,
        row: &SubscriptionRow,
        most: usize,
        now_ms: i64,
    ) -> StoreResult<()> {
        let r = row.clone();
        transaction!(self.write, |c| {
            let values = args![&r.endpoint, r.user_id, &r.p256dh, &r.auth, now_ms];
            c.execute(SUBSCRIBE, &values).await?;
            let others = most.saturating_sub(1) as i64;
            c.execute(KEEP_NEWEST, &args![r.user_id, others, &r.endpoint])
                .await?;
            Ok(())
        })
        .await
    }

    /// Account `user_id`'s subscription at `endpoint` ended: `false` if it had none there.
    pub async fn unsubscribe_push(&self, endpoint: &str, user_id: i64) -> StoreResult<bool> {
        Ok(self.run(UNSUBSCRIBE, args![endpoint, user_id]).await? > 0)
    }

    /// A subscription the push service no longer knows.
    pub async fn push_gone(&self, endpoint: &str) -> StoreResult<()> {
        self.run(GONE, args![endpoint]).await.map(drop)
    }

    pub async fn push_subscriptions(&self, user_id: i64) -> StoreResult<Vec<SubscriptionRow>> {
        self.select(OF_USER, args![user_id]).await
    }
}
