//! Mail's rows: the one-time codes a mail's link carries, and the addresses their owners
//! confirmed (their tables: `store/schema.rs`). Only a code's hash is stored; times are the
//! server's (`clock::TimeSource`), in milliseconds, so that tests advance them. An address is
//! confirmed while the account's email is still the one confirmed: a new address starts
//! unconfirmed without anything to forget.

use crate::store::sql::args;
use crate::store::{stored_names, transaction, Store, StoreResult};

/// What a code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A new password (`/#/reset?code=…`).
    Reset,
    /// An email address confirmed (`/#/confirm-email?code=…`).
    Confirm,
}

stored_names!(Purpose {
    Reset = "reset",
    Confirm = "confirm",
});

/// How long a used or expired code is kept before it is deleted (a day).
const KEEP_MS: i64 = 24 * 3600 * 1000;

const INSERT_CODE: &str = "INSERT INTO mail_codes (code_hash, purpose, user_id, email, expires_ms)
     VALUES ($1, $2, $3, $4, $5)";

const DELETE_OLD_CODES: &str = "DELETE FROM mail_codes WHERE expires_ms < $1";

/// Code `$1` of purpose `$2`, if neither used nor expired at `$3`: its account and address.
const VALID_CODE: &str = "SELECT user_id, email FROM mail_codes
     WHERE code_hash = $1 AND purpose = $2 AND used_ms IS NULL AND expires_ms > $3";

/// Uses code `$1` of purpose `$2` at `$3`, once.
const USE_CODE: &str = "UPDATE mail_codes SET used_ms = $3
     WHERE code_hash = $1 AND purpose = $2 AND used_ms IS NULL AND expires_ms > $3
     RETURNING user_id, email";

/// Account `$1`'s other codes of purpose `$2` used up at `$3` (a reset ends the others).
const USE_OTHERS: &str = "UPDATE mail_codes SET used_ms = $3
     WHERE user_id = $1 AND purpose = $2 AND used_ms IS NULL";

const CONFIRM: &str =
    "INSERT INTO mail_confirmed (user_id, email, confirmed_ms) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET email = excluded.email,
        confirmed_ms = excluded.confirmed_ms";

/// Account `$1`'s email, if confirmed.
const CONFIRMED_EMAIL: &str = "SELECT u.email FROM users u
     JOIN mail_confirmed m ON m.user_id = u.id AND m.email = u.email WHERE u.id = $1";

/// The accounts whose confirmed email is `$1` (any case), at most a few.
const CONFIRMED_OWNERS: &str = "SELECT u.id FROM users u
     JOIN mail_confirmed m ON m.user_id = u.id AND m.email = u.email
     WHERE lower(u.email) = lower($1) ORDER BY u.id LIMIT 5";

/// What the store keeps of mail.
impl Store {
    /// Keeps a new code's hash for account `user` and address `email` until `expires_ms`
    /// (and forgets the codes expired a day before `now_ms`).
    pub async fn insert_mail_code(
        &self,
        code_hash: &str,
        purpose: Purpose,
        (user, email): (i64, &str),
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        let row = args![code_hash, purpose.name(), user, email, expires_ms];
        transaction!(self.write, |c| {
            c.execute(DELETE_OLD_CODES, &args![now_ms - KEEP_MS])
                .await?;
            c.execute(INSERT_CODE, &row).await?;
            Ok(())
        })
        .await
    }

    /// The account and address of a code neither used nor expired at `now_ms`.
    pub async fn valid_mail_code(
        &self,
        code_hash: &str,
        purpose: Purpose,
        now_ms: i64,
    ) -> StoreResult<Option<(i64, String)>> {
        let sql = VALID_CODE;
        self.select_one(sql, args![code_hash, purpose.name(), now_ms])
            .await
    }

    /// Uses a code once: its account and address, or `None` if it was used or has expired.
    /// Every other unused code of that account and purpose is used up with it.
    pub async fn use_mail_code(
        &self,
        code_hash: &str,
        purpose: Purpose,
        now_ms: i64,
    ) -> StoreResult<Option<(i64, String)>> {
        let used = args![code_hash, purpose.name(), now_ms];
        transaction!(self.write, |c| {
            let found: Option<(i64, String)> = c.row(USE_CODE, &used).await?;
            if let Some((user, _)) = &found {
                let others = args![*user, purpose.name(), now_ms];
                c.execute(USE_OTHERS, &others).await?;
            }
            Ok(found)
        })
        .await
    }

    /// Address `email` is account `user`'s, confirmed.
    pub async fn confirm_email(&self, user: i64, email: &str, now_ms: i64) -> StoreResult<()> {
        self.run(CONFIRM, args![user, email, now_ms])
            .await
            .map(drop)
    }

    /// Account `user`'s email, if its owner confirmed it.
    pub async fn confirmed_email(&self, user: i64) -> StoreResult<Option<String>> {
        self.select_one(CONFIRMED_EMAIL, args![user]).await
    }

    /// The accounts whose confirmed email is `email`, in any case.
    pub async fn confirmed_owners(&self, email: &str) -> StoreResult<Vec<i64>> {
        self.select(CONFIRMED_OWNERS, args![email]).await
    }
}
