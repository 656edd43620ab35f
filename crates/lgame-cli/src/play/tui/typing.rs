//! A move typed in notation (`:` or `m`), checked by the rules when it is played.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use lgame::Move;

use super::app::App;

impl App {
    /// `:` or `m`: opens the text input.
    pub(super) fn open_input(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        self.ghost = None;
        self.input = Some(String::new());
        self.info("Type a move like A2,A3,A4,B4 B2-A1, then Enter (Esc cancels).");
    }

    /// A key while the text input is open.
    pub(super) fn input_key(&mut self, key: KeyEvent) {
        let Some(text) = self.input.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc => {
                self.input = None;
                self.info("No move typed.");
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char(c)
                if !key.modifiers.contains(KeyModifiers::CONTROL) && text.chars().count() < 60 =>
            {
                text.push(c);
            }
            KeyCode::Enter => {
                let line = text.trim().to_string();
                if line.is_empty() {
                    self.input = None;
                    self.info("No move typed.");
                    return;
                }
                if let Some(why) = self.not_your_turn() {
                    self.input = None;
                    self.error(why);
                    return;
                }
                match line.parse::<Move>() {
                    Err(e) => self.error(format!("Not a move: {e}.")),
                    Ok(mv) => self.play(mv),
                }
            }
            _ => {}
        }
    }
}
