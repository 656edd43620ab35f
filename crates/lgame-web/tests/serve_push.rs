//! Web Push (docs/deploy.md, "Push notifications"), against a push service started by the
//! test (`push_service`): what the server sends is decrypted as a browser would (RFC 8291,
//! `aes128gcm`) and its VAPID signature checked (ES256) against `GET /api/push/key`, for a
//! correspondence game started, a move and a challenge; an account keeps its 10 newest
//! subscriptions; a subscription the service says is gone (410) is deleted; and the
//! endpoints the server must never post to are refused, by address and by name. On SQLite
//! and on PostgreSQL.

use std::time::Duration;

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::bots::Program;
use lgame_test_support::http::a_legal_move;
use lgame_test_support::server::Server;
use lgame_test_support::{on_both_backends, TempDir};
use lgame_web::{Action, ActionLimits};
use serde_json::json;

use crate::push_service::Receiver;

/// A server that may post to the test's receiver, and the receiver, given the server's key.
fn push_service(backend: Backend, name: &str) -> (TempDir, Server, Receiver) {
    push_service_with(backend, name, ActionLimits::default())
}

/// [`push_service`] with the limits on what changes `limits`.
fn push_service_with(
    backend: Backend,
    name: &str,
    limits: ActionLimits,
) -> (TempDir, Server, Receiver) {
    let dir = TempDir::new(name);
    let server = Server::with(backend.database(&dir), |c| {
        c.test_push_receivers = true;
        c.action_limits = limits;
    });
    let receiver = Receiver::for_server(&server);
    (dir, server, receiver)
}

fn a_correspondence_player_away_is_told_their_game_started_and_their_move(backend: Backend) {
    let (_dir, server, receiver) = push_service(backend, "push-told");
    let addr = server.addr.clone();

    let seeker = Browser::signed_up(&addr, "alice", "correct horse battery");
    let anonymous = Browser::new(&addr);
    let sub = receiver.subscription("/alice");
    let refused = anonymous.post("/api/push/subscriptions", &sub);
    assert_eq!((refused.status, refused.kind()), (401, "no_session"));
    let kept = seeker.post("/api/push/subscriptions", &sub);
    assert_eq!(kept.status, 204, "{}", kept.body);

    // Alice's seek is taken while she has no lobby page open: told the game started.
    let taker = Browser::signed_up(&addr, "bob", "correct horse battery");
    let seek = json!({ "clock": { "days": 3 }, "colour": "blue" });
    let page = seeker.post("/api/seeks", &seek);
    assert_eq!(page.status, 201, "{}", page.body);
    let id = page.body["id"].as_str().unwrap();
    let took = taker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    let game = took.body["id"].as_str().unwrap().to_string();
    let started = receiver.next();
    assert_eq!(started["path"], "/alice");
    assert_eq!(started["payload"]["title"], "Your game started");
    assert_eq!(started["payload"]["url"], format!("/#/game/{game}"));

    // Bob (red) moves: Alice is told it is her move, the page to open named.
    let state = &took.body["state"];
    let token = took.body["players"]["red"]["token"].as_str().unwrap();
    let body = json!({ "token": token, "ply": 1, "move": a_legal_move(state, 0) });
    let moved = taker.post(&format!("/api/games/{game}/moves"), &body);
    assert_eq!(moved.status, 200, "{}", moved.body);
    let told = receiver.next();
    assert_eq!(told["payload"]["title"], "Your move");
    assert_eq!(told["payload"]["url"], format!("/#/game/{game}"));
    assert_eq!(told["payload"]["tag"], format!("game-{game}"));

    // Unsubscribed: nothing to end a second time.
    let endpoint = json!({ "endpoint": sub["endpoint"] });
    let ended = seeker.delete("/api/push/subscriptions", Some(&endpoint));
    assert_eq!(ended.status, 204, "{}", ended.body);
    let again = seeker.delete("/api/push/subscriptions", Some(&endpoint));
    assert_eq!((again.status, again.kind()), (404, "no_subscription"));
}

fn a_bot_accounts_owner_is_told_of_a_challenge(backend: Backend) {
    let (_dir, server, receiver) = push_service(backend, "push-challenge");
    let addr = server.addr.clone();
    let owner = Browser::signed_up(&addr, "deepl", "correct horse battery");
    let sub = receiver.subscription("/deepl");
    let kept = owner.post("/api/push/subscriptions", &sub);
    assert_eq!(kept.status, 204, "{}", kept.body);
    let program = Program::new(&addr, &owner.bot_token());
    let _events = program.stream("/api/bot/events");

    let alice = Browser::signed_up(&addr, "alice", "correct horse battery");
    let challenge = alice.post("/api/challenges/deepl", &json!({ "clock": { "days": 2 } }));
    assert_eq!(challenge.status, 201, "{}", challenge.body);
    let id = challenge.body["id"].as_str().unwrap();
    let told = receiver.next();
    assert_eq!(told["path"], "/deepl");
    assert_eq!(told["payload"]["title"], "A challenge");
    assert_eq!(told["payload"]["body"], "alice challenges you.");
    assert_eq!(told["payload"]["tag"], format!("challenge-{id}"));
}

fn a_subscription_its_push_service_says_is_gone_is_deleted(backend: Backend) {
    let (_dir, server, receiver) = push_service(backend, "push-gone");
    let addr = server.addr.clone();
    let alice = Browser::signed_up(&addr, "alice", "correct horse battery");
    let sub = receiver.subscription("/gone/alice");
    assert_eq!(alice.post("/api/push/subscriptions", &sub).status, 204);

    // Her seek is taken while her page is closed: a push, answered 410 Gone.
    let page = alice.post("/api/seeks", &json!({ "clock": { "days": 1 } }));
    assert_eq!(page.status, 201, "{}", page.body);
    let bob = Browser::signed_up(&addr, "bob", "correct horse battery");
    let id = page.body["id"].as_str().unwrap();
    let took = bob.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    let told = receiver.next();
    assert_eq!(told["path"], "/gone/alice");
    assert_eq!(told["payload"]["title"], "Your game started");

    // Answered 410: the subscription is gone from the database.
    let endpoint = json!({ "endpoint": sub["endpoint"] });
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let ended = alice.delete("/api/push/subscriptions", Some(&endpoint));
        if ended.status == 404 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "still kept after the 410"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An account's notices go to its 10 newest browsers: an 11th replaces the oldest, so that
/// no account makes the server post to endless URLs; and subscribing is one of the account's
/// counted changes.
fn an_account_keeps_its_ten_newest_subscriptions(backend: Backend) {
    let unlimited = ActionLimits::default().with(Action::Account, 0);
    let (_dir, server, receiver) = push_service_with(backend, "push-most", unlimited);
    let alice = Browser::signed_up(&server.addr, "alice", "correct horse battery");
    for i in 0..11 {
        let kept = alice.post(
            "/api/push/subscriptions",
            &receiver.subscription(&format!("/{i}")),
        );
        assert_eq!(kept.status, 204, "{}", kept.body);
        // Each at a time of its own (the server's milliseconds), so that "oldest" is one.
        std::thread::sleep(Duration::from_millis(3));
    }
    let end = |i: usize| {
        let endpoint = receiver.subscription(&format!("/{i}"))["endpoint"].clone();
        let page = alice.delete(
            "/api/push/subscriptions",
            Some(&json!({ "endpoint": endpoint })),
        );
        (page.status, page.kind().to_string())
    };
    assert_eq!(
        end(0),
        (404, "no_subscription".into()),
        "the oldest replaced"
    );
    for i in 1..11 {
        assert_eq!(end(i).0, 204, "subscription {i} kept");
    }
}

on_both_backends!(
    an_account_keeps_its_ten_newest_subscriptions,
    a_correspondence_player_away_is_told_their_game_started_and_their_move,
    a_bot_accounts_owner_is_told_of_a_challenge,
    a_subscription_its_push_service_says_is_gone_is_deleted,
);

#[test]
fn subscribing_counts_as_one_of_the_accounts_changes() {
    let (_dir, server, receiver) = push_service(Backend::Sqlite, "push-counted");
    let alice = Browser::signed_up(&server.addr, "alice", "correct horse battery");
    let per_minute = Action::Account.default_per_minute();
    for i in 0..per_minute {
        let kept = alice.post(
            "/api/push/subscriptions",
            &receiver.subscription(&format!("/{i}")),
        );
        assert_eq!(kept.status, 204, "{}", kept.body);
    }
    let past = alice.post("/api/push/subscriptions", &receiver.subscription("/past"));
    assert_eq!(
        (past.status, past.kind()),
        (429, "too_many_requests"),
        "{}",
        past.body
    );
    assert!(past.retry_after.is_some());
}

#[test]
fn endpoints_inside_the_network_are_refused_by_address_and_by_name() {
    let (_dir, server) = Server::in_temp_dir("push-refused");
    let alice = Browser::signed_up(&server.addr, "alice", "correct horse battery");
    let keys = json!({
        "p256dh": "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY",
        "auth": "_ordMnz7uTCmrpBTeUV4Bw"
    });
    for endpoint in [
        "https://127.0.0.1/push",
        "https://10.0.0.8/push",
        "https://192.168.1.1:8443/push",
        "https://169.254.169.254/latest",
        "https://[::1]/push",
        "https://[fe80::1]/push",
        "https://[::ffff:127.0.0.1]/push",
        "https://0.0.0.0/push",
        "https://localhost/push",
        "http://push.example.net/push",
    ] {
        let sub = json!({ "endpoint": endpoint, "expirationTime": null, "keys": keys });
        let page = alice.post("/api/push/subscriptions", &sub);
        assert_eq!(
            (page.status, page.kind()),
            (400, "bad_subscription"),
            "{endpoint}: {}",
            page.body
        );
    }
}
