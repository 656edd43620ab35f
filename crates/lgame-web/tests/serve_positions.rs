//! What the server answers about a position (docs/api.md, `GET /api/position`): its layout,
//! outcome and legal moves, the cells a half-made L may take and why the others are
//! refused, and unreadable queries; end to end over HTTP on a loopback port, every answer
//! checked against the rules library computing it a second time.

use std::collections::{BTreeMap, BTreeSet};

use lgame::{Bitboard, Color, Move, Position, Square};
use lgame_test_support::http::encode;
use lgame_test_support::library::{after_moves, position, say_reason};
use lgame_test_support::server::Server;
use serde_json::{json, Value};

/// A list of cell names as a set, each name read by the library and named once.
fn cells(list: &Value) -> Bitboard {
    let names = list
        .as_array()
        .unwrap_or_else(|| panic!("not a list of cells: {list}"));
    let mut set = Bitboard::EMPTY;
    for name in names {
        let square: Square = name.as_str().unwrap().parse().unwrap();
        assert!(!set.contains(square), "{square} twice in {list}");
        set |= square.bit();
    }
    set
}

/// Every cell of the board, built from its width and height.
fn board_cells(position: &Position) -> Vec<Square> {
    let board = position.board();
    (0..board.height())
        .flat_map(|row| (0..board.width()).map(move |column| Square::new(column, row)))
        .collect()
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

fn position_query(variant: &str, text: &str, selected: Option<&str>) -> String {
    let mut path = format!(
        "/api/position?variant={}&position={}",
        encode(variant),
        encode(text)
    );
    if let Some(selected) = selected {
        path += &format!("&selected={}", encode(selected));
    }
    path
}

/// `GET /api/position` for a position, every field checked against the library; the
/// answer is returned for further checks.
fn check_position(server: &Server, variant: &str, text: &str) -> Value {
    let reply = server.get(&position_query(variant, text, None));
    assert_eq!(reply.status, 200, "{variant} {text}: {}", reply.body);
    let body = reply.body;
    let p = position(variant, text);
    let what = format!("{variant} / {text}");
    assert_eq!(body["variant"], p.rules().to_string(), "{what}");
    assert_eq!(body["position"], p.to_string(), "{what}");
    assert_eq!(body["width"], p.board().width(), "{what}");
    assert_eq!(body["height"], p.board().height(), "{what}");
    assert_eq!(body["turn"], color_name(p.turn()), "{what}");
    assert_eq!(cells(&body["pieces"]["red"]), p.l(Color::Red), "{what}");
    assert_eq!(cells(&body["pieces"]["blue"]), p.l(Color::Blue), "{what}");
    assert_eq!(cells(&body["pieces"]["neutrals"]), p.neutrals(), "{what}");
    match p.rules().scoring_target() {
        Some(_) => assert_eq!(
            body["scores"],
            json!({ "red": p.scores().red, "blue": p.scores().blue }),
            "{what}"
        ),
        None => assert_eq!(body["scores"], Value::Null, "{what}"),
    }
    match p.outcome() {
        Some(outcome) => {
            assert_eq!(
                body["outcome"]["winner"],
                color_name(outcome.winner),
                "{what}"
            );
            assert_eq!(body["outcome"]["ending"], outcome.end.name(), "{what}");
            assert_eq!(body["outcome"]["conclusion"], outcome.to_string(), "{what}");
        }
        None => assert_eq!(body["outcome"], Value::Null, "{what}"),
    }

    let legal = p.legal_moves();
    assert_eq!(body["legal_moves"], legal.len(), "{what}");
    assert_eq!(body["legal_moves"], p.legal_move_count(), "{what}");

    // The L placements: those of the legal moves, each once.
    let expected_ls: BTreeSet<Bitboard> = legal.iter().map(Move::l).collect();
    let listed = body["l_moves"].as_array().unwrap();
    let ls: BTreeSet<Bitboard> = listed.iter().map(cells).collect();
    assert_eq!(
        ls.len(),
        listed.len(),
        "{what}: an L placement listed twice"
    );
    assert_eq!(ls, expected_ls, "{what}: l_moves");

    // The moves: the library's, each with its L, its neutral steps and where it leads.
    if legal.len() > 5_000 {
        assert_eq!(body["moves"], Value::Null, "{what}: too many moves to list");
        return body;
    }
    let expected: BTreeMap<String, Move> = legal.iter().map(|m| (m.to_string(), *m)).collect();
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), legal.len(), "{what}: moves");
    let mut seen = BTreeSet::new();
    for entry in moves {
        let name = entry["move"].as_str().unwrap();
        assert!(seen.insert(name.to_string()), "{what}: {name} listed twice");
        let mv = expected
            .get(name)
            .unwrap_or_else(|| panic!("{what}: {name} is not a legal move"));
        assert_eq!(
            name.parse::<Move>().unwrap(),
            *mv,
            "{what}: {name} reads back"
        );
        assert_eq!(cells(&entry["l"]), mv.l(), "{what}: {name}");
        let neutrals: Vec<(Square, Square)> = entry["neutrals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|step| {
                (
                    step[0].as_str().unwrap().parse().unwrap(),
                    step[1].as_str().unwrap().parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(neutrals, mv.neutral_moves(), "{what}: {name}");
        assert_eq!(
            entry["position"],
            p.play(mv).unwrap().to_string(),
            "{what}: {name}"
        );
    }
    body
}

/// `GET /api/position` with `selected`: every other cell's refusal is the library's
/// `check_l_cells` reason, and the cells without one are exactly those it accepts.
fn check_refusals(server: &Server, variant: &str, text: &str, selected: &[&str]) {
    let reply = server.get(&position_query(variant, text, Some(&selected.join(","))));
    let what = format!("{variant} / {text} / {selected:?}");
    assert_eq!(reply.status, 200, "{what}: {}", reply.body);
    let p = position(variant, text);
    let chosen: Bitboard = selected
        .iter()
        .map(|n| n.parse::<Square>().unwrap())
        .collect();
    assert_eq!(cells(&reply.body["selected"]), chosen, "{what}");
    let refusals = reply.body["refusals"].as_object().unwrap();
    let mut expected = BTreeMap::new();
    for square in board_cells(&p) {
        if chosen.contains(square) {
            continue;
        }
        if let Err(reason) = p.check_l_cells(chosen | square.bit()) {
            expected.insert(square.to_string(), Value::from(reason.to_string()));
        }
    }
    let got: BTreeMap<String, Value> = refusals.clone().into_iter().collect();
    assert_eq!(got, expected, "{what}");
    let reasons = reply.body["refusal_reasons"].as_object().unwrap();
    assert_eq!(
        reasons.len(),
        refusals.len(),
        "{what}: a reason for each refusal"
    );
    for (cell, text) in refusals {
        let text = text.as_str().unwrap();
        assert_eq!(say_reason(&reasons[cell], text), text, "{what}: {cell}");
    }
    // Some cell is free and some refused in every case below but the finished one: the
    // comparison is about something.
    assert!(!got.is_empty(), "{what}: nothing refused");
}

/// Red to move and trapped: lost at once (the first of the classic gallery).
const TRAPPED: &str = "..../BBBN/R.B./RRRN r";

#[test]
fn a_position_is_laid_out_with_exactly_the_librarys_legal_moves() {
    let (_dir, server) = Server::in_temp_dir("page-position");
    let (mid, _) = after_moves("classic", "standard", &[3, 17, 40, 8]);
    let mid = mid.to_string();
    for (variant, text) in [
        ("classic", "standard"),
        ("classic", "kit"),
        ("classic", "start"),
        ("classic", mid.as_str()),
        ("classic", "R:A1,A2,A3,B3 B:C1,C2,C3,D3 N:A4,D4 b"),
        ("board=5x4", "start"),
        ("scoring", "start"),
        ("misere", "kit"),
    ] {
        let body = check_position(&server, variant, text);
        assert_eq!(body["outcome"], Value::Null, "{variant} {text}");
        assert!(body["legal_moves"].as_u64().unwrap() > 0);
    }
    let wide = check_position(&server, "board=5x4", "start");
    assert_eq!(
        (wide["width"].clone(), wide["height"].clone()),
        (json!(5), json!(4))
    );
}

#[test]
fn a_finished_position_has_its_outcome_and_no_moves() {
    let (_dir, server) = Server::in_temp_dir("page-finished");
    assert!(position("classic", TRAPPED).outcome().is_some());
    let body = check_position(&server, "classic", TRAPPED);
    assert_eq!(body["outcome"]["winner"], "blue");
    assert!(body["outcome"]["conclusion"].as_str().unwrap().len() > 5);
    assert_eq!(body["legal_moves"], 0);
    assert_eq!(body["moves"], json!([]));
    assert_eq!(body["l_moves"], json!([]));
    // Misère: the trapped player wins.
    let misere = check_position(&server, "misere", TRAPPED);
    assert_eq!(misere["outcome"]["winner"], "red");
}

#[test]
fn above_five_thousand_legal_moves_the_moves_are_counted_not_listed() {
    let (_dir, server) = Server::in_temp_dir("page-many");
    let p = position("board=8x8", "start");
    assert!(p.legal_move_count() > 5_000, "the case is a large one");
    let body = check_position(&server, "board=8x8", "start");
    assert_eq!(body["moves"], Value::Null);
    assert!(!body["l_moves"].as_array().unwrap().is_empty());
}

#[test]
fn every_refused_cell_has_the_librarys_reason_and_the_others_complete_an_l() {
    let (_dir, server) = Server::in_temp_dir("page-refusals");
    let (mid, _) = after_moves("classic", "standard", &[3, 17, 40, 8]);
    let mid = mid.to_string();
    // Standard: Red's L on B2,B3,B4,C4; Blue's on B1,C1,C2,C3; neutrals on A4 and D1.
    let cases: &[(&str, &str, &[&str])] = &[
        ("classic", "standard", &[]),
        ("classic", "standard", &["A1"]),
        ("classic", "standard", &["A1", "A2"]),
        ("classic", "standard", &["A1", "A2", "A3"]),
        ("classic", "standard", &["B2", "B3", "B4"]),
        ("classic", "standard", &["B4", "C4"]),
        ("classic", "standard", &["A4"]),
        ("classic", "standard", &["C3"]),
        ("classic", "standard", &["A1", "D4"]),
        ("classic", "kit", &["D4"]),
        ("classic", mid.as_str(), &["B2"]),
        ("classic", TRAPPED, &["A4"]),
        ("board=5x4", "start", &["E1"]),
        ("board=5x4", "start", &["E1", "E2"]),
    ];
    for (variant, text, selected) in cases {
        check_refusals(&server, variant, text, selected);
    }
    // A cell next to the own L only: the one L over B2,B3,B4 and C4 is where it stands.
    let reply = server.get(&position_query("classic", "standard", Some("B2,B3,B4")));
    let c4 = reply.body["refusals"]["C4"].as_str().unwrap();
    let p = position("classic", "standard");
    let b234: Bitboard = ["B2", "B3", "B4", "C4"]
        .iter()
        .map(|n| n.parse::<Square>().unwrap())
        .collect();
    assert_eq!(c4, p.check_l_cells(b234).unwrap_err().to_string());
    // Where the game is over, every cell says so.
    let over = server.get(&position_query("classic", TRAPPED, Some("A4")));
    let refusals = over.body["refusals"].as_object().unwrap();
    assert_eq!(refusals.len(), 15);
}

#[test]
fn an_unreadable_position_query_is_400_naming_the_problem() {
    let (_dir, server) = Server::in_temp_dir("page-position-bad");
    let cases = [
        (
            "/api/position?variant=nope&position=standard".to_string(),
            "variant 'nope'",
        ),
        (
            "/api/position?position=garbage".to_string(),
            "position 'garbage'",
        ),
        (
            position_query("classic", "standard", Some("A1,Z9")),
            "selected 'Z9'",
        ),
        (
            position_query("classic", "standard", Some("E1")),
            "selected: E1 is off the 4x4 board",
        ),
        (
            position_query("board=5x4", "start", Some("A5")),
            "selected: A5 is off the 5x4 board",
        ),
        (
            "/api/position?position=standard&foo=1".to_string(),
            "unknown field `foo`",
        ),
        ("/api/position".to_string(), "missing field `position`"),
        (
            // Both Ls on one cell: read, but refused by the rules.
            format!(
                "/api/position?position={}",
                encode("R:A1,A2,A3,B3 B:A1,B1,C1,C2 N:D4,D3 r")
            ),
            "position 'R:A1,A2,A3,B3",
        ),
    ];
    for (path, named) in cases {
        let reply = server.get(&path);
        assert_eq!(reply.status, 400, "{path}: {}", reply.body);
        assert!(
            reply.error().contains(named),
            "{path}: '{}' should name {named}",
            reply.error()
        );
    }
}
