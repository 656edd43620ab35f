//! The strong solution of the L game: the value and distance to the end of every position
//! of every variant, by retrograde analysis, and a tablebase to probe it.
//!
//! ```
//! use lgame::{Position, Rules};
//! use lgame_solver::{Tablebase, Value};
//!
//! let rules = Rules::classic();
//! let tb = Tablebase::solve(&rules);
//! // Red to move is trapped: lost at once.
//! let trapped = Position::from_text("RRN./RB../RBBB/N... r", &rules)?;
//! assert_eq!(tb.value(&trapped)?, Value::Loss(0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod accuracy;
mod combinations;
pub mod file;
mod index;
pub mod large;
mod scores;
mod solve;
mod stats;
mod tablebase;
mod value;

pub use accuracy::{accuracy, Accuracy, SideAccuracy};
pub use index::StateIndex;
pub use solve::{estimate, human_bytes, Estimate, Method, Progress, SolveError, SolveOptions};
pub use stats::{grouped, Example, PliesCount, Statistics};
pub use tablebase::{AnalysedMove, Analysis, MoveValue, ProbeError, Tablebase, ValueClasses};
pub use value::{Value, Wdl};
