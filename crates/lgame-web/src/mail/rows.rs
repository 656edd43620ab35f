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

/// Correspondence game `$1` waits for account `$2`'s move since `$3`: a new turn to mail
/// about, unless it waited for that account already (or a later turn was noted first: the
/// notes are written in the background, a quick reply's may overtake).
const MOVE_WAITS: &str = "INSERT INTO mail_moves (game_id, user_id, since_ms) VALUES ($1, $2, $3)
     ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id,
        since_ms = excluded.since_ms, mailed_ms = NULL
     WHERE mail_moves.user_id <> excluded.user_id AND mail_moves.since_ms <= excluded.since_ms";

const NO_MOVE_WAITS: &str = "DELETE FROM mail_moves WHERE game_id = $1";

/// The moves not mailed about yet of accounts that may be mailed: a confirmed address, "your
/// move" mail on, and none mailed since `$1` (a day ago). Oldest first, by account.
const MOVES_DUE: &str = "SELECT w.user_id, w.game_id, u.email FROM mail_moves w
     JOIN users u ON u.id = w.user_id
     JOIN mail_confirmed m ON m.user_id = u.id AND m.email = u.email
     LEFT JOIN mail_prefs p ON p.user_id = w.user_id
     WHERE w.mailed_ms IS NULL AND NOT u.disabled AND p.moves_off_ms IS NULL
        AND (p.last_mailed_ms IS NULL OR p.last_mailed_ms <= $1)
     ORDER BY w.user_id, w.since_ms, w.game_id LIMIT 500";

/// Account `$1` is mailed at `$3` if "your move" mail is on and it was not mailed since `$4`
/// (`$2`: its unsubscribe token, if it has none yet): its token, or nothing if it may not.
const CLAIM_MAIL: &str = "INSERT INTO mail_prefs (user_id, unsubscribe, last_mailed_ms)
     VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET last_mailed_ms = excluded.last_mailed_ms
     WHERE mail_prefs.moves_off_ms IS NULL
        AND (mail_prefs.last_mailed_ms IS NULL OR mail_prefs.last_mailed_ms <= $4)
     RETURNING unsubscribe";

const MOVE_MAILED: &str = "UPDATE mail_moves SET mailed_ms = $3
     WHERE game_id = $1 AND user_id = $2 AND mailed_ms IS NULL";

/// Turns "your move" mail off (at `$2`) for the account whose unsubscribe token is `$1`.
const UNSUBSCRIBE: &str =
    "UPDATE mail_prefs SET moves_off_ms = COALESCE(moves_off_ms, $2) WHERE unsubscribe = $1
     RETURNING user_id";

/// Account `$1`'s choice: "your move" mail off since `$3` (null: on).
const SET_MOVES_OFF: &str = "INSERT INTO mail_prefs (user_id, unsubscribe, moves_off_ms)
     VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET moves_off_ms = excluded.moves_off_ms";

const MOVES_OFF: &str = "SELECT moves_off_ms FROM mail_prefs WHERE user_id = $1";

/// What the store keeps of correspondence's "your move" mail.
impl Store {
    /// Game `game` waits for account `user`'s move since `now_ms`, or (`None`) for nobody's.
    pub async fn move_waits(&self, game: &str, user: Option<i64>, now_ms: i64) -> StoreResult<()> {
        let done = match user {
            Some(user) => self.run(MOVE_WAITS, args![game, user, now_ms]).await,
            None => self.run(NO_MOVE_WAITS, args![game]).await,
        };
        done.map(drop)
    }

    /// The moves to mail about (account, game, address) of accounts not mailed since
    /// `since_ms`.
    pub async fn moves_due(&self, since_ms: i64) -> StoreResult<Vec<(i64, String, String)>> {
        self.select(MOVES_DUE, args![since_ms]).await
    }

    /// Takes account `user`'s mail about `games` at `now_ms`, once: its unsubscribe token
    /// (`token` if it had none), or `None` if its mail is off or it was mailed since
    /// `since_ms` (by another instance).
    pub async fn claim_moves_mail(
        &self,
        (user, token): (i64, &str),
        games: Vec<String>,
        now_ms: i64,
        since_ms: i64,
    ) -> StoreResult<Option<String>> {
        let claim = args![user, token, now_ms, since_ms];
        transaction!(self.write, |c| {
            let token: Option<String> = c.row(CLAIM_MAIL, &claim).await?;
            if token.is_some() {
                for game in &games {
                    c.execute(MOVE_MAILED, &args![game, user, now_ms]).await?;
                }
            }
            Ok(token)
        })
        .await
    }

    /// Turns "your move" mail off for the owner of unsubscribe token `token`: whether one has
    /// it.
    pub async fn unsubscribe(&self, token: &str, now_ms: i64) -> StoreResult<bool> {
        let off = args![token, now_ms];
        transaction!(self.write, |c| {
            let owner: Option<i64> = c.row(UNSUBSCRIBE, &off).await?;
            Ok(owner.is_some())
        })
        .await
    }

    /// Whether account `user` is mailed when it is its move (it is unless it said no).
    pub async fn moves_mailed(&self, user: i64) -> StoreResult<bool> {
        let off: Option<Option<i64>> = self.select_one(MOVES_OFF, args![user]).await?;
        Ok(off.flatten().is_none())
    }

    /// Account `user`'s choice of "your move" mail (`token`: its unsubscribe token if it has
    /// none yet).
    pub async fn mail_moves(
        &self,
        (user, token): (i64, &str),
        on: bool,
        now_ms: i64,
    ) -> StoreResult<()> {
        let off = (!on).then_some(now_ms);
        self.run(SET_MOVES_OFF, args![user, token, off])
            .await
            .map(drop)
    }
}
