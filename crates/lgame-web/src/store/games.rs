//! The games and their moves: stored, changed on their version, loaded — each operation
//! written once over [`Conn`], the same on both databases.

use lgame::game::{ResultToken, Termination};
use lgame::Color;

use super::sql::{args, Conn, FromRow, Row, Value};
use super::{
    bots, ratings, token_column, Edit, GameRow, Pending, Requests, Store, StoreError, StoreResult,
    StoredChange, StoredClock,
};

/// A game's columns, in the order [`GameRow`] is read from them.
const GAME_COLUMNS: &str = "id, header, red, blue, red_token_hash, blue_token_hash, seed,
    termination, result, draw_offer, undo_request, rematch, rematch_of, version, red_holder,
    blue_holder, red_invite_hash, blue_invite_hash, variant,
    (SELECT username FROM users WHERE 'u:' || id = red_holder),
    (SELECT username FROM users WHERE 'u:' || id = blue_holder),
    clock, deadline_ms, category,
    (SELECT bot FROM users WHERE 'u:' || id = red_holder),
    (SELECT bot FROM users WHERE 'u:' || id = blue_holder),
    (SELECT arena FROM arena_games WHERE game = games.id), created";

impl FromRow for GameRow {
    fn from_row(r: &Row) -> StoreResult<GameRow> {
        let termination: Option<Termination> = r.get(7)?;
        let result: Option<ResultToken> = r.get(8)?;
        Ok(GameRow {
            id: r.get(0)?,
            header: r.get(1)?,
            seats: [r.get(2)?, r.get(3)?],
            token_hashes: [r.get(4)?, r.get(5)?],
            // The seed's 64 bits, kept in a signed column.
            seed: r.get::<i64>(6)? as u64,
            end: termination.zip(result),
            requests: Requests {
                draw_offer: r.get(9)?,
                undo_request: r.get(10)?,
            },
            rematch: r.get(11)?,
            rematch_of: r.get(12)?,
            version: r.get(13)?,
            holders: [r.get(14)?, r.get(15)?],
            invites: [r.get(16)?, r.get(17)?],
            variant: r.get(18)?,
            names: [r.get(19)?, r.get(20)?],
            clock: StoredClock {
                clocks: r.get(21)?,
                deadline_ms: r.get(22)?,
            },
            category: r.get(23)?,
            bots: [
                r.get::<Option<bool>>(24)?.unwrap_or(false),
                r.get::<Option<bool>>(25)?.unwrap_or(false),
            ],
            arena: r.get(26)?,
            created: r.get(27)?,
        })
    }
}

impl Store {
    /// How many games are stored.
    pub async fn count_games(&self) -> StoreResult<u64> {
        let counted = self.select_one("SELECT count(*) FROM games", []).await?;
        Ok(counted.unwrap_or(0))
    }

    /// Stores a new game (at version 0) and its moves, its result token `outcome`, made at
    /// `now_ms` (the server's time).
    pub async fn insert_game(
        &self,
        game: &GameRow,
        moves: &[String],
        outcome: ResultToken,
        now_ms: i64,
    ) -> StoreResult<()> {
        let (game, moves) = (game.clone(), moves.to_vec());
        transaction!(self.write, |c| {
            let (termination, result) = game.end.unzip();
            c.execute(
                "INSERT INTO games (id, created, header, red, blue, red_token_hash,
                                    blue_token_hash, seed, termination, result, draw_offer,
                                    undo_request, red_holder, blue_holder, red_invite_hash,
                                    blue_invite_hash, variant, outcome, clock, deadline_ms,
                                    category)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                         $16, $17, $18, $19, $20, $21)",
                &args![
                    &game.id,
                    now_ms / 1000,
                    &game.header,
                    &game.seats[0],
                    &game.seats[1],
                    &game.token_hashes[0],
                    &game.token_hashes[1],
                    game.seed as i64,
                    termination,
                    result,
                    game.requests.draw_offer,
                    game.requests.undo_request,
                    &game.holders[0],
                    &game.holders[1],
                    &game.invites[0],
                    &game.invites[1],
                    &game.variant,
                    outcome,
                    &game.clock.clocks,
                    game.clock.deadline_ms,
                    &game.category,
                ],
            )
            .await?;
            insert_moves(c, &game.id, 1, &moves).await?;
            bots::note_start(c, &game.id, &game.holders, now_ms).await
        })
        .await
    }

    /// Queues a change for the database, without waiting for it. It fails with
    /// [`StoreError::Stale`] if the game is no longer at the edit's version, and a ply
    /// already stored fails (the `(game, ply)` key): nothing is written then.
    pub fn queue(&self, edit: Edit) -> Pending {
        self.0.write(Box::new(move |c| {
            Box::pin(async move { apply(c, &edit).await })
        }))
    }

    /// A game and its moves in order, if it exists.
    pub async fn load(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<String>)>> {
        let id = id.to_string();
        transaction!(self.read, |c| {
            let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
            let Some(game) = c.row(&sql, &args![&id]).await? else {
                return Ok(None);
            };
            let moves = "SELECT mv FROM moves WHERE game = $1 ORDER BY ply";
            Ok(Some((game, c.rows(moves, &args![&id]).await?)))
        })
        .await
    }

    /// A game's version as stored ([`StoreError::NotFound`] if there is no such game).
    pub async fn version_of(&self, id: &str) -> StoreResult<i64> {
        let sql = "SELECT version FROM games WHERE id = $1";
        let version = self.select_one(sql, args![id]).await?;
        version.ok_or(StoreError::NotFound)
    }

    /// Links a game to its rematch, both ways (both links or neither), moving both games'
    /// versions up; or, if the game has a rematch already (another instance linked one
    /// first), nothing: then `false`.
    pub async fn link_rematch(&self, old: &str, new: &str) -> StoreResult<bool> {
        let (old, new) = (old.to_string(), new.to_string());
        let linked = transaction!(self.write, |c| {
            // The second of two instances linking at once waits for the first's row
            // lock, then finds the link made.
            let links = [
                (&old, "rematch", &new, "AND rematch IS NULL"),
                (&new, "rematch_of", &old, ""),
            ];
            for (id, column, other, unlinked) in links {
                let link = format!(
                    "UPDATE games SET {column} = $2, version = version + 1
                     WHERE id = $1 {unlinked} RETURNING version"
                );
                let Some(version) = c.row(&link, &args![id, other]).await? else {
                    // Rolls the links back: none is made.
                    return Err(StoreError::Stale);
                };
                c.changed(id, version);
            }
            Ok(())
        })
        .await;
        stale_is_false(linked)
    }

    /// Gives a human side that waited for it its token, keeping its hash, and moves the
    /// game's version up; `false` if the side has one.
    pub async fn set_token(&self, id: &str, side: Color, hash: &str) -> StoreResult<bool> {
        let column = token_column(side);
        let sql = format!(
            "UPDATE games SET {column} = $2, version = version + 1
             WHERE id = $1 AND {column} IS NULL RETURNING version"
        );
        self.update_game(id, sql, args![id, hash].to_vec()).await
    }

    /// Runs `sql`, a change of game `id` that returns its new version: `false` if it
    /// changed no row; else the new version is told to the other instances.
    pub(super) async fn update_game(
        &self,
        id: &str,
        sql: String,
        values: Vec<Value>,
    ) -> StoreResult<bool> {
        let id = id.to_string();
        transaction!(self.write, |c| {
            let Some(version) = c.row(&sql, &values).await? else {
                return Ok(false);
            };
            c.changed(&id, version);
            Ok(true)
        })
        .await
    }

    /// The games whose clock's deadline is at or before `now_ms` (game time), soonest
    /// first, at most `limit`.
    pub async fn overdue(&self, now_ms: i64, limit: usize) -> StoreResult<Vec<String>> {
        let sql = "SELECT id FROM games WHERE deadline_ms <= $1 ORDER BY deadline_ms LIMIT $2";
        self.select(sql, args![now_ms, limit]).await
    }

    /// Starts an instance at `wall_ms` (the wall clock): if no instance has said it was
    /// alive for more than `gap_ms`, the time since the last did is added to the time no
    /// instance ran, which is returned (game time is the wall clock less it).
    pub async fn wake(&self, wall_ms: i64, gap_ms: i64) -> StoreResult<i64> {
        transaction!(self.write, |c| {
            c.execute(
                "INSERT INTO lgame_alive (id, alive_ms, downtime_ms) VALUES (1, $1, 0)
                 ON CONFLICT DO NOTHING",
                &args![wall_ms],
            )
            .await?;
            // The row locked: instances starting together take turns.
            let lock = "UPDATE lgame_alive SET alive_ms = alive_ms WHERE id = 1
                     RETURNING alive_ms, downtime_ms";
            let (alive, mut down): (i64, i64) = FromRow::from_row(&c.query_one(lock, &[]).await?)?;
            if wall_ms - alive > gap_ms {
                down += wall_ms - alive;
            }
            c.execute(
                "UPDATE lgame_alive SET downtime_ms = $2,
                     alive_ms = CASE WHEN alive_ms > $1 THEN alive_ms ELSE $1 END",
                &args![wall_ms, down],
            )
            .await?;
            Ok(down)
        })
        .await
    }

    /// An instance is alive at `wall_ms`.
    pub async fn keep_alive(&self, wall_ms: i64) -> StoreResult<()> {
        let alive = "UPDATE lgame_alive
             SET alive_ms = CASE WHEN alive_ms > $1 THEN alive_ms ELSE $1 END";
        self.run(alive, args![wall_ms]).await.map(drop)
    }
}

/// An operation that answered [`StoreError::Stale`] to have its transaction rolled back,
/// as `false`.
pub(crate) fn stale_is_false(done: StoreResult<()>) -> StoreResult<bool> {
    match done {
        Ok(()) => Ok(true),
        Err(StoreError::Stale) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Writes an edit: moves the game's version one up and writes the standing requests if it
/// is still at the edit's version (else [`StoreError::Stale`]), then makes the change.
async fn apply(c: &mut dyn Conn, edit: &Edit) -> StoreResult<()> {
    let id = &edit.id;
    let Requests {
        draw_offer,
        undo_request,
    } = edit.requests;
    let moved = c
        .execute(
            "UPDATE games SET version = version + 1, draw_offer = $3, undo_request = $4,
                              outcome = $5, clock = $6, deadline_ms = $7
             WHERE id = $1 AND version = $2",
            &args![
                id,
                edit.version,
                draw_offer,
                undo_request,
                &edit.outcome,
                &edit.clock.clocks,
                edit.clock.deadline_ms,
            ],
        )
        .await?;
    if moved != 1 {
        return Err(StoreError::Stale);
    }
    match &edit.change {
        StoredChange::Append { first, moves } => insert_moves(c, id, *first, moves).await?,
        StoredChange::Truncate { keep } => {
            c.execute(
                "DELETE FROM moves WHERE game = $1 AND ply > $2",
                &args![id, *keep],
            )
            .await?;
        }
        StoredChange::End {
            termination,
            result,
        } => {
            c.execute(
                "UPDATE games SET termination = $2, result = $3 WHERE id = $1",
                &args![id, termination, result],
            )
            .await?;
        }
        StoredChange::Requests => {}
    }
    ratings::rate_end(c, id, edit.outcome, edit.at_ms).await?;
    let ended = matches!(edit.change, StoredChange::End { .. });
    bots::note_end(c, id, edit.outcome, ended, edit.at_ms).await?;
    c.changed(id, edit.version + 1);
    Ok(())
}

pub(super) async fn insert_moves(
    c: &mut dyn Conn,
    id: &str,
    first_ply: usize,
    moves: &[String],
) -> StoreResult<()> {
    for (i, mv) in moves.iter().enumerate() {
        c.execute(
            "INSERT INTO moves (game, ply, mv) VALUES ($1, $2, $3)",
            &args![id, first_ply + i, mv],
        )
        .await?;
    }
    Ok(())
}
