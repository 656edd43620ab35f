//! Setups (unchecked arrangements) and positions (checked against the rules), their text
//! forms, legal move generation and play.
//!
//! ```
//! use lgame::{Position, Rules};
//!
//! let rules = Rules::classic();
//! let start = rules.start_position();
//! assert_eq!(start.to_string(), "NRR./.RB./.RB./.BBN r");
//! assert_eq!(start.legal_moves().len(), 65);
//!
//! let kit = Position::from_text("R:A1,A2,A3,B1 B:D2,D3,D4,C4 N:B2,C3 r", &rules)?;
//! let after = kit.play(&"A2,A3,A4,B4 B2-A1".parse()?)?;
//! assert_eq!(after.to_string(), "RRBB/R.NB/R..B/N... b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::notation::ParseSetupError;
use std::fmt;

use crate::board::{Board, Symmetry};
use crate::color::{ByColor, Color};
use crate::moves::{IllegalMove, Move};
use crate::raw::{for_each_subset, Arrangement};
use crate::rules::{NeutralMoves, Rules};
use crate::square::{Bitboard, Square};

/// What stands on a cell. With the `serde` feature: `red`, `blue` or `neutral`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum Piece {
    /// A neutral piece.
    Neutral,
    /// A player's L.
    #[cfg_attr(feature = "serde", serde(untagged))]
    L(Color),
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Piece::L(color) => write!(f, "{color}'s L"),
            Piece::Neutral => f.write_str("a neutral"),
        }
    }
}

/// Why cells chosen for an L cannot become a legal placement ([`Position::check_l_cells`]).
///
/// With the `serde` feature it serializes as data with a `kind`: `no_placement` with the
/// `cells`, or the [`IllegalMove`]'s own form.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum PartialLError {
    /// No L on the board, free or not, covers all the cells.
    NoPlacement {
        /// The cells.
        cells: Bitboard,
    },
    /// A rule forbids it, as it would forbid the whole move.
    #[cfg_attr(feature = "serde", serde(untagged))]
    Illegal(IllegalMove),
}

impl From<IllegalMove> for PartialLError {
    fn from(e: IllegalMove) -> PartialLError {
        PartialLError::Illegal(e)
    }
}

impl fmt::Display for PartialLError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartialLError::Illegal(e) => e.fmt(f),
            PartialLError::NoPlacement { cells } => {
                write!(f, "no free L covers {}", cells.to_cell_list())
            }
        }
    }
}

impl std::error::Error for PartialLError {}

/// An arrangement of pieces, as read from text, not yet checked against any rules.
///
/// ```
/// use lgame::{Color, Position, Rules, Setup};
/// use lgame::position::{Piece, SetupError};
///
/// // Any arrangement of the letters is a setup…
/// let setup: Setup = "NRRR/..B./.RB./.BBN r".parse()?;
/// assert_eq!(setup.turn, Color::Red);
/// assert_eq!(setup.ls.red.to_cell_list(), "B2,B4,C4,D4");
/// assert_eq!(setup.piece_at("C3".parse()?), Some(Piece::L(Color::Blue)));
/// assert_eq!(setup.neutrals.count(), 2);
///
/// // …but only a legal one is a position.
/// let err = Position::from_setup(setup, &Rules::classic()).unwrap_err();
/// assert_eq!(err, SetupError::NotAnL { color: Color::Red, cells: setup.ls.red });
/// assert_eq!(err.to_string(), "Red's L on B2,B4,C4,D4 is not an L shape");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board.
    pub board: Board,
    /// The cells of each player's L.
    pub ls: ByColor<Bitboard>,
    /// The cells holding neutrals.
    pub neutrals: Bitboard,
    /// The player to move.
    pub turn: Color,
    /// The scores (Red, Blue), for the scoring variant.
    pub scores: Option<ByColor<u8>>,
}

/// A setup that is not a legal position under the given rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// The setup's board is not the rules' board.
    BoardMismatch {
        /// The setup's board.
        setup: Board,
        /// The rules' board.
        rules: Board,
    },
    /// An L of the wrong number of cells.
    LCellCount {
        /// Whose L.
        color: Color,
        /// How many cells it has.
        found: u32,
    },
    /// Four cells that do not form an L.
    NotAnL {
        /// Whose L.
        color: Color,
        /// Its cells.
        cells: Bitboard,
    },
    /// Two pieces on one cell.
    Overlap {
        /// The cell.
        cell: Square,
        /// The first piece there.
        first: Piece,
        /// The second piece there.
        second: Piece,
    },
    /// Not the rules' number of neutrals.
    NeutralCount {
        /// The rules' count.
        expected: u8,
        /// The setup's count.
        found: u32,
    },
    /// Scores given for rules without scoring.
    UnexpectedScores,
    /// A score above anything reachable (target + 4).
    ScoreTooHigh {
        /// Whose score.
        color: Color,
        /// The score.
        score: u8,
        /// The highest reachable score.
        max: u8,
    },
    /// The player to move has already reached the target.
    TargetReachedByMover {
        /// The player to move.
        color: Color,
    },
    /// Under scoring, the player to move is trapped but the game goes on: such a position
    /// is reset to the starting setup at once and is never one to play from.
    UnsettledTrap {
        /// The trapped player.
        color: Color,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SetupError::*;
        match self {
            BoardMismatch { setup, rules } => write!(
                f,
                "the position is on a {setup} board but the rules are for {rules} \
                 (give board={setup} in the variant)"
            ),
            LCellCount { color, found } => {
                write!(f, "{color}'s L has {found} cells; an L has 4")
            }
            NotAnL { color, cells } => write!(
                f,
                "{color}'s L on {} is not an L shape",
                cells.to_cell_list()
            ),
            Overlap {
                cell,
                first,
                second,
            } => write!(f, "{cell} holds both {first} and {second}"),
            NeutralCount { expected, found } => write!(
                f,
                "the rules have {expected} neutral{}, the position has {found}",
                if *expected == 1 { "" } else { "s" }
            ),
            UnexpectedScores => {
                f.write_str("scores are only part of a position in the scoring variant")
            }
            ScoreTooHigh { color, score, max } => write!(
                f,
                "{color} has {score} points, more than can be reached (at most {max})"
            ),
            TargetReachedByMover { color } => write!(
                f,
                "{color} is to move but has already reached the target, which ends the game"
            ),
            UnsettledTrap { color } => write!(
                f,
                "{color} is to move and trapped: under scoring the pieces would already be back \
                 on the starting setup"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Text that is not a legal position: unreadable, or readable but illegal under the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// The text could not be read.
    Parse(ParseSetupError),
    /// The arrangement is not legal under the rules.
    Setup(SetupError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Parse(e) => e.fmt(f),
            PositionError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionError::Parse(e) => Some(e),
            PositionError::Setup(e) => Some(e),
        }
    }
}

impl From<ParseSetupError> for PositionError {
    fn from(e: ParseSetupError) -> PositionError {
        PositionError::Parse(e)
    }
}

impl From<SetupError> for PositionError {
    fn from(e: SetupError) -> PositionError {
        PositionError::Setup(e)
    }
}

impl Setup {
    /// What stands on `square`, Red's L first where pieces overlap.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        if self.ls.red.contains(square) {
            Some(Piece::L(Color::Red))
        } else if self.ls.blue.contains(square) {
            Some(Piece::L(Color::Blue))
        } else if self.neutrals.contains(square) {
            Some(Piece::Neutral)
        } else {
            None
        }
    }
}

/// How a game ends on the board (draw rules belong to a [`crate::Game`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// The player to move cannot move their L.
    Trapped,
    /// The last L move mirrored the opponent's L (symmetry variant).
    Symmetry,
    /// A player reached the scoring target.
    ScoreTarget,
}

impl End {
    /// A short lower-case name: `trapped`, `symmetry`, `score target`.
    pub fn name(self) -> &'static str {
        match self {
            End::Trapped => "trapped",
            End::Symmetry => "symmetry",
            End::ScoreTarget => "score target",
        }
    }
}

/// The end of a finished position: who won and how.
///
/// ```
/// use lgame::{Color, Position, Rules};
/// use lgame::position::{End, Outcome};
///
/// // Red to move, and Red's L has nowhere to go.
/// let text = "RRN./RB../RBBB/N... r";
/// let trapped = Position::from_text(text, &Rules::classic())?;
/// let outcome = trapped.outcome().expect("the game is over");
/// assert_eq!(outcome, Outcome { winner: Color::Blue, end: End::Trapped, to_move: Color::Red });
/// assert_eq!(outcome.to_string(), "Blue wins: Red cannot move their L");
///
/// // Under misère the trapped player wins.
/// let misere = Position::from_text(text, &"misere".parse()?)?;
/// assert_eq!(misere.outcome().map(|o| o.winner), Some(Color::Red));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner.
    pub winner: Color,
    /// How the game ended.
    pub end: End,
    /// The player to move in the finished position (the trapped one, for [`End::Trapped`]).
    pub to_move: Color,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.end {
            End::Trapped => write!(
                f,
                "{} wins: {} cannot move their L",
                self.winner, self.to_move
            ),
            End::Symmetry => write!(f, "{} wins: the Ls mirror each other", self.winner),
            End::ScoreTarget => write!(f, "{} wins: reached the score target", self.winner),
        }
    }
}

/// A legal position under a set of rules: built only by [`Position::from_setup`], by parsing,
/// or by playing legal moves.
///
/// ```
/// use lgame::{Color, Position, Rules};
///
/// let rules = Rules::classic();
/// let start = Position::from_text("NRR./.RB./.RB./.BBN r", &rules)?;
/// assert_eq!(start, rules.start_position());
/// assert_eq!(start.turn(), Color::Red);
/// assert_eq!(start.l(Color::Blue).to_cell_list(), "B1,C1,C2,C3");
/// assert_eq!(start.neutrals().to_cell_list(), "A4,D1");
/// assert_eq!(start.occupied().count(), 10);
/// assert_eq!(start.legal_move_count(), 65);
/// assert!(!start.is_finished());
///
/// let next = start.play(&"A1,A2,A3,B3 D1-D2".parse()?)?;
/// assert_eq!(next.turn(), Color::Blue);
/// assert_eq!(next.l(Color::Red).to_cell_list(), "A1,A2,A3,B3");
/// assert_eq!(next.neutrals().to_cell_list(), "A4,D2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    ls: ByColor<Bitboard>,
    neutrals: Bitboard,
    turn: Color,
    scores: ByColor<u8>,
}

impl Position {
    /// Checks a setup against the rules.
    ///
    /// # Errors
    /// A [`SetupError`] saying what is illegal: board size, an L that is not an L, two pieces
    /// on a cell (naming the cell and both pieces), the neutral count, or scores.
    ///
    /// ```
    /// use lgame::{Board, ByColor, Color, Position, Rules, Setup, Square};
    /// use lgame::position::SetupError;
    ///
    /// let cells = |list: &str| list.split(',').map(|c| c.parse::<Square>().unwrap()).collect();
    /// let mut setup = Setup {
    ///     board: Board::CLASSIC,
    ///     ls: ByColor { red: cells("A1,A2,A3,B1"), blue: cells("C4,D2,D3,D4") },
    ///     neutrals: cells("B2,C3"),
    ///     turn: Color::Red,
    ///     scores: None,
    /// };
    /// let kit = Position::from_setup(setup, &Rules::classic())?;
    /// assert_eq!(kit.to_string(), "..BB/R.NB/RN.B/RR.. r");
    ///
    /// // One neutral is one too few for the classic rules, but right for `neutrals=1`.
    /// setup.neutrals = cells("B2");
    /// let err = Position::from_setup(setup, &Rules::classic()).unwrap_err();
    /// assert_eq!(err, SetupError::NeutralCount { expected: 2, found: 1 });
    /// assert_eq!(err.to_string(), "the rules have 2 neutrals, the position has 1");
    /// assert!(Position::from_setup(setup, &"neutrals=1".parse()?).is_ok());
    ///
    /// setup.neutrals = cells("A1,C3");
    /// let err = Position::from_setup(setup, &Rules::classic()).unwrap_err();
    /// assert_eq!(err.to_string(), "A1 holds both Red's L and a neutral");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_setup(setup: Setup, rules: &Rules) -> Result<Position, SetupError> {
        if setup.board != rules.board() {
            return Err(SetupError::BoardMismatch {
                setup: setup.board,
                rules: rules.board(),
            });
        }
        let geometry = rules.board().geometry();
        for color in Color::ALL {
            let cells = setup.ls[color];
            if cells.count() != 4 {
                return Err(SetupError::LCellCount {
                    color,
                    found: cells.count(),
                });
            }
            if !geometry.is_l(cells) {
                return Err(SetupError::NotAnL { color, cells });
            }
        }
        let pairs = [
            (
                setup.ls.red,
                Piece::L(Color::Red),
                setup.ls.blue,
                Piece::L(Color::Blue),
            ),
            (
                setup.ls.red,
                Piece::L(Color::Red),
                setup.neutrals,
                Piece::Neutral,
            ),
            (
                setup.ls.blue,
                Piece::L(Color::Blue),
                setup.neutrals,
                Piece::Neutral,
            ),
        ];
        for (a, first, b, second) in pairs {
            if let Some(cell) = (a & b).squares_in_notation_order().first() {
                return Err(SetupError::Overlap {
                    cell: *cell,
                    first,
                    second,
                });
            }
        }
        if setup.neutrals.count() != rules.neutrals() as u32 {
            return Err(SetupError::NeutralCount {
                expected: rules.neutrals(),
                found: setup.neutrals.count(),
            });
        }
        let scores = match (setup.scores, rules.scoring_target()) {
            (Some(_), None) => return Err(SetupError::UnexpectedScores),
            (scores, Some(target)) => {
                let scores = scores.unwrap_or_default();
                let max = target.saturating_add(4);
                for color in Color::ALL {
                    if scores[color] > max {
                        return Err(SetupError::ScoreTooHigh {
                            color,
                            score: scores[color],
                            max,
                        });
                    }
                }
                if scores[setup.turn] >= target {
                    return Err(SetupError::TargetReachedByMover { color: setup.turn });
                }
                scores
            }
            (None, None) => ByColor::default(),
        };
        let position = Position {
            rules: *rules,
            ls: setup.ls,
            neutrals: setup.neutrals,
            turn: setup.turn,
            scores,
        };
        if let Some(target) = rules.scoring_target() {
            // A trap under scoring resets the pieces at once, unless the game is already over
            // (the other player has reached the target, or won by symmetry).
            let over_by_symmetry = rules.symmetry() && position.ls_mirror_each_other();
            if scores[!setup.turn] < target && !over_by_symmetry && position.is_trapped() {
                return Err(SetupError::UnsettledTrap { color: setup.turn });
            }
        }
        Ok(position)
    }

    /// Reads a position in either form and checks it against `rules` (the cell-list form is
    /// read on the rules' board). A setup name (`standard`, `kit`, `corners`) is also
    /// accepted, and `start` for the rules' own starting position.
    ///
    /// # Errors
    /// A [`PositionError`]: unreadable text, or an arrangement illegal under the rules.
    ///
    /// ```
    /// use lgame::{Position, Rules};
    /// use lgame::position::PositionError;
    ///
    /// let rules = Rules::classic();
    /// let kit = Position::from_text("kit", &rules)?;
    /// assert_eq!(kit.to_string(), "..BB/R.NB/RN.B/RR.. r");
    /// assert_eq!(Position::from_text("start", &rules)?, rules.start_position());
    /// assert_eq!(Position::from_text("R:A1,A2,A3,B1 B:C4,D2,D3,D4 N:B2,C3 r", &rules)?, kit);
    ///
    /// let err = Position::from_text("NRR./.RB./.RB./.BBN w", &rules).unwrap_err();
    /// assert!(matches!(err, PositionError::Parse(_)));
    /// assert_eq!(err.to_string(), "side to move must be 'r' or 'b', found 'w'");
    /// let err = Position::from_text("NRR./.RB./.RB./.BBN r 1-0", &rules).unwrap_err();
    /// assert!(matches!(err, PositionError::Setup(_)));
    /// assert_eq!(err.to_string(), "scores are only part of a position in the scoring variant");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_text(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        if text.trim().eq_ignore_ascii_case("start") {
            return Ok(rules.start_position());
        }
        if let Some(named) = crate::rules::StartSetup::from_name(text.trim()) {
            let setup = named.setup(rules.board(), rules.neutrals());
            return Ok(Position::from_setup(setup, rules)?);
        }
        let setup = Setup::parse_on(text, rules.board())?;
        Ok(Position::from_setup(setup, rules)?)
    }

    /// The rules this position is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.rules.board()
    }

    /// The cells of `color`'s L.
    pub fn l(&self, color: Color) -> Bitboard {
        self.ls[color]
    }

    /// Both Ls.
    pub fn ls(&self) -> ByColor<Bitboard> {
        self.ls
    }

    /// The cells holding neutrals.
    pub fn neutrals(&self) -> Bitboard {
        self.neutrals
    }

    /// The player to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The scores (0-0 without the scoring variant).
    pub fn scores(&self) -> ByColor<u8> {
        self.scores
    }

    /// Every occupied cell.
    pub fn occupied(&self) -> Bitboard {
        self.ls.red | self.ls.blue | self.neutrals
    }

    /// What stands on `square`.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.to_setup().piece_at(square)
    }

    /// The unchecked arrangement of this position (scores only under scoring).
    ///
    /// ```
    /// use lgame::{ByColor, Position, Rules};
    ///
    /// let rules: Rules = "scoring".parse()?;
    /// let start = rules.start_position();
    /// let mut setup = start.to_setup();
    /// assert_eq!(setup.scores, Some(ByColor { red: 0, blue: 0 }));
    /// assert_eq!(Position::from_setup(setup, &rules)?, start);
    ///
    /// setup.scores = Some(ByColor { red: 3, blue: 2 });
    /// let ahead = Position::from_setup(setup, &rules)?;
    /// assert_eq!(ahead.to_string(), "NRR./.RB./.RB./.BBN r 3-2");
    /// assert_eq!(Rules::classic().start_position().to_setup().scores, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board(),
            ls: self.ls,
            neutrals: self.neutrals,
            turn: self.turn,
            scores: self.rules.scoring_target().map(|_| self.scores),
        }
    }

    /// The readable cell-list form: each piece's cells in sorted order (by column, then by
    /// row), then the player to move, then the scores under scoring.
    ///
    /// ```
    /// use lgame::{Position, Rules};
    ///
    /// let rules = Rules::classic();
    /// let start = rules.start_position();
    /// let text = start.to_cell_list_string();
    /// assert_eq!(text, "R:B2,B3,B4,C4 B:B1,C1,C2,C3 N:A4,D1 r");
    /// assert_eq!(Position::from_text(&text, &rules), Ok(start));
    /// ```
    pub fn to_cell_list_string(&self) -> String {
        self.to_setup().cell_list_string()
    }

    /// The placements the player to move may put their L on.
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let start = Rules::classic().start_position();
    /// let placements: Vec<String> = start.l_moves().map(|l| l.to_cell_list()).collect();
    /// assert_eq!(
    ///     placements,
    ///     ["A1,A2,A3,B3", "A2,B2,B3,B4", "C4,D2,D3,D4", "B3,B4,C4,D4", "B4,C4,D3,D4"]
    /// );
    /// ```
    pub fn l_moves(&self) -> impl Iterator<Item = Bitboard> + '_ {
        let own = self.ls[self.turn];
        let blocked = self.ls[!self.turn] | self.neutrals;
        self.board()
            .geometry()
            .placements()
            .iter()
            .copied()
            .filter(move |&p| p != own && !p.intersects(blocked))
    }

    /// Whether the player to move cannot move their L.
    ///
    /// ```
    /// use lgame::{Position, Rules};
    ///
    /// let rules = Rules::classic();
    /// assert!(!rules.start_position().is_trapped());
    /// let trapped = Position::from_text("RRN./RB../RBBB/N... r", &rules)?;
    /// assert!(trapped.is_trapped());
    /// assert!(trapped.legal_moves().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_trapped(&self) -> bool {
        self.l_moves().next().is_none()
    }

    /// Whether the two Ls are mirror images in one of the board's mirror lines.
    pub fn ls_mirror_each_other(&self) -> bool {
        mirrors(self.board(), self.ls.red, self.ls.blue)
    }

    /// How the game has ended, if it has: a target reached, mirrored Ls (symmetry variant),
    /// or the player to move trapped.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(target) = self.rules.scoring_target() {
            if let Some(winner) = Color::ALL.into_iter().find(|&c| self.scores[c] >= target) {
                return Some(Outcome {
                    winner,
                    end: End::ScoreTarget,
                    to_move: self.turn,
                });
            }
        }
        if self.rules.symmetry() && self.ls_mirror_each_other() {
            return Some(Outcome {
                winner: !self.turn,
                end: End::Symmetry,
                to_move: self.turn,
            });
        }
        if self.is_trapped() {
            let winner = if self.rules.misere() {
                self.turn
            } else {
                !self.turn
            };
            return Some(Outcome {
                winner,
                end: End::Trapped,
                to_move: self.turn,
            });
        }
        None
    }

    /// Whether the game is over in this position.
    pub fn is_finished(&self) -> bool {
        self.outcome().is_some()
    }

    /// Calls `f` with every legal move, each exactly once (moves are named by their result).
    /// The fast path for search; no move list is built.
    pub fn for_each_legal_move(&self, mut f: impl FnMut(Move)) {
        if self.is_finished() {
            return;
        }
        self.arrangement()
            .for_each_move(&self.rules, |_, l, from, to| {
                f(Move::from_parts(l, from, to))
            });
    }

    /// The number of legal moves, counted without generating them.
    pub fn legal_move_count(&self) -> u64 {
        if self.is_finished() {
            return 0;
        }
        self.arrangement().move_count(&self.rules)
    }

    /// The pieces seen from the player to move (see [`crate::raw`]).
    pub fn arrangement(&self) -> Arrangement {
        Arrangement {
            mover: self.ls[self.turn],
            other: self.ls[!self.turn],
            neutrals: self.neutrals,
        }
    }

    /// Every legal move (empty when the game is over).
    ///
    /// ```
    /// use lgame::{Move, Rules};
    ///
    /// let start = Rules::classic().start_position();
    /// let moves = start.legal_moves();
    /// assert_eq!(moves.len(), 65);
    /// assert!(moves.contains(&"A1,A2,A3,B3 D1-D2".parse()?));
    /// let l_alone: Vec<&Move> = moves.iter().filter(|m| m.neutrals_from().is_empty()).collect();
    /// assert_eq!(l_alone.len(), start.l_moves().count());
    ///
    /// // Sudden death lets both neutrals move: each of the 5 L moves leaves 6 empty cells,
    /// // so the two neutrals may end on any 2 of those 8 cells: 28 ways.
    /// let sudden = "sudden-death".parse::<Rules>()?.start_position();
    /// assert_eq!(sudden.legal_moves().len(), 5 * 28);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.for_each_legal_move(|m| moves.push(m));
        moves
    }

    /// Says why `mv` is illegal here, or `Ok(())` when it is legal.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason, checked in this order: game over, cell off the board, not
    /// an L, unchanged L, L on an occupied cell, neutral moves after a symmetry win, too
    /// many or missing neutral moves, no neutral to move, neutral target occupied.
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let start = Rules::classic().start_position();
    /// assert_eq!(start.check_move(&"A1,A2,A3,B3 D1-D2".parse()?), Ok(()));
    ///
    /// let why = |text: &str| start.check_move(&text.parse().unwrap()).unwrap_err().to_string();
    /// assert_eq!(why("A2,A3,A4,B4"), "the L cannot go on A4: it is occupied by a neutral");
    /// assert_eq!(why("E1,E2,E3,F1"), "E1 is off the 4x4 board");
    /// assert_eq!(
    ///     why("A1,A2,A3,B3 A4-C4 D1-D2"),
    ///     "2 neutral moves, but the classic rules allow at most 1"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_move(&self, mv: &Move) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove::GameOver { outcome });
        }
        let board = self.board();
        let all = mv.l() | mv.neutrals_from() | mv.neutrals_to();
        if let Some(cell) = (all - board.mask()).squares_in_notation_order().first() {
            return Err(IllegalMove::OffBoard { cell: *cell, board });
        }
        if !board.geometry().is_l(mv.l()) {
            return Err(IllegalMove::NotAnL { cells: mv.l() });
        }
        let own = self.ls[self.turn];
        let opponent = self.ls[!self.turn];
        if mv.l() == own {
            return Err(IllegalMove::Unchanged { cells: own });
        }
        for (pieces, piece) in [
            (opponent, Piece::L(!self.turn)),
            (self.neutrals, Piece::Neutral),
        ] {
            if let Some(cell) = (mv.l() & pieces).squares_in_notation_order().first() {
                return Err(IllegalMove::LOverlaps { cell: *cell, piece });
            }
        }
        let count = mv.neutrals_from().count();
        if self.rules.symmetry() && mirrors(board, mv.l(), opponent) {
            if count > 0 {
                return Err(IllegalMove::NeutralAfterSymmetryWin);
            }
            return Ok(());
        }
        let allowed = self.rules.max_neutral_moves() as u32;
        if count > allowed {
            return Err(IllegalMove::TooManyNeutralMoves {
                allowed,
                found: count,
                rules: self.rules,
            });
        }
        if count == 0 && self.rules.neutral_moves() == NeutralMoves::Required {
            return Err(IllegalMove::NeutralMoveRequired);
        }
        for from in mv.neutrals_from().squares_in_notation_order() {
            if !self.neutrals.contains(from) {
                return Err(IllegalMove::NoNeutral {
                    cell: from,
                    piece: self.piece_at(from),
                });
            }
        }
        for to in mv.neutrals_to().squares_in_notation_order() {
            let piece = if mv.l().contains(to) {
                Some(Piece::L(self.turn))
            } else if opponent.contains(to) {
                Some(Piece::L(!self.turn))
            } else if self.neutrals.contains(to) {
                Some(Piece::Neutral)
            } else {
                None
            };
            if let Some(piece) = piece {
                return Err(IllegalMove::NeutralTargetOccupied { cell: to, piece });
            }
        }
        Ok(())
    }

    /// Says whether `cells`, chosen so far for the player to move's next L, can still be
    /// completed to a legal placement: what a board highlights while a person builds a move.
    ///
    /// # Errors
    /// [`PartialLError::Illegal`] with the rules' reason (game over, off the board, a cell
    /// occupied, the only completion is the L where it stands), or
    /// [`PartialLError::NoPlacement`] when no L on the board covers the cells.
    ///
    /// ```
    /// use lgame::{Bitboard, Rules, Square};
    /// use lgame::position::PartialLError;
    ///
    /// let cells = |list: &str| -> Bitboard {
    ///     list.split(',').map(|c| c.parse::<Square>().unwrap()).collect()
    /// };
    /// let start = Rules::classic().start_position();
    /// assert_eq!(start.check_l_cells(cells("A1,A2")), Ok(()));
    ///
    /// let why = |list: &str| start.check_l_cells(cells(list)).unwrap_err().to_string();
    /// assert_eq!(why("C1"), "the L cannot go on C1: it is occupied by Blue's L");
    /// assert_eq!(
    ///     why("B2,C4"),
    ///     "the L is already on B2,B3,B4,C4: it must move to a different placement"
    /// );
    /// let err = start.check_l_cells(cells("A1,D3")).unwrap_err();
    /// assert_eq!(err, PartialLError::NoPlacement { cells: cells("A1,D3") });
    /// assert_eq!(err.to_string(), "no free L covers A1,D3");
    /// ```
    pub fn check_l_cells(&self, cells: Bitboard) -> Result<(), PartialLError> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove::GameOver { outcome }.into());
        }
        let board = self.board();
        if let Some(cell) = (cells - board.mask()).squares_in_notation_order().first() {
            return Err(IllegalMove::OffBoard { cell: *cell, board }.into());
        }
        for (pieces, piece) in [
            (self.ls[!self.turn], Piece::L(!self.turn)),
            (self.neutrals, Piece::Neutral),
        ] {
            if let Some(cell) = (cells & pieces).squares_in_notation_order().first() {
                return Err(IllegalMove::LOverlaps { cell: *cell, piece }.into());
            }
        }
        if self.l_moves().any(|l| cells.is_subset(l)) {
            return Ok(());
        }
        let own = self.ls[self.turn];
        let fits = |l: &Bitboard| cells.is_subset(*l) && !l.intersects(self.occupied() - own);
        if board.geometry().placements().iter().any(fits) {
            // The one free placement over these cells is the L where it stands.
            return Err(IllegalMove::Unchanged { cells: own }.into());
        }
        Err(PartialLError::NoPlacement { cells })
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays a move after checking it.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason from [`Position::check_move`].
    ///
    /// ```
    /// use lgame::{ByColor, Rules};
    ///
    /// let mv = "A1,A2,A3,B3 D1-D2".parse()?;
    /// let start = Rules::classic().start_position();
    /// let next = start.play(&mv)?;
    /// assert_eq!(next.to_string(), "N.../RRB./R.BN/RBB. b");
    /// assert_eq!(start.to_string(), "NRR./.RB./.RB./.BBN r", "a position is a value");
    ///
    /// // Under scoring, Red's L on the corner A1 scores a point.
    /// let scoring = "scoring".parse::<Rules>()?.start_position();
    /// let next = scoring.play(&mv)?;
    /// assert_eq!(next.scores(), ByColor { red: 1, blue: 0 });
    /// assert_eq!(next.to_string(), "N.../RRB./R.BN/RBB. b 1-0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]). Under scoring, the
    /// mover scores a point for an L on a corner, and a trap gives the other player five
    /// points and puts the pieces back on the starting setup (see [`Position::trap_reset`]).
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        self.play_reporting_reset(mv).0
    }

    /// As [`Position::play_unchecked`], also saying whether the scoring variant's trap reset
    /// happened.
    pub fn play_reporting_reset(&self, mv: &Move) -> (Position, bool) {
        let mover = self.turn;
        let mut next = *self;
        next.ls[mover] = mv.l();
        next.neutrals = (self.neutrals - mv.neutrals_from()) | mv.neutrals_to();
        next.turn = !mover;
        let Some(target) = self.rules.scoring_target() else {
            return (next, false);
        };
        if mv.l().intersects(self.board().corners()) {
            next.scores[mover] = next.scores[mover].saturating_add(1);
        }
        if next.scores[mover] >= target
            || (self.rules.symmetry() && next.ls_mirror_each_other())
            || !next.is_trapped()
        {
            return (next, false);
        }
        next.scores[mover] = next.scores[mover].saturating_add(5);
        if next.scores[mover] >= target {
            return (next, false);
        }
        (next.trap_reset(), true)
    }

    /// The scoring variant's reset after a trap: the pieces go back to the starting setup and
    /// the trapped player (the one to move here) moves first, their L where the setup's first
    /// mover's L stood. Scores are kept.
    pub fn trap_reset(&self) -> Position {
        let start = self.rules.start_position();
        let trapped = self.turn;
        let ls = if trapped == start.turn {
            start.ls
        } else {
            start.ls.swapped()
        };
        Position {
            ls,
            turn: trapped,
            ..start
        }
        .with_scores(self.scores)
    }

    fn with_scores(mut self, scores: ByColor<u8>) -> Position {
        self.scores = scores;
        self
    }

    /// The image of this position under one of the board's symmetries.
    ///
    /// # Panics
    /// If the board does not have `symmetry` (a diagonal on a non-square board).
    ///
    /// ```
    /// use lgame::Rules;
    /// use lgame::board::Symmetry;
    ///
    /// let start = Rules::classic().start_position();
    /// let mirrored = start.transform(Symmetry::MirrorColumns);
    /// assert_eq!(mirrored.to_string(), ".RRN/.BR./.BR./NBB. r");
    /// assert_eq!(mirrored.legal_move_count(), start.legal_move_count());
    /// assert_eq!(start.transform(Symmetry::Rotate180).to_string(), "NBB./.BR./.BR./.RRN r");
    /// ```
    pub fn transform(&self, symmetry: Symmetry) -> Position {
        let g = self.board().geometry();
        Position {
            ls: ByColor {
                red: g.transform(symmetry, self.ls.red),
                blue: g.transform(symmetry, self.ls.blue),
            },
            neutrals: g.transform(symmetry, self.neutrals),
            ..*self
        }
    }

    /// The representative of this position's symmetry class: of its images under the board's
    /// symmetries, the one with the smallest (mover's L, other L, neutrals) masks.
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let start = Rules::classic().start_position();
    /// let canonical = start.canonical();
    /// assert_eq!(canonical.to_string(), "...N/RBBB/RRRB/N... r");
    /// for &symmetry in start.board().geometry().symmetries() {
    ///     assert_eq!(start.transform(symmetry).canonical(), canonical);
    /// }
    /// ```
    pub fn canonical(&self) -> Position {
        let g = self.board().geometry();
        let key = |p: &Position| (p.ls[p.turn], p.ls[!p.turn], p.neutrals);
        (0..g.symmetries().len())
            .map(|i| Position {
                ls: ByColor {
                    red: g.transform_by_index(i, self.ls.red),
                    blue: g.transform_by_index(i, self.ls.blue),
                },
                neutrals: g.transform_by_index(i, self.neutrals),
                ..*self
            })
            .min_by_key(key)
            .expect("every board has the identity")
    }
}

/// Whether `a` is the mirror image of `b` in one of the board's mirror lines.
fn mirrors(board: Board, a: Bitboard, b: Bitboard) -> bool {
    let g = board.geometry();
    g.placement_index(a)
        .is_some_and(|i| g.mirrors_each_other(i, b))
}

impl fmt::Display for Position {
    /// The canonical one-line form: `NRR./.RB./.RB./.BBN r` (scores follow under scoring).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    /// Its one-line form, `NRR./.RB./.RB./.BBN r`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Every position of `rules` with Red to move and scores 0-0: each arrangement of the two Ls
/// and the neutrals once, in a fixed order. The players are interchangeable, so this is the
/// whole game seen from the player to move (18,368 positions in the classic game). Finished
/// positions are included; under scoring, arrangements whose mover is trapped are not
/// positions and are left out.
///
/// ```
/// use std::collections::HashSet;
/// use lgame::Rules;
/// use lgame::position::all_positions;
///
/// let positions = all_positions(&Rules::classic());
/// assert_eq!(positions.len(), 18_368);
/// let finished = positions.iter().filter(|p| p.is_finished()).count();
/// assert_eq!(finished, 120);
/// // Up to the board's symmetries:
/// let classes: HashSet<_> = positions.iter().map(|p| p.canonical()).collect();
/// assert_eq!(classes.len(), 2296);
/// assert_eq!(classes.iter().filter(|p| p.is_finished()).count(), 15);
///
/// // 656 ways to place the two Ls, and 8 free cells for the one neutral:
/// assert_eq!(all_positions(&"neutrals=1".parse()?).len(), 656 * 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn all_positions(rules: &Rules) -> Vec<Position> {
    let board = rules.board();
    let placements = board.geometry().placements();
    let mut out = Vec::new();
    for &red in placements {
        for &blue in placements.iter().filter(|&&b| !b.intersects(red)) {
            let free: Vec<Square> = (board.mask() - (red | blue)).into_iter().collect();
            for_each_subset(&free, rules.neutrals() as usize, &mut |neutrals| {
                let setup = Setup {
                    board,
                    ls: ByColor { red, blue },
                    neutrals,
                    turn: Color::Red,
                    scores: None,
                };
                if let Ok(p) = Position::from_setup(setup, rules) {
                    out.push(p);
                }
            });
        }
    }
    out
}
