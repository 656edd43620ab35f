//! Arena tournaments through the API (issue #25), through servers in processes of their
//! own: twelve players paired while the arena runs, their games played (wins, resignations,
//! draws long and short, a draw after a draw) and everyone's score, sheet and streak
//! checked against the test's own scoring; players paired again with someone else, never
//! their last opponent; the end (`test_clock=true`): nobody new paired, a game in progress
//! still counted, then the podium. A player who never moves is withdrawn when the game is
//! aborted, until they join again. On PostgreSQL, two instances on one database pair one
//! arena together: the same standings through both, nobody in two games at once. And the
//! requests refused.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::{Duration, Instant};

use lgame::{Position, Rules};
use lgame_test_support::accounts::Browser;
use lgame_test_support::backends::Backend;
use lgame_test_support::http::quiet_moves;
use lgame_test_support::postgres::cluster;
use lgame_test_support::serve::{Program, ServeProcess};
use lgame_test_support::TempDir;
use serde_json::{json, Value};

const SERVER: Program = Program::TestServer(env!("CARGO_BIN_EXE_lgame-web-test-server"));

const PASSWORD: &str = "Quiet-Lantern-Orbit-71";

/// Longest wait for something the server does by itself (a pairing).
const PATIENCE: Duration = Duration::from_secs(15);

/// Correspondence, one day a move: the test clock moves past the arena's end without
/// flagging anyone, and no game is aborted while the test plays another.
fn daily() -> Value {
    json!({ "days": 1 })
}

fn server(db: &str) -> ServeProcess {
    ServeProcess::start(
        SERVER,
        db,
        &["create_limit=0", "test_clock=true", "signup_limit=100"],
    )
}

fn signed_up(addr: &str, name: &str) -> Browser {
    Browser::signed_up(addr, name, PASSWORD)
}

fn eventually(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < PATIENCE, "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn arena(browser: &Browser, id: &str) -> Value {
    let page = browser.get(&format!("/api/arenas/{id}"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.body
}

fn standings(view: &Value) -> BTreeMap<String, Value> {
    view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["username"].as_str().unwrap().to_string(), s.clone()))
        .collect()
}

fn state(browser: &Browser, game: &str) -> Value {
    let page = browser.get(&format!("/api/games/{game}"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.body
}

fn act(browser: &Browser, game: &str, action: &str) -> Value {
    let page = browser.post(&format!("/api/games/{game}/{action}"), &json!({}));
    assert_eq!(page.status, 200, "{game} {action}: {}", page.body);
    page.body
}

/// An arena's game: its id and its players' names, Red first.
#[derive(Debug, Clone)]
struct Game {
    id: String,
    players: [String; 2],
}

fn game_of(browser: &Browser, id: &str) -> Game {
    let s = state(browser, id);
    assert_eq!(
        (&s["rated"], &s["category"]),
        (&json!(true), &json!("correspondence")),
        "{s}"
    );
    let name = |side: &str| s["players"][side]["name"].as_str().unwrap().to_string();
    Game {
        id: id.to_string(),
        players: [name("red"), name("blue")],
    }
}

/// Plays `plies` moves, the side to move each time, never into a position seen before in
/// the game (no draw by repetition), none that ends it.
fn play(players: &BTreeMap<String, Browser>, game: &Game, plies: usize) {
    let mut seen = HashSet::new();
    for _ in 0..plies {
        let s = state(&players[&game.players[0]], &game.id);
        let rules: Rules = s["variant"].as_str().unwrap().parse().unwrap();
        let position = Position::from_text(s["position"].as_str().unwrap(), &rules).unwrap();
        seen.insert(position);
        let moves = quiet_moves(&s);
        let mv = moves
            .iter()
            .find(|m| {
                let mv: lgame::Move = m.parse().unwrap();
                !seen.contains(&position.play_unchecked(&mv))
            })
            .unwrap_or(&moves[0]);
        let side = usize::from(s["turn"] == "blue");
        let body = json!({ "ply": s["plies"].as_u64().unwrap() + 1, "move": mv });
        let page =
            players[&game.players[side]].post(&format!("/api/games/{}/moves", game.id), &body);
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(page.body["result"], "*", "{}", page.body);
    }
}

/// How a game ended for one player, as the test scores it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Result {
    Win,
    Loss,
    Draw(usize),
}

/// The test's own arena scoring (docs/ratings.md): each game's points, and whether the
/// player is on a streak.
fn scored(results: &[Result]) -> (Vec<u32>, bool) {
    let mut points = Vec::new();
    let mut wins_in_a_row = 0;
    let mut last_drawn = false;
    for r in results {
        let base = match r {
            Result::Win => 2,
            Result::Loss => 0,
            Result::Draw(plies) => u32::from(*plies >= 20 && !last_drawn),
        };
        points.push(if wins_in_a_row >= 2 { base * 2 } else { base });
        last_drawn = matches!(r, Result::Draw(_));
        wins_in_a_row = if *r == Result::Win {
            wins_in_a_row + 1
        } else {
            0
        };
    }
    (points, wins_in_a_row >= 2)
}

/// Ends `game`: `Some(side)` wins (the other resigns after a move each), `None` a draw
/// agreed after `plies` plies.
fn end(
    players: &BTreeMap<String, Browser>,
    results: &mut BTreeMap<String, Vec<Result>>,
    game: &Game,
    winner: Option<usize>,
    plies: usize,
) {
    play(players, game, plies);
    finish(players, results, game, winner, plies);
}

/// Ends `game`, brought to its `plies` already: won by side `winner` (the other resigns), or
/// drawn by agreement.
fn finish(
    players: &BTreeMap<String, Browser>,
    results: &mut BTreeMap<String, Vec<Result>>,
    game: &Game,
    winner: Option<usize>,
    plies: usize,
) {
    match winner {
        Some(w) => {
            let ended = act(&players[&game.players[1 - w]], &game.id, "resign");
            assert_eq!(ended["result"], ["1-0", "0-1"][w], "{ended}");
            results.get_mut(&game.players[w]).unwrap().push(Result::Win);
            results
                .get_mut(&game.players[1 - w])
                .unwrap()
                .push(Result::Loss);
        }
        None => {
            act(&players[&game.players[0]], &game.id, "draw");
            let ended = act(&players[&game.players[1]], &game.id, "draw");
            assert_eq!(ended["result"], "1/2-1/2", "{ended}");
            for p in &game.players {
                results.get_mut(p).unwrap().push(Result::Draw(plies));
            }
        }
    }
}

/// Every player's score, sheet and streak as the arena shows them, against the test's.
fn check_scores(view: &Value, results: &BTreeMap<String, Vec<Result>>) {
    let shown = standings(view);
    for (name, played) in results {
        let (points, fire) = scored(played);
        let line = &shown[name];
        assert_eq!(line["sheet"], json!(points), "{name}: {played:?} {line}");
        assert_eq!(
            line["score"],
            json!(points.iter().sum::<u32>()),
            "{name} {line}"
        );
        assert_eq!(line["fire"], fire, "{name}: {played:?} {line}");
    }
    let scores: Vec<u64> = view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_u64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let ranks: Vec<u64> = view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, (1..=ranks.len() as u64).collect::<Vec<_>>());
}

/// The games the arena shows in progress, once every player in `busy` is in one: each
/// player in one game, every game with two of them.
fn games_in_progress(
    players: &BTreeMap<String, Browser>,
    watcher: &Browser,
    id: &str,
    busy: &BTreeSet<String>,
) -> Vec<Game> {
    let mut view = Value::Null;
    eventually("every waiting player paired", || {
        view = arena(watcher, id);
        standings(&view)
            .iter()
            .filter(|(name, _)| busy.contains(*name))
            .all(|(_, s)| s["game"].is_string())
    });
    let mut by_game: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, line) in standings(&view) {
        if let Some(game) = line["game"].as_str() {
            by_game.entry(game.to_string()).or_default().push(name);
        }
    }
    let games: Vec<Game> = by_game
        .keys()
        .map(|g| game_of(&players[busy.iter().next().unwrap()], g))
        .collect();
    for g in &games {
        let mut names = g.players.to_vec();
        names.sort();
        assert_eq!(names, by_game[&g.id], "{view}");
    }
    games
}

#[test]
fn an_arena_pairs_its_players_scores_their_games_and_ends() {
    let dir = TempDir::new("arena");
    let server = server(&Backend::Sqlite.database(&dir));
    let addr = &server.addr;
    let names: Vec<String> = (0..12).map(|i| format!("p{i:02}")).collect();
    let players: BTreeMap<String, Browser> = names
        .iter()
        .map(|n| (n.clone(), signed_up(addr, n)))
        .collect();
    let maker = &players["p00"];
    let made = maker.post(
        "/api/arenas",
        &json!({ "clock": daily(), "minutes": 10, "rated": true }),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        (
            &made.body["state"],
            &made.body["category"],
            &made.body["creator"]
        ),
        (&json!("running"), &json!("correspondence"), &json!("p00"))
    );
    assert_eq!(
        made.body["ends_at"].as_i64().unwrap() - made.body["starts_at"].as_i64().unwrap(),
        600_000
    );
    assert_eq!(made.body["standings"], json!([]));
    assert_eq!(made.body["podium"], Value::Null);
    for (name, browser) in &players {
        let joined = browser.post(&format!("/api/arenas/{id}/join"), &json!({}));
        assert_eq!(joined.status, 200, "{}", joined.body);
        assert!(standings(&joined.body).contains_key(name));
    }
    let listed = maker.get("/api/arenas").body;
    assert_eq!(listed["arenas"][0]["id"], id.as_str(), "{listed}");
    assert_eq!(listed["arenas"][0]["players"], 12);

    // Everyone waiting is paired: six games.
    let everyone: BTreeSet<String> = names.iter().cloned().collect();
    let round1 = games_in_progress(&players, maker, &id, &everyone);
    assert_eq!(round1.len(), 6);
    let mut results: BTreeMap<String, Vec<Result>> =
        names.iter().map(|n| (n.clone(), Vec::new())).collect();
    let mut last_opponent: BTreeMap<String, String> = BTreeMap::new();
    let note = |last: &mut BTreeMap<String, String>, g: &Game| {
        last.insert(g.players[0].clone(), g.players[1].clone());
        last.insert(g.players[1].clone(), g.players[0].clone());
    };
    // The last game goes on to the end: a move each now.
    let long_game = round1[5].clone();
    play(&players, &long_game, 2);
    // Three wins, a long draw (a point each), a short draw (none).
    let planned = [
        (&round1[0], Some(0), 2),
        (&round1[1], Some(1), 3),
        (&round1[2], Some(0), 2),
        (&round1[3], None, 22),
        (&round1[4], None, 4),
    ];
    // Every game is brought to its last ply first, then all end together: two who end
    // first wait for new opponents, and on a slow machine could wait REMATCH_AFTER_MS (real
    // time) while the other games are played, then meet again, as they may when alone.
    for (game, _, plies) in planned {
        play(&players, game, plies);
    }
    for (game, winner, plies) in planned {
        finish(&players, &mut results, game, winner, plies);
        note(&mut last_opponent, game);
    }
    check_scores(&arena(maker, &id), &results);

    // Those ten are paired again, none with their last opponent; each game is won by the
    // player with more points, except that a player after a draw draws again (long: no
    // point for a second draw in a row).
    let mut busy: BTreeSet<String> = everyone.clone();
    busy.remove(&long_game.players[0]);
    busy.remove(&long_game.players[1]);
    for round in 2..=3 {
        let games: Vec<Game> = games_in_progress(&players, maker, &id, &busy)
            .into_iter()
            .filter(|g| g.id != long_game.id)
            .collect();
        assert_eq!(games.len(), 5, "round {round}");
        let mut planned = Vec::new();
        for game in &games {
            let [red, blue] = &game.players;
            assert_ne!(
                last_opponent.get(red),
                Some(blue),
                "{red} met {blue} twice in a row"
            );
            let drew_last = |p: &String| matches!(results[p].last(), Some(Result::Draw(_)));
            // The longer streak wins, then the higher score, then Red.
            let strength = |p: &String| {
                let streak = results[p]
                    .iter()
                    .rev()
                    .take_while(|r| **r == Result::Win)
                    .count();
                (streak, scored(&results[p]).0.iter().sum::<u32>())
            };
            if round == 2 && (drew_last(red) || drew_last(blue)) {
                planned.push((game, None, 20));
            } else {
                let winner = usize::from(strength(blue) > strength(red));
                planned.push((game, Some(winner), 2));
            }
        }
        // As in round 1: every game to its last ply, then all ended together.
        for &(game, _, plies) in &planned {
            play(&players, game, plies);
        }
        for &(game, winner, plies) in &planned {
            finish(&players, &mut results, game, winner, plies);
            note(&mut last_opponent, game);
        }
        check_scores(&arena(maker, &id), &results);
    }
    assert!(
        results.values().any(|r| scored(r).0.contains(&4)),
        "someone won on a streak: {results:?}"
    );

    // Round 4 is paired; then time is up: nobody new is paired, and the games in progress
    // still count.
    let round4: Vec<Game> = games_in_progress(&players, maker, &id, &busy)
        .into_iter()
        .filter(|g| g.id != long_game.id)
        .collect();
    assert_eq!(round4.len(), 5);
    let advanced = maker.post("/api/test/clock", &json!({ "advance_ms": 600_000 }));
    assert_eq!(advanced.status, 200, "{}", advanced.body);
    let late = players["p01"].post(&format!("/api/arenas/{id}/join"), &json!({}));
    assert_eq!((late.status, late.kind()), (409, "arena_finished"));
    end(&players, &mut results, &round4[0], Some(0), 2);
    end(&players, &mut results, &long_game, Some(1), 1);
    std::thread::sleep(Duration::from_millis(2500));
    let view = arena(maker, &id);
    let shown = standings(&view);
    for p in round4[0].players.iter().chain(&long_game.players) {
        assert_eq!(shown[p]["game"], Value::Null, "{p} paired after the end");
    }
    assert_eq!(view["state"], "running", "games still go on");
    assert_eq!(view["podium"], Value::Null);
    check_scores(&view, &results);
    for game in &round4[1..] {
        end(&players, &mut results, game, Some(0), 2);
    }
    let view = arena(maker, &id);
    assert_eq!(view["state"], "finished", "{view}");
    check_scores(&view, &results);
    let top: Vec<Value> = view["standings"].as_array().unwrap()[..3]
        .iter()
        .map(|s| s["username"].clone())
        .collect();
    assert_eq!(view["podium"], json!(top));
    let mut totals: Vec<u32> = results.values().map(|r| scored(r).0.iter().sum()).collect();
    totals.sort_unstable_by(|a, b| b.cmp(a));
    let podium_scores: Vec<u32> = view["standings"].as_array().unwrap()[..3]
        .iter()
        .map(|s| s["score"].as_u64().unwrap() as u32)
        .collect();
    assert_eq!(podium_scores, totals[..3]);
    let listed = maker.get("/api/arenas").body;
    assert_eq!(listed["arenas"][0]["state"], "finished", "{listed}");
}

#[test]
fn two_instances_pair_one_arena_together() {
    let cluster = cluster();
    let url = cluster.database("arena-instances");
    let db = url.rsplit('/').next().unwrap().to_string();
    let a = server(&url);
    let b = server(&url);
    let players: BTreeMap<String, Browser> = (0..8)
        .map(|i| {
            let name = format!("q{i}");
            let addr = if i % 2 == 0 { &a.addr } else { &b.addr };
            let browser = signed_up(addr, &name);
            (name, browser)
        })
        .collect();
    let made = players["q0"].post(
        "/api/arenas",
        &json!({ "clock": daily(), "minutes": 30, "rated": false }),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(
        (&made.body["rated"], &made.body["category"]),
        (&json!(false), &Value::Null)
    );
    let id = made.body["id"].as_str().unwrap().to_string();
    for browser in players.values() {
        let joined = browser.post(&format!("/api/arenas/{id}/join"), &json!({}));
        assert_eq!(joined.status, 200, "{}", joined.body);
    }
    let everyone: BTreeSet<String> = players.keys().cloned().collect();
    let (on_a, on_b) = (Browser::new(&a.addr), Browser::new(&b.addr));
    let busy_in_one_game = || {
        let most = cluster
            .query(
                &db,
                "SELECT coalesce(max(c), 0) FROM (SELECT x.p, count(*) AS c FROM \
                 (SELECT red AS p, game FROM arena_games UNION ALL SELECT blue, game FROM arena_games) x \
                 LEFT JOIN games g ON g.id = x.game \
                 WHERE g.id IS NULL OR (g.outcome = '*' AND g.termination IS NULL) GROUP BY x.p) y",
            )
            .unwrap();
        assert_eq!(most.trim(), "1", "a player in two games at once");
    };
    for round in 0..3 {
        let mut seen = Value::Null;
        eventually("everyone paired", || {
            seen = arena(&on_a, &id);
            standings(&seen).values().all(|s| s["game"].is_string())
        });
        busy_in_one_game();
        let lines = |v: &Value| v["standings"].clone();
        eventually("both instances show the same standings", || {
            lines(&arena(&on_b, &id)) == lines(&arena(&on_a, &id))
        });
        let games: BTreeSet<String> = standings(&seen)
            .values()
            .map(|s| s["game"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(games.len(), 4, "round {round}: {seen}");
        // Every game ends, Red winning: each player is paired again.
        for game in &games {
            let g = state(&on_a, game);
            let red = g["players"]["red"]["name"].as_str().unwrap();
            let blue = g["players"]["blue"]["name"].as_str().unwrap();
            let game = Game {
                id: game.clone(),
                players: [red.to_string(), blue.to_string()],
            };
            play(&players, &game, 1);
            act(&players[blue], &game.id, "resign");
        }
    }
    eventually("the standings agree", || {
        let (x, y) = (arena(&on_a, &id), arena(&on_b, &id));
        x["standings"] == y["standings"] && standings(&x).values().all(|s| s["game"].is_string())
    });
    busy_in_one_game();
    let view = arena(&on_b, &id);
    let total: u64 = view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_u64().unwrap())
        .sum();
    // 12 games won, 2 points each, some doubled on a streak.
    assert!(total >= 24, "{view}");
    let made = cluster
        .query(&db, "SELECT count(*) FROM arena_games")
        .unwrap();
    assert_eq!(made.trim(), "16");
    assert_eq!(everyone.len(), 8);
}

#[test]
fn bad_arenas_and_anonymous_players_are_refused() {
    let dir = TempDir::new("arena-refusals");
    let server = server(&Backend::Sqlite.database(&dir));
    let ann = signed_up(&server.addr, "ann");
    let stranger = Browser::new(&server.addr);
    let refused = |browser: &Browser, body: Value| {
        let page = browser.post("/api/arenas", &body);
        (
            page.status,
            page.kind().to_string(),
            page.body["error"].clone(),
        )
    };
    for minutes in [5, 181] {
        let (status, kind, error) = refused(&ann, json!({ "clock": daily(), "minutes": minutes }));
        assert_eq!((status, kind.as_str()), (400, "invalid"), "{error}");
        assert!(
            error.as_str().unwrap().contains("10 to 180 minutes"),
            "{error}"
        );
    }
    let (status, kind, _) = refused(
        &ann,
        json!({ "variant": "chess", "clock": daily(), "minutes": 30 }),
    );
    assert_eq!((status, kind.as_str()), (400, "bad_variant"));
    let (status, kind, _) = refused(
        &ann,
        json!({ "clock": { "initial_s": 0, "increment_s": 0 }, "minutes": 30 }),
    );
    assert_eq!((status, kind.as_str()), (400, "bad_clock"));
    let (status, kind, _) = refused(&stranger, json!({ "clock": daily(), "minutes": 30 }));
    assert_eq!((status, kind.as_str()), (401, "no_session"));
    let made = ann.post("/api/arenas", &json!({ "clock": daily(), "minutes": 30 }));
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_str().unwrap();
    for action in ["join", "leave"] {
        let page = stranger.post(&format!("/api/arenas/{id}/{action}"), &json!({}));
        assert_eq!((page.status, page.kind()), (401, "no_session"));
    }
    let missing = ann.get("/api/arenas/0000000000000000");
    assert_eq!((missing.status, missing.kind()), (404, "no_arena"));
    let missing = ann.post("/api/arenas/0000000000000000/join", &json!({}));
    assert_eq!((missing.status, missing.kind()), (404, "no_arena"));
    // An arena may be set to start later (within 30 days): upcoming, listed with the
    // running first, soonest first.
    let now = made.body["starts_at"].as_i64().unwrap();
    let later = |ahead: i64| {
        ann.post(
            "/api/arenas",
            &json!({ "clock": daily(), "minutes": 60, "starts_at": now + ahead }),
        )
    };
    let far = later(31 * 24 * 3600 * 1000);
    assert_eq!((far.status, far.kind()), (400, "invalid"), "{}", far.body);
    let upcoming = later(3_600_000);
    assert_eq!(upcoming.status, 201, "{}", upcoming.body);
    assert_eq!(upcoming.body["state"], "upcoming");
    let listed = ann.get("/api/arenas").body;
    let order: Vec<&Value> = listed["arenas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["id"])
        .collect();
    assert_eq!(order, [&made.body["id"], &upcoming.body["id"]], "{listed}");
    // Joined, then left: withdrawn, still listed.
    ann.post(&format!("/api/arenas/{id}/join"), &json!({}));
    let left = ann.post(&format!("/api/arenas/{id}/leave"), &json!({}));
    assert_eq!(left.status, 200, "{}", left.body);
    assert_eq!(standings(&left.body)["ann"]["withdrawn"], true);
    // A closed account leaves the standings, and its arenas name no creator.
    let closed = ann.delete("/api/account", Some(&json!({ "password": PASSWORD })));
    assert_eq!(closed.status, 204, "{}", closed.body);
    let after = arena(&stranger, id);
    assert_eq!(
        (&after["creator"], &after["standings"]),
        (&Value::Null, &json!([]))
    );
    assert_eq!(after["players"], 0);
}

#[test]
fn a_player_who_never_moves_is_withdrawn_when_the_game_is_aborted() {
    let dir = TempDir::new("arena-abort");
    let server = server(&Backend::Sqlite.database(&dir));
    let (ann, bob) = (
        signed_up(&server.addr, "ann"),
        signed_up(&server.addr, "bob"),
    );
    let blitz = json!({ "initial_s": 180, "increment_s": 2 });
    let made = ann.post("/api/arenas", &json!({ "clock": blitz, "minutes": 10 }));
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_string();
    for player in [&ann, &bob] {
        let joined = player.post(&format!("/api/arenas/{id}/join"), &json!({}));
        assert_eq!(joined.status, 200, "{}", joined.body);
    }
    let mut game = String::new();
    eventually("the two paired", || {
        let view = arena(&ann, &id);
        let lines = standings(&view);
        match (lines["ann"]["game"].as_str(), lines["bob"]["game"].as_str()) {
            (Some(a), Some(b)) if a == b => {
                game = a.to_string();
                true
            }
            _ => false,
        }
    });
    let red = state(&ann, &game)["players"]["red"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let advanced = ann.post("/api/test/clock", &json!({ "advance_ms": 31_000 }));
    assert_eq!(advanced.status, 200, "{}", advanced.body);
    eventually("the game aborted", || {
        state(&ann, &game)["ending"] == "aborted"
    });
    eventually("the absent withdrawn", || {
        standings(&arena(&ann, &id))[&red]["withdrawn"] == true
    });
    std::thread::sleep(Duration::from_millis(2500));
    let lines = standings(&arena(&ann, &id));
    let other = if red == "ann" { "bob" } else { "ann" };
    assert_eq!(lines[other]["withdrawn"], false);
    assert_eq!(lines[other]["game"], Value::Null, "paired with nobody");
    assert_eq!(
        lines[&red]["sheet"],
        json!([]),
        "an aborted game scores nothing"
    );
    // Joining again lifts it: the two are paired again (after the wait for a rematch).
    let back = if red == "ann" { &ann } else { &bob };
    back.post(&format!("/api/arenas/{id}/join"), &json!({}));
    let advanced = ann.post("/api/test/clock", &json!({ "advance_ms": 10_000 }));
    assert_eq!(advanced.status, 200, "{}", advanced.body);
    eventually("paired again", || {
        let lines = standings(&arena(&ann, &id));
        lines["ann"]["game"].is_string() && lines["ann"]["game"] == lines["bob"]["game"]
    });
}
