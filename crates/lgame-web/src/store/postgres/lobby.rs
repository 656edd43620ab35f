//! The PostgreSQL backend's lobby (`store/lobby.rs` has the SQL). A claim of several rows
//! is one transaction: all or none, whichever instance claims.

use tokio_postgres::Row;

use super::Store;
use crate::store::lobby::*;
use crate::store::StoreResult;

fn read(r: &Row) -> StoreResult<SeekRow> {
    let row = SeekRow {
        id: r.get(0),
        kind: SeekKind::Seek,
        token_hash: r.get(2),
        holder: r.get(3),
        ip: r.get(4),
        variant: r.get(5),
        clock: r.get(6),
        colour: r.get(7),
        rating: r.get(8),
        created_ms: r.get(9),
        seen_ms: r.get(10),
        state: SeekState::Open,
        changed_ms: r.get(12),
        game: r.get(13),
        side: r.get(14),
        name: r.get(15),
        category: r.get(16),
        provisional: r.get(17),
        range: range(r.get(18), r.get(19)),
    };
    parsed(row, r.get(1), r.get(11))
}

impl Seeks for Store {
    fn insert_seek(&self, seek: &SeekRow, limit: i64) -> StoreResult<bool> {
        let (pool, s) = (self.pool.clone(), seek.clone());
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            if s.kind == SeekKind::Ticket {
                tx.execute(WITHDRAW_TICKETS, &[&s.holder, &s.created_ms])
                    .await?;
            }
            let by_address = s.holder.starts_with("a:").then_some(&s.ip);
            let open: i64 = tx
                .query_one(COUNT_OPEN, &[&s.kind.name(), &s.holder, &by_address])
                .await?
                .get(0);
            if open >= limit {
                return Ok(false);
            }
            tx.execute(
                INSERT,
                &[
                    &s.id,
                    &s.kind.name(),
                    &s.token_hash,
                    &s.holder,
                    &s.ip,
                    &s.variant,
                    &s.clock,
                    &s.colour,
                    &s.rating,
                    &s.created_ms,
                    &s.seen_ms,
                    &s.changed_ms,
                    &s.category,
                    &s.provisional,
                    &s.range.map(|r| r[0]),
                    &s.range.map(|r| r[1]),
                ],
            )
            .await?;
            tx.commit().await?;
            Ok(true)
        })?)
    }

    fn seek(&self, id: &str) -> StoreResult<Option<SeekRow>> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        let row = self.run(async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(&seek_sql()).await?;
            Ok(client.query_opt(&stmt, &[&id]).await?)
        })?;
        row.as_ref().map(read).transpose()
    }

    fn open_seeks(&self, kind: SeekKind, limit: i64) -> StoreResult<Vec<SeekRow>> {
        let pool = self.pool.clone();
        let rows = self.run(async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(&open_seeks_sql()).await?;
            Ok(client.query(&stmt, &[&kind.name(), &limit]).await?)
        })?;
        rows.iter().map(read).collect()
    }

    fn claim_seeks(
        &self,
        claims: &[(String, String)],
        game: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let (pool, claims, game) = (self.pool.clone(), claims.to_vec(), game.to_string());
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let claim = tx.prepare_cached(CLAIM).await?;
            for (id, side) in &claims {
                if tx.execute(&claim, &[id, &game, side, &now_ms]).await? == 0 {
                    // Dropped, the transaction rolls back: none of the rows is claimed.
                    return Ok(false);
                }
            }
            tx.commit().await?;
            Ok(true)
        })?)
    }

    fn settle(&self, id: &str, state: SeekState, now_ms: i64) -> StoreResult<()> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let client = pool.get().await?;
            client
                .execute(SETTLE, &[&id, &state.name(), &now_ms])
                .await?;
            Ok(())
        })?)
    }

    fn withdraw(&self, id: &str, now_ms: i64) -> StoreResult<bool> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let client = pool.get().await?;
            Ok(client.execute(WITHDRAW, &[&id, &now_ms]).await? == 1)
        })?)
    }

    fn touch(&self, holders: &[String], now_ms: i64) -> StoreResult<()> {
        let (pool, holders) = (self.pool.clone(), holders.to_vec());
        Ok(self.run(async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let touch = tx.prepare_cached(TOUCH).await?;
            for holder in &holders {
                tx.execute(&touch, &[holder, &now_ms]).await?;
            }
            tx.commit().await?;
            Ok(())
        })?)
    }

    fn seen(&self, id: &str, now_ms: i64) -> StoreResult<()> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        Ok(self.run(async move {
            let client = pool.get().await?;
            client.execute(SEEN, &[&id, &now_ms]).await?;
            Ok(())
        })?)
    }

    fn sweep(&self, now_ms: i64, lifetimes: Lifetimes) -> StoreResult<Vec<String>> {
        let pool = self.pool.clone();
        Ok(self.run(async move {
            let client = pool.get().await?;
            let mut changed = Vec::new();
            for (sql, age) in [
                (SWEEP_UNSEEN, lifetimes.unseen_ms),
                (SWEEP_CLAIMS, lifetimes.claim_ms),
            ] {
                for row in client.query(sql, &[&(now_ms - age), &now_ms]).await? {
                    changed.push(row.get(0));
                }
            }
            for sql in SWEEP_OLD {
                client
                    .execute(sql, &[&(now_ms - lifetimes.keep_ms)])
                    .await?;
            }
            Ok(changed)
        })?)
    }
}
