//! `lgame engine` and `lgame match` end to end: the engine protocol spoken over real pipes,
//! matches between built-in levels, against `lgame engine` itself, the Python example engine
//! and broken engines, their JSON and text reports, their records (every one of which
//! `lgame judge` reads), and that no engine process is left behind.

use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::thread;
use std::time::{Duration, Instant};

use lgame::{Move, Position, Rules};
use lgame_test_support::{failure, lines_of, stderr, stdout, Lgame, Reader, TempDir};
use serde_json::Value;

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));
const STANDARD: &str = "NRR./.RB./.RB./.BBN r";
/// The kit's setup, Red to move.
const KIT: &str = "..BB/R.NB/RN.B/RR.. r";
/// The kit example (notation.md), then Blue's reply that traps Red.
const KIT_EXAMPLE: &str = "A2,A3,A4,B4 B2-A1";
const KIT_TRAP: &str = "B2,B3,C2,D2 C3-C4";
/// Where KIT_EXAMPLE and KIT_TRAP lead: Red to move and trapped.
const TRAPPED: &str = "RRN./RB../RBBB/N... r";
/// How long any one reply of an engine may take before the test gives up.
const REPLY_TIMEOUT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// Runs `lgame ARGS` in `dir` (so a forgotten `--records` would land there) with no input.
fn lgame_in(dir: &Path, args: &[&str]) -> Output {
    let out = LGAME
        .command()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the lgame binary runs");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "lgame {args:?} panicked: {err}");
    assert!(
        !stdout(&out).contains("panicked"),
        "lgame {args:?} panicked: {}",
        stdout(&out)
    );
    out
}

/// Runs a command that must fail with exit 2; returns its stderr, checked to be one
/// `error: ` message with nothing on stdout.
fn fails_with_2(dir: &Path, args: &[&str]) -> String {
    failure(&lgame_in(dir, args), args, 2)
}

/// Runs `lgame match ARGS` in `dir`; then, when ARGS have `--records DIR`, judges every
/// record in DIR with `lgame judge` (each must be valid, its result agreeing with the moves).
/// Every match of these tests runs through here.
fn lgame_match(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    let out = lgame_in(dir, &all);
    if let Some(i) = args.iter().position(|&a| a == "--records") {
        judge_every_record(dir, &dir.join(args[i + 1]));
    }
    out
}

/// Judges every `*.txt` in `records` (which may not exist) with `lgame judge`; returns how
/// many there were.
fn judge_every_record(dir: &Path, records: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(records) else {
        return 0;
    };
    let mut judged = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            judged_result(dir, path.to_str().expect("a UTF-8 path"));
            judged += 1;
        }
    }
    judged
}

/// Runs `lgame match --json ARGS` (which must succeed, silently on stderr) and returns the
/// report.
fn match_json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = lgame_match(dir, &all);
    assert!(
        out.status.success(),
        "lgame {all:?} failed: {}",
        stderr(&out)
    );
    assert!(
        out.stderr.is_empty(),
        "lgame {all:?} wrote to stderr with --json: {}",
        stderr(&out)
    );
    serde_json::from_str(&stdout(&out)).expect("match --json prints JSON")
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn sorted(mut keys: Vec<&str>) -> Vec<&str> {
    keys.sort_unstable();
    keys
}

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is a string in {value}"))
}

fn u64_of(value: &Value, key: &str) -> u64 {
    value[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is a number in {value}"))
}

/// The index of the winning colour's slot (0 Red, 1 Blue) of a result token, None for a draw.
fn winner_slot(result: &str) -> Option<usize> {
    match result {
        "1-0" => Some(0),
        "0-1" => Some(1),
        "1/2-1/2" => None,
        other => panic!("unexpected result token {other}"),
    }
}

/// Judges a record file with `lgame judge --json`: it must be valid (exit 0), and its result
/// is returned.
fn judged_result(dir: &Path, record: &str) -> String {
    let out = lgame_in(dir, &["judge", "--json", record]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "judge {record}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    let judgement: Value = serde_json::from_str(&stdout(&out)).expect("judge --json is JSON");
    assert_eq!(judgement["valid"], true, "{judgement}");
    assert_eq!(judgement["result_agrees"], true, "{judgement}");
    str_of(&judgement, "result").to_string()
}

/// The command lines of running processes that mention `needle`, after giving killed
/// processes up to two seconds to go.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let out = Command::new("ps")
            .args(["-eo", "args"])
            .output()
            .expect("ps runs");
        let found: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|line| line.contains(needle))
            .map(str::to_string)
            .collect();
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// A running `lgame engine`, spoken to over pipes, one line at a time.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Reader,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = LGAME
            .command()
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lgame engine starts");
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        let replies = lines_of(stdout);
        Session {
            child,
            stdin,
            replies,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the engine's input is open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
    }

    /// The next line the engine writes.
    fn reply(&mut self) -> String {
        match self.replies.recv_timeout(REPLY_TIMEOUT) {
            Ok(line) => {
                assert!(!line.contains("panicked"), "the engine panicked: {line}");
                line
            }
            Err(RecvTimeoutError::Timeout) => panic!("no reply within {REPLY_TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "the engine closed its output (status {:?})",
                self.child.try_wait()
            ),
        }
    }

    /// Sends a line and returns the one line it is answered with.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    /// The move of a `bestmove MOVE` reply to `go movetime MS`, checked to be legal in
    /// `position`.
    fn best_move(&mut self, position: &Position) -> Move {
        let reply = self.ask("go movetime 500");
        let text = reply
            .strip_prefix("bestmove ")
            .unwrap_or_else(|| panic!("expected bestmove, got '{reply}'"));
        let mv: Move = text
            .parse()
            .unwrap_or_else(|e| panic!("bestmove '{text}' is not a move: {e}"));
        assert!(
            position.is_legal(&mv),
            "bestmove '{text}' is illegal in {position}"
        );
        mv
    }

    /// The handshake's lines, checked to be in order and ended by `lgpok`; returns the name.
    fn handshake(&mut self) -> String {
        self.send("lgp");
        let name = self.reply();
        let name = name
            .strip_prefix("id name ")
            .unwrap_or_else(|| panic!("expected id name, got '{name}'"))
            .to_string();
        assert_eq!(self.reply(), "id author the lgame authors");
        assert_eq!(self.reply(), "variants all");
        // Its players move at once: it takes both clocks (the protocol's "Clocks").
        assert_eq!(self.reply(), "features clock");
        assert_eq!(self.reply(), "lgpok");
        name
    }

    /// Waits for the process to end by itself, checking it writes nothing more.
    fn wait_for_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the engine can be waited for") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not end within {REPLY_TIMEOUT:?}"
            );
            thread::sleep(Duration::from_millis(10));
        };
        match self.replies.recv_timeout(REPLY_TIMEOUT) {
            Err(RecvTimeoutError::Disconnected) => {}
            other => panic!("after ending, the engine still wrote {other:?}"),
        }
        let mut err = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut pipe, &mut err);
        }
        assert!(err.is_empty(), "the engine wrote to stderr: {err}");
        status
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn classic(text: &str) -> Position {
    Position::from_text(text, &Rules::classic()).expect("a classic position")
}

// ---------------------------------------------------------------------------------------
// lgame engine
// ---------------------------------------------------------------------------------------

#[test]
fn engine_handshake_names_the_level_and_isready_answers_readyok() {
    for (args, name) in [
        (&[][..], "lgame perfect"),
        (&["--level", "random"][..], "lgame random"),
        (&["--level", "Intermediate"][..], "lgame intermediate"),
        (
            &["--level", "beginner", "--strength", "40", "--seed", "3"][..],
            "lgame beginner:40",
        ),
    ] {
        let mut engine = Session::start(args);
        assert_eq!(engine.handshake(), name, "lgame engine {args:?}");
        assert_eq!(engine.ask("isready"), "readyok");
        assert_eq!(engine.ask("isready"), "readyok", "isready twice");
        engine.send("quit");
        assert!(engine.wait_for_exit().success());
    }
}

#[test]
fn engine_bestmove_from_standard_setup_is_a_legal_move() {
    let start = classic(STANDARD);
    for level in ["perfect", "random", "beginner", "intermediate"] {
        let mut engine = Session::start(&["--level", level]);
        engine.handshake();
        engine.send("newgame");
        engine.send("rules classic");
        assert_eq!(engine.ask("isready"), "readyok");
        engine.send(&format!("position {STANDARD}"));
        let mv = engine.best_move(&start);
        assert!(start.legal_moves().contains(&mv), "{level}: {mv}");
        // The same position in the cell-list form gets a legal move too.
        engine.send("position R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,D1 r");
        engine.best_move(&start);
    }
}

#[test]
fn engine_bestmove_after_a_moves_list_is_legal_in_the_resulting_position() {
    let start = classic(STANDARD);
    let first = start.legal_moves()[0];
    let after_first = start.play(&first).unwrap();
    let second = *after_first.legal_moves().last().unwrap();
    let after_second = after_first.play(&second).unwrap();
    assert_eq!(after_second.turn(), start.turn());
    for level in ["perfect", "random"] {
        let mut engine = Session::start(&["--level", level]);
        engine.handshake();
        engine.send("rules classic");
        assert_eq!(engine.ask("isready"), "readyok");
        engine.send(&format!("position {STANDARD} moves {first}; {second}"));
        let mv = engine.best_move(&after_second);
        // One move: Blue is to move.
        engine.send(&format!("position {STANDARD} moves {first}"));
        let blue = engine.best_move(&after_first);
        assert_ne!(after_first.turn(), start.turn());
        assert!(after_first.legal_moves().contains(&blue), "{level}: {blue}");
        assert!(after_second.legal_moves().contains(&mv), "{level}: {mv}");
    }
}

#[test]
fn engine_perfect_traps_the_opponent_when_it_can() {
    let kit = classic(KIT);
    let after = kit.play(&KIT_EXAMPLE.parse().unwrap()).unwrap();
    let mut engine = Session::start(&["--level", "perfect"]);
    engine.handshake();
    assert_eq!(engine.ask("isready"), "readyok");
    engine.send(&format!("position {KIT} moves {KIT_EXAMPLE}"));
    let mv = engine.best_move(&after);
    let end = after.play(&mv).unwrap();
    assert!(
        end.is_trapped(),
        "perfect played {mv}, which does not trap Red ({end})"
    );
}

#[test]
fn engine_answers_bestmove_none_in_a_finished_position() {
    assert!(classic(TRAPPED).is_trapped());
    for level in ["perfect", "random"] {
        let mut engine = Session::start(&["--level", level]);
        engine.handshake();
        assert_eq!(engine.ask("isready"), "readyok");
        engine.send(&format!("position {TRAPPED}"));
        assert_eq!(engine.ask("go movetime 500"), "bestmove none", "{level}");
        engine.send(&format!("position {KIT} moves {KIT_EXAMPLE}; {KIT_TRAP}"));
        assert_eq!(engine.ask("go"), "bestmove none", "{level}");
        // A live position afterwards still gets a move.
        engine.send(&format!("position {STANDARD}"));
        engine.best_move(&classic(STANDARD));
    }
}

#[test]
fn engine_bad_lines_get_an_error_naming_the_problem_and_the_engine_goes_on() {
    let mut engine = Session::start(&[]);
    engine.handshake();
    assert_eq!(engine.ask("bogus"), "error 'bogus': unknown command");
    assert_eq!(engine.ask("isready"), "readyok", "still answering");

    let reply = engine.ask("rules misery");
    assert!(
        reply.starts_with("error rules 'misery': unknown rule option 'misery'"),
        "{reply}"
    );
    // The rules stay classic: the standard setup is still playable.
    engine.send(&format!("position {STANDARD}"));
    engine.best_move(&classic(STANDARD));

    let reply = engine.ask("position garbage");
    assert!(reply.starts_with("error position: "), "{reply}");
    assert!(reply.contains("rows"), "says what is wrong: {reply}");
    // A failed position forgets the last one.
    assert_eq!(engine.ask("go"), "error go before a position");

    let reply = engine.ask(&format!("position {STANDARD} moves A1,A2,A3,A4 D1-C4"));
    assert_eq!(
        reply,
        "error move 1 'A1,A2,A3,A4 D1-C4': A1,A2,A3,A4 is not an L shape"
    );
    assert_eq!(
        engine.ask("go movetime soon"),
        "error 'go movetime soon': expected go, go movetime MS or go wtime MS btime MS winc MS binc MS"
    );
    assert_eq!(
        engine.ask("rules"),
        "error 'rules': rules needs the rules text"
    );

    engine.send(&format!("position {STANDARD}"));
    engine.send("newgame");
    assert_eq!(engine.ask("go"), "error go before a position");

    // Blank lines and a trailing CR are ignored; the engine still plays.
    engine.send("");
    engine.send("   ");
    assert_eq!(engine.ask("isready\r"), "readyok");
    engine.send(&format!("position {STANDARD}\r"));
    engine.best_move(&classic(STANDARD));
    engine.send("quit");
    assert!(engine.wait_for_exit().success());
}

#[test]
fn engine_applies_the_draw_rules_it_is_sent() {
    let start = classic(STANDARD);
    let first = start.legal_moves()[0];
    let after_first = start.play(&first).unwrap();
    let second = after_first.legal_moves()[0];
    let mut engine = Session::start(&["--level", "random"]);
    engine.handshake();
    engine.send("drawrules turnlimit 2 repetition none");
    assert_eq!(engine.ask("isready"), "readyok");
    engine.send(&format!("position {STANDARD} moves {first}"));
    engine.best_move(&after_first);
    // Two plies played: drawn by the turn limit.
    engine.send(&format!("position {STANDARD} moves {first}; {second}"));
    assert_eq!(engine.ask("go"), "bestmove none");
    // A move past the draw is refused, with the rules library's words for the draw.
    let third = after_first.play(&second).unwrap().legal_moves()[0];
    let reply = engine.ask(&format!(
        "position {STANDARD} moves {first}; {second}; {third}"
    ));
    assert!(
        reply.starts_with(&format!("error move 3 '{third}': the game is over (")),
        "{reply}"
    );
    assert!(reply.contains("turn limit"), "{reply}");
    // newgame keeps them; new ones replace them.
    engine.send("newgame");
    engine.send(&format!("position {STANDARD} moves {first}; {second}"));
    assert_eq!(engine.ask("go"), "bestmove none");
    engine.send("drawrules turnlimit none repetition 3");
    engine.send(&format!("position {STANDARD} moves {first}; {second}"));
    engine.best_move(&after_first.play(&second).unwrap());
    assert_eq!(
        engine.ask("drawrules turnlimit 0 repetition 3"),
        "error 'drawrules turnlimit 0 repetition 3': expected drawrules turnlimit N|none \
         repetition N|none"
    );
    engine.send("quit");
    assert!(engine.wait_for_exit().success());
}

#[test]
fn engine_quit_ends_the_process_with_exit_0_while_input_is_open() {
    let mut engine = Session::start(&["--level", "random"]);
    engine.handshake();
    engine.send("quit");
    let status = engine.wait_for_exit();
    assert_eq!(status.code(), Some(0));
    // Its input was still open: quit alone ended it.
    assert!(engine.stdin.is_some());
}

#[test]
fn engine_end_of_input_ends_the_process_with_exit_0() {
    let mut engine = Session::start(&["--level", "perfect"]);
    engine.handshake();
    engine.send(&format!("position {STANDARD}"));
    engine.best_move(&classic(STANDARD));
    engine.stdin = None;
    assert_eq!(engine.wait_for_exit().code(), Some(0));

    // No input at all: nothing written, exit 0.
    let tmp = TempDir::new("engine-no-input");
    let out = lgame_in(tmp.path(), &["engine"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn engine_bad_level_or_strength_exits_2_naming_it() {
    let tmp = TempDir::new("engine-bad-args");
    let err = fails_with_2(tmp.path(), &["engine", "--level", "genius"]);
    assert!(
        err.contains("--level: unknown level 'genius'"),
        "names the level: {err}"
    );
    let err = fails_with_2(tmp.path(), &["engine", "--strength", "101"]);
    assert!(
        err.contains("--strength 101 is not a number from 0 to 100"),
        "names the strength: {err}"
    );
    let err = fails_with_2(tmp.path(), &["engine", "--strength", "300"]);
    assert!(err.contains("--strength"), "{err}");
    // The level is a name only; its strength goes in --strength.
    let err = fails_with_2(tmp.path(), &["engine", "--level", "beginner:40"]);
    assert!(err.contains("'beginner:40'"), "{err}");
    let err = fails_with_2(tmp.path(), &["engine", "--seed", "minus-one"]);
    assert!(err.contains("--seed"), "{err}");
}

/// Plays a fixed script of positions and `go`s through one engine session and returns every
/// bestmove, each checked legal.
fn random_engine_moves(seed: &str) -> Vec<String> {
    let start = classic(STANDARD);
    let first = start.legal_moves()[10];
    let after_first = start.play(&first).unwrap();
    let kit = classic(KIT);
    let mut engine = Session::start(&["--level", "random", "--seed", seed]);
    engine.handshake();
    assert_eq!(engine.ask("isready"), "readyok");
    let mut moves = Vec::new();
    for (command, position) in [
        (format!("position {STANDARD}"), &start),
        (format!("position {STANDARD} moves {first}"), &after_first),
        (format!("position {KIT}"), &kit),
    ] {
        engine.send(&command);
        for _ in 0..4 {
            moves.push(engine.best_move(position).to_string());
        }
    }
    engine.send("quit");
    assert!(engine.wait_for_exit().success());
    moves
}

#[test]
fn engine_random_level_with_the_same_seed_answers_the_same_moves() {
    let first = random_engine_moves("7");
    let second = random_engine_moves("7");
    assert_eq!(first, second);
    // The moves are the seed's: another seed plays otherwise somewhere in the script.
    assert_ne!(first, random_engine_moves("8"));
    // And the random level does vary its moves within a session.
    assert!(first[..4].iter().any(|m| m != &first[0]), "{first:?}");
}

// ---------------------------------------------------------------------------------------
// lgame match
// ---------------------------------------------------------------------------------------

const TOP_KEYS: [&str; 8] = [
    "variant",
    "games",
    "red_wins",
    "blue_wins",
    "draws",
    "forfeits",
    "results",
    "standings",
];
const GAME_KEYS: [&str; 8] = [
    "game", "red", "blue", "result", "ending", "plies", "record", "forfeit",
];
const STANDING_KEYS: [&str; 7] = [
    "player", "games", "wins", "losses", "draws", "points", "forfeits",
];

/// Checks the report's shape and that its totals add up; returns its results.
fn checked_results(report: &Value, games: u64) -> &Vec<Value> {
    assert_eq!(keys(report), sorted(TOP_KEYS.to_vec()), "{report}");
    assert_eq!(u64_of(report, "games"), games);
    let results = report["results"].as_array().expect("results is a list");
    assert_eq!(results.len() as u64, games);
    let (mut red, mut blue, mut draws, mut forfeits) = (0, 0, 0, 0);
    for (i, game) in results.iter().enumerate() {
        assert_eq!(keys(game), sorted(GAME_KEYS.to_vec()), "{game}");
        assert_eq!(u64_of(game, "game"), i as u64 + 1);
        match winner_slot(str_of(game, "result")) {
            Some(0) => red += 1,
            Some(_) => blue += 1,
            None => draws += 1,
        }
        if !game["forfeit"].is_null() {
            forfeits += 1;
            assert_eq!(str_of(game, "ending"), "forfeit", "{game}");
        }
    }
    assert_eq!(u64_of(report, "red_wins"), red);
    assert_eq!(u64_of(report, "blue_wins"), blue);
    assert_eq!(u64_of(report, "draws"), draws);
    assert_eq!(u64_of(report, "forfeits"), forfeits);
    let standings = report["standings"].as_array().expect("standings is a list");
    assert_eq!(standings.len(), 2);
    for s in standings {
        assert_eq!(keys(s), sorted(STANDING_KEYS.to_vec()), "{s}");
        assert_eq!(u64_of(s, "games"), games);
        assert_eq!(
            u64_of(s, "wins") + u64_of(s, "losses") + u64_of(s, "draws"),
            games
        );
        let points = s["points"].as_f64().unwrap();
        assert_eq!(
            points,
            u64_of(s, "wins") as f64 + 0.5 * u64_of(s, "draws") as f64
        );
    }
    results
}

#[test]
fn match_json_perfect_vs_random_alternates_colours_records_valid_games_and_perfect_never_loses() {
    let tmp = TempDir::new("match-json");
    let records = tmp.join("records");
    let report = match_json(
        tmp.path(),
        &[
            "--red",
            "level:perfect",
            "--blue",
            "level:random",
            "--games",
            "4",
            "--records",
            records.to_str().unwrap(),
        ],
    );
    assert_eq!(report["variant"], "classic");
    let results = checked_results(&report, 4);
    assert_eq!(u64_of(&report, "forfeits"), 0);

    // Colours alternate: perfect is Red in odd games, Blue in even ones.
    assert_eq!(results[0]["red"], "level:perfect");
    assert_eq!(results[0]["blue"], "level:random");
    assert_eq!(results[1]["red"], "level:random");
    assert_eq!(results[1]["blue"], "level:perfect");
    assert_eq!(results[2]["red"], "level:perfect");
    assert_eq!(results[3]["blue"], "level:perfect");

    let mut files: Vec<String> = std::fs::read_dir(&records)
        .expect("the records folder exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "game-001.txt",
            "game-002.txt",
            "game-003.txt",
            "game-004.txt"
        ]
    );
    for (i, game) in results.iter().enumerate() {
        assert!(game["forfeit"].is_null(), "{game}");
        let perfect_slot = i % 2;
        let result = str_of(game, "result");
        assert_ne!(
            winner_slot(result),
            Some(1 - perfect_slot),
            "perfect lost game {}: {game}",
            i + 1
        );
        assert!(u64_of(game, "plies") > 0);
        let record = str_of(game, "record");
        assert_eq!(
            Path::new(record),
            records.join(format!("game-{:03}.txt", i + 1))
        );
        assert_eq!(judged_result(tmp.path(), record), result);
        let text = std::fs::read_to_string(record).unwrap();
        assert!(text.contains(&format!("[Round \"{}\"]", i + 1)), "{text}");
        assert!(
            text.contains(&format!("[Red \"{}\"]", str_of(game, "red"))),
            "{text}"
        );
        assert!(
            text.contains(&format!("[Blue \"{}\"]", str_of(game, "blue"))),
            "{text}"
        );
        if str_of(game, "ending") == "trapped" {
            assert_ne!(result, "1/2-1/2");
        }
    }
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings[0]["player"], "level:perfect");
    assert_eq!(standings[1]["player"], "level:random");
    assert_eq!(u64_of(&standings[0], "losses"), 0);
    assert_eq!(
        u64_of(&standings[0], "wins"),
        u64_of(&standings[1], "losses")
    );
    assert_eq!(u64_of(&standings[0], "forfeits"), 0);
    assert_eq!(u64_of(&standings[1], "forfeits"), 0);

    // The same match with the same seed plays the same games.
    let again = match_json(
        tmp.path(),
        &[
            "--red",
            "level:perfect",
            "--blue",
            "level:random",
            "--games",
            "4",
            "--records",
            records.to_str().unwrap(),
        ],
    );
    assert_eq!(again, report);
    assert!(
        !tmp.join("match-records").exists(),
        "records went elsewhere"
    );
}

#[test]
fn match_against_lgame_engine_as_external_engine_completes_without_forfeits() {
    let tmp = TempDir::new("match-engine");
    let records = tmp.join("records");
    // A seed no other test uses, to find the engine's processes afterwards.
    let engine = format!("'{LGAME}' engine --level perfect --seed 90417");
    let report = match_json(
        tmp.path(),
        &[
            "--red",
            "level:random",
            "--blue",
            &engine,
            "--games",
            "2",
            "--time-per-move",
            "2000",
            "--records",
            records.to_str().unwrap(),
        ],
    );
    let results = checked_results(&report, 2);
    assert_eq!(u64_of(&report, "forfeits"), 0);
    // The engine's name from its handshake, with its command, where it played.
    let named = format!("lgame perfect ({engine})");
    assert_eq!(str_of(&results[0], "red"), "level:random");
    assert_eq!(str_of(&results[0], "blue"), named);
    assert_eq!(str_of(&results[1], "red"), named);
    assert_eq!(str_of(&results[1], "blue"), "level:random");
    for (i, game) in results.iter().enumerate() {
        assert!(game["forfeit"].is_null(), "{game}");
        let engine_slot = 1 - i % 2;
        let result = str_of(game, "result");
        assert_ne!(
            winner_slot(result),
            Some(1 - engine_slot),
            "the perfect engine lost: {game}"
        );
        assert_eq!(judged_result(tmp.path(), str_of(game, "record")), result);
        let text = std::fs::read_to_string(str_of(game, "record")).unwrap();
        assert!(text.contains("lgame perfect ("), "{text}");
    }
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings[1]["player"], engine.as_str());
    assert_eq!(u64_of(&standings[1], "losses"), 0);
    assert_eq!(u64_of(&standings[1], "forfeits"), 0);
    assert_eq!(processes_mentioning("--seed 90417"), Vec::<String>::new());
}

/// Writes `NAME.sh` in `dir`: an engine that runs `prelude` first, then completes the
/// handshake, answers `isready` with `on_isready` and `go` with `on_go`. Returns the command
/// line running it.
fn engine_script(
    dir: &TempDir,
    name: &str,
    prelude: &str,
    on_isready: &str,
    on_go: &str,
) -> String {
    let script = dir.join(&format!("{name}.sh"));
    std::fs::write(
        &script,
        format!(
            "{prelude}\nwhile read -r line; do\n  case \"$line\" in\n    lgp) echo \"id name {name}\"; \
             echo lgpok ;;\n    isready) {on_isready} ;;\n    go*) {on_go} ;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

/// An engine that follows the protocol until it is asked to move, and then does `on_go`.
fn broken_engine(dir: &TempDir, name: &str, on_go: &str) -> String {
    engine_script(dir, name, "", "echo readyok", on_go)
}

/// Plays two games between `command` (Red in game 1, Blue in game 2) and the random level,
/// with MS per move; checks both are forfeited by the engine for exactly `reason`, on its
/// first move, recorded with the reason and its stderr logged, and that no process
/// mentioning the test's folder is left. Returns the report and how long the match took.
fn engine_forfeits(
    tmp: &TempDir,
    command: &str,
    name: &str,
    ms: &str,
    reason: &str,
) -> (Value, Duration) {
    let records = tmp.join("records");
    let started = Instant::now();
    let report = match_json(
        tmp.path(),
        &[
            "--red",
            command,
            "--blue",
            "level:random",
            "--games",
            "2",
            "--time-per-move",
            ms,
            "--records",
            records.to_str().unwrap(),
        ],
    );
    let took = started.elapsed();
    let results = checked_results(&report, 2);
    assert_eq!(u64_of(&report, "forfeits"), 2);
    let player = format!("{name} ({command})");
    for (i, game) in results.iter().enumerate() {
        let (side, result) = if i == 0 {
            ("Red", "0-1")
        } else {
            ("Blue", "1-0")
        };
        assert_eq!(str_of(game, "result"), result, "{game}");
        assert_eq!(str_of(game, "ending"), "forfeit", "{game}");
        // The engine forfeits on its first move: at once as Red, after Red's move as Blue.
        assert_eq!(u64_of(game, "plies"), i as u64, "{game}");
        let forfeit = &game["forfeit"];
        assert_eq!(keys(forfeit), ["player", "reason", "side"]);
        assert_eq!(str_of(forfeit, "side"), side);
        assert_eq!(str_of(forfeit, "player"), player);
        assert_eq!(str_of(forfeit, "reason"), reason, "game {}", i + 1);
        let record = str_of(game, "record");
        assert_eq!(judged_result(tmp.path(), record), result);
        let text = std::fs::read_to_string(record).unwrap();
        assert!(text.contains("[Termination \"forfeit\"]"), "{text}");
        // A '}' cannot be in a comment: the record writes ')' for it.
        let comment = format!("{side} ({player}) forfeits: {reason}").replace('}', ")");
        assert!(text.contains(&format!("{{{comment}}}")), "{text}");
        let log = records.join(format!(
            "game-00{}-{}.stderr.log",
            i + 1,
            side.to_lowercase()
        ));
        assert!(log.is_file(), "{} is missing", log.display());
    }
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings[0]["player"], command);
    assert_eq!(u64_of(&standings[0], "losses"), 2);
    assert_eq!(u64_of(&standings[0], "forfeits"), 2);
    assert_eq!(u64_of(&standings[1], "wins"), 2);
    assert_eq!(u64_of(&standings[1], "forfeits"), 0);
    assert_eq!(processes_mentioning(&tmp.text()), Vec::<String>::new());
    (report, took)
}

/// [`engine_forfeits`] for a [`broken_engine`] with 200 ms a move; the match must not take long.
fn broken_engine_forfeits(name: &str, on_go: &str, reason: &str) -> Value {
    let tmp = TempDir::new(name);
    let command = broken_engine(&tmp, name, on_go);
    let (report, took) = engine_forfeits(&tmp, &command, name, "200", reason);
    assert!(took < Duration::from_secs(15), "the match took {took:?}");
    report
}

#[test]
fn match_forfeits_an_engine_that_crashes_on_go_quoting_its_stderr_and_logging_it() {
    let tmp = TempDir::new("crasher");
    let command = broken_engine(
        &tmp,
        "crasher",
        "echo 'thinking...' >&2; echo 'about to fail' >&2; exit 3",
    );
    // A minute a move: the crash is seen at once all the same.
    let (_, took) = engine_forfeits(
        &tmp,
        &command,
        "crasher",
        "60000",
        "crashed: the engine exited (exit status: 3); its stderr ends: thinking...\\nabout to fail",
    );
    assert!(took < Duration::from_secs(10), "the match took {took:?}");
    let log = std::fs::read_to_string(tmp.join("records/game-002-blue.stderr.log")).unwrap();
    assert_eq!(log, "thinking...\nabout to fail\n");
}

#[test]
fn match_forfeits_at_once_an_engine_whose_child_keeps_its_output_open() {
    // The engine exits, but the sleep it started holds the pipe: the exit is the crash.
    let tmp = TempDir::new("orphaner");
    let command = broken_engine(&tmp, "orphaner", "sleep 3019 & exit 3");
    let (_, took) = engine_forfeits(
        &tmp,
        &command,
        "orphaner",
        "60000",
        "crashed: the engine exited (exit status: 3)",
    );
    assert!(took < Duration::from_secs(10), "the match took {took:?}");
    assert_eq!(processes_mentioning("sleep 3019"), Vec::<String>::new());
}

#[test]
fn match_forfeits_at_once_an_engine_that_closes_its_output_under_sh() {
    let tmp = TempDir::new("closer");
    let command = broken_engine(&tmp, "closer", "exec 1>&-; sleep 3023");
    let (_, took) = engine_forfeits(
        &tmp,
        &command,
        "closer",
        "60000",
        "crashed: the engine closed its output",
    );
    assert!(took < Duration::from_secs(10), "the match took {took:?}");
    assert_eq!(processes_mentioning("sleep 3023"), Vec::<String>::new());
}

#[test]
fn match_forfeits_an_engine_that_prints_a_line_out_of_protocol() {
    broken_engine_forfeits(
        "greeter",
        "echo hello",
        "malformed output: 'hello': not a reply of the protocol (instead of bestmove)",
    );
}

#[test]
fn match_forfeits_an_engine_that_writes_binary_garbage_and_its_records_stay_readable() {
    // NUL, bytes that are not UTF-8, a backslash, an escape sequence and braces.
    broken_engine_forfeits(
        "binary",
        r"printf 'bestmove \000\377\376\\ {x} \033[31m\n'",
        r"malformed move '\x00\xff\xfe\\ {x} \x1b[31m': '\x00\xff\xfe\\' is not a cell name (like B3)",
    );
    broken_engine_forfeits(
        "noise",
        r"printf '\001\000\377hello\n'",
        r"malformed output: '\x01\x00\xffhello': not a reply of the protocol (instead of bestmove)",
    );
}

#[test]
fn match_forfeits_an_engine_that_answers_one_go_with_two_bestmoves() {
    // The first is a legal move as Red; it is not played.
    broken_engine_forfeits(
        "stutterer",
        "echo 'bestmove A1,A2,A3,B3'; echo 'bestmove A1,A2,A3,B3'",
        "malformed output: a second bestmove for one go: 'bestmove A1,A2,A3,B3'",
    );
}

#[test]
fn match_forfeits_an_engine_that_plays_an_illegal_move() {
    broken_engine_forfeits(
        "cheater",
        "echo 'bestmove A1,A2,A3,A4'",
        "illegal move 'A1,A2,A3,A4': A1,A2,A3,A4 is not an L shape",
    );
}

#[test]
fn match_forfeits_an_engine_that_answers_too_late_and_kills_it() {
    broken_engine_forfeits(
        "sleeper",
        "sleep 977",
        "timeout: no bestmove within 450 ms after go movetime 200",
    );
    assert_eq!(processes_mentioning("sleep 977"), Vec::<String>::new());
}

#[test]
fn match_forfeits_an_engine_that_is_not_ready_after_its_move() {
    // readyok for the game's isready only, not for the one after bestmove.
    let tmp = TempDir::new("sluggard");
    let command = engine_script(
        &tmp,
        "sluggard",
        "n=0",
        "n=$((n + 1)); if [ $n -eq 1 ]; then echo readyok; fi",
        "echo 'bestmove A1,A2,A3,B3'",
    );
    engine_forfeits(
        &tmp,
        &command,
        "sluggard",
        "200",
        "timeout: no readyok within 450 ms after isready (sent after bestmove)",
    );
}

#[test]
fn match_leaves_no_process_of_an_engine_that_escapes_its_process_group() {
    // A crashing engine whose `setsid sleep` holds its output and its error output open.
    let tmp = TempDir::new("escaper");
    let command = engine_script(
        &tmp,
        "escaper",
        "setsid sleep 3031 &",
        "echo readyok",
        "exit 3",
    );
    let (_, took) = engine_forfeits(
        &tmp,
        &command,
        "escaper",
        "60000",
        "crashed: the engine exited (exit status: 3)",
    );
    assert!(took < Duration::from_secs(10), "the match took {took:?}");
    assert_eq!(processes_mentioning("sleep 3031"), Vec::<String>::new());

    // And one that plays whole games (a compound command: the shell stays in between).
    let records = tmp.join("playing");
    let playing = format!("setsid sleep 3037 & exec '{LGAME}' engine --level random --seed 3");
    let report = match_json(
        tmp.path(),
        &[
            "--red",
            &playing,
            "--blue",
            "level:random",
            "--games",
            "2",
            "--records",
            records.to_str().unwrap(),
        ],
    );
    checked_results(&report, 2);
    assert_eq!(u64_of(&report, "forfeits"), 0, "{report}");
    assert_eq!(processes_mentioning("sleep 3037"), Vec::<String>::new());
}

/// Runs a match of `command` against the random level that must not start: exit 2, an
/// error naming `flag` and the command, nothing recorded. Returns the error.
fn refused_match(tmp: &TempDir, flag: &str, command: &str, extra: &[&str]) -> String {
    let records = tmp.join("records");
    let other = if flag == "--red" { "--blue" } else { "--red" };
    let mut args = vec![
        "match",
        flag,
        command,
        other,
        "level:random",
        "--records",
        records.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let err = fails_with_2(tmp.path(), &args);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let prefix = format!("error: {flag} '{command}': the engine cannot play this match: ");
    assert!(err.starts_with(&prefix), "{err}");
    assert!(!records.exists(), "records were made");
    assert_eq!(processes_mentioning(&tmp.text()), Vec::<String>::new());
    err.trim_end().strip_prefix(&prefix).unwrap().to_string()
}

#[test]
fn match_refuses_to_start_with_an_engine_that_cannot_start() {
    let tmp = TempDir::new("unstartable");
    let missing = tmp.join("no-such-engine").display().to_string();
    assert_eq!(
        refused_match(&tmp, "--blue", &missing, &[]),
        format!(
            "crashed: the engine exited (exit status: 127); its stderr ends: sh: 1: exec: \
             {missing}: not found"
        )
    );

    let quitter = "sh -c 'echo \"cannot load the weights\" >&2; exit 4'";
    assert_eq!(
        refused_match(&tmp, "--red", quitter, &[]),
        "crashed: the engine exited (exit status: 4); its stderr ends: cannot load the weights"
    );

    // Closing its output at once, under sh -c, is a crash at once too.
    assert_eq!(
        refused_match(&tmp, "--red", "sh -c 'exec 1>&-; sleep 3041'", &[]),
        "crashed: the engine closed its output"
    );
    assert_eq!(processes_mentioning("sleep 3041"), Vec::<String>::new());

    let greeter = engine_script(
        &tmp,
        "banner",
        "echo 'Welcome to Banner 1.0'",
        "echo readyok",
        ":",
    );
    assert_eq!(
        refused_match(&tmp, "--blue", &greeter, &[]),
        "malformed output: 'Welcome to Banner 1.0': not a reply of the protocol (before lgpok)"
    );
}

#[test]
fn match_refuses_to_start_with_an_engine_that_does_not_declare_its_rules() {
    let tmp = TempDir::new("undeclared");
    // The handshake's lines may come before lgp is read.
    let misere = engine_script(
        &tmp,
        "misere-only",
        "echo 'variants misere | sudden-death'",
        "echo readyok",
        ":",
    );
    assert_eq!(
        refused_match(&tmp, "--red", &misere, &[]),
        "the engine does not declare the rules 'classic' ('variants misere | sudden-death')"
    );
    // No variants line: classic only.
    let silent = broken_engine(&tmp, "silent", ":");
    assert_eq!(
        refused_match(&tmp, "--blue", &silent, &["--variant", "neutrals=1,misere"]),
        "the engine does not declare the rules 'misere,neutrals=1' (it sent no variants line, \
         which means classic only)"
    );
}

#[test]
fn match_text_output_prints_a_results_table_and_progress_on_stderr() {
    let tmp = TempDir::new("match-text");
    let records = tmp.join("records");
    let args = [
        "--red",
        "level:perfect",
        "--blue",
        "level:random",
        "--games",
        "3",
        "--records",
        records.to_str().unwrap(),
    ];
    let out = lgame_match(tmp.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    // The same match as JSON (same seed, same games) says what the text must say.
    let report = match_json(tmp.path(), &args);
    let results = checked_results(&report, 3);

    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(
        lines[0],
        format!(
            "3 games of classic: Red won {}, Blue won {}, {} drawn, 0 forfeits",
            report["red_wins"], report["blue_wins"], report["draws"]
        )
    );
    let header: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        header,
        ["games", "wins", "losses", "draws", "points", "forfeits", "player"]
    );
    // A line per contender, first contender first.
    for (line, s) in lines[2..4]
        .iter()
        .zip(report["standings"].as_array().unwrap())
    {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let expected = [
            s["games"].to_string(),
            s["wins"].to_string(),
            s["losses"].to_string(),
            s["draws"].to_string(),
            format!("{:.1}", s["points"].as_f64().unwrap()),
            s["forfeits"].to_string(),
            str_of(s, "player").to_string(),
        ];
        assert_eq!(cells, expected, "{text}");
    }
    assert!(lines[2].ends_with("  level:perfect"), "{text}");
    assert!(lines[3].ends_with("  level:random"), "{text}");
    let perfect: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(perfect[2], "0", "perfect lost: {text}");
    assert_eq!(lines[4], format!("records in {}", records.display()));

    // Progress: one line per game, on stderr only.
    let err = stderr(&out);
    let progress: Vec<&str> = err.lines().collect();
    let expected: Vec<String> = results
        .iter()
        .map(|g| {
            format!(
                "game {}: {} vs {}: {} by {} after {} plies",
                g["game"],
                str_of(g, "red"),
                str_of(g, "blue"),
                str_of(g, "result"),
                str_of(g, "ending"),
                g["plies"]
            )
        })
        .collect();
    assert_eq!(progress, expected, "{err}");
    assert!(progress[0].starts_with("game 1: level:perfect vs level:random: "));
    assert!(progress[1].starts_with("game 2: level:random vs level:perfect: "));
    assert!(!text.contains("game 1:"), "progress is not on stdout");
}

#[test]
fn match_text_progress_names_each_forfeit() {
    let tmp = TempDir::new("match-text-forfeit");
    let command = broken_engine(&tmp, "greeter", "echo hello");
    let out = lgame_match(
        tmp.path(),
        &[
            "--red",
            "level:random",
            "--blue",
            &command,
            "--games",
            "1",
            "--records",
            tmp.join("records").to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("1 games of classic: Red won 1, Blue won 0, 0 drawn, 1 forfeits"),
        "{text}"
    );
    let engine_line: Vec<&str> = text.lines().nth(3).unwrap().split_whitespace().collect();
    assert_eq!(engine_line[..6], ["1", "0", "1", "0", "0.0", "1"]);
    assert_eq!(engine_line[6..].join(" "), command);
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "game 1: level:random vs greeter ({command}): 1-0 by forfeit after 1 plies \
             (Blue forfeits: malformed output: 'hello': not a reply of the protocol (instead of \
             bestmove))"
        )
    );
    assert_eq!(processes_mentioning(&tmp.text()), Vec::<String>::new());
}

#[test]
fn match_bad_arguments_exit_2_naming_the_problem_and_record_nothing() {
    let tmp = TempDir::new("match-bad-args");
    let err = fails_with_2(
        tmp.path(),
        &["match", "--red", "level:genius", "--blue", "level:random"],
    );
    assert!(
        err.contains("--red 'level:genius': unknown level 'genius'"),
        "{err}"
    );
    let err = fails_with_2(
        tmp.path(),
        &[
            "match",
            "--red",
            "level:random",
            "--blue",
            "level:beginner:101",
        ],
    );
    assert!(
        err.contains("--blue 'level:beginner:101': strength '101'"),
        "{err}"
    );
    let err = fails_with_2(
        tmp.path(),
        &[
            "match",
            "--red",
            "level:perfect",
            "--blue",
            "level:random",
            "--setup",
            "nowhere",
        ],
    );
    assert!(err.contains("'nowhere'"), "{err}");
    let err = fails_with_2(
        tmp.path(),
        &["match", "--red", "", "--blue", "level:random"],
    );
    assert!(err.contains("--red ''"), "{err}");
    let err = fails_with_2(
        tmp.path(),
        &["match", "--red", "level:random", "--blue", "   "],
    );
    assert!(err.contains("--blue"), "{err}");
    let err = fails_with_2(tmp.path(), &["match", "--red", "level:random"]);
    assert!(err.contains("--blue"), "{err}");
    let err = fails_with_2(
        tmp.path(),
        &[
            "match",
            "--red",
            "level:random",
            "--blue",
            "level:random",
            "--games",
            "many",
        ],
    );
    assert!(err.contains("--games"), "{err}");
    let err = fails_with_2(
        tmp.path(),
        &["match", "--red", "perfect", "--blue", "Human"],
    );
    assert_eq!(
        err.trim_end(),
        "error: --blue 'Human': a match is played by programs, not people: name a level \
         (perfect, level:beginner:40) or an engine's command line (lgame play takes a human)"
    );
    // Nothing was played, so nothing was written.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn match_reads_a_level_in_every_form_of_a_players_name() {
    let tmp = TempDir::new("match-names");
    let report = match_json(
        tmp.path(),
        &[
            "--red",
            "perfect",
            "--blue",
            "level:beginner:40",
            "--games",
            "2",
        ],
    );
    let again = match_json(
        tmp.path(),
        &[
            "--red",
            "level:perfect",
            "--blue",
            "Beginner:40",
            "--games",
            "2",
        ],
    );
    assert_eq!(report, again);
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings[0]["player"], "level:perfect");
    assert_eq!(standings[1]["player"], "level:beginner:40");
}

#[test]
fn match_writes_records_only_when_asked_and_says_where() {
    let tmp = TempDir::new("match-where");
    let engine = format!("'{LGAME}' engine --level random --seed 5");
    let args = [
        "--red",
        "level:perfect",
        "--blue",
        engine.as_str(),
        "--games",
        "2",
    ];
    let out = lgame_match(tmp.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("records"), "{}", stdout(&out));
    let report = match_json(tmp.path(), &args);
    for game in checked_results(&report, 2) {
        assert!(game["record"].is_null(), "{game}");
    }
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "nothing is written without --records"
    );

    // A relative folder is made in the current one, and named as given.
    let mut asked = args.to_vec();
    asked.extend(["--records", "out/games"]);
    let out = lgame_match(tmp.path(), &asked);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("records in out/games"));
    let mut files: Vec<String> = std::fs::read_dir(tmp.join("out/games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "game-001-blue.stderr.log",
            "game-001.txt",
            "game-002-red.stderr.log",
            "game-002.txt"
        ]
    );
    assert_eq!(judge_every_record(tmp.path(), &tmp.join("out/games")), 2);
}

#[test]
fn match_of_the_python_example_engine_has_no_forfeits_and_valid_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tmp = TempDir::new("match-python");
    let records = tmp.join("records");
    let report = match_json(
        &root,
        &[
            "--red",
            "level:random",
            "--blue",
            "python3 examples/engine.py",
            "--games",
            "4",
            "--records",
            records.to_str().unwrap(),
        ],
    );
    let results = checked_results(&report, 4);
    assert_eq!(u64_of(&report, "forfeits"), 0, "{report}");
    for game in results {
        assert!(game["forfeit"].is_null(), "{game}");
        assert!(u64_of(game, "plies") > 0, "{game}");
    }
    assert_eq!(judge_every_record(&root, &records), 4);
    // From the kit's setup too: `variants classic` covers any start.
    let report = match_json(
        &root,
        &[
            "--red",
            "python3 examples/engine.py --seed 9",
            "--blue",
            "level:beginner",
            "--setup",
            "kit",
            "--games",
            "2",
        ],
    );
    checked_results(&report, 2);
    assert_eq!(u64_of(&report, "forfeits"), 0, "{report}");
    assert_eq!(
        processes_mentioning("examples/engine.py"),
        Vec::<String>::new()
    );
}

#[test]
fn match_of_zero_games_plays_nothing() {
    let tmp = TempDir::new("match-zero");
    let records = tmp.join("records");
    let report = match_json(
        tmp.path(),
        &[
            "--red",
            "level:perfect",
            "--blue",
            "level:random",
            "--games",
            "0",
            "--records",
            records.to_str().unwrap(),
        ],
    );
    checked_results(&report, 0);
    assert_eq!(report["results"], Value::Array(vec![]));
    for key in ["red_wins", "blue_wins", "draws", "forfeits"] {
        assert_eq!(u64_of(&report, key), 0, "{key}");
    }
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings[0]["player"], "level:perfect");
    assert_eq!(standings[1]["player"], "level:random");
    assert_eq!(standings[0]["points"].as_f64(), Some(0.0));
    let saved = std::fs::read_dir(&records).map_or(0, |d| d.count());
    assert_eq!(saved, 0, "no record for no game");
}
