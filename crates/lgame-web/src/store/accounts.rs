//! Accounts, sessions, and who holds a game's seats: the rows, the interface both backends
//! give ([`Accounts`]), and the SQL they share.
//!
//! A seat's *holder* is an identity: `u:ID` for an account (its id, never reused), `a:HASH`
//! for a browser without one (the SHA-256 of its anonymous cookie). Games keep holders, so
//! a closed account's games stay, their player shown as deleted. Only hashes of secrets
//! (passwords as Argon2id, session ids, invitations) are stored.
//!
//! The statements below run on both backends: their parameters are written `$1`, `$2`, …
//! as PostgreSQL reads them; the SQLite backend reads them as `?1`, `?2`, ….

use lgame::Color;

use super::StoreResult;

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
    pub fn holder(&self) -> String {
        user_holder(self.id)
    }
}

/// The holder naming account `id`.
pub fn user_holder(id: i64) -> String {
    format!("u:{id}")
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
    /// A new username (and its key); refused (`false`) if another account has the key.
    Rename {
        username: String,
        key: String,
    },
}

/// How a listed game ended for the holder the list is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Win,
    Draw,
    Loss,
    Ongoing,
    /// Called off before both sides moved: no result, and not a game played.
    Aborted,
}

impl Standing {
    pub const ALL: [Standing; 5] = [
        Standing::Win,
        Standing::Draw,
        Standing::Loss,
        Standing::Ongoing,
        Standing::Aborted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Standing::Win => "win",
            Standing::Draw => "draw",
            Standing::Loss => "loss",
            Standing::Ongoing => "ongoing",
            Standing::Aborted => "aborted",
        }
    }

    pub fn from_name(name: &str) -> Option<Standing> {
        Standing::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Which of a holder's games to list, newest first.
#[derive(Debug, Clone, Default)]
pub struct GamesQuery {
    pub holder: String,
    pub standing: Option<Standing>,
    pub variant: Option<String>,
    /// The other seat's holder.
    pub opponent: Option<String>,
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
    pub holders: [Option<String>; 2],
    /// The holders' usernames (none for a browser, or an account closed).
    pub names: [Option<String>; 2],
    /// Whether each holder is a bot (read, never written).
    pub bots: [bool; 2],
    /// The result token: `*` while it goes on (and for an aborted game).
    pub result: String,
    /// An end declared off the board, by name (`aborted`, `resignation`, …).
    pub termination: Option<String>,
    pub plies: i64,
    pub created: i64,
    /// Its clocks' JSON (`clock.rs`), if it is timed.
    pub clock: Option<String>,
}

/// What the databases keep of accounts and seats. (Every call blocks.)
pub trait Accounts {
    /// A new account's id, made at `now_s` (Unix seconds, the server's time), or `None` if
    /// its key is taken.
    fn create_user(&self, user: &NewUser, now_s: i64) -> StoreResult<Option<i64>>;

    fn user(&self, by: UserBy<'_>) -> StoreResult<Option<User>>;

    /// The `limit` newest accounts, newest first.
    fn newest_users(&self, limit: i64) -> StoreResult<Vec<User>>;

    /// `false` if there is no such account (or a rename's key is taken).
    fn change_user(&self, id: i64, change: &UserChange) -> StoreResult<bool>;

    /// Erases an account and its sessions (the games keep its holder, now nameless).
    fn delete_user(&self, id: i64) -> StoreResult<()>;

    fn insert_session(&self, id_hash: &str, session: &Session) -> StoreResult<()>;

    /// A session by its id's hash, with its account.
    fn session(&self, id_hash: &str) -> StoreResult<Option<(Session, User)>>;

    fn renew_session(&self, id_hash: &str, used: i64, expires: i64) -> StoreResult<()>;

    fn end_session(&self, id_hash: &str) -> StoreResult<()>;

    /// Ends every session of the account but `keep`'s; how many.
    fn end_sessions(&self, user: i64, keep: Option<&str>) -> StoreResult<u64>;

    /// Ends the account's session whose public id is `id` (see [`ListedSession`]): the
    /// ended session's id hash, or `None` if the account has no such session.
    fn end_session_of(&self, user: i64, id: &str) -> StoreResult<Option<String>>;

    /// Every session of the account, the last used first (its settings, its export).
    fn sessions_of(&self, user: i64) -> StoreResult<Vec<ListedSession>>;

    /// Gives `side` of game `id` to `holder` if nobody holds it (and, with `invite`, if
    /// that is the side's invitation: kept, so that a second person with it is told the
    /// seat is taken); moves the game's version up. `false` if the seat was taken (or the
    /// invitation is not its).
    fn take_seat(
        &self,
        id: &str,
        side: Color,
        holder: &str,
        invite: Option<&str>,
    ) -> StoreResult<bool>;

    /// A new invitation (its hash) for a seat nobody holds; `false` if it is held.
    fn set_invite(&self, id: &str, side: Color, invite_hash: &str) -> StoreResult<bool>;

    /// Every seat `from` holds is given to `to` (a browser's games kept by the account
    /// signed up or logged in there); the games changed.
    fn adopt_seats(&self, from: &str, to: &str) -> StoreResult<Vec<String>>;

    /// One page of a holder's games, and how many match in all.
    fn games_of(&self, query: &GamesQuery) -> StoreResult<(Vec<Listed>, u64)>;

    /// How many of a holder's games stand each way.
    fn standings(&self, holder: &str) -> StoreResult<Vec<(Standing, u64)>>;
}

pub(super) const USER_BY_ID: &str =
    "SELECT id, username, password_hash, email, created, disabled, bot
     FROM users WHERE id = $1";

pub(super) const USER_BY_KEY: &str =
    "SELECT id, username, password_hash, email, created, disabled, bot
     FROM users WHERE username_key = $1";

pub(super) const NEWEST_USERS: &str =
    "SELECT id, username, password_hash, email, created, disabled, bot
     FROM users ORDER BY id DESC LIMIT $1";

pub(super) const SESSION: &str = "SELECT s.user_id, s.created, s.used, s.expires,
            s.device, s.address,
            u.id, u.username, u.password_hash, u.email, u.created, u.disabled, u.bot
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1";

/// Where a session row's user columns start in [`SESSION`].
pub(super) const SESSION_USER_AT: usize = 6;

pub(super) const INSERT_SESSION: &str = "INSERT INTO sessions
     (id_hash, user_id, created, used, expires, device, address)
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

pub(super) const RENEW_SESSION: &str =
    "UPDATE sessions SET used = $2, expires = $3 WHERE id_hash = $1";

pub(super) const END_SESSION: &str = "DELETE FROM sessions WHERE id_hash = $1";

pub(super) const INSERT_USER: &str = concat!(
    "INSERT INTO users (username, username_key, password_hash, email, created, username_fold)
     VALUES ($1, $2, $3, $4, $5, ",
    super::fairplay::fold_sql!("$1"),
    ") ON CONFLICT (username_key) DO NOTHING RETURNING id"
);

pub(super) const DELETE_USER: [&str; 12] = [
    "DELETE FROM sessions WHERE user_id = $1",
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

pub(super) const END_SESSIONS: &str = "DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2";

pub(super) const SESSIONS_OF: &str = "SELECT user_id, created, used, expires, device, address,
        substr(id_hash, 1, 16)
     FROM sessions WHERE user_id = $1 ORDER BY used DESC, created DESC";

pub(super) const END_SESSION_OF: &str =
    "DELETE FROM sessions WHERE user_id = $1 AND substr(id_hash, 1, 16) = $2 RETURNING id_hash";

/// The update of one account column (`$1` the id, `$2` the value).
pub(super) fn change_sql(change: &UserChange) -> &'static str {
    match change {
        UserChange::Password(_) => "UPDATE users SET password_hash = $2 WHERE id = $1",
        UserChange::Disabled(_) => "UPDATE users SET disabled = $2 WHERE id = $1",
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
pub(super) fn seat_columns(side: Color) -> (&'static str, &'static str) {
    match side {
        Color::Red => ("red_holder", "red_invite_hash"),
        Color::Blue => ("blue_holder", "blue_invite_hash"),
    }
}

/// Takes a seat: `$1` the game, `$2` the holder, `$3` the invitation's hash (or null).
/// Returns the new version. The invitation's hash stays: a second person with the link is
/// told the seat is taken.
pub(super) fn take_seat_sql(side: Color, invited: bool) -> String {
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
pub(super) fn set_invite_sql(side: Color) -> String {
    let (holder, invite) = seat_columns(side);
    format!(
        "UPDATE games SET {invite} = $2, version = version + 1
         WHERE id = $1 AND {holder} IS NULL RETURNING version"
    )
}

/// Gives a side's seats of `$1` to `$2`; returns the games and their new versions.
pub(super) fn adopt_sql(side: Color) -> String {
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
pub(super) fn games_page_sql() -> String {
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
pub(super) fn games_count_sql() -> String {
    format!("SELECT count(*) {}", games_where())
}

/// How many of holder `$1`'s games stand each way.
pub(super) fn standings_sql() -> String {
    format!(
        "SELECT {STANDING} AS standing, count(*) FROM games g
         WHERE g.red_holder = $1 OR g.blue_holder = $1 GROUP BY standing"
    )
}

/// A standing read back.
pub(super) fn standing_named(name: &str) -> StoreResult<Standing> {
    Standing::from_name(name)
        .ok_or_else(|| super::StoreError::Other(anyhow::anyhow!("'{name}' is not a standing")))
}
