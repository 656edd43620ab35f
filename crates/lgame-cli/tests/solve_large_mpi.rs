//! `mpirun -np N lgame solve-large --distributed` (the `mpi` feature) against the one-process
//! `lgame solve-large`: the same file byte for byte for 1 to 4 ranks, a stopped run resumed
//! with another number of ranks, and a rank killed mid-level. Needs Open MPI's `mpirun`
//! (Debian's `openmpi-bin`; `cargo xtask test` installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LGAME: &str = env!("CARGO_BIN_EXE_lgame");

#[path = "../../lgame-solver/tests/common/spaces.rs"]
mod spaces;

/// The large solver's test set and 6×4 with 5 neutrals (its figures are docs/large-boards.md's).
fn spaces() -> impl Iterator<Item = &'static str> {
    spaces::SMALL_SPACES
        .into_iter()
        .chain(["board=6x4,neutrals=5"])
}

/// `mpirun -np N lgame ARGS`, as root too (Open MPI refuses root without these two) and
/// with more ranks than the machine has cores.
fn mpirun(n: usize, args: &[&str]) -> Command {
    let mut command = Command::new("mpirun");
    command
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["--oversubscribe", "-np", &n.to_string(), LGAME])
        .args(args);
    command
}

fn run(command: &mut Command) -> Output {
    let out = command.output().unwrap_or_else(|e| {
        panic!("cannot run {command:?}: {e} (install Open MPI: apt-get install openmpi-bin)")
    });
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A file in a folder of the test's own (the tests run at once).
fn temp(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lgame-mpi-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The summary without the lines that differ between two runs of the same solve.
fn summary(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("Solve time:") && !l.starts_with("Table file:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Solves `variant` in one process into `path`; returns the file's bytes and the summary.
fn one_process(variant: &str, path: &Path, more: &[&str]) -> (Vec<u8>, String) {
    let file = path.to_str().unwrap();
    let out = run(Command::new(LGAME)
        .args(["--variant", variant, "solve-large", "--out", file])
        .args(more));
    (std::fs::read(path).unwrap(), summary(&out))
}

fn distributed(n: usize, variant: &str, path: &Path, more: &[&str]) -> (Vec<u8>, String) {
    let file = path.to_str().unwrap();
    let args = [
        "--variant",
        variant,
        "solve-large",
        "--distributed",
        "--out",
        file,
    ];
    let out = run(mpirun(n, &args).args(more));
    (std::fs::read(path).unwrap(), summary(&out))
}

#[test]
fn one_to_four_ranks_write_the_one_process_file_byte_for_byte() {
    let reference = temp("ranks", "one.lgbig");
    let path = temp("ranks", "ranks.lgbig");
    for variant in spaces() {
        let (bytes, text) = one_process(variant, &reference, &[]);
        for n in 1..=4 {
            let (got, got_text) = distributed(n, variant, &path, &[]);
            assert!(got == bytes, "{variant} on {n} ranks: the file differs");
            assert_eq!(got_text, text, "{variant} on {n} ranks");
        }
        if variant == "board=6x4,neutrals=5" {
            // The figures of docs/large-boards.md.
            assert!(
                text.contains("Won/lost/drawn: 808,876 / 1,860 / 15,787,664"),
                "{text}"
            );
        }
    }
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_run_stopped_after_a_level_resumes_with_another_number_of_ranks() {
    let reference = temp("stopped", "whole.lgbig");
    let path = temp("stopped", "stopped.lgbig");
    for variant in ["classic", "board=6x4,neutrals=5"] {
        let (whole, text) = one_process(variant, &reference, &[]);
        let stop = ["--stop-after-level", "2", "--checkpoint-minutes", "0"];
        // A checkpoint of 3 ranks is the one-process run's, and resumes on 2 ranks...
        let (checkpoint, said) = distributed(3, variant, &path, &stop);
        assert!(said.starts_with("Stopped after level 2"), "{said}");
        assert!(checkpoint != whole, "{variant}: stopped before the end");
        let (one, _) = one_process(variant, &reference, &stop);
        assert!(checkpoint == one, "{variant}: the checkpoints differ");
        let (resumed, _) = distributed(2, variant, &path, &["--resume"]);
        assert!(resumed == whole, "{variant}: resumed on 2 ranks");
        // ... and one of a single process resumes on 4 ranks, one of 4 in a single process.
        one_process(variant, &path, &stop);
        let (resumed, _) = distributed(4, variant, &path, &["--resume"]);
        assert!(resumed == whole, "{variant}: resumed on 4 ranks");
        distributed(4, variant, &path, &stop);
        let (resumed, resumed_text) = one_process(variant, &path, &["--resume"]);
        assert!(resumed == whole, "{variant}: resumed in one process");
        // The figures are the table's, whoever solved which levels (not the levels' line).
        let figures = |t: &str| t.lines().take(6).collect::<Vec<_>>().join("\n");
        assert_eq!(figures(&resumed_text), figures(&text), "{variant}");
    }
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// The process of rank `rank` of a run writing `path`: the one whose command line names
/// the file and whose environment Open MPI gave that rank.
fn rank_process(path: &str, rank: usize) -> Option<u32> {
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let environ = std::fs::read(entry.path().join("environ")).ok()?;
            let has =
                |bytes: &[u8], word: &str| bytes.split(|&b| b == 0).any(|w| w == word.as_bytes());
            (has(&cmdline, LGAME) && has(&cmdline, path) && has(&environ, &wanted)).then_some(pid)
        })
}

#[test]
fn a_rank_killed_mid_level_ends_the_run_naming_it_and_the_checkpoint_resumes() {
    let variant = "board=6x4,neutrals=5";
    let (whole, _) = one_process(variant, &temp("killed", "whole.lgbig"), &[]);
    let path = temp("killed", "killed.lgbig");
    let file = path.to_str().unwrap();
    let args = [
        "--variant",
        variant,
        "solve-large",
        "--distributed",
        "--checkpoint-minutes",
        "0",
        "--out",
        file,
    ];
    let child = mpirun(2, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun runs (install Open MPI: apt-get install openmpi-bin)");
    // Level 0's checkpoint: the run is in level 1 (of 7) when it appears.
    let started = Instant::now();
    while !path.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no checkpoint"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = rank_process(file, 1).expect("rank 1 is running");
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status();
    assert!(killed.unwrap().success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("process rank 1 with PID") && stderr.contains("Killed"),
        "{stderr}"
    );
    let checkpoint = std::fs::read(&path).unwrap();
    assert_eq!(
        &checkpoint[16..20],
        &[0, 0, 0, 0],
        "a checkpoint, not a result"
    );
    let (resumed, _) = distributed(3, variant, &path, &["--resume"]);
    assert!(resumed == whole, "the resumed run's file differs");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_share_over_max_memory_is_refused_once_by_rank_0() {
    let path = temp("refused", "refused.lgbig");
    let file = path.to_str().unwrap();
    let args = [
        "--variant",
        "board=6x5,neutrals=7",
        "solve-large",
        "--distributed",
        "--max-memory",
        "100M",
        "--out",
        file,
    ];
    let out = mpirun(3, &args).output().expect("mpirun runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    // 377.8 MB in 3 shares of whole runs: the largest is over 100 MB.
    assert_eq!(stderr.matches("error: ").count(), 1, "{stderr}");
    assert!(
        stderr.contains("a rank for its table") && stderr.contains("--max-memory 100"),
        "{stderr}"
    );
    assert!(!path.exists());
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}
