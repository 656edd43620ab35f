//! The game screen's state, driven by keys, mouse clicks and the passing of time. Nothing
//! here touches the terminal, so the tests drive it directly; and nothing here knows a rule:
//! which L placements and neutral moves are legal, and why not, comes from the rules crate
//! (`legal_moves`, `check_move`), values from the solver.

use std::time::Duration;

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use lgame::{Bitboard, Board, Color, Game, Move, Piece, Position, Square};
use lgame_players::seated::SeatedGame;
use lgame_solver::Analysis;
use ratatui::layout::Rect;

use crate::play::Table;

/// How long a computer waits before answering a person, so the person sees the board first.
pub const REPLY_DELAY: Duration = Duration::from_millis(500);
/// How long each computer waits when two computers play each other (adjustable with + and -).
pub const WATCH_DELAY: Duration = Duration::from_millis(600);
const SLOWEST: Duration = Duration::from_millis(3000);
const FASTEST: Duration = Duration::from_millis(100);
const IDLE_POLL: Duration = Duration::from_millis(500);

/// Where a person is in entering a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Choosing the four cells of the L's new placement.
    L {
        /// The cells chosen so far.
        cells: Bitboard,
    },
    /// The L's placement is chosen and legal; now a neutral may move.
    Neutral {
        /// The L's new cells.
        l: Bitboard,
        /// Neutral moves already chosen (more than one only in sudden death).
        moves: Vec<(Square, Square)>,
        /// The neutral picked up, waiting for its new cell.
        from: Option<Square>,
    },
}

impl Step {
    fn start() -> Step {
        Step::L {
            cells: Bitboard::EMPTY,
        }
    }
}

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

/// Where the board's cells were drawn, to map mouse clicks back to cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardLayout {
    /// The cells' area (without the edge labels), top-left at the top row's column A.
    pub cells: Rect,
    /// Characters per cell across.
    pub cell_width: u16,
    /// Rows per cell.
    pub cell_height: u16,
    /// The board.
    pub board: Board,
}

impl BoardLayout {
    /// The cell drawn at the terminal position (`x`, `y`), if any.
    pub fn square_at(&self, x: u16, y: u16) -> Option<Square> {
        let area = self.cells;
        if x < area.x || y < area.y {
            return None;
        }
        let column = (x - area.x) / self.cell_width;
        let from_top = (y - area.y) / self.cell_height;
        let (width, height) = (
            u16::from(self.board.width()),
            u16::from(self.board.height()),
        );
        if column >= width || from_top >= height {
            return None;
        }
        Some(Square::new(column as u8, (height - 1 - from_top) as u8))
    }

    /// The area a cell is drawn in.
    pub fn cell_rect(&self, square: Square) -> Rect {
        let from_top = u16::from(self.board.height()) - 1 - u16::from(square.row());
        Rect::new(
            self.cells.x + u16::from(square.column()) * self.cell_width,
            self.cells.y + from_top * self.cell_height,
            self.cell_width,
            self.cell_height,
        )
    }
}

/// What one cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CellView {
    /// The piece on it (during the neutral step: after the chosen L and neutral moves).
    pub piece: Option<Piece>,
    /// The cursor is here.
    pub cursor: bool,
    /// Part of the L being chosen (or chosen, during the neutral step).
    pub selected: bool,
    /// A cell that can still complete a legal L, or a neutral that may move, or a cell the
    /// picked neutral may move to.
    pub candidate: bool,
    /// Under the ghost L.
    pub ghost: bool,
    /// The neutral picked up.
    pub picked: bool,
    /// A cell the last move put a piece on (its L's new cells, a neutral's new cell).
    pub last_placed: bool,
    /// A cell a neutral left in the last move.
    pub last_vacated: bool,
}

/// What the board shows, cell by cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// The board.
    pub board: Board,
    cells: [CellView; 64],
}

impl BoardView {
    /// What `square` shows.
    pub fn at(&self, square: Square) -> CellView {
        self.cells[square.index() as usize]
    }
}

/// An L shape floating over the board, moved and turned before it is put down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ghost {
    shape: usize,
    column: u8,
    row: u8,
}

/// Cells of a shape, relative to its bounding box's bottom-left corner, sorted.
type Shape = Vec<(u8, u8)>;

fn normalize(cells: impl IntoIterator<Item = (i16, i16)>) -> Shape {
    let cells: Vec<(i16, i16)> = cells.into_iter().collect();
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut shape: Shape = cells
        .iter()
        .map(|&(x, y)| ((x - min_x) as u8, (y - min_y) as u8))
        .collect();
    shape.sort_unstable();
    shape
}

/// The distinct shapes of the board's L placements (the eight orientations of an L).
fn shapes(board: Board) -> Vec<Shape> {
    let mut shapes: Vec<Shape> = Vec::new();
    for &placement in board.geometry().placements() {
        let shape = normalize(
            placement
                .into_iter()
                .map(|s| (i16::from(s.column()), i16::from(s.row()))),
        );
        if !shapes.contains(&shape) {
            shapes.push(shape);
        }
    }
    shapes
}

fn extent(shape: &Shape) -> (u8, u8) {
    let w = shape.iter().map(|c| c.0 + 1).max().unwrap_or(1);
    let h = shape.iter().map(|c| c.1 + 1).max().unwrap_or(1);
    (w, h)
}

/// The whole screen's state around a [`Table`].
pub struct App {
    table: Table,
    cursor: Square,
    step: Step,
    input: Option<String>,
    ghost: Option<Ghost>,
    shapes: Vec<Shape>,
    help: bool,
    hints_shown: bool,
    hints: Option<(String, Option<Analysis>)>,
    paused: bool,
    watch_delay: Duration,
    waited: Duration,
    message: Message,
    layout: Option<BoardLayout>,
    quit: bool,
    seed: u64,
    games: u64,
}

impl App {
    /// The screen for a game that is ready to play.
    pub fn new(table: Table) -> App {
        let board = table.seated.game().rules().board();
        let seed = table.seed;
        let mut app = App {
            table,
            cursor: Square::new(0, 0),
            step: Step::start(),
            input: None,
            ghost: None,
            shapes: shapes(board),
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

    fn greeting(&self) -> Message {
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

    /// Whether the ghost L is out.
    pub fn ghost_active(&self) -> bool {
        self.ghost.is_some()
    }

    /// Whether the help screen is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Whether the hints panel is shown.
    pub fn hints_shown(&self) -> bool {
        self.hints_shown
    }

    /// The current position's analysis, when the hints panel is shown and the game goes on.
    pub fn hints(&self) -> Option<&Analysis> {
        self.hints.as_ref().and_then(|(_, a)| a.as_ref())
    }

    /// Whether the computers are paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The pause between moves when two computers play.
    pub fn watch_delay(&self) -> Duration {
        self.watch_delay
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

    /// Whether no person sits at the table.
    pub fn no_person(&self) -> bool {
        Color::ALL
            .iter()
            .all(|&c| !self.table.seated.seat(c).is_human())
    }

    fn has_computer(&self) -> bool {
        Color::ALL
            .iter()
            .any(|&c| !self.table.seated.seat(c).is_human())
    }

    fn delay(&self) -> Duration {
        if self.no_person() {
            self.watch_delay
        } else {
            REPLY_DELAY
        }
    }

    /// How long the event loop may wait for input before the next [`App::tick`].
    pub fn poll_timeout(&self) -> Duration {
        if self.table.seated.computer_to_move() && !self.paused {
            self.delay().saturating_sub(self.waited)
        } else {
            IDLE_POLL
        }
    }

    /// Lets time pass: a computer to move plays once it has waited its delay.
    pub fn tick(&mut self, elapsed: Duration) {
        if self.paused || !self.table.seated.computer_to_move() {
            self.waited = Duration::ZERO;
            return;
        }
        self.waited += elapsed;
        if self.waited < self.delay() {
            return;
        }
        self.waited = Duration::ZERO;
        let turn = self.position().turn();
        let seat = self.table.seated.seat(turn).clone();
        match self.table.seated.play_computer() {
            Some(mv) => {
                self.reset_step();
                self.after_move(format!("{turn} ({seat}) played {mv}."));
            }
            None => {
                let reason = self.table.seated.forfeit().unwrap_or("no move").to_string();
                self.error(format!("{turn} ({seat}) forfeits: {reason}"));
            }
        }
        self.sync();
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

    fn info(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone: Tone::Info,
        };
    }

    fn done(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone: Tone::Done,
        };
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone: Tone::Error,
        };
    }

    /// Keeps derived state up to date: the hints for the current position.
    fn sync(&mut self) {
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

    fn reset_step(&mut self) {
        self.step = Step::start();
        self.ghost = None;
        self.input = None;
        self.waited = Duration::ZERO;
    }

    /// Why a person cannot act on the board now, if they cannot.
    fn not_your_turn(&self) -> Option<String> {
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

    /// The distinct L placements of the legal moves.
    fn legal_ls(&self) -> Vec<Bitboard> {
        let mut ls: Vec<Bitboard> = self
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.l())
            .collect();
        ls.sort_unstable();
        ls.dedup();
        ls
    }

    /// Space, Enter on the L step, or a click: act on one cell.
    fn activate(&mut self, square: Square) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        match self.step.clone() {
            Step::L { cells } => self.toggle(cells, square),
            Step::Neutral { l, moves, from } => self.pick(l, moves, from, square),
        }
    }

    fn toggle(&mut self, cells: Bitboard, square: Square) {
        let turn = self.position().turn();
        let cells = if cells.contains(square) {
            cells - square.bit()
        } else if cells.count() >= 4 {
            self.error("Four cells are chosen: Space on one takes it back, Esc clears them.");
            return;
        } else {
            cells | square.bit()
        };
        self.step = Step::L { cells };
        if cells.count() == 4 {
            self.l_chosen(cells);
        } else if cells.is_empty() {
            self.info(format!("{turn}: choose your L's new cells."));
        } else if !self.legal_ls().iter().any(|&p| cells.is_subset(p)) {
            self.error(format!(
                "No legal L for {turn} covers {}: Space takes a cell back, Esc clears.",
                cells.to_cell_list()
            ));
        } else {
            self.info(format!(
                "{turn}'s new L: {} ({} of 4).",
                cells.to_cell_list(),
                cells.count()
            ));
        }
    }

    /// Four cells are chosen: on to the neutral step if the rules allow the L there.
    fn l_chosen(&mut self, cells: Bitboard) {
        let position = self.position();
        let turn = position.turn();
        let legal = position.legal_moves();
        if !legal.iter().any(|m| m.l() == cells) {
            let reason = match position.check_move(&Move::l_only(cells)) {
                Err(e) => e.to_string(),
                Ok(()) => format!("no legal move puts the L on {}", cells.to_cell_list()),
            };
            self.error(format!(
                "{}: {reason}. Space takes a cell back, Esc clears.",
                cells.to_cell_list()
            ));
            return;
        }
        if legal
            .iter()
            .any(|m| m.l() == cells && m.neutrals_from().any())
        {
            self.step = Step::Neutral {
                l: cells,
                moves: Vec::new(),
                from: None,
            };
            self.info(format!(
                "{turn}'s L to {}. Now pick a neutral and its new cell, or n to move none.",
                cells.to_cell_list()
            ));
        } else {
            self.play(Move::l_only(cells));
        }
    }

    /// The neutrals that may move after the chosen L and neutral moves.
    fn neutral_sources(&self, l: Bitboard, moves: &[(Square, Square)]) -> Bitboard {
        let position = self.position();
        let mask = position.board().mask();
        let mut sources = Bitboard::EMPTY;
        for from in mask {
            for to in mask {
                let mut all = moves.to_vec();
                all.push((from, to));
                if Move::new(l, &all).is_ok_and(|mv| position.is_legal(&mv)) {
                    sources |= from.bit();
                    break;
                }
            }
        }
        sources
    }

    /// The cells the neutral on `from` may move to.
    fn neutral_targets(&self, l: Bitboard, moves: &[(Square, Square)], from: Square) -> Bitboard {
        let position = self.position();
        let mut targets = Bitboard::EMPTY;
        for to in position.board().mask() {
            let mut all = moves.to_vec();
            all.push((from, to));
            if Move::new(l, &all).is_ok_and(|mv| position.is_legal(&mv)) {
                targets |= to.bit();
            }
        }
        targets
    }

    fn pick(
        &mut self,
        l: Bitboard,
        moves: Vec<(Square, Square)>,
        from: Option<Square>,
        square: Square,
    ) {
        let turn = self.position().turn();
        match from {
            None => {
                if self.neutral_sources(l, &moves).contains(square) {
                    self.step = Step::Neutral {
                        l,
                        moves,
                        from: Some(square),
                    };
                    self.info(format!(
                        "{turn}: now the new cell for the neutral on {square} (Esc: another neutral)."
                    ));
                    return;
                }
                // Not a neutral that may move: ask the rules why, with any other cell as the
                // target (the neutral's own cell is checked before its target).
                let position = self.position();
                let other = position
                    .board()
                    .mask()
                    .into_iter()
                    .find(|&s| s != square)
                    .unwrap_or(square);
                let mut all = moves.clone();
                all.push((square, other));
                let reason = match Move::new(l, &all) {
                    Err(e) => e.to_string(),
                    Ok(mv) => match position.check_move(&mv) {
                        Err(e) => e.to_string(),
                        Ok(()) => format!("the neutral on {square} cannot move"),
                    },
                };
                self.error(format!("{reason}. Pick a neutral, or n to move none."));
            }
            Some(from) if from == square => {
                self.step = Step::Neutral {
                    l,
                    moves,
                    from: None,
                };
                self.info(format!("{turn}: pick a neutral, or n to move none."));
            }
            Some(from) => {
                let mut all = moves.clone();
                all.push((from, square));
                let checked = Move::new(l, &all)
                    .map_err(|e| e.to_string())
                    .and_then(|mv| {
                        self.position()
                            .check_move(&mv)
                            .map(|()| mv)
                            .map_err(|e| e.to_string())
                    });
                match checked {
                    Err(reason) => {
                        self.error(format!("{reason}. Pick another cell, or Esc."));
                    }
                    Ok(mv) => {
                        let more = all.len() < usize::from(self.game().rules().max_neutral_moves())
                            && self.neutral_sources(l, &all).any();
                        if more {
                            self.step = Step::Neutral {
                                l,
                                moves: all,
                                from: None,
                            };
                            self.info(format!(
                                "{turn}: {mv} so far. Another neutral, or n to finish."
                            ));
                        } else {
                            self.play(mv);
                        }
                    }
                }
            }
        }
    }

    /// `n`: play the chosen L with the neutral moves chosen so far (none, usually).
    fn finish_neutrals(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        match self.step.clone() {
            Step::L { .. } => {
                self.error("Choose the L's four cells first; n then moves no neutral.");
            }
            Step::Neutral { l, moves, .. } => match Move::new(l, &moves) {
                Ok(mv) => self.play(mv),
                Err(e) => self.error(e.to_string()),
            },
        }
    }

    /// Enter: like Space, except that on the neutral step with nothing to pick under the
    /// cursor it moves no (more) neutral.
    fn enter(&mut self) {
        if let Step::Neutral { l, moves, from } = self.step.clone() {
            if from.is_none() && !self.neutral_sources(l, &moves).contains(self.cursor) {
                self.finish_neutrals();
                return;
            }
        }
        self.activate(self.cursor);
    }

    /// Esc or Backspace: one step back.
    fn back(&mut self) {
        match self.step.clone() {
            Step::L { cells } if cells.any() => {
                self.step = Step::start();
                self.info("Cleared: choose your L's new cells.");
            }
            Step::L { .. } => self.message = self.greeting(),
            Step::Neutral {
                l,
                moves,
                from: Some(_),
            } => {
                self.step = Step::Neutral {
                    l,
                    moves,
                    from: None,
                };
                self.info("Pick a neutral, or n to move none.");
            }
            Step::Neutral { l, mut moves, .. } if !moves.is_empty() => {
                moves.pop();
                self.step = Step::Neutral {
                    l,
                    moves,
                    from: None,
                };
                self.info("Took back that neutral move.");
            }
            Step::Neutral { l, .. } => {
                self.step = Step::L { cells: l };
                self.info("Back to the L: Space takes a cell back, Esc clears.");
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let turn = self.position().turn();
        match self.table.seated.play_human(&mv) {
            Ok(_) => {
                self.reset_step();
                self.after_move(format!("{turn} played {mv}."));
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn after_move(&mut self, text: String) {
        match self.game().conclusion() {
            Some(end) => self.done(format!("{text} Game over: {end}.")),
            None => self.done(text),
        }
    }

    fn open_input(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        self.ghost = None;
        self.input = Some(String::new());
        self.info("Type a move like A2,A3,A4,B4 B2-A1, then Enter (Esc cancels).");
    }

    fn input_key(&mut self, key: KeyEvent) {
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

    fn start_ghost(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        if !matches!(self.step, Step::L { .. }) {
            self.error("The L is chosen already: Esc goes back to it.");
            return;
        }
        let own = self.position().l(self.position().turn());
        let own_shape = normalize(
            own.into_iter()
                .map(|s| (i16::from(s.column()), i16::from(s.row()))),
        );
        let shape = self
            .shapes
            .iter()
            .position(|s| *s == own_shape)
            .unwrap_or(0);
        let mut ghost = Ghost {
            shape,
            column: self.cursor.column(),
            row: self.cursor.row(),
        };
        self.clamp_ghost(&mut ghost);
        self.ghost = Some(ghost);
        self.info("Ghost L: arrows move it, r turns it, f flips it, Enter puts it down, Esc.");
    }

    fn clamp_ghost(&self, ghost: &mut Ghost) {
        let board = self.position().board();
        let (w, h) = extent(&self.shapes[ghost.shape]);
        ghost.column = ghost.column.min(board.width().saturating_sub(w));
        ghost.row = ghost.row.min(board.height().saturating_sub(h));
    }

    /// The cells under the ghost L.
    fn ghost_cells(&self) -> Bitboard {
        let Some(ghost) = self.ghost else {
            return Bitboard::EMPTY;
        };
        self.shapes[ghost.shape]
            .iter()
            .map(|&(x, y)| Square::new(ghost.column + x, ghost.row + y))
            .collect()
    }

    fn turned(&self, shape: usize, flip: bool) -> usize {
        let turned = normalize(self.shapes[shape].iter().map(|&(x, y)| {
            let (x, y) = (i16::from(x), i16::from(y));
            if flip {
                (-x, y)
            } else {
                (y, -x)
            }
        }));
        self.shapes
            .iter()
            .position(|s| *s == turned)
            .unwrap_or(shape)
    }

    /// A key while the ghost L is out; false when the key is not the ghost's.
    fn ghost_key(&mut self, key: KeyEvent) -> bool {
        let Some(mut ghost) = self.ghost else {
            return false;
        };
        let (dx, dy): (i16, i16) = match key.code {
            KeyCode::Left | KeyCode::Char('h') => (-1, 0),
            KeyCode::Right | KeyCode::Char('l') => (1, 0),
            KeyCode::Up | KeyCode::Char('k') => (0, 1),
            KeyCode::Down | KeyCode::Char('j') => (0, -1),
            KeyCode::Char('r') => {
                ghost.shape = self.turned(ghost.shape, false);
                (0, 0)
            }
            KeyCode::Char('f') => {
                ghost.shape = self.turned(ghost.shape, true);
                (0, 0)
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let cells = self.ghost_cells();
                self.ghost = None;
                self.step = Step::L { cells };
                self.l_chosen(cells);
                return true;
            }
            KeyCode::Esc | KeyCode::Char('g') => {
                self.ghost = None;
                self.info("Ghost L put away.");
                return true;
            }
            _ => return false,
        };
        ghost.column = (i16::from(ghost.column) + dx).max(0) as u8;
        ghost.row = (i16::from(ghost.row) + dy).max(0) as u8;
        self.clamp_ghost(&mut ghost);
        self.ghost = Some(ghost);
        self.cursor = Square::new(ghost.column, ghost.row);
        true
    }

    fn toggle_hints(&mut self) {
        self.hints_shown = !self.hints_shown;
        if self.hints_shown {
            self.info("Hints: the solved game's value of every move (H hides them).");
        } else {
            self.info("Hints hidden.");
        }
    }

    fn undo(&mut self) {
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

    fn redo(&mut self) {
        let n = self.table.seated.redo();
        if n == 0 {
            self.error("Nothing to redo.");
            return;
        }
        self.reset_step();
        let text = format!("Replayed {n} move{}.", if n == 1 { "" } else { "s" });
        self.after_move(text);
    }

    fn new_game(&mut self) {
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

    fn toggle_pause(&mut self) {
        if !self.has_computer() {
            self.error("No computer plays here: nothing to pause.");
            return;
        }
        self.paused = !self.paused;
        self.waited = Duration::ZERO;
        if self.paused {
            self.info("Paused: p resumes.");
        } else {
            self.info("Resumed.");
        }
    }

    fn change_speed(&mut self, faster: bool) {
        if !self.no_person() {
            self.error("The speed is for watching two computers.");
            return;
        }
        self.watch_delay = if faster {
            (self.watch_delay / 2).max(FASTEST)
        } else {
            (self.watch_delay * 2).min(SLOWEST)
        };
        self.info(format!(
            "One move every {} ms.",
            self.watch_delay.as_millis()
        ));
    }

    /// What the person is asked to do now, or what happens.
    pub fn prompt(&self) -> String {
        let game = self.game();
        if game.is_over() {
            return "u takes back, N starts a new game, s saves, q quits.".into();
        }
        let turn = game.position().turn();
        if self.table.seated.computer_to_move() {
            let seat = self.table.seated.seat(turn);
            return if self.paused {
                format!("{turn} ({seat}) is to move. Paused: p resumes.")
            } else {
                format!("{turn} ({seat}) is thinking…")
            };
        }
        if self.input.is_some() {
            return format!("{turn}: type your move below.");
        }
        if self.ghost.is_some() {
            return format!("{turn}: place the ghost L (r turns, f flips, Enter puts it down).");
        }
        match &self.step {
            Step::L { cells } => format!(
                "{turn}: choose your L's new cells ({} of 4).",
                cells.count()
            ),
            Step::Neutral { from: None, .. } => {
                format!("{turn}: pick a neutral to move, or n to move none.")
            }
            Step::Neutral {
                from: Some(from), ..
            } => format!("{turn}: pick the new cell for the neutral on {from}."),
        }
    }

    /// The last move and who played it.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        let game = self.game();
        let plies = game.plies();
        let last = plies.last()?;
        let before = if plies.len() >= 2 {
            &plies[plies.len() - 2].position
        } else {
            game.start()
        };
        Some((before.turn(), last.mv))
    }

    /// What every cell shows.
    pub fn board_view(&self) -> BoardView {
        let position = self.position();
        let board = position.board();
        let turn = position.turn();
        let human = self.table.seated.waiting_for_human();
        let mut view = BoardView {
            board,
            cells: [CellView::default(); 64],
        };
        let (selected, candidates, picked, pending) = match &self.step {
            Step::L { cells } => {
                let candidates = if human && cells.any() {
                    self.legal_ls()
                        .into_iter()
                        .filter(|&p| cells.is_subset(p))
                        .fold(Bitboard::EMPTY, |acc, p| acc | p)
                } else {
                    Bitboard::EMPTY
                };
                (*cells, candidates - *cells, None, None)
            }
            Step::Neutral { l, moves, from } => {
                let candidates = match from {
                    None => self.neutral_sources(*l, moves),
                    Some(f) => self.neutral_targets(*l, moves, *f),
                };
                (*l, candidates, *from, Some((*l, moves.as_slice())))
            }
        };
        let ghost = self.ghost_cells();
        let (placed, vacated) = match self.game().plies().last() {
            Some(ply) if !ply.reset => (
                ply.mv.l() | ply.mv.neutrals_to(),
                ply.mv.neutrals_from() - position.occupied(),
            ),
            _ => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        // During the neutral step the board shows the chosen L and neutral moves.
        let (ls, neutrals) = match pending {
            Some((l, moves)) => {
                let mut neutrals = position.neutrals();
                for &(f, t) in moves {
                    neutrals = (neutrals - f.bit()) | t.bit();
                }
                let mut ls = position.ls();
                ls[turn] = l;
                (ls, neutrals)
            }
            None => (position.ls(), position.neutrals()),
        };
        for square in board.mask() {
            let piece = if ls[turn].contains(square) {
                Some(Piece::L(turn))
            } else if ls[!turn].contains(square) {
                Some(Piece::L(!turn))
            } else if neutrals.contains(square) {
                Some(Piece::Neutral)
            } else {
                None
            };
            view.cells[square.index() as usize] = CellView {
                piece,
                cursor: human && square == self.cursor,
                selected: human && selected.contains(square),
                candidate: human && candidates.contains(square),
                ghost: ghost.contains(square),
                picked: picked == Some(square),
                last_placed: placed.contains(square),
                last_vacated: vacated.contains(square),
            };
        }
        view
    }
}
