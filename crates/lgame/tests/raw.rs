//! The mask-level move generator: its counts and its unmoves, checked against the forward
//! move generation over whole position spaces.

use std::collections::{HashMap, HashSet};

use lgame::position::all_positions;
use lgame::raw::Arrangement;
use lgame::{Position, Rules};

/// The specification's variants but scoring (whose scores these tests leave aside), and
/// combinations of them.
fn variants() -> impl Iterator<Item = &'static str> {
    let named = lgame::variants::VARIANTS.iter().map(|v| v.rules);
    let extra = [
        "symmetry,neutral-required",
        "symmetry,sudden-death",
        "neutrals=3",
    ];
    named
        .filter(|r| *r != "scoring")
        .chain(extra)
        .chain(["board=5x4,neutrals=1"])
}

fn arrangement(p: &Position) -> Arrangement {
    p.arrangement()
}

#[test]
fn move_count_equals_the_number_of_generated_moves() {
    for text in variants() {
        let rules: Rules = text.parse().unwrap();
        for p in all_positions(&rules) {
            let mut generated = 0;
            p.for_each_legal_move(|_| generated += 1);
            assert_eq!(p.legal_move_count(), generated, "{text}: {p}");
        }
    }
}

#[test]
fn unmoves_are_exactly_the_reversed_moves() {
    for text in variants() {
        let rules: Rules = text.parse().unwrap();
        let positions = all_positions(&rules);
        // Forward: every unfinished arrangement's successors, each seen from its mover.
        let mut predecessors: HashMap<Arrangement, HashSet<Arrangement>> = HashMap::new();
        for p in positions.iter().filter(|p| !p.is_finished()) {
            let q = arrangement(p);
            q.for_each_move(&rules, |_, l, from, to| {
                let next = Arrangement {
                    mover: q.other,
                    other: l,
                    neutrals: (q.neutrals - from) | to,
                };
                assert!(
                    predecessors.entry(next).or_default().insert(q),
                    "one edge per move"
                );
            });
        }
        for p in &positions {
            let here = arrangement(p);
            let mut backward = HashSet::new();
            here.for_each_unmove(&rules, |i, l, neutrals| {
                assert_eq!(rules.board().geometry().placements()[i], l);
                let previous = Arrangement {
                    mover: l,
                    other: here.mover,
                    neutrals,
                };
                assert!(backward.insert(previous), "{text}: an unmove found twice");
            });
            let forward = predecessors.remove(&here).unwrap_or_default();
            assert_eq!(backward, forward, "{text}: {p}");
        }
    }
}
