//! The large solver's test set, shared with lgame-cli's `solve_large_mpi.rs` (through
//! `#[path]`), so that both hold the same spaces to their references.

/// Every space small enough to hold to the in-memory reference in a debug (opt-level 1)
/// test build.
pub const SMALL_SPACES: [&str; 11] = [
    "neutrals=0",
    "neutrals=1",
    "classic",
    "neutrals=3",
    "neutrals=4",
    "neutrals=5",
    "neutrals=6",
    "neutrals=7",
    "neutrals=8",
    "board=5x4,neutrals=4",
    "board=6x4,neutrals=2",
];
