//! `lgame play --plain`: the game line by line. The board is printed as text with the
//! position in notation, moves are typed in notation, and bad input gets the reason and a
//! new prompt, never the end of the game.

use std::io::{BufRead, Write};

use lgame::Move;

use super::Table;
use crate::output::Failure;

const HELP: &str = "\
Type a move in notation, like A1,A2,A3,B3 D1-D2 (the L's four cells, then any neutral move
from-to), or a command:
  moves        list the legal moves
  hint         the position's value and the best moves (from the solved game)
  undo, redo   take back or replay moves (back to your own turn)
  save [FILE]  save the game as a record
  board        show the board again
  resign       give up the game
  help         this text
  quit         leave";

fn show(table: &Table, out: &mut impl Write) -> std::io::Result<()> {
    let game = table.seated.game();
    write!(out, "{}", lgame::diagram::text(game.position(), false))?;
    writeln!(out, "Position: {}", game.position())?;
    writeln!(out, "{}", table.status())
}

/// Lets computers move until a person is to move or the game is over.
fn computers(table: &mut Table, out: &mut impl Write) -> std::io::Result<()> {
    while table.seated.computer_to_move() {
        let turn = table.seated.game().position().turn();
        let seat = table.seated.seat(turn).clone();
        match table.seated.play_computer() {
            Some(mv) => {
                writeln!(out, "{turn} ({seat}) plays {mv}")?;
                show(table, out)?;
            }
            None => {
                if let Some(reason) = table.seated.forfeit() {
                    writeln!(out, "{turn} ({seat}) forfeits: {reason}")?;
                }
                break;
            }
        }
    }
    Ok(())
}

fn hint(table: &Table, out: &mut impl Write) -> std::io::Result<()> {
    let Some(analysis) = table.hints() else {
        return writeln!(out, "No hint: the game is over.");
    };
    let plies = |p: Option<u16>| p.map_or(String::new(), |p| format!(" in {p}"));
    writeln!(
        out,
        "Value for the player to move: {}{}",
        analysis.value,
        plies(analysis.plies)
    )?;
    for m in analysis.moves.iter().take(8) {
        writeln!(out, "  {:<22} {}{}", m.mv, m.value, plies(m.plies))?;
    }
    if analysis.moves.len() > 8 {
        writeln!(
            out,
            "  … and {} more (type moves)",
            analysis.moves.len() - 8
        )?;
    }
    Ok(())
}

/// Plays the game over `input` and `out` until `quit` or the end of the input.
pub fn run(mut table: Table, mut input: impl BufRead, out: &mut impl Write) -> Result<(), Failure> {
    writeln!(
        out,
        "L game: {} — Red: {}, Blue: {} — {}. Type help for the commands.",
        table.seated.game().rules(),
        table.seated.seat(lgame::Color::Red),
        table.seated.seat(lgame::Color::Blue),
        table.draw_rules()
    )?;
    show(&table, out)?;
    let mut bytes = Vec::new();
    loop {
        computers(&mut table, out)?;
        let prompt = if table.seated.game().is_over() {
            "game over (undo, save, quit)> ".to_string()
        } else {
            format!("{}> ", table.seated.game().position().turn())
        };
        write!(out, "{prompt}")?;
        out.flush()?;
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => show(&table, out)?,
            "moves" => {
                let moves = table.seated.game().position().legal_moves();
                for mv in &moves {
                    writeln!(out, "  {mv}")?;
                }
                writeln!(out, "{} legal moves", moves.len())?;
            }
            "hint" => hint(&table, out)?,
            "undo" => match table.seated.undo() {
                0 => writeln!(out, "Nothing to undo.")?,
                n => {
                    writeln!(out, "Took back {n} move{}.", if n == 1 { "" } else { "s" })?;
                    show(&table, out)?;
                }
            },
            "redo" => match table.seated.redo() {
                0 => writeln!(out, "Nothing to redo.")?,
                n => {
                    writeln!(out, "Replayed {n} move{}.", if n == 1 { "" } else { "s" })?;
                    show(&table, out)?;
                }
            },
            "save" => match table.save((!rest.trim().is_empty()).then_some(rest.trim())) {
                Ok(path) => writeln!(out, "Saved to {}.", path.display())?,
                Err(e) => writeln!(out, "{e}")?,
            },
            "resign" => {
                let turn = table.seated.game().position().turn();
                if !table.seated.seat(turn).is_human() {
                    writeln!(out, "It is not your turn.")?;
                } else if let Err(e) = table.seated.game_mut().resign(turn) {
                    writeln!(out, "{e}")?;
                } else {
                    show(&table, out)?;
                }
            }
            _ => match line.parse::<Move>() {
                Err(e) => writeln!(
                    out,
                    "Not a move or command: {e}. Type help for the commands."
                )?,
                Ok(mv) if !table.seated.waiting_for_human() => {
                    let _ = mv;
                    writeln!(out, "It is not a person's turn: {}", table.status())?
                }
                Ok(mv) => match table.seated.play_human(&mv) {
                    Ok(_) => show(&table, out)?,
                    Err(e) => writeln!(out, "Illegal: {e}")?,
                },
            },
        }
    }
}
