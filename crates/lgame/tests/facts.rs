//! The facts of rules.md for the classic game, each computed two independent ways: by the
//! library, and by a brute force written here from the rules' wording (cells as (column,
//! row) pairs, Ls found among all 4-cell subsets, moves built cell by cell).

use std::collections::HashSet;

use lgame::position::all_positions;
use lgame::{Bitboard, Position, Rules, Square};

type Cell = (i32, i32);

/// All cells of the 4×4 board.
fn cells() -> Vec<Cell> {
    (0..4).flat_map(|r| (0..4).map(move |c| (c, r))).collect()
}

fn mask(cells: &[Cell]) -> u64 {
    cells.iter().fold(0, |m, &(c, r)| m | 1 << (r * 8 + c))
}

fn unmask(m: u64) -> Vec<Cell> {
    cells()
        .into_iter()
        .filter(|&(c, r)| m & (1 << (r * 8 + c)) != 0)
        .collect()
}

/// The rules' wording: three cells in a line plus one attached at an end, perpendicular.
/// Equivalently: the bounding box is 2×3 or 3×2, one long side is full, and the fourth cell
/// sits at an end of the other long side.
fn is_l_shape(cells: &[Cell]) -> bool {
    if cells.len() != 4 {
        return false;
    }
    let min_c = cells.iter().map(|p| p.0).min().unwrap();
    let max_c = cells.iter().map(|p| p.0).max().unwrap();
    let min_r = cells.iter().map(|p| p.1).min().unwrap();
    let max_r = cells.iter().map(|p| p.1).max().unwrap();
    // Work in a box 2 wide and 3 tall, transposing if needed.
    let local: Vec<Cell> = if max_c - min_c == 1 && max_r - min_r == 2 {
        cells.iter().map(|&(c, r)| (c - min_c, r - min_r)).collect()
    } else if max_c - min_c == 2 && max_r - min_r == 1 {
        cells.iter().map(|&(c, r)| (r - min_r, c - min_c)).collect()
    } else {
        return false;
    };
    (0..2).any(|full| {
        let line = (0..3).all(|r| local.contains(&(full, r)));
        let other: Vec<i32> = local.iter().filter(|p| p.0 != full).map(|p| p.1).collect();
        line && other.len() == 1 && (other[0] == 0 || other[0] == 2)
    })
}

/// Every L placement, by brute force over the 1,820 four-cell subsets.
fn brute_force_placements() -> Vec<u64> {
    let all = cells();
    let mut out = Vec::new();
    for a in 0..16 {
        for b in a + 1..16 {
            for c in b + 1..16 {
                for d in c + 1..16 {
                    let set = [all[a], all[b], all[c], all[d]];
                    if is_l_shape(&set) {
                        out.push(mask(&set));
                    }
                }
            }
        }
    }
    out
}

/// The eight symmetries of the square as functions on cells.
fn square_symmetries() -> Vec<fn(Cell) -> Cell> {
    vec![
        |(c, r)| (c, r),
        |(c, r)| (3 - c, r),
        |(c, r)| (c, 3 - r),
        |(c, r)| (3 - c, 3 - r),
        |(c, r)| (r, c),
        |(c, r)| (3 - r, 3 - c),
        |(c, r)| (r, 3 - c),
        |(c, r)| (3 - r, c),
    ]
}

fn map_mask(f: fn(Cell) -> Cell, m: u64) -> u64 {
    mask(&unmask(m).into_iter().map(f).collect::<Vec<_>>())
}

/// A position from the mover's side: (mover's L, other L, neutrals).
type Brute = (u64, u64, u64);

/// Every position with the player to move given, by brute force.
fn brute_force_positions() -> Vec<Brute> {
    let ls = brute_force_placements();
    let board = mask(&cells());
    let mut out = Vec::new();
    for &mine in &ls {
        for &theirs in ls.iter().filter(|&&t| t & mine == 0) {
            let free = unmask(board & !(mine | theirs));
            for i in 0..free.len() {
                for j in i + 1..free.len() {
                    out.push((mine, theirs, mask(&[free[i], free[j]])));
                }
            }
        }
    }
    out
}

/// The positions a brute-force move generator reaches, each seen from the new mover.
fn brute_force_successors(ls: &[u64], (mine, theirs, neutrals): Brute) -> HashSet<Brute> {
    let board = mask(&cells());
    let mut out = HashSet::new();
    for &l in ls {
        if l == mine || l & (theirs | neutrals) != 0 {
            continue;
        }
        out.insert((theirs, l, neutrals));
        let empty = board & !(l | theirs | neutrals);
        for n in unmask(neutrals) {
            for e in unmask(empty) {
                out.insert((theirs, l, neutrals & !mask(&[n]) | mask(&[e])));
            }
        }
    }
    out
}

fn key(p: &Position) -> Brute {
    (p.l(p.turn()).0, p.l(!p.turn()).0, p.neutrals().0)
}

fn classic() -> Vec<Position> {
    all_positions(&Rules::classic())
}

#[test]
fn classic_has_48_l_placements_6_up_to_symmetry() {
    let library: Vec<u64> = lgame::Board::CLASSIC
        .geometry()
        .placements()
        .iter()
        .map(|b| b.0)
        .collect();
    let mut brute = brute_force_placements();
    brute.sort();
    assert_eq!(library.len(), 48);
    assert_eq!(library, brute);
    let classes: HashSet<u64> = brute
        .iter()
        .map(|&p| {
            square_symmetries()
                .into_iter()
                .map(|f| map_mask(f, p))
                .min()
                .unwrap()
        })
        .collect();
    assert_eq!(classes.len(), 6);
}

#[test]
fn classic_has_656_ordered_pairs_of_non_overlapping_ls() {
    let brute = brute_force_placements();
    let pairs = brute
        .iter()
        .flat_map(|a| brute.iter().map(move |b| (a, b)))
        .filter(|(a, b)| *a & *b == 0)
        .count();
    let g = lgame::Board::CLASSIC.geometry();
    let library = g
        .placements()
        .iter()
        .flat_map(|a| g.placements().iter().map(move |b| (a, b)))
        .filter(|(a, b)| !a.intersects(**b))
        .count();
    assert_eq!(pairs, 656);
    assert_eq!(library, 656);
}

#[test]
fn classic_has_18368_positions_not_18268() {
    let library: HashSet<Brute> = classic().iter().map(key).collect();
    let brute: HashSet<Brute> = brute_force_positions().into_iter().collect();
    assert_eq!(classic().len(), 18_368);
    assert_eq!(library.len(), 18_368);
    assert_eq!(library, brute);
    assert_eq!(
        2_296 * 8,
        18_368,
        "the game-solving group's rules page says 18,268: a misprint"
    );
}

#[test]
fn classic_has_2296_positions_up_to_symmetry_none_its_own_mirror_image() {
    let library: HashSet<Position> = classic().iter().map(Position::canonical).collect();
    assert_eq!(library.len(), 2_296);
    // Burnside: the number of classes is the average number of positions each symmetry fixes.
    let mut fixed = 0;
    for f in square_symmetries() {
        for (a, b, n) in brute_force_positions() {
            if (map_mask(f, a), map_mask(f, b), map_mask(f, n)) == (a, b, n) {
                fixed += 1;
            }
        }
    }
    assert_eq!(fixed, 18_368, "only the identity fixes any position");
    assert_eq!(fixed / 8, 2_296);
}

#[test]
fn classic_has_120_trapped_positions_in_15_classes() {
    let library: Vec<Position> = classic().into_iter().filter(|p| p.is_trapped()).collect();
    let ls = brute_force_placements();
    let brute = brute_force_positions()
        .into_iter()
        .filter(|&(mine, theirs, n)| !ls.iter().any(|&l| l != mine && l & (theirs | n) == 0))
        .count();
    assert_eq!(library.len(), 120);
    assert_eq!(brute, 120);
    let classes: HashSet<Position> = library.iter().map(Position::canonical).collect();
    assert_eq!(classes.len(), 15);
}

#[test]
fn every_classic_position_has_13_neutral_options_per_l_move() {
    for p in classic() {
        assert_eq!(p.legal_moves().len(), 13 * p.l_moves().count());
    }
}

#[test]
fn classic_move_generation_matches_brute_force_with_1632800_edges() {
    let ls = brute_force_placements();
    let mut edges = 0;
    let mut brute_edges = 0;
    for p in classic() {
        let moves = p.legal_moves();
        edges += moves.len();
        let library: HashSet<Brute> = moves.iter().map(|m| key(&p.play_unchecked(m))).collect();
        assert_eq!(
            library.len(),
            moves.len(),
            "moves are named by their result"
        );
        let brute = brute_force_successors(&ls, key(&p));
        brute_edges += brute.len();
        assert_eq!(library, brute, "{p}");
    }
    assert_eq!(edges, 1_632_800);
    assert_eq!(brute_edges, 1_632_800);
}

#[test]
fn most_legal_moves_is_221_not_195() {
    let ls = brute_force_placements();
    let counts: Vec<(usize, usize)> = classic()
        .iter()
        .map(|p| {
            (
                p.legal_moves().len(),
                brute_force_successors(&ls, key(p)).len(),
            )
        })
        .collect();
    let max = counts.iter().map(|c| c.0).max().unwrap();
    let brute_max = counts.iter().map(|c| c.1).max().unwrap();
    assert_eq!(max, 221);
    assert_eq!(brute_max, 221);
    assert_eq!(221, 17 * 13);
    let at_max = counts.iter().filter(|c| c.0 == 221).count();
    let brute_at_max = counts.iter().filter(|c| c.1 == 221).count();
    assert_eq!(at_max, brute_at_max);
    assert_eq!(at_max, MAX_MOVE_POSITIONS);
    let classes: HashSet<Position> = classic()
        .iter()
        .filter(|p| p.legal_moves().len() == 221)
        .map(Position::canonical)
        .collect();
    assert_eq!(classes.len() * 8, at_max);
    assert!(counts.iter().any(|c| c.0 == 195), "195 = 15 x 13 occurs");
}

/// How many classic positions have 221 legal moves (54 classes of 8): the two counts above
/// agree on it, and it is recorded here so that a change shows.
const MAX_MOVE_POSITIONS: usize = 432;

#[test]
fn standard_setup_has_65_moves_and_kit_setup_52() {
    let standard = Rules::classic().start_position();
    let kit = Rules::classic()
        .with_setup(lgame::rules::StartSetup::Kit)
        .unwrap()
        .start_position();
    let ls = brute_force_placements();
    for (p, n) in [(standard, 65), (kit, 52)] {
        assert_eq!(p.legal_moves().len(), n);
        assert_eq!(brute_force_successors(&ls, key(&p)).len(), n);
    }
    assert_eq!(standard.l_moves().count(), 5);
}

#[test]
fn kit_example_b2_blocks_b1_b2_b3_c1() {
    // The printable tabletop kit (one of the sources docs/rules.md names): "For the starting
    // W move, B1,B2,B3,C1 is blocked by neutral B2; it is illegal. A2,A3,A4,B4 is empty after
    // lifting W and forms a legal L. After placing there, neutral B2 may move to A1."
    let kit =
        Position::from_text("R:A1,A2,A3,B1 B:D2,D3,D4,C4 N:B2,C3 r", &Rules::classic()).unwrap();
    let blocked = kit.check_move(&"B1,B2,B3,C1".parse().unwrap()).unwrap_err();
    assert_eq!(
        blocked.to_string(),
        "the L cannot go on B2: it is occupied by a neutral"
    );
    let legal = "A2,A3,A4,B4".parse().unwrap();
    assert_eq!(kit.check_move(&legal), Ok(()));
    let with_neutral = "A2,A3,A4,B4 B2-A1".parse().unwrap();
    let after = kit.play(&with_neutral).unwrap();
    assert!(after.neutrals().contains("A1".parse::<Square>().unwrap()));
    assert_eq!(
        after.to_cell_list_string(),
        "R:A2,A3,A4,B4 B:C4,D2,D3,D4 N:A1,C3 b"
    );
}

#[test]
fn brute_force_l_shape_test_agrees_with_the_placement_table_on_every_subset() {
    let g = lgame::Board::CLASSIC.geometry();
    let all = cells();
    for bits in 0u32..1 << 16 {
        if bits.count_ones() != 4 {
            continue;
        }
        let set: Vec<Cell> = (0..16)
            .filter(|i| bits & 1 << i != 0)
            .map(|i| all[i])
            .collect();
        assert_eq!(is_l_shape(&set), g.is_l(Bitboard(mask(&set))), "{set:?}");
    }
}
