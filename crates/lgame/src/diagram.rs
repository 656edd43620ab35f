//! The board drawn for people: as text ([`text`], rows from the top, cell names on the edges
//! and who is to move, optionally coloured with ANSI escape codes) and as an SVG picture
//! ([`svg()`], with the default feature `svg`).

#[cfg(feature = "svg")]
mod svg;
#[cfg(feature = "svg")]
pub use svg::svg;

use crate::color::Color;
use crate::position::{Piece, Position};
use crate::square::Square;

const RESET: &str = "\x1b[0m";

fn style(piece: Option<Piece>) -> &'static str {
    match piece {
        Some(Piece::L(Color::Red)) => "\x1b[1;97;41m",
        Some(Piece::L(Color::Blue)) => "\x1b[1;97;44m",
        Some(Piece::Neutral) => "\x1b[1;30;47m",
        None => "\x1b[2m",
    }
}

/// Draws the position as text:
///
/// ```
/// use lgame::{diagram, Rules};
///
/// let text = diagram::text(&Rules::classic().start_position(), false);
/// assert_eq!(text, "\
/// 4  N R R .
/// 3  . R B .
/// 2  . R B .
/// 1  . B B N
///    A B C D
/// Red to move
/// ");
/// ```
///
/// With `colour`, each piece is drawn on its colour (ANSI escape codes). The last line says
/// who is to move, or how the game ended; under scoring a line gives the scores.
pub fn text(position: &Position, colour: bool) -> String {
    let board = position.board();
    let mut out = String::new();
    for r in (0..board.height()).rev() {
        out.push_str(&format!("{} ", r + 1));
        for c in 0..board.width() {
            let piece = position.piece_at(Square::new(c, r));
            let letter = match piece {
                Some(Piece::L(color)) => color.letter(),
                Some(Piece::Neutral) => 'N',
                None => '.',
            };
            if colour {
                out.push_str(&format!("{} {letter}{RESET}", style(piece)));
            } else {
                out.push(' ');
                out.push(letter);
            }
        }
        out.push('\n');
    }
    out.push_str("  ");
    for c in 0..board.width() {
        out.push(' ');
        out.push((b'A' + c) as char);
    }
    out.push('\n');
    if let Some(target) = position.rules().scoring_target() {
        let s = position.scores();
        out.push_str(&format!(
            "Score: Red {}, Blue {} (target {target})\n",
            s.red, s.blue
        ));
    }
    match position.outcome() {
        Some(outcome) => out.push_str(&format!("Game over: {outcome}\n")),
        None => out.push_str(&format!("{} to move\n", position.turn())),
    }
    out
}
