//! The L game engine protocol (LGP): lines of text over standard input and output, in the
//! spirit of UCI. `docs/engine-protocol.md` describes it for engine authors; this module
//! reads and writes its lines for both sides.
//!
//! ```
//! use lgame_players::protocol::{Command, Reply};
//!
//! let go: Command = "go movetime 500".parse()?;
//! assert_eq!(go, Command::Go { movetime: Some(500), clock: None });
//! let reply: Reply = "bestmove A2,A3,A4,B4 B2-A1".parse()?;
//! assert_eq!(reply.to_string(), "bestmove A2,A3,A4,B4 B2-A1");
//! # Ok::<(), lgame_players::protocol::ProtocolError>(())
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use lgame::game::DrawRules;
use lgame::{Move, Position, Rules};

/// What the controller (a GUI, the match referee) sends to an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `lgp`: start of the handshake.
    Lgp,
    /// `isready`: answered by `readyok` once the engine is ready.
    IsReady,
    /// `newgame`: a new game begins.
    NewGame,
    /// `rules RULES`: the variant, as its canonical text without a setup (see
    /// [`rules_text`]).
    Rules(String),
    /// `drawrules turnlimit N|none repetition N|none`: when the game is drawn. Written as
    /// given: send [`DrawRules::normalized`] rules.
    DrawRules(DrawRules),
    /// `position POSITION [moves MOVE; MOVE; …]`: the start of the game and the moves since.
    Position {
        /// The starting position's text.
        start: String,
        /// The moves played since, as written.
        moves: Vec<String>,
    },
    /// `go [movetime MS]` or `go wtime MS btime MS winc MS binc MS`: choose a move, within
    /// the time if one is given, or knowing both clocks (sent only to an engine that
    /// declared `features clock`).
    Go {
        /// Milliseconds for this move.
        movetime: Option<u64>,
        /// Both sides' clocks.
        clock: Option<GoClock>,
    },
    /// `quit`: end the engine.
    Quit,
}

/// Both clocks as `go` gives them, in milliseconds, as UCI names them: `w` is Red (who moves
/// first, as White does in chess), `b` is Blue; `inc` is the increment a move adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoClock {
    /// Red's time left.
    pub wtime: u64,
    /// Blue's time left.
    pub btime: u64,
    /// Red's increment.
    pub winc: u64,
    /// Blue's increment.
    pub binc: u64,
}

impl GoClock {
    /// The time left and the increment of the side `red` (or Blue).
    pub fn of(&self, red: bool) -> (u64, u64) {
        if red {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        }
    }

    /// The time a controller allows for one move of an engine that knows nothing of clocks
    /// (no `features clock`): a fortieth of what is left plus most of the increment, at
    /// least 50 ms, at most `cap`, and never more than what is left less a margin.
    pub fn movetime_for(&self, red: bool, cap: u64) -> u64 {
        let (left, inc) = self.of(red);
        let share = left / 40 + inc * 3 / 4;
        let most = left.saturating_sub(200).max(50);
        share.clamp(50, cap.max(50)).min(most)
    }
}

/// The features an engine may declare in its handshake (`features clock`); a controller
/// uses a feature only with an engine that declared it, so older engines keep working.
pub const FEATURE_CLOCK: &str = "clock";

/// What an engine sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `id name NAME`.
    Name(String),
    /// `id author AUTHOR`.
    Author(String),
    /// `variants all` or `variants RULES | RULES …`: the rules the engine plays.
    Variants(Vec<String>),
    /// `features NAME …`: the protocol's extensions the engine understands ([`FEATURE_CLOCK`]).
    Features(Vec<String>),
    /// `lgpok`: end of the handshake.
    LgpOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove MOVE`, or `bestmove none` when there is no legal move.
    BestMove(Option<String>),
    /// `info …`: anything for people; ignored by the referee.
    Info(String),
    /// `error …`: the engine could not do what was asked.
    Error(String),
}

/// A line that is not part of the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    /// The line.
    pub line: String,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.line, self.problem)
    }
}

impl std::error::Error for ProtocolError {}

fn error(line: &str, problem: &str) -> ProtocolError {
    ProtocolError {
        line: line.trim().to_string(),
        problem: problem.to_string(),
    }
}

impl FromStr for Command {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<Command, ProtocolError> {
        let text = line.trim();
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        let rest = rest.trim();
        match word {
            "lgp" => Ok(Command::Lgp),
            "isready" => Ok(Command::IsReady),
            "newgame" => Ok(Command::NewGame),
            "quit" => Ok(Command::Quit),
            "rules" if !rest.is_empty() => Ok(Command::Rules(rest.to_string())),
            "rules" => Err(error(line, "rules needs the rules text")),
            "drawrules" => parse_draw_rules(rest)
                .map(Command::DrawRules)
                .ok_or_else(|| {
                    error(
                        line,
                        "expected drawrules turnlimit N|none repetition N|none",
                    )
                }),
            "position" => {
                let (start, moves) = match rest.split_once(" moves") {
                    Some((start, moves)) => (start, moves),
                    None => (rest, ""),
                };
                if start.trim().is_empty() {
                    return Err(error(line, "position needs a position"));
                }
                Ok(Command::Position {
                    start: start.trim().to_string(),
                    moves: moves
                        .split(';')
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(str::to_string)
                        .collect(),
                })
            }
            "go" => parse_go(rest).ok_or_else(|| {
                error(
                    line,
                    "expected go, go movetime MS or go wtime MS btime MS winc MS binc MS",
                )
            }),
            _ => Err(error(line, "unknown command")),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Lgp => f.write_str("lgp"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("newgame"),
            Command::Quit => f.write_str("quit"),
            Command::Rules(rules) => write!(f, "rules {rules}"),
            Command::DrawRules(draws) => {
                let limit = |n: Option<u32>| n.map_or("none".to_string(), |n| n.to_string());
                write!(
                    f,
                    "drawrules turnlimit {} repetition {}",
                    limit(draws.turn_limit),
                    limit(draws.repetition)
                )
            }
            Command::Position { start, moves } if moves.is_empty() => {
                write!(f, "position {start}")
            }
            Command::Position { start, moves } => {
                write!(f, "position {start} moves {}", moves.join("; "))
            }
            Command::Go { movetime, clock } => {
                f.write_str("go")?;
                if let Some(ms) = movetime {
                    write!(f, " movetime {ms}")?;
                }
                if let Some(c) = clock {
                    write!(
                        f,
                        " wtime {} btime {} winc {} binc {}",
                        c.wtime, c.btime, c.winc, c.binc
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Reply {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<Reply, ProtocolError> {
        let text = line.trim();
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        let rest = rest.trim();
        match word {
            "lgpok" => Ok(Reply::LgpOk),
            "readyok" => Ok(Reply::ReadyOk),
            "info" => Ok(Reply::Info(rest.to_string())),
            "error" => Ok(Reply::Error(rest.to_string())),
            "id" => match rest.split_once(' ') {
                Some(("name", name)) => Ok(Reply::Name(name.trim().to_string())),
                Some(("author", author)) => Ok(Reply::Author(author.trim().to_string())),
                _ => Err(error(line, "expected id name NAME or id author AUTHOR")),
            },
            "variants" => Ok(Reply::Variants(
                rest.split('|')
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(str::to_string)
                    .collect(),
            )),
            "features" => Ok(Reply::Features(
                rest.split_whitespace().map(str::to_string).collect(),
            )),
            "bestmove" if rest == "none" => Ok(Reply::BestMove(None)),
            "bestmove" if !rest.is_empty() => Ok(Reply::BestMove(Some(rest.to_string()))),
            "bestmove" => Err(error(line, "bestmove needs a move")),
            _ => Err(error(line, "not a reply of the protocol")),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Name(name) => write!(f, "id name {name}"),
            Reply::Author(author) => write!(f, "id author {author}"),
            Reply::Variants(variants) => write!(f, "variants {}", variants.join(" | ")),
            Reply::Features(features) => write!(f, "features {}", features.join(" ")),
            Reply::LgpOk => f.write_str("lgpok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::BestMove(Some(mv)) => write!(f, "bestmove {mv}"),
            Reply::Info(text) => write!(f, "info {text}"),
            Reply::Error(text) => write!(f, "error {text}"),
        }
    }
}

/// `go`'s words after `go`: `movetime MS` and the four clock fields, each at most once, in
/// any order; the clock's fields all or none.
fn parse_go(rest: &str) -> Option<Command> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    if !words.len().is_multiple_of(2) {
        return None;
    }
    let mut fields: [Option<u64>; 5] = [None; 5];
    const NAMES: [&str; 5] = ["movetime", "wtime", "btime", "winc", "binc"];
    for pair in words.chunks(2) {
        let i = NAMES.iter().position(|n| *n == pair[0])?;
        if fields[i].replace(pair[1].parse().ok()?).is_some() {
            return None;
        }
    }
    let [movetime, wtime, btime, winc, binc] = fields;
    let clock = match (wtime, btime, winc, binc) {
        (Some(wtime), Some(btime), Some(winc), Some(binc)) => Some(GoClock {
            wtime,
            btime,
            winc,
            binc,
        }),
        (None, None, None, None) => None,
        _ => return None,
    };
    Some(Command::Go { movetime, clock })
}

/// The `position` command for a game: its start and the moves played.
pub fn position_command(start: &Position, moves: &[Move]) -> Command {
    Command::Position {
        start: start.to_string(),
        moves: moves.iter().map(Move::to_string).collect(),
    }
}

/// `turnlimit N|none repetition N|none`, both given, in this order; a turn limit from 1,
/// a repetition count from 2 (smaller counts would draw the game before its first move:
/// `none` says there is no such rule).
fn parse_draw_rules(text: &str) -> Option<DrawRules> {
    let count = |word: &str, least: u32| match word {
        "none" => Some(None),
        n => n.parse::<u32>().ok().filter(|&n| n >= least).map(Some),
    };
    match text.split_whitespace().collect::<Vec<_>>()[..] {
        ["turnlimit", limit, "repetition", repetition] => Some(DrawRules {
            turn_limit: count(limit, 1)?,
            repetition: count(repetition, 2)?,
        }),
        _ => None,
    }
}

/// The rules as the protocol names them: the canonical rules text without its `setup=`
/// option (the game's start comes in `position`), `classic` when nothing else is left.
///
/// ```
/// use lgame::Rules;
/// use lgame_players::protocol::rules_text;
///
/// assert_eq!(rules_text(&"misere,setup=kit".parse::<Rules>()?), "misere");
/// assert_eq!(rules_text(&"setup=kit".parse::<Rules>()?), "classic");
/// # Ok::<(), lgame::rules::RulesError>(())
/// ```
pub fn rules_text(rules: &Rules) -> String {
    // `setup=` is the last option of the canonical text, and a setup's text has no comma.
    let text = rules.to_string();
    let kept: Vec<&str> = text
        .split(',')
        .filter(|option| !option.starts_with("setup="))
        .collect();
    if kept.is_empty() {
        "classic".to_string()
    } else {
        kept.join(",")
    }
}

/// The `rules` command for a variant: [`rules_text`].
pub fn rules_command(rules: &Rules) -> Command {
    Command::Rules(rules_text(rules))
}

/// Whether the entries of an engine's `variants` line include `rules`: `all` includes every
/// rules; any other entry is read as rules text (options in any order, a `setup=` ignored)
/// and must name the same rules as [`rules_text`]. Entries that are not rules text match
/// nothing. `None`, no `variants` line, means `classic` only.
pub fn declares(variants: Option<&[String]>, rules: &Rules) -> bool {
    let wanted = rules_text(rules);
    match variants {
        None => wanted == "classic",
        Some(entries) => entries.iter().any(|entry| {
            entry == "all"
                || entry
                    .parse::<Rules>()
                    .is_ok_and(|declared| rules_text(&declared) == wanted)
        }),
    }
}

/// Text from an engine made safe to print, log and keep in a record comment: a backslash is
/// written `\\`, an ASCII control character (NUL, tab, ESC, DEL…) `\xNN`, any other control
/// character `\u{NNNN}`, and a byte that is not UTF-8 `\xNN` (NN from 80 to ff, which no
/// control character written `\xNN` uses). Everything else is kept.
///
/// ```
/// use lgame_players::protocol::printable;
///
/// assert_eq!(printable(b"bestmove A1\0\xff\\ \xc3\xa9"), "bestmove A1\\x00\\xff\\\\ é");
/// ```
pub fn printable(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => text.push_str("\\\\"),
                c if c.is_ascii_control() => {
                    let _ = write!(text, "\\x{:02x}", c as u32);
                }
                c if c.is_control() => {
                    let _ = write!(text, "\\u{{{:04x}}}", c as u32);
                }
                c => text.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip_through_their_lines() {
        for line in [
            "lgp",
            "isready",
            "newgame",
            "quit",
            "rules misere,neutrals=1",
            "drawrules turnlimit 200 repetition 3",
            "drawrules turnlimit none repetition none",
            "position NRR./.RB./.RB./.BBN r",
            "position NRR./.RB./.RB./.BBN r moves A1,A2,A3,B3 D1-D2; C4,D2,D3,D4",
            "go",
            "go movetime 250",
            "go wtime 180000 btime 179250 winc 2000 binc 2000",
        ] {
            let command: Command = line.parse().unwrap();
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn replies_round_trip_through_their_lines() {
        for line in [
            "id name lgame perfect",
            "id author the lgame authors",
            "variants all",
            "variants classic | misere",
            "features clock",
            "lgpok",
            "readyok",
            "bestmove none",
            "bestmove A2,A3,A4,B4 B2-A1",
            "info depth 3",
            "error unknown rules",
        ] {
            let reply: Reply = line.parse().unwrap();
            assert_eq!(reply.to_string(), line);
        }
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        assert_eq!(
            "go fast".parse::<Command>().unwrap_err().to_string(),
            "'go fast': expected go, go movetime MS or go wtime MS btime MS winc MS binc MS"
        );
        for bad in [
            "go wtime 1000",
            "go movetime",
            "go movetime 5 movetime 6",
            "go wtime x btime 1 winc 0 binc 0",
        ] {
            assert!(bad.parse::<Command>().is_err(), "{bad}");
        }
        assert_eq!(
            "go binc 3 winc 2 btime 1 wtime 9"
                .parse::<Command>()
                .unwrap()
                .to_string(),
            "go wtime 9 btime 1 winc 2 binc 3"
        );
        assert_eq!(
            "hello".parse::<Reply>().unwrap_err().to_string(),
            "'hello': not a reply of the protocol"
        );
        assert_eq!(
            "bestmove".parse::<Reply>().unwrap_err().to_string(),
            "'bestmove': bestmove needs a move"
        );
        assert!("position".parse::<Command>().is_err());
        for bad in [
            "drawrules",
            "drawrules turnlimit 0 repetition 3",
            "drawrules turnlimit 200 repetition 1",
            "drawrules repetition 3 turnlimit 200",
            "drawrules turnlimit 200",
        ] {
            assert_eq!(
                bad.parse::<Command>().unwrap_err().problem,
                "expected drawrules turnlimit N|none repetition N|none",
                "{bad}"
            );
        }
    }

    #[test]
    fn an_engine_without_clocks_gets_a_share_of_its_time_within_what_is_left() {
        let clock = GoClock {
            wtime: 60_000,
            btime: 1_000,
            winc: 2_000,
            binc: 0,
        };
        // A fortieth of a minute plus three quarters of the increment.
        assert_eq!(clock.movetime_for(true, 10_000), 1_500 + 1_500);
        // The cap, for correspondence's days.
        let days = GoClock {
            wtime: 86_400_000,
            btime: 86_400_000,
            winc: 0,
            binc: 0,
        };
        assert_eq!(days.movetime_for(false, 5_000), 5_000);
        // Never more than what is left less 200 ms, never under 50 ms.
        assert_eq!(clock.movetime_for(false, 10_000), 50);
        let short = GoClock {
            wtime: 300,
            btime: 0,
            winc: 20_000,
            binc: 0,
        };
        assert_eq!(short.movetime_for(true, 10_000), 100);
        assert_eq!(short.movetime_for(false, 10_000), 50);
    }

    #[test]
    fn rules_go_to_engines_without_their_setup() {
        for (rules, text) in [
            ("classic", "classic"),
            ("setup=kit", "classic"),
            ("misere,neutrals=1,setup=corners", "misere,neutrals=1"),
            ("scoring,setup=..BB/R.NB/RN.B/RR..:b:3-2", "scoring"),
        ] {
            let rules: Rules = rules.parse().unwrap();
            assert_eq!(rules_text(&rules), text);
            assert_eq!(rules_command(&rules).to_string(), format!("rules {text}"));
        }
    }

    #[test]
    fn variants_lines_declare_rules_by_their_canonical_text() {
        let entries = |line: &str| match line.parse::<Reply>().unwrap() {
            Reply::Variants(v) => v,
            other => panic!("{other:?}"),
        };
        let rules = |text: &str| text.parse::<Rules>().unwrap();
        let both = entries("variants classic | neutrals=1,misere");
        assert!(declares(Some(&both), &rules("classic")));
        assert!(
            declares(Some(&both), &rules("setup=kit")),
            "a setup is no variant"
        );
        assert!(
            declares(Some(&both), &rules("misere,neutrals=1")),
            "any option order"
        );
        assert!(!declares(Some(&both), &rules("misere")));
        let all = entries("variants all");
        assert!(declares(Some(&all), &rules("board=5x5,neutrals=3")));
        let odd = entries("variants chess | misere,setup=kit");
        assert!(!declares(Some(&odd), &rules("classic")));
        assert!(declares(Some(&odd), &rules("misere")));
        assert!(declares(None, &rules("classic")), "no line: classic only");
        assert!(!declares(None, &rules("misere")));
    }

    #[test]
    fn engine_text_is_escaped_to_printable_text() {
        assert_eq!(printable(b"bestmove A1,A2"), "bestmove A1,A2");
        assert_eq!(
            printable(b"a\0b\tc\x1b[31m\x7f"),
            "a\\x00b\\x09c\\x1b[31m\\x7f"
        );
        assert_eq!(printable(b"\xc3\xa9\xc3"), "é\\xc3");
        assert_eq!(printable("\u{85}".as_bytes()), "\\u{0085}");
        assert_eq!(printable(b"back\\slash"), "back\\\\slash");
    }
}
