//! A push service for the tests (`push_receiver.py`: Python's `cryptography` and `http_ece`
//! from PyPI, in a virtual environment under the target directory): it makes a browser's
//! subscription, and decrypts every push the server posts to it as a browser would (RFC 8291,
//! `aes128gcm`), its VAPID signature checked against `GET /api/push/key`. `web_push.rs` hands
//! what it decrypted to Chromium's service worker.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use lgame_test_support::server::Server;
use serde_json::{json, Value};

/// The versions pip installs for the receiver.
const PACKAGES: [&str; 2] = ["http_ece==1.2.1", "cryptography==51.0.1"];

/// The receiver's Python: a virtual environment with [`PACKAGES`], made once (by one test
/// at a time: two making it at once would clear each other's).
fn python() -> PathBuf {
    static MADE: Mutex<()> = Mutex::new(());
    let _alone = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("push-receiver-venv");
    let python = venv.join("bin").join("python");
    let ready = |python: &Path| {
        Command::new(python)
            .args(["-c", "import http_ece, cryptography"])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    if ready(&python) {
        return python;
    }
    let made = Command::new("python3")
        .args(["-m", "venv", "--clear"])
        .arg(&venv)
        .output();
    assert!(
        made.as_ref().is_ok_and(|out| out.status.success()),
        "this test needs python3 with its venv module (Debian: apt-get install python3-venv; \
         `cargo xtask test` installs it): {made:?}"
    );
    let pip = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(PACKAGES)
        .output()
        .expect("running pip");
    assert!(
        pip.status.success(),
        "pip could not install {PACKAGES:?} from PyPI: {}",
        String::from_utf8_lossy(&pip.stderr)
    );
    assert!(ready(&python), "{PACKAGES:?} installed");
    python
}

/// The push service, and the browser's subscription it made.
pub struct Receiver {
    child: Child,
    lines: mpsc::Receiver<Value>,
    origin: String,
    keys: Value,
}

impl Receiver {
    /// A push service for `server`'s pushes, checking them against its key.
    pub fn for_server(server: &Server) -> Receiver {
        let key = server.get("/api/push/key").body["key"]
            .as_str()
            .expect("the server's push key")
            .to_string();
        assert_eq!(key.len(), 87, "65 bytes in base64url: {key}");
        Receiver::start(&key)
    }

    fn start(server_key: &str) -> Receiver {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/push_receiver.py");
        let mut child = Command::new(python())
            .arg(script)
            .arg(server_key)
            .stdout(Stdio::piped())
            .spawn()
            .expect("starting the push receiver");
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = send.send(serde_json::from_str(&line).expect("a JSON line"));
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the receiver's subscription");
        Receiver {
            child,
            lines,
            origin: first["origin"].as_str().unwrap().to_string(),
            keys: first["keys"].clone(),
        }
    }

    pub fn subscription(&self, path: &str) -> Value {
        let endpoint = format!("{}{path}", self.origin);
        json!({ "endpoint": endpoint, "expirationTime": null, "keys": self.keys })
    }

    /// The next push received, decrypted and its signature checked.
    pub fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("a push within 20 s");
        assert!(
            line.get("error").is_none(),
            "the push did not check: {line}"
        );
        line
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
