//! `lgame serve` in a child process: for the command's own tests, and for what needs a
//! process of its own (a SIGKILL, a SIGTERM, a restart on the same database).

use std::ffi::OsStr;
use std::ops::Deref;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::http::Client;
use crate::Lgame;

/// A running `lgame serve` on a free loopback port, killed when dropped; its API through
/// [`Client`] (`Deref`).
pub struct ServeProcess {
    child: Child,
    client: Client,
}

impl ServeProcess {
    /// Starts `lgame serve` on `db` (what `--db` takes: a SQLite file's path or a
    /// `postgres://` URL) with `extra` arguments and waits (up to 30 s) for the address it
    /// prints.
    pub fn start(lgame: Lgame, db: impl AsRef<OsStr>, extra: &[&str]) -> ServeProcess {
        ServeProcess::spawn(lgame.command(), db, extra)
    }

    /// [`ServeProcess::start`] with the limit on open descriptors, soft and hard, set to
    /// `descriptors` (by the shell's `ulimit -n`, which then runs the server in its place).
    pub fn start_with_descriptors(
        lgame: Lgame,
        db: impl AsRef<OsStr>,
        extra: &[&str],
        descriptors: u64,
    ) -> ServeProcess {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {descriptors} && exec \"$0\" \"$@\""))
            .arg(lgame.path());
        ServeProcess::spawn(command, db, extra)
    }

    fn spawn(mut command: Command, db: impl AsRef<OsStr>, extra: &[&str]) -> ServeProcess {
        let mut child = command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.as_ref())
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("lgame serve starts");
        let lines = crate::lines_of(child.stdout.take().unwrap());
        let line = match lines.recv_timeout(Duration::from_secs(30)) {
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
        ServeProcess {
            child,
            client: Client::new(addr),
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then the exit status once it has stopped (within 10 s).
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
}

impl Deref for ServeProcess {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
