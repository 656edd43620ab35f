//! The large-board table file: a 32-byte header, the rules as text, then a byte a slot.
//!
//! ```text
//! 0   8  magic "LGAMEBIG"
//! 8   4  format version (1), little-endian like every number here
//! 12  4  the next level to solve
//! 16  4  1 when every level is solved (a result), 0 for a checkpoint
//! 20  4  length R of the rules text
//! 24  8  number of slots S
//! 32  R  the rules, as `Rules`'s text (`board=6x6,neutrals=5`)
//! 32+R S the slots ([`super::decode`])
//! ```
//!
//! A file is written to `NAME.tmp` and renamed over `NAME` once synced, so a checkpoint is
//! never half written. Probing maps the file (memmap2) and reads the one byte it needs.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use lgame::{Position, Rules};
use memmap2::Mmap;

use super::{decode, Space};
use crate::value::Value;

const MAGIC: &[u8; 8] = b"LGAMEBIG";
const VERSION: u32 = 1;
const HEADER: usize = 32;

/// Writes a table (atomically: a temporary file renamed over `path`).
pub(crate) fn write(
    path: &Path,
    space: &Space,
    table: &[u8],
    next_level: u32,
    complete: bool,
) -> std::io::Result<()> {
    write_with(path, space, next_level, complete, |file, start| {
        write_at(file, start, table)
    })
}

/// Writes `bytes` at `offset` of `file`.
pub(crate) fn write_at(mut file: &File, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(offset))?;
    file.write_all(bytes)
}

/// Writes a table's header, then lets `slots` write the slots into the file from the
/// offset it is given (with [`write_at`], in any order); atomically, as [`write`].
pub(crate) fn write_with(
    path: &Path,
    space: &Space,
    next_level: u32,
    complete: bool,
    slots: impl FnOnce(&File, u64) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let rules = space.rules().to_string();
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut header = Vec::with_capacity(HEADER + rules.len());
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&next_level.to_le_bytes());
    header.extend_from_slice(&u32::from(complete).to_le_bytes());
    header.extend_from_slice(&(rules.len() as u32).to_le_bytes());
    header.extend_from_slice(&space.slots().to_le_bytes());
    header.extend_from_slice(rules.as_bytes());
    let mut f = File::create(&tmp)?;
    f.write_all(&header)?;
    slots(&f, header.len() as u64)?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}

/// Why a table file cannot be used.
#[derive(Debug)]
pub enum LargeFileError {
    /// Reading failed.
    Io(std::io::Error),
    /// Not a large-board table, or damaged.
    Format(String),
    /// The position is not under the table's rules.
    RulesMismatch {
        /// The table's rules.
        table: String,
        /// The position's rules.
        position: String,
    },
    /// The table is a checkpoint: its values are not final.
    Incomplete,
}

impl std::fmt::Display for LargeFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LargeFileError::Io(e) => write!(f, "{e}"),
            LargeFileError::Format(why) => write!(f, "not a large-board table: {why}"),
            LargeFileError::RulesMismatch { table, position } => write!(
                f,
                "the table is for '{table}', the position is under '{position}'"
            ),
            LargeFileError::Incomplete => f.write_str(
                "the table is a checkpoint of an unfinished solve (resume it to finish)",
            ),
        }
    }
}

impl std::error::Error for LargeFileError {}

impl From<std::io::Error> for LargeFileError {
    fn from(e: std::io::Error) -> Self {
        LargeFileError::Io(e)
    }
}

/// A table file, memory-mapped: only the pages probed are read.
pub struct LargeTable {
    space: Space,
    map: Mmap,
    start: usize,
    next_level: u32,
    complete: bool,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

impl LargeTable {
    /// Opens (maps) a table file and checks its header against its rules' space.
    pub fn open(path: &Path) -> Result<LargeTable, LargeFileError> {
        let file = File::open(path)?;
        // SAFETY: the map is read-only; a file changed underneath by another process would
        // give wrong values, not unsafety in this program's own data (bytes are plain u8).
        let map = unsafe { Mmap::map(&file)? };
        let bad = |why: &str| LargeFileError::Format(why.to_string());
        if map.len() < HEADER || &map[..8] != MAGIC {
            return Err(bad("no LGAMEBIG header"));
        }
        if u32_at(&map, 8) != VERSION {
            return Err(bad("unknown format version"));
        }
        let next_level = u32_at(&map, 12);
        let complete = u32_at(&map, 16) == 1;
        let rules_len = u32_at(&map, 20) as usize;
        let slots = u64::from_le_bytes(map[24..32].try_into().expect("8 bytes"));
        let text = map
            .get(HEADER..HEADER + rules_len)
            .and_then(|t| std::str::from_utf8(t).ok())
            .ok_or_else(|| bad("the rules text is cut or not UTF-8"))?;
        let rules: Rules = text
            .parse()
            .map_err(|e| LargeFileError::Format(format!("rules '{text}': {e}")))?;
        let space =
            Space::new(&rules).map_err(|e| LargeFileError::Format(format!("'{text}': {e}")))?;
        let start = HEADER + rules_len;
        if slots != space.slots() || (map.len() - start) as u64 != slots {
            return Err(LargeFileError::Format(format!(
                "'{text}' has {} slots; the header says {slots} and the file holds {}",
                space.slots(),
                map.len() - start
            )));
        }
        Ok(LargeTable {
            space,
            map,
            start,
            next_level,
            complete,
        })
    }

    /// The ranking of the table's classes.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// Whether the solve is finished (a checkpoint is not).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The next level a resumed solve runs.
    pub fn next_level(&self) -> u32 {
        self.next_level
    }

    /// The slots' bytes, mapped.
    pub fn bytes(&self) -> &[u8] {
        &self.map[self.start..]
    }

    /// The value of a position for the player to move.
    pub fn value(&self, position: &Position) -> Result<Value, LargeFileError> {
        if !self.complete {
            return Err(LargeFileError::Incomplete);
        }
        let slot = self
            .space
            .slot_of(position)
            .ok_or_else(|| LargeFileError::RulesMismatch {
                table: self.space.rules().to_string(),
                position: position.rules().to_string(),
            })?;
        Ok(decode(self.bytes()[slot as usize]))
    }
}
