//! The full-screen terminal game (ratatui): the board in colour, moves entered with the
//! cursor, the mouse or notation, computers that answer after a short pause, hints from the
//! solved game, undo and redo, save, and help.
//!
//! [`app::App`] holds the state and handles keys, clicks and time without a terminal, with
//! its parts beside it: [`building`] a move on the board (on the rules crate's move
//! builder), [`typing`] one, the [`ghost`] L, [`hints`], [`history`] (undo, redo, new game),
//! the [`computers`]' turns and the [`view`] model; [`ui::draw`] draws it; this module owns
//! the terminal and makes sure it is given back as it was (raw mode off, main screen, no
//! mouse capture) however the game ends, panics included.

mod app;
mod building;
mod computers;
mod ghost;
mod hints;
mod history;
#[cfg(test)]
mod tests;
mod typing;
mod ui;
mod view;

use std::io::{self, stdout, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::Instant;

use crossterm::cursor::Show;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

use crate::output::Failure;

use super::Table;
use app::App;

/// Whether the terminal is in the game's mode and needs restoring.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Gives the terminal back: raw mode off, mouse capture off, the main screen, the cursor
/// shown. Does nothing the second time.
fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, Show);
    }
}

/// Restores the terminal when dropped: on return, on error, and while a panic unwinds.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore();
    }
}

/// Restores the terminal before the panic message is printed, so that it can be read.
fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

fn enter() -> io::Result<Restore> {
    install_panic_hook();
    ACTIVE.store(true, Ordering::SeqCst);
    let guard = Restore;
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    Ok(guard)
}

/// Plays the game full-screen until the person quits.
pub fn run(table: Table) -> Result<(), Failure> {
    let guard = enter()?;
    let result = Terminal::new(CrosstermBackend::new(stdout()))
        .and_then(|mut terminal| event_loop(&mut terminal, App::new(table)));
    drop(guard);
    result.map_err(Failure::from)
}

fn event_loop(terminal: &mut Terminal<CrosstermBackend<Stdout>>, mut app: App) -> io::Result<()> {
    terminal.clear()?;
    let mut last = Instant::now();
    loop {
        let mut layout = None;
        terminal.draw(|frame| layout = ui::draw(frame, &app))?;
        app.set_board_layout(layout);
        if app.should_quit() {
            return Ok(());
        }
        let ready = event::poll(app.poll_timeout())?;
        // Time passes before the event is handled, so that a person's move starts the
        // computer's pause afresh.
        let now = Instant::now();
        app.tick(now - last);
        last = now;
        if ready {
            app.handle_event(&event::read()?);
        }
    }
}
