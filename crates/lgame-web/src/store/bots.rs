//! Bots' rows (`bots.rs`): which accounts are bots, their API tokens, challenges, and the
//! log of each bot's events, and what the store does with them.
//!
//! A bot's events are a log with increasing ids, written in the transaction that makes
//! what they tell (a challenge, a game stored, a result stored), so that a stream resumed
//! after its last id misses none and repeats none. On PostgreSQL the bot's row is locked
//! first, so that one bot's events commit in the order of their ids.

use lgame::game::ResultToken;
use lgame::Color;

use super::sql::{args, Conn, Dialect, FromRow, Row};
use super::{ColorChoice, Holder, Store, StoreResult, User};
use crate::clock::TimeControl;

/// The bots' tables: `$id` is each backend's column of increasing ids, `$flag` and `$int`
/// its types of the new columns of `users` (a STRICT table in SQLite, which knows no
/// BOOLEAN or BIGINT).
macro_rules! bots_schema {
    ($id:literal, $flag:literal, $int:literal) => {
        concat!(
            "ALTER TABLE users ADD COLUMN bot ",
            $flag,
            " NOT NULL DEFAULT FALSE;
    ALTER TABLE users ADD COLUMN level TEXT;       -- the server's computer level it plays
    ALTER TABLE users ADD COLUMN seen_ms ",
            $int,
            ";   -- its event stream was last open then
    CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL REFERENCES users(id),
        hash TEXT NOT NULL UNIQUE,                 -- SHA-256 of the token, never the token
        description TEXT,
        created_ms BIGINT NOT NULL
    );
    CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        challenger TEXT NOT NULL,                  -- a holder: u:ID or a:HASH
        dest BIGINT NOT NULL REFERENCES users(id),
        variant TEXT NOT NULL,                     -- the catalog's name
        clock TEXT,                                -- JSON: the time control (null: untimed)
        category TEXT,                             -- rated: its category
        color TEXT NOT NULL,                       -- the challenger's: red, blue, random
        state TEXT NOT NULL,                       -- pending, accepted, declined, canceled
        reason TEXT,                               -- why declined
        game TEXT,                                 -- once accepted
        challenger_side TEXT,                      -- once accepted: red or blue
        created_ms BIGINT NOT NULL
    );
    CREATE INDEX challenges_by_dest ON challenges (dest, state);
    CREATE TABLE bot_events (
        id ",
            $id,
            ",
        user_id BIGINT NOT NULL REFERENCES users(id),
        kind TEXT NOT NULL,                        -- challenge, challengeCanceled, gameStart, gameFinish
        ref TEXT NOT NULL,                         -- the challenge's or the game's id
        created_ms BIGINT NOT NULL
    );
    CREATE UNIQUE INDEX bot_events_once ON bot_events (user_id, kind, ref);
    CREATE INDEX bot_events_by_user ON bot_events (user_id, id);"
        )
    };
}

/// The SQLite schema: `INTEGER PRIMARY KEY` is the row id, one more than the largest.
pub(super) const SCHEMA_SQLITE: &str = bots_schema!("INTEGER PRIMARY KEY", "INTEGER", "INTEGER");
/// The PostgreSQL schema.
pub(super) const SCHEMA_POSTGRES: &str = bots_schema!(
    "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "BOOLEAN",
    "BIGINT"
);

/// A bot account, as the list of bots shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotRow {
    pub id: i64,
    pub username: String,
    /// The server's computer level it plays (`None`: a program plays it, through the API).
    pub level: Option<String>,
    /// When its event stream was last open (the server's wall clock, in milliseconds).
    pub seen_ms: Option<i64>,
}

/// An API token, without the token (only its hash is kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub id: String,
    pub user_id: i64,
    pub hash: String,
    pub description: Option<String>,
    pub created_ms: i64,
}

/// A challenge to an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    /// Who challenges: an account or a browser.
    pub challenger: Holder,
    /// The challenger's username (read, never written; `None` for a browser).
    pub challenger_name: Option<String>,
    /// The account challenged, and its username (read, never written).
    pub dest: i64,
    pub dest_name: String,
    /// The variant's catalog name.
    pub variant: String,
    /// The time control (JSON in the database); `None`: untimed.
    pub clock: Option<TimeControl>,
    /// A rated challenge's category; `None`: casual.
    pub category: Option<String>,
    /// The challenger's colour.
    pub color: ColorChoice,
    pub state: ChallengeState,
    /// Why it was declined.
    pub reason: Option<DeclineReason>,
    /// Once accepted: the game, and the challenger's side in it.
    pub game: Option<String>,
    pub challenger_side: Option<Color>,
    pub created_ms: i64,
}

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeState {
    Pending,
    Accepted,
    Declined,
    /// Withdrawn by the challenger, or expired unanswered.
    Canceled,
}

stored_names!(ChallengeState {
    Pending = "pending",
    Accepted = "accepted",
    Declined = "declined",
    Canceled = "canceled",
});

/// The reasons a bot may give for declining, as lichess's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclineReason {
    Generic,
    Later,
    TooFast,
    TooSlow,
    TimeControl,
    Rated,
    Casual,
    Variant,
    TooManyGames,
}

stored_names!(DeclineReason {
    Generic = "generic",
    Later = "later",
    TooFast = "too_fast",
    TooSlow = "too_slow",
    TimeControl = "time_control",
    Rated = "rated",
    Casual = "casual",
    Variant = "variant",
    TooManyGames = "too_many_games",
});

impl DeclineReason {
    /// All of them, in the order a refusal lists them.
    pub const ALL: [DeclineReason; 9] = [
        DeclineReason::Generic,
        DeclineReason::Later,
        DeclineReason::TooFast,
        DeclineReason::TooSlow,
        DeclineReason::TimeControl,
        DeclineReason::Rated,
        DeclineReason::Casual,
        DeclineReason::Variant,
        DeclineReason::TooManyGames,
    ];
}

/// How a pending challenge ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settle {
    pub state: ChallengeState,
    pub reason: Option<DeclineReason>,
    pub game: Option<String>,
    pub challenger_side: Option<Color>,
}

impl Settle {
    /// A challenge withdrawn by its challenger, or unanswered too long.
    pub fn canceled() -> Settle {
        Settle {
            state: ChallengeState::Canceled,
            reason: None,
            game: None,
            challenger_side: None,
        }
    }
}

/// One of a bot's events: its id in the log, its kind and the challenge's or game's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub id: i64,
    pub kind: EventKind,
    pub subject: String,
}

/// What a bot's event tells: a challenge made or withdrawn (its subject the challenge), a
/// game started or finished (its subject the game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Challenge,
    ChallengeCanceled,
    GameStart,
    GameFinish,
}

stored_names!(EventKind {
    Challenge = "challenge",
    ChallengeCanceled = "challengeCanceled",
    GameStart = "gameStart",
    GameFinish = "gameFinish",
});

const MAKE_BOT: &str = "UPDATE users SET bot = TRUE WHERE id = $1 AND NOT EXISTS
     (SELECT 1 FROM games WHERE red_holder = 'u:' || CAST($1 AS BIGINT)
                             OR blue_holder = 'u:' || CAST($1 AS BIGINT))";

const LEVEL_BOT: &str = "SELECT id FROM users WHERE level = $1";

const INSERT_LEVEL_BOT: &str = concat!(
    "INSERT INTO users (username, username_key, password_hash, email, created, bot, level,
                        username_fold)
     VALUES ($1, $2, '!', NULL, $3, TRUE, $4, ",
    super::fairplay::fold_sql!("$1"),
    ") ON CONFLICT (username_key) DO NOTHING RETURNING id"
);

const BOTS: &str = "SELECT id, username, level, seen_ms FROM users
     WHERE bot AND NOT disabled ORDER BY level IS NULL, username_key";

const BOT_SEEN: &str = "UPDATE users SET seen_ms = $2 WHERE id = $1";

const INSERT_TOKEN: &str =
    "INSERT INTO api_tokens (id, user_id, hash, description, created_ms) VALUES ($1, $2, $3, $4, $5)";

const TOKENS_OF: &str = "SELECT id, user_id, hash, description, created_ms
     FROM api_tokens WHERE user_id = $1 ORDER BY created_ms, id";

const DELETE_TOKEN: &str = "DELETE FROM api_tokens WHERE user_id = $1 AND id = $2";

const TOKEN_USER: &str = "SELECT u.id, u.username, u.password_hash, u.email, u.created,
            u.disabled, u.bot
     FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = $1";

const INSERT_CHALLENGE: &str = "INSERT INTO challenges
     (id, challenger, dest, variant, clock, category, color, state, created_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8)";

const CHALLENGE_BY_ID: &str = "SELECT c.id, c.challenger,
        (SELECT username FROM users WHERE 'u:' || id = c.challenger),
        c.dest, u.username, c.variant, c.clock, c.category, c.color, c.state, c.reason, c.game,
        c.challenger_side, c.created_ms
     FROM challenges c JOIN users u ON u.id = c.dest WHERE c.id = $1";

const SETTLE_CHALLENGE: &str = "UPDATE challenges
     SET state = $2, reason = $3, game = $4, challenger_side = $5
     WHERE id = $1 AND state = 'pending' RETURNING dest";

/// A bot's event, once (`$1` the account, kept only if a bot; `$2` kind, `$3` its subject,
/// `$4` now).
const INSERT_EVENT: &str = "INSERT INTO bot_events (user_id, kind, ref, created_ms)
     SELECT id, CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS BIGINT) FROM users
     WHERE id = $1 AND bot
     ON CONFLICT (user_id, kind, ref) DO NOTHING";

/// The bots holding a seat of game `$1`, in id order.
const GAME_BOTS: &str = "SELECT u.id FROM games g JOIN users u
       ON u.bot AND (g.red_holder = 'u:' || u.id OR g.blue_holder = 'u:' || u.id)
     WHERE g.id = $1 ORDER BY u.id";

const EVENTS_SINCE: &str = "SELECT id, kind, ref FROM bot_events
     WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3";

/// What still stands for a bot: pending challenges, games neither over nor ended.
const EVENTS_STANDING: &str = "SELECT e.id, e.kind, e.ref FROM bot_events e
     WHERE e.user_id = $1 AND e.id <= $2 AND (
        (e.kind = 'challenge' AND EXISTS
            (SELECT 1 FROM challenges c WHERE c.id = e.ref AND c.state = 'pending'))
        OR (e.kind = 'gameStart' AND EXISTS
            (SELECT 1 FROM games g WHERE g.id = e.ref AND g.outcome = '*'
                                     AND g.termination IS NULL)))
     ORDER BY e.id LIMIT $3";

const LAST_EVENT: &str = "SELECT COALESCE(MAX(id), 0) FROM bot_events WHERE user_id = $1";

/// The statements that erase an account's bot rows when it is closed (before its row).
pub(super) const DELETE_BOT_ROWS: [&str; 3] = [
    "DELETE FROM api_tokens WHERE user_id = $1",
    "DELETE FROM bot_events WHERE user_id = $1",
    "DELETE FROM challenges WHERE dest = $1 OR challenger = 'u:' || CAST($1 AS BIGINT)",
];

impl FromRow for ChallengeRow {
    fn from_row(r: &Row) -> StoreResult<ChallengeRow> {
        Ok(ChallengeRow {
            id: r.get(0)?,
            challenger: r.get(1)?,
            challenger_name: r.get(2)?,
            dest: r.get(3)?,
            dest_name: r.get(4)?,
            variant: r.get(5)?,
            clock: r.get(6)?,
            category: r.get(7)?,
            color: r.get(8)?,
            state: r.get(9)?,
            reason: r.get(10)?,
            game: r.get(11)?,
            challenger_side: r.get(12)?,
            created_ms: r.get(13)?,
        })
    }
}

impl FromRow for EventRow {
    fn from_row(r: &Row) -> StoreResult<EventRow> {
        let (id, kind, subject) = FromRow::from_row(r)?;
        Ok(EventRow { id, kind, subject })
    }
}

impl FromRow for BotRow {
    fn from_row(r: &Row) -> StoreResult<BotRow> {
        Ok(BotRow {
            id: r.get(0)?,
            username: r.get(1)?,
            level: r.get(2)?,
            seen_ms: r.get(3)?,
        })
    }
}

impl FromRow for TokenRow {
    fn from_row(r: &Row) -> StoreResult<TokenRow> {
        Ok(TokenRow {
            id: r.get(0)?,
            user_id: r.get(1)?,
            hash: r.get(2)?,
            description: r.get(3)?,
            created_ms: r.get(4)?,
        })
    }
}

/// Writes bot `user`'s event (nothing if the account is no bot, or has this event). On
/// PostgreSQL the bot's row is locked first, so that whichever instances write one bot's
/// events at once, they commit in the order of their ids and a stream resumed after an id
/// misses none (SQLite's one writer writes them in order).
async fn insert_event(
    c: &mut dyn Conn,
    user: i64,
    kind: EventKind,
    subject: &str,
    now_ms: i64,
) -> StoreResult<()> {
    if c.dialect() == Dialect::Postgres {
        c.query(
            "SELECT id FROM users WHERE id = $1 FOR UPDATE",
            &args![user],
        )
        .await?;
    }
    c.execute(INSERT_EVENT, &args![user, kind, subject, now_ms])
        .await?;
    Ok(())
}

/// The `gameStart` events of a game's bots, once it is stored (at `now_ms`).
pub(super) async fn note_start(
    c: &mut dyn Conn,
    game: &str,
    holders: &[Option<Holder>; 2],
    now_ms: i64,
) -> StoreResult<()> {
    let mut users: Vec<i64> = holders
        .iter()
        .flatten()
        .filter_map(Holder::account)
        .collect();
    // Locked in one order by every instance.
    users.sort_unstable();
    for user in users {
        insert_event(c, user, EventKind::GameStart, game, now_ms).await?;
    }
    Ok(())
}

/// The `gameFinish` events of a game's bots, once its result is stored (once each, at
/// `now_ms`).
pub(super) async fn note_end(
    c: &mut dyn Conn,
    game: &str,
    outcome: ResultToken,
    ended: bool,
    now_ms: i64,
) -> StoreResult<()> {
    if outcome == ResultToken::Unfinished && !ended {
        return Ok(());
    }
    let bots: Vec<i64> = c.rows(GAME_BOTS, &args![game]).await?;
    for bot in bots {
        insert_event(c, bot, EventKind::GameFinish, game, now_ms).await?;
    }
    Ok(())
}

/// What the store keeps for bots.
impl Store {
    /// Makes account `id` a bot, if it holds a seat in no game: `false` otherwise.
    pub async fn make_bot(&self, id: i64) -> StoreResult<bool> {
        Ok(self.run(MAKE_BOT, args![id]).await? == 1)
    }

    /// The account that plays the server's computer level `level`: made (a bot with no
    /// password, named `username`, at `now_s` in Unix seconds) if there is none; `None` if
    /// that name is taken.
    pub async fn level_bot(
        &self,
        level: &str,
        username: &str,
        now_s: i64,
    ) -> StoreResult<Option<i64>> {
        let (level, username) = (level.to_string(), username.to_string());
        transaction!(self.write, |c| {
            if let Some(found) = c.row(LEVEL_BOT, &args![&level]).await? {
                return Ok(Some(found));
            }
            let key = username.to_lowercase();
            c.row(INSERT_LEVEL_BOT, &args![&username, key, now_s, &level])
                .await
        })
        .await
    }

    /// Every bot account not disabled: the server's levels first, then by name.
    pub async fn bots(&self) -> StoreResult<Vec<BotRow>> {
        self.select(BOTS, []).await
    }

    /// Notes that bot `id`'s event stream is open at `now_ms`.
    pub async fn bot_seen(&self, id: i64, now_ms: i64) -> StoreResult<()> {
        self.run(BOT_SEEN, args![id, now_ms]).await.map(drop)
    }

    /// Stores a new API token (its hash).
    pub async fn insert_token(&self, token: &TokenRow) -> StoreResult<()> {
        let t = token;
        let row = args![&t.id, t.user_id, &t.hash, &t.description, t.created_ms];
        self.run(INSERT_TOKEN, row).await.map(drop)
    }

    /// An account's tokens, oldest first.
    pub async fn tokens_of(&self, user: i64) -> StoreResult<Vec<TokenRow>> {
        self.select(TOKENS_OF, args![user]).await
    }

    /// Revokes token `id` of account `user`: `false` if it has no such token.
    pub async fn delete_token(&self, user: i64, id: &str) -> StoreResult<bool> {
        Ok(self.run(DELETE_TOKEN, args![user, id]).await? == 1)
    }

    /// The account of the token whose hash is `hash`, if any.
    pub async fn token_user(&self, hash: &str) -> StoreResult<Option<User>> {
        self.select_one(TOKEN_USER, args![hash]).await
    }

    /// Stores a new (pending) challenge, and the challenged bot's `challenge` event.
    pub async fn insert_challenge(&self, challenge: &ChallengeRow, now_ms: i64) -> StoreResult<()> {
        let ch = challenge.clone();
        transaction!(self.write, |c| {
            let row = args![
                &ch.id,
                &ch.challenger,
                ch.dest,
                &ch.variant,
                &ch.clock,
                &ch.category,
                ch.color,
                ch.created_ms
            ];
            c.execute(INSERT_CHALLENGE, &row).await?;
            insert_event(c, ch.dest, EventKind::Challenge, &ch.id, now_ms).await
        })
        .await
    }

    /// Challenge `id`, if any.
    pub async fn challenge(&self, id: &str) -> StoreResult<Option<ChallengeRow>> {
        self.select_one(CHALLENGE_BY_ID, args![id]).await
    }

    /// Ends pending challenge `id` as `settle` says (a cancel tells the challenged bot):
    /// `false` if it was no longer pending (two answers at once: one wins).
    pub async fn settle_challenge(
        &self,
        id: &str,
        settle: &Settle,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let (id, s) = (id.to_string(), settle.clone());
        transaction!(self.write, |c| {
            let how = args![&id, s.state, s.reason, &s.game, s.challenger_side];
            let Some(settled) = c.query_opt(SETTLE_CHALLENGE, &how).await? else {
                return Ok(false);
            };
            if s.state == ChallengeState::Canceled {
                let dest = settled.get(0)?;
                insert_event(c, dest, EventKind::ChallengeCanceled, &id, now_ms).await?;
            }
            Ok(true)
        })
        .await
    }

    /// Bot `user`'s events after `since`, oldest first, at most `limit`; with no `since`,
    /// those that still stand (pending challenges, games not over) and the last id.
    pub async fn events(
        &self,
        user: i64,
        since: Option<i64>,
        limit: i64,
    ) -> StoreResult<(Vec<EventRow>, i64)> {
        transaction!(self.read, |c| {
            let last: i64 = c.query_one(LAST_EVENT, &args![user]).await?.get(0)?;
            let events = match since {
                Some(since) => c.rows(EVENTS_SINCE, &args![user, since, limit]).await?,
                None => c.rows(EVENTS_STANDING, &args![user, last, limit]).await?,
            };
            Ok((events, last))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_names_an_account_only_as_u_and_its_id() {
        let account = |h: &str| h.parse::<Holder>().ok().and_then(|h| h.account());
        assert_eq!(account("u:42"), Some(42));
        assert_eq!(account("a:42"), None);
        assert_eq!(account("u:x"), None);
        for state in [
            ChallengeState::Pending,
            ChallengeState::Accepted,
            ChallengeState::Declined,
            ChallengeState::Canceled,
        ] {
            assert_eq!(ChallengeState::from_name(state.name()).unwrap(), state);
        }
        assert!(ChallengeState::from_name("lost").is_err());
    }
}
