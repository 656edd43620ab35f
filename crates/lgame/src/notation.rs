//! The text forms of notation.md: positions in their one-line rows form and their readable
//! cell-list form, moves, and the errors that say why a text is neither.
//!
//! Text is read into a [`Setup`], which names where the pieces stand and says nothing of the
//! rules; [`Position::from_setup`](crate::Position::from_setup) then checks it under the
//! rules the game is played by. So a position never silently assumes the classic game.
//!
//! ```
//! use lgame::{Move, Position, Rules, Setup};
//!
//! // A 5×4 board with three neutrals: the rows form carries its board…
//! let setup: Setup = "RRR../R.BBB/..NNB/....N r".parse()?;
//! assert_eq!((setup.board.width(), setup.board.height()), (5, 4));
//! // …and the rules decide whether it is a position.
//! let rules: Rules = "board=5x4,neutrals=3".parse()?;
//! let position = Position::from_setup(setup, &rules)?;
//! assert_eq!(position.to_setup().cell_list_string(), "R:A3,A4,B4,C4 B:C3,D3,E2,E3 N:C2,D2,E1 r");
//!
//! // Under the classic rules the same text is refused, and says why.
//! let err = Position::from_setup(setup, &Rules::classic()).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "the position is on a 5x4 board but the rules are for 4x4 (give board=5x4 in the variant)"
//! );
//!
//! let mv: Move = "a4,b4,a3,a2 b2-a1".parse()?;
//! assert_eq!(mv.to_string(), "A2,A3,A4,B4 B2-A1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::moves::Move;
use crate::position::{Piece, Setup};
use crate::square::{Bitboard, Square};

pub use crate::square::ParseSquareError;

impl Setup {
    /// The board part of the one-line form: rows from the top down, separated by `/`.
    pub fn rows_string(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..self.board.height()).rev() {
            let row: String = (0..self.board.width())
                .map(|c| match self.piece_at(Square::new(c, r)) {
                    None => '.',
                    Some(Piece::L(color)) => color.letter(),
                    Some(Piece::Neutral) => 'N',
                })
                .collect();
            rows.push(row);
        }
        rows.join("/")
    }

    /// The readable cell-list form: each piece's cells in sorted order (by column, then by
    /// row), then the player to move, then the scores under scoring.
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let setup = Rules::classic().start_position().to_setup();
    /// assert_eq!(
    ///     setup.cell_list_string(),
    ///     "R:B2,B3,B4,C4 B:B1,C1,C2,C3 N:A4,D1 r"
    /// );
    /// ```
    pub fn cell_list_string(&self) -> String {
        let mut text = format!(
            "R:{} B:{} N:{} {}",
            self.ls.red.to_cell_list(),
            self.ls.blue.to_cell_list(),
            self.neutrals.to_cell_list(),
            self.turn.side_char()
        );
        if let Some(scores) = self.scores {
            text.push_str(&format!(" {}-{}", scores.red, scores.blue));
        }
        text
    }

    /// Reads either form of a position. The rows form carries its board; the cell-list form
    /// is read on `board`.
    ///
    /// # Errors
    /// A [`ParseSetupError`] naming the row, cell or token that could not be read.
    pub fn parse_on(text: &str, board: Board) -> Result<Setup, ParseSetupError> {
        let mut tokens = text.split_whitespace().peekable();
        let first = *tokens.peek().ok_or(ParseSetupError::Empty)?;
        let is_cell_list = first.chars().nth(1) == Some(':');
        let (board, ls, neutrals) = if is_cell_list {
            parse_cell_lists(&mut tokens, board)?
        } else {
            tokens.next();
            parse_rows(first)?
        };
        let side = tokens.next().ok_or(ParseSetupError::MissingSide)?;
        let turn = match side.chars().collect::<Vec<_>>()[..] {
            [c] => Color::from_side_char(c),
            _ => None,
        }
        .ok_or_else(|| ParseSetupError::BadSide {
            token: side.to_string(),
        })?;
        let scores = tokens.next().map(parse_scores).transpose()?;
        if let Some(token) = tokens.next() {
            return Err(ParseSetupError::Trailing {
                token: token.to_string(),
            });
        }
        Ok(Setup {
            board,
            ls,
            neutrals,
            turn,
            scores,
        })
    }
}

fn parse_rows(text: &str) -> Result<(Board, ByColor<Bitboard>, Bitboard), ParseSetupError> {
    let rows: Vec<&str> = text.split('/').collect();
    if !(4..=8).contains(&rows.len()) {
        return Err(ParseSetupError::RowCount { found: rows.len() });
    }
    let height = rows.len();
    let width = rows[0].chars().count();
    if !(4..=8).contains(&width) {
        return Err(ParseSetupError::Width { found: width });
    }
    let board = Board::new(width as u32, height as u32).expect("sides checked above");
    let mut ls = ByColor::<Bitboard>::default();
    let mut neutrals = Bitboard::EMPTY;
    for (i, row) in rows.iter().enumerate() {
        let r = (height - 1 - i) as u8;
        let found = row.chars().count();
        if found != width {
            return Err(ParseSetupError::RowLength {
                row: r as usize + 1,
                found,
                expected: width,
            });
        }
        for (c, ch) in row.chars().enumerate() {
            let cell = Square::new(c as u8, r);
            match ch.to_ascii_uppercase() {
                '.' => {}
                'R' => ls.red |= cell.bit(),
                'B' => ls.blue |= cell.bit(),
                'N' => neutrals |= cell.bit(),
                _ => return Err(ParseSetupError::BadChar { cell, found: ch }),
            }
        }
    }
    Ok((board, ls, neutrals))
}

fn parse_cell_lists<'a>(
    tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
    board: Board,
) -> Result<(Board, ByColor<Bitboard>, Bitboard), ParseSetupError> {
    let mut groups: [Option<Bitboard>; 3] = [None; 3];
    while let Some(token) = tokens.peek().copied() {
        let mut chars = token.chars();
        let (Some(group), Some(':')) = (chars.next(), chars.next()) else {
            break;
        };
        tokens.next();
        let group = group.to_ascii_uppercase();
        let cells_text = chars.as_str();
        let slot = match group {
            'R' => 0,
            'B' => 1,
            'N' => 2,
            _ => {
                return Err(ParseSetupError::BadGroup {
                    token: token.to_string(),
                })
            }
        };
        if groups[slot].is_some() {
            return Err(ParseSetupError::RepeatedGroup { group });
        }
        let mut cells = Bitboard::EMPTY;
        for name in cells_text.split(',').filter(|n| !n.is_empty()) {
            let cell: Square = name.parse().map_err(|_| ParseSetupError::BadCell {
                group,
                token: name.to_string(),
            })?;
            if !board.contains(cell) {
                return Err(ParseSetupError::OffBoard { cell, board });
            }
            if cells.contains(cell) {
                return Err(ParseSetupError::RepeatedCell { cell });
            }
            cells |= cell.bit();
        }
        groups[slot] = Some(cells);
    }
    let red = groups[0].ok_or(ParseSetupError::MissingGroup { group: 'R' })?;
    let blue = groups[1].ok_or(ParseSetupError::MissingGroup { group: 'B' })?;
    Ok((board, ByColor { red, blue }, groups[2].unwrap_or_default()))
}

fn parse_scores(token: &str) -> Result<ByColor<u8>, ParseSetupError> {
    let bad = || ParseSetupError::BadScores {
        token: token.to_string(),
    };
    let (red, blue) = token.split_once('-').ok_or_else(bad)?;
    Ok(ByColor {
        red: red.parse().map_err(|_| bad())?,
        blue: blue.parse().map_err(|_| bad())?,
    })
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    /// Reads either form; the cell-list form on the classic 4×4 board.
    fn from_str(text: &str) -> Result<Setup, ParseSetupError> {
        Setup::parse_on(text, Board::CLASSIC)
    }
}

impl fmt::Display for Setup {
    /// The one-line rows form, with the scores if there are any.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.rows_string(), self.turn.side_char())?;
        if let Some(scores) = self.scores {
            write!(f, " {}-{}", scores.red, scores.blue)?;
        }
        Ok(())
    }
}

/// Text that is not a position in either form of notation.md.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseSetupError {
    /// Nothing was given.
    Empty,
    /// Not 4 to 8 rows.
    RowCount {
        /// Rows found.
        found: usize,
    },
    /// A row of another length than the top row.
    RowLength {
        /// The row's number on the board (1 = bottom).
        row: usize,
        /// Its length.
        found: usize,
        /// The top row's length.
        expected: usize,
    },
    /// Rows of a width outside 4 to 8.
    Width {
        /// The width found.
        found: usize,
    },
    /// A character that is none of `. R B N`.
    BadChar {
        /// The cell where it stands.
        cell: Square,
        /// The character.
        found: char,
    },
    /// No side to move after the board.
    MissingSide,
    /// A side token other than `r` or `b`.
    BadSide {
        /// The token.
        token: String,
    },
    /// A token that is not `R:`, `B:` or `N:` with cells, in the cell-list form.
    BadGroup {
        /// The token.
        token: String,
    },
    /// A group given twice in the cell-list form.
    RepeatedGroup {
        /// `R`, `B` or `N`.
        group: char,
    },
    /// A group missing from the cell-list form.
    MissingGroup {
        /// `R` or `B`.
        group: char,
    },
    /// A cell name that could not be read.
    BadCell {
        /// The group it was in.
        group: char,
        /// The token.
        token: String,
    },
    /// A cell off the board.
    OffBoard {
        /// The cell.
        cell: Square,
        /// The board.
        board: Board,
    },
    /// A cell named twice in one group.
    RepeatedCell {
        /// The cell.
        cell: Square,
    },
    /// A scores token that is not `N-M`.
    BadScores {
        /// The token.
        token: String,
    },
    /// Text after the last field.
    Trailing {
        /// The first extra token.
        token: String,
    },
}

impl fmt::Display for ParseSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseSetupError::*;
        match self {
            Empty => f.write_str("empty position"),
            RowCount { found } => write!(f, "expected 4 to 8 rows separated by '/', found {found}"),
            RowLength {
                row,
                found,
                expected,
            } => write!(
                f,
                "row {row} has {found} cells, but the top row has {expected}"
            ),
            Width { found } => write!(f, "rows of {found} cells: a board has 4 to 8 columns"),
            BadChar { cell, found } => write!(
                f,
                "unexpected '{found}' at {cell} (a cell is . empty, R, B or N)"
            ),
            MissingSide => f.write_str("missing the side to move ('r' or 'b') after the board"),
            BadSide { token } => write!(f, "side to move must be 'r' or 'b', found '{token}'"),
            BadGroup { token } => write!(
                f,
                "'{token}' is not a piece list (expected R:cells, B:cells or N:cells)"
            ),
            RepeatedGroup { group } => write!(f, "the {group}: list is given twice"),
            MissingGroup { group } => write!(f, "the {group}: list is missing"),
            BadCell { group, token } => write!(
                f,
                "'{token}' in the {group}: list is not a cell name (like B3)"
            ),
            OffBoard { cell, board } => write!(f, "{cell} is off the {board} board"),
            RepeatedCell { cell } => write!(f, "{cell} is listed twice"),
            BadScores { token } => write!(
                f,
                "'{token}' is not a score (write Red's points, a dash, Blue's points: 3-2)"
            ),
            Trailing { token } => write!(f, "unexpected '{token}' after the position"),
        }
    }
}

impl std::error::Error for ParseSetupError {}

impl fmt::Display for Move {
    /// `A2,A3,A4,B4 B2-A1`: the L cells by column then row, then each neutral move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.l().to_cell_list())?;
        for (from, to) in self.neutral_moves() {
            write!(f, " {from}-{to}")?;
        }
        Ok(())
    }
}

/// Text that is not a move in the notation of notation.md.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

/// Text that is not a result token (`1-0`, `0-1`, `1/2-1/2` or `*`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseResultError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a result (write 1-0, 0-1, 1/2-1/2 or *)",
            self.text
        )
    }
}

impl std::error::Error for ParseResultError {}
