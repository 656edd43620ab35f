//! Game-theoretic values: win, draw or loss for the player to move, with the distance to the
//! end in plies.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

/// Win, draw or loss for the player to move, ordered `Loss < Draw < Win`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The player to move loses against best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The player to move wins against best play.
    Win,
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }

    /// The value named `win`, `draw` or `loss` ([`Wdl::name`]).
    pub fn from_name(name: &str) -> Option<Wdl> {
        [Wdl::Win, Wdl::Draw, Wdl::Loss]
            .into_iter()
            .find(|w| w.name() == name)
    }
}

impl Neg for Wdl {
    type Output = Wdl;
    /// The same result seen by the other player.
    fn neg(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position's value for the player to move: win or loss in so many plies under best play
/// (the winner hurries, the loser delays), or a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// Win: the game ends in the mover's favour after this many plies.
    Win(u16),
    /// Draw: no side can force a win.
    Draw,
    /// Loss: the game ends against the mover after this many plies (0: it is over now).
    Loss(u16),
}

impl Value {
    /// Win, draw or loss.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies to the end, or `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value of the position before a move that led to a position worth `self` to the
    /// other player: negated, one ply further from the end.
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// A key under which better values for the mover sort first: quick wins, then slower
    /// wins, draws, slow losses, quick losses.
    pub fn sort_key(self) -> (u8, i32) {
        match self {
            Value::Win(d) => (0, d as i32),
            Value::Draw => (1, 0),
            Value::Loss(d) => (2, -(d as i32)),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// Better for the mover is greater.
    fn cmp(&self, other: &Value) -> Ordering {
        other.sort_key().cmp(&self.sort_key())
    }
}

impl fmt::Display for Value {
    /// `win in 3`, `draw`, `loss in 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// The two-byte form of a value in the table: `plies * 2 + win`, or one of two markers.
pub(crate) mod packed {
    use super::Value;

    /// A draw (also what an unresolved state is during the solve).
    pub const DRAW: u16 = 0xFFFF;
    /// An index that is not a position (under scoring, a mover trapped before the reset).
    pub const NOT_A_POSITION: u16 = 0xFFFE;
    /// The longest distance that can be stored.
    pub const MAX_PLIES: u16 = 0x7FFE;

    pub fn pack(value: Value) -> u16 {
        match value {
            Value::Win(d) => d * 2 + 1,
            Value::Loss(d) => d * 2,
            Value::Draw => DRAW,
        }
    }

    /// The value, or `None` for [`NOT_A_POSITION`].
    pub fn unpack(raw: u16) -> Option<Value> {
        match raw {
            DRAW => Some(Value::Draw),
            NOT_A_POSITION => None,
            r if r & 1 == 1 => Some(Value::Win(r / 2)),
            r => Some(Value::Loss(r / 2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_is_ordered_loss_draw_win_and_negates() {
        assert!(Wdl::Loss < Wdl::Draw && Wdl::Draw < Wdl::Win);
        assert_eq!(-Wdl::Win, Wdl::Loss);
        assert_eq!(-Wdl::Draw, Wdl::Draw);
    }

    #[test]
    fn better_values_are_greater_quick_wins_and_slow_losses_first() {
        let mut values = vec![
            Value::Loss(0),
            Value::Draw,
            Value::Win(9),
            Value::Loss(8),
            Value::Win(1),
        ];
        values.sort_by(|a, b| b.cmp(a));
        assert_eq!(
            values,
            vec![
                Value::Win(1),
                Value::Win(9),
                Value::Draw,
                Value::Loss(8),
                Value::Loss(0)
            ]
        );
    }

    #[test]
    fn values_pack_into_two_bytes_and_back() {
        for v in [
            Value::Win(1),
            Value::Loss(0),
            Value::Draw,
            Value::Win(32000),
        ] {
            assert_eq!(packed::unpack(packed::pack(v)), Some(v));
        }
        assert_eq!(packed::unpack(packed::NOT_A_POSITION), None);
    }
}
