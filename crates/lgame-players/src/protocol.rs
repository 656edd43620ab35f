//! The L game engine protocol (LGP): lines of text over standard input and output, in the
//! spirit of UCI. `docs/engine-protocol.md` describes it for engine authors; this module
//! reads and writes its lines for both sides.
//!
//! ```
//! use lgame_players::protocol::{Command, Reply};
//!
//! let go: Command = "go movetime 500".parse()?;
//! assert_eq!(go, Command::Go { movetime: Some(500) });
//! let reply: Reply = "bestmove A2,A3,A4,B4 B2-A1".parse()?;
//! assert_eq!(reply.to_string(), "bestmove A2,A3,A4,B4 B2-A1");
//! # Ok::<(), lgame_players::protocol::ProtocolError>(())
//! ```

use std::fmt;
use std::str::FromStr;

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
    /// `rules RULES`: the variant, as its canonical text.
    Rules(String),
    /// `position POSITION [moves MOVE; MOVE; …]`: the start of the game and the moves since.
    Position {
        /// The starting position's text.
        start: String,
        /// The moves played since, as written.
        moves: Vec<String>,
    },
    /// `go [movetime MS]`: choose a move, within the time if one is given.
    Go {
        /// Milliseconds for this move.
        movetime: Option<u64>,
    },
    /// `quit`: end the engine.
    Quit,
}

/// What an engine sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `id name NAME`.
    Name(String),
    /// `id author AUTHOR`.
    Author(String),
    /// `variants all` or `variants RULES | RULES …`: the rules the engine plays.
    Variants(Vec<String>),
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
            "go" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
                [] => Ok(Command::Go { movetime: None }),
                ["movetime", ms] => ms
                    .parse()
                    .map(|ms| Command::Go { movetime: Some(ms) })
                    .map_err(|_| error(line, "movetime needs milliseconds")),
                _ => Err(error(line, "expected go or go movetime MS")),
            },
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
            Command::Position { start, moves } if moves.is_empty() => {
                write!(f, "position {start}")
            }
            Command::Position { start, moves } => {
                write!(f, "position {start} moves {}", moves.join("; "))
            }
            Command::Go { movetime: None } => f.write_str("go"),
            Command::Go { movetime: Some(ms) } => write!(f, "go movetime {ms}"),
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
            Reply::LgpOk => f.write_str("lgpok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::BestMove(Some(mv)) => write!(f, "bestmove {mv}"),
            Reply::Info(text) => write!(f, "info {text}"),
            Reply::Error(text) => write!(f, "error {text}"),
        }
    }
}

/// The `position` command for a game: its start and the moves played.
pub fn position_command(start: &Position, moves: &[Move]) -> Command {
    Command::Position {
        start: start.to_string(),
        moves: moves.iter().map(Move::to_string).collect(),
    }
}

/// The `rules` command for a variant.
pub fn rules_command(rules: &Rules) -> Command {
    Command::Rules(rules.to_string())
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
            "position NRR./.RB./.RB./.BBN r",
            "position NRR./.RB./.RB./.BBN r moves A1,A2,A3,B3 D1-D2; C4,D2,D3,D4",
            "go",
            "go movetime 250",
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
            "'go fast': expected go or go movetime MS"
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
    }
}
