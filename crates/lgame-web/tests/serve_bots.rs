//! Bots through the API (issue #26, docs/bots.md), on both backends, through servers in
//! processes of their own: an account made a bot before its first game, its API tokens
//! (shown once, scoped to play, revoked at once), challenges answered by the bot through its
//! event stream, which resumes after its last id without losing or repeating an event; a
//! bot token that plays only its own games; and the server's computer levels, bots that
//! accept any challenge at once and play rated games.

use std::time::Duration;

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::bots::{stream, Program};
use lgame_test_support::http::quiet_moves;
use lgame_test_support::serve::{Program as Server, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use serde_json::{json, Value};

const SERVER: Server = Server::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

const PASSWORD: &str = "Quiet-Lantern-Orbit-71";

const WAIT: Duration = Duration::from_secs(10);

fn blitz() -> Value {
    json!({ "initial_s": 180, "increment_s": 2 })
}

fn state(game: &str, asker: &Browser) -> Value {
    let page = asker.get(&format!("/api/games/{game}"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.body
}

fn bot_accounts_and_their_tokens(backend: Backend) {
    let dir = TempDir::new(&format!("bots-tokens-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &["create_limit=0"]);
    let addr = &server.addr;
    let owner = Browser::signed_up(addr, "deepl", PASSWORD);
    let person = Browser::signed_up(addr, "alice", PASSWORD);

    // An account that has played becomes no bot; one that has not does, once and for all.
    let game = person.post(
        "/api/games",
        &json!({ "red": "human", "blue": "random", "hold": ["red"] }),
    );
    assert_eq!(game.status, 201, "{}", game.body);
    let late = person.post("/api/account/bot", &json!({}));
    assert_eq!(
        (late.status, late.kind()),
        (409, "has_games"),
        "{}",
        late.body
    );
    assert_eq!(person.get("/api/account").body["bot"], false);
    let token = owner.bot_token();
    assert!(token.starts_with("lgb_") && token.len() == 68, "{token}");
    assert_eq!(owner.get("/api/account").body["bot"], true);
    assert_eq!(owner.get("/api/users/deepl").body["bot"], true);
    assert_eq!(person.get("/api/users/alice").body["bot"], false);

    // The token names the bot; the list of tokens never shows a token again.
    let program = Program::new(addr, &token);
    let me = program.get("/api/account");
    assert_eq!(
        (me.status, &me.body["username"], &me.body["bot"]),
        (200, &json!("deepl"), &json!(true))
    );
    let listed = owner.get("/api/account/tokens");
    assert_eq!(
        listed.body["tokens"].as_array().unwrap().len(),
        1,
        "{}",
        listed.body
    );
    assert!(
        !listed.body.to_string().contains(&token[4..]),
        "{}",
        listed.body
    );

    // A token plays: it acts on the account itself never.
    for (method, path) in [
        ("POST", "/api/account/tokens"),
        ("GET", "/api/account/tokens"),
        ("GET", "/api/account/export"),
        ("DELETE", "/api/account"),
        ("POST", "/api/account/password"),
        ("DELETE", "/api/session"),
    ] {
        let page = match method {
            "POST" => program.post(path, &json!({})),
            "DELETE" => program.delete(path),
            _ => program.get(path),
        };
        assert_eq!(
            (page.status, page.kind()),
            (403, "token_scope"),
            "{method} {path}: {}",
            page.body
        );
    }
    // Nor is it a session on the page: as a cookie it is nobody.
    let thief = Browser::new(addr);
    thief.put_cookie("lgame_session", Some(&token));
    assert_eq!(thief.get("/api/account").status, 401);
    thief.put_cookie("lgame_session", Some(&token[4..]));
    assert_eq!(thief.get("/api/account").status, 401);

    // Revoked, refused at the next request; an unknown token likewise.
    let id = listed.body["tokens"][0]["id"].as_str().unwrap();
    assert_eq!(
        owner
            .delete(&format!("/api/account/tokens/{id}"), None)
            .status,
        204
    );
    let after = program.get("/api/account");
    assert_eq!(
        (after.status, after.kind()),
        (401, "bad_token"),
        "{}",
        after.body
    );
    assert_eq!(
        owner
            .delete(&format!("/api/account/tokens/{id}"), None)
            .status,
        404
    );
    let forged = Program::new(addr, &format!("lgb_{}", "0".repeat(64)));
    assert_eq!(
        forged.get("/api/games/0123456789abcdef").kind(),
        "bad_token"
    );
}

/// The events of `kind` in `events`.
fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

fn challenges_and_the_event_stream(backend: Backend) {
    let dir = TempDir::new(&format!("bots-challenges-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &["create_limit=0"]);
    let addr = &server.addr;
    let bot = Program::new(
        addr,
        &Browser::signed_up(addr, "deepl", PASSWORD).bot_token(),
    );
    let rival = Program::new(
        addr,
        &Browser::signed_up(addr, "rival", PASSWORD).bot_token(),
    );
    let alice = Browser::signed_up(addr, "alice", PASSWORD);
    let bob = Browser::signed_up(addr, "bob", PASSWORD);

    // Only bots are challenged, and only when their program is there.
    let person = alice.post("/api/challenges/bob", &json!({}));
    assert_eq!(
        (person.status, person.kind()),
        (400, "not_a_bot"),
        "{}",
        person.body
    );
    let offline = alice.post("/api/challenges/deepl", &json!({}));
    assert_eq!(
        (offline.status, offline.kind()),
        (409, "bot_offline"),
        "{}",
        offline.body
    );
    assert_eq!(Browser::new(addr).get("/api/bot/events").status, 401);
    assert_eq!(bob.get("/api/bot/events").kind(), "not_a_bot");
    let not_bot = Program::new(addr, &{
        let page = bob.post("/api/account/tokens", &json!({}));
        page.body["token"].as_str().unwrap().to_string()
    });
    assert_eq!(not_bot.get("/api/bot/events").kind(), "not_a_bot");

    let events = bot.stream("/api/bot/events");
    let bots = alice.get("/api/bots").body;
    let listed = bots["bots"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|b| b["username"] == "deepl" && b["online"] == true),
        "{bots}"
    );
    assert!(
        listed
            .iter()
            .any(|b| b["username"] == "rival" && b["online"] == false),
        "{bots}"
    );

    // A challenge declined with a reason.
    let first = alice.post(
        "/api/challenges/deepl",
        &json!({ "clock": blitz(), "color": "red" }),
    );
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.body["status"], "pending");
    let first_id = first.body["id"].as_str().unwrap().to_string();
    let heard = events.until("the challenge", WAIT, |e| e["type"] == "challenge");
    assert_eq!(heard["challenge"]["id"], first_id.as_str());
    assert_eq!(heard["challenge"]["challenger"], "alice");
    let first_event = heard["id"].as_i64().unwrap();
    let foreign = rival.post(&format!("/api/challenges/{first_id}/accept"), &json!({}));
    assert_eq!(
        (foreign.status, foreign.kind()),
        (403, "not_your_challenge")
    );
    let bad = bot.post(
        &format!("/api/challenges/{first_id}/decline"),
        &json!({ "reason": "bored" }),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    let declined = bot.post(
        &format!("/api/challenges/{first_id}/decline"),
        &json!({ "reason": "too_fast" }),
    );
    assert_eq!(declined.status, 200, "{}", declined.body);
    let seen = alice.get(&format!("/api/challenges/{first_id}")).body;
    assert_eq!(
        (&seen["status"], &seen["reason"], &seen["game"]),
        (&json!("declined"), &json!("too_fast"), &Value::Null)
    );
    let twice = bot.post(&format!("/api/challenges/{first_id}/accept"), &json!({}));
    assert_eq!((twice.status, twice.kind()), (409, "challenge_settled"));

    // A challenge withdrawn is told to the bot.
    let second = alice.post("/api/challenges/deepl", &json!({}));
    let second_id = second.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        bob.delete(&format!("/api/challenges/{second_id}"), None)
            .status,
        403
    );
    assert_eq!(
        alice
            .delete(&format!("/api/challenges/{second_id}"), None)
            .status,
        204
    );
    let canceled = events.until("the cancel", WAIT, |e| e["type"] == "challengeCanceled");
    assert_eq!(canceled["challenge"]["id"], second_id.as_str());

    // A challenge accepted: both learn the game, the challenger its seat.
    let third = alice.post(
        "/api/challenges/deepl",
        &json!({ "clock": blitz(), "color": "blue" }),
    );
    let third_id = third.body["id"].as_str().unwrap().to_string();
    events.until("the third challenge", WAIT, |e| {
        e["challenge"]["id"] == third_id.as_str()
    });
    let accepted = bot.post(&format!("/api/challenges/{third_id}/accept"), &json!({}));
    assert_eq!(accepted.status, 201, "{}", accepted.body);
    let game = accepted.body["id"].as_str().unwrap().to_string();
    assert_eq!(accepted.body["state"]["you"], "red");
    let seen = alice.get(&format!("/api/challenges/{third_id}")).body;
    assert_eq!(
        (&seen["status"], &seen["game"], &seen["seat"]),
        (&json!("accepted"), &json!(game), &json!("blue"))
    );
    let started = events.until("the game's start", WAIT, |e| e["type"] == "gameStart");
    assert_eq!(
        (&started["game"]["id"], &started["game"]["color"]),
        (&json!(game), &json!("red"))
    );
    let players = &state(&game, &alice)["players"];
    assert_eq!(players["red"], json!({ "kind": "bot", "name": "deepl" }));
    assert_eq!(players["blue"], json!({ "kind": "user", "name": "alice" }));

    // The game's own stream: the state, then each change with both clocks.
    let moves = stream(addr, &format!("/api/games/{game}/stream"), None);
    let first_state = moves.until("the state", WAIT, |m| m["type"] == "state");
    assert_eq!(first_state["plies"], 0);
    // The bot plays its own game, and no other's.
    let mv = quiet_moves(&first_state)[0].clone();
    let other = rival.post(
        &format!("/api/games/{game}/moves"),
        &json!({ "ply": 1, "move": mv }),
    );
    assert_eq!(other.status, 403, "{}", other.body);
    let played = bot.post(
        &format!("/api/games/{game}/moves"),
        &json!({ "ply": 1, "move": mv }),
    );
    assert_eq!(played.status, 200, "{}", played.body);
    let change = moves.until("the bot's move", WAIT, |m| m["type"] == "change");
    assert_eq!(
        (&change["plies"], &change["moves"][0]),
        (&json!(1), &json!(mv))
    );
    assert!(
        change["clock"]["red_ms"].is_i64() && change["clock"]["blue_ms"].is_i64(),
        "{change}"
    );
    assert_eq!(
        alice
            .post(&format!("/api/games/{game}/resign"), &json!({}))
            .status,
        200
    );
    let finished = events.until("the game's end", WAIT, |e| e["type"] == "gameFinish");
    assert_eq!(
        (
            &finished["game"]["id"],
            &finished["game"]["state"]["result"]
        ),
        (&json!(game), &json!("1-0"))
    );

    // Resumed after the first event: every later one, in order, once.
    let resumed = bot.stream(&format!("/api/bot/events?since={first_event}"));
    let mut again = Vec::new();
    while let Some(event) = resumed.next_within(Duration::from_secs(2)) {
        again.push(event);
    }
    assert_eq!(
        kinds(&again),
        [
            "challenge",
            "challengeCanceled",
            "challenge",
            "gameStart",
            "gameFinish"
        ],
        "{again:?}"
    );
    let ids: Vec<i64> = again.iter().map(|e| e["id"].as_i64().unwrap()).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]) && ids[0] > first_event,
        "{ids:?}"
    );
    // Opened afresh: what still stands (a pending challenge), nothing of the past.
    let fourth = alice.post("/api/challenges/deepl", &json!({}));
    let fresh = bot.stream("/api/bot/events");
    let standing = fresh.until("the pending challenge", WAIT, |e| e["type"] == "challenge");
    assert_eq!(standing["challenge"]["id"], fourth.body["id"]);
    assert!(fresh.next_within(Duration::from_secs(1)).is_none());
}

fn the_levels_are_bots_that_accept_at_once_and_are_rated(backend: Backend) {
    let dir = TempDir::new(&format!("bots-levels-{backend:?}"));
    let server = ServeProcess::start(
        SERVER,
        backend.database(&dir),
        &["create_limit=0", "computer_delay_ms=0"],
    );
    let addr = &server.addr;
    let alice = Browser::signed_up(addr, "alice", PASSWORD);
    let listed = alice.get("/api/bots").body;
    let names: Vec<&str> = listed["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["username"].as_str().unwrap())
        .collect();
    for level in ["random", "beginner", "intermediate", "perfect"] {
        assert!(
            names.contains(&format!("lgame-{level}").as_str()),
            "{listed}"
        );
    }
    // Nobody signs up as one.
    let squatter = Browser::new(addr).post(
        "/api/account",
        &json!({ "username": "lgame-perfect", "password": PASSWORD }),
    );
    assert_eq!(squatter.status, 400, "{}", squatter.body);

    let challenge = alice.post(
        "/api/challenges/lgame-beginner",
        &json!({ "clock": blitz(), "rated": true, "color": "red" }),
    );
    assert_eq!(challenge.status, 201, "{}", challenge.body);
    assert_eq!(
        (&challenge.body["status"], &challenge.body["seat"]),
        (&json!("accepted"), &json!("red"))
    );
    let game = challenge.body["game"].as_str().unwrap();
    let started = state(game, &alice);
    assert_eq!(
        (&started["rated"], &started["category"]),
        (&json!(true), &json!("blitz"))
    );
    assert_eq!(
        started["players"]["blue"],
        json!({ "kind": "bot", "name": "lgame-beginner" })
    );
    // The level answers each move at once, until one side resigns.
    for _ in 0..3 {
        let now = state(game, &alice);
        if now["over"] == true {
            break;
        }
        let body =
            json!({ "ply": now["plies"].as_u64().unwrap() + 1, "move": quiet_moves(&now)[0] });
        let page = alice.post(&format!("/api/games/{game}/moves"), &body);
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(page.body["turn"], "red", "the level replied: {}", page.body);
    }
    if state(game, &alice)["over"] == false {
        assert_eq!(
            alice
                .post(&format!("/api/games/{game}/resign"), &json!({}))
                .status,
            200
        );
    }
    // Rated: both accounts' ratings changed, the level's from real games.
    let level = alice.get("/api/users/lgame-beginner/ratings").body;
    let blitz_rating = level["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["category"] == "blitz")
        .cloned();
    let blitz_rating = blitz_rating.unwrap_or_else(|| panic!("{level}"));
    assert_eq!(blitz_rating["games"], 1, "{level}");
    assert!(
        blitz_rating["rating"].as_f64().unwrap() != 1500.0,
        "{level}"
    );
    // Rated challenges are an account's; unrated ones anyone's.
    let stranger = Browser::new(addr);
    let rated = stranger.post(
        "/api/challenges/lgame-random",
        &json!({ "clock": blitz(), "rated": true }),
    );
    assert_eq!((rated.status, rated.kind()), (401, "no_session"));
    let casual = stranger.post("/api/challenges/lgame-random", &json!({}));
    assert_eq!(
        (casual.status, &casual.body["status"]),
        (201, &json!("accepted")),
        "{}",
        casual.body
    );
}

on_both_backends!(
    bot_accounts_and_their_tokens,
    challenges_and_the_event_stream,
    the_levels_are_bots_that_accept_at_once_and_are_rated
);
