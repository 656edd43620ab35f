//! Accounts (docs/accounts.md): sign up, log in and out, the account's password and
//! sessions, closing it, and everyone's profiles and lists of games, over the store's rows
//! (`store/accounts.rs`). Names and passwords are checked and hashed by `credentials.rs`;
//! the HTTP part is `accounts/routes.rs` (who asks, the cookies, the limits) and
//! `accounts/api.rs` (the bodies, answers and paths).

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use crate::cpu::cpu_bound;
use crate::credentials::{self, new_secret, secret_hash};
use crate::fairplay::Footprint;
use crate::fairplay::{self, Client};
use crate::games::{to_the_end, GameError, Games};
use crate::store::{
    GameStanding, GamesQuery, Holder, Listed, ListedSession, NewUser, Session, Store, TokenRow,
    User, UserBy, UserChange, SESSION_ID_LEN,
};

pub(crate) mod api;
pub(crate) mod routes;

/// A session lasts this long after its last renewal.
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// The most games in one page of a list.
pub const MAX_PER_PAGE: u32 = 100;

/// An account's refusal, each with its words (`error.rs` gives each its status and kind).
#[derive(Debug)]
pub enum AccountError {
    NoSession,
    WrongCredentials,
    Disabled,
    BadUsername(String),
    /// A password refused by the rules (`credentials::check_password`): a kind of its own,
    /// so that a page puts the person back in the password field.
    BadPassword(String),
    BadEmail(String),
    /// The name of an account (the same whatever its case).
    UsernameTaken(String),
    /// A name that reads as an existing account's (`credentials::username_fold`).
    UsernameLookalike {
        username: String,
        existing: String,
    },
    NoUser(String),
    NoSuchSession(String),
    /// A list of games asked for in words it cannot read.
    Invalid(String),
    Game(GameError),
}

impl fmt::Display for AccountError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            AccountError::NoSession => f.write_str("you are not logged in"),
            AccountError::WrongCredentials => f.write_str("wrong username or password"),
            AccountError::Disabled => f.write_str("this account is disabled"),
            AccountError::BadUsername(message)
            | AccountError::BadPassword(message)
            | AccountError::BadEmail(message)
            | AccountError::Invalid(message) => f.write_str(message),
            AccountError::UsernameTaken(name) => write!(
                f,
                "the username '{name}' is taken (names are the same whatever their case)"
            ),
            AccountError::UsernameLookalike { username, existing } => write!(
                f,
                "the username '{username}' reads as the player '{existing}' \
                 (names are compared ignoring case, '_', '-' and '.', and 0/o, 1/i/l, 5/s, 8/b, \
                 rn/m, vv/w): choose another"
            ),
            AccountError::NoUser(name) => {
                let name: String = name.chars().take(40).collect();
                write!(f, "no player is named '{name}'")
            }
            AccountError::NoSuchSession(id) => write!(f, "no session '{id}' of this account"),
            AccountError::Game(e) => e.fmt(f),
        }
    }
}

impl From<GameError> for AccountError {
    fn from(e: GameError) -> AccountError {
        AccountError::Game(e)
    }
}

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the accounts' database", e)
}

/// Where a session is opened from: the client, as fair play notes it, and for the
/// account's list of its sessions the browser's own words and the address, if known.
#[derive(Debug, Clone)]
pub struct Opener {
    pub client: Client,
    pub device: Option<String>,
    pub ip: Option<IpAddr>,
}

/// A new account asked for.
pub struct SignUp {
    pub username: String,
    pub password: String,
    pub email: Option<String>,
}

/// Checks a sign-up's name, password and email (an empty email is none), and refuses a
/// name that reads as another account's. Returns the sign-up to make.
pub async fn check_sign_up(store: &Store, asked: SignUp) -> Result<SignUp, AccountError> {
    credentials::check_username(&asked.username).map_err(AccountError::BadUsername)?;
    credentials::check_password(&asked.password, &asked.username)
        .map_err(AccountError::BadPassword)?;
    let email = asked.email.filter(|e| !e.trim().is_empty());
    if let Some(email) = &email {
        check_email(email).map_err(AccountError::BadEmail)?;
    }
    refuse_look_alike(store, &asked.username, None).await?;
    Ok(SignUp { email, ..asked })
}

/// An email address, roughly checked: it is only ever shown to its owner.
pub(crate) fn check_email(email: &str) -> Result<(), String> {
    let ok = email.len() <= 254
        && email.split_once('@').is_some_and(|(user, host)| {
            !user.is_empty() && host.contains('.') && !host.starts_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    ok.then_some(())
        .ok_or_else(|| format!("'{email}' is not an email address"))
}

/// Refuses a username that reads as an existing account's (`credentials::username_fold`).
/// The same name in another case is `UsernameTaken`, as the insert finds.
async fn refuse_look_alike(
    store: &Store,
    username: &str,
    except: Option<i64>,
) -> Result<(), AccountError> {
    match store.look_alike(username, except).await.map_err(storage)? {
        Some(existing)
            if credentials::username_key(&existing) != credentials::username_key(username) =>
        {
            Err(AccountError::UsernameLookalike {
                username: username.to_string(),
                existing,
            })
        }
        _ => Ok(()),
    }
}

/// Makes a checked sign-up's account and its first session: the account, and the
/// session's secret (its cookie's value).
pub async fn sign_up(
    games: &Arc<Games>,
    new: SignUp,
    from: &Opener,
) -> Result<(User, String), AccountError> {
    let password = new.password;
    // Argon2 takes its time: off the async threads.
    let hash = cpu_bound(move || {
        credentials::hash_password(&password)
            .map_err(|e| GameError::internal("hashing the password", e))
    })
    .await?;
    let new = NewUser {
        key: credentials::username_key(&new.username),
        username: new.username,
        password_hash: hash,
        email: new.email,
    };
    let now_s = games.time.now_ms().div_euclid(1000);
    let Some(id) = games
        .store
        .create_user(&new, now_s)
        .await
        .map_err(storage)?
    else {
        return Err(AccountError::UsernameTaken(new.username));
    };
    let user = games
        .store
        .user(UserBy::Id(id))
        .await
        .map_err(storage)?
        .ok_or_else(|| GameError::internal("signing up", "the new account is gone"))?;
    let secret = open_session(games, from, &user).await?;
    Ok((user, secret))
}

/// Checks a password for an account named by its username (any case): the account if
/// right and not disabled. An unknown name costs the same time as a wrong password.
pub async fn verify(store: &Store, username: &str, password: String) -> Result<User, AccountError> {
    let key = credentials::username_key(username);
    let user = store.user(UserBy::Key(&key)).await.map_err(storage)?;
    // Argon2 takes its time: off the async threads.
    let user = cpu_bound(move || {
        let hash = user.as_ref().map(|u| u.password_hash.as_str());
        Ok(credentials::verify_password(&password, hash)
            .then_some(user)
            .flatten())
    })
    .await?;
    match user {
        None => Err(AccountError::WrongCredentials),
        Some(user) if user.disabled => Err(AccountError::Disabled),
        Some(user) => Ok(user),
    }
}

/// A new session for the account (its secret, the cookie's value): the browser's anonymous
/// games kept by the account, and the browser and address it is used from noted
/// (`fairplay.rs`).
pub async fn open_session(
    games: &Arc<Games>,
    from: &Opener,
    user: &User,
) -> Result<String, AccountError> {
    let secret = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let now_ms = games.time.now_ms();
    let now = now_ms.div_euclid(1000);
    let session = Session {
        user: user.id,
        created: now,
        used: now,
        expires: now + SESSION_SECONDS,
        device: from.device.clone(),
        address: from.ip.map(|ip| ip.to_string()),
    };
    let store = &games.store;
    store
        .insert_session(&secret_hash(&secret), &session)
        .await
        .map_err(storage)?;
    if let Some(anon) = from.client.browser.clone() {
        let (games, holder) = (games.clone(), user.holder());
        to_the_end(async move { games.adopt_seats(&anon, &holder).await }).await?;
    }
    fairplay::note_use(store, &from.client, user.id, now_ms).await?;
    Ok(secret)
}

/// Ends the session of this hash (a log-out).
pub async fn end_session(store: &Store, id_hash: &str) -> Result<(), AccountError> {
    Ok(store.end_session(id_hash).await.map_err(storage)?)
}

/// Gives the account a new password (checked by the rules), and ends its sessions but
/// `keep`: whoever else knew the old password is logged out.
pub async fn change_password(
    store: &Store,
    user: &User,
    keep: &str,
    new_password: String,
) -> Result<(), AccountError> {
    credentials::check_password(&new_password, &user.username)
        .map_err(AccountError::BadPassword)?;
    // Argon2 takes its time: off the async threads.
    let hash = cpu_bound(move || {
        credentials::hash_password(&new_password)
            .map_err(|e| GameError::internal("hashing the password", e))
    })
    .await?;
    store
        .change_user(user.id, &UserChange::Password(hash))
        .await
        .map_err(storage)?;
    store
        .end_sessions(user.id, Some(keep))
        .await
        .map_err(storage)?;
    Ok(())
}

/// The account's sessions, each with its browser, address and last use.
pub async fn sessions(store: &Store, user: i64) -> Result<Vec<ListedSession>, AccountError> {
    Ok(store.sessions_of(user).await.map_err(storage)?)
}

/// Ends one of the account's sessions by its public id: the ended session's hash.
pub async fn end_session_of(
    store: &Store,
    user: i64,
    public: &str,
) -> Result<String, AccountError> {
    let readable = public.len() == SESSION_ID_LEN && public.bytes().all(|b| b.is_ascii_hexdigit());
    let ended = match readable {
        true => {
            let asked = public.to_ascii_lowercase();
            store.end_session_of(user, &asked).await.map_err(storage)?
        }
        false => None,
    };
    ended.ok_or_else(|| AccountError::NoSuchSession(public.to_string()))
}

/// Ends the account's sessions but `keep`: how many.
pub async fn end_other_sessions(store: &Store, user: i64, keep: &str) -> Result<u64, AccountError> {
    Ok(store
        .end_sessions(user, Some(keep))
        .await
        .map_err(storage)?)
}

/// Closes account `id`: its rows go, and the games in memory show the player as deleted.
pub async fn close(games: &Arc<Games>, id: i64) -> Result<(), AccountError> {
    let games = games.clone();
    to_the_end(async move {
        let held = games.held_by(&Holder::Account(id)).await?;
        let deleted = games.store.delete_user(id).await;
        deleted.map_err(|e| GameError::storage("closing the account", e))?;
        games.refresh_cached(&held).await
    })
    .await?;
    Ok(())
}

/// The page asked for and its length (default the first 20, at most [`MAX_PER_PAGE`]).
pub fn page_bounds(page: Option<&str>, per_page: Option<&str>) -> Result<(u32, u32), AccountError> {
    let read = |text: Option<&str>, default: u32| match text {
        None => Ok(default),
        Some(text) => match text.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(AccountError::Invalid(format!(
                "'{text}' is not a page number or size: pages count from 1, and a page holds at \
                 least one game"
            ))),
        },
    };
    Ok((read(page, 1)?, read(per_page, 20)?.min(MAX_PER_PAGE)))
}

/// The standing a list of games is filtered by, by its name (none when empty).
pub fn standing(result: Option<&str>) -> Result<Option<GameStanding>, AccountError> {
    match result {
        None | Some("") => Ok(None),
        Some(name) => GameStanding::from_name(name).map(Some).map_err(|_| {
            AccountError::Invalid(format!(
                "'{name}' is not a result to filter by: win, draw, loss, ongoing or aborted"
            ))
        }),
    }
}

/// One page of a holder's games, and how many the whole list holds.
pub async fn games_of(
    store: &Store,
    query: &GamesQuery,
) -> Result<(Vec<Listed>, u64), AccountError> {
    Ok(store.games_of(query).await.map_err(storage)?)
}

/// How many games a holder won, drew, lost, plays and saw aborted.
pub async fn standings(
    store: &Store,
    holder: &Holder,
) -> Result<Vec<(GameStanding, u64)>, AccountError> {
    Ok(store.standings(holder).await.map_err(storage)?)
}

/// An account by its username (any case).
pub async fn user_named(store: &Store, name: &str) -> Result<User, AccountError> {
    let key = credentials::username_key(name);
    let user = store.user(UserBy::Key(&key)).await.map_err(storage)?;
    user.ok_or_else(|| AccountError::NoUser(name.to_string()))
}

/// The holder of the opponent filter's account (an unknown name matches no game).
pub async fn opponent_holder(
    store: &Store,
    name: Option<String>,
) -> Result<Option<Holder>, AccountError> {
    match name.filter(|n| !n.is_empty()) {
        None => Ok(None),
        Some(name) => Ok(Some(match user_named(store, &name).await {
            Ok(user) => user.holder(),
            // No account's: matches no game.
            Err(AccountError::NoUser(_)) => Holder::Account(-1),
            Err(e) => return Err(e),
        })),
    }
}

/// What the server keeps of an account beside its games and ratings.
pub struct Kept {
    pub sessions: Vec<ListedSession>,
    pub tokens: Vec<TokenRow>,
    /// The arenas joined: the arena, when joined and when left.
    pub arenas: Vec<(String, i64, Option<i64>)>,
    pub footprints: Vec<Footprint>,
}

/// What the server keeps of account `id` beside its games and ratings (its export).
pub async fn kept(store: &Store, id: i64) -> Result<Kept, AccountError> {
    Ok(Kept {
        sessions: store.sessions_of(id).await.map_err(storage)?,
        tokens: store.tokens_of(id).await.map_err(storage)?,
        arenas: store.arenas_of(id).await.map_err(storage)?,
        footprints: store.footprints_of(id).await.map_err(storage)?,
    })
}
