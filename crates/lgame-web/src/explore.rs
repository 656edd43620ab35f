//! What the web page asks about positions that are not games: a position laid out for
//! drawing with its legal moves and why a cell cannot take the L, the symmetry classes of a
//! solved variant (galleries and puzzles), and a QR code of a link. Every answer is
//! computed by the libraries; the page holds no rule.

use axum::http::StatusCode;
use lgame::{Bitboard, Game, GameError, Move, Position, Record, Rules, Square};
use lgame_solver::Value;
use serde::Deserialize;
use serde_json::{json, Map, Value as Json};

use crate::error::ApiError;
use crate::games::{self, color_name};

/// Above this many legal moves the position's answer leaves the moves out (the page then
/// lets the server judge a move when it is sent).
pub const MAX_LISTED_MOVES: u64 = 5_000;

/// At most this many classes in one answer.
pub const MAX_CLASSES: usize = 1_000;

/// The longest text a QR code is made of.
pub const MAX_QR_TEXT: usize = 1_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    #[serde(default)]
    pub variant: Option<String>,
    pub position: String,
    /// Cells chosen so far for the mover's next L, `A1,B1`.
    #[serde(default)]
    pub selected: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassesQuery {
    #[serde(default)]
    pub variant: Option<String>,
    /// `win`, `draw` or `loss` for the player to move.
    pub value: String,
    /// Only positions at this distance in plies.
    #[serde(default)]
    pub plies: Option<u16>,
}

/// Reads a variant (default classic) and a position in it.
pub fn read_position(variant: Option<&str>, text: &str) -> Result<Position, ApiError> {
    let rules = games::parse_rules(variant.unwrap_or("classic"))?;
    Position::from_text(text, &rules)
        .map_err(|e| ApiError::bad_request(format!("position '{}': {e}", shorten(text))))
}

fn shorten(text: &str) -> String {
    text.chars().take(80).collect()
}

fn cells(cells: Bitboard) -> Vec<String> {
    cells
        .squares_in_notation_order()
        .iter()
        .map(Square::to_string)
        .collect()
}

fn read_cells(position: &Position, text: &str) -> Result<Bitboard, ApiError> {
    let mut set = Bitboard::EMPTY;
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let square: Square = name
            .parse()
            .map_err(|e| ApiError::bad_request(format!("selected '{}': {e}", shorten(name))))?;
        if !position.board().contains(square) {
            return Err(ApiError::bad_request(format!(
                "selected: {square} is off the {} board",
                position.board()
            )));
        }
        set |= square.bit();
    }
    Ok(set)
}

fn move_json(position: &Position, mv: &Move) -> Json {
    let neutrals: Vec<[String; 2]> = mv
        .neutral_moves()
        .iter()
        .map(|(from, to)| [from.to_string(), to.to_string()])
        .collect();
    json!({
        "move": mv.to_string(),
        "l": cells(mv.l()),
        "neutrals": neutrals,
        "position": position.play_unchecked(mv).to_string(),
    })
}

/// The position laid out for drawing, its legal L placements and moves, and for the cells
/// chosen so far (`selected`), why each other cell cannot join them.
pub fn describe(position: &Position, selected: Bitboard) -> Json {
    let board = position.board();
    let outcome = position.outcome().map(|o| {
        json!({ "winner": color_name(o.winner), "ending": o.end.name(), "conclusion": o.to_string() })
    });
    let count = position.legal_move_count();
    let moves = (count <= MAX_LISTED_MOVES).then(|| {
        position
            .legal_moves()
            .iter()
            .map(|mv| move_json(position, mv))
            .collect::<Vec<_>>()
    });
    let mut refusals = Map::new();
    let mut reasons = Map::new();
    for square in board.mask().squares_in_notation_order() {
        if selected.contains(square) {
            continue;
        }
        if let Err(reason) = position.check_l_cells(selected | square.bit()) {
            refusals.insert(square.to_string(), reason.to_string().into());
            reasons.insert(square.to_string(), crate::error::partial_l_reason(&reason));
        }
    }
    let scores = position
        .rules()
        .scoring_target()
        .map(|_| json!({ "red": position.scores().red, "blue": position.scores().blue }));
    json!({
        "variant": position.rules().to_string(),
        "position": position.to_string(),
        "width": board.width(),
        "height": board.height(),
        "turn": color_name(position.turn()),
        "scores": scores,
        "pieces": {
            "red": cells(position.ls().red),
            "blue": cells(position.ls().blue),
            "neutrals": cells(position.neutrals()),
        },
        "outcome": outcome,
        "legal_moves": count,
        "l_moves": position.l_moves().map(cells).collect::<Vec<_>>(),
        "moves": moves,
        "selected": cells(selected),
        "refusals": refusals,
        "refusal_reasons": reasons,
    })
}

/// The answer to `GET /api/position`.
pub fn position_answer(query: &PositionQuery) -> Result<Json, ApiError> {
    let position = read_position(query.variant.as_deref(), &query.position)?;
    let selected = match &query.selected {
        Some(text) => read_cells(&position, text)?,
        None => Bitboard::EMPTY,
    };
    Ok(describe(&position, selected))
}

/// Reads `win`, `draw` or `loss`.
pub fn read_value(text: &str) -> Result<lgame_solver::Wdl, ApiError> {
    use lgame_solver::Wdl;
    [Wdl::Win, Wdl::Draw, Wdl::Loss]
        .into_iter()
        .find(|w| w.name() == text)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "value '{}': expected win, draw or loss",
                shorten(text)
            ))
        })
}

/// The classes of `rules` with a value (and distance), shortest first: one canonical
/// position each, Red to move.
pub fn classes_answer(
    tb: &lgame_solver::Tablebase,
    rules: &Rules,
    wdl: lgame_solver::Wdl,
    plies: Option<u16>,
) -> Json {
    let all: Vec<(Option<u16>, String)> = tb
        .classes()
        .filter(|(_, v)| v.wdl() == wdl)
        .map(|(p, v): (Position, Value)| (v.plies(), p.to_string()))
        .collect();
    let mut distances: Vec<u16> = all.iter().filter_map(|(d, _)| *d).collect();
    distances.sort_unstable();
    distances.dedup();
    let mut found: Vec<(Option<u16>, String)> = all
        .into_iter()
        .filter(|(d, _)| plies.is_none() || *d == plies)
        .collect();
    found.sort();
    let total = found.len();
    found.truncate(MAX_CLASSES);
    let positions: Vec<Json> = found
        .into_iter()
        .map(|(d, position)| json!({ "position": position, "value": wdl.name(), "plies": d }))
        .collect();
    json!({
        "variant": rules.to_string(),
        "value": wdl.name(),
        "plies": plies,
        "total": total,
        "distances": distances,
        "positions": positions,
    })
}

/// A QR code of `text` as an SVG picture.
pub fn qr_svg(text: &str) -> Result<String, ApiError> {
    if text.is_empty() || text.len() > MAX_QR_TEXT {
        return Err(ApiError::bad_request(format!(
            "text: 1 to {MAX_QR_TEXT} bytes are made into a QR code, not {}",
            text.len()
        )));
    }
    let code = qrcode::QrCode::new(text.as_bytes())
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, format!("QR code: {e}")))?;
    Ok(code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build())
}

/// `POST /api/records`: a record to read, or a line of moves to write as one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// A record's text (notation.md) to read.
    #[serde(default)]
    pub record: Option<String>,
    /// Or: the rules, the start and the moves of a line to write.
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub moves: Option<Vec<String>>,
}

/// Reads a record, or writes a line as one; either way answers the record's text and the
/// game it holds, position by position.
pub fn record_answer(request: &RecordRequest) -> Result<Json, ApiError> {
    let game = match (&request.record, &request.moves) {
        (Some(text), None) if request.variant.is_none() && request.start.is_none() => {
            let record: Record = text
                .parse()
                .map_err(|e| ApiError::bad_request(format!("record: {e}")))?;
            record
                .replay()
                .map_err(|e| ApiError::bad_request(format!("record: {e}")))?
        }
        (None, Some(moves)) => {
            let start = read_position(
                request.variant.as_deref(),
                request.start.as_deref().unwrap_or("start"),
            )?;
            let mut game = Game::from_position(start)
                .map_err(|e| ApiError::bad_request(format!("start: {e}")))?;
            for (n, text) in moves.iter().enumerate() {
                let ply = n + 1;
                let mv: Move = text.parse().map_err(|e| {
                    ApiError::bad_request(format!("ply {ply}: '{}': {e}", shorten(text)))
                })?;
                game.play(&mv).map_err(|e| {
                    let refusal = ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!("ply {ply}: {mv}: {e}"),
                    );
                    match e {
                        GameError::Illegal(reason) => {
                            refusal.with_reason(crate::error::illegal_reason(&reason))
                        }
                        _ => refusal,
                    }
                })?;
            }
            game
        }
        _ => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "send either a record, or moves with an optional variant and start",
            ))
        }
    };
    Ok(json!({
        "record": Record::from_game(&game).to_string(),
        "variant": game.start().rules().to_string(),
        "start": game.start().to_string(),
        "moves": game.moves().iter().map(Move::to_string).collect::<Vec<_>>(),
        "positions": game.plies().iter().map(|p| p.position.to_string()).collect::<Vec<_>>(),
        "result": game.result_token().to_string(),
        "conclusion": game.conclusion().map(|c| c.to_string()),
    }))
}

/// A picture of a position (the library's SVG diagram).
pub fn diagram(query: &DiagramQuery) -> Result<String, ApiError> {
    let position = read_position(query.variant.as_deref(), &query.position)?;
    let highlight = match &query.highlight {
        Some(text) => {
            let mv: Move = text.parse().map_err(|e| {
                ApiError::bad_request(format!("highlight '{}': {e}", shorten(text)))
            })?;
            Some(mv)
        }
        None => None,
    };
    Ok(lgame::svg(&position, highlight.as_ref()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagramQuery {
    #[serde(default)]
    pub variant: Option<String>,
    pub position: String,
    /// A move to mark on it.
    #[serde(default)]
    pub highlight: Option<String>,
}
