//! The move builder checked against move generation and the rules' own checks: for sampled
//! positions of several variants, the moves a person can build pick by pick are exactly
//! `legal_moves()`, and every refusal is the reason `check_l_cells`, `check_move` or
//! `Move::new` gives. Also: generation that stops early visits a prefix of the moves.

use std::collections::HashSet;

use lgame::builder::{MoveBuilder, Refusal, Stage};
use lgame::moves::IllegalMove;
use lgame::position::all_positions;
use lgame::{Bitboard, Move, Position, Rules, Square};

/// Variants whose neutral rules differ (at most one, exactly one, any number; with and
/// without the symmetry win), on 4×4 and other boards.
const VARIANTS: &[&str] = &[
    "classic",
    "misere",
    "neutral-required",
    "sudden-death",
    "symmetry",
    "neutral-required,symmetry",
    "sudden-death,symmetry",
    "neutrals=0",
    "neutrals=1",
    "neutrals=3",
    "sudden-death,neutrals=3",
    "scoring,target=3",
    "board=5x4",
];

/// Variants sampled by play from the start (their whole position space is large).
const PLAYED_VARIANTS: &[&str] = &[
    "sudden-death,neutrals=4",
    "board=5x5,neutrals=3",
    "board=6x4,symmetry",
    "board=5x5,sudden-death",
    "board=8x8",
];

fn rules(text: &str) -> Rules {
    text.parse()
        .unwrap_or_else(|e| panic!("variant {text:?}: {e}"))
}

/// Every `every`-th position of the variant (finished ones included).
fn sampled(text: &str, every: usize) -> Vec<Position> {
    all_positions(&rules(text))
        .into_iter()
        .step_by(every)
        .collect()
}

/// The positions of a game played from the start, each move chosen by a fixed sequence.
fn played(text: &str, plies: usize) -> Vec<Position> {
    let mut position = rules(text).start_position();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut out = vec![position];
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        position = position.play_unchecked(&moves[(seed >> 33) as usize % moves.len()]);
        out.push(position);
    }
    out
}

fn legal_set(position: &Position) -> HashSet<Move> {
    let moves = position.legal_moves();
    let set: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(set.len(), moves.len(), "{position}: a move generated twice");
    set
}

/// The move of `l` with `picks` and one more neutral move, as the rules see it.
fn extended(
    position: &Position,
    l: Bitboard,
    picks: &[(Square, Square)],
    extra: (Square, Square),
) -> Result<Move, Refusal> {
    let mut all = picks.to_vec();
    all.push(extra);
    let mv = Move::new(l, &all).map_err(Refusal::Malformed)?;
    position.check_move(&mv).map_err(Refusal::Illegal)?;
    Ok(mv)
}

/// Checks the L step for the cells picked so far: the candidates are the legal Ls' cells and
/// every other cell is refused for `check_l_cells`'s reason.
fn check_l_step(builder: &MoveBuilder, legal_ls: &HashSet<Bitboard>) {
    let position = builder.position();
    let cells = builder.l_cells();
    let covering: HashSet<Bitboard> = legal_ls
        .iter()
        .copied()
        .filter(|l| cells.is_subset(*l))
        .collect();
    let offered: HashSet<Bitboard> = builder.legal_ls().collect();
    assert_eq!(
        offered,
        covering,
        "{position}: Ls over {}",
        cells.to_cell_list()
    );
    let union = covering.iter().fold(Bitboard::EMPTY, |all, &l| all | l);
    assert_eq!(builder.l_candidates(), union - cells, "{position}");
    let refusals = builder.l_refusals();
    for square in position.board().mask() - cells {
        let answer = builder.check_l_cell(square);
        assert_eq!(answer, position.check_l_cells(cells | square.bit()));
        assert_eq!(
            answer.is_ok(),
            union.contains(square),
            "{position}: {square} with {}",
            cells.to_cell_list()
        );
        let listed = refusals.iter().find(|(s, _)| *s == square).map(|(_, e)| e);
        assert_eq!(listed, answer.as_ref().err(), "{position}: {square}");
    }
}

/// Picks every legal L cell by cell (checking each step) and every sequence of neutral picks
/// from there; returns the moves reached.
fn explore(position: &Position) -> HashSet<Move> {
    let legal = legal_set(position);
    let legal_ls: HashSet<Bitboard> = legal.iter().map(Move::l).collect();
    let empty = MoveBuilder::new(position);
    check_l_step(&empty, &legal_ls);
    assert_eq!(empty.stage(), Stage::L);
    // Four cells at once: a legal L, or refused for the reason the L move would be.
    for &cells in position.board().geometry().placements() {
        let mut builder = empty;
        builder.set_l_cells(cells);
        match builder.check_l() {
            Ok(l) => assert!(legal_ls.contains(&l), "{position}: {l:?}"),
            Err(Refusal::Illegal(e)) => {
                assert!(!legal_ls.contains(&cells), "{position}: {cells:?}");
                assert_eq!(position.check_move(&Move::l_only(cells)), Err(e));
            }
            Err(other) => panic!("{position}: {cells:?} refused with {other:?}"),
        }
    }
    let mut reached = HashSet::new();
    let mut seen = HashSet::new();
    // Cell by cell, checking every step (of every L on small boards, of some on large).
    let every = legal_ls.len() / 40 + 1;
    for (i, &l) in legal_ls.iter().enumerate() {
        let mut builder = empty;
        for square in l.squares_in_notation_order() {
            builder
                .add_l_cell(square)
                .unwrap_or_else(|e| panic!("{position}: {square} of {l:?}: {e}"));
            if i % every == 0 {
                check_l_step(&builder, &legal_ls);
            }
        }
        assert_eq!(builder.check_l(), Ok(l));
        neutrals(&builder, &legal, &mut reached, &mut seen);
    }
    reached
}

/// From a builder whose L is chosen and no neutral is in hand: every neutral pick, checked.
fn neutrals(
    builder: &MoveBuilder,
    legal: &HashSet<Move>,
    reached: &mut HashSet<Move>,
    seen: &mut HashSet<(Bitboard, Bitboard, Bitboard)>,
) {
    let position = builder.position();
    let l = builder.l_cells();
    let picks = builder.neutral_moves().to_vec();
    let from: Bitboard = picks.iter().map(|p| p.0).collect();
    let to: Bitboard = picks.iter().map(|p| p.1).collect();
    if !seen.insert((l, from, to)) {
        return;
    }
    let finished = builder.finish();
    assert_eq!(builder.may_stop(), finished.is_ok());
    match finished {
        Ok(mv) => {
            assert!(
                legal.contains(&mv),
                "{position}: built {mv}, not a legal move"
            );
            assert_eq!(Some(mv), builder.current_move());
            reached.insert(mv);
        }
        Err(Refusal::Illegal(e)) => {
            let mv = Move::new(l, &picks).expect("well formed");
            assert_eq!(position.check_move(&mv), Err(e));
        }
        Err(other) => panic!("{position}: stopping refused with {other:?}"),
    }
    let movable = builder.movable_neutrals();
    match builder.stage() {
        Stage::Neutral => assert!(movable.any(), "{position}"),
        Stage::Complete(mv) => {
            assert!(movable.is_empty(), "{position}");
            assert_eq!(builder.finish(), Ok(mv));
        }
        other => panic!("{position}: stage {other:?} after the L"),
    }
    assert_eq!(builder.targets(), Bitboard::EMPTY, "nothing in hand");
    // Every cell as the neutral to pick up, each with every target (on a large board: the
    // neutrals, the cells they left and entered, and a row of others).
    let board = position.board();
    let sources = if board.cell_count() <= 25 {
        board.mask()
    } else {
        let row: Bitboard = (0..board.width()).map(|c| Square::new(c, 1)).collect();
        position.neutrals() | from | to | row
    };
    for source in sources {
        let answer = builder.check_neutral(source);
        assert_eq!(
            answer.is_ok(),
            movable.contains(source),
            "{position}: {source}"
        );
        let extensions: Vec<Result<Move, Refusal>> = position
            .board()
            .mask()
            .into_iter()
            .map(|target| extended(position, l, &picks, (source, target)))
            .collect();
        match answer {
            Ok(()) => assert!(extensions.iter().any(Result::is_ok)),
            Err(refusal) => {
                assert!(
                    extensions.iter().all(Result::is_err),
                    "{position}: {source} refused ({refusal}) but it can move"
                );
                assert!(
                    extensions.contains(&Err(refusal.clone())),
                    "{position}: {source} refused with {refusal:?}, which the rules never say"
                );
            }
        }
    }
    for source in movable {
        let mut lifted = *builder;
        lifted.lift(source).expect("a movable neutral");
        assert_eq!(lifted.stage(), Stage::Target(source));
        assert_eq!(
            lifted.check_neutral(source),
            Err(Refusal::NeutralInHand(source))
        );
        let targets = lifted.targets();
        for target in position.board().mask() {
            let answer = lifted.check_target(target);
            let rules_say = extended(position, l, &picks, (source, target));
            assert_eq!(answer.is_ok(), targets.contains(target), "{position}");
            assert_eq!(answer, rules_say.map(drop), "{position}: {source}-{target}");
        }
        for target in targets {
            let mut placed = lifted;
            placed.place(target).expect("a legal target");
            neutrals(&placed, legal, reached, seen);
            assert!(placed.back());
            assert_eq!(placed.neutral_moves(), builder.neutral_moves());
        }
        assert_eq!(lifted.put_back(), Some(source));
        assert_eq!(lifted, *builder);
    }
}

fn builder_builds_exactly_the_legal_moves(positions: &[Position]) {
    for position in positions {
        let reached = explore(position);
        let legal = legal_set(position);
        let missing: Vec<String> = legal.difference(&reached).map(Move::to_string).collect();
        let extra: Vec<String> = reached.difference(&legal).map(Move::to_string).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{position} under {}: the builder misses {missing:?} and builds {extra:?}",
            position.rules()
        );
    }
}

#[test]
fn the_builder_builds_exactly_the_legal_moves_of_sampled_positions() {
    for text in VARIANTS {
        let every = if rules(text).board().cell_count() == 16 {
            211
        } else {
            4999
        };
        builder_builds_exactly_the_legal_moves(&sampled(text, every));
    }
}

#[test]
fn the_builder_builds_exactly_the_legal_moves_of_played_positions() {
    for text in PLAYED_VARIANTS {
        let plies = if *text == "board=8x8" { 1 } else { 12 };
        builder_builds_exactly_the_legal_moves(&played(text, plies));
    }
}

#[test]
fn a_finished_position_offers_nothing_and_says_why() {
    // Kit: Red plays, Blue traps Red.
    let kit = rules("setup=kit").start_position();
    let end = kit
        .play(&"A2,A3,A4,B4 B2-A1".parse().expect("a move"))
        .and_then(|p| p.play(&"B2,B3,C2,D2 C3-C4".parse().expect("a move")))
        .expect("legal");
    assert!(end.is_finished());
    let mut builder = MoveBuilder::new(&end);
    assert_eq!(builder.legal_ls().count(), 0);
    assert_eq!(builder.l_candidates(), Bitboard::EMPTY);
    let refused = builder.add_l_cell(end.board().mask().first().expect("a cell"));
    assert!(matches!(
        refused,
        Err(Refusal::L(lgame::position::PartialLError::Illegal(
            IllegalMove::GameOver { .. }
        )))
    ));
    assert_eq!(builder.stage(), Stage::L);
    assert_eq!(builder.movable_neutrals(), Bitboard::EMPTY);
}

#[test]
fn picks_out_of_order_are_refused() {
    let start = Rules::classic().start_position();
    let cell = |name: &str| name.parse::<Square>().expect("a cell");
    let mut builder = MoveBuilder::new(&start);
    assert_eq!(builder.lift(cell("D1")), Err(Refusal::LNotChosen));
    assert_eq!(builder.place(cell("D2")), Err(Refusal::NoNeutralInHand));
    for name in ["A1", "A2", "A3", "B3"] {
        builder.add_l_cell(cell(name)).expect("a legal L's cell");
    }
    builder.lift(cell("D1")).expect("a neutral");
    assert_eq!(
        builder.lift(cell("A4")),
        Err(Refusal::NeutralInHand(cell("D1")))
    );
    assert_eq!(
        builder.remove_l_cell(cell("A1")),
        Err(Refusal::NeutralsPicked)
    );
    assert_eq!(builder.add_l_cell(cell("D4")), Err(Refusal::NeutralsPicked));
    // The neutral's own cell is no move; the finished move leaves the neutral in hand.
    assert!(matches!(
        builder.place(cell("D1")),
        Err(Refusal::Malformed(_))
    ));
    assert_eq!(
        builder.finish().map(|mv| mv.to_string()),
        Ok("A1,A2,A3,B3".into())
    );
    builder.place(cell("D2")).expect("a free cell");
    let picks =
        MoveBuilder::from_picks(&start, builder.l_cells(), &[(cell("D1"), cell("D2"))], None);
    assert_eq!(picks, Ok(builder));
    assert_eq!(
        MoveBuilder::from_picks(&start, Bitboard::EMPTY, &[(cell("D1"), cell("D2"))], None),
        Err(Refusal::LNotChosen)
    );
    assert!(builder.back());
    assert!(!builder.back());
    builder.set_l_cells(Bitboard::EMPTY);
    assert_eq!(builder, MoveBuilder::new(&start));
}

#[test]
fn under_sudden_death_both_neutrals_move_and_a_moved_one_stays_put() {
    let position = rules("sudden-death").start_position();
    let cell = |name: &str| name.parse::<Square>().expect("a cell");
    let mut builder = MoveBuilder::from_picks(
        &position,
        ["A1", "A2", "A3", "B3"].map(cell).into_iter().collect(),
        &[(cell("D1"), cell("D2"))],
        None,
    )
    .expect("legal picks");
    assert_eq!(builder.stage(), Stage::Neutral);
    assert!(builder.may_stop());
    assert_eq!(builder.movable_neutrals(), cell("A4").bit());
    assert!(matches!(
        builder.check_neutral(cell("D2")),
        Err(Refusal::Malformed(_)) | Err(Refusal::Illegal(_))
    ));
    builder.lift(cell("A4")).expect("the other neutral");
    assert!(!builder.targets().contains(cell("D1")), "D1 was just left");
    assert!(
        !builder.targets().contains(cell("D2")),
        "D2 was just entered"
    );
    builder.place(cell("D4")).expect("a free cell");
    let Stage::Complete(mv) = builder.stage() else {
        panic!("two neutrals are all there are")
    };
    assert_eq!(mv.to_string(), "A1,A2,A3,B3 A4-D2 D1-D4");
    assert!(position.is_legal(&mv));
}

#[test]
fn neutral_required_refuses_to_stop_before_a_neutral_moves() {
    let position = rules("neutral-required").start_position();
    let cell = |name: &str| name.parse::<Square>().expect("a cell");
    let builder = MoveBuilder::from_picks(
        &position,
        ["A1", "A2", "A3", "B3"].map(cell).into_iter().collect(),
        &[],
        None,
    )
    .expect("a legal L");
    assert!(!builder.may_stop());
    assert_eq!(
        builder.finish(),
        Err(Refusal::Illegal(IllegalMove::NeutralMoveRequired))
    );
}

#[test]
fn generation_stops_where_the_callback_says() {
    let mut positions = sampled("classic", 499);
    positions.extend(sampled("sudden-death,neutrals=3", 997));
    positions.extend(played("board=5x5,sudden-death", 4));
    for position in positions {
        let all = position.legal_moves();
        assert!(position.for_each_legal_move_while(|_| true));
        for stop in [0, 1, 2, all.len() / 2, all.len().saturating_sub(1)] {
            if stop >= all.len() {
                continue;
            }
            let mut seen = Vec::new();
            let finished = position.for_each_legal_move_while(|mv| {
                seen.push(mv);
                seen.len() <= stop
            });
            assert!(!finished, "{position}");
            assert_eq!(seen, all[..=stop], "{position}: stopped after {stop}");
        }
        let mut count = 0;
        assert!(position.for_each_legal_move_while(|_| {
            count += 1;
            true
        }));
        assert_eq!(count, all.len());
    }
}
