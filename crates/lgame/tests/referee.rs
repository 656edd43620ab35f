//! The automatic referee: every kind of invalid record is reported at its first problem with
//! the ply, the move as written and the rules' reason; every way a valid game ends is named.

use lgame::game::{GameResult, ResultToken};
use lgame::referee::{judge, judge_bytes, Judgement, UnreadableRecord};

/// The record of notation.md, verbatim (one file for every test that reads it).
const NOTATION_EXAMPLE: &str = include_str!("data/notation-example.txt");

/// Two legal plies from the standard setup; Red is to move at ply 3 in
///
/// ```text
/// 4  N B B B
/// 3  R R . B
/// 2  R . . N
/// 1  R . . .
///    A B C D
/// ```
const TWO_PLIES: &str = "1. A1,A2,A3,B3 D1-D2\n2. B4,C4,D3,D4\n";
/// The position after [`TWO_PLIES`].
const AFTER_TWO_PLIES: &str = "NBBB/RR.B/R..N/R... r";

const RED: ResultToken = ResultToken::Finished(GameResult::RedWins);
const BLUE: ResultToken = ResultToken::Finished(GameResult::BlueWins);
const DRAW: ResultToken = ResultToken::Finished(GameResult::Draw);
const UNFINISHED: ResultToken = ResultToken::Unfinished;

fn judged(text: &str) -> Judgement {
    judge(text).unwrap_or_else(|e| panic!("{text:?} should be readable: {e}"))
}

/// Judges a record that must be invalid at `ply` on move `move_text` for `reason`; checks
/// that everything before the problem was replayed.
fn invalid(text: &str, ply: usize, move_text: &str, reason: &str) -> Judgement {
    let j = judged(text);
    assert!(!j.valid, "{text:?} should be invalid");
    let error = j.error.clone().expect("an invalid record has an error");
    assert_eq!(
        (error.ply, error.move_text.as_str(), error.reason.as_str()),
        (ply, move_text, reason),
        "{text:?}"
    );
    j
}

/// Judges a record that must be valid with `plies` plies and the `result` by `ending`.
fn valid(text: &str, plies: usize, result: ResultToken, ending: &str) -> Judgement {
    let j = judged(text);
    assert_eq!(j.error, None, "{text:?} should be valid");
    assert!(j.valid);
    assert_eq!(
        (j.plies, j.result, j.ending.as_str()),
        (plies, result, ending)
    );
    assert_eq!(j.record_result, Some(result));
    assert!(j.result_agrees);
    j
}

/// A move at ply 3 of the classic game after [`TWO_PLIES`], then `*`.
fn third_move(mv: &str) -> String {
    format!("{TWO_PLIES}3. {mv}\n*\n")
}

/// Checks that a record invalid at ply 3 replayed the two plies before it.
fn replayed_two_plies(j: &Judgement) {
    assert_eq!(j.plies, 2);
    assert_eq!(j.final_position, AFTER_TWO_PLIES);
    assert_eq!((j.result, j.ending.as_str()), (UNFINISHED, "unfinished"));
    assert_eq!(
        j.error.as_ref().unwrap().line,
        Some(3),
        "the problem's line"
    );
}

// Invalid records: illegal moves.

#[test]
fn wrong_l_shape_is_reported_at_its_ply() {
    let j = invalid(
        &third_move("A1,B1,C1,D1"),
        3,
        "A1,B1,C1,D1",
        "A1,B1,C1,D1 is not an L shape",
    );
    replayed_two_plies(&j);
    invalid(
        &third_move("A1,A2,B2,B3"),
        3,
        "A1,A2,B2,B3",
        "A1,A2,B2,B3 is not an L shape",
    );
}

#[test]
fn l_overlapping_the_opponents_l_is_reported() {
    let j = invalid(
        &third_move("C1,C2,C3,D3"),
        3,
        "C1,C2,C3,D3",
        "the L cannot go on D3: it is occupied by Blue's L",
    );
    replayed_two_plies(&j);
}

#[test]
fn l_overlapping_a_neutral_is_reported() {
    let j = invalid(
        &third_move("B2,C2,D2,D1"),
        3,
        "B2,C2,D2,D1",
        "the L cannot go on D2: it is occupied by a neutral",
    );
    replayed_two_plies(&j);
}

#[test]
fn unchanged_l_is_reported_with_the_move_as_written() {
    let j = invalid(
        &third_move("b3,a3,a2,a1"),
        3,
        "b3,a3,a2,a1",
        "the L is already on A1,A2,A3,B3: it must move to a different placement",
    );
    replayed_two_plies(&j);
}

#[test]
fn neutral_moved_from_an_empty_cell_is_reported() {
    let j = invalid(
        &third_move("A1,A2,B1,C1 C3-C2"),
        3,
        "A1,A2,B1,C1 C3-C2",
        "there is no neutral on C3 (it is empty)",
    );
    replayed_two_plies(&j);
}

#[test]
fn neutral_moved_onto_an_occupied_cell_is_reported() {
    let j = invalid(
        &third_move("A1,A2,B1,C1 D2-B4"),
        3,
        "A1,A2,B1,C1 D2-B4",
        "a neutral cannot move to B4: it is occupied by Blue's L",
    );
    replayed_two_plies(&j);
}

#[test]
fn too_many_neutral_moves_are_reported() {
    let j = invalid(
        &third_move("A1,A2,B1,C1 A4-C3 D2-C2"),
        3,
        "A1,A2,B1,C1 A4-C3 D2-C2",
        "2 neutral moves, but the classic rules allow at most 1",
    );
    replayed_two_plies(&j);
}

#[test]
fn missing_required_neutral_move_is_reported() {
    let text = "[Variant \"neutral-required\"]\n\
                1. A1,A2,A3,B3 D1-D2\n\
                2. B4,C4,D3,D4 D2-D1\n\
                3. A1,A2,B1,C1\n\
                *\n";
    let j = invalid(
        text,
        3,
        "A1,A2,B1,C1",
        "a neutral move is required after the L move under neutral-required rules",
    );
    assert_eq!(j.plies, 2);
    assert_eq!(j.error.unwrap().line, Some(4));
}

#[test]
fn move_after_the_end_is_reported() {
    let text = NOTATION_EXAMPLE.replace("0-1\n", "3. A1,A2,A3,B1\n0-1\n");
    let j = invalid(
        &text,
        3,
        "A1,A2,A3,B1",
        "the game is over (Blue wins: Red cannot move their L)",
    );
    assert_eq!(j.plies, 2);
    assert_eq!((j.result, j.ending.as_str()), (BLUE, "trapped"));
    assert_eq!(j.record_result, Some(BLUE), "the token is still read");
    assert!(j.result_agrees);
}

#[test]
fn result_token_contradicting_the_moves_is_reported() {
    let j = invalid(
        &NOTATION_EXAMPLE
            .replace("0-1\n", "1-0\n")
            .replace("[Result \"0-1\"]\n", ""),
        2,
        "1-0",
        "the record's result 1-0 contradicts the moves, which give 0-1",
    );
    assert_eq!((j.result, j.ending.as_str()), (BLUE, "trapped"));
    assert_eq!(j.record_result, Some(RED));
    assert!(!j.result_agrees);
    assert_eq!(j.error.unwrap().line, Some(9), "the token's line");

    // A finished result for a game the moves leave unfinished, with no Termination tag.
    let j = invalid(
        &format!("{TWO_PLIES}1/2-1/2\n"),
        2,
        "1/2-1/2",
        "the record's result 1/2-1/2 contradicts the moves, which give *",
    );
    assert_eq!((j.result, j.ending.as_str()), (UNFINISHED, "unfinished"));
    assert!(!j.result_agrees);

    // `*` for a game that is over.
    invalid(
        &NOTATION_EXAMPLE
            .replace("0-1\n", "*\n")
            .replace("[Result \"0-1\"]\n", ""),
        2,
        "*",
        "the record's result * contradicts the moves, which give 0-1",
    );
}

#[test]
fn result_tag_disagreeing_with_the_token_is_reported() {
    invalid(
        &NOTATION_EXAMPLE.replace("[Result \"0-1\"]", "[Result \"1-0\"]"),
        2,
        "0-1",
        "the Result tag says 1-0 but the result token is 0-1",
    );
}

#[test]
fn termination_that_does_not_fit_the_result_is_reported() {
    let j = invalid(
        &format!("[Termination \"agreement\"]\n{TWO_PLIES}1-0\n"),
        2,
        "1-0",
        "Termination tag: a game ended by agreement cannot have the result 1-0",
    );
    assert_eq!((j.result, j.ending.as_str()), (UNFINISHED, "unfinished"));
}

// Invalid records: lines that are not moves.

#[test]
fn unknown_cell_is_reported() {
    let j = invalid(
        &third_move("A1,A2,B1,Z9"),
        3,
        "A1,A2,B1,Z9",
        "'Z9' is not a cell name (like B3)",
    );
    replayed_two_plies(&j);
    // A cell name that is off this board.
    let j = invalid(
        &third_move("A1,A2,B1,E1"),
        3,
        "A1,A2,B1,E1",
        "E1 is off the 4x4 board",
    );
    replayed_two_plies(&j);
    invalid(
        &third_move("A1,A2,B1,C1 D2-X7"),
        3,
        "A1,A2,B1,C1 D2-X7",
        "'D2-X7' is not a neutral move (write from-to, like B2-A1)",
    );
}

#[test]
fn garbage_line_is_reported_as_a_move_that_cannot_be_read() {
    let j = invalid(
        &format!("{TWO_PLIES}Red resigns!\n*\n"),
        3,
        "Red resigns!",
        "'Red' is not a cell name (like B3)",
    );
    replayed_two_plies(&j);
    invalid(
        "1. A1,A2,A3\n*\n",
        1,
        "A1,A2,A3",
        "an L move names 4 cells, this one names 3",
    );
}

#[test]
fn bad_variant_tag_is_a_header_problem() {
    let j = invalid(
        "[Event \"club\"]\n[Variant \"misery\"]\n\n1. A1,A2,A3,B3\n*\n",
        0,
        "",
        "Variant tag: unknown rule option 'misery' (known: classic, misere, sudden-death, \
         neutral-required, symmetry, scoring, target=N, neutrals=K, board=WxH, setup=S)",
    );
    assert_eq!(j.plies, 0);
    assert_eq!(
        j.error.as_ref().unwrap().line,
        Some(2),
        "the Variant tag's line"
    );
    assert_eq!(j.final_position, "", "no game could be set up");
    assert!(j.game.is_none());
    assert_eq!((j.result, j.ending.as_str()), (UNFINISHED, "unfinished"));
    assert_eq!(j.record_result, Some(UNFINISHED));
    assert!(!j.result_agrees, "nothing to agree with");
}

#[test]
fn bad_setup_tag_is_a_header_problem() {
    let j = invalid(
        "[Setup \"NRR./.RB./.RB./.BB. r\"]\n1. A1,A2,A3,B3\n*\n",
        0,
        "",
        "Setup tag: the rules have 2 neutrals, the position has 1",
    );
    assert_eq!(j.error.unwrap().line, Some(1));
    // The reason is Record::replay's.
    let text = "[Setup \"nowhere\"]\n*\n";
    let record: lgame::Record = text.parse().unwrap();
    let reason = record.replay().unwrap_err().to_string();
    assert!(reason.starts_with("Setup tag: "), "{reason}");
    invalid(text, 0, "", &reason);
}

#[test]
fn other_header_problems_are_at_ply_0() {
    invalid(
        "[TurnLimit \"forty\"]\n*\n",
        0,
        "",
        "TurnLimit tag: 'forty' is not a whole number",
    );
    invalid(
        "[Repetition \"three\"]\n*\n",
        0,
        "",
        "Repetition tag: 'three' is not a whole number",
    );
    // Checked with the header, before any move is replayed.
    invalid(
        &format!("[Termination \"boredom\"]\n{TWO_PLIES}1-0\n"),
        0,
        "",
        "Termination tag: 'boredom' is not resignation, agreement, forfeit, abandoned, time or aborted",
    );
    let j = invalid(
        "[Red Ada]\n1. A1,A2,A3,B3\n*\n",
        0,
        "",
        "'[Red Ada]' is not a tag (write [Name \"value\"])",
    );
    assert_eq!(j.error.unwrap().line, Some(1));
    invalid(
        "[Red \"Ada\"]\n[Red \"Bea\"]\n*\n",
        0,
        "",
        "tag Red is given twice",
    );
}

#[test]
fn wrong_move_number_is_reported_at_the_moves_ply() {
    let j = invalid(
        "1. A1,A2,A3,B3 D1-D2\n3. B4,C4,D3,D4\n*\n",
        2,
        "B4,C4,D3,D4",
        "move number '3.' should be '2.' (moves are numbered by ply)",
    );
    assert_eq!(j.plies, 1);
    assert_eq!(j.error.unwrap().line, Some(2));
}

#[test]
fn truncated_record_without_a_result_token_is_reported() {
    let j = invalid(
        TWO_PLIES,
        2,
        "",
        "the record ends without a result (1-0, 0-1, 1/2-1/2 or *): it may be truncated",
    );
    assert_eq!(j.plies, 2);
    assert_eq!(j.final_position, AFTER_TWO_PLIES);
    assert_eq!(j.error.unwrap().line, None);
    assert_eq!(j.record_result, None);
    assert!(!j.result_agrees);

    // Cut in the middle of the notation example: the moves there are replayed.
    let cut = &NOTATION_EXAMPLE[..NOTATION_EXAMPLE.find("2. B2").unwrap()];
    let j = invalid(
        cut,
        1,
        "",
        "the record ends without a result (1-0, 0-1, 1/2-1/2 or *): it may be truncated",
    );
    assert_eq!(j.plies, 1);
}

#[test]
fn other_reading_problems_name_their_line() {
    let j = invalid(
        &format!("{TWO_PLIES}*\n3. A1,A2,B1,C1\n"),
        2,
        "",
        "unexpected '3. A1,A2,B1,C1' after the result",
    );
    assert_eq!(j.error.unwrap().line, Some(4));
    assert_eq!(j.record_result, Some(UNFINISHED));
    let j = invalid(
        &format!("{TWO_PLIES}[Red \"Ada\"]\n*\n"),
        2,
        "",
        "tags must come before the moves",
    );
    assert_eq!(j.error.unwrap().line, Some(3));
    let j = invalid(
        &format!("{TWO_PLIES}3. A1,A2,B1,C1 {{a comment\nthat never ends\n*\n"),
        3,
        "",
        "a '{' comment is never closed",
    );
    assert_eq!(j.error.unwrap().line, Some(3));
    assert_eq!(j.plies, 3, "the move before the comment is replayed");
}

#[test]
fn the_first_problem_in_reading_order_is_the_one_reported() {
    // An illegal move at ply 3 comes before a line that cannot be read at ply 4.
    let text = format!("{TWO_PLIES}3. A1,B1,C1,D1\n4. nonsense\n1-0\n");
    let j = invalid(&text, 3, "A1,B1,C1,D1", "A1,B1,C1,D1 is not an L shape");
    assert_eq!(
        j.record_result,
        Some(RED),
        "the token after the problem is read"
    );
    assert!(!j.result_agrees);
    // A bad header comes before any move.
    invalid(
        "[Variant \"classic\"]\n[Setup \"kit\"]\n[Variant \"misere\"]\n1. Z1\n*\n",
        0,
        "",
        "tag Variant is given twice",
    );
}

#[test]
fn input_that_is_not_a_record_at_all_is_unreadable() {
    assert_eq!(judge(""), Err(UnreadableRecord::Empty));
    assert_eq!(judge(" \n\t\r\n"), Err(UnreadableRecord::Empty));
    assert_eq!(judge_bytes(b""), Err(UnreadableRecord::Empty));
    assert_eq!(
        judge_bytes(b"1. A1,A2,A3,B3\n\xff\xfe*\n"),
        Err(UnreadableRecord::NotUtf8 { offset: 15 })
    );
    // UTF-16 text is valid UTF-8 full of NULs.
    assert_eq!(
        judge_bytes(b"*\0\n\0"),
        Err(UnreadableRecord::NotText { offset: 1 })
    );
    assert_eq!(
        UnreadableRecord::Empty.to_string(),
        "the record is empty".to_string()
    );
    // Text with nothing of a record in it is readable, and invalid.
    invalid(
        "{only a comment}\n",
        0,
        "",
        "the record ends without a result (1-0, 0-1, 1/2-1/2 or *): it may be truncated",
    );
    // A byte-order mark is skipped.
    valid(
        "\u{feff}[Variant \"classic\"]\n*\n",
        0,
        UNFINISHED,
        "unfinished",
    );
}

#[test]
fn judge_error_display_names_ply_line_and_move() {
    let j = judged(&third_move("A1,B1,C1,D1"));
    assert_eq!(
        j.error.unwrap().to_string(),
        "ply 3, line 3, 'A1,B1,C1,D1': A1,B1,C1,D1 is not an L shape"
    );
    let j = judged(TWO_PLIES);
    assert_eq!(
        j.error.unwrap().to_string(),
        "ply 2: the record ends without a result (1-0, 0-1, 1/2-1/2 or *): it may be truncated"
    );
}

// Valid records: every way a game ends.

#[test]
fn notation_example_is_valid_and_ends_trapped() {
    let j = valid(NOTATION_EXAMPLE, 2, BLUE, "trapped");
    assert_eq!(j.final_position, "RRN./RB../RBBB/N... r");
    assert_eq!(j.tags.len(), 6);
    assert_eq!(
        j.conclusion().unwrap().to_string(),
        "Blue wins: Red cannot move their L"
    );
    // The referee agrees with Record::replay.
    let record: lgame::Record = NOTATION_EXAMPLE.parse().unwrap();
    assert_eq!(j.game, Some(record.replay().unwrap()));
}

#[test]
fn valid_game_ending_by_symmetry() {
    let j = valid(
        "[Variant \"symmetry\"]\n1. A2,B2,B3,B4\n2. C2,C3,C4,D2\n0-1\n",
        2,
        BLUE,
        "symmetry",
    );
    assert_eq!(j.final_position, "NRB./.RB./RRBB/...N r");
}

#[test]
fn valid_game_ending_at_the_score_target() {
    let j = valid(
        "[Variant \"scoring,target=2\"]\n\
         1. A1,A2,A3,B3\n2. B1,B2,C2,D2\n3. B3,C3,D3,D4\n1-0\n",
        3,
        RED,
        "score target",
    );
    assert_eq!(j.final_position, "N..R/.RRR/.BBB/.B.N b 2-0");
}

#[test]
fn valid_game_ending_at_the_turn_limit() {
    let j = valid(
        &format!("[TurnLimit \"2\"]\n{TWO_PLIES}1/2-1/2\n"),
        2,
        DRAW,
        "turn limit",
    );
    assert_eq!(j.final_position, AFTER_TWO_PLIES);
    // A move beyond the limit is after the end.
    invalid(
        &format!("[TurnLimit \"2\"]\n{TWO_PLIES}3. A1,A2,B1,C1\n1/2-1/2\n"),
        3,
        "A1,A2,B1,C1",
        "the game is over (Drawn: the turn limit was reached)",
    );
}

#[test]
fn valid_game_ending_by_repetition() {
    let cycle = "A1,A2,A3,B3\nC1,C2,C3,D3\nB2,B3,B4,C4\nB1,C1,C2,C3\n";
    let text = format!("[Repetition \"3\"]\n{cycle}{cycle}1/2-1/2\n");
    let j = valid(&text, 8, DRAW, "repetition");
    assert_eq!(j.final_position, "NRR./.RB./.RB./.BBN r");
    // Without the tag, the same moves leave the game unfinished.
    invalid(
        &format!("{cycle}{cycle}1/2-1/2\n"),
        8,
        "1/2-1/2",
        "the record's result 1/2-1/2 contradicts the moves, which give *",
    );
}

#[test]
fn valid_games_ending_by_a_declared_termination() {
    let declared = |termination: &str, token: &str| {
        format!("[Termination \"{termination}\"]\n[Result \"{token}\"]\n{TWO_PLIES}{token}\n")
    };
    valid(&declared("resignation", "1-0"), 2, RED, "resignation");
    valid(&declared("resignation", "0-1"), 2, BLUE, "resignation");
    valid(&declared("agreement", "1/2-1/2"), 2, DRAW, "agreement");
    valid(&declared("forfeit", "0-1"), 2, BLUE, "forfeit");
    valid(&declared("abandoned", "*"), 2, UNFINISHED, "abandoned");
    let j = valid(&declared("resignation", "1-0"), 2, RED, "resignation");
    assert_eq!(
        j.conclusion().unwrap().to_string(),
        "Red wins: Blue resigned"
    );
    assert_eq!(j.final_position, AFTER_TWO_PLIES);
}

#[test]
fn valid_unfinished_game() {
    let j = valid(&format!("{TWO_PLIES}*\n"), 2, UNFINISHED, "unfinished");
    assert_eq!(j.final_position, AFTER_TWO_PLIES);
    assert_eq!(j.conclusion(), None);
    // No moves at all.
    let j = valid("*", 0, UNFINISHED, "unfinished");
    assert_eq!(j.final_position, "NRR./.RB./.RB./.BBN r");
}

#[test]
fn the_referee_agrees_with_record_replay_on_valid_records() {
    for text in [
        NOTATION_EXAMPLE.to_string(),
        format!("[TurnLimit \"2\"]\n{TWO_PLIES}1/2-1/2\n"),
        "{a friendly game}\n[Variant \"classic\"]\n\n a1,a2,a3,b3 d1-d2 \n{Blue thinks}\n2. {quick} C4,C3,C2,D4\n*".to_string(),
    ] {
        let record: lgame::Record = text.parse().unwrap();
        let game = record.replay().unwrap();
        let ending = game.conclusion().map_or("unfinished", |c| c.ending.name());
        let j = valid(&text, record.moves.len(), record.result, ending);
        assert_eq!(j.game, Some(game));
    }
}
