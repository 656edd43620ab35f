//! Mail (issue #40, part 5) against a real SMTP server the test starts (Debian's
//! `python3-aiosmtpd`, keeping each message in a maildir): an address given at sign-up is
//! confirmed by its mailed link, once; a password reset answers the same `202` for a known
//! and an unknown name, mails only a confirmed address, and its link sets the password once,
//! ends every session and is refused used or expired (the server's clock moved); without
//! `--smtp` the endpoints say the server sends no mail. On SQLite and on PostgreSQL.

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::server::Server;
use lgame_test_support::smtp::{unfolded, SmtpServer};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::json;

pub(crate) const PASSWORD: &str = "correct horse battery";
const NEW_PASSWORD: &str = "a brand new passphrase";
pub(crate) const SITE: &str = "https://l.example.org";

/// A server on `backend` that mails through `smtp`, its clock the test's.
pub(crate) fn mail_server(backend: Backend, dir: &TempDir, smtp: &SmtpServer) -> Server {
    let mail = smtp.config();
    Server::with(backend.database(dir), move |config| {
        config.test_clock = true;
        config.mail = Some(mail);
    })
}

pub(crate) fn advance(browser: &Browser, ms: i64) {
    let page = browser.post("/api/test/clock", &json!({ "advance_ms": ms }));
    assert_eq!(page.status, 200, "{}", page.body);
}

/// Signs up `name` with `email`, and confirms the address with its mailed link.
pub(crate) fn confirmed(addr: &str, smtp: &SmtpServer, name: &str, email: &str) -> Browser {
    let browser = Browser::new(addr);
    let body = json!({ "username": name, "password": PASSWORD, "email": email });
    let page = browser.post("/api/account", &body);
    assert_eq!(page.status, 201, "{}", page.body);
    let code = smtp.code(email, "confirm-email", 1);
    let page = Browser::new(addr).post("/api/account/email/confirm", &json!({ "code": code }));
    assert_eq!(page.status, 204, "{}", page.body);
    browser
}

fn an_address_is_confirmed_by_its_link_once(backend: Backend) {
    let dir = TempDir::new("mail-confirm");
    let smtp = SmtpServer::start(dir.path(), SITE);
    let server = mail_server(backend, &dir, &smtp);
    let alice = Browser::new(&server.addr);
    let body = json!({ "username": "alice", "password": PASSWORD, "email": "alice@example.org" });
    assert_eq!(alice.post("/api/account", &body).status, 201);
    let code = smtp.code("alice@example.org", "confirm-email", 1);
    assert_eq!(code.len(), 64, "a code of 32 random bytes: {code}");

    // No session needed; the second use is refused.
    let stranger = Browser::new(&server.addr);
    let confirm = json!({ "code": code });
    assert_eq!(
        stranger.post("/api/account/email/confirm", &confirm).status,
        204
    );
    let again = stranger.post("/api/account/email/confirm", &confirm);
    assert_eq!(
        (again.status, again.kind()),
        (400, "bad_code"),
        "{}",
        again.body
    );

    // A new address is unconfirmed until its own link is followed: a reset by it mails
    // nothing until then, and an expired link confirms nothing.
    let change = json!({ "email": "alice@new.example.org" });
    let page = alice.post("/api/account/email", &change);
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(page.body["email"], "alice@new.example.org");
    let code = smtp.code("alice@new.example.org", "confirm-email", 1);
    let by_email = json!({ "email": "alice@new.example.org" });
    assert_eq!(stranger.post("/api/password-reset", &by_email).status, 202);
    advance(&stranger, 31 * 60 * 1000);
    let late = stranger.post("/api/account/email/confirm", &json!({ "code": code }));
    assert_eq!(
        (late.status, late.kind()),
        (400, "bad_code"),
        "{}",
        late.body
    );
    // The reset asked before: it mailed nothing to the unconfirmed address.
    assert!(smtp.to("alice@new.example.org", "reset").is_empty());
}

fn a_reset_link_sets_the_password_once_and_ends_every_session(backend: Backend) {
    let dir = TempDir::new("mail-reset");
    let smtp = SmtpServer::start(dir.path(), SITE);
    let server = mail_server(backend, &dir, &smtp);
    let addr = server.addr.clone();
    let session = confirmed(&addr, &smtp, "bob", "bob@example.org");
    assert_eq!(session.get("/api/account").status, 200);

    // The same answer for a name nobody has and for bob, and nothing mailed for the first.
    let asker = Browser::new(&addr);
    let unknown = asker.post("/api/password-reset", &json!({ "username": "nobody" }));
    let known = asker.post("/api/password-reset", &json!({ "username": "BOB" }));
    assert_eq!(unknown.status, 202, "{}", unknown.body);
    assert_eq!((unknown.status, &unknown.body), (known.status, &known.body));
    let code = smtp.code("bob@example.org", "reset", 1);
    let resets = smtp
        .messages()
        .iter()
        .filter(|m| unfolded(m).contains("#/reset?code="))
        .count();
    assert_eq!(resets, 1, "one reset mailed, to bob");

    // A refused password leaves the link usable; the right one sets it, once.
    let weak = json!({ "code": code, "password": "password" });
    let page = asker.post("/api/password-reset/confirm", &weak);
    assert_eq!(
        (page.status, page.kind()),
        (400, "bad_password"),
        "{}",
        page.body
    );
    let reset = json!({ "code": code, "password": NEW_PASSWORD });
    let page = asker.post("/api/password-reset/confirm", &reset);
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(page.body["username"], "bob");
    assert_eq!(
        asker.get("/api/account").status,
        200,
        "the asker is logged in"
    );
    let again = Browser::new(&addr).post("/api/password-reset/confirm", &reset);
    assert_eq!(
        (again.status, again.kind()),
        (400, "bad_code"),
        "{}",
        again.body
    );

    // Every session before the reset ended; the new password logs in, the old does not.
    assert_eq!(session.get("/api/account").status, 401);
    let log_in = |password: &str| {
        let body = json!({ "username": "bob", "password": password });
        Browser::new(&addr).post("/api/session", &body).status
    };
    assert_eq!((log_in(PASSWORD), log_in(NEW_PASSWORD)), (401, 200));

    // By address too; a link 30 minutes old is refused.
    let by_email = json!({ "email": "Bob@Example.org" });
    assert_eq!(asker.post("/api/password-reset", &by_email).status, 202);
    let code = smtp.code("bob@example.org", "reset", 2);
    advance(&asker, 30 * 60 * 1000 + 1);
    let late = json!({ "code": code, "password": "yet another passphrase" });
    let page = asker.post("/api/password-reset/confirm", &late);
    assert_eq!(
        (page.status, page.kind()),
        (400, "bad_code"),
        "{}",
        page.body
    );
}

fn resets_are_limited_per_name(backend: Backend) {
    let dir = TempDir::new("mail-limits");
    let smtp = SmtpServer::start(dir.path(), SITE);
    let server = mail_server(backend, &dir, &smtp);
    let asker = Browser::new(&server.addr);
    let ask = json!({ "username": "carol" });
    for _ in 0..3 {
        assert_eq!(asker.post("/api/password-reset", &ask).status, 202);
    }
    let page = Browser::new(&server.addr).post("/api/password-reset", &ask);
    assert_eq!(page.status, 429, "{}", page.body);
    assert!(page.retry_after.is_some());
}

on_both_backends!(
    an_address_is_confirmed_by_its_link_once,
    a_reset_link_sets_the_password_once_and_ends_every_session,
    resets_are_limited_per_name,
);

#[test]
fn without_smtp_the_server_says_it_sends_no_mail() {
    let (_dir, server) = Server::in_temp_dir("mail-none");
    let asker = Browser::new(&server.addr);
    for (path, body) in [
        ("/api/password-reset", json!({ "username": "dave" })),
        (
            "/api/password-reset/confirm",
            json!({ "code": "00", "password": NEW_PASSWORD }),
        ),
        ("/api/account/email/confirm", json!({ "code": "00" })),
    ] {
        let page = asker.post(path, &body);
        assert_eq!(
            (page.status, page.kind()),
            (503, "no_mail"),
            "{path}: {}",
            page.body
        );
    }
}
