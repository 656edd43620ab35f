//! What `lgame admin` does on the server's machine, straight on the database (no mail can
//! be sent, so a forgotten password is reset here): reset a password, disable, re-enable or
//! rename an account, list the newest. A disabled account's sessions are ended and it can
//! no longer log in; its games stay.

use anyhow::{anyhow, bail, Context};

use crate::credentials;
use crate::store::{Database, Store, Synchronous, User, UserBy, UserChange};

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
    store: Store,
}

impl Admin {
    /// Opens the server's database (migrating it to this version's schema, as the server
    /// would).
    pub fn open(db: &Database) -> anyhow::Result<Admin> {
        let store = Store::open(db, Synchronous::Full)
            .with_context(|| format!("opening the database {db}"))?;
        Ok(Admin { store })
    }

    fn user(&self, username: &str) -> anyhow::Result<User> {
        let key = credentials::username_key(username);
        self.store
            .user(UserBy::Key(&key))?
            .ok_or_else(|| anyhow!("no account is named '{username}'"))
    }

    /// A new password for the account (checked as a sign-up's); every session ended.
    pub fn reset_password(&self, username: &str, password: &str) -> anyhow::Result<()> {
        let user = self.user(username)?;
        credentials::check_password(password, &user.username).map_err(|e| anyhow!(e))?;
        let hash = credentials::hash_password(password)?;
        self.store
            .change_user(user.id, &UserChange::Password(hash))?;
        self.store.end_sessions(user.id, None)?;
        Ok(())
    }

    /// Disables (no log-in, every session ended) or re-enables an account.
    pub fn set_disabled(&self, username: &str, disabled: bool) -> anyhow::Result<()> {
        let user = self.user(username)?;
        self.store
            .change_user(user.id, &UserChange::Disabled(disabled))?;
        if disabled {
            self.store.end_sessions(user.id, None)?;
        }
        Ok(())
    }

    /// Gives an account a new username (checked as a sign-up's, unique whatever its case).
    pub fn rename(&self, username: &str, new_name: &str) -> anyhow::Result<()> {
        let user = self.user(username)?;
        credentials::check_username(new_name).map_err(|e| anyhow!(e))?;
        let change = UserChange::Rename {
            username: new_name.to_string(),
            key: credentials::username_key(new_name),
        };
        if !self.store.change_user(user.id, &change)? {
            bail!("the username '{new_name}' is taken");
        }
        Ok(())
    }

    /// The `limit` newest accounts, newest first.
    pub fn newest(&self, limit: i64) -> anyhow::Result<Vec<AccountLine>> {
        Ok(self
            .store
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
}
