//! Ratings on the page (issue #25), in Chromium: rated games made through the API between two
//! accounts (a rated seek taken, then a resignation) show on a profile as the rating with
//! its deviation ("?" while provisional) and a chart whose points are the API's history;
//! the leaderboard lists the established players and links to their profiles; and two
//! accounts in two browser profiles play a rated game from the lobby, each seeing the
//! other's rating, no analysis while it goes on, and the ratings' change after it.

use crate::browser_common;

use browser_common::{
    api_account, bench, choose_seek, game_of, js, no_console_errors, resign_in_page, sign_up_on,
    type_a_move, wait_for_ply, Bench,
};
use lgame_test_support::accounts::Browser;
use lgame_test_support::browser::Session;
use lgame_test_support::http::quiet_moves;
use serde_json::{json, Value};

/// One rated blitz game: `winner` seeks it as Red, `loser` takes it, both move (a game is
/// rated once both sides have moved), and the loser resigns.
fn rated_game(bench: &Bench, winner: &Browser, loser: &Browser) {
    let seek = winner.post(
        "/api/seeks",
        &json!({ "clock": { "initial_s": 180, "increment_s": 2 }, "colour": "red", "rated": true }),
    );
    assert_eq!(seek.status, 201, "{:?}", seek.body);
    assert_eq!(seek.body["seek"]["category"], "blitz", "{:?}", seek.body);
    let id = seek.body["id"].as_str().unwrap();
    let game = loser.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(game.status, 201, "{:?}", game.body);
    let game = game.body["id"].as_str().unwrap().to_string();
    let state = bench.server.state(&game);
    assert_eq!(state["rated"], true, "{state}");
    let moved = winner.post(
        &format!("/api/games/{game}/moves"),
        &json!({ "side": "red", "ply": 1, "move": quiet_moves(&state)[0] }),
    );
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    let state = bench.server.state(&game);
    let moved = loser.post(
        &format!("/api/games/{game}/moves"),
        &json!({ "side": "blue", "ply": 2, "move": quiet_moves(&state)[0] }),
    );
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    let resigned = loser.post(&format!("/api/games/{game}/resign"), &json!({}));
    assert_eq!(resigned.status, 200, "{:?}", resigned.body);
}

/// `name`'s blitz rating as the API gives it.
fn blitz(bench: &Bench, name: &str) -> Value {
    let reply = bench.server.get(&format!("/api/users/{name}/ratings"));
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["category"] == "blitz")
        .cloned()
        .expect("a blitz rating")
}

/// Opens `name`'s profile and waits for its blitz chart; answers the card's rating text and
/// the chart's points (their ratings, in order).
fn profile_chart(bench: &Bench, page: &Session, name: &str) -> (String, Vec<i64>) {
    page.goto(&bench.server.url(&format!("/@/{name}")));
    page.wait_until("the blitz chart", || {
        page.try_find(".rating-card[data-category=blitz] svg.rating-chart")
            .is_some()
    });
    let text = page
        .find(".rating-card[data-category=blitz] .rating-value strong")
        .text();
    let points = js(
        page,
        "return [...document.querySelectorAll('.rating-card[data-category=blitz] .rating-point')].map(c => Number(c.dataset.rating))",
    );
    let points = points
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    (text, points)
}

/// The API's history of a rating, rounded as the chart draws it.
fn history(rating: &Value) -> Vec<i64> {
    rating["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rating"].as_f64().unwrap().round() as i64)
        .collect()
}

#[test]
fn the_profile_charts_the_rating_history_and_the_leaderboard_lists_the_established() {
    let bench = bench("web-ratings-profile");
    let (ann, bob) = (api_account(&bench, "ann"), api_account(&bench, "bob"));
    rated_game(&bench, &ann, &bob);
    rated_game(&bench, &bob, &ann);
    let page = bench.driver.phone();
    // Two games: provisional, shown with "?", the chart's two points the API's.
    let rating = blitz(&bench, "ann");
    assert_eq!(rating["provisional"], true, "{rating}");
    let (text, points) = profile_chart(&bench, &page, "ann");
    assert_eq!(
        text,
        format!("{}?", rating["rating"].as_f64().unwrap().round())
    );
    assert_eq!(points, history(&rating));
    assert_eq!(points.len(), 2);
    let label = page
        .find(".rating-card[data-category=blitz] svg.rating-chart")
        .attr("aria-label")
        .unwrap_or_default();
    assert!(label.contains("Blitz") && label.contains("(2)"), "{label}");
    // Until both are established (the leaderboard lists no provisional player).
    let mut games = 2;
    // (Ann wins two games of three: results too one-sided would tell Glicko-2 too little.)
    while blitz(&bench, "ann")["provisional"] == true || blitz(&bench, "bob")["provisional"] == true
    {
        if games % 3 == 2 {
            rated_game(&bench, &bob, &ann);
        } else {
            rated_game(&bench, &ann, &bob);
        }
        games += 1;
        assert!(games < 60, "still provisional after {games} games");
    }
    let rating = blitz(&bench, "ann");
    let (text, points) = profile_chart(&bench, &page, "ann");
    assert_eq!(
        text,
        format!(
            "{} ± {}",
            rating["rating"].as_f64().unwrap().round(),
            rating["deviation"].as_f64().unwrap().round()
        )
    );
    assert_eq!(points, history(&rating));
    assert_eq!(points.len(), games);
    let accuracy = page.try_text(".rating-card[data-category=blitz] .rating-accuracy");
    assert_eq!(
        accuracy.is_some(),
        !rating["accuracy"].is_null(),
        "{accuracy:?} {rating}"
    );
    page.screenshot(browser_common::artifacts_dir().join("ratings-profile-phone.png"));

    // The leaderboard: reached from the navigation, ann first, each name a profile's link.
    bench.open(&page, "#/play");
    js(
        &page,
        "document.querySelector('#nav a[href$=\"#/leaderboard\"]').click()",
    );
    page.wait_until("the blitz leaderboard", || {
        page.try_find("table.leaders[data-category=blitz] tbody tr")
            .is_some()
    });
    let rows = js(
        &page,
        "return [...document.querySelectorAll('table.leaders tbody tr')].map(r => [r.querySelector('.rank').textContent, r.dataset.username, r.querySelector('.rating').textContent, r.querySelector('.games').textContent])",
    );
    let board = bench.server.get("/api/leaderboard/blitz").body;
    let expected: Vec<Value> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            json!([
                p["rank"].to_string(),
                p["username"],
                format!("{}", p["rating"].as_f64().unwrap().round()),
                p["games"].to_string()
            ])
        })
        .collect();
    assert_eq!(rows, json!(expected));
    assert_eq!(rows[0][1], "ann", "{rows}");
    // Another category: nobody rated in it.
    js(&page, "const s = document.querySelector('#leaders-category'); s.value = 'rapid'; s.dispatchEvent(new Event('change'))");
    page.wait_until("the empty rapid board", || {
        page.try_find(".leaders-none").is_some()
    });
    assert!(
        page.url().ends_with("#/leaderboard/rapid"),
        "{}",
        page.url()
    );
    page.refresh();
    page.wait_until("the rapid board again", || {
        page.try_find(".leaders-none").is_some()
    });
    js(&page, "const s = document.querySelector('#leaders-category'); s.value = 'blitz'; s.dispatchEvent(new Event('change'))");
    page.wait_until("the blitz board", || {
        page.try_find("table.leaders tr[data-username=bob] a")
            .is_some()
    });
    page.find("table.leaders tr[data-username=bob] a").click();
    page.wait_until("bob's profile", || {
        page.try_text(".profile-name").as_deref() == Some("bob")
    });
    no_console_errors(&page);
}

/// Whether the page offers analysis: its link shown.
fn analysis_offered(page: &Session) -> bool {
    js(
        page,
        "const a = document.querySelector('.open-analysis'); return !!a && !a.hidden",
    ) == true
}

#[test]
fn a_rated_game_from_the_lobby_shows_both_ratings_hides_analysis_and_tells_the_change() {
    let bench = bench("web-ratings-lobby");
    let (ann, bob) = (bench.driver.session(), bench.driver.phone());
    // Nobody logged in: no rated choice.
    bench.open(&ann, "#/play");
    ann.wait_until("the seek form", || ann.try_find(".seek-form").is_some());
    assert!(!ann.find(".seek-rated-label").is_displayed());
    assert!(!ann.find(".pool-rated-label").is_displayed());
    sign_up_on(&bench, &ann, "ann");
    sign_up_on(&bench, &bob, "bob");
    bench.open(&ann, "#/play");
    bench.open(&bob, "#/play");
    ann.wait_until("the rated choice", || {
        ann.try_find(".seek-rated-label")
            .is_some_and(|l| l.is_displayed())
    });
    choose_seek(&ann, "3+2", "red");
    // Rated is what an account's seek is unless the player unticks it.
    assert_eq!(ann.find(".seek-form .seek-rated").prop("checked"), true);
    ann.find(".seek-create").click();
    bob.wait_until("ann's rated seek", || {
        bob.try_find(".seeks tr[data-rated=true] .seek-accept")
            .is_some()
    });
    let rating = bob.find(".seeks tr[data-rated=true] .seek-rating").text();
    assert_eq!(rating, "1500?");
    assert_eq!(
        bob.find(".seeks tr[data-rated=true] .seek-mode").text(),
        "Rated"
    );
    bob.find(".seeks tr[data-rated=true] .seek-accept").click();
    bob.wait_until("bob's game", || game_of(&bob).is_some());
    let id = game_of(&bob).unwrap();
    ann.wait_until("ann's game", || {
        game_of(&ann).as_deref() == Some(id.as_str())
    });
    for page in [&ann, &bob] {
        page.wait_until("the players' ratings", || {
            page.try_find(".players .player-rating").is_some()
        });
        let shown = js(
            page,
            "return [...document.querySelectorAll('.players .player-rating')].map(r => r.textContent.trim())",
        );
        assert_eq!(shown, json!(["1500?", "1500?"]));
        assert!(page.find(".game-rated").text().contains("Blitz"));
        assert!(
            !analysis_offered(page),
            "no analysis during one's rated game"
        );
    }
    // Ann (Red) moves, then Bob (a game is rated once both sides have moved); Bob resigns.
    type_a_move(&bench, &ann, &id);
    wait_for_ply(&bob, 1);
    type_a_move(&bench, &bob, &id);
    wait_for_ply(&ann, 2);
    resign_in_page(&bob);
    bob.wait_until("the end", || bench.server.state(&id)["over"] == true);
    let after = bench.server.state(&id)["ratings"].clone();
    let expected = |side: &str| {
        let (b, a) = (
            after[side]["before"]["rating"].as_f64().unwrap().round() as i64,
            after[side]["after"]["rating"].as_f64().unwrap().round() as i64,
        );
        let q = |p: &Value| if p == &json!(true) { "?" } else { "" };
        let change = a - b;
        let signed = if change > 0 {
            format!("+{change}")
        } else if change == 0 {
            "±0".to_string()
        } else {
            format!("−{}", -change)
        };
        format!(
            "{b}{} → {a}{} ({signed})",
            q(&after[side]["before"]["provisional"]),
            q(&after[side]["after"]["provisional"])
        )
    };
    for page in [&ann, &bob] {
        page.wait_until("the ratings' change", || {
            js(
                page,
                "return [...document.querySelectorAll('.players .player-rating')].every(r => r.textContent.includes('→'))",
            ) == true
        });
        let shown = js(
            page,
            "return [...document.querySelectorAll('.players .player-rating')].map(r => r.textContent.trim())",
        );
        assert_eq!(shown, json!([expected("red"), expected("blue")]));
        page.wait_until("the analysis back", || analysis_offered(page));
    }
    no_console_errors(&ann);
    no_console_errors(&bob);
}
