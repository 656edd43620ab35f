//! A small synchronous W3C WebDriver client for the browser tests: `chromedriver` in a child
//! process on a free loopback port, and headless Chromium sessions, each with its own
//! temporary profile. Every WebDriver error is a panic naming the command, and every wait has
//! a limit.
//!
//! Nothing is left in the user's home: every Chromium runs with a home of its own in a
//! temporary folder (`HOME` and the XDG folders there, where it would keep its
//! configuration, caches, crash reports and `~/Downloads`), its profile (`--user-data-dir`)
//! in a temporary folder of its own with its downloads and crash dumps inside, and its crash
//! reporter off; every one of those folders is removed when the browser goes.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

// Keys for [`Session::send_keys_to_page`] and [`Element::send_keys`] (WebDriver code points).

/// The left arrow key.
pub const KEY_LEFT: &str = "\u{E012}";
/// The up arrow key.
pub const KEY_UP: &str = "\u{E013}";
/// The right arrow key.
pub const KEY_RIGHT: &str = "\u{E014}";
/// The down arrow key.
pub const KEY_DOWN: &str = "\u{E015}";
/// The Enter key.
pub const KEY_ENTER: &str = "\u{E007}";
/// The Escape key.
pub const KEY_ESCAPE: &str = "\u{E00C}";
/// The Home key.
pub const KEY_HOME: &str = "\u{E011}";
/// The End key.
pub const KEY_END: &str = "\u{E010}";
/// The Tab key.
pub const KEY_TAB: &str = "\u{E004}";

/// How long [`Session::find`] and [`Session::wait_until`] wait.
pub const WAIT: Duration = Duration::from_secs(10);

/// The key WebDriver uses for an element reference in JSON.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where screenshots and PDFs go: `browser-artifacts` in the target directory, created if
/// missing. The test crate names its temporary directory inside the target directory:
/// `artifacts_dir(env!("CARGO_TARGET_TMPDIR"))` is `target/browser-artifacts` (under
/// `CARGO_TARGET_DIR` if set).
pub fn artifacts_dir(target_tmpdir: impl AsRef<Path>) -> PathBuf {
    let tmp = target_tmpdir.as_ref();
    let target = tmp
        .parent()
        .unwrap_or_else(|| panic!("{} is not inside a target directory", tmp.display()));
    let dir = target.join("browser-artifacts");
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// A WebDriver error: its code (`no such element`, …) and message.
#[derive(Debug)]
struct WebDriverError {
    error: String,
    message: String,
}

/// The running chromedriver, killed when the last [`Driver`] or [`Session`] holding it goes.
struct Chromedriver {
    child: Mutex<Child>,
    base: String,
    agent: ureq::Agent,
    /// The home of chromedriver and the browsers it starts, removed after them.
    _home: crate::TempDir,
}

impl Chromedriver {
    /// Sends a command; the answer's `value`, or the WebDriver error (never panics, so that
    /// `Drop` can use it while a test unwinds).
    fn try_call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, WebDriverError> {
        let request = self.agent.request(method, &format!("{}{path}", self.base));
        let result = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let failure = |error: &str, e: &dyn std::fmt::Display| WebDriverError {
            error: error.to_string(),
            message: e.to_string(),
        };
        let response = match result {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return Err(failure("chromedriver did not answer", &e)),
        };
        let status = response.status();
        let answer: Value = response
            .into_json()
            .map_err(|e| failure("the answer is not JSON", &e))?;
        let value = answer.get("value").cloned().unwrap_or(Value::Null);
        match value.get("error").and_then(Value::as_str) {
            Some(error) if status >= 400 => Err(WebDriverError {
                error: error.to_string(),
                // The first line; the rest is "(Session info: chrome=…)".
                message: string(&value["message"])
                    .lines()
                    .next()
                    .unwrap_or("")
                    .into(),
            }),
            _ => Ok(value),
        }
    }

    /// Sends a command; panics with the WebDriver error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body).unwrap_or_else(|e| {
            panic!(
                "WebDriver {method} {path} failed: {}: {}",
                e.error, e.message
            )
        })
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap_or_else(|e| e.into_inner());
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// A chromedriver process; open browsers with [`Driver::session`].
pub struct Driver(Arc<Chromedriver>);

/// How every headless Chromium here starts: no sandbox (we run as root), and none of the
/// background connections this machine's closed network would refuse.
const CHROMIUM_ARGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// Gives `command` (Chromium, or chromedriver, whose browsers inherit it) `home` as the
/// user's home: `HOME` and the XDG folders inside it, and Breakpad's crash dumps there too.
fn home_in(command: &mut Command, home: &Path) {
    command
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("BREAKPAD_DUMP_LOCATION", home.join("crashes"));
}

/// The arguments of a Chromium whose profile is `profile`: [`CHROMIUM_ARGS`], the profile,
/// and crash dumps (never reported) kept inside it.
fn profile_args(profile: &Path) -> Vec<String> {
    CHROMIUM_ARGS
        .map(String::from)
        .into_iter()
        .chain([
            format!("--user-data-dir={}", profile.display()),
            "--disable-crash-reporter".to_string(),
            "--disable-breakpad".to_string(),
            format!("--crash-dumps-dir={}", profile.join("crashes").display()),
        ])
        .collect()
}

fn chromium_binary() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// Prints `url` to a PDF at `path` with Chromium's own command line (`--print-to-pdf`), as a
/// person without a test tool would, and returns its bytes.
pub fn print_to_pdf_command(url: &str, path: &Path) -> Vec<u8> {
    let home = crate::TempDir::new("print-home");
    let profile = home.join("profile");
    let _ = std::fs::remove_file(path);
    let mut command = Command::new(chromium_binary());
    home_in(&mut command, home.path());
    let out = command
        .args(profile_args(&profile))
        .arg(format!("--print-to-pdf={}", path.display()))
        .arg("--no-pdf-header-footer")
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("chromium does not run: {e}"));
    drop(home);
    assert!(
        out.status.success(),
        "chromium --print-to-pdf failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pdf = std::fs::read(path).unwrap_or_else(|e| panic!("no PDF at {}: {e}", path.display()));
    assert!(pdf.starts_with(b"%PDF"), "not a PDF: {}", path.display());
    pdf
}

impl Driver {
    /// Starts chromedriver (`$CHROMEDRIVER` or /usr/bin/chromedriver) on a free port and waits
    /// up to 20 s until it is ready.
    pub fn start() -> Driver {
        let binary =
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let home = crate::TempDir::new("chromedriver-home");
        let mut command = Command::new(&binary);
        home_in(&mut command, home.path());
        let child = command
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "chromedriver not found: install Debian's chromium and chromium-driver \
                     (.ci/run does) ({binary}: {e})"
                )
            });
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(60))
            .build();
        let driver = Chromedriver {
            child: Mutex::new(child),
            base: format!("http://127.0.0.1:{port}"),
            agent,
            _home: home,
        };
        let start = Instant::now();
        loop {
            let status = driver.agent.get(&format!("{}/status", driver.base)).call();
            if let Ok(response) = status {
                let answer: Value = response.into_json().unwrap_or(Value::Null);
                if answer["value"]["ready"] == true {
                    return Driver(Arc::new(driver));
                }
            }
            let exited = driver.child.lock().unwrap().try_wait().ok().flatten();
            if let Some(code) = exited {
                panic!("chromedriver ({binary}) exited at startup: {code}");
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("chromedriver ({binary}) was not ready within 20 s on port {port}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A new headless browser with a 1280×900 window.
    pub fn session(&self) -> Session {
        self.open(1280, 900, None)
    }

    /// A new headless browser whose page is exactly `width`×`height` CSS pixels (emulated, as
    /// headless windows are at least 500 wide), still a desktop browser.
    pub fn session_with(&self, width: u32, height: u32) -> Session {
        let metrics = json!({ "width": width, "height": height, "pixelRatio": 1.0,
                              "mobile": false, "touch": false });
        self.open(width.max(500), height, Some(metrics))
    }

    /// A new headless browser emulating a 390×844 phone: touch, a mobile viewport (so the page
    /// needs `<meta name=viewport>`), device pixel ratio 2.
    pub fn phone(&self) -> Session {
        self.phone_sized(390, 844)
    }

    /// A new headless browser emulating a phone of `width`×`height` CSS pixels (touch, a
    /// mobile viewport, device pixel ratio 2).
    pub fn phone_sized(&self, width: u32, height: u32) -> Session {
        let metrics = json!({ "width": width, "height": height, "pixelRatio": 2.0,
                              "mobile": true, "touch": true });
        self.open(width.max(500), height, Some(metrics))
    }

    fn open(&self, width: u32, height: u32, metrics: Option<Value>) -> Session {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let profile =
            std::env::temp_dir().join(format!("lgame-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let chromium = chromium_binary();
        let mut args = profile_args(&profile);
        args.push(format!("--window-size={width},{height}"));
        // A download lands in the profile, removed with it, never in ~/Downloads.
        let prefs = json!({
            "download.default_directory": profile.join("downloads"),
            "download.prompt_for_download": false,
            "savefile.default_directory": profile.join("downloads"),
        });
        let mut options = json!({ "binary": chromium, "args": args, "prefs": prefs });
        if let Some(metrics) = metrics {
            options["mobileEmulation"] = json!({ "deviceMetrics": metrics });
        }
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "timeouts": { "implicit": 0, "pageLoad": 30_000, "script": 20_000 },
            "goog:loggingPrefs": { "browser": "ALL" },
            "goog:chromeOptions": options,
        }}});
        let value = self.0.call("POST", "/session", Some(capabilities));
        let id = value["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no sessionId in the new session: {value}"))
            .to_string();
        Session {
            path: format!("/session/{id}"),
            browser_pid: value["capabilities"]["goog:processID"].as_u64(),
            debugger_address: value["capabilities"]["goog:chromeOptions"]["debuggerAddress"]
                .as_str()
                .map(str::to_string),
            profile,
            driver: Arc::clone(&self.0),
        }
    }
}

/// A browser window, closed (and its profile removed) when dropped.
pub struct Session {
    path: String,
    browser_pid: Option<u64>,
    /// Where the browser's DevTools listen (`host:port`).
    debugger_address: Option<String>,
    profile: PathBuf,
    driver: Arc<Chromedriver>,
}

impl Session {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver
            .call(method, &format!("{}{path}", self.path), body)
    }

    /// Runs a DevTools protocol command on the page (chromedriver's `goog/cdp/execute`):
    /// `Page.getAppManifest`, `Network.emulateNetworkConditions`…; returns its result.
    pub fn cdp(&self, command: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({ "cmd": command, "params": params })),
        )
    }

    /// A DevTools protocol connection of the test's own to this browser, for events and for
    /// targets besides the page (a service worker).
    pub fn devtools(&self) -> crate::cdp::Cdp {
        let address = self.debugger_address.as_deref();
        crate::cdp::Cdp::connect(address.expect("chromedriver gave no debuggerAddress"))
    }

    /// Navigates to `url` and waits for the page to load.
    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Accepts the page's `confirm` or `alert` dialog once it is open (waits up to WAIT).
    pub fn accept_dialog(&self) {
        let path = format!("{}/alert/accept", self.path);
        self.wait_until("a dialog to accept", || {
            self.driver.try_call("POST", &path, Some(json!({}))).is_ok()
        });
    }

    /// Reloads the page.
    pub fn refresh(&self) {
        self.call("POST", "/refresh", Some(json!({})));
    }

    /// The current URL.
    pub fn url(&self) -> String {
        string(&self.call("GET", "/url", None))
    }

    /// The document's title.
    pub fn title(&self) -> String {
        string(&self.call("GET", "/title", None))
    }

    /// The first element matching `css`, waiting up to [`WAIT`] for it to exist.
    pub fn find(&self, css: &str) -> Element<'_> {
        let mut found = None;
        self.wait_until(&format!("an element matching {css:?}"), || {
            found = self.try_find(css);
            found.is_some()
        });
        found.expect("found")
    }

    /// The first element matching `css` now, if any.
    pub fn try_find(&self, css: &str) -> Option<Element<'_>> {
        self.find_all(css).into_iter().next()
    }

    /// The rendered text of the first element matching `css` now, if any. `None` too when the
    /// page replaced the element between finding and reading it: a poll then finds the new one
    /// (reading `try_find(css)?.text()` in a wait panics on that race).
    pub fn try_text(&self, css: &str) -> Option<String> {
        let element = self.try_find(css)?;
        let path = format!("{}/element/{}/text", self.path, element.id);
        match self.driver.try_call("GET", &path, None) {
            Ok(text) => Some(string(&text)),
            Err(e) if e.error == "stale element reference" => None,
            Err(e) => panic!("WebDriver GET {path} failed: {}: {}", e.error, e.message),
        }
    }

    /// Every element matching `css` now.
    pub fn find_all(&self, css: &str) -> Vec<Element<'_>> {
        let found = self.call(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        self.elements(found)
    }

    fn elements(&self, found: Value) -> Vec<Element<'_>> {
        let list = found.as_array().cloned().unwrap_or_default();
        list.iter().map(|e| Element::from_json(self, e)).collect()
    }

    /// Polls `ready` every 50 ms for up to [`WAIT`]; panics naming `what` if it never holds.
    pub fn wait_until(&self, what: &str, ready: impl FnMut() -> bool) {
        self.wait_for(what, WAIT, ready);
    }

    /// Polls `ready` every 50 ms for up to `timeout`; panics naming `what` if it never holds,
    /// with what the page showed then (a wait that fails once in many runs is read from that).
    pub fn wait_for(&self, what: &str, timeout: Duration, mut ready: impl FnMut() -> bool) {
        let start = Instant::now();
        while !ready() {
            if start.elapsed() > timeout {
                panic!(
                    "waited {timeout:?} for {what} on {}; the page showed:\n{}",
                    self.url(),
                    self.shown_text()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The page's visible text (its first 3,000 characters), or why it could not be read.
    fn shown_text(&self) -> String {
        // The view the page's router last began to show, and whether a service worker
        // answers its requests: a wait that fails on a page still showing the last view says
        // whether the router heard the new address.
        let script = "const view = document.body?.dataset.view ?? '(none)'; \
            const worker = navigator.serviceWorker?.controller ? 'a service worker' : 'no service worker'; \
            const text = (document.querySelector('main') ?? document.body)?.innerText.slice(0, 3000) ?? ''; \
            return `[view '${view}', ${document.readyState}, ${worker}]\\n${text}`";
        let body = json!({ "script": script, "args": [] });
        match self
            .driver
            .try_call("POST", &format!("{}/execute/sync", self.path), Some(body))
        {
            Ok(text) => text.as_str().unwrap_or_default().to_string(),
            Err(e) => format!("(unreadable: {}: {})", e.error, e.message),
        }
    }

    /// Runs `script` (a function body: `return …`; arguments in `arguments`) and returns its
    /// value. Pass elements with [`Element::to_json`].
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Value {
        self.run_script("sync", script, args)
    }

    /// Runs `script`, which calls `arguments[arguments.length - 1](result)` when done.
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.run_script("async", script, args)
    }

    fn run_script(&self, mode: &str, script: &str, args: Vec<Value>) -> Value {
        let path = format!("{}/execute/{mode}", self.path);
        let body = json!({ "script": script, "args": args });
        self.driver
            .try_call("POST", &path, Some(body))
            .unwrap_or_else(|e| panic!("script failed: {}: {}\n{script}", e.error, e.message))
    }

    /// Types `keys` (text and `KEY_*` constants) into whatever has the focus, as a keyboard
    /// would, so arrow keys and Enter work.
    pub fn send_keys_to_page(&self, keys: &str) {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|c| {
                let key = c.to_string();
                [
                    json!({ "type": "keyDown", "value": key }),
                    json!({ "type": "keyUp", "value": key }),
                ]
            })
            .collect();
        let body = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] });
        self.call("POST", "/actions", Some(body));
        self.call("DELETE", "/actions", None);
    }

    /// Presses the mouse on the first element, moves through the others and releases on the
    /// last: a real drag, as W3C pointer actions (each element's centre).
    pub fn drag_through(&self, elements: &[&Element<'_>]) {
        let mut actions = Vec::new();
        for (i, element) in elements.iter().enumerate() {
            actions.push(json!({
                "type": "pointerMove", "duration": 50, "x": 0, "y": 0,
                "origin": element.to_json(),
            }));
            if i == 0 {
                actions.push(json!({ "type": "pointerDown", "button": 0 }));
            }
        }
        actions.push(json!({ "type": "pointerUp", "button": 0 }));
        let body = json!({ "actions": [{
            "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": actions,
        }] });
        self.call("POST", "/actions", Some(body));
        self.call("DELETE", "/actions", None);
    }

    /// Writes a PNG of the window to `path` and returns its bytes.
    pub fn screenshot(&self, path: impl AsRef<Path>) -> Vec<u8> {
        let png = base64(&self.call("GET", "/screenshot", None));
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n"),
            "the screenshot is not a PNG"
        );
        write(path.as_ref(), &png);
        png
    }

    /// Prints the page to an A4 PDF at `path` and returns its bytes.
    pub fn print_pdf(&self, path: impl AsRef<Path>) -> Vec<u8> {
        self.print_pdf_with(path, json!({ "page": { "width": 21.0, "height": 29.7 } }))
    }

    /// Prints the page with W3C print `options` (`page`, `margin`, `orientation`, …).
    pub fn print_pdf_with(&self, path: impl AsRef<Path>, options: Value) -> Vec<u8> {
        let pdf = base64(&self.call("POST", "/print", Some(options)));
        assert!(pdf.starts_with(b"%PDF"), "the print is not a PDF");
        write(path.as_ref(), &pdf);
        pdf
    }

    /// The console errors (and uncaught exceptions) since the last call: chromedriver hands
    /// each log entry out once.
    pub fn console_errors(&self) -> Vec<String> {
        let entries = self.call("POST", "/se/log", Some(json!({ "type": "browser" })));
        let entries = entries.as_array().cloned().unwrap_or_default();
        entries
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| string(&e["message"]))
            .collect()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let closed = self.driver.try_call("DELETE", &self.path, None).is_ok();
        if let (false, Some(pid)) = (closed, self.browser_pid) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        // The browser may still be writing its profile for a moment after it quits.
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.profile).is_ok() || !self.profile.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// An element of a [`Session`]'s page.
pub struct Element<'s> {
    session: &'s Session,
    id: String,
}

impl<'s> Element<'s> {
    fn from_json(session: &'s Session, value: &Value) -> Element<'s> {
        let id = value[ELEMENT_KEY]
            .as_str()
            .unwrap_or_else(|| panic!("not an element reference: {value}"));
        Element {
            session,
            id: id.to_string(),
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.session
            .call(method, &format!("/element/{}{path}", self.id), body)
    }

    /// The element as a script argument for [`Session::execute`].
    pub fn to_json(&self) -> Value {
        json!({ ELEMENT_KEY: self.id })
    }

    /// Clicks the element's centre.
    pub fn click(&self) {
        self.call("POST", "/click", Some(json!({})));
    }

    /// Taps the element as a finger does: scrolled to the middle of the screen, a touch
    /// pointer put down at its centre and lifted (W3C actions with `pointerType` `touch`:
    /// the page gets touch and pointer events, and the click they make). Whatever is drawn
    /// over that point gets the tap, as it would a finger's.
    pub fn tap(&self) {
        self.session.execute(
            "arguments[0].scrollIntoView({ block: 'center', inline: 'center' })",
            vec![self.to_json()],
        );
        let body = json!({ "actions": [{
            "type": "pointer", "id": "finger", "parameters": { "pointerType": "touch" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": self.to_json(), "x": 0, "y": 0 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pause", "duration": 60 },
                { "type": "pointerUp", "button": 0 },
            ],
        }]});
        self.session.call("POST", "/actions", Some(body));
        self.session.call("DELETE", "/actions", None);
    }

    /// The element's box on the page (CSS pixels): x, y, width and height.
    pub fn rect(&self) -> [f64; 4] {
        let r = self.call("GET", "/rect", None);
        ["x", "y", "width", "height"].map(|k| r[k].as_f64().unwrap_or_default())
    }

    /// The rendered text.
    pub fn text(&self) -> String {
        string(&self.call("GET", "/text", None))
    }

    /// An HTML attribute, if present.
    pub fn attr(&self, name: &str) -> Option<String> {
        self.call("GET", &format!("/attribute/{name}"), None)
            .as_str()
            .map(String::from)
    }

    /// A DOM property (`value`, `checked`, …).
    pub fn prop(&self, name: &str) -> Value {
        self.call("GET", &format!("/property/{name}"), None)
    }

    /// Focuses the element and types `text` (which may hold `KEY_*` constants).
    pub fn send_keys(&self, text: &str) {
        self.call("POST", "/value", Some(json!({ "text": text })));
    }

    /// Empties an input or textarea.
    pub fn clear(&self) {
        self.call("POST", "/clear", Some(json!({})));
    }

    /// Whether the element is visible.
    pub fn is_displayed(&self) -> bool {
        self.call("GET", "/displayed", None) == true
    }

    /// The first descendant matching `css`, waiting up to [`WAIT`] for it to exist.
    pub fn css(&self, css: &str) -> Element<'s> {
        let mut found = Vec::new();
        self.session.wait_until(
            &format!("an element matching {css:?} inside an element"),
            || {
                let all = self.call(
                    "POST",
                    "/elements",
                    Some(json!({ "using": "css selector", "value": css })),
                );
                found = self.session.elements(all);
                !found.is_empty()
            },
        );
        found.swap_remove(0)
    }
}

/// A JSON string's text, or "" for anything else.
fn string(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// Writes `bytes` to `path`, creating its directory.
fn write(path: &Path, bytes: &[u8]) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// Decodes a standard base64 JSON string (screenshots and PDFs).
fn base64(value: &Value) -> Vec<u8> {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("expected base64 text, got {value}"));
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c:?}"),
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(digit)
        .collect();
    let mut bytes = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        bytes.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    bytes
}
