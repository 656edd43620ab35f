//! The game screen's state, driven by keys, mouse clicks and the passing of time. Nothing
//! here touches the terminal, so the tests drive it directly; and nothing here knows a rule:
//! which L placements and neutral moves are legal, and why not, comes from the rules crate's
//! move builder (`lgame::builder`), values from the solver.
//!
//! [`App`] holds the state and dispatches events; its parts live beside it: building a move
//! on the board ([`super::building`]), typing one ([`super::typing`]), the ghost L
//! ([`super::ghost`]), hints ([`super::hints`]), undo, redo and new games
//! ([`super::history`]), the computers' turns ([`super::computers`]) and what the screen
//! shows ([`super::view`]).

use std::time::Duration;

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use lgame::{Game, Position, Square};
use lgame_solver::Analysis;

pub use super::building::Step;
use super::computers::WATCH_DELAY;
use super::ghost::Ghost;
use super::view::BoardLayout;
use crate::play::Table;

/// The kind of feedback on the message line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Plain information.
    Info,
    /// Something done: a move played, a game saved.
    Done,
    /// Something refused, with the reason.
    Error,
}

/// The message line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// How to show it.
    pub tone: Tone,
}

/// The whole screen's state around a [`Table`].
pub struct App {
    pub(super) table: Table,
    pub(super) cursor: Square,
    pub(super) step: Step,
    pub(super) input: Option<String>,
    pub(super) ghost: Option<Ghost>,
    pub(super) help: bool,
    pub(super) hints_shown: bool,
    pub(super) hints: Option<(String, Option<Analysis>)>,
    pub(super) paused: bool,
    pub(super) watch_delay: Duration,
    pub(super) waited: Duration,
    pub(super) message: Message,
    pub(super) layout: Option<BoardLayout>,
    pub(super) quit: bool,
    pub(super) seed: u64,
    pub(super) games: u64,
}

impl App {
    /// The screen for a game that is ready to play.
    pub fn new(table: Table) -> App {
        let seed = table.seed;
        let mut app = App {
            table,
            cursor: Square::new(0, 0),
            step: Step::start(),
            input: None,
            ghost: None,
            help: false,
            hints_shown: false,
            hints: None,
            paused: false,
            watch_delay: WATCH_DELAY,
            waited: Duration::ZERO,
            message: Message {
                text: String::new(),
                tone: Tone::Info,
            },
            layout: None,
            quit: false,
            seed,
            games: 0,
        };
        app.message = app.greeting();
        app
    }

    pub(super) fn greeting(&self) -> Message {
        let text = if self.game().is_over() {
            self.table.status()
        } else if self.no_person() {
            "Two computers play: p pauses, + and - change the speed, ? lists the keys.".into()
        } else {
            "Choose your L's new cells: arrows and Space, or click. ? lists the keys.".into()
        };
        Message {
            text,
            tone: Tone::Info,
        }
    }

    /// The table: the seated game, the tables for hints, where to save.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.table.seated.game()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game().position()
    }

    /// Where the person is in entering a move.
    pub fn step(&self) -> &Step {
        &self.step
    }

    /// The cell under the cursor.
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The message line.
    pub fn message(&self) -> &Message {
        &self.message
    }

    /// The move being typed, while the text input is open.
    pub fn input(&self) -> Option<&str> {
        self.input.as_deref()
    }

    /// Whether the help screen is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Whether the person asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Remembers where the board was drawn (for mouse clicks).
    pub fn set_board_layout(&mut self, layout: Option<BoardLayout>) {
        self.layout = layout;
    }

    /// Where the board was last drawn.
    #[cfg(test)]
    pub fn board_layout(&self) -> Option<BoardLayout> {
        self.layout
    }

    /// Handles one terminal event.
    pub fn handle_event(&mut self, event: &Event) {
        match event {
            Event::Key(key) => self.handle_key(*key),
            Event::Mouse(mouse) => self.handle_mouse(*mouse),
            _ => {}
        }
    }

    /// Handles a mouse event: a left click on a cell acts on it, like Space.
    pub fn handle_mouse(&mut self, mouse: MouseEvent) {
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if self.input.is_some() {
            return;
        }
        let Some(square) = self
            .layout
            .and_then(|l| l.square_at(mouse.column, mouse.row))
        else {
            return;
        };
        self.ghost = None;
        self.cursor = square;
        self.activate(square);
        self.sync();
    }

    /// Handles a key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if self.input.is_some() {
            self.input_key(key);
            self.sync();
            return;
        }
        if self.ghost.is_some() && self.ghost_key(key) {
            self.sync();
            return;
        }
        match key.code {
            KeyCode::Char('r') if ctrl => self.redo(),
            _ if ctrl => {}
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') => self.help = true,
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, 1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, -1),
            KeyCode::Char(' ') => self.activate(self.cursor),
            KeyCode::Enter => self.enter(),
            KeyCode::Esc | KeyCode::Backspace => self.back(),
            KeyCode::Char('n') => self.finish_neutrals(),
            KeyCode::Char(':') | KeyCode::Char('m') => self.open_input(),
            KeyCode::Char('g') => self.start_ghost(),
            KeyCode::Char('H') => self.toggle_hints(),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('U') => self.redo(),
            KeyCode::Char('N') => self.new_game(),
            KeyCode::Char('s') => self.save(),
            KeyCode::Char('R') => self.resign(),
            KeyCode::Char('p') => self.toggle_pause(),
            KeyCode::Char('+') | KeyCode::Char('=') => self.change_speed(true),
            KeyCode::Char('-') => self.change_speed(false),
            _ => {}
        }
        self.sync();
    }

    pub(super) fn info(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone: Tone::Info,
        };
    }

    pub(super) fn done(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone: Tone::Done,
        };
    }

    pub(super) fn error(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone: Tone::Error,
        };
    }

    /// Forgets the move being entered: the picks, the ghost, the typed text, the computer's
    /// waiting.
    pub(super) fn reset_step(&mut self) {
        self.step = Step::start();
        self.ghost = None;
        self.input = None;
        self.waited = Duration::ZERO;
    }

    /// Why a person cannot act on the board now, if they cannot.
    pub(super) fn not_your_turn(&self) -> Option<String> {
        let game = self.game();
        if game.is_over() {
            return Some(format!(
                "{} — u takes back, N starts a new game.",
                self.table.status()
            ));
        }
        if self.table.seated.computer_to_move() {
            let turn = game.position().turn();
            let paused = if self.paused {
                " (paused: p resumes)"
            } else {
                ""
            };
            return Some(format!(
                "{turn} ({}) is to move{paused}.",
                self.table.seated.seat(turn)
            ));
        }
        None
    }

    fn move_cursor(&mut self, dx: i8, dy: i8) {
        let board = self.position().board();
        let column = (self.cursor.column() as i8 + dx).clamp(0, board.width() as i8 - 1);
        let row = (self.cursor.row() as i8 + dy).clamp(0, board.height() as i8 - 1);
        self.cursor = Square::new(column as u8, row as u8);
    }

    fn save(&mut self) {
        match self.table.save(None) {
            Ok(path) => self.done(format!("Saved to {}.", path.display())),
            Err(e) => self.error(e),
        }
    }

    fn resign(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        let turn = self.position().turn();
        match self.table.seated.game_mut().resign(turn) {
            Ok(()) => {
                self.reset_step();
                self.after_move(format!("{turn} resigned."));
            }
            Err(e) => self.error(e.to_string()),
        }
    }
}
