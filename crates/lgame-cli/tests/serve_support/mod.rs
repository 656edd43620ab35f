//! What the `serve_*` tests share: the real `lgame serve` in a child process on a free
//! loopback port with a database in a temporary directory, and blocking HTTP and WebSocket
//! clients.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use lgame::{Position, Rules};
use serde_json::{json, Value};

/// A directory removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("lgame-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn db(&self) -> PathBuf {
        self.0.join("games.db")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `lgame serve`, killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
    agent: ureq::Agent,
}

/// An answer: the status and the body (JSON, or the text as a JSON string).
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Reply {
    /// The `error` message of a refusal.
    pub fn error(&self) -> &str {
        self.body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message in {} {}", self.status, self.body))
    }
}

impl Server {
    /// Starts the server on `db` with extra arguments and waits for its address.
    pub fn start(db: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lgame"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("lgame serve starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        let line = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) => line,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server did not say where it listens: {e}");
            }
        };
        let addr = line
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(30))
            .build();
        Server { child, addr, agent }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then the exit status once it has stopped.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let ok = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the server did not stop on SIGTERM within 10 s");
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Any request; `body` is sent as it is, as JSON.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> Reply {
        let req = self
            .agent
            .request(method, &self.url(path))
            .set("Content-Type", "application/json");
        let result = match body {
            Some(body) => req.send_string(body),
            None => req.call(),
        };
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        let status = response.status();
        let text = response.into_string().unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply { status, body }
    }

    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, None)
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.request("POST", path, Some(&body.to_string()))
    }

    /// Creates a game; panics unless 201.
    pub fn create(&self, body: Value) -> Created {
        let reply = self.post("/api/games", &body);
        assert_eq!(reply.status, 201, "{}", reply.body);
        Created::from(reply.body)
    }

    /// Plays `mv` for `token` at ply `ply`.
    pub fn play(&self, id: &str, token: &str, ply: u64, mv: &str) -> Reply {
        self.post(
            &format!("/api/games/{id}/moves"),
            &json!({ "token": token, "ply": ply, "move": mv }),
        )
    }

    pub fn state(&self, id: &str) -> Value {
        let reply = self.get(&format!("/api/games/{id}"));
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.body
    }

    /// A WebSocket to the game, with a read timeout.
    pub fn watch(&self, id: &str) -> Watcher {
        self.watch_with(id, None).expect("WebSocket handshake")
    }

    /// A WebSocket to the game as a player (with their token) or a spectator, or the
    /// server's refusal of the handshake.
    pub fn watch_with(&self, id: &str, token: Option<&str>) -> Result<Watcher, tungstenite::Error> {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut url = format!("ws://{}/api/games/{id}/ws", self.addr);
        if let Some(token) = token {
            url += &format!("?token={token}");
        }
        match tungstenite::client(url, stream) {
            Ok((socket, _)) => Ok(Watcher(socket)),
            Err(tungstenite::HandshakeError::Failure(e)) => Err(e),
            Err(tungstenite::HandshakeError::Interrupted(_)) => panic!("a blocking handshake"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A new game's id and tokens.
#[derive(Debug, Clone)]
pub struct Created {
    pub id: String,
    pub red: Option<String>,
    pub blue: Option<String>,
    pub body: Value,
}

impl From<Value> for Created {
    fn from(body: Value) -> Created {
        let token = |side: &str| body["players"][side]["token"].as_str().map(String::from);
        Created {
            id: body["id"].as_str().unwrap().to_string(),
            red: token("red"),
            blue: token("blue"),
            body,
        }
    }
}

impl Created {
    /// The token of the side to move in `state`.
    pub fn token_for(&self, state: &Value) -> &str {
        let side = if state["turn"] == "red" {
            &self.red
        } else {
            &self.blue
        };
        side.as_deref().expect("a person is to move")
    }
}

/// A game state's WebSocket.
pub struct Watcher(tungstenite::WebSocket<TcpStream>);

impl Watcher {
    /// The next state sent.
    pub fn next(&mut self) -> Value {
        loop {
            match self.0.read().expect("a message within the timeout") {
                tungstenite::Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).unwrap()
                }
                tungstenite::Message::Close(_) => panic!("the server closed the WebSocket"),
                _ => {}
            }
        }
    }

    /// Closes the socket and sends the close frame at once.
    pub fn close(mut self) {
        let _ = self.0.close(None);
        let _ = self.0.flush();
    }
}

/// `text` percent-encoded for a query string.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A legal move in the state's position, chosen by `pick` among the library's legal moves.
pub fn a_legal_move(state: &Value, pick: usize) -> String {
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let position = Position::from_text(state["position"].as_str().unwrap(), &rules).unwrap();
    let moves = position.legal_moves();
    moves[pick % moves.len()].to_string()
}
