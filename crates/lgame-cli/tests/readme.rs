//! Every `$ lgame …` example of the README runs as written and prints what the README shows.
//!
//! Each code block's commands run in order in a fresh folder holding a copy of `examples/`
//! (so `examples/game.txt` and `examples/engine.py` resolve as they do in a checkout), with the
//! built `lgame` first on the PATH, through `sh -c` with standard error joined to standard
//! output. Where the README shows output under a command, the output must be those lines: a
//! `…` stands for any text, and a comment after two spaces and `#` is the README's, not the
//! program's. A command shown with no output must succeed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Commands the README shows but this test does not run, and where they are tested instead.
const NOT_RUN_HERE: [(&str, &str); 8] = [
    (
        "mpirun",
        "an MPI job of lgame built with the mpi feature: tests/solve_large_mpi.rs",
    ),
    (
        "lgame play",
        "interactive: tests/play_cli.rs, under tmux too",
    ),
    (
        "lgame serve",
        "runs until stopped: tests/serve_*.rs and first_run.rs here, crates/lgame-web/tests",
    ),
    (
        "curl",
        "needs a running server: crates/lgame-web/tests/serve_api.rs",
    ),
    (
        "lgame engine",
        "reads the protocol on stdin: tests/engine_match_cli.rs",
    ),
    (
        "cargo xtask",
        "the project's own tasks, with tests of their own (xtask, web_offline.rs)",
    ),
    (
        "lgame bot",
        "needs a running server and a bot's token: tests/bot_cli.rs",
    ),
    (
        "lgame admin",
        "needs a server's database with accounts (and would open the user's own): tests/admin_cli.rs",
    ),
];

/// One `$ command` of a code block, with the output lines shown under it.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README's code blocks that show `$ ` commands, each as its list of examples.
fn examples(readme: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(Vec::new()),
            }
            continue;
        }
        let Some(block) = current.as_mut() else {
            continue;
        };
        if let Some(command) = line.strip_prefix("$ ") {
            block.push(Example {
                line: i + 1,
                command: without_comment(command).to_string(),
                output: Vec::new(),
            });
        } else if let Some(example) = block.last_mut() {
            example.output.push(without_comment(line).to_string());
        }
    }
    blocks.retain(|b| !b.is_empty());
    // A blank line in the README only separates one example from the next.
    for example in blocks.iter_mut().flatten() {
        while example.output.last().is_some_and(String::is_empty) {
            example.output.pop();
        }
    }
    blocks
}

/// The line without a trailing README comment (two or more spaces, then `#`).
fn without_comment(line: &str) -> &str {
    match line.find("  #") {
        Some(at) => line[..at].trim_end(),
        None => line.trim_end(),
    }
}

/// Whether `actual` is `expected`, where each `…` in `expected` stands for any text.
fn matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split('…').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return expected == actual;
    }
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    if !actual.ends_with(last) {
        return false;
    }
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_readme_example_runs_as_written() {
    let root = repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = examples(&readme);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_lgame")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for (n, block) in blocks.iter().enumerate() {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&root.join("examples"), &dir.join("examples"));
        for example in block {
            if let Some((_, why)) = NOT_RUN_HERE
                .iter()
                .find(|(prefix, _)| example.command.starts_with(prefix))
            {
                eprintln!("README:{} not run here ({why})", example.line);
                continue;
            }
            assert!(
                example.command.contains("lgame"),
                "README:{}: a command this test does not know: {}",
                example.line,
                example.command
            );
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("exec 2>&1; {}", example.command))
                .current_dir(&dir)
                .env("PATH", &path)
                .env_remove("NO_COLOR")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let actual: Vec<&str> = text.lines().map(str::trim_end).collect();
            let expected: Vec<&str> = example.output.iter().map(String::as_str).collect();
            let shows_failure = expected
                .iter()
                .any(|l| l.starts_with("error:") || l.starts_with("exit "));
            assert!(
                out.status.success() || shows_failure,
                "README:{}: `{}` failed ({}):\n{text}",
                example.line,
                example.command,
                out.status
            );
            if !expected.is_empty() {
                let same = expected.len() == actual.len()
                    && expected.iter().zip(&actual).all(|(e, a)| matches(e, a));
                assert!(
                    same,
                    "README:{}: `{}` printed\n{text}\nbut the README shows\n{}",
                    example.line,
                    example.command,
                    expected.join("\n")
                );
            }
            ran += 1;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(ran >= 12, "only {ran} README examples were run");
}

#[test]
fn the_example_matcher_reads_ellipses_and_comments() {
    assert!(matches("{\"a\":1,…}", "{\"a\":1,\"b\":2}"));
    assert!(!matches("{\"a\":1,…}", "{\"a\":2,\"b\":2}"));
    assert!(matches("65 legal moves", "65 legal moves"));
    assert!(!matches("65 legal moves", "66 legal moves"));
    assert_eq!(
        without_comment("$ lgame solve   # every value"),
        "$ lgame solve"
    );
}
