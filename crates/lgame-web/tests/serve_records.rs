//! Records of games (docs/api.md, `POST /api/records`): a line of moves written as a record
//! reads back as the same game, with the library's result; an illegal move named by its
//! ply; a request that is a record or moves, never both nor neither; end to end over HTTP
//! on a loopback port.

use lgame::{Game, Move, Record, Rules};
use lgame_solver::{Tablebase, Wdl};
use lgame_test_support::library::{after_moves, position, replay, rules};
use lgame_test_support::server::Server;
use serde_json::{json, Value};

#[test]
fn a_line_written_as_a_record_reads_back_as_the_same_game() {
    let (_dir, server) = Server::in_temp_dir("page-records");
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
    let (_dir, server) = Server::in_temp_dir("page-records-end");
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
    let (_dir, server) = Server::in_temp_dir("page-records-illegal");
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
    let (_dir, server) = Server::in_temp_dir("page-records-shape");
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
