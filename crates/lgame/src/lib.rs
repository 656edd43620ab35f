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
//! Layers: [`Board`] and its [`Geometry`](board::Geometry) (placements, symmetries) →
//! [`Rules`] → [`Setup`] (unchecked, read from [`notation`]) and [`Position`] (checked, with
//! move generation) → [`Game`] → [`Record`] → the [`referee`].
//!
//! The root holds the types a program uses every day; each module holds the rest of its
//! part of the game, with its errors:
//!
//! | module | what it holds |
//! |---|---|
//! | [`board`] | boards, their L placements and symmetries |
//! | [`rules`] | the variants' rules and the standard setups |
//! | [`position`] | positions, how they end, every position of a variant |
//! | [`moves`] | moves and why one is illegal |
//! | [`builder`] | a move built cell by cell, as a person places it |
//! | [`game`] | games: history, undo, draws by repetition and turn limit, results |
//! | [`notation`] | the text forms of positions and moves |
//! | [`record`] | game records: reading, writing, replaying |
//! | [`referee`] | judging a record from untrusted bytes |
//! | [`diagram`] | the board drawn as text or as an SVG picture |
//! | [`variants`] | the named variants |
//! | [`raw`] | positions as bit masks, for solvers |
#![deny(missing_docs)]

pub mod board;
pub mod builder;
mod color;
pub mod diagram;
pub mod game;
pub mod moves;
pub mod notation;
pub mod position;
pub mod raw;
pub mod record;
pub mod referee;
pub mod rules;
mod square;
pub mod variants;

pub use board::Board;
pub use color::{ByColor, Color};
pub use game::Game;
pub use moves::Move;
pub use position::{Position, Setup};
pub use record::Record;
pub use rules::Rules;
pub use square::{Bitboard, Square};
