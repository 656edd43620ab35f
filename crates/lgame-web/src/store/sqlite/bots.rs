//! The SQLite backend's bots (`store/bots.rs` has the SQL). Every write is the one
//! writer's, so one bot's events are written, and committed, in the order of their ids.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::accounts::{numbered, user};
use super::Store;
use crate::store::bots::*;
use crate::store::{StoreResult, User};

fn challenge(r: &Row<'_>) -> rusqlite::Result<(ChallengeRow, String)> {
    let state: String = r.get(9)?;
    Ok((
        ChallengeRow {
            id: r.get(0)?,
            challenger: r.get(1)?,
            challenger_name: r.get(2)?,
            dest: r.get(3)?,
            dest_name: r.get(4)?,
            variant: r.get(5)?,
            clock: r.get(6)?,
            category: r.get(7)?,
            color: r.get(8)?,
            state: ChallengeState::Pending,
            reason: r.get(10)?,
            game: r.get(11)?,
            challenger_side: r.get(12)?,
            created_ms: r.get(13)?,
        },
        state,
    ))
}

fn event(r: &Row<'_>) -> rusqlite::Result<EventRow> {
    Ok(EventRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        subject: r.get(2)?,
    })
}

/// The `gameStart` events of a game's bots, once it is stored.
pub(super) fn note_start(
    conn: &Connection,
    game: &str,
    holders: &[Option<String>; 2],
) -> StoreResult<()> {
    for user in holders.iter().flatten().filter_map(|h| holder_user(h)) {
        conn.prepare_cached(&numbered(INSERT_EVENT))?
            .execute(params![user, GAME_START, game, crate::store::now_ms()])?;
    }
    Ok(())
}

/// The `gameFinish` events of a game's bots, once its result is stored (once each).
pub(super) fn note_end(
    conn: &Connection,
    game: &str,
    outcome: &str,
    ended: bool,
) -> StoreResult<()> {
    if outcome == "*" && !ended {
        return Ok(());
    }
    let bots: Vec<i64> = conn
        .prepare_cached(&numbered(GAME_BOTS))?
        .query_map([game], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for bot in bots {
        conn.prepare_cached(&numbered(INSERT_EVENT))?
            .execute(params![bot, GAME_FINISH, game, crate::store::now_ms()])?;
    }
    Ok(())
}

impl Bots for Store {
    fn make_bot(&self, id: i64) -> StoreResult<bool> {
        self.write_returning(move |conn| Ok(conn.execute(&numbered(MAKE_BOT), [id])? == 1))
    }

    fn level_bot(&self, level: &str, username: &str, now_s: i64) -> StoreResult<Option<i64>> {
        let (level, username) = (level.to_string(), username.to_string());
        self.write_returning(move |conn| {
            let found: Option<i64> = conn
                .query_row(&numbered(LEVEL_BOT), [&level], |r| r.get(0))
                .optional()?;
            if found.is_some() {
                return Ok(found);
            }
            Ok(conn
                .query_row(
                    &numbered(INSERT_LEVEL_BOT),
                    params![username, username.to_lowercase(), now_s, level],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    fn bots(&self) -> StoreResult<Vec<BotRow>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(BOTS))?;
        let rows = stmt.query_map([], |r| {
            Ok(BotRow {
                id: r.get(0)?,
                username: r.get(1)?,
                level: r.get(2)?,
                seen_ms: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn bot_seen(&self, id: i64, now_ms: i64) -> StoreResult<()> {
        self.write_returning(move |conn| {
            conn.execute(&numbered(BOT_SEEN), params![id, now_ms])?;
            Ok(())
        })
    }

    fn insert_token(&self, token: &TokenRow) -> StoreResult<()> {
        let t = token.clone();
        self.write_returning(move |conn| {
            conn.execute(
                &numbered(INSERT_TOKEN),
                params![t.id, t.user_id, t.hash, t.description, t.created_ms],
            )?;
            Ok(())
        })
    }

    fn tokens_of(&self, user: i64) -> StoreResult<Vec<TokenRow>> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(&numbered(TOKENS_OF))?;
        let rows = stmt.query_map([user], |r| {
            Ok(TokenRow {
                id: r.get(0)?,
                user_id: r.get(1)?,
                hash: r.get(2)?,
                description: r.get(3)?,
                created_ms: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn delete_token(&self, user: i64, id: &str) -> StoreResult<bool> {
        let id = id.to_string();
        self.write_returning(move |conn| {
            Ok(conn.execute(&numbered(DELETE_TOKEN), params![user, id])? == 1)
        })
    }

    fn token_user(&self, hash: &str) -> StoreResult<Option<User>> {
        let conn = self.reader();
        Ok(conn
            .query_row(&numbered(TOKEN_USER), [hash], |r| user(r, 0))
            .optional()?)
    }

    fn insert_challenge(&self, c: &ChallengeRow, now_ms: i64) -> StoreResult<()> {
        let c = c.clone();
        self.write_returning(move |conn| {
            conn.execute(
                &numbered(INSERT_CHALLENGE),
                params![
                    c.id,
                    c.challenger,
                    c.dest,
                    c.variant,
                    c.clock,
                    c.category,
                    c.color,
                    c.created_ms
                ],
            )?;
            conn.execute(
                &numbered(INSERT_EVENT),
                params![c.dest, CHALLENGE, c.id, now_ms],
            )?;
            Ok(())
        })
    }

    fn challenge(&self, id: &str) -> StoreResult<Option<ChallengeRow>> {
        let conn = self.reader();
        let found = conn
            .query_row(&numbered(CHALLENGE_BY_ID), [id], challenge)
            .optional()?;
        found
            .map(|(mut row, state)| {
                row.state = state_of(&state)?;
                Ok(row)
            })
            .transpose()
    }

    fn settle_challenge(&self, id: &str, settle: &Settle, now_ms: i64) -> StoreResult<bool> {
        let (id, s) = (id.to_string(), settle.clone());
        self.write_returning(move |conn| {
            let dest: Option<i64> = conn
                .query_row(
                    &numbered(SETTLE_CHALLENGE),
                    params![id, s.state.name(), s.reason, s.game, s.challenger_side],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(dest) = dest else {
                return Ok(false);
            };
            if s.state == ChallengeState::Canceled {
                conn.execute(
                    &numbered(INSERT_EVENT),
                    params![dest, CHALLENGE_CANCELED, id, now_ms],
                )?;
            }
            Ok(true)
        })
    }

    fn events(
        &self,
        user: i64,
        since: Option<i64>,
        limit: i64,
    ) -> StoreResult<(Vec<EventRow>, i64)> {
        let conn = self.reader();
        let last: i64 = conn.query_row(&numbered(LAST_EVENT), [user], |r| r.get(0))?;
        let rows = match since {
            Some(since) => conn
                .prepare_cached(&numbered(EVENTS_SINCE))?
                .query_map(params![user, since, limit], event)?
                .collect::<Result<Vec<_>, _>>()?,
            None => conn
                .prepare_cached(&numbered(EVENTS_STANDING))?
                .query_map(params![user, last, limit], event)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        Ok((rows, last))
    }
}
