//! Web Push on the page (issue #40, part 6): in Chromium, the service worker the page
//! registered is handed, through the DevTools protocol (`ServiceWorker.deliverPushMessage`),
//! the very "your move" notice the server sent to a push service (`push_service`'s receiver
//! decrypts it); it shows the notification, and the notification's click path opens the game
//! on the page, which was on the lobby. And a signed-in player's "notify me" in a
//! correspondence game, on a phone, asks for a subscription, and says why none was made when
//! the browser reaches no push service. Photographed in
//! `target/browser-artifacts/journeys/push/` and `push-ask/`.

use crate::browser_common::{
    api_account, bench_with, no_console_errors, sign_up_on, Bench, PASSWORD,
};
use crate::journey::Person;
use crate::push_service::Receiver;
use lgame_test_support::accounts::Browser;
use lgame_test_support::http::a_legal_move;
use std::time::Duration;

use serde_json::{json, Value};

/// The notifications this page's service worker shows: each one's title, body and data.
const SHOWN: &str = "const done = arguments[0]; navigator.serviceWorker.ready
    .then((r) => r.getNotifications())
    .then((all) => done(all.map((n) => ({ title: n.title, body: n.body, data: n.data }))));";

#[test]
fn a_push_shows_the_notification_and_its_click_opens_the_game() {
    let bench = bench_with("web-push", |c| c.test_push_receivers = true);
    let server = &bench.server;
    // The site's origin, and its service worker's scope.
    let (origin, scope) = (server.url(""), server.url("/"));
    let key = server.get("/api/push/key").body["key"]
        .as_str()
        .unwrap()
        .to_string();
    let receiver = Receiver::start(&key);

    // Ann, signed up on the page, her account subscribed at the test's push service (headless
    // Chromium has no push service of its own).
    let ann = Person::desktop(&bench.driver, "push", "ann");
    sign_up_on(&bench, &ann.page, "ann");
    let ann_api = Browser::new(&server.addr);
    let logged_in = ann_api.post(
        "/api/session",
        &json!({ "username": "ann", "password": PASSWORD }),
    );
    assert_eq!(logged_in.status, 200, "{}", logged_in.body);
    let kept = ann_api.post("/api/push/subscriptions", &receiver.subscription("/ann"));
    assert_eq!(kept.status, 204, "{}", kept.body);

    // Her correspondence seek, taken by Bob: she plays Blue, Bob moves first.
    let bob = api_account(&bench, "bob");
    let seek = ann_api.post(
        "/api/seeks",
        &json!({ "clock": { "days": 3 }, "colour": "blue" }),
    );
    assert_eq!(seek.status, 201, "{}", seek.body);
    let id = seek.body["id"].as_str().unwrap();
    let took = bob.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    let game = took.body["id"].as_str().unwrap().to_string();
    assert_eq!(receiver.next()["payload"]["title"], "Your game started");

    // Her game's page registers the service worker; notifications allowed for the site.
    ann.open(&bench, &format!("#/game/{game}"));
    ann.page.cdp(
        "Browser.grantPermissions",
        json!({ "permissions": ["notifications"], "origin": origin }),
    );
    let ready = ann.page.execute_async(
        "navigator.serviceWorker.ready.then(() => arguments[0](Notification.permission))",
        vec![],
    );
    assert_eq!(ready, "granted");
    ann.open(&bench, "#/play");
    ann.shot("on-the-lobby");

    // Bob moves: the server pushes "your move", which the push service decrypts.
    let state = &took.body["state"];
    let token = took.body["players"]["red"]["token"].as_str().unwrap();
    let body = json!({ "token": token, "ply": 1, "move": a_legal_move(state, 0) });
    let moved = bob.post(&format!("/api/games/{game}/moves"), &body);
    assert_eq!(moved.status, 200, "{}", moved.body);
    let told = receiver.next();
    let notice = &told["payload"];
    assert_eq!(notice["title"], "Your move", "{told}");

    // The same notice, delivered to the page's service worker as its push service would.
    let mut devtools = ann.page.devtools();
    let page_target = devtools.attach("page", &origin);
    devtools.call(Some(&page_target), "ServiceWorker.enable", json!({}));
    let (updated, _) = devtools.event("ServiceWorker.workerRegistrationUpdated", |p| {
        p["registrations"].as_array().is_some_and(|all| {
            all.iter()
                .any(|r| r["scopeURL"] == scope && r["isDeleted"] == false)
        })
    });
    let registration = updated["registrations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["scopeURL"] == scope)
        .unwrap()["registrationId"]
        .clone();
    devtools.call(
        Some(&page_target),
        "ServiceWorker.deliverPushMessage",
        json!({ "origin": origin, "registrationId": registration,
                "data": notice.to_string() }),
    );
    let mut shown = Value::Null;
    ann.page.wait_until("the notification to be shown", || {
        shown = ann.page.execute_async(SHOWN, vec![]);
        shown.as_array().is_some_and(|all| !all.is_empty())
    });
    assert_eq!(
        shown,
        json!([{ "title": "Your move", "body": notice["body"],
                 "data": { "url": format!("/#/game/{game}") } }])
    );
    assert_eq!(notice["body"], "It is your move in a correspondence game.");
    ann.shot("notified-on-the-lobby");

    // Its click. A person's click on a notification cannot be made in headless Chromium: the
    // DevTools protocol has no command that clicks one (ServiceWorker's only dispatch
    // `push`, `sync` and `periodicsync`) and headless shows none to click. So the worker's
    // own click path (`openFrom`, what its `notificationclick` handler runs) is run in the
    // worker, with the notification it showed.
    let worker = devtools.attach("service_worker", &origin);
    let opened = devtools.evaluate(
        &worker,
        "registration.getNotifications().then(([shown]) => openFrom(shown)).then(() => true)",
    );
    assert_eq!(opened, true);
    ann.page.wait_until("the game to open on the page", || {
        crate::browser_common::game_of(&ann.page).as_deref() == Some(game.as_str())
    });
    crate::browser_common::wait_for_shown(&ann.page);
    crate::browser_common::wait_for_ply(&ann.page, 1);
    ann.shot("the-game-opened");
    assert_eq!(
        ann.page.execute_async(SHOWN, vec![]),
        json!([]),
        "the clicked notification closed"
    );
    no_console_errors(&ann.page);
}

/// A correspondence game of `name`'s (Blue, signed up on `person`'s page) against a new
/// account's (Red, to move): its id.
fn correspondence_game(bench: &Bench, person: &Person, name: &str) -> String {
    sign_up_on(bench, &person.page, name);
    let player = Browser::new(&bench.server.addr);
    let body = json!({ "username": name, "password": PASSWORD });
    assert_eq!(player.post("/api/session", &body).status, 200);
    let opponent = api_account(bench, &format!("{name}-rival"));
    let seek = player.post(
        "/api/seeks",
        &json!({ "clock": { "days": 3 }, "colour": "blue" }),
    );
    assert_eq!(seek.status, 201, "{}", seek.body);
    let id = seek.body["id"].as_str().unwrap();
    let took = opponent.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    took.body["id"].as_str().unwrap().to_string()
}

#[test]
fn notify_me_in_a_correspondence_game_tries_a_subscription_and_says_why_none_was_made() {
    let bench = bench_with("web-push-ask", |c| c.test_push_receivers = true);
    let cy = Person::phone(&bench.driver, "push-ask", "cy");
    let game = correspondence_game(&bench, &cy, "cy");
    cy.page.cdp(
        "Browser.grantPermissions",
        json!({ "permissions": ["notifications"], "origin": bench.server.url("") }),
    );
    cy.open(&bench, &format!("#/game/{game}"));
    // Allowed already, but not subscribed: offered still (a subscription is what tells a
    // closed page).
    cy.shown(".notify-me");
    cy.shot("offered");
    cy.press(".notify-me");
    // Headless Chromium reaches no push service: `pushManager.subscribe` never settles, and
    // after its 10 s (account/push.js) the page says so.
    let said = "could not subscribe to notifications";
    cy.page.wait_for(
        &format!("the page to say {said:?}"),
        Duration::from_secs(20),
        || cy.text(".notify-said").contains(said),
    );
    cy.shot("said");
    assert!(!cy.page.find(".notify-me").is_displayed(), "offered once");
    let subscriptions = cy
        .page
        .execute_async("navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription()).then((s) => arguments[0](s === null))", vec![]);
    assert_eq!(subscriptions, true, "no subscription made");
    no_console_errors(&cy.page);
}
