//! What the rows keep as text with a meaning, as types: a seat's holder, a side, a colour
//! chosen, a result, a time control and a game's clocks (JSON). Each is read and written at
//! the seam (`store/sql.rs`) once; the text in the database is what it always was.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use lgame::game::{ResultToken, Termination};
use lgame::Color;

use super::sql::{FromValue, NotString, Value};
use crate::clock::{Clock, TimeControl};

/// Who holds a seat (or seeks, or challenges): an account, or an anonymous browser by its
/// identity's hash. Stored as `u:ID` and `a:HASH`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Holder {
    Account(i64),
    Browser(String),
}

impl Holder {
    /// The account's id, if an account holds it.
    pub fn account(&self) -> Option<i64> {
        match self {
            Holder::Account(id) => Some(*id),
            Holder::Browser(_) => None,
        }
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Holder::Account(id) => write!(f, "u:{id}"),
            Holder::Browser(hash) => write!(f, "a:{hash}"),
        }
    }
}

impl FromStr for Holder {
    type Err = String;

    fn from_str(text: &str) -> Result<Holder, String> {
        if let Some(id) = text.strip_prefix("u:") {
            return id.parse().map(Holder::Account).map_err(|_| text.into());
        }
        let hash = text.strip_prefix("a:").ok_or_else(|| text.to_string())?;
        Ok(Holder::Browser(hash.into()))
    }
}

/// The colour a seeker or a challenger asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Red,
    Blue,
    Random,
}

stored_names!(ColorChoice {
    Red = "red",
    Blue = "blue",
    Random = "random",
});

impl ColorChoice {
    /// The side asked for; `None`: random.
    pub fn side(self) -> Option<Color> {
        match self {
            ColorChoice::Red => Some(Color::Red),
            ColorChoice::Blue => Some(Color::Blue),
            ColorChoice::Random => None,
        }
    }
}

impl FromStr for ColorChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<ColorChoice, String> {
        ColorChoice::from_name(text).map_err(|_| text.into())
    }
}

/// A side as stored: `red`, `blue`.
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

/// Each type read from a text column by its `FromStr`, and written as its text.
macro_rules! stored_text {
    ($($type:ty),*) => {$(
        impl FromValue for $type {
            fn from_value(value: &Value) -> Option<$type> {
                match value {
                    Value::Text(text) => text.parse().ok(),
                    _ => None,
                }
            }
        }

        impl From<$type> for Value {
            fn from(v: $type) -> Value {
                Value::Text(v.to_string())
            }
        }

        impl NotString for $type {}
    )*};
}

stored_text!(Holder, ResultToken, IpAddr);

/// Each type read from a text column as its JSON, and written as its JSON (`serde_json`'s
/// compact form, as it always was).
macro_rules! stored_json {
    ($($type:ty),*) => {$(
        impl FromValue for $type {
            fn from_value(value: &Value) -> Option<$type> {
                match value {
                    Value::Text(text) => serde_json::from_str(text).ok(),
                    _ => None,
                }
            }
        }

        impl From<$type> for Value {
            fn from(v: $type) -> Value {
                Value::Text(serde_json::to_string(&v).expect("numbers and names"))
            }
        }

        impl NotString for $type {}
    )*};
}

stored_json!(TimeControl, Clock);

impl FromValue for Color {
    fn from_value(value: &Value) -> Option<Color> {
        match value {
            Value::Text(text) => Color::ALL.into_iter().find(|c| side_name(*c) == text),
            _ => None,
        }
    }
}

impl From<Color> for Value {
    fn from(side: Color) -> Value {
        Value::Text(side_name(side).into())
    }
}

impl NotString for Color {}

/// An end declared off the board, by its name (`resignation`, `aborted`, …).
impl FromValue for Termination {
    fn from_value(value: &Value) -> Option<Termination> {
        match value {
            Value::Text(text) => Termination::from_name(text),
            _ => None,
        }
    }
}

impl From<Termination> for Value {
    fn from(termination: Termination) -> Value {
        Value::Text(termination.name().into())
    }
}

impl NotString for Termination {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sql::Row;

    #[test]
    fn meanings_are_read_and_written_as_the_text_they_always_were() {
        let texts = ["u:42", "a:3f9c", "red", "random", "*", "1-0", "blue"];
        let row = Row(texts.iter().map(|t| Value::from(*t)).collect());
        assert_eq!(row.get::<Holder>(0).unwrap(), Holder::Account(42));
        assert_eq!(
            row.get::<Holder>(1).unwrap(),
            Holder::Browser("3f9c".into())
        );
        assert_eq!(row.get::<Color>(2).unwrap(), Color::Red);
        assert_eq!(row.get::<ColorChoice>(3).unwrap(), ColorChoice::Random);
        assert_eq!(row.get::<ResultToken>(4).unwrap(), ResultToken::Unfinished);
        assert!(matches!(
            row.get::<ResultToken>(5).unwrap(),
            ResultToken::Finished(_)
        ));
        assert!(row.get::<Holder>(2).is_err(), "a colour is no holder");
        assert!(row.get::<Color>(3).is_err(), "random is no side");
        for (i, text) in texts.iter().enumerate() {
            let back = match i {
                0 | 1 => Value::from(row.get::<Holder>(i).unwrap()),
                2 | 6 => Value::from(row.get::<Color>(i).unwrap()),
                3 => Value::from(row.get::<ColorChoice>(i).unwrap()),
                _ => Value::from(row.get::<ResultToken>(i).unwrap()),
            };
            assert_eq!(back, Value::from(*text));
        }
        assert!("u:x".parse::<Holder>().is_err());
        assert!("x:1".parse::<Holder>().is_err());
    }

    #[test]
    fn controls_ends_and_addresses_are_read_and_written_as_the_text_they_always_were() {
        let texts = [
            r#"{"initial_s":180,"increment_s":2}"#,
            r#"{"days":3}"#,
            "aborted",
            "10.0.0.1",
            "2001:db8::1",
        ];
        let row = Row(texts.iter().map(|t| Value::from(*t)).collect());
        let blitz = row.get::<TimeControl>(0).unwrap();
        assert_eq!(
            blitz,
            TimeControl::RealTime {
                initial_s: 180,
                increment_s: 2
            }
        );
        assert_eq!(
            row.get::<TimeControl>(1).unwrap(),
            TimeControl::Correspondence { days: 3 }
        );
        assert_eq!(row.get::<Termination>(2).unwrap(), Termination::Aborted);
        for (i, text) in texts.iter().enumerate() {
            let back = match i {
                0 | 1 => Value::from(row.get::<TimeControl>(i).unwrap()),
                2 => Value::from(row.get::<Termination>(i).unwrap()),
                _ => Value::from(row.get::<IpAddr>(i).unwrap()),
            };
            assert_eq!(back, Value::from(*text));
        }
        assert!(
            row.get::<TimeControl>(2).is_err(),
            "a termination is no clock"
        );
        assert!(
            row.get::<Termination>(0).is_err(),
            "a clock is no termination"
        );
        assert!(row.get::<IpAddr>(2).is_err(), "a termination is no address");
        // A game's clocks as `clock.rs` writes them come back the same.
        let clock = Clock::new(blitz, 1_000);
        let stored = Value::from(clock.clone());
        assert_eq!(Row(vec![stored]).get::<Clock>(0).unwrap(), clock);
    }
}
