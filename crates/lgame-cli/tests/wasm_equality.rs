//! The page's WebAssembly engine (`crates/lgame-web/web/engine/lgame.wasm`, as committed)
//! answers as the native programs do: run in Node (Debian's `nodejs`) through the page's
//! own glue (`web/js/engine/wasm.js`), its analysis of 10,000 random positions of every
//! named variant, and of every position in the examples of `docs/api.md`, is the JSON of
//! `lgame analyze --json` (every legal move and its value); for one in ten of the random
//! positions and every documented one, its legal moves are the analysed ones and its
//! position answer (the pieces, the moves, the move builder's refusals and their reasons
//! for a selected cell) is the server's `GET /api/position`, from `lgame serve`. Its
//! classes of each value of every named variant (puzzles, learn), for all distances, the
//! shortest, a middle one, the longest and one that none has, and its refusals of a bad value, variant or distance, are the
//! server's `GET /api/classes`.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

use lgame::variants::VARIANTS;
use lgame::{Position, Rules};
use lgame_solver::StateIndex;
use lgame_test_support::http::encode;
use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};
use serde_json::{json, Value};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// Random positions per named variant, analysed by both.
const PER_VARIANT: u64 = 10_000;

/// One in this many is also laid out by both (`GET /api/position`: the legal moves, the
/// refusals and their reasons), which takes the engine twice the analysis's time.
const LAID_OUT_EVERY: u64 = 10;

/// One position asked of both: the variant, the position, and a cell selected for the
/// mover's new L (the move builder's refusals are for it).
struct Case {
    variant: String,
    position: String,
    selected: String,
    /// Whether the position answer is compared too.
    laid: bool,
}

/// A small reproducible generator (SplitMix64): the same positions on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn case(rules: &Rules, position: &Position, pick: u64) -> Case {
    // A cell of one of the mover's legal Ls (or none when it has no move).
    let ls: Vec<_> = position.l_moves().collect();
    let selected = if ls.is_empty() {
        String::new()
    } else {
        let cells = ls[(pick % ls.len() as u64) as usize].squares_in_notation_order();
        cells[(pick / 7 % cells.len() as u64) as usize].to_string()
    };
    Case {
        variant: rules.to_string(),
        position: position.to_string(),
        selected,
        laid: true,
    }
}

/// `PER_VARIANT` positions drawn uniformly from each named variant's positions.
fn random_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut state = 28;
    for variant in VARIANTS {
        let rules: Rules = variant.rules.parse().expect("a named variant");
        let index = StateIndex::new(&rules);
        let mut found = 0;
        while found < PER_VARIANT {
            let pick = next(&mut state);
            if let Some(position) = index.position(pick % index.len()) {
                let mut case = case(&rules, &position, next(&mut state));
                case.laid = found.is_multiple_of(LAID_OUT_EVERY);
                cases.push(case);
                found += 1;
            }
        }
    }
    cases
}

/// Every position written in `docs/api.md` (its examples are of the classic game).
fn documented_cases() -> Vec<Case> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md"))
            .expect("docs/api.md");
    let rules = Rules::default();
    let mut seen = BTreeSet::new();
    let mut cases = Vec::new();
    // A position's text: four rows of four cells, then the side to move.
    for (at, _) in doc.match_indices(" r").chain(doc.match_indices(" b")) {
        let Some(text) = doc.get(at.saturating_sub(19)..at + 2) else {
            continue;
        };
        if let Ok(position) = Position::from_text(text, &rules) {
            if seen.insert(text.to_string()) {
                cases.push(case(&rules, &position, seen.len() as u64));
            }
        }
    }
    assert!(cases.len() >= 5, "docs/api.md's positions: {}", cases.len());
    cases
}

/// Node processes that run the engine, each answering its share of the cases.
const NODE_SHARDS: usize = 2;

/// The engine's answers in Node, one JSON line `{analysis, position}` for each case, read
/// as they come: the cases are dealt round-robin to [`NODE_SHARDS`] processes (the engine
/// is the slow side), and nothing is kept on disk (the answers are over a gigabyte).
fn engine_answers(dir: &TempDir, cases: &[Case]) -> impl Iterator<Item = Value> {
    let input = dir.join("cases.jsonl");
    let lines: Vec<String> = cases
        .iter()
        .map(|c| {
            json!({ "variant": c.variant, "position": c.position, "selected": c.selected, "laid": c.laid })
                .to_string()
        })
        .collect();
    std::fs::write(&input, lines.join("\n")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lgame-wasm/tests/equality.mjs");
    let mut shards: Vec<_> = (0..NODE_SHARDS)
        .map(|shard| {
            let node = Command::new("node")
                .arg(&script)
                .arg(&input)
                .arg(format!("{shard}/{NODE_SHARDS}"))
                .stdout(Stdio::piped())
                .spawn()
                .expect("node runs (Debian's nodejs; `cargo xtask test` installs it)");
            Answers::of(node, "node")
        })
        .collect();
    (0..cases.len()).map(move |i| shards[i % NODE_SHARDS].next().expect("node's answer"))
}

/// `lgame analyze --json -`: one JSON line for each case, read as they come.
fn analyze(dir: &TempDir, cases: &[Case]) -> Answers {
    let input: String = cases
        .iter()
        .map(|c| format!("[{}] {}\n", c.variant, c.position))
        .collect();
    let input_path = dir.join("batch.txt");
    std::fs::write(&input_path, input).unwrap();
    let analyze = LGAME
        .command()
        .args(["analyze", "--json", "-"])
        .stdin(File::open(&input_path).unwrap())
        .stdout(Stdio::piped())
        .spawn()
        .expect("lgame runs");
    Answers::of(analyze, "lgame analyze")
}

/// A program's JSON lines on its standard output, one at a time; when they end, the
/// program must have succeeded.
struct Answers {
    child: Child,
    lines: std::io::Lines<BufReader<ChildStdout>>,
    name: &'static str,
}

impl Answers {
    fn of(mut child: Child, name: &'static str) -> Answers {
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Answers { child, lines, name }
    }
}

impl Iterator for Answers {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        match self.lines.next() {
            Some(line) => Some(serde_json::from_str(&line.unwrap()).unwrap()),
            None => {
                let status = self.child.wait().unwrap();
                assert!(status.success(), "{}: {status}", self.name);
                None
            }
        }
    }
}

fn moves_of(answer: &Value, field: &str) -> BTreeSet<String> {
    answer[field]
        .as_array()
        .unwrap_or_else(|| panic!("no {field} in {answer}"))
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

fn check(cases: &[Case]) {
    let dir = TempDir::new("wasm-equality");
    let server = ServeProcess::start(LGAME, dir.db(), &[]);
    let mut compared = 0;
    // The three programs run at once; their answers are compared as they come.
    for ((case, engine), native) in cases
        .iter()
        .zip(engine_answers(&dir, cases))
        .zip(analyze(&dir, cases))
    {
        compared += 1;
        let what = format!(
            "[{}] {} (selected {})",
            case.variant, case.position, case.selected
        );
        assert_eq!(engine["analysis"]["ok"], native, "analysis of {what}");
        if !case.laid {
            continue;
        }
        let laid = &engine["position"]["ok"];
        assert_eq!(
            moves_of(laid, "moves"),
            moves_of(&native, "moves"),
            "legal moves of {what}"
        );
        let asked = server.get(&format!(
            "/api/position?variant={}&position={}&selected={}",
            encode(&case.variant),
            encode(&case.position),
            encode(&case.selected)
        ));
        assert_eq!(asked.status, 200, "{what}: {}", asked.body);
        assert_eq!(
            *laid, asked.body,
            "position answer (moves, refusals, reasons) of {what}"
        );
    }
    assert_eq!(compared, cases.len(), "an answer for every case");
}

#[test]
fn the_webassembly_engine_answers_random_positions_of_every_named_variant_as_the_server() {
    let cases = random_cases();
    assert_eq!(cases.len() as u64, PER_VARIANT * VARIANTS.len() as u64);
    check(&cases);
}

#[test]
fn the_webassembly_engine_answers_the_positions_of_the_api_docs_as_the_server() {
    check(&documented_cases());
}

/// The engine's answers in Node to `requests`, one each, in order.
fn engine_asks(dir: &TempDir, requests: &[Value]) -> Vec<Value> {
    let input = dir.join("asks.jsonl");
    let lines: Vec<String> = requests
        .iter()
        .map(|r| json!({ "ask": r }).to_string())
        .collect();
    std::fs::write(&input, lines.join("\n")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lgame-wasm/tests/equality.mjs");
    let node = Command::new("node")
        .arg(&script)
        .arg(&input)
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (Debian's nodejs; `cargo xtask test` installs it)");
    let answers: Vec<Value> = Answers::of(node, "node").collect();
    assert_eq!(answers.len(), requests.len(), "an answer for every request");
    answers
}

#[test]
fn the_webassembly_engine_answers_the_classes_of_every_named_variant_as_the_server() {
    let dir = TempDir::new("wasm-equality-classes");
    let server = ServeProcess::start(LGAME, dir.db(), &["--analysis-limit", "0"]);
    let get = |variant: &str, value: &str, plies: Option<&str>| {
        let mut path = format!(
            "/api/classes?variant={}&value={}",
            encode(variant),
            encode(value)
        );
        if let Some(plies) = plies {
            path.push_str(&format!("&plies={plies}"));
        }
        server.get(&path)
    };
    // Every value of every named variant: with no distance, a few of its distances and one
    // that none has (a draw has no distance); then the refusals.
    let mut asked = Vec::new();
    let mut listed = 0;
    for variant in VARIANTS {
        for value in ["win", "draw", "loss"] {
            let all = get(variant.rules, value, None);
            assert_eq!(all.status, 200, "{} {value}: {}", variant.rules, all.body);
            let distances: Vec<u64> =
                serde_json::from_value(all.body["distances"].clone()).expect("the distances");
            if value == "draw" {
                assert!(distances.is_empty(), "{}", all.body);
            }
            listed += all.body["positions"].as_array().map_or(0, Vec::len);
            // The shortest distance, a middle one and the longest.
            let picks = [
                distances.first(),
                distances.get(distances.len() / 2),
                distances.last(),
            ];
            let mut plies: Vec<Option<u64>> =
                picks.into_iter().flatten().map(|&d| Some(d)).collect();
            plies.dedup();
            plies.extend([None, Some(999)]);
            for plies in plies {
                let answer = match plies {
                    None => all.clone(),
                    Some(p) => get(variant.rules, value, Some(&p.to_string())),
                };
                assert_eq!(answer.status, 200, "{answer:?}");
                asked.push((
                    json!({ "op": "classes", "variant": variant.rules, "value": value, "plies": plies }),
                    json!({ "ok": answer.body }),
                ));
            }
        }
    }
    for (variant, value, plies) in [
        ("classic", "victory", None),
        ("hexagonal", "win", None),
        ("classic", "win", Some("-1")),
    ] {
        let refused = get(variant, value, plies);
        assert_eq!(refused.status, 400, "{refused:?}");
        let plies: Option<i64> = plies.map(|p| p.parse().unwrap());
        let kind = &refused.body["kind"];
        // A distance the server cannot read is refused by its query's reader, in its words.
        let said = if kind == "bad_request" {
            json!({ "kind": kind })
        } else {
            json!({ "error": refused.body["error"], "kind": kind })
        };
        asked.push((
            json!({ "op": "classes", "variant": variant, "value": value, "plies": plies }),
            said,
        ));
    }
    let requests: Vec<Value> = asked.iter().map(|(r, _)| r.clone()).collect();
    let answers = engine_asks(&dir, &requests);
    for ((request, expected), answer) in asked.iter().zip(&answers) {
        let answer = match expected.get("ok") {
            Some(_) => answer.clone(),
            None => {
                let mut kept = serde_json::Map::new();
                for field in expected.as_object().unwrap().keys() {
                    kept.insert(field.clone(), answer[field].clone());
                }
                Value::Object(kept)
            }
        };
        assert_eq!(&answer, expected, "{request}");
    }
    assert!(
        asked.len() > 3 * VARIANTS.len() * 2,
        "{} requests",
        asked.len()
    );
    assert!(listed > 1_000 * VARIANTS.len(), "{listed} classes listed");
}
