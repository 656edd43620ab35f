//! What fair play asks of the accounts' own rows (`fairplay.rs`): each account's username
//! folded (`users.username_fold`, the form names that look alike share) and a name's
//! look-alike, and which of the sessions and tokens that hold streams open are still good;
//! and the footprints' table (its rows and queries are `fairplay/rows.rs`'). The SQL both
//! backends share is here (parameters written `$N`, as in `store/accounts.rs`).

use super::sql::{args, Dialect};
use super::{Store, StoreResult};

/// A username folded, in SQL: ASCII lower case, `_`, `-` and `.` dropped, and the letters
/// and digits people confuse made one (0 and o, 1, i and l, 5 and s, 8 and b, rn and m, vv
/// and w). `credentials::username_fold` does the same in Rust (a test keeps them equal on
/// both backends).
macro_rules! fold_sql {
    ($e:literal) => {
        concat!(
            "replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(\
             lower(",
            $e,
            "), '_', ''), '-', ''), '.', ''), '0', 'o'), '1', 'l'), 'i', 'l'), '5', 's'), \
             '8', 'b'), 'rn', 'm'), 'vv', 'w')"
        )
    };
}
pub(super) use fold_sql;

/// The schema, the same on both backends: SQLite's version 11, PostgreSQL's version 8.
pub(super) const SCHEMA: &str = concat!(
    "CREATE TABLE footprints (
        user_id BIGINT NOT NULL REFERENCES users(id),
        kind TEXT NOT NULL,            -- browser (its anonymous holder, a:HASH) or address
        value TEXT NOT NULL,
        first_ms BIGINT NOT NULL,      -- Unix milliseconds: first and last used
        seen_ms BIGINT NOT NULL,
        PRIMARY KEY (user_id, kind, value)
    );
    CREATE INDEX footprints_by_value ON footprints (kind, value, seen_ms);
    ALTER TABLE users ADD COLUMN username_fold TEXT;
    UPDATE users SET username_fold = ",
    fold_sql!("username"),
    ";
    CREATE INDEX users_by_fold ON users (username_fold);"
);

const LOOK_ALIKE: &str = concat!(
    "SELECT username FROM users WHERE username_fold = ",
    fold_sql!("CAST($1 AS TEXT)"),
    " AND id <> COALESCE(CAST($2 AS BIGINT), -1) ORDER BY id LIMIT 1"
);

const BOT_OFFLINE: &str = "UPDATE users SET seen_ms = NULL WHERE id = $1";

/// The sessions still good among those of the JSON array `$1` (`$2` now, in Unix seconds):
/// `{list}` is the backend's way of reading the array's elements.
fn good_sessions_sql(list: &str) -> String {
    format!(
        "SELECT s.id_hash FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.id_hash IN ({list}) AND s.expires > $2 AND NOT u.disabled"
    )
}

/// The tokens still good among those of the JSON array `$1`.
fn good_tokens_sql(list: &str) -> String {
    format!(
        "SELECT t.hash FROM api_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.hash IN ({list}) AND NOT u.disabled"
    )
}

/// A list of hashes as one JSON parameter.
fn json_list(items: &[String]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".into())
}

/// A JSON array parameter's elements, as each database reads them.
fn list(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => "SELECT value FROM json_each($1)",
        Dialect::Postgres => "SELECT json_array_elements_text(CAST(CAST($1 AS TEXT) AS json))",
    }
}

/// What the store keeps for fair play.
impl Store {
    /// The account (other than `except`) whose username, folded, is `name`'s folded.
    pub async fn look_alike(&self, name: &str, except: Option<i64>) -> StoreResult<Option<String>> {
        self.select_one(LOOK_ALIKE, args![name, except]).await
    }

    /// Of these sessions (their ids' hashes) and API tokens (their hashes), those still
    /// good: the session not ended nor expired at `now_s`, the token not revoked, the
    /// account not disabled.
    pub async fn still_good(
        &self,
        sessions: &[String],
        tokens: &[String],
        now_s: i64,
    ) -> StoreResult<(Vec<String>, Vec<String>)> {
        let (sessions, tokens) = (sessions.to_vec(), tokens.to_vec());
        transaction!(self.read, |c| {
            let list = list(c.dialect());
            let mut good_sessions = Vec::new();
            if !sessions.is_empty() {
                let sql = good_sessions_sql(list);
                good_sessions = c.rows(&sql, &args![json_list(&sessions), now_s]).await?;
            }
            let mut good_tokens = Vec::new();
            if !tokens.is_empty() {
                good_tokens = c
                    .rows(&good_tokens_sql(list), &args![json_list(&tokens)])
                    .await?;
            }
            Ok((good_sessions, good_tokens))
        })
        .await
    }

    /// A bot is offline (its token revoked): its stream no longer counts as seen.
    pub async fn bot_offline(&self, user: i64) -> StoreResult<()> {
        self.run(BOT_OFFLINE, args![user]).await.map(drop)
    }
}

/// Fair play's rows, the same on SQLite and PostgreSQL: names folded by SQL as
/// `credentials::username_fold` folds them, footprints shared and forgotten, the sessions and
/// tokens still good.
#[cfg(test)]
mod both_backends {
    use lgame_test_support::backends::Backend as Db;
    use lgame_test_support::{on_both_backends, TempDir};

    use crate::credentials::{username_fold, username_key};
    use crate::database::Database;
    use crate::fairplay::Trace;
    use crate::store::*;

    fn fair_play_rows_are_kept_and_asked_alike(db: Db) {
        let dir = TempDir::new("store-fairplay");
        let database: Database = db.database(&dir).parse().unwrap();
        let store = database.open(Synchronous::Normal).unwrap();
        let names = [
            "Alice_B", "alice-b", "a1ice.b", "Mallory", "rnallory", "b0b8", "bobb", "bo_bb",
            "perfect", "perfekt", "vvill", "will", "I_l1",
        ];
        let mut ids = Vec::new();
        for name in names {
            let user = NewUser {
                username: name.into(),
                key: format!("{}{}", username_key(name), ids.len()),
                password_hash: "x".into(),
                email: None,
            };
            ids.push(wait(store.create_user(&user, 0)).unwrap().unwrap());
        }
        // The SQL's folding is the Rust one: a name's look-alike is the first account whose
        // name folds alike (itself excepted).
        for (i, name) in names.iter().enumerate() {
            let expected = names
                .iter()
                .enumerate()
                .find(|(j, other)| *j != i && username_fold(other) == username_fold(name))
                .map(|(_, other)| other.to_string());
            assert_eq!(
                wait(store.look_alike(name, Some(ids[i]))).unwrap(),
                expected,
                "{name}"
            );
            let shouted = name.to_uppercase();
            let found = wait(store.look_alike(&shouted, None)).unwrap();
            assert!(found.is_some(), "{shouted}");
        }
        assert_eq!(
            wait(store.look_alike("nobody-like-it", None)).unwrap(),
            None
        );

        // Footprints: a browser shared by two accounts, an address by three; the old ones
        // forgotten.
        let day = 24 * 3600 * 1000;
        let (a, b, c) = (ids[0], ids[1], ids[2]);
        let note = |user, trace, value: &str, at| {
            wait(store.note_footprint(user, trace, value, at, at - 30 * day)).unwrap()
        };
        note(a, Trace::Browser, "a:one", 100 * day);
        note(b, Trace::Browser, "a:one", 100 * day);
        note(c, Trace::Browser, "a:two", 100 * day);
        for user in [a, b, c] {
            note(user, Trace::Address, "10.0.0.1", 100 * day);
        }
        assert_eq!(
            wait(store.sharing_with(a, Trace::Browser, 90 * day)).unwrap(),
            [b]
        );
        assert_eq!(
            wait(store.sharing_with(c, Trace::Browser, 90 * day)).unwrap(),
            Vec::<i64>::new()
        );
        assert_eq!(
            wait(store.sharing_with(a, Trace::Address, 90 * day)).unwrap(),
            [b, c]
        );
        // Used long ago: no longer shared.
        assert!(wait(store.sharing_with(a, Trace::Browser, 101 * day))
            .unwrap()
            .is_empty());
        let pairs = wait(store.sharing_pairs(Trace::Address, 90 * day)).unwrap();
        assert_eq!(pairs.len(), 3, "{pairs:?}");
        assert!(pairs.iter().all(|(x, y, v)| x < y && v == "10.0.0.1"));
        note(a, Trace::Browser, "a:three", 200 * day);
        let kept = wait(store.footprints_of(a)).unwrap();
        assert_eq!(kept.len(), 1, "the month-old ones forgotten: {kept:?}");
        assert_eq!(
            (kept[0].kind, kept[0].value.as_str()),
            (Trace::Browser, "a:three")
        );
        // Closing an account erases its footprints.
        wait(store.delete_user(b)).unwrap();
        assert!(wait(store.footprints_of(b)).unwrap().is_empty());

        // The sessions and tokens still good.
        let now = 1_800_000_000;
        let session = |id_hash: &str, user, expires| {
            let s = Session {
                user,
                created: now,
                used: now,
                expires,
                device: None,
                address: None,
            };
            wait(store.insert_session(id_hash, &s)).unwrap();
        };
        session("s-live", a, now + 100);
        session("s-expired", a, now - 1);
        session("s-disabled", c, now + 100);
        wait(store.change_user(c, &UserChange::Disabled(true))).unwrap();
        let token = TokenRow {
            id: "t1".into(),
            user_id: a,
            hash: "t-live".into(),
            description: None,
            created_ms: 0,
        };
        wait(store.insert_token(&token)).unwrap();
        let asked: Vec<String> = ["s-live", "s-expired", "s-disabled", "s-gone"]
            .map(String::from)
            .into();
        let tokens: Vec<String> = ["t-live", "t-gone"].map(String::from).into();
        let (sessions, tokens) = wait(store.still_good(&asked, &tokens, now)).unwrap();
        assert_eq!(
            (sessions, tokens),
            (vec!["s-live".to_string()], vec!["t-live".to_string()])
        );
        assert_eq!(
            wait(store.still_good(&[], &[], now)).unwrap(),
            (vec![], vec![])
        );
    }

    on_both_backends!(fair_play_rows_are_kept_and_asked_alike);
}
