//! A game's accuracy (`lgame_solver::accuracy`) against one computed here from what
//! `lgame analyze` prints for each position of the game: the value before each move, the
//! value of the move played, and the best move's distance, counted by this test alone.

use lgame::{Color, Game, Move, Position, Rules};
use lgame_players::Rng;
use lgame_solver::{accuracy, Accuracy, SideAccuracy, Tablebase, Value};
use lgame_test_support::{stderr, stdout, Lgame};
use serde_json::Value as Json;

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// A won position: Red wins in 9.
const RED_WINS_IN_9: &str = "..../N.BB/R.NB/RRRB r";

/// Both sides' accuracy from `lgame analyze -` on every position a move was played in.
fn from_analyze(game: &Game) -> Accuracy {
    let mut before = *game.start();
    let mut input = String::new();
    let mut played = Vec::new();
    for ply in game.plies() {
        input.push_str(&format!("{before}\n"));
        played.push((before.turn(), ply.mv));
        before = ply.position;
    }
    let out = LGAME.run_with_stdin(&["analyze", "-"], input.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), played.len());
    let mut report = Accuracy::default();
    for (line, (turn, mv)) in lines.iter().zip(played) {
        let analysis: Json = serde_json::from_str(line).expect("a JSON line");
        let mv = mv.to_string();
        let chosen = analysis["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .find(|m| m["move"] == mv.as_str())
            .unwrap_or_else(|| panic!("{mv} is not among the moves of {line}"));
        let side = match turn {
            Color::Red => &mut report.red,
            Color::Blue => &mut report.blue,
        };
        let plies = |j: &Json| j["plies"].as_u64().map(|p| p as u32);
        match analysis["value"].as_str() {
            Some("win") => {
                side.won_moves += 1;
                if chosen["value"] == "win" {
                    side.won_kept += 1;
                    side.extra_plies += plies(chosen).unwrap() - plies(&analysis).unwrap();
                }
            }
            Some("draw") => {
                side.drawn_moves += 1;
                side.drawn_kept += u32::from(chosen["value"] != "loss");
            }
            Some("loss") => side.lost_moves += 1,
            other => panic!("value {other:?} in {line}"),
        }
    }
    report
}

/// A game from `start`, each move chosen by `choose` among the moves with their values
/// (best first), until it ends or `limit` plies are played.
fn play(
    tb: &Tablebase,
    start: Position,
    limit: usize,
    mut choose: impl FnMut(usize, &[lgame_solver::MoveValue]) -> Move,
) -> Game {
    let mut game = Game::from_position(start).unwrap();
    while !game.is_over() && game.plies().len() < limit {
        let moves = tb.moves(game.position()).unwrap();
        let mv = choose(game.plies().len(), &moves);
        game.play(&mv).unwrap();
    }
    game
}

fn check(tb: &Tablebase, game: &Game) -> Accuracy {
    let library = accuracy(tb, game).unwrap();
    assert_eq!(library, from_analyze(game), "{:?}", game.moves());
    library
}

#[test]
fn accuracy_equals_the_count_from_lgame_analyze() {
    let rules = Rules::classic();
    let tb = Tablebase::solve(&rules);
    let won = Position::from_text(RED_WINS_IN_9, &rules).unwrap();
    let best = |_: usize, moves: &[lgame_solver::MoveValue]| moves[0].mv;

    // Perfect play from a won position: every move kept, no ply wasted.
    let perfect = check(&tb, &play(&tb, won, 100, best));
    assert_eq!(perfect.red.accuracy(), Some(1.0));
    assert_eq!((perfect.red.won_moves, perfect.red.extra_plies), (5, 0));
    assert_eq!(perfect.blue.lost_moves, 4);

    // Perfect play from the start for 30 plies: a draw all along.
    let drawn = check(&tb, &play(&tb, rules.start_position(), 30, best));
    assert_eq!(drawn.red.drawn_kept, 15);
    assert_eq!(drawn.blue.accuracy(), Some(1.0));

    // Red wins as slowly as it can, Blue resists: every win kept, plies wasted.
    let slowest = |_: usize, moves: &[lgame_solver::MoveValue]| {
        let slowest = moves.iter().rfind(|m| matches!(m.value, Value::Win(_)));
        slowest.map_or(moves[0].mv, |m| m.mv)
    };
    let slow = check(&tb, &play(&tb, won, 40, slowest));
    assert_eq!(slow.red.accuracy(), Some(1.0));
    assert!(slow.red.extra_plies > 0, "{slow:?}");

    // A blunder from the drawn start, then perfect play: Red's first move loses.
    let blunder = |ply: usize, moves: &[lgame_solver::MoveValue]| match ply {
        0 => "A1,A2,A3,B3".parse().unwrap(),
        _ => moves[0].mv,
    };
    let lost = check(&tb, &play(&tb, rules.start_position(), 100, blunder));
    assert_eq!((lost.red.drawn_moves, lost.red.drawn_kept), (1, 0));
    assert!(lost.red.lost_moves > 0 && lost.blue.accuracy() == Some(1.0));

    // Random games.
    let mut rng = Rng::new(25);
    for _ in 0..3 {
        let random = play(&tb, rules.start_position(), 60, |_, moves| {
            rng.pick(moves).unwrap().mv
        });
        let report = check(&tb, &random);
        let both = [report.red, report.blue];
        assert!(both.iter().any(|s| s.kept() < s.scored()), "{report:?}");
        let moves: u32 = both.iter().map(SideAccuracy::moves).sum();
        assert_eq!(moves as usize, random.plies().len());
    }
}
