//! The controller's side of the protocol, one engine at a time: what it sends and in which
//! order, what it accepts before `lgpok`, the timeout of each phase, rules it never sends,
//! and lines nobody asked for.

use std::path::PathBuf;
use std::time::Duration;

use lgame::game::DrawRules;
use lgame::{Game, Rules};
use lgame_players::external::{External, Failure};

/// A scratch folder of this test's own, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("lgame-external-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// A shell engine that writes every line it reads to `heard.txt`, answers `lgp` with
    /// `handshake` (shell commands), `isready` with `on_isready` and `go` with `on_go`.
    fn engine(&self, handshake: &str, on_isready: &str, on_go: &str) -> String {
        let path = self.0.join("engine.sh");
        let heard = self.heard_path();
        let script = format!(
            "while read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    \
             lgp) {handshake};;\n    isready) {on_isready};;\n    go*) {on_go};;\n  esac\ndone\n",
            heard.display()
        );
        std::fs::write(&path, script).unwrap();
        format!("sh {}", path.display())
    }

    fn heard_path(&self) -> PathBuf {
        self.0.join("heard.txt")
    }

    /// The lines the engine has read, but for a last `quit` (which the engine may have been
    /// killed before it wrote down).
    fn heard(&self) -> Vec<String> {
        let mut lines: Vec<String> = std::fs::read_to_string(self.heard_path())
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        if lines.last().is_some_and(|l| l == "quit") {
            lines.pop();
        }
        lines
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const SHORT: Duration = Duration::from_millis(300);
const LONG: Duration = Duration::from_secs(20);

fn start(command: &str, timeout: Duration) -> Result<External, Failure> {
    External::start(command, timeout)
}

#[test]
fn the_controller_sends_the_rules_without_the_setup_and_the_draw_rules_then_isready() {
    let scratch = Scratch::new("sequence");
    let command = scratch.engine(
        "echo 'id name recorder'; echo lgpok",
        "echo readyok",
        "echo 'bestmove B1,C1,C2,C3'",
    );
    let mut engine = start(&command, LONG).unwrap();
    assert_eq!(engine.name(), "recorder");
    assert_eq!(engine.variants(), None, "no variants line");
    let rules: Rules = "setup=kit".parse().unwrap();
    let draws = DrawRules {
        turn_limit: Some(200),
        repetition: Some(3),
    };
    engine.new_game_with(&rules, draws, LONG).unwrap();
    let game = Game::new(rules);
    let mv = engine.choose(&game, Duration::from_millis(700)).unwrap();
    assert_eq!(mv.as_deref(), Some("B1,C1,C2,C3"));
    // Without draw rules, none is said explicitly.
    engine.new_game(&Rules::classic(), LONG).unwrap();
    engine.stop();
    assert_eq!(
        scratch.heard(),
        [
            "lgp",
            "newgame",
            "rules classic",
            "drawrules turnlimit 200 repetition 3",
            "isready",
            "position ..BB/R.NB/RN.B/RR.. r",
            "go movetime 700",
            "isready",
            "newgame",
            "rules classic",
            "drawrules turnlimit none repetition none",
            "isready",
        ]
    );
}

#[test]
fn before_lgpok_come_id_variants_and_info_lines_only() {
    let scratch = Scratch::new("handshake");
    let command = scratch.engine(
        r"echo 'info starting'; printf 'id name odd\033name\n'; echo 'id author me'; \
          echo 'variants misere | neutrals=1,misere'; echo lgpok",
        "echo readyok",
        ":",
    );
    let engine = start(&command, LONG).unwrap();
    // The name is escaped like anything else an engine writes.
    assert_eq!(engine.name(), r"odd\x1bname");
    assert_eq!(
        engine.variants(),
        Some(&["misere".to_string(), "neutrals=1,misere".to_string()][..])
    );
    assert!(engine.plays(&"misere,neutrals=1,setup=kit".parse().unwrap()));
    assert!(!engine.plays(&Rules::classic()));
    engine.stop();

    let scratch = Scratch::new("handshake-bad");
    let command = scratch.engine("echo readyok; echo lgpok", "echo readyok", ":");
    assert_eq!(
        start(&command, LONG).err(),
        Some(Failure::Malformed("'readyok' (before lgpok)".into()))
    );
    let command = scratch.engine("echo 'error no weights'", "echo readyok", ":");
    assert_eq!(
        start(&command, LONG).err(),
        Some(Failure::Refused("no weights".into()))
    );
}

#[test]
fn each_phase_has_its_timeout_and_says_which() {
    let scratch = Scratch::new("timeouts");
    let silent = scratch.engine(":", "echo readyok", ":");
    let failure = start(&silent, SHORT).err().expect("no lgpok");
    assert_eq!(
        failure.to_string(),
        "timeout: no lgpok within 300 ms after lgp"
    );

    let unready = scratch.engine("echo lgpok", ":", ":");
    let mut engine = start(&unready, LONG).unwrap();
    let failure = engine.new_game(&Rules::classic(), SHORT).unwrap_err();
    assert_eq!(
        failure.to_string(),
        "timeout: no readyok within 300 ms after isready"
    );
    engine.stop();

    let thinker = scratch.engine("echo lgpok", "echo readyok", "echo 'info thinking'");
    let mut engine = start(&thinker, LONG).unwrap();
    engine.new_game(&Rules::classic(), LONG).unwrap();
    let failure = engine
        .choose(&Game::new(Rules::classic()), Duration::from_millis(100))
        .unwrap_err();
    assert_eq!(
        failure.to_string(),
        "timeout: no bestmove within 350 ms after go movetime 100"
    );
    engine.stop();
}

#[test]
fn rules_the_engine_did_not_declare_are_never_sent() {
    let scratch = Scratch::new("undeclared");
    let command = scratch.engine("echo 'variants classic'; echo lgpok", "echo readyok", ":");
    let mut engine = start(&command, LONG).unwrap();
    let failure = engine
        .new_game(&"misere".parse().unwrap(), LONG)
        .unwrap_err();
    assert_eq!(
        failure.to_string(),
        "the engine does not declare the rules 'misere' ('variants classic')"
    );
    engine.stop();
    assert_eq!(scratch.heard(), ["lgp"]);
}

#[test]
fn a_line_after_readyok_is_caught_when_the_engine_is_next_addressed() {
    let scratch = Scratch::new("chatter");
    // After the new game's readyok, a line nobody asked for: found before the first move.
    let command = scratch.engine("echo lgpok", "echo readyok; echo hello", ":");
    let mut engine = start(&command, LONG).unwrap();
    engine.new_game(&Rules::classic(), LONG).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        engine
            .choose(&Game::new(Rules::classic()), LONG)
            .unwrap_err(),
        Failure::Malformed(
            "'hello': not a reply of the protocol (when no reply was expected)".into()
        )
    );
    engine.stop();

    // A second bestmove that comes after the move's readyok: found at the next move.
    let command = scratch.engine(
        "echo lgpok",
        "echo readyok",
        "echo 'bestmove B1,C1,C2,C3'; (sleep 0.2; echo 'bestmove B1,C1,C2,C3') &",
    );
    let mut engine = start(&command, LONG).unwrap();
    engine.new_game(&Rules::classic(), LONG).unwrap();
    let game = Game::new(Rules::classic());
    let mv = engine.choose(&game, Duration::from_millis(700)).unwrap();
    assert_eq!(mv.as_deref(), Some("B1,C1,C2,C3"));
    // The late second bestmove has come by the time the engine is asked again.
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(
        engine
            .choose(&game, Duration::from_millis(700))
            .unwrap_err(),
        Failure::Malformed(
            "a second bestmove for one go: 'bestmove B1,C1,C2,C3' (when no reply was expected)"
                .into()
        )
    );
    engine.stop();
}

#[test]
fn an_engine_that_exits_between_moves_crashes_when_next_addressed() {
    let scratch = Scratch::new("quitter");
    let command = scratch.engine("echo lgpok", "echo readyok; exit 5", ":");
    let mut engine = start(&command, LONG).unwrap();
    // readyok came before the exit.
    engine.new_game(&Rules::classic(), LONG).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        engine
            .choose(&Game::new(Rules::classic()), LONG)
            .unwrap_err(),
        Failure::Crashed("the engine exited (exit status: 5)".into())
    );
}
