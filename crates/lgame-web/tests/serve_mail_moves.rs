//! Correspondence's "your move" mail (issue #40, part 5) against the real SMTP server of
//! `serve_mail`: an account is mailed when a correspondence game waits for its move, at most
//! once a day (the server's clock moved), several games then in one digest; every mail
//! carries RFC 8058's one-click unsubscribe, which works without a session and stops the
//! mail; the account's settings turn it on again; an unconfirmed address gets nothing. On
//! SQLite and on PostgreSQL.

use std::time::{Duration, Instant};

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::http::quiet_moves;
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::json;

use lgame_test_support::smtp::{unfolded, SmtpServer};

use crate::serve_mail::{advance, confirmed, mail_server, PASSWORD, SITE};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Longer than the server takes to look for moves to mail (every second) and send them: a
/// mail not there after it was not sent.
const SETTLED: Duration = Duration::from_secs(3);

/// The "your move" mails to `to` (those with an unsubscribe header), unfolded.
fn your_moves(smtp: &SmtpServer, to: &str) -> Vec<String> {
    smtp.messages()
        .iter()
        .map(|m| unfolded(m))
        .filter(|m| m.contains(&format!("To: {to}")) && m.contains("List-Unsubscribe:"))
        .collect()
}

/// Waits for `n` "your move" mails to `to`: them.
fn wait_for(smtp: &SmtpServer, to: &str, n: usize) -> Vec<String> {
    let started = Instant::now();
    loop {
        let mails = your_moves(smtp, to);
        if mails.len() >= n {
            assert_eq!(mails.len(), n, "{mails:#?}");
            return mails;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{n} your-move mails to {to}, not {}: {:#?}",
            mails.len(),
            smtp.messages()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// After [`SETTLED`]: still exactly `n` "your move" mails to `to`.
fn still(smtp: &SmtpServer, to: &str, n: usize) {
    std::thread::sleep(SETTLED);
    let mails = your_moves(smtp, to);
    assert_eq!(mails.len(), n, "{mails:#?}");
}

/// A correspondence game: `red` holds red and invites `blue`, who takes the seat. Its id.
fn correspondence_game(red: &Browser, blue: &Browser) -> String {
    let body = json!({
        "red": "human", "blue": "human", "hold": ["red"], "invite": "blue",
        "clock": { "days": 3 },
    });
    let created = red.post("/api/games", &body);
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let url = created.body["invitation"]["url"].as_str().unwrap();
    let invite = url.split("invite=").nth(1).unwrap();
    let seated = blue.post(
        &format!("/api/games/{id}/seat"),
        &json!({ "invite": invite }),
    );
    assert_eq!(seated.status, 200, "{}", seated.body);
    id
}

/// `player` makes a move that ends nothing; the side to move then.
fn play(player: &Browser, id: &str) -> String {
    let state = player.get(&format!("/api/games/{id}")).body;
    let mv = &quiet_moves(&state)[0];
    let ply = state["plies"].as_u64().unwrap() + 1;
    let moved = player.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "ply": ply, "move": mv }),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    moved.body["turn"].as_str().unwrap().to_string()
}

/// The unsubscribe link a mail's `List-Unsubscribe` header gives, checked as RFC 8058 asks.
fn unsubscribe_link(mail: &str) -> String {
    assert!(
        mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{mail}"
    );
    let start = format!("List-Unsubscribe: <{SITE}/api/mail/unsubscribe/");
    let at = mail.find(&start).unwrap_or_else(|| panic!("{mail}")) + start.len();
    let token: String = mail[at..].chars().take_while(|c| *c != '>').collect();
    assert_eq!(token.len(), 64, "{token}");
    format!("/api/mail/unsubscribe/{token}")
}

fn your_move_is_mailed_once_a_day_and_several_games_in_one_digest(backend: Backend) {
    let dir = TempDir::new("mail-moves");
    let smtp = SmtpServer::start(dir.path(), SITE);
    let server = mail_server(backend, &dir, &smtp);
    let addr = server.addr.clone();
    let alice = confirmed(&addr, &smtp, "alice", "alice@example.org");
    let bob = confirmed(&addr, &smtp, "bob", "bob@example.org");

    // Alice (red) moves: bob's turn, and bob is mailed, with a link to the game.
    let first = correspondence_game(&alice, &bob);
    assert_eq!(play(&alice, &first), "blue");
    let mails = wait_for(&smtp, "bob@example.org", 1);
    assert!(
        mails[0].contains("Subject: Your move in the L game"),
        "{}",
        mails[0]
    );
    assert!(
        mails[0].contains(&format!("{SITE}/#/game/{first}")),
        "{}",
        mails[0]
    );
    unsubscribe_link(&mails[0]);
    assert_eq!(play(&bob, &first), "red");
    wait_for(&smtp, "alice@example.org", 1);

    // Bob's turn again, and in a second game too (both sides' first moves made, or the day
    // moved below would abort it): he was mailed today, nothing now, nor to alice.
    assert_eq!(play(&alice, &first), "blue");
    let second = correspondence_game(&alice, &bob);
    assert_eq!(play(&alice, &second), "blue");
    assert_eq!(play(&bob, &second), "red");
    assert_eq!(play(&alice, &second), "blue");
    still(&smtp, "bob@example.org", 1);

    // A day later: one digest naming both games.
    advance(&alice, DAY_MS);
    let mails = wait_for(&smtp, "bob@example.org", 2);
    let digest = mails
        .iter()
        .find(|m| m.contains("Subject: 2 L games wait for your move"))
        .unwrap_or_else(|| panic!("no digest: {mails:#?}"));
    for id in [&first, &second] {
        assert!(digest.contains(&format!("{SITE}/#/game/{id}")), "{digest}");
    }
    unsubscribe_link(digest);
    // Nothing more while nothing new waits, even a day later.
    advance(&alice, DAY_MS);
    still(&smtp, "bob@example.org", 2);
    assert_eq!(your_moves(&smtp, "alice@example.org").len(), 1);
}

fn unsubscribe_needs_no_session_and_stops_the_mail_and_an_unconfirmed_address_gets_none(
    backend: Backend,
) {
    let dir = TempDir::new("mail-unsubscribe");
    let smtp = SmtpServer::start(dir.path(), SITE);
    let server = mail_server(backend, &dir, &smtp);
    let addr = server.addr.clone();
    let alice = confirmed(&addr, &smtp, "alice", "alice@example.org");
    let carol = Browser::new(&addr);
    let body = json!({ "username": "carol", "password": PASSWORD, "email": "carol@example.org" });
    assert_eq!(carol.post("/api/account", &body).status, 201);

    // Carol's turn: her address is not confirmed, nothing is sent to it.
    let id = correspondence_game(&alice, &carol);
    assert_eq!(play(&alice, &id), "blue");
    still(&smtp, "carol@example.org", 0);
    assert_eq!(play(&carol, &id), "red");
    let mails = wait_for(&smtp, "alice@example.org", 1);
    let link = unsubscribe_link(&mails[0]);

    // The link in a browser: a page with a button, which changes nothing by itself.
    let stranger = Browser::new(&addr);
    let page = stranger.get(&link);
    assert_eq!(page.status, 200);
    let html = page.body.as_str().unwrap();
    assert!(html.contains("<form method=\"post\">"), "{html}");
    assert_eq!(alice.get("/api/account/mail").body["your_move"], true);

    // The mail client's one click: a POST without a session, as RFC 8058 sends it.
    let clicked = ureq::post(&format!("http://{addr}{link}"))
        .set("Content-Type", "application/x-www-form-urlencoded")
        .send_string("List-Unsubscribe=One-Click")
        .expect("the one-click unsubscribe");
    assert_eq!(clicked.status(), 200);
    assert_eq!(alice.get("/api/account/mail").body["your_move"], false);
    let unknown = format!("/api/mail/unsubscribe/{}", "0".repeat(64));
    let unknown = stranger.send("POST", &unknown, None, &[]);
    assert_eq!((unknown.status, unknown.kind()), (404, "not_found"));

    // Her turn again a day later: no mail.
    assert_eq!(play(&alice, &id), "blue");
    advance(&alice, DAY_MS);
    assert_eq!(play(&carol, &id), "red");
    still(&smtp, "alice@example.org", 1);

    // Her settings turn it on again: the game that waits is mailed.
    let on = json!({ "your_move": true });
    let on = alice.send("PUT", "/api/account/mail", Some(&on), &[]);
    assert_eq!(on.status, 200, "{}", on.body);
    assert_eq!(on.body["your_move"], true);
    let mails = wait_for(&smtp, "alice@example.org", 2);
    assert!(
        mails
            .iter()
            .all(|m| m.contains(&format!("{SITE}/#/game/{id}"))),
        "{mails:#?}"
    );
    assert_eq!(Browser::new(&addr).get("/api/account/mail").status, 401);
}

on_both_backends!(
    your_move_is_mailed_once_a_day_and_several_games_in_one_digest,
    unsubscribe_needs_no_session_and_stops_the_mail_and_an_unconfirmed_address_gets_none,
);
