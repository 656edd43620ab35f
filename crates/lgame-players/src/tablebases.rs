//! Solved tables shared between players: each variant is solved once, on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lgame::rules::StartSetup;
use lgame::Rules;
use lgame_solver::Tablebase;

/// A cache of solved tables, one per variant, shared by the players that need them.
#[derive(Debug, Default)]
pub struct Tablebases {
    solved: Mutex<HashMap<Rules, Arc<Tablebase>>>,
}

impl Tablebases {
    /// The table for `rules`, solved now if it is not yet. Without scoring, every starting
    /// setup of a variant shares one table.
    pub fn get(&self, rules: &Rules) -> Arc<Tablebase> {
        let key = if rules.scoring_target().is_some() {
            *rules
        } else {
            rules.with_setup(StartSetup::Standard).unwrap_or(*rules)
        };
        let mut solved = self.solved.lock().unwrap_or_else(|e| e.into_inner());
        solved
            .entry(key)
            .or_insert_with(|| Arc::new(Tablebase::solve(&key)))
            .clone()
    }

    /// How many tables the cache holds (solved or inserted).
    pub fn len(&self) -> usize {
        self.solved.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no table has been solved or inserted yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Puts an already solved table in the cache (one read from a file, say).
    pub fn insert(&self, tb: Tablebase) {
        let mut solved = self.solved.lock().unwrap_or_else(|e| e.into_inner());
        solved.insert(*tb.rules(), Arc::new(tb));
    }
}
