//! `cargo xtask report [--out DIR]`: writes `DIR/analysis.md` and its diagrams
//! (`DIR/analysis/*.svg`) from the solver's own output; the repository's copy is `docs/`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use lgame::rules::StartSetup;
use lgame::{Position, Rules};
use lgame_solver::large::{LargeStats, Space};
use lgame_solver::{human_bytes, Statistics, Tablebase, Value};

use anyhow::Result;
use lgame_solver::grouped;

/// Where the report goes.
pub struct Args {
    /// The folder to write analysis.md and analysis/*.svg into (and to read the large
    /// boards' results from).
    pub out: PathBuf,
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
    boards_section(&mut doc, &args.out, out)?;

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

/// A row of the tables of figures: positions, classes or trapped, won, lost, drawn, longest
/// win, the standard setup's value.
struct Figures {
    positions: u64,
    second: u64,
    won: u64,
    lost: u64,
    drawn: u64,
    longest_win: Option<u16>,
    start: String,
}

impl Figures {
    fn cells(&self) -> String {
        let longest = self
            .longest_win
            .map_or("—".to_string(), |p| format!("{p} plies"));
        [
            grouped(self.positions),
            grouped(self.second),
            grouped(self.won),
            grouped(self.lost),
            grouped(self.drawn),
            longest,
            self.start.clone(),
        ]
        .join(" | ")
    }
}

/// A variant's figures from its table (without walking the moves, which
/// `Statistics::of` does for the classic game's extremes).
fn variant_figures(tb: &Tablebase) -> Figures {
    let index = tb.index();
    let mut f = Figures {
        positions: 0,
        second: 0,
        won: 0,
        lost: 0,
        drawn: 0,
        longest_win: None,
        start: String::new(),
    };
    for i in 0..index.len() {
        let Some(value) = tb.value_at(i) else {
            continue;
        };
        f.positions += 1;
        match value {
            Value::Win(d) => {
                f.won += 1;
                f.longest_win = f.longest_win.max(Some(d));
            }
            Value::Loss(_) => f.lost += 1,
            Value::Draw => f.drawn += 1,
        }
        let p = index.position(i).expect("a valued index is a position");
        f.second += u64::from(index.index_of(&p.canonical()) == Some(i));
    }
    let start = tb.value(&tb.rules().start_position()).expect("own rules");
    f.start = value_text(start);
    f
}

fn variants_section(doc: &mut String, out: &mut impl Write) -> Result<()> {
    let _ = writeln!(
        doc,
        "\n## Every variant on 4×4\n\nThe standard setup's value is for Red, who moves first. \
         Under scoring a position includes both scores (each below the target).\n\n\
         | variant | positions | classes | won | lost | drawn | longest win | standard setup |\n\
         |---|---|---|---|---|---|---|---|"
    );
    let texts: Vec<&str> = variants().collect();
    let rules: Vec<Rules> = texts
        .iter()
        .map(|t| t.parse().map_err(|e| anyhow!("{t}: {e}")))
        .collect::<Result<_>>()?;
    // The variants are independent: one thread each (the two scoring games take longest).
    let rows: Vec<Figures> = std::thread::scope(|scope| {
        let handles: Vec<_> = rules
            .iter()
            .map(|r| scope.spawn(move || variant_figures(&Tablebase::solve(r))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a variant's solve does not panic"))
            .collect()
    });
    for (text, row) in texts.iter().zip(rows) {
        let _ = writeln!(doc, "| `{text}` | {} |", row.cells());
    }
    writeln!(out, "{} variants solved", texts.len())?;
    Ok(())
}

/// The boards of the survey, 4×4 to 8×8 (width ≥ height: the others are the same boards
/// turned), by area.
pub const BOARDS: [&str; 15] = [
    "4x4", "5x4", "6x4", "5x5", "7x4", "6x5", "8x4", "7x5", "6x6", "8x5", "7x6", "8x6", "7x7",
    "8x7", "8x8",
];

/// The large-board results, written by `cargo xtask report-large` and read by the report.
pub const LARGE_RESULTS: &str = "analysis/large-boards.tsv";

/// One solved board and neutral count: its figures and the run's cost.
pub struct LargeRow {
    pub board: String,
    pub neutrals: u8,
    pub stats: LargeStats,
    pub start: String,
    pub seconds: f64,
    pub peak_kb: u64,
}

const LARGE_HEADER: &str = "board\tneutrals\tpositions\tclasses\ttrapped\twon\tlost\tdrawn\tlongest_win\tstart\tseconds\tpeak_kb";

impl LargeRow {
    fn line(&self) -> String {
        let s = &self.stats;
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{}",
            self.board,
            self.neutrals,
            s.positions,
            s.classes,
            s.trapped,
            s.won,
            s.lost,
            s.drawn,
            s.longest_win.map_or("-".to_string(), |p| p.to_string()),
            self.start,
            self.seconds,
            self.peak_kb
        )
    }

    fn parse(line: &str) -> Result<LargeRow> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 12 {
            anyhow::bail!("{LARGE_RESULTS}: a row needs 12 fields: '{line}'");
        }
        let n = |i: usize| -> Result<u64> {
            f[i].parse().map_err(|_| {
                anyhow!(
                    "{LARGE_RESULTS}: field {} of '{line}' is not a number",
                    i + 1
                )
            })
        };
        Ok(LargeRow {
            board: f[0].to_string(),
            neutrals: n(1)? as u8,
            stats: LargeStats {
                positions: n(2)?,
                classes: n(3)?,
                trapped: n(4)?,
                won: n(5)?,
                lost: n(6)?,
                drawn: n(7)?,
                longest_win: if f[8] == "-" {
                    None
                } else {
                    Some(n(8)? as u16)
                },
            },
            start: f[9].to_string(),
            seconds: f[10]
                .parse()
                .map_err(|_| anyhow!("{LARGE_RESULTS}: bad seconds in '{line}'"))?,
            peak_kb: n(11)?,
        })
    }
}

/// The rows of the results file (none when it does not exist yet).
pub fn read_large(dir: &Path) -> Result<Vec<LargeRow>> {
    let path = dir.join(LARGE_RESULTS);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(anyhow!("reading {}: {e}", path.display())),
    };
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(LargeRow::parse)
        .collect()
}

/// Writes the results file, in the survey's order.
pub fn write_large(dir: &Path, rows: &mut [LargeRow]) -> Result<()> {
    let order = |b: &str| BOARDS.iter().position(|&x| x == b).unwrap_or(usize::MAX);
    rows.sort_by_key(|r| (order(&r.board), r.neutrals));
    let mut text = format!("{LARGE_HEADER}\n");
    for r in rows.iter() {
        text.push_str(&r.line());
        text.push('\n');
    }
    let path = dir.join(LARGE_RESULTS);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

fn boards_section(doc: &mut String, dir: &Path, out: &mut impl Write) -> Result<()> {
    let rows = read_large(dir)?;
    let _ = writeln!(
        doc,
        "\n## Other boards and neutral counts\n\nThe classic rules on every board from 4×4 to \
         8×8, with 0 to 8 neutrals, as far as they are solved: the large-board solver's \
         results ([large-boards.md](large-boards.md)), which `cargo xtask report-large` \
         computes (for hours; it resumes) into `{LARGE_RESULTS}`, and this report reads. The \
         standard setup on a larger board keeps each piece by its corner (see \
         `rules-library.md`). \"Trapped\" counts positions where the mover cannot move their \
         L: where there are none, nobody can ever lose and every position is a draw.\n\n\
         | board | neutrals | positions | trapped | won | lost | drawn | longest win | standard setup |\n\
         |---|---|---|---|---|---|---|---|---|"
    );
    let mut decisive: Vec<String> = Vec::new();
    let mut decided_start: Vec<String> = Vec::new();
    let mut costly: Vec<&LargeRow> = Vec::new();
    for board in BOARDS {
        let mut ks = Vec::new();
        let solved = |k: u8| rows.iter().find(|r| r.board == board && r.neutrals == k);
        let last = (0..=lgame::rules::MAX_NEUTRALS)
            .rev()
            .find(|&k| solved(k).is_some());
        for neutrals in 0..=lgame::rules::MAX_NEUTRALS {
            let Some(row) = solved(neutrals) else {
                let text = format!("board={board},neutrals={neutrals}");
                let rules: Rules = text.parse().map_err(|e| anyhow!("{e}"))?;
                let space = Space::new(&rules).map_err(|e| anyhow!("{e}"))?;
                // After the last solved count, one row stands for the rest.
                let after = last.is_none_or(|l| neutrals > l);
                let _ = writeln!(
                    doc,
                    "| {board} | {neutrals}{} | {} | not solved here | | | | | |",
                    if after { "+" } else { "" },
                    grouped(space.positions())
                );
                if after {
                    break;
                }
                continue;
            };
            let s = &row.stats;
            let figures = Figures {
                positions: s.positions,
                second: s.trapped,
                won: s.won,
                lost: s.lost,
                drawn: s.drawn,
                longest_win: s.longest_win,
                start: row.start.clone(),
            };
            let _ = writeln!(doc, "| {board} | {neutrals} | {} |", figures.cells());
            if s.lost > 0 {
                ks.push(neutrals.to_string());
            }
            if row.start != "draw" {
                decided_start.push(format!("{board} with {neutrals} ({})", row.start));
            }
            if s.positions >= 100_000_000 {
                costly.push(row);
            }
        }
        if !ks.is_empty() {
            decisive.push(format!("{board} with {} neutrals", ks.join(", ")));
        }
    }
    let or_none = |list: &[String]| {
        if list.is_empty() {
            "none".to_string()
        } else {
            list.join("; ")
        }
    };
    let _ = writeln!(
        doc,
        "\n**Decisive boards** (some position is lost, so play can be won): {}. Every other \
         board and neutral count solved is a draw in every position.\n\n\
         **Boards whose standard setup is decided** (for Red, who moves first): {}.",
        or_none(&decisive),
        or_none(&decided_start)
    );
    if !costly.is_empty() {
        let _ = writeln!(
            doc,
            "\nThe largest runs (`cargo xtask report-large` on this project's machine: 2 \
             cores shared with other work, 24 GB; peak memory is the process's maximum \
             resident set):\n\n| board | neutrals | positions | time | peak memory |\n|---|---|---|---|---|"
        );
        for r in costly {
            let _ = writeln!(
                doc,
                "| {} | {} | {} | {:.0} s | {} |",
                r.board,
                r.neutrals,
                grouped(r.stats.positions),
                r.seconds,
                human_bytes(r.peak_kb * 1024)
            );
        }
    }
    writeln!(out, "{} boards and neutral counts read", rows.len())?;
    Ok(())
}

/// What `cargo xtask report-large` solves and where it keeps its tables.
pub struct LargeArgs {
    /// The docs folder (the results file is `analysis/large-boards.tsv` in it).
    pub out: PathBuf,
    /// Where the tables and checkpoints go.
    pub tables: PathBuf,
    /// Leave out spaces with more positions than this.
    pub max_positions: u64,
    /// Only these spaces (board and neutral count), when given.
    pub only: Option<Vec<(String, u8)>>,
}

/// Solves every board and neutral count of the survey not yet in the results file, smallest
/// neutral count first, each in its own process (its peak memory is its own), resuming a
/// table left by a stopped run.
pub fn run_large(args: &LargeArgs, out: &mut impl Write) -> Result<()> {
    std::fs::create_dir_all(args.out.join("analysis"))?;
    std::fs::create_dir_all(&args.tables)?;
    let mut rows = read_large(&args.out)?;
    let exe = std::env::current_exe()?;
    // Smallest spaces first, across the boards: a stopped run has solved the most it could.
    let mut todo = Vec::new();
    for board in BOARDS {
        for neutrals in 0..=lgame::rules::MAX_NEUTRALS {
            let text = format!("board={board},neutrals={neutrals}");
            let rules: Rules = text.parse().map_err(|e| anyhow!("{e}"))?;
            let positions = Space::new(&rules).map_err(|e| anyhow!("{e}"))?.positions();
            let done = rows
                .iter()
                .any(|r| r.board == board && r.neutrals == neutrals);
            let chosen = args.only.as_ref().is_none_or(|only| {
                only.iter()
                    .any(|(b, k)| b.as_str() == board && *k == neutrals)
            });
            if !done && chosen && positions <= args.max_positions {
                todo.push((positions, board, neutrals, text));
            }
        }
    }
    todo.sort();
    for (positions, board, neutrals, text) in todo {
        writeln!(out, "{text}: {} positions", grouped(positions))?;
        let table = args.tables.join(format!("{board}-{neutrals}.lgbig"));
        let child = std::process::Command::new(&exe)
            .arg("large-one")
            .arg(&text)
            .arg(&table)
            .stderr(std::process::Stdio::inherit())
            .output()
            .with_context(|| format!("running {}", exe.display()))?;
        if !child.status.success() {
            anyhow::bail!("solving {text} failed ({})", child.status);
        }
        let line = String::from_utf8_lossy(&child.stdout);
        let row = LargeRow::parse(line.trim())?;
        writeln!(
            out,
            "{text}: {} lost, {:.1} s",
            grouped(row.stats.lost),
            row.seconds
        )?;
        rows.push(row);
        write_large(&args.out, &mut rows)?;
    }
    writeln!(out, "wrote {}", args.out.join(LARGE_RESULTS).display())?;
    Ok(())
}

/// One space of `report-large`, in its own process: solves (or resumes) into `table` and
/// prints the results file's row.
pub fn run_large_one(text: &str, table: &Path, out: &mut impl Write) -> Result<()> {
    use lgame_solver::large::{self, LargeOptions, LargeProgress, LargeTable};
    let rules: Rules = text.parse().map_err(|e| anyhow!("{e}"))?;
    let space = Space::new(&rules).map_err(|e| anyhow!("{e}"))?;
    let resume = if table.exists() {
        let t = LargeTable::open(table).map_err(|e| anyhow!("{}: {e}", table.display()))?;
        Some((t.bytes().to_vec(), t.next_level()))
    } else {
        None
    };
    let started = std::time::Instant::now();
    let level = std::sync::atomic::AtomicU32::new(u32::MAX);
    let progress = |p: LargeProgress| {
        if level.swap(p.level, std::sync::atomic::Ordering::Relaxed) != p.level {
            eprintln!(
                "{text}: level {} ({:.0} s)",
                p.level,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let options = LargeOptions {
        file: Some(table),
        checkpoint_every: std::time::Duration::from_secs(300),
        stop_after_level: None,
        progress: Some(&progress),
        ..LargeOptions::default()
    };
    let outcome = large::solve(&space, resume, &options).map_err(|e| anyhow!("{text}: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    let stats = LargeStats::of(&space, &outcome.table);
    // The classes' sizes summed must be every placement of the pieces.
    if stats.positions != space.positions() {
        anyhow::bail!(
            "{text}: the classes hold {} positions, the board has {}",
            stats.positions,
            space.positions()
        );
    }
    let start_slot = space
        .slot_of(&rules.start_position())
        .expect("the rules' own start");
    let row = LargeRow {
        board: rules.board().to_string(),
        neutrals: rules.neutrals(),
        stats,
        start: value_text(large::decode_slot(&outcome.table, start_slot)),
        seconds,
        peak_kb: peak_kb(),
    };
    writeln!(out, "{}", row.line())?;
    Ok(())
}

/// This process's peak resident memory (VmHWM), in kB; 0 where /proc is not there.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
