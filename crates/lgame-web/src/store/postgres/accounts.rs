//! The PostgreSQL backend's accounts, sessions and seats (`store/accounts.rs` has the SQL).
//! A seat's change moves its game's version up and is told to the other instances, as
//! every change to a game is.

use std::time::Duration;

use lgame::Color;
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

use super::{notice, Store};
use crate::store::accounts::*;
use crate::store::StoreResult;

pub(super) fn user(r: &Row, first: usize) -> User {
    User {
        id: r.get(first),
        username: r.get(first + 1),
        password_hash: r.get(first + 2),
        email: r.get(first + 3),
        created: r.get(first + 4),
        disabled: r.get(first + 5),
        bot: r.get(first + 6),
    }
}

fn session(r: &Row) -> Session {
    Session {
        user: r.get(0),
        created: r.get(1),
        used: r.get(2),
        expires: r.get(3),
        device: r.get(4),
        address: r.get(5),
    }
}

/// Parameters owned, to cross into the backend's runtime.
pub(super) type Values = Vec<Box<dyn ToSql + Send + Sync>>;

fn refs(values: &Values) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| &**v as &(dyn ToSql + Sync)).collect()
}

impl Store {
    /// Runs one statement and answers its rows.
    pub(super) fn rows(&self, sql: String, values: Values) -> StoreResult<Vec<Row>> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(&sql).await?;
            Ok(client.query(&stmt, &refs(&values)).await?)
        })?)
    }

    /// Runs a seat's update; tells the other instances of each game whose version it moved
    /// (the statement returns id and version, or only the version of game `id`).
    fn seat_update(
        &self,
        id: Option<&str>,
        sql: String,
        values: Values,
    ) -> StoreResult<Vec<String>> {
        let rows = self.rows(sql, values)?;
        let mut changed = Vec::new();
        for row in rows {
            let (game, version): (String, i64) = match id {
                Some(id) => (id.to_string(), row.get(0)),
                None => (row.get(0), row.get(1)),
            };
            let _ = self.announce.send(notice(&game, version));
            changed.push(game);
        }
        Ok(changed)
    }
}

impl Accounts for Store {
    fn create_user(&self, new: &NewUser, now_s: i64) -> StoreResult<Option<i64>> {
        let n = new.clone();
        let values: Values = vec![
            Box::new(n.username),
            Box::new(n.key),
            Box::new(n.password_hash),
            Box::new(n.email),
            Box::new(now_s),
        ];
        let rows = self.rows(INSERT_USER.into(), values)?;
        Ok(rows.first().map(|r| r.get(0)))
    }

    fn user(&self, by: UserBy<'_>) -> StoreResult<Option<User>> {
        let rows = match by {
            UserBy::Id(id) => self.rows(USER_BY_ID.into(), vec![Box::new(id)])?,
            UserBy::Key(key) => self.rows(USER_BY_KEY.into(), vec![Box::new(key.to_string())])?,
        };
        Ok(rows.first().map(|r| user(r, 0)))
    }

    fn newest_users(&self, limit: i64) -> StoreResult<Vec<User>> {
        let rows = self.rows(NEWEST_USERS.into(), vec![Box::new(limit)])?;
        Ok(rows.iter().map(|r| user(r, 0)).collect())
    }

    fn change_user(&self, id: i64, change: &UserChange) -> StoreResult<bool> {
        let mut values: Values = vec![Box::new(id)];
        match change.clone() {
            UserChange::Password(hash) => values.push(Box::new(hash)),
            UserChange::Disabled(disabled) => values.push(Box::new(disabled)),
            UserChange::Rename { username, key } => {
                values.push(Box::new(username));
                values.push(Box::new(key));
            }
        }
        let sql = format!("{} RETURNING id", change_sql(change));
        Ok(!self.rows(sql, values)?.is_empty())
    }

    fn delete_user(&self, id: i64) -> StoreResult<()> {
        let pool = self.pool.clone();
        self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            for sql in DELETE_USER {
                tx.execute(sql, &[&id]).await?;
            }
            tx.commit().await?;
            Ok(())
        })?;
        self.handle().spawn(erase(self.pool.clone()));
        Ok(())
    }

    fn insert_session(&self, id_hash: &str, s: &Session) -> StoreResult<()> {
        let values: Values = vec![
            Box::new(id_hash.to_string()),
            Box::new(s.user),
            Box::new(s.created),
            Box::new(s.used),
            Box::new(s.expires),
            Box::new(s.device.clone()),
            Box::new(s.address.clone()),
        ];
        self.rows(INSERT_SESSION.into(), values).map(drop)
    }

    fn session(&self, id_hash: &str) -> StoreResult<Option<(Session, User)>> {
        let rows = self.rows(SESSION.into(), vec![Box::new(id_hash.to_string())])?;
        Ok(rows.first().map(|r| (session(r), user(r, SESSION_USER_AT))))
    }

    fn renew_session(&self, id_hash: &str, used: i64, expires: i64) -> StoreResult<()> {
        let values: Values = vec![
            Box::new(id_hash.to_string()),
            Box::new(used),
            Box::new(expires),
        ];
        self.rows(RENEW_SESSION.into(), values).map(drop)
    }

    fn end_session(&self, id_hash: &str) -> StoreResult<()> {
        self.rows(END_SESSION.into(), vec![Box::new(id_hash.to_string())])
            .map(drop)
    }

    fn end_sessions(&self, user: i64, keep: Option<&str>) -> StoreResult<u64> {
        let keep = keep.unwrap_or("").to_string();
        let sql = format!("{END_SESSIONS} RETURNING user_id");
        Ok(self.rows(sql, vec![Box::new(user), Box::new(keep)])?.len() as u64)
    }

    fn end_session_of(&self, user: i64, id: &str) -> StoreResult<Option<String>> {
        let values: Values = vec![Box::new(user), Box::new(id.to_string())];
        let rows = self.rows(END_SESSION_OF.into(), values)?;
        Ok(rows.first().map(|r| r.get(0)))
    }

    fn sessions_of(&self, user: i64) -> StoreResult<Vec<ListedSession>> {
        let rows = self.rows(SESSIONS_OF.into(), vec![Box::new(user)])?;
        Ok(rows
            .iter()
            .map(|r| ListedSession {
                id: r.get(6),
                session: session(r),
            })
            .collect())
    }

    fn take_seat(
        &self,
        id: &str,
        side: Color,
        holder: &str,
        invite: Option<&str>,
    ) -> StoreResult<bool> {
        let mut values: Values = vec![Box::new(id.to_string()), Box::new(holder.to_string())];
        if let Some(invite) = invite {
            values.push(Box::new(invite.to_string()));
        }
        let sql = take_seat_sql(side, invite.is_some());
        Ok(!self.seat_update(Some(id), sql, values)?.is_empty())
    }

    fn set_invite(&self, id: &str, side: Color, invite_hash: &str) -> StoreResult<bool> {
        let values: Values = vec![Box::new(id.to_string()), Box::new(invite_hash.to_string())];
        Ok(!self
            .seat_update(Some(id), set_invite_sql(side), values)?
            .is_empty())
    }

    fn adopt_seats(&self, from: &str, to: &str) -> StoreResult<Vec<String>> {
        let mut games = Vec::new();
        for side in [Color::Red, Color::Blue] {
            let values: Values = vec![Box::new(from.to_string()), Box::new(to.to_string())];
            games.extend(self.seat_update(None, adopt_sql(side), values)?);
        }
        games.sort();
        games.dedup();
        Ok(games)
    }

    fn games_of(&self, q: &GamesQuery) -> StoreResult<(Vec<Listed>, u64)> {
        let filters = || -> Values {
            vec![
                Box::new(q.holder.clone()),
                Box::new(q.standing.map(|s| s.name().to_string())),
                Box::new(q.variant.clone()),
                Box::new(q.opponent.clone()),
            ]
        };
        let mut values = filters();
        values.push(Box::new(q.limit));
        values.push(Box::new(q.offset));
        let games = self
            .rows(games_page_sql(), values)?
            .iter()
            .map(|r| Listed {
                id: r.get(0),
                variant: r.get(1),
                seats: [r.get(2), r.get(3)],
                holders: [r.get(4), r.get(5)],
                names: [r.get(6), r.get(7)],
                result: r.get(8),
                termination: r.get(14),
                plies: r.get(9),
                created: r.get(10),
                clock: r.get(11),
                bots: [
                    r.get::<_, Option<bool>>(12).unwrap_or(false),
                    r.get::<_, Option<bool>>(13).unwrap_or(false),
                ],
            })
            .collect();
        let total: i64 = self.rows(games_count_sql(), filters())?[0].get(0);
        Ok((games, total as u64))
    }

    fn standings(&self, holder: &str) -> StoreResult<Vec<(Standing, u64)>> {
        let rows = self.rows(standings_sql(), vec![Box::new(holder.to_string())])?;
        rows.iter()
            .map(|r| Ok((standing_named(r.get(0))?, r.get::<_, i64>(1) as u64)))
            .collect()
    }
}

/// When the erased rows' bytes are taken out of the tables' files after an account is
/// closed: at once, and again later, since a transaction open meanwhile (a backup, another
/// application's) may still see them, and `VACUUM FULL` then copies them into the new file.
const ERASE_AFTER: [Duration; 6] = [
    Duration::ZERO,
    Duration::from_secs(2),
    Duration::from_secs(5),
    Duration::from_secs(10),
    Duration::from_secs(60),
    Duration::from_secs(600),
];

/// Rewrites the accounts' tables (`VACUUM FULL`: a plain VACUUM leaves erased rows in the
/// pages' free space) at each of [`ERASE_AFTER`]. Each try waits at most a second for its
/// lock, so that no log-in queues behind it for longer while a backup holds the tables;
/// a try that cannot have it is made at the next. PostgreSQL's write-ahead log keeps the
/// rows until its segments are recycled.
async fn erase(pool: deadpool_postgres::Pool) {
    let mut since = Duration::ZERO;
    for at in ERASE_AFTER {
        tokio::time::sleep(at - since).await;
        since = at;
        if let Err(e) = vacuum_accounts(&pool).await {
            tracing::warn!(error = %e, "cannot rewrite the accounts' tables yet");
        }
    }
}

async fn vacuum_accounts(pool: &deadpool_postgres::Pool) -> anyhow::Result<()> {
    let client = pool.get().await?;
    client.batch_execute("SET lock_timeout = '1s'").await?;
    // Not in a transaction (VACUUM refuses one), so apart from the SET.
    let vacuumed = client.batch_execute("VACUUM FULL sessions, users").await;
    client.batch_execute("RESET lock_timeout").await?;
    Ok(vacuumed?)
}
