//! `lgame judge` end to end: exit codes 0/1/2, the report on stdout, the JSON keys, standard
//! input, unreadable input, and no panic on garbage.

use std::path::PathBuf;
use std::process::Output;

use lgame_test_support::{stderr, stdout, Lgame};
use serde_json::Value;

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// The record of notation.md, verbatim (one file for every test that reads it).
const NOTATION_EXAMPLE: &str = include_str!("../../lgame/tests/data/notation-example.txt");

/// Its final position.
const EXAMPLE_FINAL: &str = "RRN./RB../RBBB/N... r";

/// Two legal plies from the standard setup, then an I-shaped "L" at ply 3.
const ILLEGAL_AT_PLY_3: &str = "1. A1,A2,A3,B3 D1-D2\n2. B4,C4,D3,D4\n3. A1,B1,C1,D1\n*\n";

/// Writes `bytes` to a file of its own under the test's temporary directory.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("judge-{name}"));
    std::fs::write(&path, bytes).expect("the temporary directory is writable");
    path
}

/// Judges `record` from standard input; checks the exit code and that nothing panicked.
fn judge_stdin(args: &[&str], record: &[u8], code: i32) -> Output {
    let mut all = vec!["judge"];
    all.extend_from_slice(args);
    all.push("-");
    let out = LGAME.run_with_stdin(&all, record);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "lgame judge panicked: {err}");
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).expect("judge --json prints JSON")
}

#[test]
fn valid_record_exits_0_with_a_text_report() {
    let path = file("valid.txt", NOTATION_EXAMPLE.as_bytes());
    let out = LGAME.run_with_stdin(&["judge", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("valid record\n"), "{text}");
    assert!(text.contains("plies: 2 replayed validly"), "{text}");
    assert!(
        text.contains("result: 0-1 (trapped: Blue wins: Red cannot move their L)"),
        "{text}"
    );
    assert!(text.contains("record's result: 0-1 (agrees)"), "{text}");
    assert!(
        text.contains(&format!("final position: {EXAMPLE_FINAL}")),
        "{text}"
    );
}

#[test]
fn json_report_has_the_documented_keys_and_types() {
    let out = judge_stdin(&["--json"], NOTATION_EXAMPLE.as_bytes(), 0);
    let v = json(&out);
    for key in [
        "valid",
        "plies",
        "result",
        "ending",
        "error",
        "final_position",
        "record_result",
        "result_agrees",
    ] {
        assert!(v.get(key).is_some(), "key {key} missing from {v}");
    }
    assert_eq!(v["valid"], Value::Bool(true));
    assert_eq!(v["plies"], 2);
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["ending"], "trapped");
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["final_position"], EXAMPLE_FINAL);
    assert_eq!(v["record_result"], "0-1");
    assert_eq!(v["result_agrees"], Value::Bool(true));
}

#[test]
fn invalid_record_exits_1_and_still_prints_the_report() {
    let out = judge_stdin(&["--json"], ILLEGAL_AT_PLY_3.as_bytes(), 1);
    let v = json(&out);
    assert_eq!(v["valid"], Value::Bool(false));
    assert_eq!(v["plies"], 2);
    assert_eq!(v["result"], "*");
    assert_eq!(v["ending"], "unfinished");
    assert_eq!(v["error"]["ply"], 3);
    assert_eq!(v["error"]["move"], "A1,B1,C1,D1");
    assert_eq!(v["error"]["reason"], "A1,B1,C1,D1 is not an L shape");
    assert_eq!(v["error"]["line"], 3);
    assert_eq!(v["final_position"], "NBBB/RR.B/R..N/R... r");
    assert_eq!(v["record_result"], "*");
    assert_eq!(v["result_agrees"], Value::Bool(true));
    assert!(stderr(&out).starts_with("error: invalid record: ply 3"));

    let out = judge_stdin(&[], ILLEGAL_AT_PLY_3.as_bytes(), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "invalid record: ply 3, line 3, 'A1,B1,C1,D1': A1,B1,C1,D1 is not an L shape\n"
        ),
        "{text}"
    );
    assert!(text.contains("plies: 2 replayed validly"), "{text}");
}

#[test]
fn result_token_contradicting_the_moves_exits_1() {
    let record = NOTATION_EXAMPLE
        .replace("[Result \"0-1\"]\n", "")
        .replace("\n0-1\n", "\n1-0\n");
    let v = json(&judge_stdin(&["--json"], record.as_bytes(), 1));
    assert_eq!(v["result"], "0-1", "the true result");
    assert_eq!(v["record_result"], "1-0");
    assert_eq!(v["result_agrees"], Value::Bool(false));
    assert_eq!(v["error"]["ply"], 2);
    assert_eq!(v["error"]["move"], "1-0");
    assert_eq!(
        v["error"]["reason"],
        "the record's result 1-0 contradicts the moves, which give 0-1"
    );
}

#[test]
fn truncated_record_has_a_null_record_result() {
    let v = json(&judge_stdin(
        &["--json"],
        b"1. A1,A2,A3,B3 D1-D2\n2. B4,C4,D3,D4\n",
        1,
    ));
    assert_eq!(v["record_result"], Value::Null);
    assert_eq!(v["error"]["ply"], 2);
    assert_eq!(v["error"]["move"], "");
    assert_eq!(v["error"]["line"], Value::Null);
}

#[test]
fn stdin_dash_reads_standard_input() {
    let out = judge_stdin(&[], NOTATION_EXAMPLE.as_bytes(), 0);
    assert!(stdout(&out).starts_with("valid record\n"));
    assert!(out.stderr.is_empty());
}

#[test]
fn the_global_variant_is_ignored() {
    // The record is classic; --variant says otherwise and changes nothing.
    let out = judge_stdin(
        &["--variant", "misere,neutrals=1"],
        NOTATION_EXAMPLE.as_bytes(),
        0,
    );
    assert!(stdout(&out).contains("result: 0-1 (trapped"));
    let help = stdout(&LGAME.run_with_stdin(&["judge", "--help"], b""));
    assert!(help.contains("the global --variant is ignored"), "{help}");
}

/// Checks an exit 2: an `error: ` line on stderr and nothing on stdout.
fn unreadable(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(out.stdout.is_empty(), "printed {}", stdout(out));
    err
}

#[test]
fn missing_file_exits_2() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("judge-no-such-record.txt");
    let err = unreadable(&LGAME.run_with_stdin(&["judge", missing.to_str().unwrap()], b""));
    assert!(err.contains("cannot read"), "{err}");
    let err =
        unreadable(&LGAME.run_with_stdin(&["judge", "--json", missing.to_str().unwrap()], b""));
    assert!(err.contains("no-such-record"), "{err}");
    // A directory is not a readable file either.
    unreadable(&LGAME.run_with_stdin(&["judge", env!("CARGO_TARGET_TMPDIR")], b""));
}

#[test]
fn non_utf8_input_exits_2() {
    let bytes = b"1. A1,A2,A3,B3\n\xff\xfe\x00*\n";
    let err = unreadable(&LGAME.run_with_stdin(&["judge", "-"], bytes));
    assert!(err.contains("not UTF-8"), "{err}");
    let path = file("latin1.txt", b"[Red \"Andr\xe9\"]\n*\n");
    unreadable(&LGAME.run_with_stdin(&["judge", "--json", path.to_str().unwrap()], b""));
    // UTF-16 with its byte-order mark.
    let utf16: Vec<u8> = "\u{feff}*\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    unreadable(&LGAME.run_with_stdin(&["judge", "-"], &utf16));
}

#[test]
fn empty_input_exits_2() {
    let err = unreadable(&LGAME.run_with_stdin(&["judge", "-"], b""));
    assert!(err.contains("empty"), "{err}");
    let path = file("blank.txt", b"\n \n\t\n");
    unreadable(&LGAME.run_with_stdin(&["judge", path.to_str().unwrap()], b""));
}

#[test]
fn garbage_never_panics() {
    let long_line = "A1,".repeat(10_000);
    let deep_number = format!("{}. A1,A2,A3,B3\n*\n", "9".repeat(40));
    let inputs: Vec<&[u8]> = vec![
        b"hello",
        b"*",
        b"[",
        b"]",
        b"{",
        b"}",
        b"{}",
        b"1.",
        b"1. \n*",
        b"0. A1,A2,A3,B3\n*",
        b"-1. A1,A2,A3,B3\n*",
        b"1-0 0-1",
        b"1/2-1/2\n1/2-1/2",
        b"[Variant \"\"]\n*",
        b"[Variant \"board=9x9\"]\n*",
        b"[Variant \"board=8x8,neutrals=8\"]\n1. H8,H7,H6,G6\n*",
        b"[Setup \"\"]\n*",
        b"[Setup \"R:A1 r\"]\n*",
        b"[TurnLimit \"0\"]\n1. A1,A2,A3,B3\n*",
        b"[TurnLimit \"99999999999999999999\"]\n*",
        b"[Repetition \"0\"]\n*",
        b"[Repetition \"1\"]\n1/2-1/2",
        b"[Termination \"abandoned\"]\n*",
        b"[Result \"\\\"]\n*",
        b"[A \"\\\\\\\"{\"]\n*",
        b"A1,A2,A3,B3 A4-A4\n*",
        b"A1,A2,A3,B3 A4-B4 A4-C4\n*",
        b"A1,A2,A3,B3 A4-D1 D1-A4\n*",
        b"A1,A1,A1,A1\n*",
        b"a9,b9,c9,c8\n*",
        b"\r\n\r\n*\r\n",
        b"\xef\xbb\xbf*",
        "\u{2028}*\u{2029}".as_bytes(),
        "✓ ½-½ → ∞".as_bytes(),
        long_line.as_bytes(),
        deep_number.as_bytes(),
    ];
    for input in inputs {
        let out = LGAME.run_with_stdin(&["judge", "--json", "-"], input);
        let err = stderr(&out);
        let shown = String::from_utf8_lossy(input);
        assert!(!err.contains("panicked"), "{shown:?} panicked: {err}");
        let code = out.status.code();
        assert!(matches!(code, Some(0..=2)), "{shown:?}: {code:?} {err}");
        if code != Some(2) {
            let v = json(&out);
            assert_eq!(v["valid"], Value::Bool(code == Some(0)), "{shown:?}");
        }
    }
}
