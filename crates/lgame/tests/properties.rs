//! Property tests of the rules library: random variants, random legal positions (reached by
//! random play from the start, or drawn from `all_positions`), random moves, legal or not.
//!
//! Each property is one proptest named after the invariant it checks. Failing cases print
//! the position as `"<position text>" under "<rules text>"`, which `Position::from_text`
//! reads back, so a failure can be turned into a plain unit test at once. Set
//! `PROPTEST_CASES` for a longer run than the default case counts.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use lgame::game::{DrawRules, GameError, GameResult, ResultToken, Termination};
use lgame::position::all_positions;
use lgame::rules::StartSetup;
use lgame::{Bitboard, ByColor, Color, Game, Move, Position, Record, Rules, Square};
use proptest::prelude::*;
use proptest::sample::Index;

// ---------------------------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------------------------

/// The variants the properties are checked under: every option of rules.md alone, and the
/// combinations that interact (scoring with symmetry, low targets so that games reach them,
/// sudden death with one, three and four neutrals, many neutrals, other boards, other
/// setups).
const VARIANTS: &[&str] = &[
    "classic",
    "misere",
    "sudden-death",
    "neutral-required",
    "symmetry",
    "scoring",
    "scoring,symmetry",
    "scoring,target=3",
    "scoring,symmetry,target=2",
    "neutrals=0",
    "neutrals=1",
    "neutrals=3",
    "board=5x5",
    "board=6x4",
    "board=4x5",
    "misere,neutrals=1",
    "sudden-death,neutrals=1",
    "sudden-death,neutrals=3",
    "neutral-required,neutrals=1",
    "neutral-required,symmetry",
    "misere,symmetry",
    "sudden-death,symmetry",
    "board=5x5,neutrals=3",
    "board=6x4,symmetry",
    "board=5x4,scoring,target=5",
    "setup=kit",
    "setup=corners",
    "setup=kit,scoring,symmetry",
    "scoring,target=1",
    "neutrals=6",
    "sudden-death,neutrals=4",
    "board=8x8",
    "board=7x4,neutrals=5",
];

fn rules_of(text: &str) -> Rules {
    text.parse()
        .unwrap_or_else(|e| panic!("variant {text:?} does not parse: {e}"))
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(VARIANTS).prop_map(rules_of)
}

/// The variants on the 4×4 board, whose whole position space is small enough to index.
fn arb_rules_4x4() -> impl Strategy<Value = Rules> {
    let small: Vec<&'static str> = VARIANTS
        .iter()
        .copied()
        .filter(|text| rules_of(text).board().cell_count() == 16)
        .collect();
    prop::sample::select(small).prop_map(rules_of)
}

/// `all_positions` of the rules, computed once per variant.
fn positions_of(rules: &Rules) -> Arc<Vec<Position>> {
    static CACHE: OnceLock<Mutex<HashMap<Rules, Arc<Vec<Position>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache
        .entry(*rules)
        .or_insert_with(|| Arc::new(all_positions(rules)))
        .clone()
}

// ---------------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------------

/// A position, shown in failure reports as text that reproduces it.
#[derive(Clone, Copy)]
struct Pos(Position);

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} under {:?}",
            self.0.to_string(),
            self.0.rules().to_string()
        )
    }
}

/// Plays the moves picked by `choices` from `start`, stopping at the end of the game.
fn walk(start: Position, choices: &[Index]) -> Position {
    let mut p = start;
    for choice in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p = p.play_unchecked(&moves[choice.index(moves.len())]);
    }
    p
}

/// A position reached by 0–30 random legal moves from the start of a random variant.
fn arb_walked_position() -> impl Strategy<Value = Pos> {
    (arb_rules(), prop::collection::vec(any::<Index>(), 0..=30))
        .prop_map(|(rules, choices)| Pos(walk(rules.start_position(), &choices)))
}

/// Any arrangement of a 4×4 variant (finished ones included), with random scores under
/// scoring, either side to move (Blue by the setup or by playing a reply).
fn arb_arranged_position() -> impl Strategy<Value = Pos> {
    (
        arb_rules_4x4(),
        any::<Index>(),
        (any::<u8>(), any::<u8>()),
        any::<bool>(),
        prop::option::of(any::<Index>()),
    )
        .prop_map(|(rules, index, (red, blue), blue_to_move, reply)| {
            let all = positions_of(&rules);
            let mut p = all[index.index(all.len())];
            let mut setup = p.to_setup();
            if let Some(target) = rules.scoring_target() {
                let bound = target + 5;
                setup.scores = Some(ByColor {
                    red: red % bound,
                    blue: blue % bound,
                });
            }
            if blue_to_move {
                setup.turn = Color::Blue;
            }
            if let Ok(q) = Position::from_setup(setup, &rules) {
                p = q;
            }
            if let Some(reply) = reply {
                p = walk(p, &[reply]);
            }
            Pos(p)
        })
}

fn arb_position() -> impl Strategy<Value = Pos> {
    prop_oneof![
        3 => arb_walked_position(),
        2 => arb_arranged_position(),
    ]
}

// ---------------------------------------------------------------------------------------------
// Moves, legal or not
// ---------------------------------------------------------------------------------------------

/// A recipe for a move that may or may not be legal in a position.
#[derive(Debug, Clone)]
enum MoveSpec {
    /// One of the board's L placements, with neutral moves between board cells.
    Placement {
        l: Index,
        neutrals: Vec<(Index, Index)>,
    },
    /// Any four (or fewer) cells of the 8×8 grid, off the board too, with any neutral moves.
    Cells {
        cells: Vec<u8>,
        neutrals: Vec<(u8, u8)>,
    },
    /// A legal move's L with other neutral moves between board cells.
    LegalL {
        pick: Index,
        neutrals: Vec<(Index, Index)>,
    },
    /// The mover's own placement (never legal), with neutral moves.
    Unchanged { neutrals: Vec<(Index, Index)> },
}

fn arb_move_spec() -> impl Strategy<Value = MoveSpec> {
    let board_pairs = || prop::collection::vec((any::<Index>(), any::<Index>()), 0..=3);
    prop_oneof![
        4 => (any::<Index>(), board_pairs())
            .prop_map(|(l, neutrals)| MoveSpec::Placement { l, neutrals }),
        1 => (
            prop::collection::vec(0u8..64, 3..=5),
            prop::collection::vec((0u8..64, 0u8..64), 0..=2),
        )
            .prop_map(|(cells, neutrals)| MoveSpec::Cells { cells, neutrals }),
        3 => (any::<Index>(), board_pairs())
            .prop_map(|(pick, neutrals)| MoveSpec::LegalL { pick, neutrals }),
        1 => board_pairs().prop_map(|neutrals| MoveSpec::Unchanged { neutrals }),
    ]
}

fn square(index: u8) -> Square {
    Square::from_index(index).expect("below 64")
}

/// The move a spec names in `p` (a spec whose neutral moves are malformed, which
/// `Move::new` refuses, names the bare L move).
fn build_move(p: &Position, spec: &MoveSpec) -> Move {
    let board_cells: Vec<Square> = p.board().mask().into_iter().collect();
    let on_board = |pairs: &[(Index, Index)]| -> Vec<(Square, Square)> {
        pairs
            .iter()
            .map(|(a, b)| {
                (
                    board_cells[a.index(board_cells.len())],
                    board_cells[b.index(board_cells.len())],
                )
            })
            .collect()
    };
    let with = |l: Bitboard, pairs: &[(Square, Square)]| {
        Move::new(l, pairs).unwrap_or_else(|_| Move::l_only(l))
    };
    match spec {
        MoveSpec::Placement { l, neutrals } => {
            let placements = p.board().geometry().placements();
            with(placements[l.index(placements.len())], &on_board(neutrals))
        }
        MoveSpec::Cells { cells, neutrals } => {
            let l: Bitboard = cells.iter().map(|&i| square(i)).collect();
            let pairs: Vec<(Square, Square)> = neutrals
                .iter()
                .map(|&(a, b)| (square(a), square(b)))
                .collect();
            with(l, &pairs)
        }
        MoveSpec::LegalL { pick, neutrals } => {
            let legal = p.legal_moves();
            let l = if legal.is_empty() {
                p.l(p.turn())
            } else {
                legal[pick.index(legal.len())].l()
            };
            with(l, &on_board(neutrals))
        }
        MoveSpec::Unchanged { neutrals } => with(p.l(p.turn()), &on_board(neutrals)),
    }
}

/// Every candidate move of property 2: each L placement of the board (the current one and
/// overlapping ones included) with no neutral move, with each single neutral move between
/// two different board cells, and — where the rules allow two neutral moves — with each
/// pair of such moves that `Move::new` accepts.
fn for_each_candidate_move(p: &Position, mut f: impl FnMut(Move)) {
    let cells: Vec<Square> = p.board().mask().into_iter().collect();
    let singles: Vec<(Square, Square)> = cells
        .iter()
        .flat_map(|&a| cells.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a != b)
        .collect();
    let pairs = p.rules().max_neutral_moves() >= 2;
    for &l in p.board().geometry().placements() {
        f(Move::l_only(l));
        for &single in &singles {
            f(Move::new(l, &[single]).expect("a single neutral move is well formed"));
        }
        if pairs {
            // Order within a pair does not change the move, so each unordered pair once.
            for (i, &first) in singles.iter().enumerate() {
                for &second in &singles[i + 1..] {
                    if let Ok(m) = Move::new(l, &[first, second]) {
                        f(m);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Games
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct GameSpec {
    start: Pos,
    /// Start from the rules' own setup rather than from `start`.
    from_rules_setup: bool,
    draw_rules: DrawRules,
    choices: Vec<Index>,
    /// An end declared off the board after the moves (when the game is not over).
    declaration: Option<(Termination, ResultToken)>,
}

fn arb_draw_rules() -> impl Strategy<Value = DrawRules> {
    (
        prop::option::of(1u32..=40),
        prop::option::of(prop_oneof![Just(3u32), 1u32..=4]),
    )
        .prop_map(|(turn_limit, repetition)| DrawRules {
            turn_limit,
            repetition,
        })
}

fn arb_declaration() -> impl Strategy<Value = Option<(Termination, ResultToken)>> {
    let red = ResultToken::Finished(GameResult::RedWins);
    let blue = ResultToken::Finished(GameResult::BlueWins);
    let draw = ResultToken::Finished(GameResult::Draw);
    prop::option::weighted(
        0.4,
        prop::sample::select(vec![
            (Termination::Resignation, red),
            (Termination::Resignation, blue),
            (Termination::Forfeit, blue),
            (Termination::Agreement, draw),
            (Termination::Abandoned, ResultToken::Unfinished),
            (Termination::Abandoned, red),
            (Termination::Time, red),
            (Termination::Aborted, ResultToken::Unfinished),
        ]),
    )
}

fn arb_game_spec() -> impl Strategy<Value = GameSpec> {
    (
        arb_position(),
        any::<bool>(),
        arb_draw_rules(),
        prop::collection::vec(any::<Index>(), 0..=30),
        arb_declaration(),
    )
        .prop_map(
            |(start, from_rules_setup, draw_rules, choices, declaration)| GameSpec {
                start,
                from_rules_setup,
                draw_rules,
                choices,
                declaration,
            },
        )
}

/// The game a spec describes: its start (the given position when it is a possible start,
/// else the rules' setup), then random legal moves until the game ends, then the declared
/// end, if any.
fn build_game(spec: &GameSpec) -> Game {
    let start = spec.start.0;
    let game = if spec.from_rules_setup {
        Game::new(*start.rules())
    } else {
        Game::from_position(start).unwrap_or_else(|_| Game::new(*start.rules()))
    };
    let mut game = game.with_draw_rules(spec.draw_rules);
    for choice in &spec.choices {
        if game.is_over() {
            break;
        }
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice.index(moves.len())];
        if let Err(e) = game.play(&mv) {
            panic!("generated move {mv} refused in {}: {e}", game.position());
        }
    }
    if let Some((termination, result)) = spec.declaration {
        if !game.is_over() {
            game.declare(termination, result)
                .unwrap_or_else(|e| panic!("declaring {termination:?} {result}: {e}"));
        }
    }
    game
}

/// A deterministic shuffle driven by `seed` (xorshift), for the notation tests.
fn shuffle<T>(items: &mut [T], seed: &mut u64) {
    for i in (1..items.len()).rev() {
        let j = (next_random(seed) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

fn next_random(seed: &mut u64) -> u64 {
    // xorshift64; a zero state would stay zero.
    let mut x = *seed | 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *seed = x;
    x
}

/// Each ASCII letter in upper or lower case at random.
fn random_case(text: &str, seed: &mut u64) -> String {
    text.chars()
        .map(|c| {
            if next_random(seed).is_multiple_of(2) {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// `cases` cases, or as many as `PROPTEST_CASES` asks for (for a longer run).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        // Keep failures in the report, not in a regressions file beside this one.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Generated moves are legal and lead to legal positions
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_generated_move_passes_the_legality_check_and_leads_to_a_legal_position(
        pos in arb_position(),
    ) {
        let p = pos.0;
        for m in p.legal_moves() {
            prop_assert_eq!(p.check_move(&m), Ok(()), "generated move {} refused", m);
            let next = p.play(&m);
            prop_assert_eq!(next, Ok(p.play_unchecked(&m)), "play and play_unchecked differ");
            let next = p.play_unchecked(&m);
            prop_assert_eq!(
                Position::from_setup(next.to_setup(), p.rules()),
                Ok(next),
                "{} after {} is not a legal position", next, m
            );
        }
    }
}

/// Under scoring with symmetry, an L move that mirrors the opponent wins at once (no reset),
/// even when it also leaves the opponent trapped: the position it leads to is finished and
/// reads back (found by the properties above, which once saw `from_setup` refuse it as an
/// "unsettled trap"). It takes more than two neutrals to reach (neutrals=4 here).
#[test]
fn a_symmetry_win_that_also_traps_the_opponent_is_a_legal_position_under_scoring() {
    let rules = rules_of("scoring,symmetry,neutrals=4");
    let p = Position::from_text("B.N./BBBN/R..N/RRRN r 0-0", &rules).expect("a legal position");
    let m: Move = "A1,A2,B2,C2".parse().expect("a move");
    let next = p.play(&m).expect("a legal move");
    assert_eq!(next.to_string(), "B.N./BBBN/RRRN/R..N b 1-0");
    assert_eq!(
        next.outcome().map(|o| (o.winner, o.end)),
        Some((Color::Red, lgame::position::End::Symmetry))
    );
    assert!(next.is_trapped(), "Blue is also trapped");
    // Fails: Err(UnsettledTrap { color: Blue }).
    assert_eq!(Position::from_setup(next.to_setup(), &rules), Ok(next));
    assert_eq!(Position::from_text(&next.to_string(), &rules), Ok(next));
}

// ---------------------------------------------------------------------------------------------
// 2. Every legal move is generated
// ---------------------------------------------------------------------------------------------

proptest! {
    // About 10 ms a case (sudden death, with its pairs of neutral moves, takes longest).
    #![proptest_config(config(128))]

    #[test]
    fn every_move_that_passes_the_legality_check_is_generated(pos in arb_position()) {
        let p = pos.0;
        let pairs = p.rules().max_neutral_moves() >= 2;
        let most = if pairs { 2 } else { 1 };
        let generated: HashSet<Move> = p.legal_moves().into_iter().collect();
        let mut accepted: HashSet<Move> = HashSet::new();
        let mut unexpected: Vec<Move> = Vec::new();
        for_each_candidate_move(&p, |m| {
            let legal = p.check_move(&m).is_ok();
            if legal {
                accepted.insert(m);
            }
            if legal != generated.contains(&m) && unexpected.len() < 5 {
                unexpected.push(m);
            }
        });
        prop_assert!(
            unexpected.is_empty(),
            "check_move and legal_moves disagree on {:?}",
            unexpected.iter().map(|m| m.to_string()).collect::<Vec<_>>()
        );
        // The candidates cover every move of up to `most` neutral moves, so the generated
        // moves of that size are exactly the accepted candidates.
        let small: HashSet<Move> = generated
            .iter()
            .copied()
            .filter(|m| m.neutrals_from().count() <= most)
            .collect();
        prop_assert_eq!(small, accepted);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. No move is generated twice
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn no_move_is_generated_twice_and_both_generators_agree(pos in arb_position()) {
        let p = pos.0;
        let moves = p.legal_moves();
        let distinct: HashSet<Move> = moves.iter().copied().collect();
        prop_assert_eq!(distinct.len(), moves.len(), "a move is generated twice");
        let mut visited = Vec::new();
        p.for_each_legal_move(|m| visited.push(m));
        prop_assert_eq!(&visited, &moves);
        // A position has moves exactly when it is not finished.
        prop_assert_eq!(moves.is_empty(), p.outcome().is_some());
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Notation round-trips
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn positions_round_trip_through_both_text_forms(pos in arb_position(), seed in any::<u64>()) {
        let p = pos.0;
        let rules = p.rules();
        let text = p.to_string();
        prop_assert_eq!(Position::from_text(&text, rules), Ok(p), "rows form {}", text);
        let cells = p.to_cell_list_string();
        prop_assert_eq!(Position::from_text(&cells, rules), Ok(p), "cell-list form {}", cells);
        // Input is case-insensitive in cell names and the side to move, and the cells of a
        // group may come in any order.
        let mut seed = seed;
        let mut tokens: Vec<String> = Vec::new();
        for token in cells.split(' ') {
            match token.split_once(':') {
                Some((group, list)) => {
                    let mut names: Vec<&str> = list.split(',').filter(|n| !n.is_empty()).collect();
                    shuffle(&mut names, &mut seed);
                    tokens.push(format!("{group}:{}", random_case(&names.join(","), &mut seed)));
                }
                None => tokens.push(random_case(token, &mut seed)),
            }
        }
        let messy = tokens.join(" ");
        prop_assert_eq!(Position::from_text(&messy, rules), Ok(p), "cell-list form {}", messy);
        let (rows, rest) = text.split_once(' ').expect("rows, then the side");
        let upper_side = format!("{rows} {}", rest.to_ascii_uppercase());
        prop_assert_eq!(Position::from_text(&upper_side, rules), Ok(p), "{}", upper_side);
    }

    #[test]
    fn moves_round_trip_through_their_notation(
        pos in arb_position(),
        spec in arb_move_spec(),
        seed in any::<u64>(),
    ) {
        let p = pos.0;
        let mut moves = p.legal_moves();
        // Any well-formed move, legal or not (`Move::l_only` also builds L sets of other
        // than four cells, which no text names).
        let other = build_move(&p, &spec);
        if other.l().count() == 4 {
            moves.push(other);
        }
        let mut seed = seed;
        for m in moves {
            let text = m.to_string();
            prop_assert_eq!(text.parse::<Move>(), Ok(m), "{}", text);
            // The same move written another way: L cells shuffled, any case, neutral moves
            // in any order and (sudden death) from cells paired with to cells in any order.
            let mut l: Vec<String> = m.l().into_iter().map(|s| s.to_string()).collect();
            shuffle(&mut l, &mut seed);
            let mut from = m.neutrals_from().into_iter().collect::<Vec<_>>();
            let mut to = m.neutrals_to().into_iter().collect::<Vec<_>>();
            shuffle(&mut from, &mut seed);
            shuffle(&mut to, &mut seed);
            let mut written = vec![l.join(",")];
            written.extend(from.iter().zip(&to).map(|(f, t)| format!("{f}-{t}")));
            let spaces = ["  ", " ", "\t"];
            let mut other = String::new();
            for (i, token) in written.iter().enumerate() {
                if i > 0 {
                    other.push_str(spaces[(next_random(&mut seed) % 3) as usize]);
                }
                other.push_str(&random_case(token, &mut seed));
            }
            prop_assert_eq!(other.parse::<Move>(), Ok(m), "{} written as {:?}", text, other);
        }
    }

    #[test]
    fn rules_round_trip_through_their_canonical_text(
        rules in arb_rules(),
        custom in prop::option::of(arb_position()),
        seed in any::<u64>(),
    ) {
        // With a custom starting setup too, when the position may be one.
        let rules = match custom {
            Some(pos) => pos
                .0
                .rules()
                .with_setup(StartSetup::Custom(pos.0.to_setup()))
                .unwrap_or(rules),
            None => rules,
        };
        let text = rules.to_string();
        let parsed: Rules = text.parse().map_err(|e| {
            TestCaseError::fail(format!("{text:?} does not parse: {e}"))
        })?;
        prop_assert_eq!(parsed, rules, "{}", text);
        prop_assert_eq!(parsed.to_string(), text.clone(), "the canonical text is not stable");
        // The options in any order and case read the same.
        let mut seed = seed;
        let mut options: Vec<&str> = text.split(',').collect();
        shuffle(&mut options, &mut seed);
        let messy = random_case(&options.join(","), &mut seed);
        prop_assert_eq!(messy.parse::<Rules>(), Ok(rules), "{} written as {}", text, messy);
    }

    #[test]
    fn records_of_games_round_trip_and_replay_to_the_same_game(spec in arb_game_spec()) {
        let game = build_game(&spec);
        let record = Record::from_game(&game);
        let text = record.to_string();
        let parsed: Record = text.parse().map_err(|e| {
            TestCaseError::fail(format!("record does not parse: {e}\n{text}"))
        })?;
        prop_assert_eq!(&parsed, &record, "{}", text);
        prop_assert_eq!(parsed.to_string(), text.clone());
        let replayed = parsed.replay().map_err(|e| {
            TestCaseError::fail(format!("record does not replay: {e}\n{text}"))
        })?;
        prop_assert_eq!(replayed.moves(), game.moves(), "{}", text);
        prop_assert_eq!(replayed.position(), game.position(), "{}", text);
        prop_assert_eq!(replayed.start(), game.start(), "{}", text);
        prop_assert_eq!(replayed.rules(), game.rules(), "{}", text);
        prop_assert_eq!(replayed.draw_rules(), game.draw_rules(), "{}", text);
        prop_assert_eq!(replayed.conclusion(), game.conclusion(), "{}", text);
        prop_assert_eq!(&replayed, &game, "{}", text);
    }

    #[test]
    fn record_comments_survive_a_round_trip(
        spec in arb_game_spec(),
        comments in prop::collection::vec(
            prop::option::of(prop_oneof!["[ -~]{0,24}", "[ -~é€→\t]{0,24}"]),
            0..=31,
        ),
    ) {
        let game = build_game(&spec);
        let mut record = Record::from_game(&game);
        let mut comments = comments.into_iter();
        record.comment = comments.next().flatten();
        for m in &mut record.moves {
            m.comment = comments.next().flatten();
        }
        let text = record.to_string();
        let parsed: Record = text.parse().map_err(|e| {
            TestCaseError::fail(format!("record does not parse: {e}\n{text}"))
        })?;
        // A comment is read back trimmed, with the one character it cannot hold, '}',
        // written as ')'; a comment left empty is no comment.
        let expected = |c: &Option<String>| -> Option<String> {
            c.as_ref()
                .map(|c| c.replace('}', ")").trim().to_string())
                .filter(|c| !c.is_empty())
        };
        prop_assert_eq!(parsed.comment.clone(), expected(&record.comment), "{}", text);
        prop_assert_eq!(parsed.moves.len(), record.moves.len());
        for (read, written) in parsed.moves.iter().zip(&record.moves) {
            prop_assert_eq!(read.mv, written.mv);
            prop_assert_eq!(read.comment.clone(), expected(&written.comment), "{}", text);
        }
        // Comments that are already in their read-back form survive exactly.
        let mut normal = record.clone();
        normal.comment = expected(&record.comment);
        for m in &mut normal.moves {
            m.comment = expected(&m.comment);
        }
        prop_assert_eq!(normal.to_string().parse::<Record>(), Ok(normal.clone()));
        prop_assert!(parsed.replay().is_ok(), "comments changed the game\n{}", text);
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn record_tags_survive_a_round_trip(
        spec in arb_game_spec(),
        // Any printable text, braces, quotes, backslashes and line breaks included.
        extra in prop::collection::vec(
            ("[A-Z][A-Za-z0-9_]{0,8}", "[ -~\n\r]{0,20}"),
            0..=4,
        ),
    ) {
        let game = build_game(&spec);
        let mut record = Record::from_game(&game);
        for (name, value) in extra {
            if record.tag(&name).is_none() {
                record.set_tag(&name, value);
            }
        }
        let text = record.to_string();
        prop_assert_eq!(text.parse::<Record>(), Ok(record.clone()), "{}", text);
        prop_assert!(record.replay().is_ok(), "unknown tags changed the game\n{}", text);
    }
}

/// A tag value holding `{` is text, not the start of a comment (found by the property above:
/// `Ada {bot}` once read back as `Ada ` plus a comment `bot`).
#[test]
fn record_tag_values_with_a_brace_survive_a_round_trip() {
    let game = Game::new(Rules::classic());
    for value in ["Ada {bot}", "a{b", "two\nlines", "a\\\"{"] {
        let mut record = Record::from_game(&game);
        record.set_tag("Red", value);
        let text = record.to_string();
        assert_eq!(text.parse::<Record>(), Ok(record), "{text}");
    }
}

/// A game may be given a turn limit (or repetition count) of 0, which means no such draw
/// rule; its record replays to the same game.
#[test]
fn records_of_games_with_any_draw_rules_replay() {
    for draw_rules in [
        DrawRules {
            turn_limit: Some(0),
            repetition: None,
        },
        DrawRules {
            turn_limit: None,
            repetition: Some(0),
        },
    ] {
        let game = Game::new(Rules::classic()).with_draw_rules(draw_rules);
        let record = Record::from_game(&game);
        let replayed = record.replay();
        assert_eq!(replayed.as_ref().ok(), Some(&game), "{record}");
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Symmetry
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn every_symmetry_of_the_board_maps_positions_and_moves_consistently(pos in arb_position()) {
        let p = pos.0;
        let rules = p.rules();
        let board = p.board();
        let moves = p.legal_moves();
        let canonical = p.canonical();
        for &s in board.geometry().symmetries() {
            let q = p.transform(s);
            prop_assert_eq!(
                Position::from_setup(q.to_setup(), rules),
                Ok(q),
                "the {:?} image {} is not legal", s, q
            );
            prop_assert_eq!(q.outcome(), p.outcome(), "{:?}", s);
            prop_assert_eq!(q.canonical(), canonical, "{:?}", s);
            let q_moves = q.legal_moves();
            prop_assert_eq!(q_moves.len(), moves.len(), "{:?}: move counts differ", s);
            let images: HashSet<Move> = moves.iter().map(|m| m.transform(board, s)).collect();
            let direct: HashSet<Move> = q_moves.iter().copied().collect();
            prop_assert_eq!(&images, &direct, "{:?}: move sets differ", s);
            // Playing commutes with the symmetry (except the scoring reset, which goes back
            // to the untransformed starting setup).
            for m in &moves {
                let (after, reset) = p.play_reporting_reset(m);
                if !reset {
                    prop_assert_eq!(
                        q.play_unchecked(&m.transform(board, s)),
                        after.transform(s),
                        "{:?} after {}", s, m
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Illegal moves change nothing
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn illegal_moves_are_refused_with_the_same_reason_and_change_nothing(
        spec in arb_game_spec(),
        move_specs in prop::collection::vec(arb_move_spec(), 1..=12),
    ) {
        // A game at a random point, and one started from the random position itself.
        let mut games = vec![build_game(&spec)];
        if let Ok(game) = Game::from_position(spec.start.0) {
            games.push(game);
        }
        for game in &mut games {
            let p = *game.position();
            let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
            for move_spec in &move_specs {
                let m = build_move(&p, move_spec);
                let before = game.clone();
                match p.check_move(&m) {
                    Ok(()) => {
                        prop_assert!(legal.contains(&m), "{} accepted but not generated", m);
                        prop_assert_eq!(p.play(&m), Ok(p.play_unchecked(&m)));
                        let mut copy = game.clone();
                        let played = copy.play(&m).copied();
                        match game.conclusion() {
                            Some(end) => prop_assert_eq!(played, Err(GameError::Over(end))),
                            None => prop_assert_eq!(played, Ok(p.play_unchecked(&m))),
                        }
                    }
                    Err(reason) => {
                        prop_assert!(!legal.contains(&m), "{} refused but generated", m);
                        prop_assert_eq!(p.play(&m), Err(reason.clone()), "{}", m);
                        let refused = game.play(&m).copied();
                        match game.conclusion() {
                            Some(end) => prop_assert_eq!(refused, Err(GameError::Over(end))),
                            None => prop_assert_eq!(refused, Err(GameError::Illegal(reason))),
                        }
                        prop_assert_eq!(&*game, &before, "a refused {} changed the game", m);
                        prop_assert_eq!(game.plies().len(), before.plies().len());
                        prop_assert_eq!(game.position(), before.position());
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Undo and redo
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn undoing_every_move_returns_to_the_start_and_redoing_replays_them(
        spec in arb_game_spec(),
    ) {
        let spec = GameSpec { declaration: None, ..spec };
        let mut game = build_game(&spec);
        let played = game.moves();
        let end = *game.position();
        let conclusion = game.conclusion();
        let start = *game.start();
        let mut undone = Vec::new();
        while let Some(m) = game.undo() {
            undone.push(m);
        }
        undone.reverse();
        prop_assert_eq!(&undone, &played, "undo takes the moves back last first");
        prop_assert_eq!(game.position(), &start);
        prop_assert!(game.plies().is_empty());
        prop_assert_eq!(game.undo(), None);
        let mut redone = Vec::new();
        while let Some(m) = game.redo() {
            redone.push(m);
        }
        prop_assert_eq!(&redone, &played, "redo replays the moves in order");
        prop_assert_eq!(game.position(), &end);
        prop_assert_eq!(game.conclusion(), conclusion);
        prop_assert_eq!(game.moves(), played);
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn replaying_an_undone_move_keeps_the_redo_list_and_another_move_clears_it(
        spec in arb_game_spec(),
        back in any::<Index>(),
        other in any::<Index>(),
    ) {
        let spec = GameSpec { declaration: None, ..spec };
        let mut game = build_game(&spec);
        let played = game.moves();
        prop_assume!(!played.is_empty());
        let end = *game.position();
        let k = 1 + back.index(played.len());
        for _ in 0..k {
            game.undo();
        }
        let resume = played.len() - k;
        prop_assert_eq!(game.plies().len(), resume);
        // Playing the next undone move by hand keeps the rest of the redo list.
        let mut same = game.clone();
        same.play(&played[resume]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        while same.redo().is_some() {}
        prop_assert_eq!(same.position(), &end);
        prop_assert_eq!(same.moves(), played.clone());
        // Playing any other move clears it.
        let alternatives: Vec<Move> = game
            .position()
            .legal_moves()
            .into_iter()
            .filter(|m| *m != played[resume])
            .collect();
        if !alternatives.is_empty() && !game.is_over() {
            let mut branch = game.clone();
            let m = alternatives[other.index(alternatives.len())];
            branch.play(&m).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(branch.redo(), None);
            prop_assert_eq!(branch.moves().len(), resume + 1);
        }
    }
}
