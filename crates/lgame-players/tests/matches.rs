//! Matches against deliberately broken engines: every kind of failure loses the game by
//! forfeit with its reason, the match goes on, records are saved (and every one is judged
//! valid), and no process is left; an engine that cannot play stops the match before it
//! begins.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lgame::game::DrawRules;
use lgame::{Color, Record, Rules};
use lgame_players::external::Failure;
use lgame_players::matches::{run_match, Contender, MatchError, MatchOptions, MatchReport};
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

/// A shell engine that runs `prelude`, follows the handshake and does `on_go` when asked
/// for a move.
fn engine_with(dir: &Path, name: &str, prelude: &str, on_go: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\n{prelude}\nwhile read -r line; do\n  case \"$line\" in\n    lgp) echo \"id name \
         {name}\"; echo lgpok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit \
         0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// A shell engine that follows the handshake and does `on_go` when asked for a move.
fn engine(dir: &Path, name: &str, on_go: &str) -> String {
    engine_with(dir, name, "", on_go)
}

/// Plays a match and judges every record it saved ([`judge_records`]).
fn judged_match(
    contenders: [&Contender; 2],
    options: &MatchOptions,
) -> Result<MatchReport, MatchError> {
    let report = run_match(contenders, options, Arc::new(Tablebases::default()), |_| {})?;
    judge_records(&report);
    Ok(report)
}

/// Judges every record of a match as `lgame judge` does: each must be valid, with the result
/// its moves and termination give.
fn judge_records(report: &MatchReport) {
    for game in &report.results {
        let path = game.record.as_ref().expect("records are saved");
        let judgement = lgame::referee::judge_bytes(&std::fs::read(path).unwrap())
            .unwrap_or_else(|e| panic!("{}: unreadable: {e}", path.display()));
        assert!(judgement.valid, "{}: {:?}", path.display(), judgement.error);
        assert!(judgement.result_agrees, "{}", path.display());
        assert_eq!(judgement.result, game.result);
    }
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
/// engine forfeits both games with `reason`, on its first move.
fn forfeits_both_games(name: &str, on_go: &str, reason: &str, time_per_move: u64) {
    let scratch = Scratch::new(name);
    let command = engine(&scratch.0, name, on_go);
    let broken: Contender = command.parse().unwrap();
    let random: Contender = "level:random".parse().unwrap();
    let records = scratch.0.join("records");
    let started = Instant::now();
    let report = judged_match([&broken, &random], &options(&records, time_per_move)).unwrap();
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
        assert_eq!(forfeit.reason, reason, "{name}");
        assert_eq!(game.ending, "forfeit");
        // The broken engine is Red in game 1 and Blue in game 2.
        let side = if game.number == 1 {
            Color::Red
        } else {
            Color::Blue
        };
        assert_eq!(forfeit.side, side);
        assert_eq!(
            game.plies as u32,
            game.number - 1,
            "on the engine's first move"
        );
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
    forfeits_both_games(
        "crasher",
        "echo 'out of memory' >&2; exit 3",
        "crashed: the engine exited (exit status: 3); its stderr ends: out of memory",
        500,
    );
}

#[test]
fn an_engine_that_answers_one_go_twice_forfeits_on_that_move() {
    forfeits_both_games(
        "stutterer",
        "echo 'bestmove A1,A2,A3,B3'; echo 'info thinking'; echo 'bestmove A1,A2,A3,B3'",
        "malformed output: a second bestmove for one go: 'bestmove A1,A2,A3,B3'",
        500,
    );
}

#[test]
fn an_engines_standard_error_is_logged_beside_the_records() {
    let scratch = Scratch::new("logger");
    let command = engine(
        &scratch.0,
        "logger",
        "echo \"thinking about $line\" >&2; exit 1",
    );
    let broken: Contender = command.parse().unwrap();
    let random: Contender = "level:random".parse().unwrap();
    let records = scratch.0.join("records");
    let report = judged_match([&random, &broken], &options(&records, 500)).unwrap();
    // The engine is Blue in game 1 (after Red's move), Red in game 2.
    let logs: Vec<Vec<_>> = report.results.iter().map(|g| g.logs.clone()).collect();
    assert_eq!(
        logs,
        [
            vec![records.join("game-001-blue.stderr.log")],
            vec![records.join("game-002-red.stderr.log")]
        ]
    );
    let blue = std::fs::read_to_string(&logs[0][0]).unwrap();
    assert!(
        blue.starts_with("thinking about go movetime 500\n"),
        "{blue}"
    );
}

#[test]
fn no_process_of_an_engine_outlives_the_match_even_one_that_leaves_its_session() {
    let scratch = Scratch::new("escaper");
    let command = engine_with(&scratch.0, "escaper", "setsid sleep 2718 &", "exit 3");
    let broken: Contender = command.parse().unwrap();
    let random: Contender = "level:random".parse().unwrap();
    let report = judged_match(
        [&broken, &random],
        &options(&scratch.0.join("records"), 500),
    )
    .unwrap();
    assert_eq!(report.forfeits, 2);
    assert!(!running("sleep 2718"), "the setsid sleep is gone");
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
    forfeits_both_games(
        "babbler",
        "echo 'hello there'",
        "malformed output: 'hello there': not a reply of the protocol (instead of bestmove)",
        500,
    );
}

#[test]
fn an_engine_that_answers_an_unreadable_move_forfeits() {
    forfeits_both_games(
        "scribbler",
        "echo 'bestmove Z9,Z8'",
        "malformed move 'Z9,Z8': 'Z9' is not a cell name (like B3)",
        500,
    );
}

#[test]
fn an_engine_that_never_answers_times_out_and_is_killed() {
    forfeits_both_games(
        "sleeper",
        "sleep 987",
        "timeout: no bestmove within 450 ms after go movetime 200",
        200,
    );
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
fn a_command_that_cannot_play_stops_the_match_before_it_begins() {
    let scratch = Scratch::new("missing");
    let random: Contender = "level:random".parse().unwrap();
    let records = scratch.0.join("records");
    let refused = |command: &str| {
        let engine: Contender = command.parse().unwrap();
        match judged_match([&random, &engine], &options(&records, 200)) {
            Err(MatchError::Engine {
                contender: 1,
                command: c,
                failure,
            }) if c == command => failure,
            other => panic!("{command}: {other:?}"),
        }
    };
    assert_eq!(
        refused("/nonexistent/engine --please"),
        Failure::Crashed(
            "the engine exited (exit status: 127); its stderr ends: sh: 1: exec: \
             /nonexistent/engine: not found"
                .into()
        )
    );
    let misere_only = engine_with(&scratch.0, "misere", "echo 'variants misere'", ":");
    assert_eq!(
        refused(&misere_only).to_string(),
        "the engine does not declare the rules 'classic' ('variants misere')"
    );
    assert!(!records.exists(), "nothing was played, nothing recorded");
    assert_eq!(
        "human".parse::<Contender>().unwrap_err().to_string(),
        "a match is played by programs, not people: name a level (perfect, \
         level:beginner:40) or an engine's command line (lgame play takes a human)"
    );
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
    judge_records(&report);
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
