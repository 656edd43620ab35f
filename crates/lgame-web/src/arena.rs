//! Arena tournaments (docs/ratings.md, "Arena tournaments"; docs/api.md, "Arenas"): for
//! its minutes, an arena pairs its players who are waiting, again and again, as lichess's
//! arena does; whoever scores the most wins.
//!
//! The scoring, as lichess's arena scores: 2 points a win, 1 a draw, 0 a loss; after two
//! wins in a row a player is on a streak and each game's points double until a game is not
//! won. Against draw farming (the L game's perfect play draws): a draw before ply
//! [`EARLY_DRAW_PLIES`] scores nothing, and a draw right after a draw scores nothing.
//!
//! The pairing ([`start`]): every [`TICK`] each instance pairs each running arena's
//! waiting players (joined, not withdrawn, in no game of the arena), in one transaction
//! per arena (`store/arenas.rs`), neighbours by score ([`pairs`]). Nothing of a score is
//! stored: the standings ([`standings`]) are read from the games the arena made, so every
//! instance shows the same, and a stopped instance loses no point.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::arena::api::{ArenaStanding, ArenaSummary, ArenaView};
use crate::clock::TimeControl;
use crate::cpu::cpu_bound;
use crate::games::{self, GameError, Games, NewGame};
use crate::secret::random_hex;
use crate::store::{user_holder, ArenaData, ArenaRow, Chooser, Pairing};

pub(crate) mod api;
mod routes;
pub use routes::routes;

/// How often an instance pairs the waiting players of each running arena.
pub const TICK: Duration = Duration::from_secs(1);

/// An arena's length, in minutes.
pub const MINUTES: std::ops::RangeInclusive<i64> = 10..=180;

/// The most arenas `GET /api/arenas` lists.
pub const LISTED: i64 = 50;

/// Two players whose last games were against each other are paired again only once both
/// have waited this long (the server's milliseconds): until then, each waits for another.
pub const REMATCH_AFTER_MS: i64 = 10_000;

/// Where an arena is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArenaState {
    Upcoming,
    Running,
    Finished,
}

impl ArenaState {
    pub fn name(self) -> &'static str {
        match self {
            ArenaState::Upcoming => "upcoming",
            ArenaState::Running => "running",
            ArenaState::Finished => "finished",
        }
    }
}

/// An arena's state at `now_ms`: running until its end, and after it while a game of it
/// is unfinished.
pub fn state_of(arena: &ArenaRow, now_ms: i64) -> ArenaState {
    if now_ms < arena.starts_at {
        ArenaState::Upcoming
    } else if now_ms < arena.ends_at || arena.unfinished > 0 {
        ArenaState::Running
    } else {
        ArenaState::Finished
    }
}

/// Whether new games are paired at `now_ms`.
pub fn pairing_open(arena: &ArenaRow, now_ms: i64) -> bool {
    arena.starts_at <= now_ms && now_ms < arena.ends_at
}

/// A player's place in an arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub user_id: i64,
    pub username: String,
    pub sheet: Sheet,
    /// The game of the arena they are playing (or that is being made).
    pub game: Option<String>,
    /// Whether that game is stored yet (shown only then: its id answers).
    pub game_stored: bool,
    /// Left, or absent: a game of theirs aborted before their first move since they joined.
    pub withdrawn: bool,
    /// When the game that gave their last points ended (`i64::MAX`: none did).
    pub reached_ms: i64,
    /// Since when they have been free to play: joined, or their last game ended.
    pub free_since: i64,
    /// Their last game's opponent.
    pub last_opponent: Option<i64>,
}

/// How one game ended for the side `side` (0 Red, 1 Blue); `None` if it scores no game
/// (unfinished, aborted, or an unknown result).
fn played(outcome: &str, plies: i64, side: usize) -> Option<Played> {
    let won = match outcome {
        "1-0" => 0,
        "0-1" => 1,
        "1/2-1/2" => {
            return Some(Played::Draw {
                plies: u32::try_from(plies).unwrap_or(u32::MAX),
            })
        }
        _ => return None,
    };
    Some(if won == side {
        Played::Win
    } else {
        Played::Loss
    })
}

/// Every player's standing, best first: by score, then who reached it first, then by
/// username.
pub fn standings(data: &ArenaData, now_ms: i64) -> Vec<Standing> {
    let mut all: Vec<Standing> = data
        .players
        .iter()
        .map(|p| Standing {
            user_id: p.user_id,
            username: p.username.clone(),
            sheet: Sheet::default(),
            game: None,
            game_stored: false,
            withdrawn: p.left_ms.is_some(),
            reached_ms: i64::MAX,
            free_since: p.joined_ms,
            last_opponent: None,
        })
        .collect();
    for g in &data.games {
        for (side, player) in g.players.iter().enumerate() {
            let Some(joined) = data.players.iter().find(|p| p.user_id == *player) else {
                continue;
            };
            let Some(s) = all.iter_mut().find(|s| s.user_id == *player) else {
                continue;
            };
            if g.in_progress(now_ms) {
                s.game = Some(g.game.clone());
                s.game_stored = g.outcome.is_some();
                s.last_opponent = Some(g.players[1 - side]);
                continue;
            }
            if !g.over() {
                continue; // never made
            }
            s.last_opponent = Some(g.players[1 - side]);
            let ended = g.ended_ms.unwrap_or(now_ms);
            s.free_since = s.free_since.max(ended);
            let outcome = g.outcome.as_deref().unwrap_or("*");
            if g.termination.as_deref() == Some("aborted") && outcome == "*" {
                // Aborted before both first moves: the side to move never moved (Red
                // moves first).
                let absent = usize::from(g.plies % 2 == 1);
                if absent == side && g.made_ms >= joined.joined_ms {
                    s.withdrawn = true;
                }
                continue;
            }
            if let Some(result) = played(outcome, g.plies, side) {
                if s.sheet.add(result) > 0 {
                    s.reached_ms = ended;
                }
            }
        }
    }
    all.sort_by(|a, b| {
        b.sheet
            .score
            .cmp(&a.sheet.score)
            .then(a.reached_ms.cmp(&b.reached_ms))
            .then(a.username.cmp(&b.username))
    });
    all
}

/// The pairs among `waiting` (best first; their indexes): each still unpaired, from the
/// best, with the next unpaired who was not their last opponent. Two left over who last
/// played each other are swapped into the nearest pair made, if that pairs no one with
/// their last opponent; else they are paired together only once both have been free for
/// [`REMATCH_AFTER_MS`]. An odd one out waits. Two accounts kept `apart` (their ids, the
/// smaller first: `fairplay::unpairable_at`) are never paired.
pub fn pairs(
    waiting: &[&Standing],
    now_ms: i64,
    apart: &BTreeSet<(i64, i64)>,
) -> Vec<(usize, usize)> {
    let allowed = |i: usize, j: usize| {
        let (a, b) = (waiting[i].user_id, waiting[j].user_id);
        !apart.contains(&(a.min(b), a.max(b)))
    };
    let fresh = |i: usize, j: usize| {
        let (a, b) = (waiting[i], waiting[j]);
        a.last_opponent != Some(b.user_id) && b.last_opponent != Some(a.user_id) && allowed(i, j)
    };
    let free = |i: usize| waiting[i].free_since + REMATCH_AFTER_MS <= now_ms;
    let mut taken = vec![false; waiting.len()];
    let mut chosen = Vec::new();
    for i in 0..waiting.len() {
        if taken[i] {
            continue;
        }
        if let Some(j) = (i + 1..waiting.len()).find(|&j| !taken[j] && fresh(i, j)) {
            taken[i] = true;
            taken[j] = true;
            chosen.push((i, j));
        }
    }
    let left: Vec<usize> = (0..waiting.len()).filter(|&i| !taken[i]).collect();
    let mut rest = Vec::new();
    let mut k = 0;
    while k < left.len() {
        if k + 1 < left.len() {
            let (x, y) = (left[k], left[k + 1]);
            let swap = chosen
                .iter()
                .rposition(|&(a, b)| fresh(a, x) && fresh(b, y));
            if let Some(p) = swap {
                let (a, b) = chosen[p];
                chosen[p] = (a, x);
                chosen.push((b, y));
                k += 2;
                continue;
            }
        }
        rest.push(left[k]);
        k += 1;
    }
    let mut k = 0;
    while k + 1 < rest.len() {
        if free(rest[k]) && free(rest[k + 1]) && allowed(rest[k], rest[k + 1]) {
            chosen.push((rest[k], rest[k + 1]));
            k += 2;
        } else {
            k += 1;
        }
    }
    chosen
}

/// Who waits in an arena at `now_ms`, best first: pairing is open, and each has joined,
/// not withdrawn, and is in no game of the arena.
pub fn waiting<'a>(standings: &'a [Standing], arena: &ArenaRow, now_ms: i64) -> Vec<&'a Standing> {
    if !pairing_open(arena, now_ms) {
        return Vec::new();
    }
    standings
        .iter()
        .filter(|s| !s.withdrawn && s.game.is_none())
        .collect()
}

/// The pairings to make in an arena as read, sides drawn at random, never two accounts
/// kept `apart`.
fn choose(data: &ArenaData, now_ms: i64, apart: &BTreeSet<(i64, i64)>) -> Vec<Pairing> {
    let all = standings(data, now_ms);
    let waiting = waiting(&all, &data.arena, now_ms);
    let mut made = Vec::new();
    for (i, j) in pairs(&waiting, now_ms, apart) {
        let (Ok(game), Ok(coin)) = (random_hex(8), random_hex(1)) else {
            tracing::warn!("no random numbers for an arena's pairing");
            return made;
        };
        let (a, b) = (waiting[i].user_id, waiting[j].user_id);
        let red_first = u8::from_str_radix(&coin, 16).unwrap_or(0) % 2 == 0;
        let players = if red_first { [a, b] } else { [b, a] };
        made.push(Pairing { game, players });
    }
    made
}

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the arenas' database", e)
}

/// An arena's time control, as stored.
pub fn clock_of(arena: &ArenaRow) -> Result<TimeControl, GameError> {
    serde_json::from_str(&arena.clock)
        .map_err(|e| GameError::internal("reading an arena's clock", e))
}

/// Pairs every running arena each [`TICK`], until `stopping` turns true.
pub fn start(games: Arc<Games>, mut stopping: tokio::sync::watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(e) = pair_all(&games).await {
                        tracing::warn!(error = %e, "pairing the arenas");
                    }
                }
                _ = stopping.changed() => break,
            }
        }
    });
}

/// One pairing of every arena running (or with games to see end), and their games made.
pub async fn pair_all(games: &Arc<Games>) -> Result<(), GameError> {
    let now = games.time.now_ms();
    let store = games.clone();
    let running = store.store.running_arenas(now).await.map_err(storage)?;
    for id in running {
        let store = games.clone();
        let key = id.clone();
        let apart = cpu_bound(move || kept_apart(&store.store, &key, now)).await?;
        let chooser: Chooser = Box::new(move |data| choose(data, now, &apart));
        let made = games
            .store
            .pair_arena(&id, now, chooser)
            .await
            .map_err(storage);
        let made = match made {
            Ok(made) if made.is_empty() => continue,
            Ok(made) => made,
            // The others are paired all the same.
            Err(e) => {
                tracing::warn!(arena = %id, error = %e, "pairing an arena");
                continue;
            }
        };
        let store = games.clone();
        let key = id.clone();
        let Some(data) = store.store.arena(&key, now).await.map_err(storage)? else {
            continue;
        };
        for pairing in made {
            if let Err(e) = make_game(games, &data.arena, &pairing).await {
                tracing::warn!(arena = %id, game = %pairing.game, error = %e, "an arena's game");
            }
        }
    }
    Ok(())
}

/// The players of a rated arena never paired with each other (`fairplay.rs`), as pairs of
/// account ids, the smaller first. (Blocking.)
fn kept_apart(
    store: &crate::store::Store,
    id: &str,
    now_ms: i64,
) -> Result<BTreeSet<(i64, i64)>, GameError> {
    let Some(data) = crate::store::wait(store.arena(id, now_ms)).map_err(storage)? else {
        return Ok(BTreeSet::new());
    };
    if data.arena.category.is_none() {
        return Ok(BTreeSet::new());
    }
    let holders: Vec<String> = data
        .players
        .iter()
        .map(|p| user_holder(p.user_id))
        .collect();
    let holders: Vec<&str> = holders.iter().map(String::as_str).collect();
    let pairs = crate::fairplay::unpairable_at(store, &holders, now_ms)?;
    Ok(pairs
        .into_iter()
        .map(|(i, j)| {
            let (a, b) = (data.players[i].user_id, data.players[j].user_id);
            (a.min(b), a.max(b))
        })
        .collect())
}

/// Makes a pairing's game: the arena's variant and clock, both seats held, rated in its
/// category if the arena is.
async fn make_game(
    games: &Arc<Games>,
    arena: &ArenaRow,
    pairing: &Pairing,
) -> Result<(), GameError> {
    let rules = games::parse_rules(&arena.variant)?;
    let clock = clock_of(arena)?;
    let category = arena
        .category
        .as_ref()
        .and_then(|_| crate::ratings::category(&rules, Some(clock)));
    let holders = pairing.players.map(|p| Some(crate::store::user_holder(p)));
    let new = NewGame {
        arena: Some(arena.id.clone()),
        ..crate::lobby::paired_game(pairing.game.clone(), rules, clock, holders, category)
    };
    let games = games.clone();
    games.create(new).await?;
    Ok(())
}

/// An arena's summary at `now_ms`.
pub fn summary(arena: &ArenaRow, now_ms: i64) -> Result<ArenaSummary, GameError> {
    let clock = clock_of(arena)?;
    Ok(ArenaSummary {
        id: arena.id.clone(),
        variant: arena.variant.clone(),
        clock,
        speed: clock.speed(),
        minutes: arena.minutes,
        rated: arena.category.is_some(),
        category: arena.category.clone(),
        starts_at: arena.starts_at,
        ends_at: arena.ends_at,
        state: state_of(arena, now_ms).name().to_string(),
        players: arena.players,
        creator: arena.creator_name.clone(),
    })
}

/// An arena's view at `now_ms`: its summary, its standings and, once finished, its podium.
pub fn view(data: &ArenaData, now_ms: i64) -> Result<ArenaView, GameError> {
    let s = summary(&data.arena, now_ms)?;
    let standings: Vec<ArenaStanding> = standings(data, now_ms)
        .into_iter()
        .enumerate()
        .map(|(i, s)| ArenaStanding {
            rank: i + 1,
            fire: s.sheet.on_fire(),
            score: s.sheet.score,
            sheet: s.sheet.games.iter().map(|g| g.points).collect(),
            username: s.username,
            game: s.game.filter(|_| s.game_stored),
            withdrawn: s.withdrawn,
        })
        .collect();
    let podium = (state_of(&data.arena, now_ms) == ArenaState::Finished).then(|| {
        standings
            .iter()
            .take(3)
            .map(|s| s.username.clone())
            .collect()
    });
    Ok(ArenaView {
        id: s.id,
        variant: s.variant,
        clock: s.clock,
        speed: s.speed,
        minutes: s.minutes,
        rated: s.rated,
        category: s.category,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        state: s.state,
        players: s.players,
        creator: s.creator,
        standings,
        podium,
    })
}

/// A draw in fewer plies than this scores nothing.
pub const EARLY_DRAW_PLIES: u32 = 20;

/// How a tournament game ended for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Played {
    Win,
    /// A draw after `plies` plies.
    Draw {
        plies: u32,
    },
    Loss,
}

/// One game on a player's sheet and the points it gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Scored {
    pub played: Played,
    pub points: u32,
    /// Scored on a streak (doubled).
    pub fire: bool,
}

/// A player's games in a tournament, in the order they ended, and the score.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Sheet {
    pub games: Vec<Scored>,
    pub score: u32,
}

impl Sheet {
    /// Whether the player is on a streak: their last two games were won.
    pub fn on_fire(&self) -> bool {
        let n = self.games.len();
        n >= 2 && self.games[n - 2..].iter().all(|g| g.played == Played::Win)
    }

    /// Adds a game that ended; answers its points.
    pub fn add(&mut self, played: Played) -> u32 {
        let fire = self.on_fire();
        let after_draw = matches!(
            self.games.last(),
            Some(Scored {
                played: Played::Draw { .. },
                ..
            })
        );
        let base = match played {
            Played::Win => 2,
            Played::Draw { plies } if plies < EARLY_DRAW_PLIES || after_draw => 0,
            Played::Draw { .. } => 1,
            Played::Loss => 0,
        };
        let points = if fire { base * 2 } else { base };
        self.games.push(Scored {
            played,
            points,
            fire,
        });
        self.score += points;
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{ArenaGame, ArenaPlayer};

    fn arena_row() -> ArenaRow {
        ArenaRow {
            id: "a".into(),
            variant: "classic".into(),
            clock: r#"{"days":1}"#.into(),
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
            outcome: outcome.map(str::to_string),
            termination: end.map(str::to_string),
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
        let later = standings(&data, 5_000 + crate::store::MAKING_MS);
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
                let games: Vec<Played> =
                    (0..len).map(|i| kinds[code / 4usize.pow(i) % 4]).collect();
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
}
