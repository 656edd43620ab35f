//! The fixed action space for learning: a move is named by its result, the mover's new L and
//! the set of cells the neutrals stand on afterwards.
//!
//! `action = placement_index(new L) × C(W·H, K) + colex_rank(neutral cells)`, with the
//! placement index in `Geometry::placements()` and cell index `row × W + column`; the colex
//! rank of cells `c₀ < c₁ < …` is `Σ C(cᵢ, i + 1)`.

use lgame::board::Geometry;
use lgame::rules::MAX_NEUTRALS;
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

#[derive(Clone, Copy)]
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

    /// A bound on the legal moves of any position: each names its result, a placement and
    /// the neutrals' cells among the cells both Ls leave free.
    pub(crate) fn max_legal(&self) -> u64 {
        let free = self.cells.saturating_sub(8) as usize;
        let results = self.geometry.placements().len() as u64 * BINOMIAL[free][self.neutrals];
        results.min(self.count())
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

    /// The action of the move that puts the mover's L on placement number `placement` and
    /// moves neutrals from the cells `from` to the cells `to`, from the neutrals `before`.
    fn action_of_parts(
        &self,
        before: Bitboard,
        placement: usize,
        from: Bitboard,
        to: Bitboard,
    ) -> u64 {
        placement as u64 * self.combinations + self.rank((before - from) | to)
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
                f(self.action_of_parts(before, placement, from, to))
            });
    }

    /// The number of legal moves of a position that is not over (the caller knows it: the
    /// vectorized environment's game has no conclusion), counted without generating them.
    pub(crate) fn move_count_in_play(&self, position: &Position) -> u64 {
        position.arrangement().move_count(&self.rules)
    }

    /// The action of legal move number `k` (in generation order, below
    /// [`Encoding::move_count_in_play`]) of a position that is not over; `None` past the
    /// last.
    pub(crate) fn nth_action_in_play(&self, position: &Position, mut k: u64) -> Option<u64> {
        let before = position.neutrals();
        let mut found = None;
        position
            .arrangement()
            .all_moves(&self.rules, |placement, _, from, to| {
                if k == 0 {
                    found = Some(self.action_of_parts(before, placement, from, to));
                    return false;
                }
                k -= 1;
                true
            });
        found
    }

    /// The move an action names in `position` (not yet checked for legality).
    pub(crate) fn decode(&self, position: &Position, action: u64) -> PyResult<Move> {
        self.decode_move(position, action)
            .map_err(PyValueError::new_err)
    }

    /// [`Encoding::decode`] with the reason as text (no allocation on success: the vector
    /// environment decodes every action it steps).
    pub(crate) fn decode_move(&self, position: &Position, action: u64) -> Result<Move, String> {
        let count = self.count();
        if action >= count {
            return Err(format!(
                "action {action} is out of range: the {} rules have {count} actions",
                self.rules
            ));
        }
        let l = self.geometry.placements()[(action / self.combinations) as usize];
        let after = self.unrank(action % self.combinations);
        let before = position.neutrals();
        let (from, to) = (before - after, after - before);
        if from.count() != to.count() {
            return Err(format!(
                "action {action} does not name a move here: it changes the number of neutrals"
            ));
        }
        let mut pairs = [(Square::new(0, 0), Square::new(0, 0)); MAX_NEUTRALS as usize];
        let mut n = 0;
        for (f, t) in from.into_iter().zip(to) {
            pairs[n] = (f, t);
            n += 1;
        }
        Move::new(l, &pairs[..n])
            .map_err(|e| format!("action {action} does not name a move here: {e}"))
    }
}
