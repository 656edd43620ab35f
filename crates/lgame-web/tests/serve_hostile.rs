//! Slow and dishonest clients (docs/server.md, "Slow and hostile clients"): heads sent
//! halfway, bodies declared and never sent, idle keep-alive connections, every connection
//! slot taken, a stop with clients that never finish; and, on the server in a process of its
//! own (lgame-web's test server), eleven hundred half-sent requests under a limit of 1,024
//! descriptors, and a real SIGTERM with clients that never finish.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use lgame_test_support::raw::{closed_within, half_sent, read_response, send};
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::server::Server;
use lgame_test_support::TempDir;

const GET_HEALTH: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";

#[test]
fn a_declared_body_over_the_limit_is_refused_within_a_second() {
    let dir = TempDir::new("huge");
    let server = Server::start(dir.db());
    let started = Instant::now();
    let mut stream = send(
        &server.addr,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 10000000000\r\n\r\n{\"red\":",
    );
    let (status, body) =
        read_response(&mut stream, Duration::from_secs(1)).expect("an answer within a second");
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("too large (at most 65536 bytes)"), "{body}");
    assert!(
        closed_within(&mut stream, Duration::from_secs(5)),
        "the rest of the body is not waited for"
    );
}

#[test]
fn a_body_over_the_limit_sent_in_chunks_is_refused() {
    let dir = TempDir::new("chunked");
    let server = Server::start(dir.db());
    let mut request = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Transfer-Encoding: chunked\r\n\r\n"
        .to_vec();
    for _ in 0..5 {
        request.extend_from_slice(format!("{:x}\r\n", 20_000).as_bytes());
        request.extend(std::iter::repeat_n(b' ', 20_000));
        request.extend_from_slice(b"\r\n");
    }
    let mut stream = send(&server.addr, &request);
    let (status, body) = read_response(&mut stream, Duration::from_secs(30)).expect("an answer");
    assert_eq!(status, 413, "{body}");
}

#[test]
fn a_body_that_does_not_arrive_is_refused_after_the_body_limit() {
    let dir = TempDir::new("slowbody");
    let server = Server::with(dir.db(), |c| c.connections.body = Duration::from_secs(1));
    let mut stream = send(
        &server.addr,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 40\r\n\r\n{\"red\":",
    );
    let (status, body) = read_response(&mut stream, Duration::from_secs(30)).expect("an answer");
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("did not arrive within 1 s"), "{body}");
    // Honest bodies still go through the same reading.
    let created = server.request(
        "POST",
        "/api/games",
        Some(r#"{"red":"human","blue":"human"}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
}

#[test]
fn a_head_trickled_byte_by_byte_is_cut_at_the_head_limit() {
    let dir = TempDir::new("slowloris");
    let server = Server::with(dir.db(), |c| {
        c.connections.head = Duration::from_secs(1);
        c.connections.idle = Duration::from_secs(600);
    });
    let mut stream = send(&server.addr, b"GET /healthz HTTP/1.1\r\n");
    // A byte every 200 ms keeps the connection busy, never finishing the head.
    let (done, stop) = mpsc::channel::<()>();
    let mut writer = stream.try_clone().unwrap();
    let trickle = std::thread::spawn(move || {
        use std::io::Write;
        while stop.recv_timeout(Duration::from_millis(200)).is_err() {
            if writer.write_all(b"X").is_err() {
                break;
            }
        }
    });
    let closed = closed_within(&mut stream, Duration::from_secs(20));
    drop(done);
    trickle.join().unwrap();
    assert!(closed, "a head that never ends is cut (head limit 1 s)");
}

#[test]
fn an_idle_keep_alive_connection_is_closed_after_the_idle_limit() {
    let dir = TempDir::new("idle");
    let server = Server::with(dir.db(), |c| {
        c.connections.idle = Duration::from_secs(1);
        c.connections.head = Duration::from_secs(600);
    });
    let mut stream = send(&server.addr, GET_HEALTH);
    let limit = Duration::from_secs(30);
    assert_eq!(read_response(&mut stream, limit).unwrap().0, 200);
    // Kept alive: a second request on the same connection.
    std::io::Write::write_all(&mut stream, GET_HEALTH).unwrap();
    assert_eq!(read_response(&mut stream, limit).unwrap().0, 200);
    assert!(
        closed_within(&mut stream, Duration::from_secs(20)),
        "closed once idle for 1 s"
    );
}

#[test]
fn with_every_connection_slot_held_by_half_sent_heads_healthz_still_answers() {
    let dir = TempDir::new("full");
    // Heads may take a minute: only the pressure of a full house frees a slot sooner.
    let server = Server::with(dir.db(), |c| {
        c.connections.max_connections = 20;
        c.connections.head = Duration::from_secs(60);
    });
    let mut held: Vec<_> = (0..20).map(|_| half_sent(&server.addr)).collect();
    let mut stream = send(&server.addr, GET_HEALTH);
    let (status, body) =
        read_response(&mut stream, Duration::from_secs(30)).expect("/healthz answers");
    assert_eq!(status, 200, "{body}");
    // The half-sent heads were the ones dropped to make room.
    let mut dropped = 0;
    for stream in &mut held {
        dropped += usize::from(closed_within(stream, Duration::from_secs(5)));
    }
    assert!(dropped >= 1, "a half-sent head gave its slot");
}

#[test]
fn a_stop_with_clients_that_never_finish_ends_at_its_deadline() {
    let dir = TempDir::new("stop");
    let mut config = lgame_web::Config::new(([127, 0, 0, 1], 0).into(), dir.db());
    config.connections.shutdown = Duration::from_secs(1);
    config.connections.head = Duration::from_secs(600);
    let (bound, addr) = mpsc::channel();
    let (stop, stopping) = tokio::sync::oneshot::channel::<()>();
    let (done, ended) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let server = lgame_web::Server::bind(config).await.unwrap();
            bound
                .send(server.local_addr().unwrap().to_string())
                .unwrap();
            server
                .run(async move {
                    let _ = stopping.await;
                })
                .await
                .unwrap();
        });
        done.send(()).unwrap();
        runtime.shutdown_background();
    });
    let addr = addr.recv_timeout(Duration::from_secs(30)).unwrap();
    let mut half: Vec<_> = (0..10).map(|_| half_sent(&addr)).collect();
    // And a body that never comes, in a request the server has begun.
    half.push(send(
        &addr,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{",
    ));
    std::thread::sleep(Duration::from_millis(200));
    stop.send(()).unwrap();
    ended
        .recv_timeout(Duration::from_secs(10))
        .expect("run returns within the stop's deadline (1 s) and a margin");
    thread.join().unwrap();
    for stream in &mut half {
        assert!(closed_within(stream, Duration::from_secs(5)));
    }
}

/// lgame-web's test server, `lgame_web::run` in a process of its own.
const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

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
        ServeProcess::start_with_descriptors(SERVER, dir.db(), &["head_timeout_s=60"], 1024);
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
    let server = ServeProcess::start(SERVER, dir.db(), &["shutdown_timeout_s=2"]);
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
