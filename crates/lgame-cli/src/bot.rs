//! `lgame bot`: connects an engine that speaks the engine protocol to a game server as a
//! bot account (docs/bots.md). It follows the bot's event stream, accepts the challenges
//! that match its options and declines the others, and plays each game from the game's
//! stream: the engine is sent the position and both clocks, and its move is played.
//!
//! Nothing is lost to a restart on either side: the event stream resumes after the last
//! event seen, a game's stream is opened again and begins with the whole state; an engine
//! that crashes is started again and asked again (or the game is resigned, as chosen).

use std::collections::HashSet;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use lgame::game::DrawRules;
use lgame::{Color, Game, Position, Rules};
use lgame_players::external::{External, Failure as EngineFailure};
use lgame_players::protocol::GoClock;
use serde_json::{json, Value};

use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's address: http://HOST:PORT.
    #[arg(long, value_name = "URL")]
    server: String,

    /// A file holding the bot's API token (made on the server: POST /api/account/tokens).
    #[arg(long, value_name = "FILE")]
    token_file: PathBuf,

    /// The engine's command line (it speaks docs/engine-protocol.md); one engine is
    /// started for each game.
    #[arg(
        long,
        value_name = "CMD",
        conflicts_with = "level",
        required_unless_present = "level"
    )]
    engine: Option<String>,

    /// A built-in level instead of an engine (`perfect`, `beginner:40`): `lgame engine`.
    #[arg(long, value_name = "LEVEL")]
    level: Option<String>,

    /// The variants accepted, comma-separated catalog names (default: those the engine
    /// declares, among the server's).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    variants: Vec<String>,

    /// The speeds accepted, comma-separated: ultrabullet, bullet, blitz, rapid, classical,
    /// correspondence, untimed (default: all).
    #[arg(long, value_delimiter = ',', value_name = "SPEEDS")]
    speeds: Vec<String>,

    /// Rated games, casual games, or both.
    #[arg(long, default_value = "both", value_parser = ["rated", "casual", "both"])]
    mode: String,

    /// Games played at once at most; a challenge beyond is declined.
    #[arg(long, default_value_t = 1, value_name = "N")]
    max_games: usize,

    /// When the engine crashes mid-game: start it again and go on, or resign the game.
    #[arg(long, default_value = "restart", value_parser = ["restart", "resign"])]
    on_crash: String,

    /// The longest an engine thinks on one move, in milliseconds: its share of the clock
    /// for an engine without the clock extension, and its time in an untimed game.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    max_movetime: u64,

    /// Stop after this many games have ended (default: never).
    #[arg(long, value_name = "N")]
    games: Option<usize>,
}

/// How the bot plays: its options, read once.
struct Bot {
    server: String,
    token: String,
    engine: String,
    name: String,
    variants: Vec<String>,
    speeds: Vec<String>,
    mode: String,
    max_games: usize,
    resign_on_crash: bool,
    max_movetime: u64,
    /// The games being played, and how many have ended.
    playing: Mutex<HashSet<String>>,
    ended: AtomicUsize,
    stop: AtomicBool,
}

/// How long the streams may stay silent (the server sends a blank line every 5 s).
const READ_TIMEOUT: Duration = Duration::from_secs(20);

/// Waits between attempts to reach the server again: from 0.5 s, doubling, to 5 s.
const RETRY_FIRST: Duration = Duration::from_millis(500);
const RETRY_MOST: Duration = Duration::from_secs(5);

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let bad = |e: anyhow::Error| Failure::BadInput(e);
    let token = fs::read_to_string(&args.token_file)
        .with_context(|| format!("--token-file {}", args.token_file.display()))
        .map_err(bad)?
        .trim()
        .to_string();
    if token.is_empty() {
        return Err(bad(anyhow!(
            "--token-file {}: empty",
            args.token_file.display()
        )));
    }
    let engine = match (&args.engine, &args.level) {
        (Some(engine), _) => engine.clone(),
        (None, Some(level)) => {
            let spec: lgame_players::PlayerSpec = level
                .parse()
                .map_err(|e| bad(anyhow!("--level {level}: {e}")))?;
            let exe = std::env::current_exe().map_err(|e| bad(e.into()))?;
            format!(
                "'{}' engine --level {} --strength {}",
                exe.display(),
                spec.level,
                spec.strength
            )
        }
        (None, None) => return Err(bad(anyhow!("--engine or --level"))),
    };
    // The engine's handshake says its variants and that it starts at all.
    let probe = External::start(&engine, Duration::from_secs(60))
        .map_err(|e| bad(anyhow!("the engine '{engine}' cannot start: {e}")))?;
    let declared: Vec<String> = probe.variants().map(<[String]>::to_vec).unwrap_or_default();
    let name = probe.name().to_string();
    let variants = if args.variants.is_empty() {
        catalog_variants(&declared)
    } else {
        args.variants.clone()
    };
    probe.stop();
    let bot = Arc::new(Bot {
        server: args.server.trim_end_matches('/').to_string(),
        token,
        engine,
        name,
        variants,
        speeds: args.speeds.clone(),
        mode: args.mode.clone(),
        max_games: args.max_games.max(1),
        resign_on_crash: args.on_crash == "resign",
        max_movetime: args.max_movetime,
        playing: Mutex::new(HashSet::new()),
        ended: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });
    let me = bot.whoami().map_err(Failure::BadInput)?;
    writeln!(
        out,
        "bot {me} on {} with {} (variants: {})",
        bot.server,
        bot.name,
        bot.variants.join(", ")
    )?;
    out.flush()?;
    bot.follow_events(args.games, out)
}

/// The catalog's variant names an engine's `variants` line covers (none: classic only).
fn catalog_variants(declared: &[String]) -> Vec<String> {
    let declared = (!declared.is_empty()).then_some(declared);
    lgame::variants::VARIANTS
        .iter()
        .filter(|v| {
            v.rules
                .parse::<Rules>()
                .is_ok_and(|rules| lgame_players::protocol::declares(declared, &rules))
        })
        .map(|v| v.rules.to_string())
        .collect()
}

impl Bot {
    fn agent(&self, read_timeout: Duration) -> ureq::Agent {
        ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .timeout_read(read_timeout)
            .build()
    }

    // ureq's own error, matched by its status where it is met: one a request, not worth a box.
    #[allow(clippy::result_large_err)]
    fn get(&self, path: &str, read_timeout: Duration) -> Result<ureq::Response, ureq::Error> {
        self.agent(read_timeout)
            .get(&format!("{}{path}", self.server))
            .set("Authorization", &format!("Bearer {}", self.token))
            .call()
    }

    #[allow(clippy::result_large_err)]
    fn post(&self, path: &str, body: Value) -> Result<Value, ureq::Error> {
        let answer = self
            .agent(Duration::from_secs(30))
            .post(&format!("{}{path}", self.server))
            .set("Authorization", &format!("Bearer {}", self.token))
            .send_json(body)?;
        Ok(answer.into_json().unwrap_or(Value::Null))
    }

    /// The bot's username; an error if the token is refused or names no bot.
    fn whoami(&self) -> anyhow::Result<String> {
        let account: Value = match self.get("/api/account", Duration::from_secs(30)) {
            Ok(answer) => answer.into_json()?,
            Err(ureq::Error::Status(code, answer)) => {
                let body = answer.into_string().unwrap_or_default();
                bail!("the server refused the token ({code}): {body}")
            }
            Err(e) => bail!("the server cannot be reached: {e}"),
        };
        let name = account["username"].as_str().unwrap_or("?").to_string();
        if account["bot"] != json!(true) {
            bail!("the account '{name}' is no bot: make it one (POST /api/account/bot) before its first game");
        }
        Ok(name)
    }

    /// Follows the event stream until told to stop, resuming after the last event.
    fn follow_events(
        self: &Arc<Self>,
        stop_after: Option<usize>,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let mut since: Option<i64> = None;
        let mut wait = RETRY_FIRST;
        let mut handles = Vec::new();
        while !self.stop.load(Ordering::SeqCst) {
            let path = match since {
                Some(id) => format!("/api/bot/events?since={id}"),
                None => "/api/bot/events".to_string(),
            };
            let stream = match self.get(&path, READ_TIMEOUT) {
                Ok(answer) => answer,
                Err(ureq::Error::Status(code, answer)) if code == 401 || code == 403 => {
                    let body = answer.into_string().unwrap_or_default();
                    return Err(Failure::BadInput(anyhow!(
                        "the server refused the bot ({code}): {body}"
                    )));
                }
                Err(e) => {
                    writeln!(out, "the server cannot be reached ({e}); again in {wait:?}")?;
                    out.flush()?;
                    thread::sleep(wait);
                    wait = (wait * 2).min(RETRY_MOST);
                    continue;
                }
            };
            wait = RETRY_FIRST;
            for line in BufReader::new(stream.into_reader()).lines() {
                let Ok(line) = line else { break };
                let event = serde_json::from_str::<Value>(&line).ok();
                if let Some(event) = event.filter(|_| !line.trim().is_empty()) {
                    since = event["id"].as_i64().or(since);
                    if let Some(handle) = self.on_event(&event, out)? {
                        handles.push(handle);
                    }
                }
                // Asked at every line, the keep-alives too: a game's thread may end just
                // after its `gameFinish` was read.
                if stop_after.is_some_and(|n| self.ended.load(Ordering::SeqCst) >= n)
                    && self.playing.lock().map(|p| p.is_empty()).unwrap_or(true)
                {
                    self.stop.store(true, Ordering::SeqCst);
                    break;
                }
            }
        }
        for handle in handles {
            let _ = handle.join();
        }
        Ok(())
    }

    fn on_event(
        self: &Arc<Self>,
        event: &Value,
        out: &mut impl Write,
    ) -> Result<Option<thread::JoinHandle<()>>, Failure> {
        match event["type"].as_str() {
            Some("challenge") => {
                let challenge = &event["challenge"];
                if challenge["status"] != "pending" {
                    return Ok(None);
                }
                let id = challenge["id"].as_str().unwrap_or_default();
                let answer = match self.refusal(challenge) {
                    None => self.post(&format!("/api/challenges/{id}/accept"), json!({})),
                    Some(reason) => self.post(
                        &format!("/api/challenges/{id}/decline"),
                        json!({ "reason": reason }),
                    ),
                };
                let said = match answer {
                    Ok(_) => match self.refusal(challenge) {
                        None => "accepted".to_string(),
                        Some(reason) => format!("declined ({reason})"),
                    },
                    Err(e) => format!("not answered: {e}"),
                };
                writeln!(
                    out,
                    "challenge {id} from {}: {said}",
                    challenge["challenger"]
                )?;
            }
            Some("gameStart") => {
                let game = &event["game"];
                let (Some(id), Some(color)) = (game["id"].as_str(), game["color"].as_str()) else {
                    return Ok(None);
                };
                let side = if color == "red" {
                    Color::Red
                } else {
                    Color::Blue
                };
                let fresh = self
                    .playing
                    .lock()
                    .map(|mut p| p.insert(id.to_string()))
                    .unwrap_or(false);
                if fresh {
                    writeln!(out, "game {id} started: the bot plays {color}")?;
                    out.flush()?;
                    let (bot, id) = (self.clone(), id.to_string());
                    return Ok(Some(thread::spawn(move || bot.play(&id, side))));
                }
            }
            Some("gameFinish") => {
                let game = &event["game"];
                let id = game["id"].as_str().unwrap_or_default();
                let state = &game["state"];
                writeln!(
                    out,
                    "game {id} ended: {} ({})",
                    state["result"].as_str().unwrap_or("*"),
                    state["conclusion"].as_str().unwrap_or("")
                )?;
                self.ended.fetch_add(1, Ordering::SeqCst);
            }
            _ => {}
        }
        out.flush()?;
        Ok(None)
    }

    /// Why a challenge is declined (a reason of the API's), or `None` to accept it.
    fn refusal(&self, challenge: &Value) -> Option<&'static str> {
        let variant = challenge["variant"].as_str().unwrap_or("classic");
        if !self.variants.iter().any(|v| v == variant) {
            return Some("variant");
        }
        let speed = challenge["speed"].as_str().unwrap_or("untimed");
        if !self.speeds.is_empty() && !self.speeds.iter().any(|s| s == speed) {
            return Some("time_control");
        }
        let rated = challenge["rated"] == json!(true);
        match self.mode.as_str() {
            "rated" if !rated => return Some("rated"),
            "casual" if rated => return Some("casual"),
            _ => {}
        }
        let busy = self.playing.lock().map(|p| p.len()).unwrap_or(0);
        (busy >= self.max_games).then_some("too_many_games")
    }

    /// Plays game `id` as `side` to its end, from its stream (opened again whenever it
    /// breaks, the server's restart included).
    fn play(self: Arc<Self>, id: &str, side: Color) {
        let mut seat = Seat {
            engine: None,
            game: None,
            played: 0,
        };
        let mut wait = RETRY_FIRST;
        loop {
            match self.follow_game(id, side, &mut seat) {
                Ok(true) => break,
                Ok(false) => wait = RETRY_FIRST,
                Err(e) => {
                    eprintln!("game {id}: {e:#}; again in {wait:?}");
                    wait = (wait * 2).min(RETRY_MOST);
                }
            }
            thread::sleep(wait);
        }
        if let Some(engine) = seat.engine.take() {
            engine.stop();
        }
        if let Ok(mut playing) = self.playing.lock() {
            playing.remove(id);
        }
    }

    /// Reads the game's stream, moving whenever it is the bot's turn: `Ok(true)` once the
    /// game is over, `Ok(false)` if the stream ended before.
    fn follow_game(&self, id: &str, side: Color, seat: &mut Seat) -> anyhow::Result<bool> {
        let stream = match self.get(&format!("/api/games/{id}/stream"), READ_TIMEOUT) {
            Ok(stream) => stream,
            Err(ureq::Error::Status(404, _)) => return Ok(true),
            Err(e) => return Err(e.into()),
        };
        let mut state = Value::Null;
        for line in BufReader::new(stream.into_reader()).lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let message: Value = serde_json::from_str(&line)?;
            let received = Instant::now();
            merge(&mut state, message)?;
            if state["over"] == json!(true) {
                return Ok(true);
            }
            let plies = state["plies"].as_u64().unwrap_or(0) as usize;
            let turn = if state["turn"] == "red" {
                Color::Red
            } else {
                Color::Blue
            };
            if turn == side && plies >= seat.played {
                self.move_once(id, &state, received, seat)?;
            }
        }
        Ok(false)
    }

    /// Asks the engine for its move in `state` and plays it (an engine that crashed is
    /// started again and asked again, or the game resigned).
    fn move_once(
        &self,
        id: &str,
        state: &Value,
        received: Instant,
        seat: &mut Seat,
    ) -> anyhow::Result<()> {
        let game = seat.game_at(state)?;
        let plies = game.plies().len();
        let mut tries = 0;
        let started = Instant::now();
        let chosen = loop {
            tries += 1;
            let engine = seat.engine(&self.engine, &game)?;
            let asked = match clock_of(state, received) {
                Some(clock) => {
                    engine.choose_timed(&game, clock, Duration::from_millis(self.max_movetime))
                }
                None => engine.choose(&game, Duration::from_millis(self.max_movetime)),
            };
            match asked {
                Ok(Some(mv)) => break mv,
                Ok(None) => bail!("the engine says there is no move, in a game that goes on"),
                Err(EngineFailure::Crashed(how)) if tries < 3 && !self.resign_on_crash => {
                    eprintln!("game {id}: the engine crashed ({how}): started again");
                    seat.engine = None;
                }
                Err(e) => {
                    seat.engine = None;
                    if self.resign_on_crash || tries >= 3 {
                        eprintln!("game {id}: the engine failed ({e}): resigning");
                        let _ = self.post(&format!("/api/games/{id}/resign"), json!({}));
                        seat.played = usize::MAX;
                        return Ok(());
                    }
                    return Err(anyhow!("the engine failed: {e}"));
                }
            }
        };
        let think_ms = started.elapsed().as_millis().min(u32::MAX as u128) as u32;
        let body = json!({ "ply": plies + 1, "move": chosen, "think_ms": think_ms });
        match self.post(&format!("/api/games/{id}/moves"), body) {
            Ok(_) => {
                seat.played = plies + 1;
                // On standard error: standard output is the main thread's.
                eprintln!(
                    "game {id}: played {chosen} at ply {} (engine {think_ms} ms)",
                    plies + 1
                );
            }
            // A stale or refused move: the stream tells what the game is now.
            Err(ureq::Error::Status(409, _)) => {}
            Err(ureq::Error::Status(code, answer)) => {
                let body = answer.into_string().unwrap_or_default();
                eprintln!("game {id}: the move {chosen} was refused ({code}): {body}");
                seat.played = plies + 1;
            }
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }
}

/// A game the bot plays: its engine (started for it), the game as last replayed, and the
/// plies after which it last moved.
struct Seat {
    engine: Option<External>,
    game: Option<Game>,
    played: usize,
}

impl Seat {
    /// The game of `state`: its rules, start and moves, replayed by the rules library.
    fn game_at(&mut self, state: &Value) -> anyhow::Result<Game> {
        let rules: Rules = state["variant"]
            .as_str()
            .unwrap_or("classic")
            .parse()
            .map_err(|e| anyhow!("the game's variant: {e}"))?;
        let start = Position::from_text(state["start"].as_str().unwrap_or(""), &rules)
            .map_err(|e| anyhow!("the game's start: {e}"))?;
        let draw = &state["draw_rules"];
        let draw_rules = DrawRules {
            repetition: draw["repetition"].as_u64().map(|n| n as u32),
            turn_limit: draw["turn_limit"].as_u64().map(|n| n as u32),
        }
        .normalized();
        let mut game = Game::from_position(start)
            .map_err(|e| anyhow!("the game's start: {e}"))?
            .with_draw_rules(draw_rules);
        for text in state["moves"].as_array().into_iter().flatten() {
            let text = text.as_str().unwrap_or("");
            let mv = text.parse().map_err(|e| anyhow!("move '{text}': {e}"))?;
            game.play(&mv).map_err(|e| anyhow!("move '{text}': {e}"))?;
        }
        self.game = Some(game.clone());
        Ok(game)
    }

    /// The game's engine, started (and told the game's rules) if it is not running.
    fn engine(&mut self, command: &str, game: &Game) -> anyhow::Result<&mut External> {
        if self.engine.is_none() {
            let mut engine = External::start(command, Duration::from_secs(60))
                .map_err(|e| anyhow!("the engine '{command}' cannot start: {e}"))?;
            engine
                .new_game_with(game.rules(), game.draw_rules(), Duration::from_secs(60))
                .map_err(|e| anyhow!("the engine refused the game: {e}"))?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }
}

/// Folds a message of the game's stream into the state: `state` replaces it, `change`
/// cuts the moves and positions to `from` and appends its own, and sets its fields.
fn merge(state: &mut Value, message: Value) -> anyhow::Result<()> {
    match message["type"].as_str() {
        Some("state") => *state = message,
        Some("change") => {
            if state.is_null() {
                bail!("a change before the state");
            }
            let from = message["from"].as_u64().unwrap_or(0) as usize;
            for list in ["moves", "positions"] {
                let mut items = state[list].as_array().cloned().unwrap_or_default();
                items.truncate(from);
                items.extend(message[list].as_array().cloned().unwrap_or_default());
                state[list] = Value::Array(items);
            }
            if let Value::Object(fields) = message {
                for (key, value) in fields {
                    if !matches!(key.as_str(), "moves" | "positions" | "from" | "type") {
                        state[key] = value;
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Both clocks of a timed game's state, the running one less the time since the message
/// came; `None` for an untimed game.
fn clock_of(state: &Value, received: Instant) -> Option<GoClock> {
    let clock = state.get("clock").filter(|c| !c.is_null())?;
    let since = received.elapsed().as_millis() as i64;
    let left = |side: &str| {
        let ms = clock[format!("{side}_ms")].as_i64().unwrap_or(0);
        let running = clock["running"] == side;
        (if running { ms - since } else { ms }).max(0) as u64
    };
    let inc = clock["increment_s"].as_u64().unwrap_or(0) * 1000;
    Some(GoClock {
        wtime: left("red"),
        btime: left("blue"),
        winc: inc,
        binc: inc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_cuts_the_moves_to_from_and_appends_its_own() {
        let mut state = Value::Null;
        merge(&mut state, json!({"type": "state", "moves": ["a", "b"], "positions": ["p", "q"], "plies": 2, "turn": "red"})).unwrap();
        merge(&mut state, json!({"type": "change", "from": 1, "moves": ["c", "d"], "positions": ["r", "s"], "plies": 3, "turn": "blue"})).unwrap();
        assert_eq!(state["moves"], json!(["a", "c", "d"]));
        assert_eq!(state["positions"], json!(["p", "r", "s"]));
        assert_eq!(
            (state["plies"].as_u64(), state["turn"].as_str()),
            (Some(3), Some("blue"))
        );
        let mut empty = Value::Null;
        assert!(merge(&mut empty, json!({"type": "change", "from": 0})).is_err());
    }

    #[test]
    fn the_running_clock_counts_down_from_the_message() {
        let state = json!({"clock": {"initial_s": 60, "increment_s": 2, "red_ms": 50_000,
                                      "blue_ms": 40_000, "running": "blue"}});
        let clock = clock_of(&state, Instant::now() - Duration::from_millis(1_000)).unwrap();
        assert_eq!(
            (clock.wtime, clock.winc, clock.binc),
            (50_000, 2_000, 2_000)
        );
        assert!((38_900..=39_000).contains(&clock.btime), "{}", clock.btime);
        assert!(clock_of(&json!({"clock": null}), Instant::now()).is_none());
    }

    #[test]
    fn an_engine_declaring_nothing_plays_the_classic_game_only() {
        assert_eq!(catalog_variants(&[]), vec!["classic".to_string()]);
        assert!(catalog_variants(&["all".to_string()]).len() > 5);
    }
}
