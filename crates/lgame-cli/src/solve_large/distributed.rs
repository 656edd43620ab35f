//! `lgame solve-large --distributed`: the solve on the ranks of an `mpirun`, through the `mpi`
//! crate over the system's MPI (Open MPI on Debian). The solver's distributed levels are
//! `lgame_solver::large::solve_distributed`; here are MPI's collectives ([`MpiRanks`]) and
//! the command's messages, printed by rank 0.

use std::io::Write;
use std::time::Instant;

use lgame::Rules;
use lgame_solver::large::{self, LargeProgress, Ranks, Shares, Space};
use lgame_solver::{grouped, human_bytes};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Threading};

use super::{bad, check_memory, open_checkpoint, options, progress_bar, show, Args, Solved};
use crate::output::Failure;

pub(super) fn run(args: &Args, rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    // Only the main thread calls MPI; the solver's worker threads do not.
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| bad(&"MPI could not be initialised"))?;
    let ranks = MpiRanks {
        world: universe.world(),
    };
    // Every rank fails alike (the checks are the same everywhere, the file is rank 0's):
    // rank 0 says why, once.
    solve(&ranks, args, rules, out).map_err(|failure| match (ranks.rank(), failure) {
        (0, failure) => failure,
        (_, Failure::Illegal(_)) => Failure::ReportedElsewhere(1),
        (_, Failure::Io(_)) => Failure::ReportedElsewhere(1),
        (_, _) => Failure::ReportedElsewhere(2),
    })
}

fn solve(
    ranks: &MpiRanks,
    args: &Args,
    rules: &Rules,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let space = Space::new(rules).map_err(|e| bad(&e))?;
    let shares = Shares::new(&space, ranks.size());
    let share = shares.largest();
    check_memory(rules, &space, share, args.max_memory, " a rank")?;
    let first = ranks.rank() == 0;
    let checkpoint = match first && args.resume {
        true => Some(open_checkpoint(args, &space)),
        false => None,
    };
    if ranks.sum(u64::from(matches!(checkpoint, Some(Err(_))))) > 0 {
        return Err(match checkpoint {
            Some(Err(e)) => e,
            _ => bad(&"rank 0 could not resume (its error says why)"),
        });
    }
    let checkpoint = checkpoint.and_then(Result::ok);
    if first {
        eprintln!(
            "Solving {rules}: {} positions, {} slots (a class each under {} symmetries), {} of \
             memory a rank on {} ranks (its share of the table, at most; plus the messages of \
             a round), {} threads a rank",
            grouped(space.positions()),
            grouped(space.slots()),
            space.symmetries(),
            human_bytes(share),
            ranks.size(),
            super::threads()
        );
    }
    let bar = progress_bar(share);
    let report = |p: LargeProgress| show(&bar, p);
    let progress: Option<&(dyn Fn(LargeProgress) + Sync)> = first.then_some(&report);
    let started = Instant::now();
    let outcome =
        large::solve_distributed(&space, ranks, checkpoint.as_ref(), &options(args, progress))
            .map_err(|e| bad(&e))?;
    bar.finish_and_clear();
    if first {
        let sent: Vec<String> = (outcome.decided.iter().zip(&outcome.sent))
            .map(|((level, _), n)| format!("{level}:{n}"))
            .collect();
        eprintln!(
            "Updates sent between ranks: {} (level:updates of 8 bytes)",
            sent.join(" ")
        );
    }
    if !outcome.complete {
        return match first {
            true => super::stopped(args, outcome.next_level, out),
            false => Ok(()),
        };
    }
    let stats = outcome.stats(&space, ranks);
    let start = outcome.value(ranks, super::start_slot(&space, rules));
    if first {
        let solved = Solved {
            stats,
            start,
            decided: &outcome.decided,
            elapsed: started.elapsed(),
            bytes: space.slots(),
        };
        solved.print(args, rules, out)?;
    }
    Ok(())
}

/// The solver's collectives over an MPI communicator (every rank of the run).
struct MpiRanks {
    world: SimpleCommunicator,
}

fn count(len: usize) -> Count {
    Count::try_from(len).expect("a message of fewer than 2³¹ elements")
}

/// Where each part begins in a buffer of the parts one after the other.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let here = *at;
            *at += c;
            Some(here)
        })
        .collect()
}

impl Ranks for MpiRanks {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, batches: &[Vec<u64>]) -> Vec<u64> {
        let sent: Vec<Count> = batches.iter().map(|b| count(b.len())).collect();
        let mut coming = vec![0 as Count; self.size()];
        self.world.all_to_all_into(&sent[..], &mut coming[..]);
        let outgoing = batches.concat();
        let mut received = vec![0u64; coming.iter().map(|&c| c as usize).sum()];
        let (sent_at, coming_at) = (displacements(&sent), displacements(&coming));
        let send = Partition::new(&outgoing[..], &sent[..], &sent_at[..]);
        let mut receive = PartitionMut::new(&mut received[..], &coming[..], &coming_at[..]);
        self.world.all_to_all_varcount_into(&send, &mut receive);
        received
    }

    fn sum(&self, value: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&value, &mut total, SystemOperation::sum());
        total
    }

    fn max(&self, value: u64) -> u64 {
        let mut most = 0u64;
        self.world
            .all_reduce_into(&value, &mut most, SystemOperation::max());
        most
    }

    fn gather(&self, piece: &[u8]) -> Vec<u8> {
        let root = self.world.process_at_rank(0);
        let len = count(piece.len());
        if self.rank() != 0 {
            root.gather_into(&len);
            root.gather_varcount_into(piece);
            return Vec::new();
        }
        let mut counts = vec![0 as Count; self.size()];
        root.gather_into_root(&len, &mut counts[..]);
        let mut all = vec![0u8; counts.iter().map(|&c| c as usize).sum()];
        let at = displacements(&counts);
        let mut parts = PartitionMut::new(&mut all[..], &counts[..], &at[..]);
        root.gather_varcount_into_root(piece, &mut parts);
        all
    }

    fn scatter(&self, pieces: &[u8], lengths: &[usize]) -> Vec<u8> {
        let root = self.world.process_at_rank(0);
        let mut len: Count = 0;
        if self.rank() != 0 {
            root.scatter_into(&mut len);
            let mut mine = vec![0u8; len as usize];
            root.scatter_varcount_into(&mut mine[..]);
            return mine;
        }
        let counts: Vec<Count> = lengths.iter().map(|&l| count(l)).collect();
        root.scatter_into_root(&counts[..], &mut len);
        let at = displacements(&counts);
        let mut mine = vec![0u8; len as usize];
        let parts = Partition::new(pieces, &counts[..], &at[..]);
        root.scatter_varcount_into_root(&parts, &mut mine[..]);
        mine
    }
}
