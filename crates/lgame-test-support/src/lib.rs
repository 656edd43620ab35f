//! What the tests of `lgame-cli` and `lgame-web` share, written once:
//!
//! - [`TempDir`]: a directory of the test's own, removed when dropped;
//! - [`Reader`] ([`lines_of`]): what a child process writes, read by a thread of its own so
//!   that a test waits for the next line (or prompt) with a time limit;
//! - [`Lgame`]: the `lgame` binary run with arguments and input (its path comes from the
//!   test crate: `env!("CARGO_BIN_EXE_lgame")`, which only `lgame-cli`'s tests know);
//! - [`http`]: the blocking HTTP and WebSocket client of the game server, and
//!   [`serve::ServeProcess`], the server in a child process (`lgame serve` for the command's
//!   tests, lgame-web's test server for the server's); [`raw`]: HTTP by hand on a socket, for
//!   hostile clients and paths sent as written;
//! - `server::Server` (feature `server`): the game server in the test's own process, on a
//!   free port;
//! - [`accounts::Browser`]: a client that keeps the server's cookies and sends an `Origin`,
//!   as a browser does, for the tests of accounts, sessions and seats;
//! - [`library`]: the rules library's answers computed a second time (positions after
//!   moves, a refusal said in words), to check the server's against;
//! - [`browser`]: a small WebDriver client for headless Chromium through chromedriver, and
//!   [`cdp`]: a DevTools protocol client of the test's own for that browser (events, and
//!   targets besides the page: a service worker);
//! - `postgres::cluster()` (feature `postgres`): a throwaway PostgreSQL cluster, started
//!   once per test process, with a fresh database for each test that asks; and
//!   `backends::Backend` with `on_both_backends!`, a test run on SQLite and on PostgreSQL;
//! - [`smtp::SmtpServer`]: a real SMTP server (aiosmtpd) keeping the mail it receives, and
//!   the mailed links read back from it;
//! - `tls::Https` (feature `tls`): the site behind a TLS-ending proxy (Caddy), for
//!   [`http::Client`] and [`accounts::Browser`] over HTTPS and WSS.

pub mod accounts;
#[cfg(feature = "postgres")]
pub mod backends;
pub mod bots;
pub mod browser;
pub mod cdp;
pub mod http;
pub mod library;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod raw;
pub mod serve;
#[cfg(feature = "server")]
pub mod server;
pub mod smtp;
#[cfg(feature = "tls")]
pub mod tls;

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `lgame-NAME-PID-N`, emptied if it was left over.
    pub fn new(name: &str) -> TempDir {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("lgame-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        TempDir(dir)
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The directory's path as text.
    pub fn text(&self) -> String {
        self.0.display().to_string()
    }

    /// A database file inside the directory (`games.db`, not created).
    pub fn db(&self) -> PathBuf {
        self.0.join("games.db")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a child process writes on one of its outputs, read by a thread of its own: a test
/// waits for the next line ([`Reader::recv_timeout`]) or for a prompt ([`Reader::until`])
/// with a time limit. The output's end is [`RecvTimeoutError::Disconnected`] once everything
/// before it has been taken.
pub struct Reader {
    chunks: Receiver<Vec<u8>>,
    /// Read but not yet taken.
    pending: Mutex<Vec<u8>>,
}

/// Reads `output` (a child's stdout or stderr) line by line: see [`Reader`].
pub fn lines_of(output: impl Read + Send + 'static) -> Reader {
    Reader::new(output)
}

impl Reader {
    /// Starts reading `output` on a thread of its own.
    pub fn new(mut output: impl Read + Send + 'static) -> Reader {
        let (sender, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            loop {
                match output.read(&mut buffer) {
                    Ok(0) => return,
                    // Once the reader is dropped the output is still drained, so the child
                    // never finds its output closed.
                    Ok(n) => {
                        let _ = sender.send(buffer[..n].to_vec());
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return,
                }
            }
        });
        Reader {
            chunks,
            pending: Mutex::new(Vec::new()),
        }
    }

    /// Waits up to `timeout` until the text read so far contains `end`, then takes the text
    /// up to it (with `end`); the error if the time ran out or the output ended first.
    fn take_through(&self, end: &[u8], timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        let deadline = Instant::now() + timeout;
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(at) = pending.windows(end.len()).position(|w| w == end) {
                return Ok(pending.drain(..at + end.len()).collect());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => pending.extend_from_slice(&chunk),
                Err(e) => return Err(e),
            }
        }
    }

    /// The next line (without its line end), waiting up to `timeout` for it. A last line
    /// without a line end is a line; after it, the output's end is `Disconnected`.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let line = match self.take_through(b"\n", timeout) {
            Ok(mut line) => {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                line
            }
            Err(RecvTimeoutError::Disconnected) => {
                let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                if pending.is_empty() {
                    return Err(RecvTimeoutError::Disconnected);
                }
                std::mem::take(&mut *pending)
            }
            Err(e) => return Err(e),
        };
        Ok(String::from_utf8(line).expect("the child's output is UTF-8"))
    }

    /// Everything written up to and including the next `end` (a prompt, say), waiting up to
    /// `timeout`; or, if it does not come, what was written so far.
    pub fn until(&self, end: &str, timeout: Duration) -> Result<String, String> {
        match self.take_through(end.as_bytes(), timeout) {
            Ok(text) => Ok(String::from_utf8(text).expect("the child's output is UTF-8")),
            Err(_) => {
                let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                Err(String::from_utf8_lossy(&pending).into_owned())
            }
        }
    }
}

/// The `lgame` binary, whose path the test crate knows:
/// `const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));`.
#[derive(Debug, Clone, Copy)]
pub struct Lgame(&'static str);

/// A load run's figures in milliseconds as one line: `LABEL: p50 N ms, p99 N ms, max N ms
/// (N values)` (nearest rank).
pub fn spread(label: &str, mut values: Vec<i64>) -> String {
    values.sort_unstable();
    let Some(max) = values.last() else {
        return format!("{label}: no values");
    };
    let at = |p: f64| values[((values.len() as f64 * p) as usize).min(values.len() - 1)];
    format!(
        "{label}: p50 {} ms, p99 {} ms, max {max} ms ({} values)",
        at(0.5),
        at(0.99),
        values.len()
    )
}

impl Lgame {
    /// The binary at `path`.
    pub const fn new(path: &'static str) -> Lgame {
        Lgame(path)
    }

    /// The binary's path.
    pub fn path(&self) -> &'static str {
        self.0
    }

    /// A command running the binary, to be given its arguments.
    pub fn command(&self) -> Command {
        Command::new(self.0)
    }

    /// Runs `lgame args` (no standard input, `NO_COLOR` unset) and returns what it did.
    pub fn run<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command()
            .args(args)
            .env_remove("NO_COLOR")
            .stdin(Stdio::null())
            .output()
            .expect("the lgame binary runs")
    }

    /// `lgame admin --db DB ARGS…` (the administrator's command on a server's database):
    /// whether it succeeded, and what it printed (both streams).
    pub fn admin(&self, db: impl AsRef<OsStr>, args: &[&str]) -> (bool, String) {
        let out = self
            .command()
            .arg("admin")
            .arg("--db")
            .arg(db)
            .args(args)
            .output()
            .expect("the lgame binary runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    }

    /// Runs `lgame args` with `input` on standard input (`NO_COLOR` unset). The command may
    /// exit before reading all of it (a usage error, say): that is not a failure here.
    pub fn run_with_stdin(&self, args: &[&str], input: &[u8]) -> Output {
        let mut child = self
            .command()
            .args(args)
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the lgame binary runs");
        let written = child.stdin.take().expect("a piped stdin").write_all(input);
        if let Err(e) = written {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "lgame reads its input: {e}"
            );
        }
        child.wait_with_output().expect("lgame finishes")
    }

    /// Runs a command that must succeed, silently on stderr, and returns its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "lgame {args:?} failed: {}",
            stderr(&out)
        );
        assert!(out.stderr.is_empty(), "unexpected stderr: {}", stderr(&out));
        stdout(&out)
    }

    /// Runs a command that must fail with `code`; returns its stderr, checked to be one
    /// `error: ` message with no panic and nothing on stdout.
    pub fn fails(&self, args: &[&str], code: i32) -> String {
        failure(&self.run(args), args, code)
    }
}

/// The stderr of `lgame args` that ended as `out`, checked to be a failure with `code`: one
/// `error: ` message with no panic and nothing on stdout.
pub fn failure(out: &Output, args: &[&str], code: i32) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "lgame {args:?}: {err}");
    assert!(!err.contains("panicked"), "lgame {args:?} panicked: {err}");
    assert!(err.starts_with("error: "), "lgame {args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "lgame {args:?} printed {}",
        stdout(out)
    );
    err
}

/// The binary's path, as a command line names it.
impl std::fmt::Display for Lgame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// A command's stdout, which must be UTF-8.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// A command's stderr (invalid UTF-8 replaced).
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONG: Duration = Duration::from_secs(10);
    const SHORT: Duration = Duration::from_millis(100);

    #[test]
    fn lines_without_their_ends_then_the_last_one_then_the_end() {
        let lines = lines_of(std::io::Cursor::new(b"one\r\ntwo\n\nlast".to_vec()));
        for expected in ["one", "two", "", "last"] {
            assert_eq!(lines.recv_timeout(LONG), Ok(expected.to_string()));
        }
        assert_eq!(
            lines.recv_timeout(LONG),
            Err(RecvTimeoutError::Disconnected)
        );
    }

    #[test]
    fn a_prompt_without_a_line_end_and_a_wait_that_times_out() {
        let (read, mut write) = std::io::pipe().unwrap();
        let output = Reader::new(read);
        write.write_all(b"Board\nRed> ").unwrap();
        assert_eq!(output.until("> ", LONG), Ok("Board\nRed> ".to_string()));
        write.write_all(b"half").unwrap();
        assert_eq!(output.until("> ", SHORT), Err("half".to_string()));
        assert_eq!(output.recv_timeout(SHORT), Err(RecvTimeoutError::Timeout));
        drop(write);
        assert_eq!(output.recv_timeout(LONG), Ok("half".to_string()));
    }

    #[test]
    fn a_temporary_directory_is_new_and_goes_when_dropped() {
        let dir = TempDir::new("support");
        let other = TempDir::new("support");
        assert_ne!(dir.path(), other.path());
        std::fs::write(dir.db(), b"x").unwrap();
        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(!path.exists());
    }
}
