//! Every illegal-move reason and every parse error, with the message a person reads.

use lgame::notation::{ParseMoveError, ParseSetupError};
use lgame::position::{PositionError, SetupError};
use lgame::record::{ParseRecordError, RecordError};
use lgame::{Game, Move, Position, Record, Rules};

fn classic_start() -> Position {
    Rules::classic().start_position()
}

fn illegal(position: &Position, text: &str) -> String {
    let mv: Move = text.parse().unwrap();
    position.check_move(&mv).unwrap_err().to_string()
}

fn position_error(text: &str) -> String {
    Position::from_text(text, &Rules::classic())
        .unwrap_err()
        .to_string()
}

fn move_error(text: &str) -> String {
    text.parse::<Move>().unwrap_err().to_string()
}

fn record_error(text: &str) -> String {
    text.parse::<Record>().unwrap_err().to_string()
}

fn replay_error(text: &str) -> String {
    text.parse::<Record>()
        .unwrap()
        .replay()
        .unwrap_err()
        .to_string()
}

// The standard setup: Red B4,C4,B3,B2; Blue C3,C2,C1,B1; neutrals A4, D1.

#[test]
fn illegal_move_not_an_l() {
    assert_eq!(
        illegal(&classic_start(), "A1,A2,B2,B3"),
        "A1,A2,B2,B3 is not an L shape"
    );
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,A4"),
        "A1,A2,A3,A4 is not an L shape"
    );
}

#[test]
fn illegal_move_overlaps_the_opponents_l_on_a_named_cell() {
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B1"),
        "the L cannot go on B1: it is occupied by Blue's L"
    );
}

#[test]
fn illegal_move_overlaps_a_neutral_on_a_named_cell() {
    assert_eq!(
        illegal(&classic_start(), "A2,A3,A4,B4"),
        "the L cannot go on A4: it is occupied by a neutral"
    );
}

#[test]
fn illegal_move_unchanged_placement() {
    assert_eq!(
        illegal(&classic_start(), "B2,B3,B4,C4"),
        "the L is already on B2,B3,B4,C4: it must move to a different placement"
    );
}

#[test]
fn illegal_move_no_neutral_on_that_cell() {
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 A2-D2"),
        "there is no neutral on A2 (it is empty)"
    );
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 C3-D2"),
        "there is no neutral on C3 (it holds Blue's L)"
    );
}

#[test]
fn illegal_move_neutral_target_occupied() {
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 D1-A2"),
        "a neutral cannot move to A2: it is occupied by Red's L"
    );
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 D1-C2"),
        "a neutral cannot move to C2: it is occupied by Blue's L"
    );
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 D1-A4"),
        "a neutral cannot move to A4: it is occupied by a neutral"
    );
}

#[test]
fn illegal_move_too_many_neutral_moves_for_the_variant() {
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 A4-C4 D1-D2"),
        "2 neutral moves, but the classic rules allow at most 1"
    );
}

#[test]
fn illegal_move_neutral_move_required() {
    let p = "neutral-required"
        .parse::<Rules>()
        .unwrap()
        .start_position();
    assert_eq!(
        illegal(&p, "A1,A2,A3,B3"),
        "a neutral move is required after the L move under neutral-required rules"
    );
}

#[test]
fn illegal_move_off_the_board() {
    assert_eq!(
        illegal(&classic_start(), "A1,A2,A3,B3 D1-E1"),
        "E1 is off the 4x4 board"
    );
    assert_eq!(
        illegal(&classic_start(), "E1,E2,E3,F1"),
        "E1 is off the 4x4 board"
    );
}

#[test]
fn illegal_move_after_the_game_is_over() {
    let mut game = Game::new("setup=kit".parse().unwrap());
    game.play(&"A2,A3,A4,B4 B2-A1".parse().unwrap()).unwrap();
    game.play(&"B2,B3,C2,D2 C3-C4".parse().unwrap()).unwrap();
    assert_eq!(
        illegal(game.position(), "C3,D3,D4,C4"),
        "the game is over (Blue wins: Red cannot move their L)"
    );
    assert_eq!(
        game.play(&"B1,C1,D1,D2".parse().unwrap())
            .unwrap_err()
            .to_string(),
        "the game is over (Blue wins: Red cannot move their L)"
    );
}

#[test]
fn illegal_move_neutral_after_a_symmetry_win() {
    let p = Position::from_text(
        "R:B2,B3,B4,C4 B:A1,A2,A3,B1 N:A4,C2 r",
        &"symmetry".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(
        illegal(&p, "C1,D1,D2,D3 C2-B2"),
        "this L move mirrors the opponent's L and wins at once: no neutral may move"
    );
}

#[test]
fn position_parse_errors_name_the_row_cell_or_token() {
    assert_eq!(position_error(""), "empty position");
    assert_eq!(
        position_error("NRR./.RB./.RB. r"),
        "expected 4 to 8 rows separated by '/', found 3"
    );
    assert_eq!(
        position_error("NRR./.RB../.RB./.BBN r"),
        "row 3 has 5 cells, but the top row has 4"
    );
    assert_eq!(
        position_error("NRR/.RB/.RB/.BB r"),
        "rows of 3 cells: a board has 4 to 8 columns"
    );
    assert_eq!(
        position_error("NRR./.RB./.RX./.BBN r"),
        "unexpected 'X' at C2 (a cell is . empty, R, B or N)"
    );
    assert_eq!(
        position_error("NRR./.RB./.RB./.BBN"),
        "missing the side to move ('r' or 'b') after the board"
    );
    assert_eq!(
        position_error("NRR./.RB./.RB./.BBN w"),
        "side to move must be 'r' or 'b', found 'w'"
    );
    assert_eq!(
        position_error("NRR./.RB./.RB./.BBN r 3:2"),
        "'3:2' is not a score (write Red's points, a dash, Blue's points: 3-2)"
    );
    assert_eq!(
        position_error("NRR./.RB./.RB./.BBN r 0-0 extra"),
        "unexpected 'extra' after the position"
    );
}

#[test]
fn cell_list_parse_errors_name_the_list_and_cell() {
    assert_eq!(
        position_error("R:B4,C4,B3,Z2 B:C3,C2,C1,B1 N:A4,D1 r"),
        "'Z2' in the R: list is not a cell name (like B3)"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B2 B:C3,C2,C1,E1 N:A4,D1 r"),
        "E1 is off the 4x4 board"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B2 R:C3,C2,C1,B1 N:A4,D1 r"),
        "the R: list is given twice"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B2 N:A4,D1 r"),
        "the B: list is missing"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B2 X:C3 B:C3,C2,C1,B1 r"),
        "'X:C3' is not a piece list (expected R:cells, B:cells or N:cells)"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B3 B:C3,C2,C1,B1 N:A4,D1 r"),
        "B3 is listed twice"
    );
}

#[test]
fn illegal_positions_say_what_is_wrong() {
    assert_eq!(
        position_error("NRR./.RB./.RB./RBBN r"),
        "Red's L has 5 cells; an L has 4"
    );
    assert_eq!(
        position_error("NRRR/..B./.RB./.BBN r"),
        "Red's L on B2,B4,C4,D4 is not an L shape"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B2 B:B2,C2,D2,D1 N:A4,A1 r"),
        "B2 holds both Red's L and Blue's L"
    );
    assert_eq!(
        position_error("R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,B3 r"),
        "B3 holds both Red's L and a neutral"
    );
    assert_eq!(
        position_error("NRR./.RB./.RB./.BB. r"),
        "the rules have 2 neutrals, the position has 1"
    );
    assert_eq!(
        position_error("NRR./.RB./.RB./.BBN r 1-0"),
        "scores are only part of a position in the scoring variant"
    );
    assert_eq!(
        Position::from_text("NRR../.R.../.R.B./...B./..BBN r", &Rules::classic())
            .unwrap_err()
            .to_string(),
        "the position is on a 5x5 board but the rules are for 4x4 (give board=5x5 in the variant)"
    );
}

#[test]
fn illegal_scores_say_what_is_wrong() {
    let scoring: Rules = "scoring".parse().unwrap();
    let err = |text: &str| Position::from_text(text, &scoring).unwrap_err().to_string();
    assert_eq!(
        err("NRR./.RB./.RB./.BBN r 15-0"),
        "Red has 15 points, more than can be reached (at most 14)"
    );
    assert_eq!(
        err("NRR./.RB./.RB./.BBN r 10-0"),
        "Red is to move but has already reached the target, which ends the game"
    );
    assert_eq!(
        err("RRN./RB../RBBB/N... r 1-0"),
        "Red is to move and trapped: under scoring the pieces would already be back on the \
         starting setup"
    );
}

#[test]
fn every_setup_error_is_a_position_error() {
    let e: PositionError = SetupError::UnexpectedScores.into();
    assert!(matches!(e, PositionError::Setup(_)));
    let e: PositionError = ParseSetupError::Empty.into();
    assert!(matches!(e, PositionError::Parse(_)));
}

#[test]
fn move_parse_errors_name_the_token() {
    assert_eq!(
        move_error(""),
        "empty move (write the L's four cells, like A2,A3,A4,B4)"
    );
    assert_eq!(
        move_error("A1,A2,Z9,B1"),
        "'Z9' is not a cell name (like B3)"
    );
    assert_eq!(
        move_error("A1,A2,A3"),
        "an L move names 4 cells, this one names 3"
    );
    assert_eq!(
        move_error("A1,A2,A3,B1,B2"),
        "an L move names 4 cells, this one names 5"
    );
    assert_eq!(move_error("A1,A2,A2,B1"), "A2 is named twice in the L");
    assert_eq!(
        move_error("A1,A2,A3,B1 B2A1"),
        "'B2A1' is not a neutral move (write from-to, like B2-A1)"
    );
    assert_eq!(
        move_error("A1,A2,A3,B1 B2-B2"),
        "B2-B2 moves a neutral onto its own cell, which is not a move"
    );
    assert_eq!(
        move_error("A1,A2,A3,B1 B2-C2 B2-D2"),
        "the neutral on B2 is moved twice"
    );
    assert_eq!(
        move_error("A1,A2,A3,B1 B2-C2 D4-C2"),
        "two neutrals are moved to C2"
    );
    assert_eq!(
        move_error("A1,A2,A3,B1 B2-C2 C2-D2"),
        "C2 is both left and entered by neutrals in one turn; write only where the neutrals \
         end up"
    );
    assert_eq!(
        move_error("A1,A2,A3,B1 B2-"),
        "'B2-' is not a neutral move (write from-to, like B2-A1)"
    );
    assert_eq!(
        ParseMoveError::LCellCount { found: 1 }.to_string(),
        "an L move names 4 cells, this one names 1"
    );
}

const KIT_RECORD: &str = r#"[Variant "classic"]
[Setup "..BB/R.NB/RN.B/RR.. r"]

1. A2,A3,A4,B4 B2-A1
2. B2,B3,C2,D2 C3-C4
0-1
"#;

#[test]
fn record_parse_errors_name_the_line() {
    assert_eq!(
        record_error("[Variant classic]\n*\n"),
        "line 1: '[Variant classic]' is not a tag (write [Name \"value\"])"
    );
    assert_eq!(
        record_error("[Red \"a\"]\n[Red \"b\"]\n*\n"),
        "line 2: tag Red is given twice"
    );
    assert_eq!(
        record_error("1. A2,A3,A4,B4\n[Red \"a\"]\n*\n"),
        "line 2: tags must come before the moves"
    );
    assert_eq!(
        record_error("1. A1,A2,A3,B3\n3. A2,A3,A4,B4\n*\n"),
        "line 2: move number '3.' should be '2.' (moves are numbered by ply)"
    );
    assert_eq!(
        record_error("1. A1,A2,A3,B3\n2. hello\n*\n"),
        "line 2, ply 2: 'hello': 'hello' is not a cell name (like B3)"
    );
    assert_eq!(
        record_error("1. A1,A2,A3,B3\n*\n2. A2,A3,A4,B4\n"),
        "line 3: unexpected '2. A2,A3,A4,B4' after the result"
    );
    assert_eq!(
        record_error("1. A1,A2,A3,B3 {unfinished\n*\n"),
        "line 1: a '{' comment is never closed"
    );
    let truncated = &KIT_RECORD[..KIT_RECORD.len() - 5];
    assert_eq!(
        record_error(truncated),
        "the record ends without a result (1-0, 0-1, 1/2-1/2 or *): it may be truncated"
    );
    assert!(matches!(
        truncated.parse::<Record>(),
        Err(ParseRecordError::MissingResult)
    ));
}

#[test]
fn record_replay_errors_name_the_tag_or_ply() {
    assert_eq!(
        replay_error("[Variant \"misery\"]\n*\n"),
        "Variant tag: unknown rule option 'misery' (known: classic, misere, sudden-death, \
         neutral-required, symmetry, scoring, target=N, neutrals=K, board=WxH, setup=S)"
    );
    assert_eq!(
        replay_error("[Setup \"NRR./.RB./.RB./.BB. r\"]\n*\n"),
        "Setup tag: the rules have 2 neutrals, the position has 1"
    );
    assert_eq!(
        replay_error("[TurnLimit \"forty\"]\n*\n"),
        "TurnLimit tag: 'forty' is not a whole number"
    );
    assert_eq!(
        replay_error("1. A1,A2,A3,B3\n2. A1,A2,A3,B1\n*\n"),
        "ply 2: A1,A2,A3,B1: the L cannot go on A1: it is occupied by Red's L"
    );
    assert_eq!(
        replay_error(&KIT_RECORD.replace("0-1\n", "1-0\n")),
        "the record's result 1-0 contradicts the moves, which give 0-1"
    );
    assert_eq!(
        replay_error(&KIT_RECORD.replace("0-1\n", "*\n")),
        "the record's result * contradicts the moves, which give 0-1"
    );
    assert_eq!(
        replay_error(&KIT_RECORD.replace("[Variant", "[Result \"1-0\"]\n[Variant")),
        "the Result tag says 1-0 but the result token is 0-1"
    );
    assert_eq!(
        replay_error("1. A1,A2,A3,B3\n1-0\n"),
        "the record's result 1-0 contradicts the moves, which give *"
    );
    assert_eq!(
        replay_error("[Termination \"boredom\"]\n1. A1,A2,A3,B3\n1-0\n"),
        "Termination tag: 'boredom' is not resignation, agreement, forfeit, abandoned, time or aborted"
    );
    assert_eq!(
        replay_error("[Termination \"agreement\"]\n1. A1,A2,A3,B3\n1-0\n"),
        "Termination tag: a game ended by agreement cannot have the result 1-0"
    );
    assert_eq!(
        replay_error(&format!(
            "{}\n3. A1,A2,A3,B1\n0-1\n",
            KIT_RECORD.trim_end_matches("0-1\n")
        )),
        "ply 3: A1,A2,A3,B1: the game is over (Blue wins: Red cannot move their L)"
    );
    assert!(matches!(
        "[Setup \"kit\"]\n[Variant \"setup=corners\"]\n*\n"
            .parse::<Record>()
            .unwrap()
            .replay(),
        Err(RecordError::SetupConflict(_))
    ));
}

#[test]
fn rules_errors_reach_the_record_reader_and_the_game() {
    let err = "sudden-death,neutral-required"
        .parse::<Rules>()
        .unwrap_err();
    assert!(err.to_string().contains("cannot be combined"));
}
