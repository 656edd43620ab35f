//! A small DevTools protocol client over the browser's own WebSocket, for what chromedriver's
//! `goog/cdp/execute` ([`crate::browser::Session::cdp`]) cannot do: read events (a service
//! worker's registration id comes only as one) and speak to targets other than the page (a
//! service worker, attached in flat mode: each command names its target's session).
//! Every wait has a limit, and every protocol error is a panic naming the command.

use std::collections::VecDeque;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// How long a command's answer or an event is waited for.
const WAIT: Duration = Duration::from_secs(20);

/// A connection to the browser (its browser-wide target).
pub struct Cdp {
    socket: WebSocket<TcpStream>,
    next_id: u64,
    /// Events read while waiting for something else, oldest first.
    events: VecDeque<Value>,
}

impl Cdp {
    /// Connects to the browser whose DevTools listen at `debugger_address` (`host:port`, as
    /// chromedriver gives it in `goog:chromeOptions.debuggerAddress`).
    pub fn connect(debugger_address: &str) -> Cdp {
        let version: Value = ureq::get(&format!("http://{debugger_address}/json/version"))
            .call()
            .unwrap_or_else(|e| panic!("DevTools at {debugger_address}: {e}"))
            .into_json()
            .expect("DevTools' /json/version is JSON");
        let url = version["webSocketDebuggerUrl"]
            .as_str()
            .unwrap_or_else(|| panic!("no webSocketDebuggerUrl in {version}"));
        let stream = TcpStream::connect(debugger_address).expect("DevTools' port");
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let (socket, _) = tungstenite::client(url, stream)
            .unwrap_or_else(|e| panic!("DevTools' WebSocket {url}: {e}"));
        let mut cdp = Cdp {
            socket,
            next_id: 0,
            events: VecDeque::new(),
        };
        // Every target, those there already too, told as `Target.targetCreated` (for attach).
        cdp.call(
            None,
            "Target.setDiscoverTargets",
            json!({ "discover": true }),
        );
        cdp
    }

    /// Runs `method` on the browser (`session` none) or on an attached target; its result.
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            command["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(command.to_string()))
            .unwrap_or_else(|e| panic!("sending {method}: {e}"));
        let deadline = Instant::now() + WAIT;
        loop {
            let message = self
                .read(deadline)
                .unwrap_or_else(|| panic!("no answer to {method} within {WAIT:?}"));
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    panic!("{method} {params}: {error}", params = command["params"]);
                }
                return message["result"].clone();
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// The first event `method` (one kept already, or the next) whose params `matching`
    /// accepts: its params and the session it came from.
    pub fn event(
        &mut self,
        method: &str,
        matching: impl Fn(&Value) -> bool,
    ) -> (Value, Option<String>) {
        let wanted = |m: &Value| m["method"] == method && matching(&m["params"]);
        let kept = self.events.iter().position(wanted);
        let found = match kept.and_then(|at| self.events.remove(at)) {
            Some(found) => found,
            None => {
                let deadline = Instant::now() + WAIT;
                loop {
                    let message = self
                        .read(deadline)
                        .unwrap_or_else(|| panic!("no {method} event as wanted within {WAIT:?}"));
                    if wanted(&message) {
                        break message;
                    }
                    if message.get("method").is_some() {
                        self.events.push_back(message);
                    }
                }
            }
        };
        let session = found["sessionId"].as_str().map(str::to_string);
        (found["params"].clone(), session)
    }

    /// Attaches to the first target of `kind` (`page`, `service_worker`) whose address starts
    /// with `url`, once it exists: the session its commands name.
    pub fn attach(&mut self, kind: &str, url: &str) -> String {
        let (created, _) = self.event("Target.targetCreated", |p| {
            let info = &p["targetInfo"];
            info["type"] == kind && info["url"].as_str().is_some_and(|u| u.starts_with(url))
        });
        let target = &created["targetInfo"]["targetId"];
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        );
        attached["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no sessionId attaching to {created}"))
            .to_string()
    }

    /// Evaluates `expression` in an attached target, its promise awaited: its value.
    pub fn evaluate(&mut self, session: &str, expression: &str) -> Value {
        let params =
            json!({ "expression": expression, "awaitPromise": true, "returnByValue": true });
        let result = self.call(Some(session), "Runtime.evaluate", params);
        if let Some(thrown) = result.get("exceptionDetails") {
            panic!("{expression} threw: {thrown}");
        }
        result["result"]["value"].clone()
    }

    /// The next message, or none by `deadline`.
    fn read(&mut self, deadline: Instant) -> Option<Value> {
        while Instant::now() < deadline {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return Some(serde_json::from_str(&text).expect("DevTools sends JSON"))
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("DevTools' WebSocket: {e}"),
            }
        }
        None
    }
}
