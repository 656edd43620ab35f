//! The variants: one [`Rules`] value per combination of rule options, with a canonical text.
//!
//! The canonical text lists the options that differ from the classic game, comma-separated,
//! in this fixed order: `board=WxH`, `misere`, `neutrals=K`, `sudden-death`,
//! `neutral-required`, `symmetry`, `scoring`, `target=N`, `setup=S`. With no option the text
//! is `classic`. Input may give the options in any order and in either case.
//!
//! ```
//! use lgame::Rules;
//!
//! let rules: Rules = "neutrals=1,Misere".parse()?;
//! assert_eq!(rules.to_string(), "misere,neutrals=1");
//! assert!(rules.misere());
//! assert!("sudden-death,neutral-required".parse::<Rules>().is_err());
//! # Ok::<(), lgame::rules::RulesError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::position::{End, Outcome, Position, Setup};
use crate::square::{Bitboard, Square};

/// What a player may do with the neutrals after the L move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NeutralMoves {
    /// Move at most one neutral (the classic rule).
    #[default]
    Optional,
    /// Move any number of neutrals, none included (`sudden-death`).
    SuddenDeath,
    /// Move exactly one neutral (`neutral-required`).
    Required,
}

/// The game's starting setup.
///
/// ```
/// use lgame::{Board, Rules};
/// use lgame::rules::StartSetup;
///
/// assert_eq!(StartSetup::from_name("Kit"), Some(StartSetup::Kit));
/// assert_eq!(StartSetup::from_name("nowhere"), None);
/// let kit = StartSetup::Kit.setup(Board::CLASSIC, 2);
/// assert_eq!(kit.to_string(), "..BB/R.NB/RN.B/RR.. r");
///
/// let corners = Rules::classic().with_setup(StartSetup::Corners)?;
/// assert_eq!(corners.to_string(), "setup=corners");
/// assert_eq!(corners.start_position().to_string(), "RRRN/R.../...B/NBBB r");
///
/// // A custom setup that is a named one becomes the named one…
/// let rules = Rules::classic().with_setup(StartSetup::Custom(kit))?;
/// assert_eq!(rules.start(), StartSetup::Kit);
/// // …and any other is written as the rows and side, joined by ':'.
/// let blue_first = kit.to_string().replace(" r", " b").parse()?;
/// let rules = Rules::classic().with_setup(StartSetup::Custom(blue_first))?;
/// assert_eq!(rules.start().to_string(), "..BB/R.NB/RN.B/RR..:b");
/// assert_eq!(rules.to_string(), "setup=..BB/R.NB/RN.B/RR..:b");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StartSetup {
    /// de Bono's classic picture: neutrals in opposite corners, the Ls interlocked.
    #[default]
    Standard,
    /// The printable tabletop kit's setup (docs/rules.md, "Starting setups").
    Kit,
    /// The setup claimed in the second of the two versions of the encyclopedia article
    /// (docs/rules.md, "Starting setups"); it is not de Bono's.
    Corners,
    /// Any legal position (the "initial position" variant).
    Custom(Setup),
}

/// A named setup on 4×4: Red's L, Blue's L, and the neutrals in the order they are kept when
/// there are fewer than two.
struct NamedSetup {
    name: &'static str,
    red: [&'static str; 4],
    blue: [&'static str; 4],
    neutrals: [&'static str; 2],
}

const NAMED_SETUPS: [NamedSetup; 3] = [
    NamedSetup {
        name: "standard",
        red: ["B4", "C4", "B3", "B2"],
        blue: ["C3", "C2", "C1", "B1"],
        neutrals: ["A4", "D1"],
    },
    NamedSetup {
        name: "kit",
        red: ["A1", "A2", "A3", "B1"],
        blue: ["D2", "D3", "D4", "C4"],
        neutrals: ["B2", "C3"],
    },
    NamedSetup {
        name: "corners",
        red: ["A4", "B4", "C4", "A3"],
        blue: ["B1", "C1", "D1", "D2"],
        neutrals: ["D4", "A1"],
    },
];

impl StartSetup {
    /// The names accepted for the named setups.
    pub const NAMES: [&'static str; 3] = ["standard", "kit", "corners"];

    /// The named setup called `name` (in either case), if there is one.
    pub fn from_name(name: &str) -> Option<StartSetup> {
        match name.to_ascii_lowercase().as_str() {
            "standard" => Some(StartSetup::Standard),
            "kit" => Some(StartSetup::Kit),
            "corners" => Some(StartSetup::Corners),
            _ => None,
        }
    }

    fn named(self) -> Option<&'static NamedSetup> {
        match self {
            StartSetup::Standard => Some(&NAMED_SETUPS[0]),
            StartSetup::Kit => Some(&NAMED_SETUPS[1]),
            StartSetup::Corners => Some(&NAMED_SETUPS[2]),
            StartSetup::Custom(_) => None,
        }
    }

    /// The pieces of this setup on `board` with `neutrals` neutrals, Red to move.
    ///
    /// A named setup is drawn on 4×4. On a larger board every piece keeps its shape and is
    /// moved along with the corner nearest to it, so pieces stay as far from the edges as on
    /// 4×4. With fewer neutrals the first ones listed are kept; with more, the extra ones go on
    /// the empty corners, then on the empty cells from the top row down, left to right.
    pub fn setup(self, board: Board, neutrals: u8) -> Setup {
        let named = match self.named() {
            Some(named) => named,
            None => match self {
                StartSetup::Custom(setup) => return setup,
                _ => unreachable!("every other setup is named"),
            },
        };
        let cells = |names: &[&str]| -> Bitboard {
            names
                .iter()
                .map(|n| n.parse::<Square>().expect("named setups use valid cells"))
                .collect()
        };
        // Shift a piece drawn on 4×4 towards the corner of the quadrant its centre lies in.
        let anchor = |piece: Bitboard| -> Bitboard {
            let n = piece.count().max(1);
            let col_sum: u32 = piece.into_iter().map(|s| s.column() as u32).sum();
            let row_sum: u32 = piece.into_iter().map(|s| s.row() as u32).sum();
            let dc = if 2 * col_sum >= 3 * n {
                board.width() - 4
            } else {
                0
            };
            let dr = if 2 * row_sum >= 3 * n {
                board.height() - 4
            } else {
                0
            };
            piece
                .into_iter()
                .map(|s| Square::new(s.column() + dc, s.row() + dr))
                .collect()
        };
        let red = anchor(cells(&named.red));
        let blue = anchor(cells(&named.blue));
        let mut placed = Bitboard::EMPTY;
        for name in named.neutrals.iter().take(neutrals as usize) {
            placed |= anchor(cells(&[name]));
        }
        let mut extra = neutrals.saturating_sub(2);
        let corners = board.corners().squares_in_notation_order();
        let reading_order = (0..board.height())
            .rev()
            .flat_map(|r| (0..board.width()).map(move |c| Square::new(c, r)));
        for square in corners.into_iter().chain(reading_order) {
            if extra == 0 {
                break;
            }
            if !(red | blue | placed).contains(square) {
                placed |= square.bit();
                extra -= 1;
            }
        }
        Setup {
            board,
            ls: ByColor { red, blue },
            neutrals: placed,
            turn: Color::Red,
            scores: None,
        }
    }
}

impl fmt::Display for StartSetup {
    /// A setup name, or a custom setup as `rows:side[:scores]` (the position form with `:`
    /// for the spaces, so that the rules text has no spaces).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartSetup::Custom(setup) => {
                write!(f, "{}:{}", setup.rows_string(), setup.turn.side_char())?;
                if let Some(scores) = setup.scores {
                    write!(f, ":{}-{}", scores.red, scores.blue)?;
                }
                Ok(())
            }
            named => f.write_str(named.named().map_or("", |n| n.name)),
        }
    }
}

/// The rule options, unchecked: every field may be set freely, and [`Rules::new`] checks that
/// they fit together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    /// The board (default 4×4).
    pub board: Board,
    /// The number of neutral pieces, 0 to 8 (default 2).
    pub neutrals: u8,
    /// A trapped player wins instead of losing.
    pub misere: bool,
    /// What may be done with the neutrals after the L move.
    pub neutral_moves: NeutralMoves,
    /// Mirroring the opponent's L wins.
    pub symmetry: bool,
    /// The scoring variant's target, if scoring is played.
    pub scoring_target: Option<u8>,
    /// The starting setup.
    pub setup: StartSetup,
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            board: Board::CLASSIC,
            neutrals: 2,
            misere: false,
            neutral_moves: NeutralMoves::Optional,
            symmetry: false,
            scoring_target: None,
            setup: StartSetup::Standard,
        }
    }
}

/// A checked set of rules: the classic game or any combination of the variants of rules.md.
///
/// Build it with [`Rules::classic`], from text with [`str::parse`], or from [`RuleOptions`]
/// with [`Rules::new`].
///
/// ```
/// use lgame::{Board, Rules};
/// use lgame::rules::{NeutralMoves, RulesError};
///
/// let classic = Rules::classic();
/// assert_eq!(classic.to_string(), "classic");
/// assert_eq!("classic".parse::<Rules>()?, classic);
/// assert_eq!((classic.board(), classic.neutrals()), (Board::CLASSIC, 2));
/// assert_eq!(classic.neutral_moves(), NeutralMoves::Optional);
/// assert!(!classic.misere() && !classic.symmetry());
/// assert_eq!(classic.scoring_target(), None);
///
/// let misere: Rules = "misere".parse()?;
/// assert!(misere.misere());
///
/// let big: Rules = "board=5x5,neutrals=3".parse()?;
/// assert_eq!((big.board(), big.neutrals()), (Board::new(5, 5)?, 3));
/// assert_eq!(big.start_position().to_string(), "NRR../.R.../.R.B./...B./N.BBN r");
/// // Options in any order and case; the text printed is canonical.
/// assert_eq!("NEUTRALS=3,board=5x5".parse::<Rules>()?, big);
///
/// let scoring: Rules = "scoring,target=5".parse()?;
/// assert_eq!(scoring.scoring_target(), Some(5));
/// assert_eq!("scoring".parse::<Rules>()?.scoring_target(), Some(10));
///
/// for text in ["misere", "board=5x5,neutrals=3", "scoring,target=5", "sudden-death"] {
///     assert_eq!(text.parse::<Rules>()?.to_string(), text);
/// }
///
/// let err = "misery".parse::<Rules>().unwrap_err();
/// assert_eq!(err, RulesError::UnknownOption { option: "misery".into() });
/// assert!(err.to_string().starts_with("unknown rule option 'misery' (known: classic, misere,"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules(RuleOptions);

/// The most neutrals a game may have.
pub const MAX_NEUTRALS: u8 = 8;
/// The default target of the scoring variant.
pub const DEFAULT_TARGET: u8 = 10;
/// The highest scoring target.
pub const MAX_TARGET: u8 = 99;

/// Why a rules text or a set of rule options was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// The text was empty.
    Empty,
    /// An option that does not exist.
    UnknownOption {
        /// The option as written.
        option: String,
    },
    /// An option needing a value (`board=5x5`) was given none, or one taking none was given one.
    Value {
        /// The option.
        option: String,
        /// What is wrong.
        problem: String,
    },
    /// The same option twice.
    Repeated {
        /// The option.
        option: String,
    },
    /// Two options that cannot be combined.
    Contradiction {
        /// The first option.
        first: String,
        /// The second option.
        second: String,
        /// Why not.
        why: String,
    },
    /// The starting setup does not fit the rules.
    Setup {
        /// What is wrong with it.
        problem: String,
    },
}

/// Why a setup written as text cannot start a game of the rules
/// ([`Rules::with_setup_text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupTextError {
    /// Neither a setup's name nor a legal position.
    Position(crate::position::PositionError),
    /// A setup that does not fit the rules.
    Rules(RulesError),
}

impl fmt::Display for SetupTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupTextError::Position(e) => e.fmt(f),
            SetupTextError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SetupTextError {}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Empty => f.write_str("no rules given (write classic for the classic game)"),
            RulesError::UnknownOption { option } => write!(
                f,
                "unknown rule option '{option}' (known: classic, misere, sudden-death, \
                 neutral-required, symmetry, scoring, target=N, neutrals=K, board=WxH, setup=S)"
            ),
            RulesError::Value { option, problem } => write!(f, "{option}: {problem}"),
            RulesError::Repeated { option } => write!(f, "option '{option}' is given twice"),
            RulesError::Contradiction { first, second, why } => {
                write!(f, "'{first}' and '{second}' cannot be combined: {why}")
            }
            RulesError::Setup { problem } => write!(f, "setup: {problem}"),
        }
    }
}

impl std::error::Error for RulesError {}

fn contradiction(first: &str, second: &str, why: &str) -> RulesError {
    RulesError::Contradiction {
        first: first.to_string(),
        second: second.to_string(),
        why: why.to_string(),
    }
}

impl Rules {
    /// The classic game: 4×4, two neutrals, standard setup.
    pub fn classic() -> Rules {
        Rules(RuleOptions::default())
    }

    /// Checks that the options fit together.
    ///
    /// # Errors
    /// A [`RulesError::Contradiction`] for options that exclude each other, a
    /// [`RulesError::Value`] for a neutral count or target out of range, and a
    /// [`RulesError::Setup`] for a starting setup that is not a legal, unfinished position
    /// under these rules.
    ///
    /// ```
    /// use lgame::{Board, Rules};
    /// use lgame::rules::{NeutralMoves, RuleOptions, StartSetup};
    ///
    /// let options = RuleOptions {
    ///     board: Board::new(6, 4)?,
    ///     neutral_moves: NeutralMoves::SuddenDeath,
    ///     setup: StartSetup::Kit,
    ///     ..RuleOptions::default()
    /// };
    /// let rules = Rules::new(options)?;
    /// assert_eq!(rules.to_string(), "board=6x4,sudden-death,setup=kit");
    /// assert_eq!(rules.max_neutral_moves(), 2);
    /// assert_eq!(rules.options(), options);
    ///
    /// let none = RuleOptions { neutrals: 0, neutral_moves: NeutralMoves::Required, ..options };
    /// assert_eq!(
    ///     Rules::new(none).unwrap_err().to_string(),
    ///     "'neutral-required' and 'neutrals=0' cannot be combined: \
    ///      a neutral move is impossible without neutrals"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(options: RuleOptions) -> Result<Rules, RulesError> {
        if options.neutrals > MAX_NEUTRALS {
            return Err(RulesError::Value {
                option: "neutrals".into(),
                problem: format!(
                    "{} neutrals is too many (0 to {MAX_NEUTRALS})",
                    options.neutrals
                ),
            });
        }
        if let Some(target) = options.scoring_target {
            if !(1..=MAX_TARGET).contains(&target) {
                return Err(RulesError::Value {
                    option: "target".into(),
                    problem: format!("target {target} is out of range (1 to {MAX_TARGET})"),
                });
            }
            if options.misere {
                return Err(contradiction(
                    "misere",
                    "scoring",
                    "scoring rewards trapping the opponent, misère rewards being trapped",
                ));
            }
        }
        if options.neutrals == 0 {
            match options.neutral_moves {
                NeutralMoves::Required => {
                    return Err(contradiction(
                        "neutral-required",
                        "neutrals=0",
                        "a neutral move is impossible without neutrals",
                    ))
                }
                NeutralMoves::SuddenDeath => {
                    return Err(contradiction(
                        "sudden-death",
                        "neutrals=0",
                        "there are no neutrals to move",
                    ))
                }
                NeutralMoves::Optional => {}
            }
        }
        let mut options = options;
        if let StartSetup::Custom(setup) = options.setup {
            options.setup = canonical_start(setup, options.board, options.neutrals);
        }
        let rules = Rules(options);
        let setup = options.setup.setup(options.board, options.neutrals);
        if setup.board != options.board {
            return Err(RulesError::Setup {
                problem: format!(
                    "the setup is on a {} board but the rules are for {}",
                    setup.board, options.board
                ),
            });
        }
        let position = Position::from_setup(setup, &rules).map_err(|e| RulesError::Setup {
            problem: e.to_string(),
        })?;
        // rules.md: mirrored Ls cannot be a starting setup. (Other finished setups, such as
        // a full board, are allowed: the game is simply over at once.)
        if let Some(
            outcome @ Outcome {
                end: End::Symmetry, ..
            },
        ) = position.outcome()
        {
            return Err(RulesError::Setup {
                problem: format!("a finished position cannot be a starting setup ({outcome})"),
            });
        }
        Ok(rules)
    }

    /// The options these rules were built from.
    pub fn options(&self) -> RuleOptions {
        self.0
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.0.board
    }

    /// The number of neutral pieces.
    pub fn neutrals(&self) -> u8 {
        self.0.neutrals
    }

    /// Whether a trapped player wins.
    pub fn misere(&self) -> bool {
        self.0.misere
    }

    /// What may be done with the neutrals after the L move.
    pub fn neutral_moves(&self) -> NeutralMoves {
        self.0.neutral_moves
    }

    /// Whether mirroring the opponent's L wins.
    pub fn symmetry(&self) -> bool {
        self.0.symmetry
    }

    /// The scoring target, if the scoring variant is played.
    pub fn scoring_target(&self) -> Option<u8> {
        self.0.scoring_target
    }

    /// The starting setup's choice.
    pub fn start(&self) -> StartSetup {
        self.0.setup
    }

    /// The starting position.
    pub fn start_position(&self) -> Position {
        let setup = self.0.setup.setup(self.0.board, self.0.neutrals);
        Position::from_setup(setup, self).expect("checked when the rules were built")
    }

    /// These rules with another starting setup.
    ///
    /// # Errors
    /// As [`Rules::new`], when the setup does not fit the rules.
    pub fn with_setup(&self, setup: StartSetup) -> Result<Rules, RulesError> {
        Rules::new(RuleOptions { setup, ..self.0 })
    }

    /// These rules starting from a setup written as text: a setup's name (`standard`, `kit`,
    /// `corners`, kept as that setup) or a position of these rules in either notation form.
    /// The CLI's `--setup` and the server's `setup` read it so.
    ///
    /// ```
    /// use lgame::Rules;
    /// use lgame::rules::StartSetup;
    ///
    /// let kit = Rules::classic().with_setup_text("kit")?;
    /// assert_eq!(kit.start(), StartSetup::Kit);
    /// let custom = Rules::classic().with_setup_text("NRR./.RB./.RB./.BBN r")?;
    /// assert_eq!(custom.start_position().to_string(), "NRR./.RB./.RB./.BBN r");
    /// assert!(Rules::classic().with_setup_text("nowhere").is_err());
    /// # Ok::<(), lgame::rules::SetupTextError>(())
    /// ```
    ///
    /// # Errors
    /// [`SetupTextError::Position`] when the text is neither a name nor a legal position,
    /// [`SetupTextError::Rules`] when the setup does not fit the rules.
    pub fn with_setup_text(&self, text: &str) -> Result<Rules, SetupTextError> {
        let start = match StartSetup::from_name(text) {
            Some(named) => named,
            None => StartSetup::Custom(
                Position::from_text(text, self)
                    .map_err(SetupTextError::Position)?
                    .to_setup(),
            ),
        };
        self.with_setup(start).map_err(SetupTextError::Rules)
    }

    /// The rules a solved table of these rules is solved and kept under: every value of
    /// [`Rules`] whose games have the same positions and moves gives the same one.
    ///
    /// Without scoring the starting setup changes no position's value: it becomes the
    /// standard one. Under scoring a trap puts the pieces back on the setup, so its pieces
    /// matter, but only as the trap reset uses them (the first mover's L, the other L, the
    /// neutrals; see [`Position::trap_reset`]): not which colour moves first, nor the starting
    /// scores.
    ///
    /// ```
    /// use lgame::Rules;
    ///
    /// let kit: Rules = "setup=kit".parse()?;
    /// assert_eq!(kit.table_rules(), Rules::classic());
    /// // The standard pieces with scores, or with colours swapped and Blue to move.
    /// let scored: Rules = "scoring,setup=NRR./.RB./.RB./.BBN:r:3-2".parse()?;
    /// assert_eq!(scored.table_rules(), "scoring".parse()?);
    /// let swapped: Rules = "scoring,setup=NBB./.BR./.BR./.RRN:b".parse()?;
    /// assert_eq!(swapped.table_rules(), "scoring".parse()?);
    /// let kit_scoring: Rules = "scoring,setup=kit".parse()?;
    /// assert_eq!(kit_scoring.table_rules(), kit_scoring);
    /// # Ok::<(), lgame::rules::RulesError>(())
    /// ```
    pub fn table_rules(&self) -> Rules {
        let setup = if self.0.scoring_target.is_none() {
            StartSetup::Standard
        } else {
            let start = self.0.setup.setup(self.0.board, self.0.neutrals);
            let first = start.turn;
            StartSetup::Custom(Setup {
                ls: ByColor {
                    red: start.ls[first],
                    blue: start.ls[!first],
                },
                turn: Color::Red,
                scores: None,
                ..start
            })
        };
        // The same pieces as a setup these rules accept, colours swapped at most: accepted.
        self.with_setup(setup).unwrap_or(*self)
    }

    /// The most neutral moves one turn may make.
    pub fn max_neutral_moves(&self) -> u8 {
        match self.0.neutral_moves {
            NeutralMoves::Optional | NeutralMoves::Required => 1,
            NeutralMoves::SuddenDeath => self.0.neutrals,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::classic()
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.0;
        let mut parts: Vec<String> = Vec::new();
        if o.board != Board::CLASSIC {
            parts.push(format!("board={}", o.board));
        }
        if o.misere {
            parts.push("misere".into());
        }
        if o.neutrals != 2 {
            parts.push(format!("neutrals={}", o.neutrals));
        }
        match o.neutral_moves {
            NeutralMoves::Optional => {}
            NeutralMoves::SuddenDeath => parts.push("sudden-death".into()),
            NeutralMoves::Required => parts.push("neutral-required".into()),
        }
        if o.symmetry {
            parts.push("symmetry".into());
        }
        if let Some(target) = o.scoring_target {
            parts.push("scoring".into());
            if target != DEFAULT_TARGET {
                parts.push(format!("target={target}"));
            }
        }
        if o.setup != StartSetup::Standard {
            parts.push(format!("setup={}", o.setup));
        }
        if parts.is_empty() {
            f.write_str("classic")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Rules {
    /// Its canonical text, `classic` or `misere,neutrals=1`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A custom setup that equals a named one is that named one; 0-0 scores are no scores.
fn canonical_start(setup: Setup, board: Board, neutrals: u8) -> StartSetup {
    let setup = Setup {
        scores: setup.scores.filter(|s| *s != ByColor::default()),
        ..setup
    };
    [StartSetup::Standard, StartSetup::Kit, StartSetup::Corners]
        .into_iter()
        .find(|named| named.setup(board, neutrals) == setup)
        .unwrap_or(StartSetup::Custom(setup))
}

fn parse_number(option: &str, value: &str, max: u8) -> Result<u8, RulesError> {
    value
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| RulesError::Value {
            option: option.into(),
            problem: format!("'{value}' is not a number from 0 to {max}"),
        })
}

impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(text: &str) -> Result<Rules, RulesError> {
        if text.trim().is_empty() {
            return Err(RulesError::Empty);
        }
        let mut o = RuleOptions::default();
        let mut seen: Vec<String> = Vec::new();
        let mut target: Option<u8> = None;
        let mut scoring = false;
        let mut neutral_moves: Option<&str> = None;
        let mut board_given = false;
        for raw in text.split(',') {
            let raw = raw.trim();
            let (key, value) = match raw.split_once('=') {
                Some((k, v)) => (k.trim().to_lowercase(), Some(v.trim())),
                None => (raw.to_lowercase(), None),
            };
            let key = key.replace('è', "e");
            if key.is_empty() {
                return Err(RulesError::UnknownOption { option: raw.into() });
            }
            if seen.contains(&key) {
                return Err(RulesError::Repeated { option: key });
            }
            if (key == "classic" || seen.iter().any(|k| k == "classic")) && !seen.is_empty() {
                {
                    let other = if key == "classic" { &seen[0] } else { &key };
                    return Err(contradiction(
                        "classic",
                        other,
                        "classic means no other option",
                    ));
                }
            }
            seen.push(key.clone());
            let needs_value = |v: Option<&str>, example: &str| {
                v.filter(|v| !v.is_empty())
                    .map(str::to_string)
                    .ok_or_else(|| RulesError::Value {
                        option: key.clone(),
                        problem: format!("needs a value, like {example}"),
                    })
            };
            let flag = |v: Option<&str>| match v {
                None => Ok(()),
                Some(_) => Err(RulesError::Value {
                    option: key.clone(),
                    problem: "takes no value".into(),
                }),
            };
            match key.as_str() {
                "classic" => flag(value)?,
                "misere" => {
                    flag(value)?;
                    o.misere = true;
                }
                "symmetry" => {
                    flag(value)?;
                    o.symmetry = true;
                }
                "scoring" => {
                    flag(value)?;
                    scoring = true;
                }
                "sudden-death" | "neutral-required" => {
                    flag(value)?;
                    if let Some(first) = neutral_moves {
                        return Err(contradiction(
                            first,
                            &key,
                            "one allows moving both neutrals, the other exactly one",
                        ));
                    }
                    neutral_moves = Some(if key == "sudden-death" {
                        "sudden-death"
                    } else {
                        "neutral-required"
                    });
                    o.neutral_moves = if key == "sudden-death" {
                        NeutralMoves::SuddenDeath
                    } else {
                        NeutralMoves::Required
                    };
                }
                "target" => {
                    let v = needs_value(value, "target=12")?;
                    let n = parse_number("target", &v, MAX_TARGET)?;
                    if n == 0 {
                        return Err(RulesError::Value {
                            option: "target".into(),
                            problem: "the target must be at least 1".into(),
                        });
                    }
                    target = Some(n);
                }
                "neutrals" => {
                    let v = needs_value(value, "neutrals=1")?;
                    o.neutrals = parse_number("neutrals", &v, MAX_NEUTRALS)?;
                }
                "board" => {
                    let v = needs_value(value, "board=5x5")?;
                    o.board = v.parse::<Board>().map_err(|e| RulesError::Value {
                        option: "board".into(),
                        problem: e.to_string(),
                    })?;
                    board_given = true;
                }
                "setup" => {
                    let v = needs_value(value, "setup=kit")?;
                    o.setup = match StartSetup::from_name(&v) {
                        Some(named) => named,
                        None => StartSetup::Custom(parse_custom_setup(&v)?),
                    };
                }
                _ => return Err(RulesError::UnknownOption { option: raw.into() }),
            }
        }
        match (scoring, target) {
            (true, t) => o.scoring_target = Some(t.unwrap_or(DEFAULT_TARGET)),
            (false, Some(_)) => {
                return Err(contradiction(
                    "target",
                    "no scoring",
                    "a target only makes sense with scoring (add 'scoring')",
                ))
            }
            (false, None) => {}
        }
        if let StartSetup::Custom(setup) = o.setup {
            if !board_given {
                o.board = setup.board;
            }
        }
        Rules::new(o)
    }
}

fn parse_custom_setup(value: &str) -> Result<Setup, RulesError> {
    if !value.contains(':') {
        return Err(RulesError::Value {
            option: "setup".into(),
            problem: format!(
                "'{value}' is neither a setup name ({}) nor a position written rows:side, \
             like NRR./.RB./.RB./.BBN:r",
                StartSetup::NAMES.join(", ")
            ),
        });
    }
    value
        .replace(':', " ")
        .parse::<Setup>()
        .map_err(|e| RulesError::Setup {
            problem: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        text.parse::<Rules>().unwrap_err().to_string()
    }

    #[test]
    fn canonical_texts_of_the_documented_variants() {
        for text in [
            "classic",
            "misere",
            "misere,neutrals=1",
            "board=5x5,neutrals=3",
            "scoring,target=12",
            "scoring",
            "sudden-death",
            "neutral-required",
            "symmetry",
            "setup=kit",
            "setup=corners",
            "board=6x4",
        ] {
            assert_eq!(text.parse::<Rules>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn options_are_read_in_any_order_and_case() {
        let rules: Rules = " Neutrals=1 , MISÈRE".parse().unwrap();
        assert_eq!(rules.to_string(), "misere,neutrals=1");
        assert_eq!(
            "target=10,scoring".parse::<Rules>().unwrap().to_string(),
            "scoring"
        );
    }

    #[test]
    fn unknown_and_malformed_options_are_refused_by_name() {
        assert_eq!(
            err(""),
            "no rules given (write classic for the classic game)"
        );
        assert!(err("misery").starts_with("unknown rule option 'misery'"));
        assert_eq!(err("misere,misere"), "option 'misere' is given twice");
        assert_eq!(
            err("neutrals=9"),
            "neutrals: '9' is not a number from 0 to 8"
        );
        assert_eq!(err("neutrals"), "neutrals: needs a value, like neutrals=1");
        assert_eq!(err("misere=yes"), "misere: takes no value");
        assert_eq!(
            err("board=3x3"),
            "board: a 3x3 board is not supported: width and height must each be 4 to 8"
        );
        assert_eq!(
            err("scoring,target=0"),
            "target: the target must be at least 1"
        );
        assert!(err("setup=nowhere").starts_with("setup: 'nowhere' is neither a setup name"));
        assert!(err(",").starts_with("unknown rule option ''"));
    }

    #[test]
    fn contradictory_options_are_refused_with_the_reason() {
        assert_eq!(
            err("sudden-death,neutral-required"),
            "'sudden-death' and 'neutral-required' cannot be combined: one allows moving both \
             neutrals, the other exactly one"
        );
        assert_eq!(
            err("classic,misere"),
            "'classic' and 'misere' cannot be combined: classic means no other option"
        );
        assert_eq!(
            err("misere,classic"),
            "'classic' and 'misere' cannot be combined: classic means no other option"
        );
        assert_eq!(
            err("neutral-required,neutrals=0"),
            "'neutral-required' and 'neutrals=0' cannot be combined: a neutral move is \
             impossible without neutrals"
        );
        assert!(err("sudden-death,neutrals=0").starts_with("'sudden-death' and 'neutrals=0'"));
        assert!(err("target=12").contains("add 'scoring'"));
        assert!(err("misere,scoring").starts_with("'misere' and 'scoring' cannot be combined"));
    }

    #[test]
    fn custom_setups_are_written_rows_colon_side_and_fix_the_board() {
        let rules: Rules = "setup=..BB/R.NB/RN.B/RR..:b".parse().unwrap();
        assert_eq!(rules.to_string(), "setup=..BB/R.NB/RN.B/RR..:b");
        assert_eq!(rules.start_position().to_string(), "..BB/R.NB/RN.B/RR.. b");
        let big: Rules = "setup=.BB../..B../..B../R.N../R..../RR.N.:r"
            .parse()
            .unwrap();
        assert_eq!(big.board().to_string(), "5x6");
        assert!(big.to_string().starts_with("board=5x6,setup="));
        assert!(err("board=5x5,setup=..BB/R.NB/RN.B/RR..:r").contains("4x4 board"));
    }

    #[test]
    fn named_setups_follow_rules_md() {
        let kit: Rules = "setup=kit".parse().unwrap();
        assert_eq!(kit.start_position().to_string(), "..BB/R.NB/RN.B/RR.. r");
        let corners: Rules = "setup=corners".parse().unwrap();
        assert_eq!(
            corners.start_position().to_string(),
            "RRRN/R.../...B/NBBB r"
        );
        assert_eq!(
            Rules::classic().start_position().to_string(),
            "NRR./.RB./.RB./.BBN r"
        );
    }

    #[test]
    fn with_one_neutral_the_standard_setup_keeps_the_neutral_on_a4() {
        let rules: Rules = "neutrals=1".parse().unwrap();
        assert_eq!(rules.start_position().to_string(), "NRR./.RB./.RB./.BB. r");
    }

    #[test]
    fn extra_neutrals_go_on_empty_corners_first() {
        let rules: Rules = "neutrals=4".parse().unwrap();
        assert_eq!(rules.start_position().to_string(), "NRRN/.RB./.RB./NBBN r");
    }

    #[test]
    fn named_setups_on_larger_boards_keep_each_piece_by_its_corner() {
        let rules: Rules = "board=5x5".parse().unwrap();
        assert_eq!(
            rules.start_position().to_string(),
            "NRR../.R.../.R.B./...B./..BBN r"
        );
        let kit: Rules = "board=6x4,setup=kit".parse().unwrap();
        assert_eq!(
            kit.start_position().to_string(),
            "....BB/R...NB/RN...B/RR.... r"
        );
    }
}
