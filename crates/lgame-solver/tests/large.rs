//! The large-board solver against the in-memory `Tablebase` (the reference), position by
//! position; its class counts against brute-force enumeration; checkpoint and resume; the
//! memory-mapped file; and a minimax step check on samples.

use std::time::Duration;

use lgame::position::all_positions;
use lgame::{Position, Rules};
use lgame_solver::large::{self, LargeOptions, LargeStats, LargeTable, LossPass, Space};
use lgame_solver::{Tablebase, Value};

mod common;
use common::spaces::SMALL_SPACES as SPACES;

fn solve(rules: &Rules) -> (Space, Vec<u8>) {
    let space = Space::new(rules).unwrap();
    let outcome = large::solve(&space, None, &LargeOptions::default()).unwrap();
    assert!(outcome.complete);
    (space, outcome.table)
}

fn value(space: &Space, table: &[u8], p: &Position) -> Value {
    large::decode_slot(table, space.slot_of(p).unwrap())
}

/// Value and distance on every position; the classes' sizes summed against brute-force
/// enumeration; the figures against the reference's statistics.
#[test]
fn every_position_has_the_reference_value_and_the_counts_are_the_enumerations() {
    for text in SPACES {
        let rules: Rules = text.parse().unwrap();
        let (space, table) = solve(&rules);
        let tb = Tablebase::solve(&rules);
        let all = all_positions(&rules);
        for p in &all {
            assert_eq!(
                value(&space, &table, p),
                tb.value(p).unwrap(),
                "{text}: {p}"
            );
        }
        let stats = LargeStats::of(&space, &table);
        assert_eq!(stats.positions, all.len() as u64, "{text}");
        assert_eq!(space.positions(), all.len() as u64, "{text}");
        let classes: std::collections::HashSet<String> =
            all.iter().map(|p| p.canonical().to_string()).collect();
        assert_eq!(stats.classes, classes.len() as u64, "{text}");
        let reference = lgame_solver::Statistics::of(&tb);
        assert_eq!(
            (stats.won, stats.lost, stats.drawn, stats.trapped),
            (
                reference.won,
                reference.lost,
                reference.drawn,
                reference.trapped
            ),
            "{text}"
        );
        assert_eq!(stats.longest_win, reference.longest_win_plies, "{text}");
    }
}

#[test]
fn pushing_and_pulling_the_losses_give_the_same_table() {
    for text in ["classic", "neutrals=5", "board=5x4,neutrals=4"] {
        let rules: Rules = text.parse().unwrap();
        let space = Space::new(&rules).unwrap();
        let run = |loss_pass| {
            let options = LargeOptions {
                loss_pass,
                ..LargeOptions::default()
            };
            large::solve(&space, None, &options).unwrap().table
        };
        let pushed = run(LossPass::Push);
        assert_eq!(run(LossPass::Pull), pushed, "{text}");
        assert_eq!(solve(&rules).1, pushed, "{text}");
        assert!(
            pushed.iter().any(|&b| b > 1 && (b - 1) % 2 == 0),
            "{text}: a loss beyond 0"
        );
    }
}

#[test]
fn a_stopped_run_resumed_from_its_checkpoint_gives_the_same_table() {
    let dir = std::env::temp_dir().join(format!("lgame-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.lgbig");
    for text in ["classic", "board=5x4,neutrals=5"] {
        let rules: Rules = text.parse().unwrap();
        let space = Space::new(&rules).unwrap();
        let (_, whole) = solve(&rules);
        let stopped = large::solve(
            &space,
            None,
            &LargeOptions {
                file: Some(&path),
                stop_after_level: Some(2),
                ..LargeOptions::default()
            },
        )
        .unwrap();
        assert!(!stopped.complete, "{text}: more than 3 levels");
        assert_eq!(stopped.next_level, 3);
        assert_ne!(
            stopped.table, whole,
            "{text}: the stopped table is unfinished"
        );
        let checkpoint = LargeTable::open(&path).unwrap();
        assert!(!checkpoint.is_complete());
        assert!(checkpoint.value(&rules.start_position()).is_err());
        let resume = (checkpoint.bytes().to_vec(), checkpoint.next_level());
        drop(checkpoint);
        let resumed = large::solve(
            &space,
            Some(resume),
            &LargeOptions {
                file: Some(&path),
                checkpoint_every: Duration::ZERO,
                ..LargeOptions::default()
            },
        )
        .unwrap();
        assert!(resumed.complete);
        assert_eq!(resumed.table, whole, "{text}");
        let file = LargeTable::open(&path).unwrap();
        assert_eq!(file.bytes(), &whole[..]);
        let tb = Tablebase::solve(&rules);
        for p in all_positions(&rules).iter().step_by(97) {
            assert_eq!(file.value(p).unwrap(), tb.value(p).unwrap(), "{text}: {p}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_or_foreign_file_is_refused_with_a_reason() {
    let dir = std::env::temp_dir().join(format!("lgame-large-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.lgbig");
    std::fs::write(&path, b"not a table at all, just words").unwrap();
    let e = LargeTable::open(&path).err().unwrap().to_string();
    assert!(e.contains("LGAMEBIG"), "{e}");
    let rules: Rules = "classic".parse().unwrap();
    let space = Space::new(&rules).unwrap();
    large::solve(
        &space,
        None,
        &LargeOptions {
            file: Some(&path),
            ..LargeOptions::default()
        },
    )
    .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.pop();
    std::fs::write(&path, &bytes).unwrap();
    let e = LargeTable::open(&path).err().unwrap().to_string();
    assert!(e.contains("slots"), "{e}");
    large::solve(
        &space,
        None,
        &LargeOptions {
            file: Some(&path),
            ..LargeOptions::default()
        },
    )
    .unwrap();
    let table = LargeTable::open(&path).unwrap();
    let other: Rules = "neutrals=3".parse().unwrap();
    let e = table
        .value(&other.start_position())
        .unwrap_err()
        .to_string();
    assert!(e.contains("neutrals=3"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each sampled position's value follows from its successors' values in the table: the
/// minimax step (win in d+1 over a loss in d, the fastest; loss one beyond the slowest win
/// when every move wins for the opponent; else a draw).
pub fn minimax_step_holds(space: &Space, table: &[u8], p: &Position) -> Result<(), String> {
    let mut successors = Vec::new();
    p.for_each_legal_move(|mv| {
        let q = p.play_unchecked(&mv);
        successors.push(large::decode_slot(table, space.slot_of(&q).unwrap()));
    });
    let here = large::decode_slot(table, space.slot_of(p).unwrap());
    let fastest_win = successors
        .iter()
        .filter_map(|v| match v {
            Value::Loss(d) => Some(d + 1),
            _ => None,
        })
        .min();
    let expected = if let Some(d) = fastest_win {
        Value::Win(d)
    } else if successors.is_empty() {
        Value::Loss(0)
    } else if successors.iter().all(|v| matches!(v, Value::Win(_))) {
        let slowest = successors.iter().filter_map(|v| v.plies()).max().unwrap();
        Value::Loss(slowest + 1)
    } else {
        Value::Draw
    };
    if here == expected {
        Ok(())
    } else {
        Err(format!("{p}: table {here:?}, successors say {expected:?}"))
    }
}

#[test]
fn sampled_positions_of_a_larger_space_pass_the_minimax_step() {
    // 6×4 with 5 neutrals: 16.6 million positions, beyond the reference's report limit.
    let rules: Rules = "board=6x4,neutrals=5".parse().unwrap();
    let (space, table) = solve(&rules);
    let stats = LargeStats::of(&space, &table);
    assert_eq!(stats.positions, 16_598_400);
    assert!(
        stats.lost > 0,
        "some trapped positions exist on 6x4 with 5 neutrals"
    );
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut decided = 0;
    for _ in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let slot = x % space.slots();
        if space.class_size(slot) == 0 {
            continue;
        }
        let p = space.position(slot);
        minimax_step_holds(&space, &table, &p).unwrap();
        decided += usize::from(table[slot as usize] != 0);
    }
    // And one decided class in 16: the samples above are mostly draws.
    for (slot, _) in table
        .iter()
        .enumerate()
        .filter(|(_, &b)| b != 0)
        .step_by(16)
    {
        if space.class_size(slot as u64) > 0 {
            minimax_step_holds(&space, &table, &space.position(slot as u64)).unwrap();
            decided += 1;
        }
    }
    assert!(decided > 0);
}
