//! The computers' turns: a computer to move answers after a pause (so that people see the
//! board first), two computers play on at a speed people can change, and p pauses them.

use std::time::Duration;

use lgame::Color;

use super::app::App;

/// How long a computer waits before answering a person, so the person sees the board first.
pub const REPLY_DELAY: Duration = Duration::from_millis(500);
/// How long each computer waits when two computers play each other (adjustable with + and -).
pub const WATCH_DELAY: Duration = Duration::from_millis(600);
const SLOWEST: Duration = Duration::from_millis(3000);
const FASTEST: Duration = Duration::from_millis(100);
const IDLE_POLL: Duration = Duration::from_millis(500);

impl App {
    /// Whether the computers are paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The pause between moves when two computers play.
    pub fn watch_delay(&self) -> Duration {
        self.watch_delay
    }

    /// Whether no person sits at the table.
    pub fn no_person(&self) -> bool {
        Color::ALL
            .iter()
            .all(|&c| !self.table.seated.seat(c).is_human())
    }

    fn has_computer(&self) -> bool {
        Color::ALL
            .iter()
            .any(|&c| !self.table.seated.seat(c).is_human())
    }

    fn delay(&self) -> Duration {
        if self.no_person() {
            self.watch_delay
        } else {
            REPLY_DELAY
        }
    }

    /// How long the event loop may wait for input before the next [`App::tick`].
    pub fn poll_timeout(&self) -> Duration {
        if self.table.seated.computer_to_move() && !self.paused {
            self.delay().saturating_sub(self.waited)
        } else {
            IDLE_POLL
        }
    }

    /// Lets time pass: a computer to move plays once it has waited its delay.
    pub fn tick(&mut self, elapsed: Duration) {
        if self.paused || !self.table.seated.computer_to_move() {
            self.waited = Duration::ZERO;
            return;
        }
        self.waited += elapsed;
        if self.waited < self.delay() {
            return;
        }
        self.waited = Duration::ZERO;
        let turn = self.position().turn();
        let seat = self.table.seated.seat(turn).clone();
        match self.table.seated.play_computer() {
            Some(mv) => {
                self.reset_step();
                self.after_move(format!("{turn} ({seat}) played {mv}."));
            }
            None => {
                let reason = self.table.seated.forfeit().unwrap_or("no move").to_string();
                self.error(format!("{turn} ({seat}) forfeits: {reason}"));
            }
        }
        self.sync();
    }

    /// `p`: pauses or resumes the computers.
    pub(super) fn toggle_pause(&mut self) {
        if !self.has_computer() {
            self.error("No computer plays here: nothing to pause.");
            return;
        }
        self.paused = !self.paused;
        self.waited = Duration::ZERO;
        if self.paused {
            self.info("Paused: p resumes.");
        } else {
            self.info("Resumed.");
        }
    }

    /// `+` and `-`: the speed of two computers playing each other.
    pub(super) fn change_speed(&mut self, faster: bool) {
        if !self.no_person() {
            self.error("The speed is for watching two computers.");
            return;
        }
        self.watch_delay = if faster {
            (self.watch_delay / 2).max(FASTEST)
        } else {
            (self.watch_delay * 2).min(SLOWEST)
        };
        self.info(format!(
            "One move every {} ms.",
            self.watch_delay.as_millis()
        ));
    }
}
