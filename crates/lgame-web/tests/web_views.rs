//! The analysis board, the editor and the puzzles in a real browser (see `web_page.rs`):
//! values equal to the solver's, a position built and reopened by its address, a puzzle
//! solved against the longest defence, a record imported, stepped through and exported.

use crate::browser_common;

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
                l_key(entry) == l
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
    play_by_clicking(&page, &win);
    let after = win["position"].as_str().unwrap();
    let defence = analysis(&bench, after);
    let reply = defence["moves"][0]["position"]
        .as_str()
        .unwrap()
        .to_string();
    wait_for_my_turn(&page);
    let (finish, _) = best_move(&bench, "classic", &reply);
    assert_eq!(analysis(&bench, &reply)["plies"], 1);
    play_by_clicking(&page, &finish);
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
    // The wrong move broke the streak; the grade counts one solved.
    assert_eq!(score(&page), (0, 1));
    page.screenshot(artifacts_dir().join("web-puzzle-solved.png"));

    // The next puzzle follows by one button, and solving it cleanly starts a streak.
    page.find(".puzzles-continue").click();
    page.wait_until("the next puzzle", || page.url().contains("n=2"));
    let next = classes.body["positions"][1]["position"]
        .as_str()
        .unwrap()
        .to_string();
    solve_puzzle(&bench, &page, &next);
    page.wait_until("the streak of one", || score(&page) == (1, 2));
    let stored = js(
        &page,
        "return JSON.parse(localStorage.getItem('lgame.puzzles.streak')).current",
    );
    assert_eq!(stored, json!(1));
    // Kept: a new visit shows the same streak.
    page.refresh();
    wait_for_my_turn(&page);
    page.wait_until("the streak kept", || score(&page).0 == 1);
    no_console_errors(&page);
}

/// The puzzle's streak and the count solved in its grade, as the page shows them.
fn score(page: &browser::Session) -> (u64, u64) {
    let v = js(
        page,
        "const s = document.querySelector('.puzzles-score'); return s ? [s.dataset.streak, s.dataset.gradeSolved] : []",
    );
    let n = |i: usize| {
        v[i].as_str()
            .and_then(|x| x.parse().ok())
            .unwrap_or(u64::MAX)
    };
    (n(0), n(1))
}

/// Solves the puzzle open at `start` by the solver's quickest win against Blue's longest
/// defence, clicking each move once the board takes it.
fn solve_puzzle(bench: &Bench, page: &browser::Session, start: &str) {
    let mut position = start.to_string();
    let mut played = 0;
    loop {
        page.wait_until("the moves so far", || {
            js(
                page,
                "return document.querySelectorAll('[aria-labelledby=puzzles-moves-heading] li').length",
            ) == json!(played)
        });
        wait_for_my_turn(page);
        let (win, _) = best_move(bench, "classic", &position);
        play_by_clicking(page, &win);
        let after = analysis(bench, win["position"].as_str().unwrap());
        if after["plies"] == 0 {
            break;
        }
        position = after["moves"][0]["position"].as_str().unwrap().to_string();
        played += 2;
    }
    page.wait_until("the puzzle solved", || {
        page.find(".status").text().starts_with("Solved")
    });
}

#[test]
fn the_puzzle_board_comes_first_on_a_phone_with_the_choices_folded_away() {
    let bench = bench("web-puzzles-phone");
    let page = bench.driver.phone();
    bench.open(&page, "#/puzzles?variant=classic&grade=1&n=1");
    wait_for_my_turn(&page);
    let fold = js(
        &page,
        "const b = document.querySelector('.board-svg').getBoundingClientRect(); return [b.bottom <= innerHeight, b.width > 250, document.querySelector('.puzzles-options').open]",
    );
    assert_eq!(
        fold,
        json!([true, true, false]),
        "board above the fold, choices folded"
    );
    page.screenshot(artifacts_dir().join("web-puzzles-phone.png"));
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

/// The mark a move earns, from the solver's values of the positions before and after it
/// (each for its side to move), as docs/web.md defines them: `blunder` when a win or a draw
/// becomes a loss, `mistake` when a win becomes a draw.
fn expected_mark(before: &Value, after: &Value) -> (String, String, &'static str) {
    let before = before["value"].as_str().unwrap().to_string();
    let mover_after = match after["value"].as_str().unwrap() {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    }
    .to_string();
    let mark = match (before.as_str(), mover_after.as_str()) {
        ("win" | "draw", "loss") => "blunder",
        ("win", "draw") => "mistake",
        _ => "",
    };
    (before, mover_after, mark)
}

/// A line from the kit's setup that starts with its worst move, then the best replies: the
/// moves, and the positions (the start first) as the server writes them.
fn line_with_a_bad_move(bench: &Bench) -> (Vec<String>, Vec<String>) {
    let kit = analysis(bench, "kit");
    let mut moves = vec![kit["moves"].as_array().unwrap().last().unwrap()["move"]
        .as_str()
        .unwrap()
        .to_string()];
    let mut at = kit["moves"].as_array().unwrap().last().unwrap()["position"]
        .as_str()
        .unwrap()
        .to_string();
    // Then the best replies, up to two, while the game goes on.
    for _ in 0..2 {
        if analysis(bench, &at)["moves"].as_array().unwrap().is_empty() {
            break;
        }
        let (best, _) = best_move(bench, "classic", &at);
        moves.push(best["move"].as_str().unwrap().to_string());
        at = best["position"].as_str().unwrap().to_string();
    }
    let written = bench.server.post(
        "/api/records",
        &json!({"variant": "classic", "start": "kit", "moves": moves}),
    );
    assert_eq!(written.status, 200, "{}", written.body);
    let mut positions = vec![written.body["start"].as_str().unwrap().to_string()];
    positions.extend(
        written.body["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string()),
    );
    (moves, positions)
}

#[test]
fn the_analysis_board_marks_each_move_by_the_solvers_values_and_its_chart_goes_to_a_ply() {
    let bench = bench("web-analysis-marks");
    let (moves, positions) = line_with_a_bad_move(&bench);
    let page = bench.driver.session();
    bench.open(
        &page,
        &format!(
            "#/analyse?variant=classic&position=kit&line={}&at={}",
            encode(&moves.join(";")),
            moves.len()
        ),
    );
    page.wait_until("every move's value change", || {
        js(
            &page,
            "return document.querySelectorAll('.move-list li .change[data-before]').length",
        ) == json!(moves.len())
    });
    let shown = js(
        &page,
        "return [...document.querySelectorAll('.move-list li')].map(li => { const c = li.querySelector('.change'); return [li.dataset.move, c.dataset.before, c.dataset.after, c.dataset.mark, c.getAttribute('aria-label')] })",
    );
    let values: Vec<Value> = positions.iter().map(|p| analysis(&bench, p)).collect();
    let mut marked = 0;
    for (i, mv) in moves.iter().enumerate() {
        let (before, after, mark) = expected_mark(&values[i], &values[i + 1]);
        let row = &shown[i];
        assert_eq!(
            (&row[0], &row[1], &row[2], &row[3]),
            (&json!(mv), &json!(before), &json!(after), &json!(mark)),
            "move {} of {shown}",
            i + 1
        );
        if !mark.is_empty() {
            marked += 1;
            // The mark is said in words too, not by colour and signs alone.
            let words = row[4].as_str().unwrap();
            assert!(
                words.contains(if mark == "blunder" {
                    "Blunder"
                } else {
                    "Mistake"
                }),
                "{words}"
            );
        }
    }
    assert!(
        marked > 0,
        "the kit's worst move throws something away: {shown}"
    );
    assert!(page.find(".legend").is_displayed());

    // The line ends in a finished position: its value, and no empty list of moves.
    page.wait_until("the end's value", || {
        js(
            &page,
            "return !!document.querySelector('.analysis .position-value')",
        ) == json!(true)
    });
    if analysis(&bench, positions.last().unwrap())["moves"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        let empty = js(
            &page,
            "return document.querySelectorAll('.analysis .placements, .analysis .moves-table, .analysis .show-best').length",
        );
        assert_eq!(empty, json!(0), "a finished position shows no empty panels");
    }

    // The chart covers the whole line, and a point goes to its ply.
    let points = js(
        &page,
        "return document.querySelectorAll('.chart [data-ply]').length",
    );
    assert_eq!(points, json!(positions.len()));
    page.find(".chart [data-ply='1']").click();
    let status = page.find(".status");
    page.wait_until("ply 1", || {
        status.attr("data-position").as_deref() == Some(positions[1].as_str())
    });
    assert!(page.url().contains("at=1"), "{}", page.url());
    page.wait_until("the chart marks ply 1", || {
        js(
            &page,
            "const c = document.querySelector('.chart .current'); return c && c.dataset.ply",
        ) == json!("1")
    });
    no_console_errors(&page);
}

#[test]
fn the_analysis_toggle_says_what_it_does_and_the_best_move_is_drawn_on_request() {
    let bench = bench("web-analysis-best");
    let page = bench.driver.session();
    bench.open(&page, "#/analyse?variant=classic&position=kit");
    let toggle = page.find(".toggle-analysis");
    assert_eq!(toggle.text(), "Hide analysis");
    toggle.click();
    assert_eq!(toggle.text(), "Show analysis");
    assert!(!page.find(".analysis-holder").is_displayed());
    toggle.click();
    assert_eq!(toggle.text(), "Hide analysis");

    let (best, _) = best_move(&bench, "classic", "kit");
    page.find(".show-best").click();
    let drawn = || {
        js(
            &page,
            "return [...document.querySelectorAll('.board-holder [data-cell] .l.preview')].map(r => r.closest('[data-cell]').dataset.cell).sort()",
        )
    };
    let mut cells: Vec<String> = best["l"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    cells.sort();
    page.wait_until("the best move's L on the board", || drawn() == json!(cells));
    let arrows = js(
        &page,
        "return document.querySelectorAll('.marks .preview-arrow').length",
    );
    assert_eq!(arrows, json!(best["neutrals"].as_array().unwrap().len()));
    assert_eq!(
        page.find(".show-best").attr("aria-pressed").as_deref(),
        Some("true")
    );
    page.find(".show-best").click();
    page.wait_until("the best move gone", || drawn() == json!([]));
    page.screenshot(artifacts_dir().join("web-analysis-board.png"));
    no_console_errors(&page);
}

#[test]
fn the_editor_shows_the_solvers_value_of_the_position_it_builds() {
    let bench = bench("web-editor-value");
    let page = bench.driver.session();
    // A position a move from the end: Red wins in one ply.
    let classes = bench
        .server
        .get("/api/classes?variant=classic&value=win&plies=1");
    let position = classes.body["positions"][0]["position"]
        .as_str()
        .unwrap()
        .to_string();
    bench.open(&page, &format!("#/editor?position={}", encode(&position)));
    let value = page.find(".editor-value");
    page.wait_until("the editor's value", || value.attr("data-value").is_some());
    let solver = analysis(&bench, &position);
    let plies = solver["plies"]
        .as_u64()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert_eq!(
        (value.attr("data-value"), value.attr("data-plies")),
        (
            Some(solver["value"].as_str().unwrap().to_string()),
            Some(plies)
        )
    );
    // Another side to move, another value: the solver's again.
    page.find("input[name=turn][value=blue]").click();
    let flipped = page.find(".position-text");
    page.wait_until("Blue to move", || flipped.text().ends_with(" b"));
    let other = flipped.text();
    let reply = bench.server.get(&format!(
        "/api/analysis?variant=classic&position={}",
        encode(&other)
    ));
    if reply.status == 200 {
        let plies = reply.body["plies"]
            .as_u64()
            .map(|p| p.to_string())
            .unwrap_or_default();
        page.wait_until("the new value", || {
            value.attr("data-value").as_deref() == reply.body["value"].as_str()
                && value.attr("data-plies") == Some(plies.clone())
        });
    } else {
        page.wait_until("no value for an illegal position", || !value.is_displayed());
    }
    no_console_errors(&page);
}

#[test]
fn learn_draws_its_diagrams_in_the_pages_style_and_each_opens_the_analysis_board() {
    let bench = bench("web-learn");
    let page = bench.driver.session();
    bench.open(&page, "#/learn");
    // No picture from the server: every diagram is the page's board.
    let images = js(
        &page,
        "return document.querySelectorAll('img[src*=\"/api/diagram\"]').length",
    );
    assert_eq!(images, json!(0));
    let diagrams = js(
        &page,
        "return document.querySelectorAll('a.learn-diagram .board-svg').length",
    );
    assert!(diagrams.as_u64().unwrap() > 3, "{diagrams}");
    // One part at a time: the first shown, the others hidden.
    let parts = js(
        &page,
        "return [...document.querySelectorAll('.learn-part')].map(p => p.hidden)",
    );
    assert_eq!(parts[0], json!(false), "{parts}");
    assert!(
        parts.as_array().unwrap()[1..].iter().all(|h| h == true),
        "{parts}"
    );

    // Its colours follow the theme.
    let square =
        "return getComputedStyle(document.querySelector('.learn-diagram .square.light')).fill";
    let light = js(&page, square);
    page.find("#theme").click();
    page.wait_until("the dark theme", || {
        js(&page, "return document.documentElement.dataset.theme") == json!("dark")
    });
    let dark = js(&page, square);
    assert_ne!(light, dark, "a diagram's squares change with the theme");

    // The contents show another part.
    page.find("#learn-toc a[data-part='learn-strategy']")
        .click();
    page.wait_until("the strategy part", || {
        js(
            &page,
            "return document.getElementById('learn-strategy').hidden",
        ) == json!(false)
            && js(
                &page,
                "return document.getElementById('learn-rules').hidden",
            ) == json!(true)
    });

    // In Russian, a diagram's only words are its description, in Russian; on the drawing,
    // the cells' letters and numbers.
    page.execute("localStorage.setItem('lgame.language', 'ru')", vec![]);
    page.refresh();
    wait_for_view(&page);
    let words = js(
        &page,
        "return [...document.querySelectorAll('.learn-diagram .board-svg')].map(s => [s.getAttribute('aria-label'), [...s.querySelectorAll('text')].map(t => t.textContent).join('')])",
    );
    let words = words.as_array().unwrap();
    assert!(!words.is_empty());
    for pair in words {
        let label = pair[0].as_str().unwrap();
        assert!(
            label.chars().any(|c| ('а'..='я').contains(&c)),
            "a Russian description: {label}"
        );
        let drawn = pair[1].as_str().unwrap();
        assert!(
            drawn.chars().all(|c| "ABCD1234".contains(c)),
            "no words on a diagram: {drawn}"
        );
    }
    page.find("#learn-toc a[data-part='learn-strategy']")
        .click();

    // A diagram opens its position on the analysis board.
    let link = page.find("#learn-strategy a.learn-diagram");
    let position = link.attr("data-position").unwrap();
    link.click();
    page.wait_until("the analysis board", || page.url().contains("#/analyse?"));
    let shown = page.find(".status");
    page.wait_until("the diagram's position", || {
        shown.attr("data-position").as_deref() == Some(position.as_str())
    });
    no_console_errors(&page);
}

/// The analysis board, the editor, puzzles and Learn on a desktop and on a phone, light in
/// English and dark in Russian: photographed, and no sideways scroll on the phone.
#[test]
fn the_views_are_photographed_and_fit_a_phone_in_both_languages() {
    let bench = bench("web-views-screens");
    let (moves, _) = line_with_a_bad_move(&bench);
    let analyse = format!(
        "#/analyse?variant=classic&position=kit&line={}&at=1",
        encode(&moves.join(";"))
    );
    let views = [
        ("analyse", analyse.as_str()),
        ("editor", "#/editor"),
        ("puzzles", "#/puzzles"),
        ("learn", "#/learn"),
    ];
    let dir = artifacts_dir();
    for (device, page) in [
        ("desktop", bench.driver.session()),
        ("phone", bench.driver.phone()),
    ] {
        for (theme, language) in [("light", "en"), ("dark", "ru")] {
            bench.open(&page, "#/learn");
            page.execute(
                "localStorage.setItem('lgame.theme', arguments[0]); localStorage.setItem('lgame.language', arguments[1])",
                vec![json!(theme), json!(language)],
            );
            for (name, address) in views {
                bench.open(&page, address);
                page.refresh();
                wait_for_view(&page);
                page.wait_until("the view's board", || {
                    js(&page, "return !!document.querySelector('main .board-svg')") == json!(true)
                });
                assert_eq!(
                    js(&page, "return document.documentElement.lang"),
                    json!(language)
                );
                page.screenshot(
                    dir.join(format!("web-view-{name}-{device}-{theme}-{language}.png")),
                );
                if name == "learn" {
                    // Its diagrams, too.
                    js(
                        &page,
                        "document.querySelector('#learn-example .learn-diagram').scrollIntoView()",
                    );
                    page.screenshot(dir.join(format!(
                        "web-view-learn-diagrams-{device}-{theme}-{language}.png"
                    )));
                }
                if device == "phone" {
                    // Every part of Learn, shown in turn (the widest table is in the third).
                    let wide = js(
                        &page,
                        "const parts = [...document.querySelectorAll('.learn-part')]; let widest = document.documentElement.scrollWidth; for (const p of parts) { parts.forEach(q => q.hidden = q !== p); widest = Math.max(widest, document.documentElement.scrollWidth); } return [widest, innerWidth]",
                    );
                    assert!(
                        wide[0].as_u64() <= wide[1].as_u64(),
                        "{name} ({language}) scrolls sideways: {wide}"
                    );
                }
            }
            no_console_errors(&page);
        }
    }
}

/// A value's distance is said with the number's plural in each language: "wins in 1 ply",
/// "wins in 3 plies"; "за 1 полуход", "за 3 полухода", "за 5 полуходов".
#[test]
fn a_values_distance_takes_the_plural_its_number_asks_for() {
    let bench = bench("web-plurals");
    let page = bench.driver.session();
    let words = |language: &str, plies: u64| {
        let classes = bench.server.get(&format!(
            "/api/classes?variant=classic&value=win&plies={plies}"
        ));
        let position = classes.body["positions"][0]["position"]
            .as_str()
            .unwrap_or_else(|| panic!("no win in {plies}: {}", classes.body))
            .to_string();
        bench.open(
            &page,
            &format!("#/analyse?variant=classic&position={}", encode(&position)),
        );
        js(
            &page,
            &format!("localStorage.setItem('lgame.language', '{language}')"),
        );
        page.refresh();
        wait_for_view(&page);
        // The analysis board shows the analysis from the start.
        page.wait_until("the position's value", || {
            js(
                &page,
                "return !!document.querySelector('.position-value .value')",
            ) == true
        });
        page.find(".position-value .value").text()
    };
    for (language, plies, expected) in [
        ("en", 1, "wins in 1 ply"),
        ("en", 3, "wins in 3 plies"),
        ("ru", 1, "выигрыш за 1 полуход"),
        ("ru", 3, "выигрыш за 3 полухода"),
        ("ru", 5, "выигрыш за 5 полуходов"),
    ] {
        let text = words(language, plies);
        assert!(text.ends_with(expected), "{language}, {plies}: {text}");
    }
    no_console_errors(&page);
}

#[test]
fn a_finished_game_shows_each_players_accuracy_against_the_solved_game() {
    let bench = bench("web-accuracy");
    // Red (the person) wins in 9 from here; Blue is the perfect player.
    let (id, token, address) = bench.red_game("perfect", json!({"setup": "..../N.BB/R.NB/RRRB r"}));
    let classic = Rules::classic();
    let table = Tablebase::solve(&classic);
    let mut state = bench.server.state(&id);
    while state["over"] == false {
        let position = Position::from_text(state["position"].as_str().unwrap(), &classic).unwrap();
        let best = table.best_moves(&position).unwrap()[0].to_string();
        let ply = state["plies"].as_u64().unwrap() + 1;
        let reply = bench.server.play(&id, &token, ply, &best);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = bench.server.state(&id);
    }
    let red = &state["accuracy"]["red"];
    assert_eq!(
        (red["kept"].as_u64(), red["scored"].as_u64()),
        (Some(5), Some(5))
    );

    let page = bench.driver.session();
    bench.open(&page, &address);
    page.wait_until("the accuracy under the result", || {
        js(
            &page,
            "return document.querySelectorAll('.end-accuracy li').length",
        )
        .as_u64()
            == Some(2)
    });
    let shown = js(
        &page,
        "return [...document.querySelectorAll('.end-accuracy li')].map(li => li.textContent)",
    );
    assert_eq!(
        shown,
        json!([
            "Red: accuracy 100 % (5 of 5 moves kept the value)",
            "Blue: no move to score (every move was made in a lost position)",
        ])
    );
    // And in Russian.
    page.find("#language option[value=ru]").click();
    let first = "return document.querySelector('.end-accuracy li')?.textContent ?? ''";
    page.wait_until("the accuracy in Russian", || {
        js(&page, first)
            .as_str()
            .is_some_and(|text| text.ends_with("точность 100 % (оценку сохранили 5 из 5 ходов)"))
    });
    no_console_errors(&page);
}
