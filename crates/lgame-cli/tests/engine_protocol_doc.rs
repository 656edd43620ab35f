//! The example session of `docs/engine-protocol.md` is a real one: its block is replayed
//! against the built `lgame engine`, and every line the engine writes must be the block's.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use lgame_test_support::{lines_of, Lgame};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// The engine the document says the session is with.
const INVOCATION: &str = "lgame engine --level perfect --seed 1";

/// The lines of the first fenced block after the `## A session` heading.
fn session_block(doc: &str) -> Vec<&str> {
    let section = doc
        .split_once("\n## A session\n")
        .expect("the document has a section '## A session'")
        .1;
    let section = section.split("\n## ").next().unwrap_or(section);
    assert!(
        section.contains(&format!("`{INVOCATION}`")),
        "the section names the engine `{INVOCATION}`"
    );
    let block = section
        .split_once("\n```\n")
        .expect("the section has a fenced block")
        .1;
    let block = block.split_once("\n```").expect("the block is closed").0;
    block.lines().collect()
}

#[test]
fn the_documents_example_session_is_what_lgame_engine_answers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/engine-protocol.md");
    let doc = std::fs::read_to_string(&path).expect("docs/engine-protocol.md is readable");
    let block = session_block(&doc);
    assert!(block.len() > 20, "a whole session: {block:?}");
    assert_eq!(block.first(), Some(&"> lgp"));
    assert_eq!(block.last(), Some(&"> quit"));

    let args: Vec<&str> = INVOCATION.split(' ').skip(1).collect();
    let mut child = LGAME
        .command()
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lgame engine starts");
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let replies = lines_of(stdout);
    let mut sent = 0;
    for (number, line) in block.iter().enumerate() {
        let at = format!("docs/engine-protocol.md, the session's line {}", number + 1);
        if let Some(command) = line.strip_prefix("> ") {
            writeln!(stdin, "{command}").expect("the engine reads its input");
            stdin.flush().expect("the engine reads its input");
            sent += 1;
        } else if let Some(expected) = line.strip_prefix("< ") {
            match replies.recv_timeout(Duration::from_secs(30)) {
                Ok(reply) => assert_eq!(reply, expected, "{at}"),
                Err(e) => panic!("{at}: no reply '{expected}' ({e:?})"),
            }
        } else {
            panic!("{at}: '{line}' is neither '> COMMAND' nor '< REPLY'");
        }
    }
    assert!(sent > 10);
    // After `quit` the engine ends, and wrote nothing the block does not show.
    match replies.recv_timeout(Duration::from_secs(30)) {
        Err(RecvTimeoutError::Disconnected) => {}
        other => panic!("after the session the engine wrote {other:?}"),
    }
    let out = child.wait_with_output().expect("the engine ends");
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
