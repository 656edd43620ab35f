//! Solved tables for the requests that read them (analysis, classes): a table held in
//! memory is answered at once; a missing one is solved on the bounded pool of solvers while
//! the request waits without holding a thread, so that no number of such requests can take
//! the blocking threads the games' moves run on.
//!
//! The cache itself is `lgame_players::Tablebases` (the computer players probe the same
//! one): one solve per table however many ask at once, outside any lock another table's
//! user waits on, the least recently used tables dropped beyond the memory budget.

use std::sync::Arc;

use lgame::Rules;
use lgame_players::Tablebases;
use lgame_solver::Tablebase;
use tokio::sync::Semaphore;

use crate::games::{GameError, Games};

/// How many tables are solved at once: half the cores, at least one, so that solving never
/// takes every core from the games.
pub fn solvers() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    (cores / 2).max(1)
}

/// The server's table cache: at most `budget` bytes kept (`None`: no bound), [`solvers`]
/// solves at a time.
pub fn cache(budget: Option<u64>) -> Arc<Tablebases> {
    Arc::new(Tablebases::new(budget, solvers()))
}

/// The table for `rules`: the one held, or, once one of the `pool`'s permits (as many as
/// the cache's solvers) is free, solved (or waited for) on a blocking thread. A table the
/// server does not solve is refused (422).
pub async fn table(
    app: &Arc<Games>,
    pool: &Semaphore,
    rules: Rules,
) -> Result<Arc<Tablebase>, GameError> {
    if let Some(table) = app.tablebases.cached(&rules) {
        return Ok(table);
    }
    app.check_table(&rules)?;
    let _permit = pool
        .acquire()
        .await
        .map_err(|e| GameError::internal("waiting to solve a table", e))?;
    let tablebases = app.tablebases.clone();
    tokio::task::spawn_blocking(move || tablebases.get(&rules))
        .await
        .map_err(|e| GameError::internal("solving a table", e))
}
