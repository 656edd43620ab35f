//! Moves: a new L placement plus the neutral moves, their notation, and why a move can be
//! illegal.
//!
//! ```
//! use lgame::Move;
//!
//! let mv: Move = "a4,b4,a3,a2 b2-a1".parse()?;
//! assert_eq!(mv.to_string(), "A2,A3,A4,B4 B2-A1");
//! # Ok::<(), lgame::notation::ParseMoveError>(())
//! ```

use crate::notation::ParseMoveError;
use std::fmt;

use crate::board::{Board, Symmetry};
use crate::position::{Outcome, Piece};
use crate::rules::Rules;
use crate::square::{Bitboard, Square};

/// A move, named by its result: the mover's new L cells, the cells neutrals leave and the
/// cells they go to. `from` and `to` are disjoint and equally large, so two ways of writing
/// the same result are the same `Move`.
///
/// ```
/// use lgame::{Move, Square};
///
/// // A sudden-death move: the L, then both neutrals.
/// let mv: Move = "b1,B2,B3,C1 D1-D4 A4-C3".parse()?;
/// assert_eq!(mv.to_string(), "B1,B2,B3,C1 A4-C3 D1-D4");
/// assert_eq!(mv.l().to_cell_list(), "B1,B2,B3,C1");
/// assert_eq!(mv.neutrals_from().to_cell_list(), "A4,D1");
/// assert_eq!(mv.neutrals_to().to_cell_list(), "C3,D4");
/// let cell = |name: &str| name.parse::<Square>().unwrap();
/// assert_eq!(mv.neutral_moves(), [(cell("A4"), cell("C3")), (cell("D1"), cell("D4"))]);
///
/// // The same result written another way is the same move.
/// assert_eq!("B1,B2,B3,C1 A4-D4 D1-C3".parse::<Move>()?, mv);
///
/// let l_only = Move::l_only(mv.l());
/// assert_eq!(l_only.to_string(), "B1,B2,B3,C1");
/// assert!(l_only.neutral_moves().is_empty());
/// # Ok::<(), lgame::notation::ParseMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    l: Bitboard,
    from: Bitboard,
    to: Bitboard,
}

impl Move {
    /// An L move with no neutral move.
    pub fn l_only(l: Bitboard) -> Move {
        Move {
            l,
            from: Bitboard::EMPTY,
            to: Bitboard::EMPTY,
        }
    }

    /// Builds a move from the L cells and neutral moves, checking that the neutral moves are
    /// well formed (the board and position are checked when the move is played).
    ///
    /// # Errors
    /// A [`ParseMoveError`] for an L of other than 4 cells, a neutral moved onto its own
    /// cell, a neutral moved twice, two neutrals to one cell, or a chained move.
    ///
    /// ```
    /// use lgame::{Bitboard, Move, Square};
    ///
    /// let cell = |name: &str| name.parse::<Square>().unwrap();
    /// let l: Bitboard = ["A2", "A3", "A4", "B4"].map(cell).into_iter().collect();
    /// let mv = Move::new(l, &[(cell("B2"), cell("A1"))])?;
    /// assert_eq!(mv.to_string(), "A2,A3,A4,B4 B2-A1");
    /// assert_eq!(Move::new(l, &[])?, Move::l_only(l));
    ///
    /// let chained = Move::new(l, &[(cell("B2"), cell("C2")), (cell("C2"), cell("D2"))]);
    /// assert_eq!(
    ///     chained.unwrap_err().to_string(),
    ///     "C2 is both left and entered by neutrals in one turn; \
    ///      write only where the neutrals end up"
    /// );
    /// let three = Move::new(l - cell("B4").bit(), &[]);
    /// assert_eq!(three.unwrap_err().to_string(), "an L move names 4 cells, this one names 3");
    /// # Ok::<(), lgame::notation::ParseMoveError>(())
    /// ```
    pub fn new(l: Bitboard, neutral_moves: &[(Square, Square)]) -> Result<Move, ParseMoveError> {
        if l.count() != 4 {
            return Err(ParseMoveError::LCellCount {
                found: l.count() as usize,
            });
        }
        let (mut from, mut to) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for &(f, t) in neutral_moves {
            if f == t {
                return Err(ParseMoveError::NeutralToItsOwnCell { cell: f });
            }
            if from.contains(f) {
                return Err(ParseMoveError::NeutralMovedTwice { cell: f });
            }
            if to.contains(t) {
                return Err(ParseMoveError::TwoNeutralsToOneCell { cell: t });
            }
            from |= f.bit();
            to |= t.bit();
        }
        if let Some(cell) = (from & to).first() {
            return Err(ParseMoveError::ChainedNeutralMove { cell });
        }
        Ok(Move { l, from, to })
    }

    /// Builds a move from its masks; generation guarantees `from` and `to` are disjoint and
    /// of equal size.
    pub(crate) fn from_parts(l: Bitboard, from: Bitboard, to: Bitboard) -> Move {
        debug_assert!(!from.intersects(to) && from.count() == to.count());
        Move { l, from, to }
    }

    /// The cells of the mover's L after the move.
    pub fn l(&self) -> Bitboard {
        self.l
    }

    /// The cells neutrals leave.
    pub fn neutrals_from(&self) -> Bitboard {
        self.from
    }

    /// The cells neutrals go to.
    pub fn neutrals_to(&self) -> Bitboard {
        self.to
    }

    /// The image of this move under one of `board`'s symmetries (the move that the
    /// transformed position has in its place).
    ///
    /// # Panics
    /// If the board does not have `symmetry` (a diagonal on a non-square board).
    pub fn transform(&self, board: Board, symmetry: Symmetry) -> Move {
        let g = board.geometry();
        Move {
            l: g.transform(symmetry, self.l),
            from: g.transform(symmetry, self.from),
            to: g.transform(symmetry, self.to),
        }
    }

    /// The neutral moves as printed: sorted `from` cells paired with sorted `to` cells.
    pub fn neutral_moves(&self) -> Vec<(Square, Square)> {
        self.from
            .squares_in_notation_order()
            .into_iter()
            .zip(self.to.squares_in_notation_order())
            .collect()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    /// Its notation, `A2,A3,A4,B4 B2-A1`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why a move cannot be played in a position.
///
/// With the `serde` feature it serializes as data, its `kind` in snake case with the cells,
/// pieces and counts the words need: `{"kind": "occupied", "cell": "B1", "piece": "blue"}`.
///
/// ```
/// use lgame::{Color, Rules};
/// use lgame::moves::IllegalMove;
/// use lgame::position::Piece;
///
/// let start = Rules::classic().start_position();
/// match start.check_move(&"A1,A2,A3,B1".parse()?) {
///     Err(IllegalMove::LOverlaps { cell, piece: Piece::L(Color::Blue) }) => {
///         assert_eq!(cell.to_string(), "B1")
///     }
///     other => panic!("expected Blue's L in the way, got {other:?}"),
/// }
///
/// let err = start.check_move(&"A1,A2,A3,B3 C3-D2".parse()?).unwrap_err();
/// assert!(matches!(err, IllegalMove::NoNeutral { piece: Some(Piece::L(Color::Blue)), .. }));
/// assert_eq!(err.to_string(), "there is no neutral on C3 (it holds Blue's L)");
///
/// let required = "neutral-required".parse::<Rules>()?.start_position();
/// let err = required.check_move(&"A1,A2,A3,B3".parse()?).unwrap_err();
/// assert_eq!(err, IllegalMove::NeutralMoveRequired);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is already over.
    GameOver {
        /// How it ended.
        #[cfg_attr(feature = "serde", serde(skip))]
        outcome: Outcome,
    },
    /// A cell of the move is off the board.
    OffBoard {
        /// The cell.
        cell: Square,
        /// The board.
        board: Board,
    },
    /// The four cells are not an L.
    NotAnL {
        /// The cells.
        cells: Bitboard,
    },
    /// The L would stay where it is.
    Unchanged {
        /// Its cells.
        cells: Bitboard,
    },
    /// The new L covers an occupied cell.
    #[cfg_attr(feature = "serde", serde(rename = "occupied"))]
    LOverlaps {
        /// The cell.
        cell: Square,
        /// What stands there.
        piece: Piece,
    },
    /// The L move wins by symmetry, which ends the game: no neutral may move.
    NeutralAfterSymmetryWin,
    /// More neutral moves than the rules allow.
    TooManyNeutralMoves {
        /// The rules' limit.
        allowed: u32,
        /// The move's count.
        found: u32,
        /// The rules.
        rules: Rules,
    },
    /// The rules require a neutral move and the move has none.
    #[cfg_attr(feature = "serde", serde(rename = "neutral_required"))]
    NeutralMoveRequired,
    /// A neutral move from a cell without a neutral.
    NoNeutral {
        /// The cell.
        cell: Square,
        /// What stands there instead.
        piece: Option<Piece>,
    },
    /// A neutral move to a cell that is not empty after the L move.
    NeutralTargetOccupied {
        /// The cell.
        cell: Square,
        /// What stands there.
        piece: Piece,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        match self {
            GameOver { outcome } => write!(f, "the game is over ({outcome})"),
            OffBoard { cell, board } => write!(f, "{cell} is off the {board} board"),
            NotAnL { cells } => write!(f, "{} is not an L shape", cells.to_cell_list()),
            Unchanged { cells } => write!(
                f,
                "the L is already on {}: it must move to a different placement",
                cells.to_cell_list()
            ),
            LOverlaps { cell, piece } => {
                write!(f, "the L cannot go on {cell}: it is occupied by {piece}")
            }
            NeutralAfterSymmetryWin => f.write_str(
                "this L move mirrors the opponent's L and wins at once: no neutral may move",
            ),
            TooManyNeutralMoves {
                allowed,
                found,
                rules,
            } => write!(
                f,
                "{found} neutral moves, but the {rules} rules allow at most {allowed}"
            ),
            NeutralMoveRequired => f.write_str(
                "a neutral move is required after the L move under neutral-required rules",
            ),
            NoNeutral { cell, piece } => match piece {
                Some(piece) => write!(f, "there is no neutral on {cell} (it holds {piece})"),
                None => write!(f, "there is no neutral on {cell} (it is empty)"),
            },
            NeutralTargetOccupied { cell, piece } => write!(
                f,
                "a neutral cannot move to {cell}: it is occupied by {piece}"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::IllegalMove;
    use crate::Rules;

    #[test]
    fn every_illegal_move_reason_has_a_test_in_tests_errors() {
        // The match is exhaustive inside this crate (`#[non_exhaustive]` does not apply
        // here), so a new reason does not compile until it names its test; the assertion
        // then checks that tests/errors.rs has that test.
        fn test_of(e: &IllegalMove) -> &'static str {
            match e {
                IllegalMove::GameOver { .. } => "illegal_move_after_the_game_is_over",
                IllegalMove::OffBoard { .. } => "illegal_move_off_the_board",
                IllegalMove::NotAnL { .. } => "illegal_move_not_an_l",
                IllegalMove::Unchanged { .. } => "illegal_move_unchanged_placement",
                IllegalMove::LOverlaps { .. } => "illegal_move_overlaps_a_neutral_on_a_named_cell",
                IllegalMove::NeutralAfterSymmetryWin => "illegal_move_neutral_after_a_symmetry_win",
                IllegalMove::TooManyNeutralMoves { .. } => {
                    "illegal_move_too_many_neutral_moves_for_the_variant"
                }
                IllegalMove::NeutralMoveRequired => "illegal_move_neutral_move_required",
                IllegalMove::NoNeutral { .. } => "illegal_move_no_neutral_on_that_cell",
                IllegalMove::NeutralTargetOccupied { .. } => "illegal_move_neutral_target_occupied",
            }
        }
        let tests = include_str!("../tests/errors.rs");
        let cell = crate::Square::new(0, 0);
        let board = crate::Board::CLASSIC;
        let outcome = crate::position::all_positions(&Rules::classic())
            .iter()
            .find_map(crate::Position::outcome)
            .expect("the classic game has finished positions");
        let reasons = [
            IllegalMove::OffBoard { cell, board },
            IllegalMove::NotAnL {
                cells: crate::Bitboard::EMPTY,
            },
            IllegalMove::Unchanged {
                cells: crate::Bitboard::EMPTY,
            },
            IllegalMove::LOverlaps {
                cell,
                piece: crate::position::Piece::Neutral,
            },
            IllegalMove::NeutralAfterSymmetryWin,
            IllegalMove::NeutralMoveRequired,
            IllegalMove::GameOver { outcome },
            IllegalMove::TooManyNeutralMoves {
                allowed: 1,
                found: 2,
                rules: Rules::classic(),
            },
            IllegalMove::NoNeutral { cell, piece: None },
            IllegalMove::NeutralTargetOccupied {
                cell,
                piece: crate::position::Piece::Neutral,
            },
        ];
        for reason in &reasons {
            let name = test_of(reason);
            assert!(tests.contains(&format!("fn {name}()")), "no test {name}");
        }
    }
}
