//! Building a move pick by pick, as a person does on a board: the cells of the new L, then a
//! neutral to move and its new cell (and, under `sudden-death`, further neutrals), with the
//! rules saying at every step what can come next and why anything else cannot.
//!
//! A [`MoveBuilder`] holds a [`Position`] and the picks so far. It answers from the rules
//! crate's own checks — [`Position::check_l_cells`] for cells of the L,
//! [`Position::check_move`] and [`Move::new`] for neutral moves — and from the cells
//! [`Arrangement::neutral_targets`](crate::raw::Arrangement::neutral_targets) that move generation uses, so that it writes no rule a
//! second time: the moves it can build are exactly [`Position::legal_moves`].
//!
//! A small game of picks on the standard setup:
//!
//! ```
//! use lgame::builder::{MoveBuilder, Refusal, Stage};
//! use lgame::{Bitboard, Rules, Square};
//!
//! let cell = |name: &str| name.parse::<Square>().unwrap();
//! let cells = |list: &str| list.split(',').map(cell).collect::<Bitboard>();
//! // 4  N R R .
//! // 3  . R B .
//! // 2  . R B .
//! // 1  . B B N
//! //    A B C D     Red to move
//! let start = Rules::classic().start_position();
//! let mut picks = MoveBuilder::new(&start);
//!
//! // C1 is Blue's: it cannot join Red's new L, and the rules say why.
//! let refused = picks.add_l_cell(cell("C1")).unwrap_err();
//! assert_eq!(refused.to_string(), "the L cannot go on C1: it is occupied by Blue's L");
//!
//! // A1 and A2: one legal L completes them, and only its cells can join.
//! picks.add_l_cell(cell("A1"))?;
//! picks.add_l_cell(cell("A2"))?;
//! let ls: Vec<String> = picks.legal_ls().map(|l| l.to_cell_list()).collect();
//! assert_eq!(ls, ["A1,A2,A3,B3"]);
//! assert_eq!(picks.l_candidates(), cells("A3,B3"));
//! assert_eq!(picks.stage(), Stage::L);
//!
//! // The fourth cell makes the L: now a neutral may move, or none.
//! picks.add_l_cell(cell("A3"))?;
//! picks.add_l_cell(cell("B3"))?;
//! assert_eq!(picks.stage(), Stage::Neutral);
//! assert_eq!(picks.movable_neutrals(), cells("A4,D1"));
//! assert!(picks.may_stop(), "the classic rules let a turn move no neutral");
//!
//! // Pick up the neutral on D1; Blue's C1 is no place for it.
//! picks.lift(cell("D1"))?;
//! assert_eq!(picks.stage(), Stage::Target(cell("D1")));
//! let refused = picks.place(cell("C1")).unwrap_err();
//! assert_eq!(refused.to_string(), "a neutral cannot move to C1: it is occupied by Blue's L");
//! assert!(matches!(refused, Refusal::Illegal(_)));
//!
//! // D2 is free: the move is complete (one neutral is all the classic rules allow).
//! picks.place(cell("D2"))?;
//! let Stage::Complete(mv) = picks.stage() else { unreachable!() };
//! assert_eq!(mv.to_string(), "A1,A2,A3,B3 D1-D2");
//! assert_eq!(start.play(&mv)?.to_string(), "N.../RRB./R.BN/RBB. b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::moves::{IllegalMove, Move};
use crate::notation::ParseMoveError;
use crate::position::{PartialLError, Position};
use crate::rules::MAX_NEUTRALS;
use crate::square::{Bitboard, Square};

/// The most neutral moves one turn can make.
const MAX_MOVES: usize = MAX_NEUTRALS as usize;
/// What fills the unused places of the neutral moves (so that equal picks compare equal).
const NO_MOVE: (Square, Square) = (Square::new(0, 0), Square::new(0, 0));

/// What a person has picked so far of the move to play in a position, and what the rules
/// allow next. See [the module](self) for an example.
///
/// The picks come in this order: cells of the new L (in any order, any of them taken back
/// again), then — once the four cells are a legal L — a neutral to pick up
/// ([`MoveBuilder::lift`]) and its new cell ([`MoveBuilder::place`]), as many times as the
/// rules allow. [`MoveBuilder::stage`] says where the picks stand; the `check_*` methods say
/// why a pick would be refused without making it.
///
/// Rebuilding the picks a stateless page sends, under `sudden-death` (both neutrals may
/// move):
///
/// ```
/// use lgame::builder::{MoveBuilder, Refusal, Stage};
/// use lgame::{Bitboard, Rules, Square};
///
/// let cell = |name: &str| name.parse::<Square>().unwrap();
/// let cells = |list: &str| list.split(',').map(cell).collect::<Bitboard>();
/// let start = "sudden-death".parse::<Rules>()?.start_position();
///
/// // The L is chosen, A4 has gone to C4, and D1 is in hand.
/// let neutral_moves = [(cell("A4"), cell("C4"))];
/// let mut picks =
///     MoveBuilder::from_picks(&start, cells("A1,A2,A3,B3"), &neutral_moves, Some(cell("D1")))?;
/// assert_eq!(picks.stage(), Stage::Target(cell("D1")));
/// assert_eq!(picks.targets(), cells("B2,B4,D2,D3,D4"));
/// // A4 is empty now, but a neutral sent there would undo the first neutral move.
/// let refused = picks.check_target(cell("A4")).unwrap_err();
/// assert!(matches!(refused, Refusal::Malformed(_)));
/// assert_eq!(
///     refused.to_string(),
///     "A4 is both left and entered by neutrals in one turn; write only where the neutrals end up"
/// );
///
/// picks.place(cell("D4"))?;
/// let Stage::Complete(mv) = picks.stage() else { unreachable!() };
/// assert_eq!(mv.to_string(), "A1,A2,A3,B3 A4-C4 D1-D4");
/// assert!(start.legal_moves().contains(&mv));
///
/// // Taking back the last neutral move leaves the first one, and a move that may stop here.
/// assert!(picks.back());
/// assert_eq!(picks.stage(), Stage::Neutral);
/// assert_eq!(picks.finish()?.to_string(), "A1,A2,A3,B3 A4-C4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveBuilder {
    position: Position,
    cells: Bitboard,
    moves: [(Square, Square); MAX_MOVES],
    moved: usize,
    lifted: Option<Square>,
}

/// Where the picks of a [`MoveBuilder`] stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Choosing the new L: fewer than four cells are picked, or four that are not a legal L.
    L,
    /// The L is legal and a neutral may be picked up ([`MoveBuilder::movable_neutrals`]); the
    /// move may also end here when [`MoveBuilder::may_stop`] says so.
    Neutral,
    /// The neutral on this cell is picked up; its new cell comes next
    /// ([`MoveBuilder::targets`]).
    Target(Square),
    /// Nothing more can be picked: this is the move, and it is legal.
    Complete(Move),
}

/// Why a pick is refused, in the words of the rules crate's own checks.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The cells cannot become a legal L: [`Position::check_l_cells`]'s reason.
    L(PartialLError),
    /// The move this pick would make is illegal: [`Position::check_move`]'s reason.
    Illegal(IllegalMove),
    /// The picks cannot be written as one move ([`Move::new`]'s reason): a neutral moved
    /// twice, two neutrals sent to one cell, or a neutral sent where another one left.
    Malformed(ParseMoveError),
    /// A neutral was picked before the four cells of a legal L.
    LNotChosen,
    /// The neutral on this cell is picked up: its new cell comes first.
    NeutralInHand(Square),
    /// A new cell was picked for a neutral, but none is picked up.
    NoNeutralInHand,
    /// The L's cells changed after neutrals were picked: take those back first.
    NeutralsPicked,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::L(e) => e.fmt(f),
            Refusal::Illegal(e) => e.fmt(f),
            Refusal::Malformed(e) => e.fmt(f),
            Refusal::LNotChosen => f.write_str("the four cells of a legal L come first"),
            Refusal::NeutralInHand(cell) => write!(
                f,
                "the neutral on {cell} is picked up: its new cell comes first"
            ),
            Refusal::NoNeutralInHand => f.write_str("no neutral is picked up"),
            Refusal::NeutralsPicked => {
                f.write_str("neutrals are picked: take them back before changing the L")
            }
        }
    }
}

impl std::error::Error for Refusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Refusal::L(e) => Some(e),
            Refusal::Illegal(e) => Some(e),
            Refusal::Malformed(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PartialLError> for Refusal {
    fn from(e: PartialLError) -> Refusal {
        Refusal::L(e)
    }
}

impl From<IllegalMove> for Refusal {
    fn from(e: IllegalMove) -> Refusal {
        Refusal::Illegal(e)
    }
}

impl From<ParseMoveError> for Refusal {
    fn from(e: ParseMoveError) -> Refusal {
        Refusal::Malformed(e)
    }
}

impl MoveBuilder {
    /// Nothing picked yet in `position`.
    pub fn new(position: &Position) -> MoveBuilder {
        MoveBuilder {
            position: *position,
            cells: Bitboard::EMPTY,
            moves: [NO_MOVE; MAX_MOVES],
            moved: 0,
            lifted: None,
        }
    }

    /// The builder with these cells picked for the L, checked or not (as
    /// [`MoveBuilder::set_l_cells`]): what a board asks while a person chooses the L.
    pub fn with_l_cells(position: &Position, cells: Bitboard) -> MoveBuilder {
        let mut builder = MoveBuilder::new(position);
        builder.set_l_cells(cells);
        builder
    }

    /// The builder after these picks: the L's cells (any cells: [`MoveBuilder::check_l`]
    /// says whether they are a legal L), the neutral moves made, and the neutral picked up.
    /// This is how a stateless interface (a web page asking a server) rebuilds its picks.
    ///
    /// # Errors
    /// The first [`Refusal`] of a neutral pick, as [`MoveBuilder::lift`] and
    /// [`MoveBuilder::place`] give it.
    pub fn from_picks(
        position: &Position,
        cells: Bitboard,
        neutral_moves: &[(Square, Square)],
        lifted: Option<Square>,
    ) -> Result<MoveBuilder, Refusal> {
        let mut builder = MoveBuilder::with_l_cells(position, cells);
        for &(from, to) in neutral_moves {
            builder.lift(from)?;
            builder.place(to)?;
        }
        if let Some(from) = lifted {
            builder.lift(from)?;
        }
        Ok(builder)
    }

    /// The position the move is for.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The cells picked for the new L.
    pub fn l_cells(&self) -> Bitboard {
        self.cells
    }

    /// The neutral moves picked, in order, as (from, to).
    pub fn neutral_moves(&self) -> &[(Square, Square)] {
        &self.moves[..self.moved]
    }

    /// The cell of the neutral picked up and waiting for its new cell.
    pub fn lifted(&self) -> Option<Square> {
        self.lifted
    }

    /// Where the picks stand.
    pub fn stage(&self) -> Stage {
        if self.legal_l().is_none() {
            return Stage::L;
        }
        if let Some(from) = self.lifted {
            return Stage::Target(from);
        }
        if self.movable_neutrals().any() {
            return Stage::Neutral;
        }
        match self.finish() {
            Ok(mv) => Stage::Complete(mv),
            Err(_) => Stage::Neutral,
        }
    }

    // The L.

    /// The picked cells when they are a legal L for the player to move.
    fn legal_l(&self) -> Option<Bitboard> {
        (self.cells.count() == 4 && self.position.check_l_cells(self.cells).is_ok())
            .then_some(self.cells)
    }

    /// The legal placements of the new L that contain every picked cell (all of them before
    /// the first pick; none once the picks cannot become a legal L).
    pub fn legal_ls(&self) -> impl Iterator<Item = Bitboard> + '_ {
        let open = self.position.check_l_cells(self.cells).is_ok();
        self.position
            .l_moves()
            .filter(move |&l| open && self.cells.is_subset(l))
    }

    /// The cells that can join the picked ones: the rest of the [`MoveBuilder::legal_ls`].
    pub fn l_candidates(&self) -> Bitboard {
        self.legal_ls().fold(Bitboard::EMPTY, |all, l| all | l) - self.cells
    }

    /// Whether `square` can join the picked cells ([`Position::check_l_cells`] on them all).
    ///
    /// # Errors
    /// The rules' [`PartialLError`]: game over, off the board, occupied, the only completion
    /// is the L where it stands, or no L covers the cells.
    pub fn check_l_cell(&self, square: Square) -> Result<(), PartialLError> {
        self.position.check_l_cells(self.cells | square.bit())
    }

    /// Every cell that is not picked and cannot join the picked cells, with the rules'
    /// reason, in notation order (what a board shows beside the highlighted candidates).
    pub fn l_refusals(&self) -> Vec<(Square, PartialLError)> {
        self.position
            .board()
            .mask()
            .squares_in_notation_order()
            .into_iter()
            .filter(|&square| !self.cells.contains(square))
            .filter_map(|square| self.check_l_cell(square).err().map(|e| (square, e)))
            .collect()
    }

    /// The picked cells as the new L, when they are a legal one.
    ///
    /// # Errors
    /// For four cells, [`Refusal::Illegal`] with [`Position::check_move`]'s reason for the L
    /// (not an L, occupied, unchanged, game over); for other counts, [`Refusal::L`] when the
    /// cells cannot become a legal L, else [`Refusal::LNotChosen`] (not all picked yet).
    pub fn check_l(&self) -> Result<Bitboard, Refusal> {
        if let Some(l) = self.legal_l() {
            return Ok(l);
        }
        let partial = self.position.check_l_cells(self.cells);
        if self.cells.count() == 4 {
            if let Err(e) = self.position.check_move(&Move::l_only(self.cells)) {
                return Err(e.into());
            }
        }
        Err(partial.err().map_or(Refusal::LNotChosen, Refusal::L))
    }

    /// Adds a cell to the L's, if it can join them.
    ///
    /// # Errors
    /// [`Refusal::L`] with the reason of [`MoveBuilder::check_l_cell`] (the cell is not
    /// added), or [`Refusal::NeutralsPicked`].
    pub fn add_l_cell(&mut self, square: Square) -> Result<(), Refusal> {
        self.no_neutral_picks()?;
        self.check_l_cell(square)?;
        self.cells |= square.bit();
        Ok(())
    }

    /// Takes a cell back from the L's.
    ///
    /// # Errors
    /// [`Refusal::NeutralsPicked`] once neutrals are picked.
    pub fn remove_l_cell(&mut self, square: Square) -> Result<(), Refusal> {
        self.no_neutral_picks()?;
        self.cells = self.cells - square.bit();
        Ok(())
    }

    /// Replaces the L's cells with any cells (checked or not: an interface may keep a refused
    /// choice to be edited) and drops the neutral picks.
    pub fn set_l_cells(&mut self, cells: Bitboard) {
        *self = MoveBuilder {
            cells,
            ..MoveBuilder::new(&self.position)
        };
    }

    fn no_neutral_picks(&self) -> Result<(), Refusal> {
        if self.moved > 0 || self.lifted.is_some() {
            return Err(Refusal::NeutralsPicked);
        }
        Ok(())
    }

    // The neutrals.

    /// The neutral moves picked, with `extra` after them, as one move.
    fn with_move(&self, l: Bitboard, extra: (Square, Square)) -> Result<Move, Refusal> {
        let mut all = self.neutral_moves().to_vec();
        all.push(extra);
        let mv = Move::new(l, &all)?;
        self.position.check_move(&mv)?;
        Ok(mv)
    }

    /// The cells a neutral may move to now: free of both Ls and of the neutrals where the
    /// picks have left them.
    fn open_cells(&self, l: Bitboard) -> Bitboard {
        let arrived: Bitboard = self.neutral_moves().iter().map(|&(_, to)| to).collect();
        self.position
            .arrangement()
            .neutral_targets(self.position.rules(), l)
            - arrived
    }

    /// The neutrals that may be picked up now (none before the L is chosen, none while a
    /// neutral is in hand, none once the rules allow no more neutral moves).
    pub fn movable_neutrals(&self) -> Bitboard {
        self.position
            .neutrals()
            .into_iter()
            .filter(|&square| self.check_neutral(square).is_ok())
            .collect()
    }

    /// Whether the neutral on `square` may be picked up now.
    ///
    /// # Errors
    /// [`Refusal::LNotChosen`] or [`Refusal::NeutralInHand`] out of turn; else the rules'
    /// reason for the move that sends this neutral to a free cell: [`Refusal::Illegal`]
    /// (no neutral there, too many neutral moves, a symmetry win that allows none, …) or
    /// [`Refusal::Malformed`] (the neutral already moved this turn).
    pub fn check_neutral(&self, square: Square) -> Result<(), Refusal> {
        let l = self.legal_l().ok_or(Refusal::LNotChosen)?;
        if let Some(from) = self.lifted {
            return Err(Refusal::NeutralInHand(from));
        }
        // Any free cell will do as the target: a legal one when there is one, so that the
        // rules' answer is about this neutral.
        let elsewhere = self.position.board().mask() - square.bit();
        let to = (self.open_cells(l) - square.bit())
            .first()
            .or_else(|| elsewhere.first())
            .unwrap_or(square);
        self.with_move(l, (square, to)).map(drop)
    }

    /// Picks up the neutral on `square`.
    ///
    /// # Errors
    /// The [`Refusal`] of [`MoveBuilder::check_neutral`].
    pub fn lift(&mut self, square: Square) -> Result<(), Refusal> {
        self.check_neutral(square)?;
        self.lifted = Some(square);
        Ok(())
    }

    /// Puts the neutral in hand back where it was; returns its cell.
    pub fn put_back(&mut self) -> Option<Square> {
        self.lifted.take()
    }

    /// The cells the neutral in hand may move to (none when no neutral is picked up).
    pub fn targets(&self) -> Bitboard {
        match (self.legal_l(), self.lifted) {
            (Some(l), Some(_)) => self.open_cells(l),
            _ => Bitboard::EMPTY,
        }
    }

    /// Whether the neutral in hand may move to `square`.
    ///
    /// # Errors
    /// [`Refusal::NoNeutralInHand`] with nothing picked up; else the rules' reason for the
    /// move: [`Refusal::Illegal`] (the cell is occupied, …) or [`Refusal::Malformed`] (its
    /// own cell, a cell another neutral has just left or entered).
    pub fn check_target(&self, square: Square) -> Result<(), Refusal> {
        let from = self.lifted.ok_or(Refusal::NoNeutralInHand)?;
        let l = self.legal_l().ok_or(Refusal::LNotChosen)?;
        self.with_move(l, (from, square)).map(drop)
    }

    /// Moves the neutral in hand to `square`.
    ///
    /// # Errors
    /// The [`Refusal`] of [`MoveBuilder::check_target`].
    pub fn place(&mut self, square: Square) -> Result<(), Refusal> {
        self.check_target(square)?;
        let from = self.lifted.take().ok_or(Refusal::NoNeutralInHand)?;
        // The rules allow at most one move per neutral, and there are at most MAX_MOVES.
        self.moves[self.moved] = (from, square);
        self.moved += 1;
        Ok(())
    }

    /// Takes back the last neutral pick: the neutral in hand, or else the last neutral move.
    /// Returns whether there was one (the L's cells are changed with
    /// [`MoveBuilder::remove_l_cell`] and [`MoveBuilder::set_l_cells`]).
    pub fn back(&mut self) -> bool {
        if self.lifted.take().is_some() {
            return true;
        }
        if self.moved > 0 {
            self.moved -= 1;
            self.moves[self.moved] = NO_MOVE;
            return true;
        }
        false
    }

    // The move.

    /// The move picked so far — the L and the neutral moves made, a neutral in hand left
    /// where it was — once the L is chosen, legal or not yet ([`MoveBuilder::finish`]).
    pub fn current_move(&self) -> Option<Move> {
        let l = self.legal_l()?;
        Move::new(l, self.neutral_moves()).ok()
    }

    /// Whether the move may end now, with no (further) neutral move.
    pub fn may_stop(&self) -> bool {
        self.finish().is_ok()
    }

    /// The move picked so far, if it may be played as it is (a neutral in hand stays where
    /// it was).
    ///
    /// # Errors
    /// [`MoveBuilder::check_l`]'s refusal while the L is not chosen; else the rules' reason
    /// why the move is not yet legal (such as [`IllegalMove::NeutralMoveRequired`]).
    pub fn finish(&self) -> Result<Move, Refusal> {
        let l = self.check_l()?;
        let mv = Move::new(l, self.neutral_moves())?;
        self.position.check_move(&mv)?;
        Ok(mv)
    }
}
