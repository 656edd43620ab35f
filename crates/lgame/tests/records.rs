//! Game records as notation.md writes them.

use lgame::game::{DrawRules, Ending, GameResult, ResultToken};
use lgame::record::RecordError;
use lgame::referee::judge;
use lgame::rules::StartSetup;
use lgame::{Game, Record, Rules};

/// The record of notation.md, verbatim (one file for every test that reads it).
const NOTATION_EXAMPLE: &str = include_str!("data/notation-example.txt");

#[test]
fn notation_example_record_reads_replays_and_writes_back_verbatim() {
    let record: Record = NOTATION_EXAMPLE.parse().unwrap();
    assert_eq!(record.tags.len(), 6);
    assert_eq!(record.tag("Blue"), Some("computer (perfect)"));
    assert_eq!(record.moves.len(), 2);
    assert_eq!(
        record.moves[0].comment.as_deref(),
        Some("the kit's example move")
    );
    assert_eq!(record.result, ResultToken::Finished(GameResult::BlueWins));
    let game = record.replay().unwrap();
    let end = game.conclusion().unwrap();
    assert_eq!(end.to_string(), "Blue wins: Red cannot move their L");
    assert_eq!(
        game.rules().start(),
        StartSetup::Kit,
        "the setup is recognised as the kit's"
    );
    assert_eq!(record.to_string(), NOTATION_EXAMPLE);
}

#[test]
fn unknown_tags_are_kept_in_their_order() {
    let text = "[Event \"club night\"]\n[Round \"3\"]\n[Variant \"misere\"]\n\n*\n";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.to_string(), text);
    assert!(record.replay().unwrap().rules().misere());
}

#[test]
fn records_are_read_leniently_in_case_numbering_and_comments() {
    let text = "{a friendly game}\n[Variant \"classic\"]\n\n a1,a2,a3,b3 d1-d2 \n{Blue thinks}\n2. {quick} C4,C3,C2,D4\n*";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.comment.as_deref(), Some("a friendly game"));
    assert_eq!(record.moves[0].mv.to_string(), "A1,A2,A3,B3 D1-D2");
    assert_eq!(record.moves[0].comment.as_deref(), Some("Blue thinks"));
    assert_eq!(record.moves[1].comment.as_deref(), Some("quick"));
    let again: Record = record.to_string().parse().unwrap();
    assert_eq!(again, record);
    assert!(record.replay().is_ok());
}

#[test]
fn a_game_written_as_a_record_replays_to_the_same_game() {
    let rules: Rules = "scoring,target=12".parse().unwrap();
    let mut game = Game::new(rules).with_draw_rules(DrawRules {
        turn_limit: Some(40),
        repetition: Some(3),
    });
    for _ in 0..10 {
        let mv = game.position().legal_moves()[3];
        game.play(&mv).unwrap();
    }
    let record = Record::from_game(&game);
    assert_eq!(record.tag("Variant"), Some("scoring,target=12"));
    assert_eq!(record.tag("TurnLimit"), Some("40"));
    assert_eq!(record.tag("Repetition"), Some("3"));
    assert_eq!(
        record.tag("Setup"),
        None,
        "the standard setup is the default"
    );
    let replayed: Record = record.to_string().parse().unwrap();
    assert_eq!(replayed, record);
    assert_eq!(replayed.replay().unwrap(), game);
}

#[test]
fn the_kit_draw_rule_is_a_turn_limit_tag() {
    let text = "[Setup \"kit\"]\n[TurnLimit \"1\"]\n\n1. A2,A3,A4,B4 B2-A1\n1/2-1/2\n";
    let game = text.parse::<Record>().unwrap().replay().unwrap();
    assert_eq!(game.conclusion().unwrap().ending, Ending::TurnLimit);
}

#[test]
fn termination_tags_explain_results_the_moves_do_not_give() {
    let text = "[Termination \"resignation\"]\n\n1. A1,A2,A3,B3\n1-0\n";
    let game = text.parse::<Record>().unwrap().replay().unwrap();
    assert_eq!(
        game.conclusion().unwrap().to_string(),
        "Red wins: Blue resigned"
    );
    let record = Record::from_game(&game);
    assert_eq!(record.tag("Termination"), Some("resignation"));
    assert_eq!(
        record
            .to_string()
            .parse::<Record>()
            .unwrap()
            .replay()
            .unwrap(),
        game
    );
    let abandoned = "[Termination \"abandoned\"]\n\n1. A1,A2,A3,B3\n*\n";
    assert!(abandoned.parse::<Record>().unwrap().replay().is_ok());
}

#[test]
fn tag_values_with_quotes_and_backslashes_round_trip() {
    let mut record: Record = "*".parse().unwrap();
    record.set_tag("Red", r#"Ada "the L" \ Lovelace"#);
    let text = record.to_string();
    assert!(text.contains(r#"[Red "Ada \"the L\" \\ Lovelace"]"#));
    assert_eq!(text.parse::<Record>().unwrap(), record);
}

/// Four plies that bring the standard setup back with Red to move: each L steps away and
/// back, the neutrals untouched.
const CYCLE: [&str; 4] = ["A1,A2,A3,B3", "C1,C2,C3,D3", "B2,B3,B4,C4", "B1,C1,C2,C3"];

/// A record as the library writes it: the tags, a blank line, `cycles` times [`CYCLE`] with
/// the moves numbered, and the result token.
fn cycles_record(tags: &str, cycles: usize, result: &str) -> String {
    let moves: String = CYCLE
        .iter()
        .cycle()
        .take(4 * cycles)
        .enumerate()
        .map(|(i, m)| format!("{}. {m}\n", i + 1))
        .collect();
    format!("{tags}\n\n{moves}{result}\n")
}

/// Reads `text`, writes it and reads it back: the same record, the same text.
fn round_trip(text: &str) -> Record {
    let record: Record = text.parse().unwrap();
    assert_eq!(record.to_string(), text, "written back");
    assert_eq!(record.to_string().parse::<Record>(), Ok(record.clone()));
    record
}

#[test]
fn record_repetition_zero_means_no_repetition_draw() {
    // The setup occurs five times (the start and after each of four cycles), undrawn.
    let text = cycles_record("[Repetition \"0\"]", 4, "*");
    let record = round_trip(&text);
    assert_eq!(record.tag("Repetition"), Some("0"));
    let game = record.replay().unwrap();
    assert_eq!(game.draw_rules(), DrawRules::NONE);
    assert_eq!(game.repetitions(), 5);
    assert_eq!(game.conclusion(), None);
    assert!(judge(&text).unwrap().valid);
    // The game is not drawn before the first move: a draw there contradicts the moves.
    let drawn_at_once: Record = "[Repetition \"0\"]\n\n1/2-1/2\n".parse().unwrap();
    assert!(matches!(
        drawn_at_once.replay(),
        Err(RecordError::ResultMismatch {
            actual: ResultToken::Unfinished,
            ..
        })
    ));
    // The game it replays to is the game of no tag at all.
    let untagged = cycles_record("", 4, "*");
    let untagged = untagged.trim_start().parse::<Record>().unwrap();
    assert_eq!(untagged.replay().unwrap(), game);
}

#[test]
fn record_turn_limit_zero_means_no_turn_limit() {
    let text = cycles_record("[TurnLimit \"0\"]", 2, "*");
    let record = round_trip(&text);
    assert_eq!(record.tag("TurnLimit"), Some("0"));
    let game = record.replay().unwrap();
    assert_eq!(game.draw_rules(), DrawRules::NONE);
    assert_eq!((game.plies().len(), game.conclusion()), (8, None));
    assert!(judge(&text).unwrap().valid);
    let drawn_at_once: Record = "[TurnLimit \"0\"]\n\n1/2-1/2\n".parse().unwrap();
    assert_eq!(
        drawn_at_once.replay().unwrap_err().to_string(),
        "the record's result 1/2-1/2 contradicts the moves, which give *"
    );
}

#[test]
fn record_repetition_one_is_refused_every_position_occurs_once() {
    let text = "[Red \"Ada\"]\n[Repetition \"1\"]\n\n*\n";
    let record = round_trip(text);
    let reason = "Repetition tag: '1' is not a repetition count: every position occurs once, \
                  so the count must be 2 or more (or 0 for no repetition draw)";
    let error = record.replay().unwrap_err();
    assert!(
        matches!(&error, RecordError::TagValue { name, value, .. } if name == "Repetition" && value == "1"),
        "{error:?}"
    );
    assert_eq!(error.to_string(), reason);
    // The referee reports it as a header problem, on the tag's line.
    let judgement = judge(text).unwrap();
    let problem = judgement.error.expect("an invalid record");
    assert_eq!(
        (problem.ply, problem.line, problem.move_text.as_str()),
        (0, Some(2), "")
    );
    assert_eq!(problem.reason, reason);
    // A turn limit of 1 is a real rule: drawn after Red's first move.
    let one_ply = "[TurnLimit \"1\"]\n\n1. A1,A2,A3,B3\n1/2-1/2\n";
    assert!(judge(one_ply).unwrap().valid, "{one_ply}");
}

#[test]
fn a_game_with_zero_draw_counts_has_no_draw_rule_and_records_none() {
    for draw_rules in [
        DrawRules {
            turn_limit: Some(0),
            repetition: Some(0),
        },
        DrawRules {
            turn_limit: None,
            repetition: Some(1),
        },
    ] {
        let game = Game::new(Rules::classic()).with_draw_rules(draw_rules);
        assert_eq!(game.draw_rules(), DrawRules::NONE, "{draw_rules:?}");
        assert!(!game.is_over(), "{draw_rules:?} drew before the first move");
        let record = Record::from_game(&game);
        assert_eq!(
            (record.tag("TurnLimit"), record.tag("Repetition")),
            (None, None)
        );
        let read: Record = record.to_string().parse().unwrap();
        assert_eq!(read, record);
        assert_eq!(read.replay().unwrap(), game);
    }
    // Counts that are rules stay.
    let kept = DrawRules {
        turn_limit: Some(1),
        repetition: Some(2),
    };
    let game = Game::new(Rules::classic()).with_draw_rules(kept);
    assert_eq!(game.draw_rules(), kept);
}

#[test]
fn repetition_ending_says_the_count_in_words() {
    for (count, words) in [
        (2, "twice"),
        (3, "three times"),
        (4, "four times"),
        (5, "five times"),
        (12, "12 times"),
    ] {
        // The setup occurs for the count's time after count - 1 cycles.
        let tag = format!("[Repetition \"{count}\"]");
        let text = cycles_record(&tag, count - 1, "1/2-1/2");
        let game = round_trip(&text).replay().unwrap();
        let end = game.conclusion().unwrap();
        assert_eq!(end.ending, Ending::Repetition);
        assert_eq!(end.repetitions, count as u32);
        assert_eq!(
            end.to_string(),
            format!("Drawn: the same position occurred {words}")
        );
        let judgement = judge(&text).unwrap();
        assert!(judgement.valid, "{text}");
        assert_eq!(judgement.ending, "repetition");
        // One cycle fewer is not yet a draw.
        let short = cycles_record(&tag, count - 2, "*");
        assert_eq!(
            short
                .parse::<Record>()
                .unwrap()
                .replay()
                .unwrap()
                .conclusion(),
            None
        );
    }
}
