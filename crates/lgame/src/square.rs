//! Cells and sets of cells.
//!
//! Every board up to 8×8 shares one numbering: a cell's index is `row * 8 + column`, both
//! counted from 0 at the bottom left. A set of cells is then one `u64` whatever the board's
//! size, and a cell can be named without knowing the board.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};
use std::str::FromStr;

/// One cell, named like a chess square: column letter, row number (`A1` bottom left).
///
/// ```
/// use lgame::Square;
///
/// let b3: Square = "B3".parse()?;
/// assert_eq!((b3.column(), b3.row()), (1, 2));
/// assert_eq!(b3, Square::new(1, 2));
/// assert_eq!(b3.index(), 17, "row * 8 + column");
/// assert_eq!(Square::from_index(17), Some(b3));
/// assert_eq!(b3.to_string(), "B3");
/// assert_eq!("b3".parse::<Square>()?, b3);
///
/// let err = "I1".parse::<Square>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "'I1' is not a cell name (a column letter A-H and a row number 1-8, like B3)"
/// );
/// # Ok::<(), lgame::notation::ParseSquareError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The cell at `column` (0 = A) and `row` (0 = row 1); both must be below 8.
    ///
    /// # Panics
    /// If `column` or `row` is 8 or more.
    pub const fn new(column: u8, row: u8) -> Square {
        assert!(column < 8 && row < 8, "a cell's column and row are below 8");
        Square(row * 8 + column)
    }

    /// The cell with this index (`row * 8 + column`), if it is below 64.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The index `row * 8 + column`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Column, 0 for A.
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// Row, 0 for row 1.
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The set holding just this cell.
    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// Orders cells by column, then row: the order in which move notation lists them.
    pub fn notation_key(self) -> (u8, u8) {
        (self.column(), self.row())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.column()) as char, self.row() + 1)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    /// Its name, `A1`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A cell name that is not a letter A–H followed by a number 1–8.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseSquareError {
    /// The text that was not a cell name.
    pub text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a cell name (a column letter A-H and a row number 1-8, like B3)",
            self.text
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads a cell name in either case: `b3`, `B3`.
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError {
            text: text.to_string(),
        };
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return Err(err());
        }
        let column = bytes[0].to_ascii_uppercase().wrapping_sub(b'A');
        let row = bytes[1].wrapping_sub(b'1');
        if column < 8 && row < 8 {
            Ok(Square::new(column, row))
        } else {
            Err(err())
        }
    }
}

/// A set of cells as a 64-bit mask (bit `row * 8 + column`).
///
/// ```
/// use lgame::{Bitboard, Square};
///
/// let l: Bitboard = ["B1", "A3", "A1", "A2"]
///     .iter()
///     .map(|name| name.parse::<Square>())
///     .collect::<Result<_, _>>()?;
/// assert_eq!(l.count(), 4);
/// assert!(l.contains("A2".parse()?));
/// assert!(!l.contains("B2".parse()?));
/// assert_eq!(l.0, 0x10103);
///
/// // Listed by column, then row, as moves are written…
/// assert_eq!(l.to_cell_list(), "A1,A2,A3,B1");
/// // …but iterated in index order, row by row.
/// let cells: Vec<String> = l.into_iter().map(|s| s.to_string()).collect();
/// assert_eq!(cells, ["A1", "B1", "A2", "A3"]);
///
/// let b1 = Square::new(1, 0).bit();
/// assert_eq!((l - b1).to_cell_list(), "A1,A2,A3");
/// assert_eq!(l & b1, b1);
/// assert!(b1.is_subset(l));
/// # Ok::<(), lgame::notation::ParseSquareError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Whether no cell is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one cell.
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of cells.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `square` is in the set.
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.0) != 0
    }

    /// Whether the two sets share a cell.
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every cell of `self` is in `other`.
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest cell (first in index order), if any.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells sorted by column, then row, as move notation lists them.
    pub fn squares_in_notation_order(self) -> Vec<Square> {
        let mut squares: Vec<Square> = self.into_iter().collect();
        squares.sort_by_key(|s| s.notation_key());
        squares
    }

    /// The cells as `A1,A2,B1`, in notation order.
    pub fn to_cell_list(self) -> String {
        let names: Vec<String> = self
            .squares_in_notation_order()
            .iter()
            .map(|s| s.to_string())
            .collect();
        names.join(",")
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Bitboard {
    /// Its cells as a list, `A1,A2,B1` ([`Bitboard::to_cell_list`]).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.to_cell_list())
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        Bitboard(iter.into_iter().fold(0, |mask, s| mask | (1 << s.0)))
    }
}

/// Iterates over the cells of a set in index order.
#[derive(Debug, Clone)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $op:tt, $assign_trait:ident, $assign_method:ident) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Sub for Bitboard {
    type Output = Bitboard;
    /// The cells of `self` that are not in `rhs`.
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_are_column_letter_then_row_number_from_bottom_left() {
        assert_eq!(Square::new(0, 0).to_string(), "A1");
        assert_eq!(Square::new(3, 3).to_string(), "D4");
        assert_eq!("d4".parse::<Square>(), Ok(Square::new(3, 3)));
        assert_eq!("B3".parse::<Square>(), Ok(Square::new(1, 2)));
    }

    #[test]
    fn bad_cell_names_are_refused_with_the_text() {
        for bad in ["", "A", "A0", "I1", "A9", "AA", "1A", "A10"] {
            let err = bad.parse::<Square>().unwrap_err();
            assert_eq!(err.text, bad);
            assert!(err.to_string().contains("is not a cell name"));
        }
    }

    #[test]
    fn cell_lists_are_printed_by_column_then_row() {
        let set: Bitboard = ["B4", "A2", "A4", "A3"]
            .iter()
            .map(|s| s.parse::<Square>().unwrap())
            .collect();
        assert_eq!(set.to_cell_list(), "A2,A3,A4,B4");
    }
}
