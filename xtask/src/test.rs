//! `cargo xtask test`: installs what the tests run beside the Rust code (Debian's packages,
//! and the page's npm packages), runs every test (the Rust ones, then the Python package's),
//! and checks that the tests left nothing in the checkout nor in the user's home.

use std::collections::BTreeSet;
use std::env;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// A program the tests run (and a Python module it must have), and the Debian package that
/// installs it.
struct Tool {
    program: &'static str,
    python_module: Option<&'static str>,
    /// Where else than on the PATH the program may be: a folder of versions, each with its
    /// programs in `bin/` (Debian's `/usr/lib/postgresql/<major>/bin`).
    versions_in: Option<&'static str>,
    package: &'static str,
    needed_by: &'static str,
}

const TOOLS: &[Tool] = &[
    Tool {
        program: "chromium",
        python_module: None,
        versions_in: None,
        package: "chromium",
        needed_by: "the web page's browser tests",
    },
    Tool {
        program: "chromedriver",
        python_module: None,
        versions_in: None,
        package: "chromium-driver",
        needed_by: "the web page's browser tests",
    },
    Tool {
        program: "tmux",
        python_module: None,
        versions_in: None,
        package: "tmux",
        needed_by: "the real-terminal test of `lgame play`",
    },
    Tool {
        program: "python3",
        python_module: None,
        versions_in: None,
        package: "python3",
        needed_by: "the example engine in examples/engine.py and the Python package's tests",
    },
    // Debian's python3 makes virtual environments only with python3-venv (its ensurepip).
    Tool {
        program: "python3",
        python_module: Some("ensurepip"),
        versions_in: None,
        package: "python3-venv",
        needed_by: "the virtual environment of the Python package's tests",
    },
    // Debian's own Python (not one of the user's, such as pyenv's), which the package serves.
    Tool {
        program: "/usr/bin/python3",
        python_module: Some("aiosmtpd"),
        versions_in: None,
        package: "python3-aiosmtpd",
        needed_by: "the SMTP server of the game server's mail tests (serve_mail)",
    },
    Tool {
        program: "node",
        python_module: None,
        versions_in: None,
        package: "nodejs",
        needed_by: "the page's npm packages: axe-core for its accessibility test (web_a11y)",
    },
    Tool {
        program: "npm",
        python_module: None,
        versions_in: None,
        package: "npm",
        needed_by: "installing the page's npm packages (npm ci in crates/lgame-web)",
    },
    // lgame-test-support's postgres module finds the rest of PostgreSQL beside initdb.
    Tool {
        program: "initdb",
        python_module: None,
        versions_in: Some("/usr/lib/postgresql"),
        package: "postgresql",
        needed_by: "the game server's tests against PostgreSQL (a throwaway cluster)",
    },
    Tool {
        program: "caddy",
        python_module: None,
        versions_in: None,
        package: "caddy",
        needed_by: "the shipped deploy/Caddyfile in front of `lgame serve` (lgame-cli's deploy)",
    },
    Tool {
        program: "systemd-analyze",
        python_module: None,
        versions_in: None,
        package: "systemd",
        needed_by: "`systemd-analyze verify` of the shipped deploy/lgame.service",
    },
    Tool {
        program: "prometheus",
        python_module: None,
        versions_in: None,
        package: "prometheus",
        needed_by: "the test of `lgame serve --metrics-addr` (Prometheus scrapes the server)",
    },
    Tool {
        program: "mpirun",
        python_module: None,
        versions_in: None,
        package: "openmpi-bin",
        needed_by: "the large-board solve over MPI (solve_large_mpi: mpirun -np 1 to 4)",
    },
    // The `mpi` crate's build finds Open MPI through mpicc and binds it with bindgen, which
    // loads libclang (clang brings it).
    Tool {
        program: "mpicc",
        python_module: None,
        versions_in: None,
        package: "libopenmpi-dev",
        needed_by: "building lgame-cli's `mpi` feature (the mpi crate)",
    },
    Tool {
        program: "clang",
        python_module: None,
        versions_in: None,
        package: "clang",
        needed_by: "building lgame-cli's `mpi` feature (bindgen needs libclang)",
    },
];

/// What builds the Python package's wheel, in the build environment (`py-venv`).
const PYTHON_BUILD_PACKAGES: &[&str] = &["maturin>=1.5,<2"];

/// What the Python suite installs beside the wheel in its fresh test environment, by
/// compatible major version (OpenSpiel for `lgame.openspiel`).
const PYTHON_PACKAGES: &[&str] = &[
    "pettingzoo>=1.24,<2",
    "gymnasium>=1.1,<2",
    "numpy>=1.21,<3",
    "pytest>=7,<10",
    "open_spiel>=1.5,<3",
];

/// The folders of the user's home the tests must add nothing to ("" is the home itself),
/// each listed one level deep: where Chromium would keep its configuration, caches, crash
/// reports and downloads.
const HOME_FOLDERS: [&str; 4] = ["", ".config", ".cache", "Downloads"];

/// What the tools the tests run keep in the home on purpose, and may add on a first run:
/// cargo's registry and rustup's toolchains (the build itself), npm's package cache (`npm
/// ci`), and pip's download cache in `~/.cache` (the Python suite's packages); `.cache` may
/// appear for pip's sake, and is listed itself, so nothing else may appear in it.
const HOME_KEPT: [&str; 5] = [".cargo", ".rustup", ".npm", ".cache", ".cache/pip"];

/// What is in the checkout and the user's home before the tests, to compare with after.
struct Before {
    checkout: Option<Vec<String>>,
    home: Option<BTreeSet<String>>,
}

impl Before {
    fn now() -> Before {
        Before {
            checkout: stray_files(),
            home: home_entries(),
        }
    }

    /// Whether the tests left nothing new in the checkout or the home; names what they left.
    fn left_nothing(self) -> bool {
        let checkout = left_nothing(self.checkout);
        let home = left_nothing_at_home(self.home);
        checkout && home
    }
}

/// Installs what the tests need: Debian's packages, then the page's npm packages.
fn install_everything() -> Result<(), String> {
    install_missing_tools(TOOLS.iter().collect())?;
    npm_packages()
}

pub fn run(cargo_args: Vec<OsString>) -> ExitCode {
    if let Err(message) = install_everything() {
        eprintln!("error: {message}");
        return ExitCode::FAILURE;
    }
    let before = Before::now();
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut test = Command::new(cargo);
    test.args(["test", "--no-fail-fast"]);
    // cargo ignores `-p` beside `--workspace`: the whole workspace only when none is named.
    if !names_a_package(&cargo_args) {
        test.arg("--workspace");
    }
    let status = test.args(&cargo_args).status();
    let mut code = match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => ExitCode::from(status.code().map_or(1, |c| c.clamp(1, 255) as u8)),
        Err(e) => {
            eprintln!("error: cannot run cargo test: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Arguments pick Rust tests (`-p lgame`); the `mpi` feature's tests and the Python
    // suite run with the whole set.
    if cargo_args.is_empty() {
        if let Err(message) = mpi_tests() {
            eprintln!("error: {message}");
            code = ExitCode::FAILURE;
        }
        if let Err(message) = python_suite() {
            eprintln!("error: {message}");
            code = ExitCode::FAILURE;
        }
    } else {
        eprintln!(
            "== the MPI tests and the Python package's tests run only without arguments (cargo xtask test)"
        );
    }
    // The tests write only below target/ (and the system's temporary folder).
    if !before.left_nothing() {
        return ExitCode::FAILURE;
    }
    code
}

/// lgame-cli's `mpi` feature (not in the workspace's default build): its build, and its
/// tests under a real mpirun (`solve_large_mpi`).
fn mpi_tests() -> Result<(), String> {
    eprintln!("== the large-board solve over MPI: cargo test -p lgame-cli --features mpi");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    run_step(
        "cargo test -p lgame-cli --features mpi --test solve_large_mpi",
        Command::new(cargo).args([
            "test",
            "-p",
            "lgame-cli",
            "--features",
            "mpi",
            "--test",
            "solve_large_mpi",
        ]),
    )
}

/// Whether cargo test's arguments name packages (`-p NAME`, `-pNAME`, `--package NAME`,
/// `--package=NAME`): then `--workspace` must not be given, or cargo tests every package.
fn names_a_package(cargo_args: &[OsString]) -> bool {
    cargo_args
        .iter()
        .filter_map(|a| a.to_str())
        // After `--`, the arguments are the test binaries'.
        .take_while(|a| *a != "--")
        .any(|a| a.starts_with("-p") || a == "--package" || a.starts_with("--package="))
}

/// `cargo xtask npm-ci`: the page's npm packages alone (Node.js and npm installed first when
/// missing), for CI's type check of the page (`npm run check`).
pub fn run_npm_ci() -> ExitCode {
    let node: Vec<&Tool> = TOOLS
        .iter()
        .filter(|t| matches!(t.program, "node" | "npm"))
        .collect();
    match install_missing_tools(node).and_then(|()| npm_packages()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The page's npm packages (`crates/lgame-web/package-lock.json`: axe-core for the
/// accessibility test, TypeScript for CI's type check), installed by `npm ci` when
/// `node_modules` is missing or older than the lock file (npm writes
/// `node_modules/.package-lock.json` at the end of an install).
fn npm_packages() -> Result<(), String> {
    let web = root().join("crates").join("lgame-web");
    let lock = web.join("package-lock.json");
    let installed = web.join("node_modules").join(".package-lock.json");
    let why = match (modified(&installed), modified(&lock)) {
        (None, _) => "missing",
        (Some(installed), Some(lock)) if installed < lock => "older than package-lock.json",
        _ => return Ok(()),
    };
    eprintln!("== npm ci in crates/lgame-web (node_modules {why})");
    run_step(
        "npm ci (in crates/lgame-web)",
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&web),
    )
}

/// When `path` was last modified, or `None` if it is not there.
fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The entries of [`HOME_FOLDERS`] (`.config/chromium`, `Downloads/x.pdf`, `.lgame`), or
/// `None` without a home.
fn home_entries() -> Option<BTreeSet<String>> {
    let home = PathBuf::from(env::var_os("HOME").filter(|h| !h.is_empty())?);
    let mut entries = BTreeSet::new();
    for folder in HOME_FOLDERS {
        let Ok(read) = std::fs::read_dir(home.join(folder)) else {
            continue;
        };
        for entry in read.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            entries.insert(if folder.is_empty() {
                name
            } else {
                format!("{folder}/{name}")
            });
        }
    }
    Some(entries)
}

/// Whether the tests left no new entry in the home's [`HOME_FOLDERS`] since `before`, but
/// for [`HOME_KEPT`]; names any they left.
fn left_nothing_at_home(before: Option<BTreeSet<String>>) -> bool {
    let (Some(before), Some(after)) = (before, home_entries()) else {
        return true;
    };
    let left = new_in_home(&before, &after);
    if !left.is_empty() {
        eprintln!("error: the tests left files in the home folder (~):");
        for entry in &left {
            eprintln!("  ~/{entry}");
        }
    }
    left.is_empty()
}

/// The entries of `after` not in `before` nor kept on purpose ([`HOME_KEPT`]).
fn new_in_home<'a>(before: &'a BTreeSet<String>, after: &'a BTreeSet<String>) -> Vec<&'a String> {
    after
        .difference(before)
        .filter(|entry| !HOME_KEPT.contains(&entry.as_str()))
        .collect()
}

/// The workspace's root folder.
fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
}

/// The target folder: `$CARGO_TARGET_DIR` or `target/` in the checkout.
fn target_dir() -> PathBuf {
    match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// Runs a command to its end; an error names it unless it succeeded.
pub(crate) fn run_step(what: &str, command: &mut Command) -> Result<(), String> {
    match command.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{what} failed ({s})")),
        Err(e) => Err(format!("cannot run {what}: {e}")),
    }
}

/// The Python package's tests (python/tests) against the wheel `maturin build --release`
/// makes, installed in a fresh virtual environment whose `PATH` has no Rust toolchain: what
/// a user without Rust gets. maturin itself lives in a build environment kept in the target
/// folder (`py-venv`) between runs; the test environment (`py-test-venv`) is made anew.
fn python_suite() -> Result<(), String> {
    let started = Instant::now();
    let root = root();
    let target = target_dir();
    let build_venv = target.join("py-venv");
    make_venv(&build_venv)?;
    let mut build_path = vec![build_venv.join("bin")];
    build_path.extend(env::var_os("PATH").iter().flat_map(env::split_paths));
    let build_path = env::join_paths(build_path).map_err(|e| format!("cannot extend PATH: {e}"))?;
    eprintln!(
        "== the Python package: pip install {} (the build environment)",
        PYTHON_BUILD_PACKAGES.join(" ")
    );
    let packages: Vec<&OsStr> = PYTHON_BUILD_PACKAGES.iter().map(OsStr::new).collect();
    run_step(
        "pip install (the build packages)",
        &mut pip(&build_venv, &build_path, &packages),
    )?;

    // The wheel, alone in its folder.
    let wheels = target.join("py-wheel");
    if wheels.exists() {
        std::fs::remove_dir_all(&wheels)
            .map_err(|e| format!("cannot empty {}: {e}", wheels.display()))?;
    }
    eprintln!("== the Python package: maturin build --release (the wheel)");
    run_step(
        "maturin build --release",
        Command::new(build_venv.join("bin").join("maturin"))
            .args(["build", "--release", "--quiet", "--out"])
            .arg(&wheels)
            .env("PATH", &build_path)
            // maturin's cargo build goes to the same target folder as the Rust tests'.
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(&root),
    )?;
    let wheel = std::fs::read_dir(&wheels)
        .map_err(|e| format!("cannot read {}: {e}", wheels.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .find(|path| path.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| format!("maturin left no wheel in {}", wheels.display()))?;

    // The `lgame` command, which some tests cross-check against, built while cargo is here.
    let lgame = lgame_binary(&target)?;

    // A fresh environment on a PATH without the toolchain.
    let bare_path = path_without_rust()?;
    let test_venv = target.join("py-test-venv");
    if test_venv.exists() {
        std::fs::remove_dir_all(&test_venv)
            .map_err(|e| format!("cannot remove {}: {e}", test_venv.display()))?;
    }
    make_venv(&test_venv)?;
    let mut test_path = vec![test_venv.join("bin")];
    test_path.extend(env::split_paths(&bare_path));
    let test_path = env::join_paths(test_path).map_err(|e| format!("cannot set PATH: {e}"))?;
    eprintln!(
        "== the Python package: pip install {} {} (a fresh environment, no cargo nor rustc on PATH)",
        PYTHON_PACKAGES.join(" "),
        wheel.display()
    );
    let mut install: Vec<&OsStr> = PYTHON_PACKAGES.iter().map(OsStr::new).collect();
    install.push(wheel.as_os_str());
    run_step(
        "pip install (the wheel and the test packages)",
        // No source build: a wheel or nothing.
        pip(&test_venv, &test_path, &install).arg("--only-binary=:all:"),
    )?;
    let tests_started = Instant::now();
    eprintln!(
        "== the Python package's tests: python -m pytest python/tests (set up in {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    let result = run_step(
        "the Python tests (python -m pytest python/tests)",
        Command::new(test_venv.join("bin").join("python"))
            .args([
                "-m",
                "pytest",
                "python/tests",
                "-q",
                "-p",
                "no:cacheprovider",
            ])
            // Nothing written in the checkout: no .pyc files, no .pytest_cache.
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .env("PATH", &test_path)
            .env("VIRTUAL_ENV", &test_venv)
            .env("LGAME", &lgame)
            .env_remove("CARGO_TARGET_DIR")
            .current_dir(&root),
    );
    eprintln!(
        "== the Python package's tests took {:.0} s ({:.0} s with the set-up)",
        tests_started.elapsed().as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    result
}

/// Makes a virtual environment unless it is there.
fn make_venv(venv: &Path) -> Result<(), String> {
    if venv.join("bin").join("python").is_file() {
        return Ok(());
    }
    eprintln!("== creating the virtual environment {}", venv.display());
    run_step(
        "python3 -m venv",
        Command::new("python3").arg("-m").arg("venv").arg(venv),
    )
}

/// `pip install --quiet ARGS` in an environment, as if activated, with `path` as `PATH`.
fn pip(venv: &Path, path: &OsStr, args: &[&OsStr]) -> Command {
    let mut command = Command::new(venv.join("bin").join("python"));
    command
        .args(["-m", "pip", "install", "--quiet"])
        .arg("--disable-pip-version-check")
        .args(args)
        .env("VIRTUAL_ENV", venv)
        .env("PATH", path)
        .current_dir(root());
    command
}

/// The `lgame` binary: `$LGAME`, else the one in the target folder (a test build makes
/// `debug/lgame`), built if there is none.
fn lgame_binary(target: &Path) -> Result<PathBuf, String> {
    if let Some(path) = env::var_os("LGAME").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let built = ["release", "debug"]
        .map(|profile| target.join(profile).join("lgame"))
        .into_iter()
        .find(|path| path.is_file());
    if let Some(path) = built {
        return Ok(path);
    }
    eprintln!("== building the lgame command for the Python tests' cross-checks");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    run_step(
        "cargo build -p lgame-cli",
        Command::new(cargo)
            .args(["build", "-p", "lgame-cli"])
            .env("CARGO_TARGET_DIR", target)
            .current_dir(root()),
    )?;
    Ok(target.join("debug").join("lgame"))
}

/// `PATH` without the folders that hold `cargo`, `rustc` or `rustup` (rustup's
/// `~/.cargo/bin`, a system toolchain's folder): the Python tests run as on a machine
/// without Rust.
fn path_without_rust() -> Result<OsString, String> {
    let rust = |dir: &Path| {
        ["cargo", "rustc", "rustup"]
            .iter()
            .any(|p| dir.join(p).exists())
    };
    let kept: Vec<PathBuf> = env::var_os("PATH")
        .iter()
        .flat_map(env::split_paths)
        .filter(|dir| !rust(dir))
        .collect();
    env::join_paths(kept).map_err(|e| format!("cannot set PATH: {e}"))
}

/// `cargo xtask test-python`: the Python suite alone, with the same checks.
pub fn run_python() -> ExitCode {
    if let Err(message) = install_missing_tools(TOOLS.iter().collect()) {
        eprintln!("error: {message}");
        return ExitCode::FAILURE;
    }
    let before = Before::now();
    let mut code = ExitCode::SUCCESS;
    if let Err(message) = python_suite() {
        eprintln!("error: {message}");
        code = ExitCode::FAILURE;
    }
    if !before.left_nothing() {
        code = ExitCode::FAILURE;
    }
    code
}

/// Whether the tests left no new file in the checkout since `before`; names any they left.
fn left_nothing(before: Option<Vec<String>>) -> bool {
    let (Some(before), Some(after)) = (before, stray_files()) else {
        return true;
    };
    let left: Vec<&String> = after.iter().filter(|f| !before.contains(f)).collect();
    if !left.is_empty() {
        eprintln!("error: the tests left files in the checkout:");
        for file in &left {
            eprintln!("  {file}");
        }
    }
    left.is_empty()
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
pub(crate) fn on_path(program: &str) -> bool {
    env::var_os("PATH")
        .is_some_and(|path| env::split_paths(&path).any(|dir| executable(&dir.join(program))))
}

/// Whether `program` is in `VERSIONS/<any>/bin`.
fn in_versions(versions: &str, program: &str) -> bool {
    std::fs::read_dir(versions).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|version| executable(&version.path().join("bin").join(program)))
    })
}

fn executable(path: &Path) -> bool {
    path.is_file()
        && std::fs::metadata(path)
            .is_ok_and(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0)
}

/// Whether the tool is there: the program on the PATH (or in its folder of versions), with
/// its Python module if it needs one.
fn present(tool: &Tool) -> bool {
    (on_path(tool.program)
        || tool
            .versions_in
            .is_some_and(|versions| in_versions(versions, tool.program)))
        && tool.python_module.is_none_or(|module| {
            Command::new(tool.program)
                .args(["-c", &format!("import {module}")])
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Installs the packages of the `tools` that are missing, or says exactly which to install.
fn install_missing_tools(tools: Vec<&Tool>) -> Result<(), String> {
    let missing: Vec<&Tool> = tools.into_iter().filter(|t| !present(t)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut packages: Vec<&str> = missing.iter().map(|t| t.package).collect();
    packages.dedup();
    let needs = missing
        .iter()
        .map(|t| match t.python_module {
            Some(module) => format!(
                "  {}'s {module} module (package {}): {}",
                t.program, t.package, t.needed_by
            ),
            None => format!("  {} (package {}): {}", t.program, t.package, t.needed_by),
        })
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
    apt_install(&packages)?;
    let still: Vec<&str> = missing
        .iter()
        .filter(|t| !present(t))
        .map(|t| t.package)
        .collect();
    if still.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "installed {} but still missing what packages {} install",
            packages.join(" "),
            still.join(", ")
        ))
    }
}

/// `apt-get update`, then `apt-get install` of `packages` (as root, not interactive).
pub(crate) fn apt_install(packages: &[&str]) -> Result<(), String> {
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
    install.extend(packages);
    apt(&install)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_is_tested_whole_unless_a_package_is_named_before_the_test_arguments() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(names_a_package(&args(&["-p", "lgame"])));
        assert!(names_a_package(&args(&["-plgame"])));
        assert!(names_a_package(&args(&[
            "--test",
            "x",
            "--package",
            "lgame-web"
        ])));
        assert!(names_a_package(&args(&["--package=lgame-web"])));
        assert!(!names_a_package(&args(&[])));
        assert!(!names_a_package(&args(&[
            "--test",
            "web_a11y",
            "--profile",
            "test"
        ])));
        assert!(!names_a_package(&args(&["--", "-p"])));
    }

    #[test]
    fn a_new_entry_in_the_home_counts_unless_a_tool_keeps_it_there() {
        let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
        let before = set(&[".bashrc", ".config/git"]);
        let after = set(&[
            ".bashrc",
            ".config/git",
            ".cargo",
            ".npm",
            ".cache",
            ".cache/pip",
            ".config/chromium",
            ".cache/chromium",
            "Downloads",
        ]);
        let left: Vec<&str> = new_in_home(&before, &after)
            .into_iter()
            .map(String::as_str)
            .collect();
        assert_eq!(left, [".cache/chromium", ".config/chromium", "Downloads"]);
    }

    #[test]
    fn a_program_is_found_in_any_version_folder_if_executable() {
        use std::os::unix::fs::PermissionsExt;
        let versions = env::temp_dir().join(format!("lgame-xtask-versions-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&versions);
        let bin = versions.join("15").join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(versions.join("13").join("bin")).unwrap();
        let program = bin.join("initdb");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        let text = versions.to_str().unwrap();
        let not_executable = in_versions(text, "initdb");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let found = (in_versions(text, "initdb"), in_versions(text, "postgres"));
        let missing = in_versions(&format!("{text}/none"), "initdb");
        std::fs::remove_dir_all(&versions).unwrap();
        assert!(!not_executable);
        assert_eq!(found, (true, false));
        assert!(!missing);
    }
}
