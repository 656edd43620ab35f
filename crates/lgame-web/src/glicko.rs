//! Glicko-2 with lichess's parameters, computed by the `skillratings` crate: a rating, a
//! player's entry in one category, which rated game's end changes ratings and its effect on
//! both players (docs/ratings.md).
//! Pure maths below the store, which rates a game's end in the transaction that stores it
//! (`store/ratings.rs`), and the ratings feature (`ratings.rs`) use it alike.
//!
//! Each game is its own rating period, so a result counts at once, not in a batch. Before a
//! game, a player's deviation grows by one Glicko-2 period of inactivity for every
//! [`DAYS_PER_PERIOD`] days since their last rated game in the category.

use lgame::game::{GameResult, ResultToken};
use serde::Serialize;
use skillratings::glicko2::{decay_deviation, glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A new player's rating, deviation and volatility (lichess's).
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 500.0,
    volatility: 0.09,
};

/// Glicko-2's system constant τ (lichess's).
pub const TAU: f64 = 0.75;

/// A rating is provisional while its deviation is this or more (shown with "?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A rated game changes ratings only once both sides have moved (as on lichess): this many
/// plies. Before, a resignation, an abort or a flag leaves the ratings alone, so that two
/// accounts cannot farm a rating with games nobody played.
pub const RATED_FROM_PLY: i64 = 2;

/// Whether a rated game's end changes ratings: between two accounts (`players`, Red's
/// first), its result stored (an aborted game's is `*`) after both sides moved (`plies`).
/// Its players and result, if it does.
pub fn rated(
    players: [Option<i64>; 2],
    outcome: ResultToken,
    plies: i64,
) -> Option<([i64; 2], GameResult)> {
    let players = [players[0]?, players[1]?];
    let ResultToken::Finished(result) = outcome else {
        return None;
    };
    (plies >= RATED_FROM_PLY && players[0] != players[1]).then_some((players, result))
}

/// lichess's bounds: the deviation stays within 45–500, the volatility at most 0.1.
const DEVIATION_BOUNDS: (f64, f64) = (45.0, 500.0);
const MAX_VOLATILITY: f64 = 0.1;

/// Days of inactivity that make one Glicko-2 rating period: lichess counts 0.21436 periods
/// a day.
pub const DAYS_PER_PERIOD: f64 = 1.0 / 0.21436;

const DAY_MS: f64 = 86_400_000.0;

/// A player's rating in one category.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Whether the rating is still provisional.
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating after `idle_ms` without a rated game in its category: one period of
    /// inactivity for every whole [`DAYS_PER_PERIOD`] days. The crate's inactivity step
    /// stops at a deviation of 350, so a deviation above that (a new player's) stays.
    pub fn after_idle(self, idle_ms: i64) -> Rating {
        let periods = (idle_ms.max(0) as f64 / DAY_MS / DAYS_PER_PERIOD).floor() as u64;
        let mut rating = self.glicko();
        for _ in 0..periods.min(10_000) {
            let decayed = decay_deviation(&rating);
            if decayed.deviation <= rating.deviation {
                break;
            }
            rating = decayed;
        }
        Rating::from(rating)
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        let (low, high) = DEVIATION_BOUNDS;
        Rating {
            rating: r.rating,
            deviation: r.deviation.clamp(low, high),
            volatility: r.volatility.min(MAX_VOLATILITY),
        }
    }
}

/// Both players' ratings after a rated game, from their ratings before it (inactivity
/// already counted: [`Rating::after_idle`]).
pub fn rate(red: Rating, blue: Rating, result: GameResult) -> (Rating, Rating) {
    let outcome = match result {
        GameResult::RedWins => Outcomes::WIN,
        GameResult::BlueWins => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (red, blue) = glicko2(&red.glicko(), &blue.glicko(), &outcome, &config);
    (Rating::from(red), Rating::from(blue))
}

/// A player's standing in one category: the rating, how many rated games made it, and
/// when the last ended (Unix milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Entry {
    pub rating: Rating,
    pub games: u32,
    pub last_ms: i64,
}

impl Entry {
    /// The rating a game ending at `at_ms` starts from: a new player's, or the entry's
    /// widened by the time since its last game.
    pub fn before(entry: Option<Entry>, at_ms: i64) -> Rating {
        entry.map_or(START, |e| e.rating.after_idle(at_ms - e.last_ms))
    }
}

/// A rated game's effect on both players: the ratings it started from and their entries
/// after it, Red's first. The one rule both the server (as a game ends) and the
/// recomputation from stored games ([`Ledger`]) follow.
pub fn after_game(
    entries: [Option<Entry>; 2],
    result: GameResult,
    at_ms: i64,
) -> ([Rating; 2], [Entry; 2]) {
    let before = entries.map(|e| Entry::before(e, at_ms));
    let (red, blue) = rate(before[0], before[1], result);
    let games = entries.map(|e| e.map_or(0, |e| e.games) + 1);
    let after = [
        Entry {
            rating: red,
            games: games[0],
            last_ms: at_ms,
        },
        Entry {
            rating: blue,
            games: games[1],
            last_ms: at_ms,
        },
    ];
    (before, after)
}

/// A rated game's end as the server rates it ([`after_game`]), with the instant it counts
/// as ended: `now_ms`, or just after either player's last rated game if that is later
/// (clocks of two instances disagree; two games end in one millisecond), so that each
/// player's games are in the order of their instants, as the recomputation takes them.
pub fn rate_end(
    entries: [Option<Entry>; 2],
    result: GameResult,
    now_ms: i64,
) -> (i64, [Rating; 2], [Entry; 2]) {
    let at_ms = entries
        .iter()
        .flatten()
        .map(|e| e.last_ms + 1)
        .fold(now_ms, i64::max);
    let (before, after) = after_game(entries, result, at_ms);
    (at_ms, before, after)
}

/// Every player's entries, built by rating games one after another in the order they
/// ended: the recomputation that the stored ratings must equal.
#[derive(Debug, Default)]
pub struct Ledger {
    entries: std::collections::BTreeMap<(i64, &'static str), Entry>,
}

impl Ledger {
    /// Rates one game of account `players[0]` (Red) against `players[1]` (Blue) in
    /// `category`, ended at `at_ms`; answers what [`after_game`] does.
    pub fn rate(
        &mut self,
        players: [i64; 2],
        category: &'static str,
        result: GameResult,
        at_ms: i64,
    ) -> ([Rating; 2], [Entry; 2]) {
        let entries = players.map(|p| self.entries.get(&(p, category)).copied());
        let (before, after) = after_game(entries, result, at_ms);
        for (player, entry) in players.into_iter().zip(after) {
            self.entries.insert((player, category), entry);
        }
        (before, after)
    }

    /// Account `player`'s entry in `category`, if they played a rated game in it.
    pub fn entry(&self, player: i64, category: &str) -> Option<Entry> {
        self.entries
            .iter()
            .find(|((p, c), _)| *p == player && *c == category)
            .map(|(_, e)| *e)
    }

    /// Every entry, by account and category.
    pub fn entries(&self) -> impl Iterator<Item = (i64, &'static str, Entry)> + '_ {
        self.entries.iter().map(|((p, c), e)| (*p, *c, *e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glicko-2 written out from Glickman's "Example of the Glicko-2 system" (2013), step
    /// by step, for one player's rating period: the independent computation the crate's
    /// answers are checked against.
    fn glickman(player: Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
        const SCALE: f64 = 173.7178;
        let mu = (player.rating - 1500.0) / SCALE;
        let phi = player.deviation / SCALE;
        let sigma = player.volatility;
        let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI.powi(2))).sqrt();
        let e = |mu: f64, mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        let opponents: Vec<(f64, f64, f64)> = games
            .iter()
            .map(|(o, s)| ((o.rating - 1500.0) / SCALE, o.deviation / SCALE, *s))
            .collect();
        let v = 1.0
            / opponents
                .iter()
                .map(|&(mu_j, phi_j, _)| {
                    let e = e(mu, mu_j, phi_j);
                    g(phi_j).powi(2) * e * (1.0 - e)
                })
                .sum::<f64>();
        let sum: f64 = opponents
            .iter()
            .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - e(mu, mu_j, phi_j)))
            .sum();
        let delta = v * sum;
        // Step 5: the new volatility by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 1e-9 {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                (big_a, f_a) = (big_b, f_b);
            } else {
                f_a /= 2.0;
            }
            (big_b, f_b) = (big_c, f_c);
        }
        let sigma_new = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: SCALE * mu_new + 1500.0,
            deviation: SCALE * phi_new,
            volatility: sigma_new,
        }
    }

    fn close(a: Rating, b: Rating, what: &str) {
        assert!(
            (a.rating - b.rating).abs() < 1e-4
                && (a.deviation - b.deviation).abs() < 1e-4
                && (a.volatility - b.volatility).abs() < 1e-7,
            "{what}: {a:?} against {b:?}"
        );
    }

    fn r(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    #[test]
    fn the_independent_glicko2_gives_glickmans_worked_example() {
        let player = r(1500.0, 200.0, 0.06);
        let games = [
            (r(1400.0, 30.0, 0.06), 1.0),
            (r(1550.0, 100.0, 0.06), 0.0),
            (r(1700.0, 300.0, 0.06), 0.0),
        ];
        let after = glickman(player, &games, 0.5);
        // The paper's figures: r' = 1464.06, RD' = 151.52, σ' = 0.05999.
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_sequence_of_games_rates_as_glicko2_computed_independently() {
        // Red: a new player through a win, a draw and a loss against established and
        // provisional opponents; each game's opponent is rated too.
        let opponents = [
            (r(1700.0, 60.0, 0.06), GameResult::RedWins),
            (r(1500.0, 500.0, 0.09), GameResult::Draw),
            (r(1400.0, 200.0, 0.08), GameResult::BlueWins),
            (r(2100.0, 45.0, 0.05), GameResult::RedWins),
            (r(1000.0, 350.0, 0.09), GameResult::Draw),
        ];
        let mut red = START;
        for (i, (blue, result)) in opponents.into_iter().enumerate() {
            let score = match result {
                GameResult::RedWins => 1.0,
                GameResult::Draw => 0.5,
                GameResult::BlueWins => 0.0,
            };
            let (red_after, blue_after) = rate(red, blue, result);
            close(
                red_after,
                glickman(red, &[(blue, score)], TAU),
                &format!("red, game {i}"),
            );
            close(
                blue_after,
                glickman(blue, &[(red, 1.0 - score)], TAU),
                &format!("blue, game {i}"),
            );
            red = red_after;
        }
        assert!(
            red.deviation < 300.0,
            "five games narrow a new player's deviation: {red:?}"
        );
    }

    #[test]
    fn a_rating_is_provisional_until_its_deviation_is_under_110() {
        assert!(START.provisional());
        assert!(r(1500.0, 110.0, 0.09).provisional());
        assert!(!r(1500.0, 109.9, 0.09).provisional());
    }

    #[test]
    fn inactivity_widens_the_deviation_a_period_at_a_time_up_to_350() {
        let established = r(1800.0, 60.0, 0.06);
        let day = 86_400_000;
        assert_eq!(
            established.after_idle(4 * day),
            established,
            "under a period"
        );
        let one = established.after_idle(5 * day);
        let scale: f64 = 173.7178;
        let expected = ((60.0 / scale).powi(2) + 0.06f64.powi(2)).sqrt() * scale;
        assert!((one.deviation - expected).abs() < 1e-9, "{one:?}");
        let ten = established.after_idle(47 * day);
        assert!(ten.deviation > one.deviation);
        let years = established.after_idle(11_000 * day);
        assert!((years.deviation - 350.0).abs() < 1e-9, "{years:?}");
        assert_eq!(
            START.after_idle(3_650 * day),
            START,
            "a new player's 500 stays"
        );
        assert_eq!(years.rating, 1800.0);
    }

    #[test]
    fn a_thousand_random_games_rate_as_the_steps_written_out() {
        // A small deterministic generator: the games' players, categories, results and
        // gaps (up to three weeks, so that inactivity counts).
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let names = ["bullet", "blitz", "rapid"];
        let mut ledger = Ledger::default();
        let mut expected: std::collections::HashMap<(i64, &str), (Rating, i64, u32)> =
            Default::default();
        let mut now = 0i64;
        for _ in 0..1000 {
            now += next(21 * 86_400_000) as i64;
            let red = next(12) as i64;
            let blue = (red + 1 + next(11) as i64) % 12;
            let category = names[next(3) as usize];
            let (result, score) = match next(3) {
                0 => (GameResult::RedWins, 1.0),
                1 => (GameResult::Draw, 0.5),
                _ => (GameResult::BlueWins, 0.0),
            };
            let (before, after) = ledger.rate([red, blue], category, result, now);
            // The test's own reckoning: inactivity as Glicko-2's step 6 for each whole
            // period (to the crate's ceiling of 350), then Glickman's steps, then the bounds.
            let idle = |player: i64| match expected.get(&(player, category)) {
                None => START,
                Some(&(rating, last, _)) => {
                    let periods = ((now - last) as f64 / 86_400_000.0 * 0.21436).floor();
                    let scale: f64 = 173.7178;
                    let phi2 =
                        (rating.deviation / scale).powi(2) + periods * rating.volatility.powi(2);
                    let widened = (phi2.sqrt() * scale).min(350.0).max(rating.deviation);
                    Rating {
                        deviation: widened,
                        ..rating
                    }
                }
            };
            let (red_before, blue_before) = (idle(red), idle(blue));
            close(before[0], red_before, "red before");
            close(before[1], blue_before, "blue before");
            let bound = |r: Rating| Rating {
                deviation: r.deviation.clamp(45.0, 500.0),
                volatility: r.volatility.min(0.1),
                ..r
            };
            let red_after = bound(glickman(red_before, &[(blue_before, score)], TAU));
            let blue_after = bound(glickman(blue_before, &[(red_before, 1.0 - score)], TAU));
            close(after[0].rating, red_after, "red after");
            close(after[1].rating, blue_after, "blue after");
            for (player, rating) in [(red, red_after), (blue, blue_after)] {
                let games = expected.get(&(player, category)).map_or(0, |e| e.2) + 1;
                expected.insert((player, category), (rating, now, games));
            }
        }
        assert_eq!(ledger.entries().count(), expected.len());
        for (player, category, entry) in ledger.entries() {
            let (rating, last, games) = expected[&(player, category)];
            close(entry.rating, rating, "the ledger's entry");
            assert_eq!((entry.last_ms, entry.games), (last, games));
            assert_eq!(ledger.entry(player, category), Some(entry));
        }
    }
}
