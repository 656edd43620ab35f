//! The PostgreSQL backend's ratings (`store/ratings.rs` has the SQL). A game's rating
//! changes are written in the transaction that stores its result, with both players'
//! accounts locked, so that two instances ending two games of one player at once rate
//! them one after the other.

use tokio_postgres::{Row, Transaction};

use super::accounts::Values;
use super::Store;
use crate::ratings::Entry;
use crate::store::ratings::*;
use crate::store::StoreResult;

fn read_entry(r: &Row, first: usize) -> Entry {
    entry(
        r.get(first),
        r.get(first + 1),
        r.get(first + 2),
        r.get(first + 3),
        r.get(first + 4),
    )
}

fn read_change(r: &Row) -> RatingChange {
    RatingChange {
        game: r.get(0),
        side: r.get(1),
        user_id: r.get(2),
        category: r.get(3),
        at_ms: r.get(4),
        before: rating(r.get(5), r.get(6), r.get(7)),
        after: rating(r.get(8), r.get(9), r.get(10)),
    }
}

/// Rates game `id` if its result `outcome` ends a rated game that has not been rated yet:
/// both entries and both changes written in `tx`.
pub(super) async fn rate_end(tx: &Transaction<'_>, id: &str, outcome: &str) -> StoreResult<()> {
    if outcome == "*" {
        return Ok(());
    }
    let game = tx.query_one(GAME_RATED, &[&id]).await?;
    let Some((players, category, result)) = to_rate(
        game.get(0),
        [game.get(1), game.get(2)],
        outcome,
        game.get(3),
    ) else {
        return Ok(());
    };
    tx.execute(
        "SELECT id FROM users WHERE id = $1 OR id = $2 ORDER BY id FOR UPDATE",
        &[&players[0], &players[1]],
    )
    .await?;
    let rated: i64 = tx.query_one(CHANGED, &[&id]).await?.get(0);
    if rated > 0 {
        return Ok(());
    }
    let mut entries = [None, None];
    for (entry, player) in entries.iter_mut().zip(players) {
        *entry = tx
            .query_opt(&entry_sql(), &[&player, &category])
            .await?
            .map(|r| read_entry(&r, 0));
    }
    let (after, changes) = changes(id, players, &category, entries, result, now_ms());
    for (player, e) in players.into_iter().zip(after) {
        write_entry(tx, player, &category, &e).await?;
    }
    for c in &changes {
        write_change(tx, c).await?;
    }
    Ok(())
}

/// Writes account `player`'s entry in `category`.
async fn write_entry(
    tx: &Transaction<'_>,
    player: i64,
    category: &str,
    e: &Entry,
) -> StoreResult<()> {
    tx.execute(
        UPSERT_ENTRY,
        &[
            &player,
            &category,
            &e.rating.rating,
            &e.rating.deviation,
            &e.rating.volatility,
            &i64::from(e.games),
            &e.last_ms,
        ],
    )
    .await?;
    Ok(())
}

/// Writes one player's change in one game.
async fn write_change(tx: &Transaction<'_>, c: &RatingChange) -> StoreResult<()> {
    tx.execute(
        INSERT_CHANGE,
        &[
            &c.game,
            &c.side,
            &c.user_id,
            &c.category,
            &c.at_ms,
            &c.before.rating,
            &c.before.deviation,
            &c.before.volatility,
            &c.after.rating,
            &c.after.deviation,
            &c.after.volatility,
        ],
    )
    .await?;
    Ok(())
}

impl Ratings for Store {
    fn replace_ratings(
        &self,
        entries: &[(i64, String, Entry)],
        changes: &[RatingChange],
    ) -> StoreResult<()> {
        let (pool, entries, changes) = (self.pool.clone(), entries.to_vec(), changes.to_vec());
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // Every instance's rating writes wait for this one.
            tx.execute("LOCK TABLE ratings, rating_changes IN EXCLUSIVE MODE", &[])
                .await?;
            for sql in REPLACE_ALL {
                tx.execute(sql, &[]).await?;
            }
            for (player, category, entry) in &entries {
                write_entry(&tx, *player, category, entry).await?;
            }
            for change in &changes {
                write_change(&tx, change).await?;
            }
            tx.commit().await?;
            Ok(())
        })?)
    }

    fn ratings_of(&self, user_id: i64) -> StoreResult<Vec<(String, Entry)>> {
        let rows = self.rows(ratings_of_sql(), vec![Box::new(user_id)])?;
        Ok(rows.iter().map(|r| (r.get(0), read_entry(r, 1))).collect())
    }

    fn rating_entry(&self, user_id: i64, category: &str) -> StoreResult<Option<Entry>> {
        let values: Values = vec![Box::new(user_id), Box::new(category.to_string())];
        let rows = self.rows(entry_sql(), values)?;
        Ok(rows.first().map(|r| read_entry(r, 0)))
    }

    fn rating_history(&self, user_id: i64) -> StoreResult<Vec<RatingChange>> {
        let rows = self.rows(history_sql(), vec![Box::new(user_id)])?;
        Ok(rows.iter().map(read_change).collect())
    }

    fn game_ratings(&self, id: &str) -> StoreResult<Vec<RatingChange>> {
        let rows = self.rows(game_ratings_sql(), vec![Box::new(id.to_string())])?;
        Ok(rows.iter().map(read_change).collect())
    }

    fn leaderboard(
        &self,
        category: &str,
        deviation: f64,
        since_ms: i64,
        limit: i64,
        established: bool,
    ) -> StoreResult<Vec<Leader>> {
        let values: Values = vec![
            Box::new(category.to_string()),
            Box::new(deviation),
            Box::new(since_ms),
            Box::new(limit),
            Box::new(established),
        ];
        let rows = self.rows(LEADERBOARD.to_string(), values)?;
        Ok(rows
            .iter()
            .map(|r| Leader {
                username: r.get(0),
                entry: read_entry(r, 1),
            })
            .collect())
    }

    fn rated_games(&self) -> StoreResult<Vec<RatedGame>> {
        let rows = self.rows(RATED_GAMES.to_string(), Vec::new())?;
        Ok(rows
            .iter()
            .map(|r| RatedGame {
                id: r.get(0),
                category: r.get(1),
                holders: [r.get(2), r.get(3)],
                outcome: r.get(4),
                at_ms: r.get(5),
                plies: r.get(6),
            })
            .collect())
    }

    fn all_ratings(&self) -> StoreResult<Vec<(i64, String, Entry)>> {
        let rows = self.rows(all_ratings_sql(), Vec::new())?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), read_entry(r, 2)))
            .collect())
    }

    fn rated_games_playing(&self, holder: &str) -> StoreResult<Vec<String>> {
        let rows = self.rows(
            RATED_PLAYING.to_string(),
            vec![Box::new(holder.to_string())],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}
