//! The analysis board, the editor and the puzzles in a real browser (see `web_page.rs`):
//! values equal to the solver's, a position built and reopened by its address, a puzzle
//! solved against the longest defence, a record imported, stepped through and exported.

mod browser_common;

use browser_common::*;
use lgame::{Position, Rules};
use lgame_solver::Tablebase;
use lgame_test_support::browser;
use lgame_test_support::http::encode;
use serde_json::{json, Value};

#[test]
fn the_analysis_toggle_shows_the_values_lgame_analyze_gives() {
    let bench = bench("web-analysis");
    let (id, token, address) = bench.red_game("perfect", json!({"setup": "kit"}));
    let (best, _) = best_move(&bench, "classic", "kit");
    let mv = best["move"].as_str().unwrap();
    assert_eq!(bench.server.play(&id, &token, 1, mv).status, 200);
    let position = bench.server.state(&id)["position"]
        .as_str()
        .unwrap()
        .to_string();

    let page = bench.driver.session();
    bench.open(&page, &address);
    wait_for_ply(&page, 2);
    page.find(".toggle-analysis").click();
    page.wait_until("the moves' values", || {
        js(
            &page,
            "return document.querySelectorAll('.move-row').length",
        )
        .as_u64()
        .unwrap_or(0)
            > 0
    });
    let shown = js(
        &page,
        "return [...document.querySelectorAll('.move-row')].map(r => [r.dataset.move, r.dataset.value, r.dataset.plies])",
    );
    let value = js(
        &page,
        "const v = document.querySelector('.position-value'); return [v.dataset.value, v.dataset.plies]",
    );

    // What `lgame analyze --json POSITION` prints: the solver's analysis of the classic
    // game's position, serialised.
    let classic = Rules::classic();
    let analysed = Tablebase::solve(&classic)
        .analyze(&Position::from_text(&position, &classic).unwrap())
        .expect("the position's analysis");
    let analysis: Value = serde_json::to_value(analysed).expect("analyze --json");
    let expected: Vec<Value> = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            json!([
                m["move"],
                m["value"],
                m["plies"]
                    .as_u64()
                    .map(|p| p.to_string())
                    .unwrap_or_default()
            ])
        })
        .collect();
    assert_eq!(shown, Value::Array(expected), "the page's moves and values");
    let plies = analysis["plies"]
        .as_u64()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert_eq!(value, json!([analysis["value"], plies]));

    // Every placement's badge is the best value among the moves that put the L there.
    let placements = js(
        &page,
        "return [...document.querySelectorAll('.placement')].map(p => [p.dataset.l, p.dataset.value])",
    );
    let placements = placements.as_array().unwrap();
    assert!(!placements.is_empty());
    let desc = bench.describe("classic", &position);
    for p in placements {
        let l = p[0].as_str().unwrap();
        let first = analysis["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| {
                let entry = desc["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["move"] == m["move"])
                    .unwrap();
                let mut cells: Vec<&str> = entry["l"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                cells.sort();
                cells.join(",") == l
            })
            .unwrap();
        assert_eq!(p[1], first["value"], "placement {l}");
    }
    page.screenshot(artifacts_dir().join("web-analysis.png"));
    no_console_errors(&page);
}

#[test]
fn the_board_editor_builds_a_position_and_its_address_reopens_it() {
    let bench = bench("web-editor");
    let page = bench.driver.session();
    bench.open(&page, "#/editor");
    page.find("button.clear").click();
    let place = |tool: &str, cells: &[&str]| {
        page.find(&format!("[data-tool={tool}]")).click();
        for c in cells {
            click_cell(&page, c);
        }
    };
    place("red", &["A1", "A2", "A3", "B3"]);
    place("blue", &["C4", "D4", "D3", "D2"]);
    place("neutral", &["B1", "C2"]);
    page.find("input[name=turn][value=blue]").click();

    let expected = "..BB/RR.B/R.NB/RN.. b";
    Position::from_text(expected, &Rules::classic()).expect("the test's position is one");
    let verdict = page.find(".verdict");
    page.wait_until("the editor to accept the position", || {
        verdict.attr("data-valid").as_deref() == Some("true")
            && page.find(".position-text").text() == expected
    });
    let address = page.url();
    assert!(address.contains("#/editor?"), "{address}");

    let again = bench.driver.session();
    again.goto(&address);
    wait_for_view(&again);
    let verdict = again.find(".verdict");
    again.wait_until("the reopened position", || {
        verdict.attr("data-valid").as_deref() == Some("true")
    });
    assert_eq!(again.find(".position-text").text(), expected);

    // "Analyse this position" opens it on the analysis board.
    again.find("a.analyse").click();
    again.wait_until("the analysis board", || again.url().contains("#/analyse?"));
    let shown = again.find(".status");
    again.wait_until("the position on the analysis board", || {
        shown.attr("data-position").as_deref() == Some(expected)
    });
    no_console_errors(&page);
    no_console_errors(&again);
}

/// `/api/analysis` of a classic position.
fn analysis(bench: &Bench, position: &str) -> Value {
    let reply = bench.server.get(&format!(
        "/api/analysis?variant=classic&position={}",
        encode(position)
    ));
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body
}

#[test]
fn a_puzzle_is_solved_move_by_move_against_the_longest_defence() {
    let bench = bench("web-puzzles");
    // The first "win in 2" of the classic game: Red wins in 3 plies.
    let classes = bench
        .server
        .get("/api/classes?variant=classic&value=win&plies=3");
    let start = classes.body["positions"][0]["position"]
        .as_str()
        .unwrap()
        .to_string();
    let page = bench.driver.session();
    bench.open(&page, "#/puzzles?variant=classic&grade=2&n=1");
    wait_for_my_turn(&page);

    // A move that does not win is refused, and the puzzle stays where it was.
    let first = analysis(&bench, &start);
    let moves = first["moves"].as_array().unwrap();
    if let Some(weak) = moves.iter().find(|m| m["value"] != "win") {
        let input = page.find(".notation-input");
        input.send_keys(weak["move"].as_str().unwrap());
        page.find(".notation-play").click();
        let message = page.find(".move-message");
        page.wait_until("the refusal", || {
            message.attr("data-kind").as_deref() == Some("refused")
        });
        wait_for_my_turn(&page);
    }

    // The quickest win, Blue's longest resistance, the quickest win again: solved.
    let desc = bench.describe("classic", &start);
    let win = desc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == moves[0]["move"])
        .unwrap()
        .clone();
    assert_eq!(moves[0]["plies"], 3);
    play_by_clicking(&page, &win, &desc);
    let after = win["position"].as_str().unwrap();
    let defence = analysis(&bench, after);
    let reply = defence["moves"][0]["position"]
        .as_str()
        .unwrap()
        .to_string();
    wait_for_my_turn(&page);
    let (finish, desc) = best_move(&bench, "classic", &reply);
    assert_eq!(analysis(&bench, &reply)["plies"], 1);
    play_by_clicking(&page, &finish, &desc);
    page.wait_until("the puzzle to be solved", || {
        page.find(".status").text().starts_with("Solved")
    });
    let progress = js(&page, "return localStorage.getItem('lgame.puzzles')");
    assert!(
        progress
            .as_str()
            .unwrap_or("")
            .contains(&format!("classic|{start}")),
        "progress kept: {progress}"
    );
    page.screenshot(artifacts_dir().join("web-puzzle-solved.png"));
    no_console_errors(&page);
}

#[test]
fn the_analysis_board_imports_a_record_steps_through_it_and_exports_it() {
    let bench = bench("web-records");
    let (m1, _) = best_move(&bench, "classic", "kit");
    let p1 = m1["position"].as_str().unwrap();
    let (m2, _) = best_move(&bench, "classic", p1);
    let written = bench.server.post(
        "/api/records",
        &json!({"variant": "classic", "start": "kit", "moves": [m1["move"], m2["move"]]}),
    );
    assert_eq!(written.status, 200, "{}", written.body);
    let record = written.body["record"].as_str().unwrap();
    let end = m2["position"].as_str().unwrap();

    let page = bench.driver.session();
    bench.open(&page, "#/analyse");
    page.find(".record-panel summary").click();
    page.find(".record-text").send_keys(record);
    page.find("button.import").click();
    let shown = page.find(".status");
    page.wait_until("the record's last position", || {
        shown.attr("data-position").as_deref() == Some(end)
    });
    assert_eq!(page.find_all(".move-list button").len(), 2);

    // Home, ←, End: the line's start, one back, its end (keys outside the board and fields).
    page.execute(
        "document.activeElement.blur(); document.body.focus()",
        vec![],
    );
    let start = written.body["start"].as_str().unwrap().to_string();
    for (key, expected) in [
        (browser::KEY_HOME, start.as_str()),
        (browser::KEY_END, end),
        (browser::KEY_LEFT, p1),
    ] {
        page.send_keys_to_page(key);
        page.wait_until(&format!("the position {expected}"), || {
            shown.attr("data-position").as_deref() == Some(expected)
        });
    }
    assert!(page.url().contains("at=1"), "{}", page.url());

    // Export writes the same record back.
    page.find("button.export").click();
    let text = page.find(".record-text");
    page.wait_until("the exported record", || {
        text.prop("value").as_str() == Some(record)
    });
    no_console_errors(&page);
}
