//! Solved tables on the server: solving one never holds up play or the other tables, each
//! is solved once however many ask, they are kept within their memory budget, and the
//! requests that read them are rate-limited per client address.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use lgame_test_support::http::{a_legal_move, encode};
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;
use serde_json::{json, Value};

/// An answer read off the wire: status, headers (names in lower case) and body.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path` from the local address `from` (any of 127.0.0.0/8 reaches a loopback
/// server), on a connection of its own, waiting up to `patience` for the answer.
fn get_from(from: IpAddr, server: &str, path: &str, patience: Duration) -> Raw {
    let addr: SocketAddr = server.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        socket.connect(addr).await.unwrap()
    });
    let mut stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(patience)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {server}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Raw {
        status,
        headers,
        body: serde_json::from_str(body).unwrap_or(Value::String(body.into())),
    }
}

fn localhost() -> IpAddr {
    [127, 0, 0, 1].into()
}

fn analysis_path(variant: &str) -> String {
    format!("/api/analysis?variant={}&position=start", encode(variant))
}

/// The table cache's figures from `/healthz`.
fn tables(server: &Server) -> Value {
    let health = server.get("/healthz");
    assert_eq!(health.status, 200);
    health.body["tables"].clone()
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[test]
fn a_classic_move_against_perfect_answers_at_once_while_a_scoring_table_solves() {
    let dir = TempDir::new("tables-busy");
    let server = Server::start(dir.db());
    // The classic table is solved once, at the first game.
    let mut game = server.create(json!({ "red": "human", "blue": "perfect" }));
    // A table that takes seconds to solve, asked for by someone else: scoring with the
    // symmetry rule is solved by the move-graph method (plain scoring is now quick).
    let big = "symmetry,scoring,target=7";
    let addr = server.addr.clone();
    let asker = std::thread::spawn(move || {
        get_from(
            localhost(),
            &addr,
            &analysis_path(big),
            Duration::from_secs(600),
        )
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while tables(&server)["solving"] != 1 {
        assert!(Instant::now() < deadline, "the solve never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut times = Vec::new();
    let mut state = game.body["state"].clone();
    for pick in 0..20 {
        if state["over"] == true {
            game = server.create(json!({ "red": "human", "blue": "perfect" }));
            state = game.body["state"].clone();
        }
        let ply = state["plies"].as_u64().unwrap();
        let mv = a_legal_move(&state, pick * 7 + 3);
        let started = Instant::now();
        let reply = server.play(&game.id, game.red.as_ref().unwrap(), ply + 1, &mv);
        times.push(started.elapsed());
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    // The proof that nothing waited for the big solve: it is still running after all 20
    // answers. The times are printed, never asserted (the machines are noisy).
    assert_eq!(
        tables(&server)["solving"],
        1,
        "the moves were played while the table was being solved"
    );
    let slowest = *times.iter().max().unwrap();
    let middle = median(&mut times);
    eprintln!("classic moves during the solve: median {middle:?}, slowest {slowest:?}");
    let answer = asker.join().unwrap();
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["variant"], big);
    assert_eq!(
        tables(&server)["solves"],
        2,
        "classic, then the scoring table"
    );
}

#[test]
fn many_asking_at_once_for_an_unsolved_table_cause_one_solve() {
    let dir = TempDir::new("tables-once");
    let server = Server::start(dir.db());
    let variant = "neutrals=1,scoring,target=3";
    let answers: Vec<Raw> = std::thread::scope(|s| {
        let askers: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    get_from(
                        localhost(),
                        &server.addr,
                        &analysis_path(variant),
                        Duration::from_secs(300),
                    )
                })
            })
            .collect();
        askers.into_iter().map(|a| a.join().unwrap()).collect()
    });
    for answer in &answers {
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.body, answers[0].body);
    }
    assert_eq!(tables(&server)["solves"], 1);
    // The same pieces with scores at the start, or with the colours swapped and Blue first:
    // the same positions, the same table.
    for setup in ["NRR./.RB./.RB./.BB.:r:1-2", "NBB./.BR./.BR./.RR.:b"] {
        let same = format!("{variant},setup={setup}");
        let answer = server.get(&format!(
            "/api/classes?variant={}&value=loss",
            encode(&same)
        ));
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    assert_eq!(tables(&server)["solves"], 1);
    let other = server.get(&format!(
        "/api/classes?variant={}&value=loss",
        encode(&format!("{variant},setup=kit"))
    ));
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(tables(&server)["solves"], 2, "other pieces, another table");
}

#[test]
fn the_table_cache_stays_within_its_budget_across_40_scoring_variants() {
    let dir = TempDir::new("tables-budget");
    let budget: u64 = 400_000;
    let server = Server::with(dir.db(), |c| c.table_memory = budget);
    let mut variants = Vec::new();
    for setup in ["standard", "kit", "corners", "R.../R..B/RR.B/..BB:r"] {
        for target in 1..=10 {
            variants.push(format!("neutrals=0,scoring,target={target},setup={setup}"));
        }
    }
    let mut most = 0;
    for variant in &variants {
        let answer = server.get(&analysis_path(variant));
        assert_eq!(answer.status, 200, "{variant}: {}", answer.body);
        let held = tables(&server);
        let bytes = held["bytes"].as_u64().unwrap();
        assert!(bytes <= budget, "{variant}: {held}");
        assert_eq!(held["budget"], budget);
        most = most.max(held["held"].as_u64().unwrap());
    }
    let held = tables(&server);
    assert_eq!(held["solves"], 40);
    assert!(
        held["held"].as_u64().unwrap() < 40 && most > 1,
        "some kept, the rest dropped: {held}"
    );
    // The last one asked for is kept; the first, least recently used, was dropped.
    server.get(&analysis_path(&variants[39]));
    assert_eq!(tables(&server)["solves"], 40);
    server.get(&analysis_path(&variants[0]));
    assert_eq!(tables(&server)["solves"], 41);
    // A table larger than the whole budget is refused, not solved.
    let large = server.get(&analysis_path("scoring,target=5"));
    assert_eq!(large.status, 422, "{}", large.body);
    assert!(
        large.error().contains("keeps tables in 400000 bytes"),
        "{}",
        large.error()
    );
    assert_eq!(tables(&server)["solves"], 41);
}

#[test]
fn analysis_is_rate_limited_per_address_and_other_addresses_go_on() {
    let dir = TempDir::new("tables-limit");
    let server = Server::with(dir.db(), |c| c.analysis_limit = 5);
    let ask = |from: [u8; 4], path: &str| {
        get_from(from.into(), &server.addr, path, Duration::from_secs(60))
    };
    let classic = analysis_path("classic");
    for _ in 0..3 {
        assert_eq!(ask([127, 0, 0, 1], &classic).status, 200);
    }
    // Classes count too.
    for _ in 0..2 {
        let answer = ask([127, 0, 0, 1], "/api/classes?value=loss");
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    let refused = ask([127, 0, 0, 1], &classic);
    assert_eq!(refused.status, 429, "{}", refused.body);
    let error = refused.body["error"].as_str().unwrap();
    assert!(
        error.contains("too many analysis and classes requests from this address"),
        "{error}"
    );
    let wait: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=12).contains(&wait),
        "one request comes back every 12 s: {wait}"
    );
    assert_eq!(ask([127, 0, 0, 1], "/api/classes?value=loss").status, 429);
    // Another address is not held back, nor are games from the same one.
    assert_eq!(ask([127, 0, 0, 2], &classic).status, 200);
    let game = server.post("/api/games", &json!({ "red": "human", "blue": "perfect" }));
    assert_eq!(game.status, 201, "{}", game.body);
}

/// The scoring game at its default target (1,836,800 indices, solved in about half a second)
/// on a server with the default table limit: a game against the perfect player is played
/// to its end, and the analysis answers with the value the library gives.
#[test]
fn scoring_to_ten_is_played_against_perfect_and_analysed() {
    let dir = TempDir::new("tables-scoring");
    let server = Server::start(dir.db());
    let catalog = server.get("/api/catalog");
    let scoring = catalog.body["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["rules"] == "scoring")
        .cloned()
        .expect("scoring in the catalog");
    assert_eq!(scoring["solvable"], true, "{scoring}");

    let analysis = server.get(&analysis_path("scoring"));
    assert_eq!(analysis.status, 200, "{}", analysis.body);
    assert_eq!(analysis.body["variant"], "scoring");
    let rules: lgame::Rules = "scoring".parse().unwrap();
    let table = lgame_solver::Tablebase::solve(&rules);
    let start = table.value(&rules.start_position()).unwrap();
    assert_eq!(
        analysis.body["value"],
        start.wdl().name(),
        "{}",
        analysis.body
    );
    assert_eq!(
        analysis.body["plies"],
        json!(start.plies()),
        "{}",
        analysis.body
    );

    let game = server.create(json!({ "red": "human", "blue": "perfect", "variant": "scoring" }));
    let mut state = game.body["state"].clone();
    let position = |state: &Value| {
        lgame::Position::from_text(state["position"].as_str().unwrap(), &rules).unwrap()
    };
    let mut answered = 0;
    for pick in 0..40 {
        if state["over"] == true {
            break;
        }
        let ply = state["plies"].as_u64().unwrap();
        let mv = a_legal_move(&state, pick * 11 + 5);
        let faced = position(&state).play(&mv.parse().unwrap()).unwrap();
        let reply = server.play(&game.id, game.red.as_ref().unwrap(), ply + 1, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
        if state["over"] == true {
            break;
        }
        // The perfect player answered with a move that keeps the value of what it faced.
        assert_eq!(state["plies"].as_u64().unwrap(), ply + 2, "{state}");
        let after = table.value(&position(&state)).unwrap();
        assert_eq!(after.before_move(), table.value(&faced).unwrap(), "{state}");
        answered += 1;
    }
    assert!(answered > 0, "{state}");
}
