//! The browser client against the real server: a headless Chromium opens the home page, which
//! loads with a title, and can be photographed and printed.

use std::path::PathBuf;

use lgame_test_support::browser::{self, Driver};
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::json;

/// `target/browser-artifacts`.
fn artifacts_dir() -> PathBuf {
    browser::artifacts_dir(env!("CARGO_TARGET_TMPDIR"))
}

#[test]
fn the_home_page_loads_in_a_browser_and_can_be_captured() {
    let dir = TempDir::new("web-smoke");
    let server = Server::start(dir.db());
    let driver = Driver::start();
    let page = driver.session();

    let home = format!("http://{}/", server.addr);
    page.goto(&home);
    assert_eq!(page.url(), home);
    page.wait_until("the document to be complete", || {
        page.execute("return document.readyState", vec![]) == "complete"
    });
    assert!(!page.title().trim().is_empty(), "the page has no title");
    assert_eq!(page.find("title").attr("nonexistent"), None);
    assert_eq!(
        page.execute(
            "return arguments[0] + arguments[1]",
            vec![json!(2), json!(3)]
        ),
        5
    );
    assert_eq!(
        page.execute_async(
            "const done = arguments[arguments.length - 1]; setTimeout(() => done('later'), 10)",
            vec![]
        ),
        "later"
    );
    assert!(page.try_find("#no-such-element-here").is_none());

    let artifacts = artifacts_dir();
    let png = page.screenshot(artifacts.join("smoke-home.png"));
    assert!(png.len() > 100, "a tiny screenshot: {} bytes", png.len());
    let pdf = page.print_pdf(artifacts.join("smoke-home.pdf"));
    assert!(pdf.len() > 100, "a tiny PDF: {} bytes", pdf.len());
    let on_disk = std::fs::read(artifacts.join("smoke-home.png")).expect("the screenshot file");
    assert_eq!(on_disk, png);

    page.execute("console.error('smoke: deliberate')", vec![]);
    let errors = page.console_errors();
    assert!(
        errors.iter().any(|e| e.contains("smoke: deliberate")),
        "{errors:?}"
    );
}

#[test]
fn keys_reach_the_focused_element_and_two_browsers_are_independent() {
    let driver = Driver::start();
    let first = driver.session();
    let phone = driver.session_with(390, 844);
    let real_phone = driver.phone();
    let form = "data:text/html,<title>keys</title><input id=a autofocus>\
                <script>document.title='keys';</script>";
    first.goto(form);
    phone.goto("data:text/html,<title>phone</title><p>small</p>");

    let input = first.find("#a");
    input.send_keys("lgame");
    first.execute("arguments[0].focus()", vec![input.to_json()]);
    first.send_keys_to_page(&format!("{}x{}", browser::KEY_HOME, browser::KEY_END));
    assert_eq!(input.prop("value"), "xlgame");
    input.clear();
    assert_eq!(input.prop("value"), "");
    assert!(input.is_displayed());

    assert_eq!(phone.find("body").css("p").text(), "small");
    assert_eq!(phone.execute("return window.innerWidth", vec![]), 390);
    assert_eq!(first.title(), "keys");

    real_phone
        .goto("data:text/html,<meta name=viewport content='width=device-width'><title>p</title>");
    let metrics = real_phone.execute(
        "return [innerWidth, devicePixelRatio, 'ontouchstart' in window]",
        vec![],
    );
    assert_eq!(metrics, json!([390, 2, true]));
}
