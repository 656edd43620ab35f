//! The SQLite backend's accounts, sessions and seats (`store/accounts.rs` has the SQL).

use lgame::Color;
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::Store;
use crate::store::accounts::*;
use crate::store::StoreResult;

/// A shared statement in SQLite's numbering: `$N` is `?N` (SQLite numbers `$N` by first
/// appearance, not by its digits).
pub(super) fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        let digit_follows = chars.peek().is_some_and(char::is_ascii_digit);
        out.push(if c == '$' && digit_follows { '?' } else { c });
    }
    out
}

pub(super) fn user(r: &Row<'_>, first: usize) -> rusqlite::Result<User> {
    Ok(User {
        id: r.get(first)?,
        username: r.get(first + 1)?,
        password_hash: r.get(first + 2)?,
        email: r.get(first + 3)?,
        created: r.get(first + 4)?,
        disabled: r.get(first + 5)?,
        bot: r.get(first + 6)?,
    })
}

fn session(r: &Row<'_>) -> rusqlite::Result<Session> {
    Ok(Session {
        user: r.get(0)?,
        created: r.get(1)?,
        used: r.get(2)?,
        expires: r.get(3)?,
        device: r.get(4)?,
        address: r.get(5)?,
    })
}

impl Store {
    /// Runs `job` in the writer's transaction and waits for its answer.
    pub(super) fn write_returning<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let (answer, outcome) = std::sync::mpsc::channel();
        self.write(move |conn| {
            let _ = answer.send(job(conn)?);
            Ok(())
        })?;
        outcome.recv().map_err(|_| crate::store::Pending::stopped())
    }

    /// Updates a seat and answers its new version, if a row changed.
    fn update_seat(&self, sql: String, values: Vec<Option<String>>) -> StoreResult<bool> {
        self.write_returning(move |conn| {
            let version: Option<i64> = conn
                .query_row(&numbered(&sql), rusqlite::params_from_iter(values), |r| {
                    r.get(0)
                })
                .optional()?;
            Ok(version.is_some())
        })
    }
}

impl Accounts for Store {
    fn create_user(&self, new: &NewUser, now_s: i64) -> StoreResult<Option<i64>> {
        let new = new.clone();
        self.write_returning(move |conn| {
            Ok(conn
                .query_row(
                    &numbered(INSERT_USER),
                    params![new.username, new.key, new.password_hash, new.email, now_s],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    fn user(&self, by: UserBy<'_>) -> StoreResult<Option<User>> {
        let conn = self.reader();
        let found = match by {
            UserBy::Id(id) => conn.query_row(&numbered(USER_BY_ID), [id], |r| user(r, 0)),
            UserBy::Key(key) => conn.query_row(&numbered(USER_BY_KEY), [key], |r| user(r, 0)),
        };
        Ok(found.optional()?)
    }

    fn newest_users(&self, limit: i64) -> StoreResult<Vec<User>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(NEWEST_USERS))?;
        let users = stmt.query_map([limit], |r| user(r, 0))?;
        Ok(users.collect::<Result<_, _>>()?)
    }

    fn change_user(&self, id: i64, change: &UserChange) -> StoreResult<bool> {
        let change = change.clone();
        self.write_returning(move |conn| {
            let sql = numbered(change_sql(&change));
            let changed = match &change {
                UserChange::Password(hash) => conn.execute(&sql, params![id, hash])?,
                UserChange::Disabled(disabled) => conn.execute(&sql, params![id, disabled])?,
                UserChange::Rename { username, key } => {
                    conn.execute(&sql, params![id, username, key])?
                }
            };
            Ok(changed == 1)
        })
    }

    fn delete_user(&self, id: i64) -> StoreResult<()> {
        self.write(move |conn| {
            for sql in DELETE_USER {
                conn.execute(&numbered(sql), [id])?;
            }
            Ok(())
        })?;
        // Out of the log at once: the erased rows' old pages do not wait there for the next
        // checkpoint (secure_delete zeroes them in the file).
        self.reader()
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    fn insert_session(&self, id_hash: &str, s: &Session) -> StoreResult<()> {
        let (id_hash, s) = (id_hash.to_string(), s.clone());
        self.write(move |conn| {
            conn.execute(
                &numbered(INSERT_SESSION),
                params![id_hash, s.user, s.created, s.used, s.expires, s.device, s.address],
            )?;
            Ok(())
        })
    }

    fn session(&self, id_hash: &str) -> StoreResult<Option<(Session, User)>> {
        let conn = self.reader();
        let found = conn
            .prepare_cached(&numbered(SESSION))?
            .query_row([id_hash], |r| Ok((session(r)?, user(r, SESSION_USER_AT)?)))
            .optional()?;
        Ok(found)
    }

    fn renew_session(&self, id_hash: &str, used: i64, expires: i64) -> StoreResult<()> {
        let id_hash = id_hash.to_string();
        self.write(move |conn| {
            conn.execute(&numbered(RENEW_SESSION), params![id_hash, used, expires])?;
            Ok(())
        })
    }

    fn end_session(&self, id_hash: &str) -> StoreResult<()> {
        let id_hash = id_hash.to_string();
        self.write(move |conn| {
            conn.execute(&numbered(END_SESSION), [id_hash])?;
            Ok(())
        })
    }

    fn end_sessions(&self, user: i64, keep: Option<&str>) -> StoreResult<u64> {
        let keep = keep.unwrap_or("").to_string();
        self.write_returning(move |conn| {
            Ok(conn.execute(&numbered(END_SESSIONS), params![user, keep])? as u64)
        })
    }

    fn end_session_of(&self, user: i64, id: &str) -> StoreResult<Option<String>> {
        let id = id.to_string();
        self.write_returning(move |conn| {
            let ended = conn
                .prepare_cached(&numbered(END_SESSION_OF))?
                .query_row(params![user, id], |r| r.get(0))
                .optional()?;
            Ok(ended)
        })
    }

    fn sessions_of(&self, user: i64) -> StoreResult<Vec<ListedSession>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(SESSIONS_OF))?;
        let sessions = stmt.query_map([user], |r| {
            Ok(ListedSession {
                id: r.get(6)?,
                session: session(r)?,
            })
        })?;
        Ok(sessions.collect::<Result<_, _>>()?)
    }

    fn take_seat(
        &self,
        id: &str,
        side: Color,
        holder: &str,
        invite: Option<&str>,
    ) -> StoreResult<bool> {
        let mut values = vec![Some(id.to_string()), Some(holder.to_string())];
        if let Some(invite) = invite {
            values.push(Some(invite.to_string()));
        }
        self.update_seat(take_seat_sql(side, invite.is_some()), values)
    }

    fn set_invite(&self, id: &str, side: Color, invite_hash: &str) -> StoreResult<bool> {
        let values = vec![Some(id.to_string()), Some(invite_hash.to_string())];
        self.update_seat(set_invite_sql(side), values)
    }

    fn adopt_seats(&self, from: &str, to: &str) -> StoreResult<Vec<String>> {
        let (from, to) = (from.to_string(), to.to_string());
        self.write_returning(move |conn| {
            let mut games = Vec::new();
            for side in [Color::Red, Color::Blue] {
                let mut stmt = conn.prepare(&numbered(&adopt_sql(side)))?;
                let ids = stmt.query_map([&from, &to], |r| r.get::<_, String>(0))?;
                games.extend(ids.collect::<Result<Vec<_>, _>>()?);
            }
            games.sort();
            games.dedup();
            Ok(games)
        })
    }

    fn games_of(&self, q: &GamesQuery) -> StoreResult<(Vec<Listed>, u64)> {
        let conn = self.reader();
        let standing = q.standing.map(Standing::name);
        let mut page = conn.prepare_cached(&numbered(&games_page_sql()))?;
        let rows = page.query_map(
            params![q.holder, standing, q.variant, q.opponent, q.limit, q.offset],
            |r| {
                Ok(Listed {
                    id: r.get(0)?,
                    variant: r.get(1)?,
                    seats: [r.get(2)?, r.get(3)?],
                    holders: [r.get(4)?, r.get(5)?],
                    names: [r.get(6)?, r.get(7)?],
                    result: r.get(8)?,
                    termination: r.get(14)?,
                    plies: r.get(9)?,
                    created: r.get(10)?,
                    clock: r.get(11)?,
                    bots: [
                        r.get::<_, Option<bool>>(12)?.unwrap_or(false),
                        r.get::<_, Option<bool>>(13)?.unwrap_or(false),
                    ],
                })
            },
        )?;
        let games = rows.collect::<Result<_, _>>()?;
        let total: i64 = conn
            .prepare_cached(&numbered(&games_count_sql()))?
            .query_row(params![q.holder, standing, q.variant, q.opponent], |r| {
                r.get(0)
            })?;
        Ok((games, total as u64))
    }

    fn standings(&self, holder: &str) -> StoreResult<Vec<(Standing, u64)>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(&standings_sql()))?;
        let rows = stmt.query_map([holder], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        })?;
        let mut counts = Vec::new();
        for row in rows {
            let (name, count) = row?;
            counts.push((standing_named(&name)?, count as u64));
        }
        Ok(counts)
    }
}
