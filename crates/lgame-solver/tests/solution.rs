//! The solver's results, each checked a second, independent way: a round-by-round value
//! iteration over forward moves, a one-step minimax check of every value and distance, and
//! invariance under the board's symmetries. The classic figures of rules.md are reproduced.

use std::collections::{HashMap, HashSet};

use lgame::rules::StartSetup;
use lgame::{Position, Rules};
use lgame_solver::{Method, SolveOptions, Statistics, Tablebase, Value, Wdl};

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

/// The variant `text` solved by `method`.
fn solve_by(text: &str, method: Method) -> Tablebase {
    let options = SolveOptions {
        method,
        ..SolveOptions::default()
    };
    Tablebase::solve_with(&rules(text), options).unwrap()
}

/// Every position of the table with its value.
fn positions(tb: &Tablebase) -> Vec<(Position, Value)> {
    let index = tb.index();
    (0..index.len())
        .filter_map(|i| Some((index.position(i)?, tb.value_at(i)?)))
        .collect()
}

/// The value one minimax step gives from the successors' values in the table.
fn one_step(tb: &Tablebase, p: &Position) -> Value {
    if let Some(outcome) = p.outcome() {
        return if outcome.winner == p.turn() {
            Value::Win(0)
        } else {
            Value::Loss(0)
        };
    }
    p.legal_moves()
        .iter()
        .map(|m| tb.value(&p.play_unchecked(m)).unwrap().before_move())
        .max()
        .expect("an unfinished position has moves")
}

/// Solves by plain value iteration, round by round: in round k a position is won in k if a
/// move reaches a position lost in k − 1, and lost in k if every move reaches a position won
/// in fewer than k plies, one of them in k − 1. Nothing of the solver is used but the
/// position list.
fn value_iteration(positions: &[Position]) -> Vec<Value> {
    use std::collections::HashMap;
    let mut known: HashMap<Position, Value> = HashMap::new();
    for p in positions {
        if let Some(outcome) = p.outcome() {
            let v = if outcome.winner == p.turn() {
                Value::Win(0)
            } else {
                Value::Loss(0)
            };
            known.insert(*p, v);
        }
    }
    let successors: Vec<Vec<Position>> = positions
        .iter()
        .map(|p| {
            p.legal_moves()
                .iter()
                .map(|m| {
                    // Seen from Red to move, as the position list is.
                    let q = p.play_unchecked(m);
                    let ls = q.ls();
                    let setup = lgame::Setup {
                        ls: lgame::ByColor {
                            red: ls.blue,
                            blue: ls.red,
                        },
                        turn: lgame::Color::Red,
                        ..q.to_setup()
                    };
                    Position::from_setup(setup, q.rules()).unwrap()
                })
                .collect()
        })
        .collect();
    for k in 1u16.. {
        let mut decided = Vec::new();
        for (p, succ) in positions.iter().zip(&successors) {
            if known.contains_key(p) {
                continue;
            }
            let values: Vec<Option<Value>> = succ.iter().map(|q| known.get(q).copied()).collect();
            if values.contains(&Some(Value::Loss(k - 1))) {
                decided.push((*p, Value::Win(k)));
            } else if values
                .iter()
                .all(|v| matches!(v, Some(Value::Win(d)) if *d < k))
                && values.contains(&Some(Value::Win(k - 1)))
            {
                decided.push((*p, Value::Loss(k)));
            }
        }
        if decided.is_empty() && k > 40 {
            break;
        }
        known.extend(decided);
    }
    positions
        .iter()
        .map(|p| known.get(p).copied().unwrap_or(Value::Draw))
        .collect()
}

#[test]
fn classic_is_8048_won_232_lost_10088_drawn_in_1006_29_1261_classes() {
    let tb = Tablebase::solve(&Rules::classic());
    let s = Statistics::of(&tb);
    assert_eq!((s.positions, s.classes), (18_368, 2_296));
    assert_eq!((s.won, s.lost, s.drawn), (8_048, 232, 10_088));
    assert_eq!(
        (s.won_classes, s.lost_classes, s.drawn_classes),
        (1_006, 29, 1_261)
    );
    assert_eq!(s.trapped, 120);
    assert_eq!(s.edges, 1_632_800);
    assert_eq!(s.max_moves, 221);
}

#[test]
fn classic_lost_positions_are_lost_in_0_2_4_6_8_plies_15_trapped_and_14_more() {
    let tb = Tablebase::solve(&Rules::classic());
    let lost: Vec<(Position, Value)> = positions(&tb)
        .into_iter()
        .filter(|(_, v)| matches!(v, Value::Loss(_)))
        .collect();
    let plies: HashSet<u16> = lost.iter().filter_map(|(_, v)| v.plies()).collect();
    assert_eq!(plies, HashSet::from([0, 2, 4, 6, 8]));
    let classes = |d: u16| {
        lost.iter()
            .filter(|(_, v)| *v == Value::Loss(d))
            .map(|(p, _)| p.canonical())
            .collect::<HashSet<_>>()
            .len()
    };
    assert_eq!(classes(0), 15);
    assert_eq!(classes(2) + classes(4) + classes(6) + classes(8), 14);
}

#[test]
fn classes_gives_one_canonical_position_per_class_with_its_value() {
    for text in ["classic", "symmetry", "board=5x4"] {
        let tb = Tablebase::solve(&rules(text));
        let by_canonical: HashMap<Position, Value> = positions(&tb)
            .into_iter()
            .map(|(p, v)| (p.canonical(), v))
            .collect();
        let classes: Vec<(Position, Value)> = tb.classes().collect();
        assert_eq!(classes.len(), by_canonical.len(), "{text}");
        for (p, v) in classes {
            assert_eq!(p, p.canonical(), "{text}");
            assert_eq!(by_canonical.get(&p), Some(&v), "{text}: {p}");
        }
    }
}

#[test]
fn classes_of_a_value_are_its_classes_by_distance_then_text_with_every_distance() {
    let classic = Tablebase::solve(&Rules::classic());
    for (wdl, count) in [(Wdl::Win, 1_006), (Wdl::Draw, 1_261), (Wdl::Loss, 29)] {
        assert_eq!(classic.classes_of(wdl, None, usize::MAX).total, count);
    }
    assert_eq!(
        classic.classes_of(Wdl::Loss, None, 100).distances,
        [0, 2, 4, 6, 8]
    );
    for text in ["classic", "misere", "board=5x4", "neutrals=1"] {
        let tb = Tablebase::solve(&rules(text));
        let classes: Vec<(Position, Value)> = tb.classes().collect();
        for wdl in [Wdl::Win, Wdl::Draw, Wdl::Loss] {
            let count = classes.iter().filter(|(_, v)| v.wdl() == wdl).count();
            classes_of_one_value(&tb, wdl, count, text);
        }
    }
    assert_eq!(Wdl::from_name("draw"), Some(Wdl::Draw));
    assert_eq!(Wdl::from_name("Draw"), None);
}

/// The `count` classes of `wdl` in `tb` sorted, each with its value, their distances the
/// ones listed, and each distance's classes the same as asked one by one, with a limit.
fn classes_of_one_value(tb: &Tablebase, wdl: Wdl, count: usize, text: &str) {
    let all = tb.classes_of(wdl, None, usize::MAX);
    assert_eq!(
        (all.total, all.classes.len()),
        (count, count),
        "{text} {wdl:?}"
    );
    let keys: Vec<(Option<u16>, String)> = all
        .classes
        .iter()
        .map(|(p, d)| (*d, p.to_string()))
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "{text} {wdl:?} sorted"
    );
    for (p, d) in &all.classes {
        assert_eq!(tb.value(p).unwrap().wdl(), wdl);
        assert_eq!(tb.value(p).unwrap().plies(), *d);
        assert_eq!(*p, p.canonical());
    }
    let mut distances: Vec<u16> = all.classes.iter().filter_map(|(_, d)| *d).collect();
    distances.dedup();
    assert_eq!(all.distances, distances, "{text} {wdl:?}");
    for &d in &all.distances {
        let at = tb.classes_of(wdl, Some(d), 3);
        let of_d: Vec<_> = all.classes.iter().filter(|c| c.1 == Some(d)).collect();
        assert_eq!(at.total, of_d.len());
        assert_eq!(
            at.classes.iter().collect::<Vec<_>>(),
            of_d[..of_d.len().min(3)]
        );
        assert_eq!(at.distances, all.distances);
    }
}

#[test]
fn classic_longest_forced_win_is_9_plies_and_the_setups_are_draws() {
    let tb = Tablebase::solve(&Rules::classic());
    let s = Statistics::of(&tb);
    assert_eq!(s.longest_win_plies, Some(9));
    assert_eq!(s.start_value, "draw");
    assert_eq!(s.start_moves, 65);
    let kit = Rules::classic().with_setup(StartSetup::Kit).unwrap();
    assert_eq!(tb.value(&kit.start_position()).unwrap(), Value::Draw);
    assert_eq!(kit.start_position().legal_moves().len(), 52);
}

#[test]
fn classic_solution_equals_plain_value_iteration() {
    let tb = Tablebase::solve(&Rules::classic());
    let (ps, values): (Vec<Position>, Vec<Value>) = positions(&tb).into_iter().unzip();
    assert_eq!(value_iteration(&ps), values);
}

/// The specification's variants (scoring at small targets, whose tables this check walks
/// quickly) and combinations of them.
fn variants() -> impl Iterator<Item = &'static str> {
    let extra = [
        "neutrals=0",
        "neutrals=3",
        "misere,neutrals=1",
        "symmetry,neutral-required",
    ];
    let scoring = ["scoring,target=2", "scoring,target=3,symmetry"];
    let named = lgame::variants::VARIANTS.iter().map(|v| v.rules);
    named
        .filter(|r| *r != "scoring")
        .chain(extra)
        .chain(scoring)
}

#[test]
fn every_variant_passes_the_one_step_minimax_check() {
    for text in variants() {
        let tb = Tablebase::solve(&rules(text));
        for (p, v) in positions(&tb) {
            assert_eq!(one_step(&tb, &p), v, "{text}: {p}");
        }
    }
}

#[test]
fn small_variants_equal_plain_value_iteration() {
    for text in [
        "misere",
        "symmetry",
        "neutral-required",
        "neutrals=1",
        "board=5x4,neutrals=1",
    ] {
        let tb = Tablebase::solve(&rules(text));
        let (ps, values): (Vec<Position>, Vec<Value>) = positions(&tb).into_iter().unzip();
        assert_eq!(value_iteration(&ps), values, "{text}");
    }
}

#[test]
fn values_are_invariant_under_the_boards_symmetries() {
    // Under scoring too: a trap resets a position and its image to the same setup.
    for text in [
        "classic",
        "sudden-death",
        "symmetry",
        "board=5x4,neutrals=1",
        "neutrals=3",
        "scoring,target=2",
    ] {
        let tb = Tablebase::solve(&rules(text));
        let symmetries = tb.rules().board().geometry().symmetries().to_vec();
        for (p, v) in positions(&tb) {
            for &s in &symmetries {
                assert_eq!(tb.value(&p.transform(s)).unwrap(), v, "{text}: {p} {s:?}");
            }
        }
    }
}

#[test]
fn larger_boards_and_other_neutral_counts_pass_the_one_step_check() {
    for text in ["board=5x4", "board=5x4,neutrals=3", "board=6x4,neutrals=1"] {
        let tb = Tablebase::solve(&rules(text));
        for (p, v) in positions(&tb).into_iter().step_by(7) {
            assert_eq!(one_step(&tb, &p), v, "{text}: {p}");
        }
    }
}

#[test]
fn best_moves_keep_the_value_and_every_move_is_valued_from_the_position() {
    let tb = Tablebase::solve(&Rules::classic());
    for (p, v) in positions(&tb).into_iter().step_by(97) {
        let moves = tb.moves(&p).unwrap();
        assert_eq!(moves.len(), p.legal_moves().len());
        if let Some(best) = moves.first() {
            assert_eq!(best.value, v, "the best move's plies equal the position's");
        }
        assert!(
            moves.windows(2).all(|w| w[0].value >= w[1].value),
            "best first"
        );
        for m in &moves {
            assert_eq!(m.value, tb.value(&m.position).unwrap().before_move());
        }
        let best = tb.best_moves(&p).unwrap();
        assert!(best
            .iter()
            .all(|b| moves.iter().any(|m| m.mv == *b && m.value == v)));
    }
}

#[test]
fn probing_a_position_of_other_rules_is_refused() {
    let tb = Tablebase::solve(&Rules::classic());
    let misere = rules("misere").start_position();
    let err = tb.value(&misere).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the position is played under misere, the table was solved for classic"
    );
    // The starting setup does not change values without scoring.
    let kit = rules("setup=kit").start_position();
    assert_eq!(tb.value(&kit).unwrap(), Value::Draw);
}

#[test]
fn five_by_five_with_two_neutrals_nobody_can_ever_be_trapped() {
    let tb = Tablebase::solve(&rules("board=5x5"));
    let s = Statistics::of(&tb);
    assert_eq!(s.positions, 620_160);
    assert_eq!(s.trapped, 0);
    assert_eq!((s.won, s.lost), (0, 0));
}

#[test]
fn unmove_level_and_graph_methods_agree_on_every_variant_without_scoring() {
    let variants = [
        "classic",
        "misere",
        "sudden-death",
        "neutral-required",
        "symmetry",
        "symmetry,neutral-required",
        "symmetry,sudden-death",
        "misere,symmetry",
        "neutrals=0",
        "neutrals=1",
        "neutrals=3",
        "board=5x4,neutrals=1",
        "board=4x5",
    ];
    for text in variants {
        let (unmoves, graph) = (
            solve_by(text, Method::Unmoves),
            solve_by(text, Method::Graph),
        );
        for i in 0..unmoves.index().len() {
            assert_eq!(unmoves.value_at(i), graph.value_at(i), "{text}: state {i}");
        }
        if rules(text).neutral_moves() == lgame::rules::NeutralMoves::Optional {
            let levels = solve_by(text, Method::Levels);
            for i in 0..levels.index().len() {
                assert_eq!(
                    levels.value_at(i),
                    graph.value_at(i),
                    "{text} by levels: state {i}"
                );
            }
        }
    }
}

#[test]
fn the_unmove_method_refuses_scoring() {
    let options = SolveOptions {
        method: Method::Unmoves,
        ..SolveOptions::default()
    };
    let err = Tablebase::solve_with(&rules("scoring"), options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the unmove method does not solve the scoring variant"
    );
}

/// The score-layer method against the move-graph method, on every state: the scoring game
/// at full size and at other targets, setups, neutral rules and boards.
#[test]
fn score_layer_and_graph_methods_agree_under_scoring() {
    let variants = [
        "scoring",
        "scoring,target=1",
        "scoring,target=2",
        "scoring,target=6,setup=kit",
        "scoring,target=5,setup=corners",
        "scoring,target=4,neutrals=1",
        "scoring,target=4,neutrals=3",
        "scoring,target=4,neutral-required",
        "scoring,target=3,sudden-death",
        "scoring,target=2,board=5x4,neutrals=1",
    ];
    for text in variants {
        let (scores, graph) = (
            solve_by(text, Method::Scores),
            solve_by(text, Method::Graph),
        );
        let mut decided = 0;
        for i in 0..scores.index().len() {
            assert_eq!(scores.value_at(i), graph.value_at(i), "{text}: state {i}");
            decided += matches!(scores.value_at(i), Some(Value::Win(_) | Value::Loss(_))) as u64;
        }
        assert!(decided > 0, "{text}: something is decided");
    }
}

#[test]
fn the_score_layer_method_refuses_what_it_does_not_solve() {
    for text in ["classic", "scoring,symmetry"] {
        let options = SolveOptions {
            method: Method::Scores,
            ..SolveOptions::default()
        };
        let err = Tablebase::solve_with(&rules(text), options).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the score-layer method solves scoring without the symmetry rule",
            "{text}"
        );
    }
}
