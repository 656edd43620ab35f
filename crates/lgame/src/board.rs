//! Board geometry: sizes, the table of L placements, and the board's symmetries.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::square::{Bitboard, Square};

pub use crate::square::Squares;

/// Smallest supported width or height.
pub const MIN_SIDE: u8 = 4;
/// Largest supported width or height (a board has at most 64 cells).
pub const MAX_SIDE: u8 = 8;

/// A board of `width` columns and `height` rows, each from 4 to 8.
///
/// ```
/// use lgame::Board;
///
/// let board = Board::new(5, 4)?;
/// assert_eq!((board.width(), board.height()), (5, 4));
/// assert_eq!(board.cell_count(), 20);
/// assert!(!board.is_square());
/// assert_eq!(board.to_string(), "5x4");
/// assert_eq!("5x4".parse::<Board>()?, board);
/// assert_eq!(board.corners().to_cell_list(), "A1,A4,E1,E4");
/// assert!(board.contains("E4".parse()?));
/// assert!(!board.contains("A5".parse()?));
///
/// assert_eq!(Board::CLASSIC.to_string(), "4x4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    width: u8,
    height: u8,
}

/// A board size outside 4×4 … 8×8, or text that is not `WxH`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// The text is not of the form `WxH`.
    Syntax {
        /// The text given.
        text: String,
    },
    /// A side is outside 4…8.
    OutOfRange {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax { text } => {
                write!(
                    f,
                    "'{text}' is not a board size (write it as WxH, like 5x5)"
                )
            }
            BoardError::OutOfRange { width, height } => write!(
                f,
                "a {width}x{height} board is not supported: width and height must each be \
                 {MIN_SIDE} to {MAX_SIDE}"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The classic 4×4 board.
    pub const CLASSIC: Board = Board {
        width: 4,
        height: 4,
    };

    /// A board of the given size.
    ///
    /// # Errors
    /// [`BoardError::OutOfRange`] unless both sides are 4 to 8.
    ///
    /// ```
    /// use lgame::Board;
    /// use lgame::board::BoardError;
    ///
    /// assert_eq!(Board::new(8, 4)?.cell_count(), 32);
    ///
    /// let err = Board::new(9, 9).unwrap_err();
    /// assert_eq!(err, BoardError::OutOfRange { width: 9, height: 9 });
    /// assert_eq!(
    ///     err.to_string(),
    ///     "a 9x9 board is not supported: width and height must each be 4 to 8"
    /// );
    /// # Ok::<(), BoardError>(())
    /// ```
    pub fn new(width: u32, height: u32) -> Result<Board, BoardError> {
        let ok = |side: u32| (MIN_SIDE as u32..=MAX_SIDE as u32).contains(&side);
        if ok(width) && ok(height) {
            Ok(Board {
                width: width as u8,
                height: height as u8,
            })
        } else {
            Err(BoardError::OutOfRange { width, height })
        }
    }

    /// Number of columns.
    pub fn width(self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub fn height(self) -> u8 {
        self.height
    }

    /// Whether width and height are equal (then the board has 8 symmetries, else 4).
    pub fn is_square(self) -> bool {
        self.width == self.height
    }

    /// Number of cells.
    pub fn cell_count(self) -> u32 {
        self.width as u32 * self.height as u32
    }

    /// Whether the cell lies on this board.
    pub fn contains(self, square: Square) -> bool {
        square.column() < self.width && square.row() < self.height
    }

    /// All cells of the board.
    pub fn mask(self) -> Bitboard {
        self.geometry().mask
    }

    /// The four corner cells.
    pub fn corners(self) -> Bitboard {
        let (w, h) = (self.width - 1, self.height - 1);
        [(0, 0), (w, 0), (0, h), (w, h)]
            .into_iter()
            .map(|(c, r)| Square::new(c, r))
            .collect()
    }

    /// The precomputed tables of this board (built once per size, on first use).
    pub fn geometry(self) -> &'static Geometry {
        static TABLES: OnceLock<Vec<Geometry>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            let mut all = Vec::new();
            for width in MIN_SIDE..=MAX_SIDE {
                for height in MIN_SIDE..=MAX_SIDE {
                    all.push(Geometry::build(Board { width, height }));
                }
            }
            all
        });
        let sides = (MAX_SIDE - MIN_SIDE + 1) as usize;
        &tables[(self.width - MIN_SIDE) as usize * sides + (self.height - MIN_SIDE) as usize]
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Board {
    /// Its size, `4x4`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Reads `WxH`, e.g. `5x5` (`X` and `×` also accepted).
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax {
            text: text.to_string(),
        };
        let lower = text.trim().to_ascii_lowercase().replace('×', "x");
        let (w, h) = lower.split_once('x').ok_or_else(syntax)?;
        let w: u32 = w.parse().map_err(|_| syntax())?;
        let h: u32 = h.parse().map_err(|_| syntax())?;
        Board::new(w, h)
    }
}

/// One of the symmetries of the rectangle, acting on cells.
///
/// Every board has the first four; a square board has all eight.
///
/// ```
/// use lgame::{Board, Square};
/// use lgame::board::Symmetry;
///
/// let b3: Square = "B3".parse()?;
/// let image = |symmetry: Symmetry| symmetry.apply_to_square(Board::CLASSIC, b3).to_string();
/// assert_eq!(image(Symmetry::Identity), "B3");
/// assert_eq!(image(Symmetry::MirrorColumns), "C3");
/// assert_eq!(image(Symmetry::MirrorRows), "B2");
/// assert_eq!(image(Symmetry::Rotate180), "C2");
/// assert_eq!(image(Symmetry::MirrorDiagonal), "C2");
/// assert_eq!(image(Symmetry::Rotate90), "C3");
/// assert!(Symmetry::MirrorDiagonal.is_mirror() && !Symmetry::Rotate90.is_mirror());
///
/// // On a 6×4 board, A1 mirrors to F1 across the columns.
/// let a1 = "A1".parse()?;
/// let wide = Board::new(6, 4)?;
/// assert_eq!(Symmetry::MirrorColumns.apply_to_square(wide, a1).to_string(), "F1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leaves everything in place.
    Identity,
    /// Mirror in the vertical centre line (A ↔ last column).
    MirrorColumns,
    /// Mirror in the horizontal centre line (row 1 ↔ last row).
    MirrorRows,
    /// Half turn about the centre.
    Rotate180,
    /// Mirror in the diagonal through A1 (square boards only).
    MirrorDiagonal,
    /// Mirror in the other diagonal (square boards only).
    MirrorAntiDiagonal,
    /// Quarter turn clockwise (square boards only).
    Rotate90,
    /// Quarter turn anticlockwise (square boards only).
    Rotate270,
}

impl Symmetry {
    /// All eight, the rectangle's four first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Rotate180,
        Symmetry::MirrorDiagonal,
        Symmetry::MirrorAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Whether this symmetry is a reflection in a line (the symmetry variant's mirror lines).
    pub fn is_mirror(self) -> bool {
        matches!(
            self,
            Symmetry::MirrorColumns
                | Symmetry::MirrorRows
                | Symmetry::MirrorDiagonal
                | Symmetry::MirrorAntiDiagonal
        )
    }

    /// Where `square` goes on `board`. The diagonal symmetries and quarter turns assume a
    /// square board; use [`Geometry::symmetries`] to get the ones a board has.
    pub fn apply_to_square(self, board: Board, square: Square) -> Square {
        let (w, h) = (board.width - 1, board.height - 1);
        let (c, r) = (square.column(), square.row());
        let (c2, r2) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::MirrorColumns => (w - c, r),
            Symmetry::MirrorRows => (c, h - r),
            Symmetry::Rotate180 => (w - c, h - r),
            Symmetry::MirrorDiagonal => (r, c),
            Symmetry::MirrorAntiDiagonal => (w - r, h - c),
            Symmetry::Rotate90 => (r, w - c),
            Symmetry::Rotate270 => (w - r, c),
        };
        Square::new(c2, r2)
    }
}

/// The precomputed tables of one board size: every L placement and the symmetries.
///
/// ```
/// use lgame::{Bitboard, Board, Square};
/// use lgame::board::Symmetry;
///
/// let cells = |list: &str| -> Bitboard {
///     list.split(',').map(|c| c.parse::<Square>().unwrap()).collect()
/// };
/// let geometry = Board::CLASSIC.geometry();
/// assert_eq!(geometry.placements().len(), 48);
/// assert_eq!(geometry.symmetries().len(), 8);
/// assert_eq!(geometry.mirrors().count(), 4);
///
/// assert!(geometry.is_l(cells("A1,A2,A3,B1")));
/// assert!(!geometry.is_l(cells("A1,A2,B2,B3")), "an S is not an L");
/// assert!(!geometry.is_l(cells("A1,A2,A3,A4")), "nor is a line");
///
/// let turned = geometry.transform(Symmetry::Rotate90, cells("A1,A2,A3,B1"));
/// assert_eq!(turned.to_cell_list(), "A3,A4,B4,C4");
/// assert!(geometry.is_l(turned));
///
/// // A 6×4 board has more placements, and only the rectangle's four symmetries.
/// let wide = Board::new(6, 4)?.geometry();
/// assert_eq!(wide.placements().len(), 88);
/// assert_eq!(wide.symmetries().len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Geometry {
    board: Board,
    mask: Bitboard,
    placements: Vec<Bitboard>,
    symmetries: Vec<Symmetry>,
    /// For each symmetry of `symmetries`, the image of every cell index (unused indices: 0).
    square_maps: Vec<[u8; 64]>,
    /// For each placement, its images in the board's mirror lines.
    mirror_images: Vec<Vec<Bitboard>>,
    /// For each cell index, the set of placements (by number) that do not cover it.
    missing_cell: Vec<PlacementSet>,
    /// Every placement.
    all: PlacementSet,
}

/// A set of placements of one board, by their number in [`Geometry::placements`] (an 8×8
/// board has 336, so six 64-bit words hold any set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlacementSet([u64; 6]);

impl PlacementSet {
    /// How many placements are in the set.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether placement number `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// The placement numbers in the set, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(w, word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }
}

/// The eight orientations of the L tetromino, each as (column, row) offsets from the lower
/// left of its 3×2 or 2×3 bounding box.
fn l_orientations() -> Vec<[(i8, i8); 4]> {
    let base: [(i8, i8); 4] = [(0, 0), (0, 1), (0, 2), (1, 0)];
    type CellMap = fn((i8, i8)) -> (i8, i8);
    let transforms: [CellMap; 8] = [
        |(c, r)| (c, r),
        |(c, r)| (-c, r),
        |(c, r)| (c, -r),
        |(c, r)| (-c, -r),
        |(c, r)| (r, c),
        |(c, r)| (-r, c),
        |(c, r)| (r, -c),
        |(c, r)| (-r, -c),
    ];
    let mut shapes: Vec<[(i8, i8); 4]> = Vec::new();
    for t in transforms {
        let mut cells = base.map(t);
        let min_c = cells.iter().map(|p| p.0).min().unwrap_or(0);
        let min_r = cells.iter().map(|p| p.1).min().unwrap_or(0);
        for cell in &mut cells {
            *cell = (cell.0 - min_c, cell.1 - min_r);
        }
        cells.sort();
        if !shapes.contains(&cells) {
            shapes.push(cells);
        }
    }
    shapes
}

impl Geometry {
    fn build(board: Board) -> Geometry {
        let mut mask = Bitboard::EMPTY;
        for r in 0..board.height {
            for c in 0..board.width {
                mask |= Square::new(c, r).bit();
            }
        }
        let mut placements = Vec::new();
        for shape in l_orientations() {
            for r in 0..board.height as i8 {
                for c in 0..board.width as i8 {
                    let cells: Option<Bitboard> = shape
                        .iter()
                        .map(|&(dc, dr)| {
                            let (c2, r2) = (c + dc, r + dr);
                            (c2 < board.width as i8 && r2 < board.height as i8)
                                .then(|| Square::new(c2 as u8, r2 as u8))
                        })
                        .collect::<Option<Vec<Square>>>()
                        .map(|v| v.into_iter().collect());
                    if let Some(cells) = cells {
                        placements.push(cells);
                    }
                }
            }
        }
        placements.sort();
        let count = if board.is_square() { 8 } else { 4 };
        let symmetries: Vec<Symmetry> = Symmetry::ALL[..count].to_vec();
        let square_maps = symmetries
            .iter()
            .map(|&sym| {
                let mut map = [0u8; 64];
                for square in mask {
                    map[square.index() as usize] = sym.apply_to_square(board, square).index();
                }
                map
            })
            .collect();
        let mut geometry = Geometry {
            board,
            mask,
            placements,
            symmetries,
            square_maps,
            mirror_images: Vec::new(),
            missing_cell: Vec::new(),
            all: PlacementSet::default(),
        };
        for i in 0..geometry.placements.len() {
            geometry.all.0[i / 64] |= 1 << (i % 64);
        }
        geometry.missing_cell = (0..64u8)
            .map(|cell| {
                let mut set = PlacementSet::default();
                for (i, p) in geometry.placements.iter().enumerate() {
                    if p.0 & (1 << cell) == 0 {
                        set.0[i / 64] |= 1 << (i % 64);
                    }
                }
                set
            })
            .collect();
        geometry.mirror_images = geometry
            .placements
            .iter()
            .map(|&p| {
                let mirrors: Vec<Symmetry> = geometry.mirrors().collect();
                mirrors.iter().map(|&m| geometry.transform(m, p)).collect()
            })
            .collect();
        geometry
    }

    /// The board these tables are for.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Every L placement on the board, sorted by mask (48 on 4×4).
    pub fn placements(&self) -> &[Bitboard] {
        &self.placements
    }

    /// The position of `cells` in [`Geometry::placements`], if the cells form an L.
    pub fn placement_index(&self, cells: Bitboard) -> Option<usize> {
        self.placements.binary_search(&cells).ok()
    }

    /// Whether the cells are exactly one L placement on this board.
    pub fn is_l(&self, cells: Bitboard) -> bool {
        self.placement_index(cells).is_some()
    }

    /// The board's symmetries: 8 for a square board, 4 otherwise, identity first.
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The board's mirror lines as symmetries: the two centre lines, and the diagonals on a
    /// square board.
    pub fn mirrors(&self) -> impl Iterator<Item = Symmetry> + '_ {
        self.symmetries.iter().copied().filter(|s| s.is_mirror())
    }

    /// The placements that cover none of `cells` (by number, as a set).
    pub fn placements_avoiding(&self, cells: Bitboard) -> PlacementSet {
        let mut set = self.all;
        for cell in cells {
            let missing = &self.missing_cell[cell.index() as usize];
            for (w, m) in set.0.iter_mut().zip(missing.0) {
                *w &= m;
            }
        }
        set
    }

    /// Whether placement number `l` (of [`Geometry::placements`]) and the cells `other` are
    /// mirror images in one of the board's mirror lines.
    pub fn mirrors_each_other(&self, l: usize, other: Bitboard) -> bool {
        self.mirror_images[l].contains(&other)
    }

    /// The image of a set of cells under one of this board's symmetries.
    ///
    /// # Panics
    /// If the board does not have `symmetry` (a diagonal on a non-square board).
    pub fn transform(&self, symmetry: Symmetry, cells: Bitboard) -> Bitboard {
        let i = self
            .symmetries
            .iter()
            .position(|&s| s == symmetry)
            .expect("a symmetry of this board");
        self.transform_by_index(i, cells)
    }

    /// The image of a set of cells under the `i`-th symmetry of [`Geometry::symmetries`].
    pub fn transform_by_index(&self, i: usize, cells: Bitboard) -> Bitboard {
        let map = &self.square_maps[i];
        let mut out = 0u64;
        for square in cells {
            out |= 1 << map[square.index() as usize];
        }
        Bitboard(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l_tetromino_has_eight_orientations() {
        assert_eq!(l_orientations().len(), 8);
    }

    #[test]
    fn placements_count_follows_the_bounding_box_formula() {
        for w in 4..=8u32 {
            for h in 4..=8u32 {
                let board = Board::new(w, h).unwrap();
                let expected = 4 * (w - 2) * (h - 1) + 4 * (w - 1) * (h - 2);
                assert_eq!(
                    board.geometry().placements().len() as u32,
                    expected,
                    "{board}"
                );
            }
        }
    }

    #[test]
    fn board_sizes_outside_4_to_8_are_refused() {
        assert_eq!(
            Board::new(3, 4).unwrap_err().to_string(),
            "a 3x4 board is not supported: width and height must each be 4 to 8"
        );
        assert!("9x4".parse::<Board>().is_err());
        assert_eq!(
            "5by5".parse::<Board>().unwrap_err().to_string(),
            "'5by5' is not a board size (write it as WxH, like 5x5)"
        );
        assert_eq!("6X4".parse::<Board>().unwrap().to_string(), "6x4");
    }

    #[test]
    fn square_boards_have_eight_symmetries_and_others_four() {
        assert_eq!(Board::CLASSIC.geometry().symmetries().len(), 8);
        assert_eq!(Board::new(6, 4).unwrap().geometry().symmetries().len(), 4);
        assert_eq!(Board::CLASSIC.geometry().mirrors().count(), 4);
        assert_eq!(Board::new(6, 4).unwrap().geometry().mirrors().count(), 2);
    }

    #[test]
    fn symmetries_map_placements_to_placements() {
        for board in [Board::CLASSIC, Board::new(6, 4).unwrap()] {
            let g = board.geometry();
            for i in 0..g.symmetries().len() {
                for &p in g.placements() {
                    assert!(g.is_l(g.transform_by_index(i, p)));
                }
            }
        }
    }

    #[test]
    fn placements_avoiding_cells_are_the_placements_that_miss_them() {
        for board in [
            Board::CLASSIC,
            Board::new(8, 8).unwrap(),
            Board::new(6, 4).unwrap(),
        ] {
            let g = board.geometry();
            for cells in [0x0u64, 0x1, 0x8421, 0x0F00, 0x8000_0000_0000_0001] {
                let cells = Bitboard(cells) & board.mask();
                let set = g.placements_avoiding(cells);
                let expected: Vec<usize> = (0..g.placements().len())
                    .filter(|&i| !g.placements()[i].intersects(cells))
                    .collect();
                assert_eq!(set.iter().collect::<Vec<_>>(), expected);
                assert_eq!(set.count() as usize, expected.len());
            }
        }
    }

    #[test]
    fn corners_are_the_four_corner_cells() {
        assert_eq!(Board::CLASSIC.corners().to_cell_list(), "A1,A4,D1,D4");
        assert_eq!(
            Board::new(6, 5).unwrap().corners().to_cell_list(),
            "A1,A5,F1,F5"
        );
    }
}
