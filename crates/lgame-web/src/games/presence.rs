//! Who is here: the pages (WebSockets with a side's token) open on a game, counted by this
//! instance for its own sockets, and, on a database other instances share, as the others
//! tell (`peers.rs`). An instance tells again every [`RETELL`] while it has pages open, so
//! what another instance said is forgotten after [`LIFETIME`] without news (it stopped).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use lgame::Color;

/// How often an instance tells the others again of the pages it has open.
pub const RETELL: Duration = Duration::from_secs(10);

/// How long what another instance told holds without news.
pub const LIFETIME: Duration = Duration::from_secs(30);

/// The pages open per side, here and on the other instances.
#[derive(Debug, Clone, Default)]
pub struct Presence {
    here: [u32; 2],
    elsewhere: HashMap<String, ([u32; 2], Instant)>,
}

impl Presence {
    /// A page of `side` opened here (`joined`) or closed.
    pub fn here_changed(&mut self, side: Color, joined: bool) {
        let count = &mut self.here[side as usize];
        *count = if joined {
            count.saturating_add(1)
        } else {
            count.saturating_sub(1)
        };
    }

    /// The pages open here, per side (what this instance tells the others).
    pub fn here(&self) -> [u32; 2] {
        self.here
    }

    /// What another instance told: the pages it has open, per side (none: forgotten).
    pub fn told(&mut self, instance: &str, counts: [u32; 2]) {
        if counts == [0, 0] {
            self.elsewhere.remove(instance);
        } else {
            self.elsewhere
                .insert(instance.to_string(), (counts, Instant::now()));
        }
    }

    /// Forgets what instances told more than [`LIFETIME`] ago; whether anything was.
    pub fn expire(&mut self) -> bool {
        let before = self.elsewhere.len();
        self.elsewhere
            .retain(|_, (_, told)| told.elapsed() < LIFETIME);
        self.elsewhere.len() != before
    }

    /// Whether a page of `side` is open anywhere.
    pub fn present(&self, side: Color) -> bool {
        let i = side as usize;
        self.here[i] > 0
            || self
                .elsewhere
                .values()
                .any(|(counts, told)| counts[i] > 0 && told.elapsed() < LIFETIME)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_present_while_a_page_is_open_here_or_told_of_elsewhere() {
        let mut presence = Presence::default();
        assert!(!presence.present(Color::Red));
        presence.here_changed(Color::Red, true);
        presence.here_changed(Color::Red, true);
        presence.here_changed(Color::Red, false);
        assert!(presence.present(Color::Red) && !presence.present(Color::Blue));
        assert_eq!(presence.here(), [1, 0]);
        presence.told("b", [0, 2]);
        assert!(presence.present(Color::Blue));
        presence.told("b", [0, 0]);
        assert!(!presence.present(Color::Blue));
        presence.told("c", [0, 1]);
        assert!(!presence.expire(), "told just now");
        // Told long ago: forgotten.
        presence.elsewhere.get_mut("c").unwrap().1 -= LIFETIME;
        assert!(!presence.present(Color::Blue));
        assert!(presence.expire());
        assert!(presence.elsewhere.is_empty());
    }
}
