//! Hints: the solved game's value of the position and of every move, shown beside the board
//! on request and kept up to date as the game goes on.

use lgame_solver::Analysis;

use super::app::App;

impl App {
    /// Whether the hints panel is shown.
    pub fn hints_shown(&self) -> bool {
        self.hints_shown
    }

    /// The current position's analysis, when the hints panel is shown and the game goes on.
    pub fn hints(&self) -> Option<&Analysis> {
        self.hints.as_ref().and_then(|(_, a)| a.as_ref())
    }

    /// `H`: shows or hides the hints.
    pub(super) fn toggle_hints(&mut self) {
        self.hints_shown = !self.hints_shown;
        if self.hints_shown {
            self.info("Hints: the solved game's value of every move (H hides them).");
        } else {
            self.info("Hints hidden.");
        }
    }

    /// Keeps derived state up to date: the hints for the current position.
    pub(super) fn sync(&mut self) {
        if !self.hints_shown || self.game().is_over() {
            self.hints = None;
            return;
        }
        let key = self.position().to_string();
        if self.hints.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        self.hints = Some((key, self.table.hints()));
    }
}
