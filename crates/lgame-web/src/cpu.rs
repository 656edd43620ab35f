//! Work that keeps a processor busy — a table solved, a computer's search, a diagram drawn,
//! a password hashed — run off the async threads, so that no request waits behind it. The
//! store is async and never needs this: its operations are awaited.

use crate::games::GameError;

/// Runs CPU-bound `work` on a blocking thread (inline where no runtime runs: `lgame admin`,
/// synchronous tests); its panic is the request's failure.
pub async fn cpu_bound<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, GameError> + Send + 'static,
) -> Result<T, GameError> {
    if tokio::runtime::Handle::try_current().is_err() {
        return work();
    }
    match tokio::task::spawn_blocking(work).await {
        Ok(answer) => answer,
        Err(e) => Err(GameError::internal("the request failed", e)),
    }
}
