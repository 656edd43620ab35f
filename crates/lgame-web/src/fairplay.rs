//! Fair play (docs/ratings.md, "Fair play"): the browsers and addresses an account uses,
//! noted when it logs in (and each day its session is renewed), and the one rule every
//! rated pairing asks — the lobby's seeks, quick pairing, challenges, arenas and rematches:
//! two accounts that have used the same browser (its anonymous identity's cookie) in the
//! last [`SHARED_DAYS`] days are never paired for a rated game. A shared address alone
//! refuses nothing (a school or a household shares one); `lgame admin suspects` lists it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::http::StatusCode;

use crate::cpu::cpu_bound;
use crate::error::ApiError;
use crate::games::{GameError, Games};
use crate::identity::Caller;
use crate::store::{account_of, wait, Store, Trace};

/// How long a browser or an address used by an account counts (and is kept).
pub const SHARED_DAYS: i64 = 30;

const SHARED_MS: i64 = SHARED_DAYS * 24 * 3600 * 1000;

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the fair-play database", e)
}

/// Account `user` is used from the caller's browser and address at `now`, the server's
/// time. (Blocking.)
pub async fn note_use(
    store: &Store,
    caller: &Caller,
    user: i64,
    now: i64,
) -> Result<(), GameError> {
    let mut traces = vec![(Trace::Address, caller.client().to_string())];
    traces.extend(caller.anon_holder().map(|anon| (Trace::Browser, anon)));
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
/// The one function every rated pairing asks, at `now_ms`, the server's time. (Blocking.)
pub fn unpairable_at(
    store: &Store,
    holders: &[&str],
    now_ms: i64,
) -> Result<BTreeSet<(usize, usize)>, GameError> {
    let since = now_ms - SHARED_MS;
    let accounts: BTreeMap<i64, Vec<usize>> =
        holders
            .iter()
            .enumerate()
            .fold(BTreeMap::new(), |mut by, (i, holder)| {
                if let Some(user) = account_of(Some(holder)) {
                    by.entry(user).or_insert_with(Vec::new).push(i);
                }
                by
            });
    let mut pairs = BTreeSet::new();
    for (user, places) in &accounts {
        for other in wait(store.sharing_with(*user, Trace::Browser, since)).map_err(storage)? {
            for &i in places {
                for &j in accounts.get(&other).into_iter().flatten() {
                    pairs.insert((i.min(j), i.max(j)));
                }
            }
        }
    }
    Ok(pairs)
}

/// The refusal of a rated game between two accounts of one browser.
pub fn same_browser() -> ApiError {
    let message = "these two accounts have played from the same browser: \
                   they may play each other casually, not rated";
    ApiError::new(StatusCode::FORBIDDEN, message).kind("same_browser")
}

/// Refuses a rated game between holders `a` and `b` if [`unpairable_at`] says so, now.
pub async fn check_pair(games: &Arc<Games>, a: &str, b: &str) -> Result<(), ApiError> {
    let (games, a, b) = (games.clone(), a.to_string(), b.to_string());
    let now = games.time.now_ms();
    let refused =
        cpu_bound(move || Ok(!unpairable_at(&games.store, &[&a, &b], now)?.is_empty())).await?;
    if refused {
        return Err(same_browser());
    }
    Ok(())
}
