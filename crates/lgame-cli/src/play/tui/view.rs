//! The view model: what the board shows cell by cell, where it was drawn (to map clicks back
//! to cells), what the person is asked to do, and the last move.

use lgame::position::Piece;
use lgame::{Bitboard, Board, Color, Move, Square};
use ratatui::layout::Rect;

use super::app::App;
use super::building::Step;

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

impl App {
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
        let builder = self.builder();
        let (selected, candidates, picked, pending) = match &self.step {
            Step::L { cells } => {
                let candidates = if human && cells.any() {
                    builder.l_candidates()
                } else {
                    Bitboard::EMPTY
                };
                (*cells, candidates, None, None)
            }
            Step::Neutral { l, moves, from } => {
                let candidates = match from {
                    None => builder.movable_neutrals(),
                    Some(_) => builder.targets(),
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
