//! What the page without a server costs (not a test; docs/web.md, "Measured"): in headless
//! Chromium, the WebAssembly engine's size, the classic game's solve inside the browser (a
//! fresh engine's first analysis, which solves the table, then the `solve` op's figures of
//! the kept table, each timed by `performance.now()`), and the time from a cold load with
//! the server stopped and the network off (the page from the service worker) to the
//! computer's first reply (the person plays Blue: `perfect` moves first), from the
//! navigation's start. Each figure `--runs N` times (3 unless told).
//!
//! ```sh
//! cargo run -p lgame-web --example offline_timings
//! ```

use std::io::Write;

use lgame_test_support::browser::{Driver, Session};
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::json;

fn js(page: &Session, script: &str) -> serde_json::Value {
    page.execute(script, vec![])
}

fn main() -> anyhow::Result<()> {
    let mut runs = 3usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().unwrap_or_default().parse()?,
            other => anyhow::bail!("unknown argument {other:?} (only --runs N)"),
        }
    }
    let wasm = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/web/engine/lgame.wasm"
    ))?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&wasm)?;
    println!(
        "engine: {} bytes, {} gzipped (best)",
        wasm.len(),
        gz.finish()?.len()
    );
    for run in 1..=runs {
        let dir = TempDir::new("offline-timings");
        let server = Server::start(dir.db());
        let driver = Driver::start();
        let page = driver.session();
        let home = format!("http://{}/", server.addr);
        page.goto(&format!("{home}#/play"));
        page.wait_until("the page", || {
            js(&page, "return document.readyState") == "complete"
        });
        let solve = page.execute_async(
            "const done = arguments[arguments.length - 1]; \
             import('/assets/js/engine/local.js').then((m) => m.engine()).then((e) => { \
               const t = performance.now(); e.ask({ op: 'analysis', position: 'start' }); \
               const u = performance.now(); const a = e.ask({ op: 'solve' }); \
               done([u - t, performance.now() - u, a.ok.positions]); });",
            vec![],
        );
        page.wait_until("the worker to control the page", || {
            js(&page, "return !!navigator.serviceWorker.controller") == true
        });
        // The files the page loaded are kept once the worker has them all.
        page.execute_async(
            "const done = arguments[arguments.length - 1]; \
             navigator.serviceWorker.addEventListener('message', (e) => done(e.data)); \
             navigator.serviceWorker.controller.postMessage({ keep: performance.getEntriesByType('resource').map((e) => e.name) });",
            vec![],
        );
        drop(server);
        page.cdp("Network.enable", json!({}));
        page.cdp(
            "Network.emulateNetworkConditions",
            json!({ "offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 }),
        );
        page.cdp("Network.clearBrowserCache", json!({}));
        // A new document (not a change of the address's fragment): loaded from the worker.
        page.goto("about:blank");
        page.goto(&format!("{home}#/play?mode=computer&level=perfect"));
        page.wait_until("the form", || {
            js(
                &page,
                "return !!document.querySelector('button[data-play=computer]')",
            ) == true
        });
        js(
            &page,
            "document.querySelector('input[name=colour][value=blue]').click(); \
             document.querySelector('button[data-play=computer]').click();",
        );
        page.wait_until("the computer's first reply", || {
            js(&page, "const s = document.querySelector('.status'); return !!s && s.dataset.plies === '1'")
                == true
        });
        let replied = js(&page, "return performance.now()");
        println!(
            "run {run}: in Chromium, the classic table solved and the start analysed {:.1} ms, \
             the table's figures (solve op, table kept) {:.1} ms ({} positions); \
             cold offline load to the computer's first reply {:.0} ms",
            solve[0].as_f64().unwrap_or(f64::NAN),
            solve[1].as_f64().unwrap_or(f64::NAN),
            solve[2],
            replied.as_f64().unwrap_or(f64::NAN)
        );
    }
    Ok(())
}
