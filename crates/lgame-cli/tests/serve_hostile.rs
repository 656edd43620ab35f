//! `lgame serve` against clients that never finish, where it needs a process of its own: a
//! descriptor limit of its own, a real SIGTERM. (The time limits themselves are tested
//! in-process, in lgame-web's `serve_hostile.rs`.)

use lgame_test_support::raw::{half_sent, send};
use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// The server's soft and hard limits on open descriptors, from /proc.
fn descriptor_limits(pid: u32) -> (u64, u64) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let numbers: Vec<u64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn eleven_hundred_half_sent_requests_under_1024_descriptors_and_healthz_answers() {
    let dir = TempDir::new("fds");
    // Heads may take a minute: only the cap and its pressure free the slots sooner.
    let server =
        ServeProcess::start_with_descriptors(LGAME, dir.db(), &["--head-timeout", "60"], 1024);
    assert_eq!(descriptor_limits(server.pid()), (1024, 1024));
    let held: Vec<_> = (0..1100).map(|_| half_sent(&server.addr)).collect();
    let health = server.get("/healthz");
    assert_eq!(health.status, 200, "{}", health.body);
    assert_eq!(health.body["status"], "ok");
    // And it goes on serving.
    let game = server.request(
        "POST",
        "/api/games",
        Some(r#"{"red":"human","blue":"perfect"}"#),
    );
    assert_eq!(game.status, 201, "{}", game.body);
    drop(held);
}

#[test]
fn sigterm_with_half_open_clients_exits_within_the_deadline() {
    let dir = TempDir::new("term");
    let server = ServeProcess::start(LGAME, dir.db(), &["--shutdown-timeout", "2"]);
    let mut held: Vec<_> = (0..20).map(|_| half_sent(&server.addr)).collect();
    // A request begun whose body never comes.
    held.push(send(
        &server.addr,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{",
    ));
    assert_eq!(server.get("/healthz").status, 200);
    // `terminate` waits 10 s at most: the deadline (2 s) and a margin.
    let status = server.terminate();
    assert!(status.success(), "{status}");
    drop(held);
}

#[test]
fn a_connection_limit_of_zero_is_refused() {
    let out = LGAME.run(["serve", "--max-connections", "0"]);
    assert!(!out.status.success());
    let err = lgame_test_support::stderr(&out);
    assert!(err.contains("--max-connections"), "{err}");
}
