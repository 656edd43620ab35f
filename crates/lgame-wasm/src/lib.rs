//! The L game in the browser: the rules library, the solver and the computer players behind
//! one narrow interface, built as a WebAssembly module (`cargo xtask wasm`) for the web
//! page to play, analyse and solve without a server (`docs/web.md`, "Without a server").
//!
//! The interface is JSON in, JSON out, so the page reads the same answers it reads from the
//! server's API (`docs/api.md`): [`call`] takes a request `{"op": …, …}` and answers
//! `{"ok": …}` or `{"error": "…", "kind": "…"}`. The operations:
//!
//! | `op` | fields | answer |
//! |---|---|---|
//! | `position` | `variant`, `position`, `selected` (`"A1,B1"`) | `GET /api/position`'s: the pieces, the legal moves, the move builder's refusals for the cells selected |
//! | `analysis` | `variant`, `position` | `GET /api/analysis`'s: the value and every legal move's value (the table solved once, then kept) |
//! | `game` | `variant`, `setup`, `moves`, `red`, `blue`, `seed`, `turn_limit`, `resigned` | the moves played in order, then the side that `resigned` resigns, then the computer's replies while a computer is to move (at most one each): `start`, `moves`, `positions`, `position`, `turn`, `plies`, `over`, `result`, `ending`, `conclusion`, `variant`, and the game's `record` (for `POST /api/games/import`) |
//! | `solve` | `variant` | the solved table's figures: positions, wins, draws, losses |
//! | `records` | `record`, or `variant`, `start`, `moves` | `POST /api/records`'s: a record read, or a line written as one, with its positions |
//! | `classes` | `variant`, `value` (`win`, `draw`, `loss`), `plies` (a number, or absent) | `GET /api/classes`'s: the symmetry classes of the value (and distance), shortest first, with every distance (the table solved once, then kept) |
//!
//! The WebAssembly module exports [`lgame_alloc`], [`lgame_free`], [`lgame_call`] and
//! [`lgame_answer_len`]; `crates/lgame-web/web/js/engine/wasm.js` is its JavaScript side.
//! The same functions build on the host, where the tests call [`call`].

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use lgame::builder::MoveBuilder;
use lgame::{Bitboard, Game, Move, Position, Rules, Square};
use lgame_players::{BuiltIn, Player, PlayerSpec, Tablebases};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The largest table the module solves (positions): the server's own default bound, so a
/// variant the server analyses is analysed here, and a phone is not asked for more.
pub const MAX_TABLE_STATES: u64 = 2_000_000;

/// The longest game (plies), as the server's default cap: a game without a turn limit is
/// drawn here.
pub const MAX_PLIES: u32 = 1000;

/// Above this many legal moves a position's answer leaves the moves out, as the server's.
pub const MAX_LISTED_MOVES: u64 = 5_000;

/// At most this many classes in one answer, as the server's.
pub const MAX_CLASSES: usize = 1_000;

/// A refusal: what is wrong in words, and as data (the API's refusal kinds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The API's kind (`docs/api.md`, "Refusals"): `bad_variant`, `bad_position`, `illegal_move`…
    pub kind: &'static str,
    /// What is wrong, in (English) words.
    pub message: String,
    /// The rules' reason for an illegal move, as the API gives it.
    pub reason: Option<Value>,
}

impl Refusal {
    fn new(kind: &'static str, message: String) -> Refusal {
        Refusal {
            kind,
            message,
            reason: None,
        }
    }
}

type Answer = Result<Value, Refusal>;

thread_local! {
    /// The tables solved so far, kept for the page's life (no memory budget: the module
    /// solves only tables of at most [`MAX_TABLE_STATES`] positions).
    static TABLES: Arc<Tablebases> = Arc::new(Tablebases::new(None, 1));
    /// The last answer, read by the JavaScript side through [`lgame_call`]'s pointer.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Answers one request (JSON text) with JSON text: `{"ok": …}` or `{"error", "kind"}`.
pub fn call(request: &str) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|e| Refusal::new("unservable", format!("the request is not JSON: {e}")))
        .and_then(|request| answer(&request));
    match answer {
        Ok(value) => json!({ "ok": value }).to_string(),
        Err(refusal) => {
            let mut body = Map::new();
            body.insert("error".into(), refusal.message.into());
            body.insert("kind".into(), refusal.kind.into());
            if let Some(reason) = refusal.reason {
                body.insert("reason".into(), reason);
            }
            Value::Object(body).to_string()
        }
    }
}

fn answer(request: &Value) -> Answer {
    match text(request, "op")? {
        "position" => position(request),
        "analysis" => analysis(request),
        "game" => game(request),
        "solve" => solve(request),
        "records" => records(request),
        "classes" => classes(request),
        other => Err(Refusal::new(
            "unservable",
            format!("unknown op '{}'", shorten(other)),
        )),
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(80).collect()
}

/// A field's text (`""` when absent).
fn text<'a>(request: &'a Value, field: &str) -> Result<&'a str, Refusal> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(""),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(Refusal::new(
            "unservable",
            format!("'{field}' must be a string"),
        )),
    }
}

fn rules(request: &Value) -> Result<Rules, Refusal> {
    let variant = match text(request, "variant")? {
        "" => "classic",
        v => v,
    };
    variant.parse().map_err(|e| {
        Refusal::new(
            "bad_variant",
            format!("variant '{}': {e}", shorten(variant)),
        )
    })
}

fn read_position(request: &Value) -> Result<Position, Refusal> {
    let rules = rules(request)?;
    let text = text(request, "position")?;
    Position::from_text(text, &rules)
        .map_err(|e| Refusal::new("bad_position", format!("position '{}': {e}", shorten(text))))
}

fn cells(cells: Bitboard) -> Vec<Square> {
    cells.squares_in_notation_order()
}

fn read_cells(position: &Position, text: &str) -> Result<Bitboard, Refusal> {
    let mut set = Bitboard::EMPTY;
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let square: Square = name
            .parse()
            .map_err(|e| Refusal::new("bad_cell", format!("selected '{}': {e}", shorten(name))))?;
        if !position.board().contains(square) {
            return Err(Refusal::new(
                "bad_cell",
                format!("selected: {square} is off the {} board", position.board()),
            ));
        }
        set |= square.bit();
    }
    Ok(set)
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn outcome(position: &Position) -> Value {
    position.outcome().map_or(
        Value::Null,
        |o| json!({ "winner": o.winner, "ending": o.end.name(), "conclusion": o.to_string() }),
    )
}

/// `position`: the position laid out for drawing, its legal moves, and the move builder's
/// reason for each cell that cannot join the ones selected (as `GET /api/position`).
fn position(request: &Value) -> Answer {
    let position = read_position(request)?;
    let selected = read_cells(&position, text(request, "selected")?)?;
    let board = position.board();
    let count = position.legal_move_count();
    let moves = (count <= MAX_LISTED_MOVES).then(|| {
        position
            .legal_moves()
            .iter()
            .map(|mv| {
                json!({
                    "move": mv,
                    "l": cells(mv.l()),
                    "neutrals": mv.neutral_moves().iter().map(|&(f, t)| [f, t]).collect::<Vec<_>>(),
                    "position": position.play_unchecked(mv),
                })
            })
            .collect::<Vec<_>>()
    });
    let mut refusals = BTreeMap::new();
    let mut reasons = BTreeMap::new();
    for (square, reason) in MoveBuilder::with_l_cells(&position, selected).l_refusals() {
        refusals.insert(square.to_string(), reason.to_string());
        reasons.insert(square.to_string(), to_json(&reason));
    }
    Ok(json!({
        "variant": position.rules(),
        "position": position,
        "width": board.width(),
        "height": board.height(),
        "turn": position.turn(),
        "scores": position.rules().scoring_target().map(|_| position.scores()),
        "pieces": {
            "red": cells(position.ls().red),
            "blue": cells(position.ls().blue),
            "neutrals": cells(position.neutrals()),
        },
        "outcome": outcome(&position),
        "legal_moves": count,
        "l_moves": position.l_moves().map(cells).collect::<Vec<_>>(),
        "moves": moves,
        "selected": cells(selected),
        "refusals": refusals,
        "refusal_reasons": reasons,
    }))
}

/// The table of `rules`, solved on first use; refused above [`MAX_TABLE_STATES`].
fn table(rules: &Rules) -> Result<Arc<lgame_solver::Tablebase>, Refusal> {
    let tables = TABLES.with(Arc::clone);
    if let Some(table) = tables.cached(rules) {
        return Ok(table);
    }
    let states = lgame_solver::StateIndex::new(rules).len();
    if states > MAX_TABLE_STATES {
        return Err(Refusal::new(
            "variant_too_large",
            format!(
                "'{rules}' has {states} positions; the page solves tables of at most {MAX_TABLE_STATES}"
            ),
        ));
    }
    Ok(tables.get(rules))
}

/// `analysis`: the position's value and every legal move's, best first (as
/// `GET /api/analysis`, the JSON of `lgame analyze --json`).
fn analysis(request: &Value) -> Answer {
    let position = read_position(request)?;
    let table = table(position.rules())?;
    let analysed = table
        .analyze(&position)
        .map_err(|e| Refusal::new("unservable", e.to_string()))?;
    Ok(to_json(&analysed))
}

/// `solve`: the variant's table, solved (or kept from before), and its figures.
fn solve(request: &Value) -> Answer {
    let rules = rules(request)?;
    let table = table(&rules)?;
    Ok(to_json(&lgame_solver::Statistics::of(&table)))
}

/// `classes`: the symmetry classes of a solved variant with a value (and a distance), one
/// canonical position each, shortest first (as `GET /api/classes`, the solver's
/// `Tablebase::classes_of`).
fn classes(request: &Value) -> Answer {
    let rules = rules(request)?;
    let value = text(request, "value")?;
    let wdl = lgame_solver::Wdl::from_name(value).ok_or_else(|| {
        Refusal::new(
            "bad_value",
            format!("value '{}': expected win, draw or loss", shorten(value)),
        )
    })?;
    let plies = match request.get("plies") {
        None | Some(Value::Null) => None,
        Some(plies) => Some(
            plies
                .as_u64()
                .and_then(|p| u16::try_from(p).ok())
                .ok_or_else(|| {
                    Refusal::new(
                        "bad_request",
                        format!("plies: {plies} is not a distance from 0 to 65535"),
                    )
                })?,
        ),
    };
    let table = table(&rules)?;
    let found = table.classes_of(wdl, plies, MAX_CLASSES);
    Ok(json!({
        "variant": rules,
        "value": wdl.name(),
        "plies": plies,
        "total": found.total,
        "distances": found.distances,
        "positions": found
            .classes
            .iter()
            .map(|(position, d)| json!({ "position": position, "value": wdl.name(), "plies": d }))
            .collect::<Vec<_>>(),
    }))
}

/// `records`: a record read (`record`), or a line (`variant`, `start`, `moves`) written as
/// one; either way the record's text and the game it holds, position by position (as
/// `POST /api/records`).
fn records(request: &Value) -> Answer {
    let record = text(request, "record")?;
    let game = if !record.is_empty() {
        let read: lgame::Record =
            record
                .parse()
                .map_err(|e: lgame::record::ParseRecordError| {
                    Refusal::new("bad_record", format!("record: {e}"))
                })?;
        read.replay()
            .map_err(|e| Refusal::new("bad_record", format!("record: {e}")))?
    } else {
        let rules = rules(request)?;
        let start = match text(request, "start")? {
            "" => "start",
            start => start,
        };
        let position = Position::from_text(start, &rules).map_err(|e| {
            Refusal::new(
                "bad_position",
                format!("position '{}': {e}", shorten(start)),
            )
        })?;
        let mut game = Game::from_position(position)
            .map_err(|e| Refusal::new("bad_position", format!("start: {e}")))?;
        play_moves(&mut game, request)?;
        game
    };
    Ok(json!({
        "record": lgame::Record::from_game(&game).to_string(),
        "variant": game.start().rules(),
        "start": game.start(),
        "moves": game.moves(),
        "positions": game.plies().iter().map(|p| p.position).collect::<Vec<_>>(),
        "result": game.result_token().to_string(),
        "conclusion": game.conclusion().map(|c| c.to_string()),
    }))
}

/// Plays the request's `moves` in `game`, each checked by the rules.
fn play_moves(game: &mut Game, request: &Value) -> Result<(), Refusal> {
    let moves = match request.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(moves)) => moves.clone(),
        Some(_) => return Err(Refusal::new("unservable", "'moves' must be a list".into())),
    };
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_str().unwrap_or_default();
        let mv: Move = text.parse().map_err(|e| {
            Refusal::new(
                "bad_move",
                format!("ply {}: '{}': {e}", i + 1, shorten(text)),
            )
        })?;
        if let Err(reason) = game.position().check_move(&mv) {
            return Err(Refusal {
                kind: "illegal_move",
                message: format!("ply {}: {text}: {reason}", i + 1),
                reason: Some(to_json(&reason)),
            });
        }
        game.play(&mv)
            .map_err(|e| Refusal::new("bad_move", format!("ply {}: {text}: {e}", i + 1)))?;
    }
    Ok(())
}

/// A seat of a game: `human` (or absent), or a computer player's spec (`perfect`,
/// `beginner:40`).
fn seat(request: &Value, side: &str) -> Result<Option<PlayerSpec>, Refusal> {
    match text(request, side)? {
        "" | "human" => Ok(None),
        spec => spec
            .parse()
            .map(Some)
            .map_err(|e| Refusal::new("bad_player", format!("{side} '{}': {e}", shorten(spec)))),
    }
}

/// `game`: a game from its setup (a setup name or position, as `POST /api/games` takes it;
/// the variant's own when absent)
/// with the moves given, each checked by the rules, then the computer's replies while a
/// computer is to move (at most one for each side); the computer chooses with random numbers from `seed` and the
/// number of plies, so a game replayed gives the same replies.
fn game(request: &Value) -> Answer {
    let rules = rules(request)?;
    let game = match text(request, "setup")? {
        "" => Game::new(rules),
        setup => {
            let rules = rules.with_setup_text(setup).map_err(|e| {
                Refusal::new("bad_setup", format!("setup '{}': {e}", shorten(setup)))
            })?;
            Game::new(rules)
        }
    };
    let mut draw = game.draw_rules();
    if let Some(limit) = request.get("turn_limit").and_then(Value::as_u64) {
        draw.turn_limit = Some(u32::try_from(limit).unwrap_or(MAX_PLIES).min(MAX_PLIES));
    } else if draw.turn_limit.is_none() {
        draw.turn_limit = Some(MAX_PLIES);
    }
    let mut game = game.with_draw_rules(draw);
    play_moves(&mut game, request)?;
    match text(request, "resigned")? {
        "" => {}
        side => {
            let color = match side {
                "red" => lgame::Color::Red,
                "blue" => lgame::Color::Blue,
                _ => {
                    return Err(Refusal::new(
                        "bad_player",
                        format!("resigned '{}': not red or blue", shorten(side)),
                    ))
                }
            };
            game.resign(color)
                .map_err(|e| Refusal::new("unservable", format!("{side} resigns: {e}")))?;
        }
    }
    let seats = [seat(request, "red")?, seat(request, "blue")?];
    let seed = request.get("seed").and_then(Value::as_u64).unwrap_or(0);
    let tables = TABLES.with(Arc::clone);
    // At most one reply per side: two computers at one table take turns one call at a time.
    for _ in 0..2 {
        if game.is_over() {
            break;
        }
        let Some(spec) = seats[usize::from(game.position().turn() == lgame::Color::Blue)] else {
            break;
        };
        let wants_table = spec.strength > 0 || spec.level == lgame_players::Level::Perfect;
        if wants_table {
            table(game.rules())?;
        }
        let plies = game.plies().len() as u64;
        let mut player = BuiltIn::new(spec, seed ^ plies, tables.clone());
        let Some(mv) = player.choose_move(&game) else {
            break;
        };
        game.play(&mv)
            .map_err(|e| Refusal::new("bad_move", format!("the computer's move {mv}: {e}")))?;
    }
    Ok(game_state(&game))
}

fn game_state(game: &Game) -> Value {
    let conclusion = game.conclusion();
    let mut positions = Vec::new();
    let mut replay = Game::from_position(*game.start()).unwrap_or_else(|_| game.rules_only());
    for mv in game.moves() {
        if replay.play(&mv).is_ok() {
            positions.push(*replay.position());
        }
    }
    json!({
        "variant": game.rules(),
        "start": game.start(),
        "moves": game.moves(),
        "positions": positions,
        "position": game.position(),
        "turn": game.position().turn(),
        "plies": game.plies().len(),
        "over": conclusion.is_some(),
        "result": game.result_token().to_string(),
        "ending": conclusion.map(|c| c.ending.name()),
        "conclusion": conclusion.map(|c| c.to_string()),
        "record": lgame::Record::from_game(game).to_string(),
    })
}

/// Room for a request of `len` bytes, for the JavaScript side to write into (freed with
/// [`lgame_free`]).
#[no_mangle]
pub extern "C" fn lgame_alloc(len: usize) -> *mut u8 {
    let mut bytes = vec![0u8; len].into_boxed_slice();
    let ptr = bytes.as_mut_ptr();
    std::mem::forget(bytes);
    ptr
}

/// Frees what [`lgame_alloc`] gave.
///
/// # Safety
/// `ptr` and `len` are exactly what one call of [`lgame_alloc`] gave and took, freed once.
#[no_mangle]
pub unsafe extern "C" fn lgame_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: the caller gives back the boxed slice lgame_alloc leaked.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
    }
}

/// Answers the request of `len` bytes (UTF-8 JSON) at `ptr`: the answer's bytes are at the
/// pointer returned, [`lgame_answer_len`] of them, until the next call.
///
/// # Safety
/// `ptr` points at `len` readable bytes (written into [`lgame_alloc`]'s room).
#[no_mangle]
pub unsafe extern "C" fn lgame_call(ptr: *const u8, len: usize) -> *const u8 {
    // SAFETY: the caller gives `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = match std::str::from_utf8(bytes) {
        Ok(request) => call(request),
        Err(_) => json!({ "error": "the request is not UTF-8", "kind": "unservable" }).to_string(),
    };
    ANSWER.with(|kept| {
        let mut kept = kept.borrow_mut();
        *kept = answer.into_bytes();
        kept.as_ptr()
    })
}

/// The length of the last answer of [`lgame_call`].
#[no_mangle]
pub extern "C" fn lgame_answer_len() -> usize {
    ANSWER.with(|kept| kept.borrow().len())
}
