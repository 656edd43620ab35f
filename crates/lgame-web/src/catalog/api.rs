//! The catalog's HTTP types and path (`GET /api/catalog`, docs/api.md): the variants and
//! setups the page offers, with their facts, described for the OpenAPI document.

use serde::Serialize;
use utoipa::ToSchema;

use crate::openapi as schema;

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

/// `GET /api/catalog`.
#[utoipa::path(get, path = "/api/catalog", tag = "positions",
    summary = "What the page offers and shows: variants, setups, levels, the solved game's figures",
    responses((status = 200, description = "The catalog", body = Catalog)))]
#[allow(dead_code)] // a description for the document, never called
fn catalog() {}
