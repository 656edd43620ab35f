//! A blocking client of the game server's HTTP API and WebSockets (`docs/api.md`), for a
//! server at any address: in the test's process (`server::Server`, feature `server`) or
//! the server in a child process ([`crate::serve`]); over HTTPS and WSS behind a proxy
//! with `Client::https` (feature `tls`).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use lgame::{Position, Rules};
use serde_json::{json, Value};

/// A client of the server at `addr` (`HOST:PORT`).
pub struct Client {
    /// The server's address, `HOST:PORT`.
    pub addr: String,
    agent: ureq::Agent,
    /// The site over HTTPS, if the client goes through a TLS-ending proxy.
    #[cfg(feature = "tls")]
    site: Option<crate::tls::Https>,
}

/// An answer: the status and the body (JSON, or the text as a JSON string).
#[derive(Debug, Clone)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The body: its JSON, or its text as a JSON string.
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

/// An answer with its headers and its body's bytes as sent (not decoded): for what a
/// [`Reply`] leaves out (the page's files, pictures, compression, caching).
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, their names in lower case.
    pub headers: BTreeMap<String, String>,
    /// The body, byte for byte.
    pub bytes: Vec<u8>,
}

impl Answer {
    /// The header `name` (in lower case), or "" when absent.
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

impl Client {
    /// A client of `addr`, every request limited to 30 s.
    pub fn new(addr: String) -> Client {
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(30))
            .build();
        Client {
            addr,
            agent,
            #[cfg(feature = "tls")]
            site: None,
        }
    }

    /// A client of the site over HTTPS (and its WebSockets over WSS).
    #[cfg(feature = "tls")]
    pub fn https(site: crate::tls::Https) -> Client {
        Client {
            addr: site.addr.to_string(),
            agent: site.agent(),
            site: Some(site),
        }
    }

    /// The URL of `path` on the server.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin())
    }

    /// `http://ADDR`, or the site's `https://NAME:PORT`.
    fn origin(&self) -> String {
        #[cfg(feature = "tls")]
        if let Some(site) = &self.site {
            return site.origin();
        }
        format!("http://{}", self.addr)
    }

    /// A connection to the server: plain, or TLS to the site.
    fn connect(&self) -> Connection {
        #[cfg(feature = "tls")]
        if let Some(site) = &self.site {
            return Connection::Tls(site.connect());
        }
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Connection::Plain(stream)
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

    /// A GET of `path`.
    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, None)
    }

    /// A POST of `body` (JSON) to `path`.
    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.request("POST", path, Some(&body.to_string()))
    }

    /// A GET of `path` with `headers`, answered with its headers and its body's bytes as
    /// sent ([`Answer`]).
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        let mut request = self.agent.get(&self.url(path));
        for (name, value) in headers {
            request = request.set(name, value);
        }
        let response = match request.call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("GET {path}: {e}"),
        };
        let status = response.status();
        let headers = response
            .headers_names()
            .into_iter()
            .map(|name| {
                let value = response.header(&name).unwrap_or("").to_string();
                (name.to_lowercase(), value)
            })
            .collect();
        let mut bytes = Vec::new();
        response.into_reader().read_to_end(&mut bytes).unwrap();
        Answer {
            status,
            headers,
            bytes,
        }
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

    /// A game's state; panics unless 200.
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
        let mut url = self
            .url(&format!("/api/games/{id}/ws"))
            .replacen("http", "ws", 1);
        if let Some(token) = token {
            url += &format!("?token={token}");
        }
        match tungstenite::client(url, self.connect()) {
            Ok((socket, _)) => Ok(Watcher(socket, Value::Null)),
            Err(tungstenite::HandshakeError::Failure(e)) => Err(e),
            Err(tungstenite::HandshakeError::Interrupted(_)) => panic!("a blocking handshake"),
        }
    }
}

/// A new game's id and tokens.
#[derive(Debug, Clone)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// Red's token, if Red is a person.
    pub red: Option<String>,
    /// Blue's token, if Blue is a person.
    pub blue: Option<String>,
    /// The whole answer to the creation.
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

/// A connection to the server, plain or through TLS.
pub enum Connection {
    /// TCP to the server itself.
    Plain(TcpStream),
    /// TLS to a proxy in front of it.
    #[cfg(feature = "tls")]
    Tls(crate::tls::TlsStream),
}

impl Read for Connection {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Connection::Plain(s) => s.read(buf),
            #[cfg(feature = "tls")]
            Connection::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Connection {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Connection::Plain(s) => s.write(buf),
            #[cfg(feature = "tls")]
            Connection::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Connection::Plain(s) => s.flush(),
            #[cfg(feature = "tls")]
            Connection::Tls(s) => s.flush(),
        }
    }
}

/// A game's WebSocket, with the state its messages add up to.
pub struct Watcher(tungstenite::WebSocket<Connection>, Value);

impl Watcher {
    /// The state after the next message (waiting up to the read timeout; never `None`, so
    /// not an iterator's `next`): the whole state the first message sends, with each change
    /// after it applied (docs/api.md).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Value {
        let message = self.next_message();
        apply(&mut self.1, &message);
        self.1.clone()
    }

    /// The next message as the server sends it: `{"type": "state", ...}` or
    /// `{"type": "change", ...}`.
    pub fn next_message(&mut self) -> Value {
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

/// A game's WebSocket message applied to the state before it, as docs/api.md says: a
/// `state` replaces it; a `change` cuts `moves` and `positions` to `from` plies, appends its
/// own, and sets its other fields.
pub fn apply(state: &mut Value, message: &Value) {
    let mut message = message.as_object().expect("a message is an object").clone();
    let kind = message.remove("type");
    match kind.as_ref().and_then(Value::as_str) {
        Some("state") => *state = Value::Object(message),
        Some("change") => {
            let from = message
                .remove("from")
                .and_then(|f| f.as_u64())
                .expect("from") as usize;
            for list in ["moves", "positions"] {
                let added = message.remove(list).expect("a change's plies");
                let kept = state[list]
                    .as_array_mut()
                    .expect("a state before the change");
                kept.truncate(from);
                kept.extend(added.as_array().expect("a list").iter().cloned());
            }
            let fields = state.as_object_mut().expect("a state is an object");
            for (key, value) in message {
                fields.insert(key, value);
            }
        }
        other => panic!("a message of unknown type {other:?}"),
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

/// The legal moves that end neither the game nor, for every reply, the next turn, so that a
/// game goes on as long as a test plays it; all legal moves if there is none.
pub fn quiet_moves(state: &Value) -> Vec<String> {
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let position = Position::from_text(state["position"].as_str().unwrap(), &rules).unwrap();
    let moves = position.legal_moves();
    let quiet: Vec<String> = moves
        .iter()
        .filter(|mv| {
            let after = position.play_unchecked(mv);
            after.outcome().is_none()
                && after
                    .legal_moves()
                    .iter()
                    .any(|reply| after.play_unchecked(reply).outcome().is_none())
        })
        .map(|mv| mv.to_string())
        .collect();
    match quiet.is_empty() {
        true => moves.iter().map(|mv| mv.to_string()).collect(),
        false => quiet,
    }
}
