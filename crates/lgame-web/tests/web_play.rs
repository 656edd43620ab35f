//! The page's views in a real browser (see `web_page.rs`): nothing the page hides
//! (`hidden`) is ever shown in any view or any state a control reaches; the home page's
//! board and three ways to play above the fold on a phone.

use crate::browser_common;

use browser_common::*;
use lgame_test_support::browser::Session;
use serde_json::json;

/// The elements with the `hidden` attribute, or inside one, that the browser lays out
/// anyway (a client rectangle): a CSS `display` rule beating the attribute.
const HIDDEN_SHOWN: &str = "
  const name = (e) => {
    const cls = (e.getAttribute('class') || '').trim();
    return e.tagName.toLowerCase() + (cls ? '.' + cls.split(/\\s+/).join('.') : '')
      + ' \"' + (e.textContent || '').trim().slice(0, 40) + '\"';
  };
  const laidOut = (e) => e.getClientRects().length > 0 || getComputedStyle(e).display !== 'none';
  const found = [];
  for (const e of document.querySelectorAll('[hidden]')) {
    if (e.parentElement && e.parentElement.closest('[hidden]')) continue;
    if (laidOut(e)) { found.push(name(e)); continue; }
    const inside = [...e.querySelectorAll('*')].filter((d) => d.getClientRects().length > 0);
    if (inside.length) found.push('inside ' + name(e) + ': ' + inside.slice(0, 3).map(name).join(', '));
  }
  return found;";

/// [`HIDDEN_SHOWN`] in every state the view's controls reach simply: every `<details>`
/// open, each radio button chosen in turn, each option of each select chosen in turn
/// (with its `change`), a list of what was shown where.
const HIDDEN_SHOWN_IN_EVERY_STATE: &str = "
  const shown = () => { HIDDEN_SHOWN };
  const main = document.querySelector('main');
  const problems = [];
  const check = (what) => { const s = shown(); if (s.length) problems.push(what + ': ' + s.join(', ')); };
  check('as it opens');
  for (const d of main.querySelectorAll('details')) d.open = true;
  check('every details open');
  for (const r of main.querySelectorAll('input[type=radio]')) {
    if (!r.isConnected) continue;
    r.click();
    check('radio ' + r.name + '=' + r.value);
  }
  for (const s of main.querySelectorAll('select')) {
    if (!s.isConnected || s.closest('.filters, form[role=search]')) continue;
    const first = s.value;
    for (const o of [...s.options]) {
      s.value = o.value;
      s.dispatchEvent(new Event('change', { bubbles: true }));
      check('select ' + (s.name || s.id) + '=' + o.value);
    }
    s.value = first;
    s.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return problems;";

/// What [`HIDDEN_SHOWN_IN_EVERY_STATE`] finds on `address` (waited for: its text and its
/// boards drawn, and a moment for its last answers).
fn hidden_shown(bench: &Bench, page: &Session, address: &str) -> Vec<String> {
    if address.starts_with('/') {
        page.goto(&bench.server.url(address));
        wait_for_view(page);
    } else {
        bench.open(page, address);
    }
    page.wait_until(&format!("{address} to draw"), || {
        js(page, "return !document.querySelector('main .board:empty')") == json!(true)
    });
    std::thread::sleep(std::time::Duration::from_millis(400));
    let script = HIDDEN_SHOWN_IN_EVERY_STATE.replace("HIDDEN_SHOWN", HIDDEN_SHOWN);
    let found = page.execute(&script, vec![]);
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{address}: {}", p.as_str().unwrap()))
        .collect()
}

/// Signs this browser up (`POST /api/account` from the page, so its cookie is the page's).
fn sign_up_by_api(page: &Session, name: &str) {
    let status = page.execute_async(
        "const done = arguments[arguments.length - 1];
         fetch('/api/account', { method: 'POST', headers: { 'Content-Type': 'application/json' },
           body: JSON.stringify({ username: arguments[0], password: 'violet-L-pieces-37' }) })
           .then((r) => done(r.status), (e) => done(String(e)));",
        vec![json!(name)],
    );
    assert_eq!(status, json!(201), "signing up {name}");
}

/// Every view of the page, in each state reachable simply (the new-game form's every choice,
/// a game against the computer, its end, a friend's game for its host and for the invited,
/// a spectator, every part of Learn, the account's views logged out and in, a profile):
/// on a desktop and on a phone, nothing with the `hidden` attribute is laid out.
#[test]
fn nothing_hidden_is_shown_in_any_view_or_state() {
    let bench = bench("web-hidden");
    let (_, _, vs_computer) = bench.red_game("beginner", json!({}));
    let ended = {
        let (id, token, address) = bench.red_game("beginner", json!({}));
        let reply = bench.server.post(
            &format!("/api/games/{id}/resign"),
            &json!({ "token": token }),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        address
    };
    let friends = bench
        .server
        .create(json!({"red": "human", "blue": "human", "invite": "blue"}));
    let host = format!(
        "#/game/{}?red={}",
        friends.id,
        friends.red.as_deref().unwrap()
    );
    let invited = friends.body["invitation"]["url"]
        .as_str()
        .unwrap()
        .trim_start_matches('/')
        .to_string();
    let watched = bench
        .server
        .create(json!({"red": "human", "blue": "human"}));
    let watching = format!("#/game/{}", watched.id);

    let mut problems = Vec::new();
    for page in [bench.driver.session(), bench.driver.phone()] {
        let mut views: Vec<String> = [
            "#/play",
            "#/play?mode=friend",
            "#/play?mode=local&level=perfect&setup=kit",
            "#/analyse",
            "#/editor",
            "#/puzzles",
            "#/learn",
            "#/print",
            "#/login",
            "#/signup",
            "#/games",
            "#/account",
        ]
        .iter()
        .map(|v| v.to_string())
        .collect();
        views.extend([
            vs_computer.clone(),
            ended.clone(),
            host.clone(),
            invited.clone(),
            watching.clone(),
        ]);
        for view in &views {
            problems.extend(hidden_shown(&bench, &page, view));
        }
        // Learn, part by part.
        bench.open(&page, "#/learn");
        let parts = js(
            &page,
            "return [...document.querySelectorAll('.learn-part')].map((p) => p.id)",
        );
        for part in parts.as_array().unwrap() {
            let address = format!("#/learn?section={}", part.as_str().unwrap());
            problems.extend(hidden_shown(&bench, &page, &address));
        }
        // An account: its settings, its games, its profile.
        let name = if page_is_phone(&page) {
            "hidden-phone"
        } else {
            "hidden-desk"
        };
        sign_up_by_api(&page, name);
        for view in ["#/account", "#/games", "#/play"] {
            problems.extend(hidden_shown(&bench, &page, view));
        }
        problems.extend(hidden_shown(&bench, &page, &format!("/@/{name}")));
    }
    assert!(
        problems.is_empty(),
        "shown though hidden:\n{}",
        problems.join("\n")
    );
}

fn page_is_phone(page: &Session) -> bool {
    js(page, "return innerWidth < 500") == json!(true)
}

/// Each element's rectangle in the viewport, `[top, bottom, left, right]` (null: none).
const RECTS: &str = "
  return arguments[0].map((css) => {
    const e = document.querySelector(css);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return [r.top, r.bottom, r.left, r.right];
  });";

fn rects(page: &Session, css: &[&str]) -> Vec<Option<[f64; 4]>> {
    let v = page.execute(RECTS, vec![json!(css)]);
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array().map(|r| {
                let n: Vec<f64> = r.iter().map(|x| x.as_f64().unwrap()).collect();
                [n[0], n[1], n[2], n[3]]
            })
        })
        .collect()
}

fn viewport(page: &Session) -> (f64, f64, f64) {
    let v = js(page, "return [innerWidth, innerHeight, scrollY]");
    (
        v[0].as_f64().unwrap(),
        v[1].as_f64().unwrap(),
        v[2].as_f64().unwrap(),
    )
}

/// The three ways to play on the home page.
const WAYS: [&str; 3] = [
    "#quick-pairing",
    "form[data-way=computer]",
    "form[data-way=friend]",
];

/// The home page on a 390×844 phone, in English and in Russian: the starting position drawn
/// by the page's board, one sentence on the game, and the three ways to play (quick pairing
/// with its grid of controls, the computer, a friend; the lobby beside them) whole on the first screen,
/// with nothing scrolled; each way's options folded, and there when unfolded.
#[test]
fn the_home_page_shows_the_board_and_the_three_ways_to_play_on_a_phones_first_screen() {
    let bench = bench("web-home");
    let page = bench.driver.phone();
    for language in ["en", "ru"] {
        bench.open(&page, "#/play");
        js(
            &page,
            &format!("localStorage.setItem('lgame.language', '{language}')"),
        );
        page.refresh();
        wait_for_view(&page);
        let (width, height, scrolled) = viewport(&page);
        assert_eq!((width, height, scrolled), (390.0, 844.0, 0.0));
        let found = rects(&page, &WAYS);
        for (css, rect) in WAYS.iter().zip(&found) {
            let [top, bottom, left, right] = rect.unwrap_or_else(|| panic!("no {css}"));
            eprintln!("{language}: {css} from {top:.0} to {bottom:.0} px of {height}");
            assert!(
                top >= 0.0 && bottom <= height && left >= 0.0 && right <= width,
                "{css} ({language}) is not on the first screen: {rect:?}"
            );
        }
        let board = rects(&page, &[".home-board .board-svg"])[0].expect("the board");
        assert!(board[1] - board[0] > 80.0, "a board too small: {board:?}");
        assert_eq!(
            js(
                &page,
                "const b = document.querySelector('.home-board .board-svg'); return ['.l-red', '.l-blue', '.neutral'].map((c) => b.querySelectorAll(c).length)"
            ),
            json!([4, 4, 2]),
            "the starting position: two Ls and two neutrals"
        );
        let about = page.find(".home-about").text();
        assert!(
            about.contains(if language == "en" {
                "L game"
            } else {
                "Игра L"
            }),
            "{about}"
        );
        assert_eq!(
            js(
                &page,
                "return [document.querySelectorAll('#quick-pairing .pool-control').length, !!document.querySelector('#lobby'), [...document.querySelectorAll('[data-play]')].map((b) => b.dataset.play)]"
            ),
            json!([11, true, ["computer", "friend"]])
        );
        page.screenshot(artifacts_dir().join(format!("web-home-phone-{language}.png")));
        // The options are folded away, and there when unfolded.
        assert!(!page.find("select[name=level]").is_displayed());
        page.find("form[data-way=computer] summary").click();
        assert!(page.find("select[name=level]").is_displayed());
        assert!(page
            .find("form[data-way=computer] input[name=turn-limit]")
            .is_displayed());
        page.find("form[data-way=friend] summary").click();
        assert!(page
            .find("form[data-way=friend] input[name=mode][value=local]")
            .is_displayed());
        page.screenshot(artifacts_dir().join(format!("web-home-phone-options-{language}.png")));
    }
    no_console_errors(&page);
}
