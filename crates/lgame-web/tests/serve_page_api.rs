//! What the server answers the web page (docs/api.md: positions, classes, records,
//! diagrams, QR codes, the page's files, players' presence), end to end over HTTP on a
//! loopback port, every answer checked against the libraries computing it a second time.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use lgame::{Bitboard, Color, Game, Move, Position, Record, Rules, Square};
use lgame_solver::{Tablebase, Wdl};
use lgame_test_support::http::{a_legal_move, encode, Reply};
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// A query value, percent-encoded (positions hold `/`, spaces and `:`, variants `=` and `,`).
fn start(name: &str) -> (TempDir, Server) {
    let dir = TempDir::new(name);
    let server = Server::start(dir.db());
    (dir, server)
}

fn rules(variant: &str) -> Rules {
    variant.parse().unwrap()
}

fn position(variant: &str, text: &str) -> Position {
    Position::from_text(text, &rules(variant)).unwrap()
}

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

/// A refusal's data said in words as the page's English says it (web/i18n/en/ui.js): it must
/// be the library's text, so the data carries all the text does.
fn say_reason(reason: &Value, text: &str) -> String {
    let field = |name: &str| match &reason[name] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("{name} is {other} in {reason}"),
    };
    let piece = |name: &str| match name {
        "red" => "Red's L",
        "blue" => "Blue's L",
        "neutral" => "a neutral",
        other => panic!("a piece named {other}"),
    };
    match reason["kind"].as_str().unwrap_or("") {
        "occupied" => format!(
            "the L cannot go on {}: it is occupied by {}",
            field("cell"),
            piece(&field("piece"))
        ),
        "unchanged" => format!(
            "the L is already on {}: it must move to a different placement",
            field("cells")
        ),
        "no_placement" => format!("no free L covers {}", field("cells")),
        "not_an_l" => format!("{} is not an L shape", field("cells")),
        "off_board" => format!("{} is off the {} board", field("cell"), field("board")),
        "neutral_after_symmetry_win" => "this L move mirrors the opponent's L and wins at once: \
                                         no neutral may move"
            .to_string(),
        "too_many_neutral_moves" => format!(
            "{} neutral moves, but the {} rules allow at most {}",
            field("found"),
            field("rules"),
            field("allowed")
        ),
        "neutral_required" => {
            "a neutral move is required after the L move under neutral-required rules".to_string()
        }
        "no_neutral" if reason["piece"].is_null() => {
            format!("there is no neutral on {} (it is empty)", field("cell"))
        }
        "no_neutral" => format!(
            "there is no neutral on {} (it holds {})",
            field("cell"),
            piece(&field("piece"))
        ),
        "neutral_target_occupied" => format!(
            "a neutral cannot move to {}: it is occupied by {}",
            field("cell"),
            piece(&field("piece"))
        ),
        // The outcome in the text is the game's, which the page words itself.
        "game_over" if text.starts_with("the game is over") => text.to_string(),
        _ => panic!("an unexpected reason {reason} for {text:?}"),
    }
}

/// The position after `picks` library moves from `text`.
fn after_moves(variant: &str, text: &str, picks: &[usize]) -> (Position, Vec<Move>) {
    let mut p = position(variant, text);
    let mut played = Vec::new();
    for pick in picks {
        let moves = p.legal_moves();
        let mv = moves[pick % moves.len()];
        p = p.play(&mv).unwrap();
        played.push(mv);
    }
    (p, played)
}

/// Red to move and trapped: lost at once (the first of the classic gallery).
const TRAPPED: &str = "..../BBBN/R.B./RRRN r";

#[test]
fn a_position_is_laid_out_with_exactly_the_librarys_legal_moves() {
    let (_dir, server) = start("page-position");
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
    let (_dir, server) = start("page-finished");
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
    let (_dir, server) = start("page-many");
    let p = position("board=8x8", "start");
    assert!(p.legal_move_count() > 5_000, "the case is a large one");
    let body = check_position(&server, "board=8x8", "start");
    assert_eq!(body["moves"], Value::Null);
    assert!(!body["l_moves"].as_array().unwrap().is_empty());
}

#[test]
fn every_refused_cell_has_the_librarys_reason_and_the_others_complete_an_l() {
    let (_dir, server) = start("page-refusals");
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
    let (_dir, server) = start("page-position-bad");
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

/// The classes of `value` in classic rules, by the library's own solve.
fn library_classes(tb: &Tablebase, value: Wdl) -> BTreeMap<String, Option<u16>> {
    tb.classes()
        .filter(|(_, v)| v.wdl() == value)
        .map(|(p, v)| (p.to_string(), v.plies()))
        .collect()
}

/// The classes listed: canonical, Red to move, shortest first, each with the library's
/// value.
fn check_classes(tb: &Tablebase, body: &Value, value: Wdl) -> Vec<(String, Option<u16>)> {
    let classic = Rules::classic();
    let listed: Vec<(String, Option<u16>)> = body["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            assert_eq!(entry["value"], value.name());
            let plies = entry["plies"].as_u64().map(|d| d as u16);
            (entry["position"].as_str().unwrap().to_string(), plies)
        })
        .collect();
    for (text, plies) in &listed {
        let p = Position::from_text(text, &classic).unwrap();
        assert_eq!(p.canonical(), p, "{text} is its class's canonical form");
        assert_eq!(p.turn(), Color::Red, "{text}");
        let v = tb.value(&p).unwrap();
        assert_eq!((v.wdl(), v.plies()), (value, *plies), "{text}");
    }
    let distances: Vec<Option<u16>> = listed.iter().map(|(_, d)| *d).collect();
    let mut sorted = distances.clone();
    sorted.sort();
    assert_eq!(distances, sorted, "shortest first");
    listed
}

#[test]
fn the_classic_lost_classes_are_29_at_even_distances_15_of_them_over_already() {
    let (_dir, server) = start("page-classes");
    let tb = Tablebase::solve(&Rules::classic());

    let loss = server.get("/api/classes?variant=classic&value=loss");
    assert_eq!(loss.status, 200, "{}", loss.body);
    assert_eq!(loss.body["variant"], "classic");
    assert_eq!(loss.body["value"], "loss");
    assert_eq!(loss.body["plies"], Value::Null);
    assert_eq!(loss.body["total"], 29);
    assert_eq!(loss.body["distances"], json!([0, 2, 4, 6, 8]));
    let listed = check_classes(&tb, &loss.body, Wdl::Loss);
    assert_eq!(listed.len(), 29);
    assert_eq!(listed.iter().filter(|(_, d)| *d == Some(0)).count(), 15);
    let expected = library_classes(&tb, Wdl::Loss);
    let got: BTreeMap<String, Option<u16>> = listed.into_iter().collect();
    assert_eq!(got, expected, "the library's lost classes");
    for (text, plies) in &got {
        let p = Position::from_text(text, &Rules::classic()).unwrap();
        assert_eq!(p.outcome().is_some(), *plies == Some(0), "{text}");
    }

    // Only those at a distance, the distances still all listed.
    let eight = server.get("/api/classes?value=loss&plies=8");
    assert_eq!(eight.status, 200, "{}", eight.body);
    assert_eq!(eight.body["plies"], 8);
    assert_eq!(eight.body["distances"], json!([0, 2, 4, 6, 8]));
    let listed = check_classes(&tb, &eight.body, Wdl::Loss);
    let at_eight = expected.values().filter(|d| **d == Some(8)).count();
    assert!(at_eight > 0);
    assert_eq!(listed.len(), at_eight);
    assert_eq!(eight.body["total"], at_eight);
    assert!(listed.iter().all(|(_, d)| *d == Some(8)));
}

#[test]
fn won_classes_are_at_odd_distances_and_at_most_a_thousand_are_listed() {
    let (_dir, server) = start("page-classes-win");
    let tb = Tablebase::solve(&Rules::classic());

    let win = server.get("/api/classes?value=win");
    assert_eq!(win.status, 200, "{}", win.body);
    let expected = library_classes(&tb, Wdl::Win);
    assert_eq!(win.body["total"], expected.len());
    let distances: Vec<u64> = win.body["distances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .collect();
    assert!(!distances.is_empty());
    assert!(distances.iter().all(|d| d % 2 == 1), "{distances:?}");
    let mut library: Vec<u64> = expected.values().map(|d| u64::from(d.unwrap())).collect();
    library.sort_unstable();
    library.dedup();
    assert_eq!(distances, library);
    let listed = check_classes(&tb, &win.body, Wdl::Win);
    assert_eq!(listed.len(), expected.len().min(1_000));
    // Shortest first: what is left off is no nearer than what is listed.
    if expected.len() > 1_000 {
        let mut all: Vec<u16> = expected.values().map(|d| d.unwrap()).collect();
        all.sort_unstable();
        let shown: Vec<u16> = listed.iter().map(|(_, d)| d.unwrap()).collect();
        assert_eq!(shown, all[..1_000].to_vec());
    }

    let draw = server.get("/api/classes?value=draw");
    assert_eq!(draw.status, 200, "{}", draw.body);
    assert_eq!(draw.body["distances"], json!([]));
    assert_eq!(
        draw.body["total"],
        library_classes(&tb, Wdl::Draw).len(),
        "the library's drawn classes"
    );
    let listed = check_classes(&tb, &draw.body, Wdl::Draw);
    assert!(listed.iter().all(|(_, d)| d.is_none()));
}

#[test]
fn classes_of_an_unknown_value_are_400_and_of_a_huge_variant_422() {
    let (_dir, server) = start("page-classes-bad");
    let bad = server.get("/api/classes?value=maybe");
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.error().contains("value 'maybe'"), "{}", bad.error());

    let huge = server.get(&format!(
        "/api/classes?value=loss&variant={}",
        encode("board=8x8")
    ));
    assert_eq!(huge.status, 422, "{}", huge.body);
    assert!(
        huge.error().contains("board=8x8") && huge.error().contains("2000000"),
        "{}",
        huge.error()
    );

    let unknown = server.get("/api/classes?value=loss&depth=3");
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    assert!(unknown.error().contains("unknown field `depth`"));

    let variant = server.get("/api/classes?value=loss&variant=nope");
    assert_eq!(variant.status, 400, "{}", variant.body);
    assert!(variant.error().contains("variant 'nope'"));
}

/// The positions after each move, by the library.
fn replay(start: &Position, moves: &[String]) -> Vec<String> {
    let mut p = *start;
    moves
        .iter()
        .map(|m| {
            p = p.play(&m.parse::<Move>().unwrap()).unwrap();
            p.to_string()
        })
        .collect()
}

#[test]
fn a_line_written_as_a_record_reads_back_as_the_same_game() {
    let (_dir, server) = start("page-records");
    let (_, played) = after_moves("classic", "kit", &[5, 22, 9, 31, 2]);
    let moves: Vec<String> = played.iter().map(Move::to_string).collect();
    let kit = position("classic", "kit");

    let written = server.post(
        "/api/records",
        &json!({ "variant": "classic", "start": "kit", "moves": moves }),
    );
    assert_eq!(written.status, 200, "{}", written.body);
    assert_eq!(written.body["moves"], json!(moves));
    assert_eq!(written.body["start"], kit.to_string());
    // The start is written into the rules, as the library's game from it has them.
    let from_kit = Game::from_position(kit).unwrap();
    assert_eq!(
        written.body["variant"],
        from_kit.start().rules().to_string()
    );
    assert_eq!(written.body["positions"], json!(replay(&kit, &moves)));
    assert_eq!(written.body["result"], "*");
    assert_eq!(written.body["conclusion"], Value::Null);

    // The record is the library's, and holds the line.
    let text = written.body["record"].as_str().unwrap();
    let game = text.parse::<Record>().unwrap().replay().unwrap();
    assert_eq!(game.start().to_string(), kit.to_string());
    assert_eq!(game.start(), from_kit.start());
    let replayed: Vec<String> = game.moves().iter().map(Move::to_string).collect();
    assert_eq!(replayed, moves);

    let read = server.post("/api/records", &json!({ "record": text }));
    assert_eq!(read.status, 200, "{}", read.body);
    for field in [
        "record",
        "variant",
        "start",
        "moves",
        "positions",
        "result",
        "conclusion",
    ] {
        assert_eq!(read.body[field], written.body[field], "{field}");
    }

    // A variant and the default start.
    let wide = server.post(
        "/api/records",
        &json!({ "variant": "board=5x4", "moves": [] }),
    );
    assert_eq!(wide.status, 200, "{}", wide.body);
    assert_eq!(
        wide.body["start"],
        rules("board=5x4").start_position().to_string()
    );
    assert_eq!(wide.body["variant"], rules("board=5x4").to_string());
}

#[test]
fn a_line_to_a_trap_is_written_with_the_librarys_result() {
    let (_dir, server) = start("page-records-end");
    let tb = Tablebase::solve(&Rules::classic());
    let (start, _) = tb
        .classes()
        .find(|(_, v)| v.wdl() == Wdl::Win && v.plies() == Some(1))
        .expect("a win in one");
    let winning = start
        .legal_moves()
        .into_iter()
        .find(|m| start.play(m).unwrap().outcome().is_some())
        .unwrap();
    let mut game = Game::from_position(start).unwrap();
    game.play(&winning).unwrap();

    let reply = server.post(
        "/api/records",
        &json!({ "start": start.to_string(), "moves": [winning.to_string()] }),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["result"], game.result_token().to_string());
    assert_ne!(reply.body["result"], "*");
    assert_eq!(
        reply.body["conclusion"],
        game.conclusion().unwrap().to_string()
    );
    assert_eq!(
        reply.body["record"],
        Record::from_game(&game).to_string(),
        "the library's record of the game"
    );
}

#[test]
fn an_illegal_move_names_its_ply_400_in_a_record_422_in_a_line() {
    let (_dir, server) = start("page-records-illegal");
    // Red's first move is an L move alone; played again at ply 3 it leaves the L where it
    // stands.
    let standard = position("classic", "standard");
    let first = standard
        .legal_moves()
        .into_iter()
        .find(|m| m.neutral_moves().is_empty())
        .unwrap();
    let after_one = standard.play(&first).unwrap();
    let second = after_one.legal_moves()[7];
    let after_two = after_one.play(&second).unwrap();
    let reason = after_two.play(&first).unwrap_err().to_string();
    let line = [first.to_string(), second.to_string(), first.to_string()];

    let written = server.post("/api/records", &json!({ "moves": line }));
    assert_eq!(written.status, 422, "{}", written.body);
    assert_eq!(written.error(), format!("ply 3: {first}: {reason}"));

    // The same line as a record's text.
    let mut game = Game::from_position(standard).unwrap();
    game.play(&first).unwrap();
    game.play(&second).unwrap();
    let good = Record::from_game(&game).to_string();
    let bad = good.replacen("\n*\n", &format!("\n3. {first}\n*\n"), 1);
    assert_ne!(good, bad, "the record was changed: {good}");
    let read = server.post("/api/records", &json!({ "record": bad }));
    assert_eq!(read.status, 400, "{}", read.body);
    assert!(
        read.error().starts_with("record: ") && read.error().contains("ply 3"),
        "{}",
        read.error()
    );
    assert!(read.error().contains(&reason), "{}", read.error());

    // An unreadable move is 400, named by its ply too.
    let unreadable = server.post(
        "/api/records",
        &json!({ "moves": [first.to_string(), "Z9"] }),
    );
    assert_eq!(unreadable.status, 400, "{}", unreadable.body);
    assert!(
        unreadable.error().starts_with("ply 2: 'Z9'"),
        "{}",
        unreadable.error()
    );
}

#[test]
fn a_records_request_is_a_record_or_moves_never_both_nor_neither_nor_more() {
    let (_dir, server) = start("page-records-shape");
    let record = "[Variant \"classic\"]\n[Result \"*\"]\n\n*\n";
    let ok = server.post("/api/records", &json!({ "record": record }));
    assert_eq!(ok.status, 200, "{}", ok.body);
    for body in [
        json!({ "record": record, "moves": [] }),
        json!({}),
        json!({ "record": record, "variant": "classic" }),
        json!({ "record": record, "start": "kit" }),
        json!({ "variant": "classic" }),
    ] {
        let reply = server.post("/api/records", &body);
        assert_eq!(reply.status, 422, "{body}: {}", reply.body);
        assert!(
            reply.error().contains("either a record, or moves"),
            "{}",
            reply.error()
        );
    }
    let unknown = server.post("/api/records", &json!({ "moves": [], "foo": 1 }));
    assert_eq!(unknown.status, 422, "{}", unknown.body);
    assert!(
        unknown.error().contains("unknown field `foo`"),
        "{}",
        unknown.error()
    );
    let wrong = server.post("/api/records", &json!({ "moves": "A1,A2,A3,B3" }));
    assert_eq!(wrong.status, 422, "{}", wrong.body);
}

/// An answer with its headers (the helpers' `Reply` keeps only the body).
struct Answer {
    status: u16,
    headers: BTreeMap<String, String>,
    text: String,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }
}

fn fetch(server: &Server, path: &str) -> Answer {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build();
    let response = match agent.get(&server.url(path)).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {path}: {e}"),
    };
    let status = response.status();
    let headers = response
        .headers_names()
        .into_iter()
        .map(|name| {
            let value = response.header(&name).unwrap_or("").to_string();
            (name.to_lowercase(), value)
        })
        .collect();
    let text = response.into_string().unwrap();
    Answer {
        status,
        headers,
        text,
    }
}

#[test]
fn a_diagram_is_the_librarys_svg_of_the_position_and_the_move() {
    let (_dir, server) = start("page-diagram");
    let standard = position("classic", "standard");
    let plain = fetch(&server, "/api/diagram?position=standard");
    assert_eq!(plain.status, 200, "{}", plain.text);
    assert_eq!(plain.header("content-type"), "image/svg+xml");
    assert!(
        plain.text.starts_with("<svg") || plain.text.starts_with("<?xml"),
        "{}",
        &plain.text[..plain.text.len().min(80)]
    );
    assert_eq!(plain.text, lgame::diagram::svg(&standard, None));

    let mv: Move = "A1,A2,A3,B3 D1-D2".parse().unwrap();
    let marked = fetch(
        &server,
        &format!(
            "/api/diagram?position=standard&highlight={}",
            encode(&mv.to_string())
        ),
    );
    assert_eq!(marked.status, 200, "{}", marked.text);
    assert_eq!(marked.header("content-type"), "image/svg+xml");
    assert_eq!(marked.text, lgame::diagram::svg(&standard, Some(&mv)));
    assert_ne!(marked.text, plain.text);

    let (mid, _) = after_moves("board=5x4", "start", &[4, 9]);
    let wide = fetch(
        &server,
        &format!(
            "/api/diagram?variant={}&position={}",
            encode("board=5x4"),
            encode(&mid.to_string())
        ),
    );
    assert_eq!(wide.status, 200, "{}", wide.text);
    assert_eq!(wide.text, lgame::diagram::svg(&mid, None));

    let bad = server.get("/api/diagram?position=standard&highlight=zz");
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.error().contains("highlight 'zz'"), "{}", bad.error());
    let bad = server.get("/api/diagram?position=nonsense");
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(
        bad.error().contains("position 'nonsense'"),
        "{}",
        bad.error()
    );
}

#[test]
fn a_qr_code_is_an_svg_of_1_to_1000_bytes() {
    let (_dir, server) = start("page-qr");
    let link = fetch(
        &server,
        &format!("/api/qr?text={}", encode("http://example/x")),
    );
    assert_eq!(link.status, 200, "{}", link.text);
    assert_eq!(link.header("content-type"), "image/svg+xml");
    assert!(link.text.contains("<svg"), "{}", link.text);
    let other = fetch(
        &server,
        &format!("/api/qr?text={}", encode("http://example/y")),
    );
    assert_eq!(other.status, 200);
    assert_ne!(other.text, link.text, "the picture depends on the text");

    let longest = fetch(&server, &format!("/api/qr?text={}", "a".repeat(1_000)));
    assert_eq!(longest.status, 200, "{}", longest.text);
    assert!(longest.text.contains("<svg"));

    for (path, length) in [
        ("/api/qr?text=".to_string(), 0),
        (format!("/api/qr?text={}", "a".repeat(1_001)), 1_001),
        // Bytes, not characters: 334 three-byte characters.
        (format!("/api/qr?text={}", encode(&"€".repeat(334))), 1_002),
    ] {
        let reply = server.get(&path);
        assert_eq!(reply.status, 400, "{length}: {}", reply.body);
        assert!(
            reply.error().ends_with(&format!("not {length}")),
            "{}",
            reply.error()
        );
    }
    let missing = server.get("/api/qr");
    assert_eq!(missing.status, 400, "{}", missing.body);
}

/// A GET sent as it is written, byte for byte (an HTTP client would resolve `..` first).
fn raw_get(server: &Server, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text}"));
    (status, text)
}

#[test]
fn the_page_is_served_with_a_policy_keeping_it_to_this_server() {
    let (_dir, server) = start("page-assets");
    let page = fetch(&server, "/");
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").starts_with("text/html"));
    let policy = page.header("content-security-policy");
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert!(!policy.contains('*'), "no wildcard source: {policy}");
    assert_eq!(page.header("x-content-type-options"), "nosniff");
    assert_eq!(page.header("referrer-policy"), "no-referrer");
    assert!(
        page.text.contains("<html")
            || page.text.contains("<!DOCTYPE")
            || page.text.contains("<!doctype")
    );

    let script = fetch(&server, "/assets/js/app.js");
    assert_eq!(script.status, 200);
    assert!(
        script.header("content-type").starts_with("text/javascript"),
        "{}",
        script.header("content-type")
    );
    assert!(script
        .header("content-security-policy")
        .contains("default-src 'self'"));
    assert_eq!(script.header("x-content-type-options"), "nosniff");

    let missing = server.get("/assets/nope.js");
    assert_eq!(missing.status, 404);
    assert!(missing.error().contains("nope.js"), "{}", missing.error());
}

#[test]
fn no_path_reaches_a_file_outside_the_embedded_page() {
    let (_dir, server) = start("page-traversal");
    // The raw client reaches the embedded files, so a 404 below is the server's answer.
    let (status, text) = raw_get(&server, "/assets/js/app.js");
    assert_eq!(status, 200, "{text}");
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    assert!(manifest.contains("[package]"));
    for path in [
        "/assets/../Cargo.toml",
        "/assets/../../Cargo.toml",
        "/assets/js/../../Cargo.toml",
        "/assets/..%2FCargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/%2E%2E%2FCargo.toml",
        "/assets/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/assets/..\\Cargo.toml",
        "/assets/..%5CCargo.toml",
        "/assets//etc/passwd",
        "/assets/%2Fetc%2Fpasswd",
        "/assets/../src/lib.rs",
        "/assets/..%2Fsrc%2Flib.rs",
        "/assets/..%2Fbuild.rs",
        "/assets/.%2E/Cargo.toml",
    ] {
        let (status, text) = raw_get(&server, path);
        assert_eq!(status, 404, "{path}: {text}");
        assert!(text.contains("\"error\""), "{path}: {text}");
        assert!(
            !text.contains("[package]") && !text.contains("root:") && !text.contains("fn "),
            "{path} answered a file: {text}"
        );
    }
}

fn present(state: &Value) -> (bool, bool) {
    (
        state["present"]["red"].as_bool().unwrap(),
        state["present"]["blue"].as_bool().unwrap(),
    )
}

#[test]
fn a_players_socket_marks_their_side_present_until_the_last_one_closes() {
    let (_dir, server) = start("page-presence");
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    assert_eq!(present(&game.body["state"]), (false, false));
    assert_eq!(present(&server.state(&game.id)), (false, false));

    let mut spectator = server.watch_with(&game.id, None).unwrap();
    assert_eq!(
        present(&spectator.next()),
        (false, false),
        "a spectator is nobody"
    );

    // A wrong token is refused before any socket opens.
    match server.watch_with(&game.id, Some("0123456789abcdef0123456789abcdef")) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        Err(e) => panic!("expected 403, got {e}"),
        Ok(_) => panic!("a wrong token opened a socket"),
    }

    let mut blue_page = server.watch_with(&game.id, Some(&blue)).unwrap();
    assert_eq!(present(&spectator.next()), (false, true));
    assert_eq!(
        present(&blue_page.next()),
        (false, true),
        "blue sees itself"
    );
    assert_eq!(present(&server.state(&game.id)), (false, true));

    // A second page of Blue's, then moves: Blue stays present throughout.
    let second_page = server.watch_with(&game.id, Some(&blue)).unwrap();
    assert_eq!(present(&spectator.next()), (false, true));
    let mut state = server.state(&game.id);
    for ply in 1..=3u64 {
        let mv = a_legal_move(&state, ply as usize * 13);
        let token = if ply % 2 == 1 { &red } else { &blue };
        let reply: Reply = server.play(&game.id, token, ply, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = spectator.next();
        assert_eq!(state, reply.body);
        assert_eq!(present(&state), (false, true));
    }

    // Closing one of two pages: still present; the last: gone.
    blue_page.close();
    assert_eq!(
        present(&spectator.next()),
        (false, true),
        "one page is still open"
    );
    second_page.close();
    let after = spectator.next();
    assert_eq!(present(&after), (false, false));
    assert_eq!(after["plies"], 3, "only presence changed");
    assert_eq!(present(&server.state(&game.id)), (false, false));

    // Red's page marks Red, not Blue.
    let red_page = server.watch_with(&game.id, Some(&red)).unwrap();
    assert_eq!(present(&spectator.next()), (true, false));
    red_page.close();
    assert_eq!(present(&spectator.next()), (false, false));
    spectator.close();
}

#[test]
fn a_game_state_lists_the_position_after_each_ply_as_the_library_replays_it() {
    let (_dir, server) = start("page-positions");
    let game = server.create(json!({ "red": "human", "blue": "human", "setup": "kit" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    assert_eq!(game.body["state"]["positions"], json!([]));
    let mut state = game.body["state"].clone();
    for ply in 1..=6u64 {
        let mv = a_legal_move(&state, ply as usize * 29 + 3);
        let token = if ply % 2 == 1 { &red } else { &blue };
        let reply = server.play(&game.id, token, ply, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    let state = server.state(&game.id);
    let moves: Vec<String> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves.len(), 6);
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let start = Position::from_text(state["start"].as_str().unwrap(), &rules).unwrap();
    assert_eq!(start, Position::from_text("kit", &rules).unwrap());
    let expected = replay(&start, &moves);
    assert_eq!(state["positions"], json!(expected));
    assert_eq!(state["position"], json!(expected.last().unwrap()));
}

/// A position of the symmetry variant where Red can mirror Blue's L: a move there with a
/// neutral step is refused, the mirror having ended the game.
fn a_symmetry_win_with_a_neutral_step() -> (String, String) {
    let rules = rules("symmetry");
    for p in lgame::position::all_positions(&rules) {
        for mv in p.legal_moves() {
            if mv.neutral_moves().is_empty() && p.play(&mv).unwrap().ls_mirror_each_other() {
                let after = p.play(&mv).unwrap();
                let free = (p.board().mask() - (after.occupied()))
                    .first()
                    .expect("a free cell");
                let neutral = p.neutrals().first().expect("a neutral");
                return (p.to_string(), format!("{mv} {neutral}-{free}"));
            }
        }
    }
    panic!("no mirroring move in the symmetry variant");
}

#[test]
fn every_kind_of_illegal_move_is_refused_with_its_reason_as_data() {
    let (_dir, server) = start("page-illegal-kinds");
    let (mirror_at, mirror_move) = a_symmetry_win_with_a_neutral_step();
    // Standard: Red's L on B2,B3,B4,C4; Blue's on B1,C1,C2,C3; neutrals on A4 and D1.
    let cases: Vec<(&str, String, String, &str)> = vec![
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,A4".into(),
            "not_an_l",
        ),
        (
            "classic",
            "standard".into(),
            "B2,B3,B4,C4".into(),
            "unchanged",
        ),
        (
            "classic",
            "standard".into(),
            "A1,B1,C1,A2".into(),
            "occupied",
        ),
        (
            "classic",
            "standard".into(),
            "D1,D2,D3,E3".into(),
            "off_board",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 D1-D2 A4-D3".into(),
            "too_many_neutral_moves",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 D2-D3".into(),
            "no_neutral",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 C2-D2".into(),
            "no_neutral",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 D1-C2".into(),
            "neutral_target_occupied",
        ),
        (
            "neutral-required",
            "standard".into(),
            "A1,A2,A3,B3".into(),
            "neutral_required",
        ),
        (
            "symmetry",
            mirror_at,
            mirror_move,
            "neutral_after_symmetry_win",
        ),
    ];
    for (variant, setup, text, kind) in cases {
        let p = position(variant, &setup);
        let mv: Move = text.parse().unwrap();
        let words = p.check_move(&mv).expect_err("an illegal move").to_string();
        let what = format!("{variant} {setup}: {text}");

        let game = server.create(json!({"red": "human", "blue": "human", "variant": variant,
                                        "setup": setup}));
        let token = if p.turn() == Color::Red {
            game.red
        } else {
            game.blue
        }
        .unwrap();
        let reply = server.play(&game.id, &token, 1, &text);
        assert_eq!(reply.status, 422, "{what}: {}", reply.body);
        assert_eq!(reply.body["reason"]["kind"], kind, "{what}");
        assert_eq!(say_reason(&reply.body["reason"], &words), words, "{what}");
        assert!(reply.error().ends_with(&words), "{what}: {}", reply.error());

        let line = server.post(
            "/api/records",
            &json!({"variant": variant, "start": setup, "moves": [text]}),
        );
        assert_eq!(line.status, 422, "{what}: {}", line.body);
        assert_eq!(line.body["reason"], reply.body["reason"], "{what}");
    }
}

/// A GET with `headers`: the status, the answer's headers (names in lower case) and its
/// body's bytes as sent (not decoded).
fn get_with(
    server: &Server,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, BTreeMap<String, String>, Vec<u8>) {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build();
    let mut request = agent.get(&server.url(path));
    for (name, value) in headers {
        request = request.set(name, value);
    }
    let response = match request.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {path}: {e}"),
    };
    let status = response.status();
    let names = response.headers_names();
    let answer_headers = names
        .into_iter()
        .map(|name| {
            let value = response.header(&name).unwrap_or("").to_string();
            (name.to_lowercase(), value)
        })
        .collect();
    let mut body = Vec::new();
    response.into_reader().read_to_end(&mut body).unwrap();
    (status, answer_headers, body)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip stream");
    out
}

#[test]
fn answers_are_gzipped_for_a_client_that_accepts_it_and_the_same_once_unzipped() {
    let (_dir, server) = start("page-gzip");
    for path in [
        "/",
        "/assets/js/app.js",
        "/assets/style.css",
        "/api/catalog",
        "/api/position?position=standard",
    ] {
        let (status, plain_headers, plain) = get_with(&server, path, &[]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            plain_headers.get("content-encoding"),
            None,
            "{path}: not asked"
        );
        let (status, headers, zipped) = get_with(&server, path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            headers.get("content-encoding").map(String::as_str),
            Some("gzip"),
            "{path}"
        );
        assert!(
            headers
                .get("vary")
                .is_some_and(|v| v.to_lowercase().contains("accept-encoding")),
            "{path}: {headers:?}"
        );
        assert!(
            zipped.len() < plain.len(),
            "{path}: {} ≥ {}",
            zipped.len(),
            plain.len()
        );
        assert_eq!(gunzip(&zipped), plain, "{path}");
    }
}

#[test]
fn the_pages_files_carry_a_content_tag_and_a_matching_if_none_match_is_304() {
    let (_dir, server) = start("page-etag");
    let mut tags = BTreeSet::new();
    for path in ["/", "/assets/js/app.js", "/assets/style.css"] {
        let (status, headers, body) = get_with(&server, path, &[]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            headers.get("cache-control").map(String::as_str),
            Some("no-cache"),
            "{path}"
        );
        let etag = headers
            .get("etag")
            .unwrap_or_else(|| panic!("{path}: no ETag"))
            .clone();
        // Weak: one tag for the gzipped answer and the plain one.
        assert!(
            etag.starts_with("W/\"") && etag.ends_with('"'),
            "{path}: {etag}"
        );
        assert!(tags.insert(etag.clone()), "{path}: the tag of another file");

        let (again, _, _) = get_with(&server, path, &[]);
        assert_eq!(again, 200);
        for asked in [etag.clone(), format!("\"other\", {}", &etag[2..])] {
            let (status, headers, body) = get_with(
                &server,
                path,
                &[("If-None-Match", &asked), ("Accept-Encoding", "gzip")],
            );
            assert_eq!(status, 304, "{path} with {asked}");
            assert!(body.is_empty(), "{path}: a 304 has no body");
            assert_eq!(headers.get("etag"), Some(&etag), "{path}");
        }
        let (status, _, changed) = get_with(&server, path, &[("If-None-Match", "\"other\"")]);
        assert_eq!(status, 200, "{path}: another version");
        assert_eq!(changed, body);
    }
}

#[test]
fn refusals_say_their_kind_and_the_refused_text_as_data() {
    let (_dir, server) = start("page-kinds");
    for (path, status, kind, input) in [
        (
            "/api/position?variant=hexagonal&position=start".to_string(),
            400,
            "bad_variant",
            Some("hexagonal"),
        ),
        (
            "/api/position?position=nonsense".to_string(),
            400,
            "bad_position",
            Some("nonsense"),
        ),
        (
            "/api/position?position=standard&selected=Z9".to_string(),
            400,
            "bad_cell",
            Some("Z9"),
        ),
        (
            "/api/diagram?position=standard&highlight=zz".to_string(),
            400,
            "bad_move",
            Some("zz"),
        ),
        (
            "/api/classes?value=maybe".to_string(),
            400,
            "bad_value",
            Some("maybe"),
        ),
        (
            format!("/api/classes?value=loss&variant={}", encode("board=8x8")),
            422,
            "variant_too_large",
            None,
        ),
        (
            "/api/games/0123456789abcdef".to_string(),
            404,
            "no_game",
            Some("0123456789abcdef"),
        ),
        ("/api/nowhere".to_string(), 404, "not_found", None),
        (
            "/api/classes?value=loss&depth=3".to_string(),
            400,
            "bad_request",
            None,
        ),
    ] {
        let reply = server.get(&path);
        assert_eq!(reply.status, status, "{path}: {}", reply.body);
        assert_eq!(reply.body["kind"], kind, "{path}: {}", reply.body);
        assert_eq!(
            reply.body["input"].as_str(),
            input,
            "{path}: {}",
            reply.body
        );
        assert!(!reply.error().is_empty(), "{path}: the English words stay");
    }
    let created = server.create(json!({ "red": "human", "blue": "human" }));
    let id = created.id.clone();
    let state = created.body["state"].clone();
    let red = created.token_for(&state).to_string();
    let wrong = server.play(&id, &red, 1, "A1,A2,A3,B1");
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    assert_eq!(wrong.body["kind"], "illegal_move");
    assert_eq!(wrong.body["reason"]["kind"], "occupied");
    let stale = server.play(&id, &red, 5, &a_legal_move(&state, 0));
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert_eq!(stale.body["kind"], "stale_move");
}
