//! Moves and unmoves on bare masks, seen from the player to move: the fast path that
//! [`Position`] generates its moves with (stopping early when asked: [`Arrangement::all_moves`]
//! and [`Position::for_each_legal_move_while`]), and that retrograde analysis walks backwards
//! with.
//!
//! An [`Arrangement`] is the mover's L, the other L and the neutrals. A move puts the
//! mover's L on a new placement and moves neutrals; the arrangement after it is seen from the
//! other player: `(other, new L, new neutrals)`.

use crate::moves::Move;
use crate::position::Position;
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
    subsets_while(cells, k, &mut |chosen| {
        f(chosen);
        true
    });
}

/// Calls `f` with the `k`-element subsets of `cells` until it returns `false`; returns
/// whether it never did.
fn subsets_while(cells: &[Square], k: usize, f: &mut impl FnMut(Bitboard) -> bool) -> bool {
    fn go(
        cells: &[Square],
        k: usize,
        chosen: Bitboard,
        f: &mut impl FnMut(Bitboard) -> bool,
    ) -> bool {
        if k == 0 {
            return f(chosen);
        }
        // `k <= cells.len()` holds on every call.
        (0..=cells.len() - k).all(|i| go(&cells[i + 1..], k - 1, chosen | cells[i].bit(), f))
    }
    k > cells.len() || go(cells, k, Bitboard::EMPTY, f)
}

/// The number of k-element subsets of n things.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `f(from, to)` for the ways the neutrals may move after an L move, until it returns
/// `false`; returns whether it never did. `free` is every cell not under an L (neutral cells
/// included), `empty` the cells of `free` a neutral may move to.
fn neutral_moves_while(
    rules: &Rules,
    neutrals: Bitboard,
    (free, empty): (Bitboard, Bitboard),
    f: &mut impl FnMut(Bitboard, Bitboard) -> bool,
) -> bool {
    match rules.neutral_moves() {
        NeutralMoves::Optional | NeutralMoves::Required => {
            if rules.neutral_moves() == NeutralMoves::Optional
                && !f(Bitboard::EMPTY, Bitboard::EMPTY)
            {
                return false;
            }
            for from in neutrals {
                for to in empty {
                    if !f(from.bit(), to.bit()) {
                        return false;
                    }
                }
            }
            true
        }
        NeutralMoves::SuddenDeath => {
            let cells: Vec<Square> = free.into_iter().collect();
            subsets_while(&cells, neutrals.count() as usize, &mut |chosen| {
                f(neutrals - chosen, chosen - neutrals)
            })
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
        self.all_moves(rules, |i, l, from, to| {
            f(i, l, from, to);
            true
        });
    }

    /// Calls `f(l, new L, from, to)` for the legal moves, in the order of
    /// [`Arrangement::for_each_move`], until it returns `false`: generation stops there.
    /// Returns whether every call returned `true` (like [`Iterator::all`]).
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let rules = Rules::classic();
    /// let start = rules.start_position().arrangement();
    /// let mut seen = 0;
    /// let finished = start.all_moves(&rules, |_, _, _, _| {
    ///     seen += 1;
    ///     seen < 10
    /// });
    /// assert!(!finished);
    /// assert_eq!(seen, 10, "the tenth call said stop, and there was no eleventh");
    /// ```
    pub fn all_moves(
        &self,
        rules: &Rules,
        mut f: impl FnMut(usize, Bitboard, Bitboard, Bitboard) -> bool,
    ) -> bool {
        let g = rules.board().geometry();
        let placements = g.placements();
        let mask = rules.board().mask();
        for i in g.placements_avoiding(self.other | self.neutrals).iter() {
            let l = placements[i];
            if l == self.mover {
                continue;
            }
            let go_on = if rules.symmetry() && g.mirrors_each_other(i, self.other) {
                // The mirroring L move wins at once: no neutral moves.
                f(i, l, Bitboard::EMPTY, Bitboard::EMPTY)
            } else {
                neutral_moves_while(
                    rules,
                    self.neutrals,
                    self.free_and_targets(mask, l),
                    &mut |from, to| f(i, l, from, to),
                )
            };
            if !go_on {
                return false;
            }
        }
        true
    }

    /// The cells of `mask` outside both Ls once the mover's L is on `l`, and those of them a
    /// neutral may move to (those without a neutral).
    fn free_and_targets(&self, mask: Bitboard, l: Bitboard) -> (Bitboard, Bitboard) {
        let free = mask - (l | self.other);
        (free, free - self.neutrals)
    }

    /// The cells a neutral may move to once the mover's L is on `l`: on the board and free of
    /// both Ls and of the neutrals (move generation and the
    /// [`MoveBuilder`](crate::builder::MoveBuilder) share this).
    pub fn neutral_targets(&self, rules: &Rules, l: Bitboard) -> Bitboard {
        self.free_and_targets(rules.board().mask(), l).1
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

impl Position {
    /// Calls `f` with the legal moves, each once and in the order of
    /// [`Position::for_each_legal_move`], until it returns `false`: generation stops there
    /// (cozy-chess's early-stopping generator). Returns whether every call returned `true`,
    /// as [`Iterator::all`] does; with no legal move (a finished game) it returns `true`
    /// without a call.
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let start = Rules::classic().start_position();
    /// // The first move that moves a neutral, and no move generated after it.
    /// let (mut calls, mut found) = (0, None);
    /// let went_through = start.for_each_legal_move_while(|mv| {
    ///     calls += 1;
    ///     if mv.neutrals_from().any() {
    ///         found = Some(mv);
    ///     }
    ///     found.is_none()
    /// });
    /// assert!(!went_through);
    /// assert_eq!(calls, 2, "first the bare L move, then the same L with a neutral move");
    /// assert_eq!(found.map(|mv| mv.to_string()).as_deref(), Some("A1,A2,A3,B3 D1-B2"));
    /// ```
    pub fn for_each_legal_move_while(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        if self.is_finished() {
            return true;
        }
        self.arrangement()
            .all_moves(self.rules(), |_, l, from, to| {
                f(Move::from_parts(l, from, to))
            })
    }
}
