//! Engines in other processes, spoken to over the protocol, with time limits.
//!
//! An engine is started by `sh -c` (as `exec COMMAND` when the command is a simple one, so
//! that the engine itself is our child and no shell holds its output open), in a process
//! group of its own, with `LGAME_ENGINE_ID` in its environment. When it is done with,
//! crashed or too slow, its process group is killed and, on Linux, so is every process that
//! carries its `LGAME_ENGINE_ID` (which catches what left the group with `setsid`).
//! What it writes on its standard error is kept: its last lines for a crash's report, and
//! all of it (up to [`LOG_LIMIT`]) in a log file when one is asked for.

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use lgame::game::DrawRules;
use lgame::{Game, Move, Rules};

use crate::protocol::{
    declares, position_command, printable, rules_command, rules_text, Command, GoClock, Reply,
    FEATURE_CLOCK,
};

/// Extra time allowed past the move time, for the pipes and the process to answer.
pub const SLACK: Duration = Duration::from_millis(250);

/// The most of an engine's standard error kept in its log file.
pub const LOG_LIMIT: u64 = 1 << 20;

/// The environment variable that marks an engine's processes.
pub const ENGINE_ID_VAR: &str = "LGAME_ENGINE_ID";

/// How many of the last lines of standard error a crash report quotes, and how long each
/// may be (in characters, after escaping).
const TAIL_LINES: usize = 3;
const TAIL_WIDTH: usize = 200;

/// The longest line read from an engine; the rest of a longer line is dropped.
const LINE_LIMIT: usize = 64 * 1024;

/// How often a wait for a reply looks whether the engine is still running.
const POLL: Duration = Duration::from_millis(50);

/// How an engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The command could not be started.
    Start(String),
    /// The engine ended (or closed its output) while it was expected to answer; how it
    /// ended and the last lines of its standard error.
    Crashed(String),
    /// No answer in time.
    Timeout {
        /// The reply that did not come: `lgpok`, `readyok`, `bestmove`.
        awaited: &'static str,
        /// The command it answers: `lgp`, `isready`, `go movetime 1000`.
        after: String,
        /// The time it had.
        allowed: Duration,
    },
    /// A line that is not part of the protocol, or not the expected reply.
    Malformed(String),
    /// The engine answered `error …`.
    Refused(String),
    /// The engine's `variants` line does not include these rules, so they are not sent.
    Unsupported {
        /// The rules, as [`crate::protocol::rules_text`] writes them.
        rules: String,
        /// The engine's `variants` line, or `None` when it sent none.
        declared: Option<String>,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "could not start: {e}"),
            Failure::Crashed(e) => write!(f, "crashed: {e}"),
            Failure::Timeout {
                awaited,
                after,
                allowed,
            } => write!(
                f,
                "timeout: no {awaited} within {} ms after {after}",
                allowed.as_millis()
            ),
            Failure::Malformed(e) => write!(f, "malformed output: {e}"),
            Failure::Refused(e) => write!(f, "engine error: {e}"),
            Failure::Unsupported {
                rules,
                declared: Some(line),
            } => write!(
                f,
                "the engine does not declare the rules '{rules}' ('{line}')"
            ),
            Failure::Unsupported {
                rules,
                declared: None,
            } => write!(
                f,
                "the engine does not declare the rules '{rules}' (it sent no variants line, \
                 which means classic only)"
            ),
        }
    }
}

impl std::error::Error for Failure {}

/// The end of an engine's standard error, filled by a thread of its own.
#[derive(Default)]
struct Tail {
    lines: VecDeque<String>,
    closed: bool,
}

/// A running engine.
pub struct External {
    name: String,
    variants: Option<Vec<String>>,
    /// The extensions it declared (`features`).
    features: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines from the engine's standard output, escaped by [`printable`]; disconnected at
    /// its end.
    lines: Receiver<String>,
    stderr: Arc<(Mutex<Tail>, Condvar)>,
    /// The mark of the engine's processes, killed by it on Linux.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    id: String,
    killed: bool,
}

impl External {
    /// Starts `command` (run by `sh -c`) and completes the handshake within `timeout`.
    ///
    /// # Errors
    /// A [`Failure`] when the engine does not start or answer the handshake.
    pub fn start(command: &str, timeout: Duration) -> Result<External, Failure> {
        External::start_with(command, timeout, None)
    }

    /// As [`External::start`], writing what the engine writes on its standard error to
    /// `stderr_log` (created, or emptied), up to [`LOG_LIMIT`] bytes.
    ///
    /// # Errors
    /// A [`Failure`] when the log cannot be created or the engine does not start or answer
    /// the handshake.
    pub fn start_with(
        command: &str,
        timeout: Duration,
        stderr_log: Option<&Path>,
    ) -> Result<External, Failure> {
        static ENGINES: AtomicU64 = AtomicU64::new(0);
        let log = stderr_log
            .map(File::create)
            .transpose()
            .map_err(|e| Failure::Start(format!("the log of its standard error: {e}")))?;
        let id = format!(
            "{}-{}",
            std::process::id(),
            ENGINES.fetch_add(1, Ordering::Relaxed)
        );
        let mut process = Process::new("sh");
        process
            .arg("-c")
            .arg(shell_line(command))
            .env(ENGINE_ID_VAR, &id)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        let mut child = process
            .spawn()
            .map_err(|e| Failure::Start(format!("{command}: {e}")))?;
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(bytes)) = read_line(&mut reader) {
                if sender.send(printable(bytes.trim_ascii())).is_err() {
                    return;
                }
            }
        });
        let tail = Arc::new((Mutex::new(Tail::default()), Condvar::new()));
        let filled = tail.clone();
        thread::spawn(move || keep_stderr(stderr, log, &filled));
        let mut engine = External {
            name: command.to_string(),
            variants: None,
            features: Vec::new(),
            child,
            stdin,
            lines,
            stderr: tail,
            id,
            killed: false,
        };
        engine.handshake(timeout)?;
        Ok(engine)
    }

    /// `lgp`, then `id`, `variants` and `info` lines until `lgpok`.
    fn handshake(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send(&Command::Lgp)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline, "lgpok", "lgp", timeout)? {
                Ok(Reply::LgpOk) => return Ok(()),
                Ok(Reply::Name(name)) => self.name = name,
                Ok(Reply::Author(_) | Reply::Info(_)) => {}
                Ok(Reply::Variants(variants)) => self.variants = Some(variants),
                Ok(Reply::Features(features)) => self.features = features,
                Ok(Reply::Error(e)) => return Err(Failure::Refused(e)),
                Ok(other) => return Err(unexpected(&other.to_string(), "before lgpok")),
                Err(line) => return Err(unexpected(&line, "before lgpok")),
            }
        }
    }

    /// The engine's name (from `id name`, else its command).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The entries of the engine's `variants` line (`["all"]` for `variants all`), or
    /// `None` when it sent none.
    pub fn variants(&self) -> Option<&[String]> {
        self.variants.as_deref()
    }

    /// Whether the engine declared that it takes both clocks in `go` (`features clock`).
    pub fn knows_clocks(&self) -> bool {
        self.features.iter().any(|f| f == FEATURE_CLOCK)
    }

    /// Whether the engine declared that it plays `rules` (see [`declares`]).
    pub fn plays(&self, rules: &Rules) -> bool {
        declares(self.variants(), rules)
    }

    /// Why the engine cannot be sent `rules`, if it cannot.
    pub fn check_plays(&self, rules: &Rules) -> Result<(), Failure> {
        if self.plays(rules) {
            return Ok(());
        }
        Err(Failure::Unsupported {
            rules: rules_text(rules),
            declared: self
                .variants
                .as_ref()
                .map(|v| Reply::Variants(v.clone()).to_string()),
        })
    }

    /// Starts a new game under `rules`, with no draw rules, and waits, up to `timeout`,
    /// until the engine is ready: [`External::new_game_with`] with [`DrawRules::NONE`].
    ///
    /// # Errors
    /// As [`External::new_game_with`].
    pub fn new_game(&mut self, rules: &Rules, timeout: Duration) -> Result<(), Failure> {
        self.new_game_with(rules, DrawRules::NONE, timeout)
    }

    /// Starts a new game: `newgame`, `rules`, `drawrules`, then `isready`, and waits up to
    /// `timeout` for `readyok`. Rules the engine did not declare are not sent.
    ///
    /// # Errors
    /// A [`Failure`] when the engine did not declare the rules, refuses them, sent a line
    /// nobody asked for, or does not get ready in time.
    pub fn new_game_with(
        &mut self,
        rules: &Rules,
        draw_rules: DrawRules,
        timeout: Duration,
    ) -> Result<(), Failure> {
        self.check_plays(rules)?;
        self.check_quiet()?;
        self.send(&Command::NewGame)?;
        self.send(&rules_command(rules))?;
        self.send(&Command::DrawRules(draw_rules.normalized()))?;
        self.ready(timeout, false)
    }

    /// Sends `isready` and waits up to `timeout` for `readyok`, taking only `info` lines on
    /// the way. After a `bestmove`, any other `bestmove` is the second one for that `go`.
    fn ready(&mut self, timeout: Duration, after_bestmove: bool) -> Result<(), Failure> {
        let context = if after_bestmove {
            "isready (sent after bestmove)"
        } else {
            "isready"
        };
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline, "readyok", context, timeout)? {
                Ok(Reply::ReadyOk) => return Ok(()),
                Ok(Reply::Info(_)) => {}
                Ok(Reply::Error(e)) => return Err(Failure::Refused(e)),
                Ok(reply @ Reply::BestMove(_)) if after_bestmove => {
                    return Err(Failure::Malformed(format!(
                        "a second bestmove for one go: '{reply}'"
                    )))
                }
                Ok(other) => return Err(unexpected(&other.to_string(), "instead of readyok")),
                Err(line) => return Err(unexpected(&line, "instead of readyok")),
            }
        }
    }

    /// The engine's move in a game that is not over, read as a move (its legality is the
    /// referee's to check), or why it gave none: a [`Failure`], `bestmove none`, or text
    /// that is not a move.
    ///
    /// # Errors
    /// The reason, as a forfeit states it.
    pub fn choose_move(&mut self, game: &Game, movetime: Duration) -> Result<Move, String> {
        let text = self
            .choose(game, movetime)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "bestmove none in a game that is not over".to_string())?;
        text.parse()
            .map_err(|e| format!("malformed move '{text}': {e}"))
    }

    /// Asks for a move in the game's position, allowing `movetime` (plus [`SLACK`]), then
    /// sends `isready` and waits as long again for `readyok`, so that anything the engine
    /// wrote after its `bestmove` (a second `bestmove`) is caught on this move. Returns the
    /// move text as the engine wrote it, escaped by [`printable`] (`None` for `bestmove
    /// none`); the referee checks it.
    ///
    /// # Errors
    /// A [`Failure`] for a crash, a timeout, an `error` reply or a line out of protocol,
    /// including one the engine wrote since it was last asked something.
    pub fn choose(&mut self, game: &Game, movetime: Duration) -> Result<Option<String>, Failure> {
        let go = Command::Go {
            movetime: Some(movetime.as_millis() as u64),
            clock: None,
        };
        self.ask(game, go, movetime)
    }

    /// As [`External::choose`], in a game with clocks: an engine that declared `features
    /// clock` is sent both (`go wtime … btime … winc … binc …`) and allowed the mover's time
    /// left; another is sent `go movetime` with [`GoClock::movetime_for`] (at most `cap`).
    ///
    /// # Errors
    /// As [`External::choose`].
    pub fn choose_timed(
        &mut self,
        game: &Game,
        clock: GoClock,
        cap: Duration,
    ) -> Result<Option<String>, Failure> {
        let red = game.position().turn() == lgame::Color::Red;
        let (go, allowed) = if self.knows_clocks() {
            let (left, _) = clock.of(red);
            let go = Command::Go {
                movetime: None,
                clock: Some(clock),
            };
            (go, Duration::from_millis(left))
        } else {
            let ms = clock.movetime_for(red, cap.as_millis() as u64);
            let go = Command::Go {
                movetime: Some(ms),
                clock: None,
            };
            (go, Duration::from_millis(ms))
        };
        self.ask(game, go, allowed)
    }

    /// Sends the game's position and `go`, and waits `movetime` plus [`SLACK`] for the
    /// `bestmove` and as long again for the `readyok` after it.
    fn ask(
        &mut self,
        game: &Game,
        go: Command,
        movetime: Duration,
    ) -> Result<Option<String>, Failure> {
        self.check_quiet()?;
        self.send(&position_command(game.start(), &game.moves()))?;
        self.send(&go)?;
        let allowed = movetime + SLACK;
        let deadline = Instant::now() + allowed;
        let after = go.to_string();
        let chosen = loop {
            match self.receive(deadline, "bestmove", &after, allowed)? {
                Ok(Reply::BestMove(mv)) => break mv,
                Ok(Reply::Info(_)) => {}
                Ok(Reply::Error(e)) => return Err(Failure::Refused(e)),
                Ok(other) => return Err(unexpected(&other.to_string(), "instead of bestmove")),
                Err(line) => return Err(unexpected(&line, "instead of bestmove")),
            }
        };
        self.ready(allowed, true)?;
        Ok(chosen)
    }

    /// Takes the lines the engine wrote since its last expected reply: `info` is fine,
    /// anything else is a failure, and so is an engine that has ended meanwhile.
    fn check_quiet(&mut self) -> Result<(), Failure> {
        loop {
            match self.lines.try_recv() {
                Ok(line) => match line.parse::<Reply>() {
                    _ if line.is_empty() => {}
                    Ok(Reply::Info(_)) => {}
                    Ok(Reply::BestMove(_)) => {
                        return Err(Failure::Malformed(format!(
                            "a second bestmove for one go: '{line}' (when no reply was \
                             expected)"
                        )))
                    }
                    _ => return Err(unexpected(&line, "when no reply was expected")),
                },
                Err(TryRecvError::Disconnected) => return Err(self.crash_report()),
                Err(TryRecvError::Empty) => {
                    if let Ok(Some(_)) = self.child.try_wait() {
                        return Err(self.crash_report());
                    }
                    return Ok(());
                }
            }
        }
    }

    fn send(&mut self, command: &Command) -> Result<(), Failure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Failure::Crashed("its input is closed".into()));
        };
        match writeln!(stdin, "{command}").and_then(|()| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.crash_report()),
        }
    }

    /// The next non-blank line, read as a reply (`Err(line)` for a line out of protocol),
    /// or the failure: a timeout at `deadline` (awaiting `awaited` after `after`), or a
    /// crash as soon as the engine's output ends or the engine itself exits.
    fn receive(
        &mut self,
        deadline: Instant,
        awaited: &'static str,
        after: &str,
        allowed: Duration,
    ) -> Result<Result<Reply, String>, Failure> {
        let mut exited = false;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Failure::Timeout {
                    awaited,
                    after: after.to_string(),
                    allowed,
                });
            }
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(line) if line.is_empty() => {}
                Ok(line) => return Ok(line.parse::<Reply>().map_err(|_| line)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.crash_report()),
                // The engine has exited but something it started still holds its output
                // open: what it wrote before it exited has been read by now.
                Err(RecvTimeoutError::Timeout) if exited => return Err(self.crash_report()),
                Err(RecvTimeoutError::Timeout) => {
                    exited = matches!(self.child.try_wait(), Ok(Some(_)));
                }
            }
        }
    }

    /// Describes how the engine ended (or that it closed its output), kills what is left of
    /// it, and quotes the last lines of its standard error.
    fn crash_report(&mut self) -> Failure {
        // Give an exiting process a moment to be reaped, so its status can be told.
        let mut how = "the engine closed its output".to_string();
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                how = format!("the engine exited ({status})");
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
        let tail = self.stderr_tail(Duration::from_millis(500));
        if tail.is_empty() {
            Failure::Crashed(how)
        } else {
            Failure::Crashed(format!("{how}; its stderr ends: {}", tail.join("\\n")))
        }
    }

    /// The last lines of the engine's standard error, once it is closed or `wait` is over.
    fn stderr_tail(&self, wait: Duration) -> Vec<String> {
        let (tail, closed) = &*self.stderr;
        let guard = tail.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = closed
            .wait_timeout_while(guard, wait, |t| !t.closed)
            .unwrap_or_else(|e| e.into_inner());
        guard.lines.iter().cloned().collect()
    }

    /// Asks the engine to quit, then makes sure none of its processes is left.
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
        #[cfg(target_os = "linux")]
        kill_marked(&self.id);
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The line given to `sh -c`: `exec COMMAND` for a simple command, so that the shell
/// becomes the engine, else the command as it is.
fn shell_line(command: &str) -> String {
    let first = command.split_whitespace().next().unwrap_or("");
    let compound = has_operator(command)
        || first.contains('=')
        || matches!(
            first,
            "if" | "while" | "until" | "for" | "case" | "{" | "!" | "exec"
        );
    if compound {
        command.to_string()
    } else {
        format!("exec {command}")
    }
}

/// Whether the shell would read an operator (`;`, `&`, `|`, a parenthesis or a line break)
/// in `command` outside quotes, making it more than one simple command.
fn has_operator(command: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in command.chars() {
        match c {
            _ if escaped => escaped = false,
            '\'' if !double => single = !single,
            _ if single => {}
            '\\' => escaped = true,
            '"' => double = !double,
            _ if double => {}
            ';' | '&' | '|' | '(' | ')' | '\n' => return true,
            _ => {}
        }
    }
    false
}

/// Reads a line (without its `\n`), keeping at most [`LINE_LIMIT`] bytes of it; `None` at
/// the end of the input.
fn read_line(reader: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (chunk, used, end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], i + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = LINE_LIMIT.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if end {
            return Ok(Some(line));
        }
    }
}

/// Reads the engine's standard error to its end: into `log` (up to [`LOG_LIMIT`] bytes) and
/// its last lines, escaped and cut to [`TAIL_WIDTH`], into `tail`.
fn keep_stderr(stderr: impl Read, mut log: Option<File>, tail: &(Mutex<Tail>, Condvar)) {
    let mut reader = BufReader::new(stderr);
    let mut logged = 0;
    while let Ok(Some(bytes)) = read_line(&mut reader) {
        if let Some(file) = &mut log {
            let keep = (LOG_LIMIT - logged).min(bytes.len() as u64 + 1) as usize;
            let mut line = bytes.clone();
            line.push(b'\n');
            if file.write_all(&line[..keep]).is_err() || keep < line.len() {
                let _ = writeln!(file, "\n[lgame: the log stops here, at {LOG_LIMIT} bytes]");
                log = None;
            }
            logged += keep as u64;
        }
        let text = printable(bytes.trim_ascii_end());
        let text = match text.char_indices().nth(TAIL_WIDTH) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        };
        let mut kept = tail.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.lines.push_back(text);
        if kept.lines.len() > TAIL_LINES {
            kept.lines.pop_front();
        }
    }
    tail.0.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
    tail.1.notify_all();
}

/// A failure for a line that is not what was expected at this point.
fn unexpected(line: &str, when: &str) -> Failure {
    match line.parse::<Reply>() {
        Ok(_) => Failure::Malformed(format!("'{line}' ({when})")),
        Err(e) => Failure::Malformed(format!("{e} ({when})")),
    }
}

/// Kills every process that carries the engine's `LGAME_ENGINE_ID` (what escaped its
/// process group), again until none is left (one may have forked meanwhile).
#[cfg(target_os = "linux")]
fn kill_marked(id: &str) {
    let marker = format!("{ENGINE_ID_VAR}={id}");
    let me = std::process::id();
    for _ in 0..10 {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        let marked: Vec<i32> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&pid| pid as u32 != me)
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == marker.as_bytes()))
            })
            .collect();
        if marked.is_empty() {
            return;
        }
        for pid in marked {
            // SAFETY: kill(2) on a process id touches no memory.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands_are_execed_and_compound_ones_left_alone() {
        assert_eq!(shell_line("python3 engine.py"), "exec python3 engine.py");
        assert_eq!(
            shell_line("'/a b/lgame' engine --seed 3"),
            "exec '/a b/lgame' engine --seed 3"
        );
        assert_eq!(
            shell_line("sh -c 'exec 1>&-; sleep 30'"),
            "exec sh -c 'exec 1>&-; sleep 30'"
        );
        assert_eq!(
            shell_line(r#"python3 -c "import e; e.main()" a\;b"#),
            r#"exec python3 -c "import e; e.main()" a\;b"#
        );
        for compound in [
            "cd x && ./engine",
            "sh -c 'x' ; ./engine",
            r#"echo "a\"b"; ./engine"#,
            "./engine; echo done",
            "./engine 2>&1",
            "A=1 ./engine",
            "exec ./engine",
            "if true; then ./engine; fi",
        ] {
            assert_eq!(shell_line(compound), compound);
        }
    }

    #[test]
    fn long_lines_are_cut_and_the_last_line_needs_no_newline() {
        let mut input = vec![b'x'; LINE_LIMIT + 10];
        input.extend_from_slice(b"\nlast");
        let mut reader = BufReader::new(&input[..]);
        assert_eq!(read_line(&mut reader).unwrap().unwrap().len(), LINE_LIMIT);
        assert_eq!(read_line(&mut reader).unwrap().unwrap(), b"last");
        assert_eq!(read_line(&mut reader).unwrap(), None);
    }
}
