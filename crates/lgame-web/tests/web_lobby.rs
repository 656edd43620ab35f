//! The lobby on the page (issue #24), in Chromium, two strangers in two browser profiles:
//! one's seek shows live in the other's lobby, and taking it opens the game for both; and
//! two who ask quick pairing for 1+0 are paired, play, and one loses on time while the other
//! watches the clock run out. The server's time is moved forward (`test_clock`).

use crate::browser_common;

use browser_common::{
    bench_with, choose_seek, game_of, js, no_console_errors, type_a_move, wait_for_ply,
};
use lgame_test_support::browser::Session;
use serde_json::json;

#[test]
fn a_strangers_seek_shows_live_and_taking_it_opens_the_game_for_both() {
    let bench = bench_with("web-lobby-seek", |_| {});
    let (alice, bob) = (bench.driver.session(), bench.driver.phone());
    bench.open(&alice, "#/play");
    bench.open(&bob, "#/play");
    bob.wait_until("the empty lobby", || {
        bob.try_find(".seeks-none")
            .is_some_and(|n| n.is_displayed())
    });
    // Alice seeks a 3+2 game as Red.
    choose_seek(&alice, "3+2", "red");
    alice.find(".seek-create").click();
    alice.wait_until("her seek, hers", || {
        alice.try_find(".seeks tr.mine .seek-withdraw").is_some()
    });
    // Bob sees it at once, without reloading: anonymous, 3+2, Red.
    bob.wait_until("the seek in Bob's lobby", || {
        bob.try_find(".seeks .seek-accept").is_some()
    });
    let row = bob.try_text(".seeks tbody tr").unwrap_or_default();
    assert!(
        row.contains("Anonymous") && row.contains("3+2") && row.contains("Red"),
        "{row}"
    );
    bob.screenshot(browser_common::artifacts_dir().join("lobby-phone.png"));
    bob.find(".seek-accept").click();
    // Both are in the same game: Alice plays Red, Bob Blue.
    bob.wait_until("Bob's game", || game_of(&bob).is_some());
    let id = game_of(&bob).unwrap();
    alice.wait_until("Alice's game", || {
        game_of(&alice).as_deref() == Some(id.as_str())
    });
    let state = bench.server.state(&id);
    assert_eq!(state["clock"]["initial_s"], 180, "{state}");
    type_a_move(&bench, &alice, &id);
    wait_for_ply(&bob, 1);
    type_a_move(&bench, &bob, &id);
    wait_for_ply(&alice, 2);
    no_console_errors(&alice);
    no_console_errors(&bob);
}

#[test]
fn two_strangers_pair_by_quick_pairing_and_one_loses_on_time_while_the_other_watches() {
    let bench = bench_with("web-lobby-pool", |c| c.test_clock = true);
    let (alice, bob) = (bench.driver.session(), bench.driver.phone());
    bench.open(&alice, "#/play");
    bench.open(&bob, "#/play");
    for page in [&alice, &bob] {
        page.find("#quick-pairing .pool-control[data-control='1+0']")
            .click();
        // The second may be paired the moment it joins, before its page shows the wait.
        page.wait_until("the wait or the game", || {
            game_of(page).is_some()
                || page
                    .try_text(".pool-waiting")
                    .is_some_and(|t| t.contains("1+0"))
        });
    }
    // Within a wave or two both pages open the same game.
    alice.wait_until("Alice's game", || game_of(&alice).is_some());
    let id = game_of(&alice).unwrap();
    bob.wait_until("Bob's game", || {
        game_of(&bob).as_deref() == Some(id.as_str())
    });
    // The address first, the game's view and its clocks a moment later.
    bob.wait_until("Bob's clocks", || bob.try_find(".clock-control").is_some());
    let control = js(
        &bob,
        "return document.querySelector('.clock-control').textContent",
    );
    assert_eq!(control, "1+0");
    // Red and Blue make their first moves, each on their own page.
    // Which side each plays, as the server tells each browser.
    let you = |page: &Session| {
        page.execute_async(
            &format!(
                "const done = arguments[arguments.length - 1]; \
                      fetch('/api/games/{id}').then((r) => r.json()).then((s) => done(s.you))"
            ),
            vec![],
        )
    };
    let (alices, bobs) = (you(&alice), you(&bob));
    assert_ne!(alices, bobs, "one each");
    let (red, blue) = if alices == "red" {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    type_a_move(&bench, red, &id);
    wait_for_ply(blue, 1);
    type_a_move(&bench, blue, &id);
    wait_for_ply(red, 2);
    // Red's clock runs; Red does not move. A minute passes (the server's time moved on):
    // Blue watches Red's clock run out, and the server decides the game on time.
    blue.wait_until("Red's clock to run", || {
        js(
            blue,
            "return document.querySelector('.clock.red').className.includes('running')",
        ) == true
    });
    let reply = bench
        .server
        .post("/api/test/clock", &json!({ "advance_ms": 52_000 }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    blue.wait_until("Red's clock low", || {
        js(
            blue,
            "return document.querySelector('.clock.red').className.includes('low')",
        ) == true
    });
    blue.wait_until("the game won on time", || {
        js(blue, "const b = document.querySelector('.banner'); return !!b && !b.hidden && b.dataset.ending === 'time'") == true
    });
    red.wait_until("Red told", || {
        js(red, "const b = document.querySelector('.banner'); return !!b && !b.hidden && b.dataset.ending === 'time'") == true
    });
    let shown = js(
        blue,
        "return document.querySelector('.clock.red').textContent",
    );
    assert_eq!(shown, "0.0");
    assert_eq!(bench.server.state(&id)["result"], "0-1");
    blue.screenshot(browser_common::artifacts_dir().join("lobby-pool-time.png"));
    no_console_errors(&alice);
    no_console_errors(&bob);
}
