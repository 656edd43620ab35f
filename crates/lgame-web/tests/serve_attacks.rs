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
    let db = backend.database(&dir);
    let server = ServeProcess::start(SERVER, &db, &[]);
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
    for _ in 0..25 {
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
    // The one paired is told so (its ticket settles a moment after the stranger's); the
    // other still waits.
    let farmer_paired = names.contains(&&json!("farmer"));
    assert!(farmer_paired || names.contains(&&json!("feeder")), "{game}");
    let (paired_one, other) = match farmer_paired {
        true => ((&farmer, &tickets[0]), (&feeder, &tickets[1])),
        false => ((&feeder, &tickets[1]), (&farmer, &tickets[0])),
    };
    eventually("the other ticket paired", || {
        status(paired_one.0, paired_one.1)["status"] == "paired"
    });
    let still = status(other.0, other.1);
    assert_eq!(
        still["status"], "waiting",
        "one of the two still waits: {still} {game}"
    );

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

    // A pair that farms without sharing a browser: the farmer loses nine quick rated games
    // to the stranger. `lgame admin suspects` lists them, with the reasons; the ratings are
    // recomputed without the stranger's games once it is disabled.
    for _ in 0..9 {
        let game = stranger_game("a quick loss");
        play(&stranger, &game);
        play(&farmer, &game);
        resign(&farmer, &game);
    }
    let admin = lgame_web::admin::Admin::open(&db.parse().unwrap())
        .expect("the database, for an administrator");
    let concerns = admin.concerns(5).unwrap();
    let find = |reason: &str| {
        concerns
            .iter()
            .find(|c| c.reason == reason && c.accounts.contains(&"farmer".to_string()))
            .unwrap_or_else(|| panic!("no {reason} in {concerns:?}"))
    };
    assert_eq!(find("mostly_each_other").accounts, ["farmer", "stranger"]);
    assert_eq!(
        find("one_sided").detail,
        "stranger won 9 of their 10 rated games"
    );
    assert_eq!(
        find("fast_losses").detail,
        "9 of 10 rated games lost within 6 plies"
    );
    assert!(find("shared_address").detail.contains("127.0.0.1"));
    admin.set_disabled("stranger", true).unwrap();
    let (games, _) = admin.recompute_ratings(true).unwrap();
    assert_eq!(games, 0, "every rated game was the stranger's");
    assert_eq!(ratings(&feeder, "farmer"), json!([]));
    assert_eq!(
        admin.check_ratings().unwrap().problems,
        Vec::<String>::new()
    );
}

on_both_backends!(ratings_are_not_farmed_by_two_accounts_of_one_browser);

/// A WebSocket to `path` from client address `from` (the test server trusts 127.0.0.1 as
/// its proxy), with `browser`'s cookies if any: the socket, or the status it was refused
/// with.
fn socket(
    addr: &str,
    path: &str,
    from: &str,
    browser: Option<&Browser>,
) -> Result<WebSocket<TcpStream>, u16> {
    use tungstenite::client::IntoClientRequest;
    use tungstenite::http::HeaderValue;
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    let headers = request.headers_mut();
    headers.insert("x-forwarded-for", HeaderValue::from_str(from).unwrap());
    if let Some(browser) = browser {
        let cookies: Vec<String> = ["lgame_anon", "lgame_session"]
            .into_iter()
            .filter_map(|name| browser.cookie(name).map(|v| format!("{name}={v}")))
            .collect();
        headers.insert(
            "cookie",
            HeaderValue::from_str(&cookies.join("; ")).unwrap(),
        );
        let origin = HeaderValue::from_str(&format!("http://{addr}")).unwrap();
        headers.insert("origin", origin);
    }
    match tungstenite::client(request, stream) {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            Err(response.status().as_u16())
        }
        Err(e) => panic!("WebSocket {path}: {e}"),
    }
}

/// Whether the server has ended the socket (messages before the end are read and skipped).
fn ended(socket: &mut WebSocket<TcpStream>) -> bool {
    loop {
        match socket.read() {
            Ok(tungstenite::Message::Close(_)) => return true,
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

/// Whether the socket is open: it answers a ping.
fn alive(socket: &mut WebSocket<TcpStream>) -> bool {
    if socket
        .send(tungstenite::Message::Ping(vec![7].into()))
        .is_err()
    {
        return false;
    }
    loop {
        match socket.read() {
            Ok(tungstenite::Message::Pong(_)) => return true,
            Ok(tungstenite::Message::Close(_)) | Err(_) => return false,
            Ok(_) => continue,
        }
    }
}

/// Attack 1: one address opens WebSockets until the server is full, so that every other
/// client's game and lobby sockets are refused and the victim, counted absent, loses its
/// game to the opponent's claim. Before: one address held all 1,000 places. Now: one
/// address holds at most its own limit (here 16), one identity its own (here 8); others
/// still come in; a player's socket to their own game is always admitted, taking the
/// place of the same client's oldest page, and the claim is refused: the victim is here.
#[test]
fn one_address_cannot_take_every_websocket_nor_make_a_player_absent() {
    let dir = TempDir::new("attack-sockets");
    let server = ServeProcess::start(
        SERVER,
        dir.db(),
        &[
            "create_limit=0",
            "test_clock=true",
            "trusted_proxy=127.0.0.1",
            "max_websockets=40",
            "websockets_per_address=16",
            "websockets_per_identity=4",
        ],
    );
    let addr = &server.addr;
    let victim = Browser::signed_up(addr, "victim", PASSWORD);
    let opponent = Browser::signed_up(addr, "opponent", PASSWORD);
    let seek = ok(
        opponent.post("/api/seeks", &json!({ "clock": bullet(), "colour": "red" })),
        "a seek",
    );
    let took = victim.post(
        &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
        &json!({}),
    );
    let game = ok(took, "the game")["id"].as_str().unwrap().to_string();
    for player in [&opponent, &victim, &opponent] {
        play(player, &game);
    }
    let game_ws = format!("/api/games/{game}/ws");

    // The attacker's loop, from one address: sockets until refused.
    let mut held = Vec::new();
    let refused = loop {
        match socket(addr, &game_ws, "10.6.6.6", None) {
            Ok(s) => held.push(s),
            Err(status) => break status,
        }
        assert!(held.len() <= 1000, "never refused");
    };
    assert_eq!(
        (held.len(), refused),
        (16, 429),
        "sockets one address can hold"
    );
    // Another client still comes in: the victim's lobby page.
    let mut lobby = socket(addr, "/api/lobby/ws", "10.0.0.1", Some(&victim)).expect("the lobby");
    assert!(alive(&mut lobby));
    // One identity from many addresses: its own limit.
    let roamer = Browser::signed_up(addr, "roamer", PASSWORD);
    let roaming: Vec<_> = (1..=4)
        .map(|n| socket(addr, &game_ws, &format!("10.7.0.{n}"), Some(&roamer)).expect("a page"))
        .collect();
    let refused = socket(addr, &game_ws, "10.7.0.9", Some(&roamer)).err();
    assert_eq!(refused, Some(429), "one identity past its limit");
    // The victim's own pages fill its identity's places.
    let mut pages: Vec<_> = (0..3)
        .map(|_| socket(addr, "/api/lobby/ws", "10.0.0.1", Some(&victim)).expect("a page"))
        .collect();
    assert_eq!(
        socket(addr, "/api/lobby/ws", "10.0.0.1", Some(&victim)).err(),
        Some(429)
    );
    // Many addresses together fill the server: now only seats come in.
    for n in 1.. {
        match socket(addr, &game_ws, &format!("10.8.0.{n}"), None) {
            Ok(s) => held.push(s),
            Err(status) => {
                assert_eq!(status, 503, "the server full");
                break;
            }
        }
    }
    // The victim's game's socket comes in all the same, taking the place of its oldest
    // page (the lobby's).
    let mut seat = socket(addr, &game_ws, "10.0.0.1", Some(&victim)).expect("the victim's seat");
    assert!(alive(&mut seat));
    assert!(ended(&mut lobby), "the victim's oldest page gave its place");
    assert!(
        pages.iter_mut().all(alive),
        "the victim's other pages are open"
    );
    // The opponent waits out the 15 s and claims: refused, the victim is here.
    let advanced = opponent.post("/api/test/clock", &json!({ "advance_ms": 20_000 }));
    ok(advanced, "the clock moved");
    let claim = opponent.post(
        &format!("/api/games/{game}/claim"),
        &json!({ "result": "win" }),
    );
    assert_eq!(
        (claim.status, claim.kind()),
        (409, "opponent_here"),
        "{}",
        claim.body
    );
    let now = state(&victim, &game);
    assert_eq!(
        (&now["over"], &now["plies"]),
        (&json!(false), &json!(3)),
        "{now}"
    );
    // Nothing else changed: the attacker's and the roamer's sockets are open.
    assert!(held.iter_mut().take(3).all(alive));
    drop(roaming);
}

/// Attack 4: a bot's event stream opened before its token is revoked stayed open and
/// delivered a challenge 13 s later; the bot stayed online. Now the stream ends at once,
/// the bot is offline (a challenge is refused, none delivered), and a session's sockets end
/// with the session.
fn a_revoked_token_or_session_ends_its_streams_and_sockets(backend: Backend) {
    use lgame_test_support::bots::Program as Bot;
    let dir = TempDir::new(&format!("attack-revoke-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &["create_limit=0"]);
    let addr = &server.addr;
    let owner = Browser::signed_up(addr, "botmaker", PASSWORD);
    let token = owner.bot_token();
    let bot = Bot::new(addr, &token);
    let events = bot.stream("/api/bot/events");
    let listed = |name: &str| {
        let bots = ok(owner.get("/api/bots"), "the bots")["bots"].clone();
        bots.as_array()
            .unwrap()
            .iter()
            .find(|b| b["username"] == name)
            .cloned()
    };
    eventually("the bot online", || {
        listed("botmaker").is_some_and(|b| b["online"] == true)
    });
    let challenger = Browser::signed_up(addr, "challenger", PASSWORD);
    ok(
        challenger.post("/api/challenges/botmaker", &json!({})),
        "a challenge",
    );
    events.until("the challenge", WAIT, |e| e["type"] == "challenge");

    // The owner revokes the token: the stream ends, the bot is offline, nothing more is
    // delivered, and the token is refused.
    let id = ok(owner.get("/api/account/tokens"), "the tokens")["tokens"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        owner
            .delete(&format!("/api/account/tokens/{id}"), None)
            .status,
        204
    );
    assert!(events.ends_within(WAIT), "the revoked token's stream ended");
    assert_eq!(listed("botmaker").unwrap()["online"], false);
    let late = challenger.post("/api/challenges/botmaker", &json!({}));
    assert_eq!(
        (late.status, late.kind()),
        (409, "bot_offline"),
        "{}",
        late.body
    );
    assert_eq!(bot.get("/api/bot/events").status, 401);

    // A session ended elsewhere ("log out everywhere else") ends its sockets; the asker's
    // own stay open.
    let here = Browser::signed_up(addr, "juggler", PASSWORD);
    let there = Browser::new(addr);
    let logged_in = there.post(
        "/api/session",
        &json!({ "username": "juggler", "password": PASSWORD }),
    );
    ok(logged_in, "a second session");
    let mut theirs = there.websocket("/api/lobby/ws").expect("a lobby page");
    let mut mine = here.websocket("/api/lobby/ws").expect("a lobby page");
    ok(
        here.delete("/api/account/sessions", None),
        "the others logged out",
    );
    assert!(ended(&mut theirs), "the ended session's socket");
    assert!(alive(&mut mine), "the asker's own socket");
}

on_both_backends!(a_revoked_token_or_session_ends_its_streams_and_sockets);

/// Attack 4 across instances: a token revoked through one instance ends its stream on the
/// other within the sweep (`connections.rs`), on one PostgreSQL database.
#[test]
fn a_token_revoked_through_one_instance_ends_its_stream_on_the_other() {
    use lgame_test_support::bots::Program as Bot;
    let cluster = lgame_test_support::postgres::cluster();
    let db = cluster.database("attack_revoke_two");
    let a = ServeProcess::start(SERVER, &db, &["create_limit=0"]);
    let b = ServeProcess::start(SERVER, &db, &["create_limit=0"]);
    let owner = Browser::signed_up(&a.addr, "botmaker", PASSWORD);
    let token = owner.bot_token();
    let events = Bot::new(&b.addr, &token).stream("/api/bot/events");
    let tokens = ok(owner.get("/api/account/tokens"), "the tokens");
    let id = tokens["tokens"][0]["id"].as_str().unwrap();
    assert_eq!(
        owner
            .delete(&format!("/api/account/tokens/{id}"), None)
            .status,
        204
    );
    assert!(
        events.ends_within(WAIT),
        "the stream on the other instance ended"
    );
    let listed = Browser::new(&b.addr).get("/api/bots").body;
    let me = listed["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["username"] == "botmaker");
    assert_eq!(me.unwrap()["online"], false, "{listed}");
}

/// Attack 3: the answer that creates a friend game gave the host the invited side's token;
/// after the friend took the seat, the host moved for them and accepted a draw in their
/// name. Now the host gets no token for the invited side, and cannot act for it.
fn the_host_holds_no_token_for_the_guests_seat(backend: Backend) {
    let dir = TempDir::new(&format!("attack-host-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &["create_limit=0"]);
    let addr = &server.addr;
    let host = Browser::new(addr);
    let guest = Browser::new(addr);
    let created = ok(
        host.post(
            "/api/games",
            &json!({ "red": "human", "blue": "human", "hold": ["red"], "invite": "blue" }),
        ),
        "a friend game",
    );
    assert_eq!(created["players"]["blue"], Value::Null, "{created}");
    assert!(created["players"]["red"]["token"].is_string(), "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let url = created["invitation"]["url"].as_str().unwrap();
    let invite = url.split("invite=").nth(1).unwrap();
    ok(
        guest.post(
            &format!("/api/games/{id}/seat"),
            &json!({ "invite": invite }),
        ),
        "the guest seated",
    );
    // Red plays and offers a draw; the host tries to move for Blue and to accept for Blue.
    play(&host, &id);
    ok(
        host.post(&format!("/api/games/{id}/draw"), &json!({})),
        "an offer",
    );
    let before = state(&guest, &id);
    let now = state(&host, &id);
    let blue_move = json!({ "side": "blue", "ply": 2, "move": quiet_moves(&now)[0] });
    let moved = host.post(&format!("/api/games/{id}/moves"), &blue_move);
    assert_eq!(
        (moved.status, moved.kind()),
        (403, "not_a_side"),
        "{}",
        moved.body
    );
    let accepted = host.post(&format!("/api/games/{id}/draw"), &json!({ "side": "blue" }));
    assert_eq!(
        (accepted.status, accepted.kind()),
        (403, "not_a_side"),
        "{}",
        accepted.body
    );
    let after = state(&guest, &id);
    assert_eq!(
        (&after["plies"], &after["draw_offer"], &after["over"]),
        (&before["plies"], &before["draw_offer"], &before["over"]),
        "{after}"
    );
    // The guest's seat is the guest's: its move is played.
    play(&guest, &id);
}

on_both_backends!(the_host_holds_no_token_for_the_guests_seat);

/// Attack 5: logging in or signing up while carrying a dead session cookie answered two
/// `Set-Cookie`s — the new session, then its removal — so that a client applying them in
/// order ended logged out. Now an answer that sets a session never also removes it.
#[test]
fn a_stale_session_cookie_does_not_log_out_a_log_in() {
    let dir = TempDir::new("attack-cookie");
    let server = ServeProcess::start(SERVER, dir.db(), &[]);
    let addr = &server.addr;
    let dead = "ab".repeat(32);
    let session_cookies = |page: &Page| {
        page.set_cookies
            .iter()
            .filter(|c| c.starts_with("lgame_session="))
            .cloned()
            .collect::<Vec<_>>()
    };
    let logged_in_as =
        |browser: &Browser| ok(browser.get("/api/session"), "who")["account"]["username"].clone();

    let fresh = Browser::new(addr);
    fresh.put_cookie("lgame_session", Some(&dead));
    let made = fresh.post(
        "/api/account",
        &json!({ "username": "cookie", "password": PASSWORD }),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let set = session_cookies(&made);
    assert_eq!(set.len(), 1, "{set:?}");
    assert!(!set[0].contains("Max-Age=0"), "{set:?}");
    assert_eq!(logged_in_as(&fresh), "cookie");

    let again = Browser::new(addr);
    again.put_cookie("lgame_session", Some(&dead));
    let login = again.post(
        "/api/session",
        &json!({ "username": "cookie", "password": PASSWORD }),
    );
    assert_eq!(login.status, 200, "{}", login.body);
    assert_eq!(session_cookies(&login).len(), 1, "{:?}", login.set_cookies);
    assert_eq!(logged_in_as(&again), "cookie");
    // A dead cookie on any other request is still removed, once.
    let stale = Browser::new(addr);
    stale.put_cookie("lgame_session", Some(&dead));
    let page = stale.get("/api/session");
    assert_eq!(
        session_cookies(&page),
        ["lgame_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"]
    );
}

/// Attack 6: 2,000 arena joins and leaves in 5.3 s from one account, all answered 200.
/// Now every call that changes something is limited per account and per address: 429 with
/// `Retry-After` past the limit, the arena as the last call allowed left it; other accounts
/// of the address have their own counts, up to the address's.
fn arena_join_and_leave_are_limited_per_account_and_address(backend: Backend) {
    let dir = TempDir::new(&format!("attack-arena-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &[]);
    let addr = &server.addr;
    let attacker = Browser::signed_up(addr, "flapper", PASSWORD);
    let later = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
        + 3_600_000;
    // The buckets fill again at their rate while the test runs (20 and 80 a minute): a
    // slow machine's extra calls are allowed for, no more.
    let started = Instant::now();
    let refilled =
        |per_minute: f64| (started.elapsed().as_secs_f64() * per_minute / 60.0).ceil() as usize;
    let made = attacker.post(
        "/api/arenas",
        &json!({ "clock": bullet(), "minutes": 30, "starts_at": later }),
    );
    let id = ok(made, "an arena")["id"].as_str().unwrap().to_string();
    let joined = |arena: &Value, name: &str| {
        arena["standings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["username"] == name && s["withdrawn"] != true)
    };
    let mut allowed = 0;
    let mut last = Value::Null;
    let refused = loop {
        let action = if allowed % 2 == 0 { "join" } else { "leave" };
        let page = attacker.post(&format!("/api/arenas/{id}/{action}"), &json!({}));
        if page.status != 200 {
            break page;
        }
        allowed += 1;
        last = page.body;
        assert!(allowed < 2000, "never limited");
    };
    assert_eq!(
        (refused.status, refused.kind()),
        (429, "too_many_requests"),
        "{}",
        refused.body
    );
    assert!(refused.retry_after.is_some(), "Retry-After");
    // 20 a minute per account, and the arena's creation counted among them.
    let most = 20 + refilled(20.0);
    assert!(
        (20..=most).contains(&(allowed + 1)),
        "arena calls one account made at once: {}",
        allowed + 1
    );
    let arena = ok(attacker.get(&format!("/api/arenas/{id}")), "the arena");
    assert_eq!(
        joined(&arena, "flapper"),
        joined(&last, "flapper"),
        "{arena}"
    );
    // Other accounts from the same address count their own, up to the address's 80.
    let mut address_total = allowed + 1;
    for n in 0..5 {
        let name = format!("flapper{n}");
        let other = Browser::signed_up(addr, &name, PASSWORD);
        loop {
            let page = other.post(&format!("/api/arenas/{id}/join"), &json!({}));
            if page.status != 200 {
                assert_eq!(page.status, 429, "{}", page.body);
                break;
            }
            address_total += 1;
        }
    }
    let most = 80 + refilled(80.0);
    assert!(
        (80..=most).contains(&address_total),
        "arena calls one address made at once: {address_total}"
    );
}

on_both_backends!(arena_join_and_leave_are_limited_per_account_and_address);

/// The test server run by `sh -c SCRIPT` in a user and mount namespace of its own
/// (`unshare -rm`), so that the script can mount what the attack needs (a small disk, a
/// read-only folder) without privileges: `$0` is the test's folder, `$1` the server.
struct Contained(std::process::Child);

impl Contained {
    fn run(dir: &TempDir, script: &str) -> std::process::Command {
        let mut command = std::process::Command::new("unshare");
        command
            .args(["-rm", "sh", "-c", script])
            .arg(dir.path())
            .arg(SERVER.path())
            .env("RUST_LOG", "warn")
            .stdin(std::process::Stdio::null());
        command
    }

    /// Starts it and answers it with the address it listens on.
    fn start(dir: &TempDir, script: &str) -> (Contained, String) {
        let mut child = Contained::run(dir, script)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("unshare runs");
        let lines = lgame_test_support::lines_of(child.stdout.take().unwrap());
        let contained = Contained(child);
        let line = lines
            .recv_timeout(WAIT)
            .expect("the server says where it listens");
        let addr = line
            .strip_prefix("listening on http://")
            .expect(&line)
            .to_string();
        (contained, addr)
    }
}

impl Drop for Contained {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Attack 7: a full disk answered 500 "internal"; a read-only database file stopped the
/// server with "attempt to write a readonly database", naming no file. Now a full disk is
/// 503 `storage_full` with `Retry-After`, nothing changed, the server still answering; and
/// a database that cannot be opened for writing is an error at start that names its path.
#[test]
fn storage_trouble_is_503_and_a_read_only_database_is_named_at_start() {
    let dir = TempDir::new("attack-disk");
    // A disk of 1 MB, filled by games until the server refuses one.
    let (server, addr) = Contained::start(
        &dir,
        "mount -t tmpfs -o size=1m tmpfs \"$0\" && exec \"$1\" addr=127.0.0.1:0 \
         db=\"$0/games.db\" create_limit=0",
    );
    let creator = Browser::new(&addr);
    let game = json!({ "red": "human", "blue": "human", "hold": ["red", "blue"] });
    let mut made = Vec::new();
    let refused = loop {
        let page = creator.post("/api/games", &game);
        if page.status != 201 {
            break page;
        }
        made.push(page.body["id"].as_str().unwrap().to_string());
        assert!(made.len() < 50_000, "the disk never filled");
    };
    assert_eq!(
        (refused.status, refused.kind()),
        (503, "storage_full"),
        "{}",
        refused.body
    );
    assert!(refused.retry_after.is_some(), "Retry-After");
    // Nothing changed: the games stored are those answered, and each reads as it was.
    let listed = ok(creator.get("/api/account/games?per_page=1"), "the list");
    assert_eq!(listed["total"], made.len(), "{listed}");
    let first = state(&creator, &made[0]);
    assert_eq!(first["plies"], 0);
    let mut moved = 0;
    for id in made.iter().take(50) {
        let now = state(&creator, id);
        let body = json!({ "side": "red", "ply": 1, "move": quiet_moves(&now)[0] });
        let page = creator.post(&format!("/api/games/{id}/moves"), &body);
        match page.status {
            200 => moved += 1,
            _ => {
                assert_eq!(
                    (page.status, page.kind()),
                    (503, "storage_full"),
                    "{}",
                    page.body
                );
                assert_eq!(
                    state(&creator, id)["plies"],
                    0,
                    "a refused move changed nothing"
                );
            }
        }
    }
    assert!(moved < 50, "every move was stored on a full disk");
    drop(server);

    // A database that cannot be written: refused at start, its path named.
    let dir = TempDir::new("attack-readonly");
    drop(ServeProcess::start(SERVER, dir.db(), &[]));
    let out = Contained::run(
        &dir,
        "mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro \"$0\" && exec \"$1\" \
         addr=127.0.0.1:0 db=\"$0/games.db\"",
    )
    .output()
    .expect("unshare runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains(&dir.db().display().to_string()), "{said}");
    assert!(said.contains("cannot be opened for writing"), "{said}");
}

fn sign_up(browser: &Browser, name: &str, password: &str) -> Page {
    browser.post(
        "/api/account",
        &json!({ "username": name, "password": password }),
    )
}

/// Attack 8: `lgame_perfect` and `lgame-perfekt` were accepted beside the server's bot
/// `lgame-perfect`. Now a name that folds (case, `_`/`-`/`.`, 0/o, 1/i/l, 5/s, 8/b, rn/m,
/// vv/w) as a reserved name or an existing account's is refused; a letter changed
/// (`lgame-perfekt`) is another name.
fn names_that_read_as_another_are_refused(backend: Backend) {
    let dir = TempDir::new(&format!("attack-names-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &["signup_limit=0"]);
    let addr = &server.addr;
    let browser = Browser::new(addr);
    for name in [
        "lgame_perfect",
        "LGAME-Perfect",
        "1game-perfect",
        "Igame_perfect",
        "adm1n",
    ] {
        let page = sign_up(&browser, name, PASSWORD);
        assert_eq!(
            (page.status, page.kind()),
            (400, "bad_username"),
            "{name}: {}",
            page.body
        );
        assert!(
            page.body["error"].as_str().unwrap().contains("reserved"),
            "{}",
            page.body
        );
    }
    Browser::signed_up(addr, "victim_name", PASSWORD);
    let taken = sign_up(&Browser::new(addr), "VICTIM_name", PASSWORD);
    assert_eq!(
        (taken.status, taken.kind()),
        (409, "username_taken"),
        "{}",
        taken.body
    );
    for name in ["victim-name", "v1ctim_name", "vlctim-narne", "Victim-Narne"] {
        let page = sign_up(&Browser::new(addr), name, PASSWORD);
        assert_eq!(
            (page.status, page.kind()),
            (409, "username_lookalike"),
            "{name}: {}",
            page.body
        );
        assert!(
            page.body["error"].as_str().unwrap().contains("victim_name"),
            "{}",
            page.body
        );
        assert_eq!(
            browser.get(&format!("/api/users/{name}")).status,
            404,
            "{name}"
        );
    }
    // A letter changed is another name.
    Browser::signed_up(addr, "lgame-perfekt", PASSWORD);
    Browser::signed_up(addr, "victim_game", PASSWORD);
}

on_both_backends!(names_that_read_as_another_are_refused);

/// Attack 9: guessable passwords were accepted (`bobby_pw1` for `bobby`, `Summer2024!`,
/// `lgame1234`, `correcthorse`). Now a password holding the username or the site's name,
/// one the estimator (given those words) guesses in under 10^8 tries, or one with a control
/// character is refused, at sign-up and at a change; nothing is made or changed.
#[test]
fn guessable_passwords_are_refused() {
    let dir = TempDir::new("attack-passwords");
    let server = ServeProcess::start(SERVER, dir.db(), &["signup_limit=0"]);
    let addr = &server.addr;
    let browser = Browser::new(addr);
    let guessable = [
        "bobby_pw1",
        "Summer2024!",
        "lgame1234",
        "correcthorse",
        "L Game 4ever!!",
        "tab\tQuiet-Orbit-71",
    ];
    for password in guessable {
        let page = sign_up(&browser, "bobby", password);
        assert_eq!(
            (page.status, page.kind()),
            (400, "bad_password"),
            "{password}: {}",
            page.body
        );
    }
    assert_eq!(
        browser.get("/api/users/bobby").status,
        404,
        "no account was made"
    );
    let bobby = Browser::signed_up(addr, "bobby", PASSWORD);
    for password in guessable {
        let change = json!({ "password": PASSWORD, "new_password": password });
        let page = bobby.post("/api/account/password", &change);
        assert_eq!(
            (page.status, page.kind()),
            (400, "bad_password"),
            "{password}: {}",
            page.body
        );
    }
    // The password is the one it was.
    let again = Browser::new(addr);
    let login = again.post(
        "/api/session",
        &json!({ "username": "bobby", "password": PASSWORD }),
    );
    assert_eq!(login.status, 200, "{}", login.body);
}

/// The log lines of every in-process server of this test binary, kept (installed once).
fn request_log() -> &'static std::sync::Mutex<Vec<u8>> {
    static LOG: std::sync::OnceLock<&'static std::sync::Mutex<Vec<u8>>> =
        std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let log: &'static std::sync::Mutex<Vec<u8>> = Box::leak(Box::default());
        struct Line(&'static std::sync::Mutex<Vec<u8>>);
        impl std::io::Write for Line {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("lgame_web=info"))
            .with_writer(move || Line(log))
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");
        log
    })
}

/// Attack 10: the request log kept a closed account's name in its paths
/// (`/api/users/NAME`), and the account's export lacked its ratings and tokens. Now a log
/// line names the route (`/api/users/{name}`), and the export holds everything kept about
/// the account: its ratings with their history, its tokens' ids and descriptions, its
/// sessions, games, arenas, and the browsers and addresses it was used from.
fn a_closed_account_leaves_no_name_in_the_log_and_its_export_is_whole(backend: Backend) {
    let log = request_log();
    let dir = TempDir::new(&format!("attack-traces-{backend:?}"));
    let server = lgame_test_support::server::Server::with(backend.database(&dir), |c| {
        c.create_limit = 0;
    });
    let addr = &server.addr;
    let name = format!(
        "traced{}",
        if backend == Backend::Sqlite {
            "lite"
        } else {
            "pg"
        }
    );
    let me = Browser::signed_up(addr, &name, PASSWORD);
    let rival = Browser::signed_up(addr, &format!("rival{name}"), PASSWORD);
    // A rated game both sides moved in, a token, an arena joined.
    let seek = ok(
        me.post(
            "/api/seeks",
            &json!({ "clock": bullet(), "rated": true, "colour": "red" }),
        ),
        "a seek",
    );
    let took = rival.post(
        &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
        &json!({}),
    );
    let game = ok(took, "a rated game")["id"].as_str().unwrap().to_string();
    play(&me, &game);
    play(&rival, &game);
    ok(
        rival.post(&format!("/api/games/{game}/resign"), &json!({})),
        "resigned",
    );
    let token = ok(
        me.post(
            "/api/account/tokens",
            &json!({ "description": "my program" }),
        ),
        "a token",
    );
    let arena = ok(
        me.post("/api/arenas", &json!({ "clock": bullet(), "minutes": 30 })),
        "an arena",
    );
    let arena = arena["id"].as_str().unwrap().to_string();
    ok(
        me.post(&format!("/api/arenas/{arena}/join"), &json!({})),
        "joined",
    );

    let export = ok(me.get("/api/account/export"), "the export");
    assert_eq!(export["account"]["username"], name.as_str());
    assert_eq!(export["games"].as_array().unwrap().len(), 1, "{export}");
    // Each game's record, with the tags a download has (the same text as the download's).
    let record = &export["records"][0];
    assert_eq!(record["game"], export["games"][0]["id"], "{export}");
    let text = record["record"].as_str().expect("a record");
    assert!(
        text.contains(&format!("\"{name}\"")),
        "the player named: {text}"
    );
    let id = record["game"].as_str().unwrap();
    let download = me.get(&format!("/api/games/{id}/record")).body;
    assert_eq!(
        download.as_str(),
        Some(text),
        "the export's record is the download's"
    );
    let ratings = &export["ratings"][0];
    assert_eq!(
        (&ratings["category"], &ratings["games"]),
        (&json!("bullet"), &json!(1)),
        "{export}"
    );
    assert_eq!(ratings["history"][0]["game"], game.as_str(), "{export}");
    assert_eq!(
        export["tokens"],
        json!([{
            "id": token["id"], "description": "my program", "created_ms": token["created_ms"],
        }])
    );
    assert!(
        !export
            .to_string()
            .contains(token["token"].as_str().unwrap()),
        "no token"
    );
    assert_eq!(export["arenas"][0]["arena"], arena.as_str(), "{export}");
    assert_eq!(export["sessions"].as_array().unwrap().len(), 1, "{export}");
    let kinds: Vec<&str> = export["footprints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"browser") && kinds.contains(&"address"),
        "{export}"
    );

    // Anyone reads the profile; then the account is closed.
    let stranger = Browser::new(addr);
    for path in [
        format!("/api/users/{name}"),
        format!("/api/users/{name}/games"),
        format!("/@/{name}"),
    ] {
        assert_eq!(stranger.get(&path).status, 200, "{path}");
    }
    let closed = me.delete("/api/account", Some(&json!({ "password": PASSWORD })));
    assert_eq!(closed.status, 204, "{}", closed.body);
    assert_eq!(stranger.get(&format!("/api/users/{name}")).status, 404);
    drop(server);
    let text = String::from_utf8_lossy(&log.lock().unwrap()).to_string();
    assert!(text.contains("/api/users/{name}"), "the routes are logged");
    assert!(
        !text.contains(&name),
        "the closed account's name is in the log"
    );
}

on_both_backends!(a_closed_account_leaves_no_name_in_the_log_and_its_export_is_whole);
