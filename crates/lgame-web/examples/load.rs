//! A load run of `lgame serve` (not a test): many concurrent games against the computer on
//! loopback for a bounded time, then the server's memory with many stored games.
//!
//! ```sh
//! cargo build --release -p lgame-cli
//! # 2,000 games, a person's think time of 0.4-0.6 s before each move:
//! cargo run --release -p lgame-web --example load -- --games 2000 --think 400-600 --seconds 30
//! # a closed loop of 200 clients (each sends its next request when the last is answered):
//! cargo run --release -p lgame-web --example load -- --games 200 --seconds 20
//! # two instances on one PostgreSQL database, each client's requests to them in turn:
//! cargo run --release -p lgame-web --example load -- --games 200 --seconds 20 \
//!     --db postgres://lgame@127.0.0.1:5432/load --instances 2   # add --sticky: a client's
//!                                                               # requests all to one
//! ```
//!
//! The client is independent of the server's code: one tokio event loop on one thread (not a
//! thread per game), a plain HTTP/1.1 keep-alive connection per game (and server) written by hand here,
//! JSON read with `serde_json` and legal moves found with the rules library. It prints the
//! move latency (request sent to answer read: the move checked, the computer's reply chosen,
//! both committed) at p50/p99/p99.9/max, the throughput, the CPU time the server and the
//! client used in the run (from /proc/PID/stat), and the server's RSS from /proc/PID/status.
//! `--stored N` then measures memory with N stored games.

use std::io::{BufRead, BufReader as StdBufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lgame::{Position, Rules};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

struct Options {
    bin: PathBuf,
    games: usize,
    seconds: u64,
    stored: usize,
    blue: String,
    synchronous: String,
    dir: PathBuf,
    /// A PostgreSQL database to serve from instead of a fresh SQLite file.
    db: Option<String>,
    /// Server instances on the database; each client sends its requests to them in turn
    /// (a load balancer without sticky routing), or with `--sticky` all to one of them.
    instances: usize,
    sticky: bool,
    /// Milliseconds each client waits before each request (a person thinking), drawn evenly
    /// from this range; 0-0: none (a closed loop).
    think_ms: (u64, u64),
}

fn options() -> Options {
    let mut o = Options {
        bin: PathBuf::from("target/release/lgame"),
        games: 200,
        seconds: 20,
        stored: 0,
        blue: "perfect".into(),
        synchronous: "full".into(),
        think_ms: (0, 0),
        dir: std::env::temp_dir().join(format!("lgame-load-{}", std::process::id())),
        db: None,
        instances: 1,
        sticky: false,
    };
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--sticky") {
        o.sticky = true;
        args.remove(i);
    }
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--bin" => o.bin = value.into(),
            "--games" => o.games = value.parse().expect("--games N"),
            "--seconds" => o.seconds = value.parse().expect("--seconds S"),
            "--stored" => o.stored = value.parse().expect("--stored N"),
            "--blue" => o.blue = value,
            "--synchronous" => o.synchronous = value,
            "--think" => {
                let (lo, hi) = value.split_once('-').unwrap_or((&value, &value));
                o.think_ms = (
                    lo.parse().expect("--think MS or MIN-MAX"),
                    hi.parse().expect("--think MS or MIN-MAX"),
                );
                assert!(
                    o.think_ms.0 <= o.think_ms.1,
                    "--think MIN-MAX with MIN <= MAX"
                );
            }
            "--dir" => o.dir = value.into(),
            "--db" => o.db = Some(value),
            "--instances" => o.instances = value.parse().expect("--instances N"),
            other => panic!(
                "unknown option {other}: --bin PATH --games N --seconds S --stored N \
                 --blue PLAYER --synchronous full|normal --think MS|MIN-MAX --dir DIR \
                 --db postgres://… --instances N --sticky"
            ),
        }
    }
    assert!(
        o.instances == 1 || o.db.is_some(),
        "--instances N needs a database they share: --db postgres://…"
    );
    assert!(o.instances >= 1, "--instances N with N >= 1");
    o
}

struct Server {
    child: Child,
    addr: String,
    /// The server's standard output, kept open: it writes a second line after the first,
    /// and a closed pipe would make that write fail and the server stop.
    _stdout: StdBufReader<std::process::ChildStdout>,
}

impl Server {
    /// A server on `db`: the PostgreSQL database given, else a file of that name in the
    /// run's folder.
    fn start(o: &Options, db: &str) -> Server {
        let db = match &o.db {
            Some(url) => url.into(),
            None => o.dir.join(db).into_os_string(),
        };
        let mut child = Command::new(&o.bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--create-limit", "0"])
            .args(["--synchronous", &o.synchronous, "--db"])
            .arg(db)
            .env("RUST_LOG", "warn,lgame_web::store=info")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("{}: {e} (build it: cargo build --release)", o.bin.display())
            });
        let mut stdout = StdBufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap()
            .to_string();
        Server {
            child,
            addr,
            _stdout: stdout,
        }
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

    /// SIGTERM (so the server logs its writes and checkpoints), then waits.
    fn stop(mut self) {
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// User plus system CPU seconds a process has used (fields 14 and 15 of /proc/PID/stat).
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The command name, in parentheses, may hold spaces: count fields after it.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // USER_HZ is 100 on Linux.
    ticks / 100.0
}

/// One HTTP/1.1 keep-alive connection.
struct Http {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: &str) -> Http {
        Http {
            addr: addr.to_string(),
            conn: None,
        }
    }

    /// Sends a request and reads the answer: its status and JSON body. A connection the
    /// server closed is opened again for the next request.
    async fn request(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        match self.try_request(method, path, body).await {
            Ok(answer) => answer,
            Err(e) => {
                self.conn = None;
                panic!("{method} {path}: {e}")
            }
        }
    }

    async fn try_request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Value)> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(&self.addr).await?;
            stream.set_nodelay(true)?;
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut().unwrap();
        let body = body.map(Value::to_string).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        conn.get_mut()
            .write_all(format!("{head}{body}").as_bytes())
            .await?;
        let mut line = String::new();
        conn.read_line(&mut line).await?;
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("status line {line:?}")))?;
        let mut length = 0;
        let mut close = false;
        loop {
            line.clear();
            if conn.read_line(&mut line).await? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                let value = value.trim();
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.parse().map_err(std::io::Error::other)?;
                } else if name.eq_ignore_ascii_case("connection") && value == "close" {
                    close = true;
                }
            }
        }
        let mut bytes = vec![0; length];
        conn.read_exact(&mut bytes).await?;
        if close {
            self.conn = None;
        }
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, value))
    }

    /// A POST that must succeed.
    async fn post(&mut self, path: &str, body: Value) -> Value {
        let (status, answer) = self.request("POST", path, Some(&body)).await;
        assert!(
            (200..300).contains(&status),
            "POST {path}: {status} {answer}"
        );
        answer
    }
}

fn legal_move(state: &Value, pick: u64) -> String {
    let rules: Rules = state["variant"].as_str().unwrap().parse().unwrap();
    let position = Position::from_text(state["position"].as_str().unwrap(), &rules).unwrap();
    let moves = position.legal_moves();
    moves[(pick % moves.len() as u64) as usize].to_string()
}

/// A small random number generator (xorshift): the client's choices, reproducible.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A think time drawn evenly from the range.
    fn think(&mut self, (lo, hi): (u64, u64)) -> Duration {
        Duration::from_millis(lo + self.next() % (hi - lo + 1))
    }
}

#[derive(Default)]
struct Tally {
    moves: Vec<Duration>,
    creates: Vec<Duration>,
    plies: u64,
}

/// One client: games against the computer, one after another, until the deadline, thinking
/// before each request; its requests go to the servers at `addrs` in turn.
async fn client(
    addrs: Vec<String>,
    blue: String,
    seed: u64,
    deadline: Instant,
    think: (u64, u64),
    sticky: bool,
) -> Tally {
    let mut servers: Vec<Http> = addrs.iter().map(|addr| Http::new(addr)).collect();
    let mut turn = seed as usize;
    let mut next = move || {
        turn = turn.wrapping_add(usize::from(!sticky));
        turn % addrs.len()
    };
    let mut tally = Tally::default();
    let mut random = Random(seed | 1);
    let pause = |random: &mut Random| {
        let wait = random.think(think);
        async move {
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
        }
    };
    // Clients start spread over one think time, not all at once.
    if think.1 > 0 {
        tokio::time::sleep(Duration::from_millis(random.next() % think.1)).await;
    }
    while Instant::now() < deadline {
        let sent = Instant::now();
        let game = servers[next()]
            .post("/api/games", json!({ "red": "human", "blue": blue }))
            .await;
        tally.creates.push(sent.elapsed());
        let id = game["id"].as_str().unwrap();
        let token = game["players"]["red"]["token"].as_str().unwrap();
        let path = format!("/api/games/{id}/moves");
        let mut state = game["state"].clone();
        while state["over"] == false {
            pause(&mut random).await;
            if Instant::now() >= deadline {
                return tally;
            }
            let ply = state["plies"].as_u64().unwrap();
            let mv = legal_move(&state, random.next());
            let sent = Instant::now();
            state = servers[next()]
                .post(&path, json!({ "token": token, "ply": ply + 1, "move": mv }))
                .await;
            tally.moves.push(sent.elapsed());
            tally.plies += state["plies"].as_u64().unwrap() - ply;
        }
        pause(&mut random).await;
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

fn latency_line(what: &str, mut latencies: Vec<Duration>) -> String {
    latencies.sort();
    format!(
        "{what} latency: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms ({} requests)",
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        percentile(&latencies, 0.999),
        percentile(&latencies, 1.0),
        latencies.len()
    )
}

/// Creates games (each with one move) until `target` are stored, 16 at a time.
async fn fill(addr: &str, blue: &str, target: usize) {
    let workers: Vec<_> = (0..16)
        .map(|w| {
            let (addr, blue) = (addr.to_string(), blue.to_string());
            tokio::spawn(async move {
                let mut http = Http::new(&addr);
                for i in (w..target).step_by(16) {
                    let game = http
                        .post("/api/games", json!({ "red": "human", "blue": blue }))
                        .await;
                    let id = game["id"].as_str().unwrap();
                    let token = game["players"]["red"]["token"].as_str().unwrap();
                    let mv = legal_move(&game["state"], i as u64);
                    http.post(
                        &format!("/api/games/{id}/moves"),
                        json!({ "token": token, "ply": 1, "move": mv }),
                    )
                    .await;
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
}

async fn run(o: Options) {
    let servers: Vec<Server> = (0..o.instances)
        .map(|_| Server::start(&o, "load.db"))
        .collect();
    let pids: Vec<String> = servers.iter().map(|s| s.child.id().to_string()).collect();
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let server_cpu_now = || pids.iter().map(|pid| cpu_seconds(pid)).sum::<f64>();
    let server = &servers[0];
    println!(
        "servers {addrs:?} (pids {pids:?}), database {}, synchronous={}",
        o.db.clone().unwrap_or_else(|| o.dir.display().to_string()),
        o.synchronous
    );
    let (rss, _) = server.memory();
    println!("RSS at start: {rss:.1} MiB");
    // The computer's table is solved on first use: not part of the measurement.
    for addr in &addrs {
        Http::new(addr)
            .post("/api/games", json!({ "red": "human", "blue": o.blue }))
            .await;
    }

    // 1. Concurrent games against the computer.
    let (server_cpu, client_cpu) = (server_cpu_now(), cpu_seconds("self"));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(o.seconds);
    let clients: Vec<_> = (0..o.games)
        .map(|i| {
            let seed = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tokio::spawn(client(
                addrs.clone(),
                o.blue.clone(),
                seed,
                deadline,
                o.think_ms,
                o.sticky,
            ))
        })
        .collect();
    let mut tally = Tally::default();
    for c in clients {
        let t = c.await.expect("no client failed");
        tally.moves.extend(t.moves);
        tally.creates.extend(t.creates);
        tally.plies += t.plies;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let (server_cpu, client_cpu) = (
        server_cpu_now() - server_cpu,
        cpu_seconds("self") - client_cpu,
    );
    let (moves, games) = (tally.moves.len(), tally.creates.len());
    println!(
        "{} concurrent games against '{}', think {}-{} ms, for {elapsed:.1} s: {games} games \
         created, {moves} move requests, {} plies stored",
        o.games, o.blue, o.think_ms.0, o.think_ms.1, tally.plies
    );
    println!("{}", latency_line("move", tally.moves));
    println!("{}", latency_line("create", tally.creates));
    println!(
        "throughput: {:.0} move requests/s, {:.0} games created/s, {:.0} plies stored/s",
        moves as f64 / elapsed,
        games as f64 / elapsed,
        tally.plies as f64 / elapsed
    );
    println!(
        "CPU: server{} {server_cpu:.1} s ({:.0}% of one core), client {client_cpu:.1} s ({:.0}%)",
        if servers.len() > 1 {
            "s (together)"
        } else {
            ""
        },
        100.0 * server_cpu / elapsed,
        100.0 * client_cpu / elapsed
    );
    let (rss, hwm) = server.memory();
    println!("RSS after the load: {rss:.1} MiB (peak {hwm:.1} MiB)");
    for server in servers {
        server.stop();
    }

    if o.stored == 0 || o.db.is_some() {
        return;
    }
    // 2. Memory with many stored games, on a fresh database.
    let server = Server::start(&o, "memory.db");
    let filling = Instant::now();
    fill(&server.addr, &o.blue, o.stored).await;
    let (rss, hwm) = server.memory();
    println!(
        "{} games stored, one move each ({:.1} s to create), all in memory: RSS {rss:.1} MiB (peak {hwm:.1} MiB)",
        o.stored,
        filling.elapsed().as_secs_f64()
    );
    server.stop();
    let db_bytes: u64 = ["memory.db", "memory.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(o.dir.join(f)).ok())
        .map(|m| m.len())
        .sum();
    println!("database file: {:.1} MiB", db_bytes as f64 / 1048576.0);

    let server = Server::start(&o, "memory.db");
    tokio::time::sleep(Duration::from_millis(200)).await;
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
    let mut http = Http::new(&server.addr);
    let touching = Instant::now();
    for id in &ids {
        let (status, _) = http.request("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200);
    }
    let (rss, _) = server.memory();
    println!(
        "after reading all {} games once ({:.1} s, each replayed from the database): RSS {rss:.1} MiB",
        ids.len(),
        touching.elapsed().as_secs_f64()
    );
    server.stop();
}

fn main() {
    let o = options();
    let _ = std::fs::remove_dir_all(&o.dir);
    std::fs::create_dir_all(&o.dir).unwrap();
    let dir = o.dir.clone();
    // One event loop on one thread for every game.
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(o));
    let _ = std::fs::remove_dir_all(&dir);
}
