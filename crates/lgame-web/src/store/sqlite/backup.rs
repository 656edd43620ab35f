//! A consistent copy of an SQLite database while a server writes to it (`lgame admin
//! backup`): SQLite's online backup API, a step of pages at a time, written beside the
//! destination and given its name only once complete and checked.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
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

/// A finished copy: its pages and its size in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backed {
    pub pages: u64,
    pub bytes: u64,
}

/// Copies the SQLite database `source` (which a server may be writing) to `out`, replacing
/// it: the database as it was when the copy began, what its WAL held included, as a plain
/// SQLite file (no WAL beside it). The copy is written to a hidden file beside `out` and
/// renamed `out` only once complete and `PRAGMA integrity_check` says `ok`, so a half copy
/// never carries the name. `progress` is told after each step.
pub fn online_backup(
    source: &Path,
    out: &Path,
    progress: &mut dyn FnMut(BackupProgress),
) -> anyhow::Result<Backed> {
    let partial = partial_path(out)?;
    let pages = match copy(source, &partial, progress) {
        Ok(pages) => pages,
        Err(e) => {
            let _ = fs::remove_file(&partial);
            return Err(e);
        }
    };
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

/// The copy itself, to `partial`, checked: answers its pages.
fn copy(
    source: &Path,
    partial: &Path,
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
    // A partial file left by a copy that died is this copy's to replace.
    let _ = fs::remove_file(partial);
    let mut to = Connection::open(partial)
        .with_context(|| format!("creating the copy {}", partial.display()))?;
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
