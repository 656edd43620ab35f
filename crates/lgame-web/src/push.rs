//! Web Push (docs/deploy.md, "Push notifications"): the server's VAPID key pair, made at
//! first start and kept in the database; the accounts' browsers' subscriptions; and a
//! notice sent to every browser of an account, encrypted for each (RFC 8291, `aes128gcm`)
//! and signed with the key (RFC 8292, ES256). The games, the lobby and the bots tell what
//! happened through [`Push::notify`], the one hook; the sending runs in the background and
//! never holds a move. `push/endpoint.rs` decides where a push may go; `push/rows.rs` keeps
//! the rows.

pub mod api;
pub mod endpoint;
pub mod routes;
pub mod rows;

use std::fmt;
use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding};
use web_push_native::jwt_simple::algorithms::{
    ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair,
};
use web_push_native::jwt_simple::claims::Claims;
use web_push_native::{p256, Auth, WebPushBuilder};

use crate::store::{Store, StoreError};
pub use endpoint::Reach;
use rows::SubscriptionRow;

/// How long a push service keeps a notice for a browser that is offline.
const TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a push service has to answer.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// The browsers an account's notices go to, at most: a new one past them replaces the
/// oldest.
pub const MOST_SUBSCRIPTIONS: usize = 10;

/// What a player is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// It is their move in correspondence game `game`.
    YourMove { game: String },
    /// A challenge arrived from `from` (a username, or "someone").
    Challenge { id: String, from: String },
    /// A game the lobby paired them in started while their page was closed.
    GameStarted { game: String },
}

impl Notice {
    /// The notification as the page's service worker shows it (`web/sw.js`): a title, a
    /// line, the page to open on a click, and a tag (one notification a game).
    fn payload(&self) -> serde_json::Value {
        let (title, body, url, tag) = match self {
            Notice::YourMove { game } => (
                "Your move",
                "It is your move in a correspondence game.".to_string(),
                format!("/#/game/{game}"),
                format!("game-{game}"),
            ),
            Notice::Challenge { id, from } => (
                "A challenge",
                format!("{from} challenges you."),
                "/#/".to_string(),
                format!("challenge-{id}"),
            ),
            Notice::GameStarted { game } => (
                "Your game started",
                "The lobby paired you: your game has started.".to_string(),
                format!("/#/game/{game}"),
                format!("game-{game}"),
            ),
        };
        serde_json::json!({ "title": title, "body": body, "url": url, "tag": tag })
    }
}

/// A subscription refused, or its storage failed.
#[derive(Debug)]
pub enum PushError {
    /// Its endpoint or keys cannot be used (the reason).
    BadSubscription(String),
    /// Nothing to end: the account has no subscription at that endpoint.
    NoSubscription,
    Storage(StoreError),
}

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PushError::BadSubscription(why) => write!(f, "subscription refused: {why}"),
            PushError::NoSubscription => f.write_str("no subscription at that endpoint"),
            PushError::Storage(e) => write!(f, "storage: {e}"),
        }
    }
}

impl From<StoreError> for PushError {
    fn from(e: StoreError) -> PushError {
        PushError::Storage(e)
    }
}

/// The contact the push services are given when none is set.
pub const DEFAULT_PUSH_CONTACT: &str = "mailto:root@localhost";

/// The server's Web Push: its key pair and where pushes may go (the rows are the store's).
pub struct Push {
    key: ES256KeyPair,
    /// Who runs the server, for the push services (the VAPID `sub`: `mailto:` or `https:`).
    contact: String,
    reach: Reach,
}

impl Push {
    /// The key kept in the database, or a new one made and kept (first start).
    ///
    /// # Errors
    /// The database cannot be read or written, or the kept key cannot be read.
    pub async fn load(store: &Store, contact: String, reach: Reach) -> anyhow::Result<Push> {
        let made = Base64UrlUnpadded::encode_string(&ES256KeyPair::generate().to_bytes());
        let kept = store.push_key(&made).await?;
        let bytes = Base64UrlUnpadded::decode_vec(&kept)
            .map_err(|e| anyhow::anyhow!("the database's push key: {e}"))?;
        let key = ES256KeyPair::from_bytes(&bytes)
            .map_err(|e| anyhow::anyhow!("the database's push key: {e}"))?;
        Ok(Push {
            key,
            contact,
            reach,
        })
    }

    /// A key made for this process only, kept nowhere: until [`Push::load`]'s replaces it
    /// (the games' default, for the callers that send no push).
    pub fn unkept() -> Push {
        Push {
            key: ES256KeyPair::generate(),
            contact: DEFAULT_PUSH_CONTACT.to_string(),
            reach: Reach::Public,
        }
    }

    /// The public key, uncompressed, base64url: the browser's `applicationServerKey`.
    pub fn public_key(&self) -> String {
        let point = self.key.public_key().public_key().to_bytes_uncompressed();
        Base64UrlUnpadded::encode_string(&point)
    }

    /// Account `user_id`'s browser subscribes: its keys read and its endpoint checked.
    pub async fn subscribe(
        &self,
        store: &Store,
        user_id: i64,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        now_ms: i64,
    ) -> Result<(), PushError> {
        endpoint::check(endpoint, self.reach)
            .await
            .map_err(PushError::BadSubscription)?;
        let row = SubscriptionRow {
            endpoint: endpoint.to_string(),
            user_id,
            p256dh: p256dh.to_string(),
            auth: auth.to_string(),
        };
        keys(&row).map_err(PushError::BadSubscription)?;
        Ok(store
            .subscribe_push(&row, MOST_SUBSCRIPTIONS, now_ms)
            .await?)
    }

    /// Ends account `user_id`'s subscription at `endpoint`: another account's is not found.
    pub async fn unsubscribe(
        &self,
        store: &Store,
        user_id: i64,
        endpoint: &str,
    ) -> Result<(), PushError> {
        match store.unsubscribe_push(endpoint, user_id).await? {
            true => Ok(()),
            false => Err(PushError::NoSubscription),
        }
    }

    /// Tells account `user_id` of `notice` on every browser it subscribed (the games'
    /// `Games::notify` runs it in the background).
    pub async fn deliver(&self, store: &Store, user_id: i64, notice: &Notice) {
        let subscriptions = match store.push_subscriptions(user_id).await {
            Ok(rows) => rows,
            Err(e) => return tracing::warn!(error = %e, "reading push subscriptions"),
        };
        let payload = notice.payload().to_string();
        for row in subscriptions {
            if let Err(e) = self.send(store, &row, &payload).await {
                tracing::info!(error = %e, "a push not delivered");
            }
        }
    }

    /// The VAPID `Authorization` (RFC 8292): a JWT signed with the server's key whose
    /// audience is the push service's origin, its port included when not the scheme's
    /// (`web-push-native`'s own leaves the port out), and the public key.
    fn vapid(&self, endpoint: &http::Uri) -> anyhow::Result<String> {
        let scheme = endpoint.scheme_str().unwrap_or("https");
        let host = endpoint.host().unwrap_or_default();
        let audience = match endpoint.port_u16() {
            Some(port) => format!("{scheme}://{host}:{port}"),
            None => format!("{scheme}://{host}"),
        };
        let claims = Claims::create(TTL.into())
            .with_audience(audience)
            .with_subject(&self.contact);
        let token = self.key.sign(claims)?;
        Ok(format!("vapid t={token}, k={}", self.public_key()))
    }

    /// Sends `payload` to one subscription, to the address its endpoint is checked to have
    /// now; deletes the subscription if the push service says it is gone.
    async fn send(
        &self,
        store: &Store,
        row: &SubscriptionRow,
        payload: &str,
    ) -> anyhow::Result<()> {
        let checked = endpoint::check(&row.endpoint, self.reach)
            .await
            .map_err(anyhow::Error::msg)?;
        let (public, auth) = keys(row).map_err(anyhow::Error::msg)?;
        let endpoint: http::Uri = row.endpoint.parse()?;
        let vapid = self.vapid(&endpoint)?;
        let mut request = WebPushBuilder::new(endpoint, public, auth)
            .with_valid_duration(TTL)
            .build(payload.as_bytes())?;
        request
            .headers_mut()
            .insert(http::header::AUTHORIZATION, vapid.parse()?);
        let status = tokio::task::spawn_blocking(move || post(&checked, request)).await??;
        if status == 404 || status == 410 {
            tracing::info!(status, "a push subscription gone: deleted");
            store.push_gone(&row.endpoint).await?;
        } else if !(200..300).contains(&status) {
            anyhow::bail!("the push service answered {status}");
        }
        Ok(())
    }
}

/// A subscription's keys read: the browser's public key and its secret.
fn keys(row: &SubscriptionRow) -> Result<(p256::PublicKey, Auth), String> {
    let point = Base64UrlUnpadded::decode_vec(&row.p256dh)
        .map_err(|e| format!("keys.p256dh is not base64url: {e}"))?;
    let public = p256::PublicKey::from_sec1_bytes(&point)
        .map_err(|_| "keys.p256dh is not a P-256 public key".to_string())?;
    let auth = Base64UrlUnpadded::decode_vec(&row.auth)
        .map_err(|e| format!("keys.auth is not base64url: {e}"))?;
    if auth.len() != 16 {
        return Err("keys.auth must be 16 bytes".into());
    }
    Ok((public, Auth::clone_from_slice(&auth)))
}

/// Posts `request` to the checked address only (the URL's host names the TLS server and
/// the `Host`, never a second lookup); the push service's status.
fn post(checked: &endpoint::Checked, request: http::Request<Vec<u8>>) -> anyhow::Result<u16> {
    let addr = checked.addr;
    let agent = ureq::AgentBuilder::new()
        .resolver(move |_: &str| Ok(vec![addr]))
        .timeout(SEND_TIMEOUT)
        .redirects(0)
        .build();
    let mut call = agent.post(&checked.url);
    // ureq sets the body's length itself.
    let headers = request.headers().iter();
    for (name, value) in headers.filter(|(name, _)| *name != http::header::CONTENT_LENGTH) {
        call = call.set(name.as_str(), value.to_str()?);
    }
    match call.send_bytes(request.body()) {
        Ok(answer) => Ok(answer.status()),
        Err(ureq::Error::Status(status, _)) => Ok(status),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    use super::*;

    /// A push goes to the address its endpoint was checked to have, never to its name looked
    /// up again: here a name no resolver knows (`.invalid`, RFC 2606) reaches the listener
    /// it was checked to be, named in the request's `Host`.
    #[test]
    fn a_push_connects_to_the_checked_address_not_to_its_name_again() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let url = format!("http://push.invalid:{}/browser", addr.port());
        let checked = endpoint::Checked { url, addr };
        let request = http::Request::post("http://push.invalid/browser")
            .body(b"ciphertext".to_vec())
            .unwrap();
        let poster = std::thread::spawn(move || post(&checked, request));

        let deadline = Instant::now() + Duration::from_secs(20);
        let mut socket = loop {
            match listener.accept() {
                Ok((socket, _)) => break socket,
                Err(_) if poster.is_finished() => panic!("no connection: {:?}", poster.join()),
                Err(_) => {
                    assert!(Instant::now() < deadline, "no connection in 20 s");
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
        };
        socket.set_nonblocking(false).unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            socket.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        let head = String::from_utf8(head).unwrap().to_ascii_lowercase();
        assert!(head.starts_with("post /browser http/1.1\r\n"), "{head}");
        let host = format!("\r\nhost: push.invalid:{}\r\n", addr.port());
        assert!(head.contains(&host), "{head}");
        socket
            .write_all(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            .unwrap();
        assert_eq!(poster.join().unwrap().unwrap(), 201);
    }
}
