//! The variants of rules.md, each pinned by a test named after its rule.

use lgame::game::{DrawRules, Ending, GameError, GameResult};
use lgame::moves::IllegalMove;
use lgame::position::{all_positions, End};
use lgame::rules::StartSetup;
use lgame::{ByColor, Color, Game, Move, Position, Record, Rules};

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// The kit game of notation.md: after two plies Red cannot move their L.
const KIT_TRAP: [&str; 2] = ["A2,A3,A4,B4 B2-A1", "B2,B3,C2,D2 C3-C4"];

fn kit_game(variant: &str) -> Game {
    let rules = rules(variant).with_setup(StartSetup::Kit).unwrap();
    let mut game = Game::new(rules);
    for m in KIT_TRAP {
        game.play(&mv(m)).unwrap();
    }
    game
}

/// Counts k-element subsets of n things.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn trapped_player_loses_in_the_classic_game() {
    let game = kit_game("classic");
    let outcome = game.position().outcome().unwrap();
    assert_eq!(outcome.winner, Color::Blue);
    assert_eq!(outcome.end, End::Trapped);
    assert_eq!(game.result_token().to_string(), "0-1");
}

#[test]
fn misere_trapped_player_wins() {
    let game = kit_game("misere");
    let end = game.conclusion().unwrap();
    assert_eq!(end.result, Some(GameResult::RedWins));
    assert_eq!(end.ending, Ending::Board(End::Trapped));
    assert_eq!(end.to_string(), "Red wins: Red cannot move their L");
}

#[test]
fn misere_and_classic_differ_only_in_who_wins_a_trap() {
    let classic = all_positions(&Rules::classic());
    let misere = all_positions(&rules("misere"));
    assert_eq!(classic.len(), misere.len());
    for (c, m) in classic.iter().zip(&misere).filter(|(c, _)| c.is_trapped()) {
        assert_eq!(c.outcome().unwrap().winner, !m.outcome().unwrap().winner);
        assert_eq!(c.legal_moves().len(), m.legal_moves().len());
    }
}

#[test]
fn sudden_death_lets_both_neutrals_move() {
    let sd = rules("sudden-death");
    let start = sd.start_position();
    // Each L move may leave the two neutrals on any 2 of the 8 cells that are theirs or empty.
    assert_eq!(
        start.legal_moves().len() as u64,
        start.l_moves().count() as u64 * choose(8, 2)
    );
    let both = mv("A1,A2,A3,B3 A4-C4 D1-D2");
    let after = start.play(&both).unwrap();
    assert_eq!(after.neutrals().to_cell_list(), "C4,D2");
    match Rules::classic().start_position().check_move(&both) {
        Err(IllegalMove::TooManyNeutralMoves { allowed, found, .. }) => {
            assert_eq!((allowed, found), (1, 2))
        }
        other => panic!("classic allows one neutral move, got {other:?}"),
    }
    // A move is named by its result: crossing the two neutrals is the same move.
    assert_eq!(mv("A1,A2,A3,B3 A4-D2 D1-C4"), both);
    assert_eq!(both.to_string(), "A1,A2,A3,B3 A4-C4 D1-D2");
}

#[test]
fn neutral_required_forbids_the_bare_l_move() {
    let nr = rules("neutral-required");
    let start = nr.start_position();
    assert_eq!(
        start.legal_moves().len(),
        start.l_moves().count() * 2 * 6,
        "one of 2 neutrals to one of 6 empty cells"
    );
    assert_eq!(
        start.check_move(&mv("A1,A2,A3,B3")),
        Err(IllegalMove::NeutralMoveRequired)
    );
    assert!(start.is_legal(&mv("A1,A2,A3,B3 D1-D2")));
}

#[test]
fn one_neutral_variant_has_one_neutral_and_eight_options_per_l_move() {
    let one = rules("neutrals=1");
    let start = one.start_position();
    assert_eq!(start.neutrals().to_cell_list(), "A4");
    let positions = all_positions(&one);
    // 656 pairs of Ls, the neutral on one of the 8 other cells.
    assert_eq!(positions.len(), 656 * 8);
    for p in positions.iter().filter(|p| !p.is_finished()) {
        assert_eq!(p.legal_moves().len(), p.l_moves().count() * (1 + 7));
    }
}

#[test]
fn neutral_counts_from_zero_to_eight_are_supported() {
    for k in 0..=8u64 {
        let r = rules(&format!("neutrals={k}"));
        assert_eq!(r.start_position().neutrals().count() as u64, k);
        assert_eq!(all_positions(&r).len() as u64, 656 * choose(8, k));
    }
    // With eight neutrals the 4x4 board is full: nobody can move.
    assert!(rules("neutrals=8").start_position().is_trapped());
}

/// A position where Red, to move, can mirror Blue's L: Blue on A1,A2,A3,B1 and Red free to
/// take D1,D2,D3,C1 (its mirror image in the vertical centre line).
fn mirror_chance(variant: &str) -> Position {
    Position::from_text("R:B2,B3,B4,C4 B:A1,A2,A3,B1 N:A4,C2 r", &rules(variant)).unwrap()
}

#[test]
fn symmetry_win_mirroring_the_opponents_l_wins_at_once() {
    let p = mirror_chance("symmetry");
    let winning = mv("C1,D1,D2,D3");
    let after = p.play(&winning).unwrap();
    let outcome = after.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.end), (Color::Red, End::Symmetry));
    assert!(after.legal_moves().is_empty());
    // In the classic game the same move wins nothing.
    let classic = mirror_chance("classic").play(&winning).unwrap();
    assert!(classic.outcome().is_none());
}

#[test]
fn symmetry_win_ends_the_turn_before_any_neutral_move() {
    for variant in ["symmetry", "symmetry,neutral-required"] {
        let p = mirror_chance(variant);
        assert_eq!(
            p.check_move(&mv("C1,D1,D2,D3 C2-B2")),
            Err(IllegalMove::NeutralAfterSymmetryWin)
        );
        assert!(p.is_legal(&mv("C1,D1,D2,D3")), "{variant}");
        let moves = p.legal_moves();
        let mirroring: Vec<&Move> = moves
            .iter()
            .filter(|m| m.l() == mv("C1,D1,D2,D3").l())
            .collect();
        assert_eq!(mirroring.len(), 1, "{variant}: only the bare L move");
    }
}

#[test]
fn symmetry_position_with_mirrored_ls_cannot_be_a_starting_setup() {
    let mirrored = "setup=.NN./B..R/B..R/BBRR:b";
    let err = format!("symmetry,{mirrored}").parse::<Rules>().unwrap_err();
    assert!(
        err.to_string().contains("the Ls mirror each other"),
        "{err}"
    );
    // Without the symmetry rule it is an ordinary setup.
    assert!(mirrored.parse::<Rules>().is_ok());
    let p = Position::from_text(".NN./B..R/B..R/BBRR b", &rules("symmetry")).unwrap();
    assert_eq!(p.outcome().unwrap().end, End::Symmetry);
    assert!(matches!(
        Game::from_position(p),
        Err(GameError::BadStart(_))
    ));
}

#[test]
fn symmetry_mirror_lines_of_a_rectangle_are_the_two_centre_lines_only() {
    let r = rules("board=6x4,symmetry");
    // Blue's L is Red's turned half round: a symmetry of the board, but not a mirror.
    let turned = Position::from_text("RRR.../R..N../..N..B/...BBB b", &r).unwrap();
    assert!(!turned.ls_mirror_each_other());
    assert!(turned.outcome().is_none());
    // Blue's L is Red's image in the vertical centre line: the game is over.
    let mirrored = Position::from_text("RRRBBB/R.N..B/..N.../...... b", &r).unwrap();
    assert!(mirrored.ls_mirror_each_other());
    assert_eq!(mirrored.outcome().unwrap().end, End::Symmetry);
}

#[test]
fn scoring_a_point_for_an_l_on_a_corner_cell() {
    let game = {
        let r = rules("scoring").with_setup(StartSetup::Kit).unwrap();
        let mut g = Game::new(r);
        g.play(&mv(KIT_TRAP[0])).unwrap();
        g
    };
    // Red's L moved to A2,A3,A4,B4, covering the corner A4.
    assert_eq!(game.position().scores(), ByColor { red: 1, blue: 0 });
    assert_eq!(game.position().to_string(), "RRBB/R.NB/R..B/N... b 1-0");
}

#[test]
fn scoring_five_for_a_trap_then_reset_with_the_trapped_player_first() {
    let game = kit_game("scoring");
    let last = game.plies().last().unwrap();
    assert!(last.reset, "the trap puts the pieces back");
    let p = game.position();
    // Blue's L on C2 and D2 covers no corner; the trap gives Blue 5.
    assert_eq!(p.scores(), ByColor { red: 1, blue: 5 });
    // Red was trapped and was the setup's first mover: the kit setup again, Red to move.
    assert_eq!(p.to_string(), "..BB/R.NB/RN.B/RR.. r 1-5");
    assert!(game.conclusion().is_none());
}

/// Finds a 3-ply line from the kit setup after which Blue is trapped (classic rules).
fn red_traps_blue_line() -> Vec<Move> {
    let start = Rules::classic()
        .with_setup(StartSetup::Kit)
        .unwrap()
        .start_position();
    for a in start.legal_moves() {
        let pa = start.play_unchecked(&a);
        for b in pa.legal_moves() {
            let pb = pa.play_unchecked(&b);
            for c in pb.legal_moves() {
                if pb.play_unchecked(&c).is_trapped() {
                    return vec![a, b, c];
                }
            }
        }
    }
    panic!("no such line")
}

#[test]
fn scoring_reset_puts_a_trapped_second_player_on_the_first_movers_l() {
    let line = red_traps_blue_line();
    let r = rules("scoring,target=30")
        .with_setup(StartSetup::Kit)
        .unwrap();
    let mut game = Game::new(r);
    let mut expected_red = 0;
    let mut expected_blue = 0;
    for (i, m) in line.iter().enumerate() {
        let covers = m.l().intersects(r.board().corners());
        if i % 2 == 0 {
            expected_red += covers as u8;
        } else {
            expected_blue += covers as u8;
        }
        game.play(m).unwrap();
    }
    expected_red += 5;
    let p = game.position();
    assert!(game.plies().last().unwrap().reset);
    assert_eq!(
        p.scores(),
        ByColor {
            red: expected_red,
            blue: expected_blue
        }
    );
    let kit = r.start_position();
    assert_eq!(p.turn(), Color::Blue, "the trapped player moves first");
    assert_eq!(
        p.l(Color::Blue),
        kit.l(Color::Red),
        "on the first mover's L"
    );
    assert_eq!(p.l(Color::Red), kit.l(Color::Blue));
    assert_eq!(p.neutrals(), kit.neutrals());
}

#[test]
fn scoring_target_reached_by_a_trap_wins_at_once() {
    let game = kit_game("scoring,target=5");
    let end = game.conclusion().unwrap();
    assert_eq!(end.result, Some(GameResult::BlueWins));
    assert_eq!(end.ending, Ending::Board(End::ScoreTarget));
    assert!(
        !game.plies().last().unwrap().reset,
        "no reset once the game is won"
    );
}

#[test]
fn scoring_target_reached_by_a_corner_point_wins_at_once() {
    let r = rules("scoring,target=1")
        .with_setup(StartSetup::Kit)
        .unwrap();
    let mut game = Game::new(r);
    game.play(&mv(KIT_TRAP[0])).unwrap();
    let end = game.conclusion().unwrap();
    assert_eq!(end.result, Some(GameResult::RedWins));
    assert!(game.play(&mv(KIT_TRAP[1])).is_err());
}

#[test]
fn scoring_positions_carry_their_scores_in_text() {
    let r = rules("scoring");
    let p = Position::from_text("..BB/R.NB/RN.B/RR.. b 3-2", &r).unwrap();
    assert_eq!(p.scores(), ByColor { red: 3, blue: 2 });
    assert_eq!(p.to_string(), "..BB/R.NB/RN.B/RR.. b 3-2");
    let no_scores = Position::from_text("..BB/R.NB/RN.B/RR.. b", &r).unwrap();
    assert_eq!(no_scores.to_string(), "..BB/R.NB/RN.B/RR.. b 0-0");
}

#[test]
fn board_5x5_has_a_bigger_geometry_and_nobody_is_ever_trapped_with_two_neutrals() {
    let r = rules("board=5x5");
    assert_eq!(r.board().geometry().placements().len(), 96);
    let positions = all_positions(&r);
    assert_eq!(positions.len(), 620_160);
    assert!(positions.iter().all(|p| !p.is_trapped()));
    let start = r.start_position();
    // Neutral options: none, or one of 2 neutrals to one of 25 - 8 - 2 = 15 empty cells.
    assert_eq!(start.legal_moves().len(), start.l_moves().count() * 31);
}

#[test]
fn board_6x4_has_four_symmetries_and_its_own_moves() {
    let r = rules("board=6x4");
    let g = r.board().geometry();
    assert_eq!(g.placements().len(), 4 * 4 * 3 + 4 * 5 * 2);
    assert_eq!(g.symmetries().len(), 4);
    let start = r.start_position();
    assert_eq!(start.to_string(), "NRR.../.R..B./.R..B./...BBN r");
    assert_eq!(
        start.legal_moves().len(),
        start.l_moves().count() * (1 + 2 * 14)
    );
    let classes: std::collections::HashSet<Position> =
        all_positions(&r).iter().map(Position::canonical).collect();
    assert!(classes.len() * 4 >= all_positions(&r).len());
}

#[test]
fn turn_limit_draws_after_n_plies_unless_the_last_ply_traps() {
    let kit = Rules::classic().with_setup(StartSetup::Kit).unwrap();
    let limited = DrawRules {
        turn_limit: Some(1),
        repetition: None,
    };
    let mut game = Game::new(kit).with_draw_rules(limited);
    game.play(&mv(KIT_TRAP[0])).unwrap();
    let end = game.conclusion().unwrap();
    assert_eq!(
        (end.result, end.ending),
        (Some(GameResult::Draw), Ending::TurnLimit)
    );
    assert!(matches!(
        game.play(&mv(KIT_TRAP[1])),
        Err(GameError::Over(_))
    ));

    let two = DrawRules {
        turn_limit: Some(2),
        repetition: None,
    };
    let mut game = Game::new(kit).with_draw_rules(two);
    for m in KIT_TRAP {
        game.play(&mv(m)).unwrap();
    }
    let end = game.conclusion().unwrap();
    assert_eq!(
        end.result,
        Some(GameResult::BlueWins),
        "a trap on ply N still wins"
    );
}

#[test]
fn repetition_draws_the_third_occurrence_of_a_position() {
    let mut game = Game::new(Rules::classic()).with_draw_rules(DrawRules::CASUAL);
    let start = *game.position();
    // Red and Blue each step their L away and back, neutrals untouched.
    let red_away = start
        .l_moves()
        .map(Move::l_only)
        .find(|m| {
            let p = start.play_unchecked(m);
            let can_return = p.l_moves().any(|b| {
                let q = p.play_unchecked(&Move::l_only(b));
                q.is_legal(&Move::l_only(start.l(Color::Red)))
            });
            can_return
        })
        .unwrap();
    let after_red = start.play_unchecked(&red_away);
    let blue_away = after_red
        .l_moves()
        .map(Move::l_only)
        .find(|b| {
            after_red
                .play_unchecked(b)
                .is_legal(&Move::l_only(start.l(Color::Red)))
        })
        .unwrap();
    let cycle = [
        red_away,
        blue_away,
        Move::l_only(start.l(Color::Red)),
        Move::l_only(start.l(Color::Blue)),
    ];
    for m in cycle.iter().chain(&cycle) {
        assert!(game.conclusion().is_none());
        game.play(m).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    let end = game.conclusion().unwrap();
    assert_eq!(
        (end.result, end.ending),
        (Some(GameResult::Draw), Ending::Repetition)
    );
    assert_eq!(
        end.to_string(),
        "Drawn: the same position occurred three times"
    );
}

#[test]
fn pure_rules_know_no_draw() {
    let mut game = Game::new(Rules::classic());
    let start = *game.position();
    let m = start.legal_moves()[0];
    game.play(&m).unwrap();
    assert_eq!(game.draw_rules(), DrawRules::NONE);
    assert!(game.conclusion().is_none());
}

#[test]
fn undo_and_redo_walk_the_game_back_and_forth() {
    let mut game = kit_game("classic");
    let end = *game.position();
    assert_eq!(game.undo(), Some(mv(KIT_TRAP[1])));
    assert_eq!(game.undo(), Some(mv(KIT_TRAP[0])));
    assert_eq!(game.undo(), None);
    assert_eq!(game.position(), game.start());
    assert_eq!(game.redo(), Some(mv(KIT_TRAP[0])));
    assert_eq!(game.redo(), Some(mv(KIT_TRAP[1])));
    assert_eq!(game.redo(), None);
    assert_eq!(*game.position(), end);
    // A different move clears what could be redone.
    game.undo();
    let other = game.position().legal_moves()[0];
    game.play(&other).unwrap();
    assert_eq!(game.redo(), None);
}

#[test]
fn resignation_and_agreement_end_the_game_off_the_board() {
    let mut game = Game::new(Rules::classic());
    game.resign(Color::Red).unwrap();
    let end = game.conclusion().unwrap();
    assert_eq!(end.result, Some(GameResult::BlueWins));
    assert_eq!(end.to_string(), "Blue wins: Red resigned");
    assert!(game.agree_draw().is_err());
    game.undo();
    game.agree_draw().unwrap();
    assert_eq!(game.result_token().to_string(), "1/2-1/2");
    let record = Record::from_game(&game);
    assert_eq!(record.tag("Termination"), Some("agreement"));
}
