//! The people flows walked end to end (issue #37): each journey a test in which two or three
//! people, each in a Chromium of their own, do only what a person does (taps on a 390×844
//! phone, clicks on a 1280×800 desktop, typing, the back button) and read what the page says
//! back, every step photographed in `target/browser-artifacts/journeys/`. The server's time
//! is moved (`test_clock`) where a person would only wait: a flag, an abort, an arena's end.

use crate::browser_common::{
    self, api_account, bench_with, best_move, js, status, wait_for_my_turn, Bench, PASSWORD,
};
use crate::journey::Person;
use serde_json::json;

/// A bench whose server's time the test moves, and where many accounts may sign up.
fn bench(name: &str) -> Bench {
    bench_with(name, |c| {
        c.test_clock = true;
        c.signup_limit = 0;
    })
}

/// Moves the server's time forward.
fn advance(bench: &Bench, ms: i64) {
    let reply = bench
        .server
        .post("/api/test/clock", &json!({ "advance_ms": ms }));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

/// The side this person's page plays (`red`, `blue`), once its players are shown.
fn side_of(person: &Person) -> String {
    person.page.wait_until("the players", || {
        person.page.try_find(".players .player[data-you]").is_some()
    });
    person
        .page
        .find(".players .player[data-you]")
        .attr("data-side")
        .unwrap()
}

/// Whichever of the two may move now, once one may: `None` when the game is over.
fn mover(people: [&Person; 2]) -> Option<&Person> {
    let can_move = |p: &Person| {
        js(
            &p.page,
            "const i = document.querySelector('.notation-input'); return !!i && !i.disabled",
        ) == true
    };
    people[0]
        .page
        .wait_until("one of the two to have the move", || {
            people.iter().any(|p| can_move(p) || status(&p.page).2)
        });
    people.into_iter().find(|p| can_move(p))
}

/// Whichever of the two has the move plays the server's best move, by pressing the cells.
fn best_by_whoever_moves(bench: &Bench, people: [&Person; 2]) {
    let mover = mover(people).expect("a game going on");
    let (plies, position, _, _) = status(&mover.page);
    let (entry, _) = best_move(bench, "classic", &position);
    mover.play(&entry);
    mover
        .page
        .wait_until("the move played", || status(&mover.page).0 > plies);
}

/// The end's banner as this person's page words it: its headline and how.
fn banner(person: &Person) -> (String, String) {
    person.page.wait_until("the end's banner", || {
        person
            .page
            .try_find(".banner")
            .is_some_and(|b| b.is_displayed())
    });
    (
        person.text(".banner .end-headline"),
        person.text(".banner .end-how"),
    )
}

/// No text key of the page's (`end.time`, `game.won`) is shown in place of its words.
fn no_raw_keys(person: &Person) {
    let shown = js(
        &person.page,
        "return document.querySelector('main').innerText",
    );
    let shown = shown.as_str().unwrap();
    for key in ["end.", "game.", "arena.", "lobby.", "error.", "clock."] {
        assert!(
            !shown.split_whitespace().any(|w| w.starts_with(key)),
            "{}'s page shows a text key {key}…: {shown}",
            person.name
        );
    }
}

#[test]
fn two_strangers_quick_pair_at_1_0_and_a_flag_falls_with_nobody_clicking() {
    let bench = bench("journey-flag");
    let (ann, ben) = (
        Person::phone(&bench.driver, "flag", "ann"),
        Person::desktop(&bench.driver, "flag", "ben"),
    );
    ann.open(&bench, "#/play");
    ben.open(&bench, "#/play");
    ann.shot("home");
    ann.press(".pool-control[data-control='1+0']");
    ann.wait_for_words(".pool-waiting", "1+0");
    ann.shot("waiting");
    ben.press(".pool-control[data-control='1+0']");
    let game = ann.wait_for_game();
    assert_eq!(ben.wait_for_game(), game, "paired together");
    ann.shot("paired");
    ben.shot("paired");
    // A game between strangers: no friend's panel, the opponent named as who they are.
    for person in [&ann, &ben] {
        assert!(person
            .page
            .try_find(".share")
            .is_none_or(|s| !s.is_displayed()));
        assert!(
            person.sounds().contains(&"start".to_string()),
            "{} heard no start",
            person.name
        );
    }
    // Each plays a first move; the tab says whose move it is.
    best_by_whoever_moves(&bench, [&ann, &ben]);
    best_by_whoever_moves(&bench, [&ann, &ben]);
    let red = if side_of(&ann) == "red" { &ann } else { &ben };
    let blue = if side_of(&ann) == "red" { &ben } else { &ann };
    red.page
        .wait_until("Red's tab to say it is their move", || {
            red.page.title().starts_with("Your move")
        });
    assert!(!blue.page.title().starts_with("Your move"));
    red.shot("your-move");
    // Nobody clicks: Red's minute runs out.
    advance(&bench, 61_000);
    let (red_headline, red_how) = banner(red);
    let (blue_headline, blue_how) = banner(blue);
    assert_eq!(red_headline, "You lost");
    assert_eq!(blue_headline, "You won");
    for how in [&red_how, &blue_how] {
        assert_eq!(how, "Blue wins: Red ran out of time (0-1)");
    }
    assert_eq!(red.text(".status"), "Blue wins: Red ran out of time");
    // The winner's colour beside the result.
    let dot = red.page.find(".status .turn-dot").attr("class").unwrap();
    assert!(dot.contains("blue"), "{dot}");
    ann.shot("flagged");
    ben.shot("flagged");
    no_raw_keys(&ann);
    no_raw_keys(&ben);
}

#[test]
fn a_seek_made_on_a_desktop_is_taken_by_a_tap_on_a_phone() {
    let bench = bench("journey-seek");
    let (cat, dan) = (
        Person::desktop(&bench.driver, "seek", "cat"),
        Person::phone(&bench.driver, "seek", "dan"),
    );
    cat.open(&bench, "#/play");
    dan.open(&bench, "#/play");
    cat.page.execute(
        "document.querySelector('.seek-form select[name=control]').value = '3+2'",
        vec![],
    );
    cat.press(".seek-create");
    dan.page.wait_until("the seek in the phone's lobby", || {
        dan.page.try_find(".seeks .seek-accept").is_some()
    });
    dan.shot("lobby");
    // The lobby fits the phone: its Play button inside the panel and the screen.
    let fits = js(
        &dan.page,
        "const b = document.querySelector('.seeks .seek-accept').getBoundingClientRect();
         const p = document.querySelector('#lobby').getBoundingClientRect();
         return document.documentElement.scrollWidth <= innerWidth && b.right <= p.right && b.left >= p.left && b.height >= 44",
    );
    assert_eq!(fits, true, "the seek's button fits the phone's lobby");
    let words = dan.text(".seeks tbody tr");
    assert!(
        words.contains("Classic") && words.contains("3+2"),
        "{words}"
    );
    dan.press(".seeks .seek-accept");
    let game = dan.wait_for_game();
    assert_eq!(cat.wait_for_game(), game);
    dan.shot("game");
    cat.shot("game");
    let state = bench.server.state(&game);
    assert_eq!(state["clock"]["initial_s"], 180, "{state}");
}

#[test]
fn a_game_nobody_moves_in_is_aborted_on_both_pages_and_listed_nowhere_as_going_on() {
    let bench = bench("journey-abort");
    let (eve, fay) = (
        Person::phone(&bench.driver, "abort", "eve"),
        Person::desktop(&bench.driver, "abort", "fay"),
    );
    for person in [&eve, &fay] {
        browser_common::sign_up_on(&bench, &person.page, person.name);
        person.open(&bench, "#/play");
    }
    // An account's quick pairing is rated unless the player says otherwise.
    assert_eq!(eve.page.find(".pool-rated").prop("checked"), true);
    eve.press(".pool-control[data-control='3+0']");
    fay.press(".pool-control[data-control='3+0']");
    let game = eve.wait_for_game();
    assert_eq!(fay.wait_for_game(), game);
    // Nobody moves: the first move's time runs out. The server decides it (a machine
    // under load may take more than a page's wait for that), then both pages show it.
    advance(&bench, 31_000);
    eve.page.wait_for(
        "the server's abort",
        std::time::Duration::from_secs(30),
        || bench.server.state(&game)["ending"] == "aborted",
    );
    for person in [&eve, &fay] {
        let (headline, how) = banner(person);
        assert_eq!(headline, "Game aborted", "{}", person.name);
        assert!(
            how.starts_with("Game aborted: nobody moved in time"),
            "{how}"
        );
        assert!(!how.contains("(*)"), "{how}");
        assert!(!person.text(".banner").contains("Draw"));
        assert_eq!(
            js(
                &person.page,
                "return document.querySelectorAll('.end-accuracy li').length"
            ),
            json!(0),
            "no accuracy for moves never made"
        );
        assert!(person.sounds().contains(&"abort".to_string()));
        person.shot("aborted");
        no_raw_keys(person);
    }
    // In no list of games going on, and not counted as a game played.
    for person in [&eve, &fay] {
        person.open(&bench, "#/games");
        let row = format!(".games-table tr[data-id='{game}']");
        person
            .page
            .wait_until("the game listed", || person.page.try_find(&row).is_some());
        assert_eq!(
            person.page.find(&row).attr("data-result").as_deref(),
            Some("aborted")
        );
        assert!(
            person.text(&row).contains("Aborted"),
            "{}",
            person.text(&row)
        );
        assert!(person.page.try_find(&format!("{row} .resume")).is_none());
        person.shot("my-games");
        person.open(&bench, &format!("@/{}", person.name));
        person.page.wait_until("the profile", || {
            person.page.try_find(".count-list").is_some()
        });
        assert!(
            person.page.try_find(".playing .game-row").is_none(),
            "playing now"
        );
        let profile = bench
            .server
            .get(&format!("/api/users/{}", person.name))
            .body;
        assert_eq!(profile["counts"]["games"], 0, "{profile}");
        assert_eq!(profile["playing"], json!([]), "{profile}");
        person.shot("profile");
    }
}

#[test]
fn a_friend_invited_by_link_plays_and_a_spectator_watches_from_a_third_browser() {
    let bench = bench("journey-friend");
    let (gus, hal, ivy) = (
        Person::desktop(&bench.driver, "friend", "gus"),
        Person::phone(&bench.driver, "friend", "hal"),
        Person::small_phone(&bench.driver, "friend", "ivy"),
    );
    gus.open(&bench, "#/play");
    gus.press("button[data-play=friend]");
    let link = gus.shown(".friend-link").prop("value");
    let link = link.as_str().expect("the friend's link").to_string();
    let watch = gus.page.find(".watch-link").prop("value");
    let watch = watch.as_str().unwrap().to_string();
    gus.shot("invitation");
    hal.page.goto(&link);
    hal.press(".take-seat");
    let game = hal.wait_for_game();
    assert_eq!(gus.wait_for_game(), game);
    gus.wait_for_words(".share .presence", "joined");
    gus.shot("friend-joined");
    ivy.page.goto(&watch);
    browser_common::wait_for_view(&ivy.page);
    ivy.wait_for_words(".status", "to move");
    // Moves show in all three browsers; the spectator has no controls.
    best_by_whoever_moves(&bench, [&gus, &hal]);
    best_by_whoever_moves(&bench, [&gus, &hal]);
    ivy.page.wait_until("the spectator to see both moves", || {
        status(&ivy.page).0 == 2
    });
    assert!(!ivy.page.find(".game-actions .resign").is_displayed());
    assert!(ivy.page.try_find(".board-svg[tabindex]").is_none());
    ivy.shot("watching");
    hal.shot("playing");
    // The move list reads in numbered rows: 1. Red's move, Blue's move.
    let rows = js(
        &ivy.page,
        "return [...document.querySelectorAll('.game-moves li')].map(li => li.querySelectorAll('.mv').length)",
    );
    assert_eq!(rows, json!([2]));
}

#[test]
fn a_rated_challenge_to_a_server_bot_from_a_phone() {
    let bench = bench("journey-bot");
    let jo = Person::phone(&bench.driver, "bot", "jo");
    browser_common::sign_up_on(&bench, &jo.page, "jo");
    jo.open(&bench, "#/play");
    let bot = "#bots .bot[data-bot='lgame-beginner'] .bot-challenge";
    jo.page
        .wait_until("the bots", || jo.page.try_find(bot).is_some());
    assert_eq!(
        jo.page.find(".bot-rated").prop("checked"),
        true,
        "rated for an account"
    );
    jo.page.execute(
        "document.querySelector('#bots select[name=bot-control]').value = '3+2'",
        vec![],
    );
    jo.shot("bots");
    jo.press(bot);
    let game = jo.wait_for_game();
    let state = bench.server.state(&game);
    assert_eq!(state["rated"], true, "{state}");
    jo.wait_for_words(".players", "rated");
    wait_for_my_turn(&jo.page);
    let (_, position, _, turn) = status(&jo.page);
    if turn == side_of(&jo) {
        let (entry, _) = best_move(&bench, "classic", &position);
        jo.play(&entry);
    }
    jo.page
        .wait_until("the bot's answer", || status(&jo.page).0 >= 2);
    jo.shot("playing");
}

/// The moves of a game that `winner` wins quickly: the winner plays the server's best move,
/// the loser its worst.
fn play_to_a_trap(bench: &Bench, people: [&Person; 2], winner: &str) {
    for _ in 0..60 {
        let Some(mover) = mover(people) else {
            return;
        };
        let (_, position, _, _) = status(&mover.page);
        let analysis = bench.server.get(&format!(
            "/api/analysis?variant=classic&position={}",
            lgame_test_support::http::encode(&position)
        ));
        let moves = analysis.body["moves"].as_array().unwrap();
        let chosen = if mover.name == winner {
            &moves[0]
        } else {
            moves.last().unwrap()
        };
        let desc = bench.describe("classic", &position);
        let entry = desc["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == chosen["move"])
            .unwrap()
            .clone();
        mover.play(&entry);
        mover
            .page
            .wait_until("the move played", || status(&mover.page).1 != position);
    }
    panic!("no trap in 60 plies");
}

#[test]
fn two_accounts_play_a_rated_game_to_a_trapped_l_and_see_their_new_ratings() {
    let bench = bench("journey-rated");
    let (kim, lou) = (
        Person::phone(&bench.driver, "rated", "kim"),
        Person::desktop(&bench.driver, "rated", "lou"),
    );
    // Kim signs up on the phone: a refused password keeps the name, clears the password and
    // puts the finger back in the password field.
    kim.open(&bench, "#/signup");
    kim.type_into("#username", "kim");
    kim.type_into("#password", "kim");
    kim.press(".signup-form button.submit");
    kim.page.wait_until("the refusal", || {
        !kim.text(".signup-form .error").is_empty()
    });
    kim.shot("signup-refused");
    assert_eq!(kim.page.find("#username").prop("value"), "kim");
    assert_eq!(kim.page.find("#password").prop("value"), "");
    assert_eq!(
        js(&kim.page, "return document.activeElement.id"),
        "password"
    );
    kim.page.find("#password").send_keys(PASSWORD);
    kim.press(".signup-form button.submit");
    kim.page.wait_until("kim logged in", || {
        js(
            &kim.page,
            "return document.querySelector('.account-name')?.textContent ?? ''",
        )
        .as_str()
        .is_some_and(|n| n.contains("kim"))
    });
    browser_common::sign_up_on(&bench, &lou.page, "lou");
    for person in [&kim, &lou] {
        person.open(&bench, "#/play");
        person.press(".pool-control[data-control='5+0']");
    }
    let game = kim.wait_for_game();
    assert_eq!(lou.wait_for_game(), game);
    assert_eq!(bench.server.state(&game)["rated"], true);
    play_to_a_trap(&bench, [&kim, &lou], "kim");
    let (headline, how) = banner(&kim);
    assert_eq!(headline, "You won");
    assert!(how.contains("cannot move their L"), "{how}");
    assert_eq!(banner(&lou).0, "You lost");
    kim.shot("won");
    lou.shot("lost");
    // The new ratings on both profiles, and on the leaderboard (provisional, and said so).
    let ratings = bench.server.state(&game)["ratings"].clone();
    for person in [&kim, &lou] {
        person.open(&bench, &format!("@/{}", person.name));
        person.page.wait_until("the rating card", || {
            person.page.try_find(".rating-card").is_some()
        });
        let side = side_of_in(&bench, &game, person.name);
        let after = ratings[side.as_str()]["after"]["rating"].as_f64().unwrap();
        let shown = person.text(".rating-card .rating-value");
        assert!(
            shown.contains(&format!("{}", after.round() as i64)),
            "{}: {shown} (after: {after})",
            person.name
        );
        person.shot("profile");
    }
    lou.open(&bench, "#/leaderboard/blitz");
    lou.page.wait_until("the provisional players", || {
        lou.page
            .try_find(".leaders.provisional tr[data-username=kim]")
            .is_some()
    });
    assert!(lou.text(".leaders-why").contains("provisional"));
    lou.shot("leaderboard");
    // The record names them, their ratings before, the date, the clock and the end.
    let record = bench.server.get(&format!("/api/games/{game}/record")).body;
    let record = record.as_str().unwrap();
    for tag in [
        "[Red \"",
        "[Blue \"",
        "[Date \"",
        "[Site \"",
        "[Event \"Rated blitz game\"]",
        "[RedRating \"1500\"]",
        "[BlueRating \"1500\"]",
        "[TimeControl \"300+0\"]",
        "[Ending \"trapped\"]",
    ] {
        assert!(record.contains(tag), "{tag} in {record}");
    }
    assert!(record.contains("kim") && record.contains("lou"), "{record}");
}

/// The side `name` plays in `game`, as the server says.
fn side_of_in(bench: &Bench, game: &str, name: &str) -> String {
    let state = bench.server.state(game);
    ["red", "blue"]
        .into_iter()
        .find(|s| state["players"][s]["name"] == name)
        .unwrap()
        .to_string()
}

#[test]
fn an_arena_from_its_creation_to_a_game_that_opens_by_itself_and_back_to_the_podium() {
    let bench = bench("journey-arena");
    let (max, nia) = (
        Person::desktop(&bench.driver, "arena", "max"),
        Person::phone(&bench.driver, "arena", "nia"),
    );
    browser_common::sign_up_on(&bench, &max.page, "max");
    browser_common::sign_up_on(&bench, &nia.page, "nia");
    max.open(&bench, "#/arena");
    // The form is an account's: shown once the page knows who is logged in.
    max.shown("#arena-clock");
    max.page.execute(
        "document.querySelector('#arena-clock').value = '3+2'; \
         document.querySelector('#arena-minutes').value = '20';",
        vec![],
    );
    max.press(".arena-submit");
    max.page
        .wait_until("the new arena", || max.page.url().contains("#/arena/"));
    let address = max.page.url();
    let id = address.split("#/arena/").nth(1).unwrap().to_string();
    max.press(".arena-join");
    max.shot("joined");
    // Nia, on her phone, opens the arena from the list and joins with a tap.
    nia.open(&bench, "#/arena");
    nia.press(&format!(".arena-item[data-id='{id}'] .arena-link"));
    nia.press(".arena-join");
    nia.shot("joined");
    // Paired: both pages go to the game by themselves, and it names its arena.
    let game = nia.wait_for_game();
    assert_eq!(max.wait_for_game(), game);
    for person in [&max, &nia] {
        let back = person.shown(".arena-note .arena-link");
        assert_eq!(back.attr("href").unwrap(), format!("#/arena/{id}"));
        person.shot("paired");
    }
    best_by_whoever_moves(&bench, [&max, &nia]);
    best_by_whoever_moves(&bench, [&max, &nia]);
    // Max resigns, asked in the page; both go back to the arena after the countdown.
    max.press(".game-actions .resign");
    max.shot("resign-asked");
    max.press(".resign-confirm .resign-yes");
    for person in [&max, &nia] {
        banner(person);
        assert!(!person.page.find(".banner .rematch").is_displayed());
        person.shot("ended");
    }
    for person in [&max, &nia] {
        person.page.wait_until("the arena again", || {
            person.page.url().ends_with(&format!("#/arena/{id}"))
        });
    }
    nia.wait_for_words("table.standings tr[data-username=nia] .score", "2");
    // Back in the arena: it says the next game comes by itself.
    nia.wait_for_words(".arena-waiting", "next game opens by itself");
    nia.shot("back");
    // The arena ends: its podium.
    advance(&bench, 21 * 60 * 1000);
    for person in [&max, &nia] {
        person.page.wait_until("the podium", || {
            person.page.try_find(".podium-list li").is_some()
        });
        person.shot("podium");
    }
    assert!(nia.text(".podium-list").contains("nia"));
}

/// The pages a person opens, by address (`NAME` is the logged-in account).
const PAGES: [(&str, &str); 11] = [
    ("home", "#/play"),
    ("games", "#/games"),
    ("profile", "@/NAME"),
    ("leaderboard", "#/leaderboard/blitz"),
    ("arenas", "#/arena"),
    ("arena", "#/arena/ARENA"),
    ("account", "#/account"),
    ("puzzles", "#/puzzles"),
    ("analyse", "#/analyse"),
    ("editor", "#/editor"),
    ("learn", "#/learn"),
];

/// What does not fit the screen: the page wider than it, and each visible control outside
/// its panel or the screen, or smaller than a finger (44×44).
const MISFITS: &str = "
    const out = [];
    if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth} wide`);
    const controls = document.querySelectorAll('main button, main select, main input:not([type=checkbox]):not([type=radio]):not([type=hidden]), main a.button, main summary');
    for (const c of controls) {
      const r = c.getBoundingClientRect();
      if (!r.width || !r.height || c.closest('[hidden], details:not([open]) > :not(summary)')) continue;
      const holder = (c.closest('.panel, section, form') || document.querySelector('main')).getBoundingClientRect();
      const name = `${c.tagName.toLowerCase()}.${c.className} '${(c.textContent || c.value || '').trim().slice(0, 20)}'`;
      if (r.left < holder.left - 1 || r.right > holder.right + 1 || r.right > innerWidth) out.push(`${name} outside`);
      if (r.height < 44 || r.width < 44) out.push(`${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;";

/// An open seek and its seeker (whose polls keep it open).
type Seek = (lgame_test_support::accounts::Browser, String);

/// The realistic content the phone pages are checked with: a player with twenty games, an
/// arena of twenty players with games going on, a leaderboard of twenty, three open seeks.
fn realistic(bench: &Bench) -> (String, Vec<Seek>) {
    let mut players: Vec<_> = (1..=20)
        .map(|i| api_account(bench, &format!("player{i:02}")))
        .collect();
    let owner = api_account(bench, "opal");
    for _ in 0..20 {
        let made = owner.post(
            "/api/games",
            &json!({ "red": "human", "blue": "beginner", "hold": ["red"] }),
        );
        assert_eq!(made.status, 201, "{:?}", made.body);
    }
    // A full leaderboard: each pair of players plays a rated game, both move, one resigns.
    for pair in players.chunks(2) {
        let seek = pair[0].post(
            "/api/seeks",
            &json!({ "clock": { "initial_s": 300, "increment_s": 0 }, "rated": true }),
        );
        assert_eq!(seek.status, 201, "{:?}", seek.body);
        let id = seek.body["id"].as_str().unwrap();
        let took = pair[1].post(&format!("/api/seeks/{id}/accept"), &json!({}));
        assert_eq!(took.status, 201, "{:?}", took.body);
        let game = took.body["id"].as_str().unwrap().to_string();
        for _ in 0..2 {
            for player in pair {
                let state = player.get(&format!("/api/games/{game}")).body;
                if state["you"] != state["turn"] {
                    continue;
                }
                let body = json!({
                    "ply": state["plies"].as_u64().unwrap() + 1,
                    "move": lgame_test_support::http::quiet_moves(&state)[0],
                });
                let moved = player.post(&format!("/api/games/{game}/moves"), &body);
                assert_eq!(moved.status, 200, "{:?}", moved.body);
            }
        }
        let resigned = pair[0].post(&format!("/api/games/{game}/resign"), &json!({}));
        assert_eq!(resigned.status, 200, "{:?}", resigned.body);
    }
    let arena = owner.post(
        "/api/arenas",
        &json!({ "clock": { "initial_s": 180, "increment_s": 2 }, "minutes": 60, "rated": true }),
    );
    assert_eq!(arena.status, 201, "{:?}", arena.body);
    let arena = arena.body["id"].as_str().unwrap().to_string();
    for player in &players {
        let joined = player.post(&format!("/api/arenas/{arena}/join"), &json!({}));
        assert!(joined.status < 300, "{:?}", joined.body);
    }
    // Three open seeks, by three players, kept open by their polls while the pages are read.
    let seeks = players
        .drain(..3)
        .zip(["1+0", "3+2", "10+5"])
        .map(|(p, control)| {
            let (m, i) = control.split_once('+').unwrap();
            let clock = json!({ "initial_s": m.parse::<u32>().unwrap() * 60, "increment_s": i.parse::<u32>().unwrap() });
            let seek = p.post("/api/seeks", &json!({ "clock": clock, "rated": false }));
            assert_eq!(seek.status, 201, "{:?}", seek.body);
            let id = seek.body["id"].as_str().unwrap().to_string();
            (p, id)
        })
        .collect();
    (arena, seeks)
}

#[test]
fn every_page_fits_both_phone_sizes_with_realistic_content() {
    let bench = bench("journey-phone-pages");
    let (arena, seeks) = realistic(&bench);
    let people = [
        Person::phone(&bench.driver, "phone-pages", "opal-390"),
        Person::small_phone(&bench.driver, "phone-pages", "opal-360"),
    ];
    let mut misfits = Vec::new();
    for person in &people {
        // The owner logs in on the phone.
        person.open(&bench, "#/login");
        person.type_into("#username", "opal");
        person.type_into("#password", PASSWORD);
        person.press(".login-form button.submit");
        person.page.wait_until("the page after logging in", || {
            !person.page.url().contains("#/login")
        });
        person.page.wait_until("opal logged in", || {
            js(
                &person.page,
                "return document.querySelector('.account-name')?.textContent ?? ''",
            )
            .as_str()
            .is_some_and(|n| n.contains("opal"))
        });
        for (name, address) in PAGES {
            for (seeker, seek) in &seeks {
                seeker.get(&format!("/api/seeks/{seek}"));
            }
            let address = address.replace("NAME", "opal").replace("ARENA", &arena);
            person.open(&bench, &address);
            // Each page with its content, not only its frame.
            let content = match name {
                "home" => ".seeks tbody tr:nth-child(3), #bots .bot-challenge",
                "games" => ".games-table tr[data-id]:nth-child(20)",
                "arena" => "table.standings tbody tr:nth-child(20)",
                "leaderboard" => ".leaders.provisional tbody tr:nth-child(20)",
                "profile" => ".count-list",
                _ => "main h1",
            };
            let what = format!("the {name} page's content ({content})");
            person
                .page
                .wait_for(&what, std::time::Duration::from_secs(30), || {
                    content
                        .split(", ")
                        .all(|css| person.page.try_find(css).is_some())
                });
            person.shot(name);
            let found = js(&person.page, MISFITS);
            for misfit in found.as_array().unwrap() {
                misfits.push(format!(
                    "{} {name}: {}",
                    person.name,
                    misfit.as_str().unwrap()
                ));
            }
        }
    }
    assert_eq!(misfits, Vec::<String>::new(), "controls that do not fit");
}
