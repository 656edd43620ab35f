//! The `perfect` level: moves from the tablebase.
//!
//! - In a won position: a move that wins as quickly as possible.
//! - In a lost position: a move that loses as slowly as possible.
//! - In a drawn position: a trap-setter, not a passive drawer — among the drawing moves, one
//!   after which the opponent has the most losing replies (replies whose value, for the
//!   opponent, is a loss).
//!
//! Ties are broken by the player's random numbers.

use lgame::{Move, Position};
use lgame_solver::{MoveValue, Tablebase, Value};

use crate::Rng;

/// How many of the opponent's replies lose, in the position after our move (the
/// opponent to move there): replies after which we, to move, win. The rules are checked
/// once and each reply is then read from the index, not through [`Tablebase::moves`] (which
/// values and sorts every reply) nor [`Tablebase::value`] (which checks the rules each
/// time): this runs for every drawing move of every drawn position the player meets, and
/// was most of the server's time per move.
pub(crate) fn losing_replies(tb: &Tablebase, after: &Position) -> usize {
    if tb.value(after).is_err() {
        return 0;
    }
    let index = tb.index();
    let wins = |i: u64| matches!(tb.value_at(i), Some(Value::Win(_)));
    after
        .legal_moves()
        .iter()
        // A position the index lacks is over by the scores: a loss for us, to move.
        .filter(|r| index.index_of(&after.play_unchecked(r)).is_some_and(wins))
        .count()
}

/// The moves the perfect player chooses among in `position`, each as good as the others,
/// in the order of [`Tablebase::moves`]; empty when the game is over or the table does not
/// answer the position.
pub(crate) fn perfect_candidates(tb: &Tablebase, position: &Position) -> Vec<MoveValue> {
    let Ok(moves) = tb.moves(position) else {
        return Vec::new();
    };
    let Some(best) = moves.first().map(|m| m.value) else {
        return Vec::new();
    };
    let keeping: Vec<MoveValue> = moves.into_iter().filter(|m| m.value == best).collect();
    if best != Value::Draw {
        return keeping;
    }
    let counted: Vec<(usize, MoveValue)> = keeping
        .into_iter()
        .map(|m| (losing_replies(tb, &m.position), m))
        .collect();
    let most = counted.iter().map(|c| c.0).max().unwrap_or(0);
    counted
        .into_iter()
        .filter(|c| c.0 == most)
        .map(|c| c.1)
        .collect()
}

/// The perfect player's move in `position`, ties broken by `rng`; `None` when there is no
/// move (or the table does not answer the position).
pub(crate) fn perfect_move(tb: &Tablebase, position: &Position, rng: &mut Rng) -> Option<Move> {
    let candidates = perfect_candidates(tb, position);
    rng.pick(&candidates).map(|m| m.mv)
}
