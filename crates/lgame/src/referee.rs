//! The automatic referee: reads a game record leniently, line by line, replays it as far as
//! it is valid, and says what really happened — the first problem (with its ply and line), the
//! true result and how the game ended, whether the record's result token agrees, and the
//! final position. Pure: text in, a [`Judgement`] out.
//!
//! ```
//! use lgame::game::{GameResult, ResultToken};
//! use lgame::referee::judge;
//!
//! let text = "[Setup \"kit\"]\n1. A2,A3,A4,B4 B2-A1\n2. B2,B3,C2,D2 C3-C4\n1-0\n";
//! let judgement = judge(text)?;
//! assert!(!judgement.valid);
//! assert_eq!(judgement.plies, 2);
//! assert_eq!(judgement.result, ResultToken::Finished(GameResult::BlueWins));
//! assert_eq!(judgement.ending, "trapped");
//! assert!(!judgement.result_agrees);
//! let error = judgement.error.unwrap();
//! assert_eq!((error.ply, error.move_text.as_str()), (2, "1-0"));
//! assert_eq!(
//!     error.reason,
//!     "the record's result 1-0 contradicts the moves, which give 0-1"
//! );
//! # Ok::<(), lgame::referee::UnreadableRecord>(())
//! ```
//!
//! The record is read by the same machinery as [`Record`]'s `FromStr`; what differs is that
//! the referee plays each move as soon as it is read, so the first problem in reading order is
//! the one reported: a bad tag before an illegal move, an illegal move before a line that
//! cannot be read further on.

use std::fmt;

use crate::game::{Conclusion, Game, ResultToken};
use crate::record::{Entries, Entry, EntryKind, ParseRecordError, Record, RecordError};

/// Input that is not a record at all, as opposed to a record with something wrong in it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnreadableRecord {
    /// Nothing, or nothing but white space.
    Empty,
    /// Bytes that are not UTF-8.
    NotUtf8 {
        /// The offset of the first byte that is not.
        offset: usize,
    },
    /// Not text: a NUL character (a binary file, or text in UTF-16).
    NotText {
        /// Its byte offset.
        offset: usize,
    },
}

impl fmt::Display for UnreadableRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnreadableRecord::Empty => f.write_str("the record is empty"),
            UnreadableRecord::NotUtf8 { offset } => write!(
                f,
                "not a text record: the bytes at offset {offset} are not UTF-8"
            ),
            UnreadableRecord::NotText { offset } => write!(
                f,
                "not a text record: it holds a NUL character at byte offset {offset}"
            ),
        }
    }
}

impl std::error::Error for UnreadableRecord {}

/// The first problem in a record.
///
/// - A move that cannot be read or is illegal: its ply number (1 = Red's first move), the
///   move as written (without its number) and the rules' reason.
/// - A header problem (a tag that cannot be read, a bad `Variant`, `Setup`, `TurnLimit`,
///   `Repetition` or `Termination` value): ply 0 and no move.
/// - A result token that contradicts the moves or the `Result` tag: the ply count, and the
///   token as the move.
/// - Anything else (a missing result token, text after it, a tag after the moves, a comment
///   never closed): the ply count and no move.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JudgeError {
    /// The ply of the bad move, 0 for the header, else the number of plies played before.
    pub ply: usize,
    /// The line (counted from 1); `None` for a problem at the end of the text.
    pub line: Option<usize>,
    /// The move or result token as written, or empty.
    pub move_text: String,
    /// Why it is wrong, in the rules crate's words.
    pub reason: String,
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}", self.ply)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if !self.move_text.is_empty() {
            write!(f, ", '{}'", self.move_text)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for JudgeError {}

/// What the referee found in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// No problem at all: every tag, every move and the result token are right.
    pub valid: bool,
    /// The plies replayed validly.
    pub plies: usize,
    /// The true result of the replayed game: what the moves give, or the declared result when
    /// a `Termination` tag explains the record's token. `*` if not finished.
    pub result: ResultToken,
    /// How the replayed game ended: `trapped`, `symmetry`, `score target`, `turn limit`,
    /// `repetition`, `resignation`, `agreement`, `forfeit`, `abandoned`, `time`,
    /// `aborted`, or `unfinished`.
    pub ending: String,
    /// The first problem, if any.
    pub error: Option<JudgeError>,
    /// The record's result token, if it has one.
    pub record_result: Option<ResultToken>,
    /// Whether the record's result token is the true result (false without a token, or when
    /// the header could not set up a game).
    pub result_agrees: bool,
    /// The position after the last valid ply, in canonical text; empty when the header could
    /// not set up a game.
    pub final_position: String,
    /// The tags read before the first problem, in their order.
    pub tags: Vec<(String, String)>,
    /// The game as replayed; `None` when the header could not set one up.
    pub game: Option<Game>,
}

impl Judgement {
    /// How the replayed game ended, if it did.
    pub fn conclusion(&self) -> Option<Conclusion> {
        self.game.as_ref()?.conclusion()
    }
}

/// Judges a record given as bytes: [`judge`] after checking that they are UTF-8.
///
/// # Errors
/// [`UnreadableRecord`] for bytes that are not UTF-8 text, or no record at all.
///
/// ```
/// use lgame::referee::{judge_bytes, UnreadableRecord};
///
/// let judgement = judge_bytes(b"\xEF\xBB\xBF1. A1,A2,A3,B3\n*\n")?;
/// assert!(judgement.valid, "a byte-order mark is skipped");
/// assert_eq!(judgement.final_position, "N.../RRB./R.B./RBBN b");
///
/// let latin1 = b"[Red \"Jos\xE9\"]\n*\n";
/// let err = judge_bytes(latin1).unwrap_err();
/// assert_eq!(err, UnreadableRecord::NotUtf8 { offset: 9 });
/// assert_eq!(err.to_string(), "not a text record: the bytes at offset 9 are not UTF-8");
///
/// let utf16 = b"1\0.\0";
/// assert_eq!(judge_bytes(utf16).unwrap_err(), UnreadableRecord::NotText { offset: 1 });
/// # Ok::<(), UnreadableRecord>(())
/// ```
pub fn judge_bytes(bytes: &[u8]) -> Result<Judgement, UnreadableRecord> {
    let text = std::str::from_utf8(bytes).map_err(|e| UnreadableRecord::NotUtf8 {
        offset: e.valid_up_to(),
    })?;
    judge(text)
}

/// Judges a record: replays it as far as it is valid and reports the first problem, the true
/// result and the final position. A byte-order mark at the start is skipped.
///
/// # Errors
/// [`UnreadableRecord`] only for input that is not a record at all (empty, or not text); every
/// problem inside a record is in the [`Judgement`].
///
/// ```
/// use lgame::game::{GameResult, ResultToken};
/// use lgame::referee::judge;
///
/// let good = "[Setup \"kit\"]\n1. A2,A3,A4,B4 B2-A1\n2. B2,B3,C2,D2 C3-C4\n0-1\n";
/// let judgement = judge(good)?;
/// assert!(judgement.valid && judgement.result_agrees);
/// assert_eq!(judgement.result, ResultToken::Finished(GameResult::BlueWins));
/// assert_eq!(judgement.ending, "trapped");
/// assert_eq!(judgement.final_position, "RRN./RB../RBBB/N... r");
///
/// // The second move is illegal: the game is replayed up to it.
/// let bad = "[Setup \"kit\"]\n1. A2,A3,A4,B4 B2-A1\n2. A1,B1,C1,C2\n*\n";
/// let judgement = judge(bad)?;
/// assert!(!judgement.valid);
/// assert_eq!(judgement.plies, 1);
/// assert_eq!(judgement.ending, "unfinished");
/// let error = judgement.error.expect("a problem");
/// assert_eq!((error.ply, error.line), (2, Some(3)));
/// assert_eq!(
///     error.to_string(),
///     "ply 2, line 3, 'A1,B1,C1,C2': the L cannot go on A1: it is occupied by a neutral"
/// );
///
/// assert_eq!(judge(" \n").unwrap_err().to_string(), "the record is empty");
/// # Ok::<(), lgame::referee::UnreadableRecord>(())
/// ```
pub fn judge(text: &str) -> Result<Judgement, UnreadableRecord> {
    if let Some(offset) = text.find('\0') {
        return Err(UnreadableRecord::NotText { offset });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(UnreadableRecord::Empty);
    }
    let mut referee = Referee::new();
    for entry in Entries::new(text) {
        if referee.error.is_some() {
            // Nothing more is replayed, but the record's own result is still worth knowing.
            if let Ok(EntryKind::Result(token)) = entry.kind {
                referee.record_result.get_or_insert(token);
            }
            continue;
        }
        referee.take(entry);
    }
    Ok(referee.judgement())
}

/// The referee's state while reading: the tags read, the game once the header is read, and
/// the first problem.
struct Referee {
    /// The tags read (and, once read, the result token), for [`Record`]'s tag handling.
    record: Record,
    /// The line of each tag of `record`.
    tag_lines: Vec<usize>,
    /// Whether the header has been read (the game is set up, or could not be).
    header_read: bool,
    game: Option<Game>,
    error: Option<JudgeError>,
    record_result: Option<ResultToken>,
}

impl Referee {
    fn new() -> Referee {
        let record = Record {
            tags: Vec::new(),
            comment: None,
            moves: Vec::new(),
            result: ResultToken::Unfinished,
        };
        Referee {
            record,
            tag_lines: Vec::new(),
            header_read: false,
            game: None,
            error: None,
            record_result: None,
        }
    }

    fn fail(&mut self, ply: usize, line: Option<usize>, move_text: &str, reason: String) {
        self.error = Some(JudgeError {
            ply,
            line,
            move_text: move_text.to_string(),
            reason,
        });
    }

    fn plies(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.plies().len())
    }

    /// The game, set up from the tags at the first line that is not a tag; `None` when the
    /// header is wrong.
    fn game_after_header(&mut self) -> Option<&mut Game> {
        if !self.header_read {
            self.read_header();
        }
        self.game.as_mut()
    }

    /// Sets up the game from the tags; a tag value that is wrong is a header problem, on that
    /// tag's line.
    fn read_header(&mut self) {
        self.header_read = true;
        let setup = self
            .record
            .new_game()
            .and_then(|game| self.record.termination().map(|_| game));
        match setup {
            Ok(game) => self.game = Some(game),
            Err(e) => {
                let tag = match &e {
                    RecordError::Variant(_) => "Variant",
                    RecordError::Setup(_) | RecordError::SetupConflict(_) => "Setup",
                    RecordError::TagValue { name, .. } => name.as_str(),
                    _ => "",
                };
                let line = self
                    .record
                    .tags
                    .iter()
                    .position(|(name, _)| name == tag)
                    .map(|i| self.tag_lines[i]);
                self.fail(0, line, "", e.to_string());
            }
        }
    }

    fn take(&mut self, entry: Entry) {
        let line = Some(entry.line);
        match entry.kind {
            Ok(EntryKind::Blank) => {}
            Ok(EntryKind::Tag { name, value }) => {
                self.record.tags.push((name, value));
                self.tag_lines.push(entry.line);
            }
            // Only the header holds tags, so these are header problems.
            Err(e @ (ParseRecordError::BadTag { .. } | ParseRecordError::RepeatedTag { .. })) => {
                self.fail(0, line, "", e.reason());
            }
            Ok(EntryKind::Move { ply, mv }) => {
                if let Some(game) = self.game_after_header() {
                    if let Err(reason) = game.play(&mv) {
                        self.fail(ply, line, &entry.text, reason.to_string());
                    }
                }
            }
            Ok(EntryKind::Result(token)) => {
                self.record_result = Some(token);
                self.record.result = token;
                if self.game_after_header().is_none() {
                    return;
                }
                let plies = self.plies();
                let game = self.game.as_mut().expect("the header is read");
                if let Err(e) = self.record.conclude(game) {
                    self.fail(plies, line, &entry.text, e.to_string());
                }
            }
            Err(e) => {
                if self.game_after_header().is_none() {
                    return;
                }
                match e {
                    ParseRecordError::BadMove { ply, .. }
                    | ParseRecordError::WrongMoveNumber { expected: ply, .. } => {
                        self.fail(ply, e.line(), &entry.text, e.reason())
                    }
                    _ => self.fail(self.plies(), e.line(), "", e.reason()),
                }
            }
        }
    }

    fn judgement(self) -> Judgement {
        let plies = self.plies();
        let (result, ending, final_position) = match &self.game {
            Some(game) => (
                game.result_token(),
                game.conclusion().map_or("unfinished", |c| c.ending.name()),
                game.position().to_string(),
            ),
            None => (ResultToken::Unfinished, "unfinished", String::new()),
        };
        Judgement {
            valid: self.error.is_none(),
            plies,
            result,
            ending: ending.to_string(),
            result_agrees: self.game.is_some() && self.record_result == Some(result),
            error: self.error,
            record_result: self.record_result,
            final_position,
            tags: self.record.tags,
            game: self.game,
        }
    }
}
