//! Retrograde analysis: values and distances for every state, layer by layer.
//!
//! Without scoring the whole space is one layer. Under scoring the scores only grow, so the
//! states are solved in layers of equal scores (a, b) and (b, a), highest total first: a move
//! either stays in its layer (no point scored) or leaves it for a layer already solved.
//!
//! Within a layer: every state's successors are generated with the rules crate (legal moves,
//! then play); successors outside the layer have known values ("exits"). Finished states are
//! decided at distance 0; then, in order of distance, a loss makes each undecided predecessor
//! a win one ply further (the winner hurries), and a predecessor whose successors are all wins
//! becomes a loss one ply beyond the last of them (the loser delays). What is never decided is
//! a draw.

use std::fmt;

use crate::index::StateIndex;
use crate::value::{packed, Value};

/// Where a solve has got to, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// States handled so far.
    pub done: u64,
    /// States in all.
    pub total: u64,
}

/// What a solve will need, known before it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// Indices in the table (positions, plus under scoring a few that are not).
    pub states: u64,
    /// Bytes of the finished table (two per state).
    pub table_bytes: u64,
    /// Peak bytes while solving: the table plus the largest layer's move graph (estimated
    /// from a sample of its states' legal moves).
    pub peak_bytes: u64,
}

/// Options for a solve.
#[derive(Default)]
pub struct SolveOptions<'a> {
    /// Refuse to start when the estimated peak memory exceeds this many bytes.
    pub max_memory: Option<u64>,
    /// Called now and then with the progress.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
}

/// Why a solve was not done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The estimated memory exceeds the limit.
    TooBig {
        /// The estimate.
        estimate: Estimate,
        /// The limit.
        limit: u64,
    },
    /// A distance longer than the table can store.
    TooDeep,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooBig { estimate, limit } => write!(
                f,
                "solving needs about {} for {} states, more than the limit of {} (raise \
                 --max-memory to allow it)",
                human_bytes(estimate.peak_bytes),
                estimate.states,
                human_bytes(*limit)
            ),
            SolveError::TooDeep => f.write_str("a distance exceeds the table's 32,766 plies"),
        }
    }
}

impl std::error::Error for SolveError {}

/// `1.5 GB`, `12 MB`, `900 kB`.
pub fn human_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.0} kB", (b / 1e3).ceil())
    }
}

/// The blocks of indices solved together.
struct Layer {
    blocks: Vec<(u64, u64)>,
}

impl Layer {
    fn len(&self) -> usize {
        self.blocks.iter().map(|b| b.1).sum::<u64>() as usize
    }

    fn global(&self, mut local: usize) -> u64 {
        for &(start, len) in &self.blocks {
            if (local as u64) < len {
                return start + local as u64;
            }
            local -= len as usize;
        }
        unreachable!("local index within the layer")
    }

    fn local(&self, global: u64) -> Option<u32> {
        let mut offset = 0;
        for &(start, len) in &self.blocks {
            if (start..start + len).contains(&global) {
                return Some((offset + global - start) as u32);
            }
            offset += len;
        }
        None
    }
}

/// The layers in the order they are solved.
fn layers(index: &StateIndex) -> Vec<Layer> {
    let sides = index.score_sides() as u8;
    let base = index.base();
    let mut pairs: Vec<(u8, u8)> = (0..sides)
        .flat_map(|a| (a..sides).map(move |b| (a, b)))
        .collect();
    pairs.sort_by_key(|&(a, b)| std::cmp::Reverse(a as u16 + b as u16));
    pairs
        .into_iter()
        .map(|(a, b)| {
            let mut blocks = vec![(index.score_block(a, b), base)];
            if a != b {
                blocks.push((index.score_block(b, a), base));
            }
            Layer { blocks }
        })
        .collect()
}

/// Estimates the memory of a solve from a sample of states' move counts.
pub fn estimate(index: &StateIndex) -> Estimate {
    let layer_states = index.base() * if index.score_sides() > 1 { 2 } else { 1 };
    let step = (index.base() / 500).max(1);
    let (mut sampled, mut moves) = (0u64, 0u64);
    let mut i = 0;
    while i < index.base() {
        if let Some(p) = index.position(i) {
            sampled += 1;
            p.for_each_legal_move(|_| moves += 1);
        }
        i += step;
    }
    let average = if sampled == 0 {
        0
    } else {
        moves.div_ceil(sampled)
    };
    let table_bytes = index.len() * 2;
    // Forward and reverse edge lists (4 bytes an edge each), offsets and per-state scratch.
    let graph = layer_states * (average * 8 + 24);
    Estimate {
        states: index.len(),
        table_bytes,
        peak_bytes: table_bytes + graph,
    }
}

/// Solves every state; returns the packed values.
pub fn solve(index: &StateIndex, mut options: SolveOptions<'_>) -> Result<Vec<u16>, SolveError> {
    if let Some(limit) = options.max_memory {
        let estimate = estimate(index);
        if estimate.peak_bytes > limit {
            return Err(SolveError::TooBig { estimate, limit });
        }
    }
    let mut values = vec![packed::DRAW; index.len() as usize];
    let mut done = 0;
    for layer in layers(index) {
        solve_layer(index, &mut values, &layer, &mut |n| {
            done += n;
            if let Some(progress) = options.progress.as_mut() {
                progress(Progress {
                    done,
                    total: index.len(),
                });
            }
        })?;
    }
    Ok(values)
}

/// A state's standing during the solve.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Open,
    Decided,
    Propagated,
}

fn solve_layer(
    index: &StateIndex,
    values: &mut [u16],
    layer: &Layer,
    progress: &mut dyn FnMut(u64),
) -> Result<(), SolveError> {
    let n = layer.len();
    let mut status = vec![Status::Open; n];
    let mut remaining = vec![0u32; n];
    // Best win through an exit (a successor outside the layer that loses for its mover).
    let mut win_exit = vec![u16::MAX; n];
    // Longest loss through exits (successors outside the layer that win for their mover).
    let mut loss_exit = vec![0u16; n];
    let mut draw_exit = vec![false; n];
    let mut forward_offsets = Vec::with_capacity(n + 1);
    let mut forward: Vec<u32> = Vec::new();
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new()];
    forward_offsets.push(0u32);
    for i in 0..n {
        let g = layer.global(i) as usize;
        match index.position(g as u64) {
            None => {
                values[g] = packed::NOT_A_POSITION;
                status[i] = Status::Propagated;
            }
            Some(p) => {
                if let Some(outcome) = p.outcome() {
                    let value = if outcome.winner == p.turn() {
                        Value::Win(0)
                    } else {
                        Value::Loss(0)
                    };
                    values[g] = packed::pack(value);
                    status[i] = Status::Decided;
                    buckets[0].push(i as u32);
                } else {
                    p.for_each_legal_move(|mv| {
                        let q = p.play_unchecked(&mv);
                        let exit = match index.index_of(&q) {
                            // The other player has reached the target: q's mover has lost.
                            None => Value::Loss(0),
                            Some(h) => match layer.local(h) {
                                Some(j) => {
                                    forward.push(j);
                                    remaining[i] += 1;
                                    return;
                                }
                                None => packed::unpack(values[h as usize])
                                    .expect("successors are positions"),
                            },
                        };
                        match exit.before_move() {
                            Value::Win(d) => win_exit[i] = win_exit[i].min(d),
                            Value::Loss(d) => loss_exit[i] = loss_exit[i].max(d),
                            Value::Draw => draw_exit[i] = true,
                        }
                    });
                }
            }
        }
        forward_offsets.push(forward.len() as u32);
        if i % 4096 == 4095 {
            progress(4096);
        }
    }
    progress(n as u64 % 4096);

    let push = |buckets: &mut Vec<Vec<u32>>, d: u16, i: usize| {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(i as u32);
    };
    for i in 0..n {
        if status[i] != Status::Open {
            continue;
        }
        if win_exit[i] != u16::MAX {
            push(&mut buckets, win_exit[i], i);
        } else if remaining[i] == 0 && !draw_exit[i] {
            values[layer.global(i) as usize] = packed::pack(Value::Loss(loss_exit[i]));
            status[i] = Status::Decided;
            push(&mut buckets, loss_exit[i], i);
        }
    }

    // Predecessors: the forward edges reversed (counting sort by target).
    let mut reverse_offsets = vec![0u32; n + 1];
    for &j in &forward {
        reverse_offsets[j as usize + 1] += 1;
    }
    for i in 0..n {
        reverse_offsets[i + 1] += reverse_offsets[i];
    }
    let mut fill = reverse_offsets.clone();
    let mut reverse = vec![0u32; forward.len()];
    for i in 0..n {
        for &j in &forward[forward_offsets[i] as usize..forward_offsets[i + 1] as usize] {
            reverse[fill[j as usize] as usize] = i as u32;
            fill[j as usize] += 1;
        }
    }
    drop(forward);
    drop(forward_offsets);

    let mut d = 0usize;
    while d < buckets.len() {
        let events = std::mem::take(&mut buckets[d]);
        for &i in &events {
            let i = i as usize;
            let g = layer.global(i) as usize;
            match status[i] {
                Status::Propagated => continue,
                Status::Open => {
                    // A win through an exit, reached in order of distance.
                    values[g] = packed::pack(Value::Win(d as u16));
                }
                Status::Decided => {}
            }
            status[i] = Status::Propagated;
            let value = packed::unpack(values[g]).expect("decided");
            let next = u16::try_from(d + 1)
                .ok()
                .filter(|&n| n <= packed::MAX_PLIES)
                .ok_or(SolveError::TooDeep)?;
            for &k in &reverse[reverse_offsets[i] as usize..reverse_offsets[i + 1] as usize] {
                let k = k as usize;
                if status[k] != Status::Open {
                    continue;
                }
                match value {
                    Value::Loss(_) => {
                        values[layer.global(k) as usize] = packed::pack(Value::Win(next));
                        status[k] = Status::Decided;
                        push(&mut buckets, next, k);
                    }
                    Value::Win(_) => {
                        remaining[k] -= 1;
                        if remaining[k] == 0 && win_exit[k] == u16::MAX && !draw_exit[k] {
                            let plies = next.max(loss_exit[k]);
                            values[layer.global(k) as usize] = packed::pack(Value::Loss(plies));
                            status[k] = Status::Decided;
                            push(&mut buckets, plies, k);
                        }
                    }
                    Value::Draw => unreachable!("draws are never propagated"),
                }
            }
        }
        d += 1;
    }
    Ok(())
}
