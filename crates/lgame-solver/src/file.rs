//! The tablebase file: a versioned binary format with a header and a checksum.
//!
//! All integers are little-endian.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `LGAMETB\0` |
//! | 4 | format version, 1 |
//! | 2 | length n of the rules text |
//! | n | the rules' canonical text (UTF-8) |
//! | 1, 1 | board width, height |
//! | 1 | neutrals |
//! | 1 | scoring target, 0 without scoring |
//! | 8 | number of states S (the index of `StateIndex`) |
//! | 8 × 4 | positions won, lost, drawn, and indices that are not positions |
//! | 2 × S | each state's value: `plies * 2 + 1` won, `plies * 2` lost, `0xFFFF` drawn, `0xFFFE` not a position |
//! | 8 | FNV-1a (64 bit) of every byte before it |
//!
//! Reading checks all of it: magic, version, that the rules parse and match the geometry
//! fields, the state count, the exact length, the checksum, and the counts against the
//! values.

use std::fmt;
use std::io::{self, Read, Write};

use lgame::Rules;

use crate::index::StateIndex;
use crate::tablebase::Tablebase;
use crate::value::packed;

const MAGIC: &[u8; 8] = b"LGAMETB\0";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

/// Why a tablebase file could not be read.
#[derive(Debug)]
pub enum FileError {
    /// Reading failed.
    Io(io::Error),
    /// Not a tablebase file.
    BadMagic,
    /// A version this code does not read.
    UnsupportedVersion(u32),
    /// The file ends early.
    Truncated {
        /// Bytes the header says there should be.
        expected: u64,
        /// Bytes there are.
        found: u64,
    },
    /// Bytes after the checksum.
    TrailingBytes {
        /// How many.
        extra: u64,
    },
    /// The rules text does not parse.
    BadRules(String),
    /// A header field disagrees with the rules.
    Header(String),
    /// The checksum does not match: the file is corrupted.
    Checksum,
    /// A value or count is not what the data holds.
    Corrupt(String),
    /// The file holds another variant than the one asked for.
    WrongVariant {
        /// The file's rules.
        file: String,
        /// The rules asked for.
        expected: String,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "cannot read the tablebase: {e}"),
            FileError::BadMagic => f.write_str("not an lgame tablebase file (bad magic bytes)"),
            FileError::UnsupportedVersion(v) => write!(
                f,
                "tablebase format version {v} is not supported (this lgame reads version \
                 {VERSION})"
            ),
            FileError::Truncated { expected, found } => write!(
                f,
                "the tablebase file is truncated: {found} bytes, expected {expected}"
            ),
            FileError::TrailingBytes { extra } => {
                write!(
                    f,
                    "the tablebase file has {extra} unexpected bytes at the end"
                )
            }
            FileError::BadRules(e) => write!(f, "the tablebase's rules are unreadable: {e}"),
            FileError::Header(e) => write!(f, "the tablebase header is inconsistent: {e}"),
            FileError::Checksum => {
                f.write_str("the tablebase file is corrupted (checksum mismatch)")
            }
            FileError::Corrupt(e) => write!(f, "the tablebase file is corrupted: {e}"),
            FileError::WrongVariant { file, expected } => {
                write!(f, "the tablebase is for {file}, not {expected}")
            }
        }
    }
}

impl std::error::Error for FileError {}

impl From<io::Error> for FileError {
    fn from(e: io::Error) -> FileError {
        FileError::Io(e)
    }
}

/// FNV-1a, 64 bit.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Counts of won, lost, drawn and not-a-position entries.
fn counts(values: &[u16]) -> [u64; 4] {
    let mut c = [0u64; 4];
    for &v in values {
        let slot = match v {
            packed::NOT_A_POSITION => 3,
            packed::DRAW => 2,
            v if v & 1 == 1 => 0,
            _ => 1,
        };
        c[slot] += 1;
    }
    c
}

/// The file's bytes for a table.
pub fn to_bytes(tb: &Tablebase) -> Vec<u8> {
    let rules = tb.rules();
    let text = rules.to_string();
    let values = tb.raw_values();
    let mut out = Vec::with_capacity(64 + text.len() + values.len() * 2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(text.len() as u16).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    out.push(rules.board().width());
    out.push(rules.board().height());
    out.push(rules.neutrals());
    out.push(rules.scoring_target().unwrap_or(0));
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    for c in counts(values) {
        out.extend_from_slice(&c.to_le_bytes());
    }
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Writes a table.
///
/// # Errors
/// Any error of the writer.
pub fn write(tb: &Tablebase, mut w: impl Write) -> io::Result<()> {
    w.write_all(&to_bytes(tb))?;
    w.flush()
}

/// A cursor that reports truncation instead of panicking.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, expected_total: u64) -> Result<&'a [u8], FileError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(FileError::Truncated {
            expected: expected_total.max((self.at + n) as u64),
            found: self.bytes.len() as u64,
        })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u64(&mut self) -> Result<u64, FileError> {
        let b = self.take(8, 0)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
}

/// Reads a table from its bytes.
///
/// # Errors
/// A [`FileError`] saying what is wrong with the file.
pub fn from_bytes(bytes: &[u8]) -> Result<Tablebase, FileError> {
    let mut c = Cursor { bytes, at: 0 };
    if c.take(8, 0)? != MAGIC {
        return Err(FileError::BadMagic);
    }
    let version = u32::from_le_bytes(c.take(4, 0)?.try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(FileError::UnsupportedVersion(version));
    }
    let n = u16::from_le_bytes(c.take(2, 0)?.try_into().expect("2 bytes")) as usize;
    let text =
        std::str::from_utf8(c.take(n, 0)?).map_err(|_| FileError::BadRules("not UTF-8".into()))?;
    let rules: Rules = text
        .parse()
        .map_err(|e: lgame::rules::RulesError| FileError::BadRules(format!("'{text}': {e}")))?;
    let geometry = c.take(4, 0)?;
    let expected_geometry = [
        rules.board().width(),
        rules.board().height(),
        rules.neutrals(),
        rules.scoring_target().unwrap_or(0),
    ];
    if geometry != expected_geometry {
        return Err(FileError::Header(format!(
            "board, neutrals and target {geometry:?} do not match the rules {text}"
        )));
    }
    let states = c.u64()?;
    let index = StateIndex::new(&rules);
    if states != index.len() {
        return Err(FileError::Header(format!(
            "{states} states, but {text} has {}",
            index.len()
        )));
    }
    let mut stored_counts = [0u64; 4];
    for slot in &mut stored_counts {
        *slot = c.u64()?;
    }
    let expected_total = c.at as u64 + states * 2 + 8;
    if (bytes.len() as u64) < expected_total {
        return Err(FileError::Truncated {
            expected: expected_total,
            found: bytes.len() as u64,
        });
    }
    if bytes.len() as u64 > expected_total {
        return Err(FileError::TrailingBytes {
            extra: bytes.len() as u64 - expected_total,
        });
    }
    let data = c.take(states as usize * 2, expected_total)?;
    let body_end = c.at;
    let sum = c.u64()?;
    if sum != fnv1a(&bytes[..body_end]) {
        return Err(FileError::Checksum);
    }
    let values: Vec<u16> = data
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    if counts(&values) != stored_counts {
        return Err(FileError::Corrupt(
            "the won/lost/drawn counts do not match the values".into(),
        ));
    }
    Ok(Tablebase::from_parts(index, values))
}

/// Reads a table.
///
/// # Errors
/// A [`FileError`] saying what is wrong with the file.
pub fn read(mut r: impl Read) -> Result<Tablebase, FileError> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes)?;
    from_bytes(&bytes)
}

/// Reads a table and checks that it answers positions under the expected rules (see
/// [`Tablebase::answers`]).
///
/// # Errors
/// As [`read`], and [`FileError::WrongVariant`] for another variant.
pub fn read_expecting(r: impl Read, rules: &Rules) -> Result<Tablebase, FileError> {
    let tb = read(r)?;
    if !tb.answers(rules) {
        return Err(FileError::WrongVariant {
            file: tb.rules().to_string(),
            expected: rules.to_string(),
        });
    }
    Ok(tb)
}
