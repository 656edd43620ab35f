//! Arena tournaments' rows: the arenas, who joined each, and the games each paired, and
//! the arenas' queries over the store (their tables: `store/schema.rs`).
//!
//! Nothing of a score is stored: the results and the ply counts are read from `games` and
//! `moves`, and scored by `arena::Sheet`, so an instance stopped mid-arena loses no point.
//! Times are the server's (`clock::TimeSource`), in milliseconds.

use crate::clock::TimeControl;
use crate::store::sql::{args, Conn, Dialect, FromRow, Row};
use crate::store::{transaction, Store, StoreResult};
use lgame::game::{ResultToken, Termination};

/// A stored arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaRow {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    /// The time control (JSON in the database).
    pub clock: TimeControl,
    pub minutes: i64,
    /// A rated arena's category (`ratings::category`); `None`: casual.
    pub category: Option<String>,
    pub starts_at: i64,
    pub ends_at: i64,
    /// The account that made it, and its username (read, never written); `None` once that
    /// account is closed.
    pub creator: Option<i64>,
    pub creator_name: Option<String>,
    pub created_ms: i64,
    /// How many joined (read, never written).
    pub players: i64,
    /// How many of its games are not over (read, never written).
    pub unfinished: i64,
}

/// A player who joined an arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaPlayer {
    pub user_id: i64,
    pub username: String,
    /// When they last joined.
    pub joined_ms: i64,
    /// When they left, if they did (and have not joined again).
    pub left_ms: Option<i64>,
}

/// A game an arena paired, and what `games` and `moves` say of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaGame {
    pub game: String,
    /// The accounts playing Red and Blue.
    pub players: [i64; 2],
    /// The order it was made in (1 for the arena's first).
    pub seq: i64,
    pub made_ms: i64,
    /// When a pairing first saw it over.
    pub ended_ms: Option<i64>,
    /// Its result token (`None`: the game is not stored, or not yet).
    pub outcome: Option<ResultToken>,
    /// An end declared off the board (aborted, resignation, …).
    pub termination: Option<Termination>,
    pub plies: i64,
}

/// An arena with its players and its games, in the order made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaData {
    pub arena: ArenaRow,
    pub players: Vec<ArenaPlayer>,
    pub games: Vec<ArenaGame>,
}

/// A pairing to store: the new game's id and its Red and Blue accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    pub game: String,
    pub players: [i64; 2],
}

/// Chooses the pairings of an arena as the transaction read it (`arena::pairings`).
pub type Chooser = Box<dyn FnOnce(&ArenaData) -> Vec<Pairing> + Send>;

/// How long a pairing whose game is not stored yet counts as a game in progress: longer,
/// and its game was never made (its instance stopped), so its players wait again.
pub const MAKING_MS: i64 = 10_000;

/// A game not over: stored without a result or a declared end, or not stored yet and
/// paired less than [`MAKING_MS`] ago (`$1` now).
const UNFINISHED: &str = "(SELECT count(*) FROM arena_games ag LEFT JOIN games g ON g.id = ag.game
      WHERE ag.arena = a.id AND ((g.id IS NULL AND ag.made_ms + 10000 > $1)
        OR (g.outcome = '*' AND g.termination IS NULL)))";

/// An arena's columns, in [`ArenaRow`]'s order (`$1` now).
fn columns() -> String {
    format!(
        "a.id, a.variant, a.clock, a.minutes, a.category, a.starts_at, a.ends_at, a.creator,
        u.username, a.created_ms,
        (SELECT count(*) FROM arena_players p WHERE p.arena = a.id), {UNFINISHED}"
    )
}

/// Arena `$2` (`$1` now); `lock`: its row locked for the transaction (PostgreSQL's way:
/// SQLite's one writer pairs one arena at a time).
fn arena_sql(lock: bool) -> String {
    let locked = if lock { " FOR UPDATE OF a" } else { "" };
    format!(
        "SELECT {} FROM arenas a LEFT JOIN users u ON u.id = a.creator WHERE a.id = $2{locked}",
        columns()
    )
}

/// The list (`$1` now, `$2` the most).
fn arenas_sql() -> String {
    format!(
        "SELECT {} FROM arenas a LEFT JOIN users u ON u.id = a.creator
         ORDER BY CASE WHEN a.ends_at > $1 OR {UNFINISHED} > 0 THEN 0 ELSE 1 END,
           CASE WHEN a.ends_at > $1 OR {UNFINISHED} > 0 THEN a.starts_at ELSE -a.ends_at END,
           a.id
         LIMIT $2",
        columns()
    )
}

/// The arenas running at `$1`, and those with a stored game not yet seen over (after its
/// end, their last games' ends are still marked).
const RUNNING: &str = "SELECT id FROM arenas WHERE starts_at <= $1 AND ends_at > $1
     UNION SELECT ag.arena FROM arena_games ag JOIN games g ON g.id = ag.game
     WHERE ag.ended_ms IS NULL
     ORDER BY 1";

const ARENAS_OF: &str = "SELECT arena, joined_ms, left_ms FROM arena_players
     WHERE user_id = $1 ORDER BY joined_ms DESC, arena";

const PLAYERS: &str = "SELECT p.user_id, u.username, p.joined_ms, p.left_ms
     FROM arena_players p JOIN users u ON u.id = p.user_id
     WHERE p.arena = $1 ORDER BY p.user_id";

const GAMES: &str = "SELECT ag.game, ag.red, ag.blue, ag.seq, ag.made_ms, ag.ended_ms,
        g.outcome, g.termination, (SELECT count(*) FROM moves m WHERE m.game = ag.game)
     FROM arena_games ag LEFT JOIN games g ON g.id = ag.game
     WHERE ag.arena = $1 ORDER BY ag.seq";

const INSERT: &str = "INSERT INTO arenas (id, variant, clock, minutes, category,
        starts_at, ends_at, creator, created_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// Account `$2` joins arena `$1` at `$3`.
const JOIN: &str = "INSERT INTO arena_players (arena, user_id, joined_ms)
     VALUES ($1, $2, $3)
     ON CONFLICT (arena, user_id) DO UPDATE SET joined_ms = excluded.joined_ms, left_ms = NULL";

const LEAVE: &str = "UPDATE arena_players SET left_ms = $3 WHERE arena = $1 AND user_id = $2";

/// Arena `$1`'s games seen over for the first time at `$2` (a result, or a declared end: an
/// abort has no result), marked so.
const ENDED: &str = "UPDATE arena_games SET ended_ms = $2 WHERE arena = $1 AND ended_ms IS NULL
       AND game IN (SELECT id FROM games WHERE outcome <> '*' OR termination IS NOT NULL)
     RETURNING game";

const INSERT_GAME: &str = "INSERT INTO arena_games (game, arena, red, blue, seq,
        made_ms)
     VALUES ($1, $2, $3, $4, $5, $6)";

impl FromRow for ArenaRow {
    fn from_row(r: &Row) -> StoreResult<ArenaRow> {
        Ok(ArenaRow {
            id: r.get(0)?,
            variant: r.get(1)?,
            clock: r.get(2)?,
            minutes: r.get(3)?,
            category: r.get(4)?,
            starts_at: r.get(5)?,
            ends_at: r.get(6)?,
            creator: r.get(7)?,
            creator_name: r.get(8)?,
            created_ms: r.get(9)?,
            players: r.get(10)?,
            unfinished: r.get(11)?,
        })
    }
}

impl FromRow for ArenaPlayer {
    fn from_row(r: &Row) -> StoreResult<ArenaPlayer> {
        Ok(ArenaPlayer {
            user_id: r.get(0)?,
            username: r.get(1)?,
            joined_ms: r.get(2)?,
            left_ms: r.get(3)?,
        })
    }
}

impl FromRow for ArenaGame {
    fn from_row(r: &Row) -> StoreResult<ArenaGame> {
        Ok(ArenaGame {
            game: r.get(0)?,
            players: [r.get(1)?, r.get(2)?],
            seq: r.get(3)?,
            made_ms: r.get(4)?,
            ended_ms: r.get(5)?,
            outcome: r.get(6)?,
            termination: r.get(7)?,
            plies: r.get(8)?,
        })
    }
}

/// Arena `id` as the transaction reads it; `lock`: its row locked until the end of it.
async fn load(
    c: &mut dyn Conn,
    id: &str,
    now_ms: i64,
    lock: bool,
) -> StoreResult<Option<ArenaData>> {
    let lock = lock && c.dialect() == Dialect::Postgres;
    let Some(arena) = c.row(&arena_sql(lock), &args![now_ms, id]).await? else {
        return Ok(None);
    };
    Ok(Some(ArenaData {
        arena,
        players: c.rows(PLAYERS, &args![id]).await?,
        games: c.rows(GAMES, &args![id]).await?,
    }))
}

/// What the store keeps of the arenas.
impl Store {
    pub async fn insert_arena(&self, arena: &ArenaRow) -> StoreResult<()> {
        let a = arena;
        let row = args![
            &a.id,
            &a.variant,
            &a.clock,
            a.minutes,
            &a.category,
            a.starts_at,
            a.ends_at,
            a.creator,
            a.created_ms
        ];
        self.run(INSERT, row).await.map(drop)
    }

    /// An arena, its players and its games.
    pub async fn arena(&self, id: &str, now_ms: i64) -> StoreResult<Option<ArenaData>> {
        let id = id.to_string();
        transaction!(self.read, |c| { load(c, &id, now_ms, false).await }).await
    }

    /// Arenas upcoming or running first (the soonest start first), then the finished (the
    /// latest end first), at most `limit`.
    pub async fn arenas(&self, now_ms: i64, limit: i64) -> StoreResult<Vec<ArenaRow>> {
        self.select(arenas_sql(), args![now_ms, limit]).await
    }

    /// The arenas to pair at `now_ms`: those running (started, not ended), and those with
    /// a game not yet seen over.
    pub async fn running_arenas(&self, now_ms: i64) -> StoreResult<Vec<String>> {
        self.select(RUNNING, args![now_ms]).await
    }

    /// The arenas account `user` joined, the newest first: arena, when it last joined, when
    /// it left (for its export).
    pub async fn arenas_of(&self, user: i64) -> StoreResult<Vec<(String, i64, Option<i64>)>> {
        self.select(ARENAS_OF, args![user]).await
    }

    /// Account `user` joins arena `id` (again, if it left).
    pub async fn join_arena(&self, id: &str, user: i64, now_ms: i64) -> StoreResult<()> {
        self.run(JOIN, args![id, user, now_ms]).await.map(drop)
    }

    /// Account `user` leaves arena `id`: `false` if it had not joined.
    pub async fn leave_arena(&self, id: &str, user: i64, now_ms: i64) -> StoreResult<bool> {
        Ok(self.run(LEAVE, args![id, user, now_ms]).await? == 1)
    }

    /// One pairing of arena `id`, in one transaction that holds the arena (on PostgreSQL,
    /// its row locked: whichever instances pair at once, one at a time reads who is
    /// waiting, so a player is paired once): the games seen over for the first time are
    /// marked so, then `choose` is given the arena as read and its pairings stored.
    /// Answers them.
    pub async fn pair_arena(
        &self,
        id: &str,
        now_ms: i64,
        choose: Chooser,
    ) -> StoreResult<Vec<Pairing>> {
        let id = id.to_string();
        transaction!(self.write, |c| {
            let Some(mut data) = load(c, &id, now_ms, true).await? else {
                return Ok(Vec::new());
            };
            let seen_over: Vec<String> = c.rows(ENDED, &args![&id, now_ms]).await?;
            for game in data
                .games
                .iter_mut()
                .filter(|g| seen_over.contains(&g.game))
            {
                game.ended_ms = Some(now_ms);
            }
            let pairings = choose(&data);
            let mut seq = data.games.iter().map(|g| g.seq).max().unwrap_or(0);
            for p in &pairings {
                seq += 1;
                let row = args![&p.game, &id, p.players[0], p.players[1], seq, now_ms];
                c.execute(INSERT_GAME, &row).await?;
            }
            Ok(pairings)
        })
        .await
    }
}
