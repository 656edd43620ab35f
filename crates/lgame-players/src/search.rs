//! The `intermediate` level's search: a 3-ply negamax with alpha-beta pruning over the
//! rules crate's legal moves, with leaves scored by a mobility evaluation.
//!
//! The evaluation, from the point of view of the player to move at the root ("us"):
//!
//! - **mobility**: our legal L moves minus the opponent's (each counted with
//!   [`Position::l_moves`]; the side not to move is counted in the same arrangement with the
//!   turn flipped);
//! - **killer cells**: plus [`KILLER_WEIGHT`] for every neutral on a perimeter cell that is
//!   not a corner — a neutral left there is what most traps are built with;
//! - under **misère** the two terms above change sign (there, being short of L moves is what
//!   a player wants);
//! - under **scoring**: plus [`SCORE_WEIGHT`] per point of our lead, so that corner points and
//!   the five points of a trap (after which the pieces are reset) count.
//!
//! A finished position is worth ±[`WIN`] less the plies it took to get there, so quick wins
//! are preferred to slow ones and slow losses to quick ones. The draw rules of a game (turn
//! limit, repetition) are not searched.

use lgame::rules::{RuleOptions, StartSetup};
use lgame::{Bitboard, Board, Color, Move, Position, Rules, Setup};

/// The number of plies searched: our move, the reply, our move.
pub(crate) const DEPTH: u32 = 3;

/// The worth of a won finished position (less one per ply taken to reach it).
pub(crate) const WIN: i32 = 1_000_000;

/// The bonus per neutral standing on a killer cell (a perimeter cell that is not a corner):
/// worth one L move of mobility difference, so it mostly decides between moves of about equal
/// mobility (most often: which neutral move to make after a given L move).
pub(crate) const KILLER_WEIGHT: i32 = 1;

/// Under scoring, the worth of one point of lead (a trap is worth 5 points).
pub(crate) const SCORE_WEIGHT: i32 = 2;

const INFINITY: i32 = i32::MAX / 2;

/// The killer cells of a board: its perimeter cells that are not corners.
pub(crate) fn killer_cells(board: Board) -> Bitboard {
    let (w, h) = (board.width(), board.height());
    let mut cells = Bitboard::EMPTY;
    for square in board.mask() {
        let (c, r) = (square.column(), square.row());
        let on_edge = c == 0 || r == 0 || c == w - 1 || r == h - 1;
        if on_edge {
            cells |= square.bit();
        }
    }
    cells - board.corners()
}

/// One search: the rules' facts the evaluation needs, computed once per move choice.
pub(crate) struct Search {
    root: Color,
    /// The same game without scoring, symmetry or misère, standard setup: every
    /// arrangement of pieces is a position under it, so the side not to move can be counted
    /// as the side to move of a position.
    plain: Rules,
    killers: Bitboard,
    misere: bool,
    scoring: bool,
}

impl Search {
    /// A search for the player to move in `root`.
    pub(crate) fn new(root: &Position) -> Search {
        let rules = root.rules();
        let plain = Rules::new(RuleOptions {
            misere: false,
            symmetry: false,
            scoring_target: None,
            setup: StartSetup::Standard,
            ..rules.options()
        })
        .unwrap_or(*rules);
        Search {
            root: root.turn(),
            plain,
            killers: killer_cells(rules.board()),
            misere: rules.misere(),
            scoring: rules.scoring_target().is_some(),
        }
    }

    /// The legal L moves of `color` in the arrangement of `position`.
    fn l_move_count(&self, position: &Position, color: Color) -> i32 {
        if color == position.turn() {
            return position.l_moves().count() as i32;
        }
        let setup = Setup {
            turn: color,
            scores: None,
            ..position.to_setup()
        };
        Position::from_setup(setup, &self.plain)
            .map_or(0, |flipped| flipped.l_moves().count() as i32)
    }

    /// The evaluation of an unfinished position, for the root player.
    pub(crate) fn evaluate(&self, position: &Position) -> i32 {
        let own = self.l_move_count(position, self.root);
        let other = self.l_move_count(position, !self.root);
        let killers = (position.neutrals() & self.killers).count() as i32;
        let mut score = own - other + KILLER_WEIGHT * killers;
        if self.misere {
            score = -score;
        }
        if self.scoring {
            let scores = position.scores();
            score += SCORE_WEIGHT * (scores[self.root] as i32 - scores[!self.root] as i32);
        }
        score
    }

    /// The worth of a finished position `ply` plies from the root, for its player to move;
    /// `None` if it is not finished.
    fn finished(position: &Position, ply: u32) -> Option<i32> {
        position.outcome().map(|outcome| {
            let worth = WIN - ply as i32;
            if outcome.winner == position.turn() {
                worth
            } else {
                -worth
            }
        })
    }

    /// The static worth of a position for its player to move: a finished position's worth or
    /// the evaluation. Used at the leaves and to order moves.
    fn static_worth(&self, position: &Position, ply: u32) -> i32 {
        Search::finished(position, ply).unwrap_or_else(|| {
            let e = self.evaluate(position);
            if position.turn() == self.root {
                e
            } else {
                -e
            }
        })
    }

    /// Negamax with alpha-beta: the worth of `position` for its player to move, searched
    /// `depth` more plies, exact when inside `(alpha, beta)`.
    fn negamax(&self, position: &Position, depth: u32, ply: u32, alpha: i32, beta: i32) -> i32 {
        if let Some(worth) = Search::finished(position, ply) {
            return worth;
        }
        if depth == 0 {
            return self.static_worth(position, ply);
        }
        let mut best = -INFINITY;
        if depth == 1 {
            // The leaves: no ordering can save their evaluation, so walk them directly, and
            // stop evaluating once one of them refutes the opponent's move (reaches beta).
            position.for_each_legal_move(|mv| {
                if best >= beta {
                    return;
                }
                let child = position.play_unchecked(&mv);
                best = best.max(-self.static_worth(&child, ply + 1));
            });
            return best;
        }
        let mut alpha = alpha;
        for child in self.ordered_children(position, ply) {
            let worth = -self.negamax(&child.1, depth - 1, ply + 1, -beta, -alpha);
            if worth > best {
                best = worth;
                if worth > alpha {
                    alpha = worth;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Every legal move with the position after it, the most promising for the mover first
    /// (by the static worth of the position after it; ties keep the generator's order).
    fn ordered_children(&self, position: &Position, ply: u32) -> Vec<(Move, Position)> {
        let mut children: Vec<(i32, Move, Position)> = Vec::new();
        position.for_each_legal_move(|mv| {
            let child = position.play_unchecked(&mv);
            children.push((self.static_worth(&child, ply + 1), mv, child));
        });
        // The child's worth is for the opponent: lowest first.
        children.sort_by_key(|c| c.0);
        children.into_iter().map(|(_, mv, p)| (mv, p)).collect()
    }

    /// The root moves that the search finds best (all of them, in the order of
    /// [`Position::legal_moves`]) and their worth.
    pub(crate) fn best_moves(&self, position: &Position) -> (Vec<Move>, i32) {
        let order: Vec<Move> = position.legal_moves();
        let mut best = -INFINITY;
        let mut tied: Vec<Move> = Vec::new();
        for (mv, child) in self.ordered_children(position, 0) {
            // A window just below the best so far: a move as good as the best gets its exact
            // worth, so every tied move is found.
            let alpha = if best == -INFINITY {
                -INFINITY
            } else {
                best - 1
            };
            let worth = -self.negamax(&child, DEPTH - 1, 1, -INFINITY, -alpha);
            if worth > best {
                best = worth;
                tied.clear();
            }
            if worth == best {
                tied.push(mv);
            }
        }
        tied.sort_by_key(|mv| order.iter().position(|m| m == mv));
        (tied, best)
    }
}
