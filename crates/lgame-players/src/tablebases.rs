//! Solved tables shared between players (and a server's requests): each table is solved
//! once however many ask for it at once, outside the lock that finds tables, a bounded
//! number at a time, and kept within a memory budget, the least recently used dropped first.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use lgame::Rules;
use lgame_solver::Tablebase;

use crate::perfect::PerfectMemo;

/// A cache of solved tables, one per set of positions and moves ([`Rules::table_rules`]:
/// every starting setup of a variant shares one table, and under scoring every setup with
/// the same pieces), shared by the players that need them.
///
/// Asking for a table that is solved answers at once, even while other tables are being
/// solved. Asking for one that is being solved waits for that solve; asking for a new one
/// solves it on the asking thread once a solver is free ([`Tablebases::new`]'s `solvers`).
#[derive(Debug)]
pub struct Tablebases {
    held: Mutex<Held>,
    /// Told whenever a solve ends (a table is ready, or a solver is free).
    changed: Condvar,
    budget: Option<u64>,
    solvers: usize,
}

#[derive(Debug, Default)]
struct Held {
    tables: HashMap<Rules, Entry>,
    /// The bytes of the ready tables.
    bytes: u64,
    /// Solves running now.
    running: usize,
    /// Solves finished since the cache was made.
    solves: u64,
    /// Ticks at every use: the order of last use.
    clock: u64,
}

#[derive(Debug)]
enum Entry {
    Solving,
    Ready {
        table: Arc<Tablebase>,
        /// The perfect player's recent choices in this table (bounded; not counted in
        /// `bytes`).
        memo: Arc<PerfectMemo>,
        bytes: u64,
        used: u64,
    },
}

/// What a cache holds and has done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableStats {
    /// Tables held, ready.
    pub tables: usize,
    /// Their bytes ([`Tablebase::memory_bytes`]).
    pub bytes: u64,
    /// Tables being solved now.
    pub solving: usize,
    /// Solves finished since the cache was made.
    pub solves: u64,
}

impl Default for Tablebases {
    /// No memory budget, any number of solves at a time.
    fn default() -> Tablebases {
        Tablebases::new(None, usize::MAX)
    }
}

impl Tablebases {
    /// A cache keeping at most `budget` bytes of tables (`None`: no bound), solving at most
    /// `solvers` tables at a time (at least one). A table larger than the whole budget is
    /// solved and handed over, but not kept.
    pub fn new(budget: Option<u64>, solvers: usize) -> Tablebases {
        Tablebases {
            held: Mutex::new(Held::default()),
            changed: Condvar::new(),
            budget,
            solvers: solvers.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The table for `rules`, solved now if it is not yet: by this thread once a solver is
    /// free, or by the thread already solving it (this one waits for it).
    pub fn get(&self, rules: &Rules) -> Arc<Tablebase> {
        self.get_with_memo(rules).0
    }

    /// [`Tablebases::get`], with the table's memo of the perfect player's choices.
    pub(crate) fn get_with_memo(&self, rules: &Rules) -> (Arc<Tablebase>, Arc<PerfectMemo>) {
        let key = rules.table_rules();
        let mut held = self.lock();
        loop {
            if let Some(table) = held.touch(&key) {
                return table;
            }
            let solving = matches!(held.tables.get(&key), Some(Entry::Solving));
            if !solving && held.running < self.solvers {
                break;
            }
            held = self.changed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        held.running += 1;
        held.tables.insert(key, Entry::Solving);
        drop(held);
        // Should the solve panic, the guard still frees the solver and the waiters.
        let guard = SolveGuard { cache: self, key };
        let table = Arc::new(Tablebase::solve(&key));
        let memo = Arc::new(PerfectMemo::new(&table));
        let mut held = self.lock();
        held.solves += 1;
        held.keep(key, table.clone(), memo.clone(), self.budget);
        drop(held);
        drop(guard);
        (table, memo)
    }

    /// The table for `rules` if it is solved and held (it then counts as just used); never
    /// solves, never waits for a solve.
    pub fn cached(&self, rules: &Rules) -> Option<Arc<Tablebase>> {
        self.lock()
            .touch(&rules.table_rules())
            .map(|(table, _)| table)
    }

    /// How many tables the cache holds (solved or inserted).
    pub fn len(&self) -> usize {
        self.stats().tables
    }

    /// Whether no table is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What the cache holds and has done.
    pub fn stats(&self) -> TableStats {
        let held = self.lock();
        let solving = held
            .tables
            .values()
            .filter(|e| matches!(e, Entry::Solving))
            .count();
        TableStats {
            tables: held.tables.len() - solving,
            bytes: held.bytes,
            solving,
            solves: held.solves,
        }
    }

    /// The memory budget in bytes, if there is one.
    pub fn budget(&self) -> Option<u64> {
        self.budget
    }

    /// Puts an already solved table in the cache (one read from a file, say).
    pub fn insert(&self, tb: Tablebase) {
        let key = tb.rules().table_rules();
        let memo = Arc::new(PerfectMemo::new(&tb));
        self.lock().keep(key, Arc::new(tb), memo, self.budget);
        self.changed.notify_all();
    }
}

impl Held {
    /// The ready table under `key`, marked as just used.
    fn touch(&mut self, key: &Rules) -> Option<(Arc<Tablebase>, Arc<PerfectMemo>)> {
        self.clock += 1;
        let now = self.clock;
        match self.tables.get_mut(key) {
            Some(Entry::Ready {
                table, memo, used, ..
            }) => {
                *used = now;
                Some((table.clone(), memo.clone()))
            }
            _ => None,
        }
    }

    /// Keeps a table as the most recently used, then drops the least recently used ones
    /// (this one last) until the tables fit the budget.
    fn keep(
        &mut self,
        key: Rules,
        table: Arc<Tablebase>,
        memo: Arc<PerfectMemo>,
        budget: Option<u64>,
    ) {
        self.clock += 1;
        let bytes = table.memory_bytes();
        let entry = Entry::Ready {
            table,
            memo,
            bytes,
            used: self.clock,
        };
        if let Some(Entry::Ready { bytes: old, .. }) = self.tables.insert(key, entry) {
            self.bytes -= old;
        }
        self.bytes += bytes;
        let Some(budget) = budget else { return };
        while self.bytes > budget {
            let oldest = self
                .tables
                .iter()
                .filter_map(|(key, entry)| match entry {
                    Entry::Ready { used, .. } => Some((*used, *key)),
                    Entry::Solving => None,
                })
                .min_by_key(|(used, _)| *used);
            let Some((_, key)) = oldest else { break };
            if let Some(Entry::Ready { bytes, .. }) = self.tables.remove(&key) {
                self.bytes -= bytes;
            }
        }
    }
}

/// A solve in progress: when it ends (or panics), its solver is free again and whoever
/// waits is told; a solve that left no table leaves no mark.
struct SolveGuard<'a> {
    cache: &'a Tablebases,
    key: Rules,
}

impl Drop for SolveGuard<'_> {
    fn drop(&mut self) {
        let mut held = self.cache.lock();
        held.running -= 1;
        if matches!(held.tables.get(&self.key), Some(Entry::Solving)) {
            held.tables.remove(&self.key);
        }
        drop(held);
        self.cache.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Rules {
        text.parse().unwrap()
    }

    #[test]
    fn setups_with_the_same_positions_share_a_table() {
        let cache = Tablebases::default();
        cache.get(&rules("neutrals=0,scoring,target=2"));
        cache.get(&rules(
            "neutrals=0,scoring,target=2,setup=.RR./.RB./.RB./.BB.:r:1-0",
        ));
        cache.get(&rules("neutrals=0,setup=kit"));
        cache.get(&rules("neutrals=0"));
        assert_eq!(cache.stats().solves, 2);
        cache.get(&rules("neutrals=0,scoring,target=2,setup=kit"));
        assert_eq!(
            cache.stats().solves,
            3,
            "under scoring the pieces of the setup count"
        );
    }

    #[test]
    fn the_least_recently_used_table_goes_first_and_the_budget_holds() {
        let sizes: Vec<u64> = (1..=3)
            .map(|t| Tablebase::solve(&rules(&format!("neutrals=0,scoring,target={t}"))))
            .map(|tb| tb.memory_bytes())
            .collect();
        // Room for the first and the third, not all three.
        let cache = Tablebases::new(Some(sizes[0] + sizes[2]), 1);
        let get = |t: u8| cache.get(&rules(&format!("neutrals=0,scoring,target={t}")));
        get(1);
        get(2);
        get(1); // 1 is now more recent than 2
        get(3); // 2 goes; then 1 and 3 fit
        let stats = cache.stats();
        assert_eq!((stats.tables, stats.bytes), (2, sizes[0] + sizes[2]));
        assert!(cache
            .cached(&rules("neutrals=0,scoring,target=1"))
            .is_some());
        assert!(cache
            .cached(&rules("neutrals=0,scoring,target=2"))
            .is_none());
        // Larger than the whole budget: handed over, not kept.
        let small = Tablebases::new(Some(sizes[0] - 1), 1);
        small.get(&rules("neutrals=0,scoring,target=1"));
        assert_eq!(small.stats().tables, 0);
    }

    #[test]
    fn many_asking_at_once_wait_for_one_solve() {
        let cache = Tablebases::new(None, 1);
        let target = rules("neutrals=1,scoring,target=3");
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| cache.get(&target));
            }
        });
        assert_eq!(cache.stats().solves, 1);
        assert_eq!(cache.stats().solving, 0);
    }
}
