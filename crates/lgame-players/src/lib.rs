//! Computer opponents for the L game: `random`, `beginner`, `intermediate` and `perfect`,
//! each with a strength from 0 to 100 (the chance of playing the perfect move instead of the
//! level's own choice), reproducible from a seed, in every variant.
//!
//! ```
//! use std::sync::Arc;
//! use lgame::{Game, Rules};
//! use lgame_players::{BuiltIn, Player, PlayerSpec, Tablebases};
//!
//! let tablebases = Arc::new(Tablebases::default());
//! let mut perfect = BuiltIn::new("perfect".parse()?, 7, tablebases);
//! let game = Game::new(Rules::classic());
//! let mv = perfect.choose_move(&game).expect("the start has moves");
//! assert!(game.position().is_legal(&mv));
//! # Ok::<(), lgame_players::ParseSpecError>(())
//! ```
#![deny(missing_docs)]

pub mod engine;
pub mod external;
mod levels;
pub mod matches;
mod perfect;
pub mod protocol;
mod rng;
mod search;
pub mod seated;
mod spec;
mod tablebases;

pub use levels::BuiltIn;
pub use rng::Rng;
pub use spec::{Level, ParseSpecError, PlayerName, PlayerSpec};
pub use tablebases::{TableStats, Tablebases};

use lgame::{Game, Move, Rules};

/// Anything that plays the L game: given a game whose position is not over, a legal move.
pub trait Player {
    /// A name for records and tables, e.g. `perfect` or `beginner:40`.
    fn name(&self) -> String;

    /// A legal move in the game's current position, or `None` when there is none (the game
    /// is over).
    fn choose_move(&mut self, game: &Game) -> Option<Move>;

    /// Gets ready to play under `rules` (a perfect player solves its table here), so that
    /// moves come quickly afterwards. Doing nothing is fine.
    fn prepare(&mut self, rules: &Rules) {
        let _ = rules;
    }
}
