//! Solve speed: the classic game and other variants, each solved whole.
//!
//! Run with `cargo bench -p lgame-solver --bench solve`. CI only compiles it.

use divan::{black_box, Bencher};
use lgame::Rules;
use lgame_solver::{Method, SolveOptions, Tablebase};

fn main() {
    divan::main();
}

fn solve(rules: &str, method: Method) -> Tablebase {
    let rules: Rules = rules.parse().expect("valid rules");
    let options = SolveOptions {
        method,
        ..SolveOptions::default()
    };
    Tablebase::solve_with(&rules, options).expect("solvable")
}

/// All 18,368 classic positions, values and distances (the default method: levels).
#[divan::bench]
fn classic(bencher: Bencher) {
    bencher.bench_local(|| solve(black_box("classic"), Method::Auto));
}

/// The classic game by the move-graph method, for comparison.
#[divan::bench]
fn classic_by_graph(bencher: Bencher) {
    bencher.bench_local(|| solve(black_box("classic"), Method::Graph));
}

/// Other 4×4 variants.
#[divan::bench(args = ["misere", "sudden-death", "neutral-required", "symmetry", "neutrals=3"])]
fn variant(bencher: Bencher, rules: &str) {
    bencher.bench_local(|| solve(black_box(rules), Method::Auto));
}

/// Larger spaces: 5×5 with two neutrals (620,160 positions, levels), and scoring to 10
/// (1,824,800 positions, score layers).
#[divan::bench(args = ["board=5x5", "scoring"], sample_count = 3, sample_size = 1)]
fn large(bencher: Bencher, rules: &str) {
    bencher.bench_local(|| solve(black_box(rules), Method::Auto));
}
