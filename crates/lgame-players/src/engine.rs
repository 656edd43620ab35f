//! Serving the engine protocol with a player: what `lgame engine` runs.

use std::io::{self, BufRead, Write};

use lgame::game::DrawRules;
use lgame::{Game, Move, Position, Rules};

use crate::protocol::{Command, Reply, FEATURE_CLOCK};
use crate::Player;

/// The game the controller has set up, or why it could not be.
fn set_up(
    rules: &Rules,
    draw_rules: DrawRules,
    start: &str,
    moves: &[String],
) -> Result<Game, String> {
    let start = Position::from_text(start, rules).map_err(|e| format!("position: {e}"))?;
    let mut game = Game::from_position(start)
        .map_err(|e| format!("position: {e}"))?
        .with_draw_rules(draw_rules);
    for (i, text) in moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        game.play(&mv)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
    }
    Ok(game)
}

/// Serves the protocol: reads commands from `input` and answers on `output` until `quit`
/// or the end of the input. Every line that cannot be followed gets an `error` reply and
/// the engine goes on. `newgame` forgets the position; the rules and draw rules stay until
/// the controller changes them (the defaults: `classic`, no draw rules).
///
/// # Errors
/// Only when reading or writing fails.
pub fn serve(
    player: &mut dyn Player,
    name: &str,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut rules = Rules::classic();
    let mut draw_rules = DrawRules::NONE;
    let mut game: Option<Game> = None;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        if line.trim().is_empty() {
            continue;
        }
        let replies: Vec<Reply> = match line.parse::<Command>() {
            Err(e) => vec![Reply::Error(e.to_string())],
            Ok(Command::Quit) => return Ok(()),
            Ok(Command::Lgp) => vec![
                Reply::Name(name.to_string()),
                Reply::Author("the lgame authors".to_string()),
                Reply::Variants(vec!["all".to_string()]),
                // Its players move at once: they take clocks and ignore them.
                Reply::Features(vec![FEATURE_CLOCK.to_string()]),
                Reply::LgpOk,
            ],
            Ok(Command::IsReady) => {
                player.prepare(&rules);
                vec![Reply::ReadyOk]
            }
            Ok(Command::NewGame) => {
                game = None;
                vec![]
            }
            Ok(Command::Rules(text)) => match text.parse::<Rules>() {
                Ok(r) => {
                    rules = r;
                    game = None;
                    vec![]
                }
                Err(e) => vec![Reply::Error(format!("rules '{text}': {e}"))],
            },
            Ok(Command::DrawRules(draws)) => {
                draw_rules = draws;
                game = None;
                vec![]
            }
            Ok(Command::Position { start, moves }) => {
                match set_up(&rules, draw_rules, &start, &moves) {
                    Ok(g) => {
                        game = Some(g);
                        vec![]
                    }
                    Err(e) => {
                        game = None;
                        vec![Reply::Error(e)]
                    }
                }
            }
            Ok(Command::Go { .. }) => match &game {
                None => vec![Reply::Error("go before a position".to_string())],
                Some(g) => {
                    let mv = player.choose_move(g);
                    vec![Reply::BestMove(mv.map(|m| m.to_string()))]
                }
            },
        };
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
    }
}
