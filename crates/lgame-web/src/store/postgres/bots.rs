//! The PostgreSQL backend's bots (`store/bots.rs` has the SQL). A bot's event is written
//! with its row locked (`FOR UPDATE`), so that whichever instances write one bot's events
//! at once, they commit in the order of their ids and a stream resumed after an id misses
//! none.

use tokio_postgres::{Row, Transaction};

use super::accounts::{user, Values};
use super::Store;
use crate::store::bots::*;
use crate::store::{StoreResult, User};

fn challenge(r: &Row) -> StoreResult<ChallengeRow> {
    Ok(ChallengeRow {
        id: r.get(0),
        challenger: r.get(1),
        challenger_name: r.get(2),
        dest: r.get(3),
        dest_name: r.get(4),
        variant: r.get(5),
        clock: r.get(6),
        category: r.get(7),
        color: r.get(8),
        state: state_of(r.get(9))?,
        reason: r.get(10),
        game: r.get(11),
        challenger_side: r.get(12),
        created_ms: r.get(13),
    })
}

fn event(r: &Row) -> EventRow {
    EventRow {
        id: r.get(0),
        kind: r.get(1),
        subject: r.get(2),
    }
}

/// Writes bot `user`'s event (nothing if the account is no bot, or has this event).
async fn insert_event(
    tx: &Transaction<'_>,
    user: i64,
    kind: &str,
    subject: &str,
    now_ms: i64,
) -> StoreResult<()> {
    tx.execute("SELECT id FROM users WHERE id = $1 FOR UPDATE", &[&user])
        .await?;
    tx.execute(INSERT_EVENT, &[&user, &kind, &subject, &now_ms])
        .await?;
    Ok(())
}

/// The `gameStart` events of a game's bots, once it is stored.
pub(super) async fn note_start(
    tx: &Transaction<'_>,
    game: &str,
    holders: &[Option<String>; 2],
) -> StoreResult<()> {
    let mut users: Vec<i64> = holders
        .iter()
        .flatten()
        .filter_map(|h| holder_user(h))
        .collect();
    users.sort_unstable();
    for user in users {
        insert_event(tx, user, GAME_START, game, crate::store::now_ms()).await?;
    }
    Ok(())
}

/// The `gameFinish` events of a game's bots, once its result is stored (once each).
pub(super) async fn note_end(
    tx: &Transaction<'_>,
    game: &str,
    outcome: &str,
    ended: bool,
) -> StoreResult<()> {
    if outcome == "*" && !ended {
        return Ok(());
    }
    let bots: Vec<i64> = tx
        .query(GAME_BOTS, &[&game])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    for bot in bots {
        insert_event(tx, bot, GAME_FINISH, game, crate::store::now_ms()).await?;
    }
    Ok(())
}

impl Store {
    /// Runs `work` in one transaction on the backend's runtime.
    fn in_transaction<T: Send + 'static>(
        &self,
        work: impl for<'a> FnOnce(
                &'a Transaction<'a>,
            ) -> std::pin::Pin<
                Box<dyn std::future::Future<Output = StoreResult<T>> + Send + 'a>,
            > + Send
            + 'static,
    ) -> StoreResult<T> {
        let pool = self.pool.clone();
        let outcome = self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let answer = work(&tx).await;
            match answer {
                Ok(value) => {
                    tx.commit().await?;
                    Ok(Ok(value))
                }
                Err(e) => Ok(Err(e)),
            }
        })?;
        outcome
    }
}

impl Bots for Store {
    fn make_bot(&self, id: i64) -> StoreResult<bool> {
        let sql = format!("{MAKE_BOT} RETURNING id");
        Ok(!self.rows(sql, vec![Box::new(id)])?.is_empty())
    }

    fn level_bot(&self, level: &str, username: &str, now_s: i64) -> StoreResult<Option<i64>> {
        let found = self.rows(LEVEL_BOT.into(), vec![Box::new(level.to_string())])?;
        if let Some(row) = found.first() {
            return Ok(Some(row.get(0)));
        }
        let values: Values = vec![
            Box::new(username.to_string()),
            Box::new(username.to_lowercase()),
            Box::new(now_s),
            Box::new(level.to_string()),
        ];
        let made = self.rows(INSERT_LEVEL_BOT.into(), values)?;
        Ok(made.first().map(|r| r.get(0)))
    }

    fn bots(&self) -> StoreResult<Vec<BotRow>> {
        Ok(self
            .rows(BOTS.into(), vec![])?
            .iter()
            .map(|r| BotRow {
                id: r.get(0),
                username: r.get(1),
                level: r.get(2),
                seen_ms: r.get(3),
            })
            .collect())
    }

    fn bot_seen(&self, id: i64, now_ms: i64) -> StoreResult<()> {
        self.rows(BOT_SEEN.into(), vec![Box::new(id), Box::new(now_ms)])
            .map(drop)
    }

    fn insert_token(&self, t: &TokenRow) -> StoreResult<()> {
        let values: Values = vec![
            Box::new(t.id.clone()),
            Box::new(t.user_id),
            Box::new(t.hash.clone()),
            Box::new(t.description.clone()),
            Box::new(t.created_ms),
        ];
        self.rows(INSERT_TOKEN.into(), values).map(drop)
    }

    fn tokens_of(&self, user: i64) -> StoreResult<Vec<TokenRow>> {
        Ok(self
            .rows(TOKENS_OF.into(), vec![Box::new(user)])?
            .iter()
            .map(|r| TokenRow {
                id: r.get(0),
                user_id: r.get(1),
                hash: r.get(2),
                description: r.get(3),
                created_ms: r.get(4),
            })
            .collect())
    }

    fn delete_token(&self, user: i64, id: &str) -> StoreResult<bool> {
        let sql = format!("{DELETE_TOKEN} RETURNING id");
        let values: Values = vec![Box::new(user), Box::new(id.to_string())];
        Ok(!self.rows(sql, values)?.is_empty())
    }

    fn token_user(&self, hash: &str) -> StoreResult<Option<User>> {
        let rows = self.rows(TOKEN_USER.into(), vec![Box::new(hash.to_string())])?;
        Ok(rows.first().map(|r| user(r, 0)))
    }

    fn insert_challenge(&self, c: &ChallengeRow, now_ms: i64) -> StoreResult<()> {
        let c = c.clone();
        self.in_transaction(move |tx| {
            Box::pin(async move {
                tx.execute(
                    INSERT_CHALLENGE,
                    &[
                        &c.id,
                        &c.challenger,
                        &c.dest,
                        &c.variant,
                        &c.clock,
                        &c.category,
                        &c.color,
                        &c.created_ms,
                    ],
                )
                .await?;
                insert_event(tx, c.dest, CHALLENGE, &c.id, now_ms).await
            })
        })
    }

    fn challenge(&self, id: &str) -> StoreResult<Option<ChallengeRow>> {
        let rows = self.rows(CHALLENGE_BY_ID.into(), vec![Box::new(id.to_string())])?;
        rows.first().map(challenge).transpose()
    }

    fn settle_challenge(&self, id: &str, settle: &Settle, now_ms: i64) -> StoreResult<bool> {
        let (id, s) = (id.to_string(), settle.clone());
        self.in_transaction(move |tx| {
            Box::pin(async move {
                let state = s.state.name();
                let row = tx
                    .query_opt(
                        SETTLE_CHALLENGE,
                        &[&id, &state, &s.reason, &s.game, &s.challenger_side],
                    )
                    .await?;
                let Some(row) = row else {
                    return Ok(false);
                };
                if s.state == ChallengeState::Canceled {
                    insert_event(tx, row.get(0), CHALLENGE_CANCELED, &id, now_ms).await?;
                }
                Ok(true)
            })
        })
    }

    fn events(
        &self,
        user: i64,
        since: Option<i64>,
        limit: i64,
    ) -> StoreResult<(Vec<EventRow>, i64)> {
        let last: i64 = self.rows(LAST_EVENT.into(), vec![Box::new(user)])?[0].get(0);
        let rows = match since {
            Some(since) => self.rows(
                EVENTS_SINCE.into(),
                vec![Box::new(user), Box::new(since), Box::new(limit)],
            )?,
            None => self.rows(
                EVENTS_STANDING.into(),
                vec![Box::new(user), Box::new(last), Box::new(limit)],
            )?,
        };
        Ok((rows.iter().map(event).collect(), last))
    }
}
