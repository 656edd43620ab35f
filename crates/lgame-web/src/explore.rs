//! What the web page asks about positions that are not games: a position laid out for
//! drawing with its legal moves and why a cell cannot take the L, the symmetry classes of a
//! solved variant (galleries and puzzles), and a QR code of a link. Every answer is
//! computed by the libraries; the page holds no rule.

use std::collections::BTreeMap;

use lgame::builder::MoveBuilder;
use lgame::position::PartialLError;
use lgame::{Bitboard, ByColor, Color, Game, Move, Position, Record, Rules, Square};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::games::{self, GameError, Input};
use crate::schema;

pub(crate) mod api;
pub(crate) mod routes;

/// Above this many legal moves the position's answer leaves the moves out (the page then
/// lets the server judge a move when it is sent).
pub const MAX_LISTED_MOVES: u64 = 5_000;

/// At most this many classes in one answer.
pub const MAX_CLASSES: usize = 1_000;

/// The longest text a QR code is made of.
pub const MAX_QR_TEXT: usize = 1_000;

/// `GET /api/position`: a position under a variant, and the cells chosen so far.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PositionQuery {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The position: either form, a setup name or `start`.
    pub position: String,
    /// Cells chosen so far for the mover's next L, `A1,B1`.
    #[serde(default)]
    pub selected: Option<String>,
}

/// `POST /api/records`: a record to read, or a line of moves to write as one.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// A record's text (notation.md) to read.
    #[serde(default)]
    pub record: Option<String>,
    /// Or: the rules, the start and the moves of a line to write.
    #[serde(default)]
    pub variant: Option<String>,
    /// The start: a position, a setup name or `start` (default).
    #[serde(default)]
    pub start: Option<String>,
    /// The moves of the line, in notation.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
}

/// `GET /api/diagram`: a position under a variant, and a move to mark.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// The rules text (default `classic`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The position: either form, a setup name or `start`.
    pub position: String,
    /// A move to mark on it.
    #[serde(default)]
    pub highlight: Option<String>,
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

/// Reads a variant (default classic) and a position in it.
pub fn read_position(variant: Option<&str>, text: &str) -> Result<Position, GameError> {
    let rules = games::parse_rules(variant.unwrap_or("classic"))?;
    Position::from_text(text, &rules).map_err(|e| {
        GameError::unreadable(
            Input::Position,
            &shorten(text),
            format!("position '{}': {e}", shorten(text)),
        )
    })
}

fn shorten(text: &str) -> String {
    text.chars().take(80).collect()
}

fn cells(cells: Bitboard) -> Vec<Square> {
    cells.squares_in_notation_order()
}

fn read_cells(position: &Position, text: &str) -> Result<Bitboard, GameError> {
    let mut set = Bitboard::EMPTY;
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let square: Square = name.parse().map_err(|e| {
            GameError::unreadable(
                Input::Cell,
                &shorten(name),
                format!("selected '{}': {e}", shorten(name)),
            )
        })?;
        if !position.board().contains(square) {
            return Err(GameError::unreadable(
                Input::Cell,
                name,
                format!("selected: {square} is off the {} board", position.board()),
            ));
        }
        set |= square.bit();
    }
    Ok(set)
}

fn move_answer(position: &Position, mv: &Move) -> MoveAnswer {
    MoveAnswer {
        mv: *mv,
        l: cells(mv.l()),
        neutrals: mv
            .neutral_moves()
            .iter()
            .map(|&(from, to)| [from, to])
            .collect(),
        position: position.play_unchecked(mv),
    }
}

/// The position laid out for drawing, its legal L placements and moves, and for the cells
/// chosen so far (`selected`), why each other cell cannot join them.
pub fn describe(position: &Position, selected: Bitboard) -> PositionAnswer {
    let board = position.board();
    let outcome = position.outcome().map(|o| OutcomeAnswer {
        winner: o.winner,
        ending: o.end.name(),
        conclusion: o.to_string(),
    });
    let count = position.legal_move_count();
    let moves = (count <= MAX_LISTED_MOVES).then(|| {
        position
            .legal_moves()
            .iter()
            .map(|mv| move_answer(position, mv))
            .collect()
    });
    // The rules crate's move builder says why each other cell cannot join the picked ones.
    let mut refusals = BTreeMap::new();
    let mut reasons = BTreeMap::new();
    for (square, reason) in MoveBuilder::with_l_cells(position, selected).l_refusals() {
        refusals.insert(square.to_string(), reason.to_string());
        reasons.insert(square.to_string(), reason);
    }
    PositionAnswer {
        variant: *position.rules(),
        position: *position,
        width: board.width(),
        height: board.height(),
        turn: position.turn(),
        scores: position.rules().scoring_target().map(|_| position.scores()),
        pieces: Pieces {
            red: cells(position.ls().red),
            blue: cells(position.ls().blue),
            neutrals: cells(position.neutrals()),
        },
        outcome,
        legal_moves: count,
        l_moves: position.l_moves().map(cells).collect(),
        moves,
        selected: cells(selected),
        refusals,
        refusal_reasons: reasons,
    }
}

/// The answer to `GET /api/position`.
pub fn position_answer(query: &PositionQuery) -> Result<PositionAnswer, GameError> {
    let position = read_position(query.variant.as_deref(), &query.position)?;
    let selected = match &query.selected {
        Some(text) => read_cells(&position, text)?,
        None => Bitboard::EMPTY,
    };
    Ok(describe(&position, selected))
}

/// Reads `win`, `draw` or `loss`.
pub fn read_value(text: &str) -> Result<lgame_solver::Wdl, GameError> {
    lgame_solver::Wdl::from_name(text).ok_or_else(|| {
        GameError::unreadable(
            Input::Value,
            &shorten(text),
            format!("value '{}': expected win, draw or loss", shorten(text)),
        )
    })
}

/// The classes of `rules` with a value (and distance), shortest first: one canonical
/// position each, Red to move (the solver's [`lgame_solver::Tablebase::classes_of`]).
pub fn classes_answer(
    tb: &lgame_solver::Tablebase,
    rules: &Rules,
    wdl: lgame_solver::Wdl,
    plies: Option<u16>,
) -> ClassesAnswer {
    let found = tb.classes_of(wdl, plies, MAX_CLASSES);
    ClassesAnswer {
        variant: *rules,
        value: wdl.name(),
        plies,
        total: found.total,
        distances: found.distances,
        positions: found
            .classes
            .into_iter()
            .map(|(position, d)| ClassAnswer {
                position,
                value: wdl.name(),
                plies: d,
            })
            .collect(),
    }
}

/// A QR code of `text` as an SVG picture.
pub fn qr_svg(text: &str) -> Result<String, GameError> {
    if text.is_empty() || text.len() > MAX_QR_TEXT {
        return Err(GameError::invalid(
            Input::Other,
            format!(
                "text: 1 to {MAX_QR_TEXT} bytes are made into a QR code, not {}",
                text.len()
            ),
        ));
    }
    let code = qrcode::QrCode::new(text.as_bytes())
        .map_err(|e| GameError::Unservable(format!("QR code: {e}")))?;
    Ok(code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build())
}

/// Reads a game record and replays it through the rules; a refusal names the record's text
/// it is about (a move, a tag) as its input.
pub fn read_record(text: &str) -> Result<Game, GameError> {
    let refused = |e: &dyn std::fmt::Display, input: Option<&str>| GameError::Invalid {
        what: Input::Record,
        input: input.map(shorten),
        message: format!("record: {e}"),
    };
    let record: Record = text
        .parse()
        .map_err(|e: lgame::record::ParseRecordError| refused(&e, e.text()))?;
    record
        .replay()
        .map_err(|e: lgame::record::RecordError| refused(&e, e.text()))
}

/// Reads a record, or writes a line as one; either way answers the record's text and the
/// game it holds, position by position.
pub fn record_answer(request: &RecordRequest) -> Result<RecordAnswer, GameError> {
    let game = match (&request.record, &request.moves) {
        (Some(text), None) if request.variant.is_none() && request.start.is_none() => {
            read_record(text)?
        }
        (None, Some(moves)) => {
            let start = read_position(
                request.variant.as_deref(),
                request.start.as_deref().unwrap_or("start"),
            )?;
            let mut game = Game::from_position(start)
                .map_err(|e| GameError::invalid(Input::Position, format!("start: {e}")))?;
            for (n, text) in moves.iter().enumerate() {
                let ply = n + 1;
                let mv: Move = text.parse().map_err(|e| {
                    GameError::unreadable(
                        Input::Move,
                        &shorten(text),
                        format!("ply {ply}: '{}': {e}", shorten(text)),
                    )
                })?;
                game.play(&mv).map_err(|e| {
                    let message = format!("ply {ply}: {mv}: {e}");
                    match e {
                        lgame::game::GameError::Illegal(reason) => GameError::Illegal {
                            input: text.clone(),
                            message,
                            reason,
                        },
                        _ => GameError::Unservable(message),
                    }
                })?;
            }
            game
        }
        _ => {
            return Err(GameError::Unservable(
                "send either a record, or moves with an optional variant and start".into(),
            ))
        }
    };
    Ok(RecordAnswer {
        record: Record::from_game(&game).to_string(),
        variant: *game.start().rules(),
        start: *game.start(),
        moves: game.moves(),
        positions: game.plies().iter().map(|p| p.position).collect(),
        result: game.result_token().to_string(),
        conclusion: game.conclusion().map(|c| c.to_string()),
    })
}

/// A picture of a position (the library's SVG diagram).
pub fn diagram(query: &DiagramQuery) -> Result<String, GameError> {
    let position = read_position(query.variant.as_deref(), &query.position)?;
    let highlight = match &query.highlight {
        Some(text) => {
            let mv: Move = text.parse().map_err(|e| {
                GameError::unreadable(
                    Input::Move,
                    &shorten(text),
                    format!("highlight '{}': {e}", shorten(text)),
                )
            })?;
            Some(mv)
        }
        None => None,
    };
    Ok(lgame::diagram::svg(&position, highlight.as_ref()))
}
