//! The engine's JSON interface on the host (the same code as the `.wasm`): refusals are
//! answers with the API's kinds, never a panic; a game replays its moves through the rules
//! and the computer replies; a record read back gives the same game.

use lgame_wasm::call;
use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    serde_json::from_str(&call(&request.to_string())).expect("the answer is JSON")
}

#[test]
fn bad_requests_are_refused_with_the_apis_kinds_never_a_panic() {
    let refused = |request: &str| -> Value { serde_json::from_str(&call(request)).unwrap() };
    assert_eq!(refused("not json")["kind"], "unservable");
    assert_eq!(refused("{\"op\": \"fly\"}")["kind"], "unservable");
    assert_eq!(refused("{\"op\": 7}")["kind"], "unservable");
    let bad = ask(json!({ "op": "position", "variant": "hexagonal", "position": "start" }));
    assert_eq!(bad["kind"], "bad_variant", "{bad}");
    let bad = ask(json!({ "op": "position", "position": "nonsense" }));
    assert_eq!(bad["kind"], "bad_position", "{bad}");
    let bad = ask(json!({ "op": "position", "position": "start", "selected": "Z9" }));
    assert_eq!(bad["kind"], "bad_cell", "{bad}");
    let bad = ask(json!({ "op": "game", "red": "grandmaster" }));
    assert_eq!(bad["kind"], "bad_player", "{bad}");
    let bad = ask(json!({ "op": "analysis", "variant": "board=8x8", "position": "start" }));
    assert!(bad["error"].is_string(), "{bad}");
    let bad = ask(json!({ "op": "classes", "value": "victory" }));
    assert_eq!(bad["kind"], "bad_value", "{bad}");
    let bad = ask(json!({ "op": "classes", "variant": "hexagonal", "value": "win" }));
    assert_eq!(bad["kind"], "bad_variant", "{bad}");
    let bad = ask(json!({ "op": "classes", "value": "win", "plies": -1 }));
    assert_eq!(bad["kind"], "bad_request", "{bad}");
}

#[test]
fn the_classic_games_lost_classes_are_its_29_shortest_first() {
    let lost = ask(json!({ "op": "classes", "value": "loss" }));
    let lost = &lost["ok"];
    assert_eq!(lost["total"], 29, "{lost}");
    let plies: Vec<u64> = lost["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["plies"].as_u64().unwrap())
        .collect();
    assert_eq!(plies.len(), 29);
    assert!(plies.windows(2).all(|w| w[0] <= w[1]), "{plies:?}");
    let distances: Vec<u64> = serde_json::from_value(lost["distances"].clone()).unwrap();
    let mut seen = plies.clone();
    seen.dedup();
    assert_eq!(distances, seen);
    // One distance only: the classes at it, and their count.
    let at = ask(json!({ "op": "classes", "value": "loss", "plies": distances[0] }));
    let at = &at["ok"];
    let count = plies.iter().filter(|&&p| p == distances[0]).count();
    assert_eq!(at["total"], count, "{at}");
    assert_eq!(
        at["positions"],
        json!(lost["positions"].as_array().unwrap()[..count])
    );
    assert_eq!(at["distances"], lost["distances"]);
}

#[test]
fn an_illegal_move_is_refused_with_the_rules_reason_as_data() {
    // Red's L may not stay where it stands.
    let start = ask(json!({ "op": "position", "position": "start" }));
    let red: Vec<String> = serde_json::from_value(start["ok"]["pieces"]["red"].clone()).unwrap();
    let illegal = ask(json!({ "op": "game", "moves": [red.join(",")] }));
    assert_eq!(illegal["kind"], "illegal_move", "{illegal}");
    assert!(illegal["reason"]["kind"].is_string(), "{illegal}");
}

#[test]
fn the_computer_replies_to_a_persons_move_and_its_game_reads_back_from_its_record() {
    let start = ask(json!({ "op": "position", "position": "start" }));
    let first = start["ok"]["moves"][0]["move"].clone();
    let game = ask(
        json!({ "op": "game", "moves": [first], "red": "human", "blue": "perfect", "seed": 1 }),
    );
    let game = &game["ok"];
    assert_eq!(
        game["plies"], 2,
        "the person's move and the computer's reply: {game}"
    );
    assert_eq!(game["turn"], "red");
    // The same seed gives the same reply.
    let again = ask(
        json!({ "op": "game", "moves": [first], "red": "human", "blue": "perfect", "seed": 1 }),
    );
    assert_eq!(again["ok"]["moves"], game["moves"]);
    let read = ask(json!({ "op": "records", "record": game["record"] }));
    assert_eq!(read["ok"]["moves"], game["moves"], "{read}");
    assert_eq!(read["ok"]["positions"], game["positions"]);
    // A resignation ends it.
    let resigned = ask(json!({ "op": "game", "moves": game["moves"], "resigned": "red" }));
    assert_eq!(resigned["ok"]["over"], true);
    assert_eq!(resigned["ok"]["result"], "0-1");
}

#[test]
fn the_classic_game_solves_to_its_documented_count_of_positions() {
    // docs/rules.md: 18,368 positions of the classic game with the player to move.
    let solved = ask(json!({ "op": "solve" }));
    assert_eq!(solved["ok"]["positions"], 18_368, "{solved}");
}
