//! Matches against deliberately broken engines: every kind of failure loses the game by
//! forfeit with its reason, the match goes on, records are saved, and no process is left.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lgame::{Color, DrawRules, Record, Rules};
use lgame_players::matches::{run_match, Contender, MatchOptions};
use lgame_players::Tablebases;

/// A scratch folder of this test's own, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("lgame-match-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A shell engine that follows the handshake and does `on_go` when asked for a move.
fn engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    lgp) echo \"id name {name}\"; \
         echo lgpok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  \
         esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

fn options(records: &Path, time_per_move: u64) -> MatchOptions {
    MatchOptions {
        rules: Rules::classic(),
        games: 2,
        time_per_move: Duration::from_millis(time_per_move),
        draw_rules: DrawRules {
            turn_limit: Some(40),
            repetition: Some(3),
        },
        seed: 5,
        records: Some(records.to_path_buf()),
    }
}

/// Whether any process's command line contains `marker`.
fn running(marker: &str) -> bool {
    let out = Command::new("ps").args(["-eo", "args"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l.contains(marker) && !l.contains("ps -eo"))
}

/// Plays a 2-game match of the broken engine against `level:random` and checks that the
/// engine forfeits both games with a reason containing `reason`.
fn forfeits_both_games(name: &str, on_go: &str, reason: &str, time_per_move: u64) {
    let scratch = Scratch::new(name);
    let command = engine(&scratch.0, name, on_go);
    let broken: Contender = command.parse().unwrap();
    let random: Contender = "level:random".parse().unwrap();
    let records = scratch.0.join("records");
    let started = Instant::now();
    let report = run_match(
        [&broken, &random],
        &options(&records, time_per_move),
        Arc::new(Tablebases::default()),
        |_| {},
    )
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the match finished"
    );
    assert_eq!(report.games, 2);
    assert_eq!(report.forfeits, 2, "{name}: {:?}", report.results);
    assert_eq!(report.standings[0].forfeits, 2);
    assert_eq!(report.standings[0].losses, 2);
    assert_eq!(report.standings[1].wins, 2);
    for game in &report.results {
        let forfeit = game.forfeit.as_ref().expect("a forfeit");
        assert!(
            forfeit.reason.contains(reason),
            "{name}: {}",
            forfeit.reason
        );
        assert_eq!(game.ending, "forfeit");
        // The broken engine is Red in game 1 and Blue in game 2.
        let side = if game.number == 1 {
            Color::Red
        } else {
            Color::Blue
        };
        assert_eq!(forfeit.side, side);
        let path = game.record.as_ref().expect("a record");
        let record: Record = std::fs::read_to_string(path).unwrap().parse().unwrap();
        assert_eq!(record.tag("Termination"), Some("forfeit"));
        assert!(record.comment.as_deref().unwrap_or("").contains(reason));
        let replayed = record.replay().expect("the record replays");
        assert_eq!(replayed.result_token(), game.result);
    }
    assert!(
        !running(&scratch.0.display().to_string()),
        "{name}: no process is left"
    );
}

#[test]
fn an_engine_that_crashes_forfeits_and_the_match_goes_on() {
    forfeits_both_games("crasher", "exit 3", "crashed", 500);
}

#[test]
fn an_engine_that_answers_an_illegal_move_forfeits_with_the_rules_reason() {
    forfeits_both_games(
        "cheater",
        "echo 'bestmove A1,A2,A3,A4'",
        "illegal move 'A1,A2,A3,A4': A1,A2,A3,A4 is not an L shape",
        500,
    );
}

#[test]
fn an_engine_that_prints_garbage_forfeits_as_malformed_output() {
    forfeits_both_games("babbler", "echo 'hello there'", "malformed output", 500);
}

#[test]
fn an_engine_that_answers_an_unreadable_move_forfeits() {
    forfeits_both_games(
        "scribbler",
        "echo 'bestmove Z9,Z8'",
        "malformed move 'Z9,Z8'",
        500,
    );
}

#[test]
fn an_engine_that_never_answers_times_out_and_is_killed() {
    forfeits_both_games("sleeper", "sleep 987", "timeout", 200);
    // The engine's own child process went with it.
    assert!(!running("sleep 987"));
}

#[test]
fn an_engine_that_refuses_forfeits_with_its_error() {
    forfeits_both_games(
        "refuser",
        "echo 'error no idea'",
        "engine error: no idea",
        500,
    );
}

#[test]
fn a_command_that_does_not_exist_forfeits_every_game() {
    let scratch = Scratch::new("missing");
    let missing: Contender = "/nonexistent/engine --please".parse().unwrap();
    let random: Contender = "level:random".parse().unwrap();
    let report = run_match(
        [&random, &missing],
        &options(&scratch.0.join("records"), 200),
        Arc::new(Tablebases::default()),
        |_| {},
    )
    .unwrap();
    assert_eq!(report.forfeits, 2);
    assert_eq!(report.standings[0].wins, 2);
}

#[test]
fn built_in_levels_play_a_whole_match_with_alternating_colours() {
    let scratch = Scratch::new("levels");
    let perfect: Contender = "level:perfect".parse().unwrap();
    let random: Contender = "level:random".parse().unwrap();
    let mut seen = Vec::new();
    let mut opts = options(&scratch.0.join("records"), 100);
    opts.games = 4;
    let report = run_match(
        [&perfect, &random],
        &opts,
        Arc::new(Tablebases::default()),
        |g| seen.push(g.number),
    )
    .unwrap();
    assert_eq!(seen, vec![1, 2, 3, 4]);
    assert_eq!(report.forfeits, 0);
    assert_eq!(report.standings[0].losses, 0, "perfect never loses");
    assert_eq!(report.red_wins + report.blue_wins + report.draws, 4);
    assert_eq!(report.results[0].red, "level:perfect");
    assert_eq!(report.results[1].blue, "level:perfect");
    for game in &report.results {
        let text = std::fs::read_to_string(game.record.as_ref().unwrap()).unwrap();
        let record: Record = text.parse().unwrap();
        assert_eq!(record.replay().unwrap().plies().len(), game.plies);
    }
}
