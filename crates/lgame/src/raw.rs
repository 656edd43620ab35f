//! Moves and unmoves on bare masks, seen from the player to move: the fast path that
//! [`Position`](crate::Position) generates its moves with, and that retrograde analysis
//! walks backwards with.
//!
//! An [`Arrangement`] is the mover's L, the other L and the neutrals. A move puts the
//! mover's L on a new placement and moves neutrals; the arrangement after it is seen from the
//! other player: `(other, new L, new neutrals)`.

use crate::rules::{NeutralMoves, Rules};
use crate::square::{Bitboard, Square};

/// The pieces from the side of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrangement {
    /// The cells of the mover's L.
    pub mover: Bitboard,
    /// The cells of the other player's L.
    pub other: Bitboard,
    /// The cells holding neutrals.
    pub neutrals: Bitboard,
}

/// Calls `f` with every `k`-element subset of `cells`.
pub(crate) fn for_each_subset(cells: &[Square], k: usize, f: &mut impl FnMut(Bitboard)) {
    fn go(cells: &[Square], k: usize, chosen: Bitboard, f: &mut impl FnMut(Bitboard)) {
        if k == 0 {
            f(chosen);
            return;
        }
        // `k <= cells.len()` holds on every call.
        for i in 0..=cells.len() - k {
            go(&cells[i + 1..], k - 1, chosen | cells[i].bit(), f);
        }
    }
    if k <= cells.len() {
        go(cells, k, Bitboard::EMPTY, f);
    }
}

/// The number of k-element subsets of n things.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `f(from, to)` for every way the neutrals may move after an L move, where `free`
/// is every cell not under an L (neutral cells included).
fn for_each_neutral_move(
    rules: &Rules,
    neutrals: Bitboard,
    free: Bitboard,
    f: &mut impl FnMut(Bitboard, Bitboard),
) {
    let empty = free - neutrals;
    match rules.neutral_moves() {
        NeutralMoves::Optional | NeutralMoves::Required => {
            if rules.neutral_moves() == NeutralMoves::Optional {
                f(Bitboard::EMPTY, Bitboard::EMPTY);
            }
            for from in neutrals {
                for to in empty {
                    f(from.bit(), to.bit());
                }
            }
        }
        NeutralMoves::SuddenDeath => {
            let cells: Vec<Square> = free.into_iter().collect();
            for_each_subset(&cells, neutrals.count() as usize, &mut |chosen| {
                f(neutrals - chosen, chosen - neutrals)
            });
        }
    }
}

impl Arrangement {
    /// Whether the symmetry rule has ended the game: the Ls mirror each other.
    pub fn is_mirrored(&self, rules: &Rules) -> bool {
        let g = rules.board().geometry();
        rules.symmetry()
            && g.placement_index(self.mover)
                .is_some_and(|i| g.mirrors_each_other(i, self.other))
    }

    /// Calls `f(l, new L, from, to)` for every legal move, where `l` is the new L's number in
    /// the geometry's placements and `from`/`to` the cells neutrals leave and enter. The
    /// caller checks first that the game is not over (a trapped mover simply has no moves).
    pub fn for_each_move(
        &self,
        rules: &Rules,
        mut f: impl FnMut(usize, Bitboard, Bitboard, Bitboard),
    ) {
        let g = rules.board().geometry();
        let placements = g.placements();
        for i in g.placements_avoiding(self.other | self.neutrals).iter() {
            let l = placements[i];
            if l == self.mover {
                continue;
            }
            if rules.symmetry() && g.mirrors_each_other(i, self.other) {
                // The mirroring L move wins at once: no neutral moves.
                f(i, l, Bitboard::EMPTY, Bitboard::EMPTY);
                continue;
            }
            let free = rules.board().mask() - (l | self.other);
            for_each_neutral_move(rules, self.neutrals, free, &mut |from, to| {
                f(i, l, from, to)
            });
        }
    }

    /// Calls `f(l, new L, from, to)` for the legal moves until it returns `false`; returns
    /// whether every call returned `true`.
    pub fn all_moves(
        &self,
        rules: &Rules,
        mut f: impl FnMut(usize, Bitboard, Bitboard, Bitboard) -> bool,
    ) -> bool {
        let mut all = true;
        self.for_each_move(rules, |i, l, from, to| {
            if all {
                all = f(i, l, from, to);
            }
        });
        all
    }

    /// The number of placements the mover may put their L on.
    pub fn l_move_count(&self, rules: &Rules) -> u32 {
        let g = rules.board().geometry();
        // The mover's own placement is free of the other pieces too: count it, take it off.
        g.placements_avoiding(self.other | self.neutrals)
            .count()
            .saturating_sub(1)
    }
    /// Calls `f(l, previous L)` for every arrangement from which a bare L move (no neutral
    /// moved) leads here: the previous mover had their L on placement number `l`, the
    /// neutrals where they are now. Arrangements where the game was already over (mirrored
    /// Ls) are left out. Under `neutral-required` only a move that mirrors is bare.
    pub fn for_each_bare_unmove(&self, rules: &Rules, mut f: impl FnMut(usize, Bitboard)) {
        let g = rules.board().geometry();
        let (m, o) = (self.mover, self.other);
        let bare_allowed =
            rules.neutral_moves() != NeutralMoves::Required || self.is_mirrored(rules);
        if !bare_allowed {
            return;
        }
        let placements = g.placements();
        for i in g.placements_avoiding(m | self.neutrals).iter() {
            let l = placements[i];
            if l == o || (rules.symmetry() && g.mirrors_each_other(i, m)) {
                continue;
            }
            f(i, l);
        }
    }

    /// The number of legal moves, counted without generating them.
    pub fn move_count(&self, rules: &Rules) -> u64 {
        let g = rules.board().geometry();
        let k = self.neutrals.count() as u64;
        let empty = rules.board().cell_count() as u64 - 8 - k;
        let options = match rules.neutral_moves() {
            NeutralMoves::Optional => 1 + k * empty,
            NeutralMoves::Required => k * empty,
            NeutralMoves::SuddenDeath => choose(k + empty, k),
        };
        let free = g.placements_avoiding(self.other | self.neutrals);
        if !rules.symmetry() {
            // The mover's own placement is free of the other pieces too: count it, take it off.
            return (free.count() as u64).saturating_sub(1) * options;
        }
        let mut count = 0;
        for i in free.iter() {
            if g.placements()[i] == self.mover {
                continue;
            }
            count += if g.mirrors_each_other(i, self.other) {
                1
            } else {
                options
            };
        }
        count
    }

    /// Calls `f(l, previous L, previous neutrals)` for every arrangement that has a legal
    /// move leading here: the previous mover (now `other`) had their L on placement number
    /// `l` and the neutrals on `previous neutrals`; the previous other L is `self.mover`.
    /// Arrangements where the game was already over (mirrored Ls) are left out.
    pub fn for_each_unmove(&self, rules: &Rules, mut f: impl FnMut(usize, Bitboard, Bitboard)) {
        let g = rules.board().geometry();
        let (m, o, n) = (self.mover, self.other, self.neutrals);
        let outside_ls = rules.board().mask() - (m | o);
        let mirrored = self.is_mirrored(rules);
        // The previous mover's L: anywhere but `o`, clear of `m`, not already mirroring it.
        let placements = g.placements();
        let candidates = g
            .placements_avoiding(m)
            .iter()
            .map(|i| (i, placements[i]))
            .filter(|&(i, l)| l != o && !(rules.symmetry() && g.mirrors_each_other(i, m)));
        if mirrored {
            // Only a bare L move makes the mirror.
            for (i, l) in candidates {
                if !l.intersects(n) {
                    f(i, l, n);
                }
            }
            return;
        }
        match rules.neutral_moves() {
            NeutralMoves::Optional | NeutralMoves::Required => {
                let bare = rules.neutral_moves() == NeutralMoves::Optional;
                // One neutral moved from `from` (a cell free of both Ls, not a neutral now) to
                // `to` (a neutral now). The previous L must miss the previous neutrals
                // (n − to) | from, so it covers at most one neutral now, and that one moved.
                let origins = outside_ls - n;
                for (i, l) in candidates {
                    let covered = l & n;
                    let arrivals = match covered.count() {
                        0 => {
                            if bare {
                                f(i, l, n);
                            }
                            n
                        }
                        1 => covered,
                        _ => continue,
                    };
                    for to in arrivals {
                        for from in origins - l {
                            f(i, l, (n - to.bit()) | from.bit());
                        }
                    }
                }
            }
            NeutralMoves::SuddenDeath => {
                let candidates: Vec<(usize, Bitboard)> = candidates.collect();
                let cells: Vec<Square> = outside_ls.into_iter().collect();
                for_each_subset(&cells, n.count() as usize, &mut |neutrals| {
                    for &(i, l) in &candidates {
                        if !l.intersects(neutrals) {
                            f(i, l, neutrals);
                        }
                    }
                });
            }
        }
    }
}
