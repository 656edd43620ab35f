//! The rules library's answers computed a second time, to check the server's against: rules
//! and positions read from text, the positions after moves, and a refusal's data said in
//! words as the page's English says it.

use lgame::{Move, Position, Rules};
use serde_json::Value;

/// The rules named `variant` (`classic`, `misere`, `neutrals=1`, …); panics if unreadable.
pub fn rules(variant: &str) -> Rules {
    variant.parse().unwrap()
}

/// The position `text` (notation or a setup name) under `variant`'s rules; panics if
/// unreadable.
pub fn position(variant: &str, text: &str) -> Position {
    Position::from_text(text, &rules(variant)).unwrap()
}

/// The position after `picks` library moves from `text` (each pick taken modulo the number
/// of legal moves), and the moves played.
pub fn after_moves(variant: &str, text: &str, picks: &[usize]) -> (Position, Vec<Move>) {
    let mut p = position(variant, text);
    let mut played = Vec::new();
    for pick in picks {
        let moves = p.legal_moves();
        let mv = moves[pick % moves.len()];
        p = p.play(&mv).unwrap();
        played.push(mv);
    }
    (p, played)
}

/// The positions after each move, by the library.
pub fn replay(start: &Position, moves: &[String]) -> Vec<String> {
    let mut p = *start;
    moves
        .iter()
        .map(|m| {
            p = p.play(&m.parse::<Move>().unwrap()).unwrap();
            p.to_string()
        })
        .collect()
}

/// A refusal's data said in words as the page's English says it (web/i18n/en/ui.js): it must
/// be the library's text, so the data carries all the text does.
pub fn say_reason(reason: &Value, text: &str) -> String {
    let field = |name: &str| match &reason[name] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("{name} is {other} in {reason}"),
    };
    let piece = |name: &str| match name {
        "red" => "Red's L",
        "blue" => "Blue's L",
        "neutral" => "a neutral",
        other => panic!("a piece named {other}"),
    };
    match reason["kind"].as_str().unwrap_or("") {
        "occupied" => format!(
            "the L cannot go on {}: it is occupied by {}",
            field("cell"),
            piece(&field("piece"))
        ),
        "unchanged" => format!(
            "the L is already on {}: it must move to a different placement",
            field("cells")
        ),
        "no_placement" => format!("no free L covers {}", field("cells")),
        "not_an_l" => format!("{} is not an L shape", field("cells")),
        "off_board" => format!("{} is off the {} board", field("cell"), field("board")),
        "neutral_after_symmetry_win" => "this L move mirrors the opponent's L and wins at once: \
                                         no neutral may move"
            .to_string(),
        "too_many_neutral_moves" => format!(
            "{} neutral moves, but the {} rules allow at most {}",
            field("found"),
            field("rules"),
            field("allowed")
        ),
        "neutral_required" => {
            "a neutral move is required after the L move under neutral-required rules".to_string()
        }
        "no_neutral" if reason["piece"].is_null() => {
            format!("there is no neutral on {} (it is empty)", field("cell"))
        }
        "no_neutral" => format!(
            "there is no neutral on {} (it holds {})",
            field("cell"),
            piece(&field("piece"))
        ),
        "neutral_target_occupied" => format!(
            "a neutral cannot move to {}: it is occupied by {}",
            field("cell"),
            piece(&field("piece"))
        ),
        // The outcome in the text is the game's, which the page words itself.
        "game_over" if text.starts_with("the game is over") => text.to_string(),
        _ => panic!("an unexpected reason {reason} for {text:?}"),
    }
}
