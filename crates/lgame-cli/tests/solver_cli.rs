//! The solver commands of the `lgame` binary end to end: `solve`, `analyze` (one position,
//! with a tablebase file, a batch on standard input) and `render`, each checked against the
//! libraries, with the exit codes and messages of every failure and no panics.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lgame::{Move, Position, Rules};
// Seeded random numbers, so that failures reproduce.
use lgame_players::Rng;
use lgame_solver::{estimate, file, human_bytes, StateIndex, Statistics, Tablebase};
use lgame_test_support::{stderr, stdout, Lgame};
use serde_json::Value as Json;

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// Red to move is trapped: Blue has won.
const RED_TRAPPED: &str = "RRN./RB../RBBB/N... r";
/// The same pieces with Blue to move: Blue traps Red at once.
const BLUE_TO_TRAP: &str = "RRN./RB../RBBB/N... b";

/// Every key of `lgame solve --json` the brief pins.
const SOLVE_KEYS: &[&str] = &[
    "variant",
    "board",
    "neutrals",
    "positions",
    "classes",
    "won",
    "lost",
    "drawn",
    "won_classes",
    "lost_classes",
    "drawn_classes",
    "terminal",
    "max_moves",
    "longest_win_plies",
    "start_value",
    "start_moves",
    "solve_ms",
];

/// Parses one line of JSON output.
fn json(text: &str) -> Json {
    assert_eq!(text.lines().count(), 1, "one line of JSON: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The classic table, solved once for all tests.
fn classic() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(|| Tablebase::solve(&Rules::classic()))
}

/// The library's statistics as JSON, without the one field that differs run to run.
fn library_statistics(rules: &Rules) -> Json {
    let tb = if *rules == Rules::classic() {
        classic().clone()
    } else {
        Tablebase::solve(rules)
    };
    without_solve_ms(serde_json::to_value(Statistics::of(&tb)).expect("statistics serialise"))
}

/// The statistics without the fields that differ run to run or machine to machine (the time,
/// and the memory figures `lgame solve --json` adds to the library's), each checked first.
fn without_solve_ms(mut stats: Json) -> Json {
    let fields = stats.as_object_mut().expect("an object");
    let ms = fields.remove("solve_ms").expect("solve_ms is present");
    assert!(
        ms.as_f64().is_some_and(|ms| ms >= 0.0),
        "solve_ms is a duration: {ms}"
    );
    if let Some(states) = fields.remove("states") {
        let positions = fields["positions"].as_u64().expect("positions");
        assert!(states.as_u64().is_some_and(|s| s >= positions), "{states}");
        for key in [
            "memory_estimate_bytes",
            "memory_limit_bytes",
            "peak_memory_bytes",
        ] {
            let bytes = fields.remove(key).unwrap_or_else(|| panic!("no {key}"));
            assert!(bytes.as_u64().is_some_and(|b| b > 0), "{key}: {bytes}");
        }
    }
    stats
}

/// A directory of its own for one test under Cargo's scratch space, removed afterwards.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("solver_cli-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the scratch directory is created");
        Scratch(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    /// The file names in the directory, sorted.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("the scratch directory lists")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("scratch paths are UTF-8")
}

/// Writes the classic tablebase with `lgame solve --out` and returns its path.
fn solve_out(scratch: &Scratch, name: &str) -> PathBuf {
    let path = scratch.path(name);
    let text = LGAME.ok(&["solve", "--out", utf8(&path)]);
    assert!(
        text.ends_with(&format!("Tablebase:      {}\n", path.display())),
        "{text}"
    );
    path
}

/// `count` distinct positions met playing random legal moves from the start (a finished game
/// starts again), so that wins, losses, draws and finished positions all turn up.
fn random_positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut seen = Vec::new();
    let mut position = rules.start_position();
    while seen.len() < count {
        let moves = position.legal_moves();
        position = if moves.is_empty() {
            rules.start_position()
        } else {
            position
                .play(&moves[rng.below(moves.len())])
                .expect("legal")
        };
        if !seen.contains(&position) {
            seen.push(position);
        }
    }
    seen
}

/// The positions the analyze tests probe: fixed ones that cover every value, and random ones.
fn probe_positions() -> Vec<Position> {
    let rules = Rules::classic();
    let mut positions: Vec<Position> = [
        "start",
        RED_TRAPPED,
        BLUE_TO_TRAP,
        "..../N.BB/R.NB/RRRB r", // a longest win, 9 plies
        "N.BB/...B/R..B/RRRN r", // the most moves, 221
    ]
    .iter()
    .map(|text| Position::from_text(text, &rules).expect("a position"))
    .collect();
    positions.extend(random_positions(&rules, 6, 0x5eed_1234_abcd_0001));
    positions
}

/// Better moves for the mover sort first: quick wins, slow wins, draws, slow losses, quick
/// losses.
fn sort_key(value: &str, plies: Option<u64>) -> (u8, i64) {
    match (value, plies) {
        ("win", Some(p)) => (0, p as i64),
        ("draw", None) => (1, 0),
        ("loss", Some(p)) => (2, -(p as i64)),
        other => panic!("not a value: {other:?}"),
    }
}

fn plies_of(v: &Json) -> Option<u64> {
    match v {
        Json::Null => None,
        v => Some(v.as_u64().unwrap_or_else(|| panic!("plies: {v}"))),
    }
}

// ---------------------------------------------------------------------------------------
// lgame solve

#[test]
fn solve_json_classic_has_every_key_and_the_known_figures_of_the_library() {
    let stats = json(&LGAME.ok(&["solve", "--json"]));
    for key in SOLVE_KEYS {
        assert!(stats.get(key).is_some(), "no {key} in {stats}");
    }
    assert_eq!(stats["variant"], "classic");
    assert_eq!(stats["board"], "4x4");
    assert_eq!(stats["neutrals"], 2);
    assert_eq!(stats["positions"], 18_368);
    assert_eq!(stats["classes"], 2_296);
    assert_eq!(
        [&stats["won"], &stats["lost"], &stats["drawn"]],
        [8_048, 232, 10_088]
    );
    assert_eq!(
        [
            &stats["won_classes"],
            &stats["lost_classes"],
            &stats["drawn_classes"]
        ],
        [1_006, 29, 1_261]
    );
    assert_eq!(stats["terminal"], 120);
    assert_eq!(stats["max_moves"], 221);
    assert_eq!(stats["longest_win_plies"], 9);
    assert_eq!(stats["start_value"], "draw");
    assert_eq!(stats["start_moves"], 65);
    assert!(stats["solve_ms"].is_number(), "{stats}");

    // Every figure, the examples and the distance table included, is the library's.
    assert_eq!(
        without_solve_ms(stats),
        library_statistics(&Rules::classic())
    );
}

#[test]
fn solve_text_groups_digits_and_names_the_counts_and_the_longest_win() {
    let text = LGAME.ok(&["solve"]);
    for needle in ["18,368", "2,296", "8,048 / 232 / 10,088", "221", "9 plies"] {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
    let line = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} line in\n{text}"))
            .to_string()
    };
    assert_eq!(
        line("Variant:"),
        "Variant:        classic (4x4 board, 2 neutrals)"
    );
    assert_eq!(
        line("Positions:"),
        "Positions:      18,368 (2,296 up to symmetry)"
    );
    assert_eq!(
        line("Won/lost/drawn:"),
        "Won/lost/drawn: 8,048 / 232 / 10,088 (classes 1,006 / 29 / 1,261)"
    );
    assert_eq!(
        line("Game over:"),
        "Game over:      120 positions (120 trapped)"
    );
    assert!(line("Longest win:").starts_with("Longest win:    9 plies, e.g. "));
    assert!(line("Most moves:").starts_with("Most moves:     221, e.g. "));
    assert_eq!(line("Moves in all:"), "Moves in all:   1,632,800");
    assert_eq!(
        line("Start:"),
        "Start:          NRR./.RB./.RB./.BBN r: draw, 65 legal moves"
    );
    assert!(line("Solved in:").ends_with(" ms"));
}

#[test]
fn solve_json_misere_and_sudden_death_equal_the_library_statistics() {
    let classic = library_statistics(&Rules::classic());
    for variant in ["misere", "sudden-death"] {
        let rules: Rules = variant.parse().expect("a variant");
        let stats = json(&LGAME.ok(&["--variant", variant, "solve", "--json"]));
        for key in SOLVE_KEYS {
            assert!(stats.get(key).is_some(), "{variant}: no {key} in {stats}");
        }
        assert_eq!(stats["variant"], variant);
        let stats = without_solve_ms(stats);
        assert_eq!(stats, library_statistics(&rules), "{variant}");
        // The variant really was applied: its figures are not classic's.
        assert_ne!(stats["won"], classic["won"], "{variant}");
    }
}

#[test]
fn solve_max_memory_below_the_estimate_exits_2_saying_what_is_needed_and_the_limit() {
    let scratch = Scratch::new("max-memory");
    let out = scratch.path("never.tb");
    let e = estimate(&StateIndex::new(&Rules::classic()));
    let err = LGAME.fails(&["solve", "--max-memory", "1K", "--out", utf8(&out)], 2);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: solving needs about {} for {} states, more than the limit of 1 kB \
             (raise --max-memory to allow it)",
            human_bytes(e.peak_bytes),
            e.states
        )
    );
    assert!(
        err.contains("184 kB") && err.contains("18368 states"),
        "{err}"
    );
    assert!(scratch.listing().is_empty(), "{:?}", scratch.listing());

    // analyze solves too, under the same limit.
    let err = LGAME.fails(&["analyze", "--max-memory", "1K", "start"], 2);
    assert!(err.contains("more than the limit of 1 kB"), "{err}");

    // The limit is the estimate: exactly enough is allowed, a byte less is not.
    let exact = e.peak_bytes.to_string();
    let json_stats = json(&LGAME.ok(&["solve", "--json", "--max-memory", &exact]));
    assert_eq!(json_stats["positions"], 18_368);
    let less = (e.peak_bytes - 1).to_string();
    let err = LGAME.fails(&["solve", "--max-memory", &less], 2);
    assert!(err.contains("more than the limit"), "{err}");
}

#[test]
fn solve_reports_the_space_the_memory_it_needs_and_after_the_time_and_memory_used() {
    let rules: Rules = "scoring".parse().expect("a variant");
    let e = estimate(&StateIndex::new(&rules));
    let text = LGAME.ok(&["--variant", "scoring", "solve", "--memory-limit", "1G"]);
    let lines: Vec<&str> = text.lines().collect();
    // The space and the estimate come first, before the solve's figures.
    assert_eq!(
        lines[0],
        format!(
            "Space:          1,836,800 states, about {} of memory to solve (limit 1.0 GB)",
            human_bytes(e.peak_bytes)
        )
    );
    assert_eq!(
        e.states, 1_836_800,
        "positions plus the trapped movers' indices"
    );
    let line = |label: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} line in\n{text}"))
    };
    assert_eq!(line("Positions:").split(' ').nth(6), Some("1,824,800"));
    let ms: f64 = line("Solved in:")["Solved in:".len()..]
        .trim()
        .trim_end_matches(" ms")
        .parse()
        .expect("a time in ms");
    assert!(ms > 0.0, "{ms}");
    let used = line("Memory used:");
    assert!(
        used.contains(" MB at the peak (the whole process; estimated "),
        "{used}"
    );
    assert!(used.ends_with(&format!("{} for the solve)", human_bytes(e.peak_bytes))));

    // The same figures in JSON; without an option the limit is the memory available.
    let stats = json(&LGAME.ok(&["solve", "--json"]));
    assert_eq!(stats["states"], 18_368);
    let classic = estimate(&StateIndex::new(&Rules::classic()));
    assert_eq!(stats["memory_estimate_bytes"], classic.peak_bytes);
    let peak = stats["peak_memory_bytes"].as_u64().expect("a peak");
    let limit = stats["memory_limit_bytes"].as_u64().expect("a limit");
    assert!(peak > 100_000 && peak < limit, "{peak} {limit}");
}

#[test]
fn solve_refuses_a_space_larger_than_the_memory_limit_or_the_memory_available() {
    let err = LGAME.fails(&["solve", "--memory-limit", "100K"], 2);
    assert!(
        err.contains("needs about 184 kB for 18368 states, more than the limit of 100 kB"),
        "{err}"
    );
    // 8×8 with six neutrals: about three trillion states, more than any machine here has.
    let rules: Rules = "board=8x8,neutrals=6".parse().expect("a variant");
    let e = estimate(&StateIndex::new(&rules));
    let err = LGAME.fails(&["--variant", "board=8x8,neutrals=6", "solve"], 2);
    let expected = format!(
        "error: solving board=8x8,neutrals=6 needs about {} for {} states, ",
        human_bytes(e.peak_bytes),
        lgame_solver::grouped(e.states)
    );
    assert!(err.starts_with(&expected), "{err}");
    assert!(
        err.trim_end()
            .ends_with(" GB available (MemAvailable; set --memory-limit to try anyway)"),
        "{err}"
    );
}

#[test]
fn solve_max_memory_that_is_not_a_size_is_a_usage_error_naming_it() {
    for command in [&["solve"][..], &["analyze", "start"][..]] {
        let mut args = command.to_vec();
        args.extend(["--max-memory", "banana"]);
        let err = LGAME.fails(&args, 2);
        assert!(err.contains("'banana'"), "{err}");
        assert!(err.contains("--max-memory"), "{err}");
        assert!(err.contains("not a memory size"), "{err}");
    }
}

// ---------------------------------------------------------------------------------------
// lgame solve --out and lgame analyze --tablebase

#[test]
fn solve_out_writes_a_tablebase_the_library_reads_back_as_a_fresh_solve() {
    let scratch = Scratch::new("out");
    let path = solve_out(&scratch, "classic.tb");
    // Nothing but the table: no `.partial` (nor any other temporary) is left beside it.
    assert_eq!(scratch.listing(), ["classic.tb"]);

    let bytes = std::fs::read(&path).expect("the tablebase exists");
    let read = file::read(bytes.as_slice()).expect("the library reads the file");
    let fresh = classic();
    assert_eq!(read.rules(), &Rules::classic());
    assert_eq!(read.index().len(), fresh.index().len());
    for i in 0..fresh.index().len() {
        assert_eq!(read.value_at(i), fresh.value_at(i), "index {i}");
    }
    assert_eq!(
        bytes,
        file::to_bytes(fresh),
        "the file is the library's format"
    );
    assert_eq!(
        file::read_expecting(bytes.as_slice(), &Rules::classic())
            .expect("classic")
            .index()
            .len(),
        18_368
    );

    // --json with --out writes the same file.
    let again = scratch.path("again.tb");
    json(&LGAME.ok(&["solve", "--json", "--out", utf8(&again)]));
    assert_eq!(std::fs::read(&again).expect("written"), bytes);
    assert_eq!(scratch.listing(), ["again.tb", "classic.tb"]);
}

#[test]
fn analyze_with_tablebase_prints_the_same_as_without() {
    let scratch = Scratch::new("analyze-tb");
    let path = solve_out(&scratch, "classic.tb");
    for position in probe_positions() {
        let text = position.to_string();
        let solved = LGAME.ok(&["analyze", "--json", &text]);
        let loaded = LGAME.ok(&["analyze", "--tablebase", utf8(&path), "--json", &text]);
        assert_eq!(loaded, solved, "{text}");
    }
    // The text form too.
    assert_eq!(
        LGAME.ok(&["analyze", "--tablebase", utf8(&path), BLUE_TO_TRAP]),
        LGAME.ok(&["analyze", BLUE_TO_TRAP])
    );
}

#[test]
fn analyze_with_a_damaged_or_foreign_tablebase_exits_2_naming_the_problem() {
    let scratch = Scratch::new("damaged");
    let good = solve_out(&scratch, "classic.tb");
    let bytes = std::fs::read(&good).expect("written");

    let truncated = scratch.path("truncated.tb");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("written");
    let err = LGAME.fails(&["analyze", "--tablebase", utf8(&truncated), "start"], 2);
    assert!(err.contains("truncated"), "{err}");
    assert!(err.contains(utf8(&truncated)), "{err}");
    assert!(
        err.contains(&format!(
            "{} bytes, expected {}",
            bytes.len() / 2,
            bytes.len()
        )),
        "{err}"
    );

    let flipped = scratch.path("flipped.tb");
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 0x04; // a bit in the values
    std::fs::write(&flipped, &damaged).expect("written");
    let err = LGAME.fails(&["analyze", "--tablebase", utf8(&flipped), "start"], 2);
    assert!(err.contains("corrupted"), "{err}");
    assert!(err.contains(utf8(&flipped)), "{err}");

    let longer = scratch.path("longer.tb");
    std::fs::write(&longer, [&bytes[..], b"!"].concat()).expect("written");
    let err = LGAME.fails(&["analyze", "--tablebase", utf8(&longer), "start"], 2);
    assert!(err.contains("1 unexpected bytes at the end"), "{err}");

    let err = LGAME.fails(
        &[
            "--variant",
            "misere",
            "analyze",
            "--tablebase",
            utf8(&good),
            "start",
        ],
        2,
    );
    assert!(err.contains("is for classic, not misere"), "{err}");

    let missing = scratch.path("missing.tb");
    let err = LGAME.fails(&["analyze", "--tablebase", utf8(&missing), "start"], 2);
    assert!(
        err.contains("opening tablebase") && err.contains("missing.tb"),
        "{err}"
    );

    let empty = scratch.path("empty.tb");
    std::fs::write(&empty, b"").expect("written");
    let err = LGAME.fails(&["analyze", "--tablebase", utf8(&empty), "start"], 2);
    assert!(err.contains("truncated"), "{err}");

    let svg = scratch.path("picture.svg");
    std::fs::write(
        &svg,
        lgame::diagram::svg(&Rules::classic().start_position(), None),
    )
    .expect("written");
    let err = LGAME.fails(&["analyze", "--tablebase", utf8(&svg), "start"], 2);
    assert!(err.contains("not an lgame tablebase"), "{err}");

    // The good file is untouched by all this and still answers.
    let analysis = json(&LGAME.ok(&["analyze", "--tablebase", utf8(&good), "--json", RED_TRAPPED]));
    assert_eq!(analysis["value"], "loss");
}

#[test]
fn solve_out_leaves_a_neighbouring_partial_file_alone() {
    let scratch = Scratch::new("partial-neighbour");
    let mine = scratch.path("game.partial");
    std::fs::write(&mine, "my notes\n").expect("written");
    solve_out(&scratch, "game.tb");
    assert_eq!(
        std::fs::read_to_string(&mine).ok().as_deref(),
        Some("my notes\n"),
        "game.partial was clobbered; left: {:?}",
        scratch.listing()
    );
}

// ---------------------------------------------------------------------------------------
// lgame analyze

#[test]
fn analyze_json_has_every_key_and_moves_best_first_led_by_the_positions_value() {
    for position in probe_positions() {
        let text = position.to_string();
        let a = json(&LGAME.ok(&["analyze", "--json", &text]));
        let object = a.as_object().expect("an object");
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "legal_moves",
                "moves",
                "plies",
                "position",
                "value",
                "variant"
            ],
            "{a}"
        );
        assert_eq!(a["position"], text);
        assert_eq!(a["variant"], "classic");
        let moves = a["moves"].as_array().expect("a list of moves");
        assert_eq!(a["legal_moves"], moves.len());
        assert_eq!(moves.len(), position.legal_moves().len(), "{text}");

        let mut keys_in_order = Vec::new();
        for m in moves {
            let object = m.as_object().expect("a move object");
            let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["move", "plies", "position", "value"], "{m}");
            // Each move replays to its position.
            let mv: Move = m["move"].as_str().expect("text").parse().expect("a move");
            assert_eq!(
                position.play(&mv).expect("legal").to_string(),
                m["position"].as_str().expect("text"),
                "{text}: {m}"
            );
            keys_in_order.push(sort_key(
                m["value"].as_str().expect("text"),
                plies_of(&m["plies"]),
            ));
        }
        assert!(
            keys_in_order.windows(2).all(|w| w[0] <= w[1]),
            "{text}: moves not best first: {keys_in_order:?}"
        );
        if let Some(best) = moves.first() {
            assert_eq!(best["value"], a["value"], "{text}");
            assert_eq!(best["plies"], a["plies"], "{text}");
        }
        // The value is the library's, with plies null exactly for a draw.
        sort_key(a["value"].as_str().expect("text"), plies_of(&a["plies"]));
        let value = classic().value(&position).expect("classic");
        assert_eq!(a["value"], value.wdl().name(), "{text}");
        assert_eq!(
            plies_of(&a["plies"]),
            value.plies().map(u64::from),
            "{text}"
        );
    }
}

#[test]
fn analyze_trapped_red_is_lost_at_once_and_blue_to_move_wins_in_one() {
    let lost = json(&LGAME.ok(&["analyze", "--json", RED_TRAPPED]));
    assert_eq!(lost["position"], RED_TRAPPED);
    assert_eq!(lost["value"], "loss");
    assert_eq!(lost["plies"], 0);
    assert_eq!(lost["legal_moves"], 0);
    assert_eq!(lost["moves"], serde_json::json!([]));

    let won = json(&LGAME.ok(&["analyze", "--json", BLUE_TO_TRAP]));
    assert_eq!(won["position"], BLUE_TO_TRAP);
    assert_eq!(won["value"], "win");
    assert_eq!(won["plies"], 1);
    assert_eq!(won["legal_moves"], 221);
    let first = &won["moves"][0];
    assert_eq!(first["value"], "win");
    assert_eq!(first["plies"], 1);
    // The winning move leaves Red trapped, lost at once.
    let after = first["position"].as_str().expect("text");
    let after = json(&LGAME.ok(&["analyze", "--json", after]));
    assert_eq!(after["value"], "loss");
    assert_eq!(after["plies"], 0);

    // The text form says the same.
    let text = LGAME.ok(&["analyze", RED_TRAPPED]);
    assert!(
        text.contains("Value: loss in 0 for Red (0 legal moves)"),
        "{text}"
    );
    let text = LGAME.ok(&["analyze", BLUE_TO_TRAP]);
    assert!(
        text.contains("Value: win in 1 for Blue (221 legal moves)"),
        "{text}"
    );
}

#[test]
fn analyze_every_move_value_equals_the_library() {
    let tb = classic();
    for position in probe_positions() {
        let text = position.to_string();
        let a = json(&LGAME.ok(&["analyze", "--json", &text]));
        let expected: Vec<Json> = tb
            .moves(&position)
            .expect("classic")
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": m.mv.to_string(),
                    "position": m.position.to_string(),
                    "value": m.value.wdl().name(),
                    "plies": m.value.plies(),
                })
            })
            .collect();
        assert_eq!(a["moves"], Json::Array(expected), "{text}");
        // And the whole analysis is the library's.
        assert_eq!(
            a,
            serde_json::to_value(tb.analyze(&position).expect("classic")).expect("serialises"),
            "{text}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// lgame analyze - (a batch on standard input)

#[test]
fn analyze_batch_prints_one_line_per_input_line_as_single_analyze_and_errors_inline() {
    let classic_rules = Rules::classic();
    let misere: Rules = "misere".parse().expect("misere");
    let positions = random_positions(&classic_rules, 22, 0x0123_4567_89ab_cdef);

    // (input line, the single command's variant, its position argument); None: a bad line.
    let mut lines: Vec<(String, Option<(&str, String)>)> = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        // Both notations, with stray spaces around some.
        let text = if i % 5 == 3 {
            p.to_cell_list_string()
        } else {
            p.to_string()
        };
        let line = if i % 4 == 1 {
            format!("  {text}\t")
        } else {
            text.clone()
        };
        lines.push((line, Some(("classic", text))));
        if i == 6 {
            lines.push((String::new(), None));
            lines.push(("   ".into(), None));
        }
    }
    let misere_position = random_positions(&misere, 3, 7)[2].to_string();
    lines.insert(
        4,
        (
            format!("[misere] {misere_position}"),
            Some(("misere", misere_position.clone())),
        ),
    );
    lines.insert(
        9,
        (
            "[misere] start".into(),
            Some(("misere", "start".to_string())),
        ),
    );
    lines.insert(12, ("NRR./.RB./.RB./.BBX r".into(), None));
    lines.insert(17, ("[bogus] start".into(), None));
    lines.push((
        "NRR./.RB./.RB./.BBN r".into(),
        Some(("classic", "start".into())),
    ));

    let input: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    let out = LGAME.run_with_stdin(&["analyze", "-"], input.as_bytes());
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(2), "a line failed: {err}");
    assert_eq!(
        err.trim_end(),
        "error: some lines could not be analysed (see their \"error\")"
    );

    let printed = stdout(&out);
    let printed: Vec<&str> = printed.lines().collect();
    let non_blank: Vec<&(String, Option<(&str, String)>)> =
        lines.iter().filter(|(l, _)| !l.trim().is_empty()).collect();
    assert_eq!(printed.len(), non_blank.len(), "{printed:#?}");
    assert!(non_blank.len() >= 25);

    for ((line, single), got) in non_blank.iter().zip(&printed) {
        match single {
            Some((variant, position)) => {
                let alone = LGAME.ok(&["--variant", variant, "analyze", "--json", position]);
                assert_eq!(*got, alone.trim_end(), "line {line:?}");
            }
            None => {
                let got = json(got);
                let object = got.as_object().expect("an object");
                let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
                keys.sort_unstable();
                assert_eq!(keys, ["error", "position"], "{got}");
                assert_eq!(got["position"], line.trim());
                let error = got["error"].as_str().expect("text");
                if line.starts_with("[bogus]") {
                    assert!(error.contains("variant 'bogus'"), "{error}");
                    assert!(error.contains("unknown rule option"), "{error}");
                } else {
                    assert!(
                        error.contains("position 'NRR./.RB./.RB./.BBX r'"),
                        "{error}"
                    );
                    assert!(error.contains("unexpected 'X' at D1"), "{error}");
                }
            }
        }
    }
    // The misère lines were analysed under misère, the others under classic.
    assert_eq!(json(printed[4])["variant"], "misere");
    assert_eq!(json(printed[0])["variant"], "classic");
}

#[test]
fn analyze_batch_with_only_good_lines_exits_0_with_the_librarys_analyses() {
    let rules = Rules::classic();
    let positions = random_positions(&rules, 20, 0xfeed_f00d_0000_0001);
    let mut input: String = positions.iter().map(|p| format!("{p}\n\n")).collect();
    input.push_str(&format!("[misere] {RED_TRAPPED}\n"));
    let out = LGAME.run_with_stdin(&["analyze", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let printed = stdout(&out);
    let printed: Vec<Json> = printed.lines().map(json).collect();
    assert_eq!(printed.len(), 21);
    for (p, got) in positions.iter().zip(&printed) {
        let expected = serde_json::to_value(classic().analyze(p).expect("classic"));
        assert_eq!(got, &expected.expect("serialises"), "{p}");
    }
    // Under misère the trapped player has won.
    let last = &printed[20];
    assert_eq!(last["variant"], "misere");
    assert_eq!(last["value"], "win");
    assert_eq!(last["plies"], 0);

    // An empty batch prints nothing and succeeds.
    let out = LGAME.run_with_stdin(&["analyze", "-"], b"\n  \n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn analyze_batch_line_that_is_not_utf8_is_reported_as_bad_input_and_the_batch_goes_on() {
    let out = LGAME.run_with_stdin(&["analyze", "-"], b"start\n\xff\xfe start\nstart\n");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("writing the output"), "{err}");
    assert_eq!(
        out.status.code(),
        Some(2),
        "unreadable input exits 2: {err}"
    );
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let printed: Vec<Json> = printed.lines().map(json).collect();
    assert_eq!(printed.len(), 3, "one line per input line: {printed:?}");
    assert!(printed[1]["error"].is_string(), "{}", printed[1]);
    assert_eq!(printed[2]["position"], "NRR./.RB./.RB./.BBN r");
}

// ---------------------------------------------------------------------------------------
// lgame render

#[test]
fn render_prints_the_library_svg_titled_with_the_position() {
    let rules = Rules::classic();
    let position = Position::from_text(BLUE_TO_TRAP, &rules).expect("a position");
    let svg = LGAME.ok(&["render", BLUE_TO_TRAP]);
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("</svg>"), "{svg}");
    assert!(
        svg.contains(&format!(
            "<title>L game position {BLUE_TO_TRAP}: Blue to move</title>"
        )),
        "{svg}"
    );
    assert_eq!(svg, lgame::diagram::svg(&position, None));

    // Without a position: the variant's start.
    let start = LGAME.ok(&["render"]);
    assert!(start.contains("<title>L game position NRR./.RB./.RB./.BBN r: Red to move</title>"));
    assert_eq!(start, lgame::diagram::svg(&rules.start_position(), None));

    // A finished game says so in the title.
    let over = LGAME.ok(&["render", RED_TRAPPED]);
    assert!(
        over.contains(&format!(
            "<title>L game position {RED_TRAPPED}: Game over: "
        )),
        "{over}"
    );
}

#[test]
fn render_highlight_marks_the_move_exactly_as_the_library() {
    let start = Rules::classic().start_position();
    for text in ["A1,A2,A3,B3 D1-D2", "A1,A2,A3,B3"] {
        let mv: Move = text.parse().expect("a move");
        let svg = LGAME.ok(&["render", "--highlight", text, "start"]);
        assert_eq!(svg, lgame::diagram::svg(&start, Some(&mv)), "{text}");
        assert_ne!(svg, lgame::diagram::svg(&start, None), "{text}");
        assert!(svg.contains("class=\"highlight\""), "{text}");
        assert_eq!(
            svg.contains("class=\"arrow\""),
            text.contains('-'),
            "an arrow exactly for a neutral move: {text}"
        );
    }
}

#[test]
fn render_out_writes_the_same_bytes_to_the_file() {
    let scratch = Scratch::new("render");
    let path = scratch.path("board.svg");
    let args = ["render", "--highlight", "A1,A2,A3,B3 D1-D2", BLUE_TO_TRAP];
    let printed = LGAME.ok(&args);
    let mut with_out = args.to_vec();
    with_out.extend(["--out", utf8(&path)]);
    assert_eq!(LGAME.ok(&with_out), "", "nothing on stdout with --out");
    assert_eq!(
        std::fs::read(&path).expect("the SVG is written"),
        printed.as_bytes()
    );
    assert_eq!(scratch.listing(), ["board.svg"]);
}

#[test]
fn render_malformed_highlight_exits_2_naming_the_token() {
    let scratch = Scratch::new("render-bad");
    let path = scratch.path("never.svg");
    let err = LGAME.fails(
        &["render", "--highlight", "A1,A2,Q9", "--out", utf8(&path)],
        2,
    );
    assert!(err.contains("'A1,A2,Q9'") && err.contains("'Q9'"), "{err}");
    assert!(err.contains("not a cell name"), "{err}");
    assert!(scratch.listing().is_empty(), "no file on failure");

    let err = LGAME.fails(&["render", "--highlight", "A1,A2,A3,B3 D1-"], 2);
    assert!(err.contains("'D1-' is not a neutral move"), "{err}");

    let err = LGAME.fails(&["render", "NRR./.RB./.RB./.BBX r"], 2);
    assert!(err.contains("unexpected 'X' at D1"), "{err}");
}

// ---------------------------------------------------------------------------------------
// Failures

#[test]
fn failing_solver_commands_never_panic_and_exit_with_their_code() {
    let scratch = Scratch::new("failures");
    let not_a_table = scratch.path("not-a-table.tb");
    std::fs::write(&not_a_table, b"LGAMETB\0\x01\0\0\0\xff\xffclassic").expect("written");
    let dir = utf8(&scratch.0).to_string();
    let missing_dir_file = scratch.path("no/such/dir/x.tb");
    let cases: &[(&[&str], i32, &str)] = &[
        (&["solve", "--max-memory", "0"], 2, "more than the limit"),
        (&["solve", "--max-memory", "1K"], 2, "more than the limit"),
        (&["solve", "--max-memory", "banana"], 2, "'banana'"),
        (&["solve", "--max-memory", ""], 2, "not a memory size"),
        (&["--variant", "bogus", "solve"], 2, "variant 'bogus'"),
        (
            &["solve", "--out", utf8(&missing_dir_file)],
            1,
            "writing tablebase",
        ),
        (&["analyze", "NRR./.RB./.RB./.BBX r"], 2, "unexpected 'X'"),
        (&["analyze", "--json", ""], 2, "position ''"),
        (
            &["analyze", "--variant", "board=5x5", "NRR./.RB./.RB./.BBN r"],
            2,
            "board",
        ),
        (&["analyze", "--tablebase", &dir, "start"], 2, "tablebase"),
        (
            &["analyze", "--tablebase", utf8(&not_a_table), "start"],
            2,
            "tablebase",
        ),
        (&["analyze"], 2, "POSITION"),
        (&["render", "--highlight", "", "start"], 2, "empty move"),
        (&["render", "--highlight", "Q9,Q8,Q7,P7"], 2, "'Q9'"),
        (&["render", "xyz"], 2, "position 'xyz'"),
    ];
    for (args, code, needle) in cases {
        let err = LGAME.fails(args, *code);
        assert!(err.contains(needle), "lgame {args:?}: {err}");
    }

    // A failing batch: errors inline on stdout, still no panic.
    let out = LGAME.run_with_stdin(&["analyze", "-"], b"xyz\n[\n[]\n[misere\n]\n");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
    let printed = stdout(&out);
    assert_eq!(printed.lines().count(), 5, "{printed}");
    for line in printed.lines() {
        assert!(json(line)["error"].is_string(), "{line}");
    }
}
