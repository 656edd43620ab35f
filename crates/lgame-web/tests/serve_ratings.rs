//! Ratings through the API (issue #25), on both backends, through servers in processes of
//! their own: a rated seek (accounts only, within its rating range) makes a rated game whose
//! end changes both ratings once, by Glicko-2 (`lgame_web::ratings`, itself checked
//! against the test's own Glicko-2 in its unit tests); casual games, games against the
//! computer and aborted games change nothing; a player's ratings, history and accuracy; the
//! leaderboard; and fair play: no analysis of a rated game one is playing.

use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::http::quiet_moves;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::{on_both_backends, TempDir};
use lgame_web::ratings::{after_game, Entry, Rating, START};
use serde_json::{json, Value};

const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

const PASSWORD: &str = "Quiet-Lantern-Orbit-71";

fn blitz() -> Value {
    json!({ "initial_s": 180, "increment_s": 2 })
}

fn signed_up(addr: &str, name: &str) -> Browser {
    Browser::signed_up(addr, name, PASSWORD)
}

/// A seek of `seeker`'s (as Red) taken by `taker`: the game's id.
fn seek_taken(seeker: &Browser, taker: &Browser, rated: bool) -> String {
    let seek = seeker.post(
        "/api/seeks",
        &json!({ "clock": blitz(), "colour": "red", "rated": rated }),
    );
    assert_eq!(seek.status, 201, "{}", seek.body);
    let id = seek.body["id"].as_str().unwrap();
    let took = taker.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    assert_eq!(took.body["state"]["rated"], rated, "{}", took.body);
    took.body["id"].as_str().unwrap().to_string()
}

fn state(browser: &Browser, game: &str) -> Value {
    let page = browser.get(&format!("/api/games/{game}"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.body
}

/// The side to move (held by `browser`) plays its first quiet move.
fn play(browser: &Browser, game: &str) {
    let state = state(browser, game);
    let body = json!({
        "ply": state["plies"].as_u64().unwrap() + 1,
        "move": quiet_moves(&state)[0],
    });
    let page = browser.post(&format!("/api/games/{game}/moves"), &body);
    assert_eq!(page.status, 200, "{}", page.body);
}

fn act(browser: &Browser, game: &str, action: &str) -> Value {
    let page = browser.post(&format!("/api/games/{game}/{action}"), &json!({}));
    assert_eq!(page.status, 200, "{game} {action}: {}", page.body);
    page.body
}

fn rating(value: &Value) -> Rating {
    Rating {
        rating: value["rating"].as_f64().unwrap(),
        deviation: value["deviation"].as_f64().unwrap(),
        volatility: value["volatility"].as_f64().unwrap(),
    }
}

/// A player's ratings by category.
fn ratings(browser: &Browser, name: &str) -> Vec<Value> {
    let page = browser.get(&format!("/api/users/{name}/ratings"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(page.body["username"], name);
    page.body["ratings"].as_array().unwrap().clone()
}

/// A player's entry in blitz, as the API gives it.
fn blitz_entry(browser: &Browser, name: &str) -> Entry {
    let all = ratings(browser, name);
    let blitz = all.iter().find(|r| r["category"] == "blitz").unwrap();
    Entry {
        rating: rating(blitz),
        games: blitz["games"].as_u64().unwrap() as u32,
        last_ms: blitz["last_ms"].as_i64().unwrap(),
    }
}

fn rated_games_change_ratings_once_and_nothing_else_does(backend: Backend) {
    let dir = TempDir::new(&format!("ratings-{backend:?}"));
    let server = ServeProcess::start(
        SERVER,
        backend.database(&dir),
        &["create_limit=0", "test_clock=true"],
    );
    let addr = &server.addr;
    let (ann, bob, cy) = (
        signed_up(addr, "ann"),
        signed_up(addr, "bob"),
        signed_up(addr, "cy"),
    );
    let stranger = Browser::new(addr);

    // Rated play is for accounts; a seek's range is its taker's to meet.
    let anonymous = stranger.post("/api/seeks", &json!({ "clock": blitz(), "rated": true }));
    assert_eq!((anonymous.status, anonymous.kind()), (401, "no_session"));
    let pool = stranger.post("/api/pairing", &json!({ "control": "3+2", "rated": true }));
    assert_eq!((pool.status, pool.kind()), (401, "no_session"));
    let bad = ann.post(
        "/api/seeks",
        &json!({ "clock": blitz(), "rating_range": [1700, 1600] }),
    );
    assert_eq!((bad.status, bad.kind()), (400, "invalid"), "{}", bad.body);
    let ranged = ann.post(
        "/api/seeks",
        &json!({ "clock": blitz(), "rated": true, "rating_range": [1600, 2000] }),
    );
    assert_eq!(ranged.status, 201, "{}", ranged.body);
    let seek = &ranged.body["seek"];
    assert_eq!(
        (&seek["rated"], &seek["category"], &seek["rating"]),
        (&json!(true), &json!("blitz"), &json!(1500))
    );
    assert_eq!(
        (&seek["provisional"], &seek["rating_range"]),
        (&json!(true), &json!([1600, 2000]))
    );
    let id = ranged.body["id"].as_str().unwrap();
    let out = bob.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(
        (out.status, out.kind()),
        (403, "rating_range"),
        "{}",
        out.body
    );
    assert_eq!(ann.delete(&format!("/api/seeks/{id}"), None).status, 204);

    // A rated game: the ratings it starts from, no analysis for its players while it goes
    // on (a spectator may ask), and both ratings changed at its end.
    let game = seek_taken(&ann, &bob, true);
    let started = state(&ann, &game);
    assert_eq!(started["category"], "blitz");
    for side in ["red", "blue"] {
        assert_eq!(rating(&started["ratings"][side]["before"]), START);
        assert_eq!(started["ratings"][side]["after"], Value::Null);
    }
    play(&ann, &game);
    let position = state(&ann, &game)["position"].as_str().unwrap().to_string();
    let analysis = |browser: &Browser| {
        let query = position.replace(' ', "%20").replace('/', "%2F");
        browser.get(&format!("/api/analysis?position={query}"))
    };
    for player in [&ann, &bob] {
        let refused = analysis(player);
        assert_eq!((refused.status, refused.kind()), (403, "rated_game"));
    }
    assert_eq!(analysis(&cy).status, 200);
    assert_eq!(analysis(&stranger).status, 200);
    // Rated once both sides have moved.
    play(&bob, &game);
    let ended = act(&bob, &game, "resign");
    assert_eq!(ended["result"], "1-0");
    let (before, after) = after_game([None, None], lgame::game::GameResult::RedWins, 0);
    assert_eq!(before, [START, START]);
    for (i, side) in ["red", "blue"].into_iter().enumerate() {
        let seat = &ended["ratings"][side];
        assert_eq!(rating(&seat["before"]), START, "{seat}");
        assert_eq!(rating(&seat["after"]), after[i].rating, "{seat}");
    }
    assert_eq!(analysis(&ann).status, 200, "the game is over");
    let (ann_1, bob_1) = (blitz_entry(&cy, "ann"), blitz_entry(&cy, "bob"));
    assert_eq!((ann_1.rating, ann_1.games), (after[0].rating, 1));
    assert_eq!((bob_1.rating, bob_1.games), (after[1].rating, 1));
    let history = &ratings(&cy, "ann")[0];
    assert_eq!(history["history"][0]["game"], game.as_str());
    assert_eq!(
        history["history"][0]["rating"],
        json!(after[0].rating.rating)
    );
    let accuracy = history["accuracy"]["average"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&accuracy), "{history}");
    // Asked again, the game and the ratings are as they were: rated once.
    assert_eq!(state(&cy, &game)["ratings"], ended["ratings"]);
    assert_eq!(blitz_entry(&cy, "ann"), ann_1);

    // The second rated game, the first's rematch, starts from the first's ratings; an
    // agreed draw.
    for player in [&ann, &bob] {
        let rematch = player.post(&format!("/api/games/{game}/rematch"), &json!({}));
        assert_eq!(rematch.status / 100, 2, "{}", rematch.body);
    }
    let game = state(&bob, &game)["rematch"].as_str().unwrap().to_string();
    assert_eq!(state(&bob, &game)["rated"], true);
    let started = state(&bob, &game);
    assert_eq!(rating(&started["ratings"]["red"]["before"]), bob_1.rating);
    assert_eq!(rating(&started["ratings"]["blue"]["before"]), ann_1.rating);
    play(&bob, &game);
    play(&ann, &game);
    act(&ann, &game, "draw");
    let drawn = act(&bob, &game, "draw");
    assert_eq!(drawn["result"], "1/2-1/2", "{drawn}");
    let (bob_2, ann_2) = (blitz_entry(&cy, "bob"), blitz_entry(&cy, "ann"));
    let at_ms = bob_2.last_ms;
    assert_eq!(ann_2.last_ms, at_ms);
    let expected = after_game(
        [Some(bob_1), Some(ann_1)],
        lgame::game::GameResult::Draw,
        at_ms,
    )
    .1;
    assert_eq!([bob_2, ann_2], expected);
    assert_eq!(
        rating(&drawn["ratings"]["red"]["after"]),
        expected[0].rating
    );

    // A casual game, a game against the computer and an aborted rated game change nothing.
    let casual = seek_taken(&ann, &bob, false);
    assert_eq!(state(&ann, &casual)["ratings"], Value::Null);
    play(&ann, &casual);
    act(&bob, &casual, "resign");
    let computer = ann.post(
        "/api/games",
        &json!({ "red": "human", "blue": "perfect", "clock": blitz() }),
    );
    assert_eq!(computer.status, 201, "{}", computer.body);
    let token = &computer.body["players"]["red"]["token"];
    let computer = computer.body["id"].as_str().unwrap().to_string();
    assert_eq!(state(&ann, &computer)["rated"], false);
    let resigned = ann.post(
        &format!("/api/games/{computer}/resign"),
        &json!({ "token": token }),
    );
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    // Quick pairing: rated tickets are paired with each other, not with a casual one.
    let tickets: Vec<String> = [(&ann, true), (&cy, false), (&bob, true)]
        .into_iter()
        .map(|(player, rated)| {
            let page = player.post("/api/pairing", &json!({ "control": "3+2", "rated": rated }));
            assert_eq!(page.status, 202, "{}", page.body);
            page.body["ticket"].as_str().unwrap().to_string()
        })
        .collect();
    let started = std::time::Instant::now();
    let paired = loop {
        let status = ann.get(&format!("/api/pairing/{}", tickets[0])).body;
        if status["status"] == "paired" {
            break status["game"].as_str().unwrap().to_string();
        }
        assert!(started.elapsed().as_secs() < 10, "never paired: {status}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let game = state(&cy, &paired);
    assert_eq!(
        (&game["rated"], &game["category"]),
        (&json!(true), &json!("blitz"))
    );
    let names = [
        &game["players"]["red"]["name"],
        &game["players"]["blue"]["name"],
    ];
    assert!(
        names.contains(&&json!("bob")) && names.contains(&&json!("ann")),
        "{game}"
    );
    let waiting = cy.get(&format!("/api/pairing/{}", tickets[1])).body;
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    assert_eq!(
        cy.delete(&format!("/api/pairing/{}", tickets[1]), None)
            .status,
        204
    );

    // Not moved in time, both this game and the next are aborted.
    let aborted = seek_taken(&ann, &bob, true);
    let advanced = cy.post("/api/test/clock", &json!({ "advance_ms": 31_000 }));
    assert_eq!(advanced.status, 200, "{}", advanced.body);
    let started = std::time::Instant::now();
    while state(&cy, &aborted)["ending"] != "aborted" {
        assert!(
            started.elapsed().as_secs() < 10,
            "the game was never aborted"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let after_all = state(&cy, &aborted);
    assert_eq!(after_all["result"], "*");
    assert_eq!(after_all["ratings"]["red"]["after"], Value::Null);
    assert_eq!(
        (blitz_entry(&cy, "ann"), blitz_entry(&cy, "bob")),
        (ann_2, bob_2)
    );
    assert_eq!(ratings(&cy, "cy"), Vec::<Value>::new());

    // Two games leave everyone provisional: nobody ranked yet, both listed as provisional,
    // the better first, with their ratings.
    let board = cy.get("/api/leaderboard/blitz");
    assert_eq!(board.status, 200, "{}", board.body);
    assert_eq!(board.body["players"], json!([]), "{}", board.body);
    let provisional: Vec<(&str, f64, u64)> = board.body["provisional"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let name = p["username"].as_str().unwrap();
            (
                name,
                p["rating"].as_f64().unwrap(),
                p["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut expected = vec![
        ("ann", ann_2.rating.rating, u64::from(ann_2.games)),
        ("bob", bob_2.rating.rating, u64::from(bob_2.games)),
    ];
    expected.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert_eq!(provisional, expected);
    let unknown = cy.get("/api/leaderboard/hyperbullet");
    assert_eq!((unknown.status, unknown.kind()), (404, "no_category"));
    let nobody = cy.get("/api/users/nobody/ratings");
    assert_eq!((nobody.status, nobody.kind()), (404, "no_user"));
}

on_both_backends!(rated_games_change_ratings_once_and_nothing_else_does);

/// A finished game's record says who played (names, ratings before), when, where, how (rated
/// or casual, its clock) and how it ended, in its tags; the referee still reads it, and an
/// anonymous player is named so.
fn a_records_tags_name_the_players_their_ratings_the_date_site_clock_and_end(backend: Backend) {
    let dir = TempDir::new(&format!("record-tags-{backend:?}"));
    let server = ServeProcess::start(SERVER, backend.database(&dir), &["create_limit=0"]);
    let addr = &server.addr;
    let (ann, bob) = (signed_up(addr, "ann"), signed_up(addr, "bob"));
    let game = seek_taken(&ann, &bob, true);
    play(&ann, &game);
    play(&bob, &game);
    act(&ann, &game, "resign");
    let text = ann.get(&format!("/api/games/{game}/record")).body;
    let text = text.as_str().expect("the record is text");
    let record: lgame::Record = text.parse().expect("the record reads back");
    let tag = |name: &str| record.tag(name).map(str::to_string);
    assert_eq!(tag("Red").as_deref(), Some("ann"), "{text}");
    assert_eq!(tag("Blue").as_deref(), Some("bob"), "{text}");
    assert_eq!(tag("Site"), Some(format!("http://{addr}")), "{text}");
    assert_eq!(tag("Event").as_deref(), Some("Rated blitz game"), "{text}");
    assert_eq!(tag("RedRating").as_deref(), Some("1500"), "{text}");
    assert_eq!(tag("BlueRating").as_deref(), Some("1500"), "{text}");
    assert_eq!(tag("TimeControl").as_deref(), Some("180+2"), "{text}");
    assert_eq!(tag("Result").as_deref(), Some("0-1"), "{text}");
    assert_eq!(tag("Termination").as_deref(), Some("resignation"), "{text}");
    assert_eq!(tag("Ending").as_deref(), Some("resignation"), "{text}");
    // The date is today's (or yesterday's, just after midnight UTC), its days since 1970
    // counted here the long way round.
    let date = tag("Date").expect("a date");
    let [y, m, d]: [i64; 3] = date
        .split('.')
        .map(|n| n.parse().expect("a number"))
        .collect::<Vec<_>>()
        .try_into()
        .unwrap_or_else(|_| panic!("a date as YYYY.MM.DD: {date}"));
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let months = [
        31,
        if leap(y) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let days: i64 = (1970..y)
        .map(|y| if leap(y) { 366 } else { 365 })
        .sum::<i64>()
        + months[..(m - 1) as usize].iter().sum::<i64>()
        + d
        - 1;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let today = (now.unwrap().as_secs() / 86_400) as i64;
    assert!(days == today || days == today - 1, "{date}");
    let judged = lgame::referee::judge(text).expect("the referee reads the record");
    assert!(judged.valid, "{judged:?}");

    // A casual game against the computer, unfinished: an anonymous player and the computer.
    let stranger = Browser::new(addr);
    let made = stranger.post(
        "/api/games",
        &json!({ "red": "human", "blue": "perfect", "hold": ["red"] }),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_str().unwrap();
    let text = stranger.get(&format!("/api/games/{id}/record")).body;
    let record: lgame::Record = text.as_str().unwrap().parse().unwrap();
    assert_eq!(record.tag("Red"), Some("Anonymous"), "{text}");
    assert_eq!(record.tag("Blue"), Some("computer (perfect)"), "{text}");
    assert_eq!(record.tag("Event"), Some("Casual game"), "{text}");
    assert_eq!(record.tag("RedRating"), None, "{text}");
    assert_eq!(record.tag("Ending"), None, "{text}");
}

on_both_backends!(a_records_tags_name_the_players_their_ratings_the_date_site_clock_and_end);
