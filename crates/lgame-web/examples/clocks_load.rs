//! A load run of the server's clocks (not a test): many real-time games at once whose clocks
//! all run out, nobody sending anything, each watched by a WebSocket.
//!
//! ```sh
//! cargo build --release -p lgame-cli
//! cargo run --release -p lgame-web --example clocks_load -- --games 2000
//! # on PostgreSQL: --db postgres://USER@HOST/DB
//! ```
//!
//! It starts `lgame serve` on a fresh database, creates the games (two people, 15 s, no
//! increment) from a pool of threads and plays both first moves of each, so that every Red
//! clock runs, and opens a WebSocket per game at once; then waits. It prints:
//!
//! - **flag latency**: when the game's end reached its watcher, less the deadline the server
//!   named (the answer to Blue's first move, read at T, said Red had `red_ms` left: the
//!   deadline is T + `red_ms` + the 1 s grace) — p50, p99, max, and how many games ended on
//!   time;
//! - **clock agreement**: at each watcher's first message, Red's time as the client reckons
//!   it from that answer (`red_ms` less the time since T) against the figure the server sent
//!   (p50, p99, max of the difference).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use lgame_test_support::http::{quiet_moves, Client};
use lgame_test_support::spread;
use serde_json::{json, Value};

const GRACE_MS: i64 = 1000;
const INITIAL_S: i64 = 15;

struct Options {
    bin: PathBuf,
    games: usize,
    db: Option<String>,
    threads: usize,
}

fn options() -> Options {
    let mut o = Options {
        bin: PathBuf::from("target/release/lgame"),
        games: 2000,
        db: None,
        threads: 16,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--bin" => o.bin = value().into(),
            "--games" => o.games = value().parse().expect("--games N"),
            "--db" => o.db = Some(value()),
            "--threads" => o.threads = value().parse().expect("--threads N"),
            other => panic!("unknown argument {other}"),
        }
    }
    o
}

/// The server, started on `db`; its address.
fn serve(o: &Options, db: &str) -> (Child, String) {
    let mut child = Command::new(&o.bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--create-limit", "0", "--max-websockets", "10000"])
        .args(["--websockets-per-address", "10000"])
        .args(["--max-connections", "20000"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (cargo build --release -p lgame-cli)",
                o.bin.display()
            )
        });
    let mut line = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap()
        .to_string();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (child, addr)
}

/// A game whose Red clock runs: its id, when the answer that started it was read, and
/// Red's time then.
struct Running {
    id: String,
    at: Instant,
    red_ms: i64,
}

/// Creates a game and plays both first moves.
fn start_game(client: &Client) -> Running {
    let created = client.create(json!({
        "red": "human", "blue": "human", "repetition": 0,
        "clock": { "initial_s": INITIAL_S, "increment_s": 0 }
    }));
    let tokens = [created.red.unwrap(), created.blue.unwrap()];
    let mut state = created.body["state"].clone();
    let mut at = Instant::now();
    for (ply, token) in tokens.iter().enumerate() {
        let body = json!({ "token": token, "ply": ply + 1, "move": quiet_moves(&state)[0] });
        let reply = client.post(&format!("/api/games/{}/moves", created.id), &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        at = Instant::now();
        state = reply.body;
    }
    Running {
        id: created.id,
        at,
        red_ms: state["clock"]["red_ms"].as_i64().unwrap(),
    }
}

/// A game's watcher: its first message's Red time against the client's reckoning, then the
/// end's arrival against the deadline the server named.
fn watch(client: &Client, game: Running, heard: &mpsc::Sender<(i64, i64, bool)>) {
    let mut watcher = client.watch(&game.id);
    let first: Value = watcher.next();
    let reckoned = game.red_ms - game.at.elapsed().as_millis() as i64;
    let agreement = (first["clock"]["red_ms"].as_i64().unwrap() - reckoned).abs();
    let deadline = game.red_ms + GRACE_MS;
    let mut state = first;
    while state["over"] != true {
        state = watcher.next();
    }
    let late = game.at.elapsed().as_millis() as i64 - deadline;
    let _ = heard.send((agreement, late, state["ending"] == "time"));
}

fn main() {
    let o = options();
    let dir = std::env::temp_dir().join(format!("lgame-clocks-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db =
        o.db.clone()
            .unwrap_or_else(|| dir.join("games.db").display().to_string());
    let (mut server, addr) = serve(&o, &db);
    println!("{} games of {INITIAL_S}+0 on {db}", o.games);

    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let (heard, results) = mpsc::channel();
    let makers: Vec<_> = (0..o.threads)
        .map(|_| {
            let (next, heard, addr, total) = (next.clone(), heard.clone(), addr.clone(), o.games);
            std::thread::spawn(move || {
                let client = Client::new(addr.clone());
                while next.fetch_add(1, Ordering::Relaxed) < total {
                    let game = start_game(&client);
                    let (heard, client) = (heard.clone(), Client::new(addr.clone()));
                    std::thread::Builder::new()
                        .stack_size(256 * 1024)
                        .spawn(move || watch(&client, game, &heard))
                        .unwrap();
                }
            })
        })
        .collect();
    drop(heard);
    for maker in makers {
        maker.join().unwrap();
    }
    println!(
        "created and started in {:.1} s; every Red clock runs, each game watched",
        started.elapsed().as_secs_f64()
    );
    let (mut agreement, mut late, mut on_time) = (Vec::new(), Vec::new(), 0);
    for (a, l, time) in results {
        agreement.push(a);
        late.push(l);
        on_time += usize::from(time);
    }
    println!("{on_time} of {} games ended on time", late.len());
    println!("{}", spread("flag after the deadline and grace", late));
    println!(
        "{}",
        spread("clock agreement (|server - client|)", agreement)
    );
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
