//! A load run of the lobby (not a test): many open seeks at once, some of them taken, each
//! seeker watching the lobby's live stream.
//!
//! ```sh
//! cargo build --release -p lgame-cli
//! cargo run --release -p lgame-web --example lobby_load -- --seeks 10000 --takes 1000
//! # on PostgreSQL: --db postgres://USER@HOST/DB
//! ```
//!
//! It starts `lgame serve` on a fresh database; `--seekers` browsers (each its own anonymous
//! identity, its lobby page open) post `--seeks` seeks between them (3+2, colour random);
//! then takers from a pool of threads take `--takes` of them, one after another on each
//! thread. It prints **take → both have the game**: from the take's request to the later of
//! the taker's answer (201) and the seeker's page hearing its game (`{"type": "game"}` on its
//! stream) — p50, p99, max — and how long posting the seeks and one `GET /api/seeks` took.

use std::collections::HashMap;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use lgame_test_support::accounts::Browser;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::{spread, Lgame};
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

struct Options {
    bin: &'static str,
    seeks: usize,
    seekers: usize,
    takes: usize,
    threads: usize,
    db: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        bin: "target/release/lgame",
        seeks: 10_000,
        seekers: 100,
        takes: 1000,
        threads: 8,
        db: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--bin" => o.bin = Box::leak(value().into_boxed_str()),
            "--seeks" => o.seeks = value().parse().expect("--seeks N"),
            "--seekers" => o.seekers = value().parse().expect("--seekers N"),
            "--takes" => o.takes = value().parse().expect("--takes N"),
            "--threads" => o.threads = value().parse().expect("--threads N"),
            "--db" => o.db = Some(value()),
            other => panic!("unknown argument {other}"),
        }
    }
    o
}

/// When each seek's game reached its seeker's page, by seek id.
type Heard = Arc<Mutex<HashMap<String, Instant>>>;

/// Reads a seeker's lobby stream for ever, noting when each of its games is heard.
fn listen(mut socket: WebSocket<TcpStream>, heard: Heard) {
    loop {
        match socket.read() {
            Ok(Message::Text(text)) => {
                let message: Value = serde_json::from_str(&text).unwrap();
                if message["type"] == "game" {
                    let seek = message["seek"].as_str().unwrap_or("").to_string();
                    heard.lock().unwrap().insert(seek, Instant::now());
                }
            }
            Ok(_) => {}
            // The socket's read timeout, while nothing happens: read on.
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return,
        }
    }
}

fn main() {
    let o = options();
    let dir = std::env::temp_dir().join(format!("lgame-lobby-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db =
        o.db.clone()
            .unwrap_or_else(|| dir.join("games.db").display().to_string());
    let limit = o.seeks.to_string();
    let server = ServeProcess::start(
        Program::Lgame(Lgame::new(o.bin)),
        &db,
        &[
            "--create-limit",
            "0",
            "--seek-limit",
            &limit,
            "--max-websockets",
            "10000",
            "--websockets-per-address",
            "10000",
            "--action-limit",
            "seeks=0",
            "--max-connections",
            "20000",
        ],
    );
    println!("{} seeks by {} seekers on {db}", o.seeks, o.seekers);

    // The seekers: a first seek each (their identity), their lobby page, then the rest.
    let heard: Heard = Arc::default();
    let started = Instant::now();
    let per_seeker = o.seeks.div_ceil(o.seekers);
    let (posted, seeks) = mpsc::channel();
    let seekers: Vec<_> = (0..o.seekers)
        .map(|i| {
            let (addr, heard, posted) = (server.addr.clone(), heard.clone(), posted.clone());
            let count = per_seeker.min(o.seeks.saturating_sub(i * per_seeker));
            std::thread::spawn(move || {
                let seeker = Browser::new(&addr);
                for n in 0..count {
                    let page = seeker.post(
                        "/api/seeks",
                        &json!({ "clock": { "initial_s": 180, "increment_s": 2 } }),
                    );
                    assert_eq!(page.status, 201, "{}", page.body);
                    posted
                        .send(page.body["id"].as_str().unwrap().to_string())
                        .unwrap();
                    if n == 0 {
                        let socket = seeker
                            .websocket("/api/lobby/ws")
                            .expect("the lobby's stream");
                        let heard = heard.clone();
                        std::thread::spawn(move || listen(socket, heard));
                    }
                }
            })
        })
        .collect();
    drop(posted);
    for seeker in seekers {
        seeker.join().unwrap();
    }
    let seeks: Vec<String> = seeks.into_iter().collect();
    println!(
        "{} seeks posted in {:.1} s",
        seeks.len(),
        started.elapsed().as_secs_f64()
    );
    let listing = Instant::now();
    let listed = Browser::new(&server.addr).get("/api/seeks");
    println!(
        "GET /api/seeks: {} listed in {} ms",
        listed.body["seeks"].as_array().map_or(0, Vec::len),
        listing.elapsed().as_millis()
    );

    // The takers, each take timed until both sides have the game.
    let seeks = Arc::new(seeks);
    let next = Arc::new(AtomicUsize::new(0));
    let (timed, times) = mpsc::channel();
    let takers: Vec<_> = (0..o.threads)
        .map(|_| {
            let (addr, seeks, next, heard, timed) = (
                server.addr.clone(),
                seeks.clone(),
                next.clone(),
                heard.clone(),
                timed.clone(),
            );
            let takes = o.takes.min(seeks.len());
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= takes {
                    return;
                }
                // Spread over the seekers: every seeker's seeks are in a row.
                let id = &seeks[(i * 7919) % seeks.len()];
                let taker = Browser::new(&addr);
                let asked = Instant::now();
                let page = taker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
                if page.status != 201 {
                    eprintln!("take {id}: {} {}", page.status, page.body);
                    continue;
                }
                let answered = Instant::now();
                let waited = Instant::now();
                let seeker_heard = loop {
                    if let Some(at) = heard.lock().unwrap().get(id.as_str()) {
                        break Some(*at);
                    }
                    if waited.elapsed() > Duration::from_secs(10) {
                        break None;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                };
                match seeker_heard {
                    Some(at) => {
                        let both = at.max(answered);
                        timed
                            .send(both.duration_since(asked).as_millis() as i64)
                            .unwrap();
                    }
                    None => eprintln!("the seeker of {id} never heard of its game"),
                }
            })
        })
        .collect();
    drop(timed);
    for taker in takers {
        taker.join().unwrap();
    }
    println!(
        "{}",
        spread("take -> both have the game", times.into_iter().collect())
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
