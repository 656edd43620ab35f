//! What `lgame admin` does on the server's machine, straight on the database (no mail can
//! be sent, so a forgotten password is reset here): reset a password, disable, re-enable or
//! rename an account, list the newest. A disabled account's sessions are ended and it can
//! no longer log in; its games stay. And a copy of a running server's SQLite database
//! ([`backup`]).

use anyhow::{anyhow, bail, Context};

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use lgame::game::ResultToken;

pub use crate::store::BackupProgress;

use crate::credentials;
use crate::database::Database;
use crate::fairplay::Trace;
use crate::games::Games;
use crate::ratings::{categories, Ledger};
use crate::store::{
    online_backup, wait, Holder, RatingChange, Store, Synchronous, User, UserBy, UserChange,
};

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
        let store = db
            .open(Synchronous::Full)
            .with_context(|| format!("opening the database {db}"))?;
        let games = Games::new(store, 16, crate::DEFAULT_MAX_TABLE_STATES);
        Ok(Admin { games })
    }

    fn store(&self) -> &Store {
        &self.games.store
    }

    fn user(&self, username: &str) -> anyhow::Result<User> {
        let key = credentials::username_key(username);
        wait(self.store().user(UserBy::Key(&key)))?
            .ok_or_else(|| anyhow!("no account is named '{username}'"))
    }

    /// A new password for the account (checked as a sign-up's); every session ended.
    pub fn reset_password(&self, username: &str, password: &str) -> anyhow::Result<()> {
        let user = self.user(username)?;
        credentials::check_password(password, &user.username).map_err(|e| anyhow!(e))?;
        let hash = credentials::hash_password(password)?;
        wait(
            self.store()
                .change_user(user.id, &UserChange::Password(hash)),
        )?;
        wait(self.store().end_sessions(user.id, None))?;
        Ok(())
    }

    /// Disables (no log-in, every session ended) or re-enables an account.
    pub fn set_disabled(&self, username: &str, disabled: bool) -> anyhow::Result<()> {
        let user = self.user(username)?;
        wait(
            self.store()
                .change_user(user.id, &UserChange::Disabled(disabled)),
        )?;
        if disabled {
            wait(self.store().end_sessions(user.id, None))?;
        }
        Ok(())
    }

    /// Gives an account a new username (checked as a sign-up's, unique whatever its case).
    pub fn rename(&self, username: &str, new_name: &str) -> anyhow::Result<()> {
        let user = self.user(username)?;
        credentials::check_username(new_name).map_err(|e| anyhow!(e))?;
        let key = credentials::username_key(new_name);
        if let Some(existing) = wait(self.store().look_alike(new_name, Some(user.id)))? {
            if credentials::username_key(&existing) != key {
                bail!("the username '{new_name}' reads as the account '{existing}'");
            }
        }
        let change = UserChange::Rename {
            username: new_name.to_string(),
            key,
        };
        if !wait(self.store().change_user(user.id, &change))? {
            bail!("the username '{new_name}' is taken");
        }
        Ok(())
    }

    /// The `limit` newest accounts, newest first.
    pub fn newest(&self, limit: i64) -> anyhow::Result<Vec<AccountLine>> {
        Ok(wait(self.store().newest_users(limit))?
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

    /// Recomputes every rating from the stored rated games, in the order and at the instants
    /// they ended, and stores the outcome in place of every entry and change: without the
    /// games of the accounts disabled now if `without_disabled` (their opponents rated as if
    /// those games had not been played). Answers the games rated and the entries made. A
    /// game left out stays out of later recomputations (its instant was its changes').
    pub fn recompute_ratings(&self, without_disabled: bool) -> anyhow::Result<(usize, usize)> {
        let store = self.store();
        let mut known = Known {
            store,
            users: BTreeMap::new(),
        };
        let mut problems = Vec::new();
        let ended = ended_in_order(&mut known, &mut problems)?;
        let mut ledger = Ledger::default();
        let mut changes = Vec::new();
        let mut rated = 0;
        for game in &ended {
            if without_disabled
                && (known.disabled(game.players[0])? || known.disabled(game.players[1])?)
            {
                continue;
            }
            let (before, after) = ledger.rate(game.players, game.category, game.result, game.at_ms);
            rated += 1;
            let (id, players, category) = (&game.id, game.players, game.category);
            for change in RatingChange::of_game(id, players, category, game.at_ms, before, after) {
                if known.open(change.user_id)? {
                    changes.push(change);
                }
            }
        }
        let mut entries = Vec::new();
        for (user, category, entry) in ledger.entries() {
            if known.open(user)? {
                entries.push((user, category.to_string(), entry));
            }
        }
        wait(store.replace_ratings(&entries, &changes))?;
        Ok((rated, entries.len()))
    }

    /// The accounts to look at besides the accurate ones, each with its reason: pairs with at
    /// least `min_games` rated games between them that are half or more of either's rated
    /// games (`mostly_each_other`) or won nine in ten or more by one of them (`one_sided`);
    /// accounts with at least `min_games` rated games lost within [`FAST_LOSS_PLIES`] plies,
    /// half or more of their rated games (`fast_losses`: a rating lowered on purpose, or
    /// given away); and accounts used from one address in the last 30 days
    /// (`shared_address`: a school or a household as often as one person, so only listed).
    pub fn concerns(&self, min_games: usize) -> anyhow::Result<Vec<Concern>> {
        let store = self.store();
        let mut known = Known {
            store,
            users: BTreeMap::new(),
        };
        let mut totals: BTreeMap<i64, (usize, usize)> = BTreeMap::new(); // games, fast losses
        let mut pairs: BTreeMap<(i64, i64), [usize; 3]> = BTreeMap::new(); // games, wins of each
        for game in wait(store.rated_games())? {
            let ResultToken::Finished(result) = game.outcome else {
                continue;
            };
            let players = game.holders.clone().map(|h| h?.account());
            let (Some(red), Some(blue), Some(_)) = (players[0], players[1], game.at_ms) else {
                continue;
            };
            let winner = match result {
                lgame::game::GameResult::RedWins => Some(red),
                lgame::game::GameResult::BlueWins => Some(blue),
                _ => None,
            };
            for player in [red, blue] {
                let total = totals.entry(player).or_default();
                total.0 += 1;
                let lost = winner.is_some_and(|w| w != player);
                if lost && game.plies <= FAST_LOSS_PLIES {
                    total.1 += 1;
                }
            }
            let key = (red.min(blue), red.max(blue));
            let pair = pairs.entry(key).or_default();
            pair[0] += 1;
            if let Some(w) = winner {
                pair[if w == key.0 { 1 } else { 2 }] += 1;
            }
        }
        let mut concerns = Vec::new();
        let named = |known: &mut Known<'_>, id: i64| -> anyhow::Result<Option<String>> {
            Ok(known.user(id)?.map(|u| match u.disabled {
                true => format!("{} (disabled)", u.username),
                false => u.username.clone(),
            }))
        };
        for ((a, b), [games, wins_a, wins_b]) in &pairs {
            if *games < min_games.max(1) {
                continue;
            }
            let (Some(name_a), Some(name_b)) = (named(&mut known, *a)?, named(&mut known, *b)?)
            else {
                continue;
            };
            let (total_a, total_b) = (totals[a].0, totals[b].0);
            let accounts = vec![name_a.clone(), name_b.clone()];
            if games * 2 >= total_a || games * 2 >= total_b {
                concerns.push(Concern {
                    reason: "mostly_each_other",
                    accounts: accounts.clone(),
                    detail: format!(
                        "{games} rated games between them: of {name_a}'s {total_a} and {name_b}'s {total_b}"
                    ),
                });
            }
            let most = (*wins_a).max(*wins_b);
            if most * 10 >= games * 9 {
                let winner = if wins_a >= wins_b { &name_a } else { &name_b };
                concerns.push(Concern {
                    reason: "one_sided",
                    accounts,
                    detail: format!("{winner} won {most} of their {games} rated games"),
                });
            }
        }
        for (id, (games, fast)) in &totals {
            if *fast >= min_games.max(1) && fast * 2 >= *games {
                if let Some(name) = named(&mut known, *id)? {
                    concerns.push(Concern {
                        reason: "fast_losses",
                        accounts: vec![name],
                        detail: format!(
                            "{fast} of {games} rated games lost within {FAST_LOSS_PLIES} plies"
                        ),
                    });
                }
            }
        }
        let since =
            crate::clock::TimeSource::wall_ms() - crate::fairplay::SHARED_DAYS * 24 * 3600 * 1000;
        let mut shared: BTreeMap<(i64, i64), Vec<String>> = BTreeMap::new();
        for (a, b, address) in wait(store.sharing_pairs(Trace::Address, since))? {
            shared.entry((a, b)).or_default().push(address);
        }
        for ((a, b), addresses) in shared {
            if let (Some(name_a), Some(name_b)) = (named(&mut known, a)?, named(&mut known, b)?) {
                concerns.push(Concern {
                    reason: "shared_address",
                    accounts: vec![name_a, name_b],
                    detail: format!("used from {} in the last 30 days", addresses.join(", ")),
                });
            }
        }
        Ok(concerns)
    }

    /// The accounts whose rated games are suspiciously perfect, for a person to review:
    /// at least `min_games` rated games scored against the solved game whose mean
    /// accuracy is `threshold` or more, most accurate first.
    pub fn suspects(&self, min_games: usize, threshold: f64) -> anyhow::Result<Vec<Suspect>> {
        let mut shares: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
        for game in wait(self.store().rated_games())? {
            if game.at_ms.is_none() {
                continue;
            }
            let Some(live) = wait(self.games.load(&game.id)).map_err(|e| anyhow!("{e}"))? else {
                continue;
            };
            let Some(accuracy) = live.accuracy() else {
                continue;
            };
            let sides = [accuracy.red.accuracy, accuracy.blue.accuracy];
            for (holder, share) in game.holders.iter().zip(sides) {
                if let (Some(user), Some(share)) =
                    (holder.as_ref().and_then(Holder::account), share)
                {
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
            let Some(account) = wait(self.store().user(UserBy::Id(user)))? else {
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

/// `lgame admin backup`: a consistent copy of the SQLite database `db`, which a server may be
/// writing, to `out` (`force`: replacing it). Its schema is left as it is (no migration). A
/// PostgreSQL database is refused before connecting: `pg_dump` copies it (docs/deploy.md).
pub fn backup(
    db: &Database,
    out: &Path,
    force: bool,
    progress: &mut dyn FnMut(BackupProgress),
) -> anyhow::Result<Backed> {
    let source = match db {
        Database::Sqlite(path) => path,
        Database::Postgres(_) => bail!(
            "{db} is a PostgreSQL database: back it up with pg_dump (docs/deploy.md, \"Backups\")"
        ),
    };
    if out.exists() {
        // Renamed over the live database, the copy would leave the server writing to a file
        // no longer named.
        if let (Ok(a), Ok(b)) = (out.canonicalize(), source.canonicalize()) {
            if a == b {
                bail!("{} is the database itself", out.display());
            }
        }
        if !force {
            bail!(
                "{} exists: name a new file, or give --force to replace it",
                out.display()
            );
        }
    }
    write_once_whole(out, |partial| online_backup(source, partial, progress))
        .with_context(|| format!("backing up {db} to {}", out.display()))
}

/// A finished copy: its pages and its size in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backed {
    pub pages: u64,
    pub bytes: u64,
}

/// Has `write` make the file `out` as a hidden file beside it (`.NAME.partial`), renamed
/// `out` only once `write` succeeded, so that a half copy never carries the name; the
/// partial file is removed if `write` fails.
fn write_once_whole(
    out: &Path,
    write: impl FnOnce(&Path) -> anyhow::Result<u64>,
) -> anyhow::Result<Backed> {
    let partial = partial_path(out)?;
    // A partial file left by a copy that died is this copy's to replace.
    let _ = fs::remove_file(&partial);
    let pages = write(&partial).inspect_err(|_| {
        let _ = fs::remove_file(&partial);
    })?;
    let bytes = fs::metadata(&partial)?.len();
    fs::rename(&partial, out)
        .with_context(|| format!("renaming {} to {}", partial.display(), out.display()))?;
    // The rename itself on disk.
    let folder = out.parent().filter(|p| !p.as_os_str().is_empty());
    fs::File::open(folder.unwrap_or(Path::new(".")))?.sync_all()?;
    Ok(Backed { pages, bytes })
}

/// `.NAME.partial` beside `out`.
fn partial_path(out: &Path) -> anyhow::Result<PathBuf> {
    let name = out
        .file_name()
        .ok_or_else(|| anyhow!("{} names no file", out.display()))?;
    Ok(out.with_file_name(format!(".{}.partial", name.to_string_lossy())))
}

/// A reason to look at accounts, as [`Admin::concerns`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Concern {
    /// `mostly_each_other`, `one_sided`, `fast_losses` or `shared_address`.
    pub reason: &'static str,
    /// The accounts (a username, with ` (disabled)` for one disabled).
    pub accounts: Vec<String>,
    /// The figures, in words.
    pub detail: String,
}

/// A rated game lost in at most this many plies is lost fast (each side moved at most
/// three times).
pub const FAST_LOSS_PLIES: i64 = 6;

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

/// A finished rated game as the recomputation takes it.
struct Ended {
    at_ms: i64,
    id: String,
    players: [i64; 2],
    category: &'static str,
    result: lgame::game::GameResult,
}

/// The accounts of a database, read once each: `None` for one closed.
struct Known<'a> {
    store: &'a Store,
    users: BTreeMap<i64, Option<User>>,
}

impl Known<'_> {
    fn user(&mut self, id: i64) -> anyhow::Result<Option<&User>> {
        if !self.users.contains_key(&id) {
            let user = wait(self.store.user(UserBy::Id(id)))?;
            self.users.insert(id, user);
        }
        Ok(self.users.get(&id).and_then(Option::as_ref))
    }

    fn open(&mut self, id: i64) -> anyhow::Result<bool> {
        Ok(self.user(id)?.is_some())
    }

    fn disabled(&mut self, id: i64) -> anyhow::Result<bool> {
        Ok(self.user(id)?.is_some_and(|u| u.disabled))
    }
}

/// The finished rated games both sides moved in, in the order they ended: those that
/// changed ratings (their instants). A game that changed none is a problem, unless one of
/// its players is closed or disabled (a recomputation without their games left it out).
fn ended_in_order(known: &mut Known<'_>, problems: &mut Vec<String>) -> anyhow::Result<Vec<Ended>> {
    let mut ended = Vec::new();
    for game in wait(known.store.rated_games())? {
        let ResultToken::Finished(result) = game.outcome else {
            continue;
        };
        // Ended before both sides moved: never rated.
        if game.plies < crate::ratings::RATED_FROM_PLY {
            continue;
        }
        let players = game.holders.clone().map(|h| h?.account());
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
            Some(at_ms) => ended.push(Ended {
                at_ms,
                id: game.id,
                players: [red, blue],
                category,
                result,
            }),
            None if !known.open(red)? || !known.open(blue)? => {}
            None if known.disabled(red)? || known.disabled(blue)? => {}
            None => problems.push(format!("game {}: ended rated, changed no rating", game.id)),
        }
    }
    ended.sort_by(|a, b| (a.at_ms, &a.id).cmp(&(b.at_ms, &b.id)));
    Ok(ended)
}

/// [`Admin::check_ratings`] on a database./// [`Admin::check_ratings`] on a database.
pub(crate) fn check_ratings(store: &Store) -> anyhow::Result<RatingsCheck> {
    let mut problems = Vec::new();
    // A closed account's ratings and changes are erased with it; its games stay, and still
    // count for its opponents.
    let mut known = Known {
        store,
        users: BTreeMap::new(),
    };
    let ended = ended_in_order(&mut known, &mut problems)?;
    let mut ledger = Ledger::default();
    for game in &ended {
        ledger.rate(game.players, game.category, game.result, game.at_ms);
    }
    let stored: BTreeMap<(i64, String), crate::ratings::Entry> = wait(store.all_ratings())?
        .into_iter()
        .map(|(user, category, entry)| ((user, category), entry))
        .collect();
    let mut recomputed: BTreeMap<(i64, String), crate::ratings::Entry> = BTreeMap::new();
    for (user, category, entry) in ledger.entries() {
        if known.open(user)? {
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
