//! `cargo xtask test`: installs what the tests run beside the Rust code, runs every test, and
//! checks that the tests left nothing in the checkout.

use std::env;
use std::ffi::OsString;
use std::process::{Command, ExitCode};

/// A program the tests run, and the Debian package that installs it.
struct Tool {
    program: &'static str,
    package: &'static str,
    needed_by: &'static str,
}

const TOOLS: &[Tool] = &[
    Tool {
        program: "chromium",
        package: "chromium",
        needed_by: "the web page's browser tests",
    },
    Tool {
        program: "chromedriver",
        package: "chromium-driver",
        needed_by: "the web page's browser tests",
    },
    Tool {
        program: "tmux",
        package: "tmux",
        needed_by: "the real-terminal test of `lgame play`",
    },
    Tool {
        program: "python3",
        package: "python3",
        needed_by: "the example engine in examples/engine.py",
    },
];

pub fn run(cargo_args: Vec<OsString>) -> ExitCode {
    if let Err(message) = install_missing_tools() {
        eprintln!("error: {message}");
        return ExitCode::FAILURE;
    }
    let before = stray_files();
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "--workspace", "--no-fail-fast"])
        .args(cargo_args)
        .status();
    let code = match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => ExitCode::from(status.code().map_or(1, |c| c.clamp(1, 255) as u8)),
        Err(e) => {
            eprintln!("error: cannot run cargo test: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The tests write only below target/ (and the system's temporary folder).
    if let (Some(before), Some(after)) = (before, stray_files()) {
        let left: Vec<&String> = after.iter().filter(|f| !before.contains(f)).collect();
        if !left.is_empty() {
            eprintln!("error: the tests left files in the checkout:");
            for file in left {
                eprintln!("  {file}");
            }
            return ExitCode::FAILURE;
        }
    }
    code
}

/// Files in the checkout that git does not track, outside target/ (ignored ones too, as
/// folders where a whole folder is), or `None` outside a git checkout.
fn stray_files() -> Option<Vec<String>> {
    let list = |extra: &[&str]| -> Option<Vec<String>> {
        let out = Command::new("git")
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(["ls-files", "--others", "--exclude-standard"])
            .args(extra)
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        Some(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_string)
                .collect(),
        )
    };
    let mut files = list(&[])?;
    files.extend(list(&["--ignored", "--directory"])?);
    files.retain(|f| !f.starts_with("target/"));
    Some(files)
}

/// Whether `program` can be found on the PATH.
fn on_path(program: &str) -> bool {
    env::var_os("PATH").is_some_and(|path| {
        env::split_paths(&path).any(|dir| {
            let candidate = dir.join(program);
            candidate.is_file()
                && std::fs::metadata(&candidate).is_ok_and(|m| {
                    std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0
                })
        })
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Installs the missing tools' packages, or says exactly which to install.
fn install_missing_tools() -> Result<(), String> {
    let missing: Vec<&Tool> = TOOLS.iter().filter(|t| !on_path(t.program)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut packages: Vec<&str> = missing.iter().map(|t| t.package).collect();
    packages.dedup();
    let needs = missing
        .iter()
        .map(|t| format!("  {} (package {}): {}", t.program, t.package, t.needed_by))
        .collect::<Vec<_>>()
        .join("\n");
    if !is_root() || !on_path("apt-get") {
        return Err(format!(
            "the tests need programs this machine does not have:\n{needs}\n\
             install them, then run `cargo xtask test` again:\n  sudo apt-get install {}",
            packages.join(" ")
        ));
    }
    eprintln!("== installing {} (needed by the tests)", packages.join(" "));
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map_err(|e| format!("cannot run apt-get: {e}"))
            .and_then(|s| {
                s.success()
                    .then_some(())
                    .ok_or_else(|| format!("apt-get {} failed ({s})", args.join(" ")))
            })
    };
    apt(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq"];
    install.extend(&packages);
    apt(&install)?;
    let still: Vec<&str> = missing
        .iter()
        .filter(|t| !on_path(t.program))
        .map(|t| t.program)
        .collect();
    if still.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "installed {} but still cannot find {} on the PATH",
            packages.join(" "),
            still.join(", ")
        ))
    }
}
