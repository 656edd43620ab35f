//! The ghost L: one of the board's L placements floating over the board, moved, turned and
//! flipped before it is put down as the L's new cells. Its shapes are the rules crate's:
//! the ghost is always a placement of the board's geometry, and it turns and flips with the
//! geometry's symmetries.

use crossterm::event::{KeyCode, KeyEvent};
use lgame::board::Symmetry;
use lgame::{Bitboard, Board, Square};

use super::app::App;
use super::building::Step;

/// The ghost L: an L placement of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ghost {
    cells: Bitboard,
}

/// The lower-left corner of the cells' bounding box, and its width and height.
fn bounds(cells: Bitboard) -> ((u8, u8), (u8, u8)) {
    let columns = cells.into_iter().map(Square::column);
    let rows = cells.into_iter().map(Square::row);
    let (left, right) = (columns.clone().min(), columns.max());
    let (bottom, top) = (rows.clone().min(), rows.max());
    let (left, bottom) = (left.unwrap_or(0), bottom.unwrap_or(0));
    (
        (left, bottom),
        (right.unwrap_or(0) + 1 - left, top.unwrap_or(0) + 1 - bottom),
    )
}

impl Ghost {
    /// The shape of `cells` with its lower-left corner at (`column`, `row`), or as near as
    /// the board allows.
    fn at(board: Board, cells: Bitboard, column: i16, row: i16) -> Ghost {
        let ((left, bottom), (width, height)) = bounds(cells);
        let fit = |at: i16, side: u8, extent: u8| at.clamp(0, i16::from(side - extent)) as u8;
        let (column, row) = (
            fit(column, board.width(), width),
            fit(row, board.height(), height),
        );
        let cells = cells
            .into_iter()
            .map(|s| Square::new(s.column() - left + column, s.row() - bottom + row))
            .collect();
        debug_assert!(board.geometry().is_l(cells), "a ghost is an L placement");
        Ghost { cells }
    }

    /// The cells under the ghost.
    pub fn cells(self) -> Bitboard {
        self.cells
    }

    /// The lower-left corner of the ghost's bounding box (where the cursor follows it).
    fn corner(self) -> Square {
        let ((column, row), _) = bounds(self.cells);
        Square::new(column, row)
    }

    /// Moved by (`dx`, `dy`), stopping at the board's edges.
    fn shifted(self, board: Board, dx: i16, dy: i16) -> Ghost {
        let corner = self.corner();
        let column = (i16::from(corner.column()) + dx).max(0);
        let row = (i16::from(corner.row()) + dy).max(0);
        Ghost::at(board, self.cells, column, row)
    }

    /// Turned a quarter clockwise (or flipped left to right) about its corner. The symmetry
    /// is taken on the largest board, which holds every board's cells and has all eight.
    fn turned(self, board: Board, symmetry: Symmetry) -> Ghost {
        let largest = Board::new(8, 8).expect("8x8 is a board");
        let image = largest.geometry().transform(symmetry, self.cells);
        let corner = self.corner();
        Ghost::at(
            board,
            image,
            i16::from(corner.column()),
            i16::from(corner.row()),
        )
    }
}

impl App {
    /// Whether the ghost L is out.
    pub fn ghost_active(&self) -> bool {
        self.ghost.is_some()
    }

    /// The cells under the ghost L.
    pub(super) fn ghost_cells(&self) -> Bitboard {
        self.ghost.map_or(Bitboard::EMPTY, Ghost::cells)
    }

    /// `g`: the ghost appears at the cursor in the shape of the player's L.
    pub(super) fn start_ghost(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        if !matches!(self.step, Step::L { .. }) {
            self.error("The L is chosen already: Esc goes back to it.");
            return;
        }
        let position = self.position();
        let own = position.l(position.turn());
        self.ghost = Some(Ghost::at(
            position.board(),
            own,
            i16::from(self.cursor.column()),
            i16::from(self.cursor.row()),
        ));
        self.info("Ghost L: arrows move it, r turns it, f flips it, Enter puts it down, Esc.");
    }

    /// A key while the ghost L is out; false when the key is not the ghost's.
    pub(super) fn ghost_key(&mut self, key: KeyEvent) -> bool {
        let Some(ghost) = self.ghost else {
            return false;
        };
        let board = self.position().board();
        let ghost = match key.code {
            KeyCode::Left | KeyCode::Char('h') => ghost.shifted(board, -1, 0),
            KeyCode::Right | KeyCode::Char('l') => ghost.shifted(board, 1, 0),
            KeyCode::Up | KeyCode::Char('k') => ghost.shifted(board, 0, 1),
            KeyCode::Down | KeyCode::Char('j') => ghost.shifted(board, 0, -1),
            KeyCode::Char('r') => ghost.turned(board, Symmetry::Rotate90),
            KeyCode::Char('f') => ghost.turned(board, Symmetry::MirrorColumns),
            KeyCode::Enter | KeyCode::Char(' ') => {
                let cells = ghost.cells();
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
        self.ghost = Some(ghost);
        self.cursor = ghost.corner();
        true
    }
}
