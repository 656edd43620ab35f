//! The page as everyone meets it (docs/web.md, "Phones, languages, caching and
//! accessibility"): axe-core finds no violation on any view in either theme (the account's
//! settings signed in too); no view scrolls
//! sideways on a 390 px phone in either language, and its controls are big enough for a
//! finger; the boards keep their place while the page loads (layout shift); a refusal of
//! the server is said in Russian on the Russian page.
//!
//! axe-core is the npm package pinned in `package.json` (which `cargo xtask test` installs);
//! it is injected into the page through WebDriver, never served by the server.

use crate::browser_common;

use browser_common::{artifacts_dir, axe_source, axe_violations, bench, js, wait_for_view, Bench};
use lgame_test_support::browser::Session;
use serde_json::json;

/// The views, by address (the game's added by [`views`]).
const VIEWS: &[&str] = &[
    "#/play",
    "#/leaderboard",
    "#/arena",
    "#/analyse",
    "#/editor",
    "#/puzzles",
    "#/learn",
    "#/print",
];

/// The account's views (the header's account area leads to them, not the navigation).
const ACCOUNT_VIEWS: &[&str] = &[
    "#/games",
    "#/login",
    "#/signup",
    "#/account",
    "#/forgot",
    // A mailed link's views, with a code nobody was mailed (the server sends no mail).
    "#/reset?code=00",
    "#/confirm-email?code=00",
];

/// Every view's address: the fixed ones and a game against the computer.
fn views(bench: &Bench) -> Vec<String> {
    // Timed, so that the clocks are checked too.
    let clock = json!({ "clock": { "initial_s": 300, "increment_s": 3 } });
    let (_, _, game) = bench.red_game("beginner", clock);
    let mut all: Vec<String> = VIEWS
        .iter()
        .chain(ACCOUNT_VIEWS)
        .map(|v| v.to_string())
        .collect();
    all.insert(1, game);
    all
}

/// Goes to `address` in the same document (so an injected script stays) and waits until the
/// view has drawn: its text, its boards, and a moment for its last answers.
fn show(page: &Session, address: &str) {
    page.execute(
        "location.hash = arguments[0].slice(1)",
        vec![json!(address)],
    );
    let view = address
        .trim_start_matches("#/")
        .split(['/', '?'])
        .next()
        .unwrap_or("");
    page.wait_until(&format!("{address} to draw"), || {
        page.execute(
            "const main = document.querySelector('main');
             return document.body.dataset.view === arguments[0]
               && main.innerText.trim().length > 20
               && !main.querySelector('.board:empty')",
            vec![json!(view)],
        ) == true
    });
    settle(page);
}

/// Waits for the page's requests in flight to be answered and drawn (two animation frames
/// after the network is quiet for 300 ms).
fn settle(page: &Session) {
    page.execute_async(
        "const done = arguments[arguments.length - 1];
         let last = performance.getEntriesByType('resource').length;
         const check = () => {
           const now = performance.getEntriesByType('resource').length;
           if (now !== last) { last = now; setTimeout(check, 300); return; }
           requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
         };
         setTimeout(check, 300);",
        vec![],
    );
}

#[test]
fn axe_finds_no_violation_on_any_view_in_either_theme() {
    let bench = bench("a11y-axe");
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    // A desktop window shows the navigation itself; the menu button is a phone's.
    assert!(page.find("#nav").is_displayed());
    assert!(
        !page.find("#menu").is_displayed(),
        "a menu button on a desktop"
    );
    page.execute(&axe_source(), vec![]);
    assert_eq!(
        js(&page, "return typeof axe.run"),
        "function",
        "axe-core loaded"
    );
    let mut violations = Vec::new();
    for theme in ["light", "dark"] {
        for address in views(&bench) {
            show(&page, &address);
            if js(&page, "return document.documentElement.dataset.theme") != theme {
                page.find("#theme").click();
            }
            assert_eq!(
                js(&page, "return document.documentElement.dataset.theme"),
                theme
            );
            violations.extend(
                axe_violations(&page)
                    .into_iter()
                    .map(|v| format!("{address} ({theme}): {v}")),
            );
        }
    }
    assert!(violations.is_empty(), "axe-core: {violations:#?}");
}

#[test]
fn axe_finds_no_violation_in_the_account_settings_signed_in() {
    let bench = bench("a11y-settings");
    let page = bench.driver.session();
    browser_common::sign_up_on(&bench, &page, "ida");
    bench.open(&page, "#/account");
    // Drawn whole: the mail choice read, this browser's notifications asked.
    page.wait_until("the settings to draw", || {
        js(
            &page,
            "return document.querySelector('#mail-your-move')?.disabled === false
               && !!document.querySelector('.notifications-state')?.textContent",
        ) == true
    });
    page.execute(&axe_source(), vec![]);
    let mut violations = Vec::new();
    for theme in ["light", "dark"] {
        if js(&page, "return document.documentElement.dataset.theme") != theme {
            page.find("#theme").click();
        }
        let shown = js(&page, "return document.documentElement.dataset.theme");
        assert_eq!(shown, theme);
        let found = axe_violations(&page).into_iter();
        violations.extend(found.map(|v| format!("#/account ({theme}): {v}")));
    }
    assert!(violations.is_empty(), "axe-core: {violations:#?}");
}

#[test]
fn no_view_scrolls_sideways_on_a_phone_and_every_control_takes_a_finger() {
    let bench = bench("a11y-phone");
    let page = bench.driver.phone();
    let addresses = views(&bench);
    let mut problems = Vec::new();
    for language in ["en", "ru"] {
        bench.open(&page, "#/play");
        page.execute(
            "localStorage.setItem('lgame.language', arguments[0])",
            vec![json!(language)],
        );
        page.refresh();
        wait_for_view(&page);
        assert_eq!(js(&page, "return document.documentElement.lang"), language);
        for address in &addresses {
            show(&page, address);
            let name: String = address
                .trim_start_matches("#/")
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            page.screenshot(artifacts_dir().join(format!("a11y-phone-{name}-{language}.png")));
            let widths = js(
                &page,
                "return [document.documentElement.scrollWidth, window.innerWidth]",
            );
            if widths[0].as_u64() > widths[1].as_u64() {
                problems.push(format!("{address} ({language}): {widths} wide"));
            }
            let header = js(
                &page,
                "return document.querySelector('header.top').getBoundingClientRect().height",
            );
            if header.as_f64().unwrap_or(1e9) > 110.0 {
                problems.push(format!(
                    "{address} ({language}): the header is {header} high"
                ));
            }
            let small = js(
                &page,
                "return [...document.querySelectorAll(
                   'button, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden]), #nav a')]
                   .filter((e) => e.getClientRects().length > 0)
                   .map((e) => [e, e.getBoundingClientRect()])
                   .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
                   .map(([e, r]) => `${e.tagName.toLowerCase()}.${e.className} '${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30)}' ${Math.round(r.width)}×${Math.round(r.height)}`)",
            );
            for control in small.as_array().unwrap() {
                problems.push(format!("{address} ({language}): small control {control}"));
            }
        }
    }
    // The folded navigation opens, offers every view, and closes on a choice.
    page.find("#menu").click();
    page.wait_until("the menu to open", || page.find("#nav a").is_displayed());
    assert_eq!(page.find_all("#nav a").len(), VIEWS.len());
    page.find("#nav a[href='#/learn']").click();
    page.wait_until("the menu to close", || {
        js(&page, "return document.body.dataset.view") == "learn"
            && !page.find("#nav a").is_displayed()
    });
    assert!(problems.is_empty(), "on a 390 px phone: {problems:#?}");
}

/// The layout shift of a fresh load of `address` (with a board, or the play view's form):
/// every shift not caused by input, summed, and what moved (`tag.class` from → to).
fn layout_shift(bench: &Bench, page: &Session, address: &str) -> (f64, String) {
    page.goto("about:blank");
    bench.open(page, address);
    page.wait_until("the view to draw", || {
        js(
            page,
            "return !!document.querySelector('main .board-svg, main form')",
        ) == true
    });
    settle(page);
    let shift = page.execute_async(
        "const done = arguments[arguments.length - 1];
         let sum = 0;
         const moved = [];
         const box = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
         new PerformanceObserver((list) => {
           for (const e of list.getEntries()) {
             if (e.hadRecentInput) continue;
             sum += e.value;
             for (const s of e.sources || []) {
               const n = s.node;
               const name = n && n.nodeType === 1 ? `${n.tagName.toLowerCase()}.${n.className}` : String(n && n.nodeName);
               moved.push(`${e.value.toFixed(4)} ${name} ${box(s.previousRect)} → ${box(s.currentRect)}`);
             }
           }
         }).observe({ type: 'layout-shift', buffered: true });
         setTimeout(() => done([sum, moved.join('; ')]), 200);",
        vec![],
    );
    (
        shift[0].as_f64().expect("a number"),
        shift[1].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn the_boards_keep_their_place_while_the_page_loads() {
    let bench = bench("a11y-shift");
    // Timed, so that the clocks are checked too.
    let clock = json!({ "clock": { "initial_s": 300, "increment_s": 3 } });
    let (_, _, game) = bench.red_game("beginner", clock);
    let mut shifts: Vec<(String, f64, String)> = Vec::new();
    for (size, page) in [
        ("desktop", bench.driver.session()),
        ("phone", bench.driver.phone()),
    ] {
        if size == "phone" {
            // A phone as Lighthouse's mobile profile makes it: a CPU four times slower and a
            // slow network (150 ms a round trip), so that each answer of the server comes in
            // a frame of its own, as it does on a real phone (unthrottled, the state, the
            // position and the page came in one frame and hid a shift of 0.17).
            page.cdp("Emulation.setCPUThrottlingRate", json!({ "rate": 4 }));
            page.cdp("Network.enable", json!({}));
            page.cdp(
                "Network.emulateNetworkConditions",
                json!({ "offline": false, "latency": 150, "downloadThroughput": 200_000,
                        "uploadThroughput": 90_000 }),
            );
        }
        for address in [game.as_str(), "#/play", "#/analyse", "#/puzzles"] {
            let (shift, moved) = layout_shift(&bench, &page, address);
            shifts.push((format!("{address} ({size})"), shift, moved));
        }
    }
    let over: Vec<_> = shifts.iter().filter(|(_, s, _)| *s >= 0.02).collect();
    assert!(
        over.is_empty(),
        "layout shift of 0.02 or more: {over:?} (all: {shifts:?})"
    );
}

#[test]
fn a_refused_position_is_said_in_russian_on_the_russian_page() {
    let bench = bench("a11y-refusal");
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    page.execute("localStorage.setItem('lgame.language', 'ru')", vec![]);
    page.goto(&bench.server.url("/#/analyse?position=nonsense"));
    page.refresh();
    page.wait_until("the refusal to show", || {
        js(
            &page,
            "return document.querySelector('main').innerText.includes('nonsense')",
        ) == true
    });
    let text = js(&page, "return document.querySelector('main').innerText");
    let text = text.as_str().unwrap();
    assert!(
        text.contains("Позицию «nonsense» не удаётся прочитать"),
        "{text}"
    );
    assert!(
        !text.contains("position 'nonsense'"),
        "the server's English: {text}"
    );
}
