//! Fair play under attack (issue #38): each of the ten attacks of the issue, written as the
//! attacker's script against a server in a process of its own, and what the server does
//! now — the refusal, and nothing else changed (ratings, seats, the other clients'
//! connections). On both backends where the store is involved.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use lgame_test_support::accounts::{Browser, Page};
use lgame_test_support::backends::Backend;
use lgame_test_support::http::quiet_moves;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::{json, Value};
use tungstenite::WebSocket;

const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

const PASSWORD: &str = "Quiet-Lantern-Orbit-71";

/// The longest a test waits for what must come (not a timing assertion: a bound).
const WAIT: Duration = Duration::from_secs(20);

fn bullet() -> Value {
    json!({ "initial_s": 60, "increment_s": 0 })
}

/// Polls `ready` until it holds, for at most [`WAIT`].
fn eventually(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < WAIT, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn ok(page: Page, what: &str) -> Value {
    assert!(
        page.status / 100 == 2,
        "{what}: {} {}",
        page.status,
        page.body
    );
    page.body
}

fn state(browser: &Browser, game: &str) -> Value {
    ok(browser.get(&format!("/api/games/{game}")), "the game")
}

/// The side to move (held by `browser`) plays a quiet move.
fn play(browser: &Browser, game: &str) {
    let now = state(browser, game);
    let body = json!({
        "ply": now["plies"].as_u64().unwrap() + 1,
        "move": quiet_moves(&now)[0],
    });
    ok(
        browser.post(&format!("/api/games/{game}/moves"), &body),
        "a move",
    );
}

/// A player's ratings, as anyone sees them.
fn ratings(browser: &Browser, name: &str) -> Value {
    ok(
        browser.get(&format!("/api/users/{name}/ratings")),
        "ratings",
    )["ratings"]
        .clone()
}

/// A second browser window of the same browser: its cookies, copied.
fn same_browser(browser: &Browser) -> Browser {
    let twin = Browser::new(&browser.addr);
    for name in ["lgame_anon", "lgame_session"] {
        twin.put_cookie(name, browser.cookie(name).as_deref());
    }
    twin
}

/// Two accounts from one browser: `first` signs up, and `second` signs up there too (the
/// first's session kept aside, as a cookie editor would, to play both at once).
fn two_accounts_of_one_browser(addr: &str, first: &str, second: &str) -> (Browser, Browser) {
    let a = Browser::signed_up(addr, first, PASSWORD);
    assert!(
        a.cookie("lgame_anon").is_some(),
        "signing up names the browser"
    );
    let b = same_browser(&a);
    b.put_cookie("lgame_session", None);
    let made = b.post(
        "/api/account",
        &json!({ "username": second, "password": PASSWORD }),
    );
    ok(made, "the second account");
    assert_eq!(a.cookie("lgame_anon"), b.cookie("lgame_anon"));
    (a, b)
}

/// Attack 2: two accounts of one browser farm a rating: one seeks a rated 1+0 game, the
/// other takes it, the first resigns before any move. Before: each such game was rated (33
/// in a second took one account from 1500 to 2024). Now: the two are never paired for a
/// rated game (a seek, quick pairing, a challenge), and a game nobody played rates nobody.
fn ratings_are_not_farmed_by_two_accounts_of_one_browser(backend: Backend) {
    let dir = TempDir::new(&format!("attack-farm-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &[]);
    let addr = &server.addr;
    let (farmer, feeder) = two_accounts_of_one_browser(addr, "farmer", "feeder");
    let stranger = Browser::signed_up(addr, "stranger", PASSWORD);

    // The attacker's loop: a rated seek, taken by the other account. Every take refused;
    // the seek stays open, no game is made, nobody's rating moves.
    let seek = ok(
        farmer.post("/api/seeks", &json!({ "clock": bullet(), "rated": true })),
        "a rated seek",
    );
    let id = seek["id"].as_str().unwrap();
    let mut rated_games = 0;
    for _ in 0..40 {
        let took = feeder.post(&format!("/api/seeks/{id}/accept"), &json!({}));
        if took.status == 201 {
            rated_games += 1;
            continue;
        }
        assert_eq!(
            (took.status, took.kind()),
            (403, "same_browser"),
            "{}",
            took.body
        );
    }
    assert_eq!(
        rated_games, 0,
        "rated games two accounts of one browser played"
    );
    let open = ok(farmer.get(&format!("/api/seeks/{id}")), "the seek");
    assert_eq!(open["status"], "open", "{open}");
    assert_eq!(ok(farmer.get("/api/account/games"), "games")["total"], 0);
    // A casual game between them is theirs to play.
    let casual = ok(
        farmer.post("/api/seeks", &json!({ "clock": bullet(), "rated": false })),
        "a casual seek",
    );
    let casual = casual["id"].as_str().unwrap();
    ok(
        feeder.post(&format!("/api/seeks/{casual}/accept"), &json!({})),
        "a casual game between them",
    );

    // A rated challenge from one to the other (made a bot): refused alike.
    let (owner, bot) = two_accounts_of_one_browser(addr, "botowner", "farmbot");
    ok(bot.post("/api/account/bot", &json!({})), "a bot");
    let challenge = owner.post(
        "/api/challenges/farmbot",
        &json!({ "clock": bullet(), "rated": true }),
    );
    assert_eq!(
        (challenge.status, challenge.kind()),
        (403, "same_browser"),
        "{}",
        challenge.body
    );

    // Quick pairing: both of them and a stranger wait for a rated 1+0; the stranger is
    // paired with one of them, the other waits: never the two together.
    let ticket = |browser: &Browser| {
        let page = browser.post("/api/pairing", &json!({ "control": "1+0", "rated": true }));
        ok(page, "a ticket")["ticket"].as_str().unwrap().to_string()
    };
    let tickets = [ticket(&farmer), ticket(&feeder)];
    let stranger_ticket = ticket(&stranger);
    let status = |browser: &Browser, ticket: &str| {
        ok(
            browser.get(&format!("/api/pairing/{ticket}")),
            "a ticket's status",
        )
    };
    let mut paired = Value::Null;
    eventually("the stranger paired", || {
        let _ = status(&farmer, &tickets[0]);
        let _ = status(&feeder, &tickets[1]);
        paired = status(&stranger, &stranger_ticket);
        paired["status"] == "paired"
    });
    let game = state(&stranger, paired["game"].as_str().unwrap());
    let names = [
        &game["players"]["red"]["name"],
        &game["players"]["blue"]["name"],
    ];
    assert!(names.contains(&&json!("stranger")), "{game}");
    let waiting: Vec<&str> = [(&farmer, &tickets[0]), (&feeder, &tickets[1])]
        .into_iter()
        .filter(|(b, t)| status(b, t)["status"] == "waiting")
        .map(|(_, t)| t.as_str())
        .collect();
    assert_eq!(waiting.len(), 1, "one of the two still waits: {game}");

    // Against the stranger: the paired game resigned before any move, and a game resigned
    // after one side's move, rate nobody; one both sides moved in is rated, once.
    let resign = |browser: &Browser, game: &str| {
        ok(
            browser.post(&format!("/api/games/{game}/resign"), &json!({})),
            "a resignation",
        )
    };
    let ended = resign(&stranger, paired["game"].as_str().unwrap());
    assert_ne!(ended["result"], "*", "{ended}");
    let stranger_game = |what: &str| {
        let seek = stranger.post(
            "/api/seeks",
            &json!({ "clock": bullet(), "rated": true, "colour": "red" }),
        );
        let seek = ok(seek, "the stranger's seek")["id"]
            .as_str()
            .unwrap()
            .to_string();
        let took = farmer.post(&format!("/api/seeks/{seek}/accept"), &json!({}));
        ok(took, what)["id"].as_str().unwrap().to_string()
    };
    let early = stranger_game("a rated game with a stranger");
    play(&stranger, &early);
    assert_eq!(resign(&stranger, &early)["result"], "0-1");
    for name in ["farmer", "feeder", "stranger"] {
        assert_eq!(ratings(&stranger, name), json!([]), "{name} is not rated");
    }
    let real = stranger_game("a real rated game");
    play(&stranger, &real);
    play(&farmer, &real);
    resign(&stranger, &real);
    let farmer_rating = ratings(&stranger, "farmer");
    assert_eq!(farmer_rating[0]["games"], 1, "{farmer_rating}");
    assert_eq!(ratings(&stranger, "feeder"), json!([]));
}

on_both_backends!(ratings_are_not_farmed_by_two_accounts_of_one_browser);

#[allow(dead_code)]
fn socket_closed(socket: &mut WebSocket<TcpStream>) -> bool {
    loop {
        match socket.read() {
            Ok(tungstenite::Message::Close(_)) | Err(_) => return true,
            Ok(_) => continue,
        }
    }
}
