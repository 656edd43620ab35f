//! The board drawn as a picture: a standalone SVG 1.1 document with the cells, both Ls, the
//! neutrals, cell names on the edges and who is to move, optionally with a move marked on it.
//!
//! The output depends only on its input (same position and move, same bytes), needs no
//! external resources, scripts or fonts, and can be saved as a `.svg` file or put inline in
//! a web page. Besides their colours, the Ls differ in texture (Red's is striped, Blue's is
//! plain), so the picture also reads without colour vision and in black and white.

use std::collections::BTreeSet;

use crate::board::Board;
use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::square::{Bitboard, Square};

/// The side of a cell, in pixels.
const CELL: i32 = 60;
/// The space left and right of the board (the row numbers stand in the left one).
const MARGIN: i32 = 34;
/// The space above the board.
const TOP: i32 = 16;
/// From the board's lower edge to the baseline of the column letters.
const LETTERS_BELOW: i32 = 21;
/// From the column letters' baseline to the first status line's baseline.
const STATUS_BELOW: i32 = 32;
/// From one status line's baseline to the next.
const LINE: i32 = 22;
/// Below the last baseline.
const BOTTOM: i32 = 14;
/// The radius of a neutral disc.
const NEUTRAL_RADIUS: i32 = 18;
/// How far inside the new L the highlight outline runs.
const HIGHLIGHT_INSET: i32 = 6;
/// The width of a neutral move's arrow line.
const ARROW_WIDTH: f64 = 4.0;

const BACKGROUND: &str = "#ffffff";
const CELL_FILL: &str = "#f4f0e6";
const GRID: &str = "#bdb6a6";
const BORDER: &str = "#3c3c3c";
const NEUTRAL: &str = "#4a4a4a";
const ARROW: &str = "#222222";
const INK: &str = "#222222";
const LABEL: &str = "#6b6b6b";

/// The pattern that marks Red's cells.
const STRIPES_ID: &str = "lgame-red-stripes";
/// The arrowhead marker of neutral moves.
const ARROWHEAD_ID: &str = "lgame-arrowhead";

/// A player's fill colour and the darker colour of their L's outline.
fn colours(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::Red => ("#d64545", "#8c2323"),
        Color::Blue => ("#3f6fd8", "#1f3c85"),
    }
}

/// Draws the position as a standalone SVG document:
///
/// ```
/// use lgame::{Move, Rules};
///
/// let start = Rules::classic().start_position();
/// let text = lgame::diagram::svg(&start, None);
/// assert!(text.starts_with("<svg"));
/// assert!(text.contains("<title>L game position NRR./.RB./.RB./.BBN r: Red to move</title>"));
/// assert!(text.trim_end().ends_with("</svg>"));
///
/// // The same position with a move marked on it: the new L outlined, the neutral's way
/// // drawn as an arrow.
/// let mv: Move = "A1,A2,A3,B3 D1-D2".parse()?;
/// let marked = lgame::diagram::svg(&start, Some(&mv));
/// assert!(marked.contains("class=\"arrow\""));
/// # Ok::<(), lgame::notation::ParseMoveError>(())
/// ```
///
/// The board has a thin grid and the cell names on its edges (column letters below, row
/// numbers on the left). Each L is drawn as one piece in its player's colour with a darker
/// outline; Red's is striped so that the two differ without colour too. Neutrals are dark
/// grey discs. Below the board stand the scores (under the scoring variant) and who is to
/// move, or how the game ended. The document's `<title>` gives the position in words and its
/// `<desc>` lists where every piece stands.
///
/// With `highlight`, the move is marked as if the player to move made it: a thick dashed
/// outline in the mover's colour just inside the new L's edge (over a faint tint of its
/// cells), and an arrow from each neutral's cell to where it goes. The move need not be
/// legal; it is drawn as given (cells off the board fall outside the picture).
pub fn svg(position: &Position, highlight: Option<&Move>) -> String {
    let board = position.board();
    let (width, height) = (i32::from(board.width()), i32::from(board.height()));
    let (status, title_status) = status_lines(position);

    // Wide enough for the board and for the longest status line (estimated generously for a
    // sans-serif font, whose letters average about half their size in width).
    let text_width = status
        .iter()
        .map(|line| line.text.chars().count() as i32 * line.size * 9 / 16)
        .max()
        .unwrap_or(0);
    let doc_width = (2 * MARGIN + width * CELL).max(text_width + 2 * 16);
    let letters_y = TOP + height * CELL + LETTERS_BELOW;
    let doc_height = letters_y + STATUS_BELOW + (status.len() as i32 - 1) * LINE + BOTTOM;
    let frame = Frame {
        x0: (doc_width - width * CELL) / 2,
        y0: TOP,
        height,
    };

    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" \
         viewBox=\"0 0 {doc_width} {doc_height}\" width=\"{doc_width}\" \
         height=\"{doc_height}\" role=\"img\">\n"
    ));
    out.push_str(&format!(
        "<title>{}</title>\n",
        escape(&format!("L game position {position}: {title_status}"))
    ));
    out.push_str(&format!(
        "<desc>{}</desc>\n",
        escape(&description(position, highlight, &title_status))
    ));
    let has_arrows = highlight.is_some_and(|mv| !mv.neutrals_from().is_empty());
    draw_defs(&mut out, has_arrows);
    out.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{doc_width}\" height=\"{doc_height}\" \
         fill=\"{BACKGROUND}\"/>\n"
    ));
    draw_cells(&mut out, &frame, board);
    // Where the highlighted move puts the L, faintly, under the border and the pieces.
    if let Some(mv) = highlight {
        draw_l_shadow(&mut out, &frame, mv.l(), position.turn());
    }
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{BORDER}\" \
         stroke-width=\"2\"/>\n",
        frame.x0,
        frame.y0,
        width * CELL,
        height * CELL
    ));
    draw_pieces(&mut out, &frame, position);
    if let Some(mv) = highlight {
        draw_move(&mut out, &frame, mv, position.turn());
    }
    out.push_str("<g font-family=\"sans-serif\" text-anchor=\"middle\">\n");
    draw_labels(&mut out, &frame, board, letters_y);
    draw_status(
        &mut out,
        &status,
        frame.x0 + width * CELL / 2,
        letters_y + STATUS_BELOW,
    );
    out.push_str("</g>\n</svg>\n");
    out
}

/// A line of text under the board.
struct StatusLine {
    text: String,
    size: i32,
    colour: &'static str,
}

/// The lines under the board (the scores under scoring, then who is to move or how the game
/// ended), and the status as the title says it.
fn status_lines(position: &Position) -> (Vec<StatusLine>, String) {
    let mut status = Vec::new();
    if let Some(target) = position.rules().scoring_target() {
        let s = position.scores();
        status.push(StatusLine {
            text: format!("Score: Red {}, Blue {} (target {target})", s.red, s.blue),
            size: 14,
            colour: LABEL,
        });
    }
    let (main_status, title_status) = match position.outcome() {
        Some(outcome) => (outcome.to_string(), format!("Game over: {outcome}")),
        None => {
            let text = format!("{} to move", position.turn());
            (text.clone(), text)
        }
    };
    status.push(StatusLine {
        text: main_status,
        size: 16,
        colour: INK,
    });
    (status, title_status)
}

/// Red's stripes, and the arrowhead when there are neutral moves to draw.
fn draw_defs(out: &mut String, has_arrows: bool) {
    out.push_str("<defs>\n");
    out.push_str(&format!(
        "<pattern id=\"{STRIPES_ID}\" width=\"10\" height=\"10\" \
         patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\
         <rect x=\"0\" y=\"0\" width=\"4\" height=\"10\" fill=\"#ffffff\" \
         fill-opacity=\"0.32\"/></pattern>\n"
    ));
    if has_arrows {
        out.push_str(&format!(
            "<marker id=\"{ARROWHEAD_ID}\" viewBox=\"0 0 10 10\" refX=\"3\" refY=\"5\" \
             markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\">\
             <path d=\"M0,0L10,5L0,10Z\" fill=\"{ARROW}\"/></marker>\n"
        ));
    }
    out.push_str("</defs>\n");
}

fn draw_cells(out: &mut String, frame: &Frame, board: Board) {
    for r in (0..board.height()).rev() {
        for c in 0..board.width() {
            let (x, y) = frame.corner(Square::new(c, r));
            out.push_str(&format!(
                "<rect class=\"cell\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" \
                 fill=\"{CELL_FILL}\" stroke=\"{GRID}\" stroke-width=\"1\"/>\n"
            ));
        }
    }
}

fn draw_l_shadow(out: &mut String, frame: &Frame, cells: Bitboard, mover: Color) {
    let (fill, _) = colours(mover);
    let path = outline_path(frame, cells, 0);
    if !path.is_empty() {
        out.push_str(&format!(
            "<path d=\"{path}\" fill=\"{fill}\" fill-opacity=\"0.18\"/>\n"
        ));
    }
}

/// The Ls, each filled as one shape and outlined around its cells, then the neutrals.
fn draw_pieces(out: &mut String, frame: &Frame, position: &Position) {
    for color in Color::ALL {
        let path = outline_path(frame, position.l(color), 0);
        if path.is_empty() {
            continue;
        }
        let (fill, edge) = colours(color);
        let class = color.name().to_ascii_lowercase();
        out.push_str(&format!("<g class=\"l {class}\">\n"));
        out.push_str(&format!("<path d=\"{path}\" fill=\"{fill}\"/>\n"));
        if color == Color::Red {
            out.push_str(&format!(
                "<path d=\"{path}\" fill=\"url(#{STRIPES_ID})\"/>\n"
            ));
        }
        out.push_str(&format!(
            "<path d=\"{path}\" fill=\"none\" stroke=\"{edge}\" stroke-width=\"2.5\" \
             stroke-linejoin=\"round\"/>\n"
        ));
        out.push_str("</g>\n");
    }
    for square in position.neutrals() {
        let (cx, cy) = frame.centre(square);
        out.push_str(&format!(
            "<circle class=\"neutral\" cx=\"{cx}\" cy=\"{cy}\" r=\"{NEUTRAL_RADIUS}\" \
             fill=\"{NEUTRAL}\"/>\n"
        ));
    }
}

/// The highlighted move: a dashed outline just inside the new L (on a white band, so that it
/// shows on the mover's own colour too), and an arrow for each neutral move ending at a
/// dashed ring where the neutral goes.
fn draw_move(out: &mut String, frame: &Frame, mv: &Move, mover: Color) {
    let (fill, _) = colours(mover);
    let path = outline_path(frame, mv.l(), HIGHLIGHT_INSET);
    if !path.is_empty() {
        out.push_str(&format!(
            "<path d=\"{path}\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"7\" \
             stroke-linejoin=\"round\"/>\n\
             <path class=\"highlight\" d=\"{path}\" fill=\"none\" stroke=\"{fill}\" \
             stroke-width=\"4\" stroke-dasharray=\"10 6\" stroke-linejoin=\"round\"/>\n"
        ));
    }
    for (from, to) in mv.neutral_moves() {
        let (fx, fy) = frame.centre(from);
        let (tx, ty) = frame.centre(to);
        out.push_str(&format!(
            "<circle cx=\"{tx}\" cy=\"{ty}\" r=\"{NEUTRAL_RADIUS}\" fill=\"none\" \
             stroke=\"{NEUTRAL}\" stroke-width=\"2\" stroke-dasharray=\"4 4\"/>\n"
        ));
        let (dx, dy) = (f64::from(tx - fx), f64::from(ty - fy));
        let length = dx.hypot(dy).max(1.0);
        let (ux, uy) = (dx / length, dy / length);
        // The line starts at the disc's edge; the arrowhead's tip, which reaches 7 of its
        // 10 units (each 0.4 line widths) beyond the line's end, touches the ring.
        let start = f64::from(NEUTRAL_RADIUS) + 3.0;
        let end = length - f64::from(NEUTRAL_RADIUS) - 2.0 - 2.8 * ARROW_WIDTH;
        let end = end.max(start);
        out.push_str(&format!(
            "<line class=\"arrow\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" \
             stroke=\"{ARROW}\" stroke-width=\"{ARROW_WIDTH}\" \
             marker-end=\"url(#{ARROWHEAD_ID})\"/>\n",
            f64::from(fx) + ux * start,
            f64::from(fy) + uy * start,
            f64::from(fx) + ux * end,
            f64::from(fy) + uy * end,
        ));
    }
}

/// The cell names on the edges.
fn draw_labels(out: &mut String, frame: &Frame, board: Board, letters_y: i32) {
    for c in 0..board.width() {
        let (x, _) = frame.centre(Square::new(c, 0));
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{letters_y}\" font-size=\"14\" fill=\"{LABEL}\">{}</text>\n",
            (b'A' + c) as char
        ));
    }
    for r in 0..board.height() {
        let (_, y) = frame.centre(Square::new(0, r));
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" fill=\"{LABEL}\">{}</text>\n",
            frame.x0 - MARGIN / 2 + 2,
            y + 5,
            r + 1
        ));
    }
}

fn draw_status(out: &mut String, status: &[StatusLine], centre_x: i32, first_y: i32) {
    let mut y = first_y;
    for line in status {
        out.push_str(&format!(
            "<text class=\"status\" x=\"{centre_x}\" y=\"{y}\" font-size=\"{}\" \
             fill=\"{}\">{}</text>\n",
            line.size,
            line.colour,
            escape(&line.text)
        ));
        y += LINE;
    }
}

/// Where the board stands in the picture.
struct Frame {
    /// The board's left edge.
    x0: i32,
    /// The board's top edge.
    y0: i32,
    /// The board's height in cells.
    height: i32,
}

impl Frame {
    /// The grid point at the top left of `square`, in cells from the board's top left.
    fn grid(&self, square: Square) -> (i32, i32) {
        (
            i32::from(square.column()),
            self.height - 1 - i32::from(square.row()),
        )
    }

    /// A grid point in pixels.
    fn point(&self, (gx, gy): (i32, i32)) -> (i32, i32) {
        (self.x0 + gx * CELL, self.y0 + gy * CELL)
    }

    /// The top left corner of `square`, in pixels.
    fn corner(&self, square: Square) -> (i32, i32) {
        self.point(self.grid(square))
    }

    /// The centre of `square`, in pixels.
    fn centre(&self, square: Square) -> (i32, i32) {
        let (x, y) = self.corner(square);
        (x + CELL / 2, y + CELL / 2)
    }
}

/// The path around a set of cells: one closed loop per piece of the set's boundary (cells
/// meeting only at a corner get loops of their own), each `inset` pixels inside the cells.
/// Empty for an empty set.
fn outline_path(frame: &Frame, cells: Bitboard, inset: i32) -> String {
    // Every cell's edges, clockwise on screen, so the cell lies to the right of each edge;
    // an edge between two cells of the set appears once each way and is not boundary.
    let mut all = BTreeSet::new();
    for square in cells {
        let (x, y) = frame.grid(square);
        let corners = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)];
        for i in 0..4 {
            all.insert((corners[i], corners[(i + 1) % 4]));
        }
    }
    let mut edges: BTreeSet<((i32, i32), (i32, i32))> = all
        .iter()
        .copied()
        .filter(|&(a, b)| !all.contains(&(b, a)))
        .collect();

    let mut path = String::new();
    while let Some(first) = edges.pop_first() {
        let mut points = vec![first.0];
        let (mut from, mut at) = first;
        // Follow the boundary back to where the loop started.
        while at != points[0] {
            // Turn right where possible (staying with the cell just passed), else go
            // straight, else left.
            let (dx, dy) = (at.0 - from.0, at.1 - from.1);
            let turns = [(-dy, dx), (dx, dy), (dy, -dx)];
            let next = turns
                .iter()
                .map(|&(tx, ty)| (at, (at.0 + tx, at.1 + ty)))
                .find(|edge| edges.contains(edge));
            let Some(edge) = next else { break };
            edges.remove(&edge);
            points.push(at);
            (from, at) = edge;
        }
        let points = corners_only(&points);
        let n = points.len();
        for (i, &p) in points.iter().enumerate() {
            let before = points[(i + n - 1) % n];
            let after = points[(i + 1) % n];
            // Move each corner inwards: the inside of both its edges lies to their right.
            let (ax, ay) = ((p.0 - before.0).signum(), (p.1 - before.1).signum());
            let (bx, by) = ((after.0 - p.0).signum(), (after.1 - p.1).signum());
            let (px, py) = frame.point(p);
            let x = px + inset * (-ay - by);
            let y = py + inset * (ax + bx);
            path.push_str(&format!("{}{x},{y}", if i == 0 { 'M' } else { 'L' }));
        }
        path.push('Z');
    }
    path
}

/// The points of a closed loop where it turns.
fn corners_only(points: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let n = points.len();
    (0..n)
        .filter(|&i| {
            let (a, p, b) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
            (p.0 - a.0) * (b.1 - p.1) != (p.1 - a.1) * (b.0 - p.0)
        })
        .map(|i| points[i])
        .collect()
}

/// The position in words, for the document's `<desc>`.
fn description(position: &Position, highlight: Option<&Move>, status: &str) -> String {
    let cells = |set: Bitboard| {
        if set.is_empty() {
            "no cells".to_string()
        } else {
            set.to_cell_list()
        }
    };
    let neutrals = position.neutrals();
    let mut text = format!(
        "The L game on a {} board. Red's L is on {}, Blue's L on {}; {}.",
        position.board(),
        cells(position.l(Color::Red)),
        cells(position.l(Color::Blue)),
        match neutrals.count() {
            0 => "there are no neutrals".to_string(),
            1 => format!("the neutral is on {}", neutrals.to_cell_list()),
            _ => format!("the neutrals are on {}", neutrals.to_cell_list()),
        }
    );
    if let Some(target) = position.rules().scoring_target() {
        let s = position.scores();
        text.push_str(&format!(
            " Score: Red {}, Blue {} (target {target}).",
            s.red, s.blue
        ));
    }
    text.push_str(&format!(" {status}."));
    if let Some(mv) = highlight {
        text.push_str(&format!(
            " Marked move {mv}: {}'s L to {}",
            position.turn(),
            cells(mv.l())
        ));
        for (from, to) in mv.neutral_moves() {
            text.push_str(&format!(", the neutral on {from} to {to}"));
        }
        text.push('.');
    }
    text
}

/// `text` with the characters XML gives a meaning replaced by entities, fit for element
/// content and double-quoted attribute values (the only quotes this module writes, so an
/// apostrophe can stay as it is).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::all_positions;
    use crate::rules::Rules;

    /// Checks that `text` is one well-formed XML element: tags nested and closed, names
    /// plain, attributes quoted and not repeated, `<` and `&` only where XML allows them.
    fn check_well_formed(text: &str) -> Result<(), String> {
        fn check_entities(text: &str) -> Result<(), String> {
            let mut rest = text;
            while let Some(i) = rest.find('&') {
                let after = &rest[i + 1..];
                let end = after.find(';').ok_or(format!("bare & in {text:?}"))?;
                let name = &after[..end];
                let numeric = name
                    .strip_prefix('#')
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
                if !numeric && !["amp", "lt", "gt", "quot", "apos"].contains(&name) {
                    return Err(format!("unknown entity &{name}; in {text:?}"));
                }
                rest = &after[end + 1..];
            }
            Ok(())
        }
        fn check_name(name: &str) -> Result<(), String> {
            let mut chars = name.chars();
            let good = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || "-_:".contains(c));
            if good {
                Ok(())
            } else {
                Err(format!("bad name {name:?}"))
            }
        }
        fn check_attributes(mut rest: &str) -> Result<(), String> {
            let mut seen = Vec::new();
            loop {
                let trimmed = rest.trim_start();
                if trimmed.is_empty() {
                    return Ok(());
                }
                if trimmed.len() == rest.len() {
                    return Err(format!("no space before attribute at {rest:?}"));
                }
                let eq = trimmed
                    .find('=')
                    .ok_or(format!("attribute without value {trimmed:?}"))?;
                let name = &trimmed[..eq];
                check_name(name)?;
                if seen.contains(&name) {
                    return Err(format!("attribute {name} repeated"));
                }
                seen.push(name);
                let value = trimmed[eq + 1..]
                    .strip_prefix('"')
                    .ok_or(format!("unquoted attribute {name}"))?;
                let close = value
                    .find('"')
                    .ok_or(format!("unclosed attribute {name}"))?;
                if value[..close].contains('<') {
                    return Err(format!("< in attribute {name}"));
                }
                check_entities(&value[..close])?;
                rest = &value[close + 1..];
            }
        }

        let mut stack: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = text;
        loop {
            let open = rest.find('<').unwrap_or(rest.len());
            let between = &rest[..open];
            if stack.is_empty() && !between.trim().is_empty() {
                return Err(format!("text outside the root element: {between:?}"));
            }
            if between.contains('>') {
                return Err(format!("stray > in {between:?}"));
            }
            check_entities(between)?;
            if open == rest.len() {
                break;
            }
            let close = rest[open..].find('>').ok_or("unclosed tag")? + open;
            let tag = &rest[open + 1..close];
            rest = &rest[close + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match stack.pop() {
                    Some(top) if top == name => continue,
                    top => return Err(format!("</{name}> closes {top:?}")),
                }
            }
            if stack.is_empty() {
                roots += 1;
            }
            let (body, self_closing) = match tag.strip_suffix('/') {
                Some(body) => (body, true),
                None => (tag, false),
            };
            let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
            let name = &body[..name_end];
            check_name(name)?;
            check_attributes(&body[name_end..])?;
            if !self_closing {
                stack.push(name);
            }
        }
        if !stack.is_empty() {
            return Err(format!("unclosed elements {stack:?}"));
        }
        if roots != 1 {
            return Err(format!("{roots} root elements"));
        }
        Ok(())
    }

    fn position(text: &str, rules: &str) -> Position {
        Position::from_text(text, &rules.parse::<Rules>().unwrap()).unwrap()
    }

    fn finished() -> Position {
        all_positions(&Rules::classic())
            .into_iter()
            .find(Position::is_finished)
            .expect("the classic game has finished positions")
    }

    fn scoring() -> Position {
        position("NRR./.RB./.RB./.BBN r 3-2", "scoring")
    }

    fn wide() -> Position {
        "board=6x4".parse::<Rules>().unwrap().start_position()
    }

    fn count(text: &str, needle: &str) -> usize {
        text.matches(needle).count()
    }

    #[test]
    fn the_checker_refuses_broken_xml() {
        for bad in [
            "<a><b></a></b>",
            "<a>",
            "<a x=1/>",
            "<a x=\"1\" x=\"2\"/>",
            "<a>&</a>",
            "<a/><b/>",
            "text<a/>",
        ] {
            assert!(check_well_formed(bad).is_err(), "{bad}");
        }
        assert_eq!(
            check_well_formed("<a x=\"&amp;\"><b/>t &lt; u</a>\n"),
            Ok(())
        );
    }

    #[test]
    fn output_is_well_formed_xml() {
        let start = Rules::classic().start_position();
        let moves = start.legal_moves();
        let mut cases = vec![
            svg(&start, None),
            svg(&finished(), None),
            svg(&scoring(), None),
            svg(&wide(), None),
            svg(
                &"board=8x8,neutrals=5"
                    .parse::<Rules>()
                    .unwrap()
                    .start_position(),
                None,
            ),
        ];
        cases.extend(moves.iter().map(|mv| svg(&start, Some(mv))));
        for text in cases {
            if let Err(problem) = check_well_formed(&text) {
                panic!("{problem}\n{text}");
            }
            assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
            assert!(text.contains(" role=\"img\""));
            assert_eq!(count(&text, "<title>"), 1);
            assert_eq!(count(&text, "<desc>"), 1);
            assert_eq!(count(&text, "font-family=\"sans-serif\""), 1);
            assert!(!text.contains("<script"));
            assert!(!text.contains("href"));
        }
    }

    #[test]
    fn there_is_one_cell_rect_per_board_cell() {
        let start = Rules::classic().start_position();
        assert_eq!(count(&svg(&start, None), "<rect class=\"cell\""), 16);
        assert_eq!(count(&svg(&wide(), None), "<rect class=\"cell\""), 24);
        let big = "board=8x7".parse::<Rules>().unwrap().start_position();
        assert_eq!(count(&svg(&big, None), "<rect class=\"cell\""), 56);
    }

    #[test]
    fn the_edges_carry_the_cell_names() {
        let text = svg(&wide(), None);
        for letter in ["A", "B", "C", "D", "E", "F"] {
            assert_eq!(count(&text, &format!(">{letter}</text>")), 1, "{letter}");
        }
        for number in 1..=4 {
            assert_eq!(count(&text, &format!(">{number}</text>")), 1, "{number}");
        }
        assert!(!text.contains(">G</text>") && !text.contains(">5</text>"));
    }

    #[test]
    fn pieces_are_drawn_one_shape_per_l_with_red_striped() {
        let text = svg(&Rules::classic().start_position(), None);
        assert_eq!(count(&text, "<g class=\"l red\">"), 1);
        assert_eq!(count(&text, "<g class=\"l blue\">"), 1);
        assert_eq!(count(&text, "fill=\"url(#lgame-red-stripes)\""), 1);
        assert_eq!(count(&text, "<circle class=\"neutral\""), 2);
        // Red's L (B2,B3,B4,C4 on the 4x4 board at 34,16) is one six-cornered outline.
        assert!(text.contains(
            "<path d=\"M94,16L214,16L214,76L154,76L154,196L94,196Z\" fill=\"#d64545\"/>"
        ));
    }

    #[test]
    fn the_outline_of_an_l_has_six_corners() {
        let frame = Frame {
            x0: 0,
            y0: 0,
            height: 4,
        };
        let l: Bitboard = ["A1", "A2", "A3", "B1"]
            .iter()
            .map(|s| s.parse::<Square>().unwrap())
            .collect();
        assert_eq!(
            outline_path(&frame, l, 0),
            "M0,60L60,60L60,180L120,180L120,240L0,240Z"
        );
        assert_eq!(
            outline_path(&frame, l, 5),
            "M5,65L55,65L55,185L115,185L115,235L5,235Z"
        );
        assert_eq!(outline_path(&frame, Bitboard::EMPTY, 0), "");
        // Cells meeting at a corner only get a loop each.
        let diagonal: Bitboard = ["A1", "B2"]
            .iter()
            .map(|s| s.parse::<Square>().unwrap())
            .collect();
        assert_eq!(count(&outline_path(&frame, diagonal, 0), "Z"), 2);
    }

    #[test]
    fn the_title_names_the_position_and_the_side_to_move() {
        let start = Rules::classic().start_position();
        let text = svg(&start, None);
        assert!(text.contains("<title>L game position NRR./.RB./.RB./.BBN r: Red to move</title>"));
        assert!(text.contains(">Red to move</text>"));
        let after = start.play(&"A1,A2,A3,B3 D1-D2".parse().unwrap()).unwrap();
        let text = svg(&after, None);
        assert!(text.contains(&format!(
            "<title>L game position {after}: Blue to move</title>"
        )));
        assert!(text.contains(">Blue to move</text>"));
        assert!(text.contains("Red's L is on A1,A2,A3,B3, Blue's L on B1,C1,C2,C3"));
    }

    #[test]
    fn a_highlighted_move_gets_a_dashed_outline_and_an_arrow_per_neutral_move() {
        let start = Rules::classic().start_position();
        let plain = svg(&start, None);
        assert_eq!(count(&plain, "class=\"highlight\""), 0);
        assert_eq!(count(&plain, "class=\"arrow\""), 0);
        assert!(!plain.contains("<marker"));

        let l_only: Move = "A1,A2,A3,B3".parse().unwrap();
        let text = svg(&start, Some(&l_only));
        assert_eq!(count(&text, "class=\"highlight\""), 1);
        assert!(text.contains("stroke=\"#d64545\" stroke-width=\"4\" stroke-dasharray=\"10 6\""));
        assert_eq!(count(&text, "class=\"arrow\""), 0);

        let with_neutral: Move = "A1,A2,A3,B3 D1-D2".parse().unwrap();
        let text = svg(&start, Some(&with_neutral));
        assert_eq!(count(&text, "class=\"highlight\""), 1);
        assert_eq!(count(&text, "<line class=\"arrow\""), 1);
        assert_eq!(count(&text, "marker-end=\"url(#lgame-arrowhead)\""), 1);
        assert!(text.contains(
            "Marked move A1,A2,A3,B3 D1-D2: Red's L to A1,A2,A3,B3, the \
                               neutral on D1 to D2."
        ));

        // Blue's move is outlined in blue.
        let after = start.play(&with_neutral).unwrap();
        let text = svg(&after, Some(&after.legal_moves()[0]));
        assert!(text.contains("stroke=\"#3f6fd8\" stroke-width=\"4\" stroke-dasharray"));

        // Two neutral moves (sudden death allows them), two arrows.
        let rules: Rules = "sudden-death".parse().unwrap();
        let sudden = rules.start_position();
        let two_moves = sudden
            .legal_moves()
            .into_iter()
            .find(|mv| mv.neutral_moves().len() == 2)
            .expect("sudden death may move both neutrals");
        let text = svg(&sudden, Some(&two_moves));
        assert_eq!(count(&text, "<line class=\"arrow\""), 2);
        assert_eq!(count(&text, "stroke-dasharray=\"4 4\""), 2);
        let mv = Move::new(
            with_neutral.l(),
            &[
                ("A4".parse().unwrap(), "A1".parse().unwrap()),
                ("D1".parse().unwrap(), "D3".parse().unwrap()),
            ],
        )
        .unwrap();
        let text = svg(&start, Some(&mv));
        assert_eq!(count(&text, "<line class=\"arrow\""), 2);
        assert_eq!(check_well_formed(&text), Ok(()));
    }

    #[test]
    fn illegal_and_off_board_moves_are_drawn_without_panicking() {
        let start = Rules::classic().start_position();
        for text in [
            "B1,C1,C2,C3 A4-B4",
            "E5,E6,E7,F5 H8-G8",
            "A1,B2,C3,D4 D4-A1",
        ] {
            let mv: Move = text.parse().unwrap();
            let drawn = svg(&start, Some(&mv));
            assert_eq!(check_well_formed(&drawn), Ok(()), "{text}");
            assert_eq!(count(&drawn, "<line class=\"arrow\""), 1, "{text}");
        }
        let finished = finished();
        let mv: Move = "A1,A2,A3,B3".parse().unwrap();
        assert_eq!(check_well_formed(&svg(&finished, Some(&mv))), Ok(()));
    }

    #[test]
    fn a_finished_position_says_how_the_game_ended() {
        let position = finished();
        let outcome = position.outcome().unwrap();
        let text = svg(&position, None);
        assert!(text.contains(&format!(">{outcome}</text>")));
        assert!(text.contains(&format!(": Game over: {outcome}</title>")));
        assert!(!text.contains("to move"));
    }

    #[test]
    fn a_scoring_position_shows_the_scores() {
        let text = svg(&scoring(), None);
        assert!(text.contains(">Score: Red 3, Blue 2 (target 10)</text>"));
        assert!(text.contains("<title>L game position NRR./.RB./.RB./.BBN r 3-2: Red to move"));
        let plain = svg(&Rules::classic().start_position(), None);
        assert!(!plain.contains("Score"));
    }

    #[test]
    fn rendering_is_deterministic() {
        let start = Rules::classic().start_position();
        let mv: Move = "A1,A2,A3,B3 D1-D2".parse().unwrap();
        assert_eq!(svg(&start, Some(&mv)), svg(&start, Some(&mv)));
        assert_eq!(svg(&wide(), None), svg(&wide(), None));
        assert_eq!(svg(&scoring(), None), svg(&scoring(), None));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c'".to_string());
        assert_eq!(escape("Red to move"), "Red to move");
    }
}
