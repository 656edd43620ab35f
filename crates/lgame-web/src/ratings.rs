//! Ratings: Glicko-2 with lichess's parameters (`glicko.rs`, the maths the store uses too),
//! one rating per category (docs/ratings.md).
//!
//! A category is the classic game at one speed, or one of the named variants at any
//! speed. A rated game needs a time control (its speed names the classic game's category)
//! and one of those rules; any other game is casual. A rating changes at the end of each
//! rated game, from both players' ratings before it.

use lgame::Rules;

use crate::clock::{Speed, TimeControl};
pub use crate::glicko::{
    after_game, rate, Entry, Ledger, Rating, DAYS_PER_PERIOD, PROVISIONAL_DEVIATION,
    RATED_FROM_PLY, START, TAU,
};

pub(crate) mod api;
mod refusal;
mod routes;

pub use refusal::{refuse_own_rated_game, RatingsError};
pub(crate) use routes::ratings_of;
pub use routes::routes;

/// The classic game's categories, one a speed (an ultrabullet game is rated as bullet: a
/// pool of its own would be too thin to pair).
const SPEEDS: [(&str, &[Speed]); 5] = [
    ("bullet", &[Speed::UltraBullet, Speed::Bullet]),
    ("blitz", &[Speed::Blitz]),
    ("rapid", &[Speed::Rapid]),
    ("classical", &[Speed::Classical]),
    ("correspondence", &[Speed::Correspondence]),
];

/// The variants rated, each at every speed: the library's named variants but the classic
/// game, by their rules text and the category's name.
const FAMILIES: [(&str, &str); 6] = [
    ("misere", "misere"),
    ("sudden-death", "sudden-death"),
    ("neutral-required", "neutral-required"),
    ("neutrals=1", "one-neutral"),
    ("symmetry", "symmetry"),
    ("scoring", "scoring"),
];

/// Every category's name, the classic speeds first.
pub fn categories() -> impl Iterator<Item = &'static str> {
    SPEEDS
        .iter()
        .map(|(name, _)| *name)
        .chain(FAMILIES.iter().map(|(_, name)| *name))
}

/// The category a game of these rules and this clock is rated in; `None`: casual only.
pub fn category(rules: &Rules, clock: Option<TimeControl>) -> Option<&'static str> {
    let clock = clock?;
    let text = rules.to_string();
    if text == Rules::classic().to_string() {
        let speed = clock.speed();
        return SPEEDS
            .iter()
            .find(|(_, speeds)| speeds.contains(&speed))
            .map(|(name, _)| *name);
    }
    FAMILIES.iter().find_map(|(rules_text, name)| {
        let family: Rules = rules_text.parse().ok()?;
        (family.to_string() == text).then_some(*name)
    })
}

#[cfg(test)]
mod tests {
    use lgame::variants::VARIANTS;

    use super::*;

    #[test]
    fn the_classic_game_is_rated_by_speed_and_each_variant_at_every_speed() {
        let classic = Rules::classic();
        let rt = |initial_s, increment_s| {
            Some(TimeControl::RealTime {
                initial_s,
                increment_s,
            })
        };
        assert_eq!(category(&classic, rt(15, 0)), Some("bullet"));
        assert_eq!(category(&classic, rt(60, 0)), Some("bullet"));
        assert_eq!(category(&classic, rt(180, 2)), Some("blitz"));
        assert_eq!(category(&classic, rt(600, 0)), Some("rapid"));
        assert_eq!(category(&classic, rt(1800, 0)), Some("classical"));
        let days = Some(TimeControl::Correspondence { days: 3 });
        assert_eq!(category(&classic, days), Some("correspondence"));
        assert_eq!(category(&classic, None), None, "untimed: casual");
        for (rules, name) in FAMILIES {
            let rules: Rules = rules.parse().unwrap();
            assert_eq!(category(&rules, rt(60, 0)), Some(name));
            assert_eq!(category(&rules, days), Some(name));
        }
        let custom: Rules = "misere,neutrals=1".parse().unwrap();
        assert_eq!(category(&custom, rt(60, 0)), None, "custom rules: casual");
        let named: Vec<&str> = VARIANTS.iter().skip(1).map(|v| v.rules).collect();
        let rated: Vec<&str> = FAMILIES.iter().map(|(rules, _)| *rules).collect();
        assert_eq!(named, rated, "every named variant has its rating");
        assert_eq!(categories().count(), 11);
    }
}
