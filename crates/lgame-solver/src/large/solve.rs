//! The large solver: retrograde analysis by levels of distance on one byte a class.
//!
//! Level 0 marks the trapped classes lost (distance 0). Level d ≥ 1 scans the table for the
//! classes decided at distance d − 1 (the frontier) and walks back from each with the rules
//! crate's unmove generator:
//! - from a loss, every undecided predecessor is a win in d (the winner hurries);
//! - from a win, every undecided predecessor is a candidate, checked forwards: when every
//!   successor is a decided win it is a loss in d (its slowest successor was just decided,
//!   at d − 1: the loser delays).
//!
//! No counters are kept (a byte a class is all the memory), so a candidate is checked again
//! from each of its successors that becomes a win; the check stops at the first successor
//! not yet won. The solve ends at the first level that decides nothing: what is undecided
//! is a draw. Each level runs in parallel over chunks of the table; a class is set with a
//! compare-and-swap from undecided, and what a level writes (d + 1) is never read as a
//! frontier or a won successor in that level, so the result does not depend on the order
//! of the threads.

use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{file, Space};

/// Where a solve has got to, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LargeProgress {
    /// The level (distance) being solved.
    pub level: u32,
    /// Slots scanned so far in this level.
    pub done: u64,
    /// Slots in all.
    pub total: u64,
}

/// How a loss level finds its candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LossPass {
    /// Pull when the frontier's predecessors would outnumber the undecided classes.
    #[default]
    Auto,
    /// From each win of the frontier, its undecided predecessors (few decided classes).
    Push,
    /// Every undecided class (many decided classes: a check that mostly fails at once).
    Pull,
}

/// How to run a large solve.
#[derive(Default)]
pub struct LargeOptions<'a> {
    /// How loss levels find their candidates (the result is the same).
    pub loss_pass: LossPass,
    /// Where to write checkpoints and the finished table.
    pub file: Option<&'a Path>,
    /// The least time between two checkpoints (written after a level; zero: after each).
    pub checkpoint_every: Duration,
    /// Stop (with a checkpoint) once this level is done: a stopped run, for tests.
    pub stop_after_level: Option<u32>,
    /// Called now and then from the worker threads.
    pub progress: Option<&'a (dyn Fn(LargeProgress) + Sync)>,
}

/// A finished or stopped solve.
#[derive(Debug)]
pub struct LargeOutcome {
    /// A byte a slot ([`super::decode`]).
    pub table: Vec<u8>,
    /// The next level to run.
    pub next_level: u32,
    /// Whether every level is done.
    pub complete: bool,
    /// The classes decided at each level solved in this run (levels before a resume
    /// excluded).
    pub decided: Vec<(u32, u64)>,
}

/// Why a large solve failed.
#[derive(Debug)]
pub enum LargeSolveError {
    /// A distance above 254 plies, more than a byte holds.
    TooDeep,
    /// The table given to resume from does not fit the space.
    WrongTable {
        /// Its length.
        len: u64,
        /// The space's slots.
        slots: u64,
    },
    /// Writing a checkpoint failed.
    Io(std::io::Error),
    /// A distributed solve's rank 0 failed to write a checkpoint (its own error says why).
    OnRankZero,
}

impl std::fmt::Display for LargeSolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LargeSolveError::TooDeep => {
                f.write_str("a distance exceeds the 254 plies a byte holds")
            }
            LargeSolveError::WrongTable { len, slots } => write!(
                f,
                "the table to resume from has {len} slots, the space {slots}"
            ),
            LargeSolveError::Io(e) => write!(f, "writing the checkpoint: {e}"),
            LargeSolveError::OnRankZero => {
                f.write_str("rank 0 could not write the checkpoint (its own error says why)")
            }
        }
    }
}

impl std::error::Error for LargeSolveError {}

/// Slots scanned between two progress reports and the parallel work unit.
pub(crate) const CHUNK: usize = 1 << 16;

/// Solves `space`, from the start or from a stopped run's table and next level.
pub fn solve(
    space: &Space,
    resume: Option<(Vec<u8>, u32)>,
    options: &LargeOptions<'_>,
) -> Result<LargeOutcome, LargeSolveError> {
    let slots = space.slots();
    let (mut table, mut level) = resume.unwrap_or_else(|| (vec![0u8; slots as usize], 0));
    if table.len() as u64 != slots {
        return Err(LargeSolveError::WrongTable {
            len: table.len() as u64,
            slots,
        });
    }
    let mut decided = Vec::new();
    let mut last_checkpoint = Instant::now();
    let complete = loop {
        let atoms = as_atomic(&mut table);
        let progress = Reporter::new(options, level, slots);
        let new = if level == 0 {
            level_zero(space, atoms, 0, &progress)
        } else {
            level_step(
                space,
                atoms,
                Step::new(level)?,
                options.loss_pass,
                &progress,
            )
        };
        decided.push((level, new));
        level += 1;
        if new == 0 {
            break true;
        }
        let stop = options.stop_after_level.is_some_and(|s| level > s);
        if let Some(path) = options.file {
            if stop || last_checkpoint.elapsed() >= options.checkpoint_every {
                file::write(path, space, &table, level, false).map_err(LargeSolveError::Io)?;
                last_checkpoint = Instant::now();
            }
        }
        if stop {
            break false;
        }
    };
    if complete {
        if let Some(path) = options.file {
            file::write(path, space, &table, level, true).map_err(LargeSolveError::Io)?;
        }
    }
    Ok(LargeOutcome {
        table,
        next_level: level,
        complete,
        decided,
    })
}

pub(crate) fn as_atomic(table: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the size and alignment of u8, and the exclusive borrow means no
    // other access for the lifetime of the atomic view.
    unsafe { &*(table as *mut [u8] as *const [AtomicU8]) }
}

/// Reports a level's progress: slots scanned out of `total`.
pub(crate) struct Reporter<'a> {
    progress: Option<&'a (dyn Fn(LargeProgress) + Sync)>,
    level: u32,
    total: u64,
    done: AtomicU64,
}

impl<'a> Reporter<'a> {
    pub(crate) fn new(options: &LargeOptions<'a>, level: u32, total: u64) -> Reporter<'a> {
        Reporter {
            progress: options.progress,
            level,
            total,
            done: AtomicU64::new(0),
        }
    }

    pub(crate) fn add(&self, scanned: u64) {
        let done = self.done.fetch_add(scanned, Ordering::Relaxed) + scanned;
        if let Some(progress) = self.progress {
            progress(LargeProgress {
                level: self.level,
                done,
                total: self.total,
            });
        }
    }
}

/// One level ≥ 1 and the rules that decide a class in it: shared by the one-process solve
/// and the distributed one, which differ only in where a slot is read and written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub(crate) level: u32,
    /// What the level writes: distance `level`, stored + 1.
    pub(crate) byte: u8,
    /// The frontier's byte: distance `level` − 1.
    pub(crate) frontier: u8,
    /// From losses come wins (odd levels); from wins, losses.
    pub(crate) wins: bool,
}

impl Step {
    pub(crate) fn new(level: u32) -> Result<Step, LargeSolveError> {
        Ok(Step {
            level,
            byte: u8::try_from(level + 1).map_err(|_| LargeSolveError::TooDeep)?,
            frontier: level as u8,
            wins: level % 2 == 1,
        })
    }

    /// Whether a stored byte is a win decided before this level.
    fn is_earlier_win(&self, b: u8) -> bool {
        b != 0 && b < self.byte && (b - 1) % 2 == 1
    }

    /// Whether the class at `k` is lost at this level: every successor is a win decided
    /// before it (its slowest one is then at level − 1, or it would have been lost earlier).
    /// `read` gives a slot's byte; the check stops at the first successor not won.
    pub(crate) fn all_won(&self, space: &Space, k: u64, read: &impl Fn(u64) -> u8) -> bool {
        let rules = space.rules();
        let (_, o, there) = space.arrangement(k);
        there.all_moves(rules, |l, _, from, to| {
            self.is_earlier_win(read(space.slot_of_parts(
                o,
                l,
                (there.neutrals - from) | to,
            )))
        })
    }

    /// Walks back from the frontier class at `slot`: calls `decide` with each predecessor
    /// this level decides if it is still undecided — on a win level every predecessor, on a
    /// loss level those whose successors are all won. `open` is asked first (false: known
    /// to be decided, so no check is spent on it).
    pub(crate) fn walk_back(
        &self,
        space: &Space,
        slot: u64,
        open: impl Fn(u64) -> bool,
        read: &impl Fn(u64) -> u8,
        mut decide: impl FnMut(u64),
    ) {
        let (mover, _, here) = space.arrangement(slot);
        here.for_each_unmove(space.rules(), |l, _, previous_neutrals| {
            let k = space.slot_of_parts(l, mover, previous_neutrals);
            if open(k) && (self.wins || self.all_won(space, k, read)) {
                decide(k);
            }
        });
    }
}

/// Marks every trapped class among the slots from `first_slot` on held in `table` lost in
/// 0; returns how many.
pub(crate) fn level_zero(
    space: &Space,
    table: &[AtomicU8],
    first_slot: u64,
    progress: &Reporter<'_>,
) -> u64 {
    let g = space.rules().board().geometry();
    let placements = space.placements();
    let subsets = space.subsets() as usize;
    table
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let start = first_slot + (c * CHUNK) as u64;
            let mut new = 0;
            let mut i = 0;
            while i < chunk.len() {
                let slot = start + i as u64;
                let orbit = (slot / subsets as u64) as usize;
                let fixed = space.orbit_is_fixed(orbit);
                // The slots of this orbit within the chunk share their pair of Ls.
                let end = chunk
                    .len()
                    .min(i + subsets - (slot % subsets as u64) as usize);
                let other = placements[space.parts(slot).1];
                for (j, cell) in chunk.iter().enumerate().take(end).skip(i) {
                    let slot = start + j as u64;
                    if fixed && space.class_size(slot) == 0 {
                        continue;
                    }
                    let (_, _, neutrals) = space.parts(slot);
                    // The mover's own placement always avoids the others: at most it, trapped.
                    if g.placements_avoiding(other | neutrals).count() <= 1 {
                        cell.store(1, Ordering::Relaxed);
                        new += 1;
                    }
                }
                i = end;
            }
            progress.add(chunk.len() as u64);
            new
        })
        .sum()
}

/// Decides the level `step` from the frontier, on the whole table.
fn level_step(
    space: &Space,
    table: &[AtomicU8],
    step: Step,
    loss_pass: LossPass,
    progress: &Reporter<'_>,
) -> u64 {
    let read = |s: u64| table[s as usize].load(Ordering::Relaxed);
    let pull = !step.wins && {
        let (front, open) = frontier_and_open(table, step.frontier);
        pulls_losses(space, front, open, loss_pass)
    };
    table
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let start = (c * CHUNK) as u64;
            let mut new = 0;
            for (i, cell) in chunk.iter().enumerate() {
                let k = start + i as u64;
                let byte = cell.load(Ordering::Relaxed);
                if pull {
                    if byte == 0 && space.is_used(k) && step.all_won(space, k, &read) {
                        cell.store(step.byte, Ordering::Relaxed);
                        new += 1;
                    }
                } else if byte == step.frontier {
                    let open = |k: u64| read(k) == 0;
                    step.walk_back(space, k, open, &read, |k| {
                        if table[k as usize]
                            .compare_exchange(0, step.byte, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                        {
                            new += 1;
                        }
                    });
                }
            }
            progress.add(chunk.len() as u64);
            new
        })
        .sum()
}

/// The classes of the frontier and the undecided ones, counted.
pub(crate) fn frontier_and_open(table: &[AtomicU8], frontier: u8) -> (u64, u64) {
    table
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk.iter().fold((0u64, 0u64), |(f, o), cell| {
                let b = cell.load(Ordering::Relaxed);
                (f + u64::from(b == frontier), o + u64::from(b == 0))
            })
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Whether a loss level pulls: when the frontier's predecessors (estimated as its `front`
/// classes × the placements × the neutral moves) outnumber the `open` (undecided) classes.
pub(crate) fn pulls_losses(space: &Space, front: u64, open: u64, pass: LossPass) -> bool {
    match pass {
        LossPass::Push => return false,
        LossPass::Pull => return true,
        LossPass::Auto => {}
    }
    let k = space.rules().neutrals() as u64;
    let empty = space.rules().board().cell_count() as u64 - 8 - k;
    let predecessors = space.placements().len() as u64 * (1 + k * empty);
    front.saturating_mul(predecessors) > open
}
