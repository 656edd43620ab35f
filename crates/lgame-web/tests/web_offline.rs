//! The page without a server (docs/web.md, "Without a server"): in Chromium, the page
//! visited once is installable (the browser's own check of its manifest) and kept by its
//! service worker; then, with the server stopped and the network off, it loads again from
//! the worker, plays a game against `perfect` to its end and analyses a position, the
//! WebAssembly engine answering what the server would.

use crate::browser_common;

use browser_common::{js, status, wait_for_view};
use lgame_test_support::browser::{Driver, Session};
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

/// Waits until the service worker controls the page and has kept the files it loaded.
fn wait_until_kept(page: &Session) {
    let kept = page.execute_async(
        "const done = arguments[arguments.length - 1]; \
         navigator.serviceWorker.ready.then((r) => { \
           navigator.serviceWorker.addEventListener('message', (e) => done(e.data)); \
           r.active.postMessage({ keep: performance.getEntriesByType('resource').map((e) => e.name) \
             .concat([location.origin + '/', location.origin + '/assets/engine/lgame.wasm']) }); \
         });",
        vec![],
    );
    assert!(kept["kept"].as_u64().unwrap_or(0) > 10, "kept: {kept}");
    page.wait_until("the service worker to control the page", || {
        js(page, "return !!navigator.serviceWorker.controller") == true
    });
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
    let dir = TempDir::new("web-offline");
    let server = Server::start(dir.db());
    let driver = Driver::start();
    let page = driver.session();
    let home = format!("http://{}/", server.addr);

    // The first visit: the worker is installed and keeps the page and the engine.
    page.goto(&format!("{home}#/play"));
    wait_for_view(&page);
    wait_until_kept(&page);
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

    // The server stops, and the network goes off.
    drop(server);
    page.cdp("Network.enable", json!({}));
    page.cdp(
        "Network.emulateNetworkConditions",
        json!({ "offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 }),
    );
    // A new document (not a change of the address's fragment): loaded from the worker.
    page.goto("about:blank");
    page.goto(&format!("{home}#/play?mode=computer&level=perfect"));
    wait_for_view(&page);
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
    let text = js(&page, "return document.querySelector('main').innerText");
    assert!(
        !text.as_str().unwrap_or("").contains("cannot be reached"),
        "{text}"
    );

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
