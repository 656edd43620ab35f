//! A dense ranking of the position space, seen from the player to move.
//!
//! A state is (mover's L, other L, neutrals[, mover's score, other's score]). The players
//! are interchangeable, so the colour of the mover is not part of it. The index is
//!
//! ```text
//! ((scores) * pairs + pair(mover L, other L)) * C(F, K) + rank(neutrals among the F free cells)
//! ```
//!
//! where `pair` numbers the ordered pairs of non-overlapping placements, F is the number of
//! cells outside both Ls, K the number of neutrals, and `rank` the combinatorial number of
//! the neutral set among the free cells. Under scoring the scores run from 0 to target − 1
//! (a position where a player has reached the target is over and needs no entry).

use lgame::{Bitboard, ByColor, Color, Position, Rules, Setup};

use crate::combinations::{for_each_subset, Combinations};

/// The ranking of one rules value's states.
#[derive(Debug, Clone)]
pub struct StateIndex {
    rules: Rules,
    placements: &'static [Bitboard],
    /// `pair_of[m * P + o]`: the pair number, or `u32::MAX` when the two overlap.
    pair_of: Vec<u32>,
    /// The placements of each pair, as indices into `placements`.
    pairs: Vec<(u16, u16)>,
    combinations: Combinations,
    /// `below[p][c]`: the cells of placement `p` below cell `c` (in bit order); with
    /// `board_below`, the cells of the board below `c`, they give the free cells of a pair
    /// below each neutral without counting bits.
    below: Vec<[u8; 64]>,
    board_below: [u8; 64],
    /// The number of neutral sets clear of one placement.
    group_subsets: usize,
    board_mask: Bitboard,
    neutrals: usize,
    subsets: u64,
    score_sides: u64,
    len: u64,
}

impl StateIndex {
    /// The index of every state of `rules`.
    pub fn new(rules: &Rules) -> StateIndex {
        let board = rules.board();
        let placements = board.geometry().placements();
        let p = placements.len();
        let mut pair_of = vec![u32::MAX; p * p];
        let mut pairs = Vec::new();
        for (m, &pm) in placements.iter().enumerate() {
            for (o, &po) in placements.iter().enumerate() {
                if !pm.intersects(po) {
                    pair_of[m * p + o] = pairs.len() as u32;
                    pairs.push((m as u16, o as u16));
                }
            }
        }
        let free = board.cell_count() as usize - 8;
        let neutrals = rules.neutrals() as usize;
        let combinations = Combinations::new(neutrals);
        let subsets = combinations.count(free);
        let score_sides = rules.scoring_target().map_or(1, u64::from);
        let len = pairs.len() as u64 * subsets * score_sides * score_sides;
        let cells_below = |cells: Bitboard| {
            let (mut below, mut count) = ([0u8; 64], 0);
            for (c, b) in below.iter_mut().enumerate() {
                *b = count;
                count += (cells.0 >> c & 1) as u8;
            }
            below
        };
        StateIndex {
            below: placements.iter().map(|&p| cells_below(p)).collect(),
            board_below: cells_below(board.mask()),
            group_subsets: combinations.count(free + 4) as usize,
            rules: *rules,
            placements,
            pair_of,
            pairs,
            combinations,
            board_mask: board.mask(),
            neutrals,
            subsets,
            score_sides,
            len,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of indices (including, under scoring, some that are not positions).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The bytes a solved table of these rules holds in memory: two a state (its packed
    /// value) and this index's own tables (the pairs of placements).
    pub fn table_bytes(&self) -> u64 {
        let pairs = self.pair_of.len() * std::mem::size_of::<u32>()
            + self.pairs.len() * std::mem::size_of::<(u16, u16)>()
            + self.below.len() * 64;
        self.len * 2 + (pairs + std::mem::size_of::<StateIndex>()) as u64
    }

    /// Whether there are no indices (never: every board has placements).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of states with one pair of scores: all states without scoring.
    pub fn base(&self) -> u64 {
        self.pairs.len() as u64 * self.subsets
    }

    /// How many values each score runs through (1 without scoring).
    pub fn score_sides(&self) -> u64 {
        self.score_sides
    }

    /// The first index of the states where the mover has `mover` points and the other
    /// player `other`.
    pub fn score_block(&self, mover: u8, other: u8) -> u64 {
        (mover as u64 * self.score_sides + other as u64) * self.base()
    }

    fn placement(&self, cells: Bitboard) -> usize {
        self.placements
            .binary_search(&cells)
            .expect("a position's Ls are placements")
    }

    /// The index of the arrangement of placements number `mover` and `other` with these
    /// neutrals, under scores `(mover, other)` (both 0 without scoring).
    pub fn index_of_parts(
        &self,
        mover: usize,
        other: usize,
        neutrals: Bitboard,
        scores: (u8, u8),
    ) -> u64 {
        let scores = scores.0 as u64 * self.score_sides + scores.1 as u64;
        let base = scores * self.base() + self.pair_base(mover, other);
        base + self.neutral_rank(mover, other, neutrals)
    }

    /// The first index of the states with placements number `mover` and `other` (scores 0).
    #[inline(always)]
    pub(crate) fn pair_base(&self, mover: usize, other: usize) -> u64 {
        self.pair_of[mover * self.placements.len() + other] as u64 * self.subsets
    }

    /// The number of neutral sets of one pair of placements.
    pub(crate) fn subsets(&self) -> u64 {
        self.subsets
    }

    /// The placement numbers (mover's L, other L) of pair number `pair`.
    pub(crate) fn pair(&self, pair: usize) -> (usize, usize) {
        let (m, o) = self.pairs[pair];
        (m as usize, o as usize)
    }

    /// The cells outside the two placements.
    #[inline(always)]
    pub(crate) fn free_cells(&self, mover: usize, other: usize) -> Bitboard {
        self.board_mask - (self.placements[mover] | self.placements[other])
    }

    /// Calls `f(index, mover, other, neutrals)` for every state with scores 0-0, in index
    /// order (faster than [`StateIndex::parts`] one index at a time): the pairs of
    /// placements in turn, and for each the neutral sets in rank order (colex order of the
    /// free cells, which is the order of their masks squeezed to the free cells).
    #[inline(always)]
    pub fn for_each_state(&self, mut f: impl FnMut(u64, usize, usize, Bitboard)) {
        let mut index = 0u64;
        for &(m, o) in &self.pairs {
            let (m, o) = (m as usize, o as usize);
            for_each_subset(self.free_cells(m, o), self.neutrals, |neutrals| {
                f(index, m, o, neutrals);
                index += 1;
            });
        }
    }

    /// The parts of an index: the placement numbers of the mover's and the other L, the
    /// neutrals, and the scores `(mover, other)`.
    pub fn parts(&self, index: u64) -> (usize, usize, Bitboard, (u8, u8)) {
        let rank = index % self.subsets;
        let rest = index / self.subsets;
        let pair = (rest % self.pairs.len() as u64) as usize;
        let scores = rest / self.pairs.len() as u64;
        let (m, o) = self.pairs[pair];
        let (m, o) = (m as usize, o as usize);
        let free = self.free_cells(m, o);
        let scores = (
            (scores / self.score_sides) as u8,
            (scores % self.score_sides) as u8,
        );
        (m, o, self.combinations.unrank(free, rank), scores)
    }

    /// The index of a position, or `None` when it is over by the scores (a player has
    /// reached the target), which the table does not hold.
    pub fn index_of(&self, position: &Position) -> Option<u64> {
        let turn = position.turn();
        let scores = position.scores();
        let (mover_score, other_score) = (scores[turn], scores[!turn]);
        if mover_score as u64 >= self.score_sides || other_score as u64 >= self.score_sides {
            return None;
        }
        let mover = self.placement(position.l(turn));
        let other = self.placement(position.l(!turn));
        Some(self.index_of_parts(
            mover,
            other,
            position.neutrals(),
            (mover_score, other_score),
        ))
    }

    /// The rank of `neutrals` among the cells outside placements number `mover` and `other`:
    /// `rank(free_cells(mover, other), neutrals)`, by table.
    #[inline(always)]
    pub(crate) fn neutral_rank(&self, mover: usize, other: usize, neutrals: Bitboard) -> u64 {
        let (m, o) = (&self.below[mover], &self.below[other]);
        self.combinations
            .rank_by(neutrals, |c| (self.board_below[c] - m[c] - o[c]) as usize)
    }

    /// How many (placement, neutral set clear of it) there are: the level method's groups.
    pub(crate) fn placement_groups(&self) -> usize {
        self.placements.len() * self.group_subsets
    }

    /// The number of placement number `placement` with `neutrals` (clear of it), dense below
    /// [`StateIndex::placement_groups`].
    #[inline(always)]
    pub(crate) fn placement_group(&self, placement: usize, neutrals: Bitboard) -> usize {
        let below = &self.below[placement];
        let rank = self
            .combinations
            .rank_by(neutrals, |c| (self.board_below[c] - below[c]) as usize);
        placement * self.group_subsets + rank as usize
    }

    /// The combinatorial rank of `chosen` among the cells of `free`.
    #[inline(always)]
    pub(crate) fn rank(&self, free: Bitboard, chosen: Bitboard) -> u64 {
        self.combinations.rank(free, chosen)
    }

    /// The arrangement at `index`, Red to move (the colours are interchangeable). Under
    /// scoring it may not be a position: see [`StateIndex::position`].
    pub fn setup(&self, index: u64) -> Setup {
        let (m, o, neutrals, scores) = self.parts(index);
        Setup {
            board: self.rules.board(),
            ls: ByColor {
                red: self.placements[m],
                blue: self.placements[o],
            },
            neutrals,
            turn: Color::Red,
            scores: self.rules.scoring_target().map(|_| ByColor {
                red: scores.0,
                blue: scores.1,
            }),
        }
    }

    /// The position at `index`, Red to move, or `None` for an index that is not a position
    /// (under scoring, a trapped mover whose pieces would already be reset).
    pub fn position(&self, index: u64) -> Option<Position> {
        Position::from_setup(self.setup(index), &self.rules).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_index_has_656_pairs_times_28_neutral_sets() {
        let index = StateIndex::new(&Rules::classic());
        assert_eq!(index.len(), 18_368);
        assert_eq!(index.base(), 656 * 28);
    }

    #[test]
    fn states_are_enumerated_in_index_order() {
        for text in [
            "classic",
            "neutrals=0",
            "neutrals=3",
            "board=5x4,neutrals=1",
        ] {
            let index = StateIndex::new(&text.parse().unwrap());
            let mut expected = 0;
            index.for_each_state(|i, m, o, neutrals| {
                assert_eq!(i, expected);
                assert_eq!(index.parts(i), (m, o, neutrals, (0, 0)), "{text} {i}");
                expected += 1;
            });
            assert_eq!(expected, index.base());
        }
    }

    #[test]
    fn neutral_ranks_by_table_are_the_ranks_among_the_free_cells() {
        for text in ["classic", "neutrals=3", "board=5x4,neutrals=1"] {
            let index = StateIndex::new(&text.parse().unwrap());
            index.for_each_state(|i, m, o, neutrals| {
                let rank = index.rank(index.free_cells(m, o), neutrals);
                assert_eq!(index.neutral_rank(m, o, neutrals), rank, "{text} {i}");
                assert_eq!(index.pair_base(m, o) + rank, i, "{text} {i}");
            });
        }
    }

    #[test]
    fn every_index_decodes_to_a_position_that_encodes_back() {
        for text in [
            "classic",
            "neutrals=3",
            "board=5x4,neutrals=1",
            "scoring,target=2",
        ] {
            let rules: Rules = text.parse().unwrap();
            let index = StateIndex::new(&rules);
            let mut positions = 0;
            for i in 0..index.len() {
                if let Some(p) = index.position(i) {
                    positions += 1;
                    assert_eq!(index.index_of(&p), Some(i), "{text} {p}");
                }
            }
            assert!(positions > 0);
        }
    }
}
