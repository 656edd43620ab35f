//! What `lgame admin` does on the server's machine, straight on the database (no mail can
//! be sent, so a forgotten password is reset here): reset a password, disable, re-enable or
//! rename an account, list the newest. A disabled account's sessions are ended and it can
//! no longer log in; its games stay.

use anyhow::{anyhow, bail, Context};

use std::collections::BTreeMap;

use lgame::game::ResultToken;

use crate::credentials;
use crate::games::Games;
use crate::ratings::{categories, Ledger};
use crate::store::{account_of, Database, Store, Synchronous, User, UserBy, UserChange};

/// An account as `lgame admin list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountLine {
    pub username: String,
    /// Unix seconds.
    pub created: i64,
    pub disabled: bool,
    pub has_email: bool,
}

/// The database's accounts, for an administrator.
pub struct Admin {
    /// The database's games, replayed through the rules (and scored) as the server does.
    games: Games,
}

impl Admin {
    /// Opens the server's database (migrating it to this version's schema, as the server
    /// would).
    pub fn open(db: &Database) -> anyhow::Result<Admin> {
        let store = Store::open(db, Synchronous::Full)
            .with_context(|| format!("opening the database {db}"))?;
        let games = Games::new(store, 16, crate::DEFAULT_MAX_TABLE_STATES);
        Ok(Admin { games })
    }

    fn store(&self) -> &Store {
        &self.games.store
    }

    fn user(&self, username: &str) -> anyhow::Result<User> {
        let key = credentials::username_key(username);
        self.store()
            .user(UserBy::Key(&key))?
            .ok_or_else(|| anyhow!("no account is named '{username}'"))
    }

    /// A new password for the account (checked as a sign-up's); every session ended.
    pub fn reset_password(&self, username: &str, password: &str) -> anyhow::Result<()> {
        let user = self.user(username)?;
        credentials::check_password(password, &user.username).map_err(|e| anyhow!(e))?;
        let hash = credentials::hash_password(password)?;
        self.store()
            .change_user(user.id, &UserChange::Password(hash))?;
        self.store().end_sessions(user.id, None)?;
        Ok(())
    }

    /// Disables (no log-in, every session ended) or re-enables an account.
    pub fn set_disabled(&self, username: &str, disabled: bool) -> anyhow::Result<()> {
        let user = self.user(username)?;
        self.store()
            .change_user(user.id, &UserChange::Disabled(disabled))?;
        if disabled {
            self.store().end_sessions(user.id, None)?;
        }
        Ok(())
    }

    /// Gives an account a new username (checked as a sign-up's, unique whatever its case).
    pub fn rename(&self, username: &str, new_name: &str) -> anyhow::Result<()> {
        let user = self.user(username)?;
        credentials::check_username(new_name).map_err(|e| anyhow!(e))?;
        if let Some(existing) = self.store().look_alike(new_name, Some(user.id))? {
            bail!("the username '{new_name}' reads as the account '{existing}'");
        }
        let change = UserChange::Rename {
            username: new_name.to_string(),
            key: credentials::username_key(new_name),
        };
        if !self.store().change_user(user.id, &change)? {
            bail!("the username '{new_name}' is taken");
        }
        Ok(())
    }

    /// The `limit` newest accounts, newest first.
    pub fn newest(&self, limit: i64) -> anyhow::Result<Vec<AccountLine>> {
        Ok(self
            .store()
            .newest_users(limit)?
            .into_iter()
            .map(|u| AccountLine {
                username: u.username,
                created: u.created,
                disabled: u.disabled,
                has_email: u.email.is_some(),
            })
            .collect())
    }

    /// Recomputes every rating from the stored rated games, one after another in the order
    /// they ended (`ratings::Ledger`), and compares each account's entries with those
    /// stored: any difference, and any finished rated game that changed no rating, is a
    /// problem.
    pub fn check_ratings(&self) -> anyhow::Result<RatingsCheck> {
        check_ratings(self.store())
    }

    /// The accounts whose rated games are suspiciously perfect, for a person to review:
    /// at least `min_games` rated games scored against the solved game whose mean
    /// accuracy is `threshold` or more, most accurate first.
    pub fn suspects(&self, min_games: usize, threshold: f64) -> anyhow::Result<Vec<Suspect>> {
        let mut shares: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
        for game in self.store().rated_games()? {
            if game.at_ms.is_none() {
                continue;
            }
            let Some(live) = self.games.load(&game.id).map_err(|e| anyhow!("{e}"))? else {
                continue;
            };
            let Some(accuracy) = live.accuracy() else {
                continue;
            };
            let sides = [accuracy.red.accuracy, accuracy.blue.accuracy];
            for (holder, share) in game.holders.iter().zip(sides) {
                if let (Some(user), Some(share)) = (account_of(holder.as_deref()), share) {
                    shares.entry(user).or_default().push(share);
                }
            }
        }
        let mut suspects = Vec::new();
        for (user, list) in shares {
            let mean = list.iter().sum::<f64>() / list.len() as f64;
            if list.len() < min_games || mean < threshold {
                continue;
            }
            let Some(account) = self.store().user(UserBy::Id(user))? else {
                continue;
            };
            suspects.push(Suspect {
                username: account.username,
                disabled: account.disabled,
                games: list.len(),
                perfect: list.iter().filter(|s| **s >= 1.0).count(),
                accuracy: mean,
            });
        }
        suspects.sort_by(|a, b| b.accuracy.total_cmp(&a.accuracy));
        Ok(suspects)
    }
}

/// What [`Admin::check_ratings`] found: the rated games recomputed, the entries they
/// make, and every difference from what is stored (none: the stored ratings are the games').
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingsCheck {
    pub games: usize,
    pub entries: usize,
    pub problems: Vec<String>,
}

/// An account [`Admin::suspects`] lists: its rated games scored, how many were perfect, and
/// its mean accuracy in them.
#[derive(Debug, Clone, PartialEq)]
pub struct Suspect {
    pub username: String,
    pub disabled: bool,
    pub games: usize,
    pub perfect: usize,
    pub accuracy: f64,
}

/// [`Admin::check_ratings`] on a database.
pub(crate) fn check_ratings(store: &Store) -> anyhow::Result<RatingsCheck> {
    let mut problems = Vec::new();
    let mut ended = Vec::new();
    // A closed account's ratings and changes are erased with it; its games stay, and still
    // count for its opponents.
    let mut open: BTreeMap<i64, bool> = BTreeMap::new();
    let mut is_open = |user: i64| -> anyhow::Result<bool> {
        if let Some(known) = open.get(&user) {
            return Ok(*known);
        }
        let found = store.user(UserBy::Id(user))?.is_some();
        open.insert(user, found);
        Ok(found)
    };
    for game in store.rated_games()? {
        let Ok(ResultToken::Finished(result)) = game.outcome.parse() else {
            continue;
        };
        // Ended before both sides moved: never rated.
        if game.plies < crate::ratings::RATED_FROM_PLY {
            continue;
        }
        let players = game.holders.clone().map(|h| account_of(h.as_deref()));
        let (Some(red), Some(blue)) = (players[0], players[1]) else {
            problems.push(format!(
                "game {}: rated, but not between two accounts",
                game.id
            ));
            continue;
        };
        let Some(category) = categories().find(|c| *c == game.category) else {
            problems.push(format!("game {}: no category '{}'", game.id, game.category));
            continue;
        };
        match game.at_ms {
            Some(at_ms) => ended.push((at_ms, game.id, [red, blue], category, result)),
            None if !is_open(red)? && !is_open(blue)? => {}
            None => problems.push(format!("game {}: ended rated, changed no rating", game.id)),
        }
    }
    ended.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let mut ledger = Ledger::default();
    for (at_ms, _, players, category, result) in &ended {
        ledger.rate(*players, category, *result, *at_ms);
    }
    let stored: BTreeMap<(i64, String), crate::ratings::Entry> = store
        .all_ratings()?
        .into_iter()
        .map(|(user, category, entry)| ((user, category), entry))
        .collect();
    let mut recomputed: BTreeMap<(i64, String), crate::ratings::Entry> = BTreeMap::new();
    for (user, category, entry) in ledger.entries() {
        if is_open(user)? {
            recomputed.insert((user, category.to_string()), entry);
        }
    }
    for (key, entry) in &recomputed {
        match stored.get(key) {
            Some(s) if s == entry => {}
            Some(s) => problems.push(format!(
                "account {} in {}: stored {s:?}, recomputed {entry:?}",
                key.0, key.1
            )),
            None => problems.push(format!("account {} in {}: not stored", key.0, key.1)),
        }
    }
    for key in stored.keys().filter(|k| !recomputed.contains_key(*k)) {
        problems.push(format!(
            "account {} in {}: stored, no game made it",
            key.0, key.1
        ));
    }
    Ok(RatingsCheck {
        games: ended.len(),
        entries: recomputed.len(),
        problems,
    })
}
