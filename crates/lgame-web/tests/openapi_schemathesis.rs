//! The server against its own OpenAPI document (`GET /api/openapi.json`), live:
//!
//! - every operation the document describes is routed (the router answers it with something
//!   other than its fallback's `no such endpoint`);
//! - Schemathesis (PyPI, pinned to [`SCHEMATHESIS`]), run from the document against a
//!   server in this process, finds no server error, no answer that breaks the document
//!   (status, content type, headers, schema), no invalid request accepted and no crash.
//!   The WebSocket, a stream, is left out (`--exclude-path`, the document marks it
//!   `x-streaming`). Its phases: the document's examples, coverage, fuzzing, and stateful
//!   sequences along the document's links (a new game, then its operations with its id and
//!   Red's token); the game operations also get a real game's id (a config file).
//!
//! Schemathesis is installed once into a virtual environment of its own under the target
//! directory (`target/tmp/schemathesis-VERSION/venv`) and reused while it is there at that
//! version; python3 with its `venv` module is needed (`cargo xtask test` installs Debian's
//! `python3-venv`): without it the test fails saying so. It runs in a directory under
//! `target/tmp` too, so nothing is left in the checkout.
//!
//! The bound: at most [`MAX_EXAMPLES`] cases an operation and [`MAX_TIME`] seconds of
//! testing, two workers; the whole test well under 5 minutes on 2 cores once Schemathesis
//! is installed (its first install takes about a minute more).

use std::path::{Path, PathBuf};
use std::process::Command;

use lgame_test_support::server::Server;
use lgame_test_support::smtp::SmtpServer;
use lgame_test_support::TempDir;
use serde_json::json;

/// The Schemathesis version installed and run.
const SCHEMATHESIS: &str = "4.32.5";
/// Test cases an operation, at most.
const MAX_EXAMPLES: u32 = 40;
/// Seconds of testing, at most (Schemathesis's `--max-time`).
const MAX_TIME: u32 = 90;
/// The document's path on the server.
const DOCUMENT: &str = "/api/openapi.json";
/// The WebSocket's path, which Schemathesis is not to call.
const WEBSOCKET: &str = "/api/games/{id}/ws";
/// A game's NDJSON stream, a long answer (the bot's events need a bot's token: refused).
const GAME_STREAM: &str = "/api/games/{id}/stream";

/// A server without rate limits (Schemathesis sends many requests from one address), which
/// mails through a real SMTP server (without mail, its mail endpoints answer 503 `no_mail`,
/// which the document says but Schemathesis counts as a server error): keep both alive.
fn unlimited_server(dir: &TempDir) -> (Server, SmtpServer) {
    let smtp = SmtpServer::start(dir.path(), "https://l.example.org");
    let mail = smtp.config();
    let server = Server::with(dir.join("games.db"), move |config| {
        config.create_limit = 0;
        config.analysis_limit = 0;
        config.mail = Some(mail);
    });
    (server, smtp)
}

fn run(command: &mut Command) -> std::process::Output {
    let shown = format!("{command:?}");
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {shown}: {e}"))
}

/// Schemathesis's `st`, installed into its own virtual environment under the target
/// directory unless it is there at [`SCHEMATHESIS`] already.
fn schemathesis() -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("schemathesis-{SCHEMATHESIS}"));
    let venv = home.join("venv");
    let st = venv.join("bin").join("st");
    let python = venv.join("bin").join("python");
    // `st` itself is run: a venv moved or copied from another folder keeps scripts whose
    // first line names the old one, and is made again.
    let installed = |st: &Path| {
        Command::new(st).arg("--version").output().is_ok_and(|out| {
            out.status.success()
                && String::from_utf8_lossy(&out.stdout).trim()
                    == format!("st, version {SCHEMATHESIS}")
        })
    };
    if installed(&st) {
        return st;
    }
    std::fs::create_dir_all(&home)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", home.display()));
    let made = Command::new("python3")
        .args(["-m", "venv", "--clear"])
        .arg(&venv)
        .output();
    match made {
        Err(e) => panic!(
            "this test needs python3 with its venv module (Debian: apt-get install python3-venv; \
             `cargo xtask test` installs it): cannot run python3: {e}"
        ),
        Ok(out) if !out.status.success() => panic!(
            "this test needs python3 with its venv module (Debian: apt-get install python3-venv; \
             `cargo xtask test` installs it): python3 -m venv failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => {}
    }
    let pip = run(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        &format!("schemathesis=={SCHEMATHESIS}"),
    ]));
    assert!(
        pip.status.success(),
        "pip could not install schemathesis {SCHEMATHESIS} from PyPI into {}:\n{}{}",
        venv.display(),
        String::from_utf8_lossy(&pip.stdout),
        String::from_utf8_lossy(&pip.stderr)
    );
    assert!(installed(&st), "schemathesis {SCHEMATHESIS} installed");
    st
}

/// The path with each parameter filled in: the game's id, a file of the page.
fn concrete(path: &str, game: &str) -> String {
    path.replace("{id}", game)
        .replace("{path}", "index.html")
        .replace("{username}", "lgame-random")
}

#[test]
fn every_operation_of_the_document_is_routed() {
    let dir = TempDir::new("openapi-routes");
    let (server, _smtp) = unlimited_server(&dir);
    let doc = server.get(DOCUMENT);
    assert_eq!(doc.status, 200, "{}", doc.body);
    assert_eq!(doc.body["openapi"], "3.1.0");
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let mut operations = 0;
    for (path, item) in doc.body["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("a path item").keys() {
            let method = method.to_uppercase();
            // A game's stream is a long answer: asked of no game, its refusal shows it is
            // routed.
            let id = if path == GAME_STREAM {
                "0123456789abcdef"
            } else {
                game.id.as_str()
            };
            let at = concrete(path, id);
            let body = (method == "POST").then_some("{}");
            let reply = server.request(&method, &at, body);
            let fallback = reply.status == 404
                && reply.body["error"]
                    .as_str()
                    .is_some_and(|e| e.starts_with("no such endpoint"));
            assert!(
                !fallback && reply.status != 405,
                "{method} {path} is documented but not routed: {} {}",
                reply.status,
                reply.body
            );
            operations += 1;
        }
    }
    assert!(
        operations >= 20,
        "the document describes {operations} operations"
    );
}

#[test]
fn schemathesis_finds_no_server_error_and_no_answer_that_breaks_the_document() {
    let st = schemathesis();
    let dir = TempDir::new("openapi-schemathesis");
    let (server, _smtp) = unlimited_server(&dir);
    // Schemathesis (Hypothesis) keeps its examples database in the working directory.
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("schemathesis-run");
    std::fs::create_dir_all(&work).unwrap();
    let report = work.join("report.json");
    let _ = std::fs::remove_file(&report);
    // A real game (two people, so that nothing plays by itself) and a real file, so that
    // the game's operations reach its logic (tokens, plies, conflicts) rather than a 404.
    let game = server.create(json!({ "red": "human", "blue": "human" }));
    let config = work.join("schemathesis.toml");
    std::fs::write(
        &config,
        format!(
            "[parameters]\n\"path.id\" = \"{}\"\n\"path.path\" = \"index.html\"\n",
            game.id
        ),
    )
    .unwrap();
    let checks = [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "unsupported_method",
        "missing_required_header",
    ];
    let out = run(Command::new(&st)
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .env("SCHEMATHESIS_TELEMETRY", "false")
        .arg("--config-file")
        .arg(&config)
        .arg("run")
        .arg(server.url(DOCUMENT))
        .args(["--checks", &checks.join(",")])
        .args(["--exclude-path", WEBSOCKET])
        .args(["--exclude-path", GAME_STREAM])
        .args(["--phases", "examples,coverage,fuzzing,stateful"])
        .args(["--max-examples", &MAX_EXAMPLES.to_string()])
        .args(["--max-time", &MAX_TIME.to_string()])
        .args(["--workers", "2", "--seed", "22", "--request-timeout", "30"])
        .args(["--report", "json", "--report-json-path"])
        .arg(&report));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Its report, for `--nocapture` (and a failure's message below).
    println!("{stdout}");
    assert!(
        out.status.success(),
        "schemathesis found problems (exit {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
    // It really tested every operation but the two long answers, the game's WebSocket and
    // its stream ("Selected: 66/68", "Tested: 66").
    let count = |label: &str| -> Option<&str> {
        let line = stdout.lines().find(|l| l.trim_start().starts_with(label))?;
        Some(line.trim_start()[label.len()..].trim())
    };
    let selected = count("Selected:").unwrap_or_default();
    let (chosen, total) = selected.split_once('/').unwrap_or_default();
    let tested = count("Tested:").unwrap_or_default();
    let (chosen, total, tested) = (
        chosen.parse::<usize>(),
        total.parse::<usize>(),
        tested.parse::<usize>(),
    );
    assert!(
        matches!((&chosen, &total, &tested), (Ok(c), Ok(t), Ok(d)) if c + 2 == *t && d == c && *c >= 20),
        "schemathesis tested {tested:?} of {chosen:?} operations selected of {total:?} \
         (all but the WebSocket and the game's stream):\n{stdout}"
    );
    let _ = std::fs::remove_dir_all(&work);
}
