//! The scoring variant by score layers over one move structure shared by every layer.
//!
//! Every block of scores (mover's, other's) holds the same arrangements, and an arrangement's
//! moves are the same in every block: only where they lead (which block, or a reset, or a
//! win) depends on the scores. So the moves are worked out once, on the arrangements of one
//! block, as two steps:
//!
//! - a state `(m, o, N)` chooses its new L `l`: the **group** `(o, l, N)`, numbered like the
//!   arrangement with mover `o`, other `l`, neutrals `N` (N misses `l`, so it ranks among the
//!   cells free of `o` and `l`);
//! - the group chooses the neutral move: its successors `(o, l, N')`, arrangements of the
//!   same pair of placements.
//!
//! A group's successors are all in one block: the next block up when `l` covers a corner (a
//! point scored; those blocks are solved before), else the layer's other block. A successor
//! whose mover is trapped is not a state: the move gives five points and resets the pieces,
//! so every trapping successor of a group leads to the same reset state, whose value is known.
//!
//! Per layer: the corner groups are summarised once from the solved block above (best win,
//! longest loss, any draw), each state combines its groups' summaries, and the in-layer part
//! is solved as in the other methods, in order of distance, with counts per group (successors
//! not yet won) and per state (groups not yet all won) instead of per move.

use lgame::Bitboard;

use crate::index::StateIndex;
use crate::solve::SolveError;
use crate::value::{packed, Value};

/// A compressed list of lists: `items[offsets[i]..offsets[i + 1]]` is list `i`.
struct Lists {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// The lists of `n` keys holding the `(key, item)` pairs, in the pairs' order.
    fn from_pairs(n: usize, pairs: &[(u32, u32)]) -> Lists {
        let mut offsets = vec![0u32; n + 1];
        for &(key, _) in pairs {
            offsets[key as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(key, item) in pairs {
            items[fill[key as usize] as usize] = item;
            fill[key as usize] += 1;
        }
        Lists { offsets, items }
    }

    /// The lists reversed: item → keys.
    fn reversed(&self, n: usize) -> Lists {
        let mut pairs = Vec::with_capacity(self.items.len());
        for key in 0..self.offsets.len() - 1 {
            for &item in self.get(key) {
                pairs.push((item, key as u32));
            }
        }
        Lists::from_pairs(n, &pairs)
    }

    fn get(&self, i: usize) -> &[u32] {
        &self.items[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// The moves of one block's arrangements (see the module's documentation).
struct Moves {
    /// State → its groups (one per L move).
    groups: Lists,
    /// Group → the states that reach it.
    reaching: Lists,
    /// Group → its successors.
    successors: Lists,
    /// Successor → the groups that lead to it.
    leading: Lists,
    /// Per arrangement: the mover cannot move their L (not a state under scoring).
    trapped: Vec<bool>,
    /// Per arrangement (or group): the other L, the one just moved, covers a corner.
    other_on_corner: Vec<bool>,
    /// Per group: successors that are states (the mover is not trapped).
    open_successors: Vec<u32>,
    /// Per group: whether some successor traps its mover (a reset).
    traps: Vec<bool>,
}

impl Moves {
    fn of(index: &StateIndex) -> Result<Moves, SolveError> {
        let rules = index.rules();
        let placements = rules.board().geometry().placements();
        let corners = rules.board().corners();
        let n = index.base() as usize;
        if u32::try_from(n).is_err() {
            return Err(SolveError::Unsupported(
                "the score-layer method needs fewer than 4 billion arrangements a block",
            ));
        }
        let mut state_groups: Vec<(u32, u32)> = Vec::new();
        let mut group_successors: Vec<(u32, u32)> = Vec::new();
        let mut seen = vec![false; n];
        let mut trapped = vec![false; n];
        index.for_each_state(|s, m, o, neutrals| {
            let here = lgame::raw::Arrangement {
                mover: placements[m],
                other: placements[o],
                neutrals,
            };
            trapped[s as usize] = here.l_move_count(rules) == 0;
            let (mut last, mut base, mut free, mut group) = (usize::MAX, 0, Bitboard::EMPTY, 0);
            let mut fill = false;
            here.for_each_move(rules, |l, _, from, to| {
                if l != last {
                    (last, base, free) = (l, index.pair_base(o, l), index.free_cells(o, l));
                    group = (base + index.rank(free, neutrals)) as u32;
                    state_groups.push((s as u32, group));
                    fill = !seen[group as usize];
                    seen[group as usize] = true;
                }
                if fill {
                    let t = base + index.rank(free, (neutrals - from) | to);
                    group_successors.push((group, t as u32));
                }
            });
        });
        let groups = Lists::from_pairs(n, &state_groups);
        let successors = Lists::from_pairs(n, &group_successors);
        let subsets = index.subsets() as usize;
        let other_on_corner: Vec<bool> = (0..n)
            .map(|g| placements[index.pair(g / subsets).1].intersects(corners))
            .collect();
        let open_successors = (0..n)
            .map(|g| {
                let list = successors.get(g);
                list.iter().filter(|&&t| !trapped[t as usize]).count() as u32
            })
            .collect();
        let traps = (0..n)
            .map(|g| successors.get(g).iter().any(|&t| trapped[t as usize]))
            .collect();
        Ok(Moves {
            reaching: groups.reversed(n),
            leading: successors.reversed(n),
            groups,
            successors,
            trapped,
            other_on_corner,
            open_successors,
            traps,
        })
    }
}

/// The best a set of exits (moves out of the layer) gives their mover.
#[derive(Clone, Copy)]
struct Exits {
    /// The quickest win, in plies (`u16::MAX`: none).
    win: u16,
    /// The slowest loss, in plies (0: none).
    loss: u16,
    /// Whether some exit is a draw.
    draw: bool,
}

impl Exits {
    const NONE: Exits = Exits {
        win: u16::MAX,
        loss: 0,
        draw: false,
    };

    /// Adds an exit to a position worth `value` to its mover.
    fn add(&mut self, value: Value) {
        match value.before_move() {
            Value::Win(d) => self.win = self.win.min(d),
            Value::Loss(d) => self.loss = self.loss.max(d),
            Value::Draw => self.draw = true,
        }
    }

    fn merge(&mut self, other: Exits) {
        self.win = self.win.min(other.win);
        self.loss = self.loss.max(other.loss);
        self.draw |= other.draw;
    }
}

/// Solves the scoring variant (without the symmetry rule) by score layers, highest total
/// first (see the module's documentation).
pub(crate) fn solve_by_scores(
    index: &StateIndex,
    values: &mut [u16],
    progress: &mut dyn FnMut(u64),
) -> Result<(), SolveError> {
    let rules = index.rules();
    let target = rules.scoring_target().ok_or(SolveError::Unsupported(
        "the score-layer method needs scoring",
    ))?;
    if rules.symmetry() {
        return Err(SolveError::Unsupported(
            "the score-layer method does not solve scoring with the symmetry rule",
        ));
    }
    let moves = Moves::of(index)?;
    let n = index.base() as usize;
    let sides = index.score_sides() as u8;
    // After a trap the trapped player moves first from the starting setup.
    let start = rules.start_position();
    let g = rules.board().geometry();
    let placement = |cells| {
        g.placement_index(cells)
            .expect("the setup's Ls are placements")
    };
    let reset = index.index_of_parts(
        placement(start.l(start.turn())),
        placement(start.l(!start.turn())),
        start.neutrals(),
        (0, 0),
    ) as usize;
    let block = |mover: u8, other: u8| index.score_block(mover, other) as usize;
    let value_at = |values: &[u16], i: usize| packed::unpack(values[i]).expect("a state");
    // What a move that traps the other player is worth to them, the mover having `x` points
    // after it (before the five): lost at once, or the reset state's value.
    let trap_value = |values: &[u16], x: u8, trapped_score: u8| {
        if x as u16 + 5 >= target as u16 {
            Value::Loss(0)
        } else {
            value_at(values, block(trapped_score, x + 5) + reset)
        }
    };

    let mut pairs: Vec<(u8, u8)> = (0..sides)
        .flat_map(|a| (a..sides).map(move |b| (a, b)))
        .collect();
    pairs.sort_by_key(|&(a, b)| std::cmp::Reverse(a as u16 + b as u16));

    let mut corner_exits = vec![Exits::NONE; n];
    let mut exits = vec![Exits::NONE; 2 * n];
    let mut groups_left = vec![0u32; 2 * n];
    let mut successors_left = vec![0u32; 2 * n];
    let mut hit = vec![false; 2 * n];
    let mut propagated = vec![false; 2 * n];
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let mut done = 0;
    for (a, b) in pairs {
        let blocks: Vec<(u8, u8)> = if a == b {
            vec![(a, a)]
        } else {
            vec![(a, b), (b, a)]
        };
        let push = |buckets: &mut Vec<Vec<u32>>, d: u16, i: usize| {
            let d = d as usize;
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push(i as u32);
        };
        for (k, &(x, y)) in blocks.iter().enumerate() {
            let here = block(x, y);
            let scored = x + 1 >= target;
            if !scored {
                // The corner groups lead to the block above, (y, x + 1), already solved.
                let above = block(y, x + 1);
                let trap = trap_value(values, x + 1, y);
                for (group, summary) in corner_exits.iter_mut().enumerate() {
                    if !moves.other_on_corner[group] {
                        continue;
                    }
                    let mut e = Exits::NONE;
                    for &t in moves.successors.get(group) {
                        let t = t as usize;
                        e.add(if moves.trapped[t] {
                            trap
                        } else {
                            value_at(values, above + t)
                        });
                    }
                    *summary = e;
                }
            }
            let mut in_layer_trap = Exits::NONE;
            in_layer_trap.add(trap_value(values, x, y));
            for s in 0..n {
                let i = k * n + s;
                successors_left[i] = moves.open_successors[s];
                hit[i] = false;
                if moves.trapped[s] {
                    values[here + s] = packed::NOT_A_POSITION;
                    propagated[i] = true;
                    continue;
                }
                propagated[i] = false;
                let mut e = Exits::NONE;
                let mut left = 0;
                for &group in moves.groups.get(s) {
                    let group = group as usize;
                    if moves.other_on_corner[group] {
                        if scored {
                            // The point reaches the target: won at once.
                            e.win = 1;
                        } else {
                            e.merge(corner_exits[group]);
                        }
                    } else {
                        left += (moves.open_successors[group] > 0) as u32;
                        if moves.traps[group] {
                            e.merge(in_layer_trap);
                        }
                    }
                }
                exits[i] = e;
                groups_left[i] = left;
                if e.win != u16::MAX {
                    push(&mut buckets, e.win, i);
                } else if left == 0 && !e.draw {
                    values[here + s] = packed::pack(Value::Loss(e.loss));
                    push(&mut buckets, e.loss, i);
                }
            }
        }

        let mut d = 0usize;
        while d < buckets.len() {
            let events = std::mem::take(&mut buckets[d]);
            for &i in &events {
                let i = i as usize;
                if propagated[i] {
                    continue;
                }
                propagated[i] = true;
                let (k, t) = (i / n, i % n);
                let (x, y) = blocks[k];
                let at = block(x, y) + t;
                if values[at] == packed::DRAW {
                    // A win through an exit, reached in order of distance.
                    values[at] = packed::pack(Value::Win(d as u16));
                }
                if moves.other_on_corner[t] {
                    // Reached only by scoring moves, from the layer below.
                    continue;
                }
                let next = u16::try_from(d + 1)
                    .ok()
                    .filter(|&p| p <= packed::MAX_PLIES)
                    .ok_or(SolveError::TooDeep)?;
                // The predecessors are in the layer's other block (the mover's turn passed).
                let kp = blocks.len() - 1 - k;
                let before = block(y, x);
                let lost = matches!(value_at(values, at), Value::Loss(_));
                for &group in moves.leading.get(t) {
                    let gi = kp * n + group as usize;
                    if lost {
                        if hit[gi] {
                            continue;
                        }
                        hit[gi] = true;
                        for &p in moves.reaching.get(group as usize) {
                            let pi = kp * n + p as usize;
                            if values[before + p as usize] == packed::DRAW && exits[pi].win > next {
                                values[before + p as usize] = packed::pack(Value::Win(next));
                                push(&mut buckets, next, pi);
                            }
                        }
                    } else {
                        successors_left[gi] -= 1;
                        if successors_left[gi] != 0 {
                            continue;
                        }
                        for &p in moves.reaching.get(group as usize) {
                            let pi = kp * n + p as usize;
                            if values[before + p as usize] != packed::DRAW {
                                continue;
                            }
                            groups_left[pi] -= 1;
                            let e = exits[pi];
                            if groups_left[pi] == 0 && e.win == u16::MAX && !e.draw {
                                let plies = next.max(e.loss);
                                values[before + p as usize] = packed::pack(Value::Loss(plies));
                                push(&mut buckets, plies, pi);
                            }
                        }
                    }
                }
            }
            d += 1;
        }
        buckets.clear();
        done += (blocks.len() * n) as u64;
        progress(done);
    }
    Ok(())
}
