//! Bots on the page (issue #26), in Chromium: a visitor on a phone finds the server's levels
//! in the lobby's "Play a bot", challenges one, and plays it, its name marked BOT by the
//! board; and a bot's profile has its badge and a button that challenges it.

use crate::browser_common;

use browser_common::{bench_with, game_of, js, no_console_errors, wait_for_ply, wait_for_view};

#[test]
fn a_visitor_challenges_a_level_from_the_lobby_and_plays_it() {
    let bench = bench_with("web-bots-lobby", |c| {
        c.computer_delay = std::time::Duration::ZERO
    });
    let page = bench.driver.phone();
    bench.open(&page, "#/play");
    page.wait_until("the levels among the bots", || {
        page.try_find("#bots li[data-bot='lgame-random'][data-online='true'] .bot-challenge")
            .is_some()
    });
    let listed = page.try_text("#bots").unwrap_or_default();
    for level in [
        "lgame-random",
        "lgame-beginner",
        "lgame-intermediate",
        "lgame-perfect",
    ] {
        assert!(listed.contains(level), "{listed}");
    }
    js(&page, "const s = document.querySelector('select[name=bot-control]'); s.value = 'untimed'; s.dispatchEvent(new Event('change'));");
    js(&page, "const s = document.querySelector('select[name=bot-colour]'); s.value = 'red'; s.dispatchEvent(new Event('change'));");
    page.screenshot(browser_common::artifacts_dir().join("bots-lobby-phone.png"));
    page.find("#bots li[data-bot='lgame-random'] .bot-challenge")
        .click();
    page.wait_until("the game", || game_of(&page).is_some());
    let id = game_of(&page).unwrap();
    let state = bench.server.state(&id);
    assert_eq!(state["players"]["blue"]["kind"], "bot", "{state}");
    assert_eq!(state["players"]["blue"]["name"], "lgame-random", "{state}");
    assert!(state["clock"].is_null(), "{state}");
    page.wait_until("the bot's name with its badge", || {
        page.try_text(".players")
            .is_some_and(|t| t.contains("lgame-random") && t.contains("BOT"))
    });
    // The person's move, typed; the level answers in the same request (the page shows ply 2).
    page.wait_until("the board to take a move", || {
        js(
            &page,
            "const i = document.querySelector('.notation-input'); return !!i && !i.disabled",
        ) == true
    });
    page.find(".notation-input")
        .send_keys(&lgame_test_support::http::quiet_moves(&state)[0]);
    page.find(".notation-play").click();
    wait_for_ply(&page, 2);
    assert_eq!(bench.server.state(&id)["plies"], 2);
    no_console_errors(&page);
}

#[test]
fn a_bots_profile_shows_its_badge_and_challenges_it() {
    let bench = bench_with("web-bots-profile", |c| {
        c.computer_delay = std::time::Duration::ZERO
    });
    let page = bench.driver.session();
    page.goto(&bench.server.url("/@/lgame-beginner"));
    wait_for_view(&page);
    page.wait_until("the badge by the name", || {
        page.try_text(".profile-name")
            .is_some_and(|t| t.contains("lgame-beginner") && t.contains("BOT"))
    });
    page.find(".bot-challenge").click();
    page.wait_until("the game", || game_of(&page).is_some());
    let state = bench.server.state(&game_of(&page).unwrap());
    let players = &state["players"];
    assert!(
        players["red"]["name"] == "lgame-beginner" || players["blue"]["name"] == "lgame-beginner",
        "{state}"
    );
    assert_eq!(state["clock"]["initial_s"], 300, "{state}");
    no_console_errors(&page);
}
