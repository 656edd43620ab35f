use lgame_test_support::TempDir;

use super::*;
use crate::store::Synchronous;

/// The games on an SQLite file in a folder of the test's own, removed afterwards.
pub(crate) fn app(name: &str) -> (TempDir, Games) {
    let dir = TempDir::new(name);
    let store = Store::sqlite(&dir.db(), Synchronous::Normal).unwrap();
    let games = Games::new(store, 100, crate::DEFAULT_MAX_TABLE_STATES);
    (dir, games)
}

/// Whether a new classic game of human against `computer` has quick replies, with the
/// app's tables (which creating the game filled if the player probes one) and with none.
fn quick(app: &Arc<Games>, computer: &str) -> (bool, bool) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = runtime
        .block_on(app.create(NewGame::new(
            Game::new(Rules::classic()),
            [Seat::Human, computer.parse().unwrap()],
        )))
        .unwrap();
    let slot = app.cached(&started.id).unwrap();
    let live = slot.blocking_lock();
    (
        live.replies_quick(&app.tablebases),
        live.replies_quick(&Tablebases::default()),
    )
}

#[test]
fn a_reply_is_quick_only_from_a_level_that_does_not_search_with_its_table_held() {
    let (_dir, app) = app("quick");
    let app = Arc::new(app);
    assert_eq!(quick(&app, "human"), (true, true));
    assert_eq!(quick(&app, "random"), (true, true), "random needs no table");
    assert_eq!(quick(&app, "perfect"), (true, false), "perfect: its table");
    assert_eq!(
        quick(&app, "beginner:40"),
        (true, false),
        "a strength probes"
    );
    assert_eq!(quick(&app, "intermediate"), (false, false), "it searches");
}

/// A new game of `red` against `blue`.
pub(crate) async fn started(games: &Arc<Games>, red: &str, blue: &str) -> Started {
    let seats = [red.parse().unwrap(), blue.parse().unwrap()];
    let new = NewGame::new(Game::new(Rules::classic()), seats);
    games.create(new).await.ok().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pages_presence_is_told_to_the_copy_of_the_game_it_watches() {
    let (_dir, games) = app("presence-copy");
    let games = Arc::new(games);
    let game = started(&games, "human", "human").await;
    let red = || Who::Token(game.tokens[0].clone().unwrap());
    // Page 1 watches the first copy; the game is forgotten; page 2 watches the second.
    let first = games.cached(&game.id).unwrap();
    let here = games.run_on(&game.id, first.clone(), red(), Command::Present);
    assert!(here.await.is_ok());
    games.forget(&game.id);
    assert!(games.run(&game.id, red(), Command::Present).await.is_ok());
    // Page 1 closes: the second copy still has page 2.
    let gone = games.run_on(&game.id, first, red(), Command::Absent).await;
    assert!(gone.is_ok());
    let present = games.read(&game.id, &Who::Nobody, |live, _| live.state().present);
    assert!(present.await.ok().unwrap().1.red, "page 2 is open");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computers_game_forgotten_and_reloaded_is_played_by_one_loop() {
    let (_dir, games) = app("autoplay-forgotten");
    let delay = std::time::Duration::from_millis(20);
    let (_stop, stopping) = tokio::sync::watch::channel(false);
    let games = Arc::new(games.with_autoplay(delay, stopping));
    // Perfect against perfect: drawn for ever, so it plays on for the whole test.
    let game = started(&games, "perfect", "perfect").await;
    games.play_if_computers(&game.id).await;
    let plies = || async {
        let read = games.read(&game.id, &Who::Nobody, |live, _| live.state().plies);
        read.await.ok().unwrap().1
    };
    // Forgotten three times, each time reloaded (which plays the game on).
    for _ in 0..3 {
        tokio::time::sleep(delay * 2).await;
        games.forget(&game.id);
        plies().await;
    }
    // A loop plays a ply a delay at most: four loops would play about four.
    let before = plies().await;
    tokio::time::sleep(delay * 20).await;
    let played = plies().await - before;
    assert!(played <= 25, "{played} plies in 20 delays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_refused_before_the_end_and_to_anyone_but_a_side() {
    let (_dir, games) = app("rematch-refused");
    let games = Arc::new(games);
    let game = started(&games, "human", "human").await;
    let red = Who::Token(game.tokens[0].clone().unwrap());
    let refusal = |outcome: Result<Outcome, GameError>| match outcome {
        Ok(_) => "allowed",
        Err(e) => crate::error::ApiError::from(e).body.kind,
    };
    let early = games.run(&game.id, red.clone(), Command::Rematch).await;
    assert_eq!(refusal(early), "not_over");
    for who in [Who::Server, Who::Token("not a token".into())] {
        let outcome = games.run(&game.id, who, Command::Rematch).await;
        assert_eq!(refusal(outcome), "not_a_side");
    }
    assert!(games
        .run(&game.id, red.clone(), Command::Resign)
        .await
        .is_ok());
    let rematch = games.run(&game.id, red, Command::Rematch).await;
    assert!(matches!(rematch, Ok(Outcome::Started(_))));
}
