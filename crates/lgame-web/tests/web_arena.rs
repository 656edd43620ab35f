//! Arenas on the page (issue #25), in Chromium: an account creates an arena with the page's
//! form and joins it; another account joins through the API and the two are paired; the
//! page goes to its player's game by itself, the game names its arena, and once the game has
//! ended through the API the page goes back to the arena after its countdown, where the
//! standings show the game; once the server's time passes the arena's end (`test_clock`) the
//! page shows the podium and offers no joining.

use crate::browser_common;

use browser_common::{api_account, bench_with, game_of, js, no_console_errors, sign_up_on, Bench};
use lgame_test_support::browser::Session;
use serde_json::{json, Value};

/// The arena as the API gives it.
fn arena(bench: &Bench, id: &str) -> Value {
    let reply = bench.server.get(&format!("/api/arenas/{id}"));
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body
}

/// The standings as the page shows them: each player's name and score.
fn standings_on(page: &Session) -> Value {
    js(
        page,
        "return [...document.querySelectorAll('table.standings tbody tr')].map(r => [r.dataset.username, r.querySelector('.score span').textContent])",
    )
}

/// The standings as the API gives them, as the page should show them.
fn standings_of(arena: &Value) -> Value {
    Value::Array(
        arena["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s["username"], s["score"].to_string()]))
            .collect(),
    )
}

/// `name`'s standing in the arena.
fn standing<'a>(arena: &'a Value, name: &str) -> &'a Value {
    arena["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["username"] == name)
        .unwrap_or_else(|| panic!("{name} is not in {arena}"))
}

/// The arena's id in the page's address, once there.
fn arena_of(page: &Session) -> Option<String> {
    let url = page.url();
    let (_, rest) = url.split_once("#/arena/")?;
    Some(rest.split(['?', '/']).next()?.to_string()).filter(|id| !id.is_empty())
}

#[test]
fn a_live_arenas_standings_follow_a_game_and_its_podium_shows_at_the_end() {
    let bench = bench_with("web-arena", |c| c.test_clock = true);
    let page = bench.driver.session();
    sign_up_on(&bench, &page, "cat");
    bench.open(&page, "#/arena");
    page.wait_until("the arena form", || {
        page.try_find(".arena-create").is_some()
    });
    page.execute(
        "document.querySelector('#arena-clock').value = '3+2'; \
         document.querySelector('#arena-minutes').value = '30';",
        vec![],
    );
    page.find(".arena-submit").click();
    page.wait_until("the new arena", || arena_of(&page).is_some());
    let id = arena_of(&page).unwrap();
    let created = arena(&bench, &id);
    assert_eq!(created["creator"], "cat", "{created}");
    assert_eq!(created["minutes"], 30, "{created}");
    assert_eq!(created["rated"], true, "{created}");
    page.wait_until("the join button", || {
        page.try_find(".arena-join")
            .is_some_and(|b| b.is_displayed())
    });
    page.find(".arena-join").click();
    page.wait_until("cat in the standings", || {
        page.try_find("table.standings tr[data-username=cat]")
            .is_some()
    });
    assert!(page.find(".arena-leave").is_displayed());
    // Ann joins through the API: the two are paired.
    let ann = api_account(&bench, "ann");
    let joined = ann.post(&format!("/api/arenas/{id}/join"), &json!({}));
    assert!(joined.status < 300, "{:?}", joined.body);
    // Paired: cat's page goes to the game by itself, and the game names its arena.
    page.wait_until("cat's game, opened by itself", || game_of(&page).is_some());
    let game = game_of(&page).unwrap();
    let now = arena(&bench, &id);
    assert_eq!(standing(&now, "cat")["game"], json!(game));
    assert_eq!(standing(&now, "ann")["game"], json!(game));
    let back = page.find(".arena-note .arena-link");
    page.wait_until("the way back to the arena", || back.is_displayed());
    assert_eq!(
        back.attr("href").unwrap_or_default(),
        format!("#/arena/{id}")
    );
    assert!(
        page.try_find(".share").is_none_or(|s| !s.is_displayed()),
        "no friend's panel"
    );
    // Ann resigns: no rematch, a countdown, and the page is back on the arena.
    let resigned = ann.post(&format!("/api/games/{game}/resign"), &json!({}));
    assert_eq!(resigned.status, 200, "{:?}", resigned.body);
    page.wait_until("the countdown back to the arena", || {
        page.try_find(".banner .back-countdown")
            .is_some_and(|c| c.is_displayed())
    });
    assert!(!page.find(".banner .rematch").is_displayed());
    page.wait_until("the arena again", || {
        arena_of(&page).as_deref() == Some(&id)
    });
    page.wait_until("the standings after the game", || {
        let now = arena(&bench, &id);
        standing(&now, "cat")["score"].as_i64().unwrap_or(0) > 0
            && standings_on(&page) == standings_of(&now)
    });
    assert_eq!(standings_on(&page)[0][0], "cat");
    page.screenshot(browser_common::artifacts_dir().join("arena-running.png"));
    // The server's time passes the arena's end: the podium, and no joining any more.
    let reply = bench
        .server
        .post("/api/test/clock", &json!({ "advance_ms": 31 * 60 * 1000 }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    page.wait_until("the podium", || page.try_find(".podium-list li").is_some());
    let finished = arena(&bench, &id);
    assert_eq!(finished["state"], "finished", "{finished}");
    let podium = js(
        &page,
        "return [...document.querySelectorAll('.podium-list li')].map(li => li.textContent.trim())",
    );
    assert_eq!(podium, finished["podium"]);
    assert_eq!(podium[0], "cat");
    assert!(!page.find(".arena-join").is_displayed());
    assert!(!page.find(".arena-leave").is_displayed());
    // The list shows it finished.
    page.find(".arenas-back").click();
    page.wait_until("the list", || {
        page.try_find(&format!(
            ".arena-item[data-id='{id}'] .arena-state[data-state=finished]"
        ))
        .is_some()
    });
    no_console_errors(&page);
}
