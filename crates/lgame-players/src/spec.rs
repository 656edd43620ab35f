//! Naming a built-in player: `NAME[:STRENGTH]`, e.g. `perfect`, `beginner:40`.

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
}
