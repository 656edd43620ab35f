//! The rules of Edward de Bono's L game, exactly: board geometry, L placements, positions,
//! moves, every variant, symmetry, notation and game records.
//!
//! The classic game is played on a 4×4 board. Each player has an L-shaped piece; two neutral
//! squares are shared. A turn moves your L to a new placement and then, optionally, one
//! neutral. A player who cannot move their L loses.
//!
//! ```
//! use lgame::{Game, Move, Rules};
//!
//! let rules = Rules::classic();
//! let start = rules.start_position();
//! // The standard setup, Red to move:
//! //   4  N R R .
//! //   3  . R B .
//! //   2  . R B .
//! //   1  . B B N
//! //      A B C D
//! assert_eq!(start.to_string(), "NRR./.RB./.RB./.BBN r");
//! assert_eq!(start.legal_moves().len(), 65);
//!
//! let mut game = Game::new(rules);
//! let blocked: Move = "A1,A2,A3,B1".parse()?;
//! let err = game.play(&blocked).unwrap_err();
//! assert_eq!(err.to_string(), "the L cannot go on B1: it is occupied by Blue's L");
//! game.play(&"A1,A2,A3,B3 D1-D2".parse()?)?;
//! assert_eq!(game.position().to_string(), "N.../RRB./R.BN/RBB. b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layers: [`Board`] and its [`Geometry`] (placements, symmetries) → [`Rules`] → [`Setup`]
//! (unchecked) and [`Position`] (checked, with move generation) → [`Game`] → [`Record`].
#![deny(missing_docs)]

mod board;
pub mod builder;
mod color;
mod diagram;
mod game;
mod moves;
mod position;
pub mod raw;
mod record;
mod referee;
mod rules;
mod square;
mod svg;
pub mod variants;

pub use board::{Board, BoardError, Geometry, PlacementSet, Symmetry, MAX_SIDE, MIN_SIDE};
pub use color::{ByColor, Color};
pub use diagram::diagram;
pub use game::{
    Conclusion, DrawRules, Ending, Game, GameError, GameResult, Ply, ResultToken, Termination,
};
pub use moves::{IllegalMove, Move, ParseMoveError};
pub use position::{
    all_positions, End, Outcome, ParseSetupError, PartialLError, Piece, Position, PositionError,
    Setup, SetupError,
};
pub use record::{ParseRecordError, Record, RecordError, RecordMove};
pub use referee::{judge, judge_bytes, JudgeError, Judgement, UnreadableRecord};
pub use rules::{
    NeutralMoves, RuleOptions, Rules, RulesError, StartSetup, DEFAULT_TARGET, MAX_NEUTRALS,
    MAX_TARGET,
};
pub use square::{Bitboard, ParseSquareError, Square, Squares};
pub use svg::svg;
