//! A browser as the server sees it, for the tests of accounts and seats (`docs/api.md`,
//! "Accounts"): a client that keeps the cookies the server sets (`Set-Cookie`, removed at
//! `Max-Age=0`) and sends them back, with the `Origin` a page of the server would send
//! (or another, or none), and opens WebSockets with both.

use std::collections::BTreeMap;
use std::net::TcpStream;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tungstenite::client::IntoClientRequest;
use tungstenite::http::HeaderValue;

/// One browser: its own cookies, sent to one server.
pub struct Browser {
    /// The server's address, `HOST:PORT`.
    pub addr: String,
    /// `http://ADDR`, or `https://NAME:PORT` behind a TLS-ending proxy.
    base: String,
    agent: ureq::Agent,
    jar: Mutex<BTreeMap<String, String>>,
    /// The `Origin` sent with every request: the server's own page by default.
    origin: Mutex<Option<String>>,
}

/// An answer: status, body (JSON, or the text as a JSON string) and headers.
#[derive(Debug, Clone)]
pub struct Page {
    /// The status code.
    pub status: u16,
    /// The body's JSON, or its text as a JSON string.
    pub body: Value,
    /// Every `Set-Cookie` header, as sent.
    pub set_cookies: Vec<String>,
    /// The `Retry-After` header, if any.
    pub retry_after: Option<String>,
}

impl Page {
    /// The refusal's `kind` ("" if none).
    pub fn kind(&self) -> &str {
        self.body["kind"].as_str().unwrap_or("")
    }

    /// The `Set-Cookie` header that sets `name`, if any.
    pub fn set_cookie(&self, name: &str) -> Option<&str> {
        self.set_cookies
            .iter()
            .map(String::as_str)
            .find(|c| c.starts_with(&format!("{name}=")))
    }
}

impl Browser {
    /// A fresh browser (no cookies) on the server at `addr`, its requests from the server's
    /// own page (`Origin: http://ADDR`).
    pub fn new(addr: &str) -> Browser {
        Browser {
            addr: addr.to_string(),
            base: format!("http://{addr}"),
            agent: ureq::AgentBuilder::new()
                .timeout(Duration::from_secs(30))
                .build(),
            jar: Mutex::new(BTreeMap::new()),
            origin: Mutex::new(Some(format!("http://{addr}"))),
        }
    }

    /// A fresh browser on the site over HTTPS, its requests from the site's own page
    /// (`Origin: https://NAME:PORT`). (Its [`Browser::websocket`] is plain: WSS is
    /// [`crate::http::Client::https`]'s.)
    #[cfg(feature = "tls")]
    pub fn https(site: &crate::tls::Https) -> Browser {
        Browser {
            addr: site.addr.to_string(),
            base: site.origin(),
            agent: site.agent(),
            jar: Mutex::new(BTreeMap::new()),
            origin: Mutex::new(Some(site.origin())),
        }
    }

    /// A fresh browser that has signed up as `username` (and so is logged in).
    pub fn signed_up(addr: &str, username: &str, password: &str) -> Browser {
        let browser = Browser::new(addr);
        let page = browser.post(
            "/api/account",
            &serde_json::json!({ "username": username, "password": password }),
        );
        assert_eq!(page.status, 201, "signing up {username}: {}", page.body);
        browser
    }

    /// The `Origin` sent from now on (`None`: none).
    pub fn set_origin(&self, origin: Option<&str>) {
        *self.origin.lock().unwrap() = origin.map(str::to_string);
    }

    /// The cookie `name`'s value, if the browser has it.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.jar.lock().unwrap().get(name).cloned()
    }

    /// Sets (or, with `None`, forgets) a cookie, as a person editing their browser would.
    pub fn put_cookie(&self, name: &str, value: Option<&str>) {
        let mut jar = self.jar.lock().unwrap();
        match value {
            Some(v) => jar.insert(name.to_string(), v.to_string()),
            None => jar.remove(name),
        };
    }

    /// The `Cookie` header the browser sends, if it has cookies.
    fn cookie_header(&self) -> Option<String> {
        let jar = self.jar.lock().unwrap();
        (!jar.is_empty()).then(|| {
            jar.iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }

    /// Any request, with the browser's cookies and origin and `headers` besides; the
    /// cookies it sets are kept.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Page {
        let mut req = self.agent.request(method, &format!("{}{path}", self.base));
        if let Some(cookies) = self.cookie_header() {
            req = req.set("Cookie", &cookies);
        }
        if let Some(origin) = self.origin.lock().unwrap().clone() {
            req = req.set("Origin", &origin);
        }
        for (name, value) in headers {
            req = req.set(name, value);
        }
        let result = match body {
            Some(body) => req
                .set("Content-Type", "application/json")
                .send_string(&body.to_string()),
            None => req.call(),
        };
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        let status = response.status();
        let set_cookies: Vec<String> = response
            .all("set-cookie")
            .into_iter()
            .map(str::to_string)
            .collect();
        let retry_after = response.header("retry-after").map(str::to_string);
        for cookie in &set_cookies {
            self.keep(cookie);
        }
        let text = response.into_string().unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Page {
            status,
            body,
            set_cookies,
            retry_after,
        }
    }

    /// Keeps (or, at `Max-Age=0`, removes) the cookie a `Set-Cookie` header sets.
    fn keep(&self, set_cookie: &str) {
        let mut parts = set_cookie.split(';').map(str::trim);
        let Some((name, value)) = parts.next().and_then(|p| p.split_once('=')) else {
            return;
        };
        let removed = parts.any(|p| p.eq_ignore_ascii_case("Max-Age=0"));
        let mut jar = self.jar.lock().unwrap();
        if removed || value.is_empty() {
            jar.remove(name);
        } else {
            jar.insert(name.to_string(), value.to_string());
        }
    }

    /// A GET.
    pub fn get(&self, path: &str) -> Page {
        self.send("GET", path, None, &[])
    }

    /// A POST of JSON.
    pub fn post(&self, path: &str, body: &Value) -> Page {
        self.send("POST", path, Some(body), &[])
    }

    /// A DELETE, with a JSON body or none.
    pub fn delete(&self, path: &str, body: Option<&Value>) -> Page {
        self.send("DELETE", path, body, &[])
    }

    /// A WebSocket to `path` with the browser's cookies and origin: its status if the
    /// server refused the handshake (`Err`), else the socket.
    pub fn websocket(&self, path: &str) -> Result<tungstenite::WebSocket<TcpStream>, u16> {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut request = format!("ws://{}{path}", self.addr)
            .into_client_request()
            .unwrap();
        if let Some(cookies) = self.cookie_header() {
            let value = HeaderValue::from_str(&cookies).unwrap();
            request.headers_mut().insert("cookie", value);
        }
        if let Some(origin) = self.origin.lock().unwrap().clone() {
            let value = HeaderValue::from_str(&origin).unwrap();
            request.headers_mut().insert("origin", value);
        }
        match tungstenite::client(request, stream) {
            Ok((socket, _)) => Ok(socket),
            Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
                Err(response.status().as_u16())
            }
            Err(tungstenite::HandshakeError::Failure(e)) => panic!("WebSocket {path}: {e}"),
            Err(tungstenite::HandshakeError::Interrupted(_)) => panic!("a blocking handshake"),
        }
    }
}
