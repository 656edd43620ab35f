//! Building a move on the board, pick by pick: the L's four cells, then a neutral and its
//! new cell. What may be picked, and why anything else may not, is the rules crate's
//! [`MoveBuilder`]'s answer; this module keeps the picks and words the messages.

use lgame::builder::{MoveBuilder, Stage};
use lgame::{Bitboard, Move, Square};

use super::app::App;

/// Where a person is in entering a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Choosing the four cells of the L's new placement.
    L {
        /// The cells chosen so far.
        cells: Bitboard,
    },
    /// The L's placement is chosen and legal; now a neutral may move.
    Neutral {
        /// The L's new cells.
        l: Bitboard,
        /// Neutral moves already chosen (more than one only in sudden death).
        moves: Vec<(Square, Square)>,
        /// The neutral picked up, waiting for its new cell.
        from: Option<Square>,
    },
}

impl Step {
    pub(super) fn start() -> Step {
        Step::L {
            cells: Bitboard::EMPTY,
        }
    }
}

impl App {
    /// The rules' view of the picks so far: what may come next, and why anything else may
    /// not.
    pub(super) fn builder(&self) -> MoveBuilder {
        let position = self.position();
        match &self.step {
            Step::L { cells } => MoveBuilder::with_l_cells(position, *cells),
            // A neutral step is taken only on the builder's word, so replaying it is never
            // refused.
            Step::Neutral { l, moves, from } => MoveBuilder::from_picks(position, *l, moves, *from)
                .unwrap_or_else(|_| MoveBuilder::with_l_cells(position, *l)),
        }
    }

    /// Space, Enter on the L step, or a click: act on one cell.
    pub(super) fn activate(&mut self, square: Square) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        match self.step.clone() {
            Step::L { cells } => self.toggle(cells, square),
            Step::Neutral { l, moves, from } => self.pick(l, moves, from, square),
        }
    }

    fn toggle(&mut self, cells: Bitboard, square: Square) {
        let turn = self.position().turn();
        let cells = if cells.contains(square) {
            cells - square.bit()
        } else if cells.count() >= 4 {
            self.error("Four cells are chosen: Space on one takes it back, Esc clears them.");
            return;
        } else {
            cells | square.bit()
        };
        self.step = Step::L { cells };
        if cells.count() == 4 {
            self.l_chosen(cells);
        } else if cells.is_empty() {
            self.info(format!("{turn}: choose your L's new cells."));
        } else if self.builder().legal_ls().next().is_none() {
            self.error(format!(
                "No legal L for {turn} covers {}: Space takes a cell back, Esc clears.",
                cells.to_cell_list()
            ));
        } else {
            self.info(format!(
                "{turn}'s new L: {} ({} of 4).",
                cells.to_cell_list(),
                cells.count()
            ));
        }
    }

    /// Four cells are chosen: on to the neutral step if the rules allow the L there.
    pub(super) fn l_chosen(&mut self, cells: Bitboard) {
        let turn = self.position().turn();
        let builder = self.builder();
        if let Err(reason) = builder.check_l() {
            self.error(format!(
                "{}: {reason}. Space takes a cell back, Esc clears.",
                cells.to_cell_list()
            ));
            return;
        }
        match builder.stage() {
            Stage::Complete(mv) => self.play(mv),
            _ => {
                self.step = Step::Neutral {
                    l: cells,
                    moves: Vec::new(),
                    from: None,
                };
                self.info(format!(
                    "{turn}'s L to {}. Now pick a neutral and its new cell, or n to move none.",
                    cells.to_cell_list()
                ));
            }
        }
    }

    fn pick(
        &mut self,
        l: Bitboard,
        moves: Vec<(Square, Square)>,
        from: Option<Square>,
        square: Square,
    ) {
        let turn = self.position().turn();
        let builder = self.builder();
        match from {
            None => match builder.check_neutral(square) {
                Ok(()) => {
                    self.step = Step::Neutral {
                        l,
                        moves,
                        from: Some(square),
                    };
                    self.info(format!(
                        "{turn}: now the new cell for the neutral on {square} (Esc: another neutral)."
                    ));
                }
                Err(reason) => self.error(format!("{reason}. Pick a neutral, or n to move none.")),
            },
            Some(from) if from == square => {
                self.step = Step::Neutral {
                    l,
                    moves,
                    from: None,
                };
                self.info(format!("{turn}: pick a neutral, or n to move none."));
            }
            Some(from) => {
                let mut after = builder;
                if let Err(reason) = after.place(square) {
                    self.error(format!("{reason}. Pick another cell, or Esc."));
                    return;
                }
                match (after.stage(), after.current_move()) {
                    (Stage::Complete(mv), _) => self.play(mv),
                    (_, so_far) => {
                        let mut moves = moves;
                        moves.push((from, square));
                        self.step = Step::Neutral {
                            l,
                            moves,
                            from: None,
                        };
                        let so_far = so_far.map(|mv| mv.to_string()).unwrap_or_default();
                        self.info(format!(
                            "{turn}: {so_far} so far. Another neutral, or n to finish."
                        ));
                    }
                }
            }
        }
    }

    /// `n`: play the chosen L with the neutral moves chosen so far (none, usually).
    pub(super) fn finish_neutrals(&mut self) {
        if let Some(why) = self.not_your_turn() {
            self.error(why);
            return;
        }
        if matches!(self.step, Step::L { .. }) {
            self.error("Choose the L's four cells first; n then moves no neutral.");
            return;
        }
        match self.builder().finish() {
            Ok(mv) => self.play(mv),
            Err(reason) => self.error(reason.to_string()),
        }
    }

    /// Enter: like Space, except that on the neutral step with nothing to pick under the
    /// cursor it moves no (more) neutral.
    pub(super) fn enter(&mut self) {
        if let Step::Neutral { from: None, .. } = self.step {
            if !self.builder().movable_neutrals().contains(self.cursor) {
                self.finish_neutrals();
                return;
            }
        }
        self.activate(self.cursor);
    }

    /// Esc or Backspace: one step back.
    pub(super) fn back(&mut self) {
        match self.step.clone() {
            Step::L { cells } if cells.any() => {
                self.step = Step::start();
                self.info("Cleared: choose your L's new cells.");
            }
            Step::L { .. } => self.message = self.greeting(),
            Step::Neutral {
                l,
                moves,
                from: Some(_),
            } => {
                self.step = Step::Neutral {
                    l,
                    moves,
                    from: None,
                };
                self.info("Pick a neutral, or n to move none.");
            }
            Step::Neutral { l, mut moves, .. } if !moves.is_empty() => {
                moves.pop();
                self.step = Step::Neutral {
                    l,
                    moves,
                    from: None,
                };
                self.info("Took back that neutral move.");
            }
            Step::Neutral { l, .. } => {
                self.step = Step::L { cells: l };
                self.info("Back to the L: Space takes a cell back, Esc clears.");
            }
        }
    }

    /// Plays the person's move.
    pub(super) fn play(&mut self, mv: Move) {
        let turn = self.position().turn();
        match self.table.seated.play_human(&mv) {
            Ok(_) => {
                self.reset_step();
                self.after_move(format!("{turn} played {mv}."));
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Says what was done, and how the game ended if it did.
    pub(super) fn after_move(&mut self, text: String) {
        match self.game().conclusion() {
            Some(end) => self.done(format!("{text} Game over: {end}.")),
            None => self.done(text),
        }
    }
}
