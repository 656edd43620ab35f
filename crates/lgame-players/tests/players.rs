//! The built-in levels: what each one promises, pinned over many seeded positions and games
//! in every variant. Games are kept short (turn limits of 40 plies) so that the file runs in
//! seconds at the test profile's opt-level 1.

use std::sync::{Arc, OnceLock};

use lgame::game::{DrawRules, GameResult};
use lgame::position::all_positions;
use lgame::{Color, Game, Move, Position, Rules};
use lgame_players::{BuiltIn, Level, Player, PlayerSpec, Rng, Tablebases};
use lgame_solver::{Tablebase, Value};

/// One cache for the whole file: each variant is solved once.
fn tablebases() -> Arc<Tablebases> {
    static SHARED: OnceLock<Arc<Tablebases>> = OnceLock::new();
    SHARED.get_or_init(Default::default).clone()
}

fn rules(text: &str) -> Rules {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} is a variant: {e}"))
}

fn spec(text: &str) -> PlayerSpec {
    text.parse().expect("a valid spec")
}

fn player(text: &str, seed: u64) -> BuiltIn {
    BuiltIn::new(spec(text), seed, tablebases())
}

fn level_player(level: Level, seed: u64) -> BuiltIn {
    BuiltIn::new(PlayerSpec { level, strength: 0 }, seed, tablebases())
}

/// Short games: drawn after `plies` more plies, or at the third repetition.
fn draw_rules(game: &Game, plies: u32) -> DrawRules {
    DrawRules {
        turn_limit: Some(game.plies().len() as u32 + plies),
        repetition: Some(3),
    }
}

/// Plays `game` to its end: each player must give a legal move while the game is not over
/// and `None` once it is.
fn play_out(game: &mut Game, red: &mut dyn Player, blue: &mut dyn Player) {
    loop {
        let mover: &mut dyn Player = match game.position().turn() {
            Color::Red => &mut *red,
            Color::Blue => &mut *blue,
        };
        let over = game.is_over();
        match mover.choose_move(game) {
            None => {
                assert!(over, "{} gave no move in {}", mover.name(), game.position());
                return;
            }
            Some(mv) => {
                assert!(!over, "{} moved after the end", mover.name());
                if let Err(e) = game.play(&mv) {
                    panic!(
                        "{} played the illegal {mv} in {}: {e}",
                        mover.name(),
                        game.position()
                    );
                }
            }
        }
    }
}

/// The value of `position` for `color` (the tablebase's values are for the player to move).
fn value_for(tb: &Tablebase, position: &Position, color: Color) -> Value {
    let v = tb.value(position).expect("the table answers the position");
    if color == position.turn() {
        v
    } else {
        match v {
            Value::Win(d) => Value::Loss(d),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d),
        }
    }
}

/// The value, for the mover, of playing `mv` in `position`.
fn move_value(tb: &Tablebase, position: &Position, mv: &Move) -> Value {
    tb.moves(position)
        .expect("the table answers the position")
        .into_iter()
        .find(|m| m.mv == *mv)
        .unwrap_or_else(|| panic!("{mv} is not legal in {position}"))
        .value
}

/// `n` unfinished positions of the variant (Red to move), chosen with `seed`, that `keep`
/// accepts.
fn sample_positions(
    rules: &Rules,
    n: usize,
    seed: u64,
    keep: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    let mut candidates: Vec<Position> = all_positions(rules)
        .into_iter()
        .filter(|p| !p.is_finished() && keep(p))
        .collect();
    let mut rng = Rng::new(seed);
    let mut chosen = Vec::new();
    while chosen.len() < n && !candidates.is_empty() {
        let i = rng.below(candidates.len());
        chosen.push(candidates.swap_remove(i));
    }
    chosen
}

/// A game of the variant after `plies` random moves from its standard start (or fewer, if
/// the game would end): under scoring, positions reached by play keep the standard setup,
/// whose table is shared.
fn random_walk(rules: &Rules, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(*rules);
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        let position = *game.position();
        let moves: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|mv| !position.play_unchecked(mv).is_finished())
            .collect();
        let Some(mv) = rng.pick(&moves) else { break };
        game.play(mv).expect("a legal move");
    }
    game
}

/// Starting games for a variant: the standard setup and `n` positions from the table.
fn starting_games(rules: &Rules, n: usize, seed: u64) -> Vec<Game> {
    let mut games = vec![Game::new(*rules)];
    if rules.scoring_target().is_some() {
        games.extend((0..n as u64).map(|i| random_walk(rules, 3 + 2 * i as usize, seed + i)));
    } else {
        games.extend(
            sample_positions(rules, n, seed, |_| true)
                .into_iter()
                .map(|p| Game::from_position(p).expect("an unfinished position starts a game")),
        );
    }
    games
}

/// The specification's variants (scoring at a small target, for quick games) and three
/// neutrals.
fn variants() -> impl Iterator<Item = &'static str> {
    let named = lgame::variants::VARIANTS.iter().map(|v| v.rules);
    named
        .filter(|r| *r != "scoring")
        .chain(["neutrals=3", "scoring,target=3"])
}

#[test]
fn perfect_never_loses_from_a_position_not_lost_for_it_against_every_level_in_every_variant() {
    let mut games_played = 0;
    for (v, variant) in variants().enumerate() {
        let rules = rules(variant);
        let tb = tablebases().get(&rules);
        for (s, start) in starting_games(&rules, 3, 100 + v as u64)
            .into_iter()
            .enumerate()
        {
            for perfect_side in Color::ALL {
                if value_for(&tb, start.position(), perfect_side).wdl() == lgame_solver::Wdl::Loss {
                    continue;
                }
                for level in Level::ALL {
                    let seeds: &[u64] = if level == Level::Intermediate {
                        &[1]
                    } else {
                        &[1, 2]
                    };
                    for &seed in seeds {
                        let seed = seed + 10 * s as u64;
                        let mut perfect = level_player(Level::Perfect, seed);
                        let mut other = level_player(level, seed + 1000);
                        let mut game = start.clone();
                        game = game.clone().with_draw_rules(draw_rules(&game, 40));
                        let (red, blue): (&mut dyn Player, &mut dyn Player) = match perfect_side {
                            Color::Red => (&mut perfect, &mut other),
                            Color::Blue => (&mut other, &mut perfect),
                        };
                        play_out(&mut game, red, blue);
                        let result = game.conclusion().and_then(|c| c.result);
                        assert_ne!(
                            result,
                            Some(GameResult::win_for(!perfect_side)),
                            "{variant}: perfect ({perfect_side}) lost to {level} (seed {seed}) \
                             from {}: {:?}",
                            start.position(),
                            game.moves()
                                .iter()
                                .map(|m| m.to_string())
                                .collect::<Vec<_>>()
                        );
                        games_played += 1;
                    }
                }
            }
        }
    }
    assert!(games_played > 200, "only {games_played} games");
}

#[test]
fn perfect_wins_from_won_positions_within_the_tablebase_distance_against_every_level() {
    for (v, variant) in ["classic", "misere", "symmetry", "neutral-required"]
        .into_iter()
        .enumerate()
    {
        let rules = rules(variant);
        let tb = tablebases().get(&rules);
        let mut won = sample_positions(&rules, 6, 200 + v as u64, |p| {
            matches!(tb.value(p), Ok(Value::Win(_)))
        });
        // The longest win of the variant too.
        let longest = all_positions(&rules)
            .into_iter()
            .filter(|p| matches!(tb.value(p), Ok(Value::Win(_))))
            .max_by_key(|p| tb.value(p).ok().and_then(Value::plies))
            .expect("the variant has won positions");
        won.push(longest);
        for start in won {
            let Value::Win(distance) = tb.value(&start).expect("answered") else {
                unreachable!("only won positions were chosen")
            };
            let winner = start.turn();
            for level in Level::ALL {
                for seed in [3, 4] {
                    let mut perfect = level_player(Level::Perfect, seed);
                    let mut other = level_player(level, seed + 7);
                    let mut game = Game::from_position(start).expect("unfinished");
                    // A safety net only: the win must come well before it.
                    game = game
                        .clone()
                        .with_draw_rules(draw_rules(&game, 4 * distance as u32));
                    play_out(&mut game, &mut perfect, &mut other);
                    let end = game.conclusion().expect("played out");
                    assert_eq!(
                        end.result,
                        Some(GameResult::win_for(winner)),
                        "{variant}: perfect did not win {start} ({}) against {level}",
                        Value::Win(distance)
                    );
                    assert!(
                        game.plies().len() <= distance as usize,
                        "{variant}: perfect took {} plies to win {start} (win in {distance}) \
                         against {level}",
                        game.plies().len()
                    );
                }
            }
        }
    }
}

#[test]
fn perfect_wins_scoring_games_from_won_positions_within_the_tablebase_distance() {
    let rules = rules("scoring,target=3");
    let tb = tablebases().get(&rules);
    let mut tried = 0;
    for seed in 0..40 {
        let start = random_walk(&rules, 2 + seed as usize % 5, 300 + seed);
        let Ok(Value::Win(distance)) = tb.value(start.position()) else {
            continue;
        };
        let winner = start.position().turn();
        for level in Level::ALL {
            let mut perfect = level_player(Level::Perfect, seed);
            let mut other = level_player(level, seed + 1);
            let mut game = start.clone();
            let before = game.plies().len();
            game = game
                .clone()
                .with_draw_rules(draw_rules(&game, 4 * distance as u32));
            let (red, blue): (&mut dyn Player, &mut dyn Player) = match winner {
                Color::Red => (&mut perfect, &mut other),
                Color::Blue => (&mut other, &mut perfect),
            };
            play_out(&mut game, red, blue);
            let end = game.conclusion().expect("played out");
            assert_eq!(end.result, Some(GameResult::win_for(winner)));
            assert!(game.plies().len() - before <= distance as usize);
        }
        tried += 1;
    }
    assert!(
        tried >= 5,
        "only {tried} won scoring positions were reached"
    );
}

/// Whether the mover wins as soon as `mv` is played.
fn brute_force_wins_at_once(position: &Position, mv: &Move) -> bool {
    let after = position.play_unchecked(mv);
    matches!(after.outcome(), Some(o) if o.winner == position.turn())
}

/// Whether, after `mv`, the mover has lost or the opponent can win with one reply.
fn brute_force_allows_a_loss(position: &Position, mv: &Move) -> bool {
    let me = position.turn();
    let after = position.play_unchecked(mv);
    if let Some(outcome) = after.outcome() {
        return outcome.winner != me;
    }
    after
        .legal_moves()
        .into_iter()
        .any(|reply| matches!(after.play_unchecked(&reply).outcome(), Some(o) if o.winner != me))
}

#[test]
fn beginner_takes_an_immediate_win_and_never_allows_an_immediate_loss_when_a_safe_move_exists() {
    let mut wins_seen = 0;
    let mut choices_that_mattered = 0;
    for (v, variant) in [
        "classic",
        "misere",
        "symmetry",
        "sudden-death",
        "neutrals=1",
    ]
    .into_iter()
    .enumerate()
    {
        let rules = rules(variant);
        for (i, position) in sample_positions(&rules, 120, 400 + v as u64, |_| true)
            .into_iter()
            .enumerate()
        {
            let moves = position.legal_moves();
            let winning = moves
                .iter()
                .any(|mv| brute_force_wins_at_once(&position, mv));
            let safe = moves
                .iter()
                .filter(|mv| !brute_force_allows_a_loss(&position, mv))
                .count();
            let game = Game::from_position(position).expect("unfinished");
            let mut beginner = player("beginner", i as u64);
            let mv = beginner.choose_move(&game).expect("a move");
            assert!(position.is_legal(&mv));
            if winning {
                wins_seen += 1;
                assert!(
                    brute_force_wins_at_once(&position, &mv),
                    "{variant}: beginner missed a win at once in {position} ({mv})"
                );
            } else if safe > 0 {
                if safe < moves.len() {
                    choices_that_mattered += 1;
                }
                assert!(
                    !brute_force_allows_a_loss(&position, &mv),
                    "{variant}: beginner allowed an immediate loss in {position} ({mv}) when \
                     {safe} safe moves existed"
                );
            }
        }
    }
    assert!(
        wins_seen >= 10,
        "only {wins_seen} positions with a win at once"
    );
    assert!(
        choices_that_mattered >= 50,
        "only {choices_that_mattered} positions had both safe and unsafe moves"
    );
}

#[test]
fn beginner_avoids_immediate_losses_under_scoring() {
    let rules = rules("scoring,target=2");
    let mut checked = 0;
    for seed in 0..60 {
        let game = random_walk(&rules, 1 + seed as usize % 6, 500 + seed);
        let position = *game.position();
        let moves = position.legal_moves();
        let mv = player("beginner", seed).choose_move(&game).expect("a move");
        if moves.iter().any(|m| brute_force_wins_at_once(&position, m)) {
            assert!(brute_force_wins_at_once(&position, &mv));
        } else if moves
            .iter()
            .any(|m| !brute_force_allows_a_loss(&position, m))
        {
            assert!(!brute_force_allows_a_loss(&position, &mv));
        }
        checked += 1;
    }
    assert_eq!(checked, 60);
}

#[test]
fn intermediate_finds_every_win_within_three_plies_and_is_deterministic_per_seed() {
    let mut checked = 0;
    // (Misère and one neutral have no win within three plies.)
    for (v, variant) in [
        "classic",
        "symmetry",
        "sudden-death",
        "neutral-required",
        "neutrals=3",
    ]
    .into_iter()
    .enumerate()
    {
        let rules = rules(variant);
        let tb = tablebases().get(&rules);
        let positions = sample_positions(
            &rules,
            40,
            600 + v as u64,
            |p| matches!(tb.value(p), Ok(Value::Win(d)) if d <= 3),
        );
        for (i, position) in positions.into_iter().enumerate() {
            let best = tb.value(&position).expect("answered");
            let game = Game::from_position(position).expect("unfinished");
            let mv = player("intermediate", i as u64)
                .choose_move(&game)
                .expect("a move");
            assert_eq!(
                move_value(&tb, &position, &mv),
                best,
                "{variant}: intermediate missed the {best} in {position} with {mv}"
            );
            let again = player("intermediate", i as u64).choose_move(&game);
            assert_eq!(again, Some(mv), "the same seed chose differently");
            checked += 1;
        }
    }
    assert!(checked >= 150, "only {checked} positions");
    // Under scoring, from positions reached by play.
    let rules = rules("scoring,target=3");
    let tb = tablebases().get(&rules);
    let mut scoring_wins = 0;
    for seed in 0..80 {
        let game = random_walk(&rules, 2 + seed as usize % 7, 1100 + seed);
        let position = *game.position();
        let Ok(best @ Value::Win(d)) = tb.value(&position) else {
            continue;
        };
        if d > 3 {
            continue;
        }
        let mv = player("intermediate", seed)
            .choose_move(&game)
            .expect("a move");
        assert_eq!(
            move_value(&tb, &position, &mv),
            best,
            "scoring: {position} {mv}"
        );
        scoring_wins += 1;
    }
    assert!(
        scoring_wins >= 5,
        "only {scoring_wins} scoring positions won within 3"
    );
}

#[test]
fn intermediate_is_deterministic_per_seed_over_whole_games() {
    for variant in ["classic", "misere", "scoring,target=3"] {
        let rules = rules(variant);
        let record = |seed: u64| {
            let mut game = Game::new(rules);
            game = game.clone().with_draw_rules(draw_rules(&game, 16));
            let mut red = player("intermediate", seed);
            let mut blue = player("random", seed);
            play_out(&mut game, &mut red, &mut blue);
            game.moves()
        };
        assert_eq!(record(5), record(5), "{variant}");
    }
}

/// The perfect player's rule, computed from `tb.moves` alone: the best value, and in a drawn
/// position the most losing replies a drawing move leaves the opponent.
fn brute_force_perfect(tb: &Tablebase, position: &Position) -> (Value, Option<usize>) {
    let moves = tb.moves(position).expect("answered");
    let best = moves.iter().map(|m| m.value).max().expect("a move");
    if best != Value::Draw {
        return (best, None);
    }
    let losing_replies = |after: &Position| {
        tb.moves(after)
            .expect("answered")
            .iter()
            .filter(|r| r.value.wdl() == lgame_solver::Wdl::Loss)
            .count()
    };
    let most = moves
        .iter()
        .filter(|m| m.value == Value::Draw)
        .map(|m| losing_replies(&m.position))
        .max();
    (best, most)
}

fn losing_replies_after(tb: &Tablebase, position: &Position, mv: &Move) -> usize {
    let after = position.play_unchecked(mv);
    tb.moves(&after)
        .expect("answered")
        .iter()
        .filter(|r| matches!(r.value, Value::Loss(_)))
        .count()
}

#[test]
fn perfect_wins_quickest_loses_slowest_and_sets_the_most_traps_when_drawn() {
    let mut traps_mattered = 0;
    for (v, variant) in ["classic", "misere", "symmetry", "neutrals=1", "neutrals=3"]
        .into_iter()
        .enumerate()
    {
        let rules = rules(variant);
        let tb = tablebases().get(&rules);
        let mut positions = Vec::new();
        for (w, n) in [
            (lgame_solver::Wdl::Win, 40),
            (lgame_solver::Wdl::Draw, 60),
            (lgame_solver::Wdl::Loss, 40),
        ] {
            positions.extend(sample_positions(&rules, n, 700 + v as u64, |p| {
                tb.wdl(p) == Ok(w)
            }));
        }
        for (i, position) in positions.into_iter().enumerate() {
            let (best, most) = brute_force_perfect(&tb, &position);
            let game = Game::from_position(position).expect("unfinished");
            let mv = player("perfect", i as u64)
                .choose_move(&game)
                .expect("a move");
            assert_eq!(
                move_value(&tb, &position, &mv),
                best,
                "{variant}: perfect's {mv} in {position} is not worth the best, {best}"
            );
            if let Some(most) = most {
                let traps = losing_replies_after(&tb, &position, &mv);
                assert_eq!(
                    traps, most,
                    "{variant}: perfect's {mv} in {position} leaves {traps} losing replies, \
                     {most} were possible"
                );
                let fewest = tb
                    .moves(&position)
                    .expect("answered")
                    .iter()
                    .filter(|m| m.value == Value::Draw)
                    .map(|m| losing_replies_after(&tb, &position, &m.mv))
                    .min();
                if fewest < Some(most) {
                    traps_mattered += 1;
                }
            }
        }
    }
    assert!(
        traps_mattered >= 100,
        "only {traps_mattered} drawn positions had a choice"
    );
}

#[test]
fn strength_100_plays_the_perfect_choice_at_every_level() {
    let rules = rules("classic");
    let tb = tablebases().get(&rules);
    let positions = sample_positions(&rules, 90, 800, |_| true);
    for level in ["random:100", "beginner:100", "intermediate:100"] {
        for (i, position) in positions.iter().enumerate() {
            let (best, most) = brute_force_perfect(&tb, position);
            let game = Game::from_position(*position).expect("unfinished");
            let mv = player(level, i as u64).choose_move(&game).expect("a move");
            assert_eq!(
                move_value(&tb, position, &mv),
                best,
                "{level} in {position}"
            );
            if let Some(most) = most {
                assert_eq!(losing_replies_after(&tb, position, &mv), most);
            }
        }
    }
}

#[test]
fn strength_0_plays_the_levels_own_choice_and_never_solves_a_table() {
    // Its own cache, to see that nothing gets solved.
    let own = Arc::new(Tablebases::default());
    for variant in ["classic", "misere", "scoring,target=2"] {
        let rules = rules(variant);
        for level in ["random", "beginner", "intermediate"] {
            let mut game = Game::new(rules);
            game = game.clone().with_draw_rules(draw_rules(&game, 12));
            let mut red = BuiltIn::new(spec(level), 1, own.clone());
            let mut blue = BuiltIn::new(spec(&format!("{level}:0")), 2, own.clone());
            red.prepare(&rules);
            blue.prepare(&rules);
            play_out(&mut game, &mut red, &mut blue);
        }
    }
    assert!(own.is_empty(), "a strength-0 player solved a table");
    // `random` is a uniform pick from the legal moves with the player's own numbers.
    let game = Game::new(rules("classic"));
    for seed in 0..20 {
        let expected = Rng::new(seed).pick(&game.position().legal_moves()).copied();
        assert_eq!(player("random:0", seed).choose_move(&game), expected);
        assert_eq!(player("random", seed).choose_move(&game), expected);
    }
    // Any other strength does probe the table.
    let mut strong = BuiltIn::new(spec("random:1"), 1, own.clone());
    strong.prepare(&rules("classic"));
    assert_eq!(own.len(), 1);
}

#[test]
fn strength_50_plays_the_perfect_choice_about_half_the_time() {
    let rules = rules("classic");
    let tb = tablebases().get(&rules);
    // Won positions, where a random move is rarely a quickest win.
    let positions = sample_positions(&rules, 400, 900, |p| {
        matches!(tb.value(p), Ok(Value::Win(_)))
    });
    let mut optimal = [0usize; 3];
    let mut random_hits = 0.0;
    for (i, position) in positions.iter().enumerate() {
        let moves = tb.moves(position).expect("answered");
        let best = moves[0].value;
        random_hits += moves.iter().filter(|m| m.value == best).count() as f64 / moves.len() as f64;
        let game = Game::from_position(*position).expect("unfinished");
        for (k, s) in ["random:0", "random:50", "random:100"]
            .into_iter()
            .enumerate()
        {
            let mv = player(s, i as u64).choose_move(&game).expect("a move");
            if move_value(&tb, position, &mv) == best {
                optimal[k] += 1;
            }
        }
    }
    let n = positions.len() as f64;
    let q = random_hits / n;
    let share = |k: usize| optimal[k] as f64 / n;
    assert!(
        q < 0.3,
        "random finds the quickest win too often ({q}) to measure anything"
    );
    assert!(
        (share(0) - q).abs() < 0.1,
        "strength 0: {} vs {q}",
        share(0)
    );
    let expected = 0.5 + 0.5 * q;
    assert!(
        (share(1) - expected).abs() < 0.1,
        "strength 50: {} perfect choices, expected about {expected}",
        share(1)
    );
    assert_eq!(
        optimal[2],
        positions.len(),
        "strength 100 is always perfect"
    );
}

#[test]
fn the_same_spec_and_seed_give_the_same_game_and_other_seeds_differ() {
    for variant in ["classic", "scoring,target=3"] {
        let rules = rules(variant);
        let record = |red: &str, blue: &str, seed: u64| {
            let mut game = Game::new(rules);
            game = game.clone().with_draw_rules(draw_rules(&game, 20));
            let mut r = player(red, seed);
            let mut b = player(blue, seed + 1);
            play_out(&mut game, &mut r, &mut b);
            game.moves()
        };
        for level in [
            "random",
            "beginner",
            "intermediate",
            "perfect",
            "beginner:50",
        ] {
            for seed in [11, 12] {
                assert_eq!(
                    record(level, level, seed),
                    record(level, level, seed),
                    "{variant} {level}"
                );
            }
            let first = record(level, "random", 11);
            assert_eq!(first, record(level, "random", 11), "{variant} {level}");
        }
    }
    // Other seeds break ties otherwise, somewhere. (Intermediate against itself from the
    // standard setup happens to have a single best move at every turn, so positions are
    // sampled instead of games.)
    let rules = rules("classic");
    let positions = sample_positions(&rules, 30, 1000, |_| true);
    for level in Level::ALL {
        let differ = positions.iter().any(|p| {
            let game = Game::from_position(*p).expect("unfinished");
            let first = level_player(level, 0).choose_move(&game);
            (1..8).any(|seed| level_player(level, seed).choose_move(&game) != first)
        });
        assert!(differ, "{level} chooses the same moves with every seed");
    }
}

#[test]
fn every_level_returns_a_legal_move_in_every_variant_and_none_when_the_game_is_over() {
    let variants = [
        "classic",
        "misere",
        "sudden-death",
        "neutral-required",
        "symmetry",
        "neutrals=0",
        "neutrals=1",
        "neutrals=3",
        "misere,neutrals=1",
        "board=5x4,neutrals=1",
        "scoring,target=2",
        "scoring,symmetry,target=2",
        "setup=kit",
        "setup=corners",
    ];
    for variant in variants {
        let rules = rules(variant);
        for (l, level) in [
            "random",
            "beginner",
            "intermediate",
            "perfect",
            "intermediate:50",
        ]
        .into_iter()
        .enumerate()
        {
            let mut game = Game::new(rules);
            game = game.clone().with_draw_rules(draw_rules(&game, 10));
            let mut red = player(level, l as u64);
            let mut blue = player(level, l as u64 + 100);
            // play_out checks each move's legality and the `None` at the end.
            play_out(&mut game, &mut red, &mut blue);
            assert!(game.is_over());
            assert_eq!(red.choose_move(&game), None);
            assert_eq!(blue.choose_move(&game), None);
        }
    }
}

#[test]
fn no_level_moves_in_a_finished_game() {
    // The kit's example: Red is trapped after two moves.
    let mut game = Game::new(rules("setup=kit"));
    game.play(&"A2,A3,A4,B4 B2-A1".parse().unwrap()).unwrap();
    game.play(&"B2,B3,C2,D2 C3-C4".parse().unwrap()).unwrap();
    assert!(game.is_over());
    for level in Level::ALL {
        assert_eq!(level_player(level, 0).choose_move(&game), None, "{level}");
        assert_eq!(player(&format!("{level}:100"), 0).choose_move(&game), None);
    }
    // Over by a draw rule, with moves still on the board.
    let mut game = Game::new(rules("classic")).with_draw_rules(DrawRules {
        turn_limit: Some(1),
        repetition: None,
    });
    let first = game.position().legal_moves()[0];
    game.play(&first).unwrap();
    assert!(game.is_over() && !game.position().legal_moves().is_empty());
    for level in Level::ALL {
        assert_eq!(level_player(level, 0).choose_move(&game), None, "{level}");
    }
}

#[test]
fn offered_a_draw_perfect_accepts_exactly_the_drawn_positions_and_the_others_when_no_win_is_at_once(
) {
    let (mut accepted, mut declined) = (0, 0);
    for (v, variant) in ["classic", "misere", "sudden-death"]
        .into_iter()
        .enumerate()
    {
        let rules = rules(variant);
        let table = tablebases().get(&rules);
        for position in sample_positions(&rules, 150, 900 + v as u64, |_| true) {
            let game = Game::from_position(position).expect("unfinished");
            let drawn = matches!(table.value(&position), Ok(Value::Draw));
            assert_eq!(
                Level::Perfect.accepts_draw(&game, &tablebases()),
                drawn,
                "{variant}: perfect offered a draw in {position}"
            );
            let win_at_once = position
                .legal_moves()
                .iter()
                .any(|mv| brute_force_wins_at_once(&position, mv));
            for level in [Level::Random, Level::Beginner, Level::Intermediate] {
                let accepts = level.accepts_draw(&game, &tablebases());
                assert_eq!(accepts, !win_at_once, "{variant}: {level} in {position}");
                if accepts {
                    accepted += 1;
                } else {
                    declined += 1;
                }
            }
        }
    }
    assert!(accepted > 0 && declined > 0, "{accepted} / {declined}");
}
