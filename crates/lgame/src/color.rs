//! The two players and per-player data.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// One of the two players. Red moves first from the starting setups.
///
/// ```
/// use lgame::Color;
///
/// assert_eq!(!Color::Red, Color::Blue);
/// assert_eq!(!!Color::Red, Color::Red);
/// assert_eq!(Color::Blue.name(), "Blue");
/// assert_eq!(Color::Blue.to_string(), "Blue");
/// assert_eq!(Color::Red.letter(), 'R');
/// assert_eq!(Color::Red.side_char(), 'r');
/// assert_eq!(Color::from_side_char('B'), Some(Color::Blue));
/// assert_eq!(Color::from_side_char('w'), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Color {
    /// The first player.
    Red,
    /// The second player.
    Blue,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Blue];

    /// The letter used for this player in positions (`R`, `B`).
    pub fn letter(self) -> char {
        match self {
            Color::Red => 'R',
            Color::Blue => 'B',
        }
    }

    /// The side-to-move letter of the position notation (`r`, `b`).
    pub fn side_char(self) -> char {
        self.letter().to_ascii_lowercase()
    }

    /// Reads a side-to-move letter, in either case.
    pub fn from_side_char(c: char) -> Option<Color> {
        match c.to_ascii_lowercase() {
            'r' => Some(Color::Red),
            'b' => Some(Color::Blue),
            _ => None,
        }
    }

    /// The player's name as people write it (`Red`, `Blue`).
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Blue => "Blue",
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each player.
///
/// ```
/// use lgame::{ByColor, Color, Rules};
///
/// let mut points = ByColor { red: 0, blue: 0 };
/// points[Color::Blue] += 5;
/// assert_eq!(points, ByColor { red: 0, blue: 5 });
/// assert_eq!(points.swapped()[Color::Red], 5);
///
/// let letters = ByColor::new_with(Color::letter);
/// assert_eq!((letters.red, letters.blue), ('R', 'B'));
///
/// // A position's Ls, one for each player:
/// let ls = Rules::classic().start_position().ls();
/// assert_eq!(ls[Color::Red].to_cell_list(), "B2,B3,B4,C4");
/// assert_eq!(ls.blue.to_cell_list(), "B1,C1,C2,C3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Blue's value.
    pub blue: T,
}

impl<T> ByColor<T> {
    /// Builds the pair from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            red: f(Color::Red),
            blue: f(Color::Blue),
        }
    }

    /// The pair with Red's and Blue's values exchanged.
    pub fn swapped(self) -> ByColor<T> {
        ByColor {
            red: self.blue,
            blue: self.red,
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, color: Color) -> &T {
        match color {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Red => &mut self.red,
            Color::Blue => &mut self.blue,
        }
    }
}
