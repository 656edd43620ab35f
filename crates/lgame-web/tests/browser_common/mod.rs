//! What the browser tests share: a server with its own database and a chromedriver (two
//! browser tests at a time, each with its own: on two cores, more would make every wait
//! slower), and the page's moves, status and waits.
#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;
use std::sync::{Condvar, Mutex};

use lgame_test_support::browser::{self, Driver, Session};
use lgame_test_support::http::encode;
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// How many browser tests run at once (`LGAME_BROWSER_TESTS`, default 2).
fn browser_tests_at_once() -> usize {
    std::env::var("LGAME_BROWSER_TESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(2)
}

/// The browser tests running now, and the signal that one has ended.
static RUNNING: Mutex<usize> = Mutex::new(0);
static ENDED: Condvar = Condvar::new();

/// A browser test's turn: held while it runs; its end lets the next one in.
pub struct Turn(());

impl Drop for Turn {
    fn drop(&mut self) {
        *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        ENDED.notify_one();
    }
}

/// `target/browser-artifacts`.
pub fn artifacts_dir() -> PathBuf {
    browser::artifacts_dir(env!("CARGO_TARGET_TMPDIR"))
}

/// A server with its own database, a chromedriver, and the test's turn.
pub struct Bench {
    _turn: Turn,
    pub server: Server,
    pub driver: Driver,
    _dir: TempDir,
}

pub fn bench(name: &str) -> Bench {
    bench_with(name, |_| {})
}

/// The turn of this test's browsers: waited for while [`browser_tests_at_once`] run, then
/// held while it runs, for the tests that start their own server (a bench takes it itself).
pub fn browser_turn() -> Turn {
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    while *running >= browser_tests_at_once() {
        running = ENDED.wait(running).unwrap_or_else(|e| e.into_inner());
    }
    *running += 1;
    Turn(())
}

/// A bench whose server's configuration `configure` changes first.
pub fn bench_with(name: &str, configure: impl FnOnce(&mut lgame_web::Config)) -> Bench {
    let turn = browser_turn();
    let dir = TempDir::new(name);
    let server = Server::with(dir.db(), |c| {
        c.create_limit = 0;
        configure(c);
    });
    Bench {
        _turn: turn,
        server,
        driver: Driver::start(),
        _dir: dir,
    }
}

impl Bench {
    /// Opens `address` (`#/play`, `@/NAME`, …) and waits until the page's router has shown it
    /// whole: a new address only changes what `main` holds once its view's module has loaded,
    /// so the last view's text alone says nothing of the new one.
    pub fn open(&self, page: &Session, address: &str) {
        page.goto(&self.server.url(&format!("/{address}")));
        wait_for_shown(page);
        wait_for_view(page);
    }

    /// A new game of the person (Red) against the computer (`blue`), with `extra` fields for
    /// the game (a setup, say): its id, Red's token, and Red's page's address.
    pub fn red_game(&self, blue: &str, extra: Value) -> (String, String, String) {
        let mut body = json!({"red": "human", "blue": blue});
        if let Value::Object(fields) = extra {
            body.as_object_mut().unwrap().extend(fields);
        }
        let game = self.server.create(body);
        let token = game.red.expect("Red is the person");
        let address = format!("#/game/{}?red={token}", game.id);
        (game.id, token, address)
    }

    /// `/api/position` for a position.
    pub fn describe(&self, variant: &str, position: &str) -> Value {
        let reply = self.server.get(&format!(
            "/api/position?variant={}&position={}",
            encode(variant),
            encode(position)
        ));
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.body
    }
}

/// The password of the accounts the tests make.
pub const PASSWORD: &str = "violet-L-pieces-37";

/// A new account, logged in on a browser of the API's (its cookies kept).
pub fn api_account(bench: &Bench, name: &str) -> lgame_test_support::accounts::Browser {
    let browser = lgame_test_support::accounts::Browser::new(&bench.server.addr);
    let reply = browser.post(
        "/api/account",
        &json!({ "username": name, "password": PASSWORD }),
    );
    assert_eq!(reply.status, 201, "{:?}", reply.body);
    browser
}

/// Signs up on the page: the header then names the account.
pub fn sign_up_on(bench: &Bench, page: &Session, name: &str) {
    bench.open(page, "#/signup");
    page.find("#username").send_keys(name);
    page.find("#password").send_keys(PASSWORD);
    page.find(".signup-form button.submit").click();
    // Signed up, the form sends the page on (to `next`): what the test opens after must come
    // after that.
    page.wait_until("the page to leave the sign-up form", || {
        js(page, "return !location.hash.startsWith('#/signup')") == true
    });
    wait_for_shown(page);
    page.wait_until("the account in the header", || {
        js(
            page,
            "const n = document.querySelector('.account-name'); return n ? n.textContent : ''",
        )
        .as_str()
        .is_some_and(|n| n.contains(name))
    });
}

/// The game open on a page (its id in the address), once there.
pub fn game_of(page: &Session) -> Option<String> {
    let url = page.url();
    let (_, rest) = url.split_once("#/game/")?;
    Some(rest.split(['?', '/']).next()?.to_string()).filter(|id| !id.is_empty())
}

/// Plays the first quiet move of the side to move by typing it on `page`.
pub fn type_a_move(bench: &Bench, page: &Session, id: &str) {
    let state = bench.server.state(id);
    let plies = state["plies"].as_u64().unwrap();
    page.wait_until("the board to take a move", || {
        js(
            page,
            "const i = document.querySelector('.notation-input'); return !!i && !i.disabled",
        ) == true
    });
    page.find(".notation-input")
        .send_keys(&lgame_test_support::http::quiet_moves(&state)[0]);
    page.find(".notation-play").click();
    wait_for_ply(page, plies + 1);
}

/// Chooses a seek's control and colour in the lobby's form.
pub fn choose_seek(page: &Session, control: &str, colour: &str) {
    page.execute(
        "document.querySelector('.seek-form select[name=control]').value = arguments[0]; \
         document.querySelector('.seek-form select[name=colour]').value = arguments[1];",
        vec![json!(control), json!(colour)],
    );
}

/// Waits until the router has finished showing the page's current address (the page's
/// `body[data-shown]`, set once a view has rendered for it).
pub fn wait_for_shown(page: &Session) {
    page.wait_until("the router to show the address", || {
        js(
            page,
            "return document.body?.dataset.shown === location.href",
        ) == true
    });
}

/// Waits until the view has rendered something into `main`.
pub fn wait_for_view(page: &Session) {
    page.wait_until("the view to render", || {
        page.execute(
            "return (document.querySelector('main')?.innerText ?? '').trim().length > 20",
            vec![],
        ) == true
    });
}

pub fn js(page: &Session, script: &str) -> Value {
    page.execute(script, vec![])
}

/// The game's status line: (plies, position, over, turn).
pub fn status(page: &Session) -> (u64, String, bool, String) {
    let v = js(
        page,
        "const s = document.querySelector('.status'); return s ? [s.dataset.plies || '', s.dataset.position || '', s.dataset.over || '', s.dataset.turn || ''] : ['', '', '', '']",
    );
    (
        v[0].as_str().unwrap_or("").parse().unwrap_or(u64::MAX),
        v[1].as_str().unwrap_or("").to_string(),
        v[2] == "true",
        v[3].as_str().unwrap_or("").to_string(),
    )
}

/// Waits until the page shows ply `plies` (or the game's end).
pub fn wait_for_ply(page: &Session, plies: u64) {
    page.wait_until(&format!("the page to reach ply {plies}"), || {
        let (p, _, over, _) = status(page);
        p == plies || (over && p != u64::MAX && p >= plies.saturating_sub(1))
    });
}

/// Waits until the board takes this person's move.
pub fn wait_for_my_turn(page: &Session) {
    page.wait_until("the board to take a move", || {
        js(
            page,
            "const i = document.querySelector('.notation-input'); return !!i && !i.disabled",
        ) == true
            || status(page).2
    });
}

/// A cell of the board that takes moves.
pub fn cell_css(cell: &str) -> String {
    format!(".board-svg[tabindex] [data-cell='{cell}']")
}

pub fn click_cell(page: &Session, cell: &str) {
    page.find(&cell_css(cell)).click();
}

/// The cells of the L placement in a move entry.
pub fn l_cells(entry: &Value) -> Vec<&str> {
    entry["l"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

/// The cells of the L placement in a move entry, sorted and joined by commas.
pub fn l_key(entry: &Value) -> String {
    let mut cells = l_cells(entry);
    cells.sort();
    cells.join(",")
}

/// The cells chosen on the page's board for a new L (none once the L is taken).
pub fn selected_cells(page: &Session) -> Vec<String> {
    let v = page.execute(
        "return [...document.querySelectorAll('.board-svg[tabindex] .cell.selected')].map(g => g.dataset.cell)",
        vec![],
    );
    serde_json::from_value(v).unwrap()
}

/// Chooses the move's L with clicks as a person would: its cells one after another, until
/// the page has taken it (each click narrows the legal Ls to those through every cell
/// clicked; the L is taken once one alone is left). Returns the clicks made.
pub fn click_l(page: &Session, entry: &Value) -> usize {
    press_l(page, entry, &|css| page.find(css).click())
}

/// [`click_l`] with `press` for the person's finger or mouse on an element (`css`).
fn press_l(page: &Session, entry: &Value, press: &dyn Fn(&str)) -> usize {
    let l = l_cells(entry);
    for (clicks, cell) in l.iter().enumerate() {
        press(&cell_css(cell));
        // Nothing chosen any more: the L is taken (or the move already sent).
        if selected_cells(page).is_empty() {
            return clicks + 1;
        }
    }
    panic!("four clicks did not choose the L {l:?}");
}

/// Plays `mv` (from `/api/position`'s move list) with clicks: the L (`click_l`), then each
/// neutral and its target, or "no neutral move" when the move has none (unless the L alone,
/// clicked whole, was played at once). Returns the clicks made.
pub fn play_by_clicking(page: &Session, entry: &Value) -> usize {
    play_by_pressing(page, entry, &|css| page.find(css).click())
}

/// [`play_by_clicking`] with `press` for the person's finger or mouse on an element (`css`).
pub fn play_by_pressing(page: &Session, entry: &Value, press: &dyn Fn(&str)) -> usize {
    let mut clicks = press_l(page, entry, press);
    let steps = entry["neutrals"].as_array().unwrap();
    for step in steps {
        press(&cell_css(step[0].as_str().unwrap()));
        press(&cell_css(step[1].as_str().unwrap()));
        clicks += 2;
    }
    if steps.is_empty() && page.find(".no-neutral").prop("disabled") == false {
        press(".no-neutral");
        clicks += 1;
    }
    clicks
}

/// The best move in a position by the server's solver, with its cells.
pub fn best_move(bench: &Bench, variant: &str, position: &str) -> (Value, Value) {
    let analysis = bench.server.get(&format!(
        "/api/analysis?variant={}&position={}",
        encode(variant),
        encode(position)
    ));
    assert_eq!(analysis.status, 200, "{}", analysis.body);
    let best = analysis.body["moves"][0]["move"].clone();
    let desc = bench.describe(variant, position);
    let entry = desc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == best)
        .unwrap_or_else(|| panic!("{best} is not among the position's moves"))
        .clone();
    (entry, desc)
}

/// No script error and no failed request, but for the refusals the tests provoke (an
/// illegal move, a position being edited): the browser logs those as failed loads. (The
/// page's question "who is logged in?", `GET /api/session`, is answered 200 for nobody.)
pub fn no_console_errors(page: &Session) {
    no_console_errors_but(page, &[]);
}

/// [`no_console_errors`], the failed loads of these statuses allowed too (a 404 for a
/// player who is not there, a refused log-in's 401).
pub fn no_console_errors_but(page: &Session, statuses: &[u16]) {
    let mut errors = page.console_errors();
    let failed = |e: &str, status: &str| {
        e.contains(&format!(
            "Failed to load resource: the server responded with a status of {status}"
        ))
    };
    errors.retain(|e| {
        let provoked = ["400", "409", "422"].iter().any(|status| failed(e, status))
            || statuses.iter().any(|status| failed(e, &status.to_string()));
        !provoked
    });
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

pub fn axe_source() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/node_modules/axe-core/axe.min.js"
    );
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{path}: {e} (`cargo xtask test` installs it: npm ci in crates/lgame-web when \
             node_modules is missing or older than package-lock.json)"
        )
    })
}

/// axe-core's violations on the page as it stands: `rule (impact): target — summary`.
pub fn axe_violations(page: &Session) -> Vec<String> {
    let found = page.execute_async(
        "const done = arguments[arguments.length - 1];
         axe.run(document, { resultTypes: ['violations'] })
           .then((r) => done(r.violations.flatMap((v) => v.nodes.map((n) =>
             `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.replace(/\\s+/g, ' ')}`))))
           .catch((e) => done([`axe failed: ${e}`]));",
        vec![],
    );
    found
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().unwrap_or("?").to_string())
        .collect()
}

/// Resigns as a person does: the Resign button, then "Yes, resign" in the question the page
/// asks beside it.
pub fn resign_in_page(page: &Session) {
    page.find(".resign").click();
    let yes = page.find(".resign-confirm .resign-yes");
    page.wait_until("the page to ask whether to resign", || yes.is_displayed());
    yes.click();
}
