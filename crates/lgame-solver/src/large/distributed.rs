//! The level solve on several processes (MPI ranks), each holding a share of the table.
//!
//! The levels and the rules that decide a class are the one-process solve's ([`Step`]); what
//! differs is where a slot lives. Rank r holds the slots of `Shares::range(r)`, a contiguous
//! run of the table made of whole *mover runs*: the orbits whose first pair has the same
//! mover's L (the least of its symmetry images), so one run holds every class whose mover's
//! L is in one orbit of placements.
//!
//! That choice makes every forward check local. After a move the other L moves next, so all
//! the successors of a class lie in the mover run of its other L. A loss level's candidate
//! is a predecessor of a frontier class, whose other L is that frontier class's mover: the
//! candidate's successors all lie in the frontier class's own run, held by the rank walking
//! back from it. So a rank walks back from its own frontier, checks each candidate forwards
//! in its own memory, and sends only the decisions: "slot k is decided at this level if it
//! is still undecided", to k's owner, which applies it with the one-process solve's
//! compare-and-swap from undecided. A pulled loss level (see [`super::LossPass`]) runs the
//! same way round: each rank checks the classes whose successors it holds (whoever owns
//! them) and sends the ones it finds lost.
//!
//! A level runs in rounds: each rank scans up to [`ROUND`] slots of its work, sorts and
//! deduplicates its updates per owner, and every rank exchanges them at once
//! ([`Ranks::exchange`], MPI's all-to-all); the ranks agree beforehand on the number of
//! rounds (the most any rank needs), so after the last exchange every update sent has been
//! applied, and a sum over the ranks gives the level's count: the level's end is that
//! collective. A decision never depends on the order of the updates (what a level writes is
//! never read as a win or a frontier in that level), so the table is the one-process
//! solve's byte for byte.
//!
//! Checkpoints and the result are one file, the one-process solve's: rank 0 gathers the
//! shares piece by piece ([`PIECE`]) and writes them; a resume reads the file on rank 0 and
//! scatters it, so a run can resume with another number of ranks.

use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::solve::{as_atomic, frontier_and_open, level_zero, pulls_losses, Reporter, Step, CHUNK};
use super::{decode, file, LargeOptions, LargeSolveError, LargeStats, LargeTable, Space};
use crate::value::Value;

/// The slots a rank scans between two exchanges of updates.
pub const ROUND: u64 = 1 << 20;

/// The bytes of a share sent at once to or from rank 0 when a file is written or read.
pub const PIECE: u64 = 16 << 20;

/// What a distributed solve needs from its ranks (MPI's collectives): every rank calls
/// each method, in the same order.
pub trait Ranks {
    /// This rank's number, from 0.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Sends `batches[r]` to rank r, every rank at once; returns what the ranks sent here.
    fn exchange(&self, batches: &[Vec<u64>]) -> Vec<u64>;
    /// The sum of `value` over the ranks, on every rank.
    fn sum(&self, value: u64) -> u64;
    /// The largest `value` of the ranks, on every rank.
    fn max(&self, value: u64) -> u64;
    /// Rank 0 gets every rank's piece, one after the other in the ranks' order; the others
    /// get nothing.
    fn gather(&self, piece: &[u8]) -> Vec<u8>;
    /// Rank 0 gives each rank its piece: `pieces` holds them one after the other in the
    /// ranks' order, `lengths` their lengths (both read on rank 0 only); each rank gets its
    /// own.
    fn scatter(&self, pieces: &[u8], lengths: &[usize]) -> Vec<u8>;
}

/// The ranks' shares of a space's slots: contiguous, each of whole mover runs (see the
/// module's text), cut at the run boundary nearest to an even split (a rank beyond the
/// number of runs holds none).
#[derive(Debug, Clone)]
pub struct Shares {
    bounds: Vec<u64>,
}

impl Shares {
    /// The shares of `ranks` ranks.
    pub fn new(space: &Space, ranks: usize) -> Shares {
        let runs = space.mover_runs();
        let slots = space.slots();
        let mut bounds = vec![0];
        for r in 1..ranks as u64 {
            let even = (u128::from(slots) * u128::from(r) / ranks as u128) as u64;
            let after = runs.partition_point(|&b| b < even).min(runs.len() - 1);
            let nearest = [runs[after.saturating_sub(1)], runs[after]]
                .into_iter()
                .min_by_key(|b| b.abs_diff(even))
                .expect("two bounds");
            bounds.push(nearest.max(bounds[bounds.len() - 1]));
        }
        bounds.push(slots);
        Shares { bounds }
    }

    /// The slots rank `rank` holds.
    pub fn range(&self, rank: usize) -> Range<u64> {
        self.bounds[rank]..self.bounds[rank + 1]
    }

    /// The largest share: the memory a rank needs for its table, in bytes.
    pub fn largest(&self) -> u64 {
        self.bounds
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }

    /// The rank that holds `slot`.
    pub fn owner(&self, slot: u64) -> usize {
        self.bounds.partition_point(|&b| b <= slot) - 1
    }
}

/// A finished or stopped distributed solve, as one rank sees it.
#[derive(Debug)]
pub struct DistributedOutcome {
    /// This rank's share of the table.
    pub share: Vec<u8>,
    /// The slot of the share's first byte.
    pub first_slot: u64,
    /// The next level to run.
    pub next_level: u32,
    /// Whether every level is done.
    pub complete: bool,
    /// The classes decided at each level solved in this run, over all the ranks.
    pub decided: Vec<(u32, u64)>,
    /// The updates sent between ranks at each level solved in this run (8 bytes each, after
    /// removing the duplicates of a round), over all the ranks.
    pub sent: Vec<u64>,
}

impl DistributedOutcome {
    /// The whole table's figures (every rank calls it; every rank gets them).
    pub fn stats(&self, space: &Space, ranks: &dyn Ranks) -> LargeStats {
        let s = LargeStats::of_share(space, &self.share, self.first_slot);
        LargeStats {
            positions: ranks.sum(s.positions),
            classes: ranks.sum(s.classes),
            trapped: ranks.sum(s.trapped),
            won: ranks.sum(s.won),
            lost: ranks.sum(s.lost),
            drawn: ranks.sum(s.drawn),
            longest_win: match ranks.max(s.longest_win.map_or(0, |d| u64::from(d) + 1)) {
                0 => None,
                d => Some((d - 1) as u16),
            },
        }
    }

    /// The value at `slot` (every rank calls it; every rank gets it).
    pub fn value(&self, ranks: &dyn Ranks, slot: u64) -> Value {
        let byte = slot
            .checked_sub(self.first_slot)
            .and_then(|i| self.share.get(i as usize))
            .copied()
            .unwrap_or(0);
        decode(ranks.sum(u64::from(byte)) as u8)
    }
}

/// Solves `space` on the ranks, from the start or, when rank 0 is given `resume_from`
/// (the others `None`), from that checkpoint. `options.file` is written by rank 0;
/// `options.progress` reports the calling rank's own work (give it to rank 0 alone).
pub fn solve_distributed(
    space: &Space,
    ranks: &dyn Ranks,
    resume_from: Option<&LargeTable>,
    options: &LargeOptions<'_>,
) -> Result<DistributedOutcome, LargeSolveError> {
    let me = ranks.rank();
    let shares = Shares::new(space, ranks.size());
    let own = shares.range(me);
    let mut share = vec![0u8; (own.end - own.start) as usize];
    let mut level = 0;
    if ranks.sum(u64::from(resume_from.is_some())) > 0 {
        level = ranks.sum(resume_from.map_or(0, |t| u64::from(t.next_level()))) as u32;
        scatter_table(ranks, &shares, resume_from, &mut share);
    }
    let (mut decided, mut sent) = (Vec::new(), Vec::new());
    let mut last_checkpoint = Instant::now();
    let complete = loop {
        let atoms = as_atomic(&mut share);
        let (new, updates) = if level == 0 {
            let progress = Reporter::new(options, 0, own.end - own.start);
            (ranks.sum(level_zero(space, atoms, own.start, &progress)), 0)
        } else {
            level_step(space, ranks, &shares, atoms, Step::new(level)?, options)
        };
        decided.push((level, new));
        sent.push(updates);
        level += 1;
        if new == 0 {
            break true;
        }
        let stop = options.stop_after_level.is_some_and(|s| level > s);
        if let Some(path) = options.file {
            // Rank 0's clock decides, so that every rank takes part in the same checkpoints.
            let due = me == 0 && last_checkpoint.elapsed() >= options.checkpoint_every;
            if stop || ranks.sum(u64::from(due)) > 0 {
                write_gathered(path, space, ranks, &shares, &share, level, false)?;
                last_checkpoint = Instant::now();
            }
        }
        if stop {
            break false;
        }
    };
    if complete {
        if let Some(path) = options.file {
            write_gathered(path, space, ranks, &shares, &share, level, true)?;
        }
    }
    Ok(DistributedOutcome {
        share,
        first_slot: own.start,
        next_level: level,
        complete,
        decided,
        sent,
    })
}

/// Level `step` on the ranks: each scans its work in rounds, exchanging the updates that
/// fall in other ranks' shares after each round; returns the classes decided and the
/// updates sent, over all the ranks.
fn level_step(
    space: &Space,
    ranks: &dyn Ranks,
    shares: &Shares,
    share: &[AtomicU8],
    step: Step,
    options: &LargeOptions<'_>,
) -> (u64, u64) {
    let (me, n) = (ranks.rank(), ranks.size());
    let own = shares.range(me);
    let cell = |s: u64| &share[(s - own.start) as usize];
    let read = |s: u64| cell(s).load(Ordering::Relaxed);
    let set = |k: u64| {
        cell(k)
            .compare_exchange(0, step.byte, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    };
    let open = |k: u64| !own.contains(&k) || read(k) == 0;
    let pull = !step.wins && {
        let (front, undecided) = frontier_and_open(share, step.frontier);
        pulls_losses(
            space,
            ranks.sum(front),
            ranks.sum(undecided),
            options.loss_pass,
        )
    };
    let mut work = if pull {
        Work::checked_by(space, shares, me)
    } else {
        Work::new(vec![own.clone()])
    };
    let progress = Reporter::new(options, step.level, work.total);
    let rounds = ranks.max(work.total.div_ceil(ROUND));
    let no_batches = || vec![Vec::new(); n];
    let (mut new, mut sent) = (0, 0);
    for _ in 0..rounds {
        let (found, mut batches) = work
            .next_round()
            .into_par_iter()
            .map(|piece| {
                let mut batches = no_batches();
                let mut found = 0u64;
                let mut decide = |k: u64| match shares.owner(k) {
                    owner if owner != me => batches[owner].push(k),
                    _ => found += u64::from(set(k)),
                };
                for slot in piece.clone() {
                    if pull {
                        if open(slot) && space.is_used(slot) && step.all_won(space, slot, &read) {
                            decide(slot);
                        }
                    } else if read(slot) == step.frontier {
                        step.walk_back(space, slot, open, &read, &mut decide);
                    }
                }
                progress.add(piece.end - piece.start);
                (found, batches)
            })
            .reduce(
                || (0, no_batches()),
                |(a, mut into), (b, from)| {
                    for (into, from) in into.iter_mut().zip(from) {
                        into.extend(from);
                    }
                    (a + b, into)
                },
            );
        batches.par_iter_mut().for_each(|b| {
            b.sort_unstable();
            b.dedup();
        });
        sent += batches.iter().map(|b| b.len() as u64).sum::<u64>();
        let received = ranks.exchange(&batches);
        new += found + received.par_iter().filter(|&&k| set(k)).count() as u64;
    }
    (ranks.sum(new), ranks.sum(sent))
}

/// The slots a rank scans in a level, handed out in rounds of at most [`ROUND`] slots cut
/// in pieces of at most [`CHUNK`] (the parallel unit).
struct Work {
    ranges: std::vec::IntoIter<Range<u64>>,
    current: Range<u64>,
    total: u64,
}

impl Work {
    fn new(ranges: Vec<Range<u64>>) -> Work {
        Work {
            total: ranges.iter().map(|r| r.end - r.start).sum(),
            ranges: ranges.into_iter(),
            current: 0..0,
        }
    }

    /// A pulled loss level's work for `rank`: the classes whose successors it holds.
    fn checked_by(space: &Space, shares: &Shares, rank: usize) -> Work {
        let subsets = space.subsets();
        let mut ranges: Vec<Range<u64>> = Vec::new();
        for orbit in 0..space.orbits() {
            if shares.owner(space.successors_run(orbit)) != rank {
                continue;
            }
            let slots = orbit as u64 * subsets..(orbit as u64 + 1) * subsets;
            match ranges.last_mut() {
                Some(last) if last.end == slots.start => last.end = slots.end,
                _ => ranges.push(slots),
            }
        }
        Work::new(ranges)
    }

    fn next_round(&mut self) -> Vec<Range<u64>> {
        let mut pieces = Vec::new();
        let mut left = ROUND;
        while left > 0 {
            if self.current.is_empty() {
                match self.ranges.next() {
                    Some(next) => self.current = next,
                    None => break,
                }
                continue;
            }
            let len = (self.current.end - self.current.start)
                .min(left)
                .min(CHUNK as u64);
            pieces.push(self.current.start..self.current.start + len);
            self.current.start += len;
            left -= len;
        }
        pieces
    }
}

/// The part of a share of `len` bytes sent in round `i` of a file's reading or writing.
fn piece(len: u64, i: u64) -> Range<usize> {
    let start = (i * PIECE).min(len);
    start as usize..(start + PIECE).min(len) as usize
}

/// Writes the table to `path` from rank 0, which gathers the shares piece by piece.
fn write_gathered(
    path: &std::path::Path,
    space: &Space,
    ranks: &dyn Ranks,
    shares: &Shares,
    share: &[u8],
    next_level: u32,
    complete: bool,
) -> Result<(), LargeSolveError> {
    let rounds = shares.largest().div_ceil(PIECE);
    let mine = |i: u64| &share[piece(share.len() as u64, i)];
    let mut gathered = 0;
    let written = if ranks.rank() == 0 {
        file::write_with(path, space, next_level, complete, |f, start| {
            let mut written = Ok(());
            for i in 0..rounds {
                let pieces = ranks.gather(mine(i));
                gathered += 1;
                let mut from = 0;
                for r in 0..ranks.size() {
                    let range = shares.range(r);
                    let part = piece(range.end - range.start, i);
                    let p = &pieces[from..from + part.len()];
                    from += part.len();
                    if written.is_ok() {
                        written = file::write_at(f, start + range.start + part.start as u64, p);
                    }
                }
            }
            written
        })
    } else {
        Ok(())
    };
    // Every rank takes part in every round, whatever failed on rank 0.
    for i in gathered..rounds {
        ranks.gather(mine(i));
    }
    let failed = ranks.sum(u64::from(written.is_err())) > 0;
    match written {
        Err(e) => Err(LargeSolveError::Io(e)),
        Ok(()) if failed => Err(LargeSolveError::OnRankZero),
        Ok(()) => Ok(()),
    }
}

/// Fills each rank's share from the checkpoint rank 0 holds, piece by piece.
fn scatter_table(ranks: &dyn Ranks, shares: &Shares, table: Option<&LargeTable>, share: &mut [u8]) {
    for i in 0..shares.largest().div_ceil(PIECE) {
        let (mut pieces, mut lengths) = (Vec::new(), Vec::new());
        if let Some(t) = table {
            for r in 0..ranks.size() {
                let range = shares.range(r);
                let part = piece(range.end - range.start, i);
                let at = range.start as usize;
                pieces.extend_from_slice(&t.bytes()[at + part.start..at + part.end]);
                lengths.push(part.len());
            }
        }
        let mine = ranks.scatter(&pieces, &lengths);
        let part = piece(share.len() as u64, i);
        share[part].copy_from_slice(&mine);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_whole_mover_runs_covering_the_table() {
        for text in ["classic", "board=6x5,neutrals=7", "board=8x8,neutrals=4"] {
            let space = Space::new(&text.parse().unwrap()).unwrap();
            let runs = space.mover_runs();
            for n in 1..=6 {
                let shares = Shares::new(&space, n);
                assert_eq!(shares.range(0).start, 0, "{text}");
                assert_eq!(shares.range(n - 1).end, space.slots(), "{text}");
                for r in 0..n {
                    let range = shares.range(r);
                    assert!(runs.contains(&range.start), "{text}: {n} ranks");
                    if !range.is_empty() {
                        assert_eq!(shares.owner(range.start), r, "{text}");
                        assert_eq!(shares.owner(range.end - 1), r, "{text}");
                    }
                }
            }
            // Each orbit's successors lie in one run, whose mover is the other L's least image.
            for orbit in 0..space.orbits() {
                assert!(runs.contains(&space.successors_run(orbit)), "{text}");
            }
        }
    }
}
