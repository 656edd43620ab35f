//! The lobby's rows: open seeks and quick pairing's tickets, and the lobby's queries over
//! the store (their tables: `store/schema.rs`).
//!
//! A row's life: `open` → `claimed` (by a taker, or by a pairing wave with another ticket;
//! its game's id and the seeker's side written) → `made` (the game stored). An open row no
//! page or poll has seen for a while is `gone`, as is one its holder withdrew; a claim never
//! made (its instance died) is opened again. Times are the server's (`clock::TimeSource`),
//! in milliseconds, so that tests advance them. Only a seek's token's hash is stored; a
//! ticket's row is keyed by its ticket's hash.

use std::net::IpAddr;

use lgame::Color;

use crate::clock::TimeControl;
use crate::store::sql::{args, FromRow, Row};
use crate::store::{
    stale_is_false, stored_names, transaction, ColorChoice, Holder, Store, StoreError, StoreResult,
};

/// A seek in the lobby, or a ticket in quick pairing's pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeekKind {
    Seek,
    Ticket,
}

stored_names!(SeekKind {
    Seek = "seek",
    Ticket = "ticket",
});

/// Where a seek is in its life (see the module's comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeekState {
    Open,
    Claimed,
    Made,
    Gone,
}

stored_names!(SeekState {
    Open = "open",
    Claimed = "claimed",
    Made = "made",
    Gone = "gone",
});

/// A stored seek or ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekRow {
    /// A seek's public id, or a ticket's hash.
    pub id: String,
    pub kind: SeekKind,
    /// The hash of the secret its holder plays with (`credentials::secret_hash`).
    pub token_hash: String,
    /// Who seeks (`store/accounts.rs`): an account or a browser.
    pub holder: Holder,
    /// The client's address, for the limit on anonymous seeks per address.
    pub ip: IpAddr,
    /// The variant's catalog name.
    pub variant: String,
    /// The time control (JSON in the database).
    pub clock: TimeControl,
    /// The seeker's side, as asked.
    pub colour: ColorChoice,
    pub rating: i64,
    pub created_ms: i64,
    /// When a page or a poll of its holder's last showed it is still wanted.
    pub seen_ms: i64,
    pub state: SeekState,
    /// When its state last changed.
    pub changed_ms: i64,
    /// Its game, once claimed, and the seeker's side in it.
    pub game: Option<String>,
    pub side: Option<Color>,
    /// The holder's username (read, never written; none for a browser).
    pub name: Option<String>,
    /// A rated seek's category (`ratings::category`); `None`: casual.
    pub category: Option<String>,
    /// Whether `rating` is provisional (or a browser's, which has none).
    pub provisional: bool,
    /// The ratings a seek's taker may have, both ends included.
    pub range: Option<[i64; 2]>,
}

/// How long things last in the lobby (milliseconds of the server's time).
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    /// An open seek unseen this long is gone.
    pub unseen_ms: i64,
    /// A claim not made this long is opened again.
    pub claim_ms: i64,
    /// A row gone or made this long ago is deleted.
    pub keep_ms: i64,
}

/// A row's columns, in [`SeekRow`]'s order.
const COLUMNS: &str = "s.id, s.kind, s.token_hash, s.holder, s.ip, s.variant,
    s.clock, s.colour, s.rating, s.created_ms, s.seen_ms, s.state, s.changed_ms, s.game,
    s.side, (SELECT username FROM users WHERE 'u:' || id = s.holder), s.category,
    s.provisional, s.rating_min, s.rating_max";

fn seek_sql() -> String {
    format!("SELECT {COLUMNS} FROM seeks s WHERE s.id = $1")
}

fn open_seeks_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM seeks s WHERE s.state = 'open' AND s.kind = $1
         ORDER BY s.created_ms DESC, s.id LIMIT $2"
    )
}

/// Withdraws holder `$1`'s open tickets (`$2` the time).
const WITHDRAW_TICKETS: &str = "UPDATE seeks SET state = 'gone', changed_ms = $2
     WHERE holder = $1 AND kind = 'ticket' AND state = 'open'";

/// How many open rows of kind `$1` holder `$2` has, or address `$3` (null for an account).
const COUNT_OPEN: &str = "SELECT count(*) FROM seeks
     WHERE kind = $1 AND state = 'open' AND (holder = $2 OR ip = $3)";

const INSERT: &str = "INSERT INTO seeks (id, kind, token_hash, holder, ip, variant,
        clock, colour, rating, created_ms, seen_ms, state, changed_ms, category, provisional,
        rating_min, rating_max)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $13, $14, $15, $16)";

/// Claims open row `$1` for game `$2`, the seeker's side `$3`, at `$4`.
const CLAIM: &str = "UPDATE seeks SET state = 'claimed', game = $2, side = $3,
        changed_ms = $4
     WHERE id = $1 AND state = 'open'";

/// Settles claimed row `$1` as `$2` at `$3` (opened again: no game).
const SETTLE: &str = "UPDATE seeks SET state = $2, changed_ms = $3,
        game = CASE WHEN $2 = 'open' THEN NULL ELSE game END,
        side = CASE WHEN $2 = 'open' THEN NULL ELSE side END,
        seen_ms = CASE WHEN $2 = 'open' THEN $3 ELSE seen_ms END
     WHERE id = $1 AND state = 'claimed'";

const WITHDRAW: &str = "UPDATE seeks SET state = 'gone', changed_ms = $2
     WHERE id = $1 AND state = 'open'";

/// Holder `$1` has a lobby page open at `$2`: one row a holder, however many its seeks.
const TOUCH: &str = "INSERT INTO seekers (holder, seen_ms) VALUES ($1, $2)
     ON CONFLICT (holder) DO UPDATE SET seen_ms = excluded.seen_ms";

/// Open row `$1` seen at `$2`.
const SEEN: &str = "UPDATE seeks SET seen_ms = $2 WHERE id = $1 AND state = 'open'";

/// The sweep (`$1` the cutoff, `$2` now): open rows unseen since, themselves or by a page
/// of their holder's, are gone; claims older are opened again; gone and made rows older
/// are deleted, as are the holders' pages unseen. Each returns the rows whose state changed.
const SWEEP_UNSEEN: &str = "UPDATE seeks SET state = 'gone', changed_ms = $2
     WHERE state = 'open' AND seen_ms < $1
       AND NOT EXISTS (SELECT 1 FROM seekers w WHERE w.holder = seeks.holder AND w.seen_ms >= $1)
     RETURNING id";
const SWEEP_CLAIMS: &str = "UPDATE seeks SET state = 'open', game = NULL,
        side = NULL, changed_ms = $2, seen_ms = $2
     WHERE state = 'claimed' AND changed_ms < $1 RETURNING id";
const SWEEP_OLD: [&str; 2] = [
    "DELETE FROM seeks WHERE state IN ('gone', 'made') AND changed_ms < $1",
    "DELETE FROM seekers WHERE seen_ms < $1",
];

/// A row read back, in [`COLUMNS`]' order.
impl FromRow for SeekRow {
    fn from_row(r: &Row) -> StoreResult<SeekRow> {
        let range = |min: Option<i64>, max: Option<i64>| Some([min?, max?]);
        Ok(SeekRow {
            id: r.get(0)?,
            kind: r.get(1)?,
            token_hash: r.get(2)?,
            holder: r.get(3)?,
            ip: r.get(4)?,
            variant: r.get(5)?,
            clock: r.get(6)?,
            colour: r.get(7)?,
            rating: r.get(8)?,
            created_ms: r.get(9)?,
            seen_ms: r.get(10)?,
            state: r.get(11)?,
            changed_ms: r.get(12)?,
            game: r.get(13)?,
            side: r.get(14)?,
            name: r.get(15)?,
            category: r.get(16)?,
            provisional: r.get(17)?,
            range: range(r.get(18)?, r.get(19)?),
        })
    }
}

/// What the store keeps of the lobby.
impl Store {
    /// Adds `seek` unless its holder has `limit` open rows of its kind, or, for a browser,
    /// its address has; a ticket first withdraws its holder's other tickets. `false` if
    /// over the limit.
    pub async fn insert_seek(&self, seek: &SeekRow, limit: i64) -> StoreResult<bool> {
        let s = seek.clone();
        transaction!(self.write, |c| {
            if s.kind == SeekKind::Ticket {
                c.execute(WITHDRAW_TICKETS, &args![&s.holder, s.created_ms])
                    .await?;
            }
            let browser = matches!(s.holder, Holder::Browser(_));
            let by_address = browser.then_some(&s.ip);
            let counted = args![s.kind.name(), &s.holder, by_address];
            let open: i64 = c.query_one(COUNT_OPEN, &counted).await?.get(0)?;
            if open >= limit {
                return Ok(false);
            }
            let row = args![
                &s.id,
                s.kind.name(),
                &s.token_hash,
                &s.holder,
                &s.ip,
                &s.variant,
                s.clock,
                s.colour,
                s.rating,
                s.created_ms,
                s.seen_ms,
                s.changed_ms,
                &s.category,
                s.provisional,
                s.range.map(|r| r[0]),
                s.range.map(|r| r[1]),
            ];
            c.execute(INSERT, &row).await?;
            Ok(true)
        })
        .await
    }

    pub async fn seek(&self, id: &str) -> StoreResult<Option<SeekRow>> {
        self.select_one(seek_sql(), args![id]).await
    }

    /// The open rows of a kind, newest first, at most `limit`.
    pub async fn open_seeks(&self, kind: SeekKind, limit: i64) -> StoreResult<Vec<SeekRow>> {
        self.select(open_seeks_sql(), args![kind.name(), limit])
            .await
    }

    /// Claims every one of `claims` (a row's id and its seeker's side) for game `game`, all
    /// or none: `false` if one of them is no longer open.
    pub async fn claim_seeks(
        &self,
        claims: &[(String, Color)],
        game: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let (claims, game) = (claims.to_vec(), game.to_string());
        let claimed = transaction!(self.write, |c| {
            for (id, side) in &claims {
                if c.execute(CLAIM, &args![id, &game, side, now_ms]).await? == 0 {
                    // Rolls the claims back: none of the rows is claimed.
                    return Err(StoreError::Stale);
                }
            }
            Ok(())
        })
        .await;
        stale_is_false(claimed)
    }

    /// A claimed row's game was stored (`made`), or could not be (`open` again).
    pub async fn settle(&self, id: &str, state: SeekState, now_ms: i64) -> StoreResult<()> {
        self.run(SETTLE, args![id, state.name(), now_ms])
            .await
            .map(drop)
    }

    /// An open row withdrawn by its holder: `false` if it was not open.
    pub async fn withdraw(&self, id: &str, now_ms: i64) -> StoreResult<bool> {
        Ok(self.run(WITHDRAW, args![id, now_ms]).await? == 1)
    }

    /// These holders have a lobby page open now: their open rows are seen.
    pub async fn touch(&self, holders: &[Holder], now_ms: i64) -> StoreResult<()> {
        let holders = holders.to_vec();
        transaction!(self.write, |c| {
            for holder in &holders {
                c.execute(TOUCH, &args![holder, now_ms]).await?;
            }
            Ok(())
        })
        .await
    }

    /// Open row `id` is seen now (its holder polled it).
    pub async fn seen(&self, id: &str, now_ms: i64) -> StoreResult<()> {
        self.run(SEEN, args![id, now_ms]).await.map(drop)
    }

    /// Applies the [`Lifetimes`]: the rows whose state changed.
    pub async fn sweep(&self, now_ms: i64, lifetimes: Lifetimes) -> StoreResult<Vec<String>> {
        transaction!(self.write, |c| {
            let mut changed = Vec::new();
            for (sql, age) in [
                (SWEEP_UNSEEN, lifetimes.unseen_ms),
                (SWEEP_CLAIMS, lifetimes.claim_ms),
            ] {
                changed.extend(c.rows(sql, &args![now_ms - age, now_ms]).await?);
            }
            for sql in SWEEP_OLD {
                c.execute(sql, &args![now_ms - lifetimes.keep_ms]).await?;
            }
            Ok(changed)
        })
        .await
    }
}
