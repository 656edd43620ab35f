//! `lgame bot` (issue #26, docs/bots.md) against `lgame serve`: `examples/engine.py`, an
//! engine written from the protocol's document alone, plays a person (driven through the
//! API by the test) in a real-time game, a correspondence game and an untimed one; an
//! engine that crashes mid-game is started again and the game goes on, and one without the
//! clock extension still plays a timed game; the bot reconnects after the server is killed
//! and started again, and finishes its game.
//!
//! The time from the person's move to the bot's answer is printed (`--nocapture`).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use lgame::{Position, Rules};
use lgame_solver::Tablebase;
use lgame_test_support::accounts::Browser;
use lgame_test_support::bots::{stream, Stream};
use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{spread, Lgame, TempDir};
use serde_json::{json, Value};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

const PASSWORD: &str = "Quiet-Lantern-Orbit-71";

const WAIT: Duration = Duration::from_secs(20);

fn engine_py() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/engine.py")
}

/// `lgame bot` running, its standard output's lines read as they come; killed when dropped.
struct BotProcess {
    child: Child,
    lines: Receiver<String>,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl BotProcess {
    fn start(addr: &str, token_file: &Path, engine: &str, extra: &[&str]) -> BotProcess {
        let mut child = LGAME
            .command()
            .args(["bot", "--server", &format!("http://{addr}"), "--token-file"])
            .arg(token_file)
            .args(["--engine", engine])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lgame bot starts");
        let (send, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let kept = stderr.clone();
        let err = child.stderr.take().unwrap();
        thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let mut text = kept.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        let bot = BotProcess {
            child,
            lines,
            stderr,
        };
        bot.until("its greeting", |l| l.starts_with("bot "));
        bot
    }

    /// The next line of its output that `wanted` accepts, within [`WAIT`].
    fn until(&self, what: &str, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(&line) => return line,
                Ok(_) => {}
                Err(_) => panic!(
                    "lgame bot did not say {what} within {WAIT:?}; its stderr: {}",
                    self.stderr.lock().unwrap()
                ),
            }
        }
    }

    /// Waits (up to [`WAIT`]) for it to exit by itself: whether it succeeded.
    fn exits(&mut self) -> bool {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            thread::sleep(Duration::from_millis(50));
        }
        panic!("lgame bot did not exit after its last game");
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A bot account named `name` and its token in a file: the file.
fn bot_account(addr: &str, dir: &TempDir, name: &str) -> PathBuf {
    let token = Browser::signed_up(addr, name, PASSWORD).bot_token();
    let file = dir.join(&format!("{name}.token"));
    std::fs::write(&file, format!("{token}\n")).unwrap();
    file
}

/// Waits until the bot is online (its program follows its events).
fn online(person: &Browser, name: &str) {
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        let bots = person.get("/api/bots").body;
        if bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["username"] == name && b["online"] == true)
        {
            return;
        }
        thread::sleep(Duration::from_millis(100));
    }
    panic!("the bot {name} never came online");
}

/// `person` challenges bot `name` with `clock` (as Red): the game, once the bot accepted.
fn challenge(person: &Browser, name: &str, clock: Value) -> String {
    let asked = person.post(
        &format!("/api/challenges/{name}"),
        &json!({ "clock": clock, "color": "red" }),
    );
    assert_eq!(asked.status, 201, "{}", asked.body);
    let id = asked.body["id"].as_str().unwrap();
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        let seen = person.get(&format!("/api/challenges/{id}")).body;
        match seen["status"].as_str() {
            Some("accepted") => return seen["game"].as_str().unwrap().to_string(),
            Some("pending") => thread::sleep(Duration::from_millis(50)),
            other => panic!("the challenge was {other:?}: {seen}"),
        }
    }
    panic!("the bot did not answer the challenge");
}

/// The game's state as its stream tells it, once the state's plies reach `plies` (or the
/// game is over).
fn wait_plies(moves: &Stream, state: &mut Value, plies: u64) -> Value {
    while state["plies"].as_u64().unwrap_or(0) < plies && state["over"] != true {
        let message = moves.next_within(WAIT).unwrap_or_else(|| {
            panic!(
                "the game stopped at {} plies, waiting for {plies}",
                state["plies"]
            )
        });
        fold(state, message);
    }
    state.clone()
}

/// A stream's message folded into the state, as `lgame bot` folds it.
fn fold(state: &mut Value, message: Value) {
    if message["type"] == "state" {
        *state = message;
        return;
    }
    let from = message["from"].as_u64().unwrap() as usize;
    for list in ["moves", "positions"] {
        let mut items = state[list].as_array().cloned().unwrap();
        items.truncate(from);
        items.extend(message[list].as_array().cloned().unwrap());
        state[list] = Value::Array(items);
    }
    for (key, value) in message.as_object().unwrap() {
        if !["moves", "positions", "from", "type"].contains(&key.as_str()) {
            state[key] = value.clone();
        }
    }
}

/// `person` (Red) plays `moves` best moves, each answered by the bot, then resigns if the
/// game goes on: each bot's answer's ply, and the time from the person's move sent to it
/// seen, in milliseconds.
fn play_and_resign(addr: &str, person: &Browser, game: &str, moves: usize) -> Vec<(u64, i64)> {
    play(addr, person, game, moves, true)
}

/// `person` (Red) plays `moves` best moves, each answered by the bot, then resigns if
/// `resign` (else the game must go on): as [`play_and_resign`].
fn play(addr: &str, person: &Browser, game: &str, moves: usize, resign: bool) -> Vec<(u64, i64)> {
    let watch = stream(addr, &format!("/api/games/{game}/stream"), None);
    let mut state = Value::Null;
    fold(
        &mut state,
        watch.until("the state", WAIT, |m| m["type"] == "state"),
    );
    let mut waits = Vec::new();
    for _ in 0..moves {
        if state["over"] == true {
            break;
        }
        let plies = state["plies"].as_u64().unwrap();
        let body = json!({ "ply": plies + 1, "move": best_move(&state) });
        let sent = Instant::now();
        let page = person.post(&format!("/api/games/{game}/moves"), &body);
        assert_eq!(page.status, 200, "{}", page.body);
        wait_plies(&watch, &mut state, plies + 2);
        waits.push((plies + 2, sent.elapsed().as_millis() as i64));
    }
    if !resign {
        assert_eq!(state["over"], false, "the game goes on: {state}");
    } else if state["over"] != true {
        let resigned = person.post(&format!("/api/games/{game}/resign"), &json!({}));
        assert_eq!(resigned.status, 200, "{}", resigned.body);
    }
    waits
}

/// The person's move: a best move by the solved game (the classic game's start is drawn, so
/// the person never loses, and every game lasts as long as the test wants).
fn best_move(state: &Value) -> String {
    static TABLE: std::sync::OnceLock<Tablebase> = std::sync::OnceLock::new();
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let table = TABLE.get_or_init(|| Tablebase::solve(&rules));
    let position = Position::from_text(state["position"].as_str().unwrap(), &rules).unwrap();
    table.best_moves(&position).unwrap()[0].to_string()
}

fn bot_moves(person: &Browser, game: &str) -> usize {
    let state = person.get(&format!("/api/games/{game}")).body;
    assert_eq!(state["over"], true, "{state}");
    // The bot is Blue: every even ply is its.
    state["moves"].as_array().unwrap().len() / 2
}

#[test]
fn examples_engine_plays_a_real_time_a_correspondence_and_an_untimed_game_through_lgame_bot() {
    let dir = TempDir::new("bot-three-games");
    let server = ServeProcess::start(LGAME, dir.db(), &["--create-limit", "0"]);
    let addr = &server.addr;
    let token = bot_account(addr, &dir, "pybot");
    let engine = format!("python3 {}", engine_py().display());
    let mut bot = BotProcess::start(addr, &token, &engine, &["--games", "3"]);
    let ada = Browser::signed_up(addr, "ada", PASSWORD);
    online(&ada, "pybot");

    let mut waits = Vec::new();
    let mut net = Vec::new();
    for clock in [
        json!({ "initial_s": 60, "increment_s": 1 }),
        json!({ "days": 1 }),
        Value::Null,
    ] {
        let game = challenge(&ada, "pybot", clock.clone());
        bot.until("the game's start", |l| {
            l.contains(&format!("game {game} started"))
        });
        let answers = play_and_resign(addr, &ada, &game, 5);
        bot.until("the game's end", |l| {
            l.contains(&format!("game {game} ended"))
        });
        // The engine's own time, as the bot tells it, taken out.
        let said = bot.stderr.lock().unwrap().clone();
        for (ply, ms) in &answers {
            let tag = format!("game {game}: played ");
            let engine_ms = said
                .lines()
                .filter(|l| l.starts_with(&tag) && l.contains(&format!(" at ply {ply} ")))
                .find_map(|l| {
                    l.rsplit("(engine ")
                        .next()?
                        .strip_suffix(" ms)")?
                        .parse::<i64>()
                        .ok()
                })
                .unwrap_or_else(|| panic!("the bot told its move at ply {ply}: {said}"));
            net.push(ms - engine_ms);
        }
        waits.extend(answers.iter().map(|(_, ms)| *ms));
        assert!(
            bot_moves(&ada, &game) >= 5,
            "{clock}: the bot played each of its moves"
        );
        let state = ada.get(&format!("/api/games/{game}")).body;
        assert_eq!(
            state["players"]["blue"],
            json!({ "kind": "bot", "name": "pybot" })
        );
        assert_eq!(state["clock"].is_null(), clock.is_null(), "{state}");
    }
    assert!(bot.exits(), "lgame bot --games 3 ends with its third game");
    eprintln!(
        "{}",
        spread(
            "a person's move to the bot's answer (examples/engine.py)",
            waits
        )
    );
    eprintln!("{}", spread("the same, the engine's time taken out", net));
}

/// An engine (examples/engine.py without the clock extension) that exits on its third
/// `go` the first time it runs, leaving a mark so that it does not the next time.
fn crashing_engine(dir: &TempDir) -> String {
    let mark = dir.join("crashed");
    let script = dir.join("crashing_engine.py");
    std::fs::write(
        &script,
        format!(
            r#"import os, subprocess, sys
engine = subprocess.Popen([sys.executable, {engine:?}, "--no-clock"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
goes = 0
for line in sys.stdin:
    if line.startswith("go"):
        goes += 1
        if goes == 3 and not os.path.exists({mark:?}):
            open({mark:?}, "w").close()
            sys.exit(3)
    engine.stdin.write(line)
    engine.stdin.flush()
    if line.split()[:1] in (["lgp"], ["isready"], ["go"]):
        end = {{"lgp": "lgpok", "isready": "readyok", "go": "bestmove"}}[line.split()[0]]
        while True:
            reply = engine.stdout.readline()
            sys.stdout.write(reply)
            sys.stdout.flush()
            if reply.startswith(end):
                break
"#,
            engine = engine_py().display().to_string(),
            mark = mark.display().to_string(),
        ),
    )
    .unwrap();
    format!("python3 {}", script.display())
}

#[test]
fn a_crashed_engine_is_started_again_and_one_without_clocks_plays_a_timed_game() {
    let dir = TempDir::new("bot-crash");
    let server = ServeProcess::start(LGAME, dir.db(), &["--create-limit", "0"]);
    let addr = &server.addr;
    let token = bot_account(addr, &dir, "crashbot");
    let engine = crashing_engine(&dir);
    let mut bot = BotProcess::start(addr, &token, &engine, &["--games", "1"]);
    let ada = Browser::signed_up(addr, "ada", PASSWORD);
    online(&ada, "crashbot");

    let game = challenge(
        &ada,
        "crashbot",
        json!({ "initial_s": 60, "increment_s": 0 }),
    );
    play_and_resign(addr, &ada, &game, 6);
    bot.until("the game's end", |l| {
        l.contains(&format!("game {game} ended"))
    });
    assert!(
        dir.join("crashed").exists(),
        "the engine crashed on its third move"
    );
    assert!(
        bot_moves(&ada, &game) >= 5,
        "the game went on after the crash"
    );
    assert!(bot.exits());
    let said = bot.stderr.lock().unwrap().clone();
    assert!(said.contains("the engine crashed"), "{said}");
}

#[test]
fn lgame_bot_reconnects_after_the_server_restarts_and_finishes_its_game() {
    let dir = TempDir::new("bot-restart");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let at = format!("127.0.0.1:{port}");
    let server = ServeProcess::start_at(LGAME, &at, dir.db(), &["--create-limit", "0"]);
    let token = bot_account(&at, &dir, "steadybot");
    let engine = format!("python3 {}", engine_py().display());
    let mut bot = BotProcess::start(&at, &token, &engine, &["--games", "1"]);
    let ada = Browser::signed_up(&at, "ada", PASSWORD);
    online(&ada, "steadybot");
    let game = challenge(&ada, "steadybot", Value::Null);
    bot.until("the game's start", |l| {
        l.contains(&format!("game {game} started"))
    });
    play(&at, &ada, &game, 2, false);

    // Killed, and started again where the bot knew it.
    server.kill();
    thread::sleep(Duration::from_millis(1500));
    let _again = ServeProcess::start_at(LGAME, &at, dir.db(), &["--create-limit", "0"]);
    play_and_resign(&at, &ada, &game, 3);
    bot.until("the game's end", |l| {
        l.contains(&format!("game {game} ended"))
    });
    assert!(
        bot_moves(&ada, &game) >= 5,
        "the bot played on after the restart"
    );
    assert!(bot.exits());
}
