//! Arena tournaments' scoring, as lichess's arena scores (docs/ratings.md, "Arena
//! scoring"): 2 points a win, 1 a draw, 0 a loss; after two wins in a row a player is on a
//! streak and each game's points double until a game is not won. Against draw farming (the
//! L game's perfect play draws): a draw before ply [`EARLY_DRAW_PLIES`] scores nothing,
//! and a draw right after a draw scores nothing.

use serde::Serialize;

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
