//! The figures of a solved game: counts by value, by distance and by symmetry class, the
//! extremes, and the starting setup's value.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::tablebase::Tablebase;
use crate::value::Value;

/// Positions won and lost at one distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PliesCount {
    /// The distance in plies.
    pub plies: u16,
    /// Positions won for the mover in exactly this many plies.
    pub won: u64,
    /// Positions lost for the mover in exactly this many plies.
    pub lost: u64,
}

/// A position that shows an extreme, with its figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The position (canonical text, Red to move).
    pub position: String,
    /// How many positions share the extreme.
    pub count: u64,
}

/// The statistics of a solved variant. Positions are counted from the player to move (the
/// colours are interchangeable), as rules.md counts them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statistics {
    /// The rules' canonical text.
    pub variant: String,
    /// `WxH`.
    pub board: String,
    /// Number of neutrals.
    pub neutrals: u8,
    /// Scoring target, if scoring.
    pub target: Option<u8>,
    /// Positions.
    pub positions: u64,
    /// Positions up to the board's symmetries.
    pub classes: u64,
    /// Positions won for the player to move.
    pub won: u64,
    /// Positions lost for the player to move.
    pub lost: u64,
    /// Drawn positions.
    pub drawn: u64,
    /// Classes won for the player to move.
    pub won_classes: u64,
    /// Classes lost.
    pub lost_classes: u64,
    /// Classes drawn.
    pub drawn_classes: u64,
    /// Positions where the game is over (trapped, mirrored Ls).
    pub terminal: u64,
    /// Positions where the player to move cannot move their L.
    pub trapped: u64,
    /// Counts of won and lost positions by distance.
    pub by_plies: Vec<PliesCount>,
    /// The longest forced win, in plies.
    pub longest_win_plies: Option<u16>,
    /// A position with the longest forced win.
    pub longest_win: Option<Example>,
    /// The longest loss, in plies.
    pub longest_loss_plies: Option<u16>,
    /// The most legal moves in one position.
    pub max_moves: u64,
    /// A position with that many moves.
    pub max_moves_example: Example,
    /// All legal moves of all positions (edges of the move graph).
    pub edges: u64,
    /// The starting position.
    pub start_position: String,
    /// Its value: `win`, `draw` or `loss`.
    pub start_value: String,
    /// Its distance to the end, if not a draw.
    pub start_plies: Option<u16>,
    /// Its number of legal moves.
    pub start_moves: u64,
    /// How long the solve took, in milliseconds.
    pub solve_ms: f64,
}

impl Statistics {
    /// Computes the statistics of a table (this walks every position and its moves).
    pub fn of(tb: &Tablebase) -> Statistics {
        let index = tb.index();
        let rules = *tb.rules();
        let mut s = Statistics {
            variant: rules.to_string(),
            board: rules.board().to_string(),
            neutrals: rules.neutrals(),
            target: rules.scoring_target(),
            positions: 0,
            classes: 0,
            won: 0,
            lost: 0,
            drawn: 0,
            won_classes: 0,
            lost_classes: 0,
            drawn_classes: 0,
            terminal: 0,
            trapped: 0,
            by_plies: Vec::new(),
            longest_win_plies: None,
            longest_win: None,
            longest_loss_plies: None,
            max_moves: 0,
            max_moves_example: Example {
                position: String::new(),
                count: 0,
            },
            edges: 0,
            start_position: String::new(),
            start_value: String::new(),
            start_plies: None,
            start_moves: 0,
            solve_ms: tb.solve_time().as_secs_f64() * 1e3,
        };
        let mut by_plies: BTreeMap<u16, (u64, u64)> = BTreeMap::new();
        let mut longest: Option<(u16, String, u64)> = None;
        for i in 0..index.len() {
            let Some(value) = tb.value_at(i) else {
                continue;
            };
            let p = index.position(i).expect("a valued index is a position");
            s.positions += 1;
            let is_class = index.index_of(&p.canonical()) == Some(i);
            s.classes += is_class as u64;
            let (count, classes) = match value {
                Value::Win(_) => (&mut s.won, &mut s.won_classes),
                Value::Loss(_) => (&mut s.lost, &mut s.lost_classes),
                Value::Draw => (&mut s.drawn, &mut s.drawn_classes),
            };
            *count += 1;
            *classes += is_class as u64;
            match value {
                Value::Win(d) => {
                    by_plies.entry(d).or_default().0 += 1;
                    match &mut longest {
                        Some((best, _, n)) if *best == d => *n += 1,
                        Some((best, _, _)) if *best > d => {}
                        _ => longest = Some((d, p.to_string(), 1)),
                    }
                }
                Value::Loss(d) => {
                    by_plies.entry(d).or_default().1 += 1;
                    s.longest_loss_plies = s.longest_loss_plies.max(Some(d));
                }
                Value::Draw => {}
            }
            if p.is_finished() {
                s.terminal += 1;
            }
            if p.is_trapped() {
                s.trapped += 1;
            }
            let mut moves = 0;
            p.for_each_legal_move(|_| moves += 1);
            s.edges += moves;
            if moves > s.max_moves {
                s.max_moves = moves;
                s.max_moves_example = Example {
                    position: p.to_string(),
                    count: 0,
                };
            }
            if moves == s.max_moves {
                s.max_moves_example.count += 1;
            }
        }
        s.by_plies = by_plies
            .into_iter()
            .map(|(plies, (won, lost))| PliesCount { plies, won, lost })
            .collect();
        if let Some((plies, position, count)) = longest {
            s.longest_win_plies = Some(plies);
            s.longest_win = Some(Example { position, count });
        }
        let start = rules.start_position();
        let value = tb.value(&start).expect("the table's own rules");
        s.start_position = start.to_string();
        s.start_value = value.wdl().name().to_string();
        s.start_plies = value.plies();
        s.start_moves = start.legal_moves().len() as u64;
        s
    }
}

/// A count with its digits grouped by threes, as the reports print counts.
///
/// ```
/// assert_eq!(lgame_solver::grouped(1_632_800), "1,632,800");
/// assert_eq!(lgame_solver::grouped(232), "232");
/// ```
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
