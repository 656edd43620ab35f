//! Drawing the screen from an [`App`]: the board, the game panel, the hints, the message
//! line, the keys, and the help screen. Deterministic: the same state draws the same screen.

use lgame::position::Piece;
use lgame::{Color, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tint, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Tone};
use super::building::Step;
use super::view::{BoardLayout, CellView};

/// Cell sizes to try, largest first: characters across, rows down.
const CELL_SIZES: [(u16, u16); 6] = [(9, 4), (7, 3), (5, 3), (5, 2), (4, 2), (3, 1)];
/// Width of the row numbers on the board's left edge.
const LABEL_WIDTH: u16 = 3;
const INFO_MIN_WIDTH: u16 = 30;
const HINTS_WIDTH: u16 = 32;

fn colour_of(color: Color) -> Tint {
    match color {
        Color::Red => Tint::Red,
        Color::Blue => Tint::Blue,
    }
}

fn light_colour_of(color: Color) -> Tint {
    match color {
        Color::Red => Tint::LightRed,
        Color::Blue => Tint::LightBlue,
    }
}

fn value_colour(value: &str) -> Tint {
    match value {
        "win" => Tint::Green,
        "loss" => Tint::Red,
        _ => Tint::Yellow,
    }
}

/// Draws the whole screen; returns where the board's cells are, for mouse clicks.
pub fn draw(frame: &mut Frame, app: &App) -> Option<BoardLayout> {
    let [title, main, message, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_title(frame, app, title);
    draw_message(frame, app, message);
    draw_keys(frame, app, keys);

    let board = app.game().rules().board();
    let (columns, rows) = (u16::from(board.width()), u16::from(board.height()));
    let hints_width = if app.hints_shown() { HINTS_WIDTH } else { 0 };
    // The board keeps its size when the hints come and go: room is left for them.
    let room = main.width.saturating_sub(INFO_MIN_WIDTH + HINTS_WIDTH);
    let fits = |(w, h): (u16, u16), width: u16| {
        2 + LABEL_WIDTH + columns * w <= width && 2 + rows * h < main.height
    };
    let size = CELL_SIZES
        .into_iter()
        .find(|&s| fits(s, room))
        .or_else(|| CELL_SIZES.into_iter().rev().find(|&s| fits(s, main.width)));
    let Some((cell_width, cell_height)) = size else {
        frame.render_widget(
            Paragraph::new("The terminal is too small for the board.").wrap(Wrap { trim: true }),
            main,
        );
        return None;
    };
    let board_width = 2 + LABEL_WIDTH + columns * cell_width;
    let board_height = 2 + rows * cell_height + 1;
    let [board_column, info, hints] = Layout::horizontal([
        Constraint::Length(board_width),
        Constraint::Min(0),
        Constraint::Length(hints_width),
    ])
    .areas(main);
    let [board_area, below_board] =
        Layout::vertical([Constraint::Length(board_height), Constraint::Min(0)])
            .areas(board_column);
    let layout = draw_board(frame, app, board_area, cell_width, cell_height);
    draw_legend(frame, below_board);
    draw_info(frame, app, info);
    if app.hints_shown() {
        draw_hints(frame, app, hints);
    }
    if app.help_shown() {
        draw_help(frame, frame.area());
    }
    Some(layout)
}

fn draw_title(frame: &mut Frame, app: &App, area: Rect) {
    let game = app.game();
    let seats = &app.table().seated;
    let line = Line::from(vec![
        Span::raw(" L game ").bold().reversed(),
        Span::raw(format!(" {} · ", game.rules())),
        Span::raw("Red").fg(Tint::Red).bold(),
        Span::raw(format!(": {} · ", seats.seat(Color::Red))),
        Span::raw("Blue").fg(Tint::LightBlue).bold(),
        Span::raw(format!(": {}", seats.seat(Color::Blue))),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_message(frame: &mut Frame, app: &App, area: Rect) {
    let message = app.message();
    let style = match message.tone {
        Tone::Info => Style::new(),
        Tone::Done => Style::new().fg(Tint::Green),
        Tone::Error => Style::new().fg(Tint::LightRed).bold(),
    };
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(
            format!(" {}", message.text),
            style,
        ))),
        area,
    );
}

fn draw_keys(frame: &mut Frame, app: &App, area: Rect) {
    if let Some(text) = app.input() {
        let line = Line::from(vec![
            Span::raw(" Move: ").bold().reversed(),
            Span::raw(format!(" {text}")),
            Span::raw("█").slow_blink(),
            Span::raw("   Enter plays · Esc cancels").dark_gray(),
        ]);
        frame.render_widget(Paragraph::new(line), area);
        return;
    }
    let text = if app.ghost_active() {
        " arrows move the ghost · r turn · f flip · Enter put down · Esc put away"
    } else if app.game().is_over() {
        " u undo · U redo · N new game · s save · H hints · ? help · q quit"
    } else if app.no_person() {
        " p pause · + faster · - slower · u undo · H hints · s save · N new · ? help · q quit"
    } else {
        match app.step() {
            Step::L { .. } => {
                " arrows/hjkl · Space pick · Esc clear · m type · g ghost · H hints · u/U undo/redo · ? help · q quit"
            }
            Step::Neutral { .. } => {
                " arrows/hjkl · Space pick neutral, then cell · n none · Esc back · H hints · ? help · q quit"
            }
        }
    };
    frame.render_widget(Paragraph::new(text).dark_gray(), area);
}

fn piece_style(piece: Option<Piece>, square: Square) -> Style {
    match piece {
        Some(Piece::L(color)) => Style::new().bg(colour_of(color)).fg(Tint::White).bold(),
        Some(Piece::Neutral) => Style::new().bg(Tint::Gray).fg(Tint::Black).bold(),
        None => {
            let shade = if (square.column() + square.row()).is_multiple_of(2) {
                236
            } else {
                238
            };
            Style::new().bg(Tint::Indexed(shade)).fg(Tint::Indexed(246))
        }
    }
}

/// The three characters in the middle of a cell: marks either side of the piece's letter.
fn glyph(cell: &CellView) -> (char, char, char) {
    let letter = match cell.piece {
        Some(Piece::L(color)) => color.letter(),
        Some(Piece::Neutral) => 'N',
        None if cell.last_vacated => '∘',
        None => '·',
    };
    let (left, right) = if cell.picked {
        ('>', '<')
    } else if cell.selected {
        ('[', ']')
    } else if cell.ghost {
        ('«', '»')
    } else if cell.candidate {
        ('‹', '›')
    } else {
        (' ', ' ')
    };
    (left, letter, right)
}

fn draw_cell(buf: &mut Buffer, rect: Rect, square: Square, cell: &CellView, mover: Color) {
    let mut style = piece_style(cell.piece, square);
    if cell.selected {
        style = Style::new()
            .bg(light_colour_of(mover))
            .fg(Tint::Black)
            .bold();
    } else if cell.picked {
        style = Style::new().bg(Tint::Yellow).fg(Tint::Black).bold();
    } else if cell.ghost && cell.piece.is_none() {
        style = style.bg(Tint::Indexed(54));
    } else if cell.candidate && cell.piece.is_none() {
        style = style.bg(Tint::Indexed(22));
    }
    for y in rect.top()..rect.bottom() {
        buf.set_string(rect.x, y, " ".repeat(rect.width as usize), style);
    }
    let mark = Style::new().fg(Tint::Yellow).add_modifier(Modifier::BOLD);
    let content_row = if rect.height >= 3 {
        rect.y + rect.height / 2
    } else {
        rect.y
    };
    let (left, letter, right) = glyph(cell);
    let x = rect.x + (rect.width - 3) / 2;
    let mut letter_style = style;
    if rect.height == 1 {
        if cell.last_placed {
            letter_style = letter_style.add_modifier(Modifier::UNDERLINED);
        }
        if cell.cursor {
            letter_style = letter_style.add_modifier(Modifier::REVERSED);
        }
    }
    let marks = if cell.candidate && !cell.selected && !cell.picked {
        style.fg(Tint::LightGreen).bold()
    } else if cell.ghost {
        style.fg(Tint::LightMagenta).bold()
    } else {
        style
    };
    buf.set_string(x, content_row, left.to_string(), marks);
    buf.set_string(x + 1, content_row, letter.to_string(), letter_style);
    buf.set_string(x + 2, content_row, right.to_string(), marks);
    if rect.height >= 2 {
        let bottom = rect.bottom() - 1;
        if cell.last_placed {
            let bar = "▁".repeat(rect.width.saturating_sub(2) as usize);
            buf.set_string(rect.x + 1, bottom, bar, style.fg(Tint::Yellow));
        }
        if cell.cursor {
            let right = rect.right() - 1;
            buf.set_string(rect.x, bottom, "└", style.patch(mark));
            buf.set_string(right, bottom, "┘", style.patch(mark));
            if rect.height >= 3 {
                buf.set_string(rect.x, rect.y, "┌", style.patch(mark));
                buf.set_string(right, rect.y, "┐", style.patch(mark));
            }
        }
    }
}

fn draw_board(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    cell_width: u16,
    cell_height: u16,
) -> BoardLayout {
    let position = app.position();
    let board = position.board();
    let title = if app.game().is_over() {
        " Game over ".to_string()
    } else {
        format!(" {} to move ", position.turn())
    };
    let block = Block::bordered().title(Line::from(title).bold());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (columns, rows) = (u16::from(board.width()), u16::from(board.height()));
    let layout = BoardLayout {
        cells: Rect::new(
            inner.x + LABEL_WIDTH,
            inner.y,
            columns * cell_width,
            rows * cell_height,
        ),
        cell_width,
        cell_height,
        board,
    };
    let view = app.board_view();
    let buf = frame.buffer_mut();
    let label = Style::new().fg(Tint::Gray);
    for square in board.mask() {
        let rect = layout.cell_rect(square);
        draw_cell(buf, rect, square, &view.at(square), position.turn());
        if square.column() == 0 {
            let y = if cell_height >= 3 {
                rect.y + cell_height / 2
            } else {
                rect.y
            };
            buf.set_string(inner.x, y, format!("{:>2}", square.row() + 1), label);
        }
        if square.row() == 0 {
            let letter = (b'A' + square.column()) as char;
            let x = rect.x + cell_width / 2;
            buf.set_string(x, layout.cells.bottom(), letter.to_string(), label);
        }
    }
    layout
}

fn draw_legend(frame: &mut Frame, area: Rect) {
    let lines = vec![
        Line::from(vec![
            Span::raw(" R ").on_red().white().bold(),
            Span::raw(" Red  "),
            Span::raw(" B ").on_blue().white().bold(),
            Span::raw(" Blue  "),
            Span::raw(" N ").on_gray().black().bold(),
            Span::raw(" neutral"),
        ]),
        Line::from(" [ ] your new L  ‹ › can go here").dark_gray(),
        Line::from(" ▁▁▁ last move   ∘ a neutral left").dark_gray(),
    ];
    frame.render_widget(Paragraph::new(lines), area);
}

fn seat_line(app: &App, color: Color) -> Line<'static> {
    let seat = app.table().seated.seat(color);
    let name = format!("{:<5}", color.name());
    let turn = !app.game().is_over() && app.position().turn() == color;
    Line::from(vec![
        Span::raw(if turn { "▶ " } else { "  " }),
        Span::raw(name)
            .fg(if color == Color::Red {
                Tint::Red
            } else {
                Tint::LightBlue
            })
            .bold(),
        Span::raw(format!(" ({})  {seat}", color.letter())),
    ])
}

fn draw_info(frame: &mut Frame, app: &App, area: Rect) {
    let game = app.game();
    let table = app.table();
    let mut lines = vec![
        seat_line(app, Color::Red),
        seat_line(app, Color::Blue),
        Line::from(""),
        Line::from(format!("Rules  {}", game.rules())),
        Line::from(format!("Draws  {}", table.draw_rules())),
    ];
    if let Some(target) = game.rules().scoring_target() {
        let scores = app.position().scores();
        lines.push(Line::from(format!(
            "Score  Red {}, Blue {} (target {target})",
            scores.red, scores.blue
        )));
    }
    lines.push(Line::from(""));
    let status = table.status();
    if game.is_over() {
        lines.push(Line::from(status).bold().fg(Tint::Yellow));
    } else {
        let turn = app.position().turn();
        lines.push(Line::from(status).bold().fg(if turn == Color::Red {
            Tint::Red
        } else {
            Tint::LightBlue
        }));
    }
    match app.last_move() {
        Some((color, mv)) => lines.push(Line::from(format!("Last move: {color} {mv}"))),
        None => lines.push(Line::from("Last move: none yet")),
    }
    if app.no_person() {
        lines.push(Line::from(format!(
            "Speed: a move every {} ms{}",
            app.watch_delay().as_millis(),
            if app.paused() { " (paused)" } else { "" }
        )));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(app.prompt()).bold());
    if app.table().seated.waiting_for_human() {
        lines.push(Line::from(format!("Cursor: {}", app.cursor())).dark_gray());
    }
    match app.step() {
        Step::L { cells } if cells.any() => {
            lines.push(Line::from(format!("New L: {}", cells.to_cell_list())));
        }
        Step::Neutral { l, moves, from } => {
            lines.push(Line::from(format!("New L: {}", l.to_cell_list())));
            for (f, t) in moves {
                lines.push(Line::from(format!("Neutral: {f}-{t}")));
            }
            if let Some(f) = from {
                lines.push(Line::from(format!("Neutral: {f}-?")));
            }
        }
        _ => {}
    }
    let block = Block::bordered().title(Line::from(" Game ").bold());
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn plies_text(value: &str, plies: Option<u16>) -> String {
    match plies {
        Some(p) => format!("{value} in {p}"),
        None => value.to_string(),
    }
}

fn draw_hints(frame: &mut Frame, app: &App, area: Rect) {
    let block = Block::bordered().title(Line::from(" Hints ").bold());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines: Vec<Line> = if app.game().is_over() {
        vec![Line::from("The game is over.")]
    } else if let Some(analysis) = app.hints() {
        let mut lines = vec![
            Line::from(vec![
                Span::raw(format!("{} to move: ", app.position().turn())),
                Span::raw(plies_text(analysis.value, analysis.plies))
                    .fg(value_colour(analysis.value))
                    .bold(),
            ]),
            Line::from(format!("{} moves, best first:", analysis.moves.len())).dark_gray(),
        ];
        let room = (inner.height as usize).saturating_sub(lines.len());
        let shown = if analysis.moves.len() > room {
            room.saturating_sub(1)
        } else {
            analysis.moves.len()
        };
        let width = analysis
            .moves
            .iter()
            .take(shown)
            .map(|m| m.mv.len())
            .max()
            .unwrap_or(0);
        for m in analysis.moves.iter().take(shown) {
            lines.push(Line::from(vec![
                Span::raw(format!("{:<width$} ", m.mv)),
                Span::raw(plies_text(m.value, m.plies)).fg(value_colour(m.value)),
            ]));
        }
        if shown < analysis.moves.len() {
            lines.push(
                Line::from(format!("… and {} more", analysis.moves.len() - shown)).dark_gray(),
            );
        }
        lines
    } else {
        vec![Line::from("No analysis for this position.")]
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Every key, for the help screen.
pub const KEYS: [(&str, &str); 23] = [
    ("arrows, h j k l", "move the cursor"),
    (
        "Space, click",
        "pick a cell: the L's cells, then a neutral, then its cell",
    ),
    ("Enter", "like Space; on the neutral step, move no neutral"),
    ("n", "move no (more) neutral: play the chosen L"),
    (
        "Esc, Backspace",
        "one step back: clear the cells, put the neutral down",
    ),
    (": or m", "type a move in notation, like A2,A3,A4,B4 B2-A1"),
    ("g", "ghost L: move it with the arrows"),
    ("r, f", "turn, flip the ghost L; Enter puts it down"),
    ("H", "show or hide the hints: every move's value"),
    ("u", "undo (back to your own turn)"),
    ("U, Ctrl-r", "redo"),
    ("N", "new game: same rules, setup and players"),
    ("s", "save the game's record"),
    ("R", "resign (the person to move gives up)"),
    ("p", "pause or resume the computers"),
    ("+, -", "two computers: faster, slower"),
    ("?", "this help"),
    ("q, Ctrl-c", "quit"),
    ("", ""),
    ("Board", "R Red's L, B Blue's L, N neutral, · empty"),
    ("", "[ ] your new L, ‹ › cells that can complete it"),
    ("", "> < the neutral picked up, ▁▁ the last move"),
    ("", "Any key closes this help."),
];

fn draw_help(frame: &mut Frame, area: Rect) {
    let width = 78.min(area.width);
    let height = (KEYS.len() as u16 + 2).min(area.height);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let lines: Vec<Line> = KEYS
        .iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::raw(format!(" {key:<16}")).bold().fg(Tint::Yellow),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(Line::from(" Keys ").bold())),
        popup,
    );
}
