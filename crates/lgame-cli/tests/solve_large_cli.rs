//! `lgame solve-large`: solves into a file, probes it (memory-mapped), resumes, refuses
//! (`--distributed` too, in a build without the `mpi` feature).

use std::path::PathBuf;
use std::process::{Command, Output};

fn lgame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lgame"))
        .args(args)
        .output()
        .expect("the lgame binary runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lgame-solve-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn solves_the_classic_game_and_probes_the_file() {
    let path = temp("classic.lgbig");
    let file = path.to_str().unwrap();
    let out = lgame(&["solve-large", "--out", file]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("Positions:      18,368 (2,296 classes)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Won/lost/drawn: 8,048 / 232 / 10,088"),
        "{stdout}"
    );
    assert!(stdout.contains("Longest win:    9 plies"), "{stdout}");
    // A trapped position, the standard start, and the longest win from docs/analysis.md.
    for (position, expected) in [
        ("RRN./RB../RBBB/N... r", "loss in 0"),
        ("standard", "draw"),
        ("..../N.BB/R.NB/RRRB r", "win in 9"),
    ] {
        let out = lgame(&["solve-large", "--out", file, "--probe", position]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stderr}");
        assert_eq!(stdout.trim(), expected, "{position}");
    }
    // Resuming a finished table finds nothing more to do and gives the same figures.
    let out = lgame(&["solve-large", "--out", file, "--resume"]);
    let (again, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        again.contains("Won/lost/drawn: 8,048 / 232 / 10,088"),
        "{again}"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn refuses_other_rules_a_space_too_big_and_a_missing_file() {
    let path = temp("refused.lgbig");
    let file = path.to_str().unwrap();
    let out = lgame(&["--variant", "misere", "solve-large", "--out", file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("classic rules only"),
        "{}",
        text(&out).1
    );
    let out = lgame(&[
        "--variant",
        "board=8x8,neutrals=8",
        "solve-large",
        "--out",
        file,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("more than --max-memory"),
        "{}",
        text(&out).1
    );
    let out = lgame(&["solve-large", "--out", file, "--probe", "standard"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("refused.lgbig"), "{}", text(&out).1);
    // Built without MPI, --distributed says how to build it.
    #[cfg(not(feature = "mpi"))]
    {
        let out = lgame(&["solve-large", "--distributed", "--out", file]);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out).1.contains("--features mpi"), "{}", text(&out).1);
    }
    assert!(!path.exists());
}
