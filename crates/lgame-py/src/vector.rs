//! `lgame._lgame.VectorCore`: N games stepped by one call, for `lgame.vector.VectorEnv`
//! (python/lgame/vector.py).
//!
//! The core owns every array the environment hands out: observations, dense masks, rewards,
//! terminations, truncations, the player to move, the legal actions (a count and a padded
//! row of action ids per game, written on request) and the actions read by
//! [`VectorCore::step`]. They are
//! allocated once and never move, so Python wraps each in a NumPy array over the same memory
//! (`__array_interface__`) and no step copies anything across. A step releases the
//! interpreter, and runs the games in chunks on a thread pool of its own.
//!
//! Each game is an [`lgame::Game`] with the draw rules of `lgame.env` (a turn limit and a
//! repetition count), so ends, results and draws are the library's. A finished game is reset
//! at the next step, whose action for it is ignored (Gymnasium's `NEXT_STEP` autoreset).

use lgame::game::{DrawRules, Ending};
use lgame::{Color, Game, Move, Rules};
use lgame_players::Rng;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::action::Encoding;

/// Games per chunk at least: below this a thread hand-off costs more than it saves.
const MIN_CHUNK: usize = 64;

/// One game and what the core remembers of it between steps.
struct Slot {
    game: Game,
    /// Over at the last step: reset at the next one.
    done: bool,
    /// Draws `random_legal_actions()` for this game.
    rng: Rng,
    /// The move of the action being stepped, once checked.
    pending: Option<Move>,
}

/// The parts of the output arrays that belong to a run of consecutive games.
struct Part<'a> {
    slots: &'a mut [Slot],
    obs: &'a mut [i8],
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    terminations: &'a mut [u8],
    truncations: &'a mut [u8],
    to_move: &'a mut [i8],
    counts: &'a mut [i32],
    ids: &'a mut [i32],
    actions: &'a mut [i64],
}

/// What every game of a core shares.
#[derive(Clone, Copy)]
struct Shape {
    encoding: Encoding,
    width: usize,
    cells: usize,
    dense: bool,
    actions: usize,
    cap: usize,
}

/// An action that does not name a legal move of its game.
struct Illegal {
    env: usize,
    reason: String,
}

/// N games of one variant stepped together: the native half of `lgame.vector.VectorEnv`.
#[pyclass(module = "lgame._lgame")]
pub(crate) struct VectorCore {
    shape: Shape,
    fresh: Game,
    slots: Vec<Slot>,
    obs: Vec<i8>,
    mask: Vec<i8>,
    rewards: Vec<f32>,
    terminations: Vec<u8>,
    truncations: Vec<u8>,
    to_move: Vec<i8>,
    counts: Vec<i32>,
    ids: Vec<i32>,
    actions: Vec<i64>,
    /// `None`: one thread (the caller's).
    pool: Option<rayon::ThreadPool>,
    chunk: usize,
}

/// The random numbers of game `env` after a seed: SplitMix64 streams that do not overlap in
/// practice, one per game.
fn game_seed(seed: u64, env: usize) -> u64 {
    let mut mix = Rng::new(seed ^ (env as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    mix.next_u64()
}

impl Shape {
    /// Writes the observation of game `i` (the mover's L, the other L, the neutrals as
    /// `(H, W, 3)` planes), the player to move, and the dense mask if there is one.
    fn observe(&self, part: &mut Part<'_>, i: usize) {
        let slot = &part.slots[i];
        let position = slot.game.position();
        let mover = position.turn();
        let obs = &mut part.obs[i * self.cells * 3..(i + 1) * self.cells * 3];
        obs.fill(0);
        for (plane, set) in [position.l(mover), position.l(!mover), position.neutrals()]
            .into_iter()
            .enumerate()
        {
            for sq in set {
                obs[(sq.row() as usize * self.width + sq.column() as usize) * 3 + plane] = 1;
            }
        }
        part.to_move[i] = match mover {
            Color::Red => 0,
            Color::Blue => 1,
        };
        if self.dense {
            let mask = &mut part.mask[i * self.actions..(i + 1) * self.actions];
            mask.fill(0);
            if !slot.done {
                self.encoding
                    .for_each_legal_action(position, |a| mask[a as usize] = 1);
            }
        }
    }

    /// Writes the legal actions of each game of a part: its count and its row of ids.
    fn legal(&self, part: &mut Part<'_>) {
        for i in 0..part.slots.len() {
            let slot = &part.slots[i];
            let ids = &mut part.ids[i * self.cap..(i + 1) * self.cap];
            let mut count = 0;
            if !slot.done {
                self.encoding
                    .for_each_legal_action(slot.game.position(), |action| {
                        ids[count] = action as i32;
                        count += 1;
                    });
            }
            part.counts[i] = count as i32;
        }
    }

    /// Checks the action of each game of a part that is not over, keeping its move; the
    /// first illegal one (its game numbered from `first`) is the error.
    fn check(&self, part: &mut Part<'_>, first: usize) -> Result<(), Illegal> {
        for i in 0..part.slots.len() {
            let slot = &mut part.slots[i];
            slot.pending = None;
            if slot.done {
                continue;
            }
            let action = part.actions[i];
            let position = slot.game.position();
            let mv = u64::try_from(action)
                .map_err(|_| format!("action {action} is negative"))
                .and_then(|a| self.encoding.decode_move(position, a))
                .and_then(|mv| {
                    position
                        .check_move(&mv)
                        .map(|()| mv)
                        .map_err(|e| format!("action {action} is illegal: {e}"))
                })
                .map_err(|reason| Illegal {
                    env: first + i,
                    reason,
                })?;
            slot.pending = Some(mv);
        }
        Ok(())
    }

    /// Steps every game of a part with its checked move, or starts it again if it was over.
    fn step(&self, part: &mut Part<'_>, fresh: &Game) {
        for i in 0..part.slots.len() {
            part.rewards[2 * i] = 0.0;
            part.rewards[2 * i + 1] = 0.0;
            part.terminations[i] = 0;
            part.truncations[i] = 0;
            let slot = &mut part.slots[i];
            if slot.done {
                slot.game.clone_from(fresh);
                slot.done = false;
            } else if let Some(mv) = slot.pending.take() {
                // Checked already; the game checks it again and records the ply.
                if slot.game.play(&mv).is_ok() {
                    if let Some(end) = slot.game.conclusion() {
                        slot.done = true;
                        let red = match end.result.and_then(|r| r.winner()) {
                            Some(Color::Red) => 1.0,
                            Some(Color::Blue) => -1.0,
                            None => 0.0,
                        };
                        part.rewards[2 * i] = red;
                        part.rewards[2 * i + 1] = -red;
                        if matches!(end.ending, Ending::Board(_)) {
                            part.terminations[i] = 1;
                        } else {
                            part.truncations[i] = 1;
                        }
                    }
                }
            }
            self.observe(part, i);
        }
    }

    /// One random legal action per game of a part (0 for a game awaiting its reset): a
    /// uniform number below the count of legal moves, and that move's action.
    fn random_actions(&self, part: &mut Part<'_>) {
        for i in 0..part.slots.len() {
            let slot = &mut part.slots[i];
            let position = slot.game.position();
            // A game not done has no conclusion, so its position is not over either: the
            // moves are counted and generated without asking again.
            let count = if slot.done {
                0
            } else {
                self.encoding.move_count_in_play(position)
            };
            part.actions[i] = if count == 0 {
                0
            } else {
                let k = slot.rng.below(count as usize) as u64;
                self.encoding.nth_action_in_play(position, k).unwrap_or(0) as i64
            };
        }
    }
}

impl VectorCore {
    /// The arrays cut into parts of `chunk` games.
    fn parts(&mut self) -> Vec<Part<'_>> {
        let s = self.shape;
        let n = self.chunk;
        let mask_width = if s.dense { s.actions } else { 0 };
        let mut parts = Vec::new();
        let mut slots = self.slots.as_mut_slice();
        let mut obs = self.obs.as_mut_slice();
        let mut mask = self.mask.as_mut_slice();
        let mut rewards = self.rewards.as_mut_slice();
        let mut terminations = self.terminations.as_mut_slice();
        let mut truncations = self.truncations.as_mut_slice();
        let mut to_move = self.to_move.as_mut_slice();
        let mut counts = self.counts.as_mut_slice();
        let mut ids = self.ids.as_mut_slice();
        let mut actions = self.actions.as_mut_slice();
        while !slots.is_empty() {
            let k = n.min(slots.len());
            macro_rules! cut {
                ($v:ident, $w:expr) => {{
                    let (head, tail) = std::mem::take(&mut $v).split_at_mut(k * $w);
                    $v = tail;
                    head
                }};
            }
            parts.push(Part {
                slots: cut!(slots, 1),
                obs: cut!(obs, s.cells * 3),
                mask: cut!(mask, mask_width),
                rewards: cut!(rewards, 2),
                terminations: cut!(terminations, 1),
                truncations: cut!(truncations, 1),
                to_move: cut!(to_move, 1),
                counts: cut!(counts, 1),
                ids: cut!(ids, s.cap),
                actions: cut!(actions, 1),
            });
        }
        parts
    }

    /// Runs `f` on every part (with the index of its first game), on the pool if there is
    /// one; the first error found is returned.
    fn each_part<E: Send>(
        &mut self,
        f: impl Fn(&mut Part<'_>, usize) -> Result<(), E> + Sync,
    ) -> Result<(), E> {
        let chunk = self.chunk;
        let pool = self.pool.take();
        let result = {
            let mut parts = self.parts();
            match &pool {
                Some(pool) if parts.len() > 1 => pool.install(|| {
                    parts
                        .par_iter_mut()
                        .enumerate()
                        .try_for_each(|(k, part)| f(part, k * chunk))
                }),
                _ => parts
                    .iter_mut()
                    .enumerate()
                    .try_for_each(|(k, part)| f(part, k * chunk)),
            }
        };
        self.pool = pool;
        result
    }
}

impl VectorCore {
    /// Runs `f` on every part with the interpreter released (`f` cannot fail).
    fn each_part_released(&mut self, py: Python<'_>, f: fn(&Shape, &mut Part<'_>)) {
        let shape = self.shape;
        py.detach(|| {
            let _ = self.each_part(|part, _| -> Result<(), ()> {
                f(&shape, part);
                Ok(())
            });
        });
    }
}

#[pymethods]
impl VectorCore {
    /// `num_envs` games of `rules` with the draw rules `turn_limit` and `repetition` (0 turns
    /// one off), random numbers from `seed`, dense masks if `dense`, on `threads` threads
    /// (0: one per core).
    #[new]
    #[pyo3(signature = (num_envs, rules, seed, dense, turn_limit, repetition, threads))]
    fn new(
        num_envs: usize,
        rules: &Bound<'_, PyAny>,
        seed: u64,
        dense: bool,
        turn_limit: u32,
        repetition: u32,
        threads: usize,
    ) -> PyResult<VectorCore> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let rules: Rules = crate::rules_arg(rules)?;
        let encoding = Encoding::new(&rules);
        let actions = encoding.count();
        if actions > i32::MAX as u64 {
            return Err(PyValueError::new_err(format!(
                "the {rules} rules have {actions} actions, more than the vector environment's \
                 32-bit action ids hold"
            )));
        }
        let actions = actions as usize;
        if dense {
            encoding.mask_len()?;
        }
        let fresh = Game::new(rules).with_draw_rules(DrawRules {
            turn_limit: Some(turn_limit),
            repetition: Some(repetition),
        });
        if fresh.is_over() {
            return Err(PyValueError::new_err(format!(
                "the {rules} rules start from a finished position: there is nothing to step"
            )));
        }
        let board = rules.board();
        let shape = Shape {
            encoding,
            width: board.width() as usize,
            cells: board.cell_count() as usize,
            dense,
            actions,
            cap: encoding.max_legal() as usize,
        };
        let pool = if threads == 1 {
            None
        } else {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| PyValueError::new_err(format!("no thread pool: {e}")))?,
            )
        };
        let workers = pool.as_ref().map_or(1, |p| p.current_num_threads());
        let chunk = MIN_CHUNK.max(num_envs.div_ceil(4 * workers));
        let slots = (0..num_envs)
            .map(|i| Slot {
                game: fresh.clone(),
                done: false,
                rng: Rng::new(game_seed(seed, i)),
                pending: None,
            })
            .collect();
        let mut core = VectorCore {
            shape,
            fresh,
            slots,
            obs: vec![0; num_envs * shape.cells * 3],
            mask: vec![0; if dense { num_envs * actions } else { 0 }],
            rewards: vec![0.0; num_envs * 2],
            terminations: vec![0; num_envs],
            truncations: vec![0; num_envs],
            to_move: vec![0; num_envs],
            counts: vec![0; num_envs],
            ids: vec![0; num_envs * shape.cap],
            actions: vec![0; num_envs],
            pool,
            chunk,
        };
        core.reset_all(None);
        Ok(core)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The length of a row of legal action ids: no position has more legal moves.
    #[getter]
    fn max_legal(&self) -> usize {
        self.shape.cap
    }

    /// Each array as `(address, shape, typestr)` for NumPy's `__array_interface__`.
    fn buffers<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let n = self.slots.len();
        let s = self.shape;
        let d = PyDict::new(py);
        d.set_item(
            "observation",
            (
                self.obs.as_mut_ptr() as usize,
                (n, s.cells / s.width, s.width, 3),
                "|i1",
            ),
        )?;
        if s.dense {
            d.set_item(
                "action_mask",
                (self.mask.as_mut_ptr() as usize, (n, s.actions), "|i1"),
            )?;
        }
        d.set_item(
            "rewards",
            (self.rewards.as_mut_ptr() as usize, (n, 2), "<f4"),
        )?;
        d.set_item(
            "terminations",
            (self.terminations.as_mut_ptr() as usize, (n,), "|b1"),
        )?;
        d.set_item(
            "truncations",
            (self.truncations.as_mut_ptr() as usize, (n,), "|b1"),
        )?;
        d.set_item("to_move", (self.to_move.as_mut_ptr() as usize, (n,), "|i1"))?;
        d.set_item("counts", (self.counts.as_mut_ptr() as usize, (n,), "<i4"))?;
        d.set_item("ids", (self.ids.as_mut_ptr() as usize, (n, s.cap), "<i4"))?;
        d.set_item("actions", (self.actions.as_mut_ptr() as usize, (n,), "<i8"))?;
        Ok(d)
    }

    /// Starts every game again; with a seed, the random numbers start again from it.
    #[pyo3(signature = (seed = None))]
    fn reset_all(&mut self, seed: Option<u64>) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.game.clone_from(&self.fresh);
            slot.done = false;
            if let Some(seed) = seed {
                slot.rng = Rng::new(game_seed(seed, i));
            }
        }
        self.rewards.fill(0.0);
        self.terminations.fill(0);
        self.truncations.fill(0);
        let shape = self.shape;
        let _ = self.each_part(|part, _| -> Result<(), ()> {
            for i in 0..part.slots.len() {
                shape.observe(part, i);
            }
            Ok(())
        });
    }

    /// Steps every game with its action in the `actions` array (ignored for a game over at
    /// the last step, which starts again). An action that is not legal in its game raises
    /// `ValueError` before any game moves.
    fn step(&mut self, py: Python<'_>) -> PyResult<()> {
        let shape = self.shape;
        let fresh = self.fresh.clone();
        let checked = py.detach(|| {
            self.each_part(|part, first| shape.check(part, first))?;
            self.each_part(|part, _| -> Result<(), Illegal> {
                shape.step(part, &fresh);
                Ok(())
            })
        });
        checked.map_err(|e| PyValueError::new_err(format!("game {}: {}", e.env, e.reason)))
    }

    /// Writes one random legal action per game (seeded; 0 for a game awaiting its reset) in
    /// the `actions` array.
    fn random_legal_actions(&mut self, py: Python<'_>) {
        self.each_part_released(py, Shape::random_actions);
    }

    /// Writes the legal actions of every game in the `counts` and `ids` arrays.
    fn legal_actions(&mut self, py: Python<'_>) {
        self.each_part_released(py, Shape::legal);
    }

    /// The current position of game `env`.
    fn position(&self, env: usize) -> PyResult<crate::Position> {
        self.slots
            .get(env)
            .map(|s| crate::Position(*s.game.position()))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "game {env} does not exist: there are {}",
                    self.slots.len()
                ))
            })
    }
}
