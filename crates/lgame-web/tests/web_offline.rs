//! The page without a server (docs/web.md, "Without a server"): in Chromium, the page
//! visited once is installable (the browser's own check of its manifest) and kept by its
//! service worker; then, with the server stopped and the network off, it loads again from
//! the worker, plays a game against `perfect` to its end and analyses a position, the
//! WebAssembly engine answering what the server would; the puzzles load the server's first
//! puzzle and take its winning move, Learn shows the server's lost positions, and the editor
//! judges positions as the server does; and a game played then is imported into the server
//! when it is back.

use crate::browser_common;

use browser_common::{browser_turn, js, resign_in_page, status, wait_for_my_turn, wait_for_view};
use lgame_test_support::browser::{Driver, Session};
use lgame_test_support::http::encode;
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// Asks the page's own engine (`js/engine/local.js`) a request, as the page does.
fn ask(page: &Session, request: Value) -> Value {
    page.execute_async(
        "const done = arguments[arguments.length - 1]; \
         import('/assets/js/engine/local.js').then((m) => m.engine()) \
           .then((e) => done(e.ask(arguments[0]))).catch((e) => done({ error: String(e) }));",
        vec![request],
    )
}

/// Waits until the service worker controls the page and has kept the files it loaded and the
/// page's other files (the views not opened yet), as the page asks it to.
fn wait_until_kept(page: &Session) {
    let kept = page.execute_async(
        "const done = arguments[arguments.length - 1]; \
         navigator.serviceWorker.ready.then((r) => { \
           navigator.serviceWorker.addEventListener('message', (e) => done(e.data)); \
           const files = JSON.parse(document.getElementById('lgame-files').textContent); \
           r.active.postMessage({ keep: performance.getEntriesByType('resource').map((e) => e.name) \
             .concat([location.origin + '/', location.origin + '/assets/engine/lgame.wasm'], \
                     files.map((f) => location.origin + f)) }); \
         });",
        vec![],
    );
    assert!(kept["kept"].as_u64().unwrap_or(0) > 10, "kept: {kept}");
    page.wait_until("the service worker to control the page", || {
        js(page, "return !!navigator.serviceWorker.controller") == true
    });
}

/// The first visit, at `home`: the page is shown and its worker keeps the page and the
/// engine.
fn visit_once(page: &Session, home: &str) {
    page.goto(&format!("{home}#/play"));
    wait_for_view(page);
    wait_until_kept(page);
}

/// The server stops, and the network goes off.
fn stop_and_go_offline(page: &Session, server: Server) {
    drop(server);
    page.cdp("Network.enable", json!({}));
    network(page, false);
}

fn network(page: &Session, on: bool) {
    page.cdp(
        "Network.emulateNetworkConditions",
        json!({ "offline": !on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 }),
    );
}

/// Opens `address` in a new document (not a change of the address's fragment), loaded
/// from the worker when the server is away.
fn reopen(page: &Session, address: &str) {
    page.goto("about:blank");
    page.goto(address);
    wait_for_view(page);
}

/// Nothing on the page says the server cannot be reached.
fn nothing_unreachable(page: &Session) {
    let text = js(page, "return document.querySelector('main').innerText");
    assert!(
        !text.as_str().unwrap_or("").contains("cannot be reached"),
        "{text}"
    );
}

/// Plays Red's moves on the game page, each the worst by the engine's analysis, until the
/// game ends; returns the plies played.
fn lose_to_perfect(page: &Session) -> u64 {
    for _ in 0..200 {
        page.wait_until("Red's turn or the end", || {
            let (_, _, over, turn) = status(page);
            over || (turn == "red"
                && js(
                    page,
                    "const i = document.querySelector('.notation-input'); return !!i && !i.disabled",
                ) == true)
        });
        let (plies, position, over, _) = status(page);
        if over {
            return plies;
        }
        let analysis = ask(page, json!({ "op": "analysis", "position": position }));
        let moves = analysis["ok"]["moves"].as_array().expect("analysed moves");
        let worst = moves.last().unwrap()["move"].as_str().unwrap().to_string();
        page.find(".notation-input").clear();
        page.find(".notation-input").send_keys(&worst);
        page.find(".notation-play").click();
        page.wait_until("the move to be played", || status(page).0 > plies);
    }
    panic!("the game against perfect did not end in 200 moves");
}

#[test]
fn the_page_installs_and_plays_perfect_and_analyses_with_the_server_stopped_and_no_network() {
    let _turn = browser_turn();
    let dir = TempDir::new("web-offline");
    let server = Server::start(dir.db());
    let driver = Driver::start();
    let page = driver.session();
    let home = format!("http://{}/", server.addr);

    // The first visit: the worker is installed and keeps the page and the engine.
    visit_once(&page, &home);
    // Chromium's own installability check of the manifest.
    let manifest = page.cdp("Page.getAppManifest", json!({}));
    assert!(
        manifest["url"]
            .as_str()
            .unwrap_or("")
            .ends_with("/assets/manifest.webmanifest"),
        "{manifest}"
    );
    assert_eq!(manifest["errors"], json!([]), "{manifest}");
    let installable = page.cdp("Page.getInstallabilityErrors", json!({}));
    assert_eq!(
        installable["installabilityErrors"],
        json!([]),
        "{installable}"
    );

    stop_and_go_offline(&page, server);
    reopen(&page, &format!("{home}#/play?mode=computer&level=perfect"));
    assert_eq!(js(&page, "return navigator.onLine"), false);
    page.find("button[data-play=computer]").click();
    page.wait_until("the game kept in the browser to open", || {
        page.url().contains("#/game/local-")
    });
    let plies = lose_to_perfect(&page);
    let (_, position, over, _) = status(&page);
    assert!(over, "the game is over");
    let outcome = ask(&page, json!({ "op": "position", "position": position }));
    assert_eq!(outcome["ok"]["outcome"]["winner"], "blue", "{outcome}");
    assert!(plies >= 2, "plies {plies}");
    nothing_unreachable(&page);

    // A position analysed: every legal move with its value.
    let start = "NRR./.RB./.RB./.BBN r";
    page.goto(&format!(
        "{home}#/analyse?variant=classic&position={}",
        start.replace(' ', "%20")
    ));
    page.wait_until("the analysis to show every move", || {
        js(
            &page,
            "return document.querySelectorAll('.move-row').length",
        ) == 65
    });
    let shown = js(
        &page,
        "return [...document.querySelectorAll('.move-row')].map((r) => [r.dataset.move, r.dataset.value])",
    );
    let analysis = ask(&page, json!({ "op": "analysis", "position": start }));
    let analysed: Vec<Value> = analysis["ok"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["move"], m["value"]]))
        .collect();
    let mut shown: Vec<Value> = shown.as_array().unwrap().clone();
    let mut analysed = analysed;
    let key = |v: &Value| v.to_string();
    shown.sort_by_key(key);
    analysed.sort_by_key(key);
    assert_eq!(
        shown, analysed,
        "every move's value, as the engine analyses it"
    );
    assert_eq!(
        js(
            &page,
            "return document.querySelector('.position-value').dataset.value"
        ),
        analysis["ok"]["value"]
    );
}

/// `python3 -m http.server` on a free loopback port, serving `dir`; killed when dropped.
struct FileServer(std::process::Child, String);

impl FileServer {
    fn start(dir: &std::path::Path) -> FileServer {
        use std::io::{BufRead, BufReader};
        let mut child = std::process::Command::new("python3")
            .args([
                "-u",
                "-m",
                "http.server",
                "0",
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 runs (`cargo xtask test` installs it)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "Serving HTTP on 127.0.0.1 port 12345 (http://127.0.0.1:12345/) ..."
        let port = line
            .split_whitespace()
            .skip_while(|w| *w != "port")
            .nth(1)
            .unwrap_or_else(|| panic!("no port in {line:?}"))
            .to_string();
        FileServer(child, format!("http://127.0.0.1:{port}/"))
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_static_page_from_a_plain_file_server_plays_a_game_against_the_computer() {
    let _turn = browser_turn();
    let dir = TempDir::new("web-static");
    lgame_web::write_static_site(dir.path()).expect("the static page is written");
    let files = FileServer::start(dir.path());
    let driver = Driver::start();
    let page = driver.session();
    page.goto(&format!("{}#/play?mode=computer&level=perfect", files.1));
    wait_for_view(&page);
    page.find("button[data-play=computer]").click();
    page.wait_until("the game kept in the browser to open", || {
        page.url().contains("#/game/local-")
    });
    let plies = lose_to_perfect(&page);
    assert!(plies >= 2, "plies {plies}");
    let (_, position, over, _) = status(&page);
    assert!(over);
    let outcome = ask(&page, json!({ "op": "position", "position": position }));
    assert_eq!(outcome["ok"]["outcome"]["winner"], "blue", "{outcome}");
    // What needs the server says so.
    let said = page.execute_async(
        "const done = arguments[arguments.length - 1]; \
         import('/assets/js/api.js').then((api) => api.account.games(1)) \
           .then(() => done('answered'), (e) => done(e.message));",
        vec![],
    );
    assert!(
        said.as_str()
            .unwrap_or("")
            .contains("needs the game server"),
        "{said}"
    );
}

#[test]
fn the_engine_worker_and_manifest_are_served_with_their_types_and_the_worker_with_its_scope() {
    let dir = TempDir::new("web-offline-assets");
    let server = Server::start(dir.db());
    let engine = server.get_with("/assets/engine/lgame.wasm", &[]);
    assert_eq!(engine.status, 200);
    assert_eq!(engine.header("content-type"), "application/wasm");
    assert!(engine.bytes.starts_with(b"\0asm"), "a WebAssembly module");
    let policy = engine.header("content-security-policy");
    assert!(policy.contains("'wasm-unsafe-eval'"), "{policy}");
    let worker = server.get_with("/assets/sw.js", &[]);
    assert_eq!(worker.status, 200);
    assert_eq!(worker.header("service-worker-allowed"), "/");
    let manifest = server.get_with("/assets/manifest.webmanifest", &[]);
    assert_eq!(manifest.header("content-type"), "application/manifest+json");
    let manifest: Value = serde_json::from_slice(&manifest.bytes).expect("the manifest is JSON");
    assert_eq!(manifest["display"], "standalone");
    let sizes: Vec<&str> = manifest["icons"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["sizes"].as_str())
        .collect();
    assert!(
        sizes.contains(&"192x192") && sizes.contains(&"512x512"),
        "{sizes:?}"
    );
}

/// A GET of the server's API, which must answer 200.
fn get(server: &Server, path: &str) -> Value {
    let reply = server.get(path);
    assert_eq!(reply.status, 200, "{path}: {}", reply.body);
    reply.body
}

/// The cells of each side's L as the board shows them (its cells' descriptions), sorted.
fn board_ls(page: &Session) -> Value {
    js(
        page,
        "const of = (who) => [...document.querySelectorAll('.board-svg [data-cell]')] \
           .filter((g) => (g.getAttribute('aria-label') || '').includes(who + \"'s L\")) \
           .map((g) => g.dataset.cell).sort(); \
         return [of('Red'), of('Blue')];",
    )
}

/// The cells of each side's L in a position answer, sorted.
fn ls_of(desc: &Value) -> Value {
    let sorted = |side: &str| {
        let mut cells: Vec<String> = serde_json::from_value(desc["pieces"][side].clone()).unwrap();
        cells.sort();
        cells
    };
    json!([sorted("red"), sorted("blue")])
}

#[test]
fn puzzles_learn_and_the_editor_answer_as_the_server_once_it_is_stopped() {
    let _turn = browser_turn();
    let dir = TempDir::new("web-offline-views");
    let server = Server::start(dir.db());
    // What the server says, asked before it stops: the first "win in 2" of the classic game,
    // its moves' values, the reply that resists longest; the lost positions; a position a
    // move from the end and its value.
    let start = get(&server, "/api/classes?variant=classic&value=win&plies=3")["positions"][0]
        ["position"]
        .as_str()
        .unwrap()
        .to_string();
    let analysis = |position: &str| {
        get(
            &server,
            &format!(
                "/api/analysis?variant=classic&position={}",
                encode(position)
            ),
        )
    };
    let describe = |position: &str| {
        get(
            &server,
            &format!(
                "/api/position?variant=classic&position={}",
                encode(position)
            ),
        )
    };
    let first = analysis(&start);
    let win = first["moves"][0].clone();
    assert_eq!((&win["value"], &win["plies"]), (&json!("win"), &json!(3)));
    let weak = first["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["value"] != "win")
        .expect("a move that does not win")
        .clone();
    let reply = analysis(win["position"].as_str().unwrap())["moves"][0]["position"]
        .as_str()
        .unwrap()
        .to_string();
    let (start_ls, reply_ls) = (ls_of(&describe(&start)), ls_of(&describe(&reply)));
    let lost: Vec<Value> = get(&server, "/api/classes?variant=classic&value=loss")["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["position"].clone())
        .collect();
    assert_eq!(lost.len(), 29);
    let near_end = get(&server, "/api/classes?variant=classic&value=win&plies=1")["positions"][0]
        ["position"]
        .as_str()
        .unwrap()
        .to_string();
    let near_end_value = analysis(&near_end);

    let driver = Driver::start();
    let page = driver.session();
    let home = format!("http://{}/", server.addr);
    visit_once(&page, &home);
    stop_and_go_offline(&page, server);

    // Puzzles: the first puzzle of "win in 2", a move that does not win refused, the winning
    // move taken and Blue's longest resistance played.
    reopen(
        &page,
        &format!("{home}#/puzzles?variant=classic&grade=2&n=1"),
    );
    wait_for_my_turn(&page);
    page.wait_until("the puzzle's position", || board_ls(&page) == start_ls);
    page.find(".notation-input")
        .send_keys(weak["move"].as_str().unwrap());
    page.find(".notation-play").click();
    let message = page.find(".move-message");
    page.wait_until("the weak move refused", || {
        message.attr("data-kind").as_deref() == Some("refused")
    });
    assert_eq!(board_ls(&page), start_ls, "the puzzle stays where it was");
    wait_for_my_turn(&page);
    page.find(".notation-input").clear();
    page.find(".notation-input")
        .send_keys(win["move"].as_str().unwrap());
    page.find(".notation-play").click();
    page.wait_until("the winning move and Blue's reply", || {
        js(
            &page,
            "return document.querySelectorAll('[aria-labelledby=puzzles-moves-heading] li').length",
        ) == json!(2)
            && board_ls(&page) == reply_ls
    });
    nothing_unreachable(&page);

    // Learn: the lost positions, as the server lists them.
    reopen(&page, &format!("{home}#/learn?section=learn-lost"));
    page.wait_until("the lost positions", || {
        js(
            &page,
            "return [...document.querySelectorAll('#learn-lost a.learn-diagram')].map((a) => a.dataset.position)",
        ) == json!(lost)
    });
    nothing_unreachable(&page);

    // The editor: a position accepted with the server's value; an empty board refused.
    reopen(
        &page,
        &format!("{home}#/editor?position={}", encode(&near_end)),
    );
    let verdict = page.find(".verdict");
    let value = page.find(".editor-value");
    page.wait_until("the position accepted, with its value", || {
        verdict.attr("data-valid").as_deref() == Some("true")
            && value.attr("data-value").as_deref() == near_end_value["value"].as_str()
    });
    assert_eq!(page.find(".position-text").text(), near_end);
    assert_eq!(
        value.attr("data-plies"),
        near_end_value["plies"].as_u64().map(|p| p.to_string())
    );
    page.find("button.clear").click();
    page.wait_until("the empty board refused", || {
        verdict.attr("data-valid").as_deref() == Some("false")
    });
    assert!(!verdict.text().is_empty(), "the refusal's words");
    nothing_unreachable(&page);
}

#[test]
fn a_game_played_with_the_server_stopped_is_imported_into_it_when_it_is_back() {
    let _turn = browser_turn();
    let dir = TempDir::new("web-offline-import");
    let server = Server::start(dir.db());
    let addr = server.addr.clone();
    let home = format!("http://{addr}/");
    let driver = Driver::start();
    let page = driver.session();
    visit_once(&page, &home);
    stop_and_go_offline(&page, server);

    // A game against the computer: one move each, then Red resigns.
    reopen(&page, &format!("{home}#/play?mode=computer&level=perfect"));
    page.find("button[data-play=computer]").click();
    page.wait_until("the game kept in the browser to open", || {
        page.url().contains("#/game/local-")
    });
    wait_for_my_turn(&page);
    let start = ask(&page, json!({ "op": "position", "position": "start" }));
    let first = start["ok"]["moves"][0]["move"]
        .as_str()
        .unwrap()
        .to_string();
    page.find(".notation-input").send_keys(&first);
    page.find(".notation-play").click();
    page.wait_until("the computer's reply", || status(&page).0 == 2);
    wait_for_my_turn(&page);
    resign_in_page(&page);
    page.wait_until("the game's end", || status(&page).2);
    let kept = |page: &Session| {
        js(
            page,
            "return JSON.parse(localStorage.getItem('lgame.offline-games'))",
        )
    };
    let game = kept(&page)[0].clone();
    assert_eq!(game["moves"].as_array().map(Vec::len), Some(2), "{game}");
    assert_eq!(game["resigned"], "red", "{game}");
    assert!(game.get("imported").is_none(), "{game}");

    // The server is back where it was: the next visit imports the game.
    let server = Server::with(dir.db(), |c| c.addr = addr.parse().unwrap());
    network(&page, true);
    reopen(&page, &format!("{home}#/play"));
    page.wait_until("the kept game imported", || {
        kept(&page)[0]["imported"].is_string()
    });
    let imported = kept(&page)[0]["imported"].as_str().unwrap().to_string();
    assert!(!imported.starts_with("refused"), "{imported}");
    let state = get(&server, &format!("/api/games/{}", encode(&imported)));
    assert_eq!(state["moves"], game["moves"], "{state}");
    assert_eq!(state["result"], "0-1", "{state}");
    assert_eq!(state["over"], true, "{state}");
    // Imported once: another visit sends nothing again.
    reopen(&page, &format!("{home}#/play"));
    assert_eq!(kept(&page)[0]["imported"], json!(imported));
    // And it is this browser's game on the server: in its "My games".
    page.find(".account-area a.my-games").click();
    let row = format!(".games-table tr[data-id='{imported}']");
    page.wait_until("the imported game in My games", || {
        page.try_find(&row).is_some()
    });
    assert_eq!(page.find(&row).attr("data-result").as_deref(), Some("lost"));
    page.screenshot(browser_common::artifacts_dir().join("offline-imported-in-my-games.png"));
}
