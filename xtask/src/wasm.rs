//! `cargo xtask wasm [--check]`: builds the page's WebAssembly engine (`crates/lgame-wasm`)
//! and writes it to `crates/lgame-web/web/engine/lgame.wasm`, the file committed and served
//! with the page; with `--check`, builds it and fails when the committed file differs (CI).
//!
//! The machine's Rust toolchain (rustup's) has no standard library for
//! `wasm32-unknown-unknown`, and none can be downloaded; Debian's packages give what is
//! needed: `rustc-web` (a rustc that targets WebAssembly), `rust-web-src` (the standard
//! library's source, built here with cargo's `-Z build-std`, allowed by `RUSTC_BOOTSTRAP=1`)
//! and `libllvm22`. The linker is the machine toolchain's own `rust-lld`. They are installed
//! with apt-get when missing (as root). Paths are remapped, so the bytes do not depend on
//! where the checkout, cargo's registry or the library's source are.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::test::{apt_install, is_root, run_step};

/// Debian's packages the build needs.
const PACKAGES: [&str; 3] = ["rustc-web", "rust-web-src", "libllvm22"];

/// Debian's rustc from `rustc-web`.
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";

/// Where the standard library's source is (`rust-web-src`).
const LIBRARY_SOURCE: &str = "/usr/lib/rustlib/src/rust";

/// The engine as committed, relative to the workspace's root.
pub const ENGINE: &str = "crates/lgame-web/web/engine/lgame.wasm";

fn installed(package: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", package])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
}

/// Installs Debian's packages that are missing (as root), or names them.
fn install() -> anyhow::Result<()> {
    let missing: Vec<&str> = PACKAGES.into_iter().filter(|p| !installed(p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !is_root() {
        anyhow::bail!(
            "the WebAssembly build needs Debian's packages: sudo apt-get install {}",
            missing.join(" ")
        );
    }
    eprintln!(
        "== installing {} (the WebAssembly build)",
        missing.join(" ")
    );
    apt_install(&missing).map_err(anyhow::Error::msg)
}

/// The machine toolchain's `rust-lld` (in its sysroot's `lib/rustlib/<host>/bin`).
fn rust_lld() -> anyhow::Result<PathBuf> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).args(["--print", "sysroot"]).output()?;
    let sysroot = PathBuf::from(String::from_utf8(out.stdout)?.trim());
    let rustlib = sysroot.join("lib").join("rustlib");
    for entry in std::fs::read_dir(&rustlib)? {
        let lld = entry?.path().join("bin").join("rust-lld");
        if lld.is_file() {
            return Ok(lld);
        }
    }
    anyhow::bail!("no rust-lld under {}", rustlib.display())
}

/// Builds the engine; returns the path of the `.wasm` built.
fn build(root: &Path) -> anyhow::Result<PathBuf> {
    install()?;
    let lld = rust_lld()?;
    let target = root.join("target").join("wasm");
    let home = env::var("CARGO_HOME")
        .ok()
        .or_else(|| env::var("HOME").ok().map(|h| format!("{h}/.cargo")))
        .unwrap_or_default();
    let remaps = [
        (root.display().to_string(), "/lgame"),
        (home, "/cargo"),
        (LIBRARY_SOURCE.to_string(), "/rust"),
    ];
    let flags: Vec<String> = remaps
        .iter()
        .filter(|(from, _)| !from.is_empty())
        .map(|(from, to)| format!("--remap-path-prefix={from}={to}"))
        .collect();
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("== building the WebAssembly engine (Debian's rustc-web, -Z build-std)");
    run_step(
        "cargo build (lgame-wasm for wasm32-unknown-unknown)",
        Command::new(cargo)
            .args(["build", "--quiet", "-p", "lgame-wasm", "--profile", "wasm"])
            .args(["--target", "wasm32-unknown-unknown"])
            .args(["-Z", "build-std=std,panic_abort"])
            .current_dir(root)
            .env("RUSTC_BOOTSTRAP", "1")
            .env("RUSTC", DEBIAN_RUSTC)
            .env_remove("RUSTC_WRAPPER")
            .env_remove("RUSTFLAGS")
            .env("CARGO_ENCODED_RUSTFLAGS", flags.join("\u{1f}"))
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", lld),
    )
    .map_err(anyhow::Error::msg)?;
    Ok(target
        .join("wasm32-unknown-unknown")
        .join("wasm")
        .join("lgame_wasm.wasm"))
}

/// `cargo xtask wasm [--check]`.
pub fn run(root: &Path, check: bool) -> anyhow::Result<()> {
    let built = build(root)?;
    let bytes = std::fs::read(&built)?;
    let committed = root.join(ENGINE);
    if check {
        let same = std::fs::read(&committed).is_ok_and(|c| c == bytes);
        if !same {
            anyhow::bail!(
                "{ENGINE} differs from the engine built from the source: run `cargo xtask wasm` and commit it"
            );
        }
        eprintln!(
            "== {ENGINE} is the engine built from the source ({} bytes)",
            bytes.len()
        );
        return Ok(());
    }
    if let Some(dir) = committed.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&committed, &bytes)?;
    eprintln!("== wrote {ENGINE} ({} bytes)", bytes.len());
    Ok(())
}
