//! Time: the server's one source of it ([`TimeSource`]), time controls ([`TimeControl`]) and
//! a game's clocks ([`Clock`]): how long each side has, whose time runs, when the server must
//! act (a flag, an abort) and how much network lag it forgives.
//!
//! The rules are lichess's (docs/server.md, "Clocks"): Fischer increment; no clock runs
//! until both sides have made their first move, and a first move not made within
//! [`TimeControl::first_move_limit_ms`] aborts the game; a move's lag is forgiven out of a
//! quota that grows with every move and is capped; a side whose time has run out loses once
//! [`GRACE_MS`] more have passed, decided by the server with no request needed.
//!
//! Every instant here is the server's game time in milliseconds ([`TimeSource::now_ms`]):
//! the wall clock less the time no instance ran (a restart is nobody's loss on time), plus
//! what a test moved it forward.

use std::sync::atomic::{AtomicI64, Ordering};

use lgame::Color;
use serde::{Deserialize, Serialize};

/// How long after a side's time runs out it loses: what a move still on its way may take.
pub const GRACE_MS: i64 = 1000;

/// What "give time" gives the opponent: 15 s in real time, a day by correspondence.
pub const GIVE_REAL_TIME_MS: i64 = 15_000;

/// How long a real-time game's opponent must have had no page open, on their turn, before
/// the other side may claim the game (a win or a draw).
pub const GONE_MS: i64 = 15_000;

const DAY_MS: i64 = 86_400_000;

/// The server's clock: every timed thing (games' clocks, seeks, pairing) reads it, so that a
/// test can move time forward instead of waiting for it.
#[derive(Debug, Default)]
pub struct TimeSource {
    /// Added to the wall clock: minus the time no instance ran, plus a test's advances.
    offset_ms: AtomicI64,
}

impl TimeSource {
    /// The wall clock, as is.
    pub fn system() -> TimeSource {
        TimeSource::default()
    }

    /// Milliseconds since the Unix epoch, by the wall clock alone.
    pub fn wall_ms() -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }

    /// Now, in game time.
    pub fn now_ms(&self) -> i64 {
        Self::wall_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves the time forward by `ms` (a test's, or the time no instance ran, taken back).
    pub fn advance(&self, ms: i64) {
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

/// A game's time control: real time (a base and a Fischer increment) or correspondence
/// (days a move). The API's `clock`: `{"initial_s": N, "increment_s": M}` or
/// `{"days": D}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum TimeControl {
    RealTime { initial_s: u32, increment_s: u32 },
    Correspondence { days: u32 },
}

/// A clock's speed, by its estimated duration (`initial + 40 × increment` seconds), as
/// lichess names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Speed {
    /// Its name, as the API writes it: `ultrabullet`, `bullet`, `blitz`, `rapid`,
    /// `classical`, `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// The bounds of a time control, as the API documents them.
pub const MIN_INITIAL_S: u32 = 15;
pub const MAX_INITIAL_S: u32 = 180 * 60;
pub const MAX_INCREMENT_S: u32 = 180;
pub const MAX_DAYS: u32 = 14;

impl TimeControl {
    /// Refuses a control out of bounds: 15 s to 180 min and an increment up to 180 s, or 1
    /// to 14 days a move.
    pub fn check(self) -> Result<TimeControl, String> {
        match self {
            TimeControl::RealTime {
                initial_s,
                increment_s,
            } => {
                if !(MIN_INITIAL_S..=MAX_INITIAL_S).contains(&initial_s) {
                    return Err(format!(
                        "initial_s {initial_s}: a clock starts with {MIN_INITIAL_S} s to \
                         {} min",
                        MAX_INITIAL_S / 60
                    ));
                }
                if increment_s > MAX_INCREMENT_S {
                    return Err(format!(
                        "increment_s {increment_s}: an increment is at most {MAX_INCREMENT_S} s"
                    ));
                }
            }
            TimeControl::Correspondence { days } => {
                if !(1..=MAX_DAYS).contains(&days) {
                    return Err(format!(
                        "days {days}: a correspondence game has 1 to {MAX_DAYS} days a move"
                    ));
                }
            }
        }
        Ok(self)
    }

    /// Its speed.
    pub fn speed(self) -> Speed {
        match self {
            TimeControl::Correspondence { .. } => Speed::Correspondence,
            TimeControl::RealTime {
                initial_s,
                increment_s,
            } => match initial_s + 40 * increment_s {
                0..30 => Speed::UltraBullet,
                30..180 => Speed::Bullet,
                180..480 => Speed::Blitz,
                480..1500 => Speed::Rapid,
                _ => Speed::Classical,
            },
        }
    }

    /// Whether the clock runs in real time (not by days).
    pub fn real_time(self) -> bool {
        matches!(self, TimeControl::RealTime { .. })
    }

    /// PGN's `TimeControl` tag: `180+2` (seconds and increment), `1/259200` (a move in so
    /// many seconds: correspondence).
    pub fn tag(self) -> String {
        match self {
            TimeControl::RealTime {
                initial_s,
                increment_s,
            } => format!("{initial_s}+{increment_s}"),
            TimeControl::Correspondence { days } => format!("1/{}", i64::from(days) * 86_400),
        }
    }

    /// How long a side has for its first move before the game is aborted: 30 s in real
    /// time, a day by correspondence.
    pub fn first_move_limit_ms(self) -> i64 {
        match self {
            TimeControl::RealTime { .. } => 30_000,
            TimeControl::Correspondence { .. } => DAY_MS,
        }
    }

    /// Each side's time at the start: the base, or the days a move.
    fn initial_ms(self) -> i64 {
        match self {
            TimeControl::RealTime { initial_s, .. } => i64::from(initial_s) * 1000,
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
        }
    }

    /// What a move's lag may be forgiven, per move: `min(1 s, estimate × 0.4 % + 0.15 s)`
    /// in real time (none by correspondence); a side's quota starts at three moves' worth and
    /// is capped at seven.
    fn lag_gain_ms(self) -> i64 {
        match self {
            TimeControl::RealTime {
                initial_s,
                increment_s,
            } => {
                let estimate_s = i64::from(initial_s) + 40 * i64::from(increment_s);
                (estimate_s * 4 + 150).min(1000)
            }
            TimeControl::Correspondence { .. } => 0,
        }
    }
}

/// A game's clocks, as stored with it (JSON in the `clock` column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    pub control: TimeControl,
    /// Each side's time at `since` (red, blue).
    pub remaining_ms: [i64; 2],
    /// When the side to move's time (or, before the first moves, its time to make its first
    /// move) began to run.
    pub since_ms: i64,
    /// Whether both sides have made their first move: the clocks run.
    pub started: bool,
    /// The lag each side may still be forgiven.
    pub quota_ms: [i64; 2],
    /// Stopped at the game's end: nobody's time runs.
    pub stopped: bool,
}

/// What the server must do about a game's clock, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// The first moves were not made in time: abort.
    Abort,
    /// `side` ran out of time (and the grace passed): it loses.
    Flag(Color),
}

/// A change to a game as its clocks count it ([`Clock::step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The side that was to move: charged the time since its turn began.
    pub turn: Color,
    /// What that side did.
    pub act: Act,
    /// When (game time).
    pub at_ms: i64,
    /// The plies played once the change is made (the clocks start at two), and whether it
    /// ended the game (they stop).
    pub plies: usize,
    pub over: bool,
}

/// What a change was to the side that was to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// It moved, with its own measure of its thinking time (none told: no lag forgiven):
    /// it earns its increment.
    Move { think_ms: Option<u64> },
    /// Anything else (an undo, an end, an offer, time given): it earns nothing.
    Other,
}

/// The clocks after a step, and the lag forgiven in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stepped {
    pub clock: Clock,
    pub forgiven_ms: i64,
}

/// The clocks as the API shows them, as of an instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockView {
    #[serde(flatten)]
    pub control: TimeControl,
    pub speed: Speed,
    /// Each side's time left, in milliseconds.
    pub red_ms: i64,
    pub blue_ms: i64,
    /// Whose time runs (`null` before both first moves and after the end).
    pub running: Option<Color>,
    /// Before both first moves: the time the side to move has left to make its first move
    /// before the game is aborted.
    pub first_move_ms: Option<i64>,
}

impl Clock {
    /// A new game's clocks at `now`: both sides with the full time, none running.
    pub fn new(control: TimeControl, now: i64) -> Clock {
        let quota = 3 * control.lag_gain_ms();
        Clock {
            control,
            remaining_ms: [control.initial_ms(); 2],
            since_ms: now,
            started: false,
            quota_ms: [quota; 2],
            stopped: false,
        }
    }

    /// When the server must act on the game if nothing else happens (the abort, or the
    /// flag of `turn` once its time and the grace have passed); `None` once it stopped.
    pub fn deadline_ms(&self, turn: Color) -> Option<i64> {
        if self.stopped {
            return None;
        }
        Some(match self.started {
            false => self.since_ms + self.control.first_move_limit_ms(),
            true => self.since_ms + self.remaining_ms[turn as usize] + GRACE_MS,
        })
    }

    /// What is due at `now` with `turn` to move, if anything.
    pub fn due(&self, turn: Color, now: i64) -> Option<Due> {
        let deadline = self.deadline_ms(turn)?;
        (now >= deadline).then_some(match self.started {
            false => Due::Abort,
            true => Due::Flag(turn),
        })
    }

    /// The clocks as of `now`, `turn` to move.
    pub fn view(&self, turn: Color, now: i64) -> ClockView {
        let running = (self.started && !self.stopped).then_some(turn);
        let left = |side: Color| {
            let at_since = self.remaining_ms[side as usize];
            match running {
                Some(r) if r == side => (at_since - (now - self.since_ms)).max(0),
                _ => at_since,
            }
        };
        let first_move_ms = (!self.started && !self.stopped)
            .then(|| (self.since_ms + self.control.first_move_limit_ms() - now).max(0));
        ClockView {
            control: self.control,
            speed: self.control.speed(),
            red_ms: left(Color::Red),
            blue_ms: left(Color::Blue),
            running,
            first_move_ms,
        }
    }

    /// The lag forgiven to `turn` for a move made at `now`, whose own measure of its
    /// thinking time is `think_ms` (none given: none forgiven): the time the server counted
    /// beyond it, out of the side's quota.
    fn forgiven_ms(&self, turn: Color, think_ms: Option<u64>, now: i64) -> i64 {
        let Some(think) = think_ms else { return 0 };
        let elapsed = (now - self.since_ms).max(0);
        let lag = (elapsed - think.min(i64::MAX as u64) as i64).max(0);
        lag.min(self.quota_ms[turn as usize])
    }

    /// Whether a move of `turn` made at `now` comes after its time ran out (the lag
    /// forgiven counted): then it is not played, and the side loses on time.
    pub fn too_late(&self, turn: Color, think_ms: Option<u64>, now: i64) -> bool {
        if !self.started || self.stopped {
            return false;
        }
        let used = (now - self.since_ms).max(0) - self.forgiven_ms(turn, think_ms, now);
        used > self.remaining_ms[turn as usize]
    }

    /// The clocks after `step`, and the lag forgiven in it (as scalachess's `Clock::step`):
    /// the side that was to move is charged the time since its turn began — less the lag
    /// forgiven if it moved — and, having moved, given its increment (or, by correspondence,
    /// its days again). Then the time of whoever is to move runs from the step; the clocks
    /// start once the game has two plies, and stop when it is over.
    pub fn step(&self, step: Step) -> Stepped {
        let Step {
            turn,
            act,
            at_ms: now,
            plies,
            over,
        } = step;
        let mut clock = self.clone();
        if self.stopped {
            // A game taken back after its end on the board (against the computer): the
            // clocks go on from now.
            clock.stopped = over;
            clock.since_ms = now;
            return Stepped {
                clock,
                forgiven_ms: 0,
            };
        }
        let i = turn as usize;
        let moved = matches!(act, Act::Move { .. });
        let forgiven_ms = match act {
            Act::Move { think_ms } if self.started => self.forgiven_ms(turn, think_ms, now),
            Act::Move { .. } | Act::Other => 0,
        };
        if self.started {
            if moved && self.control.real_time() {
                let gain = self.control.lag_gain_ms();
                clock.quota_ms[i] = (self.quota_ms[i] - forgiven_ms + gain).min(7 * gain);
            }
            let used = (now - self.since_ms).max(0) - forgiven_ms;
            let left = (self.remaining_ms[i] - used).max(0);
            clock.remaining_ms[i] = match (moved, self.control) {
                (true, TimeControl::Correspondence { .. }) => self.control.initial_ms(),
                (true, TimeControl::RealTime { increment_s, .. }) if left > 0 => {
                    left + i64::from(increment_s) * 1000
                }
                _ => left,
            };
        }
        clock.since_ms = now;
        clock.started = self.started || plies >= 2;
        clock.stopped = over;
        Stepped { clock, forgiven_ms }
    }

    /// Gives `side` more time: 15 s in real time, a day by correspondence.
    pub fn give(&mut self, side: Color) {
        self.remaining_ms[side as usize] += match self.control {
            TimeControl::RealTime { .. } => GIVE_REAL_TIME_MS,
            TimeControl::Correspondence { .. } => DAY_MS,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLITZ: TimeControl = TimeControl::RealTime {
        initial_s: 180,
        increment_s: 2,
    };

    /// `turn`'s move at `at_ms` with its thinking time `think_ms`, the game `plies` long
    /// after it and going on.
    fn moved(turn: Color, think_ms: Option<u64>, at_ms: i64, plies: usize) -> Step {
        Step {
            turn,
            act: Act::Move { think_ms },
            at_ms,
            plies,
            over: false,
        }
    }

    /// A game of `control` at 0 whose first two moves were made at once.
    fn started(control: TimeControl) -> Clock {
        let clock = Clock::new(control, 0);
        let clock = clock.step(moved(Color::Red, None, 0, 1)).clock;
        clock.step(moved(Color::Blue, None, 0, 2)).clock
    }

    #[test]
    fn speeds_follow_the_estimated_duration() {
        let rt = |initial_s, increment_s| {
            TimeControl::RealTime {
                initial_s,
                increment_s,
            }
            .speed()
        };
        assert_eq!(rt(15, 0), Speed::UltraBullet);
        assert_eq!(rt(60, 0), Speed::Bullet);
        assert_eq!(rt(120, 1), Speed::Bullet, "120 + 40 = 160 s");
        assert_eq!(rt(180, 0), Speed::Blitz);
        assert_eq!(rt(300, 3), Speed::Blitz, "420 s");
        assert_eq!(rt(600, 0), Speed::Rapid);
        assert_eq!(rt(900, 10), Speed::Rapid, "1300 s");
        assert_eq!(rt(1500, 0), Speed::Classical);
        let days = TimeControl::Correspondence { days: 3 };
        assert_eq!(days.speed(), Speed::Correspondence);
    }

    #[test]
    fn the_first_moves_are_untimed_and_abort_the_game_when_late() {
        let mut clock = Clock::new(BLITZ, 1000);
        assert_eq!(clock.deadline_ms(Color::Red), Some(31_000));
        assert_eq!(clock.due(Color::Red, 30_999), None);
        assert_eq!(clock.due(Color::Red, 31_000), Some(Due::Abort));
        // Red's first move after 20 s costs nothing; Blue has 30 s from it.
        clock = clock.step(moved(Color::Red, None, 21_000, 1)).clock;
        assert_eq!(clock.remaining_ms, [180_000, 180_000]);
        assert_eq!(clock.view(Color::Blue, 31_000).first_move_ms, Some(20_000));
        assert_eq!(clock.view(Color::Blue, 31_000).running, None);
        assert_eq!(clock.due(Color::Blue, 51_000), Some(Due::Abort));
        // Blue's first move starts Red's clock.
        clock = clock.step(moved(Color::Blue, None, 30_000, 2)).clock;
        let view = clock.view(Color::Red, 40_000);
        assert_eq!((view.red_ms, view.blue_ms), (170_000, 180_000));
        assert_eq!((view.running, view.first_move_ms), (Some(Color::Red), None));
    }

    #[test]
    fn a_move_is_charged_its_time_then_given_the_increment() {
        let mut clock = started(BLITZ);
        clock = clock.step(moved(Color::Red, None, 10_000, 3)).clock;
        assert_eq!(clock.remaining_ms, [172_000, 180_000]);
        assert_eq!(
            clock.deadline_ms(Color::Blue),
            Some(10_000 + 180_000 + GRACE_MS)
        );
        // Blue's time runs out at 190 s; it loses a grace later, not before.
        assert_eq!(clock.due(Color::Blue, 190_999), None);
        assert_eq!(
            clock.due(Color::Blue, 191_000),
            Some(Due::Flag(Color::Blue))
        );
        assert!(!clock.too_late(Color::Blue, None, 190_000));
        assert!(clock.too_late(Color::Blue, None, 190_001));
        // The end stops every clock...
        clock = clock
            .step(Step {
                over: true,
                ..moved(Color::Blue, None, 20_000, 4)
            })
            .clock;
        assert_eq!(clock.deadline_ms(Color::Red), None);
        assert_eq!(clock.view(Color::Red, 500_000).red_ms, 172_000);
        // ... until a move is taken back after it (against the computer): Red's time runs
        // again from then.
        clock = clock
            .step(Step {
                act: Act::Other,
                ..moved(Color::Red, None, 600_000, 3)
            })
            .clock;
        assert_eq!(clock.view(Color::Red, 601_000).red_ms, 171_000);
    }

    #[test]
    fn lag_is_forgiven_out_of_a_quota_that_grows_by_move_and_is_capped() {
        // 3+2: a gain of min(1 s, 260 s × 0.4 % + 0.15 s) = 1 s (1190 ms, capped); 3 s to
        // start with, 7 s at most.
        let mut clock = started(BLITZ);
        let mut forgiven;
        assert_eq!(clock.quota_ms, [3000, 3000]);
        // 5 s by the server, 4.2 s by the client: 0.8 s of lag, forgiven.
        let stepped = clock.step(moved(Color::Red, Some(4200), 5000, 3));
        (clock, forgiven) = (stepped.clock, stepped.forgiven_ms);
        assert_eq!(forgiven, 800);
        assert_eq!(clock.remaining_ms[0], 180_000 - 4200 + 2000);
        assert_eq!(clock.quota_ms[0], 3000 - 800 + 1000);
        // 10 s of lag claimed: only Blue's quota (3 s) forgiven.
        let stepped = clock.step(moved(Color::Blue, Some(0), 15_000, 4));
        (clock, forgiven) = (stepped.clock, stepped.forgiven_ms);
        assert_eq!(forgiven, 3000);
        assert_eq!(clock.remaining_ms[1], 180_000 - (10_000 - 3000) + 2000);
        assert_eq!(clock.quota_ms[1], 1000);
        // Moves without lag fill the quota up to 7 s, no more.
        let mut now = 15_000;
        for ply in 5..30 {
            now += 100;
            let turn = if ply % 2 == 1 {
                Color::Red
            } else {
                Color::Blue
            };
            clock = clock.step(moved(turn, Some(100), now, ply)).clock;
        }
        assert_eq!(clock.quota_ms, [7000, 7000]);
        // A move late by the server's count is in time if its lag is forgiven.
        let since = clock.since_ms;
        let left = clock.remaining_ms[1];
        assert!(clock.too_late(Color::Blue, None, since + left + 500));
        assert!(!clock.too_late(Color::Blue, Some(left as u64), since + left + 500));
    }

    #[test]
    fn correspondence_gives_the_days_again_after_each_move() {
        let day = DAY_MS;
        let mut clock = started(TimeControl::Correspondence { days: 2 });
        assert_eq!(clock.quota_ms, [0, 0]);
        clock = clock.step(moved(Color::Red, Some(0), day + 5, 3)).clock;
        assert_eq!(clock.remaining_ms, [2 * day, 2 * day]);
        assert_eq!(
            clock.due(Color::Blue, day + 5 + 2 * day + GRACE_MS),
            Some(Due::Flag(Color::Blue))
        );
        clock.give(Color::Blue);
        assert_eq!(clock.remaining_ms[1], 3 * day);
        let mut real = started(BLITZ);
        real.give(Color::Red);
        assert_eq!(real.remaining_ms[0], 195_000);
    }

    #[test]
    fn the_api_form_reads_both_kinds_and_nothing_else() {
        let read = |text: &str| serde_json::from_str::<TimeControl>(text);
        assert_eq!(
            read(r#"{"initial_s": 180, "increment_s": 2}"#).unwrap(),
            BLITZ
        );
        assert_eq!(
            read(r#"{"days": 3}"#).unwrap(),
            TimeControl::Correspondence { days: 3 }
        );
        assert!(read(r#"{"initial_s": 180}"#).is_err());
        assert!(read(r#"{"days": 3, "initial_s": 1}"#).is_err());
        assert!(read(r#"{"days": -1}"#).is_err());
    }
}
