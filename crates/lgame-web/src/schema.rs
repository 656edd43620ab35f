//! The rules library's and the solver's values, as they serialize: types that stand for them
//! in the OpenAPI document's schemas only (`openapi.rs`), since their crates know no
//! OpenAPI. Below the HTTP layer, so that a feature's own types derive their schemas too.

// The types below describe; nothing builds them.
#![allow(dead_code)]

use serde::Serialize;
use utoipa::ToSchema;

/// A position in its one-line form (notation.md): the rows from the top, `R`, `B`, `N` and
/// `.`, separated by `/`, then the side to move (`r` or `b`), e.g.
/// `NRR./.RB./.RB./.BBN r`.
#[derive(Serialize, ToSchema)]
pub struct Position(String);

/// A move in notation (notation.md): the L's four cells, then each neutral step, e.g.
/// `A1,A2,A3,B3 D1-D2`.
#[derive(Serialize, ToSchema)]
pub struct Move(String);

/// A cell's name: its column letter and row number, e.g. `B3`.
#[derive(Serialize, ToSchema)]
pub struct Square(String);

/// Cells by name, separated by commas in notation order, e.g. `A1,A2,A3,B3`.
#[derive(Serialize, ToSchema)]
pub struct Cells(String);

/// A board's size, e.g. `4x4`.
#[derive(Serialize, ToSchema)]
pub struct Board(String);

/// A rules text (notation.md, "Rules"), e.g. `classic`, `sudden-death`, `setup=kit`.
#[derive(Serialize, ToSchema)]
pub struct Rules(String);

/// A side.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The first player.
    Red,
    /// The second player.
    Blue,
}

/// What stands on a cell: a side's L or a neutral.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    /// Red's L.
    Red,
    /// Blue's L.
    Blue,
    /// A neutral piece.
    Neutral,
}

/// A value for the player to move.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ValueName {
    /// Won with best play.
    Win,
    /// Drawn with best play.
    Draw,
    /// Lost with best play.
    Loss,
}

/// The seats: `human`, or the computer player (`perfect`, `beginner:40`, ...).
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    /// Red's seat.
    red: String,
    /// Blue's seat.
    blue: String,
}

/// A time control: real time (a base and a Fischer increment), or days a move.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum TimeControl {
    RealTime(RealTimeControl),
    Correspondence(CorrespondenceControl),
}

/// Real time: each side's time at the start, and what each move adds.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RealTimeControl {
    /// Seconds each side starts with: 15 to 10800 (180 min).
    #[schema(minimum = 15, maximum = 10800)]
    initial_s: u32,
    /// Seconds added after each move: 0 to 180.
    #[schema(minimum = 0, maximum = 180)]
    increment_s: u32,
}

/// Correspondence: days a move.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CorrespondenceControl {
    /// Days for each move: 1 to 14.
    #[schema(minimum = 1, maximum = 14)]
    days: u32,
}

/// A game's clocks as of an answer or a message.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Real time: seconds each side started with.
    #[schema(required = false)]
    initial_s: u32,
    /// Real time: seconds added after each move.
    #[schema(required = false)]
    increment_s: u32,
    /// Correspondence: days a move.
    #[schema(required = false)]
    days: u32,
    /// `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical` (by `initial_s + 40 ×
    /// increment_s`) or `correspondence`.
    #[schema(pattern = "^(ultrabullet|bullet|blitz|rapid|classical|correspondence)$")]
    speed: String,
    /// Red's time left, in milliseconds.
    red_ms: i64,
    /// Blue's time left.
    blue_ms: i64,
    /// Whose time runs: `null` before both first moves and after the end.
    #[schema(required)]
    running: Option<Color>,
    /// Before both first moves: the side to move's time left to make its first move before
    /// the game is aborted.
    #[schema(required)]
    first_move_ms: Option<i64>,
}

/// What a claim asks for: `win` or `draw`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum Claim {
    Win,
    Draw,
}

/// Whether each side has a page open now.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Presence {
    /// Red's.
    red: bool,
    /// Blue's.
    blue: bool,
}

/// Each side's score, under scoring rules.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Scores {
    /// Red's score.
    red: u8,
    /// Blue's score.
    blue: u8,
}

/// A game's draw rules.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRules {
    /// Drawn once this many plies are played (`0`: no turn limit).
    #[schema(required)]
    turn_limit: Option<u32>,
    /// Drawn at this repetition of a position (`0` or `1`: no repetition draw).
    #[schema(required)]
    repetition: Option<u32>,
}

/// Why the rules refuse a move, as data: its `kind` and the fields its words name
/// (docs/api.md, "Reasons as data").
#[derive(Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
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
        cells: Cells,
    },
    /// The L would stay where it is.
    Unchanged {
        /// Its cells.
        cells: Cells,
    },
    /// The new L covers an occupied cell.
    #[serde(rename = "occupied")]
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
    #[serde(rename = "neutral_required")]
    NeutralMoveRequired,
    /// A neutral move from a cell without a neutral.
    NoNeutral {
        /// The cell.
        cell: Square,
        /// What stands there instead (`null`: nothing).
        #[schema(required)]
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

/// Why cells chosen for an L cannot become a legal placement: no free L covers them, or
/// the rules' reason as for a move.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum PartialLError {
    /// No L on the board, free or not, covers all the cells.
    NoPlacement(NoPlacement),
    /// A rule forbids it, as it would forbid the whole move.
    Illegal(IllegalMove),
}

/// No L covers the cells.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoPlacement {
    /// `no_placement`.
    kind: NoPlacementKind,
    /// The cells.
    cells: Cells,
}

/// The kind of [`NoPlacement`].
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoPlacementKind {
    /// The only value.
    NoPlacement,
}

/// The solver's analysis of a position (the JSON of `lgame analyze --json`): its value and
/// every legal move's, best first.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Analysis {
    /// The position (canonical text).
    position: Position,
    /// The rules (canonical text).
    variant: Rules,
    /// For the player to move.
    value: ValueName,
    /// Plies to the end under best play, `null` for a draw.
    #[schema(required)]
    plies: Option<u16>,
    /// How many legal moves there are.
    legal_moves: usize,
    /// Every legal move, best first.
    moves: Vec<AnalysedMove>,
}

/// One move of an [`Analysis`].
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysedMove {
    /// The move.
    #[serde(rename = "move")]
    mv: Move,
    /// The position it leads to.
    position: Position,
    /// Its value for the mover.
    value: ValueName,
    /// Plies to the end counted from the analysed position, `null` for a draw.
    #[schema(required)]
    plies: Option<u16>,
}
