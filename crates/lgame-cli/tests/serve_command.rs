//! `lgame serve` as a command: the server it runs answers an analysis exactly as
//! `lgame analyze --json` does, and its flags' values out of range are refused. (The server
//! itself is tested in `lgame-web`: in-process, and in a process of its own where it is
//! killed, stopped, limited or run twice.)

use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

#[test]
fn analysis_gives_every_moves_value_as_lgame_analyze_does() {
    let dir = TempDir::new("analysis");
    let server = ServeProcess::start(LGAME, dir.db(), &[]);
    for (variant, position, query) in [
        (
            "classic",
            "RRN./RB../RBBB/N... b",
            "position=RRN./RB../RBBB/N...%20b",
        ),
        ("classic", "start", "variant=classic&position=start"),
        ("misere", "kit", "variant=misere&position=kit"),
    ] {
        let reply = server.get(&format!("/api/analysis?{query}"));
        assert_eq!(reply.status, 200, "{}", reply.body);
        let cli = LGAME
            .command()
            .args(["analyze", "--json", "--variant", variant, position])
            .output()
            .unwrap();
        let expected: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(reply.body, expected, "{variant} {position}");
        let moves = reply.body["moves"].as_array().unwrap();
        assert_eq!(
            moves.len() as u64,
            reply.body["legal_moves"].as_u64().unwrap()
        );
    }
}

#[test]
fn a_connection_limit_of_zero_is_refused() {
    let out = LGAME.run(["serve", "--max-connections", "0"]);
    assert!(!out.status.success());
    let err = lgame_test_support::stderr(&out);
    assert!(err.contains("--max-connections"), "{err}");
}
