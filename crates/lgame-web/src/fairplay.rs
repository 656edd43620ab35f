//! Fair play (docs/ratings.md, "Fair play"): the browsers and addresses an account uses,
//! noted when it logs in (and each day its session is renewed), and the one rule every
//! rated pairing asks — the lobby's seeks, quick pairing, challenges, arenas and rematches:
//! two accounts that have used the same browser (its anonymous identity's cookie) in the
//! last [`SHARED_DAYS`] days are never paired for a rated game. A shared address alone
//! refuses nothing (a school or a household shares one); `lgame admin suspects` lists it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::net::IpAddr;

use crate::games::{GameError, Games};
use crate::store::{Holder, Store};

pub mod rows;

pub use rows::{Footprint, Trace};

/// How long a browser or an address used by an account counts (and is kept).
pub const SHARED_DAYS: i64 = 30;

const SHARED_MS: i64 = SHARED_DAYS * 24 * 3600 * 1000;

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the fair-play database", e)
}

/// Where an account is used from: the client's address, and its browser's anonymous
/// holder if it has an identity.
#[derive(Debug, Clone)]
pub struct Client {
    pub address: IpAddr,
    pub browser: Option<Holder>,
}

/// Fair play's refusal, or a failure to read what it decides by.
#[derive(Debug)]
pub enum FairPlayError {
    /// A rated game between two accounts of one browser.
    SameBrowser,
    Game(GameError),
}

impl fmt::Display for FairPlayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FairPlayError::SameBrowser => f.write_str(
                "these two accounts have played from the same browser: \
                 they may play each other casually, not rated",
            ),
            FairPlayError::Game(e) => e.fmt(f),
        }
    }
}

impl From<GameError> for FairPlayError {
    fn from(e: GameError) -> FairPlayError {
        FairPlayError::Game(e)
    }
}

/// Account `user` is used from `client` at `now`, the server's time.
pub async fn note_use(
    store: &Store,
    client: &Client,
    user: i64,
    now: i64,
) -> Result<(), GameError> {
    let mut traces = vec![(Trace::Address, client.address.to_string())];
    // A browser's footprint is its holder's text, `a:HASH`.
    traces.extend(
        client
            .browser
            .iter()
            .map(|anon| (Trace::Browser, anon.to_string())),
    );
    for (trace, value) in traces {
        store
            .note_footprint(user, trace, &value, now, now - SHARED_MS)
            .await
            .map_err(storage)?;
    }
    Ok(())
}

/// Of these holders, the pairs that may not meet in a rated game (each pair as the two
/// holders in their order in `holders`): accounts that used one browser in the last
/// [`SHARED_DAYS`] days. Browsers without an account are never rated, and so never here.
/// The one function every rated pairing asks, at `now_ms`, the server's time.
pub async fn unpairable_at(
    store: &Store,
    holders: &[Holder],
    now_ms: i64,
) -> Result<BTreeSet<(usize, usize)>, GameError> {
    let since = now_ms - SHARED_MS;
    let accounts: BTreeMap<i64, Vec<usize>> =
        holders
            .iter()
            .enumerate()
            .fold(BTreeMap::new(), |mut by, (i, holder)| {
                if let Some(user) = holder.account() {
                    by.entry(user).or_insert_with(Vec::new).push(i);
                }
                by
            });
    let mut pairs = BTreeSet::new();
    for (user, places) in &accounts {
        let sharing = store.sharing_with(*user, Trace::Browser, since).await;
        for other in sharing.map_err(storage)? {
            for &i in places {
                for &j in accounts.get(&other).into_iter().flatten() {
                    pairs.insert((i.min(j), i.max(j)));
                }
            }
        }
    }
    Ok(pairs)
}

/// Refuses a rated game between holders `a` and `b` if [`unpairable_at`] says so, now.
pub async fn check_pair(games: &Games, a: &Holder, b: &Holder) -> Result<(), FairPlayError> {
    let now = games.time.now_ms();
    let pair = [a.clone(), b.clone()];
    match unpairable_at(&games.store, &pair, now).await?.is_empty() {
        true => Ok(()),
        false => Err(FairPlayError::SameBrowser),
    }
}
