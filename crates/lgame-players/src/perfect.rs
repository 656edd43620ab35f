//! The `perfect` level: moves from the tablebase.
//!
//! - In a won position: a move that wins as quickly as possible.
//! - In a lost position: a move that loses as slowly as possible.
//! - In a drawn position: a trap-setter, not a passive drawer — among the drawing moves, one
//!   after which the opponent has the most losing replies (replies whose value, for the
//!   opponent, is a loss).
//!
//! Ties are broken by the player's random numbers.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::sync::Mutex;

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
#[cfg(test)]
pub(crate) fn perfect_move(tb: &Tablebase, position: &Position, rng: &mut Rng) -> Option<Move> {
    let candidates = perfect_candidates(tb, position);
    rng.pick(&candidates).map(|m| m.mv)
}

/// The most slots a [`PerfectMemo`] has (fewer for a table with fewer positions).
const MEMO_SLOTS: usize = 8192;

/// The perfect player's candidates of recently met positions, for one table: they are a pure
/// function of the table and the position, and counting the traps of a drawn position's
/// drawing moves (thousands of index lookups) was most of a server's time per computer
/// move. Bounded: a fixed number of slots, each holding the last position hashed to it.
pub(crate) struct PerfectMemo {
    slots: Box<[Mutex<Option<Remembered>>]>,
}

/// A position and the perfect player's candidates in it.
type Remembered = (Position, Box<[Move]>);

impl std::fmt::Debug for PerfectMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerfectMemo")
            .field("slots", &self.slots.len())
            .finish()
    }
}

impl PerfectMemo {
    /// An empty memo for `tb`'s positions.
    pub(crate) fn new(tb: &Tablebase) -> PerfectMemo {
        let len = usize::try_from(tb.index().len()).unwrap_or(MEMO_SLOTS);
        let slots = len.clamp(1, MEMO_SLOTS);
        PerfectMemo {
            slots: (0..slots).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// [`perfect_move`] with `tb` (the table this memo was made for): the same candidates,
    /// in the same order, so the same `rng` picks the same move.
    pub(crate) fn perfect_move(
        &self,
        tb: &Tablebase,
        position: &Position,
        rng: &mut Rng,
    ) -> Option<Move> {
        let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one(position);
        let slot = &self.slots[(hash % self.slots.len() as u64) as usize];
        if let Some((held, moves)) = &*slot.lock().unwrap_or_else(|e| e.into_inner()) {
            if held == position {
                return rng.pick(moves).copied();
            }
        }
        let moves: Box<[Move]> = perfect_candidates(tb, position)
            .into_iter()
            .map(|m| m.mv)
            .collect();
        let chosen = rng.pick(&moves).copied();
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((*position, moves));
        chosen
    }
}

#[cfg(test)]
mod tests {
    use lgame::Rules;

    use super::*;

    /// A memo of `slots` slots (to share slots among many positions).
    fn memo_of(slots: usize) -> PerfectMemo {
        PerfectMemo {
            slots: (0..slots).map(|_| Mutex::new(None)).collect(),
        }
    }

    #[test]
    fn the_memo_chooses_as_the_player_without_it_on_a_miss_and_on_a_hit() {
        let scoring: Rules = "neutrals=1,scoring,target=3".parse().unwrap();
        for rules in [Rules::classic(), scoring] {
            let tb = Tablebase::solve(&rules);
            let memos = [PerfectMemo::new(&tb), memo_of(3)];
            let mut walk = Rng::new(7);
            let mut position = rules.start_position();
            for step in 0..300u64 {
                for memo in &memos {
                    // The first call may miss, the second hits (the slot was just filled).
                    for seed in [step, step + 1] {
                        let plain = perfect_move(&tb, &position, &mut Rng::new(seed));
                        let memoized = memo.perfect_move(&tb, &position, &mut Rng::new(seed));
                        assert_eq!(memoized, plain, "{position} seed {seed}");
                    }
                }
                let moves = position.legal_moves();
                match walk.pick(&moves) {
                    Some(mv) if position.outcome().is_none() => {
                        position = position.play_unchecked(mv)
                    }
                    _ => position = rules.start_position(),
                }
            }
        }
    }
}
