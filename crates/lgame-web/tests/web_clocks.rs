//! The clocks on the page (issue #24), in Chromium: a timed game shows both clocks by the
//! players with the control, the mover's highlighted and ticking; the first moves' countdown;
//! "Give 15 s"; the claim offered once the opponent has had no page open for 15 s on their
//! turn; below 10 s the mover's clock turns red; and a player watches the opponent's clock
//! run out and the game won on time, decided by the server with nobody sending anything. The
//! server's time is moved forward (`test_clock`), so the test waits seconds, not a minute.

use crate::browser_common;

use std::time::Duration;

use browser_common::{bench_with, js, no_console_errors, wait_for_ply};
use lgame_test_support::http::quiet_moves;
use serde_json::{json, Value};

/// A clock face's text, time left (`data-ms`) and classes.
fn face(page: &lgame_test_support::browser::Session, side: &str) -> (String, i64, String) {
    let v = js(
        page,
        &format!(
            "const c = document.querySelector('.clock.{side}'); \
             return c ? [c.textContent, c.dataset.ms || '', c.className, c.closest('[hidden]') === null] : ['', '', '', false]"
        ),
    );
    assert_eq!(v[3], true, "{side}'s clock is shown");
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_str().unwrap().parse().unwrap_or(-1),
        v[2].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_player_watches_their_clock_tick_turn_red_and_run_out() {
    let bench = bench_with("web-clocks", |c| c.test_clock = true);
    let server = &bench.server;
    let game = server.create(json!({
        "red": "human", "blue": "human",
        "clock": { "initial_s": 60, "increment_s": 0 }
    }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    let page = bench.driver.session_with(390, 844);
    bench.open(&page, &format!("#/game/{}?red={red}", game.id));
    // The faces are built hidden with the page, and shown with the game's first state.
    page.wait_until("the clocks", || {
        js(
            &page,
            "const c = document.querySelector('.clock.red'); return !!c && c.closest('[hidden]') === null",
        ) == true
    });
    // Before both first moves: no clock runs, the countdown to an abort shows.
    let (text, ms, classes) = face(&page, "red");
    assert_eq!((text.as_str(), ms), ("1:00", 60_000), "{classes}");
    assert!(!classes.contains("running"), "{classes}");
    let first = js(&page, "return document.querySelector('.first-move').hidden");
    assert_eq!(first, false, "the first move's countdown shows");
    let control = js(
        &page,
        "return document.querySelector('.clock-control').textContent",
    );
    assert_eq!(control, "1+0");
    // Both first moves, through the API: Red's clock runs.
    let mut state: Value = server.state(&game.id);
    for (ply, token) in [(1, &red), (2, &blue)] {
        let body = json!({ "token": token, "ply": ply, "move": quiet_moves(&state)[0] });
        let reply = server.post(&format!("/api/games/{}/moves", game.id), &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    wait_for_ply(&page, 2);
    page.wait_until("Red's clock to run", || {
        face(&page, "red").2.contains("running")
    });
    let (_, before, _) = face(&page, "red");
    std::thread::sleep(Duration::from_millis(1200));
    let (_, after, _) = face(&page, "red");
    assert!(before - after >= 900, "it ticks: {before} then {after}");
    assert!(!face(&page, "blue").2.contains("running"));
    // Red gives Blue 15 s, and moves (by the page's own board: the API, as Red's token).
    page.find(".give-time").click();
    page.wait_until("Blue's 15 s more", || face(&page, "blue").0 == "1:15");
    let body = json!({ "token": red, "ply": 3, "move": quiet_moves(&state)[0] });
    let reply = server.post(&format!("/api/games/{}/moves", game.id), &body);
    assert_eq!(reply.status, 200, "{}", reply.body);
    wait_for_ply(&page, 3);
    page.wait_until("Blue's clock to run", || {
        face(&page, "blue").2.contains("running")
    });
    // Blue has no page open, on its turn: 15 s on (real seconds: the page counts them), Red
    // is offered the claim.
    let claims_shown = "const c = document.querySelector('.claims'); return !!c && !c.hidden";
    assert_eq!(js(&page, claims_shown), false, "not at once");
    page.wait_for("the claim to be offered", Duration::from_secs(25), || {
        js(&page, claims_shown) == true
    });
    // Red does not claim: Blue's time is moved on to its last 8 s, and Red watches it run
    // out, red, in tenths.
    let blue_ms = face(&page, "blue").1;
    let reply = server.post("/api/test/clock", &json!({ "advance_ms": blue_ms - 8000 }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    page.wait_until("Blue's clock to turn low", || {
        face(&page, "blue").2.contains("low")
    });
    let (text, ms, _) = face(&page, "blue");
    assert!(ms < 10_000 && text.contains('.'), "{text} ({ms} ms)");
    page.screenshot(browser_common::artifacts_dir().join("clocks-low-phone.png"));
    // Nobody sends anything: the server flags Blue once its time and the grace have passed.
    page.wait_until("the game to end on time", || {
        js(
            &page,
            "const b = document.querySelector('.banner'); return !!b && !b.hidden && b.dataset.ending === 'time'",
        ) == true
    });
    let (text, ms, classes) = face(&page, "blue");
    assert_eq!((text.as_str(), ms), ("0.0", 0), "{classes}");
    assert!(!classes.contains("running"));
    assert_eq!(js(&page, claims_shown), false, "nothing to claim once over");
    let give = js(&page, "return document.querySelector('.give-time').hidden");
    assert_eq!(give, true);
    no_console_errors(&page);
}

#[test]
fn a_correspondence_player_who_asked_is_notified_when_the_opponent_moves_in_the_background() {
    let bench = bench_with("web-clocks-notify", |_| {});
    let server = &bench.server;
    let game = server.create(json!({ "red": "human", "blue": "human", "clock": { "days": 2 } }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    let page = bench.driver.session();
    bench.open(&page, &format!("#/game/{}?red={red}", game.id));
    // The browser's notifications, stood in for (a test cannot answer Chromium's own
    // permission prompt): what the page asks and shows is recorded.
    js(
        &page,
        "window.__shown = []; window.Notification = class { \
           static permission = 'default'; \
           static async requestPermission() { Notification.permission = 'granted'; return 'granted'; } \
           constructor(title, options) { window.__shown.push([title, options.body]); } };",
    );
    page.wait_until("the offer to notify", || {
        js(
            &page,
            "const b = document.querySelector('.notify-me'); return !!b && !b.hidden",
        ) == true
    });
    assert_eq!(
        js(
            &page,
            "return document.querySelector('.clock-control').textContent"
        ),
        "2 d a move"
    );
    page.find(".notify-me").click();
    page.wait_until("the offer to go once granted", || {
        js(&page, "return document.querySelector('.notify-me').hidden") == true
    });
    // Red's own move, then the tab goes to the background and Blue moves.
    let mut state: Value = server.state(&game.id);
    let body = json!({ "token": red, "ply": 1, "move": quiet_moves(&state)[0] });
    state = server
        .post(&format!("/api/games/{}/moves", game.id), &body)
        .body;
    wait_for_ply(&page, 1);
    assert_eq!(
        js(&page, "return window.__shown.length"),
        0,
        "not for one's own move"
    );
    js(
        &page,
        "Object.defineProperty(document, 'hidden', { get: () => true });",
    );
    let body = json!({ "token": blue, "ply": 2, "move": quiet_moves(&state)[0] });
    assert_eq!(
        server
            .post(&format!("/api/games/{}/moves", game.id), &body)
            .status,
        200
    );
    wait_for_ply(&page, 2);
    page.wait_until("the notification", || {
        js(&page, "return window.__shown.length") == 1
    });
    let shown = js(&page, "return window.__shown[0]");
    assert_eq!(
        shown,
        json!(["Your turn in the L game", "Your opponent has moved."])
    );
    no_console_errors(&page);
}

#[test]
fn a_friends_game_is_made_with_the_clock_chosen_in_its_options() {
    let bench = bench_with("web-clocks-form", |_| {});
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    page.find("form[data-way=friend] summary").click();
    page.execute(
        "const s = document.querySelector('#friend-clock'); s.value = '3+2'; \
         s.dispatchEvent(new Event('change', { bubbles: true }));",
        vec![],
    );
    page.find("form[data-way=friend] button[data-play=friend]")
        .click();
    page.wait_until("the game's clocks", || {
        js(
            &page,
            "const c = document.querySelector('.clock-control'); return !!c && c.textContent === '3+2'",
        ) == true
    });
    let id = js(&page, "return location.hash.split('/')[2].split('?')[0]");
    let state = bench.server.state(id.as_str().unwrap());
    assert_eq!(state["clock"]["initial_s"], 180);
    assert_eq!(state["clock"]["increment_s"], 2);
    no_console_errors(&page);
}
