//! Accounts, sessions, and who holds a game's seats: the rows, and what the store does
//! with them.
//!
//! A seat's *holder* is an identity: `u:ID` for an account (its id, never reused), `a:HASH`
//! for a browser without one (the SHA-256 of its anonymous cookie). Games keep holders, so
//! a closed account's games stay, their player shown as deleted. Only hashes of secrets
//! (passwords as Argon2id, session ids, invitations) are stored.

use lgame::game::{ResultToken, Termination};
use lgame::Color;

use super::sql::{args, FromRow, Row};
use super::{Holder, Store, StoreResult};
use crate::clock::Clock;

/// A stored account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub username: String,
    /// An Argon2id PHC string.
    pub password_hash: String,
    pub email: Option<String>,
    /// Unix seconds.
    pub created: i64,
    /// Disabled by an administrator: no log-in, its sessions refused.
    pub disabled: bool,
    /// A bot: a program plays it through the API (`store/bots.rs`).
    pub bot: bool,
}

impl User {
    /// The holder naming this account in games.
    pub fn holder(&self) -> Holder {
        Holder::Account(self.id)
    }
}

/// A new account, as signed up.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub username: String,
    /// The form it is unique by (lower case).
    pub key: String,
    pub password_hash: String,
    pub email: Option<String>,
}

/// A log-in session (its id's hash is its key, never the id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user: i64,
    /// Unix seconds: made, last renewed, ends.
    pub created: i64,
    pub used: i64,
    pub expires: i64,
    /// The browser it was opened in, in the browser's own words (its `User-Agent`, cut
    /// short), and the address it was opened from.
    pub device: Option<String>,
    pub address: Option<String>,
}

/// A session as its account's settings list it: its public id (the first 16 hex digits of
/// its id's hash, which says nothing of the cookie) and the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSession {
    pub id: String,
    pub session: Session,
}

/// The length of a session's public id.
pub const SESSION_ID_LEN: usize = 16;

/// The migration that keeps each session's browser and address.
pub(super) const SESSIONS_DEVICE: &str = "ALTER TABLE sessions ADD COLUMN device TEXT;
    ALTER TABLE sessions ADD COLUMN address TEXT;";

/// An account looked up by id or by its username's key.
#[derive(Debug, Clone, Copy)]
pub enum UserBy<'a> {
    Id(i64),
    Key(&'a str),
}

/// A change to an account.
#[derive(Debug, Clone)]
pub enum UserChange {
    Password(String),
    Disabled(bool),
    /// A new email address (none: removed), unconfirmed until its link is followed.
    Email(Option<String>),
    /// A new username (and its key); refused (`false`) if another account has the key.
    Rename {
        username: String,
        key: String,
    },
}

/// How a listed game ended for the holder the list is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStanding {
    Win,
    Draw,
    Loss,
    Ongoing,
    /// Called off before both sides moved: no result, and not a game played.
    Aborted,
}

stored_names!(GameStanding {
    Win = "win",
    Draw = "draw",
    Loss = "loss",
    Ongoing = "ongoing",
    Aborted = "aborted",
});

/// Which of a holder's games to list, newest first.
#[derive(Debug, Clone)]
pub struct GamesQuery {
    pub holder: Holder,
    pub standing: Option<GameStanding>,
    pub variant: Option<String>,
    /// The other seat's holder.
    pub opponent: Option<Holder>,
    pub limit: i64,
    pub offset: i64,
}

/// A game in a list: enough to show it without loading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub id: String,
    pub variant: Option<String>,
    /// `human`, or the computer's spec.
    pub seats: [String; 2],
    pub holders: [Option<Holder>; 2],
    /// The holders' usernames (none for a browser, or an account closed).
    pub names: [Option<String>; 2],
    /// Whether each holder is a bot (read, never written).
    pub bots: [bool; 2],
    /// The result token: `*` while it goes on (and for an aborted game).
    pub result: ResultToken,
    /// An end declared off the board (aborted, resignation, …).
    pub termination: Option<Termination>,
    pub plies: i64,
    pub created: i64,
    /// Its clocks, if it is timed.
    pub clock: Option<Clock>,
}

const USER_BY_ID: &str = "SELECT id, username, password_hash, email, created, disabled, bot
     FROM users WHERE id = $1";

const USER_BY_KEY: &str = "SELECT id, username, password_hash, email, created, disabled, bot
     FROM users WHERE username_key = $1";

const NEWEST_USERS: &str = "SELECT id, username, password_hash, email, created, disabled, bot
     FROM users ORDER BY id DESC LIMIT $1";

const SESSION: &str = "SELECT s.user_id, s.created, s.used, s.expires,
            s.device, s.address,
            u.id, u.username, u.password_hash, u.email, u.created, u.disabled, u.bot
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1";

/// Where a session row's user columns start in [`SESSION`].
const SESSION_USER_AT: usize = 6;

const INSERT_SESSION: &str = "INSERT INTO sessions
     (id_hash, user_id, created, used, expires, device, address)
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

const RENEW_SESSION: &str = "UPDATE sessions SET used = $2, expires = $3 WHERE id_hash = $1";

const END_SESSION: &str = "DELETE FROM sessions WHERE id_hash = $1";

const INSERT_USER: &str = concat!(
    "INSERT INTO users (username, username_key, password_hash, email, created, username_fold)
     VALUES ($1, $2, $3, $4, $5, ",
    super::fairplay::fold_sql!("$1"),
    ") ON CONFLICT (username_key) DO NOTHING RETURNING id"
);

const DELETE_USER: [&str; 15] = [
    "DELETE FROM sessions WHERE user_id = $1",
    "DELETE FROM mail_codes WHERE user_id = $1",
    "DELETE FROM mail_confirmed WHERE user_id = $1",
    "DELETE FROM push_subscriptions WHERE user_id = $1",
    "DELETE FROM footprints WHERE user_id = $1",
    super::bots::DELETE_BOT_ROWS[0],
    super::bots::DELETE_BOT_ROWS[1],
    super::bots::DELETE_BOT_ROWS[2],
    "DELETE FROM ratings WHERE user_id = $1",
    "DELETE FROM rating_changes WHERE user_id = $1",
    "DELETE FROM arena_players WHERE user_id = $1",
    "UPDATE arenas SET creator = NULL WHERE creator = $1",
    "DELETE FROM seeks WHERE holder = 'u:' || CAST($1 AS BIGINT)",
    "DELETE FROM seekers WHERE holder = 'u:' || CAST($1 AS BIGINT)",
    "DELETE FROM users WHERE id = $1",
];

const END_SESSIONS: &str = "DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2";

const SESSIONS_OF: &str = "SELECT user_id, created, used, expires, device, address,
        substr(id_hash, 1, 16)
     FROM sessions WHERE user_id = $1 ORDER BY used DESC, created DESC";

const END_SESSION_OF: &str =
    "DELETE FROM sessions WHERE user_id = $1 AND substr(id_hash, 1, 16) = $2 RETURNING id_hash";

/// The update of one account column (`$1` the id, `$2` the value).
fn change_sql(change: &UserChange) -> &'static str {
    match change {
        UserChange::Password(_) => "UPDATE users SET password_hash = $2 WHERE id = $1",
        UserChange::Disabled(_) => "UPDATE users SET disabled = $2 WHERE id = $1",
        UserChange::Email(_) => "UPDATE users SET email = $2 WHERE id = $1",
        UserChange::Rename { .. } => {
            concat!(
                "UPDATE users SET username = $2, username_key = $3, username_fold = ",
                super::fairplay::fold_sql!("$2"),
                " WHERE id = $1
             AND NOT EXISTS (SELECT 1 FROM users WHERE username_key = $3 AND id <> $1)"
            )
        }
    }
}

/// A side's holder and invitation columns.
fn seat_columns(side: Color) -> (&'static str, &'static str) {
    match side {
        Color::Red => ("red_holder", "red_invite_hash"),
        Color::Blue => ("blue_holder", "blue_invite_hash"),
    }
}

/// Takes a seat: `$1` the game, `$2` the holder, `$3` the invitation's hash (or null).
/// Returns the new version. The invitation's hash stays: a second person with the link is
/// told the seat is taken.
fn take_seat_sql(side: Color, invited: bool) -> String {
    let (holder, invite) = seat_columns(side);
    let by_invite = if invited {
        format!("AND {invite} = $3")
    } else {
        String::new()
    };
    format!(
        "UPDATE games SET {holder} = $2, version = version + 1
         WHERE id = $1 AND {holder} IS NULL {by_invite} RETURNING version"
    )
}

/// A seat's new invitation: `$1` the game, `$2` its hash. Returns the new version.
fn set_invite_sql(side: Color) -> String {
    let (holder, invite) = seat_columns(side);
    format!(
        "UPDATE games SET {invite} = $2, version = version + 1
         WHERE id = $1 AND {holder} IS NULL RETURNING version"
    )
}

/// Gives a side's seats of `$1` to `$2`; returns the games and their new versions.
fn adopt_sql(side: Color) -> String {
    let (holder, _) = seat_columns(side);
    format!(
        "UPDATE games SET {holder} = $2, version = version + 1
         WHERE {holder} = $1 RETURNING id, version"
    )
}

/// How a game stands for the holder `$1`: its result seen from the holder's first seat.
const STANDING: &str = "CASE WHEN g.termination = 'aborted' THEN 'aborted'
          WHEN g.outcome = '*' THEN 'ongoing'
          WHEN g.outcome = '1/2-1/2' THEN 'draw'
          WHEN (g.outcome = '1-0') = COALESCE(g.red_holder = $1, FALSE) THEN 'win'
          ELSE 'loss' END";

/// The games of holder `$1`, filtered by standing `$2`, variant `$3` and opponent `$4`
/// (each ignored when null).
fn games_where() -> String {
    format!(
        "FROM games g
         WHERE (g.red_holder = $1 OR g.blue_holder = $1)
           AND (CAST($2 AS TEXT) IS NULL OR {STANDING} = $2)
           AND (CAST($3 AS TEXT) IS NULL OR g.variant = $3)
           AND (CAST($4 AS TEXT) IS NULL
                OR (CASE WHEN g.red_holder = $1 THEN g.blue_holder ELSE g.red_holder END) = $4)"
    )
}

/// One page of a holder's games (`$5` at most, after `$6`), newest first, in [`Listed`]'s
/// order.
fn games_page_sql() -> String {
    format!(
        "SELECT g.id, g.variant, g.red, g.blue, g.red_holder, g.blue_holder,
                (SELECT username FROM users WHERE 'u:' || id = g.red_holder),
                (SELECT username FROM users WHERE 'u:' || id = g.blue_holder),
                g.outcome, (SELECT count(*) FROM moves WHERE game = g.id), g.created, g.clock,
                (SELECT bot FROM users WHERE 'u:' || id = g.red_holder),
                (SELECT bot FROM users WHERE 'u:' || id = g.blue_holder), g.termination
         {} ORDER BY g.created DESC, g.id DESC LIMIT $5 OFFSET $6",
        games_where()
    )
}

/// How many of a holder's games match the filters.
fn games_count_sql() -> String {
    format!("SELECT count(*) {}", games_where())
}

/// How many of holder `$1`'s games stand each way.
fn standings_sql() -> String {
    format!(
        "SELECT {STANDING} AS standing, count(*) FROM games g
         WHERE g.red_holder = $1 OR g.blue_holder = $1 GROUP BY standing"
    )
}

/// An account read back, from column `first` on.
fn user_row(r: &Row, first: usize) -> StoreResult<User> {
    Ok(User {
        id: r.get(first)?,
        username: r.get(first + 1)?,
        password_hash: r.get(first + 2)?,
        email: r.get(first + 3)?,
        created: r.get(first + 4)?,
        disabled: r.get(first + 5)?,
        bot: r.get(first + 6)?,
    })
}

impl FromRow for User {
    fn from_row(r: &Row) -> StoreResult<User> {
        user_row(r, 0)
    }
}

fn session_row(r: &Row) -> StoreResult<Session> {
    Ok(Session {
        user: r.get(0)?,
        created: r.get(1)?,
        used: r.get(2)?,
        expires: r.get(3)?,
        device: r.get(4)?,
        address: r.get(5)?,
    })
}

impl FromRow for Listed {
    fn from_row(r: &Row) -> StoreResult<Listed> {
        Ok(Listed {
            id: r.get(0)?,
            variant: r.get(1)?,
            seats: [r.get(2)?, r.get(3)?],
            holders: [r.get(4)?, r.get(5)?],
            names: [r.get(6)?, r.get(7)?],
            result: r.get(8)?,
            plies: r.get(9)?,
            created: r.get(10)?,
            clock: r.get(11)?,
            bots: [
                r.get::<Option<bool>>(12)?.unwrap_or(false),
                r.get::<Option<bool>>(13)?.unwrap_or(false),
            ],
            termination: r.get(14)?,
        })
    }
}

/// What the store keeps of accounts and seats.
impl Store {
    /// A new account's id, made at `now_s` (Unix seconds, the server's time), or `None` if
    /// its key is taken.
    pub async fn create_user(&self, user: &NewUser, now_s: i64) -> StoreResult<Option<i64>> {
        let n = user.clone();
        transaction!(self.write, |c| {
            let row = args![&n.username, &n.key, &n.password_hash, &n.email, now_s];
            c.row(INSERT_USER, &row).await
        })
        .await
    }

    pub async fn user(&self, by: UserBy<'_>) -> StoreResult<Option<User>> {
        let (sql, key) = match by {
            UserBy::Id(id) => (USER_BY_ID, super::sql::Value::from(id)),
            UserBy::Key(key) => (USER_BY_KEY, super::sql::Value::from(key)),
        };
        self.select_one(sql, [key]).await
    }

    /// The `limit` newest accounts, newest first.
    pub async fn newest_users(&self, limit: i64) -> StoreResult<Vec<User>> {
        self.select(NEWEST_USERS, args![limit]).await
    }

    /// `false` if there is no such account (or a rename's key is taken).
    pub async fn change_user(&self, id: i64, change: &UserChange) -> StoreResult<bool> {
        let change = change.clone();
        transaction!(self.write, |c| {
            let sql = change_sql(&change);
            let changed = match &change {
                UserChange::Password(hash) => c.execute(sql, &args![id, hash]).await?,
                UserChange::Disabled(disabled) => c.execute(sql, &args![id, *disabled]).await?,
                UserChange::Email(email) => c.execute(sql, &args![id, email]).await?,
                UserChange::Rename { username, key } => {
                    c.execute(sql, &args![id, username, key]).await?
                }
            };
            Ok(changed == 1)
        })
        .await
    }

    /// Erases an account and its sessions (the games keep its holder, now nameless), and
    /// then the erased rows' bytes from the database's files.
    pub async fn delete_user(&self, id: i64) -> StoreResult<()> {
        transaction!(self.write, |c| {
            for sql in DELETE_USER {
                c.execute(sql, &args![id]).await?;
            }
            Ok(())
        })
        .await?;
        self.0.erase_deleted()
    }

    pub async fn insert_session(&self, id_hash: &str, session: &Session) -> StoreResult<()> {
        let s = session;
        let row = args![id_hash, s.user, s.created, s.used, s.expires, &s.device, &s.address];
        self.run(INSERT_SESSION, row).await.map(drop)
    }

    /// A session by its id's hash, with its account.
    pub async fn session(&self, id_hash: &str) -> StoreResult<Option<(Session, User)>> {
        let id_hash = id_hash.to_string();
        transaction!(self.read, |c| {
            let Some(r) = c.query_opt(SESSION, &args![&id_hash]).await? else {
                return Ok(None);
            };
            Ok(Some((session_row(&r)?, user_row(&r, SESSION_USER_AT)?)))
        })
        .await
    }

    pub async fn renew_session(&self, id_hash: &str, used: i64, expires: i64) -> StoreResult<()> {
        let renewed = args![id_hash, used, expires];
        self.run(RENEW_SESSION, renewed).await.map(drop)
    }

    pub async fn end_session(&self, id_hash: &str) -> StoreResult<()> {
        self.run(END_SESSION, args![id_hash]).await.map(drop)
    }

    /// Ends every session of the account but `keep`'s; how many.
    pub async fn end_sessions(&self, user: i64, keep: Option<&str>) -> StoreResult<u64> {
        self.run(END_SESSIONS, args![user, keep.unwrap_or("")])
            .await
    }

    /// Ends the account's session whose public id is `id` (see [`ListedSession`]): the
    /// ended session's id hash, or `None` if the account has no such session.
    pub async fn end_session_of(&self, user: i64, id: &str) -> StoreResult<Option<String>> {
        let id = id.to_string();
        transaction!(self.write, |c| {
            c.row(END_SESSION_OF, &args![user, &id]).await
        })
        .await
    }

    /// Every session of the account, the last used first (its settings, its export).
    pub async fn sessions_of(&self, user: i64) -> StoreResult<Vec<ListedSession>> {
        transaction!(self.read, |c| {
            let rows = c.query(SESSIONS_OF, &args![user]).await?;
            rows.iter()
                .map(|r| {
                    Ok(ListedSession {
                        id: r.get(6)?,
                        session: session_row(r)?,
                    })
                })
                .collect()
        })
        .await
    }

    /// Gives `side` of game `id` to `holder` if nobody holds it (and, with `invite`, if
    /// that is the side's invitation: kept, so that a second person with it is told the
    /// seat is taken); moves the game's version up. `false` if the seat was taken (or the
    /// invitation is not its).
    pub async fn take_seat(
        &self,
        id: &str,
        side: Color,
        holder: &Holder,
        invite: Option<&str>,
    ) -> StoreResult<bool> {
        let mut values = args![id, holder].to_vec();
        values.extend(invite.map(super::sql::Value::from));
        self.update_game(id, take_seat_sql(side, invite.is_some()), values)
            .await
    }

    /// A new invitation (its hash) for a seat nobody holds; `false` if it is held.
    pub async fn set_invite(&self, id: &str, side: Color, invite_hash: &str) -> StoreResult<bool> {
        self.update_game(id, set_invite_sql(side), args![id, invite_hash].to_vec())
            .await
    }

    /// Every seat `from` holds is given to `to` (a browser's games kept by the account
    /// signed up or logged in there); the games changed.
    pub async fn adopt_seats(&self, from: &Holder, to: &Holder) -> StoreResult<Vec<String>> {
        let (from, to) = (from.clone(), to.clone());
        transaction!(self.write, |c| {
            let mut games = Vec::new();
            for side in [Color::Red, Color::Blue] {
                for row in c.query(&adopt_sql(side), &args![&from, &to]).await? {
                    let game: String = row.get(0)?;
                    c.changed(&game, row.get(1)?);
                    games.push(game);
                }
            }
            games.sort();
            games.dedup();
            Ok(games)
        })
        .await
    }

    /// One page of a holder's games, and how many match in all.
    pub async fn games_of(&self, query: &GamesQuery) -> StoreResult<(Vec<Listed>, u64)> {
        let q = query.clone();
        transaction!(self.read, |c| {
            let standing = q.standing.map(GameStanding::name);
            let filters = args![&q.holder, standing, &q.variant, &q.opponent];
            let mut paged = filters.to_vec();
            paged.extend(args![q.limit, q.offset]);
            let rows = c.query(&games_page_sql(), &paged).await?;
            let games = rows
                .iter()
                .map(Listed::from_row)
                .collect::<StoreResult<_>>()?;
            let total = c.query_one(&games_count_sql(), &filters).await?.get(0)?;
            Ok((games, total))
        })
        .await
    }

    /// How many of a holder's games stand each way.
    pub async fn standings(&self, holder: &Holder) -> StoreResult<Vec<(GameStanding, u64)>> {
        self.select(standings_sql(), args![holder]).await
    }
}
