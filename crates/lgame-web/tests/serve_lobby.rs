//! The lobby and quick pairing (issue #24), on both backends, through servers in processes
//! of their own: a seek taken by a stranger starts the game for both at once (the seeker
//! told on its live stream); its limits per holder and per address; a seek gone when its
//! page closes (the server's time moved forward, `test_clock=true`); quick pairing pairs two
//! waiting players and no one twice; and, on PostgreSQL, one lobby across two instances: a
//! seek taken by 20 clients at once through both makes exactly one game.

use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::http::{quiet_moves, Client};
use lgame_test_support::postgres::cluster;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

/// Longest wait for something the server does by itself (a sweep, a wave).
const PATIENCE: Duration = Duration::from_secs(10);

fn server(db: &str, extra: &[&str]) -> ServeProcess {
    let mut args = vec!["create_limit=0", "test_clock=true"];
    args.extend_from_slice(extra);
    ServeProcess::start(SERVER, db, &args)
}

fn blitz() -> Value {
    json!({ "initial_s": 180, "increment_s": 2 })
}

/// The next JSON message of a lobby socket (panics after the socket's read timeout).
fn next(socket: &mut WebSocket<TcpStream>) -> Value {
    loop {
        match socket.read().expect("a lobby message") {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(_) => panic!("the lobby socket closed"),
            _ => {}
        }
    }
}

/// The next message of `kind` (skipping others).
fn next_of(socket: &mut WebSocket<TcpStream>, kind: &str) -> Value {
    loop {
        let message = next(socket);
        if message["type"] == kind {
            return message;
        }
    }
}

/// A lobby socket and its first message (the open seeks).
fn lobby(browser: &Browser) -> (WebSocket<TcpStream>, Value) {
    let mut socket = browser
        .websocket("/api/lobby/ws")
        .expect("the lobby's stream");
    let first = next(&mut socket);
    assert_eq!(first["type"], "lobby", "{first}");
    (socket, first)
}

fn listed(browser: &Browser) -> Vec<Value> {
    let page = browser.get("/api/seeks");
    assert_eq!(page.status, 200, "{}", page.body);
    page.body["seeks"].as_array().unwrap().clone()
}

fn advance(server: &Client, ms: i64) {
    let reply = server.post("/api/test/clock", &json!({ "advance_ms": ms }));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

/// Waits until `ready` holds, up to [`PATIENCE`].
fn eventually(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < PATIENCE, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The side to move plays its first quiet move, sent by `browser` with `token` (or its
/// cookies).
fn move_in(browser: &Browser, game: &str, token: Option<&str>) -> u16 {
    let state = browser.get(&format!("/api/games/{game}")).body;
    let mut body = json!({
        "ply": state["plies"].as_u64().unwrap() + 1,
        "move": quiet_moves(&state)[0],
    });
    if let Some(token) = token {
        body["token"] = json!(token);
    }
    browser
        .post(&format!("/api/games/{game}/moves"), &body)
        .status
}

fn a_seek_taken_by_a_stranger_starts_the_game_for_both(backend: Backend) {
    let dir = TempDir::new(&format!("lobby-take-{backend:?}"));
    let server = server(&backend.database(&dir), &[]);
    let (seeker, taker, third) = (
        Browser::new(&server.addr),
        Browser::new(&server.addr),
        Browser::new(&server.addr),
    );
    let (mut watching, first) = lobby(&taker);
    assert_eq!(first["seeks"], json!([]));

    // Bad seeks are refused with the reason.
    for (body, kind) in [
        (
            json!({ "clock": { "initial_s": 5, "increment_s": 0 } }),
            "bad_clock",
        ),
        (json!({ "clock": blitz(), "colour": "green" }), "bad_player"),
        (
            json!({ "clock": blitz(), "variant": "no-such" }),
            "bad_variant",
        ),
        (json!({ "clock": blitz(), "rated": true }), "no_session"),
        (json!({ "colour": "red" }), "bad_request"),
    ] {
        let page = seeker.post("/api/seeks", &body);
        assert_eq!(page.status / 100, 4, "{body}: {}", page.body);
        assert_eq!(page.kind(), kind, "{body}: {}", page.body);
    }

    let page = seeker.post("/api/seeks", &json!({ "clock": blitz(), "colour": "red" }));
    assert_eq!(page.status, 201, "{}", page.body);
    let id = page.body["id"].as_str().unwrap().to_string();
    let token = page.body["token"].as_str().unwrap().to_string();
    assert_eq!(page.body["seek"]["mine"], true);
    assert_eq!(page.body["seek"]["speed"], "blitz");
    let (mut seekers_page, _) = lobby(&seeker);

    // Everyone sees it, live and listed, anonymous and not theirs.
    let added = next_of(&mut watching, "seek");
    assert_eq!(added["seek"]["id"], id.as_str());
    assert_eq!(added["seek"]["mine"], false);
    assert_eq!(added["seek"]["name"], Value::Null);
    assert_eq!(added["seek"]["clock"], blitz());
    let seeks = listed(&third);
    assert_eq!(seeks.len(), 1);
    assert_eq!(seeks[0]["colour"], "red");
    assert!(!serde_json::to_string(&seeks).unwrap().contains(&token));

    // Its own seek is not taken by its seeker; the stranger takes it.
    let own = seeker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!((own.status, own.kind()), (409, "own_seek"), "{}", own.body);
    let took = taker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    let game = took.body["id"].as_str().unwrap().to_string();
    assert_eq!(took.body["state"]["your_sides"], json!(["blue"]));
    assert_eq!(took.body["state"]["clock"]["initial_s"], 180);
    assert!(took.body["players"]["red"].is_null(), "{}", took.body);
    assert!(took.body["players"]["blue"]["token"].is_string());

    // The seeker hears of its game at once; everyone else sees the seek go.
    let told = next_of(&mut seekers_page, "game");
    assert_eq!(told["game"], game.as_str(), "{told}");
    assert_eq!((&told["seek"], &told["side"]), (&json!(id), &json!("red")));
    assert_eq!(next_of(&mut watching, "gone")["id"], id.as_str());
    assert_eq!(listed(&third), Vec::<Value>::new());

    // The seek now names its game; its side only to the seeker.
    let status = seeker.get(&format!("/api/seeks/{id}")).body;
    assert_eq!(
        (&status["status"], &status["game"], &status["side"]),
        (&json!("taken"), &json!(game), &json!("red"))
    );
    let public = third.get(&format!("/api/seeks/{id}")).body;
    assert_eq!(
        (&public["game"], &public["side"]),
        (&json!(game), &Value::Null)
    );
    let late = third.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(
        (late.status, late.kind()),
        (409, "seek_taken"),
        "{}",
        late.body
    );
    let withdraw = seeker.delete(&format!("/api/seeks/{id}"), None);
    assert_eq!((withdraw.status, withdraw.kind()), (409, "seek_taken"));

    // Both play their seats: the seeker by its cookies, or a program by the seek's token;
    // the taker by its cookies; nobody else.
    let state = seeker.get(&format!("/api/games/{game}")).body;
    assert_eq!(state["you"], "red", "{state}");
    assert_eq!(move_in(&third, &game, None), 403);
    assert_eq!(move_in(&third, &game, Some("not-the-token")), 403);
    assert_eq!(
        move_in(&Browser::new(&server.addr), &game, Some(&token)),
        200
    );
    assert_eq!(move_in(&taker, &game, None), 200);
    assert_eq!(move_in(&seeker, &game, None), 200);
}

fn seeks_are_limited_per_holder_and_per_address(backend: Backend) {
    let dir = TempDir::new(&format!("lobby-limits-{backend:?}"));
    let server = server(&backend.database(&dir), &[]);
    let (first, second) = (Browser::new(&server.addr), Browser::new(&server.addr));
    let mut ids = Vec::new();
    for _ in 0..3 {
        let page = first.post("/api/seeks", &json!({ "clock": { "days": 2 } }));
        assert_eq!(page.status, 201, "{}", page.body);
        ids.push(page.body["id"].as_str().unwrap().to_string());
    }
    let fourth = first.post("/api/seeks", &json!({ "clock": { "days": 2 } }));
    assert_eq!(
        (fourth.status, fourth.kind()),
        (409, "too_many_seeks"),
        "{}",
        fourth.body
    );
    // A fresh anonymous identity from the same address does not lift the limit...
    let other = second.post("/api/seeks", &json!({ "clock": { "days": 2 } }));
    assert_eq!(
        (other.status, other.kind()),
        (409, "too_many_seeks"),
        "{}",
        other.body
    );
    // ... nor withdraws another's seek; a seek withdrawn by its seeker makes room.
    let page = second.delete(&format!("/api/seeks/{}", ids[0]), None);
    assert_eq!((page.status, page.kind()), (403, "not_your_seek"));
    let page = first.delete(&format!("/api/seeks/{}", ids[0]), None);
    assert_eq!(page.status, 204, "{}", page.body);
    let gone = second.post(&format!("/api/seeks/{}/accept", ids[0]), &json!({}));
    assert_eq!(
        (gone.status, gone.kind()),
        (410, "seek_gone"),
        "{}",
        gone.body
    );
    let again = second.post("/api/seeks", &json!({ "clock": { "days": 2 } }));
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(listed(&first).len(), 3);
    let unknown = second.get("/api/seeks/0123456789abcdef");
    assert_eq!((unknown.status, unknown.kind()), (404, "no_seek"));
}

fn a_seek_disappears_when_its_page_closes(backend: Backend) {
    let dir = TempDir::new(&format!("lobby-closes-{backend:?}"));
    let server = server(&backend.database(&dir), &[]);
    let (seeker, watcher) = (Browser::new(&server.addr), Browser::new(&server.addr));
    let page = seeker.post("/api/seeks", &json!({ "clock": blitz() }));
    assert_eq!(page.status, 201, "{}", page.body);
    let id = page.body["id"].as_str().unwrap().to_string();
    let (mut socket, first) = lobby(&seeker);
    assert_eq!(first["seeks"][0]["mine"], true, "{first}");
    let (mut watching, _) = lobby(&watcher);

    // While its page is open, the seek stays, however long.
    for _ in 0..3 {
        advance(&server, 20_000);
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(listed(&watcher).len(), 1, "the page is open");
    }
    // Its page closed, it is gone once unseen for 10 s, told to the pages still open.
    socket.close(None).unwrap();
    let _ = socket.flush();
    std::thread::sleep(Duration::from_millis(300));
    advance(&server, 10_500);
    assert_eq!(next_of(&mut watching, "gone")["id"], id.as_str());
    assert_eq!(listed(&watcher), Vec::<Value>::new());
    let status = seeker.get(&format!("/api/seeks/{id}")).body;
    assert_eq!(status["status"], "gone", "{status}");
    let take = watcher.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!((take.status, take.kind()), (410, "seek_gone"));
}

fn quick_pairing_pairs_two_waiting_players_and_no_one_twice(backend: Backend) {
    let dir = TempDir::new(&format!("lobby-pool-{backend:?}"));
    let server = server(&backend.database(&dir), &["seek_limit=20"]);
    let bad = Browser::new(&server.addr).post("/api/pairing", &json!({ "control": "4+0" }));
    assert_eq!((bad.status, bad.kind()), (400, "bad_clock"), "{}", bad.body);
    assert!(bad.body["error"].as_str().unwrap().contains("1+0, 2+1"));

    // Five players wait for 1+0 (one of them asked twice: its first ticket is replaced),
    // one for 3+0.
    let players: Vec<Browser> = (0..6).map(|_| Browser::new(&server.addr)).collect();
    let join = |browser: &Browser, control: &str| {
        let page = browser.post("/api/pairing", &json!({ "control": control }));
        assert_eq!(page.status, 202, "{}", page.body);
        assert_eq!(page.body["status"], "waiting");
        page.body["ticket"].as_str().unwrap().to_string()
    };
    let replaced = join(&players[0], "1+0");
    let mut tickets: Vec<String> = players[..5].iter().map(|p| join(p, "1+0")).collect();
    let alone = join(&players[5], "3+0");
    let page = players[0].get(&format!("/api/pairing/{replaced}"));
    assert_eq!(
        (page.status, page.kind()),
        (410, "ticket_gone"),
        "{}",
        page.body
    );

    // Within a few waves, four of the five are paired, two by two; the fifth waits.
    let status = |i: usize, ticket: &str| players[i].get(&format!("/api/pairing/{ticket}")).body;
    eventually("four paired", || {
        (0..5)
            .filter(|&i| status(i, &tickets[i])["status"] == "paired")
            .count()
            == 4
    });
    std::thread::sleep(Duration::from_millis(2500));
    let answers: Vec<Value> = (0..5).map(|i| status(i, &tickets[i])).collect();
    let paired: Vec<&Value> = answers.iter().filter(|a| a["status"] == "paired").collect();
    assert_eq!(paired.len(), 4, "{answers:?}");
    let mut games: Vec<&str> = paired.iter().map(|a| a["game"].as_str().unwrap()).collect();
    games.sort();
    assert_eq!(games[0], games[1], "{answers:?}");
    assert_eq!(games[2], games[3], "{answers:?}");
    assert_ne!(games[1], games[2], "no one is in two games: {answers:?}");
    for game in [games[0], games[2]] {
        let sides: Vec<&Value> = paired
            .iter()
            .filter(|a| a["game"] == game)
            .map(|a| &a["side"])
            .collect();
        assert_ne!(sides[0], sides[1], "{answers:?}");
        let state = players[0].get(&format!("/api/games/{game}")).body;
        assert_eq!(state["clock"]["initial_s"], 60, "{state}");
        assert_eq!(state["clock"]["increment_s"], 0);
    }
    assert_eq!(status(5, &alone)["status"], "waiting");

    // Each plays its seat by its cookies, or (a program) by its ticket.
    let (i, answer) = answers
        .iter()
        .enumerate()
        .find(|(_, a)| a["status"] == "paired")
        .unwrap();
    let game = answer["game"].as_str().unwrap();
    let mover_first = if answer["side"] == "red" {
        i
    } else {
        (0..5)
            .find(|&j| j != i && answers[j]["game"] == game)
            .unwrap()
    };
    assert_eq!(move_in(&players[mover_first], game, None), 200);
    let second = (0..5)
        .find(|&j| j != mover_first && answers[j]["game"] == game)
        .unwrap();
    let anyone = Browser::new(&server.addr);
    assert_eq!(move_in(&anyone, game, Some(&tickets[second])), 200);

    // The one left waiting leaves; a paired ticket cannot be left.
    let waiting = (0..5).find(|&i| answers[i]["status"] == "waiting").unwrap();
    let page = players[waiting].delete(&format!("/api/pairing/{}", tickets[waiting]), None);
    assert_eq!(page.status, 204, "{}", page.body);
    let page = players[i].delete(&format!("/api/pairing/{}", tickets[i]), None);
    assert_eq!((page.status, page.kind()), (409, "paired"));
    tickets.clear();
    let unknown = anyone.get("/api/pairing/nothing");
    assert_eq!((unknown.status, unknown.kind()), (404, "no_ticket"));
}

on_both_backends!(
    a_seek_taken_by_a_stranger_starts_the_game_for_both,
    seeks_are_limited_per_holder_and_per_address,
    a_seek_disappears_when_its_page_closes,
    quick_pairing_pairs_two_waiting_players_and_no_one_twice,
);

#[test]
fn a_seek_taken_by_20_clients_at_once_through_two_instances_makes_one_game() {
    let cluster = cluster();
    let url = cluster.database("lobby-race");
    let db = url.rsplit('/').next().unwrap().to_string();
    let a = ServeProcess::start(SERVER, &url, &["create_limit=0"]);
    let b = ServeProcess::start(SERVER, &url, &["create_limit=0"]);
    let seeker = Browser::new(&a.addr);
    // A page on the other instance sees the seek of the first's.
    let (mut elsewhere, _) = lobby(&Browser::new(&b.addr));
    let page = seeker.post("/api/seeks", &json!({ "clock": blitz() }));
    assert_eq!(page.status, 201, "{}", page.body);
    let id = page.body["id"].as_str().unwrap().to_string();
    // (The seeker's page listens with the identity its seek gave it.)
    let (mut seekers_page, _) = lobby(&seeker);
    assert_eq!(next_of(&mut elsewhere, "seek")["seek"]["id"], id.as_str());

    let barrier = Arc::new(Barrier::new(20));
    let takers: Vec<_> = (0..20)
        .map(|i| {
            let addr = if i % 2 == 0 {
                a.addr.clone()
            } else {
                b.addr.clone()
            };
            let (barrier, id) = (barrier.clone(), id.clone());
            std::thread::spawn(move || {
                let taker = Browser::new(&addr);
                barrier.wait();
                let page = taker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
                (
                    page.status,
                    page.kind().to_string(),
                    page.body["id"].clone(),
                )
            })
        })
        .collect();
    let answers: Vec<(u16, String, Value)> =
        takers.into_iter().map(|t| t.join().unwrap()).collect();
    let won: Vec<&(u16, String, Value)> = answers.iter().filter(|a| a.0 == 201).collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    for (status, kind, _) in answers.iter().filter(|a| a.0 != 201) {
        assert_eq!((*status, kind.as_str()), (409, "seek_taken"), "{answers:?}");
    }
    let games = cluster.query(&db, "SELECT count(*) FROM games").unwrap();
    assert_eq!(games.trim(), "1");
    // The seeker hears of it whichever instance it was taken through.
    let told = next_of(&mut seekers_page, "game");
    assert_eq!(told["game"], won[0].2, "{told}");
    assert_eq!(next_of(&mut elsewhere, "gone")["id"], id.as_str());
}
