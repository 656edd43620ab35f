//! Accounts and seats in a real browser (headless Chromium through chromedriver, each
//! session a browser profile of its own, with its own cookies): sign up, play, leave the
//! page and find the game again in "my games"; a friend game whose host copied the address
//! bar gives nobody the host's seat, its invitation seats the first to take it and the host
//! hears of it; the address bar never holds a token; a wrong password is said in the
//! server's words; a player's profile page.

use crate::browser_common;

use browser_common::*;
use lgame_test_support::browser::Session;
use serde_json::{json, Value};

/// A password no list of common ones holds.
const PASSWORD: &str = "violet-L-pieces-37";

/// The page's address as the browser has it (`location.href`).
fn href(page: &Session) -> String {
    js(page, "return location.href")
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The game's id in a game's address.
fn game_id(address: &str) -> String {
    let rest = address.split("#/game/").nth(1).expect("a game's address");
    rest.split('?').next().unwrap().to_string()
}

/// Asserts that the address is the game's shareable one: `/#/game/ID` and nothing else.
fn assert_shareable(bench: &Bench, page: &Session, id: &str) {
    let address = href(page);
    assert_eq!(
        address,
        bench.server.url(&format!("/#/game/{id}")),
        "the address bar holds more than the game"
    );
}

/// Waits until the game's first state is drawn.
fn wait_for_game(page: &Session) {
    page.wait_until("the game's state", || status(page).0 != u64::MAX);
}

/// Fills the form's field `css` with `text`.
fn fill(page: &Session, css: &str, text: &str) {
    let field = page.find(css);
    field.clear();
    field.send_keys(text);
}

/// Signs up on the page (the header then names the account).
fn sign_up(bench: &Bench, page: &Session, name: &str) {
    bench.open(page, "#/signup");
    assert_eq!(
        page.find("#username").attr("autocomplete").as_deref(),
        Some("username")
    );
    assert_eq!(
        page.find("#password").attr("autocomplete").as_deref(),
        Some("new-password")
    );
    fill(page, "#username", name);
    fill(page, "#password", PASSWORD);
    page.find(".signup-form button.submit").click();
    page.wait_until("the account in the header", || {
        page.try_text(".account-name")
            .is_some_and(|n| n.contains(name))
    });
}

/// Starts a game from the home page: `mode` (computer, local, friend), `colour`, chosen in
/// the options of its way to play (the computer, or a friend: by link or on this device).
fn start_game(bench: &Bench, page: &Session, mode: &str, colour: &str) -> String {
    bench.open(page, "#/play");
    let way = if mode == "computer" {
        "computer"
    } else {
        "friend"
    };
    let form = format!("form[data-way={way}]");
    page.find(&format!("{form} summary")).click();
    if way == "friend" {
        page.find(&format!("{form} input[name=mode][value={mode}]"))
            .click();
    }
    if mode != "local" {
        page.find(&format!("{form} input[name=colour][value={colour}]"))
            .click();
    }
    page.find(&format!("{form} button.start")).click();
    page.wait_until("the game to open", || href(page).contains("#/game/"));
    wait_for_game(page);
    game_id(&href(page))
}

/// Plays the solver's best move by clicking, then waits for the computer's reply.
fn play_best(bench: &Bench, page: &Session) {
    wait_for_my_turn(page);
    let (plies, position, _, _) = status(page);
    let (entry, _) = best_move(bench, "classic", &position);
    play_by_clicking(page, &entry);
    wait_for_ply(page, plies + 2);
}

#[test]
fn a_game_played_after_signing_up_is_found_again_in_my_games_and_continued() {
    let bench = bench("web-accounts-mine");
    let page = bench.driver.session();
    // Without an account, "my games" says that signing up keeps them.
    bench.open(&page, "#/games");
    page.wait_until("the anonymous note", || {
        page.try_find(".anonymous-note").is_some()
    });
    assert!(page.find(".anonymous-note").text().contains("Sign up"));

    sign_up(&bench, &page, "alice");
    let id = start_game(&bench, &page, "computer", "red");
    assert_shareable(&bench, &page, &id);
    play_best(&bench, &page);

    // The tab is left (its page and its memory gone; the browser's cookies stay).
    page.goto("about:blank");
    bench.open(&page, "#/games");
    let row = format!(".games-table tr[data-id='{id}']");
    page.wait_until("the game in my games", || page.try_find(&row).is_some());
    assert!(page.try_find(".anonymous-note").is_none());
    page.find(".account-name").click();
    page.screenshot(artifacts_dir().join("web-my-games.png"));
    page.find(".account-name").click();
    let text = page.find(&row).text();
    assert!(text.contains("Computer"), "{text}");
    assert!(text.contains("Red"), "{text}");
    page.find(&format!("{row} a.resume")).click();
    page.wait_until("the game to open", || href(&page).contains(&id));
    wait_for_game(&page);
    assert_eq!(status(&page).0, 2);
    play_best(&bench, &page);
    assert_shareable(&bench, &page, &id);
    assert_eq!(bench.server.state(&id)["plies"], 4);
    assert!(page.find(".players .player.red").text().contains("alice"));

    // The profile: its counts, the game it plays now, the filters.
    page.goto(&bench.server.url("/@/alice"));
    page.wait_until("the profile", || {
        page.try_text(".profile-name").is_some_and(|n| n == "alice")
    });
    page.wait_until("the current game", || {
        page.try_find(&format!(".playing tr[data-id='{id}']"))
            .is_some()
    });
    assert_eq!(
        page.find(".count.wins dd").text(),
        "0",
        "no game finished yet"
    );
    page.screenshot(artifacts_dir().join("web-profile.png"));
    page.find("#filter-result option[value=win]").click();
    page.wait_until("the filter in the address", || {
        href(&page).contains("result=win")
    });
    page.wait_until("no game won", || page.try_find(".games-none").is_some());
    bench.open(&page, "#/play");
    page.goto(&bench.server.url("/@/nobody-here"));
    page.wait_until("no such player", || page.try_find(".not-found").is_some());
    no_console_errors_but(&page, &[404]);
}

#[test]
fn a_copied_host_address_gives_no_seat_and_the_invitation_seats_the_first_only() {
    let bench = bench("web-accounts-friend");
    let host = bench.driver.session();
    let id = start_game(&bench, &host, "friend", "red");
    assert_shareable(&bench, &host, &id);
    host.wait_until("the invitation link", || {
        host.try_find(".friend-link")
            .is_some_and(|l| l.prop("value").as_str().unwrap_or("").contains("invite="))
    });
    let invitation = host
        .find(".friend-link")
        .prop("value")
        .as_str()
        .unwrap()
        .to_string();
    // The host copies the address bar and sends it: it only watches.
    let copied = href(&host);
    let second = bench.driver.session();
    second.goto(&copied);
    wait_for_game(&second);
    second.wait_until("the watching status", || {
        second.find(".status").attr("data-watching").as_deref() == Some("true")
    });
    assert!(
        second.try_find(".board-svg[tabindex]").is_none(),
        "the board takes no move"
    );
    assert!(second
        .try_find(".take-seat")
        .is_none_or(|b| !b.is_displayed()));

    // The host's page kept the invitation: a reload still shows it.
    host.refresh();
    wait_for_game(&host);
    host.wait_until("the invitation link again", || {
        host.try_find(".friend-link")
            .is_some_and(|l| l.prop("value").as_str() == Some(invitation.as_str()))
    });

    // The invitation shows the game and a button; pressing it seats the friend.
    second.goto(&invitation);
    wait_for_game(&second);
    let take = second.find(".take-seat");
    second.wait_until("the seat offered", || take.is_displayed());
    assert_eq!(take.text(), "Take the Blue seat");
    second.screenshot(artifacts_dir().join("web-invitation.png"));
    take.click();
    second.wait_until("the game's own address", || {
        href(&second) == bench.server.url(&format!("/#/game/{id}"))
    });
    wait_for_game(&second);
    second.wait_until("a player's status", || {
        second.find(".status").attr("data-watching").as_deref() == Some("false")
    });
    host.wait_until("the friend joined", || {
        host.find(".share").attr("data-friend-joined").as_deref() == Some("true")
    });
    assert_eq!(host.find(".share .presence").text(), "Your friend joined.");
    host.screenshot(artifacts_dir().join("web-friend-joined.png"));

    // The seats work: the host moves, the friend answers.
    wait_for_my_turn(&host);
    let (_, start, _, _) = status(&host);
    let (entry, _) = best_move(&bench, "classic", &start);
    play_by_clicking(&host, &entry);
    wait_for_ply(&second, 1);
    wait_for_my_turn(&second);
    assert_eq!(status(&second).3, "blue");

    // A third browser with the same invitation is told the seat is taken, and watches.
    let third = bench.driver.session();
    third.goto(&invitation);
    wait_for_game(&third);
    third.wait_until("the seat taken", || {
        third
            .find(".action-message")
            .text()
            .contains("took this seat")
    });
    assert_shareable(&bench, &third, &id);
    assert_eq!(
        third.find(".status").attr("data-watching").as_deref(),
        Some("true")
    );
    assert!(third
        .try_find(".take-seat")
        .is_none_or(|b| !b.is_displayed()));
    no_console_errors(&host);
    no_console_errors(&second);
}

#[test]
fn the_address_bar_never_holds_a_token() {
    let bench = bench("web-accounts-address");
    let page = bench.driver.session();
    for (mode, colour) in [("computer", "blue"), ("local", "red"), ("friend", "blue")] {
        let id = start_game(&bench, &page, mode, colour);
        assert_shareable(&bench, &page, &id);
        let state = bench.server.state(&id);
        assert!(state["seats"]["red"].is_string(), "{state}");
    }
    // On one device, both sides move from this page.
    let id = start_game(&bench, &page, "local", "red");
    wait_for_my_turn(&page);
    assert_eq!(page.find(".status").text(), "Red's turn");
    assert_shareable(&bench, &page, &id);

    // An old address (an API answer's `url`, a link from before) seats the browser once and
    // is rewritten at once; the seat stays with the browser.
    let (id, _, address) = bench.red_game("beginner", json!({}));
    bench.open(&page, &address);
    wait_for_my_turn(&page);
    assert_shareable(&bench, &page, &id);
    page.refresh();
    wait_for_game(&page);
    wait_for_my_turn(&page);
    assert_eq!(
        page.find(".status").attr("data-watching").as_deref(),
        Some("false")
    );
    no_console_errors(&page);
}

#[test]
fn a_wrong_password_is_said_in_the_servers_words() {
    let bench = bench("web-accounts-login");
    let signed = bench.server.post(
        "/api/account",
        &json!({ "username": "bob", "password": PASSWORD }),
    );
    assert_eq!(signed.status, 201, "{}", signed.body);
    let refused = bench.server.post(
        "/api/session",
        &json!({ "username": "bob", "password": "not-the-password" }),
    );
    assert_eq!(refused.status, 401, "{}", refused.body);
    let said = refused.body["error"].as_str().unwrap().to_string();

    let page = bench.driver.session();
    bench.open(&page, "#/login");
    assert_eq!(
        page.find("#password").attr("autocomplete").as_deref(),
        Some("current-password")
    );
    assert_eq!(page.find("label[for=password]").text(), "Password");
    fill(&page, "#username", "bob");
    fill(&page, "#password", "still-not-the-password");
    page.find(".login-form button.submit").click();
    let error = page.find(".login-form .error");
    page.wait_until("the refusal", || !error.text().is_empty());
    assert_eq!(error.text(), said);
    assert!(page.try_find(".account-name").is_none());

    // The right one logs in; the menu logs out.
    fill(&page, "#password", PASSWORD);
    page.find(".login-form button.submit").click();
    page.wait_until("the account in the header", || {
        page.try_text(".account-name")
            .is_some_and(|n| n.contains("bob"))
    });
    page.wait_until("my games", || href(&page).contains("#/games"));
    page.find(".account-name").click();
    page.find(".account-links .logout").click();
    page.wait_until("logged out", || page.try_find("#account a.login").is_some());
    let me: Value = js(&page, "return fetch('/api/account').then(r => r.status)");
    assert_eq!(me, 401);
    no_console_errors_but(&page, &[401]);
}

#[test]
fn the_account_settings_change_the_password_end_other_sessions_and_close_the_account() {
    let bench = bench("web-accounts-settings");
    let page = bench.driver.session();
    sign_up(&bench, &page, "carol");
    // Another browser logged in to the same account.
    let other = bench.driver.session();
    bench.open(&other, "#/login");
    fill(&other, "#username", "carol");
    fill(&other, "#password", PASSWORD);
    other.find(".login-form button.submit").click();
    other.wait_until("the other session", || {
        other.try_find(".account-name").is_some()
    });

    bench.open(&page, "#/account");
    page.wait_until("the settings", || {
        page.try_find(".account-settings").is_some()
    });
    assert_eq!(
        page.find("a.download").attr("href").as_deref(),
        Some("/api/account/export")
    );
    let export: Value = js(
        &page,
        "return fetch('/api/account/export').then(r => r.json())",
    );
    assert_eq!(export["account"]["username"], "carol", "{export}");
    // The settings list both sessions, each with its browser named as a person names it
    // (its own words on hover); this one marked.
    page.wait_until("both sessions listed", || {
        page.find_all(".session-list .session").len() == 2
    });
    let agent = js(&page, "return navigator.userAgent");
    let device = page.find(".session[data-current=true] .session-device");
    assert_eq!(device.text(), "Chrome on Linux", "{agent}");
    assert_eq!(device.attr("title").as_deref(), agent.as_str());
    let elsewhere = page.find(".session[data-current=false] .session-device");
    assert_eq!(elsewhere.text(), "Chrome on Linux");
    assert!(page
        .find(".session[data-current=true] .session-where")
        .text()
        .contains("127.0.0.1"));
    page.screenshot(artifacts_dir().join("web-account-sessions.png"));
    // A third browser's session, ended alone from the list.
    let third = bench.driver.session();
    bench.open(&third, "#/login");
    fill(&third, "#username", "carol");
    fill(&third, "#password", PASSWORD);
    third.find(".login-form button.submit").click();
    third.wait_until("the third session", || {
        third.try_find(".account-name").is_some()
    });
    page.refresh();
    page.wait_until("three sessions listed", || {
        page.find_all(".session-list .session").len() == 3
    });
    let status = |p: &Session| js(p, "return fetch('/api/account').then(r => r.status)");
    let newest = page.find(".session-list .session[data-current=false]");
    let newest_id = newest.attr("data-id").unwrap();
    newest.css(".end-session").click();
    page.wait_until("two sessions left", || {
        page.find_all(".session-list .session").len() == 2
    });
    assert!(page
        .try_find(&format!(".session[data-id='{newest_id}']"))
        .is_none());
    let ended = [&other, &third].iter().filter(|p| status(p) == 401).count();
    assert_eq!(ended, 1, "exactly the one session ended");
    page.find(".end-sessions").click();
    page.wait_until("the sessions ended", || {
        page.find(".sessions-done").text().contains('1')
    });
    assert_eq!(status(&other), 401, "the other session is over");
    assert_eq!(status(&page), 200, "this one goes on");

    // A wrong current password is refused in the server's words; the right one changes it.
    fill(&page, "#current-password", "not-the-password");
    fill(&page, "#new-password", "another-violet-L-99");
    page.find(".password-form button.submit").click();
    page.wait_until("the refusal", || {
        !page.find(".password-form .error").text().is_empty()
    });
    fill(&page, "#current-password", PASSWORD);
    fill(&page, "#new-password", "another-violet-L-99");
    page.find(".password-form button.submit").click();
    page.wait_until("the password changed", || {
        page.find(".password-done").text().contains("changed")
    });

    // Closing asks the password and a confirmation; then nobody is logged in.
    fill(&page, "#close-password", "another-violet-L-99");
    page.find(".close-form button.submit").click();
    page.accept_dialog();
    page.wait_until("the account closed", || {
        page.find(".closed-done").text().contains("closed")
    });
    page.wait_until("logged out", || page.try_find("#account a.login").is_some());
    assert_eq!(status(&page), 401);
    assert_eq!(bench.server.get("/api/users/carol").status, 404);
    no_console_errors_but(&page, &[401, 403]);
}

#[test]
fn a_rematch_on_one_device_opens_the_new_game_with_both_seats_by_its_id() {
    let bench = bench("web-accounts-rematch");
    let page = bench.driver.session();
    let id = start_game(&bench, &page, "local", "red");
    wait_for_my_turn(&page);
    resign_in_page(&page);
    page.wait_until("the game's end", || status(&page).2);
    page.find(".banner .rematch").click();
    page.wait_until("the rematch to open", || {
        let address = href(&page);
        address.contains("#/game/") && !address.contains(&id)
    });
    let new_id = game_id(&href(&page));
    assert_shareable(&bench, &page, &new_id);
    wait_for_game(&page);
    wait_for_my_turn(&page);
    assert_eq!(
        page.find(".status").attr("data-watching").as_deref(),
        Some("false")
    );
    assert_eq!(bench.server.state(&new_id)["rematch_of"], json!(id));
    assert_eq!(
        js(
            &page,
            "return document.querySelectorAll('.players .muted').length"
        ),
        2,
        "both sides are this page's"
    );
    no_console_errors(&page);
}
