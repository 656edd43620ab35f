//! The `lgame` binary end to end: real output, exit codes, and no panics on any input.

use std::ffi::OsString;

use lgame::{Move, Position, Rules};
// Seeded random numbers, so that failures reproduce.
use lgame_players::Rng;
use lgame_test_support::{stderr, Lgame};
use serde_json::Value;

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

const STANDARD: &str = "NRR./.RB./.RB./.BBN r";
const KIT_EXAMPLE: &str = "A2,A3,A4,B4 B2-A1";
/// The kit example followed by Blue's reply that traps Red (notation.md's record).
const KIT_TRAP: &str = "B2,B3,C2,D2 C3-C4";

fn last_line(text: &str) -> &str {
    text.lines().last().expect("some output")
}

fn moves_json(args: &[&str]) -> Value {
    serde_json::from_str(&LGAME.ok(args)).expect("moves --json prints JSON")
}

#[test]
fn moves_from_standard_setup_lists_65_moves_with_their_results() {
    let text = LGAME.ok(&["moves", "standard"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 66);
    assert_eq!(lines[0], "A1,A2,A3,B3  ->  N.../RRB./R.B./RBBN b");
    assert_eq!(last_line(&text), "65 legal moves");

    let rules = Rules::classic();
    let start = Position::from_text(STANDARD, &rules).unwrap();
    for line in &lines[..65] {
        let (mv, after) = line.split_once("  ->  ").expect("MOVE  ->  POSITION");
        let mv: Move = mv.parse().unwrap();
        assert_eq!(start.play(&mv).unwrap().to_string(), after);
    }
    // Either position form and the setup name give the same list.
    assert_eq!(LGAME.ok(&["moves", STANDARD]), text);
    assert_eq!(
        LGAME.ok(&["moves", "R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,D1 r"]),
        text
    );
    assert_eq!(LGAME.ok(&["moves"]), text);
}

#[test]
fn moves_json_has_position_variant_count_and_every_move_replays() {
    let json = moves_json(&["moves", "--json", "standard"]);
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 4);
    for key in ["position", "variant", "legal_moves", "moves"] {
        assert!(keys.contains(&key), "missing {key}");
    }
    assert_eq!(json["position"], STANDARD);
    assert_eq!(json["variant"], "classic");
    assert_eq!(json["legal_moves"], 65);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 65);

    let rules = Rules::classic();
    let start = Position::from_text(STANDARD, &rules).unwrap();
    for entry in moves {
        assert_eq!(entry.as_object().unwrap().len(), 2);
        let mv: Move = entry["move"].as_str().unwrap().parse().unwrap();
        let after = entry["position"].as_str().unwrap();
        let parsed = Position::from_text(after, &rules).unwrap();
        assert_eq!(parsed, start.play(&mv).unwrap());
        assert_eq!(parsed.to_string(), after);
    }
}

#[test]
fn moves_from_kit_setup_are_52_by_variant_or_by_name() {
    assert_eq!(last_line(&LGAME.ok(&["moves", "kit"])), "52 legal moves");
    assert_eq!(
        last_line(&LGAME.ok(&["moves", "--variant", "setup=kit"])),
        "52 legal moves"
    );
    assert_eq!(
        last_line(&LGAME.ok(&["--variant", "setup=kit", "moves", "start"])),
        "52 legal moves"
    );
    let json = moves_json(&["moves", "--json", "--variant", "setup=kit"]);
    assert_eq!(json["legal_moves"], 52);
    assert_eq!(json["variant"], "setup=kit");
    assert_eq!(json["position"], "..BB/R.NB/RN.B/RR.. r");
}

#[test]
fn moves_in_a_finished_game_says_who_won_and_lists_none() {
    let trapped = LGAME.ok(&["apply", "kit", KIT_EXAMPLE, KIT_TRAP]);
    let trapped = trapped.trim_end();
    assert_eq!(
        LGAME.ok(&["moves", trapped]),
        "Game over: Blue wins: Red cannot move their L\n0 legal moves\n"
    );
    let json = moves_json(&["moves", "--json", trapped]);
    assert_eq!(json["legal_moves"], 0);
    assert_eq!(json["moves"], Value::Array(vec![]));
}

#[test]
fn variant_misere_makes_the_trapped_player_the_winner() {
    let trapped = LGAME.ok(&["apply", "--variant", "misere", "kit", KIT_EXAMPLE, KIT_TRAP]);
    let out = LGAME.ok(&["moves", "--variant", "misere", trapped.trim_end()]);
    assert_eq!(
        out,
        "Game over: Red wins: Red cannot move their L\n0 legal moves\n"
    );
    // Away from a trap misère changes no move.
    assert_eq!(
        last_line(&LGAME.ok(&["moves", "--variant", "misere", "standard"])),
        "65 legal moves"
    );
}

#[test]
fn variant_sudden_death_and_neutral_required_change_the_move_count() {
    let rules: Rules = "sudden-death".parse().unwrap();
    let expected = Position::from_text("standard", &rules)
        .unwrap()
        .legal_moves()
        .len();
    assert!(expected > 65, "sudden death adds two-neutral moves");
    let json = moves_json(&["moves", "--json", "--variant", "sudden-death", "standard"]);
    assert_eq!(json["legal_moves"], expected);
    assert_eq!(json["variant"], "sudden-death");
    assert!(json["moves"].as_array().unwrap().iter().any(|m| m["move"]
        .as_str()
        .unwrap()
        .split(' ')
        .count()
        == 3));

    // 5 L moves, each followed by one of 2 × 6 neutral moves.
    assert_eq!(
        last_line(&LGAME.ok(&["moves", "standard", "--variant", "neutral-required"])),
        "60 legal moves"
    );
}

#[test]
fn apply_kit_example_prints_the_resulting_position() {
    assert_eq!(
        LGAME.ok(&["apply", "kit", KIT_EXAMPLE]),
        "RRBB/R.NB/R..B/N... b\n"
    );
    // No moves: the position itself, canonical.
    assert_eq!(
        LGAME.ok(&["apply", "R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,D1 r"]),
        format!("{STANDARD}\n")
    );
    assert_eq!(
        LGAME.ok(&["apply", "kit", KIT_EXAMPLE, KIT_TRAP]),
        "RRN./RB../RBBB/N... r\n"
    );
}

#[test]
fn apply_illegal_kit_move_exits_1_naming_move_number_and_neutral_on_b2() {
    let err = LGAME.fails(&["apply", "kit", "B1,B2,B3,C1"], 1);
    assert!(err.contains("move 1 'B1,B2,B3,C1'"), "{err}");
    assert!(
        err.contains("the L cannot go on B2: it is occupied by a neutral"),
        "{err}"
    );

    let err = LGAME.fails(&["apply", "kit", KIT_EXAMPLE, "A1,A2,A3,B1"], 1);
    assert!(err.contains("move 2 'A1,A2,A3,B1'"), "{err}");
}

#[test]
fn apply_after_the_game_is_over_exits_1() {
    let err = LGAME.fails(&["apply", "kit", KIT_EXAMPLE, KIT_TRAP, "A1,A2,A3,B1"], 1);
    assert!(err.contains("move 3"), "{err}");
    assert!(err.contains("the game is over"), "{err}");
}

#[test]
fn show_never_colour_prints_the_library_diagram() {
    let rules = Rules::classic();
    let kit = Position::from_text("kit", &rules).unwrap();
    assert_eq!(
        LGAME.ok(&["show", "--color", "never", "kit"]),
        lgame::diagram::text(&kit, false)
    );
    // Not a terminal: auto means plain.
    assert_eq!(
        LGAME.ok(&["show", "kit"]),
        lgame::diagram::text(&kit, false)
    );
    assert_eq!(
        LGAME.ok(&["show", "--color", "always", "kit"]),
        lgame::diagram::text(&kit, true)
    );
    let standard = Position::from_text("standard", &rules).unwrap();
    assert_eq!(LGAME.ok(&["show"]), lgame::diagram::text(&standard, false));
}

#[test]
fn garbage_position_exits_2_naming_the_row_char_or_side() {
    let err = LGAME.fails(&["moves", "NRR./.RB./.R./.BBN r"], 2);
    assert!(err.contains("position 'NRR./.RB./.R./.BBN r'"), "{err}");
    assert!(err.contains("row 2 has 3 cells"), "{err}");

    let err = LGAME.fails(&["show", "NRR./.RX./.RB./.BBN r"], 2);
    assert!(err.contains("unexpected 'X' at C3"), "{err}");

    let err = LGAME.fails(&["apply", "NRR./.RB./.RB./.BBN x"], 2);
    assert!(err.contains("found 'x'"), "{err}");

    let err = LGAME.fails(&["moves", "NRR./.RB./.RB r"], 2);
    assert!(err.contains("found 3"), "{err}");

    let err = LGAME.fails(&["moves", "R:B4,C4,B3,B9 B:C3,C2,C1,B1 N:A4,D1 r"], 2);
    assert!(err.contains("'B9'"), "{err}");

    // Readable but illegal: two pieces on one cell.
    let err = LGAME.fails(&["moves", "NRR./.RB./.RB./.BBR r"], 2);
    assert!(err.contains("Red's L"), "{err}");
}

#[test]
fn garbage_move_exits_2_naming_the_cell_or_count() {
    let err = LGAME.fails(&["apply", "kit", "Z9"], 2);
    assert!(err.contains("move 1 'Z9'"), "{err}");
    assert!(err.contains("'Z9' is not a cell name"), "{err}");

    let err = LGAME.fails(&["apply", "kit", "A1,A2,A3"], 2);
    assert!(err.contains("names 3"), "{err}");

    let err = LGAME.fails(&["apply", "kit", KIT_EXAMPLE, "A1,A2,A3,B3 D1-D2 X"], 2);
    assert!(err.contains("move 2"), "{err}");
    assert!(err.contains("'X' is not a neutral move"), "{err}");

    // An unreadable later move is reported even when an earlier one is illegal.
    let err = LGAME.fails(&["apply", "kit", "B1,B2,B3,C1", "Z9"], 2);
    assert!(err.contains("'Z9'"), "{err}");
}

#[test]
fn garbage_variant_exits_2_naming_the_option() {
    let err = LGAME.fails(&["moves", "--variant", "misery", "standard"], 2);
    assert!(err.contains("variant 'misery'"), "{err}");
    assert!(err.contains("unknown rule option 'misery'"), "{err}");

    let err = LGAME.fails(&["show", "--variant", "sudden-death,neutral-required"], 2);
    assert!(
        err.contains("'sudden-death' and 'neutral-required' cannot be combined"),
        "{err}"
    );

    let err = LGAME.fails(&["apply", "--variant", "", "standard"], 2);
    assert!(err.contains("no rules given"), "{err}");
}

#[test]
fn position_on_another_board_than_the_variant_exits_2() {
    let err = LGAME.fails(&["moves", "--variant", "board=5x5", STANDARD], 2);
    assert!(err.contains("board=4x4"), "{err}");
    // The named setups are drawn on any board.
    assert!(LGAME
        .ok(&["moves", "--variant", "board=5x5", "kit"])
        .ends_with(" legal moves\n"));
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    let out = LGAME.run(["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error: "));

    let out = LGAME.run(["apply"]);
    assert_eq!(out.status.code(), Some(2));

    let out = LGAME.run(["show", "--color", "sometimes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("sometimes"));

    let help = LGAME.ok(&["--help"]);
    for command in ["moves", "apply", "show", "--variant"] {
        assert!(help.contains(command), "{help}");
    }
}

/// Pieces of real input, so that garbage reaches past the first check.
const VOCABULARY: &[&str] = &[
    "moves",
    "apply",
    "show",
    "--json",
    "--variant",
    "--color",
    "always",
    "standard",
    "kit",
    "corners",
    "start",
    STANDARD,
    "R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,D1 r",
    KIT_EXAMPLE,
    "A1,A2,A3,B3 D1-D2",
    "H8,H7,H6,G6",
    "B1,B2,B3,C1",
    "misere",
    "sudden-death",
    "board=8x8",
    "board=5x4,neutrals=3",
    "scoring,target=3",
    "symmetry",
    "setup=kit",
    "neutrals=0",
    "N:",
    "R:",
    "/",
    ",",
    "-",
    "r",
    "b",
    "3-2",
    "99-99",
];

fn garbage_arg(rng: &mut Rng) -> OsString {
    match rng.below(4) {
        0 => VOCABULARY[rng.below(VOCABULARY.len())].into(),
        1 => {
            // A real token with a few bytes changed.
            let mut bytes = VOCABULARY[rng.below(VOCABULARY.len())].as_bytes().to_vec();
            for _ in 0..=rng.below(3) {
                let i = rng.below(bytes.len().max(1));
                const BYTES: &[u8] = b"./RBNrb,:-=x 19AH\xc3\xa9\xff";
                let b = BYTES[rng.below(BYTES.len())];
                if i < bytes.len() && rng.below(2) == 0 {
                    bytes[i] = b;
                } else {
                    bytes.insert(i.min(bytes.len()), b);
                }
            }
            bytes_to_arg(bytes)
        }
        _ => {
            let len = rng.below(24);
            let bytes = (0..len).map(|_| (rng.next_u64() % 255) as u8 + 1).collect();
            bytes_to_arg(bytes)
        }
    }
}

#[cfg(unix)]
fn bytes_to_arg(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes.into_iter().filter(|&b| b != 0).collect())
}

#[cfg(not(unix))]
fn bytes_to_arg(bytes: Vec<u8>) -> OsString {
    String::from_utf8_lossy(&bytes).replace('\0', "").into()
}

#[test]
fn garbage_arguments_never_panic() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let commands = ["moves", "apply", "show"];
    for _ in 0..400 {
        let mut args: Vec<OsString> = Vec::new();
        if rng.below(8) != 0 {
            args.push(commands[rng.below(3)].into());
        }
        for _ in 0..rng.below(5) {
            args.push(garbage_arg(&mut rng));
        }
        let out = LGAME.run(args.clone());
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "lgame {args:?} panicked: {err}");
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "lgame {args:?} exited {code:?}: {err}"
        );
        if code != Some(0) {
            // An error message, or clap's help when no subcommand is given.
            assert!(
                err.starts_with("error: ") || err.contains("Usage:"),
                "lgame {args:?}: {err}"
            );
        }
    }
}
