//! Refusals as data (docs/api.md, "Refusals"): every kind of illegal move is refused with
//! its reason as data the page words itself, and every refusal says its kind and the
//! refused text; end to end over HTTP on a loopback port.

use lgame::{Color, Move};
use lgame_test_support::http::{a_legal_move, encode};
use lgame_test_support::library::{position, rules, say_reason};
use lgame_test_support::server::Server;
use serde_json::json;

/// A position of the symmetry variant where Red can mirror Blue's L: a move there with a
/// neutral step is refused, the mirror having ended the game.
fn a_symmetry_win_with_a_neutral_step() -> (String, String) {
    let rules = rules("symmetry");
    for p in lgame::position::all_positions(&rules) {
        for mv in p.legal_moves() {
            if mv.neutral_moves().is_empty() && p.play(&mv).unwrap().ls_mirror_each_other() {
                let after = p.play(&mv).unwrap();
                let free = (p.board().mask() - (after.occupied()))
                    .first()
                    .expect("a free cell");
                let neutral = p.neutrals().first().expect("a neutral");
                return (p.to_string(), format!("{mv} {neutral}-{free}"));
            }
        }
    }
    panic!("no mirroring move in the symmetry variant");
}

#[test]
fn every_kind_of_illegal_move_is_refused_with_its_reason_as_data() {
    let (_dir, server) = Server::in_temp_dir("page-illegal-kinds");
    let (mirror_at, mirror_move) = a_symmetry_win_with_a_neutral_step();
    // Standard: Red's L on B2,B3,B4,C4; Blue's on B1,C1,C2,C3; neutrals on A4 and D1.
    let cases: Vec<(&str, String, String, &str)> = vec![
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,A4".into(),
            "not_an_l",
        ),
        (
            "classic",
            "standard".into(),
            "B2,B3,B4,C4".into(),
            "unchanged",
        ),
        (
            "classic",
            "standard".into(),
            "A1,B1,C1,A2".into(),
            "occupied",
        ),
        (
            "classic",
            "standard".into(),
            "D1,D2,D3,E3".into(),
            "off_board",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 D1-D2 A4-D3".into(),
            "too_many_neutral_moves",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 D2-D3".into(),
            "no_neutral",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 C2-D2".into(),
            "no_neutral",
        ),
        (
            "classic",
            "standard".into(),
            "A1,A2,A3,B3 D1-C2".into(),
            "neutral_target_occupied",
        ),
        (
            "neutral-required",
            "standard".into(),
            "A1,A2,A3,B3".into(),
            "neutral_required",
        ),
        (
            "symmetry",
            mirror_at,
            mirror_move,
            "neutral_after_symmetry_win",
        ),
    ];
    for (variant, setup, text, kind) in cases {
        let p = position(variant, &setup);
        let mv: Move = text.parse().unwrap();
        let words = p.check_move(&mv).expect_err("an illegal move").to_string();
        let what = format!("{variant} {setup}: {text}");

        let game = server.create(json!({"red": "human", "blue": "human", "variant": variant,
                                        "setup": setup}));
        let token = if p.turn() == Color::Red {
            game.red
        } else {
            game.blue
        }
        .unwrap();
        let reply = server.play(&game.id, &token, 1, &text);
        assert_eq!(reply.status, 422, "{what}: {}", reply.body);
        assert_eq!(reply.body["reason"]["kind"], kind, "{what}");
        assert_eq!(say_reason(&reply.body["reason"], &words), words, "{what}");
        assert!(reply.error().ends_with(&words), "{what}: {}", reply.error());

        let line = server.post(
            "/api/records",
            &json!({"variant": variant, "start": setup, "moves": [text]}),
        );
        assert_eq!(line.status, 422, "{what}: {}", line.body);
        assert_eq!(line.body["reason"], reply.body["reason"], "{what}");
    }
}

#[test]
fn refusals_say_their_kind_and_the_refused_text_as_data() {
    let (_dir, server) = Server::in_temp_dir("page-kinds");
    for (path, status, kind, input) in [
        (
            "/api/position?variant=hexagonal&position=start".to_string(),
            400,
            "bad_variant",
            Some("hexagonal"),
        ),
        (
            "/api/position?position=nonsense".to_string(),
            400,
            "bad_position",
            Some("nonsense"),
        ),
        (
            "/api/position?position=standard&selected=Z9".to_string(),
            400,
            "bad_cell",
            Some("Z9"),
        ),
        (
            "/api/diagram?position=standard&highlight=zz".to_string(),
            400,
            "bad_move",
            Some("zz"),
        ),
        (
            "/api/classes?value=maybe".to_string(),
            400,
            "bad_value",
            Some("maybe"),
        ),
        (
            format!("/api/classes?value=loss&variant={}", encode("board=8x8")),
            422,
            "variant_too_large",
            None,
        ),
        (
            "/api/games/0123456789abcdef".to_string(),
            404,
            "no_game",
            Some("0123456789abcdef"),
        ),
        ("/api/nowhere".to_string(), 404, "not_found", None),
        (
            "/api/classes?value=loss&depth=3".to_string(),
            400,
            "bad_request",
            None,
        ),
    ] {
        let reply = server.get(&path);
        assert_eq!(reply.status, status, "{path}: {}", reply.body);
        assert_eq!(reply.body["kind"], kind, "{path}: {}", reply.body);
        assert_eq!(
            reply.body["input"].as_str(),
            input,
            "{path}: {}",
            reply.body
        );
        assert!(!reply.error().is_empty(), "{path}: the English words stay");
    }
    let created = server.create(json!({ "red": "human", "blue": "human" }));
    let id = created.id.clone();
    let state = created.body["state"].clone();
    let red = created.token_for(&state).to_string();
    let wrong = server.play(&id, &red, 1, "A1,A2,A3,B1");
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    assert_eq!(wrong.body["kind"], "illegal_move");
    assert_eq!(wrong.body["reason"]["kind"], "occupied");
    let stale = server.play(&id, &red, 5, &a_legal_move(&state, 0));
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert_eq!(stale.body["kind"], "stale_move");
}
