//! A load run of `lgame serve` (not a test): many concurrent games against the computer on
//! loopback for a bounded time, then the server's memory with many stored games.
//!
//! ```sh
//! cargo build --release -p lgame-cli
//! cargo run --release -p lgame-web --example load -- --games 200 --seconds 20 --stored 10000
//! ```
//!
//! Prints the move latency (request to answer: the move checked, the computer's reply
//! chosen, both committed) at p50/p99, the throughput, and the server's RSS from
//! /proc/PID/status.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use lgame::{Position, Rules};
use serde_json::{json, Value};

struct Options {
    bin: PathBuf,
    games: usize,
    seconds: u64,
    stored: usize,
    blue: String,
    synchronous: String,
    dir: PathBuf,
    /// Milliseconds each client waits before each move (a person thinking); 0: none.
    think_ms: u64,
}

fn options() -> Options {
    let mut o = Options {
        bin: PathBuf::from("target/release/lgame"),
        games: 200,
        seconds: 20,
        stored: 10_000,
        blue: "perfect".into(),
        synchronous: "full".into(),
        think_ms: 0,
        dir: std::env::temp_dir().join(format!("lgame-load-{}", std::process::id())),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--bin" => o.bin = value.into(),
            "--games" => o.games = value.parse().expect("--games N"),
            "--seconds" => o.seconds = value.parse().expect("--seconds S"),
            "--stored" => o.stored = value.parse().expect("--stored N"),
            "--blue" => o.blue = value,
            "--synchronous" => o.synchronous = value,
            "--think" => o.think_ms = value.parse().expect("--think MS"),
            "--dir" => o.dir = value.into(),
            other => panic!(
                "unknown option {other}: --bin PATH --games N --seconds S --stored N \
                 --blue PLAYER --synchronous full|normal --think MS --dir DIR"
            ),
        }
    }
    o
}

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(o: &Options, db: &str) -> Server {
        let mut child = Command::new(&o.bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--create-limit", "0"])
            .args(["--synchronous", &o.synchronous, "--db"])
            .arg(o.dir.join(db))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("{}: {e} (build it: cargo build --release)", o.bin.display())
            });
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap()
            .to_string();
        Server { child, base }
    }

    /// VmRSS and VmHWM in MiB.
    fn memory(&self) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| -> f64 {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
                .unwrap_or(0.0)
                / 1024.0
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(agent: &ureq::Agent, url: &str, body: Value) -> Value {
    match agent.post(url).send_json(body) {
        Ok(r) => r.into_json().unwrap(),
        Err(ureq::Error::Status(code, r)) => panic!("{url}: {code} {}", r.into_string().unwrap()),
        Err(e) => panic!("{url}: {e}"),
    }
}

fn legal_move(state: &Value, pick: usize) -> String {
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let position = Position::from_text(state["position"].as_str().unwrap(), &rules).unwrap();
    let moves = position.legal_moves();
    moves[pick % moves.len()].to_string()
}

struct Tally {
    latencies: Vec<Duration>,
    plies: u64,
    games: u64,
}

/// One client: games against the computer, one after another, until the deadline.
fn client(base: &str, blue: &str, seed: usize, deadline: Instant, think: Duration) -> Tally {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .build();
    let mut tally = Tally {
        latencies: Vec::new(),
        plies: 0,
        games: 0,
    };
    let mut pick = seed;
    while Instant::now() < deadline {
        let game = post(
            &agent,
            &format!("{base}/api/games"),
            json!({ "red": "human", "blue": blue }),
        );
        tally.games += 1;
        let id = game["id"].as_str().unwrap();
        let token = game["players"]["red"]["token"].as_str().unwrap();
        let url = format!("{base}/api/games/{id}/moves");
        let mut state = game["state"].clone();
        while state["over"] == false && Instant::now() < deadline {
            let ply = state["plies"].as_u64().unwrap();
            pick = pick
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = legal_move(&state, pick >> 33);
            std::thread::sleep(think);
            let sent = Instant::now();
            state = post(
                &agent,
                &url,
                json!({ "token": token, "ply": ply + 1, "move": mv }),
            );
            tally.latencies.push(sent.elapsed());
            tally.plies += state["plies"].as_u64().unwrap() - ply;
        }
    }
    tally
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// Creates games (each with one move) until `target` are stored.
fn fill(base: &str, blue: &str, target: usize, have: usize) {
    let need = target.saturating_sub(have);
    let threads = 8;
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let (base, blue) = (base.to_string(), blue.to_string());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new().build();
                for i in (t..need).step_by(threads) {
                    let game = post(
                        &agent,
                        &format!("{base}/api/games"),
                        json!({ "red": "human", "blue": blue }),
                    );
                    let id = game["id"].as_str().unwrap();
                    let token = game["players"]["red"]["token"].as_str().unwrap();
                    let mv = legal_move(&game["state"], i);
                    post(
                        &agent,
                        &format!("{base}/api/games/{id}/moves"),
                        json!({ "token": token, "ply": 1, "move": mv }),
                    );
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
}

fn main() {
    let o = options();
    let _ = std::fs::remove_dir_all(&o.dir);
    std::fs::create_dir_all(&o.dir).unwrap();
    let server = Server::start(&o, "load.db");
    println!(
        "server {} (pid {}), database {}, synchronous={}",
        server.base,
        server.child.id(),
        o.dir.display(),
        o.synchronous
    );
    let (rss, _) = server.memory();
    println!("RSS at start: {rss:.1} MiB");

    // 1. Concurrent games against the computer.
    let barrier = Arc::new(Barrier::new(o.games + 1));
    let deadline_cell = Arc::new(std::sync::OnceLock::new());
    let clients: Vec<_> = (0..o.games)
        .map(|i| {
            let think = Duration::from_millis(o.think_ms);
            let (barrier, deadline, base, blue) = (
                barrier.clone(),
                deadline_cell.clone(),
                server.base.clone(),
                o.blue.clone(),
            );
            std::thread::spawn(move || {
                barrier.wait();
                client(&base, &blue, i * 7919 + 1, *deadline.get().unwrap(), think)
            })
        })
        .collect();
    let started = Instant::now();
    deadline_cell
        .set(started + Duration::from_secs(o.seconds))
        .unwrap();
    barrier.wait();
    let tallies: Vec<Tally> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies: Vec<Duration> = tallies.iter().flat_map(|t| t.latencies.clone()).collect();
    latencies.sort();
    let plies: u64 = tallies.iter().map(|t| t.plies).sum();
    let games: u64 = tallies.iter().map(|t| t.games).sum();
    println!(
        "{} concurrent clients against '{}' for {elapsed:.1} s: {games} games, {} move requests, {plies} plies stored",
        o.games,
        o.blue,
        latencies.len()
    );
    println!(
        "move latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    println!(
        "throughput: {:.0} move requests/s ({:.0} plies stored/s, computer replies included)",
        latencies.len() as f64 / elapsed,
        plies as f64 / elapsed
    );
    let (rss, hwm) = server.memory();
    println!("RSS after the load: {rss:.1} MiB (peak {hwm:.1} MiB)");

    drop(server);

    // 2. Memory with many stored games, on a fresh database.
    let server = Server::start(&o, "memory.db");
    let filling = Instant::now();
    fill(&server.base, &o.blue, o.stored, 0);
    let (rss, hwm) = server.memory();
    println!(
        "{} games stored, one move each ({:.1} s to create), all in memory: RSS {rss:.1} MiB (peak {hwm:.1} MiB)",
        o.stored,
        filling.elapsed().as_secs_f64()
    );
    drop(server);
    let db_bytes: u64 = ["memory.db", "memory.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(o.dir.join(f)).ok())
        .map(|m| m.len())
        .sum();
    println!("database file: {:.1} MiB", db_bytes as f64 / 1048576.0);

    let server = Server::start(&o, "memory.db");
    std::thread::sleep(Duration::from_millis(200));
    let (rss, _) = server.memory();
    println!("restarted on the database: RSS {rss:.1} MiB (games load on first access)");
    let ids: Vec<String> = {
        // Read-only, beside the running server (WAL allows it).
        let conn = rusqlite::Connection::open(o.dir.join("memory.db")).unwrap();
        let mut stmt = conn.prepare("SELECT id FROM games").unwrap();
        let ids = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        ids
    };
    let agent = ureq::AgentBuilder::new().build();
    let touching = Instant::now();
    for id in &ids {
        agent
            .get(&format!("{}/api/games/{id}", server.base))
            .call()
            .unwrap();
    }
    let (rss, _) = server.memory();
    println!(
        "after reading all {} games once ({:.1} s, each replayed from the database): RSS {rss:.1} MiB",
        ids.len(),
        touching.elapsed().as_secs_f64()
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&o.dir);
}
