//! The catalogue of position classes (docs/api.md, `GET /api/classes`): the classic lost
//! and won classes at their distances, each with the solver's own value, and refusals of
//! an unknown value or a variant too big to solve; end to end over HTTP on a loopback port.

use std::collections::BTreeMap;

use lgame::{Color, Position, Rules};
use lgame_solver::{Tablebase, Wdl};
use lgame_test_support::http::encode;
use lgame_test_support::server::Server;
use serde_json::{json, Value};

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
    let (_dir, server) = Server::in_temp_dir("page-classes");
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
    let (_dir, server) = Server::in_temp_dir("page-classes-win");
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
    let (_dir, server) = Server::in_temp_dir("page-classes-bad");
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
