//! Large boards: the classic rules on boards up to 8×8 with any neutral count, solved with
//! one byte a symmetry class, on every core, with checkpoints; the result is a file that is
//! memory-mapped when probed (see `docs/large-boards.md`).
//!
//! - [`Space`]: the dense ranking of the classes. A state is (mover's L, other L, neutrals);
//!   the ordered pairs of Ls are grouped in orbits under the board's symmetries (8 on a
//!   square board, 4 on a rectangle) and only each orbit's first pair is stored, with every
//!   neutral set: slot = orbit number × C(F, K) + rank of the neutrals among the F free
//!   cells. A state maps to the smallest slot among its images.
//! - [`solve`]: retrograde analysis by levels of distance, each level in parallel (rayon).
//! - [`solve_distributed`]: the same levels on several processes (MPI ranks), each holding
//!   a share of the table, through the [`Ranks`] a caller provides.
//! - [`LargeTable`]: a solved (or checkpointed) table in a file, memory-mapped.

mod distributed;
mod file;
mod solve;

pub use distributed::{solve_distributed, DistributedOutcome, Ranks, Shares};
pub use file::{LargeFileError, LargeTable};
pub use solve::{solve, LargeOptions, LargeOutcome, LargeProgress, LargeSolveError, LossPass};

use lgame::raw::Arrangement;
use lgame::rules::NeutralMoves;
use lgame::{Bitboard, ByColor, Color, Position, Rules, Setup};

use crate::combinations::Combinations;
use crate::value::Value;

/// The byte of a decided state: distance + 1 (odd distances are wins, even ones losses);
/// 0 is undecided, a draw once the solve is over.
pub fn decode(byte: u8) -> Value {
    match byte {
        0 => Value::Draw,
        b if (b - 1) % 2 == 1 => Value::Win(u16::from(b - 1)),
        b => Value::Loss(u16::from(b - 1)),
    }
}

/// The value stored at a slot of a table.
pub fn decode_slot(table: &[u8], slot: u64) -> Value {
    decode(table[slot as usize])
}

/// The ranking of one rules value's symmetry classes.
#[derive(Debug, Clone)]
pub struct Space {
    rules: Rules,
    placements: &'static [Bitboard],
    /// For each ordered pair `a * P + b` of non-overlapping placements: its orbit's number,
    /// or `u32::MAX` when the two overlap.
    orbit_of: Vec<u32>,
    /// For the same pairs: the symmetries (bit i: the i-th of the geometry's) that take the
    /// pair to its orbit's first pair.
    to_first: Vec<u8>,
    /// Each orbit's first pair (mover's placement, other placement).
    firsts: Vec<(u16, u16)>,
    /// For each placement, the least placement among its images.
    least_image: Vec<u16>,
    /// Where each symmetry sends each cell.
    maps: Vec<[u8; 64]>,
    combinations: Combinations,
    board_mask: Bitboard,
    subsets: u64,
}

/// Why rules cannot be solved as a large board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Unsupported {}

impl Space {
    /// The ranking of `rules`' classes. Only the classic rules on any board and neutral
    /// count are supported (no misère, scoring, symmetry rule or other neutral rule): the
    /// large-board survey's question.
    pub fn new(rules: &Rules) -> Result<Space, Unsupported> {
        if rules.scoring_target().is_some()
            || rules.misere()
            || rules.symmetry()
            || rules.neutral_moves() != NeutralMoves::Optional
        {
            return Err(Unsupported(
                "the large-board solver solves the classic rules only (any board and neutral \
                 count; no misere, scoring, symmetry or other neutral rule)",
            ));
        }
        let board = rules.board();
        let g = board.geometry();
        let placements = g.placements();
        let p = placements.len();
        let maps: Vec<[u8; 64]> = (0..g.symmetries().len())
            .map(|s| {
                let mut map = [0u8; 64];
                for cell in board.mask() {
                    let image = g.transform_by_index(s, cell.bit());
                    map[cell.index() as usize] = image.0.trailing_zeros() as u8;
                }
                map
            })
            .collect();
        let image = |s: usize, i: usize| {
            g.placement_index(g.transform_by_index(s, placements[i]))
                .expect("a symmetry maps placements to placements")
        };
        let mut orbit_of = vec![u32::MAX; p * p];
        let mut firsts = Vec::new();
        for a in 0..p {
            for b in 0..p {
                if placements[a].intersects(placements[b]) || orbit_of[a * p + b] != u32::MAX {
                    continue;
                }
                let orbit = firsts.len() as u32;
                firsts.push((a as u16, b as u16));
                for s in 0..maps.len() {
                    orbit_of[image(s, a) * p + image(s, b)] = orbit;
                }
            }
        }
        let mut to_first = vec![0u8; p * p];
        for a in 0..p {
            for b in 0..p {
                let orbit = orbit_of[a * p + b];
                if orbit == u32::MAX {
                    continue;
                }
                let (fa, fb) = firsts[orbit as usize];
                for s in 0..maps.len() {
                    if (image(s, a), image(s, b)) == (fa as usize, fb as usize) {
                        to_first[a * p + b] |= 1 << s;
                    }
                }
            }
        }
        let least_image = (0..p)
            .map(|i| {
                (0..maps.len())
                    .map(|s| image(s, i) as u16)
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        let neutrals = rules.neutrals() as usize;
        let combinations = Combinations::new(neutrals);
        let subsets = combinations.count(board.cell_count() as usize - 8);
        Ok(Space {
            rules: *rules,
            placements,
            orbit_of,
            to_first,
            firsts,
            least_image,
            maps,
            combinations,
            board_mask: board.mask(),
            subsets,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of slots: a byte each.
    pub fn slots(&self) -> u64 {
        self.firsts.len() as u64 * self.subsets
    }

    /// The number of neutral sets per pair of Ls: C(F, K).
    pub fn subsets(&self) -> u64 {
        self.subsets
    }

    /// The number of orbits of pairs of Ls.
    pub fn orbits(&self) -> usize {
        self.firsts.len()
    }

    /// The board's symmetries (8 or 4).
    pub fn symmetries(&self) -> usize {
        self.maps.len()
    }

    /// The number of positions before symmetry: ordered pairs of Ls × C(F, K).
    pub fn positions(&self) -> u64 {
        self.orbit_of.iter().filter(|&&o| o != u32::MAX).count() as u64 * self.subsets
    }

    fn transform(&self, s: usize, cells: Bitboard) -> Bitboard {
        let map = &self.maps[s];
        let mut out = 0u64;
        for cell in cells {
            out |= 1 << map[cell.index() as usize];
        }
        Bitboard(out)
    }

    fn free_cells(&self, orbit: usize) -> Bitboard {
        let (a, b) = self.firsts[orbit];
        self.board_mask - (self.placements[a as usize] | self.placements[b as usize])
    }

    /// The slot of the class of (mover on placement `a`, other on `b`, `neutrals`).
    pub fn slot_of_parts(&self, a: usize, b: usize, neutrals: Bitboard) -> u64 {
        let k = a * self.placements.len() + b;
        let orbit = self.orbit_of[k] as usize;
        let free = self.free_cells(orbit);
        let mut syms = self.to_first[k];
        let mut best = u64::MAX;
        while syms != 0 {
            let s = syms.trailing_zeros() as usize;
            syms &= syms - 1;
            best = best.min(self.combinations.rank(free, self.transform(s, neutrals)));
        }
        orbit as u64 * self.subsets + best
    }

    /// The slot of a position's class, or an error when it is not under these rules.
    pub fn slot_of(&self, position: &Position) -> Option<u64> {
        if position.rules().table_rules() != self.rules.table_rules() {
            return None;
        }
        let g = self.rules.board().geometry();
        let turn = position.turn();
        let a = g.placement_index(position.l(turn))?;
        let b = g.placement_index(position.l(!turn))?;
        Some(self.slot_of_parts(a, b, position.neutrals()))
    }

    /// The slot's stored state: (mover's placement, other placement, neutrals).
    pub fn parts(&self, slot: u64) -> (usize, usize, Bitboard) {
        let orbit = (slot / self.subsets) as usize;
        let (a, b) = self.firsts[orbit];
        let neutrals = self
            .combinations
            .unrank(self.free_cells(orbit), slot % self.subsets);
        (a as usize, b as usize, neutrals)
    }

    /// The slot's placements (mover's, other) and its arrangement.
    pub(crate) fn arrangement(&self, slot: u64) -> (usize, usize, Arrangement) {
        let (a, b, neutrals) = self.parts(slot);
        (
            a,
            b,
            Arrangement {
                mover: self.placements[a],
                other: self.placements[b],
                neutrals,
            },
        )
    }

    /// The position stored at a slot, Red to move.
    pub fn position(&self, slot: u64) -> Position {
        let (a, b, neutrals) = self.parts(slot);
        let setup = Setup {
            board: self.rules.board(),
            ls: ByColor {
                red: self.placements[a],
                blue: self.placements[b],
            },
            neutrals,
            turn: Color::Red,
            scores: None,
        };
        Position::from_setup(setup, &self.rules).expect("every slot holds a position")
    }

    /// How many positions the class at `slot` stands for, or 0 when the slot is not the
    /// class's own (a pair fixed by a symmetry stores some classes twice; only the smallest
    /// slot is used).
    pub fn class_size(&self, slot: u64) -> u64 {
        let orbit = (slot / self.subsets) as usize;
        let (a, b) = self.firsts[orbit];
        let stabiliser = self.to_first[a as usize * self.placements.len() + b as usize];
        if stabiliser == 1 {
            // Only the identity keeps the pair: the class has a full orbit.
            return self.maps.len() as u64;
        }
        let rank = slot % self.subsets;
        let free = self.free_cells(orbit);
        let neutrals = self.combinations.unrank(free, rank);
        let mut fixing = 0;
        let mut syms = stabiliser;
        while syms != 0 {
            let s = syms.trailing_zeros() as usize;
            syms &= syms - 1;
            let image = self.transform(s, neutrals);
            if self.combinations.rank(free, image) < rank {
                return 0;
            }
            if image == neutrals {
                fixing += 1;
            }
        }
        self.maps.len() as u64 / fixing
    }

    /// Whether the pair of an orbit is kept by a symmetry besides the identity (its slots
    /// need [`Space::class_size`] to tell which are used).
    pub(crate) fn orbit_is_fixed(&self, orbit: usize) -> bool {
        let (a, b) = self.firsts[orbit];
        self.to_first[a as usize * self.placements.len() + b as usize] != 1
    }

    /// Where each run of orbits whose first pairs share the mover's placement begins (the
    /// first pairs are in order of the mover's placement), and the slot count at the end.
    /// A first pair's mover is the least of its placement's images, so a run holds every
    /// class whose mover's L is in one orbit of placements under the symmetries.
    pub(crate) fn mover_runs(&self) -> Vec<u64> {
        let mut starts: Vec<u64> = (0..self.firsts.len())
            .filter(|&o| o == 0 || self.firsts[o - 1].0 != self.firsts[o].0)
            .map(|o| o as u64 * self.subsets)
            .collect();
        starts.push(self.slots());
        starts
    }

    /// The first slot of the run (see [`Space::mover_runs`]) that holds every successor of
    /// an orbit's classes: after a move the other L moves next, so every successor's mover
    /// is an image of this orbit's other L.
    pub(crate) fn successors_run(&self, orbit: usize) -> u64 {
        let mover = self.least_image[self.firsts[orbit].1 as usize];
        let first = self.firsts.partition_point(|&(a, _)| a < mover);
        first as u64 * self.subsets
    }

    /// Whether a slot is its class's own (not a second copy of a class kept by a symmetry).
    pub(crate) fn is_used(&self, slot: u64) -> bool {
        !self.orbit_is_fixed((slot / self.subsets) as usize) || self.class_size(slot) > 0
    }

    /// The placements of the board.
    pub(crate) fn placements(&self) -> &'static [Bitboard] {
        self.placements
    }
}

/// A large table's figures, counted over the classes with their sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LargeStats {
    /// Positions (the classes' sizes summed).
    pub positions: u64,
    /// Symmetry classes.
    pub classes: u64,
    /// Positions where the mover cannot move their L (lost at once).
    pub trapped: u64,
    /// Positions won for the mover.
    pub won: u64,
    /// Positions lost for the mover (trapped ones included).
    pub lost: u64,
    /// Positions drawn.
    pub drawn: u64,
    /// The longest forced win in plies, if any position is won.
    pub longest_win: Option<u16>,
}

impl LargeStats {
    /// Counts the figures of a solved table (in parallel).
    pub fn of(space: &Space, table: &[u8]) -> LargeStats {
        LargeStats::of_share(space, table, 0)
    }

    /// Counts the figures of the slots from `first_slot` on held in `share`.
    pub fn of_share(space: &Space, share: &[u8], first_slot: u64) -> LargeStats {
        use rayon::prelude::*;
        let chunk = 1 << 16;
        share
            .par_chunks(chunk)
            .enumerate()
            .map(|(c, bytes)| {
                let mut s = LargeStats::default();
                for (i, &byte) in bytes.iter().enumerate() {
                    let slot = first_slot + (c * chunk + i) as u64;
                    let orbit = (slot / space.subsets) as usize;
                    let size = if space.orbit_is_fixed(orbit) {
                        space.class_size(slot)
                    } else {
                        space.maps.len() as u64
                    };
                    if size == 0 {
                        continue;
                    }
                    s.positions += size;
                    s.classes += 1;
                    match decode(byte) {
                        Value::Draw => s.drawn += size,
                        Value::Win(d) => {
                            s.won += size;
                            s.longest_win = s.longest_win.max(Some(d));
                        }
                        Value::Loss(d) => {
                            s.lost += size;
                            if d == 0 {
                                s.trapped += size;
                            }
                        }
                    }
                }
                s
            })
            .reduce(LargeStats::default, LargeStats::merge)
    }

    /// The figures of two parts of a table together.
    pub fn merge(self, other: LargeStats) -> LargeStats {
        LargeStats {
            positions: self.positions + other.positions,
            classes: self.classes + other.classes,
            trapped: self.trapped + other.trapped,
            won: self.won + other.won,
            lost: self.lost + other.lost,
            drawn: self.drawn + other.drawn,
            longest_win: self.longest_win.max(other.longest_win),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_maps_to_a_used_slot_holding_an_image_of_it() {
        for text in ["classic", "neutrals=3", "board=5x4,neutrals=2"] {
            let rules: Rules = text.parse().unwrap();
            let space = Space::new(&rules).unwrap();
            for p in lgame::position::all_positions(&rules) {
                let slot = space.slot_of(&p).unwrap();
                assert!(space.class_size(slot) > 0, "{text} {p}");
                let stored = space.position(slot);
                assert_eq!(stored.canonical(), p.canonical(), "{text} {p}");
            }
        }
    }

    #[test]
    fn other_rules_are_refused() {
        for text in ["misere", "scoring", "symmetry", "sudden-death"] {
            assert!(Space::new(&text.parse().unwrap()).is_err(), "{text}");
        }
    }
}
