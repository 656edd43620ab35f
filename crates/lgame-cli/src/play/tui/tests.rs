//! The full-screen game driven by keys, clicks and ticks, without a terminal: screens are
//! drawn on ratatui's `TestBackend` and compared with the snapshots in `snapshots/`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use insta::assert_snapshot;
use lgame::game::DrawRules;
use lgame::rules::StartSetup;
use lgame::{Bitboard, Game, Record, Rules, Square};
use lgame_players::seated::SeatedGame;
use lgame_players::Tablebases;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::app::{App, Step, Tone};
use super::ui;
use crate::play::Table;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 30;

/// One set of solved tables for every test.
fn tablebases() -> Arc<Tablebases> {
    static TABLES: OnceLock<Arc<Tablebases>> = OnceLock::new();
    TABLES
        .get_or_init(|| Arc::new(Tablebases::default()))
        .clone()
}

fn scratch_file() -> PathBuf {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir().join(format!(
        "lgame-tui-test-{}-{}.txt",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    ))
}

/// A game from a named setup under threefold repetition, with these players.
fn app(setup: &str, red: &str, blue: &str) -> App {
    let start = StartSetup::from_name(setup).expect("a setup name");
    let rules = Rules::classic()
        .with_setup(start)
        .expect("a setup of the rules");
    let game = Game::new(rules).with_draw_rules(DrawRules::CASUAL);
    let tablebases = tablebases();
    let seats = [
        red.parse().expect("a player"),
        blue.parse().expect("a player"),
    ];
    App::new(Table {
        seated: SeatedGame::new(game, seats, 1, tablebases.clone()),
        tablebases,
        save_to: scratch_file(),
        seed: 1,
    })
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn chars(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn square(name: &str) -> Square {
    name.parse().expect("a cell")
}

fn cells(list: &str) -> Bitboard {
    list.split(',').map(square).collect()
}

/// Moves the cursor to `name` with the arrow keys.
fn go_to(app: &mut App, name: &str) {
    let target = square(name);
    while app.cursor().column() < target.column() {
        press(app, KeyCode::Right);
    }
    while app.cursor().column() > target.column() {
        press(app, KeyCode::Left);
    }
    while app.cursor().row() < target.row() {
        press(app, KeyCode::Up);
    }
    while app.cursor().row() > target.row() {
        press(app, KeyCode::Down);
    }
    assert_eq!(app.cursor(), target);
}

/// Cursor to each cell and Space.
fn pick(app: &mut App, list: &str) {
    for name in list.split(',') {
        go_to(app, name);
        press(app, KeyCode::Char(' '));
    }
}

/// Draws the screen as the event loop does, remembering the board's place.
fn render(app: &mut App) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("a test terminal");
    let mut layout = None;
    terminal
        .draw(|frame| layout = ui::draw(frame, app))
        .expect("drawn");
    app.set_board_layout(layout);
    terminal
}

fn click(app: &mut App, name: &str) {
    let layout = app.board_layout().expect("the board was drawn");
    let rect = layout.cell_rect(square(name));
    app.handle_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: rect.x + rect.width / 2,
        row: rect.y + rect.height / 2,
        modifiers: KeyModifiers::NONE,
    });
}

fn moves(app: &App) -> Vec<String> {
    app.game().moves().iter().map(|m| m.to_string()).collect()
}

fn type_move(app: &mut App, text: &str) {
    press(app, KeyCode::Char(':'));
    chars(app, text);
    press(app, KeyCode::Enter);
}

// Screens.

#[test]
fn start_screen() {
    let mut app = app("standard", "human", "perfect");
    assert_snapshot!(render(&mut app).backend());
}

#[test]
fn screen_while_choosing_an_l_highlights_the_cells_that_can_complete_it() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A3,A4");
    assert_snapshot!(render(&mut app).backend());
}

#[test]
fn screen_on_the_neutral_step_shows_the_chosen_l_and_the_picked_neutral() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A2,A3,A4,B4,B2");
    assert_snapshot!(render(&mut app).backend());
}

#[test]
fn screen_with_hints() {
    let mut app = app("kit", "human", "perfect");
    chars(&mut app, "H");
    assert!(app.hints_shown());
    assert_eq!(app.hints().expect("an analysis").value, "draw");
    assert_snapshot!(render(&mut app).backend());
}

#[test]
fn screen_at_the_end_of_the_game() {
    let mut app = app("kit", "human", "human");
    type_move(&mut app, "A2,A3,A4,B4 B2-A1");
    type_move(&mut app, "B2,B3,C2,D2 C3-C4");
    assert!(app.game().is_over());
    assert_eq!(app.message().tone, Tone::Done);
    assert!(app
        .message()
        .text
        .contains("Game over: Blue wins: Red cannot move their L"));
    assert_snapshot!(render(&mut app).backend());
}

#[test]
fn help_screen_lists_the_keys() {
    let mut app = app("standard", "human", "perfect");
    chars(&mut app, "?");
    assert!(app.help_shown());
    assert_snapshot!(render(&mut app).backend());
    chars(&mut app, "x");
    assert!(!app.help_shown(), "any key closes the help");
}

// Entering moves.

#[test]
fn a_legal_l_chosen_with_the_cursor_leads_to_the_neutral_step() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A2,A3,A4");
    assert_eq!(
        app.step(),
        &Step::L {
            cells: cells("A2,A3,A4")
        }
    );
    pick(&mut app, "B4");
    assert_eq!(
        app.step(),
        &Step::Neutral {
            l: cells("A2,A3,A4,B4"),
            moves: vec![],
            from: None
        }
    );
    assert!(
        moves(&app).is_empty(),
        "nothing is played before the neutral step"
    );
}

#[test]
fn the_cells_that_can_complete_a_legal_l_are_highlighted() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A3,A4");
    let view = app.board_view();
    let highlighted: Bitboard = app
        .position()
        .board()
        .mask()
        .into_iter()
        .filter(|&s| view.at(s).candidate)
        .collect();
    // The union of the rules' legal placements through A3 and A4: A2,A3,A4,B4 only (the
    // others need B2, a neutral, or C4, Blue's).
    let expected = app
        .position()
        .l_moves()
        .filter(|p| cells("A3,A4").is_subset(*p))
        .fold(Bitboard::EMPTY, |a, p| a | p)
        - cells("A3,A4");
    assert_eq!(highlighted, expected);
    assert!(highlighted.contains(square("B4")));
    assert!(
        !highlighted.contains(square("B3")),
        "B3 would need B2, a neutral"
    );
}

#[test]
fn a_neutral_move_completes_the_move() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A2,A3,A4,B4,B2");
    assert!(matches!(
        app.step(),
        Step::Neutral {
            from: Some(from), ..
        } if *from == square("B2")
    ));
    pick(&mut app, "A1");
    assert_eq!(moves(&app), ["A2,A3,A4,B4 B2-A1"]);
    assert_eq!(app.message().text, "Red played A2,A3,A4,B4 B2-A1.");
    assert!(matches!(app.step(), Step::L { cells } if cells.is_empty()));
}

#[test]
fn n_skips_the_neutral_move() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A2,A3,A4,B4");
    chars(&mut app, "n");
    assert_eq!(moves(&app), ["A2,A3,A4,B4"]);
    assert_eq!(app.position().turn(), lgame::Color::Blue);
}

#[test]
fn enter_away_from_a_neutral_skips_the_neutral_move() {
    let mut app = app("kit", "human", "human");
    go_to(&mut app, "A2");
    press(&mut app, KeyCode::Enter);
    go_to(&mut app, "A3");
    press(&mut app, KeyCode::Enter);
    go_to(&mut app, "A4");
    press(&mut app, KeyCode::Enter);
    go_to(&mut app, "B4");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.step(), Step::Neutral { .. }));
    press(&mut app, KeyCode::Enter);
    assert_eq!(moves(&app), ["A2,A3,A4,B4"]);
}

#[test]
fn mouse_clicks_choose_the_l_and_the_neutral_move() {
    let mut app = app("kit", "human", "human");
    render(&mut app);
    for name in ["A2", "A3", "A4", "B4", "B2", "A1"] {
        click(&mut app, name);
    }
    assert_eq!(moves(&app), ["A2,A3,A4,B4 B2-A1"]);
    assert_eq!(app.cursor(), square("A1"));
}

#[test]
fn a_click_off_the_board_does_nothing() {
    let mut app = app("kit", "human", "human");
    render(&mut app);
    app.handle_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: WIDTH - 1,
        row: 0,
        modifiers: KeyModifiers::NONE,
    });
    assert!(matches!(app.step(), Step::L { cells } if cells.is_empty()));
}

#[test]
fn kit_b1_b2_b3_c1_is_refused_with_the_rules_reason() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "B1,B2,B3,C1");
    assert_eq!(app.message().tone, Tone::Error);
    assert!(
        app.message()
            .text
            .contains("the L cannot go on B2: it is occupied by a neutral"),
        "{}",
        app.message().text
    );
    assert!(moves(&app).is_empty());
    assert_eq!(
        app.step(),
        &Step::L {
            cells: cells("B1,B2,B3,C1")
        },
        "the selection stays, to be edited"
    );
    pick(&mut app, "B2");
    assert_eq!(
        app.step(),
        &Step::L {
            cells: cells("B1,B3,C1")
        }
    );
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        app.step(),
        &Step::L {
            cells: Bitboard::EMPTY
        }
    );
}

#[test]
fn an_illegal_neutral_choice_shows_the_rules_reason() {
    let mut app = app("kit", "human", "human");
    pick(&mut app, "A2,A3,A4,B4,D2");
    assert_eq!(
        app.message().text,
        "there is no neutral on D2 (it holds Blue's L). Pick a neutral, or n to move none."
    );
    pick(&mut app, "C3,C4");
    assert!(app
        .message()
        .text
        .starts_with("a neutral cannot move to C4: it is occupied by Blue's L"));
    assert!(moves(&app).is_empty());
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        app.step(),
        &Step::L {
            cells: cells("A2,A3,A4,B4")
        },
        "Esc goes back to the L"
    );
}

#[test]
fn a_move_typed_in_notation_is_played() {
    let mut app = app("kit", "human", "human");
    type_move(&mut app, "a2,a3,a4,b4 b2-a1");
    assert_eq!(moves(&app), ["A2,A3,A4,B4 B2-A1"]);
    assert_eq!(app.input(), None);
}

#[test]
fn typed_text_that_is_not_a_legal_move_gets_the_reason() {
    let mut app = app("kit", "human", "human");
    type_move(&mut app, "A2,A3,Z9");
    assert_eq!(app.message().tone, Tone::Error);
    assert!(app.message().text.starts_with("Not a move: "));
    assert_eq!(
        app.input(),
        Some("A2,A3,Z9"),
        "the text stays to be corrected"
    );
    press(&mut app, KeyCode::Esc);
    type_move(&mut app, "B1,B2,B3,C1");
    assert_eq!(
        app.message().text,
        "the L cannot go on B2: it is occupied by a neutral"
    );
    assert!(moves(&app).is_empty());
}

#[test]
fn undo_and_redo() {
    let mut app = app("kit", "human", "human");
    type_move(&mut app, "A2,A3,A4,B4 B2-A1");
    type_move(&mut app, "B2,B3,C2,D2 C3-C4");
    chars(&mut app, "u");
    assert_eq!(moves(&app), ["A2,A3,A4,B4 B2-A1"]);
    chars(&mut app, "u");
    assert!(moves(&app).is_empty());
    chars(&mut app, "u");
    assert_eq!(app.message().text, "Nothing to undo.");
    chars(&mut app, "U");
    assert_eq!(moves(&app), ["A2,A3,A4,B4 B2-A1"]);
    app.handle_key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL));
    assert_eq!(moves(&app).len(), 2);
    assert!(app.game().is_over());
}

#[test]
fn a_saved_record_replays_to_the_same_position() {
    let mut app = app("kit", "human", "human");
    type_move(&mut app, "A2,A3,A4,B4 B2-A1");
    type_move(&mut app, "B2,B3,C2,D2");
    chars(&mut app, "s");
    let path = app.table().save_to.clone();
    assert_eq!(app.message().text, format!("Saved to {}.", path.display()));
    let text = std::fs::read_to_string(&path).expect("the record was written");
    let _ = std::fs::remove_file(&path);
    let record: Record = text.parse().expect("a record");
    let game = record.replay().expect("a legal record");
    assert_eq!(game.position(), app.position());
    assert_eq!(game.moves(), app.game().moves());
    assert_eq!(record.tag("Red"), Some("human"));
}

#[test]
fn the_computer_replies_after_its_pause() {
    let mut app = app("kit", "human", "perfect");
    type_move(&mut app, "A2,A3,A4,B4");
    assert_eq!(moves(&app).len(), 1);
    app.tick(Duration::from_millis(100));
    assert_eq!(
        moves(&app).len(),
        1,
        "not at once: people see the board first"
    );
    assert!(app.poll_timeout() <= Duration::from_millis(400));
    app.tick(Duration::from_secs(1));
    assert_eq!(moves(&app).len(), 2);
    assert!(app
        .message()
        .text
        .starts_with("Blue (computer: perfect) played "));
    assert!(app.table().seated.waiting_for_human() || app.game().is_over());
}

#[test]
fn two_computers_play_on_until_paused() {
    let mut app = app("standard", "perfect", "perfect");
    for _ in 0..3 {
        app.tick(Duration::from_secs(1));
    }
    assert_eq!(moves(&app).len(), 3);
    chars(&mut app, "p");
    assert!(app.paused());
    app.tick(Duration::from_secs(5));
    assert_eq!(moves(&app).len(), 3);
    chars(&mut app, "u");
    assert_eq!(
        moves(&app).len(),
        2,
        "one move back with no person at the table"
    );
    chars(&mut app, "p");
    assert!(!app.paused(), "{}", app.message().text);
    app.tick(Duration::from_secs(1));
    assert_eq!(moves(&app).len(), 3, "{}", app.message().text);
}

#[test]
fn the_board_is_not_yours_while_the_computer_is_to_move() {
    let mut app = app("standard", "perfect", "human");
    pick(&mut app, "A1");
    assert_eq!(app.message().tone, Tone::Error);
    assert_eq!(app.message().text, "Red (computer: perfect) is to move.");
    app.tick(Duration::from_secs(1));
    assert!(app.table().seated.waiting_for_human());
}

#[test]
fn new_game_starts_again_with_the_same_players_and_rules() {
    let mut app = app("kit", "human", "human");
    type_move(&mut app, "A2,A3,A4,B4 B2-A1");
    chars(&mut app, "N");
    assert!(moves(&app).is_empty());
    assert_eq!(app.position(), app.game().start());
    assert_eq!(app.position().to_string(), "..BB/R.NB/RN.B/RR.. r");
    assert_eq!(app.game().draw_rules(), DrawRules::CASUAL);
}

#[test]
fn the_ghost_l_is_moved_turned_and_checked_by_the_rules() {
    let mut app = app("kit", "human", "human");
    chars(&mut app, "g");
    assert!(app.ghost_active());
    // The ghost has Red's shape at the cursor (A1); one step right it covers the kit's
    // blocked example.
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Enter);
    assert!(!app.ghost_active());
    assert!(app
        .message()
        .text
        .contains("the L cannot go on B2: it is occupied by a neutral"));
    press(&mut app, KeyCode::Esc);
    chars(&mut app, "g");
    let shape_before = app.board_view();
    chars(&mut app, "rrrr");
    assert_eq!(app.board_view(), shape_before, "four turns are no turn");
    chars(&mut app, "ff");
    assert_eq!(app.board_view(), shape_before, "two flips are no flip");
    press(&mut app, KeyCode::Esc);
    assert!(!app.ghost_active());
}

#[test]
fn quit_with_q_or_ctrl_c() {
    let mut app = app("kit", "human", "human");
    chars(&mut app, "q");
    assert!(app.should_quit());
    let mut app = self::app("kit", "human", "human");
    chars(&mut app, ":");
    app.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.should_quit(), "Ctrl-C quits even while typing");
}

#[test]
fn resigning_ends_the_game_for_the_person_to_move() {
    let mut app = app("standard", "human", "perfect");
    chars(&mut app, "R");
    assert!(app.game().is_over());
    assert_eq!(
        app.message().text,
        "Red resigned. Game over: Blue wins: Red resigned."
    );
    chars(&mut app, "u");
    assert!(!app.game().is_over(), "undo takes a resignation back");
}
