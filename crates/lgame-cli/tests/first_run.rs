//! A new user's first commands leave nothing where they did not ask: the server keeps its
//! database in the user's data directory and says where, and `lgame match` writes records
//! only with `--records`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use lgame_test_support::{self as support, TempDir};

/// The names in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `lgame ARGS` run in `cwd` with `HOME` and `XDG_DATA_HOME` inside `home`.
fn lgame_in(cwd: &Path, home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lgame"));
    command
        .current_dir(cwd)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null());
    command
}

#[test]
fn serve_keeps_its_database_in_the_data_directory_and_says_where() {
    let temp = TempDir::new("first-run-serve");
    let (cwd, home) = (
        temp.db().with_file_name("cwd"),
        temp.db().with_file_name("home"),
    );
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let mut child = lgame_in(&cwd, &home)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let rx = support::lines_of(stdout);
    let next_line = || {
        rx.recv_timeout(Duration::from_secs(30))
            .expect("the server prints a line")
    };
    let listening = next_line();
    let stored = next_line();
    let addr = listening
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{listening}"))
        .to_string();
    let db = std::fs::canonicalize(home.join("data/lgame/lgame.db")).unwrap();
    assert_eq!(stored, format!("games stored in {}", db.display()));

    let created = ureq::post(&format!("http://{addr}/api/games"))
        .send_json(serde_json::json!({"red": "human", "blue": "level:perfect"}))
        .expect("a game against level:perfect is created");
    assert_eq!(created.status(), 201);
    let engine = ureq::post(&format!("http://{addr}/api/games"))
        .send_json(serde_json::json!({"red": "human", "blue": "python3 engine.py"}));
    match engine {
        Err(ureq::Error::Status(400, response)) => {
            let text = response.into_string().unwrap();
            assert!(text.contains("runs no program"), "{text}");
        }
        other => panic!("a command line must be refused by the server: {other:?}"),
    }

    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(
        listing(&cwd),
        Vec::<String>::new(),
        "nothing in the working directory"
    );
    assert!(db.is_file());
}

#[test]
fn match_writes_records_only_when_asked() {
    let temp = TempDir::new("first-run-match");
    let cwd = temp.db().with_file_name("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let home = temp.db().with_file_name("home");
    let out = lgame_in(&cwd, &home)
        .args([
            "match",
            "--red",
            "random",
            "--blue",
            "beginner:40",
            "--games",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        listing(&cwd),
        Vec::<String>::new(),
        "no records unless asked"
    );
}
