//! The variants of the specification, named once: the list every interface and test starts
//! from (the rules text of each is what `--variant`, a record's `Variant` tag and the server's
//! `variant` field take).

/// A variant of the specification: its rules text, its name and what it changes.
///
/// ```
/// use lgame::Rules;
/// use lgame::variants::VARIANTS;
///
/// let sudden = VARIANTS.iter().find(|v| v.rules == "sudden-death").expect("listed");
/// assert_eq!(sudden.name, "sudden death");
/// let rules: Rules = sudden.rules.parse()?;
/// assert_eq!(rules.max_neutral_moves(), 2);
///
/// let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
/// assert_eq!(names.len(), 7);
/// assert!(names.contains(&"misère"));
/// # Ok::<(), lgame::rules::RulesError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// The canonical rules text, e.g. `sudden-death`.
    pub rules: &'static str,
    /// Its name for people, e.g. `sudden death`.
    pub name: &'static str,
    /// What it changes, in one line.
    pub summary: &'static str,
}

/// The classic game and each variant of the specification on the classic board, in the
/// specification's order.
///
/// ```
/// use lgame::variants::VARIANTS;
/// use lgame::Rules;
///
/// for variant in VARIANTS {
///     let rules: Rules = variant.rules.parse()?;
///     assert_eq!(rules.to_string(), variant.rules, "the text is canonical");
/// }
/// assert_eq!(VARIANTS[0].rules, "classic");
/// # Ok::<(), lgame::rules::RulesError>(())
/// ```
pub const VARIANTS: &[Variant] = &[
    Variant {
        rules: "classic",
        name: "classic",
        summary: "de Bono's game: move your L, then at most one neutral; you lose when your L cannot move",
    },
    Variant {
        rules: "misere",
        name: "misère",
        summary: "a player who cannot move their L wins",
    },
    Variant {
        rules: "sudden-death",
        name: "sudden death",
        summary: "after the L move you may move none, one or both neutrals",
    },
    Variant {
        rules: "neutral-required",
        name: "required neutral move",
        summary: "after the L move you must move exactly one neutral",
    },
    Variant {
        rules: "neutrals=1",
        name: "one neutral",
        summary: "one neutral piece instead of two",
    },
    Variant {
        rules: "symmetry",
        name: "symmetry",
        summary: "you also win when your L becomes the mirror image of the other L",
    },
    Variant {
        rules: "scoring",
        name: "scoring",
        summary: "points for an L on a corner and for a trap; the first to the target (10) wins",
    },
];
