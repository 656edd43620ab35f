//! Game records as notation.md writes them.

use lgame::{DrawRules, Ending, Game, GameResult, Record, ResultToken, Rules, StartSetup};

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
