//! Moves: a new L placement plus the neutral moves, their notation, and why a move can be
//! illegal.
//!
//! ```
//! use lgame::Move;
//!
//! let mv: Move = "a4,b4,a3,a2 b2-a1".parse()?;
//! assert_eq!(mv.to_string(), "A2,A3,A4,B4 B2-A1");
//! # Ok::<(), lgame::ParseMoveError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Symmetry};
use crate::position::{Outcome, Piece};
use crate::rules::Rules;
use crate::square::{Bitboard, Square};

/// A move, named by its result: the mover's new L cells, the cells neutrals leave and the
/// cells they go to. `from` and `to` are disjoint and equally large, so two ways of writing
/// the same result are the same `Move`.
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

impl fmt::Display for Move {
    /// `A2,A3,A4,B4 B2-A1`: the L cells by column then row, then each neutral move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.l.to_cell_list())?;
        for (from, to) in self.neutral_moves() {
            write!(f, " {from}-{to}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    /// Its notation, `A2,A3,A4,B4 B2-A1`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Text that is not a move in the notation of notation.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// A token that is not a cell name.
    BadCell {
        /// The token.
        token: String,
    },
    /// Not four L cells.
    LCellCount {
        /// How many were given.
        found: usize,
    },
    /// A cell named twice in the L.
    RepeatedCell {
        /// The cell.
        cell: Square,
    },
    /// A neutral move token that is not `from-to`.
    BadNeutralMove {
        /// The token.
        token: String,
    },
    /// `B2-B2`.
    NeutralToItsOwnCell {
        /// The cell.
        cell: Square,
    },
    /// The same neutral moved twice.
    NeutralMovedTwice {
        /// Its cell.
        cell: Square,
    },
    /// Two neutrals sent to one cell.
    TwoNeutralsToOneCell {
        /// The cell.
        cell: Square,
    },
    /// A neutral sent to a cell another neutral leaves in the same turn.
    ChainedNeutralMove {
        /// The cell.
        cell: Square,
    },
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseMoveError::*;
        match self {
            Empty => f.write_str("empty move (write the L's four cells, like A2,A3,A4,B4)"),
            BadCell { token } => write!(f, "'{token}' is not a cell name (like B3)"),
            LCellCount { found } => {
                write!(f, "an L move names 4 cells, this one names {found}")
            }
            RepeatedCell { cell } => write!(f, "{cell} is named twice in the L"),
            BadNeutralMove { token } => write!(
                f,
                "'{token}' is not a neutral move (write from-to, like B2-A1)"
            ),
            NeutralToItsOwnCell { cell } => write!(
                f,
                "{cell}-{cell} moves a neutral onto its own cell, which is not a move"
            ),
            NeutralMovedTwice { cell } => write!(f, "the neutral on {cell} is moved twice"),
            TwoNeutralsToOneCell { cell } => write!(f, "two neutrals are moved to {cell}"),
            ChainedNeutralMove { cell } => write!(
                f,
                "{cell} is both left and entered by neutrals in one turn; write only where \
                 the neutrals end up"
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `A2,A3,A4,B4 B2-A1` in either case, the L cells in any order.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let mut tokens = text.split_whitespace();
        let cells_token = tokens.next().ok_or(ParseMoveError::Empty)?;
        let mut l = Bitboard::EMPTY;
        let names: Vec<&str> = cells_token.split(',').collect();
        for name in &names {
            let cell: Square = name.parse().map_err(|_| ParseMoveError::BadCell {
                token: name.to_string(),
            })?;
            if l.contains(cell) {
                return Err(ParseMoveError::RepeatedCell { cell });
            }
            l |= cell.bit();
        }
        if names.len() != 4 {
            return Err(ParseMoveError::LCellCount { found: names.len() });
        }
        let mut neutral_moves = Vec::new();
        for token in tokens {
            let bad = || ParseMoveError::BadNeutralMove {
                token: token.to_string(),
            };
            let (from, to) = token.split_once('-').ok_or_else(bad)?;
            let from: Square = from.parse().map_err(|_| bad())?;
            let to: Square = to.parse().map_err(|_| bad())?;
            neutral_moves.push((from, to));
        }
        Move::new(l, &neutral_moves)
    }
}

/// Why a move cannot be played in a position.
///
/// With the `serde` feature it serializes as data, its `kind` in snake case with the cells,
/// pieces and counts the words need: `{"kind": "occupied", "cell": "B1", "piece": "blue"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
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
