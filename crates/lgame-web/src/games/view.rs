//! A game as the games feature shows it: its state and players, the ratings and accuracy
//! it shows, and the messages of its WebSocket — what `docs/api.md` documents, field by
//! field (a test reads the document's examples against them). Plain data, no logic:
//! `live.rs` fills them in, serde writes them.
//!
//! Values of the rules library go out as the library serializes them (its `serde`
//! feature): positions, moves, cells and rules in their notation, sides as `red` and
//! `blue`.

use lgame::game::DrawRules;
use lgame::{ByColor, Color, Move, Position};
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::ClockView;
use crate::schema;

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
    #[schema(value_type = PlayersBySide)]
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
    #[schema(value_type = PlayersBySide)]
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

// `GameState::players`' stand-in in the document's schemas.
/// Who sits at each side.
#[allow(dead_code)] // a description for the document, never made
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayersBySide {
    /// Red's player.
    red: Player,
    /// Blue's player.
    blue: Player,
}
