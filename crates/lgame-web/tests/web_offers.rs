//! What stands between two people on the game page, in Chromium: a draw offer and a request
//! to take back a move reach the other player as a message with Accept and Decline, the
//! asker waits and is told a refusal; the rematch's asker is told whether the opponent came;
//! and on a phone a game opened from far down the home page shows its board, not the
//! middle of the page.
//!
//! Two people are two browsers, each seated by its own side's token (`?red=T`, `?blue=T`:
//! an old host's address), so each holds one seat of the same game.

use crate::browser_common;

use browser_common::{
    axe_source, axe_violations, bench, js, no_console_errors, status, wait_for_ply, Bench,
};
use lgame_test_support::browser::Session;
use lgame_test_support::http::quiet_moves;
use serde_json::{json, Value};

/// A game between two people, each in their own browser: (id, Red's token, Blue's token,
/// Red's page, Blue's page).
fn two_players(bench: &Bench) -> (String, String, String, Session, Session) {
    let game = bench
        .server
        .create(json!({ "red": "human", "blue": "human" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    let red_page = bench.driver.session();
    bench.open(&red_page, &format!("#/game/{}?red={red}", game.id));
    let blue_page = bench.driver.session();
    bench.open(&blue_page, &format!("#/game/{}?blue={blue}", game.id));
    for page in [&red_page, &blue_page] {
        wait_for_ply(page, 0);
    }
    (game.id, red, blue, red_page, blue_page)
}

/// The offers panel as shown: (shown, `data-draw`, `data-undo`, `data-news`, its text).
fn offers(page: &Session) -> (bool, String, String, String, String) {
    let v = js(
        page,
        "const o = document.querySelector('.offers'); \
         return o ? [!o.hidden && o.getClientRects().length > 0, o.dataset.draw || '', o.dataset.undo || '', \
                     o.dataset.news || '', o.innerText.trim()] : [false, '', '', '', '']",
    );
    let text = |i: usize| v[i].as_str().unwrap_or("").to_string();
    (v[0] == true, text(1), text(2), text(3), text(4))
}

/// Waits until the offers panel says `text` (shown), and returns its state.
fn wait_for_offer_text(
    page: &Session,
    what: &str,
    text: &str,
) -> (bool, String, String, String, String) {
    page.wait_until(what, || {
        let o = offers(page);
        o.0 && o.4.contains(text)
    });
    offers(page)
}

/// A move by the API, as the token's side: the state after it.
fn play(bench: &Bench, id: &str, token: &str, ply: u64) -> Value {
    let state = bench.server.state(id);
    let reply = bench.server.play(id, token, ply, &quiet_moves(&state)[0]);
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body
}

/// A button's enabled state and whether it is shown.
fn button(page: &Session, css: &str) -> (bool, bool) {
    let v = js(
        page,
        &format!(
            "const b = document.querySelector({css:?}); \
             return b ? [b.getClientRects().length > 0, !b.disabled] : [false, false]"
        ),
    );
    (v[0] == true, v[1] == true)
}

#[test]
fn a_draw_offer_is_a_message_the_other_declines_and_the_asker_is_told_then_one_accepted() {
    let bench = bench("web-offers-draw");
    let (id, _red, _blue, red_page, blue_page) = two_players(&bench);
    // Nothing stands yet: no message on either page.
    assert!(!offers(&red_page).0, "{:?}", offers(&red_page));
    assert!(!offers(&blue_page).0, "{:?}", offers(&blue_page));

    // Red offers a draw with the page's button: Red waits, Blue is asked.
    red_page.find(".game-actions .draw").click();
    let (_, draw, _, _, _) = wait_for_offer_text(
        &red_page,
        "Red's wait",
        "Draw offered — waiting for the answer",
    );
    assert_eq!(draw, "mine");
    assert!(
        red_page.try_find(".offers .accept-draw").is_none(),
        "the asker has nothing to answer"
    );
    let (_, draw, _, _, text) = wait_for_offer_text(&blue_page, "Blue asked", "Red offers a draw");
    assert_eq!(draw, "theirs", "{text}");
    assert_eq!(button(&blue_page, ".offers .accept-draw"), (true, true));
    assert_eq!(button(&blue_page, ".offers .decline-draw"), (true, true));
    assert_eq!(blue_page.find(".offers .accept-draw").text(), "Accept");
    assert_eq!(blue_page.find(".offers .decline-draw").text(), "Decline");
    // The question is read out (a live region) and passes axe-core, in both pages' states.
    assert_eq!(
        blue_page.find(".offers").attr("aria-live").as_deref(),
        Some("polite")
    );
    for page in [&red_page, &blue_page] {
        page.execute(&axe_source(), vec![]);
        let violations = axe_violations(page);
        assert!(violations.is_empty(), "axe-core: {violations:#?}");
    }

    // Blue declines: the server's offer is gone, the game goes on, and Red is told.
    blue_page.find(".offers .decline-draw").click();
    blue_page.wait_until("Blue's question to go", || !offers(&blue_page).0);
    let state = bench.server.state(&id);
    assert_eq!(state["draw_offer"], Value::Null, "{state}");
    assert_eq!(state["result"], "*");
    let (_, draw, _, news, _) =
        wait_for_offer_text(&red_page, "Red told", "Your draw offer was declined.");
    assert_eq!((draw.as_str(), news.as_str()), ("", "offers.drawDeclined"));
    assert!(!status(&red_page).2, "the game goes on");

    // Now Blue offers, and Red accepts from the message: drawn by agreement on both pages.
    blue_page.find(".game-actions .draw").click();
    wait_for_offer_text(
        &blue_page,
        "Blue's wait",
        "Draw offered — waiting for the answer",
    );
    let (_, _, _, news, _) = wait_for_offer_text(&red_page, "Red asked", "Blue offers a draw");
    assert_eq!(
        news, "",
        "an older answer is forgotten once something new stands"
    );
    red_page.find(".offers .accept-draw").click();
    for page in [&red_page, &blue_page] {
        page.wait_until("the draw", || status(page).2);
        let ending = page.find(".banner").attr("data-ending");
        assert_eq!(ending.as_deref(), Some("agreement"));
        assert!(
            !offers(page).0,
            "nothing stands once over: {:?}",
            offers(page)
        );
    }
    assert_eq!(bench.server.state(&id)["result"], "1/2-1/2");
    no_console_errors(&red_page);
    no_console_errors(&blue_page);
}

#[test]
fn a_takeback_request_is_declined_then_asked_again_and_accepted() {
    let bench = bench("web-offers-undo");
    let (id, red, _blue, red_page, blue_page) = two_players(&bench);
    // Before Red has moved there is nothing of Red's to take back.
    assert_eq!(button(&red_page, ".game-actions .undo"), (true, false));
    play(&bench, &id, &red, 1);
    for page in [&red_page, &blue_page] {
        wait_for_ply(page, 1);
    }
    red_page.wait_until("Red's undo to be offered", || {
        button(&red_page, ".game-actions .undo") == (true, true)
    });
    assert_eq!(
        button(&blue_page, ".game-actions .undo"),
        (true, false),
        "Blue has not moved"
    );

    // Red asks; Blue is asked, with the two answers; Blue declines and Red is told.
    red_page.find(".game-actions .undo").click();
    let (_, _, undo, _, _) = wait_for_offer_text(
        &red_page,
        "Red's wait",
        "Takeback asked — waiting for the answer",
    );
    assert_eq!(undo, "mine");
    assert_eq!(
        button(&red_page, ".game-actions .undo"),
        (true, false),
        "asked once"
    );
    let (_, _, undo, _, _) =
        wait_for_offer_text(&blue_page, "Blue asked", "Red asks to take back a move");
    assert_eq!(undo, "theirs");
    assert_eq!(button(&blue_page, ".offers .accept-undo"), (true, true));
    blue_page.find(".offers .decline-undo").click();
    let (_, _, undo, news, _) =
        wait_for_offer_text(&red_page, "Red told", "Your takeback request was declined.");
    assert_eq!((undo.as_str(), news.as_str()), ("", "offers.undoDeclined"));
    assert_eq!(status(&red_page).0, 1, "nothing taken back");
    assert_eq!(bench.server.state(&id)["plies"], 1);

    // Red asks again, Blue accepts: the move is taken back on both pages and Red is told.
    red_page.wait_until("Red may ask again", || {
        button(&red_page, ".game-actions .undo") == (true, true)
    });
    red_page.find(".game-actions .undo").click();
    wait_for_offer_text(
        &blue_page,
        "Blue asked again",
        "Red asks to take back a move",
    );
    blue_page.find(".offers .accept-undo").click();
    for page in [&red_page, &blue_page] {
        wait_for_ply(page, 0);
    }
    let state = bench.server.state(&id);
    assert_eq!(
        (state["plies"].as_u64(), &state["undo_request"]),
        (Some(0), &Value::Null),
        "{state}"
    );
    wait_for_offer_text(&red_page, "Red told", "Your move was taken back.");
    blue_page.wait_until("Blue's question to go", || !offers(&blue_page).0);
    assert_eq!(status(&red_page).3, "red", "Red is to move again");
    no_console_errors(&red_page);
    no_console_errors(&blue_page);
}

#[test]
fn the_rematchs_asker_waits_for_the_opponent_and_is_told_when_they_join() {
    let bench = bench("web-offers-rematch");
    let (id, red, _blue, red_page, blue_page) = two_players(&bench);
    let reply = bench
        .server
        .post(&format!("/api/games/{id}/resign"), &json!({ "token": red }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    for page in [&red_page, &blue_page] {
        page.wait_until("the end", || status(page).2);
    }
    // Red asks for the rematch: its page opens the new game and waits for Blue.
    red_page.find(".banner .rematch").click();
    red_page.wait_until("the rematch to open", || {
        !red_page.url().ends_with(&format!("#/game/{id}"))
    });
    let new_id = red_page.url().rsplit('/').next().unwrap().to_string();
    assert_ne!(new_id, id);
    wait_for_ply(&red_page, 0);
    let waiting = red_page.find(".rematch-wait");
    red_page.wait_until("the wait to be said", || {
        waiting.is_displayed() && waiting.text() == "Waiting for your opponent…"
    });
    assert_eq!(
        red_page.find(".offers").attr("data-rematch").as_deref(),
        Some("waiting")
    );
    // Blue's page, still on the old game, offers to join; joining opens the same rematch,
    // and Red's page says they came.
    let join = blue_page.find(".banner .rematch");
    blue_page.wait_until("the offer to join", || {
        join.text().starts_with("Join the rematch")
    });
    join.click();
    blue_page.wait_until("Blue in the rematch", || {
        blue_page.url().ends_with(&format!("#/game/{new_id}"))
    });
    wait_for_ply(&blue_page, 0);
    red_page.wait_until("Red told Blue joined", || {
        red_page
            .try_find(".rematch-wait")
            .map(|w| w.text())
            .as_deref()
            == Some("Your opponent joined.")
    });
    assert_eq!(
        red_page.find(".offers").attr("data-rematch").as_deref(),
        Some("joined")
    );
    // The joiner found the asker there: nothing to wait for.
    assert!(
        blue_page.try_find(".rematch-wait").is_none(),
        "Blue waits for nobody"
    );
    no_console_errors(&red_page);
    no_console_errors(&blue_page);
}

/// Where the board and the status stand on the page: (scrollY, the board's top and bottom,
/// the status's top, the window's height).
fn board_in_view(page: &Session) -> Value {
    js(
        page,
        "const r = document.querySelector('.board-holder .board-svg').getBoundingClientRect(); \
         const s = document.querySelector('.status').getBoundingClientRect(); \
         return { scrollY: window.scrollY, top: r.top, bottom: r.bottom, status: s.top, height: innerHeight }",
    )
}

/// Opens `address` as a link to it would (the address changes) from a page scrolled to its
/// foot, and checks the game opens at its top: the board and the status in view.
fn open_from_the_foot(page: &Session, address: &str, id: &str) {
    let scrolled = js(
        page,
        "window.scrollTo(0, document.documentElement.scrollHeight); return window.scrollY",
    );
    assert!(
        scrolled.as_f64().unwrap_or(0.0) > 400.0,
        "the page was not scrolled down: {scrolled}"
    );
    js(page, &format!("location.hash = {address:?}"));
    page.wait_until("the game", || {
        page.url().contains(id)
            && status(page).1.len() > 5
            && js(
                page,
                "return !!document.querySelector('.board-holder .board-svg')",
            ) == true
    });
    let view = board_in_view(page);
    assert_eq!(view["scrollY"].as_f64(), Some(0.0), "{view}");
    let (top, bottom, height) = (
        view["top"].as_f64().unwrap(),
        view["bottom"].as_f64().unwrap(),
        view["height"].as_f64().unwrap(),
    );
    assert!(
        top >= 0.0 && bottom <= height,
        "the board is out of view: {view}"
    );
    assert!(view["status"].as_f64().unwrap() >= 0.0, "{view}");
}

#[test]
fn on_a_phone_a_game_opened_from_far_down_the_home_page_shows_its_board() {
    let bench = bench("web-offers-phone");
    let page = bench.driver.phone();
    bench.open(&page, "#/play");
    // Far down the home page (its forms opened make it long enough to scroll).
    js(
        &page,
        "document.querySelectorAll('details').forEach(d => d.open = true)",
    );
    let (id, _, address) = bench.red_game("beginner", json!({}));
    open_from_the_foot(&page, &address, &id);
    // The browser alone pulls the scroll back when the view left is taller than the page
    // the new one first lays out; a page longer than any view (here the shell's own space
    // below, as a long home page or a footer would make it) keeps the scroll where it was
    // unless the page resets it.
    bench.open(&page, "#/play");
    js(&page, "document.body.style.paddingBottom = '3000px'");
    let (id, _, address) = bench.red_game("beginner", json!({}));
    open_from_the_foot(&page, &address, &id);
    no_console_errors(&page);
}
