//! Move generation speed: every legal move of every classic position (1,632,800 moves).
//!
//! Run with `cargo bench -p lgame --bench movegen`. CI only compiles it.

use divan::{black_box, Bencher};
use lgame::position::all_positions;
use lgame::Rules;

fn main() {
    divan::main();
}

/// Every move of every classic position through the callback fast path.
#[divan::bench]
fn every_classic_move(bencher: Bencher) {
    let positions = all_positions(&Rules::classic());
    bencher.bench_local(|| {
        let mut count = 0usize;
        for p in black_box(&positions) {
            p.for_each_legal_move(|m| {
                black_box(m);
                count += 1;
            });
        }
        assert_eq!(count, 1_632_800);
        count
    });
}

/// The same, collecting each position's moves into one reused vector.
#[divan::bench]
fn every_classic_move_into_a_vector(bencher: Bencher) {
    let positions = all_positions(&Rules::classic());
    let mut moves = Vec::with_capacity(256);
    bencher.bench_local(|| {
        let mut count = 0usize;
        for p in black_box(&positions) {
            moves.clear();
            p.for_each_legal_move(|m| moves.push(m));
            count += black_box(&moves).len();
        }
        count
    });
}

/// Every move of every classic position, played: the successor positions.
#[divan::bench]
fn every_classic_move_played(bencher: Bencher) {
    let positions = all_positions(&Rules::classic());
    bencher.bench_local(|| {
        let mut count = 0usize;
        for p in black_box(&positions) {
            p.for_each_legal_move(|m| {
                black_box(p.play_unchecked(&m));
                count += 1;
            });
        }
        count
    });
}

/// Whether every classic position has a legal move, generation stopping at the first one.
#[divan::bench]
fn first_move_of_every_classic_position(bencher: Bencher) {
    let positions = all_positions(&Rules::classic());
    bencher.bench_local(|| {
        let mut with_moves = 0usize;
        for p in black_box(&positions) {
            let stopped = !p.for_each_legal_move_while(|m| {
                black_box(m);
                false
            });
            with_moves += usize::from(stopped);
        }
        with_moves
    });
}
