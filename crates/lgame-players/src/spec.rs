//! Naming a player: a built-in level `NAME[:STRENGTH]` (e.g. `perfect`, `beginner:40`, with an
//! optional `level:` in front), `human`, or a command line that speaks the engine protocol.
//! [`PlayerName`] is the one reading that `lgame play`, `lgame match` and the server share.

use std::fmt;
use std::str::FromStr;

/// The built-in levels, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Any legal move.
    Random,
    /// Never lets the opponent trap it on the very next move when it can avoid it.
    Beginner,
    /// A 3-ply search with a mobility evaluation.
    Intermediate,
    /// From the tablebase: quickest wins, slowest losses, traps in drawn positions.
    Perfect,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [
        Level::Random,
        Level::Beginner,
        Level::Intermediate,
        Level::Perfect,
    ];

    /// The level's name: `random`, `beginner`, `intermediate`, `perfect`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Perfect => "perfect",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A built-in player: a level and a strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlayerSpec {
    /// The level.
    pub level: Level,
    /// 0–100: the chance, in per cent, of playing the perfect move instead of the level's own.
    pub strength: u8,
}

/// Text that names no built-in player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseSpecError {
    /// No player at all.
    Empty,
    /// An unknown level name.
    UnknownLevel(String),
    /// A strength that is not a number from 0 to 100.
    BadStrength(String),
}

impl fmt::Display for ParseSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSpecError::Empty => f.write_str("no player given"),
            ParseSpecError::UnknownLevel(name) => write!(
                f,
                "unknown level '{name}' (known: random, beginner, intermediate, perfect)"
            ),
            ParseSpecError::BadStrength(text) => {
                write!(f, "strength '{text}' is not a number from 0 to 100")
            }
        }
    }
}

impl std::error::Error for ParseSpecError {}

impl FromStr for Level {
    type Err = ParseSpecError;

    fn from_str(text: &str) -> Result<Level, ParseSpecError> {
        let lower = text.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.name() == lower)
            .ok_or_else(|| ParseSpecError::UnknownLevel(text.to_string()))
    }
}

impl FromStr for PlayerSpec {
    type Err = ParseSpecError;

    /// Reads `NAME` or `NAME:STRENGTH` (strength 0 when not given).
    fn from_str(text: &str) -> Result<PlayerSpec, ParseSpecError> {
        let (name, strength) = match text.split_once(':') {
            Some((name, s)) => {
                let strength = s
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|&n| n <= 100)
                    .ok_or_else(|| ParseSpecError::BadStrength(s.to_string()))?;
                (name, strength)
            }
            None => (text, 0),
        };
        Ok(PlayerSpec {
            level: name.parse()?,
            strength,
        })
    }
}

/// A player as people name one: `human`, a built-in level, or a command line.
///
/// A level is written `perfect` or `level:perfect`, with an optional strength:
/// `beginner:40`, `level:beginner:40`. Text that starts with a level's name and a colon is
/// always read as a level (so `beginner:4o` is an error, not a command); any other text is a
/// command line, run by `sh -c`, that speaks the engine protocol.
///
/// ```
/// use lgame_players::{Level, PlayerName};
///
/// let perfect: PlayerName = "perfect".parse()?;
/// assert_eq!(perfect, "level:perfect".parse()?);
/// assert!(matches!("beginner:40".parse()?, PlayerName::BuiltIn(s) if s.level == Level::Beginner && s.strength == 40));
/// assert_eq!("python3 engine.py".parse::<PlayerName>()?, PlayerName::Command("python3 engine.py".into()));
/// assert!("beginner:4o".parse::<PlayerName>().is_err());
/// # Ok::<(), lgame_players::ParseSpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PlayerName {
    /// A person.
    Human,
    /// A built-in level.
    BuiltIn(PlayerSpec),
    /// A command line that speaks the engine protocol.
    Command(String),
}

impl FromStr for PlayerName {
    type Err = ParseSpecError;

    fn from_str(text: &str) -> Result<PlayerName, ParseSpecError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseSpecError::Empty);
        }
        if text.eq_ignore_ascii_case("human") {
            return Ok(PlayerName::Human);
        }
        let prefix = "level:";
        // `get`: the text's first bytes may not end on a character's boundary.
        if text
            .get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        {
            return text[prefix.len()..].parse().map(PlayerName::BuiltIn);
        }
        let first_word = text.split(':').next().unwrap_or(text);
        let names_a_level =
            !text.contains(char::is_whitespace) && first_word.parse::<Level>().is_ok();
        if names_a_level {
            text.parse().map(PlayerName::BuiltIn)
        } else {
            Ok(PlayerName::Command(text.to_string()))
        }
    }
}

impl fmt::Display for PlayerName {
    /// `human`, `perfect`, `beginner:40`, or the command line: text that reads back the same.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerName::Human => f.write_str("human"),
            PlayerName::BuiltIn(spec) => write!(f, "{spec}"),
            PlayerName::Command(command) => f.write_str(command),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// `perfect`, or `beginner:40` when a strength is set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.strength {
            0 => write!(f, "{}", self.level),
            s => write!(f, "{}:{s}", self.level),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_a_wide_character_across_the_level_prefix_is_a_command_not_a_panic() {
        let name: PlayerName = "B\u{a0cf6}\u{c5}Q".parse().unwrap();
        assert_eq!(name, PlayerName::Command("B\u{a0cf6}\u{c5}Q".into()));
    }

    #[test]
    fn specs_read_level_and_strength() {
        let spec: PlayerSpec = "Beginner:40".parse().unwrap();
        assert_eq!(spec.level, Level::Beginner);
        assert_eq!(spec.strength, 40);
        assert_eq!(spec.to_string(), "beginner:40");
        assert_eq!(
            "perfect".parse::<PlayerSpec>().unwrap().to_string(),
            "perfect"
        );
        assert_eq!(
            "genius".parse::<PlayerSpec>().unwrap_err().to_string(),
            "unknown level 'genius' (known: random, beginner, intermediate, perfect)"
        );
        assert_eq!(
            "random:101".parse::<PlayerSpec>().unwrap_err().to_string(),
            "strength '101' is not a number from 0 to 100"
        );
    }

    #[test]
    fn every_form_of_a_players_name_reads_the_same() {
        let beginner_40 = PlayerName::BuiltIn(PlayerSpec {
            level: Level::Beginner,
            strength: 40,
        });
        for text in ["beginner:40", "level:beginner:40", " Level:Beginner:40 "] {
            assert_eq!(text.parse::<PlayerName>().unwrap(), beginner_40, "{text}");
        }
        for text in ["perfect", "level:perfect", "PERFECT"] {
            let name: PlayerName = text.parse().unwrap();
            assert_eq!(name.to_string(), "perfect", "{text}");
            assert_eq!(name.to_string().parse::<PlayerName>().unwrap(), name);
        }
        assert_eq!("Human".parse::<PlayerName>().unwrap(), PlayerName::Human);
        assert_eq!(
            "python3 examples/engine.py".parse::<PlayerName>().unwrap(),
            PlayerName::Command("python3 examples/engine.py".into())
        );
        assert_eq!(
            "./my-engine".parse::<PlayerName>().unwrap(),
            PlayerName::Command("./my-engine".into())
        );
        assert_eq!("  ".parse::<PlayerName>(), Err(ParseSpecError::Empty));
        assert_eq!(
            "beginner:4o".parse::<PlayerName>(),
            Err(ParseSpecError::BadStrength("4o".into()))
        );
        assert_eq!(
            "level:genius".parse::<PlayerName>(),
            Err(ParseSpecError::UnknownLevel("genius".into()))
        );
    }
}
