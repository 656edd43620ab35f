//! Game records: the plain-text form of notation.md, read and written with the tags kept,
//! and replayed under their rules.
//!
//! ```
//! use lgame::Record;
//! use lgame::game::GameResult;
//!
//! let text = r#"[Variant "classic"]
//! [Setup "..BB/R.NB/RN.B/RR.. r"]
//! [Red "Ada"]
//!
//! 1. A2,A3,A4,B4 B2-A1  {the kit's example move}
//! 2. B2,B3,C2,D2 C3-C4
//! 0-1
//! "#;
//! let record: Record = text.parse()?;
//! assert_eq!(record.tag("Red"), Some("Ada"));
//! let game = record.replay()?;
//! assert_eq!(game.conclusion().unwrap().result, Some(GameResult::BlueWins));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::game::{DrawRules, Game, GameError, ResultToken, Termination};
use crate::moves::Move;
use crate::notation::ParseMoveError;
use crate::position::{Position, PositionError};
use crate::rules::{Rules, RulesError, StartSetup};

/// What a `Repetition` tag of `1` is not.
const REPETITION_COUNT: &str = "a repetition count: every position occurs once, so the count \
     must be 2 or more (or 0 for no repetition draw)";

/// A move of a record with its comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordMove {
    /// The move.
    pub mv: Move,
    /// The text of the `{...}` comments after it, joined by spaces.
    pub comment: Option<String>,
}

/// A game record: tags in their order, an optional comment before the moves, the moves, and
/// the result token.
///
/// ```
/// use lgame::Record;
/// use lgame::game::{GameResult, ResultToken};
///
/// let text = r#"[Variant "classic"]
/// [Setup "..BB/R.NB/RN.B/RR.. r"]
/// [Red "Ada"]
/// [Blue "computer (perfect)"]
/// [Result "0-1"]
///
/// 1. A2,A3,A4,B4 B2-A1  {the kit's example move}
/// 2. B2,B3,C2,D2 C3-C4  {Red cannot move their L}
/// 0-1
/// "#;
/// let mut record: Record = text.parse()?;
/// assert_eq!(record.tags.len(), 5);
/// assert_eq!(record.moves.len(), 2);
/// assert_eq!(record.moves[0].comment.as_deref(), Some("the kit's example move"));
/// assert_eq!(record.result, ResultToken::Finished(GameResult::BlueWins));
/// // Written back, it is the same text.
/// assert_eq!(record.to_string(), text);
///
/// let game = record.replay()?;
/// assert_eq!(game.position().to_string(), "RRN./RB../RBBB/N... r");
///
/// // A tag changed keeps its place; a new one goes last.
/// record.set_tag("Blue", "Bo");
/// record.set_tag("Event", "club night");
/// let names: Vec<&str> = record.tags.iter().map(|(name, _)| name.as_str()).collect();
/// assert_eq!(names, ["Variant", "Setup", "Red", "Blue", "Result", "Event"]);
/// assert_eq!(record.tag("Blue"), Some("Bo"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs in their order, unknown ones kept.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The moves.
    pub moves: Vec<RecordMove>,
    /// The result token.
    pub result: ResultToken,
}

/// Text that is not a record. Every variant names the line (counted from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseRecordError {
    /// A `{` without its `}`.
    UnclosedComment {
        /// The line of the `{`.
        line: usize,
    },
    /// A line starting with `[` that is not `[Name "value"]`.
    BadTag {
        /// The line.
        line: usize,
        /// Its text.
        text: String,
    },
    /// A tag given twice.
    RepeatedTag {
        /// The line.
        line: usize,
        /// The tag's name.
        name: String,
    },
    /// A tag after the first move.
    TagAfterMoves {
        /// The line.
        line: usize,
    },
    /// A move number that is not the move's ply number.
    WrongMoveNumber {
        /// The line.
        line: usize,
        /// The ply number the move has.
        expected: usize,
        /// The number written.
        found: String,
    },
    /// A move that cannot be read.
    BadMove {
        /// The line.
        line: usize,
        /// The move's ply number.
        ply: usize,
        /// The text.
        text: String,
        /// Why.
        error: ParseMoveError,
    },
    /// Text after the result token.
    AfterResult {
        /// The line.
        line: usize,
        /// The text.
        text: String,
    },
    /// The record ends without a result token (it may be truncated).
    MissingResult,
}

impl ParseRecordError {
    /// The record's own text the problem is about (a tag line, a move, a move number, what
    /// follows the result), if there is one.
    pub fn text(&self) -> Option<&str> {
        use ParseRecordError::*;
        match self {
            BadTag { text, .. } | BadMove { text, .. } | AfterResult { text, .. } => Some(text),
            WrongMoveNumber { found, .. } => Some(found),
            UnclosedComment { .. } | RepeatedTag { .. } | TagAfterMoves { .. } | MissingResult => {
                None
            }
        }
    }

    /// The line the problem is on (counted from 1), if it is on one.
    pub(crate) fn line(&self) -> Option<usize> {
        use ParseRecordError::*;
        match self {
            UnclosedComment { line }
            | BadTag { line, .. }
            | RepeatedTag { line, .. }
            | TagAfterMoves { line }
            | WrongMoveNumber { line, .. }
            | BadMove { line, .. }
            | AfterResult { line, .. } => Some(*line),
            MissingResult => None,
        }
    }

    /// What is wrong, without the line: for a move that cannot be read, the move error alone.
    pub(crate) fn reason(&self) -> String {
        use ParseRecordError::*;
        match self {
            UnclosedComment { .. } => "a '{' comment is never closed".to_string(),
            BadTag { text, .. } => format!("'{text}' is not a tag (write [Name \"value\"])"),
            RepeatedTag { name, .. } => format!("tag {name} is given twice"),
            TagAfterMoves { .. } => "tags must come before the moves".to_string(),
            WrongMoveNumber {
                expected, found, ..
            } => {
                format!("move number '{found}' should be '{expected}.' (moves are numbered by ply)")
            }
            BadMove { error, .. } => error.to_string(),
            AfterResult { text, .. } => format!("unexpected '{text}' after the result"),
            MissingResult => {
                "the record ends without a result (1-0, 0-1, 1/2-1/2 or *): it may be truncated"
                    .to_string()
            }
        }
    }
}

impl fmt::Display for ParseRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, self.line()) {
            (ParseRecordError::BadMove { ply, text, .. }, Some(line)) => {
                write!(f, "line {line}, ply {ply}: '{text}': {}", self.reason())
            }
            (_, Some(line)) => write!(f, "line {line}: {}", self.reason()),
            (_, None) => f.write_str(&self.reason()),
        }
    }
}

impl std::error::Error for ParseRecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParseRecordError::BadMove { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A record whose content does not replay to a valid game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// The `Variant` tag is not a rules text.
    Variant(RulesError),
    /// The `Setup` tag is not a legal position under the variant.
    Setup(PositionError),
    /// The `Setup` tag and the variant's `setup=` option disagree, or the setup is finished.
    SetupConflict(String),
    /// A tag with a value of the wrong form.
    TagValue {
        /// The tag.
        name: String,
        /// Its value.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A move that is illegal where it is played.
    IllegalMove {
        /// The move's ply number (1 = Red's first move).
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it is illegal.
        reason: GameError,
    },
    /// The `Result` tag and the result token differ.
    ResultTag {
        /// The tag's value.
        tag: String,
        /// The token.
        token: ResultToken,
    },
    /// The result token is not what the moves give, and no `Termination` explains it.
    ResultMismatch {
        /// The token.
        recorded: ResultToken,
        /// What the moves give.
        actual: ResultToken,
    },
    /// The termination tag does not fit the result.
    Termination(GameError),
}

impl RecordError {
    /// The record's own text the problem is about (a tag's value, a move), if there is one.
    pub fn text(&self) -> Option<&str> {
        match self {
            RecordError::TagValue { value, .. } => Some(value),
            RecordError::IllegalMove { text, .. } => Some(text),
            _ => None,
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Variant(e) => write!(f, "Variant tag: {e}"),
            RecordError::Setup(e) => write!(f, "Setup tag: {e}"),
            RecordError::SetupConflict(why) => write!(f, "Setup tag: {why}"),
            RecordError::TagValue {
                name,
                value,
                expected,
            } => write!(f, "{name} tag: '{value}' is not {expected}"),
            RecordError::IllegalMove { ply, text, reason } => {
                write!(f, "ply {ply}: {text}: {reason}")
            }
            RecordError::ResultTag { tag, token } => write!(
                f,
                "the Result tag says {tag} but the result token is {token}"
            ),
            RecordError::ResultMismatch { recorded, actual } => write!(
                f,
                "the record's result {recorded} contradicts the moves, which give {actual}"
            ),
            RecordError::Termination(e) => write!(f, "Termination tag: {e}"),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Variant(e) => Some(e),
            RecordError::Setup(e) => Some(e),
            RecordError::IllegalMove { reason, .. } => Some(reason),
            RecordError::Termination(e) => Some(e),
            _ => None,
        }
    }
}

/// A line with its comments taken out.
struct Line {
    number: usize,
    content: String,
    comments: Vec<String>,
}

/// Splits the text into lines, taking `{...}` comments out (a comment may span lines and
/// belongs to the line where it starts). A `{` inside a tag's quoted value is text.
///
/// A comment that is never closed swallows the rest of the text: the lines before it and
/// the text before its `{` are returned, with the line of the `{`.
fn split_lines(text: &str) -> (Vec<Line>, Option<usize>) {
    let mut lines = Vec::new();
    let mut current = Line {
        number: 1,
        content: String::new(),
        comments: Vec::new(),
    };
    let mut comment: Option<(usize, String)> = None;
    let mut number = 1;
    // Inside the quotes of a tag value, and whether the last character was a backslash.
    let (mut quoted, mut escaped) = (false, false);
    for ch in text.chars() {
        match (&mut comment, ch) {
            (Some((_, body)), '}') => {
                current.comments.push(body.trim().to_string());
                comment = None;
            }
            (Some((_, body)), c) => {
                body.push(if c == '\n' { ' ' } else { c });
                if c == '\n' {
                    number += 1;
                }
            }
            (None, '\n') => {
                number += 1;
                quoted = false;
                let next = Line {
                    number,
                    content: String::new(),
                    comments: Vec::new(),
                };
                lines.push(std::mem::replace(&mut current, next));
            }
            (None, c) if quoted => {
                current.content.push(c);
                quoted = escaped || c != '"';
                escaped = !escaped && c == '\\';
            }
            (None, '{') => comment = Some((number, String::new())),
            (None, c) => {
                if c == '"' && current.content.trim_start().starts_with('[') {
                    quoted = true;
                    escaped = false;
                }
                current.content.push(c);
            }
        }
    }
    lines.push(current);
    (lines, comment.map(|(line, _)| line))
}

/// What a line of a record holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// Nothing but comments, or nothing at all.
    Blank,
    /// A tag pair.
    Tag {
        /// Its name.
        name: String,
        /// Its value, unescaped.
        value: String,
    },
    /// A move, read but not yet checked against a position.
    Move {
        /// Its ply number (1 = Red's first move).
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// The result token.
    Result(ResultToken),
}

/// One line of a record as read, or the end of the text when something is missing there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The line (counted from 1); at the end of the text, the last line.
    pub(crate) line: usize,
    /// The line's text without comments, trimmed; for a move line, the move text after its
    /// number.
    pub(crate) text: String,
    /// The comments that start on the line.
    pub(crate) comments: Vec<String>,
    /// What the line holds, or why it is not part of a record.
    pub(crate) kind: Result<EntryKind, ParseRecordError>,
}

/// Reads a record line by line, in order: each line is an [`Entry`], a problem with one line
/// is that entry's error and reading goes on. After the last line come an unclosed comment
/// and a missing result token, as entries with errors. [`Record::from_str`] stops at the first
/// error; the referee replays the moves as they come.
pub(crate) struct Entries {
    lines: std::vec::IntoIter<Line>,
    last_line: usize,
    unclosed: Option<usize>,
    tag_names: Vec<String>,
    plies: usize,
    finished: bool,
    ended: bool,
}

impl Entries {
    /// Starts reading `text`.
    pub(crate) fn new(text: &str) -> Entries {
        let (lines, unclosed) = split_lines(text);
        Entries {
            last_line: lines.last().map_or(1, |l| l.number),
            lines: lines.into_iter(),
            unclosed,
            tag_names: Vec::new(),
            plies: 0,
            finished: false,
            ended: false,
        }
    }

    /// The line of a `{` that is never closed.
    pub(crate) fn unclosed_comment(&self) -> Option<usize> {
        self.unclosed
    }

    /// Reads line `n`, with comments out and trimmed: the text to report and what it holds.
    fn read(&mut self, n: usize, content: &str) -> (String, Result<EntryKind, ParseRecordError>) {
        if content.is_empty() {
            return (String::new(), Ok(EntryKind::Blank));
        }
        if self.finished {
            let error = ParseRecordError::AfterResult {
                line: n,
                text: content.to_string(),
            };
            return (content.to_string(), Err(error));
        }
        if content.starts_with('[') {
            if self.plies > 0 {
                return (
                    content.to_string(),
                    Err(ParseRecordError::TagAfterMoves { line: n }),
                );
            }
            let kind = match parse_tag(content) {
                None => Err(ParseRecordError::BadTag {
                    line: n,
                    text: content.to_string(),
                }),
                Some((name, _)) if self.tag_names.contains(&name) => {
                    Err(ParseRecordError::RepeatedTag { line: n, name })
                }
                Some((name, value)) => {
                    self.tag_names.push(name.clone());
                    Ok(EntryKind::Tag { name, value })
                }
            };
            return (content.to_string(), kind);
        }
        if let Ok(result) = content.parse::<ResultToken>() {
            self.finished = true;
            return (content.to_string(), Ok(EntryKind::Result(result)));
        }
        self.plies += 1;
        let ply = self.plies;
        let mut text = content;
        if let Some((number, rest)) = split_move_number(content) {
            text = rest;
            if number != format!("{ply}.") {
                let error = ParseRecordError::WrongMoveNumber {
                    line: n,
                    expected: ply,
                    found: number.to_string(),
                };
                return (text.to_string(), Err(error));
            }
        }
        let kind = match text.parse() {
            Ok(mv) => Ok(EntryKind::Move { ply, mv }),
            Err(error) => Err(ParseRecordError::BadMove {
                line: n,
                ply,
                text: text.to_string(),
                error,
            }),
        };
        (text.to_string(), kind)
    }
}

impl Iterator for Entries {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        if let Some(line) = self.lines.next() {
            let (text, kind) = self.read(line.number, line.content.trim());
            return Some(Entry {
                line: line.number,
                text,
                comments: line.comments,
                kind,
            });
        }
        let end = |line, error| Entry {
            line,
            text: String::new(),
            comments: Vec::new(),
            kind: Err(error),
        };
        if let Some(line) = self.unclosed.take() {
            return Some(end(line, ParseRecordError::UnclosedComment { line }));
        }
        if !self.finished && !self.ended {
            self.ended = true;
            return Some(end(self.last_line, ParseRecordError::MissingResult));
        }
        None
    }
}

fn parse_tag(content: &str) -> Option<(String, String)> {
    let inner = content.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => value.push('\n'),
                'r' => value.push('\r'),
                other => value.push(other),
            },
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

fn join_comment(slot: &mut Option<String>, comments: &[String]) {
    for c in comments.iter().filter(|c| !c.is_empty()) {
        match slot {
            Some(s) => {
                s.push(' ');
                s.push_str(c);
            }
            None => *slot = Some(c.clone()),
        }
    }
}

impl FromStr for Record {
    type Err = ParseRecordError;

    fn from_str(text: &str) -> Result<Record, ParseRecordError> {
        let mut record = Record {
            tags: Vec::new(),
            comment: None,
            moves: Vec::new(),
            result: ResultToken::Unfinished,
        };
        let entries = Entries::new(text);
        if let Some(line) = entries.unclosed_comment() {
            return Err(ParseRecordError::UnclosedComment { line });
        }
        for entry in entries {
            match entry.kind? {
                EntryKind::Blank => {}
                EntryKind::Tag { name, value } => record.tags.push((name, value)),
                EntryKind::Move { mv, .. } => record.moves.push(RecordMove { mv, comment: None }),
                EntryKind::Result(result) => record.result = result,
            }
            let slot = match record.moves.last_mut() {
                Some(last) => &mut last.comment,
                None => &mut record.comment,
            };
            join_comment(slot, &entry.comments);
        }
        Ok(record)
    }
}

/// Splits a leading `N.` (digits and a dot) from a move line.
fn split_move_number(content: &str) -> Option<(&str, &str)> {
    let digits = content.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || content.as_bytes().get(digits) != Some(&b'.') {
        return None;
    }
    Some((&content[..=digits], content[digits + 1..].trim_start()))
}

fn write_comment(f: &mut fmt::Formatter<'_>, comment: &str) -> fmt::Result {
    // A '}' inside would end the comment early; it is the one character a comment cannot hold.
    write!(f, "{{{}}}", comment.replace('}', ")"))
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            let escaped = value
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n")
                .replace('\r', "\\r");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        if let Some(comment) = &self.comment {
            write_comment(f, comment)?;
            writeln!(f)?;
        }
        for (i, m) in self.moves.iter().enumerate() {
            write!(f, "{}. {}", i + 1, m.mv)?;
            if let Some(comment) = &m.comment {
                f.write_str("  ")?;
                write_comment(f, comment)?;
            }
            writeln!(f)?;
        }
        writeln!(f, "{}", self.result)
    }
}

impl Record {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if it exists, else adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The record of a game: `Variant`, `Setup` (unless the standard one), the draw-rule
    /// tags, `Termination` for an end declared off the board, and `Result`.
    ///
    /// ```
    /// use lgame::{Color, Game, Record, Rules};
    /// use lgame::game::DrawRules;
    ///
    /// let rules: Rules = "misere,setup=kit".parse()?;
    /// let mut game = Game::new(rules).with_draw_rules(DrawRules::CASUAL);
    /// game.play(&"A2,A3,A4,B4 B2-A1".parse()?)?;
    /// game.resign(Color::Blue)?;
    ///
    /// let record = Record::from_game(&game);
    /// assert_eq!(
    ///     record.to_string(),
    ///     "[Variant \"misere\"]\n\
    ///      [Setup \"..BB/R.NB/RN.B/RR.. r\"]\n\
    ///      [Repetition \"3\"]\n\
    ///      [Termination \"resignation\"]\n\
    ///      [Result \"1-0\"]\n\
    ///      \n\
    ///      1. A2,A3,A4,B4 B2-A1\n\
    ///      1-0\n"
    /// );
    /// assert_eq!(record.replay()?, game);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_game(game: &Game) -> Record {
        let rules = game.rules();
        let mut record = Record {
            tags: Vec::new(),
            comment: None,
            moves: game
                .plies()
                .iter()
                .map(|p| RecordMove {
                    mv: p.mv,
                    comment: None,
                })
                .collect(),
            result: game.result_token(),
        };
        let variant = rules
            .with_setup(StartSetup::Standard)
            .map_or_else(|_| rules.to_string(), |r| r.to_string());
        record.set_tag("Variant", variant);
        if rules.start() != StartSetup::Standard {
            record.set_tag("Setup", game.start().to_string());
        }
        if let Some(n) = game.draw_rules().turn_limit {
            record.set_tag("TurnLimit", n.to_string());
        }
        if let Some(n) = game.draw_rules().repetition {
            record.set_tag("Repetition", n.to_string());
        }
        if let Some(crate::game::Conclusion {
            ending: crate::game::Ending::Declared(t),
            ..
        }) = game.conclusion()
        {
            record.set_tag("Termination", t.name());
        }
        record.set_tag("Result", record.result.to_string());
        record
    }

    /// The rules, starting position and draw rules given by the tags. `[TurnLimit "0"]` and
    /// `[Repetition "0"]` mean no such rule, like no tag; `[Repetition "1"]` is refused, since
    /// every position occurs once.
    ///
    /// # Errors
    /// A [`RecordError`] naming the tag whose value is wrong.
    pub fn new_game(&self) -> Result<Game, RecordError> {
        let mut rules: Rules = match self.tag("Variant") {
            Some(text) => text.parse().map_err(RecordError::Variant)?,
            None => Rules::classic(),
        };
        if let Some(setup) = self.tag("Setup") {
            let start = Position::from_text(setup, &rules).map_err(RecordError::Setup)?;
            let named_in_variant = rules.start() != StartSetup::Standard;
            if named_in_variant && start != rules.start_position() {
                return Err(RecordError::SetupConflict(format!(
                    "{setup} is not the variant's setup ({})",
                    rules.start()
                )));
            }
            rules = rules
                .with_setup(StartSetup::Custom(start.to_setup()))
                .map_err(|e| RecordError::SetupConflict(e.to_string()))?;
        }
        // A count of 0 means no such rule, as on the command line and the server.
        let count = |name: &str| -> Result<Option<u32>, RecordError> {
            let Some(v) = self.tag(name) else {
                return Ok(None);
            };
            let bad = |expected| RecordError::TagValue {
                name: name.to_string(),
                value: v.to_string(),
                expected,
            };
            match v.parse::<u32>() {
                Err(_) => Err(bad("a whole number")),
                Ok(0) => Ok(None),
                // Every position occurs once: a count of 1 would draw before the first move.
                Ok(1) if name == "Repetition" => Err(bad(REPETITION_COUNT)),
                Ok(n) => Ok(Some(n)),
            }
        };
        let draw_rules = DrawRules {
            turn_limit: count("TurnLimit")?,
            repetition: count("Repetition")?,
        };
        Ok(Game::new(rules).with_draw_rules(draw_rules))
    }

    /// The termination declared by the `Termination` tag.
    ///
    /// # Errors
    /// [`RecordError::TagValue`] for a value other than those of notation.md.
    pub fn termination(&self) -> Result<Option<Termination>, RecordError> {
        self.tag("Termination")
            .map(|v| {
                Termination::from_name(v).ok_or(RecordError::TagValue {
                    name: "Termination".into(),
                    value: v.to_string(),
                    expected: "resignation, agreement, forfeit, abandoned, time or aborted",
                })
            })
            .transpose()
    }

    /// Replays the record and checks it: tags, every move, and the result token against what
    /// the moves give (unless a `Termination` tag explains it).
    ///
    /// # Errors
    /// The first problem found, as a [`RecordError`]; an illegal move names its ply.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = self.new_game()?;
        for (i, m) in self.moves.iter().enumerate() {
            game.play(&m.mv)
                .map_err(|reason| RecordError::IllegalMove {
                    ply: i + 1,
                    text: m.mv.to_string(),
                    reason,
                })?;
        }
        self.conclude(&mut game)?;
        Ok(game)
    }

    /// Checks the result token of a record whose moves `game` has played: against the
    /// `Result` tag, then against what the moves give, unless a `Termination` tag explains it,
    /// in which case the end is declared in `game`.
    ///
    /// # Errors
    /// [`RecordError::ResultTag`], [`RecordError::TagValue`] for the `Termination` tag,
    /// [`RecordError::Termination`] or [`RecordError::ResultMismatch`].
    pub(crate) fn conclude(&self, game: &mut Game) -> Result<(), RecordError> {
        if let Some(tag) = self.tag("Result") {
            if tag != self.result.to_string() {
                return Err(RecordError::ResultTag {
                    tag: tag.to_string(),
                    token: self.result,
                });
            }
        }
        let termination = self.termination()?;
        let actual = game.result_token();
        match termination {
            Some(t) if !game.is_over() => game
                .declare(t, self.result)
                .map_err(RecordError::Termination)?,
            _ if actual != self.result => {
                return Err(RecordError::ResultMismatch {
                    recorded: self.result,
                    actual,
                })
            }
            _ => {}
        }
        Ok(())
    }
}
