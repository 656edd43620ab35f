//! The web page in a real browser (Debian's headless Chromium through chromedriver) against
//! the server on loopback, in the test's process: a whole game by clicking, an illegal
//! attempt, two friends in two browsers, a game between two computers watched, keyboard-only
//! play, both languages, and the screens photographed and printed. The analysis, editor and
//! puzzle views are in `web_views.rs`.

use crate::browser_common;

use browser_common::*;
use lgame::{Position, Rules, Square};
use lgame_test_support::browser::{self, Session, KEY_ENTER, KEY_TAB};
use lgame_test_support::http::a_legal_move;
use serde_json::{json, Value};

#[test]
fn a_whole_game_against_the_computer_played_by_clicking_cells_to_its_end() {
    let bench = bench("web-whole-game");
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    page.find("form[data-way=computer] summary").click();
    page.find("select[name=level] option[value=random]").click();
    let limit = page.find("input[name=turn-limit]");
    limit.clear();
    limit.send_keys("60");
    page.find("button.start").click();
    page.wait_until("the game to open", || page.url().contains("#/game/"));
    wait_for_view(&page);

    let mut moves = 0;
    loop {
        wait_for_my_turn(&page);
        let (plies, position, over, turn) = status(&page);
        if over {
            break;
        }
        assert_eq!(turn, "red", "the person plays Red");
        let (entry, _) = best_move(&bench, "classic", &position);
        play_by_clicking(&page, &entry);
        wait_for_ply(&page, plies + 2);
        moves += 1;
        assert!(moves <= 40, "a 60-ply game ran past its limit");
    }
    let id = page.url().split("#/game/").nth(1).unwrap()[..16].to_string();
    let state = bench.server.state(&id);
    assert_eq!(state["over"], true, "{state}");
    let banner = page.find(".banner");
    assert!(banner.is_displayed());
    let text = banner.text();
    assert!(
        text.contains(state["conclusion"].as_str().unwrap()),
        "the banner says {text:?}, the server {}",
        state["conclusion"]
    );
    assert!(text.contains(state["result"].as_str().unwrap()), "{text}");
    assert!(state["plies"].as_u64().unwrap() >= 2);
    page.screenshot(artifacts_dir().join("web-game-over.png"));
    no_console_errors(&page);
}

#[test]
fn an_illegal_attempt_shows_its_reason_and_changes_nothing() {
    let bench = bench("web-illegal");
    let (id, _, address) = bench.red_game("perfect", json!({}));
    let page = bench.driver.session();
    bench.open(&page, &address);
    wait_for_my_turn(&page);

    // A cell of Blue's L: the rules library says why, word for word.
    let state = bench.server.state(&id);
    let position =
        Position::from_text(state["position"].as_str().unwrap(), &Rules::classic()).unwrap();
    let blue: Square = position.l(lgame::Color::Blue).first().unwrap();
    let reason = position
        .check_l_cells(blue.bit())
        .expect_err("Blue's cell cannot take Red's L")
        .to_string();
    click_cell(&page, &blue.to_string());
    let message = page.find(".move-message");
    page.wait_until("the reason to show", || message.text() == reason);
    assert_eq!(
        js(
            &page,
            "return document.querySelectorAll('.cell.selected').length"
        ),
        0
    );

    // A typed move that is no L: the server's reason, and nothing played.
    let input = page.find(".notation-input");
    input.send_keys("A1,A2,A3,A4");
    page.find(".notation-play").click();
    page.wait_until("the refusal to show", || {
        message.text().contains("is not an L shape")
    });
    assert_eq!(bench.server.state(&id)["plies"], 0);
    assert_eq!(status(&page).0, 0);
    no_console_errors(&page);
}

#[test]
fn dragging_across_four_cells_makes_the_l_and_a_drag_moves_the_neutral() {
    let bench = bench("web-drag");
    let (id, _, address) = bench.red_game("perfect", json!({}));
    let page = bench.driver.session();
    bench.open(&page, &address);
    wait_for_my_turn(&page);
    // From the standard setup: A1,A2,A3,B3 is a legal L with neutral moves to choose after it.
    let cells: Vec<_> = ["A3", "A2", "A1"]
        .iter()
        .chain(["B3"].iter())
        .map(|c| page.find(&format!(".board-holder [data-cell='{c}']")))
        .collect();
    // The drag goes A3 → A2 → A1, then back up through A2 and A3 to B3: a path through the
    // L's cells in the order a finger would take.
    page.drag_through(&[
        &cells[0], &cells[1], &cells[2], &cells[1], &cells[0], &cells[3],
    ]);
    page.wait_until("the L to be taken and the neutral step offered", || {
        js(
            &page,
            "return !document.querySelector('.no-neutral').disabled",
        ) == true
    });
    // Then the neutral on D1, dragged to D2: the move in two actions.
    let from = page.find(".board-holder [data-cell='D1']");
    let to = page.find(".board-holder [data-cell='D2']");
    page.drag_through(&[&from, &to]);
    wait_for_ply(&page, 2);
    assert_eq!(
        bench.server.state(&id)["moves"][0],
        "A1,A2,A3,B3 D1-D2",
        "the dragged L and the dragged neutral were played"
    );
    no_console_errors(&page);
}

#[test]
fn a_friend_game_in_two_browsers_shows_each_move_live_in_the_other() {
    let bench = bench("web-friends");
    // The host plays Blue: the friend's link plays Red and moves first.
    let host = bench.driver.session();
    bench.open(&host, "#/play");
    host.find("form[data-way=friend] summary").click();
    host.find("form[data-way=friend] input[name=colour][value=blue]")
        .click();
    host.find("form[data-way=friend] button.start").click();
    host.wait_until("the friend link", || {
        host.try_find(".friend-link").is_some_and(|link| {
            link.prop("value")
                .as_str()
                .unwrap_or("")
                .contains("invite=")
        })
    });
    let link = host
        .find(".friend-link")
        .prop("value")
        .as_str()
        .unwrap()
        .to_string();
    let share = host.find(".share");
    assert_eq!(share.attr("data-friend-present").as_deref(), Some("false"));
    assert!(host
        .find(".share img.qr")
        .attr("src")
        .unwrap()
        .contains("/api/qr?"));

    // The invitation shows the game and a button that takes the seat.
    let friend = bench.driver.session();
    friend.goto(&link);
    wait_for_view(&friend);
    friend.wait_until("the seat offered", || {
        friend
            .try_find(".take-seat")
            .is_some_and(|b| b.is_displayed())
    });
    friend.find(".take-seat").click();
    host.wait_until("the friend to be seen", || {
        share.attr("data-friend-present").as_deref() == Some("true")
    });

    // Red (the friend) moves by clicking; the host's page shows it without reloading.
    wait_for_my_turn(&friend);
    let (_, start, _, turn) = status(&friend);
    assert_eq!(turn, "red");
    let (entry, _) = best_move(&bench, "classic", &start);
    play_by_clicking(&friend, &entry);
    wait_for_ply(&host, 1);
    let after = entry["position"].as_str().unwrap();
    assert_eq!(status(&host).1, after);
    assert_eq!(
        js(
            &host,
            "return document.querySelectorAll('.board-holder .cell.last').length"
        ),
        4,
        "the host sees the last move marked"
    );

    // Blue (the host) answers; the friend's page shows it.
    wait_for_my_turn(&host);
    let (entry, _) = best_move(&bench, "classic", after);
    play_by_clicking(&host, &entry);
    wait_for_ply(&friend, 2);
    assert_eq!(status(&friend).1, entry["position"].as_str().unwrap());
    let message = host.find(".move-message");
    host.wait_until("the played move's prompt to go", || {
        message.text().is_empty()
    });
    host.screenshot(artifacts_dir().join("web-friend.png"));
    no_console_errors(&host);
    no_console_errors(&friend);
}

#[test]
fn a_game_between_two_computers_is_watched_live_through_its_watch_page() {
    let bench = bench_with("web-computers", |c| {
        c.computer_delay = std::time::Duration::from_millis(400);
        c.max_plies = 8;
    });
    let game = bench
        .server
        .create(json!({ "red": "beginner", "blue": "intermediate", "repetition": 0 }));
    let address = game.body["watch_page"].as_str().unwrap();
    assert_eq!(address, format!("/#/game/{}", game.id));
    let page = bench.driver.session();
    bench.open(&page, address.trim_start_matches('/'));
    // The plies arrive one by one, to the end, without a reload.
    wait_for_ply(&page, 3);
    page.wait_until("the game's end", || status(&page).2);
    let state = bench.server.state(&game.id);
    assert_eq!(state["over"], true);
    let (plies, position, _, _) = status(&page);
    assert_eq!(plies, state["plies"].as_u64().unwrap());
    assert_eq!(position, state["position"].as_str().unwrap());
    no_console_errors(&page);
}

/// Arrow keys from the cursor's cell to `to`, then Enter.
fn key_to_cell(page: &Session, from: &mut (i32, i32), to: &str) {
    let (col, row) = (
        i32::from(to.as_bytes()[0] - b'A'),
        to[1..].parse::<i32>().unwrap(),
    );
    let mut keys = String::new();
    let horizontal = if col > from.0 {
        browser::KEY_RIGHT
    } else {
        browser::KEY_LEFT
    };
    let vertical = if row > from.1 {
        browser::KEY_UP
    } else {
        browser::KEY_DOWN
    };
    keys.push_str(&horizontal.repeat((col - from.0).unsigned_abs() as usize));
    keys.push_str(&vertical.repeat((row - from.1).unsigned_abs() as usize));
    keys.push_str(KEY_ENTER);
    page.send_keys_to_page(&keys);
    *from = (col, row);
}

#[test]
fn keyboard_only_play_of_a_few_moves() {
    let bench = bench("web-keyboard");
    let (id, _, address) = bench.red_game("perfect", json!({}));
    let page = bench.driver.session();
    bench.open(&page, &address);
    wait_for_my_turn(&page);

    // Tab to the board: the cursor starts on A1.
    let mut tabs = 0;
    while js(
        &page,
        "return document.activeElement.classList.contains('board-svg')",
    ) != true
    {
        page.send_keys_to_page(KEY_TAB);
        tabs += 1;
        assert!(tabs < 40, "Tab never reached the board");
    }
    let mut cursor = (0, 1);
    for n in 0..3u64 {
        wait_for_my_turn(&page);
        let (plies, position, over, _) = status(&page);
        if over {
            break;
        }
        let (entry, desc) = best_move(&bench, "classic", &position);
        for cell in entry["l"].as_array().unwrap() {
            key_to_cell(&page, &mut cursor, cell.as_str().unwrap());
        }
        let steps = entry["neutrals"].as_array().unwrap();
        for step in steps {
            key_to_cell(&page, &mut cursor, step[0].as_str().unwrap());
            key_to_cell(&page, &mut cursor, step[1].as_str().unwrap());
        }
        let others = desc["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["l"] == entry["l"] && !m["neutrals"].as_array().unwrap().is_empty());
        if steps.is_empty() && others {
            // The next stop after the board is "No neutral move".
            page.send_keys_to_page(KEY_TAB);
            assert_eq!(
                js(&page, "return document.activeElement.className"),
                "no-neutral"
            );
            page.send_keys_to_page(KEY_ENTER);
            page.execute("document.querySelector('.board-svg').focus()", vec![]);
        }
        wait_for_ply(&page, plies + 2);
        assert_eq!(
            bench.server.state(&id)["moves"][2 * n as usize],
            entry["move"],
            "the keyboard played the chosen move"
        );
    }
    assert!(status(&page).0 >= 2);
    no_console_errors(&page);
}

/// Every way a game can end, by the name the server gives it (a game state's `ending`). The
/// match names every variant: a new one does not compile until it is listed here.
fn every_ending() -> Vec<&'static str> {
    use lgame::game::{Ending, Termination};
    use lgame::position::End;
    let mut all = vec![
        Ending::Board(End::Trapped),
        Ending::Board(End::Symmetry),
        Ending::Board(End::ScoreTarget),
        Ending::TurnLimit,
        Ending::Repetition,
    ];
    all.extend(Termination::ALL.map(Ending::Declared));
    for ending in &all {
        match ending {
            Ending::Board(End::Trapped | End::Symmetry | End::ScoreTarget)
            | Ending::TurnLimit
            | Ending::Repetition
            | Ending::Declared(_) => {}
        }
    }
    all.into_iter().map(Ending::name).collect()
}

#[test]
fn every_end_refusal_and_error_the_server_can_send_has_words_in_every_language() {
    let bench = bench("web-words");
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    // The rules' reasons, as the OpenAPI document lists them.
    let document = bench.server.get("/api/openapi.json").body;
    let schemas = &document["components"]["schemas"];
    let mut reasons: Vec<String> = schemas["IllegalMove"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|one| {
            one["properties"]["kind"]["enum"][0]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    reasons.extend(
        schemas["NoPlacementKind"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string()),
    );
    assert!(reasons.len() >= 10, "{reasons:?}");
    let mut wanted: Vec<String> = every_ending()
        .iter()
        .map(|e| format!("end.{}", e.replace(' ', "-")))
        .collect();
    wanted.push("end.aborted-headline".into());
    wanted.push("end.abandoned-draw".into());
    wanted.extend(reasons.iter().map(|r| format!("refusal.{r}")));
    wanted.extend(lgame_web::ERROR_KINDS.iter().map(|k| format!("error.{k}")));
    let missing = page.execute_async(
        "const [wanted, done] = [arguments[0], arguments[arguments.length - 1]];
         const languages = [...document.querySelectorAll('#language option')].map((o) => o.value);
         Promise.all(languages.map((l) => import(`/assets/i18n/${l}/index.js`))).then((texts) => {
           const missing = {};
           texts.forEach((text, i) => {
             const lacking = wanted.filter((key) => typeof text.default[key] !== 'string' || !text.default[key].trim());
             if (lacking.length) missing[languages[i]] = lacking;
           });
           done({ languages, missing });
         });",
        vec![json!(wanted)],
    );
    assert!(
        missing["languages"].as_array().unwrap().len() >= 2,
        "{missing}"
    );
    assert_eq!(missing["missing"], json!({}), "texts no language may lack");
}

#[test]
fn english_and_russian_have_the_same_texts_and_the_page_switches() {
    let bench = bench("web-languages");
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    let texts = page.execute_async(
        "const done = arguments[arguments.length - 1];
         Promise.all([import('/assets/i18n/en/index.js'), import('/assets/i18n/ru/index.js')])
           .then(([en, ru]) => {
             const [a, b] = [en.default, ru.default];
             const only = (x, y) => Object.keys(x).filter(k => !(k in y));
             const empty = (x) => Object.keys(x).filter(k => typeof x[k] === 'string' && !x[k].trim());
             done({ count: Object.keys(a).length, onlyEnglish: only(a, b), onlyRussian: only(b, a),
                    emptyEnglish: empty(a), emptyRussian: empty(b) });
           });",
        vec![],
    );
    for list in ["onlyEnglish", "onlyRussian", "emptyEnglish", "emptyRussian"] {
        assert_eq!(texts[list], json!([]), "{list}");
    }
    assert!(texts["count"].as_u64().unwrap() > 100, "{texts}");
    assert_eq!(page.find("#nav a[href='#/play']").text(), "Play");
    page.find("#language option[value=ru]").click();
    page.wait_until("the Russian page", || {
        page.find("#nav a[href='#/play']").text() == "Игра"
    });
    assert_eq!(js(&page, "return document.documentElement.lang"), "ru");
    // The choice is kept.
    page.refresh();
    wait_for_view(&page);
    assert_eq!(page.find("#nav a[href='#/play']").text(), "Игра");

    // The rules' refusals and the end of a game are said in Russian too.
    let (_, _, address) = bench.red_game("perfect", json!({}));
    bench.open(&page, &address);
    wait_for_my_turn(&page);
    click_cell(&page, "C2");
    let message = page.find(".move-message");
    page.wait_until("a Russian refusal", || {
        message.text() == "L-фигуру нельзя поставить на C2: там стоит L-фигура синих"
    });
    page.find(".notation-input").send_keys("A1,A2,A3,A4");
    page.find(".notation-play").click();
    page.wait_until("a Russian refusal of a typed move", || {
        message.text() == "ход «A1,A2,A3,A4» невозможен: A1,A2,A3,A4 — это не L-фигура"
    });
    resign_in_page(&page);
    let how = page.find(".banner .end-how");
    page.wait_until("a Russian ending", || {
        how.text() == "Синие выигрывают: Красные сдались (0-1)"
    });
    assert_eq!(page.find(".banner .end-headline").text(), "Вы проиграли");
    no_console_errors(&page);
}

/// Photographs every screen (both themes, both languages, a phone) and prints the kit.
#[test]
fn the_main_screens_are_photographed_and_the_print_page_renders_to_pdf() {
    let bench = bench("web-screens");
    let (id, token, game_address) = bench.red_game("intermediate", json!({}));
    let state = bench.server.state(&id);
    let mv = a_legal_move(&state, 3);
    assert_eq!(bench.server.play(&id, &token, 1, &mv).status, 200);
    let screens = [
        ("play", "#/play".to_string()),
        ("game", game_address.clone()),
        (
            "analyse",
            "#/analyse?variant=classic&position=kit".to_string(),
        ),
        ("editor", "#/editor".to_string()),
        ("puzzles", "#/puzzles".to_string()),
        ("learn", "#/learn".to_string()),
        ("print", "#/print".to_string()),
    ];
    let dir = artifacts_dir();
    let page = bench.driver.session();
    for (theme, language) in [("light", "en"), ("dark", "ru")] {
        bench.open(&page, "#/play");
        page.execute(
            "localStorage.setItem('lgame.theme', arguments[0]); localStorage.setItem('lgame.language', arguments[1])",
            vec![json!(theme), json!(language)],
        );
        for (name, address) in &screens {
            bench.open(&page, address);
            page.refresh();
            wait_for_view(&page);
            // Let the view's requests finish (solves, diagrams) before the photograph.
            std::thread::sleep(std::time::Duration::from_millis(600));
            let png = page.screenshot(dir.join(format!("web-{name}-{theme}-{language}.png")));
            assert!(
                png.len() > 10_000,
                "{name}: a {} byte screenshot",
                png.len()
            );
            let text = js(
                &page,
                "return document.querySelector('main').innerText.length",
            );
            assert!(text.as_u64().unwrap() > 50, "{name} shows almost nothing");
            assert_eq!(
                js(&page, "return document.documentElement.dataset.theme"),
                theme
            );
        }
        no_console_errors(&page);
    }

    // Only this server is ever asked for anything.
    let foreign = js(
        &page,
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin))",
    );
    assert_eq!(foreign, json!([]), "requests to other hosts");

    // A phone: the game fits the screen's width. (A game of its own: the first game's token
    // seated the first browser, and a token seats one browser only.)
    let (_, _, phone_game) = bench.red_game("intermediate", json!({}));
    let phone = bench.driver.phone();
    bench.open(&phone, &phone_game);
    wait_for_my_turn(&phone);
    phone.screenshot(dir.join("web-game-phone.png"));
    assert_eq!(
        js(
            &phone,
            "return document.documentElement.scrollWidth <= window.innerWidth"
        ),
        true,
        "the page is wider than a phone"
    );

    // The kit, printed by Chromium on A4 (through the driver) and on its default Letter
    // (its own command line): two pages each, the board and pieces, then rules and sheet.
    bench.open(&page, "#/print");
    let a4 = page.print_pdf(dir.join("web-print-kit-a4.pdf"));
    assert_eq!(pdf_pages(&a4), 2, "the kit on A4");
    let letter = browser::print_to_pdf_command(
        &bench.server.url("/#/print"),
        &dir.join("web-print-kit-letter.pdf"),
    );
    assert_eq!(pdf_pages(&letter), 2, "the kit on Letter");
    assert!(letter.len() > 50_000, "a {} byte PDF", letter.len());
}

/// Pages in a PDF: its `/Type /Page` objects (not `/Pages`).
fn pdf_pages(pdf: &[u8]) -> usize {
    pdf.windows(12)
        .filter(|w| w.starts_with(b"/Type /Page") && w[11] != b's')
        .count()
}

/// The red L's cells as the board draws them, sorted.
fn red_l_on_board(page: &Session) -> Vec<String> {
    let v = js(
        page,
        "return [...document.querySelectorAll('.board-holder .cell')].filter(g => g.querySelector('.l-red')).map(g => g.dataset.cell).sort()",
    );
    serde_json::from_value(v).unwrap()
}

/// Lets the move the page sent (and the test's fetch held back) go to the server.
fn release_move(page: &Session) {
    page.wait_until("the move to be sent", || {
        js(page, "return typeof window.releaseMove === 'function'") == true
    });
    js(
        page,
        "const go = window.releaseMove; window.releaseMove = null; go();",
    );
}

#[test]
fn a_move_by_three_clicks_shows_at_once_and_the_reply_slides_in() {
    let bench = bench("web-feel");
    let (id, _, address) = bench.red_game("random", json!({}));
    let page = bench.driver.session();
    bench.open(&page, &address);
    wait_for_my_turn(&page);
    assert!(
        page.find(".move-hint").is_displayed(),
        "the hint before the first move"
    );
    // The server's answer is held until the test lets it go, and the page's animations are
    // counted on every frame.
    js(
        &page,
        "const real = window.fetch;
         window.fetch = (url, init) => init && init.method === 'POST' && String(url).endsWith('/moves')
           ? new Promise((go) => { window.releaseMove = go; }).then(() => real(url, init))
           : real(url, init);
         window.mostAnimations = 0;
         (function count() {
           window.mostAnimations = Math.max(window.mostAnimations, document.getAnimations().length);
           requestAnimationFrame(count);
         })();",
    );

    // A move without a neutral step, and two of its L's cells: the first shared with other
    // legal Ls, the two together with none.
    let (_, start, _, _) = status(&page);
    let desc = bench.describe("classic", &start);
    let l_moves = desc["l_moves"].as_array().unwrap();
    let through = |cells: &[&str]| -> Vec<&Value> {
        l_moves
            .iter()
            .filter(|l| {
                cells
                    .iter()
                    .all(|c| l.as_array().unwrap().contains(&json!(c)))
            })
            .collect()
    };
    let (entry, first, second) = desc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["neutrals"].as_array().unwrap().is_empty())
        .find_map(|m| {
            let l = l_cells(m);
            l.iter().find_map(|&a| {
                l.iter()
                    .find(|&&b| b != a && through(&[a]).len() >= 2 && through(&[a, b]).len() == 1)
                    .map(|&b| (m.clone(), a.to_string(), b.to_string()))
            })
        })
        .expect("such a move from the standard setup");

    // Click 1: the cells that can still complete an L through it are marked, and nothing is
    // drawn over the board.
    click_cell(&page, &first);
    let open = js(
        &page,
        "return [...document.querySelectorAll('.board-holder .cell.open')].map(g => g.dataset.cell).sort()",
    );
    let mut completing: Vec<String> = through(&[&first])
        .iter()
        .flat_map(|l| {
            l.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
        })
        .filter(|c| *c != first)
        .collect();
    completing.sort();
    completing.dedup();
    assert_eq!(
        open,
        json!(completing),
        "the cells that complete an L through {first}"
    );
    assert_eq!(
        js(
            &page,
            "return document.querySelectorAll('.board-holder .marks > *').length"
        ),
        json!(0),
        "no line drawn over the board"
    );
    page.screenshot(artifacts_dir().join("web-pick-narrowing.png"));
    // Click 2: one legal L alone goes through both cells, and it is taken; click 3: no
    // neutral move.
    click_cell(&page, &second);
    assert_eq!(
        selected_cells(&page),
        Vec::<String>::new(),
        "the L is taken"
    );
    page.find(".no-neutral").click();

    // The person's L is on the board before the server has even been asked.
    let mut wanted: Vec<String> = entry["l"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    wanted.sort();
    page.wait_until("the person's L drawn at once", || {
        red_l_on_board(&page) == wanted
    });
    assert_eq!(
        bench.server.state(&id)["plies"],
        0,
        "the move is still held"
    );
    assert_eq!(status(&page).0, 0);
    assert_eq!(
        js(&page, "return window.mostAnimations"),
        json!(0),
        "nothing slid yet"
    );

    // Let it go: the computer's reply arrives and slides into place.
    release_move(&page);
    wait_for_ply(&page, 2);
    let state = bench.server.state(&id);
    assert_eq!(
        state["moves"][0], entry["move"],
        "three clicks played the chosen move"
    );
    page.wait_until("the reply's animation", || {
        js(&page, "return window.mostAnimations")
            .as_u64()
            .unwrap_or(0)
            > 0
    });
    assert!(
        !page.find(".move-hint").is_displayed(),
        "no hint after the first move"
    );

    // Under reduced motion nothing slides: the same exchange again, with the page told that
    // the person prefers reduced motion.
    page.wait_until("the first reply's animation to finish", || {
        js(&page, "return document.getAnimations().length") == json!(0)
    });
    js(
        &page,
        "const real = window.matchMedia.bind(window);
         window.matchMedia = (q) => q.includes('prefers-reduced-motion')
           ? { ...real(q), matches: true, media: q }
           : real(q);
         window.mostAnimations = 0;",
    );
    wait_for_my_turn(&page);
    let (plies, position, over, _) = status(&page);
    assert!(!over, "the game goes on after two plies");
    let desc = bench.describe("classic", &position);
    let next = desc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| bench.describe("classic", m["position"].as_str().unwrap())["outcome"].is_null())
        .expect("a move that does not end the game")
        .clone();
    play_by_clicking(&page, &next);
    release_move(&page);
    wait_for_ply(&page, plies + 2);
    assert_eq!(status(&page).0, plies + 2, "the computer replied");
    // Two frames after the reply is drawn: an animation would have been counted.
    page.execute_async(
        "const done = arguments[arguments.length - 1];
         requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
        vec![],
    );
    assert_eq!(
        js(&page, "return window.mostAnimations"),
        json!(0),
        "a slide under reduced motion"
    );
    no_console_errors(&page);
}

#[test]
fn a_won_game_says_you_won_and_its_rematch_swaps_colours_with_the_board_turned_for_blue() {
    let bench = bench("web-rematch");
    // The page's default opponent is one a newcomer can beat, and the strength is explained.
    let page = bench.driver.session();
    bench.open(&page, "#/play");
    assert_eq!(page.find("select[name=level]").prop("value"), "beginner");
    page.find("form[data-way=computer] summary").click();
    assert!(page.find(".strength-hint").is_displayed());

    // A position won at once for the side to move: the person plays that side.
    let classes = bench
        .server
        .get("/api/classes?variant=classic&value=win&plies=1");
    let start = classes.body["positions"][0]["position"]
        .as_str()
        .unwrap()
        .to_string();
    let (me, other) = if start.ends_with(" r") {
        ("red", "blue")
    } else {
        ("blue", "red")
    };
    let game = bench
        .server
        .create(json!({ me: "human", other: "beginner", "setup": start }));
    let token = if me == "red" {
        game.red.clone()
    } else {
        game.blue.clone()
    }
    .unwrap();
    bench.open(&page, &format!("#/game/{}?{me}={token}", game.id));
    wait_for_my_turn(&page);
    let flipped = || page.find(".board-holder .board-svg").attr("data-flipped");
    assert_eq!(
        flipped().as_deref(),
        Some(if me == "blue" { "true" } else { "false" }),
        "{me}'s side nearest"
    );

    let (entry, _) = best_move(&bench, "classic", &start);
    play_by_clicking(&page, &entry);
    page.wait_until("the game's end", || status(&page).2);
    let state = bench.server.state(&game.id);
    assert_eq!(page.find(".banner .end-headline").text(), "You won");
    page.screenshot(artifacts_dir().join("web-game-won.png"));
    let how = page.find(".banner .end-how").text();
    assert!(
        how.contains(state["conclusion"].as_str().unwrap()),
        "{how} / {state}"
    );
    for control in ["undo", "redo", "draw", "resign"] {
        assert_eq!(
            page.find(&format!(".game-actions .{control}"))
                .prop("disabled"),
            true,
            "{control} is off once the game is over"
        );
    }

    // The rematch: a new game, colours swapped, the same level and rules, opened at once.
    page.find(".banner .rematch").click();
    page.wait_until("the rematch to open", || {
        !page.url().contains(&game.id) && page.url().contains("#/game/")
    });
    let new_id = page.url().split("#/game/").nth(1).unwrap()[..16].to_string();
    let rematch = bench.server.state(&new_id);
    assert_eq!(rematch["seats"][me], "beginner", "{rematch}");
    assert_eq!(rematch["seats"][other], "human", "{rematch}");
    assert_eq!(rematch["variant"], state["variant"]);
    assert_eq!(rematch["rematch_of"], json!(game.id));
    // The new seat is this browser's, as the old one was: the address holds no token.
    assert!(
        page.url().ends_with(&format!("#/game/{new_id}")),
        "{}",
        page.url()
    );
    wait_for_view(&page);
    page.wait_until("the rematch's board", || {
        flipped().as_deref() == Some(if other == "blue" { "true" } else { "false" })
    });
    // The board turns round on request, and back.
    let before = flipped();
    page.find(".game-actions .flip").click();
    assert_ne!(flipped(), before);
    page.find(".game-actions .flip").click();
    assert_eq!(flipped(), before);
    // Sounds: on at first, turned off, and remembered.
    let sound = || page.find(".game-actions .sound").attr("aria-pressed");
    assert_eq!(sound().as_deref(), Some("true"));
    page.find(".game-actions .sound").click();
    assert_eq!(sound().as_deref(), Some("false"));
    page.refresh();
    wait_for_view(&page);
    assert_eq!(
        sound().as_deref(),
        Some("false"),
        "the sound choice is kept"
    );
    no_console_errors(&page);
}

#[test]
fn a_spectator_watches_and_is_never_told_it_is_not_their_turn() {
    let bench = bench("web-spectator");
    let game = bench
        .server
        .create(json!({ "red": "human", "blue": "human" }));
    let page = bench.driver.session();
    bench.open(&page, &format!("#/game/{}", game.id));
    page.wait_until("the watching status", || status(&page).3 == "red");
    let line = page.find(".status");
    assert!(line.text().starts_with("Watching"), "{}", line.text());
    assert!(
        page.try_find(".board-svg[tabindex]").is_none(),
        "the board takes no move"
    );
    assert!(!page.find(".builder").is_displayed(), "no move controls");
    page.find(".board-holder [data-cell='A1']").click();
    // A move by Red arrives live; the spectator still only watches.
    let state = bench.server.state(&game.id);
    let mv = a_legal_move(&state, 1);
    assert_eq!(
        bench
            .server
            .play(&game.id, game.red.as_ref().unwrap(), 1, &mv)
            .status,
        200
    );
    wait_for_ply(&page, 1);
    page.wait_until("Blue's turn, watched", || {
        line.text().starts_with("Watching")
    });
    let text = js(&page, "return document.querySelector('main').innerText");
    assert!(!text.as_str().unwrap().contains("not your turn"), "{text}");
    assert!(!page.find(".game-actions .resign").is_displayed());
    page.screenshot(artifacts_dir().join("web-spectator.png"));
    no_console_errors(&page);
}

#[test]
fn a_live_game_between_friends_shows_no_analysis_until_it_ends() {
    let bench = bench("web-fair");
    let game = bench
        .server
        .create(json!({ "red": "human", "blue": "human" }));
    let (red, blue) = (game.red.clone().unwrap(), game.blue.clone().unwrap());
    let page = bench.driver.session();
    // An old host's address: the token seats this browser, the friend's is dropped, and the
    // address is the game's alone.
    bench.open(
        &page,
        &format!("#/game/{}?red={red}&friend={blue}", game.id),
    );
    wait_for_my_turn(&page);
    assert!(
        page.url().ends_with(&format!("#/game/{}", game.id)),
        "{}",
        page.url()
    );
    // The spectators' link beside the friend's.
    let watch = page.find(".watch-link").prop("value");
    assert!(
        watch
            .as_str()
            .unwrap()
            .ends_with(&format!("/#/game/{}", game.id)),
        "{watch}"
    );
    // The friend's seat is their token's (an old link's): no invitation is offered for it.
    assert_eq!(
        page.find(".share").attr("data-friend-joined").as_deref(),
        Some("true")
    );
    assert!(page.try_find(".friend-link").is_none());

    let asked = || {
        js(
            &page,
            "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/analysis')).length",
        )
    };
    assert!(!page.find(".toggle-analysis").is_displayed());
    assert!(!page.find(".open-analysis").is_displayed());
    assert!(page.find(".analysis-later").is_displayed());
    let (entry, _) = best_move(&bench, "classic", &status(&page).1);
    play_by_clicking(&page, &entry);
    wait_for_ply(&page, 1);
    assert!(
        !page.find(".toggle-analysis").is_displayed(),
        "still off after a move"
    );
    assert_eq!(asked(), json!(0), "the solver was asked in a live game");

    // Once the game ends, the analysis is there.
    resign_in_page(&page);
    page.wait_until("the game's end", || status(&page).2);
    assert_eq!(page.find(".banner .end-headline").text(), "You lost");
    let toggle = page.find(".toggle-analysis");
    assert!(toggle.is_displayed());
    assert_eq!(toggle.text(), "Show analysis");
    toggle.click();
    page.wait_until("the toggle to say what it does now", || {
        toggle.text() == "Hide analysis"
    });
    page.wait_until("the solver to be asked", || {
        asked().as_u64().unwrap_or(0) > 0
    });
    assert!(page.find(".analysis-holder").is_displayed());

    // The friend asks for a rematch from their page: this page offers to join it, and joining
    // opens this player's side of the new game (colours swapped: Blue now).
    let asked_by_friend = bench.server.post(
        &format!("/api/games/{}/rematch", game.id),
        &json!({ "token": blue }),
    );
    assert_eq!(asked_by_friend.status, 201, "{}", asked_by_friend.body);
    let new_id = asked_by_friend.body["id"].as_str().unwrap().to_string();
    let rematch = page.find(".banner .rematch");
    page.wait_until("the offer to join", || {
        rematch.text().starts_with("Join the rematch")
    });
    rematch.click();
    page.wait_until("the rematch to open", || page.url().contains(&new_id));
    assert!(
        page.url().ends_with(&format!("#/game/{new_id}")),
        "{}",
        page.url()
    );
    wait_for_view(&page);
    page.wait_until("the rematch's state", || status(&page).0 == 0);
    no_console_errors(&page);
}

#[test]
fn a_move_refused_after_it_was_drawn_is_taken_back_with_the_reason() {
    let bench = bench("web-refused");
    let (id, token, address) = bench.red_game("beginner", json!({}));
    let page = bench.driver.session();
    bench.open(&page, &address);
    wait_for_my_turn(&page);
    js(
        &page,
        "const real = window.fetch;
         window.fetch = (url, init) => init && init.method === 'POST' && String(url).endsWith('/moves')
           ? new Promise((go) => { window.releaseMove = go; }).then(() => real(url, init))
           : real(url, init);",
    );
    let (_, start, _, _) = status(&page);
    let desc = bench.describe("classic", &start);
    // The other tab plays the perfect move (the game goes on after the computer's reply);
    // this page another L.
    let (theirs, _) = best_move(&bench, "classic", &start);
    let theirs = &theirs;
    let mine = desc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["l"] != theirs["l"])
        .unwrap();
    play_by_clicking(&page, mine);
    // While the page's move is held, the same side moves otherwise (another tab): the page's
    // move comes too late and is refused.
    let mut drawn: Vec<String> = serde_json::from_value(mine["l"].clone()).unwrap();
    drawn.sort();
    page.wait_until("the move drawn at once", || red_l_on_board(&page) == drawn);
    let other = theirs["move"].as_str().unwrap();
    assert_eq!(bench.server.play(&id, &token, 1, other).status, 200);
    release_move(&page);
    let message = page.find(".move-message");
    page.wait_until("the refusal", || {
        message.attr("data-kind").as_deref() == Some("refused")
    });
    // Worded by its kind (`stale_move`) in the page's language, not the server's English.
    assert!(
        message.text().contains("has moved on"),
        "{}",
        message.text()
    );
    // The board shows the game as the server has it, not the refused move.
    wait_for_ply(&page, 2);
    let state = bench.server.state(&id);
    assert_eq!(status(&page).1, state["position"].as_str().unwrap());
    let mut played: Vec<String> = serde_json::from_value(theirs["l"].clone()).unwrap();
    played.sort();
    assert_eq!(red_l_on_board(&page), played);
    no_console_errors(&page);
}

#[test]
fn the_game_view_on_a_phone_in_russian_and_dark_for_blue() {
    let bench = bench("web-phone-blue");
    let game = bench
        .server
        .create(json!({ "red": "beginner", "blue": "human" }));
    let page = bench.driver.phone();
    bench.open(&page, "#/play");
    js(
        &page,
        "localStorage.setItem('lgame.theme', 'dark'); localStorage.setItem('lgame.language', 'ru')",
    );
    let blue = game.blue.clone().unwrap();
    bench.open(&page, &format!("#/game/{}?blue={blue}", game.id));
    page.refresh();
    wait_for_view(&page);
    wait_for_my_turn(&page);
    assert_eq!(
        page.find(".board-holder .board-svg")
            .attr("data-flipped")
            .as_deref(),
        Some("true"),
        "Blue's side nearest Blue"
    );
    assert!(page.find(".move-hint").is_displayed());
    assert!(page.find(".move-hint").text().starts_with("Как ходить"));
    let dir = artifacts_dir();
    page.screenshot(dir.join("web-game-phone-blue-dark-ru.png"));
    let (_, position, _, _) = status(&page);
    let desc = bench.describe("classic", &position);
    let cell = desc["l_moves"][0][0].as_str().unwrap().to_string();
    click_cell(&page, &cell);
    page.screenshot(dir.join("web-pick-phone-blue-dark-ru.png"));
    assert_eq!(
        js(
            &page,
            "return document.documentElement.scrollWidth <= window.innerWidth"
        ),
        true,
        "the page is wider than a phone"
    );
    no_console_errors(&page);
}
