//! The built-in levels.
//!
//! - `random`: any legal move, uniformly.
//! - `beginner`: a move that wins at once if there is one; otherwise one after which the
//!   opponent has no reply that ends the game with our loss (a trap, a mirror, the score
//!   target…); if every move allows such a reply, any move.
//! - `intermediate`: a 3-ply alpha-beta search with a mobility evaluation (see
//!   [`crate::search`]).
//! - `perfect`: from the tablebase (see [`crate::perfect`]).
//!
//! With strength S > 0, a level plays the perfect player's choice with a chance of S per
//! cent, and its own choice otherwise; with strength 0 it never looks at a tablebase.
//! Every choice among equals is made with the player's seeded random numbers, so the same
//! spec, seed and game give the same moves.

use std::sync::Arc;

use lgame::{Game, Move, Position, Rules};

use crate::search::Search;
use crate::{Level, Player, PlayerSpec, Rng, Tablebases};

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

    /// The player's spec.
    pub fn spec(&self) -> PlayerSpec {
        self.spec
    }

    fn perfect(&mut self, game: &Game) -> Option<Move> {
        let (tb, memo) = self.tablebases.get_with_memo(game.rules());
        memo.perfect_move(&tb, game.position(), &mut self.rng)
    }
}

impl Player for BuiltIn {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    /// Solves the variant's table now when this player will probe it (level perfect, or a
    /// strength above 0); other players need nothing.
    fn prepare(&mut self, rules: &Rules) {
        if self.spec.level == Level::Perfect || self.spec.strength > 0 {
            self.tablebases.get(rules);
        }
    }

    fn choose_move(&mut self, game: &Game) -> Option<Move> {
        if game.conclusion().is_some() {
            return None;
        }
        let position = game.position();
        let level = self.spec.level;
        let strength = self.spec.strength;
        if level == Level::Perfect || (strength > 0 && self.rng.chance(strength)) {
            if let Some(mv) = self.perfect(game) {
                return Some(mv);
            }
        }
        match level {
            Level::Random | Level::Perfect => random_move(position, &mut self.rng),
            Level::Beginner => beginner_move(position, &mut self.rng),
            Level::Intermediate => intermediate_move(position, &mut self.rng),
        }
    }
}

/// Any legal move, uniformly.
pub(crate) fn random_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    rng.pick(&position.legal_moves()).copied()
}

/// Whether the game is over after `mv` with the player making it as the winner.
pub(crate) fn wins_at_once(position: &Position, mv: &Move) -> bool {
    let mover = position.turn();
    position
        .play_unchecked(mv)
        .outcome()
        .is_some_and(|o| o.winner == mover)
}

/// Whether, after `mv`, the game is over with the mover as the loser, or the opponent has a
/// reply that ends it so.
pub(crate) fn allows_immediate_loss(position: &Position, mv: &Move) -> bool {
    let mover = position.turn();
    let after = position.play_unchecked(mv);
    if let Some(outcome) = after.outcome() {
        return outcome.winner != mover;
    }
    after
        .legal_moves()
        .iter()
        .any(|reply| wins_at_once(&after, reply))
}

/// The beginner's move: an immediate win if there is one, else a move that gives the
/// opponent no immediate win, else any move.
pub(crate) fn beginner_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = position.legal_moves();
    let wins: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| wins_at_once(position, mv))
        .collect();
    if !wins.is_empty() {
        return rng.pick(&wins).copied();
    }
    let safe: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| !allows_immediate_loss(position, mv))
        .collect();
    if !safe.is_empty() {
        return rng.pick(&safe).copied();
    }
    rng.pick(&moves).copied()
}

/// The intermediate player's move: one of the moves a 3-ply search finds best.
pub(crate) fn intermediate_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    let (best, _) = Search::new(position).best_moves(position);
    rng.pick(&best).copied()
}

impl Level {
    /// Whether a computer of this level accepts a draw offered in the game's position:
    /// `perfect` exactly when the table says the position is drawn; the other levels, which
    /// look at most a move ahead, when the player to move has no move that wins at once.
    /// (The server asks it when a person offers the computer a draw.)
    pub fn accepts_draw(self, game: &Game, tables: &Tablebases) -> bool {
        let position = game.position();
        match self {
            Level::Perfect => tables
                .get(game.rules())
                .wdl(position)
                .is_ok_and(|wdl| wdl == lgame_solver::Wdl::Draw),
            _ => !position
                .legal_moves()
                .iter()
                .any(|mv| wins_at_once(position, mv)),
        }
    }
}
