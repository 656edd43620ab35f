//! `lgame serve --metrics-addr`: Debian's Prometheus scrapes the server's metrics and answers
//! PromQL about the requests it served, a refusal by a limit and a game; the public address
//! has no `/metrics`. `--log-format json`: every line of the log is JSON, and a request's
//! id is the one its answer carried.

use std::io::Read;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lgame_test_support::http::{quiet_moves, Client};
use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};
use serde_json::{json, Value};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// A free loopback address (bound, then let go for the program to take).
fn free_addr() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

/// Debian's `prometheus` scraping `target` every second, its storage in `dir`; killed when
/// dropped.
struct Prometheus {
    child: Child,
    addr: String,
    log: std::path::PathBuf,
}

impl Prometheus {
    fn start(dir: &TempDir, target: &str) -> Prometheus {
        let config = dir.join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n\
                 scrape_configs:\n  - job_name: lgame\n    static_configs:\n      \
                 - targets: ['{target}']\n"
            ),
        )
        .unwrap();
        let addr = free_addr();
        let log = dir.join("prometheus.log");
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("prometheus-data").display()
            ))
            .arg(format!("--web.listen-address={addr}"))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::fs::File::create(dir.join("prometheus.err")).unwrap())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "prometheus runs ({e}): install Debian's `prometheus` (cargo xtask test does)"
                )
            });
        Prometheus { child, addr, log }
    }

    /// The value of an instant PromQL query through the HTTP API: the first series' value,
    /// or `None` while there is none (or Prometheus is not up yet).
    fn query(&self, promql: &str) -> Option<f64> {
        let url = format!("http://{}/api/v1/query", self.addr);
        let answer: Value = ureq::get(&url)
            .query("query", promql)
            .call()
            .ok()?
            .into_json()
            .ok()?;
        assert_eq!(answer["status"], "success", "{promql}: {answer}");
        let value = answer["data"]["result"].get(0)?["value"][1].as_str()?;
        value.parse().ok()
    }

    /// Waits (up to 60 s) until `promql` has a value that `expected` accepts; that value.
    fn until(&self, promql: &str, expected: impl Fn(f64) -> bool) -> f64 {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let value = self.query(promql);
            if let Some(value) = value.filter(|v| expected(*v)) {
                return value;
            }
            if Instant::now() > deadline {
                let err = std::fs::read_to_string(self.log.with_extension("err"));
                panic!("{promql} is {value:?} after 60 s; prometheus said: {err:?}");
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two plies of a game between two people.
fn play_two_plies(client: &Client) -> String {
    let game = client.create(json!({"red": "human", "blue": "human"}));
    let mut state = game.body["state"].clone();
    for ply in 1..=2 {
        let mv = quiet_moves(&state)[0].clone();
        let reply = client.play(&game.id, game.token_for(&state), ply, &mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
    }
    game.id
}

#[test]
fn prometheus_scrapes_the_requests_a_refusal_and_a_game() {
    let dir = TempDir::new("metrics-prometheus");
    let metrics = free_addr();
    let server = ServeProcess::start(
        LGAME,
        dir.db(),
        &["--metrics-addr", &metrics, "--create-limit", "2"],
    );
    play_two_plies(&server);
    server.create(json!({"red": "human", "blue": "human"}));
    let refused = server.post("/api/games", &json!({"red": "human", "blue": "human"}));
    assert_eq!(refused.status, 429, "{}", refused.body);

    let prometheus = Prometheus::start(&dir, &metrics);
    let created = r#"lgame_http_requests_total{job="lgame",route="/api/games",status="201"}"#;
    assert_eq!(prometheus.until(created, |n| n > 0.0), 2.0);
    let moves =
        r#"lgame_http_requests_total{route="/api/games/{id}/moves",method="POST",status="200"}"#;
    assert_eq!(prometheus.until(moves, |n| n > 0.0), 2.0);
    let refusals = r#"lgame_limit_refusals_total{limit="games created"}"#;
    assert_eq!(prometheus.until(refusals, |n| n > 0.0), 1.0);
    let too_many = r#"lgame_http_requests_total{route="/api/games",status="429"}"#;
    assert_eq!(prometheus.until(too_many, |n| n > 0.0), 1.0);
    // Latencies as histograms: every request counted in the last bucket.
    let slowest =
        r#"lgame_http_request_duration_seconds_bucket{route="/api/games/{id}/moves",le="+Inf"}"#;
    assert_eq!(prometheus.until(slowest, |n| n > 0.0), 2.0);
    // Two games and two plies written, at least (the server also says it is alive every
    // second).
    prometheus.until("lgame_store_batch_changes_sum", |n| n >= 4.0);
    prometheus.until("lgame_store_commit_seconds_count", |n| n >= 1.0);
    // What the features hold, read at each scrape.
    prometheus.until("lgame_games_in_memory", |n| n == 2.0);
    prometheus.until("lgame_sockets_open", |n| n == 0.0);
    prometheus.until("lgame_seeks_open", |n| n == 0.0);
}

#[test]
fn the_public_address_has_no_metrics() {
    let dir = TempDir::new("metrics-public");
    let metrics = free_addr();
    let server = ServeProcess::start(LGAME, dir.db(), &["--metrics-addr", &metrics]);
    assert_eq!(server.get("/healthz").status, 200);
    let public = server.get_with("/metrics", &[]);
    assert_eq!(public.status, 404, "{}", public.text());
    let private = Client::new(metrics);
    let scraped = private.get_with("/metrics", &[]);
    assert_eq!(scraped.status, 200);
    assert!(scraped
        .header("content-type")
        .starts_with("text/plain; version=0.0.4"));
    let healthz = r#"lgame_http_requests_total{method="GET",route="/healthz",status="200"} 1"#;
    assert!(scraped.text().contains(healthz), "{}", scraped.text());
    // Nothing but the metrics there.
    assert_eq!(private.get_with("/healthz", &[]).status, 404);
}

#[test]
fn the_json_log_has_a_line_per_request_with_the_id_it_answered() {
    let dir = TempDir::new("metrics-json-log");
    let mut child = LGAME
        .command()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--db",
        ])
        .arg(dir.db())
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = lgame_test_support::lines_of(child.stdout.take().unwrap());
    let line = stdout.recv_timeout(Duration::from_secs(30)).unwrap();
    let client = Client::new(line.strip_prefix("listening on http://").unwrap().into());
    let health = client.get_with("/healthz", &[("x-request-id", "forged")]);
    let health_id = health.header("x-request-id").to_string();
    assert!(
        !health_id.is_empty() && health_id != "forged",
        "{health_id:?}"
    );
    client.create(json!({"red": "human", "blue": "human"}));
    let ok = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    child.wait().unwrap();

    let lines: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let requests: Vec<&Value> = lines
        .iter()
        .filter(|l| l["fields"]["message"] == "request")
        .collect();
    let health_line = requests
        .iter()
        .find(|l| l["fields"]["path"] == "/healthz")
        .unwrap_or_else(|| panic!("no /healthz request in {log}"));
    assert_eq!(health_line["fields"]["id"], health_id.as_str());
    assert_eq!(health_line["fields"]["status"], 200);
    // A line logged while a request is handled carries its id too.
    let made = lines
        .iter()
        .find(|l| l["fields"]["message"] == "game created")
        .unwrap_or_else(|| panic!("no game created in {log}"));
    let create_line = requests
        .iter()
        .find(|l| l["fields"]["path"] == "/api/games")
        .unwrap();
    assert_eq!(made["span"]["id"], create_line["fields"]["id"]);
    assert_ne!(create_line["fields"]["id"], health_line["fields"]["id"]);
}
