//! Running the `lgame` binary in tests: shared by the command-line test files.
// Each test file uses some of these helpers, none uses all.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `lgame` with `args` (no standard input) and returns what it did.
pub fn lgame<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    Command::new(env!("CARGO_BIN_EXE_lgame"))
        .args(args.into_iter().map(Into::into))
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .expect("the lgame binary runs")
}

/// Runs `lgame args` with `input` on standard input.
pub fn lgame_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lgame"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lgame binary runs");
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(input)
        .expect("lgame reads its input");
    child.wait_with_output().expect("lgame finishes")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a command that must succeed and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = lgame(args);
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
pub fn fails(args: &[&str], code: i32) -> String {
    let out = lgame(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "lgame {args:?}: {err}");
    assert!(!err.contains("panicked"), "lgame {args:?} panicked: {err}");
    assert!(err.starts_with("error: "), "lgame {args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "lgame {args:?} printed {}",
        stdout(&out)
    );
    err
}

/// The lines a child process writes on `output`, read by a thread of their own so that a test
/// can wait for the next one with a time limit (`recv_timeout`); the channel closes at the
/// output's end.
pub fn lines_of(output: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(output)
            .lines()
            .map_while(Result::ok)
        {
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    lines
}
