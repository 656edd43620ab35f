//! Every JSON answer of the API and every WebSocket message, as types: what `docs/api.md`
//! documents, field by field (a test reads the document's examples against them). Plain
//! data, no logic: the handlers fill them in, serde writes them.
//!
//! Values of the rules library go out as the library serializes them (its `serde`
//! feature): positions, moves, cells and rules in their notation, sides as `red` and
//! `blue`, and the rules' reasons as data with a `kind`.

use std::collections::BTreeMap;

use lgame::game::DrawRules;
use lgame::moves::IllegalMove;
use lgame::position::PartialLError;
use lgame::{ByColor, Color, Move, Position, Rules, Square};
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::{ClockView, TimeControl};
use crate::openapi as schema;

/// The answer to `GET /api/analysis`: the solver's analysis, the JSON of
/// `lgame analyze --json`.
pub use lgame_solver::Analysis;

/// A refusal: `{"error": "...", "kind": "..."}`, with the client's text that was refused,
/// the game's state for a conflict and the rules' reason for an illegal move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What is wrong, in (English) words.
    pub error: String,
    /// What is wrong, as data: a page words the refusal in its own language by it
    /// (`docs/api.md`, "Refusals").
    pub kind: &'static str,
    /// The client's text that was refused (a variant, a position, a move…), when the
    /// refusal names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub input: Option<String>,
    /// The game's current state (a 409).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = GameState, required = false)]
    pub state: Option<Box<GameState>>,
    /// Why the rules refuse a move, as data (a 422 for an illegal move).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = schema::IllegalMove, required = false)]
    pub reason: Option<Box<IllegalMove>>,
}

/// A game as everyone may see it: what `GET /api/games/{id}` and a change answer, and what
/// the game's WebSockets send. Never a token.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameState {
    /// The game's id (16 hex digits).
    pub id: String,
    /// The rules text of the game's record (its `Variant` tag).
    #[schema(required)]
    pub variant: Option<String>,
    /// The starting position.
    #[schema(value_type = schema::Position)]
    pub start: Position,
    /// The position now.
    #[schema(value_type = schema::Position)]
    pub position: Position,
    /// The side to move.
    #[schema(value_type = schema::Color)]
    pub turn: Color,
    /// Plies played.
    pub plies: usize,
    /// The moves played, in order (`moves[i]` is ply `i + 1`).
    #[schema(value_type = Vec<schema::Move>)]
    pub moves: Vec<Move>,
    /// Whether the game has ended.
    pub over: bool,
    /// The record's result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// How the game ended (`trapped`, `resignation`, ...).
    #[schema(required)]
    pub ending: Option<&'static str>,
    /// The end in words.
    #[schema(required)]
    pub conclusion: Option<String>,
    /// The game's draw rules.
    #[schema(value_type = schema::DrawRules)]
    pub draw_rules: DrawRules,
    /// `human` or the computer player.
    #[schema(value_type = schema::Seats)]
    pub seats: ByColor<String>,
    /// The side with a standing draw offer.
    #[schema(value_type = Option<schema::Color>, required)]
    pub draw_offer: Option<Color>,
    /// The position after each ply.
    #[schema(value_type = Vec<schema::Position>)]
    pub positions: Vec<Position>,
    /// Whether each side has a page open now.
    #[schema(value_type = schema::Presence)]
    pub present: ByColor<bool>,
    /// The side asking the other's consent to take back its last move (two people only).
    #[schema(value_type = Option<schema::Color>, required)]
    pub undo_request: Option<Color>,
    /// The game's rematch, once one is asked for (its id).
    #[schema(required)]
    pub rematch: Option<String>,
    /// The game this one is the rematch of (its id).
    #[schema(required)]
    pub rematch_of: Option<String>,
    /// Who sits at each side: an account's name, a browser without one, a computer, or a
    /// seat nobody has taken yet.
    #[schema(value_type = schema::PlayersBySide)]
    pub players: ByColor<Player>,
    /// The side whose seat has an open invitation (a friend's game before they join).
    #[schema(value_type = Option<schema::Color>, required)]
    pub invitation: Option<Color>,
    /// The side a friend was invited to by link, before and after they took it (`null`:
    /// nobody was invited: the computer's game, a pairing's, a bot's).
    #[schema(value_type = Option<schema::Color>, required)]
    pub invited: Option<Color>,
    /// The arena that paired the game (its id: `GET /api/arenas/{id}`), if one did.
    #[schema(required)]
    pub arena: Option<String>,
    /// The asker's side: their token's, or the seat their session or browser holds (with
    /// both seats, the side to move). Absent for a spectator and in a WebSocket's messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = schema::Color, required = false)]
    pub you: Option<Color>,
    /// Every seat the asker plays (absent in a WebSocket's messages, which go to all).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<schema::Color>, required = false)]
    pub your_sides: Vec<Color>,
    /// The clocks as of this answer (`null`: the game has no time control).
    #[schema(value_type = Option<schema::Clock>, required)]
    pub clock: Option<ClockView>,
    /// Each side's moves scored against the solved game, once the game is over (`null`
    /// while it goes on, and for a variant the server does not solve).
    #[schema(required)]
    pub accuracy: Option<AccuracyAnswer>,
    /// Whether the game is rated (docs/ratings.md).
    pub rated: bool,
    /// A rated game's rating category; `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// A rated game's players' ratings: before it, and after it once it is over (`null`
    /// for a casual game).
    #[schema(required)]
    pub ratings: Option<RatingsAnswer>,
}

/// Both players' ratings in a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct RatingsAnswer {
    pub red: SeatRating,
    pub blue: SeatRating,
}

/// One player's rating before a rated game, and after it once it is over.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct SeatRating {
    pub before: RatingView,
    #[schema(required)]
    pub after: Option<RatingView>,
}

/// A Glicko-2 rating as shown: provisional while its deviation is 110 or more.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct RatingView {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub provisional: bool,
}

impl From<crate::ratings::Rating> for RatingView {
    fn from(r: crate::ratings::Rating) -> RatingView {
        RatingView {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            provisional: r.provisional(),
        }
    }
}

/// Both sides' accuracy in a finished game (`lgame_solver::accuracy`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct AccuracyAnswer {
    pub red: SideAccuracyAnswer,
    pub blue: SideAccuracyAnswer,
}

/// One side's moves against the solved game: a move keeps the value when a won position
/// stays won and a drawn one is not lost; moves in lost positions are counted, not scored.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct SideAccuracyAnswer {
    /// Every move the side made.
    pub moves: u32,
    /// The moves scored: those in won or drawn positions.
    pub scored: u32,
    /// The scored moves that kept the value.
    pub kept: u32,
    /// Moves in won positions, and how many of them kept the win.
    pub won_moves: u32,
    pub won_kept: u32,
    /// Moves in drawn positions, and how many of them kept the draw.
    pub drawn_moves: u32,
    pub drawn_kept: u32,
    /// Moves in lost positions (not scored).
    pub lost_moves: u32,
    /// Over the moves that kept a win: the plies they added to the fastest win.
    pub extra_plies: u32,
    /// `kept / scored`, from 0 to 1; `null` when no move was scored.
    #[schema(required)]
    pub accuracy: Option<f64>,
}

impl From<lgame_solver::SideAccuracy> for SideAccuracyAnswer {
    fn from(s: lgame_solver::SideAccuracy) -> SideAccuracyAnswer {
        SideAccuracyAnswer {
            moves: s.moves(),
            scored: s.scored(),
            kept: s.kept(),
            won_moves: s.won_moves,
            won_kept: s.won_kept,
            drawn_moves: s.drawn_moves,
            drawn_kept: s.drawn_kept,
            lost_moves: s.lost_moves,
            extra_plies: s.extra_plies,
            accuracy: s.accuracy(),
        }
    }
}

impl From<lgame_solver::Accuracy> for AccuracyAnswer {
    fn from(a: lgame_solver::Accuracy) -> AccuracyAnswer {
        AccuracyAnswer {
            red: a.red.into(),
            blue: a.blue.into(),
        }
    }
}

/// Who sits at a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Player {
    pub kind: PlayerKind,
    /// The account's username, or the computer's level (`null` otherwise).
    #[schema(required)]
    pub name: Option<String>,
}

/// What kind of player sits at a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// A person with an account.
    User,
    /// A person without one (a browser's anonymous identity, or a program's token).
    Anonymous,
    /// A person whose account was closed.
    Deleted,
    /// A computer player.
    Computer,
    /// A bot account: a program through the API, or one of the server's computer levels
    /// (`name` its username).
    Bot,
    /// A person's seat nobody has taken yet.
    Open,
}

/// A message of a game's WebSocket: the whole state first (and again after a watcher fell
/// behind), then each change.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
// Made once per change and serialized at once: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum GameMessage {
    /// The whole state, as `GET /api/games/{id}` answers it.
    State(GameState),
    /// What changed since the previous message.
    Change(GameChange),
}

/// A change to a game, as a WebSocket sends it after the first state: the plies kept, the
/// plies added, and every field of the state that may change (the others never do).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameChange {
    /// The plies of the previous state that stand: its `moves` and `positions` are cut to
    /// this many, then `moves` and `positions` below are appended.
    pub from: usize,
    /// The moves played after the first `from` plies.
    #[schema(value_type = Vec<schema::Move>)]
    pub moves: Vec<Move>,
    /// The position after each of them.
    #[schema(value_type = Vec<schema::Position>)]
    pub positions: Vec<Position>,
    /// Plies played.
    pub plies: usize,
    /// The position now.
    #[schema(value_type = schema::Position)]
    pub position: Position,
    /// The side to move.
    #[schema(value_type = schema::Color)]
    pub turn: Color,
    /// Whether the game has ended.
    pub over: bool,
    /// The record's result token.
    pub result: String,
    /// How the game ended.
    #[schema(required)]
    pub ending: Option<&'static str>,
    /// The end in words.
    #[schema(required)]
    pub conclusion: Option<String>,
    /// The side with a standing draw offer.
    #[schema(value_type = Option<schema::Color>, required)]
    pub draw_offer: Option<Color>,
    /// Whether each side has a page open now.
    #[schema(value_type = schema::Presence)]
    pub present: ByColor<bool>,
    /// The side asking to take back its last move.
    #[schema(value_type = Option<schema::Color>, required)]
    pub undo_request: Option<Color>,
    /// The game's rematch, once one is asked for (its id).
    #[schema(required)]
    pub rematch: Option<String>,
    /// Who sits at each side.
    #[schema(value_type = schema::PlayersBySide)]
    pub players: ByColor<Player>,
    /// The side whose seat has an open invitation.
    #[schema(value_type = Option<schema::Color>, required)]
    pub invitation: Option<Color>,
    /// The clocks as of this message.
    #[schema(value_type = Option<schema::Clock>, required)]
    pub clock: Option<ClockView>,
    /// Each side's accuracy once the game is over (`null` before).
    #[schema(required)]
    pub accuracy: Option<AccuracyAnswer>,
    /// A rated game's ratings, after it once it is over (`null`: casual).
    #[schema(required)]
    pub ratings: Option<RatingsAnswer>,
}

/// The answer to `POST /api/games` and `POST /api/games/import` (201).
#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    /// The new game's id.
    pub id: String,
    /// The game's public address (a path on this server).
    pub spectator_url: String,
    /// The web page watching the game (an address on this server).
    pub watch_page: String,
    /// The game's public WebSocket (a path).
    pub ws: String,
    /// The human sides the asker plays only: every human side of a game nobody holds, else
    /// the held ones; never an invited side (its seat is the guest's alone).
    pub players: Players,
    /// The new game's state.
    pub state: GameState,
    /// The one-time invitation to a seat (asked with `invite`): give its link to one
    /// person.
    #[schema(required)]
    pub invitation: Option<Invitation>,
}

/// A one-time invitation to take a game's seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct Invitation {
    /// The seat's side.
    #[schema(value_type = schema::Color)]
    pub side: Color,
    /// The page's address that offers the seat (a path on this server).
    pub url: String,
}

/// The links of each human side of a new game.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Players {
    /// Red's, if Red is a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = PlayerLinks, required = false)]
    pub red: Option<PlayerLinks>,
    /// Blue's, if Blue is a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = PlayerLinks, required = false)]
    pub blue: Option<PlayerLinks>,
}

/// A human side's secret and its private URLs.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerLinks {
    /// The side's secret: it alone acts for the side. Given once.
    pub token: String,
    /// The game's address with the token (private).
    pub url: String,
    /// The game's WebSocket with the token (private).
    pub ws: String,
}

/// The answer to `GET /healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// Games held in memory now.
    pub games_in_memory: usize,
    /// The solved tables in memory.
    pub tables: TablesHealth,
}

/// The solved tables in memory (`GET /healthz`).
#[derive(Debug, Serialize, ToSchema)]
pub struct TablesHealth {
    /// Tables held, ready.
    pub held: usize,
    /// Their bytes.
    pub bytes: u64,
    /// The memory budget (`--table-memory`); `None`: no bound.
    #[schema(required)]
    pub budget: Option<u64>,
    /// Tables being solved now.
    pub solving: usize,
    /// Tables solved since the server started.
    pub solves: u64,
}

/// The answer to `GET /api/position`: a position laid out for drawing, its legal moves,
/// and why each cell cannot join the cells selected so far.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionAnswer {
    /// The rules.
    #[schema(value_type = schema::Rules)]
    pub variant: Rules,
    /// The position (one-line form).
    #[schema(value_type = schema::Position)]
    pub position: Position,
    /// The board's columns.
    pub width: u8,
    /// The board's rows.
    pub height: u8,
    /// The side to move.
    #[schema(value_type = schema::Color)]
    pub turn: Color,
    /// The scores, under scoring rules.
    #[schema(value_type = Option<schema::Scores>, required)]
    pub scores: Option<ByColor<u8>>,
    /// Where the pieces stand.
    pub pieces: Pieces,
    /// How a finished position ended.
    #[schema(required)]
    pub outcome: Option<OutcomeAnswer>,
    /// How many legal moves there are.
    pub legal_moves: u64,
    /// The placements the mover's L may take.
    #[schema(value_type = Vec<Vec<schema::Square>>)]
    pub l_moves: Vec<Vec<Square>>,
    /// Every legal move; `None` above the listing limit.
    #[schema(required)]
    pub moves: Option<Vec<MoveAnswer>>,
    /// The cells selected so far.
    #[schema(value_type = Vec<schema::Square>)]
    pub selected: Vec<Square>,
    /// For each cell that cannot join the selected ones, why (in words), by cell name.
    pub refusals: BTreeMap<String, String>,
    /// The same reasons as data.
    #[schema(value_type = BTreeMap<String, schema::PartialLError>)]
    pub refusal_reasons: BTreeMap<String, PartialLError>,
}

/// Where the pieces stand.
#[derive(Debug, Serialize, ToSchema)]
pub struct Pieces {
    /// Red's L.
    #[schema(value_type = Vec<schema::Square>)]
    pub red: Vec<Square>,
    /// Blue's L.
    #[schema(value_type = Vec<schema::Square>)]
    pub blue: Vec<Square>,
    /// The neutral pieces.
    #[schema(value_type = Vec<schema::Square>)]
    pub neutrals: Vec<Square>,
}

/// The end of a finished position.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutcomeAnswer {
    /// The side that won.
    #[schema(value_type = schema::Color)]
    pub winner: Color,
    /// `trapped`, `symmetry` or `score target`.
    pub ending: &'static str,
    /// In words.
    pub conclusion: String,
}

/// A legal move as the board draws it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveAnswer {
    /// The move.
    #[serde(rename = "move")]
    #[schema(value_type = schema::Move)]
    pub mv: Move,
    /// The L's new cells.
    #[schema(value_type = Vec<schema::Square>)]
    pub l: Vec<Square>,
    /// Each neutral step, from and to.
    #[schema(value_type = Vec<Vec<schema::Square>>)]
    pub neutrals: Vec<[Square; 2]>,
    /// The position it leads to.
    #[schema(value_type = schema::Position)]
    pub position: Position,
}

/// The answer to `GET /api/classes`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassesAnswer {
    /// The rules.
    #[schema(value_type = schema::Rules)]
    pub variant: Rules,
    /// `win`, `draw` or `loss` for the player to move.
    #[schema(value_type = schema::ValueName)]
    pub value: &'static str,
    /// The distance asked for.
    #[schema(required)]
    pub plies: Option<u16>,
    /// How many classes there are (more than are listed above the limit).
    pub total: usize,
    /// Every distance that occurs.
    pub distances: Vec<u16>,
    /// One position of each class, shortest distance first (at most 1,000).
    pub positions: Vec<ClassAnswer>,
}

/// One symmetry class: its canonical position, Red to move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassAnswer {
    /// The class's canonical position.
    #[schema(value_type = schema::Position)]
    pub position: Position,
    /// `win`, `draw` or `loss` for the player to move.
    #[schema(value_type = schema::ValueName)]
    pub value: &'static str,
    /// The distance to the end in plies; `null` for a draw.
    #[schema(required)]
    pub plies: Option<u16>,
}

/// The answer to `POST /api/records`: a record and the game it holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordAnswer {
    /// The record's text.
    pub record: String,
    /// The rules of the start.
    #[schema(value_type = schema::Rules)]
    pub variant: Rules,
    /// The starting position.
    #[schema(value_type = schema::Position)]
    pub start: Position,
    /// The moves, in order.
    #[schema(value_type = Vec<schema::Move>)]
    pub moves: Vec<Move>,
    /// The position after each move.
    #[schema(value_type = Vec<schema::Position>)]
    pub positions: Vec<Position>,
    /// The result token.
    pub result: String,
    /// The end in words, if the record's game ended.
    #[schema(required)]
    pub conclusion: Option<String>,
}

// ---- The catalog (`GET /api/catalog`) ----

/// The catalog: everything the page lists or states about the game that is not a position
/// being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Catalog {
    /// The variants offered by name, the specification's first, in its order.
    pub variants: Vec<VariantEntry>,
    /// The named starting setups (`standard`, `kit`, `corners`) on the classic board.
    pub setups: Vec<SetupEntry>,
    /// The computer's levels, weakest first (`random` … `perfect`).
    pub levels: Vec<&'static str>,
    /// The classic game solved.
    pub facts: Facts,
}

/// A variant the page offers by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct VariantEntry {
    /// The canonical rules text, e.g. `sudden-death`.
    pub rules: String,
    /// Its name for people (English), e.g. `sudden death`.
    pub name: &'static str,
    /// What it changes, in one line (English).
    pub summary: &'static str,
    /// One of the specification's variants (`lgame::VARIANTS`), not just another size.
    pub specification: bool,
    /// Positions in its table.
    pub positions: u64,
    /// Whether this server solves its table (computer players, analysis, puzzles).
    pub solvable: bool,
}

/// A named starting setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SetupEntry {
    /// Its name, as a game's `setup` and a position argument take it.
    pub name: &'static str,
    /// The starting position in the one-line form (classic rules).
    pub position: String,
    /// Red's L, in notation order (by column, then row).
    pub red: Vec<String>,
    /// Blue's L.
    pub blue: Vec<String>,
    /// The neutrals.
    pub neutrals: Vec<String>,
}

/// The figures of the solved classic game (docs/rules.md, "Facts the implementation must
/// reproduce"), counted with the player to move, as the solver counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Facts {
    /// The rules these figures are of (`classic`).
    pub variant: String,
    /// Positions.
    pub positions: u64,
    /// Positions up to the board's symmetries.
    pub classes: u64,
    /// Classes won for the player to move.
    pub won_classes: u64,
    /// Classes drawn.
    pub drawn_classes: u64,
    /// Classes lost for the player to move.
    pub lost_classes: u64,
    /// Classes where the player to move is trapped at once.
    pub trapped_classes: u64,
    /// Classes lost by force but not yet trapped.
    pub forced_loss_classes: u64,
    /// The distances, in plies, of those forced losses, shortest first.
    pub forced_loss_plies: Vec<u16>,
    /// The longest forced win, in plies.
    #[schema(required)]
    pub longest_win_plies: Option<u16>,
    /// The position with the most legal moves.
    pub most_moves: MostMoves,
    /// The standard setup: its value and moves.
    pub standard: Start,
}

/// The position with the most legal moves, and how they multiply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MostMoves {
    /// One such position (one-line form).
    pub position: String,
    /// Its legal moves.
    pub moves: u64,
    /// The places its L can go.
    pub l_placements: u64,
    /// The choices for the neutrals after each (`moves / l_placements`).
    pub neutral_choices: u64,
}

/// A starting position's value and legal moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Start {
    /// The position (one-line form).
    pub position: String,
    /// `win`, `draw` or `loss` for the player to move.
    #[schema(value_type = schema::ValueName)]
    pub value: String,
    /// The distance to the end, if not a draw.
    #[schema(required)]
    pub plies: Option<u16>,
    /// Its legal moves.
    pub moves: u64,
}

/// The answer to `GET /api/session`: the session's account, or `null` for nobody.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionInfoAnswer {
    #[schema(required)]
    pub account: Option<Account>,
}

/// An account, as its owner sees it (`GET /api/account`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Account {
    pub username: String,
    /// A bot account (`POST /api/account/bot`).
    pub bot: bool,
    /// Shown to the owner only.
    #[schema(required)]
    pub email: Option<String>,
    /// When it was made (Unix seconds).
    pub created: i64,
}

/// How many sessions were ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ended {
    pub ended: u64,
}

/// `GET /api/users/{name}/ratings`: a player's rating in each category they have played
/// rated.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserRatings {
    pub username: String,
    pub ratings: Vec<CategoryRating>,
}

/// A player's rating in one category, its history and their accuracy.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryRating {
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Shown with "?": the deviation is 110 or more.
    pub provisional: bool,
    /// The rated games that made it.
    pub games: u32,
    /// When the last ended (Unix milliseconds).
    pub last_ms: i64,
    /// The rating after each rated game, oldest first.
    pub history: Vec<HistoryPoint>,
    /// Their moves' accuracy against the solved game in these games (`null`: none could be
    /// scored).
    #[schema(required)]
    pub accuracy: Option<AccuracyTrend>,
}

/// A rating after one rated game.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryPoint {
    pub game: String,
    /// When the game ended (Unix milliseconds).
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// A player's accuracy over their newest rated games of a category (up to 50): the mean
/// share of their scored moves that kept the position's value, and the same over the newest
/// ten (above the average: improving).
#[derive(Debug, Serialize, ToSchema)]
pub struct AccuracyTrend {
    pub games: usize,
    pub average: f64,
    pub recent: f64,
}

/// `GET /api/leaderboard/{category}`: the best 100 established players who played rated
/// in the category in the last 30 days.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    pub category: String,
    /// The established players (deviation under 110), ranked.
    pub players: Vec<LeaderboardLine>,
    /// The players whose rating is still provisional (too few games to rank them), best
    /// first, each `rank` its place among them.
    pub provisional: Vec<LeaderboardLine>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardLine {
    pub rank: usize,
    pub username: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
}

/// A player's public profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub username: String,
    /// A bot: a program (or the server's computer) plays it.
    pub bot: bool,
    /// When the account was made (Unix seconds).
    pub created: i64,
    pub counts: Counts,
    /// The games the player is playing now.
    pub playing: Vec<GameSummary>,
}

/// A player's games, counted by how they ended for them.
#[derive(Debug, Serialize, ToSchema)]
pub struct Counts {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// A page of a list of games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct GamesPage {
    pub games: Vec<GameSummary>,
    pub page: u32,
    pub per_page: u32,
    /// The games the filters match, in all.
    pub total: u64,
}

/// A game in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    /// The rules text (`null`: not a named variant).
    #[schema(required)]
    pub variant: Option<String>,
    #[schema(value_type = schema::PlayersBySide)]
    pub players: ByColor<Player>,
    /// The result token (`*` while it goes on, and for an aborted game).
    pub result: String,
    pub over: bool,
    /// Whether it was aborted (called off before both sides moved): over, with no result.
    pub aborted: bool,
    pub plies: u64,
    /// The side of the player whose list this is.
    #[schema(value_type = Option<schema::Color>, required)]
    pub you: Option<Color>,
    /// When it was made (Unix seconds).
    pub created: i64,
    /// The game's page (an address on this server).
    pub url: String,
    /// Its time control (`null`: untimed).
    #[schema(value_type = Option<schema::TimeControl>, required)]
    pub clock: Option<TimeControl>,
}

/// A session, as the account's settings and data list it (never its cookie).
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionInfo {
    /// Its public id (16 hex digits), to end it with `DELETE /api/account/sessions/{id}`:
    /// nothing of its cookie.
    pub id: String,
    /// The browser it was opened in, in the browser's own words (its `User-Agent`).
    #[schema(required)]
    pub device: Option<String>,
    /// The address it was opened from.
    #[schema(required)]
    pub address: Option<String>,
    /// Unix seconds: made, last used (renewed at most once a day), ends.
    pub created: i64,
    pub used: i64,
    pub expires: i64,
    /// Whether it is the asker's own session.
    pub current: bool,
}

impl SessionInfo {
    /// A listed session; `current` when `own` is its id's hash.
    pub fn of(listed: crate::store::ListedSession, own: &str) -> SessionInfo {
        let s = listed.session;
        SessionInfo {
            current: own.starts_with(&listed.id),
            id: listed.id,
            device: s.device,
            address: s.address,
            created: s.created,
            used: s.used,
            expires: s.expires,
        }
    }
}

/// The answer to `GET /api/account/sessions`: the account's sessions, the last used first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Sessions {
    pub sessions: Vec<SessionInfo>,
}

/// Everything the server keeps of an account (`GET /api/account/export`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Export {
    pub account: Account,
    pub sessions: Vec<SessionInfo>,
    /// Every game the account holds a seat of.
    pub games: Vec<GameSummary>,
    /// Each of those games' record (notation.md) with its tags (docs/records.md, "The
    /// server's records"), by the game's id.
    pub records: Vec<ExportedRecord>,
    /// Its ratings, each with its history (the rating after each rated game).
    pub ratings: Vec<CategoryRating>,
    /// Its API tokens: ids and descriptions, never the tokens.
    pub tokens: Vec<TokenInfo>,
    /// The arenas it joined.
    pub arenas: Vec<ArenaJoined>,
    /// The browsers (their anonymous identity's hash) and addresses it was used from in
    /// the last 30 days (docs/ratings.md, "Fair play").
    pub footprints: Vec<FootprintView>,
}

/// A game's record in an account's export.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedRecord {
    pub game: String,
    pub record: String,
}

/// An arena an account joined.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArenaJoined {
    pub arena: String,
    /// When it last joined, in the server's milliseconds.
    pub joined_ms: i64,
    /// When it left (`null`: still in).
    #[schema(required)]
    pub left_ms: Option<i64>,
}

/// A browser or an address an account was used from.
#[derive(Debug, Serialize, ToSchema)]
pub struct FootprintView {
    /// `browser` (its anonymous identity's hash, `a:HASH`) or `address`.
    pub kind: String,
    pub value: String,
    /// When first used, Unix milliseconds.
    pub first_ms: i64,
    /// When last used.
    pub seen_ms: i64,
}

impl From<crate::store::Footprint> for FootprintView {
    fn from(f: crate::store::Footprint) -> FootprintView {
        FootprintView {
            kind: f.kind,
            value: f.value,
            first_ms: f.first_ms,
            seen_ms: f.seen_ms,
        }
    }
}

/// An open seek, as the lobby lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeekView {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    /// The seeker's side: `red`, `blue` or `random`.
    pub colour: String,
    pub rated: bool,
    /// A rated seek's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// The seeker's rating in the seek's category (rated or not), rounded; a browser's is
    /// the start's, 1500.
    pub rating: i64,
    /// Whether that rating is provisional (shown with "?").
    pub provisional: bool,
    /// The ratings the seek's taker may have, `[min, max]`.
    #[schema(required)]
    pub rating_range: Option<[i64; 2]>,
    /// The seeker's username (`null`: anonymous).
    #[schema(required)]
    pub name: Option<String>,
    /// When it was made (the server's time, in milliseconds).
    pub created_ms: i64,
    /// The asker's own seek.
    pub mine: bool,
}

/// The answer to `POST /api/seeks` (201).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekCreated {
    pub id: String,
    /// The seek's secret, shown once: with it a program withdraws the seek, asks for its
    /// game (`GET /api/seeks/{id}?token=`) and plays its seat (the game's `token`).
    pub token: String,
    pub seek: SeekView,
}

/// The answer to `GET /api/seeks`: the open seeks, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekList {
    pub seeks: Vec<SeekView>,
}

/// The answer to `GET /api/seeks/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekStatus {
    pub seek: SeekView,
    /// `open`, `taken` (its game named) or `gone` (withdrawn, or its page closed).
    pub status: String,
    /// Its game, once taken.
    #[schema(required)]
    pub game: Option<String>,
    /// The seeker's side in it: told only to the seeker (its cookies or its `token`).
    #[schema(value_type = Option<schema::Color>, required)]
    pub side: Option<Color>,
}

/// The answer to `POST /api/pairing` (202) and `GET /api/pairing/{ticket}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingStatus {
    /// The ticket: the secret to ask with, and to play the game's seat with (its `token`).
    pub ticket: String,
    pub control: String,
    /// `waiting` or `paired`.
    pub status: String,
    /// Once paired: the game, its page and the side played.
    #[schema(required)]
    pub game: Option<String>,
    #[schema(required)]
    pub watch_page: Option<String>,
    #[schema(value_type = Option<schema::Color>, required)]
    pub side: Option<Color>,
}

/// An arena tournament, as `GET /api/arenas` lists it (docs/api.md, "Arenas").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaSummary {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    /// How long pairing goes on.
    pub minutes: i64,
    pub rated: bool,
    /// A rated arena's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// When pairing starts and ends (the server's time, in milliseconds).
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running` (until its end, and after it while a game of it goes on) or
    /// `finished`.
    pub state: String,
    /// How many joined.
    pub players: i64,
    /// Who made it (a username; `null` once their account is closed).
    #[schema(required)]
    pub creator: Option<String>,
}

/// The answer to `GET /api/arenas`: those not yet over first, soonest first, then the
/// finished, the latest first; at most 50.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArenaList {
    pub arenas: Vec<ArenaSummary>,
}

/// A player's line in an arena's standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaStanding {
    /// 1 for the best.
    pub rank: usize,
    pub username: String,
    pub score: u32,
    /// On a streak: their last two games won, so their next game's points double.
    pub fire: bool,
    /// The points of each of their games, in order.
    pub sheet: Vec<u32>,
    /// The game of the arena they are playing (`null` while waiting, and for the instant
    /// a new pairing's game takes to be stored).
    #[schema(required)]
    pub game: Option<String>,
    /// Left the arena, or withdrawn for not moving in a game: not paired again.
    pub withdrawn: bool,
}

/// An arena with its standings: the answer to `GET /api/arenas/{id}`, to its creation, to
/// joining and leaving.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ArenaView {
    pub id: String,
    /// The variant's catalog name.
    pub variant: String,
    #[schema(value_type = schema::TimeControl)]
    pub clock: TimeControl,
    #[schema(value_type = String, example = "blitz")]
    pub speed: crate::clock::Speed,
    pub minutes: i64,
    pub rated: bool,
    /// A rated arena's category (docs/ratings.md); `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    pub starts_at: i64,
    pub ends_at: i64,
    /// `upcoming`, `running` or `finished`.
    pub state: String,
    pub players: i64,
    /// Who made it (a username; `null` once their account is closed).
    #[schema(required)]
    pub creator: Option<String>,
    /// Every player who joined, best first: by score, then who reached it first, then by
    /// username.
    pub standings: Vec<ArenaStanding>,
    /// The best three's usernames once the arena is finished, else `null`.
    #[schema(required)]
    pub podium: Option<Vec<String>>,
}

/// The answer to `POST /api/account/tokens` (201): the token, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCreated {
    /// The token's id, to revoke it.
    pub id: String,
    /// The token: `Authorization: Bearer TOKEN`. Only its hash is kept: it cannot be
    /// shown again.
    pub token: String,
    #[schema(required)]
    pub description: Option<String>,
    /// When it was made (Unix milliseconds).
    pub created_ms: i64,
}

/// One of the account's tokens, without the token.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenInfo {
    pub id: String,
    #[schema(required)]
    pub description: Option<String>,
    pub created_ms: i64,
}

impl From<crate::store::TokenRow> for TokenInfo {
    fn from(t: crate::store::TokenRow) -> TokenInfo {
        TokenInfo {
            id: t.id,
            description: t.description,
            created_ms: t.created_ms,
        }
    }
}

/// `GET /api/account/tokens`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenList {
    pub tokens: Vec<TokenInfo>,
}

/// A bot, as the lobby lists them.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotInfo {
    pub username: String,
    /// The server's computer level it plays (`null`: a program plays it through the API).
    #[schema(required)]
    pub level: Option<String>,
    /// Whether it accepts challenges now: the server's levels always; a program's bot while
    /// its event stream is open.
    pub online: bool,
}

/// `GET /api/bots`.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotList {
    pub bots: Vec<BotInfo>,
}

/// A challenge to a bot.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengeView {
    pub id: String,
    /// `pending`, `accepted`, `declined` or `canceled` (withdrawn, or unanswered for a
    /// minute).
    pub status: String,
    /// The challenger's username (`null`: a browser without an account).
    #[schema(required)]
    pub challenger: Option<String>,
    /// The bot challenged.
    pub challenged: String,
    /// The variant's catalog name.
    pub variant: String,
    /// The time control (`null`: untimed).
    #[schema(required, value_type = Option<schema::TimeControl>)]
    pub clock: Option<TimeControl>,
    #[schema(required, value_type = Option<String>, example = "blitz")]
    pub speed: Option<crate::clock::Speed>,
    pub rated: bool,
    /// A rated challenge's category; `null`: casual.
    #[schema(required)]
    pub category: Option<String>,
    /// The challenger's side asked for: `red`, `blue` or `random`.
    pub color: String,
    /// Why the bot declined (`declined` only).
    #[schema(required)]
    pub reason: Option<String>,
    /// The game, once accepted.
    #[schema(required)]
    pub game: Option<String>,
    /// The challenger's side in it, once accepted.
    #[schema(required)]
    pub seat: Option<String>,
    /// When it was made (Unix milliseconds).
    pub created_ms: i64,
}
