//! The game server in a child process, for what needs a process of its own (a SIGKILL, a
//! SIGTERM, a limit on descriptors, a restart on the same database, two instances): run by
//! `lgame serve` in the command's own tests, by lgame-web's test server in the server's.

use std::ffi::OsStr;
use std::ops::Deref;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use crate::http::Client;
use crate::Lgame;

/// The program that runs the server, and how it is told the address, the database and the
/// rest of its configuration.
#[derive(Debug, Clone, Copy)]
pub enum Program {
    /// `lgame serve --addr ADDR --db DB EXTRA…`: EXTRA are the command's own flags
    /// (`--create-limit 0`). For lgame-cli's tests.
    Lgame(Lgame),
    /// lgame-web's `lgame-web-test-server addr=ADDR db=DB EXTRA…`: EXTRA name fields of
    /// `lgame_web::Config` (`create_limit=0`, `computer_delay_ms=20`, `head_timeout_s=60`,
    /// `shutdown_timeout_s=2`). For lgame-web's tests, which know its path:
    /// `Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"))`.
    TestServer(&'static str),
}

impl From<Lgame> for Program {
    fn from(lgame: Lgame) -> Program {
        Program::Lgame(lgame)
    }
}

impl Program {
    /// The program's path.
    pub fn path(self) -> &'static str {
        match self {
            Program::Lgame(lgame) => lgame.path(),
            Program::TestServer(path) => path,
        }
    }

    /// The arguments that serve on `addr` and `db` with `extra` (as the variant says).
    fn args(self, addr: &str, db: &OsStr, extra: &[&str]) -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        match self {
            Program::Lgame(_) => {
                args.extend(["serve", "--addr", addr, "--db"].map(Into::into));
                args.push(db.to_owned());
            }
            Program::TestServer(_) => {
                args.push(format!("addr={addr}").into());
                let mut field = std::ffi::OsString::from("db=");
                field.push(db);
                args.push(field);
            }
        }
        args.extend(extra.iter().map(Into::into));
        args
    }

    /// Runs the server on `db` (loopback, a free port) with `extra` to its end, for a
    /// server that must refuse to start: what it did (`RUST_LOG=warn`, no standard input).
    pub fn run(self, db: impl AsRef<OsStr>, extra: &[&str]) -> Output {
        Command::new(self.path())
            .args(self.args("127.0.0.1:0", db.as_ref(), extra))
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{} runs: {e}", self.path()))
    }
}

/// A running server in a child process on a free loopback port, killed when dropped; its
/// API through [`Client`] (`Deref`).
pub struct ServeProcess {
    child: Child,
    client: Client,
}

impl ServeProcess {
    /// Starts the server (`program`: `lgame serve` or lgame-web's test server) on `db` (a
    /// SQLite file's path or a `postgres://` URL) with `extra` arguments and waits (up to
    /// 30 s) for the address it prints.
    pub fn start(
        program: impl Into<Program>,
        db: impl AsRef<OsStr>,
        extra: &[&str],
    ) -> ServeProcess {
        ServeProcess::start_at(program, "127.0.0.1:0", db, extra)
    }

    /// [`ServeProcess::start`] on address `addr` (to start a server again where its
    /// clients knew it).
    pub fn start_at(
        program: impl Into<Program>,
        addr: &str,
        db: impl AsRef<OsStr>,
        extra: &[&str],
    ) -> ServeProcess {
        let program = program.into();
        let mut command = Command::new(program.path());
        command.args(program.args(addr, db.as_ref(), extra));
        ServeProcess::spawn(command)
    }

    /// [`ServeProcess::start`] with the limit on open descriptors, soft and hard, set to
    /// `descriptors` (by the shell's `ulimit -n`, which then runs the server in its place).
    pub fn start_with_descriptors(
        program: impl Into<Program>,
        db: impl AsRef<OsStr>,
        extra: &[&str],
        descriptors: u64,
    ) -> ServeProcess {
        let program = program.into();
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {descriptors} && exec \"$0\" \"$@\""))
            .arg(program.path())
            .args(program.args("127.0.0.1:0", db.as_ref(), extra));
        ServeProcess::spawn(command)
    }

    fn spawn(mut command: Command) -> ServeProcess {
        let mut child = command
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
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
