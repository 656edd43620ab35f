//! `docs/api.md` read against the server: every JSON example of the document is checked
//! against a real answer of the type it documents (the same fields, each of the same JSON
//! type, nested), every request example is read by the request type (which refuses unknown
//! fields), and the table of reasons against the rules library's serialized reasons. A field
//! renamed, added or dropped on either side fails here.
//!
//! The same examples, and the real answers, are validated against the OpenAPI document's
//! schemas (`openapi.rs`), and the endpoints the document describes are the ones
//! docs/api.md's headings name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use lgame::moves::IllegalMove;
use lgame::position::{End, Outcome, PartialLError, Piece};
use lgame::{Bitboard, Board, Color, Rules, Square};
use serde_json::Value;

use crate::accounts::api::SignUpRequest;
use crate::api;
use crate::error::ApiError;
use crate::explore::{self, PositionQuery, RecordRequest};
use crate::games::api::{CreateRequest, ImportRequest, MoveRequest, SeatRequest};
use crate::games::{self, Command, Games, NewGame, Who};
use crate::store::{Store, Synchronous};

const API_MD: &str = include_str!("../../../docs/api.md");

/// What a JSON example of the document shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shows {
    /// A request body, read by the endpoint's request type.
    Request,
    /// An answer: compared with a real one.
    Answer,
}

/// The document's JSON examples, by the section they stand in (its heading's endpoint, or
/// its title) and their order there, and the OpenAPI schema each is of. A new example must
/// be added here.
const EXAMPLES: &[(&str, usize, Shows, &str)] = &[
    ("The game state", 0, Shows::Answer, "GameState"),
    ("The game state", 1, Shows::Answer, "RatingsAnswer"),
    (
        "GET /api/users/{name}/ratings",
        0,
        Shows::Answer,
        "UserRatings",
    ),
    (
        "GET /api/leaderboard/{category}",
        0,
        Shows::Answer,
        "Leaderboard",
    ),
    ("POST /api/games", 0, Shows::Request, "CreateRequest"),
    ("POST /api/games", 1, Shows::Answer, "Created"),
    (
        "POST /api/games/{id}/moves",
        0,
        Shows::Request,
        "MoveRequest",
    ),
    ("Reasons as data", 0, Shows::Answer, "ErrorBody"),
    ("Accuracy", 0, Shows::Answer, "AccuracyAnswer"),
    ("POST /api/games/import", 0, Shows::Request, "ImportRequest"),
    (
        "POST /api/games/{id}/seat",
        0,
        Shows::Request,
        "SeatRequest",
    ),
    ("POST /api/account", 0, Shows::Request, "SignUpRequest"),
    ("GET /api/account/sessions", 0, Shows::Answer, "Sessions"),
    ("GET /api/analysis", 0, Shows::Answer, "Analysis"),
    ("GET /api/position", 0, Shows::Answer, "PositionAnswer"),
    ("GET /api/classes", 0, Shows::Answer, "ClassesAnswer"),
    ("GET /api/catalog", 0, Shows::Answer, "Catalog"),
    ("POST /api/records", 0, Shows::Answer, "RecordAnswer"),
    ("GET /api/games/{id}/ws", 0, Shows::Answer, "GameMessage"),
    ("GET /api/games/{id}/ws", 1, Shows::Answer, "GameMessage"),
    ("GET /healthz", 0, Shows::Answer, "Health"),
    (
        "POST /api/challenges/{username}",
        0,
        Shows::Request,
        "ChallengeRequest",
    ),
    (
        "POST /api/challenges/{username}",
        1,
        Shows::Answer,
        "ChallengeView",
    ),
];

/// A heading's key: its endpoint without the query (`GET /api/position`), or its title.
fn section_key(heading: &str) -> String {
    let title = heading.trim_start_matches('#').trim();
    let title = title.split(" — ").next().unwrap_or(title).replace('`', "");
    let end = title.find(['?', '[']).unwrap_or(title.len());
    title[..end].trim().to_string()
}

/// Every ```json block of the document: its section, its order there, and its text.
fn json_examples(markdown: &str) -> Vec<(String, usize, String)> {
    let mut found: Vec<(String, usize, String)> = Vec::new();
    let mut section = String::new();
    let mut block: Option<String> = None;
    for line in markdown.lines() {
        match &mut block {
            Some(text) if line.trim_start().starts_with("```") => {
                let index = found.iter().filter(|(s, _, _)| *s == section).count();
                found.push((section.clone(), index, std::mem::take(text)));
                block = None;
            }
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None if line.trim_start().starts_with("```json") => block = Some(String::new()),
            None if line.starts_with('#') => section = section_key(line),
            None => {}
        }
    }
    found
}

/// Whether a documented value stands for more of the same (`"..."`, `"...": "..."`).
fn elided(value: &Value) -> bool {
    value.as_str().is_some_and(|s| s.starts_with("..."))
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Where the documented value `doc` and the real `real` differ in shape: fields missing on
/// either side, or of another JSON type. `null` on either side stands for a field that may
/// be null; `"..."` for anything; an object with a `"..."` key is a map (its other keys are
/// examples); a list's documented items are each compared with a real item.
fn differences(path: &str, doc: &Value, real: &Value, found: &mut Vec<String>) {
    if doc.is_null() || real.is_null() || elided(doc) {
        return;
    }
    match (doc, real) {
        (Value::Object(doc), Value::Object(real)) => {
            let open = doc.contains_key("...");
            for (key, value) in doc.iter().filter(|(k, _)| *k != "...") {
                let here = format!("{path}.{key}");
                match real
                    .get(key)
                    .or(if open { real.values().next() } else { None })
                {
                    Some(real_value) => differences(&here, value, real_value, found),
                    None => found.push(format!("{here}: documented, not in the answer")),
                }
            }
            if !open {
                for key in real.keys().filter(|k| !doc.contains_key(*k)) {
                    found.push(format!("{path}.{key}: in the answer, not documented"));
                }
            }
        }
        (Value::Array(doc), Value::Array(real)) => {
            for (i, item) in doc.iter().enumerate().filter(|(_, v)| !elided(v)) {
                if let Some(real_item) = real.get(i).or(real.first()) {
                    differences(&format!("{path}[{i}]"), item, real_item, found);
                }
            }
        }
        _ if json_type(doc) != json_type(real) => found.push(format!(
            "{path}: documented as {}, answered as {}",
            json_type(doc),
            json_type(real)
        )),
        _ => {}
    }
}

/// A database in a directory of its own, removed at the end.
struct TempStore(PathBuf);

impl TempStore {
    /// One for each caller (the tests run at once), by a count.
    fn new() -> (TempStore, Store) {
        static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("lgame-api-doc-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::sqlite(&dir.join("games.db"), Synchronous::Normal).unwrap();
        (TempStore(dir), store)
    }
}

impl Drop for TempStore {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn to_json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("an answer serializes")
}

/// Real answers for each documented one, made by the code that answers them.
fn real_answers() -> BTreeMap<(&'static str, usize), Value> {
    let (_dir, store) = TempStore::new();
    let app = Arc::new(Games::new(store, 100, crate::DEFAULT_MAX_TABLE_STATES));
    let classic = Rules::classic();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = runtime
        .block_on(app.create(NewGame::new(
            lgame::Game::new(classic),
            ["human".parse().unwrap(), "perfect".parse().unwrap()],
        )))
        .unwrap();
    let (id, token) = (started.id.clone(), started.tokens[0].clone().unwrap());
    let slot = app.cached(&started.id).unwrap();
    let created = to_json(api::created(started));
    let play = |mv: &str| Command::Move {
        ply: 1,
        mv: mv.parse().unwrap(),
        think_ms: None,
    };
    let (refused, state, whole, change) = runtime.block_on(async {
        let who = Who::Token(token);
        let illegal = app.run(&id, who.clone(), play("A1,A2,A3,B1")).await;
        let refused = to_json(ApiError::from(illegal.err().unwrap()).body);
        let (_, mut changes) = slot.lock().await.watch();
        let Ok(games::Outcome::State(state)) = app.run(&id, who, play("A1,A2,A3,B3 D1-D2")).await
        else {
            panic!("the move is played");
        };
        let (whole, _) = slot.lock().await.watch();
        let whole: Value = serde_json::from_str(&whole).unwrap();
        let change: Value = serde_json::from_str(&changes.try_recv().unwrap()).unwrap();
        (refused, state, whole, change)
    });
    let start = classic.start_position();
    let analysis = app.tablebases.get(&classic).analyze(&start).unwrap();
    let position = explore::position_answer(&PositionQuery {
        variant: None,
        position: start.to_string(),
        selected: Some("A3".into()),
    })
    .unwrap();
    let classes = explore::classes_answer(
        &app.tablebases.get(&classic),
        &classic,
        lgame_solver::Wdl::Loss,
        None,
    );
    let record = explore::record_answer(&RecordRequest {
        record: None,
        variant: None,
        start: Some("kit".into()),
        moves: Some(vec!["A2,A3,A4,B4 B2-A1".into()]),
    })
    .unwrap();
    // Red wins from a won position by best play; Blue only moves in lost positions.
    let table = app.tablebases.get(&classic);
    let won = lgame::Position::from_text("..../N.BB/R.NB/RRRB r", &classic).unwrap();
    let mut won_game = lgame::Game::from_position(won).unwrap();
    for mv in table.principal_variation(&won).unwrap() {
        won_game.play(&mv).unwrap();
    }
    let accuracy = crate::games::view::AccuracyAnswer::from(
        lgame_solver::accuracy(&table, &won_game).unwrap(),
    );
    let (ratings, user_ratings, leaderboard) = ratings_answers();
    BTreeMap::from([
        (("The game state", 0), to_json(state)),
        (("The game state", 1), ratings),
        (("GET /api/users/{name}/ratings", 0), user_ratings),
        (("GET /api/leaderboard/{category}", 0), leaderboard),
        (("Accuracy", 0), to_json(accuracy)),
        (("POST /api/games", 1), created),
        (("Reasons as data", 0), refused),
        (("GET /api/analysis", 0), to_json(analysis)),
        (("GET /api/position", 0), to_json(position)),
        (("GET /api/classes", 0), to_json(classes)),
        (
            ("GET /api/catalog", 0),
            to_json(crate::catalog::catalog(crate::DEFAULT_MAX_TABLE_STATES)),
        ),
        (("POST /api/records", 0), to_json(record)),
        (("GET /api/games/{id}/ws", 0), whole),
        (("GET /api/games/{id}/ws", 1), change),
        (("GET /healthz", 0), to_json(api::health(&app))),
        (("POST /api/challenges/{username}", 1), challenge_answer()),
        (("GET /api/account/sessions", 0), sessions_answer()),
    ])
}

/// Two sessions of an account, the asker's first, as the settings list them.
fn sessions_answer() -> Value {
    use crate::store::{ListedSession, Session};
    let listed = |id: &str, device: Option<&str>, address: &str, times: [i64; 3]| ListedSession {
        id: id.into(),
        session: Session {
            user: 1,
            created: times[0],
            used: times[1],
            expires: times[2],
            device: device.map(str::to_string),
            address: Some(address.into()),
        },
    };
    let own = "3b9f0c2d8e1a4f67aa01";
    to_json(crate::accounts::api::Sessions {
        sessions: vec![
            crate::accounts::api::SessionInfo::of(
                listed(
                    "3b9f0c2d8e1a4f67",
                    Some("Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0"),
                    "203.0.113.7",
                    [1_796_515_200, 1_796_601_600, 1_799_193_600],
                ),
                own,
            ),
            crate::accounts::api::SessionInfo::of(
                listed(
                    "a04c77e91d2b3f58",
                    None,
                    "198.51.100.4",
                    [1_796_400_000, 1_796_400_000, 1_798_992_000],
                ),
                own,
            ),
        ],
    })
}

/// A challenge accepted by one of the server's levels, as the API shows it.
fn challenge_answer() -> Value {
    use crate::store::{ChallengeRow, ChallengeState};
    let row = ChallengeRow {
        id: "9c1d2e3f4a5b6c7d".into(),
        challenger: crate::store::Holder::Account(1),
        challenger_name: Some("ada".into()),
        dest: 2,
        dest_name: "lgame-perfect".into(),
        variant: "classic".into(),
        clock: Some(crate::clock::TimeControl::RealTime {
            initial_s: 180,
            increment_s: 2,
        }),
        category: None,
        color: crate::store::ColorChoice::Random,
        state: ChallengeState::Accepted,
        reason: None,
        game: Some("887d47ad05bc7ded".into()),
        challenger_side: Some(lgame::Color::Blue),
        created_ms: 1_796_312_559_498,
    };
    to_json(crate::bots::routes::view(&row, ChallengeState::Accepted))
}

/// The ratings' answers, of the types that answer them: a rated game's two new players
/// after Red won, the winner's ratings, a leaderboard.
fn ratings_answers() -> (Value, Value, Value) {
    use crate::games::view::{RatingsAnswer, SeatRating};
    use crate::ratings::api::{
        AccuracyTrend, CategoryRating, HistoryPoint, Leaderboard, LeaderboardLine, UserRatings,
    };
    use crate::ratings::{rate, START};
    let (red, blue) = rate(START, START, lgame::game::GameResult::RedWins);
    let seat = |after: crate::ratings::Rating| SeatRating {
        before: START.into(),
        after: Some(after.into()),
    };
    let game = RatingsAnswer {
        red: seat(red),
        blue: seat(blue),
    };
    let at_ms = 1_796_284_800_000;
    let user = UserRatings {
        username: "alice".into(),
        ratings: vec![CategoryRating {
            category: "blitz".into(),
            rating: red.rating,
            deviation: red.deviation,
            volatility: red.volatility,
            provisional: red.provisional(),
            games: 1,
            last_ms: at_ms,
            history: vec![HistoryPoint {
                game: "3f9c0a7b12d4e6f8".into(),
                at_ms,
                rating: red.rating,
                deviation: red.deviation,
            }],
            accuracy: Some(AccuracyTrend {
                games: 1,
                average: 1.0,
                recent: 1.0,
            }),
        }],
    };
    let board = Leaderboard {
        category: "blitz".into(),
        players: vec![LeaderboardLine {
            rank: 1,
            username: "alice".into(),
            rating: 1802.5,
            deviation: 64.2,
            games: 41,
        }],
        provisional: vec![LeaderboardLine {
            rank: 1,
            username: "bob".into(),
            rating: 1544.1,
            deviation: 187.4,
            games: 3,
        }],
    };
    (to_json(game), to_json(user), to_json(board))
}

/// Reads a request example with the endpoint's request type.
fn read_request(section: &str, text: &str) -> Result<(), serde_json::Error> {
    match section {
        "POST /api/games" => serde_json::from_str::<CreateRequest>(text).map(drop),
        "POST /api/games/import" => serde_json::from_str::<ImportRequest>(text).map(drop),
        "POST /api/games/{id}/moves" => serde_json::from_str::<MoveRequest>(text).map(drop),
        "POST /api/games/{id}/seat" => serde_json::from_str::<SeatRequest>(text).map(drop),
        "POST /api/account" => serde_json::from_str::<SignUpRequest>(text).map(drop),
        "POST /api/challenges/{username}" => {
            serde_json::from_str::<crate::bots::api::ChallengeRequest>(text).map(drop)
        }
        _ => panic!("no request type for {section}"),
    }
}

#[test]
fn every_json_example_of_the_api_document_has_the_shape_of_the_real_answer() {
    let examples = json_examples(API_MD);
    let listed: BTreeSet<(&str, usize)> = EXAMPLES.iter().map(|(s, i, _, _)| (*s, *i)).collect();
    let in_document: BTreeSet<(&str, usize)> =
        examples.iter().map(|(s, i, _)| (s.as_str(), *i)).collect();
    assert_eq!(
        in_document, listed,
        "docs/api.md's JSON examples and the ones this test knows"
    );
    let answers = real_answers();
    let mut found = Vec::new();
    for (section, index, text) in &examples {
        let what = format!("{section} (example {})", index + 1);
        let doc: Value = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("{what}: the example is not JSON: {e}\n{text}"));
        let shows = EXAMPLES
            .iter()
            .find(|(s, i, _, _)| s == section && i == index)
            .map(|(_, _, shows, _)| *shows);
        match shows {
            Some(Shows::Request) => {
                if let Err(e) = read_request(section, text) {
                    found.push(format!("{what}: the server does not read it: {e}"));
                }
            }
            Some(Shows::Answer) => {
                let real = &answers[&(section.as_str(), *index)];
                differences(&what, &doc, real, &mut found);
            }
            None => unreachable!("checked above"),
        }
    }
    assert!(
        found.is_empty(),
        "docs/api.md differs from the server:\n{}",
        found.join("\n")
    );
}

/// The rows of the document's table of reasons: each `kind` and its fields.
fn documented_reasons() -> BTreeMap<String, BTreeSet<String>> {
    let table = API_MD
        .split("#### Reasons as data")
        .nth(1)
        .expect("docs/api.md has the section 'Reasons as data'");
    let mut rows = BTreeMap::new();
    for line in table.lines().skip_while(|l| !l.starts_with('|')) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(kind) = cells[1].strip_prefix('`').and_then(|k| k.strip_suffix('`')) else {
            continue; // the header and its rule
        };
        // `cell`, `piece` (`null`: empty): the names before any remark in brackets.
        let names = cells[2].split('(').next().unwrap_or("");
        let fields = names
            .split(',')
            .map(|f| f.trim().trim_matches('`').to_string())
            .filter(|f| !f.is_empty())
            .collect();
        rows.insert(kind.to_string(), fields);
    }
    rows
}

#[test]
fn the_table_of_reasons_is_the_librarys_serialized_reasons() {
    let cell = |name: &str| -> Square { name.parse().unwrap() };
    let cells = |names: &str| -> Bitboard { names.split(',').map(cell).collect() };
    let illegal = [
        IllegalMove::GameOver {
            outcome: Outcome {
                winner: Color::Red,
                end: End::Trapped,
                to_move: Color::Blue,
            },
        },
        IllegalMove::OffBoard {
            cell: cell("E3"),
            board: Board::CLASSIC,
        },
        IllegalMove::NotAnL {
            cells: cells("A1,A2,A3,A4"),
        },
        IllegalMove::Unchanged {
            cells: cells("B2,B3,B4,C4"),
        },
        IllegalMove::LOverlaps {
            cell: cell("B1"),
            piece: Piece::L(Color::Blue),
        },
        IllegalMove::NeutralAfterSymmetryWin,
        IllegalMove::TooManyNeutralMoves {
            allowed: 1,
            found: 2,
            rules: Rules::classic(),
        },
        IllegalMove::NeutralMoveRequired,
        IllegalMove::NoNeutral {
            cell: cell("D2"),
            piece: None,
        },
        IllegalMove::NeutralTargetOccupied {
            cell: cell("C2"),
            piece: Piece::Neutral,
        },
    ];
    let mut reasons: Vec<Value> = illegal.into_iter().map(to_json).collect();
    reasons.push(to_json(PartialLError::NoPlacement {
        cells: cells("A1,D3"),
    }));
    // Each as the OpenAPI document describes it: a move's reasons, and a cell's (which may
    // also be any of a move's).
    let mut off_document = Vec::new();
    for (i, reason) in reasons.iter().enumerate() {
        if i < 10 {
            off_document.extend(crate::openapi::schema_errors("IllegalMove", reason));
        }
        off_document.extend(crate::openapi::schema_errors("PartialLError", reason));
    }
    assert!(off_document.is_empty(), "{off_document:#?}");
    let mut serialized = BTreeMap::new();
    for reason in &reasons {
        let object = reason.as_object().expect("a reason is an object");
        let kind = object["kind"].as_str().expect("a reason has a kind");
        let fields: BTreeSet<String> = object.keys().filter(|k| *k != "kind").cloned().collect();
        assert!(
            serialized.insert(kind.to_string(), fields).is_none(),
            "{kind} twice"
        );
    }
    assert_eq!(
        serialized.len(),
        11,
        "every reason of the library: {reasons:?}"
    );
    assert_eq!(
        documented_reasons(),
        serialized,
        "docs/api.md's table of reasons"
    );
    // The values as the page reads them: cells in notation, pieces by name.
    assert_eq!(
        reasons[4],
        serde_json::json!({ "kind": "occupied", "cell": "B1", "piece": "blue" })
    );
    assert_eq!(
        reasons[8],
        serde_json::json!({ "kind": "no_neutral", "cell": "D2", "piece": null })
    );
    assert_eq!(
        reasons[9]["piece"], "neutral",
        "a neutral is named 'neutral'"
    );
    assert_eq!(
        reasons[6],
        serde_json::json!({ "kind": "too_many_neutral_moves", "allowed": 1, "found": 2,
                            "rules": "classic" })
    );
    assert_eq!(
        reasons[10],
        serde_json::json!({ "kind": "no_placement", "cells": "A1,D3" })
    );
    assert_eq!(
        reasons[1],
        serde_json::json!({ "kind": "off_board", "cell": "E3", "board": "4x4" })
    );
}

/// The example with its elisions taken out, for a schema: `"..."` items and keys dropped,
/// and `{"...": "the game state"}` (an object standing for a section's example) replaced by
/// that example.
fn without_elisions(value: &Value, examples: &[(String, usize, String)]) -> Value {
    match value {
        Value::Object(map) if map.len() == 1 && map.contains_key("...") => {
            let named = map["..."].as_str().unwrap_or_default();
            let (_, _, text) = examples
                .iter()
                .find(|(section, index, _)| *index == 0 && section.eq_ignore_ascii_case(named))
                .unwrap_or_else(|| panic!("an elided object names no section: {named:?}"));
            without_elisions(&serde_json::from_str(text).unwrap(), examples)
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "...")
                .map(|(k, v)| (k.clone(), without_elisions(v, examples)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .filter(|v| !elided(v))
                .map(|v| without_elisions(v, examples))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn every_json_example_of_the_api_document_conforms_to_the_openapi_document() {
    let examples = json_examples(API_MD);
    let mut found = Vec::new();
    for (section, index, text) in &examples {
        let Some((_, _, _, schema)) = EXAMPLES
            .iter()
            .find(|(s, i, _, _)| s == section && i == index)
        else {
            continue; // the other test names it
        };
        let doc: Value = serde_json::from_str(text).unwrap();
        let value = without_elisions(&doc, &examples);
        for e in crate::openapi::schema_errors(schema, &value) {
            found.push(format!("{section} (example {}): {e}", index + 1));
        }
    }
    assert!(
        found.is_empty(),
        "docs/api.md's examples break the OpenAPI document:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_real_answers_conform_to_the_openapi_document() {
    let answers = real_answers();
    let mut found = Vec::new();
    for ((section, index), value) in &answers {
        let (_, _, _, schema) = EXAMPLES
            .iter()
            .find(|(s, i, _, _)| s == section && i == index)
            .expect("every real answer is of a documented example");
        found.extend(crate::openapi::schema_errors(schema, value));
    }
    assert!(
        found.is_empty(),
        "the server's answers break the OpenAPI document:\n{}",
        found.join("\n")
    );
}

/// The endpoints docs/api.md's headings name (`### \`POST /api/games\` — …`): each code span
/// that starts with a method, and a bare path after one (`/undo/decline`), which takes the
/// method and the start of the path before it.
fn documented_endpoints() -> BTreeSet<(String, String)> {
    let methods = ["GET", "POST", "PUT", "DELETE", "PATCH"];
    let mut endpoints = BTreeSet::new();
    for heading in API_MD.lines().filter(|l| l.starts_with("### ")) {
        let mut last: Option<(String, String)> = None;
        for span in heading.split('`').skip(1).step_by(2) {
            let (method, path) = match span.split_once(' ') {
                Some((m, p)) if methods.contains(&m) => (m.to_string(), p.to_string()),
                _ if span.starts_with('/') => match &last {
                    Some((m, before)) => {
                        let first = span.split('/').nth(1).unwrap_or_default();
                        let stem = before
                            .find(&format!("/{first}"))
                            .map_or(before.as_str(), |at| &before[..at]);
                        (m.clone(), format!("{stem}{span}"))
                    }
                    None => continue,
                },
                _ => continue,
            };
            let end = path.find(['?', '[']).unwrap_or(path.len());
            let path = path[..end].to_string();
            endpoints.insert((method.clone(), path.clone()));
            last = Some((method, path));
        }
    }
    endpoints
}

#[test]
fn the_api_documents_headings_name_the_openapi_documents_endpoints() {
    let doc: Value = serde_json::from_str(crate::openapi::json()).unwrap();
    let described: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.to_uppercase(), path.clone()))
        })
        .collect();
    assert_eq!(
        documented_endpoints(),
        described,
        "the endpoints of docs/api.md's headings and of the OpenAPI document"
    );
}
