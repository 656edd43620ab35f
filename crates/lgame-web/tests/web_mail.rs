//! Mail's journeys on the page (issue #40, part 5), against a real SMTP server the test
//! starts (`lgame_test_support::smtp`): a person on a 390×844 phone confirms their address by
//! its mailed link, then, having forgotten their password, asks for a link from the log-in
//! form, opens the mailed link, sets a new password and is logged in; the same link again says
//! it is used; a new address given in the settings is mailed its own link. And at a desktop,
//! the settings' choice of "your move" mail, turned off, is kept. Every step photographed in
//! `target/browser-artifacts/journeys/mail/` and `mail-choice/`.

use std::net::TcpListener;

use crate::browser_common::{self, bench_with, no_console_errors, sign_up_on, Bench, PASSWORD};
use crate::journey::Person;
use lgame_test_support::accounts::Browser;
use lgame_test_support::smtp::SmtpServer;
use lgame_test_support::TempDir;
use serde_json::json;

const NEW_PASSWORD: &str = "quiet-L-moves-later";

/// A bench whose server mails through `smtp`, its links to the server's own address (`site`).
fn mail_bench(site_port: u16, smtp: &SmtpServer) -> Bench {
    let mail = smtp.config();
    bench_with("journey-mail", move |c| {
        c.addr = ([127, 0, 0, 1], site_port).into();
        c.mail = Some(mail);
    })
}

/// Opens a mailed link as a person does: the whole address, as the mail gives it.
fn follow(person: &Person, link: &str) {
    person.page.goto(link);
    browser_common::wait_for_shown(&person.page);
}

#[test]
fn a_person_who_forgot_their_password_gets_back_in_by_mail_on_a_phone() {
    let dir = TempDir::new("journey-mail-smtp");
    // The site's address before the server starts: its mail links to it.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let smtp = SmtpServer::start(dir.path(), &format!("http://127.0.0.1:{port}"));
    let bench = mail_bench(port, &smtp);
    let signed_up = Browser::new(&bench.server.addr).post(
        "/api/account",
        &json!({ "username": "eve", "password": PASSWORD, "email": "eve@example.org" }),
    );
    assert_eq!(signed_up.status, 201, "{}", signed_up.body);
    let eve = Person::phone(&bench.driver, "mail", "eve");

    // The address is confirmed by opening its link; a second time, the link is used.
    let confirm = smtp.link_in("eve@example.org", "confirm-email", 1);
    follow(&eve, &confirm);
    eve.wait_for_words(
        ".confirm-email .confirm-done",
        "Your email address is confirmed.",
    );
    eve.shot("address-confirmed");
    eve.open(&bench, "#/play");
    follow(&eve, &confirm);
    eve.wait_for_words(".confirm-email .error", "used already or expired");

    // Forgotten: from the log-in form, a link asked for by name.
    eve.open(&bench, "#/login");
    eve.press(".to-forgot");
    eve.page.wait_until("the form asking for a link", || {
        eve.page.try_find(".forgot-form").is_some()
    });
    eve.type_into("#who", "eve");
    eve.shot("forgot");
    eve.press(".forgot-form button.submit");
    eve.wait_for_words(".forgot-done", "a link is on its way");
    eve.shot("link-asked");

    // The mailed link: two passwords that differ are refused before anything is sent, the
    // same one twice sets it and logs in.
    let reset = smtp.link_in("eve@example.org", "reset", 1);
    follow(&eve, &reset);
    eve.type_into("#new-password", NEW_PASSWORD);
    eve.type_into("#repeat-password", "quiet-L-moves-later!");
    eve.press(".reset-form button.submit");
    eve.wait_for_words(".reset-form .error", "The two passwords differ");
    eve.shot("passwords-differ");
    eve.type_into("#new-password", NEW_PASSWORD);
    eve.type_into("#repeat-password", NEW_PASSWORD);
    eve.press(".reset-form button.submit");
    eve.page.wait_until("the page to go on to my games", || {
        eve.page.url().ends_with("#/games")
    });
    // The header's account menu names her (on a phone by its label: the name is folded away).
    eve.page.wait_until("the header to name eve", || {
        eve.page
            .try_find(".account-name")
            .and_then(|n| n.attr("aria-label"))
            == Some("Account menu of eve".into())
    });
    eve.shot("logged-in");
    no_console_errors(&eve.page);
    let log_in = |password: &str| {
        let body = json!({ "username": "eve", "password": password });
        Browser::new(&bench.server.addr)
            .post("/api/session", &body)
            .status
    };
    assert_eq!((log_in(PASSWORD), log_in(NEW_PASSWORD)), (401, 200));

    // A new address in the settings: mailed its own link, which confirms it.
    eve.open(&bench, "#/account");
    eve.page.find("#email").clear();
    eve.type_into("#email", "eve@new.example.org");
    eve.press(".email-form button.submit");
    eve.wait_for_words(".email-done", "confirms eve@new.example.org is on its way");
    eve.shot("address-changed");
    follow(
        &eve,
        &smtp.link_in("eve@new.example.org", "confirm-email", 1),
    );
    eve.wait_for_words(".confirm-email .confirm-done", "confirmed");

    // The same link again: used, said so, with the way to a new one.
    follow(&eve, &reset);
    eve.type_into("#new-password", "yet-another-L-move");
    eve.type_into("#repeat-password", "yet-another-L-move");
    eve.press(".reset-form button.submit");
    eve.wait_for_words(".reset-form .error", "used already or expired");
    eve.shown(".reset-form .to-forgot");
    eve.shot("link-used");
}

#[test]
fn the_settings_choose_whether_a_move_is_mailed_and_the_choice_is_kept() {
    let bench = bench_with("journey-mail-choice", |_| {});
    let fay = Person::desktop(&bench.driver, "mail-choice", "fay");
    sign_up_on(&bench, &fay.page, "fay");
    let api = Browser::new(&bench.server.addr);
    let body = json!({ "username": "fay", "password": PASSWORD });
    assert_eq!(api.post("/api/session", &body).status, 200);
    let choices = || api.get("/api/account/mail").body;

    // On unless turned off: ticked, as the server says.
    fay.open(&bench, "#/account");
    let ticked = || fay.page.find("#mail-your-move").prop("checked");
    fay.page.wait_until("the choice to be read", || {
        fay.page.find("#mail-your-move").prop("disabled") == false
    });
    assert_eq!(
        (ticked(), choices()),
        (json!(true), json!({ "your_move": true }))
    );
    fay.shot("mailed");

    // Turned off: saved at once, said so, and kept by the server and after a reload.
    fay.press("#mail-your-move");
    fay.wait_for_words(".mail-done", "Saved: no mail when it is your move.");
    fay.shot("not-mailed");
    assert_eq!(choices(), json!({ "your_move": false }));
    fay.page.refresh();
    crate::browser_common::wait_for_shown(&fay.page);
    fay.page.wait_until("the choice to be read again", || {
        fay.page.find("#mail-your-move").prop("disabled") == false
    });
    assert_eq!(ticked(), false, "still off after a reload");
    no_console_errors(&fay.page);
}
