//! `Position::check_l_cells`, which a board uses to highlight the cells that can still
//! complete a legal L, checked against the legal moves themselves.

use lgame::moves::IllegalMove;
use lgame::position::{all_positions, PartialLError};
use lgame::{Bitboard, Move, Position, Rules, Square};

/// Every set of up to `max` cells of the board.
fn cell_sets(position: &Position, max: u32) -> Vec<Bitboard> {
    let cells: Vec<Bitboard> = position
        .board()
        .mask()
        .into_iter()
        .map(|s| s.bit())
        .collect();
    let mut sets = vec![Bitboard::EMPTY];
    for &cell in &cells {
        let grown: Vec<Bitboard> = sets
            .iter()
            .filter(|s| s.count() < max)
            .map(|&s| s | cell)
            .collect();
        sets.extend(grown);
    }
    sets.retain(|s| s.any());
    sets
}

fn agrees_with_legal_moves(rules: &Rules, sample_every: usize, max: u32) {
    for position in all_positions(rules).into_iter().step_by(sample_every) {
        let ls: Vec<Bitboard> = position.legal_moves().iter().map(Move::l).collect();
        for cells in cell_sets(&position, max) {
            let completable = ls.iter().any(|l| cells.is_subset(*l));
            let answer = position.check_l_cells(cells);
            assert_eq!(
                answer.is_ok(),
                completable,
                "{position}: {} ({answer:?})",
                cells.to_cell_list()
            );
        }
    }
}

#[test]
fn cells_are_completable_exactly_when_a_legal_move_covers_them_classic() {
    agrees_with_legal_moves(&Rules::classic(), 23, 3);
}

#[test]
fn cells_are_completable_exactly_when_a_legal_move_covers_them_in_variants() {
    for text in ["symmetry", "neutrals=1", "neutral-required", "board=5x4"] {
        let rules: Rules = text.parse().expect("a variant");
        agrees_with_legal_moves(&rules, 997, 2);
    }
}

#[test]
fn a_whole_l_is_refused_for_the_reason_the_move_would_be() {
    let rules = Rules::classic();
    for position in all_positions(&rules).into_iter().step_by(41) {
        for &l in position.board().geometry().placements() {
            let whole = position.check_move(&Move::l_only(l));
            match position.check_l_cells(l) {
                Ok(()) => assert_eq!(whole, Ok(()), "{position}: {}", l.to_cell_list()),
                Err(PartialLError::Illegal(reason)) => assert_eq!(whole, Err(reason)),
                Err(e) => panic!("{position}: a placement is an L, yet: {e}"),
            }
        }
    }
}

#[test]
fn an_occupied_cell_names_what_stands_there() {
    let rules = Rules::classic();
    let position = Position::from_text("standard", &rules).expect("the standard setup");
    let blue = position.l(!position.turn()).first().expect("a Blue cell");
    let err = position.check_l_cells(blue.bit()).expect_err("Blue's cell");
    assert!(matches!(
        err,
        PartialLError::Illegal(IllegalMove::LOverlaps { .. })
    ));
    assert_eq!(
        err.to_string(),
        format!("the L cannot go on {blue}: it is occupied by Blue's L")
    );
}

#[test]
fn cells_no_l_can_cover_say_so() {
    let rules = Rules::classic();
    let position = Position::from_text("standard", &rules).expect("the standard setup");
    let cell = |name: &str| name.parse::<Square>().expect("a cell").bit();
    let apart = cell("A1") | cell("D3");
    let err = position
        .check_l_cells(apart)
        .expect_err("cells three columns apart");
    assert_eq!(err, PartialLError::NoPlacement { cells: apart });
    assert!(err.to_string().starts_with("no free L covers"), "{err}");
}
