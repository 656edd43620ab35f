//! The catalog (`GET /api/catalog`): what the web page offers and shows about the game, read
//! from the libraries so that the page copies none of it: the variants it offers by name, the
//! named starting setups with their pieces, the computer's levels, and the figures of the
//! solved classic game.
//!
//! The page loads it once, with itself (a JSON module in its module graph), so every view can
//! use it at once and the printed kit is complete at the page's load event.

use std::sync::OnceLock;

use lgame::rules::StartSetup;
use lgame::variants::VARIANTS;
use lgame::{Bitboard, Rules};
use lgame_players::Level;
use lgame_solver::{StateIndex, Statistics, Tablebase, Value};
use serde::Serialize;
use utoipa::ToSchema;

use crate::schema;

pub(crate) mod api;
pub(crate) mod routes;

/// The catalog: everything the page lists or states about the game that is not a position
/// being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Catalog {
    /// The variants offered by name, the specification's first, in its order.
    pub variants: Vec<VariantEntry>,
    /// The named starting setups (`standard`, `kit`, `corners`) on the classic board.
    pub setups: Vec<SetupEntry>,
    /// The computer's levels, weakest first (`random` … `perfect`).
    pub levels: Vec<&'static str>,
    /// The classic game solved.
    pub facts: Facts,
}

/// A variant the page offers by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct VariantEntry {
    /// The canonical rules text, e.g. `sudden-death`.
    pub rules: String,
    /// Its name for people (English), e.g. `sudden death`.
    pub name: &'static str,
    /// What it changes, in one line (English).
    pub summary: &'static str,
    /// One of the specification's variants (`lgame::VARIANTS`), not just another size.
    pub specification: bool,
    /// Positions in its table.
    pub positions: u64,
    /// Whether this server solves its table (computer players, analysis, puzzles).
    pub solvable: bool,
}

/// A named starting setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SetupEntry {
    /// Its name, as a game's `setup` and a position argument take it.
    pub name: &'static str,
    /// The starting position in the one-line form (classic rules).
    pub position: String,
    /// Red's L, in notation order (by column, then row).
    pub red: Vec<String>,
    /// Blue's L.
    pub blue: Vec<String>,
    /// The neutrals.
    pub neutrals: Vec<String>,
}

/// The figures of the solved classic game (docs/rules.md, "Facts the implementation must
/// reproduce"), counted with the player to move, as the solver counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Facts {
    /// The rules these figures are of (`classic`).
    pub variant: String,
    /// Positions.
    pub positions: u64,
    /// Positions up to the board's symmetries.
    pub classes: u64,
    /// Classes won for the player to move.
    pub won_classes: u64,
    /// Classes drawn.
    pub drawn_classes: u64,
    /// Classes lost for the player to move.
    pub lost_classes: u64,
    /// Classes where the player to move is trapped at once.
    pub trapped_classes: u64,
    /// Classes lost by force but not yet trapped.
    pub forced_loss_classes: u64,
    /// The distances, in plies, of those forced losses, shortest first.
    pub forced_loss_plies: Vec<u16>,
    /// The longest forced win, in plies.
    #[schema(required)]
    pub longest_win_plies: Option<u16>,
    /// The position with the most legal moves.
    pub most_moves: MostMoves,
    /// The standard setup: its value and moves.
    pub standard: Start,
}

/// The position with the most legal moves, and how they multiply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MostMoves {
    /// One such position (one-line form).
    pub position: String,
    /// Its legal moves.
    pub moves: u64,
    /// The places its L can go.
    pub l_placements: u64,
    /// The choices for the neutrals after each (`moves / l_placements`).
    pub neutral_choices: u64,
}

/// A starting position's value and legal moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Start {
    /// The position (one-line form).
    pub position: String,
    /// `win`, `draw` or `loss` for the player to move.
    #[schema(value_type = schema::ValueName)]
    pub value: String,
    /// The distance to the end, if not a draw.
    #[schema(required)]
    pub plies: Option<u16>,
    /// Its legal moves.
    pub moves: u64,
}

/// Rules texts the page offers beyond the specification's named variants ([`VARIANTS`]):
/// other neutral counts and board sizes, with their names and what they change. Each is listed
/// after the named variant of the same option (`neutrals=…` after `neutrals=1`), or at the end.
const MORE_VARIANTS: [(&str, &str, &str); 3] = [
    (
        "neutrals=3",
        "three neutrals",
        "three neutral pieces instead of two",
    ),
    (
        "board=5x4",
        "5×4 board",
        "a board five cells wide and four high",
    ),
    ("board=5x5", "5×5 board", "a board of five by five cells"),
];

/// The catalog for a server that solves tables of at most `max_table_states` positions. The
/// figures are computed once (solving the classic game) and kept.
pub fn catalog(max_table_states: u64) -> Catalog {
    static FACTS: OnceLock<Facts> = OnceLock::new();
    Catalog {
        variants: variants(max_table_states),
        setups: StartSetup::NAMES.iter().map(|name| setup(name)).collect(),
        levels: Level::ALL.iter().map(|level| level.name()).collect(),
        facts: FACTS.get_or_init(facts).clone(),
    }
}

fn variants(max_table_states: u64) -> Vec<VariantEntry> {
    let entry = |rules: &str, name, summary, specification| {
        let rules: Rules = rules.parse().expect("the catalog's rules texts are valid");
        let positions = StateIndex::new(&rules).len();
        VariantEntry {
            rules: rules.to_string(),
            name,
            summary,
            specification,
            positions,
            solvable: positions <= max_table_states,
        }
    };
    let option = |rules: &str| rules.split('=').next().unwrap_or(rules).to_string();
    let mut more: Vec<_> = MORE_VARIANTS.to_vec();
    let mut list = Vec::new();
    for variant in VARIANTS {
        list.push(entry(variant.rules, variant.name, variant.summary, true));
        let (same, rest): (Vec<_>, Vec<_>) = more
            .into_iter()
            .partition(|(rules, _, _)| option(rules) == option(variant.rules));
        more = rest;
        for (rules, name, summary) in same {
            list.push(entry(rules, name, summary, false));
        }
    }
    for (rules, name, summary) in more {
        list.push(entry(rules, name, summary, false));
    }
    list
}

fn cells(set: Bitboard) -> Vec<String> {
    set.squares_in_notation_order()
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn setup(name: &'static str) -> SetupEntry {
    let start = StartSetup::from_name(name).expect("a named setup");
    let position = Rules::classic()
        .with_setup(start)
        .expect("a named setup fits the classic rules")
        .start_position();
    let ls = position.ls();
    SetupEntry {
        name,
        position: position.to_string(),
        red: cells(ls.red),
        blue: cells(ls.blue),
        neutrals: cells(position.neutrals()),
    }
}

fn facts() -> Facts {
    let rules = Rules::classic();
    let table = Tablebase::solve(&rules);
    let stats = Statistics::of(&table);
    let mut trapped_classes = 0;
    let mut forced_loss_classes = 0;
    let mut forced_loss_plies = Vec::new();
    for (_, value) in table.classes() {
        match value {
            Value::Loss(0) => trapped_classes += 1,
            Value::Loss(plies) => {
                forced_loss_classes += 1;
                forced_loss_plies.push(plies);
            }
            _ => {}
        }
    }
    forced_loss_plies.sort_unstable();
    forced_loss_plies.dedup();
    let busiest = lgame::Position::from_text(&stats.max_moves_example.position, &rules)
        .expect("the solver's own position");
    let l_placements = busiest.l_moves().count() as u64;
    Facts {
        variant: stats.variant,
        positions: stats.positions,
        classes: stats.classes,
        won_classes: stats.won_classes,
        drawn_classes: stats.drawn_classes,
        lost_classes: stats.lost_classes,
        trapped_classes,
        forced_loss_classes,
        forced_loss_plies,
        longest_win_plies: stats.longest_win_plies,
        most_moves: MostMoves {
            position: stats.max_moves_example.position,
            moves: stats.max_moves,
            l_placements,
            neutral_choices: stats.max_moves / l_placements.max(1),
        },
        standard: Start {
            position: stats.start_position,
            value: stats.start_value,
            plies: stats.start_plies,
            moves: stats.start_moves,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures are docs/rules.md's facts table; the lists are the libraries' own.
    #[test]
    fn the_catalog_holds_the_libraries_lists_and_the_classic_figures() {
        let answer = catalog(1_000_000);

        let texts: Vec<&str> = answer.variants.iter().map(|v| v.rules.as_str()).collect();
        assert_eq!(
            texts,
            [
                "classic",
                "misere",
                "sudden-death",
                "neutral-required",
                "neutrals=1",
                "neutrals=3",
                "symmetry",
                "scoring",
                "board=5x4",
                "board=5x5"
            ]
        );
        let specification: Vec<&str> = answer
            .variants
            .iter()
            .filter(|v| v.specification)
            .map(|v| v.rules.as_str())
            .collect();
        let named: Vec<&str> = VARIANTS.iter().map(|v| v.rules).collect();
        assert_eq!(specification, named);
        let classic = &answer.variants[0];
        assert_eq!((classic.positions, classic.solvable), (18_368, true));
        // The game to 10 points has 1,836,800 indices: offered by a server that solves that
        // many (it solves in about half a second), not by one that stops at a million.
        let scoring = |limit| {
            let answer = catalog(limit);
            let entry = answer.variants.into_iter().find(|v| v.rules == "scoring");
            entry.map(|v| (v.positions, v.solvable))
        };
        assert_eq!(scoring(1_000_000), Some((1_836_800, false)));
        assert_eq!(scoring(2_000_000), Some((1_836_800, true)));
        assert!(catalog(2_000_000).variants.iter().all(|v| v.solvable));

        let standard = &answer.setups[0];
        assert_eq!(standard.name, "standard");
        assert_eq!(standard.position, "NRR./.RB./.RB./.BBN r");
        assert_eq!(standard.red, ["B2", "B3", "B4", "C4"]);
        assert_eq!(standard.blue, ["B1", "C1", "C2", "C3"]);
        assert_eq!(standard.neutrals, ["A4", "D1"]);
        let names: Vec<&str> = answer.setups.iter().map(|s| s.name).collect();
        assert_eq!(names, ["standard", "kit", "corners"]);
        assert_eq!(answer.setups[1].position, "..BB/R.NB/RN.B/RR.. r");
        assert_eq!(answer.setups[2].position, "RRRN/R.../...B/NBBB r");

        assert_eq!(
            answer.levels,
            ["random", "beginner", "intermediate", "perfect"]
        );

        let facts = &answer.facts;
        assert_eq!((facts.positions, facts.classes), (18_368, 2_296));
        assert_eq!(
            (facts.won_classes, facts.drawn_classes, facts.lost_classes),
            (1_006, 1_261, 29)
        );
        assert_eq!((facts.trapped_classes, facts.forced_loss_classes), (15, 14));
        assert_eq!(facts.forced_loss_plies, [2, 4, 6, 8]);
        assert_eq!(facts.longest_win_plies, Some(9));
        let most = &facts.most_moves;
        assert_eq!(
            (most.moves, most.l_placements, most.neutral_choices),
            (221, 17, 13)
        );
        assert_eq!(facts.standard.position, standard.position);
        assert_eq!(
            (facts.standard.value.as_str(), facts.standard.moves),
            ("draw", 65)
        );

        let json = serde_json::to_value(&answer).expect("it serializes");
        assert_eq!(json["facts"]["most_moves"]["moves"], 221);
        assert_eq!(json["variants"][0]["rules"], "classic");
    }
}
