//! Engines in other processes, spoken to over the protocol, with time limits.
//!
//! Each engine runs in a process group of its own (on Unix), so that when it is done with,
//! crashed or too slow, the whole group is killed and nothing is left running.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use lgame::{Game, Rules};

use crate::protocol::{position_command, rules_command, Command, Reply};

/// Extra time allowed past the move time, for the pipes and the process to answer.
pub const SLACK: Duration = Duration::from_millis(250);

/// How an engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The command could not be started.
    Start(String),
    /// The engine ended (or closed its output) while it was expected to answer.
    Crashed(String),
    /// No answer in time.
    Timeout(Duration),
    /// A line that is not part of the protocol, or not the expected reply.
    Malformed(String),
    /// The engine answered `error …`.
    Refused(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "could not start: {e}"),
            Failure::Crashed(e) => write!(f, "crashed: {e}"),
            Failure::Timeout(d) => write!(f, "timeout: no answer within {} ms", d.as_millis()),
            Failure::Malformed(e) => write!(f, "malformed output: {e}"),
            Failure::Refused(e) => write!(f, "engine error: {e}"),
        }
    }
}

impl std::error::Error for Failure {}

/// A running engine.
pub struct External {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    killed: bool,
}

impl External {
    /// Starts `command` (run by `sh -c`) and completes the handshake within `timeout`.
    ///
    /// # Errors
    /// A [`Failure`] when the engine does not start or answer the handshake.
    pub fn start(command: &str, timeout: Duration) -> Result<External, Failure> {
        let mut process = Process::new("sh");
        process
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        let mut child = process
            .spawn()
            .map_err(|e| Failure::Start(format!("{command}: {e}")))?;
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
                        if sender.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut engine = External {
            name: command.to_string(),
            child,
            stdin,
            lines,
            killed: false,
        };
        engine.send(&Command::Lgp)?;
        let deadline = Instant::now() + timeout;
        loop {
            match engine.receive(deadline, timeout)? {
                Reply::Name(name) => engine.name = name,
                Reply::LgpOk => return Ok(engine),
                Reply::Error(e) => return Err(Failure::Refused(e)),
                _ => {}
            }
        }
    }

    /// The engine's name (from `id name`, else its command).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Starts a new game under `rules` and waits, up to `timeout`, until the engine is ready.
    ///
    /// # Errors
    /// A [`Failure`] when the engine refuses the rules or does not get ready in time.
    pub fn new_game(&mut self, rules: &Rules, timeout: Duration) -> Result<(), Failure> {
        self.send(&Command::NewGame)?;
        self.send(&rules_command(rules))?;
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline, timeout)? {
                Reply::ReadyOk => return Ok(()),
                Reply::Error(e) => return Err(Failure::Refused(e)),
                Reply::Info(_) => {}
                other => {
                    return Err(Failure::Malformed(format!(
                        "'{other}' while waiting for readyok"
                    )))
                }
            }
        }
    }

    /// Asks for a move in the game's position, allowing `movetime` (plus [`SLACK`]).
    /// Returns the move text as the engine wrote it (`None` for `bestmove none`); the
    /// referee checks it.
    ///
    /// # Errors
    /// A [`Failure`] for a crash, a timeout, an `error` reply or a line out of protocol.
    pub fn choose(&mut self, game: &Game, movetime: Duration) -> Result<Option<String>, Failure> {
        self.send(&position_command(game.start(), &game.moves()))?;
        self.send(&Command::Go {
            movetime: Some(movetime.as_millis() as u64),
        })?;
        let allowed = movetime + SLACK;
        let deadline = Instant::now() + allowed;
        loop {
            match self.receive(deadline, allowed)? {
                Reply::BestMove(mv) => return Ok(mv),
                Reply::Info(_) => {}
                Reply::Error(e) => return Err(Failure::Refused(e)),
                other => {
                    return Err(Failure::Malformed(format!(
                        "'{other}' while waiting for bestmove"
                    )))
                }
            }
        }
    }

    fn send(&mut self, command: &Command) -> Result<(), Failure> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("its input is closed".into()))?;
        writeln!(stdin, "{command}")
            .and_then(|()| stdin.flush())
            .map_err(|_| self.crash_report())
    }

    fn receive(&mut self, deadline: Instant, allowed: Duration) -> Result<Reply, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) if line.trim().is_empty() => self.receive(deadline, allowed),
            Ok(line) => line
                .parse::<Reply>()
                .map_err(|e| Failure::Malformed(e.to_string())),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout(allowed)),
            Err(RecvTimeoutError::Disconnected) => Err(self.crash_report()),
        }
    }

    /// Describes how the process ended, once its output has closed.
    fn crash_report(&mut self) -> Failure {
        // Give an exiting process a moment to be reaped, so its status can be told.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Failure::Crashed(format!("the engine exited ({status})"));
            }
            thread::sleep(Duration::from_millis(5));
        }
        Failure::Crashed("the engine closed its output".into())
    }

    /// Asks the engine to quit, then makes sure its whole process group is gone.
    pub fn stop(mut self) {
        let _ = self.send(&Command::Quit);
        self.stdin = None;
        thread::sleep(Duration::from_millis(10));
        self.kill();
    }

    fn kill(&mut self) {
        if std::mem::replace(&mut self.killed, true) {
            return;
        }
        #[cfg(unix)]
        {
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) with a negative pid signals the process group this child
                // leads (it was started with process_group(0)); it touches no memory.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.kill();
    }
}
