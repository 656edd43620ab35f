use super::*;
use super::{ArenaGame, ArenaPlayer};

fn arena_row() -> ArenaRow {
    ArenaRow {
        id: "a".into(),
        variant: "classic".into(),
        clock: TimeControl::Correspondence { days: 1 },
        minutes: 10,
        category: None,
        starts_at: 0,
        ends_at: 600_000,
        creator: Some(1),
        creator_name: Some("p1".into()),
        created_ms: 0,
        players: 4,
        unfinished: 0,
    }
}

fn player(id: i64, joined_ms: i64) -> ArenaPlayer {
    ArenaPlayer {
        user_id: id,
        username: format!("p{id}"),
        joined_ms,
        left_ms: None,
    }
}

/// Game `seq` between `red` and `blue`: its result (`None`: not stored yet), its
/// declared end and plies.
fn game(
    seq: i64,
    [red, blue]: [i64; 2],
    outcome: Option<&str>,
    end: Option<&str>,
    plies: i64,
) -> ArenaGame {
    ArenaGame {
        game: format!("g{seq}"),
        players: [red, blue],
        seq,
        made_ms: seq * 1000,
        ended_ms: outcome
            .filter(|o| *o != "*")
            .or(end)
            .map(|_| seq * 1000 + 500),
        outcome: outcome.map(|o| o.parse().unwrap()),
        termination: end.map(|e| lgame::game::Termination::from_name(e).unwrap()),
        plies,
    }
}

#[test]
fn standings_score_the_stored_games_and_an_abort_withdraws_the_absent() {
    let data = ArenaData {
        arena: arena_row(),
        players: vec![player(1, 0), player(2, 0), player(3, 0), player(4, 0)],
        games: vec![
            game(1, [1, 2], Some("1-0"), None, 9),
            game(2, [3, 4], Some("1/2-1/2"), None, 30),
            game(3, [1, 3], Some("0-1"), Some("resignation"), 4),
            // Blue never moved: Blue (4) is withdrawn, Red (2) is not.
            game(4, [2, 4], Some("*"), Some("aborted"), 1),
            // Not stored yet: a game in progress for a while, then none.
            game(5, [1, 2], None, None, 0),
        ],
    };
    let all = standings(&data, 5_500);
    let line = |id: i64| all.iter().find(|s| s.user_id == id).unwrap();
    assert_eq!(
        all.iter().map(|s| s.user_id).collect::<Vec<_>>(),
        [3, 1, 4, 2]
    );
    assert_eq!((line(3).sheet.score, line(3).sheet.games.len()), (3, 2));
    assert_eq!(
        line(1)
            .sheet
            .games
            .iter()
            .map(|g| g.points)
            .collect::<Vec<_>>(),
        [2, 0]
    );
    assert_eq!((line(4).sheet.score, line(4).withdrawn), (1, true));
    assert_eq!((line(2).sheet.score, line(2).withdrawn), (0, false));
    assert_eq!(line(1).game.as_deref(), Some("g5"));
    assert_eq!(line(3).game, None);
    let queue: Vec<i64> = waiting(&all, &data.arena, 5_500)
        .iter()
        .map(|s| s.user_id)
        .collect();
    assert_eq!(queue, [3]);
    // A pairing never stored frees its players after MAKING_MS.
    let later = standings(&data, 5_000 + super::MAKING_MS);
    assert!(later.iter().all(|s| s.game.is_none()));
    // Joined again after the abort: no longer withdrawn. After the end, nobody waits.
    let mut again = data.clone();
    again.players[3].joined_ms = 4_500;
    assert!(!standings(&again, 5_500).iter().any(|s| s.withdrawn));
    assert!(waiting(&standings(&again, 600_000), &again.arena, 600_000).is_empty());
}

fn free(id: i64, last: Option<i64>, since: i64) -> Standing {
    Standing {
        user_id: id,
        username: format!("p{id}"),
        sheet: Sheet::default(),
        game: None,
        game_stored: false,
        withdrawn: false,
        reached_ms: i64::MAX,
        free_since: since,
        last_opponent: last,
    }
}

#[test]
fn pairing_pairs_neighbours_never_the_last_opponent_while_another_is_there() {
    let four = [
        free(1, None, 0),
        free(2, None, 0),
        free(3, None, 0),
        free(4, None, 0),
    ];
    let refs: Vec<&Standing> = four.iter().collect();
    assert_eq!(pairs(&refs, 0, &BTreeSet::new()), [(0, 1), (2, 3)]);
    assert_eq!(
        pairs(&refs[..3], 0, &BTreeSet::new()),
        [(0, 1)],
        "an odd one waits"
    );
    // 1 and 2 kept apart (one browser's accounts): never paired, even alone at last.
    let apart = BTreeSet::from([(1, 2)]);
    assert_eq!(pairs(&refs, 0, &apart), [(0, 2), (1, 3)]);
    assert!(pairs(&refs[..2], REMATCH_AFTER_MS, &apart).is_empty());
    // 1 and 2 just played: 1 meets 3, 2 meets 4.
    let met = [
        free(1, Some(2), 0),
        free(2, Some(1), 0),
        free(3, Some(4), 0),
        free(4, Some(3), 0),
    ];
    let refs: Vec<&Standing> = met.iter().collect();
    assert_eq!(pairs(&refs, 0, &BTreeSet::new()), [(0, 2), (1, 3)]);
    // The last two left met last: swapped into the pair before them.
    let tail = [
        free(1, None, 0),
        free(2, None, 0),
        free(3, Some(4), 0),
        free(4, Some(3), 0),
    ];
    let refs: Vec<&Standing> = tail.iter().collect();
    let chosen = pairs(&refs, 0, &BTreeSet::new());
    assert_eq!(chosen, [(0, 2), (1, 3)]);
    // Two alone who just met wait, until both have waited REMATCH_AFTER_MS.
    let alone = [free(1, Some(2), 0), free(2, Some(1), 3_000)];
    let refs: Vec<&Standing> = alone.iter().collect();
    assert!(pairs(&refs, 12_999, &BTreeSet::new()).is_empty());
    assert_eq!(
        pairs(&refs, 3_000 + REMATCH_AFTER_MS, &BTreeSet::new()),
        [(0, 1)]
    );
    // Nobody is ever paired twice, whatever the last opponents.
    for n in 0..8usize {
        let many: Vec<Standing> = (0..n as i64).map(|i| free(i, Some(i ^ 1), 0)).collect();
        let refs: Vec<&Standing> = many.iter().collect();
        let chosen = pairs(&refs, 0, &BTreeSet::new());
        let mut seen = std::collections::HashSet::new();
        for (a, b) in &chosen {
            assert!(seen.insert(*a) && seen.insert(*b), "{chosen:?}");
            assert_ne!(many[*a].last_opponent, Some(many[*b].user_id), "{chosen:?}");
        }
        assert!(n < 4 || chosen.len() == n / 2, "{n}: {chosen:?}");
    }
}

const LONG_DRAW: Played = Played::Draw { plies: 40 };

fn score(games: &[Played]) -> (u32, Vec<u32>) {
    let mut sheet = Sheet::default();
    let points = games.iter().map(|&g| sheet.add(g)).collect();
    (sheet.score, points)
}

#[test]
fn wins_score_two_and_four_on_a_streak_until_a_game_is_not_won() {
    use Played::*;
    let (total, points) = score(&[Win, Win, Win, Win, LONG_DRAW, Win, Loss, Win]);
    assert_eq!(points, [2, 2, 4, 4, 2, 2, 0, 2]);
    assert_eq!(total, 18);
    let (_, points) = score(&[Win, Win, Loss, Win, Win, LONG_DRAW, LONG_DRAW]);
    assert_eq!(
        points,
        [2, 2, 0, 2, 2, 2, 0],
        "a streak's draw is 2, the next 0"
    );
}

#[test]
fn early_draws_and_draws_after_a_draw_score_nothing() {
    use Played::*;
    let early = Draw { plies: 19 };
    let (_, points) = score(&[early, Draw { plies: 20 }, Loss, LONG_DRAW, LONG_DRAW]);
    assert_eq!(points, [0, 0, 0, 1, 0]);
    let (_, points) = score(&[Win, Win, early, Win]);
    assert_eq!(points, [2, 2, 0, 2], "an early draw ends the streak");
}

/// Every sheet of up to six games, against the rules counted another way: the run of
/// wins just before each game, and the game before it.
#[test]
fn every_short_sheet_scores_as_the_rules_say() {
    let kinds = [
        Played::Win,
        Played::Loss,
        Played::Draw { plies: 5 },
        LONG_DRAW,
    ];
    for len in 0..=6u32 {
        for code in 0..4usize.pow(len) {
            let games: Vec<Played> = (0..len).map(|i| kinds[code / 4usize.pow(i) % 4]).collect();
            let mut expected = 0;
            for (i, game) in games.iter().enumerate() {
                let wins_before = games[..i]
                    .iter()
                    .rev()
                    .take_while(|g| **g == Played::Win)
                    .count();
                let previous_drawn = i > 0 && matches!(games[i - 1], Played::Draw { .. });
                let base = match game {
                    Played::Win => 2,
                    Played::Loss => 0,
                    Played::Draw { plies } => {
                        u32::from(*plies >= EARLY_DRAW_PLIES && !previous_drawn)
                    }
                };
                expected += if wins_before >= 2 { 2 * base } else { base };
            }
            assert_eq!(score(&games).0, expected, "{games:?}");
        }
    }
}
