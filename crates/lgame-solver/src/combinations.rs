//! Sets of K cells among a position's free cells, numbered densely from 0 to C(F, K) − 1 by
//! the combinatorial number system (colex order): how both solvers, the in-memory
//! [`StateIndex`](crate::StateIndex) and the large-board one, rank a position's neutrals.

use lgame::Bitboard;

/// Calls `f` with every set of `k` cells among the cells of `free`, in rank order (colex
/// order, which is the order of their masks squeezed to the free cells).
#[inline(always)]
pub(crate) fn for_each_subset(free: Bitboard, k: usize, mut f: impl FnMut(Bitboard)) {
    let mut cells = [0u64; 64];
    let mut count = 0u32;
    for cell in free {
        cells[count as usize] = cell.bit().0;
        count += 1;
    }
    if k as u32 > count {
        return;
    }
    // Gosper's hack: the k-bit numbers below 2^count in increasing order.
    let mut x: u64 = (1u64 << k) - 1;
    let end = 1u64 << count;
    while x < end {
        let mut chosen = 0u64;
        let mut bits = x;
        while bits != 0 {
            chosen |= cells[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        f(Bitboard(chosen));
        if x == 0 {
            break;
        }
        let c = x & x.wrapping_neg();
        let r = x + c;
        // c is a power of two: a shift instead of a division.
        x = (((r ^ x) >> 2) >> c.trailing_zeros()) | r;
    }
}

/// Binomial coefficients C(n, k) for n ≤ 64, k ≤ 8.
fn binomials() -> [[u64; 9]; 65] {
    let mut c = [[0u64; 9]; 65];
    for n in 0..=64 {
        c[n][0] = 1;
        for k in 1..=8.min(n) {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
        }
    }
    c
}

/// The numbering of the sets of `k` cells (k ≤ 8) among a set of free cells.
#[derive(Debug, Clone)]
pub(crate) struct Combinations {
    binom: [[u64; 9]; 65],
    k: usize,
}

impl Combinations {
    pub(crate) fn new(k: usize) -> Combinations {
        assert!(k <= 8, "at most 8 cells are chosen");
        Combinations {
            binom: binomials(),
            k,
        }
    }

    /// How many sets of `k` cells there are among `free_cells` cells: C(free_cells, k).
    pub(crate) fn count(&self, free_cells: usize) -> u64 {
        self.binom[free_cells][self.k]
    }

    /// The rank of `chosen` (k cells) among the cells of `free`.
    #[inline(always)]
    pub(crate) fn rank(&self, free: Bitboard, chosen: Bitboard) -> u64 {
        self.rank_by(chosen, |cell| {
            (free.0 & ((1u64 << cell) - 1)).count_ones() as usize
        })
    }

    /// The rank of `chosen` (k cells) among free cells of which `free_below(cell)` lie below
    /// each chosen cell (a caller with a table of those counts spares counting bits).
    #[inline(always)]
    pub(crate) fn rank_by(&self, chosen: Bitboard, free_below: impl Fn(usize) -> usize) -> u64 {
        let mut rank = 0;
        let mut bits = chosen.0;
        let mut i = 1;
        while bits != 0 {
            rank += self.binom[free_below(bits.trailing_zeros() as usize)][i];
            i += 1;
            bits &= bits - 1;
        }
        rank
    }

    /// The set of `k` cells among the cells of `free` whose rank is `rank`.
    pub(crate) fn unrank(&self, free: Bitboard, mut rank: u64) -> Bitboard {
        let mut cells = [0u8; 64];
        let mut count = 0;
        for cell in free {
            cells[count] = cell.index();
            count += 1;
        }
        let mut chosen = 0u64;
        let mut c = count;
        for i in (1..=self.k).rev() {
            // The largest c with C(c, i) <= rank.
            c -= 1;
            while self.binom[c][i] > rank {
                c -= 1;
            }
            rank -= self.binom[c][i];
            chosen |= 1 << cells[c];
        }
        Bitboard(chosen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set of k cells among a free set is ranked once, 0..C(F, k), and unranked back.
    #[test]
    fn ranks_are_dense_and_unrank_inverts_them() {
        let free = Bitboard(0b1011_0110_1101);
        let cells: Vec<u64> = (0..64).filter(|c| free.0 >> c & 1 == 1).collect();
        for k in 0..=4 {
            let combinations = Combinations::new(k);
            let mut seen = vec![false; combinations.count(cells.len()) as usize];
            for mask in 0u64..1 << cells.len() {
                if mask.count_ones() as usize != k {
                    continue;
                }
                let chosen = Bitboard(
                    cells
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask >> i & 1 == 1)
                        .fold(0, |set, (_, c)| set | 1 << c),
                );
                let rank = combinations.rank(free, chosen);
                assert!(!seen[rank as usize], "rank {rank} given twice");
                seen[rank as usize] = true;
                assert_eq!(combinations.unrank(free, rank), chosen);
            }
            assert!(seen.iter().all(|&s| s), "k = {k}: a rank left out");
        }
    }
}
