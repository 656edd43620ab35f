//! A game's accuracy against the solved game: for each side, how many of its moves kept the
//! value of the position they were played in, and how much slower than the fastest win its
//! winning moves were.
//!
//! The one definition of the project (the Python oracle, `lgame.agent_accuracy`, scores an
//! agent's moves the same way): a move *keeps the value* when the position after it (the
//! game's position, after a scoring variant's reset) is still what the position before it
//! was for the player who moved: a won position stays won, however slowly; a drawn one is not
//! lost. In a lost position every move keeps the value, so those moves are counted
//! (`lost_moves`) but not scored. The accuracy is `kept / scored`, none when no move was
//! scored.
//!
//! The *extra plies* are the sum, over the side's moves that kept a win, of the distance to
//! the end after the move (counted from the position before it) minus the distance the
//! fastest winning move leaves: 0 when every winning move took the quickest way.
//!
//! ```
//! use lgame::{Game, Rules};
//! use lgame_solver::{accuracy, Tablebase};
//!
//! let rules = Rules::classic();
//! let tb = Tablebase::solve(&rules);
//! let mut game = Game::new(rules);
//! game.play(&"A1,A2,A3,B3".parse()?)?; // from the drawn start: Blue now wins
//! let report = accuracy(&tb, &game)?;
//! assert_eq!((report.red.scored(), report.red.kept()), (1, 0));
//! assert_eq!(report.red.accuracy(), Some(0.0));
//! assert_eq!(report.blue.accuracy(), None, "Blue has not moved");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use lgame::{Color, Game};

use crate::tablebase::{ProbeError, Tablebase};
use crate::value::{Value, Wdl};

/// One side's moves scored against the solved game (see the module's definition).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct SideAccuracy {
    /// Moves played in won positions.
    pub won_moves: u32,
    /// Of those, the moves that kept the win.
    pub won_kept: u32,
    /// Moves played in drawn positions.
    pub drawn_moves: u32,
    /// Of those, the moves that kept the draw (or won).
    pub drawn_kept: u32,
    /// Moves played in lost positions: not scored, any move keeps a loss.
    pub lost_moves: u32,
    /// Over the moves that kept a win: the plies they added to the fastest win.
    pub extra_plies: u32,
}

impl SideAccuracy {
    /// Every move the side made.
    pub fn moves(&self) -> u32 {
        self.won_moves + self.drawn_moves + self.lost_moves
    }

    /// The moves scored: those in won or drawn positions.
    pub fn scored(&self) -> u32 {
        self.won_moves + self.drawn_moves
    }

    /// The scored moves that kept the value.
    pub fn kept(&self) -> u32 {
        self.won_kept + self.drawn_kept
    }

    /// `kept / scored` (1.0 for perfect play), `None` when no move was scored.
    pub fn accuracy(&self) -> Option<f64> {
        (self.scored() > 0).then(|| self.kept() as f64 / self.scored() as f64)
    }

    /// Scores one move: the value of the position it was played in, and of the position it
    /// led to (both for their player to move).
    fn score(&mut self, before: Value, after: Value) {
        let for_mover = after.before_move();
        match before {
            Value::Win(best) => {
                self.won_moves += 1;
                if let Value::Win(plies) = for_mover {
                    self.won_kept += 1;
                    self.extra_plies += u32::from(plies.saturating_sub(best));
                }
            }
            Value::Draw => {
                self.drawn_moves += 1;
                self.drawn_kept += u32::from(for_mover.wdl() != Wdl::Loss);
            }
            Value::Loss(_) => self.lost_moves += 1,
        }
    }
}

/// Both sides' accuracy in one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Accuracy {
    /// Red's moves.
    pub red: SideAccuracy,
    /// Blue's moves.
    pub blue: SideAccuracy,
}

impl Accuracy {
    /// The side's accuracy.
    pub fn side(&self, color: Color) -> &SideAccuracy {
        match color {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }
}

/// Scores every move of `game` against `table` (see the module's definition).
///
/// # Errors
/// [`ProbeError::RulesMismatch`] when the table is not one of the game's rules.
pub fn accuracy(table: &Tablebase, game: &Game) -> Result<Accuracy, ProbeError> {
    let mut report = Accuracy::default();
    let mut before = *game.start();
    let mut value = table.value(&before)?;
    for ply in game.plies() {
        let after = table.value(&ply.position)?;
        let side = match before.turn() {
            Color::Red => &mut report.red,
            Color::Blue => &mut report.blue,
        };
        side.score(value, after);
        before = ply.position;
        value = after;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lgame::{Position, Rules};

    #[test]
    fn a_slow_win_keeps_the_value_and_counts_its_extra_plies() {
        let mut side = SideAccuracy::default();
        // Won in 3; the move leaves the opponent lost in 4: a win in 5, 2 plies slower.
        side.score(Value::Win(3), Value::Loss(4));
        side.score(Value::Win(3), Value::Draw);
        side.score(Value::Draw, Value::Win(2));
        side.score(Value::Draw, Value::Draw);
        side.score(Value::Loss(2), Value::Win(1));
        assert_eq!(
            side,
            SideAccuracy {
                won_moves: 2,
                won_kept: 1,
                drawn_moves: 2,
                drawn_kept: 1,
                lost_moves: 1,
                extra_plies: 2,
            }
        );
        assert_eq!((side.moves(), side.scored(), side.kept()), (5, 4, 2));
        assert_eq!(side.accuracy(), Some(0.5));
    }

    #[test]
    fn the_best_line_from_a_won_position_is_perfect_for_both() {
        let rules = Rules::classic();
        let tb = Tablebase::solve(&rules);
        let won = Position::from_text("..../N.BB/R.NB/RRRB r", &rules).unwrap();
        let mut game = Game::from_position(won).unwrap();
        for mv in tb.principal_variation(&won).unwrap() {
            game.play(&mv).unwrap();
        }
        let report = accuracy(&tb, &game).unwrap();
        assert!(game.is_over());
        assert_eq!((report.red.won_moves, report.red.won_kept), (5, 5));
        assert_eq!(report.red.extra_plies, 0);
        assert_eq!((report.blue.lost_moves, report.blue.scored()), (4, 0));
    }
}
