//! Ratings as stored: each account's rating per category (`ratings`) and every rated game's
//! change of both players' ratings (`rating_changes`), and what the store does with them.
//!
//! A rated game is one stored with a `category` (`ratings::category`). The moment its
//! result is stored (an edit whose outcome is no longer `*`), the same transaction reads
//! both players' entries, rates the game (`ratings::after_game`) and writes both entries and
//! both changes: keyed by the game, so that a game changes ratings exactly once. An aborted
//! game keeps the result `*` and so changes nothing, and so does a game that ends before
//! both sides have moved ([`crate::glicko::RATED_FROM_PLY`]).

use lgame::game::ResultToken;
use lgame::Color;

use super::sql::{args, Conn, Dialect, FromRow, Row};
use super::{Holder, Store, StoreResult};
use crate::glicko::{Entry, Rating};

/// The schema, the same on both backends: SQLite's version 8, PostgreSQL's version 5.
pub(super) const SCHEMA: &str =
    "ALTER TABLE games ADD COLUMN category TEXT;  -- rated: its category
    ALTER TABLE seeks ADD COLUMN category TEXT;       -- a rated seek's or ticket's category
    ALTER TABLE seeks ADD COLUMN provisional BOOLEAN NOT NULL DEFAULT FALSE;
    ALTER TABLE seeks ADD COLUMN rating_min BIGINT;   -- the ratings a seek's taker may have
    ALTER TABLE seeks ADD COLUMN rating_max BIGINT;
    CREATE TABLE ratings (
        user_id BIGINT NOT NULL REFERENCES users(id),
        category TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,            -- the rated games that made it
        last_ms BIGINT NOT NULL,          -- Unix milliseconds: when the last ended
        PRIMARY KEY (user_id, category)
    );
    CREATE INDEX ratings_by_category ON ratings (category, rating);
    CREATE TABLE rating_changes (
        game TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,               -- red | blue
        user_id BIGINT NOT NULL REFERENCES users(id),
        category TEXT NOT NULL,
        at_ms BIGINT NOT NULL,            -- Unix milliseconds: when the game ended
        rating_before DOUBLE PRECISION NOT NULL,
        deviation_before DOUBLE PRECISION NOT NULL,
        volatility_before DOUBLE PRECISION NOT NULL,
        rating_after DOUBLE PRECISION NOT NULL,
        deviation_after DOUBLE PRECISION NOT NULL,
        volatility_after DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, side)
    );
    CREATE INDEX rating_changes_by_user ON rating_changes (user_id, category, at_ms);";

/// One player's change of rating in one rated game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    pub game: String,
    pub side: Color,
    pub user_id: i64,
    pub category: String,
    /// Unix milliseconds: when the game ended.
    pub at_ms: i64,
    pub before: Rating,
    pub after: Rating,
}

impl RatingChange {
    /// Both players' changes in rated game `game` (Red's first) ended at `at_ms`: their
    /// ratings before it, and their entries after.
    pub fn of_game(
        game: &str,
        players: [i64; 2],
        category: &str,
        at_ms: i64,
        before: [Rating; 2],
        after: [Entry; 2],
    ) -> [RatingChange; 2] {
        let change = |i: usize, side: Color| RatingChange {
            game: game.to_string(),
            side,
            user_id: players[i],
            category: category.to_string(),
            at_ms,
            before: before[i],
            after: after[i].rating,
        };
        [change(0, Color::Red), change(1, Color::Blue)]
    }
}

/// A leaderboard's line: an account's name and entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Leader {
    pub username: String,
    pub entry: Entry,
}

/// A rated game as stored, for the recomputation: its players' accounts, its result
/// token, and when its rating changes say it ended (`None`: it has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedGame {
    pub id: String,
    pub category: String,
    pub holders: [Option<Holder>; 2],
    pub outcome: ResultToken,
    pub at_ms: Option<i64>,
    /// The plies played.
    pub plies: i64,
}

/// A rated game's category, holders and plies (`$1` its id).
const GAME_RATED: &str = "SELECT category, red_holder, blue_holder,
        (SELECT count(*) FROM moves WHERE game = $1) FROM games WHERE id = $1";

/// What a recomputation clears first.
const REPLACE_ALL: [&str; 2] = ["DELETE FROM rating_changes", "DELETE FROM ratings"];

/// Whether game `$1` has changed ratings already.
const CHANGED: &str = "SELECT count(*) FROM rating_changes WHERE game = $1";

/// An entry's columns.
const ENTRY: &str = "rating, deviation, volatility, games, last_ms";

fn entry_sql() -> String {
    format!("SELECT {ENTRY} FROM ratings WHERE user_id = $1 AND category = $2")
}

fn ratings_of_sql() -> String {
    format!("SELECT category, {ENTRY} FROM ratings WHERE user_id = $1 ORDER BY category")
}

fn all_ratings_sql() -> String {
    format!("SELECT user_id, category, {ENTRY} FROM ratings")
}

const LEADERBOARD: &str = "SELECT u.username, r.rating, r.deviation, r.volatility,
        r.games, r.last_ms
     FROM ratings r JOIN users u ON u.id = r.user_id
     WHERE r.category = $1 AND NOT u.disabled AND NOT u.bot AND (r.deviation < $2) = $5
       AND r.last_ms >= $3
     ORDER BY r.rating DESC, u.username_key LIMIT $4";

const UPSERT_ENTRY: &str = "INSERT INTO ratings (user_id, category, rating,
        deviation, volatility, games, last_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (user_id, category) DO UPDATE SET rating = excluded.rating,
        deviation = excluded.deviation, volatility = excluded.volatility,
        games = excluded.games, last_ms = excluded.last_ms";

const INSERT_CHANGE: &str = "INSERT INTO rating_changes (game, side, user_id,
        category, at_ms, rating_before, deviation_before, volatility_before, rating_after,
        deviation_after, volatility_after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// A change's columns.
const CHANGE: &str = "game, side, user_id, category, at_ms, rating_before, deviation_before,
    volatility_before, rating_after, deviation_after, volatility_after";

fn history_sql() -> String {
    format!("SELECT {CHANGE} FROM rating_changes WHERE user_id = $1 ORDER BY at_ms, game")
}

fn game_ratings_sql() -> String {
    format!("SELECT {CHANGE} FROM rating_changes WHERE game = $1 ORDER BY side DESC")
}

const RATED_GAMES: &str = "SELECT g.id, g.category, g.red_holder, g.blue_holder,
        g.outcome, (SELECT min(c.at_ms) FROM rating_changes c WHERE c.game = g.id),
        (SELECT count(*) FROM moves m WHERE m.game = g.id)
     FROM games g WHERE g.category IS NOT NULL";

const RATED_PLAYING: &str = "SELECT id FROM games
     WHERE category IS NOT NULL AND outcome = '*' AND termination IS NULL
       AND (red_holder = $1 OR blue_holder = $1)";

/// An entry from its columns, from column `first` on (in [`ENTRY`]'s order).
fn entry_at(r: &Row, first: usize) -> StoreResult<Entry> {
    Ok(Entry {
        rating: rating_at(r, first)?,
        games: r.get(first + 3)?,
        last_ms: r.get(first + 4)?,
    })
}

/// A rating from three columns, from column `first` on.
fn rating_at(r: &Row, first: usize) -> StoreResult<Rating> {
    Ok(Rating {
        rating: r.get(first)?,
        deviation: r.get(first + 1)?,
        volatility: r.get(first + 2)?,
    })
}

impl FromRow for Entry {
    fn from_row(r: &Row) -> StoreResult<Entry> {
        entry_at(r, 0)
    }
}

/// A change read back, in [`CHANGE`]'s order.
impl FromRow for RatingChange {
    fn from_row(r: &Row) -> StoreResult<RatingChange> {
        Ok(RatingChange {
            game: r.get(0)?,
            side: r.get(1)?,
            user_id: r.get(2)?,
            category: r.get(3)?,
            at_ms: r.get(4)?,
            before: rating_at(r, 5)?,
            after: rating_at(r, 8)?,
        })
    }
}

impl FromRow for Leader {
    fn from_row(r: &Row) -> StoreResult<Leader> {
        Ok(Leader {
            username: r.get(0)?,
            entry: entry_at(r, 1)?,
        })
    }
}

impl FromRow for RatedGame {
    fn from_row(r: &Row) -> StoreResult<RatedGame> {
        Ok(RatedGame {
            id: r.get(0)?,
            category: r.get(1)?,
            holders: [r.get(2)?, r.get(3)?],
            outcome: r.get(4)?,
            at_ms: r.get(5)?,
            plies: r.get(6)?,
        })
    }
}

/// Rates game `id` if its result `outcome` ends a rated game that has not been rated yet:
/// both entries and both changes written in the caller's transaction, dated `now_ms`.
pub(super) async fn rate_end(
    c: &mut dyn Conn,
    id: &str,
    outcome: ResultToken,
    now_ms: i64,
) -> StoreResult<()> {
    if outcome == ResultToken::Unfinished {
        return Ok(());
    }
    let game = c.query_one(GAME_RATED, &args![id]).await?;
    let holders: [Option<Holder>; 2] = [game.get(1)?, game.get(2)?];
    let players = holders.map(|h| h?.account());
    let (Some(category), Some((players, result))) = (
        game.get::<Option<String>>(0)?,
        crate::glicko::rated(players, outcome, game.get(3)?),
    ) else {
        return Ok(());
    };
    if c.dialect() == Dialect::Postgres {
        // Two instances ending two games of one player at once rate them one after the
        // other. (SQLite's one writer does.)
        c.query(
            "SELECT id FROM users WHERE id = $1 OR id = $2 ORDER BY id FOR UPDATE",
            &args![players[0], players[1]],
        )
        .await?;
    }
    let rated: i64 = c.query_one(CHANGED, &args![id]).await?.get(0)?;
    if rated > 0 {
        return Ok(());
    }
    let mut entries = [None, None];
    for (entry, player) in entries.iter_mut().zip(players) {
        *entry = c.row(&entry_sql(), &args![player, &category]).await?;
    }
    let (at_ms, before, after) = crate::glicko::rate_end(entries, result, now_ms);
    for (player, e) in players.into_iter().zip(after) {
        write_entry(c, player, &category, &e).await?;
    }
    for change in &RatingChange::of_game(id, players, &category, at_ms, before, after) {
        write_change(c, change).await?;
    }
    Ok(())
}

/// Writes account `player`'s entry in `category`.
async fn write_entry(c: &mut dyn Conn, player: i64, category: &str, e: &Entry) -> StoreResult<()> {
    let r = e.rating;
    let row = args![
        player,
        category,
        r.rating,
        r.deviation,
        r.volatility,
        e.games,
        e.last_ms
    ];
    c.execute(UPSERT_ENTRY, &row).await?;
    Ok(())
}

/// Writes one player's change in one game.
async fn write_change(c: &mut dyn Conn, change: &RatingChange) -> StoreResult<()> {
    let (before, after) = (change.before, change.after);
    let row = args![
        &change.game,
        change.side,
        change.user_id,
        &change.category,
        change.at_ms,
        before.rating,
        before.deviation,
        before.volatility,
        after.rating,
        after.deviation,
        after.volatility
    ];
    c.execute(INSERT_CHANGE, &row).await?;
    Ok(())
}

/// What the store keeps of ratings.
impl Store {
    /// Replaces every entry and every change by these, in one transaction (a
    /// recomputation: `admin::recompute_ratings`).
    pub async fn replace_ratings(
        &self,
        entries: &[(i64, String, Entry)],
        changes: &[RatingChange],
    ) -> StoreResult<()> {
        let (entries, changes) = (entries.to_vec(), changes.to_vec());
        transaction!(self.write, |c| {
            for sql in REPLACE_ALL {
                c.execute(sql, &[]).await?;
            }
            for (player, category, entry) in &entries {
                write_entry(c, *player, category, entry).await?;
            }
            for change in &changes {
                write_change(c, change).await?;
            }
            Ok(())
        })
        .await
    }

    /// Account `user_id`'s entries, by category.
    pub async fn ratings_of(&self, user_id: i64) -> StoreResult<Vec<(String, Entry)>> {
        transaction!(self.read, |c| {
            let rows = c.query(&ratings_of_sql(), &args![user_id]).await?;
            rows.iter()
                .map(|r| Ok((r.get(0)?, entry_at(r, 1)?)))
                .collect()
        })
        .await
    }

    /// Account `user_id`'s entry in `category`, if it has played a rated game in it.
    pub async fn rating_entry(&self, user_id: i64, category: &str) -> StoreResult<Option<Entry>> {
        self.select_one(entry_sql(), args![user_id, category]).await
    }

    /// Account `user_id`'s changes in every category, oldest first.
    pub async fn rating_history(&self, user_id: i64) -> StoreResult<Vec<RatingChange>> {
        self.select(history_sql(), args![user_id]).await
    }

    /// Game `id`'s changes (none while it goes on, or if it is casual).
    pub async fn game_ratings(&self, id: &str) -> StoreResult<Vec<RatingChange>> {
        self.select(game_ratings_sql(), args![id]).await
    }

    /// The best `limit` accounts in `category` not disabled whose deviation is under
    /// `deviation` (`established`; else at or over it: the provisional) and whose last rated
    /// game ended at or after `since_ms`, best first.
    pub async fn leaderboard(
        &self,
        category: &str,
        deviation: f64,
        since_ms: i64,
        limit: i64,
        established: bool,
    ) -> StoreResult<Vec<Leader>> {
        let asked = args![category, deviation, since_ms, limit, established];
        self.select(LEADERBOARD, asked).await
    }

    /// Every stored rated game, in no particular order.
    pub async fn rated_games(&self) -> StoreResult<Vec<RatedGame>> {
        self.select(RATED_GAMES, []).await
    }

    /// Every stored entry: account, category, entry.
    pub async fn all_ratings(&self) -> StoreResult<Vec<(i64, String, Entry)>> {
        transaction!(self.read, |c| {
            let rows = c.query(&all_ratings_sql(), &[]).await?;
            rows.iter()
                .map(|r| Ok((r.get(0)?, r.get(1)?, entry_at(r, 2)?)))
                .collect()
        })
        .await
    }

    /// The rated games holder `holder` plays that go on (no result yet, not aborted).
    pub async fn rated_games_playing(&self, holder: &Holder) -> StoreResult<Vec<String>> {
        self.select(RATED_PLAYING, args![holder]).await
    }
}

/// Ratings written as games end, exercised the same way on SQLite and on PostgreSQL: 1,000
/// random games, rated or not, and the recomputation from the stored games equal to what
/// was stored as they ended.
#[cfg(test)]
mod both_backends {
    use std::collections::BTreeMap;

    use lgame_test_support::backends::Backend as Db;
    use lgame_test_support::{on_both_backends, TempDir};

    use crate::clock::TimeSource;
    use crate::database::Database;
    use crate::glicko::PROVISIONAL_DEVIATION;
    use crate::store::*;

    /// A small random number generator of the test's own (xorshift), seeded.
    struct Dice(u64);

    impl Dice {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn game(id: &str, holders: [i64; 2], category: Option<&str>) -> GameRow {
        GameRow {
            id: id.into(),
            header: "[Variant \"classic\"]\n\n*\n".into(),
            seats: ["human".into(), "human".into()],
            token_hashes: [None, None],
            seed: 1,
            end: None,
            requests: Requests::default(),
            rematch: None,
            rematch_of: None,
            holders: holders.map(|h| Some(Holder::Account(h))),
            invites: [None, None],
            names: [None, None],
            bots: [false, false],
            arena: None,
            created: None,
            variant: Some("classic".into()),
            category: category.map(str::to_string),
            version: 0,
            clock: StoredClock::default(),
        }
    }

    fn end(id: &str, version: i64, termination: &str, result: &str) -> Edit {
        Edit {
            id: id.into(),
            version,
            change: StoredChange::End {
                termination: lgame::game::Termination::from_name(termination).unwrap(),
                result: result.parse().unwrap(),
            },
            requests: Requests::default(),
            outcome: result.parse().unwrap(),
            clock: StoredClock::default(),
            at_ms: TimeSource::wall_ms(),
        }
    }

    fn ratings_written_at_each_end_are_the_recomputation_of_the_stored_games(db: Db) {
        let dir = TempDir::new("store-ratings");
        let database: Database = db.database(&dir).parse().unwrap();
        let store = database.open(Synchronous::Normal).unwrap();
        let users: Vec<i64> = (0..12)
            .map(|i| {
                let user = NewUser {
                    username: format!("player{i}"),
                    key: format!("player{i}"),
                    password_hash: "x".into(),
                    email: None,
                };
                wait(store.create_user(&user, 0)).unwrap().unwrap()
            })
            .collect();
        // One of them a bot (before its first game): rated as anyone, on no leaderboard.
        let bot = users[11];
        assert!(wait(store.make_bot(bot)).unwrap());
        let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
        // The test's own tally: the finished rated games of each account and category.
        let mut tally: BTreeMap<(i64, String), u32> = BTreeMap::new();
        let mut rated = 0;
        for n in 0..1000 {
            let id = format!("{n:016x}");
            let red = users[dice.below(12) as usize];
            let mut blue = users[dice.below(12) as usize];
            if blue == red {
                blue = users[(users.iter().position(|u| *u == red).unwrap() + 1) % 12];
            }
            // Mostly rated, in a few categories; some casual, some aborted.
            let category = ["blitz", "blitz", "bullet", "misere", "casual"][dice.below(5) as usize];
            let category = (category != "casual").then_some(category);
            // Most games with both sides' moves; some ended before (then never rated).
            let plies = [0, 1, 2, 2, 3, 4][dice.below(6) as usize];
            let moves: Vec<String> = (0..plies).map(|p| format!("move{p}")).collect();
            wait(store.insert_game(
                &game(&id, [red, blue], category),
                &moves,
                ResultToken::Unfinished,
                TimeSource::wall_ms(),
            ))
            .unwrap();
            let (termination, result) = match dice.below(10) {
                0 => ("aborted", "*"),
                1..=4 => ("resignation", "1-0"),
                5..=7 => ("resignation", "0-1"),
                _ => ("agreement", "1/2-1/2"),
            };
            store
                .queue(end(&id, 0, termination, result))
                .wait()
                .unwrap();
            // A later change of a finished game does not rate it again.
            if dice.below(4) == 0 {
                let mut again = end(&id, 1, termination, result);
                again.change = StoredChange::Requests;
                store.queue(again).wait().unwrap();
            }
            let real = plies >= crate::glicko::RATED_FROM_PLY;
            if let (Some(category), true, true) = (category, result != "*", real) {
                rated += 1;
                for player in [red, blue] {
                    *tally.entry((player, category.to_string())).or_default() += 1;
                }
            }
        }
        let check = crate::admin::check_ratings(&store).unwrap();
        assert_eq!(check.problems, Vec::<String>::new());
        assert_eq!((check.games, check.entries), (rated, tally.len()));
        let stored = wait(store.all_ratings()).unwrap();
        let counted: BTreeMap<(i64, String), u32> = stored
            .iter()
            .map(|(user, category, entry)| ((*user, category.clone()), entry.games))
            .collect();
        assert_eq!(counted, tally);
        // Each game's two changes, each player's history in order, ending at their entry.
        for (user, category, entry) in &stored {
            let history: Vec<RatingChange> = wait(store.rating_history(*user))
                .unwrap()
                .into_iter()
                .filter(|c| c.category == *category)
                .collect();
            assert_eq!(history.len() as u32, entry.games);
            assert_eq!(history.last().unwrap().after, entry.rating);
            assert!(history.windows(2).all(|w| w[0].at_ms < w[1].at_ms));
            for change in &history {
                let both = wait(store.game_ratings(&change.game)).unwrap();
                assert_eq!(both.len(), 2);
                assert!(both.iter().any(|c| c == change));
            }
        }

        // The leaderboard: the established, active accounts not disabled, best first; and
        // beside it the provisional ones.
        let list = |since_ms, established| {
            wait(store.leaderboard("blitz", PROVISIONAL_DEVIATION, since_ms, 100, established))
                .unwrap()
        };
        let board = |since_ms| list(since_ms, true);
        let expected_of = |established: bool| {
            let mut expected: Vec<(f64, String)> = stored
                .iter()
                .filter(|(user, c, e)| {
                    c == "blitz"
                        && (e.rating.deviation < PROVISIONAL_DEVIATION) == established
                        && *user != bot
                })
                .map(|(user, _, e)| {
                    (
                        e.rating.rating,
                        format!("player{}", users.iter().position(|u| u == user).unwrap()),
                    )
                })
                .collect();
            expected.sort_by(|a, b| b.0.total_cmp(&a.0));
            expected
        };
        let expected = expected_of(true);
        assert!(expected.len() >= 2, "{expected:?}");
        let provisional: Vec<(f64, String)> = list(0, false)
            .into_iter()
            .map(|l| (l.entry.rating.rating, l.username))
            .collect();
        assert_eq!(provisional, expected_of(false));
        let bot_established = stored.iter().any(|(user, c, e)| {
            *user == bot && c == "blitz" && e.rating.deviation < PROVISIONAL_DEVIATION
        });
        assert!(
            bot_established,
            "the bot would be on the board but for being a bot"
        );
        let shown: Vec<(f64, String)> = board(0)
            .into_iter()
            .map(|l| (l.entry.rating.rating, l.username))
            .collect();
        assert_eq!(shown, expected);
        let best = &expected[0].1;
        let id = users[best["player".len()..].parse::<usize>().unwrap()];
        wait(store.change_user(id, &UserChange::Disabled(true))).unwrap();
        assert!(board(0).iter().all(|l| l.username != *best));
        assert_eq!(board(0).len(), expected.len() - 1);
        assert!(board(i64::MAX).is_empty());
        // A disabled account's games and ratings stay: the check still holds.
        assert!(crate::admin::check_ratings(&store)
            .unwrap()
            .problems
            .is_empty());
        // A closed account's ratings and changes are erased; its games still count for
        // its opponents, and the check still holds.
        let closed = *users.iter().find(|u| **u != id).unwrap();
        wait(store.delete_user(closed)).unwrap();
        assert!(wait(store.ratings_of(closed)).unwrap().is_empty());
        assert!(wait(store.rating_history(closed)).unwrap().is_empty());
        let check = crate::admin::check_ratings(&store).unwrap();
        assert_eq!(check.problems, Vec::<String>::new());
        assert_eq!(check.games, rated);
        // And it fails when a stored rating is not the games' (changed behind its back).
        if db == Db::Sqlite {
            let conn = rusqlite::Connection::open(dir.db()).unwrap();
            let changed = conn
                .execute(
                    "UPDATE ratings SET rating = rating + 1e-9 WHERE user_id = ?1",
                    [id],
                )
                .unwrap();
            assert!(changed >= 1);
            let problems = crate::admin::check_ratings(&store).unwrap().problems;
            assert_eq!(problems.len(), changed, "{problems:?}");
        }
    }

    on_both_backends!(ratings_written_at_each_end_are_the_recomputation_of_the_stored_games);
}
