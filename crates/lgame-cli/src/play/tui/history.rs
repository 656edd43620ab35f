//! The game's history from the screen: undo and redo (to the person's last turn), and a new
//! game with the same players and rules.

use lgame::{Color, Game};
use lgame_players::seated::SeatedGame;

use super::app::App;

impl App {
    /// `u`: takes back moves to the person's previous turn (one move with no person).
    pub(super) fn undo(&mut self) {
        let was_over = self.game().is_over();
        let n = self.table.seated.undo();
        if n == 0 {
            if was_over && !self.game().is_over() {
                self.reset_step();
                self.info("The game goes on.");
            } else {
                self.error("Nothing to undo.");
            }
            return;
        }
        self.reset_step();
        let mut text = format!("Took back {n} move{}.", if n == 1 { "" } else { "s" });
        if self.no_person() {
            self.paused = true;
            text.push_str(" Paused: p resumes.");
        }
        self.info(text);
    }

    /// `U` or Ctrl-r: replays what undo took back.
    pub(super) fn redo(&mut self) {
        let n = self.table.seated.redo();
        if n == 0 {
            self.error("Nothing to redo.");
            return;
        }
        self.reset_step();
        let text = format!("Replayed {n} move{}.", if n == 1 { "" } else { "s" });
        self.after_move(text);
    }

    /// `N`: a new game with the same players, rules and draw rules.
    pub(super) fn new_game(&mut self) {
        let game = self.game();
        let fresh = Game::new(*game.rules()).with_draw_rules(game.draw_rules());
        let seats = Color::ALL.map(|c| self.table.seated.seat(c).clone());
        self.games += 1;
        self.table.seated = SeatedGame::new(
            fresh,
            seats,
            self.seed.wrapping_add(2 * self.games),
            self.table.tablebases.clone(),
        );
        self.reset_step();
        self.paused = false;
        self.hints = None;
        self.info("New game.");
    }
}
