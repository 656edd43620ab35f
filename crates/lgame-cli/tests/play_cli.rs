//! `lgame play` line by line over pipes: a whole game against the computer, bad input that
//! never ends the game, saving and loading; and under tmux the full-screen game
//! in a real terminal.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use lgame::{Move, Position, Record, Rules};
use lgame_test_support::{Lgame, Reader, TempDir};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// A running `lgame play`, read up to each prompt.
struct Session {
    child: Child,
    stdin: ChildStdin,
    output: Reader,
    seen: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = LGAME
            .command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lgame runs");
        let stdin = child.stdin.take().unwrap();
        let output = Reader::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            output,
            seen: String::new(),
        }
    }

    /// Everything printed up to the next prompt (a line ending in "> ").
    fn until_prompt(&mut self) -> String {
        let chunk = self
            .output
            .until("> ", Duration::from_secs(30))
            .unwrap_or_else(|so_far| panic!("no prompt; so far:\n{so_far}"));
        self.seen.push_str(&chunk);
        chunk
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn finish(mut self) -> (String, String) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status}");
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(!err.contains("panicked"), "{err}");
        (self.seen, err)
    }
}

/// The last position printed.
fn last_position(text: &str) -> Position {
    let line = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("Position: "))
        .expect("a position line");
    Position::from_text(line, &Rules::classic()).unwrap()
}

#[test]
fn plain_game_against_the_computer_to_the_end() {
    let mut s = Session::start(&["play", "--plain", "--blue", "perfect", "--seed", "3"]);
    let mut chunk = s.until_prompt();
    let mut moves = 0;
    while !chunk.ends_with("game over (undo, save, quit)> ") {
        assert!(chunk.ends_with("Red> "), "{chunk}");
        let p = last_position(&chunk);
        // Red plays its first legal move every time; the perfect player punishes it.
        let mv = p.legal_moves()[0];
        s.send(&mv.to_string());
        chunk = s.until_prompt();
        moves += 1;
        assert!(moves < 100, "the game ends");
    }
    assert!(chunk.contains("Game over: Blue wins"), "{chunk}");
    assert!(s.seen.contains("Blue (computer: perfect) plays"));
    s.send("quit");
    s.finish();
}

#[test]
fn plain_bad_input_gets_the_reason_and_a_new_prompt() {
    let mut s = Session::start(&["play", "--plain", "--red", "human", "--blue", "human"]);
    s.until_prompt();
    s.send("hello");
    let reply = s.until_prompt();
    assert!(reply.contains("'hello' is not a cell name"), "{reply}");
    assert!(reply.ends_with("Red> "));
    s.send("A1,A2,A3,B1");
    let reply = s.until_prompt();
    assert!(
        reply.contains("Illegal: the L cannot go on B1: it is occupied by Blue's L"),
        "{reply}"
    );
    s.send("A1,A2,A3,B3 D1-D1");
    let reply = s.until_prompt();
    assert!(
        reply.contains("moves a neutral onto its own cell"),
        "{reply}"
    );
    s.send("");
    s.send("A1,A2,A3,B3 D1-D2");
    s.until_prompt();
    let reply = s.until_prompt();
    assert!(reply.ends_with("Blue> "), "the game goes on: {reply}");
    assert_eq!(last_position(&reply).to_string(), "N.../RRB./R.BN/RBB. b");
    s.send("quit");
    s.finish();
}

#[test]
fn plain_is_used_when_standard_input_is_not_a_terminal() {
    let mut s = Session::start(&["play", "--blue", "human"]);
    let first = s.until_prompt();
    assert!(first.contains("Position: NRR./.RB./.RB./.BBN r"), "{first}");
    s.send("quit");
    s.finish();
}

#[test]
fn plain_save_writes_a_record_that_load_continues() {
    let dir = TempDir::new("play-save");
    let file = dir.join("game.txt");
    let mut s = Session::start(&["play", "--plain", "--blue", "random", "--seed", "9"]);
    s.until_prompt();
    s.send("A1,A2,A3,B3 D1-D2");
    let after = s.until_prompt();
    let position = last_position(&after);
    s.send(&format!("save {}", file.display()));
    let saved = s.until_prompt();
    assert!(saved.contains("Saved to"), "{saved}");
    s.send("quit");
    s.finish();
    let record: Record = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    assert_eq!(record.moves.len(), 2);
    assert_eq!(*record.replay().unwrap().position(), position);
    let judged = LGAME
        .command()
        .args(["judge", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        judged.status.success(),
        "{}",
        String::from_utf8_lossy(&judged.stdout)
    );

    let mut s = Session::start(&[
        "play",
        "--plain",
        "--load",
        file.to_str().unwrap(),
        "--blue",
        "human",
    ]);
    let first = s.until_prompt();
    assert_eq!(last_position(&first), position);
    s.send("undo");
    let undone = s.until_prompt();
    assert!(undone.contains("Took back 1 move"), "{undone}");
    s.send("quit");
    s.finish();
}

#[test]
fn plain_hint_shows_the_value_and_the_best_moves() {
    let mut s = Session::start(&["play", "--plain", "--blue", "human"]);
    s.until_prompt();
    s.send("hint");
    let hint = s.until_prompt();
    assert!(
        hint.contains("Value for the player to move: draw"),
        "{hint}"
    );
    let first: Move = hint
        .lines()
        .nth(1)
        .and_then(|l| l.trim().split("  ").next())
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(Rules::classic().start_position().is_legal(&first));
    s.send("quit");
    s.finish();
}

#[test]
fn plain_computer_against_computer_plays_to_the_end() {
    let out = LGAME
        .command()
        .args([
            "play", "--plain", "--red", "perfect", "--blue", "random", "--seed", "4",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("Game over: Red wins"), "{text}");
}

#[test]
fn bad_players_and_setups_exit_2_naming_them() {
    for (args, needle) in [
        (vec!["play", "--blue", "genius"], "--blue 'genius'"),
        (vec!["play", "--setup", "nowhere"], "--setup 'nowhere'"),
        (
            vec!["play", "--load", "/nonexistent/game.txt"],
            "/nonexistent/game.txt",
        ),
    ] {
        let out = LGAME
            .command()
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn plain_load_keeps_the_saved_games_players_unless_told_otherwise() {
    let dir = TempDir::new("play-load-seats");
    let file = dir.join("game.txt");
    let mut s = Session::start(&["play", "--plain", "--blue", "beginner:40", "--seed", "9"]);
    s.until_prompt();
    s.send("A1,A2,A3,B3 D1-D2");
    s.until_prompt();
    s.send(&format!("save {}", file.display()));
    let saved = s.until_prompt();
    let full_path = std::fs::canonicalize(&file).unwrap();
    assert!(
        saved.contains(&format!("Saved to {}.", full_path.display())),
        "the full path is said: {saved}"
    );
    s.send("quit");
    s.finish();
    let record: Record = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    assert_eq!(record.tag("Red"), Some("human"));
    assert_eq!(record.tag("Blue"), Some("beginner:40"));

    let load = |extra: &[&str]| {
        let mut args = vec!["play", "--plain", "--load", file.to_str().unwrap()];
        args.extend(extra);
        let mut s = Session::start(&args);
        let first = s.until_prompt();
        s.send("quit");
        s.finish();
        first.lines().next().unwrap().to_string()
    };
    let kept = load(&[]);
    assert!(
        kept.contains("Red: human, Blue: computer: beginner:40"),
        "{kept}"
    );
    let changed = load(&["--blue", "level:perfect"]);
    assert!(
        changed.contains("Red: human, Blue: computer: perfect"),
        "{changed}"
    );
}

#[test]
fn load_never_runs_an_engine_command_named_in_the_record() {
    let dir = TempDir::new("play-load-engine");
    let marker = dir.join("ran");
    let file = dir.join("game.txt");
    let record = format!(
        "[Red \"human\"]\n[Blue \"touch {}\"]\n\n1. A1,A2,A3,B3 D1-D2\n*\n",
        marker.display()
    );
    std::fs::write(&file, record).unwrap();
    let out = LGAME
        .command()
        .args(["play", "--plain", "--load", file.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!marker.exists(), "the record's command was run");
    assert!(err.contains("is not run from a file: give --blue"), "{err}");
    let first = String::from_utf8_lossy(&out.stdout);
    assert!(
        first.contains("Blue: computer: intermediate"),
        "the default player sits instead: {first}"
    );
}

#[test]
fn every_form_of_a_players_name_plays_in_play() {
    let engine = format!("{} engine --level random --seed 3", LGAME.path());
    for (blue, shown) in [
        ("perfect", "computer: perfect".to_string()),
        ("level:perfect", "computer: perfect".to_string()),
        ("beginner:40", "computer: beginner:40".to_string()),
        ("level:beginner:40", "computer: beginner:40".to_string()),
        (engine.as_str(), format!("engine: {engine}")),
    ] {
        let out = LGAME
            .command()
            .args([
                "play",
                "--plain",
                "--red",
                "random",
                "--blue",
                blue,
                "--turn-limit",
                "6",
            ])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{blue}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(&format!("Blue ({shown}) plays ")),
            "{blue}: {text}"
        );
        assert!(text.contains("Game over"), "{blue}: {text}");
    }
}

#[test]
fn an_engine_that_cannot_start_is_an_error_naming_it_and_showing_its_stderr() {
    for (blue, needles) in [
        (
            "/nonexistent/lgame-engine --fast",
            vec!["/nonexistent/lgame-engine"],
        ),
        (
            "echo the weights file $((40 + 2)) is missing >&2; exit 3",
            vec!["echo the weights", "the weights file 42 is missing"],
        ),
    ] {
        let out = LGAME
            .command()
            .args(["play", "--plain", "--blue", blue])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{blue}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{blue}: {needle:?} in {err}");
        }
        assert!(
            out.stdout.is_empty(),
            "no board is drawn: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// tmux, which the real-terminal test needs: `cargo xtask test` installs it, and its absence
/// is a failure, never a quiet skip.
fn tmux() -> &'static str {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "tmux is needed for the real-terminal test: run the tests with `cargo xtask test`, \
         which installs it, or install Debian's package tmux"
    );
    "tmux"
}

/// The text of the tmux pane, once it contains every one of `needles` (or after 20 s).
/// Waiting for all of them, not the first, matters: a capture can fall in the middle of a
/// redraw, with the title drawn and the board not yet.
fn pane_with(session: &str, needles: &[&str]) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", session])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let complete = needles.iter().all(|needle| text.contains(needle));
        if complete || Instant::now() > deadline {
            return text;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn full_screen_game_in_a_real_terminal_shows_the_board_and_the_computers_reply() {
    let tmux = tmux();
    let session = format!("lgame-test-{}", std::process::id());
    let command = format!("{} play --blue perfect --seed 2", LGAME.path());
    let started = Command::new(tmux)
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "100",
            "-y",
            "35",
            &command,
        ])
        .status()
        .unwrap();
    assert!(started.success());
    let send = |keys: &[&str]| {
        let mut args = vec!["send-keys", "-t", session.as_str()];
        args.extend_from_slice(keys);
        assert!(Command::new(tmux).args(&args).status().unwrap().success());
    };
    let board_edge = "A      B      C      D";
    let start = pane_with(&session, &["Red to move", "Red: human", board_edge]);
    assert!(start.contains("Red: human"), "{start}");
    assert!(
        start.contains(board_edge),
        "the board with its edges:\n{start}"
    );
    // Type Red's first move in notation, then wait for the computer's reply.
    send(&["m"]);
    send(&["A1,A2,A3,B3 D1-D2", "Enter"]);
    let after = pane_with(&session, &["Last move: Blue", "Move 3: Red"]);
    let _ = Command::new(tmux)
        .args(["kill-session", "-t", &session])
        .status();
    assert!(
        after.contains("Last move: Blue"),
        "the computer replied:\n{after}"
    );
    assert!(after.contains("Move 3: Red"), "{after}");
}
