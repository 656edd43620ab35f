//! The solved game: probe any position for its value, its best moves, and every move's value.

use std::fmt;
use std::time::{Duration, Instant};

use lgame::{Move, Position, Rules};

use crate::index::StateIndex;
use crate::solve::{self, SolveError, SolveOptions};
use crate::value::{packed, Value, Wdl};

/// Every state of one rules value, solved.
///
/// ```
/// use lgame::Rules;
/// use lgame_solver::{Tablebase, Value};
///
/// let tb = Tablebase::solve(&Rules::classic());
/// let start = Rules::classic().start_position();
/// assert_eq!(tb.value(&start)?, Value::Draw);
/// let moves = tb.moves(&start)?;
/// assert_eq!(moves.len(), 65);
/// assert_eq!(moves[0].value, Value::Draw);
/// # Ok::<(), lgame_solver::ProbeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Tablebase {
    index: StateIndex,
    values: Vec<u16>,
    solve_time: Duration,
}

/// The symmetry classes of one value: [`Tablebase::classes_of`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueClasses {
    /// How many classes have the value (and the distance asked for), listed or not.
    pub total: usize,
    /// Every distance in plies that the value's classes have, shortest first (none for a
    /// draw).
    pub distances: Vec<u16>,
    /// A canonical position of each class (Red to move) with its distance, shortest first,
    /// then by the position's text.
    pub classes: Vec<(Position, Option<u16>)>,
}

/// Why a position could not be probed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The position is played under other rules than the table's.
    RulesMismatch {
        /// The table's rules.
        table: Rules,
        /// The position's rules.
        position: Rules,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::RulesMismatch { table, position } => write!(
                f,
                "the position is played under {position}, the table was solved for {table}"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// A legal move with what it is worth to the player making it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The position it leads to.
    pub position: Position,
    /// Its value for the mover, counted in plies from the position before it: the best
    /// move's value is the position's value.
    pub value: Value,
}

/// Whether a table for `table` answers positions under `position`: the same positions and
/// moves ([`Rules::table_rules`]: the starting setup only matters under scoring, where
/// resets return to it).
pub(crate) fn same_game(table: &Rules, position: &Rules) -> bool {
    table.table_rules() == position.table_rules()
}

/// The time now, where the platform has a clock: WebAssembly in a browser
/// (`wasm32-unknown-unknown`, the page's engine) has none, and its solves time nothing.
fn now() -> Option<Instant> {
    (!cfg!(all(target_arch = "wasm32", target_os = "unknown"))).then(Instant::now)
}

impl Tablebase {
    /// Solves the rules (no memory limit, no progress report).
    pub fn solve(rules: &Rules) -> Tablebase {
        Tablebase::solve_with(rules, SolveOptions::default())
            .expect("no memory limit was set and distances fit in 15 bits")
    }

    /// Solves the rules with options: a memory limit and a progress callback.
    ///
    /// # Errors
    /// [`SolveError::TooBig`] when the estimate exceeds the memory limit.
    pub fn solve_with(rules: &Rules, options: SolveOptions<'_>) -> Result<Tablebase, SolveError> {
        let started = now();
        let index = StateIndex::new(rules);
        let values = solve::solve(&index, options)?;
        Ok(Tablebase {
            index,
            values,
            solve_time: started.map_or(Duration::ZERO, |s| s.elapsed()),
        })
    }

    /// Builds a table from stored values (see [`crate::file`]).
    pub(crate) fn from_parts(index: StateIndex, values: Vec<u16>) -> Tablebase {
        Tablebase {
            index,
            values,
            solve_time: Duration::ZERO,
        }
    }

    /// The rules solved.
    pub fn rules(&self) -> &Rules {
        self.index.rules()
    }

    /// Whether this table answers positions played under `rules`: the same rules, where the
    /// starting setup only matters under scoring (where trap resets return to it).
    pub fn answers(&self, rules: &Rules) -> bool {
        same_game(self.rules(), rules)
    }

    /// The bytes this table holds in memory ([`StateIndex::table_bytes`]).
    pub fn memory_bytes(&self) -> u64 {
        self.index.table_bytes()
    }

    /// The ranking of the states.
    pub fn index(&self) -> &StateIndex {
        &self.index
    }

    /// The packed values, one per index.
    pub(crate) fn raw_values(&self) -> &[u16] {
        &self.values
    }

    /// How long the solve took (zero for a table read from a file).
    pub fn solve_time(&self) -> Duration {
        self.solve_time
    }

    /// The value at an index, or `None` where the index is not a position.
    pub fn value_at(&self, index: u64) -> Option<Value> {
        packed::unpack(self.values[index as usize])
    }

    /// One position of each symmetry class, its canonical form (Red to move), with its
    /// value, in index order: the galleries and puzzles are drawn from these.
    pub fn classes(&self) -> impl Iterator<Item = (Position, Value)> + '_ {
        let index = self.index();
        (0..index.len()).filter_map(move |i| {
            let value = self.value_at(i)?;
            let position = index.position(i)?;
            (index.index_of(&position.canonical()) == Some(i)).then_some((position, value))
        })
    }

    /// The symmetry classes of one value (and, with `plies`, of one distance), as the web
    /// page's galleries and puzzles list them (`GET /api/classes`): their canonical
    /// positions sorted by distance, then by the position's text, at most `limit` of them;
    /// with how many there are and every distance the value's classes have.
    pub fn classes_of(&self, wdl: Wdl, plies: Option<u16>, limit: usize) -> ValueClasses {
        let index = self.index();
        // A class's positions share its value, so the distances are read off every
        // position's value; only the positions of the distance asked for are made
        // canonical, to keep one of each class.
        let mut seen = vec![false; usize::from(u16::MAX) + 1];
        let mut found: Vec<(Option<u16>, String, Position)> = Vec::new();
        for i in 0..index.len() {
            let Some(value) = self.value_at(i).filter(|v| v.wdl() == wdl) else {
                continue;
            };
            if let Some(d) = value.plies() {
                seen[usize::from(d)] = true;
            }
            if plies.is_some() && value.plies() != plies {
                continue;
            }
            let Some(position) = index.position(i) else {
                continue;
            };
            if index.index_of(&position.canonical()) == Some(i) {
                found.push((value.plies(), position.to_string(), position));
            }
        }
        let distances = (0..=u16::MAX).filter(|&d| seen[usize::from(d)]).collect();
        found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let total = found.len();
        found.truncate(limit);
        ValueClasses {
            total,
            distances,
            classes: found.into_iter().map(|(d, _, p)| (p, d)).collect(),
        }
    }

    /// The value of a position for the player to move.
    ///
    /// # Errors
    /// [`ProbeError::RulesMismatch`] for a position under other rules.
    pub fn value(&self, position: &Position) -> Result<Value, ProbeError> {
        if !self.answers(position.rules()) {
            return Err(ProbeError::RulesMismatch {
                table: *self.rules(),
                position: *position.rules(),
            });
        }
        Ok(self.value_unchecked(position))
    }

    /// Win, draw or loss for the player to move.
    ///
    /// # Errors
    /// [`ProbeError::RulesMismatch`] for a position under other rules.
    pub fn wdl(&self, position: &Position) -> Result<Wdl, ProbeError> {
        self.value(position).map(Value::wdl)
    }

    fn value_unchecked(&self, position: &Position) -> Value {
        match self.index.index_of(position) {
            Some(i) => self.value_at(i).expect("a position has a value"),
            // Over by the scores: the player to move has lost.
            None => Value::Loss(0),
        }
    }

    /// Every legal move with its value for the mover, best first (quick wins, slow losses);
    /// ties keep the move generator's order.
    ///
    /// # Errors
    /// [`ProbeError::RulesMismatch`] for a position under other rules.
    pub fn moves(&self, position: &Position) -> Result<Vec<MoveValue>, ProbeError> {
        self.value(position)?;
        let mut moves: Vec<MoveValue> = position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let after = position.play_unchecked(&mv);
                MoveValue {
                    mv,
                    position: after,
                    value: self.value_unchecked(&after).before_move(),
                }
            })
            .collect();
        moves.sort_by_key(|m| m.value.sort_key());
        Ok(moves)
    }

    /// The line of best play from a won or lost position to the end: each side plays the
    /// first of its best moves. Empty for a draw (best play never ends) or a finished
    /// position.
    ///
    /// # Errors
    /// [`ProbeError::RulesMismatch`] for a position under other rules.
    pub fn principal_variation(&self, position: &Position) -> Result<Vec<Move>, ProbeError> {
        let mut line = Vec::new();
        let mut here = *position;
        while self.value(&here)? != Value::Draw {
            let Some(best) = self.moves(&here)?.into_iter().next() else {
                break;
            };
            line.push(best.mv);
            here = best.position;
        }
        Ok(line)
    }

    /// The moves that keep the position's value (all of them equally good).
    ///
    /// # Errors
    /// [`ProbeError::RulesMismatch`] for a position under other rules.
    pub fn best_moves(&self, position: &Position) -> Result<Vec<Move>, ProbeError> {
        let moves = self.moves(position)?;
        let best = moves.first().map(|m| m.value);
        Ok(moves
            .into_iter()
            .take_while(|m| Some(m.value) == best)
            .map(|m| m.mv)
            .collect())
    }
}

/// A position's analysis as people and programs read it: the value and every legal move's
/// value, best first. Serialises to the JSON of `lgame analyze --json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Analysis {
    /// The position (canonical text).
    pub position: String,
    /// The rules (canonical text).
    pub variant: String,
    /// `win`, `draw` or `loss` for the player to move.
    pub value: &'static str,
    /// Plies to the end under best play, `None` for a draw.
    pub plies: Option<u16>,
    /// How many legal moves there are.
    pub legal_moves: usize,
    /// Every legal move, best first.
    pub moves: Vec<AnalysedMove>,
}

/// One move of an [`Analysis`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AnalysedMove {
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position it leads to.
    pub position: String,
    /// Its value for the mover: `win`, `draw` or `loss`.
    pub value: &'static str,
    /// Plies to the end counted from the analysed position, `None` for a draw.
    pub plies: Option<u16>,
}

impl Tablebase {
    /// The analysis of a position: its value and every move's, best first.
    ///
    /// # Errors
    /// [`ProbeError::RulesMismatch`] for a position under other rules.
    pub fn analyze(&self, position: &Position) -> Result<Analysis, ProbeError> {
        let value = self.value(position)?;
        let moves: Vec<AnalysedMove> = self
            .moves(position)?
            .into_iter()
            .map(|m| AnalysedMove {
                mv: m.mv.to_string(),
                position: m.position.to_string(),
                value: m.value.wdl().name(),
                plies: m.value.plies(),
            })
            .collect();
        Ok(Analysis {
            position: position.to_string(),
            variant: position.rules().to_string(),
            value: value.wdl().name(),
            plies: value.plies(),
            legal_moves: moves.len(),
            moves,
        })
    }
}
