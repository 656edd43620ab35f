//! Bots through the API (`docs/bots.md`): a program with an API token, and the NDJSON
//! streams a bot reads, for the tests of the server and of `lgame bot`.

use std::io::{BufRead, BufReader};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::accounts::{Browser, Page};

/// A program acting with an API token (`Authorization: Bearer`), without cookies.
pub struct Program {
    browser: Browser,
    /// The token.
    pub token: String,
}

impl Browser {
    /// Makes the browser's account a bot and a token for it (asserting both succeed).
    pub fn bot_token(&self) -> String {
        let made = self.post("/api/account/bot", &json!({}));
        assert_eq!(made.status, 200, "making a bot: {}", made.body);
        let token = self.post("/api/account/tokens", &json!({ "description": "test" }));
        assert_eq!(token.status, 201, "a token: {}", token.body);
        token.body["token"].as_str().unwrap().to_string()
    }
}

impl Program {
    /// A program on the server at `addr` with `token`.
    pub fn new(addr: &str, token: &str) -> Program {
        let browser = Browser::new(addr);
        browser.set_origin(None);
        Program {
            browser,
            token: token.to_string(),
        }
    }

    fn auth(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// A GET with the token.
    pub fn get(&self, path: &str) -> Page {
        self.browser
            .send("GET", path, None, &[("Authorization", &self.auth())])
    }

    /// A POST of JSON with the token.
    pub fn post(&self, path: &str, body: &Value) -> Page {
        self.browser
            .send("POST", path, Some(body), &[("Authorization", &self.auth())])
    }

    /// A DELETE with the token.
    pub fn delete(&self, path: &str) -> Page {
        self.browser
            .send("DELETE", path, None, &[("Authorization", &self.auth())])
    }

    /// The NDJSON stream at `path`, read with the token (see [`stream`]).
    pub fn stream(&self, path: &str) -> Stream {
        stream(&self.browser.addr, path, Some(&self.token))
    }
}

/// An NDJSON stream being read: its values, blank keep-alive lines left out; it ends
/// when the server closes it.
pub struct Stream {
    lines: Receiver<Value>,
}

impl Stream {
    /// The next value within `wait`, or `None`.
    pub fn next_within(&self, wait: Duration) -> Option<Value> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Whether the server ends the stream within `wait` (the values before its end are
    /// skipped).
    pub fn ends_within(&self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => return true,
                Err(RecvTimeoutError::Timeout) => return false,
            }
        }
    }

    /// The next value for which `wanted` holds, within `wait` (the others are skipped);
    /// panics naming `what` if none comes.
    pub fn until(&self, what: &str, wait: Duration, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(value) if wanted(&value) => return value,
                Ok(_) => {}
                Err(_) => panic!("no {what} within {wait:?}"),
            }
        }
    }
}

/// Opens the NDJSON stream at `path` on `addr` (with `token` as its bearer, if any) and
/// reads it on a thread of its own; panics unless the server answers 200 with NDJSON.
pub fn stream(addr: &str, path: &str, token: Option<&str>) -> Stream {
    let agent = ureq::AgentBuilder::new()
        .timeout_read(Duration::from_secs(30))
        .build();
    let mut request = agent.get(&format!("http://{addr}{path}"));
    if let Some(token) = token {
        request = request.set("Authorization", &format!("Bearer {token}"));
    }
    let answer = request.call().unwrap_or_else(|e| panic!("GET {path}: {e}"));
    assert_eq!(answer.content_type(), "application/x-ndjson", "{path}");
    let (send, lines) = mpsc::channel();
    let reader = BufReader::new(answer.into_reader());
    thread::spawn(move || {
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if line.trim().is_empty() {
                continue;
            }
            let value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("a line of the stream is no JSON ({e}): {line}"));
            if send.send(value).is_err() {
                return;
            }
        }
    });
    Stream { lines }
}
