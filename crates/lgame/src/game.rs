//! A game in progress: rules, start, moves played, the draw rules chosen for it, undo and
//! redo, and how it ended.
//!
//! ```
//! use lgame::{Game, Rules};
//! use lgame::game::GameResult;
//!
//! let rules: Rules = "setup=kit".parse()?;
//! let mut game = Game::new(rules);
//! game.play(&"A2,A3,A4,B4 B2-A1".parse()?)?;
//! game.play(&"B2,B3,C2,D2 C3-C4".parse()?)?;
//! let end = game.conclusion().expect("Red is trapped");
//! assert_eq!(end.result, Some(GameResult::BlueWins));
//! assert_eq!(end.to_string(), "Blue wins: Red cannot move their L");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::moves::{IllegalMove, Move};
use crate::notation::ParseResultError;
use crate::position::{End, Position};
use crate::rules::{Rules, RulesError, StartSetup};

/// The result of a game, as in the result token of a record.
///
/// ```
/// use lgame::Color;
/// use lgame::game::GameResult;
///
/// let result = GameResult::win_for(Color::Blue);
/// assert_eq!(result, GameResult::BlueWins);
/// assert_eq!(result.winner(), Some(Color::Blue));
/// assert_eq!(result.token(), "0-1");
/// assert_eq!(GameResult::Draw.winner(), None);
/// assert_eq!(GameResult::Draw.token(), "1/2-1/2");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlueWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The result in which `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Blue => GameResult::BlueWins,
        }
    }

    /// The winner, if not a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlueWins => Some(Color::Blue),
            GameResult::Draw => None,
        }
    }

    /// The record token: `1-0`, `0-1` or `1/2-1/2`.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlueWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// A record's result token: a result, or `*` for an unfinished game.
///
/// ```
/// use lgame::game::{GameResult, ResultToken};
///
/// assert_eq!("1-0".parse(), Ok(ResultToken::Finished(GameResult::RedWins)));
/// assert_eq!("*".parse(), Ok(ResultToken::Unfinished));
/// let err = "2-0".parse::<ResultToken>().unwrap_err();
/// assert_eq!(err.to_string(), "'2-0' is not a result (write 1-0, 0-1, 1/2-1/2 or *)");
/// assert_eq!(ResultToken::Finished(GameResult::Draw).to_string(), "1/2-1/2");
/// assert_eq!(ResultToken::Unfinished.to_string(), "*");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultToken {
    /// The game ended with this result.
    Finished(GameResult),
    /// `*`: not finished.
    Unfinished,
}

impl fmt::Display for ResultToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultToken::Finished(result) => f.write_str(result.token()),
            ResultToken::Unfinished => f.write_str("*"),
        }
    }
}

impl FromStr for ResultToken {
    type Err = ParseResultError;

    /// Reads `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn from_str(text: &str) -> Result<ResultToken, ParseResultError> {
        match text {
            "1-0" => Ok(ResultToken::Finished(GameResult::RedWins)),
            "0-1" => Ok(ResultToken::Finished(GameResult::BlueWins)),
            "1/2-1/2" => Ok(ResultToken::Finished(GameResult::Draw)),
            "*" => Ok(ResultToken::Unfinished),
            _ => Err(ParseResultError {
                text: text.to_string(),
            }),
        }
    }
}

/// An end declared off the board (the record's `Termination` tag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A player resigned.
    Resignation,
    /// A draw offered and accepted.
    Agreement,
    /// A program's illegal move, crash or timeout in a match.
    Forfeit,
    /// The game was left unfinished.
    Abandoned,
    /// A player's clock ran out (a server's timed game).
    Time,
    /// The game was called off before it began (a first move not made in time): no result.
    Aborted,
}

impl Termination {
    /// All six, in the order of notation.md.
    pub const ALL: [Termination; 6] = [
        Termination::Resignation,
        Termination::Agreement,
        Termination::Forfeit,
        Termination::Abandoned,
        Termination::Time,
        Termination::Aborted,
    ];

    /// The tag value: `resignation`, `agreement`, `forfeit`, `abandoned`, `time`, `aborted`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::Forfeit => "forfeit",
            Termination::Abandoned => "abandoned",
            Termination::Time => "time",
            Termination::Aborted => "aborted",
        }
    }

    /// Reads a tag value.
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// On the board: trapped, symmetry or score target.
    Board(End),
    /// The turn limit was reached.
    TurnLimit,
    /// A position occurred for the repetition count's time ([`Conclusion::repetitions`] says
    /// how often).
    Repetition,
    /// Declared off the board.
    Declared(Termination),
}

impl Ending {
    /// A lower-case name: `trapped`, `symmetry`, `score target`, `turn limit`,
    /// `repetition`, `resignation`, `agreement`, `forfeit`, `abandoned`, `time`, `aborted`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Board(end) => end.name(),
            Ending::TurnLimit => "turn limit",
            Ending::Repetition => "repetition",
            Ending::Declared(t) => t.name(),
        }
    }
}

/// The end of a game: its result, how it came about, and the player to move at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Conclusion {
    /// Who won, or a draw. [`Termination::Abandoned`] may leave it `None`.
    pub result: Option<GameResult>,
    /// How the game ended.
    pub ending: Ending,
    /// The player to move when it ended.
    pub to_move: Color,
    /// How often the final position (with the player to move) has occurred, the start
    /// counting as the first: the count a repetition draw names.
    pub repetitions: u32,
}

/// `n` times in words: `once`, `twice`, `three times`, … `ten times`, then `11 times`.
fn times(n: u32) -> String {
    const WORDS: [&str; 8] = [
        "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        3..=10 => format!("{} times", WORDS[n as usize - 3]),
        _ => format!("{n} times"),
    }
}

impl Conclusion {
    /// The result token for a record.
    pub fn token(&self) -> ResultToken {
        self.result
            .map_or(ResultToken::Unfinished, ResultToken::Finished)
    }
}

impl fmt::Display for Conclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headline = match self.result {
            Some(GameResult::Draw) => "Drawn".to_string(),
            Some(result) => format!("{} wins", result.winner().expect("decisive")),
            None => "Unfinished".to_string(),
        };
        let loser = self.result.and_then(|r| r.winner()).map(|w| !w);
        let how = match self.ending {
            Ending::Board(End::Trapped) => format!("{} cannot move their L", self.to_move),
            Ending::Board(End::Symmetry) => "the Ls mirror each other".to_string(),
            Ending::Board(End::ScoreTarget) => "reached the score target".to_string(),
            Ending::TurnLimit => "the turn limit was reached".to_string(),
            Ending::Repetition => {
                format!("the same position occurred {}", times(self.repetitions))
            }
            Ending::Declared(Termination::Resignation) => {
                format!("{} resigned", loser.unwrap_or(self.to_move))
            }
            Ending::Declared(Termination::Agreement) => "by agreement".to_string(),
            Ending::Declared(Termination::Forfeit) => {
                format!("{} forfeited", loser.unwrap_or(self.to_move))
            }
            Ending::Declared(Termination::Abandoned) => "abandoned".to_string(),
            Ending::Declared(Termination::Time) => {
                format!("{} ran out of time", loser.unwrap_or(self.to_move))
            }
            Ending::Declared(Termination::Aborted) => {
                "aborted before the first moves were made".to_string()
            }
        };
        write!(f, "{headline}: {how}")
    }
}

/// The optional draw rules of rules.md, chosen per game.
///
/// A count that could only draw the game before its first move means no such rule: a turn
/// limit of `0` and a repetition count of `0`, as on the command line, on the server and in
/// records, and a repetition count of `1` (every position occurs once; a record refuses
/// `[Repetition "1"]`). [`Game::with_draw_rules`] drops them ([`DrawRules::normalized`]), so
/// a game is never drawn before a move is played.
///
/// ```
/// use lgame::{Game, Rules};
/// use lgame::game::DrawRules;
///
/// let off = DrawRules { turn_limit: Some(0), repetition: Some(0) };
/// let game = Game::new(Rules::classic()).with_draw_rules(off);
/// assert_eq!(game.draw_rules(), DrawRules::NONE);
/// assert!(!game.is_over());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DrawRules {
    /// Drawn once this many plies are played and the player to move is not trapped
    /// (`Some(0)`: no turn limit).
    pub turn_limit: Option<u32>,
    /// Drawn when a position (with the player to move) occurs for this many times, the start
    /// counting as the first (`Some(0)` or `Some(1)`: no repetition draw).
    pub repetition: Option<u32>,
}

impl DrawRules {
    /// No automatic draw: the pure rules.
    pub const NONE: DrawRules = DrawRules {
        turn_limit: None,
        repetition: None,
    };

    /// Threefold repetition, the default for casual play.
    pub const CASUAL: DrawRules = DrawRules {
        turn_limit: None,
        repetition: Some(3),
    };

    /// The same rules with the counts that mean no rule written as `None`: a turn limit of
    /// `0`, a repetition count of `0` or `1`.
    pub const fn normalized(self) -> DrawRules {
        DrawRules {
            turn_limit: match self.turn_limit {
                Some(0) => None,
                other => other,
            },
            repetition: match self.repetition {
                Some(0 | 1) => None,
                other => other,
            },
        }
    }
}

/// One ply of a game: the move and the position it led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// Whether the scoring variant's trap reset put the pieces back on the setup.
    pub reset: bool,
}

/// Why a move could not be played in a game, or a game could not be started.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameError {
    /// The game has ended.
    Over(Conclusion),
    /// The move is illegal in the current position.
    Illegal(IllegalMove),
    /// The starting position is finished already or not a setup of the rules.
    BadStart(RulesError),
    /// A declared end whose result does not fit it (a draw by resignation, say).
    BadDeclaration {
        /// The declared end.
        termination: Termination,
        /// The result given.
        result: ResultToken,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(c) => write!(f, "the game is over ({c})"),
            GameError::Illegal(e) => e.fmt(f),
            GameError::BadStart(e) => e.fmt(f),
            GameError::BadDeclaration {
                termination,
                result,
            } => write!(
                f,
                "a game ended by {} cannot have the result {result}",
                termination.name()
            ),
        }
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameError::Illegal(e) => Some(e),
            GameError::BadStart(e) => Some(e),
            _ => None,
        }
    }
}

impl From<IllegalMove> for GameError {
    fn from(e: IllegalMove) -> GameError {
        GameError::Illegal(e)
    }
}

/// A game: the rules, the starting position, the moves played, the draw rules, and any end
/// declared off the board. Every interface plays through this type.
///
/// ```
/// use lgame::{Color, Game, Rules};
/// use lgame::game::{GameError, GameResult, ResultToken};
///
/// let mut game = Game::new(Rules::classic());
/// game.play(&"A1,A2,A3,B3 D1-D2".parse()?)?;
/// game.play(&"C2,C3,C4,D4".parse()?)?;
/// assert_eq!(game.plies().len(), 2);
/// assert_eq!(game.moves()[1].to_string(), "C2,C3,C4,D4");
/// assert_eq!(game.position().to_string(), "N.BB/RRB./R.BN/R... r");
/// assert_eq!(game.result_token(), ResultToken::Unfinished);
///
/// // An illegal move is refused with the rules' reason, and the game is unchanged.
/// let err = game.play(&"A2,A3,A4,B4".parse()?).unwrap_err();
/// assert!(matches!(err, GameError::Illegal(_)));
/// assert_eq!(err.to_string(), "the L cannot go on A4: it is occupied by a neutral");
///
/// // Take back Blue's move, and play it again.
/// let taken = game.undo().expect("a move to take back");
/// assert_eq!(game.position().turn(), Color::Blue);
/// assert_eq!(game.redo(), Some(taken));
/// assert_eq!(game.plies().len(), 2);
///
/// game.resign(Color::Red)?;
/// let end = game.conclusion().expect("Red resigned");
/// assert_eq!(end.result, Some(GameResult::BlueWins));
/// assert_eq!(end.to_string(), "Blue wins: Red resigned");
/// assert_eq!(game.result_token().to_string(), "0-1");
/// assert!(matches!(game.play(&"A2,B2,B3,B4".parse()?), Err(GameError::Over(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    draw_rules: DrawRules,
    start: Position,
    plies: Vec<Ply>,
    /// The [`pieces_key`] of each ply's position, beside `plies`: counting repetitions
    /// compares these, eight to a cache line, before whole positions.
    keys: Vec<u64>,
    /// How often each ply's position had occurred then (itself included), beside `plies`:
    /// counted once, when the ply is played, so that [`Game::repetitions`] (asked before and
    /// after every move) reads it.
    repeats: Vec<u32>,
    redo: Vec<Move>,
    declared: Option<Conclusion>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            rules: self.rules,
            draw_rules: self.draw_rules,
            start: self.start,
            plies: self.plies.clone(),
            keys: self.keys.clone(),
            repeats: self.repeats.clone(),
            redo: self.redo.clone(),
            declared: self.declared,
        }
    }

    /// Keeps this game's lists and their room: a learning environment starts its games
    /// again thousands of times a second by cloning a new one over them, and allocating
    /// the history anew each time (from whichever thread) costs more than the game.
    fn clone_from(&mut self, source: &Game) {
        // Every field named: a field added to the game and forgotten here does not compile.
        let Game {
            rules,
            draw_rules,
            start,
            plies,
            keys,
            repeats,
            redo,
            declared,
        } = source;
        self.rules = *rules;
        self.draw_rules = *draw_rules;
        self.start = *start;
        self.plies.clone_from(plies);
        self.keys.clone_from(keys);
        self.repeats.clone_from(repeats);
        self.redo.clone_from(redo);
        self.declared = *declared;
    }
}

/// The pieces and the player to move of a position in one number: positions that differ
/// there differ; equal keys are checked in full.
fn pieces_key(position: &Position) -> u64 {
    let (red, blue) = (position.l(Color::Red).0, position.l(Color::Blue).0);
    red ^ blue.rotate_left(21)
        ^ position.neutrals().0.rotate_left(42)
        ^ u64::from(position.turn() == Color::Blue)
}

impl Game {
    /// A new game from the rules' starting setup, with no draw rule.
    pub fn new(rules: Rules) -> Game {
        Game {
            rules,
            draw_rules: DrawRules::NONE,
            start: rules.start_position(),
            plies: Vec::new(),
            keys: Vec::new(),
            repeats: Vec::new(),
            redo: Vec::new(),
            declared: None,
        }
    }

    /// A new game from any position, which becomes the rules' starting setup (where the
    /// scoring variant's resets return).
    ///
    /// # Errors
    /// [`GameError::BadStart`] when the position cannot start a game (mirrored Ls under the
    /// symmetry rule).
    pub fn from_position(start: Position) -> Result<Game, GameError> {
        let setup = StartSetup::Custom(start.to_setup());
        let rules = start
            .rules()
            .with_setup(setup)
            .map_err(GameError::BadStart)?;
        Ok(Game::new(rules))
    }

    /// The same game with these draw rules; a count that means no rule (a turn limit of `0`,
    /// a repetition count of `0` or `1`) is dropped, see [`DrawRules::normalized`].
    ///
    /// ```
    /// use lgame::{Game, Rules};
    /// use lgame::game::{DrawRules, Ending, GameResult};
    ///
    /// let mut game = Game::new(Rules::classic()).with_draw_rules(DrawRules::CASUAL);
    /// // Both players step aside and back: the start comes again after every 4 plies.
    /// let there_and_back = ["A1,A2,A3,B3", "C1,C2,C3,D3", "B2,B3,B4,C4", "B1,C1,C2,C3"];
    /// for text in there_and_back {
    ///     game.play(&text.parse()?)?;
    /// }
    /// assert_eq!(game.repetitions(), 2);
    /// assert!(!game.is_over());
    /// for text in there_and_back {
    ///     game.play(&text.parse()?)?;
    /// }
    /// let end = game.conclusion().expect("the third time draws");
    /// assert_eq!((end.result, end.ending), (Some(GameResult::Draw), Ending::Repetition));
    /// assert_eq!(end.to_string(), "Drawn: the same position occurred three times");
    ///
    /// // Without a draw rule the same moves go on for ever.
    /// let mut endless = Game::new(Rules::classic());
    /// for text in there_and_back.iter().cycle().take(12) {
    ///     endless.play(&text.parse()?)?;
    /// }
    /// assert_eq!((endless.repetitions(), endless.is_over()), (4, false));
    ///
    /// // A turn limit draws once that many plies are played.
    /// let mut short = Game::new(Rules::classic())
    ///     .with_draw_rules(DrawRules { turn_limit: Some(2), repetition: None });
    /// short.play(&"A1,A2,A3,B3".parse()?)?;
    /// short.play(&"C1,C2,C3,D3".parse()?)?;
    /// assert_eq!(short.conclusion().map(|c| c.ending), Some(Ending::TurnLimit));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_draw_rules(mut self, draw_rules: DrawRules) -> Game {
        self.draw_rules = draw_rules.normalized();
        self
    }

    /// A new game with the same rules, start and draw rules, and no moves: what a record's
    /// tags say of this game, and where a rematch starts.
    ///
    /// ```
    /// use lgame::{Game, Rules};
    /// use lgame::game::DrawRules;
    ///
    /// let mut game = Game::new(Rules::classic()).with_draw_rules(DrawRules::CASUAL);
    /// game.play(&"A1,A2,A3,B3".parse()?)?;
    /// let fresh = game.rules_only();
    /// assert_eq!((fresh.plies().len(), fresh.draw_rules()), (0, DrawRules::CASUAL));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rules_only(&self) -> Game {
        Game::new(self.rules).with_draw_rules(self.draw_rules)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The draw rules, normalized.
    pub fn draw_rules(&self) -> DrawRules {
        self.draw_rules
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.plies.last().map_or(&self.start, |p| &p.position)
    }

    /// The plies played so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The moves played so far.
    pub fn moves(&self) -> Vec<Move> {
        self.plies.iter().map(|p| p.mv).collect()
    }

    /// How often the current position has occurred (the start counts).
    pub fn repetitions(&self) -> u32 {
        self.repeats.last().copied().unwrap_or(1)
    }

    /// How often the current position has occurred, counted over the history.
    fn count_repetitions(&self) -> u32 {
        let current = self.position();
        let key = pieces_key(current);
        // Position number i is the start (0) or the one after ply i. The turn passes at every
        // ply (a scoring reset too hands the move to the trapped player, the one whose turn
        // it is), so only every second position back has the same player to move; of those,
        // the keys are compared first. A learning environment plays games hundreds of plies
        // long.
        (0..=self.plies.len())
            .rev()
            .step_by(2)
            .filter(|&i| match i {
                0 => self.start == *current,
                _ => self.keys[i - 1] == key && self.plies[i - 1].position == *current,
            })
            .count() as u32
    }

    /// How the game has ended, if it has: a declared end first, then the position (trapped,
    /// symmetry, score target), then the turn limit, then repetition.
    pub fn conclusion(&self) -> Option<Conclusion> {
        if self.declared.is_some() {
            return self.declared;
        }
        let position = self.position();
        let to_move = position.turn();
        if let Some(outcome) = position.outcome() {
            return Some(Conclusion {
                result: Some(GameResult::win_for(outcome.winner)),
                ending: Ending::Board(outcome.end),
                to_move,
                repetitions: self.repetitions(),
            });
        }
        let draw = |ending| {
            Some(Conclusion {
                result: Some(GameResult::Draw),
                ending,
                to_move,
                repetitions: self.repetitions(),
            })
        };
        if let Some(limit) = self.draw_rules.turn_limit {
            if self.plies.len() as u64 >= limit as u64 {
                return draw(Ending::TurnLimit);
            }
        }
        if let Some(count) = self.draw_rules.repetition {
            if self.repetitions() >= count {
                return draw(Ending::Repetition);
            }
        }
        None
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.conclusion().is_some()
    }

    /// The record's result token for the game as it stands.
    pub fn result_token(&self) -> ResultToken {
        self.conclusion()
            .map_or(ResultToken::Unfinished, |c| c.token())
    }

    /// Plays a move, checked. The redo list is cleared unless the move is the next one on it.
    ///
    /// # Errors
    /// [`GameError::Over`] after the end, [`GameError::Illegal`] with the reason otherwise.
    pub fn play(&mut self, mv: &Move) -> Result<&Position, GameError> {
        if let Some(end) = self.conclusion() {
            return Err(GameError::Over(end));
        }
        self.position().check_move(mv)?;
        let (position, reset) = self.position().play_reporting_reset(mv);
        self.keys.push(pieces_key(&position));
        self.plies.push(Ply {
            mv: *mv,
            position,
            reset,
        });
        let repeats = self.count_repetitions();
        self.repeats.push(repeats);
        if self.redo.last() == Some(mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(self.position())
    }

    /// Takes back the last move (and any end declared after it); it can be replayed with
    /// [`Game::redo`]. Returns the move, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        self.declared = None;
        let ply = self.plies.pop()?;
        self.keys.pop();
        self.repeats.pop();
        self.redo.push(ply.mv);
        Some(ply.mv)
    }

    /// Replays the last move taken back. Returns the move, or `None` when there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = *self.redo.last()?;
        self.play(&mv).ok()?;
        Some(mv)
    }

    /// Ends the game off the board with a result: resignation, forfeit and time need a
    /// winner, agreement a draw, an aborted game none; an abandoned game may have any
    /// result, or none.
    ///
    /// # Errors
    /// [`GameError::Over`] if the game has already ended, [`GameError::BadDeclaration`] if
    /// the result does not fit the termination.
    pub fn declare(
        &mut self,
        termination: Termination,
        result: ResultToken,
    ) -> Result<(), GameError> {
        if let Some(end) = self.conclusion() {
            return Err(GameError::Over(end));
        }
        let result = match (termination, result) {
            (
                Termination::Resignation | Termination::Forfeit | Termination::Time,
                ResultToken::Finished(r),
            ) if r != GameResult::Draw => Some(r),
            (Termination::Agreement, ResultToken::Finished(GameResult::Draw)) => {
                Some(GameResult::Draw)
            }
            (Termination::Abandoned, ResultToken::Finished(r)) => Some(r),
            (Termination::Abandoned | Termination::Aborted, ResultToken::Unfinished) => None,
            _ => {
                return Err(GameError::BadDeclaration {
                    termination,
                    result,
                })
            }
        };
        self.declared = Some(Conclusion {
            result,
            ending: Ending::Declared(termination),
            to_move: self.position().turn(),
            repetitions: self.repetitions(),
        });
        Ok(())
    }

    /// Withdraws an end declared off the board (a resignation, an agreed draw...), keeping
    /// every move: for a declaration that could not be recorded where it had to be (a server
    /// whose database refused it). An end on the board stays; without a declaration nothing
    /// changes.
    ///
    /// ```
    /// use lgame::{Color, Game, Rules};
    ///
    /// let mut game = Game::new(Rules::classic());
    /// game.play(&"A1,A2,A3,B3".parse()?)?;
    /// game.resign(Color::Blue)?;
    /// assert!(game.is_over());
    /// game.withdraw_declaration();
    /// assert!(!game.is_over());
    /// assert_eq!(game.plies().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn withdraw_declaration(&mut self) {
        self.declared = None;
    }

    /// `color` resigns.
    ///
    /// # Errors
    /// [`GameError::Over`] if the game has already ended.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        let result = ResultToken::Finished(GameResult::win_for(!color));
        self.declare(Termination::Resignation, result)
    }

    /// The players agree to a draw.
    ///
    /// # Errors
    /// [`GameError::Over`] if the game has already ended.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        let result = ResultToken::Finished(GameResult::Draw);
        self.declare(Termination::Agreement, result)
    }
}

#[cfg(test)]
mod tests {
    use super::{times, Game};
    use crate::variants::VARIANTS;
    use crate::Rules;

    #[test]
    fn a_game_cloned_over_another_is_equal_to_it() {
        let rules = Rules::default();
        let mut played = Game::new(rules);
        for _ in 0..6 {
            let mv = played.position().legal_moves()[0];
            played.play(&mv).unwrap();
        }
        played.undo();
        let fresh = Game::new(rules);
        let mut game = played.clone();
        assert_eq!(game, played);
        game.clone_from(&fresh);
        assert_eq!(game, fresh);
        assert_eq!(game.repetitions(), 1);
        game.clone_from(&played);
        assert_eq!(game, played);
    }

    #[test]
    fn repetition_counts_equal_a_count_over_the_whole_history_through_moves_and_undos() {
        // The count compares keys, and only every second position back; here every earlier
        // position is compared in full, along random games with take-backs.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut repeated = 0;
        for variant in VARIANTS {
            let rules: Rules = variant.rules.parse().unwrap();
            let mut game = Game::new(rules);
            for _ in 0..600 {
                let moves = game.position().legal_moves();
                if moves.is_empty() || next(10) == 0 {
                    game.undo();
                } else {
                    // Few moves near the start: positions come back often.
                    let mv = moves[next(moves.len().min(3))];
                    game.play(&mv).unwrap();
                }
                let current = *game.position();
                let naive = std::iter::once(game.start())
                    .chain(game.plies().iter().map(|p| &p.position))
                    .filter(|p| **p == current)
                    .count() as u32;
                assert_eq!(game.repetitions(), naive, "{variant:?}");
                repeated += u32::from(naive > 1);
            }
        }
        assert!(
            repeated > 100,
            "the games repeated positions ({repeated} times)"
        );
    }

    #[test]
    fn repetition_counts_are_said_in_words_up_to_ten() {
        let said: Vec<String> = [1, 2, 3, 4, 9, 10, 11, 40].map(times).into();
        assert_eq!(
            said,
            [
                "once",
                "twice",
                "three times",
                "four times",
                "nine times",
                "ten times",
                "11 times",
                "40 times"
            ]
        );
    }
}
