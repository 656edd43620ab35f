//! `cargo xtask report [--out DIR]`: writes `DIR/analysis.md` and its diagrams
//! (`DIR/analysis/*.svg`) from the solver's own output; the repository's copy is `docs/`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use lgame::rules::StartSetup;
use lgame::{Position, Rules};
use lgame_solver::{StateIndex, Statistics, Tablebase, Value};

use anyhow::Result;
use lgame_solver::grouped;

/// Where the report goes and how far the survey of boards reaches.
pub struct Args {
    /// The folder to write analysis.md and analysis/*.svg into.
    pub out: PathBuf,
    /// Leave out boards whose solve has more states than this.
    pub max_states: u64,
}

/// The 4×4 variants the report covers: the specification's (`lgame::variants::VARIANTS`),
/// then other neutral counts and combinations.
fn variants() -> impl Iterator<Item = &'static str> {
    let named = lgame::variants::VARIANTS.iter().map(|v| v.rules);
    named.chain([
        "neutrals=0",
        "neutrals=3",
        "neutrals=4",
        "misere,neutrals=1",
        "misere,sudden-death",
        "symmetry,neutral-required",
        "symmetry,sudden-death",
        "scoring,target=5",
        "scoring,symmetry",
    ])
}

/// Boards for the survey of sizes and neutral counts.
const BOARDS: [&str; 8] = ["4x4", "5x4", "6x4", "7x4", "5x5", "6x5", "7x5", "6x6"];

fn value_text(value: Value) -> String {
    match value.plies() {
        Some(p) => format!("{} in {p}", value.wdl()),
        None => value.wdl().to_string(),
    }
}

fn write_svg(
    dir: &Path,
    name: &str,
    position: &Position,
    highlight: Option<&lgame::Move>,
) -> Result<String> {
    let path = dir.join("analysis").join(name);
    std::fs::write(&path, lgame::diagram::svg(position, highlight))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(format!("analysis/{name}"))
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    std::fs::create_dir_all(args.out.join("analysis"))?;
    let mut doc = String::new();
    let classic = Rules::classic();
    let tb = Tablebase::solve(&classic);
    let s = Statistics::of(&tb);
    writeln!(out, "classic solved")?;

    let _ = writeln!(
        doc,
        "# The L game, solved\n\n\
         Everything on this page is the solver's own output: `cargo xtask report` writes \
         it again (this file and the diagrams in `analysis/`). Positions are counted from the \
         player to move, as in [the rules](rules.md): the colours are \
         interchangeable, so a position is the mover's L, the other L and the neutrals. \
         Values are for the player to move; plies count moves of either player to the end \
         under best play (the winner hurries, the loser delays).\n"
    );
    classic_section(&mut doc, &tb, &s, &args.out)?;
    lost_gallery(&mut doc, &tb, &args.out)?;
    writeln!(out, "classic figures written")?;
    variants_section(&mut doc, out)?;
    boards_section(&mut doc, args.max_states, out)?;

    let path = args.out.join("analysis.md");
    std::fs::write(&path, doc).with_context(|| format!("writing {}", path.display()))?;
    writeln!(out, "wrote {}", path.display())?;
    writeln!(
        out,
        "wrote the diagrams in {}",
        args.out.join("analysis").display()
    )?;
    Ok(())
}

fn classic_section(doc: &mut String, tb: &Tablebase, s: &Statistics, dir: &Path) -> Result<()> {
    classic_figures(doc, tb, s);
    classic_corrections(doc, tb, s);
    classic_pictures(doc, tb, s, dir)
}

/// The table of the classic game's figures beside the published ones, and the distances.
fn classic_figures(doc: &mut String, tb: &Tablebase, s: &Statistics) {
    let _ = writeln!(doc, "## The classic game\n");
    let _ = writeln!(
        doc,
        "| figure | value | published ([the sources](rules.md)) |\n|---|---|---|"
    );
    let rows = [
        (
            "L placements",
            "48 (6 up to symmetry)".to_string(),
            "the game-solving group's rules page: six fundamental ways",
        ),
        (
            "positions",
            grouped(s.positions),
            "the same page says 18,268: a misprint",
        ),
        (
            "positions up to symmetry",
            grouped(s.classes),
            "the encyclopedia article: 2,296",
        ),
        (
            "won / lost / drawn",
            format!(
                "{} / {} / {}",
                grouped(s.won),
                grouped(s.lost),
                grouped(s.drawn)
            ),
            "",
        ),
        (
            "classes won / lost / drawn",
            format!(
                "{} / {} / {}",
                grouped(s.won_classes),
                grouped(s.lost_classes),
                grouped(s.drawn_classes)
            ),
            "the encyclopedia article: 2,267 not lost",
        ),
        (
            "trapped positions (lost at once)",
            format!("{} ({} classes)", s.trapped, s.trapped / 8),
            "the encyclopedia article: 15",
        ),
        (
            "longest forced win",
            format!("{} plies", s.longest_win_plies.unwrap_or(0)),
            "",
        ),
        (
            "most legal moves",
            format!(
                "{} (in {} positions)",
                s.max_moves,
                grouped(s.max_moves_example.count)
            ),
            "de Bono's leaflet: \"as many as 195\"",
        ),
        (
            "positions with 195 moves",
            grouped(positions_with_moves(tb, 195)),
            "",
        ),
        ("all legal moves (graph edges)", grouped(s.edges), ""),
        (
            "standard setup",
            format!("{}, {} moves", s.start_value, s.start_moves),
            "",
        ),
    ];
    for (figure, value, note) in rows {
        let _ = writeln!(doc, "| {figure} | {value} | {note} |");
    }
    for (name, setup) in [("kit", StartSetup::Kit), ("corners", StartSetup::Corners)] {
        let p = classic_start(tb, setup);
        let v = tb.value(&p).expect("classic");
        let _ = writeln!(
            doc,
            "| {name} setup | {}, {} moves | |",
            value_text(v),
            p.legal_move_count()
        );
    }
    let _ = writeln!(
        doc,
        "\nWon and lost positions by distance:\n\n| plies | won | lost |\n|---|---|---|"
    );
    for c in &s.by_plies {
        let _ = writeln!(
            doc,
            "| {} | {} | {} |",
            c.plies,
            grouped(c.won),
            grouped(c.lost)
        );
    }
}

/// Where the classic game's sources are wrong.
fn classic_corrections(doc: &mut String, tb: &Tablebase, s: &Statistics) {
    let corners = classic_start(tb, StartSetup::Corners);
    let _ = writeln!(doc, "\n### Corrections to the source documents\n");
    let _ = writeln!(
        doc,
        "- **18,268 positions** (the game-solving group's rules page) is a misprint: there are {} (2,296 classes of 8; no \
         position is its own mirror image).\n\
         - **\"As many as 195 different moves\"** (de Bono's leaflet): 195 = 15 L moves × 13 occurs in \
         {} positions, but the most is {} = 17 × 13, in {} positions.\n\
         - The second version of the encyclopedia article gives a starting setup (the `corners` setup here) that is \
         not de Bono's; it is worth: {}.",
        grouped(s.positions),
        grouped(positions_with_moves(tb, 195)),
        s.max_moves,
        grouped(s.max_moves_example.count),
        value_text(tb.value(&corners).expect("classic"))
    );
}

/// The position with the most moves and the longest win, drawn.
fn classic_pictures(doc: &mut String, tb: &Tablebase, s: &Statistics, dir: &Path) -> Result<()> {
    let classic = *tb.rules();
    let most: Position =
        Position::from_text(&s.max_moves_example.position, &classic).map_err(|e| anyhow!(e))?;
    let img = write_svg(dir, "most-moves.svg", &most, None)?;
    let _ = writeln!(
        doc,
        "\n### The most moves\n\n`{}` has {} legal moves ({} L moves × 13), the most of any \
         position; it is {}.\n\n![{}]({img})",
        most,
        s.max_moves,
        s.max_moves / 13,
        value_text(tb.value(&most).expect("classic")),
        most
    );
    if let Some(example) = &s.longest_win {
        let start = Position::from_text(&example.position, &classic).map_err(|e| anyhow!(e))?;
        let line = tb.principal_variation(&start).expect("classic");
        let img = write_svg(dir, "longest-win.svg", &start, line.first())?;
        let moves: Vec<String> = line.iter().map(|m| format!("`{m}`")).collect();
        let _ = writeln!(
            doc,
            "\n### The longest win\n\n{} positions are won in {} plies, none in more. From `{}` \
             (the first move marked) best play runs: {}.\n\n![{}]({img})",
            grouped(example.count),
            s.longest_win_plies.unwrap_or(0),
            start,
            moves.join(", "),
            start
        );
    }
    Ok(())
}

/// The classic game's start from a named setup.
fn classic_start(tb: &Tablebase, setup: StartSetup) -> Position {
    tb.rules()
        .with_setup(setup)
        .expect("every named setup fits the classic board")
        .start_position()
}

/// How many positions of the table have exactly `n` legal moves.
fn positions_with_moves(tb: &Tablebase, n: u64) -> u64 {
    let index = tb.index();
    (0..index.len())
        .filter_map(|i| index.position(i))
        .filter(|p| p.legal_move_count() == n)
        .count() as u64
}

fn lost_gallery(doc: &mut String, tb: &Tablebase, dir: &Path) -> Result<()> {
    let mut lost: Vec<(u16, Position)> = tb
        .classes()
        .filter_map(|(p, value)| match value {
            Value::Loss(d) => Some((d, p)),
            _ => None,
        })
        .collect();
    lost.sort_by_key(|(d, p)| (*d, p.to_string()));
    let trapped = lost.iter().filter(|(d, _)| *d == 0).count();
    let _ = writeln!(
        doc,
        "\n## The {} lost positions\n\nUp to symmetry, {} positions are lost for the player to \
         move (Red here): {} trapped at once and {} more, lost in 2, 4, 6 or 8 plies. Each is \
         drawn once; its seven mirror images and turns are lost too.\n",
        lost.len(),
        lost.len(),
        trapped,
        lost.len() - trapped
    );
    let _ = writeln!(doc, "| | | | |\n|---|---|---|---|");
    let mut cells = Vec::new();
    for (n, (d, p)) in lost.iter().enumerate() {
        let img = write_svg(dir, &format!("lost-{:02}.svg", n + 1), p, None)?;
        cells.push(format!("![{p}]({img})<br>lost in {d}: `{p}`"));
    }
    for row in cells.chunks(4) {
        let _ = writeln!(doc, "| {} |", row.join(" | "));
    }
    Ok(())
}

/// A table row's figures: positions, `second` (classes or trapped), won, lost, drawn, the
/// longest win and the standard setup's value.
fn table_cells(s: &Statistics, second: u64, start: Value) -> String {
    let longest = s
        .longest_win_plies
        .map_or("—".to_string(), |p| format!("{p} plies"));
    [
        grouped(s.positions),
        grouped(second),
        grouped(s.won),
        grouped(s.lost),
        grouped(s.drawn),
        longest,
        value_text(start),
    ]
    .join(" | ")
}

fn variants_section(doc: &mut String, out: &mut impl Write) -> Result<()> {
    let _ = writeln!(
        doc,
        "\n## Every variant on 4×4\n\nThe standard setup's value is for Red, who moves first. \
         Under scoring a position includes both scores (each below the target).\n\n\
         | variant | positions | classes | won | lost | drawn | longest win | standard setup |\n\
         |---|---|---|---|---|---|---|---|"
    );
    for text in variants() {
        let rules: Rules = text.parse().map_err(|e| anyhow!("{e}"))?;
        let tb = Tablebase::solve(&rules);
        let s = Statistics::of(&tb);
        let start = tb.value(&rules.start_position()).expect("own rules");
        let cells = table_cells(&s, s.classes, start);
        let _ = writeln!(doc, "| `{text}` | {cells} |");
        writeln!(out, "{text} solved")?;
    }
    Ok(())
}

fn boards_section(doc: &mut String, max_states: u64, out: &mut impl Write) -> Result<()> {
    let _ = writeln!(
        doc,
        "\n## Other boards and neutral counts\n\nThe classic rules on other boards, with 0 to 8 \
         neutrals, as far as the spaces stay below {} states. The standard setup on a larger board keeps each piece by its corner (see \
         `rules-library.md`). \"Trapped\" counts positions where the mover cannot move their L: \
         where there are none, nobody can ever lose and every position is a draw.\n\n\
         | board | neutrals | positions | trapped | won | lost | drawn | longest win | standard setup |\n\
         |---|---|---|---|---|---|---|---|---|",
        grouped(max_states)
    );
    let mut decisive: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for board in BOARDS {
        for neutrals in 0..=lgame::rules::MAX_NEUTRALS {
            let text = format!("board={board},neutrals={neutrals}");
            let rules: Rules = text.parse().map_err(|e| anyhow!("{e}"))?;
            let states = StateIndex::new(&rules).len();
            if states > max_states {
                let _ = writeln!(
                    doc,
                    "| {board} | {neutrals}+ | {} | not solved here | | | | | |",
                    grouped(states)
                );
                break;
            }
            let tb = Tablebase::solve(&rules);
            let s = Statistics::of(&tb);
            let start = tb.value(&rules.start_position()).expect("own rules");
            if s.lost > 0 {
                decisive
                    .entry(board.to_string())
                    .or_default()
                    .push(neutrals);
            }
            let cells = table_cells(&s, s.trapped, start);
            let _ = writeln!(doc, "| {board} | {neutrals} | {cells} |");
            writeln!(out, "{text}: {} states solved", grouped(states))?;
        }
    }
    let list: Vec<String> = decisive
        .iter()
        .map(|(board, ks)| {
            let ks: Vec<String> = ks.iter().map(u8::to_string).collect();
            format!("{board} with {} neutrals", ks.join(", "))
        })
        .collect();
    let _ = writeln!(
        doc,
        "\nBoards and neutral counts with decisive positions (some position lost): {}.",
        if list.is_empty() {
            "none".to_string()
        } else {
            list.join("; ")
        }
    );
    Ok(())
}
