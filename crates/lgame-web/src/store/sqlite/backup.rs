//! A consistent copy of an SQLite database while a server writes to it (`lgame admin
//! backup`, which gives the copy its name): SQLite's online backup API, a step of pages at
//! a time.

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

/// Pages copied a step (4 MiB at SQLite's default page of 4 KiB).
const PAGES_A_STEP: i32 = 1024;

/// The pause after each step, so that the copy leaves the disk to the server's writer now
/// and then (in WAL mode the copy's reading never blocks the writer).
const PAUSE: Duration = Duration::from_millis(5);

/// How long a step may be refused for a lock (`Busy`) before the copy gives up.
const BUSY_FOR: Duration = Duration::from_secs(5);

/// How far a copy is: pages copied of the database's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackupProgress {
    pub copied: u64,
    pub total: u64,
}

/// Copies the SQLite database `source` (which a server may be writing) to the new file
/// `dest`: the database as it was when the copy began, what its WAL held included, as a
/// plain SQLite file (no WAL beside it), checked by `PRAGMA integrity_check`. `progress` is
/// told after each step. Answers the copy's pages.
pub fn online_backup(
    source: &Path,
    dest: &Path,
    progress: &mut dyn FnMut(BackupProgress),
) -> anyhow::Result<u64> {
    // Read-only: a missing file is an error, not a new empty database.
    let from = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|conn| {
            conn.busy_timeout(BUSY_FOR)?;
            // One read transaction for the whole copy: its snapshot is what is copied,
            // while the server's writer goes on beside it (WAL). Without it each step would
            // read afresh, and SQLite starts a copy over whenever the database changed
            // between steps: under steady play, a large copy would never finish.
            conn.execute_batch("BEGIN; SELECT count(*) FROM sqlite_schema;")?;
            Ok(conn)
        })
        .with_context(|| format!("opening the database {}", source.display()))?;
    let mut to =
        Connection::open(dest).with_context(|| format!("creating the copy {}", dest.display()))?;
    {
        let backup = Backup::new(&from, &mut to)?;
        let mut busy = Duration::ZERO;
        loop {
            let step = backup.step(PAGES_A_STEP)?;
            let now = backup.progress();
            progress(BackupProgress {
                copied: (now.pagecount - now.remaining) as u64,
                total: now.pagecount as u64,
            });
            match step {
                StepResult::Done => break,
                StepResult::More => busy = Duration::ZERO,
                _ if busy >= BUSY_FOR => bail!("the database stayed locked for {BUSY_FOR:?}"),
                _ => busy += PAUSE,
            }
            std::thread::sleep(PAUSE);
        }
    }
    from.execute_batch("COMMIT")?;
    // The copy's header says WAL if the source's did: a plain file instead, whole in itself
    // (the server turns WAL on again when it opens it).
    to.query_row("PRAGMA journal_mode = DELETE", [], |_| Ok(()))?;
    let check: Vec<String> = to
        .prepare("PRAGMA integrity_check")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    if check != ["ok"] {
        bail!("the copy fails its integrity check: {}", check.join("; "));
    }
    let pages: u64 = to.query_row("PRAGMA page_count", [], |row| row.get(0))?;
    to.close().map_err(|(_, e)| e)?;
    Ok(pages)
}
