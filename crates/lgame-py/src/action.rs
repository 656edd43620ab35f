//! The fixed action space for learning: a move is named by its result, the mover's new L and
//! the set of cells the neutrals stand on afterwards.
//!
//! `action = placement_index(new L) × C(W·H, K) + colex_rank(neutral cells)`, with the
//! placement index in `Geometry::placements()` and cell index `row × W + column`; the colex
//! rank of cells `c₀ < c₁ < …` is `Σ C(cᵢ, i + 1)`.

use lgame::board::Geometry;
use lgame::{Bitboard, Move, Position, Rules, Square};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// C(n, k) for n ≤ 64 cells and k ≤ 8 neutrals (`lgame::rules::MAX_NEUTRALS`).
const BINOMIAL: [[u64; 9]; 65] = {
    let mut t = [[0u64; 9]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 9 && n > 0 {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// Masks longer than this are refused (boards up to 8×8 with 8 neutrals have ~10¹² actions).
const MAX_MASK: u64 = 1 << 28;

pub(crate) struct Encoding {
    rules: Rules,
    geometry: &'static Geometry,
    width: u8,
    cells: u32,
    neutrals: usize,
    combinations: u64,
}

impl Encoding {
    pub(crate) fn new(rules: &Rules) -> Encoding {
        let board = rules.board();
        let cells = board.cell_count();
        let neutrals = rules.neutrals() as usize;
        Encoding {
            rules: *rules,
            geometry: board.geometry(),
            width: board.width(),
            cells,
            neutrals,
            combinations: BINOMIAL[cells as usize][neutrals],
        }
    }

    pub(crate) fn count(&self) -> u64 {
        self.geometry.placements().len() as u64 * self.combinations
    }

    pub(crate) fn mask_len(&self) -> PyResult<usize> {
        let count = self.count();
        if count > MAX_MASK {
            return Err(PyValueError::new_err(format!(
                "the {} rules have {count} actions, too many for a mask: use legal_actions()",
                self.rules
            )));
        }
        Ok(count as usize)
    }

    fn cell(&self, square: Square) -> u32 {
        square.row() as u32 * self.width as u32 + square.column() as u32
    }

    fn rank(&self, neutrals: Bitboard) -> u64 {
        // Bitboard order (row × 8 + column) is the same order as row × W + column.
        neutrals
            .into_iter()
            .enumerate()
            .map(|(i, sq)| BINOMIAL[self.cell(sq) as usize][i + 1])
            .sum()
    }

    fn unrank(&self, mut rank: u64) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        let mut below = self.cells;
        for i in (1..=self.neutrals).rev() {
            // The largest cell c < below with C(c, i) ≤ rank.
            let mut c = below - 1;
            while BINOMIAL[c as usize][i] > rank {
                c -= 1;
            }
            rank -= BINOMIAL[c as usize][i];
            let w = self.width as u32;
            set |= Square::new((c % w) as u8, (c / w) as u8).bit();
            below = c;
        }
        set
    }

    /// The action naming a move's result in `position`; `None` if the L is not a placement.
    pub(crate) fn encode(&self, position: &Position, mv: &Move) -> Option<u64> {
        let placement = self.geometry.placement_index(mv.l())? as u64;
        let after = (position.neutrals() - mv.neutrals_from()) | mv.neutrals_to();
        Some(placement * self.combinations + self.rank(after))
    }

    /// Calls `f` with the action of every legal move in `position`, in generation order.
    /// The generator hands over the new L's placement index, so no lookup is needed.
    pub(crate) fn for_each_legal_action(&self, position: &Position, mut f: impl FnMut(u64)) {
        if position.is_finished() {
            return;
        }
        let before = position.neutrals();
        position
            .arrangement()
            .for_each_move(&self.rules, |placement, _, from, to| {
                f(placement as u64 * self.combinations + self.rank((before - from) | to))
            });
    }

    /// The move an action names in `position` (not yet checked for legality).
    pub(crate) fn decode(&self, position: &Position, action: u64) -> PyResult<Move> {
        let count = self.count();
        if action >= count {
            return Err(PyValueError::new_err(format!(
                "action {action} is out of range: the {} rules have {count} actions",
                self.rules
            )));
        }
        let l = self.geometry.placements()[(action / self.combinations) as usize];
        let after = self.unrank(action % self.combinations);
        let before = position.neutrals();
        let from: Vec<Square> = (before - after).into_iter().collect();
        let to: Vec<Square> = (after - before).into_iter().collect();
        if from.len() != to.len() {
            return Err(PyValueError::new_err(format!(
                "action {action} does not name a move here: it changes the number of neutrals"
            )));
        }
        let pairs: Vec<(Square, Square)> = from.into_iter().zip(to).collect();
        Move::new(l, &pairs).map_err(|e| {
            PyValueError::new_err(format!("action {action} does not name a move here: {e}"))
        })
    }
}
