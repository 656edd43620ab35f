//! The trapped counts of `docs/analysis/large-boards.tsv` (what `cargo xtask report-large`
//! solved, up to 10¹⁰ positions and more) against a count that shares no code with the solver
//! nor the rules crate: the L's placements drawn here from its shape, and the neutral
//! placements that trap the mover counted as hitting sets, not enumerated.
//!
//! The mover is trapped when every placement of their L other than its own, clear of the
//! other L, holds a neutral. Such a placement's cells outside the mover's own L (where no
//! neutral can be) are a set every trapping choice of neutrals must hit: the count for a pair
//! of Ls is the number of K-cell sets of the free cells that hit every one of them.

use std::collections::HashSet;
use std::path::Path;

/// A set of cells: bit `y * width + x`.
type Cells = u64;

/// Every placement of the L (three in a line and one beside an end) on a `width` × `height`
/// board: its eight turns and mirror images, each where it fits, each set counted once.
fn placements(width: i32, height: i32) -> Vec<Cells> {
    let shape = [(0, 0), (0, 1), (0, 2), (1, 2)];
    let mut seen = HashSet::new();
    for turn in 0..8 {
        let cells: Vec<(i32, i32)> = shape
            .iter()
            .map(|&(x, y)| {
                let (x, y) = if turn & 4 != 0 { (-x, y) } else { (x, y) };
                match turn & 3 {
                    0 => (x, y),
                    1 => (-y, x),
                    2 => (-x, -y),
                    _ => (y, -x),
                }
            })
            .collect();
        for dx in -3..width + 3 {
            for dy in -3..height + 3 {
                let moved: Vec<(i32, i32)> = cells.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
                if moved
                    .iter()
                    .all(|&(x, y)| (0..width).contains(&x) && (0..height).contains(&y))
                {
                    seen.insert(
                        moved
                            .iter()
                            .fold(0, |set, &(x, y)| set | 1 << (y * width + x)),
                    );
                }
            }
        }
    }
    seen.into_iter().collect()
}

fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |c, i| c * u64::from(n - i) / u64::from(i + 1))
}

/// The `k`-cell subsets of `allowed` that hit every set of `must_hit` (each within the free
/// cells). Branches on a set not yet hit: its first allowed cell taken, or that cell ruled
/// out and the next taken, …, so that each subset is counted once.
fn hitting_sets(must_hit: &[Cells], allowed: Cells, k: u32) -> u64 {
    let Some(&unhit) = must_hit
        .iter()
        .min_by_key(|&&set| (set & allowed).count_ones())
    else {
        return binomial(allowed.count_ones(), k);
    };
    let mut choices = unhit & allowed;
    if k == 0 || choices == 0 {
        return 0;
    }
    let mut allowed = allowed;
    let mut count = 0;
    while choices != 0 {
        let cell = choices & choices.wrapping_neg();
        choices &= !cell;
        allowed &= !cell;
        let rest: Vec<Cells> = must_hit
            .iter()
            .copied()
            .filter(|&set| set & cell == 0)
            .collect();
        count += hitting_sets(&rest, allowed, k - 1);
    }
    count
}

/// The positions of a `width` × `height` board with `neutrals` neutrals whose mover cannot
/// move their L.
fn trapped(width: i32, height: i32, neutrals: u32) -> u64 {
    let all = placements(width, height);
    let board: Cells = if width * height == 64 {
        u64::MAX
    } else {
        (1 << (width * height)) - 1
    };
    let mut count = 0;
    for &mine in &all {
        for &theirs in &all {
            if mine & theirs != 0 {
                continue;
            }
            let free = board & !mine & !theirs;
            let must_hit: Vec<Cells> = all
                .iter()
                .filter(|&&p| p != mine && p & theirs == 0)
                .map(|&p| p & !mine)
                .collect();
            count += hitting_sets(&must_hit, free, neutrals);
        }
    }
    count
}

#[test]
fn the_classic_board_has_its_published_trapped_count() {
    // 15 classes of 8 (the encyclopedia article), and no trapped position without neutrals.
    assert_eq!(placements(4, 4).len(), 48);
    assert_eq!(trapped(4, 4, 2), 120);
    assert_eq!(trapped(4, 4, 0), 0);
}

#[test]
fn every_trapped_count_in_the_results_file_equals_the_hitting_set_count() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/analysis/large-boards.tsv");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut header = text.lines().next().unwrap().split('\t');
    assert_eq!(header.nth(4), Some("trapped"), "{}", file.display());
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (w, h) = fields[0].split_once('x').unwrap();
        let (width, height): (i32, i32) = (w.parse().unwrap(), h.parse().unwrap());
        let neutrals: u32 = fields[1].parse().unwrap();
        let recorded: u64 = fields[4].parse().unwrap();
        assert_eq!(
            trapped(width, height, neutrals),
            recorded,
            "{}×{} with {} neutrals",
            width,
            height,
            neutrals
        );
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} rows in {}", file.display());
}
