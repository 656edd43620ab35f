//! The PostgreSQL backend's arenas (`store/arenas.rs` has the SQL). A pairing is one
//! transaction that locks the arena's row first: whichever instances pair at once, one at
//! a time reads who is waiting, so a player is paired once.

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::Store;
use crate::store::arenas::*;
use crate::store::StoreResult;

fn read_arena(r: &Row) -> ArenaRow {
    ArenaRow {
        id: r.get(0),
        variant: r.get(1),
        clock: r.get(2),
        minutes: r.get(3),
        category: r.get(4),
        starts_at: r.get(5),
        ends_at: r.get(6),
        creator: r.get(7),
        creator_name: r.get(8),
        created_ms: r.get(9),
        players: r.get(10),
        unfinished: r.get(11),
    }
}

/// Arena `id` as `client` reads it; `lock`: its row locked for the transaction.
async fn load(
    client: &impl GenericClient,
    id: &str,
    now_ms: i64,
    lock: bool,
) -> anyhow::Result<Option<ArenaData>> {
    let Some(arena) = client.query_opt(&arena_sql(lock), &[&now_ms, &id]).await? else {
        return Ok(None);
    };
    let players = client
        .query(PLAYERS, &[&id])
        .await?
        .iter()
        .map(|r| ArenaPlayer {
            user_id: r.get(0),
            username: r.get(1),
            joined_ms: r.get(2),
            left_ms: r.get(3),
        })
        .collect();
    let games = client
        .query(GAMES, &[&id])
        .await?
        .iter()
        .map(|r| ArenaGame {
            game: r.get(0),
            players: [r.get(1), r.get(2)],
            seq: r.get(3),
            made_ms: r.get(4),
            ended_ms: r.get(5),
            outcome: r.get(6),
            termination: r.get(7),
            plies: r.get(8),
        })
        .collect();
    Ok(Some(ArenaData {
        arena: read_arena(&arena),
        players,
        games,
    }))
}

impl Arenas for Store {
    fn insert_arena(&self, a: &ArenaRow) -> StoreResult<()> {
        let (pool, a) = (self.pool.clone(), a.clone());
        Ok(self.run(async move {
            let client = pool.get().await?;
            client
                .execute(
                    INSERT,
                    &[
                        &a.id,
                        &a.variant,
                        &a.clock,
                        &a.minutes,
                        &a.category,
                        &a.starts_at,
                        &a.ends_at,
                        &a.creator,
                        &a.created_ms,
                    ],
                )
                .await?;
            Ok(())
        })?)
    }

    fn arena(&self, id: &str, now_ms: i64) -> StoreResult<Option<ArenaData>> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let client = pool.get().await?;
            load(&client, &id, now_ms, false).await
        })?)
    }

    fn arenas(&self, now_ms: i64, limit: i64) -> StoreResult<Vec<ArenaRow>> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let rows = client.query(&arenas_sql(), &[&now_ms, &limit]).await?;
            Ok(rows.iter().map(read_arena).collect())
        })?)
    }

    fn running_arenas(&self, now_ms: i64) -> StoreResult<Vec<String>> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let rows = client.query(RUNNING, &[&now_ms]).await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })?)
    }

    fn arenas_of(&self, user: i64) -> StoreResult<Vec<(String, i64, Option<i64>)>> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let rows = client.query(ARENAS_OF, &[&user]).await?;
            Ok(rows
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect())
        })?)
    }

    fn join_arena(&self, id: &str, user: i64, now_ms: i64) -> StoreResult<()> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let client = pool.get().await?;
            client.execute(JOIN, &[&id, &user, &now_ms]).await?;
            Ok(())
        })?)
    }

    fn leave_arena(&self, id: &str, user: i64, now_ms: i64) -> StoreResult<bool> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let client = pool.get().await?;
            Ok(client.execute(LEAVE, &[&id, &user, &now_ms]).await? == 1)
        })?)
    }

    fn pair_arena(&self, id: &str, now_ms: i64, choose: Chooser) -> StoreResult<Vec<Pairing>> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let Some(mut data) = load(&tx, &id, now_ms, true).await? else {
                return Ok(Vec::new());
            };
            for game in data.games.iter_mut().filter(|g| g.over()) {
                if game.ended_ms.is_none() {
                    tx.execute(ENDED, &[&game.game, &now_ms]).await?;
                    game.ended_ms = Some(now_ms);
                }
            }
            let pairings = choose(&data);
            let mut seq = data.games.iter().map(|g| g.seq).max().unwrap_or(0);
            for p in &pairings {
                seq += 1;
                tx.execute(
                    INSERT_GAME,
                    &[&p.game, &id, &p.players[0], &p.players[1], &seq, &now_ms],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(pairings)
        })?)
    }
}
